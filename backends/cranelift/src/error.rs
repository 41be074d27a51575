//! The Cranelift backend's one error type.
//!
//! As in the CPU backend, errors split into what the input can cause (an
//! operation this backend does not render) and
//! what only a bug can cause (Cranelift rejecting a function we built).

#[derive(Debug, thiserror::Error)]
pub enum CraneliftError {
    /// The program uses something this backend does not implement.
    #[error("unsupported by the Cranelift backend: {0}")]
    Unsupported(String),
    /// The program is malformed (a buffer out of range, types that disagree).
    #[error("invalid program: {0}")]
    InvalidProgram(String),
    /// Cranelift rejected a function or failed to finalize the code (a bug here).
    #[error("internal error in Cranelift code generation: {0}")]
    Codegen(String),
    /// The compilation ran past its deadline.
    #[error(transparent)]
    OverBudget(#[from] smelt_hlo::budget::BudgetError),
    /// A library routine failed at run time (a shape it cannot handle).
    #[error("run time: {0}")]
    Run(String),
}

pub type Result<T, E = CraneliftError> = std::result::Result<T, E>;

/// Returns early with [`CraneliftError::Unsupported`].
macro_rules! unsupported {
    ($($t:tt)*) => { return Err($crate::error::CraneliftError::Unsupported(format!($($t)*))) };
}

/// Returns early with [`CraneliftError::InvalidProgram`].
macro_rules! invalid {
    ($($t:tt)*) => { return Err($crate::error::CraneliftError::InvalidProgram(format!($($t)*))) };
}

pub(crate) use {invalid, unsupported};

impl From<smelt_kernel::InvalidProgram> for CraneliftError {
    fn from(e: smelt_kernel::InvalidProgram) -> CraneliftError {
        CraneliftError::InvalidProgram(e.to_string())
    }
}
