//! smelt's kernel form rendered as LLVM IR, shared by the CPU and GPU backends.
//!
//! [`codegen::Cg`] is the one LLVM builder wrapper: element types in registers
//! and in memory, functions, counted loops, element loads and stores, every
//! scalar operation with the interpreter's semantics (`codegen::scalar`), the
//! math library (`math`, `smelt_math` through [`math::emit`]'s emitter),
//! conversions, and the bodies of every kernel kind (`codegen::kernels`,
//! `reduce`, `scan`, `sort`, `rng`). The CPU backend adds its step driver,
//! GEMM and convolution routines, ORC JIT and AOT objects; the GPU backend
//! adds launch strategies and PTX. [`jit`] runs generated code in process for
//! tests and benchmarks.

pub mod codegen;
mod error;
pub mod jit;
pub mod math;

pub use error::{LlvmError, Result};
