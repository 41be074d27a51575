//! One interface over every backend: compile a module once, run it many times.
//! `smelt run`, `check` and `bench` and the tests go through it, so each backend
//! is exercised the same way.

use std::time::Instant;

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
    /// PTX for an NVIDIA GPU, run through the CUDA driver (device 0).
    Gpu,
    /// The GPU backend's kernels and step driver on the host simulator
    /// (`smelt_gpu::sim`): no GPU needed, slow; for testing.
    GpuSim,
}

impl Backend {
    pub fn name(self) -> &'static str {
        match self {
            Backend::Interp => "interp",
            Backend::Cpu => "cpu",
            Backend::Cranelift => "cranelift",
            Backend::Gpu => "gpu",
            Backend::GpuSim => "gpu-sim",
        }
    }

    /// The pipeline a backend runs when none is named: compiled backends need the
    /// fused, canonical module the default pipeline produces.
    pub fn default_pipeline(self) -> Pipeline {
        match self {
            Backend::Interp => Pipeline::None,
            Backend::Cpu | Backend::Cranelift | Backend::Gpu | Backend::GpuSim => Pipeline::Default,
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
    Verify(#[from] smelt_kernel::InvalidProgram),
    #[error(transparent)]
    Cpu(#[from] smelt_cpu::CpuError),
    #[error(transparent)]
    Cranelift(#[from] smelt_cranelift::CraneliftError),
    #[error(transparent)]
    Gpu(#[from] smelt_gpu::GpuError),
}

/// Blocks per launch in the GPU simulator (grid-stride loops cover the rest).
const SIM_MAX_GRID: u32 = 3;

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

/// Where one compilation's time went, in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CompileTimes {
    /// The pass pipeline (shared by every backend).
    pub middle_end_ms: f64,
    /// Schedule, buffer assignment and lowering to the kernel form (compiled backends).
    pub lower_ms: f64,
    /// The backend proper: code generation, optimization and loading.
    pub codegen_ms: f64,
}

/// A module compiled for a backend.
#[derive(Debug)]
pub enum Compiled {
    Interp(Module),
    Cpu(smelt_cpu::Executable),
    Cranelift(Box<smelt_cranelift::Executable>),
    Gpu(Box<smelt_gpu::Executable>),
    /// The lowered program; each run simulates it.
    GpuSim(Box<smelt_kernel::Program>),
}

impl Compiled {
    /// Optimizes (per `pipeline`) and compiles a verified module.
    pub fn new(module: Module, backend: Backend, pipeline: Pipeline) -> Result<Compiled, EngineError> {
        Compiled::with_profile(module, backend, pipeline, false)
    }

    /// As [`Compiled::new`]; with `profile`, compiled backends time every step
    /// ([`Compiled::profile`]).
    pub fn with_profile(
        module: Module,
        backend: Backend,
        pipeline: Pipeline,
        profile: bool,
    ) -> Result<Compiled, EngineError> {
        Compiled::timed(module, backend, pipeline, profile).map(|(c, _)| c)
    }

    /// As [`Compiled::with_profile`], also returning where compile time went.
    pub fn timed(
        mut module: Module,
        backend: Backend,
        pipeline: Pipeline,
        profile: bool,
    ) -> Result<(Compiled, CompileTimes), EngineError> {
        let ms = |t: Instant| t.elapsed().as_secs_f64() * 1e3;
        let t = Instant::now();
        optimize(&mut module, pipeline, &mut PassContext::new(Options::default()))?;
        let mut times = CompileTimes { middle_end_ms: ms(t), ..CompileTimes::default() };
        let lower = |module: &Module, times: &mut CompileTimes| -> Result<smelt_kernel::Program, EngineError> {
            let t = Instant::now();
            let program = smelt_kernel::lower_module(module)?;
            times.lower_ms = ms(t);
            Ok(program)
        };
        let compiled = match backend {
            Backend::Interp => Compiled::Interp(module),
            Backend::Cpu => {
                let program = lower(&module, &mut times)?;
                let t = Instant::now();
                let options = smelt_cpu::CompileOptions { profile, ..Default::default() };
                let exe = smelt_cpu::compile(&smelt_kernel::verify(&program)?, &options)?;
                times.codegen_ms = ms(t);
                Compiled::Cpu(exe)
            }
            Backend::Cranelift => {
                let program = lower(&module, &mut times)?;
                let t = Instant::now();
                let exe = smelt_cranelift::compile(
                    &smelt_kernel::verify(&program)?,
                    &smelt_cranelift::CompileOptions::default(),
                )?;
                times.codegen_ms = ms(t);
                Compiled::Cranelift(Box::new(exe))
            }
            Backend::Gpu => {
                let program = lower(&module, &mut times)?;
                let t = Instant::now();
                let exe = smelt_gpu::compile(&smelt_kernel::verify(&program)?, &smelt_gpu::CompileOptions::default())?;
                times.codegen_ms = ms(t);
                Compiled::Gpu(Box::new(exe))
            }
            Backend::GpuSim => Compiled::GpuSim(Box::new(lower(&module, &mut times)?)),
        };
        Ok((compiled, times))
    }

    /// Per-step times since the last reset, for a backend compiled with profiling.
    pub fn profile(&self) -> Option<Vec<smelt_cpu::StepProfile>> {
        match self {
            Compiled::Interp(_) | Compiled::Cranelift(_) | Compiled::Gpu(_) | Compiled::GpuSim(_) => None,
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
            Compiled::Gpu(exe) => {
                let leaves: Vec<&Array> = args.iter().flat_map(Literal::leaves).collect();
                Ok(exe.run_refs(&leaves)?)
            }
            Compiled::GpuSim(program) => {
                let leaves: Vec<Array> = args.iter().flat_map(Literal::leaves).cloned().collect();
                Ok(smelt_gpu::sim::simulate(&smelt_kernel::verify(program)?, &leaves, SIM_MAX_GRID)?)
            }
        }
    }
}
