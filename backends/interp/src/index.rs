//! Index arithmetic shared by the kernels: checked sizes, row-major strides,
//! multi-index iteration and strided copies.
//!
//! Values are row-major in logical index order. Most data movement (transpose,
//! broadcast, slice, reverse, dynamic-slice) is one strided copy: each output
//! index maps to `base + sum(index[k] * stride[k])` in the source, with strides
//! that may be zero (broadcast) or negative (reverse). Every size that leads to
//! an allocation goes through [`count`], which refuses absurd sizes instead of
//! trying to allocate them.

use smelt_hlo::{Array, ArrayData, map_data};

use crate::MAX_ELEMENTS;
use crate::error::{Fail, KResult, invalid};

/// Dimensions as `usize`, refusing negative sizes.
pub(crate) fn dims_of(dims: &[i64]) -> KResult<Vec<usize>> {
    dims.iter()
        .map(|&d| match usize::try_from(d) {
            Ok(d) => Ok(d),
            Err(_) => invalid!("negative dimension size {d}"),
        })
        .collect()
}

/// Element count of `dims`, or [`Fail::TooLarge`] beyond [`MAX_ELEMENTS`].
pub(crate) fn count(dims: &[usize]) -> KResult<usize> {
    let mut n: u128 = 1;
    for &d in dims {
        n = n.saturating_mul(d as u128);
    }
    if n > MAX_ELEMENTS as u128 {
        return Err(Fail::TooLarge(n));
    }
    Ok(n as usize)
}

/// Row-major strides in elements.
pub(crate) fn strides(dims: &[usize]) -> Vec<usize> {
    let mut s = vec![1usize; dims.len()];
    for i in (0..dims.len().saturating_sub(1)).rev() {
        s[i] = s[i + 1] * dims[i + 1];
    }
    s
}

/// The dimensions of an array value (valid by construction: values are checked
/// when they enter the interpreter).
pub(crate) fn adims(a: &Array) -> Vec<usize> {
    a.dims.iter().map(|&d| d.max(0) as usize).collect()
}

/// Whether an array's dims are non-negative and match its element count.
pub(crate) fn is_well_formed(a: &Array) -> bool {
    let mut n: u128 = 1;
    for &d in &a.dims {
        if d < 0 {
            return false;
        }
        n = n.saturating_mul(d as u128);
    }
    n == a.data.len() as u128
}

/// An array of `dims` over `data`; the caller guarantees the count matches.
pub(crate) fn make(dims: &[usize], data: ArrayData) -> Array {
    debug_assert_eq!(dims.iter().product::<usize>(), data.len());
    Array { dims: dims.iter().map(|&d| d as i64).collect(), data }
}

/// Checks that `values` are distinct dimension numbers below `rank`.
pub(crate) fn check_dim_list(values: &[i64], rank: usize, what: &str) -> KResult<Vec<usize>> {
    let mut seen = vec![false; rank];
    let mut out = Vec::with_capacity(values.len());
    for &v in values {
        let Some(d) = usize::try_from(v).ok().filter(|&d| d < rank) else {
            invalid!("{what} {v} out of range for rank {rank}");
        };
        if seen[d] {
            invalid!("{what} {v} repeated");
        }
        seen[d] = true;
        out.push(d);
    }
    Ok(out)
}

/// Iterates multi-indices over `dims` in row-major order.
pub(crate) struct Odometer {
    dims: Vec<usize>,
    idx: Vec<usize>,
    started: bool,
    empty: bool,
}

impl Odometer {
    pub(crate) fn new(dims: &[usize]) -> Odometer {
        Odometer { dims: dims.to_vec(), idx: vec![0; dims.len()], started: false, empty: dims.contains(&0) }
    }

    /// Advances to the next index; false when done. The first call yields all zeros.
    pub(crate) fn next(&mut self) -> Option<&[usize]> {
        if self.empty {
            return None;
        }
        if !self.started {
            self.started = true;
            return Some(&self.idx);
        }
        for k in (0..self.dims.len()).rev() {
            self.idx[k] += 1;
            if self.idx[k] < self.dims[k] {
                return Some(&self.idx);
            }
            self.idx[k] = 0;
        }
        self.empty = true;
        None
    }
}

/// Calls `f` with the source offset of every output element, in row-major order
/// of `out_dims`: `base + sum(index[k] * strides[k])`. Callers guarantee every
/// offset is in range of the source.
pub(crate) fn for_each_strided(out_dims: &[usize], base: isize, strides: &[isize], mut f: impl FnMut(usize)) {
    if out_dims.contains(&0) {
        return;
    }
    let rank = out_dims.len();
    if rank == 0 {
        f(base as usize);
        return;
    }
    let inner = out_dims[rank - 1];
    let inner_stride = strides[rank - 1];
    let mut idx = vec![0usize; rank - 1];
    let mut row = base;
    loop {
        let mut off = row;
        for _ in 0..inner {
            f(off as usize);
            off += inner_stride;
        }
        // Advance the outer index, keeping `row` as the offset of its first element.
        let mut k = rank - 1;
        loop {
            if k == 0 {
                return;
            }
            k -= 1;
            idx[k] += 1;
            row += strides[k];
            if idx[k] < out_dims[k] {
                break;
            }
            row -= strides[k] * idx[k] as isize;
            idx[k] = 0;
        }
    }
}

/// A strided copy of `data` (see [`for_each_strided`]).
pub(crate) fn strided_copy(data: &ArrayData, out_dims: &[usize], base: isize, strides: &[isize]) -> KResult<ArrayData> {
    let n = count(out_dims)?;
    Ok(map_data!(data, v => {
        let mut out = Vec::with_capacity(n);
        for_each_strided(out_dims, base, strides, |o| out.push(v[o]));
        out
    }))
}

/// Source strides as `isize` for [`for_each_strided`].
pub(crate) fn istrides(dims: &[usize]) -> Vec<isize> {
    strides(dims).into_iter().map(|s| s as isize).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn odometer_is_row_major() {
        let mut o = Odometer::new(&[2, 3]);
        let mut seen = Vec::new();
        while let Some(i) = o.next() {
            seen.push((i[0], i[1]));
        }
        assert_eq!(seen, vec![(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)]);
        assert!(Odometer::new(&[2, 0]).next().is_none());
        let mut s = Odometer::new(&[]);
        assert_eq!(s.next(), Some(&[][..]));
        assert_eq!(s.next(), None);
    }

    #[test]
    fn strided_walk_transposes() {
        // [[0,1,2],[3,4,5]] transposed: out[i][j] = in[j][i].
        let mut seen = Vec::new();
        for_each_strided(&[3, 2], 0, &[1, 3], |o| seen.push(o));
        assert_eq!(seen, vec![0, 3, 1, 4, 2, 5]);
    }

    #[test]
    fn sizes_are_capped() {
        assert!(matches!(count(&[1 << 20, 1 << 20]), Err(Fail::TooLarge(_))));
        assert_eq!(count(&[]).ok(), Some(1));
    }
}
