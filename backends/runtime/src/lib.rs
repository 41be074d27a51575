//! What compiled smelt programs call at run time, shared by the backends.
//!
//! [`custom_call`]: `smelt_custom_call`, through which compiled code runs the
//! library routines of `smelt_linalg`.
//! [`fpenv`]: the floating-point environment programs run in (subnormals
//! flushed, as XLA CPU runs).
//! [`pool`]: the persistent thread pool behind `smelt_parallel_for` and the step
//! profiler's clock (LLVM- and Cranelift-compiled code call both).
//! [`scratch`]: `smelt_scratch_alloc`/`smelt_scratch_free`, the memory generated
//! GEMM and convolution drivers pack into (large blocks kept for reuse, on
//! huge pages).
//! [`routines`]: precompiled library routines for the Cranelift tier (matrix
//! products through the `gemm` crate, convolutions, sorts, select-and-scatter
//! and random bits) and the scalar helpers its generated code calls; these are
//! ordinary compiled Rust, chosen so the fast tier never waits for LLVM.

pub mod custom_call;
pub mod fpenv;
pub mod pool;
pub mod routines;
pub mod scratch;
