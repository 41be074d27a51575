//! A multivariate LSTM forecaster trained end to end in the graph API:
//! hourly load, temperature and humidity (synthetic: daily and weekly seasons,
//! a slow trend, correlated noise), a window of the last 24 hours in, one LSTM,
//! three dense heads each predicting its variable's next hour; the loss is the
//! mean of the three heads' squared errors. Gradients come from smelt's
//! autodiff (`Graph::gradients`), Adam updates the weights, and each step is
//! one compiled cluster. Prints the loss curve (and writes it as CSV), then
//! each head's validation RMSE beside the persistence baseline (next hour =
//! this hour).
//!
//! `cargo run --release --example train_lstm_forecaster [-- STEPS [CSV [STEP.hlo]]]`
//! (default 400 steps, `target/train_lstm_forecaster.csv`).

#[path = "models/mod.rs"]
mod models;

use std::time::Instant;

use smelt_hlo::{Array, DType};
use smelt_jit::graph::train::{Adam, adam};
use smelt_jit::graph::{Attr, Dim, Graph, Session, SessionOptions};

/// Load, temperature, humidity.
const VARIABLES: usize = 3;
const WINDOW: usize = 24;
const HIDDEN: i64 = 16;
const BATCH: usize = 32;
/// Hours of series; the last fifth validates.
const HOURS: usize = 3000;

/// What a training run reports.
pub struct Report {
    pub curve: Vec<(usize, f64)>,
    /// Per head: (model RMSE, persistence RMSE) on the validation hours.
    pub validation: Vec<(f64, f64)>,
    pub steps_per_second: f64,
    /// The modules a training step compiled to (one: the whole step).
    pub step_modules: Vec<smelt_hlo::Module>,
}

/// The series, normalized per variable: `[HOURS][VARIABLES]`.
fn series() -> Vec<[f32; VARIABLES]> {
    let mut noise = 0x2545_f491_4f6c_dd1du64;
    let mut rand = move || {
        noise ^= noise << 13;
        noise ^= noise >> 7;
        noise ^= noise << 17;
        (noise >> 40) as f32 / (1u64 << 24) as f32 - 0.5
    };
    let tau = std::f32::consts::TAU;
    let mut out = Vec::with_capacity(HOURS);
    let mut shared = 0.0f32;
    for h in 0..HOURS {
        let t = h as f32;
        let day = (t * tau / 24.0).sin();
        let week = (t * tau / 168.0).sin();
        // Weather noise that persists for hours, shared by all three.
        shared = 0.9 * shared + 0.3 * rand();
        let temperature = 0.8 * (t * tau / 24.0 - 1.0).sin() + 0.3 * week + shared + 0.05 * rand();
        let humidity = -0.6 * temperature + 0.2 * day + 0.1 * rand();
        let load = 0.7 * day + 0.4 * week + 0.3 * temperature.abs() + 0.0002 * t + 0.05 * rand();
        out.push([load, temperature, humidity]);
    }
    out
}

/// Windows starting at `starts`: inputs `[batch, WINDOW, VARIABLES]` and the
/// next hour of each variable, `[batch, 1]` per variable.
fn batch(s: &[[f32; VARIABLES]], starts: &[usize]) -> (Array, Vec<Array>) {
    let mut x = Vec::with_capacity(starts.len() * WINDOW * VARIABLES);
    let mut y = vec![Vec::with_capacity(starts.len()); VARIABLES];
    for &i in starts {
        for row in &s[i..i + WINDOW] {
            x.extend_from_slice(row);
        }
        for (k, yk) in y.iter_mut().enumerate() {
            yk.push(s[i + WINDOW][k]);
        }
    }
    let n = starts.len() as i64;
    let targets = y.into_iter().map(|v| Array::from_vec([n, 1], v)).collect();
    (Array::from_vec([n, WINDOW as i64, VARIABLES as i64], x), targets)
}

/// Trains for `steps` minibatch steps on `backend`, logging every `log_every`.
pub fn train(steps: usize, log_every: usize, backend: &str) -> Result<Report, Box<dyn std::error::Error>> {
    let mut g = Graph::new();
    let n = Dim::Symbolic("n".into());
    let v = VARIABLES as i64;
    let x = g.placeholder("x", DType::F32, vec![n.clone(), Dim::Fixed(WINDOW as i64), Dim::Fixed(v)])?;
    let xt = g.op("Transpose", "time_major", &[x], vec![("perm", Attr::Ints(vec![1, 0, 2]))])?;
    let w = g.variable("lstm.W", models::weights(&[1, 4 * HIDDEN, v], 1, 0.4))?;
    let r = g.variable("lstm.R", models::weights(&[1, 4 * HIDDEN, HIDDEN], 2, 0.2))?;
    let b = g.variable("lstm.B", Array::zeros(DType::F32, [1, 8 * HIDDEN]))?;
    let outs = g.op_n("LSTM", "lstm", &[xt, w, r, b], 3, vec![("hidden_size", Attr::Int(HIDDEN))])?;
    let axes = g.constant("axes0", Array::from_vec([1], vec![0i64]))?;
    let last = g.op("Squeeze", "last_hidden", &[outs[1], axes], vec![])?;
    let mut params = vec![w, r, b];
    let mut losses = Vec::new();
    let mut predictions = Vec::new();
    for k in 0..VARIABLES {
        let y = g.placeholder(&format!("y{k}"), DType::F32, vec![n.clone(), Dim::Fixed(1)])?;
        let wk = g.variable(&format!("head{k}.W"), models::weights(&[HIDDEN, 1], 10 + k as u64, 0.3))?;
        let bk = g.variable(&format!("head{k}.B"), Array::zeros(DType::F32, [1]))?;
        let p = g.op("Gemm", &format!("predict{k}"), &[last, wk, bk], vec![])?;
        let d = g.op("Sub", &format!("error{k}"), &[p, y], vec![])?;
        let sq = g.op("Mul", &format!("squared{k}"), &[d, d], vec![])?;
        losses.push(g.op("ReduceMean", &format!("mse{k}"), &[sq], vec![("keepdims", Attr::Int(0))])?);
        predictions.push(g.tensor_name(p).to_string());
        params.extend([wk, bk]);
    }
    let sum = g.op("Sum", "mse_sum", &losses, vec![])?;
    let three = g.constant("three", Array::scalar(VARIABLES as f32))?;
    let loss = g.op("Div", "loss", &[sum, three], vec![])?;
    let grads = g.gradients("grads", loss, &params)?;
    let lr = g.constant("lr", Array::scalar(0.01f32))?;
    let updates = adam(&mut g, "adam", &params, &grads, lr, Adam::default())?;
    let names: Vec<String> = updates.iter().map(|&u| g.tensor_name(u).to_string()).collect();
    let mut fetches = vec!["loss"];
    fetches.extend(names.iter().map(String::as_str));

    let session = Session::new(g, SessionOptions { backend: backend.into(), ..Default::default() })?;
    let s = series();
    let split = HOURS * 4 / 5;
    let train_starts: Vec<usize> = (0..split - WINDOW).collect();
    let run_step = |step: usize| -> Result<f64, Box<dyn std::error::Error>> {
        // Minibatches walk the training hours with a stride that visits all.
        let starts: Vec<usize> = (0..BATCH).map(|i| train_starts[(step * 97 + i * 71) % train_starts.len()]).collect();
        let (xb, yb) = batch(&s, &starts);
        let mut feeds = vec![("x", xb)];
        let ys = ["y0", "y1", "y2"];
        feeds.extend(ys.iter().copied().zip(yb));
        Ok(session.run(&feeds, &fetches)?[0].data.get_f64(0))
    };
    let mut curve = vec![(0, run_step(0)?)];
    let t = Instant::now();
    for step in 1..steps {
        let l = run_step(step)?;
        if step % log_every == 0 || step + 1 == steps {
            curve.push((step, l));
        }
    }
    let steps_per_second = (steps.max(2) - 1) as f64 / t.elapsed().as_secs_f64();
    // Validation: every window ending in the last fifth.
    let starts: Vec<usize> = (split..HOURS - WINDOW).collect();
    let (xv, yv) = batch(&s, &starts);
    let pred_fetches: Vec<&str> = predictions.iter().map(String::as_str).collect();
    let out = session.run(&[("x", xv)], &pred_fetches)?;
    let mut validation = Vec::with_capacity(VARIABLES);
    for k in 0..VARIABLES {
        let (p, y) = (out[k].values::<f32>().ok_or("f32")?, yv[k].values::<f32>().ok_or("f32")?);
        let rmse = |f: &dyn Fn(usize) -> f32| {
            (y.iter().enumerate().map(|(i, &t)| f64::from(f(i) - t).powi(2)).sum::<f64>() / y.len() as f64).sqrt()
        };
        let persistence = rmse(&|i| s[starts[i] + WINDOW - 1][k]);
        validation.push((rmse(&|i| p[i]), persistence));
    }
    let step_modules = session.compiled_modules(&fetches)?.into_iter().map(|(_, m)| m).collect();
    Ok(Report { step_modules, curve, validation, steps_per_second })
}

#[allow(dead_code)]
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = models::train_args(400, "train_lstm_forecaster")?;
    let r = train(args.steps, 25, "cpu")?;
    models::write_training(&args, &r.curve, &r.step_modules)?;
    for (k, (model, persistence)) in r.validation.iter().enumerate() {
        let name = ["load", "temperature", "humidity"][k];
        println!("{name:12} validation RMSE {model:.4}  (persistence {persistence:.4})");
    }
    println!("{:.0} steps per second (batches of {BATCH}), loss curve in {}", r.steps_per_second, args.csv.display());
    Ok(())
}
