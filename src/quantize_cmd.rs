//! `smelt quantize`: post-training int8 quantization of an ONNX model
//! (`smelt_jit::onnx::quantize`): calibration batches in, a QDQ model out,
//! and with `--report` each layer's ranges and the output error against the
//! float model.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result, anyhow, bail};
use smelt::hlo::{Array, ArrayData};
use smelt::jit::graph::{Session, SessionOptions};
use smelt::jit::onnx::{self, quantize};

/// The calibration batches: every `.npz` in `dir`, in name order.
fn batches(dir: &Path, inputs: &[String]) -> Result<Vec<Vec<(String, Array)>>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("--calibration {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "npz"))
        .collect();
    files.sort();
    if files.is_empty() {
        bail!("--calibration {}: no .npz files (one batch each, mapping graph input names to arrays)", dir.display());
    }
    let mut out = Vec::with_capacity(files.len());
    for f in &files {
        let batch = smelt::jit::npz::read(f).map_err(|e| anyhow!(e))?;
        for (name, _) in &batch {
            if !inputs.contains(name) {
                bail!("{}: '{name}' is not a graph input (inputs: {})", f.display(), inputs.join(", "));
            }
        }
        for name in inputs {
            if !batch.iter().any(|(n, _)| n == name) {
                bail!("{}: no array for graph input '{name}'", f.display());
            }
        }
        out.push(batch);
    }
    Ok(out)
}

fn f32s(a: &Array) -> Option<&[f32]> {
    match &a.data {
        ArrayData::F32(v) => Some(v),
        _ => None,
    }
}

pub fn cmd_quantize(
    model_path: &Path,
    calibration: &Path,
    output: &Path,
    options: &quantize::QuantizeOptions,
    report: bool,
) -> Result<()> {
    let bytes = std::fs::read(model_path).with_context(|| format!("cannot read {}", model_path.display()))?;
    let model = onnx::decode(&bytes).map_err(|e| anyhow!("{}: {e}", model_path.display()))?;
    let graph = onnx::import(&model).map_err(|e| anyhow!("{}: {e}", model_path.display()))?;
    let batches = batches(calibration, &graph.inputs)?;
    eprintln!(
        "calibrating {} on {} batch{} ({}, {} backend)...",
        model_path.display(),
        batches.len(),
        if batches.len() == 1 { "" } else { "es" },
        options.calibration,
        options.backend
    );
    let start = Instant::now();
    let q = quantize::quantize(&model, &batches, options).map_err(|e| anyhow!("{}: {e}", model_path.display()))?;
    let out = onnx::encode(&q.model);
    std::fs::write(output, &out).with_context(|| format!("cannot write {}", output.display()))?;
    let count = |op: &str| q.plan.layers.iter().filter(|l| l.op == op).count();
    println!(
        "quantized {} layers (Conv {}, MatMul {}, Gemm {}) and {} activations in {:.1} s: {:.2} MB -> {:.2} MB, wrote {}",
        q.plan.layers.len(),
        count("Conv"),
        count("MatMul"),
        count("Gemm"),
        q.plan.activations.len(),
        start.elapsed().as_secs_f64(),
        bytes.len() as f64 / 1e6,
        out.len() as f64 / 1e6,
        output.display()
    );
    if report {
        print_report(&q, &model, &batches, &options.backend)?;
    }
    Ok(())
}

fn print_report(
    q: &quantize::Quantized,
    float: &onnx::proto::ModelProto,
    batches: &[Vec<(String, Array)>],
    backend: &str,
) -> Result<()> {
    println!(
        "\n{:<28} {:<7} {:>24} {:>24} {:>21}",
        "layer", "op", "input range (seen)", "output range (seen)", "weight scales"
    );
    let fmt = |t: &str| q.ranges.get(t).map_or("-".to_string(), |r| format!("[{:.3}, {:.3}]", r.min, r.max));
    for (layer, (_, lo, hi)) in q.plan.layers.iter().zip(&q.weight_scales) {
        let name: String = layer.name.chars().take(28).collect();
        println!(
            "{name:<28} {:<7} {:>24} {:>24} {:>21}",
            layer.op,
            fmt(&layer.activations[0].1),
            fmt(&layer.output),
            format!("{lo:.2e}..{hi:.2e}")
        );
    }
    let clipped: Vec<&String> = q.ranges.iter().filter(|(_, r)| r.lo > r.min || r.hi < r.max).map(|(t, _)| t).collect();
    if !clipped.is_empty() {
        println!("{} activations clip outliers (range narrower than seen)", clipped.len());
    }
    // The output error on the calibration batches.
    let options = SessionOptions { backend: backend.to_string(), ..SessionOptions::default() };
    let fs = Session::new(onnx::import(float)?, options.clone())?;
    let qs = Session::new(onnx::import(&q.model)?, options)?;
    let outputs = fs.graph().outputs.clone();
    let fetches: Vec<&str> = outputs.iter().map(String::as_str).collect();
    let mut err = vec![(0f64, 0f64, 0f32); outputs.len()];
    for batch in batches {
        let feeds: Vec<(&str, Array)> = batch.iter().map(|(n, a)| (n.as_str(), a.clone())).collect();
        let (fo, qo) = (fs.run(&feeds, &fetches)?, qs.run(&feeds, &fetches)?);
        for (k, (f, g)) in fo.iter().zip(&qo).enumerate() {
            let (Some(f), Some(g)) = (f32s(f), f32s(g)) else { continue };
            for (&a, &b) in f.iter().zip(g) {
                err[k].0 += ((a - b) as f64).powi(2);
                err[k].1 += (a as f64).powi(2);
                err[k].2 = err[k].2.max((a - b).abs());
            }
        }
    }
    println!("\noutput error against the float model ({} calibration batches):", batches.len());
    for (name, (d, n, m)) in outputs.iter().zip(err) {
        let rel = if n > 0.0 { (d / n).sqrt() } else { d.sqrt() };
        println!("  {name}: relative L2 {rel:.4}, max |diff| {m:.4}");
    }
    Ok(())
}
