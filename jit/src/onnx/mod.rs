//! ONNX import: a `.onnx` model as a [`Graph`] a [`Session`](crate::graph::Session) runs.
//!
//! ```no_run
//! use smelt_jit::graph::{Session, SessionOptions};
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let graph = smelt_jit::onnx::load("model.onnx")?;
//! let outputs: Vec<String> = graph.outputs.clone();
//! let session = Session::new(graph, SessionOptions::default())?;
//! let x = smelt_jit::Array::zeros(smelt_jit::DType::F32, [8, 64]);
//! let fetches: Vec<&str> = outputs.iter().map(String::as_str).collect();
//! let results = session.run(&[("x", x)], &fetches)?;
//! # Ok(()) }
//! ```
//!
//! The protobuf types are generated from `jit/proto/onnx.proto` (a subset of
//! ONNX's schema) by `build.rs`. Import is one pass over the model, checked
//! up front so that a model smelt cannot run fails at load time, naming the
//! place, rather than at its first run:
//!
//! - the default-domain opset must be 6 to 21, and every node must be in the
//!   default domain (`""` or `"ai.onnx"`); a model older than opset 13 is first
//!   rewritten to opset 13's operator signatures ([`upgrade`]), `Dropout`
//!   becomes an identity and `Upsample` a `Resize`;
//! - initializers become constants; graph inputs that are not initializers
//!   become placeholders with their element type and dims (`dim_param` is a
//!   symbolic dim, a dim with neither value nor name is symbolic too);
//! - `Constant` nodes become constants (`value`, `value_float(s)`,
//!   `value_int(s)`);
//! - every other node becomes an op node with its attributes converted; its op
//!   type must be in [`ops`](crate::graph::ops)' table; empty input names are
//!   omitted optional inputs, output names are kept (empty ones too);
//! - node names are kept when they are unique and non-empty, otherwise made
//!   unique (`MatMul`, `MatMul_1`, ...);
//! - sequence operators are resolved at import, when their positions and
//!   lengths are constants ([`sequence`]); `If` and `Loop` are inlined
//!   ([`control`]);
//! - graph outputs become the graph's outputs, in order.

pub mod control;
pub mod quantize;
pub mod sequence;
pub mod tensor;
pub mod upgrade;

/// The generated ONNX protobuf messages.
#[allow(clippy::all, missing_docs, rust_2018_idioms)]
pub mod proto {
    include!(concat!(env!("OUT_DIR"), "/onnx.rs"));
}

use std::collections::{BTreeMap, HashSet};
use std::path::Path;

use prost::Message;
use smelt_hlo::{Array, DType};

use crate::graph::{Attr, Dim, Graph, GraphError, Node, NodeKind, Value, ops};
use proto::attribute_proto::AttributeType;
use proto::{AttributeProto, ModelProto, NodeProto, ValueInfoProto};

/// The default-domain opsets smelt reads: its op set follows 13 to 21, and
/// older models are rewritten to 13's signatures ([`upgrade`]).
pub const OPSETS: std::ops::RangeInclusive<i64> = upgrade::OLDEST..=21;

/// Why a model could not be imported; each names the place.
#[derive(Debug, thiserror::Error)]
pub enum OnnxError {
    #[error("{path}: {source}")]
    Io { path: String, source: std::io::Error },
    /// The bytes are not a protobuf `ModelProto` (truncated, not ONNX).
    #[error("not a valid ONNX model: {0}")]
    Decode(String),
    #[error("the model has no graph")]
    NoGraph,
    /// The model's weights do not fit the memory budget.
    #[error(transparent)]
    OverBudget(#[from] smelt_hlo::budget::BudgetError),
    /// A missing or unsupported opset import.
    #[error("opset: {0}")]
    Opset(String),
    /// An initializer that cannot be decoded.
    #[error("initializer '{tensor}': {message}")]
    Tensor { tensor: String, message: String },
    /// A graph input or output smelt cannot represent.
    #[error("graph {kind} '{name}': {message}")]
    GraphIo { kind: &'static str, name: String, message: String },
    /// An op type outside smelt's op set.
    #[error("node '{node}': op type '{op}' is not supported{hint}")]
    UnsupportedOp { node: String, op: String, hint: String },
    /// A node whose domain, attributes or inputs smelt cannot import.
    #[error("node '{node}' ({op}): {message}")]
    Node { node: String, op: String, message: String },
    /// Building the graph failed (duplicate tensor names and the like).
    #[error("{0}")]
    Graph(#[from] GraphError),
    /// Quantizing a model failed ([`quantize`]).
    #[error("quantize: {0}")]
    Quantize(String),
}

/// Reads and imports a `.onnx` file.
pub fn load(path: impl AsRef<Path>) -> Result<Graph, OnnxError> {
    let (model, map) = map_model(path.as_ref())?;
    import_releasing(&model, map.as_deref())
}

/// [`load`], with the model's graph inputs and outputs as it declares them
/// ([`declared_io`]).
pub fn load_declared(path: impl AsRef<Path>) -> Result<(Graph, Vec<Declared>, Vec<Declared>), OnnxError> {
    let (model, map) = map_model(path.as_ref())?;
    let (inputs, outputs) = declared_io(&model)?;
    Ok((import_releasing(&model, map.as_deref())?, inputs, outputs))
}

/// A memory-mapped model file, shared by the `Bytes` its weights are sliced from.
struct SharedMap(std::sync::Arc<memmap2::Mmap>);

impl AsRef<[u8]> for SharedMap {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

/// Decodes a model file through a memory mapping: the weights' bytes are
/// slices of the mapping (no copy), and import hands each weight's pages back
/// once it has its own array, so loading a model peaks near its weight bytes
/// plus one weight, not twice or three times them. Returns the mapping too
/// (None for an empty file).
fn map_model(path: &Path) -> Result<(ModelProto, Option<std::sync::Arc<memmap2::Mmap>>), OnnxError> {
    let io = |source| OnnxError::Io { path: path.display().to_string(), source };
    let file = std::fs::File::open(path).map_err(io)?;
    if file.metadata().map_err(io)?.len() == 0 {
        return Ok((decode(&[])?, None));
    }
    // SAFETY: the mapping is read-only and private; a model file truncated or
    // rewritten by another process while it is read is outside what smelt
    // guards against (as for every loader that maps its input).
    let map = std::sync::Arc::new(unsafe { memmap2::Mmap::map(&file) }.map_err(io)?);
    let model = ModelProto::decode(bytes::Bytes::from_owner(SharedMap(map.clone())))
        .map_err(|e| OnnxError::Decode(e.to_string()))?;
    Ok((model, Some(map)))
}

/// Drops the resident pages of `bytes` when they lie inside `map` (whole
/// pages only). They are file pages of a read-only mapping: a later read
/// faults them back in from the file, so nothing is lost.
fn release_pages(map: Option<&memmap2::Mmap>, bytes: &[u8]) {
    const MIN: usize = 1 << 16;
    let Some(map) = map else { return };
    let base = map.as_ptr() as usize;
    let start = bytes.as_ptr() as usize;
    if bytes.len() < MIN || start < base || start + bytes.len() > base + map.len() {
        return;
    }
    let page = 4096;
    let lo = (start - base).div_ceil(page) * page;
    let hi = (start - base + bytes.len()) / page * page;
    if hi > lo {
        // SAFETY: DontNeed on a private read-only file mapping only drops
        // clean pages, which the next access reads again from the file.
        let _ = unsafe { map.unchecked_advise_range(memmap2::UncheckedAdvice::DontNeed, lo, hi - lo) };
    }
}

/// Imports a serialized `ModelProto`.
pub fn from_bytes(bytes: &[u8]) -> Result<Graph, OnnxError> {
    import(&decode(bytes)?)
}

/// Decodes a serialized `ModelProto` without importing it.
pub fn decode(bytes: &[u8]) -> Result<ModelProto, OnnxError> {
    ModelProto::decode(bytes).map_err(|e| OnnxError::Decode(e.to_string()))
}

/// Serializes a `ModelProto` (for tools and tests that edit models).
pub fn encode(model: &ModelProto) -> Vec<u8> {
    model.encode_to_vec()
}

/// Whether `domain` names the default ONNX operator domain.
fn is_default_domain(domain: &str) -> bool {
    domain.is_empty() || domain == "ai.onnx"
}

/// The model's default-domain opset version, as declared.
fn declared_opset(model: &ModelProto) -> Result<i64, OnnxError> {
    model
        .opset_import
        .iter()
        .find(|o| is_default_domain(&o.domain))
        .map(|o| o.version)
        .ok_or_else(|| OnnxError::Opset("the model imports no default-domain (ai.onnx) opset".into()))
}

/// The model's default-domain opset version, checked against [`OPSETS`].
pub fn opset(model: &ModelProto) -> Result<i64, OnnxError> {
    let version = declared_opset(model)?;
    if !OPSETS.contains(&version) {
        return Err(OnnxError::Opset(format!(
            "default-domain opset {version} is not supported (smelt supports {} to {})",
            OPSETS.start(),
            OPSETS.end()
        )));
    }
    Ok(version)
}

/// Imports a decoded model: see the module docs.
pub fn import(model: &ModelProto) -> Result<Graph, OnnxError> {
    import_releasing(model, None)
}

/// [`import`], handing each weight's pages of `map` back once it is decoded.
fn import_releasing(model: &ModelProto, map: Option<&memmap2::Mmap>) -> Result<Graph, OnnxError> {
    let version = opset(model)?;
    let g = model.graph.as_ref().ok_or(OnnxError::NoGraph)?;
    let rewritten =
        if version < upgrade::TARGET || g.node.iter().any(|n| matches!(n.op_type.as_str(), "Dropout" | "Upsample")) {
            Some(upgrade::rewrite_nodes(g, version)?)
        } else {
            None
        };
    let nodes = rewritten.as_deref().unwrap_or(&g.node);
    refuse_foreign_ops(nodes)?;
    let mut graph = Graph::new();
    let mut initializers = HashSet::new();
    // The weights together, against the memory budget, before each is decoded.
    let budget = smelt_hlo::budget::MemoryBudget::from_env()?;
    let mut weights: u128 = 0;
    for t in &g.initializer {
        if let Ok(dtype) = tensor::dtype(t.data_type) {
            weights = weights.saturating_add(smelt_hlo::budget::array_bytes(&t.dims, dtype.byte_size()));
            budget.check(weights, || format!("initializer '{}' (with the weights before it)", t.name))?;
        }
        let array = tensor::decode_releasing(t, &mut |piece| release_pages(map, piece))
            .map_err(|message| OnnxError::Tensor { tensor: t.name.clone(), message })?;
        graph.constant(&t.name, array)?;
        initializers.insert(t.name.as_str());
    }
    for input in &g.input {
        // IR < 4 lists initializers among the inputs too; they stay constants.
        if !initializers.contains(input.name.as_str()) {
            let (dtype, dims) = placeholder_type(input)?;
            graph.placeholder(&input.name, dtype, dims)?;
        }
    }
    let mut cx = Importer { graph, seqs: sequence::Sequences::default(), opset: version, scopes: Vec::new() };
    for (k, n) in nodes.iter().enumerate() {
        cx.node(n, k)?;
    }
    let Importer { mut graph, seqs, .. } = cx;
    for output in &g.output {
        if let Some(what) = seqs.non_tensor(&output.name) {
            return Err(OnnxError::GraphIo {
                kind: "output",
                name: output.name.clone(),
                message: format!(
                    "is {what} (smelt resolves sequences and optionals at import; graph outputs must be tensors)"
                ),
            });
        }
        if graph.tensor(&output.name).is_none() {
            return Err(OnnxError::GraphIo {
                kind: "output",
                name: output.name.clone(),
                message: "no node, input or initializer produces it".into(),
            });
        }
        graph.mark_output(&output.name)?;
    }
    Ok(graph)
}

/// What importing nodes needs besides the node: the graph so far, the
/// sequences known, the model's opset, and the renamings of the subgraphs
/// being inlined ([`control`]), innermost last.
pub(crate) struct Importer {
    pub graph: Graph,
    pub seqs: sequence::Sequences,
    pub opset: i64,
    pub scopes: Vec<std::collections::HashMap<String, String>>,
}

impl Importer {
    /// The graph's tensor a node in the current subgraph means by `name`:
    /// the innermost renaming that has it, else the name itself.
    pub fn resolve(&self, name: &str) -> String {
        self.scopes.iter().rev().find_map(|s| s.get(name)).cloned().unwrap_or_else(|| name.to_string())
    }

    /// Imports node `n` (the `k`-th of its graph), already renamed into the
    /// graph's names.
    pub fn node(&mut self, n: &NodeProto, k: usize) -> Result<(), OnnxError> {
        if is_default_domain(&n.domain) && sequence::OPS.contains(&n.op_type.as_str()) {
            let name = unique_name(&self.graph, &n.name, &n.op_type);
            sequence::import(&mut self.graph, &mut self.seqs, n, &name)
        } else if is_default_domain(&n.domain) && control::OPS.contains(&n.op_type.as_str()) {
            let name = unique_name(&self.graph, &n.name, &n.op_type);
            control::import(self, n, &name)
        } else if n.op_type == "RoiAlign" && self.opset < 16 && !n.attribute.iter().any(|a| a.name == COORDINATES) {
            // Opset 16 added coordinate_transformation_mode, defaulting to
            // half_pixel; before, RoiAlign computed output_half_pixel.
            let mut n = n.clone();
            n.attribute.push(proto::AttributeProto {
                name: COORDINATES.into(),
                r#type: AttributeType::String as i32,
                s: b"output_half_pixel".to_vec(),
                ..Default::default()
            });
            import_node(&mut self.graph, &n, k, &self.seqs)
        } else if n.op_type == "DFT" && self.opset < 20 && !n.attribute.iter().any(|a| a.name == "axis") {
            // Opset 20 made the axis an input defaulting to -2; before, an
            // attribute defaulting to 1. The rule reads opset 20's default.
            let mut n = n.clone();
            n.attribute.push(upgrade::int_attr("axis", 1));
            import_node(&mut self.graph, &n, k, &self.seqs)
        } else {
            import_node(&mut self.graph, n, k, &self.seqs)
        }
    }
}

/// RoiAlign's attribute whose default changed in opset 16.
const COORDINATES: &str = "coordinate_transformation_mode";

/// A graph input or output as the model declares it (`ValueInfoProto`).
#[derive(Clone, Debug, PartialEq)]
pub struct Declared {
    pub name: String,
    /// The element type; None when the model does not say or smelt has no such type.
    pub dtype: Option<DType>,
    /// The dims (None: unknown rank); each fixed, named, or None when the model
    /// gives neither a value nor a name.
    pub dims: Option<Vec<Option<Dim>>>,
}

/// The declared element type (ONNX's code) and dims of one graph input or output.
fn declared(v: &ValueInfoProto) -> Result<(i32, Option<Vec<Option<Dim>>>), String> {
    let Some(proto::type_proto::Value::TensorType(t)) = v.r#type.as_ref().and_then(|t| t.value.as_ref()) else {
        return Err("is not a tensor (sequences, maps and optionals are not supported)".into());
    };
    use proto::tensor_shape_proto::dimension::Value as D;
    let dims = t.shape.as_ref().map(|shape| {
        shape
            .dim
            .iter()
            .enumerate()
            .map(|(k, d)| match &d.value {
                Some(D::DimValue(v)) if *v >= 0 => Ok(Some(Dim::Fixed(*v))),
                Some(D::DimValue(v)) => Err(format!("dimension {k} is {v}")),
                Some(D::DimParam(p)) if !p.is_empty() => Ok(Some(Dim::Symbolic(p.clone()))),
                _ => Ok(None),
            })
            .collect::<Result<Vec<_>, _>>()
    });
    Ok((t.elem_type, dims.transpose()?))
}

/// The model's graph inputs (initializers left out) and outputs as it declares
/// them, for callers that describe a model (onnxruntime's `get_inputs()` and
/// `get_outputs()`). Tensors that are not plain tensors are errors.
pub fn declared_io(model: &ModelProto) -> Result<(Vec<Declared>, Vec<Declared>), OnnxError> {
    let g = model.graph.as_ref().ok_or(OnnxError::NoGraph)?;
    let initializers: HashSet<&str> = g.initializer.iter().map(|t| t.name.as_str()).collect();
    let describe = |kind: &'static str, v: &ValueInfoProto| {
        let (elem_type, dims) =
            declared(v).map_err(|message| OnnxError::GraphIo { kind, name: v.name.clone(), message })?;
        Ok(Declared { name: v.name.clone(), dtype: tensor::dtype(elem_type).ok(), dims })
    };
    let inputs = g
        .input
        .iter()
        .filter(|i| !initializers.contains(i.name.as_str()))
        .map(|i| describe("input", i))
        .collect::<Result<_, OnnxError>>()?;
    let outputs = g.output.iter().map(|o| describe("output", o)).collect::<Result<_, OnnxError>>()?;
    Ok((inputs, outputs))
}

/// A graph input's element type and dims (a dim with neither value nor name is
/// symbolic, named after the input and its position).
fn placeholder_type(input: &ValueInfoProto) -> Result<(DType, Vec<Dim>), OnnxError> {
    let bad = |message: String| OnnxError::GraphIo { kind: "input", name: input.name.clone(), message };
    let (elem_type, dims) = declared(input).map_err(bad)?;
    let dtype = tensor::dtype(elem_type).map_err(bad)?;
    let dims = dims.ok_or_else(|| bad("has no shape (unknown rank is not supported)".into()))?;
    let dims = dims
        .into_iter()
        .enumerate()
        .map(|(k, d)| d.unwrap_or_else(|| Dim::Symbolic(format!("{}:{k}", input.name))))
        .collect();
    Ok((dtype, dims))
}

/// A node name not yet taken in `graph`: `wanted`, else `wanted_1`, `wanted_2`, ...
/// (the op type when `wanted` is empty).
fn unique_name(graph: &Graph, wanted: &str, op: &str) -> String {
    let base = if wanted.is_empty() { op } else { wanted };
    if graph.find(base).is_none() {
        return base.to_string();
    }
    (1..).map(|i| format!("{base}_{i}")).find(|n| graph.find(n).is_none()).expect("some suffix is free")
}

/// Adds node `n` (the `k`-th of the model) to `graph`.
fn import_node(graph: &mut Graph, n: &NodeProto, k: usize, seqs: &sequence::Sequences) -> Result<(), OnnxError> {
    let name = unique_name(graph, &n.name, &n.op_type);
    let err = |message: String| OnnxError::Node { node: name.clone(), op: n.op_type.clone(), message };
    let mut attrs = BTreeMap::new();
    for a in &n.attribute {
        let value = attr(a).map_err(|m| err(format!("attribute '{}': {m}", a.name)))?;
        attrs.insert(a.name.clone(), value);
    }
    let (kind, op) = if n.op_type == "Constant" {
        if n.output.len() != 1 {
            return Err(err(format!("has {} outputs, a Constant has one", n.output.len())));
        }
        (NodeKind::Constant(constant_value(&attrs).map_err(err)?), "Const".to_string())
    } else {
        if ops::lookup(&n.op_type).is_none() {
            let hint = if n.name.is_empty() { format!(" (node #{k} of the graph)") } else { String::new() };
            return Err(OnnxError::UnsupportedOp { node: name, op: n.op_type.clone(), hint });
        }
        (NodeKind::Op, n.op_type.clone())
    };
    let inputs =
        n.input
            .iter()
            .map(|t| {
                if t.is_empty() {
                    return Ok(None);
                }
                if let Some(what) = seqs.non_tensor(t) {
                    return Err(err(format!("input '{t}' is {what}, and {} takes tensors", n.op_type)));
                }
                graph.tensor(t).map(Some).ok_or_else(|| {
                    err(format!("input '{t}' is not produced by any earlier node, input or initializer"))
                })
            })
            .collect::<Result<Vec<Option<Value>>, _>>()?;
    let attrs = if matches!(kind, NodeKind::Constant(_)) { BTreeMap::new() } else { attrs };
    let node = Node { name: name.clone(), op, kind, inputs, outputs: n.output.clone(), attrs, compile: None };
    graph.add_node(node).map_err(|e| match e {
        GraphError::Invalid(m) => err(m),
        e => e.into(),
    })?;
    Ok(())
}

/// Default-domain operators on string tensors, which smelt has no type for.
const STRING_OPS: [&str; 5] = ["StringNormalizer", "StringConcat", "StringSplit", "RegexFullMatch", "TfIdfVectorizer"];

/// Refuses, before anything else is read, nodes of other domains
/// (`ai.onnx.ml`, training, custom) and the string operators, naming them.
pub(crate) fn refuse_foreign_ops(nodes: &[NodeProto]) -> Result<(), OnnxError> {
    for (k, n) in nodes.iter().enumerate() {
        let node = if n.name.is_empty() { format!("#{k}") } else { n.name.clone() };
        let message = if !is_default_domain(&n.domain) {
            format!("domain '{}' is not supported (only the default ONNX domain is)", n.domain)
        } else if STRING_OPS.contains(&n.op_type.as_str()) {
            "operates on string tensors, which smelt does not support".to_string()
        } else {
            continue;
        };
        return Err(OnnxError::Node { node, op: n.op_type.clone(), message });
    }
    Ok(())
}

/// A node of op `op` with one output, the tensor named `out`.
pub(crate) fn add_op(
    graph: &mut Graph,
    op: &str,
    out: &str,
    inputs: &[Value],
    attrs: Vec<(&str, Attr)>,
) -> Result<Value, String> {
    let node = Node {
        name: free_name(graph, out),
        op: op.to_string(),
        kind: NodeKind::Op,
        inputs: inputs.iter().copied().map(Some).collect(),
        outputs: vec![out.to_string()],
        attrs: attrs.into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
        compile: None,
    };
    let id = graph.add_node(node).map_err(|e| e.to_string())?;
    Ok(Value { node: id, output: 0 })
}

/// A constant, the tensor named `out`.
pub(crate) fn add_constant(graph: &mut Graph, out: &str, a: Array) -> Result<Value, String> {
    let node = Node {
        name: free_name(graph, out),
        op: "Const".into(),
        kind: NodeKind::Constant(a),
        inputs: Vec::new(),
        outputs: vec![out.to_string()],
        attrs: Default::default(),
        compile: None,
    };
    let id = graph.add_node(node).map_err(|e| e.to_string())?;
    Ok(Value { node: id, output: 0 })
}

/// A node and tensor name not yet taken: `wanted`, else `wanted_1`, ...
pub(crate) fn free_name(graph: &Graph, wanted: &str) -> String {
    if graph.find(wanted).is_none() && graph.tensor(wanted).is_none() {
        return wanted.to_string();
    }
    (1..)
        .map(|i| format!("{wanted}_{i}"))
        .find(|n| graph.find(n).is_none() && graph.tensor(n).is_none())
        .expect("some suffix is free")
}

/// A `Constant` node's value.
fn constant_value(attrs: &BTreeMap<String, Attr>) -> Result<Array, String> {
    let mut present = attrs.iter();
    let (Some((key, value)), None) = (present.next(), present.next()) else {
        return Err(format!("a Constant takes exactly one value attribute, it has {}", attrs.len()));
    };
    Ok(match (key.as_str(), value) {
        ("value", Attr::Tensor(a)) => a.clone(),
        ("value_float", Attr::Float(v)) => Array::scalar(*v),
        ("value_int", Attr::Int(v)) => Array::scalar(*v),
        ("value_floats", Attr::Floats(v)) => Array::from_vec([v.len() as i64], v.clone()),
        ("value_ints", Attr::Ints(v)) => Array::from_vec([v.len() as i64], v.clone()),
        (key, _) => return Err(format!("attribute '{key}' is not supported for Constant (string and sparse values)")),
    })
}

/// Converts one attribute.
fn attr(a: &AttributeProto) -> Result<Attr, String> {
    if !a.ref_attr_name.is_empty() {
        return Err(format!("refers to function attribute '{}' (functions are not supported)", a.ref_attr_name));
    }
    let string = |b: &[u8]| String::from_utf8(b.to_vec()).map_err(|_| "string is not UTF-8".to_string());
    let ty = AttributeType::try_from(a.r#type).map_err(|_| format!("unknown attribute type {}", a.r#type))?;
    Ok(match ty {
        AttributeType::Float => Attr::Float(a.f),
        AttributeType::Int => Attr::Int(a.i),
        AttributeType::String => Attr::String(string(&a.s)?),
        AttributeType::Tensor => {
            let t = a.t.as_ref().ok_or("TENSOR attribute without a tensor")?;
            Attr::Tensor(tensor::decode(t)?)
        }
        AttributeType::Floats => Attr::Floats(a.floats.clone()),
        AttributeType::Ints => Attr::Ints(a.ints.clone()),
        AttributeType::Strings => Attr::Strings(a.strings.iter().map(|s| string(s)).collect::<Result<_, _>>()?),
        AttributeType::Undefined => return Err("has no type (UNDEFINED)".into()),
        other => return Err(format!("{} attributes are not supported", other.as_str_name())),
    })
}

#[cfg(test)]
mod tests;
