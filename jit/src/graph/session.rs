//! Running graphs: pruning to the fetches, clusters compiled through the JIT,
//! everything else op by op.
//!
//! A [`Session`] owns a graph, a JIT [`Client`] and the graph's variables. A
//! run's plan depends only on which tensors are fetched and fed, so it is made
//! once per such set and kept: the nodes the fetches need (TensorFlow's
//! pruning), their clusters ([`super::cluster`]), and the units (clusters and
//! single nodes) in a topological order. Each cluster owns a JIT [`Function`]
//! that lowers it per input signature: a second run with the same shapes is a
//! hash-map hit, new shapes compile under the JIT's recompilation policy.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use petgraph::graphmap::DiGraphMap;
use smelt_hlo::Array;

use super::cluster::{find_clusters, spec};
use super::lower::{ClusterSpec, eval_node, lower_cluster};
use super::{Dim, Graph, GraphError, NodeId, NodeKind, Result, Value};
use crate::{Buffer, Client, CompileOptions, Function, JitError, TIERED, lock};

/// How a session compiles.
#[derive(Clone, Debug)]
pub struct SessionOptions {
    /// The JIT backend clusters compile for (a name of `crate::backend_names`).
    pub backend: String,
    /// Clusters with fewer ops run op by op on the interpreter instead
    /// (unless a node is marked "compile this"). The default, 1, compiles
    /// every op that has a lowering.
    pub min_cluster_size: usize,
    /// Options for every cluster's compilation.
    pub compile: CompileOptions,
}

impl Default for SessionOptions {
    fn default() -> Self {
        SessionOptions { backend: TIERED.to_string(), min_cluster_size: 1, compile: CompileOptions::default() }
    }
}

/// What a session knows about one cluster (for `--clusters` and tests).
#[derive(Clone, Debug, PartialEq)]
pub struct ClusterInfo {
    pub index: usize,
    /// Names of the nodes in it, in topological order.
    pub nodes: Vec<String>,
    /// Names of the op types in it, in node order.
    pub ops: Vec<String>,
    /// Tensors it reads from outside, in parameter order.
    pub inputs: Vec<String>,
    pub outputs: usize,
    /// Distinct input signatures (types, and values of the inputs compiled
    /// as constants) compiled so far.
    pub signatures: usize,
    /// The inputs whose values the cluster is compiled for (shapes, axes,
    /// sizes read from outside it), by position in [`ClusterInfo::inputs`].
    pub value_inputs: Vec<usize>,
    /// Times the cluster has run.
    pub runs: u64,
}

/// One cluster of a plan.
struct ClusterExec {
    spec: Arc<ClusterSpec>,
    /// The arguments whose values lowering reads (learned from
    /// [`GraphError::NeedsValue`] on first use), sorted.
    value_args: Mutex<Vec<u32>>,
    /// One JIT function per tuple of those arguments' values (keyed by their
    /// types and bytes; one entry, the empty key, when there are none).
    functions: Mutex<HashMap<Vec<u8>, ClusterFunction>>,
    runs: AtomicU64,
}

/// A cluster compiled for known values of some arguments.
#[derive(Clone)]
struct ClusterFunction {
    known: Arc<Vec<Option<Array>>>,
    function: Arc<Function>,
    /// Set by the lowering when it needs another argument's value.
    needs: Arc<Mutex<Option<u32>>>,
}

/// Arguments compiled as constants must be small: shapes, axes, sizes.
const MAX_VALUE_ARG: usize = 1 << 12;

/// The bytes that tell two value-argument tuples apart.
fn value_key(args: &[&Array]) -> Vec<u8> {
    let mut key = Vec::new();
    for a in args {
        key.extend(format!("{}{:?};", a.dtype(), a.dims).bytes());
        key.extend(a.data.to_le_bytes());
    }
    key
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Unit {
    Cluster(usize),
    Node(NodeId),
}

/// How to compute a set of fetches.
struct Plan {
    units: Vec<Unit>,
    clusters: Vec<ClusterExec>,
}

/// Runs a graph: see the module docs.
pub struct Session {
    graph: Arc<Graph>,
    client: Client,
    options: SessionOptions,
    variables: Mutex<HashMap<NodeId, Array>>,
    plans: Mutex<HashMap<(Vec<Value>, Vec<NodeId>), Arc<Plan>>>,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session").field("nodes", &self.graph.len()).finish_non_exhaustive()
    }
}

fn cluster_error(index: usize, e: impl ToString) -> GraphError {
    GraphError::Cluster { cluster: index, message: e.to_string() }
}

impl Session {
    /// A session with a client of its own; fails when the backend is unknown.
    pub fn new(graph: Graph, options: SessionOptions) -> Result<Session> {
        let client = Client::new(&options.backend).map_err(|e| GraphError::Backend(e.to_string()))?;
        Ok(Session::with_client(graph, options, client))
    }

    /// A session whose clusters compile through `client` (sharing its caches).
    pub fn with_client(graph: Graph, options: SessionOptions, client: Client) -> Session {
        let variables = graph
            .nodes
            .iter()
            .enumerate()
            .filter_map(|(i, n)| match &n.kind {
                NodeKind::Variable { initial } => Some((NodeId(i as u32), initial.clone())),
                _ => None,
            })
            .collect();
        Session { graph: Arc::new(graph), client, options, variables: Mutex::new(variables), plans: Mutex::default() }
    }

    pub fn graph(&self) -> &Graph {
        &self.graph
    }

    pub fn client(&self) -> &Client {
        &self.client
    }

    /// Writes every variable's current value to `path` as an `.npz` archive
    /// (one `<variable name>.npy` per variable, NumPy's `np.load` reads it).
    pub fn save_variables(&self, path: &std::path::Path) -> Result<()> {
        let mut vars: Vec<(String, Array)> =
            lock(&self.variables).iter().map(|(&n, a)| (self.graph.node(n).name.clone(), a.clone())).collect();
        vars.sort_by(|a, b| a.0.cmp(&b.0));
        crate::npz::write(path, &vars).map_err(GraphError::Invalid)
    }

    /// Sets variables from an `.npz` archive (as [`Session::save_variables`]
    /// writes, or NumPy's `np.savez`): every entry must name a variable of the
    /// graph and match its type and shape; variables it lacks keep their values.
    /// Returns how many were set.
    pub fn load_variables(&self, path: &std::path::Path) -> Result<usize> {
        let io = |e: &dyn std::fmt::Display| GraphError::Invalid(format!("{}: {e}", path.display()));
        let mut loaded = Vec::new();
        for (name, a) in crate::npz::read(path).map_err(GraphError::Invalid)? {
            let id = self.graph.find(&name).filter(|&id| matches!(self.graph.node(id).kind, NodeKind::Variable { .. }));
            let Some(id) = id else {
                return Err(io(&format!("'{name}' is not a variable of the graph")));
            };
            let current = lock(&self.variables).get(&id).map(|c| (c.dtype(), c.dims.clone()));
            if current.as_ref().is_some_and(|(t, d)| *t != a.dtype() || *d != a.dims) {
                return Err(io(&format!("'{name}' holds {}{:?}, the variable is {:?}", a.dtype(), a.dims, current)));
            }
            loaded.push((id, a));
        }
        let n = loaded.len();
        let mut vars = lock(&self.variables);
        for (id, a) in loaded {
            vars.insert(id, a);
        }
        Ok(n)
    }

    /// The current value of the variable named `name`.
    pub fn variable(&self, name: &str) -> Option<Array> {
        let id = self.graph.find(name)?;
        lock(&self.variables).get(&id).cloned()
    }

    fn resolve(&self, name: &str) -> Result<Value> {
        self.graph.tensor(name).ok_or_else(|| GraphError::Invalid(format!("no tensor named '{name}'")))
    }

    /// Runs the graph: `feeds` give placeholders by tensor name, `fetches` name
    /// the tensors to return, in order.
    pub fn run(&self, feeds: &[(&str, Array)], fetches: &[&str]) -> Result<Vec<Array>> {
        let fetch_values: Vec<Value> = fetches.iter().map(|f| self.resolve(f)).collect::<Result<_>>()?;
        // Feeds are borrowed, not copied: clusters read them in place.
        let mut fed: HashMap<Value, Cow<'_, Array>> = HashMap::with_capacity(feeds.len());
        for (name, a) in feeds {
            let v = self.resolve(name)?;
            self.check_feed(name, v, a)?;
            fed.insert(v, Cow::Borrowed(a));
        }
        let mut fed_nodes: Vec<NodeId> = fed.keys().map(|v| v.node).collect();
        fed_nodes.sort();
        let plan = self.plan(&fetch_values, &fed_nodes)?;
        let mut values = fed;
        let mut updates: Vec<(NodeId, Array)> = Vec::new();
        for unit in &plan.units {
            match *unit {
                Unit::Cluster(i) => self.run_cluster(&plan.clusters[i], i, &mut values)?,
                Unit::Node(n) => self.run_node(n, &mut values, &mut updates)?,
            }
        }
        let mut out = Vec::with_capacity(fetch_values.len());
        for (v, name) in fetch_values.iter().zip(fetches) {
            // The last fetch of a value takes it; earlier duplicates copy.
            let last = !fetch_values[out.len() + 1..].contains(v);
            let a = if last { values.remove(v) } else { values.get(v).cloned() };
            match a {
                Some(a) => out.push(a.into_owned()),
                None => return Err(GraphError::Invalid(format!("fetch '{name}' was not computed"))),
            }
        }
        if !updates.is_empty() {
            let mut vars = lock(&self.variables);
            for (n, a) in updates {
                vars.insert(n, a);
            }
        }
        Ok(out)
    }

    fn check_feed(&self, name: &str, v: Value, a: &Array) -> Result<()> {
        let node = self.graph.node(v.node);
        let NodeKind::Placeholder { dtype, dims } = &node.kind else {
            return Err(GraphError::Feed { name: name.into(), message: "is not a placeholder".into() });
        };
        let bad = |m: String| Err(GraphError::Feed { name: name.into(), message: m });
        if a.dtype() != *dtype {
            return bad(format!("expected {dtype}, got {}", a.dtype()));
        }
        if a.dims.len() != dims.len() {
            return bad(format!("expected rank {}, got {:?}", dims.len(), a.dims));
        }
        for (k, (d, &got)) in dims.iter().zip(a.dims.iter()).enumerate() {
            if let Dim::Fixed(want) = d
                && *want != got
            {
                return bad(format!("dimension {k} is {got}, the placeholder says {want}"));
            }
        }
        Ok(())
    }

    fn plan(&self, fetches: &[Value], fed: &[NodeId]) -> Result<Arc<Plan>> {
        let key = (fetches.to_vec(), fed.to_vec());
        if let Some(p) = lock(&self.plans).get(&key) {
            return Ok(p.clone());
        }
        let plan = Arc::new(self.make_plan(fetches, fed)?);
        lock(&self.plans).insert(key, plan.clone());
        Ok(plan)
    }

    /// The nodes the fetches need, in topological (node) order.
    pub fn prune(&self, fetches: &[Value], fed: &[NodeId]) -> Vec<NodeId> {
        let fed: HashSet<NodeId> = fed.iter().copied().collect();
        let mut live = vec![false; self.graph.len()];
        let mut stack: Vec<NodeId> = fetches.iter().map(|v| v.node).collect();
        while let Some(n) = stack.pop() {
            if std::mem::replace(&mut live[n.0 as usize], true) || fed.contains(&n) {
                continue;
            }
            stack.extend(self.graph.node(n).inputs.iter().flatten().map(|v| v.node));
        }
        (0..self.graph.len()).filter(|&i| live[i]).map(|i| NodeId(i as u32)).collect()
    }

    fn make_plan(&self, fetches: &[Value], fed: &[NodeId]) -> Result<Plan> {
        let live = self.prune(fetches, fed);
        let fed_set: HashSet<NodeId> = fed.iter().copied().collect();
        let compute: Vec<NodeId> = live.iter().copied().filter(|n| !fed_set.contains(n)).collect();
        let groups = find_clusters(&self.graph, &compute, self.options.min_cluster_size.max(1));
        let mut unit_of: HashMap<NodeId, Unit> = compute.iter().map(|&n| (n, Unit::Node(n))).collect();
        let mut clusters = Vec::with_capacity(groups.len());
        for (i, nodes) in groups.into_iter().enumerate() {
            for &n in &nodes {
                unit_of.insert(n, Unit::Cluster(i));
            }
            let spec = Arc::new(spec(&self.graph, nodes, &compute, fetches));
            clusters.push(ClusterExec {
                spec,
                value_args: Mutex::default(),
                functions: Mutex::default(),
                runs: AtomicU64::new(0),
            });
        }
        let mut deps: DiGraphMap<Unit, ()> = DiGraphMap::new();
        for &n in &compute {
            let u = unit_of[&n];
            deps.add_node(u);
            for v in self.graph.node(n).inputs.iter().flatten() {
                if let Some(&p) = unit_of.get(&v.node)
                    && p != u
                {
                    deps.add_edge(p, u, ());
                }
            }
        }
        let units = petgraph::algo::toposort(&deps, None)
            .map_err(|_| GraphError::Invalid("the clustered graph has a cycle (a clustering bug)".into()))?;
        Ok(Plan { units, clusters })
    }

    fn cluster_function(&self, index: usize, spec: Arc<ClusterSpec>, known: Vec<Option<Array>>) -> ClusterFunction {
        let graph = self.graph.clone();
        let name = format!("cluster_{index}");
        let mut options = self.options.compile.clone();
        options.family.get_or_insert_with(|| format!("{:p}/{name}", Arc::as_ptr(&graph)));
        let known = Arc::new(known);
        let needs = Arc::new(Mutex::new(None));
        let (k, n) = (known.clone(), needs.clone());
        let function = self.client.trace(
            move |sig| {
                let types: Vec<_> = sig.iter().map(|t| (t.dtype, t.dims.clone())).collect();
                lower_cluster(&graph, &spec, &types, &k, &name).map_err(|e| {
                    if let GraphError::NeedsValue { param, .. } = e {
                        *lock(&n) = Some(param);
                    }
                    JitError::Graph(e.to_string())
                })
            },
            options,
        );
        ClusterFunction { known, function: Arc::new(function), needs }
    }

    /// The function of cluster `c` for the values of its value arguments in `args`.
    fn function_for(&self, c: &ClusterExec, index: usize, args: &[&Array], value_args: &[u32]) -> ClusterFunction {
        let picked: Vec<&Array> = value_args.iter().map(|&k| args[k as usize]).collect();
        let key = value_key(&picked);
        let mut functions = lock(&c.functions);
        if let Some(f) = functions.get(&key) {
            return f.clone();
        }
        let mut known = vec![None; args.len()];
        for (&k, a) in value_args.iter().zip(picked) {
            known[k as usize] = Some(a.clone());
        }
        let f = self.cluster_function(index, c.spec.clone(), known);
        functions.insert(key, f.clone());
        f
    }

    fn run_cluster(&self, c: &ClusterExec, index: usize, values: &mut HashMap<Value, Cow<'_, Array>>) -> Result<()> {
        let mut args: Vec<&Buffer> = Vec::with_capacity(c.spec.inputs.len());
        for v in &c.spec.inputs {
            match values.get(v) {
                Some(a) => args.push(Buffer::from_array_ref(a)),
                None => {
                    return Err(cluster_error(
                        index,
                        format!("input '{}' was not computed", self.graph.tensor_name(*v)),
                    ));
                }
            }
        }
        let arrays: Vec<&Array> = args.iter().map(|b| b.as_array()).collect();
        let outs = loop {
            let value_args = lock(&c.value_args).clone();
            let f = self.function_for(c, index, &arrays, &value_args);
            match f.function.call(&args) {
                Ok(outs) => break outs,
                Err(e) => {
                    // The lowering asked for an argument's value: compile for it.
                    let needed = lock(&f.needs).take();
                    match needed {
                        Some(k) if !value_args.contains(&k) && arrays[k as usize].len() <= MAX_VALUE_ARG => {
                            let mut v = lock(&c.value_args);
                            if !v.contains(&k) {
                                v.push(k);
                                v.sort();
                                lock(&c.functions).clear();
                            }
                        }
                        _ => return Err(cluster_error(index, e)),
                    }
                }
            }
        };
        c.runs.fetch_add(1, Ordering::Relaxed);
        if outs.len() != c.spec.outputs.len() {
            return Err(cluster_error(index, "returned the wrong number of results"));
        }
        for (v, b) in c.spec.outputs.iter().zip(outs) {
            values.insert(*v, Cow::Owned(b.into_array()));
        }
        Ok(())
    }

    fn run_node<'s>(
        &'s self,
        n: NodeId,
        values: &mut HashMap<Value, Cow<'s, Array>>,
        updates: &mut Vec<(NodeId, Array)>,
    ) -> Result<()> {
        let node = self.graph.node(n);
        let input = |k: usize, values: &HashMap<Value, Cow<'_, Array>>| -> Result<Option<Array>> {
            match node.inputs.get(k).copied().flatten() {
                None => Ok(None),
                Some(v) => values
                    .get(&v)
                    .map(|a| Some(a.clone().into_owned()))
                    .ok_or_else(|| GraphError::node(node, format!("input {k} was not computed"))),
            }
        };
        let outs: Vec<Array> = match &node.kind {
            NodeKind::Placeholder { .. } => {
                return Err(GraphError::Feed {
                    name: node.outputs[0].clone(),
                    message: "is needed but not fed".into(),
                });
            }
            NodeKind::Constant(a) => {
                // Weights are read in place, never copied per run.
                values.insert(Value { node: n, output: 0 }, Cow::Borrowed(a));
                return Ok(());
            }
            NodeKind::Variable { .. } => match lock(&self.variables).get(&n) {
                Some(a) => vec![a.clone()],
                None => return Err(GraphError::node(node, "variable has no value")),
            },
            NodeKind::Host(f) => {
                let args: Vec<Array> = (0..node.inputs.len())
                    .map(|k| input(k, values))
                    .collect::<Result<Vec<_>>>()?
                    .into_iter()
                    .flatten()
                    .collect();
                let outs = f(&args).map_err(|m| GraphError::Callback { node: node.name.clone(), message: m })?;
                if outs.len() != node.outputs.len() {
                    return Err(GraphError::Callback {
                        node: node.name.clone(),
                        message: format!("returned {} outputs for {}", outs.len(), node.outputs.len()),
                    });
                }
                outs
            }
            NodeKind::Op if node.op == "Assign" => {
                let (Some(var), Some(value)) = (node.inputs.first().copied().flatten(), input(1, values)?) else {
                    return Err(GraphError::node(node, "takes a variable and a value"));
                };
                updates.push((var.node, value.clone()));
                vec![value]
            }
            NodeKind::Op => {
                let args: Vec<Option<Array>> =
                    (0..node.inputs.len()).map(|k| input(k, values)).collect::<Result<_>>()?;
                eval_node(node, &args)?
            }
        };
        for (k, a) in outs.into_iter().enumerate() {
            values.insert(Value { node: n, output: k as u32 }, Cow::Owned(a));
        }
        Ok(())
    }

    /// The clusters of the plan for `fetches` (given all graph inputs fed),
    /// with their compile and run counts so far.
    pub fn clusters(&self, fetches: &[&str]) -> Result<Vec<ClusterInfo>> {
        let plan = self.plan_for(fetches)?;
        Ok(plan
            .clusters
            .iter()
            .enumerate()
            .map(|(index, c)| ClusterInfo {
                index,
                nodes: c.spec.nodes.iter().map(|&n| self.graph.node(n).name.clone()).collect(),
                ops: c.spec.nodes.iter().map(|&n| self.graph.node(n).op.clone()).collect(),
                inputs: c.spec.inputs.iter().map(|&v| self.graph.tensor_name(v).to_string()).collect(),
                outputs: c.spec.outputs.len(),
                signatures: lock(&c.functions).values().map(|f| f.function.signatures()).sum(),
                value_inputs: lock(&c.value_args).iter().map(|&k| k as usize).collect(),
                runs: c.runs.load(Ordering::Relaxed),
            })
            .collect())
    }

    /// Cluster `index` of the plan for `fetches`, lowered for the given input
    /// types (in [`ClusterInfo::inputs`] order): the HLO its JIT function compiles.
    pub fn lowered(
        &self,
        fetches: &[&str],
        index: usize,
        inputs: &[(smelt_hlo::DType, Vec<i64>)],
    ) -> Result<smelt_hlo::Module> {
        let plan = self.plan_for(fetches)?;
        let c = plan.clusters.get(index).ok_or_else(|| GraphError::Invalid(format!("no cluster {index}")))?;
        lower_cluster(&self.graph, &c.spec, inputs, &[], &format!("cluster_{index}"))
    }

    /// Every module compiled so far for the plan of `fetches`: per cluster,
    /// per input signature (and values of its value inputs), named
    /// `cluster_<i>`, then `cluster_<i>_1`, ...
    pub fn compiled_modules(&self, fetches: &[&str]) -> Result<Vec<(String, smelt_hlo::Module)>> {
        let plan = self.plan_for(fetches)?;
        let mut out = Vec::new();
        for (index, c) in plan.clusters.iter().enumerate() {
            let functions: Vec<ClusterFunction> = lock(&c.functions).values().cloned().collect();
            let mut k = 0;
            for f in functions {
                for sig in f.function.signature_types() {
                    let types: Vec<_> = sig.into_iter().map(|t| (t.dtype, t.dims)).collect();
                    let name = if k == 0 { format!("cluster_{index}") } else { format!("cluster_{index}_{k}") };
                    out.push((name.clone(), lower_cluster(&self.graph, &c.spec, &types, &f.known, &name)?));
                    k += 1;
                }
            }
        }
        Ok(out)
    }

    /// The nodes of the plan for `fetches` (all graph inputs fed) that run
    /// outside clusters, with where: `host` (host ops and callbacks, which
    /// have no compiled form) or `interpreter` (ops marked "never compile").
    pub fn unclustered(&self, fetches: &[&str]) -> Result<Vec<(String, String, &'static str)>> {
        let plan = self.plan_for(fetches)?;
        Ok(plan
            .units
            .iter()
            .filter_map(|u| match *u {
                Unit::Node(n) => {
                    let node = self.graph.node(n);
                    let place = match &node.kind {
                        NodeKind::Op if node.op == "Assign" => "host",
                        NodeKind::Op => match super::ops::lookup(&node.op) {
                            Some(def) if def.host.is_some() => "host",
                            _ => "interpreter",
                        },
                        NodeKind::Host(_) => "host",
                        _ => return None,
                    };
                    Some((node.name.clone(), node.op.clone(), place))
                }
                Unit::Cluster(_) => None,
            })
            .collect())
    }

    fn plan_for(&self, fetches: &[&str]) -> Result<Arc<Plan>> {
        let fetch_values: Vec<Value> = fetches.iter().map(|f| self.resolve(f)).collect::<Result<_>>()?;
        let mut fed: Vec<NodeId> =
            self.graph.inputs.iter().filter_map(|i| self.graph.tensor(i)).map(|v| v.node).collect();
        fed.sort();
        self.plan(&fetch_values, &fed)
    }

    /// The pruned graph for `fetches` as Graphviz DOT, clusters as subgraphs.
    pub fn dot(&self, fetches: &[&str]) -> Result<String> {
        let plan = self.plan_for(fetches)?;
        let fetch_values: Vec<Value> = fetches.iter().map(|f| self.resolve(f)).collect::<Result<_>>()?;
        let live = self.prune(&fetch_values, &[]);
        let quote = |s: &str| s.replace('\\', "\\\\").replace('"', "\\\"");
        let mut out = String::from("digraph smelt {\n  rankdir=TB;\n  node [shape=box, fontsize=10];\n");
        let mut clustered = HashSet::new();
        for (i, c) in plan.clusters.iter().enumerate() {
            out.push_str(&format!(
                "  subgraph cluster_{i} {{\n    label=\"cluster {i}\"; style=filled; color=lightblue;\n"
            ));
            for &n in &c.spec.nodes {
                clustered.insert(n);
                let node = self.graph.node(n);
                out.push_str(&format!("    n{} [label=\"{}\\n{}\"];\n", n.0, quote(&node.op), quote(&node.name)));
            }
            out.push_str("  }\n");
        }
        for &n in &live {
            if !clustered.contains(&n) {
                let node = self.graph.node(n);
                let style = if matches!(node.kind, NodeKind::Op) { "" } else { ", style=dashed" };
                out.push_str(&format!("  n{} [label=\"{}\\n{}\"{style}];\n", n.0, quote(&node.op), quote(&node.name)));
            }
        }
        for &n in &live {
            for v in self.graph.node(n).inputs.iter().flatten() {
                out.push_str(&format!("  n{} -> n{};\n", v.node.0, n.0));
            }
        }
        out.push_str("}\n");
        Ok(out)
    }
}
