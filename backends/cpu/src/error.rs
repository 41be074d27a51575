//! The CPU backend's one error type.
//!
//! Errors split into what the input can cause (a program using an operation the
//! backend does not render) and what only a bug can cause (LLVM rejecting the
//! module we built, the JIT failing to link it); the latter name themselves as
//! internal errors. Code generation errors are the LLVM emitter's own
//! ([`LlvmError`]), shared with the GPU backend.

use inkwell::builder::BuilderError;
use smelt_llvm::LlvmError;

#[derive(Debug, thiserror::Error)]
pub enum CpuError {
    /// What the LLVM code generator reports: a program it does not render, a
    /// malformed program, or LLVM rejecting the module built (a bug here).
    #[error(transparent)]
    Codegen(#[from] LlvmError),
    /// The program or the options need something this backend itself does not
    /// do (a routine shape, JIT for another target).
    #[error("unsupported by the CPU backend: {0}")]
    Unsupported(String),
    /// The JIT failed to create, link or look up code (a bug or a broken LLVM).
    #[error("JIT: {0}")]
    Jit(String),
    /// The compilation ran past its deadline.
    #[error(transparent)]
    OverBudget(#[from] smelt_hlo::budget::BudgetError),
    /// Serialized compiled code that cannot be read (see `CompiledObject::from_bytes`).
    #[error("invalid compiled object: {0}")]
    InvalidObject(String),
}

impl CpuError {
    /// [`CpuError::Unsupported`].
    pub(crate) fn unsupported(message: impl Into<String>) -> CpuError {
        CpuError::Unsupported(message.into())
    }

    /// [`LlvmError::InvalidProgram`].
    pub(crate) fn invalid(message: impl Into<String>) -> CpuError {
        LlvmError::InvalidProgram(message.into()).into()
    }

    /// [`LlvmError::Llvm`].
    pub(crate) fn llvm(message: impl Into<String>) -> CpuError {
        LlvmError::Llvm(message.into()).into()
    }
}

impl From<BuilderError> for CpuError {
    fn from(e: BuilderError) -> Self {
        LlvmError::from(e).into()
    }
}

pub type Result<T, E = CpuError> = std::result::Result<T, E>;

/// Returns early with [`LlvmError::InvalidProgram`].
macro_rules! invalid {
    ($($t:tt)*) => { return Err($crate::error::CpuError::invalid(format!($($t)*))) };
}

pub(crate) use invalid;

impl From<smelt_kernel::InvalidProgram> for CpuError {
    fn from(e: smelt_kernel::InvalidProgram) -> CpuError {
        CpuError::invalid(e.to_string())
    }
}
