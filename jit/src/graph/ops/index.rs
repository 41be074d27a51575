//! Indexed reads and writes: `OneHot`, `GatherElements`, `GatherND`,
//! `ScatterElements` and `ScatterND`, as HLO gathers and scatters. Negative
//! indices count from the end of their dimension.

use smelt_hlo::attrs::{ComparisonDirection, GatherAttrs, ScatterAttrs};
use smelt_hlo::builder::Reducer;
use smelt_hlo::{Array, ArrayData, Attrs, DType, Dims, Opcode, Shape};

use super::shape::wrap_indices;
use super::util::*;
use crate::graph::lower::{LowerCx, Val};
use crate::graph::{GraphError, Node, Result};

fn range_dims(from: usize, to: usize) -> Dims {
    (from as i64..to as i64).collect()
}

/// Integer indices as s64, negative ones wrapped by `dim`.
fn s64_indices(cx: &mut LowerCx<'_>, node: &Node, idx: &Val, dim: i64) -> Result<Val> {
    if !idx.dtype.is_int() {
        return Err(GraphError::node(node, format!("indices must be integers, got {}", idx.dtype)));
    }
    let idx = convert(cx, node, idx, DType::S64)?;
    wrap_indices(cx, node, &idx, dim)
}

/// `OneHot(indices, depth, values, axis)`: a new dimension of `depth`
/// entries at `axis`, holding `values[1]` where its position equals the index
/// (negative indices count from `depth`) and `values[0]` elsewhere.
pub fn one_hot(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let idx = input(node, inputs, 0)?;
    let values = input(node, inputs, 2)?;
    let depth = const_scalar(node, inputs, 1, "depth")? as i64;
    if depth < 1 {
        return Err(GraphError::node(node, format!("depth {depth} must be positive")));
    }
    if values.dims.iter().product::<i64>() != 2 {
        return Err(GraphError::node(node, format!("values must hold [off, on], got dims {:?}", values.dims)));
    }
    let r = idx.dims.len();
    let axis = norm_axis(node, int_attr(node, "axis", -1), r + 1)?;
    // Non-integer indices are cast to integers, as ONNX specifies.
    let idx = if idx.dtype.is_int() { idx.clone() } else { convert(cx, node, idx, DType::S64)? };
    let idx = s64_indices(cx, node, &idx, depth)?;
    let mut out = idx.dims.clone();
    out.insert(axis, depth);
    let keep: Vec<i64> = (0..=r as i64).filter(|&d| d != axis as i64).collect();
    let ib = emit(cx, node, |b| b.broadcast(idx.id, &out, &keep))?;
    let pos = emit(cx, node, |b| b.iota(Shape::array(DType::S64, &out), axis as i64))?;
    let hit = emit(cx, node, |b| b.compare(ComparisonDirection::Eq, ib.id, pos.id))?;
    let flat = reshape(cx, node, values, &[2])?;
    let pick = |cx: &mut LowerCx<'_>, k: i64| -> Result<Val> {
        let s = emit(cx, node, |b| b.slice(flat.id, &[k], &[k + 1], &[1]))?;
        let s = reshape(cx, node, &s, &[])?;
        emit(cx, node, |b| b.broadcast(s.id, &out, &[]))
    };
    let off = pick(cx, 0)?;
    let on = pick(cx, 1)?;
    Ok(vec![emit(cx, node, |b| b.select(hit.id, on.id, off.id))?])
}

/// Full index vectors `[..., r]` for element-wise indexing along `axis`: the
/// element's own position on every dimension but `axis`, where it is `idx`.
fn element_indices(cx: &mut LowerCx<'_>, node: &Node, idx: &Val, axis: usize) -> Result<Val> {
    let r = idx.dims.len();
    let mut one = idx.dims.clone();
    one.push(1);
    let mut parts = Vec::with_capacity(r);
    for d in 0..r {
        let p = if d == axis {
            reshape(cx, node, idx, &one)?
        } else {
            emit(cx, node, |b| b.iota(Shape::array(DType::S64, &one), d as i64))?
        };
        parts.push(p.id);
    }
    emit(cx, node, |b| b.concatenate(&parts, r as i64))
}

/// Checks `data`, `indices` (and `updates`) for the `*Elements` ops: the same
/// rank, indices no larger than data off the axis; returns the axis.
fn elements_axis(node: &Node, data: &Val, idx: &Val) -> Result<usize> {
    let r = data.dims.len();
    let axis = norm_axis(node, int_attr(node, "axis", 0), r)?;
    let fits = idx.dims.len() == r && (0..r).all(|d| d == axis || idx.dims[d] <= data.dims[d]);
    if !fits {
        return Err(GraphError::node(
            node,
            format!("indices {:?} must have the rank of data {:?} and fit it off axis {axis}", idx.dims, data.dims),
        ));
    }
    Ok(axis)
}

/// `GatherElements(data, indices, axis)`: `out[p] = data[p with p[axis]
/// replaced by indices[p]]`, shaped like `indices`.
pub fn gather_elements(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let data = input(node, inputs, 0)?;
    let idx = input(node, inputs, 1)?;
    let axis = elements_axis(node, data, idx)?;
    let r = data.dims.len();
    let idx = s64_indices(cx, node, idx, data.dims[axis])?;
    let full = element_indices(cx, node, &idx, axis)?;
    let g = GatherAttrs {
        offset_dims: Dims::new(),
        collapsed_slice_dims: range_dims(0, r),
        start_index_map: range_dims(0, r),
        operand_batching_dims: Dims::new(),
        start_indices_batching_dims: Dims::new(),
        index_vector_dim: r as i64,
        slice_sizes: Dims::from_slice(&vec![1; r]),
        indices_are_sorted: false,
    };
    let shape = Shape::array(data.dtype, &idx.dims);
    Ok(vec![emit(cx, node, |b| {
        b.add_instruction(Opcode::Gather, &[data.id, full.id], Attrs::Gather(Box::new(g)), &[], Some(shape))
    })?])
}

/// `(batch_dims, k)` of `GatherND`/`ScatterND` after checking the shapes, with
/// the indices' last dim (`k` entries) wrapped per entry by data's dims.
fn nd_indices(cx: &mut LowerCx<'_>, node: &Node, data: &Val, idx: &Val, batch: usize) -> Result<(Val, usize)> {
    let (r, q) = (data.dims.len(), idx.dims.len());
    if q == 0 || batch >= q.min(r) || data.dims[..batch] != idx.dims[..batch] {
        return Err(GraphError::node(
            node,
            format!("indices {:?} do not fit data {:?} with batch_dims {batch}", idx.dims, data.dims),
        ));
    }
    let k = idx.dims[q - 1];
    if k < 1 || batch + k as usize > r {
        return Err(GraphError::node(node, format!("index vectors of {k} entries do not fit data {:?}", data.dims)));
    }
    let k = k as usize;
    if !idx.dtype.is_int() {
        return Err(GraphError::node(node, format!("indices must be integers, got {}", idx.dtype)));
    }
    let idx = convert(cx, node, idx, DType::S64)?;
    let sizes = cx.constant(node, Array::new([k as i64], ArrayData::S64(data.dims[batch..batch + k].to_vec())))?;
    let sizes = emit(cx, node, |b| b.broadcast(sizes.id, &idx.dims, &[(q - 1) as i64]))?;
    let zero = splat(cx, node, DType::S64, 0.0, &idx.dims)?;
    let neg = emit(cx, node, |b| b.compare(ComparisonDirection::Lt, idx.id, zero.id))?;
    let shifted = emit(cx, node, |b| b.binary(Opcode::Add, idx.id, sizes.id))?;
    Ok((emit(cx, node, |b| b.select(neg.id, shifted.id, idx.id))?, k))
}

/// `GatherND(data, indices, batch_dims)`: each index vector (the last dim of
/// `indices`, `k` entries) picks the slice `data[b..., i_1, ..., i_k, :]`
/// within its batch (the first `batch_dims` dims, shared by both).
pub fn gather_nd(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let data = input(node, inputs, 0)?;
    let idx = input(node, inputs, 1)?;
    let batch = usize::try_from(int_attr(node, "batch_dims", 0))
        .map_err(|_| GraphError::node(node, "batch_dims must not be negative"))?;
    let (idx, k) = nd_indices(cx, node, data, idx, batch)?;
    let (r, q) = (data.dims.len(), idx.dims.len());
    let mut slice_sizes = vec![1; batch + k];
    slice_sizes.extend_from_slice(&data.dims[batch + k..]);
    let g = GatherAttrs {
        offset_dims: range_dims(q - 1, q - 1 + r - batch - k),
        collapsed_slice_dims: range_dims(batch, batch + k),
        start_index_map: range_dims(batch, batch + k),
        operand_batching_dims: range_dims(0, batch),
        start_indices_batching_dims: range_dims(0, batch),
        index_vector_dim: (q - 1) as i64,
        slice_sizes: Dims::from_slice(&slice_sizes),
        indices_are_sorted: false,
    };
    let mut out = idx.dims[..q - 1].to_vec();
    out.extend_from_slice(&data.dims[batch + k..]);
    let shape = Shape::array(data.dtype, out);
    Ok(vec![emit(cx, node, |b| {
        b.add_instruction(Opcode::Gather, &[data.id, idx.id], Attrs::Gather(Box::new(g)), &[], Some(shape))
    })?])
}

/// The update computation for `reduction`: overwrite, or combine with the
/// value already there.
fn scatter_combiner(cx: &mut LowerCx<'_>, node: &Node, dtype: DType, allowed: &[&str]) -> Result<smelt_hlo::CompId> {
    let reduction = node.string("reduction").unwrap_or("none");
    if !allowed.contains(&reduction) {
        return Err(GraphError::unsupported(node, format!("reduction=\"{reduction}\" (one of {allowed:?} is)")));
    }
    let kind = match reduction {
        "add" => Reducer::Add,
        "mul" => Reducer::Mul,
        "max" => Reducer::Max,
        "min" => Reducer::Min,
        _ => return cx.assigner(node, dtype),
    };
    cx.reducer(node, kind, dtype)
}

pub(super) fn scatter(
    cx: &mut LowerCx<'_>,
    node: &Node,
    data: &Val,
    idx: &Val,
    updates: &Val,
    s: ScatterAttrs,
    f: smelt_hlo::CompId,
) -> Result<Val> {
    if updates.dtype != data.dtype {
        return Err(GraphError::node(node, format!("updates are {}, data {}", updates.dtype, data.dtype)));
    }
    let shape = Shape::array(data.dtype, &data.dims);
    emit(cx, node, |b| {
        b.add_instruction(
            Opcode::Scatter,
            &[data.id, idx.id, updates.id],
            Attrs::Scatter(Box::new(s)),
            &[f],
            Some(shape),
        )
    })
}

/// `ScatterElements(data, indices, updates, axis, reduction)`: a copy of
/// `data` with `updates[p]` written to (or, for `add`/`mul`/`max`/`min`,
/// combined into) `data[p with p[axis] replaced by indices[p]]`.
pub fn scatter_elements(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let data = input(node, inputs, 0)?;
    let idx = input(node, inputs, 1)?;
    let updates = input(node, inputs, 2)?;
    let axis = elements_axis(node, data, idx)?;
    if updates.dims != idx.dims {
        return Err(GraphError::node(
            node,
            format!("updates {:?} must be shaped like indices {:?}", updates.dims, idx.dims),
        ));
    }
    let r = data.dims.len();
    let f = scatter_combiner(cx, node, data.dtype, &["none", "add", "mul", "max", "min"])?;
    let idx = s64_indices(cx, node, idx, data.dims[axis])?;
    let full = element_indices(cx, node, &idx, axis)?;
    let s = ScatterAttrs {
        update_window_dims: Dims::new(),
        inserted_window_dims: range_dims(0, r),
        scatter_dims_to_operand_dims: range_dims(0, r),
        input_batching_dims: Dims::new(),
        scatter_indices_batching_dims: Dims::new(),
        index_vector_dim: r as i64,
        indices_are_sorted: false,
        unique_indices: false,
    };
    Ok(vec![scatter(cx, node, data, &full, updates, s, f)?])
}

/// `ScatterND(data, indices, updates, reduction)`: a copy of `data` with each
/// slice `updates[p, :]` written to (or, for `add`/`mul`/`max`/`min`, combined
/// into) `data[indices[p], :]`, the index vectors being `indices`' last dim.
pub fn scatter_nd(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let data = input(node, inputs, 0)?;
    let idx = input(node, inputs, 1)?;
    let updates = input(node, inputs, 2)?;
    let (idx, k) = nd_indices(cx, node, data, idx, 0)?;
    let (r, q) = (data.dims.len(), idx.dims.len());
    let mut want = idx.dims[..q - 1].to_vec();
    want.extend_from_slice(&data.dims[k..]);
    if updates.dims != want {
        return Err(GraphError::node(node, format!("updates {:?} must have dims {want:?}", updates.dims)));
    }
    let f = scatter_combiner(cx, node, data.dtype, &["none", "add", "mul", "max", "min"])?;
    let s = ScatterAttrs {
        update_window_dims: range_dims(q - 1, q - 1 + r - k),
        inserted_window_dims: range_dims(0, k),
        scatter_dims_to_operand_dims: range_dims(0, k),
        input_batching_dims: Dims::new(),
        scatter_indices_batching_dims: Dims::new(),
        index_vector_dim: (q - 1) as i64,
        indices_are_sorted: false,
        unique_indices: false,
    };
    Ok(vec![scatter(cx, node, data, &idx, updates, s, f)?])
}

/// `ReverseSequence(x, sequence_lens)`: along `time_axis` (0), the first
/// `sequence_lens[b]` steps of each batch entry `b` (along `batch_axis`, 1)
/// reversed, the rest as they are: a `GatherElements` at
/// `t < len ? len - 1 - t : t`.
pub fn reverse_sequence(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let lens = input(node, inputs, 1)?;
    let r = x.dims.len();
    let time = norm_axis(node, int_attr(node, "time_axis", 0), r)?;
    let batch = norm_axis(node, int_attr(node, "batch_axis", 1), r)?;
    if r < 2 || time == batch || lens.dims != [x.dims[batch]] {
        return Err(GraphError::node(
            node,
            format!(
                "takes x of rank 2 or more with distinct time and batch axes and one length per batch entry; got {:?} and {:?}",
                x.dims, lens.dims
            ),
        ));
    }
    let shape = Shape::array(DType::S64, &x.dims);
    let t = emit(cx, node, |b| b.iota(shape, time as i64))?;
    let lens = convert(cx, node, lens, DType::S64)?;
    let len = emit(cx, node, |b| b.broadcast(lens.id, &x.dims, &[batch as i64]))?;
    let one = splat(cx, node, DType::S64, 1.0, &x.dims)?;
    let last = emit(cx, node, |b| b.binary(Opcode::Subtract, len.id, one.id))?;
    let back = emit(cx, node, |b| b.binary(Opcode::Subtract, last.id, t.id))?;
    let inside = emit(cx, node, |b| b.compare(ComparisonDirection::Lt, t.id, len.id))?;
    let at = emit(cx, node, |b| b.select(inside.id, back.id, t.id))?;
    let mut gather = node.clone();
    gather.attrs.insert("axis".into(), crate::graph::Attr::Int(time as i64));
    gather_elements(cx, &gather, &[Some(x.clone()), Some(at)])
}
