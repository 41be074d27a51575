//! Post-training int8 quantization: a float model calibrated on sample
//! batches and written as a standard QDQ ONNX model (`smelt quantize`).
//!
//! What is quantized, as onnxruntime's static quantizer does it:
//!
//! - **Products**: every `Conv`, `MatMul` and `Gemm` with f32 operands. Their
//!   weights (initializers) become s8, symmetric (zero point 0), one scale per
//!   output channel (`Conv`'s axis 0, a `MatMul` weight's last axis, `Gemm`'s
//!   `B` along its output columns) or one per tensor; a `Conv` or `Gemm` bias
//!   initializer, or that of an `Add` right after a `MatMul` (its only
//!   reader), becomes s32 with scale `input scale * weight scale`, the
//!   accumulator's own, and the product's quantized output is then the sum
//!   (or, when a `Relu` is its only reader, the `Relu`'s output).
//! - **Activations**: the products' float inputs and outputs, asymmetric u8
//!   (or s8), one scale and zero point per tensor, from ranges observed by
//!   running the float model through smelt over the calibration batches:
//!   min-max, a percentile of the values (outliers clipped), or the entropy
//!   (KL divergence) threshold.
//! - **Form**: each quantized tensor `t` gains `QuantizeLinear -> t_quantized
//!   -> DequantizeLinear -> t_dequantized` right after its producer, and its
//!   consumers read `t_dequantized`; weights are stored quantized behind a
//!   `DequantizeLinear`. Any ONNX runtime reads the result (opset >= 13, for
//!   per-axis scales); smelt's optimizer folds the pairs around products back
//!   into integer products (`smelt_passes::quantized_products`).
//!
//! Rounding is half to even everywhere (ONNX's `QuantizeLinear`). The model
//! is rewritten through smelt's ONNX schema: fields outside it (local
//! functions, sparse initializers, training info) are not carried over.

use std::collections::{BTreeMap, HashMap, HashSet};

use smelt_hlo::{Array, ArrayData, DType};

use super::proto::{AttributeProto, ModelProto, NodeProto, StringStringEntryProto, TensorProto};
use super::{OnnxError, tensor};
use crate::graph::{Session, SessionOptions};

/// How activation ranges are chosen from what calibration observed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Calibration {
    /// The smallest and largest values seen.
    MinMax,
    /// The `p`-th percentile at each end (e.g. 99.999): outliers clip.
    Percentile(f64),
    /// The symmetric threshold minimizing the KL divergence between the
    /// values' histogram and its quantized form (TensorRT's method).
    Entropy,
}

impl std::fmt::Display for Calibration {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Calibration::MinMax => write!(f, "minmax"),
            Calibration::Percentile(p) => write!(f, "percentile {p}"),
            Calibration::Entropy => write!(f, "entropy"),
        }
    }
}

#[derive(Clone, Debug)]
pub struct QuantizeOptions {
    pub calibration: Calibration,
    /// The activations' type: u8 or s8 (asymmetric either way).
    pub activations: DType,
    /// One weight scale per output channel (else one per tensor).
    pub per_channel: bool,
    /// The backend the calibration runs on.
    pub backend: String,
}

impl Default for QuantizeOptions {
    fn default() -> Self {
        QuantizeOptions {
            calibration: Calibration::MinMax,
            activations: DType::U8,
            per_channel: true,
            backend: "cpu".into(),
        }
    }
}

/// Histogram bins of the percentile and entropy calibrators.
const BINS: usize = 2048;

/// One quantized product.
#[derive(Clone, Debug)]
pub struct Layer {
    /// Index of the node in the graph.
    pub node: usize,
    pub name: String,
    pub op: String,
    /// The float activation inputs: (input slot, tensor).
    pub activations: Vec<(usize, String)>,
    /// The weight: (input slot, initializer, channel axis).
    pub weight: Option<(usize, String, usize)>,
    /// The bias: (node, input slot, initializer), when it can be quantized to
    /// s32: the product's own input, or that of the `Add` right after a
    /// `MatMul`.
    pub bias: Option<(usize, usize, String)>,
    pub output: String,
}

/// What will be quantized.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    pub layers: Vec<Layer>,
    /// The activation tensors to calibrate and quantize, in graph order.
    pub activations: Vec<String>,
}

/// The range and quantization parameters chosen for one activation.
#[derive(Clone, Debug, PartialEq)]
pub struct Range {
    /// What calibration observed.
    pub min: f32,
    pub max: f32,
    /// The range quantized (containing 0).
    pub lo: f32,
    pub hi: f32,
    pub scale: f32,
    pub zero_point: i32,
}

/// A quantized model and how it came about.
pub struct Quantized {
    pub model: ModelProto,
    pub plan: Plan,
    pub ranges: BTreeMap<String, Range>,
    /// Per layer: the smallest and largest weight scale.
    pub weight_scales: Vec<(String, f32, f32)>,
}

fn err(message: impl Into<String>) -> OnnxError {
    OnnxError::Quantize(message.into())
}

fn attr_int(node: &NodeProto, name: &str) -> Option<i64> {
    node.attribute.iter().find(|a| a.name == name).map(|a| a.i)
}

fn attr_float(node: &NodeProto, name: &str) -> Option<f32> {
    node.attribute.iter().find(|a| a.name == name).map(|a| a.f)
}

/// Which products and tensors [`quantize`] quantizes in `model`.
pub fn plan(model: &ModelProto) -> Result<Plan, OnnxError> {
    let graph = model.graph.as_ref().ok_or(OnnxError::NoGraph)?;
    let inits: HashMap<&str, &TensorProto> = graph.initializer.iter().map(|t| (t.name.as_str(), t)).collect();
    let float = |t: &TensorProto| t.data_type == 1;
    // Tensors known to be f32: graph inputs declared so, and every output of
    // a node whose activation inputs are (products keep their input type).
    let mut f32_tensors: HashSet<String> = HashSet::new();
    for vi in graph.input.iter().chain(&graph.value_info).chain(&graph.output) {
        let elem = vi.r#type.as_ref().and_then(|t| match &t.value {
            Some(super::proto::type_proto::Value::TensorType(tt)) => Some(tt.elem_type),
            _ => None,
        });
        if elem == Some(1) {
            f32_tensors.insert(vi.name.clone());
        }
    }
    // Who reads each tensor: (node, input slot).
    let mut readers: HashMap<&str, Vec<(usize, usize)>> = HashMap::new();
    for (i, node) in graph.node.iter().enumerate() {
        for (s, t) in node.input.iter().enumerate() {
            readers.entry(t.as_str()).or_default().push((i, s));
        }
    }
    let graph_outputs: HashSet<&str> = graph.output.iter().map(|v| v.name.as_str()).collect();
    let mut plan = Plan::default();
    let mut seen = HashSet::new();
    for (i, node) in graph.node.iter().enumerate() {
        let is_weight = |name: &str| inits.get(name).is_some_and(|t| float(t) && !t.dims.is_empty());
        let x = node.input.first().cloned().unwrap_or_default();
        let x_f32 = f32_tensors.contains(&x) || inits.get(x.as_str()).is_some_and(|t| float(t));
        // Float ops applied to float tensors give float tensors.
        if x_f32
            && !matches!(node.op_type.as_str(), "Cast" | "Shape" | "Size" | "ArgMax" | "ArgMin" | "NonZero" | "TopK")
        {
            f32_tensors.extend(node.output.iter().take(1).cloned());
        }
        let (weight_slot, axis) = match node.op_type.as_str() {
            "Conv" => (1, Some(0)),
            "MatMul" => (1, None),
            "Gemm" => (1, Some(if attr_int(node, "transB").unwrap_or(0) != 0 { 0 } else { 1 })),
            _ => continue,
        };
        if !x_f32 || inits.contains_key(x.as_str()) {
            continue;
        }
        let Some(w) = node.input.get(weight_slot).filter(|w| is_weight(w)) else { continue };
        let wdims = &inits[w.as_str()].dims;
        let axis = axis.unwrap_or(wdims.len().saturating_sub(1));
        if node.op_type == "Conv" && wdims.len() < 3 || node.op_type != "Conv" && wdims.len() != 2 {
            continue;
        }
        let bias = match node.op_type.as_str() {
            "Conv" => node.input.get(2),
            // alpha * A B + beta * C: C is the accumulator's bias when both are 1.
            "Gemm"
                if attr_float(node, "alpha").unwrap_or(1.0) == 1.0
                    && attr_float(node, "beta").unwrap_or(1.0) == 1.0 =>
            {
                node.input.get(2)
            }
            _ => None,
        }
        .filter(|b| inits.get(b.as_str()).is_some_and(|t| float(t) && t.dims.len() == 1 && t.dims[0] == wdims[axis]))
        .map(|b| (i, 2, b.clone()));
        let mut output = node.output.first().cloned().unwrap_or_default();
        // A MatMul whose only reader adds a bias vector (a Gemm as exporters
        // split it): the bias joins the accumulator, and the sum is the
        // product's quantized output (one quantization instead of two, and the
        // activation after it a function of one 8-bit value).
        let bias = match (bias, node.op_type.as_str(), readers.get(output.as_str()).map(Vec::as_slice)) {
            (None, "MatMul", Some(&[(add, slot)]))
                if graph.node[add].op_type == "Add" && !graph_outputs.contains(output.as_str()) =>
            {
                let other = 1 - slot.min(1);
                graph.node[add]
                    .input
                    .get(other)
                    .filter(|b| {
                        inits.get(b.as_str()).is_some_and(|t| float(t) && t.dims.len() == 1 && t.dims[0] == wdims[axis])
                    })
                    .map(|b| {
                        output = graph.node[add].output.first().cloned().unwrap_or_default();
                        (add, other, b.clone())
                    })
            }
            (bias, ..) => bias,
        };
        // A Relu right after (the only reader) is quantized with the product:
        // its output is the one quantized tensor, the clamp at 0 part of the
        // requantization (as onnxruntime's quantizer does).
        if let Some(&[(r, 0)]) = readers.get(output.as_str()).map(Vec::as_slice)
            && graph.node[r].op_type == "Relu"
            && !graph_outputs.contains(output.as_str())
            && let Some(after) = graph.node[r].output.first()
        {
            output = after.clone();
        }
        for t in [&x, &output] {
            if !t.is_empty() && seen.insert(t.clone()) {
                plan.activations.push(t.clone());
            }
        }
        let name = if node.name.is_empty() { format!("{}_{i}", node.op_type) } else { node.name.clone() };
        plan.layers.push(Layer {
            node: i,
            name,
            op: node.op_type.clone(),
            activations: vec![(0, x.clone())],
            weight: Some((weight_slot, w.clone(), axis)),
            bias,
            output,
        });
    }
    Ok(plan)
}

/// What calibration keeps per tensor.
#[derive(Clone, Debug)]
struct Observer {
    min: f32,
    max: f32,
    /// Counts over `[min, max]` in [`BINS`] bins (second pass).
    histogram: Vec<u64>,
}

/// Runs `session` over `batches`, calling `seen(k, value)` for every fetched
/// tensor `k`.
fn observe(
    session: &Session,
    fetches: &[&str],
    batches: &[Vec<(String, Array)>],
    mut seen: impl FnMut(usize, &[f32]),
) -> Result<(), OnnxError> {
    for (b, batch) in batches.iter().enumerate() {
        let feeds: Vec<(&str, Array)> = batch.iter().map(|(n, a)| (n.as_str(), a.clone())).collect();
        let values = session.run(&feeds, fetches).map_err(|e| err(format!("calibration batch {b}: {e}")))?;
        for (k, v) in values.iter().enumerate() {
            match &v.data {
                ArrayData::F32(x) => seen(k, x),
                _ => return Err(err(format!("tensor '{}' is {}, not f32", fetches[k], v.dtype()))),
            }
        }
    }
    Ok(())
}

/// The quantization parameters for `[lo, hi]` (widened to hold 0) in `d`.
pub fn params(lo: f32, hi: f32, d: DType) -> (f32, f32, f32, i32) {
    let (lo, hi) = (lo.min(0.0), hi.max(0.0));
    let (qmin, qmax) = if d == DType::S8 { (-128.0f32, 127.0f32) } else { (0.0, 255.0) };
    let scale = if hi > lo { (hi - lo) / (qmax - qmin) } else { 1.0 };
    let zp = (qmin - lo / scale).round_ties_even().clamp(qmin, qmax) as i32;
    (lo, hi, scale, zp)
}

/// The percentile range of a histogram over `[min, max]`.
fn percentile(o: &Observer, p: f64) -> (f32, f32) {
    let total: u64 = o.histogram.iter().sum();
    let width = (o.max - o.min) / BINS as f32;
    if total == 0 || width <= 0.0 {
        return (o.min, o.max);
    }
    let cut = ((1.0 - p / 100.0) * total as f64).max(0.0);
    let mut acc = 0u64;
    let mut lo = o.min;
    for (i, &c) in o.histogram.iter().enumerate() {
        if (acc + c) as f64 > cut {
            lo = o.min + i as f32 * width;
            break;
        }
        acc += c;
    }
    let mut acc = 0u64;
    let mut hi = o.max;
    for (i, &c) in o.histogram.iter().enumerate().rev() {
        if (acc + c) as f64 > cut {
            hi = o.min + (i + 1) as f32 * width;
            break;
        }
        acc += c;
    }
    (lo, hi)
}

/// The entropy threshold `t` (range `[-t, t]` cut to what was seen):
/// the histogram of `|x|` (folded from the `[min, max]` one) clipped at each
/// candidate and compared, by KL divergence, with its 128-level form.
fn entropy(o: &Observer) -> (f32, f32) {
    let width = (o.max - o.min) / BINS as f32;
    let amax = o.min.abs().max(o.max.abs());
    if width <= 0.0 || amax <= 0.0 {
        return (o.min, o.max);
    }
    // |x| histogram over [0, amax].
    let abs_width = amax / BINS as f32;
    let mut h = vec![0f64; BINS];
    for (i, &c) in o.histogram.iter().enumerate() {
        let centre = o.min + (i as f32 + 0.5) * width;
        let j = ((centre.abs() / abs_width) as usize).min(BINS - 1);
        h[j] += c as f64;
    }
    const LEVELS: usize = 128;
    let mut best = (f64::INFINITY, BINS);
    for i in (LEVELS..=BINS).step_by(16) {
        let mut p: Vec<f64> = h[..i].to_vec();
        p[i - 1] += h[i..].iter().sum::<f64>();
        let total: f64 = p.iter().sum();
        if total == 0.0 {
            continue;
        }
        // Merge into LEVELS levels, then spread each level's mass over its
        // non-empty bins.
        let mut q = vec![0f64; i];
        for l in 0..LEVELS {
            let (a, b) = (l * i / LEVELS, ((l + 1) * i / LEVELS).max(l * i / LEVELS + 1));
            let mass: f64 = h[a..b].iter().sum();
            let nonzero = h[a..b].iter().filter(|&&v| v > 0.0).count();
            for j in a..b {
                if h[j] > 0.0 {
                    q[j] = mass / nonzero as f64;
                }
            }
        }
        let qt: f64 = q.iter().sum();
        let mut kl = 0.0;
        for j in 0..i {
            if p[j] > 0.0 {
                let pj = p[j] / total;
                let qj = if qt > 0.0 { q[j] / qt } else { 0.0 };
                kl += if qj > 0.0 { pj * (pj / qj).ln() } else { pj * 20.0 };
            }
        }
        if kl < best.0 {
            best = (kl, i);
        }
    }
    let t = best.1 as f32 * abs_width;
    (o.min.max(-t), o.max.min(t))
}

/// Observes the plan's activations over `batches` and chooses their ranges.
pub fn calibrate(
    model: &ModelProto,
    plan: &Plan,
    batches: &[Vec<(String, Array)>],
    options: &QuantizeOptions,
) -> Result<BTreeMap<String, Range>, OnnxError> {
    if batches.is_empty() {
        return Err(err("no calibration batches"));
    }
    let graph = super::import(model)?;
    let session =
        Session::new(graph, SessionOptions { backend: options.backend.clone(), ..SessionOptions::default() })?;
    let fetches: Vec<&str> = plan.activations.iter().map(String::as_str).collect();
    let mut obs: Vec<Observer> = fetches
        .iter()
        .map(|_| Observer { min: f32::INFINITY, max: f32::NEG_INFINITY, histogram: Vec::new() })
        .collect();
    observe(&session, &fetches, batches, |k, xs| {
        for &x in xs {
            if x.is_finite() {
                obs[k].min = obs[k].min.min(x);
                obs[k].max = obs[k].max.max(x);
            }
        }
    })?;
    for (k, o) in obs.iter_mut().enumerate() {
        if o.min > o.max {
            return Err(err(format!("tensor '{}': no finite value in the calibration batches", fetches[k])));
        }
        o.histogram = vec![0; BINS];
    }
    if options.calibration != Calibration::MinMax {
        observe(&session, &fetches, batches, |k, xs| {
            let o = &mut obs[k];
            let width = (o.max - o.min) / BINS as f32;
            for &x in xs {
                if x.is_finite() {
                    let i = if width > 0.0 { ((x - o.min) / width) as usize } else { 0 };
                    o.histogram[i.min(BINS - 1)] += 1;
                }
            }
        })?;
    }
    let mut ranges = BTreeMap::new();
    for (k, o) in obs.iter().enumerate() {
        let (lo, hi) = match options.calibration {
            Calibration::MinMax => (o.min, o.max),
            Calibration::Percentile(p) => percentile(o, p),
            Calibration::Entropy => entropy(o),
        };
        let (lo, hi, scale, zero_point) = params(lo, hi, options.activations);
        ranges.insert(fetches[k].to_string(), Range { min: o.min, max: o.max, lo, hi, scale, zero_point });
    }
    Ok(ranges)
}

/// `w` (f32) as symmetric s8 with one scale per index of `axis` (or one for
/// all): the quantized values and the scales.
pub fn quantize_weight(w: &Array, axis: Option<usize>) -> Result<(Array, Vec<f32>), OnnxError> {
    let ArrayData::F32(values) = &w.data else { return Err(err("weights must be f32")) };
    let dims: Vec<usize> = w.dims.iter().map(|&d| d as usize).collect();
    let (channels, inner) = match axis {
        Some(a) => (dims[a], dims[a + 1..].iter().product::<usize>()),
        None => (1, values.len()),
    };
    let channel = |i: usize| if channels == 1 { 0 } else { (i / inner) % channels };
    let mut amax = vec![0f32; channels];
    for (i, &v) in values.iter().enumerate() {
        amax[channel(i)] = amax[channel(i)].max(v.abs());
    }
    let scales: Vec<f32> = amax.iter().map(|&m| if m > 0.0 && m.is_finite() { m / 127.0 } else { 1.0 }).collect();
    let q: Vec<i8> = values
        .iter()
        .enumerate()
        .map(|(i, &v)| (v / scales[channel(i)]).round_ties_even().clamp(-127.0, 127.0) as i8)
        .collect();
    Ok((Array::from_vec(w.dims.as_slice(), q), scales))
}

fn scalar_or_vec<T: smelt_hlo::Element>(v: Vec<T>) -> Array {
    if v.len() == 1 { Array::scalar(v[0]) } else { Array::from_vec([v.len() as i64], v) }
}

/// The names of `base`'s quantized form, scale, zero point and dequantized form.
fn names(base: &str) -> [String; 4] {
    ["quantized", "scale", "zero_point", "dequantized"].map(|s| format!("{base}_{s}"))
}

/// A tensor stored quantized: its initializers (`<base>_quantized`,
/// `_scale`, `_zero_point`) and the `DequantizeLinear` giving
/// `<base>_dequantized`, the name consumers read.
fn stored(base: &str, [q, scale, zp]: [Array; 3], axis: Option<i64>) -> ([TensorProto; 3], NodeProto, String) {
    let [qn, sn, zn, dn] = names(base);
    let inits = [tensor::encode(&qn, &q), tensor::encode(&sn, &scale), tensor::encode(&zn, &zp)];
    (inits, node("DequantizeLinear", [&qn, &sn, &zn], &dn, axis), dn)
}

fn node(op: &str, inputs: [&str; 3], output: &str, axis: Option<i64>) -> NodeProto {
    NodeProto {
        input: inputs.iter().map(|s| s.to_string()).collect(),
        output: vec![output.to_string()],
        name: format!("{output}_{op}"),
        op_type: op.to_string(),
        attribute: axis
            .map(|a| AttributeProto { name: "axis".into(), r#type: 2, i: a, ..AttributeProto::default() })
            .into_iter()
            .collect(),
        ..NodeProto::default()
    }
}

/// Calibrates `model` on `batches` and writes its QDQ form.
pub fn quantize(
    model: &ModelProto,
    batches: &[Vec<(String, Array)>],
    options: &QuantizeOptions,
) -> Result<Quantized, OnnxError> {
    if !matches!(options.activations, DType::U8 | DType::S8) {
        return Err(err(format!("activations must be u8 or s8, not {}", options.activations)));
    }
    let opset = super::opset(model)?;
    if opset < 13 {
        return Err(err(format!(
            "the model's opset is {opset}; per-channel QDQ needs 13 or later \
             (onnx.version_converter.convert_version(model, 13) converts it)"
        )));
    }
    let plan = plan(model)?;
    if plan.layers.is_empty() {
        return Err(err("nothing to quantize: no Conv, MatMul or Gemm with an f32 initializer as its weight"));
    }
    let ranges = calibrate(model, &plan, batches, options)?;
    let mut out = model.clone();
    let graph = out.graph.as_mut().ok_or(OnnxError::NoGraph)?;
    let inits: HashMap<String, TensorProto> = graph.initializer.iter().map(|t| (t.name.clone(), t.clone())).collect();
    let mut new_inits: Vec<TensorProto> = Vec::new();
    let mut front: Vec<NodeProto> = Vec::new();
    let mut replaced: HashSet<String> = HashSet::new();
    let mut weight_scales = Vec::new();
    // (node, input slot) -> the dequantized tensor it reads instead.
    let mut slot_renames: HashMap<(usize, usize), String> = HashMap::new();
    for layer in &plan.layers {
        let (slot, w, axis) = layer.weight.clone().expect("planned layers have weights");
        let array = tensor::decode(&inits[&w]).map_err(|m| OnnxError::Tensor { tensor: w.clone(), message: m })?;
        let (q, scales) = quantize_weight(&array, options.per_channel.then_some(axis))?;
        let lo = scales.iter().copied().fold(f32::INFINITY, f32::min);
        let hi = scales.iter().copied().fold(0.0, f32::max);
        weight_scales.push((layer.name.clone(), lo, hi));
        let zeros = vec![0i8; scales.len()];
        let axis = (scales.len() > 1).then_some(axis as i64);
        let (inits3, dq, dn) =
            stored(&format!("{}_{w}", layer.name), [q, scalar_or_vec(scales.clone()), scalar_or_vec(zeros)], axis);
        new_inits.extend(inits3);
        front.push(dq);
        slot_renames.insert((layer.node, slot), dn);
        replaced.insert(w.clone());
        // The bias, in the accumulator's scale.
        if let Some((bnode, bslot, b)) = &layer.bias {
            let x = &layer.activations[0].1;
            let sx = ranges[x].scale;
            let barr = tensor::decode(&inits[b]).map_err(|m| OnnxError::Tensor { tensor: b.clone(), message: m })?;
            let ArrayData::F32(bv) = &barr.data else { continue };
            let bscales: Vec<f32> = (0..bv.len()).map(|c| sx * scales[if scales.len() == 1 { 0 } else { c }]).collect();
            let bq: Vec<i32> =
                bv.iter()
                    .zip(&bscales)
                    .map(|(&v, &s)| {
                        if s > 0.0 {
                            (v / s).round_ties_even().clamp(i32::MIN as f32, i32::MAX as f32) as i32
                        } else {
                            0
                        }
                    })
                    .collect();
            let n = bq.len() as i64;
            let arrays =
                [Array::from_vec([n], bq), Array::from_vec([n], bscales), Array::from_vec([n], vec![0i32; n as usize])];
            let (inits3, dq, dn) = stored(&format!("{}_{b}", layer.name), arrays, Some(0));
            new_inits.extend(inits3);
            front.push(dq);
            slot_renames.insert((*bnode, *bslot), dn);
            replaced.insert(b.clone());
        }
    }
    // Activation parameters and their Q/DQ pairs, placed after each producer.
    let qtype = options.activations;
    let mut pairs: HashMap<String, Vec<NodeProto>> = HashMap::new();
    let mut renamed: HashMap<String, String> = HashMap::new();
    for t in &plan.activations {
        let r = &ranges[t];
        let [qn, sn, zn, dn] = names(t);
        new_inits.push(tensor::encode(&sn, &Array::scalar(r.scale)));
        let zp = if qtype == DType::S8 { Array::scalar(r.zero_point as i8) } else { Array::scalar(r.zero_point as u8) };
        new_inits.push(tensor::encode(&zn, &zp));
        pairs.insert(
            t.clone(),
            vec![
                node("QuantizeLinear", [t, &sn, &zn], &qn, None),
                node("DequantizeLinear", [&qn, &sn, &zn], &dn, None),
            ],
        );
        renamed.insert(t.clone(), dn);
    }
    // Weights still read by other nodes stay.
    let mut still_used: HashSet<String> = HashSet::new();
    for (i, n) in graph.node.iter().enumerate() {
        for (s, input) in n.input.iter().enumerate() {
            if !slot_renames.contains_key(&(i, s)) {
                still_used.insert(input.clone());
            }
        }
    }
    graph.initializer.retain(|t| !replaced.contains(&t.name) || still_used.contains(&t.name));
    graph.initializer.extend(new_inits);
    let old_nodes = std::mem::take(&mut graph.node);
    let mut nodes = front;
    let graph_inputs: Vec<String> = graph.input.iter().map(|v| v.name.clone()).collect();
    for input in &graph_inputs {
        nodes.extend(pairs.remove(input).unwrap_or_default());
    }
    for (i, mut n) in old_nodes.into_iter().enumerate() {
        for (s, input) in n.input.iter_mut().enumerate() {
            if let Some(dn) = slot_renames.get(&(i, s)) {
                *input = dn.clone();
            } else if let Some(dn) = renamed.get(input.as_str()) {
                *input = dn.clone();
            }
        }
        let outputs = n.output.clone();
        nodes.push(n);
        for o in outputs {
            nodes.extend(pairs.remove(&o).unwrap_or_default());
        }
    }
    if let Some(t) = pairs.keys().next() {
        return Err(err(format!("tensor '{t}' has no producer in the graph")));
    }
    graph.node = nodes;
    out.metadata_props.push(StringStringEntryProto {
        key: "smelt.quantization".into(),
        value: format!(
            "static QDQ: {} activations ({}), s8 weights {}",
            qtype,
            options.calibration,
            if options.per_channel { "per channel" } else { "per tensor" }
        ),
    });
    Ok(Quantized { model: out, plan, ranges, weight_scales })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn activation_parameters_hold_zero_and_round_half_to_even() {
        assert_eq!(params(-1.0, 3.0, DType::U8), (-1.0, 3.0, 4.0 / 255.0, 64));
        // All positive: the range starts at 0.
        let (lo, hi, s, z) = params(0.5, 2.0, DType::U8);
        assert_eq!((lo, hi, z), (0.0, 2.0, 0));
        assert!((s - 2.0 / 255.0).abs() < 1e-9);
        assert_eq!(params(-1.0, 3.0, DType::S8).3, -64);
        // An empty range quantizes with scale 1.
        assert_eq!(params(0.0, 0.0, DType::U8), (0.0, 0.0, 1.0, 0));
    }

    #[test]
    fn weights_are_symmetric_per_channel() {
        let w = Array::from_vec([2, 3], vec![1.0f32, -0.5, 0.25, 0.0, 0.0, 0.0]);
        let (q, s) = quantize_weight(&w, Some(0)).unwrap();
        assert_eq!(s, vec![1.0 / 127.0, 1.0]);
        assert_eq!(q.values::<i8>().unwrap(), &[127, -64, 32, 0, 0, 0]);
        let (_, s) = quantize_weight(&w, None).unwrap();
        assert_eq!(s, vec![1.0 / 127.0]);
    }

    #[test]
    fn percentile_clips_outliers_and_entropy_stays_inside_what_was_seen() {
        let mut o = Observer { min: -1.0, max: 100.0, histogram: vec![0; BINS] };
        // 10^6 values in [-1, 1], one at 100.
        let width = 101.0 / BINS as f32;
        for i in 0..=((2.0 / width) as usize) {
            o.histogram[i] = 1_000_000 / 41;
        }
        o.histogram[BINS - 1] = 1;
        let (lo, hi) = percentile(&o, 99.99);
        assert!(lo <= -0.9 && hi < 2.0, "{lo} {hi}");
        let (lo, hi) = entropy(&o);
        assert!(lo >= -1.0 && hi <= 100.0 && hi < 50.0, "{lo} {hi}");
    }
}
