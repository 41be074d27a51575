//! Recurrent layers, `RNN`, `LSTM` and `GRU`, exactly as ONNX defines them,
//! unrolled over the (static) sequence length: the input projection of every
//! step is one product up front, then one recurrent product per step.
//!
//! Supported: directions forward, reverse and bidirectional; layouts 0 and 1;
//! activations Sigmoid, Tanh and Relu; `clip`; GRU's `linear_before_reset`;
//! `sequence_lens` when it is known and every sequence has the full length.
//! Peepholes (`P`) and LSTM's `input_forget=1` are refused.

use smelt_hlo::attrs::DotDims;
use smelt_hlo::{Dims, Opcode};

use super::util::*;
use crate::graph::lower::{LowerCx, Val};
use crate::graph::{GraphError, Node, Result};

/// `a [m, k]` times `w [n, k]` transposed: `[m, n]`.
fn dot_t(cx: &mut LowerCx<'_>, node: &Node, a: &Val, w: &Val) -> Result<Val> {
    let dims = DotDims {
        lhs_batch: Dims::new(),
        rhs_batch: Dims::new(),
        lhs_contracting: Dims::from_slice(&[1]),
        rhs_contracting: Dims::from_slice(&[1]),
    };
    emit(cx, node, |b| b.dot(a.id, w.id, dims, None))
}

/// `v[lo..hi]` along dimension `axis`.
fn part(cx: &mut LowerCx<'_>, node: &Node, v: &Val, axis: usize, lo: i64, hi: i64) -> Result<Val> {
    let r = v.dims.len();
    let mut s = vec![0; r];
    let mut e = v.dims.clone();
    s[axis] = lo;
    e[axis] = hi;
    emit(cx, node, |b| b.slice(v.id, &s, &e, &vec![1; r]))
}

/// `v[d]` along dimension 0, that dimension dropped.
fn index0(cx: &mut LowerCx<'_>, node: &Node, v: &Val, d: i64) -> Result<Val> {
    let p = part(cx, node, v, 0, d, d + 1)?;
    reshape(cx, node, &p, &v.dims[1..])
}

fn add(cx: &mut LowerCx<'_>, node: &Node, a: &Val, b: &Val) -> Result<Val> {
    binary(cx, node, Opcode::Add, a, b)
}

fn mul(cx: &mut LowerCx<'_>, node: &Node, a: &Val, b: &Val) -> Result<Val> {
    binary(cx, node, Opcode::Multiply, a, b)
}

/// One of the activation functions RNN ops name.
fn activate(cx: &mut LowerCx<'_>, node: &Node, name: &str, v: &Val) -> Result<Val> {
    match name {
        "Sigmoid" => unary(cx, node, Opcode::Logistic, v),
        "Tanh" => unary(cx, node, Opcode::Tanh, v),
        "Relu" => {
            let z = splat(cx, node, v.dtype, 0.0, &v.dims)?;
            emit(cx, node, |b| b.binary(Opcode::Maximum, v.id, z.id))
        }
        other => Err(GraphError::unsupported(node, format!("activation {other}"))),
    }
}

/// What LSTM and GRU share: inputs in layout 0, per-direction settings.
struct Rnn {
    /// `[seq, batch, input]`.
    x: Val,
    seq: i64,
    batch: i64,
    hidden: i64,
    dirs: i64,
    /// Per direction: whether it runs backwards in time.
    reverse: Vec<bool>,
    activations: Vec<String>,
    clip: Option<f64>,
    layout: i64,
}

fn setup(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>], gates: i64, default_acts: &[&str]) -> Result<Rnn> {
    let x0 = input(node, inputs, 0)?;
    let w = input(node, inputs, 1)?;
    let r = input(node, inputs, 2)?;
    if x0.dims.len() != 3 || w.dims.len() != 3 || r.dims.len() != 3 {
        return Err(GraphError::node(node, "X, W and R must have rank 3"));
    }
    let layout = int_attr(node, "layout", 0);
    let x = match layout {
        0 => x0.clone(),
        1 => transpose(cx, node, x0, &[1, 0, 2])?,
        l => return Err(GraphError::unsupported(node, format!("layout={l}"))),
    };
    let hidden = node.int("hidden_size").unwrap_or(r.dims[2]);
    let (seq, batch) = (x.dims[0], x.dims[1]);
    let reverse = match node.string("direction").unwrap_or("forward") {
        "forward" => vec![false],
        "reverse" => vec![true],
        "bidirectional" => vec![false, true],
        other => return Err(GraphError::unsupported(node, format!("direction={other}"))),
    };
    let dirs = reverse.len() as i64;
    // In i128: the attribute may be anything a model holds.
    let rows = i128::from(gates) * i128::from(hidden);
    let fits = |d: &[i64], last: i64| d.len() == 3 && d[0] == dirs && i128::from(d[1]) == rows && d[2] == last;
    if hidden < 1 || !fits(&w.dims, x.dims[2]) || !fits(&r.dims, hidden) {
        return Err(GraphError::node(
            node,
            format!("W {:?} and R {:?} do not fit {dirs} direction(s), hidden size {hidden}", w.dims, r.dims),
        ));
    }
    if opt_input(inputs, 4).is_some() {
        let full = const_ints(node, inputs, 4, "sequence_lens")?.iter().all(|&l| l == seq);
        if !full {
            return Err(GraphError::unsupported(node, "sequence_lens shorter than the sequence"));
        }
    }
    let k = default_acts.len();
    let activations: Vec<String> = match node.strings("activations") {
        Some(a) if a.len() == k * dirs as usize => a.to_vec(),
        Some(a) => {
            return Err(GraphError::node(node, format!("activations {a:?} must name {} functions", k * dirs as usize)));
        }
        None => (0..dirs).flat_map(|_| default_acts.iter().map(|s| s.to_string())).collect(),
    };
    if node.floats("activation_alpha").is_some() || node.floats("activation_beta").is_some() {
        return Err(GraphError::unsupported(node, "activation_alpha/activation_beta"));
    }
    let clip = node.float("clip").map(f64::from);
    Ok(Rnn { x, seq, batch, hidden, dirs, reverse, activations, clip, layout })
}

impl Rnn {
    /// The initial state input `i` (`[dirs, batch, hidden]`, or batch first in
    /// layout 1) for direction `d`, zeros when absent.
    fn initial(&self, cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>], i: usize, d: i64) -> Result<Val> {
        match opt_input(inputs, i) {
            Some(v) => {
                let v = if self.layout == 1 { transpose(cx, node, v, &[1, 0, 2])? } else { v.clone() };
                index0(cx, node, &v, d)
            }
            None => splat(cx, node, self.x.dtype, 0.0, &[self.batch, self.hidden]),
        }
    }

    /// `X W^T + bias` for every step: `[seq, batch, gates * hidden]`.
    fn project(&self, cx: &mut LowerCx<'_>, node: &Node, w: &Val, bias: Option<&Val>) -> Result<Val> {
        let n = w.dims[0];
        let x2 = reshape(cx, node, &self.x, &[self.seq * self.batch, self.x.dims[2]])?;
        let mut p = dot_t(cx, node, &x2, w)?;
        if let Some(b) = bias {
            p = add(cx, node, &p, b)?;
        }
        reshape(cx, node, &p, &[self.seq, self.batch, n])
    }

    fn clip(&self, cx: &mut LowerCx<'_>, node: &Node, v: &Val) -> Result<Val> {
        let Some(c) = self.clip else {
            return Ok(v.clone());
        };
        let lo = splat(cx, node, v.dtype, -c, &v.dims)?;
        let hi = splat(cx, node, v.dtype, c, &v.dims)?;
        emit(cx, node, |b| b.clamp(lo.id, v.id, hi.id))
    }

    /// Step `t` of the projected input: `[batch, n]`.
    fn step_input(&self, cx: &mut LowerCx<'_>, node: &Node, xw: &Val, t: i64) -> Result<Val> {
        index0(cx, node, xw, t)
    }

    /// Assembles Y (`[seq, dirs, batch, hidden]`) and the final states
    /// (`[dirs, batch, hidden]`), in the node's layout.
    fn outputs(&self, cx: &mut LowerCx<'_>, node: &Node, ys: Vec<Vec<Val>>, finals: Vec<Vec<Val>>) -> Result<Vec<Val>> {
        let (b, h) = (self.batch, self.hidden);
        let mut per_time = Vec::with_capacity(self.seq as usize);
        for t in 0..self.seq as usize {
            let mut parts = Vec::with_capacity(self.dirs as usize);
            for y in &ys {
                parts.push(reshape(cx, node, &y[t], &[1, 1, b, h])?.id);
            }
            per_time.push(if parts.len() == 1 { parts[0] } else { emit(cx, node, |bl| bl.concatenate(&parts, 1))?.id });
        }
        let mut y = if per_time.len() == 1 {
            cx.val(node, per_time[0])?
        } else {
            emit(cx, node, |bl| bl.concatenate(&per_time, 0))?
        };
        if self.layout == 1 {
            y = transpose(cx, node, &y, &[2, 0, 1, 3])?;
        }
        let mut outs = vec![y];
        for state in finals {
            let ids: Vec<_> =
                state.iter().map(|v| reshape(cx, node, v, &[1, b, h]).map(|v| v.id)).collect::<Result<_>>()?;
            let mut s =
                if ids.len() == 1 { cx.val(node, ids[0])? } else { emit(cx, node, |bl| bl.concatenate(&ids, 0))? };
            if self.layout == 1 {
                s = transpose(cx, node, &s, &[1, 0, 2])?;
            }
            outs.push(s);
        }
        Ok(outs)
    }

    /// Time steps in the order direction `d` visits them.
    fn order(&self, d: usize) -> Vec<i64> {
        if self.reverse[d] { (0..self.seq).rev().collect() } else { (0..self.seq).collect() }
    }
}

/// The bias of direction `d`: `Wb + Rb` (`[gates * hidden]`), if B is given.
fn bias(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>], d: i64, n: i64) -> Result<Option<(Val, Val)>> {
    let Some(b) = opt_input(inputs, 3) else {
        return Ok(None);
    };
    if b.dims.len() != 2 || b.dims[1] != 2 * n {
        return Err(GraphError::node(node, format!("B {:?} must be [dirs, {}]", b.dims, 2 * n)));
    }
    let bd = index0(cx, node, b, d)?;
    let wb = part(cx, node, &bd, 0, 0, n)?;
    let rb = part(cx, node, &bd, 0, n, 2 * n)?;
    Ok(Some((wb, rb)))
}

/// `RNN` (one gate): `H = f(X Wi + H Ri + Wbi + Rbi)`.
pub fn rnn(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let rnn = setup(cx, node, inputs, 1, &["Tanh"])?;
    let (w_all, r_all) = (input(node, inputs, 1)?, input(node, inputs, 2)?);
    let mut ys = Vec::new();
    let mut last_h = Vec::new();
    for d in 0..rnn.dirs as usize {
        let w = index0(cx, node, w_all, d as i64)?;
        let r = index0(cx, node, r_all, d as i64)?;
        let b = match bias(cx, node, inputs, d as i64, rnn.hidden)? {
            Some((wb, rb)) => Some(add(cx, node, &wb, &rb)?),
            None => None,
        };
        let xw = rnn.project(cx, node, &w, b.as_ref())?;
        let mut h = rnn.initial(cx, node, inputs, 5, d as i64)?;
        let mut y = vec![h.clone(); rnn.seq as usize];
        for t in rnn.order(d) {
            let xt = rnn.step_input(cx, node, &xw, t)?;
            let hr = dot_t(cx, node, &h, &r)?;
            let pre = add(cx, node, &xt, &hr)?;
            let pre = rnn.clip(cx, node, &pre)?;
            h = activate(cx, node, &rnn.activations[d], &pre)?;
            y[t as usize] = h.clone();
        }
        ys.push(y);
        last_h.push(h);
    }
    rnn.outputs(cx, node, ys, vec![last_h])
}

/// `LSTM` (gates i, o, f, c):
/// `C = f * C + i * g(c)`, `H = o * h(C)`.
pub fn lstm(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    if opt_input(inputs, 7).is_some() {
        return Err(GraphError::unsupported(node, "peepholes (input P)"));
    }
    if int_attr(node, "input_forget", 0) != 0 {
        return Err(GraphError::unsupported(node, "input_forget=1"));
    }
    let rnn = setup(cx, node, inputs, 4, &["Sigmoid", "Tanh", "Tanh"])?;
    let (w_all, r_all) = (input(node, inputs, 1)?, input(node, inputs, 2)?);
    let hs = rnn.hidden;
    let mut ys = Vec::new();
    let (mut last_h, mut last_c) = (Vec::new(), Vec::new());
    for d in 0..rnn.dirs as usize {
        let w = index0(cx, node, w_all, d as i64)?;
        let r = index0(cx, node, r_all, d as i64)?;
        let b = match bias(cx, node, inputs, d as i64, 4 * hs)? {
            Some((wb, rb)) => Some(add(cx, node, &wb, &rb)?),
            None => None,
        };
        let xw = rnn.project(cx, node, &w, b.as_ref())?;
        let mut h = rnn.initial(cx, node, inputs, 5, d as i64)?;
        let mut c = rnn.initial(cx, node, inputs, 6, d as i64)?;
        let acts = &rnn.activations[3 * d..3 * d + 3];
        let mut y = vec![h.clone(); rnn.seq as usize];
        for t in rnn.order(d) {
            let xt = rnn.step_input(cx, node, &xw, t)?;
            let hr = dot_t(cx, node, &h, &r)?;
            let g = add(cx, node, &xt, &hr)?;
            let gate = |k: i64, act: &str, cx: &mut LowerCx<'_>| -> Result<Val> {
                let p = part(cx, node, &g, 1, k * hs, (k + 1) * hs)?;
                let p = rnn.clip(cx, node, &p)?;
                activate(cx, node, act, &p)
            };
            let i = gate(0, &acts[0], cx)?;
            let o = gate(1, &acts[0], cx)?;
            let f = gate(2, &acts[0], cx)?;
            let cc = gate(3, &acts[1], cx)?;
            let fc = mul(cx, node, &f, &c)?;
            let ic = mul(cx, node, &i, &cc)?;
            c = add(cx, node, &fc, &ic)?;
            let hc = activate(cx, node, &acts[2], &c)?;
            h = mul(cx, node, &o, &hc)?;
            y[t as usize] = h.clone();
        }
        ys.push(y);
        last_h.push(h);
        last_c.push(c);
    }
    rnn.outputs(cx, node, ys, vec![last_h, last_c])
}

/// `GRU` (gates z, r, h):
/// `h~ = g(x Wh + (r * H) Rh + Rbh + Wbh)` (or, with `linear_before_reset=1`,
/// `g(x Wh + r * (H Rh + Rbh) + Wbh)`), `H = (1 - z) * h~ + z * H`.
pub fn gru(cx: &mut LowerCx<'_>, node: &Node, inputs: &[Option<Val>]) -> Result<Vec<Val>> {
    let rnn = setup(cx, node, inputs, 3, &["Sigmoid", "Tanh"])?;
    let lbr = int_attr(node, "linear_before_reset", 0) != 0;
    let (w_all, r_all) = (input(node, inputs, 1)?, input(node, inputs, 2)?);
    let hs = rnn.hidden;
    let mut ys = Vec::new();
    let mut last_h = Vec::new();
    for d in 0..rnn.dirs as usize {
        let w = index0(cx, node, w_all, d as i64)?;
        let r = index0(cx, node, r_all, d as i64)?;
        let (wb, rb) = match bias(cx, node, inputs, d as i64, 3 * hs)? {
            Some((wb, rb)) => (Some(wb), Some(rb)),
            None => (None, None),
        };
        let xw = rnn.project(cx, node, &w, wb.as_ref())?;
        let r_zr = part(cx, node, &r, 0, 0, 2 * hs)?;
        let r_h = part(cx, node, &r, 0, 2 * hs, 3 * hs)?;
        let (rb_zr, rb_h) = match &rb {
            Some(rb) => (Some(part(cx, node, rb, 0, 0, 2 * hs)?), Some(part(cx, node, rb, 0, 2 * hs, 3 * hs)?)),
            None => (None, None),
        };
        let mut h = rnn.initial(cx, node, inputs, 5, d as i64)?;
        let acts = &rnn.activations[2 * d..2 * d + 2];
        let mut y = vec![h.clone(); rnn.seq as usize];
        for t in rnn.order(d) {
            let xt = rnn.step_input(cx, node, &xw, t)?;
            let mut hr = dot_t(cx, node, &h, &r_zr)?;
            if let Some(b) = &rb_zr {
                hr = add(cx, node, &hr, b)?;
            }
            let x_zr = part(cx, node, &xt, 1, 0, 2 * hs)?;
            let x_h = part(cx, node, &xt, 1, 2 * hs, 3 * hs)?;
            let zr = add(cx, node, &x_zr, &hr)?;
            let z = part(cx, node, &zr, 1, 0, hs)?;
            let z = rnn.clip(cx, node, &z)?;
            let z = activate(cx, node, &acts[0], &z)?;
            let rg = part(cx, node, &zr, 1, hs, 2 * hs)?;
            let rg = rnn.clip(cx, node, &rg)?;
            let rg = activate(cx, node, &acts[0], &rg)?;
            let rec = if lbr {
                let mut hh = dot_t(cx, node, &h, &r_h)?;
                if let Some(b) = &rb_h {
                    hh = add(cx, node, &hh, b)?;
                }
                mul(cx, node, &rg, &hh)?
            } else {
                let rh = mul(cx, node, &rg, &h)?;
                let mut hh = dot_t(cx, node, &rh, &r_h)?;
                if let Some(b) = &rb_h {
                    hh = add(cx, node, &hh, b)?;
                }
                hh
            };
            let pre = add(cx, node, &x_h, &rec)?;
            let pre = rnn.clip(cx, node, &pre)?;
            let cand = activate(cx, node, &acts[1], &pre)?;
            let one = splat(cx, node, z.dtype, 1.0, &z.dims)?;
            let keep = binary(cx, node, Opcode::Subtract, &one, &z)?;
            let fresh = mul(cx, node, &keep, &cand)?;
            let old = mul(cx, node, &z, &h)?;
            h = add(cx, node, &fresh, &old)?;
            y[t as usize] = h.clone();
        }
        ys.push(y);
        last_h.push(h);
    }
    rnn.outputs(cx, node, ys, vec![last_h])
}
