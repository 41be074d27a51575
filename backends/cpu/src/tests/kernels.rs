//! Every kernel kind: loop nests, inline and kernel reductions (row and column
//! order), update-slice, scatter, sort, select-and-scatter, random bits.

use half::f16;
use smelt_hlo::attrs::RngAlgorithm;
use smelt_kernel::{InlineReduce, WindowSpec};

use super::*;

fn comparator(params: Vec<DType>, on: usize, dir: ComparisonDirection, ct: Option<CompareType>) -> ScalarFn {
    let mut b = Gb::new();
    let ps: Vec<NodeId> = params.iter().enumerate().map(|(i, &t)| b.param(i, t)).collect();
    let o = b.cmp(dir, ct, ps[2 * on], ps[2 * on + 1]);
    let pattern = (on == 0 && matches!(dir, ComparisonDirection::Lt | ComparisonDirection::Gt))
        .then_some(FnPattern::LessThan { descending: dir == ComparisonDirection::Gt, compare_type: ct });
    ScalarFn { params, graph: b.g, outputs: vec![o], pattern }
}

/// In `g`, the result of reducing `value` (a node of `body`, over a 1-D
/// `window`) from `init` with `reducer`.
fn inline_reduce(g: &mut Gb, window: i64, init: NodeId, body: Gb, value: NodeId, reducer: ScalarFn) -> NodeId {
    let t = g.ty(init);
    let reduce = InlineReduce { window: vec![window], init: vec![init], body: body.g, values: vec![value], reducer };
    let red = g.push(Node::Reduce(Box::new(reduce)), t);
    g.push(Node::ReduceResult { reduce: red, index: 0 }, t)
}

#[test]
fn broadcast_transpose_and_iota_loops() {
    // out[i, j] = b[j, i] + a[j] + (10 * i + j), over [3, 5].
    let mut g = Gb::new();
    let i = g.index(0);
    let j = g.index(1);
    let bt = g.load(1, &[j, i], DType::F32);
    let a = g.load(0, &[j], DType::F32);
    let s = g.bin(BinaryOp::Add, bt, a);
    let ten = g.idx(10);
    let ti = g.bin(BinaryOp::Mul, ten, i);
    let io = g.bin(BinaryOp::Add, ti, j);
    let iof = g.convert(io, DType::F32);
    let o = g.bin(BinaryOp::Add, s, iof);
    let k = loop_kernel(vec![at(DType::F32, &[5]), at(DType::F32, &[5, 3])], &[3, 5], g.g, vec![o, io]);
    let a: Vec<f32> = (0..5).map(|x| x as f32 * 100.0).collect();
    let bv: Vec<f32> = (0..15).map(|x| x as f32 * 0.5).collect();
    let r = run(&one_kernel(k), &[f32s(&[5], &a), f32s(&[5, 3], &bv)]);
    let got = r[0].values::<f32>().unwrap_or(&[]);
    let iota = r[1].values::<i64>().unwrap_or(&[]);
    for i in 0..3 {
        for j in 0..5 {
            assert_eq!(got[i * 5 + j], bv[j * 3 + i] + a[j] + (10 * i + j) as f32);
            assert_eq!(iota[i * 5 + j], (10 * i + j) as i64);
        }
    }
}

#[test]
fn scalar_and_empty_spaces() {
    let k = scalar_op(DType::S32, &[], BinaryOp::Add, 1.0);
    let r = run(&one_kernel(k), &[Array::scalar(41i32)]);
    assert_eq!(r[0].values::<i32>().unwrap_or(&[]), &[42]);
    // Zero-sized: nothing runs, nothing breaks.
    let mut g = Gb::new();
    let i = g.index(0);
    let j = g.index(1);
    let x = g.load(0, &[i, j], DType::F32);
    let k = loop_kernel(vec![at(DType::F32, &[0, 4])], &[0, 4], g.g, vec![x]);
    let r = run(&one_kernel(k), &[f32s(&[0, 4], &[])]);
    assert_eq!(r[0].len(), 0);
}

#[test]
fn inline_window_reduction_with_clamped_indices() {
    // out[i] = max over w < 3 of x[min(i + w, 9)] (a reduce-window).
    let mut g = Gb::new();
    let mut body = Gb::new();
    let i_outer = g.index(0);
    let init = g.float(DType::F32, f64::NEG_INFINITY);
    let w = body.index(0);
    let i = body.push(Node::Outer(i_outer), DType::S64);
    let p = body.bin(BinaryOp::Add, i, w);
    let nine = body.idx(9);
    let p = body.bin(BinaryOp::Min, p, nine);
    let v = body.load(0, &[p], DType::F32);
    let o = inline_reduce(&mut g, 3, init, body, v, binary_fn(BinaryOp::Max, DType::F32));
    let k = loop_kernel(vec![at(DType::F32, &[10])], &[10], g.g, vec![o]);
    let x = [3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0, 5.0, 3.0f32];
    let r = run(&one_kernel(k), &[f32s(&[10], &x)]);
    let want: Vec<f32> = (0..10).map(|i| (0..3).map(|w| x[(i + w).min(9)]).fold(f32::NEG_INFINITY, f32::max)).collect();
    assert_eq!(r[0].values::<f32>().unwrap_or(&[]), want.as_slice());
}

#[test]
fn short_rows_with_masked_tails_and_strided_rows() {
    // out[i, j] = x[i, j] * 2 + y[j] over rows shorter than 64 and not a
    // whole number of vectors (their tails masked), and z[i, 2j] + 1 (read
    // at a stride: a scalar tail).
    for (rows, cols) in [(5, 28), (3, 14), (2, 33), (4, 1), (3, 48)] {
        let mut g = Gb::new();
        let (i, j) = (g.index(0), g.index(1));
        let x = g.load(0, &[i, j], DType::F32);
        let two = g.float(DType::F32, 2.0);
        let y = g.load(1, &[j], DType::F32);
        let x2 = g.bin(BinaryOp::Mul, x, two);
        let o = g.bin(BinaryOp::Add, x2, y);
        let k2 = g.idx(2);
        let j2 = g.bin(BinaryOp::Mul, j, k2);
        let z = g.load(2, &[i, j2], DType::F32);
        let one = g.float(DType::F32, 1.0);
        let o2 = g.bin(BinaryOp::Add, z, one);
        let ins = vec![at(DType::F32, &[rows, cols]), at(DType::F32, &[cols]), at(DType::F32, &[rows, 2 * cols])];
        let (plain, strided) = (g.g.clone(), g.g);
        let xs: Vec<f32> = (0..rows * cols).map(|v| v as f32 * 0.25 - 3.0).collect();
        let ys: Vec<f32> = (0..cols).map(|v| v as f32 * 10.0).collect();
        let zs: Vec<f32> = (0..rows * 2 * cols).map(|v| v as f32 * 0.5).collect();
        let args = [f32s(&[rows, cols], &xs), f32s(&[cols], &ys), f32s(&[rows, 2 * cols], &zs)];
        let r = run(&one_kernel(loop_kernel(ins.clone(), &[rows, cols], plain, vec![o])), &args);
        let want: Vec<f32> = (0..(rows * cols) as usize).map(|e| xs[e] * 2.0 + ys[e % cols as usize]).collect();
        assert_eq!(r[0].values::<f32>().unwrap_or(&[]), want.as_slice(), "{rows}x{cols}");
        let r = run(&one_kernel(loop_kernel(ins, &[rows, cols], strided, vec![o2])), &args);
        let c = cols as usize;
        let want: Vec<f32> = (0..(rows * cols) as usize).map(|e| zs[(e / c) * 2 * c + 2 * (e % c)] + 1.0).collect();
        assert_eq!(r[0].values::<f32>().unwrap_or(&[]), want.as_slice(), "{rows}x{cols} strided");
    }
}

#[test]
fn padded_windows_split_into_edge_and_middle_pieces() {
    // Windows over padding: each row runs as edge pieces (taps in the
    // padding) and a middle piece whose taps are plain loads. Sums and
    // maxima, symmetric and lopsided pads, strides 1 and 2, rows shorter
    // and longer than a vector, a window wider than the row.
    let cases = [
        ("f32[1,3,14,14]", "f32[1,3,14,14]", "size=1x1x3x3 pad=0_0x0_0x1_1x1_1", "add", "0"),
        ("f32[1,2,28,28]", "f32[1,2,28,28]", "size=1x1x3x3 pad=0_0x0_0x1_1x1_1", "maximum", "-inf"),
        ("f32[2,7,9]", "f32[2,7,9]", "size=1x3x5 pad=0_0x2_0x1_3", "add", "0"),
        ("f32[3,40]", "f32[3,40]", "size=1x5 pad=0_0x2_2", "maximum", "-inf"),
        ("f32[2,3]", "f32[2,3]", "size=1x7 pad=0_0x3_3", "add", "0"),
        ("f32[1,2,112,112]", "f32[1,2,56,56]", "size=1x1x3x3 stride=1x1x2x2 pad=0_0x0_0x0_1x0_1", "maximum", "-inf"),
        ("f32[2,45]", "f32[2,16]", "size=1x5 stride=1x3 pad=0_0x2_4", "add", "0"),
    ];
    for (shape, out, window, op, init) in cases {
        let hlo = format!(
            "HloModule m\nf {{\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT r = f32[] {op}(a, b)\n}}\n\
             ENTRY e {{\n  x = {shape} parameter(0)\n  i = f32[] constant({init})\n  \
             ROOT r = {out} reduce-window(x, i), window={{{window}}}, to_apply=f\n}}\n"
        );
        let dims: Vec<i64> = shape[4..shape.len() - 1].split(',').map(|d| d.parse().unwrap_or(1)).collect();
        check_hlo(&hlo, &[inputs(DType::F32, &dims, 7)], 1e-6);
    }
}

#[test]
fn channel_concatenations_split_the_parallel_dimension() {
    // A concatenation of three operands along channels (the parallel
    // dimension) fused into a padded 3x3/2 max pool: one nest per operand's
    // channels (cut at 40 and 64, the second through the first's clamp),
    // each task's channels clipped to every piece; and into a per-channel
    // scale and ReLU, left whole. Against the interpreter.
    let pool = "m {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT r = f32[] maximum(a, b)\n}\n\
        fp {\n  p0 = f32[1,40,30,30] parameter(0)\n  p1 = f32[1,24,30,30] parameter(1)\n  \
        p2 = f32[1,8,30,30] parameter(2)\n  c = f32[1,72,30,30] concatenate(p0, p1, p2), dimensions={1}\n  \
        i = f32[] constant(-inf)\n  ROOT r = f32[1,72,15,15] reduce-window(c, i), \
        window={size=1x1x3x3 stride=1x1x2x2 pad=0_0x0_0x1_1x1_1}, to_apply=m\n}\n";
    let scale = "fs {\n  p0 = f32[1,40,30,30] parameter(0)\n  p1 = f32[1,24,30,30] parameter(1)\n  \
        p2 = f32[1,8,30,30] parameter(2)\n  s = f32[72] parameter(3)\n  \
        c = f32[1,72,30,30] concatenate(p0, p1, p2), dimensions={1}\n  \
        sb = f32[1,72,30,30] broadcast(s), dimensions={1}\n  x = f32[1,72,30,30] multiply(c, sb)\n  \
        z = f32[] constant(0)\n  zb = f32[1,72,30,30] broadcast(z), dimensions={}\n  \
        ROOT r = f32[1,72,30,30] maximum(x, zb)\n}\n";
    let hlo = format!(
        "HloModule m\n{pool}{scale}ENTRY e {{\n  x = f32[1,40,30,30] parameter(0)\n  \
         y = f32[1,24,30,30] parameter(1)\n  w = f32[1,8,30,30] parameter(2)\n  s = f32[72] parameter(3)\n  \
         a = f32[1,72,15,15] fusion(x, y, w), kind=kLoop, calls=fp\n  \
         b = f32[1,72,30,30] fusion(x, y, w, s), kind=kLoop, calls=fs\n  \
         ROOT t = (f32[1,72,15,15], f32[1,72,30,30]) tuple(a, b)\n}}\n"
    );
    let args = [
        inputs(DType::F32, &[1, 40, 30, 30], 1),
        inputs(DType::F32, &[1, 24, 30, 30], 2),
        inputs(DType::F32, &[1, 8, 30, 30], 3),
        inputs(DType::F32, &[72], 4),
    ];
    check_hlo(&hlo, &args, 1e-6);
}

#[test]
fn window_maxima_and_minima_keep_nans_and_order_zeros() {
    // Unrolled windows combine with plain max/min and fix NaNs and zero
    // signs at the end: windows of only zeros of both signs, only negative
    // values and -0, NaNs among numbers, infinities; exact against the
    // interpreter, zero signs included.
    let pattern = [-0.0, 0.0, -0.0, -1.0, f32::NAN, -0.0, -0.0, -2.0, f32::NEG_INFINITY, 0.0, 3.0, -0.0, f32::INFINITY];
    let values: Vec<f32> = (0..4 * 26).map(|i| pattern[(i * 7 + i / 13) % pattern.len()]).collect();
    for (op, init) in [("maximum", "-inf"), ("minimum", "inf"), ("maximum", "-0"), ("minimum", "0")] {
        for (out, window) in [
            ("f32[4,24]", "size=1x3"),
            ("f32[4,12]", "size=1x3 stride=1x2"),
            ("f32[4,25]", "size=1x2"),
            ("f32[2,24]", "size=2x3 stride=2x1"),
        ] {
            let hlo = format!(
                "HloModule m\nf {{\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT r = f32[] {op}(a, b)\n}}\n\
                 ENTRY e {{\n  x = f32[4,26] parameter(0)\n  i = f32[] constant({init})\n  \
                 ROOT r = {out} reduce-window(x, i), window={{{window}}}, to_apply=f\n}}\n"
            );
            check_hlo(&hlo, &[f32s(&[4, 26], &values)], 0.0);
        }
    }
}

#[test]
fn long_inline_float_sums_stay_accurate() {
    // sum of 0.1 over 1e6 elements: a sequential f32 sum is off by ~1%.
    let n = 1_000_000i64;
    let mut g = Gb::new();
    let mut body = Gb::new();
    let init = g.float(DType::F32, 0.0);
    let w = body.index(0);
    let v = body.load(0, &[w], DType::F32);
    let o = inline_reduce(&mut g, n, init, body, v, binary_fn(BinaryOp::Add, DType::F32));
    let mut k = loop_kernel(vec![at(DType::F32, &[n])], &[], g.g, vec![o]);
    k.outputs = vec![at(DType::F32, &[])];
    let x = vec![0.1f32; n as usize];
    let r = run(&one_kernel(k), &[f32s(&[n], &x)]);
    let got = r[0].values::<f32>().unwrap_or(&[0.0])[0] as f64;
    let want = 0.1f32 as f64 * n as f64;
    assert!(((got - want) / want).abs() < 1e-5, "sum {got} vs {want}");
}

fn wavy(n: usize) -> Vec<f32> {
    (0..n).map(|i| ((i * 7919 % 1000) as f32 - 500.0) * 0.013 + 0.1).collect()
}

#[test]
fn row_sums_vectorize_and_stay_accurate() {
    let (r, c) = (64usize, 3000usize);
    let x = wavy(r * c);
    let out = run(&sum2d(r as i64, c as i64, 1, DType::F32), &[f32s(&[r as i64, c as i64], &x)]);
    let got = out[0].values::<f32>().unwrap_or(&[]);
    for i in 0..r {
        let want: f64 = x[i * c..(i + 1) * c].iter().map(|&v| v as f64).sum();
        let scale: f64 = x[i * c..(i + 1) * c].iter().map(|&v| v.abs() as f64).sum();
        assert!((got[i] as f64 - want).abs() <= 1e-6 * scale, "row {i}: {} vs {want}", got[i]);
    }
}

#[test]
fn column_sums_are_exact_in_sequential_order() {
    // Column order keeps each output's sum in the interpreter's order: bit-exact.
    for (r, c) in [(3000usize, 70usize), (5, 1030), (1, 3)] {
        let x = wavy(r * c);
        let out = run(&sum2d(r as i64, c as i64, 0, DType::F32), &[f32s(&[r as i64, c as i64], &x)]);
        let got = out[0].values::<f32>().unwrap_or(&[]);
        for j in 0..c {
            let want = (0..r).fold(0.0f32, |a, i| a + x[i * c + j]);
            assert_eq!(got[j].to_bits(), want.to_bits(), "column {j} of {r}x{c}");
        }
    }
}

#[test]
fn half_precision_sums_round_after_every_add() {
    for reduced in [0usize, 1] {
        let (r, c) = (37usize, 41usize);
        let x: Vec<f16> = wavy(r * c).iter().map(|&v| f16::from_f32(v)).collect();
        let arr = Array::from_vec([r as i64, c as i64], x.clone());
        let out = run(&sum2d(r as i64, c as i64, reduced, DType::F16), &[arr]);
        let got = out[0].values::<f16>().unwrap_or(&[]);
        let add = |a: f16, b: f16| f16::from_f32(a.to_f32() + b.to_f32());
        if reduced == 0 {
            for j in 0..c {
                let want = (0..r).fold(f16::ZERO, |a, i| add(a, x[i * c + j]));
                assert_eq!(got[j], want, "column {j}");
            }
        } else {
            for i in 0..r {
                let want = (0..c).fold(f16::ZERO, |a, j| add(a, x[i * c + j]));
                assert_eq!(got[i], want, "row {i}");
            }
        }
    }
}

#[test]
fn middle_max_full_integer_and_extra_outputs() {
    // max over dim 1 of [4, 50, 6] (column order with an outer kept dim).
    let mut g = Gb::new();
    let (a, b, c) = (g.index(0), g.index(1), g.index(2));
    let x = g.load(0, &[a, b, c], DType::F32);
    let init = g.float(DType::F32, f64::NEG_INFINITY);
    let two = g.float(DType::F32, 2.0);
    let dbl = g.bin(BinaryOp::Mul, x, two);
    let k = reduce_kernel(
        vec![at(DType::F32, &[4, 50, 6])],
        &[4, 50, 6],
        &[1],
        g,
        vec![init],
        vec![x],
        binary_fn(BinaryOp::Max, DType::F32),
        vec![(0, dbl)],
    );
    let x = wavy(4 * 50 * 6);
    let r = run(&one_kernel(k), &[f32s(&[4, 50, 6], &x)]);
    let got = r[0].values::<f32>().unwrap_or(&[]);
    for a in 0..4 {
        for c in 0..6 {
            let want = (0..50).map(|b| x[a * 300 + b * 6 + c]).fold(f32::NEG_INFINITY, f32::max);
            assert_eq!(got[a * 6 + c], want);
        }
    }
    let doubled: Vec<f32> = x.iter().map(|v| v * 2.0).collect();
    assert_eq!(r[1].values::<f32>().unwrap_or(&[]), doubled.as_slice());

    // A full s32 reduction to a scalar, through the general (unpatterned) path.
    let mut g = Gb::new();
    let (i, j) = (g.index(0), g.index(1));
    let x = g.load(0, &[i, j], DType::S32);
    let z = g.int(DType::S32, 5);
    let k = reduce_kernel(
        vec![at(DType::S32, &[30, 70])],
        &[30, 70],
        &[0, 1],
        g,
        vec![z],
        vec![x],
        unpatterned(binary_fn(BinaryOp::Add, DType::S32)),
        vec![],
    );
    let xs: Vec<i32> = (0..2100).map(|v| v * 3 - 1000).collect();
    let r = run(&one_kernel(k), &[Array::from_vec([30, 70], xs.clone())]);
    assert_eq!(r[0].values::<i32>().unwrap_or(&[]), &[5 + xs.iter().sum::<i32>()]);
}

#[test]
fn variadic_argmax_reduction() {
    // (value, index) pairs: the first maximum of each row and of each column.
    let argmax = || {
        let mut f = Gb::new();
        let (av, ai, v, i) =
            (f.param(0, DType::F32), f.param(1, DType::S64), f.param(2, DType::F32), f.param(3, DType::S64));
        let gt = f.cmp(ComparisonDirection::Gt, None, v, av);
        let nv = f.select(gt, v, av);
        let ni = f.select(gt, i, ai);
        ScalarFn {
            params: vec![DType::F32, DType::S64, DType::F32, DType::S64],
            graph: f.g,
            outputs: vec![nv, ni],
            pattern: None,
        }
    };
    let x = wavy(20 * 30);
    for reduced in [0usize, 1] {
        let mut g = Gb::new();
        let (i, j) = (g.index(0), g.index(1));
        let v = g.load(0, &[i, j], DType::F32);
        let idx = if reduced == 0 { i } else { j };
        let iv = g.float(DType::F32, f64::NEG_INFINITY);
        let ii = g.idx(-1);
        let k = reduce_kernel(
            vec![at(DType::F32, &[20, 30])],
            &[20, 30],
            &[reduced],
            g,
            vec![iv, ii],
            vec![v, idx],
            argmax(),
            vec![],
        );
        let r = run(&one_kernel(k), &[f32s(&[20, 30], &x)]);
        let (vals, idxs) = (r[0].values::<f32>().unwrap_or(&[]), r[1].values::<i64>().unwrap_or(&[]));
        let (outer, inner) = if reduced == 0 { (30, 20) } else { (20, 30) };
        for o in 0..outer {
            let at = |k: usize| if reduced == 0 { x[k * 30 + o] } else { x[o * 30 + k] };
            let mut best = (f32::NEG_INFINITY, -1i64);
            for k in 0..inner {
                if at(k) > best.0 {
                    best = (at(k), k as i64);
                }
            }
            assert_eq!((vals[o], idxs[o]), best, "reduced {reduced}, output {o}");
        }
    }
}

#[test]
fn update_slice_copying_and_in_place() {
    // out = operand with update written at (1, 2); start indices are constants.
    let build = || {
        let mut g = Gb::new();
        let (i, j) = (g.index(0), g.index(1));
        let v = g.load(1, &[i, j], DType::F32);
        let s0 = g.idx(1);
        let s1 = g.idx(2);
        Kernel {
            name: "dus".into(),
            inputs: vec![at(DType::F32, &[4, 5]), at(DType::F32, &[2, 3])],
            outputs: vec![at(DType::F32, &[4, 5])],
            body: KernelBody::UpdateSlice { space: vec![2, 3], graph: g.g, start: vec![s0, s1], value: v },
        }
    };
    let op: Vec<f32> = (0..20).map(|x| x as f32).collect();
    let up: Vec<f32> = (0..6).map(|x| -(x as f32) - 1.0).collect();
    let mut want = op.clone();
    for i in 0..2 {
        for j in 0..3 {
            want[(1 + i) * 5 + 2 + j] = up[i * 3 + j];
        }
    }
    let args = [f32s(&[4, 5], &op), f32s(&[2, 3], &up)];
    let r = run(&one_kernel(build()), &args);
    assert_eq!(r[0].values::<f32>().unwrap_or(&[]), want.as_slice());

    // In place: copy the operand to the result, then update the result itself.
    let t45 = at(DType::F32, &[4, 5]);
    let res = BufRef { buffer: Buffer::Result(0), ty: t45.clone() };
    let p = Program {
        name: "dus".into(),
        params: vec![t45.clone(), at(DType::F32, &[2, 3])],
        results: vec![t45.clone()],
        temp_bytes: 0,
        constants: vec![],
        kernels: vec![build()],
        steps: vec![
            Step::Copy { src: BufRef { buffer: Buffer::Param(0), ty: t45.clone() }, dst: res.clone() },
            Step::Kernel {
                kernel: KernelId(0),
                inputs: vec![res.clone(), BufRef { buffer: Buffer::Param(1), ty: at(DType::F32, &[2, 3]) }],
                outputs: vec![res],
            },
        ],
    };
    let r = run(&p, &args);
    assert_eq!(r[0].values::<f32>().unwrap_or(&[]), want.as_slice());
}

/// A scatter target from an s32 index, as s64, and whether it lies in `[0, n)`.
fn target_in(g: &mut Gb, idx32: NodeId, n: i64) -> (NodeId, NodeId) {
    let idx = g.convert(idx32, DType::S64);
    let zero = g.idx(0);
    let end = g.idx(n);
    let ge = g.cmp(ComparisonDirection::Ge, None, idx, zero);
    let lt = g.cmp(ComparisonDirection::Lt, None, idx, end);
    (idx, g.bin(BinaryOp::And, ge, lt))
}

#[test]
fn scatter_adds_in_order_and_skips_out_of_bounds() {
    let mut g = Gb::new();
    let i = g.index(0);
    let idx32 = g.load(1, &[i], DType::S32);
    let (idx, ok) = target_in(&mut g, idx32, 5);
    let v = g.load(2, &[i], DType::F32);
    let k = Kernel {
        name: "scatter".into(),
        inputs: vec![at(DType::F32, &[5]), at(DType::S32, &[6]), at(DType::F32, &[6])],
        outputs: vec![at(DType::F32, &[5])],
        body: KernelBody::Scatter {
            space: vec![6],
            graph: g.g,
            target: vec![idx],
            in_bounds: ok,
            values: vec![v],
            combiner: unpatterned(binary_fn(BinaryOp::Add, DType::F32)),
        },
    };
    let r = run(
        &one_kernel(k),
        &[
            f32s(&[5], &[1.0, 2.0, 3.0, 4.0, 5.0]),
            Array::from_vec([6], vec![0i32, 4, 4, -1, 5, 2]),
            f32s(&[6], &[10.0, 20.0, 30.0, 40.0, 50.0, 60.0]),
        ],
    );
    assert_eq!(r[0].values::<f32>().unwrap_or(&[]), &[11.0, 2.0, 63.0, 4.0, 55.0]);
}

/// Rows scattered into rows (an embedding bag's segment sum): the target row
/// and its bounds check are per update, the window's columns run in an inner
/// loop of their own; duplicate rows add in update order, out-of-bounds rows
/// are skipped whole. 37 columns: a vector body and a remainder.
#[test]
fn row_scatters_add_whole_rows_and_skip_out_of_bounds_ones() {
    const C: i64 = 37;
    let mut g = Gb::new();
    let (i, j) = (g.index(0), g.index(1));
    let zero32 = g.idx(0);
    let idx32 = g.load(1, &[i, zero32], DType::S32);
    let (row, ok) = target_in(&mut g, idx32, 5);
    let v = g.load(2, &[i, j], DType::F32);
    let k = Kernel {
        name: "scatter_rows".into(),
        inputs: vec![at(DType::F32, &[5, C]), at(DType::S32, &[6, 1]), at(DType::F32, &[6, C])],
        outputs: vec![at(DType::F32, &[5, C])],
        body: KernelBody::Scatter {
            space: vec![6, C],
            graph: g.g,
            target: vec![row, j],
            in_bounds: ok,
            values: vec![v],
            combiner: unpatterned(binary_fn(BinaryOp::Add, DType::F32)),
        },
    };
    let base: Vec<f32> = (0..5 * C).map(|x| x as f32).collect();
    let rows = [0i32, 4, 4, -1, 5, 2];
    let updates: Vec<f32> = (0..6 * C).map(|x| 1000.0 + x as f32 * 0.5).collect();
    let mut want = base.clone();
    for (u, &r) in rows.iter().enumerate() {
        if (0..5).contains(&r) {
            for c in 0..C as usize {
                want[r as usize * C as usize + c] += updates[u * C as usize + c];
            }
        }
    }
    let r =
        run(&one_kernel(k), &[f32s(&[5, C], &base), Array::from_vec([6, 1], rows.to_vec()), f32s(&[6, C], &updates)]);
    assert_eq!(r[0].values::<f32>().unwrap_or(&[]), want.as_slice());
}

/// A sort of operands of `types`, all over `dims`, along `dimension`.
fn sort_kernel(types: &[DType], dims: &[i64], dimension: usize, stable: bool, comparator: ScalarFn) -> Kernel {
    let operands: Vec<ArrayType> = types.iter().map(|&t| at(t, dims)).collect();
    Kernel {
        name: "sort".into(),
        inputs: operands.clone(),
        outputs: operands,
        body: KernelBody::Sort { dims: dims.to_vec(), dimension, stable, comparator },
    }
}

const LT_TOTAL_F32: &str = "cmp {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT c = pred[] compare(a, b), direction=LT, type=TOTALORDER\n}\n";

#[test]
fn sort_one_operand_against_the_interpreter() {
    let mut v = wavy(150);
    for (k, x) in [(3, f32::NAN), (10, -0.0), (11, 0.0), (40, f32::INFINITY), (41, -f32::NAN), (70, v[5]), (71, v[5])] {
        v[k] = x;
    }
    let x = f32s(&[3, 50], &v);
    // Along the last dimension, total order (the LessThan fast path).
    let lt = comparator(vec![DType::F32; 2], 0, ComparisonDirection::Lt, Some(CompareType::TotalOrder));
    let k = sort_kernel(&[DType::F32], &[3, 50], 1, false, lt);
    let got = run(&one_kernel(k), std::slice::from_ref(&x));
    let hlo = format!(
        "HloModule s\n{LT_TOTAL_F32}ENTRY main {{\n  x = f32[3,50] parameter(0)\n  ROOT s = f32[3,50] sort(x), dimensions={{1}}, to_apply=cmp\n}}\n"
    );
    assert_close("sort dim 1", &got[0], &interp(&hlo, std::slice::from_ref(&x))[0], 0.0);
    assert_eq!(got[0].data.to_le_bytes(), interp(&hlo, std::slice::from_ref(&x))[0].data.to_le_bytes());

    // Along the first (strided) dimension, descending with plain float GT (NaNs unordered).
    let x = f32s(&[50, 3], &v);
    let gt = unpatterned(comparator(vec![DType::F32; 2], 0, ComparisonDirection::Gt, None));
    let k = sort_kernel(&[DType::F32], &[50, 3], 0, true, gt);
    let got = run(&one_kernel(k), std::slice::from_ref(&x));
    let hlo = "HloModule s\ncmp {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT c = pred[] compare(a, b), direction=GT\n}\nENTRY main {\n  x = f32[50,3] parameter(0)\n  ROOT s = f32[50,3] sort(x), dimensions={0}, to_apply=cmp\n}\n";
    assert_eq!(got[0].data.to_le_bytes(), interp(hlo, &[x])[0].data.to_le_bytes());
}

#[test]
fn sort_several_operands_stably() {
    // Keys with many duplicates and an iota: a stable argsort; then a
    // comparator on the second operand only.
    let keys: Vec<f32> = (0..200).map(|i| ((i * 37) % 11) as f32).collect();
    let vals: Vec<i32> = (0..200).collect();
    let args = [f32s(&[200], &keys), Array::from_vec([200], vals)];
    for on in [0usize, 1] {
        let lt = comparator(vec![DType::F32, DType::F32, DType::S32, DType::S32], on, ComparisonDirection::Lt, None);
        let k = sort_kernel(&[DType::F32, DType::S32], &[200], 0, true, lt);
        let got = run(&one_kernel(k), &args);
        let (pa, pb) = if on == 0 { ("a0", "b0") } else { ("a1", "b1") };
        let hlo = format!(
            "HloModule s\ncmp {{\n  a0 = f32[] parameter(0)\n  b0 = f32[] parameter(1)\n  a1 = s32[] parameter(2)\n  b1 = s32[] parameter(3)\n  ROOT c = pred[] compare({pa}, {pb}), direction=LT\n}}\nENTRY main {{\n  x = f32[200] parameter(0)\n  y = s32[200] parameter(1)\n  ROOT s = (f32[200], s32[200]) sort(x, y), dimensions={{0}}, to_apply=cmp\n}}\n"
        );
        let want = interp(&hlo, &args);
        for (g, w) in got.iter().zip(&want) {
            assert_eq!(g.data.to_le_bytes(), w.data.to_le_bytes(), "sort on operand {on}");
        }
    }
}

#[test]
fn radix_sorts_match_the_interpreter() {
    // Slices long enough for the radix path, on every key type, both
    // directions, along a strided dimension, with an s32 payload.
    let (rows, n) = (3i64, 300i64);
    let mut v: Vec<f64> = (0..rows * n).map(|i| (((i * 7919) % 601) - 300) as f64 * 0.75).collect();
    for (k, x) in [(5, f64::NAN), (6, -0.0), (7, 0.0), (8, f64::INFINITY), (9, f64::NEG_INFINITY), (10, -f64::NAN)] {
        v[k] = x;
    }
    for t in DType::ALL {
        for (dir, name) in [(ComparisonDirection::Lt, "LT"), (ComparisonDirection::Gt, "GT")] {
            let ct = if t.is_float() { Some(CompareType::TotalOrder) } else { None };
            let ctn = if t.is_float() { ", type=TOTALORDER" } else { "" };
            let cmp = comparator(vec![t, t, DType::S32, DType::S32], 0, dir, ct);
            let k = sort_kernel(&[t, DType::S32], &[n, rows], 0, true, cmp);
            let args = [array_of(t, &[n, rows], &v), Array::from_vec([n, rows], (0..(n * rows) as i32).collect())];
            let got = run(&one_kernel(k), &args);
            let tn = t.name();
            let hlo = format!(
                "HloModule s\ncmp {{\n  a = {tn}[] parameter(0)\n  b = {tn}[] parameter(1)\n  c = s32[] parameter(2)\n  d = s32[] parameter(3)\n  ROOT r = pred[] compare(a, b), direction={name}{ctn}\n}}\nENTRY main {{\n  x = {tn}[{n},{rows}] parameter(0)\n  y = s32[{n},{rows}] parameter(1)\n  ROOT s = ({tn}[{n},{rows}], s32[{n},{rows}]) sort(x, y), dimensions={{0}}, to_apply=cmp\n}}\n"
            );
            let want = interp(&hlo, &args);
            for (g, w) in got.iter().zip(&want) {
                assert_eq!(g.data.to_le_bytes(), w.data.to_le_bytes(), "{t} {name}");
            }
            // One operand: keys only.
            let k = sort_kernel(&[t], &[rows, n], 1, true, comparator(vec![t, t], 0, dir, ct));
            let x = array_of(t, &[rows, n], &v);
            let got = run(&one_kernel(k), std::slice::from_ref(&x));
            let hlo = format!(
                "HloModule s\ncmp {{\n  a = {tn}[] parameter(0)\n  b = {tn}[] parameter(1)\n  ROOT r = pred[] compare(a, b), direction={name}{ctn}\n}}\nENTRY main {{\n  x = {tn}[{rows},{n}] parameter(0)\n  ROOT s = {tn}[{rows},{n}] sort(x), dimensions={{1}}, to_apply=cmp\n}}\n"
            );
            assert_eq!(got[0].data.to_le_bytes(), interp(&hlo, &[x])[0].data.to_le_bytes(), "{t} {name}, one operand");
        }
    }
}

/// Sorts by the same keys whose payloads differ only in type (an argsort's
/// s32 indices, f32 values with NaN payloads and signed zeros), one on
/// parameters and one on the arena, share one generated function and move
/// every payload's bits exactly.
#[test]
fn sorts_that_differ_in_payload_type_share_one_function() {
    let n = 300usize;
    let keys: Vec<i32> = (0..n as i32).map(|i| (i * 7919) % 37 - 18).collect();
    let idx: Vec<i32> = (0..n as i32).collect();
    let mut vals: Vec<f32> = (0..n).map(|i| i as f32 * 0.5 - 40.0).collect();
    vals[3] = f32::from_bits(0x7fc0_1234);
    vals[4] = -0.0;
    vals[5] = f32::from_bits(0xffa0_0001);
    let args = [Array::from_vec([n as i64], keys), Array::from_vec([n as i64], idx), f32s(&[n as i64], &vals)];
    let hlo = format!(
        "HloModule s\ncmp {{\n  a = s32[] parameter(0)\n  b = s32[] parameter(1)\n  c = s32[] parameter(2)\n  d = s32[] parameter(3)\n  \
         ROOT r = pred[] compare(a, b), direction=LT\n}}\ncmpf {{\n  a = s32[] parameter(0)\n  b = s32[] parameter(1)\n  \
         c = f32[] parameter(2)\n  d = f32[] parameter(3)\n  ROOT r = pred[] compare(a, b), direction=LT\n}}\n\
         ENTRY main {{\n  k = s32[{n}] parameter(0)\n  i = s32[{n}] parameter(1)\n  v = f32[{n}] parameter(2)\n  \
         one = s32[] constant(1)\n  ones = s32[{n}] broadcast(one), dimensions={{}}\n  k2 = s32[{n}] add(k, ones)\n  \
         s1 = (s32[{n}], s32[{n}]) sort(k, i), dimensions={{0}}, is_stable=true, to_apply=cmp\n  \
         s2 = (s32[{n}], f32[{n}]) sort(k2, v), dimensions={{0}}, is_stable=true, to_apply=cmpf\n  \
         a = s32[{n}] get-tuple-element(s1), index=1\n  b = f32[{n}] get-tuple-element(s2), index=1\n  \
         ROOT t = (s32[{n}], f32[{n}]) tuple(a, b)\n}}\n"
    );
    let program = smelt_kernel::lower_module(&smelt_hlo::parse_module(&hlo).unwrap()).unwrap();
    let sorts: Vec<usize> =
        (0..program.kernels.len()).filter(|&i| matches!(program.kernels[i].body, KernelBody::Sort { .. })).collect();
    assert_eq!(sorts.len(), 2, "{program:?}");
    let want = interp(&hlo, &args);
    let got = run_with(&program, &args, &CompileOptions::default());
    for (g, w) in got.iter().zip(&want) {
        assert_eq!(g.data.to_le_bytes(), w.data.to_le_bytes());
    }
    let ir = super::emit(&program, &CompileOptions::default(), crate::Emit::LlvmIr).unwrap();
    let ir = String::from_utf8_lossy(&ir);
    let defined = sorts.iter().filter(|i| ir.contains(&format!("define void @kernel_{i}("))).count();
    assert_eq!(defined, 1, "{ir}");
}

#[test]
fn large_sort_matches_a_stable_total_order_sort() {
    let n = 100_000usize;
    let v: Vec<f32> = (0..n).map(|i| (((i as u64 * 2654435761) % 1_000_003) as f32 - 500_000.0) * 1e-3).collect();
    let lt = comparator(vec![DType::F32; 2], 0, ComparisonDirection::Lt, Some(CompareType::TotalOrder));
    let k = sort_kernel(&[DType::F32], &[n as i64], 0, false, lt);
    let got = run(&one_kernel(k), &[f32s(&[n as i64], &v)]);
    let mut want = v.clone();
    want.sort_by(f32::total_cmp);
    assert_eq!(got[0].values::<f32>().unwrap_or(&[]), want.as_slice());
}

#[test]
fn select_and_scatter_against_the_interpreter() {
    let ge_fn = comparator(vec![DType::F32; 2], 0, ComparisonDirection::Ge, None);
    for (win, src, ws) in [
        ("size=2x2 stride=2x2", [3i64, 3], [(2, 2, 0, 0); 2]),
        ("size=3x3 stride=2x2 pad=1_1x1_1", [3, 3], [(3, 2, 1, 1); 2]),
    ] {
        let window: Vec<WindowSpec> = ws
            .iter()
            .map(|&(size, stride, lo, hi)| WindowSpec {
                size,
                stride,
                pad_low: lo,
                pad_high: hi,
                window_dilation: 1,
                base_dilation: 1,
            })
            .collect();
        let k = Kernel {
            name: "sas".into(),
            inputs: vec![at(DType::F32, &[6, 6]), at(DType::F32, &src), at(DType::F32, &[])],
            outputs: vec![at(DType::F32, &[6, 6])],
            body: KernelBody::SelectAndScatter {
                window,
                select: ge_fn.clone(),
                scatter: binary_fn(BinaryOp::Add, DType::F32),
            },
        };
        let mut op = wavy(36);
        op[7] = op[8]; // a tie: the first maximum wins with GE
        let args =
            [f32s(&[6, 6], &op), f32s(&src, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]), Array::scalar(0.5f32)];
        let got = run(&one_kernel(k), &args);
        let hlo = format!(
            "HloModule s\nge {{\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT c = pred[] compare(a, b), direction=GE\n}}\nadd {{\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT c = f32[] add(a, b)\n}}\nENTRY main {{\n  op = f32[6,6] parameter(0)\n  src = f32[3,3] parameter(1)\n  init = f32[] parameter(2)\n  ROOT r = f32[6,6] select-and-scatter(op, src, init), window={{{win}}}, select=ge, scatter=add\n}}\n"
        );
        assert_close(win, &got[0], &interp(&hlo, &args)[0], 0.0);
    }
}

#[test]
fn random_bits_against_the_interpreter() {
    let cases: [(RngAlgorithm, &str, Vec<u64>, DType, Vec<i64>); 9] = [
        (RngAlgorithm::ThreeFry, "rng_three_fry", vec![0x1234, 0x5678], DType::U32, vec![5, 3]),
        (RngAlgorithm::ThreeFry, "rng_three_fry", vec![7, u64::MAX - 2], DType::U32, vec![4, 6]),
        (RngAlgorithm::ThreeFry, "rng_three_fry", vec![1, 2], DType::U64, vec![7]),
        (RngAlgorithm::ThreeFry, "rng_three_fry", vec![1, 2], DType::U8, vec![]),
        (RngAlgorithm::ThreeFry, "rng_three_fry", vec![9, 9], DType::F32, vec![3, 3]),
        (RngAlgorithm::Philox, "rng_philox", vec![0x299f31d0a4093822, u64::MAX - 1, 5], DType::U32, vec![11]),
        (RngAlgorithm::Philox, "rng_philox", vec![3, 4], DType::U64, vec![5]),
        (RngAlgorithm::Default, "rng_default", vec![3, 4], DType::U16, vec![2, 5]),
        (RngAlgorithm::Philox, "rng_philox", vec![1, 2, 3], DType::S32, vec![4000]),
    ];
    for (alg, name, state, dt, dims) in cases {
        let sl = state.len() as i64;
        let k = Kernel {
            name: "rng".into(),
            inputs: vec![at(DType::U64, &[sl])],
            outputs: vec![at(DType::U64, &[sl]), at(dt, &dims)],
            body: KernelBody::RngBitGenerator { algorithm: alg },
        };
        let st = Array::from_vec([sl], state.clone());
        let got = run(&one_kernel(k), std::slice::from_ref(&st));
        let ds: Vec<String> = dims.iter().map(|d| d.to_string()).collect();
        let shape = format!("{}[{}]", dt.name(), ds.join(","));
        let hlo = format!(
            "HloModule r\nENTRY main {{\n  s = u64[{sl}] parameter(0)\n  ROOT r = (u64[{sl}], {shape}) rng-bit-generator(s), algorithm={name}\n}}\n"
        );
        let want = interp(&hlo, &[st]);
        for (g, w) in got.iter().zip(&want) {
            assert_eq!(g.data.to_le_bytes(), w.data.to_le_bytes(), "{name} {shape} state {state:?}");
        }
    }
}

#[test]
fn leading_unit_dimensions_split_the_next_one() {
    // out[0, 0, k] = x[0, 0, k] + b[k] over [1, 1, 3000]: large enough for threads.
    let mut g = Gb::new();
    let (i, j, k) = (g.index(0), g.index(1), g.index(2));
    let x = g.load(0, &[i, j, k], DType::F32);
    let b = g.load(1, &[k], DType::F32);
    let o = g.bin(BinaryOp::Add, x, b);
    let n = 300_000i64;
    let kern = loop_kernel(vec![at(DType::F32, &[1, 1, n]), at(DType::F32, &[n])], &[1, 1, n], g.g, vec![o]);
    let xs = wavy(n as usize);
    let r = run(&one_kernel(kern), &[f32s(&[1, 1, n], &xs), f32s(&[n], &xs)]);
    assert!(r[0].values::<f32>().unwrap_or(&[]).iter().zip(&xs).all(|(g, x)| *g == x + x));
    // Sums over dim 1 of [1, 50, 70] (column order) and dim 2 of [1, 20, 30] (row order).
    for (dims, red) in [([1i64, 50, 70], 1usize), ([1, 20, 30], 2)] {
        let mut g = Gb::new();
        let idx: Vec<NodeId> = (0..3).map(|d| g.index(d)).collect();
        let x = g.load(0, &idx, DType::F32);
        let z = g.float(DType::F32, 0.0);
        let kern = reduce_kernel(
            vec![at(DType::F32, &dims)],
            &dims,
            &[red],
            g,
            vec![z],
            vec![x],
            binary_fn(BinaryOp::Add, DType::F32),
            vec![],
        );
        let xs = wavy((dims[1] * dims[2]) as usize);
        let r = run(&one_kernel(kern), &[f32s(&dims, &xs)]);
        let got = r[0].values::<f32>().unwrap_or(&[]);
        let (a, b) = (dims[1] as usize, dims[2] as usize);
        if red == 1 {
            for c in 0..b {
                assert_eq!(got[c], (0..a).fold(0.0f32, |s, r| s + xs[r * b + c]), "column {c}");
            }
        } else {
            for r in 0..a {
                let want: f32 = (0..b).fold(0.0f32, |s, c| s + xs[r * b + c]);
                assert!((got[r] - want).abs() <= 1e-4 * want.abs().max(1.0), "row {r}");
            }
        }
    }
}

#[test]
fn variadic_inline_reductions_and_scatters() {
    // Inline: (sum, max) over a window of 5 of two inputs, per output element.
    let pair = || {
        let mut f = Gb::new();
        let (s, m, x, y) =
            (f.param(0, DType::F32), f.param(1, DType::S32), f.param(2, DType::F32), f.param(3, DType::S32));
        let s2 = f.bin(BinaryOp::Add, s, x);
        let m2 = f.bin(BinaryOp::Max, m, y);
        ScalarFn {
            params: vec![DType::F32, DType::S32, DType::F32, DType::S32],
            graph: f.g,
            outputs: vec![s2, m2],
            pattern: None,
        }
    };
    let mut g = Gb::new();
    let mut body = Gb::new();
    let i = g.index(0);
    let (i0, i1) = (g.float(DType::F32, 0.5), g.int(DType::S32, i32::MIN as i128));
    let w = body.index(0);
    let io = body.push(Node::Outer(i), DType::S64);
    let p = body.bin(BinaryOp::Add, io, w);
    let x = body.load(0, &[p], DType::F32);
    let y = body.load(1, &[p], DType::S32);
    let red = g.push(
        Node::Reduce(Box::new(InlineReduce {
            window: vec![5],
            init: vec![i0, i1],
            body: body.g,
            values: vec![x, y],
            reducer: pair(),
        })),
        DType::F32,
    );
    let r0 = g.push(Node::ReduceResult { reduce: red, index: 0 }, DType::F32);
    let r1 = g.push(Node::ReduceResult { reduce: red, index: 1 }, DType::S32);
    let mut k = loop_kernel(vec![at(DType::F32, &[12]), at(DType::S32, &[12])], &[8], g.g, vec![r0, r1]);
    k.outputs = vec![at(DType::F32, &[8]), at(DType::S32, &[8])];
    let xs: Vec<f32> = (0..12).map(|v| v as f32 * 0.25).collect();
    let ys: Vec<i32> = (0..12).map(|v| (v * 7919) % 23 - 11).collect();
    let r = run(&one_kernel(k), &[f32s(&[12], &xs), Array::from_vec([12], ys.clone())]);
    for o in 0..8 {
        let s = (0..5).fold(0.5f32, |a, w| a + xs[o + w]);
        let m = (0..5).map(|w| ys[o + w]).max().unwrap_or(i32::MIN);
        assert_eq!(r[0].values::<f32>().unwrap_or(&[])[o], s);
        assert_eq!(r[1].values::<i32>().unwrap_or(&[])[o], m);
    }

    // Scatter into two operands at once with the same combiner.
    let mut g = Gb::new();
    let i = g.index(0);
    let t32 = g.load(2, &[i], DType::S32);
    let t = g.convert(t32, DType::S64);
    let ok = g.push(Node::Const(Scalar::Int(DType::Pred, 1)), DType::Pred);
    let u = g.load(3, &[i], DType::F32);
    let v = g.load(4, &[i], DType::S32);
    let k = Kernel {
        name: "scatter2".into(),
        inputs: vec![
            at(DType::F32, &[4]),
            at(DType::S32, &[4]),
            at(DType::S32, &[5]),
            at(DType::F32, &[5]),
            at(DType::S32, &[5]),
        ],
        outputs: vec![at(DType::F32, &[4]), at(DType::S32, &[4])],
        body: KernelBody::Scatter {
            space: vec![5],
            graph: g.g,
            target: vec![t],
            in_bounds: ok,
            values: vec![u, v],
            combiner: pair(),
        },
    };
    let r = run(
        &one_kernel(k),
        &[
            f32s(&[4], &[1.0, 2.0, 3.0, 4.0]),
            Array::from_vec([4], vec![0i32, 0, 0, 0]),
            Array::from_vec([5], vec![3i32, 1, 3, 0, 3]),
            f32s(&[5], &[10.0, 20.0, 30.0, 40.0, 50.0]),
            Array::from_vec([5], vec![-5i32, 7, 9, -1, 2]),
        ],
    );
    assert_eq!(r[0].values::<f32>().unwrap_or(&[]), &[41.0, 22.0, 3.0, 94.0]);
    assert_eq!(r[1].values::<i32>().unwrap_or(&[]), &[0, 7, 0, 9]);
}

#[test]
fn transposes_run_in_tiles() {
    // out[b, i, j] = x[b, j, i] + i for shapes with partial tiles, large enough
    // to be split across tasks.
    for (bt, n, m) in [(1i64, 70i64, 100i64), (3, 65, 130), (2, 700, 300)] {
        let mut g = Gb::new();
        let (b, i, j) = (g.index(0), g.index(1), g.index(2));
        let x = g.load(0, &[b, j, i], DType::F32);
        let fi = g.convert(i, DType::F32);
        let o = g.bin(BinaryOp::Add, x, fi);
        let k = loop_kernel(vec![at(DType::F32, &[bt, m, n])], &[bt, n, m], g.g, vec![o]);
        let xs = wavy((bt * m * n) as usize);
        let r = run(&one_kernel(k), &[f32s(&[bt, m, n], &xs)]);
        let got = r[0].values::<f32>().unwrap_or(&[]);
        let (n, m) = (n as usize, m as usize);
        for b in 0..bt as usize {
            for i in 0..n {
                for j in 0..m {
                    assert_eq!(got[(b * n + i) * m + j], xs[(b * m + j) * n + i] + i as f32, "{b} {i} {j}");
                }
            }
        }
    }
}

#[test]
fn transposes_of_an_outer_dimension_run_in_tiles() {
    // out[a, b, c] = x[b, c, a]: the load runs contiguously along the output's
    // outermost dimension, tiled with the innermost (shapes with partial
    // tiles, split across tasks on that outer dimension or another).
    for (na, nb, nc) in [(32i64, 5i64, 128i64), (40, 3, 100), (17, 70, 66)] {
        let mut g = Gb::new();
        let (a, b, c) = (g.index(0), g.index(1), g.index(2));
        let x = g.load(0, &[b, c, a], DType::F32);
        let k = loop_kernel(vec![at(DType::F32, &[nb, nc, na])], &[na, nb, nc], g.g, vec![x]);
        let xs = wavy((na * nb * nc) as usize);
        let r = run(&one_kernel(k), &[f32s(&[nb, nc, na], &xs)]);
        let got = r[0].values::<f32>().unwrap_or(&[]);
        let (na, nb, nc) = (na as usize, nb as usize, nc as usize);
        for ia in 0..na {
            for ib in 0..nb {
                for ic in 0..nc {
                    assert_eq!(got[(ia * nb + ib) * nc + ic], xs[(ib * nc + ic) * na + ia], "{ia} {ib} {ic}");
                }
            }
        }
    }
}

#[test]
fn row_argmax_and_argmin_run_in_lanes() {
    // JAX's argmax and argmin reducers over rows long enough for lanes
    // (`reduce_box_arg`): random rows with NaN, infinities and signed zeros,
    // rows of ties, of -inf, of +0 and -0, the extreme in the first block, in
    // the tail past the whole blocks, and several NaNs. The indices must be
    // the in-order fold's exactly (values too, but for a zero's sign).
    let reducer = |name: &str, dir: &str, it: &str| {
        format!(
            "{name} {{\n  a = f32[] parameter(0)\n  ia = {it}[] parameter(1)\n  b = f32[] parameter(2)\n  \
             ib = {it}[] parameter(3)\n  gt = pred[] compare(a, b), direction={dir}\n  nan = pred[] compare(a, a), \
             direction=NE\n  c = pred[] or(gt, nan)\n  v = f32[] select(c, a, b)\n  eq = pred[] compare(a, b), \
             direction=EQ\n  lt = pred[] compare(ia, ib), direction=LT\n  t = pred[] and(eq, lt)\n  \
             c2 = pred[] or(c, t)\n  i = {it}[] select(c2, ia, ib)\n  ROOT r = (f32[], {it}[]) tuple(v, i)\n}}\n"
        )
    };
    // Indices of a type narrower than the row keep the in-order fold: two
    // NaNs, at 40 and at 250 (negative as s8, and u8 compared as signed
    // would put it first).
    for it in ["u8", "s8"] {
        let hlo = format!(
            "HloModule m\n{}fmax {{\n  x = f32[4,300] parameter(0)\n  io = {it}[4,300] iota(), iota_dimension=1\n  \
             init = f32[] constant(-inf)\n  zero = {it}[] constant(0)\n  \
             ROOT r = (f32[4], {it}[4]) reduce(x, io, init, zero), dimensions={{1}}, to_apply=argmax\n}}\n\
             ENTRY e {{\n  x = f32[4,300] parameter(0)\n  ROOT f = (f32[4], {it}[4]) fusion(x), kind=kInput, calls=fmax\n}}\n",
            reducer("argmax", "GT", it)
        );
        let x: Vec<f64> =
            (0..1200).map(|k| if k % 300 == 250 || k % 300 == 40 { f64::NAN } else { (k % 13) as f64 }).collect();
        check_hlo(&hlo, &[array_of(DType::F32, &[4, 300], &x)], 1e-30);
    }
    for (rows, n) in [(12i64, 300i64), (12, 128), (8, 1000)] {
        let fused = |name: &str, f: &str, init: &str| {
            format!(
                "{name} {{\n  x = f32[{rows},{n}] parameter(0)\n  io = s32[{rows},{n}] iota(), iota_dimension=1\n  \
                 init = f32[] constant({init})\n  zero = s32[] constant(0)\n  \
                 ROOT r = (f32[{rows}], s32[{rows}]) reduce(x, io, init, zero), dimensions={{1}}, to_apply={f}\n}}\n"
            )
        };
        let hlo = format!(
            "HloModule m\n{}{}{}{}ENTRY e {{\n  x = f32[{rows},{n}] parameter(0)\n  \
             mx = (f32[{rows}], s32[{rows}]) fusion(x), kind=kInput, calls=fmax\n  \
             mn = (f32[{rows}], s32[{rows}]) fusion(x), kind=kInput, calls=fmin\n  \
             a = f32[{rows}] get-tuple-element(mx), index=0\n  b = s32[{rows}] get-tuple-element(mx), index=1\n  \
             c = f32[{rows}] get-tuple-element(mn), index=0\n  d = s32[{rows}] get-tuple-element(mn), index=1\n  \
             ROOT t = (f32[{rows}], s32[{rows}], f32[{rows}], s32[{rows}]) tuple(a, b, c, d)\n}}\n",
            reducer("argmax", "GT", "s32"),
            reducer("argmin", "LT", "s32"),
            fused("fmax", "argmax", "-inf"),
            fused("fmin", "argmin", "inf"),
        );
        let base = inputs(DType::F32, &[rows, n], 7);
        let mut x: Vec<f64> = (0..base.len()).map(|i| get(&base, i)).collect();
        let n = n as usize;
        let row = |x: &mut Vec<f64>, r: usize, f: &dyn Fn(usize) -> f64| (0..n).for_each(|k| x[r * n + k] = f(k));
        row(&mut x, 0, &|_| 2.5);
        row(&mut x, 1, &|_| f64::NEG_INFINITY);
        row(&mut x, 2, &|k| if k % 3 == 0 { -0.0 } else { 0.0 });
        row(&mut x, 3, &|k| if k == 5 { 9.0 } else { 1.0 });
        row(&mut x, 4, &|k| {
            if k + 2 == n {
                9.0
            } else if k == n - 1 {
                -9.0
            } else {
                1.0
            }
        });
        row(&mut x, 5, &|k| if k == n - 3 || k == 70 || k == 40 { f64::NAN } else { k as f64 });
        row(&mut x, 6, &|k| if k == n - 1 { f64::NAN } else { 1.0 });
        check_hlo(&hlo, &[array_of(DType::F32, &[rows as i64, n as i64], &x)], 1e-30);
    }
}

#[test]
fn reductions_over_merged_dimensions_read_them_as_one() {
    // A max and a sum over the last two dimensions of a scaled [2, 3, 10, 20]
    // array, merged into one of 200 (as reduced-dims-grouping writes them):
    // the kernel indexes the array through a division and a remainder by 20,
    // which the address folds away (the lanes of a long max had become a
    // gather). Against the interpreter, NaN included.
    let hlo = "HloModule m\nmx {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT r = f32[] maximum(a, b)\n}\n\
        ad {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT r = f32[] add(a, b)\n}\n\
        f {\n  x = f32[2,3,10,20] parameter(0)\n  g = f32[2,3] parameter(1)\n  gb = f32[2,3,10,20] broadcast(g), dimensions={0,1}\n  \
        y = f32[2,3,10,20] multiply(x, gb)\n  r = f32[2,3,200] reshape(y)\n  i = f32[] constant(-inf)\n  \
        ROOT m = f32[2,3] reduce(r, i), dimensions={2}, to_apply=mx\n}\n\
        s {\n  x = f32[2,3,10,20] parameter(0)\n  r = f32[2,3,200] reshape(x)\n  z = f32[] constant(0)\n  \
        ROOT m = f32[2,3] reduce(r, z), dimensions={2}, to_apply=ad\n}\n\
        ENTRY e {\n  x = f32[2,3,10,20] parameter(0)\n  g = f32[2,3] parameter(1)\n  \
        a = f32[2,3] fusion(x, g), kind=kInput, calls=f\n  b = f32[2,3] fusion(x), kind=kInput, calls=s\n  \
        ROOT t = (f32[2,3], f32[2,3]) tuple(a, b)\n}\n";
    let x = inputs(DType::F32, &[2, 3, 10, 20], 7);
    let mut v: Vec<f32> = (0..1200).map(|i| get(&x, i) as f32).collect();
    v[1034] = f32::NAN;
    check_hlo(hlo, &[f32s(&[2, 3, 10, 20], &v), inputs(DType::F32, &[2, 3], 8)], 1e-5);
}
