//! Control flow over subgraphs: `Loop` as an HLO `while`, `If` as an HLO
//! `conditional` (see [`if_`]).
//!
//! `Loop`: a body graph run while a trip count and a condition allow.
//! Semantics are ONNX's: inputs `M` (trip count, optional), `cond`
//! (optional), the loop-carried values, then (smelt's addition, attribute
//! `captured`) the values the body reads from the enclosing graph. The body
//! takes the iteration number (s64), the condition and every carried and
//! captured value, and returns the next condition, the next carried values
//! and any scan outputs, which are stacked along a new first axis.
//!
//! The body is lowered once into a computation of its own; the `while`'s
//! state is `(i, cond, M?, carried..., captured..., scan buffers...)`, its
//! condition `i < M && cond`, and its step calls the body, writes the scan
//! outputs at row `i` and counts. HLO's shapes are static, so carried values
//! keep their type across iterations, and scan outputs need the trip count
//! while lowering and a loop that cannot stop early.

use smelt_hlo::attrs::ComparisonDirection;
use smelt_hlo::{DType, InstId, Opcode, Shape};

use super::util::{emit, int_attr, opt_input, splat};
use crate::graph::lower::{LowerCx, Val, at, lower_subgraph};
use crate::graph::{GraphError, Node, NodeId, NodeKind, Result, Subgraph, Value};

/// Lowers a `Loop` node (see the module docs).
pub fn loop_(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let body = node.subgraph("body").ok_or_else(|| GraphError::node(node, "has no 'body' graph attribute"))?;
    let captured = usize::try_from(int_attr(node, "captured", 0))
        .map_err(|_| GraphError::node(node, "a negative 'captured' count"))?;
    let carried = inputs.len().checked_sub(2 + captured).ok_or_else(|| {
        GraphError::node(node, format!("takes {} inputs for {captured} captured values", inputs.len()))
    })?;
    if body.inputs.len() != inputs.len() || body.outputs.len() < 1 + carried {
        return Err(GraphError::node(
            node,
            format!(
                "its body takes {} inputs and gives {} outputs for {carried} loop-carried and {captured} captured values",
                body.inputs.len(),
                body.outputs.len()
            ),
        ));
    }
    let scans = body.outputs.len() - 1 - carried;
    let trips = opt_input(inputs, 0).map(|m| scalar_as(cx, node, m, DType::S64, "trip count M")).transpose()?;
    let cond = match opt_input(inputs, 1) {
        Some(c) => scalar_as(cx, node, c, DType::Pred, "condition")?,
        None => emit(cx, node, |b| b.constant(smelt_hlo::Literal::Array(smelt_hlo::Array::scalar(true))))?,
    };
    let mut state_in = Vec::with_capacity(inputs.len() - 2);
    for (k, v) in inputs[2..].iter().enumerate() {
        let what = if k < carried { "loop-carried value" } else { "captured value" };
        state_in.push(v.clone().ok_or_else(|| GraphError::node(node, format!("{what} {k} is missing")))?);
    }

    // The body as a function of (i, cond, carried..., captured...).
    let mut params = vec![(DType::S64, Vec::new()), (DType::Pred, Vec::new())];
    params.extend(state_in.iter().map(|v| (v.dtype, v.dims.clone())));
    let (outs, body_fn) = cx.sub(&format!("{}_body", node.name), |b| {
        let mut args = Vec::with_capacity(params.len());
        for (k, (dtype, dims)) in params.iter().enumerate() {
            let id = at(node, b.b.parameter(k as u32, Shape::array(*dtype, dims), &format!("p{k}")))?;
            let mut v = b.val(node, id)?;
            // A captured value is the same in every iteration: what is known
            // of it outside is known inside, and a rule that needs the value
            // of a cluster argument asks for it as outside.
            if k >= 2 + carried {
                v.constant = state_in[k - 2].constant.clone();
                v.param = state_in[k - 2].param;
            }
            args.push(v);
        }
        let mut outs = lower_subgraph(b, node, body, &args)?;
        outs[0] = scalar_as(b, node, &outs[0], DType::Pred, "the body's condition output")?;
        let ids: Vec<InstId> = outs.iter().map(|v| v.id).collect();
        let root = at(node, b.b.tuple(&ids))?;
        Ok((outs, root))
    })?;
    let body_fn = cx.add_computation(body_fn)?;
    for (j, (before, after)) in state_in.iter().zip(&outs[1..1 + carried]).enumerate() {
        if (before.dtype, &before.dims) != (after.dtype, &after.dims) {
            return Err(GraphError::unsupported(
                node,
                format!(
                    "loop-carried value {j} enters as {}{:?} and leaves the body as {}{:?}; loop state must keep its type",
                    before.dtype, before.dims, after.dtype, after.dims
                ),
            ));
        }
    }
    let rows = if scans > 0 { scan_rows(node, inputs, body, &outs[0])? } else { 0 };

    // The while's state: (i, cond, M?, carried..., captured..., buffers...).
    let zero = emit(cx, node, |b| b.constant(smelt_hlo::Literal::Array(smelt_hlo::Array::scalar(0i64))))?;
    let mut init = vec![zero.id, cond.id];
    init.extend(trips.iter().map(|m| m.id));
    init.extend(state_in.iter().map(|v| v.id));
    let first_buffer = init.len();
    for s in &outs[1 + carried..] {
        let dims: Vec<i64> = std::iter::once(rows).chain(s.dims.iter().copied()).collect();
        init.push(splat(cx, node, s.dtype, 0.0, &dims)?.id);
    }
    let init = at(node, cx.b.tuple(&init))?;
    let state_shape = at(node, cx.b.shape(init))?.clone();
    let has_trips = trips.is_some();

    let (_, condition) = cx.sub(&format!("{}_condition", node.name), |b| {
        let s = at(node, b.b.parameter(0, state_shape.clone(), "state"))?;
        let mut go = at(node, b.b.get_tuple_element(s, 1))?;
        if has_trips {
            let i = at(node, b.b.get_tuple_element(s, 0))?;
            let m = at(node, b.b.get_tuple_element(s, 2))?;
            let below = at(node, b.b.compare(ComparisonDirection::Lt, i, m))?;
            go = at(node, b.b.binary(Opcode::And, below, go))?;
        }
        Ok(((), go))
    })?;
    let condition = cx.add_computation(condition)?;

    let state_len = state_shape.tuple_elements().len();
    let fixed = 2 + usize::from(has_trips);
    let (_, step) = cx.sub(&format!("{}_step", node.name), |b| {
        let s = at(node, b.b.parameter(0, state_shape.clone(), "state"))?;
        let parts: Vec<InstId> =
            (0..state_len).map(|k| at(node, b.b.get_tuple_element(s, k as i64))).collect::<Result<_>>()?;
        let i = parts[0];
        let mut args = vec![i, parts[1]];
        args.extend(&parts[fixed..first_buffer]);
        let called = at(node, b.b.call(&args, body_fn))?;
        let out = |b: &mut LowerCx<'_>, k: usize| at(node, b.b.get_tuple_element(called, k as i64));
        let one = at(node, b.b.constant(smelt_hlo::Literal::Array(smelt_hlo::Array::scalar(1i64))))?;
        let mut next = vec![at(node, b.b.binary(Opcode::Add, i, one))?, out(b, 0)?];
        next.extend(&parts[2..fixed]);
        for j in 0..carried {
            next.push(out(b, 1 + j)?);
        }
        next.extend(&parts[fixed + carried..first_buffer]);
        let zero = at(node, b.b.constant(smelt_hlo::Literal::Array(smelt_hlo::Array::scalar(0i64))))?;
        for (k, s) in outs[1 + carried..].iter().enumerate() {
            if rows == 0 {
                // No iteration runs, and no row fits.
                next.push(parts[first_buffer + k]);
                continue;
            }
            let row: Vec<i64> = std::iter::once(1).chain(s.dims.iter().copied()).collect();
            let update = out(b, 1 + carried + k)?;
            let update = at(node, b.b.reshape(update, &row))?;
            let mut starts = vec![i];
            starts.resize(row.len(), zero);
            next.push(at(node, b.b.dynamic_update_slice(parts[first_buffer + k], update, &starts))?);
        }
        let root = at(node, b.b.tuple(&next))?;
        Ok(((), root))
    })?;
    let step = cx.add_computation(step)?;

    let done = at(node, cx.b.while_loop(init, condition, step))?;
    let mut results = Vec::with_capacity(carried + scans);
    for k in (fixed..fixed + carried).chain(first_buffer..state_len) {
        let id = at(node, cx.b.get_tuple_element(done, k as i64))?;
        results.push(cx.val(node, id)?);
    }
    Ok(results)
}

/// How many rows the scan outputs have: the trip count, which must be known
/// while lowering, of a loop that cannot stop before it.
fn scan_rows(node: &Node, inputs: &[Option<Val>], body: &Subgraph, cond_out: &Val) -> Result<i64> {
    let runs_out = opt_input(inputs, 1).is_none_or(|c| c.constant.as_ref().is_some_and(|a| a.data.get_f64(0) != 0.0))
        && (cond_out.constant.as_ref().is_some_and(|a| a.data.get_f64(0) != 0.0)
            || passes_through(body, body.outputs[0], body.inputs[1]));
    if !runs_out {
        return Err(GraphError::unsupported(
            node,
            "scan outputs of a loop whose condition may stop it early (their length would be known at run time only)",
        ));
    }
    match opt_input(inputs, 0) {
        None => Err(GraphError::unsupported(node, "scan outputs of a loop without a trip count")),
        Some(m) => match (&m.constant, m.param) {
            (Some(a), _) => Ok(a.data.get_f64(0).max(0.0) as i64),
            (None, Some(param)) => Err(GraphError::NeedsValue {
                node: node.name.clone(),
                op: node.op.clone(),
                what: "the trip count M of a loop with scan outputs (input 0)".into(),
                param,
            }),
            (None, None) => Err(GraphError::unsupported(
                node,
                "scan outputs need the trip count M while compiling; here it is computed at run time",
            )),
        },
    }
}

/// Whether body output `v` is body input `input` (through `Identity` nodes).
fn passes_through(body: &Subgraph, mut v: Value, input: NodeId) -> bool {
    loop {
        if v.node == input {
            return true;
        }
        let node = body.graph.node(v.node);
        match (&node.kind, node.op.as_str(), node.inputs.first().copied().flatten()) {
            (NodeKind::Op, "Identity", Some(inner)) => v = inner,
            _ => return false,
        }
    }
}

/// `v` as a scalar of `dtype` (a one-element tensor reshaped, converted).
fn scalar_as(cx: &mut LowerCx<'_>, node: &Node, v: &Val, dtype: DType, what: &str) -> Result<Val> {
    if v.dims.iter().product::<i64>() != 1 {
        return Err(GraphError::node(node, format!("the {what} must hold one element, not {:?}", v.dims)));
    }
    let mut x = v.clone();
    if !x.dims.is_empty() {
        x = emit(cx, node, |b| b.reshape(v.id, &[]))?;
    }
    if x.dtype != dtype {
        x = if dtype == DType::Pred {
            let zero = splat(cx, node, x.dtype, 0.0, &[])?;
            emit(cx, node, |b| b.compare(ComparisonDirection::Ne, x.id, zero.id))?
        } else {
            emit(cx, node, |b| b.convert(x.id, dtype))?
        };
    }
    // A known value stays known when only its dims change.
    x.constant = v.constant.as_ref().filter(|a| a.dtype() == dtype).map(|a| {
        let mut a = a.clone();
        a.dims = smelt_hlo::Dims::new();
        a
    });
    Ok(x)
}

/// Lowers an `If` node: inputs `cond`, then the values its branches read
/// from the enclosing graph (attribute `captured`, as many as the rest);
/// branches `then_branch` and `else_branch`, subgraphs taking those values.
/// A condition known while lowering lowers the branch taken in place;
/// otherwise an HLO `conditional` runs one branch. Outputs of the two
/// branches must have one dtype; shapes are broadcast numpy-style to a
/// common one (as `Where` would select them).
pub fn if_(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let branch = |key: &str| node.subgraph(key).ok_or_else(|| GraphError::node(node, format!("has no '{key}' graph")));
    let branches = [branch("then_branch")?, branch("else_branch")?];
    let cond = scalar_as(cx, node, super::util::input(node, inputs, 0)?, DType::Pred, "condition")?;
    let mut args = Vec::with_capacity(inputs.len() - 1);
    for (k, v) in inputs[1..].iter().enumerate() {
        args.push(v.clone().ok_or_else(|| GraphError::node(node, format!("captured value {k} is missing")))?);
    }
    for b in branches {
        if b.inputs.len() != args.len() || b.outputs.len() != branches[0].outputs.len() {
            return Err(GraphError::node(node, "its branches take other inputs or give other outputs than it has"));
        }
    }
    if let Some(taken) = &cond.constant {
        let b = if taken.data.get_f64(0) != 0.0 { branches[0] } else { branches[1] };
        return lower_subgraph(cx, node, b, &args);
    }

    // Each branch as a function of one tuple of the captured values.
    let arg_shape = Shape::Tuple(args.iter().map(|v| Shape::array(v.dtype, &v.dims)).collect());
    let mut lowered = Vec::with_capacity(2);
    for (b, tag) in branches.iter().zip(["then", "else"]) {
        let (outs, comp) = cx.sub(&format!("{}_{tag}", node.name), |b_cx| {
            let p = at(node, b_cx.b.parameter(0, arg_shape.clone(), "captured"))?;
            let mut inner = Vec::with_capacity(args.len());
            for (k, outside) in args.iter().enumerate() {
                let id = at(node, b_cx.b.get_tuple_element(p, k as i64))?;
                let mut v = b_cx.val(node, id)?;
                v.constant = outside.constant.clone();
                v.param = outside.param;
                inner.push(v);
            }
            let outs = lower_subgraph(b_cx, node, b, &inner)?;
            let ids: Vec<InstId> = outs.iter().map(|v| v.id).collect();
            let root = at(node, b_cx.b.tuple(&ids))?;
            Ok((outs, root))
        })?;
        lowered.push((outs, comp));
    }
    let (else_outs, else_comp) = lowered.pop().expect("two branches");
    let (then_outs, then_comp) = lowered.pop().expect("two branches");
    let mut common = Vec::with_capacity(then_outs.len());
    for (k, (t, e)) in then_outs.iter().zip(&else_outs).enumerate() {
        if t.dtype != e.dtype {
            return Err(GraphError::node(
                node,
                format!("output {k} is {} in one branch and {} in the other", t.dtype, e.dtype),
            ));
        }
        common.push(super::util::broadcast_shape(node, &t.dims, &e.dims)?);
    }
    // A branch whose outputs need broadcasting is wrapped in one that does.
    let mut ids = Vec::with_capacity(2);
    for (outs, comp, tag) in [(&then_outs, then_comp, "then"), (&else_outs, else_comp, "else")] {
        let fits = outs.iter().zip(&common).all(|(v, dims)| &v.dims == dims);
        let id = cx.add_computation(comp)?;
        if fits {
            ids.push(id);
            continue;
        }
        let (_, wrapped) = cx.sub(&format!("{}_{tag}_broadcast", node.name), |b_cx| {
            let p = at(node, b_cx.b.parameter(0, arg_shape.clone(), "captured"))?;
            let called = at(node, b_cx.b.call(&[p], id))?;
            let mut results = Vec::with_capacity(outs.len());
            for (k, dims) in common.iter().enumerate() {
                let out = at(node, b_cx.b.get_tuple_element(called, k as i64))?;
                let out = b_cx.val(node, out)?;
                results.push(super::util::broadcast_to(b_cx, node, &out, dims)?.id);
            }
            Ok(((), at(node, b_cx.b.tuple(&results))?))
        })?;
        ids.push(cx.add_computation(wrapped)?);
    }
    let operand = at(node, cx.b.tuple(&args.iter().map(|v| v.id).collect::<Vec<_>>()))?;
    let done = at(
        node,
        cx.b.add_instruction(Opcode::Conditional, &[cond.id, operand, operand], smelt_hlo::Attrs::None, &ids, None),
    )?;
    (0..common.len())
        .map(|k| {
            let id = at(node, cx.b.get_tuple_element(done, k as i64))?;
            cx.val(node, id)
        })
        .collect()
}
