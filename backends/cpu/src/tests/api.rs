//! The public API: argument checks, emission, vectorization, options, errors.

use super::*;
use smelt_llvm::LlvmError;

use crate::{CompileOptions, CpuError, Emit, Executable};

/// `out = x * 2 + y` over f32[n].
fn axpy(n: i64) -> Program {
    one_kernel(xy_kernel(DType::F32, n, |b, x, y| {
        let two = b.float(DType::F32, 2.0);
        let m = b.bin(BinaryOp::Mul, x, two);
        vec![b.bin(BinaryOp::Add, m, y)]
    }))
}

fn text(p: &Program, what: Emit) -> String {
    match emit(p, &CompileOptions::default(), what) {
        Ok(b) => String::from_utf8_lossy(&b).into_owned(),
        Err(e) => panic!("emit failed: {e}"),
    }
}

#[test]
fn elementwise_kernel_runs() {
    let x: Vec<f32> = (0..1000).map(|i| i as f32).collect();
    let y: Vec<f32> = (0..1000).map(|i| 0.5 * i as f32).collect();
    for o in [CompileOptions::default(), CompileOptions { opt_level: 0, parallel: false, ..Default::default() }] {
        let r = run_with(&axpy(1000), &[f32s(&[1000], &x), f32s(&[1000], &y)], &o);
        let want: Vec<f32> = x.iter().zip(&y).map(|(a, b)| a * 2.0 + b).collect();
        assert_eq!(r[0].values::<f32>().unwrap_or(&[]), want.as_slice());
    }
}

#[test]
fn elementwise_kernels_vectorize() {
    let ir = text(&axpy(4096), Emit::OptimizedLlvmIr);
    assert!(ir.contains("<16 x float>") || ir.contains("<8 x float>"), "no vector code:\n{ir}");
    // A 2-D elementwise kernel runs as one flat loop, also vectorized.
    let mut b = Gb::new();
    let (i, j) = (b.index(0), b.index(1));
    let x = b.load(0, &[i, j], DType::F32);
    let o = b.un(UnaryOp::Abs, x);
    let ir =
        text(&one_kernel(loop_kernel(vec![at(DType::F32, &[3, 7])], &[3, 7], b.g, vec![o])), Emit::OptimizedLlvmIr);
    assert!(ir.contains("x float>"), "no vector code:\n{ir}");
}

/// An output that needs an integer division runs in a loop of its own, so
/// the kernel's other outputs still vectorize (x86 has no vector division).
#[test]
fn integer_division_does_not_keep_other_outputs_scalar() {
    let k = xy_kernel(DType::S32, 4096, |b, x, y| vec![b.bin(BinaryOp::Add, x, y), b.bin(BinaryOp::Div, x, y)]);
    let ir = text(&one_kernel(k.clone()), Emit::OptimizedLlvmIr);
    assert!(ir.contains("add <16 x i32>") || ir.contains("add <8 x i32>") || ir.contains("add nsw <16 x i32>"), "{ir}");
    let xs: Vec<i32> = (0..4096).map(|i| i * 7 - 9000).collect();
    let ys: Vec<i32> = (0..4096).map(|i| if i % 5 == 0 { 0 } else { i % 13 - 6 }).collect();
    let r = run(&one_kernel(k), &[Array::from_vec([4096], xs.clone()), Array::from_vec([4096], ys.clone())]);
    let sums: Vec<i32> = xs.iter().zip(&ys).map(|(a, b)| a.wrapping_add(*b)).collect();
    // XLA's rule: x / 0 = -1.
    let quotients: Vec<i32> = xs.iter().zip(&ys).map(|(a, b)| if *b == 0 { -1 } else { a.wrapping_div(*b) }).collect();
    assert_eq!(r[0].values::<i32>().unwrap_or(&[]), sums.as_slice());
    assert_eq!(r[1].values::<i32>().unwrap_or(&[]), quotients.as_slice());
}

#[test]
fn emits_every_stage() {
    let p = axpy(64);
    let ir = text(&p, Emit::LlvmIr);
    assert!(ir.contains("define i32 @smelt_run(ptr") && ir.contains("@kernel_0(ptr"), "{ir}");
    assert!(ir.contains("noalias"), "distinct buffers are noalias:\n{ir}");
    let asm = text(&p, Emit::Assembly);
    assert!(asm.contains("smelt_run"), "{asm}");
    let obj = match emit(&p, &CompileOptions::default(), Emit::Object) {
        Ok(o) => o,
        Err(e) => panic!("{e}"),
    };
    assert_eq!(&obj[..4], b"\x7fELF");
    // Another target: an object for aarch64.
    let o = CompileOptions { triple: Some("aarch64-unknown-linux-gnu".into()), ..Default::default() };
    match emit(&p, &o, Emit::Object) {
        Ok(obj) => assert_eq!(&obj[..4], b"\x7fELF"),
        Err(e) => panic!("{e}"),
    }
    assert!(matches!(compile(&p, &o), Err(CpuError::Unsupported(_))));
}

#[test]
fn arguments_are_checked_by_name() {
    let exe = match compile(&axpy(4), &CompileOptions::default()) {
        Ok(e) => e,
        Err(e) => panic!("{e}"),
    };
    let good = f32s(&[4], &[1.0; 4]);
    match exe.run(std::slice::from_ref(&good)) {
        Err(smelt_kernel::BackendError::Arguments(smelt_kernel::ArgumentError::Count { expected: 2, got: 1 })) => {}
        other => panic!("{other:?}"),
    }
    let e = exe.run(&[good.clone(), f32s(&[2, 2], &[1.0; 4])]).err().map(|e| e.to_string()).unwrap_or_default();
    assert_eq!(e, "parameter 1: expected f32[4], got f32[2,2]");
    let e =
        exe.run(&[Array::from_vec([4], vec![1i32; 4]), good.clone()]).err().map(|e| e.to_string()).unwrap_or_default();
    assert_eq!(e, "parameter 0: expected f32[4], got s32[4]");
    assert_eq!(exe.params().len(), 2);
    assert_eq!(exe.results(), &[at(DType::F32, &[4])]);
}

#[test]
fn executables_run_from_many_threads() {
    fn shareable<T: Send + Sync>(_: &T) {}
    let exe: Executable = match compile(&axpy(300), &CompileOptions::default()) {
        Ok(e) => e,
        Err(e) => panic!("{e}"),
    };
    shareable(&exe);
    std::thread::scope(|s| {
        for t in 0..4 {
            let exe = &exe;
            s.spawn(move || {
                for r in 0..20 {
                    let x = f32s(&[300], &vec![(t * 100 + r) as f32; 300]);
                    let y = f32s(&[300], &[1.0; 300]);
                    let out = exe.run(&[x, y]).unwrap_or_default();
                    let want = (t * 100 + r) as f32 * 2.0 + 1.0;
                    assert!(out[0].values::<f32>().unwrap_or(&[]).iter().all(|&v| v == want));
                }
            });
        }
    });
}

#[test]
fn bad_programs_are_errors_not_panics() {
    let mut p = axpy(4);
    p.steps = vec![Step::Kernel { kernel: KernelId(3), inputs: vec![], outputs: vec![] }];
    assert!(matches!(compile(&p, &CompileOptions::default()), Err(CpuError::Codegen(LlvmError::InvalidProgram(_)))));
    let mut p = axpy(4);
    if let Step::Kernel { inputs, .. } = &mut p.steps[0] {
        inputs[0].buffer = Buffer::Temp(1024);
    }
    assert!(matches!(compile(&p, &CompileOptions::default()), Err(CpuError::Codegen(LlvmError::InvalidProgram(_)))));
    let mut p = axpy(4);
    p.steps.push(Step::Copy {
        src: BufRef { buffer: Buffer::Param(0), ty: at(DType::F32, &[4]) },
        dst: BufRef { buffer: Buffer::Result(0), ty: at(DType::F32, &[2]) },
    });
    assert!(matches!(compile(&p, &CompileOptions::default()), Err(CpuError::Codegen(LlvmError::InvalidProgram(_)))));
    // popcnt on a float breaks the type rules: the verifier refuses it.
    let mut b = Gb::new();
    let i = b.index(0);
    let x = b.load(0, &[i], DType::F32);
    let o = b.un(UnaryOp::Popcnt, x);
    let p = one_kernel(loop_kernel(vec![at(DType::F32, &[4])], &[4], b.g, vec![o]));
    assert!(matches!(compile(&p, &CompileOptions::default()), Err(CpuError::Codegen(LlvmError::InvalidProgram(_)))));
    // A node that refers forward.
    let mut b = Gb::new();
    let i = b.index(0);
    b.push(Node::Unary { op: UnaryOp::Neg, x: NodeId(5) }, DType::F32);
    let x = b.load(0, &[i], DType::F32);
    let p = one_kernel(loop_kernel(vec![at(DType::F32, &[4])], &[4], b.g, vec![NodeId(1), x]));
    assert!(matches!(compile(&p, &CompileOptions::default()), Err(CpuError::Codegen(LlvmError::InvalidProgram(_)))));
}

use smelt_hlo::random::SplitMix as Rng;

/// A dimension for the mutation test: often invalid or absurd.
fn dim(r: &mut Rng) -> i64 {
    [-1, 0, 1, 2, 3, 7, 1 << 40, i64::MAX][r.below(8)]
}

fn mutate_graph(g: &mut Graph, r: &mut Rng) {
    let n = g.nodes.len();
    if n == 0 {
        return;
    }
    let k = r.below(n);
    let any = NodeId(r.below(n + 2) as u32);
    match r.below(5) {
        0 => g.types[k] = DType::ALL[r.below(13)],
        1 => {
            g.nodes[k] = match &g.nodes[k] {
                Node::Load { input, index } => {
                    let mut index = index.clone();
                    if index.is_empty() || r.below(2) == 0 {
                        index.push(any);
                    } else {
                        let j = r.below(index.len());
                        index[j] = any;
                    }
                    Node::Load { input: *input + r.below(2), index }
                }
                Node::Binary { op, a, .. } => Node::Binary { op: *op, a: *a, b: any },
                Node::Unary { op, .. } => Node::Unary { op: *op, x: any },
                Node::Index(d) => Node::Index(d + r.below(3)),
                other => other.clone(),
            }
        }
        2 => g.nodes[k] = Node::Convert { x: any, to: DType::ALL[r.below(13)] },
        3 => g.nodes[k] = Node::Select { pred: any, on_true: NodeId(0), on_false: any },
        _ => g.nodes[k] = Node::Bitcast { x: any, to: DType::ALL[r.below(13)] },
    }
}

fn mutate(p: &mut Program, r: &mut Rng) {
    let nk = p.kernels.len();
    match r.below(6) {
        0 if nk > 0 => {
            let k = &mut p.kernels[r.below(nk)];
            match &mut k.body {
                KernelBody::Loop { graph, .. }
                | KernelBody::Reduce { graph, .. }
                | KernelBody::Scan { graph, .. }
                | KernelBody::UpdateSlice { graph, .. }
                | KernelBody::Scatter { graph, .. } => mutate_graph(graph, r),
                KernelBody::Sort { comparator, .. } => mutate_graph(&mut comparator.graph, r),
                KernelBody::SelectAndScatter { select, .. } => mutate_graph(&mut select.graph, r),
                KernelBody::RngBitGenerator { .. } => {}
            }
        }
        1 if nk > 0 => {
            let k = &mut p.kernels[r.below(nk)];
            let d = dim(r);
            match &mut k.body {
                KernelBody::Loop { space, .. } | KernelBody::Reduce { space, .. } if !space.is_empty() => {
                    let j = r.below(space.len());
                    space[j] = d;
                }
                KernelBody::Reduce { reduced, .. } => reduced.push(r.below(4)),
                KernelBody::Scan { space, axis, .. } => match r.below(2) {
                    0 => *axis += r.below(3),
                    _ if !space.is_empty() => {
                        let j = r.below(space.len());
                        space[j] = d;
                    }
                    _ => {}
                },
                KernelBody::Sort { dimension, .. } => *dimension += r.below(3),
                _ => {}
            }
        }
        2 if nk > 0 => {
            let k = &mut p.kernels[r.below(nk)];
            let all: Vec<&mut ArrayType> = k.inputs.iter_mut().chain(k.outputs.iter_mut()).collect();
            let n = all.len();
            if n > 0 {
                let t = all.into_iter().nth(r.below(n));
                if let Some(t) = t {
                    if t.dims.is_empty() || r.below(3) == 0 {
                        t.dtype = DType::ALL[r.below(13)];
                    } else {
                        let j = r.below(t.dims.len());
                        t.dims[j] = dim(r);
                    }
                }
            }
        }
        3 => {
            if let Some(Step::Kernel { inputs, outputs, kernel }) = p.steps.first_mut() {
                match r.below(4) {
                    0 => kernel.0 += r.below(2) as u32,
                    1 if !inputs.is_empty() => inputs[0].buffer = Buffer::Temp(r.below(100)),
                    2 if !outputs.is_empty() => outputs[0].buffer = Buffer::Param(r.below(3) as u32),
                    _ => {
                        inputs.pop();
                    }
                }
            }
        }
        4 => p.temp_bytes = r.below(4096),
        _ => {
            if let Some(t) = p.params.first_mut()
                && !t.dims.is_empty()
            {
                t.dims[0] = dim(r);
            }
        }
    }
}

#[test]
fn mutated_programs_are_errors_not_panics() {
    let mut seeds = vec![axpy(8)];
    // A reduction with an inline reduction inside, a two-operand sort, random bits.
    seeds.push(sum2d(4, 6, 0, DType::F32));
    let mut c = Gb::new();
    let (a, b) = (c.param(0, DType::S32), c.param(1, DType::S32));
    let lt = c.cmp(ComparisonDirection::Lt, None, a, b);
    seeds.push(one_kernel(Kernel {
        name: "s".into(),
        inputs: vec![at(DType::S32, &[300]), at(DType::F32, &[300])],
        outputs: vec![at(DType::S32, &[300]), at(DType::F32, &[300])],
        body: KernelBody::Sort {
            dims: vec![300],
            dimension: 0,
            stable: true,
            comparator: ScalarFn {
                params: vec![DType::S32, DType::S32, DType::F32, DType::F32],
                graph: c.g,
                outputs: vec![lt],
                pattern: None,
            },
        },
    }));
    seeds.push(one_kernel(Kernel {
        name: "g".into(),
        inputs: vec![at(DType::U64, &[2])],
        outputs: vec![at(DType::U64, &[2]), at(DType::U32, &[5])],
        body: KernelBody::RngBitGenerator { algorithm: smelt_hlo::attrs::RngAlgorithm::ThreeFry },
    }));
    let mut r = Rng::new(0x9e3779b97f4a7c15);
    let o = CompileOptions::default();
    let mut errors = 0;
    for n in 0..400 {
        let mut p = seeds[n % seeds.len()].clone();
        for _ in 0..1 + r.below(3) {
            mutate(&mut p, &mut r);
        }
        let res = std::panic::catch_unwind(|| emit(&p, &o, Emit::LlvmIr).map(|_| ()));
        match res {
            Ok(Ok(())) => {}
            Ok(Err(_)) => errors += 1,
            Err(_) => panic!("codegen panicked on mutation {n}: {p:#?}"),
        }
    }
    assert!(errors > 100, "mutations should mostly be rejected ({errors})");
}

#[test]
fn profiles_count_every_step_of_every_run() {
    // Two kernel launches and a copy, each timed on every run.
    let mut p = one_kernel(scalar_op(DType::F32, &[], BinaryOp::Mul, 2.0));
    let t = BufRef { buffer: Buffer::Result(0), ty: at(DType::F32, &[]) };
    p.steps.push(Step::Kernel { kernel: KernelId(0), inputs: vec![t.clone()], outputs: vec![t.clone()] });
    p.steps.push(Step::Copy { src: t.clone(), dst: t });
    let o = CompileOptions { profile: true, ..Default::default() };
    let exe = compile(&p, &o).unwrap_or_else(|e| panic!("{e}"));
    for _ in 0..3 {
        let r = exe.run(&[Array::scalar(1.5f32)]).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(r[0].values::<f32>().unwrap_or(&[]), &[6.0]);
    }
    let steps = exe.profile().unwrap_or_default();
    let labels: Vec<&str> = steps.iter().map(|s| s.label.as_str()).collect();
    assert_eq!(labels, ["k0 k (loop )", "k0 k (loop )", "copy 4 bytes"]);
    assert!(steps.iter().all(|s| s.calls == 3 && s.total_ms >= 0.0));
    exe.reset_profile();
    assert!(exe.profile().unwrap_or_default().iter().all(|s| s.calls == 0 && s.total_ms == 0.0));
    let plain = compile(&p, &CompileOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    assert!(plain.profile().is_none());
}

/// Kernels identical but for their names (the layers of an unrolled network)
/// share one function for one buffer-aliasing pattern, and so do identical
/// dot epilogues; each use still computes its own operands, as the
/// interpreter does.
#[test]
fn identical_kernels_and_epilogues_are_generated_once() {
    let hlo = "HloModule m
layer1 {
  p = f32[8,16] parameter(0)
  ROOT t = f32[8,16] tanh(p)
}
layer2 {
  q = f32[8,16] parameter(0)
  ROOT u = f32[8,16] tanh(q)
}
epi1 {
  d = f32[8,16] parameter(0)
  ROOT r = f32[8,16] exponential(d)
}
epi2 {
  e = f32[8,16] parameter(0)
  ROOT s = f32[8,16] exponential(e)
}
dot1 {
  a = f32[8,4] parameter(0)
  b = f32[4,16] parameter(1)
  dt = f32[8,16] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT x = f32[8,16] exponential(dt)
}
dot2 {
  a2 = f32[8,4] parameter(0)
  b2 = f32[4,16] parameter(1)
  dt2 = f32[8,16] dot(a2, b2), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT x2 = f32[8,16] exponential(dt2)
}
ENTRY e {
  x = f32[8,16] parameter(0)
  w = f32[4,16] parameter(1)
  v = f32[8,4] parameter(2)
  f1 = f32[8,16] fusion(x), kind=kLoop, calls=layer1
  f2 = f32[8,16] fusion(x), kind=kLoop, calls=layer2
  g1 = f32[8,16] fusion(v, w), kind=kOutput, calls=dot1
  g2 = f32[8,16] fusion(v, w), kind=kOutput, calls=dot2
  ROOT t = (f32[8,16], f32[8,16], f32[8,16], f32[8,16]) tuple(f1, f2, g1, g2)
}
";
    let args = [inputs(DType::F32, &[8, 16], 1), inputs(DType::F32, &[4, 16], 2), inputs(DType::F32, &[8, 4], 3)];
    let program = check_hlo(hlo, &args, 1e-6);
    let ir = text(&program, Emit::LlvmIr);
    // Entry points, not their always-inlined `.body` functions.
    let defined = |prefix: &str| {
        ir.lines().filter(|l| l.starts_with("define") && l.contains(prefix) && !l.contains(".body(")).count()
    };
    assert!(program.kernels.len() >= 4, "{} kernels", program.kernels.len());
    assert_eq!(defined("@kernel_"), 1, "one tanh kernel:\n{ir}");
    assert_eq!(defined("@epilogue_"), 1, "one exp epilogue:\n{ir}");
}

/// With two or more cores, a program's larger kernels are compiled in modules
/// of their own on other threads, linked beside the program's: the results
/// are the interpreter's all the same.
#[test]
fn kernels_compile_in_parallel_modules() {
    let hlo = "HloModule m
f1 {
  p = f32[64,48] parameter(0)
  e = f32[64,48] exponential(p)
  t = f32[64,48] tanh(e)
  u = f32[64,48] logistic(t)
  ROOT v = f32[64,48] erf(u)
}
f2 {
  q = f32[64,48] parameter(0)
  l = f32[64,48] log-plus-one(q)
  s = f32[64,48] sine(l)
  m = f32[64,48] exponential-minus-one(s)
  ROOT n = f32[64,48] cbrt(m)
}
f3 {
  r = f32[64,48] parameter(0)
  c = f32[64,48] cosine(r)
  a = f32[64,48] atan2(c, r)
  w = f32[64,48] tan(a)
  ROOT z = f32[64,48] log-plus-one(w)
}
ENTRY e {
  x = f32[64,48] parameter(0)
  y = f32[64,48] abs(x)
  a = f32[64,48] fusion(x), kind=kLoop, calls=f1
  b = f32[64,48] fusion(y), kind=kLoop, calls=f2
  c = f32[64,48] fusion(x), kind=kLoop, calls=f3
  ROOT t = (f32[64,48], f32[64,48], f32[64,48]) tuple(a, b, c)
}
";
    let args = [inputs(DType::F32, &[64, 48], 4)];
    let program = check_hlo(hlo, &args, 1e-5);
    // Compiled, not interpreted (the program is small enough for that).
    let o = CompileOptions { tiles: crate::TileMode::Off, ..Default::default() };
    let exe = compile(&program, &o).unwrap_or_else(|e| panic!("{e}"));
    let phases = smelt_kernel::Executable::compile_phases(&exe);
    let modules = phases
        .iter()
        .find_map(|(name, _)| name.strip_prefix("kernel modules (")?.split(')').next()?.parse::<usize>().ok());
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if cores >= 2 {
        assert!(modules.is_some_and(|m| m >= 1), "no kernel module beside the program's: {phases:?}");
    }
}

/// Dot epilogues are shared out to the kernel modules like kernels (each
/// defined there and declared in the program's module): the results are the
/// interpreter's all the same.
#[test]
fn epilogues_compile_in_parallel_modules() {
    let hlo = "HloModule m
dot1 {
  a = f32[32,16] parameter(0)
  b = f32[16,48] parameter(1)
  d = f32[32,48] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  e = f32[32,48] exponential(d)
  t = f32[32,48] tanh(e)
  ROOT l = f32[32,48] logistic(t)
}
dot2 {
  a2 = f32[32,16] parameter(0)
  b2 = f32[16,48] parameter(1)
  d2 = f32[32,48] dot(a2, b2), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  s = f32[32,48] sine(d2)
  c = f32[32,48] cosine(s)
  ROOT r = f32[32,48] erf(c)
}
ENTRY e {
  x = f32[32,16] parameter(0)
  w = f32[16,48] parameter(1)
  g1 = f32[32,48] fusion(x, w), kind=kOutput, calls=dot1
  g2 = f32[32,48] fusion(x, w), kind=kOutput, calls=dot2
  ROOT t = (f32[32,48], f32[32,48]) tuple(g1, g2)
}
";
    let args = [inputs(DType::F32, &[32, 16], 5), inputs(DType::F32, &[16, 48], 6)];
    let program = check_hlo(hlo, &args, 1e-5);
    let exe = compile(&program, &CompileOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let phases = smelt_kernel::Executable::compile_phases(&exe);
    let remote_epilogues: usize = phases
        .iter()
        .filter_map(|(name, _)| name.split(" kernels, ").nth(1)?.split(' ').next()?.parse::<usize>().ok())
        .sum();
    if std::thread::available_parallelism().map_or(1, |n| n.get()) >= 2 {
        assert!(remote_epilogues >= 1, "no epilogue in a kernel module: {phases:?}");
    }
}
