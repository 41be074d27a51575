//! Time of the generated convolutions on the corpus shapes and a few larger
//! ones, best of several runs, with the in-process pool (one thread per core).
//!
//! `cargo run --release -p smelt-cpu --example conv_bench [-- SECONDS_PER_SHAPE]`
//! (`SMELT_BENCH_NCHW=ci,co,size,kernel,stride,pad`: that NCHW convolution
//! at batch 1 instead of the table; `SMELT_BENCH_NHWC=...`: the same layer
//! in NHWC with an HWIO kernel; `SMELT_BENCH_COLD=N`: each call reads
//! the next of `N` copies of the kernel, so that its weights come from
//! memory as a model's do, once per image; `SMELT_BENCH_COLD_X=N`: the
//! same for the input, an activation that the layer before left in memory.)

mod common;

use std::ffi::c_void;

use inkwell::context::Context;
use smelt_cpu::conv::{ConvSpec, ConvStrategy, conv_function_using, conv_strategy, conv_strategy_applies};
use smelt_cpu::jit::{self, Runtime};
use smelt_hlo::attrs::ConvDims;
use smelt_kernel::ir::WindowSpec;

type ConvFn = unsafe extern "C" fn(*const f32, *const f32, *mut f32, *const c_void, *mut c_void);

fn nhwc(input: [i64; 4], kernel: [i64; 4], size: i64, stride: i64, pad: (i64, i64), groups: i64) -> ConvSpec {
    let w = WindowSpec { size, stride, pad_low: pad.0, pad_high: pad.1, window_dilation: 1, base_dilation: 1 };
    let dims = ConvDims::from_labels("b01f_01io->b01f").expect("NHWC labels");
    ConvSpec::f32(&input, &kernel, dims, vec![w; 2], groups)
}

fn nchw(input: [i64; 4], kernel: [i64; 4], size: i64, stride: i64, pad: (i64, i64)) -> ConvSpec {
    let w = WindowSpec { size, stride, pad_low: pad.0, pad_high: pad.1, window_dilation: 1, base_dilation: 1 };
    let dims = ConvDims::from_labels("bf01_oi01->bf01").expect("NCHW labels");
    ConvSpec::f32(&input, &kernel, dims, vec![w; 2], 1)
}

fn main() {
    let seconds: f64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0.5);
    let mut cases: Vec<(String, ConvSpec)> = vec![
        ("conv2d_nhwc 3x3 s2 [2,16,16,3]->8".into(), nhwc([2, 16, 16, 3], [3, 3, 3, 8], 3, 2, (0, 1), 1)),
        ("conv2d_nhwc 1x1 [2,16,16,3]->32".into(), nhwc([2, 16, 16, 3], [1, 1, 3, 32], 1, 1, (0, 0), 1)),
        ("conv_depthwise 3x3 [2,16,16,8]".into(), nhwc([2, 16, 16, 8], [3, 3, 1, 8], 3, 1, (1, 1), 8)),
        ("conv_depthwise 5x5 s2 [2,16,16,8]x2".into(), nhwc([2, 16, 16, 8], [5, 5, 1, 16], 5, 2, (1, 2), 8)),
        ("cnn_forward 3x3 [2,14,14,8]->16".into(), nhwc([2, 14, 14, 8], [3, 3, 8, 16], 3, 1, (1, 1), 1)),
        ("convlstm 3x3 [2,8,8,11]->32".into(), nhwc([2, 8, 8, 11], [3, 3, 11, 32], 3, 1, (1, 1), 1)),
        ("resnet 3x3 [8,56,56,64]->64".into(), nhwc([8, 56, 56, 64], [3, 3, 64, 64], 3, 1, (1, 1), 1)),
        ("resnet 3x3 s2 [8,56,56,64]->128".into(), nhwc([8, 56, 56, 64], [3, 3, 64, 128], 3, 2, (1, 1), 1)),
        ("resnet 1x1 [8,56,56,256]->64".into(), nhwc([8, 56, 56, 256], [1, 1, 256, 64], 1, 1, (0, 0), 1)),
        ("mobilenet depthwise 3x3 [8,112,112,32]".into(), nhwc([8, 112, 112, 32], [3, 3, 1, 32], 3, 1, (1, 1), 32)),
    ];
    // ONNX ResNet-50's NCHW layers at batch 1.
    cases.extend([
        ("resnet nchw 7x7 s2 [1,3,224,224]->64".into(), nchw([1, 3, 224, 224], [64, 3, 7, 7], 7, 2, (3, 3))),
        ("resnet nchw 3x3 [1,64,56,56]->64".into(), nchw([1, 64, 56, 56], [64, 64, 3, 3], 3, 1, (1, 1))),
        ("resnet nchw 3x3 [1,256,14,14]->256".into(), nchw([1, 256, 14, 14], [256, 256, 3, 3], 3, 1, (1, 1))),
        ("resnet nchw 3x3 [1,512,7,7]->512".into(), nchw([1, 512, 7, 7], [512, 512, 3, 3], 3, 1, (1, 1))),
        ("resnet nchw 3x3 s2 [1,128,56,56]->128".into(), nchw([1, 128, 56, 56], [128, 128, 3, 3], 3, 2, (1, 1))),
    ]);
    // The corpus's conv2d_grad pair.
    let mut grad_in = nhwc([2, 4, 4, 4], [3, 3, 3, 4], 3, 1, (2, 1), 1);
    grad_in.dims.kernel_input_feature = 3;
    grad_in.dims.kernel_output_feature = 2;
    for w in &mut grad_in.window {
        w.base_dilation = 2;
    }
    cases.push(("conv2d_grad input (lhs_dilate 2)".into(), grad_in));
    let mut grad_k = nhwc([2, 8, 8, 3], [2, 4, 4, 4], 4, 1, (0, 1), 1);
    grad_k.dims = ConvDims {
        input_batch: 3,
        input_feature: 0,
        input_spatial: [1, 2].into_iter().collect(),
        kernel_input_feature: 0,
        kernel_output_feature: 3,
        kernel_spatial: [1, 2].into_iter().collect(),
        output_batch: 2,
        output_feature: 3,
        output_spatial: [0, 1].into_iter().collect(),
    };
    for w in &mut grad_k.window {
        w.window_dilation = 2;
    }
    cases.push(("conv2d_grad kernel (f01b_i01o->01bf)".into(), grad_k));

    if let Ok(v) = std::env::var("SMELT_BENCH_NCHW") {
        let n: Vec<i64> =
            v.split(',').map(|x| x.trim().parse().expect("SMELT_BENCH_NCHW: ci,co,size,kernel,stride,pad")).collect();
        let [ci, co, size, k, stride, pad] = n[..] else { panic!("SMELT_BENCH_NCHW: ci,co,size,kernel,stride,pad") };
        let label = format!("nchw {k}x{k} s{stride} [1,{ci},{size},{size}]->{co}");
        cases = vec![(label, nchw([1, ci, size, size], [co, ci, k, k], k, stride, (pad, pad)))];
    }
    if let Ok(v) = std::env::var("SMELT_BENCH_NHWC") {
        let n: Vec<i64> =
            v.split(',').map(|x| x.trim().parse().expect("SMELT_BENCH_NHWC: ci,co,size,kernel,stride,pad")).collect();
        let [ci, co, size, k, stride, pad] = n[..] else { panic!("SMELT_BENCH_NHWC: ci,co,size,kernel,stride,pad") };
        let label = format!("nhwc {k}x{k} s{stride} [1,{size},{size},{ci}]->{co}");
        cases = vec![(label, nhwc([1, size, size, ci], [k, k, ci, co], k, stride, (pad, pad), 1))];
    }
    let cx = Context::create();
    let module = cx.create_module("conv_bench");
    let tm = jit::host_target_machine().expect("host target");
    jit::prepare_module(&module, &tm);
    for (_, s) in &cases {
        for strategy in ConvStrategy::ALL {
            if conv_strategy_applies(s, strategy).expect("spec") {
                conv_function_using(&module, &tm, s, strategy).expect("conv");
            }
        }
    }
    let ee = smelt_cpu::routine_engine(&module, &tm, Runtime::Pool).expect("jit");
    let names: Vec<&str> = ConvStrategy::ALL.iter().map(|s| s.name()).collect();
    println!("| convolution | {} | chosen | GFLOP/s (chosen) |", names.join(" | "));
    println!("|---|{}---|---:|", "---:|".repeat(names.len()));
    for (label, spec) in &cases {
        let chosen = conv_strategy(spec).expect("strategy");
        let mut cells = Vec::new();
        let mut chosen_gflops = 0.0;
        for strategy in ConvStrategy::ALL {
            if !conv_strategy_applies(spec, strategy).expect("spec") {
                cells.push("–".to_string());
                continue;
            }
            let name = format!("{}_{}", spec.symbol(), strategy.name());
            let (us, gflops) = time(&ee, &name, spec, seconds);
            if strategy == chosen {
                chosen_gflops = gflops;
            }
            cells.push(if us < 1000.0 { format!("{us:.1} µs") } else { format!("{:.2} ms", us / 1e3) });
        }
        println!("| {label} | {} | {} | {chosen_gflops:.1} |", cells.join(" | "), chosen.name());
    }
}

/// Best time in microseconds and GFLOP/s of the function `name`.
fn time(ee: &inkwell::execution_engine::ExecutionEngine<'_>, name: &str, spec: &ConvSpec, seconds: f64) -> (f64, f64) {
    {
        let f: ConvFn = unsafe { std::mem::transmute(ee.get_function_address(name).expect("symbol")) };
        let od = spec.output_dims().expect("dims");
        let inputs = spec.input_dims.iter().product::<i64>() as usize;
        let input_copies = common::copies("SMELT_BENCH_COLD_X");
        let x: Vec<f32> = (0..inputs * input_copies).map(|i| (i % 7) as f32 - 3.0).collect();
        let copies = common::copies("SMELT_BENCH_COLD");
        let weights = spec.kernel_dims.iter().product::<i64>() as usize;
        let w: Vec<f32> = (0..weights * copies).map(|i| (i % 5) as f32 - 2.0).collect();
        let mut next = 0;
        let mut y = vec![0f32; od.iter().product::<i64>() as usize];
        let d = &spec.dims;
        let taps: i64 = d.kernel_spatial.iter().map(|&k| spec.kernel_dims[k as usize]).product();
        let flops = 2.0 * y.len() as f64 * taps as f64 * spec.kernel_dims[d.kernel_input_feature as usize] as f64;
        let mut run = |y: &mut [f32]| unsafe {
            let wp = w.as_ptr().add((next % copies) * weights);
            let xp = x.as_ptr().add((next % input_copies) * inputs);
            next += 1;
            f(xp, wp, y.as_mut_ptr(), std::ptr::null(), std::ptr::null_mut())
        };
        run(&mut y);
        let best = common::best_time(5, seconds, || run(&mut y));
        let us = best.as_secs_f64() * 1e6;
        (us, flops / us / 1e3)
    }
}
