//! The tile interpreter (`crate::tiles`): programs whose every kernel it
//! runs give the interpreter's results, as the compiled kernels do; rows
//! longer than a tile, partial chunks, reductions in rows, in columns and
//! point by point, float and pred values, and the automatic mode's limits.

use smelt_hlo::reducers::{ADD, MAX, MIN, MUL, OR};

use super::*;
use crate::tiles::{TileFn, TileMode, plan_program};

/// Lowers `hlo`, asserts that [`TileMode::All`] interprets every kernel a
/// step launches, and checks the interpreted program against the
/// interpreter (and, through [`run_with`], Cranelift and the evaluator),
/// in parallel and on one thread.
fn interpreted(hlo: &str, args: &[Array], rel: f64) -> Program {
    let m = smelt_hlo::parse_module(hlo).unwrap_or_else(|e| panic!("bad test HLO: {e}\n{hlo}"));
    let program = smelt_kernel::lower_module(&m).unwrap_or_else(|e| panic!("lowering failed: {e}\n{hlo}"));
    let plans = plan_program(&program, TileMode::All);
    for s in &program.steps {
        if let Step::Kernel { kernel, .. } = s {
            let k = &program.kernels[kernel.0 as usize];
            assert!(plans.contains_key(&kernel.0), "kernel {} is not interpreted:\n{k:?}", k.name);
        }
    }
    let want = interp(hlo, args);
    for parallel in [true, false] {
        let o = CompileOptions { tiles: TileMode::All, parallel, ..Default::default() };
        let got = run_with(&program, args, &o);
        assert_eq!(got.len(), want.len());
        for (k, (g, w)) in got.iter().zip(&want).enumerate() {
            assert_close(&format!("output {k} (parallel: {parallel})"), g, w, rel);
        }
    }
    program
}

#[test]
fn row_softmax_runs_interpreted() {
    // Rows shorter than a tile, longer (whole chunks and a partial one),
    // leading unit dimensions (the parallel dimension is the row's own).
    for dims in [&[6, 33][..], &[3, 2500], &[4, 3, 200], &[1, 1, 2100]] {
        let x = inputs(DType::F32, dims, 3);
        let m = inputs(DType::S32, dims, 4);
        let mask: Vec<f64> = (0..m.len()).map(|i| (get(&m, i) > 5.0) as i32 as f64).collect();
        // A masked softmax and the rows scaled by their minimum (`rows.rs`).
        let program = interpreted(&super::rows::row_softmax(dims), &[x, array_of(DType::Pred, dims, &mask)], 1e-5);
        // A row in one chunk is masked once, for the max; the sum and the
        // division read that tile. Longer rows mask in every pass.
        let plans = plan_program(&program, TileMode::All);
        let selects: usize = plans.values().map(|p| p.calls(TileFn::Select(DType::F32))).sum();
        let one_chunk = dims[dims.len() - 1] <= crate::tiles::TILE as i64;
        assert_eq!(selects, if one_chunk { 1 } else { 3 }, "{dims:?}");
    }
}

#[test]
fn slowdown_estimates_rank_the_interpreters_costs() {
    // A row in one chunk folds its values in one pass, longer rows combine
    // them chunk by chunk; additions and multiplications pay the
    // interpreter's tile traffic that math functions hide.
    let lower = |hlo: &str| smelt_kernel::lower_module(&smelt_hlo::parse_module(hlo).unwrap()).unwrap();
    let estimate = |program: &Program| {
        let plans = plan_program(program, TileMode::All);
        assert_eq!(plans.len(), 1);
        plans.values().map(|p| p.slowdown).sum::<f64>()
    };
    let sum_exp = |n: i64| {
        format!(
            "HloModule m\n{ADD}\nsumexp {{\n  x = f32[64,{n}] parameter(0)\n  e = f32[64,{n}] exponential(x)\n  \
             z = f32[] constant(0)\n  ROOT s = f32[64] reduce(e, z), dimensions={{1}}, to_apply=add\n}}\n\
             ENTRY e {{\n  x = f32[64,{n}] parameter(0)\n  ROOT f = f32[64] fusion(x), kind=kInput, calls=sumexp\n}}\n"
        )
    };
    let row = estimate(&lower(&sum_exp(512)));
    let long = estimate(&lower(&sum_exp(2100)));
    let ew = |op: &str| {
        format!("HloModule m\nENTRY e {{\n  x = f32[64,512] parameter(0)\n  ROOT t = f32[64,512] {op}\n}}\n")
    };
    let tanh = estimate(&lower(&ew("tanh(x)")));
    let mul = estimate(&lower(&ew("multiply(x, x)")));
    assert!(tanh < 1.1 && row < long && long < mul, "tanh {tanh}, rows {row} and {long}, multiply {mul}");
}

#[test]
fn reduce_kernels_run_interpreted_in_rows_and_columns() {
    // Sums and maxima over the innermost dimension (rows to a scalar), over
    // outer ones (tiles accumulated lane by lane, rows longer than a tile),
    // with an elementwise output of the same fusion (written straight into
    // its output, in columns and in rows), and an empty reduction.
    let hlo = format!(
        "HloModule m
{ADD}{MAX}
colsum {{
  x = f32[37,2100] parameter(0)
  e = f32[37,2100] exponential(x)
  zero = f32[] constant(0)
  s = f32[2100] reduce(e, zero), dimensions={{0}}, to_apply=add
  ROOT t = (f32[2100], f32[37,2100]) tuple(s, e)
}}
rowexp {{
  y = f64[4,50,1500] parameter(0)
  z = f64[] constant(0)
  e = f64[4,50,1500] exponential(y)
  s = f64[4,50] reduce(e, z), dimensions={{2}}, to_apply=dadd
  ROOT t = (f64[4,50], f64[4,50,1500]) tuple(s, e)
}}
ENTRY e {{
  x = f32[37,2100] parameter(0)
  y = f64[4,50,1500] parameter(1)
  z = f32[5,0] parameter(2)
  ninf = f32[] constant(-inf)
  dzero = f64[] constant(0)
  zero = f32[] constant(0)
  f = (f32[2100], f32[37,2100]) fusion(x), kind=kInput, calls=colsum
  a = f32[2100] get-tuple-element(f), index=0
  b = f32[37,2100] get-tuple-element(f), index=1
  rows = f32[37] reduce(x, ninf), dimensions={{1}}, to_apply=max
  mid = f64[4,1500] reduce(y, dzero), dimensions={{1}}, to_apply=dadd
  inner = f64[4,50] reduce(y, dzero), dimensions={{2}}, to_apply=dadd
  empty = f32[5] reduce(z, zero), dimensions={{1}}, to_apply=add
  g = (f64[4,50], f64[4,50,1500]) fusion(y), kind=kInput, calls=rowexp
  gs = f64[4,50] get-tuple-element(g), index=0
  ge = f64[4,50,1500] get-tuple-element(g), index=1
  ROOT t = (f32[2100], f32[37,2100], f32[37], f64[4,1500], f64[4,50], f32[5], f64[4,50], f64[4,50,1500]) tuple(a, b, rows, mid, inner, empty, gs, ge)
}}
dadd {{
  p = f64[] parameter(0)
  q = f64[] parameter(1)
  ROOT s = f64[] add(p, q)
}}
"
    );
    let args =
        [inputs(DType::F32, &[37, 2100], 7), inputs(DType::F64, &[4, 50, 1500], 8), array_of(DType::F32, &[5, 0], &[])];
    interpreted(&hlo, &args, 1e-5);
}

#[test]
fn reductions_apply_their_init_once() {
    // The fold pads a partial tile with the operation's identity, never with
    // the init value: inits that are not identities (a sum from 2.5, a max
    // from 0.25, ...) over rows of every fold size (10, 300, whole tiles and a
    // partial one), inline in a fusion and in reduce kernels, float and pred.
    let hlo = format!(
        "HloModule m
{ADD}{MAX}{MIN}{MUL}{OR}
scaled {{
  x = f32[5,300] parameter(0)
  two = f32[] constant(2.5)
  s = f32[5] reduce(x, two), dimensions={{1}}, to_apply=add
  b = f32[5,300] broadcast(s), dimensions={{0}}
  ROOT d = f32[5,300] divide(x, b)
}}
ENTRY e {{
  x = f32[5,300] parameter(0)
  y = f32[3,2100] parameter(1)
  p = pred[4,1200] parameter(2)
  z = f32[7,10] parameter(3)
  two = f32[] constant(2.5)
  quarter = f32[] constant(0.25)
  mquarter = f32[] constant(-0.25)
  half = f32[] constant(0.5)
  no = pred[] constant(false)
  d = f32[5,300] fusion(x), kind=kLoop, calls=scaled
  sums = f32[3] reduce(y, two), dimensions={{1}}, to_apply=add
  maxs = f32[3] reduce(y, quarter), dimensions={{1}}, to_apply=max
  mins = f32[5] reduce(x, mquarter), dimensions={{1}}, to_apply=min
  prods = f32[5] reduce(x, half), dimensions={{1}}, to_apply=mul
  cols = f32[2100] reduce(y, two), dimensions={{0}}, to_apply=add
  any = pred[4] reduce(p, no), dimensions={{1}}, to_apply=or
  short = f32[7] reduce(z, two), dimensions={{1}}, to_apply=add
  ROOT t = (f32[5,300], f32[3], f32[3], f32[5], f32[5], f32[2100], pred[4], f32[7]) tuple(d, sums, maxs, mins, prods, cols, any, short)
}}
"
    );
    // Finite values (`inputs` has NaNs and infinities, which would hide an
    // init applied more than once); products of values near 1 stay finite.
    let wave = |n: usize, scale: f64| -> Vec<f64> { (0..n).map(|i| ((i * 37 % 101) as f64 - 50.0) * scale).collect() };
    let near_one: Vec<f64> = wave(1500, 1e-4).iter().map(|v| 1.0 + v).collect();
    let flags: Vec<f64> = (0..4800).map(|i| (i >= 1200 && i % 7 == 3) as i32 as f64).collect();
    let args = [
        array_of(DType::F32, &[5, 300], &near_one),
        array_of(DType::F32, &[3, 2100], &wave(6300, 1e-2)),
        array_of(DType::Pred, &[4, 1200], &flags),
        array_of(DType::F32, &[7, 10], &wave(70, 1e-2)),
    ];
    interpreted(&hlo, &args, 1e-5);
}

#[test]
fn shifted_exponentials_run_in_one_pass() {
    // `exp(x - max)` is one library call (scalar max: rows; a tile of column
    // maxima: columns); a difference read again (log-softmax's `x - max`) is
    // not fused away.
    let hlo = format!(
        "HloModule m
{ADD}{MAX}
logsoftmax {{
  x = f32[6,700] parameter(0)
  ninf = f32[] constant(-inf)
  zero = f32[] constant(0)
  rmax = f32[6] reduce(x, ninf), dimensions={{1}}, to_apply=max
  rb = f32[6,700] broadcast(rmax), dimensions={{0}}
  d = f32[6,700] subtract(x, rb)
  e = f32[6,700] exponential(d)
  s = f32[6] reduce(e, zero), dimensions={{1}}, to_apply=add
  l = f32[6] log(s)
  lb = f32[6,700] broadcast(l), dimensions={{0}}
  ROOT logp = f32[6,700] subtract(d, lb)
}}
colsum {{
  x = f32[6,700] parameter(0)
  cmax = f32[700] parameter(1)
  zero = f32[] constant(0)
  cb = f32[6,700] broadcast(cmax), dimensions={{1}}
  cd = f32[6,700] subtract(x, cb)
  ce = f32[6,700] exponential(cd)
  ROOT cs = f32[700] reduce(ce, zero), dimensions={{0}}, to_apply=add
}}
ENTRY e {{
  x = f32[6,700] parameter(0)
  ninf = f32[] constant(-inf)
  logp = f32[6,700] fusion(x), kind=kLoop, calls=logsoftmax
  cmax = f32[700] reduce(x, ninf), dimensions={{0}}, to_apply=max
  cs = f32[700] fusion(x, cmax), kind=kInput, calls=colsum
  ROOT t = (f32[6,700], f32[700]) tuple(logp, cs)
}}
"
    );
    let program = interpreted(&hlo, &[inputs(DType::F32, &[6, 700], 15)], 1e-5);
    let fused: Vec<bool> = plan_program(&program, TileMode::All)
        .values()
        .flat_map(|p| {
            p.fns.iter().filter_map(|f| matches!(f, TileFn::ExpSub(..)).then_some(matches!(f, TileFn::ExpSub(_, true))))
        })
        .collect();
    assert!(fused.contains(&true) && fused.contains(&false), "{fused:?}");
}

#[test]
fn log_sum_exp_runs_point_by_point() {
    // A loop over rows whose every point reduces a row of its own (the
    // reductions depend on the loop index): values are scalars, the
    // reductions run in tiles.
    let hlo = format!(
        "HloModule m
{ADD}{MAX}
lse {{
  x = f32[6,1500] parameter(0)
  ninf = f32[] constant(-inf)
  zero = f32[] constant(0)
  mx = f32[6] reduce(x, ninf), dimensions={{1}}, to_apply=max
  b = f32[6,1500] broadcast(mx), dimensions={{0}}
  d = f32[6,1500] subtract(x, b)
  e = f32[6,1500] exponential(d)
  s = f32[6] reduce(e, zero), dimensions={{1}}, to_apply=add
  l = f32[6] log(s)
  ROOT r = f32[6] add(l, mx)
}}
ENTRY e {{
  x = f32[6,1500] parameter(0)
  ROOT f = f32[6] fusion(x), kind=kLoop, calls=lse
}}
"
    );
    let program = interpreted(&hlo, &[inputs(DType::F32, &[6, 1500], 9)], 1e-5);
    assert!(program.kernels.iter().any(|k| matches!(&k.body, KernelBody::Loop { space, .. } if space == &[6])));
}

#[test]
fn float_and_pred_operations_run_interpreted() {
    // Comparisons, selects, clamps, logic on pred, conversions between the
    // float types and from pred, the math library in f64, a flat loop.
    let hlo = "HloModule m
ENTRY e {
  x = f64[4,700] parameter(0)
  y = f64[4,700] parameter(1)
  lt = pred[4,700] compare(x, y), direction=LT
  ge = pred[4,700] compare(x, y), direction=GE
  both = pred[4,700] and(lt, ge)
  either = pred[4,700] or(lt, both)
  s = f64[4,700] select(either, x, y)
  lo = f64[] constant(0.95)
  hi = f64[] constant(1.02)
  c = f64[4,700] clamp(lo, s, hi)
  t = f64[4,700] tanh(c)
  f = f32[4,700] convert(t)
  p = f32[4,700] convert(either)
  l = f32[4,700] log(f)
  q = f32[4,700] add(l, p)
  ROOT r = (f32[4,700], pred[4,700], f64[4,700]) tuple(q, either, c)
}
";
    interpreted(hlo, &[inputs(DType::F64, &[4, 700], 10), inputs(DType::F64, &[4, 700], 11)], 1e-6);
}

#[test]
fn automatic_mode_interprets_small_or_math_bound_programs_in_long_rows() {
    let lower = |hlo: &str| {
        let m = smelt_hlo::parse_module(hlo).unwrap_or_else(|e| panic!("{e}"));
        smelt_kernel::lower_module(&m).unwrap_or_else(|e| panic!("{e}"))
    };
    let unary = |dims: &str| {
        format!("HloModule m\nENTRY e {{\n  x = f32[{dims}] parameter(0)\n  ROOT t = f32[{dims}] tanh(x)\n}}\n")
    };
    // Long rows, little work: interpreted.
    assert_eq!(plan_program(&lower(&unary("4,1000")), TileMode::Auto).len(), 1);
    // Rows of 16: compiled (all of them do it), though `All` would not.
    let short = lower(&super::rows::row_softmax(&[64, 16]));
    assert!(plan_program(&short, TileMode::Auto).is_empty());
    assert!(!plan_program(&short, TileMode::All).is_empty());
    // Much work: compiled, unless math functions dominate it (the
    // library's tanh runs about as fast as a compiled one).
    let cheap = "HloModule m\nENTRY e {\n  x = f32[4096,4096] parameter(0)\n  y = f32[4096,4096] multiply(x, x)\n  \
                 ROOT t = f32[4096,4096] add(y, x)\n}\n";
    assert!(plan_program(&lower(cheap), TileMode::Auto).is_empty());
    assert_eq!(plan_program(&lower(&unary("4096,4096")), TileMode::Auto).len(), 1);
    assert!(plan_program(&lower(&unary("4,1000")), TileMode::Off).is_empty());
}
