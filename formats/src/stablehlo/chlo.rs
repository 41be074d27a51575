//! CHLO ops HLO has no opcode for, decomposed into HLO as XLA's CHLO legalization
//! does, so results match XLA's to the rounding.
//!
//! `erfc` is Cephes' single-precision `erfcf` (a polynomial in `x²` below 1, and
//! `exp(-x²)/|x|` times a polynomial in `1/x²` above); `erf_inv` is Giles'
//! single-precision approximation ("Approximating the erfinv function", GPU
//! Computing Gems, 2011). Both compute in f32: f16 and bf16 inputs are widened and
//! the result narrowed, and f64 inputs are refused.
//!
//! Complex `exp`, `log`, `log1p` and `sqrt` are expanded into arithmetic on the
//! real and imaginary parts (f32 or f64) as XLA's StableHLO import does.

use smelt_hlo::attrs::ComparisonDirection as Dir;
use smelt_hlo::builder::ComputationBuilder;
use smelt_hlo::{Array, ArrayData, DType, InstId, Opcode};

pub(super) type Result<T> = std::result::Result<T, String>;

/// Elementwise arithmetic over one shape of one float dtype, for writing the
/// expansions.
pub(super) struct Ops<'b, 'c> {
    pub b: &'b mut ComputationBuilder<'c>,
    pub dims: Vec<i64>,
    pub dtype: DType,
}

impl Ops<'_, '_> {
    /// An f32 constant, for the f32-only polynomials.
    pub fn c(&mut self, v: f32) -> Result<InstId> {
        let s = self.b.constant(Array::scalar(v).into()).map_err(|e| e.to_string())?;
        self.b.broadcast(s, &self.dims, &[]).map_err(|e| e.to_string())
    }

    /// A constant of the operands' dtype: `v` rounded to it.
    pub fn k(&mut self, v: f64) -> Result<InstId> {
        let a = Array::new([0i64; 0], ArrayData::from_f64(self.dtype, [v]));
        let s = self.b.constant(a.into()).map_err(|e| e.to_string())?;
        self.b.broadcast(s, &self.dims, &[]).map_err(|e| e.to_string())
    }

    /// `f(v)` as XLA folds a constant op of the operands' dtype: computed in f64
    /// for f64, else in f32, then rounded to the dtype.
    pub fn k_folded(&mut self, v: f64, f: fn(f64) -> f64, f32f: fn(f32) -> f32) -> Result<InstId> {
        let v = if self.dtype == DType::F64 { f(v) } else { f64::from(f32f(v as f32)) };
        self.k(v)
    }

    /// The largest finite value of the operands' dtype.
    pub fn max_finite(&self) -> f64 {
        match self.dtype {
            DType::F64 => f64::MAX,
            DType::F16 => 65504.0,
            DType::Bf16 => f64::from(f32::from_bits(0x7f7f_0000)),
            _ => f64::from(f32::MAX),
        }
    }

    pub fn bin(&mut self, op: Opcode, a: InstId, b: InstId) -> Result<InstId> {
        self.b.binary(op, a, b).map_err(|e| e.to_string())
    }

    pub fn un(&mut self, op: Opcode, a: InstId) -> Result<InstId> {
        self.b.unary(op, a).map_err(|e| e.to_string())
    }

    pub fn cmp(&mut self, d: Dir, a: InstId, b: InstId) -> Result<InstId> {
        self.b.compare(d, a, b).map_err(|e| e.to_string())
    }

    pub fn select(&mut self, p: InstId, t: InstId, f: InstId) -> Result<InstId> {
        self.b.select(p, t, f).map_err(|e| e.to_string())
    }

    /// `coeffs[0]·x^(n-1) + ... + coeffs[n-1]` by Horner's rule.
    fn horner(&mut self, x: InstId, coeffs: &[f32]) -> Result<InstId> {
        let mut acc = self.c(coeffs[0])?;
        for &k in &coeffs[1..] {
            let m = self.bin(Opcode::Multiply, acc, x)?;
            let kk = self.c(k)?;
            acc = self.bin(Opcode::Add, m, kk)?;
        }
        Ok(acc)
    }

    /// Horner's rule with per-element coefficients chosen by `pred`.
    fn horner_select(&mut self, pred: InstId, x: InstId, a: &[f32], b: &[f32]) -> Result<InstId> {
        let coeff = |s: &mut Self, i: usize| -> Result<InstId> {
            let (ca, cb) = (s.c(a[i])?, s.c(b[i])?);
            s.select(pred, ca, cb)
        };
        let mut acc = coeff(self, 0)?;
        for i in 1..a.len() {
            let m = self.bin(Opcode::Multiply, acc, x)?;
            let k = coeff(self, i)?;
            acc = self.bin(Opcode::Add, m, k)?;
        }
        Ok(acc)
    }
}

/// Which float dtypes an expansion computes in.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Precision {
    /// f32 only: f16 and bf16 are widened, f64 refused.
    F32,
    /// At least f32: f16 and bf16 are widened, f32 and f64 kept (XLA's
    /// `materializeWithUpcast` to f32).
    AtLeastF32,
    /// The operands' own float dtype.
    Native,
}

/// Runs `f` on `xs` (floats of one shape and dtype) in the dtype `precision`
/// picks, and converts the result back to the operands' dtype.
pub(super) fn with_ops(
    b: &mut ComputationBuilder<'_>,
    xs: &[InstId],
    precision: Precision,
    f: impl FnOnce(&mut Ops<'_, '_>, &[InstId]) -> Result<InstId>,
) -> Result<InstId> {
    let shape_of = |b: &ComputationBuilder<'_>, x: InstId| -> Result<smelt_hlo::ArrayShape> {
        b.shape(x).map_err(|e| e.to_string())?.as_array().cloned().ok_or_else(|| "operand must be an array".into())
    };
    let first = *xs.first().ok_or("missing operand")?;
    let shape = shape_of(b, first)?;
    for &x in &xs[1..] {
        if shape_of(b, x)? != shape {
            return Err("operands must have one shape and element type".into());
        }
    }
    let dtype = shape.dtype;
    let narrow = matches!(dtype, DType::F16 | DType::Bf16);
    let supported = match precision {
        Precision::F32 => narrow || dtype == DType::F32,
        Precision::AtLeastF32 | Precision::Native => narrow || matches!(dtype, DType::F32 | DType::F64),
    };
    if !supported {
        let which = if precision == Precision::F32 { "f32, f16 and bf16" } else { "f64, f32, f16 and bf16" };
        return Err(format!("not supported for {} (only {which})", dtype.name()));
    }
    let work = if narrow && precision != Precision::Native { DType::F32 } else { dtype };
    let mut wide = Vec::with_capacity(xs.len());
    for &x in xs {
        wide.push(if work == dtype { x } else { b.convert(x, work).map_err(|e| e.to_string())? });
    }
    let mut ops = Ops { b, dims: shape.dims.to_vec(), dtype: work };
    let r = f(&mut ops, &wide)?;
    if work == dtype { Ok(r) } else { ops.b.convert(r, dtype).map_err(|e| e.to_string()) }
}

/// Runs `f` on `x` widened to f32 and narrows the result back.
fn in_f32(
    b: &mut ComputationBuilder<'_>,
    x: InstId,
    f: impl FnOnce(&mut Ops<'_, '_>, InstId) -> Result<InstId>,
) -> Result<InstId> {
    with_ops(b, &[x], Precision::F32, |o, xs| f(o, xs[0]))
}

// The coefficients are written as published, digits past f32's included.
#[allow(clippy::approx_constant, clippy::excessive_precision)]
pub fn erfc(b: &mut ComputationBuilder<'_>, x: InstId) -> Result<InstId> {
    const ERF: [f32; 7] = [
        7.853_861_5e-5,
        -8.010_193_7e-4,
        5.188_327_7e-3,
        -2.685_381_3e-2,
        1.128_358_5e-1,
        -3.761_262_6e-1,
        1.128_379_1,
    ];
    const NEAR: [f32; 9] = [
        2.326_82e-2,
        -1.387_039_4e-1,
        3.687_424_7e-1,
        -5.824_732_8e-1,
        6.210_004_7e-1,
        -4.944_515_2e-1,
        3.404_88e-1,
        -2.741_127e-1,
        5.638_259_6e-1,
    ];
    const FAR: [f32; 8] =
        [-10.477_664, 12.9772, -7.495_518_7, 2.921_019, -1.015_265_2, 4.218_463_3e-1, -2.820_767_5e-1, 5.641_895e-1];
    in_f32(b, x, |o, x| {
        let one = o.c(1.0)?;
        let ax = o.un(Opcode::Abs, x)?;
        // |x| < 1: 1 - x·P(x²).
        let small = o.cmp(Dir::Lt, ax, one)?;
        let x2 = o.bin(Opcode::Multiply, x, x)?;
        let p = o.horner(x2, &ERF)?;
        let erf = o.bin(Opcode::Multiply, x, p)?;
        let small_val = o.bin(Opcode::Subtract, one, erf)?;
        // |x| >= 1: exp(-x²)/|x| · Q(1/x²), 0 once exp(-x²) underflows, 2 - that for x < 0.
        let neg_x2 = o.un(Opcode::Negate, x2)?;
        let limit = o.c(-88.722_84)?;
        let underflow = o.cmp(Dir::Lt, neg_x2, limit)?;
        let e = o.un(Opcode::Exp, neg_x2)?;
        let q = o.bin(Opcode::Divide, one, ax)?;
        let y = o.bin(Opcode::Multiply, e, q)?;
        let two = o.c(2.0)?;
        let near = o.cmp(Dir::Lt, ax, two)?;
        let w = o.bin(Opcode::Divide, one, x2)?;
        let pn = o.horner(w, &NEAR)?;
        let pf = o.horner(w, &FAR)?;
        let poly = o.select(near, pn, pf)?;
        let r = o.bin(Opcode::Multiply, y, poly)?;
        let zero = o.c(0.0)?;
        let r = o.select(underflow, zero, r)?;
        let neg = o.cmp(Dir::Lt, x, zero)?;
        let flipped = o.bin(Opcode::Subtract, two, r)?;
        let large_val = o.select(neg, flipped, r)?;
        o.select(small, small_val, large_val)
    })
}

// The coefficients are written as published, digits past f32's included.
#[allow(clippy::excessive_precision)]
pub fn erf_inv(b: &mut ComputationBuilder<'_>, x: InstId) -> Result<InstId> {
    const CENTRAL: [f32; 9] = [
        2.810_226_4e-8,
        3.432_739_4e-7,
        -3.523_387_7e-6,
        -4.391_506_5e-6,
        2.185_808_7e-4,
        -1.253_725e-3,
        -4.177_681_6e-3,
        2.466_407_3e-1,
        1.501_409_4,
    ];
    const TAIL: [f32; 9] = [
        -2.002_142_6e-4,
        1.009_505_6e-4,
        1.349_343_2e-3,
        -3.673_428_4e-3,
        5.739_507_7e-3,
        -7.622_461_3e-3,
        9.438_870_5e-3,
        1.001_674_1,
        2.832_976_8,
    ];
    in_f32(b, x, |o, x| {
        // w = -log(1 - x²); central region w < 5 uses w - 2.5, the tails sqrt(w) - 3.
        let neg_x = o.un(Opcode::Negate, x)?;
        let prod = o.bin(Opcode::Multiply, x, neg_x)?;
        let l = o.un(Opcode::Log1p, prod)?;
        let w = o.un(Opcode::Negate, l)?;
        let five = o.c(5.0)?;
        let central = o.cmp(Dir::Lt, w, five)?;
        let half5 = o.c(2.5)?;
        let wc = o.bin(Opcode::Subtract, w, half5)?;
        let sw = o.un(Opcode::Sqrt, w)?;
        let three = o.c(3.0)?;
        let wt = o.bin(Opcode::Subtract, sw, three)?;
        let t = o.select(central, wc, wt)?;
        let p = o.horner_select(central, t, &CENTRAL, &TAIL)?;
        let r = o.bin(Opcode::Multiply, p, x)?;
        // erf_inv(±1) = ±inf.
        let ax = o.un(Opcode::Abs, x)?;
        let one = o.c(1.0)?;
        let at_one = o.cmp(Dir::Eq, ax, one)?;
        let inf = o.c(f32::INFINITY)?;
        let edge = o.bin(Opcode::Multiply, x, inf)?;
        o.select(at_one, edge, r)
    })
}

/// An expansion of a complex elementwise op into real arithmetic.
pub type Expansion = fn(&mut ComputationBuilder<'_>, InstId) -> Result<InstId>;

/// The expansion XLA's StableHLO import applies to `op` on complex values, if any
/// (other complex ops it keeps as they are).
pub fn complex_expansion(op: Opcode) -> Option<Expansion> {
    match op {
        Opcode::Exp => Some(complex_exp),
        Opcode::Log => Some(complex_log),
        Opcode::Log1p => Some(complex_log1p),
        Opcode::Sqrt => Some(complex_sqrt),
        _ => None,
    }
}

/// The real and imaginary parts of complex `z`, with arithmetic over their shape
/// and dtype.
pub(super) fn parts<'b, 'c>(b: &'b mut ComputationBuilder<'c>, z: InstId) -> Result<(Ops<'b, 'c>, InstId, InstId)> {
    let e = |e: smelt_hlo::shape_inference::ShapeError| e.to_string();
    let re = b.unary(Opcode::Real, z).map_err(e)?;
    let im = b.unary(Opcode::Imag, z).map_err(e)?;
    let shape = b.shape(re).map_err(e)?.as_array().cloned().ok_or("operand must be an array")?;
    if !matches!(shape.dtype, DType::F32 | DType::F64) {
        return Err(format!("complex expansion not supported for {} parts", shape.dtype.name()));
    }
    Ok((Ops { b, dims: shape.dims.to_vec(), dtype: shape.dtype }, re, im))
}

/// `stablehlo.exponential` of a complex value as XLA imports it (its complex math
/// expander): `exp(a)·(cos b, sin b)`, computed as `exp(a/2)·cos b·exp(a/2)` where
/// `exp(a)` overflows but the product may not, and with an imaginary part of
/// exactly 0 when `b` is 0 (not `inf·0 = NaN`).
pub fn complex_exp(b: &mut ComputationBuilder<'_>, z: InstId) -> Result<InstId> {
    let (mut o, re, im) = parts(b, z)?;
    let ea = o.un(Opcode::Exp, re)?;
    let inf = o.k(f64::INFINITY)?;
    let overflow = o.cmp(Dir::Eq, ea, inf)?;
    let half = o.k(0.5)?;
    let h = o.bin(Opcode::Multiply, re, half)?;
    let eh = o.un(Opcode::Exp, h)?;
    let part = |o: &mut Ops<'_, '_>, trig: Opcode| -> Result<InstId> {
        let t = o.un(trig, im)?;
        let split = o.bin(Opcode::Multiply, eh, t)?;
        let split = o.bin(Opcode::Multiply, split, eh)?;
        let direct = o.bin(Opcode::Multiply, ea, t)?;
        o.select(overflow, split, direct)
    };
    let real = part(&mut o, Opcode::Cosine)?;
    let imag = part(&mut o, Opcode::Sine)?;
    let zero = o.k(0.0)?;
    let im_zero = o.cmp(Dir::Eq, im, zero)?;
    let imag = o.select(im_zero, zero, imag)?;
    o.bin(Opcode::Complex, real, imag)
}

impl Ops<'_, '_> {
    /// Dekker's splitting constant `2^⌈p/2⌉ + 1` for a `p`-bit significand.
    fn splitter(&mut self) -> Result<InstId> {
        let digits = if self.dtype == DType::F64 { f64::MANTISSA_DIGITS } else { f32::MANTISSA_DIGITS };
        self.k(f64::from((1u32 << digits.div_ceil(2)) + 1))
    }

    /// The rounding error of `sq = x·x`, exactly (Dekker's product: `x` split
    /// into halves by `split`).
    fn square_error(&mut self, x: InstId, sq: InstId, split: InstId) -> Result<InstId> {
        let neg = self.un(Opcode::Negate, sq)?;
        let xc = self.bin(Opcode::Multiply, x, split)?;
        let d = self.bin(Opcode::Subtract, x, xc)?;
        let hi = self.bin(Opcode::Add, xc, d)?;
        let hh = self.bin(Opcode::Multiply, hi, hi)?;
        let e = self.bin(Opcode::Add, neg, hh)?;
        let lo = self.bin(Opcode::Subtract, x, hi)?;
        let hl = self.bin(Opcode::Multiply, hi, lo)?;
        let e = self.bin(Opcode::Add, e, hl)?;
        let e = self.bin(Opcode::Add, e, hl)?;
        let ll = self.bin(Opcode::Multiply, lo, lo)?;
        self.bin(Opcode::Add, e, ll)
    }

    /// The rounding error of `s = a + b`: `a - (s - b)`, exact when `|a| >= |b|`.
    fn fast_sum_error(&mut self, s: InstId, a: InstId, b: InstId) -> Result<InstId> {
        let t = self.bin(Opcode::Subtract, s, b)?;
        self.bin(Opcode::Subtract, a, t)
    }

    /// The rounding error of `s = a + b`, exactly (Knuth's two-sum).
    fn sum_error(&mut self, s: InstId, a: InstId, b: InstId) -> Result<InstId> {
        let bv = self.bin(Opcode::Subtract, s, a)?;
        let av = self.bin(Opcode::Subtract, s, bv)?;
        let ae = self.bin(Opcode::Subtract, a, av)?;
        let be = self.bin(Opcode::Subtract, b, bv)?;
        self.bin(Opcode::Add, ae, be)
    }

    /// `hypot(a, b)` for `a, b >= 0` as XLA's expansions compute it: `mx·√2` when
    /// the two are equal, `mx + mx·r²/2` when `√(1 + r²)` rounds to 1 (`r` =
    /// min/max), `mx·√(1 + r²)` otherwise.
    fn hypot(&mut self, a: InstId, b: InstId, one: InstId, two: InstId, sqrt2: InstId) -> Result<InstId> {
        let mx = self.bin(Opcode::Maximum, a, b)?;
        let mn = self.bin(Opcode::Minimum, a, b)?;
        let equal = self.cmp(Dir::Eq, mx, mn)?;
        let diag = self.bin(Opcode::Multiply, mx, sqrt2)?;
        let r = self.bin(Opcode::Divide, mn, mx)?;
        let r2 = self.bin(Opcode::Multiply, r, r)?;
        let u = self.bin(Opcode::Add, r2, one)?;
        let su = self.un(Opcode::Sqrt, u)?;
        let rounds_to_one = self.cmp(Dir::Eq, su, one)?;
        let zero = self.k(0.0)?;
        let positive = self.cmp(Dir::Gt, r2, zero)?;
        let tiny = self.bin(Opcode::And, rounds_to_one, positive)?;
        let m = self.bin(Opcode::Multiply, mx, r2)?;
        let m = self.bin(Opcode::Divide, m, two)?;
        let series = self.bin(Opcode::Add, mx, m)?;
        let direct = self.bin(Opcode::Multiply, mx, su)?;
        let h = self.select(tiny, series, direct)?;
        self.select(equal, diag, h)
    }

    /// `log(mx) + log1p((mn/mx)²)/2`, `log(hypot(x, y))` without overflow, for
    /// `mx = max(|x|, |y|)` and `mn = min(|x|, |y|)`; `select_first` picks 1
    /// before squaring (as `log` does) rather than after (as `log1p` does) when
    /// the two are equal.
    fn log_hypot(&mut self, mx: InstId, mn: InstId, one: InstId, half: InstId, select_first: bool) -> Result<InstId> {
        let lmx = self.un(Opcode::Log, mx)?;
        let equal = self.cmp(Dir::Eq, mn, mx)?;
        let r = self.bin(Opcode::Divide, mn, mx)?;
        let r2 = if select_first {
            let r = self.select(equal, one, r)?;
            self.bin(Opcode::Multiply, r, r)?
        } else {
            let r2 = self.bin(Opcode::Multiply, r, r)?;
            self.select(equal, one, r2)?
        };
        let l = self.un(Opcode::Log1p, r2)?;
        let l = self.bin(Opcode::Multiply, l, half)?;
        self.bin(Opcode::Add, lmx, l)
    }
}

/// `stablehlo.log` of a complex value as XLA imports it: `(log|z|, atan2(y, x))`,
/// the real part `log1p(x² + y² - 1)/2` with the sum carried to double the
/// working precision (Dekker squares, two-sums) where that is below 1/2 in
/// magnitude, `log(max) + log1p((min/max)²)/2` otherwise.
pub fn complex_log(b: &mut ComputationBuilder<'_>, z: InstId) -> Result<InstId> {
    let (mut o, x, y) = parts(b, z)?;
    let o = &mut o;
    let y2 = o.bin(Opcode::Multiply, y, y)?;
    let x2 = o.bin(Opcode::Multiply, x, x)?;
    let y_larger = o.cmp(Dir::Gt, y2, x2)?;
    let big = o.select(y_larger, y2, x2)?;
    let minus_one = o.k(-1.0)?;
    let s1 = o.bin(Opcode::Add, big, minus_one)?;
    let small = o.select(y_larger, x2, y2)?;
    let s2 = o.bin(Opcode::Add, s1, small)?;
    let split = o.splitter()?;
    let ey = o.square_error(y, y2, split)?;
    let s3 = o.bin(Opcode::Add, s2, ey)?;
    let ex = o.square_error(x, x2, split)?;
    let s4 = o.bin(Opcode::Add, s3, ex)?;
    let e1 = o.fast_sum_error(s1, big, minus_one)?;
    let e2 = o.fast_sum_error(s2, small, s1)?;
    let e = o.bin(Opcode::Add, e1, e2)?;
    let e3 = o.fast_sum_error(s3, ey, s2)?;
    let e = o.bin(Opcode::Add, e, e3)?;
    let e4 = o.fast_sum_error(s4, ex, s3)?;
    let e = o.bin(Opcode::Add, e, e4)?;
    let t = o.bin(Opcode::Add, s4, e)?;
    let at = o.un(Opcode::Abs, t)?;
    let half = o.k(0.5)?;
    let near_one = o.cmp(Dir::Lt, at, half)?;
    let l = o.un(Opcode::Log1p, t)?;
    let near_val = o.bin(Opcode::Multiply, l, half)?;
    let ax = o.un(Opcode::Abs, x)?;
    let ay = o.un(Opcode::Abs, y)?;
    let mx = o.bin(Opcode::Maximum, ax, ay)?;
    let mn = o.bin(Opcode::Minimum, ax, ay)?;
    let one = o.k(1.0)?;
    let far_val = o.log_hypot(mx, mn, one, half, true)?;
    let real = o.select(near_one, near_val, far_val)?;
    let imag = o.bin(Opcode::Atan2, y, x)?;
    o.bin(Opcode::Complex, real, imag)
}

/// `stablehlo.log_plus_one` of a complex value as XLA imports it: `(log|z + 1|,
/// atan2(y, x + 1))`, the real part `log(max) + log1p((min/max)²)/2` beyond
/// `sqrt(MAX)/100`, `log((x + 1)² + y²)/2` where `|x + 1| + |y| < 0.2`, and
/// `log1p(2x + y² + x²)/2` with the sum carried to double the working precision
/// otherwise.
pub fn complex_log1p(b: &mut ComputationBuilder<'_>, z: InstId) -> Result<InstId> {
    let (mut o, x, y) = parts(b, z)?;
    let o = &mut o;
    let ax = o.un(Opcode::Abs, x)?;
    let ay = o.un(Opcode::Abs, y)?;
    let mx = o.bin(Opcode::Maximum, ax, ay)?;
    // Computed in the parts' precision, as XLA does.
    let largest = if o.dtype == DType::F64 { f64::MAX.sqrt() * 0.01 } else { f64::from(f32::MAX.sqrt() * 0.01) };
    let largest = o.k(largest)?;
    let large = o.cmp(Dir::Gt, mx, largest)?;
    let mn = o.bin(Opcode::Minimum, ax, ay)?;
    let one = o.k(1.0)?;
    let half = o.k(0.5)?;
    let large_val = o.log_hypot(mx, mn, one, half, false)?;
    let xp1 = o.bin(Opcode::Add, x, one)?;
    let axp1 = o.un(Opcode::Abs, xp1)?;
    let dist = o.bin(Opcode::Add, axp1, ay)?;
    let fifth = o.k(0.2)?;
    let near = o.cmp(Dir::Lt, dist, fifth)?;
    let xp1sq = o.bin(Opcode::Multiply, xp1, xp1)?;
    let y2 = o.bin(Opcode::Multiply, y, y)?;
    let n = o.bin(Opcode::Add, xp1sq, y2)?;
    let ln = o.un(Opcode::Log, n)?;
    let near_val = o.bin(Opcode::Multiply, ln, half)?;
    // 2x + y² + x² (= |z + 1|² - 1) and its rounding errors.
    let twox = o.bin(Opcode::Add, x, x)?;
    let s1 = o.bin(Opcode::Add, twox, y2)?;
    let x2 = o.bin(Opcode::Multiply, x, x)?;
    let s2 = o.bin(Opcode::Add, s1, x2)?;
    let split = o.splitter()?;
    let ey = o.square_error(y, y2, split)?;
    let s3 = o.bin(Opcode::Add, s2, ey)?;
    let ex = o.square_error(x, x2, split)?;
    let s4 = o.bin(Opcode::Add, s3, ex)?;
    let e1 = o.sum_error(s1, twox, y2)?;
    let e2 = o.sum_error(s2, s1, x2)?;
    let e = o.bin(Opcode::Add, e1, e2)?;
    let e3 = o.sum_error(s3, s2, ey)?;
    let e = o.bin(Opcode::Add, e, e3)?;
    let e4 = o.sum_error(s4, s3, ex)?;
    let e = o.bin(Opcode::Add, e, e4)?;
    let t = o.bin(Opcode::Add, s4, e)?;
    let l = o.un(Opcode::Log1p, t)?;
    let mid_val = o.bin(Opcode::Multiply, l, half)?;
    let r = o.select(near, near_val, mid_val)?;
    let real = o.select(large, large_val, r)?;
    let imag = o.bin(Opcode::Atan2, y, xp1)?;
    o.bin(Opcode::Complex, real, imag)
}

/// `stablehlo.sqrt` of a complex value as XLA imports it: with `u = sqrt((|z| +
/// |x|)/2)`, `(u, ±|y|/(2u))` for `x >= 0` and `(|y|/(2u), ±u)` for `x < 0`, the
/// sign that of `y`. `|x| = |y|` has closed forms, and where `u` under- or
/// overflows both magnitudes are computed from the square root of the larger of
/// `|x|, |y|` instead.
pub fn complex_sqrt(b: &mut ComputationBuilder<'_>, z: InstId) -> Result<InstId> {
    use std::f64::consts::SQRT_2;
    let (mut o, x, y) = parts(b, z)?;
    let o = &mut o;
    let zero = o.k(0.0)?;
    let one = o.k(1.0)?;
    let two = o.k(2.0)?;
    let x_nonneg = o.cmp(Dir::Ge, x, zero)?;
    let ax = o.un(Opcode::Abs, x)?;
    let ay = o.un(Opcode::Abs, y)?;
    let equal = o.cmp(Dir::Eq, ax, ay)?;
    let sax = o.un(Opcode::Sqrt, ax)?;
    // |x| = |y| = a: sqrt(a)·sqrt(1 + √2)/√2 and sqrt(a)/sqrt(2 + 2√2).
    let c1 = o.k((1.0 + SQRT_2).sqrt())?;
    let t = o.bin(Opcode::Multiply, sax, c1)?;
    let sqrt2 = o.k(SQRT_2)?;
    let eq_re = o.bin(Opcode::Divide, t, sqrt2)?;
    let h = o.hypot(ax, ay, one, two, sqrt2)?;
    let h = o.bin(Opcode::Divide, h, two)?;
    let ax2 = o.bin(Opcode::Divide, ax, two)?;
    let v = o.bin(Opcode::Add, h, ax2)?;
    let u = o.un(Opcode::Sqrt, v)?;
    let u_zero = o.cmp(Dir::Eq, u, zero)?;
    let inf = o.k(f64::INFINITY)?;
    let u_inf = o.cmp(Dir::Eq, u, inf)?;
    let rescale = o.bin(Opcode::Or, u_zero, u_inf)?;
    let x_larger = o.cmp(Dir::Gt, ax, ay)?;
    let y_larger = o.cmp(Dir::Lt, ax, ay)?;
    // The smaller of |x|, |y| over the larger.
    let q1 = o.bin(Opcode::Divide, ax, ay)?;
    let q2 = o.bin(Opcode::Divide, ay, ax)?;
    let q = o.select(y_larger, q1, q2)?;
    let q = o.select(equal, one, q)?;
    let aq = o.un(Opcode::Abs, q)?;
    let hq = o.hypot(aq, one, one, two, sqrt2)?;
    let w = o.bin(Opcode::Add, hq, one)?;
    let sw = o.un(Opcode::Sqrt, w)?;
    let f = o.bin(Opcode::Divide, sw, sqrt2)?;
    let by_x = o.bin(Opcode::Multiply, sax, f)?;
    let say = o.un(Opcode::Sqrt, ay)?;
    let g = o.bin(Opcode::Add, q, hq)?;
    let sg = o.un(Opcode::Sqrt, g)?;
    let f = o.bin(Opcode::Divide, sg, sqrt2)?;
    let by_y = o.bin(Opcode::Multiply, say, f)?;
    let scaled = o.select(x_larger, by_x, by_y)?;
    let big = o.select(rescale, scaled, u)?;
    let big = o.select(equal, eq_re, big)?;
    // The other part: |y|/(2u), rescaled the same way.
    let c2 = o.k((2.0 + 2.0 * SQRT_2).sqrt())?;
    let eq_small = o.bin(Opcode::Divide, say, c2)?;
    let p1 = o.bin(Opcode::Divide, sax, say)?;
    let p2 = o.bin(Opcode::Divide, say, sax)?;
    let p = o.select(y_larger, p1, p2)?;
    let p = o.select(equal, one, p)?;
    let n = o.bin(Opcode::Multiply, say, p)?;
    let d = o.bin(Opcode::Multiply, sw, sqrt2)?;
    let by_x = o.bin(Opcode::Divide, n, d)?;
    let d = o.bin(Opcode::Multiply, sg, sqrt2)?;
    let by_y = o.bin(Opcode::Divide, say, d)?;
    let scaled = o.select(x_larger, by_x, by_y)?;
    let u2 = o.bin(Opcode::Multiply, u, two)?;
    let direct = o.bin(Opcode::Divide, ay, u2)?;
    let small = o.select(rescale, scaled, direct)?;
    let small = o.select(equal, eq_small, small)?;
    let real = o.select(x_nonneg, big, small)?;
    let x_neg = o.cmp(Dir::Lt, x, zero)?;
    let y_neg = o.cmp(Dir::Lt, y, zero)?;
    let nb = o.un(Opcode::Negate, big)?;
    let sb = o.select(y_neg, nb, big)?;
    let ns = o.un(Opcode::Negate, small)?;
    let ss = o.select(y_neg, ns, small)?;
    let imag = o.select(x_neg, sb, ss)?;
    o.bin(Opcode::Complex, real, imag)
}
