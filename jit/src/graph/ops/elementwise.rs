//! Elementwise ops: unary math, binary arithmetic with numpy broadcasting,
//! comparisons, logic, `Where`, `Clip`, `Cast` and the activation functions.

use smelt_hlo::Opcode;
use smelt_hlo::attrs::ComparisonDirection as Dir;

use super::onnx_dtype;
use super::util::*;
use crate::graph::lower::{LowerCx, Val};
use crate::graph::{GraphError, Node, Result};

fn one(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>], op: Opcode) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    Ok(vec![unary(cx, node, op, x)?])
}

fn two(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>], op: Opcode) -> Result<Vec<Val>> {
    let a = input(node, inputs, 0)?;
    let b = input(node, inputs, 1)?;
    Ok(vec![binary(cx, node, op, a, b)?])
}

fn cmp(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>], dir: Dir) -> Result<Vec<Val>> {
    let a = input(node, inputs, 0)?;
    let b = input(node, inputs, 1)?;
    Ok(vec![compare(cx, node, dir, a, b)?])
}

rules_via!(one, Opcode {
    neg => Negate;
    abs => Abs;
    exp => Exp;
    log => Log;
    sqrt => Sqrt;
    floor => Floor;
    ceil => Ceil;
    round => RoundNearestEven;
    sign => Sign;
    sigmoid => Logistic;
    tanh => Tanh;
    erf => Erf;
    sin => Sine;
    cos => Cosine;
    not => Not;
});

rules_via!(two, Opcode {
    add => Add;
    sub => Subtract;
    mul => Multiply;
    div => Divide;
    and => And;
    or => Or;
    xor => Xor;
});

rules_via!(cmp, Dir {
    equal => Eq;
    less => Lt;
    less_equal => Le;
    greater => Gt;
    greater_equal => Ge;
});

/// `Pow(X, Y)`: the exponent may have another type; it is converted to X's.
pub fn pow(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let y = convert(cx, node, input(node, inputs, 1)?, x.dtype)?;
    Ok(vec![binary(cx, node, Opcode::Power, x, &y)?])
}

/// `Mod`: `fmod=1` is C's fmod (sign of the dividend); `fmod=0` (integers
/// only) takes the sign of the divisor, as Python's `%`.
pub fn modulo(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let a = input(node, inputs, 0)?;
    let b = input(node, inputs, 1)?;
    let fmod = int_attr(node, "fmod", 0);
    if fmod == 0 && a.dtype.is_float() {
        return Err(GraphError::node(node, "fmod=0 is not defined for floating-point inputs"));
    }
    let (a, b) = broadcast_pair(cx, node, a, b)?;
    let r = emit(cx, node, |bl| bl.binary(Opcode::Remainder, a.id, b.id))?;
    if fmod == 1 || a.dtype.is_unsigned_int() {
        return Ok(vec![r]);
    }
    let zero = splat(cx, node, a.dtype, 0.0, &a.dims)?;
    let r_neg = emit(cx, node, |bl| bl.compare(Dir::Lt, r.id, zero.id))?;
    let b_neg = emit(cx, node, |bl| bl.compare(Dir::Lt, b.id, zero.id))?;
    let r_nz = emit(cx, node, |bl| bl.compare(Dir::Ne, r.id, zero.id))?;
    let differ = emit(cx, node, |bl| bl.compare(Dir::Ne, r_neg.id, b_neg.id))?;
    let fix = emit(cx, node, |bl| bl.binary(Opcode::And, differ.id, r_nz.id))?;
    let shifted = emit(cx, node, |bl| bl.binary(Opcode::Add, r.id, b.id))?;
    Ok(vec![emit(cx, node, |bl| bl.select(fix.id, shifted.id, r.id))?])
}

pub fn reciprocal(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let one = splat(cx, node, x.dtype, 1.0, &x.dims)?;
    Ok(vec![emit(cx, node, |b| b.binary(Opcode::Divide, one.id, x.id))?])
}

pub fn relu(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let zero = splat(cx, node, x.dtype, 0.0, &x.dims)?;
    Ok(vec![emit(cx, node, |b| b.binary(Opcode::Maximum, x.id, zero.id))?])
}

/// `LeakyRelu`: `x < 0 ? alpha * x : x`, alpha 0.01 by default.
pub fn leaky_relu(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let alpha = float_attr(node, "alpha", 0.01) as f64;
    let zero = splat(cx, node, x.dtype, 0.0, &x.dims)?;
    let a = splat(cx, node, x.dtype, alpha, &x.dims)?;
    let neg = emit(cx, node, |b| b.compare(Dir::Lt, x.id, zero.id))?;
    let scaled = emit(cx, node, |b| b.binary(Opcode::Multiply, x.id, a.id))?;
    Ok(vec![emit(cx, node, |b| b.select(neg.id, scaled.id, x.id))?])
}

/// `PRelu`: `x < 0 ? slope * x : x`, the slope broadcast to `x` (unidirectionally).
pub fn prelu(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let slope = input(node, inputs, 1)?;
    let slope = broadcast_to(cx, node, slope, &x.dims)?;
    let zero = splat(cx, node, x.dtype, 0.0, &x.dims)?;
    let neg = emit(cx, node, |b| b.compare(Dir::Lt, x.id, zero.id))?;
    let scaled = emit(cx, node, |b| b.binary(Opcode::Multiply, x.id, slope.id))?;
    Ok(vec![emit(cx, node, |b| b.select(neg.id, scaled.id, x.id))?])
}

/// `alpha * (exp(x) - 1)` where `x < 0`, else `x` (Elu), all times `gamma` (Selu).
fn exponential_linear(cx: &mut LowerCx<'_>, node: &Node, x: &Val, alpha: f64, gamma: f64) -> Result<Val> {
    let d = x.dims.clone();
    let zero = splat(cx, node, x.dtype, 0.0, &d)?;
    let a = splat(cx, node, x.dtype, alpha, &d)?;
    let neg = emit(cx, node, |b| b.compare(Dir::Lt, x.id, zero.id))?;
    let em1 = emit(cx, node, |b| b.unary(Opcode::Expm1, x.id))?;
    let low = emit(cx, node, |b| b.binary(Opcode::Multiply, a.id, em1.id))?;
    let y = emit(cx, node, |b| b.select(neg.id, low.id, x.id))?;
    if gamma == 1.0 {
        return Ok(y);
    }
    let g = splat(cx, node, x.dtype, gamma, &d)?;
    emit(cx, node, |b| b.binary(Opcode::Multiply, g.id, y.id))
}

/// `Elu`: alpha 1 by default.
pub fn elu(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let alpha = float_attr(node, "alpha", 1.0) as f64;
    Ok(vec![exponential_linear(cx, node, x, alpha, 1.0)?])
}

/// `Selu`: ONNX's default alpha and gamma (as f32 attributes, so f32-rounded).
pub fn selu(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let alpha = float_attr(node, "alpha", 1.673_263_2) as f64;
    let gamma = float_attr(node, "gamma", 1.050_701) as f64;
    Ok(vec![exponential_linear(cx, node, x, alpha, gamma)?])
}

/// `Softplus`: `log(1 + exp(x))`, as `max(x, 0) + log1p(exp(-|x|))` so large
/// `|x|` neither overflows nor loses the result.
pub fn softplus(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let zero = splat(cx, node, x.dtype, 0.0, &x.dims)?;
    let pos = emit(cx, node, |b| b.binary(Opcode::Maximum, x.id, zero.id))?;
    let abs = emit(cx, node, |b| b.unary(Opcode::Abs, x.id))?;
    let neg = emit(cx, node, |b| b.unary(Opcode::Negate, abs.id))?;
    let e = emit(cx, node, |b| b.unary(Opcode::Exp, neg.id))?;
    let l = emit(cx, node, |b| b.unary(Opcode::Log1p, e.id))?;
    Ok(vec![emit(cx, node, |b| b.binary(Opcode::Add, pos.id, l.id))?])
}

/// `Mish`: `x * tanh(softplus(x))`.
pub fn mish(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let sp = softplus(cx, node, inputs)?.remove(0);
    let t = emit(cx, node, |b| b.unary(Opcode::Tanh, sp.id))?;
    Ok(vec![emit(cx, node, |b| b.binary(Opcode::Multiply, x.id, t.id))?])
}

/// `Shrink`: `x < -lambd ? x + bias : x > lambd ? x - bias : 0` (lambd 0.5, bias 0).
pub fn shrink(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let lambd = float_attr(node, "lambd", 0.5) as f64;
    let bias = float_attr(node, "bias", 0.0) as f64;
    let d = x.dims.clone();
    let (lo, hi) = (splat(cx, node, x.dtype, -lambd, &d)?, splat(cx, node, x.dtype, lambd, &d)?);
    let b_ = splat(cx, node, x.dtype, bias, &d)?;
    let zero = splat(cx, node, x.dtype, 0.0, &d)?;
    let below = emit(cx, node, |b| b.compare(Dir::Lt, x.id, lo.id))?;
    let above = emit(cx, node, |b| b.compare(Dir::Gt, x.id, hi.id))?;
    let plus = emit(cx, node, |b| b.binary(Opcode::Add, x.id, b_.id))?;
    let minus = emit(cx, node, |b| b.binary(Opcode::Subtract, x.id, b_.id))?;
    let upper = emit(cx, node, |b| b.select(above.id, minus.id, zero.id))?;
    Ok(vec![emit(cx, node, |b| b.select(below.id, plus.id, upper.id))?])
}

/// `HardSigmoid`: `max(0, min(1, alpha * x + beta))` (alpha 0.2, beta 0.5).
pub fn hard_sigmoid(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let alpha = float_attr(node, "alpha", 0.2) as f64;
    let beta = float_attr(node, "beta", 0.5) as f64;
    Ok(vec![hard_sigmoid_of(cx, node, x, alpha, beta)?])
}

fn hard_sigmoid_of(cx: &mut LowerCx<'_>, node: &Node, x: &Val, alpha: f64, beta: f64) -> Result<Val> {
    let d = x.dims.clone();
    let (a, b_) = (splat(cx, node, x.dtype, alpha, &d)?, splat(cx, node, x.dtype, beta, &d)?);
    let (zero, one) = (splat(cx, node, x.dtype, 0.0, &d)?, splat(cx, node, x.dtype, 1.0, &d)?);
    let ax = emit(cx, node, |b| b.binary(Opcode::Multiply, a.id, x.id))?;
    let t = emit(cx, node, |b| b.binary(Opcode::Add, ax.id, b_.id))?;
    emit(cx, node, |b| b.clamp(zero.id, t.id, one.id))
}

/// `HardSwish`: `x * HardSigmoid(x)` with alpha 1/6, beta 0.5.
pub fn hard_swish(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let h = hard_sigmoid_of(cx, node, x, 1.0 / 6.0, 0.5)?;
    Ok(vec![emit(cx, node, |b| b.binary(Opcode::Multiply, x.id, h.id))?])
}

/// `ThresholdedRelu`: `x > alpha ? x : 0` (alpha 1).
pub fn thresholded_relu(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let alpha = float_attr(node, "alpha", 1.0) as f64;
    let a = splat(cx, node, x.dtype, alpha, &x.dims)?;
    let zero = splat(cx, node, x.dtype, 0.0, &x.dims)?;
    let above = emit(cx, node, |b| b.compare(Dir::Gt, x.id, a.id))?;
    Ok(vec![emit(cx, node, |b| b.select(above.id, x.id, zero.id))?])
}

/// `Gelu` (opset 20): exact (`approximate="none"`) or the tanh approximation.
pub fn gelu(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let t = x.dtype;
    let d = x.dims.clone();
    let half = splat(cx, node, t, 0.5, &d)?;
    let one = splat(cx, node, t, 1.0, &d)?;
    let inner = match node.string("approximate").unwrap_or("none") {
        "none" => {
            let c = splat(cx, node, t, std::f64::consts::FRAC_1_SQRT_2, &d)?;
            let s = emit(cx, node, |b| b.binary(Opcode::Multiply, x.id, c.id))?;
            emit(cx, node, |b| b.unary(Opcode::Erf, s.id))?
        }
        "tanh" => {
            let c = splat(cx, node, t, (2.0 / std::f64::consts::PI).sqrt(), &d)?;
            let k = splat(cx, node, t, 0.044715, &d)?;
            let x2 = emit(cx, node, |b| b.binary(Opcode::Multiply, x.id, x.id))?;
            let x3 = emit(cx, node, |b| b.binary(Opcode::Multiply, x2.id, x.id))?;
            let kx3 = emit(cx, node, |b| b.binary(Opcode::Multiply, k.id, x3.id))?;
            let sum = emit(cx, node, |b| b.binary(Opcode::Add, x.id, kx3.id))?;
            let s = emit(cx, node, |b| b.binary(Opcode::Multiply, c.id, sum.id))?;
            emit(cx, node, |b| b.unary(Opcode::Tanh, s.id))?
        }
        other => return Err(GraphError::unsupported(node, format!("approximate=\"{other}\""))),
    };
    let p = emit(cx, node, |b| b.binary(Opcode::Add, one.id, inner.id))?;
    let hx = emit(cx, node, |b| b.binary(Opcode::Multiply, half.id, x.id))?;
    Ok(vec![emit(cx, node, |b| b.binary(Opcode::Multiply, hx.id, p.id))?])
}

/// Variadic `Max`/`Min`/`Sum`/`Mean` with numpy broadcasting.
fn variadic(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>], op: Opcode) -> Result<Val> {
    let mut it = inputs.iter().flatten();
    let Some(first) = it.next() else {
        return Err(GraphError::node(node, "needs at least one input"));
    };
    let mut acc = first.clone();
    for v in it {
        acc = binary(cx, node, op, &acc, v)?;
    }
    Ok(acc)
}

pub fn max(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    Ok(vec![variadic(cx, node, inputs, Opcode::Maximum)?])
}

pub fn min(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    Ok(vec![variadic(cx, node, inputs, Opcode::Minimum)?])
}

pub fn sum(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    Ok(vec![variadic(cx, node, inputs, Opcode::Add)?])
}

pub fn mean(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let s = variadic(cx, node, inputs, Opcode::Add)?;
    let n = inputs.iter().flatten().count() as f64;
    let c = splat(cx, node, s.dtype, n, &s.dims)?;
    Ok(vec![emit(cx, node, |b| b.binary(Opcode::Divide, s.id, c.id))?])
}

/// `Where(cond, X, Y)` with broadcasting of all three.
pub fn where_(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let c = input(node, inputs, 0)?;
    let x = input(node, inputs, 1)?;
    let y = input(node, inputs, 2)?;
    Ok(vec![select(cx, node, c, x, y)?])
}

/// `Clip(X, min?, max?)`; opset < 11 gives the bounds as attributes.
pub fn clip(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let mut y = x.clone();
    let lo = match opt_input(inputs, 1) {
        Some(v) => Some(v.clone()),
        None => match node.float("min") {
            Some(m) => Some(cx.scalar(node, x.dtype, m as f64)?),
            None => None,
        },
    };
    let hi = match opt_input(inputs, 2) {
        Some(v) => Some(v.clone()),
        None => match node.float("max") {
            Some(m) => Some(cx.scalar(node, x.dtype, m as f64)?),
            None => None,
        },
    };
    if let Some(lo) = lo {
        y = binary(cx, node, Opcode::Maximum, &y, &lo)?;
    }
    if let Some(hi) = hi {
        y = binary(cx, node, Opcode::Minimum, &y, &hi)?;
    }
    Ok(vec![y])
}

pub fn identity(_cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    Ok(vec![input(node, inputs, 0)?.clone()])
}

/// `Cast(to)`.
pub fn cast(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let Some(code) = node.int("to") else {
        return Err(GraphError::node(node, "needs the 'to' attribute"));
    };
    let Some(t) = onnx_dtype(code) else {
        return Err(GraphError::unsupported(node, format!("cast to ONNX type {code}")));
    };
    if x.dtype == t {
        return Ok(vec![x.clone()]);
    }
    Ok(vec![convert(cx, node, x, t)?])
}

/// `Celu`: `max(0, x) + min(0, alpha * expm1(x / alpha))` (alpha 1).
pub fn celu(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let alpha = float_attr(node, "alpha", 1.0) as f64;
    let d = x.dims.clone();
    let a = splat(cx, node, x.dtype, alpha, &d)?;
    let zero = splat(cx, node, x.dtype, 0.0, &d)?;
    let scaled = emit(cx, node, |b| b.binary(Opcode::Divide, x.id, a.id))?;
    let em1 = emit(cx, node, |b| b.unary(Opcode::Expm1, scaled.id))?;
    let low = emit(cx, node, |b| b.binary(Opcode::Multiply, a.id, em1.id))?;
    let low = emit(cx, node, |b| b.binary(Opcode::Minimum, low.id, zero.id))?;
    let high = emit(cx, node, |b| b.binary(Opcode::Maximum, x.id, zero.id))?;
    Ok(vec![emit(cx, node, |b| b.binary(Opcode::Add, high.id, low.id))?])
}

/// `Softsign`: `x / (1 + |x|)`.
pub fn softsign(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let one = splat(cx, node, x.dtype, 1.0, &x.dims)?;
    let abs = emit(cx, node, |b| b.unary(Opcode::Abs, x.id))?;
    let den = emit(cx, node, |b| b.binary(Opcode::Add, one.id, abs.id))?;
    Ok(vec![emit(cx, node, |b| b.binary(Opcode::Divide, x.id, den.id))?])
}

/// `IsNaN`: `x != x`.
pub fn is_nan(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    Ok(vec![emit(cx, node, |b| b.compare(Dir::Ne, x.id, x.id))?])
}

/// `IsInf`: `x` is +inf (`detect_positive`, default 1) or -inf
/// (`detect_negative`, default 1).
pub fn is_inf(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let mut hits = Vec::new();
    for (attr, v) in [("detect_positive", f64::INFINITY), ("detect_negative", f64::NEG_INFINITY)] {
        if int_attr(node, attr, 1) != 0 {
            let inf = splat(cx, node, x.dtype, v, &x.dims)?;
            hits.push(emit(cx, node, |b| b.compare(Dir::Eq, x.id, inf.id))?);
        }
    }
    match hits.as_slice() {
        [] => Ok(vec![splat(cx, node, smelt_hlo::DType::Pred, 0.0, &x.dims)?]),
        [one] => Ok(vec![one.clone()]),
        [a, b_] => Ok(vec![emit(cx, node, |b| b.binary(Opcode::Or, a.id, b_.id))?]),
        _ => unreachable!("two attributes at most"),
    }
}

/// `CastLike`: `Cast` to the second input's type.
pub fn cast_like(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let like = input(node, inputs, 1)?;
    Ok(vec![convert(cx, node, x, like.dtype)?])
}

/// `BitShift`: `direction` LEFT or RIGHT (logical: ONNX allows unsigned
/// types only), numpy broadcasting.
pub fn bit_shift(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let op = match node.string("direction") {
        Some("LEFT") => Opcode::ShiftLeft,
        Some("RIGHT") => Opcode::ShiftRightLogical,
        other => return Err(GraphError::node(node, format!("direction {other:?} is neither LEFT nor RIGHT"))),
    };
    two(cx, node, inputs, op)
}

/// The inverse and hyperbolic trigonometric functions ONNX has and HLO has
/// not, from `atan2`, `log1p`, `expm1` and `exp` (see [`Trig`]).
#[derive(Clone, Copy)]
enum Trig {
    Tan,
    /// `atan2(x, sqrt((1 - x)(1 + x)))`.
    Asin,
    /// `atan2(sqrt((1 - x)(1 + x)), x)`.
    Acos,
    /// `atan2(x, 1)`.
    Atan,
    /// `sign(x) * (e + e / (e + 1)) / 2`, `e = expm1(|x|)`; `exp(|x| - ln 2)`
    /// past 80, where `e + 1` would overflow first.
    Sinh,
    /// `exp(|x| - ln 2) + exp(-|x|) / 2`.
    Cosh,
    /// `sign(x) * log1p(|x| + x^2 / (1 + sqrt(1 + x^2)))`; `log(|x|) + ln 2`
    /// past 2^12, where `x^2` would lose it.
    Asinh,
    /// `log(x + sqrt((x - 1)(x + 1)))`; `log(x) + ln 2` past 2^12.
    Acosh,
    /// `log1p(2x / (1 - x)) / 2`.
    Atanh,
}

fn trig(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>], f: Trig) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?.clone();
    if !x.dtype.is_float() {
        return Err(GraphError::node(node, format!("takes floating-point values, not {}", x.dtype)));
    }
    let d = x.dims.clone();
    let c = |cx: &mut LowerCx<'_>, v: f64| splat(cx, node, x.dtype, v, &d);
    let bin = |cx: &mut LowerCx<'_>, op: Opcode, a: &Val, b: &Val| emit(cx, node, |bl| bl.binary(op, a.id, b.id));
    let un = |cx: &mut LowerCx<'_>, op: Opcode, a: &Val| emit(cx, node, |bl| bl.unary(op, a.id));
    let one = c(cx, 1.0)?;
    let ln2 = c(cx, std::f64::consts::LN_2)?;
    let y = match f {
        Trig::Tan => un(cx, Opcode::Tan, &x)?,
        Trig::Asin | Trig::Acos => {
            let lo = bin(cx, Opcode::Subtract, &one, &x)?;
            let hi = bin(cx, Opcode::Add, &one, &x)?;
            let p = bin(cx, Opcode::Multiply, &lo, &hi)?;
            let r = un(cx, Opcode::Sqrt, &p)?;
            match f {
                Trig::Asin => bin(cx, Opcode::Atan2, &x, &r)?,
                _ => bin(cx, Opcode::Atan2, &r, &x)?,
            }
        }
        Trig::Atan => bin(cx, Opcode::Atan2, &x, &one)?,
        Trig::Sinh | Trig::Cosh => {
            let a = un(cx, Opcode::Abs, &x)?;
            let shifted = bin(cx, Opcode::Subtract, &a, &ln2)?;
            let half_e = un(cx, Opcode::Exp, &shifted)?;
            match f {
                Trig::Sinh => {
                    let e = un(cx, Opcode::Expm1, &a)?;
                    let e1 = bin(cx, Opcode::Add, &e, &one)?;
                    let q = bin(cx, Opcode::Divide, &e, &e1)?;
                    let s = bin(cx, Opcode::Add, &e, &q)?;
                    let half = c(cx, 0.5)?;
                    let small = bin(cx, Opcode::Multiply, &s, &half)?;
                    let limit = c(cx, 80.0)?;
                    let big = emit(cx, node, |b| b.compare(Dir::Gt, a.id, limit.id))?;
                    let m = emit(cx, node, |b| b.select(big.id, half_e.id, small.id))?;
                    let sign = un(cx, Opcode::Sign, &x)?;
                    bin(cx, Opcode::Multiply, &sign, &m)?
                }
                _ => {
                    let neg = un(cx, Opcode::Negate, &a)?;
                    let tail = un(cx, Opcode::Exp, &neg)?;
                    let half = c(cx, 0.5)?;
                    let tail = bin(cx, Opcode::Multiply, &tail, &half)?;
                    bin(cx, Opcode::Add, &half_e, &tail)?
                }
            }
        }
        Trig::Asinh | Trig::Acosh => {
            let a = match f {
                Trig::Asinh => un(cx, Opcode::Abs, &x)?,
                _ => x.clone(),
            };
            let small = match f {
                Trig::Asinh => {
                    let sq = bin(cx, Opcode::Multiply, &a, &a)?;
                    let s1 = bin(cx, Opcode::Add, &sq, &one)?;
                    let r = un(cx, Opcode::Sqrt, &s1)?;
                    let den = bin(cx, Opcode::Add, &r, &one)?;
                    let q = bin(cx, Opcode::Divide, &sq, &den)?;
                    let arg = bin(cx, Opcode::Add, &a, &q)?;
                    un(cx, Opcode::Log1p, &arg)?
                }
                _ => {
                    let lo = bin(cx, Opcode::Subtract, &a, &one)?;
                    let hi = bin(cx, Opcode::Add, &a, &one)?;
                    let p = bin(cx, Opcode::Multiply, &lo, &hi)?;
                    let r = un(cx, Opcode::Sqrt, &p)?;
                    let arg = bin(cx, Opcode::Add, &a, &r)?;
                    un(cx, Opcode::Log, &arg)?
                }
            };
            let l = un(cx, Opcode::Log, &a)?;
            let large = bin(cx, Opcode::Add, &l, &ln2)?;
            let limit = c(cx, 4096.0)?;
            let big = emit(cx, node, |b| b.compare(Dir::Gt, a.id, limit.id))?;
            let m = emit(cx, node, |b| b.select(big.id, large.id, small.id))?;
            match f {
                Trig::Asinh => {
                    let sign = un(cx, Opcode::Sign, &x)?;
                    bin(cx, Opcode::Multiply, &sign, &m)?
                }
                _ => m,
            }
        }
        Trig::Atanh => {
            let two_x = bin(cx, Opcode::Add, &x, &x)?;
            let den = bin(cx, Opcode::Subtract, &one, &x)?;
            let q = bin(cx, Opcode::Divide, &two_x, &den)?;
            let l = un(cx, Opcode::Log1p, &q)?;
            let half = c(cx, 0.5)?;
            bin(cx, Opcode::Multiply, &l, &half)?
        }
    };
    Ok(vec![y])
}

rules_via!(trig, Trig {
    tan => Tan;
    asin => Asin;
    acos => Acos;
    atan => Atan;
    sinh => Sinh;
    cosh => Cosh;
    asinh => Asinh;
    acosh => Acosh;
    atanh => Atanh;
});
