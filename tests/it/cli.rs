//! The `smelt` binary's contracts: output formats, files written and exit codes.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common::corpus_dir;

fn smelt(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_smelt")).args(args).output().expect("run smelt")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn case(name: &str) -> PathBuf {
    corpus_dir().join(name)
}

fn copy_case(name: &str, to: &Path) -> PathBuf {
    let dst = to.join(name);
    std::fs::create_dir_all(&dst).unwrap();
    for entry in std::fs::read_dir(case(name)).unwrap() {
        let p = entry.unwrap().path();
        std::fs::copy(&p, dst.join(p.file_name().unwrap())).unwrap();
    }
    dst
}

#[test]
fn parse_prints_canonical_text() {
    let path = case("softmax").join("module.hlo");
    let o = smelt(&["parse", path.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), std::fs::read_to_string(&path).unwrap());
}

#[test]
fn parse_of_truncated_file_names_file_line_col() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(case("softmax").join("module.hlo")).unwrap();
    let path = dir.path().join("cut.hlo");
    std::fs::write(&path, &text[..text.len() / 2]).unwrap();
    let o = smelt(&["parse", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    let prefix = format!("error: {}:", path.display());
    assert!(err.starts_with(&prefix), "{err}");
    let loc: Vec<&str> = err[prefix.len()..].splitn(3, ':').collect();
    assert!(loc[0].parse::<usize>().is_ok() && loc[1].parse::<usize>().is_ok(), "no line:col in {err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn verify_names_the_instruction() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.hlo");
    std::fs::write(
        &path,
        "HloModule m\n\nENTRY e {\n  a = f32[4]{0} parameter(0)\n  b = f32[3]{0} parameter(1)\n  ROOT s = f32[4]{0} add(a, b)\n}\n",
    )
    .unwrap();
    let o = smelt(&["verify", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("'s'"), "{}", stderr(&o));
    let good = case("softmax").join("module.hlo");
    let o = smelt(&["verify", good.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(smelt(&["frobnicate"]).status.code(), Some(2));
    assert_eq!(smelt(&["check"]).status.code(), Some(2));
    assert_eq!(smelt(&["run", "x.hlo", "--backend", "nope"]).status.code(), Some(2));
}

#[test]
fn missing_file_exits_1() {
    let o = smelt(&["run", "/nonexistent/m.hlo"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("/nonexistent/m.hlo"), "{}", stderr(&o));
}

#[test]
fn check_prints_one_line_per_case_and_a_summary() {
    let dir = tempfile::tempdir().unwrap();
    copy_case("softmax", dir.path());
    let broken = copy_case("layernorm", dir.path());
    // Corrupt a reference output: the case must fail and name the output and index.
    let mut want = smelt_hlo::npy::read(&broken.join("out0.npy"), None).unwrap();
    if let smelt_hlo::ArrayData::F32(v) = &mut want.data {
        v[3] += 1.0;
    }
    smelt_hlo::npy::write(&broken.join("out0.npy"), &want).unwrap();
    let o = smelt(&["check", dir.path().to_str().unwrap(), "--backend", "interp"]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(lines[0].starts_with("FAIL layernorm: output 0: index [0, 0, 3]: got "), "{out}");
    assert_eq!(lines[1], "PASS softmax");
    assert_eq!(lines[2], "1 passed, 1 failed");
}

#[test]
fn run_writes_outputs_that_match_the_reference() {
    let dir = tempfile::tempdir().unwrap();
    let c = case("multi_output_pytree");
    let mut args = vec!["run".to_string(), c.join("module.hlo").display().to_string()];
    for i in 0..2 {
        args.push("--input".into());
        args.push(c.join(format!("in{i}.npy")).display().to_string());
    }
    args.extend(["--out-dir".into(), dir.path().display().to_string()]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = smelt(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let reference = smelt::case::Case::load(&c).unwrap();
    let want = reference.load_expected().unwrap();
    let got: Vec<_> =
        (0..want.len()).map(|k| smelt_hlo::npy::read(&dir.path().join(format!("out{k}.npy")), None).unwrap()).collect();
    smelt::case::compare_outputs(&reference, &got, &want).unwrap();
}

#[test]
fn run_without_inputs_uses_random_ones_and_prints_a_summary() {
    let o = smelt(&["run", case("softmax").join("module.hlo").to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("out0: f32[4,8,32]{2,1,0} min "), "{out}");
    assert!(out.lines().any(|l| l.starts_with("out1: ")), "{out}");
}

#[test]
fn run_of_a_case_folder_says_whether_it_matches_the_reference() {
    let o = smelt(&["run", case("softmax").to_str().unwrap(), "--backend", "interp"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let line = out.lines().last().unwrap();
    assert!(line.starts_with("matches the reference outputs (out0.npy, out1.npy; max abs error "), "{out}");
    // A wrong reference: the run says so and exits 1.
    let dir = tempfile::tempdir().unwrap();
    let c = copy_case("softmax", dir.path());
    std::fs::copy(c.join("out1.npy"), c.join("out0.npy")).unwrap();
    let o = smelt(&["run", c.to_str().unwrap(), "--backend", "interp"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains("DOES NOT match the reference outputs (out0.npy, out1.npy): output 0: index"),
        "{}",
        stdout(&o)
    );
    // Inputs given by hand: nothing to compare with.
    let o = smelt(&["run", c.to_str().unwrap(), "--input", c.join("in0.npy").to_str().unwrap()]);
    assert!(o.status.success() && !stdout(&o).contains("reference"), "{}", stdout(&o));
}

#[test]
fn run_rejects_inputs_of_the_wrong_shape() {
    let c = case("softmax");
    let wrong = case("layernorm").join("in0.npy");
    let o = smelt(&["run", c.join("module.hlo").to_str().unwrap(), "--input", wrong.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("parameter 0"), "{}", stderr(&o));
}

#[test]
fn opt_prints_stats_explanations_and_dumps() {
    let bert = case("bert_encoder").join("module.hlo");
    let bert = bert.to_str().unwrap();
    let o = smelt(&["opt", bert, "--stats"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for key in ["instructions_before", "instructions_after", "fusions", "kernels", "peak_temp_bytes", "pass_ms.fusion"]
    {
        let line =
            out.lines().find(|l| l.starts_with(&format!("{key}: "))).unwrap_or_else(|| panic!("no {key} in {out}"));
        assert!(line.split(": ").nth(1).unwrap().parse::<f64>().is_ok(), "{line}");
    }
    let o = smelt(&["opt", bert, "--explain-fusion"]);
    assert!(o.status.success());
    // Declined fusions as `producer -> consumer: reason`, then each fusion's
    // modelled work, `name: work F fused, U unfused (Rx)`.
    let explained = stdout(&o);
    let (notes, work): (Vec<&str>, Vec<&str>) = explained.lines().partition(|l| l.contains(" -> "));
    assert!(!notes.is_empty() && notes.iter().all(|l| l.contains(": ")), "{explained}");
    assert!(!work.is_empty(), "{explained}");
    for l in work {
        assert!(l.contains(": work ") && l.contains(" fused, ") && l.ends_with("x)"), "{l}");
    }
    let dir = tempfile::tempdir().unwrap();
    let o = smelt(&[
        "opt",
        bert,
        "--dump-to",
        dir.path().to_str().unwrap(),
        "-o",
        dir.path().join("out.hlo").to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let mut dumps: Vec<String> =
        std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    dumps.sort();
    assert_eq!(dumps[0], "0000.input.hlo");
    assert!(dumps.iter().any(|d| d.ends_with(".after.fusion.hlo")), "{dumps:?}");
    // Every dump parses and verifies.
    for d in &dumps {
        let m = smelt_hlo::parse_module(&std::fs::read_to_string(dir.path().join(d)).unwrap()).unwrap();
        smelt_hlo::verify(&m).unwrap();
    }
}

#[test]
fn opt_disable_pass() {
    let softmax = case("softmax").join("module.hlo");
    let o = smelt(&["opt", softmax.to_str().unwrap(), "--disable-pass", "fusion"]);
    assert!(o.status.success());
    assert!(!stdout(&o).contains(" fusion("), "{}", stdout(&o));
    let o = smelt(&["opt", softmax.to_str().unwrap(), "--disable-pass", "no-such-pass"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("unknown pass 'no-such-pass'"), "{}", stderr(&o));
}

#[test]
fn viz_writes_dot_and_html() {
    let dir = tempfile::tempdir().unwrap();
    let softmax = case("softmax").join("module.hlo");
    let dot = dir.path().join("m.dot");
    let html = dir.path().join("m.html");
    let o = smelt(&["viz", softmax.to_str().unwrap(), "--to", "dot", "-o", dot.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&dot).unwrap();
    assert!(text.starts_with("digraph") && text.contains("subgraph cluster_"), "{text}");
    let o = smelt(&["viz", softmax.to_str().unwrap(), "--to", "html", "-o", html.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("<svg") && page.contains("class=\"fusion\""), "{page}");
    // Self-contained: nothing is fetched from elsewhere.
    assert!(!page.contains("<script") && !page.contains("<link") && !page.contains("src="), "{page}");
}

#[test]
fn check_with_the_default_pipeline() {
    let o = smelt(&[
        "check",
        case("softmax").to_str().unwrap(),
        case("while_loop_collatz").to_str().unwrap(),
        "--pipeline",
        "default",
    ]);
    assert!(o.status.success(), "{}", stdout(&o));
    assert!(stdout(&o).ends_with("2 passed, 0 failed\n"));
}

#[test]
fn bench_json_contract() {
    let dir = tempfile::tempdir().unwrap();
    // A compare.py-style folder: module.hlo and case.json, no inputs (random ones).
    let c = dir.path().join("softmax");
    std::fs::create_dir(&c).unwrap();
    std::fs::copy(case("softmax").join("module.hlo"), c.join("module.hlo")).unwrap();
    let o = smelt(&["bench", c.to_str().unwrap(), case("layernorm").to_str().unwrap(), "--json", "--runs", "3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let lines: Vec<serde_json::Value> = stdout(&o).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["case"], "softmax");
    assert_eq!(lines[1]["case"], "layernorm");
    for l in &lines {
        assert_eq!(l["backend"], "interp");
        assert!(l["compile_ms"].as_f64().unwrap() > 0.0);
        assert!(l["run_ms"]["median"].as_f64().unwrap() > 0.0);
        assert!(l["run_ms"]["min"].as_f64().unwrap() <= l["run_ms"]["max"].as_f64().unwrap());
        assert_eq!(l["runs"], 3);
    }
    // A broken case prints an error object and the exit status is 1.
    let bad = dir.path().join("bad");
    std::fs::create_dir(&bad).unwrap();
    std::fs::write(bad.join("module.hlo"), "HloModule m\nENTRY e {\n  ROOT x = f32[] bogus()\n}\n").unwrap();
    let o = smelt(&["bench", bad.to_str().unwrap(), "--json", "--runs", "1"]);
    assert_eq!(o.status.code(), Some(1));
    let l: serde_json::Value = serde_json::from_str(stdout(&o).lines().next().unwrap()).unwrap();
    assert_eq!(l["case"], "bad");
    assert!(l["error"].as_str().unwrap().contains("bogus"), "{l}");
}

#[test]
fn bench_profile_and_compile_emit_kernel() {
    // --profile: one line per step, the stdout contract of --json untouched.
    let o = smelt(&["bench", case("cumulative").to_str().unwrap(), "--backend", "cpu", "--runs", "2", "--profile"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("ms/run"), "{out}");
    // One table row per step (a `suspicious:` line after the table may name
    // one again: with two runs a step's first touch can be slow).
    let rows = out.lines().filter(|l| l.contains("(scan 16x32 along") && !l.contains("suspicious:"));
    assert_eq!(rows.count(), 7, "{out}");
    let o = smelt(&[
        "bench",
        case("layernorm").to_str().unwrap(),
        "--backend",
        "cpu",
        "--runs",
        "2",
        "--json",
        "--profile",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 1);
    assert!(stderr(&o).contains("ms/run"));
    // The kernel form as text.
    let file = case("cumulative").join("module.hlo");
    let o = smelt(&["compile", file.to_str().unwrap(), "--emit", "kernel"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("program "), "{out}");
    assert!(out.contains(": scan [16, 32] along 1 reverse"), "{out}");
}

#[test]
fn bench_compile_profile_names_the_phases() {
    let o =
        smelt(&["bench", case("layernorm").to_str().unwrap(), "--backend", "cpu", "--runs", "1", "--compile-profile"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for phase in
        ["compile: middle end", "backend LLVM optimization", "backend machine code", "costliest:", "pass fusion"]
    {
        assert!(out.contains(phase), "no {phase:?} in\n{out}");
    }
    // The ten costliest, each with its milliseconds.
    let costliest =
        out.lines().skip_while(|l| !l.contains("costliest:")).skip(1).filter(|l| l.contains(" ms  ")).count();
    assert_eq!(costliest, 10, "{out}");
    // With --json, stdout stays one object per case.
    let o = smelt(&[
        "bench",
        case("layernorm").to_str().unwrap(),
        "--backend",
        "cpu",
        "--runs",
        "1",
        "--json",
        "--compile-profile",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 1);
    assert!(stderr(&o).contains("costliest:"));
}

#[test]
fn bench_first_result_times_the_tiered_jit() {
    let o = smelt(&[
        "bench",
        case("layernorm").to_str().unwrap(),
        "--backend",
        "cpu",
        "--runs",
        "1",
        "--json",
        "--first-result",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let l: serde_json::Value = serde_json::from_str(stdout(&o).lines().next().unwrap_or("")).unwrap();
    let (first, ready) = (&l["first_result_ms"]["tiered"], &l["first_result_ms"]["llvm_ready"]);
    assert!(first.as_f64().is_some_and(|f| f > 0.0), "{l}");
    assert!(
        ready.as_f64().unwrap_or(0.0) >= first.as_f64().unwrap_or(f64::MAX),
        "LLVM is ready after the first result: {l}"
    );
}

#[test]
fn compile_emits_ptx_for_the_gpu_without_one() {
    let path = case("layernorm").join("module.hlo");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("layernorm.ptx");
    let o = smelt(&[
        "compile",
        path.to_str().unwrap(),
        "--backend",
        "gpu",
        "--emit",
        "ptx",
        "--sm",
        "90",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let ptx = std::fs::read_to_string(&out).unwrap();
    assert!(ptx.contains(".target sm_90") && ptx.contains(".entry smelt_k"), "{ptx}");
    assert!(ptx.contains("shfl.sync.down"), "layer norm's row statistics combine with warp shuffles");
    let o = smelt(&["compile", path.to_str().unwrap(), "--backend", "gpu", "--emit", "kernel"]);
    assert!(o.status.success() && stdout(&o).contains("row-loop"), "{}", stdout(&o));
    let o = smelt(&["compile", path.to_str().unwrap(), "--backend", "gpu", "--emit", "obj"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("the GPU backend emits kernel, llvm, llvm-opt or ptx"), "{}", stderr(&o));
}

#[test]
fn gpu_sim_backend_checks_cases_without_a_gpu() {
    let o = smelt(&["check", case("layernorm").to_str().unwrap(), "--backend", "gpu-sim"]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("1 passed, 0 failed"), "{}", stdout(&o));
}

#[test]
fn gpu_commands_without_a_driver_say_so() {
    if smelt::gpu::driver_available() {
        return; // a machine with a CUDA driver runs these for real
    }
    let softmax = case("softmax");
    for args in [
        vec!["run", softmax.to_str().unwrap(), "--backend", "gpu"],
        vec!["check", softmax.to_str().unwrap(), "--backend", "gpu"],
        vec!["bench", softmax.to_str().unwrap(), "--backend", "gpu"],
        vec!["gpu-bench"],
    ] {
        let o = smelt(&args);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        assert!(stderr(&o).contains("no CUDA driver found"), "{args:?}: {}", stderr(&o));
    }
}

/// Programs whose buffers cannot fit are refused before anything is allocated,
/// on every backend, with exit 1 and an error naming the sizes; the budget is
/// the machine's available memory unless SMELT_MAX_MEMORY sets it.
#[test]
fn programs_too_large_for_the_memory_budget_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    };
    let huge_parameter = write(
        "negate.hlo",
        "HloModule m\nENTRY e {\n  p = f32[1000000000000,1000000] parameter(0)\n  ROOT n = f32[1000000000000,1000000] negate(p)\n}\n",
    );
    let huge_result =
        write("iota.hlo", "HloModule m\nENTRY e {\n  ROOT i = s32[100000,100000,100] iota(), iota_dimension=0\n}\n");
    for backend in smelt::engine::backend_names().into_iter().filter(|&b| b != "gpu") {
        for path in [&huge_parameter, &huge_result] {
            let o = smelt(&["run", path, "--backend", backend]);
            let e = stderr(&o);
            assert_eq!(o.status.code(), Some(1), "{backend} {path}: {e}");
            assert!(e.contains("memory budget") || e.contains("interpreter's limit"), "{backend} {path}: {e}");
        }
    }
    // 4 MiB of parameters and as much of results: refused under a 6M budget,
    // run under 64M.
    let mib = write(
        "mib.hlo",
        "HloModule m\nENTRY e {\n  p = f32[1024,1024] parameter(0)\n  ROOT n = f32[1024,1024] negate(p)\n}\n",
    );
    let run = |budget: &str, backend: &str| {
        Command::new(env!("CARGO_BIN_EXE_smelt"))
            .args(["run", &mib, "--backend", backend])
            .env("SMELT_MAX_MEMORY", budget)
            .output()
            .expect("run smelt")
    };
    for backend in ["interp", "cpu"] {
        let o = run("6M", backend);
        assert_eq!(o.status.code(), Some(1), "{backend}: {}", stderr(&o));
        assert!(stderr(&o).contains("memory budget of 6291456 bytes (set by SMELT_MAX_MEMORY)"), "{}", stderr(&o));
        let o = run("64M", backend);
        assert!(o.status.success(), "{backend}: {}", stderr(&o));
    }
    // An input file is checked before it is read: 4 MiB read and decoded
    // does not fit 6M.
    let input = dir.path().join("x.npy");
    smelt_hlo::npy::write(&input, &smelt_hlo::Array::zeros(smelt_hlo::DType::F32, [1024, 1024])).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_smelt"))
        .args(["run", &mib, "--backend", "interp", "--input", input.to_str().unwrap()])
        .env("SMELT_MAX_MEMORY", "6M")
        .output()
        .expect("run smelt");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("x.npy: reading it and the array it holds: 8388864 bytes, more than the memory budget"),
        "{}",
        stderr(&o)
    );
    let o = run("lots", "cpu");
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("SMELT_MAX_MEMORY=\"lots\" is not a size"), "{}", stderr(&o));
}

/// The compile budget: a module over the instruction limit, a kernel program
/// over the node limit and a compilation past its time limit are refused by
/// every compiled backend with the knob named; the interpreter, which does not
/// compile, runs them.
#[test]
fn compilations_over_the_compile_budget_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::from("HloModule chain\nENTRY e {\n  v0 = f32[16] parameter(0)\n");
    let ops = ["negate", "exponential", "tanh", "abs"];
    for i in 1..2000 {
        text += &format!("  v{i} = f32[16] {}(v{})\n", ops[i % 4], i - 1);
    }
    text += "  ROOT r = f32[16] negate(v1999)\n}\n";
    let path = dir.path().join("chain.hlo");
    std::fs::write(&path, text).unwrap();
    let run = |backend: &str, var: &str, value: &str| {
        Command::new(env!("CARGO_BIN_EXE_smelt"))
            .args(["run", path.to_str().unwrap(), "--backend", backend])
            .env(var, value)
            .output()
            .expect("run smelt")
    };
    let cases = [
        ("SMELT_MAX_INSTRUCTIONS", "1000", "2001 instructions, more than the compile budget of 1000"),
        ("SMELT_MAX_KERNEL_OPS", "100", "kernel nodes, more than the compile budget of 100"),
        ("SMELT_COMPILE_TIMEOUT", "0.000001", "more than the compile budget of 0.0 ms"),
        ("SMELT_COMPILE_TIMEOUT", "soon", "SMELT_COMPILE_TIMEOUT=\"soon\" is not a number"),
    ];
    for backend in smelt::engine::backend_names().into_iter().filter(|&b| b != "gpu" && b != "interp") {
        for (var, value, message) in cases {
            let o = run(backend, var, value);
            assert_eq!(o.status.code(), Some(1), "{backend} {var}={value}: {}", stderr(&o));
            assert!(stderr(&o).contains(message), "{backend} {var}={value}: {}", stderr(&o));
        }
    }
    let o = run("interp", "SMELT_MAX_INSTRUCTIONS", "1000");
    assert!(o.status.success(), "{}", stderr(&o));
}

/// A chain of `levels` computations, each a `conditional` whose true branch is
/// the next: the middle end used to take time exponential in the depth (CSE's
/// structure keys nested the callees' text), and a deep chain overflowed walks.
fn nested_conditionals(levels: usize) -> String {
    let mut text = String::from("HloModule nested\nb0 {\n  p = f32[4] parameter(0)\n  ROOT n = f32[4] negate(p)\n}\n");
    for i in 1..levels - 1 {
        text += &format!(
            "b{i} {{\n  p = f32[4] parameter(0)\n  c = pred[] constant(true)\n  ROOT r = f32[4] conditional(c, p, p), true_computation=b{}, false_computation=b0\n}}\n",
            i - 1
        );
    }
    text += &format!(
        "ENTRY main {{\n  x = f32[4] parameter(0)\n  c = pred[] constant(true)\n  ROOT r = f32[4] conditional(c, x, x), true_computation=b{}, false_computation=b0\n}}\n",
        levels - 2
    );
    text
}

#[test]
fn deeply_nested_calls_run_up_to_the_bound_and_are_refused_beyond_it() {
    use smelt::hlo::verifier::{MAX_CALL_DEPTH, MAX_OPTIMIZER_CALL_DEPTH};
    let dir = tempfile::tempdir().unwrap();
    let write = |levels: usize| {
        let path = dir.path().join(format!("nested{levels}.hlo"));
        std::fs::write(&path, nested_conditionals(levels)).unwrap();
        path
    };
    let (deepest, too_deep) = (write(MAX_OPTIMIZER_CALL_DEPTH), write(2000));
    let unoptimized = write(MAX_CALL_DEPTH);
    let run = |path: &Path, backend: &str, extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_smelt"))
            .args(["run", path.to_str().unwrap(), "--backend", backend])
            .args(extra)
            .output()
            .expect("run smelt")
    };
    for backend in smelt::engine::backend_names().into_iter().filter(|&b| b != "gpu") {
        let o = run(&deepest, backend, &[]);
        assert!(o.status.success(), "{backend}: {}", stderr(&o));
        let o = run(&unoptimized, backend, &["--pipeline", "none"]);
        assert!(o.status.success(), "{backend} without the optimizer: {}", stderr(&o));
        let o = run(&too_deep, backend, &[]);
        assert_eq!(o.status.code(), Some(1), "{backend}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("calls nest 2000 computations deep ('main' -> 'b1998'"),
            "{backend}: {}",
            stderr(&o)
        );
    }
    let o = run(&unoptimized, "cpu", &[]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains(&format!("at most {MAX_OPTIMIZER_CALL_DEPTH} are supported")), "{}", stderr(&o));
}

/// The persistent cache's bound holds with four processes compiling different
/// programs into one folder at once, cold and then warm (hits, evictions and
/// recompiles interleaved), and `smelt cache stats|clear` report and empty it.
#[test]
fn the_disk_cache_stays_within_its_bound_under_concurrent_processes() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let cases: Vec<String> = (1..=8)
        .map(|i| {
            let case = dir.path().join(format!("p{i}"));
            std::fs::create_dir(&case).unwrap();
            let n = 8 * i;
            let text =
                format!("HloModule p{i}\nENTRY e {{\n  p = f32[{n}] parameter(0)\n  ROOT n = f32[{n}] negate(p)\n}}\n");
            std::fs::write(case.join("module.hlo"), text).unwrap();
            case.to_str().unwrap().to_string()
        })
        .collect();
    let bound = 4000;
    let smelt_in_cache = |args: &[&str]| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_smelt"));
        c.args(args).env("SMELT_CACHE_DIR", &cache).env("SMELT_CACHE_MAX", bound.to_string());
        c
    };
    for round in ["cold", "warm"] {
        let children: Vec<_> = cases
            .chunks(2)
            .map(|pair| {
                let args = ["bench", &pair[0], &pair[1], "--backend", "cpu", "--cache-stats", "--runs", "1"];
                smelt_in_cache(&args).stdout(std::process::Stdio::piped()).spawn().expect("spawn smelt")
            })
            .collect();
        for child in children {
            let o = child.wait_with_output().unwrap();
            assert!(o.status.success(), "{round}: {}", stderr(&o));
        }
        let o = smelt_in_cache(&["cache", "stats", "--json"]).output().unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        let stats: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let bytes = stats["bytes"].as_u64().unwrap();
        assert!(bytes <= bound && stats["entries"].as_u64().unwrap() >= 1, "{round}: {stats}");
        assert_eq!(stats["max_bytes"].as_u64(), Some(bound));
    }
    let o = smelt_in_cache(&["cache", "clear"]).output().unwrap();
    assert!(o.status.success() && String::from_utf8_lossy(&o.stdout).contains("removed"), "{}", stderr(&o));
    let o = smelt_in_cache(&["cache", "stats"]).output().unwrap();
    assert!(String::from_utf8_lossy(&o.stdout).contains(": 0 entries, 0 bytes of at most 4000"));
    let o = smelt_in_cache(&["cache", "stats"]).env("SMELT_CACHE_MAX", "big").output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("SMELT_CACHE_MAX=\"big\" is not a size"), "{}", stderr(&o));
}

#[test]
fn convert_round_trips_through_the_proto_and_reads_stablehlo() {
    let dir = tempfile::tempdir().unwrap();
    let hlo = case("softmax").join("module.hlo");
    let pb = dir.path().join("softmax.pb");
    let o = smelt(&["convert", hlo.to_str().unwrap(), "-o", pb.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    // The proto prints back as the text it came from, detected or named.
    for format in [None, Some("proto")] {
        let mut args = vec!["parse", pb.to_str().unwrap()];
        args.extend(format.map(|f| ["--format", f]).iter().flatten());
        let o = smelt(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(stdout(&o), std::fs::read_to_string(&hlo).unwrap());
    }
    // StableHLO in, HLO text out, which then runs like the original.
    let mlir = case("softmax").join("module.stablehlo.mlir");
    let out = dir.path().join("softmax.hlo");
    let o = smelt(&["convert", mlir.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let copy = copy_case("softmax", dir.path());
    std::fs::copy(&out, copy.join("module.hlo")).unwrap();
    let o = smelt(&["check", copy.to_str().unwrap()]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    // Writing StableHLO is refused with a reason.
    let o = smelt(&["convert", hlo.to_str().unwrap(), "-o", dir.path().join("x.mlir").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("StableHLO"), "{}", stderr(&o));
}

#[test]
fn check_reads_the_module_file_named_by_module() {
    for module in ["module.stablehlo.mlir", "module.pb"] {
        let o = smelt(&["check", case("cond_switch").to_str().unwrap(), "--module", module]);
        assert!(o.status.success(), "{module}: {}{}", stdout(&o), stderr(&o));
        assert!(stdout(&o).contains("1 passed, 0 failed"), "{}", stdout(&o));
    }
    let o = smelt(&["check", case("cond_switch").to_str().unwrap(), "--module", "nope.mlir"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("no nope.mlir"), "{}", stderr(&o));
}

#[test]
fn bad_stablehlo_names_file_line_col() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("bad.mlir");
    let text = "func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n  %0 = stablehlo.add %a, %a : tensor<5xf32>\n  return %0 : tensor<4xf32>\n}\n";
    std::fs::write(&f, text).unwrap();
    let o = smelt(&["run", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let want = format!("{}:2:8: stablehlo.add", f.display());
    assert!(stderr(&o).contains(&want), "{}", stderr(&o));
    // The same file named as HLO text fails as HLO text does.
    let o = smelt(&["run", f.to_str().unwrap(), "--format", "hlo"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains(&format!("{}:1:", f.display())), "{}", stderr(&o));
}
