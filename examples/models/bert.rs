//! One BERT encoder layer (post-LN): self-attention, residual, LayerNorm,
//! GELU feed-forward, residual, LayerNorm — the ops ONNX exporters emit.

use smelt_jit::graph::{Attr, Dim, Graph, Result, Value};
use smelt_jit::{Array, DType};

use super::weights;

/// Sizes of the layer.
#[derive(Clone, Copy, Debug)]
pub struct Bert {
    pub batch: i64,
    pub seq: i64,
    pub hidden: i64,
    pub heads: i64,
    pub ffn: i64,
}

fn shape(g: &mut Graph, name: &str, dims: &[i64]) -> Result<Value> {
    g.constant(name, Array::from_vec([dims.len() as i64], dims.to_vec()))
}

fn dense(g: &mut Graph, name: &str, x: Value, din: i64, dout: i64, seed: u64) -> Result<Value> {
    let w = g.constant(&format!("{name}.weight"), weights(&[din, dout], seed, 1.0 / (din as f32).sqrt()))?;
    let b = g.constant(&format!("{name}.bias"), weights(&[dout], seed + 1, 0.1))?;
    let y = g.op("MatMul", &format!("{name}/MatMul"), &[x, w], vec![])?;
    g.op("Add", &format!("{name}/Add"), &[y, b], vec![])
}

fn layer_norm(g: &mut Graph, name: &str, x: Value, hidden: i64, seed: u64) -> Result<Value> {
    let gamma = g.constant(&format!("{name}.gamma"), weights(&[hidden], seed, 0.1))?;
    let beta = g.constant(&format!("{name}.beta"), weights(&[hidden], seed + 1, 0.1))?;
    let attrs = vec![("axis", Attr::Int(-1)), ("epsilon", Attr::Float(1e-12))];
    g.op("LayerNormalization", name, &[x, gamma, beta], attrs)
}

/// Adds the layer: placeholders `hidden_states` [batch, seq, hidden] and
/// `attention_mask` [batch, 1, 1, seq] (0 attend, -10000 masked); output
/// `last_hidden_state`.
pub fn build(g: &mut Graph, s: Bert) -> Result<()> {
    let (b, t, h, nh) = (s.batch, s.seq, s.hidden, s.heads);
    let d = h / nh;
    let f32_dims = |dims: &[i64]| dims.iter().map(|&x| Dim::Fixed(x)).collect();
    let x = g.placeholder("hidden_states", DType::F32, f32_dims(&[b, t, h]))?;
    let mask = g.placeholder("attention_mask", DType::F32, f32_dims(&[b, 1, 1, t]))?;
    let heads_shape = shape(g, "heads_shape", &[0, 0, nh, d])?;
    let merged_shape = shape(g, "merged_shape", &[0, 0, h])?;
    let mut proj = Vec::new();
    for (i, name) in ["query", "key", "value"].iter().enumerate() {
        let p = dense(g, &format!("attention/{name}"), x, h, h, 10 + 2 * i as u64)?;
        let r = g.op("Reshape", &format!("attention/{name}/Reshape"), &[p, heads_shape], vec![])?;
        let perm = if *name == "key" { vec![0, 2, 3, 1] } else { vec![0, 2, 1, 3] };
        proj.push(g.op("Transpose", &format!("attention/{name}/Transpose"), &[r], vec![("perm", Attr::Ints(perm))])?);
    }
    let scores = g.op("MatMul", "attention/scores", &[proj[0], proj[1]], vec![])?;
    let scale = g.constant("attention/scale", Array::scalar((d as f32).sqrt()))?;
    let scaled = g.op("Div", "attention/Div", &[scores, scale], vec![])?;
    let masked = g.op("Add", "attention/mask", &[scaled, mask], vec![])?;
    let probs = g.op("Softmax", "attention/probs", &[masked], vec![("axis", Attr::Int(-1))])?;
    let context = g.op("MatMul", "attention/context", &[probs, proj[2]], vec![])?;
    let context =
        g.op("Transpose", "attention/context/Transpose", &[context], vec![("perm", Attr::Ints(vec![0, 2, 1, 3]))])?;
    let context = g.op("Reshape", "attention/context/Reshape", &[context, merged_shape], vec![])?;
    let attn = dense(g, "attention/output", context, h, h, 20)?;
    let res = g.op("Add", "attention/residual", &[attn, x], vec![])?;
    let ln1 = layer_norm(g, "attention/LayerNorm", res, h, 22)?;
    let up = dense(g, "ffn/up", ln1, h, s.ffn, 30)?;
    // Exact GELU: x * 0.5 * (1 + erf(x / sqrt 2)).
    let sqrt2 = g.constant("ffn/sqrt2", Array::scalar(std::f32::consts::SQRT_2))?;
    let (half, one) = (g.constant("ffn/half", Array::scalar(0.5f32))?, g.constant("ffn/one", Array::scalar(1f32))?);
    let e = g.op("Div", "ffn/gelu/Div", &[up, sqrt2], vec![])?;
    let e = g.op("Erf", "ffn/gelu/Erf", &[e], vec![])?;
    let e = g.op("Add", "ffn/gelu/Add", &[e, one], vec![])?;
    let e = g.op("Mul", "ffn/gelu/Mul", &[up, e], vec![])?;
    let gelu = g.op("Mul", "ffn/gelu", &[e, half], vec![])?;
    let down = dense(g, "ffn/down", gelu, s.ffn, h, 40)?;
    let res = g.op("Add", "ffn/residual", &[down, ln1], vec![])?;
    let out = layer_norm(g, "output/LayerNorm", res, h, 42)?;
    let _ = g.op("Identity", "last_hidden_state", &[out], vec![])?;
    g.mark_output("last_hidden_state")
}

/// Inputs for the layer: hidden states and a mask hiding the last quarter of
/// every other sequence.
pub fn inputs(s: Bert) -> Vec<(&'static str, Array)> {
    let hidden = weights(&[s.batch, s.seq, s.hidden], 7, 1.0);
    let mask: Vec<f32> = (0..s.batch * s.seq)
        .map(|i| if (i / s.seq) % 2 == 1 && i % s.seq >= s.seq * 3 / 4 { -10000.0 } else { 0.0 })
        .collect();
    vec![("hidden_states", hidden), ("attention_mask", Array::from_vec([s.batch, 1, 1, s.seq], mask))]
}
