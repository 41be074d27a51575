//! A BERT encoder layer built with smelt's Graph API, auto-clustered and run
//! by a Session: prints the clusters, the first run (which compiles), steady
//! state timing and the JIT's cache statistics.
//!
//! `cargo run --release --example bert_graph [cpu|cranelift|tiered]`

mod models;

use std::time::Instant;

use models::bert::{self, Bert};
use smelt_jit::graph::{Graph, Session, SessionOptions};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let backend = models::backend_arg();
    let sizes = Bert { batch: 4, seq: 64, hidden: 256, heads: 4, ffn: 1024 };
    let mut g = Graph::new();
    bert::build(&mut g, sizes)?;
    println!("BERT layer {sizes:?}: {} graph nodes, backend {backend}", g.len());
    let session = Session::new(g, SessionOptions { backend: backend.to_string(), ..Default::default() })?;
    let inputs = bert::inputs(sizes);
    let feeds: Vec<(&str, _)> = inputs.iter().map(|(n, a)| (*n, a.clone())).collect();
    let fetches = ["last_hidden_state"];
    let t = Instant::now();
    let out = session.run(&feeds, &fetches)?;
    println!("first run (clusters compiled): {:.1} ms", t.elapsed().as_secs_f64() * 1e3);
    let runs = 50;
    let t = Instant::now();
    for _ in 0..runs {
        session.run(&feeds, &fetches)?;
    }
    println!("steady state: {:.3} ms per run over {runs} runs", t.elapsed().as_secs_f64() * 1e3 / runs as f64);
    let v = out[0].values::<f32>().ok_or("output is not f32")?;
    println!("last_hidden_state {:?}: [{:.5}, {:.5}, {:.5}, ...]", out[0].dims, v[0], v[1], v[2]);
    for c in session.clusters(&fetches)? {
        println!(
            "cluster {}: {} nodes ({} ops), {} inputs, {} outputs, {} signature(s), {} runs",
            c.index,
            c.nodes.len(),
            c.ops.iter().filter(|o| *o != "Const").count(),
            c.inputs.len(),
            c.outputs,
            c.signatures,
            c.runs
        );
    }
    println!("{}", session.client().stats());
    Ok(())
}
