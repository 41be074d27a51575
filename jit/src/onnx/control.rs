//! ONNX `If` and `Loop`, inlined while importing.
//!
//! A subgraph (a branch, a loop body) is imported into the graph itself: its
//! tensors get names of their own (`<node>/then/...`, `<node>/3/...` for
//! iteration 3), its inputs are bound to the tensors they receive, and names
//! it does not define resolve in the enclosing scopes (ONNX's outer-scope
//! references). Nested subgraphs resolve through every enclosing renaming.
//!
//! - `If` whose condition is a constant imports the branch taken only. A
//!   condition computed at run time imports both branches and selects each
//!   output with `Where(cond, then, else)`: both run (they are pure), and
//!   their outputs must have shapes `Where` can broadcast.
//! - `Loop` with a constant trip count `M` of at most [`UNROLL_TRIPS`] is
//!   unrolled. Iteration `i` gets the constant `i` as its iteration number
//!   (so rules that need it while compiling see it). While the condition is
//!   known true, each iteration's state is the body's outputs; once the body
//!   computes the condition at run time, later iterations keep their state
//!   where it is false (`Where`) and the condition becomes the conjunction
//!   (`And`), which is ONNX's "stop when false". Scan outputs are stacked
//!   along a new first axis, which needs every iteration to run: with a
//!   run-time condition they are refused.
//! - Any other `Loop` (a longer or run-time trip count, none at all) becomes
//!   one graph `Loop` node whose body is a [`Subgraph`] of its own, lowered
//!   to an HLO `while` ([`crate::graph::ops`]' control rule). The names the
//!   body reads from enclosing scopes become extra inputs of the node
//!   (attribute `captured`) and placeholders of the body.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use smelt_hlo::Array;

use super::proto::{GraphProto, NodeProto, attribute_proto::AttributeType};
use super::{Importer, OnnxError, add_constant as exact_constant, add_op, free_name, tensor, upgrade};
use crate::graph::ops::util::array_ints;
use crate::graph::{Attr, Graph, Node, NodeKind, Subgraph, Value};

/// The operators this module inlines.
pub const OPS: [&str; 2] = ["If", "Loop"];

/// The most iterations a `Loop` is unrolled into; longer ones run as a `while`.
pub const UNROLL_TRIPS: i64 = 16;

/// Imports `If` or `Loop` node `n` (named `name` in the graph).
pub(crate) fn import(cx: &mut Importer, n: &NodeProto, name: &str) -> Result<(), OnnxError> {
    let err = |message: String| OnnxError::Node { node: name.to_string(), op: n.op_type.clone(), message };
    let subgraph = |key: &str| -> Result<&GraphProto, OnnxError> {
        let a = n.attribute.iter().find(|a| a.name == key).ok_or_else(|| err(format!("has no '{key}' attribute")))?;
        if a.r#type != AttributeType::Graph as i32 {
            return Err(err(format!("attribute '{key}' is not a graph")));
        }
        a.g.as_ref().ok_or_else(|| err(format!("attribute '{key}' holds no graph")))
    };
    match n.op_type.as_str() {
        "If" => {
            let cond = n.input.first().filter(|c| !c.is_empty()).ok_or_else(|| err("needs a condition".into()))?;
            let cond = tensor(cx, cond).map_err(err)?;
            let (then_g, else_g) = (subgraph("then_branch")?, subgraph("else_branch")?);
            for g in [then_g, else_g] {
                if g.output.len() != n.output.len() {
                    return Err(err(format!("a branch has {} outputs, the node {}", g.output.len(), n.output.len())));
                }
            }
            match known_bool(&cx.graph, cond) {
                Some(taken) => {
                    let (g, tag) = if taken { (then_g, "then") } else { (else_g, "else") };
                    let outs = inline(cx, g, &format!("{name}/{tag}"), HashMap::new())?;
                    for (o, v) in n.output.iter().zip(outs) {
                        add(&mut cx.graph, "Identity", o, &[v], vec![]).map_err(err)?;
                    }
                }
                None => {
                    let then_outs = inline(cx, then_g, &format!("{name}/then"), HashMap::new())?;
                    let else_outs = inline(cx, else_g, &format!("{name}/else"), HashMap::new())?;
                    for ((o, t), e) in n.output.iter().zip(then_outs).zip(else_outs) {
                        add(&mut cx.graph, "Where", o, &[cond, t, e], vec![]).map_err(err)?;
                    }
                }
            }
            Ok(())
        }
        "Loop" => import_loop(cx, n, name, subgraph("body")?).map_err(err),
        other => Err(err(format!("'{other}' is not a control-flow operator"))),
    }
}

/// Imports `Loop` node `n`: unrolled when its trip count is a small
/// constant, else as a graph `Loop` node (see the module docs).
fn import_loop(cx: &mut Importer, n: &NodeProto, name: &str, body: &GraphProto) -> Result<(), String> {
    let input = |k: usize| n.input.get(k).filter(|t| !t.is_empty());
    let trips = match input(0) {
        Some(m) => match constant(&cx.graph, tensor(cx, m)?).map(|a| array_ints(&a)).as_deref() {
            Some([m]) => Some(*m),
            _ => None,
        },
        None => None,
    };
    let carried = n.input.len().saturating_sub(2);
    if body.input.len() != carried + 2 || body.output.len() < carried + 1 {
        return Err(format!(
            "the body takes {} inputs and gives {} outputs for {carried} loop-carried values",
            body.input.len(),
            body.output.len()
        ));
    }
    let Some(trips) = trips.filter(|m| *m <= UNROLL_TRIPS) else {
        return import_while(cx, n, name, body, carried);
    };
    let scans = body.output.len() - 1 - carried;
    if n.output.len() != carried + scans {
        return Err(format!("has {} outputs, the body gives {carried} states and {scans} scans", n.output.len()));
    }
    // The condition entering each iteration: known (Some) or a graph value.
    let mut cond: Result<bool, Value> = match input(1) {
        None => Ok(true),
        Some(c) => {
            let v = tensor(cx, c)?;
            known_bool(&cx.graph, v).ok_or(v)
        }
    };
    let mut state: Vec<Value> = (0..carried).map(|j| tensor(cx, &n.input[j + 2])).collect::<Result<_, _>>()?;
    let mut stacked: Vec<Vec<Value>> = vec![Vec::new(); scans];
    for i in 0..trips {
        if cond == Ok(false) {
            break;
        }
        if cond.is_err() && scans > 0 {
            // Whether this iteration runs is known at run time only.
            return Err("has scan outputs and a condition computed at run time (their length would be too)".into());
        }
        let prefix = format!("{name}/{i}");
        let mut bind = HashMap::new();
        let iter = add_constant(&mut cx.graph, &format!("{prefix}/iteration"), Array::scalar(i))?;
        bind.insert(body.input[0].name.clone(), iter);
        let cond_in = match cond {
            Ok(c) => add_constant(&mut cx.graph, &format!("{prefix}/condition"), Array::scalar(c))?,
            Err(v) => v,
        };
        bind.insert(body.input[1].name.clone(), cond_in);
        for (j, v) in state.iter().enumerate() {
            bind.insert(body.input[j + 2].name.clone(), *v);
        }
        let outs = inline(cx, body, &prefix, bind).map_err(|e| e.to_string())?;
        let next = &outs[1..1 + carried];
        match cond {
            Ok(_) => state = next.to_vec(),
            Err(entering) => {
                for (j, (old, new)) in state.clone().iter().zip(next).enumerate() {
                    let kept = format!("{prefix}/state_{j}");
                    state[j] = add(&mut cx.graph, "Where", &kept, &[entering, *new, *old], vec![])?;
                }
            }
        }
        for (k, v) in outs[1 + carried..].iter().enumerate() {
            stacked[k].push(*v);
        }
        cond = match (cond, known_bool(&cx.graph, outs[0])) {
            (Ok(true), Some(c)) => Ok(c),
            (Ok(true), None) => Err(outs[0]),
            (Err(entering), _) => {
                Err(add(&mut cx.graph, "And", &format!("{prefix}/running"), &[entering, outs[0]], vec![])?)
            }
            (Ok(false), _) => unreachable!("the loop stopped"),
        };
    }
    for (o, v) in n.output.iter().zip(&state) {
        add(&mut cx.graph, "Identity", o, &[*v], vec![])?;
    }
    for (k, o) in n.output[carried..].iter().enumerate() {
        if stacked[k].is_empty() {
            return Err(format!("scan output '{o}' would be empty (no iteration runs)"));
        }
        let parts: Vec<Value> = stacked[k]
            .iter()
            .enumerate()
            .map(|(i, &v)| {
                add(
                    &mut cx.graph,
                    "Unsqueeze",
                    &format!("{name}/{i}/scan_{k}"),
                    &[v],
                    vec![("axes", Attr::Ints(vec![0]))],
                )
            })
            .collect::<Result<_, _>>()?;
        add(&mut cx.graph, "Concat", o, &parts, vec![("axis", Attr::Int(0))])?;
    }
    Ok(())
}

/// Imports `Loop` node `n` as one graph `Loop` node running `body`, a
/// subgraph of its own that takes the names it reads from enclosing scopes
/// as extra inputs; `carried` values, checked against the body.
fn import_while(cx: &mut Importer, n: &NodeProto, name: &str, body: &GraphProto, carried: usize) -> Result<(), String> {
    let free = free_names(body);
    let mut captured = Vec::with_capacity(free.len());
    for f in &free {
        if cx.seqs.contains(&cx.resolve(f)) {
            return Err(format!("the body reads sequence '{f}' (a loop body may read tensors only)"));
        }
        captured.push(tensor(cx, f)?);
    }
    let mut sub = Importer { graph: Graph::new(), seqs: Default::default(), opset: cx.opset, scopes: Vec::new() };
    let mut inputs = Vec::with_capacity(body.input.len() + free.len());
    for (k, i) in body.input.iter().enumerate() {
        // The types bound are the loop's own; the declared one names it.
        let dtype = match k {
            0 => smelt_hlo::DType::S64,
            1 => smelt_hlo::DType::Pred,
            _ => super::declared(i).ok().and_then(|(t, _)| tensor::dtype(t).ok()).unwrap_or(smelt_hlo::DType::F32),
        };
        inputs.push(sub.graph.placeholder(&i.name, dtype, Vec::new()).map_err(|e| e.to_string())?.node);
    }
    for (f, v) in free.iter().zip(&captured) {
        let dtype = match &cx.graph.node(v.node).kind {
            NodeKind::Constant(a) => a.dtype(),
            NodeKind::Placeholder { dtype, .. } => *dtype,
            _ => smelt_hlo::DType::F32,
        };
        inputs.push(sub.graph.placeholder(f, dtype, Vec::new()).map_err(|e| e.to_string())?.node);
    }
    for t in &body.initializer {
        let a = tensor::decode(t).map_err(|m| format!("initializer '{}': {m}", t.name))?;
        sub.graph.constant(&t.name, a).map_err(|e| e.to_string())?;
    }
    let rewritten;
    let nodes = if cx.opset < upgrade::TARGET {
        rewritten = upgrade::rewrite_nodes(body, cx.opset).map_err(|e| e.to_string())?;
        &rewritten
    } else {
        &body.node
    };
    super::refuse_foreign_ops(nodes).map_err(|e| e.to_string())?;
    for (k, node) in nodes.iter().enumerate() {
        sub.node(node, k).map_err(|e| format!("in its body: {e}"))?;
    }
    let outputs = body
        .output
        .iter()
        .map(|o| sub.graph.tensor(&o.name).ok_or_else(|| format!("its body does not compute output '{}'", o.name)))
        .collect::<Result<Vec<_>, _>>()?;
    let subgraph = Subgraph { graph: Arc::new(sub.graph), inputs, outputs };
    let mut node_inputs = Vec::with_capacity(n.input.len() + captured.len());
    for (k, i) in n.input.iter().enumerate() {
        node_inputs.push(if i.is_empty() { None } else { Some(tensor(cx, i).map_err(|e| format!("input {k}: {e}"))?) });
    }
    node_inputs.resize(carried + 2, None);
    node_inputs.extend(captured.into_iter().map(Some));
    let node = Node {
        name: name.to_string(),
        op: "Loop".into(),
        kind: NodeKind::Op,
        inputs: node_inputs,
        outputs: n.output.clone(),
        attrs: [("body".to_string(), Attr::Graph(subgraph)), ("captured".to_string(), Attr::Int(free.len() as i64))]
            .into_iter()
            .collect(),
        compile: None,
    };
    cx.graph.add_node(node).map_err(|e| e.to_string())?;
    Ok(())
}

/// The names `g` reads but does not define (its nested subgraphs' reads
/// included), in first-use order: ONNX's outer-scope references.
fn free_names(g: &GraphProto) -> Vec<String> {
    let mut defined: HashSet<&str> = g.input.iter().map(|i| i.name.as_str()).collect();
    defined.extend(g.initializer.iter().map(|t| t.name.as_str()));
    for n in &g.node {
        defined.extend(n.output.iter().map(String::as_str));
    }
    let mut free = Vec::new();
    let note = |name: &str, free: &mut Vec<String>| {
        if !name.is_empty() && !defined.contains(name) && !free.iter().any(|f| f == name) {
            free.push(name.to_string());
        }
    };
    for n in &g.node {
        for i in &n.input {
            note(i, &mut free);
        }
        for a in &n.attribute {
            if let Some(inner) = &a.g {
                for name in free_names(inner) {
                    note(&name, &mut free);
                }
            }
        }
    }
    for o in &g.output {
        note(&o.name, &mut free);
    }
    free
}

/// Imports subgraph `g` under `prefix`, its inputs bound by `bind` (input
/// name to value); returns the values of its outputs.
fn inline(
    cx: &mut Importer,
    g: &GraphProto,
    prefix: &str,
    bind: HashMap<String, Value>,
) -> Result<Vec<Value>, OnnxError> {
    let rewritten;
    let nodes = if cx.opset < upgrade::TARGET {
        rewritten = upgrade::rewrite_nodes(g, cx.opset)?;
        &rewritten
    } else {
        &g.node
    };
    super::refuse_foreign_ops(nodes)?;
    let mut scope: HashMap<String, String> = HashMap::new();
    for (name, v) in bind {
        scope.insert(name, cx.graph.tensor_name(v).to_string());
    }
    for t in &g.initializer {
        let a = tensor::decode(t).map_err(|message| OnnxError::Tensor { tensor: t.name.clone(), message })?;
        let v = add_constant(&mut cx.graph, &format!("{prefix}/{}", t.name), a)
            .map_err(|m| OnnxError::Tensor { tensor: t.name.clone(), message: m })?;
        scope.insert(t.name.clone(), cx.graph.tensor_name(v).to_string());
    }
    cx.scopes.push(scope);
    let result = (|| {
        for (k, node) in nodes.iter().enumerate() {
            let mut renamed = node.clone();
            for i in renamed.input.iter_mut().filter(|i| !i.is_empty()) {
                *i = cx.resolve(i);
            }
            let base = if node.name.is_empty() { node.op_type.as_str() } else { node.name.as_str() };
            renamed.name = free_name(&cx.graph, &format!("{prefix}/{base}"));
            for o in renamed.output.iter_mut().filter(|o| !o.is_empty()) {
                let unique = free_name(&cx.graph, &format!("{prefix}/{o}"));
                cx.scopes.last_mut().expect("pushed above").insert(o.clone(), unique.clone());
                *o = unique;
            }
            cx.node(&renamed, k)?;
        }
        g.output
            .iter()
            .map(|o| {
                let t = cx.resolve(&o.name);
                cx.graph.tensor(&t).ok_or_else(|| OnnxError::GraphIo {
                    kind: "output",
                    name: format!("{prefix}/{}", o.name),
                    message: "no node of the subgraph or its enclosing scopes produces it".into(),
                })
            })
            .collect()
    })();
    cx.scopes.pop();
    result
}

/// The value named `name` (resolved through the subgraph scopes).
fn tensor(cx: &Importer, name: &str) -> Result<Value, String> {
    let t = cx.resolve(name);
    cx.graph
        .tensor(&t)
        .ok_or_else(|| format!("input '{name}' is not produced by any earlier node, input or initializer"))
}

/// A constant's value, looking through `Identity` nodes.
fn constant(graph: &Graph, v: Value) -> Option<Array> {
    let node = graph.node(v.node);
    match &node.kind {
        NodeKind::Constant(a) => Some(a.clone()),
        NodeKind::Op if node.op == "Identity" => constant(graph, node.inputs.first().copied().flatten()?),
        _ => None,
    }
}

/// A constant scalar condition's value.
fn known_bool(graph: &Graph, v: Value) -> Option<bool> {
    let a = constant(graph, v)?;
    (a.len() == 1).then(|| a.data.get_f64(0) != 0.0)
}

/// A node of op `op` with one output, named `out` or, when that is taken, a
/// free variant of it.
fn add(graph: &mut Graph, op: &str, out: &str, inputs: &[Value], attrs: Vec<(&str, Attr)>) -> Result<Value, String> {
    let out = free_name(graph, out);
    add_op(graph, op, &out, inputs, attrs)
}

/// A constant named `out` or a free variant of it.
fn add_constant(graph: &mut Graph, out: &str, a: Array) -> Result<Value, String> {
    let out = free_name(graph, out);
    exact_constant(graph, &out, a)
}
