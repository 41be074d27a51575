//! The kernel form's scalar values, and what every scalar operation computes
//! on them: the interpreter's semantics ([`smelt_interp::scalar`]), reached
//! through one conversion, so no rule is stated twice.
//!
//! Representation: integers are held exactly in an `i128`, normalized to their
//! type (sign- or zero-extended), pred as 0 or 1; a float is held as the `f64`
//! with exactly its value. NaNs are converted bit by bit (payload and signalling
//! bit kept), so a bitcast of a NaN round-trips, and so does the trip through
//! the interpreter's typed [`Value`].

use half::{bf16, f16};
use smelt_hlo::DType;
use smelt_hlo::attrs::{CompareType, ComparisonDirection};
use smelt_interp::scalar::{self as interp, Value};

use crate::ir::{BinaryOp, Scalar, UnaryOp};

/// Why a scalar operation has no defined result (an operation the element type
/// does not support, or mixed operand types).
pub(crate) type SemResult<T> = Result<T, String>;

/// The identity of `op` on type `t`: the value `e` with `op(e, x) == x` for
/// every `x`, NaNs and signed zeros included (a float sum's is -0.0, a max's
/// -inf), or None when `op` has none. Where a reduction starts partial
/// results that must not change it (vector lanes, padding).
pub fn identity(op: BinaryOp, t: DType) -> Option<Scalar> {
    let int = |v: i128| Some(Scalar::Int(t, v));
    if t.is_float() {
        let v = match op {
            BinaryOp::Add => -0.0,
            BinaryOp::Mul => 1.0,
            BinaryOp::Max => f64::NEG_INFINITY,
            BinaryOp::Min => f64::INFINITY,
            _ => return None,
        };
        return Some(Scalar::Float(t, v));
    }
    if t == DType::Pred {
        return match op {
            BinaryOp::And | BinaryOp::Mul | BinaryOp::Min => int(1),
            BinaryOp::Or | BinaryOp::Xor | BinaryOp::Add | BinaryOp::Max => int(0),
            _ => None,
        };
    }
    if !t.is_int() {
        return None;
    }
    let bits = 8 * t.byte_size() as u32;
    let (min, max) =
        if t.is_signed_int() { (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1) } else { (0, (1i128 << bits) - 1) };
    match op {
        BinaryOp::Add | BinaryOp::Or | BinaryOp::Xor => int(0),
        BinaryOp::Mul => int(1),
        BinaryOp::And => int(wrap(t, -1)),
        BinaryOp::Max => int(min),
        BinaryOp::Min => int(max),
        _ => None,
    }
}

/// `v` wrapped into integer type `t` (pred: nonzero is 1).
pub fn wrap(t: DType, v: i128) -> i128 {
    match t {
        DType::Pred => (v != 0) as i128,
        DType::S8 => v as i8 as i128,
        DType::S16 => v as i16 as i128,
        DType::S32 => v as i32 as i128,
        DType::S64 => v as i64 as i128,
        DType::U8 => v as u8 as i128,
        DType::U16 => v as u16 as i128,
        DType::U32 => v as u32 as i128,
        DType::U64 => v as u64 as i128,
        DType::F16 | DType::Bf16 | DType::F32 | DType::F64 | DType::C64 | DType::C128 => v,
    }
}

/// The low `bits(t)` bits of `v`, as an unsigned number.
fn ubits(t: DType, v: i128) -> u128 {
    let w = t.bit_width() as u32;
    (v as u128) & (u128::MAX >> (128 - w))
}

/// An `f32` as the `f64` of the same value; NaN payloads move bit for bit.
pub(crate) fn f32_to_f64(x: f32) -> f64 {
    if x.is_nan() {
        let b = x.to_bits() as u64;
        f64::from_bits(((b & 0x8000_0000) << 32) | 0x7ff0_0000_0000_0000 | ((b & 0x007f_ffff) << 29))
    } else {
        x as f64
    }
}

/// The inverse of [`f32_to_f64`] (rounds values that are not f32s).
pub(crate) fn f64_to_f32(x: f64) -> f32 {
    if x.is_nan() {
        let b = x.to_bits();
        let payload = ((b >> 29) & 0x007f_ffff) as u32;
        // A payload lost to the narrowing still has to be a NaN.
        let payload = if payload == 0 { 0x0040_0000 } else { payload };
        f32::from_bits((((b >> 32) as u32) & 0x8000_0000) | 0x7f80_0000 | payload)
    } else {
        x as f32
    }
}

/// The bits of float type `t` holding `v` (rounded to nearest even when `v` is
/// not a value of `t`).
pub(crate) fn float_to_bits(t: DType, v: f64) -> u64 {
    match t {
        DType::F64 => v.to_bits(),
        DType::F32 => f64_to_f32(v).to_bits() as u64,
        DType::F16 if v.is_nan() => narrow_nan(v, 10),
        DType::F16 => f16::from_f64(v).to_bits() as u64,
        DType::Bf16 if v.is_nan() => narrow_nan(v, 7),
        DType::Bf16 => bf16::from_f64(v).to_bits() as u64,
        _ => 0,
    }
}

/// NaN `v` (as an f32) narrowed to a 16-bit float with `mantissa` mantissa
/// bits (f16: 10, bf16: 7): its sign and the top bits of its payload, quieted
/// when those are all zero, so a NaN stays a NaN.
fn narrow_nan(v: f64, mantissa: u32) -> u64 {
    let b = f64_to_f32(v).to_bits();
    let mask = (1u32 << mantissa) - 1;
    let payload = (b >> (23 - mantissa)) & mask;
    let payload = if payload == 0 { 1 << (mantissa - 1) } else { payload };
    u64::from(((b >> 16) & 0x8000) | (0x7fff & !mask) | payload)
}

/// The value of float type `t` with the given bits.
pub(crate) fn float_from_bits(t: DType, bits: u64) -> f64 {
    match t {
        DType::F64 => f64::from_bits(bits),
        DType::F32 => f32_to_f64(f32::from_bits(bits as u32)),
        DType::F16 => {
            let h = f16::from_bits(bits as u16);
            if h.is_nan() {
                let b = bits as u32;
                f32_to_f64(f32::from_bits(((b & 0x8000) << 16) | 0x7f80_0000 | ((b & 0x3ff) << 13)))
            } else {
                h.to_f64()
            }
        }
        DType::Bf16 => f32_to_f64(f32::from_bits((bits as u32) << 16)),
        _ => 0.0,
    }
}

/// The element's bits (little end first) in the low bits.
fn bits_of(x: Scalar) -> u64 {
    match x {
        Scalar::Int(t, v) => ubits(t, v) as u64,
        Scalar::Float(t, v) => float_to_bits(t, v),
    }
}

/// The element of type `t` with bits `raw`.
fn of_bits(t: DType, raw: u64) -> Scalar {
    if t.is_float() { Scalar::Float(t, float_from_bits(t, raw)) } else { Scalar::Int(t, wrap(t, raw as i128)) }
}

/// Reads one little-endian element of type `t`.
pub(crate) fn read(t: DType, bytes: &[u8]) -> Scalar {
    let mut b = [0u8; 8];
    let n = t.byte_size().min(bytes.len());
    b[..n].copy_from_slice(&bytes[..n]);
    of_bits(t, u64::from_le_bytes(b))
}

/// Writes one little-endian element (of the scalar's own type).
pub(crate) fn write(x: Scalar, out: &mut [u8]) {
    let n = x.dtype().byte_size().min(out.len());
    out[..n].copy_from_slice(&bits_of(x).to_le_bytes()[..n]);
}

fn value(x: Scalar) -> Value {
    Value::from_bits(x.dtype(), bits_of(x))
}

fn scalar(v: Value) -> Scalar {
    of_bits(v.dtype(), v.to_bits())
}

fn unsupported(what: impl std::fmt::Debug, t: DType) -> String {
    format!("{what:?} is not defined on {t}")
}

fn same_type(what: impl std::fmt::Debug, a: Scalar, b: Scalar) -> SemResult<()> {
    if a.dtype() == b.dtype() { Ok(()) } else { Err(format!("{what:?} of {} and {}", a.dtype(), b.dtype())) }
}

pub(crate) fn unary(op: UnaryOp, x: Scalar) -> SemResult<Scalar> {
    let t = x.dtype();
    if op == UnaryOp::IsFinite {
        return if t.is_float() {
            Ok(Scalar::Int(DType::Pred, value(x).is_finite() as i128))
        } else {
            Err(unsupported(op, t))
        };
    }
    interp::unary(op.opcode(), value(x)).map(scalar).ok_or_else(|| unsupported(op, t))
}

pub(crate) fn binary(op: BinaryOp, a: Scalar, b: Scalar) -> SemResult<Scalar> {
    same_type(op, a, b)?;
    // Unchecked shifts take the amount modulo the width.
    let b = match (op, b) {
        (
            BinaryOp::ShlUnchecked | BinaryOp::ShrArithmeticUnchecked | BinaryOp::ShrLogicalUnchecked,
            Scalar::Int(t, y),
        ) => Scalar::Int(t, wrap(t, y & (t.bit_width() as i128 - 1))),
        _ => b,
    };
    interp::binary(op.opcode(), value(a), value(b)).map(scalar).ok_or_else(|| unsupported(op, a.dtype()))
}

/// Whether an unchecked operation's operands are in its range: a divisor
/// that is not 0 (nor -1 under a signed minimum). Unchecked shifts and checked
/// operations are in range everywhere.
pub(crate) fn in_range(op: BinaryOp, a: Scalar, b: Scalar) -> bool {
    let (Scalar::Int(t, x), Scalar::Int(_, y)) = (a, b) else {
        return true;
    };
    let bits = t.bit_width() as i128;
    match op {
        BinaryOp::DivUnchecked | BinaryOp::RemUnchecked => {
            y != 0 && !(t.is_signed_int() && x == -(1i128 << (bits - 1)) && y == -1)
        }
        _ => true,
    }
}

pub(crate) fn compare(dir: ComparisonDirection, ty: Option<CompareType>, a: Scalar, b: Scalar) -> SemResult<bool> {
    same_type("compare", a, b)?;
    Value::compare(dir, ty, value(a), value(b)).ok_or_else(|| unsupported("compare", a.dtype()))
}

/// XLA's `convert` (see [`smelt_interp::scalar::convert`]).
pub(crate) fn convert(x: Scalar, to: DType) -> Scalar {
    scalar(interp::convert(value(x), to))
}

/// Reinterprets the bits of `x` as type `to` of the same width.
pub(crate) fn bitcast(x: Scalar, to: DType) -> SemResult<Scalar> {
    if x.dtype().byte_size() != to.byte_size() {
        return Err(format!("bitcast from {} to {to} changes the width", x.dtype()));
    }
    Ok(of_bits(to, bits_of(x)))
}

/// XLA's `clamp(lo, x, hi)`.
pub(crate) fn clamp(lo: Scalar, x: Scalar, hi: Scalar) -> SemResult<Scalar> {
    same_type("clamp", lo, x)?;
    same_type("clamp", hi, x)?;
    Value::clamp(value(lo), value(x), value(hi)).map(scalar).ok_or_else(|| unsupported("clamp", x.dtype()))
}

/// `a * b + c` rounded once, on `f32` or `f64` ([`crate::ir::Node::MulAdd`]).
pub(crate) fn mul_add(a: Scalar, b: Scalar, c: Scalar) -> SemResult<Scalar> {
    same_type("mul-add", a, b)?;
    same_type("mul-add", c, a)?;
    match (a, b, c) {
        (Scalar::Float(DType::F32, x), Scalar::Float(_, y), Scalar::Float(_, z)) => {
            let r = f64_to_f32(x).mul_add(f64_to_f32(y), f64_to_f32(z));
            Ok(Scalar::Float(DType::F32, f32_to_f64(r)))
        }
        (Scalar::Float(DType::F64, x), Scalar::Float(_, y), Scalar::Float(_, z)) => {
            Ok(Scalar::Float(DType::F64, x.mul_add(y, z)))
        }
        _ => Err(unsupported("mul-add", a.dtype())),
    }
}

/// `select(p, a, b)`.
pub(crate) fn select(p: Scalar, a: Scalar, b: Scalar) -> Scalar {
    if is_true(p) { a } else { b }
}

pub(crate) fn is_true(p: Scalar) -> bool {
    match p {
        Scalar::Int(_, v) => v != 0,
        Scalar::Float(_, f) => f != 0.0,
    }
}

/// The value as an `f64` (integers above 2^53 rounded).
pub(crate) fn as_f64(x: Scalar) -> f64 {
    match x {
        Scalar::Int(_, v) => v as f64,
        Scalar::Float(_, f) => f,
    }
}

/// The value as an `i64` (integers saturate; used for indices).
pub(crate) fn as_i64(x: Scalar) -> i64 {
    match x {
        Scalar::Int(_, v) => v.clamp(i64::MIN as i128, i64::MAX as i128) as i64,
        Scalar::Float(_, f) => f as i64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn i(t: DType, v: i128) -> Scalar {
        Scalar::Int(t, v)
    }

    #[test]
    fn integer_edges_match_xla() {
        assert_eq!(binary(BinaryOp::Div, i(DType::S32, 7), i(DType::S32, 0)), Ok(i(DType::S32, -1)));
        assert_eq!(binary(BinaryOp::Div, i(DType::U8, 7), i(DType::U8, 0)), Ok(i(DType::U8, 255)));
        let min = i32::MIN as i128;
        assert_eq!(binary(BinaryOp::Div, i(DType::S32, min), i(DType::S32, -1)), Ok(i(DType::S32, min)));
        assert_eq!(binary(BinaryOp::Rem, i(DType::S32, min), i(DType::S32, -1)), Ok(i(DType::S32, 0)));
        assert_eq!(binary(BinaryOp::Shl, i(DType::S32, 7), i(DType::S32, -1)), Ok(i(DType::S32, 0)));
        assert_eq!(binary(BinaryOp::ShrArithmetic, i(DType::U8, 0x80), i(DType::U8, 1)), Ok(i(DType::U8, 0xc0)));
        assert_eq!(binary(BinaryOp::ShrLogical, i(DType::S32, -7), i(DType::S32, 1)), Ok(i(DType::S32, 2147483644)));
        assert_eq!(binary(BinaryOp::Pow, i(DType::S32, 3), i(DType::S32, 64)), Ok(i(DType::S32, 1)));
        assert_eq!(binary(BinaryOp::Pow, i(DType::S32, 1), i(DType::S32, -5)), Ok(i(DType::S32, 1)));
        assert_eq!(unary(UnaryOp::Abs, i(DType::S8, -128)), Ok(i(DType::S8, -128)));
        assert_eq!(unary(UnaryOp::Clz, i(DType::S32, 1)), Ok(i(DType::S32, 31)));
        assert_eq!(unary(UnaryOp::Popcnt, i(DType::S16, -1)), Ok(i(DType::S16, 16)));
    }

    #[test]
    fn floats_round_per_type_and_keep_nan_bits() {
        let one = Scalar::Float(DType::Bf16, 1.0);
        let tiny = Scalar::Float(DType::Bf16, 1.0 / 512.0);
        assert_eq!(binary(BinaryOp::Add, one, tiny), Ok(one));
        let snan = f32::from_bits(0x7f80_0001);
        let x = Scalar::Float(DType::F32, f32_to_f64(snan));
        assert_eq!(bitcast(x, DType::U32), Ok(i(DType::U32, 0x7f80_0001)));
        assert_eq!(convert(Scalar::Float(DType::F32, f64::NAN), DType::S32), i(DType::S32, 0));
        assert_eq!(convert(Scalar::Float(DType::F32, 3e9), DType::S32), i(DType::S32, i32::MAX as i128));
        let neg0 = Scalar::Float(DType::F32, -0.0);
        let pos0 = Scalar::Float(DType::F32, 0.0);
        assert!(matches!(binary(BinaryOp::Max, neg0, pos0), Ok(Scalar::Float(_, z)) if z.is_sign_positive()));
        let h = read(DType::F16, &[0x01, 0x7c]);
        let mut out = [0u8; 2];
        write(h, &mut out);
        assert_eq!(out, [0x01, 0x7c]);
    }
}
