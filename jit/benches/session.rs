//! What a graph Session adds over the JIT: a BERT encoder layer built with the
//! Graph API (one cluster) run through `Session::run`, against the very module
//! that cluster lowers to, run through a JIT `Function` on the same client (so
//! both run the same executable). The two alternate run by run, so machine
//! noise falls on both alike; the medians and their ratio are printed.
//!
//! `cargo bench -p smelt-jit --bench session [-- RUNS]`

#[path = "../../examples/models/mod.rs"]
mod models;

use std::time::Instant;

use models::bert::{self, Bert};
use smelt_jit::graph::{Graph, Session, SessionOptions};
use smelt_jit::{Array, Buffer, Client, ClientOptions, CompileOptions};

const SIZES: Bert = Bert { batch: 4, seq: 64, hidden: 256, heads: 4, ffn: 1024 };
const FETCHES: [&str; 1] = ["last_hidden_state"];

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let runs: usize = std::env::args().skip(1).find_map(|a| a.parse().ok()).unwrap_or(300);
    let mut g = Graph::new();
    bert::build(&mut g, SIZES)?;
    let client = Client::with_options("cpu", ClientOptions { no_disk_cache: true, ..Default::default() })?;
    let session =
        Session::with_client(g, SessionOptions { backend: "cpu".into(), ..Default::default() }, client.clone());
    let inputs = bert::inputs(SIZES);
    session.run(&inputs, &FETCHES)?;
    let clusters = session.clusters(&FETCHES)?;
    if clusters.len() != 1 {
        return Err(format!("the layer should be one cluster: {clusters:?}").into());
    }
    let by_name = |n: &str| inputs.iter().find(|(k, _)| *k == n).map(|(_, a)| a.clone());
    let args: Vec<Array> =
        clusters[0].inputs.iter().map(|n| by_name(n).ok_or("unknown input")).collect::<Result<_, _>>()?;
    let types: Vec<_> = args.iter().map(|a| (a.dtype(), a.dims.to_vec())).collect();
    let function = client.function(session.lowered(&FETCHES, 0, &types)?, CompileOptions::default());
    let buffers: Vec<Buffer> = args.into_iter().map(Buffer::from).collect();
    let refs: Vec<&Buffer> = buffers.iter().collect();
    function.call(&refs)?;
    let (mut through_session, mut direct) = (Vec::with_capacity(runs), Vec::with_capacity(runs));
    for _ in 0..runs {
        let t = Instant::now();
        session.run(&inputs, &FETCHES)?;
        through_session.push(t.elapsed().as_secs_f64() * 1e3);
        let t = Instant::now();
        function.call(&refs)?;
        direct.push(t.elapsed().as_secs_f64() * 1e3);
    }
    let (s, d) = (median(through_session), median(direct));
    println!(
        "BERT layer {SIZES:?}, {runs} alternating runs, LLVM code ({} compile(s) in all)",
        client.stats().compiles
    );
    println!("Session::run      median {s:.3} ms");
    println!("Function::call    median {d:.3} ms");
    println!("session / direct  {:.3} ({:+.1}%)", s / d, (s / d - 1.0) * 100.0);
    Ok(())
}
