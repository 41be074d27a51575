//! ONNX `If`, `Loop`, `Scan` and `SequenceMap`: inlined while importing
//! where that is cheap, else one graph node each running subgraphs of their
//! own (`SequenceMap` is always inlined, once per item of its sequence,
//! which the importer knows as it knows every sequence).
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
//!   `while`; so does a `Scan` ([`import_scan`] rewrites it as that loop).
//!
//! A subgraph of its own takes the names it (or a branch beside it) reads
//! from enclosing scopes as extra inputs of its node (attribute `captured`)
//! and placeholders of its graph.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use smelt_hlo::{Array, DType};

use super::proto::{AttributeProto, GraphProto, NodeProto, ValueInfoProto, attribute_proto::AttributeType};
use super::{Importer, OnnxError, add_constant as exact_constant, add_op, free_name, tensor, upgrade};
use crate::graph::ops::util::array_ints;
use crate::graph::{Attr, Graph, Node, NodeKind, Subgraph, Value};

/// The operators this module inlines.
pub const OPS: [&str; 4] = ["If", "Loop", "Scan", "SequenceMap"];

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
        "SequenceMap" => import_sequence_map(cx, n, name, subgraph("body")?).map_err(err),
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
        "Scan" => import_scan(cx, n, name, subgraph("body")?).map_err(err),
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

/// Imports `Scan` node `n` (opset 9 and later) as the `Loop` it is: the
/// trip count is the first scan input's length along its axis; the loop body
/// takes iteration `i`'s slice of each scan input (`Gather` at `i`, or at
/// `len - 1 - i` for a reversed one) and runs `body`; the loop's scan
/// outputs, stacked along axis 0, are reversed (`Slice` with step -1) and
/// moved to their axis (`Transpose`) where the attributes say.
fn import_scan(cx: &mut Importer, n: &NodeProto, name: &str, body: &GraphProto) -> Result<(), String> {
    if cx.opset < 9 {
        return Err("Scan of opset 8 (batched, with sequence lengths) is not supported".into());
    }
    let ints = |key: &str| n.attribute.iter().find(|a| a.name == key).map(|a| a.ints.clone());
    let scans_in = n.attribute.iter().find(|a| a.name == "num_scan_inputs").map(|a| a.i).unwrap_or(0);
    let scans_in = usize::try_from(scans_in).ok().filter(|&k| (1..=n.input.len()).contains(&k));
    let Some(scans_in) = scans_in else {
        return Err(format!("num_scan_inputs must be between 1 and its {} inputs", n.input.len()));
    };
    let states = n.input.len() - scans_in;
    if body.input.len() != n.input.len() || body.output.len() < states {
        return Err(format!(
            "the body takes {} inputs and gives {} outputs for {states} states and {scans_in} scan inputs",
            body.input.len(),
            body.output.len()
        ));
    }
    let scans_out = body.output.len() - states;
    if n.output.len() != states + scans_out {
        return Err(format!("has {} outputs, the body gives {states} states and {scans_out} scans", n.output.len()));
    }
    let per = |key: &str, count: usize| -> Result<Vec<i64>, String> {
        let v = ints(key).unwrap_or_else(|| vec![0; count]);
        if v.len() == count { Ok(v) } else { Err(format!("'{key}' has {} values for {count} scans", v.len())) }
    };
    let (in_axes, in_dirs) = (per("scan_input_axes", scans_in)?, per("scan_input_directions", scans_in)?);
    let (out_axes, out_dirs) = (per("scan_output_axes", scans_out)?, per("scan_output_directions", scans_out)?);
    let p = format!("{name}/scan");
    let node = |op: &str, inputs: &[&str], output: &str, attribute: Vec<AttributeProto>| NodeProto {
        op_type: op.into(),
        name: output.to_string(),
        input: inputs.iter().map(|s| s.to_string()).collect(),
        output: vec![output.to_string()],
        attribute,
        ..NodeProto::default()
    };
    let scalar = |t: &str, v: i64| tensor::encode(t, &Array::scalar(v));
    // The trip count, in the enclosing graph: the first scan input's length.
    let x0 = tensor(cx, &n.input[states])?;
    let shape0 = add(&mut cx.graph, "Shape", &format!("{p}/shape"), &[x0], vec![])?;
    let axis0 = add_constant(&mut cx.graph, &format!("{p}/axis"), Array::scalar(in_axes[0]))?;
    let trips = add(&mut cx.graph, "Gather", &format!("{p}/trips"), &[shape0, axis0], vec![])?;
    let trips = cx.graph.tensor_name(trips).to_string();
    // The loop body: slices of the scan inputs, then the Scan's body.
    let (iter, cond) = (format!("{p}/i"), format!("{p}/cond"));
    let mut g = GraphProto { name: format!("{}_as_loop", body.name), ..GraphProto::default() };
    g.input.push(ValueInfoProto { name: iter.clone(), ..ValueInfoProto::default() });
    g.input.push(ValueInfoProto { name: cond.clone(), ..ValueInfoProto::default() });
    g.input.extend(body.input[..states].iter().cloned());
    g.initializer.push(scalar(&format!("{p}/one"), 1));
    for (j, ((input, bound), (&axis, &dir))) in
        n.input[states..].iter().zip(&body.input[states..]).zip(in_axes.iter().zip(&in_dirs)).enumerate()
    {
        let at = if dir == 0 {
            iter.clone()
        } else {
            let q = format!("{p}/{j}");
            g.initializer.push(scalar(&format!("{q}/axis"), axis));
            g.node.push(node("Shape", &[input], &format!("{q}/shape"), vec![]));
            g.node.push(node("Gather", &[&format!("{q}/shape"), &format!("{q}/axis")], &format!("{q}/len"), vec![]));
            g.node.push(node("Sub", &[&format!("{q}/len"), &format!("{p}/one")], &format!("{q}/last"), vec![]));
            g.node.push(node("Sub", &[&format!("{q}/last"), &iter], &format!("{q}/at"), vec![]));
            format!("{q}/at")
        };
        g.node.push(node("Gather", &[input, &at], &bound.name, vec![upgrade::int_attr("axis", axis)]));
    }
    g.node.extend(body.node.iter().cloned());
    g.initializer.extend(body.initializer.iter().cloned());
    g.node.push(node("Identity", &[&cond], &format!("{p}/cond_out"), vec![]));
    g.output.push(ValueInfoProto { name: format!("{p}/cond_out"), ..ValueInfoProto::default() });
    g.output.extend(body.output.iter().cloned());
    // The loop, its scan outputs stacked on axis 0 under names of their own
    // where they still need reversing or moving.
    let mut outputs: Vec<String> = n.output[..states].to_vec();
    for (k, o) in n.output[states..].iter().enumerate() {
        let plain = out_dirs[k] == 0 && out_axes[k] == 0;
        outputs.push(if plain || o.is_empty() { o.clone() } else { format!("{p}/stacked_{k}") });
    }
    let mut inputs = vec![trips, String::new()];
    inputs.extend(n.input[..states].iter().cloned());
    let as_loop = NodeProto { op_type: "Loop".into(), input: inputs, output: outputs.clone(), ..NodeProto::default() };
    import_while(cx, &as_loop, name, &g, states)?;
    for (k, o) in n.output[states..].iter().enumerate() {
        if outputs[states + k] == *o {
            continue;
        }
        let mut v = tensor(cx, &outputs[states + k])?;
        if out_dirs[k] != 0 {
            let c = |graph: &mut Graph, tag: &str, x: i64| add_constant(graph, &format!("{p}/{k}/{tag}"), s64s(&[x]));
            let parts =
                [c(&mut cx.graph, "start", -1)?, c(&mut cx.graph, "end", i64::MIN)?, c(&mut cx.graph, "axis", 0)?];
            let step = c(&mut cx.graph, "step", -1)?;
            v = add(
                &mut cx.graph,
                "Slice",
                &format!("{p}/{k}/reversed"),
                &[v, parts[0], parts[1], parts[2], step],
                vec![],
            )?;
        }
        if out_axes[k] != 0 {
            let rank = body.output[states + k]
                .r#type
                .as_ref()
                .and_then(|_| super::declared(&body.output[states + k]).ok())
                .and_then(|(_, dims)| dims)
                .map(|d| d.len() as i64 + 1)
                .ok_or_else(|| format!("scan output {k} moves to axis {} but its rank is not declared", out_axes[k]))?;
            let axis = if out_axes[k] < 0 { out_axes[k] + rank } else { out_axes[k] };
            if !(0..rank).contains(&axis) {
                return Err(format!("scan output axis {} is outside rank {rank}", out_axes[k]));
            }
            // Axis 0 (the iterations) moves to `axis`, the others keep their order.
            let mut perm: Vec<i64> = (1..rank).collect();
            perm.insert(axis as usize, 0);
            v = add(&mut cx.graph, "Transpose", &format!("{p}/{k}/moved"), &[v], vec![("perm", Attr::Ints(perm))])?;
        }
        add(&mut cx.graph, "Identity", o, &[v], vec![])?;
    }
    Ok(())
}

/// A 1-D s64 array.
fn s64s(v: &[i64]) -> Array {
    Array::from_vec([v.len() as i64], v.to_vec())
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
            if let Some(what) = cx.seqs.non_tensor(&cx.resolve(f)) {
                return Err(format!("a subgraph reads {what} '{f}' (subgraphs may read tensors only)"));
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

/// `SequenceMap`: the body inlined once per item of the input sequence
/// (known at import, as every sequence is), each additional input given
/// whole (a tensor) or item by item (a sequence of the same length); output
/// `k` is the sequence of the body's output `k` over the items.
fn import_sequence_map(cx: &mut Importer, n: &NodeProto, name: &str, body: &GraphProto) -> Result<(), String> {
    let first = n.input.first().filter(|t| !t.is_empty()).ok_or("needs an input sequence")?;
    let items = cx
        .seqs
        .items(&cx.resolve(first))
        .ok_or_else(|| format!("input '{first}' is not a sequence built earlier in the graph"))?
        .to_vec();
    if body.input.len() != n.input.len() || body.output.len() != n.output.len() {
        return Err(format!(
            "the body takes {} inputs and gives {} outputs, the node {} and {}",
            body.input.len(),
            body.output.len(),
            n.input.len(),
            n.output.len()
        ));
    }
    // Each additional input: the same tensor for every item, or its own item.
    enum Extra {
        Whole(Value),
        PerItem(Vec<Value>),
    }
    let mut extra = Vec::with_capacity(n.input.len() - 1);
    for t in &n.input[1..] {
        if t.is_empty() {
            return Err("an additional input is missing".into());
        }
        match cx.seqs.items(&cx.resolve(t)) {
            Some(s) if s.len() != items.len() => {
                return Err(format!("sequence '{t}' holds {} items, the input sequence {}", s.len(), items.len()));
            }
            Some(s) => extra.push(Extra::PerItem(s.to_vec())),
            None => extra.push(Extra::Whole(tensor(cx, t)?)),
        }
    }
    let mut outs: Vec<Vec<Value>> = vec![Vec::with_capacity(items.len()); n.output.len()];
    for (i, &item) in items.iter().enumerate() {
        let mut bind = HashMap::new();
        bind.insert(body.input[0].name.clone(), item);
        for (input, arg) in body.input[1..].iter().zip(&extra) {
            let v = match arg {
                Extra::Whole(v) => *v,
                Extra::PerItem(items) => items[i],
            };
            bind.insert(input.name.clone(), v);
        }
        let got = inline(cx, body, &format!("{name}/{i}"), bind).map_err(|e| e.to_string())?;
        for (seq, v) in outs.iter_mut().zip(got) {
            seq.push(v);
        }
    }
    for (o, items) in n.output.iter().zip(outs) {
        if !o.is_empty() {
            cx.seqs.define(o, items);
        }
    }
    Ok(())
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
