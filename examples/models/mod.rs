//! Models built with the Graph API, shared by the examples and the session
//! benchmark. Weights are deterministic pseudo-random constants.

// Each example and bench includes this tree and uses only its own model.
#![allow(dead_code)]

pub mod bert;
pub mod lstm;

use std::path::{Path, PathBuf};

use smelt_jit::Array;

/// Deterministic values in [-scale, scale).
pub fn weights(dims: &[i64], seed: u64, scale: f32) -> Array {
    let n: i64 = dims.iter().product();
    let mut s = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let v: Vec<f32> = (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            ((s >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * scale
        })
        .collect();
    Array::from_vec(dims, v)
}

/// The backend named by the first command-line argument (default: cpu); the
/// session says which names exist.
pub fn backend_arg() -> String {
    std::env::args().nth(1).unwrap_or_else(|| "cpu".to_string())
}

/// A training example's command line, `[STEPS [CSV [STEP.hlo]]]`: steps to
/// train (default `default_steps`), where the loss curve goes (default
/// `target/<name>.csv`), and where to write the step's module, if anywhere.
pub struct TrainArgs {
    pub steps: usize,
    pub csv: PathBuf,
    pub step_module: Option<PathBuf>,
}

pub fn train_args(default_steps: usize, name: &str) -> Result<TrainArgs, Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let steps = args.next().map(|s| s.parse()).transpose()?.unwrap_or(default_steps);
    let csv = args
        .next()
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("target/{name}.csv")));
    Ok(TrainArgs { steps, csv, step_module: args.next().map(PathBuf::from) })
}

/// Prints the loss curve and writes it as CSV; writes the training step's
/// module when asked (a step is one cluster, so one module).
pub fn write_training(
    args: &TrainArgs,
    curve: &[(usize, f64)],
    step_modules: &[smelt_hlo::Module],
) -> Result<(), Box<dyn std::error::Error>> {
    let mut text = String::from("step,loss\n");
    for (step, loss) in curve {
        println!("step {step:4}  loss {loss:.5}");
        text.push_str(&format!("{step},{loss}\n"));
    }
    std::fs::write(&args.csv, text)?;
    if let (Some(path), [step]) = (&args.step_module, step_modules) {
        std::fs::write(path, smelt_hlo::print_module(step))?;
        println!("the training step's module (one cluster) written to {}", path.display());
    }
    Ok(())
}
