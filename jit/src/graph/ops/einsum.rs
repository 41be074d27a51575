//! `Einsum`: Einstein summation over any number of operands, lowered to
//! diagonals, sums and pairwise `dot_general`s.
//!
//! The equation (`"bij,bjk->bik"`, `"ii"`, `"...ij,...jk"`) names each
//! operand's dimensions; `...` stands for the dimensions not named, aligned
//! from the right across operands (numpy's broadcasting). Without `->` the
//! output is the ellipsis dimensions, then the letters used once, sorted.
//! Per operand, a letter repeated takes the diagonal and a letter no other
//! operand nor the output uses is summed; then the operands are contracted
//! left to right, each `dot_general` batching the letters both sides share
//! and something later needs, and summing the shared ones nothing needs;
//! the result is transposed into the output's order.

use std::collections::HashMap;

use smelt_hlo::Shape;
use smelt_hlo::attrs::{ComparisonDirection, DotDims};
use smelt_hlo::builder::Reducer;

use super::util::{emit, reduce, splat, transpose};
use crate::graph::lower::{LowerCx, Val};
use crate::graph::{GraphError, Node, Result};

/// A dimension's name: a letter, or ellipsis dimension `k` (from the left of
/// the widest ellipsis).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Label {
    Letter(char),
    Ellipsis(usize),
}

/// One term of the equation: letters, and where `...` stands among them.
struct Term {
    letters: Vec<char>,
    ellipsis_at: Option<usize>,
}

fn parse_term(node: &Node, t: &str) -> Result<Term> {
    let bad = |m: String| GraphError::node(node, format!("equation term '{t}': {m}"));
    let mut letters = Vec::new();
    let mut ellipsis_at = None;
    let mut rest = t;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("...") {
            if ellipsis_at.replace(letters.len()).is_some() {
                return Err(bad("'...' appears twice".into()));
            }
            rest = after;
            continue;
        }
        let c = rest.chars().next().expect("not empty");
        if !c.is_ascii_alphabetic() {
            return Err(bad(format!("'{c}' is not a letter")));
        }
        letters.push(c);
        rest = &rest[1..];
    }
    Ok(Term { letters, ellipsis_at })
}

/// `term`'s labels for an operand of `rank` dims, `wide` the widest ellipsis.
fn labels(node: &Node, term: &Term, rank: usize, wide: usize) -> Result<Vec<Label>> {
    let named = term.letters.len();
    let mut out: Vec<Label> = term.letters.iter().map(|&c| Label::Letter(c)).collect();
    match term.ellipsis_at {
        None if rank != named => {
            Err(GraphError::node(node, format!("an operand of rank {rank} is named by {named} letters")))
        }
        None => Ok(out),
        Some(at) => {
            let extra = rank
                .checked_sub(named)
                .ok_or_else(|| GraphError::node(node, format!("an operand of rank {rank} names {named} dims")))?;
            let dots = (wide - extra..wide).map(Label::Ellipsis);
            out.splice(at..at, dots);
            Ok(out)
        }
    }
}

/// Lowers an `Einsum` node (see the module docs).
pub fn einsum(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let equation: String = node
        .string("equation")
        .ok_or_else(|| GraphError::node(node, "has no 'equation' attribute"))?
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let ops: Vec<Val> = inputs
        .iter()
        .enumerate()
        .map(|(k, v)| v.clone().ok_or_else(|| GraphError::node(node, format!("operand {k} is missing"))))
        .collect::<Result<_>>()?;
    if ops.is_empty() {
        return Err(GraphError::node(node, "takes at least one operand"));
    }
    if let Some(v) = ops.iter().find(|v| v.dtype != ops[0].dtype) {
        return Err(GraphError::node(node, format!("operands of types {} and {}", ops[0].dtype, v.dtype)));
    }
    let (lhs, rhs) = match equation.split_once("->") {
        Some((l, r)) => (l, Some(r)),
        None => (equation.as_str(), None),
    };
    let terms: Vec<Term> = lhs.split(',').map(|t| parse_term(node, t)).collect::<Result<_>>()?;
    if terms.len() != ops.len() {
        return Err(GraphError::node(
            node,
            format!("the equation names {} operands, {} given", terms.len(), ops.len()),
        ));
    }
    let wide = terms
        .iter()
        .zip(&ops)
        .filter(|(t, _)| t.ellipsis_at.is_some())
        .map(|(t, v)| v.dims.len().saturating_sub(t.letters.len()))
        .max()
        .unwrap_or(0);
    let mut named: Vec<Vec<Label>> = Vec::with_capacity(ops.len());
    for (t, v) in terms.iter().zip(&ops) {
        named.push(labels(node, t, v.dims.len(), wide)?);
    }
    let out_labels: Vec<Label> = match rhs {
        Some(r) => {
            let t = parse_term(node, r)?;
            let mut out: Vec<Label> = t.letters.iter().map(|&c| Label::Letter(c)).collect();
            if let Some(at) = t.ellipsis_at {
                out.splice(at..at, (0..wide).map(Label::Ellipsis));
            }
            out
        }
        None => {
            let mut once: Vec<char> = Vec::new();
            let count = |c: char| named.iter().flatten().filter(|&&l| l == Label::Letter(c)).count();
            for l in named.iter().flatten() {
                if let Label::Letter(c) = *l
                    && count(c) == 1
                    && !once.contains(&c)
                {
                    once.push(c);
                }
            }
            once.sort_unstable();
            (0..wide).map(Label::Ellipsis).chain(once.into_iter().map(Label::Letter)).collect()
        }
    };
    for (k, l) in out_labels.iter().enumerate() {
        if out_labels[..k].contains(l) || !named.iter().flatten().any(|x| x == l) {
            return Err(GraphError::node(node, format!("output label {l:?} is repeated or names no input dimension")));
        }
    }
    // Each label's size: equal across operands, or 1 where it broadcasts.
    let mut size: HashMap<Label, i64> = HashMap::new();
    for (ls, v) in named.iter().zip(&ops) {
        for (l, &d) in ls.iter().zip(&v.dims) {
            let s = size.entry(*l).or_insert(d);
            if *s != d && *s != 1 && d != 1 {
                return Err(GraphError::node(node, format!("label {l:?} has sizes {s} and {d}")));
            }
            *s = (*s).max(d);
        }
    }

    // Per operand: broadcast, diagonals, sums of what nothing else uses.
    let mut terms_left: Vec<(Val, Vec<Label>)> = Vec::with_capacity(ops.len());
    for (k, (mut v, mut ls)) in ops.into_iter().zip(named.clone()).enumerate() {
        let full: Vec<i64> = ls.iter().map(|l| size[l]).collect();
        if full != v.dims {
            let dims: Vec<i64> = (0..full.len() as i64).collect();
            v = emit(cx, node, |b| b.broadcast(v.id, &full, &dims))?;
        }
        while let Some((p, q)) = repeated(&ls) {
            v = diagonal(cx, node, &v, p, q)?;
            ls.remove(q);
        }
        let elsewhere = |l: &Label| {
            out_labels.contains(l) || named.iter().enumerate().any(|(j, other)| j != k && other.contains(l))
        };
        let (v2, ls2) = sum_out(cx, node, v, ls, |l| !elsewhere(l))?;
        terms_left.push((v2, ls2));
    }

    // Contract left to right.
    let mut iter = terms_left.into_iter();
    let (mut acc, mut acc_ls) = iter.next().expect("one operand at least");
    let rest: Vec<(Val, Vec<Label>)> = iter.collect();
    for (k, (v, ls)) in rest.iter().enumerate() {
        let later = |l: &Label| out_labels.contains(l) || rest[k + 1..].iter().any(|(_, o)| o.contains(l));
        // Labels only one side has and nothing later needs are summed first.
        let (a, a_ls) = sum_out(cx, node, acc, acc_ls, |l| !later(l) && !ls.contains(l))?;
        let (b, b_ls) = sum_out(cx, node, v.clone(), ls.clone(), |l| !later(l) && !a_ls.contains(l))?;
        let shared: Vec<Label> = a_ls.iter().copied().filter(|l| b_ls.contains(l)).collect();
        let batch: Vec<Label> = shared.iter().copied().filter(|l| later(l)).collect();
        let contract: Vec<Label> = shared.iter().copied().filter(|l| !later(l)).collect();
        let pos = |ls: &[Label], l: &Label| ls.iter().position(|x| x == l).expect("label of the operand") as i64;
        let dims = DotDims {
            lhs_batch: batch.iter().map(|l| pos(&a_ls, l)).collect(),
            rhs_batch: batch.iter().map(|l| pos(&b_ls, l)).collect(),
            lhs_contracting: contract.iter().map(|l| pos(&a_ls, l)).collect(),
            rhs_contracting: contract.iter().map(|l| pos(&b_ls, l)).collect(),
        };
        acc = emit(cx, node, |bl| bl.dot(a.id, b.id, dims, None))?;
        acc_ls = batch.clone();
        acc_ls.extend(a_ls.iter().filter(|l| !shared.contains(l)));
        acc_ls.extend(b_ls.iter().filter(|l| !shared.contains(l)));
    }
    let (acc, acc_ls) = sum_out(cx, node, acc, acc_ls, |l| !out_labels.contains(l))?;
    let perm: Vec<i64> =
        out_labels.iter().map(|l| acc_ls.iter().position(|x| x == l).expect("output label kept") as i64).collect();
    Ok(vec![transpose(cx, node, &acc, &perm)?])
}

/// The first pair of positions holding one label.
fn repeated(ls: &[Label]) -> Option<(usize, usize)> {
    (0..ls.len()).find_map(|q| ls[..q].iter().position(|l| *l == ls[q]).map(|p| (p, q)))
}

/// `v`'s diagonal over dims `p` and `q` (equal sizes), dim `q` dropped.
fn diagonal(cx: &mut LowerCx<'_>, node: &Node, v: &Val, p: usize, q: usize) -> Result<Val> {
    let shape = Shape::array(smelt_hlo::DType::S64, &v.dims);
    let ip = emit(cx, node, |b| b.iota(shape.clone(), p as i64))?;
    let iq = emit(cx, node, |b| b.iota(shape.clone(), q as i64))?;
    let on = emit(cx, node, |b| b.compare(ComparisonDirection::Eq, ip.id, iq.id))?;
    let zero = splat(cx, node, v.dtype, 0.0, &v.dims)?;
    let kept = emit(cx, node, |b| b.select(on.id, v.id, zero.id))?;
    reduce(cx, node, &kept, &[q], Reducer::Add, false)
}

/// Sums `v` over the dims whose label `drop` says, removing their labels.
fn sum_out(
    cx: &mut LowerCx<'_>,
    node: &Node,
    v: Val,
    ls: Vec<Label>,
    drop: impl Fn(&Label) -> bool,
) -> Result<(Val, Vec<Label>)> {
    let axes: Vec<usize> = (0..ls.len()).filter(|&i| drop(&ls[i])).collect();
    if axes.is_empty() {
        return Ok((v, ls));
    }
    let summed = reduce(cx, node, &v, &axes, Reducer::Add, false)?;
    let kept = ls.into_iter().filter(|l| !drop(l)).collect();
    Ok((summed, kept))
}
