//! What the op rules share: input and attribute access, axis normalization,
//! compile-time constants, numpy broadcasting and short builder calls.

use smelt_hlo::attrs::ComparisonDirection;
use smelt_hlo::builder::{ComputationBuilder, Reducer};
use smelt_hlo::shape_inference::ShapeError;
use smelt_hlo::{Array, ArrayData, DType, InstId, Opcode, with_data};

use crate::graph::lower::{LowerCx, Val, at};
use crate::graph::{GraphError, Node, Result};

/// Runs one builder call and wraps its instruction as a [`Val`].
pub fn emit(
    cx: &mut LowerCx<'_>,
    node: &Node,
    f: impl FnOnce(&mut ComputationBuilder<'_>) -> std::result::Result<InstId, ShapeError>,
) -> Result<Val> {
    let id = at(node, f(&mut cx.b))?;
    cx.val(node, id)
}

/// Input `i`, which the op requires.
pub fn input<'a>(node: &Node, inputs: &'a [Option<Val>], i: usize) -> Result<&'a Val> {
    inputs.get(i).and_then(Option::as_ref).ok_or_else(|| GraphError::node(node, format!("input {i} is required")))
}

/// Input `i` if given.
pub fn opt_input(inputs: &[Option<Val>], i: usize) -> Option<&Val> {
    inputs.get(i).and_then(Option::as_ref)
}

/// Whether output `k` of `node` is requested (present and named).
pub fn wants_output(node: &Node, k: usize) -> bool {
    node.outputs.get(k).is_some_and(|n| !n.is_empty())
}

/// An integer attribute with a default.
pub fn int_attr(node: &Node, name: &str, default: i64) -> i64 {
    node.int(name).unwrap_or(default)
}

/// A float attribute with a default.
pub fn float_attr(node: &Node, name: &str, default: f32) -> f32 {
    node.float(name).unwrap_or(default)
}

/// `axis` in `-rank..rank` as an index in `0..rank`.
pub fn norm_axis(node: &Node, axis: i64, rank: usize) -> Result<usize> {
    let r = rank as i64;
    if axis < -r || axis >= r {
        return Err(GraphError::node(node, format!("axis {axis} is out of range for rank {rank}")));
    }
    Ok(if axis < 0 { (axis + r) as usize } else { axis as usize })
}

/// Several axes, normalized, sorted and checked for repeats.
pub fn norm_axes(node: &Node, axes: &[i64], rank: usize) -> Result<Vec<usize>> {
    let mut out: Vec<usize> = axes.iter().map(|&a| norm_axis(node, a, rank)).collect::<Result<_>>()?;
    out.sort_unstable();
    if out.windows(2).any(|w| w[0] == w[1]) {
        return Err(GraphError::node(node, format!("repeated axis in {axes:?}")));
    }
    Ok(out)
}

/// The elements of an integer (or integral float) array as i64.
pub fn array_ints(a: &Array) -> Vec<i64> {
    with_data!(&a.data, v => v.iter().map(|x| smelt_hlo::Element::to_i128(*x).clamp(i64::MIN as i128, i64::MAX as i128) as i64).collect())
}

/// The value of input `i`, which the rule needs while lowering. When it is
/// a cluster argument the error asks the session for its value
/// ([`GraphError::NeedsValue`]): the session then compiles the cluster for
/// that value, as TensorFlow's XLA bridge does with compile-time constants.
pub fn known_value<'v>(node: &Node, inputs: &'v [Option<Val>], i: usize, what: &str) -> Result<&'v Array> {
    let v = input(node, inputs, i)?;
    match (&v.constant, v.param) {
        (Some(a), _) => Ok(a),
        (None, Some(param)) => Err(GraphError::NeedsValue {
            node: node.name.clone(),
            op: node.op.clone(),
            what: format!("{what} (input {i})"),
            param,
        }),
        (None, None) => Err(GraphError::node(node, format!("{what} (input {i}) must be a compile-time constant"))),
    }
}

/// The value of input `i` as integers; it must be known while lowering.
pub fn const_ints(node: &Node, inputs: &[Option<Val>], i: usize, what: &str) -> Result<Vec<i64>> {
    let a = known_value(node, inputs, i, what)?;
    if !a.dtype().is_integral() {
        return Err(GraphError::node(node, format!("{what} must be integers, got {}", a.dtype())));
    }
    Ok(array_ints(a))
}

/// The value of input `i` as f64 (any numeric dtype); it must be known while
/// lowering.
pub fn const_floats(node: &Node, inputs: &[Option<Val>], i: usize, what: &str) -> Result<Vec<f64>> {
    let a = known_value(node, inputs, i, what)?;
    Ok((0..a.len()).map(|k| a.data.get_f64(k)).collect())
}

/// The value of input `i` as one f64; it must be known while lowering.
pub fn const_scalar(node: &Node, inputs: &[Option<Val>], i: usize, what: &str) -> Result<f64> {
    let a = known_value(node, inputs, i, what)?;
    array_scalar_f64(a).ok_or_else(|| GraphError::node(node, format!("{what} (input {i}) must be a scalar")))
}

/// Optional integer input `i`, falling back to the attribute `attr` (older opsets).
pub fn ints_input_or_attr(
    node: &Node,
    inputs: &[Option<Val>],
    i: usize,
    attr: &str,
    what: &str,
) -> Result<Option<Vec<i64>>> {
    if opt_input(inputs, i).is_some() {
        return const_ints(node, inputs, i, what).map(Some);
    }
    Ok(node.ints(attr).map(<[i64]>::to_vec))
}

/// The scalar value of a known array as f64.
pub fn array_scalar_f64(a: &Array) -> Option<f64> {
    (a.len() == 1).then(|| a.data.get_f64(0))
}

/// Numpy's broadcast of two shapes.
pub fn broadcast_shape(node: &Node, a: &[i64], b: &[i64]) -> Result<Vec<i64>> {
    let r = a.len().max(b.len());
    let mut out = vec![0; r];
    for (k, o) in out.iter_mut().enumerate() {
        let da = if k + a.len() >= r { a[k + a.len() - r] } else { 1 };
        let db = if k + b.len() >= r { b[k + b.len() - r] } else { 1 };
        *o = if da == db || db == 1 {
            da
        } else if da == 1 {
            db
        } else {
            return Err(GraphError::node(node, format!("shapes {a:?} and {b:?} do not broadcast")));
        };
    }
    Ok(out)
}

/// `v` broadcast (numpy rules: aligned on the right, size-1 dimensions
/// stretched) to `dims`.
pub fn broadcast_to(cx: &mut LowerCx<'_>, node: &Node, v: &Val, dims: &[i64]) -> Result<Val> {
    if v.dims == dims {
        return Ok(v.clone());
    }
    if v.dims.len() > dims.len() {
        return Err(GraphError::node(node, format!("cannot broadcast {:?} to {dims:?}", v.dims)));
    }
    let offset = dims.len() - v.dims.len();
    let mut kept = Vec::new();
    let mut kept_dims = Vec::new();
    for (i, &d) in v.dims.iter().enumerate() {
        let t = dims[offset + i];
        if d == t {
            kept.push((offset + i) as i64);
            kept_dims.push(d);
        } else if d != 1 {
            return Err(GraphError::node(node, format!("cannot broadcast {:?} to {dims:?}", v.dims)));
        }
    }
    let x = if kept_dims.len() == v.dims.len() { v.clone() } else { reshape(cx, node, v, &kept_dims)? };
    emit(cx, node, |b| b.broadcast(x.id, dims, &kept))
}

/// Both operands broadcast to their common shape.
pub fn broadcast_pair(cx: &mut LowerCx<'_>, node: &Node, a: &Val, b: &Val) -> Result<(Val, Val)> {
    let dims = broadcast_shape(node, &a.dims, &b.dims)?;
    Ok((broadcast_to(cx, node, a, &dims)?, broadcast_to(cx, node, b, &dims)?))
}

/// An elementwise binary op with numpy broadcasting.
pub fn binary(cx: &mut LowerCx<'_>, node: &Node, op: Opcode, a: &Val, b: &Val) -> Result<Val> {
    let (a, b) = broadcast_pair(cx, node, a, b)?;
    emit(cx, node, |bl| bl.binary(op, a.id, b.id))
}

/// A comparison with numpy broadcasting.
pub fn compare(cx: &mut LowerCx<'_>, node: &Node, dir: ComparisonDirection, a: &Val, b: &Val) -> Result<Val> {
    let (a, b) = broadcast_pair(cx, node, a, b)?;
    emit(cx, node, |bl| bl.compare(dir, a.id, b.id))
}

/// `select` with numpy broadcasting of all three operands.
pub fn select(cx: &mut LowerCx<'_>, node: &Node, p: &Val, t: &Val, f: &Val) -> Result<Val> {
    let dims = broadcast_shape(node, &p.dims, &t.dims)?;
    let dims = broadcast_shape(node, &dims, &f.dims)?;
    let p = broadcast_to(cx, node, p, &dims)?;
    let t = broadcast_to(cx, node, t, &dims)?;
    let f = broadcast_to(cx, node, f, &dims)?;
    emit(cx, node, |b| b.select(p.id, t.id, f.id))
}

pub fn unary(cx: &mut LowerCx<'_>, node: &Node, op: Opcode, x: &Val) -> Result<Val> {
    emit(cx, node, |b| b.unary(op, x.id))
}

pub fn reshape(cx: &mut LowerCx<'_>, node: &Node, x: &Val, dims: &[i64]) -> Result<Val> {
    if x.dims == dims {
        return Ok(x.clone());
    }
    emit(cx, node, |b| b.reshape(x.id, dims))
}

pub fn transpose(cx: &mut LowerCx<'_>, node: &Node, x: &Val, perm: &[i64]) -> Result<Val> {
    if perm.iter().enumerate().all(|(i, &p)| p == i as i64) {
        return Ok(x.clone());
    }
    emit(cx, node, |b| b.transpose(x.id, perm))
}

pub fn convert(cx: &mut LowerCx<'_>, node: &Node, x: &Val, dtype: DType) -> Result<Val> {
    if x.dtype == dtype {
        return Ok(x.clone());
    }
    emit(cx, node, |b| b.convert(x.id, dtype))
}

/// A scalar of `dtype` broadcast to `dims`.
pub fn splat(cx: &mut LowerCx<'_>, node: &Node, dtype: DType, value: f64, dims: &[i64]) -> Result<Val> {
    let s = cx.scalar(node, dtype, value)?;
    if dims.is_empty() {
        return Ok(s);
    }
    emit(cx, node, |b| b.broadcast(s.id, dims, &[]))
}

/// A scalar of `dtype` (exact for integers, unlike going through f64).
pub fn typed_scalar(cx: &mut LowerCx<'_>, node: &Node, dtype: DType, value: i64) -> Result<Val> {
    let a = match dtype {
        DType::S64 => Array::scalar(value),
        DType::S32 => Array::scalar(value as i32),
        DType::U64 => Array::scalar(value as u64),
        _ => return cx.scalar(node, dtype, value as f64),
    };
    cx.constant(node, a)
}

/// The identity of a reduction kind for `dtype` (the lowest value for max,
/// the highest for min).
pub fn reduce_init(cx: &mut LowerCx<'_>, node: &Node, kind: Reducer, dtype: DType) -> Result<Val> {
    let a = match (kind, dtype) {
        (Reducer::Add, _) | (Reducer::Or, _) => return cx.scalar(node, dtype, 0.0),
        (Reducer::Mul, _) | (Reducer::And, _) => return cx.scalar(node, dtype, 1.0),
        (Reducer::Max, t) if t.is_float() => return cx.scalar(node, dtype, f64::NEG_INFINITY),
        (Reducer::Min, t) if t.is_float() => return cx.scalar(node, dtype, f64::INFINITY),
        (Reducer::Max, t) => extreme(t, false),
        (Reducer::Min, t) => extreme(t, true),
    };
    match a {
        Some(a) => cx.constant(node, a),
        None => Err(GraphError::unsupported(node, format!("no {kind:?} reduction for {dtype}"))),
    }
}

/// The highest (`high`) or lowest value of an integer type or pred.
fn extreme(t: DType, high: bool) -> Option<Array> {
    macro_rules! pick {
        ($ty:ty) => {
            Array::scalar(if high { <$ty>::MAX } else { <$ty>::MIN })
        };
    }
    Some(match t {
        DType::Pred => Array::scalar(high),
        DType::S8 => pick!(i8),
        DType::S16 => pick!(i16),
        DType::S32 => pick!(i32),
        DType::S64 => pick!(i64),
        DType::U8 => pick!(u8),
        DType::U16 => pick!(u16),
        DType::U32 => pick!(u32),
        DType::U64 => pick!(u64),
        _ => return None,
    })
}

/// `reduce` of `x` over `axes` (sorted) with `kind`; keeps the reduced
/// dimensions as size 1 when `keep`.
pub fn reduce(cx: &mut LowerCx<'_>, node: &Node, x: &Val, axes: &[usize], kind: Reducer, keep: bool) -> Result<Val> {
    let init = reduce_init(cx, node, kind, x.dtype)?;
    let reducer = cx.reducer(node, kind, x.dtype)?;
    let dims: Vec<i64> = axes.iter().map(|&a| a as i64).collect();
    let r = emit(cx, node, |b| b.reduce(&[x.id], &[init.id], &dims, reducer))?;
    if keep {
        let kept: Vec<i64> = x.dims.iter().enumerate().map(|(i, &d)| if axes.contains(&i) { 1 } else { d }).collect();
        reshape(cx, node, &r, &kept)
    } else {
        Ok(r)
    }
}

/// A 1-D s64 array of `v`.
pub fn s64_vec(v: Vec<i64>) -> Array {
    let n = v.len() as i64;
    Array::new([n], ArrayData::S64(v))
}
