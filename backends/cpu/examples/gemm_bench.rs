//! GFLOP/s of the generated f32 GEMM on the shapes of `docs/benchmarks.md`, best of
//! several runs, with the in-process thread pool of `smelt_cpu::jit` (one thread
//! per core). `scripts/sgemm-openblas.py` measures OpenBLAS on the same shapes.
//!
//! `cargo run --release -p smelt-cpu --example gemm_bench [-- SECONDS_PER_SHAPE [asm]]`
//! (`SMELT_BENCH_SERIAL=1`: one thread; `SMELT_BENCH_ONLY=label`: one shape;
//! `SMELT_BENCH_SHAPE=m,n,k`: that shape instead of the table's;
//! `SMELT_BENCH_COLD=N`: each call reads the next of `N` copies of A, so
//! that a layer's weights come from memory as in a model;
//! `SMELT_BENCH_COLD_B=N`: the same for B, a layer's activations;
//! `SMELT_BENCH_COLD_C=N`: the same for C, the memory a layer writes;
//! `SMELT_PERF_MAP=1`: the routine's external functions in `/tmp/perf-PID.map`
//! for `perf report`.)

mod common;

use std::ffi::c_void;
use std::time::Instant;

use inkwell::context::Context;
use inkwell::targets::FileType;
use smelt_cpu::gemm::{GemmSpec, gemm_function};
use smelt_cpu::jit::{self, Runtime};
use smelt_hlo::DType;

type GemmFn = unsafe extern "C" fn(*const f32, *const f32, *mut f32, i64, i64, i64, i64, *const c_void, *mut c_void);

/// (label, batch, m, n, k, rhs transposed)
const SHAPES: &[(&str, i64, i64, i64, i64, bool)] = &[
    ("256^3", 1, 256, 256, 256, false),
    ("512^3", 1, 512, 512, 512, false),
    ("1024^3", 1, 1024, 1024, 1024, false),
    ("2048^3", 1, 2048, 2048, 2048, false),
    ("4096^3", 1, 4096, 4096, 4096, false),
    ("[1024,768]x[768,768]", 1, 1024, 768, 768, false),
    ("[1024,768]x[768,3072]", 1, 1024, 3072, 768, false),
    ("[1024,3072]x[3072,768]", 1, 1024, 768, 3072, false),
    ("[96,128,64]x[96,64,128]", 96, 128, 128, 64, false),
    ("[96,128,64]x[96,128,64]^T", 96, 128, 128, 64, true),
    ("[4096,4096]x[4096,1]", 1, 4096, 1, 4096, false),
    ("[1,4096]x[4096,4096]", 1, 1, 4096, 4096, false),
    ("[256,64]x[64,1]", 1, 256, 1, 64, false),
    ("[1024,784]x[784,256]", 1, 1024, 256, 784, false),
    ("[4096,784]x[784,10]", 1, 4096, 10, 784, false),
    ("[4096,784]x[10,784]^T", 1, 4096, 10, 784, true),
    ("[8192,512]x[512,4]", 1, 8192, 4, 512, false),
    ("[2048,1024]x[1024,16]", 1, 2048, 16, 1024, false),
    ("[2048,1024]x[1024,24]", 1, 2048, 24, 1024, false),
];

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seconds: f64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1.0);
    let cx = Context::create();
    let module = cx.create_module("bench");
    let tm = jit::host_target_machine().expect("host target");
    jit::prepare_module(&module, &tm);
    let specs = [false, true].map(|rt| GemmSpec {
        lhs: DType::F32,
        rhs: DType::F32,
        out: DType::F32,
        lhs_transposed: false,
        rhs_transposed: rt,
    });
    for s in &specs {
        gemm_function(&module, &tm, s).expect("gemm");
    }
    let t0 = Instant::now();
    let runtime = if std::env::var("SMELT_BENCH_SERIAL").is_ok() { Runtime::Serial } else { Runtime::Pool };
    let ee = smelt_cpu::routine_engine(&module, &tm, runtime).expect("jit");
    if args.get(2).map(String::as_str) == Some("asm") {
        let buf = tm.write_to_memory_buffer(&module, FileType::Assembly).expect("asm");
        std::fs::write("/tmp/smelt_gemm.s", buf.as_slice()).expect("write asm");
        eprintln!("assembly in /tmp/smelt_gemm.s");
    }
    let fns: Vec<GemmFn> = specs
        .iter()
        .map(|s| unsafe { std::mem::transmute::<usize, GemmFn>(ee.get_function_address(&s.symbol()).expect("symbol")) })
        .collect();
    if std::env::var_os("SMELT_PERF_MAP").is_some() {
        write_perf_map(&module, &ee);
    }
    eprintln!("compiled in {:.0} ms", t0.elapsed().as_secs_f64() * 1e3);
    println!("| shape | smelt GFLOP/s |");
    println!("|---|---:|");
    let custom = std::env::var("SMELT_BENCH_SHAPE").ok().map(|v| {
        let d: Vec<i64> = v.split(',').map(|x| x.trim().parse().expect("SMELT_BENCH_SHAPE=m,n,k")).collect();
        assert!(d.len() == 3, "SMELT_BENCH_SHAPE=m,n,k");
        let label: &'static str = Box::leak(format!("[{},{}]x[{},{}]", d[0], d[2], d[2], d[1]).into_boxed_str());
        (label, 1, d[0], d[1], d[2], false)
    });
    let shapes: Vec<_> = custom.map_or_else(|| SHAPES.to_vec(), |c| vec![c]);
    for &(label, batch, m, n, k, rt) in &shapes {
        if std::env::var("SMELT_BENCH_ONLY").is_ok_and(|o| o != label) {
            continue;
        }
        let f = fns[rt as usize];
        let copies = common::copies("SMELT_BENCH_COLD");
        let a_len = (batch * m * k) as usize;
        let a: Vec<f32> = (0..a_len * copies).map(|i| ((i * 7 % 13) as f32 - 6.0) / 8.0).collect();
        let b_copies = common::copies("SMELT_BENCH_COLD_B");
        let b_len = (batch * k * n) as usize;
        let b: Vec<f32> = (0..b_len * b_copies).map(|i| ((i * 5 % 11) as f32 - 5.0) / 8.0).collect();
        let c_copies = common::copies("SMELT_BENCH_COLD_C");
        let c_len = (batch * m * n) as usize;
        let mut c = vec![0f32; c_len * c_copies];
        let (mut next, mut next_b, mut next_c) = (0, 0, 0);
        let mut run = |c: &mut [f32]| unsafe {
            let ap = a.as_ptr().add(next * a_len);
            let bp = b.as_ptr().add(next_b * b_len);
            let cp = c.as_mut_ptr().add(next_c * c_len);
            next = (next + 1) % copies;
            next_b = (next_b + 1) % b_copies;
            next_c = (next_c + 1) % c_copies;
            f(ap, bp, cp, batch, m, n, k, std::ptr::null(), std::ptr::null_mut())
        };
        run(&mut c);
        let flops = 2.0 * (batch * m * n * k) as f64;
        let best = common::best_time(3, seconds, || run(&mut c));
        println!("| {label} | {:.1} |", flops / best.as_secs_f64() / 1e9);
    }
}

/// Appends the module's functions that the engine can find (external ones) to
/// `/tmp/perf-PID.map`, sized to the next one.
fn write_perf_map(module: &inkwell::module::Module<'_>, ee: &inkwell::execution_engine::ExecutionEngine<'_>) {
    use std::io::Write;
    let mut at = Vec::new();
    let mut next = module.get_first_function();
    while let Some(f) = next {
        let name = f.get_name().to_string_lossy().into_owned();
        if f.count_basic_blocks() > 0
            && let Ok(a) = ee.get_function_address(&name)
        {
            at.push((a, name));
        }
        next = f.get_next_function();
    }
    at.sort();
    let path = format!("/tmp/perf-{}.map", std::process::id());
    let mut file = std::fs::OpenOptions::new().create(true).append(true).open(path).expect("perf map");
    for (i, (a, name)) in at.iter().enumerate() {
        let size = at.get(i + 1).map_or(1 << 16, |n| n.0 - a);
        writeln!(file, "{a:x} {size:x} {name}").expect("perf map");
    }
}
