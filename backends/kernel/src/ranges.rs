//! Index ranges: what a loop kernel's graph computes on part of one dimension.
//!
//! Concatenations, pads and clamped slices lower to selects on comparisons of a
//! loop index with constants, and to clamps of shifted indices (`max(i - 384,
//! 0)`). Over a whole dimension these are per-element branches and non-affine
//! loads that neither vectorize nor walk memory contiguously, and every branch
//! of a concatenation is computed for every element. Split the dimension where
//! such a comparison changes value ([`split_points`]) and, on each piece, the
//! comparisons are constants, the selects pick one side and the clamps vanish
//! ([`specialize`]): each piece is a plain affine loop over one operand.
//! Backends emit one loop per piece.
//!
//! Windows over padding (a reduce-window's taps, inline reductions) test
//! `i + offset + w` against the edges for every window index `w`: the
//! dimension is cut wherever any tap's test changes, and on each piece the
//! body's tests and clamps fold too ([`Specialized::windows`]), so that the
//! middle of a padded row reads its taps with plain affine loads.

use std::collections::HashMap;

use smelt_hlo::DType;
use smelt_hlo::attrs::ComparisonDirection;

use crate::ir::{BinaryOp, Graph, Node, NodeId, Scalar};

/// What a node computes on one piece of a dimension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fold {
    /// Computed as written.
    Keep,
    /// The same value as another (earlier) node, which is not itself folded.
    Same(NodeId),
    /// A test (a comparison, a conjunction or disjunction of them, or a
    /// select of one) with this constant value.
    Pred(bool),
}

/// Whether `index[k..k + n]` (`n >= 2`, as long as it goes) splits one value
/// `x` row-major over `dims[k..k + n]`: `x / S_k`, then `(x / S_m) % d_m`,
/// the last `x % d_last` (`S_m` the product of the dimensions after `m` in
/// the run), as a reshape of a merged dimension back to the array's
/// dimensions indexes it. Then `sum(index[m] * stride[m])` over the run is
/// `x * stride[k + n - 1]` exactly (truncated division: `(x / c) * c + x % c
/// == x` for every `x`), so an address needs no division: backends that
/// vectorize would otherwise see a gather where the loads are contiguous.
/// Returns `x` and `n`.
pub fn delinearized(g: &Graph, index: &[NodeId], dims: &[i64], k: usize) -> Option<(NodeId, usize)> {
    let konst = |n: NodeId| match g.node(n) {
        Node::Const(Scalar::Int(_, c)) => Some(*c),
        _ => None,
    };
    // Quotients and remainders by positive constants, checked or not (the
    // same for those divisors).
    let binary = |n: NodeId, want: BinaryOp| match g.node(n) {
        Node::Binary { op, a, b }
            if *op == want
                || matches!(
                    (op, want),
                    (BinaryOp::Div, BinaryOp::DivUnchecked) | (BinaryOp::Rem, BinaryOp::RemUnchecked)
                ) =>
        {
            konst(*b).filter(|&c| c > 0).map(|c| (*a, c))
        }
        _ => None,
    };
    // The leading quotient `x / S`, then as many digits as match.
    let (x, mut rest) = binary(*index.get(k)?, BinaryOp::DivUnchecked)?;
    let mut m = k + 1;
    while rest > 1 {
        let (&i, &d) = (index.get(m)?, dims.get(m)?);
        if d < 1 || rest % (d as i128) != 0 {
            return None;
        }
        let s = rest / d as i128;
        let (inner, r) = binary(i, BinaryOp::RemUnchecked)?;
        let q = if s == 1 { inner } else { binary(inner, BinaryOp::DivUnchecked).filter(|q| q.1 == s)?.0 };
        if r != d as i128 || q != x {
            return None;
        }
        rest = s;
        m += 1;
    }
    (rest == 1 && m - k >= 2).then_some((x, m - k))
}

/// The terms of a load's element offset into an array of dimensions `dims`
/// and element strides `strides`: `(value, stride)` per dimension of
/// `index`, or per run that [`delinearized`] finds over dimensions laid out
/// one after another (`strides[m] == dims[m + 1] * strides[m + 1]`), whose
/// value then counts in the run's last stride; dimensions of size 1 add
/// nothing. Every backend's loads sum these, so none divides where the
/// value is contiguous.
pub fn address_terms(g: &Graph, index: &[NodeId], dims: &[i64], strides: &[i64]) -> Vec<(NodeId, i64)> {
    let mut terms = Vec::new();
    let mut k = 0;
    while k < index.len() {
        let run = delinearized(g, index, dims, k)
            .filter(|&(_, n)| (k..k + n - 1).all(|m| strides[m] == dims[m + 1] * strides[m + 1]));
        let (x, n) = run.unwrap_or((index[k], 1));
        if n > 1 || dims[k] != 1 {
            terms.push((x, strides[k + n - 1]));
        }
        k += n;
    }
    terms
}

/// The most pieces [`split_points`] cuts a dimension into.
pub const MAX_PIECES: usize = 8;

/// Integer values a node may take: `lo..=hi`, or `None` when unknown.
type Interval = Option<(i128, i128)>;

/// `i + k` for a node that is `Index(dim)`, or `Index(dim) + const`, or
/// `const + Index(dim)`: `Some(k)`. Through a clamp of such a node by a
/// constant (`min(i + k, c)`, `max(i + k, c)`, as a concatenation of three
/// or more operands nests them), the same `k`: a comparison of the clamp
/// with a constant changes value where the unclamped index's does, or
/// nowhere (the cut is then one piece too many).
fn index_offset(g: &Graph, id: NodeId, dim: usize) -> Option<i128> {
    let konst = |id: NodeId| match g.node(id) {
        Node::Const(Scalar::Int(_, v)) => Some(*v),
        _ => None,
    };
    match g.node(id) {
        Node::Index(d) if *d == dim => Some(0),
        Node::Binary { op: BinaryOp::Add, a, b } => match (g.node(*a), g.node(*b)) {
            (Node::Index(d), _) if *d == dim => konst(*b),
            (_, Node::Index(d)) if *d == dim => konst(*a),
            _ => None,
        },
        Node::Binary { op: BinaryOp::Min | BinaryOp::Max, a, b } => match (konst(*a), konst(*b)) {
            (None, Some(_)) => index_offset(g, *a, dim),
            (Some(_), None) => index_offset(g, *b, dim),
            _ => None,
        },
        _ => None,
    }
}

/// In an inline reduction's `body` over `window`: `i + k` for `k` in
/// `lo..=hi`, for a node that is the enclosing index `i` (an
/// [`Node::Outer`] reference `is_index` accepts) plus constants and window
/// indices: `Some((lo, hi))`. Strided windows (`2 * i + w`) are not cut:
/// their middle pieces' stride-2 loads ran slower than the clamped taps
/// (a 3x3/2 max pool over 1x64x112x112, one thread, 0.28 -> 0.30 ms).
fn window_offset(body: &Graph, id: NodeId, is_index: &dyn Fn(NodeId) -> bool, window: &[i64]) -> Option<(i128, i128)> {
    match body.node(id) {
        Node::Outer(o) if is_index(*o) => Some((0, 0)),
        Node::Binary { op: BinaryOp::Add, a, b } => {
            let (k, rest) = match window_offset(body, *a, is_index, window) {
                Some(k) => (k, *b),
                None => (window_offset(body, *b, is_index, window)?, *a),
            };
            let (r0, r1) = plain_range(body, rest, window)?;
            Some((k.0 + r0, k.1 + r1))
        }
        _ => None,
    }
}

/// The values of a sum of constants and window indices in `body`.
fn plain_range(body: &Graph, id: NodeId, window: &[i64]) -> Option<(i128, i128)> {
    match body.node(id) {
        Node::Const(Scalar::Int(_, v)) => Some((*v, *v)),
        Node::Index(d) => window.get(*d).filter(|&&w| w > 0).map(|&w| (0, w as i128 - 1)),
        Node::Binary { op: BinaryOp::Add, a, b } => {
            let ((a0, a1), (b0, b1)) = (plain_range(body, *a, window)?, plain_range(body, *b, window)?);
            Some((a0 + b0, a1 + b1))
        }
        _ => None,
    }
}

/// The most window positions a comparison is cut at (wider windows are
/// left whole).
const MAX_WINDOW_CUTS: i128 = 16;

/// Pushes onto `points` where the comparisons of `g` change value: those of
/// `i + k` (`k` in the range `offset` gives) with a constant.
fn compare_points(g: &Graph, offset: &dyn Fn(NodeId) -> Option<(i128, i128)>, points: &mut Vec<i128>) {
    use ComparisonDirection as D;
    for node in &g.nodes {
        let Node::Compare { direction, a, b, .. } = node else {
            continue;
        };
        let konst = |id: &NodeId| match g.node(*id) {
            Node::Const(Scalar::Int(_, v)) => Some(*v),
            _ => None,
        };
        // `i + k  dir  c`, with the index on the left.
        let ((k0, k1), dir, c) = match (offset(*a), konst(b), offset(*b), konst(a)) {
            (Some(k), Some(c), _, _) => (k, *direction, c),
            (_, _, Some(k), Some(c)) => {
                let flipped = match direction {
                    D::Lt => D::Gt,
                    D::Le => D::Ge,
                    D::Gt => D::Lt,
                    D::Ge => D::Le,
                    d => *d,
                };
                (k, flipped, c)
            }
            _ => continue,
        };
        if k1 - k0 >= MAX_WINDOW_CUTS {
            continue;
        }
        for k in k0..=k1 {
            let at = c - k;
            match dir {
                D::Lt | D::Ge => points.push(at),
                D::Le | D::Gt => points.push(at + 1),
                D::Eq | D::Ne => points.extend([at, at + 1]),
            }
        }
    }
}

/// The indices of dimension `dim` (of `extent` elements), in increasing order
/// and strictly inside the dimension, at which some comparison of that index
/// (plus a constant) with a constant changes value. Empty when there are none
/// or when they would cut the dimension into more than [`MAX_PIECES`] pieces
/// (then windows' edges are given up first).
pub fn split_points(g: &Graph, dim: usize, extent: i64) -> Vec<i64> {
    let mut points = Vec::new();
    let offset = |id: NodeId| index_offset(g, id, dim).map(|k| (k, k));
    compare_points(g, &offset, &mut points);
    let mut with_windows = points.clone();
    for node in &g.nodes {
        let Node::Reduce(r) = node else { continue };
        let outer_index = |id: NodeId| matches!(g.node(id), Node::Index(d) if *d == dim);
        let offset = |id: NodeId| window_offset(&r.body, id, &outer_index, &r.window);
        compare_points(&r.body, &offset, &mut with_windows);
    }
    let inside = |points: Vec<i128>| -> Option<Vec<i64>> {
        let mut inside: Vec<i64> =
            points.into_iter().filter(|&p| p > 0 && p < extent as i128).map(|p| p as i64).collect();
        inside.sort_unstable();
        inside.dedup();
        (inside.len() < MAX_PIECES).then_some(inside)
    };
    inside(with_windows).or_else(|| inside(points)).unwrap_or_default()
}

/// The values of an integer type (pred as 0 and 1).
fn type_range(t: DType) -> Interval {
    let bits = 8 * t.byte_size() as u32;
    if t == DType::Pred {
        Some((0, 1))
    } else if t.is_signed_int() {
        Some((-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1))
    } else if t.is_unsigned_int() {
        Some((0, (1i128 << bits) - 1))
    } else {
        None
    }
}

/// `iv` if it fits type `t`, else unknown (the operation may wrap).
fn within(t: DType, iv: Interval) -> Interval {
    let ((lo, hi), (tlo, thi)) = (iv?, type_range(t)?);
    (lo >= tlo && hi <= thi).then_some((lo, hi))
}

/// How a graph folds on one piece of a dimension ([`specialize`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Specialized {
    /// Per node of the graph.
    pub graph: Vec<Fold>,
    /// Per node of each inline reduction's body, by the reduction's node;
    /// bodies where nothing folds are left out.
    pub windows: HashMap<u32, Vec<Fold>>,
}

/// How each node of `g`, and of its inline reductions' bodies, folds when
/// dimension `dim` of `space` runs over `lo..hi` only (every other dimension
/// over its whole extent).
pub fn specialize(g: &Graph, space: &[i64], dim: usize, lo: i64, hi: i64) -> Specialized {
    specialize_within(g, space, &[(dim, lo, hi)])
}

/// [`specialize`] over several dimensions at once: dimension `d` over
/// `lo..hi` for each `(d, lo, hi)` in `pieces`, the others whole.
pub fn specialize_within(g: &Graph, space: &[i64], pieces: &[(usize, i64, i64)]) -> Specialized {
    let index = |d: usize| match pieces.iter().find(|p| p.0 == d) {
        Some(&(_, lo, hi)) => Some((lo as i128, hi as i128 - 1)),
        None => dim_range(space, d),
    };
    let (outer, graph) = fold_graph(g, &index, &|_| None);
    let mut windows = HashMap::new();
    for (i, node) in g.nodes.iter().enumerate() {
        let Node::Reduce(r) = node else { continue };
        let window = |d: usize| dim_range(&r.window, d);
        let enclosing = |o: NodeId| outer.get(o.0 as usize).copied().flatten();
        let (_, folds) = fold_graph(&r.body, &window, &enclosing);
        if folds.iter().any(|f| *f != Fold::Keep) {
            windows.insert(i as u32, folds);
        }
    }
    Specialized { graph, windows }
}

/// Whether `g` reads along dimension `dim` at a stride: an index of that
/// dimension multiplied or shifted, in the graph or in an inline
/// reduction's body (a strided window's or slice's input). Such rows are
/// not cut ([`split_points`]) and keep scalar tails in backends that mask
/// short rows' tails (masked strided loads are gathers).
pub fn strided(g: &Graph, dim: usize) -> bool {
    strided_in(g, &|n: &Node| matches!(n, Node::Index(d) if *d == dim))
}

/// [`strided`] in `g`, where `is_index` tells the index's nodes (in an
/// inline reduction's body, references to the enclosing graph's).
fn strided_in(g: &Graph, is_index: &dyn Fn(&Node) -> bool) -> bool {
    let index = |id: &NodeId| is_index(g.node(*id));
    g.nodes.iter().any(|n| match n {
        Node::Binary { op: BinaryOp::Mul | BinaryOp::Shl | BinaryOp::ShlUnchecked, a, b } => index(a) || index(b),
        Node::Reduce(r) => strided_in(&r.body, &|m: &Node| matches!(m, Node::Outer(id) if index(id))),
        _ => false,
    })
}

/// `0..=extent - 1` for dimension `d` of `dims`.
fn dim_range(dims: &[i64], d: usize) -> Interval {
    dims.get(d).filter(|&&e| e > 0).map(|&e| (0, e as i128 - 1))
}

/// The values each node of `g` may take and how it folds, given the ranges
/// of its indices (`index`) and of the enclosing nodes it refers to
/// (`outer`, for an inline reduction's body).
fn fold_graph(
    g: &Graph,
    index: &dyn Fn(usize) -> Interval,
    outer: &dyn Fn(NodeId) -> Interval,
) -> (Vec<Interval>, Vec<Fold>) {
    use ComparisonDirection as D;
    let n = g.nodes.len();
    let mut iv: Vec<Interval> = vec![None; n];
    let mut fold = vec![Fold::Keep; n];
    // What node `x` stands for once folded.
    let target = |fold: &[Fold], x: NodeId| match fold[x.0 as usize] {
        Fold::Same(y) => Fold::Same(y),
        Fold::Pred(b) => Fold::Pred(b),
        Fold::Keep => Fold::Same(x),
    };
    for (i, node) in g.nodes.iter().enumerate() {
        let t = g.types[i];
        let at = |x: &NodeId| iv[x.0 as usize];
        let (interval, folded) = match node {
            Node::Index(d) => (index(*d), Fold::Keep),
            Node::Outer(o) => (outer(*o), Fold::Keep),
            Node::Const(Scalar::Int(_, v)) => (Some((*v, *v)), Fold::Keep),
            Node::Convert { x, to } => (within(*to, at(x).filter(|_| type_range(g.dtype(*x)).is_some())), Fold::Keep),
            // Conjunctions and disjunctions of decided tests (a window tap's
            // edge tests, combined per dimension).
            Node::Binary { op: op @ (BinaryOp::And | BinaryOp::Or), a, b } if t == DType::Pred => {
                let (x, y) = (at(a), at(b));
                let decided = match op {
                    BinaryOp::And if x == Some((0, 0)) || y == Some((0, 0)) => Some(false),
                    BinaryOp::And if x == Some((1, 1)) && y == Some((1, 1)) => Some(true),
                    BinaryOp::Or if x == Some((1, 1)) || y == Some((1, 1)) => Some(true),
                    BinaryOp::Or if x == Some((0, 0)) && y == Some((0, 0)) => Some(false),
                    _ => None,
                };
                match decided {
                    Some(v) => (Some((v as i128, v as i128)), Fold::Pred(v)),
                    None => (Some((0, 1)), Fold::Keep),
                }
            }
            Node::Binary { op, a, b } => {
                let r = match (op, at(a), at(b)) {
                    (BinaryOp::Add, Some((a0, a1)), Some((b0, b1))) => within(t, Some((a0 + b0, a1 + b1))),
                    (BinaryOp::Sub, Some((a0, a1)), Some((b0, b1))) => within(t, Some((a0 - b1, a1 - b0))),
                    (BinaryOp::Mul, Some((a0, a1)), Some((b0, b1))) => {
                        let p = [a0 * b0, a0 * b1, a1 * b0, a1 * b1];
                        within(t, Some((p.iter().copied().min().unwrap_or(0), p.iter().copied().max().unwrap_or(0))))
                    }
                    (BinaryOp::Max, Some((a0, a1)), Some((b0, b1))) => Some((a0.max(b0), a1.max(b1))),
                    (BinaryOp::Min, Some((a0, a1)), Some((b0, b1))) => Some((a0.min(b0), a1.min(b1))),
                    _ => None,
                };
                let f = match (op, at(a), at(b)) {
                    (BinaryOp::Max, Some((a0, _)), Some((_, b1))) if a0 >= b1 => target(&fold, *a),
                    (BinaryOp::Max, Some((_, a1)), Some((b0, _))) if b0 >= a1 => target(&fold, *b),
                    (BinaryOp::Min, Some((_, a1)), Some((b0, _))) if a1 <= b0 => target(&fold, *a),
                    (BinaryOp::Min, Some((a0, _)), Some((_, b1))) if b1 <= a0 => target(&fold, *b),
                    _ => Fold::Keep,
                };
                (r, f)
            }
            Node::Clamp { min, x, max } => match (at(min), at(x), at(max)) {
                (Some((m0, m1)), Some((x0, x1)), Some((n0, n1))) => {
                    let r = Some((x0.max(m0).min(n0), x1.max(m1).min(n1)));
                    let f = if x0 >= m1 && x1 <= n0 { target(&fold, *x) } else { Fold::Keep };
                    (r, f)
                }
                _ => (None, Fold::Keep),
            },
            Node::Compare { direction, a, b, .. } => {
                let decided = match (at(a), at(b)) {
                    (Some((a0, a1)), Some((b0, b1))) => match direction {
                        D::Lt if a1 < b0 => Some(true),
                        D::Lt if a0 >= b1 => Some(false),
                        D::Le if a1 <= b0 => Some(true),
                        D::Le if a0 > b1 => Some(false),
                        D::Gt if a0 > b1 => Some(true),
                        D::Gt if a1 <= b0 => Some(false),
                        D::Ge if a0 >= b1 => Some(true),
                        D::Ge if a1 < b0 => Some(false),
                        D::Eq | D::Ne if a1 < b0 || b1 < a0 => Some(*direction == D::Ne),
                        D::Eq | D::Ne if a0 == a1 && b0 == b1 && a0 == b0 => Some(*direction == D::Eq),
                        _ => None,
                    },
                    _ => None,
                };
                match decided {
                    Some(v) => (Some((v as i128, v as i128)), Fold::Pred(v)),
                    None => (Some((0, 1)), Fold::Keep),
                }
            }
            Node::Select { pred, on_true, on_false } => match at(pred) {
                Some((1, 1)) => (at(on_true), target(&fold, *on_true)),
                Some((0, 0)) => (at(on_false), target(&fold, *on_false)),
                _ => {
                    let r = match (at(on_true), at(on_false)) {
                        (Some((a0, a1)), Some((b0, b1))) => Some((a0.min(b0), a1.max(b1))),
                        _ => None,
                    };
                    (r, Fold::Keep)
                }
            },
            _ => (None, Fold::Keep),
        };
        iv[i] = interval;
        fold[i] = folded;
    }
    (iv, fold)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Graph;

    /// `select(i < 4, load a[max(i, 0)], load b[max(i - 4, 0)])` over `[2, 10]`,
    /// split on dimension 1: the concatenation of a `[2,4]` and a `[2,6]`.
    fn concat() -> (Graph, NodeId) {
        let mut g = Graph::default();
        let add = |g: &mut Graph, n: Node, t: DType| {
            g.nodes.push(n);
            g.types.push(t);
            NodeId(g.nodes.len() as u32 - 1)
        };
        let i0 = add(&mut g, Node::Index(0), DType::S64);
        let i = add(&mut g, Node::Index(1), DType::S64);
        let zero = add(&mut g, Node::Const(Scalar::Int(DType::S64, 0)), DType::S64);
        let four = add(&mut g, Node::Const(Scalar::Int(DType::S64, 4)), DType::S64);
        let minus4 = add(&mut g, Node::Const(Scalar::Int(DType::S64, -4)), DType::S64);
        let ia = add(&mut g, Node::Binary { op: BinaryOp::Max, a: i, b: zero }, DType::S64);
        let la = add(&mut g, Node::Load { input: 0, index: vec![i0, ia] }, DType::F32);
        let shifted = add(&mut g, Node::Binary { op: BinaryOp::Add, a: i, b: minus4 }, DType::S64);
        let ib = add(&mut g, Node::Binary { op: BinaryOp::Max, a: shifted, b: zero }, DType::S64);
        let lb = add(&mut g, Node::Load { input: 1, index: vec![i0, ib] }, DType::F32);
        let lt = add(
            &mut g,
            Node::Compare { direction: ComparisonDirection::Lt, compare_type: None, a: i, b: four },
            DType::Pred,
        );
        let sel = add(&mut g, Node::Select { pred: lt, on_true: la, on_false: lb }, DType::F32);
        (g, sel)
    }

    #[test]
    fn concatenation_splits_into_affine_pieces() {
        let (g, sel) = concat();
        assert_eq!(split_points(&g, 1, 10), vec![4]);
        assert!(split_points(&g, 0, 2).is_empty());
        let first = specialize(&g, &[2, 10], 1, 0, 4).graph;
        // The select reads the first operand, whose index clamp is gone.
        assert_eq!(first[sel.0 as usize], Fold::Same(NodeId(6)));
        assert_eq!(first[5], Fold::Same(NodeId(1)));
        assert_eq!(first[10], Fold::Pred(true));
        let second = specialize(&g, &[2, 10], 1, 4, 10).graph;
        assert_eq!(second[sel.0 as usize], Fold::Same(NodeId(9)));
        assert_eq!(second[8], Fold::Same(NodeId(7)));
        assert_eq!(second[10], Fold::Pred(false));
        // Over the whole dimension nothing folds.
        let whole = specialize(&g, &[2, 10], 1, 0, 10).graph;
        assert!(whole.iter().all(|f| *f == Fold::Keep || *f == Fold::Same(NodeId(1))), "{whole:?}");
    }

    #[test]
    fn nested_concatenations_split_through_their_clamps() {
        // A concatenation of three operands along i (8 + 4 + 4): the inner
        // one's test reads the outer clamp `min(i, 11) < 8`.
        let push = |g: &mut Graph, n: Node, t: DType| {
            g.nodes.push(n);
            g.types.push(t);
            NodeId(g.nodes.len() as u32 - 1)
        };
        let mut g = Graph::default();
        let i = push(&mut g, Node::Index(0), DType::S64);
        let k = |g: &mut Graph, v: i128| push(g, Node::Const(Scalar::Int(DType::S64, v)), DType::S64);
        let (eleven, eight, twelve) = (k(&mut g, 11), k(&mut g, 8), k(&mut g, 12));
        let clamp = push(&mut g, Node::Binary { op: BinaryOp::Min, a: i, b: eleven }, DType::S64);
        let cmp = |g: &mut Graph, a: NodeId, b: NodeId| {
            push(g, Node::Compare { direction: ComparisonDirection::Lt, compare_type: None, a, b }, DType::Pred)
        };
        let (inner, outer) = (cmp(&mut g, clamp, eight), cmp(&mut g, i, twelve));
        assert_eq!(split_points(&g, 0, 16), vec![8, 12]);
        let f = specialize(&g, &[16], 0, 0, 8).graph;
        assert_eq!((f[inner.0 as usize], f[outer.0 as usize]), (Fold::Pred(true), Fold::Pred(true)));
        let f = specialize(&g, &[16], 0, 8, 12).graph;
        assert_eq!((f[inner.0 as usize], f[outer.0 as usize]), (Fold::Pred(false), Fold::Pred(true)));
    }

    #[test]
    fn comparisons_with_the_index_on_the_right_and_equalities_split_too() {
        let mut g = Graph::default();
        g.nodes.push(Node::Index(0));
        g.types.push(DType::S64);
        g.nodes.push(Node::Const(Scalar::Int(DType::S64, 3)));
        g.types.push(DType::S64);
        for direction in [ComparisonDirection::Ge, ComparisonDirection::Eq] {
            g.nodes.push(Node::Compare { direction, compare_type: None, a: NodeId(1), b: NodeId(0) });
            g.types.push(DType::Pred);
        }
        // 3 >= i changes at 4; i == 3 at 3 and 4.
        assert_eq!(split_points(&g, 0, 10), vec![3, 4]);
        let f = specialize(&g, &[10], 0, 3, 4).graph;
        assert_eq!(f[2], Fold::Pred(true));
        assert_eq!(f[3], Fold::Pred(true));
        let f = specialize(&g, &[10], 0, 4, 10).graph;
        assert_eq!(f[2], Fold::Pred(false));
        assert_eq!(f[3], Fold::Pred(false));
        // Points outside the dimension do not split it.
        assert!(split_points(&g, 0, 3).is_empty());
    }

    /// `sum over w < 3 of select(0 <= j - 1 + w < 14, x[clamp(j - 1 + w)], 0)`
    /// over `[2, 14]`: a 3-wide window padded by one on each side, as a
    /// reduce-window lowers.
    fn padded_window() -> (Graph, NodeId) {
        fn add(g: &mut Graph, n: Node, t: DType) -> NodeId {
            g.nodes.push(n);
            g.types.push(t);
            NodeId(g.nodes.len() as u32 - 1)
        }
        let mut g = Graph::default();
        let i = add(&mut g, Node::Index(0), DType::S64);
        let j = add(&mut g, Node::Index(1), DType::S64);
        let init = add(&mut g, Node::Const(Scalar::Float(DType::F32, 0.0)), DType::F32);
        let mut b = Graph::default();
        let c = |b: &mut Graph, v: i128| add(b, Node::Const(Scalar::Int(DType::S64, v)), DType::S64);
        let bi = add(&mut b, Node::Outer(i), DType::S64);
        let bj = add(&mut b, Node::Outer(j), DType::S64);
        let w = add(&mut b, Node::Index(0), DType::S64);
        let minus1 = c(&mut b, -1);
        let shifted = add(&mut b, Node::Binary { op: BinaryOp::Add, a: bj, b: minus1 }, DType::S64);
        let at = add(&mut b, Node::Binary { op: BinaryOp::Add, a: shifted, b: w }, DType::S64);
        let (zero, last, width) = (c(&mut b, 0), c(&mut b, 13), c(&mut b, 14));
        let cmp = |b: &mut Graph, direction, a, x| {
            add(b, Node::Compare { direction, compare_type: None, a, b: x }, DType::Pred)
        };
        let ge = cmp(&mut b, ComparisonDirection::Ge, at, zero);
        let lt = cmp(&mut b, ComparisonDirection::Lt, at, width);
        let inside = add(&mut b, Node::Binary { op: BinaryOp::And, a: ge, b: lt }, DType::Pred);
        let up = add(&mut b, Node::Binary { op: BinaryOp::Max, a: at, b: zero }, DType::S64);
        let clamped = add(&mut b, Node::Binary { op: BinaryOp::Min, a: up, b: last }, DType::S64);
        let x = add(&mut b, Node::Load { input: 0, index: vec![bi, clamped] }, DType::F32);
        let fzero = add(&mut b, Node::Const(Scalar::Float(DType::F32, 0.0)), DType::F32);
        let v = add(&mut b, Node::Select { pred: inside, on_true: x, on_false: fzero }, DType::F32);
        let reducer = crate::ir::ScalarFn { params: vec![], graph: Graph::default(), outputs: vec![], pattern: None };
        let reduce = crate::ir::InlineReduce { window: vec![3], init: vec![init], body: b, values: vec![v], reducer };
        let r = add(&mut g, Node::Reduce(Box::new(reduce)), DType::F32);
        (g, r)
    }

    #[test]
    fn padded_windows_split_where_any_tap_crosses_an_edge() {
        let (g, r) = padded_window();
        // Tap `w` reads `j - 1 + w`: column 0's first tap and column 13's last
        // fall in the padding; columns 1..13 read only the row.
        assert_eq!(split_points(&g, 1, 14), vec![1, 13]);
        assert!(split_points(&g, 0, 2).is_empty());
        let middle = specialize(&g, &[2, 14], 1, 1, 13).windows;
        let body = &middle[&r.0];
        // The edge tests hold, the clamps are the index itself, and the
        // select reads the row.
        assert_eq!(body[9], Fold::Pred(true));
        assert_eq!(body[10], Fold::Pred(true));
        assert_eq!(body[11], Fold::Pred(true));
        assert_eq!(body[12], Fold::Same(NodeId(5)));
        assert_eq!(body[13], Fold::Same(NodeId(5)));
        assert_eq!(body[16], Fold::Same(NodeId(14)));
        // On the first column only the upper test folds; the clamp to 0 stays.
        let first = specialize(&g, &[2, 14], 1, 0, 1).windows;
        assert_eq!(first[&r.0][10], Fold::Pred(true));
        assert_eq!(first[&r.0][9], Fold::Keep);
        assert_eq!(first[&r.0][12], Fold::Keep);
        // Over the whole row the tests stay.
        let whole = specialize(&g, &[2, 14], 1, 0, 14).windows;
        assert!(whole.get(&r.0).is_none_or(|b| b[9] == Fold::Keep && b[10] == Fold::Keep));
    }

    #[test]
    fn strided_windows_are_not_cut() {
        // `2 * i + w < 112` over 56 outputs of a 3-wide window (a 3x3/2 pool
        // over 112 padded by one at the end): left whole (see
        // `window_offset`).
        let mut g = Graph::default();
        g.nodes.push(Node::Index(0));
        g.types.push(DType::S64);
        let mut b = Graph::default();
        let nodes = [
            Node::Outer(NodeId(0)),
            Node::Const(Scalar::Int(DType::S64, 2)),
            Node::Binary { op: BinaryOp::Mul, a: NodeId(0), b: NodeId(1) },
            Node::Index(0),
            Node::Binary { op: BinaryOp::Add, a: NodeId(2), b: NodeId(3) },
            Node::Const(Scalar::Int(DType::S64, 112)),
            Node::Compare { direction: ComparisonDirection::Lt, compare_type: None, a: NodeId(4), b: NodeId(5) },
        ];
        for n in nodes {
            let t = if matches!(n, Node::Compare { .. }) { DType::Pred } else { DType::S64 };
            b.nodes.push(n);
            b.types.push(t);
        }
        let reducer = crate::ir::ScalarFn { params: vec![], graph: Graph::default(), outputs: vec![], pattern: None };
        let window = crate::ir::InlineReduce { window: vec![3], init: vec![], body: b, values: vec![], reducer };
        g.nodes.push(Node::Reduce(Box::new(window)));
        g.types.push(DType::F32);
        assert!(split_points(&g, 0, 56).is_empty());
        // Its tests still fold where a piece decides them.
        assert_eq!(specialize(&g, &[56], 0, 0, 55).windows[&1][6], Fold::Pred(true));
        assert!(specialize(&g, &[56], 0, 55, 56).windows.get(&1).is_none_or(|b| b[6] == Fold::Keep));
        assert!(strided(&g, 0));
    }

    /// Rows read at a stride (an index times a constant, directly or from an
    /// inline window's body) are told from shifted ones.
    #[test]
    fn strided_rows_are_told_from_shifted_ones() {
        let graph = |nodes: Vec<Node>| Graph { types: vec![DType::S64; nodes.len()], nodes };
        let two = Node::Const(Scalar::Int(DType::S64, 2));
        let mul = |a: u32, b: u32| Node::Binary { op: BinaryOp::Mul, a: NodeId(a), b: NodeId(b) };
        let add = |a: u32, b: u32| Node::Binary { op: BinaryOp::Add, a: NodeId(a), b: NodeId(b) };
        assert!(strided(&graph(vec![Node::Index(1), two.clone(), mul(0, 1)]), 1));
        assert!(!strided(&graph(vec![Node::Index(1), two.clone(), mul(0, 1)]), 0));
        assert!(!strided(&graph(vec![Node::Index(1), two.clone(), add(0, 1)]), 1));
        let body = graph(vec![Node::Outer(NodeId(0)), two, mul(0, 1)]);
        let reducer = crate::ir::ScalarFn { params: vec![], graph: graph(vec![]), outputs: vec![], pattern: None };
        let window = crate::ir::InlineReduce { window: vec![3], init: vec![], body, values: vec![], reducer };
        let outer = graph(vec![Node::Index(1), Node::Reduce(Box::new(window))]);
        assert!(strided(&outer, 1));
        assert!(!strided(&outer, 0));
    }

    #[test]
    fn arithmetic_that_may_wrap_is_not_folded() {
        let mut g = Graph::default();
        let push = |g: &mut Graph, n: Node, t: DType| {
            g.nodes.push(n);
            g.types.push(t);
        };
        push(&mut g, Node::Index(0), DType::S64);
        push(&mut g, Node::Convert { x: NodeId(0), to: DType::S8 }, DType::S8);
        push(&mut g, Node::Const(Scalar::Int(DType::S8, 100)), DType::S8);
        push(&mut g, Node::Binary { op: BinaryOp::Add, a: NodeId(1), b: NodeId(2) }, DType::S8);
        push(&mut g, Node::Const(Scalar::Int(DType::S8, 0)), DType::S8);
        push(
            &mut g,
            Node::Compare { direction: ComparisonDirection::Gt, compare_type: None, a: NodeId(3), b: NodeId(4) },
            DType::Pred,
        );
        // i + 100 wraps past 127 for i >= 28 in s8: nothing is known about it.
        assert_eq!(specialize(&g, &[64], 0, 0, 64).graph[5], Fold::Keep);
        assert_eq!(specialize(&g, &[64], 0, 0, 20).graph[5], Fold::Pred(true));
    }
}
