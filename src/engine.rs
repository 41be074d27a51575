//! One interface over every backend: compile a module once, run it many times.
//! `smelt run`, `check` and `bench` and the tests go through it, so each backend
//! is exercised the same way. Backends are found by name: `interp` (the
//! reference interpreter on the module itself) or a compiled backend of
//! `smelt_jit::registry`, whose capabilities set the pipeline's fusion.

use std::sync::Arc;
use std::time::Instant;

use smelt_hlo::{Array, Literal, Module};
use smelt_kernel::{Backend, BackendError, BackendOptions, Executable, StepProfile};
use smelt_passes::{Options, PassContext};

/// The name of the reference interpreter, which runs modules as written
/// (every other backend name is a compiled backend of the registry).
pub const INTERP: &str = "interp";

/// Every backend name the engine takes: the interpreter, then the registry's.
pub fn backend_names() -> Vec<&'static str> {
    smelt_jit::registry().names_beside(&[INTERP])
}

/// The pipeline a backend runs when none is named: compiled backends need the
/// fused, canonical module the default pipeline produces.
pub fn default_pipeline(backend: &str) -> Pipeline {
    if backend == INTERP { Pipeline::None } else { Pipeline::Default }
}

/// Which middle end runs before the backend.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pipeline {
    /// The module as written.
    None,
    /// `smelt_passes::default_pipeline`.
    Default,
}

#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error(transparent)]
    Passes(#[from] smelt_passes::PassError),
    #[error(transparent)]
    Interp(#[from] smelt_interp::InterpError),
    #[error(transparent)]
    Lower(#[from] smelt_kernel::lower::LowerError),
    #[error(transparent)]
    Verify(#[from] smelt_kernel::InvalidProgram),
    #[error(transparent)]
    Backend(#[from] smelt_kernel::BackendError),
    #[error(transparent)]
    OverBudget(#[from] smelt_hlo::budget::BudgetError),
}

/// Runs `pipeline` over `module` in place.
pub fn optimize(module: &mut Module, pipeline: Pipeline, cx: &mut PassContext) -> Result<(), EngineError> {
    match pipeline {
        Pipeline::None => {}
        Pipeline::Default => {
            let options = cx.options.clone();
            smelt_passes::default_pipeline(&options).run_on(module, cx)?;
        }
    }
    Ok(())
}

/// The compiled backend named `name`, if it can run here.
pub fn backend(name: &str) -> Result<Arc<dyn Backend>, EngineError> {
    let backend = smelt_jit::registry().get_beside(name, &[INTERP])?;
    if let Some(why) = backend.unavailable() {
        return Err(BackendError::Unavailable { backend: backend.name(), why }.into());
    }
    Ok(backend)
}

/// Where one compilation's time went, in milliseconds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CompileTimes {
    /// The pass pipeline (shared by every backend).
    pub middle_end_ms: f64,
    /// Schedule, buffer assignment and lowering to the kernel form (compiled backends).
    pub lower_ms: f64,
    /// The backend proper: code generation, optimization and loading.
    pub codegen_ms: f64,
    /// The middle end pass by pass (names as in `smelt opt --dump-to`), in
    /// pipeline order, each pass's runs summed.
    pub passes: Vec<(String, f64)>,
    /// The backend phase by phase, where it records them
    /// (`Executable::compile_phases`).
    pub backend: Vec<(String, f64)>,
}

/// A module compiled for a backend.
#[derive(Debug)]
pub enum Compiled {
    /// The interpreter on the (optimized) module.
    Interp(Box<Module>),
    /// A compiled backend's executable.
    Program(Arc<dyn Executable>),
}

impl Compiled {
    /// Optimizes (per `pipeline`) and compiles a verified module for the
    /// backend named `backend` ([`backend_names`]).
    pub fn new(module: Module, backend: &str, pipeline: Pipeline) -> Result<Compiled, EngineError> {
        Compiled::with_profile(module, backend, pipeline, false)
    }

    /// As [`Compiled::new`]; with `profile`, backends that can time every step
    /// ([`Compiled::profile`]).
    pub fn with_profile(
        module: Module,
        backend: &str,
        pipeline: Pipeline,
        profile: bool,
    ) -> Result<Compiled, EngineError> {
        Compiled::timed(module, backend, pipeline, profile).map(|(c, _)| c)
    }

    /// As [`Compiled::with_profile`], also returning where compile time went.
    pub fn timed(
        mut module: Module,
        backend: &str,
        pipeline: Pipeline,
        profile: bool,
    ) -> Result<(Compiled, CompileTimes), EngineError> {
        let ms = |t: Instant| t.elapsed().as_secs_f64() * 1e3;
        let target = if backend == INTERP { None } else { Some(self::backend(backend)?) };
        let options = target.as_ref().map_or_else(Options::default, |b| b.capabilities().pass_options());
        let t = Instant::now();
        let mut cx = PassContext::new(options);
        optimize(&mut module, pipeline, &mut cx)?;
        let passes = cx.pass_order.iter().map(|p| (p.clone(), cx.timings[p].as_secs_f64() * 1e3)).collect();
        let mut times = CompileTimes { middle_end_ms: ms(t), passes, ..CompileTimes::default() };
        let Some(target) = target else {
            // Complex values lowered once, not at every run (a no-op after the default pipeline).
            smelt_hlo::complex::lower(&mut module).map_err(smelt_interp::InterpError::from)?;
            return Ok((Compiled::Interp(Box::new(module)), times));
        };
        let t = Instant::now();
        let program = smelt_kernel::lower_module(&module)?;
        times.lower_ms = ms(t);
        let t = Instant::now();
        let deadline = match cx.deadline {
            Some(d) => d,
            None => smelt_hlo::budget::CompileBudget::from_env()?.start(),
        };
        let options = BackendOptions { profile, deadline, ..BackendOptions::default() };
        let exe = target.compile(&smelt_kernel::verify(&program)?, &options)?;
        times.codegen_ms = ms(t);
        times.backend = exe.compile_phases();
        Ok((Compiled::Program(exe), times))
    }

    /// The backend's executable (None for the interpreter).
    pub fn executable(&self) -> Option<&Arc<dyn Executable>> {
        match self {
            Compiled::Interp(_) => None,
            Compiled::Program(exe) => Some(exe),
        }
    }

    /// Per-step times since the last reset, for a backend compiled with profiling.
    pub fn profile(&self) -> Option<Vec<StepProfile>> {
        self.executable()?.profile()
    }

    /// Restarts the per-step times.
    pub fn reset_profile(&self) {
        if let Some(exe) = self.executable() {
            exe.reset_profile();
        }
    }

    /// Runs the entry computation; results are the flattened result leaves.
    pub fn run(&self, args: &[Literal]) -> Result<Vec<Array>, EngineError> {
        match self {
            Compiled::Interp(module) => Ok(smelt_interp::evaluate(module, args)?.into_leaves()),
            Compiled::Program(exe) => {
                let leaves: Vec<&Array> = args.iter().flat_map(Literal::leaves).collect();
                Ok(exe.run_refs(&leaves)?)
            }
        }
    }
}
