//! ONNX sequence and optional operators, resolved while importing.
//!
//! smelt's graphs carry tensors only. A sequence whose structure is known at
//! import (which tensors it holds, in what order) needs no run-time
//! representation: the importer tracks it as a list of graph values and turns
//! each sequence operator into what it means on that list. `SequenceAt` becomes
//! an `Identity` of the item, `SequenceLength` a constant, `ConcatFromSequence`
//! a `Concat` (of `Unsqueeze`d items with `new_axis`), `SplitToSequence` a
//! `Split` (and `Squeeze`s without `keepdims`). Positions must be constants
//! (initializers or `Constant` nodes) and the length of a split must follow
//! from static shapes; otherwise import fails naming the node, as for any
//! program smelt cannot run. Sequences crossing the graph boundary (sequence-
//! typed graph inputs or outputs) are refused where those are read.
//!
//! Optionals the same way: `Optional` records whether it holds a tensor or a
//! sequence (and which), `OptionalHasElement` becomes a constant and
//! `OptionalGetElement` an `Identity` of the held tensor (or the held
//! sequence); taking the element of an empty optional fails the import.

use std::collections::HashMap;

use smelt_hlo::Array;

use super::proto::NodeProto;
use super::{OnnxError, add_constant, add_op as add, free_name};
use crate::graph::ops::util::array_ints;
use crate::graph::{Attr, Dim, Graph, NodeKind, Value};

/// The operators this module resolves.
pub const OPS: [&str; 11] = [
    "Optional",
    "OptionalHasElement",
    "OptionalGetElement",
    "SequenceEmpty",
    "SequenceConstruct",
    "SequenceInsert",
    "SequenceErase",
    "SequenceAt",
    "SequenceLength",
    "ConcatFromSequence",
    "SplitToSequence",
];

/// What an optional holds.
#[derive(Clone)]
enum Held {
    Tensor(Value),
    Sequence(Vec<Value>),
}

/// Sequences known so far, by tensor name: their items, in order; and
/// optionals: what each holds, if anything.
#[derive(Default)]
pub struct Sequences {
    known: HashMap<String, Vec<Value>>,
    optionals: HashMap<String, Option<Held>>,
}

impl Sequences {
    /// The items of sequence `name`, if it is one.
    pub fn items(&self, name: &str) -> Option<&[Value]> {
        self.known.get(name).map(Vec::as_slice)
    }

    /// Records `name` as the sequence of `items`.
    pub fn define(&mut self, name: &str, items: Vec<Value>) {
        self.known.insert(name.to_string(), items);
    }

    /// What `name` is when it is not a tensor ("a sequence", "an optional"),
    /// so that a tensor operator reading it, or a graph output, can be refused.
    pub fn non_tensor(&self, name: &str) -> Option<&'static str> {
        if self.known.contains_key(name) {
            Some("a sequence")
        } else if self.optionals.contains_key(name) {
            Some("an optional")
        } else {
            None
        }
    }
}

/// Imports sequence operator `n` (its op type is in [`OPS`]); `name` is its
/// unique node name, used for the nodes it adds.
pub fn import(graph: &mut Graph, seqs: &mut Sequences, n: &NodeProto, name: &str) -> Result<(), OnnxError> {
    let err = |message: String| OnnxError::Node { node: name.to_string(), op: n.op_type.clone(), message };
    let input = |k: usize| n.input.get(k).filter(|t| !t.is_empty());
    let tensor = |graph: &Graph, t: &str| {
        graph
            .tensor(t)
            .ok_or_else(|| err(format!("input '{t}' is not produced by any earlier node, input or initializer")))
    };
    let sequence = |seqs: &Sequences, k: usize| -> Result<Vec<Value>, OnnxError> {
        let t = input(k).ok_or_else(|| err(format!("input {k} (a sequence) is missing")))?;
        seqs.known
            .get(t)
            .cloned()
            .ok_or_else(|| err(format!("input '{t}' is not a sequence built earlier in the graph")))
    };
    let output = || -> Result<&String, OnnxError> {
        match n.output.as_slice() {
            [o] if !o.is_empty() => Ok(o),
            _ => Err(err(format!("has {} outputs, it has one", n.output.len()))),
        }
    };
    let int_attr = |key: &str| n.attribute.iter().find(|a| a.name == key).map(|a| a.i);
    match n.op_type.as_str() {
        "Optional" => {
            let held = match input(0) {
                None => None,
                Some(t) => Some(match seqs.known.get(t) {
                    Some(items) => Held::Sequence(items.clone()),
                    None => Held::Tensor(tensor(graph, t)?),
                }),
            };
            seqs.optionals.insert(output()?.clone(), held);
        }
        "OptionalHasElement" => {
            // Opset 18 also takes a tensor or a sequence (always an element)
            // and no input at all (none).
            let has = match input(0) {
                None => false,
                Some(t) => match seqs.optionals.get(t) {
                    Some(held) => held.is_some(),
                    None if seqs.known.contains_key(t) => true,
                    None => tensor(graph, t).map(|_| true)?,
                },
            };
            add_constant(graph, output()?, Array::scalar(has)).map_err(err)?;
        }
        "OptionalGetElement" => {
            let t = input(0).ok_or_else(|| err("needs an optional".into()))?;
            let out = output()?;
            let held = match seqs.optionals.get(t) {
                Some(Some(held)) => held.clone(),
                Some(None) => return Err(err(format!("takes the element of '{t}', an empty optional"))),
                // Opset 18: a tensor or a sequence is its own element.
                None => match seqs.known.get(t) {
                    Some(items) => Held::Sequence(items.clone()),
                    None => Held::Tensor(tensor(graph, t)?),
                },
            };
            match held {
                Held::Tensor(v) => {
                    add(graph, "Identity", out, &[v], vec![]).map_err(err)?;
                }
                Held::Sequence(items) => {
                    seqs.known.insert(out.clone(), items);
                }
            }
        }
        "SequenceEmpty" => {
            seqs.known.insert(output()?.clone(), Vec::new());
        }
        "SequenceConstruct" => {
            if n.input.is_empty() {
                return Err(err("needs at least one tensor".into()));
            }
            let items = n.input.iter().map(|t| tensor(graph, t)).collect::<Result<_, _>>()?;
            seqs.known.insert(output()?.clone(), items);
        }
        "SequenceInsert" => {
            let mut items = sequence(seqs, 0)?;
            let item = tensor(graph, input(1).ok_or_else(|| err("needs a tensor to insert".into()))?)?;
            let len = items.len() as i64;
            let at = match input(2) {
                Some(t) => position(graph, t, len, true).map_err(err)?,
                None => items.len(),
            };
            items.insert(at, item);
            seqs.known.insert(output()?.clone(), items);
        }
        "SequenceErase" => {
            let mut items = sequence(seqs, 0)?;
            if items.is_empty() {
                return Err(err("erases from an empty sequence".into()));
            }
            let len = items.len() as i64;
            let at = match input(1) {
                Some(t) => position(graph, t, len, false).map_err(err)?,
                None => items.len() - 1,
            };
            items.remove(at);
            seqs.known.insert(output()?.clone(), items);
        }
        "SequenceAt" => {
            let items = sequence(seqs, 0)?;
            let t = input(1).ok_or_else(|| err("needs a position".into()))?;
            let at = position(graph, t, items.len() as i64, false).map_err(err)?;
            add(graph, "Identity", output()?, &[items[at]], vec![]).map_err(err)?;
        }
        "SequenceLength" => {
            let items = sequence(seqs, 0)?;
            add_constant(graph, output()?, Array::scalar(items.len() as i64)).map_err(err)?;
        }
        "ConcatFromSequence" => {
            let items = sequence(seqs, 0)?;
            if items.is_empty() {
                return Err(err("concatenates an empty sequence".into()));
            }
            let axis = int_attr("axis").ok_or_else(|| err("needs the axis attribute".into()))?;
            let out = output()?;
            let parts = if int_attr("new_axis").unwrap_or(0) != 0 {
                // Each item gains a size-1 axis at `axis` (of the result's rank).
                items
                    .iter()
                    .enumerate()
                    .map(|(k, &v)| {
                        let unsqueezed = free_name(graph, &format!("{out}/unsqueeze_{k}"));
                        add(graph, "Unsqueeze", &unsqueezed, &[v], vec![("axes", Attr::Ints(vec![axis]))])
                    })
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(err)?
            } else {
                items
            };
            add(graph, "Concat", out, &parts, vec![("axis", Attr::Int(axis))]).map_err(err)?;
        }
        "SplitToSequence" => {
            let x = tensor(graph, input(0).ok_or_else(|| err("needs a tensor to split".into()))?)?;
            let dims = static_dims(graph, x);
            let axis = int_attr("axis").unwrap_or(0);
            let axis_len = |what: &str| -> Result<i64, OnnxError> {
                let dims =
                    dims.as_ref().ok_or_else(|| err(format!("{what} needs the input's shape known at import")))?;
                let r = dims.len() as i64;
                let a = if axis < 0 { axis + r } else { axis };
                if !(0..r).contains(&a) {
                    return Err(err(format!("axis {axis} is out of range for rank {r}")));
                }
                dims[a as usize].ok_or_else(|| err(format!("{what} needs dimension {a} of the input known at import")))
            };
            let out = output()?;
            let parts: Vec<Value> = match input(1) {
                None => {
                    // Pieces of one along the axis, squeezed unless keepdims.
                    let d = axis_len("splitting into pieces of one")?;
                    let pieces = split(graph, out, x, axis, None, d as usize).map_err(err)?;
                    if int_attr("keepdims").unwrap_or(1) == 0 {
                        pieces
                            .iter()
                            .enumerate()
                            .map(|(k, &v)| {
                                let squeezed = free_name(graph, &format!("{out}/squeeze_{k}"));
                                add(graph, "Squeeze", &squeezed, &[v], vec![("axes", Attr::Ints(vec![axis]))])
                            })
                            .collect::<Result<_, _>>()
                            .map_err(err)?
                    } else {
                        pieces
                    }
                }
                Some(t) => {
                    let sizes = tensor(graph, t)?;
                    let size_dims = static_dims(graph, sizes)
                        .ok_or_else(|| err(format!("the rank of split '{t}' must be known at import")))?;
                    match size_dims.as_slice() {
                        // One size per piece: the length is the sizes' length.
                        [Some(count)] => split(graph, out, x, axis, Some(sizes), *count as usize).map_err(err)?,
                        [] => {
                            let piece = constant_ints(graph, sizes)
                                .and_then(|v| v.first().copied())
                                .ok_or_else(|| err(format!("a scalar split '{t}' must be a constant")))?;
                            if piece <= 0 {
                                return Err(err(format!("split size {piece} is not positive")));
                            }
                            let d = axis_len("a scalar split")?;
                            let mut sizes: Vec<i64> = vec![piece; (d / piece) as usize];
                            if d % piece != 0 {
                                sizes.push(d % piece);
                            }
                            let count = sizes.len();
                            let sizes_name = free_name(graph, &format!("{out}/sizes"));
                            let sizes = add_constant(graph, &sizes_name, Array::from_vec([count as i64], sizes))
                                .map_err(err)?;
                            split(graph, out, x, axis, Some(sizes), count).map_err(err)?
                        }
                        _ => return Err(err(format!("split '{t}' must be a scalar or a 1-D tensor of known length"))),
                    }
                }
            };
            seqs.known.insert(out.clone(), parts);
        }
        other => return Err(err(format!("'{other}' is not a sequence operator"))),
    }
    Ok(())
}

/// `Split` of `x` into `count` pieces along `axis` (by `sizes`, or equal).
fn split(
    graph: &mut Graph,
    name: &str,
    x: Value,
    axis: i64,
    sizes: Option<Value>,
    count: usize,
) -> Result<Vec<Value>, String> {
    if count == 0 {
        return Ok(Vec::new());
    }
    let node = free_name(graph, &format!("{name}/split"));
    let inputs: Vec<Value> = std::iter::once(x).chain(sizes).collect();
    graph.op_n("Split", &node, &inputs, count, vec![("axis", Attr::Int(axis))]).map_err(|e| e.to_string())
}

/// A position input's value, normalized: `0..=len` for insertion, `0..len` otherwise.
fn position(graph: &Graph, t: &str, len: i64, insert: bool) -> Result<usize, String> {
    let v = graph.tensor(t).ok_or_else(|| format!("position '{t}' is not produced by an earlier node"))?;
    let p = match constant_ints(graph, v).as_deref() {
        Some([p]) => *p,
        _ => return Err(format!("position '{t}' must be a constant scalar (sequences are resolved at import)")),
    };
    let hi = if insert { len } else { len - 1 };
    if p < -len || p > hi {
        return Err(format!("position {p} is out of range for a sequence of {len}"));
    }
    Ok((if p < 0 { p + len } else { p }) as usize)
}

/// A constant integer tensor's values.
fn constant_ints(graph: &Graph, v: Value) -> Option<Vec<i64>> {
    match &graph.node(v.node).kind {
        NodeKind::Constant(a) if a.dtype().is_integral() => Some(array_ints(a)),
        _ => None,
    }
}

/// A value's dims as far as they are known at import (constants and placeholders).
fn static_dims(graph: &Graph, v: Value) -> Option<Vec<Option<i64>>> {
    match &graph.node(v.node).kind {
        NodeKind::Constant(a) => Some(a.dims.iter().map(|&d| Some(d)).collect()),
        NodeKind::Placeholder { dims, .. } => Some(
            dims.iter()
                .map(|d| match d {
                    Dim::Fixed(n) => Some(*n),
                    Dim::Symbolic(_) => None,
                })
                .collect(),
        ),
        _ => None,
    }
}
