//! Scan kernels (cumulative reduce-windows) against the interpreter: forward
//! and reverse, along every axis, in row order (partial row blocks and step
//! tiles, many rows) and column order (partial column blocks), for sums,
//! products, maxima, a log-add-exp reducer, integers, half precision, pred, a
//! variadic running argmax, and fused producers.

use smelt_hlo::reducers::{ADD, LOGADDEXP, MUL};

use super::*;

/// Lowers `hlo`, checks it has `scans` scan kernels, runs it on the CPU and
/// compares every result with the interpreter (`rel` 0: bit for bit).
fn check_scans(hlo: &str, args: &[Array], scans: usize, rel: f64) {
    let program = check_hlo(hlo, args, rel);
    let found = program.kernels.iter().filter(|k| matches!(k.body, KernelBody::Scan { .. })).count();
    assert_eq!(found, scans, "scan kernels in\n{program}");
}

fn reducer(name: &str, t: &str, op: &str) -> String {
    format!("{name} {{\n  x = {t}[] parameter(0)\n  y = {t}[] parameter(1)\n  ROOT r = {t}[] {op}(x, y)\n}}\n")
}

/// The window attribute of a scan along `axis` of `dims`.
fn window(dims: &[i64], axis: usize, reverse: bool) -> String {
    let size: Vec<String> = dims.iter().enumerate().map(|(d, &n)| if d == axis { n } else { 1 }.to_string()).collect();
    let pad: Vec<String> = dims
        .iter()
        .enumerate()
        .map(|(d, &n)| match (d == axis, reverse) {
            (false, _) => "0_0".to_string(),
            (true, false) => format!("{}_0", n - 1),
            (true, true) => format!("0_{}", n - 1),
        })
        .collect();
    format!("window={{size={} pad={}}}", size.join("x"), pad.join("x"))
}

fn shape(t: &str, dims: &[i64]) -> String {
    let d: Vec<String> = dims.iter().map(i64::to_string).collect();
    format!("{t}[{}]", d.join(","))
}

/// One scan of `x` with reducer `op` on `t` from `init`.
fn one_scan(t: &str, dims: &[i64], axis: usize, reverse: bool, op: &str, init: &str) -> String {
    let s = shape(t, dims);
    format!(
        "HloModule m\n{}ENTRY e {{\n  x = {s} parameter(0)\n  i = {t}[] constant({init})\n  ROOT r = {s} reduce-window(x, i), {}, to_apply=f\n}}\n",
        reducer("f", t, op),
        window(dims, axis, reverse)
    )
}

#[test]
fn forward_scans_along_every_axis_match_bit_for_bit() {
    // Row order with partial row blocks and step tiles, row order with many rows,
    // column order with one and several outer indices and a partial column block.
    let cases: [(&[i64], usize); 6] =
        [(&[37, 45], 1), (&[600, 35], 1), (&[45, 37], 0), (&[4, 9, 5], 1), (&[3, 7, 600], 1), (&[2, 3, 70], 2)];
    for (dims, axis) in cases {
        for (t, op, init) in [
            ("f32", "add", "0"),
            ("f32", "multiply", "1"),
            ("f32", "maximum", "-inf"),
            ("s32", "add", "0"),
            ("u8", "multiply", "1"),
            ("f64", "add", "0"),
            ("f16", "add", "0"),
            ("bf16", "minimum", "inf"),
        ] {
            let dt = dtype(t);
            let hlo = one_scan(t, dims, axis, false, op, init);
            check_scans(&hlo, &[inputs(dt, dims, dims.iter().sum::<i64>() as u64)], 1, 0.0);
        }
    }
}

fn dtype(t: &str) -> DType {
    match t {
        "f32" => DType::F32,
        "f64" => DType::F64,
        "f16" => DType::F16,
        "bf16" => DType::Bf16,
        "s32" => DType::S32,
        "u8" => DType::U8,
        "pred" => DType::Pred,
        _ => panic!("no dtype {t}"),
    }
}

#[test]
fn reverse_scans_match_where_the_order_does_not_matter() {
    // Reverse scans fold from the end; for integers, max and or every order
    // gives the same bits, and float sums of small integers are exact.
    for (dims, axis) in [(&[37, 45][..], 1), (&[600, 35], 1), (&[45, 37], 0), (&[3, 7, 600], 1)] {
        for (t, op, init) in
            [("s32", "add", "0"), ("f32", "maximum", "-inf"), ("pred", "or", "false"), ("s32", "minimum", "2147483647")]
        {
            let hlo = one_scan(t, dims, axis, true, op, init);
            check_scans(&hlo, &[inputs(dtype(t), dims, 7)], 1, 0.0);
        }
        let ints = inputs(DType::S32, dims, 11);
        let floats: Vec<f64> = (0..ints.len()).map(|i| get(&ints, i)).collect();
        let hlo = one_scan("f32", dims, axis, true, "add", "0");
        check_scans(&hlo, &[array_of(DType::F32, dims, &floats)], 1, 0.0);
    }
}

#[test]
fn log_add_exp_and_variadic_scans() {
    // cumlogsumexp: the CPU's exp and log1p differ from the interpreter's by an
    // ulp or so, which accumulates along the axis.
    let lse = [
        "HloModule m\n",
        LOGADDEXP,
        "ENTRY e {
  x = f32[70,90] parameter(0)
  ninf = f32[] constant(-inf)
  a = f32[70,90] reduce-window(x, ninf), window={size=1x90 pad=0_0x89_0}, to_apply=logaddexp
  b = f32[70,90] reduce-window(x, ninf), window={size=70x1 pad=69_0x0_0}, to_apply=logaddexp
  ROOT r = (f32[70,90], f32[70,90]) tuple(a, b)
}
",
    ]
    .concat();
    check_scans(&lse, &[inputs(DType::F32, &[70, 90], 3)], 2, 1e-5);
    // A running argmax along each axis: value and index advance together.
    let argmax = "HloModule m
argmax {
  v0 = f32[] parameter(0)
  i0 = s32[] parameter(1)
  v1 = f32[] parameter(2)
  i1 = s32[] parameter(3)
  ge = pred[] compare(v0, v1), direction=GE
  v = f32[] select(ge, v0, v1)
  i = s32[] select(ge, i0, i1)
  ROOT r = (f32[], s32[]) tuple(v, i)
}
ENTRY e {
  x = f32[40,50] parameter(0)
  ix = s32[40,50] iota(), iota_dimension=1
  iy = s32[40,50] iota(), iota_dimension=0
  ninf = f32[] constant(-inf)
  m1 = s32[] constant(-1)
  a = (f32[40,50], s32[40,50]) reduce-window(x, ix, ninf, m1), window={size=1x50 pad=0_0x49_0}, to_apply=argmax
  b = (f32[40,50], s32[40,50]) reduce-window(x, iy, ninf, m1), window={size=40x1 pad=39_0x0_0}, to_apply=argmax
  ROOT r = ((f32[40,50], s32[40,50]), (f32[40,50], s32[40,50])) tuple(a, b)
}
";
    check_scans(argmax, &[inputs(DType::F32, &[40, 50], 5)], 2, 0.0);
}

#[test]
fn fused_producers_compute_inside_the_scan() {
    // cumprod(1 + x / 20) and cumsum(exp(x)) as input fusions.
    let hlo = [
        "HloModule m\n",
        ADD,
        MUL,
        "prod {
  p = f32[33,130] parameter(0)
  twenty = f32[] constant(20)
  t = f32[33,130] broadcast(twenty), dimensions={}
  d = f32[33,130] divide(p, t)
  one = f32[] constant(1)
  o = f32[33,130] broadcast(one), dimensions={}
  g = f32[33,130] add(o, d)
  ROOT c = f32[33,130] reduce-window(g, one), window={size=1x130 pad=0_0x129_0}, to_apply=mul
}
sum {
  p = f32[33,130] parameter(0)
  e = f32[33,130] exponential(p)
  z = f32[] constant(0)
  ROOT c = f32[33,130] reduce-window(e, z), window={size=33x1 pad=32_0x0_0}, to_apply=add
}
ENTRY e {
  x = f32[33,130] parameter(0)
  a = f32[33,130] fusion(x), kind=kInput, calls=prod
  b = f32[33,130] fusion(x), kind=kInput, calls=sum
  ROOT r = (f32[33,130], f32[33,130]) tuple(a, b)
}
",
    ]
    .concat();
    let x = inputs(DType::F32, &[33, 130], 9);
    let finite: Vec<f64> = (0..x.len()).map(|i| if get(&x, i).is_finite() { get(&x, i) } else { 1.0 }).collect();
    check_scans(&hlo, &[array_of(DType::F32, &[33, 130], &finite)], 2, 1e-5);
}
