//! sin, cos, tan and atan2.
//!
//! sin/cos/tan reduce `x = n pi/2 + r`, `|r| <= pi/4`, then pick the sin or cos
//! polynomial and the sign by `n mod 4`; tan divides the two. For the common
//! range `n` is rounded by the shifter trick and `pi/2` split Cody-Waite style:
//! f32 is computed in f64 (pi/2 in parts of 26, 26, 26 and 53 bits: exact for
//! `|x| < 2^27 pi/2`); f64 follows fdlibm, three 33-bit parts with a tail word
//! (exact for `|x| < 2^20 pi/2`) and kernels that take the tail. Past
//! `|x 2/pi| = 2^26` (f32) or `2^19` (f64) the Payne-Hanek reduction takes
//! over: the bits of `2/pi` that matter for the argument's exponent come from
//! a table (`reduction_table`, the one memory the library reads) and are
//! multiplied out exactly, so every finite argument is reduced exactly, up to
//! `f32::MAX` and `f64::MAX`. [`crate::build`] computes both reductions and
//! selects; [`crate::build_common`] only the Cody-Waite one, for code
//! generators that branch to the exact function on [`crate::rare_path`]
//! (docs/math.md).
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
/// The shifter trick's `n` is clamped here (the Cody-Waite result is not
/// used past [`PAYNE_HANEK_F32`] and [`PAYNE_HANEK_F64`]).
const HUGE_N: f64 = 1125899906842624.0; // 2^50
/// From this `|x 2/pi|` on, the Payne-Hanek reduction is used (f32 arguments).
const PAYNE_HANEK_F32: f64 = 67108864.0; // 2^26
/// The same for f64 arguments.
const PAYNE_HANEK_F64: f64 = 524288.0; // 2^19

/// The reduced argument (in f64) as `hi + lo`, and the quadrant `n mod 4`.
struct Reduced<E: Emit> {
    hi: E::F,
    lo: E::F,
    q: E::I,
}

/// `x = n pi/2 + hi + lo` for an f64 `x` (an f32 argument widened when `f32_arg`,
/// with `lo = 0`). `d` is the f64 emitter.
/// With `exact`, the Payne-Hanek reduction is selected past its threshold;
/// without, the Cody-Waite result stands (meaningless past [`rare_bound`]).
fn reduce<E: Emit>(d: &E, x: E::F, f32_arg: bool, exact: bool) -> Reduced<E> {
    let t = d.mul(x, d.c(FRAC_2_PI));
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
    let (hi, lo, q) = if exact {
        // False for NaN, which stays NaN through the Cody-Waite path.
        let huge = d.ge(d.abs(t), d.c(if f32_arg { PAYNE_HANEK_F32 } else { PAYNE_HANEK_F64 }));
        let far = reduce_huge(d, x, f32_arg);
        (d.sel(huge, far.hi, hi), d.sel(huge, far.lo, lo), d.seli(huge, far.q, q))
    } else {
        (hi, lo, q)
    };
    // sin, cos and tan of ±inf are NaN.
    let hi = d.sel(d.eq(d.abs(x), d.inf()), d.nan(), hi);
    Reduced { hi, lo, q }
}

/// The exponents `g` of [`reduction_table`]'s rows (`|x| = M 2^g`, `M` a 53-bit
/// integer): from where the huge path starts (`|x| >= 2^19`) to `f64::MAX`'s.
const G_MIN: i64 = -33;
const G_MAX: i64 = 1023 - 52;
/// The last row an f32 argument (widened) can reach.
const G_MAX_F32: i64 = 127 - 52;
/// Bits of `C_g` in each of a row's parts, from the `2^1` bit down.
const PART_BITS: [i64; 5] = [26, 26, 53, 53, 53];

/// 2/pi in binary, 1280 bits after the point (a constant of mathematics,
/// computed with integer arithmetic from Machin's formula for pi).
const FRAC_2_PI_HEX: &str = concat!(
    "a2f9836e4e441529fc2757d1f534ddc0db6295993c439041fe5163abdebbc561",
    "b7246e3a424dd2e006492eea09d1921cfe1deb1cb129a73ee88235f52ebb4484",
    "e99c7026b45f7e413991d639835339f49c845f8bbdf9283b1ff897ffde05980f",
    "ef2f118b5a0a6d1f6d367ecf27cb09b74f463f669e5fea2d7527bac7ebe5f17b",
    "3d0739f78a5292ea6bfb5fb11f8d5d0856033046fc7b6babf0cfbc209af4361d",
);

/// Row `g - G_MIN` holds `C_g = (2^g 2/pi) mod 4` in [`PART_BITS`] parts,
/// each exact in an f64: the fraction of `2/pi` an argument `M 2^g` needs,
/// since `M 2^g 2/pi = M C_g (mod 4)` for an integer `M`.
pub(crate) fn reduction_table() -> &'static [f64] {
    static TABLE: std::sync::OnceLock<Vec<f64>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let digits: Vec<u8> =
            FRAC_2_PI_HEX.bytes().map(|c| (c as char).to_digit(16).expect("hex digit") as u8).collect();
        // Bit b (weight 2^-b, b >= 1) of 2/pi; bits above the point are 0.
        let bit = |b: i64| -> u64 {
            if b < 1 {
                return 0;
            }
            let b = (b - 1) as usize;
            assert!(b < digits.len() * 4, "2/pi is tabulated to {} bits", digits.len() * 4);
            ((digits[b / 4] >> (3 - b % 4)) & 1) as u64
        };
        let mut table = Vec::with_capacity(((G_MAX - G_MIN + 1) as usize) * PART_BITS.len());
        for g in G_MIN..=G_MAX {
            // The 2^1 bit of 2^g 2/pi is bit g - 1 of 2/pi.
            let mut first = g - 1;
            for &n in &PART_BITS {
                let last = first + n - 1;
                let int = (first..=last).fold(0u64, |acc, b| (acc << 1) | bit(b));
                table.push(int as f64 * exp2i(g - last));
                first = last + 1;
            }
        }
        table
    })
}

/// `2^k` for `k` in the normal range, exactly.
fn exp2i(k: i64) -> f64 {
    assert!((-1022..=1023).contains(&k), "2^{k} is not a normal f64");
    f64::from_bits(((k + 1023) as u64) << 52)
}

/// `t - 4 round(t/4)` for `|t| < 2^53` (exact).
fn mod4<E: Emit>(d: &E, t: E::F) -> E::F {
    let (n, _) = d.round_int(d.mul(t, d.c(0.25)));
    d.sub(t, d.mul(n, d.c(4.0)))
}

/// Payne-Hanek: `x = n pi/2 + hi + lo` for any finite f64 `x` with
/// `|x| >= 2^19` (an f32 argument widened when `f32_arg`), from
/// [`reduction_table`]'s row for `x`'s exponent. `|x| = M 2^g` with
/// `M = Mh + Ml` (the top 27 and low 26 bits of the significand), and
/// `M C_g = Ml c0 + Mh c1 + Ml c1 + M (c2 + c3 + c4) (mod 4)` (`Mh c0` is a
/// multiple of 4); the first three products are exact and reduced mod 4
/// exactly, `M c2` is a double-word product, so the fraction is right to
/// about `2^-102` absolute, and `pi/2` times it is taken in double words.
/// For other `x` the result is meaningless (the caller selects the
/// Cody-Waite reduction there).
fn reduce_huge<E: Emit>(d: &E, x: E::F, f32_arg: bool) -> Reduced<E> {
    let a = d.abs(x);
    let bits = d.bits(a);
    let g = d.isub(d.lshr(bits, 52), d.ci(1023 + 52));
    let g_max = if f32_arg { G_MAX_F32 } else { G_MAX };
    let g = d.seli(d.icmp(ICmp::Slt, g, d.ci(G_MIN)), d.ci(G_MIN), g);
    let g = d.seli(d.icmp(ICmp::Sgt, g, d.ci(g_max)), d.ci(g_max), g);
    let rows = (g_max - G_MIN + 1) as usize;
    let table = &reduction_table()[..rows * PART_BITS.len()];
    let name = if f32_arg { "frac_2_pi_f32" } else { "frac_2_pi_f64" };
    let row = d.imul(d.isub(g, d.ci(G_MIN)), d.ci(PART_BITS.len() as i64));
    let part = |k: i64| d.lookup(name, table, d.iadd(row, d.ci(k)));
    // M, Mh and Ml as integer-valued floats (scaling by 2^-g is exact).
    let scale = d.pow2(d.isub(d.ci(0), g));
    let ah = d.float_of(d.and(bits, d.ci(!((1i64 << 26) - 1))));
    let (m, mh) = (d.mul(a, scale), d.mul(ah, scale));
    // |Mh c1| < 2^29 and |Ml c0| < 2^28 on a 2^-24 grid: each exact, and so
    // are their reductions mod 4 and the sum of those (|.| <= 4).
    let mut b = mod4(d, d.mul(mh, part(1)));
    if !f32_arg {
        // An f32 significand has no low bits: Ml = 0.
        let ml = d.mul(d.sub(a, ah), scale);
        b = d.add(b, mod4(d, d.mul(ml, part(0))));
        // |Ml c1| < 4 on a 2^-50 grid: the sum, below 8, stays exact.
        b = d.add(b, d.mul(ml, part(1)));
    }
    let (n1f, n1) = d.round_int(b);
    let b = d.sub(b, n1f);
    let (p, pe) = d.two_prod(m, part(2));
    let (s, t) = d.two_sum(b, p);
    let (n2f, n2) = d.round_int(s);
    // The fraction is s + t + pe + M c3 + M c4, every term but the last exact.
    let s = d.sub(s, n2f);
    let (fh, fl) = if f32_arg {
        // An f32 argument comes no closer to a multiple of pi/2 than about
        // 2^-31: an error of 2^-100 is far below its last bit.
        d.two_sum(s, d.add(d.add(t, pe), d.mul(m, part(3))))
    } else {
        // An f64 comes within 2^-61 of one: the terms are summed with their
        // rounding errors carried (Ogita, Rump and Oishi's Sum2), so the
        // fraction is right to its own last bits however small it is.
        let (p3, p3e) = d.two_prod(m, part(3));
        let (mut acc, mut err) = (s, d.c(0.0));
        for v in [t, pe, p3, p3e, d.mul(m, part(4))] {
            let (sum, e) = d.two_sum(acc, v);
            acc = sum;
            err = d.add(err, e);
        }
        d.fast_two_sum(acc, err)
    };
    // (fh + fl) pi/2 in double words.
    let (rh, re) = d.two_prod(fh, d.c(FRAC_PI_2.0));
    let rl = d.add(re, d.add(d.mul(fh, d.c(FRAC_PI_2.1)), d.mul(fl, d.c(FRAC_PI_2.0))));
    let (hi, lo) = d.fast_two_sum(rh, rl);
    let q = d.and(d.iadd(n1, n2), d.ci(3));
    // -|x| = (-n) pi/2 - r.
    let neg = d.sign_bit(x);
    Reduced {
        hi: d.sel(neg, d.neg(hi), hi),
        lo: d.sel(neg, d.neg(lo), lo),
        q: d.seli(neg, d.and(d.isub(d.ci(0), q), d.ci(3)), q),
    }
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

fn trig<E: Emit>(e: &E, x: E::F, which: Trig, exact: bool) -> E::F {
    let f32_arg = !e.wide();
    let d = if e.wide() { *e } else { e.other() };
    let xd = if f32_arg { e.ext(x) } else { x };
    let r = reduce(&d, xd, f32_arg, exact);
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

pub(crate) fn sin<E: Emit>(e: &E, x: E::F, exact: bool) -> E::F {
    trig(e, x, Trig::Sin, exact)
}

pub(crate) fn cos<E: Emit>(e: &E, x: E::F, exact: bool) -> E::F {
    trig(e, x, Trig::Cos, exact)
}

pub(crate) fn tan<E: Emit>(e: &E, x: E::F, exact: bool) -> E::F {
    trig(e, x, Trig::Tan, exact)
}

/// `|x|` (f32 or f64 by `wide`) below which the Cody-Waite reduction is the
/// one used: a relative 2^-20 under the Payne-Hanek thresholds on `|x 2/pi|`,
/// so that no argument below it reaches them after the rounding of `x 2/pi`.
pub(crate) fn rare_bound(wide: bool) -> f64 {
    let n = if wide { PAYNE_HANEK_F64 } else { PAYNE_HANEK_F32 };
    n * std::f64::consts::FRAC_PI_2 * (1.0 - 2f64.powi(-20))
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
