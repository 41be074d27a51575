//! erf, cbrt and rsqrt.
//!
//! erf: an odd polynomial near 0 (`x + x P(x^2)`), and beyond it
//! `1 - exp(-x^2) P(x - c)`: the polynomial fits `erfc(x) e^(x^2)` weighted by
//! `e^(-x^2)`, i.e. with the absolute error of erfc (what erf's rounding sees).
//! f64 splits that range in four, selecting the coefficients per lane.
//!
//! cbrt is musl's (fdlibm's) algorithm in f64: a 5-bit estimate from the exponent
//! bits divided by 3, a polynomial step to 23 bits, and one Halley-type step to 53.
//! f32 runs it on the widened argument and rounds once.
//!
//! rsqrt is `1 / sqrt(x)`: both are native vector instructions, and the two
//! roundings stay below 1 ulp (it is also exactly what the interpreter computes).

use crate::coeffs::{ERF_F32, ERF_F64, ERFC_F32, ERFC_F64_0, ERFC_F64_1, ERFC_F64_2, ERFC_F64_3};
use crate::emit::Emit;
use crate::exp::exp;

/// erf f32: the small-argument polynomial holds up to 1; erfc's centre and end.
const ERF32_SPLIT: f64 = 1.0;
const ERFC32_CENTRE: f64 = 2.46;
/// erf rounds to 1 from here on.
const ERF32_ONE: f64 = 3.92;
/// erf f64: the split, the erfc intervals' upper ends and centres.
const ERF64_SPLIT: f64 = 0.84375;
const ERFC64_ENDS: [f64; 3] = [1.5, 2.25, 3.5];
const ERFC64_CENTRES: [f64; 4] = [1.171875, 1.875, 2.875, 4.725];
const ERF64_ONE: f64 = 5.95;

pub(crate) fn erf<E: Emit>(e: &E, x: E::F) -> E::F {
    let ax = e.abs(x);
    let x2 = e.mul(ax, ax);
    let (split, one_from) = if e.wide() { (ERF64_SPLIT, ERF64_ONE) } else { (ERF32_SPLIT, ERF32_ONE) };
    let small = if e.wide() { e.poly(x2, &ERF_F64) } else { e.poly(x2, &ERF_F32.map(f64::from)) };
    let small = e.mla(ax, small, ax);
    // 1 - exp(-x^2) P(x - c) on [split, one_from].
    let ac = e.sel(e.gt(ax, e.c(one_from)), e.c(one_from), ax);
    let q = if e.wide() {
        let tables = [&ERFC_F64_0, &ERFC_F64_1, &ERFC_F64_2, &ERFC_F64_3];
        // Per lane: the interval's centre and coefficients, by selects.
        let pick = |vals: [f64; 4]| {
            ERFC64_ENDS
                .iter()
                .zip(vals)
                .rev()
                .fold(e.c(vals[3]), |acc, (&end, v)| e.sel(e.lt(ac, e.c(end)), e.c(v), acc))
        };
        let t = e.sub(ac, pick(ERFC64_CENTRES));
        (0..ERFC_F64_0.len()).rev().fold(e.c(0.0), |acc, i| e.mla(acc, t, pick(tables.map(|c| c[i]))))
    } else {
        e.poly(e.sub(ac, e.c(ERFC32_CENTRE)), &ERFC_F32.map(f64::from))
    };
    let acc2 = e.mul(ac, ac);
    let large = e.sub(e.c(1.0), e.mul(exp(e, e.neg(acc2)), q));
    let r = e.sel(e.lt(ax, e.c(split)), small, large);
    // NaN passes (both compares are false for it); x2 may be inf for huge x.
    let r = e.sel(e.ge(ax, e.c(one_from)), e.c(1.0), r);
    e.copysign(r, x)
}

/// `1 / sqrt(x)`: `rsqrt(±0) = ±inf`, `rsqrt(x < 0) = NaN`, `rsqrt(inf) = 0`.
pub(crate) fn rsqrt<E: Emit>(e: &E, x: E::F) -> E::F {
    e.div(e.c(1.0), e.sqrt(x))
}

/// musl's cbrt constants: the exponent bias terms for normal and (scaled by 2^54)
/// subnormal inputs, and the polynomial `|1/cbrt(r) - P(r)| < 2^-23.5`.
const B1: i64 = 715094163;
const B2: i64 = 696219795;
const CBRT_P: [f64; 5] =
    [1.87595182427177, -1.8849797954337717, 1.6214297201053545, -0.758397934778766, 0.14599619288661245];

/// `cbrt(x)`, exact for ±0, ±inf and NaN.
pub(crate) fn cbrt<E: Emit>(e: &E, x: E::F) -> E::F {
    let d = if e.wide() { *e } else { e.other() };
    let xd = if e.wide() { x } else { e.ext(x) };
    let ax = d.abs(xd);
    // The high 32 bits divided by 3 give a 5-bit estimate (hi * 0xaaaaaaab >> 33 = hi / 3).
    let tiny = d.lt(ax, d.c(f64::MIN_POSITIVE));
    let scaled = d.sel(tiny, d.mul(ax, d.c(2f64.powi(54))), ax);
    let hi = d.lshr(d.bits(scaled), 32);
    let third = d.lshr(d.imul(hi, d.ci(0xaaaa_aaab)), 33);
    let hi = d.iadd(third, d.seli(tiny, d.ci(B2), d.ci(B1)));
    let t = d.float_of(d.shl(hi, 32));
    // To 23 bits: t * P(t^3 / x).
    let r = d.mul(d.mul(t, t), d.div(t, ax));
    let p = d.add(
        d.mla(r, d.mla(r, d.c(CBRT_P[2]), d.c(CBRT_P[1])), d.c(CBRT_P[0])),
        d.mul(d.mul(d.mul(r, r), r), d.mla(r, d.c(CBRT_P[4]), d.c(CBRT_P[3]))),
    );
    let t = d.mul(t, p);
    // Round to 23 bits so that t*t is exact, then one step to 53 bits.
    let t = d.float_of(d.and(d.iadd(d.bits(t), d.ci(0x8000_0000)), d.ci(0xffff_ffff_c000_0000_u64 as i64)));
    let s = d.mul(t, t);
    let r = d.div(ax, s);
    let w = d.add(t, t);
    let r = d.div(d.sub(r, t), d.add(w, r));
    let t = d.mla(t, r, t);
    let res = d.copysign(t, xd);
    // ±0, ±inf and NaN are their own cube roots.
    let special = d.bor(d.eq(ax, d.c(0.0)), d.bnot(d.lt(ax, d.inf())));
    let res = d.sel(special, d.add(xd, xd), res);
    if e.wide() { res } else { d.trunc(res) }
}
