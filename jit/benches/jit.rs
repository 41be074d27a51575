//! Launch overhead and compile times of `smelt-jit`.
//!
//! `cargo bench -p smelt-jit`. Launch overhead on a tiny module (`f32[4]` add,
//! LLVM code): `run` alone, `Function::call` (the cheap hit path: a hash of
//! the argument types and a map lookup, then `run`), `Function::executable`
//! (the lookup alone), and `Client::compile` + `run` (canonical text and
//! fingerprint of the module on every launch). Compile time per tier over a
//! few corpus cases, each sample a cold client (no disk cache).

use std::sync::Arc;

use divan::Bencher;
use smelt_jit::{Buffer, Client, ClientOptions, CompileOptions, Executable, Function};

fn main() {
    divan::main();
}

const TINY: &str = "HloModule tiny

ENTRY main {
  a = f32[4]{0} parameter(0)
  b = f32[4]{0} parameter(1)
  ROOT s = f32[4]{0} add(a, b)
}
";

fn cold_client(backend: &str) -> Client {
    Client::with_options(backend, ClientOptions { no_disk_cache: true, ..Default::default() }).unwrap()
}

struct Tiny {
    client: Client,
    module: smelt_hlo::Module,
    exe: Arc<Executable>,
    function: Function,
    a: Buffer,
    b: Buffer,
}

fn tiny() -> Tiny {
    let client = cold_client("cpu");
    let module = smelt_hlo::parse_module(TINY).expect("tiny module");
    let exe = client.compile(&module, &CompileOptions::default()).expect("compile");
    let function = client.function(module.clone(), CompileOptions::default());
    let a = Buffer::from_slice(&[4], &[1.0f32, 2.0, 3.0, 4.0]).expect("buffer");
    let b = a.clone();
    function.call(&[&a, &b]).expect("first call");
    Tiny { client, module, exe, function, a, b }
}

#[divan::bench]
fn launch_run_only(bencher: Bencher<'_, '_>) {
    let t = tiny();
    bencher.bench_local(|| t.exe.run(&[&t.a, &t.b]).expect("run"));
}

#[divan::bench]
fn launch_function_call(bencher: Bencher<'_, '_>) {
    let t = tiny();
    bencher.bench_local(|| t.function.call(&[&t.a, &t.b]).expect("call"));
}

#[divan::bench]
fn lookup_function_executable(bencher: Bencher<'_, '_>) {
    let t = tiny();
    bencher.bench_local(|| t.function.executable(&[&t.a, &t.b]).expect("lookup"));
}

#[divan::bench]
fn launch_client_compile_then_run(bencher: Bencher<'_, '_>) {
    let t = tiny();
    let o = CompileOptions::default();
    bencher.bench_local(|| t.client.compile(&t.module, &o).expect("hit").run(&[&t.a, &t.b]).expect("run"));
}

const CASES: &[&str] = &["matmul_2d", "softmax", "layernorm", "mlp_train_step"];

fn corpus(case: &str) -> smelt_hlo::Module {
    let path = format!("{}/../tests/corpus/{case}/module.hlo", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    smelt_hlo::parse_module(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn bench_compile(bencher: Bencher<'_, '_>, case: &str, backend: &str) {
    let module = corpus(case);
    let o = CompileOptions { tiered: false, ..Default::default() };
    bencher.with_inputs(|| cold_client(backend)).bench_local_values(|c| c.compile(&module, &o).expect("compile"));
}

#[divan::bench(args = CASES, sample_count = 3, sample_size = 1)]
fn compile_interp(bencher: Bencher<'_, '_>, case: &str) {
    bench_compile(bencher, case, "interp");
}

#[divan::bench(args = CASES, sample_count = 3, sample_size = 1)]
fn compile_llvm(bencher: Bencher<'_, '_>, case: &str) {
    bench_compile(bencher, case, "cpu");
}

#[cfg(feature = "cranelift")]
#[divan::bench(args = CASES, sample_count = 3, sample_size = 1)]
fn compile_cranelift(bencher: Bencher<'_, '_>, case: &str) {
    bench_compile(bencher, case, "cranelift");
}
