//! smelt's CPU backend: the kernel form rendered as LLVM IR (through inkwell, LLVM
//! 22 linked dynamically), optimized at O3 for the host CPU and run in process.
//!
//! LLVM lives only in this crate (and the other LLVM-based backends): `smelt-hlo`,
//! `smelt-passes` and `smelt-kernel` know nothing about it.

pub mod math;
