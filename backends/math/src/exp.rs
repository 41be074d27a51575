//! exp, expm1 and the functions built on them (tanh, logistic).
//!
//! All share one reduction: `x = n ln2 + r`, `|r| <= ln2/2`, with `n` rounded by the
//! shifter trick and `ln2` split Cody-Waite style (`n * LN2_HI` is exact), and one
//! polynomial, `expm1(r) = r + r^2 P(r)`. The result is scaled by `2^n` through the
//! exponent bits. The reduction keeps its rounding error `c` everywhere but in f32
//! `exp` itself, whose 2-ulp bound it does not need.

use crate::coeffs::{EXPM1_F32, EXPM1_F64, TANH_F32, TANH_F64};
use crate::emit::{Emit, ICmp};

const LOG2_E: f64 = std::f64::consts::LOG2_E;
/// `ln2` in two parts; the high part has 32 (f64) or 15 (f32) significant bits so
/// that `n * hi` is exact for every `n` the reductions produce.
const LN2_HI_F64: f64 = 0.6931471803691238;
const LN2_LO_F64: f64 = 1.9082149292705877e-10;
const LN2_HI_F32: f32 = 0.69314575;
const LN2_LO_F32: f32 = 1.4286068e-6;

pub(crate) fn ln2_parts<E: Emit>(e: &E) -> (f64, f64) {
    if e.wide() { (LN2_HI_F64, LN2_LO_F64) } else { (LN2_HI_F32 as f64, LN2_LO_F32 as f64) }
}

/// The reduced argument `x - n ln2 = r + c`: `r` rounded, `c` its rounding error.
pub(crate) struct Reduced<E: Emit> {
    pub ni: E::I,
    pub r: E::F,
    pub c: E::F,
}

/// `x = n ln2 + r + c` (`n` also as an integer). `|x|` must be below ~2^(p-2).
/// `x - n * LN2_HI` is exact; subtracting `n * LN2_LO` rounds, and `c` keeps the
/// rounding error (by fast-two-sum), worth up to ~0.3 ulp of exp's result.
pub(crate) fn reduce_ln2<E: Emit>(e: &E, x: E::F) -> Reduced<E> {
    let (hi, lo) = ln2_parts(e);
    let (n, ni) = e.round_int(e.mul(x, e.c(LOG2_E)));
    let (r, c) = e.fast_two_sum(e.sub(x, e.mul(n, e.c(hi))), e.neg(e.mul(n, e.c(lo))));
    Reduced { ni, r, c }
}

/// `expm1(r + c)` for `|r| <= ln2/2` and `c` below half an ulp of `r` (relative
/// error 2^-27.9 in f32, 2^-56 in f64 before rounding).
pub(crate) fn expm1_poly<E: Emit>(e: &E, red: &Reduced<E>) -> E::F {
    let r = red.r;
    let p = if e.wide() { e.poly(r, &EXPM1_F64) } else { e.poly(r, &EXPM1_F32.map(f64::from)) };
    e.add(e.mla(e.mul(r, r), p, red.c), r)
}

/// `exp(x)`: overflows to inf, underflows through the subnormals (rounded once) to 0.
pub(crate) fn exp<E: Emit>(e: &E, x: E::F) -> E::F {
    // Beyond these the result is inf or 0 anyway; the clamp keeps n in ldexp's range.
    let (lo, hi) = if e.wide() { (-746.0, 710.0) } else { (-104.0, 89.0) };
    // Below `lo` (a masked -inf, say) the result is 0: such lanes compute exp(0)
    // and take 0, rather than multiplying their way down through the
    // subnormals, which x86 cores do in slow microcode.
    let under = e.lt(x, e.c(lo));
    let xc = e.clamp(e.sel(under, e.c(0.0), x), lo, hi);
    let y = if e.wide() { exp_reduced(e, xc, None) } else { exp_f32(e, xc) };
    e.sel(under, e.c(0.0), y)
}

/// f32 `exp(x)` for `x` clamped to exp's range, with the plain reduction
/// `r = (x - n LN2_HI) - n LN2_LO` rounded once: the rounding error the
/// compensated reduction keeps is below 0.4 ulp of the result, and exp's
/// bound is 2 ulp (measured 1 after; six fewer operations on the path every
/// softmax and activation takes).
fn exp_f32<E: Emit>(e: &E, x: E::F) -> E::F {
    let (hi, lo) = ln2_parts(e);
    let (n, ni) = e.round_int(e.mul(x, e.c(LOG2_E)));
    let r = e.mla(n, e.c(-lo), e.mla(n, e.c(-hi), x));
    let p = e.poly(r, &EXPM1_F32.map(f64::from));
    e.ldexp(e.add(e.c(1.0), e.mla(e.mul(r, r), p, r)), ni)
}

/// `exp(x + lo)` for `x` already clamped to exp's range and a tiny correction `lo`.
pub(crate) fn exp_reduced<E: Emit>(e: &E, x: E::F, lo: Option<E::F>) -> E::F {
    let mut red = reduce_ln2(e, x);
    if let Some(lo) = lo {
        let (r, c) = e.fast_two_sum(red.r, lo);
        red = Reduced { r, c: e.add(red.c, c), ..red };
    }
    e.ldexp(e.add(e.c(1.0), expm1_poly(e, &red)), red.ni)
}

/// `expm1(x) = 2^n (expm1(r) + 1) - 1`, computed as `2^n expm1(r) + (2^n - 1)` so
/// that no cancellation happens; for `n >= 1` everything is halved and doubled at
/// the end so that `n = 128` (f32) or `1024` (f64) still overflows correctly.
pub(crate) fn expm1<E: Emit>(e: &E, x: E::F) -> E::F {
    // Below the low bound expm1 rounds to -1.
    let xc = if e.wide() { e.clamp(x, -40.0, 710.0) } else { e.clamp(x, -20.0, 89.0) };
    let red = reduce_ln2(e, xc);
    let (ni, em) = (red.ni, expm1_poly(e, &red));
    let pos = e.icmp(ICmp::Sgt, ni, e.ci(0));
    let scale = e.pow2(e.isub(ni, e.seli(pos, e.ci(1), e.ci(0))));
    let one = e.sel(pos, e.c(0.5), e.c(1.0));
    let res = e.mla(scale, em, e.sub(scale, one));
    let res = e.mul(res, e.sel(pos, e.c(2.0), e.c(1.0)));
    // -0 stays -0.
    e.sel(e.eq(x, e.c(0.0)), x, res)
}

/// `tanh(x) = x + x^3 P(x^2)` for `|x| < 0.55`; beyond,
/// `tanh(|x|) = expm1(2|x|) / (expm1(2|x|) + 2)` with the sign of `x`.
pub(crate) fn tanh<E: Emit>(e: &E, x: E::F) -> E::F {
    let ax = e.abs(x);
    // tanh rounds to 1 from 9.1 (f32) or 19.1 (f64) on.
    let ac = e.sel(e.gt(ax, e.cw(10.0, 20.0)), e.cw(10.0, 20.0), ax);
    let em = expm1(e, e.add(ac, ac));
    let large = e.div(em, e.add(em, e.c(2.0)));
    let x2 = e.mul(ax, ax);
    let p = if e.wide() { e.poly(x2, &TANH_F64) } else { e.poly(x2, &TANH_F32.map(f64::from)) };
    let small = e.mla(e.mul(x2, ax), p, ax);
    e.copysign(e.sel(e.lt(ax, e.c(0.55)), small, large), x)
}

/// `logistic(x) = 1 / (1 + exp(-x))`, computed from `t = exp(-|x|)` as `1/(1+t)` or
/// `t/(1+t)` so that neither side loses accuracy. In f64 directly. In f32,
/// plain roundings of `t`, `1 + t` and the quotient reach 2.3 ulp where `t` is
/// just above a power of two, so `t` is kept as two floats (`2^n (1 + em)`
/// split exactly), `1 + t` too (Fast2Sum), and the quotient is a reciprocal
/// product corrected once by its residual: within the polynomial's 2^-27.9
/// before the final rounding, on f32 lanes (an f64 detour halves them).
pub(crate) fn logistic<E: Emit>(e: &E, x: E::F) -> E::F {
    if e.wide() {
        let t = exp(e, e.neg(e.abs(x)));
        let num = e.sel(e.lt(x, e.c(0.0)), t, e.c(1.0));
        return e.div(num, e.add(e.c(1.0), t));
    }
    // Below -104 the result is 0 anyway.
    let red = reduce_ln2(e, e.clamp(e.neg(e.abs(x)), -104.0, 0.0));
    let em = expm1_poly(e, &red);
    let one = e.c(1.0);
    let p_hi = e.add(one, em);
    let p_lo = e.add(e.sub(one, p_hi), em);
    let (t_hi, t_lo) = (e.ldexp(p_hi, red.ni), e.ldexp(p_lo, red.ni));
    let s_hi = e.add(one, t_hi);
    let s_lo = e.add(e.add(e.sub(one, s_hi), t_hi), t_lo);
    let neg = e.lt(x, e.c(0.0));
    let (n_hi, n_lo) = (e.sel(neg, t_hi, one), e.sel(neg, t_lo, e.c(0.0)));
    let y = e.div(one, s_hi);
    let q0 = e.mul(n_hi, y);
    let r = e.add(e.mla(e.neg(q0), s_hi, n_hi), e.sub(n_lo, e.mul(q0, s_lo)));
    e.mla(r, y, q0)
}
