//! Robustness: every input door (`smelt::fuzz`) meets 10,000 mutated inputs per
//! test run, grown from the repository's own files with a fixed seed, and must
//! give errors, never panics. The mutation that broke is printed; the same
//! door functions are the `cargo fuzz` targets (`scripts/fuzz.sh`), so a crash
//! found there replays here.

use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};

use smelt::fuzz::Reached;
use smelt::hlo::random::SplitMix;

use crate::common::{corpus_cases, corpus_hlo_files};

const MUTATIONS: usize = 10_000;

/// Splits text into tokens: runs of identifier characters, runs of whitespace, and
/// single punctuation characters. Joining the tokens gives the text back.
fn tokens(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let class = |c: char| {
        if c.is_alphanumeric() || matches!(c, '_' | '.' | '-' | '%') {
            0
        } else if c.is_whitespace() {
            1
        } else {
            2
        }
    };
    let mut prev: Option<u8> = None;
    for (i, c) in text.char_indices() {
        let k = class(c);
        if let Some(p) = prev
            && (p != k || k == 2)
        {
            out.push(&text[start..i]);
            start = i;
        }
        prev = Some(k);
    }
    if start < text.len() {
        out.push(&text[start..]);
    }
    out
}

/// One random mutation of `text`, and a description of it.
fn mutate(text: &str, rng: &mut SplitMix) -> (String, String) {
    let toks = tokens(text);
    let n = toks.len().max(1);
    let pick = |rng: &mut SplitMix| rng.below(n);
    let join = |t: &[&str]| t.concat();
    match rng.below(7) {
        0 => {
            let mut cut = rng.below(text.len().max(1));
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            (text[..cut].to_string(), format!("truncate at byte {cut}"))
        }
        1 => {
            let i = pick(rng);
            let mut t = toks.clone();
            t.remove(i.min(t.len().saturating_sub(1)));
            (join(&t), format!("delete token {i}"))
        }
        2 => {
            let i = pick(rng).min(toks.len().saturating_sub(1));
            let mut t = toks.clone();
            if let Some(&tok) = t.get(i) {
                t.insert(i, tok);
            }
            (join(&t), format!("duplicate token {i}"))
        }
        3 => {
            let (i, j) = (pick(rng), pick(rng));
            let mut t = toks.clone();
            if i < t.len() && j < t.len() {
                t.swap(i, j);
            }
            (join(&t), format!("swap tokens {i} and {j}"))
        }
        4 => {
            let mut bytes = text.as_bytes().to_vec();
            let i = rng.below(bytes.len().max(1));
            if let Some(b) = bytes.get_mut(i) {
                *b ^= 1 << rng.below(8);
            }
            (String::from_utf8_lossy(&bytes).into_owned(), format!("flip a bit of byte {i}"))
        }
        5 => {
            // Replace a number with an extreme one: overflow and huge-allocation checks.
            let numeric: Vec<usize> =
                (0..toks.len()).filter(|&i| toks[i].bytes().all(|b| b.is_ascii_digit())).collect();
            let extremes = ["0", "-1", "4294967296", "9223372036854775807", "99999999999999999999", "1000000"];
            let mut t = toks.clone();
            let e = extremes[rng.below(extremes.len())];
            if !numeric.is_empty() {
                let i = numeric[rng.below(numeric.len())];
                t[i] = e;
                (join(&t), format!("number token {i} -> {e}"))
            } else {
                (join(&t), "no numbers".into())
            }
        }
        _ => {
            // Replace a token with another token of the same file.
            let (i, j) = (pick(rng), pick(rng));
            let mut t = toks.clone();
            if i < t.len() && j < toks.len() {
                t[i] = toks[j];
            }
            (join(&t), format!("token {i} replaced by token {j}"))
        }
    }
}

/// Runs `count` mutants of `seeds` through `door`, smaller seeds more often
/// (every seed at least once), and returns how far they got. Fails with the
/// mutations that panicked.
fn drive(
    door: &str,
    seeds: &[(String, Vec<u8>)],
    count: usize,
    seed: u64,
    mutate: impl Fn(&[u8], &mut SplitMix) -> (Vec<u8>, String),
    run: fn(&[u8]) -> Reached,
) -> BTreeMap<Reached, usize> {
    assert!(!seeds.is_empty(), "{door}: no seeds");
    let mut order: Vec<usize> = (0..seeds.len()).collect();
    order.sort_by_key(|&i| seeds[i].1.len());
    let mut rng = SplitMix(seed);
    let mut reached = BTreeMap::new();
    let mut failures = Vec::new();
    for k in 0..count {
        let idx = if k < seeds.len() {
            order[k]
        } else {
            let bound = rng.below(seeds.len()) + 1;
            order[rng.below(bound)]
        };
        let (name, bytes) = &seeds[idx];
        let (mutated, what) = mutate(bytes, &mut rng);
        match catch_unwind(AssertUnwindSafe(|| run(&mutated))) {
            Ok(r) => *reached.entry(r).or_insert(0) += 1,
            Err(_) => failures.push(format!("{name}: {what}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{door}: {} of {count} mutations panicked, e.g.:\n{}",
        failures.len(),
        failures[..failures.len().min(10)].join("\n")
    );
    eprintln!("fuzz {door}: {count} inputs, no panic; reached {reached:?}");
    reached
}

/// Generic byte mutations: bit flips, special bytes, truncation, insertion,
/// duplication, and an extreme little-endian integer written over 8 bytes.
fn mutate_bytes(data: &[u8], rng: &mut SplitMix) -> (Vec<u8>, String) {
    let mut b = data.to_vec();
    let at = |rng: &mut SplitMix, b: &[u8]| rng.below(b.len().max(1));
    let what = match rng.below(6) {
        0 => {
            let i = at(rng, &b);
            if let Some(x) = b.get_mut(i) {
                *x ^= 1 << rng.below(8);
            }
            format!("flip a bit of byte {i}")
        }
        1 => {
            let i = at(rng, &b);
            let v = [0u8, 0xff, 0x7f, 0x80, b'9', b'-'][rng.below(6)];
            if let Some(x) = b.get_mut(i) {
                *x = v;
            }
            format!("byte {i} -> {v:#x}")
        }
        2 => {
            let n = at(rng, &b);
            b.truncate(n);
            format!("truncate at byte {n}")
        }
        3 => {
            let i = at(rng, &b).min(b.len());
            let n = rng.below(16) + 1;
            let junk: Vec<u8> = (0..n).map(|_| rng.next_u64() as u8).collect();
            b.splice(i..i, junk);
            format!("insert {n} random bytes at {i}")
        }
        4 => {
            let i = at(rng, &b);
            let n = rng.below(64).min(b.len() - i.min(b.len()));
            let piece = b[i..i + n].to_vec();
            b.splice(i..i, piece);
            format!("duplicate {n} bytes at {i}")
        }
        _ => {
            let i = at(rng, &b);
            let v: u64 = [u64::MAX, 1 << 40, 1 << 31, 0, 0x7fff_ffff_ffff_ffff][rng.below(5)];
            for (k, byte) in v.to_le_bytes().into_iter().enumerate() {
                if let Some(x) = b.get_mut(i + k) {
                    *x = byte;
                }
            }
            format!("u64 {v:#x} over bytes {i}..")
        }
    };
    (b, what)
}

fn read_all(paths: impl IntoIterator<Item = std::path::PathBuf>) -> Vec<(String, Vec<u8>)> {
    paths.into_iter().map(|p| (p.display().to_string(), std::fs::read(&p).unwrap())).collect()
}

#[test]
fn mutated_corpus_text_never_panics() {
    let seeds = read_all(corpus_hlo_files());
    let reached = drive(
        "hlo_text",
        &seeds,
        MUTATIONS,
        0x5eed_f00d,
        |bytes, rng| {
            let (text, what) = mutate(std::str::from_utf8(bytes).unwrap(), rng);
            (text.into_bytes(), what)
        },
        smelt::fuzz::hlo_text,
    );
    let n = |r: Reached| reached.get(&r).copied().unwrap_or(0);
    // The mutations reach the parser's, the verifier's and the optimizer's paths.
    assert!(n(Reached::Decode) > 1000 && n(Reached::Check) > 100 && n(Reached::Through) > 100, "{reached:?}");
}

/// The corpus's StableHLO files, mutated token by token as HLO text is.
#[test]
fn mutated_stablehlo_never_panics() {
    let seeds = read_all(corpus_cases().into_iter().map(|c| c.join("module.stablehlo.mlir")).filter(|p| p.is_file()));
    let reached = drive(
        "stablehlo_text",
        &seeds,
        MUTATIONS,
        0x57ab_1e40,
        |bytes, rng| {
            let (text, what) = mutate(std::str::from_utf8(bytes).unwrap(), rng);
            (text.into_bytes(), what)
        },
        smelt::fuzz::stablehlo_text,
    );
    let n = |r: Reached| reached.get(&r).copied().unwrap_or(0);
    // The mutations reach the reader's errors and go all the way through.
    assert!(n(Reached::Decode) > 1000 && n(Reached::Through) > 100, "{reached:?}");
}

/// XLA's own `module.pb` dumps, mutated byte by byte.
#[test]
fn mutated_hlo_protos_never_panic() {
    let seeds = read_all(corpus_cases().into_iter().map(|c| c.join("module.pb")).filter(|p| p.is_file()));
    let reached = drive("hlo_proto", &seeds, MUTATIONS, 0x9b0f_5eed, mutate_bytes, smelt::fuzz::hlo_proto);
    let n = |r: Reached| reached.get(&r).copied().unwrap_or(0);
    assert!(n(Reached::Decode) > 1000 && n(Reached::Through) > 100, "{reached:?}");
}

/// The ONNX models the repository tests with, and quantized ones: the CNN as
/// `smelt quantize` writes it and [`quantized_operators`].
fn onnx_seeds() -> Vec<(String, Vec<u8>)> {
    use smelt::jit::onnx;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/onnx");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| Some(e.ok()?.path().join("model.onnx")))
        .filter(|p| p.is_file())
        .collect();
    paths.sort();
    let mut seeds = read_all(paths);
    let cnn = onnx::decode(&std::fs::read(dir.join("cnn/model.onnx")).unwrap()).unwrap();
    let batches: Vec<_> =
        (0..4).map(|k| smelt::jit::npz::read(&dir.join(format!("cnn/calibration/{k}.npz"))).unwrap()).collect();
    let options = onnx::quantize::QuantizeOptions { backend: "interp".into(), ..Default::default() };
    let qdq = onnx::quantize::quantize(&cnn, &batches, &options).unwrap();
    seeds.push(("cnn quantized".into(), onnx::encode(&qdq.model)));
    seeds.push(("quantized operators".into(), onnx::encode(&quantized_operators())));
    seeds
}

/// A model of the integer operator forms: DynamicQuantizeLinear, QLinearConv,
/// ConvInteger, QLinearMatMul, MatMulInteger and DequantizeLinear.
fn quantized_operators() -> smelt::jit::onnx::proto::ModelProto {
    use smelt::hlo::Array;
    use smelt::jit::onnx::proto::*;
    use smelt::jit::onnx::tensor::encode;
    let node = |op: &str, inputs: &[&str], outputs: &[&str]| NodeProto {
        op_type: op.into(),
        name: outputs[0].into(),
        input: inputs.iter().map(|s| s.to_string()).collect(),
        output: outputs.iter().map(|s| s.to_string()).collect(),
        ..NodeProto::default()
    };
    let w: Vec<i8> = (0..54).map(|i| (i * 37 % 255 - 127) as i8).collect();
    let b: Vec<i8> = (0..36).map(|i| (i * 53 % 255 - 127) as i8).collect();
    let initializer = vec![
        encode("w", &Array::from_vec([3, 2, 3, 3], w)),
        encode("ws", &Array::scalar(0.02f32)),
        encode("wz", &Array::scalar(0i8)),
        encode("ys", &Array::scalar(0.3f32)),
        encode("yz", &Array::scalar(120u8)),
        encode("shape", &Array::from_vec([2], vec![3i64, 9])),
        encode("b", &Array::from_vec([9, 4], b)),
        encode("bs", &Array::from_vec([4], vec![0.01f32, 0.02, 0.03, 0.04])),
        encode("bz", &Array::from_vec([4], vec![0i8; 4])),
        encode("ms", &Array::scalar(0.5f32)),
        encode("mz", &Array::scalar(3u8)),
    ];
    let nodes = vec![
        node("DynamicQuantizeLinear", &["x"], &["xq", "xs", "xz"]),
        node("QLinearConv", &["xq", "xs", "xz", "w", "ws", "wz", "ys", "yz"], &["yq"]),
        node("ConvInteger", &["xq", "w", "xz"], &["ci"]),
        node("DequantizeLinear", &["yq", "ys", "yz"], &["y"]),
        node("Reshape", &["yq", "shape"], &["aq"]),
        node("QLinearMatMul", &["aq", "ys", "yz", "b", "bs", "bz", "ms", "mz"], &["mq"]),
        node("MatMulInteger", &["aq", "b", "yz"], &["mi"]),
    ];
    let dims = |d: &[i64]| TensorShapeProto {
        dim: d
            .iter()
            .map(|&v| tensor_shape_proto::Dimension {
                value: Some(tensor_shape_proto::dimension::Value::DimValue(v)),
                ..Default::default()
            })
            .collect(),
    };
    let x = ValueInfoProto {
        name: "x".into(),
        r#type: Some(TypeProto {
            value: Some(type_proto::Value::TensorType(type_proto::Tensor {
                elem_type: 1,
                shape: Some(dims(&[1, 2, 5, 5])),
            })),
            ..Default::default()
        }),
        ..Default::default()
    };
    let output = |n: &str| ValueInfoProto { name: n.into(), ..Default::default() };
    ModelProto {
        ir_version: 8,
        opset_import: vec![OperatorSetIdProto { domain: String::new(), version: 17 }],
        graph: Some(GraphProto {
            name: "quantized_operators".into(),
            node: nodes,
            initializer,
            input: vec![x],
            output: ["y", "ci", "mq", "mi"].iter().map(|n| output(n)).collect(),
            ..Default::default()
        }),
        ..Default::default()
    }
}

#[test]
fn the_quantized_operator_seed_runs() {
    let model = smelt::jit::onnx::encode(&quantized_operators());
    let graph = smelt::jit::onnx::from_bytes(&model).unwrap();
    let session = smelt::jit::graph::Session::new(graph, Default::default()).unwrap();
    let x = smelt::hlo::Array::from_vec([1, 2, 5, 5], (0..50).map(|i| (i as f32 - 20.0) * 0.1).collect());
    let out = session.run(&[("x", x)], &["y", "ci", "mq", "mi"]).unwrap();
    let dims: Vec<Vec<i64>> = out.iter().map(|a| a.dims.to_vec()).collect();
    assert_eq!(dims, [vec![1, 3, 3, 3], vec![1, 3, 3, 3], vec![3, 4], vec![3, 4]]);
}

/// One structural mutation of a model (an operator, an input, an attribute,
/// an initializer's shape, type or data, a graph input's shape, the opset),
/// re-encoded; or a byte mutation of the encoding.
fn mutate_onnx(bytes: &[u8], rng: &mut SplitMix) -> (Vec<u8>, String) {
    use smelt::jit::onnx;
    if rng.below(4) == 0 {
        return mutate_bytes(bytes, rng);
    }
    let mut model = onnx::decode(bytes).unwrap();
    let extremes = [0i64, -1, 1, 3, 1 << 40, i64::MAX, i64::MIN];
    let extreme = |rng: &mut SplitMix| extremes[rng.below(extremes.len())];
    let g = model.graph.get_or_insert_with(Default::default);
    let nodes = g.node.len().max(1);
    let what = match rng.below(11) {
        0 if !g.node.is_empty() => {
            let (i, j) = (rng.below(nodes), rng.below(nodes));
            g.node[i].op_type = g.node[j].op_type.clone();
            format!("node {i} takes node {j}'s operator")
        }
        1 if !g.node.is_empty() => {
            let (i, j) = (rng.below(nodes), rng.below(nodes));
            let name = ["".to_string(), "nowhere".to_string()]
                .into_iter()
                .chain(g.node[j].output.iter().cloned())
                .nth(rng.below(2 + g.node[j].output.len()))
                .unwrap_or_default();
            if g.node[i].input.is_empty() || rng.below(4) == 0 {
                g.node[i].input.push(name.clone());
            } else {
                let k = rng.below(g.node[i].input.len());
                g.node[i].input[k] = name.clone();
            }
            format!("node {i} reads '{name}'")
        }
        2 if !g.node.is_empty() => {
            let i = rng.below(nodes);
            g.node.remove(i);
            format!("remove node {i}")
        }
        3 | 4 if !g.node.is_empty() => {
            let i = rng.below(nodes);
            let Some(a) = (!g.node[i].attribute.is_empty())
                .then(|| rng.below(g.node[i].attribute.len()))
                .and_then(|k| g.node[i].attribute.get_mut(k))
            else {
                return mutate_bytes(bytes, rng);
            };
            let v = extreme(rng);
            if a.ints.is_empty() || rng.below(2) == 0 {
                a.i = v;
                a.f = v as f32;
            } else {
                let k = rng.below(a.ints.len() + 1);
                if k == a.ints.len() {
                    a.ints.push(v);
                } else {
                    a.ints[k] = v;
                }
            }
            format!("node {i} attribute '{}' -> {v}", a.name)
        }
        5 if !g.initializer.is_empty() => {
            let i = rng.below(g.initializer.len());
            let t = &mut g.initializer[i];
            let v = extreme(rng);
            let k = rng.below(t.dims.len() + 1);
            if k == t.dims.len() {
                t.dims.push(v);
            } else {
                t.dims[k] = v;
            }
            format!("initializer {i} dimension {k} -> {v}")
        }
        6 if !g.initializer.is_empty() => {
            let i = rng.below(g.initializer.len());
            let t = &mut g.initializer[i];
            let n = rng.below(t.raw_data.len().max(1));
            t.raw_data.truncate(n);
            t.float_data.truncate(n / 4);
            format!("initializer {i} data cut to {n} bytes")
        }
        7 if !g.initializer.is_empty() => {
            let i = rng.below(g.initializer.len());
            let ty = rng.below(20) as i32;
            g.initializer[i].data_type = ty;
            format!("initializer {i} data type -> {ty}")
        }
        8 if !g.input.is_empty() => {
            use smelt::jit::onnx::proto::tensor_shape_proto::dimension::Value;
            use smelt::jit::onnx::proto::type_proto::Value as Type;
            let i = rng.below(g.input.len());
            let v = extreme(rng);
            let elem = rng.below(20) as i32;
            if let Some(Type::TensorType(t)) = g.input[i].r#type.as_mut().and_then(|t| t.value.as_mut()) {
                if rng.below(3) == 0 {
                    t.elem_type = elem;
                } else if let Some(shape) = t.shape.as_mut()
                    && !shape.dim.is_empty()
                {
                    let k = rng.below(shape.dim.len());
                    shape.dim[k].value =
                        Some(if rng.below(4) == 0 { Value::DimParam("n".into()) } else { Value::DimValue(v) });
                }
            }
            format!("graph input {i} type or dimension changed ({v}, {elem})")
        }
        9 => {
            let v = [1i64, 6, 7, 12, 13, 17, 21, 22, 99][rng.below(9)];
            for o in &mut model.opset_import {
                o.version = v;
            }
            format!("opset -> {v}")
        }
        _ if !g.node.is_empty() => {
            let i = rng.below(nodes);
            let copy = g.node[i].clone();
            g.node.insert(rng.below(nodes), copy);
            format!("duplicate node {i}")
        }
        _ => return mutate_bytes(bytes, rng),
    };
    (onnx::encode(&model), what)
}

#[test]
fn mutated_onnx_models_never_panic() {
    let reached = drive("onnx_model", &onnx_seeds(), MUTATIONS, 0x0440_5eed, mutate_onnx, smelt::fuzz::onnx_model);
    let n = |r: Reached| reached.get(&r).copied().unwrap_or(0);
    assert!(n(Reached::Decode) > 100 && n(Reached::Check) > 500 && n(Reached::Through) > 500, "{reached:?}");
}

/// One mutation of a `.npy` file: its header text (shape, type, order) or its
/// bytes.
fn mutate_npy(bytes: &[u8], rng: &mut SplitMix) -> (Vec<u8>, String) {
    let Some(end) = bytes.iter().position(|&b| b == b'\n') else { return mutate_bytes(bytes, rng) };
    if rng.below(3) == 0 {
        return mutate_bytes(bytes, rng);
    }
    let header = String::from_utf8_lossy(&bytes[..end]).into_owned();
    let swaps: [(&str, &str); 12] = [
        ("<f4", "<f8"),
        ("<f4", "|b1"),
        ("<f4", ">i4"),
        ("<f4", "<U4"),
        ("<f4", "|O"),
        ("<i4", "<u2"),
        ("<i4", "<c8"),
        ("False", "True"),
        ("(", "(0, "),
        ("(", "(4294967296, 4294967296, "),
        (",)", ", -1)"),
        ("'shape'", "'shap'"),
    ];
    let (from, to) = swaps[rng.below(swaps.len())];
    let mut out = header.replacen(from, to, 1).into_bytes();
    out.extend_from_slice(&bytes[end..]);
    (out, format!("header '{from}' -> '{to}'"))
}

#[test]
fn mutated_npy_files_never_panic() {
    let mut paths: Vec<_> = corpus_cases()
        .into_iter()
        .flat_map(|c| std::fs::read_dir(c).unwrap().filter_map(|e| Some(e.ok()?.path())))
        .filter(|p| p.extension().is_some_and(|e| e == "npy") && p.metadata().is_ok_and(|m| m.len() <= 1 << 16))
        .collect();
    paths.sort();
    paths.truncate(400);
    let reached = drive("npy", &read_all(paths), MUTATIONS, 0x0e9f_5eed, mutate_npy, smelt::fuzz::npy);
    let n = |r: Reached| reached.get(&r).copied().unwrap_or(0);
    assert!(n(Reached::Decode) > 1000 && n(Reached::Through) > 1000, "{reached:?}");
}

/// Entries the JIT's disk cache wrote for three small programs.
fn cache_seeds() -> Vec<(String, Vec<u8>)> {
    let dir = tempfile::tempdir().unwrap();
    let options =
        smelt::jit::ClientOptions { cache_dir: Some(dir.path().to_path_buf()), ..smelt::jit::ClientOptions::default() };
    let client = smelt::jit::Client::with_options("cpu", options).unwrap();
    let compile = smelt::jit::CompileOptions { tiered: false, ..Default::default() };
    for (i, op) in ["negate", "exponential", "abs"].into_iter().enumerate() {
        let text = format!(
            "HloModule m{i}\nENTRY e {{\n  p = f32[{}] parameter(0)\n  ROOT r = f32[{}] {op}(p)\n}}\n",
            4 + i,
            4 + i
        );
        client.compile(&smelt::hlo::parse_module(&text).unwrap(), &compile).unwrap();
    }
    let mut paths: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "smeltc"))
        .collect();
    paths.sort();
    read_all(paths)
}

/// A byte mutation of the whole entry (the header checks catch it), or of its
/// payload with the header rewritten to match (the object reader sees it).
fn mutate_cache_entry(bytes: &[u8], rng: &mut SplitMix) -> (Vec<u8>, String) {
    let key = smelt::jit::key::Key(bytes[12..44].try_into().unwrap());
    if rng.below(2) == 0 {
        return mutate_bytes(bytes, rng);
    }
    let payload = smelt::jit::decode_cache_entry(bytes, &key).unwrap();
    // Mutations of the object code itself change nothing the reader checks:
    // aim at the structured fields around it.
    let (mutated, what) = mutate_bytes(payload, rng);
    (smelt::jit::encode_cache_entry(&key, &mutated), format!("payload: {what}"))
}

#[test]
fn mutated_cache_entries_never_panic() {
    let seeds = cache_seeds();
    assert_eq!(seeds.len(), 3, "one entry per program");
    let reached = drive("cache_entry", &seeds, MUTATIONS, 0xcace_5eed, mutate_cache_entry, smelt::fuzz::cache_entry);
    let n = |r: Reached| reached.get(&r).copied().unwrap_or(0);
    assert!(n(Reached::Decode) > 1000 && n(Reached::Check) > 500 && n(Reached::Through) > 100, "{reached:?}");
}

#[test]
fn tokens_join_back_to_the_text() {
    let text = "  x.1 = f32[4,8]{1,0} add(a, b), metadata={op_name=\"a b\"}\n";
    assert_eq!(tokens(text).concat(), text);
}

/// Every input a fuzzer once crashed on (`tests/fuzz/<door>/`, one file each,
/// named for the bug) goes through its door again.
#[test]
fn inputs_that_once_crashed_replay_cleanly() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz");
    let doors: [(&str, fn(&[u8]) -> Reached); 6] = [
        ("hlo_text", smelt::fuzz::hlo_text),
        ("stablehlo_text", smelt::fuzz::stablehlo_text),
        ("hlo_proto", smelt::fuzz::hlo_proto),
        ("onnx_model", smelt::fuzz::onnx_model),
        ("npy", smelt::fuzz::npy),
        ("cache_entry", smelt::fuzz::cache_entry),
    ];
    let mut replayed = 0;
    for (door, run) in doors {
        let Ok(entries) = std::fs::read_dir(root.join(door)) else { continue };
        for entry in entries {
            let path = entry.unwrap().path();
            let bytes = std::fs::read(&path).unwrap();
            let outcome = catch_unwind(AssertUnwindSafe(|| run(&bytes)));
            assert!(outcome.is_ok(), "{door}: {} panics again", path.display());
            replayed += 1;
        }
    }
    assert!(replayed >= 1, "no regression inputs under {}", root.display());
}
