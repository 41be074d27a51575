//! The CPU backend's one error type.
//!
//! Errors split into what the input can cause (a program using an operation the
//! backend does not render) and what only a bug can
//! cause (LLVM rejecting the module we built, the JIT failing to link it); the
//! latter name themselves as internal errors.

use inkwell::builder::BuilderError;

#[derive(Debug, thiserror::Error)]
pub enum CpuError {
    /// The program uses something this backend does not implement.
    #[error("unsupported by the CPU backend: {0}")]
    Unsupported(String),
    /// The program is malformed (a buffer out of range, types that disagree).
    #[error("invalid program: {0}")]
    InvalidProgram(String),
    /// LLVM rejected the module or failed to optimize or emit it (a bug here).
    #[error("internal error in LLVM code generation: {0}")]
    Llvm(String),
    /// The JIT failed to create, link or look up code (a bug or a broken LLVM).
    #[error("JIT: {0}")]
    Jit(String),
    /// Serialized compiled code that cannot be read (see `CompiledObject::from_bytes`).
    #[error("invalid compiled object: {0}")]
    InvalidObject(String),
}

impl From<BuilderError> for CpuError {
    fn from(e: BuilderError) -> Self {
        CpuError::Llvm(format!("IR builder: {e}"))
    }
}

pub type Result<T, E = CpuError> = std::result::Result<T, E>;

/// Returns early with [`CpuError::InvalidProgram`].
macro_rules! invalid {
    ($($t:tt)*) => { return Err($crate::error::CpuError::InvalidProgram(format!($($t)*))) };
}

pub(crate) use invalid;

impl From<smelt_kernel::InvalidProgram> for CpuError {
    fn from(e: smelt_kernel::InvalidProgram) -> CpuError {
        CpuError::InvalidProgram(e.to_string())
    }
}

impl From<smelt_llvm::LlvmError> for CpuError {
    fn from(e: smelt_llvm::LlvmError) -> CpuError {
        match e {
            smelt_llvm::LlvmError::Unsupported(m) => CpuError::Unsupported(m),
            smelt_llvm::LlvmError::InvalidProgram(m) => CpuError::InvalidProgram(m),
            smelt_llvm::LlvmError::Llvm(m) => CpuError::Llvm(m),
        }
    }
}
