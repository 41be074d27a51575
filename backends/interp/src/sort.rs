//! `sort` (multi-operand, comparator computation) and `topk`.
//!
//! Sorting uses a stable merge sort of positions driven by a fallible
//! comparator: the comparator is a user computation, may fail, and need not be a
//! strict weak order, so the standard library's sort (which may panic on an
//! inconsistent order) is not used. Stability also serves `is_stable=false`,
//! which allows any order of equivalent elements.

use smelt_hlo::attrs::{CompareType, ComparisonDirection};
use smelt_hlo::{Array, ArrayData, CompId, DType, Literal, with_data};

use crate::apply::{Applier, simple_compare};
use crate::error::{Fail, KResult, invalid};
use crate::eval::Evaluator;
use crate::index::{Odometer, adims, make, strides};
use crate::num::Elem;
use crate::value::Scalar;

/// Stable merge sort of `0..n`; `less(a, b)` says whether position `a` goes
/// before position `b`. Runs of width 1, 2, 4, ... merged left to right, so
/// the result is defined even for comparators that are not strict weak orders
/// (the kernel evaluator and the CPU backend's sort follow the same steps).
pub fn merge_sort<E>(n: usize, less: &mut impl FnMut(usize, usize) -> Result<bool, E>) -> Result<Vec<usize>, E> {
    let mut a: Vec<usize> = (0..n).collect();
    let mut buf = vec![0usize; n];
    let mut width = 1;
    while width < n {
        let mut lo = 0;
        while lo < n {
            let mid = (lo + width).min(n);
            let hi = (lo + 2 * width).min(n);
            let (mut l, mut r, mut k) = (lo, mid, lo);
            while l < mid && r < hi {
                // Take from the right run only if strictly before: keeps equal elements in order.
                if less(a[r], a[l])? {
                    buf[k] = a[r];
                    r += 1;
                } else {
                    buf[k] = a[l];
                    l += 1;
                }
                k += 1;
            }
            buf[k..k + (mid - l)].copy_from_slice(&a[l..mid]);
            k += mid - l;
            buf[k..k + (hi - r)].copy_from_slice(&a[r..hi]);
            lo = hi;
        }
        std::mem::swap(&mut a, &mut buf);
        width *= 2;
    }
    Ok(a)
}

/// Calls `f(base)` for the first element of every 1-D slice along `dim`.
fn for_each_slice(dims: &[usize], dim: usize, mut f: impl FnMut(usize) -> KResult<()>) -> KResult<()> {
    let ss = strides(dims);
    let mut outer = dims.to_vec();
    outer[dim] = 1;
    let mut it = Odometer::new(&outer);
    while let Some(idx) = it.next() {
        f(idx.iter().zip(&ss).map(|(&i, &s)| i * s).sum())?;
    }
    Ok(())
}

pub(crate) fn sort(ev: &Evaluator<'_>, comp: CompId, operands: &[&Array], dimension: i64) -> KResult<Literal> {
    let Some(first) = operands.first() else {
        invalid!("sort needs an operand");
    };
    if operands.iter().any(|a| a.dims != first.dims) {
        invalid!("sort operands differ in shape");
    }
    let dims = adims(first);
    let Some(dim) = usize::try_from(dimension).ok().filter(|&d| d < dims.len()) else {
        invalid!("sort dimension {dimension} out of range for rank {}", dims.len());
    };
    let params: Vec<DType> = operands.iter().flat_map(|a| [a.dtype(), a.dtype()]).collect();
    let mut cmp = Applier::new(ev, comp, &params, &[DType::Pred])?;
    // A comparator that is one compare of the first operand runs typed.
    let simple = simple_compare(ev.comp(comp).map_err(Fail::from)?);
    let (len, stride) = (dims[dim], strides(&dims)[dim]);
    let mut outs: Vec<ArrayData> = operands.iter().map(|a| a.data.clone()).collect();
    let mut args = Vec::with_capacity(params.len());
    for_each_slice(&dims, dim, |base| {
        let at = |i: usize| base + i * stride;
        let perm = if let Some((dir, ty)) = simple {
            with_data!(&first.data, v => merge_sort(len, &mut |a, b| {
                Ok::<_, Fail>(Elem::compare(dir, ty, v[at(a)], v[at(b)]))
            })?)
        } else {
            merge_sort(len, &mut |a, b| {
                args.clear();
                for op in operands {
                    args.push(Scalar::get(&op.data, at(a)));
                    args.push(Scalar::get(&op.data, at(b)));
                }
                Ok::<_, Fail>(cmp.call1(&args)?.as_pred().unwrap_or(false))
            })?
        };
        for (out, op) in outs.iter_mut().zip(operands) {
            for (i, &p) in perm.iter().enumerate() {
                Scalar::get(&op.data, at(p)).set(out, at(i));
            }
        }
        Ok(())
    })?;
    let mut arrays: Vec<Literal> = outs.into_iter().map(|d| Literal::Array(make(&dims, d))).collect();
    Ok(if arrays.len() == 1 { arrays.pop().unwrap_or(Literal::Tuple(Vec::new())) } else { Literal::Tuple(arrays) })
}

/// `topk`: the `k` largest (or smallest) elements of each row along the last
/// dimension, in order, with their s32 indices; ties keep the lower index first.
/// Floats order totally (NaN above +inf).
pub(crate) fn topk(a: &Array, k: i64, largest: bool) -> KResult<Literal> {
    let dims = adims(a);
    let Some(&n) = dims.last() else {
        invalid!("topk needs an operand of rank >= 1");
    };
    let Some(k) = usize::try_from(k).ok().filter(|&k| k <= n) else {
        invalid!("k = {k} out of range for a last dimension of {n}");
    };
    let rows = a.len().checked_div(n).unwrap_or(0);
    let dir = if largest { ComparisonDirection::Gt } else { ComparisonDirection::Lt };
    let mut picked = Vec::with_capacity(rows * k);
    for r in 0..rows {
        let get = |i: usize| Scalar::get(&a.data, r * n + i);
        let perm = merge_sort(n, &mut |x, y| {
            Ok::<_, Fail>(Scalar::compare(dir, Some(CompareType::TotalOrder), get(x), get(y)).unwrap_or(false))
        })?;
        picked.extend(perm[..k].iter().map(|&i| (r * n + i, i as i32)));
    }
    let mut out_dims = dims.clone();
    if let Some(last) = out_dims.last_mut() {
        *last = k;
    }
    let values = a.data.gather(&picked.iter().map(|&(o, _)| o).collect::<Vec<_>>());
    let indices = ArrayData::S32(picked.iter().map(|&(_, i)| i).collect());
    Ok(Literal::Tuple(vec![Literal::Array(make(&out_dims, values)), Literal::Array(make(&out_dims, indices))]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_sort_is_stable_and_survives_bad_comparators() {
        let keys = [3, 1, 3, 0, 1, 3];
        let perm = merge_sort(keys.len(), &mut |a, b| Ok::<_, ()>(keys[a] < keys[b])).unwrap();
        assert_eq!(perm, vec![3, 1, 4, 0, 2, 5]);
        // An inconsistent comparator gives some permutation, never a panic.
        let mut flip = false;
        let perm = merge_sort(50, &mut |_, _| {
            flip = !flip;
            Ok::<_, ()>(flip)
        })
        .unwrap();
        let mut sorted = perm.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
    }

    #[test]
    fn topk_orders_nan_first_and_breaks_ties_by_index() {
        let a = Array::from_vec([5], vec![1.0f32, f32::NAN, 3.0, 3.0, -1.0]);
        let Literal::Tuple(t) = topk(&a, 3, true).unwrap() else {
            panic!("tuple expected");
        };
        let v = t[0].as_array().unwrap().values::<f32>().unwrap();
        assert!(v[0].is_nan());
        assert_eq!(&v[1..], &[3.0, 3.0]);
        assert_eq!(t[1].as_array().unwrap().values::<i32>().unwrap(), &[1, 2, 3]);
    }
}
