//! A PTX-free simulation of the GPU backend, for testing without a GPU.
//!
//! [`simulate`] builds the program's kernels with the same code generator
//! and strategies as the PTX path, but with the GPU primitives as calls into
//! this module ([`Flavor::HostSim`]), compiles them for the host, and runs
//! the program with the same step driver: every launch runs its blocks one
//! after another, each block as `block` OS threads with CUDA's semantics for
//! what the code uses (thread and block indices, `__syncthreads` barriers,
//! `shfl.sync.down` within a warp, per-block shared memory). Grids are capped
//! at `max_grid` blocks; every strategy loops (grid-stride) over what a
//! smaller grid leaves, so the cap changes the schedule, not the result.
//!
//! What it checks: the launch strategies, the index arithmetic, the combine
//! trees and barriers of the generated code and the host-side driver, against
//! XLA's outputs, and the arguments of the cuBLAS calls for products
//! ([`CublasCall`], executed by a reference column-major GEMM). What it does
//! not: NVPTX instruction selection (`ptxas` checks that PTX assembles) and
//! cuBLAS itself.
//! A barrier that not every thread of a block reaches would hang a GPU; here
//! it aborts the process after a timeout.

use std::cell::Cell;
use std::sync::{Condvar, Mutex};
use std::time::Duration;

use inkwell::context::Context;
use smelt_hlo::{Array, ArrayData, DType};
use smelt_kernel::VerifiedProgram;

use crate::codegen::{self, Flavor, SharedSizes};
use crate::error::{GpuError, Result};
use crate::executable::{Driver, Machine, arena_layout, entries};
use crate::plan::{Launch, WARP};
use crate::runtime::{CublasCall, Gemm, gemm_types};

/// Runs `program` on `args` in the simulator with grids of at most
/// `max_grid` blocks; returns the flattened results.
pub fn simulate(program: &VerifiedProgram<'_>, args: &[Array], max_grid: u32) -> Result<Vec<Array>> {
    smelt_kernel::check_arguments(&program.params, args.iter().map(|a| (a.dtype(), a.dims.as_slice())))?;
    let prepared = crate::elemental::prepare(program, true)?;
    let tm = smelt_llvm::jit::host_target_machine().map_err(|e| GpuError::Llvm(e.to_string()))?;
    let cx = Context::create();
    let (module, kernels, sizes) = codegen::emit_module(&cx, &prepared, Flavor::HostSim, &tm)?;
    let ee = smelt_llvm::jit::engine(&module, &tm, smelt_llvm::jit::Runtime::Serial)
        .map_err(|e| GpuError::Llvm(e.to_string()))?;
    let externs: [(&str, usize); 4] = [
        ("smelt_sim_sreg", sim_sreg as *const () as usize),
        ("smelt_sim_barrier", sim_barrier as *const () as usize),
        ("smelt_sim_shfl_down", sim_shfl_down as *const () as usize),
        ("smelt_sim_shared", sim_shared as *const () as usize),
    ];
    for (name, addr) in externs {
        if let Some(f) = module.get_function(name) {
            ee.add_global_mapping(&f, addr);
        }
    }
    let functions = entries(&prepared, &kernels, |name| {
        ee.get_function_address(name).map_err(|e| GpuError::Llvm(format!("{name}: {e}")))
    })?;

    // Host memory standing in for the device's (16-byte aligned), with guard
    // words past the end checked after the run.
    let buffer = |bytes: usize, data: Option<&[u8]>| -> Vec<u128> {
        let n = bytes.div_ceil(16).max(1);
        let mut v = vec![0u128; n + BUFFER_GUARD];
        v[n..].fill(u128::from(CANARY) * 0x1_0000_0000_0000_0001);
        if let Some(d) = data {
            // SAFETY: `v` holds at least `d.len()` bytes.
            unsafe { std::ptr::copy_nonoverlapping(d.as_ptr(), v.as_mut_ptr().cast::<u8>(), d.len()) };
        }
        v
    };
    let mut params: Vec<Vec<u128>> = Vec::with_capacity(args.len());
    for (a, t) in args.iter().zip(&prepared.params) {
        params.push(buffer(t.byte_size(), Some(&a.data.to_le_bytes())));
    }
    let mut results: Vec<Vec<u128>> = prepared.results.iter().map(|t| buffer(t.byte_size(), None)).collect();
    let mut constants: Vec<Vec<u128>> =
        prepared.constants.iter().map(|c| buffer(c.bytes.len(), Some(&c.bytes))).collect();
    let (scratch_offset, arena_bytes) = arena_layout(&prepared, &kernels);
    let mut arena = buffer(arena_bytes, None);
    let addr = |v: &mut Vec<u128>| v.as_mut_ptr() as u64;
    let param_ptrs: Vec<u64> = params.iter_mut().map(addr).collect();
    let result_ptrs: Vec<u64> = results.iter_mut().map(addr).collect();
    let const_ptrs: Vec<u64> = constants.iter_mut().map(addr).collect();
    let machine = Sim { max_grid: max_grid.max(1), shared: sizes };
    Driver {
        machine: &machine,
        program: &prepared,
        entries: &functions,
        constants: &const_ptrs,
        arena: addr(&mut arena),
        scratch_offset,
        params: &param_ptrs,
        results: &result_ptrs,
    }
    .run()?;
    for (what, list) in [("parameter", &params), ("result", &results), ("constant", &constants)] {
        for (i, v) in list.iter().enumerate() {
            check_guard(v, &format!("{what} {i}"))?;
        }
    }
    check_guard(&arena, "the arena")?;
    Ok(results
        .iter()
        .zip(&prepared.results)
        .map(|(v, t)| {
            // SAFETY: `v` holds the result's bytes.
            let bytes = unsafe { std::slice::from_raw_parts(v.as_ptr().cast::<u8>(), t.byte_size()) };
            Array::new(&t.dims, ArrayData::from_le_bytes(t.dtype, bytes))
        })
        .collect())
}

/// Guard words (16 bytes each) past every simulated device buffer.
const BUFFER_GUARD: usize = 4;

/// An error if a kernel wrote past the end of buffer `v` (into its guard).
fn check_guard(v: &[u128], what: &str) -> Result<()> {
    let guard = u128::from(CANARY) * 0x1_0000_0000_0000_0001;
    if v[v.len() - BUFFER_GUARD..].iter().any(|&w| w != guard) {
        return Err(GpuError::Llvm(format!("simulator: a kernel wrote past the end of {what}")));
    }
    Ok(())
}

/// The simulated machine: launches run on host threads.
struct Sim {
    max_grid: u32,
    shared: SharedSizes,
}

/// A kernel entry compiled for the host: `void entry(u64 *buffers)`.
type Entry = unsafe extern "C" fn(*const u64);

impl Machine for Sim {
    type Func = usize;

    fn launch(&self, f: usize, launch: Launch, ptrs: &[u64]) -> Result<()> {
        // SAFETY: `f` is the address of an entry the JIT compiled with this signature.
        let entry: Entry = unsafe { std::mem::transmute::<usize, Entry>(f) };
        let grid = launch.grid.min(self.max_grid).max(1);
        let threads = launch.block.max(1);
        for b in 0..grid {
            let block = Block::new(threads, self.shared);
            std::thread::scope(|s| -> Result<()> {
                let mut handles = Vec::with_capacity(threads as usize);
                for t in 0..threads {
                    let cx = ThreadCx { tid: t, ntid: threads, ctaid: b, nctaid: grid, block: &block };
                    let ptrs = ptrs.to_vec();
                    let spawned = std::thread::Builder::new().stack_size(8 << 20).spawn_scoped(s, move || {
                        CURRENT.with(|c| c.set(std::ptr::from_ref(&cx).cast()));
                        // SAFETY: the buffers outlive the launch; the entry
                        // reads as many pointers as the kernel takes.
                        unsafe { entry(ptrs.as_ptr()) };
                        CURRENT.with(|c| c.set(std::ptr::null()));
                    });
                    handles.push(spawned.map_err(|e| GpuError::Llvm(format!("simulator: spawning a thread: {e}")))?);
                }
                // Joined, not dropped: dropping a handle detaches its thread,
                // and detaching threads that had already exited crashed in
                // pthread_detach now and then (with a thousand short threads
                // per launch, beside other tests' threads).
                for h in handles {
                    h.join().map_err(|_| GpuError::Llvm("simulator: a simulated thread panicked".into()))?;
                }
                Ok(())
            })?;
        }
        Ok(())
    }

    fn copy(&self, dst: u64, src: u64, bytes: usize) -> Result<()> {
        // SAFETY: both ranges are inside live host buffers (the program's contract).
        unsafe { std::ptr::copy(src as *const u8, dst as *mut u8, bytes) };
        Ok(())
    }

    fn read(&self, src: u64, out: &mut [u8]) -> Result<()> {
        // SAFETY: as for `copy`.
        unsafe { std::ptr::copy_nonoverlapping(src as *const u8, out.as_mut_ptr(), out.len()) };
        Ok(())
    }

    /// The cuBLAS call the device would make ([`CublasCall`]), executed by a
    /// reference column-major GEMM accumulating in the compute type.
    fn gemm(&self, g: &Gemm, lhs: u64, rhs: u64, out: u64) -> Result<()> {
        if gemm_types(g.lhs, g.rhs, g.out).is_none() {
            return Err(GpuError::Unsupported(format!("a cuBLAS product of {} x {} -> {}", g.lhs, g.rhs, g.out)));
        }
        if g.m == 0 || g.n == 0 || g.batch == 0 {
            return Ok(());
        }
        let c = CublasCall::of(g)?;
        let (a, b) = (rhs as *const u8, lhs as *const u8);
        let wide = g.out == DType::F64;
        for p in 0..c.batch as i64 {
            for j in 0..c.n as i64 {
                for i in 0..c.m as i64 {
                    let (mut acc32, mut acc64) = (0f32, 0f64);
                    for l in 0..c.k as i64 {
                        let ai = p * c.stride_a + if c.trans_a { l + i * c.lda as i64 } else { i + l * c.lda as i64 };
                        let bi = p * c.stride_b + if c.trans_b { j + l * c.ldb as i64 } else { l + j * c.ldb as i64 };
                        // SAFETY: the indices are inside the operands (the call's contract).
                        let (x, y) = unsafe { (element(a, g.rhs, ai), element(b, g.lhs, bi)) };
                        if wide {
                            acc64 += x * y;
                        } else {
                            acc32 += x as f32 * y as f32;
                        }
                    }
                    let v = if wide { acc64 } else { acc32 as f64 };
                    // SAFETY: as above, for the result.
                    unsafe { store(out as *mut u8, g.out, p * c.stride_c + i + j * c.ldc as i64, v) };
                }
            }
        }
        Ok(())
    }
}

/// Element `i` of a `t` array at `base`, widened to f64.
///
/// # Safety
/// `base` holds at least `i + 1` elements of `t`.
unsafe fn element(base: *const u8, t: DType, i: i64) -> f64 {
    // SAFETY: the caller's contract.
    unsafe {
        match t {
            DType::F64 => *(base as *const f64).offset(i as isize),
            DType::F32 => *(base as *const f32).offset(i as isize) as f64,
            DType::F16 => half::f16::from_bits(*(base as *const u16).offset(i as isize)).to_f64(),
            _ => half::bf16::from_bits(*(base as *const u16).offset(i as isize)).to_f64(),
        }
    }
}

/// Stores `v` (already rounded to f32 unless `t` is f64) as element `i` of a `t` array.
///
/// # Safety
/// `base` holds at least `i + 1` elements of `t`.
unsafe fn store(base: *mut u8, t: DType, i: i64, v: f64) {
    // SAFETY: the caller's contract.
    unsafe {
        match t {
            DType::F64 => *(base as *mut f64).offset(i as isize) = v,
            DType::F32 => *(base as *mut f32).offset(i as isize) = v as f32,
            DType::F16 => *(base as *mut u16).offset(i as isize) = half::f16::from_f32(v as f32).to_bits(),
            _ => *(base as *mut u16).offset(i as isize) = half::bf16::from_f32(v as f32).to_bits(),
        }
    }
}

/// A barrier for `n` threads that aborts the process when it waits too long
/// (threads of a block that do not all reach it would hang a GPU).
struct Barrier {
    n: u32,
    state: Mutex<(u32, u64)>,
    cv: Condvar,
}

const BARRIER_TIMEOUT: Duration = Duration::from_secs(60);

impl Barrier {
    fn new(n: u32) -> Self {
        Barrier { n, state: Mutex::new((0, 0)), cv: Condvar::new() }
    }

    fn wait(&self) {
        let mut g = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let generation = g.1;
        g.0 += 1;
        if g.0 == self.n {
            g.0 = 0;
            g.1 += 1;
            self.cv.notify_all();
            return;
        }
        while g.1 == generation {
            let (next, timeout) = self.cv.wait_timeout(g, BARRIER_TIMEOUT).unwrap_or_else(|e| e.into_inner());
            g = next;
            if timeout.timed_out() && g.1 == generation {
                eprintln!("smelt-gpu simulator: a barrier waited {BARRIER_TIMEOUT:?} (divergent barrier?)");
                std::process::abort();
            }
        }
    }
}

/// One block's shared state.
struct Block {
    barrier: Barrier,
    warps: Vec<Warp>,
    /// Shared memory regions (combine slots, transpose tiles): addresses of
    /// leaked boxes of 8-byte words (the generated code writes them from
    /// every thread), and their lengths; freed on drop.
    base: [u64; 2],
    words: [usize; 2],
}

/// Words past each shared region that hold [`CANARY`]: a kernel writing past
/// its shared memory is reported when the block ends, not left to corrupt
/// the heap.
const GUARD_WORDS: usize = 64;
const CANARY: u64 = 0x5AFE_C0DE_5AFE_C0DE;

impl Drop for Block {
    fn drop(&mut self) {
        for (&b, &n) in self.base.iter().zip(&self.words) {
            // SAFETY: `base` came from `Box::into_raw` of a slice of `n` words.
            let region = unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(b as *mut u64, n)) };
            if region[n - GUARD_WORDS..].iter().any(|&w| w != CANARY) {
                eprintln!(
                    "smelt-gpu simulator: a kernel wrote past a block's shared memory ({} words)",
                    n - GUARD_WORDS
                );
                std::process::abort();
            }
        }
    }
}

struct Warp {
    barrier: Barrier,
    size: u32,
    lanes: Vec<std::sync::atomic::AtomicU32>,
}

impl Block {
    fn new(threads: u32, sizes: SharedSizes) -> Block {
        let warps = (0..threads.div_ceil(WARP))
            .map(|w| {
                let size = (threads - w * WARP).min(WARP);
                Warp {
                    barrier: Barrier::new(size),
                    size,
                    lanes: (0..WARP).map(|_| std::sync::atomic::AtomicU32::new(0)).collect(),
                }
            })
            .collect();
        let words = [sizes.slots, sizes.tiles].map(|b| b.div_ceil(8).max(1) + GUARD_WORDS);
        let base = words.map(|n| {
            let mut region = vec![0u64; n];
            region[n - GUARD_WORDS..].fill(CANARY);
            Box::into_raw(region.into_boxed_slice()) as *mut u64 as u64
        });
        Block { barrier: Barrier::new(threads), warps, base, words }
    }
}

/// What one simulated thread knows about itself.
struct ThreadCx<'a> {
    tid: u32,
    ntid: u32,
    ctaid: u32,
    nctaid: u32,
    block: &'a Block,
}

thread_local! {
    static CURRENT: Cell<*const ThreadCx<'static>> = const { Cell::new(std::ptr::null()) };
}

fn with_cx<T>(f: impl FnOnce(&ThreadCx<'_>) -> T) -> T {
    CURRENT.with(|c| {
        let p = c.get();
        if p.is_null() {
            eprintln!("smelt-gpu simulator: a GPU primitive called outside a simulated thread");
            std::process::abort();
        }
        // SAFETY: set by `Sim::launch` for the duration of the entry call.
        f(unsafe { &*p })
    })
}

extern "C" fn sim_sreg(code: i32) -> i64 {
    with_cx(|cx| match code {
        0 => cx.tid,
        1 => cx.ntid,
        2 => cx.ctaid,
        _ => cx.nctaid,
    } as i64)
}

extern "C" fn sim_barrier() {
    with_cx(|cx| cx.block.barrier.wait())
}

/// `shfl.sync.down.b32 v, offset, 31, -1`: lane `l` gets lane `l + offset`'s
/// value, or its own past the warp's end.
extern "C" fn sim_shfl_down(v: i32, offset: i32) -> i32 {
    use std::sync::atomic::Ordering::SeqCst;
    with_cx(|cx| {
        let warp = &cx.block.warps[(cx.tid / WARP) as usize];
        let lane = (cx.tid % WARP) as usize;
        warp.lanes[lane].store(v as u32, SeqCst);
        warp.barrier.wait();
        let src = lane + offset.max(0) as usize;
        let r = if src < warp.size as usize { warp.lanes[src].load(SeqCst) as i32 } else { v };
        warp.barrier.wait();
        r
    })
}

extern "C" fn sim_shared(region: i32) -> *mut u8 {
    with_cx(|cx| cx.block.base[(region as usize).min(1)] as *mut u8)
}
