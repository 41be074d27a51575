//! One interface over every backend: compile a module once, run it many times.
//! `smelt run`, `check` and `bench` and the tests go through it, so each backend
//! is exercised the same way.

use smelt_hlo::{Array, Literal, Module};
use smelt_passes::{Options, PassContext};

/// Where a module runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Backend {
    /// The reference interpreter.
    Interp,
    /// LLVM-compiled native code for this CPU, run in process.
    Cpu,
    /// Cranelift-compiled native code: compiles in a fraction of LLVM's time.
    Cranelift,
}

impl Backend {
    pub fn name(self) -> &'static str {
        match self {
            Backend::Interp => "interp",
            Backend::Cpu => "cpu",
            Backend::Cranelift => "cranelift",
        }
    }

    /// The pipeline a backend runs when none is named: compiled backends need the
    /// fused, canonical module the default pipeline produces.
    pub fn default_pipeline(self) -> Pipeline {
        match self {
            Backend::Interp => Pipeline::None,
            Backend::Cpu | Backend::Cranelift => Pipeline::Default,
        }
    }
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
    Cpu(#[from] smelt_cpu::CpuError),
    #[error(transparent)]
    Cranelift(#[from] smelt_cranelift::CraneliftError),
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

/// A module compiled for a backend.
#[derive(Debug)]
pub enum Compiled {
    Interp(Module),
    Cpu(smelt_cpu::Executable),
    Cranelift(smelt_cranelift::Executable),
}

impl Compiled {
    /// Optimizes (per `pipeline`) and compiles a verified module.
    pub fn new(module: Module, backend: Backend, pipeline: Pipeline) -> Result<Compiled, EngineError> {
        Compiled::with_profile(module, backend, pipeline, false)
    }

    /// As [`Compiled::new`]; with `profile`, compiled backends time every step
    /// ([`Compiled::profile`]).
    pub fn with_profile(
        mut module: Module,
        backend: Backend,
        pipeline: Pipeline,
        profile: bool,
    ) -> Result<Compiled, EngineError> {
        optimize(&mut module, pipeline, &mut PassContext::new(Options::default()))?;
        Ok(match backend {
            Backend::Interp => Compiled::Interp(module),
            Backend::Cpu => {
                let program = smelt_kernel::lower_module(&module)?;
                let options = smelt_cpu::CompileOptions { profile, ..Default::default() };
                Compiled::Cpu(smelt_cpu::compile(&program, &options)?)
            }
            Backend::Cranelift => {
                let program = smelt_kernel::lower_module(&module)?;
                Compiled::Cranelift(smelt_cranelift::compile(&program, &smelt_cranelift::CompileOptions::default())?)
            }
        })
    }

    /// Per-step times since the last reset, for a backend compiled with profiling.
    pub fn profile(&self) -> Option<Vec<smelt_cpu::StepProfile>> {
        match self {
            Compiled::Interp(_) | Compiled::Cranelift(_) => None,
            Compiled::Cpu(exe) => exe.profile(),
        }
    }

    /// Restarts the per-step times.
    pub fn reset_profile(&self) {
        if let Compiled::Cpu(exe) = self {
            exe.reset_profile();
        }
    }

    /// Runs the entry computation; results are the flattened result leaves.
    pub fn run(&self, args: &[Literal]) -> Result<Vec<Array>, EngineError> {
        match self {
            Compiled::Interp(module) => Ok(smelt_interp::evaluate(module, args)?.into_leaves()),
            Compiled::Cpu(exe) => {
                let leaves: Vec<&Array> = args.iter().flat_map(Literal::leaves).collect();
                Ok(exe.run_refs(&leaves)?)
            }
            Compiled::Cranelift(exe) => {
                let leaves: Vec<&Array> = args.iter().flat_map(Literal::leaves).collect();
                Ok(exe.run_refs(&leaves)?)
            }
        }
    }
}
