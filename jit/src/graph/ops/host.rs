//! Ops whose output shapes depend on input values, or that gather at
//! positions computed from input values, run on the host: `NonZero`,
//! `Unique`, `TopK`, `NonMaxSuppression`, `RoiAlign`, `MaxRoiPool` and
//! `Compress`.

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

/// The host op's inputs by position: `args` holds the present ones in order,
/// `node.inputs` says which are omitted.
fn positional<'a>(node: &Node, args: &'a [Array]) -> Vec<Option<&'a Array>> {
    let mut present = args.iter();
    node.inputs.iter().map(|i| i.and_then(|_| present.next())).collect()
}

/// `NonMaxSuppression`: per batch and class, boxes by descending score (ties
/// by lower index) over `score_threshold`, each kept unless its IoU with a
/// box already kept exceeds `iou_threshold`, at most
/// `max_output_boxes_per_class` (default 0) of them; `[selected, 3]` s64
/// (batch, class, box), as ONNX's reference computes it, in f32.
pub fn non_max_suppression(node: &Node, args: &[Array]) -> Result<Vec<Array>> {
    let ins = positional(node, args);
    let (Some(boxes), Some(scores)) = (ins.first().copied().flatten(), ins.get(1).copied().flatten()) else {
        return Err(GraphError::node(node, "needs boxes and scores"));
    };
    let (Some(b), Some(s)) = (boxes.values::<f32>(), scores.values::<f32>()) else {
        return Err(GraphError::node(node, "boxes and scores must be float32"));
    };
    let ([nb, nbox, 4], [sb, classes, sbox]) = (&boxes.dims[..], &scores.dims[..]) else {
        return Err(GraphError::node(
            node,
            format!("boxes {:?} must be [B, N, 4], scores {:?} [B, C, N]", boxes.dims, scores.dims),
        ));
    };
    let (nb, nbox, classes) = (*nb, *nbox, *classes);
    if (nb, nbox) != (*sb, *sbox) {
        return Err(GraphError::node(node, format!("boxes {:?} and scores {:?} disagree", boxes.dims, scores.dims)));
    }
    let scalar = |k: usize| ins.get(k).copied().flatten().filter(|a| a.len() > 0).map(|a| a.data.get_f64(0));
    let max_out = scalar(2).map_or(0, |v| v.max(0.0) as usize);
    let iou_threshold = scalar(3).unwrap_or(0.0) as f32;
    let score_threshold = scalar(4).map(|v| v as f32);
    let center = node.int("center_point_box").unwrap_or(0) != 0;
    // A box's x and y extents, ordered.
    let extent = |bx: &[f32]| -> [f32; 4] {
        if center {
            let (hw, hh) = (bx[2] / 2.0, bx[3] / 2.0);
            [bx[0] - hw, bx[0] + hw, bx[1] - hh, bx[1] + hh]
        } else {
            [bx[1].min(bx[3]), bx[1].max(bx[3]), bx[0].min(bx[2]), bx[0].max(bx[2])]
        }
    };
    let suppresses = |a: &[f32], c: &[f32]| -> bool {
        let ([ax0, ax1, ay0, ay1], [cx0, cx1, cy0, cy1]) = (extent(a), extent(c));
        let (ix0, ix1, iy0, iy1) = (ax0.max(cx0), ax1.min(cx1), ay0.max(cy0), ay1.min(cy1));
        if ix1 <= ix0 || iy1 <= iy0 {
            return false;
        }
        let inter = (ix1 - ix0) * (iy1 - iy0);
        let (area_a, area_c) = ((ax1 - ax0) * (ay1 - ay0), (cx1 - cx0) * (cy1 - cy0));
        let union = area_a + area_c - inter;
        if inter <= 0.0 || area_a <= 0.0 || area_c <= 0.0 || union <= 0.0 {
            return false;
        }
        inter / union > iou_threshold
    };
    let (nbox, classes) = (nbox as usize, classes as usize);
    let mut out = Vec::new();
    for bi in 0..nb as usize {
        let bbox = |i: usize| &b[(bi * nbox + i) * 4..(bi * nbox + i) * 4 + 4];
        for ci in 0..classes {
            let sc = &s[(bi * classes + ci) * nbox..(bi * classes + ci + 1) * nbox];
            let mut order: Vec<usize> = (0..nbox).filter(|&i| score_threshold.is_none_or(|t| sc[i] > t)).collect();
            order.sort_by(|&x, &y| sc[y].partial_cmp(&sc[x]).unwrap_or(Ordering::Equal).then(x.cmp(&y)));
            let mut kept: Vec<usize> = Vec::new();
            for i in order {
                if kept.len() >= max_out {
                    break;
                }
                if kept.iter().all(|&k| !suppresses(bbox(i), bbox(k))) {
                    kept.push(i);
                    out.extend([bi as i64, ci as i64, i as i64]);
                }
            }
        }
    }
    let n = out.len() as i64 / 3;
    Ok(vec![Array::new([n, 3], ArrayData::S64(out))])
}

/// `RoiAlign`: per region of interest `[x1, y1, x2, y2]` (scaled by
/// `spatial_scale`, shifted half a pixel with `half_pixel` coordinates) and
/// channel, an `output_height x output_width` grid of bins, each the average
/// (or, `mode=max`, the largest of the weighted corner values) of
/// `sampling_ratio` (else `ceil(bin size)`) bilinear samples per axis, as
/// ONNX's reference computes it.
pub fn roi_align(node: &Node, args: &[Array]) -> Result<Vec<Array>> {
    let x = arg(node, args, 0)?;
    let rois = arg(node, args, 1)?;
    let batch = arg(node, args, 2)?;
    let [n, c, h, w] = x.dims[..] else {
        return Err(GraphError::node(node, format!("X {:?} must be [N, C, H, W]", x.dims)));
    };
    let (r, 4) = (rois.dims.first().copied().unwrap_or(0), rois.dims.get(1).copied().unwrap_or(0)) else {
        return Err(GraphError::node(node, format!("rois {:?} must be [R, 4]", rois.dims)));
    };
    if rois.dims.len() != 2 || batch.dims[..] != [r] {
        return Err(GraphError::node(
            node,
            format!("rois {:?} and batch_indices {:?} disagree", rois.dims, batch.dims),
        ));
    }
    let (oh, ow) = (node.int("output_height").unwrap_or(1), node.int("output_width").unwrap_or(1));
    let ratio = node.int("sampling_ratio").unwrap_or(0);
    let scale = node.float("spatial_scale").unwrap_or(1.0) as f64;
    let max_mode = match node.string("mode").unwrap_or("avg") {
        "avg" => false,
        "max" => true,
        other => return Err(GraphError::unsupported(node, format!("mode={other}"))),
    };
    let half_pixel = match node.string("coordinate_transformation_mode").unwrap_or("half_pixel") {
        "half_pixel" => true,
        "output_half_pixel" => false,
        other => return Err(GraphError::unsupported(node, format!("coordinate_transformation_mode={other}"))),
    };
    if oh < 1 || ow < 1 || h < 1 || w < 1 {
        return Err(GraphError::node(node, format!("output {oh}x{ow} and input {h}x{w} must not be empty")));
    }
    let (hu, wu) = (h as usize, w as usize);
    let mut out = Vec::with_capacity((r * c * oh * ow) as usize);
    let batches = array_ints(batch);
    for ri in 0..r as usize {
        let bi = batches[ri];
        if !(0..n).contains(&bi) {
            return Err(GraphError::node(node, format!("batch index {bi} of region {ri} is outside 0..{n}")));
        }
        let offset = if half_pixel { 0.5 } else { 0.0 };
        let roi = |k: usize| rois.data.get_f64(ri * 4 + k) * scale - offset;
        let (x0, y0, x1, y1) = (roi(0), roi(1), roi(2), roi(3));
        let (mut rw, mut rh) = (x1 - x0, y1 - y0);
        if !half_pixel {
            rw = rw.max(1.0);
            rh = rh.max(1.0);
        }
        let (bh, bw) = (rh / oh as f64, rw / ow as f64);
        let gh = if ratio > 0 { ratio } else { (rh / oh as f64).ceil() as i64 }.max(0) as usize;
        let gw = if ratio > 0 { ratio } else { (rw / ow as f64).ceil() as i64 }.max(0) as usize;
        let count = (gh * gw).max(1) as f64;
        if gh * gw == 0 {
            // No samples: every bin is 0, as in ONNX's reference.
            out.extend(std::iter::repeat_n(0.0, (c * oh * ow) as usize));
            continue;
        }
        // Per bin and sample: four corner positions and weights.
        let mut taps: Vec<[(usize, f64); 4]> = Vec::with_capacity(oh as usize * ow as usize * gh * gw);
        for ph in 0..oh as usize {
            for pw in 0..ow as usize {
                for iy in 0..gh {
                    let yy = y0 + ph as f64 * bh + (iy as f64 + 0.5) * bh / gh as f64;
                    for ix in 0..gw {
                        let xx = x0 + pw as f64 * bw + (ix as f64 + 0.5) * bw / gw as f64;
                        if yy < -1.0 || yy > h as f64 || xx < -1.0 || xx > w as f64 {
                            taps.push([(0, 0.0); 4]);
                            continue;
                        }
                        let (mut y, mut x) = (yy.max(0.0), xx.max(0.0));
                        let (mut yl, mut xl) = (y as usize, x as usize);
                        let yh = if yl >= hu - 1 {
                            yl = hu - 1;
                            y = yl as f64;
                            yl
                        } else {
                            yl + 1
                        };
                        let xh = if xl >= wu - 1 {
                            xl = wu - 1;
                            x = xl as f64;
                            xl
                        } else {
                            xl + 1
                        };
                        let (ly, lx) = (y - yl as f64, x - xl as f64);
                        let (hy, hx) = (1.0 - ly, 1.0 - lx);
                        taps.push([
                            (yl * wu + xl, hy * hx),
                            (yl * wu + xh, hy * lx),
                            (yh * wu + xl, ly * hx),
                            (yh * wu + xh, ly * lx),
                        ]);
                    }
                }
            }
        }
        for ci in 0..c as usize {
            let base = (bi as usize * c as usize + ci) * hu * wu;
            let at = |p: usize| x.data.get_f64(base + p);
            for bin in taps.chunks(gh * gw).take((oh * ow) as usize) {
                let v = if max_mode {
                    bin.iter()
                        .map(|t| t.iter().map(|&(p, wt)| wt * at(p)).fold(f64::NEG_INFINITY, f64::max))
                        .fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| m.max(v))))
                        .unwrap_or(0.0)
                } else {
                    bin.iter().map(|t| t.iter().map(|&(p, wt)| wt * at(p)).sum::<f64>()).sum::<f64>() / count
                };
                out.push(v);
            }
        }
    }
    Ok(vec![Array::new([r, c, oh, ow], ArrayData::from_f64(x.dtype(), out))])
}

/// `MaxRoiPool`: per region `[batch, x1, y1, x2, y2]` (corners scaled by
/// `spatial_scale` and rounded half away from zero, both inclusive), the
/// maximum of each of `pooled_shape` bins (a NaN in a bin gives NaN, as
/// `MaxPool` does); a bin outside the image is 0. ONNX's reference
/// evaluator has no rule for it, so the bins follow onnxruntime's (Caffe's)
/// arithmetic, bin sizes in f32, where a bin's floor and ceiling can differ
/// from f64's.
pub fn max_roi_pool(node: &Node, args: &[Array]) -> Result<Vec<Array>> {
    let x = arg(node, args, 0)?;
    let rois = arg(node, args, 1)?;
    let [n, c, h, w] = x.dims[..] else {
        return Err(GraphError::node(node, format!("X {:?} must be [N, C, H, W]", x.dims)));
    };
    let [r, 5] = rois.dims[..] else {
        return Err(GraphError::node(node, format!("rois {:?} must be [R, 5]", rois.dims)));
    };
    let (ph, pw) = match node.ints("pooled_shape") {
        Some(&[ph, pw]) if ph > 0 && pw > 0 => (ph, pw),
        other => {
            return Err(GraphError::node(node, format!("needs a pooled_shape of two positive sizes, got {other:?}")));
        }
    };
    let scale = node.float("spatial_scale").unwrap_or(1.0);
    let (hu, wu) = (h as usize, w as usize);
    let mut out = Vec::with_capacity((r * c * ph * pw) as usize);
    for ri in 0..r as usize {
        let roi = |k: usize| rois.data.get_f64(ri * 5 + k);
        let bi = roi(0) as i64;
        if !(0..n).contains(&bi) {
            return Err(GraphError::node(node, format!("batch index {bi} of region {ri} is outside 0..{n}")));
        }
        let corner = |k: usize| (roi(k) as f32 * scale).round() as i64;
        let (x0, y0, x1, y1) = (corner(1), corner(2), corner(3), corner(4));
        let bin_h = (y1 - y0 + 1).max(1) as f32 / ph as f32;
        let bin_w = (x1 - x0 + 1).max(1) as f32 / pw as f32;
        let span = |i: i64, bin: f32, start: i64, limit: i64| {
            let lo = ((i as f32 * bin).floor() as i64 + start).clamp(0, limit);
            let hi = (((i + 1) as f32 * bin).ceil() as i64 + start).clamp(0, limit);
            (lo as usize, hi as usize)
        };
        for ci in 0..c as usize {
            let base = (bi as usize * c as usize + ci) * hu * wu;
            for i in 0..ph {
                let (ya, yb) = span(i, bin_h, y0, h);
                for j in 0..pw {
                    let (xa, xb) = span(j, bin_w, x0, w);
                    let v = (ya..yb)
                        .flat_map(|y| (xa..xb).map(move |x| y * wu + x))
                        .map(|p| x.data.get_f64(base + p))
                        .fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| if v > m || v.is_nan() { v } else { m })));
                    out.push(v.unwrap_or(0.0));
                }
            }
        }
    }
    Ok(vec![Array::new([r, c, ph, pw], ArrayData::from_f64(x.dtype(), out))])
}

/// `Compress(input, condition)`: the slices along `axis` (every element of
/// the flattened input without it) where `condition` holds; a condition
/// shorter than the axis leaves the rest out.
pub fn compress(node: &Node, args: &[Array]) -> Result<Vec<Array>> {
    let x = arg(node, args, 0)?;
    let cond = arg(node, args, 1)?;
    if cond.dims.len() != 1 {
        return Err(GraphError::node(node, format!("the condition must be 1-D, not {:?}", cond.dims)));
    }
    let (dims, axis): (Vec<i64>, usize) = match node.int("axis") {
        Some(a) => (x.dims.to_vec(), super::util::norm_axis(node, a, x.dims.len())?),
        None => (vec![x.len() as i64], 0),
    };
    let n = dims[axis] as usize;
    if cond.len() > n {
        return Err(GraphError::node(node, format!("a condition of {} for an axis of {n}", cond.len())));
    }
    let kept: Vec<usize> = (0..cond.len()).filter(|&i| cond.data.get_f64(i) != 0.0).collect();
    let outer: usize = dims[..axis].iter().product::<i64>() as usize;
    let inner: usize = dims[axis + 1..].iter().product::<i64>() as usize;
    let mut src = Vec::with_capacity(outer * kept.len() * inner);
    for o in 0..outer {
        for &i in &kept {
            let base = (o * n + i) * inner;
            src.extend(base..base + inner);
        }
    }
    let mut out = dims;
    out[axis] = kept.len() as i64;
    Ok(vec![Array::new(out.as_slice(), x.data.gather(&src))])
}
