//! Every step kind: kernels over temporaries, copies, parallel copies, while,
//! conditional, constants, dot and convolution (with epilogues), written
//! parameters, parallel launches.

use smelt_hlo::attrs::ConvDims;
use smelt_kernel::{ConstData, ConvStep, DotStep, WindowSpec};

use super::*;

fn buf(buffer: Buffer, t: DType, dims: &[i64]) -> BufRef {
    BufRef { buffer, ty: at(t, dims) }
}

fn launch(k: usize, inputs: Vec<BufRef>, outputs: Vec<BufRef>) -> Step {
    Step::Kernel { kernel: KernelId(k as u32), inputs, outputs }
}

fn program(
    params: Vec<ArrayType>,
    results: Vec<ArrayType>,
    temp: usize,
    kernels: Vec<Kernel>,
    steps: Vec<Step>,
) -> Program {
    Program { name: "p".into(), params, results, temp_bytes: temp, constants: vec![], kernels, steps }
}

#[test]
fn temporaries_copies_and_parallel_copies() {
    let f4 = at(DType::F32, &[4]);
    let t0 = buf(Buffer::Temp(0), DType::F32, &[4]);
    let t1 = buf(Buffer::Temp(64), DType::F32, &[4]);
    let x = buf(Buffer::Param(0), DType::F32, &[4]);
    let kernels =
        vec![scalar_op(DType::F32, &[4], BinaryOp::Mul, 2.0), scalar_op(DType::F32, &[4], BinaryOp::Add, 1.0)];
    let p = program(
        vec![f4.clone()],
        vec![f4.clone(), f4.clone(), f4.clone()],
        128,
        kernels,
        vec![
            launch(0, vec![x.clone()], vec![t0.clone()]),
            launch(1, vec![t0.clone()], vec![t1.clone()]),
            Step::Copy { src: t1.clone(), dst: buf(Buffer::Result(0), DType::F32, &[4]) },
            // Swap the two temporaries: both sources are read before either is written.
            Step::ParallelCopy { moves: vec![(t0.clone(), t1.clone()), (t1.clone(), t0.clone())] },
            Step::Copy { src: t0, dst: buf(Buffer::Result(1), DType::F32, &[4]) },
            Step::Copy { src: t1, dst: buf(Buffer::Result(2), DType::F32, &[4]) },
        ],
    );
    let r = run(&p, &[f32s(&[4], &[1.0, 2.0, 3.0, 4.0])]);
    assert_eq!(r[0].values::<f32>().unwrap_or(&[]), &[3.0, 5.0, 7.0, 9.0]);
    assert_eq!(r[1].values::<f32>().unwrap_or(&[]), &[3.0, 5.0, 7.0, 9.0]);
    assert_eq!(r[2].values::<f32>().unwrap_or(&[]), &[2.0, 4.0, 6.0, 8.0]);
}

#[test]
fn while_loops_run_until_the_condition_fails() {
    // for (c = 0, acc = x; c < 10; c++) acc *= 2
    let c = buf(Buffer::Temp(0), DType::S32, &[]);
    let acc = buf(Buffer::Temp(64), DType::F32, &[3]);
    let pred = buf(Buffer::Temp(128), DType::Pred, &[]);
    let c2 = buf(Buffer::Temp(192), DType::S32, &[]);
    let acc2 = buf(Buffer::Temp(256), DType::F32, &[3]);
    let mut g = Gb::new();
    let cv = g.load(0, &[], DType::S32);
    let ten = g.int(DType::S32, 10);
    let lt = g.cmp(ComparisonDirection::Lt, None, cv, ten);
    let cond = loop_kernel(vec![at(DType::S32, &[])], &[], g.g, vec![lt]);
    let kernels = vec![
        scalar_op(DType::S32, &[], BinaryOp::Mul, 0.0),
        cond,
        scalar_op(DType::S32, &[], BinaryOp::Add, 1.0),
        scalar_op(DType::F32, &[3], BinaryOp::Mul, 2.0),
    ];
    let x = buf(Buffer::Param(0), DType::F32, &[3]);
    let zero_src = buf(Buffer::Param(1), DType::S32, &[]);
    let p = program(
        vec![at(DType::F32, &[3]), at(DType::S32, &[])],
        vec![at(DType::F32, &[3]), at(DType::S32, &[])],
        320,
        kernels,
        vec![
            launch(0, vec![zero_src], vec![c.clone()]),
            Step::Copy { src: x, dst: acc.clone() },
            Step::While {
                cond: vec![launch(1, vec![c.clone()], vec![pred.clone()])],
                pred,
                body: vec![
                    launch(2, vec![c.clone()], vec![c2.clone()]),
                    launch(3, vec![acc.clone()], vec![acc2.clone()]),
                ],
                update: vec![(c2, c.clone()), (acc2, acc.clone())],
            },
            Step::Copy { src: acc, dst: buf(Buffer::Result(0), DType::F32, &[3]) },
            Step::Copy { src: c, dst: buf(Buffer::Result(1), DType::S32, &[]) },
        ],
    );
    let r = run(&p, &[f32s(&[3], &[1.0, -0.5, 3.0]), Array::scalar(77i32)]);
    assert_eq!(r[0].values::<f32>().unwrap_or(&[]), &[1024.0, -512.0, 3072.0]);
    assert_eq!(r[1].values::<i32>().unwrap_or(&[]), &[10]);
}

#[test]
fn conditionals_pick_a_branch_and_clamp_the_index() {
    let x = buf(Buffer::Param(1), DType::F32, &[2]);
    let out = buf(Buffer::Result(0), DType::F32, &[2]);
    let kernels = vec![
        scalar_op(DType::F32, &[2], BinaryOp::Add, 1.0),
        scalar_op(DType::F32, &[2], BinaryOp::Mul, 2.0),
        scalar_op(DType::F32, &[2], BinaryOp::Sub, 3.0),
    ];
    let branches: Vec<Vec<Step>> = (0..3).map(|k| vec![launch(k, vec![x.clone()], vec![out.clone()])]).collect();
    let p = program(
        vec![at(DType::S32, &[]), at(DType::F32, &[2])],
        vec![at(DType::F32, &[2])],
        0,
        kernels.clone(),
        vec![Step::Conditional { index: buf(Buffer::Param(0), DType::S32, &[]), branches }],
    );
    let exe = match compile(&p, &CompileOptions::default()) {
        Ok(e) => e,
        Err(e) => panic!("{e}"),
    };
    let xs = f32s(&[2], &[10.0, 20.0]);
    for (i, want) in [(0, [11.0, 21.0]), (1, [20.0, 40.0]), (2, [7.0, 17.0]), (7, [7.0, 17.0]), (-1, [7.0, 17.0])] {
        let r = exe.run(&[Array::scalar::<i32>(i), xs.clone()]).unwrap_or_default();
        assert_eq!(r[0].values::<f32>().unwrap_or(&[]), &want, "index {i}");
    }
    // A pred index: true runs branch 0.
    let branches: Vec<Vec<Step>> = (0..2).map(|k| vec![launch(k, vec![x.clone()], vec![out.clone()])]).collect();
    let p = program(
        vec![at(DType::Pred, &[]), at(DType::F32, &[2])],
        vec![at(DType::F32, &[2])],
        0,
        kernels,
        vec![Step::Conditional { index: buf(Buffer::Param(0), DType::Pred, &[]), branches }],
    );
    assert_eq!(run(&p, &[Array::scalar(true), xs.clone()])[0].values::<f32>().unwrap_or(&[]), &[11.0, 21.0]);
    assert_eq!(run(&p, &[Array::scalar(false), xs])[0].values::<f32>().unwrap_or(&[]), &[20.0, 40.0]);
}

#[test]
fn constants_are_read_from_globals() {
    let k = xy_kernel(DType::F32, 3, |b, x, c| vec![b.bin(BinaryOp::Add, x, c)]);
    let bytes: Vec<u8> = [0.5f32, 1.5, 2.5].iter().flat_map(|v| v.to_le_bytes()).collect();
    let mut p = program(
        vec![at(DType::F32, &[3])],
        vec![at(DType::F32, &[3])],
        0,
        vec![k],
        vec![launch(
            0,
            vec![buf(Buffer::Param(0), DType::F32, &[3]), buf(Buffer::Const(0), DType::F32, &[3])],
            vec![buf(Buffer::Result(0), DType::F32, &[3])],
        )],
    );
    p.constants.push(ConstData { ty: at(DType::F32, &[3]), bytes });
    assert_eq!(run(&p, &[f32s(&[3], &[1.0, 1.0, 1.0])])[0].values::<f32>().unwrap_or(&[]), &[1.5, 2.5, 3.5]);
}

/// `[b, m, k] x [b, k, n]` in f64 (operands possibly transposed).
fn reference_dot(a: &[f32], b: &[f32], (bt, m, n, k): (usize, usize, usize, usize), ta: bool, tb: bool) -> Vec<f32> {
    let mut out = vec![0f32; bt * m * n];
    for z in 0..bt {
        for i in 0..m {
            for j in 0..n {
                let mut s = 0f32;
                for l in 0..k {
                    let av = if ta { a[z * m * k + l * m + i] } else { a[z * m * k + i * k + l] };
                    let bv = if tb { b[z * k * n + j * k + l] } else { b[z * k * n + l * n + j] };
                    s += av * bv;
                }
                out[z * m * n + i * n + j] = s;
            }
        }
    }
    out
}

#[test]
fn dot_steps_with_transposes_and_epilogues() {
    let (bt, m, n, k) = (2usize, 3usize, 4usize, 5usize);
    let a = wave(bt * m * k);
    let b = wave(bt * k * n).into_iter().map(|v| v * 0.5 - 0.1).collect::<Vec<_>>();
    let bias = [0.25f32, -100.0, 1.0, 0.0];
    for (ta, tb) in [(false, false), (true, false), (false, true), (true, true)] {
        for with_epilogue in [false, true] {
            let lhs_dims: &[i64] = if ta { &[2, 5, 3] } else { &[2, 3, 5] };
            let rhs_dims: &[i64] = if tb { &[2, 4, 5] } else { &[2, 5, 4] };
            let out = buf(Buffer::Result(0), DType::F32, &[2, 3, 4]);
            let mut kernels = Vec::new();
            let epilogue = with_epilogue.then(|| {
                // relu(product + bias[j])
                let mut g = Gb::new();
                let (z, i, j) = (g.index(0), g.index(1), g.index(2));
                let p = g.load(0, &[z, i, j], DType::F32);
                let bj = g.load(1, &[j], DType::F32);
                let s = g.bin(BinaryOp::Add, p, bj);
                let zero = g.float(DType::F32, 0.0);
                let o = g.bin(BinaryOp::Max, s, zero);
                kernels.push(loop_kernel(
                    vec![at(DType::F32, &[2, 3, 4]), at(DType::F32, &[4])],
                    &[2, 3, 4],
                    g.g,
                    vec![o],
                ));
                (KernelId(0), vec![buf(Buffer::Param(2), DType::F32, &[4])])
            });
            let step = DotStep {
                lhs: buf(Buffer::Param(0), DType::F32, lhs_dims),
                rhs: buf(Buffer::Param(1), DType::F32, rhs_dims),
                out,
                batch: 2,
                m: 3,
                n: 4,
                k: 5,
                lhs_transposed: ta,
                rhs_transposed: tb,
                epilogue,
            };
            let p = program(
                vec![at(DType::F32, lhs_dims), at(DType::F32, rhs_dims), at(DType::F32, &[4])],
                vec![at(DType::F32, &[2, 3, 4])],
                0,
                kernels,
                vec![Step::Dot(Box::new(step))],
            );
            let r = run(&p, &[f32s(lhs_dims, &a), f32s(rhs_dims, &b), f32s(&[4], &bias)]);
            let mut want = reference_dot(&a, &b, (bt, m, n, k), ta, tb);
            if with_epilogue {
                for (e, w) in want.iter_mut().enumerate() {
                    *w = (*w + bias[e % 4]).max(0.0);
                }
            }
            // The GEMM fuses multiply-adds, so sums round differently than the
            // reference's separate multiply and add: compare within a few ulps.
            let got = r[0].values::<f32>().unwrap_or(&[]);
            assert_eq!(got.len(), want.len());
            for (g, w) in got.iter().zip(&want) {
                assert!(
                    (g - w).abs() <= 1e-5 * w.abs().max(1.0),
                    "ta={ta} tb={tb} epilogue={with_epilogue}: {got:?} vs {want:?}"
                );
            }
        }
    }
    // s8 x s8 -> s32 accumulates exactly (in s64, wrapped to the result).
    let a8: Vec<i8> = (0..6).map(|v| (v * 45 - 120) as i8).collect();
    let b8: Vec<i8> = (0..6).map(|v| (127 - v * 50) as i8).collect();
    let step = DotStep {
        lhs: buf(Buffer::Param(0), DType::S8, &[2, 3]),
        rhs: buf(Buffer::Param(1), DType::S8, &[3, 2]),
        out: buf(Buffer::Result(0), DType::S32, &[2, 2]),
        batch: 1,
        m: 2,
        n: 2,
        k: 3,
        lhs_transposed: false,
        rhs_transposed: false,
        epilogue: None,
    };
    let p = program(
        vec![at(DType::S8, &[2, 3]), at(DType::S8, &[3, 2])],
        vec![at(DType::S32, &[2, 2])],
        0,
        vec![],
        vec![Step::Dot(Box::new(step))],
    );
    // The routine writes every element: the result is not zeroed first.
    assert_eq!(crate::driver::fully_written(&p), [true]);
    let r = run(&p, &[Array::from_vec([2, 3], a8.clone()), Array::from_vec([3, 2], b8.clone())]);
    let want: Vec<i32> =
        (0..4).map(|e| (0..3).map(|l| a8[(e / 2) * 3 + l] as i32 * b8[l * 2 + e % 2] as i32).sum()).collect();
    assert_eq!(r[0].values::<i32>().unwrap_or(&[]), want.as_slice());
    // An empty sum writes its zeros itself (recycled memory is not zeroed
    // for it): run a few times so blocks of the allocator come back dirty.
    let empty = DotStep {
        lhs: buf(Buffer::Param(0), DType::F32, &[3, 0]),
        rhs: buf(Buffer::Param(1), DType::F32, &[0, 2]),
        out: buf(Buffer::Result(0), DType::F32, &[3, 2]),
        batch: 1,
        m: 3,
        n: 2,
        k: 0,
        lhs_transposed: false,
        rhs_transposed: false,
        epilogue: None,
    };
    let p = program(
        vec![at(DType::F32, &[3, 0]), at(DType::F32, &[0, 2])],
        vec![at(DType::F32, &[3, 2])],
        0,
        vec![],
        vec![Step::Dot(Box::new(empty))],
    );
    for _ in 0..3 {
        let r = run(&p, &[Array::from_vec([3, 0], Vec::<f32>::new()), Array::from_vec([0, 2], Vec::<f32>::new())]);
        assert_eq!(r[0].values::<f32>().unwrap_or(&[]), &[0.0; 6]);
    }
}

fn wave(n: usize) -> Vec<f32> {
    (0..n).map(|i| ((i * 37 % 17) as f32 - 8.0) * 0.25).collect()
}

#[test]
fn convolutions_against_the_interpreter() {
    // NHWC input, HWIO kernel: padding and stride; lhs dilation; two feature groups.
    struct Case {
        window: &'static str,
        spec: [(i64, i64, i64, i64, i64, i64); 2],
        in_c: i64,
        k_in: i64,
        groups: i64,
        out_hw: [i64; 2],
        batch_groups: i64,
        reversal: [bool; 2],
    }
    // Two input features, one group of each kind, no reversal unless a case says.
    let plain = |window, spec, out_hw| Case {
        window,
        spec,
        in_c: 2,
        k_in: 2,
        groups: 1,
        out_hw,
        batch_groups: 1,
        reversal: [false; 2],
    };
    let cases = [
        plain("size=3x3 pad=1_1x1_1", [(3, 1, 1, 1, 1, 1); 2], [5, 5]),
        plain("size=3x3 stride=2x2 pad=1_1x0_0 lhs_dilate=2x1", [(3, 2, 1, 1, 1, 2), (3, 2, 0, 0, 1, 1)], [5, 2]),
        Case { in_c: 4, groups: 2, ..plain("size=2x2 rhs_dilate=2x2", [(2, 1, 0, 0, 2, 1); 2], [3, 3]) },
        Case {
            batch_groups: 2,
            reversal: [true, false],
            ..plain("size=3x2 rhs_reversal=1x0", [(3, 1, 0, 0, 1, 1), (2, 1, 0, 0, 1, 1)], [3, 4])
        },
    ];
    for c in cases {
        let (oc, h) = (4i64, 5i64);
        let window: Vec<WindowSpec> = c
            .spec
            .iter()
            .map(|&(size, stride, pad_low, pad_high, wd, bd)| WindowSpec {
                size,
                stride,
                pad_low,
                pad_high,
                window_dilation: wd,
                base_dilation: bd,
            })
            .collect();
        let in_dims = [2, h, h, c.in_c];
        let k_dims = [c.spec[0].0, c.spec[1].0, c.k_in, oc];
        let out_dims = [2 / c.batch_groups, c.out_hw[0], c.out_hw[1], oc];
        let step = ConvStep {
            input: buf(Buffer::Param(0), DType::F32, &in_dims),
            kernel: buf(Buffer::Param(1), DType::F32, &k_dims),
            out: buf(Buffer::Result(0), DType::F32, &out_dims),
            dims: ConvDims {
                input_batch: 0,
                input_feature: 3,
                input_spatial: [1i64, 2].into_iter().collect(),
                kernel_input_feature: 2,
                kernel_output_feature: 3,
                kernel_spatial: [0i64, 1].into_iter().collect(),
                output_batch: 0,
                output_feature: 3,
                output_spatial: [1i64, 2].into_iter().collect(),
            },
            window,
            window_reversal: c.reversal.to_vec(),
            feature_group_count: c.groups,
            batch_group_count: c.batch_groups,
            epilogue: None,
        };
        let p = program(
            vec![at(DType::F32, &in_dims), at(DType::F32, &k_dims)],
            vec![at(DType::F32, &out_dims)],
            0,
            vec![],
            vec![Step::Conv(Box::new(step))],
        );
        let x = f32s(&in_dims, &wave(in_dims.iter().product::<i64>() as usize));
        let w = f32s(&k_dims, &wave(k_dims.iter().product::<i64>() as usize + 3)[3..]);
        let got = run(&p, &[x.clone(), w.clone()]);
        let d = |v: &[i64]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(",");
        let hlo = format!(
            "HloModule c\nENTRY main {{\n  x = f32[{}] parameter(0)\n  w = f32[{}] parameter(1)\n  ROOT c = f32[{}] convolution(x, w), window={{{}}}, dim_labels=b01f_01io->b01f, feature_group_count={}, batch_group_count={}\n}}\n",
            d(&in_dims),
            d(&k_dims),
            d(&out_dims),
            c.window,
            c.groups,
            c.batch_groups
        );
        assert_close(c.window, &got[0], &interp(&hlo, &[x, w])[0], 0.0);
    }
}

#[test]
fn written_parameters_leave_the_caller_arrays_alone() {
    // x = x * 2 in place (a donated parameter), then result = x.
    let x = buf(Buffer::Param(0), DType::F32, &[3]);
    let p = program(
        vec![at(DType::F32, &[3])],
        vec![at(DType::F32, &[3])],
        0,
        vec![scalar_op(DType::F32, &[3], BinaryOp::Mul, 2.0)],
        vec![
            launch(0, vec![x.clone()], vec![x.clone()]),
            Step::Copy { src: x, dst: buf(Buffer::Result(0), DType::F32, &[3]) },
        ],
    );
    let exe = match compile(&p, &CompileOptions::default()) {
        Ok(e) => e,
        Err(e) => panic!("{e}"),
    };
    let arg = f32s(&[3], &[1.0, 2.0, 3.0]);
    for _ in 0..2 {
        let r = exe.run(std::slice::from_ref(&arg)).unwrap_or_default();
        assert_eq!(r[0].values::<f32>().unwrap_or(&[]), &[2.0, 4.0, 6.0]);
    }
    assert_eq!(arg.values::<f32>().unwrap_or(&[]), &[1.0, 2.0, 3.0]);
}

#[test]
fn large_launches_split_across_threads() {
    // Enough work for the pool: elementwise over 4M elements, rows of a 2-D
    // reduction, and a column reduction split in column blocks.
    let n = 1i64 << 22;
    let x: Vec<f32> = (0..n).map(|i| (i % 1000) as f32).collect();
    let r = run(&one_kernel(scalar_op(DType::F32, &[n], BinaryOp::Add, 1.0)), &[f32s(&[n], &x)]);
    assert!(r[0].values::<f32>().unwrap_or(&[]).iter().zip(&x).all(|(g, w)| *g == w + 1.0));
    for reduced in [0usize, 1] {
        let (rows, cols) = (1024i64, 4096i64);
        let kept: i64 = if reduced == 0 { cols } else { rows };
        let xs: Vec<i32> = (0..rows * cols).map(|e| (e % 7) as i32).collect();
        let r = run(&sum2d(rows, cols, reduced, DType::S32), &[Array::from_vec([rows, cols], xs.clone())]);
        let got = r[0].values::<i32>().unwrap_or(&[]);
        for o in 0..kept as usize {
            let want: i32 = if reduced == 0 {
                (0..rows as usize).map(|i| xs[i * cols as usize + o]).sum()
            } else {
                xs[o * cols as usize..(o + 1) * cols as usize].iter().sum()
            };
            assert_eq!(got[o], want, "reduced {reduced}, output {o}");
        }
    }
}

#[test]
fn outputs_written_in_full_are_known_statically() {
    // Result 0: a loop kernel; 1: only inside a branch; 2: empty; 3: an
    // update-slice that no copy precedes; 4: a copy. Only the statically full
    // writes let the executable skip zeroing.
    let f2 = at(DType::F32, &[2]);
    let x = buf(Buffer::Param(0), DType::F32, &[2]);
    let r = |n: u32, dims: &[i64]| buf(Buffer::Result(n), DType::F32, dims);
    let mut g = Gb::new();
    let zero = g.idx(0);
    let v = g.float(DType::F32, 5.0);
    let upd = Kernel {
        name: "u".into(),
        inputs: vec![f2.clone()],
        outputs: vec![f2.clone()],
        body: KernelBody::UpdateSlice { space: vec![1], graph: g.g, start: vec![zero], value: v },
    };
    let p = program(
        vec![f2.clone(), at(DType::S32, &[])],
        vec![f2.clone(), f2.clone(), at(DType::F32, &[0]), f2.clone(), f2.clone()],
        0,
        vec![scalar_op(DType::F32, &[2], BinaryOp::Add, 1.0), upd],
        vec![
            launch(0, vec![x.clone()], vec![r(0, &[2])]),
            Step::Conditional {
                index: buf(Buffer::Param(1), DType::S32, &[]),
                branches: vec![vec![launch(0, vec![x.clone()], vec![r(1, &[2])])]],
            },
            launch(1, vec![x.clone()], vec![r(3, &[2])]),
            Step::Copy { src: x, dst: r(4, &[2]) },
        ],
    );
    assert_eq!(crate::driver::fully_written(&p), [true, false, true, false, true]);
    let out = run(&p, &[f32s(&[2], &[1.0, 2.0]), Array::scalar(0i32)]);
    assert_eq!(out[0].values::<f32>().unwrap_or(&[]), &[2.0, 3.0]);
    assert_eq!(out[1].values::<f32>().unwrap_or(&[]), &[2.0, 3.0]);
    assert_eq!(out[3].values::<f32>().unwrap_or(&[]), &[5.0, 0.0]);
    assert_eq!(out[4].values::<f32>().unwrap_or(&[]), &[1.0, 2.0]);
}

/// Blocks of `function`'s optimized IR whose terminator branches back to
/// the block itself (single-block loops), as text.
fn self_loops<'a>(ir: &'a str, function: &str) -> Vec<&'a str> {
    let start = ir.find(&format!("@{function}(")).unwrap_or(ir.len());
    let body = &ir[start..];
    let body = &body[..body.find("\n}\n").unwrap_or(body.len())];
    body.split("\n\n")
        .filter(|block| {
            let label = block.trim_start().split([':', ' ', '\n']).next().unwrap_or("");
            let terminator = block.trim_end().lines().last().unwrap_or("");
            let target = format!("label %{label}");
            terminator.trim_start().starts_with("br ")
                && terminator.split(", ").chain(terminator.split(' ').last()).any(|t| t.trim() == target)
        })
        .collect()
}

/// A counted loop's scalar state that lives in a result buffer stays in a
/// register: the result's address (loaded from the caller's array) is
/// invariant, so the loop reloads no buffer address and stores the state
/// once, after the loop.
#[test]
fn loop_state_in_result_buffers_stays_in_registers() {
    let hlo = r#"
HloModule xorshift
cond {
  s = (s32[], u32[]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(1000)
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  s = (s32[], u32[]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  h = u32[] get-tuple-element(s), index=1
  c13 = u32[] constant(13)
  c17 = u32[] constant(17)
  a = u32[] shift-left(h, c13)
  b = u32[] xor(h, a)
  c = u32[] shift-right-logical(b, c17)
  d = u32[] xor(b, c)
  iu = u32[] convert(i)
  e = u32[] xor(d, iu)
  one = s32[] constant(1)
  j = s32[] add(i, one)
  ROOT t = (s32[], u32[]) tuple(j, e)
}
ENTRY main {
  h0 = u32[] parameter(0)
  zero = s32[] constant(0)
  init = (s32[], u32[]) tuple(zero, h0)
  w = (s32[], u32[]) while(init), condition=cond, body=body
  ROOT h = u32[] get-tuple-element(w), index=1
}
"#;
    let program = check_hlo(hlo, &[Array::scalar(2_463_534_242u32)], 0.0);
    let ir =
        String::from_utf8_lossy(&emit(&program, &CompileOptions::default(), Emit::OptimizedLlvmIr).unwrap_or_default())
            .into_owned();
    let loops = self_loops(&ir, "smelt_run");
    assert!(!loops.is_empty(), "no single-block loop in smelt_run:\n{ir}");
    for l in loops {
        assert!(!l.contains("load ptr") && !l.contains("store i32"), "the loop reloads or stores its state:\n{l}");
    }
}

#[test]
fn generic_convolutions_hand_over_to_their_specialized_routines() {
    // One NHWC and one NCHW convolution: both start on the generic routine
    // and are handed to their specialized routines, built in the background.
    let hlo = "HloModule c\nENTRY main {\n  x = f32[2,9,7,5] parameter(0)\n  w = f32[3,3,5,6] parameter(1)\n  a = f32[2,9,7,6] convolution(x, w), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f\n  y = f32[2,5,9,7] parameter(2)\n  v = f32[6,5,2,2] parameter(3)\n  b = f32[2,6,4,3] convolution(y, v), window={size=2x2 stride=2x2}, dim_labels=bf01_oi01->bf01\n  ROOT t = (f32[2,9,7,6], f32[2,6,4,3]) tuple(a, b)\n}\n";
    let m = smelt_hlo::parse_module(hlo).unwrap_or_else(|e| panic!("{e}"));
    let program = smelt_kernel::lower_module(&m).unwrap_or_else(|e| panic!("{e}"));
    // Finite values: a padding tap times an infinite weight is NaN through
    // a product and skipped by the interpreter.
    let args: Vec<Array> = [[2, 9, 7, 5], [3, 3, 5, 6], [2, 5, 9, 7], [6, 5, 2, 2]]
        .iter()
        .enumerate()
        .map(|(k, d)| f32s(d, &wave(d.iter().product::<i64>() as usize + k)[k..]))
        .collect();
    let want = interp(hlo, &args);
    let check = |got: &[Array], when: &str| {
        for (k, (g, w)) in got.iter().zip(&want).enumerate() {
            assert_close(&format!("result {k} {when}"), g, w, 1e-5);
        }
    };
    let generic = CompileOptions { convs: crate::ConvMode::Generic, ..Default::default() };
    let exe = compile(&program, &generic).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(exe.specializing_convs().0, 2);
    check(&exe.run(&args).unwrap_or_else(|e| panic!("{e}")), "on the generic routine or as handed over");
    crate::routines::wait_for_background();
    assert_eq!(exe.specializing_convs(), (2, 2), "both handed over");
    check(&exe.run(&args).unwrap_or_else(|e| panic!("{e}")), "on the specialized routines");
    // Never handed over, never counted as pending.
    let only = CompileOptions { convs: crate::ConvMode::GenericOnly, ..Default::default() };
    let exe = compile(&program, &only).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(exe.specializing_convs(), (0, 0));
    check(&exe.run(&args).unwrap_or_else(|e| panic!("{e}")), "generic only");
}

#[test]
fn concatenation_operands_written_in_place() {
    // Products and a convolution concatenated along their leading dimension,
    // twice (the second concatenation reshaped), then exponentiated in place
    // of the result: buffer assignment computes each operand into its place,
    // so neither concatenation is a step. With `keep`, the first product is
    // read again later and is copied in.
    let module = |keep: bool| {
        let tail = if keep {
            "  d1e = f32[1,4,8,8] reshape(d1)\n  exs = f32[1,4,8,8] slice(ex), slice={[0:1], [0:4], [0:8], [0:8]}\n  \
             s = f32[1,4,8,8] multiply(d1e, exs)\n  \
             ROOT t = (f32[1,12,8,8], f32[1,4,8,8]) tuple(r, s)\n"
        } else {
            "  ROOT t = (f32[1,12,8,8]) tuple(r)\n"
        };
        format!(
            "HloModule m\n\nc2 {{\n  a = f32[4,64] parameter(0)\n  b = f32[6,64] parameter(1)\n  \
             ROOT c = f32[10,64] concatenate(a, b), dimensions={{0}}\n}}\n\nc3 {{\n  a = f32[10,64] parameter(0)\n  \
             b = f32[1,2,8,8] parameter(1)\n  ar = f32[1,10,8,8] reshape(a)\n  \
             ROOT c = f32[1,12,8,8] concatenate(ar, b), dimensions={{1}}\n}}\n\nENTRY e {{\n  \
             x = f32[1,3,8,8] parameter(0)\n  w1 = f32[4,3] parameter(1)\n  w2 = f32[6,3] parameter(2)\n  \
             k = f32[2,3,3,3] parameter(3)\n  xm = f32[3,64] reshape(x)\n  \
             d1 = f32[4,64] dot(w1, xm), lhs_contracting_dims={{1}}, rhs_contracting_dims={{0}}\n  \
             d2 = f32[6,64] dot(w2, xm), lhs_contracting_dims={{1}}, rhs_contracting_dims={{0}}\n  \
             cv = f32[1,2,8,8] convolution(x, k), window={{size=3x3 pad=1_1x1_1}}, dim_labels=bf01_oi01->bf01\n  \
             inner = f32[10,64] fusion(d1, d2), kind=kLoop, calls=c2\n  \
             outer = f32[1,12,8,8] fusion(inner, cv), kind=kLoop, calls=c3\n  \
             ex = f32[1,12,8,8] exponential(outer)\n  r = f32[1,12,8,8] reverse(ex), dimensions={{3}}\n{tail}}}\n"
        )
    };
    let args = [
        inputs(DType::F32, &[1, 3, 8, 8], 1),
        inputs(DType::F32, &[4, 3], 2),
        inputs(DType::F32, &[6, 3], 3),
        inputs(DType::F32, &[2, 3, 3, 3], 4),
    ];
    let kernel_steps = |p: &Program| p.steps.iter().filter(|s| matches!(s, Step::Kernel { .. })).count();
    // The exponential and the reverse; with `keep` also the first
    // concatenation's copy, the slice and the multiply.
    assert_eq!(kernel_steps(&check_hlo(&module(false), &args, 1e-5)), 2);
    assert_eq!(kernel_steps(&check_hlo(&module(true), &args, 1e-5)), 5);
}
