//! What a graph Session adds over the JIT: a BERT encoder layer built with the
//! Graph API (one cluster) run through `Session::run`, against the very module
//! that cluster lowers to run through a JIT `Function` on the same client.
//!
//! `cargo bench -p smelt-jit --bench session`

#[path = "../../examples/models/mod.rs"]
mod models;

use divan::Bencher;
use models::bert::{self, Bert};
use smelt_jit::graph::{Graph, Session, SessionOptions};
use smelt_jit::{Array, Backend, Buffer, ClientOptions, CompileOptions, Function};

fn main() {
    divan::main();
}

const SIZES: Bert = Bert { batch: 4, seq: 64, hidden: 256, heads: 4, ffn: 1024 };
const FETCHES: [&str; 1] = ["last_hidden_state"];

struct Setup {
    session: Session,
    inputs: Vec<(&'static str, Array)>,
    function: Function,
    buffers: Vec<Buffer>,
}

fn setup() -> Setup {
    let mut g = Graph::new();
    bert::build(&mut g, SIZES).expect("graph");
    let client =
        smelt_jit::Client::with_options(Backend::Cpu, ClientOptions { no_disk_cache: true, ..Default::default() });
    let options = SessionOptions { backend: Backend::Cpu, ..Default::default() };
    let session = Session::with_client(g, options, client.clone());
    let inputs = bert::inputs(SIZES);
    session.run(&inputs.iter().map(|(n, a)| (*n, a.clone())).collect::<Vec<_>>(), &FETCHES).expect("run");
    let clusters = session.clusters(&FETCHES).expect("clusters");
    assert_eq!(clusters.len(), 1, "the layer should be one cluster: {clusters:?}");
    let by_name = |n: &str| inputs.iter().find(|(k, _)| *k == n).map(|(_, a)| a.clone()).expect("input");
    let args: Vec<Array> = clusters[0].inputs.iter().map(|n| by_name(n)).collect();
    let types: Vec<_> = args.iter().map(|a| (a.dtype(), a.dims.to_vec())).collect();
    let module = session.lowered(&FETCHES, 0, &types).expect("lowered");
    let function = client.function(module, CompileOptions::default());
    let buffers: Vec<Buffer> = args.into_iter().map(Buffer::from).collect();
    function.call(&buffers.iter().collect::<Vec<_>>()).expect("direct run");
    Setup { session, inputs, function, buffers }
}

#[divan::bench(sample_count = 200)]
fn session_run(b: Bencher<'_, '_>) {
    let s = setup();
    let feeds: Vec<(&str, Array)> = s.inputs.iter().map(|(n, a)| (*n, a.clone())).collect();
    b.bench_local(|| s.session.run(&feeds, &FETCHES).expect("run"));
}

#[divan::bench(sample_count = 200)]
fn jit_function_call(b: Bencher<'_, '_>) {
    let s = setup();
    let args: Vec<&Buffer> = s.buffers.iter().collect();
    b.bench_local(|| s.function.call(&args).expect("run"));
}
