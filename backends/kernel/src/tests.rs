//! Lowering tests, one small HLO module per op kind: each is lowered as written
//! (every instruction its own kernel) and after the default pipeline (fused
//! kernels, library steps with epilogues), run by the evaluator on inputs full of
//! edge values, and compared bit for bit (any NaN matching any NaN) with the
//! reference interpreter. A few tests pin down the shape of the lowered program
//! (kernel bodies, patterns, copies) and the errors for what cannot be lowered.

use smelt_hlo::reducers::{ADD, LOGADDEXP, LT, MAX, MUL, OR};
use smelt_hlo::{Array, Literal, Module, parse_module};
use smelt_passes::{Options, PassContext};

use crate::ir::{FnPattern, KernelBody, Node, Program, Step};
use crate::{LowerError, eval, lower_module};

fn module(text: &str) -> Module {
    parse_module(text).unwrap_or_else(|e| panic!("{}", e.render("test")))
}

fn optimized(text: &str) -> Module {
    let mut m = module(text);
    let mut cx = PassContext::new(Options::default());
    smelt_passes::default_pipeline(&Options::default()).run_on(&mut m, &mut cx).unwrap();
    m
}

/// Edge-heavy arguments for the entry parameters (tuple parameters get tuples).
fn arguments(m: &Module, seed: u64) -> Vec<Literal> {
    smelt_hlo::random::SplitMix::new(seed).edge_args(&m.entry().param_shapes())
}

/// Equal bit for bit, except that any NaN equals any NaN.
fn same(got: &Array, want: &Array) -> Result<(), String> {
    if got.dims != want.dims || got.dtype() != want.dtype() {
        return Err(format!("got {}, want {}", got.shape(), want.shape()));
    }
    let (g, w) = (got.data.to_le_bytes(), want.data.to_le_bytes());
    let size = got.dtype().byte_size();
    for i in 0..got.len() {
        let (a, b) = (&g[i * size..(i + 1) * size], &w[i * size..(i + 1) * size]);
        let nan = got.dtype().is_float() && got.data.get_f64(i).is_nan() && want.data.get_f64(i).is_nan();
        if a != b && !nan {
            return Err(format!("element {i}: got {}, want {}", got.data.get_f64(i), want.data.get_f64(i)));
        }
    }
    Ok(())
}

/// Lowers `m`, runs it and the interpreter on `args`, and compares every result.
fn agree(m: &Module, args: &[Literal]) -> Result<Program, String> {
    let want = smelt_interp::evaluate(m, args).map_err(|e| format!("interpreter: {e}"))?.into_leaves();
    let program = lower_module(m).map_err(|e| format!("lowering: {e}"))?;
    let flat: Vec<Array> = args.iter().cloned().flat_map(Literal::into_leaves).collect();
    let got = eval::run(&program, &flat).map_err(|e| format!("evaluation: {e}"))?;
    if got.len() != want.len() {
        return Err(format!("{} results, want {}", got.len(), want.len()));
    }
    for (k, (g, w)) in got.iter().zip(&want).enumerate() {
        same(g, w).map_err(|e| format!("result {k}: {e}"))?;
    }
    Ok(program)
}

/// Checks the module as written and after the default pipeline, on three sets
/// of inputs; returns the optimized program.
fn check(text: &str) -> Program {
    let raw = module(text);
    let opt = optimized(text);
    let mut program = None;
    for seed in 1..=3 {
        agree(&raw, &arguments(&raw, seed)).unwrap_or_else(|e| panic!("as written, seed {seed}: {e}"));
        let p = agree(&opt, &arguments(&opt, seed))
            .unwrap_or_else(|e| panic!("optimized, seed {seed}: {e}\n{}", smelt_hlo::print_module(&opt)));
        program = Some(p);
    }
    program.unwrap_or_else(|| panic!("no run"))
}

/// Like [`check`], for modules only the optimized form of which lowers (dots
/// that need the canonicalizer).
fn check_optimized(text: &str) -> Program {
    let opt = optimized(text);
    let mut program = None;
    for seed in 1..=3 {
        let p = agree(&opt, &arguments(&opt, seed))
            .unwrap_or_else(|e| panic!("optimized, seed {seed}: {e}\n{}", smelt_hlo::print_module(&opt)));
        program = Some(p);
    }
    program.unwrap_or_else(|| panic!("no run"))
}

fn kernels(p: &Program) -> impl Iterator<Item = &KernelBody> {
    p.kernels.iter().map(|k| &k.body)
}

#[test]
fn float_elementwise() {
    let unary = [
        "abs",
        "ceil",
        "floor",
        "cosine",
        "sine",
        "tan",
        "tanh",
        "exponential",
        "exponential-minus-one",
        "log",
        "log-plus-one",
        "logistic",
        "negate",
        "rsqrt",
        "sqrt",
        "cbrt",
        "sign",
        "round-nearest-afz",
        "round-nearest-even",
        "erf",
    ];
    let binary = ["add", "subtract", "multiply", "divide", "remainder", "maximum", "minimum", "power", "atan2"];
    for t in ["f32", "f16", "bf16", "f64"] {
        let mut body = format!("  x = {t}[3,5] parameter(0)\n  y = {t}[3,5] parameter(1)\n");
        let mut outs = Vec::new();
        for (i, op) in unary.iter().enumerate() {
            body += &format!("  u{i} = {t}[3,5] {op}(x)\n");
            outs.push(format!("u{i}"));
        }
        for (i, op) in binary.iter().enumerate() {
            body += &format!("  b{i} = {t}[3,5] {op}(x, y)\n");
            outs.push(format!("b{i}"));
        }
        body += "  f = pred[3,5] is-finite(x)\n";
        outs.push("f".into());
        let shapes: Vec<String> =
            outs.iter().map(|o| if o == "f" { "pred[3,5]".to_string() } else { format!("{t}[3,5]") }).collect();
        let text = format!(
            "HloModule m\nENTRY e {{\n{body}  ROOT r = ({}) tuple({})\n}}\n",
            shapes.join(", "),
            outs.join(", ")
        );
        check(&text);
    }
}

#[test]
fn integer_and_pred_elementwise() {
    let binary = [
        "add",
        "subtract",
        "multiply",
        "divide",
        "remainder",
        "maximum",
        "minimum",
        "and",
        "or",
        "xor",
        "shift-left",
        "shift-right-arithmetic",
        "shift-right-logical",
        "power",
    ];
    let unary = ["not", "negate", "abs", "popcnt", "count-leading-zeros", "sign"];
    for t in ["s32", "u8", "s64", "u64", "s8", "u32"] {
        let mut body = format!("  x = {t}[4,3] parameter(0)\n  y = {t}[4,3] parameter(1)\n");
        let mut outs = Vec::new();
        for (i, op) in binary.iter().enumerate() {
            body += &format!("  b{i} = {t}[4,3] {op}(x, y)\n");
            outs.push((format!("b{i}"), t.to_string()));
        }
        for (i, op) in unary.iter().enumerate() {
            if t.starts_with('u') && matches!(*op, "abs" | "sign") {
                continue;
            }
            body += &format!("  u{i} = {t}[4,3] {op}(x)\n");
            outs.push((format!("u{i}"), t.to_string()));
        }
        for (i, (dir, ty)) in [("LT", ""), ("GE", ""), ("NE", ""), ("GT", "")].iter().enumerate() {
            body += &format!("  c{i} = pred[4,3] compare(x, y), direction={dir}{ty}\n");
            outs.push((format!("c{i}"), "pred".into()));
        }
        let shapes: Vec<String> = outs.iter().map(|(_, t)| format!("{t}[4,3]")).collect();
        let names: Vec<String> = outs.iter().map(|(n, _)| n.clone()).collect();
        let text = format!(
            "HloModule m\nENTRY e {{\n{body}  ROOT r = ({}) tuple({})\n}}\n",
            shapes.join(", "),
            names.join(", ")
        );
        check(&text);
    }
    check(
        r#"HloModule m
ENTRY e {
  p = pred[6] parameter(0)
  q = pred[6] parameter(1)
  a = pred[6] and(p, q)
  o = pred[6] or(p, q)
  x = pred[6] xor(a, o)
  n = pred[6] not(x)
  c = pred[6] compare(n, p), direction=LT
  s = pred[6] add(c, q)
  m = pred[6] multiply(s, p)
  ROOT r = (pred[6], pred[6]) tuple(m, c)
}
"#,
    );
}

#[test]
fn compare_select_clamp_with_scalar_operands() {
    check(
        r#"HloModule m
ENTRY e {
  x = f32[8] parameter(0)
  y = f32[8] parameter(1)
  lo = f32[] parameter(2)
  hi = f32[] parameter(3)
  c = f32[8] clamp(lo, x, hi)
  t = pred[8] compare(x, y), direction=LT, type=TOTALORDER
  u = f32[8] select(t, c, y)
  i = s32[8] parameter(4)
  k = s32[8] clamp(i, i, i)
  ROOT r = (f32[8], s32[8]) tuple(u, k)
}
"#,
    );
}

#[test]
fn conversions_between_every_kind_of_type() {
    let pairs = [
        ("f32", "s32"),
        ("f32", "u8"),
        ("f32", "pred"),
        ("f32", "f16"),
        ("f32", "bf16"),
        ("f32", "f64"),
        ("f64", "f32"),
        ("s32", "f32"),
        ("s32", "u8"),
        ("s32", "pred"),
        ("pred", "f32"),
        ("u64", "s8"),
        ("s64", "f16"),
        ("bf16", "s16"),
        ("u32", "f64"),
        ("f16", "u64"),
    ];
    for (from, to) in pairs {
        check(&format!(
            "HloModule m\nENTRY e {{\n  x = {from}[2,7] parameter(0)\n  ROOT c = {to}[2,7] convert(x)\n}}\n"
        ));
    }
}

#[test]
fn bitcast_convert_same_and_changing_width() {
    let cases = [
        ("f32[6]", "s32[6]"),
        ("f16[6]", "u16[6]"),
        ("f32[6]", "u8[6,4]"),
        ("u8[6,4]", "f32[6]"),
        ("u64[3]", "u32[3,2]"),
        ("s32[3,2]", "f64[3]"),
        ("bf16[2,3]", "s8[2,3,2]"),
        ("pred[5]", "u8[5]"),
    ];
    for (from, to) in cases {
        check(&format!("HloModule m\nENTRY e {{\n  x = {from} parameter(0)\n  ROOT c = {to} bitcast-convert(x)\n}}\n"));
    }
}

#[test]
fn reduce_precision_like_the_interpreter() {
    for (t, e, m) in [("f32", 8, 7), ("f32", 5, 10), ("f32", 5, 0), ("f64", 8, 23), ("bf16", 5, 3), ("f16", 4, 2)] {
        check(&format!(
            "HloModule m\nENTRY e {{\n  x = {t}[9] parameter(0)\n  ROOT r = {t}[9] reduce-precision(x), exponent_bits={e}, mantissa_bits={m}\n}}\n"
        ));
    }
}

#[test]
fn data_movement() {
    check(
        r#"HloModule m
ENTRY e {
  x = f32[4,6] parameter(0)
  v = f32[6] parameter(1)
  b = f32[3,4,6] broadcast(x), dimensions={1,2}
  bv = f32[4,6] broadcast(v), dimensions={1}
  r = f32[8,3] reshape(x)
  r2 = f32[2,2,3,2] reshape(x)
  t = f32[6,4] transpose(x), dimensions={1,0}
  t3 = f32[6,3,4] transpose(b), dimensions={2,0,1}
  s = f32[2,2] slice(x), slice={[1:4:2], [0:6:3]}
  rv = f32[4,6] reverse(x), dimensions={0,1}
  i1 = s32[4,6] iota(), iota_dimension=1
  i2 = f32[3,5] iota(), iota_dimension=0
  i3 = u8[300] iota(), iota_dimension=0
  z = f32[4,0] parameter(2)
  c = f32[4,13] concatenate(x, z, bv, s2), dimensions={1}
  s2 = f32[4,1] slice(x), slice={[0:4], [5:6]}
  a = f32[4,6] add(rv, bv)
  ROOT o = (f32[3,4,6], f32[8,3], f32[2,2,3,2], f32[6,3,4], f32[2,2], s32[4,6], f32[3,5], u8[300], f32[4,13], f32[4,6], f32[6,4]) tuple(b, r, r2, t3, s, i1, i2, i3, c, a, t)
}
"#,
    );
}

#[test]
fn pad_with_negative_edges_and_interior() {
    check(
        r#"HloModule m
ENTRY e {
  x = f32[3,4] parameter(0)
  v = f32[] parameter(1)
  a = f32[6,3] pad(x, v), padding=-1_2_1x1_-2_0
  b = f32[3,9] pad(x, v), padding=0_0x2_0_1
  e = f32[0,2] parameter(2)
  c = f32[2,5] pad(e, v), padding=1_1x1_2
  n = f32[3,9] negate(b)
  ROOT r = (f32[6,3], f32[3,9], f32[2,5]) tuple(a, n, c)
}
"#,
    );
}

#[test]
fn dynamic_slices_clamp_their_starts() {
    check(
        r#"HloModule m
ENTRY e {
  x = f32[8,6] parameter(0)
  i = s32[] parameter(1)
  j = s32[] parameter(2)
  u = u64[] parameter(3)
  d = f32[3,2] dynamic-slice(x, i, j), dynamic_slice_sizes={3,2}
  k = u64[] convert(j)
  d2 = f32[8,1] dynamic-slice(x, u, k), dynamic_slice_sizes={8,1}
  n = f32[3,2] negate(d)
  ROOT r = (f32[3,2], f32[8,1]) tuple(n, d2)
}
"#,
    );
}

#[test]
fn dynamic_update_slice_in_place_and_elemental() {
    let program = check(
        r#"HloModule m
ENTRY e {
  x = f32[8,6] parameter(0)
  up = f32[3,2] parameter(1)
  i = s32[] parameter(2)
  j = s32[] parameter(3)
  n = f32[3,2] negate(up)
  d = f32[8,6] dynamic-update-slice(x, n, i, j)
  e = f32[8,6] exponential(x)
  d2 = f32[8,6] dynamic-update-slice(e, up, j, i)
  ROOT r = (f32[8,6], f32[8,6]) tuple(d, d2)
}
"#,
    );
    assert!(kernels(&program).any(|k| matches!(k, KernelBody::UpdateSlice { .. })));
}

#[test]
fn gathers_with_clamped_starts_and_batching() {
    check(
        r#"HloModule m
ENTRY e {
  x = f32[5,4] parameter(0)
  i = s32[6,1] parameter(1)
  g = f32[6,4] gather(x, i), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,4}
  j = s32[5,3] parameter(2)
  g2 = f32[5,3] gather(x, j), offset_dims={}, collapsed_slice_dims={1}, start_index_map={1}, operand_batching_dims={0}, start_indices_batching_dims={0}, index_vector_dim=2, slice_sizes={1,1}
  k = u32[3,2] parameter(3)
  g3 = f32[3,2,3] gather(x, k), offset_dims={1,2}, collapsed_slice_dims={}, start_index_map={0,1}, index_vector_dim=1, slice_sizes={2,3}
  ROOT r = (f32[6,4], f32[5,3], f32[3,2,3]) tuple(g, g2, g3)
}
"#,
    );
}

#[test]
fn scatters_skip_windows_that_do_not_fit() {
    let program = check(&format!(
        r#"HloModule m
{ADD}{MAX}
ENTRY e {{
  x = f32[6,4] parameter(0)
  i = s32[5,1] parameter(1)
  u = f32[5,4] parameter(2)
  s = f32[6,4] scatter(x, i, u), update_window_dims={{1}}, inserted_window_dims={{0}}, scatter_dims_to_operand_dims={{0}}, index_vector_dim=1, to_apply=add
  j = s32[3,2] parameter(3)
  v = f32[3] parameter(4)
  s2 = f32[6,4] scatter(x, j, v), update_window_dims={{}}, inserted_window_dims={{0,1}}, scatter_dims_to_operand_dims={{0,1}}, index_vector_dim=1, to_apply=max
  k = s32[2] parameter(5)
  w = f32[2,3,2] parameter(6)
  s3 = f32[6,4] scatter(x, k, w), update_window_dims={{1,2}}, inserted_window_dims={{}}, scatter_dims_to_operand_dims={{1}}, index_vector_dim=1, to_apply=add
  ROOT r = (f32[6,4], f32[6,4], f32[6,4]) tuple(s, s2, s3)
}}
"#
    ));
    assert!(kernels(&program).any(|k| matches!(k, KernelBody::Scatter { .. })));
}

#[test]
fn reductions_become_reduce_kernels_or_inline_reductions() {
    let text = format!(
        r#"HloModule m
{ADD}{MAX}
argmax {{
  a = f32[] parameter(0)
  i = s32[] parameter(1)
  b = f32[] parameter(2)
  j = s32[] parameter(3)
  gt = pred[] compare(a, b), direction=GT
  ne = pred[] compare(a, a), direction=NE
  keep = pred[] or(gt, ne)
  v = f32[] select(keep, a, b)
  eq = pred[] compare(a, b), direction=EQ
  lt = pred[] compare(i, j), direction=LT
  tie = pred[] and(eq, lt)
  first = pred[] or(keep, tie)
  k = s32[] select(first, i, j)
  ROOT t = (f32[], s32[]) tuple(v, k)
}}
{OR}ENTRY e {{
  x = f32[4,5,6] parameter(0)
  z = f32[] constant(0)
  ninf = f32[] constant(-inf)
  rows = f32[4] reduce(x, z), dimensions={{1,2}}, to_apply=add
  mid = f32[4,6] reduce(x, ninf), dimensions={{1}}, to_apply=max
  all = f32[] reduce(x, ninf), dimensions={{0,1,2}}, to_apply=max
  io = s32[4,5,6] iota(), iota_dimension=2
  zi = s32[] constant(0)
  am = (f32[4,5], s32[4,5]) reduce(x, io, ninf, zi), dimensions={{2}}, to_apply=argmax
  amv = s32[4,5] get-tuple-element(am), index=1
  m = f32[4,5] reduce(x, ninf), dimensions={{2}}, to_apply=max
  mb = f32[4,5,6] broadcast(m), dimensions={{0,1}}
  d = f32[4,5,6] subtract(x, mb)
  ex = f32[4,5,6] exponential(d)
  sum = f32[4,5] reduce(ex, z), dimensions={{2}}, to_apply=add
  sb = f32[4,5,6] broadcast(sum), dimensions={{0,1}}
  sm = f32[4,5,6] divide(ex, sb)
  two = f32[] constant(2)
  tb = f32[4,5,6] broadcast(two), dimensions={{}}
  big = pred[4,5,6] compare(x, tb), direction=GT
  f = pred[] constant(false)
  any = pred[4,5] reduce(big, f), dimensions={{2}}, to_apply=or
  ROOT r = (f32[4], f32[4,6], f32[], s32[4,5], f32[4,5,6], pred[4,5], f32[4,5]) tuple(rows, mid, all, amv, sm, any, m)
}}
"#
    );
    let program = check(&text);
    assert!(kernels(&program).any(|k| matches!(k, KernelBody::Reduce { .. })));
}

#[test]
fn reduce_windows_skip_padding_whatever_the_reducer() {
    let text = format!(
        r#"HloModule m
{ADD}{MAX}{LOGADDEXP}ENTRY e {{
  x = f32[2,7,5] parameter(0)
  ninf = f32[] constant(-inf)
  one = f32[] constant(1)
  z = f32[] constant(0)
  pool = f32[2,4,3] reduce-window(x, ninf), window={{size=1x3x2 stride=1x2x2 pad=0_0x1_1x0_1}}, to_apply=max
  sum1 = f32[2,7,5] reduce-window(x, one), window={{size=1x3x3 pad=0_0x1_1x1_1}}, to_apply=add
  dil = f32[2,5,3] reduce-window(x, z), window={{size=1x2x2 pad=0_0x1_0x0_0 lhs_dilate=1x1x1 rhs_dilate=1x3x2}}, to_apply=add
  base = f32[2,13,5] reduce-window(x, z), window={{size=1x2x3 pad=0_0x0_1x1_1 lhs_dilate=1x2x1}}, to_apply=add
  cum = f32[2,7,5] reduce-window(x, ninf), window={{size=1x7x1 pad=0_0x6_0x0_0}}, to_apply=logaddexp
  ROOT r = (f32[2,4,3], f32[2,7,5], f32[2,5,3], f32[2,13,5], f32[2,7,5]) tuple(pool, sum1, dil, base, cum)
}}
"#
    );
    check(&text);
}

#[test]
fn map_inlines_its_computation() {
    check(
        r#"HloModule m
f {
  a = f32[] parameter(0)
  b = s32[] parameter(1)
  c = f32[] convert(b)
  m = f32[] multiply(a, c)
  ROOT r = f32[] tanh(m)
}
ENTRY e {
  x = f32[3,4] parameter(0)
  y = s32[3,4] parameter(1)
  ROOT m = f32[3,4] map(x, y), dimensions={0,1}, to_apply=f
}
"#,
    );
}

#[test]
fn dots_and_their_epilogues() {
    let program = check(
        r#"HloModule m
ENTRY e {
  a = f32[4,3] parameter(0)
  b = f32[3,5] parameter(1)
  bias = f32[5] parameter(2)
  d = f32[4,5] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  bb = f32[4,5] broadcast(bias), dimensions={1}
  s = f32[4,5] add(d, bb)
  z = f32[] constant(0)
  zb = f32[4,5] broadcast(z), dimensions={}
  relu = f32[4,5] maximum(s, zb)
  at = f32[3,4] parameter(3)
  bt = f32[5,3] parameter(4)
  d2 = f32[4,5] dot(at, bt), lhs_contracting_dims={0}, rhs_contracting_dims={1}
  x = f32[2,4,3] parameter(5)
  y = f32[2,3,6] parameter(6)
  d3 = f32[2,4,6] dot(x, y), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_contracting_dims={1}
  r3 = f32[8,6] reshape(d3)
  e3 = f32[8,6] exponential(r3)
  ROOT r = (f32[4,5], f32[4,5], f32[8,6]) tuple(relu, d2, e3)
}
"#,
    );
    let dots: Vec<_> = program.steps.iter().filter_map(|s| if let Step::Dot(d) = s { Some(d) } else { None }).collect();
    // The batched product of small matrices is a reduce kernel, its epilogue
    // (the exponential) a loop kernel after it.
    assert_eq!(dots.len(), 2);
    assert!(kernels(&program).any(|k| matches!(k, KernelBody::Reduce { space, .. } if space == &[2, 4, 3, 6])));
    assert!(dots.iter().any(|d| d.epilogue.is_some()));
    assert!(dots.iter().any(|d| d.lhs_transposed && d.rhs_transposed));
    // The epilogue reads the product (input 0) only at its output index.
    for d in &dots {
        if let Some((k, _)) = &d.epilogue
            && let KernelBody::Loop { graph, .. } = &program.kernels[k.0 as usize].body
        {
            for node in &graph.nodes {
                if let Node::Load { input: 0, index } = node {
                    assert!(index.iter().all(|i| matches!(graph.node(*i), Node::Index(_) | Node::Const(_))));
                }
            }
        }
    }
}

#[test]
fn small_batched_products_run_as_reduce_kernels() {
    // Float products of small matrices batched, rhs not transposed: reduce
    // kernels (lhs either way, f32 and f64, with an epilogue); a transposed
    // rhs, matrices past the bound, integers and an unbatched product stay
    // products.
    let program = check(
        r#"HloModule m
ENTRY e {
  a = f32[3,4,5] parameter(0)
  b = f32[3,5,6] parameter(1)
  d = f32[3,4,6] dot(a, b), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_contracting_dims={1}
  at = f64[3,5,4] parameter(2)
  bd = f64[3,5,6] parameter(3)
  dt = f64[3,4,6] dot(at, bd), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={1}, rhs_contracting_dims={1}
  bias = f32[6] parameter(4)
  bb = f32[3,4,6] broadcast(bias), dimensions={2}
  s = f32[3,4,6] add(d, bb)
  z = f32[] constant(0)
  zb = f32[3,4,6] broadcast(z), dimensions={}
  relu = f32[3,4,6] maximum(s, zb)
  bt = f32[3,6,5] parameter(5)
  tr = f32[3,4,6] dot(a, bt), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_contracting_dims={2}
  big_a = f32[2,128,64] parameter(6)
  big_b = f32[2,64,80] parameter(7)
  big = f32[2,128,80] dot(big_a, big_b), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_contracting_dims={1}
  ia = s32[3,4,5] parameter(8)
  ib = s32[3,5,6] parameter(9)
  ints = s32[3,4,6] dot(ia, ib), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_contracting_dims={1}
  ua = f32[4,5] parameter(10)
  ub = f32[5,6] parameter(11)
  one = f32[4,6] dot(ua, ub), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT r = (f32[3,4,6], f64[3,4,6], f32[3,4,6], f32[3,4,6], f32[2,128,80], s32[3,4,6], f32[4,6]) tuple(relu, dt, d, tr, big, ints, one)
}
"#,
    );
    let dots: Vec<_> = program.steps.iter().filter_map(|s| if let Step::Dot(d) = s { Some(d) } else { None }).collect();
    assert_eq!(dots.len(), 4, "{dots:?}");
    assert!(
        dots.iter().all(|d| d.rhs_transposed || d.batch == 1 || d.m * d.n * d.k > 1 << 18 || d.out.ty.dtype.is_int())
    );
    let reduces = kernels(&program)
        .filter(|k| matches!(k, KernelBody::Reduce { space, reduced, .. } if space.len() == 4 && reduced == &[2]))
        .count();
    assert!(reduces >= 2, "{reduces} product kernels");
}

#[test]
fn dots_of_mixed_precision_and_integers() {
    check(
        r#"HloModule m
ENTRY e {
  a = bf16[3,8] parameter(0)
  b = bf16[8,2] parameter(1)
  d = f32[3,2] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  i = s8[3,8] parameter(2)
  j = s8[8,2] parameter(3)
  k = s32[3,2] dot(i, j), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT r = (f32[3,2], s32[3,2]) tuple(d, k)
}
"#,
    );
    // A vector-matrix dot needs the canonicalizer first.
    check_optimized(
        r#"HloModule m
ENTRY e {
  v = f32[8] parameter(0)
  w = f32[8,3] parameter(1)
  ROOT d = f32[3] dot(v, w), lhs_contracting_dims={0}, rhs_contracting_dims={0}
}
"#,
    );
}

#[test]
fn convolutions_and_their_epilogues() {
    let program = check(
        r#"HloModule m
ENTRY e {
  x = f32[2,7,6,4] parameter(0)
  w = f32[3,3,2,6] parameter(1)
  c = f32[2,4,3,6] convolution(x, w), window={size=3x3 stride=2x2 pad=1_1x1_0 rhs_dilate=1x1}, dim_labels=b01f_01io->b01f, feature_group_count=2
  b = f32[6] parameter(2)
  bb = f32[2,4,3,6] broadcast(b), dimensions={3}
  s = f32[2,4,3,6] add(c, bb)
  t = f32[2,4,3,6] tanh(s)
  g = f32[3,2,4,4] convolution(x, x), window={size=7x6 pad=1_1x1_0 rhs_dilate=1x1}, dim_labels=f01b_i01o->01bf
  k = f32[1,1,4,2] parameter(3)
  d = f32[2,13,11,2] convolution(x, k), window={size=1x1 lhs_dilate=2x2}, dim_labels=b01f_01io->b01f
  ROOT r = (f32[2,4,3,6], f32[3,2,4,4], f32[2,13,11,2]) tuple(t, g, d)
}
"#,
    );
    assert!(program.steps.iter().any(|s| matches!(s, Step::Conv(c) if c.epilogue.is_some())));
}

#[test]
fn sorts_with_recognized_and_general_comparators() {
    let program = check(
        &[
            "HloModule m\n",
            LT,
            r#"gt_total {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  c = s32[] parameter(2)
  d = s32[] parameter(3)
  ROOT r = pred[] compare(a, b), direction=GT, type=TOTALORDER
}
by_index {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  c = s32[] parameter(2)
  d = s32[] parameter(3)
  ROOT r = pred[] compare(d, c), direction=LT
}
ENTRY e {
  x = f32[4,9] parameter(0)
  s = f32[4,9] sort(x), dimensions={1}, is_stable=true, to_apply=lt
  i = s32[4,9] iota(), iota_dimension=0
  t = (f32[4,9], s32[4,9]) sort(x, i), dimensions={0}, is_stable=true, to_apply=gt_total
  u = (f32[4,9], s32[4,9]) sort(x, i), dimensions={1}, to_apply=by_index
  t1 = s32[4,9] get-tuple-element(t), index=1
  u0 = f32[4,9] get-tuple-element(u), index=0
  ROOT r = (f32[4,9], s32[4,9], f32[4,9]) tuple(s, t1, u0)
}
"#,
        ]
        .concat(),
    );
    let patterns: Vec<Option<FnPattern>> = kernels(&program)
        .filter_map(|k| if let KernelBody::Sort { comparator, .. } = k { Some(comparator.pattern) } else { None })
        .collect();
    assert!(patterns.contains(&Some(FnPattern::LessThan { descending: false, compare_type: None })));
    assert!(patterns.iter().any(|p| matches!(p, Some(FnPattern::LessThan { descending: true, .. }))));
    assert!(patterns.contains(&None));
}

#[test]
fn select_and_scatter_routes_gradients() {
    check(&format!(
        r#"HloModule m
ge {{
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT r = pred[] compare(a, b), direction=GE
}}
{ADD}ENTRY e {{
  x = f32[2,7,7,3] parameter(0)
  g = f32[2,4,4,3] parameter(1)
  z = f32[] constant(0)
  ROOT r = f32[2,7,7,3] select-and-scatter(x, g, z), window={{size=1x3x3x1 stride=1x2x2x1 pad=0_0x1_1x1_1x0_0}}, select=ge, scatter=add
}}
"#
    ));
}

#[test]
fn rng_bit_generator_algorithms() {
    for (alg, state, bits) in [
        ("rng_three_fry", "u64[2]", "u32[3,5]"),
        ("rng_three_fry", "u64[2]", "u64[4]"),
        ("rng_three_fry", "u64[2]", "u8[7]"),
        ("rng_philox", "u64[3]", "u32[3,5]"),
        ("rng_philox", "u64[2]", "u64[5]"),
        ("rng_default", "u64[2]", "u16[9]"),
    ] {
        check(&format!(
            "HloModule m\nENTRY e {{\n  s = {state} parameter(0)\n  ROOT r = ({state}, {bits}) rng-bit-generator(s), algorithm={alg}\n}}\n"
        ));
    }
}

#[test]
fn while_loops_update_their_state_at_once() {
    // The body swaps two state elements: the update must be a parallel copy.
    check(
        r#"HloModule m
cond {
  s = (s32[], f32[5], f32[5]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(5)
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  s = (s32[], f32[5], f32[5]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  one = s32[] constant(1)
  j = s32[] add(i, one)
  x = f32[5] get-tuple-element(s), index=1
  y = f32[5] get-tuple-element(s), index=2
  h = f32[] constant(0.5)
  hb = f32[5] broadcast(h), dimensions={}
  z = f32[5] multiply(x, hb)
  w = f32[5] add(z, y)
  ROOT t = (s32[], f32[5], f32[5]) tuple(j, w, x)
}
ENTRY e {
  x = f32[5] parameter(0)
  y = f32[5] parameter(1)
  z = s32[] constant(0)
  init = (s32[], f32[5], f32[5]) tuple(z, x, y)
  w = (s32[], f32[5], f32[5]) while(init), condition=cond, body=body
  a = f32[5] get-tuple-element(w), index=1
  b = f32[5] get-tuple-element(w), index=2
  ROOT r = (f32[5], f32[5], f32[5]) tuple(a, b, x)
}
"#,
    );
}

#[test]
fn conditionals_pick_a_branch_by_pred_or_index() {
    check(
        r#"HloModule m
b0 {
  x = f32[4] parameter(0)
  ROOT n = f32[4] negate(x)
}
b1 {
  x = f32[4] parameter(0)
  ROOT e = f32[4] exponential(x)
}
b2 {
  x = f32[4] parameter(0)
  ROOT x2 = f32[4] add(x, x)
}
t0 {
  ROOT p = (f32[4], f32[]) parameter(0)
}
t1 {
  p = (f32[4], f32[]) parameter(0)
  a = f32[4] get-tuple-element(p), index=0
  s = f32[] get-tuple-element(p), index=1
  sb = f32[4] broadcast(s), dimensions={}
  m = f32[4] multiply(a, sb)
  ROOT q = (f32[4], f32[]) tuple(m, s)
}
ENTRY e {
  x = f32[4] parameter(0)
  p = pred[] parameter(1)
  i = s32[] parameter(2)
  s = f32[] parameter(3)
  c = f32[4] conditional(p, x, x), branch_computations={b0, b1}
  d = f32[4] conditional(i, x, c, x), branch_computations={b0, b1, b2}
  tp = (f32[4], f32[]) tuple(d, s)
  u = (f32[4], f32[]) conditional(p, tp, tp), branch_computations={t0, t1}
  u0 = f32[4] get-tuple-element(u), index=0
  ROOT r = (f32[4], f32[4], f32[4]) tuple(c, d, u0)
}
"#,
    );
}

#[test]
fn results_that_alias_copy_and_donated_parameters_are_reused() {
    let program = check(
        r#"HloModule m, input_output_alias={ {1}: (0, {}, may-alias) }
ENTRY e {
  x = f32[5] parameter(0)
  y = f32[5] parameter(1)
  n = f32[5] negate(y)
  s = f32[5] add(x, y)
  c = f32[5] constant({1, 2, 3, 4, 5})
  m = f32[5] multiply(n, c)
  ROOT r = (f32[5], f32[5], f32[5], f32[5], f32[5], f32[5]) tuple(y, s, m, m, c, x)
}
"#,
    );
    assert!(program.steps.iter().any(|s| matches!(s, Step::Copy { .. })));
}

#[test]
fn array_constants_in_kernels_come_from_the_constant_table() {
    let program = check(
        r#"HloModule m
ENTRY e {
  x = s32[4] parameter(0)
  t = f32[5,3] constant({{1, 2, 3}, {4, 5, 6}, {7, 8, 9}, {10, 11, 12}, {13, 14, 15}})
  i = s32[4,1] reshape(x)
  g = f32[4,3] gather(t, i), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,3}
  ROOT e = f32[4,3] exponential(g)
}
"#,
    );
    assert!(!program.constants.is_empty());
}

#[test]
fn reducers_are_recognized() {
    let program = check(&format!(
        "HloModule m\n{ADD}ENTRY e {{\n  x = f32[6,5] parameter(0)\n  z = f32[] constant(0)\n  ROOT r = f32[6] reduce(x, z), dimensions={{1}}, to_apply=add\n}}\n"
    ));
    assert!(kernels(&program).any(|k| matches!(
        k,
        KernelBody::Reduce { reducer, .. } if reducer.pattern == Some(FnPattern::Binary(crate::ir::BinaryOp::Add))
    )));
}

#[test]
fn what_cannot_be_lowered_is_an_error_naming_the_instruction() {
    let m = module(
        "HloModule m\nENTRY e {\n  x = f32[4] parameter(0)\n  ROOT c = f32[4] custom-call(x), custom_call_target=\"foo\"\n}\n",
    );
    let e = lower_module(&m).unwrap_err();
    assert!(matches!(e, LowerError::Unsupported { .. }));
    assert_eq!(
        e.to_string(),
        "in computation 'e', instruction 'c' (custom-call): cannot lower custom-call target \"foo\" (smelt implements no such target)"
    );
    let m = module(
        "HloModule m\nENTRY e {\n  v = f32[8] parameter(0)\n  w = f32[8] parameter(1)\n  ROOT d = f32[] dot(v, w), lhs_contracting_dims={0}, rhs_contracting_dims={0}\n}\n",
    );
    let e = lower_module(&m).unwrap_err().to_string();
    assert!(e.contains("instruction 'd' (dot)") && e.contains("canonical"), "{e}");
    let m = module(
        "HloModule m\nENTRY e {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT r = f32[3] rng(a, b), distribution=rng_uniform\n}\n",
    );
    assert!(matches!(lower_module(&m).unwrap_err(), LowerError::Unsupported { .. }));
}

#[test]
fn hand_written_fusions_of_every_kind() {
    let text = [
        "HloModule m\n",
        MAX,
        OR,
        r#"out_multi {
  a = f32[4,3] parameter(0)
  b = f32[3,5] parameter(1)
  y = f32[4,5] parameter(2)
  d = f32[4,5] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  e = f32[4,5] exponential(y)
  s = f32[4,5] add(d, e)
  ROOT t = (f32[4,5], f32[4,5]) tuple(s, e)
}
reduce_multi {
  x = f32[4,5] parameter(0)
  ninf = f32[] constant(-inf)
  m = f32[4] reduce(x, ninf), dimensions={1}, to_apply=max
  z = f32[] constant(0)
  zb = f32[4,5] broadcast(z), dimensions={}
  p = pred[4,5] compare(x, zb), direction=GT
  f = pred[] constant(false)
  any = pred[4] reduce(p, f), dimensions={1}, to_apply=or
  n = f32[4,5] negate(x)
  ROOT t = (f32[4], pred[4], f32[4,5]) tuple(m, any, n)
}
dus {
  o = f32[6,5] parameter(0)
  u = f32[2,5] parameter(1)
  i = s32[] parameter(2)
  z = s32[] constant(0)
  e = f32[2,5] exponential(u)
  ROOT d = f32[6,5] dynamic-update-slice(o, e, i, z)
}
ENTRY e {
  a = f32[4,3] parameter(0)
  b = f32[3,5] parameter(1)
  y = f32[4,5] parameter(2)
  f1 = (f32[4,5], f32[4,5]) fusion(a, b, y), kind=kOutput, calls=out_multi
  s = f32[4,5] get-tuple-element(f1), index=0
  e = f32[4,5] get-tuple-element(f1), index=1
  f2 = (f32[4], pred[4], f32[4,5]) fusion(s), kind=kInput, calls=reduce_multi
  m = f32[4] get-tuple-element(f2), index=0
  any = pred[4] get-tuple-element(f2), index=1
  n = f32[4,5] get-tuple-element(f2), index=2
  o = f32[6,5] parameter(3)
  i = s32[] parameter(4)
  u = f32[2,5] slice(y), slice={[0:2], [0:5]}
  d = f32[6,5] fusion(o, u, i), kind=kLoop, calls=dus
  ROOT r = (f32[4,5], f32[4], pred[4], f32[4,5], f32[6,5], f32[6,5]) tuple(e, m, any, n, d, o)
}
"#,
    ]
    .concat();
    check(&text);
    // As written: the output fusion's second output is a kernel of its own, the
    // two reductions and the negation one Reduce kernel, the update in place.
    let raw = module(&text);
    let program = agree(&raw, &arguments(&raw, 7)).unwrap_or_else(|e| panic!("{e}"));
    assert!(program.steps.iter().any(|s| matches!(s, Step::Dot(d) if d.epilogue.is_some())));
    assert!(kernels(&program).any(|k| matches!(k, KernelBody::Reduce { reduce_outputs, extra, .. }
        if reduce_outputs.len() == 2 && extra.len() == 1)));
    assert!(kernels(&program).any(|k| matches!(k, KernelBody::UpdateSlice { .. })));
}

#[test]
fn programs_print_readably() {
    let program = check(&format!(
        "HloModule m\n{ADD}ENTRY e {{\n  x = f32[2,3] parameter(0)\n  z = f32[] constant(0)\n  e = f32[2,3] exponential(x)\n  ROOT r = f32[2] reduce(e, z), dimensions={{1}}, to_apply=add\n}}\n"
    ));
    let text = program.to_string();
    for line in [
        "program 'm' (f32[2,3]) -> (f32[2]), 0 temporary bytes",
        ": reduce [2, 3] over dimensions {1} (in0: f32[2,3]) -> (f32[2])",
        "  %3 = f32 load in0[%0, %1]\n  %4 = f32 exp %3\n",
        "  reducer (f32, f32) Binary(Add) {\n    %0 = f32 param 0\n",
        "k0 (param0) -> (result0)",
    ] {
        assert!(text.contains(line), "{line:?} not in\n{text}");
    }
}

/// The scan kernels of a program: (axis, reverse) of each.
fn scans(p: &Program) -> Vec<(usize, bool)> {
    kernels(p)
        .filter_map(|k| if let KernelBody::Scan { axis, reverse, .. } = k { Some((*axis, *reverse)) } else { None })
        .collect()
}

#[test]
fn cumulative_reduce_windows_become_scans_along_every_axis() {
    // cumsum, cumprod, cummax and cumlogsumexp forward along each axis of a
    // rank-3 array, and an s32 cumsum: each is one scan kernel, bit for bit the
    // interpreter's windows (edge values included).
    let iadd = "iadd {\n  x = s32[] parameter(0)\n  y = s32[] parameter(1)\n  ROOT s = s32[] add(x, y)\n}\n";
    let windows = ["size=3x1x1 pad=2_0x0_0x0_0", "size=1x5x1 pad=0_0x4_0x0_0", "size=1x1x7 pad=0_0x0_0x6_0"];
    for (axis, w) in windows.iter().enumerate() {
        let text = format!(
            r#"HloModule m
{ADD}{MAX}{MUL}{iadd}{LOGADDEXP}
ENTRY e {{
  x = f32[3,5,7] parameter(0)
  i = s32[3,5,7] parameter(1)
  z = f32[] constant(0)
  one = f32[] constant(1)
  ninf = f32[] constant(-inf)
  iz = s32[] constant(0)
  s = f32[3,5,7] reduce-window(x, z), window={{{w}}}, to_apply=add
  p = f32[3,5,7] reduce-window(x, one), window={{{w}}}, to_apply=mul
  m = f32[3,5,7] reduce-window(x, ninf), window={{{w}}}, to_apply=max
  l = f32[3,5,7] reduce-window(x, ninf), window={{{w}}}, to_apply=logaddexp
  c = s32[3,5,7] reduce-window(i, iz), window={{{w}}}, to_apply=iadd
  ROOT r = (f32[3,5,7], f32[3,5,7], f32[3,5,7], f32[3,5,7], s32[3,5,7]) tuple(s, p, m, l, c)
}}
"#
        );
        let program = check(&text);
        assert_eq!(scans(&program), vec![(axis, false); 5], "{program}");
    }
}

#[test]
fn reverse_scans_fold_from_the_end() {
    // Padding after the axis: each output folds its own position to the end,
    // in the window's order (the evaluator does exactly that; backends may run
    // the recurrence from the end, which is why reverse scans need one
    // commutative operation). Float sums of arbitrary values, and of small
    // integers, which are exact in any order.
    let text = format!(
        r#"HloModule m
{ADD}{MAX}
mul {{
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT m = f32[] multiply(x, y)
}}
ior {{
  x = pred[] parameter(0)
  y = pred[] parameter(1)
  ROOT o = pred[] or(x, y)
}}
ENTRY e {{
  i = s32[4,9] parameter(0)
  x = f32[4,9] parameter(1)
  b = pred[4,9] parameter(2)
  mask = s32[] constant(7)
  masks = s32[4,9] broadcast(mask), dimensions={{}}
  small = s32[4,9] and(i, masks)
  f = f32[4,9] convert(small)
  one = f32[] constant(1)
  ones = f32[4,9] broadcast(one), dimensions={{}}
  g = f32[4,9] add(f, ones)
  z = f32[] constant(0)
  ninf = f32[] constant(-inf)
  no = pred[] constant(false)
  s = f32[4,9] reduce-window(f, z), window={{size=1x9 pad=0_0x0_8}}, to_apply=add
  s0 = f32[4,9] reduce-window(f, z), window={{size=4x1 pad=0_3x0_0}}, to_apply=add
  p = f32[4,9] reduce-window(g, one), window={{size=1x9 pad=0_0x0_8}}, to_apply=mul
  m = f32[4,9] reduce-window(x, ninf), window={{size=1x9 pad=0_0x0_8}}, to_apply=max
  o = pred[4,9] reduce-window(b, no), window={{size=1x9 pad=0_0x0_8}}, to_apply=ior
  sx = f32[4,9] reduce-window(x, z), window={{size=1x9 pad=0_0x0_8}}, to_apply=add
  ROOT r = (f32[4,9], f32[4,9], f32[4,9], f32[4,9], pred[4,9], f32[4,9]) tuple(s, s0, p, m, o, sx)
}}
"#
    );
    let program = check(&text);
    let mut got = scans(&program);
    got.sort_unstable();
    assert_eq!(got, vec![(0, true), (1, true), (1, true), (1, true), (1, true), (1, true)], "{program}");
    // A reverse window whose reducer is not one commutative operation keeps the
    // windowed form (its fold order cannot change).
    let text = format!(
        r#"HloModule m
{LOGADDEXP}
ENTRY e {{
  x = f32[4,9] parameter(0)
  ninf = f32[] constant(-inf)
  ROOT l = f32[4,9] reduce-window(x, ninf), window={{size=1x9 pad=0_0x0_8}}, to_apply=logaddexp
}}
"#
    );
    let program = check(&text);
    assert!(scans(&program).is_empty(), "{program}");
}

#[test]
fn variadic_scans_and_fused_producers() {
    // A running argmax (value and index together), and cumsum(exp(x)) / 2 after
    // fusion: the exp fuses into the scan, the divide reads the scan's output.
    let text = r#"HloModule m
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
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
ENTRY e {
  x = f32[6,11] parameter(0)
  iota = s32[6,11] iota(), iota_dimension=1
  ninf = f32[] constant(-inf)
  m1 = s32[] constant(-1)
  am = (f32[6,11], s32[6,11]) reduce-window(x, iota, ninf, m1), window={size=1x11 pad=0_0x10_0}, to_apply=argmax
  v = f32[6,11] get-tuple-element(am), index=0
  i = s32[6,11] get-tuple-element(am), index=1
  e = f32[6,11] exponential(x)
  z = f32[] constant(0)
  c = f32[6,11] reduce-window(e, z), window={size=6x1 pad=5_0x0_0}, to_apply=add
  two = f32[] constant(2)
  twos = f32[6,11] broadcast(two), dimensions={}
  h = f32[6,11] divide(c, twos)
  ROOT r = (f32[6,11], s32[6,11], f32[6,11]) tuple(v, i, h)
}
"#;
    let program = check(text);
    let mut got = scans(&program);
    got.sort_unstable();
    assert_eq!(got, vec![(0, false), (1, false)], "{program}");
    let fused_exp = program.kernels.iter().any(|k| {
        matches!(&k.body, KernelBody::Scan { graph, .. }
            if graph.nodes.iter().any(|n| matches!(n, Node::Unary { op: crate::ir::UnaryOp::Exp, .. })))
    });
    assert!(fused_exp, "the exp is computed inside the scan\n{program}");
}

/// A loop fusion whose root reshapes (a max pool flattened into a product's
/// `[C, H*W]` operand) runs over the pooled value's own dims: no node divides
/// a flat index by the width to find the window.
#[test]
fn loop_fusions_run_over_the_value_their_root_reshapes() {
    let program = check(
        r#"HloModule m
max {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}
pool {
  x = f32[1,4,11,11] parameter(0)
  ninf = f32[] constant(-inf)
  p = f32[1,4,5,5] reduce-window(x, ninf), window={size=1x1x3x3 stride=1x1x2x2}, to_apply=max
  ROOT r = f32[4,25] reshape(p)
}
ENTRY e {
  x = f32[1,4,11,11] parameter(0)
  ROOT f = f32[4,25] fusion(x), kind=kLoop, calls=pool
}
"#,
    );
    let spaces: Vec<&Vec<i64>> = kernels(&program)
        .filter_map(|b| if let KernelBody::Loop { space, .. } = b { Some(space) } else { None })
        .collect();
    assert_eq!(spaces, [&vec![1, 4, 5, 5]]);
    for body in kernels(&program) {
        if let KernelBody::Loop { graph, .. } = body {
            let divides = |n: &Node| {
                use crate::ir::BinaryOp::{Div, DivUnchecked, Rem, RemUnchecked};
                matches!(n, Node::Binary { op: Div | DivUnchecked | Rem | RemUnchecked, .. })
            };
            assert!(!graph.nodes.iter().any(divides), "{:?}", graph.nodes);
        }
    }
}

#[test]
fn combine_identities_leave_every_operand_unchanged() {
    use crate::ir::{BinaryOp, Scalar};
    use smelt_hlo::DType;
    let floats = [0.0, -0.0, 1.5, -2.25, f64::INFINITY, f64::NEG_INFINITY, f64::NAN, f64::MIN_POSITIVE, 3.0e38];
    let ints = [0i128, 1, -1, 127, -128, 255, i32::MAX as i128, i64::MIN as i128, u64::MAX as i128];
    let ops = [BinaryOp::Add, BinaryOp::Mul, BinaryOp::Max, BinaryOp::Min, BinaryOp::And, BinaryOp::Or, BinaryOp::Xor];
    let types = [DType::F32, DType::F64, DType::Bf16, DType::Pred, DType::S8, DType::U8, DType::S32, DType::U64];
    let mut checked = 0;
    for t in types {
        for op in ops {
            let Some(e) = crate::combine_identity(op, t) else {
                // Floats have no bitwise identities; everything else has one.
                assert!(t.is_float() && matches!(op, BinaryOp::And | BinaryOp::Or | BinaryOp::Xor), "{op:?} on {t}");
                continue;
            };
            let xs: Vec<Scalar> = if t.is_float() {
                floats
                    .iter()
                    .map(|&v| {
                        crate::sem::read(t, &{
                            let mut b = vec![0u8; t.byte_size()];
                            crate::sem::write(Scalar::Float(t, v), &mut b);
                            b
                        })
                    })
                    .collect()
            } else {
                ints.iter().map(|&v| Scalar::Int(t, crate::sem::wrap(t, v))).collect()
            };
            for x in xs {
                let got = crate::sem::binary(op, e, x).unwrap_or_else(|m| panic!("{op:?} on {t}: {m}"));
                let same = match (got, x) {
                    (Scalar::Float(_, a), Scalar::Float(_, b)) => {
                        (a.is_nan() && b.is_nan()) || a.to_bits() == b.to_bits()
                    }
                    (a, b) => a == b,
                };
                assert!(same, "{op:?}({e:?}, {x:?}) on {t} gave {got:?}");
                checked += 1;
            }
        }
    }
    assert!(checked > 300, "{checked} cases");
}
