//! Softmax regression on scikit-learn's 8x8 digits, trained by gradient
//! descent in the graph API: the loss's gradients come from smelt's autodiff
//! (`Graph::gradients`) and a training step (forward, backward, update) is one
//! compiled cluster. Prints the loss curve, writes it as CSV, and reports test
//! accuracy on the held-out images and steps per second.
//!
//! `cargo run --release --example train_softmax_regression [-- STEPS [CSV [STEP.hlo]]]`
//! (default 300 steps, `target/train_softmax_regression.csv`). The data
//! (`examples/data/digits_*.npy`) was exported once by `scripts/export_digits.py`;
//! `scripts/train_jax.py softmax` trains the same model with JAX.

#[path = "models/mod.rs"]
mod models;

use std::path::Path;
use std::time::Instant;

use smelt_hlo::{Array, DType};
use smelt_jit::graph::train::{GRADIENTS, momentum};
use smelt_jit::graph::{Attr, Dim, Graph, Session, SessionOptions};

const CLASSES: usize = 10;
const PIXELS: usize = 64;
/// Images 0..TRAIN train; the rest (360 of 1,797) are the test set.
const TRAIN: usize = 1437;

/// What a training run reports.
pub struct Report {
    /// `(step, loss)` every `log_every` steps and at the last.
    pub curve: Vec<(usize, f64)>,
    pub test_accuracy: f64,
    pub steps_per_second: f64,
    /// The modules a training step compiled to (one: the whole step).
    pub step_modules: Vec<smelt_hlo::Module>,
}

/// The digits as `(pixels scaled to [0, 1], one-hot labels, labels)`, rows `range`.
fn digits(range: std::ops::Range<usize>) -> Result<(Array, Array, Vec<usize>), Box<dyn std::error::Error>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/data");
    let images = smelt_hlo::npy::read(&dir.join("digits_images.npy"), Some(DType::U8))?;
    let labels = smelt_hlo::npy::read(&dir.join("digits_labels.npy"), Some(DType::U8))?;
    let (px, lb) = (images.values::<u8>().ok_or("images")?, labels.values::<u8>().ok_or("labels")?);
    let n = range.len();
    let x: Vec<f32> = px[range.start * PIXELS..range.end * PIXELS].iter().map(|&p| f32::from(p) / 16.0).collect();
    let y: Vec<usize> = lb[range].iter().map(|&l| usize::from(l)).collect();
    let mut onehot = vec![0f32; n * CLASSES];
    for (i, &l) in y.iter().enumerate() {
        onehot[i * CLASSES + l] = 1.0;
    }
    Ok((Array::from_vec([n as i64, PIXELS as i64], x), Array::from_vec([n as i64, CLASSES as i64], onehot), y))
}

/// Trains for `steps` full-batch steps on `backend`, logging every `log_every`.
pub fn train(steps: usize, log_every: usize, backend: &str) -> Result<Report, Box<dyn std::error::Error>> {
    let mut g = Graph::new();
    let n = Dim::Symbolic("n".into());
    let x = g.placeholder("x", DType::F32, vec![n.clone(), Dim::Fixed(PIXELS as i64)])?;
    let y = g.placeholder("y", DType::F32, vec![n, Dim::Fixed(CLASSES as i64)])?;
    let w = g.variable("w", Array::zeros(DType::F32, [PIXELS as i64, CLASSES as i64]))?;
    let b = g.variable("b", Array::zeros(DType::F32, [CLASSES as i64]))?;
    let xw = g.op("MatMul", "xw", &[x, w], vec![])?;
    let logits = g.op("Add", "logits", &[xw, b], vec![])?;
    let logp = g.op("LogSoftmax", "logp", &[logits], vec![("axis", Attr::Int(-1))])?;
    let picked = g.op("Mul", "picked", &[y, logp], vec![])?;
    let per_image =
        g.op("ReduceSum", "per_image", &[picked], vec![("axes", Attr::Ints(vec![1])), ("keepdims", Attr::Int(0))])?;
    let mean = g.op("ReduceMean", "mean", &[per_image], vec![("keepdims", Attr::Int(0))])?;
    let loss = g.op("Neg", "loss", &[mean], vec![])?;
    let grads = g.gradients(GRADIENTS, loss, &[w, b])?;
    let lr = g.constant("lr", Array::scalar(0.5f32))?;
    let updates = momentum(&mut g, "momentum", &[w, b], &grads, lr, 0.9)?;
    let predicted = g.op("ArgMax", "predicted", &[logits], vec![("axis", Attr::Int(1)), ("keepdims", Attr::Int(0))])?;
    let names: Vec<String> = updates.iter().map(|&v| g.tensor_name(v).to_string()).collect();
    let mut step_fetches = vec!["loss"];
    step_fetches.extend(names.iter().map(String::as_str));
    let predicted = g.tensor_name(predicted).to_string();

    let session = Session::new(g, SessionOptions { backend: backend.into(), ..Default::default() })?;
    let (train_x, train_y, _) = digits(0..TRAIN)?;
    let (test_x, test_y, test_labels) = digits(TRAIN..1797)?;
    let feeds = [("x", train_x), ("y", train_y)];
    // The first step compiles; time the rest.
    let mut curve = vec![(0, session.run(&feeds, &step_fetches)?[0].data.get_f64(0))];
    let t = Instant::now();
    for step in 1..steps {
        let loss = session.run(&feeds, &step_fetches)?[0].data.get_f64(0);
        if step % log_every == 0 || step + 1 == steps {
            curve.push((step, loss));
        }
    }
    let steps_per_second = (steps.max(2) - 1) as f64 / t.elapsed().as_secs_f64();
    let out = session.run(&[("x", test_x), ("y", test_y)], &[predicted.as_str()])?;
    let got = out[0].values::<i64>().ok_or("ArgMax gives s64")?;
    let right = got.iter().zip(&test_labels).filter(|&(&p, &l)| p as usize == l).count();
    let step_modules = session.compiled_modules(&step_fetches)?.into_iter().map(|(_, m)| m).collect();
    Ok(Report { step_modules, curve, test_accuracy: right as f64 / test_labels.len() as f64, steps_per_second })
}

#[allow(dead_code)]
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = models::train_args(300, "train_softmax_regression")?;
    let r = train(args.steps, 25, "cpu")?;
    models::write_training(&args, &r.curve, &r.step_modules)?;
    println!("test accuracy {:.1}% on 360 held-out images", 100.0 * r.test_accuracy);
    println!(
        "{:.0} steps per second (full batch of {TRAIN}), loss curve in {}",
        r.steps_per_second,
        args.csv.display()
    );
    Ok(())
}
