//! The library routines, computed naively: dot, convolution, sort,
//! select-and-scatter and rng-bit-generator.
//!
//! Dot, convolution and rng-bit-generator are the interpreter's own
//! (`smelt_interp::{dot, convolution, rng_bit_generator}`) on the buffers'
//! contents, and sort is its merge sort, so the kernel form states no
//! arithmetic of its own.

use smelt_hlo::attrs::{ConvAttrs, DotDims, RngAlgorithm, Window};
use smelt_hlo::{Array, ArrayData, DType, Dims};

use crate::ir::{ConvStep, DotStep, Scalar, ScalarFn, WindowSpec};
use crate::sem;

use super::graph::FnEval;
use super::{EResult, Memory, View, for_each_index, invalid};

/// A buffer's contents as an interpreter array of `dims` (the buffer's own
/// dims, or a reshape of them with as many elements).
fn array_of(view: &View, dims: &[i64], mem: &Memory<'_>) -> EResult<Array> {
    let bytes = mem.bytes(view.place, view.ty.byte_size())?;
    Ok(Array::new(dims, ArrayData::from_le_bytes(view.ty.dtype, bytes)))
}

/// The elements of an interpreter array, row-major.
fn scalars_of(a: &Array) -> Vec<Scalar> {
    let t = a.dtype();
    a.data.to_le_bytes().chunks_exact(t.byte_size()).map(|b| sem::read(t, b)).collect()
}

/// The product of a dot step, row-major `[b, m, n]`, in `out`'s element type:
/// the interpreter's `dot`, so both share one accumulation rule.
pub(crate) fn dot(d: &DotStep, product: smelt_hlo::DType, mem: &Memory<'_>) -> EResult<Vec<Scalar>> {
    let place = "dot";
    if d.batch < 0 || d.m < 0 || d.n < 0 || d.k < 0 {
        return invalid(place, "negative dimension");
    }
    let (b, m, n, k) = (d.batch, d.m, d.n, d.k);
    let count = |dims: &[i64]| dims.iter().product::<i64>() as usize;
    let lhs_dims = if d.lhs_transposed { [b, k, m] } else { [b, m, k] };
    let rhs_dims = if d.rhs_transposed { [b, n, k] } else { [b, k, n] };
    if d.lhs.ty.element_count() != count(&lhs_dims)
        || d.rhs.ty.element_count() != count(&rhs_dims)
        || d.out.ty.element_count() != count(&[b, m, n])
    {
        return invalid(place, "operand sizes do not match batch, m, n and k");
    }
    let lhs = array_of(&View::of(&d.lhs), &lhs_dims, mem)?;
    let rhs = array_of(&View::of(&d.rhs), &rhs_dims, mem)?;
    let dims = DotDims {
        lhs_batch: Dims::from_slice(&[0]),
        rhs_batch: Dims::from_slice(&[0]),
        lhs_contracting: Dims::from_slice(&[if d.lhs_transposed { 1 } else { 2 }]),
        rhs_contracting: Dims::from_slice(&[if d.rhs_transposed { 2 } else { 1 }]),
    };
    let product = smelt_interp::dot(&lhs, &rhs, &dims, product).or_else(|e| invalid(place, e))?;
    Ok(scalars_of(&product))
}

/// The product of a convolution step, row-major over its natural output shape,
/// in `out`'s element type: the interpreter's `convolution`.
pub(crate) fn conv(c: &ConvStep, product: smelt_hlo::DType, mem: &Memory<'_>) -> EResult<Vec<Scalar>> {
    let place = "convolution";
    if c.window.len() != c.window_reversal.len() {
        return invalid(place, "window does not match the spatial dimensions");
    }
    let window = Window { dims: c.window.iter().zip(&c.window_reversal).map(|(w, &r)| w.window_dim(r)).collect() };
    let attrs = ConvAttrs {
        window,
        dims: c.dims.clone(),
        feature_group_count: c.feature_group_count,
        batch_group_count: c.batch_group_count,
    };
    let input = array_of(&View::of(&c.input), &c.input.ty.dims, mem)?;
    let kernel = array_of(&View::of(&c.kernel), &c.kernel.ty.dims, mem)?;
    let out = smelt_interp::convolution(&input, &kernel, &attrs, product).or_else(|e| invalid(place, e))?;
    if out.data.len() != c.out.ty.element_count() {
        return invalid(place, "the output buffer does not hold the convolution's result");
    }
    Ok(scalars_of(&out))
}

pub(crate) fn sort(
    place: &str,
    dims: &[i64],
    dimension: usize,
    comparator: &ScalarFn,
    inputs: &[View],
    outputs: &[View],
    mem: &mut Memory<'_>,
) -> EResult<()> {
    if inputs.len() != outputs.len() || inputs.iter().any(|v| v.ty.dims != dims) || dimension >= dims.len() {
        return invalid(place, "sort operands do not match its dimensions");
    }
    let data: Vec<Vec<Scalar>> = inputs
        .iter()
        .map(|v| (0..v.ty.element_count()).map(|i| v.read_at(mem, i)).collect::<EResult<Vec<_>>>())
        .collect::<EResult<_>>()?;
    let len = dims[dimension].max(0) as usize;
    let stride: usize = dims[dimension + 1..].iter().map(|&d| d.max(0) as usize).product();
    let mut outer = dims.to_vec();
    outer[dimension] = 1;
    let mut f = FnEval::new(comparator);
    let mut args = Vec::with_capacity(2 * inputs.len());
    let strides_of = |d: &[i64]| -> Vec<usize> {
        let mut s = vec![1usize; d.len()];
        for i in (0..d.len().saturating_sub(1)).rev() {
            s[i] = s[i + 1] * d[i + 1].max(0) as usize;
        }
        s
    };
    let strides = strides_of(dims);
    for_each_index(&outer, |o| {
        let base: usize = o.iter().zip(&strides).map(|(&i, &s)| i as usize * s).sum();
        let at = |i: usize| base + i * stride;
        let perm = smelt_interp::merge_sort(len, &mut |a, b| {
            args.clear();
            for d in &data {
                args.push(d[at(a)]);
                args.push(d[at(b)]);
            }
            Ok(sem::is_true(f.call1(&args, place)?))
        })?;
        for (view, d) in outputs.iter().zip(&data) {
            for (i, &p) in perm.iter().enumerate() {
                view.write_at(mem, at(i), d[at(p)])?;
            }
        }
        Ok(())
    })
}

pub(crate) fn select_and_scatter(
    place: &str,
    window: &[WindowSpec],
    select: &ScalarFn,
    scatter: &ScalarFn,
    inputs: &[View],
    outputs: &[View],
    mem: &mut Memory<'_>,
) -> EResult<()> {
    let ([operand, source, init], [out]) = (inputs, outputs) else {
        return invalid(place, "select-and-scatter takes operand, source and init, and one output");
    };
    let dims = operand.ty.dims.clone();
    if WindowSpec::output_dims(window, &dims).as_deref() != Some(source.ty.dims.as_slice()) || out.ty.dims != dims {
        return invalid(place, "source does not match the windows of the operand");
    }
    let init_v = init.read_at(mem, 0)?;
    for i in 0..out.ty.element_count() {
        out.write_at(mem, i, init_v)?;
    }
    let (mut sel, mut sc) = (FnEval::new(select), FnEval::new(scatter));
    let sizes: Vec<i64> = window.iter().map(|w| w.size).collect();
    let mut s = 0usize;
    let mut pos = vec![0i64; dims.len()];
    for_each_index(&source.ty.dims.clone(), |o| {
        let mut picked: Option<usize> = None;
        for_each_index(&sizes, |w| {
            for (k, spec) in window.iter().enumerate() {
                let p = o[k] * spec.stride - spec.pad_low + w[k] * spec.window_dilation;
                if p < 0 || p % spec.base_dilation != 0 || p / spec.base_dilation >= dims[k] {
                    return Ok(());
                }
                pos[k] = p / spec.base_dilation;
            }
            let Some(off) = operand.offset(&pos) else {
                return invalid(place, "window position out of bounds");
            };
            picked = match picked {
                None => Some(off),
                Some(p) => {
                    let keep = sel.call1(&[operand.read_at(mem, p)?, operand.read_at(mem, off)?], place)?;
                    if sem::is_true(keep) { Some(p) } else { Some(off) }
                }
            };
            Ok(())
        })?;
        if let Some(p) = picked {
            let v = sc.call1(&[out.read_at(mem, p)?, source.read_at(mem, s)?], place)?;
            out.write_at(mem, p, v)?;
        }
        s += 1;
        Ok(())
    })
}

pub(crate) fn rng_bit_generator(
    place: &str,
    algorithm: RngAlgorithm,
    inputs: &[View],
    outputs: &[View],
    mem: &mut Memory<'_>,
) -> EResult<()> {
    let ([state], [new_state, bits]) = (inputs, outputs) else {
        return invalid(place, "rng-bit-generator takes a state and gives a state and bits");
    };
    if state.ty.dtype != DType::U64 || state.ty.dims.len() != 1 || new_state.ty != state.ty {
        return invalid(place, "the state must be u64[n]");
    }
    if bits.ty.dtype == DType::Pred {
        return invalid(place, "random bits cannot be pred");
    }
    let s: Vec<u64> = (0..state.ty.element_count())
        .map(|i| state.read_at(mem, i).map(|x| if let Scalar::Int(_, v) = x { v as u64 } else { 0 }))
        .collect::<EResult<_>>()?;
    // The generators are the interpreter's: one definition of XLA's bit streams.
    let state_array = smelt_hlo::Array::from_vec([s.len() as i64], s);
    let out_shape = smelt_hlo::ArrayShape::new(bits.ty.dtype, &bits.ty.dims);
    let result = smelt_interp::rng_bit_generator(algorithm, &state_array, &out_shape).or_else(|e| invalid(place, e))?;
    let [new_state_value, bits_value] = result.leaves()[..] else {
        return invalid(place, "rng-bit-generator gave no (state, bits) pair");
    };
    let width = bits.ty.dtype.byte_size();
    let bytes = bits_value.data.to_le_bytes();
    let new: Vec<u64> = new_state_value.values::<u64>().map(<[u64]>::to_vec).unwrap_or_default();
    for (i, chunk) in bytes.chunks_exact(width).enumerate() {
        bits.write_at(mem, i, sem::read(bits.ty.dtype, chunk))?;
    }
    for (i, &v) in new.iter().enumerate() {
        new_state.write_at(mem, i, Scalar::Int(DType::U64, v as i128))?;
    }
    Ok(())
}
