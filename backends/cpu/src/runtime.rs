//! The runtime generated code calls, shared with the other compiled backends:
//! the thread pool behind `smelt_parallel_for` and the step profiler's clock
//! (`smelt_runtime::pool`).

pub use smelt_runtime::pool::*;
