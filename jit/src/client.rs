//! [`Client`]: the compile entry point, its caches and its counters.
//!
//! `Client::compile` verifies a module, computes its cache key (`key`), and
//! returns the executable from the in-memory cache (`cache`) or builds it:
//! from the persistent cache (`disk`) when the LLVM tier is wanted and an entry
//! exists, else by the compile path
//!
//! ```text
//! verify -> smelt_passes::default_pipeline -> smelt_kernel::lower_module
//!        -> smelt_cpu (LLVM) | smelt_cranelift | both, LLVM in the background
//! ```
//!
//! subject to the recompilation policy (`policy`). [`Function`] is the cheap
//! path for repeated launches: it remembers the executable per argument
//! signature, so a launch costs a hash of the argument types and a map lookup
//! instead of canonicalizing and hashing the module.

use std::collections::HashMap;
use std::hash::{BuildHasher, Hash, Hasher};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use smelt_hlo::Module;
use smelt_hlo::budget::{Deadline, Limits};
use smelt_kernel::Program;

use crate::buffer::Buffer;
use crate::cache::Cache;
use crate::disk::{DiskCache, Lookup};
use crate::executable::{Engine, Executable, Starter, Upgrade, backend_error};
use crate::key::{self, ArgType, Key};
use crate::policy::{Family, Policy};
use crate::stats::{Counters, Stats};
use crate::{JitError, lock};

/// The backend name of a client that interprets (no compilation, slow runs).
pub const INTERP: &str = "interp";

/// The backend name of a client that compiles on two tiers: the first
/// launches run on the baseline (Cranelift) while LLVM compiles on a
/// background thread; later launches run on the LLVM code.
pub const TIERED: &str = "tiered";

/// Every backend name a client takes: [`INTERP`], [`TIERED`], then the
/// registry's compiled backends.
pub fn backend_names() -> Vec<&'static str> {
    crate::registry().names_beside(&[INTERP, TIERED])
}

/// The name of the backend whose code the persistent cache keeps (LLVM
/// object code) and the LLVM tier of [`TIERED`] runs.
const LLVM: &str = "cpu";

/// How a client compiles.
#[derive(Clone)]
enum Plan {
    Interp,
    Tiered,
    Compiled(Arc<dyn smelt_kernel::Backend>),
}

impl Plan {
    fn of(name: &str) -> Result<Plan, JitError> {
        Ok(match name {
            INTERP => Plan::Interp,
            TIERED => Plan::Tiered,
            _ => {
                let b = crate::registry()
                    .get_beside(name, &[INTERP, TIERED])
                    .map_err(|e| JitError::Unavailable(e.to_string()))?;
                Plan::Compiled(b)
            }
        })
    }

    fn name(&self) -> &'static str {
        match self {
            Plan::Interp => INTERP,
            Plan::Tiered => TIERED,
            Plan::Compiled(b) => b.name(),
        }
    }

    /// What the program is optimized for: the backend's capabilities (for
    /// [`TIERED`], the LLVM tier's; the baseline runs the same program).
    fn capabilities(&self) -> smelt_kernel::Capabilities {
        match self {
            Plan::Interp => smelt_kernel::Capabilities::default(),
            Plan::Tiered => crate::registry().get(LLVM).map(|b| b.capabilities()).unwrap_or_default(),
            Plan::Compiled(b) => b.capabilities(),
        }
    }

    /// Whether its code is LLVM code the persistent cache can hold.
    fn wants_llvm(&self) -> bool {
        match self {
            Plan::Interp => false,
            Plan::Tiered => true,
            Plan::Compiled(b) => b.name() == LLVM,
        }
    }
}

/// The first tier of a [`TIERED`] client.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Baseline {
    /// Cranelift code (falls back to a synchronous LLVM compile when Cranelift
    /// is not built in or cannot compile the program), unless its first run is
    /// estimated to outlast LLVM's compile: then LLVM compiles in the
    /// foreground (`first_tier`; counted in [`Stats::baseline_skips`]).
    #[default]
    Cranelift,
    /// The interpreter: no compile time at all, slow runs. Useful for programs
    /// run a handful of times, and for deterministic tier tests.
    Interp,
}

/// How to compile one module.
#[derive(Clone, Debug)]
pub struct CompileOptions {
    /// LLVM optimization level, 0 to 3.
    pub opt_level: u8,
    /// Whether compiled code may run large kernels on the thread pool.
    pub parallel: bool,
    /// With [`TIERED`]: run the baseline tier while LLVM compiles in
    /// the background (true), or compile with LLVM before returning (false).
    pub tiered: bool,
    /// With [`TIERED`]: what runs before the LLVM code is ready.
    pub baseline: Baseline,
    /// With [`TIERED`]: do not start the background LLVM compilation
    /// until [`Executable::start_upgrade`] (deterministic tier tests, or
    /// callers who choose when the compile thread may compete for the CPU).
    pub defer_upgrade: bool,
    /// The program family the recompilation policy counts this module in
    /// (None: the module's canonical text with shapes erased).
    pub family: Option<String>,
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions {
            opt_level: 3,
            parallel: true,
            tiered: true,
            baseline: Baseline::Cranelift,
            defer_upgrade: false,
            family: None,
        }
    }
}

/// How a client behaves.
#[derive(Clone, Debug)]
pub struct ClientOptions {
    /// Executables the in-memory cache holds before evicting the least recently
    /// used one.
    pub capacity: usize,
    /// Folder of the persistent cache. None: `$SMELT_CACHE_DIR` if set and not
    /// empty, else no persistent cache.
    pub cache_dir: Option<PathBuf>,
    /// Ignore `$SMELT_CACHE_DIR` (and `cache_dir`): no persistent cache.
    pub no_disk_cache: bool,
    /// The persistent cache's size bound in bytes (least recently used entries
    /// are evicted beyond it). None: `$SMELT_CACHE_MAX`, else 1 GiB.
    pub cache_max_bytes: Option<u64>,
    /// The recompilation policy.
    pub policy: Policy,
    /// The memory and compile budgets compilations are checked against. None:
    /// the environment's (`SMELT_MAX_MEMORY`, `SMELT_MAX_INSTRUCTIONS`,
    /// `SMELT_MAX_KERNEL_OPS`, `SMELT_COMPILE_TIMEOUT`), read at each compile.
    pub limits: Option<Limits>,
}

impl Default for ClientOptions {
    fn default() -> Self {
        ClientOptions {
            capacity: 256,
            cache_dir: None,
            no_disk_cache: false,
            cache_max_bytes: None,
            policy: Policy::default(),
            limits: None,
        }
    }
}

struct Inner {
    plan: Plan,
    options: ClientOptions,
    cache: Cache,
    disk: Option<DiskCache>,
    counters: Arc<Counters>,
    families: Mutex<HashMap<Key, Arc<Family>>>,
    /// Background LLVM compiles still running or not yet joined.
    background: Arc<Mutex<Vec<std::thread::JoinHandle<()>>>>,
}

impl Drop for Inner {
    /// Waits for background compiles: a process that exits while LLVM runs on
    /// another thread tears LLVM's globals down under it.
    fn drop(&mut self) {
        join_all(&self.background);
    }
}

/// Joins every background compile started so far, then waits for the
/// convolution routines executables are building in the background
/// (`smelt_cpu::routines::wait_for_background`): LLVM too.
fn join_all(background: &Mutex<Vec<std::thread::JoinHandle<()>>>) {
    let handles = std::mem::take(&mut *lock(background));
    for h in handles {
        let _ = h.join();
    }
    smelt_cpu::routines::wait_for_background();
}

/// Compiles modules for one backend and caches the results. Cheap to clone
/// (clones share the caches); usable from many threads.
#[derive(Clone)]
pub struct Client {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client").field("backend", &self.inner.plan.name()).finish_non_exhaustive()
    }
}

/// Logs the first rejected cache entry of the process.
fn log_bad_entry(path: &std::path::Path, why: &str) {
    static LOGGED: AtomicBool = AtomicBool::new(false);
    if !LOGGED.swap(true, Ordering::Relaxed) {
        eprintln!("smelt-jit: ignoring cache entry {} ({why}); recompiling and replacing it", path.display());
    }
}

impl Client {
    /// A client for the backend named `backend` (one of [`backend_names`]),
    /// with default options (the persistent cache per `$SMELT_CACHE_DIR`).
    pub fn new(backend: &str) -> Result<Client, JitError> {
        Client::with_options(backend, ClientOptions::default())
    }

    pub fn with_options(backend: &str, options: ClientOptions) -> Result<Client, JitError> {
        // The CPU routine families built into a release binary.
        smelt_prebuilt::register();
        let plan = Plan::of(backend)?;
        let dir = match (&options.cache_dir, options.no_disk_cache) {
            (_, true) => None,
            (Some(d), false) => Some(d.clone()),
            (None, false) => DiskCache::dir_from_env(),
        };
        Ok(Client {
            inner: Arc::new(Inner {
                plan,
                cache: Cache::new(options.capacity),
                disk: match dir {
                    None => None,
                    Some(dir) => Some(match options.cache_max_bytes {
                        Some(max) => DiskCache::new(&dir, max),
                        None => DiskCache::from_env(&dir)?,
                    }),
                },
                options,
                counters: Arc::default(),
                families: Mutex::default(),
                background: Arc::default(),
            }),
        })
    }

    /// The backend's name.
    pub fn backend(&self) -> &'static str {
        self.inner.plan.name()
    }

    /// The persistent cache's folder, if there is one.
    pub fn cache_dir(&self) -> Option<&std::path::Path> {
        self.inner.disk.as_ref().map(DiskCache::dir)
    }

    /// Waits for the background (LLVM tier) compiles started so far. A client
    /// that is never dropped (a process-wide one, as the Python module keeps)
    /// calls this before the process exits, for the reason `Drop` joins them.
    pub fn wait_background(&self) {
        join_all(&self.inner.background);
    }

    /// A snapshot of the counters.
    pub fn stats(&self) -> Stats {
        let c = &self.inner.counters;
        let get = |a: &AtomicU64| a.load(Ordering::Relaxed);
        Stats {
            hits: get(&c.hits),
            waits: get(&c.waits),
            misses: get(&c.misses),
            compiles: get(&c.compiles),
            compile_time: Duration::from_nanos(get(&c.compile_ns)),
            background_compiles: get(&c.background_compiles),
            background_failures: get(&c.background_failures),
            disk_hits: get(&c.disk_hits),
            disk_writes: get(&c.disk_writes),
            disk_errors: get(&c.disk_errors),
            evictions: get(&c.evictions),
            interpreted: get(&c.interpreted),
            megamorphic_fallbacks: get(&c.megamorphic_fallbacks),
            baseline_fallbacks: get(&c.baseline_fallbacks),
            baseline_skips: get(&c.baseline_skips),
            megamorphic_families: lock(&self.inner.families).values().filter(|f| f.is_megamorphic()).count(),
            cached: self.inner.cache.len(),
        }
    }

    /// Compiles `module` (or finds it compiled): see the module comment.
    pub fn compile(&self, module: &Module, options: &CompileOptions) -> Result<Arc<Executable>, JitError> {
        smelt_hlo::verify(module).map_err(|e| JitError::Verify(e.to_string()))?;
        let canonical = key::canonical_text(module);
        let sig = key::signature(module);
        let key = key::cache_key(&canonical, &sig, &self.config_text(options));
        self.inner.cache.get_or_build(key, &self.inner.counters, || {
            let family = match &options.family {
                Some(name) => Key(*blake3::hash(name.as_bytes()).as_bytes()),
                None => key::family_of(&canonical),
            };
            let family = lock(&self.inner.families).entry(family).or_default().clone();
            let llvm_key = key::cache_key(&canonical, &sig, &llvm_config(options));
            self.build(module, sig, family, llvm_key, options).map(Arc::new)
        })
    }

    /// A launch handle for `module` that caches its executable (see [`Function`]).
    pub fn function(&self, module: Module, options: CompileOptions) -> Function {
        Function { client: self.clone(), options, source: Source::Module(Box::new(module)), by_sig: RwLock::default() }
    }

    /// A launch handle that builds a module per argument signature with `trace`
    /// (as JAX traces a function per shape), compiling each once. Modules that
    /// differ only in shapes form one program family for the recompilation
    /// policy; `options.family` names the family explicitly.
    pub fn trace(
        &self,
        trace: impl Fn(&[ArgType]) -> Result<Module, JitError> + Send + Sync + 'static,
        options: CompileOptions,
    ) -> Function {
        Function { client: self.clone(), options, source: Source::Trace(Box::new(trace)), by_sig: RwLock::default() }
    }

    /// What besides the module changes the code: part of the in-memory key.
    fn config_text(&self, o: &CompileOptions) -> String {
        format!(
            "backend={} opt={} parallel={} tiered={} baseline={:?}",
            self.inner.plan.name(),
            o.opt_level,
            o.parallel,
            o.tiered,
            o.baseline
        )
    }

    fn build(
        &self,
        module: &Module,
        sig: Vec<ArgType>,
        family: Arc<Family>,
        llvm_key: Key,
        options: &CompileOptions,
    ) -> Result<Executable, JitError> {
        let inner = &self.inner;
        let counters = &inner.counters;
        let exe =
            |engine, upgrade| Executable::new(module, sig.clone(), engine, upgrade, family.clone(), counters.clone());
        // The interpreter tier runs the module with its complex values lowered
        // once, here, not at every run.
        let interp = || -> Result<Engine, JitError> {
            let mut m = module.clone();
            smelt_hlo::complex::lower(&mut m).map_err(|e| JitError::Interp(e.to_string()))?;
            Ok(Engine::Interp(Box::new(m), inner.options.limits.map(|l| l.memory)))
        };
        if !matches!(inner.plan, Plan::Interp) && !family.admit(&inner.options.policy) {
            counters.megamorphic_fallbacks.fetch_add(1, Ordering::Relaxed);
            return Ok(exe(interp()?, None));
        }
        if inner.plan.wants_llvm()
            && let Some(loaded) = self.disk_load(&llvm_key)
        {
            return Ok(exe(Engine::Compiled(Arc::new(loaded)), None));
        }
        let start = Instant::now();
        let limits = match inner.options.limits {
            Some(l) => l,
            None => Limits::from_env().map_err(|e| JitError::OverBudget(e.to_string()))?,
        };
        let deadline = limits.compile.start();
        let backend_options = smelt_kernel::BackendOptions {
            opt_level: options.opt_level,
            parallel: options.parallel,
            profile: false,
            deadline,
        };
        let cpu_options = smelt_cpu::CompileOptions {
            opt_level: options.opt_level,
            parallel: options.parallel,
            deadline,
            ..Default::default()
        };
        let llvm = |program: &Program| -> Result<Engine, JitError> {
            Ok(Engine::Compiled(Arc::new(self.compile_llvm(program, &cpu_options, &limits, &llvm_key)?)))
        };
        let compile_on =
            |b: &dyn smelt_kernel::Backend, program: &Program| compile_on(b, program, &limits, &backend_options);
        let result = match &inner.plan {
            Plan::Interp => interp().map(|engine| exe(engine, None)),
            plan => optimize_and_lower(module, plan.capabilities(), &limits, deadline).and_then(|program| {
                let kernels = program.kernels.len();
                let exe = |engine, upgrade| exe(engine, upgrade).with_kernels(kernels);
                match plan {
                    Plan::Compiled(b) if b.name() == LLVM => Ok(exe(llvm(&program)?, None)),
                    Plan::Compiled(b) => Ok(exe(compile_on(b.as_ref(), &program)?, None)),
                    _ => {
                        // The program's work, weighed once for every choice below.
                        let estimate = crate::first_tier::FirstTierEstimate::of(&program);
                        let baseline = match (options.tiered, options.baseline) {
                            (false, _) => None,
                            (true, Baseline::Interp) => Some(interp()?),
                            // The tile interpreter runs every kernel: ready in
                            // milliseconds, and fast enough to run first.
                            (true, Baseline::Cranelift)
                                if smelt_cpu::tiles::runs_interpreted(&program) && estimate.tiles_first() =>
                            {
                                let o = smelt_cpu::CompileOptions {
                                    tiles: smelt_cpu::TileMode::All,
                                    ..cpu_options.clone()
                                };
                                let verified = smelt_kernel::verify_within(&program, &limits)
                                    .map_err(|e| JitError::Lower(e.to_string()))?;
                                match smelt_cpu::compile(&verified, &o) {
                                    Ok(e) => Some(Engine::Tiles(Arc::new(e))),
                                    Err(_) => {
                                        counters.baseline_fallbacks.fetch_add(1, Ordering::Relaxed);
                                        None
                                    }
                                }
                            }
                            (true, Baseline::Cranelift) if !estimate.baseline_first() => {
                                counters.baseline_skips.fetch_add(1, Ordering::Relaxed);
                                None
                            }
                            (true, Baseline::Cranelift) => {
                                let cranelift = crate::registry().get("cranelift").ok();
                                match cranelift.map(|b| compile_on(b.as_ref(), &program)) {
                                    Some(Ok(engine)) => Some(engine),
                                    _ => {
                                        counters.baseline_fallbacks.fetch_add(1, Ordering::Relaxed);
                                        None
                                    }
                                }
                            }
                        };
                        match baseline {
                            None => Ok(exe(llvm(&program)?, None)),
                            Some(engine) => {
                                let upgrade = Upgrade::new();
                                // The upgrade compiles every kernel.
                                let upgrade_options = match engine {
                                    Engine::Tiles(_) => smelt_cpu::CompileOptions {
                                        tiles: smelt_cpu::TileMode::Off,
                                        ..cpu_options.clone()
                                    },
                                    _ => cpu_options.clone(),
                                };
                                // The compile waits for the first run (up to
                                // twice its estimate, at most 200 ms): the first
                                // result gets every core, then LLVM does.
                                let run_ns = match engine {
                                    Engine::Tiles(_) => estimate.tiles_run_ns,
                                    Engine::Compiled(_) => estimate.baseline_run_ns,
                                    Engine::Interp(..) => 0.0,
                                };
                                let wait = std::time::Duration::from_nanos((2.0 * run_ns).min(2e8) as u64);
                                let start = self.upgrade_starter(
                                    program,
                                    upgrade_options,
                                    limits,
                                    llvm_key,
                                    upgrade.clone(),
                                    wait,
                                );
                                if options.defer_upgrade {
                                    upgrade.defer(start);
                                } else {
                                    start();
                                }
                                Ok(exe(engine, Some(upgrade)))
                            }
                        }
                    }
                }
            }),
        };
        counters.compiles.fetch_add(1, Ordering::Relaxed);
        counters.compile_ns.fetch_add(start.elapsed().as_nanos() as u64, Ordering::Relaxed);
        result
    }

    /// Loads the LLVM code stored under `key`, if a valid entry exists.
    fn disk_load(&self, key: &Key) -> Option<smelt_cpu::Executable> {
        let disk = self.inner.disk.as_ref()?;
        let counters = &self.inner.counters;
        let why = match disk.load(key) {
            Lookup::Miss => return None,
            Lookup::Hit(payload) => {
                match smelt_cpu::CompiledObject::from_bytes(&payload).and_then(|o| smelt_cpu::load(&o)) {
                    Ok(exe) => {
                        counters.disk_hits.fetch_add(1, Ordering::Relaxed);
                        return Some(exe);
                    }
                    Err(e) => e.to_string(),
                }
            }
            Lookup::Bad(why) => why,
        };
        counters.disk_errors.fetch_add(1, Ordering::Relaxed);
        log_bad_entry(&disk.path(key), &why);
        None
    }

    /// Compiles with LLVM, stores the object in the persistent cache, loads it.
    fn compile_llvm(
        &self,
        program: &Program,
        options: &smelt_cpu::CompileOptions,
        limits: &Limits,
        key: &Key,
    ) -> Result<smelt_cpu::Executable, JitError> {
        compile_llvm(program, options, limits, self.inner.disk.as_ref(), key, &self.inner.counters)
    }

    /// What compiles with LLVM on a new thread and hands the code to `upgrade`.
    fn upgrade_starter(
        &self,
        program: Program,
        mut options: smelt_cpu::CompileOptions,
        limits: Limits,
        key: Key,
        upgrade: Arc<Upgrade>,
        wait: std::time::Duration,
    ) -> Starter {
        let disk = self.inner.disk.clone();
        let counters = self.inner.counters.clone();
        let background = self.inner.background.clone();
        Box::new(move || {
            let spawned = std::thread::Builder::new().name("smelt-jit-llvm".into()).spawn({
                let (upgrade, counters) = (upgrade.clone(), counters.clone());
                move || {
                    upgrade.wait_first_run(wait);
                    // The upgrade's own time limit, from when it starts (it may be deferred).
                    options.deadline = limits.compile.start();
                    let result = compile_llvm(&program, &options, &limits, disk.as_ref(), &key, &counters);
                    let counter =
                        if result.is_ok() { &counters.background_compiles } else { &counters.background_failures };
                    counter.fetch_add(1, Ordering::Relaxed);
                    upgrade.finish(result);
                }
            });
            match spawned {
                Ok(handle) => {
                    let mut running = background.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                    running.retain(|h| !h.is_finished());
                    running.push(handle);
                }
                Err(e) => {
                    counters.background_failures.fetch_add(1, Ordering::Relaxed);
                    upgrade.finish(Err(JitError::Tier(format!("cannot start the compile thread: {e}"))));
                }
            }
        })
    }
}

/// What changes LLVM code: the key of persistent cache entries, shared by
/// the `cpu` backend and the LLVM tier of [`TIERED`].
fn llvm_config(o: &CompileOptions) -> String {
    format!(
        "llvm object={} code={} opt={} parallel={} tiles={:?}",
        smelt_cpu::OBJECT_FORMAT_VERSION,
        smelt_cpu::CODE_REVISION,
        o.opt_level,
        o.parallel,
        smelt_cpu::TileMode::from_env()
    )
}

/// The default pipeline and lowering to the kernel form, within `limits`.
fn optimize_and_lower(
    module: &Module,
    capabilities: smelt_kernel::Capabilities,
    limits: &Limits,
    deadline: Deadline,
) -> Result<Program, JitError> {
    let options = capabilities.pass_options();
    let mut module = module.clone();
    let mut cx = smelt_passes::pass::PassContext::new(options.clone());
    cx.budget = Some(limits.compile);
    cx.deadline = Some(deadline);
    smelt_passes::default_pipeline(&options)
        .run_on(&mut module, &mut cx)
        .map_err(|e| JitError::Passes(e.to_string()))?;
    smelt_kernel::lower_module(&module).map_err(|e| JitError::Lower(e.to_string()))
}

fn compile_llvm(
    program: &Program,
    options: &smelt_cpu::CompileOptions,
    limits: &Limits,
    disk: Option<&DiskCache>,
    key: &Key,
    counters: &Counters,
) -> Result<smelt_cpu::Executable, JitError> {
    let program = smelt_kernel::verify_within(program, limits).map_err(|e| JitError::Lower(e.to_string()))?;
    let object = smelt_cpu::compile_to_object(&program, options).map_err(|e| backend_error(LLVM, e))?;
    // An object with convolutions by the generic routine is kept out of the
    // disk cache: the next process compiles again and finds their
    // specialized routines (built in the background meanwhile).
    if let Some(disk) = disk.filter(|_| !object.provisional()) {
        match disk.store(key, &object.to_bytes()) {
            Ok(()) => counters.disk_writes.fetch_add(1, Ordering::Relaxed),
            Err(_) => counters.disk_errors.fetch_add(1, Ordering::Relaxed),
        };
    }
    smelt_cpu::load(&object).map_err(|e| backend_error(LLVM, e))
}

/// Compiles a lowered program with a registered backend.
fn compile_on(
    backend: &dyn smelt_kernel::Backend,
    program: &Program,
    limits: &Limits,
    options: &smelt_kernel::BackendOptions,
) -> Result<Engine, JitError> {
    if let Some(why) = backend.unavailable() {
        return Err(JitError::Unavailable(format!("backend '{}' is not available: {why}", backend.name())));
    }
    let program = smelt_kernel::verify_within(program, limits).map_err(|e| JitError::Lower(e.to_string()))?;
    backend
        .compile(&program, options)
        .map(Engine::Compiled)
        .map_err(|e| crate::executable::backend_error(backend.name(), e))
}

enum Source {
    Module(Box<Module>),
    Trace(Box<dyn Fn(&[ArgType]) -> Result<Module, JitError> + Send + Sync>),
}

/// A launch handle: the executable per argument signature, found by hashing
/// the arguments' types (no module canonicalization, no key hashing). Made by
/// [`Client::function`] (one module) or [`Client::trace`] (a module per
/// signature).
pub struct Function {
    client: Client,
    options: CompileOptions,
    source: Source,
    by_sig: RwLock<HashMap<u64, Vec<Arc<Executable>>>>,
}

impl std::fmt::Debug for Function {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Function").field("options", &self.options).finish_non_exhaustive()
    }
}

/// A fixed-seed hasher: signature hashes only need to be consistent within
/// the process.
fn sig_hash(args: &[&Buffer]) -> u64 {
    let mut h = std::hash::BuildHasherDefault::<std::collections::hash_map::DefaultHasher>::default().build_hasher();
    args.len().hash(&mut h);
    for a in args {
        a.dtype().hash(&mut h);
        a.dims().hash(&mut h);
    }
    h.finish()
}

impl Function {
    /// The executable for `args`' signature, compiled on first use.
    pub fn executable(&self, args: &[&Buffer]) -> Result<Arc<Executable>, JitError> {
        let h = sig_hash(args);
        if let Some(list) = self.by_sig.read().unwrap_or_else(|e| e.into_inner()).get(&h)
            && let Some(exe) = list.iter().find(|e| e.accepts(args))
        {
            self.client.inner.counters.hits.fetch_add(1, Ordering::Relaxed);
            return Ok(exe.clone());
        }
        let exe = match &self.source {
            Source::Module(m) => self.client.compile(m, &self.options)?,
            Source::Trace(trace) => {
                let sig: Vec<ArgType> =
                    args.iter().map(|a| ArgType { dtype: a.dtype(), dims: a.dims().to_vec() }).collect();
                self.client.compile(&trace(&sig)?, &self.options)?
            }
        };
        if exe.accepts(args) {
            self.by_sig.write().unwrap_or_else(|e| e.into_inner()).entry(h).or_default().push(exe.clone());
        }
        Ok(exe)
    }

    /// How many argument signatures this handle has executables for.
    pub fn signatures(&self) -> usize {
        self.by_sig.read().map_or(0, |m| m.values().map(Vec::len).sum())
    }

    /// The argument types of each signature compiled so far.
    pub fn signature_types(&self) -> Vec<Vec<ArgType>> {
        self.by_sig.read().map_or(Vec::new(), |m| m.values().flatten().map(|e| e.params().to_vec()).collect())
    }

    /// Runs on `args`, compiling for their signature on first use.
    pub fn call(&self, args: &[&Buffer]) -> Result<Vec<Buffer>, JitError> {
        self.executable(args)?.run(args)
    }
}
