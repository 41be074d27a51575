//! Op tests: each op runs twice, op by op on the interpreter
//! ([`eval_node`]) and as a one-node graph compiled through Cranelift, the
//! two must agree, and the result is checked against values computed by
//! hand or by a plain Rust implementation of the ONNX definition.

use std::collections::BTreeMap;

use smelt_hlo::{Array, DType};

use crate::graph::lower::eval_node;
use crate::graph::{Attr, Dim, Graph, Node, NodeKind, Session, SessionOptions, Value};

/// One op input: fed at run time, a graph constant, or omitted.
#[derive(Clone)]
enum In {
    Feed(Array),
    Const(Array),
    Absent,
}

fn f32s(dims: &[i64], v: Vec<f32>) -> Array {
    Array::from_vec(dims, v)
}

fn i64s(dims: &[i64], v: Vec<i64>) -> Array {
    Array::from_vec(dims, v)
}

/// Deterministic values in [-1, 1).
fn rand(dims: &[i64], seed: u64) -> Array {
    let n: i64 = dims.iter().product();
    let mut s = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    let v = (0..n)
        .map(|_| {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((s >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
        })
        .collect();
    f32s(dims, v)
}

fn vals(a: &Array) -> Vec<f32> {
    a.values::<f32>().expect("f32 array").to_vec()
}

fn assert_close(got: &[f32], want: &[f32], tol: f32) {
    assert_eq!(got.len(), want.len(), "lengths differ: {got:?} vs {want:?}");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!((g - w).abs() <= tol * (1.0 + w.abs()), "element {i}: got {g}, want {w}\n got {got:?}\nwant {want:?}");
    }
}

fn node(op: &str, n_in: usize, n_out: usize, attrs: Vec<(&str, Attr)>) -> Node {
    Node {
        name: "y".into(),
        op: op.into(),
        kind: NodeKind::Op,
        inputs: vec![None; n_in],
        outputs: (0..n_out).map(|k| if k == 0 { "y".to_string() } else { format!("y:{k}") }).collect(),
        attrs: attrs.into_iter().map(|(k, v)| (k.to_string(), v)).collect::<BTreeMap<_, _>>(),
        compile: None,
    }
}

/// Runs `op` on the interpreter and compiled; checks they agree; returns the outputs.
fn run(op: &str, ins: Vec<In>, attrs: Vec<(&str, Attr)>, n_out: usize) -> Vec<Array> {
    let args: Vec<Option<Array>> = ins
        .iter()
        .map(|i| match i {
            In::Feed(a) | In::Const(a) => Some(a.clone()),
            In::Absent => None,
        })
        .collect();
    let mut n = node(op, ins.len(), n_out, attrs);
    let interp = eval_node(&n, &args).unwrap_or_else(|e| panic!("{op} on the interpreter: {e}"));
    assert_eq!(interp.len(), n_out, "{op}: output count");

    let mut g = Graph::new();
    let mut feeds = Vec::new();
    for (k, i) in ins.iter().enumerate() {
        let v: Option<Value> = match i {
            In::Feed(a) => {
                let name = format!("in{k}");
                let dims = a.dims.iter().map(|&d| Dim::Fixed(d)).collect();
                let v = g.placeholder(&name, a.dtype(), dims).expect("placeholder");
                feeds.push((name, a.clone()));
                Some(v)
            }
            In::Const(a) => Some(g.constant(&format!("c{k}"), a.clone()).expect("constant")),
            In::Absent => None,
        };
        n.inputs[k] = v;
    }
    g.add_node(n).expect("node");
    let session =
        Session::new(g, SessionOptions { backend: "cranelift".into(), min_cluster_size: 1, ..Default::default() })
            .unwrap();
    let feeds: Vec<(&str, Array)> = feeds.iter().map(|(n, a)| (n.as_str(), a.clone())).collect();
    let names: Vec<String> = (0..n_out).map(|k| if k == 0 { "y".to_string() } else { format!("y:{k}") }).collect();
    let fetches: Vec<&str> = names.iter().map(String::as_str).collect();
    let compiled = session.run(&feeds, &fetches).unwrap_or_else(|e| panic!("{op} compiled: {e}"));
    let host = crate::graph::ops::lookup(op).is_some_and(|d| d.host.is_some());
    let clusters = session.clusters(&fetches).expect("clusters");
    assert_eq!(clusters.len(), usize::from(!host), "{op}: clusters");
    assert!(clusters.iter().all(|c| c.runs == 1 && c.signatures == 1), "{op}: the cluster ran compiled");
    for (a, b) in interp.iter().zip(&compiled) {
        assert_eq!(a.dims, b.dims, "{op}: interpreter and compiled shapes differ");
        if a.dtype() == DType::F32 {
            assert_close(&vals(b), &vals(a), 1e-5);
        } else {
            assert_eq!(a, b, "{op}: interpreter and compiled results differ");
        }
    }
    interp
}

fn run1(op: &str, ins: Vec<In>, attrs: Vec<(&str, Attr)>) -> Array {
    run(op, ins, attrs, 1).remove(0)
}

#[test]
fn add_broadcasts_numpy_style() {
    let a = f32s(&[2, 1], vec![1.0, 2.0]);
    let b = f32s(&[3], vec![10.0, 20.0, 30.0]);
    let y = run1("Add", vec![In::Feed(a), In::Feed(b)], vec![]);
    assert_eq!(y.dims.as_slice(), &[2, 3]);
    assert_eq!(vals(&y), vec![11.0, 21.0, 31.0, 12.0, 22.0, 32.0]);
}

/// Plain matrix product of row-major `[n, k]` and `[k, m]`.
fn mm(a: &[f32], b: &[f32], n: usize, k: usize, m: usize) -> Vec<f32> {
    let mut out = vec![0.0; n * m];
    for i in 0..n {
        for j in 0..m {
            out[i * m + j] = (0..k).map(|p| a[i * k + p] * b[p * m + j]).sum();
        }
    }
    out
}

#[test]
fn matmul_batches_and_broadcasts() {
    let a = rand(&[2, 3, 4], 1);
    let b = rand(&[2, 4, 5], 2);
    let y = run1("MatMul", vec![In::Feed(a.clone()), In::Feed(b.clone())], vec![]);
    assert_eq!(y.dims.as_slice(), &[2, 3, 5]);
    let (av, bv) = (vals(&a), vals(&b));
    let mut want = mm(&av[..12], &bv[..20], 3, 4, 5);
    want.extend(mm(&av[12..], &bv[20..], 3, 4, 5));
    assert_close(&vals(&y), &want, 1e-5);
    // A 2-D right operand applies to every batch; a batch of 1 broadcasts.
    let b2 = rand(&[4, 5], 3);
    let y = run1("MatMul", vec![In::Feed(a.clone()), In::Feed(b2.clone())], vec![]);
    let mut want = mm(&av[..12], &vals(&b2), 3, 4, 5);
    want.extend(mm(&av[12..], &vals(&b2), 3, 4, 5));
    assert_close(&vals(&y), &want, 1e-5);
    let a1 = rand(&[1, 3, 4], 4);
    let y = run1("MatMul", vec![In::Feed(a1.clone()), In::Feed(b.clone())], vec![]);
    assert_eq!(y.dims.as_slice(), &[2, 3, 5]);
    let mut want = mm(&vals(&a1), &bv[..20], 3, 4, 5);
    want.extend(mm(&vals(&a1), &bv[20..], 3, 4, 5));
    assert_close(&vals(&y), &want, 1e-5);
    // A 1-D left operand.
    let v = rand(&[4], 5);
    let y = run1("MatMul", vec![In::Feed(v.clone()), In::Feed(b2.clone())], vec![]);
    assert_eq!(y.dims.as_slice(), &[5]);
    assert_close(&vals(&y), &mm(&vals(&v), &vals(&b2), 1, 4, 5), 1e-5);
}

#[test]
fn gemm_transposes_scales_and_broadcasts_c() {
    // A' = A^T [2, 3], B' = B^T [3, 2].
    let a = f32s(&[3, 2], vec![1.0, 4.0, 2.0, 5.0, 3.0, 6.0]);
    let b = f32s(&[2, 3], vec![1.0, 0.0, 2.0, 0.0, 1.0, 1.0]);
    let c = f32s(&[2], vec![10.0, 20.0]);
    let attrs = vec![
        ("transA", Attr::Int(1)),
        ("transB", Attr::Int(1)),
        ("alpha", Attr::Float(2.0)),
        ("beta", Attr::Float(0.5)),
    ];
    let y = run1("Gemm", vec![In::Feed(a), In::Feed(b), In::Feed(c)], attrs);
    // A'B' = [[1,2,3],[4,5,6]] x [[1,0],[0,1],[2,1]] = [[7,5],[16,11]].
    assert_eq!(vals(&y), vec![2.0 * 7.0 + 5.0, 2.0 * 5.0 + 10.0, 2.0 * 16.0 + 5.0, 2.0 * 11.0 + 10.0]);
}

/// ONNX Conv by the definition: NCHW, grouped, padded, strided, dilated.
#[allow(clippy::too_many_arguments)]
fn conv_ref(
    x: &Array,
    w: &Array,
    b: Option<&Array>,
    group: usize,
    strides: [usize; 2],
    pads: [usize; 4],
    dil: [usize; 2],
) -> (Vec<i64>, Vec<f32>) {
    let (xv, wv) = (vals(x), vals(w));
    let d = |a: &Array| a.dims.iter().map(|&v| v as usize).collect::<Vec<_>>();
    let (xd, wd) = (d(x), d(w));
    let (n, c, h, wid) = (xd[0], xd[1], xd[2], xd[3]);
    let (m, cg, kh, kw) = (wd[0], wd[1], wd[2], wd[3]);
    let oh = (h + pads[0] + pads[2] - ((kh - 1) * dil[0] + 1)) / strides[0] + 1;
    let ow = (wid + pads[1] + pads[3] - ((kw - 1) * dil[1] + 1)) / strides[1] + 1;
    let mg = m / group;
    let mut out = vec![0.0f32; n * m * oh * ow];
    for ni in 0..n {
        for mi in 0..m {
            let g = mi / mg;
            for oy in 0..oh {
                for ox in 0..ow {
                    let mut s = b.map_or(0.0, |b| vals(b)[mi]);
                    for ci in 0..cg {
                        for ky in 0..kh {
                            for kx in 0..kw {
                                let iy = (oy * strides[0] + ky * dil[0]) as i64 - pads[0] as i64;
                                let ix = (ox * strides[1] + kx * dil[1]) as i64 - pads[1] as i64;
                                if iy < 0 || ix < 0 || iy >= h as i64 || ix >= wid as i64 {
                                    continue;
                                }
                                let xc = g * cg + ci;
                                let xi = ((ni * c + xc) * h + iy as usize) * wid + ix as usize;
                                let wi = ((mi * cg + ci) * kh + ky) * kw + kx;
                                s += xv[xi] * wv[wi];
                            }
                        }
                    }
                    out[((ni * m + mi) * oh + oy) * ow + ox] = s;
                }
            }
        }
    }
    (vec![n as i64, m as i64, oh as i64, ow as i64], out)
}

#[test]
fn conv_with_pads_strides_dilations_and_groups() {
    let x = rand(&[2, 4, 6, 5], 11);
    let w = rand(&[6, 2, 3, 2], 12);
    let b = rand(&[6], 13);
    let attrs = vec![
        ("group", Attr::Int(2)),
        ("strides", Attr::Ints(vec![2, 1])),
        ("pads", Attr::Ints(vec![1, 0, 2, 1])),
        ("dilations", Attr::Ints(vec![1, 2])),
        ("kernel_shape", Attr::Ints(vec![3, 2])),
    ];
    let y = run1("Conv", vec![In::Feed(x.clone()), In::Feed(w.clone()), In::Feed(b.clone())], attrs);
    let (dims, want) = conv_ref(&x, &w, Some(&b), 2, [2, 1], [1, 0, 2, 1], [1, 2]);
    assert_eq!(y.dims.as_slice(), dims.as_slice());
    assert_close(&vals(&y), &want, 1e-5);
    // SAME_UPPER on a 1-D convolution: output length ceil(7 / 2) = 4, pads (1, 1).
    let x1 = rand(&[1, 2, 7], 14);
    let w1 = rand(&[3, 2, 3], 15);
    let attrs = vec![("auto_pad", Attr::String("SAME_UPPER".into())), ("strides", Attr::Ints(vec![2]))];
    let y = run1("Conv", vec![In::Feed(x1.clone()), In::Feed(w1.clone())], attrs);
    let as4 = |a: &Array| f32s(&[a.dims[0], a.dims[1], 1, a.dims[2]], vals(a));
    let (_, want) = conv_ref(&as4(&x1), &as4(&w1), None, 1, [1, 2], [0, 1, 0, 1], [1, 1]);
    assert_eq!(y.dims.as_slice(), &[1, 3, 4]);
    assert_close(&vals(&y), &want, 1e-5);
}

#[test]
fn max_and_average_pool() {
    let x = f32s(&[1, 1, 3, 3], (1..=9).map(|v| v as f32).collect());
    let attrs = || vec![("kernel_shape", Attr::Ints(vec![2, 2])), ("pads", Attr::Ints(vec![1, 1, 0, 0]))];
    let y = run1("MaxPool", vec![In::Feed(x.clone())], {
        let mut a = attrs();
        a.push(("strides", Attr::Ints(vec![2, 2])));
        a
    });
    // Windows (with padding above and left) at rows -1..1, 1..3 and cols likewise.
    assert_eq!(y.dims.as_slice(), &[1, 1, 2, 2]);
    assert_eq!(vals(&y), vec![1.0, 3.0, 7.0, 9.0]);
    // Average excluding padding: stride 1 gives a 3x3 output.
    let y = run1("AveragePool", vec![In::Feed(x.clone())], attrs());
    assert_eq!(y.dims.as_slice(), &[1, 1, 3, 3]);
    let want = [1.0, 1.5, 2.5, 2.5, 3.0, 4.0, 5.5, 6.0, 7.0];
    assert_close(&vals(&y), &want, 1e-6);
    // Including padding divides by the window size.
    let mut a = attrs();
    a.push(("count_include_pad", Attr::Int(1)));
    let y = run1("AveragePool", vec![In::Feed(x.clone())], a);
    assert_close(&vals(&y), &[0.25, 0.75, 1.25, 1.25, 3.0, 4.0, 2.75, 6.0, 7.0], 1e-6);
    let y = run1("GlobalAveragePool", vec![In::Feed(x)], vec![]);
    assert_eq!(y.dims.as_slice(), &[1, 1, 1, 1]);
    assert_eq!(vals(&y), vec![5.0]);
}

#[test]
fn batch_norm_softmax_and_layer_norm() {
    let x = f32s(&[1, 2, 2], vec![1.0, 2.0, 3.0, 4.0]);
    let c = |v: Vec<f32>| In::Const(f32s(&[2], v));
    let ins = vec![In::Feed(x.clone()), c(vec![2.0, 1.0]), c(vec![0.5, -1.0]), c(vec![1.0, 3.0]), c(vec![4.0, 1.0])];
    let y = run1("BatchNormalization", ins, vec![("epsilon", Attr::Float(0.0))]);
    assert_close(&vals(&y), &[0.5, 1.5, -1.0, 0.0], 1e-6);

    let s = run1("Softmax", vec![In::Feed(x.clone())], vec![("axis", Attr::Int(1))]);
    let e = (2.0f32).exp();
    let (p, q) = (1.0 / (1.0 + e), e / (1.0 + e));
    assert_close(&vals(&s), &[p, p, q, q], 1e-6);
    let ls = run1("LogSoftmax", vec![In::Feed(x.clone())], vec![]);
    let l = (1.0f32 + (-1.0f32).exp()).ln();
    assert_close(&vals(&ls), &[-1.0 - l, -l, -1.0 - l, -l], 1e-6);

    let scale = In::Const(f32s(&[2], vec![1.0, 2.0]));
    let bias = In::Const(f32s(&[2], vec![0.0, 1.0]));
    let outs = run("LayerNormalization", vec![In::Feed(x), scale, bias], vec![("epsilon", Attr::Float(0.0))], 3);
    // Each row [a, a+1] normalizes to [-1, 1].
    assert_close(&vals(&outs[0]), &[-1.0, 3.0, -1.0, 3.0], 1e-5);
    assert_close(&vals(&outs[1]), &[1.5, 3.5], 1e-6);
    assert_eq!(outs[2].dims.as_slice(), &[1, 2, 1]);
    assert_close(&vals(&outs[2]), &[2.0, 2.0], 1e-5);
}

#[test]
fn reshape_slice_gather_split() {
    let x = f32s(&[2, 3, 4], (0..24).map(|v| v as f32).collect());
    let y = run1("Reshape", vec![In::Feed(x.clone()), In::Const(i64s(&[3], vec![0, -1, 2]))], vec![]);
    assert_eq!(y.dims.as_slice(), &[2, 6, 2]);

    // x[:, -1:-4:-2, 1:] with INT64_MAX as an open end.
    let ins = vec![
        In::Feed(x.clone()),
        In::Const(i64s(&[2], vec![-1, 1])),
        In::Const(i64s(&[2], vec![-4, i64::MAX])),
        In::Const(i64s(&[2], vec![1, 2])),
        In::Const(i64s(&[2], vec![-2, 1])),
    ];
    let y = run1("Slice", ins, vec![]);
    assert_eq!(y.dims.as_slice(), &[2, 2, 3]);
    assert_eq!(vals(&y), vec![9.0, 10.0, 11.0, 1.0, 2.0, 3.0, 21.0, 22.0, 23.0, 13.0, 14.0, 15.0]);

    // Rank-2 indices with negatives, axis 1.
    let idx = i64s(&[2, 2], vec![-1, 0, 1, -3]);
    let y = run1("Gather", vec![In::Feed(x.clone()), In::Feed(idx)], vec![("axis", Attr::Int(1))]);
    assert_eq!(y.dims.as_slice(), &[2, 2, 2, 4]);
    let row = |b: usize, r: usize| (0..4).map(move |c| (b * 12 + r * 4 + c) as f32);
    let want: Vec<f32> =
        [0, 1].into_iter().flat_map(|b| [2, 0, 1, 0].into_iter().flat_map(move |r| row(b, r))).collect();
    assert_eq!(vals(&y), want);

    let outs = run("Split", vec![In::Feed(x), In::Const(i64s(&[2], vec![1, 3]))], vec![("axis", Attr::Int(-1))], 2);
    assert_eq!(outs[0].dims.as_slice(), &[2, 3, 1]);
    assert_eq!(outs[1].dims.as_slice(), &[2, 3, 3]);
    assert_eq!(vals(&outs[0]), vec![0.0, 4.0, 8.0, 12.0, 16.0, 20.0]);
}

fn sigmoid(v: f32) -> f32 {
    1.0 / (1.0 + (-v).exp())
}

/// `x [batch, k]` times `w [n, k]` transposed, plus `b [n]`.
fn affine(x: &[f32], w: &[f32], b: &[f32], batch: usize, k: usize, n: usize) -> Vec<f32> {
    (0..batch * n).map(|i| b[i % n] + (0..k).map(|p| x[(i / n) * k + p] * w[(i % n) * k + p]).sum::<f32>()).collect()
}

/// Random X, W, R, B and initial H of a one-direction recurrence with `gates`
/// gates (sequence 2, batch 2, input 3, hidden 2), seeded from `seed` on, and
/// them as an op's inputs (no sequence lengths).
fn recurrence(gates: i64, seed: u64) -> ([Array; 5], Vec<In>) {
    let arrays = [
        rand(&[2, 2, 3], seed),
        rand(&[1, 2 * gates, 3], seed + 1),
        rand(&[1, 2 * gates, 2], seed + 2),
        rand(&[1, 4 * gates], seed + 3),
        rand(&[1, 2, 2], seed + 4),
    ];
    let [x, w, r, b, h0] = arrays.clone();
    (arrays, vec![In::Feed(x), In::Const(w), In::Const(r), In::Const(b), In::Absent, In::Feed(h0)])
}

#[test]
fn lstm_matches_the_onnx_equations() {
    let (seq, batch, inp, hid) = (2usize, 2usize, 3usize, 2usize);
    let ([x, w, r, b, h0], mut ins) = recurrence(4, 21);
    let c0 = rand(&[1, 2, 2], 26);
    ins.push(In::Feed(c0.clone()));
    let outs = run("LSTM", ins, vec![("hidden_size", Attr::Int(2))], 3);
    let (xv, wv, rv, bv) = (vals(&x), vals(&w), vals(&r), vals(&b));
    let bias: Vec<f32> = (0..8).map(|i| bv[i] + bv[8 + i]).collect();
    let zero = vec![0.0; 8];
    let (mut h, mut c) = (vals(&h0), vals(&c0));
    let mut ys = Vec::new();
    for t in 0..seq {
        let xw = affine(&xv[t * batch * inp..(t + 1) * batch * inp], &wv, &bias, batch, inp, 4 * hid);
        let hr = affine(&h, &rv, &zero, batch, hid, 4 * hid);
        for bi in 0..batch {
            for j in 0..hid {
                let g = |k: usize| xw[bi * 4 * hid + k * hid + j] + hr[bi * 4 * hid + k * hid + j];
                let (i, o, f, cc) = (sigmoid(g(0)), sigmoid(g(1)), sigmoid(g(2)), g(3).tanh());
                let cn = f * c[bi * hid + j] + i * cc;
                c[bi * hid + j] = cn;
                h[bi * hid + j] = o * cn.tanh();
            }
        }
        ys.extend(h.clone());
    }
    assert_eq!(outs[0].dims.as_slice(), &[2, 1, 2, 2]);
    assert_close(&vals(&outs[0]), &ys, 1e-5);
    assert_close(&vals(&outs[1]), &h, 1e-5);
    assert_close(&vals(&outs[2]), &c, 1e-5);
}

#[test]
fn gru_matches_the_onnx_equations() {
    let (seq, batch, inp, hid) = (2usize, 2usize, 3usize, 2usize);
    let ([x, w, r, b, h0], ins) = recurrence(3, 31);
    for lbr in [0, 1] {
        let ins = ins.clone();
        let attrs = vec![("hidden_size", Attr::Int(2)), ("linear_before_reset", Attr::Int(lbr))];
        let outs = run("GRU", ins, attrs, 2);
        let (xv, wv, rv, bv) = (vals(&x), vals(&w), vals(&r), vals(&b));
        let mut h = vals(&h0);
        let mut ys = Vec::new();
        for t in 0..seq {
            let xw = affine(&xv[t * batch * inp..(t + 1) * batch * inp], &wv, &bv[..6], batch, inp, 3 * hid);
            let hr = affine(&h, &rv, &bv[6..], batch, hid, 3 * hid);
            let mut next = h.clone();
            for bi in 0..batch {
                let at = |v: &[f32], k: usize, j: usize| v[bi * 3 * hid + k * hid + j];
                let z: Vec<f32> = (0..hid).map(|j| sigmoid(at(&xw, 0, j) + at(&hr, 0, j))).collect();
                let rg: Vec<f32> = (0..hid).map(|j| sigmoid(at(&xw, 1, j) + at(&hr, 1, j))).collect();
                for j in 0..hid {
                    let rec = if lbr == 1 {
                        rg[j] * at(&hr, 2, j)
                    } else {
                        // (r * H) Rh^T + Rbh
                        bv[6 + 2 * hid + j]
                            + (0..hid).map(|p| rg[p] * h[bi * hid + p] * rv[(2 * hid + j) * hid + p]).sum::<f32>()
                    };
                    let cand = (at(&xw, 2, j) + rec).tanh();
                    next[bi * hid + j] = (1.0 - z[j]) * cand + z[j] * h[bi * hid + j];
                }
            }
            h = next;
            ys.extend(h.clone());
        }
        assert_close(&vals(&outs[0]), &ys, 1e-5);
        assert_close(&vals(&outs[1]), &h, 1e-5);
    }
}

#[test]
fn non_zero_lists_indices_row_major() {
    let x = f32s(&[2, 3], vec![0.0, 1.0, 0.0, 2.0, 0.0, 3.0]);
    let y = run1("NonZero", vec![In::Feed(x)], vec![]);
    assert_eq!(y, i64s(&[2, 3], vec![0, 1, 1, 1, 0, 2]));
}

/// A graph split around NonZero, with the shape computation exporters emit
/// for dynamic batch sizes folded while lowering.
#[test]
fn session_splits_around_host_ops_and_folds_shapes() {
    let mut g = Graph::new();
    let x = g.placeholder("x", DType::F32, vec![Dim::Symbolic("N".into()), Dim::Fixed(2), Dim::Fixed(2)]).unwrap();
    let shape = g.op("Shape", "shape", &[x], vec![]).unwrap();
    let zero = g.constant("zero", i64s(&[1], vec![0])).unwrap();
    let n = g.op("Gather", "n", &[shape, zero], vec![("axis", Attr::Int(0))]).unwrap();
    let minus1 = g.constant("minus1", i64s(&[1], vec![-1])).unwrap();
    let target = g.op("Concat", "target", &[n, minus1], vec![("axis", Attr::Int(0))]).unwrap();
    let flat = g.op("Reshape", "flat", &[x, target], vec![]).unwrap();
    let axes = g.constant("axes", i64s(&[1], vec![1])).unwrap();
    let score = g.op("ReduceSum", "score", &[flat, axes], vec![("keepdims", Attr::Int(0))]).unwrap();
    let thr = g.constant("thr", Array::scalar(1.0f32)).unwrap();
    let keep = g.op("Greater", "keep", &[score, thr], vec![]).unwrap();
    let nz = g.op("NonZero", "nz", &[keep], vec![]).unwrap();
    let flat_shape = g.constant("flat_shape", i64s(&[1], vec![-1])).unwrap();
    let idx = g.op("Reshape", "idx", &[nz, flat_shape], vec![]).unwrap();
    let _rows = g.op("Gather", "rows", &[flat, idx], vec![("axis", Attr::Int(0))]).unwrap();
    let session =
        Session::new(g, SessionOptions { backend: "cranelift".into(), min_cluster_size: 1, ..Default::default() })
            .unwrap();
    for batch in [3i64, 5] {
        let x = f32s(&[batch, 2, 2], (0..batch * 4).map(|v| if v % 8 < 4 { 1.0 } else { 0.0 }).collect());
        let out = session.run(&[("x", x)], &["rows", "idx"]).unwrap();
        let kept: Vec<i64> = (0..batch).filter(|r| r % 2 == 0).collect();
        assert_eq!(out[1], i64s(&[kept.len() as i64], kept.clone()));
        assert_eq!(out[0].dims.as_slice(), &[kept.len() as i64, 4]);
        assert!(vals(&out[0]).iter().all(|&v| v == 1.0));
    }
}

#[test]
fn small_ops_follow_onnx_defaults() {
    let m = f32s(&[2, 3], vec![1.0, 3.0, 3.0, 2.0, 0.0, 1.0]);
    let cond = Array::from_vec([2], vec![true, false]);
    let y = run1(
        "Where",
        vec![In::Feed(cond), In::Feed(f32s(&[2], vec![1.0, 2.0])), In::Const(Array::scalar(9.0f32))],
        vec![],
    );
    assert_eq!(vals(&y), vec![1.0, 9.0]);
    let x = f32s(&[3], vec![-2.0, 0.5, 3.0]);
    let (lo, hi) = (Array::scalar(0.0f32), Array::scalar(1.0f32));
    let y = run1("Clip", vec![In::Feed(x.clone()), In::Const(lo), In::Const(hi.clone())], vec![]);
    assert_eq!(vals(&y), vec![0.0, 0.5, 1.0]);
    let y = run1("Clip", vec![In::Feed(x), In::Absent, In::Const(hi)], vec![]);
    assert_eq!(vals(&y), vec![-2.0, 0.5, 1.0]);
    let y =
        run1("Mod", vec![In::Feed(i64s(&[4], vec![5, -5, 5, -5])), In::Feed(i64s(&[4], vec![3, 3, -3, -3]))], vec![]);
    assert_eq!(y, i64s(&[4], vec![2, 1, -1, -2]));
    let y = run1(
        "Mod",
        vec![In::Feed(f32s(&[2], vec![5.5, -5.5])), In::Const(Array::scalar(2.0f32))],
        vec![("fmod", Attr::Int(1))],
    );
    assert_eq!(vals(&y), vec![1.5, -1.5]);
    let y = run1("Cast", vec![In::Feed(f32s(&[2], vec![1.7, -1.7]))], vec![("to", Attr::Int(6))]);
    assert_eq!(y, Array::from_vec([2], vec![1i32, -1]));
    let y = run1("Gelu", vec![In::Feed(f32s(&[1], vec![1.0]))], vec![]);
    assert_close(&vals(&y), &[0.841_344_7], 1e-6);
    let y = run1("Gelu", vec![In::Feed(f32s(&[1], vec![1.0]))], vec![("approximate", Attr::String("tanh".into()))]);
    assert_close(&vals(&y), &[0.841_192], 1e-5);

    // Reductions and arg reductions.
    let keep0 = || ("keepdims", Attr::Int(0));
    let y = run1("ArgMax", vec![In::Feed(m.clone())], vec![("axis", Attr::Int(1)), keep0()]);
    assert_eq!(y, i64s(&[2], vec![1, 0]));
    let y = run1(
        "ArgMax",
        vec![In::Feed(m.clone())],
        vec![("axis", Attr::Int(-1)), keep0(), ("select_last_index", Attr::Int(1))],
    );
    assert_eq!(y, i64s(&[2], vec![2, 0]));
    let y = run1("ArgMin", vec![In::Feed(m.clone())], vec![("axis", Attr::Int(1))]);
    assert_eq!(y, i64s(&[2, 1], vec![0, 1]));
    let y = run1("ReduceMean", vec![In::Feed(m.clone())], vec![("axes", Attr::Ints(vec![1]))]);
    assert_eq!(y.dims.as_slice(), &[2, 1]);
    assert_close(&vals(&y), &[7.0 / 3.0, 1.0], 1e-6);
    let y = run1("ReduceMax", vec![In::Feed(m.clone())], vec![keep0()]);
    assert_eq!(y.dims.as_slice(), &[] as &[i64]);
    assert_eq!(vals(&y), vec![3.0]);
    let y = run1("ReduceSum", vec![In::Feed(m.clone())], vec![("noop_with_empty_axes", Attr::Int(1))]);
    assert_eq!(y, m);

    // Shapes.
    let x = rand(&[2, 3, 4], 41);
    let y = run1("Shape", vec![In::Feed(x.clone())], vec![("start", Attr::Int(1))]);
    assert_eq!(y, i64s(&[2], vec![3, 4]));
    let y = run1("Size", vec![In::Feed(x.clone())], vec![]);
    assert_eq!(y, Array::scalar(24i64));
    let y = run1("Flatten", vec![In::Feed(x.clone())], vec![("axis", Attr::Int(2))]);
    assert_eq!(y.dims.as_slice(), &[6, 4]);
    let y = run1("Transpose", vec![In::Feed(m.clone())], vec![]);
    assert_eq!(vals(&y), vec![1.0, 2.0, 3.0, 0.0, 3.0, 1.0]);
    let y = run1("Squeeze", vec![In::Feed(f32s(&[2, 1], vec![1.0, 2.0])), In::Const(i64s(&[1], vec![-1]))], vec![]);
    assert_eq!(y.dims.as_slice(), &[2]);
    let y = run1("Unsqueeze", vec![In::Feed(f32s(&[2], vec![1.0, 2.0])), In::Const(i64s(&[2], vec![0, -1]))], vec![]);
    assert_eq!(y.dims.as_slice(), &[1, 2, 1]);
    let y = run1(
        "Expand",
        vec![In::Feed(f32s(&[3, 1], vec![1.0, 2.0, 3.0])), In::Const(i64s(&[3], vec![2, 1, 4]))],
        vec![],
    );
    assert_eq!(y.dims.as_slice(), &[2, 3, 4]);
    assert_eq!(vals(&y)[..8], [1.0, 1.0, 1.0, 1.0, 2.0, 2.0, 2.0, 2.0]);
    let y = run1("Tile", vec![In::Feed(f32s(&[1, 2], vec![1.0, 2.0])), In::Const(i64s(&[2], vec![2, 2]))], vec![]);
    assert_eq!(y.dims.as_slice(), &[2, 4]);
    assert_eq!(vals(&y), vec![1.0, 2.0, 1.0, 2.0, 1.0, 2.0, 1.0, 2.0]);
    let pads = In::Const(i64s(&[4], vec![0, 1, 1, 0]));
    let y = run1("Pad", vec![In::Feed(f32s(&[1, 2], vec![1.0, 2.0])), pads, In::Const(Array::scalar(9.0f32))], vec![]);
    assert_eq!(vals(&y), vec![9.0, 1.0, 2.0, 9.0, 9.0, 9.0]);
    let s = |v: i64| In::Const(Array::scalar(v));
    let y = run1("Range", vec![s(1), s(7), s(2)], vec![]);
    assert_eq!(y, i64s(&[3], vec![1, 3, 5]));
    let y = run1(
        "ConstantOfShape",
        vec![In::Const(i64s(&[2], vec![2, 2]))],
        vec![("value", Attr::Tensor(i64s(&[1], vec![7])))],
    );
    assert_eq!(y, i64s(&[2, 2], vec![7; 4]));
    let y = run1("Constant", vec![], vec![("value_ints", Attr::Ints(vec![4, 5]))]);
    assert_eq!(y, i64s(&[2], vec![4, 5]));

    // Host ops.
    let outs = run("Unique", vec![In::Feed(f32s(&[5], vec![2.0, 1.0, 2.0, 3.0, 1.0]))], vec![], 4);
    assert_eq!(vals(&outs[0]), vec![1.0, 2.0, 3.0]);
    assert_eq!(outs[1], i64s(&[3], vec![1, 0, 3]));
    assert_eq!(outs[2], i64s(&[5], vec![1, 0, 1, 2, 0]));
    assert_eq!(outs[3], i64s(&[3], vec![2, 2, 1]));
    let x = f32s(&[2, 3], vec![1.0, 4.0, 2.0, 3.0, 3.0, 0.0]);
    let outs = run("TopK", vec![In::Feed(x), In::Const(i64s(&[1], vec![2]))], vec![], 2);
    assert_eq!(vals(&outs[0]), vec![4.0, 2.0, 3.0, 3.0]);
    assert_eq!(outs[1], i64s(&[2, 2], vec![1, 2, 0, 1]));
}

/// The reverse half of a bidirectional LSTM in layout 1 is the forward LSTM
/// of the time-reversed input with the second direction's weights.
#[test]
fn bidirectional_batch_first_lstm_is_two_directions() {
    let (batch, seq, hid) = (2i64, 3i64, 2i64);
    let x = rand(&[batch, seq, 3], 51);
    let w = rand(&[2, 8, 3], 52);
    let r = rand(&[2, 8, 2], 53);
    let b = rand(&[2, 16], 54);
    let h0 = rand(&[batch, 2, hid], 55);
    let c0 = rand(&[batch, 2, hid], 56);
    let ins = vec![
        In::Feed(x.clone()),
        In::Const(w.clone()),
        In::Const(r.clone()),
        In::Const(b.clone()),
        In::Absent,
        In::Feed(h0.clone()),
        In::Feed(c0.clone()),
    ];
    let attrs = vec![
        ("hidden_size", Attr::Int(hid)),
        ("direction", Attr::String("bidirectional".into())),
        ("layout", Attr::Int(1)),
    ];
    let both = run("LSTM", ins, attrs, 3);
    assert_eq!(both[0].dims.as_slice(), &[batch, seq, 2, hid]);
    assert_eq!(both[1].dims.as_slice(), &[batch, 2, hid]);
    // Direction d's slice of a [dirs, ...] array as a [1, ...] one.
    let take = |a: &Array, d: usize| {
        let n = a.len() / a.dims[0] as usize;
        let mut dims = a.dims.to_vec();
        dims[0] = 1;
        f32s(&dims, vals(a)[d * n..(d + 1) * n].to_vec())
    };
    // Time-major input and states for the single-direction runs.
    let xt = run1("Transpose", vec![In::Feed(x)], vec![("perm", Attr::Ints(vec![1, 0, 2]))]);
    let state = |a: &Array, d: usize| {
        take(&run1("Transpose", vec![In::Feed(a.clone())], vec![("perm", Attr::Ints(vec![1, 0, 2]))]), d)
    };
    for d in 0..2 {
        let xd = if d == 0 {
            xt.clone()
        } else {
            // The time-reversed input, through Slice with a negative step.
            let c = |v: i64| In::Const(i64s(&[1], vec![v]));
            run1("Slice", vec![In::Feed(xt.clone()), c(-1), c(i64::MIN), c(0), c(-1)], vec![])
        };
        let ins = vec![
            In::Feed(xd),
            In::Const(take(&w, d)),
            In::Const(take(&r, d)),
            In::Const(take(&b, d)),
            In::Absent,
            In::Feed(state(&h0, d)),
            In::Feed(state(&c0, d)),
        ];
        let one = run("LSTM", ins, vec![("hidden_size", Attr::Int(hid))], 3);
        // Y_h in layout 1 is [batch, dirs, hidden].
        let yh: Vec<f32> = (0..batch as usize)
            .flat_map(|bi| vals(&both[1])[(bi * 2 + d) * 2..(bi * 2 + d) * 2 + 2].to_vec())
            .collect();
        assert_close(&yh, &vals(&one[1]), 1e-5);
        // Y in layout 1 is [batch, seq, dirs, hidden]; one[0] is [seq, 1, batch, hidden].
        for t in 0..seq as usize {
            let src_t = if d == 0 { t } else { seq as usize - 1 - t };
            for bi in 0..batch as usize {
                let got = &vals(&both[0])[((bi * seq as usize + t) * 2 + d) * 2..][..2];
                let want = &vals(&one[0])[(src_t * batch as usize + bi) * 2..][..2];
                assert_close(got, want, 1e-5);
            }
        }
    }
}

#[test]
fn max_pool_ceil_mode_and_dilation() {
    let x = f32s(&[1, 1, 5], vec![1.0, 2.0, 3.0, 4.0, 5.0]);
    let k = || ("kernel_shape", Attr::Ints(vec![2]));
    let y = run1(
        "MaxPool",
        vec![In::Feed(x.clone())],
        vec![k(), ("strides", Attr::Ints(vec![2])), ("ceil_mode", Attr::Int(1))],
    );
    assert_eq!(vals(&y), vec![2.0, 4.0, 5.0]);
    let y = run1("MaxPool", vec![In::Feed(x)], vec![k(), ("dilations", Attr::Ints(vec![2]))]);
    assert_eq!(vals(&y), vec![3.0, 4.0, 5.0]);
}

/// The activation functions against their definitions, evaluated here in f64.
#[test]
fn activations_follow_their_definitions() {
    let xs: Vec<f32> = vec![-30.0, -2.5, -0.75, -0.25, 0.0, 0.25, 0.75, 2.5, 30.0];
    let x = || In::Feed(f32s(&[9], xs.clone()));
    let check = |op: &str, attrs: Vec<(&str, Attr)>, f: &dyn Fn(f64) -> f64| {
        let y = run1(op, vec![x()], attrs);
        for (&xi, &yi) in xs.iter().zip(y.values::<f32>().unwrap()) {
            let want = f(xi as f64);
            assert!((yi as f64 - want).abs() <= 1e-6 * want.abs().max(1.0), "{op}({xi}) = {yi}, want {want}");
        }
    };
    check("Elu", vec![("alpha", Attr::Float(0.5))], &|v| if v < 0.0 { 0.5 * v.exp_m1() } else { v });
    let (a, g) = (1.673_263_2_f32 as f64, 1.050_701_f32 as f64);
    check("Selu", vec![], &|v| g * if v < 0.0 { a * v.exp_m1() } else { v });
    check("Softplus", vec![], &|v| v.exp().ln_1p());
    check("Shrink", vec![("lambd", Attr::Float(0.5)), ("bias", Attr::Float(0.25))], &|v| {
        if v < -0.5 {
            v + 0.25
        } else if v > 0.5 {
            v - 0.25
        } else {
            0.0
        }
    });
    let hs = |v: f64, a: f64, b: f64| (a * v + b).clamp(0.0, 1.0);
    check("HardSigmoid", vec![], &|v| hs(v, 0.2_f32 as f64, 0.5));
    check("HardSwish", vec![], &|v| v * hs(v, 1.0 / 6.0, 0.5));
    check("ThresholdedRelu", vec![("alpha", Attr::Float(0.5))], &|v| if v > 0.5 { v } else { 0.0 });
    // PRelu's slope broadcasts to x: one slope per column.
    let x2 = f32s(&[3, 2], vec![-1.0, -2.0, 3.0, -4.0, -5.0, 6.0]);
    let y = run1("PRelu", vec![In::Feed(x2), In::Const(f32s(&[2], vec![0.5, 0.25]))], vec![]);
    assert_eq!(y, f32s(&[3, 2], vec![-0.5, -0.5, 3.0, -1.0, -2.5, 6.0]));
}

/// ConvTranspose against its definition (each input element scatters
/// `x * w` to `in * stride - pad + k * dilation`), 1-D, with groups, strides,
/// dilation, padding and output_padding.
#[test]
fn conv_transpose_scatters_each_input_through_the_kernel() {
    let (n, c_in, len, group, c_out_g, k) = (2usize, 4usize, 5usize, 2usize, 3usize, 3usize);
    let (stride, dilation, pad_begin, pad_end, out_pad) = (2i64, 2i64, 1i64, 2i64, 1i64);
    let xs: Vec<f32> = (0..n * c_in * len).map(|i| ((i * 7 % 11) as f32) - 5.0).collect();
    let ws: Vec<f32> = (0..c_in * c_out_g * k).map(|i| ((i * 5 % 13) as f32) * 0.25 - 1.5).collect();
    let out_len = (stride * (len as i64 - 1) + out_pad + dilation * (k as i64 - 1) + 1 - pad_begin - pad_end) as usize;
    let c_out = group * c_out_g;
    let mut want = vec![0f32; n * c_out * out_len];
    for b in 0..n {
        for ic in 0..c_in {
            let g = ic / (c_in / group);
            for i in 0..len {
                for oc in 0..c_out_g {
                    for kk in 0..k {
                        let o = i as i64 * stride - pad_begin + kk as i64 * dilation;
                        if (0..out_len as i64).contains(&o) {
                            let x = xs[(b * c_in + ic) * len + i];
                            let w = ws[(ic * c_out_g + oc) * k + kk];
                            want[(b * c_out + g * c_out_g + oc) * out_len + o as usize] += x * w;
                        }
                    }
                }
            }
        }
    }
    let y = run1(
        "ConvTranspose",
        vec![
            In::Feed(f32s(&[n as i64, c_in as i64, len as i64], xs)),
            In::Const(f32s(&[c_in as i64, c_out_g as i64, k as i64], ws)),
        ],
        vec![
            ("group", Attr::Int(group as i64)),
            ("strides", Attr::Ints(vec![stride])),
            ("dilations", Attr::Ints(vec![dilation])),
            ("pads", Attr::Ints(vec![pad_begin, pad_end])),
            ("output_padding", Attr::Ints(vec![out_pad])),
        ],
    );
    assert_eq!(y.dims.as_slice(), [n as i64, c_out as i64, out_len as i64]);
    for (i, (g, w)) in y.values::<f32>().unwrap().iter().zip(&want).enumerate() {
        assert!((g - w).abs() <= 1e-4 * w.abs().max(1.0), "element {i}: {g} vs {w}");
    }
}

/// Pad's edge and reflect modes, 2-D.
#[test]
fn pad_repeats_or_mirrors_the_border() {
    let x = f32s(&[2, 3], vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    let pads = In::Const(i64s(&[4], vec![1, 2, 0, 1]));
    let edge = run1("Pad", vec![In::Feed(x.clone()), pads], vec![("mode", Attr::String("edge".into()))]);
    #[rustfmt::skip]
    let want_edge = vec![1., 1., 1., 2., 3., 3., 1., 1., 1., 2., 3., 3., 4., 4., 4., 5., 6., 6.];
    assert_eq!(edge, f32s(&[3, 6], want_edge));
    let pads = In::Const(i64s(&[4], vec![1, 2, 0, 1]));
    let reflect = run1("Pad", vec![In::Feed(x), pads], vec![("mode", Attr::String("reflect".into()))]);
    #[rustfmt::skip]
    let want_reflect = vec![6., 5., 4., 5., 6., 5., 3., 2., 1., 2., 3., 2., 6., 5., 4., 5., 6., 5.];
    assert_eq!(reflect, f32s(&[3, 6], want_reflect));
}

/// `0, 1, 2, ...` as f32 of `dims`.
fn counting(dims: &[i64]) -> Array {
    let n: i64 = dims.iter().product();
    f32s(dims, (0..n).map(|v| v as f32).collect())
}

#[test]
fn depth_to_space_and_space_to_depth_move_blocks() {
    let (n, c, h, w, b) = (2usize, 8usize, 2usize, 3usize, 2usize);
    let x = counting(&[2, 8, 2, 3]);
    let xv = vals(&x);
    let at = |n_: usize, c_: usize, h_: usize, w_: usize| xv[((n_ * c + c_) * h + h_) * w + w_];
    for mode in ["DCR", "CRD"] {
        let y = run1(
            "DepthToSpace",
            vec![In::Feed(x.clone())],
            vec![("blocksize", Attr::Int(2)), ("mode", Attr::String(mode.into()))],
        );
        let cb = c / (b * b);
        assert_eq!(y.dims.as_slice(), &[2, 2, 4, 6]);
        let mut want = Vec::new();
        for n_ in 0..n {
            for c_ in 0..cb {
                for hh in 0..h * b {
                    for ww in 0..w * b {
                        let (i, j) = (hh % b, ww % b);
                        // DCR: depth, column, row = channel (i * b + j) * C' + c; CRD: c * b² + i * b + j.
                        let src = if mode == "DCR" { (i * b + j) * cb + c_ } else { c_ * b * b + i * b + j };
                        want.push(at(n_, src, hh / b, ww / b));
                    }
                }
            }
        }
        assert_eq!(vals(&y), want, "{mode}");
    }
    // SpaceToDepth: out[n, (i * b + j) * C + c, h, w] = x[n, c, h * b + i, w * b + j].
    let x = counting(&[1, 2, 4, 6]);
    let xv = vals(&x);
    let y = run1("SpaceToDepth", vec![In::Feed(x)], vec![("blocksize", Attr::Int(2))]);
    assert_eq!(y.dims.as_slice(), &[1, 8, 2, 3]);
    let mut want = Vec::new();
    for oc in 0..8 {
        let (ij, c_) = (oc / 2, oc % 2);
        let (i, j) = (ij / 2, ij % 2);
        for hh in 0..2 {
            for ww in 0..3 {
                want.push(xv[(c_ * 4 + hh * 2 + i) * 6 + ww * 2 + j]);
            }
        }
    }
    assert_eq!(vals(&y), want);
}

#[test]
fn trilu_keeps_one_side_of_the_kth_diagonal() {
    let x = rand(&[2, 3, 4], 7);
    let xv = vals(&x);
    for upper in [1, 0] {
        for k in [None, Some(-1i64), Some(0), Some(2), Some(-5)] {
            let mut ins = vec![In::Feed(x.clone())];
            if let Some(k) = k {
                // Runtime k for one case, a constant for the others.
                ins.push(if k == 2 { In::Feed(Array::scalar(k)) } else { In::Const(Array::scalar(k)) });
            }
            let y = run1("Trilu", ins, vec![("upper", Attr::Int(upper))]);
            let k = k.unwrap_or(0);
            let want: Vec<f32> = (0..24)
                .map(|e| {
                    let (i, j) = ((e / 4 % 3) as i64, (e % 4) as i64);
                    let keep = if upper == 1 { j - i >= k } else { j - i <= k };
                    if keep { xv[e] } else { 0.0 }
                })
                .collect();
            assert_eq!(vals(&y), want, "upper={upper} k={k}");
        }
    }
}

#[test]
fn cum_sum_scans_forward_backward_and_exclusive() {
    let x = f32s(&[2, 3], vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    let xv = vals(&x);
    for axis in [0i64, 1, -1] {
        let a = axis.rem_euclid(2) as usize;
        for exclusive in [0, 1] {
            for reverse in [0, 1] {
                let y = run1(
                    "CumSum",
                    vec![In::Feed(x.clone()), In::Const(Array::scalar(axis))],
                    vec![("exclusive", Attr::Int(exclusive)), ("reverse", Attr::Int(reverse))],
                );
                let want: Vec<f32> = (0..6)
                    .map(|e| {
                        let pos = [e / 3, e % 3];
                        let n = [2, 3][a];
                        (0..n)
                            .filter(|&t| {
                                let p = pos[a];
                                let inside = if reverse == 1 { t >= p } else { t <= p };
                                inside && !(exclusive == 1 && t == p)
                            })
                            .map(|t| {
                                let mut q = pos;
                                q[a] = t;
                                xv[q[0] * 3 + q[1]]
                            })
                            .sum()
                    })
                    .collect();
                assert_eq!(vals(&y), want, "axis={axis} exclusive={exclusive} reverse={reverse}");
            }
        }
    }
    // Integers, 1-D.
    let y = run1("CumSum", vec![In::Feed(i64s(&[4], vec![1, 2, 3, 4])), In::Const(i64s(&[1], vec![0]))], vec![]);
    assert_eq!(y, i64s(&[4], vec![1, 3, 6, 10]));
}

#[test]
fn one_hot_places_on_values_and_wraps_negative_indices() {
    let idx = i64s(&[2, 2], vec![0, -1, 3, 5]);
    let values = f32s(&[2], vec![0.5, 2.0]);
    let depth = 4i64;
    // Index -1 means depth - 1; 5 is out of range, so all off.
    let hot = |i: i64| if i < 0 { i + depth } else { i };
    for axis in [-1i64, 0, 1] {
        let y = run1(
            "OneHot",
            vec![In::Feed(idx.clone()), In::Const(Array::scalar(depth)), In::Feed(values.clone())],
            vec![("axis", Attr::Int(axis))],
        );
        let a = axis.rem_euclid(3) as usize;
        let mut dims = vec![2i64, 2];
        dims.insert(a, depth);
        assert_eq!(y.dims.as_slice(), dims.as_slice());
        let iv = [0i64, -1, 3, 5];
        let want: Vec<f32> = (0..16)
            .map(|e| {
                let p =
                    [e / (dims[1] * dims[2]) as usize, e / dims[2] as usize % dims[1] as usize, e % dims[2] as usize];
                let mut rest: Vec<usize> = p.to_vec();
                let d = rest.remove(a) as i64;
                if hot(iv[rest[0] * 2 + rest[1]]) == d { 2.0 } else { 0.5 }
            })
            .collect();
        assert_eq!(vals(&y), want, "axis={axis}");
    }
}

fn softplus(v: f32) -> f32 {
    (1.0 + v.exp()).ln()
}

#[test]
fn mish_and_normalizations_follow_their_definitions() {
    let x = f32s(&[5], vec![-3.0, -0.5, 0.0, 0.7, 4.0]);
    let y = run1("Mish", vec![In::Feed(x.clone())], vec![]);
    let want: Vec<f32> = vals(&x).iter().map(|&v| v * softplus(v).tanh()).collect();
    assert_close(&vals(&y), &want, 1e-6);

    // LpNormalization, a zero row included (it stays 0).
    let x = f32s(&[3, 2], vec![3.0, -4.0, 0.0, 0.0, -1.0, 2.0]);
    let xv = vals(&x);
    for p in [1i64, 2] {
        for axis in [0i64, 1, -1] {
            let y = run1(
                "LpNormalization",
                vec![In::Feed(x.clone())],
                vec![("p", Attr::Int(p)), ("axis", Attr::Int(axis))],
            );
            let a = axis.rem_euclid(2) as usize;
            let want: Vec<f32> = (0..6)
                .map(|e| {
                    let (r, c) = (e / 2, e % 2);
                    let line: Vec<f32> = if a == 0 {
                        (0..3).map(|t| xv[t * 2 + c]).collect()
                    } else {
                        (0..2).map(|t| xv[r * 2 + t]).collect()
                    };
                    let norm = if p == 1 {
                        line.iter().map(|v| v.abs()).sum::<f32>()
                    } else {
                        line.iter().map(|v| v * v).sum::<f32>().sqrt()
                    };
                    if norm == 0.0 { 0.0 } else { xv[e] / norm }
                })
                .collect();
            assert_close(&vals(&y), &want, 1e-6);
        }
    }

    // MeanVarianceNormalization over the default axes [0, 2, 3]: per channel.
    let x = rand(&[2, 3, 2, 2], 11);
    let xv = vals(&x);
    let y = run1("MeanVarianceNormalization", vec![In::Feed(x.clone())], vec![]);
    let chan = |e: usize| e / 4 % 3;
    let mut want = vec![0.0; 24];
    for c in 0..3 {
        let members: Vec<usize> = (0..24).filter(|&e| chan(e) == c).collect();
        let mean = members.iter().map(|&e| xv[e]).sum::<f32>() / 8.0;
        let var = members.iter().map(|&e| (xv[e] - mean).powi(2)).sum::<f32>() / 8.0;
        for &e in &members {
            want[e] = (xv[e] - mean) / (var.sqrt() + 1e-9);
        }
    }
    assert_close(&vals(&y), &want, 1e-5);
    // Explicit axes: over the last one.
    let y = run1("MeanVarianceNormalization", vec![In::Feed(x.clone())], vec![("axes", Attr::Ints(vec![-1]))]);
    let mut want = vec![0.0; 24];
    for row in 0..12 {
        let line = &xv[row * 2..row * 2 + 2];
        let mean = (line[0] + line[1]) / 2.0;
        let std = (((line[0] - mean).powi(2) + (line[1] - mean).powi(2)) / 2.0).sqrt();
        for t in 0..2 {
            want[row * 2 + t] = (line[t] - mean) / (std + 1e-9);
        }
    }
    assert_close(&vals(&y), &want, 1e-5);

    // GroupNormalization: 4 channels in 2 groups, scale and bias per channel
    // (opset 21) or per group (opset 18).
    let x = rand(&[2, 4, 3], 12);
    let xv = vals(&x);
    let eps = 1e-5f32;
    let mut normed = [0.0; 24];
    for n in 0..2 {
        for g in 0..2 {
            let members: Vec<usize> = (0..24).filter(|&e| e / 12 == n && e / 3 % 4 / 2 == g).collect();
            let mean = members.iter().map(|&e| xv[e]).sum::<f32>() / 6.0;
            let var = members.iter().map(|&e| (xv[e] - mean).powi(2)).sum::<f32>() / 6.0;
            for &e in &members {
                normed[e] = (xv[e] - mean) / (var + eps).sqrt();
            }
        }
    }
    let scale = f32s(&[4], vec![1.0, 2.0, -1.0, 0.5]);
    let bias = f32s(&[4], vec![0.0, 1.0, 2.0, 3.0]);
    let y = run1(
        "GroupNormalization",
        vec![In::Feed(x.clone()), In::Feed(scale.clone()), In::Feed(bias.clone())],
        vec![("num_groups", Attr::Int(2))],
    );
    let (sv, bv) = (vals(&scale), vals(&bias));
    let want: Vec<f32> = (0..24).map(|e| normed[e] * sv[e / 3 % 4] + bv[e / 3 % 4]).collect();
    assert_close(&vals(&y), &want, 1e-5);
    let y = run1(
        "GroupNormalization",
        vec![In::Feed(x), In::Feed(f32s(&[2], vec![2.0, -1.0])), In::Feed(f32s(&[2], vec![0.5, 1.0]))],
        vec![("num_groups", Attr::Int(2))],
    );
    let want: Vec<f32> = (0..24).map(|e| normed[e] * [2.0, -1.0][e / 3 % 4 / 2] + [0.5, 1.0][e / 3 % 4 / 2]).collect();
    assert_close(&vals(&y), &want, 1e-5);
}

#[test]
fn gather_elements_and_gather_nd_index_with_wrapping() {
    let data = counting(&[3, 3]);
    let dv = vals(&data);
    // Indices [2, 3]: fewer rows than data; -1 is the last.
    let iv = vec![1i64, -1, 0, 2, 0, -3];
    let idx = i64s(&[2, 3], iv.clone());
    let wrap = |i: i64| if i < 0 { (i + 3) as usize } else { i as usize };
    for axis in [0i64, 1] {
        let y = run1(
            "GatherElements",
            vec![In::Feed(data.clone()), In::Feed(idx.clone())],
            vec![("axis", Attr::Int(axis))],
        );
        assert_eq!(y.dims.as_slice(), &[2, 3]);
        let want: Vec<f32> = (0..6)
            .map(|e| {
                let (i, j) = (e / 3, e % 3);
                if axis == 0 { dv[wrap(iv[e]) * 3 + j] } else { dv[i * 3 + wrap(iv[e])] }
            })
            .collect();
        assert_eq!(vals(&y), want, "axis={axis}");
    }

    // GatherND: data [2, 3, 4].
    let data = counting(&[2, 3, 4]);
    let dv = vals(&data);
    let at = |a: usize, b: usize, c: usize| dv[(a * 3 + b) * 4 + c];
    // Full index vectors pick elements; -1 wraps per dimension.
    let y = run1("GatherND", vec![In::Feed(data.clone()), In::Feed(i64s(&[2, 3], vec![1, 2, 3, 0, -1, -4]))], vec![]);
    assert_eq!(vals(&y), vec![at(1, 2, 3), at(0, 2, 0)]);
    // Partial index vectors pick slices.
    let y = run1("GatherND", vec![In::Feed(data.clone()), In::Feed(i64s(&[2, 1], vec![1, -2]))], vec![]);
    assert_eq!(y.dims.as_slice(), &[2, 3, 4]);
    let want: Vec<f32> =
        [1usize, 0].iter().flat_map(|&a| (0..12).map(move |r| (a, r))).map(|(a, r)| at(a, r / 4, r % 4)).collect();
    assert_eq!(vals(&y), want);
    // batch_dims=1: batch b picks data[b, i, j].
    let y = run1(
        "GatherND",
        vec![In::Feed(data), In::Feed(i64s(&[2, 2, 2], vec![0, 1, 2, 3, 1, -1, 0, 0]))],
        vec![("batch_dims", Attr::Int(1))],
    );
    assert_eq!(y.dims.as_slice(), &[2, 2]);
    assert_eq!(vals(&y), vec![at(0, 0, 1), at(0, 2, 3), at(1, 1, 3), at(1, 0, 0)]);
}

#[test]
fn scatter_elements_and_scatter_nd_write_or_combine() {
    let data = f32s(&[3, 3], vec![1.0; 9]);
    let iv = vec![1i64, 0, -1, 1, 2, 0];
    let idx = i64s(&[2, 3], iv.clone());
    let upd = f32s(&[2, 3], vec![2.0, 3.0, 4.0, 5.0, 6.0, 7.0]);
    let uv = vals(&upd);
    let wrap = |i: i64| if i < 0 { (i + 3) as usize } else { i as usize };
    for axis in [0i64, 1] {
        for red in ["none", "add", "mul", "max", "min"] {
            let y = run1(
                "ScatterElements",
                vec![In::Feed(data.clone()), In::Feed(idx.clone()), In::Feed(upd.clone())],
                vec![("axis", Attr::Int(axis)), ("reduction", Attr::String(red.into()))],
            );
            let mut want = vals(&data);
            for e in 0..6 {
                let (i, j) = (e / 3, e % 3);
                let t = if axis == 0 { wrap(iv[e]) * 3 + j } else { i * 3 + wrap(iv[e]) };
                let u = uv[e];
                want[t] = match red {
                    "none" => u,
                    "add" => want[t] + u,
                    "mul" => want[t] * u,
                    "max" => want[t].max(u),
                    _ => want[t].min(u),
                };
            }
            assert_eq!(vals(&y), want, "axis={axis} reduction={red}");
        }
    }
    // Repeated indices accumulate under add (axis 1: row 0 gets 2 + 3 at column 1).
    let y = run1(
        "ScatterElements",
        vec![In::Feed(data.clone()), In::Feed(i64s(&[1, 2], vec![1, -2])), In::Feed(f32s(&[1, 2], vec![2.0, 3.0]))],
        vec![("axis", Attr::Int(1)), ("reduction", Attr::String("add".into()))],
    );
    assert_eq!(vals(&y), vec![1.0, 6.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]);

    // ScatterND: rows of a [4, 3] matrix, then single elements.
    let data = counting(&[4, 3]);
    let rows = i64s(&[2, 1], vec![2, -4]);
    let upd = f32s(&[2, 3], vec![10.0, 11.0, 12.0, 20.0, 21.0, 22.0]);
    for red in ["none", "add", "mul", "max", "min"] {
        let y = run1(
            "ScatterND",
            vec![In::Feed(data.clone()), In::Feed(rows.clone()), In::Feed(upd.clone())],
            vec![("reduction", Attr::String(red.into()))],
        );
        let mut want = vals(&data);
        for (r, target) in [(0usize, 2usize), (1, 0)] {
            for c in 0..3 {
                let (t, u) = (target * 3 + c, vals(&upd)[r * 3 + c]);
                want[t] = match red {
                    "none" => u,
                    "add" => want[t] + u,
                    "mul" => want[t] * u,
                    "max" => want[t].max(u),
                    _ => want[t].min(u),
                };
            }
        }
        assert_eq!(vals(&y), want, "reduction={red}");
    }
    let y = run1(
        "ScatterND",
        vec![In::Feed(data), In::Feed(i64s(&[2, 2], vec![3, 2, 3, -1])), In::Feed(f32s(&[2], vec![1.0, 2.0]))],
        vec![("reduction", Attr::String("add".into()))],
    );
    let mut want = vals(&counting(&[4, 3]));
    want[11] += 3.0;
    assert_eq!(vals(&y), want);
}

fn s(v: &str) -> Attr {
    Attr::String(v.into())
}

/// `Resize` of `x` with constant `scales` or `sizes` (whichever is Some).
fn resize(x: Array, scales: Option<Vec<f32>>, sizes: Option<Vec<i64>>, attrs: Vec<(&str, Attr)>) -> Array {
    let c = |v: Option<In>| v.unwrap_or(In::Absent);
    let scales = scales.map(|v| In::Const(f32s(&[v.len() as i64], v)));
    let sizes = sizes.map(|v| In::Const(i64s(&[v.len() as i64], v)));
    run1("Resize", vec![In::Feed(x), In::Absent, c(scales), c(sizes)], attrs)
}

#[test]
fn resize_nearest_repeats_elements() {
    // NCHW, the default half_pixel / round_prefer_floor: each pixel becomes 2x2.
    let x = f32s(&[1, 1, 2, 2], vec![1.0, 2.0, 3.0, 4.0]);
    let y = resize(x, Some(vec![1.0, 1.0, 2.0, 2.0]), None, vec![]);
    assert_eq!(y.dims.as_slice(), &[1, 1, 4, 4]);
    assert_eq!(vals(&y), vec![1., 1., 2., 2., 1., 1., 2., 2., 3., 3., 4., 4., 3., 3., 4., 4.]);
    // Asymmetric / floor (Upsample's rule) on integers; downsampling by 2
    // takes every other element.
    let x = i64s(&[1, 5], vec![10, 20, 30, 40, 50]);
    let attrs = || vec![("coordinate_transformation_mode", s("asymmetric")), ("nearest_mode", s("floor"))];
    let y = run1("Resize", vec![In::Feed(x.clone()), In::Absent, In::Const(f32s(&[2], vec![1.0, 2.0]))], attrs());
    assert_eq!(y.values::<i64>().unwrap(), &[10, 10, 20, 20, 30, 30, 40, 40, 50, 50]);
    let y = run1("Resize", vec![In::Feed(x), In::Absent, In::Const(f32s(&[2], vec![1.0, 0.5]))], attrs());
    assert_eq!(y.values::<i64>().unwrap(), &[10, 30]);
}

#[test]
fn resize_nearest_modes_round_ties_their_way() {
    // align_corners from 3 to 5: sources 0, 0.5, 1, 1.5, 2.
    let x = f32s(&[3], vec![1.0, 2.0, 3.0]);
    for (mode, want) in [
        ("round_prefer_floor", [1.0, 1.0, 2.0, 2.0, 3.0]),
        ("round_prefer_ceil", [1.0, 2.0, 2.0, 3.0, 3.0]),
        ("floor", [1.0, 1.0, 2.0, 2.0, 3.0]),
        ("ceil", [1.0, 2.0, 2.0, 3.0, 3.0]),
    ] {
        let y = resize(
            x.clone(),
            None,
            Some(vec![5]),
            vec![("coordinate_transformation_mode", s("align_corners")), ("nearest_mode", s(mode))],
        );
        assert_eq!(vals(&y), want, "{mode}");
    }
}

#[test]
fn resize_linear_interpolates_between_neighbours() {
    // half_pixel from 2 to 4: sources -0.25, 0.25, 0.75, 1.25, the outer two
    // clamped to the edges.
    let y = resize(f32s(&[1, 2], vec![1.0, 2.0]), None, Some(vec![1, 4]), vec![("mode", s("linear"))]);
    assert_close(&vals(&y), &[1.0, 1.25, 1.75, 2.0], 1e-6);
    // align_corners keeps both ends: 2x2 to 3x3 on an NCHW image.
    let x = f32s(&[1, 1, 2, 2], vec![0.0, 2.0, 4.0, 6.0]);
    let y = resize(
        x,
        None,
        Some(vec![1, 1, 3, 3]),
        vec![("mode", s("linear")), ("coordinate_transformation_mode", s("align_corners"))],
    );
    assert_close(&vals(&y), &[0.0, 1.0, 2.0, 2.0, 3.0, 4.0, 4.0, 5.0, 6.0], 1e-6);
}

/// Keys' cubic kernel at distance `d`, in its textbook piecewise form.
fn keys(d: f64, a: f64) -> f64 {
    let d = d.abs();
    if d <= 1.0 {
        (a + 2.0) * d.powi(3) - (a + 3.0) * d * d + 1.0
    } else if d < 2.0 {
        a * d.powi(3) - 5.0 * a * d * d + 8.0 * a * d - 4.0 * a
    } else {
        0.0
    }
}

#[test]
fn resize_cubic_matches_keys_kernel() {
    let v = [0.0, 1.0, 4.0, 9.0];
    for exclude in [0, 1] {
        for a in [-0.75, -0.5] {
            let y = resize(
                f32s(&[4], v.iter().map(|&x| x as f32).collect()),
                Some(vec![2.0]),
                None,
                vec![
                    ("mode", s("cubic")),
                    ("coordinate_transformation_mode", s("asymmetric")),
                    ("cubic_coeff_a", Attr::Float(a as f32)),
                    ("exclude_outside", Attr::Int(exclude)),
                ],
            );
            let want: Vec<f32> = (0..8)
                .map(|j| {
                    let x = j as f64 / 2.0;
                    let taps = (-1..3).map(|k| x.floor() as i64 + k);
                    let inside = |i: i64| exclude == 0 || (0..4).contains(&i);
                    let norm: f64 = taps.clone().filter(|&i| inside(i)).map(|i| keys(x - i as f64, a)).sum();
                    let sum: f64 =
                        taps.filter(|&i| inside(i)).map(|i| keys(x - i as f64, a) * v[i.clamp(0, 3) as usize]).sum();
                    (sum / norm) as f32
                })
                .collect();
            assert_close(&vals(&y), &want, 1e-5);
        }
    }
}

#[test]
fn resize_crop_and_resize_extrapolates_outside_the_box() {
    // Axis 1 only; box [0.5, 1.5] of a length-4 row: sources 1.5, 3, 4.5.
    let x = f32s(&[2, 4], vec![0.0, 10.0, 20.0, 30.0, 1.0, 2.0, 3.0, 4.0]);
    let y = run1(
        "Resize",
        vec![In::Feed(x), In::Const(f32s(&[2], vec![0.5, 1.5])), In::Absent, In::Const(i64s(&[1], vec![3]))],
        vec![
            ("mode", s("linear")),
            ("coordinate_transformation_mode", s("tf_crop_and_resize")),
            ("extrapolation_value", Attr::Float(7.0)),
            ("axes", Attr::Ints(vec![-1])),
        ],
    );
    assert_eq!(y.dims.as_slice(), &[2, 3]);
    assert_close(&vals(&y), &[15.0, 30.0, 7.0, 2.5, 4.0, 7.0], 1e-6);
}

#[test]
fn resize_refuses_antialias_and_aspect_policies() {
    let x = f32s(&[1, 4], vec![0.0; 4]);
    for (k, v) in [("antialias", Attr::Int(1)), ("keep_aspect_ratio_policy", s("not_larger"))] {
        let mut n = node("Resize", 3, 1, vec![("mode", s("linear")), (k, v)]);
        n.inputs.truncate(3);
        let args = [Some(x.clone()), None, Some(f32s(&[2], vec![1.0, 0.5]))];
        let e = eval_node(&n, &args).unwrap_err().to_string();
        assert!(e.contains(k), "{e}");
    }
}

#[test]
fn resize_integers_round_half_to_even_and_saturate() {
    // align_corners from 2 to 5: 0, 0.5, 1, 1.5, 2.
    let x = Array::from_vec([2], vec![0u8, 2]);
    let attrs = vec![("mode", s("linear")), ("coordinate_transformation_mode", s("align_corners"))];
    let y = run1("Resize", vec![In::Feed(x), In::Absent, In::Absent, In::Const(i64s(&[1], vec![5]))], attrs);
    assert_eq!(y.values::<u8>().unwrap(), &[0, 0, 1, 2, 2]);
    // Cubic overshoots below 0 and above 255 next to the step: clamped.
    let x = Array::from_vec([4], vec![0u8, 0, 255, 255]);
    let attrs = vec![("mode", s("cubic")), ("coordinate_transformation_mode", s("asymmetric"))];
    let y = run1("Resize", vec![In::Feed(x), In::Absent, In::Const(f32s(&[1], vec![2.0]))], attrs);
    let a = -0.75;
    let exact: Vec<f64> = (0..8)
        .map(|j| {
            let x = j as f64 / 2.0;
            let v = [0.0, 0.0, 255.0, 255.0];
            (-1..3).map(|k| x.floor() as i64 + k).map(|i| keys(x - i as f64, a) * v[i.clamp(0, 3) as usize]).sum()
        })
        .collect();
    assert!(exact.iter().any(|&v| v < 0.0) && exact.iter().any(|&v| v > 255.0));
    let want: Vec<u8> = exact.iter().map(|v| v.round_ties_even().clamp(0.0, 255.0) as u8).collect();
    assert_eq!(y.values::<u8>().unwrap(), want.as_slice());
}

/// A `Loop` built with the Rust API: `acc = acc * 0.5 + x * i` for a trip
/// count fed at run time, reading `x` from the enclosing graph, with the
/// running value as a scan output; compiled, op by op on the interpreter,
/// and against the same loop in Rust.
#[test]
fn loops_run_as_while_with_a_trip_count_fed_at_run_time() {
    let mut body = Graph::new();
    let i = body.placeholder("i", DType::S64, vec![]).unwrap();
    let cond = body.placeholder("cond", DType::Pred, vec![]).unwrap();
    let acc = body.placeholder("acc", DType::F32, vec![Dim::Fixed(3)]).unwrap();
    let x = body.placeholder("x", DType::F32, vec![Dim::Fixed(3)]).unwrap();
    let fi = body.op("Cast", "fi", &[i], vec![("to", Attr::Int(1))]).unwrap();
    let xi = body.op("Mul", "xi", &[x, fi], vec![]).unwrap();
    let half = body.constant("half", Array::scalar(0.5f32)).unwrap();
    let decayed = body.op("Mul", "decayed", &[acc, half], vec![]).unwrap();
    let next = body.op("Add", "next", &[decayed, xi], vec![]).unwrap();
    let body = crate::graph::Subgraph {
        graph: std::sync::Arc::new(body),
        inputs: vec![i.node, cond.node, acc.node, x.node],
        outputs: vec![cond, next, next],
    };
    let mut g = Graph::new();
    let m = g.placeholder("m", DType::S64, vec![]).unwrap();
    let x = g.placeholder("x", DType::F32, vec![Dim::Fixed(3)]).unwrap();
    let a0 = g.constant("a0", f32s(&[3], vec![1.0, 0.0, -1.0])).unwrap();
    let attrs = vec![("body", Attr::Graph(body)), ("captured", Attr::Int(1))];
    let id = g.add_node(Node {
        name: "loop".into(),
        op: "Loop".into(),
        kind: NodeKind::Op,
        inputs: vec![Some(m), None, Some(a0), Some(x)],
        outputs: vec!["final".into(), "rows".into()],
        attrs: attrs.into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
        compile: None,
    });
    let id = id.unwrap();
    let xv = f32s(&[3], vec![1.0, 2.0, 4.0]);
    let mut compiled = Session::new(g.clone(), SessionOptions { backend: "cpu".into(), ..Default::default() }).unwrap();
    for trips in [0i64, 1, 7, 33] {
        let mut want = vec![1.0f32, 0.0, -1.0];
        let mut rows = Vec::new();
        for step in 0..trips {
            for (w, x) in want.iter_mut().zip(vals(&xv)) {
                *w = *w * 0.5 + x * step as f32;
            }
            rows.extend(&want);
        }
        let out = compiled.run(&[("m", Array::scalar(trips)), ("x", xv.clone())], &["final", "rows"]).unwrap();
        assert_close(&vals(&out[0]), &want, 1e-5);
        assert_eq!(out[1].dims.as_slice(), &[trips, 3]);
        assert_close(&vals(&out[1]), &rows, 1e-5);
        let node = g.node(id);
        let interpreted = eval_node(
            node,
            &[Some(Array::scalar(trips)), None, Some(f32s(&[3], vec![1.0, 0.0, -1.0])), Some(xv.clone())],
        )
        .unwrap();
        assert_close(&vals(&interpreted[0]), &want, 1e-5);
        assert_close(&vals(&interpreted[1]), &rows, 1e-5);
    }
    // A trip count computed inside the cluster is unknown while compiling:
    // a loop without scan outputs runs, one with them says why it cannot.
    let twice = g.op("Add", "twice", &[m, m], vec![]).unwrap();
    let mut inputs = g.node(id).inputs.clone();
    inputs[0] = Some(twice);
    let attrs = g.node(id).attrs.clone();
    g.add_node(Node {
        name: "loop2".into(),
        op: "Loop".into(),
        kind: NodeKind::Op,
        inputs,
        outputs: vec!["final2".into(), "rows2".into()],
        attrs,
        compile: None,
    })
    .unwrap();
    compiled = Session::new(g, SessionOptions { backend: "cpu".into(), ..Default::default() }).unwrap();
    let err = compiled.run(&[("m", Array::scalar(2i64)), ("x", xv.clone())], &["rows2"]).unwrap_err().to_string();
    assert!(err.contains("loop2") && err.contains("trip count M while compiling"), "{err}");
}

/// An `If` built with the Rust API: one branch squares `x`, the other gives
/// a scalar, broadcast to `x`'s shape when the condition is known at run
/// time only; a known condition lowers the branch taken.
#[test]
fn if_runs_the_branch_its_condition_chooses() {
    let mut then_g = Graph::new();
    let tx = then_g.placeholder("x", DType::F32, vec![Dim::Fixed(3)]).unwrap();
    let sq = then_g.op("Mul", "sq", &[tx, tx], vec![]).unwrap();
    let mut else_g = Graph::new();
    let ex = else_g.placeholder("x", DType::F32, vec![Dim::Fixed(3)]).unwrap();
    let seven = else_g.constant("seven", Array::scalar(7.0f32)).unwrap();
    let branch = |g: Graph, x: Value, out: Value| crate::graph::Subgraph {
        graph: std::sync::Arc::new(g),
        inputs: vec![x.node],
        outputs: vec![out],
    };
    let attrs: BTreeMap<String, Attr> = [
        ("then_branch", Attr::Graph(branch(then_g, tx, sq))),
        ("else_branch", Attr::Graph(branch(else_g, ex, seven))),
        ("captured", Attr::Int(1)),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    let mut g = Graph::new();
    let c = g.placeholder("c", DType::Pred, vec![]).unwrap();
    let x = g.placeholder("x", DType::F32, vec![Dim::Fixed(3)]).unwrap();
    let if_node = |name: &str, cond: Value| Node {
        name: name.into(),
        op: "If".into(),
        kind: NodeKind::Op,
        inputs: vec![Some(cond), Some(x)],
        outputs: vec![format!("{name}_y")],
        attrs: attrs.clone(),
        compile: None,
    };
    let id = g.add_node(if_node("branchy", c)).unwrap();
    let yes = g.constant("yes", Array::scalar(true)).unwrap();
    g.add_node(if_node("known", yes)).unwrap();
    let xv = f32s(&[3], vec![1.0, -2.0, 3.0]);
    let session = Session::new(g.clone(), SessionOptions { backend: "cpu".into(), ..Default::default() }).unwrap();
    for cond in [true, false] {
        let want = if cond { vec![1.0, 4.0, 9.0] } else { vec![7.0; 3] };
        let out = session.run(&[("c", Array::scalar(cond)), ("x", xv.clone())], &["branchy_y", "known_y"]).unwrap();
        assert_eq!(out[0].dims.as_slice(), &[3]);
        assert_close(&vals(&out[0]), &want, 0.0);
        assert_close(&vals(&out[1]), &[1.0, 4.0, 9.0], 0.0);
        // Op by op every input is known, the condition too: the branch taken
        // is lowered alone and its output keeps its own shape, as in ONNX.
        let interpreted = eval_node(g.node(id), &[Some(Array::scalar(cond)), Some(xv.clone())]).unwrap();
        assert_close(&vals(&interpreted[0]), if cond { &want } else { &want[..1] }, 0.0);
    }
}
