//! Reductions: `ReduceSum`/`Mean`/`Max`/`Min`/`Prod`/`SumSquare`/`L1`/`L2`/
//! `LogSum`/`LogSumExp` (axes as an input from opset 13/18, as an attribute before) and
//! `ArgMax`/`ArgMin`.

use smelt_hlo::attrs::{ComparisonDirection, PadDim, Window, WindowDim};
use smelt_hlo::builder::Reducer;
use smelt_hlo::{Attrs, DType, Opcode, Shape};

use super::util::*;
use crate::graph::lower::{LowerCx, Val};
use crate::graph::{GraphError, Node, Result};

/// The axes a reduction reduces, or None when it is the identity
/// (`noop_with_empty_axes=1` and no axes).
fn reduction_axes(node: &Node, inputs: &[Option<Val>], rank: usize) -> Result<Option<Vec<usize>>> {
    let axes = ints_input_or_attr(node, inputs, 1, "axes", "axes")?;
    match axes {
        Some(a) if !a.is_empty() => Ok(Some(norm_axes(node, &a, rank)?)),
        _ if int_attr(node, "noop_with_empty_axes", 0) != 0 => Ok(None),
        _ => Ok(Some((0..rank).collect())),
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Sum,
    Mean,
    Max,
    Min,
    Prod,
    SumSquare,
    L1,
    L2,
    LogSum,
    /// `log(sum(exp(x)))`, computed as `m + log(sum(exp(x - m)))` with `m`
    /// the maximum (0 where it is infinite), so large inputs do not overflow.
    LogSumExp,
}

fn reduction(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>], kind: Kind) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let keep = int_attr(node, "keepdims", 1) != 0;
    let Some(axes) = reduction_axes(node, inputs, x.dims.len())? else {
        return Ok(vec![x.clone()]);
    };
    // LogSumExp's shift: the maximum, kept dims, finite.
    let shift = if kind == Kind::LogSumExp {
        let m = reduce(cx, node, x, &axes, Reducer::Max, true)?;
        let finite = emit(cx, node, |b| b.unary(Opcode::IsFinite, m.id))?;
        let zero = splat(cx, node, m.dtype, 0.0, &m.dims)?;
        let m = emit(cx, node, |b| b.select(finite.id, m.id, zero.id))?;
        Some(broadcast_to(cx, node, &m, &x.dims)?)
    } else {
        None
    };
    let src = match kind {
        Kind::SumSquare | Kind::L2 => emit(cx, node, |b| b.binary(Opcode::Multiply, x.id, x.id))?,
        Kind::L1 => unary(cx, node, Opcode::Abs, x)?,
        Kind::LogSumExp => {
            let m = shift.as_ref().expect("made above");
            let d = emit(cx, node, |b| b.binary(Opcode::Subtract, x.id, m.id))?;
            unary(cx, node, Opcode::Exp, &d)?
        }
        _ => x.clone(),
    };
    let reducer = match kind {
        Kind::Sum | Kind::Mean | Kind::SumSquare | Kind::L1 | Kind::L2 | Kind::LogSum | Kind::LogSumExp => Reducer::Add,
        Kind::Max => Reducer::Max,
        Kind::Min => Reducer::Min,
        Kind::Prod => Reducer::Mul,
    };
    let r = reduce(cx, node, &src, &axes, reducer, keep)?;
    match kind {
        Kind::Mean => {
            let n: i64 = axes.iter().map(|&a| x.dims[a]).product();
            let c = splat(cx, node, r.dtype, n as f64, &r.dims)?;
            Ok(vec![emit(cx, node, |b| b.binary(Opcode::Divide, r.id, c.id))?])
        }
        Kind::L2 => Ok(vec![unary(cx, node, Opcode::Sqrt, &r)?]),
        Kind::LogSum => Ok(vec![unary(cx, node, Opcode::Log, &r)?]),
        Kind::LogSumExp => {
            let l = unary(cx, node, Opcode::Log, &r)?;
            let m = reduce(cx, node, shift.as_ref().expect("made above"), &axes, Reducer::Max, keep)?;
            Ok(vec![emit(cx, node, |b| b.binary(Opcode::Add, l.id, m.id))?])
        }
        _ => Ok(vec![r]),
    }
}

rules_via!(reduction, Kind {
    reduce_sum => Sum;
    reduce_mean => Mean;
    reduce_max => Max;
    reduce_min => Min;
    reduce_prod => Prod;
    reduce_sum_square => SumSquare;
    reduce_l1 => L1;
    reduce_l2 => L2;
    reduce_log_sum => LogSum;
    reduce_log_sum_exp => LogSumExp;
});

/// `ArgMax`/`ArgMin`: the extreme value along `axis`, then the first (or,
/// with `select_last_index=1`, last) position holding it, as s64.
fn arg(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>], max: bool) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let axis = norm_axis(node, int_attr(node, "axis", 0), x.dims.len())?;
    let keep = int_attr(node, "keepdims", 1) != 0;
    let last = int_attr(node, "select_last_index", 0) != 0;
    Ok(vec![extreme_index(cx, node, x, axis, max, last, keep)?])
}

/// The first (or `last`) position along `axis` of `x`'s maximum (or
/// minimum), as s64; a NaN counts as the extreme, as numpy's `argmax` and
/// ONNX's reference take it (the max and min reductions propagate NaN, and
/// a NaN equals nothing, so NaNs are hits of their own).
pub(super) fn extreme_index(
    cx: &mut LowerCx<'_>,
    node: &Node,
    x: &Val,
    axis: usize,
    max: bool,
    last: bool,
    keep: bool,
) -> Result<Val> {
    let m = reduce(cx, node, x, &[axis], if max { Reducer::Max } else { Reducer::Min }, true)?;
    let m = broadcast_to(cx, node, &m, &x.dims)?;
    let mut hit = emit(cx, node, |b| b.compare(ComparisonDirection::Eq, x.id, m.id))?;
    if x.dtype.is_float() {
        let nan = emit(cx, node, |b| b.compare(ComparisonDirection::Ne, x.id, x.id))?;
        hit = emit(cx, node, |b| b.binary(Opcode::Or, hit.id, nan.id))?;
    }
    let t = DType::S64;
    let iota = emit(cx, node, |b| b.iota(Shape::array(t, &x.dims), axis as i64))?;
    let fill = if last { -1 } else { x.dims[axis] };
    let f = splat(cx, node, t, fill as f64, &x.dims)?;
    let cand = emit(cx, node, |b| b.select(hit.id, iota.id, f.id))?;
    reduce(cx, node, &cand, &[axis], if last { Reducer::Max } else { Reducer::Min }, keep)
}

pub fn arg_max(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    arg(cx, node, inputs, true)
}

pub fn arg_min(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    arg(cx, node, inputs, false)
}

/// `CumSum(x, axis)`: running sums along `axis`, from the start (or, with
/// `reverse=1`, from the end), each including its own element unless
/// `exclusive=1`. An HLO reduce-window whose window spans the axis, padded by
/// `n - 1` before it (after it when reversed): how JAX lowers `cumsum`.
pub fn cum_sum(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let axis = match const_ints(node, inputs, 1, "axis")?[..] {
        [a] => norm_axis(node, a, x.dims.len())?,
        ref v => return Err(GraphError::node(node, format!("axis must be one integer, got {v:?}"))),
    };
    let exclusive = int_attr(node, "exclusive", 0) != 0;
    let reverse = int_attr(node, "reverse", 0) != 0;
    let n = x.dims[axis];
    if n == 0 {
        return Ok(vec![x.clone()]);
    }
    let window = Window {
        dims: (0..x.dims.len())
            .map(|d| {
                if d != axis {
                    WindowDim::of_size(1)
                } else if reverse {
                    WindowDim { pad_high: n - 1, ..WindowDim::of_size(n) }
                } else {
                    WindowDim { pad_low: n - 1, ..WindowDim::of_size(n) }
                }
            })
            .collect(),
    };
    let init = reduce_init(cx, node, Reducer::Add, x.dtype)?;
    let add = cx.reducer(node, Reducer::Add, x.dtype)?;
    let sums = emit(cx, node, |b| {
        b.add_instruction(Opcode::ReduceWindow, &[x.id, init.id], Attrs::Window(window), &[add], None)
    })?;
    if !exclusive {
        return Ok(vec![sums]);
    }
    // Shift by one along the axis, a zero entering where the sums start.
    let r = x.dims.len();
    let (mut lo, mut hi) = (vec![0; r], x.dims.clone());
    if reverse {
        lo[axis] = 1;
    } else {
        hi[axis] = n - 1;
    }
    let part = emit(cx, node, |b| b.slice(sums.id, &lo, &hi, &vec![1; r]))?;
    let mut cfg = vec![PadDim::default(); r];
    cfg[axis] = if reverse { PadDim { low: 0, high: 1, interior: 0 } } else { PadDim { low: 1, high: 0, interior: 0 } };
    Ok(vec![emit(cx, node, |b| b.pad(part.id, init.id, &cfg))?])
}
