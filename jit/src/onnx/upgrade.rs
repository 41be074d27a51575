//! Older opsets (6 to 12) rewritten to opset 13's operator signatures.
//!
//! smelt's op table follows opset 13 onwards. Between opsets 6 and 13 some
//! operators changed signature (attributes became inputs) or meaning (legacy
//! broadcasting, `Softmax`'s coercion to 2-D); every other operator kept its
//! meaning, so a model of an older opset is imported by rewriting just those
//! nodes, following the ONNX operator changelog, one row of [`CHANGES`] per
//! change. A change smelt cannot express (BatchNormalization's `spatial=0`, say)
//! is an error naming the node. `Dropout`, at any opset, is an identity at
//! inference and is rewritten to one here too, and `Upsample` (deprecated
//! since opset 10, yet found in newer models) to the `Resize` it equals.

use std::collections::HashMap;

use super::proto::attribute_proto::AttributeType;
use super::proto::tensor_proto::DataType;
use super::proto::{AttributeProto, GraphProto, NodeProto, TensorProto};
use super::{OnnxError, declared, is_default_domain};

/// The opset every older model is rewritten to.
pub const TARGET: i64 = 13;

/// The oldest opset read.
pub const OLDEST: i64 = 6;

/// One signature or meaning change: `op` as defined before opset `until`
/// differs from opset 13's, and [`rewrite`] turns the old form into the new.
pub struct Change {
    pub op: &'static str,
    pub until: i64,
    pub what: &'static str,
}

/// The operator changes between opsets 6 and 13 that [`rewrite`] handles.
pub const CHANGES: &[Change] = &[
    Change { op: "Add", until: 7, what: "broadcast/axis attributes: legacy broadcasting becomes numpy broadcasting" },
    Change { op: "Sub", until: 7, what: "as Add" },
    Change { op: "Mul", until: 7, what: "as Add" },
    Change { op: "Div", until: 7, what: "as Add" },
    Change { op: "Pow", until: 7, what: "as Add" },
    Change { op: "And", until: 7, what: "as Add" },
    Change { op: "Or", until: 7, what: "as Add" },
    Change { op: "Xor", until: 7, what: "as Add" },
    Change { op: "Equal", until: 7, what: "as Add" },
    Change { op: "Greater", until: 7, what: "as Add" },
    Change { op: "Less", until: 7, what: "as Add" },
    Change { op: "Gemm", until: 7, what: "broadcast attribute dropped: C always broadcasts" },
    Change { op: "PRelu", until: 7, what: "a 1-D slope applies along the channel axis (1), not the last" },
    Change { op: "BatchNormalization", until: 9, what: "is_test/spatial attributes dropped (spatial=0 refused)" },
    Change { op: "Slice", until: 10, what: "starts/ends/axes attributes become inputs" },
    Change { op: "TopK", until: 10, what: "k attribute becomes an input" },
    Change { op: "Clip", until: 11, what: "min/max attributes become inputs" },
    Change { op: "Pad", until: 11, what: "pads/value attributes become inputs" },
    Change {
        op: "Resize",
        until: 11,
        what: "roi/sizes inputs and the coordinate/nearest modes added: asymmetric, floor",
    },
    Change { op: "Squeeze", until: 13, what: "axes attribute becomes an input" },
    Change { op: "Unsqueeze", until: 13, what: "axes attribute becomes an input" },
    Change { op: "Split", until: 13, what: "split attribute becomes an input" },
    Change { op: "ReduceSum", until: 13, what: "axes attribute becomes an input" },
    Change { op: "Softmax", until: 13, what: "input coerced to 2-D at axis (default 1) becomes a softmax along axis" },
    Change { op: "LogSoftmax", until: 13, what: "as Softmax" },
    Change { op: "Hardmax", until: 13, what: "as Softmax" },
    Change { op: "Upsample", until: 10, what: "deprecated: a Resize (asymmetric, floor), rewritten at any opset" },
];

/// `g`'s nodes in opset 13's signatures (`g` is of opset `opset`), every
/// `Dropout` an identity, every `Upsample` a `Resize`.
pub fn rewrite_nodes(g: &GraphProto, opset: i64) -> Result<Vec<NodeProto>, OnnxError> {
    let dtypes = known_dtypes(g);
    let ranks = known_ranks(g);
    let mut names = Names::new(g);
    let mut out = Vec::with_capacity(g.node.len());
    for (k, node) in g.node.iter().enumerate() {
        if !is_default_domain(&node.domain) {
            out.push(node.clone());
            continue;
        }
        let mut cx = Rewriter { out: &mut out, names: &mut names, dtypes: &dtypes, ranks: &ranks, opset, k };
        cx.node(node.clone())?;
    }
    Ok(out)
}

/// Ranks the model states: initializers' and declared tensors'.
fn known_ranks(g: &GraphProto) -> HashMap<String, usize> {
    let mut m = HashMap::new();
    for t in &g.initializer {
        m.insert(t.name.clone(), t.dims.len());
    }
    for v in g.input.iter().chain(&g.value_info) {
        if let Ok((_, Some(dims))) = declared(v) {
            m.entry(v.name.clone()).or_insert(dims.len());
        }
    }
    m
}

/// Element types the model states: initializers, graph inputs, value_info.
fn known_dtypes(g: &GraphProto) -> HashMap<String, i32> {
    let mut m = HashMap::new();
    for t in &g.initializer {
        m.insert(t.name.clone(), t.data_type);
    }
    for v in g.input.iter().chain(&g.value_info).chain(&g.output) {
        if let Ok((code, _)) = declared(v)
            && code != 0
        {
            m.insert(v.name.clone(), code);
        }
    }
    m
}

/// Fresh tensor names.
struct Names {
    taken: std::collections::HashSet<String>,
    next: usize,
}

impl Names {
    fn new(g: &GraphProto) -> Names {
        let mut taken = std::collections::HashSet::new();
        for n in &g.node {
            taken.extend(n.output.iter().cloned());
            taken.insert(n.name.clone());
        }
        taken.extend(g.initializer.iter().map(|t| t.name.clone()));
        taken.extend(g.input.iter().map(|v| v.name.clone()));
        Names { taken, next: 0 }
    }

    fn fresh(&mut self, base: &str) -> String {
        loop {
            let name = format!("{base}__upgrade_{}", self.next);
            self.next += 1;
            if self.taken.insert(name.clone()) {
                return name;
            }
        }
    }
}

struct Rewriter<'a> {
    out: &'a mut Vec<NodeProto>,
    names: &'a mut Names,
    dtypes: &'a HashMap<String, i32>,
    ranks: &'a HashMap<String, usize>,
    opset: i64,
    k: usize,
}

fn take_attr(node: &mut NodeProto, name: &str) -> Option<AttributeProto> {
    let i = node.attribute.iter().position(|a| a.name == name)?;
    Some(node.attribute.remove(i))
}

pub(crate) fn int_attr(name: &str, i: i64) -> AttributeProto {
    AttributeProto { name: name.into(), r#type: AttributeType::Int as i32, i, ..AttributeProto::default() }
}

fn string_attr(name: &str, s: &str) -> AttributeProto {
    AttributeProto {
        name: name.into(),
        r#type: AttributeType::String as i32,
        s: s.as_bytes().to_vec(),
        ..AttributeProto::default()
    }
}

impl Rewriter<'_> {
    fn err(&self, node: &NodeProto, message: String) -> OnnxError {
        let name =
            if node.name.is_empty() { format!("{} (node #{})", node.op_type, self.k) } else { node.name.clone() };
        OnnxError::Node { node: name, op: node.op_type.clone(), message }
    }

    /// Adds a node; returns its first output's name.
    fn emit(&mut self, op: &str, inputs: Vec<String>, attrs: Vec<AttributeProto>, base: &str) -> String {
        let output = self.names.fresh(base);
        let name = self.names.fresh(&format!("{base}_{op}"));
        self.out.push(NodeProto {
            op_type: op.into(),
            name,
            input: inputs,
            output: vec![output.clone()],
            attribute: attrs,
            ..NodeProto::default()
        });
        output
    }

    /// A `Constant` node holding `t`.
    fn constant(&mut self, t: TensorProto, base: &str) -> String {
        let attr = AttributeProto {
            name: "value".into(),
            r#type: AttributeType::Tensor as i32,
            t: Some(t),
            ..AttributeProto::default()
        };
        self.emit("Constant", vec![], vec![attr], base)
    }

    fn int64s(&mut self, values: &[i64], dims: &[i64], base: &str) -> String {
        let t = TensorProto {
            dims: dims.to_vec(),
            data_type: DataType::Int64 as i32,
            int64_data: values.to_vec(),
            ..TensorProto::default()
        };
        self.constant(t, base)
    }

    /// A scalar of the element type `like` has, when the model states it, else
    /// float32 (the type the old float attributes had).
    fn scalar_like(&mut self, value: f32, like: &str, base: &str) -> String {
        let code = self.dtypes.get(like).copied().unwrap_or(DataType::Float as i32);
        let t = if code == DataType::Double as i32 {
            TensorProto { data_type: code, double_data: vec![value as f64], ..TensorProto::default() }
        } else if code == DataType::Float16 as i32 {
            let bits = half::f16::from_f32(value).to_bits();
            TensorProto { data_type: code, int32_data: vec![bits as i32], ..TensorProto::default() }
        } else {
            TensorProto { data_type: DataType::Float as i32, float_data: vec![value], ..TensorProto::default() }
        };
        self.constant(t, base)
    }

    fn node(&mut self, mut n: NodeProto) -> Result<(), OnnxError> {
        let v = self.opset;
        let base = n.output.first().cloned().unwrap_or_else(|| n.op_type.clone());
        match n.op_type.as_str() {
            "Dropout" => return self.dropout(n),
            "Upsample" => return self.upsample(n),
            "Resize" if v < 11 => {
                let [x, scales] = n.input.as_slice() else {
                    return Err(self.err(&n, format!("takes X and scales, has {} inputs", n.input.len())));
                };
                let (x, scales) = (x.clone(), scales.clone());
                return self.as_resize(n, x, scales);
            }
            "Add" | "Sub" | "Mul" | "Div" | "Pow" | "And" | "Or" | "Xor" | "Equal" | "Greater" | "Less" if v < 7 => {
                let broadcast = take_attr(&mut n, "broadcast").is_some_and(|a| a.i != 0);
                let axis = take_attr(&mut n, "axis");
                if let (true, Some(axis), [a, b]) = (broadcast, axis, n.input.as_slice()) {
                    let (a, b) = (a.clone(), b.clone());
                    n.input[1] = self.legacy_broadcast(&a, &b, axis.i, &base);
                }
            }
            "Gemm" if v < 7 => {
                take_attr(&mut n, "broadcast");
            }
            "PRelu" if v < 7 => {
                if let [x, slope] = n.input.as_slice()
                    && self.ranks.get(slope) == Some(&1)
                {
                    let (x, slope) = (x.clone(), slope.clone());
                    n.input[1] = self.legacy_broadcast(&x, &slope, 1, &base);
                }
            }
            "BatchNormalization" if v < 9 => {
                take_attr(&mut n, "is_test");
                take_attr(&mut n, "consumed_inputs");
                if take_attr(&mut n, "spatial").is_some_and(|a| a.i == 0) {
                    return Err(self.err(&n, "spatial=0 (statistics per element) is not supported".into()));
                }
                if n.output.iter().skip(1).any(|o| !o.is_empty()) {
                    return Err(self.err(&n, "training-mode outputs (mean, var, ...) are not supported".into()));
                }
                n.output.truncate(1);
            }
            "Slice" if v < 10 => {
                let starts = take_attr(&mut n, "starts").map(|a| a.ints).unwrap_or_default();
                let ends = take_attr(&mut n, "ends").map(|a| a.ints).unwrap_or_default();
                let axes = take_attr(&mut n, "axes").map(|a| a.ints);
                let len = starts.len() as i64;
                let s = self.int64s(&starts, &[len], &base);
                let e = self.int64s(&ends, &[ends.len() as i64], &base);
                n.input.truncate(1);
                n.input.extend([s, e]);
                if let Some(axes) = axes {
                    let a = self.int64s(&axes, &[axes.len() as i64], &base);
                    n.input.push(a);
                }
            }
            "TopK" if v < 10 => {
                let k =
                    take_attr(&mut n, "k").map(|a| a.i).ok_or_else(|| self.err(&n, "missing attribute 'k'".into()))?;
                let k = self.int64s(&[k], &[1], &base);
                n.input.truncate(1);
                n.input.push(k);
            }
            "Clip" if v < 11 => {
                let min = take_attr(&mut n, "min").map(|a| a.f);
                let max = take_attr(&mut n, "max").map(|a| a.f);
                let x = n.input.first().cloned().unwrap_or_default();
                let lo = match min {
                    Some(m) => self.scalar_like(m, &x, &base),
                    None => String::new(),
                };
                let hi = match max {
                    Some(m) => self.scalar_like(m, &x, &base),
                    None => String::new(),
                };
                n.input.truncate(1);
                n.input.extend([lo, hi]);
                while n.input.last().is_some_and(String::is_empty) {
                    n.input.pop();
                }
            }
            "Pad" if v < 11 => {
                let pads = take_attr(&mut n, "pads")
                    .or_else(|| take_attr(&mut n, "paddings"))
                    .map(|a| a.ints)
                    .ok_or_else(|| self.err(&n, "missing attribute 'pads'".into()))?;
                let value = take_attr(&mut n, "value").map_or(0.0, |a| a.f);
                let x = n.input.first().cloned().unwrap_or_default();
                let p = self.int64s(&pads, &[pads.len() as i64], &base);
                let c = self.scalar_like(value, &x, &base);
                n.input.truncate(1);
                n.input.extend([p, c]);
            }
            "Squeeze" | "Unsqueeze" | "ReduceSum" if v < 13 => {
                if let Some(axes) = take_attr(&mut n, "axes") {
                    let a = self.int64s(&axes.ints, &[axes.ints.len() as i64], &base);
                    n.input.truncate(1);
                    n.input.push(a);
                }
            }
            "Split" if v < 13 => {
                if let Some(split) = take_attr(&mut n, "split") {
                    let s = self.int64s(&split.ints, &[split.ints.len() as i64], &base);
                    n.input.truncate(1);
                    n.input.push(s);
                }
            }
            "Softmax" | "LogSoftmax" | "Hardmax" if v < 13 => return self.coerced_softmax(n),
            _ => {}
        }
        self.out.push(n);
        Ok(())
    }

    /// Opset 6's `broadcast=1, axis=a`: `b`'s dims line up with `a`'s from
    /// dimension `axis`. Numpy broadcasting lines up trailing dims, so `b` gets
    /// trailing unit dims: reshaped to `shape(b) ++ [1] * (rank(a) - axis - rank(b))`.
    fn legacy_broadcast(&mut self, a: &str, b: &str, axis: i64, base: &str) -> String {
        let shape_a = self.emit("Shape", vec![a.into()], vec![], base);
        let rank_a = self.emit("Size", vec![shape_a], vec![], base);
        let shape_b = self.emit("Shape", vec![b.into()], vec![], base);
        let rank_b = self.emit("Size", vec![shape_b.clone()], vec![], base);
        let axis = self.int64s(&[axis], &[], base);
        let lead = self.emit("Add", vec![rank_b, axis], vec![], base);
        let count = self.emit("Sub", vec![rank_a, lead], vec![], base);
        let one = self.int64s(&[1], &[1], base);
        let count = self.emit("Reshape", vec![count, one], vec![], base);
        let ones_value = TensorProto {
            dims: vec![1],
            data_type: DataType::Int64 as i32,
            int64_data: vec![1],
            ..TensorProto::default()
        };
        let attr = AttributeProto {
            name: "value".into(),
            r#type: AttributeType::Tensor as i32,
            t: Some(ones_value),
            ..AttributeProto::default()
        };
        let ones = self.emit("ConstantOfShape", vec![count], vec![attr], base);
        let shape = self.emit("Concat", vec![shape_b, ones], vec![int_attr("axis", 0)], base);
        self.emit("Reshape", vec![b.into(), shape], vec![], base)
    }

    /// Before opset 13, (Log)Softmax and Hardmax flatten the input to 2-D at
    /// `axis` (default 1) and normalize each row: `Flatten(axis)`, the op along
    /// axis 1, and a reshape back.
    fn coerced_softmax(&mut self, mut n: NodeProto) -> Result<(), OnnxError> {
        let axis = take_attr(&mut n, "axis").map_or(1, |a| a.i);
        let [x] = n.input.as_slice() else {
            return Err(self.err(&n, format!("takes one input, has {}", n.input.len())));
        };
        let x = x.clone();
        let base = n.output.first().cloned().unwrap_or_default();
        let flat = self.emit("Flatten", vec![x.clone()], vec![int_attr("axis", axis)], &base);
        let shape = self.emit("Shape", vec![x], vec![], &base);
        let y = self.emit(&n.op_type.clone(), vec![flat], vec![int_attr("axis", 1)], &base);
        n.op_type = "Reshape".into();
        n.input = vec![y, shape];
        n.attribute.clear();
        self.out.push(n);
        Ok(())
    }

    /// `Upsample(X, scales)` (opset 9; opset 7 has a `scales` attribute): a
    /// `Resize` by the same scales.
    fn upsample(&mut self, mut n: NodeProto) -> Result<(), OnnxError> {
        let x = n.input.first().cloned().ok_or_else(|| self.err(&n, "has no input".into()))?;
        let scales = match (take_attr(&mut n, "scales"), n.input.get(1)) {
            (_, Some(s)) if !s.is_empty() => s.clone(),
            (Some(a), _) => {
                // Floats, as the schema has it; whole numbers written as ints read too.
                let floats = if a.floats.is_empty() { a.ints.iter().map(|&i| i as f32).collect() } else { a.floats };
                let t = TensorProto {
                    dims: vec![floats.len() as i64],
                    data_type: DataType::Float as i32,
                    float_data: floats,
                    ..TensorProto::default()
                };
                let base = n.output.first().cloned().unwrap_or_default();
                self.constant(t, &base)
            }
            _ => {
                return Err(self.err(&n, "needs scales (the opset-1 height_scale/width_scale form is not read)".into()));
            }
        };
        self.as_resize(n, x, scales)
    }

    /// `n` (an `Upsample` or opset 10's `Resize`) as opset 13's `Resize(x, "",
    /// scales)`: the ONNX version converter's reading of the old ops, source
    /// coordinates `y / scale` rounded down for nearest.
    fn as_resize(&mut self, mut n: NodeProto, x: String, scales: String) -> Result<(), OnnxError> {
        let mode = take_attr(&mut n, "mode")
            .map_or_else(|| "nearest".to_string(), |a| String::from_utf8_lossy(&a.s).into_owned());
        let mode = if mode == "bilinear" { "linear".to_string() } else { mode };
        n.op_type = "Resize".into();
        n.input = vec![x, String::new(), scales];
        n.attribute = vec![
            string_attr("mode", &mode),
            string_attr("coordinate_transformation_mode", "asymmetric"),
            string_attr("nearest_mode", "floor"),
        ];
        self.out.push(n);
        Ok(())
    }

    /// `Dropout` at inference: the output is the input; a mask output, where
    /// asked for, is all ones (true from opset 10, ones of the input's type before).
    fn dropout(&mut self, mut n: NodeProto) -> Result<(), OnnxError> {
        if n.input.get(2).is_some_and(|t| !t.is_empty()) {
            return Err(self.err(&n, "training_mode is not supported (smelt runs models for inference)".into()));
        }
        let x = n.input.first().cloned().ok_or_else(|| self.err(&n, "has no input".into()))?;
        if let Some(mask) = n.output.get(1).filter(|m| !m.is_empty()).cloned() {
            let shape = self.emit("Shape", vec![x.clone()], vec![], &mask);
            let value = if self.opset >= 10 {
                TensorProto {
                    dims: vec![1],
                    data_type: DataType::Bool as i32,
                    int32_data: vec![1],
                    ..TensorProto::default()
                }
            } else {
                TensorProto {
                    dims: vec![1],
                    data_type: DataType::Float as i32,
                    float_data: vec![1.0],
                    ..TensorProto::default()
                }
            };
            let attr = AttributeProto {
                name: "value".into(),
                r#type: AttributeType::Tensor as i32,
                t: Some(value),
                ..AttributeProto::default()
            };
            self.out.push(NodeProto {
                op_type: "ConstantOfShape".into(),
                name: self.names.fresh("dropout_mask"),
                input: vec![shape],
                output: vec![mask],
                attribute: vec![attr],
                ..NodeProto::default()
            });
        }
        n.op_type = "Identity".into();
        n.input.truncate(1);
        n.output.truncate(1);
        n.attribute.clear();
        self.out.push(n);
        Ok(())
    }
}
