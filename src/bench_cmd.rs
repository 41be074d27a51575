//! `smelt bench`: compile each case, time its runs, and report the figures
//! `compare.py` reads (the `--json` contract), a per-step profile or the
//! machine's streaming bandwidth.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Result, anyhow};

use smelt::engine::{self, Compiled};
use smelt::hlo::{Array, Literal};

use crate::{Backend, PipelineName, load_verified, pipeline_for};

/// What `bench` times: an engine, or a `smelt-jit` executable (`--cache-stats`).
enum Timed {
    Engine(Box<Compiled>),
    Jit(std::sync::Arc<smelt::jit::Executable>),
}

impl Timed {
    fn run(&self, args: &[Literal]) -> Result<Vec<Array>> {
        match self {
            Timed::Engine(c) => Ok(c.run(args)?),
            Timed::Jit(exe) => {
                let leaves: Vec<&smelt::jit::Buffer> =
                    args.iter().flat_map(Literal::leaves).map(smelt::jit::Buffer::from_array_ref).collect();
                Ok(exe.run(&leaves)?.into_iter().map(smelt::jit::Buffer::into_array).collect())
            }
        }
    }

    fn reset_profile(&self) {
        if let Timed::Engine(c) = self {
            c.reset_profile();
        }
    }

    fn profile(&self) -> Option<Vec<smelt_cpu::StepProfile>> {
        match self {
            Timed::Engine(c) => c.profile(),
            Timed::Jit(_) => None,
        }
    }
}

/// Timings of one case.
struct BenchResult {
    compile_ms: f64,
    /// The first run, straight after compiling (convolutions possibly on
    /// the generic routine, their specialized routines being built).
    first_run_ms: f64,
    /// Waiting after that first run for the specialized convolution
    /// routines to take over (zero when none were pending); the timed
    /// runs come after.
    specialize_ms: f64,
    /// The compile time's phases (not for JIT compiles).
    times: Option<engine::CompileTimes>,
    /// Bytes of the arguments plus bytes of the results: what one run must at
    /// least read and write.
    bytes: usize,
    run_ms: Vec<f64>,
    /// Per-step times over the timed runs (with `--profile`).
    profile: Option<Vec<smelt_cpu::StepProfile>>,
}

/// Whether `done` timed runs taking `elapsed_s` are enough: `runs` of them if
/// given, else at least 3 and `time_s` seconds (at most 100,000 runs).
fn enough_runs(runs: Option<usize>, time_s: f64, done: usize, elapsed_s: f64) -> bool {
    match runs {
        Some(n) => done >= n.max(1),
        None => done >= 3 && elapsed_s >= time_s || done >= 100_000,
    }
}

/// How `smelt bench` compiles and times each case.
#[derive(Clone, Copy)]
pub(crate) struct BenchSettings {
    pub backend: Backend,
    /// The middle end (default: the backend's).
    pub pipeline: Option<PipelineName>,
    /// Timed runs per case (default: as many as fit in `time_s`).
    pub runs: Option<usize>,
    pub time_s: f64,
    /// Time every step (`--profile`).
    pub profile: bool,
    /// Print where compile time went (`--compile-profile`).
    pub compile_profile: bool,
    /// Time the first result through the tiered JIT (`--first-result`).
    pub first_result: bool,
}

/// The tiered JIT's first launch: compile, first run, LLVM code ready.
#[derive(Clone, Copy, Debug)]
struct FirstResult {
    /// From compiling to the first run's results (Cranelift code).
    first_ms: f64,
    /// From compiling until the background LLVM code was ready.
    llvm_ready_ms: f64,
    /// The tier that ran the first launch.
    first_tier: smelt::jit::Tier,
}

/// Compiles `dir`'s module through a fresh `tiered` client without a disk
/// cache, runs it once, then waits for the LLVM tier.
fn first_result(dir: &Path) -> Result<FirstResult> {
    let case = crate::load_case(dir)?;
    let module = load_verified(&case.module_path)?;
    let params = module.entry().param_shapes();
    let args = if case.inputs.is_empty() { smelt::hlo::random::random_inputs(&params)? } else { case.load_inputs()? };
    let leaves: Vec<&smelt::jit::Buffer> =
        args.iter().flat_map(Literal::leaves).map(smelt::jit::Buffer::from_array_ref).collect();
    let options = smelt::jit::ClientOptions { no_disk_cache: true, ..Default::default() };
    let client = smelt::jit::Client::with_options(smelt::jit::TIERED, options)?;
    let t = Instant::now();
    let exe = client.compile(&module, &smelt::jit::CompileOptions::default())?;
    exe.run(&leaves)?;
    let first_ms = t.elapsed().as_secs_f64() * 1e3;
    let first_tier = exe.tier().unwrap_or(smelt::jit::Tier::Llvm);
    exe.wait_optimized(None)?;
    Ok(FirstResult { first_ms, llvm_ready_ms: t.elapsed().as_secs_f64() * 1e3, first_tier })
}

fn bench_case(dir: &Path, settings: &BenchSettings, jit: Option<&smelt::jit::Client>) -> Result<BenchResult> {
    let BenchSettings { backend, pipeline, runs, time_s, profile, .. } = *settings;
    let case = crate::load_case(dir)?;
    let t0 = Instant::now();
    let module = load_verified(&case.module_path)?;
    let params = module.entry().param_shapes();
    let mut times = None;
    let compiled = match jit {
        Some(client) => Timed::Jit(client.compile(&module, &smelt::jit::CompileOptions::default())?),
        None => {
            let (c, t) = Compiled::timed(module, backend.name(), pipeline_for(pipeline, backend), profile)?;
            times = Some(t);
            Timed::Engine(Box::new(c))
        }
    };
    let compile_ms = t0.elapsed().as_secs_f64() * 1e3;
    let args = if case.inputs.is_empty() { smelt::hlo::random::random_inputs(&params)? } else { case.load_inputs()? };
    let t = Instant::now();
    compiled.run(&args)?;
    let first_run_ms = t.elapsed().as_secs_f64() * 1e3;
    // The timed runs measure the steady state: after the specialized
    // convolution routines (built in the background) have taken over.
    let t = Instant::now();
    let pending = smelt_cpu::routines::wait_for_background();
    let specialize_ms = if pending > 0 { t.elapsed().as_secs_f64() * 1e3 } else { 0.0 };
    // Warm up: first-touch page faults, caches, thread pool start.
    for _ in 0..2 {
        compiled.run(&args)?;
    }
    let results: usize = compiled.run(&args)?.iter().map(|a| a.shape().byte_size()).sum();
    let bytes = results + args.iter().map(|a| a.shape().byte_size()).sum::<usize>();
    compiled.reset_profile();
    if let Timed::Engine(c) = &compiled
        && let Some(exe) = c.executable().and_then(|e| e.downcast_ref::<smelt::gpu::Executable>())
    {
        // Device-resident runs, arguments uploaded once (as XLA's harness does).
        let leaves: Vec<&Array> = args.iter().flat_map(Literal::leaves).collect();
        let run_ms = exe
            .time_device_until(&leaves, |t| enough_runs(runs, time_s, t.len(), t.iter().sum()))?
            .into_iter()
            .map(|s| s * 1e3)
            .collect();
        return Ok(BenchResult { compile_ms, first_run_ms, specialize_ms, times, bytes, run_ms, profile: None });
    }
    let mut run_ms = Vec::new();
    let start = Instant::now();
    loop {
        let t = Instant::now();
        compiled.run(&args)?;
        run_ms.push(t.elapsed().as_secs_f64() * 1e3);
        if enough_runs(runs, time_s, run_ms.len(), start.elapsed().as_secs_f64()) {
            break;
        }
    }
    let profile = compiled.profile();
    Ok(BenchResult { compile_ms, first_run_ms, specialize_ms, times, bytes, run_ms, profile })
}

pub(crate) fn cmd_bench(
    paths: &[PathBuf],
    settings: &BenchSettings,
    json: bool,
    jit: Option<&smelt::jit::Client>,
) -> Result<ExitCode> {
    let backend = settings.backend;
    let cases = crate::find_cases(paths)?;
    let mut failed = 0;
    if !json {
        println!(
            "{:<28} {:>12} {:>12} {:>12} {:>12} {:>7} {:>8}",
            "case", "compile ms", "median ms", "min ms", "max ms", "runs", "GB/s"
        );
    }
    for dir in &cases {
        let name = dir
            .canonicalize()
            .ok()
            .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_else(|| dir.display().to_string());
        let bench = || bench_case(dir, settings, jit);
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(bench))
            .unwrap_or_else(|_| Err(anyhow!("internal compiler error (panic); please report it")));
        match outcome {
            Ok(r) => {
                let mut sorted = r.run_ms.clone();
                sorted.sort_by(f64::total_cmp);
                let median = sorted[sorted.len() / 2];
                let (min, max) = (sorted[0], sorted[sorted.len() - 1]);
                let gb_per_s = r.bytes as f64 / (median * 1e-3) / 1e9;
                let first = match settings.first_result.then(|| first_result(dir)).transpose() {
                    Ok(f) => f,
                    Err(e) => {
                        eprintln!("error: {name}: first result through the tiered JIT: {e:#}");
                        failed += 1;
                        None
                    }
                };
                if json {
                    let line = serde_json::json!({
                        "case": name,
                        "backend": backend.name(),
                        "compile_ms": r.compile_ms,
                        "compile_phases_ms": r.times.as_ref().map(|t| serde_json::json!({
                            "middle_end": t.middle_end_ms,
                            "lower": t.lower_ms,
                            "codegen": t.codegen_ms,
                        })),
                        "first_run_ms": r.first_run_ms,
                        "specialize_ms": r.specialize_ms,
                        "run_ms": {"median": median, "min": min, "max": max},
                        "runs": sorted.len(),
                        "bytes": r.bytes,
                        "gb_per_s": gb_per_s,
                    });
                    let mut line = line;
                    if let Some(f) = first {
                        line["first_result_ms"] = serde_json::json!({"tiered": f.first_ms, "llvm_ready": f.llvm_ready_ms, "first_tier": format!("{:?}", f.first_tier)});
                    }
                    println!("{line}");
                } else {
                    println!(
                        "{name:<28} {:>12.3} {median:>12.4} {min:>12.4} {max:>12.4} {:>7} {gb_per_s:>8.2}",
                        r.compile_ms,
                        sorted.len()
                    );
                }
                if r.specialize_ms > 0.0 && !json {
                    println!(
                        "  first run {:.3} ms; convolutions specialized in the background {:.1} ms after it (runs timed after)",
                        r.first_run_ms, r.specialize_ms
                    );
                }
                if let (Some(f), false) = (first, json) {
                    println!(
                        "  first result: {:.1} ms through the tiered JIT ({:?} first), LLVM code ready at {:.1} ms; {} alone: {:.1} ms to compile",
                        f.first_ms,
                        f.first_tier,
                        f.llvm_ready_ms,
                        backend.name(),
                        r.compile_ms
                    );
                }
                if let (true, Some(t)) = (settings.compile_profile, &r.times) {
                    print_compile_profile(t, json);
                }
                if let Some(steps) = &r.profile {
                    print_profile(steps, sorted.len(), json);
                }
            }
            Err(e) => {
                failed += 1;
                let message = format!("{e:#}");
                if json {
                    println!("{}", serde_json::json!({"case": name, "backend": backend.name(), "error": message}));
                } else {
                    println!("{name:<28} error: {message}");
                }
                eprintln!("error: {name}: {message}");
            }
        }
    }
    Ok(if failed == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// Where compile time went (`--compile-profile`; to stderr with `--json`):
/// the three stages, the backend's phases, then the costliest ten of the
/// passes and phases together.
fn print_compile_profile(t: &engine::CompileTimes, json: bool) {
    let mut lines = vec![format!(
        "  compile: middle end {:.1} ms, lowering {:.1} ms, backend {:.1} ms",
        t.middle_end_ms, t.lower_ms, t.codegen_ms
    )];
    for (name, ms) in &t.backend {
        lines.push(format!("    backend {name}: {ms:.1} ms"));
    }
    let mut costliest: Vec<(String, f64)> = t.passes.iter().map(|(n, ms)| (format!("pass {n}"), *ms)).collect();
    costliest.extend(t.backend.iter().map(|(n, ms)| (format!("backend {n}"), *ms)));
    costliest.sort_by(|a, b| b.1.total_cmp(&a.1));
    lines.push("  costliest:".into());
    for (name, ms) in costliest.iter().take(10) {
        lines.push(format!("  {ms:>10.2} ms  {name}"));
    }
    for l in lines {
        if json { eprintln!("{l}") } else { println!("{l}") }
    }
}

/// Measures and prints the machine's streaming bandwidth (`--stream`).
pub(crate) fn print_stream(json: bool) {
    let bw = smelt::stream::triad(64 << 20, 10);
    let gb_per_s = bw.bytes_per_s / 1e9;
    if json {
        let line =
            serde_json::json!({"stream_triad_gb_per_s": gb_per_s, "threads": bw.threads, "elements": bw.elements});
        println!("{line}");
    } else {
        println!(
            "stream triad: {gb_per_s:.2} GB/s ({} threads, 3 x {} MiB of f32)",
            bw.threads,
            (bw.elements * 4) >> 20
        );
    }
}

/// Per-step times of `--profile`, busiest first (to stderr with `--json`, whose
/// stdout is a contract); `!` marks a step far slower than its work allows on
/// any machine (`smelt_kernel::work`), and a line after the table says why.
fn print_profile(steps: &[smelt_cpu::StepProfile], runs: usize, json: bool) {
    let runs = runs.max(1) as f64;
    let total: f64 = steps.iter().map(|s| s.total_ms).sum::<f64>().max(1e-12);
    let mut order: Vec<&smelt_cpu::StepProfile> = steps.iter().collect();
    order.sort_by(|a, b| b.total_ms.total_cmp(&a.total_ms));
    let mut lines = vec![format!("  {:>10} {:>6} {:>7}  step", "ms/run", "share", "calls")];
    let mut suspicious = Vec::new();
    for s in order {
        let why = s.suspicious();
        lines.push(format!(
            "{} {:>10.4} {:>5.1}% {:>7}  {}",
            if why.is_some() { "!" } else { " " },
            s.total_ms / runs,
            100.0 * s.total_ms / total,
            (s.calls as f64 / runs).round(),
            s.label
        ));
        if let Some(why) = why {
            suspicious.push(format!("  suspicious: {}: {why}", s.label));
        }
    }
    lines.extend(suspicious);
    for l in lines {
        if json {
            eprintln!("{l}");
        } else {
            println!("{l}");
        }
    }
}
