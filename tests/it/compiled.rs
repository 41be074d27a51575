//! The compiled backends (LLVM and Cranelift) against XLA's outputs on the whole
//! corpus, through the same engine `smelt check --backend cpu|cranelift` uses;
//! every backend of the registry against the interpreter on one program.

use smelt::case::{Case, compare_outputs};
use smelt::engine::{Compiled, Pipeline};

use crate::common::corpus_cases;

fn corpus_on(backend: &str) {
    let mut failures = Vec::new();
    for dir in corpus_cases() {
        let case = Case::load(&dir).unwrap();
        let text = std::fs::read_to_string(&case.module_path).unwrap();
        let module = smelt_hlo::parse_module(&text).unwrap();
        let outcome = Compiled::new(module, backend, Pipeline::Default)
            .map_err(|e| e.to_string())
            .and_then(|c| c.run(&case.load_inputs().unwrap()).map_err(|e| e.to_string()))
            .and_then(|got| compare_outputs(&case, &got, &case.load_expected().unwrap()));
        if let Err(e) = outcome {
            failures.push(format!("{}: {e}", case.name));
        }
    }
    assert!(failures.is_empty(), "{} cases failed on {}:\n{}", failures.len(), backend, failures.join("\n"));
}

#[test]
fn every_corpus_case_matches_xla_on_the_cpu_backend() {
    corpus_on("cpu");
}

#[test]
fn every_corpus_case_matches_xla_on_the_cranelift_backend() {
    corpus_on("cranelift");
}

/// Every backend of the registry, by the name the CLI and the JIT use, runs
/// one program and agrees with the interpreter; those that cannot run here say
/// why instead; names it does not hold are errors listing the ones it does.
#[test]
fn every_registered_backend_is_found_by_name_and_agrees_with_the_interpreter() {
    let text = "HloModule m\n\nENTRY e {\n  x = f32[6] parameter(0)\n  y = f32[6] parameter(1)\n  \
                m = f32[6] multiply(x, y)\n  ROOT t = f32[6] tanh(m)\n}\n";
    let module = smelt_hlo::parse_module(text).unwrap();
    let args = smelt::hlo::random::random_inputs(&module.entry().param_shapes()).unwrap();
    let want = Compiled::new(module.clone(), smelt::engine::INTERP, Pipeline::None).unwrap().run(&args).unwrap();
    let names = smelt::jit::registry().names();
    assert_eq!(smelt::engine::backend_names()[1..], names[..]);
    let mut ran = 0;
    for backend in smelt::jit::registry().iter() {
        match (backend.unavailable(), Compiled::new(module.clone(), backend.name(), Pipeline::Default)) {
            (None, Ok(c)) => {
                let got = c.run(&args).unwrap();
                assert_eq!(c.executable().map(|e| e.backend()), Some(backend.name()));
                let (g, w) = (got[0].values::<f32>().unwrap(), want[0].values::<f32>().unwrap());
                for (a, b) in g.iter().zip(w) {
                    assert!((a - b).abs() <= 1e-6, "{}: {a} vs {b}", backend.name());
                }
                ran += 1;
            }
            (Some(why), Err(e)) => assert!(e.to_string().contains(&why), "{}: {e}", backend.name()),
            (why, other) => panic!("{}: unavailable {why:?} but compile gave {other:?}", backend.name()),
        }
    }
    assert!(ran >= 3, "cpu, cranelift and gpu-sim run everywhere");
    let e = Compiled::new(module, "tpu", Pipeline::Default).unwrap_err().to_string();
    assert_eq!(e, format!("unknown backend 'tpu' (known: {})", smelt::engine::backend_names().join(", ")));
}

/// The regression guard against performance cliffs: no step of any corpus
/// case, compiled for the CPU with profiling, takes far longer than its work
/// allows on any machine (`smelt_kernel::work`). A flagged step must be
/// flagged in three profiles in a row (so a preempted run on a shared machine
/// does not fail the test).
#[test]
fn no_step_of_a_corpus_case_is_suspicious() {
    let mut failures = Vec::new();
    for dir in corpus_cases() {
        let case = Case::load(&dir).unwrap();
        let text = std::fs::read_to_string(&case.module_path).unwrap();
        let module = smelt_hlo::parse_module(&text).unwrap();
        let compiled = Compiled::with_profile(module, "cpu", Pipeline::Default, true).unwrap();
        let inputs = case.load_inputs().unwrap();
        compiled.run(&inputs).unwrap();
        // The steady state: convolutions on their specialized routines.
        smelt_cpu::routines::wait_for_background();
        // (label, why) of the steps flagged in every profile so far.
        let mut flagged: Option<Vec<(String, String)>> = None;
        for _ in 0..3 {
            compiled.reset_profile();
            for _ in 0..20 {
                compiled.run(&inputs).unwrap();
            }
            let profile = compiled.profile().expect("the cpu backend profiles");
            assert!(!profile.is_empty(), "{}: no steps profiled", case.name);
            let now = profile.iter().filter_map(|s| Some((s.label.clone(), s.suspicious()?)));
            let still: Vec<(String, String)> = match &flagged {
                None => now.collect(),
                Some(before) => now.filter(|(l, _)| before.iter().any(|(b, _)| b == l)).collect(),
            };
            let done = still.is_empty();
            flagged = Some(still);
            if done {
                break;
            }
        }
        for (label, why) in flagged.unwrap_or_default() {
            failures.push(format!("{}: {label}: {why}", case.name));
        }
    }
    assert!(failures.is_empty(), "suspicious steps:\n{}", failures.join("\n"));
}

/// `topk` runs on every compiled backend, as written and optimized, and picks
/// what the interpreter picks: NaN above +inf, -0 below +0, ties by the lower
/// index, largest and smallest, floats and integers.
#[test]
fn topk_on_every_backend_matches_the_interpreter() {
    let text = "HloModule m\n\nENTRY e {\n  x = f32[3,6] parameter(0)\n  y = s32[2,5] parameter(1)\n  \
                a = (f32[3,4], s32[3,4]) topk(x), k=4, largest=true\n  \
                b = (f32[3,2], s32[3,2]) topk(x), k=2, largest=false\n  \
                c = (s32[2,3], s32[2,3]) topk(y), k=3, largest=true\n  \
                ROOT t = ((f32[3,4], s32[3,4]), (f32[3,2], s32[3,2]), (s32[2,3], s32[2,3])) tuple(a, b, c)\n}\n";
    let module = smelt_hlo::parse_module(text).unwrap();
    let (nan, inf) = (f32::NAN, f32::INFINITY);
    #[rustfmt::skip]
    let x = vec![
        1.0, nan, 3.0, 3.0, -1.0, inf,
        -0.0, 0.0, -inf, 2.0, 0.0, -0.0,
        5.0, 5.0, 5.0, 5.0, 5.0, -5.0,
    ];
    let y = vec![4, -7, 4, i32::MAX, i32::MIN, 0, 0, 0, -1, 1];
    let args = vec![
        smelt_hlo::Literal::Array(smelt_hlo::Array::from_vec([3, 6], x)),
        smelt_hlo::Literal::Array(smelt_hlo::Array::from_vec([2, 5], y)),
    ];
    let want = Compiled::new(module.clone(), smelt::engine::INTERP, Pipeline::None).unwrap().run(&args).unwrap();
    for backend in ["cpu", "cranelift", "gpu-sim"] {
        for pipeline in [Pipeline::None, Pipeline::Default] {
            let got = Compiled::new(module.clone(), backend, pipeline).unwrap().run(&args).unwrap();
            assert_eq!(got.len(), want.len());
            for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                // Bit for bit: NaN, -0 and the order of ties included.
                assert_eq!(g.dims, w.dims, "{backend} ({pipeline:?}): output {i}");
                assert_eq!(g.data.to_le_bytes(), w.data.to_le_bytes(), "{backend} ({pipeline:?}): output {i}");
            }
        }
    }
}

/// A loop state leaf the body only reads, started by an entry parameter, is
/// that parameter's storage (not copied in); nothing writes it: not the
/// body, not a negation of the loop's result that would otherwise run in
/// place. Every backend against the interpreter, the input left as it was.
#[test]
fn read_only_loop_state_on_a_parameter_matches_the_interpreter() {
    let text = "HloModule m\n\n\
        cond {\n  s = (s32[], f32[64], f32[64]) parameter(0)\n  i = s32[] get-tuple-element(s), index=0\n  \
        n = s32[] constant(5)\n  ROOT lt = pred[] compare(i, n), direction=LT\n}\n\n\
        body {\n  s = (s32[], f32[64], f32[64]) parameter(0)\n  i = s32[] get-tuple-element(s), index=0\n  \
        one = s32[] constant(1)\n  j = s32[] add(i, one)\n  acc = f32[64] get-tuple-element(s), index=1\n  \
        x = f32[64] get-tuple-element(s), index=2\n  half = f32[] constant(0.5)\n  h = f32[64] broadcast(half), dimensions={}\n  \
        fi = f32[] convert(i)\n  bi = f32[64] broadcast(fi), dimensions={}\n  sx = f32[64] sine(x)\n  \
        t1 = f32[64] multiply(acc, h)\n  t2 = f32[64] multiply(sx, bi)\n  a2 = f32[64] add(t1, t2)\n  \
        ROOT t = (s32[], f32[64], f32[64]) tuple(j, a2, x)\n}\n\n\
        ENTRY e {\n  p = f32[64] parameter(0)\n  z = s32[] constant(0)\n  c0 = f32[] constant(0)\n  \
        zs = f32[64] broadcast(c0), dimensions={}\n  init = (s32[], f32[64], f32[64]) tuple(z, zs, p)\n  \
        w = (s32[], f32[64], f32[64]) while(init), condition=cond, body=body\n  r = f32[64] get-tuple-element(w), index=1\n  \
        rx = f32[64] get-tuple-element(w), index=2\n  nx = f32[64] negate(rx)\n  ROOT o = (f32[64], f32[64]) tuple(r, nx)\n}\n";
    let module = smelt_hlo::parse_module(text).unwrap();
    let x: Vec<f32> = (0..64).map(|i| (i as f32 - 20.0) * 0.37).collect();
    let args = vec![smelt_hlo::Literal::Array(smelt_hlo::Array::from_vec([64], x))];
    let before = args.clone();
    let want = Compiled::new(module.clone(), smelt::engine::INTERP, Pipeline::None).unwrap().run(&args).unwrap();
    for backend in ["cpu", "cranelift", "gpu-sim"] {
        for pipeline in [Pipeline::None, Pipeline::Default] {
            let compiled = Compiled::new(module.clone(), backend, pipeline).unwrap();
            for run in 0..2 {
                let got = compiled.run(&args).unwrap();
                assert_eq!(args, before, "{backend} ({pipeline:?}) run {run}: the input was written");
                for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                    assert_eq!(g.dims, w.dims, "{backend} ({pipeline:?}): output {i}");
                    let g: Vec<f64> = (0..g.data.len()).map(|e| g.data.get_f64(e)).collect();
                    let w: Vec<f64> = (0..w.data.len()).map(|e| w.data.get_f64(e)).collect();
                    for (a, b) in g.iter().zip(&w) {
                        assert!(
                            (a - b).abs() <= 1e-5 * (1.0 + b.abs()),
                            "{backend} ({pipeline:?}): output {i}: {a} vs {b}"
                        );
                    }
                }
            }
        }
    }
}

/// Subnormal operands and results on the host backends, every float unary and
/// binary operation in f32 and f64, as written and optimized: what the
/// interpreter's model of XLA CPU's FTZ/DAZ environment computes (see
/// `smelt_interp`'s `edge` module). Zeros, subnormals, infinities, NaNs and
/// predicates must match bit for bit; other values within the math library's
/// accuracy.
#[test]
fn subnormals_flush_on_the_host_backends_as_the_interpreter_says() {
    const UNARY: [&str; 20] = [
        "abs",
        "negate",
        "sign",
        "floor",
        "ceil",
        "round-nearest-afz",
        "round-nearest-even",
        "sqrt",
        "rsqrt",
        "cbrt",
        "exponential",
        "exponential-minus-one",
        "log",
        "log-plus-one",
        "logistic",
        "sine",
        "cosine",
        "tan",
        "tanh",
        "erf",
    ];
    const BINARY: [&str; 9] =
        ["add", "subtract", "multiply", "divide", "remainder", "maximum", "minimum", "power", "atan2"];
    let f32s: Vec<f32> = vec![
        1e-40,
        -1e-41,
        1e-45,
        -1e-45,
        5e-39,
        -5e-39,
        0.0,
        -0.0,
        f32::MIN_POSITIVE,
        -f32::MIN_POSITIVE,
        1.5e-38,
        2e-38,
        1e-20,
        -1e-30,
        1.0,
        -2.5,
        0.5,
        88.0,
        -90.0,
        1e10,
        f32::INFINITY,
        f32::NAN,
        3e-39,
        -8e-41,
    ];
    let f64s: Vec<f64> = vec![
        1e-310,
        -1e-315,
        5e-324,
        -5e-324,
        2e-308,
        -2e-308,
        0.0,
        -0.0,
        f64::MIN_POSITIVE,
        -f64::MIN_POSITIVE,
        3e-308,
        1e-200,
        1e-160,
        -1e-300,
        1.0,
        -2.5,
        0.5,
        700.0,
        -745.0,
        1e5,
        f64::INFINITY,
        f64::NAN,
        1e-39,
        -1e-40,
    ];
    let n = f32s.len();
    let mut body = String::new();
    let mut roots = Vec::new();
    for t in ["f32", "f64"] {
        let (x, y) = (format!("x{t}"), format!("y{t}"));
        for op in UNARY {
            body.push_str(&format!("  {op}.{t} = {t}[{n}] {op}({x})\n"));
            roots.push((format!("{op}.{t}"), format!("{t}[{n}]")));
        }
        for op in BINARY {
            body.push_str(&format!("  {op}.{t} = {t}[{n}] {op}({x}, {y})\n"));
            roots.push((format!("{op}.{t}"), format!("{t}[{n}]")));
        }
        for dir in ["EQ", "LT", "GT"] {
            body.push_str(&format!("  cmp{dir}.{t} = pred[{n}] compare({x}, {y}), direction={dir}\n"));
            roots.push((format!("cmp{dir}.{t}"), format!("pred[{n}]")));
        }
        body.push_str(&format!(
            "  zero.{t} = {t}[] constant(0)\n  sum.{t} = {t}[] reduce({x}, zero.{t}), dimensions={{0}}, to_apply=add.{t}.r\n"
        ));
        roots.push((format!("sum.{t}"), format!("{t}[]")));
    }
    for (from, to) in [("f32", "f64"), ("f64", "f32"), ("f32", "bf16"), ("f32", "f16"), ("f64", "bf16")] {
        body.push_str(&format!("  cvt.{from}.{to} = {to}[{n}] convert(x{from})\n"));
        roots.push((format!("cvt.{from}.{to}"), format!("{to}[{n}]")));
    }
    body.push_str(&format!("  b = bf16[{n}] convert(xf32)\n  cvt.bf16.f64 = f64[{n}] convert(b)\n"));
    roots.push(("cvt.bf16.f64".into(), format!("f64[{n}]")));
    let reducers: String = ["f32", "f64"]
        .iter()
        .map(|t| {
            format!(
                "add.{t}.r {{\n  a = {t}[] parameter(0)\n  b = {t}[] parameter(1)\n  ROOT s = {t}[] add(a, b)\n}}\n\n"
            )
        })
        .collect();
    let names: Vec<&str> = roots.iter().map(|r| r.0.as_str()).collect();
    let types: Vec<&str> = roots.iter().map(|r| r.1.as_str()).collect();
    let text = format!(
        "HloModule subnormals\n\n{reducers}ENTRY e {{\n  xf32 = f32[{n}] parameter(0)\n  yf32 = f32[{n}] parameter(1)\n  \
         xf64 = f64[{n}] parameter(2)\n  yf64 = f64[{n}] parameter(3)\n{body}  ROOT t = ({}) tuple({})\n}}\n",
        types.join(", "),
        names.join(", ")
    );
    let module = smelt_hlo::parse_module(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    // y: the values of x in another order, so every pair class meets.
    let rot = |v: &[f32]| -> Vec<f32> { v.iter().cycle().skip(7).take(v.len()).copied().collect() };
    let rot64 = |v: &[f64]| -> Vec<f64> { v.iter().cycle().skip(7).take(v.len()).copied().collect() };
    let args = vec![
        smelt_hlo::Literal::Array(smelt_hlo::Array::from_vec([n as i64], f32s.clone())),
        smelt_hlo::Literal::Array(smelt_hlo::Array::from_vec([n as i64], rot(&f32s))),
        smelt_hlo::Literal::Array(smelt_hlo::Array::from_vec([n as i64], f64s.clone())),
        smelt_hlo::Literal::Array(smelt_hlo::Array::from_vec([n as i64], rot64(&f64s))),
    ];
    let want = Compiled::new(module.clone(), smelt::engine::INTERP, Pipeline::None).unwrap().run(&args).unwrap();
    let close = |dtype: smelt_hlo::DType, g: f64, w: f64| -> bool {
        let exact =
            w == 0.0 || !w.is_finite() || w.abs() < f64::from(f32::MIN_POSITIVE) && dtype != smelt_hlo::DType::F64;
        let exact = exact || (dtype == smelt_hlo::DType::F64 && w.abs() < f64::MIN_POSITIVE);
        if exact {
            g.to_bits() == w.to_bits() || (g.is_nan() && w.is_nan())
        } else {
            let tol = if dtype == smelt_hlo::DType::F64 { 1e-13 } else { 2e-6 };
            (g - w).abs() <= tol * w.abs()
        }
    };
    let mut failures = Vec::new();
    for backend in ["cpu", "cranelift"] {
        for pipeline in [Pipeline::None, Pipeline::Default] {
            let got = Compiled::new(module.clone(), backend, pipeline).unwrap().run(&args).unwrap();
            for ((g, w), name) in got.iter().zip(&want).zip(&names) {
                let dtype = w.dtype();
                for i in 0..w.len() {
                    let (gv, wv) = (g.data.get_f64(i), w.data.get_f64(i));
                    if !close(dtype, gv, wv) {
                        failures.push(format!("{backend} ({pipeline:?}) {name}[{i}]: got {gv:e}, want {wv:e}"));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} mismatches:\n{}", failures.len(), failures.join("\n"));
}

/// NCHW convolution blocks as ONNX exporters write them (1x1, 3x3 and
/// grouped 1x1 convolutions, batch 1 and 2, strided, a per-channel scale and
/// shift, a residual and a ReLU) on the compiled backends against the interpreter:
/// 1x1 convolutions become dots with the kernel as left operand, their
/// epilogues index channels per row, and small images split features
/// between tasks.
#[test]
fn nchw_convolution_blocks_match_the_interpreter() {
    for (n, s) in [(1, 1), (2, 1), (1, 2)] {
        let o = 9 / s + if 9 % s == 0 { 0 } else { 1 };
        let text = format!(
            "HloModule m\n\nENTRY e {{\n  x = f32[{n},32,9,9] parameter(0)\n  w = f32[96,32,1,1] parameter(1)\n  \
             k = f32[96,96,3,3] parameter(2)\n  scale = f32[96] parameter(3)\n  shift = f32[96] parameter(4)\n  \
             r = f32[{n},96,{o},{o}] parameter(5)\n  \
             c = f32[{n},96,{o},{o}] convolution(x, w), window={{size=1x1 stride={s}x{s}}}, dim_labels=bf01_oi01->bf01\n  \
             bs = f32[{n},96,{o},{o}] broadcast(scale), dimensions={{1}}\n  m = f32[{n},96,{o},{o}] multiply(c, bs)\n  \
             bb = f32[{n},96,{o},{o}] broadcast(shift), dimensions={{1}}\n  a = f32[{n},96,{o},{o}] add(m, bb)\n  \
             a2 = f32[{n},96,{o},{o}] add(a, r)\n  z = f32[] constant(0)\n  bz = f32[{n},96,{o},{o}] broadcast(z), dimensions={{}}\n  \
             y = f32[{n},96,{o},{o}] maximum(a2, bz)\n  \
             c3 = f32[{n},96,{o},{o}] convolution(y, k), window={{size=3x3 pad=1_1x1_1}}, dim_labels=bf01_oi01->bf01\n  \
             g = f32[96,24,1,1] parameter(6)\n  \
             ROOT c4 = f32[{n},96,{o},{o}] convolution(c3, g), window={{size=1x1}}, dim_labels=bf01_oi01->bf01, feature_group_count=4\n}}\n"
        );
        let module = smelt_hlo::parse_module(&text).unwrap();
        let args = smelt::hlo::random::random_inputs(&module.entry().param_shapes()).unwrap();
        let want = Compiled::new(module.clone(), smelt::engine::INTERP, Pipeline::None).unwrap().run(&args).unwrap();
        let w = want[0].values::<f32>().unwrap();
        let scale = w.iter().fold(1f32, |m, v| m.max(v.abs()));
        for backend in ["cpu", "cranelift"] {
            let got = Compiled::new(module.clone(), backend, Pipeline::Default).unwrap().run(&args).unwrap();
            for (i, (a, b)) in got[0].values::<f32>().unwrap().iter().zip(w).enumerate() {
                assert!((a - b).abs() <= 1e-4 * scale, "{backend} n={n} s={s} [{i}]: {a} vs {b}");
            }
        }
    }
}

/// Quantized layers as ONNX's QDQ form lowers them (u8 activations with a
/// zero point, s8 weights, f32 scales, requantized to u8): after the
/// optimizer folds them into u8 x s8 integer products (padding moved into a
/// `pad` with the zero point, the zero point's share subtracted as weight
/// sums), the CPU backend's `vpdpbusd` kernels and Cranelift compute what the
/// interpreter computes on the same optimized module, bit for bit; and the
/// result stays within one quantization step of the float form.
#[test]
fn quantized_products_on_integer_kernels_match_the_interpreter() {
    let text = "HloModule q\n\nENTRY e {\n  x = u8[2,16,10,10] parameter(0)\n  w = s8[24,16,3,3] parameter(1)\n  \
        a = u8[37,200] parameter(2)\n  v = s8[200,40] parameter(3)\n  \
        x32 = s32[2,16,10,10] convert(x)\n  zx = s32[] constant(118)\n  zxb = s32[2,16,10,10] broadcast(zx), dimensions={}\n  \
        xi = s32[2,16,10,10] subtract(x32, zxb)\n  xf = f32[2,16,10,10] convert(xi)\n  sx = f32[] constant(0.05)\n  \
        sxb = f32[2,16,10,10] broadcast(sx), dimensions={}\n  xd = f32[2,16,10,10] multiply(xf, sxb)\n  \
        wf = f32[24,16,3,3] convert(w)\n  sw = f32[24] parameter(4)\n  swb = f32[24,16,3,3] broadcast(sw), dimensions={0}\n  \
        wd = f32[24,16,3,3] multiply(wf, swb)\n  \
        c = f32[2,24,5,5] convolution(xd, wd), window={size=3x3 stride=2x2 pad=1_1x1_1}, dim_labels=bf01_oi01->bf01\n  \
        so = f32[] constant(0.4)\n  sob = f32[2,24,5,5] broadcast(so), dimensions={}\n  q = f32[2,24,5,5] divide(c, sob)\n  \
        r = f32[2,24,5,5] round-nearest-even(q)\n  zo = f32[] constant(128)\n  zob = f32[2,24,5,5] broadcast(zo), dimensions={}\n  \
        rz = f32[2,24,5,5] add(r, zob)\n  lo = f32[] constant(0)\n  hi = f32[] constant(255)\n  \
        lob = f32[2,24,5,5] broadcast(lo), dimensions={}\n  hib = f32[2,24,5,5] broadcast(hi), dimensions={}\n  \
        cl = f32[2,24,5,5] clamp(lob, rz, hib)\n  y = u8[2,24,5,5] convert(cl)\n  \
        a32 = s32[37,200] convert(a)\n  za = s32[] constant(3)\n  zab = s32[37,200] broadcast(za), dimensions={}\n  \
        ai = s32[37,200] subtract(a32, zab)\n  v32 = s32[200,40] convert(v)\n  \
        d = s32[37,200] dot(ai, v32), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n  \
        ROOT t = (u8[2,24,5,5], s32[37,40]) tuple(y, d)\n}\n";
    let text = text.replace("s32[37,200] dot(", "s32[37,40] dot(");
    let module = smelt_hlo::parse_module(&text).unwrap();
    let mut optimized = module.clone();
    let options = smelt_passes::Options { u8s8_products: true, ..Default::default() };
    let mut cx = smelt_passes::PassContext::new(options.clone());
    smelt_passes::default_pipeline(&options).run_on(&mut optimized, &mut cx).unwrap();
    assert_eq!(cx.counters.get("dequantized_products_folded"), Some(&1), "{:?}", cx.counters);
    assert_eq!(cx.counters.get("integer_products_narrowed"), Some(&1), "{:?}", cx.counters);
    let printed = smelt_hlo::print_module(&optimized);
    assert!(printed.contains("u8[2,16,12,12]") && printed.contains("pad("), "{printed}");
    let mut args = smelt::hlo::random::random_inputs(&module.entry().param_shapes()).unwrap();
    if let smelt_hlo::Literal::Array(s) = &mut args[4] {
        s.data = smelt_hlo::ArrayData::F32((0..24).map(|i| 0.002 + 0.0004 * i as f32).collect());
    }
    let want = Compiled::new(optimized.clone(), smelt::engine::INTERP, Pipeline::None).unwrap().run(&args).unwrap();
    for backend in ["cpu", "cranelift"] {
        let got = Compiled::new(optimized.clone(), backend, Pipeline::None).unwrap().run(&args).unwrap();
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert_eq!(g.data.to_le_bytes(), w.data.to_le_bytes(), "{backend}: output {i}");
        }
    }
    // Through the whole pipeline as each backend sets it up: the s32 product
    // requantized in its epilogue (a type-changing epilogue, the product kept
    // in scratch) on the CPU backend, on 16-bit operands on Cranelift.
    for backend in ["cpu", "cranelift"] {
        let got = Compiled::new(module.clone(), backend, Pipeline::Default).unwrap().run(&args).unwrap();
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert_eq!(g.data.to_le_bytes(), w.data.to_le_bytes(), "{backend} (pipeline): output {i}");
        }
    }
    // The float form, as written: the same within one step of the output.
    let float = Compiled::new(module, smelt::engine::INTERP, Pipeline::None).unwrap().run(&args).unwrap();
    let (g, w) = (want[0].values::<u8>().unwrap(), float[0].values::<u8>().unwrap());
    assert!(g.iter().zip(w).all(|(a, b)| a.abs_diff(*b) <= 1));
    assert_eq!(want[1].data.to_le_bytes(), float[1].data.to_le_bytes(), "integer products are exact");
}

/// Rounded divisions by constants (every quantization's `round(x / scale)`)
/// are reciprocal multiplications with an exact correction on the compiled
/// backends (`smelt_kernel`'s `division`): bit for bit the interpreter's
/// division, near ties, at zeros of both signs, infinities, NaN and extremes.
#[test]
fn rounded_divisions_by_constants_match_the_interpreter() {
    for c in [0.0540383905f32, 0.1, 3.0, 1.9999999, 1e-18, 1e17] {
        let mut xs = vec![0.0f32, -0.0, f32::INFINITY, f32::NEG_INFINITY, f32::NAN, f32::MAX, f32::MIN, 1e-45, 1e30];
        for k in -200..200 {
            let tie = (k as f32 + 0.5) * c;
            xs.extend((-3i32..=3).map(|d| f32::from_bits(tie.to_bits().wrapping_add_signed(d))));
        }
        let n = xs.len();
        let text = format!(
            "HloModule m\nENTRY e {{\n  x = f32[{n}] parameter(0)\n  c = f32[] constant({c:e})\n  \
             y = f32[{n}] broadcast(c), dimensions={{}}\n  q = f32[{n}] divide(x, y)\n  \
             r = f32[{n}] round-nearest-even(q)\n  a = f32[{n}] round-nearest-afz(q)\n  \
             ROOT t = (f32[{n}], f32[{n}]) tuple(r, a)\n}}\n"
        );
        let module = smelt_hlo::parse_module(&text).unwrap();
        let args = [smelt_hlo::Literal::Array(smelt_hlo::Array::new([n as i64], smelt_hlo::ArrayData::F32(xs)))];
        let want = Compiled::new(module.clone(), smelt::engine::INTERP, Pipeline::None).unwrap().run(&args).unwrap();
        for backend in ["cpu", "cranelift"] {
            let got = Compiled::new(module.clone(), backend, Pipeline::Default).unwrap().run(&args).unwrap();
            for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                let (g, w) = (g.values::<f32>().unwrap(), w.values::<f32>().unwrap());
                let same = g.iter().zip(w).all(|(a, b)| a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()));
                assert!(same, "{backend}: output {i} of x / {c}");
            }
        }
    }
}

/// Elementwise chains of one 8-bit value become table lookups (the
/// `lookup-tables` pass): through each compiled backend's pipeline, bit for
/// bit the interpreter's run of the chain as written.
#[test]
fn lookup_tables_match_the_chains_they_replace() {
    for text in [
        include_str!("../../passes/tests/filecheck/lookup-tables/qdq_tanh.hlo"),
        include_str!("../../passes/tests/filecheck/lookup-tables/s8_logistic.hlo"),
        include_str!("../../passes/tests/filecheck/lookup-tables/shared_output.hlo"),
    ] {
        let module = smelt_hlo::parse_module(text).unwrap();
        let args = smelt::hlo::random::random_inputs(&module.entry().param_shapes()).unwrap();
        let want = Compiled::new(module.clone(), smelt::engine::INTERP, Pipeline::None).unwrap().run(&args).unwrap();
        for backend in ["cpu", "cranelift"] {
            let got = Compiled::new(module.clone(), backend, Pipeline::Default).unwrap().run(&args).unwrap();
            for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                assert_eq!(g.data.to_le_bytes(), w.data.to_le_bytes(), "{backend}: {} output {i}", module.name);
            }
        }
    }
}
