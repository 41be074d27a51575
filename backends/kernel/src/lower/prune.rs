//! Dropping dead nodes: a finished graph keeps only what its roots need.
//!
//! Building leaves nodes behind (constants folded into others, index terms that
//! simplified away, values of a reduction body that hoisting moved out). Backends
//! render every node of a graph, so each kernel graph, reduction body and scalar
//! function is pruned to its roots and renumbered, keeping ids in dependency
//! order. Copying a graph is also where XLA's integer edge cases are made
//! explicit (`crate::legalize::expand`).

use crate::ir::{Graph, InlineReduce, Node, NodeId, ScalarFn};

/// Which nodes `roots` need (through reduction bodies' references to the
/// enclosing graph too).
fn live_set(graph: &Graph, roots: &[NodeId]) -> Vec<bool> {
    let mut live = vec![false; graph.len()];
    let mark = |live: &mut Vec<bool>, n: NodeId| {
        if let Some(l) = live.get_mut(n.0 as usize) {
            *l = true;
        }
    };
    for &r in roots {
        mark(&mut live, r);
    }
    for i in (0..graph.len()).rev() {
        if !live[i] {
            continue;
        }
        let node = &graph.nodes[i];
        node.for_each_operand(|d| mark(&mut live, d));
        if let Node::Reduce(r) = node {
            let body_live = live_set(&r.body, &r.values);
            for (j, n) in r.body.nodes.iter().enumerate() {
                if let (true, Node::Outer(x)) = (body_live[j], n) {
                    mark(&mut live, *x);
                }
            }
        }
    }
    live
}

/// `graph` with only the nodes `roots` need; `outer` maps the enclosing graph's
/// old ids to new ones (for reduction bodies). Returns the new graph and the
/// map from old ids to new.
fn prune_in(
    graph: &Graph,
    roots: &[NodeId],
    outer: &[Option<NodeId>],
    divisions: bool,
) -> (Graph, Vec<Option<NodeId>>) {
    let live = live_set(graph, roots);
    let reciprocal =
        if divisions { crate::division::rounded_divisions(graph, &live, roots) } else { vec![false; graph.len()] };
    let mut map: Vec<Option<NodeId>> = vec![None; graph.len()];
    let mut out = Graph::default();
    let at = |map: &[Option<NodeId>], n: NodeId| map.get(n.0 as usize).copied().flatten().unwrap_or(n);
    for (i, node) in graph.nodes.iter().enumerate() {
        if !live[i] {
            continue;
        }
        let m = |n: &NodeId| at(&map, *n);
        let new = match node {
            Node::Outer(x) => Node::Outer(at(outer, *x)),
            Node::Reduce(r) => {
                let (body, body_map) = prune_in(&r.body, &r.values, &map, divisions);
                Node::Reduce(Box::new(InlineReduce {
                    window: r.window.clone(),
                    init: r.init.iter().map(m).collect(),
                    values: r.values.iter().map(|v| at(&body_map, *v)).collect(),
                    body,
                    reducer: prune_fn(&r.reducer),
                }))
            }
            Node::Binary { a, .. } if reciprocal[i] => {
                map[i] = Some(crate::division::reciprocal_quotient(&mut out, graph, i, m(a)));
                continue;
            }
            Node::Binary { op, a, b } if crate::legalize::needs(*op, graph.types[i]) => {
                map[i] = Some(crate::legalize::expand(&mut out, *op, graph.types[i], m(a), m(b)));
                continue;
            }
            _ => node.map_operands(|n| at(&map, n)),
        };
        map[i] = Some(NodeId(out.nodes.len() as u32));
        out.nodes.push(new);
        out.types.push(graph.types[i]);
    }
    (out, map)
}

/// Prunes a kernel graph to `roots`, renumbering `roots` in place.
pub(crate) fn prune(graph: &Graph, roots: &mut [&mut NodeId]) -> Graph {
    rebuild(graph, roots, false)
}

/// [`prune`], with rounded divisions by constants made reciprocal
/// multiplications when `divisions` (`crate::division`).
pub(crate) fn rebuild(graph: &Graph, roots: &mut [&mut NodeId], divisions: bool) -> Graph {
    let ids: Vec<NodeId> = roots.iter().map(|r| **r).collect();
    let (out, map) = prune_in(graph, &ids, &[], divisions);
    for r in roots.iter_mut() {
        if let Some(Some(n)) = map.get(r.0 as usize) {
            **r = *n;
        }
    }
    out
}

/// A scalar function with only the nodes its outputs need.
pub(crate) fn prune_fn(f: &ScalarFn) -> ScalarFn {
    let mut outputs = f.outputs.clone();
    let graph = {
        let mut roots: Vec<&mut NodeId> = outputs.iter_mut().collect();
        prune(&f.graph, &mut roots)
    };
    ScalarFn { params: f.params.clone(), graph, outputs, pattern: f.pattern }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{BinaryOp, Scalar};
    use smelt_hlo::DType;

    #[test]
    fn dead_nodes_go_and_ids_follow() {
        let g = Graph {
            nodes: vec![
                Node::Index(0),
                Node::Const(Scalar::Int(DType::S64, 7)),
                Node::Const(Scalar::Int(DType::S64, 1)),
                Node::Binary { op: BinaryOp::Add, a: NodeId(0), b: NodeId(2) },
            ],
            types: vec![DType::S64; 4],
        };
        let mut root = NodeId(3);
        let p = prune(&g, &mut [&mut root]);
        assert_eq!(p.len(), 3);
        assert_eq!(root, NodeId(2));
        assert_eq!(p.nodes[2], Node::Binary { op: BinaryOp::Add, a: NodeId(0), b: NodeId(1) });
    }
}
