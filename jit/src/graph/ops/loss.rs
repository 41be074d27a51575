//! The ONNX training losses models sometimes export with their graph:
//! `NegativeLogLikelihoodLoss` and `SoftmaxCrossEntropyLoss` (the latter a
//! log-softmax over the class axis, then the former). The class a target
//! names is picked by comparing an iota over the class axis with the target
//! (no gather); `ignore_index` targets count neither loss nor weight.

use smelt_hlo::attrs::ComparisonDirection;
use smelt_hlo::builder::Reducer;
use smelt_hlo::{DType, Opcode, Shape};

use super::util::*;
use crate::graph::lower::{LowerCx, Val};
use crate::graph::{GraphError, Node, Result};

/// `NegativeLogLikelihoodLoss(input[N, C, d...], target[N, d...], weight[C])`.
pub fn nll_loss(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let target = input(node, inputs, 1)?;
    Ok(vec![nll(cx, node, x, target, opt_input(inputs, 2))?])
}

/// `SoftmaxCrossEntropyLoss(scores[N, C, d...], labels[N, d...], weights[C])`:
/// the loss, and the log-probabilities where the model reads them.
pub fn softmax_cross_entropy_loss(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let x = input(node, inputs, 0)?;
    let labels = input(node, inputs, 1)?;
    if x.dims.len() < 2 || !x.dtype.is_float() {
        return Err(GraphError::node(node, format!("takes float scores [N, C, ...], not {} {:?}", x.dtype, x.dims)));
    }
    let log_prob = super::nn::softmax_over(cx, node, x, 1, true)?;
    let loss = nll(cx, node, &log_prob, labels, opt_input(inputs, 2))?;
    Ok(if wants_output(node, 1) { vec![loss, log_prob] } else { vec![loss] })
}

fn nll(cx: &mut LowerCx<'_>, node: &Node, x: &Val, target: &Val, weight: Option<&Val>) -> Result<Val> {
    let r = x.dims.len();
    let mut want = x.dims.clone();
    if r >= 2 {
        want.remove(1);
    }
    if r < 2 || target.dims != want || !target.dtype.is_int() || !x.dtype.is_float() {
        return Err(GraphError::node(
            node,
            format!(
                "takes float input [N, C, ...] and integer targets [N, ...], got {:?} and {} {:?}",
                x.dims, target.dtype, target.dims
            ),
        ));
    }
    let c = x.dims[1];
    if let Some(w) = weight
        && (w.dims != [c] || w.dtype != x.dtype)
    {
        return Err(GraphError::node(
            node,
            format!("weight must be [{c}] of the input's type, got {} {:?}", w.dtype, w.dims),
        ));
    }
    let reduction = node.string("reduction").unwrap_or("mean");
    if !matches!(reduction, "none" | "sum" | "mean") {
        return Err(GraphError::node(node, format!("reduction '{reduction}'")));
    }
    let t = x.dtype;
    let target = convert(cx, node, target, DType::S64)?;
    let dims_t: Vec<i64> = (0..r as i64).filter(|&d| d != 1).collect();
    let tb = emit(cx, node, |b| b.broadcast(target.id, &x.dims, &dims_t))?;
    let class = emit(cx, node, |b| b.iota(Shape::array(DType::S64, &x.dims), 1))?;
    let hit = emit(cx, node, |b| b.compare(ComparisonDirection::Eq, tb.id, class.id))?;
    let zero = splat(cx, node, t, 0.0, &x.dims)?;
    let picked = select(cx, node, &hit, x, &zero)?;
    let picked = reduce(cx, node, &picked, &[1], Reducer::Add, false)?;
    // Per element weight: weight[target], 1 without weights, 0 where ignored.
    let mut w = match weight {
        Some(wv) => {
            let wb = emit(cx, node, |b| b.broadcast(wv.id, &x.dims, &[1]))?;
            let w = select(cx, node, &hit, &wb, &zero)?;
            reduce(cx, node, &w, &[1], Reducer::Add, false)?
        }
        None => splat(cx, node, t, 1.0, &want)?,
    };
    if let Some(ignore) = node.int("ignore_index") {
        let ig = splat(cx, node, DType::S64, ignore as f64, &want)?;
        let ignored = compare(cx, node, ComparisonDirection::Eq, &target, &ig)?;
        let z = splat(cx, node, t, 0.0, &want)?;
        w = select(cx, node, &ignored, &z, &w)?;
    }
    let loss = binary(cx, node, Opcode::Multiply, &picked, &w)?;
    let loss = unary(cx, node, Opcode::Negate, &loss)?;
    let all: Vec<usize> = (0..want.len()).collect();
    match reduction {
        "none" => Ok(loss),
        "sum" => reduce(cx, node, &loss, &all, Reducer::Add, false),
        _ => {
            let total = reduce(cx, node, &loss, &all, Reducer::Add, false)?;
            let weights = reduce(cx, node, &w, &all, Reducer::Add, false)?;
            binary(cx, node, Opcode::Divide, &total, &weights)
        }
    }
}
