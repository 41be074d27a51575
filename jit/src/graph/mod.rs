//! Dataflow graphs: the frontend TensorFlow-style programs and ONNX models
//! arrive in, auto-clustered and run by a [`Session`].
//!
//! A [`Graph`] holds [`Node`]s: an op type (the ONNX operator names, which the
//! Rust API uses too), typed attributes, inputs (outputs of other nodes) and
//! named outputs. Leaves are placeholders (fed at run time, dims possibly
//! symbolic), constants and variables (state a session keeps across runs,
//! updated by `Assign`). Host callbacks run Rust closures.
//!
//! Running: [`Session::run`] prunes the graph to what the fetches need, groups
//! compilable nodes into clusters ([`cluster`]), lowers each cluster to one HLO
//! module per concrete input signature ([`lower`], per-op rules in [`ops`])
//! compiled through the JIT's cache, and runs every other node op by op: ops
//! with a lowering rule on the reference interpreter, data-dependent and host
//! ops on their host implementations.

pub mod cluster;
pub mod lower;
pub mod ops;
pub mod session;
pub mod train;

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::sync::Arc;

use smelt_hlo::{Array, DType};

pub use session::{ClusterInfo, Session, SessionOptions};

/// Everything that can go wrong building, clustering, lowering or running a graph.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum GraphError {
    /// A malformed graph: unknown names, wrong input counts, cycles.
    #[error("graph: {0}")]
    Invalid(String),
    /// An op outside the supported set, or an attribute combination it does not handle.
    #[error("node '{node}' ({op}): unsupported: {message}")]
    Unsupported { node: String, op: String, message: String },
    /// An op given inputs it cannot take (shapes, types, non-constant shape inputs).
    #[error("node '{node}' ({op}): {message}")]
    Node { node: String, op: String, message: String },
    /// Lowering a cluster needs the value of its argument `param` (a shape,
    /// axes, sizes): the session compiles the cluster for that value.
    #[error("node '{node}' ({op}): {what} must be a compile-time constant")]
    NeedsValue { node: String, op: String, what: String, param: u32 },
    /// A feed that is missing or does not match its placeholder.
    #[error("feed '{name}': {message}")]
    Feed { name: String, message: String },
    /// Compiling or running a cluster failed.
    #[error("cluster {cluster}: {message}")]
    Cluster { cluster: usize, message: String },
    /// A host callback returned an error.
    #[error("host callback '{node}': {message}")]
    Callback { node: String, message: String },
    /// The session's backend is unknown or unavailable.
    #[error("{0}")]
    Backend(String),
}

impl GraphError {
    /// An error about `node`'s inputs or attributes.
    pub fn node(node: &Node, message: impl Into<String>) -> GraphError {
        GraphError::Node { node: node.name.clone(), op: node.op.clone(), message: message.into() }
    }

    /// `node` uses something this frontend does not support.
    pub fn unsupported(node: &Node, message: impl Into<String>) -> GraphError {
        GraphError::Unsupported { node: node.name.clone(), op: node.op.clone(), message: message.into() }
    }
}

pub type Result<T, E = GraphError> = std::result::Result<T, E>;

/// Index of a node in [`Graph::nodes`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub u32);

/// Output `output` of node `node`: a tensor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Value {
    pub node: NodeId,
    pub output: u32,
}

/// A typed attribute (ONNX's attribute types).
#[derive(Clone, Debug, PartialEq)]
pub enum Attr {
    Int(i64),
    Float(f32),
    Ints(Vec<i64>),
    Floats(Vec<f32>),
    String(String),
    Strings(Vec<String>),
    Tensor(Array),
    /// A body a control-flow op runs (`Loop`'s `body`).
    Graph(Subgraph),
}

/// A graph a node runs as a function: its placeholders are its parameters,
/// in `inputs` order, and `outputs` its results. It reads nothing else of
/// the enclosing graph: values it uses from there are passed in as inputs.
#[derive(Clone)]
pub struct Subgraph {
    pub graph: Arc<Graph>,
    pub inputs: Vec<NodeId>,
    pub outputs: Vec<Value>,
}

impl Subgraph {
    /// The nodes `outputs` need, in topological order, without the
    /// placeholders bound to `inputs`; an error names a placeholder the body
    /// reads but does not declare as an input.
    pub fn needed_nodes(&self) -> Result<Vec<NodeId>> {
        let mut seen = std::collections::HashSet::new();
        let mut stack: Vec<NodeId> = self.outputs.iter().map(|v| v.node).collect();
        while let Some(n) = stack.pop() {
            if self.inputs.contains(&n) || !seen.insert(n) {
                continue;
            }
            let node = self.graph.node(n);
            match node.kind {
                NodeKind::Op | NodeKind::Constant(_) => {}
                _ => {
                    return Err(GraphError::node(node, "a body may hold only ops and constants besides its inputs"));
                }
            }
            stack.extend(node.inputs.iter().flatten().map(|v| v.node));
        }
        let mut nodes: Vec<NodeId> = seen.into_iter().collect();
        nodes.sort();
        Ok(nodes)
    }
}

/// Bodies are equal when they are the same body (shared, never compared by value).
impl PartialEq for Subgraph {
    fn eq(&self, other: &Subgraph) -> bool {
        Arc::ptr_eq(&self.graph, &other.graph) && self.inputs == other.inputs && self.outputs == other.outputs
    }
}

impl fmt::Debug for Subgraph {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Subgraph({} nodes, {} inputs, {} outputs)", self.graph.len(), self.inputs.len(), self.outputs.len())
    }
}

/// One dimension of a placeholder: fixed, or named and known only when fed.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Dim {
    Fixed(i64),
    Symbolic(String),
}

/// A Rust function run on the host: inputs to outputs.
pub type HostFn = Arc<dyn Fn(&[Array]) -> std::result::Result<Vec<Array>, String> + Send + Sync>;

/// What a node is.
#[derive(Clone)]
pub enum NodeKind {
    /// An operator; its semantics are [`ops::lookup`]'s entry for `op`.
    Op,
    /// A value fed at run time.
    Placeholder { dtype: DType, dims: Vec<Dim> },
    /// A constant (ONNX initializers and `Constant` nodes).
    Constant(Array),
    /// State kept by a session across runs, starting at `initial`.
    Variable { initial: Array },
    /// A Rust closure; never compiled.
    Host(HostFn),
}

impl fmt::Debug for NodeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NodeKind::Op => write!(f, "Op"),
            NodeKind::Placeholder { dtype, dims } => write!(f, "Placeholder({dtype}, {dims:?})"),
            NodeKind::Constant(a) => write!(f, "Constant({}{:?})", a.dtype(), a.dims),
            NodeKind::Variable { initial } => write!(f, "Variable({}{:?})", initial.dtype(), initial.dims),
            NodeKind::Host(_) => write!(f, "Host"),
        }
    }
}

/// One node.
#[derive(Clone, Debug)]
pub struct Node {
    /// Unique within the graph; opaque (ONNX exporters put `/` and `.` in names).
    pub name: String,
    /// Operator type (`"MatMul"`, `"Relu"`, ...; `"Placeholder"`, `"Const"`,
    /// `"Variable"`, `"HostCallback"` for the other kinds).
    pub op: String,
    pub kind: NodeKind,
    /// Inputs in order; None for an omitted optional input.
    pub inputs: Vec<Option<Value>>,
    /// Names of the output tensors ("" for an omitted output).
    pub outputs: Vec<String>,
    pub attrs: BTreeMap<String, Attr>,
    /// Clustering override: `Some(true)` compile this node (and keep its cluster
    /// whatever its size), `Some(false)` never compile it.
    pub compile: Option<bool>,
}

/// `fn name(&self, attr) -> Option<type>` per line: the attribute's value when it
/// is of that kind (None when it is absent or of another kind).
macro_rules! attr_getters {
    ($($f:ident -> $t:ty = $kind:ident;)*) => {$(
        pub fn $f(&self, name: &str) -> Option<$t> {
            match self.attrs.get(name) {
                Some(Attr::$kind(v)) => Some(v),
                _ => None,
            }
        }
    )*};
}

impl Node {
    pub fn attr(&self, name: &str) -> Option<&Attr> {
        self.attrs.get(name)
    }

    pub fn int(&self, name: &str) -> Option<i64> {
        match self.attrs.get(name) {
            Some(Attr::Int(v)) => Some(*v),
            _ => None,
        }
    }

    pub fn float(&self, name: &str) -> Option<f32> {
        match self.attrs.get(name) {
            Some(Attr::Float(v)) => Some(*v),
            Some(Attr::Int(v)) => Some(*v as f32),
            _ => None,
        }
    }

    attr_getters! {
        ints -> &[i64] = Ints;
        floats -> &[f32] = Floats;
        string -> &str = String;
        strings -> &[String] = Strings;
        tensor -> &Array = Tensor;
        subgraph -> &Subgraph = Graph;
    }
}

/// A dataflow graph. Nodes are added in any order that refers only to
/// existing nodes (so node order is a topological order).
#[derive(Clone, Debug, Default)]
pub struct Graph {
    pub nodes: Vec<Node>,
    by_name: HashMap<String, NodeId>,
    tensors: HashMap<String, Value>,
    /// Graph outputs, by tensor name (ONNX graph outputs; fetch targets).
    pub outputs: Vec<String>,
    /// Graph inputs, by tensor name (placeholders, in order).
    pub inputs: Vec<String>,
}

impl Graph {
    pub fn new() -> Graph {
        Graph::default()
    }

    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.0 as usize]
    }

    pub fn node_mut(&mut self, id: NodeId) -> &mut Node {
        &mut self.nodes[id.0 as usize]
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The node named `name`.
    pub fn find(&self, name: &str) -> Option<NodeId> {
        self.by_name.get(name).copied()
    }

    /// The tensor named `name`.
    pub fn tensor(&self, name: &str) -> Option<Value> {
        self.tensors.get(name).copied()
    }

    /// The name of a value's tensor.
    pub fn tensor_name(&self, v: Value) -> &str {
        self.node(v.node).outputs.get(v.output as usize).map_or("", String::as_str)
    }

    /// Adds a node; names must be unique, inputs must exist, and output tensor
    /// names (other than "") must be new. Returns its id.
    pub fn add_node(&mut self, node: Node) -> Result<NodeId> {
        if self.by_name.contains_key(&node.name) {
            return Err(GraphError::Invalid(format!("two nodes named '{}'", node.name)));
        }
        for v in node.inputs.iter().flatten() {
            let ok = self.nodes.get(v.node.0 as usize).is_some_and(|n| (v.output as usize) < n.outputs.len());
            if !ok {
                return Err(GraphError::Invalid(format!("node '{}' reads a value that does not exist", node.name)));
            }
        }
        let id = NodeId(self.nodes.len() as u32);
        for (k, t) in node.outputs.iter().enumerate() {
            if t.is_empty() {
                continue;
            }
            if self.tensors.insert(t.clone(), Value { node: id, output: k as u32 }).is_some() {
                return Err(GraphError::Invalid(format!("two tensors named '{t}'")));
            }
        }
        self.by_name.insert(node.name.clone(), id);
        self.nodes.push(node);
        Ok(id)
    }

    fn leaf(&mut self, name: &str, op: &str, kind: NodeKind) -> Result<Value> {
        let node = Node {
            name: name.to_string(),
            op: op.to_string(),
            kind,
            inputs: Vec::new(),
            outputs: vec![name.to_string()],
            attrs: BTreeMap::new(),
            compile: None,
        };
        let id = self.add_node(node)?;
        Ok(Value { node: id, output: 0 })
    }

    /// A placeholder fed at run time (a graph input).
    pub fn placeholder(&mut self, name: &str, dtype: DType, dims: Vec<Dim>) -> Result<Value> {
        let v = self.leaf(name, "Placeholder", NodeKind::Placeholder { dtype, dims })?;
        self.inputs.push(name.to_string());
        Ok(v)
    }

    pub fn constant(&mut self, name: &str, value: Array) -> Result<Value> {
        self.leaf(name, "Const", NodeKind::Constant(value))
    }

    /// A variable: state a session keeps across runs, updated by [`Graph::assign`].
    pub fn variable(&mut self, name: &str, initial: Array) -> Result<Value> {
        self.leaf(name, "Variable", NodeKind::Variable { initial })
    }

    /// An operator node with one output (named `name`).
    pub fn op(&mut self, op: &str, name: &str, inputs: &[Value], attrs: Vec<(&str, Attr)>) -> Result<Value> {
        Ok(self.op_n(op, name, inputs, 1, attrs)?[0])
    }

    /// An operator node with `n` outputs (named `name`, `name:1`, ...).
    pub fn op_n(
        &mut self,
        op: &str,
        name: &str,
        inputs: &[Value],
        n: usize,
        attrs: Vec<(&str, Attr)>,
    ) -> Result<Vec<Value>> {
        let outputs = (0..n).map(|k| if k == 0 { name.to_string() } else { format!("{name}:{k}") }).collect();
        let node = Node {
            name: name.to_string(),
            op: op.to_string(),
            kind: NodeKind::Op,
            inputs: inputs.iter().copied().map(Some).collect(),
            outputs,
            attrs: attrs.into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
            compile: None,
        };
        let id = self.add_node(node)?;
        Ok((0..n as u32).map(|output| Value { node: id, output }).collect())
    }

    /// `Assign(variable, value)`: after the run that computes it, the variable
    /// holds `value`; its output is `value`.
    pub fn assign(&mut self, name: &str, variable: Value, value: Value) -> Result<Value> {
        if !matches!(self.node(variable.node).kind, NodeKind::Variable { .. }) {
            return Err(GraphError::Invalid(format!("assign '{name}' targets a node that is not a variable")));
        }
        self.op("Assign", name, &[variable, value], vec![])
    }

    /// A Rust closure as a node with `n` outputs; never compiled.
    pub fn host_callback(&mut self, name: &str, inputs: &[Value], n: usize, f: HostFn) -> Result<Vec<Value>> {
        let outputs = (0..n).map(|k| if k == 0 { name.to_string() } else { format!("{name}:{k}") }).collect();
        let node = Node {
            name: name.to_string(),
            op: "HostCallback".into(),
            kind: NodeKind::Host(f),
            inputs: inputs.iter().copied().map(Some).collect(),
            outputs,
            attrs: BTreeMap::new(),
            compile: None,
        };
        let id = self.add_node(node)?;
        Ok((0..n as u32).map(|output| Value { node: id, output }).collect())
    }

    /// Marks a node "compile this" (`true`) or "never compile" (`false`).
    pub fn set_compile(&mut self, node: NodeId, compile: bool) {
        self.node_mut(node).compile = Some(compile);
    }

    /// Marks the tensor named `name` as a graph output.
    pub fn mark_output(&mut self, name: &str) -> Result<()> {
        if self.tensor(name).is_none() {
            return Err(GraphError::Invalid(format!("no tensor named '{name}'")));
        }
        self.outputs.push(name.to_string());
        Ok(())
    }
}
