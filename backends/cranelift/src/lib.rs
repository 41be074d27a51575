//! smelt's fast-compile tier: the kernel form rendered with Cranelift.
//!
//! Cranelift lives only in this crate. [`compile`] renders every kernel of a
//! [`Program`] as one Cranelift function (`codegen`), compiles them in process
//! with `cranelift-jit` for the host CPU, and returns an [`Executable`] whose
//! host-side driver (`executable`) runs the program's steps: kernel launches
//! (large loops split over `smelt_runtime::pool`), copies, `while` and
//! `conditional` control flow, and the library steps, which call the
//! precompiled routines of `smelt_runtime::routines` (matrix products through
//! the `gemm` crate, convolutions as patches times kernels, merge sorts and
//! select-and-scatter with comparators compiled here). Nothing is interpreted:
//! every scalar operation of every kernel is Cranelift code (transcendental
//! functions from `smelt-math`, as on the LLVM tier) or a call to a runtime
//! scalar helper (f16/bf16 rounding, `fmod`). [`CraneliftBackend`] is the
//! backend registered as `cranelift`.
//!
//! The tier exists for compile time: no LLVM, no generated GEMM. Its kernels
//! are plain loop nests with each value computed at the outermost loop it
//! depends on, elementwise f32 innermost loops on 128-bit vectors (`simd`);
//! Cranelift's mid-end does the rest.

mod codegen;
mod error;
mod executable;

pub use error::CraneliftError;
pub use executable::Executable;

use smelt_kernel::VerifiedProgram;

/// How to compile.
#[derive(Clone, Debug)]
pub struct CompileOptions {
    /// Cranelift's `opt_level`: `speed` when true, `none` otherwise.
    pub optimize: bool,
    /// Whether large kernels may run on the thread pool.
    pub parallel: bool,
    /// Whether elementwise f32 innermost loops may run on 128-bit vectors.
    pub simd: bool,
    /// When the compilation must finish (checked after every kernel).
    pub deadline: smelt_hlo::budget::Deadline,
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions { optimize: true, parallel: true, simd: true, deadline: Default::default() }
    }
}

/// Compiles `program` for the host CPU and loads it into the process.
pub fn compile(program: &VerifiedProgram<'_>, options: &CompileOptions) -> Result<Executable, CraneliftError> {
    executable::Executable::new(program, options)
}

/// The Cranelift backend in the registry (`cranelift`): fast compiles, slower code.
#[derive(Debug, Default)]
pub struct CraneliftBackend;

impl smelt_kernel::Backend for CraneliftBackend {
    fn name(&self) -> &'static str {
        "cranelift"
    }

    fn description(&self) -> &'static str {
        "Cranelift-compiled native code: compiles in a fraction of LLVM's time"
    }

    fn compile(
        &self,
        program: &VerifiedProgram<'_>,
        options: &smelt_kernel::BackendOptions,
    ) -> smelt_kernel::CompileResult {
        let options = CompileOptions {
            optimize: options.opt_level > 0,
            parallel: options.parallel,
            simd: true,
            deadline: options.deadline,
        };
        let exe = compile(program, &options).map_err(smelt_kernel::BackendError::backend)?;
        Ok(std::sync::Arc::new(exe))
    }
}

/// Renders `program`'s kernels and scalar functions as Cranelift IR text (after
/// Cranelift's optimizations when `options.optimize`), one function after another.
pub fn emit_clif(program: &VerifiedProgram<'_>, options: &CompileOptions) -> Result<String, CraneliftError> {
    codegen::emit_clif(program, options)
}
