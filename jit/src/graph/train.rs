//! Training in the graph API: symbolic gradients and optimizers.
//!
//! [`Graph::gradients`] adds one `Gradients` node computing `d loss / d x`
//! for each `x` it is given (variables, placeholders or constants). The node
//! carries no rules of its own: when its cluster is lowered
//! ([`super::lower`]), the loss's forward subgraph is lowered to an HLO module
//! and differentiated by smelt's autodiff pass (`smelt_passes::grad`, the one
//! place gradient rules live), and the gradient module's instructions join
//! the cluster. So the forward pass, the backward pass and the optimizer
//! update of a training step compile into one cluster: a step runs without a
//! host round trip, and the variables' new values are stored after it.
//!
//! Optimizers ([`sgd`], [`momentum`], [`adam`]) are graph ops writing each
//! variable with `Assign`; their learning rate is a graph value, so a schedule
//! is any graph computing it (or a placeholder fed per step).

use super::{Attr, Graph, GraphError, NodeKind, Result, Value};
use smelt_hlo::Array;

/// The op type of a [`Graph::gradients`] node.
pub const GRADIENTS: &str = "Gradients";

impl Graph {
    /// `d loss / d x` for each `x` of `wrt`, as outputs of one node named
    /// `name` (tensors `name`, `name:1`, ...). `loss` must be a scalar
    /// floating-point value computed by ops; each `x` a variable, placeholder or
    /// constant. Values the loss reads that are computed on the host (host
    /// callbacks, data-dependent ops) are treated as constants.
    pub fn gradients(&mut self, name: &str, loss: Value, wrt: &[Value]) -> Result<Vec<Value>> {
        if wrt.is_empty() {
            return Err(GraphError::Invalid(format!("gradients '{name}': no values to differentiate with respect to")));
        }
        for &x in wrt {
            let node = self.node(x.node);
            if matches!(node.kind, NodeKind::Op | NodeKind::Host(_)) {
                return Err(GraphError::Invalid(format!(
                    "gradients '{name}': '{}' is computed by an op; take gradients with respect to variables, \
                     placeholders or constants",
                    self.tensor_name(x)
                )));
            }
        }
        let leaves = self.forward_leaves(name, loss)?;
        // Inputs: the values differentiated with respect to, the forward
        // subgraph's other leaves, and the loss last (an edge that keeps the
        // node in the forward pass's cluster).
        let mut inputs: Vec<Value> = wrt.to_vec();
        inputs.extend(leaves.into_iter().filter(|v| !wrt.contains(v)));
        inputs.push(loss);
        self.op_n(GRADIENTS, name, &inputs, wrt.len(), vec![("wrt", Attr::Int(wrt.len() as i64))])
    }

    /// The values the loss's forward subgraph reads from outside itself:
    /// variables, placeholders, constants and host-computed values, in node
    /// order.
    fn forward_leaves(&self, name: &str, loss: Value) -> Result<Vec<Value>> {
        let mut leaves = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec![loss];
        while let Some(v) = stack.pop() {
            if !seen.insert(v) {
                continue;
            }
            let node = self.node(v.node);
            let is_op = matches!(node.kind, NodeKind::Op);
            let host = is_op && super::ops::lookup(&node.op).is_some_and(|d| !d.compilable());
            if node.op == GRADIENTS {
                return Err(GraphError::Invalid(format!("gradients '{name}': the loss reads another gradients node")));
            }
            if is_op && !host {
                stack.extend(node.inputs.iter().flatten().copied());
            } else {
                leaves.push(v);
            }
        }
        leaves.sort();
        Ok(leaves)
    }

    /// A scalar f32 constant named `name`.
    fn scalar_f32(&mut self, name: &str, v: f32) -> Result<Value> {
        self.constant(name, Array::scalar(v))
    }
}

/// `x - lr * g` for each variable `x` and gradient `g`: the `Assign` nodes
/// (named `{name}/{variable}`) to fetch to take one step.
pub fn sgd(g: &mut Graph, name: &str, vars: &[Value], grads: &[Value], lr: Value) -> Result<Vec<Value>> {
    check_pairs(g, name, vars, grads)?;
    let mut steps = Vec::with_capacity(vars.len());
    for (&x, &dx) in vars.iter().zip(grads) {
        let v = g.tensor_name(x).to_string();
        let scaled = g.op("Mul", &format!("{name}/{v}/scaled"), &[lr, dx], vec![])?;
        let next = g.op("Sub", &format!("{name}/{v}/next"), &[x, scaled], vec![])?;
        steps.push(g.assign(&format!("{name}/{v}"), x, next)?);
    }
    Ok(steps)
}

/// Gradient descent with momentum: `m = mu * m + g`, `x -= lr * m`, each
/// velocity `m` a variable starting at zero (`{name}/{variable}/m`).
pub fn momentum(g: &mut Graph, name: &str, vars: &[Value], grads: &[Value], lr: Value, mu: f32) -> Result<Vec<Value>> {
    check_pairs(g, name, vars, grads)?;
    let mu = g.scalar_f32(&format!("{name}/mu"), mu)?;
    let mut steps = Vec::with_capacity(2 * vars.len());
    for (&x, &dx) in vars.iter().zip(grads) {
        let v = g.tensor_name(x).to_string();
        let m = g.variable(&format!("{name}/{v}/m"), zeros_like(g, x)?)?;
        let decayed = g.op("Mul", &format!("{name}/{v}/m_decayed"), &[mu, m], vec![])?;
        let m_next = g.op("Add", &format!("{name}/{v}/m_next"), &[decayed, dx], vec![])?;
        let scaled = g.op("Mul", &format!("{name}/{v}/scaled"), &[lr, m_next], vec![])?;
        let next = g.op("Sub", &format!("{name}/{v}/next"), &[x, scaled], vec![])?;
        steps.push(g.assign(&format!("{name}/{v}/m_update"), m, m_next)?);
        steps.push(g.assign(&format!("{name}/{v}"), x, next)?);
    }
    Ok(steps)
}

/// Adam's hyperparameters (Kingma and Ba's defaults).
#[derive(Clone, Copy, Debug)]
pub struct Adam {
    pub beta1: f32,
    pub beta2: f32,
    pub epsilon: f32,
}

impl Default for Adam {
    fn default() -> Adam {
        Adam { beta1: 0.9, beta2: 0.999, epsilon: 1e-8 }
    }
}

/// Adam: moment estimates `m`, `v` per variable and a step count `t`
/// (variables named under `name`), bias-corrected:
/// `x -= lr * m / (1 - b1^t) / (sqrt(v / (1 - b2^t)) + eps)`.
pub fn adam(g: &mut Graph, name: &str, vars: &[Value], grads: &[Value], lr: Value, h: Adam) -> Result<Vec<Value>> {
    check_pairs(g, name, vars, grads)?;
    let c = |g: &mut Graph, what: &str, v: f32| g.scalar_f32(&format!("{name}/{what}"), v);
    let (b1, b2, eps) = (c(g, "beta1", h.beta1)?, c(g, "beta2", h.beta2)?, c(g, "epsilon", h.epsilon)?);
    let (one_b1, one_b2, one) = (c(g, "1-beta1", 1.0 - h.beta1)?, c(g, "1-beta2", 1.0 - h.beta2)?, c(g, "one", 1.0)?);
    let t = g.variable(&format!("{name}/t"), Array::scalar(0f32))?;
    let t_next = g.op("Add", &format!("{name}/t_next"), &[t, one], vec![])?;
    let b1t = g.op("Pow", &format!("{name}/beta1^t"), &[b1, t_next], vec![])?;
    let b2t = g.op("Pow", &format!("{name}/beta2^t"), &[b2, t_next], vec![])?;
    let fix1 = g.op("Sub", &format!("{name}/1-beta1^t"), &[one, b1t], vec![])?;
    let fix2 = g.op("Sub", &format!("{name}/1-beta2^t"), &[one, b2t], vec![])?;
    let mut steps = vec![g.assign(&format!("{name}/t_update"), t, t_next)?];
    for (&x, &dx) in vars.iter().zip(grads) {
        let v = g.tensor_name(x).to_string();
        let op =
            |g: &mut Graph, op: &str, what: &str, ins: &[Value]| g.op(op, &format!("{name}/{v}/{what}"), ins, vec![]);
        let m = g.variable(&format!("{name}/{v}/m"), zeros_like(g, x)?)?;
        let s = g.variable(&format!("{name}/{v}/v"), zeros_like(g, x)?)?;
        let m1 = op(g, "Mul", "m_decayed", &[b1, m])?;
        let m2 = op(g, "Mul", "g_scaled", &[one_b1, dx])?;
        let m_next = op(g, "Add", "m_next", &[m1, m2])?;
        let sq = op(g, "Mul", "g_squared", &[dx, dx])?;
        let s1 = op(g, "Mul", "v_decayed", &[b2, s])?;
        let s2 = op(g, "Mul", "g2_scaled", &[one_b2, sq])?;
        let s_next = op(g, "Add", "v_next", &[s1, s2])?;
        let m_hat = op(g, "Div", "m_hat", &[m_next, fix1])?;
        let s_hat = op(g, "Div", "v_hat", &[s_next, fix2])?;
        let root = op(g, "Sqrt", "sqrt_v_hat", &[s_hat])?;
        let den = op(g, "Add", "denominator", &[root, eps])?;
        let ratio = op(g, "Div", "ratio", &[m_hat, den])?;
        let delta = op(g, "Mul", "delta", &[lr, ratio])?;
        let next = op(g, "Sub", "next", &[x, delta])?;
        steps.push(g.assign(&format!("{name}/{v}/m_update"), m, m_next)?);
        steps.push(g.assign(&format!("{name}/{v}/v_update"), s, s_next)?);
        steps.push(g.assign(&format!("{name}/{v}"), x, next)?);
    }
    Ok(steps)
}

fn check_pairs(g: &Graph, name: &str, vars: &[Value], grads: &[Value]) -> Result<()> {
    if vars.len() != grads.len() {
        return Err(GraphError::Invalid(format!(
            "optimizer '{name}': {} variables but {} gradients",
            vars.len(),
            grads.len()
        )));
    }
    for &x in vars {
        if !matches!(g.node(x.node).kind, NodeKind::Variable { .. }) {
            return Err(GraphError::Invalid(format!("optimizer '{name}': '{}' is not a variable", g.tensor_name(x))));
        }
    }
    Ok(())
}

/// Zeros shaped like variable `x`'s initial value.
fn zeros_like(g: &Graph, x: Value) -> Result<Array> {
    match &g.node(x.node).kind {
        NodeKind::Variable { initial } => Ok(Array::zeros(initial.dtype(), &initial.dims)),
        _ => Err(GraphError::Invalid(format!("'{}' is not a variable", g.tensor_name(x)))),
    }
}

/// Learning rate `lr0 * rate^(step / every)` for a step count variable, as a
/// graph value (exponential decay).
pub fn exponential_decay(g: &mut Graph, name: &str, step: Value, lr0: f32, rate: f32, every: f32) -> Result<Value> {
    let lr0 = g.scalar_f32(&format!("{name}/lr0"), lr0)?;
    let rate = g.scalar_f32(&format!("{name}/rate"), rate)?;
    let every = g.scalar_f32(&format!("{name}/every"), every)?;
    let e = g.op("Div", &format!("{name}/exponent"), &[step, every], vec![])?;
    let f = g.op("Pow", &format!("{name}/factor"), &[rate, e], vec![])?;
    g.op("Mul", name, &[lr0, f], vec![])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{Dim, Session, SessionOptions};
    use smelt_hlo::DType;

    fn options(backend: &str) -> SessionOptions {
        SessionOptions { backend: backend.into(), min_cluster_size: 1, ..Default::default() }
    }

    fn f32s(dims: &[i64], v: &[f32]) -> Array {
        Array::from_vec(dims, v.to_vec())
    }

    /// `mean((tanh(x @ w + b) - y)^2)` over variables `w: [3, 2]`, `b: [2]`.
    fn regression() -> (Graph, Value, Value, Value) {
        let mut g = Graph::new();
        let x = g.placeholder("x", DType::F32, vec![Dim::Symbolic("n".into()), Dim::Fixed(3)]).unwrap();
        let y = g.placeholder("y", DType::F32, vec![Dim::Symbolic("n".into()), Dim::Fixed(2)]).unwrap();
        let w = g.variable("w", f32s(&[3, 2], &[0.1, -0.2, 0.3, 0.05, -0.1, 0.2])).unwrap();
        let b = g.variable("b", f32s(&[2], &[0.0, 0.1])).unwrap();
        let xw = g.op("MatMul", "xw", &[x, w], vec![]).unwrap();
        let z = g.op("Add", "z", &[xw, b], vec![]).unwrap();
        let t = g.op("Tanh", "t", &[z], vec![]).unwrap();
        let d = g.op("Sub", "d", &[t, y], vec![]).unwrap();
        let sq = g.op("Mul", "sq", &[d, d], vec![]).unwrap();
        let loss = g.op("ReduceMean", "loss", &[sq], vec![("keepdims", Attr::Int(0))]).unwrap();
        (g, loss, w, b)
    }

    fn data() -> (Array, Array) {
        let x: Vec<f32> = (0..12).map(|i| ((i * 7 % 5) as f32 - 2.0) * 0.4).collect();
        let y: Vec<f32> = (0..8).map(|i| ((i * 3 % 4) as f32 - 1.5) * 0.3).collect();
        (f32s(&[4, 3], &x), f32s(&[4, 2], &y))
    }

    fn loss_of(g: &Graph, w: &Array, b: &Array) -> f64 {
        let mut g = g.clone();
        let (x, y) = data();
        // The loss at other weights: a session whose variables start there.
        for (name, v) in [("w", w), ("b", b)] {
            let id = g.find(name).unwrap();
            g.node_mut(id).kind = NodeKind::Variable { initial: v.clone() };
        }
        let s = Session::new(g, options("interp")).unwrap();
        s.run(&[("x", x), ("y", y)], &["loss"]).unwrap()[0].data.get_f64(0)
    }

    /// The gradients node agrees with finite differences of the loss, on the
    /// interpreter and compiled, with a symbolic batch dimension.
    #[test]
    fn gradients_match_finite_differences() {
        let (mut g, loss, w, b) = regression();
        g.gradients("grads", loss, &[w, b]).unwrap();
        let (x, y) = data();
        let (w0, b0) = (f32s(&[3, 2], &[0.1, -0.2, 0.3, 0.05, -0.1, 0.2]), f32s(&[2], &[0.0, 0.1]));
        for backend in ["interp", "cranelift", "cpu"] {
            let s = Session::new(g.clone(), options(backend)).unwrap();
            let out = s.run(&[("x", x.clone()), ("y", y.clone())], &["loss", "grads", "grads:1"]).unwrap();
            for (k, base) in [(1, &w0), (2, &b0)] {
                assert_eq!(out[k].dims, base.dims);
                for i in 0..base.len() {
                    let h = 1e-2f32;
                    let shifted = |d: f32| {
                        let mut v = base.clone();
                        if let smelt_hlo::ArrayData::F32(e) = &mut v.data {
                            e[i] += d;
                        }
                        if k == 1 { loss_of(&g, &v, &b0) } else { loss_of(&g, &w0, &v) }
                    };
                    let fd = (shifted(h) - shifted(-h)) / (2.0 * f64::from(h));
                    let got = out[k].data.get_f64(i);
                    assert!((got - fd).abs() < 2e-3, "{backend}: gradient {k}[{i}] = {got}, finite differences {fd}");
                }
            }
        }
    }

    /// A training step (forward, gradients and the optimizer's update)
    /// compiles into one cluster, and each optimizer lowers the loss.
    #[test]
    fn optimizers_train_in_one_cluster() {
        for which in ["sgd", "momentum", "adam"] {
            let (mut g, loss, w, b) = regression();
            let grads = g.gradients("grads", loss, &[w, b]).unwrap();
            let lr = g.constant("lr", Array::scalar(if which == "adam" { 0.05f32 } else { 0.2 })).unwrap();
            let steps = match which {
                "sgd" => sgd(&mut g, "opt", &[w, b], &grads, lr),
                "momentum" => momentum(&mut g, "opt", &[w, b], &grads, lr, 0.9),
                _ => adam(&mut g, "opt", &[w, b], &grads, lr, Adam::default()),
            }
            .unwrap();
            let names: Vec<String> = steps.iter().map(|&v| g.tensor_name(v).to_string()).collect();
            let mut fetches: Vec<&str> = vec!["loss"];
            fetches.extend(names.iter().map(String::as_str));
            let s = Session::new(g, options("cpu")).unwrap();
            let (x, y) = data();
            let feeds = [("x", x), ("y", y)];
            let first = s.run(&feeds, &fetches).unwrap()[0].data.get_f64(0);
            let mut last = first;
            for _ in 0..60 {
                last = s.run(&feeds, &fetches).unwrap()[0].data.get_f64(0);
            }
            assert!(last < 0.5 * first, "{which}: loss {first} -> {last}");
            let clusters = s.clusters(&fetches).unwrap();
            assert_eq!(clusters.len(), 1, "{which}: {clusters:?}");
        }
    }

    /// Variables round-trip through an .npz checkpoint; a wrong one is refused.
    #[test]
    fn checkpoints_round_trip() {
        let (mut g, loss, w, b) = regression();
        let grads = g.gradients("grads", loss, &[w, b]).unwrap();
        let lr = g.constant("lr", Array::scalar(0.05f32)).unwrap();
        let steps = adam(&mut g, "opt", &[w, b], &grads, lr, Adam::default()).unwrap();
        let names: Vec<String> = steps.iter().map(|&v| g.tensor_name(v).to_string()).collect();
        let fetches: Vec<&str> = names.iter().map(String::as_str).collect();
        let s = Session::new(g.clone(), options("interp")).unwrap();
        let (x, y) = data();
        for _ in 0..3 {
            s.run(&[("x", x.clone()), ("y", y.clone())], &fetches).unwrap();
        }
        let dir = std::env::temp_dir().join(format!("smelt-ckpt-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("vars.npz");
        s.save_variables(&path).unwrap();
        let fresh = Session::new(g.clone(), options("interp")).unwrap();
        assert_eq!(fresh.load_variables(&path).unwrap(), 7, "w, b, the step count and four moments");
        for name in ["w", "b", "opt/t", "opt/w/m", "opt/b/v"] {
            assert_eq!(fresh.variable(name), s.variable(name), "{name}");
        }
        let mut other = Graph::new();
        other.variable("w", Array::zeros(DType::F32, [2, 2])).unwrap();
        let o = Session::new(other, options("interp")).unwrap();
        let e = o.load_variables(&path).unwrap_err().to_string();
        assert!(e.contains("is not a variable of the graph") || e.contains("the variable is"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn bad_requests_are_errors() {
        let (mut g, loss, w, _) = regression();
        let t = g.tensor("t").unwrap();
        assert!(g.gradients("g1", loss, &[t]).unwrap_err().to_string().contains("is computed by an op"));
        assert!(g.gradients("g2", loss, &[]).is_err());
        let lr = g.constant("lr", Array::scalar(0.1f32)).unwrap();
        let x = g.tensor("x").unwrap();
        assert!(sgd(&mut g, "o", &[x], &[w], lr).unwrap_err().to_string().contains("is not a variable"));
        assert!(sgd(&mut g, "o2", &[w], &[], lr).is_err());
    }
}
