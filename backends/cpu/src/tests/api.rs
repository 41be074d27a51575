//! The public API: argument checks, emission, vectorization, options, errors.

use super::*;
use crate::{CompileOptions, CpuError, Emit, Executable, emit};

/// `out = x * 2 + y` over f32[n].
fn axpy(n: i64) -> Program {
    let mut b = Gb::new();
    let i = b.index(0);
    let x = b.load(0, &[i], DType::F32);
    let y = b.load(1, &[i], DType::F32);
    let two = b.float(DType::F32, 2.0);
    let m = b.bin(BinaryOp::Mul, x, two);
    let o = b.bin(BinaryOp::Add, m, y);
    one_kernel(loop_kernel(vec![at(DType::F32, &[n]), at(DType::F32, &[n])], &[n], b.g, vec![o]))
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
    assert!(matches!(crate::compile(&p, &o), Err(CpuError::Unsupported(_))));
}

#[test]
fn arguments_are_checked_by_name() {
    let exe = match crate::compile(&axpy(4), &CompileOptions::default()) {
        Ok(e) => e,
        Err(e) => panic!("{e}"),
    };
    let good = f32s(&[4], &[1.0; 4]);
    match exe.run(std::slice::from_ref(&good)) {
        Err(CpuError::ArgumentCount { expected: 2, got: 1 }) => {}
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
    let exe: Executable = match crate::compile(&axpy(300), &CompileOptions::default()) {
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
    assert!(matches!(crate::compile(&p, &CompileOptions::default()), Err(CpuError::InvalidProgram(_))));
    let mut p = axpy(4);
    if let Step::Kernel { inputs, .. } = &mut p.steps[0] {
        inputs[0].buffer = Buffer::Temp(1024);
    }
    assert!(matches!(crate::compile(&p, &CompileOptions::default()), Err(CpuError::InvalidProgram(_))));
    let mut p = axpy(4);
    p.steps.push(Step::Copy {
        src: BufRef { buffer: Buffer::Param(0), ty: at(DType::F32, &[4]) },
        dst: BufRef { buffer: Buffer::Result(0), ty: at(DType::F32, &[2]) },
    });
    assert!(matches!(crate::compile(&p, &CompileOptions::default()), Err(CpuError::InvalidProgram(_))));
    // popcnt on a float is unsupported, not a crash.
    let mut b = Gb::new();
    let i = b.index(0);
    let x = b.load(0, &[i], DType::F32);
    let o = b.un(UnaryOp::Popcnt, x);
    let p = one_kernel(loop_kernel(vec![at(DType::F32, &[4])], &[4], b.g, vec![o]));
    assert!(matches!(crate::compile(&p, &CompileOptions::default()), Err(CpuError::Unsupported(_))));
    // A node that refers forward.
    let mut b = Gb::new();
    let i = b.index(0);
    b.push(Node::Unary { op: UnaryOp::Neg, x: NodeId(5) }, DType::F32);
    let x = b.load(0, &[i], DType::F32);
    let p = one_kernel(loop_kernel(vec![at(DType::F32, &[4])], &[4], b.g, vec![NodeId(1), x]));
    assert!(matches!(crate::compile(&p, &CompileOptions::default()), Err(CpuError::InvalidProgram(_))));
}
