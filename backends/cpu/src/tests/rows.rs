//! Row statistics inside loop kernels (the softmax shape after row fusion: the
//! max and the sum computed once per row, hoisted out of the loop over the row)
//! and long float max/min reductions in partial lanes, against the interpreter.

use smelt_hlo::reducers::{ADD, MAX, MIN};

use super::*;

/// A softmax over the last axis of `dims` as one fusion, with a masked copy
/// (`select(m, -inf, x)`, the masked max goes through lanes), and a second output
/// scaled by the row minimum.
pub(super) fn row_softmax(dims: &[i64]) -> String {
    let r = dims.len();
    let s = |t: &str, d: &[i64]| format!("{t}[{}]", d.iter().map(i64::to_string).collect::<Vec<_>>().join(","));
    let full = s("f32", dims);
    let mask = s("pred", dims);
    let row = s("f32", &dims[..r - 1]);
    let keep: Vec<String> = (0..r - 1).map(|d| d.to_string()).collect();
    let keep = keep.join(",");
    format!(
        "HloModule m
{ADD}{MAX}{MIN}
soft {{
  x = {full} parameter(0)
  m = {mask} parameter(1)
  ninf = f32[] constant(-inf)
  pinf = f32[] constant(inf)
  zero = f32[] constant(0)
  n = {full} broadcast(ninf), dimensions={{}}
  xm = {full} select(m, n, x)
  rmax = {row} reduce(xm, ninf), dimensions={{{last}}}, to_apply=max
  bmax = {full} broadcast(rmax), dimensions={{{keep}}}
  d = {full} subtract(xm, bmax)
  e = {full} exponential(d)
  rsum = {row} reduce(e, zero), dimensions={{{last}}}, to_apply=add
  bsum = {full} broadcast(rsum), dimensions={{{keep}}}
  out = {full} divide(e, bsum)
  rmin = {row} reduce(x, pinf), dimensions={{{last}}}, to_apply=min
  bmin = {full} broadcast(rmin), dimensions={{{keep}}}
  scaled = {full} multiply(x, bmin)
  ROOT t = ({full}, {full}) tuple(out, scaled)
}}
ENTRY e {{
  x = {full} parameter(0)
  m = {mask} parameter(1)
  ROOT f = ({full}, {full}) fusion(x, m), kind=kLoop, calls=soft
}}
",
        last = r - 1
    )
}

#[test]
fn row_statistics_are_computed_once_per_row() {
    // Rows shorter and longer than the lanes of a max reduction, leading unit
    // dimensions, enough rows to run in parallel.
    for dims in [&[6, 33][..], &[4, 3, 200], &[1, 1, 5, 300], &[700, 150]] {
        let hlo = row_softmax(dims);
        let x = inputs(DType::F32, dims, 3);
        let m = inputs(DType::S32, dims, 4);
        let mask: Vec<f64> = (0..m.len()).map(|i| (get(&m, i) > 5.0) as i32 as f64).collect();
        // exp differs from the interpreter's by an ulp or so.
        let program = check_hlo(&hlo, &[x, array_of(DType::Pred, dims, &mask)], 1e-5);
        // The exp the sum computes per element is kept in a row buffer for
        // the division (unexpanded IR: one call of exp, in the sum's loop).
        let ir = super::emit(&program, &CompileOptions::default(), crate::Emit::LlvmIr).unwrap();
        let ir = String::from_utf8_lossy(&ir);
        assert!(ir.contains("%row = alloca"), "no row buffer in\n{ir}");
        assert_eq!(ir.matches("call float @smelt.math.exp.f32").count(), 1, "{ir}");
    }
}

#[test]
fn a_later_row_statistic_reads_what_an_earlier_one_kept() {
    // Softmax over tanh(x): the max keeps each tanh in a row buffer, the sum
    // reads it there (one tanh per element, not two), the division reads the
    // sum's exp.
    for (r, n) in [(6, 33), (700, 150)] {
        let full = format!("f32[{r},{n}]");
        let hlo = format!(
            "HloModule m
{ADD}{MAX}
soft {{
  x = {full} parameter(0)
  t = {full} tanh(x)
  ninf = f32[] constant(-inf)
  zero = f32[] constant(0)
  rmax = f32[{r}] reduce(t, ninf), dimensions={{1}}, to_apply=max
  bmax = {full} broadcast(rmax), dimensions={{0}}
  d = {full} subtract(t, bmax)
  e = {full} exponential(d)
  rsum = f32[{r}] reduce(e, zero), dimensions={{1}}, to_apply=add
  bsum = {full} broadcast(rsum), dimensions={{0}}
  ROOT out = {full} divide(e, bsum)
}}
ENTRY e {{
  x = {full} parameter(0)
  ROOT f = {full} fusion(x), kind=kLoop, calls=soft
}}
"
        );
        let program = check_hlo(&hlo, &[inputs(DType::F32, &[r, n], 5)], 1e-5);
        let ir = super::emit(&program, &CompileOptions::default(), crate::Emit::LlvmIr).unwrap();
        let ir = String::from_utf8_lossy(&ir);
        // The max's own copies only: its lanes form (rows of 128 or more)
        // has a tail loop besides the lanes'.
        let max_copies = if n >= 128 { 2 } else { 1 };
        assert_eq!(ir.matches("call float @smelt.math.tanh.f32").count(), max_copies, "{ir}");
        assert_eq!(ir.matches("call float @smelt.math.exp.f32").count(), 1, "{ir}");
    }
}

#[test]
fn long_max_and_min_reductions_are_exact_in_lanes() {
    // Reduce kernels (row order) and inline reductions over more elements than
    // the lanes hold: NaN, infinities and signed zeros come out as the
    // interpreter's, whatever the order the lanes take them in.
    let hlo = format!(
        "HloModule m
{ADD}{MAX}{MIN}
ENTRY e {{
  x = f32[9,517] parameter(0)
  y = f64[3,4,300] parameter(1)
  ninf = f32[] constant(-inf)
  pinf = f64[] constant(inf)
  a = f32[9] reduce(x, ninf), dimensions={{1}}, to_apply=max
  b = f64[3] reduce(y, pinf), dimensions={{1,2}}, to_apply=dmin
  ROOT t = (f32[9], f64[3]) tuple(a, b)
}}
dmin {{
  p = f64[] parameter(0)
  q = f64[] parameter(1)
  ROOT m = f64[] minimum(p, q)
}}
"
    );
    let x = inputs(DType::F32, &[9, 517], 11);
    let mut signed: Vec<f64> = (0..x.len()).map(|i| get(&x, i)).collect();
    // A row of zeros of both signs, one of negative values only, and one whose
    // maximum is its last element (in the lanes' tail).
    for k in 0..517 {
        signed[k] = if k % 2 == 0 { -0.0 } else { 0.0 };
        signed[517 + k] = -1.0 - k as f64 / 1000.0;
        signed[2 * 517 + k] = -1.0 - k as f64 / 1000.0;
    }
    signed[2 * 517 + 516] = 5.0;
    let y = inputs(DType::F64, &[3, 4, 300], 12);
    check_hlo(&hlo, &[array_of(DType::F32, &[9, 517], &signed), y], 0.0);
}

/// A loop whose body calls the math library is neither interleaved nor
/// unrolled: the sum of a row's exponentials holds one vector copy of exp
/// per vector width, as many vector FMAs per width as the plain elementwise
/// exp's main loop, where LLVM on its own copies a reduction's body to break
/// the sum's dependence chain (and its unroller copies a short loop's body).
#[test]
fn loops_around_math_calls_hold_one_copy_of_the_function() {
    let sum_of_exp = format!(
        "HloModule m
{ADD}
sumexp {{
  x = f32[64,256] parameter(0)
  e = f32[64,256] exponential(x)
  zero = f32[] constant(0)
  ROOT r = f32[64] reduce(e, zero), dimensions={{1}}, to_apply=add
}}
ENTRY e {{
  x = f32[64,256] parameter(0)
  ROOT f = f32[64] fusion(x), kind=kInput, calls=sumexp
}}
"
    );
    let exp = "HloModule m\nENTRY e {\n  x = f32[64,256] parameter(0)\n  ROOT e = f32[64,256] exponential(x)\n}\n";
    let x = inputs(DType::F32, &[64, 256], 5);
    // The most vector FMAs of one width (calls, not declarations).
    let vector_fmas = |hlo: &str| {
        let program = check_hlo(hlo, std::slice::from_ref(&x), 1e-5);
        let ir = super::emit(&program, &CompileOptions::default(), crate::Emit::OptimizedLlvmIr).unwrap();
        let ir = String::from_utf8_lossy(&ir).into_owned();
        let mut per_width: std::collections::BTreeMap<&str, usize> = Default::default();
        for line in ir.lines().filter(|l| l.contains("call ")) {
            if let Some(at) = line.find("@llvm.fma.v") {
                let width = line[at + 11..].split(|c: char| !c.is_ascii_alphanumeric()).next().unwrap_or("");
                *per_width.entry(width).or_default() += 1;
            }
        }
        (per_width.values().copied().max().unwrap_or(0), ir)
    };
    let (plain, plain_ir) = vector_fmas(exp);
    assert!(plain > 0, "the elementwise exp is not vectorized with FMAs:\n{plain_ir}");
    let (summed, ir) = vector_fmas(&sum_of_exp);
    assert!(summed > 0, "the sum of exponentials is not vectorized with FMAs:\n{ir}");
    assert!(
        summed <= plain,
        "the sum of exponentials holds {summed} vector FMAs of one width, the plain exp {plain}:\n{ir}"
    );
}

/// The vector variants of a function with a rare path (sine's and cosine's
/// huge arguments) that no loop called are gone before code generation: the
/// optimized module keeps no unused width, and huge arguments still take the
/// rare path in the vector loop and the scalar remainder alike.
#[test]
fn unused_vector_variants_are_not_compiled() {
    let hlo = "HloModule m\nENTRY e {\n  x = f32[7,37] parameter(0)\n  s = f32[7,37] sine(x)\n  \
               c = f32[7,37] cosine(s)\n  ROOT t = f32[7,37] add(s, x)\n}\n";
    let mut v: Vec<f64> = (0..7 * 37).map(|i| (i as f64 - 120.0) * 0.37).collect();
    for (k, huge) in [(0, 1e30), (9, -3.5e21), (36, 7.25e9), (100, 1e38), (258, -2.5e12)] {
        v[k] = huge;
    }
    let program = check_hlo(hlo, &[array_of(DType::F32, &[7, 37], &v)], 1e-6);
    let ir = super::emit(&program, &CompileOptions::default(), crate::Emit::OptimizedLlvmIr).unwrap();
    let ir = String::from_utf8_lossy(&ir);
    let defined: Vec<&str> = ir.lines().filter(|l| l.starts_with("define")).collect();
    let widths: std::collections::BTreeSet<&str> = defined
        .iter()
        .filter_map(|l| l.split('@').nth(1)?.split('(').next())
        .filter(|name| name.contains(".exact.v"))
        .collect();
    assert!(!defined.iter().any(|l| l.contains(".rare.v")), "a rare-path variant is left:\n{}", defined.join("\n"));
    assert!(widths.len() <= 2, "vector widths no loop uses are compiled: {widths:?}");
}
