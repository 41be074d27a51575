//! Ops whose output shapes depend on input values, run on the host:
//! `NonZero`, `Unique` and `TopK`.

use std::cmp::Ordering;

use smelt_hlo::{Array, ArrayData, Dims, with_data};

use super::util::{array_ints, s64_vec};
use crate::graph::{GraphError, Node, Result};

fn arg<'a>(node: &Node, args: &'a [Array], i: usize) -> Result<&'a Array> {
    args.get(i).ok_or_else(|| GraphError::node(node, format!("input {i} is required")))
}

/// Row-major strides of `dims`.
fn strides(dims: &[i64]) -> Vec<usize> {
    let mut s = vec![1usize; dims.len()];
    for k in (0..dims.len().saturating_sub(1)).rev() {
        s[k] = s[k + 1] * dims[k + 1] as usize;
    }
    s
}

/// `NonZero`: the indices of the non-zero elements, `[rank, K]` s64 in
/// row-major order.
pub fn non_zero(node: &Node, args: &[Array]) -> Result<Vec<Array>> {
    let x = arg(node, args, 0)?;
    let hits: Vec<usize> = (0..x.len()).filter(|&i| x.data.get_f64(i) != 0.0).collect();
    let rank = x.dims.len();
    let st = strides(&x.dims);
    let k = hits.len();
    let mut out = vec![0i64; rank.max(1) * k];
    if rank == 0 {
        return Ok(vec![Array::new([1, k as i64], ArrayData::S64(vec![0; k]))]);
    }
    for (j, &flat) in hits.iter().enumerate() {
        let mut rest = flat;
        for d in 0..rank {
            out[d * k + j] = (rest / st[d]) as i64;
            rest %= st[d];
        }
    }
    Ok(vec![Array::new([rank as i64, k as i64], ArrayData::S64(out))])
}

/// Compares elements `a` and `b` of `x` (NaN-free total order; NaN last).
fn cmp_at(x: &Array, a: usize, b: usize) -> Ordering {
    with_data!(&x.data, v => v[a].partial_cmp(&v[b]).unwrap_or_else(|| {
        let nan = |i: usize| v[i].partial_cmp(&v[i]).is_none();
        nan(a).cmp(&nan(b))
    }))
}

/// `Unique` (flattened, `sorted=1`): values, first-occurrence indices,
/// inverse indices and counts.
pub fn unique(node: &Node, args: &[Array]) -> Result<Vec<Array>> {
    let x = arg(node, args, 0)?;
    if node.int("axis").is_some() {
        return Err(GraphError::unsupported(node, "the axis attribute (only flattened Unique)"));
    }
    let sorted = node.int("sorted").unwrap_or(1) != 0;
    let n = x.len();
    // Positions sorted by value, ties by position: the first of each run is the first occurrence.
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| cmp_at(x, a, b).then(a.cmp(&b)));
    let mut firsts: Vec<usize> = Vec::new();
    let mut group_of = vec![0usize; n];
    let mut counts: Vec<i64> = Vec::new();
    for (k, &i) in order.iter().enumerate() {
        if k == 0 || cmp_at(x, order[k - 1], i) != Ordering::Equal {
            firsts.push(i);
            counts.push(0);
        }
        group_of[i] = firsts.len() - 1;
        *counts.last_mut().expect("a group was pushed") += 1;
    }
    // Unsorted output lists groups in order of first occurrence.
    let mut rank: Vec<usize> = (0..firsts.len()).collect();
    if !sorted {
        rank.sort_by_key(|&g| firsts[g]);
    }
    let mut slot = vec![0usize; firsts.len()];
    for (s, &g) in rank.iter().enumerate() {
        slot[g] = s;
    }
    let u = firsts.len() as i64;
    let y_idx: Vec<usize> = rank.iter().map(|&g| firsts[g]).collect();
    let y = Array::new([u], x.data.gather(&y_idx));
    let indices = s64_vec(y_idx.iter().map(|&i| i as i64).collect());
    let inverse = s64_vec(group_of.iter().map(|&g| slot[g] as i64).collect());
    let counts = s64_vec(rank.iter().map(|&g| counts[g]).collect());
    Ok(vec![y, indices, inverse, counts])
}

/// `TopK(X, K)` along `axis`: values and s64 indices, largest (or smallest)
/// first, ties by lower index.
pub fn top_k(node: &Node, args: &[Array]) -> Result<Vec<Array>> {
    let x = arg(node, args, 0)?;
    let k = match array_ints(arg(node, args, 1)?).as_slice() {
        [k] if *k >= 0 => *k as usize,
        other => return Err(GraphError::node(node, format!("K must be one non-negative integer, got {other:?}"))),
    };
    let r = x.dims.len();
    let axis = super::util::norm_axis(node, node.int("axis").unwrap_or(-1), r)?;
    let largest = node.int("largest").unwrap_or(1) != 0;
    let n = x.dims[axis] as usize;
    if k > n {
        return Err(GraphError::node(node, format!("K={k} exceeds dimension {n}")));
    }
    let outer: usize = x.dims[..axis].iter().product::<i64>() as usize;
    let inner: usize = x.dims[axis + 1..].iter().product::<i64>() as usize;
    let mut src = Vec::with_capacity(outer * k * inner);
    let mut idx = Vec::with_capacity(outer * k * inner);
    let mut picks = vec![Vec::new(); outer * inner];
    for o in 0..outer {
        for i in 0..inner {
            let at = |j: usize| (o * n + j) * inner + i;
            let mut js: Vec<usize> = (0..n).collect();
            js.sort_by(|&a, &b| {
                let c = cmp_at(x, at(a), at(b));
                (if largest { c.reverse() } else { c }).then(a.cmp(&b))
            });
            picks[o * inner + i] = js[..k].to_vec();
        }
    }
    for o in 0..outer {
        #[allow(clippy::needless_range_loop)]
        for j in 0..k {
            for i in 0..inner {
                let pick = picks[o * inner + i][j];
                src.push((o * n + pick) * inner + i);
                idx.push(pick as i64);
            }
        }
    }
    let mut dims: Dims = x.dims.clone();
    dims[axis] = k as i64;
    Ok(vec![Array::new(&dims, x.data.gather(&src)), Array::new(&dims, ArrayData::S64(idx))])
}
