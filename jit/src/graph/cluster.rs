//! Auto-clustering, as TensorFlow's MarkForCompilation pass does it.
//!
//! Nodes are candidates when their op has a lowering rule and no host
//! implementation, they are not marked "never compile", and they are ops or
//! constants. Clusters start as single candidates and grow by contracting
//! graph edges between candidate clusters, in topological order, unless the
//! contraction would create a cycle: merging `A -> B` is refused when some
//! other path leads from `A` to `B` (through a node outside both, say a host
//! op), since the merged cluster would then both feed and read that node. A
//! cluster with fewer than `min_size` ops is dissolved (its nodes run op by op)
//! unless one of its nodes is marked "compile this". Constants join the
//! cluster of their first compiled consumer and never form a cluster alone.

use std::collections::{HashMap, HashSet};

use petgraph::algo::has_path_connecting;
use petgraph::graphmap::DiGraphMap;

use super::lower::ClusterSpec;
use super::ops;
use super::{Graph, NodeId, NodeKind, Value};

/// Whether a node may join a cluster.
pub fn candidate(graph: &Graph, n: NodeId) -> bool {
    let node = graph.node(n);
    if node.compile == Some(false) {
        return false;
    }
    match node.kind {
        NodeKind::Constant(_) => true,
        NodeKind::Op => ops::lookup(&node.op).is_some_and(ops::OpDef::compilable),
        _ => false,
    }
}

/// Groups the candidate nodes of `live` (a set closed under the inputs the
/// fetches need, in topological order) into clusters; returns each cluster's
/// nodes in topological order.
pub fn find_clusters(graph: &Graph, live: &[NodeId], min_size: usize) -> Vec<Vec<NodeId>> {
    let in_live: HashSet<NodeId> = live.iter().copied().collect();
    // Union-find over nodes; `rep` maps each node to its cluster's representative.
    let mut rep: HashMap<NodeId, NodeId> = live.iter().map(|&n| (n, n)).collect();
    fn find(rep: &mut HashMap<NodeId, NodeId>, n: NodeId) -> NodeId {
        let mut r = n;
        while rep[&r] != r {
            r = rep[&r];
        }
        let mut x = n;
        while rep[&x] != r {
            let next = rep[&x];
            rep.insert(x, r);
            x = next;
        }
        r
    }
    // The contracted graph: one vertex per cluster representative.
    let mut g: DiGraphMap<NodeId, ()> = DiGraphMap::new();
    for &n in live {
        g.add_node(n);
    }
    let mut edges = Vec::new();
    for &n in live {
        for v in graph.node(n).inputs.iter().flatten() {
            if in_live.contains(&v.node) {
                g.add_edge(v.node, n, ());
                edges.push((v.node, n));
            }
        }
    }
    for (src, dst) in edges {
        if !candidate(graph, src) || !candidate(graph, dst) {
            continue;
        }
        let (a, b) = (find(&mut rep, src), find(&mut rep, dst));
        if a == b {
            continue;
        }
        // Contract a -> b unless another path leads from a to b.
        g.remove_edge(a, b);
        let cycle = has_path_connecting(&g, a, b, None);
        g.add_edge(a, b, ());
        if cycle {
            continue;
        }
        merge(&mut g, a, b);
        rep.insert(b, a);
    }
    let mut groups: HashMap<NodeId, Vec<NodeId>> = HashMap::new();
    for &n in live {
        if candidate(graph, n) {
            let r = find(&mut rep, n);
            groups.entry(r).or_default().push(n);
        }
    }
    let mut clusters: Vec<Vec<NodeId>> = groups
        .into_values()
        .filter(|nodes| {
            let ops = nodes.iter().filter(|&&n| matches!(graph.node(n).kind, NodeKind::Op)).count();
            let forced = nodes.iter().any(|&n| graph.node(n).compile == Some(true));
            ops > 0 && (ops >= min_size || forced)
        })
        .map(|mut nodes| {
            nodes.sort();
            nodes
        })
        .collect();
    clusters.sort();
    clusters
}

/// Moves every edge of `b` to `a` and removes `b`.
fn merge(g: &mut DiGraphMap<NodeId, ()>, a: NodeId, b: NodeId) {
    let outs: Vec<NodeId> = g.neighbors_directed(b, petgraph::Direction::Outgoing).collect();
    let ins: Vec<NodeId> = g.neighbors_directed(b, petgraph::Direction::Incoming).collect();
    for o in outs {
        if o != a {
            g.add_edge(a, o, ());
        }
    }
    for i in ins {
        if i != a {
            g.add_edge(i, a, ());
        }
    }
    g.remove_node(b);
}

/// A cluster's inputs (values from outside it that it reads) and outputs
/// (values it computes that outside nodes or the fetches read), both in
/// first-use order.
pub fn spec(graph: &Graph, nodes: Vec<NodeId>, live: &[NodeId], fetches: &[Value]) -> ClusterSpec {
    let members: HashSet<NodeId> = nodes.iter().copied().collect();
    let mut inputs = Vec::new();
    for &n in &nodes {
        for v in graph.node(n).inputs.iter().flatten() {
            if !members.contains(&v.node) && !inputs.contains(v) {
                inputs.push(*v);
            }
        }
    }
    let mut outputs = Vec::new();
    let push = |v: Value, outputs: &mut Vec<Value>| {
        if members.contains(&v.node) && !outputs.contains(&v) {
            outputs.push(v);
        }
    };
    for &n in live {
        if members.contains(&n) {
            continue;
        }
        for v in graph.node(n).inputs.iter().flatten() {
            push(*v, &mut outputs);
        }
    }
    for &f in fetches {
        push(f, &mut outputs);
    }
    ClusterSpec { nodes, inputs, outputs }
}
