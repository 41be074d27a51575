//! Lowering graph nodes to HLO: one module per cluster and input signature,
//! or one tiny module per node for op-by-op execution.
//!
//! Each op's rule ([`ops::OpDef::lower`]) appends HLO instructions for one node
//! to a [`LowerCx`] given its inputs as [`Val`]s and returns its outputs. A
//! `Val` carries its HLO instruction, type and dims, and, when the value is
//! known while lowering, the value itself (`constant`): constants, `Shape` of a
//! value whose dims are known, and anything computed only from such values
//! (the driver folds those on the interpreter). Ops whose HLO needs a value at
//! compile time (a `Reshape`'s target shape, `Slice` bounds, reduction axes
//! given as inputs) read it there; TensorFlow's XLA bridge calls these
//! compile-time constants.

use std::collections::{HashMap, HashSet};

use smelt_hlo::builder::{ComputationBuilder, ModuleBuilder, Reducer};
use smelt_hlo::shape_inference::ProgramShape;
use smelt_hlo::{Arena, Array, CompId, Computation, DType, InstId, Literal, Module, Opcode, Shape};

use super::ops::{self, OpDef};
use super::{Graph, GraphError, Node, NodeId, NodeKind, Result, Subgraph, Value, train};

/// Values with at most this many elements are folded while lowering when all
/// their inputs are known, and constants with at most this many are compiled
/// into cluster code ([`inlined`]).
const FOLD_LIMIT: usize = 1 << 12;

/// Whether a constant node's value is compiled into the clusters that read it
/// (small constants: shapes, axes, scales, which rules may need while
/// lowering). Larger ones, a model's weights, stay buffers: a cluster takes
/// them as arguments, so code size, compile time and cache keys do not grow
/// with weight bytes, and one compiled cluster serves any weights.
pub fn inlined(a: &Array) -> bool {
    a.len() <= FOLD_LIMIT
}

/// A lowered value.
#[derive(Clone, Debug)]
pub struct Val {
    pub id: InstId,
    pub dtype: DType,
    pub dims: Vec<i64>,
    /// The value, when it is known while lowering.
    pub constant: Option<Array>,
    /// The cluster argument this value is, unchanged (its value can be asked
    /// for: [`GraphError::NeedsValue`]).
    pub param: Option<u32>,
}

/// Types every lowered module has reducers for, whatever its inputs (index
/// arithmetic, masks, default float math); unused reducers are dropped.
const BASE_DTYPES: [DType; 4] = [DType::F32, DType::S64, DType::S32, DType::Pred];

/// The reducers every lowered module may use, made before the entry builder.
const REDUCER_KINDS: [Reducer; 4] = [Reducer::Add, Reducer::Max, Reducer::Min, Reducer::Mul];

/// Where op rules append instructions.
pub struct LowerCx<'m> {
    pub b: ComputationBuilder<'m>,
    reducers: &'m HashMap<(Reducer, DType), smelt_hlo::CompId>,
    /// Per dtype, `(old, new) -> new`: the update computation of a scatter
    /// that overwrites.
    assigners: &'m HashMap<DType, smelt_hlo::CompId>,
    /// Entry computations of modules imported into this one (their other
    /// computations added to it), by import position: inlined by the nodes
    /// they were imported for.
    imports: &'m [Computation],
    /// The module's computations so far (reducers, imports).
    comps: &'m Arena<Computation>,
    /// Computations rules made while lowering (loop bodies and conditions):
    /// added to the module after `comps`, in order, before the entry.
    later: Vec<Computation>,
}

impl<'m> LowerCx<'m> {
    /// The `(T, T) -> T` reducer applying `kind` (add, max, min, mul on any
    /// numeric type of the module; and/or on pred).
    pub fn reducer(&self, node: &Node, kind: Reducer, dtype: DType) -> Result<smelt_hlo::CompId> {
        self.reducers
            .get(&(kind, dtype))
            .copied()
            .ok_or_else(|| GraphError::unsupported(node, format!("no {kind:?} reducer for {dtype}")))
    }

    /// The `(T, T) -> T` computation returning its second operand: a scatter
    /// that replaces what it hits.
    pub fn assigner(&self, node: &Node, dtype: DType) -> Result<smelt_hlo::CompId> {
        self.assigners
            .get(&dtype)
            .copied()
            .ok_or_else(|| GraphError::unsupported(node, format!("no assigning scatter for {dtype}")))
    }

    /// The id `comp` will have in the module, which instructions built
    /// from here on (by this or a [`Self::sub`] context) may call.
    pub fn add_computation(&mut self, comp: Computation) -> Result<CompId> {
        let signature = ProgramShape::of(&comp)
            .ok_or_else(|| GraphError::Invalid(format!("computation '{}' has no root", comp.name)))?;
        let id = CompId::from_index(self.comps.capacity() + self.later.len());
        self.b.declare_computation(id, signature);
        self.later.push(comp);
        Ok(id)
    }

    /// Runs `f` on a context building computation `name`, a callee of this
    /// one's (same reducers; what it makes is added to the module too);
    /// returns what `f` returns and the computation, rooted where `f` says.
    pub fn sub<T>(
        &mut self,
        name: &str,
        f: impl FnOnce(&mut LowerCx<'m>) -> Result<(T, InstId)>,
    ) -> Result<(T, Computation)> {
        let mut b = ComputationBuilder::with_computations(name, Some(self.comps));
        for (k, c) in self.later.iter().enumerate() {
            if let Some(signature) = ProgramShape::of(c) {
                b.declare_computation(CompId::from_index(self.comps.capacity() + k), signature);
            }
        }
        let mut child = LowerCx {
            b,
            reducers: self.reducers,
            assigners: self.assigners,
            imports: self.imports,
            comps: self.comps,
            later: std::mem::take(&mut self.later),
        };
        let result = f(&mut child);
        let LowerCx { b, later, .. } = child;
        self.later = later;
        let (value, root) = result?;
        let comp = b.build(root).map_err(|e| GraphError::Invalid(e.to_string()))?;
        Ok((value, comp))
    }

    /// Wraps an instruction the builder made.
    pub fn val(&self, node: &Node, id: InstId) -> Result<Val> {
        let shape = self.b.shape(id).map_err(|e| GraphError::node(node, e.to_string()))?;
        let a = shape.as_array().ok_or_else(|| GraphError::node(node, "a tuple where an array was expected"))?;
        // Every rule multiplies extents of its values: the nonzero ones must
        // fit in 64 bits together, so that any product of some of them does.
        if a.dims.iter().filter(|&&d| d != 0).try_fold(1i64, |n, &d| n.checked_mul(d)).is_none() {
            return Err(GraphError::node(node, format!("shape {:?} has more elements than 64 bits count", a.dims)));
        }
        Ok(Val { id, dtype: a.dtype, dims: a.dims.to_vec(), constant: None, param: None })
    }

    /// A constant instruction holding `a` (known while lowering).
    pub fn constant(&mut self, node: &Node, a: Array) -> Result<Val> {
        let id = self.b.constant(Literal::Array(a.clone())).map_err(|e| GraphError::node(node, e.to_string()))?;
        let mut v = self.val(node, id)?;
        v.constant = Some(a);
        Ok(v)
    }

    /// A scalar constant of `dtype` (converted as `convert` would).
    pub fn scalar(&mut self, node: &Node, dtype: DType, v: f64) -> Result<Val> {
        let id = self
            .b
            .constant(Literal::Array(Array::scalar(v)))
            .and_then(|c| if dtype == DType::F64 { Ok(c) } else { self.b.convert(c, dtype) })
            .map_err(|e| GraphError::node(node, e.to_string()))?;
        self.val(node, id)
    }
}

/// Maps builder errors to errors about `node`.
pub fn at<T>(node: &Node, r: std::result::Result<T, smelt_hlo::shape_inference::ShapeError>) -> Result<T> {
    r.map_err(|e| GraphError::node(node, e.to_string()))
}

/// The op definition for a node, or an error naming it.
pub fn def_of(node: &Node) -> Result<&'static OpDef> {
    ops::lookup(&node.op).ok_or_else(|| GraphError::unsupported(node, "op type not in smelt's op set"))
}

/// Builds a module from a builder callback: reducers for `dtypes` first, then
/// the entry computation, then unused reducers dropped.
fn build_module(
    name: &str,
    dtypes: &HashSet<DType>,
    imports: &[Module],
    body: impl FnOnce(&mut LowerCx<'_>) -> Result<InstId>,
) -> Result<Module> {
    let mut mb = ModuleBuilder::new(name);
    let entries: Vec<Computation> = imports.iter().map(|m| import(&mut mb, m)).collect();
    let mut reducers = HashMap::new();
    let invalid = |e: smelt_hlo::shape_inference::ShapeError| GraphError::Invalid(e.to_string());
    for &t in dtypes {
        if t == DType::Pred {
            for kind in [Reducer::And, Reducer::Or] {
                reducers.insert((kind, t), mb.scalar_reducer(kind, t).map_err(invalid)?);
            }
        } else {
            for kind in REDUCER_KINDS {
                reducers.insert((kind, t), mb.scalar_reducer(kind, t).map_err(invalid)?);
            }
        }
    }
    let mut assigners = HashMap::new();
    for &t in dtypes {
        let assign = (|| {
            let mut b = ComputationBuilder::new(format!("assign_{t}"));
            b.parameter(0, Shape::scalar(t), "old")?;
            let new = b.parameter(1, Shape::scalar(t), "new")?;
            b.build(new)
        })()
        .map_err(invalid)?;
        assigners.insert(t, mb.add_computation(assign));
    }
    let (entry, later) = {
        let mut cx = LowerCx {
            b: mb.builder("main"),
            reducers: &reducers,
            assigners: &assigners,
            imports: &entries,
            comps: mb.computations(),
            later: Vec::new(),
        };
        let root = body(&mut cx)?;
        (cx.b.build(root).map_err(invalid)?, cx.later)
    };
    for comp in later {
        let expected = CompId::from_index(mb.computations().capacity());
        if mb.add_computation(comp) != expected {
            return Err(GraphError::Invalid("a computation made while lowering got another id".into()));
        }
    }
    let entry = mb.add_computation(entry);
    let mut module = mb.build(entry).map_err(invalid)?;
    let reachable = module.reachable_computations();
    let dead: Vec<_> = module.comps.ids().filter(|c| !reachable.contains(c)).collect();
    for c in dead {
        module.comps.remove(c);
    }
    Ok(module)
}

/// Every dtype a set of values may need reducers for: the given ones, f32,
/// and the targets of casts.
fn dtypes_for(graph: &Graph, nodes: &[NodeId], inputs: &[DType]) -> HashSet<DType> {
    let mut set: HashSet<DType> = inputs.iter().copied().collect();
    set.extend(BASE_DTYPES);
    for &n in nodes {
        add_dtypes(graph.node(n), &mut set);
    }
    set
}

/// Adds the dtypes `node` makes (its constant, a cast's target), those of
/// the bodies it runs included.
fn add_dtypes(node: &Node, set: &mut HashSet<DType>) {
    if let NodeKind::Constant(a) = &node.kind {
        set.insert(a.dtype());
    }
    if let Some(t) = node.int("to").and_then(ops::onnx_dtype) {
        set.insert(t);
    }
    for a in node.attrs.values() {
        if let super::Attr::Graph(body) = a {
            for inner in &body.graph.nodes {
                add_dtypes(inner, set);
            }
        }
    }
}

/// Lowers one node given its inputs, folding it when all of them are known.
fn lower_node(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let def = def_of(node)?;
    let Some(rule) = def.lower else {
        return Err(GraphError::unsupported(node, "has no lowering (it runs on the host)"));
    };
    let mut outs = rule(cx, node, inputs)?;
    let known = inputs.iter().flatten().all(|v| v.constant.is_some());
    if known && def.foldable && outs.iter().all(|v| v.constant.is_none()) {
        let small = outs.iter().all(|v| v.dims.iter().product::<i64>() as usize <= FOLD_LIMIT);
        if small {
            let args: Vec<Option<Array>> = inputs.iter().map(|v| v.as_ref().and_then(|v| v.constant.clone())).collect();
            let values = eval_node(node, &args)?;
            for (v, a) in outs.iter_mut().zip(values) {
                v.constant = Some(a);
            }
        }
    }
    Ok(outs)
}

/// Runs one op node on the reference interpreter (the op-by-op path for nodes
/// outside clusters): its inputs become constants of a one-node module.
pub fn eval_node(node: &Node, args: &[Option<Array>]) -> Result<Vec<Array>> {
    let def = def_of(node)?;
    if let Some(host) = def.host {
        let present: Vec<Array> = args.iter().flatten().cloned().collect();
        return host(node, &present);
    }
    let mut dtypes: HashSet<DType> = args.iter().flatten().map(Array::dtype).collect();
    dtypes.extend(BASE_DTYPES);
    add_dtypes(node, &mut dtypes);
    let module = build_module("node", &dtypes, &[], |cx| {
        let mut vals = Vec::with_capacity(args.len());
        for a in args {
            vals.push(match a {
                Some(a) => Some(cx.constant(node, a.clone())?),
                None => None,
            });
        }
        let Some(rule) = def.lower else {
            return Err(GraphError::unsupported(node, "has no lowering and no host implementation"));
        };
        let outs = rule(cx, node, &vals)?;
        let ids: Vec<InstId> = outs.iter().map(|v| v.id).collect();
        at(node, cx.b.tuple(&ids))
    })?;
    let result = smelt_interp::evaluate(&module, &[]).map_err(|e| GraphError::node(node, e.to_string()))?;
    Ok(result.into_leaves())
}

/// A cluster to lower: its nodes in topological order, the values it reads
/// from outside (its parameters, in order) and the values it produces for
/// the outside (its results, in order).
#[derive(Clone, Debug)]
pub struct ClusterSpec {
    pub nodes: Vec<NodeId>,
    pub inputs: Vec<Value>,
    pub outputs: Vec<Value>,
}

/// Lowers a cluster for concrete input types: parameters in `spec.inputs`
/// order, a tuple of `spec.outputs` as the root. `known` gives the values of
/// some arguments (by position; shorter than the inputs means unknown), which
/// rules may read as compile-time constants: the module is then only valid
/// for those values, though it still takes every argument.
pub fn lower_cluster(
    graph: &Graph,
    spec: &ClusterSpec,
    inputs: &[(DType, Vec<i64>)],
    known: &[Option<Array>],
    name: &str,
) -> Result<Module> {
    if inputs.len() != spec.inputs.len() {
        return Err(GraphError::Invalid(format!(
            "cluster '{name}' takes {} inputs, got {}",
            spec.inputs.len(),
            inputs.len()
        )));
    }
    let in_types: Vec<DType> = inputs.iter().map(|t| t.0).collect();
    let dtypes = dtypes_for(graph, &spec.nodes, &in_types);
    // Each `Gradients` node's gradient module, imported into this one.
    let mut imports = Vec::new();
    let mut import_of: HashMap<NodeId, usize> = HashMap::new();
    for &n in &spec.nodes {
        if graph.node(n).op == train::GRADIENTS {
            import_of.insert(n, imports.len());
            imports.push(gradient_module(graph, spec, n, inputs, known, name)?);
        }
    }
    build_module(name, &dtypes, &imports, |cx| {
        let mut vals: HashMap<Value, Val> = HashMap::new();
        for (k, (&v, (dtype, dims))) in spec.inputs.iter().zip(inputs).enumerate() {
            let node = graph.node(v.node);
            let shape = Shape::array(*dtype, dims.clone());
            let id = at(node, cx.b.parameter(k as u32, shape, &format!("p{k}")))?;
            let constant = known.get(k).cloned().flatten();
            vals.insert(v, Val { id, dtype: *dtype, dims: dims.clone(), constant, param: Some(k as u32) });
        }
        lower_nodes(cx, graph, &spec.nodes, &mut vals, &import_of)?;
        let mut root = Vec::with_capacity(spec.outputs.len());
        for v in &spec.outputs {
            match vals.get(v) {
                Some(val) => root.push(val.id),
                None => {
                    return Err(GraphError::Invalid(format!("cluster '{name}' does not compute one of its outputs")));
                }
            }
        }
        at(graph.node(spec.outputs.first().map_or(spec.nodes[0], |v| v.node)), cx.b.tuple(&root))
    })
}

/// Lowers `nodes` (ops and constants, in topological order) given the
/// values `vals` holds, adding theirs; `Gradients` nodes inline the import
/// `import_of` names.
fn lower_nodes(
    cx: &mut LowerCx<'_>,
    graph: &Graph,
    nodes: &[NodeId],
    vals: &mut HashMap<Value, Val>,
    import_of: &HashMap<NodeId, usize>,
) -> Result<()> {
    for &n in nodes {
        let node = graph.node(n);
        let outs = match &node.kind {
            NodeKind::Constant(a) => vec![cx.constant(node, a.clone())?],
            NodeKind::Op => {
                let ins: Vec<Option<Val>> =
                    node.inputs
                        .iter()
                        .map(|i| match i {
                            Some(v) => vals.get(v).cloned().map(Some).ok_or_else(|| {
                                GraphError::node(node, "an input is neither in the cluster nor fed to it")
                            }),
                            None => Ok(None),
                        })
                        .collect::<Result<_>>()?;
                match import_of.get(&n) {
                    Some(&i) => inline_gradients(cx, node, i, &ins)?,
                    None => lower_node(cx, node, &ins)?,
                }
            }
            _ => return Err(GraphError::node(node, "only ops and constants can be in a cluster")),
        };
        for (k, v) in outs.into_iter().enumerate() {
            vals.insert(Value { node: n, output: k as u32 }, v);
        }
    }
    Ok(())
}

/// Lowers `body` into `cx`'s computation, its inputs bound to `args`;
/// returns its outputs. Values known while lowering stay known inside.
pub fn lower_subgraph(cx: &mut LowerCx<'_>, node: &Node, body: &Subgraph, args: &[Val]) -> Result<Vec<Val>> {
    if args.len() != body.inputs.len() {
        return Err(GraphError::node(node, format!("its body takes {} inputs, got {}", body.inputs.len(), args.len())));
    }
    let mut vals: HashMap<Value, Val> = HashMap::new();
    for (&n, v) in body.inputs.iter().zip(args) {
        vals.insert(Value { node: n, output: 0 }, v.clone());
    }
    let nodes = body.needed_nodes()?;
    if let Some(&g) = nodes.iter().find(|&&n| body.graph.node(n).op == train::GRADIENTS) {
        return Err(GraphError::unsupported(body.graph.node(g), "gradients inside a loop body"));
    }
    lower_nodes(cx, &body.graph, &nodes, &mut vals, &HashMap::new())?;
    body.outputs
        .iter()
        .map(|v| vals.get(v).cloned().ok_or_else(|| GraphError::node(node, "its body does not compute an output")))
        .collect()
}

/// Adds `m`'s computations but its entry to `mb` (callees first, calls
/// renumbered) and returns its entry with its calls renumbered.
fn import(mb: &mut ModuleBuilder, m: &Module) -> Computation {
    let mut ids: HashMap<CompId, CompId> = HashMap::new();
    // Callees before callers: a depth-first post order from the entry.
    let mut order = Vec::new();
    let mut seen = HashSet::new();
    let mut stack = vec![(m.entry, false)];
    while let Some((c, done)) = stack.pop() {
        if done {
            order.push(c);
            continue;
        }
        if !seen.insert(c) {
            continue;
        }
        stack.push((c, true));
        for (_, i) in m.comp(c).insts.iter() {
            stack.extend(i.called.iter().map(|&k| (k, false)));
        }
    }
    let renumber = |c: &Computation, ids: &HashMap<CompId, CompId>| {
        let mut c = c.clone();
        let all: Vec<InstId> = c.insts.ids().collect();
        for i in all {
            let inst = c.inst_mut(i);
            for k in inst.called.iter_mut() {
                *k = ids[k];
            }
        }
        c
    };
    for c in order {
        if c != m.entry {
            let new = mb.add_computation(renumber(m.comp(c), &ids));
            ids.insert(c, new);
        }
    }
    renumber(m.comp(m.entry), &ids)
}

/// The gradient module of `Gradients` node `n` for this cluster's input types:
/// the loss's forward subgraph lowered with the node's leaf inputs as
/// parameters (the values to differentiate with respect to first), then
/// differentiated.
fn gradient_module(
    graph: &Graph,
    spec: &ClusterSpec,
    n: NodeId,
    inputs: &[(DType, Vec<i64>)],
    known: &[Option<Array>],
    name: &str,
) -> Result<Module> {
    let node = graph.node(n);
    // Inputs: the leaves (the values differentiated with respect to first),
    // then the loss.
    let mut leaves: Vec<Value> = node.inputs.iter().flatten().copied().collect();
    let (Some(wrt), Some(loss)) = (node.int("wrt"), leaves.pop()) else {
        return Err(GraphError::node(node, "missing its loss or wrt attribute"));
    };
    // The forward nodes: ancestors of the loss up to the leaves, in node order.
    let mut forward = Vec::new();
    let mut seen = HashSet::new();
    let mut stack = vec![loss.node];
    while let Some(id) = stack.pop() {
        if !seen.insert(id) {
            continue;
        }
        forward.push(id);
        let fnode = graph.node(id);
        for v in fnode.inputs.iter().flatten() {
            if !leaves.contains(v) {
                stack.push(v.node);
            }
        }
    }
    forward.sort();
    // The leaves' types: cluster arguments, or constants in the cluster.
    let mut types = Vec::with_capacity(leaves.len());
    let mut values = Vec::with_capacity(leaves.len());
    for v in &leaves {
        match spec.inputs.iter().position(|i| i == v) {
            Some(k) => {
                types.push(inputs[k].clone());
                values.push(known.get(k).cloned().flatten());
            }
            None => match &graph.node(v.node).kind {
                NodeKind::Constant(a) => {
                    types.push((a.dtype(), a.dims.to_vec()));
                    values.push(Some(a.clone()));
                }
                _ => return Err(GraphError::node(node, "reads a value its cluster does not have")),
            },
        }
    }
    let fspec = ClusterSpec { nodes: forward, inputs: leaves, outputs: vec![loss] };
    let fwd = lower_cluster(graph, &fspec, &types, &values, &format!("{name}_forward"))?;
    let wrt: Vec<u32> = (0..wrt as u32).collect();
    smelt_passes::grad(&fwd, &wrt).map_err(|e| GraphError::node(node, e.to_string()))
}

/// Lowers `Gradients` node `node` by inlining import `i`, its gradient
/// module's entry: parameters bound to the node's inputs, the gradients out.
fn inline_gradients(cx: &mut LowerCx<'_>, node: &Node, i: usize, ins: &[Option<Val>]) -> Result<Vec<Val>> {
    let entry = &cx.imports[i];
    let args = ins
        .iter()
        .map(|v| v.as_ref().map(|v| v.id))
        .collect::<Option<Vec<InstId>>>()
        .ok_or_else(|| GraphError::node(node, "an input is missing"))?;
    let map = at(node, cx.b.inline(entry, &args))?;
    let root = entry.root_inst();
    let mut outs = Vec::new();
    for k in 1..root.shape.tuple_elements().len() {
        let id = if root.opcode == Opcode::Tuple {
            map[&root.operands[k]]
        } else {
            at(node, cx.b.get_tuple_element(map[&entry.root], k as i64))?
        };
        outs.push(cx.val(node, id)?);
    }
    Ok(outs)
}
