//! `smelt onnx-run`, `smelt onnx-check`, `smelt onnx-bench` and `smelt graph-dump`: ONNX models
//! imported by `smelt_jit::onnx` and run by a graph `Session`.
//!
//! Case folders in the ONNX layout (`tests/onnx/README.md`): `model.onnx`,
//! `<input name>.npy` per graph input, `expected/<output name>.npy` per graph
//! output and `case.json` (per-output `rtol`/`atol`). `onnx-check` also reads
//! the ONNX project's backend-test layout (`onnx/backend/test/data/*/`):
//! `model.onnx` with `test_data_set_<n>/input_<k>.pb` and `output_<k>.pb`
//! (serialized `TensorProto`s), checked at that suite's tolerance.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use smelt::case::{DEFAULT_TOLERANCE, compare};
use smelt::hlo::{Array, npy};
use smelt::jit::graph::{Dim, Graph, NodeKind, Session, SessionOptions};
use smelt::jit::onnx::OnnxError;

use crate::Backend;

/// `MODEL.onnx`, or a case folder's `model.onnx`.
fn model_path(path: &Path) -> PathBuf {
    if path.is_dir() { path.join("model.onnx") } else { path.to_path_buf() }
}

fn load_graph(path: &Path) -> Result<Graph> {
    smelt::jit::onnx::load(path).map_err(|e| match e {
        OnnxError::Io { .. } => anyhow!(e),
        e => anyhow!("{}: {e}", path.display()),
    })
}

fn session(graph: Graph, backend: Backend) -> Result<Session> {
    Ok(Session::new(graph, SessionOptions { backend: backend.name().to_string(), ..SessionOptions::default() })?)
}

/// The graph's inputs: `--input NAME=FILE` where given, else `<NAME>.npy` beside the model.
fn load_feeds(graph: &Graph, model: &Path, given: &[String]) -> Result<Vec<(String, Array)>> {
    let mut files: Vec<(String, PathBuf)> = Vec::new();
    for spec in given {
        let (name, file) = spec.split_once('=').ok_or_else(|| anyhow!("--input {spec}: expected NAME=FILE.npy"))?;
        if !graph.inputs.iter().any(|i| i == name) {
            bail!("--input {spec}: the model has no input '{name}' (inputs: {})", graph.inputs.join(", "));
        }
        files.push((name.to_string(), PathBuf::from(file)));
    }
    let dir = model.parent().unwrap_or(Path::new("."));
    let mut feeds = Vec::with_capacity(graph.inputs.len());
    for name in &graph.inputs {
        let file = match files.iter().find(|(n, _)| n == name) {
            Some((_, f)) => f.clone(),
            None => {
                let f = dir.join(format!("{name}.npy"));
                if !f.is_file() {
                    bail!("graph input '{name}': no --input {name}=FILE.npy and no {}", f.display());
                }
                f
            }
        };
        let dtype = graph.tensor(name).and_then(|v| match &graph.node(v.node).kind {
            NodeKind::Placeholder { dtype, .. } => Some(*dtype),
            _ => None,
        });
        let array = npy::read(&file, dtype).with_context(|| format!("graph input '{name}'"))?;
        feeds.push((name.clone(), array));
    }
    Ok(feeds)
}

/// Runs the graph's outputs.
fn run(session: &Session, feeds: &[(String, Array)]) -> Result<Vec<Array>> {
    let feeds: Vec<(&str, Array)> = feeds.iter().map(|(n, a)| (n.as_str(), a.clone())).collect();
    let outputs = session.graph().outputs.clone();
    let fetches: Vec<&str> = outputs.iter().map(String::as_str).collect();
    Ok(session.run(&feeds, &fetches)?)
}

/// A tensor name as a file name (`/` and other odd characters become `_`).
fn file_stem(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_alphanumeric() || "_-.".contains(c) { c } else { '_' }).collect()
}

fn print_clusters(session: &Session) -> Result<()> {
    let outputs = session.graph().outputs.clone();
    let fetches: Vec<&str> = outputs.iter().map(String::as_str).collect();
    let clusters = session.clusters(&fetches)?;
    println!("{} clusters", clusters.len());
    for c in clusters {
        let values = if c.value_inputs.is_empty() {
            String::new()
        } else {
            let names: Vec<&str> = c.value_inputs.iter().map(|&k| c.inputs[k].as_str()).collect();
            format!(", compiled for the values of [{}]", names.join(", "))
        };
        println!(
            "cluster {}: {} nodes, inputs [{}], {} outputs, {} signatures{values}, {} runs: {}",
            c.index,
            c.nodes.len(),
            c.inputs.join(", "),
            c.outputs,
            c.signatures,
            c.runs,
            c.ops.join(" ")
        );
    }
    let outside = session.unclustered(&fetches)?;
    if outside.is_empty() {
        println!("every op ran compiled");
    }
    for (name, op, place) in outside {
        println!("{op} '{name}': ran on the {place}");
    }
    Ok(())
}

/// Writes each compiled cluster signature's HLO as a case folder under `dir`.
fn dump_cluster_modules(session: &Session, dir: &Path) -> Result<()> {
    let outputs = session.graph().outputs.clone();
    let fetches: Vec<&str> = outputs.iter().map(String::as_str).collect();
    let modules = session.compiled_modules(&fetches)?;
    for (name, module) in &modules {
        let folder = dir.join(name);
        std::fs::create_dir_all(&folder).with_context(|| format!("cannot create {}", folder.display()))?;
        let path = folder.join("module.hlo");
        std::fs::write(&path, smelt::hlo::text::print_module(module))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    println!("wrote {} cluster modules to {}", modules.len(), dir.display());
    Ok(())
}

pub fn cmd_onnx_run(
    model: &Path,
    inputs: &[String],
    out_dir: Option<&Path>,
    backend: Backend,
    clusters: bool,
    dump_clusters: Option<&Path>,
) -> Result<()> {
    let model = model_path(model);
    let t0 = std::time::Instant::now();
    let graph = load_graph(&model)?;
    let feeds = load_feeds(&graph, &model, inputs)?;
    let session = session(graph, backend)?;
    let outputs = run(&session, &feeds)?;
    let ms = t0.elapsed().as_secs_f64() * 1e3;
    let names = session.graph().outputs.clone();
    match out_dir {
        Some(dir) => {
            std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
            for (name, out) in names.iter().zip(&outputs) {
                npy::write(&dir.join(format!("{}.npy", file_stem(name))), out)?;
            }
            println!("wrote {} outputs to {}", outputs.len(), dir.display());
        }
        None => {
            for (name, out) in names.iter().zip(&outputs) {
                println!("{name}: {}", crate::summarize(out));
            }
        }
    }
    if clusters {
        print_clusters(&session)?;
    }
    if let Some(dir) = dump_clusters {
        dump_cluster_modules(&session, dir)?;
    }
    println!("import, compile and run {ms:.2} ms (backend {})", backend.name());
    Ok(())
}

/// The expected first output of a `light`-layout model `NAME.onnx`: `NAME_output_0.pb` beside it.
fn light_output(model: &Path, k: usize) -> PathBuf {
    let stem = model.file_stem().map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    model.with_file_name(format!("{stem}_output_{k}.pb"))
}

/// Cases: PATHs holding `model.onnx`, or the folders directly inside them
/// that do, or (the backend test data's `light` layout) `NAME.onnx` files
/// with `NAME_output_0.pb` beside them.
fn find_cases(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for p in paths {
        if p.join("model.onnx").is_file() || p.is_file() && light_output(p, 0).is_file() {
            out.push(p.clone());
            continue;
        }
        let entries = std::fs::read_dir(p).with_context(|| format!("cannot read {}", p.display()))?;
        let mut cases: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|c| {
                c.join("model.onnx").is_file()
                    || c.extension().is_some_and(|e| e == "onnx") && light_output(c, 0).is_file()
            })
            .collect();
        if cases.is_empty() {
            bail!(
                "{}: no model.onnx in it or in the folders inside it (nor NAME.onnx with NAME_output_0.pb)",
                p.display()
            );
        }
        cases.sort();
        out.extend(cases);
    }
    Ok(out)
}

/// `rtol`, `atol` for output `name` from `case.json` (the output's, else the case's).
fn tolerance(json: &serde_json::Value, name: &str) -> (f64, f64) {
    let output = json
        .get("outputs")
        .and_then(|o| o.as_array())
        .and_then(|o| o.iter().find(|o| o.get("name").and_then(|n| n.as_str()) == Some(name)));
    let get = |key: &str| {
        output
            .and_then(|o| o.get(key))
            .or_else(|| json.get("tolerance").and_then(|t| t.get(key)))
            .and_then(|v| v.as_f64())
            .unwrap_or(DEFAULT_TOLERANCE)
    };
    (get("rtol"), get("atol"))
}

/// The ONNX backend test suite's tolerance (`onnx.backend.test.case`).
const BACKEND_TEST_RTOL: f64 = 1e-3;
const BACKEND_TEST_ATOL: f64 = 1e-7;

/// `dir/test_data_set_<n>` folders, in order.
fn test_data_sets(dir: &Path) -> Vec<PathBuf> {
    (0..).map(|n| dir.join(format!("test_data_set_{n}"))).take_while(|d| d.is_dir()).collect()
}

/// `<prefix>_<k>.pb` in `dir`, k = 0, 1, ..., decoded.
fn read_tensor_protos(dir: &Path, prefix: &str) -> Result<Vec<(String, Array)>> {
    let mut out = Vec::new();
    for k in 0.. {
        let path = dir.join(format!("{prefix}_{k}.pb"));
        if !path.is_file() {
            break;
        }
        let bytes = std::fs::read(&path).with_context(|| format!("cannot read {}", path.display()))?;
        out.push(smelt::jit::onnx::tensor::decode_bytes(&bytes).map_err(|m| anyhow!("{}: {m}", path.display()))?);
    }
    Ok(out)
}

/// A backend-test case: every data set's inputs (matched by name, else by
/// position among the graph's inputs) run and compared with its outputs.
fn check_test_data_sets(dir: &Path, sets: &[PathBuf], backend: Backend) -> Result<()> {
    let graph = load_graph(&dir.join("model.onnx"))?;
    let session = session(graph, backend)?;
    let inputs = session.graph().inputs.clone();
    let outputs = session.graph().outputs.clone();
    for set in sets {
        let given = read_tensor_protos(set, "input")?;
        let mut feeds = Vec::with_capacity(given.len());
        for (k, (name, a)) in given.into_iter().enumerate() {
            let name = if inputs.contains(&name) {
                name
            } else {
                inputs.get(k).cloned().ok_or_else(|| anyhow!("{}: input_{k}.pb has no graph input", set.display()))?
            };
            feeds.push((name, a));
        }
        let want = read_tensor_protos(set, "output")?;
        if want.len() != outputs.len() {
            bail!("{}: {} expected outputs, the graph has {}", set.display(), want.len(), outputs.len());
        }
        let got = run(&session, &feeds)?;
        let set_name = set.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        for ((name, g), (_, w)) in outputs.iter().zip(&got).zip(&want) {
            compare(g, w, BACKEND_TEST_RTOL, BACKEND_TEST_ATOL)
                .map_err(|m| anyhow!("{set_name}: output '{name}': {m}"))?;
        }
    }
    Ok(())
}

/// A `light`-layout model: every input fed `arange(n) / n` in its shape
/// (symbolic dims 1), as the ONNX backend test suite feeds them, and the
/// outputs compared with `NAME_output_<k>.pb` at the suite's tolerance.
fn check_light(model: &Path, backend: Backend) -> Result<()> {
    let graph = load_graph(model)?;
    let mut feeds = Vec::new();
    for name in &graph.inputs {
        let node = graph.find(name).map(|n| graph.node(n));
        let Some(NodeKind::Placeholder { dtype, dims }) = node.map(|n| &n.kind) else {
            bail!("graph input '{name}' is not a placeholder");
        };
        let dims: Vec<i64> = dims.iter().map(|d| if let Dim::Fixed(n) = d { *n } else { 1 }).collect();
        let n: i64 = dims.iter().product();
        let values = (0..n).map(|i| i as f64 / n as f64);
        feeds.push((name.clone(), Array::new(&dims, smelt::hlo::ArrayData::from_f64(*dtype, values))));
    }
    let session = session(graph, backend)?;
    let got = run(&session, &feeds)?;
    for (k, (name, g)) in session.graph().outputs.iter().zip(&got).enumerate() {
        let path = light_output(model, k);
        let bytes = std::fs::read(&path).with_context(|| format!("cannot read {}", path.display()))?;
        let (_, want) =
            smelt::jit::onnx::tensor::decode_bytes(&bytes).map_err(|m| anyhow!("{}: {m}", path.display()))?;
        compare(g, &want, BACKEND_TEST_RTOL, BACKEND_TEST_ATOL).map_err(|m| anyhow!("output '{name}': {m}"))?;
    }
    Ok(())
}

fn check_case(dir: &Path, backend: Backend) -> Result<()> {
    if dir.is_file() {
        return check_light(dir, backend);
    }
    let sets = test_data_sets(dir);
    if !sets.is_empty() {
        return check_test_data_sets(dir, &sets, backend);
    }
    let model = dir.join("model.onnx");
    let graph = load_graph(&model)?;
    let feeds = load_feeds(&graph, &model, &[])?;
    let json_path = dir.join("case.json");
    let json: serde_json::Value = if json_path.is_file() {
        let text =
            std::fs::read_to_string(&json_path).with_context(|| format!("cannot read {}", json_path.display()))?;
        serde_json::from_str(&text).with_context(|| format!("{}", json_path.display()))?
    } else {
        serde_json::Value::Null
    };
    let session = session(graph, backend)?;
    let outputs = run(&session, &feeds)?;
    for (name, got) in session.graph().outputs.iter().zip(&outputs) {
        let path = dir.join("expected").join(format!("{}.npy", file_stem(name)));
        let want = npy::read(&path, Some(got.dtype())).with_context(|| format!("output '{name}'"))?;
        let (rtol, atol) = tolerance(&json, name);
        compare(got, &want, rtol, atol).map_err(|m| anyhow!("output '{name}': {m}"))?;
    }
    Ok(())
}

pub fn cmd_onnx_check(paths: &[PathBuf], backend: Backend) -> Result<bool> {
    let cases = find_cases(paths)?;
    Ok(crate::check_all(&cases, |dir| check_case(dir, backend)))
}

/// `onnx-bench`'s figures for one model.
struct OnnxBench {
    model: String,
    backend: String,
    /// Decoding and importing the model.
    load_ms: f64,
    /// The first run: clustering, compiling every cluster, running.
    first_run_ms: f64,
    /// Waiting after it for the specialized convolution routines to take
    /// over from the generic one (zero when none were being built).
    specialize_ms: f64,
    median_ms: f64,
    min_ms: f64,
    runs: usize,
}

/// Inputs for a benchmark: `--input` files, `<NAME>.npy` beside the model, or
/// else deterministic random values of each placeholder's type (symbolic dims 1).
fn bench_feeds(graph: &Graph, model: &Path, given: &[String]) -> Result<Vec<(String, Array)>> {
    let dir = model.parent().unwrap_or(Path::new("."));
    let all_files = graph.inputs.iter().all(|n| {
        given.iter().any(|g| g.split_once('=').is_some_and(|(name, _)| name == n))
            || dir.join(format!("{n}.npy")).is_file()
    });
    if all_files {
        return load_feeds(graph, model, given);
    }
    if !given.is_empty() {
        bail!("give every graph input with --input, or none (then they are random)");
    }
    let mut shapes = Vec::new();
    for name in &graph.inputs {
        let node = graph.tensor(name).map(|v| graph.node(v.node));
        let Some(NodeKind::Placeholder { dtype, dims }) = node.map(|n| &n.kind) else {
            bail!("graph input '{name}' is not a placeholder");
        };
        let dims: Vec<i64> = dims
            .iter()
            .map(|d| match d {
                smelt::jit::graph::Dim::Fixed(n) => *n,
                smelt::jit::graph::Dim::Symbolic(_) => 1,
            })
            .collect();
        shapes.push(smelt::hlo::Shape::array(*dtype, dims));
    }
    let values = smelt::hlo::random::random_inputs(&shapes)?;
    Ok(graph.inputs.iter().cloned().zip(values.into_iter().flat_map(|l| l.into_leaves())).collect())
}

/// `smelt onnx-bench`: import, first run (compiles) and steady-state times of
/// one model, printed or as JSON.
pub fn cmd_onnx_bench(model: &Path, inputs: &[String], backend: Backend, runs: usize, json: bool) -> Result<()> {
    let model = model_path(model);
    let t0 = std::time::Instant::now();
    let graph = load_graph(&model)?;
    let load_ms = t0.elapsed().as_secs_f64() * 1e3;
    let feeds = bench_feeds(&graph, &model, inputs)?;
    let session = session(graph, backend)?;
    let t1 = std::time::Instant::now();
    run(&session, &feeds)?;
    let first_run_ms = t1.elapsed().as_secs_f64() * 1e3;
    // The steady state: convolutions on their specialized routines.
    let t2 = std::time::Instant::now();
    let pending = smelt_cpu::routines::wait_for_background();
    let specialize_ms = if pending > 0 { t2.elapsed().as_secs_f64() * 1e3 } else { 0.0 };
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs.max(1) {
        let t = std::time::Instant::now();
        run(&session, &feeds)?;
        times.push(t.elapsed().as_secs_f64() * 1e3);
    }
    times.sort_by(f64::total_cmp);
    let figures = OnnxBench {
        model: model.display().to_string(),
        backend: backend.name().to_string(),
        load_ms,
        first_run_ms,
        specialize_ms,
        median_ms: times[times.len() / 2],
        min_ms: times[0],
        runs: times.len(),
    };
    if json {
        let j = serde_json::json!({
            "model": figures.model,
            "backend": figures.backend,
            "load_ms": figures.load_ms,
            "first_run_ms": figures.first_run_ms,
            "specialize_ms": figures.specialize_ms,
            "median_ms": figures.median_ms,
            "min_ms": figures.min_ms,
            "runs": figures.runs,
        });
        println!("{j}");
    } else {
        println!(
            "{}: load {:.1} ms, first run (compiles) {:.1} ms, convolutions specialized {:.1} ms after it, steady median {:.3} ms (min {:.3}, {} runs, backend {})",
            figures.model,
            figures.load_ms,
            figures.first_run_ms,
            figures.specialize_ms,
            figures.median_ms,
            figures.min_ms,
            figures.runs,
            figures.backend
        );
    }
    Ok(())
}

pub fn cmd_graph_dump(model: &Path, output: Option<&Path>) -> Result<()> {
    let model = model_path(model);
    let graph = load_graph(&model)?;
    let session = session(graph, Backend(smelt::engine::INTERP))?;
    let outputs = session.graph().outputs.clone();
    let fetches: Vec<&str> = outputs.iter().map(String::as_str).collect();
    let dot = session.dot(&fetches).map_err(|e| anyhow!("{}: {e}", model.display()))?;
    match output {
        Some(path) => {
            std::fs::write(path, dot).with_context(|| format!("cannot write {}", path.display()))?;
            println!("wrote {}", path.display());
        }
        None => print!("{dot}"),
    }
    Ok(())
}
