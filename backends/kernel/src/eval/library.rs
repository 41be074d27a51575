//! The library routines, computed naively: dot, convolution, sort,
//! select-and-scatter and rng-bit-generator.
//!
//! Accumulation follows the interpreter: products accumulate in f32 for f16,
//! bf16 and f32 results (rounded once at the end), in f64 for f64, in wrapping
//! i64 for integers; each output element sums its products in contracting order
//! (for a convolution: kernel positions in row-major order, then the input
//! features of its group). Window positions in padding or dilation holes are
//! skipped.

use smelt_hlo::DType;
use smelt_hlo::attrs::RngAlgorithm;

use crate::ir::{ConvStep, DotStep, Scalar, ScalarFn, WindowSpec};
use crate::sem;

use super::graph::FnEval;
use super::{EResult, Memory, View, for_each_index, invalid};

/// An accumulator type for products.
trait Acc: Copy {
    const ZERO: Self;
    fn from_scalar(x: Scalar) -> Self;
    /// `self + a * b`, rounding the product and the sum separately.
    fn mul_add(self, a: Self, b: Self) -> Self;
    fn to_scalar(self, t: DType) -> Scalar;
}

impl Acc for f32 {
    const ZERO: Self = 0.0;
    fn from_scalar(x: Scalar) -> Self {
        match x {
            Scalar::Float(_, f) => sem::f64_to_f32(f),
            Scalar::Int(_, i) => i as f32,
        }
    }
    fn mul_add(self, a: Self, b: Self) -> Self {
        self + a * b
    }
    fn to_scalar(self, t: DType) -> Scalar {
        sem::convert(Scalar::Float(DType::F32, sem::f32_to_f64(self)), t)
    }
}

impl Acc for f64 {
    const ZERO: Self = 0.0;
    fn from_scalar(x: Scalar) -> Self {
        match x {
            Scalar::Float(_, f) => f,
            Scalar::Int(_, i) => i as f64,
        }
    }
    fn mul_add(self, a: Self, b: Self) -> Self {
        self + a * b
    }
    fn to_scalar(self, t: DType) -> Scalar {
        sem::convert(Scalar::Float(DType::F64, self), t)
    }
}

impl Acc for i64 {
    const ZERO: Self = 0;
    fn from_scalar(x: Scalar) -> Self {
        match x {
            Scalar::Float(_, f) => f as i64,
            Scalar::Int(_, i) => i as i64,
        }
    }
    fn mul_add(self, a: Self, b: Self) -> Self {
        self.wrapping_add(a.wrapping_mul(b))
    }
    fn to_scalar(self, t: DType) -> Scalar {
        sem::convert(Scalar::Int(DType::S64, self as i128), t)
    }
}

/// Every element of a view, in row-major order, as accumulators.
fn read_all<A: Acc>(view: &View, mem: &Memory<'_>) -> EResult<Vec<A>> {
    (0..view.ty.element_count()).map(|i| view.read_at(mem, i).map(A::from_scalar)).collect()
}

fn dims_usize(dims: &[i64]) -> Vec<usize> {
    dims.iter().map(|&d| d.max(0) as usize).collect()
}

/// The product of a dot step, row-major `[b, m, n]`, in `out`'s element type.
pub(crate) fn dot(d: &DotStep, mem: &Memory<'_>) -> EResult<Vec<Scalar>> {
    match d.out.ty.dtype {
        DType::F64 => dot_acc::<f64>(d, mem),
        t if t.is_float() => dot_acc::<f32>(d, mem),
        _ => dot_acc::<i64>(d, mem),
    }
}

fn dot_acc<A: Acc>(d: &DotStep, mem: &Memory<'_>) -> EResult<Vec<Scalar>> {
    let place = "dot";
    if d.batch < 0 || d.m < 0 || d.n < 0 || d.k < 0 {
        return invalid(place, "negative dimension");
    }
    let (b, m, n, k) = (d.batch as usize, d.m as usize, d.n as usize, d.k as usize);
    if d.lhs.ty.element_count() != b * m * k
        || d.rhs.ty.element_count() != b * k * n
        || d.out.ty.element_count() != b * m * n
    {
        return invalid(place, "operand sizes do not match batch, m, n and k");
    }
    let l: Vec<A> = read_all(&View::of(&d.lhs), mem)?;
    let r: Vec<A> = read_all(&View::of(&d.rhs), mem)?;
    let mut out = Vec::with_capacity(b * m * n);
    for bi in 0..b {
        for mi in 0..m {
            for ni in 0..n {
                let mut acc = A::ZERO;
                for ki in 0..k {
                    let a = if d.lhs_transposed { l[(bi * k + ki) * m + mi] } else { l[(bi * m + mi) * k + ki] };
                    let w = if d.rhs_transposed { r[(bi * n + ni) * k + ki] } else { r[(bi * k + ki) * n + ni] };
                    acc = acc.mul_add(a, w);
                }
                out.push(acc.to_scalar(d.out.ty.dtype));
            }
        }
    }
    Ok(out)
}

/// The product of a convolution step, row-major over its natural output shape,
/// in `out`'s element type.
pub(crate) fn conv(c: &ConvStep, mem: &Memory<'_>) -> EResult<Vec<Scalar>> {
    match c.out.ty.dtype {
        DType::F64 => conv_acc::<f64>(c, mem),
        t if t.is_float() => conv_acc::<f32>(c, mem),
        _ => conv_acc::<i64>(c, mem),
    }
}

fn conv_acc<A: Acc>(c: &ConvStep, mem: &Memory<'_>) -> EResult<Vec<Scalar>> {
    let place = "convolution";
    let dn = &c.dims;
    let spatial = dn.input_spatial.len();
    let rank = spatial + 2;
    let (ld, rd) = (dims_usize(&c.input.ty.dims), dims_usize(&c.kernel.ty.dims));
    let idx = |v: i64| usize::try_from(v).ok().filter(|&v| v < rank);
    let pick = |v: &[i64]| -> Option<Vec<usize>> { v.iter().map(|&x| idx(x)).collect() };
    let (Some(ib), Some(if_), Some(isp)) = (idx(dn.input_batch), idx(dn.input_feature), pick(&dn.input_spatial)) else {
        return invalid(place, "input dimension numbers out of range");
    };
    let (Some(ki), Some(ko), Some(ksp)) =
        (idx(dn.kernel_input_feature), idx(dn.kernel_output_feature), pick(&dn.kernel_spatial))
    else {
        return invalid(place, "kernel dimension numbers out of range");
    };
    let (Some(ob), Some(of), Some(osp)) = (idx(dn.output_batch), idx(dn.output_feature), pick(&dn.output_spatial))
    else {
        return invalid(place, "output dimension numbers out of range");
    };
    if ld.len() != rank || rd.len() != rank || ksp.len() != spatial || osp.len() != spatial {
        return invalid(place, "operand ranks do not match the dimension numbers");
    }
    if c.window.len() != spatial || c.window_reversal.len() != spatial {
        return invalid(place, "window does not match the spatial dimensions");
    }
    let (g, bg) = (c.feature_group_count.max(1) as usize, c.batch_group_count.max(1) as usize);
    let (in_features, out_features) = (ld[if_], rd[ko]);
    if in_features % g != 0 || rd[ki] * g != in_features || out_features % g != 0 || out_features % bg != 0 {
        return invalid(place, "features do not split into the groups");
    }
    if ld[ib] % bg != 0 {
        return invalid(place, "batch does not split into the batch groups");
    }
    let mut out_dims = vec![0usize; rank];
    out_dims[ob] = ld[ib] / bg;
    out_dims[of] = out_features;
    let in_spatial: Vec<i64> = isp.iter().map(|&d| ld[d] as i64).collect();
    let windows = WindowSpec::output_dims(&c.window, &in_spatial);
    let sizes_match = c.window.iter().zip(&ksp).all(|(w, &k)| w.size == rd[k] as i64);
    let Some(windows) = windows.filter(|_| sizes_match) else {
        return invalid(place, "bad window");
    };
    for (s, w) in windows.into_iter().enumerate() {
        out_dims[osp[s]] = w as usize;
    }
    if out_dims.iter().product::<usize>() != c.out.ty.element_count() {
        return invalid(place, "the output buffer does not hold the convolution's result");
    }
    let strides = |d: &[usize]| -> Vec<usize> {
        let mut s = vec![1usize; d.len()];
        for i in (0..d.len().saturating_sub(1)).rev() {
            s[i] = s[i + 1] * d[i + 1];
        }
        s
    };
    let (ls, rs) = (strides(&ld), strides(&rd));
    let l: Vec<A> = read_all(&View::of(&c.input), mem)?;
    let r: Vec<A> = read_all(&View::of(&c.kernel), mem)?;
    let in_group = in_features / g;
    let out_group = (out_features / g).max(1);
    let depth_mult = (out_features / bg).max(1);
    let batch_group_size = ld[ib] / bg;
    let ksizes: Vec<i64> = ksp.iter().map(|&d| rd[d] as i64).collect();
    let out_i64: Vec<i64> = out_dims.iter().map(|&d| d as i64).collect();
    let mut out = Vec::with_capacity(c.out.ty.element_count());
    for_each_index(&out_i64, |o| {
        let (obi, ofi) = (o[ob] as usize, o[of] as usize);
        let (fg, bgi) = (ofi / out_group, ofi / depth_mult);
        let batch = obi + bgi * batch_group_size;
        let mut acc = A::ZERO;
        for_each_index(&ksizes, |kp| {
            let mut loff = batch * ls[ib];
            let mut roff = ofi * rs[ko];
            for s in 0..spatial {
                let w = &c.window[s];
                let p = o[osp[s]] * w.stride - w.pad_low + kp[s] * w.window_dilation;
                if p < 0 || p % w.base_dilation != 0 || p / w.base_dilation >= ld[isp[s]] as i64 {
                    return Ok(());
                }
                loff += (p / w.base_dilation) as usize * ls[isp[s]];
                let k = if c.window_reversal[s] { ksizes[s] - 1 - kp[s] } else { kp[s] };
                roff += k as usize * rs[ksp[s]];
            }
            for z in 0..in_group {
                let a = l[loff + (fg * in_group + z) * ls[if_]];
                let w = r[roff + z * rs[ki]];
                acc = acc.mul_add(a, w);
            }
            Ok(())
        })?;
        out.push(acc.to_scalar(c.out.ty.dtype));
        Ok(())
    })?;
    Ok(out)
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
