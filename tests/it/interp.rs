//! Corpus conformance of the reference interpreter: every case's module, run on
//! its stored inputs, reproduces the outputs XLA CPU computed, within the case's
//! per-output tolerance. Failures are collected over all cases and reported
//! together, each with its first mismatch.

use std::path::Path;

use smelt_hlo::{Array, DType, Literal, npy, parse_module};

use crate::common::{check_every_case, corpus_cases};

fn dtype_of(v: &serde_json::Value) -> Result<DType, String> {
    let name = v["dtype"].as_str().ok_or("dtype missing in case.json")?;
    name.parse().map_err(|()| format!("unknown dtype {name} in case.json"))
}

/// The first element where `got` and `want` differ beyond tolerance.
fn first_mismatch(got: &Array, want: &Array, rtol: f64, atol: f64) -> Option<String> {
    if got.dtype() != want.dtype() || got.dims != want.dims {
        return Some(format!("got {}, want {}", got.shape(), want.shape()));
    }
    let float = want.dtype().is_float();
    for i in 0..want.len() {
        let (g, w) = (got.data.get_f64(i), want.data.get_f64(i));
        let ok = if !float {
            g == w
        } else if w.is_nan() || g.is_nan() {
            w.is_nan() && g.is_nan()
        } else if w.is_infinite() || g.is_infinite() {
            g == w
        } else {
            (g - w).abs() <= atol + rtol * w.abs()
        };
        if !ok {
            return Some(format!("index {i}: got {g}, want {w}"));
        }
    }
    // Integers beyond 2^53 are not exact as f64; compare the data itself too.
    (!float && got.data != want.data).then(|| "integer data differs".to_string())
}

/// Runs one case's `file` (module.hlo, module.opt.hlo, module.stablehlo.mlir or
/// module.pb, read in the format its content shows) and compares every output.
fn check_case(case: &Path, file: &str) -> Result<(), String> {
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(case.join("case.json")).map_err(|e| e.to_string())?)
            .map_err(|e| e.to_string())?;
    let bytes = std::fs::read(case.join(file)).map_err(|e| e.to_string())?;
    let module = smelt::formats::read_module(&bytes, None).map_err(|e| e.render(file))?;
    smelt_hlo::verify(&module).map_err(|e| format!("{file}: {e}"))?;
    let inputs = meta["inputs"].as_array().ok_or("inputs missing")?;
    let mut args = Vec::with_capacity(inputs.len());
    for (i, input) in inputs.iter().enumerate() {
        let a = npy::read(&case.join(format!("in{i}.npy")), Some(dtype_of(input)?)).map_err(|e| e.to_string())?;
        args.push(Literal::Array(a));
    }
    let result = smelt_interp::evaluate(&module, &args).map_err(|e| e.to_string())?;
    let outputs = meta["outputs"].as_array().ok_or("outputs missing")?;
    let got: Vec<Literal> = if meta["result_is_tuple"].as_bool() == Some(true) {
        match result {
            Literal::Tuple(t) => t,
            Literal::Array(_) => return Err("expected a tuple result".into()),
        }
    } else {
        vec![result]
    };
    if got.len() != outputs.len() {
        return Err(format!("{} outputs, want {}", got.len(), outputs.len()));
    }
    for (k, (g, spec)) in got.iter().zip(outputs).enumerate() {
        let want = npy::read(&case.join(format!("out{k}.npy")), Some(dtype_of(spec)?)).map_err(|e| e.to_string())?;
        let Literal::Array(g) = g else {
            return Err(format!("output {k} is a tuple"));
        };
        let rtol = spec["rtol"].as_f64().unwrap_or(0.0);
        let atol = spec["atol"].as_f64().unwrap_or(0.0);
        if let Some(m) = first_mismatch(g, &want, rtol, atol) {
            return Err(format!("output {k}: {m}"));
        }
    }
    Ok(())
}

fn check_corpus(file: &str) {
    check_every_case(&format!("/{file}"), |case| check_case(case, file));
}

#[test]
fn every_corpus_case_matches_xla() {
    check_corpus("module.hlo");
}

#[test]
fn every_optimized_corpus_case_matches_xla() {
    check_corpus("module.opt.hlo");
}

/// The StableHLO each case was lowered from, read by smelt's own importer.
#[test]
fn every_stablehlo_corpus_case_matches_xla() {
    check_corpus("module.stablehlo.mlir");
}

/// XLA's serialized HloModuleProto of each case.
#[test]
fn every_proto_corpus_case_matches_xla() {
    check_corpus("module.pb");
}

/// One small corruption of an instruction, as an unverified module may carry.
fn mutate(inst: &mut smelt_hlo::Instruction, kind: usize) -> bool {
    use smelt_hlo::{Attrs, Shape};
    match kind {
        0 => match &mut inst.shape {
            Shape::Array(a) if !a.dims.is_empty() => a.dims[0] += 1,
            _ => return false,
        },
        1 if inst.operands.len() >= 2 => inst.operands.reverse(),
        2 => match &mut inst.attrs {
            Attrs::Dimensions(d) if !d.is_empty() => d[0] += 1,
            Attrs::Window(w) if !w.dims.is_empty() => {
                w.dims[0].pad_low -= 3;
                w.dims[0].stride += 1;
            }
            Attrs::Gather(g) => g.index_vector_dim += 1,
            Attrs::Scatter(s) => s.index_vector_dim -= 1,
            Attrs::Slice(s) if !s.is_empty() => s[0].limit += 1,
            Attrs::Dot(d) if !d.lhs_contracting.is_empty() => d.lhs_contracting[0] += 1,
            Attrs::Convolution(c) => c.feature_group_count += 1,
            Attrs::Sort { dimension, .. } => *dimension += 1,
            Attrs::GetTupleElement { index } => *index += 7,
            Attrs::Iota { dimension } => *dimension += 1,
            Attrs::Pad(p) if !p.is_empty() => p[0].low -= 100,
            _ => return false,
        },
        3 => match &mut inst.shape {
            Shape::Array(a) => a.dtype = if a.dtype == DType::F32 { DType::S32 } else { DType::F32 },
            Shape::Tuple(_) => return false,
        },
        _ => return false,
    }
    true
}

/// The interpreter takes unverified modules: corrupted shapes, operands and
/// attributes give results or errors, never panics (a sample of instructions of
/// every corpus module, optimized ones included).
#[test]
fn corrupted_corpus_modules_fail_cleanly() {
    let options = smelt_interp::Options { max_while_iterations: Some(1000), ..Default::default() };
    let mut panics = Vec::new();
    let mut seen = 0usize;
    for case in corpus_cases() {
        let meta: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(case.join("case.json")).unwrap()).unwrap();
        let args: Vec<Literal> = meta["inputs"]
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
            .map(|(i, input)| {
                let a = npy::read(&case.join(format!("in{i}.npy")), Some(dtype_of(input).unwrap()));
                Literal::Array(a.unwrap())
            })
            .collect();
        for file in ["module.hlo", "module.opt.hlo"] {
            let module = parse_module(&std::fs::read_to_string(case.join(file)).unwrap()).unwrap();
            for c in module.comps.ids() {
                for id in module.comp(c).insts.ids() {
                    seen += 1;
                    // Every eighth instruction keeps the test fast; all four corruptions each.
                    if !seen.is_multiple_of(8) {
                        continue;
                    }
                    for kind in 0..4 {
                        let mut m = module.clone();
                        if !mutate(m.comp_mut(c).inst_mut(id), kind) {
                            continue;
                        }
                        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                            smelt_interp::evaluate_with(&m, m.entry, &args, &options)
                        }));
                        if run.is_err() {
                            let inst = &m.comp(c).insts[id];
                            panics.push(format!("{}/{file}: '{}' corruption {kind}", case.display(), inst.name));
                        }
                    }
                }
            }
        }
    }
    assert!(panics.is_empty(), "panics:\n{}", panics.join("\n"));
}
