//! The thread pool generated code calls: `smelt_parallel_for` on a persistent
//! thread pool.
//!
//! `smelt_parallel_for(task, ctx, n, grain)` runs `task(ctx, begin, end)` over
//! `[0, n)` in chunks of `grain` iterations and returns when all have run. The
//! calling thread takes chunks too. Small jobs (`n <= grain`), a pool of one
//! thread, and calls made while the pool is busy (another thread's job, or a
//! task calling back in) run serially on the caller, so nothing deadlocks.
//!
//! The pool is sized to the machine (`SMELT_THREADS` overrides) and started on
//! first use. A job costs no allocation: its description lives in atomics, and
//! chunks are claimed with a compare-and-swap on one word holding the job's
//! epoch and the next chunk, so a worker that wakes late can never run a chunk
//! of a job that has finished; each job first retires the last epoch (no
//! chunk left to claim) before it writes its fields, then publishes a new
//! one, so no claim can pair one job's epoch with another's fields. A job is cut into at most
//! [`CHUNKS_PER_THREAD`] chunks per thread (multiples of the caller's grain).
//! Idle workers spin briefly (back-to-back kernel launches find them awake),
//! then sleep on a condition variable. Workers run
//! with subnormals flushed ([`crate::fpenv`]), as the callers' runs do.

use std::ffi::c_void;
use std::sync::atomic::{AtomicI64, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, OnceLock, TryLockError};

/// The symbol generated code calls.
pub const PARALLEL_FOR_SYMBOL: &str = "smelt_parallel_for";
/// The symbol generated code calls for the number of threads a job may run on
/// (routines size their task grids from it).
pub const THREADS_SYMBOL: &str = "smelt_parallel_threads";
/// The step profiler's clock (only programs compiled with profiling call it).
pub const PROFILE_MARK_SYMBOL: &str = "smelt_profile_mark";

/// A task: `task(ctx, begin, end)` runs iterations `[begin, end)`.
pub type Task = unsafe extern "C" fn(ctx: *mut c_void, begin: i64, end: i64);

/// Spins before an idle worker sleeps.
const SPINS: u32 = 1 << 12;
const EPOCH_SHIFT: u32 = 32;
const INDEX_MASK: u64 = (1 << EPOCH_SHIFT) - 1;
/// Chunks per job at most (the chunk index shares a word with the epoch).
const MAX_CHUNKS: i64 = 1 << 30;
/// Chunks per thread at most: larger grains than the caller's where its
/// cost model made chunks tiny. Every claim is an atomic on a line the
/// threads pass back and forth, and neighbouring chunks on different threads
/// share the cache lines at their edges; sixteen per thread still balance.
/// A padded 3x3 average pool over `1x576x14x14` (whose cost model counts
/// the window's edge tests, which the code cuts away, and no vector lanes)
/// ran in 288 chunks at 0.074 ms on two threads against 0.041 on one, and
/// in 32 at 0.026 (Intel Xeon of `docs/benchmarks.md`).
const CHUNKS_PER_THREAD: i64 = 16;

struct Pool {
    /// Threads besides the caller (set once, when they are started).
    workers: AtomicUsize,
    /// `epoch << 32 | next chunk`.
    cursor: AtomicU64,
    task: AtomicUsize,
    ctx: AtomicUsize,
    n: AtomicI64,
    grain: AtomicI64,
    chunks: AtomicU64,
    /// Iterations finished in the current job.
    done: AtomicI64,
    /// Held by the thread whose job the pool runs.
    busy: Mutex<()>,
    sleep: Mutex<()>,
    wake: Condvar,
    sleepers: AtomicUsize,
}

static POOL: OnceLock<&'static Pool> = OnceLock::new();

/// Threads the pool runs jobs on, the caller included.
pub fn threads() -> usize {
    pool().workers.load(Ordering::Relaxed) + 1
}

fn configured_threads() -> usize {
    std::env::var("SMELT_THREADS")
        .ok()
        .and_then(|s| s.trim().parse::<usize>().ok())
        .filter(|&n| n >= 1)
        .unwrap_or_else(|| std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1))
}

fn pool() -> &'static Pool {
    POOL.get_or_init(|| {
        let want = configured_threads().saturating_sub(1);
        let p: &'static Pool = Box::leak(Box::new(Pool {
            workers: AtomicUsize::new(0),
            cursor: AtomicU64::new(0),
            task: AtomicUsize::new(0),
            ctx: AtomicUsize::new(0),
            n: AtomicI64::new(0),
            grain: AtomicI64::new(1),
            chunks: AtomicU64::new(0),
            done: AtomicI64::new(0),
            busy: Mutex::new(()),
            sleep: Mutex::new(()),
            wake: Condvar::new(),
            sleepers: AtomicUsize::new(0),
        }));
        let mut started = 0;
        for i in 0..want {
            let spawned = std::thread::Builder::new().name(format!("smelt-worker-{i}")).spawn(move || worker(p));
            if spawned.is_ok() {
                started += 1;
            }
        }
        p.workers.store(started, Ordering::Relaxed);
        p
    })
}

fn worker(p: &'static Pool) {
    crate::fpenv::flush_subnormals_on_this_thread();
    let mut seen = 0u64;
    loop {
        let mut spins = 0u32;
        loop {
            let e = p.cursor.load(Ordering::Acquire) >> EPOCH_SHIFT;
            if e != seen {
                seen = e;
                break;
            }
            if spins < SPINS {
                spins += 1;
                std::hint::spin_loop();
                continue;
            }
            let mut g = match p.sleep.lock() {
                Ok(g) => g,
                Err(e) => e.into_inner(),
            };
            p.sleepers.fetch_add(1, Ordering::SeqCst);
            while p.cursor.load(Ordering::SeqCst) >> EPOCH_SHIFT == seen {
                g = match p.wake.wait(g) {
                    Ok(g) => g,
                    Err(e) => e.into_inner(),
                };
            }
            p.sleepers.fetch_sub(1, Ordering::SeqCst);
            spins = 0;
        }
        run_chunks(p, seen);
    }
}

/// Claims and runs chunks of the job of `epoch` until none are left.
fn run_chunks(p: &Pool, epoch: u64) {
    // Read after observing the epoch: valid for it whenever a claim succeeds.
    let task = p.task.load(Ordering::Acquire);
    let ctx = p.ctx.load(Ordering::Acquire);
    let n = p.n.load(Ordering::Acquire);
    let grain = p.grain.load(Ordering::Acquire);
    let chunks = p.chunks.load(Ordering::Acquire);
    loop {
        let c = p.cursor.load(Ordering::Acquire);
        if c >> EPOCH_SHIFT != epoch || (c & INDEX_MASK) >= chunks {
            return;
        }
        if p.cursor.compare_exchange_weak(c, c + 1, Ordering::AcqRel, Ordering::Acquire).is_err() {
            continue;
        }
        let begin = (c & INDEX_MASK) as i64 * grain;
        let end = (begin + grain).min(n);
        // SAFETY: `task` was stored from a valid `Task` for this epoch, and the
        // successful claim proves the job (and so `ctx`) is still live.
        let f: Task = unsafe { std::mem::transmute::<usize, Task>(task) };
        unsafe { f(ctx as *mut c_void, begin, end) };
        p.done.fetch_add(end - begin, Ordering::Release);
    }
}

/// Runs `task(ctx, begin, end)` over `[0, n)` in chunks of `grain`.
///
/// # Safety
/// `task` must be safe to call on `ctx` with any disjoint subranges of
/// `[0, n)`, concurrently from several threads.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn smelt_parallel_for(task: Task, ctx: *mut c_void, n: i64, grain: i64) {
    if n <= 0 {
        return;
    }
    let p = pool();
    // Whole multiples of the caller's grain (its tiles or vector runs).
    let most = (p.workers.load(Ordering::Relaxed) as i64 + 1).saturating_mul(CHUNKS_PER_THREAD).min(MAX_CHUNKS);
    let grain = grain.max(1);
    let chunks = (n - 1) / grain + 1;
    let grain = grain.saturating_mul((chunks - 1) / most + 1);
    if p.workers.load(Ordering::Relaxed) == 0 || n <= grain {
        // SAFETY: the caller's contract.
        unsafe { task(ctx, 0, n) };
        return;
    }
    let _guard = match p.busy.try_lock() {
        Ok(g) => g,
        Err(TryLockError::Poisoned(e)) => e.into_inner(),
        Err(TryLockError::WouldBlock) => {
            // SAFETY: the caller's contract.
            unsafe { task(ctx, 0, n) };
            return;
        }
    };
    // Two epochs per job. The first, with no chunk left to claim, retires the
    // last job's epoch before its fields change: a worker that saw that
    // epoch and reads fields from here on can no longer claim (its claim
    // expects the old epoch); without it, a late worker read this job's
    // larger chunk count while the old epoch's exhausted cursor was still
    // up, claimed a chunk and ran it with a mix of both jobs' task, context
    // and sizes. The second publishes the job.
    let next = |e: u64| match (e + 1) & INDEX_MASK {
        0 => 1,
        e => e,
    };
    let retired = next(p.cursor.load(Ordering::Relaxed) >> EPOCH_SHIFT);
    p.cursor.store(retired << EPOCH_SHIFT | INDEX_MASK, Ordering::SeqCst);
    p.task.store(task as usize, Ordering::Relaxed);
    p.ctx.store(ctx as usize, Ordering::Relaxed);
    p.n.store(n, Ordering::Relaxed);
    p.grain.store(grain, Ordering::Relaxed);
    p.chunks.store(((n - 1) / grain + 1) as u64, Ordering::Relaxed);
    p.done.store(0, Ordering::Relaxed);
    let epoch = next(retired);
    // Publishes the fields above (release) and orders against `sleepers`.
    p.cursor.store(epoch << EPOCH_SHIFT, Ordering::SeqCst);
    if p.sleepers.load(Ordering::SeqCst) > 0 {
        let _g = match p.sleep.lock() {
            Ok(g) => g,
            Err(e) => e.into_inner(),
        };
        p.wake.notify_all();
    }
    run_chunks(p, epoch);
    let mut spins = 0u32;
    while p.done.load(Ordering::Acquire) < n {
        spins = spins.wrapping_add(1);
        if spins.is_multiple_of(1024) {
            std::thread::yield_now();
        } else {
            std::hint::spin_loop();
        }
    }
}

/// The address of [`smelt_parallel_for`], for the JIT's symbol table.
pub fn parallel_for_address() -> usize {
    smelt_parallel_for as *const () as usize
}

/// [`threads`], for generated code.
#[unsafe(no_mangle)]
pub extern "C" fn smelt_parallel_threads() -> i64 {
    threads() as i64
}

/// The address of [`smelt_parallel_threads`], for the JIT's symbol table.
pub fn threads_address() -> usize {
    smelt_parallel_threads as *const () as usize
}

/// Nanoseconds on a monotonic clock.
fn now_ns() -> u64 {
    static BASE: OnceLock<std::time::Instant> = OnceLock::new();
    BASE.get_or_init(std::time::Instant::now).elapsed().as_nanos() as u64
}

/// The step profiler: `counters[0]` is the time of the last mark; a mark for
/// `slot >= 0` adds the time since then to `counters[1 + 2 * slot]` and counts
/// one call in `counters[2 + 2 * slot]`; a mark for a negative slot only
/// restarts the clock (the start of a run).
///
/// # Safety
/// `counters` must point to `1 + 2 * slots` writable `u64`s with `slot <
/// slots`, and no other thread may use them during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn smelt_profile_mark(counters: *mut u64, slot: i64) {
    let now = now_ns();
    // SAFETY: the caller's contract.
    unsafe {
        if slot >= 0 {
            let s = slot as usize;
            *counters.add(1 + 2 * s) += now.saturating_sub(*counters);
            *counters.add(2 + 2 * s) += 1;
        }
        *counters = now;
    }
}

/// The address of [`smelt_profile_mark`], for the JIT's symbol table.
pub fn profile_mark_address() -> usize {
    smelt_profile_mark as *const () as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU8;

    struct Marks {
        hits: Vec<AtomicU8>,
    }

    unsafe extern "C" fn mark(ctx: *mut c_void, begin: i64, end: i64) {
        // SAFETY: the tests pass a live `Marks`.
        let m = unsafe { &*(ctx as *const Marks) };
        for i in begin..end {
            m.hits[i as usize].fetch_add(1, Ordering::Relaxed);
        }
    }

    fn run(n: i64, grain: i64) {
        let m = Marks { hits: (0..n).map(|_| AtomicU8::new(0)).collect() };
        // SAFETY: `mark` only touches its own range of `m`.
        unsafe { smelt_parallel_for(mark, &m as *const Marks as *mut c_void, n, grain) };
        assert!(m.hits.iter().all(|h| h.load(Ordering::Relaxed) == 1), "n={n} grain={grain}");
    }

    struct Calls {
        calls: AtomicI64,
        iterations: AtomicI64,
    }

    unsafe extern "C" fn count(ctx: *mut c_void, begin: i64, end: i64) {
        // SAFETY: the test passes a live `Calls`.
        let c = unsafe { &*(ctx as *const Calls) };
        c.calls.fetch_add(1, Ordering::Relaxed);
        c.iterations.fetch_add(end - begin, Ordering::Relaxed);
    }

    #[test]
    fn jobs_take_at_most_sixteen_chunks_per_thread() {
        let c = Calls { calls: AtomicI64::new(0), iterations: AtomicI64::new(0) };
        // SAFETY: `count` only touches atomics.
        unsafe { smelt_parallel_for(count, &c as *const Calls as *mut c_void, 100_000, 1) };
        assert_eq!(c.iterations.load(Ordering::Relaxed), 100_000);
        let calls = c.calls.load(Ordering::Relaxed);
        assert!(calls <= CHUNKS_PER_THREAD * threads() as i64, "{calls} chunks on {} threads", threads());
    }

    struct Starts {
        misaligned: AtomicI64,
    }

    unsafe extern "C" fn starts(ctx: *mut c_void, begin: i64, _end: i64) {
        // SAFETY: the test passes a live `Starts`.
        let s = unsafe { &*(ctx as *const Starts) };
        if begin % 48 != 0 {
            s.misaligned.fetch_add(1, Ordering::Relaxed);
        }
    }

    #[test]
    fn fewer_chunks_keep_the_callers_grain() {
        let s = Starts { misaligned: AtomicI64::new(0) };
        // SAFETY: `starts` only touches an atomic.
        unsafe { smelt_parallel_for(starts, &s as *const Starts as *mut c_void, 1_000_000, 48) };
        assert_eq!(s.misaligned.load(Ordering::Relaxed), 0);
    }

    #[test]
    fn every_iteration_runs_exactly_once() {
        for (n, g) in [(0, 1), (1, 1), (7, 3), (1000, 1), (1000, 7), (1000, 1000), (100_000, 64), (5, 0), (5, -3)] {
            run(n, g);
        }
        assert!(threads() >= 1);
    }

    #[test]
    fn concurrent_callers_and_back_to_back_jobs() {
        let handles: Vec<_> = (0..4)
            .map(|t| {
                std::thread::spawn(move || {
                    for i in 0..200 {
                        run(1 + (i * 37 + t) % 3000, 1 + (i % 5));
                    }
                })
            })
            .collect();
        for h in handles {
            assert!(h.join().is_ok());
        }
    }

    #[test]
    fn a_late_worker_never_runs_a_job_it_did_not_see_published() {
        // Back-to-back jobs of few chunks then many, each over its own
        // marks: a worker that saw one job's epoch and read the next job's
        // fields while the caller was writing them claimed a chunk of the
        // next job (its larger chunk count let the old epoch's exhausted
        // cursor through) with a mix of both jobs' task, context and sizes
        // (ONNX's separable block crashed on a null buffer in one run of
        // about 150). Every iteration of every job must run exactly once.
        for i in 0..300_000 {
            run(2, 1);
            run(24 + i % 40, 1);
        }
    }

    unsafe extern "C" fn nested(ctx: *mut c_void, begin: i64, end: i64) {
        for _ in begin..end {
            // A task that launches a job runs it serially instead of deadlocking.
            unsafe { mark(ctx, 0, 0) };
            let m = Marks { hits: (0..50).map(|_| AtomicU8::new(0)).collect() };
            unsafe { smelt_parallel_for(mark, &m as *const Marks as *mut c_void, 50, 1) };
            assert!(m.hits.iter().all(|h| h.load(Ordering::Relaxed) == 1));
        }
    }

    #[test]
    fn tasks_may_call_back_in() {
        let m = Marks { hits: Vec::new() };
        unsafe { smelt_parallel_for(nested, &m as *const Marks as *mut c_void, 16, 1) };
    }
}
