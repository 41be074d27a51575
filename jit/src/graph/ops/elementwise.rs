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
