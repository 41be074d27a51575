//! Helpers shared by the golden tests.

pub mod eval;
