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
//! unless one of its nodes is marked "compile this". Small constants join the
//! cluster of their first compiled consumer and never form a cluster alone;
//! large ones (weights) stay outside every cluster and are passed to the
//! clusters that read them as arguments ([`super::lower::inlined`]).

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
        NodeKind::Constant(ref a) => super::lower::inlined(a),
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

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use smelt_hlo::{Array, DType};

    use super::super::{Dim, Graph, Session, SessionOptions};

    fn options() -> SessionOptions {
        SessionOptions { backend: "cranelift".into(), min_cluster_size: 1, ..Default::default() }
    }

    fn f32s(dims: &[i64], v: &[f32]) -> Array {
        Array::from_vec(dims, v.to_vec())
    }

    fn ops_of(s: &Session, fetches: &[&str]) -> Vec<Vec<String>> {
        s.clusters(fetches).unwrap().into_iter().map(|c| c.ops).collect()
    }

    /// `a -> host -> c` and `a -> c`: merging `a` and `c` would make the
    /// cluster both feed and read the host op, so they stay apart.
    #[test]
    fn merges_that_would_make_a_cycle_are_refused() {
        let mut g = Graph::new();
        let x = g.placeholder("x", DType::F32, vec![Dim::Fixed(4)]).unwrap();
        let a = g.op("Relu", "a", &[x], vec![]).unwrap();
        let double = Arc::new(|args: &[Array]| -> Result<Vec<Array>, String> {
            let v: Vec<f32> = args[0].values::<f32>().ok_or("not f32")?.iter().map(|x| 2.0 * x).collect();
            Ok(vec![Array::from_vec([v.len() as i64], v)])
        });
        let h = g.host_callback("h", &[a], 1, double).unwrap()[0];
        let c = g.op("Add", "c", &[a, h], vec![]).unwrap();
        let _ = c;
        let s = Session::new(g, options()).unwrap();
        let clusters = s.clusters(&["c"]).unwrap();
        assert_eq!(clusters.len(), 2, "{clusters:?}");
        assert!(clusters.iter().all(|c| c.nodes.len() == 1));
        let out = s.run(&[("x", f32s(&[4], &[-1.0, 2.0, -3.0, 4.0]))], &["c"]).unwrap();
        assert_eq!(out[0].values::<f32>().unwrap(), &[0.0, 6.0, 0.0, 12.0]);
    }

    /// A data-dependent op in a chain splits it into two clusters around it.
    #[test]
    fn non_compilable_ops_split_clusters() {
        let mut g = Graph::new();
        let x = g.placeholder("x", DType::F32, vec![Dim::Fixed(5)]).unwrap();
        let r = g.op("Relu", "r", &[x], vec![]).unwrap();
        let sum = g.op("Add", "sum", &[r, r], vec![]).unwrap();
        let nz = g.op("NonZero", "nz", &[sum], vec![]).unwrap();
        let back = g.op("Cast", "back", &[nz], vec![("to", super::super::Attr::Int(1))]).unwrap();
        let _ = g.op("Add", "y", &[back, back], vec![]).unwrap();
        let s = Session::new(g, options()).unwrap();
        let ops = ops_of(&s, &["y"]);
        assert_eq!(ops, vec![vec!["Relu".to_string(), "Add".into()], vec!["Cast".into(), "Add".into()]]);
        let outside = s.unclustered(&["y"]).unwrap();
        assert_eq!(outside, vec![("nz".to_string(), "NonZero".to_string(), "host")]);
        let out = s.run(&[("x", f32s(&[5], &[1.0, -1.0, 0.0, 3.0, 2.0]))], &["y"]).unwrap();
        assert_eq!(out[0].dims.as_slice(), &[1, 3]);
        assert_eq!(out[0].values::<f32>().unwrap(), &[0.0, 6.0, 8.0]);
    }

    /// Only what the fetches need runs: an unfed placeholder on another branch
    /// is no error, and its branch is in no cluster.
    #[test]
    fn runs_are_pruned_to_the_fetches() {
        let mut g = Graph::new();
        let x = g.placeholder("x", DType::F32, vec![Dim::Fixed(2)]).unwrap();
        let unfed = g.placeholder("unfed", DType::F32, vec![Dim::Fixed(2)]).unwrap();
        let a = g.op("Relu", "a", &[x], vec![]).unwrap();
        let _ = g.op("Add", "wanted", &[a, x], vec![]).unwrap();
        let _ = g.op("Add", "other", &[unfed, x], vec![]).unwrap();
        let s = Session::new(g, options()).unwrap();
        let out = s.run(&[("x", f32s(&[2], &[-2.0, 3.0]))], &["wanted"]).unwrap();
        assert_eq!(out[0].values::<f32>().unwrap(), &[-2.0, 6.0]);
        let clusters = s.clusters(&["wanted"]).unwrap();
        assert_eq!(clusters.len(), 1);
        assert_eq!(clusters[0].nodes, vec!["a".to_string(), "wanted".into()]);
        let missing = s.run(&[("x", f32s(&[2], &[1.0, 1.0]))], &["other"]).unwrap_err();
        assert!(missing.to_string().contains("unfed"), "{missing}");
    }

    /// The second run with the same shapes is a cache hit; a new shape of a
    /// symbolic dimension compiles the cluster again.
    #[test]
    fn clusters_compile_once_per_signature() {
        let mut g = Graph::new();
        let x = g.placeholder("x", DType::F32, vec![Dim::Symbolic("N".into()), Dim::Fixed(2)]).unwrap();
        let r = g.op("Relu", "r", &[x], vec![]).unwrap();
        let _ = g.op("Add", "y", &[r, x], vec![]).unwrap();
        let s = Session::new(g, options()).unwrap();
        let run = |n: i64| {
            let v: Vec<f32> = (0..2 * n).map(|i| i as f32 - 3.0).collect();
            s.run(&[("x", Array::from_vec([n, 2], v))], &["y"]).unwrap()
        };
        run(3);
        let first = s.client().stats();
        let out = run(3);
        let second = s.client().stats();
        assert_eq!(second.compiles, first.compiles, "same shapes must not compile");
        assert_eq!(out[0].values::<f32>().unwrap(), &[-3.0, -2.0, -1.0, 0.0, 2.0, 4.0]);
        let info = &s.clusters(&["y"]).unwrap()[0];
        assert_eq!((info.signatures, info.runs), (1, 2));
        run(5);
        assert_eq!(s.client().stats().compiles, first.compiles + 1);
        assert_eq!(s.clusters(&["y"]).unwrap()[0].signatures, 2);
    }

    /// Variables keep their value across runs; `Assign` updates them.
    #[test]
    fn variables_persist_across_runs() {
        let mut g = Graph::new();
        let step = g.placeholder("step", DType::F32, vec![Dim::Fixed(2)]).unwrap();
        let acc = g.variable("acc", f32s(&[2], &[1.0, 2.0])).unwrap();
        let next = g.op("Add", "next", &[acc, step], vec![]).unwrap();
        let _ = g.assign("update", acc, next).unwrap();
        let s = Session::new(g, options()).unwrap();
        for _ in 0..3 {
            s.run(&[("step", f32s(&[2], &[0.5, -1.0]))], &["update"]).unwrap();
        }
        assert_eq!(s.variable("acc").unwrap().values::<f32>().unwrap(), &[2.5, -1.0]);
    }

    /// "Never compile" keeps a node out of clusters; "compile this" keeps a
    /// cluster smaller than the minimum size.
    #[test]
    fn compile_overrides_are_honoured() {
        let mut g = Graph::new();
        let x = g.placeholder("x", DType::F32, vec![Dim::Fixed(3)]).unwrap();
        let a = g.op("Relu", "a", &[x], vec![]).unwrap();
        let b = g.op("Neg", "b", &[a], vec![]).unwrap();
        let _ = g.op("Abs", "c", &[b], vec![]).unwrap();
        g.set_compile(b.node, false);
        let s = Session::new(g.clone(), SessionOptions { min_cluster_size: 2, ..options() }).unwrap();
        assert!(s.clusters(&["c"]).unwrap().is_empty(), "single-op clusters are below the minimum");
        g.set_compile(a.node, true);
        let s = Session::new(g, SessionOptions { min_cluster_size: 2, ..options() }).unwrap();
        assert_eq!(ops_of(&s, &["c"]), vec![vec!["Relu".to_string()]]);
        let out = s.run(&[("x", f32s(&[3], &[-1.0, 2.0, -3.0]))], &["c"]).unwrap();
        assert_eq!(out[0].values::<f32>().unwrap(), &[0.0, 2.0, 0.0]);
    }

    /// A weight larger than the inlining limit is a cluster argument, read in
    /// place: the lowered module has a parameter for it and no constant, and
    /// a second graph with other weights reuses the compiled cluster.
    #[test]
    fn large_constants_are_arguments_not_code() {
        let n = 5000;
        let graph = |scale: f32| {
            let mut g = Graph::new();
            let x = g.placeholder("x", DType::F32, vec![Dim::Fixed(n)]).unwrap();
            let w = g.constant("w", Array::from_vec([n], (0..n).map(|i| scale * i as f32).collect())).unwrap();
            let b = g.constant("b", f32s(&[1], &[0.5])).unwrap();
            let y = g.op("Mul", "y", &[x, w], vec![]).unwrap();
            let _ = g.op("Add", "z", &[y, b], vec![]).unwrap();
            g
        };
        let s = Session::new(graph(1.0), options()).unwrap();
        let info = &s.clusters(&["z"]).unwrap()[0];
        assert_eq!(info.inputs, vec!["x".to_string(), "w".into()]);
        assert_eq!(info.ops, vec!["Const".to_string(), "Mul".into(), "Add".into()], "the small constant stays inside");
        let types = vec![(DType::F32, vec![n]); 2];
        let text = smelt_hlo::text::print_module(&s.lowered(&["z"], 0, &types).unwrap());
        assert_eq!(text.matches("parameter(").count(), 2, "{text}");
        assert!(!text.contains(&format!("f32[{n}] constant")), "{text}");
        let x = Array::from_vec([n], vec![2.0f32; n as usize]);
        let out = s.run(&[("x", x.clone())], &["z"]).unwrap();
        assert_eq!(&out[0].values::<f32>().unwrap()[..3], &[0.5, 2.5, 4.5]);
        let other = Session::with_client(graph(-1.0), options(), s.client().clone());
        let compiles = s.client().stats().compiles;
        let out = other.run(&[("x", x)], &["z"]).unwrap();
        assert_eq!(&out[0].values::<f32>().unwrap()[..3], &[0.5, -1.5, -3.5]);
        assert_eq!(s.client().stats().compiles, compiles, "other weights, same code");
    }

    /// A shape fed at run time is a value the cluster is compiled for: each
    /// new value compiles once, a repeated one is a hit, and nothing runs on
    /// the interpreter.
    #[test]
    fn fed_shapes_compile_per_value() {
        let mut g = Graph::new();
        let x = g.placeholder("x", DType::F32, vec![Dim::Fixed(6)]).unwrap();
        let shape = g.placeholder("shape", DType::S64, vec![Dim::Fixed(2)]).unwrap();
        let r = g.op("Reshape", "r", &[x, shape], vec![]).unwrap();
        let _ = g.op("Relu", "y", &[r], vec![]).unwrap();
        let s = Session::new(g, SessionOptions { min_cluster_size: 1, ..options() }).unwrap();
        let x = f32s(&[6], &[-1.0, 2.0, -3.0, 4.0, -5.0, 6.0]);
        let run = |dims: [i64; 2]| {
            let shape = Array::from_vec([2], dims.to_vec());
            s.run(&[("x", x.clone()), ("shape", shape)], &["y"]).unwrap().remove(0)
        };
        assert_eq!(run([2, 3]).dims.as_slice(), &[2, 3]);
        assert_eq!(run([3, 2]).dims.as_slice(), &[3, 2]);
        let y = run([2, 3]);
        assert_eq!(y.values::<f32>().unwrap(), &[0.0, 2.0, 0.0, 4.0, 0.0, 6.0]);
        let info = &s.clusters(&["y"]).unwrap()[0];
        assert_eq!(info.value_inputs, vec![1], "{info:?}");
        assert_eq!((info.signatures, info.runs), (2, 3));
        assert!(s.unclustered(&["y"]).unwrap().is_empty());
        let modules = s.compiled_modules(&["y"]).unwrap();
        assert_eq!(modules.len(), 2);
    }
}
