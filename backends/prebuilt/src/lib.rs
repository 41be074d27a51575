//! The CPU backend's common routine families, built into the binary.
//!
//! A program's GEMM and tile-library routines come from the routine cache
//! (`smelt_cpu::routines`); on a new machine the first program of each kind
//! built them, 0.1-1.5 s apiece. This crate's build script builds the common
//! ones when smelt itself is built (release profile), for the machine it is
//! built on, and [`register`] hands them to the CPU backend.

include!(concat!(env!("OUT_DIR"), "/objects.rs"));

/// Makes the built-in routines available to every CPU compilation in this
/// process; returns how many there are (0 in a debug build or on a build
/// with `SMELT_PREBUILT=off`).
pub fn register() -> usize {
    smelt_cpu::routines::register_built_in(OBJECTS);
    OBJECTS.len()
}
