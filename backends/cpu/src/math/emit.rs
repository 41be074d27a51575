//! A small straight-line IR emitter for scalar float code: arithmetic, compares,
//! selects, integer views of the bits, and the few intrinsics every target
//! vectorizes (`fmuladd`, `fabs`, `copysign`, `sqrt`). Nothing here emits a branch,
//! a loop or a library call.
//!
//! Plain `fmul`/`fadd` are never contracted by LLVM (no fast-math flags), so exact
//! tricks (Cody-Waite, Dekker products, two-sums) stay exact. Polynomials use
//! `llvm.fmuladd`, which the target may or may not fuse; every approximation here
//! is accurate either way, and the tests run both.

use inkwell::FloatPredicate;
use inkwell::IntPredicate;
use inkwell::builder::Builder;
use inkwell::intrinsics::Intrinsic;
use inkwell::module::Module;
use inkwell::types::{FloatType, IntType};
use inkwell::values::{FloatValue, IntValue};

pub(crate) type F<'ctx> = FloatValue<'ctx>;
pub(crate) type I<'ctx> = IntValue<'ctx>;
/// An `i1`.
pub(crate) type B<'ctx> = IntValue<'ctx>;

/// The builder is positioned inside the function being built; failing that is a
/// bug in this module, never input-driven.
const POS: &str = "math emitter: builder is positioned in a block";

/// Emits scalar code for one float type (`f32` or `f64`) and its same-width integer.
#[derive(Clone, Copy)]
pub(crate) struct Em<'a, 'ctx> {
    pub b: &'a Builder<'ctx>,
    pub m: &'a Module<'ctx>,
    pub ft: FloatType<'ctx>,
    pub it: IntType<'ctx>,
    /// `f64` (else `f32`).
    pub wide: bool,
}

impl<'a, 'ctx> Em<'a, 'ctx> {
    pub fn new(b: &'a Builder<'ctx>, m: &'a Module<'ctx>, wide: bool) -> Self {
        let ctx = m.get_context();
        let (ft, it) = if wide { (ctx.f64_type(), ctx.i64_type()) } else { (ctx.f32_type(), ctx.i32_type()) };
        Em { b, m, ft, it, wide }
    }

    /// The emitter for the other width, on the same builder.
    pub fn other(&self) -> Self {
        Em::new(self.b, self.m, !self.wide)
    }

    /// Explicit mantissa bits (23 or 52).
    pub fn mant(&self) -> u32 {
        if self.wide { 52 } else { 23 }
    }

    pub fn bias(&self) -> i64 {
        if self.wide { 1023 } else { 127 }
    }

    /// The smallest positive normal number.
    pub fn min_normal(&self) -> f64 {
        if self.wide { f64::MIN_POSITIVE } else { f32::MIN_POSITIVE as f64 }
    }

    // Constants.

    /// A constant of this type (`v` rounded to it).
    pub fn c(&self, v: f64) -> F<'ctx> {
        self.ft.const_float(v)
    }

    /// `f32`/`f64` by width: for constants that differ between types.
    pub fn cw(&self, v32: f64, v64: f64) -> F<'ctx> {
        self.c(if self.wide { v64 } else { v32 })
    }

    pub fn ci(&self, v: i64) -> I<'ctx> {
        self.it.const_int(v as u64, true)
    }

    pub fn nan(&self) -> F<'ctx> {
        self.c(f64::NAN)
    }

    pub fn inf(&self) -> F<'ctx> {
        self.c(f64::INFINITY)
    }

    // Float arithmetic.

    pub fn add(&self, a: F<'ctx>, b: F<'ctx>) -> F<'ctx> {
        self.b.build_float_add(a, b, "").expect(POS)
    }

    pub fn sub(&self, a: F<'ctx>, b: F<'ctx>) -> F<'ctx> {
        self.b.build_float_sub(a, b, "").expect(POS)
    }

    pub fn mul(&self, a: F<'ctx>, b: F<'ctx>) -> F<'ctx> {
        self.b.build_float_mul(a, b, "").expect(POS)
    }

    pub fn div(&self, a: F<'ctx>, b: F<'ctx>) -> F<'ctx> {
        self.b.build_float_div(a, b, "").expect(POS)
    }

    pub fn neg(&self, a: F<'ctx>) -> F<'ctx> {
        self.b.build_float_neg(a, "").expect(POS)
    }

    fn intrinsic(&self, name: &str, args: &[F<'ctx>]) -> F<'ctx> {
        let intrinsic = Intrinsic::find(name).expect("LLVM knows its float intrinsics");
        let decl = intrinsic.get_declaration(self.m, &[self.ft.into()]).expect("float intrinsic overload");
        let args: Vec<_> = args.iter().map(|a| (*a).into()).collect();
        let call = self.b.build_call(decl, &args, "").expect(POS);
        call.try_as_basic_value().unwrap_basic().into_float_value()
    }

    /// `a * b + c`, fused or not as the target prefers (`llvm.fmuladd`).
    pub fn mla(&self, a: F<'ctx>, b: F<'ctx>, c: F<'ctx>) -> F<'ctx> {
        self.intrinsic("llvm.fmuladd", &[a, b, c])
    }

    pub fn abs(&self, a: F<'ctx>) -> F<'ctx> {
        self.intrinsic("llvm.fabs", &[a])
    }

    /// The magnitude of `mag` with the sign of `sign`.
    pub fn copysign(&self, mag: F<'ctx>, sign: F<'ctx>) -> F<'ctx> {
        self.intrinsic("llvm.copysign", &[mag, sign])
    }

    pub fn sqrt(&self, a: F<'ctx>) -> F<'ctx> {
        self.intrinsic("llvm.sqrt", &[a])
    }

    /// Horner's rule, `coeffs[0] + x * (coeffs[1] + x * (...))`.
    pub fn poly(&self, x: F<'ctx>, coeffs: &[f64]) -> F<'ctx> {
        let (last, rest) = coeffs.split_last().expect("a polynomial has coefficients");
        rest.iter().rev().fold(self.c(*last), |acc, &c| self.mla(acc, x, self.c(c)))
    }

    // Compares (ordered: false when either side is NaN, except `une`).

    fn fcmp(&self, p: FloatPredicate, a: F<'ctx>, b: F<'ctx>) -> B<'ctx> {
        self.b.build_float_compare(p, a, b, "").expect(POS)
    }

    pub fn lt(&self, a: F<'ctx>, b: F<'ctx>) -> B<'ctx> {
        self.fcmp(FloatPredicate::OLT, a, b)
    }

    pub fn gt(&self, a: F<'ctx>, b: F<'ctx>) -> B<'ctx> {
        self.fcmp(FloatPredicate::OGT, a, b)
    }

    pub fn ge(&self, a: F<'ctx>, b: F<'ctx>) -> B<'ctx> {
        self.fcmp(FloatPredicate::OGE, a, b)
    }

    pub fn eq(&self, a: F<'ctx>, b: F<'ctx>) -> B<'ctx> {
        self.fcmp(FloatPredicate::OEQ, a, b)
    }

    pub fn is_nan(&self, a: F<'ctx>) -> B<'ctx> {
        self.fcmp(FloatPredicate::UNO, a, a)
    }

    /// The sign bit is set (true for -0 and negative NaNs too).
    pub fn sign_bit(&self, a: F<'ctx>) -> B<'ctx> {
        self.icmp(IntPredicate::SLT, self.bits(a), self.ci(0))
    }

    // Selects and booleans.

    pub fn sel(&self, c: B<'ctx>, a: F<'ctx>, b: F<'ctx>) -> F<'ctx> {
        self.b.build_select(c, a, b, "").expect(POS).into_float_value()
    }

    pub fn seli(&self, c: B<'ctx>, a: I<'ctx>, b: I<'ctx>) -> I<'ctx> {
        self.b.build_select(c, a, b, "").expect(POS).into_int_value()
    }

    pub fn and(&self, a: I<'ctx>, b: I<'ctx>) -> I<'ctx> {
        self.b.build_and(a, b, "").expect(POS)
    }

    pub fn or(&self, a: I<'ctx>, b: I<'ctx>) -> I<'ctx> {
        self.b.build_or(a, b, "").expect(POS)
    }

    pub fn xor(&self, a: I<'ctx>, b: I<'ctx>) -> I<'ctx> {
        self.b.build_xor(a, b, "").expect(POS)
    }

    pub fn not(&self, a: I<'ctx>) -> I<'ctx> {
        self.b.build_not(a, "").expect(POS)
    }

    // Integers of the float's width.

    pub fn bits(&self, a: F<'ctx>) -> I<'ctx> {
        self.b.build_bit_cast(a, self.it, "").expect(POS).into_int_value()
    }

    pub fn float_of(&self, a: I<'ctx>) -> F<'ctx> {
        self.b.build_bit_cast(a, self.ft, "").expect(POS).into_float_value()
    }

    pub fn iadd(&self, a: I<'ctx>, b: I<'ctx>) -> I<'ctx> {
        self.b.build_int_add(a, b, "").expect(POS)
    }

    pub fn isub(&self, a: I<'ctx>, b: I<'ctx>) -> I<'ctx> {
        self.b.build_int_sub(a, b, "").expect(POS)
    }

    pub fn imul(&self, a: I<'ctx>, b: I<'ctx>) -> I<'ctx> {
        self.b.build_int_mul(a, b, "").expect(POS)
    }

    pub fn shl(&self, a: I<'ctx>, n: u32) -> I<'ctx> {
        self.b.build_left_shift(a, self.ci(n as i64), "").expect(POS)
    }

    pub fn ashr(&self, a: I<'ctx>, n: u32) -> I<'ctx> {
        self.b.build_right_shift(a, self.ci(n as i64), true, "").expect(POS)
    }

    pub fn lshr(&self, a: I<'ctx>, n: u32) -> I<'ctx> {
        self.b.build_right_shift(a, self.ci(n as i64), false, "").expect(POS)
    }

    pub fn icmp(&self, p: IntPredicate, a: I<'ctx>, b: I<'ctx>) -> B<'ctx> {
        self.b.build_int_compare(p, a, b, "").expect(POS)
    }

    // Conversions between the two widths.

    /// `f32` -> `f64` (exact).
    pub fn ext(&self, a: F<'ctx>) -> F<'ctx> {
        let ctx = self.m.get_context();
        self.b.build_float_ext(a, ctx.f64_type(), "").expect(POS)
    }

    /// `f64` -> `f32`, rounding to nearest even.
    pub fn trunc(&self, a: F<'ctx>) -> F<'ctx> {
        let ctx = self.m.get_context();
        self.b.build_float_trunc(a, ctx.f32_type(), "").expect(POS)
    }

    // Building blocks.

    /// `x` rounded to the nearest integer, as a float and as an integer, by the
    /// shifter trick (`x + 1.5*2^p - 1.5*2^p`). Valid for `|x| < 2^(p-1)`; NaN in
    /// gives NaN (and an arbitrary integer).
    pub fn round_int(&self, x: F<'ctx>) -> (F<'ctx>, I<'ctx>) {
        let shifter = self.c(1.5 * 2f64.powi(self.mant() as i32));
        let t = self.add(x, shifter);
        let n = self.sub(t, shifter);
        let ni = self.isub(self.bits(t), self.bits(shifter));
        (n, ni)
    }

    /// A small integer (`|i| < 2^(p-1)`) as a float, exactly, by the shifter trick.
    pub fn int_to_float(&self, i: I<'ctx>) -> F<'ctx> {
        let shifter = self.c(1.5 * 2f64.powi(self.mant() as i32));
        self.sub(self.float_of(self.iadd(self.bits(shifter), i)), shifter)
    }

    /// `2^n` for `n` in the normal exponent range.
    pub fn pow2(&self, n: I<'ctx>) -> F<'ctx> {
        self.float_of(self.shl(self.iadd(n, self.ci(self.bias())), self.mant()))
    }

    /// `p * 2^n` for `n` from `-(bias + p + 2)` to `bias + 1` with a single rounding,
    /// in two exact-or-final steps so that subnormal results round once and large
    /// ones overflow to infinity.
    pub fn ldexp(&self, p: F<'ctx>, n: I<'ctx>) -> F<'ctx> {
        let n1 = self.ashr(n, 1);
        let n2 = self.isub(n, n1);
        self.mul(self.mul(p, self.pow2(n1)), self.pow2(n2))
    }

    /// `x` clamped to `[lo, hi]`; NaN passes through.
    pub fn clamp(&self, x: F<'ctx>, lo: f64, hi: f64) -> F<'ctx> {
        let (lo, hi) = (self.c(lo), self.c(hi));
        let x = self.sel(self.lt(x, lo), lo, x);
        self.sel(self.gt(x, hi), hi, x)
    }
}

/// Double-word arithmetic (a value as an unevaluated sum `hi + lo`), without FMA:
/// Knuth's two-sum and Dekker's product.
impl<'ctx> Em<'_, 'ctx> {
    /// `a + b` exactly as `(s, e)`.
    pub fn two_sum(&self, a: F<'ctx>, b: F<'ctx>) -> (F<'ctx>, F<'ctx>) {
        let s = self.add(a, b);
        let bb = self.sub(s, a);
        let e = self.add(self.sub(a, self.sub(s, bb)), self.sub(b, bb));
        (s, e)
    }

    /// `a + b` exactly, when `|a| >= |b|` (or `a` is zero).
    pub fn fast_two_sum(&self, a: F<'ctx>, b: F<'ctx>) -> (F<'ctx>, F<'ctx>) {
        let s = self.add(a, b);
        let e = self.sub(b, self.sub(s, a));
        (s, e)
    }

    /// Veltkamp's split: `a = hi + lo` with both halves of at most 26 bits (f64).
    fn split(&self, a: F<'ctx>) -> (F<'ctx>, F<'ctx>) {
        let k = if self.wide { 134217729.0 } else { 4097.0 };
        let c = self.mul(self.c(k), a);
        let hi = self.sub(c, self.sub(c, a));
        (hi, self.sub(a, hi))
    }

    /// `a * b` exactly as `(p, e)` (barring overflow and underflow).
    pub fn two_prod(&self, a: F<'ctx>, b: F<'ctx>) -> (F<'ctx>, F<'ctx>) {
        let p = self.mul(a, b);
        let (ah, al) = self.split(a);
        let (bh, bl) = self.split(b);
        let e = self.sub(self.mul(ah, bh), p);
        let e = self.add(e, self.mul(ah, bl));
        let e = self.add(e, self.mul(al, bh));
        (p, self.add(e, self.mul(al, bl)))
    }
}
