//! log, log1p and pow.
//!
//! `x = 2^k m` with `m` in `[sqrt(1/2), sqrt(2))` (read from the exponent bits), so
//! `log(x) = k ln2 + log1p(f)` with `f = m - 1` exact. f32 evaluates
//! `log1p(f) = f - f^2/2 + f^3 P(f)` (degree 10); f64 uses fdlibm's form with
//! `s = f / (2 + f)`, `log1p(f) = f - (f^2/2 - s (f^2/2 + R(s^2)))`. log1p adds
//! the rounding error of `1 + x` back as `c / (1 + x)`.
//!
//! pow computes `exp(y log|x|)`: for f32 in f64 (where plain f64 log and exp are
//! far more accurate than needed), for f64 with `log|x|` and `y log|x|` carried as
//! double-words so that the ~2^-64 relative error survives the multiplication by
//! `y` (up to 745).

use crate::coeffs::{LOG_F32, LOG_F64, POW_LOG_F64};
use crate::emit::{Emit, ICmp};
use crate::exp::{exp, exp_reduced, ln2_parts};

/// The decomposition of positive, finite, normal-or-subnormal `x`: `(k, m)`,
/// `x = 2^k m`, `m` in `[sqrt(1/2), sqrt(2))`.
fn decompose<E: Emit>(e: &E, x: E::F) -> (E::I, E::F) {
    // Subnormals are scaled into the normal range first.
    let sub_shift = e.mant() + 2;
    let tiny = e.lt(x, e.c(e.min_normal()));
    let xs = e.sel(tiny, e.mul(x, e.c(2f64.powi(sub_shift as i32))), x);
    let kadj = e.seli(tiny, e.ci(-(sub_shift as i64)), e.ci(0));
    let (one, sqrt_half, mant_mask) = if e.wide() {
        (1f64.to_bits() as i64, 0x3fe6_a09e_667f_3bcd_i64, (1i64 << 52) - 1)
    } else {
        (1f32.to_bits() as i64, 0x3f35_04f3_i64, (1i64 << 23) - 1)
    };
    // Shifting by (one - sqrt_half) moves the exponent boundary to sqrt(1/2).
    let ix = e.iadd(e.bits(xs), e.ci(one - sqrt_half));
    let k = e.iadd(e.isub(e.ashr(ix, e.mant()), e.ci(e.bias())), kadj);
    let m = e.float_of(e.iadd(e.and(ix, e.ci(mant_mask)), e.ci(sqrt_half)));
    (k, m)
}

/// `k ln2 + log1p(f) + c` for `f` in `[sqrt(1/2)-1, sqrt(2)-1]` and a tiny `c`.
fn log_kernel<E: Emit>(e: &E, k: E::I, f: E::F, c: E::F) -> E::F {
    let (hi, lo) = ln2_parts(e);
    let kf = e.int_to_float(k);
    let z = e.mul(f, f);
    if e.wide() {
        let s = e.div(f, e.add(e.c(2.0), f));
        let w = e.mul(s, s);
        let r = e.mul(w, e.poly(w, &LOG_F64));
        let hfsq = e.mul(e.c(0.5), z);
        let tail = e.add(e.mla(kf, e.c(lo), c), e.mul(s, e.add(hfsq, r)));
        // k hi - ((hfsq - tail) - f)
        e.sub(e.mul(kf, e.c(hi)), e.sub(e.sub(hfsq, tail), f))
    } else {
        let y = e.mul(e.mul(f, z), e.poly(f, &LOG_F32.map(f64::from)));
        let t = e.add(e.mla(e.c(-0.5), z, y), e.mla(kf, e.c(lo), c));
        e.mla(kf, e.c(hi), e.add(f, t))
    }
}

/// `log(x)`: `log(0) = -inf`, `log(x < 0) = NaN`, `log(inf) = inf`.
pub(crate) fn log<E: Emit>(e: &E, x: E::F) -> E::F {
    let (k, m) = decompose(e, x);
    let r = log_kernel(e, k, e.sub(m, e.c(1.0)), e.c(0.0));
    finish_log(e, x, r, e.c(0.0))
}

/// Special values of log at `x` (`zero` is where the result is -inf).
fn finish_log<E: Emit>(e: &E, x: E::F, r: E::F, zero: E::F) -> E::F {
    let r = e.sel(e.eq(x, e.inf()), x, r);
    let r = e.sel(e.eq(x, zero), e.neg(e.inf()), r);
    let r = e.sel(e.lt(x, zero), e.nan(), r);
    e.sel(e.is_nan(x), x, r)
}

/// `log1p(x) = log(u) + c/u` with `u = 1 + x` rounded and `c` its rounding error
/// (exact, by two-sum).
pub(crate) fn log1p<E: Emit>(e: &E, x: E::F) -> E::F {
    let (u, c) = e.two_sum(e.c(1.0), x);
    let (k, m) = decompose(e, u);
    let r = log_kernel(e, k, e.sub(m, e.c(1.0)), e.div(c, u));
    // ±0 (and a subnormal, read as zero under DAZ) give the zero of x's sign.
    let r = e.sel(e.eq(x, e.c(0.0)), e.copysign(e.c(0.0), x), r);
    finish_log(e, x, r, e.c(-1.0))
}

/// `pow(x, y)` with C99's special cases.
pub(crate) fn pow<E: Emit>(e: &E, x: E::F, y: E::F) -> E::F {
    let ax = e.abs(x);
    let mag = if e.wide() {
        pow_core_f64(e, ax, y)
    } else {
        let d = e.other();
        let (axd, yd) = (e.ext(ax), e.ext(y));
        let z = d.mul(yd, log(&d, axd));
        d.trunc(exp(&d, z))
    };
    pow_specials(e, x, y, mag)
}

/// `|x|^y` for finite positive `ax` and finite `y`, in f64: double-word `log(ax)`,
/// double-word product with `y`, then exp of the double-word.
fn pow_core_f64<E: Emit>(e: &E, ax: E::F, y: E::F) -> E::F {
    let (k, m) = decompose(e, ax);
    // s = (m - 1)/(m + 1) as a double-word: log(m) = 2 atanh(s).
    let f = e.sub(m, e.c(1.0));
    let (dh, dl) = e.two_sum(m, e.c(1.0));
    let sh = e.div(f, dh);
    let (p, pe) = e.two_prod(sh, dh);
    let sl = e.div(e.sub(e.sub(e.sub(f, p), pe), e.mul(sh, dl)), dh);
    // 2 atanh(s) = 2s + (2/3) s^3 + s^5 Q(s^2). The s^3 term is a double-word too.
    let (zh, zl) = e.two_prod(sh, sh);
    let (ch, cl) = e.two_prod(zh, sh);
    let cl = e.mla(zl, sh, cl);
    const TWO_THIRDS_HI: f64 = 2.0 / 3.0;
    const TWO_THIRDS_LO: f64 = 3.700_743_415_417_188e-17;
    let (th, tl) = e.two_prod(ch, e.c(TWO_THIRDS_HI));
    let tl = e.add(tl, e.mla(cl, e.c(TWO_THIRDS_HI), e.mul(ch, e.c(TWO_THIRDS_LO))));
    // The rest of the series, s^5 P(s^2), plus the first-order effect of sl on 2s + (2/3) s^3.
    let w = zh;
    let rest = e.mul(e.mul(w, w), e.poly(w, &POW_LOG_F64));
    let small = e.mla(sh, rest, e.mul(e.c(2.0), e.mla(sl, zh, sl)));
    let (h, l) = e.two_sum(e.mul(e.c(2.0), sh), th);
    let l = e.add(l, e.add(tl, small));
    let (lmh, lml) = e.fast_two_sum(h, l);
    // + k ln2 (k * LN2_HI exact).
    let (hi, lo) = ln2_parts(e);
    let kf = e.int_to_float(k);
    let (lh, le) = e.two_sum(e.mul(kf, e.c(hi)), lmh);
    let ll = e.add(le, e.mla(kf, e.c(lo), lml));
    let (lh, ll) = e.fast_two_sum(lh, ll);
    // y log|x| as a double-word. Past 2^900 only |x| = 1 (log 0, result 1) is not an
    // overflow or underflow, so y is clamped there to keep Dekker's split finite.
    let y = e.clamp(y, -2f64.powi(900), 2f64.powi(900));
    let (yh, yl) = e.two_prod(y, lh);
    let yl = e.mla(y, ll, yl);
    // Out of exp's range the low word may be NaN (inf - inf); it does not matter there.
    let in_range = e.lt(e.abs(yh), e.c(750.0));
    let yl = e.sel(in_range, yl, e.c(0.0));
    exp_reduced(e, e.clamp(yh, -746.0, 710.0), Some(yl))
}

/// C99 pow's special cases around `mag = |x|^y` (valid for finite nonzero `x` and
/// finite `y`).
fn pow_specials<E: Emit>(e: &E, x: E::F, y: E::F, mag: E::F) -> E::F {
    let ax = e.abs(x);
    let ay = e.abs(y);
    // Integer and odd-integer tests: above 2^p every float is an even integer; below,
    // adding 2^p drops the fraction and leaves the parity in the lowest bit.
    let p = e.mant();
    let two_p = e.c(2f64.powi(p as i32));
    let below = e.lt(ay, two_p);
    let t = e.sel(below, e.add(ay, two_p), ay);
    let is_int = e.bor(e.bnot(below), e.eq(e.sub(t, two_p), ay));
    let low_bit = e.icmp(ICmp::Ne, e.and(e.bits(t), e.ci(1)), e.ci(0));
    let odd = e.band(e.band(is_int, low_bit), e.lt(ay, e.add(two_p, two_p)));
    let neg = e.sign_bit(x);
    let flip = e.band(neg, odd);

    let r = e.sel(flip, e.neg(mag), mag);
    // Negative base, non-integer exponent.
    let r = e.sel(e.band(e.lt(x, e.c(0.0)), e.bnot(is_int)), e.nan(), r);
    // x = ±0 or ±inf: 0 or inf, signed for odd y.
    let y_pos = e.gt(y, e.c(0.0));
    let x_inf = e.eq(ax, e.inf());
    let zero_or_inf = e.bor(x_inf, e.eq(ax, e.c(0.0)));
    let big = e.beq(x_inf, y_pos);
    let edge = e.sel(big, e.inf(), e.c(0.0));
    let r = e.sel(zero_or_inf, e.sel(flip, e.neg(edge), edge), r);
    // y = ±inf: 1 for |x| = 1, else 0 or inf.
    let big = e.beq(e.gt(ax, e.c(1.0)), y_pos);
    let edge = e.sel(e.eq(ax, e.c(1.0)), e.c(1.0), e.sel(big, e.inf(), e.c(0.0)));
    let r = e.sel(e.eq(ay, e.inf()), edge, r);
    // NaN in, NaN out, except pow(1, y) = pow(x, ±0) = 1.
    let r = e.sel(e.bor(e.is_nan(x), e.is_nan(y)), e.add(x, y), r);
    let one = e.bor(e.eq(x, e.c(1.0)), e.eq(y, e.c(0.0)));
    e.sel(one, e.c(1.0), r)
}
