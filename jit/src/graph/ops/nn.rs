//! Neural-network ops: products (`MatMul`, `Gemm`), convolution and pooling
//! over NCHW data, normalizations and softmax.

use smelt_hlo::attrs::{ComparisonDirection, ConvAttrs, ConvDims, DotDims, PadDim, Window, WindowDim};
use smelt_hlo::builder::Reducer;
use smelt_hlo::{Attrs, DType, Dims, Opcode, Shape};

use super::util::*;
use crate::graph::lower::{LowerCx, Val, at};
use crate::graph::{GraphError, Node, Result};

fn dot_dims(lb: &[i64], rb: &[i64], lc: i64, rc: i64) -> DotDims {
    DotDims {
        lhs_batch: Dims::from_slice(lb),
        rhs_batch: Dims::from_slice(rb),
        lhs_contracting: Dims::from_slice(&[lc]),
        rhs_contracting: Dims::from_slice(&[rc]),
    }
}

/// `MatMul`: numpy's matmul. 1-D operands gain and lose a dimension; batch
/// dimensions broadcast; a 2-D right operand multiplies the flattened rows
/// of the left one.
pub fn matmul(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let a0 = input(node, inputs, 0)?;
    let b0 = input(node, inputs, 1)?;
    if a0.dims.is_empty() || b0.dims.is_empty() {
        return Err(GraphError::node(node, "operands must have rank at least 1"));
    }
    let a = if a0.dims.len() == 1 { reshape(cx, node, a0, &[1, a0.dims[0]])? } else { a0.clone() };
    let b = if b0.dims.len() == 1 { reshape(cx, node, b0, &[b0.dims[0], 1])? } else { b0.clone() };
    let (ra, rb) = (a.dims.len(), b.dims.len());
    let (n, k) = (a.dims[ra - 2], a.dims[ra - 1]);
    let (k2, m) = (b.dims[rb - 2], b.dims[rb - 1]);
    if k != k2 {
        return Err(GraphError::node(node, format!("inner dimensions differ: {:?} x {:?}", a0.dims, b0.dims)));
    }
    let batch = broadcast_shape(node, &a.dims[..ra - 2], &b.dims[..rb - 2])?;
    let mut out_dims = batch.clone();
    out_dims.extend([n, m]);
    let out = if rb == 2 {
        // Rows of every batch of A times one matrix.
        let rows: i64 = a.dims[..ra - 1].iter().product();
        let a2 = reshape(cx, node, &a, &[rows, k])?;
        let p = emit(cx, node, |bl| bl.dot(a2.id, b.id, dot_dims(&[], &[], 1, 0), None))?;
        let mut full = a.dims[..ra - 2].to_vec();
        full.extend([n, m]);
        let p = reshape(cx, node, &p, &full)?;
        broadcast_to(cx, node, &p, &out_dims)?
    } else {
        let nb = batch.len();
        let bsz: i64 = batch.iter().product();
        let mut ad = batch.clone();
        ad.extend([n, k]);
        let mut bd = batch.clone();
        bd.extend([k, m]);
        let a3 = broadcast_to(cx, node, &a, &ad)?;
        let b3 = broadcast_to(cx, node, &b, &bd)?;
        let a3 = reshape(cx, node, &a3, &[bsz, n, k])?;
        let b3 = reshape(cx, node, &b3, &[bsz, k, m])?;
        let p = emit(cx, node, |bl| bl.dot(a3.id, b3.id, dot_dims(&[0], &[0], 2, 1), None))?;
        let _ = nb;
        reshape(cx, node, &p, &out_dims)?
    };
    // Drop the dimensions 1-D operands gained.
    let mut final_dims = batch;
    if a0.dims.len() > 1 {
        final_dims.push(n);
    }
    if b0.dims.len() > 1 {
        final_dims.push(m);
    }
    Ok(vec![reshape(cx, node, &out, &final_dims)?])
}

/// `Gemm`: `alpha * A' B' + beta * C`, transposes as flags.
pub fn gemm(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let a = input(node, inputs, 0)?;
    let b = input(node, inputs, 1)?;
    if a.dims.len() != 2 || b.dims.len() != 2 {
        return Err(GraphError::node(node, "A and B must be matrices"));
    }
    let ta = int_attr(node, "transA", 0) != 0;
    let tb = int_attr(node, "transB", 0) != 0;
    let alpha = float_attr(node, "alpha", 1.0) as f64;
    let beta = float_attr(node, "beta", 1.0) as f64;
    let (ka, kb) = (if ta { a.dims[0] } else { a.dims[1] }, if tb { b.dims[1] } else { b.dims[0] });
    if ka != kb {
        return Err(GraphError::node(node, format!("inner dimensions differ: {:?} x {:?}", a.dims, b.dims)));
    }
    let dims = dot_dims(&[], &[], if ta { 0 } else { 1 }, if tb { 1 } else { 0 });
    let mut y = emit(cx, node, |bl| bl.dot(a.id, b.id, dims, None))?;
    if alpha != 1.0 {
        let s = splat(cx, node, y.dtype, alpha, &y.dims)?;
        y = emit(cx, node, |bl| bl.binary(Opcode::Multiply, y.id, s.id))?;
    }
    if let Some(c) = opt_input(inputs, 2)
        && beta != 0.0
    {
        let mut c = broadcast_to(cx, node, c, &y.dims)?;
        if beta != 1.0 {
            let s = splat(cx, node, c.dtype, beta, &c.dims)?;
            c = emit(cx, node, |bl| bl.binary(Opcode::Multiply, c.id, s.id))?;
        }
        y = emit(cx, node, |bl| bl.binary(Opcode::Add, y.id, c.id))?;
    }
    Ok(vec![y])
}

/// The padding of each spatial dimension, from `pads` or `auto_pad`.
fn spatial_pads(
    node: &Node,
    in_dims: &[i64],
    kernel: &[i64],
    strides: &[i64],
    dilations: &[i64],
) -> Result<Vec<(i64, i64)>> {
    let n = in_dims.len();
    for (name, values) in [("kernel_shape", kernel), ("strides", strides), ("dilations", dilations)] {
        if values.iter().any(|&v| v < 1) {
            return Err(GraphError::node(node, format!("{name} {values:?} must be positive")));
        }
    }
    let auto = node.string("auto_pad").unwrap_or("NOTSET");
    match auto {
        "NOTSET" => {
            let pads = node.ints("pads").map(<[i64]>::to_vec).unwrap_or_else(|| vec![0; 2 * n]);
            if pads.len() != 2 * n {
                return Err(GraphError::node(node, format!("pads {pads:?} must have {} entries", 2 * n)));
            }
            Ok((0..n).map(|i| (pads[i], pads[n + i])).collect())
        }
        "VALID" => Ok(vec![(0, 0); n]),
        "SAME_UPPER" | "SAME_LOWER" => (0..n)
            .map(|i| {
                // In i128: attributes and dims may be anything a model holds.
                let (size, stride) = (i128::from(in_dims[i]), i128::from(strides[i]));
                let out = (size + stride - 1) / stride;
                let eff = (i128::from(kernel[i]) - 1) * i128::from(dilations[i]) + 1;
                let total = i64::try_from(((out - 1) * stride + eff - size).max(0))
                    .map_err(|_| GraphError::node(node, format!("the padding of spatial dimension {i} overflows")))?;
                let small = total / 2;
                Ok(if auto == "SAME_UPPER" { (small, total - small) } else { (total - small, small) })
            })
            .collect(),
        other => Err(GraphError::unsupported(node, format!("auto_pad={other}"))),
    }
}

/// Spatial attribute `name` (one entry per spatial dimension) or `default`.
fn spatial_attr(node: &Node, name: &str, n: usize, default: i64) -> Result<Vec<i64>> {
    match node.ints(name) {
        Some(v) if v.len() == n => Ok(v.to_vec()),
        Some(v) => Err(GraphError::node(node, format!("{name} {v:?} must have {n} entries"))),
        None => Ok(vec![default; n]),
    }
}

/// `Conv` over `[N, C, spatial...]` with kernels `[M, C/group, k...]`.
pub fn conv(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let w = input(node, inputs, 1)?;
    let ns = spatial_rank(node, x, w)?;
    let group = int_attr(node, "group", 1);
    let kernel = match node.ints("kernel_shape") {
        Some(k) => k.to_vec(),
        None => w.dims[2..].to_vec(),
    };
    if kernel != w.dims[2..] {
        return Err(GraphError::node(node, format!("kernel_shape {kernel:?} does not match W {:?}", w.dims)));
    }
    if x.dims[1] != w.dims[1] * group || w.dims[0] % group != 0 {
        return Err(GraphError::node(
            node,
            format!("channels of X {:?} and W {:?} do not fit group {group}", x.dims, w.dims),
        ));
    }
    let strides = spatial_attr(node, "strides", ns, 1)?;
    let dilations = spatial_attr(node, "dilations", ns, 1)?;
    let pads = spatial_pads(node, &x.dims[2..], &kernel, &strides, &dilations)?;
    let mut window = Window::default();
    for i in 0..ns {
        let (lo, hi) = pads[i];
        window.dims.push(WindowDim {
            size: kernel[i],
            stride: strides[i],
            pad_low: lo,
            pad_high: hi,
            window_dilation: dilations[i],
            base_dilation: 1,
            reversal: false,
        });
    }
    // The window rule is the HLO one, checked against overflow.
    let spatial_out =
        at(node, smelt_hlo::shape_inference::window_output_dims(Opcode::Convolution, &x.dims[2..], &window))?;
    let mut out_dims = vec![x.dims[0], w.dims[0]];
    out_dims.extend(spatial_out.iter().copied());
    let conv = NcConv { window, group, kernel_features: (1, 0) };
    Ok(vec![conv.emit(cx, node, x, w, &out_dims, opt_input(inputs, 2))?])
}

/// An N, C, spatial... convolution: `kernel_features` are the kernel's input
/// and output feature dims (its spatial dims follow them).
struct NcConv {
    window: Window,
    group: i64,
    kernel_features: (i64, i64),
}

impl NcConv {
    /// The convolution to `out_dims`, plus `bias` per output channel.
    fn emit(
        self,
        cx: &mut LowerCx<'_>,
        node: &Node,
        x: &Val,
        w: &Val,
        out_dims: &[i64],
        bias: Option<&Val>,
    ) -> Result<Val> {
        let spatial: Dims = (2..x.dims.len() as i64).collect();
        let dims = ConvDims {
            input_batch: 0,
            input_feature: 1,
            input_spatial: spatial.clone(),
            kernel_input_feature: self.kernel_features.0,
            kernel_output_feature: self.kernel_features.1,
            kernel_spatial: spatial.clone(),
            output_batch: 0,
            output_feature: 1,
            output_spatial: spatial,
        };
        let conv = ConvAttrs { window: self.window, dims, feature_group_count: self.group, batch_group_count: 1 };
        let attrs = Attrs::Convolution(Box::new(conv));
        let shape = Shape::array(x.dtype, out_dims);
        let mut y = emit(cx, node, |b| b.add_instruction(Opcode::Convolution, &[x.id, w.id], attrs, &[], Some(shape)))?;
        if let Some(bias) = bias {
            let bb = emit(cx, node, |b| b.broadcast(bias.id, out_dims, &[1]))?;
            y = emit(cx, node, |b| b.binary(Opcode::Add, y.id, bb.id))?;
        }
        Ok(y)
    }
}

/// The number of spatial dims of an N, C, spatial... input `x` and a kernel
/// `w` of the same rank.
fn spatial_rank(node: &Node, x: &Val, w: &Val) -> Result<usize> {
    let r = x.dims.len();
    if r < 3 || w.dims.len() != r {
        return Err(GraphError::node(
            node,
            format!("expects NC... input and kernel, got {:?} and {:?}", x.dims, w.dims),
        ));
    }
    Ok(r - 2)
}

/// A reduce-window over the spatial dimensions of `x` (N and C untouched).
fn pool_window(node: &Node, x: &Val, max: bool) -> Result<(Window, Vec<(i64, i64)>)> {
    let r = x.dims.len();
    if r < 3 {
        return Err(GraphError::node(node, format!("expects an NC... input, got {:?}", x.dims)));
    }
    let ns = r - 2;
    let Some(kernel) = node.ints("kernel_shape").map(<[i64]>::to_vec) else {
        return Err(GraphError::node(node, "needs kernel_shape"));
    };
    if kernel.len() != ns {
        return Err(GraphError::node(node, format!("kernel_shape {kernel:?} must have {ns} entries")));
    }
    let strides = spatial_attr(node, "strides", ns, 1)?;
    let dilations = spatial_attr(node, "dilations", ns, 1)?;
    if !max && dilations.iter().any(|&d| d != 1) {
        return Err(GraphError::unsupported(node, "dilations other than 1"));
    }
    let mut pads = spatial_pads(node, &x.dims[2..], &kernel, &strides, &dilations)?;
    let ceil = int_attr(node, "ceil_mode", 0) != 0;
    if ceil {
        if !max {
            return Err(GraphError::unsupported(node, "ceil_mode=1 for average pooling"));
        }
        for i in 0..ns {
            // In i128: attributes and dims may be anything a model holds.
            let (lo, hi) = (i128::from(pads[i].0), i128::from(pads[i].1));
            let (size, stride) = (i128::from(x.dims[2 + i]), i128::from(strides[i]));
            let eff = (i128::from(kernel[i]) - 1) * i128::from(dilations[i]) + 1;
            let span = size + lo + hi - eff;
            let mut out = (span + stride - 1).div_euclid(stride) + 1;
            // The last window must start inside the input or its low padding.
            if (out - 1) * stride >= size + lo {
                out -= 1;
            }
            let extra = ((out - 1) * stride + eff - (size + lo + hi)).max(0);
            pads[i].1 = i64::try_from(hi + extra)
                .map_err(|_| GraphError::node(node, format!("the padding of spatial dimension {i} overflows")))?;
        }
    }
    if int_attr(node, "storage_order", 0) != 0 {
        return Err(GraphError::unsupported(node, "storage_order=1"));
    }
    let mut window = Window { dims: vec![WindowDim::of_size(1), WindowDim::of_size(1)] };
    for i in 0..ns {
        window.dims.push(WindowDim {
            size: kernel[i],
            stride: strides[i],
            pad_low: pads[i].0,
            pad_high: pads[i].1,
            window_dilation: dilations[i],
            base_dilation: 1,
            reversal: false,
        });
    }
    Ok((window, pads))
}

fn reduce_window(cx: &mut LowerCx<'_>, node: &Node, x: &Val, window: Window, kind: Reducer) -> Result<Val> {
    let init = reduce_init(cx, node, kind, x.dtype)?;
    let reducer = cx.reducer(node, kind, x.dtype)?;
    emit(cx, node, |b| {
        b.add_instruction(Opcode::ReduceWindow, &[x.id, init.id], Attrs::Window(window), &[reducer], None)
    })
}

/// `MaxPool`, and its `Indices` output where the model reads it: each
/// maximum's position as an index into the flattened input (batch and
/// channel included, padding not counted), from a reduce-window over
/// (value, index) pairs ([`max_with_index`]).
pub fn max_pool(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let (window, _) = pool_window(node, x, true)?;
    if !wants_output(node, 1) {
        return Ok(vec![reduce_window(cx, node, x, window, Reducer::Max)?]);
    }
    let t = DType::S64;
    let n: i64 = x.dims.iter().product();
    let flat = emit(cx, node, |b| b.iota(Shape::array(t, [n]), 0))?;
    let index = reshape(cx, node, &flat, &x.dims)?;
    let pick = max_with_index(cx, node, x.dtype)?;
    let init = reduce_init(cx, node, Reducer::Max, x.dtype)?;
    // Padding's index loses every tie, so a window of equal values (-inf
    // ones included) names its first real position.
    let no_index = typed_scalar(cx, node, t, i64::MAX)?;
    let pairs = at(
        node,
        cx.b.add_instruction(
            Opcode::ReduceWindow,
            &[x.id, index.id, init.id, no_index.id],
            Attrs::Window(window),
            &[pick],
            None,
        ),
    )?;
    let values = emit(cx, node, |b| b.get_tuple_element(pairs, 0))?;
    let indices = emit(cx, node, |b| b.get_tuple_element(pairs, 1))?;
    Ok(vec![values, indices])
}

/// The reducer of (value, index) pairs `((a, i), (b, j))` keeping the larger
/// value, a NaN over any number, and of equal values (two NaNs included) the
/// smaller index: the first position in row-major order holding the maximum,
/// whatever order the windows are folded in (argmax over the window, as
/// ONNX's reference takes it).
fn max_with_index(cx: &mut LowerCx<'_>, node: &Node, dtype: DType) -> Result<smelt_hlo::CompId> {
    let (_, comp) = cx.sub(&format!("{}_max_index", node.name), |c| {
        let b = &mut c.b;
        let (v, i) = (Shape::scalar(dtype), Shape::scalar(DType::S64));
        let a = at(node, b.parameter(0, v.clone(), "a"))?;
        let ia = at(node, b.parameter(1, i.clone(), "ia"))?;
        let x = at(node, b.parameter(2, v, "b"))?;
        let ix = at(node, b.parameter(3, i, "ib"))?;
        let root = at(node, keep_max_first(b, [a, ia], [x, ix]))?;
        Ok(((), root))
    })?;
    cx.add_computation(comp)
}

/// The root of [`max_with_index`]'s reducer over `(a, i)` and `(b, j)`.
fn keep_max_first(
    bld: &mut smelt_hlo::builder::ComputationBuilder<'_>,
    [a, i]: [smelt_hlo::InstId; 2],
    [b, j]: [smelt_hlo::InstId; 2],
) -> std::result::Result<smelt_hlo::InstId, smelt_hlo::shape_inference::ShapeError> {
    let greater = bld.compare(ComparisonDirection::Gt, b, a)?;
    let equal = bld.compare(ComparisonDirection::Eq, b, a)?;
    let b_nan = bld.compare(ComparisonDirection::Ne, b, b)?;
    let a_nan = bld.compare(ComparisonDirection::Ne, a, a)?;
    let a_number = bld.unary(Opcode::Not, a_nan)?;
    let nan_over_number = bld.binary(Opcode::And, b_nan, a_number)?;
    let both_nan = bld.binary(Opcode::And, b_nan, a_nan)?;
    let same = bld.binary(Opcode::Or, equal, both_nan)?;
    let earlier = bld.compare(ComparisonDirection::Lt, j, i)?;
    let tie = bld.binary(Opcode::And, same, earlier)?;
    let take = bld.binary(Opcode::Or, greater, nan_over_number)?;
    let take = bld.binary(Opcode::Or, take, tie)?;
    let value = bld.select(take, b, a)?;
    let index = bld.select(take, j, i)?;
    bld.tuple(&[value, index])
}

/// `MaxUnpool(X, I, output_shape)`: zeros of the unpooled shape (given, or
/// `(in - 1) * stride - pads + kernel` per spatial dimension) with each
/// `X` value written at its flat index in `I` (a scatter; indices outside
/// the output are skipped, as HLO's scatter skips them).
pub fn max_unpool(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let idx = input(node, inputs, 1)?;
    if idx.dims != x.dims || !idx.dtype.is_int() {
        return Err(GraphError::node(
            node,
            format!("indices must be integers shaped like X {:?}, got {} {:?}", x.dims, idx.dtype, idx.dims),
        ));
    }
    let r = x.dims.len();
    if r < 3 {
        return Err(GraphError::node(node, format!("expects an NC... input, got {:?}", x.dims)));
    }
    let ns = r - 2;
    let out_dims = if opt_input(inputs, 2).is_some() {
        let dims = const_ints(node, inputs, 2, "output_shape")?;
        if dims.len() != r || dims[..2] != x.dims[..2] || dims.iter().any(|&d| d < 0) {
            return Err(GraphError::node(node, format!("output_shape {dims:?} does not fit X {:?}", x.dims)));
        }
        dims
    } else {
        let Some(kernel) = node.ints("kernel_shape").map(<[i64]>::to_vec).filter(|k| k.len() == ns) else {
            return Err(GraphError::node(node, format!("needs a kernel_shape of {ns} entries")));
        };
        let strides = spatial_attr(node, "strides", ns, 1)?;
        let pads = node.ints("pads").map(<[i64]>::to_vec).unwrap_or_else(|| vec![0; 2 * ns]);
        if pads.len() != 2 * ns {
            return Err(GraphError::node(node, format!("pads {pads:?} must have {} entries", 2 * ns)));
        }
        let mut dims = x.dims[..2].to_vec();
        for i in 0..ns {
            let d = (i128::from(x.dims[2 + i]) - 1) * i128::from(strides[i])
                - i128::from(pads[i])
                - i128::from(pads[ns + i])
                + i128::from(kernel[i]);
            dims.push(i64::try_from(d.max(0)).map_err(|_| GraphError::node(node, "the output size overflows"))?);
        }
        dims
    };
    let total: i64 = out_dims.iter().product();
    let m: i64 = x.dims.iter().product();
    let zeros = splat(cx, node, x.dtype, 0.0, &[total])?;
    let idx = convert(cx, node, idx, DType::S64)?;
    let idx = reshape(cx, node, &idx, &[m, 1])?;
    let updates = reshape(cx, node, x, &[m])?;
    let assign = cx.assigner(node, x.dtype)?;
    let s = smelt_hlo::attrs::ScatterAttrs {
        update_window_dims: Dims::new(),
        inserted_window_dims: Dims::from_slice(&[0]),
        scatter_dims_to_operand_dims: Dims::from_slice(&[0]),
        input_batching_dims: Dims::new(),
        scatter_indices_batching_dims: Dims::new(),
        index_vector_dim: 1,
        indices_are_sorted: false,
        unique_indices: false,
    };
    let flat = super::index::scatter(cx, node, &zeros, &idx, &updates, s, assign)?;
    Ok(vec![reshape(cx, node, &flat, &out_dims)?])
}

/// `DeformConv` (opset 19) over images `[N, C, H, W]` (ONNX's reference
/// covers 2-D only): each tap of each output position reads the input at its
/// usual place moved by `offset` (`[N, offset_group * kH * kW * 2, oH, oW]`,
/// (y, x) per tap), between pixels bilinearly with zeros outside (the
/// reference's `GridSample` with `align_corners`, through the same rule,
/// [`super::resize::sample_grid`]), times `mask`; then a grouped product
/// with the kernel, plus the bias. The sampled columns are `[N, C, kH, kW,
/// oH, oW]`: one grid per offset group.
pub fn deform_conv(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let w = input(node, inputs, 1)?;
    let offset = input(node, inputs, 2)?;
    let [n, c, ih, iw] = x.dims[..] else {
        return Err(GraphError::unsupported(node, format!("X {:?}: images [N, C, H, W] only", x.dims)));
    };
    let [oc, cpg, kh, kw] = w.dims[..] else {
        return Err(GraphError::node(node, format!("W {:?} must be [M, C / group, kH, kW]", w.dims)));
    };
    if let Some(k) = node.ints("kernel_shape").filter(|k| k[..] != [kh, kw]) {
        return Err(GraphError::node(node, format!("kernel_shape {k:?} differs from W's {:?}", &w.dims[2..])));
    }
    let group = int_attr(node, "group", 1);
    let og = int_attr(node, "offset_group", 1);
    if group < 1 || og < 1 || cpg * group != c || oc % group != 0 || c % og != 0 {
        return Err(GraphError::node(
            node,
            format!("X {:?}, W {:?}, group {group}, offset_group {og} do not fit", x.dims, w.dims),
        ));
    }
    let dil = spatial_attr(node, "dilations", 2, 1)?;
    let st = spatial_attr(node, "strides", 2, 1)?;
    let pads = node.ints("pads").map(<[i64]>::to_vec).unwrap_or_else(|| vec![0; 4]);
    if pads.len() != 4 || dil.iter().chain(&st).any(|&v| v < 1) {
        return Err(GraphError::node(node, format!("pads {pads:?}, dilations {dil:?}, strides {st:?}")));
    }
    let taps = kh * kw;
    let [on, oc2, oh, ow] = offset.dims[..] else {
        return Err(GraphError::node(
            node,
            format!("offset {:?} must be [N, 2 * kH * kW * offset_group, oH, oW]", offset.dims),
        ));
    };
    let out_len = |i: i64, k: i64, d: i64, s: i64, lo: i64, hi: i64| (i + lo + hi - ((k - 1) * d + 1)) / s + 1;
    if on != n
        || oc2 != og * taps * 2
        || oh != out_len(ih, kh, dil[0], st[0], pads[0], pads[2])
        || ow != out_len(iw, kw, dil[1], st[1], pads[1], pads[3])
    {
        return Err(GraphError::node(
            node,
            format!("offset {:?} does not fit X {:?}, the kernel and the window attributes", offset.dims, x.dims),
        ));
    }
    let t = x.dtype;
    let offset = convert(cx, node, offset, t)?;
    let grid7 = [n, og, kh, kw, 2, oh, ow];
    let offset = reshape(cx, node, &offset, &grid7)?;
    // Sampling coordinates along one axis, in pixels: base + tap * dilation
    // + offset (the reference normalizes them for its `GridSample` call with
    // align_corners, which takes them back to pixels).
    let mut coords = Vec::with_capacity(2);
    for (axis, (tap_dim, out_dim)) in [(2, 5), (3, 6)].into_iter().enumerate() {
        let part = [n, og, kh, kw, oh, ow];
        let mut lo = vec![0; 7];
        let mut hi = grid7.to_vec();
        (lo[4], hi[4]) = (axis as i64, axis as i64 + 1);
        let off = emit(cx, node, |b| b.slice(offset.id, &lo, &hi, &[1; 7]))?;
        let off = reshape(cx, node, &off, &part)?;
        let shape = smelt_hlo::Shape::array(t, part);
        let tap = emit(cx, node, |b| b.iota(shape.clone(), tap_dim))?;
        let out = emit(cx, node, |b| b.iota(shape.clone(), out_dim - 1))?;
        // `v op k` for a constant `k` of `part`'s shape.
        let with = |cx: &mut LowerCx<'_>, op: Opcode, v: &Val, k: f64| -> Result<Val> {
            let k = splat(cx, node, t, k, &part)?;
            binary(cx, node, op, v, &k)
        };
        let tap = with(cx, Opcode::Multiply, &tap, dil[axis] as f64)?;
        let out = with(cx, Opcode::Multiply, &out, st[axis] as f64)?;
        let base = binary(cx, node, Opcode::Add, &tap, &out)?;
        let base = with(cx, Opcode::Subtract, &base, pads[axis] as f64)?;
        let v = binary(cx, node, Opcode::Add, &base, &off)?;
        coords.push(v);
    }
    // Per offset group: its channels sampled at its grid ([N, taps * oH, oW, (x, y)]).
    let cog = c / og;
    let mut cols = Vec::with_capacity(og as usize);
    for g in 0..og {
        let mut xy = Vec::with_capacity(2);
        for v in coords.iter().rev() {
            let s = emit(cx, node, |b| b.slice(v.id, &[0, g, 0, 0, 0, 0], &[n, g + 1, kh, kw, oh, ow], &[1; 6]))?;
            xy.push(reshape(cx, node, &s, &[n, taps * oh, ow, 1])?.id);
        }
        let grid = emit(cx, node, |b| b.concatenate(&xy, 3))?;
        let xg = emit(cx, node, |b| b.slice(x.id, &[0, g * cog, 0, 0], &[n, (g + 1) * cog, ih, iw], &[1; 4]))?;
        let how = super::resize::Sampling { nearest: false, cubic: false, padding: "zeros", align: true, pixels: true };
        cols.push(super::resize::sample_grid(cx, node, &xg, &grid, how)?);
    }
    let cols = if cols.len() == 1 {
        cols.pop().expect("one offset group")
    } else {
        let ids: Vec<_> = cols.iter().map(|v| v.id).collect();
        emit(cx, node, |b| b.concatenate(&ids, 1))?
    };
    // [N, C, taps * oH, oW] times the mask, per offset group and tap.
    let cols = reshape(cx, node, &cols, &[n, og, cog, taps, oh * ow])?;
    let cols = match opt_input(inputs, 4) {
        Some(mask) => {
            let mask = convert(cx, node, mask, t)?;
            if mask.dims[..] != [n, og * taps, oh, ow] {
                return Err(GraphError::node(
                    node,
                    format!("mask {:?} must be [N, offset_group * kH * kW, oH, oW]", mask.dims),
                ));
            }
            let mask = reshape(cx, node, &mask, &[n, og, taps, oh * ow])?;
            let mask = emit(cx, node, |b| b.broadcast(mask.id, &[n, og, cog, taps, oh * ow], &[0, 1, 3, 4]))?;
            binary(cx, node, Opcode::Multiply, &cols, &mask)?
        }
        None => cols,
    };
    // The grouped product: W[G, M / G, K] x cols[G, K, N * P], K = C / G * taps.
    let k = cpg * taps;
    let p = oh * ow;
    let cols = reshape(cx, node, &cols, &[n, group, k, p])?;
    let cols = transpose(cx, node, &cols, &[1, 2, 0, 3])?;
    let cols = reshape(cx, node, &cols, &[group, k, n * p])?;
    let wt = convert(cx, node, w, t)?;
    let wg = reshape(cx, node, &wt, &[group, oc / group, k])?;
    let y = emit(cx, node, |bl| bl.dot(wg.id, cols.id, dot_dims(&[0], &[0], 2, 1), None))?;
    let y = reshape(cx, node, &y, &[group, oc / group, n, p])?;
    let y = transpose(cx, node, &y, &[2, 0, 1, 3])?;
    let y = reshape(cx, node, &y, &[n, oc, oh, ow])?;
    let y = match opt_input(inputs, 3) {
        Some(bias) => {
            if bias.dims[..] != [oc] {
                return Err(GraphError::node(node, format!("B {:?} must be [{oc}]", bias.dims)));
            }
            let bias = convert(cx, node, bias, t)?;
            let bias = emit(cx, node, |b| b.broadcast(bias.id, &[n, oc, oh, ow], &[1]))?;
            binary(cx, node, Opcode::Add, &y, &bias)?
        }
        None => y,
    };
    Ok(vec![y])
}

/// `Col2Im` (opset 18): the inverse of im2col, each column of `[N, C *
/// prod(block_shape), L]` added back into the image at its sliding block's
/// positions. Per block offset, the `[N, C, L]` values reshaped to the grid
/// of block positions are spread over the image by one pad: interior padding
/// `stride - 1` between positions, edges placing the offset (`offset *
/// dilation - pad_begin`, negative where padding is cropped); the offsets'
/// images summed.
pub fn col2im(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let image = const_ints(node, inputs, 1, "image_shape")?;
    let block = const_ints(node, inputs, 2, "block_shape")?;
    let ns = image.len();
    if ns == 0 || block.len() != ns {
        return Err(GraphError::node(
            node,
            format!("image_shape {image:?} and block_shape {block:?} must be non-empty and of one length"),
        ));
    }
    if x.dims.len() != 3 {
        return Err(GraphError::node(
            node,
            format!("expects an input [N, C * prod(block_shape), L], got {:?}", x.dims),
        ));
    }
    if image.iter().chain(&block).any(|&d| d < 1) {
        return Err(GraphError::node(
            node,
            format!("image_shape {image:?} and block_shape {block:?} must be positive"),
        ));
    }
    let dilations = spatial_attr(node, "dilations", ns, 1)?;
    let strides = spatial_attr(node, "strides", ns, 1)?;
    let pads = node.ints("pads").map(<[i64]>::to_vec).unwrap_or_else(|| vec![0; 2 * ns]);
    if pads.len() != 2 * ns || pads.iter().any(|&p| p < 0) {
        return Err(GraphError::node(node, format!("pads {pads:?} must be {} entries of 0 or more", 2 * ns)));
    }
    if dilations.iter().chain(&strides).any(|&d| d < 1) {
        return Err(GraphError::node(
            node,
            format!("dilations {dilations:?} and strides {strides:?} must be positive"),
        ));
    }
    let blocks: i64 = block.iter().product();
    let (n, cb, l) = (x.dims[0], x.dims[1], x.dims[2]);
    if cb % blocks != 0 {
        return Err(GraphError::node(
            node,
            format!("{cb} input rows are not a multiple of prod(block_shape) = {blocks}"),
        ));
    }
    // Sliding block positions along each axis.
    let mut counts = Vec::with_capacity(ns);
    for d in 0..ns {
        let span = dilations[d] * (block[d] - 1) + 1;
        let room = image[d] + pads[d] + pads[ns + d] - span;
        if room < 0 {
            return Err(GraphError::node(node, format!("a block spans {span} along axis {d} of the padded image")));
        }
        counts.push(room / strides[d] + 1);
    }
    if counts.iter().product::<i64>() != l {
        return Err(GraphError::node(node, format!("{l} columns, but the image holds {counts:?} block positions")));
    }
    let c = cb / blocks;
    let x4 = reshape(cx, node, x, &[n, c, blocks, l])?;
    let zero = cx.scalar(node, x.dtype, 0.0)?;
    let mut grid = vec![n, c];
    grid.extend_from_slice(&counts);
    let mut sum: Option<Val> = None;
    for b in 0..blocks {
        let mut offset = vec![0; ns];
        let mut rest = b;
        for d in (0..ns).rev() {
            offset[d] = rest % block[d];
            rest /= block[d];
        }
        let part = emit(cx, node, |bd| bd.slice(x4.id, &[0, 0, b, 0], &[n, c, b + 1, l], &[1, 1, 1, 1]))?;
        let part = reshape(cx, node, &part, &grid)?;
        let mut cfg = vec![PadDim::default(); ns + 2];
        for d in 0..ns {
            let low = offset[d] * dilations[d] - pads[d];
            let placed = low + (counts[d] - 1) * strides[d] + 1;
            cfg[d + 2] = PadDim { low, high: image[d] - placed, interior: strides[d] - 1 };
        }
        let placed = emit(cx, node, |bd| bd.pad(part.id, zero.id, &cfg))?;
        sum = Some(match sum {
            None => placed,
            Some(acc) => binary(cx, node, Opcode::Add, &acc, &placed)?,
        });
    }
    sum.map(|v| vec![v]).ok_or_else(|| GraphError::node(node, "no block offsets"))
}

/// `AveragePool`: window sums over the window size, or (count_include_pad=0)
/// over the number of input elements each window covers.
pub fn average_pool(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let (window, pads) = pool_window(node, x, false)?;
    let sum = reduce_window(cx, node, x, window.clone(), Reducer::Add)?;
    let include = int_attr(node, "count_include_pad", 0) != 0;
    let padded = pads.iter().any(|&(l, h)| l != 0 || h != 0);
    let count = if include || !padded {
        let n: i64 = window.dims.iter().map(|w| w.size).product();
        splat(cx, node, x.dtype, n as f64, &sum.dims)?
    } else {
        let mut ones_dims = vec![1, 1];
        ones_dims.extend_from_slice(&x.dims[2..]);
        let ones = splat(cx, node, x.dtype, 1.0, &ones_dims)?;
        let counts = reduce_window(cx, node, &ones, window, Reducer::Add)?;
        broadcast_to(cx, node, &counts, &sum.dims)?
    };
    Ok(vec![emit(cx, node, |b| b.binary(Opcode::Divide, sum.id, count.id))?])
}

fn global_pool(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>], kind: Reducer) -> Result<Val> {
    let x = input(node, inputs, 0)?;
    if x.dims.len() < 3 {
        return Err(GraphError::node(node, format!("expects an NC... input, got {:?}", x.dims)));
    }
    let axes: Vec<usize> = (2..x.dims.len()).collect();
    let r = reduce(cx, node, x, &axes, kind, true)?;
    if kind != Reducer::Add {
        return Ok(r);
    }
    let n: i64 = x.dims[2..].iter().product();
    let c = splat(cx, node, x.dtype, n as f64, &r.dims)?;
    emit(cx, node, |b| b.binary(Opcode::Divide, r.id, c.id))
}

pub fn global_average_pool(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    Ok(vec![global_pool(cx, node, inputs, Reducer::Add)?])
}

pub fn global_max_pool(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    Ok(vec![global_pool(cx, node, inputs, Reducer::Max)?])
}

/// `|x|^p`, and its `1/p`-th power back (`LpPool`, `GlobalLpPool`; p 2).
fn lp_power(cx: &mut LowerCx<'_>, node: &Node, x: &Val, inverse: bool) -> Result<Val> {
    let p = int_attr(node, "p", 2);
    if p < 1 {
        return Err(GraphError::node(node, format!("p must be at least 1, not {p}")));
    }
    let e = splat(cx, node, x.dtype, if inverse { 1.0 / p as f64 } else { p as f64 }, &x.dims)?;
    let base = if inverse { x.clone() } else { emit(cx, node, |b| b.unary(Opcode::Abs, x.id))? };
    emit(cx, node, |b| b.binary(Opcode::Power, base.id, e.id))
}

/// `LpPool`: `(sum over the window of |x|^p)^(1/p)` (padding adds zeros).
pub fn lp_pool(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let (window, _) = pool_window(node, x, false)?;
    let powered = lp_power(cx, node, x, false)?;
    let sum = reduce_window(cx, node, &powered, window, Reducer::Add)?;
    Ok(vec![lp_power(cx, node, &sum, true)?])
}

/// `GlobalLpPool`: `LpPool` over all of each channel's spatial dims.
pub fn global_lp_pool(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    if x.dims.len() < 3 {
        return Err(GraphError::node(node, format!("expects an NC... input, got {:?}", x.dims)));
    }
    let powered = lp_power(cx, node, x, false)?;
    let axes: Vec<usize> = (2..x.dims.len()).collect();
    let sum = reduce(cx, node, &powered, &axes, Reducer::Add, true)?;
    Ok(vec![lp_power(cx, node, &sum, true)?])
}

/// `BatchNormalization` in inference mode:
/// `(x - mean) / sqrt(var + epsilon) * scale + B` per channel (dimension 1).
pub fn batch_norm(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    if int_attr(node, "training_mode", 0) != 0 || wants_output(node, 1) {
        return Err(GraphError::unsupported(node, "training mode (only inference is supported)"));
    }
    let x = input(node, inputs, 0)?;
    let [scale, bias, mean, var] = [1, 2, 3, 4].map(|i| input(node, inputs, i));
    let (scale, bias, mean, var) = (scale?, bias?, mean?, var?);
    if x.dims.len() < 2 {
        return Err(GraphError::node(node, format!("expects an NC... input, got {:?}", x.dims)));
    }
    let c = [x.dims[1]];
    for v in [scale, bias, mean, var] {
        if v.dims != c {
            return Err(GraphError::node(node, format!("per-channel inputs must have shape {c:?}, got {:?}", v.dims)));
        }
    }
    let eps = splat(cx, node, var.dtype, float_attr(node, "epsilon", 1e-5) as f64, &c)?;
    let ve = emit(cx, node, |b| b.binary(Opcode::Add, var.id, eps.id))?;
    let inv = emit(cx, node, |b| b.unary(Opcode::Rsqrt, ve.id))?;
    let a = emit(cx, node, |b| b.binary(Opcode::Multiply, scale.id, inv.id))?;
    let ma = emit(cx, node, |b| b.binary(Opcode::Multiply, mean.id, a.id))?;
    let shift = emit(cx, node, |b| b.binary(Opcode::Subtract, bias.id, ma.id))?;
    let ab = emit(cx, node, |b| b.broadcast(a.id, &x.dims, &[1]))?;
    let sb = emit(cx, node, |b| b.broadcast(shift.id, &x.dims, &[1]))?;
    let y = emit(cx, node, |b| b.binary(Opcode::Multiply, x.id, ab.id))?;
    Ok(vec![emit(cx, node, |b| b.binary(Opcode::Add, y.id, sb.id))?])
}

/// Softmax over one axis (opset 13 semantics); `log` gives LogSoftmax.
fn softmax_impl(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>], log: bool) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let axis = norm_axis(node, int_attr(node, "axis", -1), x.dims.len())?;
    Ok(vec![softmax_over(cx, node, x, axis, log)?])
}

/// Softmax (or, with `log`, log-softmax) of `x` along `axis`, the maximum
/// subtracted first.
pub(super) fn softmax_over(cx: &mut LowerCx<'_>, node: &Node, x: &Val, axis: usize, log: bool) -> Result<Val> {
    let m = reduce(cx, node, x, &[axis], Reducer::Max, true)?;
    let m = broadcast_to(cx, node, &m, &x.dims)?;
    let d = emit(cx, node, |b| b.binary(Opcode::Subtract, x.id, m.id))?;
    let e = emit(cx, node, |b| b.unary(Opcode::Exp, d.id))?;
    let s = reduce(cx, node, &e, &[axis], Reducer::Add, true)?;
    let s = broadcast_to(cx, node, &s, &x.dims)?;
    if log {
        let ls = emit(cx, node, |b| b.unary(Opcode::Log, s.id))?;
        emit(cx, node, |b| b.binary(Opcode::Subtract, d.id, ls.id))
    } else {
        emit(cx, node, |b| b.binary(Opcode::Divide, e.id, s.id))
    }
}

pub fn softmax(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    softmax_impl(cx, node, inputs, false)
}

pub fn log_softmax(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    softmax_impl(cx, node, inputs, true)
}

/// `Hardmax` (opset 13; older opsets' flattening to 2-D is rewritten at
/// import): 1 at the first position of each maximum along `axis`, 0
/// elsewhere (ArgMax's rule, a NaN counting as the maximum).
pub fn hardmax(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let axis = norm_axis(node, int_attr(node, "axis", -1), x.dims.len())?;
    let at = super::reduce::extreme_index(cx, node, x, axis, true, false, true)?;
    let at = broadcast_to(cx, node, &at, &x.dims)?;
    let iota = emit(cx, node, |b| b.iota(Shape::array(DType::S64, &x.dims), axis as i64))?;
    let hit = emit(cx, node, |b| b.compare(ComparisonDirection::Eq, iota.id, at.id))?;
    Ok(vec![convert(cx, node, &hit, x.dtype)?])
}

/// `(x - mean) / sqrt(var + eps)` over `axes` (the trailing ones), with the
/// mean and `1 / sqrt(var + eps)` (dims kept).
fn normalize(cx: &mut LowerCx<'_>, node: &Node, x: &Val, axes: &[usize], eps: f64) -> Result<(Val, Val, Val)> {
    let n: i64 = axes.iter().map(|&a| x.dims[a]).product();
    let s = reduce(cx, node, x, axes, Reducer::Add, true)?;
    let nv = splat(cx, node, x.dtype, n as f64, &s.dims)?;
    let mean = emit(cx, node, |b| b.binary(Opcode::Divide, s.id, nv.id))?;
    let mb = broadcast_to(cx, node, &mean, &x.dims)?;
    let d = emit(cx, node, |b| b.binary(Opcode::Subtract, x.id, mb.id))?;
    let d2 = emit(cx, node, |b| b.binary(Opcode::Multiply, d.id, d.id))?;
    let s2 = reduce(cx, node, &d2, axes, Reducer::Add, true)?;
    let var = emit(cx, node, |b| b.binary(Opcode::Divide, s2.id, nv.id))?;
    let e = splat(cx, node, x.dtype, eps, &var.dims)?;
    let ve = emit(cx, node, |b| b.binary(Opcode::Add, var.id, e.id))?;
    let inv = emit(cx, node, |b| b.unary(Opcode::Rsqrt, ve.id))?;
    let ib = broadcast_to(cx, node, &inv, &x.dims)?;
    let normed = emit(cx, node, |b| b.binary(Opcode::Multiply, d.id, ib.id))?;
    Ok((normed, mean, inv))
}

/// `LayerNormalization`: normalizes over dimensions `axis..`, then scales
/// and shifts; outputs Y, Mean and InvStdDev.
pub fn layer_norm(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let scale = input(node, inputs, 1)?;
    let r = x.dims.len();
    let axis = norm_axis(node, int_attr(node, "axis", -1), r)?;
    let eps = float_attr(node, "epsilon", 1e-5) as f64;
    let axes: Vec<usize> = (axis..r).collect();
    let (normed, mean, inv) = normalize(cx, node, x, &axes, eps)?;
    let mut y = binary(cx, node, Opcode::Multiply, &normed, scale)?;
    if let Some(bias) = opt_input(inputs, 2) {
        y = binary(cx, node, Opcode::Add, &y, bias)?;
    }
    Ok(vec![y, mean, inv])
}

/// `LRN`: each element divided by `(bias + alpha / size * sum of squares over
/// `size` neighbouring channels) ^ beta`; the window spans
/// `floor((size - 1) / 2)` channels before and `ceil((size - 1) / 2)` after.
pub fn lrn(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let size = node.int("size").ok_or_else(|| GraphError::node(node, "missing attribute 'size'"))?;
    if size < 1 || x.dims.len() < 2 {
        return Err(GraphError::node(
            node,
            format!("size {size} over input {:?}: needs size >= 1 and N, C dims", x.dims),
        ));
    }
    let alpha = float_attr(node, "alpha", 1e-4) as f64;
    let beta = float_attr(node, "beta", 0.75) as f64;
    let bias = float_attr(node, "bias", 1.0) as f64;
    let sq = emit(cx, node, |b| b.binary(Opcode::Multiply, x.id, x.id))?;
    let window = Window {
        dims: (0..x.dims.len())
            .map(|d| {
                if d == 1 {
                    WindowDim { pad_low: (size - 1) / 2, pad_high: size / 2, ..WindowDim::of_size(size) }
                } else {
                    WindowDim::of_size(1)
                }
            })
            .collect(),
    };
    let sum = reduce_window(cx, node, &sq, window, Reducer::Add)?;
    let k = splat(cx, node, x.dtype, alpha / size as f64, &x.dims)?;
    let scaled = emit(cx, node, |b| b.binary(Opcode::Multiply, sum.id, k.id))?;
    let bv = splat(cx, node, x.dtype, bias, &x.dims)?;
    let base = emit(cx, node, |b| b.binary(Opcode::Add, scaled.id, bv.id))?;
    let e = splat(cx, node, x.dtype, beta, &x.dims)?;
    let denom = emit(cx, node, |b| b.binary(Opcode::Power, base.id, e.id))?;
    Ok(vec![emit(cx, node, |b| b.binary(Opcode::Divide, x.id, denom.id))?])
}

/// `InstanceNormalization`: each (n, c) slice normalized over its spatial
/// dims, then scaled and shifted per channel.
pub fn instance_norm(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let scale = input(node, inputs, 1)?;
    let shift = input(node, inputs, 2)?;
    let r = x.dims.len();
    if r < 3 || scale.dims != [x.dims[1]] || shift.dims != [x.dims[1]] {
        return Err(GraphError::node(
            node,
            format!(
                "input {:?} with scale {:?} and B {:?}: needs N, C, spatial dims and C-sized scale and B",
                x.dims, scale.dims, shift.dims
            ),
        ));
    }
    let eps = float_attr(node, "epsilon", 1e-5) as f64;
    let axes: Vec<usize> = (2..r).collect();
    let (normed, _, _) = normalize(cx, node, x, &axes, eps)?;
    let sb = emit(cx, node, |b| b.broadcast(scale.id, &x.dims, &[1]))?;
    let bb = emit(cx, node, |b| b.broadcast(shift.id, &x.dims, &[1]))?;
    let y = emit(cx, node, |b| b.binary(Opcode::Multiply, normed.id, sb.id))?;
    Ok(vec![emit(cx, node, |b| b.binary(Opcode::Add, y.id, bb.id))?])
}

/// `LpNormalization(axis, p)`: `x` divided by its L1 (`p=1`) or L2 (`p=2`,
/// the default) norm along `axis`; where the norm is 0 the result is 0 (as
/// ONNX's reference implementation does).
pub fn lp_norm(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let axis = norm_axis(node, int_attr(node, "axis", -1), x.dims.len())?;
    let p = int_attr(node, "p", 2);
    let norm = match p {
        1 => {
            let a = unary(cx, node, Opcode::Abs, x)?;
            reduce(cx, node, &a, &[axis], Reducer::Add, true)?
        }
        2 => {
            let sq = emit(cx, node, |b| b.binary(Opcode::Multiply, x.id, x.id))?;
            let s = reduce(cx, node, &sq, &[axis], Reducer::Add, true)?;
            unary(cx, node, Opcode::Sqrt, &s)?
        }
        _ => return Err(GraphError::node(node, format!("p={p} (1 or 2 are defined)"))),
    };
    let norm = broadcast_to(cx, node, &norm, &x.dims)?;
    let zero = splat(cx, node, x.dtype, 0.0, &x.dims)?;
    let q = emit(cx, node, |b| b.binary(Opcode::Divide, x.id, norm.id))?;
    let is_zero = emit(cx, node, |b| b.compare(ComparisonDirection::Eq, norm.id, zero.id))?;
    Ok(vec![emit(cx, node, |b| b.select(is_zero.id, zero.id, q.id))?])
}

/// `MeanVarianceNormalization(axes)`: `(x - mean) / (sqrt(variance) + 1e-9)`
/// with the mean and (population) variance over `axes` (default `[0, 2, 3]`).
pub fn mean_variance_norm(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let axes = node.ints("axes").map(<[i64]>::to_vec).unwrap_or_else(|| vec![0, 2, 3]);
    let axes = norm_axes(node, &axes, x.dims.len())?;
    let n: i64 = axes.iter().map(|&a| x.dims[a]).product();
    let s = reduce(cx, node, x, &axes, Reducer::Add, true)?;
    let nv = splat(cx, node, x.dtype, n as f64, &s.dims)?;
    let mean = emit(cx, node, |b| b.binary(Opcode::Divide, s.id, nv.id))?;
    let mean = broadcast_to(cx, node, &mean, &x.dims)?;
    let d = emit(cx, node, |b| b.binary(Opcode::Subtract, x.id, mean.id))?;
    let d2 = emit(cx, node, |b| b.binary(Opcode::Multiply, d.id, d.id))?;
    let s2 = reduce(cx, node, &d2, &axes, Reducer::Add, true)?;
    let var = emit(cx, node, |b| b.binary(Opcode::Divide, s2.id, nv.id))?;
    let std = unary(cx, node, Opcode::Sqrt, &var)?;
    let eps = splat(cx, node, x.dtype, 1e-9, &std.dims)?;
    let den = emit(cx, node, |b| b.binary(Opcode::Add, std.id, eps.id))?;
    let den = broadcast_to(cx, node, &den, &x.dims)?;
    Ok(vec![emit(cx, node, |b| b.binary(Opcode::Divide, d.id, den.id))?])
}

/// `GroupNormalization(num_groups, epsilon)`: the channels of `[N, C, ...]`
/// split into `num_groups` groups, each (n, group) normalized over its
/// channels and spatial dims, then scaled and shifted. Scale and bias are
/// per channel (`[C]`, opset 21) or per group (`[num_groups]`, opset 18),
/// told apart by their shape.
pub fn group_norm(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let scale = input(node, inputs, 1)?;
    let bias = input(node, inputs, 2)?;
    let g = node.int("num_groups").ok_or_else(|| GraphError::node(node, "missing attribute 'num_groups'"))?;
    if x.dims.len() < 2 || g < 1 || x.dims[1] % g != 0 {
        return Err(GraphError::node(node, format!("{g} groups do not divide the channels of {:?}", x.dims)));
    }
    let (n, c) = (x.dims[0], x.dims[1]);
    let rest: i64 = x.dims[1..].iter().product::<i64>() / g;
    let eps = float_attr(node, "epsilon", 1e-5) as f64;
    let grouped = reshape(cx, node, x, &[n, g, rest])?;
    let (normed, _, _) = normalize(cx, node, &grouped, &[2], eps)?;
    let normed = reshape(cx, node, &normed, &x.dims)?;
    let mut per_channel = |v: &Val| -> Result<Val> {
        let v = if v.dims == [c] {
            v.clone()
        } else if v.dims == [g] {
            let w = emit(cx, node, |b| b.broadcast(v.id, &[g, c / g], &[0]))?;
            reshape(cx, node, &w, &[c])?
        } else {
            return Err(GraphError::node(
                node,
                format!("scale and bias must have {c} or {g} entries, got {:?}", v.dims),
            ));
        };
        emit(cx, node, |b| b.broadcast(v.id, &x.dims, &[1]))
    };
    let sb = per_channel(scale)?;
    let bb = per_channel(bias)?;
    let y = emit(cx, node, |b| b.binary(Opcode::Multiply, normed.id, sb.id))?;
    Ok(vec![emit(cx, node, |b| b.binary(Opcode::Add, y.id, bb.id))?])
}

/// `ConvTranspose`: the gradient of `Conv` with respect to its input, as an
/// HLO convolution: the input dilated by the strides, the kernel mirrored
/// (window reversal) with its two feature dims swapped, and padding
/// `dilation * (k - 1) - pad` on each side (plus `output_padding` at the end).
/// `output_shape`, when given, sets the padding (ONNX's rule: the total split
/// evenly, the odd element at the end for `SAME_UPPER` and `NOTSET`, at the
/// start for `SAME_LOWER`).
pub fn conv_transpose(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let w = input(node, inputs, 1)?;
    let r = x.dims.len();
    let ns = spatial_rank(node, x, w)?;
    let group = int_attr(node, "group", 1);
    if group < 1 || x.dims[1] != w.dims[0] || w.dims[0] % group != 0 {
        return Err(GraphError::node(
            node,
            format!("channels of X {:?} and W {:?} do not fit group {group}", x.dims, w.dims),
        ));
    }
    let kernel = w.dims[2..].to_vec();
    if let Some(k) = node.ints("kernel_shape")
        && k != kernel.as_slice()
    {
        return Err(GraphError::node(node, format!("kernel_shape {k:?} does not match W {:?}", w.dims)));
    }
    let strides = spatial_attr(node, "strides", ns, 1)?;
    let dilations = spatial_attr(node, "dilations", ns, 1)?;
    let output_padding = spatial_attr(node, "output_padding", ns, 0)?;
    let auto_pad = node.string("auto_pad").unwrap_or("NOTSET");
    let span = |i: usize| dilations[i] * (kernel[i] - 1) + 1;
    let full = |i: usize| strides[i] * (x.dims[2 + i] - 1) + output_padding[i] + span(i);
    // A total padding split between the two ends, the odd element last
    // unless SAME_LOWER puts it first.
    let split = |total: i64| {
        if auto_pad == "SAME_LOWER" { (total - total / 2, total / 2) } else { (total / 2, total - total / 2) }
    };
    let pads: Vec<(i64, i64)> = match (node.ints("output_shape"), auto_pad) {
        (Some(shape), _) if shape.len() == ns || shape.len() == r => {
            let shape = &shape[shape.len() - ns..];
            (0..ns).map(|i| split(full(i) - shape[i])).collect()
        }
        (Some(shape), _) => {
            return Err(GraphError::node(node, format!("output_shape {shape:?} has the wrong length")));
        }
        (None, "SAME_UPPER" | "SAME_LOWER") => (0..ns).map(|i| split(full(i) - x.dims[2 + i] * strides[i])).collect(),
        (None, "NOTSET" | "VALID") => {
            let p = node.ints("pads").map(<[i64]>::to_vec).unwrap_or_else(|| vec![0; 2 * ns]);
            if p.len() != 2 * ns || auto_pad == "VALID" && p.iter().any(|&v| v != 0) {
                return Err(GraphError::node(node, format!("pads {p:?} must have {} entries", 2 * ns)));
            }
            (0..ns).map(|i| (p[i], p[ns + i])).collect()
        }
        (None, other) => return Err(GraphError::node(node, format!("unknown auto_pad \"{other}\""))),
    };
    let mut window = Window::default();
    for i in 0..ns {
        let (begin, end) = pads[i];
        let (lo, hi) = (span(i) - 1 - begin, span(i) - 1 - end + output_padding[i]);
        if lo < 0 || hi < 0 || output_padding[i] < 0 || output_padding[i] >= strides[i].max(dilations[i]) {
            return Err(GraphError::node(
                node,
                format!("pads {:?} and output_padding {:?} do not fit kernel {kernel:?}", pads, output_padding),
            ));
        }
        window.dims.push(WindowDim {
            size: kernel[i],
            stride: 1,
            pad_low: lo,
            pad_high: hi,
            window_dilation: dilations[i],
            base_dilation: strides[i],
            reversal: true,
        });
    }
    // W is [C_in, C_out / group, k...]; HLO wants [C_in / group, C_out, k...]
    // with the groups outermost in C_out.
    let (c_in, c_out_g) = (w.dims[0], w.dims[1]);
    let w = if group == 1 {
        w.clone()
    } else {
        let mut split = vec![group, c_in / group, c_out_g];
        split.extend(&kernel);
        let s = reshape(cx, node, w, &split)?;
        let mut perm: Vec<i64> = vec![1, 0, 2];
        perm.extend(3..(3 + ns) as i64);
        let t = emit(cx, node, |b| b.transpose(s.id, &perm))?;
        let mut merged = vec![c_in / group, group * c_out_g];
        merged.extend(&kernel);
        reshape(cx, node, &t, &merged)?
    };
    let spatial_out =
        at(node, smelt_hlo::shape_inference::window_output_dims(Opcode::Convolution, &x.dims[2..], &window))?;
    let mut out_dims = vec![x.dims[0], group * c_out_g];
    out_dims.extend(spatial_out.iter().copied());
    let conv = NcConv { window, group, kernel_features: (0, 1) };
    Ok(vec![conv.emit(cx, node, x, &w, &out_dims, opt_input(inputs, 2))?])
}
