//! Shape and data-movement ops. Shapes, bounds and axes given as inputs
//! must be known while lowering (compile-time constants); `Shape` and `Size`
//! are constants themselves since dims are static per signature.

use smelt_hlo::attrs::{ComparisonDirection, GatherAttrs, PadDim};
use smelt_hlo::{Array, Attrs, DType, Dims, Opcode, Shape};

use super::util::*;
use crate::graph::lower::{LowerCx, Val};
use crate::graph::{GraphError, Node, Result};

/// `Reshape`: 0 copies the input dimension (unless `allowzero=1`), -1 is inferred.
pub fn reshape_op(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let target = match opt_input(inputs, 1) {
        Some(_) => const_ints(node, inputs, 1, "the shape")?,
        None => node.ints("shape").map(<[i64]>::to_vec).ok_or_else(|| GraphError::node(node, "needs a shape"))?,
    };
    let allowzero = int_attr(node, "allowzero", 0) != 0;
    let mut dims = Vec::with_capacity(target.len());
    let mut infer = None;
    for (i, &d) in target.iter().enumerate() {
        match d {
            0 if !allowzero => match x.dims.get(i) {
                Some(&c) => dims.push(c),
                None => {
                    return Err(GraphError::node(node, format!("shape {target:?} copies a dimension the input lacks")));
                }
            },
            -1 if infer.is_none() => {
                infer = Some(i);
                dims.push(1);
            }
            d if d >= 0 => dims.push(d),
            _ => return Err(GraphError::node(node, format!("invalid shape {target:?}"))),
        }
    }
    let total: i64 = x.dims.iter().product();
    // The target comes from the model's data: its product may overflow.
    let product = |d: &[i64]| d.iter().try_fold(1i64, |n, &e| n.checked_mul(e));
    if let Some(i) = infer {
        let rest = product(&dims).unwrap_or(0);
        if rest == 0 || total % rest != 0 {
            return Err(GraphError::node(node, format!("cannot reshape {:?} to {target:?}", x.dims)));
        }
        dims[i] = total / rest;
    }
    if product(&dims) != Some(total) {
        return Err(GraphError::node(node, format!("cannot reshape {:?} to {target:?}", x.dims)));
    }
    Ok(vec![reshape(cx, node, x, &dims)?])
}

/// `Flatten(axis)`: to `[prod(dims[..axis]), prod(dims[axis..])]`.
pub fn flatten(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let r = x.dims.len();
    let axis = int_attr(node, "axis", 1);
    let axis = if axis == r as i64 { r } else { norm_axis(node, axis, r)? };
    let a: i64 = x.dims[..axis].iter().product();
    let b: i64 = x.dims[axis..].iter().product();
    Ok(vec![reshape(cx, node, x, &[a, b])?])
}

/// `Transpose(perm)`, reversing the dimensions by default.
pub fn transpose_op(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let r = x.dims.len();
    let perm: Vec<i64> = match node.ints("perm") {
        Some(p) => p.to_vec(),
        None => (0..r as i64).rev().collect(),
    };
    let mut seen = perm.clone();
    seen.sort_unstable();
    if seen != (0..r as i64).collect::<Vec<_>>() {
        return Err(GraphError::node(node, format!("perm {perm:?} is not a permutation of rank {r}")));
    }
    Ok(vec![transpose(cx, node, x, &perm)?])
}

/// `Slice(data, starts, ends, axes?, steps?)`, with ONNX's clamping and
/// negative steps (a reverse, then a forward slice).
pub fn slice(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let r = x.dims.len();
    let (starts, ends) = if opt_input(inputs, 1).is_some() {
        (const_ints(node, inputs, 1, "starts")?, const_ints(node, inputs, 2, "ends")?)
    } else {
        match (node.ints("starts"), node.ints("ends")) {
            (Some(s), Some(e)) => (s.to_vec(), e.to_vec()),
            _ => return Err(GraphError::node(node, "needs starts and ends")),
        }
    };
    let axes =
        ints_input_or_attr(node, inputs, 3, "axes", "axes")?.unwrap_or_else(|| (0..starts.len() as i64).collect());
    let steps = match opt_input(inputs, 4) {
        Some(_) => const_ints(node, inputs, 4, "steps")?,
        None => vec![1; starts.len()],
    };
    if ends.len() != starts.len() || axes.len() != starts.len() || steps.len() != starts.len() {
        return Err(GraphError::node(node, "starts, ends, axes and steps must have the same length"));
    }
    let mut lo = vec![0i64; r];
    let mut hi = x.dims.to_vec();
    let mut st = vec![1i64; r];
    let mut rev = Vec::new();
    let mut seen = vec![false; r];
    for k in 0..starts.len() {
        let a = norm_axis(node, axes[k], r)?;
        if std::mem::replace(&mut seen[a], true) {
            return Err(GraphError::node(node, format!("axis {} repeats", axes[k])));
        }
        let d = x.dims[a];
        let step = steps[k];
        if step == 0 {
            return Err(GraphError::node(node, "steps must not be 0"));
        }
        let wrap = |v: i64| if v < 0 { v.saturating_add(d) } else { v };
        let (s, e) = (wrap(starts[k]), wrap(ends[k]));
        if step > 0 {
            let s = s.clamp(0, d);
            let e = e.clamp(0, d).max(s);
            lo[a] = s;
            hi[a] = e;
            st[a] = step;
        } else {
            let s = s.clamp(0, d - 1);
            let e = e.clamp(-1, d - 1);
            // On the reversed axis, index i is d - 1 - i.
            let (rs, re) = (d - 1 - s, d - 1 - e);
            rev.push(a as i64);
            lo[a] = rs.clamp(0, d);
            hi[a] = re.clamp(0, d).max(lo[a]);
            st[a] = -step;
        }
    }
    let src = if rev.is_empty() { x.clone() } else { emit(cx, node, |b| b.reverse(x.id, &rev))? };
    if lo.iter().all(|&v| v == 0) && hi == x.dims && st.iter().all(|&v| v == 1) {
        return Ok(vec![src]);
    }
    Ok(vec![emit(cx, node, |b| b.slice(src.id, &lo, &hi, &st))?])
}

/// `Concat(axis)`.
pub fn concat(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let vals: Vec<&Val> = inputs.iter().flatten().collect();
    let Some(first) = vals.first() else {
        return Err(GraphError::node(node, "needs at least one input"));
    };
    let Some(axis) = node.int("axis") else {
        return Err(GraphError::node(node, "needs the axis attribute"));
    };
    let axis = norm_axis(node, axis, first.dims.len())?;
    if vals.len() == 1 {
        return Ok(vec![(*first).clone()]);
    }
    let ids: Vec<_> = vals.iter().map(|v| v.id).collect();
    Ok(vec![emit(cx, node, |b| b.concatenate(&ids, axis as i64))?])
}

/// Indices with negative entries wrapped (`i + dim` where `i < 0`).
pub(super) fn wrap_indices(cx: &mut LowerCx<'_>, node: &Node, idx: &Val, dim: i64) -> Result<Val> {
    if !idx.dtype.is_int() {
        return Err(GraphError::node(node, format!("indices must be integers, got {}", idx.dtype)));
    }
    if idx.dtype.is_unsigned_int() {
        return Ok(idx.clone());
    }
    if let Some(c) = &idx.constant
        && array_ints(c).iter().all(|&i| i >= 0)
    {
        return Ok(idx.clone());
    }
    let zero = splat(cx, node, idx.dtype, 0.0, &idx.dims)?;
    let d = splat(cx, node, idx.dtype, dim as f64, &idx.dims)?;
    let neg = emit(cx, node, |b| b.compare(ComparisonDirection::Lt, idx.id, zero.id))?;
    let shifted = emit(cx, node, |b| b.binary(Opcode::Add, idx.id, d.id))?;
    emit(cx, node, |b| b.select(neg.id, shifted.id, idx.id))
}

/// `Gather(data, indices, axis)`: an HLO gather taking one slice of
/// `data` per index; indices of any rank, negative ones wrapped.
pub fn gather(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let idx = input(node, inputs, 1)?;
    let r = x.dims.len();
    let axis = norm_axis(node, int_attr(node, "axis", 0), r)?;
    let idx = wrap_indices(cx, node, idx, x.dims[axis])?;
    Ok(vec![take(cx, node, x, &idx, axis)?])
}

/// `x` indexed along `axis` by `idx` (in range): the dims of `idx` replace
/// that axis, as numpy's `take`.
pub fn take(cx: &mut LowerCx<'_>, node: &Node, x: &Val, idx: &Val, axis: usize) -> Result<Val> {
    let r = x.dims.len();
    let q = idx.dims.len();
    let offset_dims: Dims = (0..axis as i64).chain((axis + q) as i64..(r + q - 1) as i64).collect();
    let mut slice_sizes: Dims = Dims::from_slice(&x.dims);
    slice_sizes[axis] = 1;
    let g = GatherAttrs {
        offset_dims,
        collapsed_slice_dims: Dims::from_slice(&[axis as i64]),
        start_index_map: Dims::from_slice(&[axis as i64]),
        operand_batching_dims: Dims::new(),
        start_indices_batching_dims: Dims::new(),
        index_vector_dim: q as i64,
        slice_sizes,
        indices_are_sorted: false,
    };
    let mut out = x.dims[..axis].to_vec();
    out.extend_from_slice(&idx.dims);
    out.extend_from_slice(&x.dims[axis + 1..]);
    let shape = Shape::array(x.dtype, out);
    emit(cx, node, |b| b.add_instruction(Opcode::Gather, &[x.id, idx.id], Attrs::Gather(Box::new(g)), &[], Some(shape)))
}

/// `Split(axis)`: sizes from the `split` input (or attribute), else
/// `num_outputs` (or the number of outputs) nearly equal parts.
pub fn split(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let r = x.dims.len();
    let axis = norm_axis(node, int_attr(node, "axis", 0), r)?;
    let d = x.dims[axis];
    let sizes = match ints_input_or_attr(node, inputs, 1, "split", "split sizes")? {
        Some(s) => s,
        None => {
            let n = node.int("num_outputs").unwrap_or(node.outputs.len() as i64);
            if n <= 0 {
                return Err(GraphError::node(node, "needs split sizes or num_outputs"));
            }
            let part = (d + n - 1) / n;
            (0..n).map(|k| (d - k * part).clamp(0, part)).collect()
        }
    };
    if sizes.iter().sum::<i64>() != d || sizes.iter().any(|&s| s < 0) {
        return Err(GraphError::node(node, format!("split sizes {sizes:?} do not add up to {d}")));
    }
    let mut outs = Vec::with_capacity(sizes.len());
    let mut at = 0;
    for s in sizes {
        let mut lo = vec![0; r];
        let mut hi = x.dims.to_vec();
        lo[axis] = at;
        hi[axis] = at + s;
        at += s;
        outs.push(emit(cx, node, |b| b.slice(x.id, &lo, &hi, &vec![1; r]))?);
    }
    Ok(outs)
}

/// `Squeeze(axes?)`: removes the given size-1 dimensions, or all of them.
pub fn squeeze(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let r = x.dims.len();
    let axes = match ints_input_or_attr(node, inputs, 1, "axes", "axes")? {
        Some(a) => norm_axes(node, &a, r)?,
        None => (0..r).filter(|&i| x.dims[i] == 1).collect(),
    };
    for &a in &axes {
        if x.dims[a] != 1 {
            return Err(GraphError::node(node, format!("cannot squeeze dimension {a} of {:?}", x.dims)));
        }
    }
    let dims: Vec<i64> = (0..r).filter(|i| !axes.contains(i)).map(|i| x.dims[i]).collect();
    Ok(vec![reshape(cx, node, x, &dims)?])
}

/// `Unsqueeze(axes)`: inserts size-1 dimensions at `axes` of the output.
pub fn unsqueeze(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let Some(axes) = ints_input_or_attr(node, inputs, 1, "axes", "axes")? else {
        return Err(GraphError::node(node, "needs axes"));
    };
    let out_rank = x.dims.len() + axes.len();
    let axes = norm_axes(node, &axes, out_rank)?;
    let mut rest = x.dims.iter();
    let dims: Vec<i64> =
        (0..out_rank).map(|i| if axes.contains(&i) { 1 } else { rest.next().copied().unwrap_or(1) }).collect();
    Ok(vec![reshape(cx, node, x, &dims)?])
}

/// `Expand(shape)`: bidirectional numpy broadcast to `shape`.
pub fn expand(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let shape = const_ints(node, inputs, 1, "the shape")?;
    let dims = broadcast_shape(node, &x.dims, &shape)?;
    Ok(vec![broadcast_to(cx, node, x, &dims)?])
}

/// `Shape(start?, end?)`: the (static) dims as an s64 constant.
pub fn shape(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let r = x.dims.len() as i64;
    let clampi = |v: i64| (if v < 0 { v + r } else { v }).clamp(0, r) as usize;
    let start = clampi(int_attr(node, "start", 0));
    let end = clampi(int_attr(node, "end", r)).max(start);
    Ok(vec![cx.constant(node, s64_vec(x.dims[start..end].to_vec()))?])
}

/// `Size`: the element count as an s64 scalar constant.
pub fn size(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    Ok(vec![cx.constant(node, Array::scalar(x.dims.iter().product::<i64>()))?])
}

/// `Range(start, limit, delta)`, all known while lowering.
pub fn range(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let mut vals = [0.0f64; 3];
    let mut dtype = DType::F32;
    for (k, v) in vals.iter_mut().enumerate() {
        dtype = input(node, inputs, k)?.dtype;
        *v = const_scalar(node, inputs, k, "a bound")?;
    }
    let [start, limit, delta] = vals;
    if delta == 0.0 {
        return Err(GraphError::node(node, "delta must not be 0"));
    }
    let n = ((limit - start) / delta).ceil().max(0.0) as usize;
    let a = match dtype {
        DType::S64 => {
            let (s, d) = (start as i64, delta as i64);
            Array::from_vec([n as i64], (0..n as i64).map(|i| s + i * d).collect::<Vec<i64>>())
        }
        DType::S32 => {
            let (s, d) = (start as i32, delta as i32);
            Array::from_vec([n as i64], (0..n as i32).map(|i| s + i * d).collect::<Vec<i32>>())
        }
        DType::F32 => {
            let (s, d) = (start as f32, delta as f32);
            Array::from_vec([n as i64], (0..n).map(|i| s + i as f32 * d).collect::<Vec<f32>>())
        }
        DType::F64 => Array::from_vec([n as i64], (0..n).map(|i| start + i as f64 * delta).collect::<Vec<f64>>()),
        t => return Err(GraphError::unsupported(node, format!("Range of {t}"))),
    };
    Ok(vec![cx.constant(node, a)?])
}

/// `ConstantOfShape(shape, value)`: `value` (a one-element tensor, f32 0 by
/// default) broadcast to `shape`.
pub fn constant_of_shape(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let dims = const_ints(node, inputs, 0, "the shape")?;
    let value = match node.tensor("value") {
        Some(t) if t.len() == 1 => Array::new(Dims::new(), t.data.clone()),
        Some(_) => return Err(GraphError::node(node, "value must have one element")),
        None => Array::scalar(0.0f32),
    };
    let s = cx.constant(node, value)?;
    Ok(vec![emit(cx, node, |b| b.broadcast(s.id, &dims, &[]))?])
}

/// `Tile(repeats)`: broadcast to `[r0, d0, r1, d1, ...]`, then merge pairs.
pub fn tile(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let reps = const_ints(node, inputs, 1, "repeats")?;
    let r = x.dims.len();
    if reps.len() != r || reps.iter().any(|&v| v < 0) {
        return Err(GraphError::node(node, format!("repeats {reps:?} must have {r} non-negative entries")));
    }
    let mut wide = Vec::with_capacity(2 * r);
    for (k, &d) in x.dims.iter().enumerate() {
        wide.extend([reps[k], d]);
    }
    let bd: Vec<i64> = (0..r as i64).map(|k| 2 * k + 1).collect();
    let w = emit(cx, node, |b| b.broadcast(x.id, &wide, &bd))?;
    let out: Vec<i64> = x.dims.iter().zip(&reps).map(|(d, r)| d * r).collect();
    Ok(vec![reshape(cx, node, &w, &out)?])
}

/// `Constant`: one of `value`, `value_float(s)`, `value_int(s)`.
pub fn constant(cx: &mut LowerCx<'_>, node: &Node, _inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let a = if let Some(t) = node.tensor("value") {
        t.clone()
    } else if let Some(f) = node.float("value_float") {
        Array::scalar(f)
    } else if let Some(i) = node.int("value_int") {
        Array::scalar(i)
    } else if let Some(fs) = node.floats("value_floats") {
        Array::from_vec([fs.len() as i64], fs.to_vec())
    } else if let Some(is) = node.ints("value_ints") {
        s64_vec(is.to_vec())
    } else {
        return Err(GraphError::unsupported(node, "needs value, value_float(s) or value_int(s)"));
    };
    Ok(vec![cx.constant(node, a)?])
}

/// `Pad(data, pads, constant_value?, axes?)` in constant mode.
pub fn pad(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let r = x.dims.len();
    let mode = node.string("mode").unwrap_or("constant");
    if !matches!(mode, "constant" | "reflect" | "edge") {
        return Err(GraphError::unsupported(node, format!("mode=\"{mode}\" (constant, reflect and edge are)")));
    }
    let Some(pads) = ints_input_or_attr(node, inputs, 1, "pads", "pads")? else {
        return Err(GraphError::node(node, "needs pads"));
    };
    let axes = match opt_input(inputs, 3) {
        Some(_) => norm_axes(node, &const_ints(node, inputs, 3, "axes")?, r)?,
        None => (0..r).collect(),
    };
    let n = axes.len();
    if pads.len() != 2 * n {
        return Err(GraphError::node(node, format!("pads {pads:?} must have {} entries", 2 * n)));
    }
    let mut cfg = vec![PadDim::default(); r];
    for (k, &a) in axes.iter().enumerate() {
        cfg[a] = PadDim { low: pads[k], high: pads[n + k], interior: 0 };
    }
    if mode != "constant" {
        return Ok(vec![pad_from_edges(cx, node, x, &cfg, mode == "reflect")?]);
    }
    let value = match opt_input(inputs, 2) {
        Some(v) if v.dims.is_empty() => v.clone(),
        Some(v) => reshape(cx, node, v, &[])?,
        None => match node.float("value") {
            Some(f) => cx.scalar(node, x.dtype, f as f64)?,
            None => cx.scalar(node, x.dtype, 0.0)?,
        },
    };
    Ok(vec![emit(cx, node, |b| b.pad(x.id, value.id, &cfg))?])
}

/// `Pad` in `edge` mode (the border element repeated) or `reflect` mode (the
/// elements next to the border, mirrored), one axis at a time: the padding
/// built from slices of `x` and concatenated around it.
fn pad_from_edges(cx: &mut LowerCx<'_>, node: &Node, x: &Val, cfg: &[PadDim], reflect: bool) -> Result<Val> {
    let mut cur = x.clone();
    for (a, p) in cfg.iter().enumerate() {
        if p.low == 0 && p.high == 0 {
            continue;
        }
        let n = cur.dims[a];
        let fits = p.low >= 0 && p.high >= 0 && n > 0 && (!reflect || (p.low < n && p.high < n));
        if !fits {
            let need = if reflect {
                "pads from 0 to the axis length less one"
            } else {
                "pads of 0 or more on a non-empty axis"
            };
            return Err(GraphError::node(
                node,
                format!("padding ({}, {}) of an axis of {n} elements: needs {need}", p.low, p.high),
            ));
        }
        let slice = |cx: &mut LowerCx<'_>, v: &Val, from: i64, to: i64| -> Result<Val> {
            let mut starts = vec![0; v.dims.len()];
            let mut limits = v.dims.clone();
            starts[a] = from;
            limits[a] = to;
            let strides = vec![1; v.dims.len()];
            emit(cx, node, |b| b.slice(v.id, &starts, &limits, &strides))
        };
        let side = |cx: &mut LowerCx<'_>, v: &Val, count: i64, low: bool| -> Result<Val> {
            if reflect {
                let part = if low { slice(cx, v, 1, count + 1)? } else { slice(cx, v, n - 1 - count, n - 1)? };
                emit(cx, node, |b| b.reverse(part.id, &[a as i64]))
            } else {
                let edge = if low { slice(cx, v, 0, 1)? } else { slice(cx, v, n - 1, n)? };
                let mut kept: Vec<i64> = edge.dims.clone();
                kept.remove(a);
                let flat = emit(cx, node, |b| b.reshape(edge.id, &kept))?;
                let mut out = v.dims.clone();
                out[a] = count;
                let map: Vec<i64> = (0..v.dims.len() as i64).filter(|&d| d != a as i64).collect();
                emit(cx, node, |b| b.broadcast(flat.id, &out, &map))
            }
        };
        let mut parts = Vec::new();
        if p.low > 0 {
            parts.push(side(cx, &cur, p.low, true)?.id);
        }
        parts.push(cur.id);
        if p.high > 0 {
            parts.push(side(cx, &cur, p.high, false)?.id);
        }
        cur = emit(cx, node, |b| b.concatenate(&parts, a as i64))?;
    }
    Ok(cur)
}

/// `DepthToSpace(blocksize, mode)`: `[N, C, H, W]` to `[N, C / b², H b, W b]`,
/// the channels read as `[b, b, C / b²]` (`DCR`, the default) or
/// `[C / b², b, b]` (`CRD`) with the two `b` factors moved beside H and W.
pub fn depth_to_space(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let b = node.int("blocksize").ok_or_else(|| GraphError::node(node, "missing attribute 'blocksize'"))?;
    let [n, c, h, w] = x.dims[..] else {
        return Err(GraphError::node(node, format!("expects an NCHW input, got {:?}", x.dims)));
    };
    if b < 1 || c % (b * b) != 0 {
        return Err(GraphError::node(node, format!("blocksize {b} does not divide the {c} channels in b² parts")));
    }
    let cb = c / (b * b);
    let (split, perm): (Vec<i64>, [i64; 6]) = match node.string("mode").unwrap_or("DCR") {
        "DCR" => (vec![n, b, b, cb, h, w], [0, 3, 4, 1, 5, 2]),
        "CRD" => (vec![n, cb, b, b, h, w], [0, 1, 4, 2, 5, 3]),
        other => return Err(GraphError::node(node, format!("unknown mode \"{other}\" (DCR or CRD)"))),
    };
    let s = reshape(cx, node, x, &split)?;
    let t = transpose(cx, node, &s, &perm)?;
    Ok(vec![reshape(cx, node, &t, &[n, cb, h * b, w * b])?])
}

/// `SpaceToDepth(blocksize)`: `[N, C, H, W]` to `[N, C b², H / b, W / b]`, each
/// `b × b` block moved to the channels (block row, block column, channel).
pub fn space_to_depth(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let b = node.int("blocksize").ok_or_else(|| GraphError::node(node, "missing attribute 'blocksize'"))?;
    let [n, c, h, w] = x.dims[..] else {
        return Err(GraphError::node(node, format!("expects an NCHW input, got {:?}", x.dims)));
    };
    if b < 1 || h % b != 0 || w % b != 0 {
        return Err(GraphError::node(node, format!("blocksize {b} does not divide H {h} and W {w}")));
    }
    let s = reshape(cx, node, x, &[n, c, h / b, b, w / b, b])?;
    let t = transpose(cx, node, &s, &[0, 3, 5, 1, 2, 4])?;
    Ok(vec![reshape(cx, node, &t, &[n, c * b * b, h / b, w / b])?])
}

/// `Trilu(x, k?, upper)`: the last two dims of `x` with the elements below
/// (`upper=1`, the default) or above (`upper=0`) the `k`-th diagonal zeroed;
/// element `(i, j)` is kept when `j - i >= k` (upper) or `j - i <= k` (lower).
pub fn trilu(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let r = x.dims.len();
    if r < 2 {
        return Err(GraphError::node(node, format!("expects rank 2 or more, got {:?}", x.dims)));
    }
    let upper = int_attr(node, "upper", 1) != 0;
    let mat = [x.dims[r - 2], x.dims[r - 1]];
    let t = DType::S64;
    let row = emit(cx, node, |b| b.iota(Shape::array(t, mat), 0))?;
    let col = emit(cx, node, |b| b.iota(Shape::array(t, mat), 1))?;
    let diff = emit(cx, node, |b| b.binary(Opcode::Subtract, col.id, row.id))?;
    let k = match opt_input(inputs, 1) {
        Some(k) if k.dims.iter().product::<i64>() == 1 && k.dtype.is_int() => {
            let k = reshape(cx, node, k, &[])?;
            let k = convert(cx, node, &k, t)?;
            emit(cx, node, |b| b.broadcast(k.id, &mat, &[]))?
        }
        Some(k) => {
            return Err(GraphError::node(node, format!("k must be an integer scalar, got {} {:?}", k.dtype, k.dims)));
        }
        None => splat(cx, node, t, 0.0, &mat)?,
    };
    let dir = if upper { ComparisonDirection::Ge } else { ComparisonDirection::Le };
    let keep = emit(cx, node, |b| b.compare(dir, diff.id, k.id))?;
    let keep = emit(cx, node, |b| b.broadcast(keep.id, &x.dims, &[(r - 2) as i64, (r - 1) as i64]))?;
    let zero = splat(cx, node, x.dtype, 0.0, &x.dims)?;
    Ok(vec![emit(cx, node, |b| b.select(keep.id, x.id, zero.id))?])
}

/// `EyeLike`: ones on diagonal `k` of a 2-D shape like the input's, of
/// `dtype` (default the input's).
pub fn eye_like(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    if x.dims.len() != 2 {
        return Err(GraphError::node(node, format!("takes a 2-D input, not {:?}", x.dims)));
    }
    let dtype = dtype_attr(node, "dtype", x.dtype)?;
    let shape = Shape::array(DType::S64, &x.dims);
    let rows = emit(cx, node, |b| b.iota(shape.clone(), 0))?;
    let cols = emit(cx, node, |b| b.iota(shape.clone(), 1))?;
    let k = splat(cx, node, DType::S64, int_attr(node, "k", 0) as f64, &x.dims)?;
    let shifted = emit(cx, node, |b| b.binary(smelt_hlo::Opcode::Add, rows.id, k.id))?;
    let on = emit(cx, node, |b| b.compare(smelt_hlo::attrs::ComparisonDirection::Eq, shifted.id, cols.id))?;
    Ok(vec![convert(cx, node, &on, dtype)?])
}

/// `HannWindow`, `HammingWindow`, `BlackmanWindow`: cosine sums of
/// `size` points (known while lowering), periodic (the default: over
/// `size`) or symmetric (over `size - 1`), of `output_datatype` (f32).
pub fn window(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let size = const_scalar(node, inputs, 0, "the size")?;
    if !(0.0..=(1u64 << 32) as f64).contains(&size) || size.fract() != 0.0 {
        return Err(GraphError::node(node, format!("size {size} is not a count")));
    }
    let n = size as usize;
    let periodic = int_attr(node, "periodic", 1) != 0;
    // ONNX's formula divides by `size - 1` when symmetric: one point is 0/0.
    let span = if periodic { n as f64 } else { n as f64 - 1.0 };
    // a0 - a1 cos(2 pi i / N) + a2 cos(4 pi i / N).
    let (a0, a1, a2) = match node.op.as_str() {
        "HannWindow" => (0.5, 0.5, 0.0),
        "HammingWindow" => (25.0 / 46.0, 21.0 / 46.0, 0.0),
        "BlackmanWindow" => (0.42, 0.5, 0.08),
        other => return Err(GraphError::node(node, format!("'{other}' is not a window"))),
    };
    let tau = 2.0 * std::f64::consts::PI;
    let w: Vec<f64> =
        (0..n).map(|i| a0 - a1 * (tau * i as f64 / span).cos() + a2 * (2.0 * tau * i as f64 / span).cos()).collect();
    let dtype = dtype_attr(node, "output_datatype", DType::F32)?;
    let v = cx.constant(node, Array::from_vec([n as i64], w))?;
    Ok(vec![convert(cx, node, &v, dtype)?])
}

/// `CenterCropPad(x, shape)`: each of `axes` (all by default) cropped or
/// padded with zeros to its size in `shape` (known while lowering), centred:
/// a crop keeps `start = (d - s) / 2` on, a pad puts `(s - d) / 2` before.
pub fn center_crop_pad(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let sizes = const_ints(node, inputs, 1, "the shape")?;
    let r = x.dims.len();
    // In the attribute's order: `shape` pairs with it.
    let axes: Vec<usize> = match node.ints("axes") {
        Some(a) => a.iter().map(|&k| norm_axis(node, k, r)).collect::<Result<_>>()?,
        None => (0..r).collect(),
    };
    if sizes.len() != axes.len()
        || sizes.iter().any(|&s| s < 0)
        || (1..axes.len()).any(|k| axes[..k].contains(&axes[k]))
    {
        return Err(GraphError::node(node, format!("shape {sizes:?} for axes {axes:?}")));
    }
    let (mut starts, mut limits) = (vec![0i64; r], x.dims.clone());
    let mut pads = vec![PadDim { low: 0, high: 0, interior: 0 }; r];
    for (&a, &s) in axes.iter().zip(&sizes) {
        let d = x.dims[a];
        if s < d {
            starts[a] = (d - s) / 2;
            limits[a] = starts[a] + s;
        } else {
            pads[a].low = (s - d) / 2;
            pads[a].high = s - d - pads[a].low;
        }
    }
    let strides = vec![1i64; r];
    let cropped = emit(cx, node, |b| b.slice(x.id, &starts, &limits, &strides))?;
    if pads.iter().all(|p| p.low == 0 && p.high == 0) {
        return Ok(vec![cropped]);
    }
    let zero = cx.scalar(node, x.dtype, 0.0)?;
    Ok(vec![emit(cx, node, |b| b.pad(cropped.id, zero.id, &pads))?])
}

/// `DFT(input, dft_length?, axis?)`: the discrete Fourier transform along
/// `axis` (input 2 from opset 20, else the attribute; default -2) of a
/// signal whose last dim holds 1 (real) or 2 (real, imaginary) values; the
/// result's last dim holds 2. `dft_length` (known while lowering) truncates
/// or zero-pads the axis; `inverse` divides by it as HLO's `ifft` does;
/// `onesided` keeps the first `n / 2 + 1` bins. Through HLO `fft` on the
/// innermost dim, with the axis moved there and back.
pub fn dft(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    use smelt_hlo::attrs::FftKind;
    let x = input(node, inputs, 0)?;
    let r = x.dims.len();
    let real = match x.dtype {
        t @ (DType::F32 | DType::F64) => t,
        t => return Err(GraphError::node(node, format!("takes f32 or f64 signals, not {t}"))),
    };
    if r < 2 || !matches!(x.dims[r - 1], 1 | 2) {
        return Err(GraphError::node(node, format!("the last dim must hold 1 or 2 values, dims {:?}", x.dims)));
    }
    let axis = match opt_input(inputs, 2) {
        Some(_) => const_scalar(node, inputs, 2, "the axis")? as i64,
        None => int_attr(node, "axis", -2),
    };
    // The axis counts the signal's dims (the last one holds the parts).
    let axis = if axis < 0 { axis + r as i64 } else { axis };
    if !(0..r as i64 - 1).contains(&axis) {
        return Err(GraphError::node(node, format!("axis {axis} is outside the signal dims of {:?}", x.dims)));
    }
    let axis = axis as usize;
    let inverse = int_attr(node, "inverse", 0) != 0;
    let onesided = int_attr(node, "onesided", 0) != 0;
    if inverse && onesided {
        return Err(GraphError::unsupported(node, "an inverse one-sided transform"));
    }
    // The complex signal, parts split off the last dim.
    let part = |cx: &mut LowerCx<'_>, k: i64| -> Result<Val> {
        let mut lim = x.dims.clone();
        let mut start = vec![0i64; r];
        start[r - 1] = k;
        lim[r - 1] = k + 1;
        let s = emit(cx, node, |b| b.slice(x.id, &start, &lim, &vec![1; r]))?;
        reshape(cx, node, &s, &x.dims[..r - 1])
    };
    let re = part(cx, 0)?;
    let im = if x.dims[r - 1] == 2 { part(cx, 1)? } else { splat(cx, node, real, 0.0, &x.dims[..r - 1])? };
    let z = emit(cx, node, |b| b.binary(Opcode::Complex, re.id, im.id))?;
    // The axis innermost, cut or padded to the transform's length.
    let sig = r - 1;
    let mut perm: Vec<i64> = (0..sig as i64).filter(|&d| d != axis as i64).collect();
    perm.push(axis as i64);
    let z = transpose(cx, node, &z, &perm)?;
    let n = x.dims[axis];
    let len = match opt_input(inputs, 1) {
        Some(_) => const_scalar(node, inputs, 1, "dft_length")? as i64,
        None => n,
    };
    if len < 1 {
        return Err(GraphError::node(node, format!("dft_length {len} must be positive")));
    }
    let z = if len < n {
        let mut lim = z.dims.clone();
        lim[sig - 1] = len;
        emit(cx, node, |b| b.slice(z.id, &vec![0; sig], &lim, &vec![1; sig]))?
    } else if len > n {
        let zero = cx.scalar(node, z.dtype, 0.0)?;
        let mut pads = vec![PadDim { low: 0, high: 0, interior: 0 }; sig];
        pads[sig - 1].high = len - n;
        emit(cx, node, |b| b.pad(z.id, zero.id, &pads))?
    } else {
        z
    };
    let kind = if inverse { FftKind::Ifft } else { FftKind::Fft };
    let attrs = Attrs::Fft { kind, lengths: Dims::from_slice(&[len]) };
    let f = emit(cx, node, |b| b.add_instruction(Opcode::Fft, &[z.id], attrs, &[], None))?;
    let f = if onesided {
        let mut lim = f.dims.clone();
        lim[sig - 1] = len / 2 + 1;
        emit(cx, node, |b| b.slice(f.id, &vec![0; sig], &lim, &vec![1; sig]))?
    } else {
        f
    };
    // Back to the signal's order, parts as the last dim.
    let mut back = vec![0i64; sig];
    for (k, &p) in perm.iter().enumerate() {
        back[p as usize] = k as i64;
    }
    let f = transpose(cx, node, &f, &back)?;
    let mut one = f.dims.clone();
    one.push(1);
    let re = emit(cx, node, |b| b.unary(Opcode::Real, f.id))?;
    let im = emit(cx, node, |b| b.unary(Opcode::Imag, f.id))?;
    let re = reshape(cx, node, &re, &one)?;
    let im = reshape(cx, node, &im, &one)?;
    Ok(vec![emit(cx, node, |b| b.concatenate(&[re.id, im.id], sig as i64))?])
}

/// `MelWeightMatrix(num_mel_bins, dft_length, sample_rate, lower_edge_hertz,
/// upper_edge_hertz)`, all known while lowering: the `[dft_length / 2 + 1,
/// num_mel_bins]` triangular filters on the HTK mel scale, with the bin edges
/// ONNX's reference computes (the mel range split in `num_mel_bins + 2`
/// steps, edges `floor((dft_length + 1) * hz / sample_rate)`).
pub fn mel_weight_matrix(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let mel_bins = const_scalar(node, inputs, 0, "num_mel_bins")?;
    let dft_length = const_scalar(node, inputs, 1, "dft_length")?;
    let rate = const_scalar(node, inputs, 2, "sample_rate")?;
    let (low_hz, high_hz) =
        (const_scalar(node, inputs, 3, "lower_edge_hertz")?, const_scalar(node, inputs, 4, "upper_edge_hertz")?);
    let count = |v: f64, what: &str| -> Result<usize> {
        if v >= 1.0 && v.fract() == 0.0 && v <= (1u64 << 24) as f64 {
            Ok(v as usize)
        } else {
            Err(GraphError::node(node, format!("{what} {v} is not a positive count")))
        }
    };
    let (bins, length) = (count(mel_bins, "num_mel_bins")?, count(dft_length, "dft_length")?);
    if rate <= 0.0 {
        return Err(GraphError::node(node, format!("sample_rate {rate} is not positive")));
    }
    let spectrum = length / 2 + 1;
    let mel = |hz: f64| 2595.0 * (hz / 700.0).ln_1p() / std::f64::consts::LN_10;
    let (low, high) = (mel(low_hz), mel(high_hz));
    let step = (high - low) / (bins + 2) as f64;
    let mut edges = Vec::with_capacity(bins + 2);
    for k in 0..bins + 2 {
        let hz = 700.0 * ((k as f64 * step + low) / 2595.0 * std::f64::consts::LN_10).exp_m1();
        let edge = ((length as f64 + 1.0) * hz / rate).floor();
        if !(0.0..spectrum as f64).contains(&edge) {
            return Err(GraphError::node(node, format!("a filter edge falls at bin {edge}, outside 0..{spectrum}")));
        }
        edges.push(edge as usize);
    }
    let mut w = vec![0.0f64; spectrum * bins];
    for i in 0..bins {
        let (lo, mid, hi) = (edges[i], edges[i + 1], edges[i + 2]);
        if mid == lo {
            w[mid * bins + i] = 1.0;
        } else {
            for j in lo..=mid {
                w[j * bins + i] = (j as f64 - lo as f64) / (mid - lo) as f64;
            }
        }
        for j in mid..hi {
            w[j * bins + i] = (hi - j) as f64 / (hi - mid) as f64;
        }
    }
    let dtype = dtype_attr(node, "output_datatype", DType::F32)?;
    let v = cx.constant(node, Array::from_vec([spectrum as i64, bins as i64], w))?;
    Ok(vec![convert(cx, node, &v, dtype)?])
}

/// `STFT(signal[B, L, 1|2], frame_step, window?, frame_length?)`: frames of
/// the window's width (else `frame_length`) every `frame_step` samples (zeros
/// past the end), `1 + (L - frame_length) / frame_step` of them, each times
/// the window and transformed by a `DFT` of `frame_length` along the frame
/// (`onesided`, the default, keeps `frame_length / 2 + 1` bins): `[B,
/// frames, bins, 2]`, as ONNX's reference computes it.
pub fn stft(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let [b, l, parts] = x.dims[..] else {
        return Err(GraphError::node(node, format!("takes a [batch, length, 1 or 2] signal, not {:?}", x.dims)));
    };
    let step = const_scalar(node, inputs, 1, "frame_step")? as i64;
    let window = opt_input(inputs, 2).cloned();
    let frame_length = match (opt_input(inputs, 3), &window) {
        (Some(_), _) => const_scalar(node, inputs, 3, "frame_length")? as i64,
        (None, Some(w)) => w.dims.first().copied().unwrap_or(0),
        (None, None) => l,
    };
    let width = window.as_ref().map_or(frame_length, |w| w.dims.first().copied().unwrap_or(0));
    if step < 1 || frame_length < 1 || frame_length > l || width < 1 {
        return Err(GraphError::node(
            node,
            format!("frame_step {step}, frame_length {frame_length} and window width {width} for {l} samples"),
        ));
    }
    let frames = 1 + (l - frame_length) / step;
    // Zeros past the end, then every frame's samples gathered along time.
    let needed = (frames - 1) * step + width;
    let padded = if needed > l {
        let zero = cx.scalar(node, x.dtype, 0.0)?;
        let mut pads = vec![PadDim { low: 0, high: 0, interior: 0 }; 3];
        pads[1].high = needed - l;
        emit(cx, node, |bl| bl.pad(x.id, zero.id, &pads))?
    } else {
        x.clone()
    };
    // Sample `f * step + j` for frame `f`, offset `j`: iotas, not a constant
    // table as large as the frames.
    let grid = Shape::array(DType::S64, [frames, width]);
    let f = emit(cx, node, |bl| bl.iota(grid.clone(), 0))?;
    let j = emit(cx, node, |bl| bl.iota(grid.clone(), 1))?;
    let stride = splat(cx, node, DType::S64, step as f64, &[frames, width])?;
    let start = emit(cx, node, |bl| bl.binary(Opcode::Multiply, f.id, stride.id))?;
    let at = emit(cx, node, |bl| bl.binary(Opcode::Add, start.id, j.id))?;
    let framed = take(cx, node, &padded, &at, 1)?;
    let framed = match &window {
        Some(w) => {
            let w = convert(cx, node, w, x.dtype)?;
            let w = emit(cx, node, |bl| bl.broadcast(w.id, &[b, frames, width, parts], &[2]))?;
            emit(cx, node, |bl| bl.binary(Opcode::Multiply, framed.id, w.id))?
        }
        None => framed,
    };
    let mut dft_node = node.clone();
    dft_node.op = "DFT".into();
    dft_node.attrs.insert("onesided".into(), crate::graph::Attr::Int(int_attr(node, "onesided", 1)));
    let length = cx.constant(node, Array::scalar(frame_length))?;
    let axis = cx.constant(node, Array::scalar(2i64))?;
    dft(cx, &dft_node, &[Some(framed), Some(length), Some(axis)])
}

/// The ONNX element type attribute `key` names, else `default`.
pub(super) fn dtype_attr(node: &Node, key: &str, default: DType) -> Result<DType> {
    match node.int(key) {
        Some(code) => super::onnx_dtype(code).ok_or_else(|| GraphError::unsupported(node, format!("ONNX type {code}"))),
        None => Ok(default),
    }
}
