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
    /// A comparison (or a select of one) with this constant value.
    Pred(bool),
}

/// The most pieces [`split_points`] cuts a dimension into.
pub const MAX_PIECES: usize = 8;

/// Integer values a node may take: `lo..=hi`, or `None` when unknown.
type Interval = Option<(i128, i128)>;

/// `i + k` for a node that is `Index(dim)`, or `Index(dim) + const`, or
/// `const + Index(dim)`: `Some(k)`.
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
        _ => None,
    }
}

/// The indices of dimension `dim` (of `extent` elements), in increasing order
/// and strictly inside the dimension, at which some comparison of that index
/// (plus a constant) with a constant changes value. Empty when there are none
/// or when they would cut the dimension into more than [`MAX_PIECES`] pieces.
pub fn split_points(g: &Graph, dim: usize, extent: i64) -> Vec<i64> {
    use ComparisonDirection as D;
    let mut points = Vec::new();
    for node in &g.nodes {
        let Node::Compare { direction, a, b, .. } = node else {
            continue;
        };
        let konst = |id: &NodeId| match g.node(*id) {
            Node::Const(Scalar::Int(_, v)) => Some(*v),
            _ => None,
        };
        // `i + k  dir  c`, with the index on the left.
        let (k, dir, c) = match (index_offset(g, *a, dim), konst(b), index_offset(g, *b, dim), konst(a)) {
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
        let at = c - k;
        match dir {
            D::Lt | D::Ge => points.push(at),
            D::Le | D::Gt => points.push(at + 1),
            D::Eq | D::Ne => points.extend([at, at + 1]),
        }
    }
    let mut inside: Vec<i64> = points.into_iter().filter(|&p| p > 0 && p < extent as i128).map(|p| p as i64).collect();
    inside.sort_unstable();
    inside.dedup();
    if inside.len() + 1 > MAX_PIECES {
        return Vec::new();
    }
    inside
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

/// How each node of `g` folds when dimension `dim` of `space` runs over
/// `lo..hi` only (every other dimension over its whole extent).
pub fn specialize(g: &Graph, space: &[i64], dim: usize, lo: i64, hi: i64) -> Vec<Fold> {
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
            Node::Index(d) if *d == dim => (Some((lo as i128, hi as i128 - 1)), Fold::Keep),
            Node::Index(d) => (space.get(*d).map(|&e| (0, e as i128 - 1)), Fold::Keep),
            Node::Const(Scalar::Int(_, v)) => (Some((*v, *v)), Fold::Keep),
            Node::Convert { x, to } => (within(*to, at(x).filter(|_| type_range(g.dtype(*x)).is_some())), Fold::Keep),
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
    fold
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
        let first = specialize(&g, &[2, 10], 1, 0, 4);
        // The select reads the first operand, whose index clamp is gone.
        assert_eq!(first[sel.0 as usize], Fold::Same(NodeId(6)));
        assert_eq!(first[5], Fold::Same(NodeId(1)));
        assert_eq!(first[10], Fold::Pred(true));
        let second = specialize(&g, &[2, 10], 1, 4, 10);
        assert_eq!(second[sel.0 as usize], Fold::Same(NodeId(9)));
        assert_eq!(second[8], Fold::Same(NodeId(7)));
        assert_eq!(second[10], Fold::Pred(false));
        // Over the whole dimension nothing folds.
        let whole = specialize(&g, &[2, 10], 1, 0, 10);
        assert!(whole.iter().all(|f| *f == Fold::Keep || *f == Fold::Same(NodeId(1))), "{whole:?}");
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
        let f = specialize(&g, &[10], 0, 3, 4);
        assert_eq!(f[2], Fold::Pred(true));
        assert_eq!(f[3], Fold::Pred(true));
        let f = specialize(&g, &[10], 0, 4, 10);
        assert_eq!(f[2], Fold::Pred(false));
        assert_eq!(f[3], Fold::Pred(false));
        // Points outside the dimension do not split it.
        assert!(split_points(&g, 0, 3).is_empty());
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
        assert_eq!(specialize(&g, &[64], 0, 0, 64)[5], Fold::Keep);
        assert_eq!(specialize(&g, &[64], 0, 0, 20)[5], Fold::Pred(true));
    }
}
