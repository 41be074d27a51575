//! Per-element semantics of every element type: arithmetic, comparison and
//! conversion, shared by the array kernels and the scalar programs.
//!
//! [`Elem`] is implemented for each storage type. Floats compute in [`Calc`]
//! (`f32` for f16, bf16 and f32; `f64` for f64) and round back to their own type
//! after every operation, as XLA CPU does. Integers wrap. The edge cases come
//! from [`crate::edge`]. Kernels check `unary_ok`/`binary_ok` once per array, so
//! the per-element functions never fail.

use std::ops::{Add, Div, Mul, Neg, Rem, Sub};

use half::{bf16, f16};
use smelt_hlo::Element;
use smelt_hlo::Opcode;
use smelt_hlo::attrs::{CompareType, ComparisonDirection};

use crate::edge::{self, XlaInt};

/// A value on its way through `convert`: integers and pred exactly, floats
/// widened (exactly) to f64.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Cast {
    Int(i128),
    Float(f64),
}

/// The float type arithmetic is carried out in.
pub trait Calc:
    Copy
    + PartialOrd
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Rem<Output = Self>
    + Neg<Output = Self>
{
    const ZERO: Self;
    const ONE: Self;
    /// f64 (the compute type of f64) rather than f32.
    const WIDE: bool;
    fn is_nan(self) -> bool;
    fn is_subnormal(self) -> bool;
    /// A subnormal as the zero of its sign, anything else unchanged: what the
    /// FTZ and DAZ modes XLA CPU runs with do to operands and results
    /// (see [`crate::edge`]).
    fn flush(self) -> Self;
    fn is_finite(self) -> bool;
    fn is_sign_negative(self) -> bool;
    fn abs(self) -> Self;
    fn cbrt(self) -> Self;
    fn ceil(self) -> Self;
    fn floor(self) -> Self;
    fn cos(self) -> Self;
    fn sin(self) -> Self;
    fn tan(self) -> Self;
    fn tanh(self) -> Self;
    fn exp(self) -> Self;
    fn exp_m1(self) -> Self;
    fn ln(self) -> Self;
    fn ln_1p(self) -> Self;
    fn sqrt(self) -> Self;
    fn round(self) -> Self;
    fn round_ties_even(self) -> Self;
    fn erf(self) -> Self;
    fn powf(self, y: Self) -> Self;
    fn atan2(self, x: Self) -> Self;
    fn to_f64(self) -> f64;
    /// A key whose integer order is IEEE total order:
    /// -NaN < -inf < ... < -0 < +0 < ... < inf < +NaN.
    fn total_key(self) -> i64;
}

macro_rules! calc {
    ($t:ty, $bits:ty, $ubits:ty, $erf:path, $wide:expr) => {
        impl Calc for $t {
            const ZERO: Self = 0.0;
            const ONE: Self = 1.0;
            const WIDE: bool = $wide;
            #[inline]
            fn is_nan(self) -> bool {
                <$t>::is_nan(self)
            }
            #[inline]
            fn is_subnormal(self) -> bool {
                <$t>::is_subnormal(self)
            }
            #[inline]
            fn flush(self) -> Self {
                if <$t>::is_subnormal(self) { (0.0 as $t).copysign(self) } else { self }
            }
            #[inline]
            fn is_finite(self) -> bool {
                <$t>::is_finite(self)
            }
            #[inline]
            fn is_sign_negative(self) -> bool {
                <$t>::is_sign_negative(self)
            }
            #[inline]
            fn abs(self) -> Self {
                <$t>::abs(self)
            }
            fn cbrt(self) -> Self {
                <$t>::cbrt(self)
            }
            fn ceil(self) -> Self {
                <$t>::ceil(self)
            }
            fn floor(self) -> Self {
                <$t>::floor(self)
            }
            fn cos(self) -> Self {
                <$t>::cos(self)
            }
            fn sin(self) -> Self {
                <$t>::sin(self)
            }
            fn tan(self) -> Self {
                <$t>::tan(self)
            }
            fn tanh(self) -> Self {
                <$t>::tanh(self)
            }
            fn exp(self) -> Self {
                <$t>::exp(self)
            }
            fn exp_m1(self) -> Self {
                <$t>::exp_m1(self)
            }
            fn ln(self) -> Self {
                <$t>::ln(self)
            }
            fn ln_1p(self) -> Self {
                <$t>::ln_1p(self)
            }
            fn sqrt(self) -> Self {
                <$t>::sqrt(self)
            }
            fn round(self) -> Self {
                <$t>::round(self)
            }
            fn round_ties_even(self) -> Self {
                <$t>::round_ties_even(self)
            }
            fn erf(self) -> Self {
                $erf(self)
            }
            fn powf(self, y: Self) -> Self {
                <$t>::powf(self, y)
            }
            fn atan2(self, x: Self) -> Self {
                <$t>::atan2(self, x)
            }
            #[inline]
            fn to_f64(self) -> f64 {
                self as f64
            }
            #[inline]
            fn total_key(self) -> i64 {
                let b = self.to_bits() as $bits;
                // Negative floats: flip the magnitude bits so larger magnitudes sort lower.
                (b ^ ((((b >> (<$bits>::BITS - 1)) as $ubits) >> 1) as $bits)) as i64
            }
        }
    };
}

calc!(f32, i32, u32, libm::erff, false);
calc!(f64, i64, u64, libm::erf, true);

/// Which float unary opcodes exist.
fn float_unary_ok(op: Opcode) -> bool {
    use Opcode as O;
    matches!(
        op,
        O::Abs
            | O::Cbrt
            | O::Ceil
            | O::Cosine
            | O::Erf
            | O::Exp
            | O::Expm1
            | O::Floor
            | O::Log
            | O::Log1p
            | O::Logistic
            | O::Negate
            | O::RoundNearestAfz
            | O::RoundNearestEven
            | O::Rsqrt
            | O::Sign
            | O::Sine
            | O::Sqrt
            | O::Tan
            | O::Tanh
            | O::Copy
    )
}

fn float_binary_ok(op: Opcode) -> bool {
    use Opcode as O;
    matches!(
        op,
        O::Add | O::Subtract | O::Multiply | O::Divide | O::Remainder | O::Maximum | O::Minimum | O::Power | O::Atan2
    )
}

/// A float unary op in the compute type, in XLA CPU's floating-point
/// environment (subnormal operands and results flushed, see [`crate::edge`]).
#[inline]
pub fn float_unary<C: Calc>(op: Opcode, x: C) -> C {
    use Opcode as O;
    match op {
        // Bit operations: nothing is flushed.
        O::Abs => return x.abs(),
        O::Negate => return -x,
        O::Copy => return x,
        _ if x.is_subnormal() && edge::returns_tiny_argument(op, C::WIDE) => return x,
        _ => {}
    }
    let x = x.flush();
    let y = match op {
        O::Abs => x.abs(),
        O::Cbrt => x.cbrt(),
        O::Ceil => x.ceil(),
        O::Cosine => x.cos(),
        O::Erf => x.erf(),
        O::Exp => x.exp(),
        O::Expm1 => x.exp_m1(),
        O::Floor => x.floor(),
        O::Log => x.ln(),
        O::Log1p => x.ln_1p(),
        // exp(-x) overflowing to inf gives exactly 0, as wanted.
        O::Logistic => C::ONE / (C::ONE + (-x).exp()),
        O::Negate => -x,
        O::RoundNearestAfz => x.round(),
        O::RoundNearestEven => x.round_ties_even(),
        O::Rsqrt => C::ONE / x.sqrt(),
        O::Sign => edge::float_sign(x),
        O::Sine => x.sin(),
        O::Sqrt => x.sqrt(),
        O::Tan => x.tan(),
        O::Tanh => x.tanh(),
        _ => x,
    };
    y.flush()
}

/// A float binary op in the compute type, in XLA CPU's floating-point
/// environment (subnormal operands and results flushed, see [`crate::edge`]).
#[inline]
pub fn float_binary<C: Calc>(op: Opcode, x: C, y: C) -> C {
    use Opcode as O;
    let (x, y) = (x.flush(), y.flush());
    let z = match op {
        O::Add => x + y,
        O::Subtract => x - y,
        O::Multiply => x * y,
        O::Divide => x / y,
        // C fmod: the result has the dividend's sign.
        O::Remainder => x % y,
        O::Maximum => edge::float_max(x, y),
        O::Minimum => edge::float_min(x, y),
        // C pow: pow(x, 0) = 1 for every x, NaN included.
        O::Power => x.powf(y),
        O::Atan2 => x.atan2(y),
        _ => x,
    };
    z.flush()
}

#[inline]
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

/// XLA's `clamp(lo, x, hi) = min(hi, max(lo, x))`, with `max`/`min` as the
/// type defines them (NaN propagates for floats).
#[inline]
pub(crate) fn clamp<T: Elem>(lo: T, x: T, hi: T) -> T {
    T::binary(Opcode::Minimum, hi, T::binary(Opcode::Maximum, lo, x))
}

/// Semantics of one element type.
pub(crate) trait Elem: Element {
    fn unary_ok(op: Opcode) -> bool;
    fn binary_ok(op: Opcode) -> bool;
    fn unary(op: Opcode, x: Self) -> Self;
    fn binary(op: Opcode, x: Self, y: Self) -> Self;
    fn compare(dir: ComparisonDirection, ty: Option<CompareType>, x: Self, y: Self) -> bool;
    /// Integers and pred are always finite.
    fn is_finite(self) -> bool {
        true
    }
    fn cast(self) -> Cast;
    fn from_cast(c: Cast) -> Self;
}

macro_rules! float_elem {
    ($t:ty, $c:ty, $up:expr, $down:expr, $from_cast:expr) => {
        impl Elem for $t {
            fn unary_ok(op: Opcode) -> bool {
                float_unary_ok(op)
            }
            fn binary_ok(op: Opcode) -> bool {
                float_binary_ok(op)
            }
            #[inline]
            fn unary(op: Opcode, x: Self) -> Self {
                let up: fn($t) -> $c = $up;
                let down: fn($c) -> $t = $down;
                down(float_unary(op, up(x)))
            }
            #[inline]
            fn binary(op: Opcode, x: Self, y: Self) -> Self {
                let up: fn($t) -> $c = $up;
                let down: fn($c) -> $t = $down;
                down(float_binary(op, up(x), up(y)))
            }
            #[inline]
            fn compare(dir: ComparisonDirection, ty: Option<CompareType>, x: Self, y: Self) -> bool {
                let up: fn($t) -> $c = $up;
                let (a, b) = (up(x), up(y));
                if ty == Some(CompareType::TotalOrder) {
                    // An integer comparison of the bits: nothing is flushed.
                    ordered(dir, a.total_key(), b.total_key())
                } else {
                    ordered(dir, a.flush(), b.flush())
                }
            }
            #[inline]
            fn is_finite(self) -> bool {
                let up: fn($t) -> $c = $up;
                Calc::is_finite(up(self))
            }
            #[inline]
            fn cast(self) -> Cast {
                let up: fn($t) -> $c = $up;
                Cast::Float(Calc::to_f64(up(self)))
            }
            #[inline]
            fn from_cast(c: Cast) -> Self {
                let f: fn(Cast) -> $t = $from_cast;
                f(c)
            }
        }
    };
}

float_elem!(f32, f32, |x| x, |x| x, |c| match c {
    Cast::Int(i) => i as f32,
    Cast::Float(f) => f as f32,
});
float_elem!(f64, f64, |x| x, |x| x, |c| match c {
    Cast::Int(i) => i as f64,
    Cast::Float(f) => f,
});
float_elem!(f16, f32, f16::to_f32, f16::from_f32, |c| match c {
    Cast::Int(i) => f16::from_f64(i as f64),
    Cast::Float(f) => f16::from_f64(f),
});
float_elem!(bf16, f32, bf16::to_f32, bf16::from_f32, |c| match c {
    Cast::Int(i) => bf16::from_f64(i as f64),
    Cast::Float(f) => bf16::from_f64(f),
});

macro_rules! int_elem {
    ($t:ty, $s:ty, $u:ty, $signed:expr) => {
        impl Elem for $t {
            fn unary_ok(op: Opcode) -> bool {
                use Opcode as O;
                matches!(op, O::Abs | O::Negate | O::Not | O::Popcnt | O::Clz | O::Sign | O::Copy)
            }
            fn binary_ok(op: Opcode) -> bool {
                use Opcode as O;
                matches!(
                    op,
                    O::Add
                        | O::Subtract
                        | O::Multiply
                        | O::Divide
                        | O::Remainder
                        | O::Maximum
                        | O::Minimum
                        | O::And
                        | O::Or
                        | O::Xor
                        | O::ShiftLeft
                        | O::ShiftRightArithmetic
                        | O::ShiftRightLogical
                        | O::Power
                )
            }
            #[inline]
            fn unary(op: Opcode, x: Self) -> Self {
                use Opcode as O;
                match op {
                    // Unsigned values are their own absolute value; INT_MIN wraps to itself.
                    O::Abs => {
                        if $signed {
                            (x as $s).wrapping_abs() as $t
                        } else {
                            x
                        }
                    }
                    O::Negate => x.wrapping_neg(),
                    O::Not => !x,
                    O::Popcnt => x.count_ones() as $t,
                    O::Clz => x.leading_zeros() as $t,
                    O::Sign => {
                        if $signed {
                            (x as $s).signum() as $t
                        } else {
                            (x != 0) as $t
                        }
                    }
                    _ => x,
                }
            }
            #[inline]
            fn binary(op: Opcode, x: Self, y: Self) -> Self {
                use Opcode as O;
                match op {
                    O::Add => x.wrapping_add(y),
                    O::Subtract => x.wrapping_sub(y),
                    O::Multiply => x.wrapping_mul(y),
                    O::Divide => x.xla_div(y),
                    O::Remainder => x.xla_rem(y),
                    O::Maximum => {
                        if x >= y {
                            x
                        } else {
                            y
                        }
                    }
                    O::Minimum => {
                        if x <= y {
                            x
                        } else {
                            y
                        }
                    }
                    O::And => x & y,
                    O::Or => x | y,
                    O::Xor => x ^ y,
                    O::ShiftLeft => x.xla_shl(y),
                    O::ShiftRightArithmetic => x.xla_shr_arithmetic(y),
                    O::ShiftRightLogical => x.xla_shr_logical(y),
                    O::Power => x.xla_pow(y),
                    _ => x,
                }
            }
            #[inline]
            fn compare(dir: ComparisonDirection, ty: Option<CompareType>, x: Self, y: Self) -> bool {
                match ty {
                    Some(CompareType::Unsigned) => ordered(dir, x as $u, y as $u),
                    Some(CompareType::Signed) => ordered(dir, x as $s, y as $s),
                    _ => ordered(dir, x, y),
                }
            }
            #[inline]
            fn cast(self) -> Cast {
                Cast::Int(self as i128)
            }
            #[inline]
            fn from_cast(c: Cast) -> Self {
                match c {
                    // Integer -> integer wraps (keeps the low bits).
                    Cast::Int(i) => i as $t,
                    // Float -> integer saturates, NaN -> 0 (see edge.rs).
                    Cast::Float(f) => f as $t,
                }
            }
        }
    };
}

int_elem!(i8, i8, u8, true);
int_elem!(i16, i16, u16, true);
int_elem!(i32, i32, u32, true);
int_elem!(i64, i64, u64, true);
int_elem!(u8, i8, u8, false);
int_elem!(u16, i16, u16, false);
int_elem!(u32, i32, u32, false);
int_elem!(u64, i64, u64, false);

impl Elem for bool {
    fn unary_ok(op: Opcode) -> bool {
        matches!(op, Opcode::Not | Opcode::Copy)
    }
    fn binary_ok(op: Opcode) -> bool {
        use Opcode as O;
        // Pred arithmetic behaves like `u8(x) op u8(y) != 0`, as in XLA.
        matches!(op, O::And | O::Or | O::Xor | O::Add | O::Maximum | O::Multiply | O::Minimum)
    }
    #[inline]
    fn unary(op: Opcode, x: Self) -> Self {
        match op {
            Opcode::Not => !x,
            _ => x,
        }
    }
    #[inline]
    fn binary(op: Opcode, x: Self, y: Self) -> Self {
        use Opcode as O;
        match op {
            O::And | O::Multiply | O::Minimum => x && y,
            O::Or | O::Add | O::Maximum => x || y,
            O::Xor => x ^ y,
            _ => x,
        }
    }
    #[inline]
    fn compare(dir: ComparisonDirection, _ty: Option<CompareType>, x: Self, y: Self) -> bool {
        ordered(dir, x as u8, y as u8)
    }
    #[inline]
    fn cast(self) -> Cast {
        Cast::Int(self as i128)
    }
    #[inline]
    fn from_cast(c: Cast) -> Self {
        match c {
            Cast::Int(i) => i != 0,
            // NaN is not zero, so it converts to true.
            Cast::Float(f) => f != 0.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn total_order_keys() {
        let order = [
            -f32::NAN,
            f32::NEG_INFINITY,
            -1.0,
            -f32::MIN_POSITIVE,
            -0.0,
            0.0,
            f32::MIN_POSITIVE,
            1.0,
            f32::INFINITY,
            f32::NAN,
        ];
        for w in order.windows(2) {
            assert!(w[0].total_key() < w[1].total_key(), "{} < {}", w[0], w[1]);
        }
        assert!((-1.0f64).total_key() < (-0.0f64).total_key());
    }

    #[test]
    fn conversions_saturate_and_wrap() {
        assert_eq!(i32::from_cast(f32::NAN.cast()), 0);
        assert_eq!(i32::from_cast(3e9f32.cast()), i32::MAX);
        assert_eq!(u8::from_cast((-2.5f32).cast()), 0);
        assert_eq!(u8::from_cast(300i32.cast()), 44);
        assert_eq!(i8::from_cast(200u8.cast()), -56);
        assert!(bool::from_cast(f32::NAN.cast()));
        assert_eq!(f16::from_cast((1.0f32 + 1.0 / 1024.0).cast()), f16::from_f32(1.0 + 1.0 / 1024.0));
        // Round to nearest even on narrowing: 1 + 2^-8 is halfway between bf16 neighbours.
        assert_eq!(bf16::from_cast((1.0f32 + 1.0 / 256.0).cast()), bf16::ONE);
    }

    #[test]
    fn half_arithmetic_rounds_after_each_op() {
        let a = bf16::from_f32(1.0);
        let b = bf16::from_f32(1.0 / 512.0);
        // 1 + 2^-9 rounds back to 1 in bf16.
        assert_eq!(bf16::binary(Opcode::Add, a, b), a);
    }

    #[test]
    fn integer_unary_ops() {
        assert_eq!(u8::unary(Opcode::Abs, 200), 200);
        assert_eq!(i8::unary(Opcode::Abs, -128), -128);
        assert_eq!(u8::unary(Opcode::Negate, 1), 255);
        assert_eq!(i32::unary(Opcode::Clz, -1), 0);
        assert_eq!(i32::unary(Opcode::Clz, 1), 31);
        assert_eq!(u16::unary(Opcode::Popcnt, 0xffff), 16);
        assert_eq!(u8::unary(Opcode::Sign, 7), 1);
        assert_eq!(i8::unary(Opcode::Sign, -7), -1);
    }

    #[test]
    fn pred_ops() {
        assert!(bool::binary(Opcode::Add, true, true));
        assert!(!bool::binary(Opcode::Multiply, true, false));
        assert!(bool::compare(ComparisonDirection::Lt, None, false, true));
    }
}
