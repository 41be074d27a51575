//! Data movement: broadcast, reshape, transpose, slice, dynamic-slice,
//! dynamic-update-slice, concatenate, pad, reverse, iota and bitcast.
//!
//! None of these compute; most are one strided copy ([`index::strided_copy`]).
//! Every kernel validates its attributes against the operand shape first, so the
//! copies never index out of range. Dynamic start indices are clamped into range
//! as XLA does (`clamp(start, 0, dim - size)`).

use smelt_hlo::attrs::{PadDim, SliceDim};
use smelt_hlo::{Array, ArrayData, ArrayShape, Element, map_data, with_data};

use crate::error::{KResult, invalid, unsupported};
use crate::index::{self, Odometer, adims, check_dim_list, count, dims_of, istrides, make, strided_copy, strides};
use crate::value::{Scalar, scalar_of, with_dtype};

/// `broadcast`: operand dimension `i` becomes output dimension `dimensions[i]`.
pub(crate) fn broadcast(a: &Array, out_dims: &[i64], dimensions: &[i64]) -> KResult<Array> {
    let out = dims_of(out_dims)?;
    let src = adims(a);
    if dimensions.len() != src.len() {
        invalid!("broadcast of rank-{} operand needs {} dimensions, got {}", src.len(), src.len(), dimensions.len());
    }
    let dims = check_dim_list(dimensions, out.len(), "broadcast dimension")?;
    let src_strides = strides(&src);
    let mut st = vec![0isize; out.len()];
    for (i, &d) in dims.iter().enumerate() {
        if src[i] != out[d] {
            invalid!("operand dimension {i} has size {}, output dimension {d} has {}", src[i], out[d]);
        }
        st[d] = src_strides[i] as isize;
    }
    Ok(make(&out, strided_copy(&a.data, &out, 0, &st)?))
}

/// `reshape`: the same elements in the same (row-major) order.
pub(crate) fn reshape(a: Array, out_dims: &[i64]) -> KResult<Array> {
    let out = dims_of(out_dims)?;
    if count(&out)? != a.len() {
        invalid!("cannot reshape {} ({} elements) to {:?}", a.shape(), a.len(), out_dims);
    }
    Ok(make(&out, a.data))
}

/// `transpose`: output dimension `k` is operand dimension `perm[k]`.
pub(crate) fn transpose(a: &Array, perm: &[i64]) -> KResult<Array> {
    let src = adims(a);
    if perm.len() != src.len() {
        invalid!("transpose permutation {perm:?} does not fit rank {}", src.len());
    }
    let perm = check_dim_list(perm, src.len(), "transpose dimension")?;
    let ss = strides(&src);
    let out: Vec<usize> = perm.iter().map(|&p| src[p]).collect();
    let st: Vec<isize> = perm.iter().map(|&p| ss[p] as isize).collect();
    Ok(make(&out, strided_copy(&a.data, &out, 0, &st)?))
}

pub(crate) fn slice(a: &Array, spec: &[SliceDim]) -> KResult<Array> {
    let src = adims(a);
    if spec.len() != src.len() {
        invalid!("slice has {} dimensions, operand rank is {}", spec.len(), src.len());
    }
    let ss = strides(&src);
    let mut out = Vec::with_capacity(src.len());
    let mut st = Vec::with_capacity(src.len());
    let mut base = 0isize;
    for (k, s) in spec.iter().enumerate() {
        if s.start < 0 || s.limit < s.start || s.limit as u64 > src[k] as u64 || s.stride < 1 {
            invalid!("slice [{}:{}:{}] out of range for dimension {k} of size {}", s.start, s.limit, s.stride, src[k]);
        }
        let n = ((s.limit - s.start) as u64).div_ceil(s.stride as u64) as usize;
        out.push(n);
        // A dimension with at most one element never steps; skip its (maybe huge) stride.
        st.push(if n <= 1 { 0 } else { ss[k] as isize * s.stride as isize });
        base += s.start as isize * ss[k] as isize;
    }
    Ok(make(&out, strided_copy(&a.data, &out, base, &st)?))
}

/// Reads dynamic start indices: one scalar per dimension, or (the old form) a
/// single rank-1 array.
pub(crate) fn start_indices(starts: &[&Array], rank: usize) -> KResult<Vec<i64>> {
    let out: Vec<i64> = if starts.len() == 1 && starts[0].dims.len() == 1 {
        let a = starts[0];
        if !a.dtype().is_int() {
            invalid!("start indices must be integers, got {}", a.dtype());
        }
        (0..a.len()).map(|i| Scalar::get(&a.data, i).as_index()).collect()
    } else {
        let mut v = Vec::with_capacity(starts.len());
        for s in starts {
            if !s.dtype().is_int() {
                invalid!("start indices must be integers, got {}", s.dtype());
            }
            v.push(scalar_of(s, "start index")?.as_index());
        }
        v
    };
    if out.len() != rank {
        invalid!("{} start indices for an operand of rank {rank}", out.len());
    }
    Ok(out)
}

/// Clamps `start` so that `[start, start + size)` fits in `dim`.
fn clamp_start(start: i64, size: usize, dim: usize) -> usize {
    let max = dim.saturating_sub(size) as i64;
    start.clamp(0, max.max(0)) as usize
}

pub(crate) fn dynamic_slice(a: &Array, starts: &[&Array], sizes: &[i64]) -> KResult<Array> {
    let src = adims(a);
    let starts = start_indices(starts, src.len())?;
    let sizes = dims_of(sizes)?;
    if sizes.len() != src.len() {
        invalid!("{} slice sizes for an operand of rank {}", sizes.len(), src.len());
    }
    let ss = strides(&src);
    let mut base = 0isize;
    for k in 0..src.len() {
        if sizes[k] > src[k] {
            invalid!("slice size {} exceeds dimension {k} of size {}", sizes[k], src[k]);
        }
        base += (clamp_start(starts[k], sizes[k], src[k]) * ss[k]) as isize;
    }
    let st: Vec<isize> = ss.iter().map(|&s| s as isize).collect();
    Ok(make(&sizes, strided_copy(&a.data, &sizes, base, &st)?))
}

/// Writes `update` into `a` at the clamped start; takes `a` by value so a last use
/// is updated in place.
pub(crate) fn dynamic_update_slice(mut a: Array, update: &Array, starts: &[&Array]) -> KResult<Array> {
    let src = adims(&a);
    let up = adims(update);
    if up.len() != src.len() {
        invalid!("update rank {} differs from operand rank {}", up.len(), src.len());
    }
    if update.dtype() != a.dtype() {
        invalid!("update type {} differs from operand type {}", update.dtype(), a.dtype());
    }
    let starts = start_indices(starts, src.len())?;
    let ss = strides(&src);
    let mut base = 0usize;
    for k in 0..src.len() {
        if up[k] > src[k] {
            invalid!("update dimension {k} of size {} exceeds operand size {}", up[k], src[k]);
        }
        base += clamp_start(starts[k], up[k], src[k]) * ss[k];
    }
    let st: Vec<isize> = ss.iter().map(|&s| s as isize).collect();
    with_data!(&mut a.data, dst => {
        let Some(u) = Element::unwrap(&update.data) else {
            invalid!("update element type differs from operand");
        };
        let u: &[_] = u;
        let mut i = 0;
        index::for_each_strided(&up, base as isize, &st, |o| {
            dst[o] = u[i];
            i += 1;
        });
    });
    Ok(a)
}

pub(crate) fn concatenate(parts: &[&Array], dimension: i64) -> KResult<Array> {
    let Some(first) = parts.first() else {
        invalid!("concatenate needs at least one operand");
    };
    let rank = first.dims.len();
    let Some(d) = usize::try_from(dimension).ok().filter(|&d| d < rank) else {
        invalid!("concatenate dimension {dimension} out of range for rank {rank}");
    };
    let mut out = adims(first);
    out[d] = 0;
    for p in parts {
        if p.dtype() != first.dtype() || p.dims.len() != rank {
            invalid!("concatenate operands {} and {} do not match", first.shape(), p.shape());
        }
        for k in 0..rank {
            if k != d && p.dims[k] != first.dims[k] {
                invalid!("concatenate operands {} and {} do not match", first.shape(), p.shape());
            }
        }
        out[d] += p.dims[d] as usize;
    }
    let n = count(&out)?;
    let outer: usize = out[..d].iter().product();
    let data = map_data!(&first.data, f => {
        let mut v = Vec::with_capacity(n);
        let typed: Vec<&[_]> = parts.iter().map(|p| Element::unwrap(&p.data).unwrap_or(&f[..0])).collect();
        for o in 0..outer {
            for (p, t) in parts.iter().zip(&typed) {
                let block = p.dims[d..].iter().product::<i64>() as usize;
                v.extend_from_slice(&t[o * block..(o + 1) * block]);
            }
        }
        v
    });
    Ok(make(&out, data))
}

/// `pad`: low/high edges (negative ones cut) and `interior` padding between elements.
pub(crate) fn pad(a: &Array, value: &Array, config: &[PadDim]) -> KResult<Array> {
    let src = adims(a);
    if config.len() != src.len() {
        invalid!("padding has {} dimensions, operand rank is {}", config.len(), src.len());
    }
    if value.dtype() != a.dtype() {
        invalid!("padding value type {} differs from operand type {}", value.dtype(), a.dtype());
    }
    let pv = scalar_of(value, "padding value")?;
    let mut out = Vec::with_capacity(src.len());
    for (k, p) in config.iter().enumerate() {
        if p.interior < 0 {
            invalid!("negative interior padding in dimension {k}");
        }
        let core = if src[k] == 0 { 0 } else { (src[k] as i128 - 1) * (p.interior as i128 + 1) + 1 };
        let n = core + p.low as i128 + p.high as i128;
        if n < 0 || n > i64::MAX as i128 {
            invalid!("padding gives dimension {k} a size of {n}");
        }
        out.push(n as usize);
    }
    let n = count(&out)?;
    let mut data = pv.splat(n);
    let os = strides(&out);
    with_data!(&mut data, dst => {
        let Some(s) = Element::unwrap(&a.data) else {
            invalid!("operand element type mismatch");
        };
        let s: &[_] = s;
        let mut it = Odometer::new(&src);
        let mut i = 0usize;
        'outer: while let Some(idx) = it.next() {
            let mut off = 0usize;
            for k in 0..idx.len() {
                let pos = config[k].low as i128 + idx[k] as i128 * (config[k].interior as i128 + 1);
                if pos < 0 || pos >= out[k] as i128 {
                    i += 1;
                    continue 'outer;
                }
                off += pos as usize * os[k];
            }
            dst[off] = s[i];
            i += 1;
        }
    });
    Ok(make(&out, data))
}

pub(crate) fn reverse(a: &Array, dimensions: &[i64]) -> KResult<Array> {
    let src = adims(a);
    let dims = check_dim_list(dimensions, src.len(), "reverse dimension")?;
    let mut st = istrides(&src);
    let mut base = 0isize;
    for d in dims {
        if src[d] > 0 {
            base += (src[d] as isize - 1) * st[d];
        }
        st[d] = -st[d];
    }
    Ok(make(&src, strided_copy(&a.data, &src, base, &st)?))
}

pub(crate) fn iota(shape: &ArrayShape, dimension: i64) -> KResult<Array> {
    let out = dims_of(&shape.dims)?;
    let Some(d) = usize::try_from(dimension).ok().filter(|&d| d < out.len()) else {
        invalid!("iota dimension {dimension} out of range for {shape}");
    };
    let n = count(&out)?;
    let s = strides(&out);
    let (stride, size) = (s[d], out[d]);
    let data = with_dtype!(shape.dtype, T => {
        let v: Vec<T> = (0..n)
            .map(|i| <T as crate::num::Elem>::from_cast(crate::num::Cast::Int(((i / stride) % size) as i128)))
            .collect();
        <T as Element>::wrap(v)
    });
    Ok(make(&out, data))
}

/// The permutation that lists dimensions from most major to most minor.
fn major_to_minor(shape: &ArrayShape) -> KResult<Vec<usize>> {
    let rank = shape.dims.len();
    if shape.layout.extra.is_some() {
        unsupported!("bitcast with a tiled or memory-space layout ({shape})");
    }
    if shape.layout.minor_to_major.len() != rank {
        invalid!("layout of {shape} does not list every dimension");
    }
    let m2m = check_dim_list(&shape.layout.minor_to_major, rank, "layout dimension")?;
    Ok(m2m.into_iter().rev().collect())
}

/// `bitcast`: reinterprets the physical buffer. The operand's logical values are
/// laid out by its layout, and the bytes are read back through the result's
/// shape and layout.
pub(crate) fn bitcast(a: &Array, from: &ArrayShape, to: &ArrayShape) -> KResult<Array> {
    if from.dims != a.dims || from.dtype != a.dtype() {
        invalid!("operand value {} does not match its declared shape {from}", a.shape());
    }
    let out = dims_of(&to.dims)?;
    if count(&out)?.saturating_mul(to.dtype.byte_size()) != a.len() * a.dtype().byte_size() {
        invalid!("bitcast from {from} to {to} changes the size in bytes");
    }
    // Physical order of the operand: a transpose to major-to-minor order.
    let perm = major_to_minor(from)?;
    let perm_i: Vec<i64> = perm.iter().map(|&p| p as i64).collect();
    let physical = transpose(a, &perm_i)?;
    let data = if to.dtype == a.dtype() {
        physical.data
    } else {
        ArrayData::from_le_bytes(to.dtype, &physical.data.to_le_bytes())
    };
    // Read it back: the buffer is the result transposed to its physical order.
    let rperm = major_to_minor(to)?;
    let phys_dims: Vec<usize> = rperm.iter().map(|&p| out[p]).collect();
    let mut inverse = vec![0i64; rperm.len()];
    for (k, &p) in rperm.iter().enumerate() {
        inverse[p] = k as i64;
    }
    transpose(&make(&phys_dims, data), &inverse)
}

#[cfg(test)]
mod tests {
    use super::*;
    use smelt_hlo::DType;
    use smelt_hlo::attrs::PadDim;

    fn iota_f32(dims: &[i64]) -> Array {
        let n: i64 = dims.iter().product();
        Array::from_vec(dims, (0..n).map(|i| i as f32).collect::<Vec<_>>())
    }

    fn vals(a: &Array) -> Vec<f32> {
        a.values::<f32>().unwrap().to_vec()
    }

    #[test]
    fn pad_negative_low_and_interior() {
        // [0,1,2] with low=-1, high=1, interior=1: [0,_,1,_,2] cut by one on the left, plus one on the right.
        let a = iota_f32(&[3]);
        let p = pad(&a, &Array::scalar(9.0f32), &[PadDim { low: -1, high: 1, interior: 1 }]).unwrap();
        assert_eq!(vals(&p), vec![9.0, 1.0, 9.0, 2.0, 9.0]);
    }

    #[test]
    fn dynamic_slice_clamps_starts() {
        let a = iota_f32(&[5]);
        let s = Array::scalar(4i32);
        let r = dynamic_slice(&a, &[&s], &[2]).unwrap();
        assert_eq!(vals(&r), vec![3.0, 4.0]);
        let s = Array::scalar(-3i32);
        let r = dynamic_update_slice(a, &iota_f32(&[2]), &[&s]).unwrap();
        assert_eq!(vals(&r), vec![0.0, 1.0, 2.0, 3.0, 4.0]);
    }

    #[test]
    fn reverse_and_transpose() {
        let a = iota_f32(&[2, 3]);
        assert_eq!(vals(&reverse(&a, &[1]).unwrap()), vec![2.0, 1.0, 0.0, 5.0, 4.0, 3.0]);
        assert_eq!(vals(&transpose(&a, &[1, 0]).unwrap()), vec![0.0, 3.0, 1.0, 4.0, 2.0, 5.0]);
    }

    #[test]
    fn bitcast_reads_physical_layout() {
        // f32[2,3]{0,1} (column major) bitcast to f32[3,2]{1,0}: the physical buffer is the transpose.
        let a = iota_f32(&[2, 3]);
        let mut from = ArrayShape::new(DType::F32, [2, 3]);
        from.layout.minor_to_major = [0i64, 1].into_iter().collect();
        let to = ArrayShape::new(DType::F32, [3, 2]);
        let r = bitcast(&a, &from, &to).unwrap();
        assert_eq!(vals(&r), vec![0.0, 3.0, 1.0, 4.0, 2.0, 5.0]);
    }

    #[test]
    fn concatenate_and_broadcast() {
        let a = iota_f32(&[2, 1]);
        let b = iota_f32(&[2, 2]);
        let c = concatenate(&[&a, &b], 1).unwrap();
        assert_eq!(vals(&c), vec![0.0, 0.0, 1.0, 1.0, 2.0, 3.0]);
        let v = iota_f32(&[3]);
        let r = broadcast(&v, &[2, 3], &[1]).unwrap();
        assert_eq!(vals(&r), vec![0.0, 1.0, 2.0, 0.0, 1.0, 2.0]);
        assert!(broadcast(&v, &[2, 4], &[1]).is_err());
    }
}
