//! ONNX `If` and `Loop`: inlined while importing where that is cheap, else
//! one graph node each running subgraphs of their own.
//!
//! An inlined subgraph (a branch, an unrolled loop's body) is imported into
//! the graph itself: its tensors get names of their own (`<node>/then/...`,
//! `<node>/3/...` for iteration 3), its inputs are bound to the tensors they
//! receive, and names it does not define resolve in the enclosing scopes
//! (ONNX's outer-scope references). Nested subgraphs resolve through every
//! enclosing renaming.
//!
//! - `If` whose condition is a constant imports the branch taken only. A
//!   condition computed at run time makes one graph `If` node whose two
//!   branches are [`Subgraph`]s, lowered to an HLO `conditional`
//!   ([`crate::graph::ops`]' control rules): one branch runs.
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
//!   one graph `Loop` node whose body is a [`Subgraph`], lowered to an HLO
//!   `while`.
//!
//! A subgraph of its own takes the names it (or a branch beside it) reads
//! from enclosing scopes as extra inputs of its node (attribute `captured`)
//! and placeholders of its graph.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use smelt_hlo::{Array, DType};

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
                None => import_conditional(cx, n, name, cond, [then_g, else_g]).map_err(err)?,
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
    let captured = captured_values(cx, &free)?;
    let leading: Vec<(&str, DType)> = body
        .input
        .iter()
        .enumerate()
        .map(|(k, i)| {
            // The types bound are the loop's own; the declared one names it.
            let dtype = match k {
                0 => DType::S64,
                1 => DType::Pred,
                _ => super::declared(i).ok().and_then(|(t, _)| tensor::dtype(t).ok()).unwrap_or(DType::F32),
            };
            (i.name.as_str(), dtype)
        })
        .collect();
    let subgraph = import_body(cx, body, &leading, &free, &captured)?;
    let mut node_inputs = Vec::with_capacity(n.input.len() + captured.len());
    for (k, i) in n.input.iter().enumerate() {
        node_inputs.push(if i.is_empty() { None } else { Some(tensor(cx, i).map_err(|e| format!("input {k}: {e}"))?) });
    }
    node_inputs.resize(carried + 2, None);
    node_inputs.extend(captured.into_iter().map(Some));
    let attrs = vec![("body", Attr::Graph(subgraph)), ("captured", Attr::Int(free.len() as i64))];
    add_node(cx, name, "Loop", node_inputs, &n.output, attrs)
}

/// Imports `If` node `n`, whose condition is computed at run time, as one
/// graph `If` node running one of its branches, each a subgraph of its own
/// taking every name either branch reads from enclosing scopes as inputs.
fn import_conditional(
    cx: &mut Importer,
    n: &NodeProto,
    name: &str,
    cond: Value,
    branches: [&GraphProto; 2],
) -> Result<(), String> {
    let mut free = free_names(branches[0]);
    for f in free_names(branches[1]) {
        if !free.contains(&f) {
            free.push(f);
        }
    }
    let captured = captured_values(cx, &free)?;
    let then_g = import_body(cx, branches[0], &[], &free, &captured)?;
    let else_g = import_body(cx, branches[1], &[], &free, &captured)?;
    let inputs = std::iter::once(Some(cond)).chain(captured.into_iter().map(Some)).collect();
    let attrs = vec![
        ("then_branch", Attr::Graph(then_g)),
        ("else_branch", Attr::Graph(else_g)),
        ("captured", Attr::Int(free.len() as i64)),
    ];
    add_node(cx, name, "If", inputs, &n.output, attrs)
}

/// The values `free` names in the enclosing scopes (tensors only).
fn captured_values(cx: &Importer, free: &[String]) -> Result<Vec<Value>, String> {
    free.iter()
        .map(|f| {
            if cx.seqs.contains(&cx.resolve(f)) {
                return Err(format!("a subgraph reads sequence '{f}' (subgraphs may read tensors only)"));
            }
            tensor(cx, f)
        })
        .collect()
}

/// Imports `g` as a graph of its own: placeholders for its `leading` inputs
/// and then for each name of `free` (standing for `captured`), its
/// initializers and nodes; its outputs in order.
fn import_body(
    cx: &Importer,
    g: &GraphProto,
    leading: &[(&str, DType)],
    free: &[String],
    captured: &[Value],
) -> Result<Subgraph, String> {
    let mut sub = Importer { graph: Graph::new(), seqs: Default::default(), opset: cx.opset, scopes: Vec::new() };
    let mut inputs = Vec::with_capacity(leading.len() + free.len());
    for &(name, dtype) in leading {
        inputs.push(sub.graph.placeholder(name, dtype, Vec::new()).map_err(|e| e.to_string())?.node);
    }
    for (f, v) in free.iter().zip(captured) {
        let dtype = match &cx.graph.node(v.node).kind {
            NodeKind::Constant(a) => a.dtype(),
            NodeKind::Placeholder { dtype, .. } => *dtype,
            _ => DType::F32,
        };
        inputs.push(sub.graph.placeholder(f, dtype, Vec::new()).map_err(|e| e.to_string())?.node);
    }
    for t in &g.initializer {
        let a = tensor::decode(t).map_err(|m| format!("initializer '{}': {m}", t.name))?;
        sub.graph.constant(&t.name, a).map_err(|e| e.to_string())?;
    }
    let rewritten;
    let nodes = if cx.opset < upgrade::TARGET {
        rewritten = upgrade::rewrite_nodes(g, cx.opset).map_err(|e| e.to_string())?;
        &rewritten
    } else {
        &g.node
    };
    super::refuse_foreign_ops(nodes).map_err(|e| e.to_string())?;
    for (k, node) in nodes.iter().enumerate() {
        sub.node(node, k).map_err(|e| format!("in subgraph '{}': {e}", g.name))?;
    }
    g.output
        .iter()
        .map(|o| {
            sub.graph.tensor(&o.name).ok_or_else(|| format!("subgraph '{}' does not compute '{}'", g.name, o.name))
        })
        .collect::<Result<Vec<_>, _>>()
        .map(|outputs| Subgraph { graph: Arc::new(sub.graph), inputs, outputs })
}

/// Adds op node `name` with these inputs, outputs and attributes.
fn add_node(
    cx: &mut Importer,
    name: &str,
    op: &str,
    inputs: Vec<Option<Value>>,
    outputs: &[String],
    attrs: Vec<(&str, Attr)>,
) -> Result<(), String> {
    let node = Node {
        name: name.to_string(),
        op: op.into(),
        kind: NodeKind::Op,
        inputs,
        outputs: outputs.to_vec(),
        attrs: attrs.into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
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
