//! Running generated routines in process, for tests and benchmarks: a host
//! `TargetMachine`, the O3 pipeline, an MCJIT engine, and `smelt_parallel_for`
//! implementations to map into it (serial, two scoped threads, and a small
//! persistent pool for timing). The production runtime belongs to the code
//! generator; these exist so the routines can be checked on their own.

use std::ffi::c_void;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock};

use inkwell::OptimizationLevel;
use inkwell::execution_engine::ExecutionEngine;
use inkwell::module::Module;
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::{CodeModel, InitializationConfig, RelocMode, Target, TargetMachine};

use crate::LlvmError;

/// A target machine for the host CPU with all its features, at O3.
pub fn host_target_machine() -> Result<TargetMachine, LlvmError> {
    Target::initialize_native(&InitializationConfig::default()).map_err(LlvmError::Llvm)?;
    let triple = TargetMachine::get_default_triple();
    let target = Target::from_triple(&triple).map_err(|e| LlvmError::Llvm(e.to_string()))?;
    let cpu = TargetMachine::get_host_cpu_name().to_string();
    let features = TargetMachine::get_host_cpu_features().to_string();
    target
        .create_target_machine(
            &triple,
            &cpu,
            &features,
            OptimizationLevel::Aggressive,
            RelocMode::Default,
            CodeModel::JITDefault,
        )
        .ok_or_else(|| LlvmError::Llvm("no target machine for the host".into()))
}

/// Gives `module` the target's triple and data layout (before generating code).
pub fn prepare_module(module: &Module<'_>, target: &TargetMachine) {
    module.set_triple(&target.get_triple());
    module.set_data_layout(&target.get_target_data().get_data_layout());
}

/// Verifies `module` and runs LLVM's `default<O3>` pipeline on it.
pub fn optimize(module: &Module<'_>, target: &TargetMachine) -> Result<(), LlvmError> {
    module.verify().map_err(|e| LlvmError::Llvm(e.to_string()))?;
    module.run_passes("default<O3>", target, PassBuilderOptions::create()).map_err(|e| LlvmError::Llvm(e.to_string()))
}

/// Which `smelt_parallel_for` a JIT-compiled module gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Runtime {
    /// Chunks of `grain` in order on the calling thread.
    Serial,
    /// Two scoped threads taking chunks from a shared counter.
    TwoThreads,
    /// A persistent pool with one thread per core (the caller included).
    Pool,
}

/// Optimizes `module` and makes an MCJIT engine for it with `smelt_parallel_for`
/// and `smelt_parallel_threads` mapped to `runtime`.
pub fn engine<'ctx>(
    module: &Module<'ctx>,
    target: &TargetMachine,
    runtime: Runtime,
) -> Result<ExecutionEngine<'ctx>, LlvmError> {
    engine_with(module, target, runtime, &[])
}

/// [`engine`], with each function of `module` named in `symbols` mapped to the
/// address beside it (runtime functions the process does not export).
pub fn engine_with<'ctx>(
    module: &Module<'ctx>,
    target: &TargetMachine,
    runtime: Runtime,
    symbols: &[(&str, usize)],
) -> Result<ExecutionEngine<'ctx>, LlvmError> {
    optimize(module, target)?;
    let ee = module
        .create_jit_execution_engine(OptimizationLevel::Aggressive)
        .map_err(|e| LlvmError::Llvm(e.to_string()))?;
    // `smelt_parallel_for` and `smelt_parallel_threads` of `runtime`, then the caller's.
    let (parallel_for, threads): (usize, usize) = match runtime {
        Runtime::Serial => (parallel_for_serial as *const () as usize, threads_one as *const () as usize),
        Runtime::TwoThreads => (parallel_for_two_threads as *const () as usize, threads_two as *const () as usize),
        Runtime::Pool => (parallel_for_pool as *const () as usize, threads_pool as *const () as usize),
    };
    let own = [("smelt_parallel_for", parallel_for), ("smelt_parallel_threads", threads)];
    for &(name, addr) in own.iter().chain(symbols) {
        if let Some(f) = module.get_function(name) {
            ee.add_global_mapping(&f, addr);
        }
    }
    Ok(ee)
}

/// `smelt_parallel_threads` for each [`Runtime`].
extern "C" fn threads_one() -> i64 {
    1
}

extern "C" fn threads_two() -> i64 {
    2
}

extern "C" fn threads_pool() -> i64 {
    pool().threads as i64
}

/// `void (ptr ctx, i64 begin, i64 end)`.
pub type TaskFn = unsafe extern "C" fn(*mut c_void, i64, i64);

/// # Safety
/// `task` must be safe to call with `ctx` on every chunk of `[0, n)`.
pub unsafe extern "C" fn parallel_for_serial(task: TaskFn, ctx: *mut c_void, n: i64, grain: i64) {
    let g = grain.max(1);
    let mut lo = 0;
    while lo < n {
        let hi = (lo + g).min(n);
        unsafe { task(ctx, lo, hi) };
        lo = hi;
    }
}

#[derive(Clone, Copy)]
struct SendPtr(*mut c_void);
unsafe impl Send for SendPtr {}
unsafe impl Sync for SendPtr {}

impl SendPtr {
    /// By method, so closures capture the wrapper (which is `Send`), not the field.
    fn get(self) -> *mut c_void {
        self.0
    }
}

/// # Safety
/// `task` must be safe to call with `ctx` on disjoint chunks from two threads.
pub unsafe extern "C" fn parallel_for_two_threads(task: TaskFn, ctx: *mut c_void, n: i64, grain: i64) {
    let g = grain.max(1);
    let next = AtomicI64::new(0);
    let ctx = SendPtr(ctx);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                loop {
                    let lo = next.fetch_add(g, Ordering::Relaxed);
                    if lo >= n {
                        break;
                    }
                    unsafe { task(ctx.get(), lo, (lo + g).min(n)) };
                }
            });
        }
    });
}

struct Job {
    task: TaskFn,
    ctx: SendPtr,
    n: i64,
    grain: i64,
    next: AtomicI64,
    finished: AtomicI64,
}

impl Job {
    /// Runs chunks until none are left.
    fn work(&self) {
        loop {
            let lo = self.next.fetch_add(self.grain, Ordering::Relaxed);
            if lo >= self.n {
                return;
            }
            let hi = (lo + self.grain).min(self.n);
            unsafe { (self.task)(self.ctx.0, lo, hi) };
            self.finished.fetch_add(hi - lo, Ordering::AcqRel);
        }
    }
}

struct Pool {
    generation: AtomicU64,
    job: Mutex<Option<Arc<Job>>>,
    wake: Mutex<()>,
    cv: Condvar,
    busy: Mutex<()>,
    /// Threads a job runs on, the caller included.
    threads: usize,
}

fn pool() -> &'static Pool {
    static POOL: OnceLock<&'static Pool> = OnceLock::new();
    POOL.get_or_init(|| {
        let threads = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
        let pool: &'static Pool = Box::leak(Box::new(Pool {
            generation: AtomicU64::new(0),
            job: Mutex::new(None),
            wake: Mutex::new(()),
            cv: Condvar::new(),
            busy: Mutex::new(()),
            threads,
        }));
        for _ in 1..threads {
            std::thread::spawn(move || worker(pool));
        }
        pool
    })
}

fn worker(pool: &'static Pool) {
    let mut seen = 0;
    loop {
        let mut spins = 0u32;
        loop {
            let g = pool.generation.load(Ordering::Acquire);
            if g != seen {
                seen = g;
                break;
            }
            if spins < 200_000 {
                std::hint::spin_loop();
                spins += 1;
            } else {
                let mut guard = pool.wake.lock().unwrap_or_else(|e| e.into_inner());
                while pool.generation.load(Ordering::Acquire) == seen {
                    guard = pool.cv.wait(guard).unwrap_or_else(|e| e.into_inner());
                }
            }
        }
        let job = pool.job.lock().unwrap_or_else(|e| e.into_inner()).clone();
        if let Some(job) = job {
            job.work();
        }
    }
}

/// # Safety
/// `task` must be safe to call with `ctx` on disjoint chunks from several threads.
pub unsafe extern "C" fn parallel_for_pool(task: TaskFn, ctx: *mut c_void, n: i64, grain: i64) {
    if n <= 0 {
        return;
    }
    let pool = pool();
    // One job at a time; a nested or concurrent call runs on its caller alone.
    let Ok(_busy) = pool.busy.try_lock() else {
        unsafe { parallel_for_serial(task, ctx, n, grain) };
        return;
    };
    let job = Arc::new(Job {
        task,
        ctx: SendPtr(ctx),
        n,
        grain: grain.max(1),
        next: AtomicI64::new(0),
        finished: AtomicI64::new(0),
    });
    *pool.job.lock().unwrap_or_else(|e| e.into_inner()) = Some(job.clone());
    pool.generation.fetch_add(1, Ordering::Release);
    drop(pool.wake.lock().unwrap_or_else(|e| e.into_inner()));
    pool.cv.notify_all();
    job.work();
    while job.finished.load(Ordering::Acquire) < n {
        std::hint::spin_loop();
    }
}
