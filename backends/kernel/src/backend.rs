//! The one interface every compiled backend implements, and the registry that
//! the CLI, the JIT and the tests find backends in by name.
//!
//! A [`Backend`] compiles a [`VerifiedProgram`] into an [`Executable`]; what it
//! can do that the middle end must know before lowering (which fusions it
//! accepts) is in its [`Capabilities`]. An executable checks its arguments
//! against its parameters in one place ([`Executable::run_views`]) and hands
//! checked views to the backend's [`Executable::execute`]. Code that wants a
//! backend's own extras (the GPU's device timers) downcasts with
//! `<dyn Executable>::downcast_ref`.

use std::any::Any;
use std::sync::Arc;

use smallvec::SmallVec;
use smelt_hlo::{Array, ArrayView};
use smelt_passes::FusionConfig;

use crate::args::{ArgumentError, check_arguments};
use crate::ir::ArrayType;
use crate::verify::{InvalidProgram, VerifiedProgram};

/// A backend's own error, boxed so every backend keeps its own enum.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

#[derive(Debug, thiserror::Error)]
pub enum BackendError {
    #[error(transparent)]
    Arguments(#[from] ArgumentError),
    #[error(transparent)]
    Invalid(#[from] InvalidProgram),
    /// The backend cannot run on this machine (no GPU driver, a tier left out
    /// of the build).
    #[error("backend '{backend}' is not available: {why}")]
    Unavailable { backend: &'static str, why: String },
    #[error("unknown backend '{name}' (known: {known})")]
    Unknown { name: String, known: String },
    /// What the backend itself reported (compiling or running).
    #[error(transparent)]
    Backend(BoxError),
}

impl BackendError {
    /// Wraps a backend's own error.
    pub fn backend(e: impl std::error::Error + Send + Sync + 'static) -> BackendError {
        BackendError::Backend(Box::new(e))
    }
}

/// What the middle end must know of a backend before lowering for it.
#[derive(Clone, Debug, Default)]
pub struct Capabilities {
    /// The fusions its kernels and library steps accept; the pipeline fuses by it.
    pub fusion: FusionConfig,
    /// It times every step when compiled with [`BackendOptions::profile`].
    pub profiling: bool,
    /// It multiplies u8 by s8 operands natively (quantized layers keep those
    /// types: `smelt_passes::quantized_products`).
    pub u8s8_products: bool,
}

impl Capabilities {
    /// The middle end's options for this backend: its fusion rules and the
    /// product types it multiplies natively.
    pub fn pass_options(&self) -> smelt_passes::Options {
        smelt_passes::Options {
            fusion: self.fusion.clone(),
            u8s8_products: self.u8s8_products,
            ..smelt_passes::Options::default()
        }
    }
}

/// How to compile, for the settings every backend understands.
#[derive(Clone, Debug)]
pub struct BackendOptions {
    /// Optimization level, 0 to 3 (backends without levels ignore it).
    pub opt_level: u8,
    /// Whether large kernels may run on the thread pool.
    pub parallel: bool,
    /// Time every step ([`Executable::profile`]); backends that cannot ignore it.
    pub profile: bool,
    /// When the compilation must finish: backends check it between their stages.
    pub deadline: smelt_hlo::budget::Deadline,
}

impl Default for BackendOptions {
    fn default() -> Self {
        BackendOptions { opt_level: 3, parallel: true, profile: false, deadline: Default::default() }
    }
}

/// A compiler from the kernel form to something that runs.
pub trait Backend: Send + Sync {
    /// The name the CLI, the JIT and the tests know it by: `cpu`, `cranelift`.
    fn name(&self) -> &'static str;

    /// One line for `--help` and error messages.
    fn description(&self) -> &'static str;

    fn capabilities(&self) -> Capabilities {
        Capabilities::default()
    }

    /// Why it cannot run here, if it cannot (checked before compiling).
    fn unavailable(&self) -> Option<String> {
        None
    }

    fn compile(&self, program: &VerifiedProgram<'_>, options: &BackendOptions) -> CompileResult;
}

/// What [`Backend::compile`] returns.
pub type CompileResult = Result<Arc<dyn Executable>, BackendError>;

/// Time spent in one step of a program compiled with profiling, over every run
/// since the executable was made or its profile was reset.
#[derive(Clone, Debug, PartialEq)]
pub struct StepProfile {
    /// What the step is: `k3 reduce_fusion (reduce 64x128x512 over [2])`,
    /// `copy 4096 bytes`, `dot b=1 m=64 n=64 k=64`, ...
    pub label: String,
    /// Total milliseconds (the time since the previous step ended).
    pub total_ms: f64,
    /// How many times the step ran.
    pub calls: u64,
    /// The step's work per call (see [`crate::work`]).
    pub work: crate::StepWork,
}

impl StepProfile {
    /// Why the step is far slower than its work allows on any machine, or
    /// None ([`crate::StepWork::suspicious`]).
    pub fn suspicious(&self) -> Option<String> {
        self.work.suspicious(self.total_ms * 1e6, self.calls)
    }
}

/// What an executable takes and returns, and which backend made it.
#[derive(Clone, Copy, Debug)]
pub struct Signature<'a> {
    /// The backend's [`Backend::name`].
    pub backend: &'static str,
    /// The flattened parameters.
    pub params: &'a [ArrayType],
    /// The flattened results.
    pub results: &'a [ArrayType],
}

impl Signature<'_> {
    /// The signature of `program` as compiled by `backend`.
    pub fn of<'a>(backend: &'static str, program: &'a crate::Program) -> Signature<'a> {
        Signature { backend, params: &program.params, results: &program.results }
    }
}

/// Any `'static` type as [`Any`], so executables can be downcast without each
/// writing the conversion.
pub trait AsAny: Any {
    fn as_any(&self) -> &dyn Any;
}

impl<T: Any> AsAny for T {
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// A compiled program, ready to run; shareable between threads.
pub trait Executable: AsAny + Send + Sync + std::fmt::Debug {
    fn signature(&self) -> Signature<'_>;

    /// The backend that compiled it.
    fn backend(&self) -> &'static str {
        self.signature().backend
    }

    /// The flattened parameters it takes.
    fn params(&self) -> &[ArrayType] {
        self.signature().params
    }

    /// The flattened results it returns.
    fn results(&self) -> &[ArrayType] {
        self.signature().results
    }

    /// Runs on arguments already checked against [`Executable::params`].
    fn execute(&self, args: &[ArrayView<'_>]) -> Result<Vec<Array>, BackendError>;

    /// Per-step times, for a backend compiled with profiling.
    fn profile(&self) -> Option<Vec<StepProfile>> {
        None
    }

    /// Restarts the per-step times.
    fn reset_profile(&self) {}

    /// Where the backend's compile time went, phase by phase in milliseconds
    /// (for backends that record it; `smelt bench --compile-profile`).
    fn compile_phases(&self) -> Vec<(String, f64)> {
        Vec::new()
    }

    /// Runs on views of caller-owned memory (one per flattened parameter)
    /// after checking them; returns the flattened results.
    fn run_views(&self, args: &[ArrayView<'_>]) -> Result<Vec<Array>, BackendError> {
        check_arguments(self.params(), args.iter().map(|a| (a.dtype(), a.dims())))?;
        self.execute(args)
    }

    /// [`Executable::run_views`] on borrowed arrays.
    fn run_refs(&self, args: &[&Array]) -> Result<Vec<Array>, BackendError> {
        let views: SmallVec<[ArrayView<'_>; 8]> = args.iter().map(|a| ArrayView::from(*a)).collect();
        self.run_views(&views)
    }

    /// [`Executable::run_views`] on arrays.
    fn run(&self, args: &[Array]) -> Result<Vec<Array>, BackendError> {
        let views: SmallVec<[ArrayView<'_>; 8]> = args.iter().map(ArrayView::from).collect();
        self.run_views(&views)
    }
}

impl dyn Executable {
    /// The concrete executable, for a backend's own extras.
    pub fn downcast_ref<E: Executable>(&self) -> Option<&E> {
        self.as_any().downcast_ref()
    }
}

/// The backends one build knows, by name.
pub struct Registry {
    backends: Vec<Arc<dyn Backend>>,
}

impl Registry {
    pub fn new(backends: Vec<Arc<dyn Backend>>) -> Registry {
        Registry { backends }
    }

    pub fn get(&self, name: &str) -> Result<Arc<dyn Backend>, BackendError> {
        self.get_beside(name, &[])
    }

    /// [`Registry::get`] for a caller that also knows the backends `also`
    /// (the interpreter, say), which its error then lists too.
    pub fn get_beside(&self, name: &str, also: &[&'static str]) -> Result<Arc<dyn Backend>, BackendError> {
        self.backends
            .iter()
            .find(|b| b.name() == name)
            .cloned()
            .ok_or_else(|| BackendError::Unknown { name: name.to_string(), known: self.names_beside(also).join(", ") })
    }

    pub fn names(&self) -> Vec<&'static str> {
        self.names_beside(&[])
    }

    /// `also`, then the registered backends' names.
    pub fn names_beside(&self, also: &[&'static str]) -> Vec<&'static str> {
        also.iter().copied().chain(self.backends.iter().map(|b| b.name())).collect()
    }

    pub fn iter(&self) -> impl Iterator<Item = &Arc<dyn Backend>> {
        self.backends.iter()
    }
}
