//! The interpreter's per-element semantics, public: the one definition of what
//! every scalar operation computes, which the kernel form's evaluator, the
//! runtime's helper routines and the tests call instead of restating it.
//!
//! [`Value`] is one element of any type; its operations are the interpreter's
//! own ([`crate::num`] for arithmetic, comparison and conversion, [`crate::edge`]
//! for XLA's edge cases). The typed pieces ([`XlaInt`], [`float_unary`],
//! [`float_binary`]) serve callers that already hold a Rust number.

use smelt_hlo::{DType, Opcode};

pub use crate::edge::{XlaInt, float_max, float_min, float_sign};
pub use crate::num::{Calc, Cast, float_binary, float_unary};
pub use crate::value::Scalar as Value;

/// `op` on `x`, or None when `op` is not a unary operation of `x`'s type.
pub fn unary(op: Opcode, x: Value) -> Option<Value> {
    crate::value::unary_ok(x.dtype(), op).then(|| Value::unary(op, x))
}

/// `op` on `x` and `y`, or None when they differ in type or `op` is not a
/// binary operation of their type.
pub fn binary(op: Opcode, x: Value, y: Value) -> Option<Value> {
    if !crate::value::binary_ok(x.dtype(), op) {
        return None;
    }
    Value::binary(op, x, y)
}

/// `convert`: integers wrap, float to integer saturates (NaN gives 0), float
/// narrowing rounds to nearest even, anything nonzero (NaN included) is true;
/// between f64 and narrower floats, subnormal f32 values flush.
pub fn convert(x: Value, to: DType) -> Value {
    x.convert(to)
}
