//! smelt's CPU backend: the kernel form rendered as LLVM IR (through inkwell, LLVM
//! 22 linked dynamically), optimized at O3 for the host CPU and run in process.
//!
//! LLVM lives only in this crate (and the other LLVM-based backends): `smelt-hlo`,
//! `smelt-passes` and `smelt-kernel` know nothing about it.
//!
//! The library routines that the kernel form leaves to the backend (`DotStep`,
//! `ConvStep`) are generated as LLVM IR too, by [`gemm`] and [`conv`], so compiled
//! programs link against nothing beyond libc, libm and libpthread.

pub mod conv;
pub mod gemm;
pub mod jit;
pub mod routine;

pub use routine::RoutineError;
