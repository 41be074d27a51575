//! Embedding smelt through `smelt-jit`: parse an HLO file, compile it, run it
//! twice on generated inputs, print the cache statistics.
//!
//! `cargo run --release --example jit [-- MODULE.hlo [interp|cpu|cranelift|tiered]]`
//! (default `tests/corpus/mlp_train_step/module.hlo`, tiered). The second
//! launch is a cache hit; with `SMELT_CACHE_DIR` set, a second invocation of
//! the example loads the LLVM code from disk.

use std::time::Instant;

use anyhow::Context;
use smelt::hlo::Literal;
use smelt::jit::{Buffer, Client, CompileOptions};

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let path = args.next().unwrap_or_else(|| "tests/corpus/mlp_train_step/module.hlo".into());
    let backend = args.next().unwrap_or_else(|| smelt::jit::TIERED.to_string());
    let text = std::fs::read_to_string(&path).with_context(|| format!("reading {path}"))?;
    let module = smelt::hlo::parse_module(&text).map_err(|e| anyhow::anyhow!("{path}: {e}"))?;
    let inputs: Vec<Buffer> = smelt::hlo::random::random_inputs(&module.entry().param_shapes())?
        .into_iter()
        .flat_map(Literal::into_leaves)
        .map(Buffer::from)
        .collect();
    let args: Vec<&Buffer> = inputs.iter().collect();

    let client = Client::new(&backend)?;
    println!("{path}: {} arguments, backend {backend}", args.len());
    for launch in 1..=2 {
        let t = Instant::now();
        let exe = client.compile(&module, &CompileOptions::default())?;
        let compiled = t.elapsed();
        let t = Instant::now();
        let outputs = exe.run(&args)?;
        let ran = t.elapsed();
        let tier = exe.tier().map_or("-", |t| t.name());
        println!(
            "launch {launch}: compile {:.3} ms, run {:.3} ms on {tier}",
            compiled.as_secs_f64() * 1e3,
            ran.as_secs_f64() * 1e3
        );
        if launch == 2 {
            for (i, o) in outputs.iter().enumerate().take(4) {
                let head: Vec<String> = (0..o.len().min(4)).map(|k| format!("{:.6}", o.data().get_f64(k))).collect();
                println!(
                    "  output {i}: {} [{}{}]",
                    o.type_text(),
                    head.join(", "),
                    if o.len() > 4 { ", ..." } else { "" }
                );
            }
        }
    }
    println!("{}", client.stats());
    Ok(())
}
