//! What every scalar operation of the kernel form computes, on [`Scalar`] values.
//!
//! One definition serves the evaluator ([`crate::eval`]) and the lowering's
//! constant folding, and it follows the reference interpreter exactly
//! (`backends/interp/src/num.rs` and `edge.rs`): integers wrap, with XLA's
//! division, remainder, shift and power edge cases; f16, bf16 and f32 compute in
//! f32 and round to their own type after every operation, f64 in f64; float to
//! integer conversion saturates (NaN gives 0); maximum and minimum propagate NaN
//! and order -0 below +0.
//!
//! Representation: integers are held exactly in an `i128`, normalized to their
//! type (sign- or zero-extended), pred as 0 or 1; a float is held as the `f64`
//! with exactly its value. NaNs are converted bit by bit (payload and signalling
//! bit kept), so a bitcast of a NaN round-trips.

use half::{bf16, f16};
use smelt_hlo::DType;
use smelt_hlo::attrs::{CompareType, ComparisonDirection};

use crate::ir::{BinaryOp, Scalar, UnaryOp};

/// Why a scalar operation has no defined result (an operation the element type
/// does not support, or mixed operand types).
pub(crate) type SemResult<T> = Result<T, String>;

/// `v` wrapped into integer type `t` (pred: nonzero is 1).
pub(crate) fn wrap(t: DType, v: i128) -> i128 {
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
        DType::F16 | DType::Bf16 | DType::F32 | DType::F64 => v,
    }
}

/// The low `bits(t)` bits of `v`, as an unsigned number.
fn ubits(t: DType, v: i128) -> u128 {
    let w = t.bit_width() as u32;
    (v as u128) & (u128::MAX >> (128 - w))
}

/// The low `bits(t)` bits of `v`, read as a signed number.
fn sbits(t: DType, v: i128) -> i128 {
    let sh = 128 - t.bit_width() as u32;
    ((ubits(t, v) << sh) as i128) >> sh
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
        DType::F16 => {
            if v.is_nan() {
                let b = f64_to_f32(v).to_bits();
                let payload = ((b >> 13) & 0x3ff) as u16;
                let payload = if payload == 0 { 0x200 } else { payload };
                (((b >> 16) as u16 & 0x8000) | 0x7c00 | payload) as u64
            } else {
                f16::from_f64(v).to_bits() as u64
            }
        }
        DType::Bf16 => {
            if v.is_nan() {
                let b = f64_to_f32(v).to_bits();
                let payload = ((b >> 16) & 0x7f) as u16;
                let payload = if payload == 0 { 0x40 } else { payload };
                (((b >> 16) as u16 & 0x8000) | 0x7f80 | payload) as u64
            } else {
                bf16::from_f64(v).to_bits() as u64
            }
        }
        _ => 0,
    }
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

/// Reads one little-endian element of type `t`.
pub(crate) fn read(t: DType, bytes: &[u8]) -> Scalar {
    let mut b = [0u8; 8];
    let n = t.byte_size().min(bytes.len());
    b[..n].copy_from_slice(&bytes[..n]);
    let raw = u64::from_le_bytes(b);
    if t.is_float() { Scalar::Float(t, float_from_bits(t, raw)) } else { Scalar::Int(t, wrap(t, raw as i128)) }
}

/// Writes one little-endian element (of the scalar's own type).
pub(crate) fn write(x: Scalar, out: &mut [u8]) {
    let raw = match x {
        Scalar::Int(t, v) => ubits(t, v) as u64,
        Scalar::Float(t, v) => float_to_bits(t, v),
    };
    let n = x.dtype().byte_size().min(out.len());
    out[..n].copy_from_slice(&raw.to_le_bytes()[..n]);
}

/// A float result computed in f32, rounded to float type `t`.
fn round_f32(t: DType, r: f32) -> Scalar {
    let v = match t {
        DType::F16 => float_from_bits(t, f16::from_f32(r).to_bits() as u64),
        DType::Bf16 => float_from_bits(t, bf16::from_f32(r).to_bits() as u64),
        _ => f32_to_f64(r),
    };
    Scalar::Float(t, v)
}

/// The integer operations whose edge cases XLA defines, per `edge.rs`.
fn int_div(t: DType, a: i128, b: i128) -> i128 {
    if b == 0 { wrap(t, -1) } else { wrap(t, a / b) }
}

fn int_rem(t: DType, a: i128, b: i128) -> i128 {
    if b == 0 { a } else { wrap(t, a % b) }
}

fn shift_amount(t: DType, b: i128) -> Option<u32> {
    let a = ubits(t, b);
    (a < t.bit_width() as u128).then_some(a as u32)
}

fn int_pow(t: DType, base: i128, exponent: i128) -> i128 {
    let mut acc = 1i128;
    let mut b = base;
    let mut e = ubits(t, exponent);
    for _ in 0..6 {
        if e & 1 == 1 {
            acc = wrap(t, acc.wrapping_mul(b));
        }
        b = wrap(t, b.wrapping_mul(b));
        e >>= 1;
    }
    if sbits(t, exponent) >= 0 {
        acc
    } else if base == 1 {
        1
    } else {
        0
    }
}

macro_rules! float_ops {
    ($unary:ident, $binary:ident, $t:ty, $erf:path, $total:ident, $bits:ty, $ubits:ty) => {
        fn $unary(op: UnaryOp, x: $t) -> Option<$t> {
            Some(match op {
                UnaryOp::Abs => x.abs(),
                UnaryOp::Cbrt => x.cbrt(),
                UnaryOp::Ceil => x.ceil(),
                UnaryOp::Cos => x.cos(),
                UnaryOp::Erf => $erf(x),
                UnaryOp::Exp => x.exp(),
                UnaryOp::Expm1 => x.exp_m1(),
                UnaryOp::Floor => x.floor(),
                UnaryOp::Log => x.ln(),
                UnaryOp::Log1p => x.ln_1p(),
                // exp(-x) overflowing to inf gives exactly 0, as wanted.
                UnaryOp::Logistic => 1.0 / (1.0 + (-x).exp()),
                UnaryOp::Neg => -x,
                UnaryOp::RoundNearestAfz => x.round(),
                UnaryOp::RoundNearestEven => x.round_ties_even(),
                UnaryOp::Rsqrt => 1.0 / x.sqrt(),
                UnaryOp::Sign => {
                    if x.is_nan() || x == 0.0 {
                        x
                    } else if x > 0.0 {
                        1.0
                    } else {
                        -1.0
                    }
                }
                UnaryOp::Sin => x.sin(),
                UnaryOp::Sqrt => x.sqrt(),
                UnaryOp::Tan => x.tan(),
                UnaryOp::Tanh => x.tanh(),
                UnaryOp::Clz | UnaryOp::IsFinite | UnaryOp::Not | UnaryOp::Popcnt => return None,
            })
        }

        fn $binary(op: BinaryOp, x: $t, y: $t) -> Option<$t> {
            Some(match op {
                BinaryOp::Add => x + y,
                BinaryOp::Sub => x - y,
                BinaryOp::Mul => x * y,
                BinaryOp::Div => x / y,
                // C fmod: the result has the dividend's sign.
                BinaryOp::Rem => x % y,
                // NaN-propagating, with -0 < +0.
                BinaryOp::Max => {
                    if x.is_nan() {
                        x
                    } else if y.is_nan() {
                        y
                    } else if x > y {
                        x
                    } else if y > x {
                        y
                    } else if x.is_sign_negative() {
                        y
                    } else {
                        x
                    }
                }
                BinaryOp::Min => {
                    if x.is_nan() {
                        x
                    } else if y.is_nan() {
                        y
                    } else if x < y {
                        x
                    } else if y < x {
                        y
                    } else if x.is_sign_negative() {
                        x
                    } else {
                        y
                    }
                }
                BinaryOp::Pow => x.powf(y),
                BinaryOp::Atan2 => x.atan2(y),
                _ => return None,
            })
        }

        /// A key whose integer order is IEEE total order.
        fn $total(x: $t) -> i64 {
            let b = x.to_bits() as $bits;
            (b ^ ((((b >> (<$bits>::BITS - 1)) as $ubits) >> 1) as $bits)) as i64
        }
    };
}

float_ops!(unary_f32, binary_f32, f32, libm::erff, total_f32, i32, u32);
float_ops!(unary_f64, binary_f64, f64, libm::erf, total_f64, i64, u64);

fn unsupported<T>(what: &str, t: DType) -> SemResult<T> {
    Err(format!("{what} is not defined on {t}"))
}

pub(crate) fn unary(op: UnaryOp, x: Scalar) -> SemResult<Scalar> {
    match x {
        Scalar::Float(t, v) => {
            if op == UnaryOp::IsFinite {
                return Ok(Scalar::Int(DType::Pred, v.is_finite() as i128));
            }
            let r = if t == DType::F64 {
                unary_f64(op, v).map(|r| Scalar::Float(t, r))
            } else {
                unary_f32(op, f64_to_f32(v)).map(|r| round_f32(t, r))
            };
            r.map_or_else(|| unsupported(&format!("{op:?}"), t), Ok)
        }
        Scalar::Int(DType::Pred, v) => match op {
            UnaryOp::Not => Ok(Scalar::Int(DType::Pred, (v == 0) as i128)),
            _ => unsupported(&format!("{op:?}"), DType::Pred),
        },
        Scalar::Int(t, v) => {
            let signed = t.is_signed_int();
            let w = t.bit_width() as u32;
            let r = match op {
                UnaryOp::Abs => {
                    if signed {
                        wrap(t, v.abs())
                    } else {
                        v
                    }
                }
                UnaryOp::Neg => wrap(t, -v),
                UnaryOp::Not => wrap(t, !v),
                UnaryOp::Popcnt => ubits(t, v).count_ones() as i128,
                UnaryOp::Clz => (ubits(t, v).leading_zeros() - (128 - w)) as i128,
                UnaryOp::Sign => {
                    if signed {
                        v.signum()
                    } else {
                        (v != 0) as i128
                    }
                }
                _ => return unsupported(&format!("{op:?}"), t),
            };
            Ok(Scalar::Int(t, r))
        }
    }
}

pub(crate) fn binary(op: BinaryOp, a: Scalar, b: Scalar) -> SemResult<Scalar> {
    if a.dtype() != b.dtype() {
        return Err(format!("{op:?} of {} and {}", a.dtype(), b.dtype()));
    }
    match (a, b) {
        (Scalar::Float(t, x), Scalar::Float(_, y)) => {
            let r = if t == DType::F64 {
                binary_f64(op, x, y).map(|r| Scalar::Float(t, r))
            } else {
                binary_f32(op, f64_to_f32(x), f64_to_f32(y)).map(|r| round_f32(t, r))
            };
            r.map_or_else(|| unsupported(&format!("{op:?}"), t), Ok)
        }
        (Scalar::Int(DType::Pred, x), Scalar::Int(_, y)) => {
            // Pred arithmetic behaves like `u8(x) op u8(y) != 0`, as in XLA.
            let (x, y) = (x != 0, y != 0);
            let r = match op {
                BinaryOp::And | BinaryOp::Mul | BinaryOp::Min => x && y,
                BinaryOp::Or | BinaryOp::Add | BinaryOp::Max => x || y,
                BinaryOp::Xor => x ^ y,
                _ => return unsupported(&format!("{op:?}"), DType::Pred),
            };
            Ok(Scalar::Int(DType::Pred, r as i128))
        }
        (Scalar::Int(t, x), Scalar::Int(_, y)) => {
            let r = match op {
                BinaryOp::Add => wrap(t, x + y),
                BinaryOp::Sub => wrap(t, x - y),
                BinaryOp::Mul => wrap(t, x.wrapping_mul(y)),
                BinaryOp::Div => int_div(t, x, y),
                BinaryOp::Rem => int_rem(t, x, y),
                BinaryOp::Max => x.max(y),
                BinaryOp::Min => x.min(y),
                BinaryOp::And => x & y,
                BinaryOp::Or => x | y,
                BinaryOp::Xor => x ^ y,
                // Shift amounts are read as unsigned; too large ones give 0 or the sign fill.
                BinaryOp::Shl => shift_amount(t, y).map_or(0, |s| wrap(t, x << s)),
                BinaryOp::ShrArithmetic => {
                    let s = sbits(t, x);
                    wrap(t, shift_amount(t, y).map_or(if s < 0 { -1 } else { 0 }, |a| s >> a))
                }
                BinaryOp::ShrLogical => shift_amount(t, y).map_or(0, |a| wrap(t, (ubits(t, x) >> a) as i128)),
                BinaryOp::Pow => int_pow(t, x, y),
                BinaryOp::Atan2 => return unsupported("Atan2", t),
            };
            Ok(Scalar::Int(t, r))
        }
        _ => Err(format!("{op:?} of mixed operands")),
    }
}

fn ordered<T: PartialOrd>(dir: ComparisonDirection, x: T, y: T) -> bool {
    use ComparisonDirection as D;
    match dir {
        D::Eq => x == y,
        D::Ne => x != y,
        D::Lt => x < y,
        D::Le => x <= y,
        D::Gt => x > y,
        D::Ge => x >= y,
    }
}

pub(crate) fn compare(dir: ComparisonDirection, ty: Option<CompareType>, a: Scalar, b: Scalar) -> SemResult<bool> {
    if a.dtype() != b.dtype() {
        return Err(format!("compare of {} and {}", a.dtype(), b.dtype()));
    }
    Ok(match (a, b) {
        (Scalar::Float(t, x), Scalar::Float(_, y)) => {
            let total = ty == Some(CompareType::TotalOrder);
            if t == DType::F64 {
                if total { ordered(dir, total_f64(x), total_f64(y)) } else { ordered(dir, x, y) }
            } else {
                let (x, y) = (f64_to_f32(x), f64_to_f32(y));
                if total { ordered(dir, total_f32(x), total_f32(y)) } else { ordered(dir, x, y) }
            }
        }
        (Scalar::Int(t, x), Scalar::Int(_, y)) => match ty {
            _ if t == DType::Pred => ordered(dir, x, y),
            Some(CompareType::Unsigned) => ordered(dir, ubits(t, x), ubits(t, y)),
            Some(CompareType::Signed) => ordered(dir, sbits(t, x), sbits(t, y)),
            _ => ordered(dir, x, y),
        },
        _ => return Err("compare of mixed operands".into()),
    })
}

/// `convert`: integers wrap, float to integer saturates (NaN gives 0), float
/// narrowing rounds to nearest even, anything nonzero (NaN included) is true.
pub(crate) fn convert(x: Scalar, to: DType) -> Scalar {
    match x {
        Scalar::Int(_, i) => {
            if to.is_float() {
                let v = match to {
                    DType::F32 => i as f32 as f64,
                    DType::F64 => i as f64,
                    // XLA (and the interpreter) go through f64.
                    _ => float_from_bits(to, float_to_bits(to, i as f64)),
                };
                Scalar::Float(to, v)
            } else {
                Scalar::Int(to, wrap(to, i))
            }
        }
        Scalar::Float(_, f) => {
            let i = match to {
                DType::Pred => (f != 0.0) as i128,
                DType::S8 => f as i8 as i128,
                DType::S16 => f as i16 as i128,
                DType::S32 => f as i32 as i128,
                DType::S64 => f as i64 as i128,
                DType::U8 => f as u8 as i128,
                DType::U16 => f as u16 as i128,
                DType::U32 => f as u32 as i128,
                DType::U64 => f as u64 as i128,
                DType::F32 => return Scalar::Float(to, f32_to_f64(f64_to_f32(f))),
                DType::F64 => return Scalar::Float(to, f),
                DType::F16 | DType::Bf16 => return Scalar::Float(to, float_from_bits(to, float_to_bits(to, f))),
            };
            Scalar::Int(to, i)
        }
    }
}

/// Reinterprets the bits of `x` as type `to` of the same width.
pub(crate) fn bitcast(x: Scalar, to: DType) -> SemResult<Scalar> {
    if x.dtype().byte_size() != to.byte_size() {
        return Err(format!("bitcast from {} to {to} changes the width", x.dtype()));
    }
    let mut bytes = [0u8; 8];
    write(x, &mut bytes);
    Ok(read(to, &bytes))
}

/// `clamp(lo, x, hi) = min(hi, max(lo, x))`.
pub(crate) fn clamp(lo: Scalar, x: Scalar, hi: Scalar) -> SemResult<Scalar> {
    let m = binary(BinaryOp::Max, lo, x)?;
    binary(BinaryOp::Min, hi, m)
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
