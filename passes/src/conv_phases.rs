//! Convolutions over a dilated base, split by output phase.
//!
//! The input gradient of a strided convolution (a transposed convolution) is a
//! convolution whose base is dilated (`lhs_dilate=s`): `s - 1` holes between
//! input elements. Computed as written, every output element visits all `K`
//! taps of each such dimension and skips the ones that land in holes, so
//! `(s - 1) / s` of the work a backend schedules (an im2col row, a GEMM's
//! depth) is wasted. But the taps that reach the input depend only on the
//! output position modulo `s`: outputs of one phase `p` (`o = s q + p`) meet
//! the taps `t0, t0 + s, ...` with `t0 = (pad_low - p) mod s`, at inputs
//! `q + j + d`. Each phase is therefore an ordinary convolution of the input
//! with a strided slice of the kernel, and the phases interleave into the
//! result.
//!
//! Contract: rewrites a convolution whose base-dilated window dimensions all
//! have stride 1, no window dilation and no reversal, with at most
//! [`MAX_PHASES`] phases in all, into one convolution per phase (input sliced
//! where the phase's window would start or end outside it, so that no padding
//! is negative; a phase that reaches no input is zeros), each padded to
//! `ceil(O / s)` positions per split dimension, concatenated along a new axis
//! after each split output dimension, reshaped to interleave and sliced to the
//! output's size. Preserves every result bit for bit: each output element sums
//! the same products in the same order (taps in row-major order, holes and
//! padding contributing nothing, as the convolution's semantics say). Other
//! convolutions are untouched. Assumes a verified module.

use smelt_hlo::attrs::{ConvAttrs, PadDim, SliceDim, WindowDim};
use smelt_hlo::shape_inference as infer;
use smelt_hlo::{Array, Attrs, Dims, InstId, Opcode, Shape};

use crate::pass::{PassContext, Result, Rewrite};
use crate::rewrite::{Rewriter, rewrite_each};

pub struct ConvPhases;

/// Most phases (product of the dilations split) one convolution becomes.
pub const MAX_PHASES: i64 = 16;

impl Rewrite for ConvPhases {
    const NAME: &'static str = "conv-phases";

    fn rewrite(&mut self, module: &mut smelt_hlo::Module, cx: &mut PassContext) -> Result<bool> {
        let rewritten = rewrite_each(module, |mut rw| {
            let mut rewritten = 0;
            for id in rw.comp.insts_with(Opcode::Convolution) {
                rw.begin(id);
                match split(&mut rw, id) {
                    Some(new) if rw.replace(id, new) => rewritten += 1,
                    Some(_) => {}
                    None => rw.discard_created(),
                }
            }
            rewritten
        });
        Ok(cx.counted("convolutions_split_by_phase", rewritten))
    }
}

/// The window dimensions (spatial indices) to split, when the convolution qualifies.
fn split_dims(conv: &ConvAttrs) -> Option<Vec<usize>> {
    let dims: Vec<usize> = (0..conv.window.dims.len()).filter(|&i| conv.window.dims[i].base_dilation > 1).collect();
    let plain = |w: &WindowDim| w.stride == 1 && w.window_dilation == 1 && !w.reversal;
    if dims.is_empty() || !dims.iter().all(|&i| plain(&conv.window.dims[i])) {
        return None;
    }
    let phases = dims.iter().try_fold(1i64, |acc, &i| acc.checked_mul(conv.window.dims[i].base_dilation))?;
    (phases <= MAX_PHASES).then_some(dims)
}

/// One phase of one split dimension: the phase's output count and, unless it
/// reads nothing, the input range, kernel slice and window it convolves with.
struct PhaseDim {
    outputs: i64,
    conv: Option<(SliceDim, SliceDim, WindowDim)>,
}

/// Phase `p` of window dimension `w` over `input` elements with `output` results.
fn phase_dim(w: &WindowDim, p: i64, input: i64, output: i64) -> PhaseDim {
    let s = w.base_dilation;
    let outputs = if p < output { (output - p + s - 1) / s } else { 0 };
    let t0 = (w.pad_low - p).rem_euclid(s);
    let taps = if t0 < w.size { (w.size - t0 + s - 1) / s } else { 0 };
    if outputs == 0 || taps == 0 || input == 0 {
        return PhaseDim { outputs, conv: None };
    }
    // Output q of the phase reads input q + j + d for tap j.
    let d = (p + t0 - w.pad_low).div_euclid(s);
    let (mut low, mut high) = (-d, outputs + taps + d - 1 - input);
    let (mut start, mut limit) = (0, input);
    if low < 0 {
        start = -low;
        low = 0;
    }
    if high < 0 {
        limit = input + high;
        high = 0;
    }
    if start >= limit {
        return PhaseDim { outputs, conv: None };
    }
    let window = WindowDim { size: taps, pad_low: low, pad_high: high, ..WindowDim::of_size(taps) };
    let input = SliceDim { start, limit, stride: 1 };
    let kernel = SliceDim { start: t0, limit: w.size, stride: s };
    PhaseDim { outputs, conv: Some((input, kernel, window)) }
}

fn full(dims: &[i64]) -> Vec<SliceDim> {
    dims.iter().map(|&d| SliceDim { start: 0, limit: d, stride: 1 }).collect()
}

/// The phase-split replacement of convolution `id`.
fn split(rw: &mut Rewriter<'_>, id: InstId) -> Option<InstId> {
    let inst = rw.inst(id).clone();
    let Attrs::Convolution(conv) = &inst.attrs else {
        return None;
    };
    let split = split_dims(conv)?;
    let (input, kernel) = (inst.operands[0], inst.operands[1]);
    let (in_dims, k_dims, out_dims) = (rw.dims(input).to_vec(), rw.dims(kernel).to_vec(), rw.dims(id).to_vec());
    let dtype = rw.dtype(id)?;
    let cd = &conv.dims;
    let at = |dims: &[i64], i: i64| usize::try_from(i).ok().and_then(|i| dims.get(i).copied());
    let strides: Vec<i64> = split.iter().map(|&i| conv.window.dims[i].base_dilation).collect();
    let per_phase: Vec<i64> = split
        .iter()
        .map(|&i| {
            Some(
                (at(&out_dims, cd.output_spatial[i])? + conv.window.dims[i].base_dilation - 1)
                    / conv.window.dims[i].base_dilation,
            )
        })
        .collect::<Option<_>>()?;
    // The output with a new axis after each split dimension (of size 1 per
    // phase, `s` once concatenated).
    let out_axis = |i: usize| usize::try_from(cd.output_spatial[i]).ok();
    let mut expanded: Vec<i64> = Vec::new();
    let mut new_axis = vec![0i64; split.len()];
    for (d, &size) in out_dims.iter().enumerate() {
        match split.iter().position(|&i| out_axis(i) == Some(d)) {
            Some(n) => {
                expanded.push(per_phase[n]);
                new_axis[n] = expanded.len() as i64;
                expanded.push(1);
            }
            None => expanded.push(size),
        }
    }
    let zero = rw.constant(Array::zeros(dtype, []));
    let phases: i64 = strides.iter().product();
    let mut pieces = Vec::with_capacity(phases as usize);
    for code in 0..phases {
        // Mixed radix, the last split dimension fastest.
        let mut rest = code;
        let mut phase = vec![0i64; split.len()];
        for n in (0..split.len()).rev() {
            phase[n] = rest % strides[n];
            rest /= strides[n];
        }
        let (mut in_slice, mut k_slice) = (full(&in_dims), full(&k_dims));
        let mut window = conv.window.clone();
        let mut dims = out_dims.clone();
        let mut reads = true;
        for (n, &i) in split.iter().enumerate() {
            let w = &conv.window.dims[i];
            let (ia, ka, oa) = (cd.input_spatial[i] as usize, cd.kernel_spatial[i] as usize, out_axis(i)?);
            let pd = phase_dim(w, phase[n], *in_dims.get(ia)?, out_dims[oa]);
            dims[oa] = pd.outputs;
            match pd.conv {
                Some((is, ks, wd)) => {
                    in_slice[ia] = is;
                    k_slice[ka] = ks;
                    window.dims[i] = wd;
                }
                None => reads = false,
            }
        }
        let piece = if reads {
            let x = if in_slice == full(&in_dims) { input } else { rw.slice(input, in_slice)? };
            let k = rw.slice(kernel, k_slice)?;
            let attrs = ConvAttrs { window, ..(**conv).clone() };
            let shape = infer::infer_convolution(rw.shape(x), rw.shape(k), &attrs, Some(dtype)).ok()?;
            if shape.as_array()?.dims[..] != dims[..] {
                return None;
            }
            let mut c = inst.clone();
            c.operands = [x, k].into_iter().collect();
            c.attrs = Attrs::Convolution(Box::new(attrs));
            c.shape = shape;
            rw.add_inst(c)
        } else {
            rw.broadcast(zero, &dims, &[])?
        };
        // Padded to `ceil(O / s)` per split dimension, then the new axes.
        let mut padding: Vec<PadDim> = dims.iter().map(|_| PadDim { low: 0, high: 0, interior: 0 }).collect();
        for (n, &i) in split.iter().enumerate() {
            let oa = out_axis(i)?;
            padding[oa].high = per_phase[n] - dims[oa];
        }
        let piece = if padding.iter().any(|p| p.high != 0) {
            let shape = infer::infer_pad(rw.shape(piece), rw.shape(zero), &padding).ok()?;
            rw.add(Opcode::Pad, shape, &[piece, zero], Attrs::Pad(padding))
        } else {
            piece
        };
        pieces.push(rw.reshape(piece, &expanded)?);
    }
    // Concatenate along the new axes, innermost split dimension first.
    for n in (0..split.len()).rev() {
        let s = strides[n] as usize;
        let mut joined = Vec::with_capacity(pieces.len() / s);
        for group in pieces.chunks(s) {
            let shapes: Vec<&Shape> = group.iter().map(|&g| rw.shape(g)).collect();
            let shape = infer::infer_concatenate(&shapes, new_axis[n]).ok()?;
            joined.push(rw.add(Opcode::Concatenate, shape, group, Attrs::Concatenate { dimension: new_axis[n] }));
        }
        pieces = joined;
    }
    let interleaved = *pieces.first()?;
    let mut merged: Dims = out_dims.iter().copied().collect();
    for (n, &i) in split.iter().enumerate() {
        merged[out_axis(i)?] = per_phase[n] * strides[n];
    }
    let whole = rw.reshape(interleaved, &merged)?;
    if merged[..] == out_dims[..] {
        return Some(whole);
    }
    rw.slice(whole, full(&out_dims))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every phase's window covers exactly its outputs: the ordinary window rule
    /// on the sliced input gives the phase's output count.
    #[test]
    fn phase_windows_fit_their_outputs() {
        for s in 2..=4 {
            for size in 1..=5 {
                for pad_low in -3..=4 {
                    for pad_high in -3..=4 {
                        for input in 1..=6 {
                            let w = WindowDim { size, pad_low, pad_high, base_dilation: s, ..WindowDim::of_size(size) };
                            let padded = (input - 1) * s + 1 + pad_low + pad_high;
                            let output = (padded - size + 1).max(0);
                            for p in 0..s {
                                let pd = phase_dim(&w, p, input, output);
                                if let Some((is, ks, wd)) = pd.conv {
                                    let n = is.limit - is.start;
                                    assert!(wd.pad_low >= 0 && wd.pad_high >= 0);
                                    assert_eq!(n + wd.pad_low + wd.pad_high - wd.size + 1, pd.outputs);
                                    assert_eq!((ks.limit - ks.start + s - 1) / s, wd.size);
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
