//! `Resize` (opsets 11 to 19; `Upsample` and opset 10's `Resize` are
//! rewritten to it on import). The output size is static, so each resized
//! axis is a fixed linear map: for every output position the source indices
//! and weights are computed here, on the host, in f64, and applied as an HLO
//! gather (nearest) or one gather per tap (2 for linear, 4 for cubic) and their
//! weighted sum, one axis after the other (the interpolation is separable).

use smelt_hlo::{Array, ArrayData, DType, Dims, Opcode};

use super::shape::take;
use super::util::*;
use crate::graph::lower::{LowerCx, Val};
use crate::graph::{GraphError, Node, Result};

/// The interpolation kernel.
#[derive(Clone, Copy)]
enum Kernel {
    /// The one source element `nearest_mode` picks.
    Nearest(Rounding),
    /// Two taps, weights `1 - t` and `t`.
    Linear,
    /// Four taps, Keys' cubic convolution with coefficient `a`.
    Cubic(f64),
}

/// `nearest_mode`: which neighbour a source coordinate between two elements takes.
#[derive(Clone, Copy)]
enum Rounding {
    PreferFloor,
    PreferCeil,
    Floor,
    Ceil,
}

/// How one axis is resized: the output length, the scale, the crop box (for
/// `tf_crop_and_resize`).
struct AxisPlan {
    axis: usize,
    out: i64,
    scale: f64,
    roi: (f64, f64),
}

/// The source indices (clamped to the axis) and weights of each output
/// position, `taps` per position, and the positions outside the crop box.
struct Taps {
    taps: usize,
    idx: Vec<i64>,
    w: Vec<f64>,
    outside: Vec<bool>,
}

const COORD_MODES: &[&str] = &[
    "half_pixel",
    "half_pixel_symmetric",
    "pytorch_half_pixel",
    "align_corners",
    "asymmetric",
    "tf_crop_and_resize",
    "tf_half_pixel_for_nn",
];

/// The input coordinate output position `y` maps to (ONNX's
/// `coordinate_transformation_mode`); `len` is the input length, `out` the
/// output length and `scale` its ratio to `len` (before flooring the output).
fn source_coord(mode: &str, y: f64, scale: f64, len: i64, out: i64, roi: (f64, f64)) -> f64 {
    let len_f = len as f64;
    let resized = scale * len_f;
    match mode {
        "align_corners" if resized == 1.0 => 0.0,
        "align_corners" => y * (len_f - 1.0) / (resized - 1.0),
        "asymmetric" => y / scale,
        "tf_crop_and_resize" => {
            let x = if resized == 1.0 {
                (roi.1 - roi.0) * (len_f - 1.0) / 2.0
            } else {
                y * (roi.1 - roi.0) * (len_f - 1.0) / (resized - 1.0)
            };
            x + roi.0 * (len_f - 1.0)
        }
        "pytorch_half_pixel" if resized == 1.0 => -0.5,
        "half_pixel_symmetric" => {
            let offset = len_f / 2.0 * (1.0 - out as f64 / resized);
            offset + (y + 0.5) / scale - 0.5
        }
        "tf_half_pixel_for_nn" => (y + 0.5) / scale,
        // half_pixel, and pytorch_half_pixel past one output element.
        _ => (y + 0.5) / scale - 0.5,
    }
}

/// Keys' cubic convolution kernel with coefficient `a` as the cubic
/// `((c0 d + c1) d + c2) d + c3` in the distance `d` from the coordinate:
/// `(a + 2) d^3 - (a + 3) d^2 + 1` for the two nearer taps (`d < 1`),
/// `a d^3 - 5 a d^2 + 8 a d - 4 a` for the two farther (`1 <= d < 2`).
/// `Resize` evaluates it on the host, `GridSample` in HLO.
fn keys_cubic(a: f64, near: bool) -> [f64; 4] {
    if near { [a + 2.0, -(a + 3.0), 0.0, 1.0] } else { [a, -5.0 * a, 8.0 * a, -4.0 * a] }
}

/// Keys' cubic convolution weights of the 4 taps around a coordinate `t`
/// past the second tap.
fn cubic_weights(t: f64, a: f64) -> [f64; 4] {
    let at = |near: bool, d: f64| keys_cubic(a, near).iter().fold(0.0, |acc, c| acc * d + c);
    [at(false, t + 1.0), at(true, t), at(true, 1.0 - t), at(false, 2.0 - t)]
}

/// The taps of every output position along one axis of length `len`,
/// following the ONNX reference: a source coordinate that falls on an element
/// counts as lying `1` past the element before it, taps beyond the axis read
/// its edge, and with `exclude` their weights become 0 and the rest are
/// renormalized.
fn axis_taps(kernel: Kernel, mode: &str, exclude: bool, len: i64, p: &AxisPlan) -> Taps {
    let taps = match kernel {
        Kernel::Nearest(_) | Kernel::Linear => 2,
        Kernel::Cubic(_) => 4,
    };
    let n = p.out as usize;
    let mut t = Taps { taps, idx: Vec::with_capacity(n * taps), w: Vec::with_capacity(n * taps), outside: vec![] };
    for j in 0..n {
        let x = source_coord(mode, j as f64, p.scale, len, p.out, p.roi);
        if mode == "tf_crop_and_resize" {
            t.outside.push(x < 0.0 || x > (len - 1) as f64);
        }
        let fl = x.floor();
        let on_element = x == fl;
        let ratio = if on_element { 1.0 } else { x - fl };
        let half = (taps / 2) as i64;
        let start = fl as i64 - half + i64::from(!on_element);
        let mut w: Vec<f64> = match kernel {
            Kernel::Nearest(r) => {
                let ceil = on_element
                    || match r {
                        Rounding::PreferFloor => ratio > 0.5,
                        Rounding::PreferCeil => ratio >= 0.5,
                        Rounding::Floor => false,
                        Rounding::Ceil => true,
                    };
                if ceil { vec![0.0, 1.0] } else { vec![1.0, 0.0] }
            }
            Kernel::Linear => vec![1.0 - ratio, ratio],
            Kernel::Cubic(a) => cubic_weights(ratio, a).to_vec(),
        };
        let idx: Vec<i64> = (0..taps as i64).map(|k| start + k).collect();
        if exclude {
            for (wk, &i) in w.iter_mut().zip(&idx) {
                if i < 0 || i >= len {
                    *wk = 0.0;
                }
            }
            let sum: f64 = w.iter().sum();
            if sum != 0.0 {
                w.iter_mut().for_each(|wk| *wk /= sum);
            }
        }
        t.idx.extend(idx.iter().map(|&i| i.clamp(0, len - 1)));
        t.w.extend(w);
    }
    t
}

/// `x` resized along one axis by `t`.
fn apply_taps(cx: &mut LowerCx<'_>, node: &Node, x: &Val, axis: usize, t: &Taps) -> Result<Val> {
    let out = (t.idx.len() / t.taps) as i64;
    // Every position reading one element whole (nearest, or sources on
    // elements): a plain gather, exact and for any dtype.
    let single: Option<Vec<i64>> =
        t.w.chunks(t.taps)
            .zip(t.idx.chunks(t.taps))
            .map(|(w, i)| {
                let k = w.iter().position(|&v| v == 1.0)?;
                w.iter().enumerate().all(|(j, &v)| j == k || v == 0.0).then_some(i[k])
            })
            .collect();
    let y = if let Some(single) = single {
        let idx = cx.constant(node, s64_vec(single))?;
        take(cx, node, x, &idx, axis)?
    } else {
        if !x.dtype.is_float() {
            return Err(GraphError::node(node, format!("cannot interpolate {} values", x.dtype)));
        }
        // One gather per tap, scaled by its weights and summed; taps that
        // weigh 0 everywhere are skipped.
        let mut sum: Option<Val> = None;
        for k in 0..t.taps {
            let w: Vec<f64> = t.w.iter().skip(k).step_by(t.taps).copied().collect();
            if w.iter().all(|&v| v == 0.0) {
                continue;
            }
            let idx: Vec<i64> = t.idx.iter().skip(k).step_by(t.taps).copied().collect();
            let idx = cx.constant(node, s64_vec(idx))?;
            let g = take(cx, node, x, &idx, axis)?;
            let w = cx.constant(node, Array::new([out], ArrayData::from_f64(x.dtype, w)))?;
            let w = emit(cx, node, |b| b.broadcast(w.id, &g.dims, &[axis as i64]))?;
            let term = emit(cx, node, |b| b.binary(Opcode::Multiply, g.id, w.id))?;
            sum = Some(match sum {
                Some(acc) => emit(cx, node, |b| b.binary(Opcode::Add, acc.id, term.id))?,
                None => term,
            });
        }
        match sum {
            Some(y) => y,
            // Every weight 0 (exclude_outside with no tap inside): zeros.
            None => {
                let mut dims = x.dims.clone();
                dims[axis] = out;
                splat(cx, node, x.dtype, 0.0, &dims)?
            }
        }
    };
    if !t.outside.iter().any(|&o| o) {
        return Ok(y);
    }
    let value = float_attr(node, "extrapolation_value", 0.0) as f64;
    let mask = cx.constant(node, Array::new([out], ArrayData::Pred(t.outside.clone())))?;
    let mask = emit(cx, node, |b| b.broadcast(mask.id, &y.dims, &[axis as i64]))?;
    let fill = splat(cx, node, y.dtype, value, &y.dims)?;
    emit(cx, node, |b| b.select(mask.id, fill.id, y.id))
}

/// A present input that holds at least one element (ONNX models pass an
/// empty tensor for an unused `roi` or `scales`).
fn given(inputs: &[Option<Val>], i: usize) -> bool {
    opt_input(inputs, i).is_some_and(|v| v.dims.iter().product::<i64>() > 0)
}

/// `Resize(X, roi, scales, sizes)`: `X` resampled to a new size on the
/// `axes` (default all), given by `scales` (output length `floor(len *
/// scale)`) or `sizes`, which must be compile-time constants.
pub fn resize(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let r = x.dims.len();
    if int_attr(node, "antialias", 0) != 0 {
        return Err(GraphError::unsupported(node, "antialias=1 (antialiased downsampling)"));
    }
    let policy = node.string("keep_aspect_ratio_policy").unwrap_or("stretch");
    if policy != "stretch" {
        return Err(GraphError::unsupported(node, format!("keep_aspect_ratio_policy=\"{policy}\" (only \"stretch\")")));
    }
    let coord = node.string("coordinate_transformation_mode").unwrap_or("half_pixel");
    if !COORD_MODES.contains(&coord) {
        return Err(GraphError::unsupported(node, format!("coordinate_transformation_mode=\"{coord}\"")));
    }
    let kernel = match node.string("mode").unwrap_or("nearest") {
        "nearest" => Kernel::Nearest(match node.string("nearest_mode").unwrap_or("round_prefer_floor") {
            "round_prefer_floor" => Rounding::PreferFloor,
            "round_prefer_ceil" => Rounding::PreferCeil,
            "floor" => Rounding::Floor,
            "ceil" => Rounding::Ceil,
            m => return Err(GraphError::unsupported(node, format!("nearest_mode=\"{m}\""))),
        }),
        "linear" => Kernel::Linear,
        "cubic" => Kernel::Cubic(float_attr(node, "cubic_coeff_a", -0.75) as f64),
        m => return Err(GraphError::unsupported(node, format!("mode=\"{m}\""))),
    };
    let exclude = int_attr(node, "exclude_outside", 0) != 0;
    let axes: Vec<usize> = match node.ints("axes") {
        Some(a) => {
            let axes: Vec<usize> = a.iter().map(|&d| norm_axis(node, d, r)).collect::<Result<_>>()?;
            if (1..axes.len()).any(|i| axes[..i].contains(&axes[i])) {
                return Err(GraphError::node(node, format!("repeated axis in {a:?}")));
            }
            axes
        }
        None => (0..r).collect(),
    };
    let k = axes.len();
    let want = |what: &str, v: usize, n: usize| -> Result<()> {
        if v == n {
            Ok(())
        } else {
            Err(GraphError::node(node, format!("{what} has {v} entries, want {n} (one per resized axis)")))
        }
    };
    let (scales, outs): (Vec<f64>, Vec<i64>) = match (given(inputs, 2), given(inputs, 3)) {
        (true, false) => {
            let s = const_floats(node, inputs, 2, "scales")?;
            want("scales", s.len(), k)?;
            if let Some(bad) = s.iter().find(|&&v| !(v > 0.0 && v.is_finite())) {
                return Err(GraphError::node(node, format!("scale {bad} must be positive")));
            }
            let outs = axes.iter().zip(&s).map(|(&a, &v)| (v * x.dims[a] as f64) as i64).collect();
            (s, outs)
        }
        (false, true) => {
            let o = const_ints(node, inputs, 3, "sizes")?;
            want("sizes", o.len(), k)?;
            let s = axes.iter().zip(&o).map(|(&a, &v)| v as f64 / x.dims[a] as f64).collect();
            (s, o)
        }
        _ => return Err(GraphError::node(node, "needs exactly one of scales (input 2) and sizes (input 3)")),
    };
    if let Some(o) = outs.iter().find(|&&o| o < 1) {
        return Err(GraphError::node(node, format!("output length {o} must be at least 1")));
    }
    let roi = if coord == "tf_crop_and_resize" && given(inputs, 1) {
        let v = const_floats(node, inputs, 1, "roi")?;
        want("roi", v.len(), 2 * k)?;
        (0..k).map(|i| (v[i], v[k + i])).collect()
    } else {
        vec![(0.0, 1.0); k]
    };
    if let Some(&a) = axes.iter().find(|&&a| x.dims[a] < 1) {
        return Err(GraphError::node(node, format!("cannot resize the empty axis {a}")));
    }
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * a.abs().max(b.abs());
    // Integers interpolate in f64 and are rounded (half to even) and clamped
    // back at the end, as ONNX's reference does; nearest reads them as they are.
    let int_range = match kernel {
        Kernel::Nearest(_) => None,
        _ => int_range(x.dtype),
    };
    let mut y = if int_range.is_some() { convert(cx, node, x, DType::F64)? } else { x.clone() };
    for (i, &axis) in axes.iter().enumerate() {
        let p = AxisPlan { axis, out: outs[i], scale: scales[i], roi: roi[i] };
        let len = x.dims[axis];
        let identity = close(p.scale, 1.0) && p.out == len && close(p.roi.0, 0.0) && close(p.roi.1, 1.0);
        if identity {
            continue;
        }
        let t = axis_taps(kernel, coord, exclude, len, &p);
        y = apply_taps(cx, node, &y, p.axis, &t)?;
    }
    if let Some((lo, hi)) = int_range {
        let r = unary(cx, node, Opcode::RoundNearestEven, &y)?;
        let lo = splat(cx, node, DType::F64, lo, &r.dims)?;
        let hi = splat(cx, node, DType::F64, hi, &r.dims)?;
        let r = emit(cx, node, |b| b.binary(Opcode::Maximum, r.id, lo.id))?;
        let r = emit(cx, node, |b| b.binary(Opcode::Minimum, r.id, hi.id))?;
        y = convert(cx, node, &r, x.dtype)?;
    }
    Ok(vec![y])
}

/// The range of an integer type, as f64 (None for other types).
fn int_range(t: DType) -> Option<(f64, f64)> {
    Some(match t {
        DType::S8 => (i8::MIN as f64, i8::MAX as f64),
        DType::S16 => (i16::MIN as f64, i16::MAX as f64),
        DType::S32 => (i32::MIN as f64, i32::MAX as f64),
        DType::S64 => (i64::MIN as f64, i64::MAX as f64),
        DType::U8 => (0.0, u8::MAX as f64),
        DType::U16 => (0.0, u16::MAX as f64),
        DType::U32 => (0.0, u32::MAX as f64),
        DType::U64 => (0.0, u64::MAX as f64),
        _ => return None,
    })
}

/// [`keys_cubic`] with `a = -0.75` (what `GridSample`'s reference uses) at
/// `distance`, in HLO.
fn cubic_weight(cx: &mut LowerCx<'_>, node: &Node, distance: &Val, near: bool) -> Result<Val> {
    let coeffs = keys_cubic(-0.75, near);
    let mut acc = splat(cx, node, distance.dtype, coeffs[0], &distance.dims)?;
    for &c in &coeffs[1..] {
        acc = emit(cx, node, |b| b.binary(Opcode::Multiply, acc.id, distance.id))?;
        let c = splat(cx, node, distance.dtype, c, &distance.dims)?;
        acc = emit(cx, node, |b| b.binary(Opcode::Add, acc.id, c.id))?;
    }
    Ok(acc)
}

/// `GridSample` of `X[N, C, D1..Dr]` (images, volumes, ...) at `grid[N,
/// D1'..Dr', r]` (coordinates in [-1, 1], the innermost axis's first): modes `bilinear`/`linear`, `bicubic`/`cubic` (4 x 4 taps of
/// [`keys_cubic`]) and `nearest` (half to even), padding
/// `zeros`, `border` and `reflection`, `align_corners`, as ONNX's reference
/// computes them: a coordinate outside the border range is clamped
/// (`border`) or reflected (`reflection`) first, then each tap reads 0
/// (`zeros`), the clamped or the reflected pixel when it falls outside.
/// Each combination of one tap per axis is one HLO gather of all channels
/// at `(n, z, y, x)`.
pub fn grid_sample(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let grid = input(node, inputs, 1)?;
    let mode = node.string("mode").unwrap_or("bilinear");
    // Opset 16 says bilinear and bicubic, opset 20 linear and cubic.
    let (nearest, cubic) = match mode {
        "bilinear" | "linear" => (false, false),
        "bicubic" | "cubic" => (false, true),
        "nearest" => (true, false),
        other => return Err(GraphError::unsupported(node, format!("mode '{other}'"))),
    };
    let padding = node.string("padding_mode").unwrap_or("zeros");
    if !matches!(padding, "zeros" | "border" | "reflection") {
        return Err(GraphError::unsupported(node, format!("padding_mode '{padding}'")));
    }
    let align = int_attr(node, "align_corners", 0) != 0;
    Ok(vec![sample_grid(cx, node, x, grid, Sampling { nearest, cubic, padding, align, pixels: false })?])
}

/// How [`sample_grid`] reads between pixels: `GridSample`'s attributes.
pub struct Sampling<'a> {
    pub nearest: bool,
    pub cubic: bool,
    /// `zeros`, `border` or `reflection`.
    pub padding: &'a str,
    pub align: bool,
    /// The grid holds pixel coordinates (the frame `align_corners`
    /// normalizes from) rather than normalized ones.
    pub pixels: bool,
}

/// `GridSample`'s rule: `x` (`[N, C, D1..Dr]`) read at every point of `grid`
/// (`[N, D1'..Dr', r]`, normalized coordinates, the innermost axis's first),
/// as `[N, C, D1'..Dr']`. `DeformConv` samples through it too.
pub fn sample_grid(cx: &mut LowerCx<'_>, node: &Node, x: &Val, grid: &Val, how: Sampling<'_>) -> Result<Val> {
    use smelt_hlo::attrs::{ComparisonDirection as Dir, GatherAttrs};
    let Sampling { nearest, cubic, padding, align, pixels } = how;
    let align = align || pixels;
    // X[N, C, D1..Dr], grid[N, D1'..Dr', r] with the coordinates of the
    // innermost axis first (x, y, z).
    let r = x.dims.len().saturating_sub(2);
    if r == 0
        || grid.dims.len() != r + 2
        || grid.dims[0] != x.dims[0]
        || grid.dims[r + 1] != r as i64
        || !x.dtype.is_float()
    {
        return Err(GraphError::node(node, format!("grid {:?} for inputs {:?}", grid.dims, x.dims)));
    }
    let c = x.dims[1];
    let t = x.dtype;
    let pts = grid.dims[..r + 1].to_vec();
    let grid = convert(cx, node, grid, t)?;
    // One coordinate of every point: grid[..., k], as [N, D1'..Dr'].
    let coord = |cx: &mut LowerCx<'_>, k: i64| -> Result<Val> {
        let (mut lo, mut hi) = (vec![0; r + 2], grid.dims.clone());
        (lo[r + 1], hi[r + 1]) = (k, k + 1);
        let s = emit(cx, node, |b| b.slice(grid.id, &lo, &hi, &vec![1; r + 2]))?;
        reshape(cx, node, &s, &pts)
    };
    let k = |cx: &mut LowerCx<'_>, v: f64| splat(cx, node, t, v, &pts);
    let bin = |cx: &mut LowerCx<'_>, op: Opcode, a: &Val, b: &Val| emit(cx, node, |bl| bl.binary(op, a.id, b.id));
    let sel = |cx: &mut LowerCx<'_>, p: &Val, a: &Val, b: &Val| emit(cx, node, |bl| bl.select(p.id, a.id, b.id));
    let cmp = |cx: &mut LowerCx<'_>, d: Dir, a: &Val, b: &Val| emit(cx, node, |bl| bl.compare(d, a.id, b.id));
    // The reference's `_gs_reflect`: reflect `v` by the nearer border until
    // it lies in [lo, hi].
    let reflect = |cx: &mut LowerCx<'_>, v: &Val, lo: f64, hi: f64| -> Result<Val> {
        let (lo_v, hi_v) = (k(cx, lo)?, k(cx, hi)?);
        let span = k(cx, (hi - lo).max(f64::MIN_POSITIVE))?;
        let below = cmp(cx, Dir::Lt, v, &lo_v)?;
        let above = cmp(cx, Dir::Gt, v, &hi_v)?;
        let d_lo = bin(cx, Opcode::Subtract, &lo_v, v)?;
        let d_hi = bin(cx, Opcode::Subtract, v, &hi_v)?;
        let zero = k(cx, 0.0)?;
        let d = sel(cx, &above, &d_hi, &zero)?;
        let d = sel(cx, &below, &d_lo, &d)?;
        let q = bin(cx, Opcode::Divide, &d, &span)?;
        let turns = emit(cx, node, |b| b.unary(Opcode::Floor, q.id))?;
        let whole = bin(cx, Opcode::Multiply, &turns, &span)?;
        let r = bin(cx, Opcode::Subtract, &d, &whole)?;
        let half = k(cx, 0.5)?;
        let halves = bin(cx, Opcode::Multiply, &turns, &half)?;
        let halves_floor = emit(cx, node, |b| b.unary(Opcode::Floor, halves.id))?;
        let even = cmp(cx, Dir::Eq, &halves, &halves_floor)?;
        let lo_r = bin(cx, Opcode::Add, &lo_v, &r)?;
        let hi_r = bin(cx, Opcode::Subtract, &hi_v, &r)?;
        let from_below = sel(cx, &even, &lo_r, &hi_r)?;
        let from_above = sel(cx, &even, &hi_r, &lo_r)?;
        let out = sel(cx, &above, &from_above, v)?;
        sel(cx, &below, &from_below, &out)
    };
    // Pixel coordinates, rounded (nearest), then brought inside the border.
    // Per spatial axis, in the input's order (grid coordinate r - 1 - i).
    let mut axes = Vec::with_capacity(r);
    for i in 0..r {
        let (gk, d) = ((r - 1 - i) as i64, x.dims[2 + i]);
        let g = coord(cx, gk)?;
        let one = k(cx, 1.0)?;
        let g1 = bin(cx, Opcode::Add, &g, &one)?;
        let mut v = if pixels {
            g
        } else if align {
            let s = k(cx, (d - 1) as f64 / 2.0)?;
            bin(cx, Opcode::Multiply, &g1, &s)?
        } else {
            let s = k(cx, d as f64)?;
            let a = bin(cx, Opcode::Multiply, &g1, &s)?;
            let a = bin(cx, Opcode::Subtract, &a, &one)?;
            let half = k(cx, 0.5)?;
            bin(cx, Opcode::Multiply, &a, &half)?
        };
        if nearest {
            v = emit(cx, node, |b| b.unary(Opcode::RoundNearestEven, v.id))?;
        }
        let (lo, hi) = if align { (0.0, (d - 1) as f64) } else { (-0.5, d as f64 - 0.5) };
        v = match padding {
            // Clamped only from outside [lo, hi]: inside, the taps past the
            // edge read it (the same for linear taps, not for cubic ones).
            "border" => {
                let (a, b_) = (k(cx, 0.0)?, k(cx, (d - 1) as f64)?);
                let clamped = emit(cx, node, |b| b.clamp(a.id, v.id, b_.id))?;
                let (lo_v, hi_v) = (k(cx, lo)?, k(cx, hi)?);
                let below = cmp(cx, Dir::Lt, &v, &lo_v)?;
                let above = cmp(cx, Dir::Gt, &v, &hi_v)?;
                let outside = bin(cx, Opcode::Or, &below, &above)?;
                sel(cx, &outside, &clamped, &v)?
            }
            "reflection" => reflect(cx, &v, lo, hi)?,
            _ => v,
        };
        axes.push((v, d, lo, hi));
    }
    // The taps: per axis (index, weight) pairs.
    let mut taps: Vec<Vec<(Val, Val)>> = Vec::with_capacity(2);
    for (v, _, _, _) in &axes {
        if nearest {
            taps.push(vec![(v.clone(), k(cx, 1.0)?)]);
        } else if cubic {
            // Pixels floor(v) - 1 .. floor(v) + 2 weighted by the cubic
            // convolution kernel (a = -0.75) at their distances 1 + f, f,
            // 1 - f, 2 - f from v, as ONNX's reference weighs them.
            let i0 = emit(cx, node, |b| b.unary(Opcode::Floor, v.id))?;
            let f = bin(cx, Opcode::Subtract, v, &i0)?;
            let mut axis_taps = Vec::with_capacity(4);
            for (offset, near) in [(-1.0, false), (0.0, true), (1.0, true), (2.0, false)] {
                let o = k(cx, offset)?;
                let i = bin(cx, Opcode::Add, &i0, &o)?;
                let distance = bin(cx, Opcode::Subtract, &f, &o)?;
                let distance = emit(cx, node, |b| b.unary(Opcode::Abs, distance.id))?;
                axis_taps.push((i, cubic_weight(cx, node, &distance, near)?));
            }
            taps.push(axis_taps);
        } else {
            let i0 = emit(cx, node, |b| b.unary(Opcode::Floor, v.id))?;
            let one = k(cx, 1.0)?;
            let i1 = bin(cx, Opcode::Add, &i0, &one)?;
            let w1 = bin(cx, Opcode::Subtract, v, &i0)?;
            let w0 = bin(cx, Opcode::Subtract, &one, &w1)?;
            taps.push(vec![(i0, w0), (i1, w1)]);
        }
    }
    // A tap's index made readable per the padding, and whether it counts.
    let place = |cx: &mut LowerCx<'_>, i: &Val, d: i64, lo: f64, hi: f64| -> Result<(Val, Option<Val>)> {
        let (zero, last) = (k(cx, 0.0)?, k(cx, (d - 1) as f64)?);
        match padding {
            "zeros" => {
                let ge = cmp(cx, Dir::Ge, i, &zero)?;
                let le = cmp(cx, Dir::Le, i, &last)?;
                let inside = bin(cx, Opcode::And, &ge, &le)?;
                Ok((emit(cx, node, |b| b.clamp(zero.id, i.id, last.id))?, Some(inside)))
            }
            "border" => Ok((emit(cx, node, |b| b.clamp(zero.id, i.id, last.id))?, None)),
            _ => {
                let r = reflect(cx, i, lo, hi)?;
                // The reference truncates toward zero; the result is at least lo >= -0.5.
                let r = emit(cx, node, |b| b.unary(Opcode::Floor, r.id))?;
                Ok((emit(cx, node, |b| b.clamp(zero.id, r.id, last.id))?, None))
            }
        }
    };
    let column = [&pts[..], &[1]].concat();
    let batch = emit(cx, node, |b| b.iota(smelt_hlo::Shape::array(DType::S64, &pts), 0))?;
    let batch = reshape(cx, node, &batch, &column)?;
    let mut total: Option<Val> = None;
    // Each tap placed once per axis, then combined.
    let mut placed: Vec<Vec<(Val, Option<Val>, Val)>> = Vec::with_capacity(r);
    for (axis_taps, (_, d, lo, hi)) in taps.iter().zip(&axes) {
        let (d, lo, hi) = (*d, *lo, *hi);
        let mut row = Vec::with_capacity(axis_taps.len());
        for (i, wgt) in axis_taps {
            let (at, inside) = place(cx, i, d, lo, hi)?;
            row.push((convert(cx, node, &at, DType::S64)?, inside, wgt.clone()));
        }
        placed.push(row);
    }
    // Every combination of one tap per axis: its weight (zero where a
    // `zeros` tap falls outside) times one gather of all channels.
    let combos: usize = placed.iter().map(Vec::len).product();
    let mut out_dims = pts.clone();
    out_dims.push(c);
    for combo in 0..combos {
        let (mut rest, mut weight, mut at) = (combo, None::<Val>, vec![batch.id]);
        for axis in &placed {
            let (i, inside, w) = &axis[rest % axis.len()];
            rest /= axis.len();
            let mut w = match weight {
                None => w.clone(),
                Some(acc) => bin(cx, Opcode::Multiply, &acc, w)?,
            };
            if let Some(inside) = inside {
                let zero = k(cx, 0.0)?;
                w = sel(cx, inside, &w, &zero)?;
            }
            weight = Some(w);
            at.push(reshape(cx, node, i, &column)?.id);
        }
        let weight = weight.expect("one axis at least");
        let at = emit(cx, node, |b| b.concatenate(&at, (r + 1) as i64))?;
        let spatial: Vec<i64> = (2..r as i64 + 2).collect();
        let g = GatherAttrs {
            offset_dims: Dims::from_slice(&[r as i64 + 1]),
            collapsed_slice_dims: [&[0][..], &spatial].concat().into_iter().collect(),
            start_index_map: [&[0][..], &spatial].concat().into_iter().collect(),
            operand_batching_dims: Dims::new(),
            start_indices_batching_dims: Dims::new(),
            index_vector_dim: r as i64 + 1,
            slice_sizes: [&[1, c][..], &vec![1; r]].concat().into_iter().collect(),
            indices_are_sorted: false,
        };
        let shape = smelt_hlo::Shape::array(t, &out_dims);
        let px = emit(cx, node, |b| {
            b.add_instruction(Opcode::Gather, &[x.id, at.id], smelt_hlo::Attrs::Gather(Box::new(g)), &[], Some(shape))
        })?;
        let lead: Vec<i64> = (0..r as i64 + 1).collect();
        let weight = emit(cx, node, |b| b.broadcast(weight.id, &out_dims, &lead))?;
        let term = bin(cx, Opcode::Multiply, &px, &weight)?;
        total = Some(match total {
            None => term,
            Some(acc) => bin(cx, Opcode::Add, &acc, &term)?,
        });
    }
    let total = total.expect("one tap at least");
    let perm: Vec<i64> = [&[0, r as i64 + 1][..], &(1..r as i64 + 1).collect::<Vec<_>>()].concat();
    transpose(cx, node, &total, &perm)
}

/// `AffineGrid(theta, size)`: the sampling grid of a spatial transformer,
/// `grid[n, p] = theta[n] @ (x_p, y_p, [z_p,] 1)` for every position `p` of
/// the output `size` (`[N, C, H, W]` or `[N, C, D, H, W]`, known while
/// lowering), the base coordinates spanning [-1, 1] per axis: pixel
/// corners with `align_corners`, else pixel centers, as ONNX's reference
/// builds them; `theta` is `[N, 2, 3]` or `[N, 3, 4]`. The grid is
/// `[N, H, W, 2]` or `[N, D, H, W, 3]`, what `GridSample` reads.
pub fn affine_grid(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let theta = input(node, inputs, 0)?;
    let size = const_ints(node, inputs, 1, "size")?;
    let r = size.len().saturating_sub(2);
    let r64 = r as i64;
    if !matches!(r, 2 | 3) || theta.dims != [size[0], r64, r64 + 1] || !theta.dtype.is_float() {
        return Err(GraphError::node(
            node,
            format!(
                "takes theta [N, 2, 3] with a 4-D size or [N, 3, 4] with a 5-D one, got {:?} and {size:?}",
                theta.dims
            ),
        ));
    }
    if size[2..].iter().any(|&d| d < 1) {
        return Err(GraphError::node(node, format!("size {size:?} has an empty spatial dim")));
    }
    let align = int_attr(node, "align_corners", 0) != 0;
    let (t, spatial) = (theta.dtype, &size[2..]);
    let points: i64 = spatial.iter().product();
    let column = [spatial, &[1]].concat();
    // The homogeneous base coordinates, innermost axis first: (x, y, [z,] 1).
    let mut parts = Vec::with_capacity(r + 1);
    for axis in (0..r).rev() {
        let len = spatial[axis];
        let (step, start) = if align {
            (if len > 1 { 2.0 / (len - 1) as f64 } else { 0.0 }, -1.0)
        } else {
            (2.0 / len as f64, -1.0 + 1.0 / len as f64)
        };
        let i = emit(cx, node, |b| b.iota(smelt_hlo::Shape::array(t, spatial), axis as i64))?;
        let step = splat(cx, node, t, step, spatial)?;
        let start = splat(cx, node, t, start, spatial)?;
        let scaled = emit(cx, node, |b| b.binary(Opcode::Multiply, i.id, step.id))?;
        let coord = emit(cx, node, |b| b.binary(Opcode::Add, scaled.id, start.id))?;
        parts.push(reshape(cx, node, &coord, &column)?.id);
    }
    parts.push(splat(cx, node, t, 1.0, &column)?.id);
    let base = emit(cx, node, |b| b.concatenate(&parts, r64))?;
    let base = reshape(cx, node, &base, &[points, r64 + 1])?;
    let dims = smelt_hlo::attrs::DotDims {
        lhs_batch: Dims::new(),
        rhs_batch: Dims::new(),
        lhs_contracting: Dims::from_slice(&[2]),
        rhs_contracting: Dims::from_slice(&[1]),
    };
    let grid = emit(cx, node, |b| b.dot(theta.id, base.id, dims, None))?;
    let grid = transpose(cx, node, &grid, &[0, 2, 1])?;
    let out = [&[size[0]][..], spatial, &[r64]].concat();
    Ok(vec![reshape(cx, node, &grid, &out)?])
}
