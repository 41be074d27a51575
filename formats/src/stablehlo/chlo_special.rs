//! Special-function CHLO ops (`lgamma`, `digamma`, `zeta`, `polygamma`,
//! `bessel_i1e`) decomposed into HLO as XLA's CHLO legalization does, apart
//! from `chlo` because they share their own pieces: the Lanczos approximation
//! serves both `lgamma` and `digamma`, and `polygamma` is built from `lgamma`,
//! `zeta` and `digamma`.
//!
//! All compute in at least f32 (f16 and bf16 widened, the result narrowed). The
//! gamma family and `zeta` keep f64, their formulas and constants being the same
//! at either precision; `bessel_i1e` takes different coefficients in f64, which
//! this import does not have a reference for, and refuses it.

use std::f64::consts::PI;

use smelt_hlo::attrs::ComparisonDirection as Dir;
use smelt_hlo::builder::ComputationBuilder;
use smelt_hlo::{DType, InstId, Opcode};

use super::chlo::{Ops, Precision, Result, with_ops};

/// Lanczos approximation, g = 7, n = 9 (Lanczos, "A Precision Approximation of
/// the Gamma Function", SIAM J. Numer. Anal. B 1, 1964).
const LANCZOS_G: f64 = 7.0;
#[allow(clippy::excessive_precision)]
const LANCZOS_BASE: f64 = 0.99999999999980993227684700473478;
#[allow(clippy::excessive_precision)]
const LANCZOS: [f64; 8] = [
    676.520368121885098567009190444019,
    -1259.13921672240287047156078755283,
    771.3234287776530788486528258894,
    -176.61502916214059906584551354,
    12.507343278686904814458936853,
    -0.13857109526572011689554707,
    9.984369578019570859563e-6,
    1.50563273514931155834e-7,
];

/// The reflection test `x < 1/2` and the Lanczos argument `z` (`-x` when
/// reflecting, else `x - 1`, so that the series gives `f(z + 1)`).
fn lanczos_z(o: &mut Ops<'_, '_>, x: InstId) -> Result<(InstId, InstId)> {
    let half = o.k(0.5)?;
    let reflect = o.cmp(Dir::Lt, x, half)?;
    let nx = o.un(Opcode::Negate, x)?;
    let one = o.k(1.0)?;
    let xm1 = o.bin(Opcode::Subtract, x, one)?;
    let z = o.select(reflect, nx, xm1)?;
    Ok((reflect, z))
}

/// `t = z + g + 1/2` and `log t`, computed as `log(g + 1/2) + log1p(z/(g + 1/2))`
/// with the first term folded in f64.
fn lanczos_log_t(o: &mut Ops<'_, '_>, z: InstId) -> Result<(InstId, InstId)> {
    let gh = o.k(LANCZOS_G + 0.5)?;
    let t = o.bin(Opcode::Add, gh, z)?;
    let log_gh = o.k((LANCZOS_G + 0.5).ln())?;
    let q = o.bin(Opcode::Divide, z, gh)?;
    let l = o.un(Opcode::Log1p, q)?;
    let log_t = o.bin(Opcode::Add, log_gh, l)?;
    Ok((t, log_t))
}

/// `|x| = inf`.
fn is_inf(o: &mut Ops<'_, '_>, x: InstId) -> Result<InstId> {
    let ax = o.un(Opcode::Abs, x)?;
    let inf = o.k(f64::INFINITY)?;
    o.cmp(Dir::Eq, ax, inf)
}

/// `log|Γ(x)|` by the Lanczos approximation:
/// `lgamma(z + 1) = log(2π)/2 + (z + 1/2 - t/log t)·log t + log a(z)` with
/// `a(z) = base + Σ c_k/(z + k)`; below 1/2 by Euler's reflection,
/// `log π - log|sin(π·frac|x|)| - lgamma(1 - x)` (the fraction folded to at
/// most 1/2, the log's infinities winning), and `+inf` at `±inf`.
fn lgamma_in(o: &mut Ops<'_, '_>, x: InstId) -> Result<InstId> {
    let (reflect, z) = lanczos_z(o, x)?;
    let mut a = o.k(LANCZOS_BASE)?;
    for (i, &c) in LANCZOS.iter().enumerate() {
        let c = o.k(c)?;
        let k = o.k((i + 1) as f64)?;
        let zk = o.bin(Opcode::Add, z, k)?;
        let q = o.bin(Opcode::Divide, c, zk)?;
        a = o.bin(Opcode::Add, a, q)?;
    }
    let (t, log_t) = lanczos_log_t(o, z)?;
    // (z + 1/2)·log t - t, without overflowing for large t.
    let t_over = o.bin(Opcode::Divide, t, log_t)?;
    let half = o.k(0.5)?;
    let zh = o.bin(Opcode::Add, z, half)?;
    let s = o.bin(Opcode::Subtract, zh, t_over)?;
    let r = o.bin(Opcode::Multiply, s, log_t)?;
    let log_a = o.un(Opcode::Log, a)?;
    let c = o.k((2f64.ln() + PI.ln()) / 2.0)?;
    let v = o.bin(Opcode::Add, c, r)?;
    let lgamma = o.bin(Opcode::Add, v, log_a)?;
    // Reflection, with |sin(π x)| evaluated at the fraction of |x| folded into [0, 1/2].
    let ax = o.un(Opcode::Abs, x)?;
    let fl = o.un(Opcode::Floor, ax)?;
    let frac = o.bin(Opcode::Subtract, ax, fl)?;
    let fold = o.cmp(Dir::Lt, half, frac)?;
    let one = o.k(1.0)?;
    let folded = o.bin(Opcode::Subtract, one, frac)?;
    let frac = o.select(fold, folded, frac)?;
    let pi = o.k(PI)?;
    let px = o.bin(Opcode::Multiply, pi, frac)?;
    let sin = o.un(Opcode::Sine, px)?;
    let denom = o.un(Opcode::Log, sin)?;
    let log_pi = o.k(PI.ln())?;
    let refl = o.bin(Opcode::Subtract, log_pi, denom)?;
    let refl = o.bin(Opcode::Subtract, refl, lgamma)?;
    let finite = o.un(Opcode::IsFinite, denom)?;
    let neg_denom = o.un(Opcode::Negate, denom)?;
    let refl = o.select(finite, refl, neg_denom)?;
    let lgamma = o.select(reflect, refl, lgamma)?;
    let inf_x = is_inf(o, x)?;
    let inf = o.k(f64::INFINITY)?;
    o.select(inf_x, inf, lgamma)
}

/// `digamma(x) = Γ'(x)/Γ(x)` by the Lanczos approximation:
/// `digamma(z + 1) = log t + a'(z)/a(z) - g/t`; below 1/2 by reflection,
/// `digamma(1 - x) - π·cos(πx)/sin(πx)` with `x` first shifted into
/// `[-1/2, 1/2]`; NaN at the poles (integers `<= 0`).
fn digamma_in(o: &mut Ops<'_, '_>, x: InstId) -> Result<InstId> {
    let (reflect, z) = lanczos_z(o, x)?;
    let zero = o.k(0.0)?;
    let mut a = o.k(LANCZOS_BASE)?;
    let mut a_prime = zero;
    for (i, &c) in LANCZOS.iter().enumerate() {
        let c = o.k(c)?;
        let k = o.k((i + 1) as f64)?;
        let zk = o.bin(Opcode::Add, z, k)?;
        let zk2 = o.bin(Opcode::Multiply, zk, zk)?;
        let d = o.bin(Opcode::Divide, c, zk2)?;
        a_prime = o.bin(Opcode::Subtract, a_prime, d)?;
        let q = o.bin(Opcode::Divide, c, zk)?;
        a = o.bin(Opcode::Add, a, q)?;
    }
    let (t, log_t) = lanczos_log_t(o, z)?;
    let ratio = o.bin(Opcode::Divide, a_prime, a)?;
    let g = o.k(LANCZOS_G)?;
    let g_over_t = o.bin(Opcode::Divide, g, t)?;
    let s = o.bin(Opcode::Add, log_t, ratio)?;
    let digamma = o.bin(Opcode::Subtract, s, g_over_t)?;
    // x + |floor(x + 1/2)|: x moved into [-1/2, 1/2] for an accurate cot(πx).
    let half = o.k(0.5)?;
    let xh = o.bin(Opcode::Add, x, half)?;
    let fl = o.un(Opcode::Floor, xh)?;
    let afl = o.un(Opcode::Abs, fl)?;
    let reduced = o.bin(Opcode::Add, x, afl)?;
    let pi = o.k(PI)?;
    let px = o.bin(Opcode::Multiply, pi, reduced)?;
    let cos = o.un(Opcode::Cosine, px)?;
    let sin = o.un(Opcode::Sine, px)?;
    let pc = o.bin(Opcode::Multiply, pi, cos)?;
    let cot = o.bin(Opcode::Divide, pc, sin)?;
    let refl = o.bin(Opcode::Subtract, digamma, cot)?;
    let digamma = o.select(reflect, refl, digamma)?;
    let nonpos = o.cmp(Dir::Le, x, zero)?;
    let fx = o.un(Opcode::Floor, x)?;
    let int = o.cmp(Dir::Eq, x, fx)?;
    let pole = o.bin(Opcode::And, nonpos, int)?;
    let nan = o.k(f64::NAN)?;
    o.select(pole, nan, digamma)
}

/// Euler–Maclaurin coefficients of the Hurwitz zeta expansion (their
/// reciprocals are `B_2k/(2k)!`).
#[allow(clippy::excessive_precision)]
const ZETA: [f64; 12] = [
    -7.1661652561756670113e18,
    1.8152105401943546773e17,
    -4.5979787224074726105e15,
    1.1646782814350067249e14,
    -2.950130727918164224e12,
    7.47242496e10,
    -1.8924375803183791606e9,
    47900160.0,
    -1209600.0,
    30240.0,
    -720.0,
    12.0,
];

/// The smallest positive subnormal of the dtype.
fn smallest_subnormal(dtype: DType) -> f64 {
    match dtype {
        DType::F64 => f64::from_bits(1),
        _ => f64::from(f32::from_bits(1)),
    }
}

/// Hurwitz `zeta(x, q) = Σ (q + k)^-x` (Johansson, "Rigorous high-precision
/// computation of the Hurwitz zeta function and its derivatives", 2015, eq. 5):
/// the first 10 terms summed directly, the tail by a 12-term Euler–Maclaurin
/// expansion in Horner form (skipped where the sum already swamps it). NaN for
/// `x < 1` and for non-integer `x` at `q <= 0`; at the poles (integer `q <= 0`)
/// `inf` for even integer `x`, else NaN; `inf` at `x = 1`.
fn zeta_in(o: &mut Ops<'_, '_>, x: InstId, q: InstId) -> Result<InstId> {
    const TERMS: usize = 12;
    const ITERS: usize = 9;
    let zero = o.k(0.0)?;
    let one = o.k(1.0)?;
    let nx = o.un(Opcode::Negate, x)?;
    let mut acc = q;
    let mut power_sum = o.bin(Opcode::Power, q, nx)?;
    for _ in 0..ITERS {
        acc = o.bin(Opcode::Add, acc, one)?;
        let p = o.bin(Opcode::Power, acc, nx)?;
        power_sum = o.bin(Opcode::Add, power_sum, p)?;
    }
    acc = o.bin(Opcode::Add, acc, one)?;
    let q_neg_power = o.bin(Opcode::Power, acc, nx)?;
    // Integral of the tail: (q + N)^(1-x)/(x - 1).
    let m = o.bin(Opcode::Multiply, q_neg_power, acc)?;
    let xm1 = o.bin(Opcode::Subtract, x, one)?;
    let correction = o.bin(Opcode::Divide, m, xm1)?;
    let acc2 = o.bin(Opcode::Multiply, acc, acc)?;
    let inv_acc2 = o.bin(Opcode::Divide, one, acc2)?;
    let mut horner = zero;
    for (i, &c) in ZETA[..TERMS - 1].iter().enumerate() {
        let lhs_k = o.k((2 * TERMS - 2 - 2 * i) as f64)?;
        let lhs = o.bin(Opcode::Add, x, lhs_k)?;
        let rhs_k = o.k((2 * TERMS - 3 - 2 * i) as f64)?;
        let rhs = o.bin(Opcode::Add, x, rhs_k)?;
        let product = o.bin(Opcode::Multiply, lhs, rhs)?;
        let ck = o.k(1.0 / c)?;
        let s = o.bin(Opcode::Add, horner, ck)?;
        let s = o.bin(Opcode::Multiply, inv_acc2, s)?;
        horner = o.bin(Opcode::Multiply, product, s)?;
    }
    let half = o.k(0.5)?;
    let x_over = o.bin(Opcode::Divide, x, acc)?;
    let last = o.k(1.0 / ZETA[TERMS - 1])?;
    let s = o.bin(Opcode::Add, last, horner)?;
    let s = o.bin(Opcode::Multiply, x_over, s)?;
    let s = o.bin(Opcode::Add, half, s)?;
    let tail = o.bin(Opcode::Multiply, q_neg_power, s)?;
    let accurate = o.bin(Opcode::Add, power_sum, correction)?;
    let accurate = o.bin(Opcode::Add, accurate, tail)?;
    let a_last = o.un(Opcode::Abs, q_neg_power)?;
    let a_sum = o.un(Opcode::Abs, power_sum)?;
    let tiny = o.k(smallest_subnormal(o.dtype))?;
    let bound = o.bin(Opcode::Multiply, a_sum, tiny)?;
    let converged = o.cmp(Dir::Lt, a_last, bound)?;
    let out = o.select(converged, power_sum, accurate)?;
    // Domain and poles.
    let nan = o.k(f64::NAN)?;
    let below = o.cmp(Dir::Lt, x, one)?;
    let out = o.select(below, nan, out)?;
    let q_nonpos = o.cmp(Dir::Le, q, zero)?;
    let fx = o.un(Opcode::Floor, x)?;
    let x_frac = o.cmp(Dir::Ne, x, fx)?;
    let domain = o.bin(Opcode::And, q_nonpos, x_frac)?;
    let out = o.select(domain, nan, out)?;
    let inf = o.k(f64::INFINITY)?;
    let fq = o.un(Opcode::Floor, q)?;
    let q_int = o.cmp(Dir::Eq, q, fq)?;
    let pole = o.bin(Opcode::And, q_nonpos, q_int)?;
    let two = o.k(2.0)?;
    let fx = o.un(Opcode::Floor, x)?;
    let x_int = o.cmp(Dir::Eq, x, fx)?;
    let rem = o.bin(Opcode::Remainder, x, two)?;
    let even = o.cmp(Dir::Eq, rem, zero)?;
    let even_int = o.bin(Opcode::And, x_int, even)?;
    let at_pole = o.select(even_int, inf, nan)?;
    let out = o.select(pole, at_pole, out)?;
    let x_one = o.cmp(Dir::Eq, x, one)?;
    o.select(x_one, inf, out)
}

/// `polygamma(n, x)`: `(-1)^(n+1)·n!·zeta(n + 1, x)` (with `n! = exp(lgamma(n +
/// 1))`), `digamma(x)` for `n = 0`, NaN unless `n` is a natural number.
fn polygamma_in(o: &mut Ops<'_, '_>, n: InstId, x: InstId) -> Result<InstId> {
    let one = o.k(1.0)?;
    let two = o.k(2.0)?;
    let rem = o.bin(Opcode::Remainder, n, two)?;
    let sign = o.bin(Opcode::Multiply, two, rem)?;
    let sign = o.bin(Opcode::Subtract, sign, one)?;
    let np1 = o.bin(Opcode::Add, n, one)?;
    let lg = lgamma_in(o, np1)?;
    let factorial = o.un(Opcode::Exp, lg)?;
    let zeta = zeta_in(o, np1, x)?;
    let r = o.bin(Opcode::Multiply, sign, factorial)?;
    let r = o.bin(Opcode::Multiply, r, zeta)?;
    let zero = o.k(0.0)?;
    let n_zero = o.cmp(Dir::Eq, n, zero)?;
    let dg = digamma_in(o, x)?;
    let r = o.select(n_zero, dg, r)?;
    let fl = o.un(Opcode::Floor, n)?;
    let non_int = o.cmp(Dir::Ne, n, fl)?;
    let negative = o.cmp(Dir::Lt, n, zero)?;
    let unnatural = o.bin(Opcode::Or, non_int, negative)?;
    let nan = o.k(f64::NAN)?;
    o.select(unnatural, nan, r)
}

pub fn lgamma(b: &mut ComputationBuilder<'_>, x: InstId) -> Result<InstId> {
    with_ops(b, &[x], Precision::AtLeastF32, |o, xs| lgamma_in(o, xs[0]))
}

pub fn digamma(b: &mut ComputationBuilder<'_>, x: InstId) -> Result<InstId> {
    with_ops(b, &[x], Precision::AtLeastF32, |o, xs| digamma_in(o, xs[0]))
}

pub fn zeta(b: &mut ComputationBuilder<'_>, x: InstId, q: InstId) -> Result<InstId> {
    with_ops(b, &[x, q], Precision::AtLeastF32, |o, xs| zeta_in(o, xs[0], xs[1]))
}

pub fn polygamma(b: &mut ComputationBuilder<'_>, n: InstId, x: InstId) -> Result<InstId> {
    with_ops(b, &[n, x], Precision::AtLeastF32, |o, xs| polygamma_in(o, xs[0], xs[1]))
}

/// Chebyshev series `Σ' c_k T_k(x)` by Clenshaw's recurrence, as Cephes'
/// `chbevl` evaluates it: `(b0 - b2)/2`.
fn chebyshev(o: &mut Ops<'_, '_>, x: InstId, coeffs: &[f32]) -> Result<InstId> {
    let mut b0 = o.k(0.0)?;
    let mut b1 = o.k(0.0)?;
    let mut b2 = o.k(0.0)?;
    for &c in coeffs {
        b2 = b1;
        b1 = b0;
        let m = o.bin(Opcode::Multiply, x, b1)?;
        let d = o.bin(Opcode::Subtract, m, b2)?;
        let c = o.c(c)?;
        b0 = o.bin(Opcode::Add, d, c)?;
    }
    let d = o.bin(Opcode::Subtract, b0, b2)?;
    let half = o.k(0.5)?;
    o.bin(Opcode::Multiply, d, half)
}

/// `bessel_i1e(x) = e^-|x|·I1(x)`, Cephes' `i1e` in single precision: a
/// Chebyshev series in `|x|/2 - 2` times `|x|` up to 8, one in `32/|x| - 2`
/// over `sqrt|x|` beyond, signed like `x`.
// The coefficients are written as published, digits past f32's included.
#[allow(clippy::excessive_precision)]
pub fn bessel_i1e(b: &mut ComputationBuilder<'_>, x: InstId) -> Result<InstId> {
    const NEAR: [f32; 17] = [
        9.38153738649577178388e-9,
        -4.44505912879632808065e-8,
        2.00329475355213526229e-7,
        -8.56872026469545474066e-7,
        3.47025130813767847674e-6,
        -1.32731636560394358279e-5,
        4.78156510755005422638e-5,
        -1.61760815825896745588e-4,
        5.12285956168575772895e-4,
        -1.51357245063125314899e-3,
        4.15642294431288815669e-3,
        -1.05640848946261981558e-2,
        2.47264490306265168283e-2,
        -5.29459812080949914269e-2,
        1.02643658689847095384e-1,
        -1.76416518357834055153e-1,
        2.52587186443633654823e-1,
    ];
    const FAR: [f32; 7] = [
        -3.83538038596423702205e-9,
        -2.63146884688951950684e-8,
        -2.51223623787020892529e-7,
        -3.88256480887769039346e-6,
        -1.10588938762623716291e-4,
        -9.76109749136146840777e-3,
        7.78576235018280120474e-1,
    ];
    with_ops(b, &[x], Precision::F32, |o, xs| {
        let x = xs[0];
        let z = o.un(Opcode::Abs, x)?;
        let half = o.k(0.5)?;
        let two = o.k(2.0)?;
        let thirty_two = o.k(32.0)?;
        let eight = o.k(8.0)?;
        let t = o.bin(Opcode::Multiply, half, z)?;
        let t = o.bin(Opcode::Subtract, t, two)?;
        let near = chebyshev(o, t, &NEAR)?;
        let near = o.bin(Opcode::Multiply, z, near)?;
        let t = o.bin(Opcode::Divide, thirty_two, z)?;
        let t = o.bin(Opcode::Subtract, t, two)?;
        let far = chebyshev(o, t, &FAR)?;
        let sz = o.un(Opcode::Sqrt, z)?;
        let far = o.bin(Opcode::Divide, far, sz)?;
        let le8 = o.cmp(Dir::Le, z, eight)?;
        let r = o.select(le8, near, far)?;
        let sign = o.un(Opcode::Sign, x)?;
        o.bin(Opcode::Multiply, sign, r)
    })
}
