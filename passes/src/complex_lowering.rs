//! Complex values to their parts, before anything else runs.
//!
//! Contract: after this pass no instruction has a complex shape and no
//! `complex`, `real`, `imag` or `fft` remains; each complex value is stored as
//! its component type with an innermost dimension of 2, and `fft` is a custom
//! call on those parts. The rules live in `smelt_hlo::complex`, which the
//! interpreter and the kernel lowering call too; running it first lets the
//! simplifier and fusion work on the real operations it produces.

use smelt_hlo::Module;

use crate::pass::{PassContext, PassError, Result, Rewrite};

pub struct ComplexLowering;

impl Rewrite for ComplexLowering {
    const NAME: &'static str = "complex-lowering";

    fn rewrite(&mut self, module: &mut Module, _cx: &mut PassContext) -> Result<bool> {
        smelt_hlo::complex::lower(module)
            .map_err(|e| PassError::Unsupported { pass: Self::NAME.into(), message: e.to_string() })
    }
}
