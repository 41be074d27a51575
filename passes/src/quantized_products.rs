//! Quantized products on integer arithmetic: dequantized float dots and
//! convolutions folded into integer ones, and integer products over 8-bit
//! values narrowed to 16-bit operands.
//!
//! A quantized model computes `dot(dequantize(a), dequantize(w))`, where
//! `dequantize(q) = convert_f32(q - zero_point) * scale` (the form ONNX's
//! `DequantizeLinear` lowers to, `smelt_jit`'s `ops/quant.rs`). When the scales
//! are constant along the contracted dimensions (per tensor, or per output
//! channel of the weights), the scales factor out of the sum:
//! `dot(...) = convert_f32(dot_s32(a - za, w - zw)) * scale_a * scale_w`. The
//! integer sum is exact, so the result differs from the float product only in
//! rounding (it is what onnxruntime computes), and it runs on the CPU
//! backend's integer pair instructions (`vpdpwssd` on AVX512-VNNI) over half
//! the bytes of f32, with the requantization after it fused as the product's
//! epilogue.
//!
//! Contract:
//! - **Fold**: a `dot` or `convolution` with an f32 result whose operands are
//!   both `multiply(convert_f32(I), broadcast(S))` (either order; or a
//!   `reshape` or `transpose` of one with a scalar `S`), `I` an
//!   integer value whose range is known to fit s16 (below), `S` f32 and
//!   constant along the contracted dimensions (for a convolution: a scalar for
//!   the input, a scalar or one value per output feature for the kernel),
//!   becomes `multiply(convert_f32(P), broadcast(S_in) * broadcast(S_w))`
//!   where `P` is the same product of the s16 forms of the `I`s with an s32
//!   result. Only where the sum cannot overflow s32: the contracted length
//!   times the largest magnitudes of both operands fits. Padding agrees: the
//!   float product pads with 0.0, the integer one with `I = 0`, which
//!   dequantizes to 0.0.
//! - **Narrow**: a `dot` or `convolution` with an s32 result over s32
//!   operands whose ranges fit s16 takes their s16 forms instead (bit for
//!   bit the same: both sum the same products in wrapping s32).
//! - A value's s16 form and range are known for: s8, u8 and s16 values,
//!   and widening `convert`s of them; integer constants whose values fit; `subtract`, `add` and
//!   `negate` of such values when the result still fits; and `broadcast`,
//!   `reshape`, `transpose` of them.
//!
//! - Grouped convolutions with fewer than four input features per group
//!   (depthwise) stay float: integer arithmetic gains nothing there.
//!
//! Everything else is untouched. Assumes a verified module; run before the
//! algebraic simplifier rewrites the dequantize pattern.

use smelt_hlo::attrs::ConvAttrs;
use smelt_hlo::{Attrs, DType, InstId, Literal, Opcode, Shape};

use crate::pass::{PassContext, Result, Rewrite};
use crate::rewrite::{Rewriter, rewrite_each};

/// The pass; `u8s8`: the backend multiplies u8 by s8 operands natively
/// (AVX512-VNNI's `vpdpbusd`), so products of u8 activations (minus a
/// constant zero point) and s8 weights (zero point 0) keep those types.
#[derive(Default)]
pub struct QuantizedProducts {
    pub u8s8: bool,
}

impl Rewrite for QuantizedProducts {
    const NAME: &'static str = "quantized-products";

    fn rewrite(&mut self, module: &mut smelt_hlo::Module, cx: &mut PassContext) -> Result<bool> {
        let (mut folded, mut narrowed) = (0, 0);
        rewrite_each(module, |mut rw| {
            let mut n = 0;
            let products: Vec<InstId> =
                rw.comp.insts_with(Opcode::Dot).into_iter().chain(rw.comp.insts_with(Opcode::Convolution)).collect();
            for id in products {
                rw.begin(id);
                let u8s8 = self.u8s8;
                let (new, float) = match rw.dtype(id) {
                    Some(DType::F32) if depthwise(&rw, id) => continue,
                    Some(DType::F32) => (fold(&mut rw, id, u8s8), true),
                    Some(DType::S32) => (narrow_product(&mut rw, id, u8s8), false),
                    _ => continue,
                };
                match new {
                    Some(new) if rw.replace(id, new) => {
                        n += 1;
                        if float { folded += 1 } else { narrowed += 1 }
                    }
                    Some(_) => {}
                    None => rw.discard_created(),
                }
            }
            n
        });
        let a = cx.counted("dequantized_products_folded", folded);
        let b = cx.counted("integer_products_narrowed", narrowed);
        Ok(a || b)
    }
}

/// Whether `id` is a convolution with fewer than four input features per
/// group (depthwise, mostly): each output sums a window of one or a few
/// features, nothing for integer pairs or quads to multiply together, and
/// the backends' float depthwise routines beat integer im2col on it.
fn depthwise(rw: &Rewriter<'_>, id: InstId) -> bool {
    let inst = rw.inst(id);
    let Attrs::Convolution(c) = &inst.attrs else { return false };
    let kernel = rw.dims(inst.operands[1]);
    c.feature_group_count > 1 && kernel.get(c.dims.kernel_input_feature as usize).is_some_and(|&f| f < 4)
}

/// The inclusive range of an integer value, when known.
type Range = (i64, i64);

/// The range of `id` when its s16 form can be built ([`to_s16`]).
fn range(rw: &Rewriter<'_>, id: InstId) -> Option<Range> {
    let inst = rw.inst(id);
    let fits = |(lo, hi): Range| (lo >= i16::MIN as i64 && hi <= i16::MAX as i64).then_some((lo, hi));
    match rw.dtype(id)? {
        DType::S8 => return Some((-128, 127)),
        DType::U8 => return Some((0, 255)),
        DType::S16 => return Some((i16::MIN as i64, i16::MAX as i64)),
        DType::S32 | DType::S64 => {}
        _ => return None,
    }
    match inst.opcode {
        Opcode::Convert => range(rw, inst.operands[0]),
        Opcode::Constant => {
            let Attrs::Constant(lit) = &inst.attrs else { return None };
            let a = lit.as_array()?;
            if a.len() == 0 {
                return None;
            }
            let (mut lo, mut hi) = (i64::MAX, i64::MIN);
            for i in 0..a.len() {
                let v = a.data.get_f64(i);
                lo = lo.min(v as i64);
                hi = hi.max(v as i64);
            }
            fits((lo, hi))
        }
        Opcode::Subtract | Opcode::Add => {
            let (a, b) = (range(rw, inst.operands[0])?, range(rw, inst.operands[1])?);
            if inst.opcode == Opcode::Add { fits((a.0 + b.0, a.1 + b.1)) } else { fits((a.0 - b.1, a.1 - b.0)) }
        }
        Opcode::Negate => {
            let (lo, hi) = range(rw, inst.operands[0])?;
            fits((-hi, -lo))
        }
        Opcode::Broadcast | Opcode::Reshape | Opcode::Transpose => range(rw, inst.operands[0]),
        _ => None,
    }
}

/// The s16 form of `id`, whose [`range`] is known.
fn to_s16(rw: &mut Rewriter<'_>, id: InstId) -> Option<InstId> {
    match rw.dtype(id)? {
        DType::S16 => return Some(id),
        DType::S8 | DType::U8 => return rw.convert(id, DType::S16),
        _ => {}
    }
    let inst = rw.inst(id).clone();
    match inst.opcode {
        Opcode::Convert => to_s16(rw, inst.operands[0]),
        Opcode::Constant => {
            let Attrs::Constant(lit) = &inst.attrs else { return None };
            let a = lit.as_array()?;
            let values: Vec<i16> = (0..a.len()).map(|i| a.data.get_f64(i) as i16).collect();
            let shape = Shape::array(DType::S16, a.shape().dims.as_slice());
            let narrow = smelt_hlo::Array::from_vec(a.shape().dims.as_slice(), values);
            Some(rw.add(Opcode::Constant, shape, &[], Attrs::Constant(Box::new(Literal::Array(narrow)))))
        }
        Opcode::Subtract | Opcode::Add => {
            let (a, b) = (to_s16(rw, inst.operands[0])?, to_s16(rw, inst.operands[1])?);
            rw.binary(inst.opcode, a, b)
        }
        Opcode::Negate | Opcode::Broadcast | Opcode::Reshape | Opcode::Transpose => {
            let x = to_s16(rw, inst.operands[0])?;
            let mut copy = inst.clone();
            copy.operands[0] = x;
            if let Shape::Array(a) = &mut copy.shape {
                a.dtype = DType::S16;
            }
            Some(rw.add_inst(copy))
        }
        _ => None,
    }
}

/// A dequantized operand: the integer value and the scale's broadcast
/// (`scale` its f32 source, `mapping` the operand dimensions it varies along).
struct Dequantized {
    int: InstId,
    range: Range,
    scale: InstId,
    mapping: Vec<i64>,
}

/// `id` as `multiply(convert_f32(I), broadcast(S))`, or a `reshape` or
/// `transpose` of one whose scale is a scalar (then applied to `I`, in new
/// instructions).
fn dequantized(rw: &mut Rewriter<'_>, id: InstId) -> Option<Dequantized> {
    let inst = rw.inst(id).clone();
    if matches!(inst.opcode, Opcode::Reshape | Opcode::Transpose) {
        let inner = dequantized(rw, inst.operands[0])?;
        if !inner.mapping.is_empty() {
            return None;
        }
        let mut moved = inst;
        moved.operands[0] = inner.int;
        if let Shape::Array(a) = &mut moved.shape {
            a.dtype = rw.dtype(inner.int)?;
        }
        return Some(Dequantized { int: rw.add_inst(moved), ..inner });
    }
    if inst.opcode != Opcode::Multiply {
        return None;
    }
    let [a, b] = [inst.operands[0], inst.operands[1]];
    let is_int_convert = |rw: &Rewriter<'_>, x: InstId| {
        let i = rw.inst(x);
        i.opcode == Opcode::Convert && rw.dtype(i.operands[0]).is_some_and(|d| d.is_int())
    };
    let (conv, bcast) = if is_int_convert(rw, a) { (a, b) } else { (b, a) };
    if !is_int_convert(rw, conv) || rw.inst(bcast).opcode != Opcode::Broadcast || rw.dtype(bcast)? != DType::F32 {
        return None;
    }
    let int = rw.inst(conv).operands[0];
    let Attrs::Dimensions(mapping) = &rw.inst(bcast).attrs else { return None };
    Some(Dequantized { int, range: range(rw, int)?, scale: rw.inst(bcast).operands[0], mapping: mapping.to_vec() })
}

/// The largest magnitude in a range.
fn magnitude((lo, hi): Range) -> i64 {
    lo.abs().max(hi.abs())
}

/// Whether `k` products of values in ranges `a` and `b` sum within s32.
fn sum_fits(k: i64, a: Range, b: Range) -> bool {
    k.checked_mul(magnitude(a)).and_then(|v| v.checked_mul(magnitude(b))).is_some_and(|v| v <= i32::MAX as i64)
}

/// The product `id` rebuilt over new operands with an s32 result.
fn integer_product(rw: &mut Rewriter<'_>, id: InstId, lhs: InstId, rhs: InstId) -> Option<InstId> {
    let inst = rw.inst(id).clone();
    match &inst.attrs {
        Attrs::Dot(dims) => rw.dot(lhs, rhs, dims.clone(), DType::S32),
        Attrs::Convolution(_) => {
            let mut copy = inst.clone();
            copy.operands = [lhs, rhs].into_iter().collect();
            if let Shape::Array(a) = &mut copy.shape {
                a.dtype = DType::S32;
            }
            Some(rw.add_inst(copy))
        }
        _ => None,
    }
}

/// The number of products each result element of `id` sums.
fn contracted_length(rw: &Rewriter<'_>, id: InstId) -> Option<i64> {
    let inst = rw.inst(id);
    let rhs = rw.dims(inst.operands[1]);
    match &inst.attrs {
        Attrs::Dot(d) => d.rhs_contracting.iter().map(|&c| rhs.get(c as usize).copied()).product(),
        Attrs::Convolution(c) => {
            let feat = *rhs.get(c.dims.kernel_input_feature as usize)?;
            Some(feat * c.window.dims.iter().map(|w| w.size).product::<i64>())
        }
        _ => None,
    }
}

/// [`QuantizedProducts`]' narrowing of an s32 product.
fn narrow_product(rw: &mut Rewriter<'_>, id: InstId, u8s8: bool) -> Option<InstId> {
    let [l, r] = [rw.inst(id).operands[0], rw.inst(id).operands[1]];
    if rw.dtype(l)? != DType::S32 || rw.dtype(r)? != DType::S32 {
        return None;
    }
    range(rw, l)?;
    range(rw, r)?;
    if u8s8 && let Some(p) = u8_times_s8(rw, id, l, r) {
        return Some(p);
    }
    rw.discard_created();
    let (l16, r16) = (to_s16(rw, l)?, to_s16(rw, r)?);
    integer_product(rw, id, l16, r16)
}

/// A constant integer that `id` holds everywhere.
fn constant_int(rw: &Rewriter<'_>, id: InstId) -> Option<i64> {
    let inst = rw.inst(id);
    match (inst.opcode, &inst.attrs) {
        (Opcode::Convert, _) if rw.dtype(inst.operands[0])?.is_int() => constant_int(rw, inst.operands[0]),
        (Opcode::Broadcast | Opcode::Reshape, _) => constant_int(rw, inst.operands[0]),
        (Opcode::Constant, Attrs::Constant(lit)) => {
            crate::rewrite::value::int(&crate::rewrite::splat_literal(lit)?).map(|v| v as i64)
        }
        _ => None,
    }
}

/// `id` with the layout op `inst` (a reshape or transpose) applied to `x`
/// instead, in `x`'s type.
fn moved(rw: &mut Rewriter<'_>, inst: &smelt_hlo::Instruction, x: InstId) -> Option<InstId> {
    let mut copy = inst.clone();
    copy.operands[0] = x;
    if let Shape::Array(a) = &mut copy.shape {
        a.dtype = rw.dtype(x)?;
    }
    Some(rw.add_inst(copy))
}

/// `id` as `x - zx`: a u8 value and a constant zero point in `[0, 255]`.
fn u8_minus_constant(rw: &mut Rewriter<'_>, id: InstId) -> Option<(InstId, i64)> {
    if rw.dtype(id)? == DType::U8 {
        return Some((id, 0));
    }
    let inst = rw.inst(id).clone();
    match inst.opcode {
        Opcode::Convert if rw.dtype(inst.operands[0])?.is_int() => u8_minus_constant(rw, inst.operands[0]),
        Opcode::Subtract => {
            let c = constant_int(rw, inst.operands[1])?;
            let (x, z) = u8_minus_constant(rw, inst.operands[0])?;
            (0..=255).contains(&(z + c)).then_some((x, z + c))
        }
        Opcode::Reshape | Opcode::Transpose => {
            let (x, z) = u8_minus_constant(rw, inst.operands[0])?;
            Some((moved(rw, &inst, x)?, z))
        }
        _ => None,
    }
}

/// `id` as an s8 value (a zero point of 0 subtracted at most).
fn plain_s8(rw: &mut Rewriter<'_>, id: InstId) -> Option<InstId> {
    if rw.dtype(id)? == DType::S8 {
        return Some(id);
    }
    let inst = rw.inst(id).clone();
    match inst.opcode {
        Opcode::Convert if rw.dtype(inst.operands[0])?.is_int() => plain_s8(rw, inst.operands[0]),
        Opcode::Subtract if constant_int(rw, inst.operands[1]) == Some(0) => plain_s8(rw, inst.operands[0]),
        Opcode::Reshape | Opcode::Transpose => {
            let x = plain_s8(rw, inst.operands[0])?;
            moved(rw, &inst, x)
        }
        _ => None,
    }
}

/// An s8 array of ones of `dims` (summing weights through a product).
fn ones(rw: &mut Rewriter<'_>, dims: &[i64]) -> Option<InstId> {
    let one = rw.constant(smelt_hlo::Array::scalar(1i8));
    rw.broadcast(one, dims, &[])
}

/// Product `id` of `l = x - zx` (u8 `x`) and `r` (s8) as `product(x, r) -
/// zx * (sum of r over the contracted dimensions)`, in s32; a convolution's
/// padding moves into a `pad` of `x` with `zx` (padding is `x - zx = 0`).
fn u8_times_s8(rw: &mut Rewriter<'_>, id: InstId, l: InstId, r: InstId) -> Option<InstId> {
    let k = contracted_length(rw, id)?;
    if !sum_fits(k, (0, 255), (-128, 127)) {
        return None;
    }
    let (x, zx) = u8_minus_constant(rw, l)?;
    let w = plain_s8(rw, r)?;
    let inst = rw.inst(id).clone();
    let out_dims = rw.dims(id).to_vec();
    let wdims = rw.dims(w).to_vec();
    // The weights' sums over the contracted dimensions, and where they land.
    let (product, sums, mapping) = match &inst.attrs {
        Attrs::Dot(d) => {
            let p = rw.dot(x, w, d.clone(), DType::S32)?;
            if zx == 0 {
                return Some(p);
            }
            let lead: Vec<i64> = d.rhs_batch.iter().chain(&d.rhs_contracting).map(|&i| wdims[i as usize]).collect();
            let ones = ones(rw, &lead)?;
            let nb = d.rhs_batch.len() as i64;
            let dims = smelt_hlo::attrs::DotDims {
                lhs_batch: (0..nb).collect(),
                lhs_contracting: (nb..lead.len() as i64).collect(),
                rhs_batch: d.rhs_batch.clone(),
                rhs_contracting: d.rhs_contracting.clone(),
            };
            let sums = rw.dot(ones, w, dims, DType::S32)?;
            // [batch..., rhs free...] into [batch..., lhs free..., rhs free...].
            let lhs_free = rw.dims(l).len() as i64 - nb - d.lhs_contracting.len() as i64;
            let rank = rw.dims(sums).len() as i64;
            let mapping: Vec<i64> = (0..rank).map(|i| if i < nb { i } else { i + lhs_free }).collect();
            (p, sums, mapping)
        }
        Attrs::Convolution(c) => {
            let mut conv = (**c).clone();
            let x = if zx == 0 {
                x
            } else {
                // Padding and base dilation holes hold the zero point.
                let mut config = vec![smelt_hlo::attrs::PadDim::default(); rw.dims(x).len()];
                for (k, wd) in conv.window.dims.iter_mut().enumerate() {
                    let d = c.dims.input_spatial[k] as usize;
                    config[d] =
                        smelt_hlo::attrs::PadDim { low: wd.pad_low, high: wd.pad_high, interior: wd.base_dilation - 1 };
                    (wd.pad_low, wd.pad_high, wd.base_dilation) = (0, 0, 1);
                }
                let z = rw.constant(smelt_hlo::Array::scalar(zx as u8));
                let shape = smelt_hlo::shape_inference::infer_pad(rw.shape(x), rw.shape(z), &config).ok()?;
                rw.add(Opcode::Pad, shape, &[x, z], Attrs::Pad(config))
            };
            let shape =
                smelt_hlo::shape_inference::infer_convolution(rw.shape(x), rw.shape(w), &conv, Some(DType::S32))
                    .ok()?;
            let p = rw.add(Opcode::Convolution, shape, &[x, w], Attrs::Convolution(Box::new(conv)));
            if zx == 0 {
                return Some(p);
            }
            let ko = c.dims.kernel_output_feature;
            let others: Vec<i64> = (0..wdims.len() as i64).filter(|&i| i != ko).collect();
            let lead: Vec<i64> = others.iter().map(|&i| wdims[i as usize]).collect();
            let ones = ones(rw, &lead)?;
            let dims = smelt_hlo::attrs::DotDims {
                lhs_batch: Default::default(),
                lhs_contracting: (0..lead.len() as i64).collect(),
                rhs_batch: Default::default(),
                rhs_contracting: others.iter().copied().collect(),
            };
            (p, rw.dot(ones, w, dims, DType::S32)?, vec![c.dims.output_feature])
        }
        _ => return None,
    };
    let sums = rw.broadcast(sums, &out_dims, &mapping)?;
    let z = rw.constant(smelt_hlo::Array::scalar(zx as i32));
    let z = rw.broadcast(z, &out_dims, &[])?;
    let correction = rw.binary(Opcode::Multiply, sums, z)?;
    rw.binary(Opcode::Subtract, product, correction)
}

/// For each operand dimension of a dot's `side` (0 lhs, 1 rhs), its result
/// dimension; None for contracted ones.
fn dot_result_dims(rw: &Rewriter<'_>, id: InstId, side: usize) -> Option<Vec<Option<i64>>> {
    let Attrs::Dot(d) = &rw.inst(id).attrs else { return None };
    let rank = rw.dims(rw.inst(id).operands[side]).len();
    let (batch, contracting) =
        if side == 0 { (&d.lhs_batch, &d.lhs_contracting) } else { (&d.rhs_batch, &d.rhs_contracting) };
    let nb = batch.len() as i64;
    let lhs_rank = rw.dims(rw.inst(id).operands[0]).len() as i64;
    let lhs_free = lhs_rank - nb - d.lhs_contracting.len() as i64;
    let mut next_free = if side == 0 { nb } else { nb + lhs_free };
    Some(
        (0..rank as i64)
            .map(|dim| {
                if let Some(b) = batch.iter().position(|&x| x == dim) {
                    Some(b as i64)
                } else if contracting.contains(&dim) {
                    None
                } else {
                    next_free += 1;
                    Some(next_free - 1)
                }
            })
            .collect(),
    )
}

/// For each operand dimension of a convolution's `side`, its result
/// dimension where a scale may vary along it (none for the input but the
/// batch, the kernel's output feature for the kernel).
fn conv_result_dims(conv: &ConvAttrs, rank: usize, side: usize) -> Vec<Option<i64>> {
    let d = &conv.dims;
    (0..rank as i64)
        .map(|dim| match side {
            0 if dim == d.input_batch && conv.batch_group_count == 1 => Some(d.output_batch),
            1 if dim == d.kernel_output_feature => Some(d.output_feature),
            _ => None,
        })
        .collect()
}

/// [`QuantizedProducts`]' fold of a dequantized f32 product.
fn fold(rw: &mut Rewriter<'_>, id: InstId, u8s8: bool) -> Option<InstId> {
    let [l, r] = [rw.inst(id).operands[0], rw.inst(id).operands[1]];
    let dl = dequantized(rw, l)?;
    let dr = dequantized(rw, r)?;
    if !sum_fits(contracted_length(rw, id)?, dl.range, dr.range) {
        return None;
    }
    // Where each side's scale lands in the result; refused when it varies
    // along a contracted dimension.
    let out_dims = rw.dims(id).to_vec();
    let mut scales = Vec::new();
    for (side, dq) in [(0, &dl), (1, &dr)] {
        let to_result = match &rw.inst(id).attrs {
            Attrs::Dot(_) => dot_result_dims(rw, id, side)?,
            Attrs::Convolution(c) => conv_result_dims(c, rw.dims(rw.inst(id).operands[side]).len(), side),
            _ => return None,
        };
        let mapping: Vec<i64> =
            dq.mapping.iter().map(|&m| to_result.get(m as usize).copied().flatten()).collect::<Option<_>>()?;
        if !mapping.windows(2).all(|w| w[0] < w[1]) {
            return None;
        }
        scales.push((dq.scale, mapping));
    }
    let mark = rw.created.len();
    let product = match u8s8.then(|| u8_times_s8(rw, id, dl.int, dr.int)).flatten() {
        Some(p) => p,
        None => {
            // Drop what a refused u8 x s8 attempt built, keep the operands.
            for dead in rw.created.split_off(mark).into_iter().rev() {
                rw.comp.remove(dead);
            }
            let (li, ri) = (to_s16(rw, dl.int)?, to_s16(rw, dr.int)?);
            integer_product(rw, id, li, ri)?
        }
    };
    let mut y = rw.convert(product, DType::F32)?;
    for (scale, mapping) in scales {
        let s = rw.broadcast(scale, &out_dims, &mapping)?;
        y = rw.binary(Opcode::Multiply, y, s)?;
    }
    Some(y)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pass::Pass;

    fn run(text: &str) -> (String, bool) {
        run_with(text, false)
    }

    fn run_with(text: &str, u8s8: bool) -> (String, bool) {
        let mut m = smelt_hlo::parse_module(text).unwrap();
        let changed = QuantizedProducts { u8s8 }.run(&mut m, &mut PassContext::default()).unwrap();
        smelt_hlo::verifier::verify(&m).unwrap();
        (smelt_hlo::print_module(&m), changed)
    }

    const DOT: &str = "HloModule q\nENTRY e {\n  a = u8[4,16] parameter(0)\n  w = s8[16,8] parameter(1)\n  \
        a32 = s32[4,16] convert(a)\n  za = s32[] constant(128)\n  zab = s32[4,16] broadcast(za), dimensions={}\n  \
        ai = s32[4,16] subtract(a32, zab)\n  af = f32[4,16] convert(ai)\n  sa = f32[] constant(0.02)\n  \
        sab = f32[4,16] broadcast(sa), dimensions={}\n  ad = f32[4,16] multiply(af, sab)\n  \
        wf = f32[16,8] convert(w)\n  sw = f32[8] parameter(2)\n  swb = f32[16,8] broadcast(sw), dimensions={1}\n  \
        wd = f32[16,8] multiply(swb, wf)\n  \
        ROOT d = f32[4,8] dot(ad, wd), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n";

    #[test]
    fn dequantized_dot_becomes_an_s16_dot_and_scales() {
        let (text, changed) = run(DOT);
        assert!(changed);
        assert!(text.contains("subtract = s16[4,16]{1,0} subtract(convert, zab.1)"), "{text}");
        assert!(text.contains("convert.1 = s16[16,8]{1,0} convert(w)"), "{text}");
        assert!(text.contains("s32[4,8]{1,0} dot(subtract, convert.1)"), "{text}");
        assert!(text.contains("broadcast(sw), dimensions={1}"), "{text}");
        assert!(text.contains("broadcast(sa), dimensions={}"), "{text}");
    }

    #[test]
    fn a_scale_along_the_contracted_dimension_is_left_alone() {
        let text = DOT
            .replace("swb = f32[16,8] broadcast(sw), dimensions={1}", "swb = f32[16,8] broadcast(sw), dimensions={0}")
            .replace("sw = f32[8] parameter(2)", "sw = f32[16] parameter(2)");
        assert!(!run(&text).1);
    }

    #[test]
    fn sums_that_could_overflow_are_left_alone() {
        let text = DOT.replace("[4,16]", "[4,200000]").replace("[16,8]", "[200000,8]");
        assert!(!run(&text).1, "200000 * 128 * 128 exceeds s32");
    }

    #[test]
    fn s32_products_of_8_bit_values_narrow() {
        let text = "HloModule q\nENTRY e {\n  x = u8[1,4,6,6] parameter(0)\n  w = s8[2,4,3,3] parameter(1)\n  \
            x32 = s32[1,4,6,6] convert(x)\n  w32 = s32[2,4,3,3] convert(w)\n  \
            ROOT c = s32[1,2,4,4] convolution(x32, w32), window={size=3x3}, dim_labels=bf01_oi01->bf01\n}\n";
        let (text, changed) = run(text);
        assert!(changed);
        assert!(text.contains("convert = s16[1,4,6,6]{3,2,1,0} convert(x)"), "{text}");
        assert!(text.contains("s32[1,2,4,4]{3,2,1,0} convolution(convert, convert.1)"), "{text}");
        // Wider values stay as they are.
        let wide = "HloModule q\nENTRY e {\n  a = s32[4,4] parameter(0)\n  \
            ROOT d = s32[4,4] dot(a, a), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n";
        assert!(!run(wide).1);
    }

    #[test]
    fn u8_activations_times_s8_weights_keep_their_types() {
        let (text, changed) = run_with(DOT, true);
        assert!(changed);
        // The product of the raw bytes, less the zero point times the weights' column sums.
        assert!(text.contains("s32[4,8]{1,0} dot(a, w)"), "{text}");
        assert!(text.contains("s32[8]{0} dot("), "{text}");
        assert!(text.contains("constant(128)"), "{text}");
        assert!(text.contains("subtract("), "{text}");
        // Weights with a zero point stay on 16-bit operands.
        let shifted = DOT.replace(
            "wf = f32[16,8] convert(w)",
            "w32 = s32[16,8] convert(w)\n  \
            zw = s32[] constant(3)\n  zwb = s32[16,8] broadcast(zw), dimensions={}\n  \
            wi = s32[16,8] subtract(w32, zwb)\n  wf = f32[16,8] convert(wi)",
        );
        let (text, changed) = run_with(&shifted, true);
        assert!(changed);
        assert!(text.contains("dot(subtract, subtract.1)"), "{text}");
    }

    #[test]
    fn padded_u8_convolutions_pad_with_the_zero_point() {
        let text = "HloModule q\nENTRY e {\n  x = u8[1,4,6,6] parameter(0)\n  w = s8[2,4,3,3] parameter(1)\n  \
            x32 = s32[1,4,6,6] convert(x)\n  z = s32[] constant(7)\n  zb = s32[1,4,6,6] broadcast(z), dimensions={}\n  \
            xi = s32[1,4,6,6] subtract(x32, zb)\n  w32 = s32[2,4,3,3] convert(w)\n  \
            ROOT c = s32[1,2,6,6] convolution(xi, w32), window={size=3x3 pad=1_1x1_1}, dim_labels=bf01_oi01->bf01\n}\n";
        let (text, changed) = run_with(text, true);
        assert!(changed);
        assert!(text.contains("u8[1,4,8,8]{3,2,1,0} pad(x, constant"), "{text}");
        assert!(text.contains("padding=0_0x0_0x1_1x1_1"), "{text}");
        assert!(text.contains("convolution(pad, w), window={size=3x3}"), "{text}");
    }
}
