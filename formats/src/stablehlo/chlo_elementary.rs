//! Hyperbolic and inverse trigonometric CHLO ops, and `next_after`, decomposed
//! into HLO as XLA's CHLO legalization does (kept apart from `chlo` so that each
//! file stays readable).
//!
//! `sinh` and `cosh` compute in at least f32 (f16 and bf16 widened); `asin`,
//! `acos`, `asinh`, `acosh`, `atanh`, `atan` and `next_after` in the operands'
//! own dtype, as their formulas do not depend on the precision. Complex operands
//! are expanded for `atan` and `atanh` only. Constants XLA folds from an op on a
//! constant (`log(1/2)`, `sqrt(max)`) are folded the same way here.

use smelt_hlo::attrs::ComparisonDirection as Dir;
use smelt_hlo::builder::ComputationBuilder;
use smelt_hlo::{Array, ArrayData, DType, InstId, Opcode};

use super::chlo::{Ops, Precision, Result, parts, with_ops};

/// `e^(x + log(1/2)) ∓ e^(log(1/2) - x)`: `(e^x ∓ e^-x)/2` without overflowing
/// where `e^x` does but half of it does not.
fn half_exps(o: &mut Ops<'_, '_>, x: InstId, combine: Opcode) -> Result<InstId> {
    let log_half = o.k_folded(0.5, f64::ln, f32::ln)?;
    let a = o.bin(Opcode::Add, x, log_half)?;
    let ea = o.un(Opcode::Exp, a)?;
    let s = o.bin(Opcode::Subtract, log_half, x)?;
    let es = o.un(Opcode::Exp, s)?;
    o.bin(combine, ea, es)
}

/// `sinh(x)`: `(expm1(x) + expm1(x)/(expm1(x) + 1))/2` for `|x| < 1` (no
/// cancellation), `e^(x + log(1/2)) - e^(log(1/2) - x)` otherwise.
pub fn sinh(b: &mut ComputationBuilder<'_>, x: InstId) -> Result<InstId> {
    real_only(b, x)?;
    with_ops(b, &[x], Precision::AtLeastF32, |o, xs| {
        let x = xs[0];
        let large = half_exps(o, x, Opcode::Subtract)?;
        let em1 = o.un(Opcode::Expm1, x)?;
        let one = o.k(1.0)?;
        let half = o.k(0.5)?;
        let ex = o.bin(Opcode::Add, em1, one)?;
        let ratio = o.bin(Opcode::Divide, em1, ex)?;
        let sum = o.bin(Opcode::Add, em1, ratio)?;
        let small = o.bin(Opcode::Multiply, half, sum)?;
        let ax = o.un(Opcode::Abs, x)?;
        let is_small = o.cmp(Dir::Lt, ax, one)?;
        o.select(is_small, small, large)
    })
}

/// `cosh(x) = e^(x + log(1/2)) + e^(log(1/2) - x)`.
pub fn cosh(b: &mut ComputationBuilder<'_>, x: InstId) -> Result<InstId> {
    real_only(b, x)?;
    with_ops(b, &[x], Precision::AtLeastF32, |o, xs| half_exps(o, xs[0], Opcode::Add))
}

/// `asinh(x) = sign(x)·log1p(|x| + x²/(1 + sqrt(1 + x²)))`, or
/// `sign(x)·(log 2 + log|x|)` from `sqrt(max)` on, where `x²` overflows.
pub fn asinh(b: &mut ComputationBuilder<'_>, x: InstId) -> Result<InstId> {
    real_only(b, x)?;
    with_ops(b, &[x], Precision::Native, |o, xs| {
        let x = xs[0];
        let sign = o.un(Opcode::Sign, x)?;
        let ax = o.un(Opcode::Abs, x)?;
        let max = o.max_finite();
        let root_max = o.k_folded(max, f64::sqrt, f32::sqrt)?;
        let huge = o.cmp(Dir::Ge, ax, root_max)?;
        let log2 = o.k_folded(2.0, f64::ln, f32::ln)?;
        let lx = o.un(Opcode::Log, ax)?;
        let huge_val = o.bin(Opcode::Add, log2, lx)?;
        let ax2 = o.bin(Opcode::Multiply, ax, ax)?;
        let one = o.k(1.0)?;
        let s = o.bin(Opcode::Add, one, ax2)?;
        let s = o.un(Opcode::Sqrt, s)?;
        let d = o.bin(Opcode::Add, one, s)?;
        let q = o.bin(Opcode::Divide, ax2, d)?;
        let t = o.bin(Opcode::Add, ax, q)?;
        let val = o.un(Opcode::Log1p, t)?;
        let r = o.select(huge, huge_val, val)?;
        o.bin(Opcode::Multiply, sign, r)
    })
}

/// `acosh(x) = log1p(sqrt(x - 1)·(sqrt(x + 1) + sqrt(x - 1)))` (NaN below 1), or
/// `log 2 + log x` from `max/2` on, where the product overflows.
pub fn acosh(b: &mut ComputationBuilder<'_>, x: InstId) -> Result<InstId> {
    real_only(b, x)?;
    with_ops(b, &[x], Precision::Native, |o, xs| {
        let x = xs[0];
        let max = o.max_finite();
        let half_max = o.k(max / 2.0)?;
        let huge = o.cmp(Dir::Ge, x, half_max)?;
        let log2 = o.k_folded(2.0, f64::ln, f32::ln)?;
        let lx = o.un(Opcode::Log, x)?;
        let huge_val = o.bin(Opcode::Add, log2, lx)?;
        let one = o.k(1.0)?;
        let xm1 = o.bin(Opcode::Subtract, x, one)?;
        let sm = o.un(Opcode::Sqrt, xm1)?;
        let xp1 = o.bin(Opcode::Add, x, one)?;
        let sp = o.un(Opcode::Sqrt, xp1)?;
        let s = o.bin(Opcode::Add, sp, sm)?;
        let p = o.bin(Opcode::Multiply, sm, s)?;
        let val = o.un(Opcode::Log1p, p)?;
        o.select(huge, huge_val, val)
    })
}

/// `atanh(x) = (log1p(x) - log1p(-x))/2`, NaN for `|x| > 1`; complex values as
/// [`atanh_parts`] does.
pub fn atanh(b: &mut ComputationBuilder<'_>, x: InstId) -> Result<InstId> {
    if is_complex(b, x)? {
        let (mut o, re, im) = parts(b, x)?;
        let (r, i) = atanh_parts(&mut o, re, im)?;
        return o.bin(Opcode::Complex, r, i);
    }
    with_ops(b, &[x], Precision::Native, |o, xs| {
        let x = xs[0];
        let ax = o.un(Opcode::Abs, x)?;
        let one = o.k(1.0)?;
        let outside = o.cmp(Dir::Gt, ax, one)?;
        let nan = o.k(f64::NAN)?;
        let lp = o.un(Opcode::Log1p, x)?;
        let nx = o.un(Opcode::Negate, x)?;
        let lm = o.un(Opcode::Log1p, nx)?;
        let d = o.bin(Opcode::Subtract, lp, lm)?;
        let half = o.k(0.5)?;
        let val = o.bin(Opcode::Multiply, d, half)?;
        o.select(outside, nan, val)
    })
}

/// `sqrt(1 - x²)`, computed as `sqrt((1 - x)(1 + x))` to avoid cancellation
/// near `|x| = 1`.
fn cos_of_asin(o: &mut Ops<'_, '_>, x: InstId, one: InstId) -> Result<InstId> {
    let omx = o.bin(Opcode::Subtract, one, x)?;
    let opx = o.bin(Opcode::Add, one, x)?;
    let p = o.bin(Opcode::Multiply, omx, opx)?;
    o.un(Opcode::Sqrt, p)
}

/// `asin(x) = 2·atan2(x, 1 + sqrt(1 - x²))`, the doubling an add.
pub fn asin(b: &mut ComputationBuilder<'_>, x: InstId) -> Result<InstId> {
    real_only(b, x)?;
    with_ops(b, &[x], Precision::Native, |o, xs| {
        let x = xs[0];
        let one = o.k(1.0)?;
        let s = cos_of_asin(o, x, one)?;
        let d = o.bin(Opcode::Add, one, s)?;
        let ta = o.bin(Opcode::Atan2, x, d)?;
        o.bin(Opcode::Add, ta, ta)
    })
}

/// `acos(x) = atan2(sqrt(1 - x²), x)`.
pub fn acos(b: &mut ComputationBuilder<'_>, x: InstId) -> Result<InstId> {
    real_only(b, x)?;
    with_ops(b, &[x], Precision::Native, |o, xs| {
        let one = o.k(1.0)?;
        let s = cos_of_asin(o, xs[0], one)?;
        o.bin(Opcode::Atan2, s, xs[0])
    })
}

/// `atan(x) = atan2(x, 1)`; complex `atan(z) = -i·atanh(i·z)`.
pub fn atan(b: &mut ComputationBuilder<'_>, x: InstId) -> Result<InstId> {
    if is_complex(b, x)? {
        let (mut o, re, im) = parts(b, x)?;
        let o = &mut o;
        let nim = o.un(Opcode::Negate, im)?;
        let (wr, wi) = atanh_parts(o, nim, re)?;
        let nwr = o.un(Opcode::Negate, wr)?;
        return o.bin(Opcode::Complex, wi, nwr);
    }
    with_ops(b, &[x], Precision::Native, |o, xs| {
        let one = o.k(1.0)?;
        o.bin(Opcode::Atan2, xs[0], one)
    })
}

fn is_complex(b: &ComputationBuilder<'_>, x: InstId) -> Result<bool> {
    let shape = b.shape(x).map_err(|e| e.to_string())?;
    Ok(shape.as_array().ok_or("operand must be an array")?.dtype.is_complex())
}

/// Refuses complex operands, for ops expanded only on reals here.
fn real_only(b: &ComputationBuilder<'_>, x: InstId) -> Result<()> {
    if is_complex(b, x)? { Err("complex operands are not supported".into()) } else { Ok(()) }
}

/// The real and imaginary parts of `atanh(x + iy)`:
///
/// - real: `sign(x)·log1p(4|x|/((1 - |x|)² + y²))/4`, with the quotient
///   `1/|x|` where `|y|` is negligible next to a huge `|x|`, 0 at infinities,
///   and `1/(|x|/y + y/|x|)/y` for other huge values;
/// - imaginary: `atan2(2y, (1 - |x|)(1 + |x|) - y²)/2`, `sign(y)·π/2` for huge
///   values.
///
/// "Huge" is beyond `1/ε²` with `ε = 1 - nextafter(1, 0)`.
fn atanh_parts(o: &mut Ops<'_, '_>, x: InstId, y: InstId) -> Result<(InstId, InstId)> {
    // 1/ε for the parts' dtype, squared in that dtype.
    let (inv_eps, safe_max) = if o.dtype == DType::F64 {
        (9007199254740994.0, 9007199254740994.0f64 * 9007199254740994.0)
    } else {
        (16777218.0, f64::from(16777218.0f32 * 16777218.0f32))
    };
    let zero = o.k(0.0)?;
    let one = o.k(1.0)?;
    let neg_one = o.k(-1.0)?;
    let x_nonneg = o.cmp(Dir::Ge, x, zero)?;
    let sign_x = o.select(x_nonneg, one, neg_one)?;
    let ax = o.un(Opcode::Abs, x)?;
    let ay = o.un(Opcode::Abs, y)?;
    let safe_max = o.k(safe_max)?;
    let inv_eps = o.k(inv_eps)?;
    let x_safe = o.cmp(Dir::Lt, ax, safe_max)?;
    let y_safe = o.cmp(Dir::Lt, ay, safe_max)?;
    let safe = o.bin(Opcode::And, x_safe, y_safe)?;
    // In the safe region: |x|/((1 - |x|)² + y²).
    let naxm1 = o.bin(Opcode::Subtract, one, ax)?;
    let n2 = o.bin(Opcode::Multiply, naxm1, naxm1)?;
    let y2 = o.bin(Opcode::Multiply, y, y)?;
    let d = o.bin(Opcode::Add, n2, y2)?;
    let safe_q = o.bin(Opcode::Divide, ax, d)?;
    // Beyond it: 1/|x| where y is negligible, 0 at infinities, else the scaled form.
    let ayi = o.bin(Opcode::Multiply, ay, inv_eps)?;
    let y_negligible = o.cmp(Dir::Lt, ayi, ax)?;
    let inv_ax = o.bin(Opcode::Divide, one, ax)?;
    let pinf = o.k(f64::INFINITY)?;
    let ninf = o.k(f64::NEG_INFINITY)?;
    let infinite = |o: &mut Ops<'_, '_>, v: InstId| -> Result<InstId> {
        let p = o.cmp(Dir::Eq, v, pinf)?;
        let n = o.cmp(Dir::Eq, v, ninf)?;
        o.bin(Opcode::Or, p, n)
    };
    let x_inf = infinite(o, x)?;
    let y_inf = infinite(o, y)?;
    let any_inf = o.bin(Opcode::Or, x_inf, y_inf)?;
    let r1 = o.bin(Opcode::Divide, ax, y)?;
    let r2 = o.bin(Opcode::Divide, y, ax)?;
    let r = o.bin(Opcode::Add, r1, r2)?;
    let inv = o.bin(Opcode::Divide, one, r)?;
    let scaled = o.bin(Opcode::Divide, inv, y)?;
    let far_q = o.select(any_inf, zero, scaled)?;
    let far_q = o.select(y_negligible, inv_ax, far_q)?;
    let q = o.select(safe, safe_q, far_q)?;
    let four = o.k(4.0)?;
    let q4 = o.bin(Opcode::Multiply, four, q)?;
    let l = o.un(Opcode::Log1p, q4)?;
    let re = o.bin(Opcode::Multiply, sign_x, l)?;
    let quarter = o.k(0.25)?;
    let re = o.bin(Opcode::Multiply, re, quarter)?;
    // Imaginary part.
    let yy = o.bin(Opcode::Add, y, y)?;
    let opax = o.bin(Opcode::Add, one, ax)?;
    let p = o.bin(Opcode::Multiply, naxm1, opax)?;
    let den = o.bin(Opcode::Subtract, p, y2)?;
    let near = o.bin(Opcode::Atan2, yy, den)?;
    let y_nonneg = o.cmp(Dir::Ge, y, zero)?;
    let sign_y = o.select(y_nonneg, one, neg_one)?;
    let pi = o.k(std::f64::consts::PI)?;
    let far = o.bin(Opcode::Multiply, sign_y, pi)?;
    let im = o.select(safe, near, far)?;
    let half = o.k(0.5)?;
    let im = o.bin(Opcode::Multiply, im, half)?;
    Ok((re, im))
}

/// `next_after(x, y)`: the float after `x` toward `y`, by stepping the bit
/// pattern of `x` by ±1 (NaN if either is NaN, `y` if they are equal, the
/// smallest subnormal signed like `y` from zero).
pub fn next_after(b: &mut ComputationBuilder<'_>, x: InstId, y: InstId) -> Result<InstId> {
    with_ops(b, &[x, y], Precision::Native, |o, xs| {
        let (x, y) = (xs[0], xs[1]);
        let int = match o.dtype {
            DType::F16 | DType::Bf16 => DType::S16,
            DType::F32 => DType::S32,
            _ => DType::S64,
        };
        let ik = |o: &mut Ops<'_, '_>, v: i64| -> Result<InstId> {
            let data = match int {
                DType::S16 => ArrayData::S16(vec![v as i16]),
                DType::S32 => ArrayData::S32(vec![v as i32]),
                _ => ArrayData::S64(vec![v]),
            };
            let s = o.b.constant(Array::new([0i64; 0], data).into()).map_err(|e| e.to_string())?;
            o.b.broadcast(s, &o.dims, &[]).map_err(|e| e.to_string())
        };
        let bits = |o: &mut Ops<'_, '_>, v: InstId| o.b.bitcast_convert(v, int).map_err(|e| e.to_string());
        let xi = bits(o, x)?;
        let yi = bits(o, y)?;
        let x_nan = o.cmp(Dir::Ne, x, x)?;
        let y_nan = o.cmp(Dir::Ne, y, y)?;
        let any_nan = o.bin(Opcode::Or, x_nan, y_nan)?;
        let nan = o.k(f64::NAN)?;
        let nan = bits(o, nan)?;
        let width = int.byte_size() * 8;
        let sign_bit = i64::MIN >> (64 - width);
        let sign_mask = ik(o, sign_bit)?;
        let magnitude_mask = ik(o, !sign_bit)?;
        let x_abs = o.bin(Opcode::And, xi, magnitude_mask)?;
        let y_abs = o.bin(Opcode::And, yi, magnitude_mask)?;
        let equal = o.cmp(Dir::Eq, x, y)?;
        let zero = ik(o, 0)?;
        let x_zero = o.cmp(Dir::Eq, x_abs, zero)?;
        let y_zero = o.cmp(Dir::Eq, y_abs, zero)?;
        let x_sign = o.bin(Opcode::And, xi, sign_mask)?;
        let y_sign = o.bin(Opcode::And, yi, sign_mask)?;
        let one = ik(o, 1)?;
        let smallest = o.bin(Opcode::Or, y_sign, one)?;
        let signs_differ = o.cmp(Dir::Ne, x_sign, y_sign)?;
        let x_larger = o.cmp(Dir::Gt, x_abs, y_abs)?;
        let shrink = o.bin(Opcode::Or, x_larger, signs_differ)?;
        let minus_one = ik(o, -1)?;
        let step = o.select(shrink, minus_one, one)?;
        let r = o.bin(Opcode::Add, xi, step)?;
        let from_zero = o.select(y_zero, yi, smallest)?;
        let r = o.select(x_zero, from_zero, r)?;
        let r = o.select(equal, yi, r)?;
        let r = o.select(any_nan, nan, r)?;
        o.b.bitcast_convert(r, o.dtype).map_err(|e| e.to_string())
    })
}
