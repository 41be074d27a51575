//! The GPU backend's one error type.
//!
//! What the input or the machine can cause (no CUDA driver, no device, a
//! program this backend does not render, arguments of the wrong shape) is told
//! apart from what only a bug can cause (LLVM rejecting the module we built).

#[derive(Debug, thiserror::Error)]
pub enum GpuError {
    /// `libcuda.so` could not be loaded: no NVIDIA driver on this machine.
    #[error(
        "no CUDA driver found (libcuda.so could not be loaded); the GPU backend needs an NVIDIA GPU and its driver"
    )]
    NoDriver,
    /// The driver is there but reports no usable device.
    #[error("no CUDA device: {0}")]
    NoDevice(String),
    /// A CUDA driver or cuBLAS call failed.
    #[error("CUDA: {0}")]
    Cuda(String),
    /// The program uses something this backend does not render.
    #[error("unsupported by the GPU backend: {0}")]
    Unsupported(String),
    /// The program is malformed.
    #[error("invalid program: {0}")]
    InvalidProgram(String),
    /// LLVM rejected the module or failed to emit PTX (a bug here).
    #[error("internal error in NVPTX code generation: {0}")]
    Llvm(String),
    #[error(transparent)]
    Arguments(#[from] smelt_kernel::ArgumentError),
    /// The compilation ran past its deadline.
    #[error(transparent)]
    OverBudget(#[from] smelt_hlo::budget::BudgetError),
}

impl From<smelt_llvm::LlvmError> for GpuError {
    fn from(e: smelt_llvm::LlvmError) -> Self {
        use smelt_llvm::LlvmError as L;
        match e {
            L::Unsupported(m) => GpuError::Unsupported(m),
            L::InvalidProgram(m) => GpuError::InvalidProgram(m),
            L::Llvm(m) => GpuError::Llvm(m),
        }
    }
}

impl From<inkwell::builder::BuilderError> for GpuError {
    fn from(e: inkwell::builder::BuilderError) -> Self {
        GpuError::Llvm(format!("IR builder: {e}"))
    }
}

impl From<cudarc::driver::DriverError> for GpuError {
    fn from(e: cudarc::driver::DriverError) -> Self {
        GpuError::Cuda(format!("{e:?}"))
    }
}

impl From<cudarc::cublas::result::CublasError> for GpuError {
    fn from(e: cudarc::cublas::result::CublasError) -> Self {
        GpuError::Cuda(format!("cuBLAS: {e:?}"))
    }
}

pub type Result<T, E = GpuError> = std::result::Result<T, E>;

impl From<smelt_kernel::InvalidProgram> for GpuError {
    fn from(e: smelt_kernel::InvalidProgram) -> GpuError {
        GpuError::InvalidProgram(e.to_string())
    }
}
