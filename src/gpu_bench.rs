//! `smelt gpu-bench`: the device figures `scripts/gpu-check.sh` records.
//!
//! Bandwidth: `benches/elementwise_chain` (`relu(x * y + z) * 0.5 - x`,
//! fused into one kernel) widened to `--gib` GiB per array, timed with its
//! arguments on the device, beside a device-to-device copy of one array
//! (reads and writes as many bytes per element as the copy's two). GEMM: an
//! f32 `dot` of two `--gemm`-square matrices through smelt (a cuBLAS call
//! plus the executable's step driver) beside cuBLAS's SGEMM called directly.

use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use smelt::engine::{Compiled, Pipeline};
use smelt::hlo::{Array, ArrayData};

const CHAIN: &str = include_str!("../benches/elementwise_chain/module.hlo");

/// The compiled module and the GPU executable inside it (for device timers).
struct GpuModule(Compiled);

impl GpuModule {
    fn exe(&self) -> Result<&smelt::gpu::Executable> {
        let exe = self.0.executable().and_then(|e| e.downcast_ref::<smelt::gpu::Executable>());
        exe.context("not a GPU executable")
    }
}

fn compile_gpu(text: &str) -> Result<GpuModule> {
    let module = smelt::hlo::parse_module(text).context("benchmark module")?;
    Ok(GpuModule(Compiled::new(module, "gpu", Pipeline::Default)?))
}

fn filled(dims: &[i64], v: f32) -> Array {
    let n: i64 = dims.iter().product();
    Array::new(dims, ArrayData::F32(vec![v; n as usize]))
}

pub fn run(gib: f64, gemm: i64, runs: usize, json: Option<&Path>) -> Result<ExitCode> {
    if !smelt::gpu::driver_available() {
        bail!("{}", smelt::gpu::GpuError::NoDriver);
    }
    // Bandwidth: the chain over `rows x 4096` f32 arrays.
    let rows = ((gib * (1u64 << 30) as f64) / (4.0 * 4096.0)).round().max(1.0) as i64;
    let dims = [rows, 4096];
    let bytes = (rows * 4096 * 4) as f64;
    let text = CHAIN
        .lines()
        .map(|l| {
            if l.starts_with("HloModule") {
                "HloModule elementwise_chain".to_string()
            } else {
                l.replace("4096,4096", &format!("{rows},4096"))
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    eprintln!("gpu-bench: compiling the elementwise chain over 3 x {:.2} GiB", bytes / (1u64 << 30) as f64);
    let t = std::time::Instant::now();
    let chain_module = compile_gpu(&text)?;
    let chain = chain_module.exe()?;
    let chain_compile_ms = t.elapsed().as_secs_f64() * 1e3;
    eprintln!("gpu-bench: device {}", chain.device());
    let args = [filled(&dims, 1.5), filled(&dims, 2.0), filled(&dims, -0.5)];
    let chain_s = chain.time_device(&args, runs)?;
    drop(args);
    let chain_gbs = 4.0 * bytes / chain_s / 1e9;
    let copy_s = smelt::gpu::bench::copy_seconds(bytes as usize, runs)?;
    let copy_gbs = 2.0 * bytes / copy_s / 1e9;

    // GEMM through smelt and through cuBLAS directly.
    let g = gemm;
    let text = format!(
        "HloModule sgemm\nENTRY main {{\n  a = f32[{g},{g}]{{1,0}} parameter(0)\n  b = f32[{g},{g}]{{1,0}} parameter(1)\n  ROOT c = f32[{g},{g}]{{1,0}} dot(a, b), lhs_contracting_dims={{1}}, rhs_contracting_dims={{0}}\n}}\n"
    );
    eprintln!("gpu-bench: {g}^3 f32 GEMM");
    let sgemm_module = compile_gpu(&text)?;
    let sgemm = sgemm_module.exe()?;
    let args = [filled(&[g, g], 0.5), filled(&[g, g], 0.25)];
    let smelt_s = sgemm.time_device(&args, runs)?;
    let cublas_s = smelt::gpu::bench::cublas_sgemm_seconds(g, runs)?;
    let flops = 2.0 * (g as f64).powi(3);

    println!("device: {}", chain.device());
    println!(
        "elementwise chain, 3 x {:.2} GiB in, {:.2} GiB out: {:.3} ms = {:.1} GB/s; device copy: {:.3} ms = {:.1} GB/s; chain/copy {:.0}%",
        bytes / (1u64 << 30) as f64,
        bytes / (1u64 << 30) as f64,
        chain_s * 1e3,
        chain_gbs,
        copy_s * 1e3,
        copy_gbs,
        100.0 * chain_gbs / copy_gbs
    );
    println!(
        "GEMM {g}^3 f32: smelt {:.3} ms = {:.1} TFLOP/s; cuBLAS directly {:.3} ms = {:.1} TFLOP/s; smelt/cuBLAS time {:.3}",
        smelt_s * 1e3,
        flops / smelt_s / 1e12,
        cublas_s * 1e3,
        flops / cublas_s / 1e12,
        smelt_s / cublas_s
    );
    if let Some(path) = json {
        let v = serde_json::json!({
            "device": chain.device(),
            "chain": {"bytes_per_array": bytes, "ms": chain_s * 1e3, "gb_s": chain_gbs, "compile_ms": chain_compile_ms},
            "copy": {"bytes": bytes, "ms": copy_s * 1e3, "gb_s": copy_gbs},
            "gemm": {"n": g, "smelt_ms": smelt_s * 1e3, "cublas_ms": cublas_s * 1e3,
                     "smelt_tflop_s": flops / smelt_s / 1e12, "cublas_tflop_s": flops / cublas_s / 1e12},
            "runs": runs,
        });
        std::fs::write(path, serde_json::to_string_pretty(&v)?)
            .with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(ExitCode::SUCCESS)
}
