//! [`Executable`]: a compiled module, ready to run, possibly on two tiers.
//!
//! An executable runs on one *engine* (the interpreter, Cranelift code or LLVM
//! code) and, when compiled tiered, holds a second slot for LLVM code that a
//! background thread fills in ([`Upgrade`]). Every run checks whether that slot
//! is filled with one atomic load (`OnceLock::get`): before, runs go to the
//! first engine; from then on, to the LLVM one. Nothing else changes on the
//! hot path: argument checks, one counter update per run, and the backend's own
//! run.
//!
//! [`Executable::tier`] says which tier ran last, [`Executable::wait_optimized`]
//! waits for the background compilation (tests and benchmarks use it to make
//! the switch deterministic).

use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

use smallvec::SmallVec;
use smelt_hlo::{Array, ArrayView, Literal, Module, Shape};

use crate::buffer::Buffer;
use crate::key::ArgType;
use crate::policy::Family;
use crate::stats::Counters;
use crate::{JitError, lock};

/// Where a run executes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tier {
    /// The reference interpreter (the `interp` backend, an interpreted
    /// baseline, or a megamorphic family's fallback).
    Interp,
    /// Cranelift-compiled code (fast to compile).
    Cranelift,
    /// LLVM-compiled code (`smelt-cpu`, fast to run).
    Llvm,
    /// GPU code (`gpu`, or its host simulator `gpu-sim`).
    Gpu,
    /// `smelt-cpu` with every kernel run by its tile interpreter (compiled
    /// in milliseconds, runs within a few times LLVM code's time).
    Tiles,
}

impl Tier {
    pub fn name(self) -> &'static str {
        match self {
            Tier::Interp => "interp",
            Tier::Cranelift => "cranelift",
            Tier::Llvm => "llvm",
            Tier::Gpu => "gpu",
            Tier::Tiles => "tiles",
        }
    }

    /// The tier of a registered backend's code.
    fn of_backend(name: &str) -> Tier {
        match name {
            "cranelift" => Tier::Cranelift,
            "gpu" | "gpu-sim" => Tier::Gpu,
            _ => Tier::Llvm,
        }
    }

    fn code(self) -> u8 {
        match self {
            Tier::Interp => 1,
            Tier::Cranelift => 2,
            Tier::Llvm => 3,
            Tier::Gpu => 4,
            Tier::Tiles => 5,
        }
    }

    fn from_code(c: u8) -> Option<Tier> {
        match c {
            1 => Some(Tier::Interp),
            2 => Some(Tier::Cranelift),
            3 => Some(Tier::Llvm),
            4 => Some(Tier::Gpu),
            5 => Some(Tier::Tiles),
            _ => None,
        }
    }
}

/// What actually runs a program.
pub(crate) enum Engine {
    /// The interpreter on the verified module as given (no pipeline), within
    /// the client's memory budget (None: the environment's).
    Interp(Box<Module>, Option<smelt_hlo::budget::MemoryBudget>),
    /// A registered backend's executable.
    Compiled(Arc<dyn smelt_kernel::Executable>),
    /// `smelt-cpu` code whose kernels the tile interpreter runs ([`Tier::Tiles`]).
    Tiles(Arc<smelt_cpu::Executable>),
}

impl Engine {
    fn tier(&self) -> Tier {
        match self {
            Engine::Interp(..) => Tier::Interp,
            Engine::Compiled(exe) => Tier::of_backend(exe.backend()),
            Engine::Tiles(_) => Tier::Tiles,
        }
    }

    /// Runs on arguments already checked against the signature.
    fn run(&self, args: &[ArrayView<'_>], param_shapes: &[Shape]) -> Result<Vec<Array>, JitError> {
        match self {
            Engine::Interp(module, memory) => {
                let literals = rebuild_params(args, param_shapes)?;
                let options = smelt_interp::Options { memory: *memory, ..Default::default() };
                smelt_interp::evaluate_with(module, module.entry, &literals, &options)
                    .map(Literal::into_leaves)
                    .map_err(|e| JitError::Interp(e.to_string()))
            }
            Engine::Compiled(exe) => exe.execute(args).map_err(|e| backend_error(exe.backend(), e)),
            Engine::Tiles(exe) => {
                smelt_kernel::Executable::execute(exe.as_ref(), args).map_err(|e| backend_error("cpu", e))
            }
        }
    }
}

/// A backend's error as the JIT reports it.
pub(crate) fn backend_error(backend: &'static str, e: impl std::fmt::Display) -> JitError {
    JitError::Backend { backend, message: e.to_string() }
}

/// Regroups flattened leaves into the entry's (possibly tuple) parameters
/// (copies: the interpreter owns its values).
fn rebuild_params(args: &[ArrayView<'_>], shapes: &[Shape]) -> Result<Vec<Literal>, JitError> {
    fn take(shape: &Shape, args: &mut std::slice::Iter<'_, ArrayView<'_>>) -> Result<Literal, JitError> {
        match shape {
            Shape::Array(_) => args
                .next()
                .map(|a| Literal::Array(a.to_array()))
                .ok_or_else(|| JitError::Interp("too few arguments for the parameter shapes".into())),
            Shape::Tuple(t) => Ok(Literal::Tuple(t.iter().map(|s| take(s, args)).collect::<Result<_, _>>()?)),
        }
    }
    let mut it = args.iter();
    shapes.iter().map(|s| take(s, &mut it)).collect()
}

/// Where the background compilation stands.
#[derive(Clone, Debug, PartialEq)]
enum UpgradeState {
    Pending,
    Done,
    Failed(String),
}

/// Starts the background compilation.
pub(crate) type Starter = Box<dyn FnOnce() + Send>;

/// The LLVM tier of a tiered executable, filled in by a background thread.
pub(crate) struct Upgrade {
    ready: OnceLock<Arc<dyn smelt_kernel::Executable>>,
    state: Mutex<UpgradeState>,
    cv: Condvar,
    /// With `CompileOptions::defer_upgrade`: the compilation not started yet.
    deferred: Mutex<Option<Starter>>,
    /// Whether a run on the first tier has finished (the compilation waits
    /// for one, up to a bound, so that the first result has every core).
    first_run: Mutex<bool>,
    first_run_seen: AtomicBool,
    first_run_cv: Condvar,
}

impl Upgrade {
    pub(crate) fn new() -> Arc<Upgrade> {
        Arc::new(Upgrade {
            ready: OnceLock::new(),
            state: Mutex::new(UpgradeState::Pending),
            cv: Condvar::new(),
            deferred: Mutex::new(None),
            first_run: Mutex::new(false),
            first_run_seen: AtomicBool::new(false),
            first_run_cv: Condvar::new(),
        })
    }

    /// Notes that a run on the first tier finished (cheap after the first).
    fn first_run_done(&self) {
        if !self.first_run_seen.swap(true, Ordering::Relaxed) {
            *lock(&self.first_run) = true;
            self.first_run_cv.notify_all();
        }
    }

    /// Waits until a run on the first tier has finished, or `at_most`.
    pub(crate) fn wait_first_run(&self, at_most: std::time::Duration) {
        let guard = lock(&self.first_run);
        let _ = self
            .first_run_cv
            .wait_timeout_while(guard, at_most, |done| !*done)
            .unwrap_or_else(std::sync::PoisonError::into_inner);
    }

    pub(crate) fn defer(&self, start: Starter) {
        *lock(&self.deferred) = Some(start);
    }

    /// Publishes the background thread's outcome and wakes waiters.
    pub(crate) fn finish(&self, result: Result<smelt_cpu::Executable, JitError>) {
        let state = match result {
            Ok(exe) => {
                let _ = self.ready.set(Arc::new(exe));
                UpgradeState::Done
            }
            Err(e) => UpgradeState::Failed(e.to_string()),
        };
        *lock(&self.state) = state;
        self.cv.notify_all();
    }
}

/// A compiled module, ready to run. Shared (`Arc`) between the cache and its
/// callers; runs may come from several threads at once.
pub struct Executable {
    name: String,
    params: Vec<ArgType>,
    param_shapes: Vec<Shape>,
    first: Engine,
    upgrade: Option<Arc<Upgrade>>,
    last_tier: AtomicU8,
    runs: AtomicU64,
    family: Arc<Family>,
    counters: Arc<Counters>,
    /// Kernels of the compiled program (None: interpreted, or loaded from the
    /// persistent cache, which keeps object code only).
    kernels: Option<usize>,
}

impl std::fmt::Debug for Executable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Executable")
            .field("name", &self.name)
            .field("params", &self.params)
            .field("first", &self.first.tier())
            .field("tiered", &self.upgrade.is_some())
            .finish_non_exhaustive()
    }
}

impl Executable {
    pub(crate) fn new(
        module: &Module,
        params: Vec<ArgType>,
        first: Engine,
        upgrade: Option<Arc<Upgrade>>,
        family: Arc<Family>,
        counters: Arc<Counters>,
    ) -> Executable {
        Executable {
            name: module.name.clone(),
            params,
            param_shapes: module.entry().param_shapes(),
            first,
            upgrade,
            last_tier: AtomicU8::new(0),
            runs: AtomicU64::new(0),
            family,
            counters,
            kernels: None,
        }
    }

    pub(crate) fn with_kernels(mut self, kernels: usize) -> Executable {
        self.kernels = Some(kernels);
        self
    }

    /// How many kernels the compiled program has (None when interpreted or
    /// loaded from the persistent cache).
    pub fn kernels(&self) -> Option<usize> {
        self.kernels
    }

    /// The module's name (of the first module compiled under this key).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The flattened argument types runs take (the signature).
    pub fn params(&self) -> &[ArgType] {
        &self.params
    }

    /// Whether `args` match the signature exactly.
    pub fn accepts(&self, args: &[&Buffer]) -> bool {
        args.len() == self.params.len()
            && args.iter().zip(&self.params).all(|(a, t)| a.dtype() == t.dtype && a.dims() == t.dims.as_slice())
    }

    /// Runs the module on `args` (one buffer per flattened entry parameter, in
    /// order) and returns the flattened results. Argument types are checked.
    pub fn run(&self, args: &[&Buffer]) -> Result<Vec<Buffer>, JitError> {
        let views: SmallVec<[ArrayView<'_>; 8]> = args.iter().map(|b| ArrayView::from(b.as_array())).collect();
        self.run_views(&views)
    }

    /// [`Executable::run`] on views of memory the caller owns (a NumPy array,
    /// say): compiled tiers read the arguments in place, without a copy.
    pub fn run_views(&self, args: &[ArrayView<'_>]) -> Result<Vec<Buffer>, JitError> {
        smelt_kernel::check_arguments(&self.params, args.iter().map(|a| (a.dtype(), a.dims())))?;
        let engine_tier;
        let outs = match self.upgrade.as_ref().and_then(|u| u.ready.get()) {
            Some(exe) => {
                engine_tier = Tier::Llvm;
                exe.execute(args).map_err(|e| backend_error(exe.backend(), e))?
            }
            None => {
                engine_tier = self.first.tier();
                let outs = self.first.run(args, &self.param_shapes)?;
                if let Some(u) = &self.upgrade {
                    u.first_run_done();
                }
                outs
            }
        };
        self.last_tier.store(engine_tier.code(), Ordering::Relaxed);
        self.runs.fetch_add(1, Ordering::Relaxed);
        self.family.runs.fetch_add(1, Ordering::Relaxed);
        if engine_tier == Tier::Interp {
            self.counters.interpreted.fetch_add(1, Ordering::Relaxed);
        }
        Ok(outs.into_iter().map(Buffer::from).collect())
    }

    /// The tier the last run executed on (None before the first run).
    pub fn tier(&self) -> Option<Tier> {
        Tier::from_code(self.last_tier.load(Ordering::Relaxed))
    }

    /// The tier the next run will execute on.
    pub fn next_tier(&self) -> Tier {
        match self.upgrade.as_ref().and_then(|u| u.ready.get()) {
            Some(_) => Tier::Llvm,
            None => self.first.tier(),
        }
    }

    /// Whether a background compilation is attached (finished or not).
    pub fn is_tiered(&self) -> bool {
        self.upgrade.is_some()
    }

    /// How many runs this executable has served.
    pub fn runs(&self) -> u64 {
        self.runs.load(Ordering::Relaxed)
    }

    /// Starts the background LLVM compilation of an executable compiled with
    /// `CompileOptions::defer_upgrade` (nothing otherwise, or when started).
    pub fn start_upgrade(&self) {
        let start = self.upgrade.as_ref().and_then(|u| lock(&u.deferred).take());
        if let Some(start) = start {
            start();
        }
    }

    /// Waits until the background LLVM compilation, if any, has finished, at
    /// most `timeout` (None: no limit). Ok when it succeeded or there is none;
    /// an error when it failed (runs stay on the first tier) or timed out.
    pub fn wait_optimized(&self, timeout: Option<Duration>) -> Result<(), JitError> {
        let Some(u) = &self.upgrade else {
            return Ok(());
        };
        let deadline = timeout.map(|t| Instant::now() + t);
        let mut state = lock(&u.state);
        loop {
            match &*state {
                UpgradeState::Done => return Ok(()),
                UpgradeState::Failed(e) => return Err(JitError::Tier(e.clone())),
                UpgradeState::Pending => {}
            }
            state = match deadline {
                None => u.cv.wait(state).unwrap_or_else(|e| e.into_inner()),
                Some(d) => {
                    let left = d.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        return Err(JitError::Tier("background compilation not finished in time".into()));
                    }
                    u.cv.wait_timeout(state, left).unwrap_or_else(|e| e.into_inner()).0
                }
            };
        }
    }
}
