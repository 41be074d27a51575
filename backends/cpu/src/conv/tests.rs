//! Generated convolutions against a naive reference written from XLA's semantics,
//! on the corpus configurations and on random ones (dimension labels, padding
//! including negative, strides, both dilations, reversal, feature and batch
//! groups, dtypes), with the epilogue contract checked on every call.

use std::ffi::c_void;

use inkwell::context::Context;
use smelt_hlo::DType;
use smelt_hlo::attrs::ConvDims;
use smelt_kernel::ir::WindowSpec;

use super::{ConvSpec, ConvStrategy, conv_function, conv_function_using, conv_strategy, conv_strategy_applies};
use crate::gemm::tests::{Rng, Visits, decode, encode, round_to};
use crate::gemm::{GemmSpec, gemm_function};
use crate::jit::{self, Runtime};
use smelt_runtime::routines::conv_gemm::{EpilogueFn, EpilogueView, GemmFn, smelt_conv_gemm};

type ConvFn = unsafe extern "C" fn(*const u8, *const u8, *mut u8, Option<crate::gemm::tests::EpiFn>, *mut c_void);

fn strides(dims: &[i64]) -> Vec<i64> {
    let mut s = vec![1; dims.len()];
    for i in (0..dims.len().saturating_sub(1)).rev() {
        s[i] = s[i + 1] * dims[i + 1];
    }
    s
}

/// XLA's convolution, one output element at a time.
fn reference(spec: &ConvSpec, x: &[f64], w: &[f64]) -> Vec<f64> {
    let od = spec.output_dims().unwrap();
    let d = &spec.dims;
    let (is, ks, os) = (strides(&spec.input_dims), strides(&spec.kernel_dims), strides(&od));
    let s = d.input_spatial.len();
    let total: i64 = od.iter().product();
    let f = spec.kernel_dims[d.kernel_output_feature as usize];
    let (g, bg) = (spec.feature_group_count, spec.batch_group_count);
    let cg = spec.kernel_dims[d.kernel_input_feature as usize];
    let nb = spec.input_dims[d.input_batch as usize] / bg;
    let wsizes: Vec<i64> = d.kernel_spatial.iter().map(|&k| spec.kernel_dims[k as usize]).collect();
    let taps: i64 = wsizes.iter().product();
    let mut out = vec![0.0; total as usize];
    for (e, slot) in out.iter_mut().enumerate() {
        let idx: Vec<i64> = (0..od.len()).map(|k| (e as i64 / os[k]) % od[k]).collect();
        let ob = idx[d.output_batch as usize];
        let of = idx[d.output_feature as usize];
        let fg = of / (f / g);
        let bgi = of / (f / bg);
        let mut acc_f = 0f64;
        let mut acc_f32 = 0f32;
        let mut acc_i = 0i64;
        for t in 0..taps {
            let mut rem = t;
            let mut kpos = vec![0; s];
            for k in (0..s).rev() {
                kpos[k] = rem % wsizes[k];
                rem /= wsizes[k];
            }
            let mut xoff = (ob + bgi * nb) * is[d.input_batch as usize];
            let mut ok = true;
            for k in 0..s {
                let wd = &spec.window[k];
                let p = idx[d.output_spatial[k] as usize] * wd.stride - wd.pad_low + kpos[k] * wd.window_dilation;
                if p < 0
                    || p % wd.base_dilation != 0
                    || p / wd.base_dilation >= spec.input_dims[d.input_spatial[k] as usize]
                {
                    ok = false;
                    break;
                }
                xoff += p / wd.base_dilation * is[d.input_spatial[k] as usize];
            }
            if !ok {
                continue;
            }
            let mut woff = of * ks[d.kernel_output_feature as usize];
            for k in 0..s {
                let kp = if spec.window_reversal[k] { wsizes[k] - 1 - kpos[k] } else { kpos[k] };
                woff += kp * ks[d.kernel_spatial[k] as usize];
            }
            for z in 0..cg {
                let a = x[(xoff + (fg * cg + z) * is[d.input_feature as usize]) as usize];
                let b = w[(woff + z * ks[d.kernel_input_feature as usize]) as usize];
                acc_f += a * b;
                acc_f32 += a as f32 * b as f32;
                acc_i = acc_i.wrapping_add((a as i64).wrapping_mul(b as i64));
            }
        }
        *slot = match spec.out {
            DType::F64 => acc_f,
            o if o.is_float() => round_to(o, acc_f32 as f64),
            o => round_to(o, acc_i as f64),
        };
    }
    out
}

struct EpiCheck {
    seen: Visits,
    /// Output linear index of (row, feature).
    index: Box<dyn Fn(i64, i64) -> usize>,
    rows: i64,
    f: i64,
    /// `Some((batch, F, S))`: blocks come per image as `[F, S]`
    /// ([`crate::conv::epilogue_per_image`]).
    image: Option<(i64, i64, i64)>,
}

unsafe extern "C" fn epilogue(ctx: *mut c_void, b: i64, r0: i64, r1: i64, f0: i64, f1: i64) {
    let e = unsafe { &*(ctx as *const EpiCheck) };
    if let Some((batch, fc, size)) = e.image {
        if b < 0 || b >= batch || r0 < 0 || r1 > fc || f0 < 0 || f1 > size || r0 >= r1 || f0 >= f1 {
            return e.seen.reject();
        }
        for f in r0..r1 {
            for p in f0..f1 {
                unsafe { e.seen.visit(((b * fc + f) * size + p) as usize) };
            }
        }
        return;
    }
    if b != 0 || r0 < 0 || r1 > e.rows || f0 < 0 || f1 > e.f || r0 >= r1 || f0 >= f1 {
        return e.seen.reject();
    }
    for r in r0..r1 {
        for f in f0..f1 {
            unsafe { e.seen.visit((e.index)(r, f)) };
        }
    }
}

fn values(rng: &mut Rng, d: DType, n: usize, exact: bool) -> Vec<f64> {
    (0..n)
        .map(|_| match d {
            DType::U8 => rng.int_in(0, 255) as f64,
            d if exact || !d.is_float() => rng.int_in(-3, 3) as f64,
            d => round_to(d, rng.unit()),
        })
        .collect()
}

/// Checks the default strategy of every spec, and with `every_strategy` each
/// other strategy that applies.
/// Returns how many expected values were non-zero, of how many.
fn check(specs: &[ConvSpec], runtime: Runtime, exact: bool, every_strategy: bool) -> (usize, usize) {
    let cx = Context::create();
    let module = cx.create_module("conv_test");
    let tm = jit::host_target_machine().unwrap();
    jit::prepare_module(&module, &tm);
    // Each spec by its strategy, the others that apply (`every_strategy`)
    // and the generic routine (`None`, with the GEMM it calls) where it can.
    let mut runs: Vec<(&ConvSpec, String, Option<ConvStrategy>)> = Vec::new();
    for s in specs {
        let f = conv_function(&module, &tm, s).unwrap_or_else(|e| panic!("{s:?}: {e}"));
        runs.push((s, f.get_name().to_str().unwrap().to_string(), Some(conv_strategy(s).unwrap())));
        if crate::conv::conv_gemm(s).is_some() {
            let g = GemmSpec { lhs: s.input, rhs: s.kernel, out: s.out, lhs_transposed: false, rhs_transposed: false };
            let f = gemm_function(&module, &tm, &g).unwrap_or_else(|e| panic!("{g:?}: {e}"));
            runs.push((s, f.get_name().to_str().unwrap().to_string(), None));
        }
        for strategy in ConvStrategy::ALL {
            if every_strategy && strategy != conv_strategy(s).unwrap() && conv_strategy_applies(s, strategy).unwrap() {
                let f = conv_function_using(&module, &tm, s, strategy).unwrap();
                runs.push((s, f.get_name().to_str().unwrap().to_string(), Some(strategy)));
            }
        }
    }
    let ee = crate::routine_engine(&module, &tm, runtime).unwrap();
    let mut rng = Rng::new(0x1234_5678_9abc_def1);
    let (mut nonzero, mut total) = (0, 0);
    for (spec, symbol, strategy) in runs {
        let address = ee.get_function_address(&symbol).unwrap();
        let x = values(&mut rng, spec.input, spec.input_dims.iter().product::<i64>() as usize, exact);
        let w = values(&mut rng, spec.kernel, spec.kernel_dims.iter().product::<i64>() as usize, exact);
        let want = reference(spec, &x, &w);
        let od = spec.output_dims().unwrap();
        let (xb, wb) = (encode(spec.input, &x), encode(spec.kernel, &w));
        let mut ob = encode(spec.out, &vec![9.0; want.len()]);
        let of = spec.dims.output_feature as usize;
        let fcount = od[of];
        let rows = if fcount == 0 { 0 } else { want.len() as i64 / fcount };
        let ostr = strides(&od);
        let od2 = od.clone();
        let index = move |r: i64, f: i64| -> usize {
            let mut rem = r;
            let mut i = f * ostr[of];
            for k in (0..od2.len()).rev() {
                if k != of {
                    i += (rem % od2[k]) * ostr[k];
                    rem /= od2[k];
                }
            }
            i as usize
        };
        let tolerance = if exact { 0.0 } else { 1e-5 * ((want.len() + 1) as f64).ln().max(1.0) };
        let seen = Visits::new(ob.as_ptr(), spec.out, want.clone(), tolerance);
        // The generic routine follows the rule of the spec's own strategy.
        let per_image = crate::conv::epilogue_per_image(spec).unwrap();
        let image = match per_image {
            Some((fc, size)) if matches!(strategy, None | Some(ConvStrategy::Im2colGemm | ConvStrategy::Columns)) => {
                Some((od[0], fc, size))
            }
            _ => None,
        };
        let chk = EpiCheck { seen, index: Box::new(index), rows, f: fcount, image };
        let ctx = &chk as *const EpiCheck as *mut c_void;
        match strategy {
            Some(_) => {
                let f: ConvFn = unsafe { std::mem::transmute(address) };
                unsafe { f(xb.as_ptr(), wb.as_ptr(), ob.as_mut_ptr(), Some(epilogue), ctx) };
            }
            None => {
                let view = match per_image {
                    Some((features, spatial)) => EpilogueView::PerImage { features, spatial },
                    None => EpilogueView::Rows,
                };
                let generic = crate::conv::conv_gemm(spec).unwrap().with_epilogue(view).unwrap();
                let gemm: GemmFn = unsafe { std::mem::transmute(address) };
                let epi: EpilogueFn = epilogue;
                let desc = generic.encode();
                unsafe {
                    smelt_conv_gemm(desc.as_ptr(), xb.as_ptr(), wb.as_ptr(), ob.as_mut_ptr(), Some(epi), ctx, gemm)
                };
            }
        }
        let got = decode(spec.out, &ob);
        nonzero += want.iter().filter(|v| **v != 0.0).count();
        total += want.len();
        for (i, (&g, &e)) in got.iter().zip(&want).enumerate() {
            assert!(
                (g - e).abs() <= tolerance * e.abs().max(1.0),
                "{spec:?} ({strategy:?}): element {i} of {od:?} is {g}, expected {e}"
            );
        }
        chk.seen.assert_once(&format!("{spec:?} ({strategy:?})"));
    }
    (nonzero, total)
}

fn dims(labels: &str) -> ConvDims {
    ConvDims::from_labels(labels).unwrap()
}

fn win(size: i64, stride: i64, pad: (i64, i64), rhs_dil: i64, lhs_dil: i64) -> WindowSpec {
    WindowSpec { size, stride, pad_low: pad.0, pad_high: pad.1, window_dilation: rhs_dil, base_dilation: lhs_dil }
}

fn spec(labels: &str, input: &[i64], kernel: &[i64], window: Vec<WindowSpec>, groups: i64) -> ConvSpec {
    ConvSpec::f32(input, kernel, dims(labels), window, groups)
}

/// The convolutions of `tests/corpus/{conv2d_nhwc,conv_depthwise,conv2d_grad,cnn_forward,convlstm_cell}`.
pub(crate) fn corpus_specs() -> Vec<(&'static str, ConvSpec)> {
    let nhwc = "b01f_01io->b01f";
    vec![
        ("conv2d_nhwc 3x3 s2", spec(nhwc, &[2, 16, 16, 3], &[3, 3, 3, 8], vec![win(3, 2, (0, 1), 1, 1); 2], 1)),
        (
            "conv2d_nhwc 3x3 rhs_dilate",
            spec(nhwc, &[2, 16, 16, 3], &[3, 3, 3, 8], vec![win(3, 1, (1, 2), 2, 1), win(3, 1, (0, 1), 2, 1)], 1),
        ),
        ("conv2d_nhwc 1x1", spec(nhwc, &[2, 16, 16, 3], &[1, 1, 3, 32], vec![win(1, 1, (0, 0), 1, 1); 2], 1)),
        ("conv_depthwise 3x3", spec(nhwc, &[2, 16, 16, 8], &[3, 3, 1, 8], vec![win(3, 1, (1, 1), 1, 1); 2], 8)),
        ("conv_depthwise 5x5 s2 x2", spec(nhwc, &[2, 16, 16, 8], &[5, 5, 1, 16], vec![win(5, 2, (1, 2), 1, 1); 2], 8)),
        (
            "conv2d_grad input (lhs_dilate)",
            spec("b01f_01oi->b01f", &[2, 4, 4, 4], &[3, 3, 3, 4], vec![win(3, 1, (2, 1), 1, 2); 2], 1),
        ),
        (
            "conv2d_grad kernel (swapped dims)",
            spec("f01b_i01o->01bf", &[2, 8, 8, 3], &[2, 4, 4, 4], vec![win(4, 1, (0, 1), 2, 1); 2], 1),
        ),
        ("cnn_forward conv1", spec(nhwc, &[2, 28, 28, 1], &[3, 3, 1, 8], vec![win(3, 1, (1, 1), 1, 1); 2], 1)),
        ("cnn_forward conv2", spec(nhwc, &[2, 14, 14, 8], &[3, 3, 8, 16], vec![win(3, 1, (1, 1), 1, 1); 2], 1)),
        ("convlstm_cell", spec(nhwc, &[2, 8, 8, 11], &[3, 3, 11, 32], vec![win(3, 1, (1, 1), 1, 1); 2], 1)),
    ]
}

#[test]
fn corpus_shapes() {
    let specs: Vec<ConvSpec> = corpus_specs().into_iter().map(|(_, s)| s).collect();
    assert_eq!(conv_strategy(&specs[3]).unwrap(), ConvStrategy::Depthwise);
    assert_eq!(conv_strategy(&specs[4]).unwrap(), ConvStrategy::Depthwise);
    assert_eq!(conv_strategy(&specs[0]).unwrap(), ConvStrategy::Direct);
    assert_eq!(conv_strategy(&specs[9]).unwrap(), ConvStrategy::Direct);
    // Larger: GEMM.
    let big = spec("b01f_01io->b01f", &[4, 28, 28, 64], &[3, 3, 64, 64], vec![win(3, 1, (1, 1), 1, 1); 2], 1);
    assert_eq!(conv_strategy(&big).unwrap(), ConvStrategy::Im2colGemm);
    assert_eq!(specs[6].output_dims().unwrap(), vec![3, 3, 3, 4]);
    let (nonzero, total) = check(&specs, Runtime::TwoThreads, true, true);
    assert!(nonzero * 2 > total, "only {nonzero} of {total} expected values are non-zero");
    check(&specs, Runtime::Serial, false, false);
}

fn shuffled(rng: &mut Rng, n: usize) -> Vec<i64> {
    let mut v: Vec<i64> = (0..n as i64).collect();
    for i in (1..n).rev() {
        v.swap(i, rng.int_in(0, i as i64) as usize);
    }
    v
}

/// A random valid convolution (small enough for the naive reference).
fn random_spec(rng: &mut Rng, depthwise: bool) -> ConvSpec {
    let s = rng.int_in(1, 3) as usize;
    let rank = s + 2;
    let (g, bg, cg) = if depthwise {
        (rng.int_in(1, 4), 1, 1)
    } else if rng.int_in(0, 3) == 0 {
        (1, rng.int_in(2, 3), rng.int_in(1, 3))
    } else {
        (rng.int_in(1, 3), 1, rng.int_in(1, 4))
    };
    let c = g * cg;
    let f = g * bg * rng.int_in(1, 3);
    let n = bg * rng.int_in(1, 2);
    let (pi, pk, po) = if depthwise {
        // Features minor in input and output.
        let mut a = shuffled(rng, rank - 1);
        let mut b = shuffled(rng, rank - 1);
        a.push(rank as i64 - 1);
        b.push(rank as i64 - 1);
        // Position p of the permutation holds the dimension for label p
        // (b, f, spatial...): move the last (feature) dimension to label f.
        let fix = |mut v: Vec<i64>| {
            let fdim = v.pop().unwrap_or(0);
            v.insert(1, fdim);
            v
        };
        (fix(a), shuffled(rng, rank), fix(b))
    } else {
        (shuffled(rng, rank), shuffled(rng, rank), shuffled(rng, rank))
    };
    let mut input_dims = vec![0; rank];
    let mut kernel_dims = vec![0; rank];
    input_dims[pi[0] as usize] = n;
    input_dims[pi[1] as usize] = c;
    kernel_dims[pk[0] as usize] = cg;
    kernel_dims[pk[1] as usize] = f;
    let mut window = Vec::new();
    let budget = if s == 3 { 3 } else { 6 };
    for k in 0..s {
        let len = rng.int_in(2, budget);
        let size = rng.int_in(1, 3);
        input_dims[pi[2 + k] as usize] = len;
        kernel_dims[pk[2 + k] as usize] = size;
        window.push(WindowSpec {
            size,
            stride: rng.int_in(1, 2),
            pad_low: rng.int_in(-1, 2),
            pad_high: rng.int_in(-1, 2),
            window_dilation: rng.int_in(1, 2),
            base_dilation: if rng.int_in(0, 3) == 0 { 2 } else { 1 },
        });
    }
    let dt = [DType::F32, DType::F32, DType::F32, DType::F64, DType::F16, DType::Bf16, DType::S8, DType::S32]
        [rng.int_in(0, 7) as usize];
    let out = if dt == DType::S8 { DType::S32 } else { dt };
    ConvSpec {
        input: dt,
        kernel: dt,
        out,
        input_dims,
        kernel_dims,
        dims: ConvDims {
            input_batch: pi[0],
            input_feature: pi[1],
            input_spatial: pi[2..].iter().copied().collect(),
            kernel_input_feature: pk[0],
            kernel_output_feature: pk[1],
            kernel_spatial: pk[2..].iter().copied().collect(),
            output_batch: po[0],
            output_feature: po[1],
            output_spatial: po[2..].iter().copied().collect(),
        },
        window_reversal: (0..s).map(|_| rng.int_in(0, 1) == 1).collect(),
        window,
        feature_group_count: g,
        batch_group_count: bg,
    }
}

#[test]
fn random_configurations() {
    let mut rng = Rng::new(0xfeed_beef_0bad_cafe);
    let mut specs = Vec::new();
    let mut depthwise = 0;
    while specs.len() < 60 {
        let s = random_spec(&mut rng, specs.len() % 3 == 0);
        // A few empty outputs, mostly real work.
        let empty = s.output_dims().map(|d| d.contains(&0)).unwrap_or(true);
        if s.output_dims().is_ok() && (!empty || specs.len() % 10 == 0) {
            depthwise += (conv_strategy(&s).unwrap() == ConvStrategy::Depthwise) as usize;
            specs.push(s);
        }
    }
    assert!(depthwise >= 10, "only {depthwise} depthwise configurations");
    // The configurations must mostly compute something.
    let (nonzero, total) = check(&specs, Runtime::TwoThreads, true, true);
    assert!(nonzero * 2 > total, "only {nonzero} of {total} expected values are non-zero");
}

#[test]
fn wide_features_gather_by_vectors() {
    // Contiguous input features, at least a vector of them per group: the im2col
    // gather transposes whole vectors. 9 * 40 = 360 > KC splits taps across depth
    // blocks; f64 has two transpose groups per 12-row panel.
    let nhwc = "b01f_01io->b01f";
    let mut specs = vec![
        spec(nhwc, &[2, 7, 6, 40], &[3, 3, 40, 24], vec![win(3, 2, (1, 1), 1, 1); 2], 1),
        spec(nhwc, &[1, 5, 5, 40], &[3, 3, 20, 6], vec![win(3, 1, (2, 2), 2, 1); 2], 2),
        spec(nhwc, &[3, 4, 4, 33], &[2, 2, 33, 40], vec![win(2, 1, (0, 1), 1, 2); 2], 1),
    ];
    for (i, o) in [(DType::F16, DType::F16), (DType::S8, DType::S32), (DType::F64, DType::F64)] {
        let mut s = specs[0].clone();
        (s.input, s.kernel, s.out) = (i, i, o);
        specs.push(s);
    }
    let (nonzero, total) = check(&specs, Runtime::TwoThreads, true, true);
    assert!(nonzero * 2 > total, "only {nonzero} of {total} expected values are non-zero");
}

#[test]
fn few_rows_split_features_over_one_shared_gather() {
    // Small images with many features (late CNN layers) give fewer row blocks
    // than tasks: features are split between tasks that share one im2col
    // gather. NCHW (element gather) and NHWC (vector gather), a feature count
    // that is not a whole number of panels, strides and padding.
    let specs = vec![
        spec("bf01_oi01->bf01", &[1, 64, 5, 5], &[520, 64, 3, 3], vec![win(3, 1, (1, 1), 1, 1); 2], 1),
        spec("b01f_01io->b01f", &[1, 8, 8, 64], &[3, 3, 64, 300], vec![win(3, 1, (1, 0), 1, 1); 2], 1),
        // Feature-major kernels packed straight from memory, depth in
        // (feature, tap) order across several depth blocks; with and without
        // the shared gather.
        spec("bf01_oi01->bf01", &[1, 72, 9, 9], &[40, 72, 3, 3], vec![win(3, 2, (1, 1), 1, 1); 2], 1),
        spec("bf01_oi01->bf01", &[2, 40, 20, 20], &[24, 40, 3, 3], vec![win(3, 1, (1, 1), 1, 2); 2], 1),
    ];
    let (nonzero, total) = check(&specs, Runtime::TwoThreads, true, false);
    assert!(nonzero * 2 > total, "only {nonzero} of {total} expected values are non-zero");
    // Columns convolutions share the gather only on hosts with small L2s.
    let (nonzero, total) = crate::caches::with_small_l2(|| check(&specs, Runtime::TwoThreads, true, false));
    assert!(nonzero * 2 > total, "only {nonzero} of {total} expected values are non-zero (small L2)");
}

#[test]
fn integer_products_run_on_pair_panels() {
    // 8- and 16-bit integer convolutions (quantized layers) multiply on the
    // GEMM's pair or quad microkernels where the host has them: the gathered
    // panels are repacked as groups along the depth. Odd depths (a zero pads
    // the last pair), several depth blocks, NCHW and NHWC gathers, features
    // split over tasks.
    let nchw = "bf01_oi01->bf01";
    let nhwc = "b01f_01io->b01f";
    let shapes = [
        spec(nchw, &[1, 7, 13, 13], &[40, 7, 5, 5], vec![win(5, 1, (2, 2), 1, 1); 2], 1),
        spec(nchw, &[1, 72, 9, 9], &[40, 72, 3, 3], vec![win(3, 2, (1, 1), 1, 1); 2], 1),
        spec(nchw, &[1, 64, 5, 5], &[520, 64, 3, 3], vec![win(3, 1, (1, 1), 1, 1); 2], 1),
        // Output rows of whole panels (quads gathered straight from four
        // feature planes, masked at the borders), a column stride of 2, and
        // a last panel of a block cut short.
        spec(nchw, &[1, 8, 5, 24], &[20, 8, 3, 3], vec![win(3, 1, (1, 1), 1, 1); 2], 1),
        spec(nchw, &[2, 16, 7, 31], &[24, 16, 3, 3], vec![win(3, 1, (1, 1), 1, 1), win(3, 2, (1, 2), 1, 1)], 1),
        spec(nchw, &[1, 12, 13, 12], &[36, 12, 3, 3], vec![win(3, 1, (0, 2), 1, 1), win(3, 1, (2, 0), 1, 1)], 1),
        spec(nhwc, &[2, 7, 6, 40], &[3, 3, 40, 24], vec![win(3, 2, (1, 1), 1, 1); 2], 1),
        spec(nhwc, &[1, 9, 9, 33], &[3, 3, 11, 48], vec![win(3, 1, (1, 1), 1, 1); 2], 3),
    ];
    let mut specs = Vec::new();
    // s16 and s8 on pairs, u8 activations times s8 weights on quads.
    for (input, kernel) in [(DType::S16, DType::S16), (DType::S8, DType::S8), (DType::U8, DType::S8)] {
        for s in &shapes {
            let mut s = s.clone();
            (s.input, s.kernel, s.out) = (input, kernel, DType::S32);
            specs.push(s);
        }
    }
    let (nonzero, total) = check(&specs, Runtime::TwoThreads, true, true);
    assert!(nonzero * 2 > total, "only {nonzero} of {total} expected values are non-zero");
}

#[test]
fn nchw_panels_gather_by_vectors() {
    // NCHW inputs with oi01 kernels: panels of rows inside one output row copy
    // each input feature's run as one vector load (every other element for
    // stride 2), masked where columns or rows fall in the padding. Widths that
    // are and are not a whole number of panels, window dilation, a y stride,
    // asymmetric padding.
    let nchw = "bf01_oi01->bf01";
    let specs = vec![
        spec(nchw, &[1, 16, 12, 40], &[24, 16, 3, 3], vec![win(3, 1, (1, 1), 1, 1); 2], 1),
        spec(nchw, &[2, 12, 11, 29], &[20, 12, 3, 3], vec![win(3, 2, (0, 2), 1, 1), win(3, 1, (2, 1), 2, 1)], 1),
        spec(nchw, &[1, 3, 30, 30], &[16, 3, 7, 7], vec![win(7, 1, (3, 3), 1, 1); 2], 1),
        // Column stride 2 (stems, downsampling): every other element of a
        // double-width load; odd and even widths.
        spec(nchw, &[1, 3, 41, 41], &[16, 3, 7, 7], vec![win(7, 2, (3, 3), 1, 1); 2], 1),
        spec(nchw, &[1, 8, 16, 48], &[12, 8, 3, 3], vec![win(3, 2, (1, 1), 1, 1); 2], 1),
        // A stem over rows of 35 pixels: panels inside one output row (one
        // segment, the tables filled for it alone) beside panels across two,
        // the last one 9 pixels inside the last row.
        spec(nchw, &[1, 3, 70, 70], &[24, 3, 7, 7], vec![win(7, 2, (3, 3), 1, 1); 2], 1),
        // Columns: two depth blocks and features split over tasks (K = 360,
        // F = 80 over 120 pixels); rows of 5 pixels (a panel spans up to five
        // output rows); f64.
        spec(nchw, &[1, 40, 10, 12], &[80, 40, 3, 3], vec![win(3, 1, (1, 1), 1, 1); 2], 1),
        spec(nchw, &[2, 8, 9, 5], &[6, 8, 3, 3], vec![win(3, 1, (1, 1), 1, 1); 2], 1),
        ConvSpec {
            input: DType::F64,
            kernel: DType::F64,
            out: DType::F64,
            ..spec(nchw, &[1, 6, 9, 20], &[10, 6, 3, 3], vec![win(3, 1, (0, 2), 1, 1); 2], 1)
        },
        // Features in one block over two panels (DenseNet's 3x3 over 7x7):
        // runs of one panel each, 32 and 17 pixels.
        spec(nchw, &[1, 40, 7, 7], &[32, 40, 3, 3], vec![win(3, 1, (1, 1), 1, 1); 2], 1),
        // Many taps (tables per tap row and tap column, not per tap) with a
        // y stride, asymmetric padding and window dilation along x: rows
        // and columns of taps in and out of the padding independently.
        spec(nchw, &[1, 4, 19, 37], &[12, 4, 5, 5], vec![win(5, 2, (2, 1), 1, 1), win(5, 1, (3, 2), 2, 1)], 1),
    ];
    for s in &specs[5..] {
        assert_eq!(conv_strategy(s).unwrap(), ConvStrategy::Columns, "{s:?}");
    }
    let (nonzero, total) = check(&specs, Runtime::TwoThreads, true, false);
    assert!(nonzero * 2 > total, "only {nonzero} of {total} expected values are non-zero");
}

#[test]
fn planar_depthwise_matches_exactly() {
    // NCHW depthwise convolutions (MobileNet's, ShuffleNet's): per plane, row
    // by row, taps as multiply-adds over column runs. Multipliers, strides,
    // dilations, asymmetric and oversized padding, 1xK windows, f64.
    let nchw = "bf01_oi01->bf01";
    let mut specs = vec![
        spec(nchw, &[2, 6, 9, 11], &[6, 1, 3, 3], vec![win(3, 1, (1, 1), 1, 1); 2], 6),
        spec(nchw, &[1, 4, 10, 7], &[8, 1, 3, 3], vec![win(3, 2, (1, 0), 1, 1), win(3, 2, (0, 2), 1, 1)], 4),
        spec(nchw, &[1, 3, 12, 12], &[3, 1, 3, 3], vec![win(3, 1, (2, 2), 2, 1); 2], 3),
        spec(nchw, &[1, 5, 4, 9], &[5, 1, 1, 5], vec![win(1, 1, (0, 0), 1, 1), win(5, 1, (4, 4), 1, 1)], 5),
        spec(nchw, &[1, 2, 3, 3], &[2, 1, 5, 5], vec![win(5, 3, (3, 3), 1, 1); 2], 2),
    ];
    let mut f64s = specs[0].clone();
    (f64s.input, f64s.kernel, f64s.out) = (DType::F64, DType::F64, DType::F64);
    specs.push(f64s);
    for s in &specs {
        assert_eq!(super::conv_strategy(s).unwrap(), super::ConvStrategy::Planar, "{s:?}");
    }
    let (nonzero, total) = check(&specs, Runtime::TwoThreads, true, false);
    assert!(nonzero * 2 > total, "only {nonzero} of {total} expected values are non-zero");
}

#[test]
fn empty_input_reads_only_padding() {
    // A spatial extent of 0 padded to 3: every tap reads padding.
    let s = spec(
        "b01f_01io->b01f",
        &[1, 0, 2, 2],
        &[1, 1, 2, 3],
        vec![win(1, 1, (2, 1), 1, 1), win(1, 1, (0, 0), 1, 1)],
        1,
    );
    assert_eq!(s.output_dims().unwrap(), vec![1, 3, 2, 3]);
    check(&[s], Runtime::Serial, true, true);
}

#[test]
fn invalid_specs_are_errors() {
    let good = spec("b01f_01io->b01f", &[1, 5, 5, 4], &[3, 3, 2, 6], vec![win(3, 1, (1, 1), 1, 1); 2], 2);
    assert!(good.output_dims().is_ok());
    let mut bad = good.clone();
    bad.feature_group_count = 3;
    assert!(bad.output_dims().is_err());
    let mut bad = good.clone();
    bad.window[0].stride = 0;
    assert!(bad.output_dims().is_err());
    let mut bad = good.clone();
    bad.dims.kernel_output_feature = 0;
    assert!(bad.output_dims().is_err());
    let mut bad = good;
    bad.out = DType::Pred;
    let cx = Context::create();
    let module = cx.create_module("bad");
    let tm = jit::host_target_machine().unwrap();
    assert!(conv_function(&module, &tm, &bad).is_err());
}

/// The AOT contract: generated code for x86-64 (baseline and AVX2) and aarch64
/// calls nothing but libc and the runtime functions AOT objects define
/// (`smelt_parallel_for`, `smelt_parallel_threads`, `smelt_scratch_alloc`,
/// `smelt_scratch_free`).
#[test]
fn cross_targets_call_only_libc() {
    use inkwell::OptimizationLevel;
    use inkwell::targets::{CodeModel, FileType, InitializationConfig, RelocMode, Target, TargetTriple};

    use crate::gemm::{GemmSpec, gemm_function};

    Target::initialize_x86(&InitializationConfig::default());
    Target::initialize_aarch64(&InitializationConfig::default());
    let allowed = [
        "smelt_scratch_alloc",
        "smelt_scratch_free",
        "abort",
        "memset",
        "memcpy",
        "memmove",
        "smelt_parallel_for",
        "smelt_parallel_threads",
    ];
    for (triple, cpu, features) in [
        ("x86_64-unknown-linux-gnu", "x86-64", ""),
        ("x86_64-unknown-linux-gnu", "haswell", "+avx2,+fma,+f16c"),
        ("aarch64-unknown-linux-gnu", "generic", "+neon"),
    ] {
        let triple = TargetTriple::create(triple);
        let target = Target::from_triple(&triple).unwrap();
        let tm = target
            .create_target_machine(
                &triple,
                cpu,
                features,
                OptimizationLevel::Aggressive,
                RelocMode::PIC,
                CodeModel::Default,
            )
            .unwrap();
        let cx = Context::create();
        let module = cx.create_module("aot");
        jit::prepare_module(&module, &tm);
        let pairs = [
            (DType::F32, DType::F32),
            (DType::F16, DType::F16),
            (DType::Bf16, DType::F32),
            (DType::S8, DType::S32),
            (DType::F64, DType::F64),
        ];
        for (i, o) in pairs {
            for t in [false, true] {
                let s = GemmSpec { lhs: i, rhs: i, out: o, lhs_transposed: t, rhs_transposed: !t };
                gemm_function(&module, &tm, &s).unwrap();
            }
        }
        for (_, s) in corpus_specs() {
            conv_function(&module, &tm, &s).unwrap();
        }
        jit::optimize(&module, &tm).unwrap();
        let asm = tm.write_to_memory_buffer(&module, FileType::Assembly).unwrap();
        let asm = String::from_utf8_lossy(asm.as_slice()).into_owned();
        let mut called = std::collections::BTreeSet::new();
        for line in asm.lines() {
            let mut words = line.split_whitespace();
            let (Some(op), Some(arg)) = (words.next(), words.next()) else { continue };
            let is_call = matches!(op, "call" | "callq" | "jmp" | "bl" | "b");
            let name = arg.trim_end_matches("@PLT");
            let defined = module.get_function(name).is_some_and(|f| f.count_basic_blocks() > 0);
            if is_call && !name.starts_with('.') && !name.starts_with('*') && !defined {
                called.insert(name.to_string());
            }
        }
        // The scan sees calls at all.
        assert!(called.contains("smelt_parallel_for") && called.contains("smelt_scratch_alloc"), "{called:?}");
        let bad: Vec<_> = called.iter().filter(|c| !allowed.contains(&c.as_str())).collect();
        assert!(bad.is_empty(), "{} {cpu}: calls {bad:?}", triple.as_str().to_string_lossy());
    }
}

/// A convolution routine built for the routine cache declares exactly the
/// GEMM parts [`super::gemm_parts`] names for its object to link: plain
/// panels for the columns strategy, the ISA's groups for im2col (bf16
/// pairs on an AVX-512 BF16 target, u8 x s8 quads with VNNI).
#[test]
fn shared_parts_are_the_ones_declared() {
    use inkwell::OptimizationLevel;
    use inkwell::targets::{CodeModel, InitializationConfig, RelocMode, Target, TargetTriple};

    Target::initialize_x86(&InitializationConfig::default());
    let triple = TargetTriple::create("x86_64-unknown-linux-gnu");
    let features = "+avx2,+fma,+f16c,+avx512f,+avx512bw,+avx512vl,+avx512bf16,+avx512vnni";
    let tm = Target::from_triple(&triple)
        .unwrap()
        .create_target_machine(
            &triple,
            "sapphirerapids",
            features,
            OptimizationLevel::Aggressive,
            RelocMode::PIC,
            CodeModel::Default,
        )
        .unwrap();
    let nhwc = |input: DType, out: DType| {
        let mut s = spec("b01f_01io->b01f", &[1, 32, 32, 64], &[3, 3, 64, 64], vec![win(3, 1, (1, 1), 1, 1); 2], 1);
        (s.input, s.kernel, s.out) = (input, input, out);
        s
    };
    let mut quads = nhwc(DType::U8, DType::S32);
    quads.kernel = DType::S8;
    let cases = [
        (spec("bf01_oi01->bf01", &[2, 40, 20, 20], &[24, 40, 3, 3], vec![win(3, 1, (1, 1), 1, 1); 2], 1), 1),
        (nhwc(DType::F32, DType::F32), 1),
        (nhwc(DType::Bf16, DType::F32), 2),
        (quads, 4),
    ];
    for (s, group) in cases {
        let parts = super::gemm_parts(&tm, &s).unwrap().unwrap_or_else(|| panic!("{s:?} calls no GEMM parts"));
        assert_eq!(parts.group, group, "{s:?}");
        let cx = Context::create();
        let module = cx.create_module("shared");
        super::conv_function_sharing_parts(&module, &tm, &s).unwrap();
        let declared: std::collections::BTreeSet<String> = module
            .get_functions()
            .filter(|f| f.count_basic_blocks() == 0)
            .map(|f| f.get_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with("smelt_gemm_"))
            .collect();
        let expected: std::collections::BTreeSet<String> = parts.symbols.iter().cloned().collect();
        assert_eq!(declared, expected, "{s:?}");
    }
}
