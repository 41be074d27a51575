//! 1x1 convolutions as dots (XLA's algebraic simplifier does the same).
//!
//! A convolution whose window is 1 everywhere, unpadded and undilated, with
//! one batch group, is a matrix product over the feature dimension:
//! `out[.., o, ..] = sum_i in[.., i, ..] * k[i, o]`, batched over the feature
//! groups when there are several (ShuffleNet's grouped 1x1 convolutions). As a
//! dot it runs on the GEMM routines with no im2col gather, no kernel gather
//! and no output scatter, whatever the layout. That matters most for
//! feature-major (`bf01`, ONNX's and PyTorch's) layouts: there the kernel
//! becomes the product's left operand (`[O, I] x [I, H*W]`), which is the
//! output's memory order, so no transpose is left; over several images the
//! kernel is broadcast along the batch and the product batched over it (a
//! batch of `[O, I] x [I, H*W]`), again with no transpose. Strided windows
//! become a strided slice of the input first.
//!
//! Contract: rewrites a floating-point (f32, f64) convolution as above, whose
//! operands and result share one element type, or an integer one (s8, u8, s16
//! or s32 operands of one type, an s32 result: quantized layers), into
//! `[slice]`, `reshape` of the kernel to its feature dimensions (and of the
//! input's features into groups, when grouped), `dot` (the group its batch
//! dimension), and `reshape` (when the remaining permutation moves only size-1
//! dimensions) or `transpose` and `reshape` to the output's dimension order.
//! Preserves every result bit for bit: each output sums the same products in
//! the same (feature) order. Other convolutions are untouched. Assumes a
//! verified module.

use smelt_hlo::attrs::{ConvAttrs, DotDims, SliceDim};
use smelt_hlo::{Attrs, DType, Dims, InstId, Opcode};

use crate::pass::{PassContext, Result, Rewrite};
use crate::rewrite::{Rewriter, rewrite_each};

pub struct ConvToDot;

impl Rewrite for ConvToDot {
    const NAME: &'static str = "conv-to-dot";

    fn rewrite(&mut self, module: &mut smelt_hlo::Module, cx: &mut PassContext) -> Result<bool> {
        let rewritten = rewrite_each(module, |mut rw| {
            let mut rewritten = 0;
            for id in rw.comp.insts_with(Opcode::Convolution) {
                rw.begin(id);
                match as_dot(&mut rw, id) {
                    Some(new) if rw.replace(id, new) => rewritten += 1,
                    Some(_) => {}
                    None => rw.discard_created(),
                }
            }
            rewritten
        });
        Ok(cx.counted("convolutions_as_dots", rewritten))
    }
}

/// Whether the convolution's window makes it a product over features.
fn is_pointwise(conv: &ConvAttrs) -> bool {
    conv.feature_group_count >= 1
        && conv.batch_group_count == 1
        && conv
            .window
            .dims
            .iter()
            .all(|w| w.size == 1 && w.pad_low == 0 && w.pad_high == 0 && w.window_dilation == 1 && w.base_dilation == 1)
}

/// The dot replacing convolution `id`, when it qualifies.
fn as_dot(rw: &mut Rewriter<'_>, id: InstId) -> Option<InstId> {
    let inst = rw.inst(id).clone();
    let Attrs::Convolution(conv) = &inst.attrs else {
        return None;
    };
    if !is_pointwise(conv) {
        return None;
    }
    let (input, kernel) = (inst.operands[0], inst.operands[1]);
    let dtype = rw.dtype(id)?;
    let operands = rw.dtype(input)?;
    let float = matches!(dtype, DType::F32 | DType::F64) && operands == dtype;
    let integer = dtype == DType::S32 && matches!(operands, DType::S8 | DType::U8 | DType::S16 | DType::S32);
    if !(float || integer) || rw.dtype(kernel)? != operands {
        return None;
    }
    let cd = &conv.dims;
    let ix = |v: i64| usize::try_from(v).ok();
    let (in_f, k_i, k_o, out_f) =
        (ix(cd.input_feature)?, ix(cd.kernel_input_feature)?, ix(cd.kernel_output_feature)?, ix(cd.output_feature)?);
    let in_dims = rw.dims(input).to_vec();
    let out_dims = rw.dims(id).to_vec();
    let rank = in_dims.len();
    // Strides become a strided slice of the input's spatial dimensions.
    let x = if conv.window.dims.iter().any(|w| w.stride != 1) {
        let mut slice: Vec<SliceDim> = in_dims.iter().map(|&d| SliceDim { start: 0, limit: d, stride: 1 }).collect();
        for (k, w) in conv.window.dims.iter().enumerate() {
            slice[ix(cd.input_spatial[k])?].stride = w.stride;
        }
        rw.slice(input, slice)?
    } else {
        input
    };
    // With G feature groups the features split into (G, per group), G a
    // batch dimension of the product; ungrouped products have none.
    let g = conv.feature_group_count;
    let grouped = g > 1;
    let (x, in_c) = if grouped {
        let mut dims = rw.dims(x).to_vec();
        let c = dims[in_f];
        dims.splice(in_f..=in_f, [g, c / g]);
        (rw.reshape(x, &dims)?, in_f + 1)
    } else {
        (x, in_f)
    };
    // The kernel as its feature dimensions, in their own order (output
    // features split into (G, per group) when grouped): its batch, contracting
    // and free dimension.
    let (ki, ko) = (rw.dims(kernel)[k_i], rw.dims(kernel)[k_o]);
    let (k_dims, k_batch, k_contract) = match (grouped, k_i < k_o) {
        (false, true) => (vec![ki, ko], None, 0),
        (false, false) => (vec![ko, ki], None, 1),
        (true, true) => (vec![ki, g, ko / g], Some(1), 0),
        (true, false) => (vec![g, ko / g, ki], Some(0), 2),
    };
    let k2 = rw.reshape(kernel, &k_dims)?;
    // The output with its features split like the kernel's: where each
    // original output dimension lands.
    let split = |d: usize| if grouped && d > out_f { d + 1 } else { d };
    let mut expanded = out_dims.clone();
    if grouped {
        expanded.splice(out_f..=out_f, [g, out_dims[out_f] / g]);
    }
    // Which output dimension each input dimension other than the feature becomes.
    let out_of_input = |d: usize| -> Option<usize> {
        if d == ix(cd.input_batch)? {
            return ix(cd.output_batch);
        }
        let k = cd.input_spatial.iter().position(|&s| ix(s) == Some(d))?;
        ix(cd.output_spatial[k])
    };
    let free: Vec<usize> = (0..rank).filter(|&d| d != in_f).map(out_of_input).collect::<Option<_>>()?;
    // Feature-major outputs take the kernel as the left operand, so that the
    // product's rows are the output features.
    let kernel_first = free.iter().all(|&d| d > out_f || out_dims[d] == 1);
    let free: Vec<usize> = free.into_iter().map(split).collect();
    let one = |v: usize| Dims::from_slice(&[v as i64]);
    let none_or = |b: Option<usize>| b.map_or_else(Dims::new, one);
    // Batch, features, then the rest (NCHW) over several images: the kernel,
    // broadcast over the batch, is a batched left operand, and the product
    // is the output as it is laid out, with no transpose on either side.
    let out_b = ix(cd.output_batch)?;
    if !grouped && out_b < out_f && out_dims[out_b] > 1 && free.iter().all(|&d| d == out_b || d > out_f) {
        let mut kd = vec![out_dims[out_b]];
        kd.extend(&k_dims);
        let kb = rw.broadcast(k2, &kd, &[1, 2])?;
        let dims = DotDims {
            lhs_batch: one(0),
            rhs_batch: one(ix(cd.input_batch)?),
            lhs_contracting: one(k_contract + 1),
            rhs_contracting: one(in_f),
        };
        let product = rw.dot(kb, x, dims, dtype)?;
        // Product dimensions: batch, output features, the input's others in order.
        let mut order = vec![out_b, out_f];
        order.extend(free.iter().copied().filter(|&d| d != out_b));
        if order.windows(2).all(|w| w[0] < w[1]) {
            return rw.reshape(product, &out_dims);
        }
        let mut perm = vec![0i64; order.len()];
        for (r, &o) in order.iter().enumerate() {
            perm[o] = r as i64;
        }
        let t = rw.transpose(product, &perm)?;
        return rw.reshape(t, &out_dims);
    }
    // (operand, batch dimension, contracting dimension) of each side.
    let kernel_side = (k2, k_batch, k_contract);
    let input_side = (x, grouped.then_some(in_f), in_c);
    let ((lhs, lb, lc), (rhs, rb, rc)) =
        if kernel_first { (kernel_side, input_side) } else { (input_side, kernel_side) };
    let dims =
        DotDims { lhs_batch: none_or(lb), rhs_batch: none_or(rb), lhs_contracting: one(lc), rhs_contracting: one(rc) };
    let product = rw.dot(lhs, rhs, dims, dtype)?;
    // Product dimensions: the group, then the left operand's free ones, then
    // the right's; `order[r]` is the (expanded) output dimension of product
    // dimension `r`.
    let features = if grouped { out_f + 1 } else { out_f };
    let mut order: Vec<usize> = if grouped { vec![out_f] } else { vec![] };
    if kernel_first {
        order.push(features);
        order.extend(free);
    } else {
        order.extend(free);
        order.push(features);
    }
    let mut perm = vec![0i64; expanded.len()];
    for (r, &o) in order.iter().enumerate() {
        perm[o] = r as i64;
    }
    // Moving only size-1 dimensions is a reshape.
    let moved: Vec<i64> = perm.iter().copied().filter(|&r| expanded[order[r as usize]] != 1).collect();
    if moved.windows(2).all(|w| w[0] < w[1]) {
        rw.reshape(product, &out_dims)
    } else {
        let t = rw.transpose(product, &perm)?;
        rw.reshape(t, &out_dims)
    }
}
