//! sin, cos, tan and atan2.
//!
//! sin/cos/tan reduce `x = n pi/2 + r`, `|r| <= pi/4`, with `n` rounded by the
//! shifter trick and `pi/2` split Cody-Waite style, then pick the sin or cos
//! polynomial and the sign by `n mod 4`; tan divides the two. f32 is computed in
//! f64 (pi/2 in parts of 26, 26, 26 and 53 bits: exact for `|x| < 2^27 pi/2`).
//! f64 follows fdlibm: three 33-bit parts with a tail word (exact for
//! `|x| < 2^20 pi/2`) and kernels that take the tail. Beyond those bounds the
//! reduction error grows like `|x| 2^-53`; from `|x 2/pi| = 2^50` on the argument
//! carries no information about its residue and the reduced argument is set to 0,
//! so sin and cos return an arbitrary value in `[-1, 1]` (see docs/math.md).
//!
//! atan2 reduces to `t = min/max` of the magnitudes, and further to
//! `(min - max)/(min + max)` when `t > tan(pi/8)`, evaluates one odd polynomial and
//! adds the quadrant's multiple of `pi/4` in two parts. f32 is computed in f64.

use crate::coeffs::{ATAN_F32, ATAN_F64, COS_F32, COS_F64, SIN_F32, SIN_F64};
use crate::emit::{Emit, ICmp};

const FRAC_2_PI: f64 = std::f64::consts::FRAC_2_PI;
/// pi/2 in four parts of 26, 26, 26 and 53 bits (f32 arguments).
const PIO2_26: [f64; 4] = [1.5707963109016418, 1.5893254712295857e-08, 6.123233932053594e-17, 6.36831716351095e-25];
/// fdlibm's pi/2 in 33-bit parts; `PIO2_2T = pi/2 - PIO2_1 - PIO2_2` rounded, and so on.
const PIO2_1: f64 = 1.5707963267341256;
const PIO2_2: f64 = 6.077100506303966e-11;
const PIO2_2T: f64 = 2.0222662487959506e-21;
const PIO2_3: f64 = 2.0222662487111665e-21;
const PIO2_3T: f64 = 8.4784276603689e-32;
/// Past this `|x 2/pi|` the reduction is meaningless (and the shifter trick invalid).
const HUGE_N: f64 = 1125899906842624.0; // 2^50

/// The reduced argument (in f64) as `hi + lo`, and the quadrant `n mod 4`.
struct Reduced<E: Emit> {
    hi: E::F,
    lo: E::F,
    q: E::I,
}

/// `x = n pi/2 + hi + lo` for an f64 `x` (an f32 argument widened when `f32_arg`,
/// with `lo = 0`). `d` is the f64 emitter.
fn reduce<E: Emit>(d: &E, x: E::F, f32_arg: bool) -> Reduced<E> {
    let t = d.mul(x, d.c(FRAC_2_PI));
    let huge = d.lt(d.c(HUGE_N), d.abs(t));
    let (n, ni) = d.round_int(d.clamp(t, -HUGE_N, HUGE_N));
    let q = d.and(ni, d.ci(3));
    let zero = d.c(0.0);
    let (hi, lo) = if f32_arg {
        let r = PIO2_26.iter().fold(x, |r, &p| d.sub(r, d.mul(n, d.c(p))));
        (r, zero)
    } else {
        // fdlibm's medium reduction, all three rounds (each 33 bits further).
        let r1 = d.sub(x, d.mul(n, d.c(PIO2_1)));
        let (r, w) = [(PIO2_2, PIO2_2T), (PIO2_3, PIO2_3T)].iter().fold((r1, zero), |(t, _), &(p, pt)| {
            let wp = d.mul(n, d.c(p));
            let r = d.sub(t, wp);
            (r, d.sub(d.mul(n, d.c(pt)), d.sub(d.sub(t, r), wp)))
        });
        let y0 = d.sub(r, w);
        let y1 = d.sub(d.sub(r, y0), w);
        (y0, y1)
    };
    // NaN stays NaN (huge is false for NaN).
    let finite_huge = d.band(huge, d.lt(d.abs(x), d.inf()));
    let hi = d.sel(finite_huge, zero, hi);
    // sin, cos and tan of ±inf are NaN.
    let hi = d.sel(d.eq(d.abs(x), d.inf()), d.nan(), hi);
    Reduced { hi, lo: d.sel(finite_huge, zero, lo), q }
}

/// sin and cos of the reduced argument, in f64.
fn kernels<E: Emit>(d: &E, r: &Reduced<E>, f32_arg: bool) -> (E::F, E::F) {
    let (x, y) = (r.hi, r.lo);
    let z = d.mul(x, x);
    if f32_arg {
        let s = d.mla(d.mul(z, x), d.poly(z, &SIN_F32), x);
        let c = d.mla(d.mul(z, z), d.poly(z, &COS_F32), d.mla(d.c(-0.5), z, d.c(1.0)));
        return (s, c);
    }
    // fdlibm __kernel_sin with tail: x - ((z (y/2 - v r) - y) - v S1), v = z x.
    let v = d.mul(z, x);
    let rs = d.poly(z, &SIN_F64[1..]);
    let inner = d.sub(d.mul(z, d.sub(d.mul(d.c(0.5), y), d.mul(v, rs))), y);
    let s = d.sub(x, d.sub(inner, d.mul(v, d.c(SIN_F64[0]))));
    // FreeBSD __kernel_cos: w + (((1 - w) - z/2) + (z r - x y)), w = 1 - z/2.
    let rc = d.mul(z, d.poly(z, &COS_F64));
    let hz = d.mul(d.c(0.5), z);
    let w = d.sub(d.c(1.0), hz);
    let c = d.add(w, d.add(d.sub(d.sub(d.c(1.0), w), hz), d.sub(d.mul(z, rc), d.mul(x, y))));
    (s, c)
}

fn bit_set<E: Emit>(d: &E, q: E::I, bit: i64) -> E::B {
    d.icmp(ICmp::Ne, d.and(q, d.ci(bit)), d.ci(0))
}

#[derive(Clone, Copy, PartialEq)]
enum Trig {
    Sin,
    Cos,
    Tan,
}

fn trig<E: Emit>(e: &E, x: E::F, which: Trig) -> E::F {
    let f32_arg = !e.wide();
    let d = if e.wide() { *e } else { e.other() };
    let xd = if f32_arg { e.ext(x) } else { x };
    let r = reduce(&d, xd, f32_arg);
    let (s, c) = kernels(&d, &r, f32_arg);
    let odd = bit_set(&d, r.q, 1);
    let res = match which {
        Trig::Sin => {
            let v = d.sel(odd, c, s);
            d.sel(bit_set(&d, r.q, 2), d.neg(v), v)
        }
        Trig::Cos => {
            let v = d.sel(odd, s, c);
            d.sel(bit_set(&d, d.iadd(r.q, d.ci(1)), 2), d.neg(v), v)
        }
        Trig::Tan => d.div(d.sel(odd, d.neg(c), s), d.sel(odd, s, c)),
    };
    // sin and tan keep the sign of a zero argument.
    let res = if which == Trig::Cos { res } else { d.sel(d.eq(xd, d.c(0.0)), xd, res) };
    if f32_arg { d.trunc(res) } else { res }
}

pub(crate) fn sin<E: Emit>(e: &E, x: E::F) -> E::F {
    trig(e, x, Trig::Sin)
}

pub(crate) fn cos<E: Emit>(e: &E, x: E::F) -> E::F {
    trig(e, x, Trig::Cos)
}

pub(crate) fn tan<E: Emit>(e: &E, x: E::F) -> E::F {
    trig(e, x, Trig::Tan)
}

const PI: (f64, f64) = (std::f64::consts::PI, 1.2246467991473532e-16);
const FRAC_PI_2: (f64, f64) = (std::f64::consts::FRAC_PI_2, 6.123233995736766e-17);
const FRAC_PI_4: (f64, f64) = (std::f64::consts::FRAC_PI_4, 3.061616997868383e-17);
const FRAC_3PI_4: (f64, f64) = (2.356194490192345, 9.184850993605148e-17);
const TAN_PI_8: f64 = 0.41421356237309503;

/// `atan2(y, x)` with C99's special cases (signed zeros, infinities).
pub(crate) fn atan2<E: Emit>(e: &E, y: E::F, x: E::F) -> E::F {
    let d = if e.wide() { *e } else { e.other() };
    let (yd, xd) = if e.wide() { (y, x) } else { (e.ext(y), e.ext(x)) };
    let (ax, ay) = (d.abs(xd), d.abs(yd));
    // Both infinite: the ratio is 1.
    let both_inf = d.band(d.eq(ax, d.inf()), d.eq(ay, d.inf()));
    let ax = d.sel(both_inf, d.c(1.0), ax);
    let ay = d.sel(both_inf, d.c(1.0), ay);
    let swap = d.gt(ay, ax);
    let mx = d.sel(swap, ay, ax);
    let mn = d.sel(swap, ax, ay);
    // Keep mn + mx finite.
    let scale = d.sel(d.gt(mx, d.c(2f64.powi(1000))), d.c(1.0 / 16.0), d.c(1.0));
    let (mx, mn) = (d.mul(mx, scale), d.mul(mn, scale));
    let big = d.gt(mn, d.mul(mx, d.c(TAN_PI_8)));
    let num = d.sel(big, d.sub(mn, mx), mn);
    let den = d.sel(big, d.add(mn, mx), mx);
    let a = d.sel(d.eq(mx, d.c(0.0)), d.c(0.0), d.div(num, den));
    let coeffs: &[f64] = if e.wide() { &ATAN_F64 } else { &ATAN_F32 };
    let a2 = d.mul(a, a);
    let t = d.mla(d.mul(a2, a), d.poly(a2, coeffs), a);
    // The angle is k + t or k - t for k a multiple of pi/4 chosen by the quadrant.
    let xneg = d.sign_bit(xd);
    let t = d.sel(d.bxor(swap, xneg), d.neg(t), t);
    let pick = |c: E::B, a: (f64, f64), b: (f64, f64)| (d.sel(c, d.c(a.0), d.c(b.0)), d.sel(c, d.c(a.1), d.c(b.1)));
    let small_k = {
        let (h, l) = pick(xneg, PI, (0.0, 0.0));
        let (sh, sl) = pick(swap, FRAC_PI_2, (0.0, 0.0));
        (d.sel(swap, sh, h), d.sel(swap, sl, l))
    };
    let big_k = pick(xneg, FRAC_3PI_4, FRAC_PI_4);
    let kh = d.sel(big, big_k.0, small_k.0);
    let kl = d.sel(big, big_k.1, small_k.1);
    let res = d.add(kh, d.add(kl, t));
    let res = d.copysign(res, yd);
    let res = d.sel(d.bor(d.is_nan(xd), d.is_nan(yd)), d.add(xd, yd), res);
    if e.wide() { res } else { d.trunc(res) }
}
