//! `gather` and `scatter`, batching dimensions included.
//!
//! Gather: every output index splits into batch positions (the dimensions not in
//! `offset_dims`, which walk the start indices) and offsets into the slice. The
//! start vector is read along `index_vector_dim`, mapped to operand dimensions
//! by `start_index_map` and clamped so the whole slice fits, as XLA does. Operand
//! batching dimensions take the index of the matching start-indices dimension.
//!
//! Scatter is the mirror image over the update tensor: each update element lands
//! at `start + window offset` in the operand, combined with the old value by the
//! update computation, in row-major order of the updates. Start indices are not
//! clamped; an update whose whole window does not fit is skipped, as XLA does.

use smelt_hlo::attrs::{GatherAttrs, ScatterAttrs};
use smelt_hlo::{Array, ArrayData, CompId, DType, Literal};

use crate::apply::Applier;
use crate::error::{KResult, invalid};
use crate::eval::Evaluator;
use crate::index::{Odometer, adims, check_dim_list, count, dims_of, make, strides};
use crate::value::Scalar;

/// Reads start-index vectors out of an indices array.
struct Indices<'a> {
    array: &'a Array,
    dims: Vec<usize>,
    strides: Vec<usize>,
    /// The index vector dimension, or `None` when it is the implicit trailing one.
    vector_dim: Option<usize>,
    /// Dimensions that enumerate start vectors ("batch" positions), in order.
    batch_dims: Vec<usize>,
}

impl<'a> Indices<'a> {
    fn new(array: &'a Array, index_vector_dim: i64, vector_len: usize) -> KResult<Indices<'a>> {
        if !array.dtype().is_int() {
            invalid!("start indices must be integers, got {}", array.dtype());
        }
        let dims = adims(array);
        let rank = dims.len();
        let vector_dim = match usize::try_from(index_vector_dim) {
            Ok(d) if d < rank => Some(d),
            Ok(d) if d == rank => None,
            _ => invalid!("index_vector_dim {index_vector_dim} out of range for rank {rank}"),
        };
        let have = vector_dim.map_or(1, |d| dims[d]);
        if have != vector_len {
            invalid!("index vectors have {have} elements, {vector_len} expected");
        }
        let batch_dims = (0..rank).filter(|&d| Some(d) != vector_dim).collect();
        Ok(Indices { array, strides: strides(&dims), dims, vector_dim, batch_dims })
    }

    /// The sizes of the batch positions.
    fn batch_sizes(&self) -> Vec<usize> {
        self.batch_dims.iter().map(|&d| self.dims[d]).collect()
    }

    /// Element `k` of the start vector at batch position `pos`.
    fn get(&self, pos: &[usize], k: usize) -> i64 {
        let mut off: usize = pos.iter().zip(&self.batch_dims).map(|(&i, &d)| i * self.strides[d]).sum();
        if let Some(v) = self.vector_dim {
            off += k * self.strides[v];
        }
        Scalar::get(&self.array.data, off).as_index()
    }

    /// Position of start-indices dimension `d` among the batch positions.
    fn batch_position(&self, d: usize) -> KResult<usize> {
        match self.batch_dims.iter().position(|&b| b == d) {
            Some(p) => Ok(p),
            None => invalid!("indices batching dimension {d} is the index vector dimension"),
        }
    }
}

pub(crate) fn gather(operand: &Array, indices: &Array, g: &GatherAttrs) -> KResult<Array> {
    let od = adims(operand);
    let rank = od.len();
    let sizes = dims_of(&g.slice_sizes)?;
    if sizes.len() != rank {
        invalid!("{} slice sizes for an operand of rank {rank}", sizes.len());
    }
    for (k, (&s, &d)) in sizes.iter().zip(&od).enumerate() {
        if s > d {
            invalid!("slice size {s} exceeds operand dimension {k} of size {d}");
        }
    }
    let map = check_dim_list(&g.start_index_map, rank, "start_index_map entry")?;
    let collapsed = check_dim_list(&g.collapsed_slice_dims, rank, "collapsed slice dimension")?;
    let obatch = check_dim_list(&g.operand_batching_dims, rank, "operand batching dimension")?;
    for &d in collapsed.iter().chain(&obatch) {
        if sizes[d] != 1 {
            invalid!("collapsed or batching dimension {d} has slice size {}", sizes[d]);
        }
    }
    if collapsed.iter().any(|d| obatch.contains(d)) {
        invalid!("a dimension is both collapsed and batching");
    }
    let idx = Indices::new(indices, g.index_vector_dim, map.len())?;
    let ibatch = check_dim_list(&g.start_indices_batching_dims, idx.dims.len(), "start indices batching dimension")?;
    if ibatch.len() != obatch.len() {
        invalid!("operand and start indices have different numbers of batching dimensions");
    }
    let ibatch_pos: Vec<usize> = ibatch.iter().map(|&d| idx.batch_position(d)).collect::<KResult<_>>()?;
    for (&o, &p) in obatch.iter().zip(&ibatch_pos) {
        if idx.batch_sizes()[p] != od[o] {
            invalid!("batching dimensions {o} of the operand and {p} of the indices differ in size");
        }
    }
    // Operand dimensions that the output's offset dimensions walk, in order.
    let window_dims: Vec<usize> = (0..rank).filter(|d| !collapsed.contains(d) && !obatch.contains(d)).collect();
    let batch_sizes = idx.batch_sizes();
    let out_rank = batch_sizes.len() + window_dims.len();
    let offset_dims = check_dim_list(&g.offset_dims, out_rank, "offset dimension")?;
    if offset_dims.len() != window_dims.len() {
        invalid!("{} offset dimensions for {} slice dimensions", offset_dims.len(), window_dims.len());
    }
    let mut sorted_offsets = offset_dims.clone();
    sorted_offsets.sort_unstable();
    let mut out_dims = vec![0usize; out_rank];
    let mut batch_out = Vec::new();
    let mut b = 0;
    for (d, slot) in out_dims.iter_mut().enumerate() {
        if let Some(k) = sorted_offsets.iter().position(|&o| o == d) {
            *slot = sizes[window_dims[k]];
        } else {
            *slot = batch_sizes[b];
            batch_out.push(d);
            b += 1;
        }
    }
    let n = count(&out_dims)?;
    let os = strides(&od);
    let mut src = Vec::with_capacity(n);
    let mut pos = vec![0usize; batch_sizes.len()];
    let mut it = Odometer::new(&out_dims);
    while let Some(o) = it.next() {
        for (p, &d) in pos.iter_mut().zip(&batch_out) {
            *p = o[d];
        }
        let mut off = 0usize;
        for (k, &d) in map.iter().enumerate() {
            let start = idx.get(&pos, k).clamp(0, (od[d] - sizes[d]) as i64) as usize;
            off += start * os[d];
        }
        for (&d, &p) in obatch.iter().zip(&ibatch_pos) {
            off += pos[p] * os[d];
        }
        for (k, &d) in sorted_offsets.iter().enumerate() {
            off += o[d] * os[window_dims[k]];
        }
        src.push(off);
    }
    Ok(make(&out_dims, operand.data.gather(&src)))
}

pub(crate) fn scatter(
    ev: &Evaluator<'_>,
    comp: CompId,
    operands: &[&Array],
    indices: &Array,
    updates: &[&Array],
    s: &ScatterAttrs,
) -> KResult<Literal> {
    let Some(first) = operands.first() else {
        invalid!("scatter needs an operand");
    };
    if operands.len() != updates.len() {
        invalid!("{} operands with {} update arrays", operands.len(), updates.len());
    }
    let od = adims(first);
    let rank = od.len();
    for (o, u) in operands.iter().zip(updates) {
        if o.dims != first.dims || u.dims != updates[0].dims || o.dtype() != u.dtype() {
            invalid!("operands and updates must match in shape and type");
        }
    }
    let ud = adims(updates[0]);
    let window = check_dim_list(&s.update_window_dims, ud.len(), "update window dimension")?;
    let inserted = check_dim_list(&s.inserted_window_dims, rank, "inserted window dimension")?;
    let obatch = check_dim_list(&s.input_batching_dims, rank, "input batching dimension")?;
    let map = check_dim_list(&s.scatter_dims_to_operand_dims, rank, "scatter_dims_to_operand_dims entry")?;
    if inserted.iter().any(|d| obatch.contains(d)) {
        invalid!("a dimension is both inserted and batching");
    }
    let idx = Indices::new(indices, s.index_vector_dim, map.len())?;
    let ibatch =
        check_dim_list(&s.scatter_indices_batching_dims, idx.dims.len(), "scatter indices batching dimension")?;
    if ibatch.len() != obatch.len() {
        invalid!("operand and indices have different numbers of batching dimensions");
    }
    let ibatch_pos: Vec<usize> = ibatch.iter().map(|&d| idx.batch_position(d)).collect::<KResult<_>>()?;
    // Operand dimensions the update window walks, in order.
    let window_operand: Vec<usize> = (0..rank).filter(|d| !inserted.contains(d) && !obatch.contains(d)).collect();
    if window_operand.len() != window.len() {
        invalid!("{} update window dimensions for {} operand window dimensions", window.len(), window_operand.len());
    }
    let mut window_sorted = window.clone();
    window_sorted.sort_unstable();
    let scatter_dims: Vec<usize> = (0..ud.len()).filter(|d| !window_sorted.contains(d)).collect();
    let batch_sizes = idx.batch_sizes();
    if scatter_dims.len() != batch_sizes.len() || scatter_dims.iter().zip(&batch_sizes).any(|(&d, &b)| ud[d] != b) {
        invalid!("update scatter dimensions do not match the indices");
    }
    // Window extent per operand dimension, for the bounds check of the whole window.
    let mut extent = vec![1usize; rank];
    for (k, &d) in window_operand.iter().enumerate() {
        extent[d] = ud[window_sorted[k]];
        if extent[d] > od[d] {
            invalid!("update window dimension {k} exceeds operand dimension {d}");
        }
    }
    let dtypes: Vec<DType> = operands.iter().map(|a| a.dtype()).collect();
    let params: Vec<DType> = dtypes.iter().chain(&dtypes).copied().collect();
    let mut apply = Applier::new(ev, comp, &params, &dtypes)?;
    let mut outs: Vec<ArrayData> = operands.iter().map(|a| a.data.clone()).collect();
    let os = strides(&od);
    let mut pos = vec![0usize; batch_sizes.len()];
    let mut start = vec![0i64; rank];
    let mut args = Vec::with_capacity(params.len());
    let mut res = vec![Scalar::Pred(false); dtypes.len()];
    let mut it = Odometer::new(&ud);
    let mut u = 0usize;
    while let Some(ui) = it.next() {
        let this = u;
        u += 1;
        for (p, &d) in pos.iter_mut().zip(&scatter_dims) {
            *p = ui[d];
        }
        start.iter_mut().for_each(|x| *x = 0);
        for (k, &d) in map.iter().enumerate() {
            start[d] = idx.get(&pos, k);
        }
        for (&d, &p) in obatch.iter().zip(&ibatch_pos) {
            start[d] = pos[p] as i64;
        }
        if (0..rank).any(|d| start[d] < 0 || start[d] > (od[d] - extent[d]) as i64) {
            continue;
        }
        let mut off: usize = (0..rank).map(|d| start[d] as usize * os[d]).sum();
        for (k, &d) in window_sorted.iter().enumerate() {
            off += ui[d] * os[window_operand[k]];
        }
        args.clear();
        args.extend(outs.iter().map(|o| Scalar::get(o, off)));
        args.extend(updates.iter().map(|a| Scalar::get(&a.data, this)));
        apply.call(&args, &mut res)?;
        for (o, &v) in outs.iter_mut().zip(&res) {
            if !v.set(o, off) {
                invalid!("update computation returned {}", v.dtype());
            }
        }
    }
    let mut arrays: Vec<Literal> = outs.into_iter().map(|d| Literal::Array(make(&od, d))).collect();
    Ok(if arrays.len() == 1 { arrays.pop().unwrap_or(Literal::Tuple(Vec::new())) } else { Literal::Tuple(arrays) })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attrs_row_gather() -> GatherAttrs {
        GatherAttrs {
            offset_dims: [1i64].into_iter().collect(),
            collapsed_slice_dims: [0i64].into_iter().collect(),
            start_index_map: [0i64].into_iter().collect(),
            index_vector_dim: 1,
            slice_sizes: [1i64, 2].into_iter().collect(),
            ..Default::default()
        }
    }

    #[test]
    fn row_gather_clamps_out_of_range_starts() {
        let x = Array::from_vec([3, 2], vec![0.0f32, 1.0, 10.0, 11.0, 20.0, 21.0]);
        let i = Array::from_vec([3, 1], vec![2i32, 0, 7]);
        let r = gather(&x, &i, &attrs_row_gather()).unwrap();
        assert_eq!(r.dims.as_slice(), &[3, 2]);
        assert_eq!(r.values::<f32>().unwrap(), &[20.0, 21.0, 0.0, 1.0, 20.0, 21.0]);
    }

    #[test]
    fn gather_with_batching_dims() {
        // take_along_axis style: out[b, j] = x[b, idx[b, j]].
        let x = Array::from_vec([2, 3], vec![0i32, 1, 2, 10, 11, 12]);
        let i = Array::from_vec([2, 2, 1], vec![2i32, 0, 1, 1]);
        let g = GatherAttrs {
            offset_dims: Default::default(),
            collapsed_slice_dims: [1i64].into_iter().collect(),
            start_index_map: [1i64].into_iter().collect(),
            operand_batching_dims: [0i64].into_iter().collect(),
            start_indices_batching_dims: [0i64].into_iter().collect(),
            index_vector_dim: 2,
            slice_sizes: [1i64, 1].into_iter().collect(),
            indices_are_sorted: false,
        };
        let r = gather(&x, &i, &g).unwrap();
        assert_eq!(r.values::<i32>().unwrap(), &[2, 0, 11, 11]);
    }
}
