//! The CUDA runtime side: the driver, one device, one stream, device memory,
//! module loading, launches and cuBLAS, through `cudarc`'s thin wrappers of
//! the driver API.
//!
//! `libcuda.so` and `libcublas.so` are loaded when first needed
//! (`cudarc`'s dynamic loading), so nothing here is linked at build time and
//! a machine without CUDA gets [`GpuError::NoDriver`] from [`Device::get`]
//! instead of a failed start. The driver API keeps a current context per
//! thread; every entry point here makes the device's context current first.

use std::ffi::{CString, c_void};
use std::sync::{Arc, Mutex, OnceLock};

use cudarc::cublas::{result as blas, sys as blas_sys};
use cudarc::driver::{result as cu, sys};
use smelt_hlo::DType;

use crate::error::{GpuError, Result};

/// One CUDA device with its primary context and a stream.
pub struct Device {
    ordinal: i32,
    device: sys::CUdevice,
    context: sys::CUcontext,
    pub(crate) stream: sys::CUstream,
    name: String,
    /// Compute capability as `sm_XX` numbers it (90 for Hopper).
    pub sm: u32,
    cublas: OnceLock<std::result::Result<Cublas, String>>,
    /// Serializes use of the stream and the cuBLAS handle.
    pub(crate) lock: Mutex<()>,
}

struct Cublas(blas_sys::cublasHandle_t);

// SAFETY: the handles are plain driver objects; `Device::lock` serializes
// their use and the driver API is thread-safe once a context is current.
unsafe impl Send for Device {}
unsafe impl Sync for Device {}
unsafe impl Send for Cublas {}
unsafe impl Sync for Cublas {}

/// Whether this machine has a CUDA driver library at all.
pub fn driver_present() -> bool {
    // SAFETY: only tries to load the library.
    unsafe { sys::is_culib_present() }
}

static DEVICE: OnceLock<std::result::Result<Arc<Device>, String>> = OnceLock::new();

impl Device {
    /// Device 0, opened once per process.
    pub fn get() -> Result<Arc<Device>> {
        match DEVICE.get_or_init(|| Device::open(0).map(Arc::new).map_err(|e| e.to_string())) {
            Ok(d) => Ok(d.clone()),
            Err(_) if !driver_present() => Err(GpuError::NoDriver),
            Err(e) => Err(GpuError::NoDevice(e.clone())),
        }
    }

    fn open(ordinal: i32) -> Result<Device> {
        if !driver_present() {
            return Err(GpuError::NoDriver);
        }
        cu::init()?;
        let n = cu::device::get_count()?;
        if n <= ordinal {
            return Err(GpuError::NoDevice(format!("the driver reports {n} devices")));
        }
        let device = cu::device::get(ordinal)?;
        let name = cu::device::get_name(device).unwrap_or_else(|_| "unknown".into());
        // SAFETY: `device` is valid; the primary context lives until released in Drop.
        let context = unsafe { cu::primary_ctx::retain(device)? };
        // SAFETY: as above.
        unsafe { cu::ctx::set_current(context)? };
        // Sorts take scratch rows from the device heap (8 MiB by default):
        // a sixteenth of the device's memory, between 256 MiB and 4 GiB.
        // SAFETY: `device` came from `device::get`.
        let total = unsafe { cu::device::total_mem(device)? };
        let heap = (total / 16).clamp(256 << 20, 4 << 30);
        cu::ctx::set_limit(sys::CUlimit::CU_LIMIT_MALLOC_HEAP_SIZE, heap)?;
        // A blocking stream: it orders itself with the synchronous copies,
        // which run on the legacy default stream.
        let stream = cu::stream::create(cu::stream::StreamKind::Default)?;
        use sys::CUdevice_attribute::{
            CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR as MAJOR,
            CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR as MINOR,
        };
        // SAFETY: `device` came from `device::get`.
        let sm = unsafe { cu::device::get_attribute(device, MAJOR)? * 10 + cu::device::get_attribute(device, MINOR)? };
        Ok(Device {
            ordinal,
            device,
            context,
            stream,
            name,
            sm: sm as u32,
            cublas: OnceLock::new(),
            lock: Mutex::new(()),
        })
    }

    /// The device's name and ordinal, for messages.
    pub fn describe(&self) -> String {
        format!("{} (device {}, sm_{})", self.name, self.ordinal, self.sm)
    }

    /// Makes this device's context current on the calling thread.
    pub(crate) fn bind(&self) -> Result<()> {
        // SAFETY: the context is retained for the device's lifetime.
        unsafe { cu::ctx::set_current(self.context)? };
        Ok(())
    }

    /// `bytes` of device memory (at least one byte, so every buffer has an address).
    pub fn alloc(self: &Arc<Self>, bytes: usize) -> Result<DeviceBuffer> {
        self.bind()?;
        // SAFETY: plain allocation.
        let ptr = unsafe { cu::malloc_sync(bytes.max(1))? };
        Ok(DeviceBuffer { device: self.clone(), ptr, bytes })
    }

    pub fn synchronize(&self) -> Result<()> {
        self.bind()?;
        // SAFETY: the stream belongs to this context.
        unsafe { cu::stream::synchronize(self.stream)? };
        Ok(())
    }

    /// Loads a PTX module (JIT-compiled by the driver for this device).
    pub fn load_module(self: &Arc<Self>, ptx: &str) -> Result<LoadedModule> {
        self.bind()?;
        let src = CString::new(ptx).map_err(|_| GpuError::Llvm("PTX text contains a NUL byte".into()))?;
        // The driver's PTX JIT writes what it rejects into this log.
        let mut log = vec![0u8; 16 << 10];
        let mut options =
            [sys::CUjit_option::CU_JIT_ERROR_LOG_BUFFER, sys::CUjit_option::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES];
        let mut values: [*mut c_void; 2] = [log.as_mut_ptr().cast(), log.len() as *mut c_void];
        let mut module = std::mem::MaybeUninit::uninit();
        // SAFETY: `src` is a NUL-terminated PTX image; the options point at
        // `log`, which outlives the call.
        let status = unsafe {
            sys::cuModuleLoadDataEx(
                module.as_mut_ptr(),
                src.as_ptr().cast(),
                options.len() as u32,
                options.as_mut_ptr(),
                values.as_mut_ptr(),
            )
        };
        if status != sys::CUresult::CUDA_SUCCESS {
            let end = log.iter().position(|&b| b == 0).unwrap_or(log.len());
            return Err(GpuError::Cuda(format!(
                "loading the PTX module: {status:?}: {}",
                String::from_utf8_lossy(&log[..end]).trim()
            )));
        }
        // SAFETY: the call succeeded, so it wrote the module handle.
        Ok(LoadedModule { device: self.clone(), module: unsafe { module.assume_init() } })
    }

    /// The cuBLAS handle (created on first use, bound to the stream).
    fn cublas(&self) -> Result<blas_sys::cublasHandle_t> {
        let h = self.cublas.get_or_init(|| {
            // SAFETY: only tries to load the library.
            if !unsafe { blas_sys::is_culib_present() } {
                return Err("cuBLAS (libcublas.so) not found".into());
            }
            self.bind().map_err(|e| e.to_string())?;
            let h = blas::create_handle().map_err(|e| format!("cuBLAS: {e:?}"))?;
            // SAFETY: both handles are live.
            unsafe { blas::set_stream(h, self.stream as _) }.map_err(|e| format!("cuBLAS: {e:?}"))?;
            Ok(Cublas(h))
        });
        match h {
            Ok(c) => Ok(c.0),
            Err(e) => Err(GpuError::Cuda(e.clone())),
        }
    }

    /// Row-major batched `out[b] = lhs[b] x rhs[b]` (`[m, k] x [k, n]`, either
    /// operand stored transposed) through cuBLAS's strided batched
    /// `GemmEx`: a row-major product is the column-major product of the
    /// transposes, `out^T = rhs^T lhs^T`. Types as [`gemm_types`] allows;
    /// f16/bf16 accumulate in f32 and round once (the kernel form's rule).
    pub fn gemm(&self, g: &Gemm, lhs: u64, rhs: u64, out: u64) -> Result<()> {
        let Some((a_type, c_type, compute)) = gemm_types(g.lhs, g.rhs, g.out) else {
            return Err(GpuError::Unsupported(format!("a cuBLAS product of {} x {} -> {}", g.lhs, g.rhs, g.out)));
        };
        if g.m == 0 || g.n == 0 || g.batch == 0 {
            return Ok(());
        }
        self.bind()?;
        if g.k == 0 {
            let bytes = g.m as usize * g.n as usize * g.batch as usize * g.out.byte_size();
            // SAFETY: `out` holds the product.
            unsafe { cu::memset_d8_async(out, 0, bytes, self.stream)? };
            return Ok(());
        }
        let h = self.cublas()?;
        let c = CublasCall::of(g)?;
        use blas_sys::cublasOperation_t::{CUBLAS_OP_N, CUBLAS_OP_T};
        let op = |t: bool| if t { CUBLAS_OP_T } else { CUBLAS_OP_N };
        let (one32, zero32, one64, zero64) = (1.0f32, 0.0f32, 1.0f64, 0.0f64);
        let (alpha, beta): (*const c_void, *const c_void) = if g.out == DType::F64 {
            ((&one64 as *const f64).cast(), (&zero64 as *const f64).cast())
        } else {
            ((&one32 as *const f32).cast(), (&zero32 as *const f32).cast())
        };
        // SAFETY: the buffers hold `batch` matrices of the stated sizes (the
        // caller's contract); alpha and beta live across the call and have
        // the compute type's precision.
        unsafe {
            // A is rhs and B is lhs (see `CublasCall`).
            blas::gemm_strided_batched_ex(
                h,
                op(c.trans_a),
                op(c.trans_b),
                c.m,
                c.n,
                c.k,
                alpha,
                rhs as *const c_void,
                a_type,
                c.lda,
                c.stride_a,
                lhs as *const c_void,
                a_type,
                c.ldb,
                c.stride_b,
                beta,
                out as *mut c_void,
                c_type,
                c.ldc,
                c.stride_c,
                c.batch,
                compute,
                blas_sys::cublasGemmAlgo_t::CUBLAS_GEMM_DFALT,
            )?;
        }
        Ok(())
    }
}

/// The arguments of cuBLAS's column-major strided batched GEMM
/// `C = op(A) op(B)` for a row-major product `out = lhs x rhs`: a row-major
/// matrix is the column-major matrix of its transpose, so `out^T = rhs^T
/// lhs^T`, with A = rhs and B = lhs. [`crate::sim`] executes the same
/// arguments with a reference column-major GEMM.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CublasCall {
    pub trans_a: bool,
    pub trans_b: bool,
    pub m: i32,
    pub n: i32,
    pub k: i32,
    pub lda: i32,
    pub ldb: i32,
    pub ldc: i32,
    pub stride_a: i64,
    pub stride_b: i64,
    pub stride_c: i64,
    pub batch: i32,
}

impl CublasCall {
    pub fn of(g: &Gemm) -> Result<CublasCall> {
        let int = |v: i64| i32::try_from(v).map_err(|_| GpuError::Unsupported(format!("a GEMM dimension of {v}")));
        let (m, n, k, batch) = (int(g.m)?, int(g.n)?, int(g.k)?, int(g.batch)?);
        // rhs is [k, n] row-major = n x k column-major (ld n), or stored
        // transposed [n, k] = k x n column-major (ld k), transposed by cuBLAS.
        let (trans_a, lda) = if g.rhs_transposed { (true, k) } else { (false, n) };
        // lhs is [m, k] row-major = k x m column-major (ld k), or [k, m] (ld m).
        let (trans_b, ldb) = if g.lhs_transposed { (true, m) } else { (false, k) };
        Ok(CublasCall {
            trans_a,
            trans_b,
            m: n,
            n: m,
            k,
            lda: lda.max(1),
            ldb: ldb.max(1),
            ldc: n.max(1),
            stride_a: g.k * g.n,
            stride_b: g.m * g.k,
            stride_c: g.m * g.n,
            batch,
        })
    }
}

/// cuBLAS's operand type, result type and compute type for a product of
/// `lhs x rhs -> out`, when cuBLAS computes it as the kernel form defines it:
/// f32 and f64 in their own type (no TF32), f16 and bf16 operands accumulated
/// in f32 with an f32 or same-type result.
pub fn gemm_types(
    lhs: DType,
    rhs: DType,
    out: DType,
) -> Option<(blas_sys::cudaDataType, blas_sys::cudaDataType, blas_sys::cublasComputeType_t)> {
    use blas_sys::cublasComputeType_t::{CUBLAS_COMPUTE_32F, CUBLAS_COMPUTE_64F};
    use blas_sys::cudaDataType::{CUDA_R_16BF, CUDA_R_16F, CUDA_R_32F, CUDA_R_64F};
    if lhs != rhs {
        return None;
    }
    Some(match (lhs, out) {
        (DType::F32, DType::F32) => (CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F),
        (DType::F64, DType::F64) => (CUDA_R_64F, CUDA_R_64F, CUBLAS_COMPUTE_64F),
        (DType::F16, DType::F16) => (CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_32F),
        (DType::F16, DType::F32) => (CUDA_R_16F, CUDA_R_32F, CUBLAS_COMPUTE_32F),
        (DType::Bf16, DType::Bf16) => (CUDA_R_16BF, CUDA_R_16BF, CUBLAS_COMPUTE_32F),
        (DType::Bf16, DType::F32) => (CUDA_R_16BF, CUDA_R_32F, CUBLAS_COMPUTE_32F),
        _ => return None,
    })
}

impl Drop for Device {
    fn drop(&mut self) {
        // SAFETY: releasing what `open` created; errors at teardown are ignored.
        unsafe {
            let _ = cu::ctx::set_current(self.context);
            if let Some(Ok(c)) = self.cublas.get() {
                let _ = blas::destroy_handle(c.0);
            }
            let _ = cu::stream::destroy(self.stream);
            let _ = cu::primary_ctx::release(self.device);
        }
    }
}

/// A matrix product for [`Device::gemm`].
#[derive(Clone, Copy, Debug)]
pub struct Gemm {
    pub batch: i64,
    pub m: i64,
    pub n: i64,
    pub k: i64,
    pub lhs_transposed: bool,
    pub rhs_transposed: bool,
    pub lhs: DType,
    pub rhs: DType,
    pub out: DType,
}

/// Device memory, freed on drop.
pub struct DeviceBuffer {
    device: Arc<Device>,
    pub(crate) ptr: sys::CUdeviceptr,
    pub bytes: usize,
}

impl DeviceBuffer {
    pub fn ptr(&self) -> u64 {
        self.ptr
    }

    /// Copies `data` into the start of the buffer (synchronously).
    pub fn upload(&self, data: &[u8]) -> Result<()> {
        if data.len() > self.bytes {
            return Err(GpuError::InvalidProgram("upload larger than its buffer".into()));
        }
        if data.is_empty() {
            return Ok(());
        }
        self.device.bind()?;
        // SAFETY: the buffer holds `data.len()` bytes.
        unsafe { cu::memcpy_htod_sync(self.ptr, data)? };
        Ok(())
    }

    /// Copies the start of the buffer into `out`.
    pub fn download(&self, out: &mut [u8]) -> Result<()> {
        if out.len() > self.bytes {
            return Err(GpuError::InvalidProgram("download larger than its buffer".into()));
        }
        if out.is_empty() {
            return Ok(());
        }
        self.device.synchronize()?;
        // SAFETY: the buffer holds `out.len()` bytes.
        unsafe { cu::memcpy_dtoh_sync(out, self.ptr)? };
        Ok(())
    }
}

impl Drop for DeviceBuffer {
    fn drop(&mut self) {
        // SAFETY: the pointer came from `malloc_sync` and is freed once.
        unsafe {
            let _ = self.device.bind();
            let _ = cu::free_sync(self.ptr);
        }
    }
}

/// A loaded PTX module.
pub struct LoadedModule {
    device: Arc<Device>,
    module: sys::CUmodule,
}

// SAFETY: module handles are usable from any thread with the context current.
unsafe impl Send for LoadedModule {}
unsafe impl Sync for LoadedModule {}

/// A kernel entry of a loaded module.
#[derive(Clone, Copy)]
pub struct Function(sys::CUfunction);

// SAFETY: as for the module.
unsafe impl Send for Function {}
unsafe impl Sync for Function {}

impl LoadedModule {
    pub fn function(&self, name: &str) -> Result<Function> {
        self.device.bind()?;
        let c = CString::new(name).map_err(|_| GpuError::InvalidProgram("kernel name with a NUL byte".into()))?;
        // SAFETY: the module is loaded.
        let f = unsafe { cu::module::get_function(self.module, c) }
            .map_err(|e| GpuError::Cuda(format!("kernel {name} not in the module: {e:?}")))?;
        Ok(Function(f))
    }
}

impl Drop for LoadedModule {
    fn drop(&mut self) {
        // SAFETY: unloaded once.
        unsafe {
            let _ = self.device.bind();
            let _ = cu::module::unload(self.module);
        }
    }
}

impl Device {
    /// Launches `f` on the stream with one pointer argument per buffer.
    pub fn launch(&self, f: Function, grid: u32, block: u32, ptrs: &[u64]) -> Result<()> {
        let mut args: Vec<u64> = ptrs.to_vec();
        let mut params: Vec<*mut c_void> = args.iter_mut().map(|p| (p as *mut u64).cast::<c_void>()).collect();
        // SAFETY: the kernel takes exactly `ptrs.len()` pointers (its entry
        // was generated for this launch) and each points at a live buffer.
        unsafe { cu::launch_kernel(f.0, (grid, 1, 1), (block, 1, 1), 0, self.stream, &mut params)? };
        Ok(())
    }

    /// Device-to-device copy on the stream.
    pub fn copy(&self, dst: u64, src: u64, bytes: usize) -> Result<()> {
        if bytes == 0 || dst == src {
            return Ok(());
        }
        // SAFETY: both ranges are inside live buffers (the program's contract).
        unsafe { cu::memcpy_dtod_async(dst, src, bytes, self.stream)? };
        Ok(())
    }

    /// Reads `out.len()` bytes at `src` (waits for the stream).
    pub fn read(&self, src: u64, out: &mut [u8]) -> Result<()> {
        self.synchronize()?;
        // SAFETY: `src` holds that many bytes.
        unsafe { cu::memcpy_dtoh_sync(out, src)? };
        Ok(())
    }
}
