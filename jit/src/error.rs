//! The JIT's one error type.
//!
//! Errors from the stages below (verifier, passes, lowering, backends) are kept
//! as their rendered messages, so a [`JitError`] is `Clone`: a compilation that
//! several threads wait for (single flight) hands each of them the same error.
//! Input errors (a module that does not verify, arguments of the wrong type or
//! shape) are separate variants from backend failures, and none of them panic.

/// Everything that can go wrong in `smelt-jit`.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum JitError {
    /// The module does not verify.
    #[error("module does not verify: {0}")]
    Verify(String),
    /// The middle end failed (a pass error).
    #[error("optimization pipeline: {0}")]
    Passes(String),
    /// The memory or compile budget is malformed in the environment, or the
    /// program is over it.
    #[error("{0}")]
    OverBudget(String),
    /// An environment variable or option that is not a valid value.
    #[error("{0}")]
    Setting(String),
    /// Lowering to the kernel form failed (often: an operation no backend renders).
    #[error("lowering: {0}")]
    Lower(String),
    /// A backend failed to compile or run the program.
    #[error("{backend} backend: {message}")]
    Backend { backend: &'static str, message: String },
    /// The interpreter failed.
    #[error("interpreter: {0}")]
    Interp(String),
    /// No such backend, or one this build or machine lacks (the `cranelift`
    /// feature, a GPU driver).
    #[error("{0}")]
    Unavailable(String),
    /// Arguments of the wrong number, element type or shape.
    #[error(transparent)]
    Arguments(#[from] smelt_kernel::ArgumentError),
    /// A buffer built from host data that does not fit its shape, or read as
    /// the wrong element type.
    #[error("buffer: {0}")]
    Buffer(String),
    /// A graph cluster could not be lowered to HLO (`graph`).
    #[error("graph: {0}")]
    Graph(String),
    /// A compilation panicked (a bug; the cache forgets the key).
    #[error("internal error: {0}")]
    Internal(String),
    /// The background compilation failed or was not ready in time.
    #[error("optimized tier: {0}")]
    Tier(String),
}
