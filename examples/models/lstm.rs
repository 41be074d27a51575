//! A multi-step, multi-output time-series forecaster: three variables in, an
//! ONNX LSTM over the window, one dense head per variable predicting the next
//! `horizon` steps, heads concatenated.

use smelt_jit::graph::{Attr, Dim, Graph, Result};
use smelt_jit::{Array, DType};

use super::weights;

#[derive(Clone, Copy, Debug)]
pub struct Forecaster {
    pub batch: i64,
    pub steps: i64,
    pub hidden: i64,
    pub horizon: i64,
}

pub const VARIABLES: i64 = 3;

/// Adds the model: placeholder `series` [batch, steps, 3]; output `forecast`
/// [batch, 3 * horizon] (variable 0's horizon first).
pub fn build(g: &mut Graph, f: Forecaster) -> Result<()> {
    let (hd, v) = (f.hidden, VARIABLES);
    let dims = |d: &[i64]| d.iter().map(|&x| Dim::Fixed(x)).collect();
    let x = g.placeholder("series", DType::F32, dims(&[f.batch, f.steps, v]))?;
    let xt = g.op("Transpose", "to_time_major", &[x], vec![("perm", Attr::Ints(vec![1, 0, 2]))])?;
    let w = g.constant("lstm.W", weights(&[1, 4 * hd, v], 1, 0.3))?;
    let r = g.constant("lstm.R", weights(&[1, 4 * hd, hd], 2, 0.3))?;
    let b = g.constant("lstm.B", weights(&[1, 8 * hd], 3, 0.1))?;
    let outs = g.op_n("LSTM", "lstm", &[xt, w, r, b], 3, vec![("hidden_size", Attr::Int(hd))])?;
    let axes = g.constant("squeeze_axes", Array::from_vec([1], vec![0i64]))?;
    let last = g.op("Squeeze", "last_hidden", &[outs[1], axes], vec![])?;
    let mut heads = Vec::new();
    for k in 0..v {
        let wk = g.constant(&format!("head{k}.W"), weights(&[f.horizon, hd], 10 + k as u64, 0.3))?;
        let bk = g.constant(&format!("head{k}.B"), weights(&[f.horizon], 20 + k as u64, 0.1))?;
        heads.push(g.op("Gemm", &format!("head{k}"), &[last, wk, bk], vec![("transB", Attr::Int(1))])?);
    }
    let _ = g.op("Concat", "forecast", &heads, vec![("axis", Attr::Int(1))])?;
    g.mark_output("forecast")
}

/// Three noisy sine waves of different periods, one window per batch row.
pub fn series(f: Forecaster, offset: i64) -> Array {
    let mut v = Vec::with_capacity((f.batch * f.steps * VARIABLES) as usize);
    for b in 0..f.batch {
        for t in 0..f.steps {
            for k in 0..VARIABLES {
                let x = (b + t + offset) as f32;
                let period = [12.0, 7.0, 24.0][k as usize];
                v.push((x * std::f32::consts::TAU / period).sin() + 0.05 * ((x * 12.9898).sin() * 43758.55).fract());
            }
        }
    }
    Array::from_vec([f.batch, f.steps, VARIABLES], v)
}
