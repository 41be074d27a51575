//! Edge-case semantics, as XLA CPU implements them.
//!
//! These are the places where "the obvious arithmetic" is undefined or differs
//! between implementations; XLA defines them, and every smelt backend must agree
//! with the interpreter, so they live in one place with the reason for each. The
//! corpus case `edge_semantics` (reference outputs from XLA CPU) checks them.
//!
//! Floats:
//! - `maximum`/`minimum` propagate NaN (either operand NaN gives NaN) and order
//!   `-0 < +0` (IEEE 754-2019 maximum/minimum, LLVM's `llvm.maximum`): so
//!   `max(-0, +0) = +0` and `min(-0, +0) = -0`, whatever the operand order.
//! - `sign(NaN) = NaN`, `sign(±0) = ±0`, otherwise ±1.
//! - `remainder` is C `fmod` (result has the sign of the dividend).
//! - `round-nearest-afz` rounds halves away from zero, `round-nearest-even` to even.
//! - float -> int `convert` saturates to the integer range and maps NaN to 0
//!   (Rust's `as` does exactly this, see `num::Elem::from_cast`).
//!
//! - f16 and bf16 arithmetic is carried out in f32 and rounded (to nearest even)
//!   after every operation; `dot` and `convolution` accumulate f16/bf16 products
//!   in f32 and round once at the end (see `num` and `dot`).
//!
//! Subnormals: XLA CPU runs its generated code with the FTZ and DAZ bits of
//! MXCSR set (FPCR.FZ on AArch64), and smelt's compiled backends do the same
//! (`smelt_runtime::fpenv`). The interpreter models the effect ([`Calc::flush`]):
//! - every f32 and f64 arithmetic operation (the math functions, `compare`
//!   other than TOTALORDER, `dot`, `convolution` and the reducers included)
//!   reads a subnormal operand as the zero of its sign and writes a subnormal
//!   result as the zero of its sign: `log(1e-40) = -inf`, `1e-40 > 0` is false,
//!   `exp(-88) = 0`, `sqrt(-1e-40) = -0`. f16 and bf16 arithmetic runs in f32, so
//!   bf16 subnormals (subnormal in f32 too) flush and f16 ones (normal in f32)
//!   do not.
//! - bit operations flush nothing: `abs`, `negate`, `copy`, `select`,
//!   `bitcast-convert`, TOTALORDER compares, data movement, and the
//!   conversions between f32 and f16/bf16 (done on the bits: `f32 1e-40` is
//!   the bf16 subnormal `0x0001`). A conversion through the f32 <-> f64
//!   instruction flushes ([`subnormal_convert`]).
//! - `sine`, `tan`, `exponential-minus-one` and the f32 `tanh` return a
//!   subnormal argument unchanged ([`returns_tiny_argument`]): XLA's
//!   implementations pass tiny arguments through by a select before any
//!   arithmetic reads them (measured with JAX 0.10.2: `sin(1e-40) = 1e-40`,
//!   `tanh(1e-40) = 1e-40` in f32 and `0` in f64, `log1p(1e-40) = 0`).
//!   `atan2` flushes (`atan2(5e-39, 2) = 0`; XLA's `atan2(y, 1)`, which
//!   `jnp.arctan` lowers to, keeps `y` only because LLVM folds `y / 1`).
//!
//! Where XLA's own code reads the bits of a subnormal as if it were normal (its
//! f32 `cbrt` returns -5.6e-16, its f32 `log` -103.97 on some vector lengths),
//! smelt computes `f(±0)`. Constant folding does not flush (XLA's evaluator
//! does not either).
//!
//! Integers (two's complement, wrapping add/sub/mul/negate/abs):
//! - `x / 0 = -1` (all ones; `u::MAX` for unsigned), `INT_MIN / -1 = INT_MIN`.
//! - `x % 0 = x`, `INT_MIN % -1 = 0`.
//! - Shift amounts are read as unsigned: an amount `>= bit width` (negative ones
//!   included) gives 0 for `shift-left` and `shift-right-logical`, and the sign fill
//!   (0 or -1) for `shift-right-arithmetic`. Arithmetic shifts of unsigned types
//!   shift the bits as if signed; logical shifts of signed types as if unsigned.
//! - `power` is exponentiation by squaring over the low 6 bits of the exponent
//!   (XLA CPU unrolls six steps: any larger exponent overflows anyway); a negative
//!   exponent (its bits read as signed) gives 1 for base 1 and 0 otherwise.

use smelt_hlo::{DType, Opcode};

use crate::num::{Calc, Cast};

/// Whether float unary `op` returns a subnormal argument unchanged; `wide`:
/// in f64.
#[inline]
pub fn returns_tiny_argument(op: Opcode, wide: bool) -> bool {
    matches!(op, Opcode::Sine | Opcode::Tan | Opcode::Expm1) || (op == Opcode::Tanh && !wide)
}

/// `convert` from `from` to `to` of value `c`, in XLA CPU's floating-point
/// environment: f32 (and bf16, widened on the bits) to f64, and f64 to f32,
/// run the f32 <-> f64 instruction, which reads a subnormal f32 as zero and
/// writes a subnormal f32 result as zero (tininess after rounding, as x86 and
/// AArch64 detect it). A conversion to pred is `x != 0`, a compare, which
/// reads an f32, bf16 or f64 subnormal as zero (an f16 one is normal in f32).
/// Every other conversion is exact, done on the bits, or (f64 to f16) cannot
/// produce an f32 subnormal's worth of value.
#[inline]
pub fn subnormal_convert(from: DType, to: DType, c: Cast) -> Cast {
    let f32_subnormal =
        matches!((from, to), (DType::F32 | DType::Bf16, DType::F64 | DType::Pred) | (DType::F64, DType::F32));
    let f64_subnormal = matches!((from, to), (DType::F64, DType::F32 | DType::Pred));
    match c {
        Cast::Float(v) if f32_subnormal && (v as f32).is_subnormal() => Cast::Float(0.0f64.copysign(v)),
        Cast::Float(v) if f64_subnormal && v.is_subnormal() => Cast::Float(0.0f64.copysign(v)),
        c => c,
    }
}

/// NaN-propagating maximum with `-0 < +0`.
#[inline]
pub fn float_max<C: Calc>(a: C, b: C) -> C {
    if a.is_nan() {
        a
    } else if b.is_nan() {
        b
    } else if a > b {
        a
    } else if b > a {
        b
    } else if a.is_sign_negative() {
        // Equal: only ±0 can differ, and +0 wins.
        b
    } else {
        a
    }
}

/// NaN-propagating minimum with `-0 < +0`.
#[inline]
pub fn float_min<C: Calc>(a: C, b: C) -> C {
    if a.is_nan() {
        a
    } else if b.is_nan() {
        b
    } else if a < b {
        a
    } else if b < a {
        b
    } else if a.is_sign_negative() {
        a
    } else {
        b
    }
}

/// `sign`: NaN and ±0 map to themselves, everything else to ±1.
#[inline]
pub fn float_sign<C: Calc>(x: C) -> C {
    if x.is_nan() || x == C::ZERO {
        x
    } else if x > C::ZERO {
        C::ONE
    } else {
        -C::ONE
    }
}

/// The integer operations whose edge cases XLA defines.
pub trait XlaInt: Copy {
    fn xla_div(self, rhs: Self) -> Self;
    fn xla_rem(self, rhs: Self) -> Self;
    fn xla_shl(self, amount: Self) -> Self;
    fn xla_shr_arithmetic(self, amount: Self) -> Self;
    fn xla_shr_logical(self, amount: Self) -> Self;
    fn xla_pow(self, exponent: Self) -> Self;
}

macro_rules! xla_int {
    ($t:ty, $s:ty, $u:ty) => {
        impl XlaInt for $t {
            #[inline]
            fn xla_div(self, rhs: Self) -> Self {
                if rhs == 0 {
                    // All ones: -1 for signed types, MAX for unsigned ones.
                    !0
                } else {
                    // Wrapping covers INT_MIN / -1 = INT_MIN.
                    self.wrapping_div(rhs)
                }
            }

            #[inline]
            fn xla_rem(self, rhs: Self) -> Self {
                if rhs == 0 {
                    self
                } else {
                    // Wrapping covers INT_MIN % -1 = 0.
                    self.wrapping_rem(rhs)
                }
            }

            #[inline]
            fn xla_shl(self, amount: Self) -> Self {
                let a = amount as $u;
                if a >= <$t>::BITS as $u { 0 } else { self << a }
            }

            #[inline]
            fn xla_shr_arithmetic(self, amount: Self) -> Self {
                let a = amount as $u;
                let signed = self as $s;
                if a >= <$t>::BITS as $u { (if signed < 0 { -1 as $s } else { 0 }) as $t } else { (signed >> a) as $t }
            }

            #[inline]
            fn xla_shr_logical(self, amount: Self) -> Self {
                let a = amount as $u;
                if a >= <$t>::BITS as $u { 0 } else { ((self as $u) >> a) as $t }
            }

            #[inline]
            fn xla_pow(self, exponent: Self) -> Self {
                let mut acc: $t = 1;
                let mut base = self;
                let mut e = exponent as $u;
                for _ in 0..6 {
                    if e & 1 == 1 {
                        acc = acc.wrapping_mul(base);
                    }
                    base = base.wrapping_mul(base);
                    e >>= 1;
                }
                if exponent as $s >= 0 {
                    acc
                } else if self == 1 {
                    1
                } else {
                    0
                }
            }
        }
    };
}

xla_int!(i8, i8, u8);
xla_int!(i16, i16, u16);
xla_int!(i32, i32, u32);
xla_int!(i64, i64, u64);
xla_int!(u8, i8, u8);
xla_int!(u16, i16, u16);
xla_int!(u32, i32, u32);
xla_int!(u64, i64, u64);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_division_edges() {
        assert_eq!(7i32.xla_div(0), -1);
        assert_eq!(7u8.xla_div(0), 255);
        assert_eq!(i32::MIN.xla_div(-1), i32::MIN);
        assert_eq!((-7i32).xla_div(2), -3);
        assert_eq!(7i32.xla_rem(0), 7);
        assert_eq!((-7i32).xla_rem(0), -7);
        assert_eq!(i32::MIN.xla_rem(-1), 0);
        assert_eq!((-7i32).xla_rem(3), -1);
    }

    #[test]
    fn shifts_out_of_range() {
        assert_eq!(7i32.xla_shl(31), i32::MIN);
        assert_eq!(7i32.xla_shl(32), 0);
        assert_eq!(7i32.xla_shl(-1), 0);
        assert_eq!(i32::MIN.xla_shr_arithmetic(32), -1);
        assert_eq!(5i32.xla_shr_arithmetic(33), 0);
        assert_eq!((-1i32).xla_shr_arithmetic(100), -1);
        assert_eq!((-7i32).xla_shr_logical(1), 2147483644);
        assert_eq!((-7i32).xla_shr_logical(-32), 0);
        // Arithmetic shift of an unsigned value fills with its top bit.
        assert_eq!(0x80u8.xla_shr_arithmetic(1), 0xc0);
    }

    #[test]
    fn integer_power() {
        assert_eq!(3i32.xla_pow(4), 81);
        assert_eq!(2i32.xla_pow(31), i32::MIN);
        assert_eq!(1i32.xla_pow(-5), 1);
        assert_eq!((-1i32).xla_pow(-5), 0);
        assert_eq!(5i32.xla_pow(-1), 0);
        assert_eq!(0i32.xla_pow(0), 1);
        // Only the low 6 exponent bits count, as in XLA CPU's unrolled loop.
        assert_eq!(3i32.xla_pow(64), 1);
    }

    #[test]
    fn float_max_min_order_signed_zeros_and_propagate_nan() {
        assert!(float_max(f32::NAN, 1.0).is_nan());
        assert!(float_min(1.0, f32::NAN).is_nan());
        assert!(float_max(-0.0f32, 0.0).is_sign_positive());
        assert!(float_max(0.0f32, -0.0).is_sign_positive());
        assert!(float_min(-0.0f32, 0.0).is_sign_negative());
        assert!(float_min(0.0f32, -0.0).is_sign_negative());
        assert_eq!(float_max(-1.0f32, 2.0), 2.0);
    }

    #[test]
    fn float_sign_keeps_zeros_and_nan() {
        assert!(float_sign(-0.0f32).is_sign_negative());
        assert_eq!(float_sign(-0.0f32), 0.0);
        assert!(float_sign(f32::NAN).is_nan());
        assert_eq!(float_sign(-3.0f32), -1.0);
        assert_eq!(float_sign(f32::INFINITY), 1.0);
    }
}
