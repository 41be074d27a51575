//! `convolution` with any dimension labels, padding, strides, lhs (base) and rhs
//! (window) dilation, window reversal, feature groups and batch groups.
//!
//! Follows XLA's evaluator: each output element sums, over the kernel's spatial
//! positions and the input features of its group, `lhs * rhs` in the
//! accumulator type of the result (see [`crate::dot::Acc`]). A kernel position
//! lands on input position `out * stride - pad_low + k * rhs_dilation`, which
//! must be a multiple of the lhs dilation and inside the input; otherwise it
//! reads padding (zero) and is skipped.
//!
//! Groups: with `feature_group_count = G` the input features split into `G`
//! groups and output feature `o` reads group `o / (out_features / G)`. With
//! `batch_group_count = B` the batch splits into `B` groups and output feature
//! `o` reads batch group `o / (out_features / B)`.

use smelt_hlo::attrs::ConvAttrs;
use smelt_hlo::{Array, DType};

use crate::dot::{Acc, AccKind, from_acc, to_acc};
use crate::error::{KResult, invalid};
use crate::index::{Odometer, adims, count, make, strides};

/// Validated geometry of one convolution.
struct Geom {
    spatial: usize,
    // Input (lhs) dimension numbers and strides.
    in_batch: usize,
    in_feature: usize,
    in_spatial: Vec<usize>,
    lhs_dims: Vec<usize>,
    lhs_strides: Vec<usize>,
    // Kernel (rhs).
    k_in: usize,
    k_out: usize,
    k_spatial: Vec<usize>,
    rhs_dims: Vec<usize>,
    rhs_strides: Vec<usize>,
    // Output.
    out_batch: usize,
    out_feature: usize,
    out_spatial: Vec<usize>,
    out_dims: Vec<usize>,
    // Window per spatial dimension: (stride, pad_low, rhs dilation, lhs dilation, reversal).
    window: Vec<(i64, i64, i64, i64, bool)>,
    feature_groups: usize,
    batch_groups: usize,
}

fn dim_index(d: i64, rank: usize, what: &str) -> KResult<usize> {
    match usize::try_from(d).ok().filter(|&d| d < rank) {
        Some(d) => Ok(d),
        None => invalid!("{what} dimension {d} out of range for rank {rank}"),
    }
}

fn distinct(dims: &[usize], what: &str) -> KResult<()> {
    let mut seen = vec![false; dims.len()];
    for &d in dims {
        if d >= seen.len() || seen[d] {
            invalid!("{what} dimension numbers are not a permutation");
        }
        seen[d] = true;
    }
    Ok(())
}

impl Geom {
    fn new(lhs: &Array, rhs: &Array, c: &ConvAttrs) -> KResult<Geom> {
        let d = &c.dims;
        let spatial = d.input_spatial.len();
        let rank = spatial + 2;
        if lhs.dims.len() != rank || rhs.dims.len() != rank {
            invalid!("operands {} and {} do not have rank {rank}", lhs.shape(), rhs.shape());
        }
        if d.kernel_spatial.len() != spatial || d.output_spatial.len() != spatial {
            invalid!("dimension labels disagree on the number of spatial dimensions");
        }
        if c.window.dims.len() != spatial {
            invalid!("window has {} dimensions for {spatial} spatial dimensions", c.window.dims.len());
        }
        let idx = |v: i64, w: &str| dim_index(v, rank, w);
        let in_batch = idx(d.input_batch, "input batch")?;
        let in_feature = idx(d.input_feature, "input feature")?;
        let in_spatial: Vec<usize> =
            d.input_spatial.iter().map(|&v| idx(v, "input spatial")).collect::<KResult<_>>()?;
        let k_in = idx(d.kernel_input_feature, "kernel input feature")?;
        let k_out = idx(d.kernel_output_feature, "kernel output feature")?;
        let k_spatial: Vec<usize> =
            d.kernel_spatial.iter().map(|&v| idx(v, "kernel spatial")).collect::<KResult<_>>()?;
        let out_batch = idx(d.output_batch, "output batch")?;
        let out_feature = idx(d.output_feature, "output feature")?;
        let out_spatial: Vec<usize> =
            d.output_spatial.iter().map(|&v| idx(v, "output spatial")).collect::<KResult<_>>()?;
        let perm = |a: usize, b: usize, s: &[usize]| {
            let mut v = vec![a, b];
            v.extend_from_slice(s);
            v
        };
        distinct(&perm(in_batch, in_feature, &in_spatial), "input")?;
        distinct(&perm(k_in, k_out, &k_spatial), "kernel")?;
        distinct(&perm(out_batch, out_feature, &out_spatial), "output")?;

        let lhs_dims = adims(lhs);
        let rhs_dims = adims(rhs);
        let (g, bg) = (c.feature_group_count, c.batch_group_count);
        if g < 1 || bg < 1 {
            invalid!("group counts must be positive");
        }
        let (g, bg) = (g as usize, bg as usize);
        let in_features = lhs_dims[in_feature];
        let out_features = rhs_dims[k_out];
        if !in_features.is_multiple_of(g) || rhs_dims[k_in] * g != in_features {
            invalid!(
                "input features {in_features} do not split into {g} groups of {} kernel input features",
                rhs_dims[k_in]
            );
        }
        if !out_features.is_multiple_of(g) || !out_features.is_multiple_of(bg) || !lhs_dims[in_batch].is_multiple_of(bg)
        {
            invalid!("output features {out_features} or batch do not split into the groups");
        }
        let mut out_dims = vec![0usize; rank];
        out_dims[out_batch] = lhs_dims[in_batch] / bg;
        out_dims[out_feature] = out_features;
        let mut window = Vec::with_capacity(spatial);
        for (k, w) in c.window.dims.iter().enumerate() {
            if w.stride < 1 || w.window_dilation < 1 || w.base_dilation < 1 {
                invalid!("window dimension {k} has a non-positive stride or dilation");
            }
            if w.size != rhs_dims[k_spatial[k]] as i64 {
                invalid!("window size {} differs from kernel spatial size {}", w.size, rhs_dims[k_spatial[k]]);
            }
            let n = lhs_dims[in_spatial[k]] as i128;
            let base = if n == 0 { 0 } else { (n - 1) * w.base_dilation as i128 + 1 };
            let padded = base + w.pad_low as i128 + w.pad_high as i128;
            let extent = if w.size == 0 { 0 } else { (w.size as i128 - 1) * w.window_dilation as i128 + 1 };
            let o = if padded < extent { 0 } else { (padded - extent) / w.stride as i128 + 1 };
            if o > i64::MAX as i128 {
                invalid!("output spatial dimension {k} is too large");
            }
            out_dims[out_spatial[k]] = o as usize;
            window.push((w.stride, w.pad_low, w.window_dilation, w.base_dilation, w.reversal));
        }
        count(&out_dims)?;
        Ok(Geom {
            spatial,
            in_batch,
            in_feature,
            in_spatial,
            lhs_strides: strides(&lhs_dims),
            lhs_dims,
            k_in,
            k_out,
            k_spatial,
            rhs_strides: strides(&rhs_dims),
            rhs_dims,
            out_batch,
            out_feature,
            out_spatial,
            out_dims,
            window,
            feature_groups: g,
            batch_groups: bg,
        })
    }
}

fn conv_acc<A: Acc>(lhs: &Array, rhs: &Array, g: &Geom) -> Vec<A> {
    let l = to_acc::<A>(&lhs.data);
    let r = to_acc::<A>(&rhs.data);
    let n_out: usize = g.out_dims.iter().product();
    let mut out = vec![A::default(); n_out];
    let in_batch_size = g.lhs_dims[g.in_batch];
    let batch_group_size = in_batch_size / g.batch_groups;
    let in_group = g.lhs_dims[g.in_feature] / g.feature_groups;
    let out_features = g.rhs_dims[g.k_out];
    let out_group = (out_features / g.feature_groups).max(1);
    let depthwise_multiplier = (out_features / g.batch_groups).max(1);
    let k_sizes: Vec<usize> = g.k_spatial.iter().map(|&d| g.rhs_dims[d]).collect();
    let (ls_f, rs_in, rs_out) = (g.lhs_strides[g.in_feature], g.rhs_strides[g.k_in], g.rhs_strides[g.k_out]);
    // Every kernel spatial position in row-major order, and its rhs offset
    // (window reversal applied).
    let mut kpos: Vec<usize> = Vec::new();
    let mut koff: Vec<usize> = Vec::new();
    let mut kit = Odometer::new(&k_sizes);
    while let Some(p) = kit.next() {
        kpos.extend_from_slice(p);
        koff.push(
            (0..g.spatial)
                .map(|s| {
                    let k = if g.window[s].4 { k_sizes[s] - 1 - p[s] } else { p[s] };
                    k * g.rhs_strides[g.k_spatial[s]]
                })
                .sum(),
        );
    }
    // Output features in runs that read the same feature group and batch group,
    // so the innermost loop runs over output features (contiguous in the kernel
    // for the usual `io` layouts).
    let mut runs: Vec<(usize, usize, usize, usize)> = Vec::new(); // (start, len, fg, bg)
    for oz in 0..out_features {
        let key = (oz / out_group, oz / depthwise_multiplier);
        match runs.last_mut() {
            Some(run) if (run.2, run.3) == key => run.1 += 1,
            _ => runs.push((oz, 1, key.0, key.1)),
        }
    }
    let out_strides = strides(&g.out_dims);
    let mut positions = g.out_dims.clone();
    positions[g.out_feature] = 1;
    let mut taps: Vec<(usize, usize)> = Vec::with_capacity(koff.len());
    let mut acc = vec![A::default(); out_group.min(out_features).max(1)];
    let mut it = Odometer::new(&positions);
    while let Some(o) = it.next() {
        // The kernel positions that land inside the input: (lhs spatial offset, rhs offset).
        taps.clear();
        'pos: for (j, &ro) in koff.iter().enumerate() {
            let kp = &kpos[j * g.spatial..(j + 1) * g.spatial];
            let mut loff = 0;
            for s in 0..g.spatial {
                let (stride, lo, wdil, bdil, _) = g.window[s];
                let p = o[g.out_spatial[s]] as i128 * stride as i128 - lo as i128 + kp[s] as i128 * wdil as i128;
                if p < 0 || p % bdil as i128 != 0 {
                    continue 'pos;
                }
                let i = p / bdil as i128;
                if i >= g.lhs_dims[g.in_spatial[s]] as i128 {
                    continue 'pos;
                }
                loff += i as usize * g.lhs_strides[g.in_spatial[s]];
            }
            taps.push((loff, ro));
        }
        let out_base: usize = o.iter().zip(&out_strides).map(|(&i, &s)| i * s).sum();
        for &(start, len, fg, bg) in &runs {
            let batch = o[g.out_batch] + (bg * batch_group_size) % in_batch_size.max(1);
            let lhs_base = batch * g.lhs_strides[g.in_batch] + fg * in_group * ls_f;
            let acc = &mut acc[..len];
            acc.fill(A::default());
            for &(loff, ro) in &taps {
                for z in 0..in_group {
                    let a = l[lhs_base + loff + z * ls_f];
                    let rb = ro + z * rs_in + start * rs_out;
                    if rs_out == 1 {
                        for (x, &w) in acc.iter_mut().zip(&r[rb..rb + len]) {
                            *x = x.mul_add(a, w);
                        }
                    } else {
                        for (j, x) in acc.iter_mut().enumerate() {
                            *x = x.mul_add(a, r[rb + j * rs_out]);
                        }
                    }
                }
            }
            for (j, &x) in acc.iter().enumerate() {
                out[out_base + (start + j) * out_strides[g.out_feature]] = x;
            }
        }
    }
    out
}

pub(crate) fn convolution(lhs: &Array, rhs: &Array, c: &ConvAttrs, out_dtype: DType) -> KResult<Array> {
    let g = Geom::new(lhs, rhs, c)?;
    let data = match AccKind::for_output(out_dtype) {
        AccKind::F32 => from_acc(&conv_acc::<f32>(lhs, rhs, &g), out_dtype),
        AccKind::F64 => from_acc(&conv_acc::<f64>(lhs, rhs, &g), out_dtype),
        AccKind::I64 => from_acc(&conv_acc::<i64>(lhs, rhs, &g), out_dtype),
    };
    Ok(make(&g.out_dims, data))
}

#[cfg(test)]
mod tests {
    use super::*;
    use smelt_hlo::attrs::{ConvDims, Window, WindowDim};

    /// 1-D convolution attributes with labels `b0f_0io->b0f`.
    fn conv1d(window: WindowDim, groups: i64, batch_groups: i64) -> ConvAttrs {
        ConvAttrs {
            window: Window { dims: vec![window] },
            dims: ConvDims {
                input_batch: 0,
                input_feature: 2,
                input_spatial: [1i64].into_iter().collect(),
                kernel_input_feature: 1,
                kernel_output_feature: 2,
                kernel_spatial: [0i64].into_iter().collect(),
                output_batch: 0,
                output_feature: 2,
                output_spatial: [1i64].into_iter().collect(),
            },
            feature_group_count: groups,
            batch_group_count: batch_groups,
        }
    }

    fn f32s(dims: &[i64], v: &[f32]) -> Array {
        Array::from_vec(dims, v.to_vec())
    }

    #[test]
    fn padding_stride_and_dilations() {
        // x = [1,2,3,4], kernel [1,10], pad 1 on both sides, stride 2.
        let x = f32s(&[1, 4, 1], &[1.0, 2.0, 3.0, 4.0]);
        let k = f32s(&[2, 1, 1], &[1.0, 10.0]);
        let mut w = WindowDim::of_size(2);
        w.pad_low = 1;
        w.pad_high = 1;
        w.stride = 2;
        let r = convolution(&x, &k, &conv1d(w, 1, 1), DType::F32).unwrap();
        // padded [0,1,2,3,4,0]: windows at 0,2,4 -> 0+10, 2+30, 4+0.
        assert_eq!(r.values::<f32>().unwrap(), &[10.0, 32.0, 4.0]);
        // rhs dilation 2: taps at p and p+2.
        let mut w = WindowDim::of_size(2);
        w.window_dilation = 2;
        let r = convolution(&x, &k, &conv1d(w, 1, 1), DType::F32).unwrap();
        assert_eq!(r.values::<f32>().unwrap(), &[31.0, 42.0]);
        // lhs dilation 2: input becomes [1,0,2,0,3,0,4].
        let mut w = WindowDim::of_size(2);
        w.base_dilation = 2;
        let r = convolution(&x, &k, &conv1d(w, 1, 1), DType::F32).unwrap();
        assert_eq!(r.values::<f32>().unwrap(), &[1.0, 20.0, 2.0, 30.0, 3.0, 40.0]);
    }

    #[test]
    fn feature_groups_are_depthwise() {
        // Two channels, one group each: channel c is scaled by kernel c.
        let x = f32s(&[1, 2, 2], &[1.0, 10.0, 2.0, 20.0]);
        let k = f32s(&[1, 1, 2], &[3.0, 5.0]);
        let r = convolution(&x, &k, &conv1d(WindowDim::of_size(1), 2, 1), DType::F32).unwrap();
        assert_eq!(r.values::<f32>().unwrap(), &[3.0, 50.0, 6.0, 100.0]);
    }

    #[test]
    fn batch_groups_pick_their_batch() {
        // Batch 2 split into 2 groups; output feature o reads batch o.
        let x = f32s(&[2, 1, 1], &[2.0, 3.0]);
        let k = f32s(&[1, 1, 2], &[10.0, 100.0]);
        let r = convolution(&x, &k, &conv1d(WindowDim::of_size(1), 1, 2), DType::F32).unwrap();
        assert_eq!(r.dims.as_slice(), &[1, 1, 2]);
        assert_eq!(r.values::<f32>().unwrap(), &[20.0, 300.0]);
    }
}
