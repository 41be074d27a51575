//! The LLVM emitter's one error type.
//!
//! What the input can cause (a program using something no LLVM-based backend
//! renders, a malformed program) is told apart from what only a bug can cause
//! (LLVM rejecting the IR built here). The CPU backend wraps it, the GPU
//! backend maps it into its own enum.

use inkwell::builder::BuilderError;

#[derive(Debug, thiserror::Error)]
pub enum LlvmError {
    /// The program uses something the LLVM renderer does not implement.
    #[error("unsupported by the LLVM code generator: {0}")]
    Unsupported(String),
    /// The program is malformed (a buffer out of range, types that disagree).
    #[error("invalid program: {0}")]
    InvalidProgram(String),
    /// LLVM rejected the IR or failed to build it (a bug here).
    #[error("internal error in LLVM code generation: {0}")]
    Llvm(String),
}

impl From<BuilderError> for LlvmError {
    fn from(e: BuilderError) -> Self {
        LlvmError::Llvm(format!("IR builder: {e}"))
    }
}

pub type Result<T, E = LlvmError> = std::result::Result<T, E>;

/// Returns early with [`LlvmError::Unsupported`].
macro_rules! unsupported {
    ($($t:tt)*) => { return Err($crate::error::LlvmError::Unsupported(format!($($t)*))) };
}

/// Returns early with [`LlvmError::InvalidProgram`].
macro_rules! invalid {
    ($($t:tt)*) => { return Err($crate::error::LlvmError::InvalidProgram(format!($($t)*))) };
}

pub(crate) use {invalid, unsupported};
