//! Compiled programs in process: the ORC JIT (LLJIT) and [`Executable`].
//!
//! The optimized module is emitted as an object file for the host (the same
//! bytes `smelt compile --emit obj` writes) and linked into a fresh LLJIT
//! instance, with symbols resolved from the process (libm, `memcpy`, `malloc`)
//! and `smelt_parallel_for` mapped to [`crate::runtime`]. The LLVM module and
//! context are gone by then; the executable keeps only the JIT.
//!
//! A run (`smelt_kernel::Executable::execute`, once the trait has checked the
//! arguments) allocates the outputs and calls
//! `smelt_run` on a temp arena allocated once per executable (mapped zero
//! pages when large, faulted in on use; runs on one
//! executable take turns on it through a mutex). Outputs the program writes in
//! full (most of them: see `driver::fully_written`) are not zeroed first;
//! their vectors get their length once the program has stored every element. Parameters the program writes
//! (donated buffers) are copied into buffers owned by the executable first, so
//! the caller's arrays are never modified.

use std::ffi::{CStr, CString, c_char};
use std::sync::{Arc, Mutex};

use llvm_sys::error::{LLVMDisposeErrorMessage, LLVMErrorRef, LLVMGetErrorMessage};
use llvm_sys::orc2::lljit::{
    LLVMOrcCreateLLJIT, LLVMOrcCreateLLJITBuilder, LLVMOrcDisposeLLJIT, LLVMOrcLLJITAddObjectFile,
    LLVMOrcLLJITGetGlobalPrefix, LLVMOrcLLJITGetMainJITDylib, LLVMOrcLLJITLookup, LLVMOrcLLJITMangleAndIntern,
    LLVMOrcLLJITRef,
};
use llvm_sys::orc2::{
    LLVMJITEvaluatedSymbol, LLVMJITSymbolFlags, LLVMJITSymbolGenericFlags, LLVMOrcAbsoluteSymbols,
    LLVMOrcCSymbolMapPair, LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess, LLVMOrcDefinitionGeneratorRef,
    LLVMOrcExecutorAddress, LLVMOrcJITDylibAddGenerator, LLVMOrcJITDylibDefine,
};
use smelt_hlo::{Array, ArrayView, with_data};
use smelt_kernel::{ArrayType, BackendError, StepProfile};

use crate::error::{CpuError, Result};

/// `i32 smelt_run(ptr params, ptr results, ptr temp)`.
type RunFn = unsafe extern "C" fn(*const *const u8, *const *mut u8, *mut u8) -> i32;

/// Takes an LLVM error's message (consuming the error).
fn take_error(e: LLVMErrorRef, what: &str) -> CpuError {
    // SAFETY: `e` is a live error; getting its message consumes it, and the
    // message is freed with the matching dispose call.
    let msg = unsafe {
        let m = LLVMGetErrorMessage(e);
        let s = CStr::from_ptr(m).to_string_lossy().into_owned();
        LLVMDisposeErrorMessage(m);
        s
    };
    CpuError::Jit(format!("{what}: {msg}"))
}

fn check(e: LLVMErrorRef, what: &str) -> Result<()> {
    if e.is_null() { Ok(()) } else { Err(take_error(e, what)) }
}

/// An LLJIT instance holding one program's code.
struct Jit(LLVMOrcLLJITRef);

// SAFETY: the JIT looks up symbols, adds objects (ORC locks its session for
// both) and is disposed once; the code it holds is immutable and may run on
// any thread.
unsafe impl Send for Jit {}
unsafe impl Sync for Jit {}

impl Drop for Jit {
    fn drop(&mut self) {
        // SAFETY: `self.0` is a live LLJIT that nothing else owns; an error on
        // dispose has nowhere to go and is dropped.
        unsafe {
            let e = LLVMOrcDisposeLLJIT(self.0);
            if !e.is_null() {
                drop(take_error(e, "dispose"));
            }
        }
    }
}

/// An absolute symbol for the JIT: a runtime function generated code calls.
fn runtime_symbol(jit: LLVMOrcLLJITRef, name: &str, address: usize) -> Result<LLVMOrcCSymbolMapPair> {
    let name = CString::new(name).map_err(|e| CpuError::Jit(e.to_string()))?;
    Ok(LLVMOrcCSymbolMapPair {
        // SAFETY: `jit` is live; the name is copied into the JIT's string pool.
        Name: unsafe { LLVMOrcLLJITMangleAndIntern(jit, name.as_ptr()) },
        Sym: LLVMJITEvaluatedSymbol {
            Address: address as LLVMOrcExecutorAddress,
            Flags: LLVMJITSymbolFlags {
                GenericFlags: LLVMJITSymbolGenericFlags::LLVMJITSymbolGenericFlagsExported as u8
                    | LLVMJITSymbolGenericFlags::LLVMJITSymbolGenericFlagsCallable as u8,
                TargetFlags: 0,
            },
        },
    })
}

impl Jit {
    /// The address of symbol `name`.
    fn lookup(&self, name: &CStr) -> Result<usize> {
        let mut addr: LLVMOrcExecutorAddress = 0;
        // SAFETY: `self.0` is a live LLJIT holding the linked object.
        check(unsafe { LLVMOrcLLJITLookup(self.0, &mut addr, name.as_ptr()) }, "looking up a symbol")?;
        if addr == 0 {
            return Err(CpuError::Jit(format!("{} resolved to null", name.to_string_lossy())));
        }
        Ok(addr as usize)
    }

    /// Links `objects` beside the code already there.
    fn add(&self, objects: &[&[u8]]) -> Result<()> {
        // SAFETY: `self.0` is a live LLJIT; the memory buffer is consumed by the call.
        unsafe {
            let jd = LLVMOrcLLJITGetMainJITDylib(self.0);
            for object in objects {
                let buf = llvm_sys::core::LLVMCreateMemoryBufferWithMemoryRangeCopy(
                    object.as_ptr() as *const c_char,
                    object.len(),
                    c"smelt-object".as_ptr(),
                );
                check(LLVMOrcLLJITAddObjectFile(self.0, jd, buf), "adding the object")?;
            }
        }
        Ok(())
    }

    /// Links `objects` (the program's, then the routines it calls) and returns
    /// the JIT and the address of `smelt_run`.
    fn load(objects: &[&[u8]]) -> Result<(Jit, usize)> {
        crate::init_llvm()?;
        let mut raw: LLVMOrcLLJITRef = std::ptr::null_mut();
        // SAFETY: plain LLVM C API calls on objects created here; ownership
        // transfers are as documented (the builder, the materialization unit,
        // the generator and the memory buffer are consumed by the calls that
        // take them).
        unsafe {
            check(LLVMOrcCreateLLJIT(&mut raw, LLVMOrcCreateLLJITBuilder()), "creating the JIT")?;
            let jit = Jit(raw);
            let jd = LLVMOrcLLJITGetMainJITDylib(raw);
            let mut generator: LLVMOrcDefinitionGeneratorRef = std::ptr::null_mut();
            check(
                LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(
                    &mut generator,
                    LLVMOrcLLJITGetGlobalPrefix(raw),
                    None,
                    std::ptr::null_mut(),
                ),
                "resolving process symbols",
            )?;
            LLVMOrcJITDylibAddGenerator(jd, generator);
            let [alloc, free] = smelt_runtime::scratch::symbols();
            let mut pairs = [
                runtime_symbol(raw, crate::runtime::PARALLEL_FOR_SYMBOL, crate::runtime::parallel_for_address())?,
                runtime_symbol(raw, crate::runtime::THREADS_SYMBOL, crate::runtime::threads_address())?,
                runtime_symbol(raw, crate::runtime::PROFILE_MARK_SYMBOL, crate::runtime::profile_mark_address())?,
                runtime_symbol(raw, crate::tiles::TILE_RUN_SYMBOL, crate::tiles::tile_run_address())?,
                runtime_symbol(
                    raw,
                    smelt_runtime::custom_call::CUSTOM_CALL_SYMBOL,
                    smelt_runtime::custom_call::custom_call_address(),
                )?,
                runtime_symbol(
                    raw,
                    smelt_runtime::routines::conv_gemm::CONV_GEMM_SYMBOL,
                    smelt_runtime::routines::conv_gemm::conv_gemm_address(),
                )?,
                runtime_symbol(raw, alloc.0, alloc.1)?,
                runtime_symbol(raw, free.0, free.1)?,
            ];
            check(
                LLVMOrcJITDylibDefine(jd, LLVMOrcAbsoluteSymbols(pairs.as_mut_ptr(), pairs.len())),
                "defining the runtime",
            )?;
            jit.add(objects)?;
            let addr = jit.lookup(c"smelt_run")?;
            Ok((jit, addr))
        }
    }
}

/// Builds (or finds in the cache) the specialized routine of each of the
/// module's generic convolutions (`ModuleInfo::generic_convs`), links it
/// into the executable's JIT and stores its address in the convolution's
/// descriptor, from where `smelt_conv_gemm` hands every later call to it.
/// Stops when the executable is gone; a routine that fails to build leaves
/// its convolution on the generic routine.
fn specialize_convs(
    jit: &std::sync::Weak<Jit>,
    convs: &[crate::conv::ConvSpec],
    mut linked: Vec<crate::routines::Routine>,
    options: &crate::CompileOptions,
    handed_over: &std::sync::atomic::AtomicUsize,
) {
    use crate::routines::{Routine, cache_dir, routine_object};
    use smelt_runtime::routines::conv_gemm::UPGRADE_WORD;
    let Ok(tm) = crate::target_machine(options) else { return };
    let dir = cache_dir();
    for (i, spec) in convs.iter().enumerate() {
        let mut needed = Vec::new();
        if let Ok(Some(parts)) = crate::conv::gemm_parts(&tm, spec) {
            needed.push(Routine::GemmParts(parts));
        }
        needed.push(Routine::Conv(spec.clone()));
        let mut objects = Vec::new();
        needed.retain(|r| !linked.contains(r));
        for r in needed {
            if crate::routines::stopping() {
                return;
            }
            let Ok((object, _)) = routine_object(&r, options, dir.as_deref()) else { return };
            objects.push(object);
            linked.push(r);
        }
        let Some(jit) = jit.upgrade() else { return };
        let objects: Vec<&[u8]> = objects.iter().map(|o| o.as_slice()).collect();
        let (Ok(descriptor), Ok(symbol)) = (
            CString::new(crate::driver::conv_descriptor_symbol(i)),
            CString::new(Routine::Conv(spec.clone()).symbol()),
        ) else {
            return;
        };
        let (Ok(()), Ok(routine), Ok(descriptor)) = (jit.add(&objects), jit.lookup(&symbol), jit.lookup(&descriptor))
        else {
            return;
        };
        // SAFETY: the descriptor is the module's writable array of i64 words
        // whose upgrade word `smelt_conv_gemm` reads atomically; the routine
        // computes this convolution with the same epilogue contract.
        unsafe {
            let word = (descriptor as *const i64).add(UPGRADE_WORD).cast::<std::sync::atomic::AtomicI64>();
            (*word).store(routine as i64, std::sync::atomic::Ordering::Release);
        }
        handed_over.fetch_add(1, std::sync::atomic::Ordering::Release);
    }
}

/// Asks for transparent huge pages over the 2 MiB-aligned interior of a large
/// fresh allocation, so the kernels that fill it take 512 times fewer page
/// faults. Only a hint: failure changes nothing.
fn huge_pages(p: *mut u8, bytes: usize) {
    const HUGE: usize = 2 << 20;
    if bytes < 2 * HUGE {
        return;
    }
    let start = (p as usize).next_multiple_of(HUGE);
    let end = (p as usize + bytes) & !(HUGE - 1);
    if end > start {
        // SAFETY: the range lies inside the allocation; MADV_HUGEPAGE does not
        // change its contents or validity.
        unsafe { libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE) };
    }
}

/// With `SMELT_PERF_MAP` set, appends the JIT'd functions (and the GEMM and
/// convolution routines' entry points, which then also cover the routines'
/// internal functions loaded after them) to `/tmp/perf-PID.map`, where `perf report` looks for symbols of code it cannot
/// attribute to a file (a function's size is taken to be the distance to the
/// next one). Best effort: failures are ignored.
fn write_perf_map(jit: &Jit, functions: &[String]) {
    use std::io::Write;
    let mut at: Vec<(usize, &str)> = functions
        .iter()
        .filter_map(|f| {
            let name = CString::new(f.as_str()).ok()?;
            jit.lookup(&name).ok().map(|a| (a, f.as_str()))
        })
        .collect();
    at.sort_unstable();
    let path = format!("/tmp/perf-{}.map", std::process::id());
    let Ok(mut file) = std::fs::OpenOptions::new().create(true).append(true).open(path) else {
        return;
    };
    for (k, &(a, name)) in at.iter().enumerate() {
        let size = at.get(k + 1).map_or(1 << 16, |n| n.0 - a);
        let _ = writeln!(file, "{a:x} {size:x} {name}");
    }
}

/// An output array of type `t`. One the program writes in full (`written`) gets
/// capacity for its elements but length 0, so no time goes into zeroing what
/// the program overwrites; [`Executable::run`] sets the length after the run.
/// pred arrays are always zeroed (not every byte is a valid `bool`).
fn output(t: &ArrayType, written: bool) -> Array {
    use smelt_hlo::DType;
    let n = t.element_count();
    if !written || t.dtype == DType::Pred || n == 0 {
        return Array::zeros(t.dtype, &t.dims);
    }
    let data = smelt_hlo::with_dtype!(t.dtype, T => <T as smelt_hlo::Element>::wrap(Vec::with_capacity(n)));
    Array { dims: smelt_hlo::Dims::from_slice(&t.dims), data }
}

/// 64 bytes, 64-aligned: the unit the arena and private copies are made of.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Block([u8; 64]);

/// Zeroed scratch memory (the arena, a private parameter copy), 64-aligned.
/// Large scratch is anonymous memory mapped from the OS: zero pages that are
/// faulted in only where a run writes, instead of being written block by
/// block when the executable is made (134 MB of temporaries took 50-70 ms of
/// a convolution program's load). Small scratch comes from the heap.
enum Scratch {
    Heap(Vec<Block>),
    Mapped(memmap2::MmapMut),
}

impl Scratch {
    /// Below this, scratch is heap blocks.
    const MAP_MIN: usize = 1 << 20;

    fn new(bytes: usize) -> Result<Scratch> {
        if bytes < Self::MAP_MIN {
            return Ok(Scratch::Heap(vec![Block([0; 64]); bytes.div_ceil(64)]));
        }
        let mut m = memmap2::MmapMut::map_anon(bytes)
            .map_err(|e| CpuError::Jit(format!("cannot map {bytes} bytes of scratch memory: {e}")))?;
        huge_pages(m.as_mut_ptr(), bytes);
        Ok(Scratch::Mapped(m))
    }

    fn as_mut_ptr(&mut self) -> *mut u8 {
        match self {
            Scratch::Heap(v) => v.as_mut_ptr().cast::<u8>(),
            Scratch::Mapped(m) => m.as_mut_ptr(),
        }
    }
}

/// Per-executable memory, reused by every run.
struct State {
    arena: Scratch,
    /// Private copies of the parameters the program writes.
    copies: Vec<Option<Scratch>>,
    /// Results the program writes in full (allocated without zeroing).
    written_results: Vec<bool>,
    params: Vec<*const u8>,
    results: Vec<*mut u8>,
}

// SAFETY: the raw pointers are scratch space rewritten by every run before use.
unsafe impl Send for State {}

/// The profiler's counters in the JIT's memory and what their slots time.
struct Profile {
    counters: usize,
    labels: Vec<String>,
    work: Vec<smelt_kernel::StepWork>,
}

/// A compiled program, ready to run.
pub struct Executable {
    name: String,
    params: Vec<ArrayType>,
    results: Vec<ArrayType>,
    entry: RunFn,
    state: Mutex<State>,
    profile: Option<Profile>,
    /// Where compiling it went ([`crate::compile`] fills it in).
    pub(crate) phases: Vec<(String, f64)>,
    /// Convolutions compiled to the generic routine, and how many of them
    /// their specialized routines have taken over so far.
    generic_convs: usize,
    handed_over: Arc<std::sync::atomic::AtomicUsize>,
    // Dropped last: the code `entry` points into (shared with a background
    // job handing over specialized convolutions, see `specialize_convs`).
    _jit: Arc<Jit>,
}

impl std::fmt::Debug for Executable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Executable").field("name", &self.name).field("params", &self.params).finish_non_exhaustive()
    }
}

impl Executable {
    pub(crate) fn new(
        name: &str,
        params: Vec<ArrayType>,
        results: Vec<ArrayType>,
        objects: &[&[u8]],
        info: &crate::driver::ModuleInfo,
    ) -> Result<Executable> {
        let (jit, addr) = Jit::load(objects)?;
        let jit = Arc::new(jit);
        let handed_over = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        if let Some(options) = &info.generic_conv_options {
            let (weak, convs, linked) = (Arc::downgrade(&jit), info.generic_convs.clone(), info.routines.clone());
            let (options, count) = (options.clone(), handed_over.clone());
            crate::routines::in_background(move || specialize_convs(&weak, &convs, linked, &options, &count));
        }
        if std::env::var_os("SMELT_PERF_MAP").is_some() {
            let mut functions = info.functions.clone();
            functions.extend(info.routines.iter().flat_map(crate::routines::Routine::symbols));
            write_perf_map(&jit, &functions);
        }
        let profile = if info.profile_labels.is_empty() {
            None
        } else {
            let name = CString::new(crate::driver::PROFILE_COUNTERS).map_err(|e| CpuError::Jit(e.to_string()))?;
            Some(Profile {
                counters: jit.lookup(&name)?,
                labels: info.profile_labels.clone(),
                work: info.profile_work.clone(),
            })
        };
        // SAFETY: `smelt_run` has exactly this signature (see `driver`).
        let entry = unsafe { std::mem::transmute::<usize, RunFn>(addr) };
        let copies = params
            .iter()
            .enumerate()
            .map(|(i, t)| {
                info.written_params.get(i).copied().unwrap_or(false).then(|| Scratch::new(t.byte_size())).transpose()
            })
            .collect::<Result<_>>()?;
        let state = State {
            arena: Scratch::new(info.arena_bytes)?,
            copies,
            written_results: info.written_results.clone(),
            params: Vec::with_capacity(params.len()),
            results: Vec::with_capacity(results.len()),
        };
        Ok(Executable {
            name: name.to_string(),
            params,
            results,
            entry,
            state: Mutex::new(state),
            profile,
            phases: Vec::new(),
            generic_convs: if info.generic_conv_options.is_some() { info.generic_convs.len() } else { 0 },
            handed_over,
            _jit: jit,
        })
    }

    /// The program's name.
    /// Convolutions that run on the generic routine until their specialized
    /// routines, being built in the background, take over
    /// ([`crate::ConvMode::Auto`]), and how many have taken over so far.
    pub fn specializing_convs(&self) -> (usize, usize) {
        (self.generic_convs, self.handed_over.load(std::sync::atomic::Ordering::Acquire))
    }

    pub fn name(&self) -> &str {
        &self.name
    }
}

impl smelt_kernel::Executable for Executable {
    fn signature(&self) -> smelt_kernel::Signature<'_> {
        smelt_kernel::Signature { backend: "cpu", params: &self.params, results: &self.results }
    }

    /// Per-step times, when compiled with [`crate::CompileOptions::profile`]
    /// (None otherwise).
    fn compile_phases(&self) -> Vec<(String, f64)> {
        self.phases.clone()
    }

    fn profile(&self) -> Option<Vec<StepProfile>> {
        let p = self.profile.as_ref()?;
        // Runs hold the state lock while they update the counters.
        let _guard = self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let c = p.counters as *const u64;
        Some(
            p.labels
                .iter()
                .enumerate()
                .map(|(i, label)| {
                    // SAFETY: the counters global holds `1 + 2 * labels` u64s
                    // (see `driver`), alive as long as the JIT.
                    let (ns, calls) = unsafe { (*c.add(1 + 2 * i), *c.add(2 + 2 * i)) };
                    let work = p
                        .work
                        .get(i)
                        .copied()
                        .unwrap_or(smelt_kernel::StepWork { class: smelt_kernel::WorkClass::Other, units: 0.0 });
                    StepProfile { label: label.clone(), total_ms: ns as f64 / 1e6, calls, work }
                })
                .collect(),
        )
    }

    /// Zeroes the per-step times.
    fn reset_profile(&self) {
        let Some(p) = &self.profile else {
            return;
        };
        let _guard = self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        // SAFETY: as in `profile`; no run is in progress while the lock is held.
        unsafe { std::ptr::write_bytes(p.counters as *mut u64, 0, 1 + 2 * p.labels.len()) };
    }

    /// Runs on views of caller-owned memory (no copies unless the program
    /// writes a parameter in place).
    fn execute(&self, args: &[ArrayView<'_>]) -> Result<Vec<Array>, BackendError> {
        let mut guard = self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let st = &mut *guard;
        let mut outs: Vec<Array> = self
            .results
            .iter()
            .enumerate()
            .map(|(i, t)| output(t, st.written_results.get(i).copied().unwrap_or(false)))
            .collect();
        for (o, t) in outs.iter_mut().zip(&self.results) {
            let p: *mut u8 = with_data!(&mut o.data, v => v.as_mut_ptr().cast::<u8>());
            huge_pages(p, t.byte_size());
        }
        st.params.clear();
        for (i, a) in args.iter().enumerate() {
            let src: *const u8 = a.as_ptr();
            let bytes = self.params[i].byte_size();
            match st.copies.get_mut(i).and_then(|c| c.as_mut()) {
                Some(copy) => {
                    let dst = copy.as_mut_ptr();
                    // SAFETY: the argument holds `bytes` bytes (checked shape and
                    // type above) and the copy was sized for them.
                    unsafe { std::ptr::copy_nonoverlapping(src, dst, bytes) };
                    st.params.push(dst as *const u8);
                }
                None => st.params.push(src),
            }
        }
        st.results.clear();
        for o in outs.iter_mut() {
            st.results.push(with_data!(&mut o.data, v => v.as_mut_ptr().cast::<u8>()));
        }
        let temp = st.arena.as_mut_ptr();
        // XLA CPU's floating-point environment for the run (restored after).
        let fpenv = smelt_runtime::fpenv::FlushSubnormals::enter();
        // SAFETY: every pointer refers to a live buffer of the size and type the
        // program was compiled for; the program writes only results, the arena
        // and the private parameter copies.
        let rc = unsafe { (self.entry)(st.params.as_ptr(), st.results.as_ptr(), temp) };
        drop(fpenv);
        if rc != 0 {
            return Err(BackendError::backend(CpuError::Jit(format!("smelt_run returned {rc}"))));
        }
        for (o, t) in outs.iter_mut().zip(&self.results) {
            let n = t.element_count();
            // SAFETY: an output allocated with capacity only (`output`) is one the
            // program writes in full, and it has just run: all `n` elements are
            // initialized. Zeroed outputs already have length `n`.
            with_data!(&mut o.data, v => if v.len() != n { unsafe { v.set_len(n) } });
        }
        Ok(outs)
    }
}
