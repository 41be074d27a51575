//! A multi-step, multi-output LSTM forecaster (3 variables in, one head per
//! variable out) built with the Graph API and run on generated series:
//! prints forecasts, timing and cluster statistics.
//!
//! `cargo run --release --example lstm_forecaster [cpu|cranelift|tiered]`

mod models;

use std::time::Instant;

use models::lstm::{self, Forecaster, VARIABLES};
use smelt_jit::graph::{Graph, Session, SessionOptions};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let backend = models::backend_arg();
    let f = Forecaster { batch: 16, steps: 48, hidden: 64, horizon: 6 };
    let mut g = Graph::new();
    lstm::build(&mut g, f)?;
    println!("forecaster {f:?}: {} graph nodes, backend {backend}", g.len());
    let session = Session::new(g, SessionOptions { backend: backend.to_string(), ..Default::default() })?;
    let fetches = ["forecast"];
    let t = Instant::now();
    let out = session.run(&[("series", lstm::series(f, 0))], &fetches)?;
    println!("first run (clusters compiled): {:.1} ms", t.elapsed().as_secs_f64() * 1e3);
    let windows = 100;
    let t = Instant::now();
    for w in 1..=windows {
        session.run(&[("series", lstm::series(f, w))], &fetches)?;
    }
    println!("{windows} sliding windows: {:.3} ms per run", t.elapsed().as_secs_f64() * 1e3 / windows as f64);
    let v = out[0].values::<f32>().ok_or("forecast is not f32")?;
    for k in 0..VARIABLES as usize {
        let h = f.horizon as usize;
        let row: Vec<String> = v[k * h..(k + 1) * h].iter().map(|x| format!("{x:.3}")).collect();
        println!("variable {k}, next {h} steps (window 0, series 0): {}", row.join(" "));
    }
    for c in session.clusters(&fetches)? {
        println!(
            "cluster {}: ops {:?}, {} signature(s), {} runs",
            c.index,
            c.ops.iter().filter(|o| *o != "Const").collect::<Vec<_>>(),
            c.signatures,
            c.runs
        );
    }
    println!("{}", session.client().stats());
    Ok(())
}
