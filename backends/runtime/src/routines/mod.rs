//! Precompiled library routines the Cranelift tier calls for its library steps.
//!
//! They follow the kernel form's contracts (`smelt_kernel::ir::DotStep`,
//! `ConvStep`, the `Sort`, `SelectAndScatter` and `RngBitGenerator` bodies):
//! products accumulate in f32 for f16, bf16 and f32 results, in f64 for f64 and
//! in wrapping i64 for integers; sorts are the interpreter's stable merge sort
//! driven by a compiled comparator. [`conv_gemm`] is the LLVM tier's
//! convolution of any shape, products by its precompiled GEMM family. Buffers arrive as raw pointers to dense
//! row-major data, which is what compiled programs hold.

pub mod conv;
pub mod conv_gemm;
pub mod dot;
pub mod elements;
pub mod scalar;
pub mod sort;

/// A routine given operands it cannot handle.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct RoutineError(pub String);

/// A compiled scalar function: reads its arguments from 8-byte slots (each
/// value's little-endian bits, f16/bf16 as their 16-bit patterns, pred as 0/1)
/// and writes its results the same way.
pub type ScalarFnPtr = unsafe extern "C" fn(args: *const u64, results: *mut u64);
