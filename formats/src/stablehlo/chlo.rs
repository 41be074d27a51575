//! CHLO ops HLO has no opcode for, decomposed into HLO as XLA's CHLO legalization
//! does, so results match XLA's to the rounding.
//!
//! `erfc` is Cephes' single-precision `erfcf` (a polynomial in `x²` below 1, and
//! `exp(-x²)/|x|` times a polynomial in `1/x²` above); `erf_inv` is Giles'
//! single-precision approximation ("Approximating the erfinv function", GPU
//! Computing Gems, 2011). Both compute in f32: f16 and bf16 inputs are widened and
//! the result narrowed, and f64 inputs are refused.

use smelt_hlo::attrs::ComparisonDirection as Dir;
use smelt_hlo::builder::ComputationBuilder;
use smelt_hlo::{Array, DType, InstId, Opcode};

type Result<T> = std::result::Result<T, String>;

/// Elementwise f32 arithmetic over one shape, for writing the polynomials.
struct F32Ops<'b, 'c> {
    b: &'b mut ComputationBuilder<'c>,
    dims: Vec<i64>,
}

impl F32Ops<'_, '_> {
    fn c(&mut self, v: f32) -> Result<InstId> {
        let s = self.b.constant(Array::scalar(v).into()).map_err(|e| e.to_string())?;
        self.b.broadcast(s, &self.dims, &[]).map_err(|e| e.to_string())
    }

    fn bin(&mut self, op: Opcode, a: InstId, b: InstId) -> Result<InstId> {
        self.b.binary(op, a, b).map_err(|e| e.to_string())
    }

    fn un(&mut self, op: Opcode, a: InstId) -> Result<InstId> {
        self.b.unary(op, a).map_err(|e| e.to_string())
    }

    fn cmp(&mut self, d: Dir, a: InstId, b: InstId) -> Result<InstId> {
        self.b.compare(d, a, b).map_err(|e| e.to_string())
    }

    fn select(&mut self, p: InstId, t: InstId, f: InstId) -> Result<InstId> {
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

/// Runs `f` on `x` widened to f32 and narrows the result back.
fn in_f32(
    b: &mut ComputationBuilder<'_>,
    x: InstId,
    f: impl FnOnce(&mut F32Ops<'_, '_>, InstId) -> Result<InstId>,
) -> Result<InstId> {
    let shape = b.shape(x).map_err(|e| e.to_string())?.as_array().cloned().ok_or("operand must be an array")?;
    let dtype = shape.dtype;
    if !matches!(dtype, DType::F32 | DType::F16 | DType::Bf16) {
        return Err(format!("not supported for {} (only f32, f16 and bf16)", dtype.name()));
    }
    let wide = if dtype == DType::F32 { x } else { b.convert(x, DType::F32).map_err(|e| e.to_string())? };
    let mut ops = F32Ops { b, dims: shape.dims.to_vec() };
    let r = f(&mut ops, wide)?;
    if dtype == DType::F32 { Ok(r) } else { ops.b.convert(r, dtype).map_err(|e| e.to_string()) }
}

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

/// `stablehlo.exponential` of a complex value as XLA imports it (its complex math
/// expander): `exp(a)·(cos b, sin b)`, computed as `exp(a/2)·cos b·exp(a/2)` where
/// `exp(a)` overflows but the product may not, and with an imaginary part of
/// exactly 0 when `b` is 0 (not `inf·0 = NaN`).
pub fn complex_exp(b: &mut ComputationBuilder<'_>, z: InstId) -> Result<InstId> {
    let e = |e: smelt_hlo::shape_inference::ShapeError| e.to_string();
    let re = b.unary(Opcode::Real, z).map_err(e)?;
    let im = b.unary(Opcode::Imag, z).map_err(e)?;
    let shape = b.shape(re).map_err(e)?.as_array().cloned().ok_or("operand must be an array")?;
    let dtype = shape.dtype;
    let mut o = F32Ops { b, dims: shape.dims.to_vec() };
    let c = |o: &mut F32Ops<'_, '_>, v: f64| -> Result<InstId> {
        let s = o.b.constant(Array::scalar(v).into()).map_err(|e| e.to_string())?;
        let s = if dtype == DType::F64 { s } else { o.b.convert(s, dtype).map_err(|e| e.to_string())? };
        o.b.broadcast(s, &o.dims, &[]).map_err(|e| e.to_string())
    };
    let ea = o.un(Opcode::Exp, re)?;
    let inf = c(&mut o, f64::INFINITY)?;
    let overflow = o.cmp(Dir::Eq, ea, inf)?;
    let half = c(&mut o, 0.5)?;
    let h = o.bin(Opcode::Multiply, re, half)?;
    let eh = o.un(Opcode::Exp, h)?;
    let part = |o: &mut F32Ops<'_, '_>, trig: Opcode| -> Result<InstId> {
        let t = o.un(trig, im)?;
        let split = o.bin(Opcode::Multiply, eh, t)?;
        let split = o.bin(Opcode::Multiply, split, eh)?;
        let direct = o.bin(Opcode::Multiply, ea, t)?;
        o.select(overflow, split, direct)
    };
    let real = part(&mut o, Opcode::Cosine)?;
    let imag = part(&mut o, Opcode::Sine)?;
    let zero = c(&mut o, 0.0)?;
    let im_zero = o.cmp(Dir::Eq, im, zero)?;
    let imag = o.select(im_zero, zero, imag)?;
    o.bin(Opcode::Complex, real, imag)
}
