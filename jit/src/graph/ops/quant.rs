//! Linear quantization (ONNX's `QuantizeLinear` family): the conventions of
//! 8- and 16-bit integer tensors standing for real ones, `real = (q - zero_point)
//! * scale`, and the integer products over them.
//!
//! The conventions live here once, and every quantized op calls them:
//!
//! - [`quantize`]: `saturate(round_half_even(x / scale) + zero_point)`;
//! - [`dequantize`]: `convert_f32(convert_s32(q) - zero_point) * scale`, the
//!   exact form the optimizer's `quantized-products` pass recognizes around a
//!   dot or convolution and folds into an integer product;
//! - [`requantize`]: an s32 accumulator times `multiplier`, rounded half to
//!   even, plus the output zero point, saturated (`QLinearMatMul`,
//!   `QLinearConv`), as ONNX's reference computes it;
//! - a scale or zero point is a scalar (per tensor) or a 1-D tensor along
//!   `axis` (per channel); blocked quantization (opset 21's `block_size`) and
//!   4-bit and float8 types are refused by name.
//!
//! Integer products (`MatMulInteger`, `ConvInteger`, the accumulators of the
//! `QLinear*` ops) are HLO dots and convolutions of zero-point-shifted s32
//! operands with s32 results; the `quantized-products` pass narrows 8-bit
//! shifted operands to s16, the CPU backend's VNNI pair path.

use smelt_hlo::{DType, Opcode};

use super::nn;
use super::util::*;
use crate::graph::lower::{LowerCx, Val};
use crate::graph::{GraphError, Node, Result};

/// The integer types a quantized tensor may have.
fn quantized_type(node: &Node, d: DType) -> Result<DType> {
    match d {
        DType::U8 | DType::S8 | DType::U16 | DType::S16 | DType::S32 => Ok(d),
        other => Err(GraphError::unsupported(node, format!("quantized type {other}"))),
    }
}

/// The saturation bounds of integer type `d`.
fn bounds(d: DType) -> (f64, f64) {
    match d {
        DType::U8 => (0.0, 255.0),
        DType::S8 => (-128.0, 127.0),
        DType::U16 => (0.0, 65535.0),
        DType::S16 => (-32768.0, 32767.0),
        _ => (i32::MIN as f64, i32::MAX as f64),
    }
}

/// A scale or zero point `p` broadcast against `dims`: a scalar (or one
/// element) everywhere, a 1-D tensor along `axis`.
fn per_axis(cx: &mut LowerCx<'_>, node: &Node, p: &Val, dims: &[i64], axis: i64, what: &str) -> Result<Val> {
    if p.dims.iter().product::<i64>() == 1 && p.dims.len() <= 1 {
        let s = reshape(cx, node, p, &[])?;
        return emit(cx, node, |b| b.broadcast(s.id, dims, &[]));
    }
    let axis = norm_axis(node, axis, dims.len())?;
    if p.dims.len() != 1 || p.dims[0] != dims[axis] {
        return Err(GraphError::node(
            node,
            format!(
                "{what} {:?} must be a scalar or have {} elements along axis {axis} of {dims:?}",
                p.dims, dims[axis]
            ),
        ));
    }
    emit(cx, node, |b| b.broadcast(p.id, dims, &[axis as i64]))
}

/// Refuses blocked quantization (`block_size`, opset 21).
fn no_blocks(node: &Node) -> Result<()> {
    match node.int("block_size") {
        Some(b) if b != 0 => Err(GraphError::unsupported(node, format!("blocked quantization (block_size={b})"))),
        _ => Ok(()),
    }
}

/// `rounded` (f32, already an integer value) plus the zero point, saturated
/// to `out` and converted.
fn saturate(cx: &mut LowerCx<'_>, node: &Node, rounded: Val, zp: Option<&Val>, axis: i64, out: DType) -> Result<Val> {
    let mut y = rounded;
    if let Some(zp) = zp {
        let z = convert(cx, node, zp, DType::F32)?;
        let z = per_axis(cx, node, &z, &y.dims, axis, "zero point")?;
        y = emit(cx, node, |b| b.binary(Opcode::Add, y.id, z.id))?;
    }
    let (lo, hi) = bounds(out);
    let lo = splat(cx, node, DType::F32, lo, &y.dims)?;
    let hi = splat(cx, node, DType::F32, hi, &y.dims)?;
    let y = emit(cx, node, |b| b.clamp(lo.id, y.id, hi.id))?;
    convert(cx, node, &y, out)
}

/// `x` quantized with `scale` and `zp` along `axis` to `out`.
pub fn quantize(
    cx: &mut LowerCx<'_>,
    node: &Node,
    x: &Val,
    scale: &Val,
    zp: Option<&Val>,
    axis: i64,
    out: DType,
) -> Result<Val> {
    let xf = convert(cx, node, x, DType::F32)?;
    let s = convert(cx, node, scale, DType::F32)?;
    let s = per_axis(cx, node, &s, &xf.dims, axis, "scale")?;
    let q = emit(cx, node, |b| b.binary(Opcode::Divide, xf.id, s.id))?;
    let q = emit(cx, node, |b| b.unary(Opcode::RoundNearestEven, q.id))?;
    saturate(cx, node, q, zp, axis, out)
}

/// `q` minus its zero point, in s32 (an integer product's operand).
fn shifted(cx: &mut LowerCx<'_>, node: &Node, q: &Val, zp: Option<&Val>, axis: i64) -> Result<Val> {
    quantized_type(node, q.dtype)?;
    let q32 = convert(cx, node, q, DType::S32)?;
    match zp {
        None => Ok(q32),
        Some(zp) => {
            let z = convert(cx, node, zp, DType::S32)?;
            let z = per_axis(cx, node, &z, &q32.dims, axis, "zero point")?;
            emit(cx, node, |b| b.binary(Opcode::Subtract, q32.id, z.id))
        }
    }
}

/// `q` dequantized with `scale` and `zp` along `axis`, in the scale's type.
pub fn dequantize(cx: &mut LowerCx<'_>, node: &Node, q: &Val, scale: &Val, zp: Option<&Val>, axis: i64) -> Result<Val> {
    if !scale.dtype.is_float() {
        return Err(GraphError::node(node, format!("the scale must be floating point, not {}", scale.dtype)));
    }
    let i = shifted(cx, node, q, zp, axis)?;
    let f = convert(cx, node, &i, DType::F32)?;
    let s = convert(cx, node, scale, DType::F32)?;
    let s = per_axis(cx, node, &s, &f.dims, axis, "scale")?;
    let y = emit(cx, node, |b| b.binary(Opcode::Multiply, f.id, s.id))?;
    convert(cx, node, &y, scale.dtype)
}

/// An s32 accumulator `acc` times `multiplier` (broadcast by the caller),
/// rounded half to even, plus `zp`, saturated to `out`.
fn requantize(
    cx: &mut LowerCx<'_>,
    node: &Node,
    acc: &Val,
    multiplier: &Val,
    zp: Option<&Val>,
    out: DType,
) -> Result<Val> {
    let f = convert(cx, node, acc, DType::F32)?;
    let y = emit(cx, node, |b| b.binary(Opcode::Multiply, f.id, multiplier.id))?;
    let y = emit(cx, node, |b| b.unary(Opcode::RoundNearestEven, y.id))?;
    saturate(cx, node, y, zp, 0, out)
}

/// The output type of a quantizing op: its zero point's, else `fallback`.
fn output_type(node: &Node, zp: Option<&Val>, fallback: DType) -> Result<DType> {
    quantized_type(node, zp.map_or(fallback, |z| z.dtype))
}

/// `QuantizeLinear(x, y_scale, y_zero_point?)`, `axis` (default 1).
pub fn quantize_linear(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    no_blocks(node)?;
    let x = input(node, inputs, 0)?;
    let scale = input(node, inputs, 1)?;
    let zp = opt_input(inputs, 2);
    let fallback = match node.int("output_dtype") {
        None | Some(0) => DType::U8,
        Some(code) => {
            super::onnx_dtype(code).ok_or_else(|| GraphError::unsupported(node, format!("output_dtype {code}")))?
        }
    };
    let out = output_type(node, zp, fallback)?;
    if out == DType::S32 {
        return Err(GraphError::unsupported(node, "quantizing to int32"));
    }
    Ok(vec![quantize(cx, node, x, scale, zp, int_attr(node, "axis", 1), out)?])
}

/// `DequantizeLinear(x, x_scale, x_zero_point?)`, `axis` (default 1).
pub fn dequantize_linear(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    no_blocks(node)?;
    let x = input(node, inputs, 0)?;
    let scale = input(node, inputs, 1)?;
    Ok(vec![dequantize(cx, node, x, scale, opt_input(inputs, 2), int_attr(node, "axis", 1))?])
}

/// `DynamicQuantizeLinear(x)`: u8 with the scale and zero point that map
/// `[min(x, 0), max(x, 0)]` onto `[0, 255]` (scale 1 when that range is empty).
pub fn dynamic_quantize_linear(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let xf = convert(cx, node, x, DType::F32)?;
    let all: Vec<usize> = (0..xf.dims.len()).collect();
    let max = reduce(cx, node, &xf, &all, smelt_hlo::builder::Reducer::Max, false)?;
    let min = reduce(cx, node, &xf, &all, smelt_hlo::builder::Reducer::Min, false)?;
    let zero = cx.scalar(node, DType::F32, 0.0)?;
    let max = emit(cx, node, |b| b.binary(Opcode::Maximum, max.id, zero.id))?;
    let min = emit(cx, node, |b| b.binary(Opcode::Minimum, min.id, zero.id))?;
    let range = emit(cx, node, |b| b.binary(Opcode::Subtract, max.id, min.id))?;
    let empty = compare(cx, node, smelt_hlo::attrs::ComparisonDirection::Eq, &max, &min)?;
    let one = cx.scalar(node, DType::F32, 1.0)?;
    let range = select(cx, node, &empty, &one, &range)?;
    let levels = cx.scalar(node, DType::F32, 255.0)?;
    let scale = emit(cx, node, |b| b.binary(Opcode::Divide, range.id, levels.id))?;
    // zero point = round(saturate(0 - min / scale)).
    let m = emit(cx, node, |b| b.binary(Opcode::Divide, min.id, scale.id))?;
    let m = emit(cx, node, |b| b.unary(Opcode::Negate, m.id))?;
    let (lo, hi) = (cx.scalar(node, DType::F32, 0.0)?, levels);
    let m = emit(cx, node, |b| b.clamp(lo.id, m.id, hi.id))?;
    let m = emit(cx, node, |b| b.unary(Opcode::RoundNearestEven, m.id))?;
    let zp = convert(cx, node, &m, DType::U8)?;
    let y = quantize(cx, node, &xf, &scale, Some(&zp), 0, DType::U8)?;
    let scale = convert(cx, node, &scale, x.dtype)?;
    Ok(vec![y, scale, zp])
}

/// `MatMulInteger(A, B, a_zero_point?, b_zero_point?)`: s32 numpy matmul of
/// the shifted operands (A's zero point per row, B's per column, or scalars).
pub fn matmul_integer(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let a = input(node, inputs, 0)?;
    let b = input(node, inputs, 1)?;
    let a = shifted(cx, node, a, opt_input(inputs, 2), -2)?;
    let b = shifted(cx, node, b, opt_input(inputs, 3), -1)?;
    nn::matmul(cx, node, &[Some(a), Some(b)])
}

/// `ConvInteger(x, w, x_zero_point?, w_zero_point?)`: s32 `Conv` of the
/// shifted operands (w's zero point per output channel or a scalar).
pub fn conv_integer(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let w = input(node, inputs, 1)?;
    let x = shifted(cx, node, x, opt_input(inputs, 2), 1)?;
    let w = shifted(cx, node, w, opt_input(inputs, 3), 0)?;
    nn::conv(cx, node, &[Some(x), Some(w)])
}

/// `scale_a * scale_b / scale_y` as f32, broadcast to `dims` with a
/// per-channel `scale_b` along `axis`.
fn multiplier(cx: &mut LowerCx<'_>, node: &Node, [sa, sb, sy]: [&Val; 3], dims: &[i64], axis: i64) -> Result<Val> {
    let mut m = None::<Val>;
    for (s, what) in [(sa, "input scale"), (sb, "weight scale")] {
        let s = convert(cx, node, s, DType::F32)?;
        let s = per_axis(cx, node, &s, dims, axis, what)?;
        m = Some(match m {
            None => s,
            Some(p) => emit(cx, node, |b| b.binary(Opcode::Multiply, p.id, s.id))?,
        });
    }
    let sy = convert(cx, node, sy, DType::F32)?;
    let sy = per_axis(cx, node, &sy, dims, axis, "output scale")?;
    let m = m.expect("two scales");
    emit(cx, node, |b| b.binary(Opcode::Divide, m.id, sy.id))
}

/// The `QLinear*` ops: `(x, x_scale, x_zp, w, w_scale, w_zp, y_scale,
/// y_zp, B?)`, the integer product `integer` of the shifted operands plus
/// the s32 bias `B` (`QLinearConv`'s, per output channel), requantized with
/// `w_scale` per index of `axis` of the product (or a scalar).
fn qlinear(
    cx: &mut LowerCx<'_>,
    node: &Node,
    inputs: &[Option<Val>],
    integer: super::LowerFn,
    axis: i64,
) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let w = input(node, inputs, 3)?;
    let out = output_type(node, opt_input(inputs, 7), x.dtype)?;
    let (sx, sw, sy) = (input(node, inputs, 1)?, input(node, inputs, 4)?, input(node, inputs, 6)?);
    let operands = [Some(x.clone()), Some(w.clone()), inputs[2].clone(), inputs[5].clone()];
    let mut acc = integer(cx, node, &operands)?.remove(0);
    if let Some(bias) = opt_input(inputs, 8) {
        let bias = convert(cx, node, bias, DType::S32)?;
        let bias = per_axis(cx, node, &bias, &acc.dims, 1, "bias")?;
        acc = emit(cx, node, |b| b.binary(Opcode::Add, acc.id, bias.id))?;
    }
    let m = multiplier(cx, node, [sx, sw, sy], &acc.dims, axis)?;
    Ok(vec![requantize(cx, node, &acc, &m, opt_input(inputs, 7), out)?])
}

/// `QLinearMatMul(a, a_scale, a_zp, b, b_scale, b_zp, y_scale, y_zp)`:
/// `b_scale` per column or a scalar.
pub fn qlinear_matmul(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    qlinear(cx, node, &inputs[..inputs.len().min(8)], matmul_integer, -1)
}

/// `QLinearConv(x, x_scale, x_zp, w, w_scale, w_zp, y_scale, y_zp, B?)`:
/// `w_scale` per output channel or a scalar; `B` (s32) is added to the
/// accumulator.
pub fn qlinear_conv(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    qlinear(cx, node, inputs, conv_integer, 1)
}
