//! ONNX models (`tests/onnx/`, onnxruntime's outputs as references) imported by
//! `smelt_jit::onnx`, run by a graph `Session` on both compiled backends, plus
//! import errors and the `onnx-run` / `onnx-check` / `graph-dump` commands.

use std::path::{Path, PathBuf};
use std::process::Command;

use smelt::case::compare;
use smelt::hlo::{Array, npy};
use smelt::jit::graph::{Graph, Session, SessionOptions};
use smelt::jit::onnx::{self, OnnxError};

fn onnx_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/onnx")
}

/// One case folder: inputs by graph-input name, expected outputs with tolerances.
struct OnnxCase {
    dir: PathBuf,
    inputs: Vec<(String, Array)>,
    /// (name, expected, rtol, atol) in graph-output order.
    outputs: Vec<(String, Array, f64, f64)>,
}

fn load_case(name: &str) -> OnnxCase {
    let dir = onnx_dir().join(name);
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("case.json")).unwrap()).unwrap();
    let list = |key: &str| json[key].as_array().unwrap().clone();
    let inputs = list("inputs")
        .iter()
        .map(|i| {
            let name = i["name"].as_str().unwrap().to_string();
            (name, npy::read(&dir.join(i["file"].as_str().unwrap()), None).unwrap())
        })
        .collect();
    let outputs = list("outputs")
        .iter()
        .map(|o| {
            let want = npy::read(&dir.join(o["file"].as_str().unwrap()), None).unwrap();
            (o["name"].as_str().unwrap().to_string(), want, o["rtol"].as_f64().unwrap(), o["atol"].as_f64().unwrap())
        })
        .collect();
    OnnxCase { dir, inputs, outputs }
}

fn session(graph: Graph, backend: &str) -> Session {
    Session::new(graph, SessionOptions { backend: backend.to_string(), ..SessionOptions::default() }).unwrap()
}

/// Runs `case`'s inputs through `session` and compares every output.
fn run_and_compare(session: &Session, case: &OnnxCase) {
    let feeds: Vec<(&str, Array)> = case.inputs.iter().map(|(n, a)| (n.as_str(), a.clone())).collect();
    let fetches: Vec<&str> = case.outputs.iter().map(|o| o.0.as_str()).collect();
    let got = session.run(&feeds, &fetches).unwrap_or_else(|e| panic!("{}: {e}", case.dir.display()));
    for ((name, want, rtol, atol), got) in case.outputs.iter().zip(&got) {
        compare(got, want, *rtol, *atol).unwrap_or_else(|m| panic!("{}: output '{name}': {m}", case.dir.display()));
    }
}

fn check(name: &str, backend: &str) {
    let case = load_case(name);
    let graph = onnx::load(case.dir.join("model.onnx")).unwrap_or_else(|e| panic!("{name}: {e}"));
    let outputs: Vec<&str> = case.outputs.iter().map(|o| o.0.as_str()).collect();
    assert_eq!(graph.outputs, outputs, "{name}: graph outputs");
    let inputs: Vec<&str> = case.inputs.iter().map(|i| i.0.as_str()).collect();
    assert_eq!(graph.inputs, inputs, "{name}: graph inputs");
    run_and_compare(&session(graph, backend), &case);
}

macro_rules! cases {
    ($($case:ident),*) => {
        mod cpu {
            $(#[test] fn $case() { super::check(stringify!($case), "cpu") })*
        }
        mod cranelift {
            $(#[test] fn $case() { super::check(stringify!($case), "cranelift") })*
        }
    };
}

cases!(mlp, cnn, lstm_forecaster, bert_layer, mixed_host_ops, dynamic_batch, dynamic_batch_b7);

#[test]
fn every_case_folder_has_a_test() {
    let mut names: Vec<String> = std::fs::read_dir(onnx_dir())
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("model.onnx").is_file())
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let tested = ["bert_layer", "cnn", "dynamic_batch", "dynamic_batch_b7", "lstm_forecaster", "mixed_host_ops", "mlp"];
    assert_eq!(names, tested);
}

/// One imported graph, one session: batch 3, batch 7, then batch 3 again
/// (served from the cache: nothing new compiles).
#[test]
fn dynamic_batch_one_session_serves_both_batch_sizes() {
    let (b3, b7) = (load_case("dynamic_batch"), load_case("dynamic_batch_b7"));
    let model = std::fs::read(b3.dir.join("model.onnx")).unwrap();
    assert_eq!(model, std::fs::read(b7.dir.join("model.onnx")).unwrap(), "one model for both");
    let session = session(onnx::from_bytes(&model).unwrap(), "cpu");
    run_and_compare(&session, &b3);
    run_and_compare(&session, &b7);
    let compiles = session.client().stats().compiles;
    assert!(compiles > 0, "the clusters were compiled");
    run_and_compare(&session, &b3);
    run_and_compare(&session, &b7);
    assert_eq!(session.client().stats().compiles, compiles, "second runs of a shape compile nothing");
}

fn model_proto(case: &str) -> onnx::proto::ModelProto {
    onnx::decode(&std::fs::read(onnx_dir().join(case).join("model.onnx")).unwrap()).unwrap()
}

#[test]
fn truncated_model_is_an_error() {
    let bytes = std::fs::read(onnx_dir().join("mlp/model.onnx")).unwrap();
    for len in [7, bytes.len() / 2, bytes.len() - 3] {
        let e = onnx::from_bytes(&bytes[..len]).unwrap_err();
        assert!(matches!(e, OnnxError::Decode(_)), "{len} bytes: {e}");
    }
    let e = onnx::load(onnx_dir().join("no/such/model.onnx")).unwrap_err();
    assert!(e.to_string().contains("no/such/model.onnx"), "{e}");
}

#[test]
fn unknown_op_type_names_the_node() {
    let mut m = model_proto("bert_layer");
    let k = m.graph.as_ref().unwrap().node.iter().position(|n| n.op_type == "Erf").unwrap();
    let node = &mut m.graph.as_mut().unwrap().node[k];
    node.op_type = "FancyErf".into();
    let name = node.name.clone();
    assert!(name.contains('/'), "exporter-style name: {name}");
    let e = onnx::from_bytes(&onnx::encode(&m)).unwrap_err();
    assert_eq!(e.to_string(), format!("node '{name}': op type 'FancyErf' is not supported"));
}

#[test]
fn unsupported_opset_is_an_error() {
    for version in [5, 22] {
        let mut m = model_proto("mlp");
        m.opset_import.iter_mut().filter(|o| o.domain.is_empty()).for_each(|o| o.version = version);
        let e = onnx::from_bytes(&onnx::encode(&m)).unwrap_err();
        assert!(matches!(e, OnnxError::Opset(_)), "{e}");
        assert!(e.to_string().contains(&format!("opset {version} is not supported")), "{e}");
    }
}

#[test]
fn import_keeps_exporter_names_and_symbolic_dims() {
    use smelt::jit::graph::{Dim, NodeKind};
    let graph = onnx::load(onnx_dir().join("dynamic_batch/model.onnx")).unwrap();
    let x = graph.node(graph.tensor("x").unwrap().node);
    let NodeKind::Placeholder { dims, .. } = &x.kind else { panic!("x is a placeholder") };
    assert_eq!(dims, &[Dim::Symbolic("N".into()), Dim::Fixed(4), Dim::Fixed(5)]);
    let lstm = onnx::load(onnx_dir().join("lstm_forecaster/model.onnx")).unwrap();
    let node = lstm.nodes.iter().find(|n| n.op == "LSTM").unwrap();
    assert!(node.outputs.iter().any(String::is_empty), "Y_c is omitted: {:?}", node.outputs);
}

/// Runs `smelt args`, asserts that it exits with `code`, and returns its stdout
/// and stderr.
fn smelt(args: &[&str], code: i32) -> (String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_smelt")).args(args).output().expect("run smelt");
    let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(code), "smelt {}:\n{stdout}{stderr}", args.join(" "));
    (stdout, stderr)
}

#[test]
fn weights_over_the_memory_budget_are_refused_before_they_are_decoded() {
    let model = onnx_dir().join("mlp/model.onnx");
    let o = Command::new(env!("CARGO_BIN_EXE_smelt"))
        .args(["onnx-run", model.to_str().unwrap(), "--backend", "interp"])
        .env("SMELT_MAX_MEMORY", "16K")
        .output()
        .expect("run smelt");
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("(with the weights before it)")
            && stderr.contains("more than the memory budget of 16384 bytes"),
        "{stderr}"
    );
}

#[test]
fn cli_onnx_run_writes_one_npy_per_output() {
    let tmp = tempfile::tempdir().unwrap();
    let case = onnx_dir().join("mlp");
    let model = case.join("model.onnx");
    let x = format!("x={}", case.join("x.npy").display());
    let out = tmp.path().join("out");
    let (stdout, _) = smelt(
        &[
            "onnx-run",
            model.to_str().unwrap(),
            "--input",
            &x,
            "--out-dir",
            out.to_str().unwrap(),
            "--backend",
            "cranelift",
            "--clusters",
        ],
        0,
    );
    assert!(stdout.contains("wrote 2 outputs"), "{stdout}");
    assert!(stdout.contains("cluster 0:"), "{stdout}");
    let c = load_case("mlp");
    for (name, want, rtol, atol) in &c.outputs {
        let got = npy::read(&out.join(format!("{name}.npy")), None).unwrap();
        compare(&got, want, *rtol, *atol).unwrap();
    }
}

#[test]
fn cli_onnx_check_passes_a_case_and_fails_a_wrong_one() {
    let tmp = tempfile::tempdir().unwrap();
    let dst = tmp.path().join("mlp");
    std::fs::create_dir_all(dst.join("expected")).unwrap();
    for f in ["model.onnx", "x.npy", "case.json", "expected/logits.npy", "expected/probs.npy"] {
        std::fs::copy(onnx_dir().join("mlp").join(f), dst.join(f)).unwrap();
    }
    let (stdout, _) = smelt(&["onnx-check", dst.to_str().unwrap(), "--backend", "cranelift"], 0);
    assert_eq!(stdout, "PASS mlp\n1 passed, 0 failed\n");
    let mut probs = npy::read(&dst.join("expected/probs.npy"), None).unwrap();
    if let smelt::hlo::ArrayData::F32(v) = &mut probs.data {
        v[3] += 0.5;
    }
    npy::write(&dst.join("expected/probs.npy"), &probs).unwrap();
    let (stdout, _) = smelt(&["onnx-check", dst.to_str().unwrap(), "--backend", "cranelift"], 1);
    assert!(stdout.starts_with("FAIL mlp: output 'probs': index [0, 3]"), "{stdout}");
}

/// The backend test data's `light` layout (`NAME.onnx` beside
/// `NAME_output_0.pb`, inputs fed `arange(n) / n`): the expected output is the
/// interpreter's for that input; a perturbed one fails.
#[test]
fn cli_onnx_check_reads_the_light_layout() {
    let tmp = tempfile::tempdir().unwrap();
    let model = tmp.path().join("tiny.onnx");
    std::fs::copy(onnx_dir().join("mlp/model.onnx"), &model).unwrap();
    let graph = onnx::load(&model).unwrap();
    let mut feeds = Vec::new();
    for name in &graph.inputs {
        let node = graph.node(graph.find(name).unwrap());
        let smelt::jit::graph::NodeKind::Placeholder { dims, .. } = &node.kind else { panic!("{name}") };
        let dims: Vec<i64> =
            dims.iter().map(|d| if let smelt::jit::graph::Dim::Fixed(n) = d { *n } else { 1 }).collect();
        let n: i64 = dims.iter().product();
        feeds.push((name.clone(), Array::from_vec(&dims, (0..n).map(|i| i as f32 / n as f32).collect())));
    }
    let outputs = graph.outputs.clone();
    let s = session(graph, "interp");
    let feeds: Vec<(&str, Array)> = feeds.iter().map(|(n, a)| (n.as_str(), a.clone())).collect();
    let fetches: Vec<&str> = outputs.iter().map(String::as_str).collect();
    let want = s.run(&feeds, &fetches).unwrap();
    for (k, (name, a)) in outputs.iter().zip(&want).enumerate() {
        std::fs::write(tmp.path().join(format!("tiny_output_{k}.pb")), onnx::tensor::encode_bytes(name, a)).unwrap();
    }
    let (stdout, _) = smelt(&["onnx-check", tmp.path().to_str().unwrap(), "--backend", "cranelift"], 0);
    assert_eq!(stdout, "PASS tiny.onnx\n1 passed, 0 failed\n");
    let mut off = want[0].clone();
    if let smelt::hlo::ArrayData::F32(v) = &mut off.data {
        v[0] += 0.5;
    }
    std::fs::write(tmp.path().join("tiny_output_0.pb"), onnx::tensor::encode_bytes(&outputs[0], &off)).unwrap();
    let (stdout, _) = smelt(&["onnx-check", model.to_str().unwrap(), "--backend", "cranelift"], 1);
    assert!(stdout.starts_with("FAIL tiny.onnx: output"), "{stdout}");
}

#[test]
fn cli_errors_name_the_place() {
    let tmp = tempfile::tempdir().unwrap();
    let mut m = model_proto("mlp");
    m.graph.as_mut().unwrap().node[0].op_type = "NotAnOp".into();
    let name = m.graph.as_ref().unwrap().node[0].name.clone();
    let model = tmp.path().join("bad.onnx");
    std::fs::write(&model, onnx::encode(&m)).unwrap();
    for cmd in ["onnx-run", "graph-dump"] {
        let (_, stderr) = smelt(&[cmd, model.to_str().unwrap()], 1);
        assert!(stderr.contains(&format!("node '{name}': op type 'NotAnOp' is not supported")), "{cmd}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
    // A graph input with neither --input nor <name>.npy beside the model.
    let model = tmp.path().join("mlp.onnx");
    std::fs::copy(onnx_dir().join("mlp/model.onnx"), &model).unwrap();
    let (_, stderr) = smelt(&["onnx-run", model.to_str().unwrap()], 1);
    assert!(stderr.contains("graph input 'x': no --input x=FILE.npy"), "{stderr}");
}

#[test]
fn cli_graph_dump_draws_clusters() {
    let tmp = tempfile::tempdir().unwrap();
    let dot = tmp.path().join("g.dot");
    let model = onnx_dir().join("mixed_host_ops/model.onnx");
    smelt(&["graph-dump", model.to_str().unwrap(), "-o", dot.to_str().unwrap()], 0);
    let text = std::fs::read_to_string(&dot).unwrap();
    assert!(text.starts_with("digraph smelt {"), "{text}");
    assert!(text.contains("subgraph cluster_0"), "{text}");
    assert!(text.contains("NonZero"), "{text}");
}

#[test]
fn cli_onnx_bench_times_a_model_with_given_or_random_inputs() {
    let case = onnx_dir().join("mlp");
    let (stdout, _) =
        smelt(&["onnx-bench", case.to_str().unwrap(), "--backend", "cranelift", "--runs", "3", "--json"], 0);
    let j: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(j["runs"], 3);
    assert!(j["min_ms"].as_f64().unwrap() <= j["median_ms"].as_f64().unwrap());
    for key in ["load_ms", "first_run_ms", "median_ms"] {
        assert!(j[key].as_f64().unwrap() >= 0.0, "{key}: {j}");
    }
    // A model alone in a folder gets random inputs of its declared types.
    let tmp = tempfile::tempdir().unwrap();
    let model = tmp.path().join("model.onnx");
    std::fs::copy(case.join("model.onnx"), &model).unwrap();
    let (stdout, _) = smelt(&["onnx-bench", model.to_str().unwrap(), "--backend", "cranelift", "--runs", "2"], 0);
    assert!(stdout.contains("steady median") && stdout.contains("2 runs"), "{stdout}");
}

/// `smelt quantize` on the CNN (`tests/onnx/cnn/calibration`): batches in, a QDQ model out
/// whose weights are s8, which smelt imports and runs close to the float
/// model (integer products); bad calibration folders are refused by name.
#[test]
fn quantize_writes_a_qdq_model_that_runs_close_to_the_float_one() {
    let case = load_case("cnn");
    let tmp = tempfile::tempdir().unwrap();
    // The four batches shipped beside the case (the README's example).
    let cal = case.dir.join("calibration");
    let out = tmp.path().join("q.onnx");
    let model = case.dir.join("model.onnx");
    let (stdout, _) = smelt(
        &[
            "quantize",
            model.to_str().unwrap(),
            "--calibration",
            cal.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--report",
        ],
        0,
    );
    assert!(stdout.contains("quantized 3 layers (Conv 2, MatMul 0, Gemm 1)"), "{stdout}");
    assert!(stdout.contains("relative L2"), "{stdout}");
    // Weights are s8 behind DequantizeLinear nodes.
    let proto = onnx::decode(&std::fs::read(&out).unwrap()).unwrap();
    let g = proto.graph.as_ref().unwrap();
    let weights = g.initializer.iter().filter(|t| t.name.ends_with("weight_quantized")).count();
    assert_eq!(weights, 3);
    assert!(g.initializer.iter().filter(|t| t.name.ends_with("weight_quantized")).all(|t| t.data_type == 3));
    assert!(g.node.iter().any(|n| n.op_type == "QuantizeLinear"));
    // Run on both compiled backends: within a few percent of the float outputs.
    for backend in ["cpu", "cranelift"] {
        let s = session(onnx::load(&out).unwrap(), backend);
        let feeds: Vec<(&str, Array)> = case.inputs.iter().map(|(n, a)| (n.as_str(), a.clone())).collect();
        let got = s.run(&feeds, &["logits"]).unwrap();
        let want = &case.outputs[0].1;
        let (smelt::hlo::ArrayData::F32(g), smelt::hlo::ArrayData::F32(w)) = (&got[0].data, &want.data) else {
            panic!("f32 logits")
        };
        let diff: f32 = g.iter().zip(w).map(|(a, b)| (a - b) * (a - b)).sum::<f32>().sqrt();
        let norm: f32 = w.iter().map(|b| b * b).sum::<f32>().sqrt();
        assert!(diff / norm < 0.05, "{backend}: relative L2 {}", diff / norm);
    }
    // Refusals name the problem.
    let empty = tmp.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let (_, stderr) =
        smelt(&["quantize", model.to_str().unwrap(), "--calibration", empty.to_str().unwrap(), "-o", "x.onnx"], 1);
    assert!(stderr.contains("no .npz files"), "{stderr}");
    smelt::jit::npz::write(&empty.join("0.npz"), &[("pixels".into(), case.inputs[0].1.clone())]).unwrap();
    let (_, stderr) =
        smelt(&["quantize", model.to_str().unwrap(), "--calibration", empty.to_str().unwrap(), "-o", "x.onnx"], 1);
    assert!(stderr.contains("'pixels' is not a graph input"), "{stderr}");
}
