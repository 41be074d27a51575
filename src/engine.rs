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
}

impl Backend {
    pub fn name(self) -> &'static str {
        match self {
            Backend::Interp => "interp",
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
}

impl Compiled {
    /// Optimizes (per `pipeline`) and compiles a verified module.
    pub fn new(mut module: Module, backend: Backend, pipeline: Pipeline) -> Result<Compiled, EngineError> {
        optimize(&mut module, pipeline, &mut PassContext::new(Options::default()))?;
        Ok(match backend {
            Backend::Interp => Compiled::Interp(module),
        })
    }

    /// Runs the entry computation; results are the flattened result leaves.
    pub fn run(&self, args: &[Literal]) -> Result<Vec<Array>, EngineError> {
        match self {
            Compiled::Interp(module) => Ok(smelt_interp::evaluate(module, args)?.into_leaves()),
        }
    }
}
