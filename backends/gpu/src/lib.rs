//! smelt's NVIDIA GPU backend: the kernel form rendered to PTX through LLVM's
//! NVPTX back end and run through the CUDA driver.
//!
//! Pipeline: [`elemental::prepare`] turns convolutions (and the products
//! cuBLAS does not take) into elemental kernels; [`plan`] picks a launch
//! strategy per kernel (coalesced elementwise grids, shared-memory transpose
//! tiles, block-per-row reductions and row statistics with warp shuffles and
//! shared memory, thread-per-output column reductions, two-launch split
//! reductions, thread-per-line scans, `smelt-llvm`'s kernel bodies for
//! sorts and the rest); `codegen`
//! renders one NVPTX module for `sm_XX` with the shared LLVM emitter (`smelt-llvm`)
//! and prints it as PTX. [`emit_ptx`] stops there and needs no GPU;
//! [`compile`] also loads the module on device 0 and returns an
//! [`Executable`], whose host-side driver runs the steps on one stream over
//! one device arena laid out by buffer assignment, with f32/f64/f16/bf16 products
//! through cuBLAS.
//!
//! [`GpuBackend`] (`gpu`) and [`GpuSimBackend`] (`gpu-sim`) are the two
//! backends this crate registers.
//!
//! The CUDA libraries are loaded at run time (`cudarc`'s dynamic loading), so
//! this crate builds and its tests run on machines without CUDA; there,
//! [`compile`] fails with [`GpuError::NoDriver`]. [`sim::simulate`] runs the
//! same kernels and driver on a host simulator of CUDA's execution model,
//! which is how the tests check them against XLA without a GPU.
//!
//! Code map: `elemental` (dot and convolution kernels), `plan` (strategies,
//! launch dimensions and their models), `codegen` (NVPTX or simulator
//! module), `runtime` (driver, memory, launches, cuBLAS), `executable` (the
//! step driver), `sim` (the simulator), `bench` (device yardsticks), `error`.

pub mod bench;
pub mod codegen;
pub mod elemental;
mod error;
mod executable;
pub mod plan;
pub mod runtime;
pub mod sim;

#[cfg(test)]
mod tests;

use smelt_kernel::Program;
use smelt_kernel::VerifiedProgram;

pub use codegen::{DeviceKernel, DeviceModule};
pub use error::GpuError;
pub use executable::Executable;

/// The default target architecture (Ampere).
pub const DEFAULT_SM: u32 = 80;

/// How to compile.
#[derive(Clone, Debug)]
pub struct CompileOptions {
    /// Target architecture `sm_XX` (80: Ampere, 90: Hopper).
    pub sm: u32,
    /// LLVM optimization level, 0 to 3.
    pub opt_level: u8,
    /// Whether floating-point matrix products run through cuBLAS (otherwise they are
    /// elemental kernels like every other product).
    pub cublas: bool,
    /// When the compilation must have finished (checked after LLVM IR
    /// generation and after optimization).
    pub deadline: smelt_hlo::budget::Deadline,
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions { sm: DEFAULT_SM, opt_level: 3, cublas: true, deadline: smelt_hlo::budget::Deadline::none() }
    }
}

/// What [`emit`] produces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Emit {
    /// The prepared kernel-form program (convolutions and non-cuBLAS
    /// products as kernels), with each kernel's launch strategy.
    Kernel,
    /// LLVM IR as generated.
    Llvm,
    /// LLVM IR after optimization.
    LlvmOpt,
    /// PTX assembly: one module holding every kernel.
    Ptx,
}

/// Renders `program` for the GPU without a GPU: the chosen stage as text.
pub fn emit(program: &VerifiedProgram<'_>, options: &CompileOptions, what: Emit) -> Result<String, GpuError> {
    let prepared = elemental::prepare(program, options.cublas)?;
    if what == Emit::Kernel {
        let mut text = prepared.to_string();
        for (i, k) in prepared.kernels.iter().enumerate() {
            let s = plan::choose(k)?;
            let l = s.launch();
            text.push_str(&format!("// kernel {i} ({}): {} grid {} x block {}\n", k.name, s.name(), l.grid, l.block));
        }
        return Ok(text);
    }
    let m = codegen::build(&prepared, options, what != Emit::Ptx)?;
    Ok(match what {
        Emit::Llvm => m.llvm.unwrap_or_default(),
        Emit::LlvmOpt => m.llvm_opt.unwrap_or_default(),
        Emit::Ptx | Emit::Kernel => m.ptx,
    })
}

/// The PTX module for `program` (needs no GPU).
pub fn emit_ptx(program: &VerifiedProgram<'_>, options: &CompileOptions) -> Result<String, GpuError> {
    emit(program, options, Emit::Ptx)
}

/// The prepared program and its device module, with each kernel's launch plan.
pub fn build(program: &VerifiedProgram<'_>, options: &CompileOptions) -> Result<(Program, DeviceModule), GpuError> {
    let prepared = elemental::prepare(program, options.cublas)?;
    let m = codegen::build(&prepared, options, false)?;
    Ok((prepared, m))
}

/// Compiles `program` for device 0's architecture (`options.sm` is ignored)
/// and loads it there.
pub fn compile(program: &VerifiedProgram<'_>, options: &CompileOptions) -> Result<Executable, GpuError> {
    if !runtime::driver_present() {
        return Err(GpuError::NoDriver);
    }
    // Code for the device's own architecture (PTX for an older one would be
    // JIT-compiled by the driver too, without the newer instructions).
    let device = runtime::Device::get()?;
    let options = CompileOptions { sm: device.sm.clamp(50, 120), ..options.clone() };
    let (prepared, module) = build(program, &options)?;
    Executable::new(prepared, &module)
}

/// Whether a CUDA driver library can be loaded on this machine.
pub fn driver_available() -> bool {
    runtime::driver_present()
}

/// The GPU backend in the registry (`gpu`): PTX on device 0.
#[derive(Debug, Default)]
pub struct GpuBackend;

impl smelt_kernel::Backend for GpuBackend {
    fn name(&self) -> &'static str {
        "gpu"
    }

    fn description(&self) -> &'static str {
        "PTX for an NVIDIA GPU, run through the CUDA driver (device 0)"
    }

    fn capabilities(&self) -> smelt_kernel::Capabilities {
        // Products live in the output buffer: epilogues keep their type.
        let fusion = smelt_kernel::FusionConfig { typed_epilogues: false, ..Default::default() };
        smelt_kernel::Capabilities { fusion, ..Default::default() }
    }

    fn unavailable(&self) -> Option<String> {
        (!driver_available()).then(|| GpuError::NoDriver.to_string())
    }

    fn compile(
        &self,
        program: &VerifiedProgram<'_>,
        options: &smelt_kernel::BackendOptions,
    ) -> smelt_kernel::CompileResult {
        let options = CompileOptions { opt_level: options.opt_level, deadline: options.deadline, ..Default::default() };
        Ok(std::sync::Arc::new(compile(program, &options).map_err(smelt_kernel::BackendError::backend)?))
    }
}

/// The GPU backend's kernels and step driver on the host simulator
/// ([`sim::simulate`]), registered as `gpu-sim`: no GPU needed, slow; for
/// testing. Each run builds and simulates the program anew.
#[derive(Debug, Default)]
pub struct GpuSimBackend;

/// Blocks per launch in `gpu-sim` (grid-stride loops cover the rest).
const SIM_MAX_GRID: u32 = 3;

impl smelt_kernel::Backend for GpuSimBackend {
    fn name(&self) -> &'static str {
        "gpu-sim"
    }

    fn description(&self) -> &'static str {
        "the GPU backend's kernels and driver on a host simulator: no GPU needed, slow"
    }

    fn capabilities(&self) -> smelt_kernel::Capabilities {
        // Products live in the output buffer: epilogues keep their type.
        let fusion = smelt_kernel::FusionConfig { typed_epilogues: false, ..Default::default() };
        smelt_kernel::Capabilities { fusion, ..Default::default() }
    }

    fn compile(
        &self,
        program: &VerifiedProgram<'_>,
        _options: &smelt_kernel::BackendOptions,
    ) -> smelt_kernel::CompileResult {
        Ok(std::sync::Arc::new(SimExecutable { program: Program::clone(program) }))
    }
}

/// A program for `gpu-sim`: simulated on every run.
#[derive(Debug)]
struct SimExecutable {
    program: Program,
}

impl smelt_kernel::Executable for SimExecutable {
    fn signature(&self) -> smelt_kernel::Signature<'_> {
        smelt_kernel::Signature::of("gpu-sim", &self.program)
    }

    fn execute(&self, args: &[smelt_hlo::ArrayView<'_>]) -> Result<Vec<smelt_hlo::Array>, smelt_kernel::BackendError> {
        let args: Vec<smelt_hlo::Array> = args.iter().map(smelt_hlo::ArrayView::to_array).collect();
        let program = smelt_kernel::verify(&self.program)?;
        sim::simulate(&program, &args, SIM_MAX_GRID).map_err(smelt_kernel::BackendError::backend)
    }
}
