//! Golden pass tests: `passes/tests/filecheck/<pass>/*.hlo` files run through passes and the
//! printed result is matched against `// CHECK` lines, FileCheck style.
//!
//! A file holds directives in `//` comments (which the HLO parser skips) and one
//! module:
//! - `// RUN: pass-a,pass-b`: the passes to run, in order (names as `--disable-pass`
//!   spells them);
//! - `// CHANGED: true|false`: what the passes must report (optional);
//! - `// CHECK: text`: a later output line contains `text`;
//! - `// CHECK-NEXT: text`: the line right after the previous match contains `text`;
//! - `// CHECK-NOT: text`: no line between the previous match and the next match
//!   (or the end) contains `text`;
//! - `// EXPLAIN: text`: some declined-fusion note `producer -> consumer: reason`
//!   contains `text`.
//!
//! - `// NO-EVAL: reason`: skip the differential check below.
//! - `// LOWER`: after the passes (`// RUN: default` is the default pipeline, what
//!   every backend runs), lower the module to the kernel form; the output checked
//!   is the kernel program's text, which must also equal the golden file beside
//!   it (`name.kernel`).
//!
//! Every file is also checked differentially: the module before and after the
//! passes runs on random inputs (rich in NaN, infinities, -0 and integer limits) on
//! the reference interpreter, and the results must agree bit for bit; a lowered
//! program runs in the kernel form's evaluator and must agree with the module too.
//!
//! With `SMELT_BLESS=1` a failing file's actual output is printed for inspection,
//! and a lowering's golden `.kernel` file is rewritten with what the lowering
//! gives now (review the diff before committing it).

use std::path::{Path, PathBuf};

use smelt_passes::{Options, PassContext, Pipeline};

mod common;
use smelt_hlo::random::SplitMix as Rng;

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "hlo") {
            out.push(p);
        }
    }
}

enum Check {
    Plain(String),
    Next(String),
    Not(String),
}

fn run_file(path: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).unwrap();
    let directive = |name: &str| -> Vec<String> {
        text.lines()
            .filter_map(|l| l.trim_start().strip_prefix(&format!("// {name}:")).map(|s| s.trim().to_string()))
            .collect()
    };
    let run = directive("RUN");
    let [passes] = run.as_slice() else {
        return Err("needs exactly one // RUN: line".into());
    };
    let mut module = smelt_hlo::parse_module(&text).map_err(|e| e.render(&path.display().to_string()))?;
    let original = module.clone();
    let mut pipeline = Pipeline::new("filecheck");
    if passes == "default" {
        pipeline = smelt_passes::default_pipeline(&Options::default());
    } else {
        for name in passes.split(',').map(str::trim) {
            let pass = smelt_passes::pass_by_name(name).ok_or_else(|| format!("unknown pass '{name}'"))?;
            pipeline = pipeline.with_boxed(pass);
        }
    }
    let mut cx = PassContext::new(Options::default());
    cx.verify_each = true;
    let changed = pipeline.run_on(&mut module, &mut cx).map_err(|e| e.to_string())?;
    let lowered = if text.lines().any(|l| l.trim() == "// LOWER") {
        Some(smelt_kernel::lower_module(&module).map_err(|e| format!("lowering: {e}"))?)
    } else {
        None
    };
    let output = match &lowered {
        Some(p) => p.to_string(),
        None => smelt_hlo::print_module(&module),
    };
    let bless = std::env::var("SMELT_BLESS").is_ok();
    let fail = |msg: String| -> Result<(), String> {
        if bless {
            println!("---- {} output ----\n{output}", path.display());
        }
        Err(msg)
    };
    if let Some(program) = &lowered {
        let golden = path.with_extension("kernel");
        if bless {
            std::fs::write(&golden, &output).map_err(|e| format!("{}: {e}", golden.display()))?;
        }
        match std::fs::read_to_string(&golden) {
            Ok(want) if want == output => {}
            Ok(want) => {
                let line = want
                    .lines()
                    .zip(output.lines())
                    .position(|(a, b)| a != b)
                    .unwrap_or(want.lines().count().min(output.lines().count()))
                    + 1;
                return fail(format!("the kernel program differs from {} from line {line}", golden.display()));
            }
            Err(e) => return fail(format!("{}: {e} (SMELT_BLESS=1 writes it)", golden.display())),
        }
        if let Err(e) = lowered_results(&original, program) {
            return fail(format!("differential check of the lowering: {e}"));
        }
    }
    if let Some(want) = directive("CHANGED").first()
        && want != &changed.to_string()
    {
        return fail(format!("passes reported changed={changed}, expected {want}"));
    }
    let checks: Vec<Check> = text
        .lines()
        .filter_map(|l| {
            let l = l.trim_start();
            if let Some(s) = l.strip_prefix("// CHECK-NEXT:") {
                Some(Check::Next(s.trim().to_string()))
            } else if let Some(s) = l.strip_prefix("// CHECK-NOT:") {
                Some(Check::Not(s.trim().to_string()))
            } else {
                l.strip_prefix("// CHECK:").map(|s| Check::Plain(s.trim().to_string()))
            }
        })
        .collect();
    let lines: Vec<&str> = output.lines().collect();
    let mut pos = 0usize; // next line to search
    let mut pending_not: Vec<String> = Vec::new();
    for check in &checks {
        match check {
            Check::Not(s) => pending_not.push(s.clone()),
            Check::Plain(s) => {
                let Some(found) = (pos..lines.len()).find(|&i| lines[i].contains(s.as_str())) else {
                    return fail(format!("CHECK: '{s}' not found after line {pos}"));
                };
                if let Some(n) = pending_not.iter().find(|n| lines[pos..found].iter().any(|l| l.contains(n.as_str()))) {
                    return fail(format!("CHECK-NOT: '{n}' found before '{s}'"));
                }
                pending_not.clear();
                pos = found + 1;
            }
            Check::Next(s) => {
                if !lines.get(pos).is_some_and(|l| l.contains(s.as_str())) {
                    return fail(format!("CHECK-NEXT: '{s}' is not on line {pos}: {:?}", lines.get(pos)));
                }
                pos += 1;
            }
        }
    }
    if let Some(n) = pending_not.iter().find(|n| lines[pos.min(lines.len())..].iter().any(|l| l.contains(n.as_str()))) {
        return fail(format!("CHECK-NOT: '{n}' found"));
    }
    if directive("NO-EVAL").is_empty()
        && let Err(e) = same_results(&original, &module)
    {
        return fail(format!("differential check: {e}"));
    }
    let notes: Vec<String> =
        cx.fusion_notes.iter().map(|n| format!("{} -> {}: {}", n.producer, n.consumer, n.reason)).collect();
    for want in directive("EXPLAIN") {
        if !notes.iter().any(|n| n.contains(&want)) {
            return fail(format!("EXPLAIN: no fusion note contains '{want}'; notes: {notes:#?}"));
        }
    }
    Ok(())
}

/// Runs the module on the interpreter and the lowered program in the kernel
/// evaluator on the same random inputs; their results must be identical.
fn lowered_results(module: &smelt_hlo::Module, program: &smelt_kernel::Program) -> Result<(), String> {
    for trial in 0..8 {
        let mut rng = Rng::new(trial + 1);
        let args = common::edge_args(&mut rng, module);
        let want = common::run(module, &args).map_err(|e| format!("interpreter: {e}"))?;
        let leaves: Vec<smelt_hlo::Array> = args.iter().flat_map(|a| a.leaves().into_iter().cloned()).collect();
        let got = smelt_kernel::eval::run(program, &leaves).map_err(|e| format!("kernel evaluator: {e}"))?;
        let want: Vec<smelt_hlo::Literal> =
            want.leaves().into_iter().map(|a| smelt_hlo::Literal::Array(a.clone())).collect();
        let got: Vec<smelt_hlo::Literal> = got.into_iter().map(smelt_hlo::Literal::Array).collect();
        if want.len() != got.len() || want.iter().zip(&got).any(|(w, g)| !common::same(w, g)) {
            return Err(format!(
                "results differ on trial {trial}\ninputs: {args:?}\nmodule: {want:?}\nprogram: {got:?}"
            ));
        }
    }
    Ok(())
}

/// Runs both modules on the same random inputs; their results must be identical.
fn same_results(before: &smelt_hlo::Module, after: &smelt_hlo::Module) -> Result<(), String> {
    const TRIALS: u64 = 24;
    for trial in 0..TRIALS {
        let mut rng = Rng::new(trial + 1);
        let args = common::edge_args(&mut rng, before);
        let want = common::run(before, &args).map_err(|e| format!("before the passes: {e}"))?;
        let got = common::run(after, &args).map_err(|e| format!("after the passes: {e}"))?;
        if !common::same(&want, &got) {
            return Err(format!("results differ on trial {trial}\ninputs: {args:?}\nbefore: {want:?}\nafter: {got:?}"));
        }
    }
    Ok(())
}

#[test]
fn golden_pass_tests() {
    let mut paths = Vec::new();
    files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/filecheck"), &mut paths);
    paths.sort();
    assert!(!paths.is_empty());
    let failures: Vec<String> =
        paths.iter().filter_map(|p| run_file(p).err().map(|e| format!("{}: {e}", p.display()))).collect();
    assert!(failures.is_empty(), "{} of {} golden tests failed:\n{}", failures.len(), paths.len(), failures.join("\n"));
}

/// The default pipeline, verifying after every pass, on every corpus module: the
/// entry result keeps its shape, and where the evaluator supports every op (and
/// the program ends on random inputs), the results stay bit for bit the same.
#[test]
fn default_pipeline_on_corpus() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/corpus");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&corpus)
        .unwrap()
        .map(|e| e.unwrap().path().join("module.hlo"))
        .filter(|p| p.exists())
        .collect();
    cases.sort();
    assert!(!cases.is_empty(), "no corpus modules under {}", corpus.display());
    let mut evaluated = 0;
    let mut failures = Vec::new();
    for path in &cases {
        let name = path.display();
        let text = std::fs::read_to_string(path).unwrap();
        let mut module = match smelt_hlo::parse_module(&text) {
            Ok(m) => m,
            Err(e) => {
                failures.push(e.render(&name.to_string()));
                continue;
            }
        };
        let original = module.clone();
        let mut cx = PassContext::new(Options::default());
        cx.verify_each = true;
        let mut pipeline = smelt_passes::default_pipeline(&cx.options.clone());
        if let Err(e) = pipeline.run_on(&mut module, &mut cx) {
            failures.push(format!("{name}: {e}"));
            continue;
        }
        // Complex results are returned as their parts.
        let (before, after) = (original.entry().result_shape().storage(), module.entry().result_shape().clone());
        if before != after {
            failures.push(format!("{name}: the entry result changed from {before} to {after}"));
        }
        let mut rng = Rng::new(7);
        let args = common::edge_args(&mut rng, &original);
        let Ok(want) = common::run(&original, &args) else {
            continue;
        };
        evaluated += 1;
        match common::run(&module, &args) {
            Ok(got) if common::same(&got, &want) => {}
            Ok(_) => failures.push(format!("{name}: results differ after the pipeline")),
            Err(e) => failures.push(format!("{name}: after the pipeline: {e}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} corpus modules failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
    // Most of the corpus is within the evaluator's reach; keep it that way.
    assert!(evaluated >= 25, "only {evaluated} corpus modules could be evaluated");
}

/// Random dots (batch, contracting and free dimensions in any number and order,
/// sizes including 1) through the dot canonicalizer: the module verifies, every dot
/// is canonical, and the results are the same (s32, so sums are exact in any order).
#[test]
fn dot_canonicalizer_on_random_dots() {
    let rewritten = random_cases(2024, 300, random_dot, &["dot-canonicalizer"], |case, module| {
        let entry = module.entry();
        for (_, inst) in entry.insts.iter() {
            if inst.opcode == smelt_hlo::Opcode::Dot {
                assert!(
                    smelt_passes::dot_canonicalizer::is_canonical(entry, inst),
                    "case {case}: not canonical: {}\n{}",
                    inst.name,
                    smelt_hlo::print_module(module)
                );
            }
        }
    });
    assert!(rewritten >= 150, "only {rewritten} of 300 random dots were rewritten");
}

/// Runs the passes `names` in order on `count` random modules from `generate`
/// (seeded with `seed`), verifying after each pass; checks that every module's
/// results stay the same and hands the module after to `check`. Returns how
/// many modules changed.
fn random_cases(
    seed: u64,
    count: usize,
    generate: fn(&mut Rng) -> String,
    names: &[&str],
    mut check: impl FnMut(usize, &smelt_hlo::Module),
) -> usize {
    let mut rng = Rng::new(seed);
    let mut changed = 0;
    for case in 0..count {
        let text = generate(&mut rng);
        let (module, case_changed) = passes_keep_results(case, &text, names);
        changed += usize::from(case_changed);
        check(case, &module);
    }
    changed
}

/// Runs the passes `names` in order on random case `case` (HLO `text`),
/// verifying after each, and checks that the results stay the same; returns
/// the module after and whether it changed.
fn passes_keep_results(case: usize, text: &str, names: &[&str]) -> (smelt_hlo::Module, bool) {
    let original = smelt_hlo::parse_module(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let mut module = original.clone();
    let mut cx = PassContext::new(Options::default());
    cx.verify_each = true;
    let mut pipeline = Pipeline::new("random");
    for name in names {
        pipeline = pipeline.with_boxed(smelt_passes::pass_by_name(name).unwrap());
    }
    let changed = pipeline.run_on(&mut module, &mut cx).unwrap_or_else(|e| panic!("case {case}: {e}\n{text}"));
    if let Err(e) = same_results(&original, &module) {
        panic!("case {case}: {e}\n{text}\n{}", smelt_hlo::print_module(&module));
    }
    (module, changed)
}

/// HLO text of one random s32 dot.
fn random_dot(rng: &mut Rng) -> String {
    // Dimension kinds: batch, contracting, lhs free, rhs free; sizes 1 to 3.
    let nb = rng.below(3);
    let nc = rng.below(3);
    let nl = rng.below(3);
    let nr = rng.below(3);
    let mut size = || 1 + rng.below(3) as i64;
    let batch: Vec<i64> = (0..nb).map(|_| size()).collect();
    let contracting: Vec<i64> = (0..nc).map(|_| size()).collect();
    let lfree: Vec<i64> = (0..nl).map(|_| size()).collect();
    let rfree: Vec<i64> = (0..nr).map(|_| size()).collect();
    // Each side lists its dimensions as (kind, index) in a random order.
    let side = |free: usize, rng: &mut Rng| -> Vec<(u8, usize)> {
        let mut dims: Vec<(u8, usize)> = (0..nb).map(|i| (0, i)).collect();
        dims.extend((0..nc).map(|i| (1, i)));
        dims.extend((0..free).map(|i| (2, i)));
        for i in (1..dims.len()).rev() {
            dims.swap(i, rng.below(i + 1));
        }
        dims
    };
    let l = side(nl, rng);
    let r = side(nr, rng);
    let sizes = |dims: &[(u8, usize)], free: &[i64]| -> Vec<i64> {
        dims.iter()
            .map(|&(k, i)| match k {
                0 => batch[i],
                1 => contracting[i],
                _ => free[i],
            })
            .collect()
    };
    let pos = |dims: &[(u8, usize)], kind: u8, i: usize| dims.iter().position(|&d| d == (kind, i)).unwrap();
    // Contracting pairs in a random order.
    let mut pairs: Vec<usize> = (0..nc).collect();
    for i in (1..pairs.len()).rev() {
        pairs.swap(i, rng.below(i + 1));
    }
    let list = |v: Vec<usize>| v.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(",");
    let shape = |dims: &[i64]| {
        let layout: Vec<String> = (0..dims.len()).rev().map(|d| d.to_string()).collect();
        let d: Vec<String> = dims.iter().map(|d| d.to_string()).collect();
        if dims.is_empty() { "s32[]".to_string() } else { format!("s32[{}]{{{}}}", d.join(","), layout.join(",")) }
    };
    let mut out: Vec<i64> = batch.clone();
    // Free dimensions appear in the result in operand order.
    out.extend(l.iter().filter(|d| d.0 == 2).map(|d| lfree[d.1]));
    out.extend(r.iter().filter(|d| d.0 == 2).map(|d| rfree[d.1]));
    format!(
        "HloModule r\n\nENTRY main {{\n  a = {} parameter(0)\n  b = {} parameter(1)\n  ROOT d = {} dot(a, b), lhs_batch_dims={{{}}}, lhs_contracting_dims={{{}}}, rhs_batch_dims={{{}}}, rhs_contracting_dims={{{}}}\n}}\n",
        shape(&sizes(&l, &lfree)),
        shape(&sizes(&r, &rfree)),
        shape(&out),
        list((0..nb).map(|i| pos(&l, 0, i)).collect()),
        list(pairs.iter().map(|&i| pos(&l, 1, i)).collect()),
        list((0..nb).map(|i| pos(&r, 0, i)).collect()),
        list(pairs.iter().map(|&i| pos(&r, 1, i)).collect()),
    )
}

/// Random elementwise and data-movement programs over identity-like constants (0,
/// -0, 1, -1, infinities, NaN, integer limits, all-true/false) through the
/// simplification passes: every result must stay the same, bit for bit.
#[test]
fn simplifiers_on_random_programs() {
    let simplify = ["algebraic-simplifier", "reshape-mover", "cse", "dce"];
    let changed_cases = random_cases(99, 200, random_program, &simplify.repeat(3), |_, _| {});
    assert!(changed_cases >= 150, "only {changed_cases} of 200 programs changed");
}

/// HLO text of a random straight-line program on f32, s32 and pred arrays of
/// shapes [2,3], [3,2] and [6].
fn random_program(rng: &mut Rng) -> String {
    const SHAPES: [&str; 3] = ["[2,3]{1,0}", "[3,2]{1,0}", "[6]{0}"];
    const TYPES: [&str; 3] = ["f32", "s32", "pred"];
    let mut body = String::new();
    // (name, type index, shape index)
    let mut values: Vec<(String, usize, usize)> = Vec::new();
    let mut n = 0;
    let mut fresh = |prefix: &str| {
        n += 1;
        format!("{prefix}{n}")
    };
    for (i, t) in TYPES.iter().enumerate() {
        let name = format!("p{i}");
        body += &format!("  {name} = {t}[2,3]{{1,0}} parameter({i})\n");
        values.push((name, i, 0));
    }
    let constants: [&[&str]; 3] = [
        &["0", "-0", "1", "-1", "inf", "-inf", "nan", "2"],
        &["0", "1", "-1", "-2147483648", "2147483647", "3"],
        &["true", "false"],
    ];
    for _ in 0..14 {
        let pick = rng.below(10);
        let (t, sh) = (rng.below(3), rng.below(3));
        let ty = |t: usize, sh: usize| format!("{}{}", TYPES[t], SHAPES[sh]);
        let same: Vec<usize> = (0..values.len()).filter(|&i| values[i].1 == t && values[i].2 == sh).collect();
        let any = |rng: &mut Rng, v: &[usize]| v[rng.below(v.len())];
        match pick {
            // A splat of an interesting constant.
            0 | 1 => {
                let c = constants[t][rng.below(constants[t].len())];
                let (cn, bn) = (fresh("c"), fresh("b"));
                body += &format!("  {cn} = {}[] constant({c})\n", TYPES[t]);
                body += &format!("  {bn} = {} broadcast({cn}), dimensions={{}}\n", ty(t, sh));
                values.push((bn, t, sh));
            }
            // Reshape or transpose to another shape.
            2 | 3 => {
                let v = any(rng, &(0..values.len()).collect::<Vec<_>>());
                let (name, vt, vs) = values[v].clone();
                let to = (vs + 1 + rng.below(2)) % 3;
                let out = fresh("m");
                if vs != 2 && to != 2 && rng.below(2) == 0 {
                    body += &format!("  {out} = {} transpose({name}), dimensions={{1,0}}\n", ty(vt, to));
                } else {
                    body += &format!("  {out} = {} reshape({name})\n", ty(vt, to));
                }
                values.push((out, vt, to));
            }
            // A unary op.
            4 if !same.is_empty() => {
                let v = values[any(rng, &same)].0.clone();
                let ops: &[&str] = match t {
                    0 => &["negate", "abs", "exponential"],
                    1 => &["negate", "not", "abs"],
                    _ => &["not"],
                };
                let op = ops[rng.below(ops.len())];
                let out = fresh("u");
                body += &format!("  {out} = {} {op}({v})\n", ty(t, sh));
                values.push((out, t, sh));
            }
            // A conversion.
            5 if !same.is_empty() => {
                let v = values[any(rng, &same)].0.clone();
                let to = rng.below(3);
                let out = fresh("v");
                body += &format!("  {out} = {} convert({v})\n", ty(to, sh));
                values.push((out, to, sh));
            }
            // A compare and a select.
            6 if !same.is_empty() && t != 2 => {
                let (a, b) = (values[any(rng, &same)].0.clone(), values[any(rng, &same)].0.clone());
                let dirs = ["EQ", "NE", "LT", "LE", "GT", "GE"];
                let d = dirs[rng.below(6)];
                let (pn, sn) = (fresh("q"), fresh("s"));
                body += &format!("  {pn} = pred{} compare({a}, {b}), direction={d}\n", SHAPES[sh]);
                body += &format!("  {sn} = {} select({pn}, {a}, {b})\n", ty(t, sh));
                values.push((pn, 2, sh));
                values.push((sn, t, sh));
            }
            // A binary op.
            _ if !same.is_empty() => {
                let (a, b) = (values[any(rng, &same)].0.clone(), values[any(rng, &same)].0.clone());
                let ops: &[&str] = match t {
                    0 => &["add", "subtract", "multiply", "divide", "maximum", "minimum", "power"],
                    1 => &[
                        "add",
                        "subtract",
                        "multiply",
                        "divide",
                        "maximum",
                        "minimum",
                        "and",
                        "or",
                        "xor",
                        "shift-left",
                        "shift-right-logical",
                        "shift-right-arithmetic",
                    ],
                    _ => &["and", "or", "xor", "maximum", "minimum"],
                };
                let op = ops[rng.below(ops.len())];
                let out = fresh("e");
                body += &format!("  {out} = {} {op}({a}, {b})\n", ty(t, sh));
                values.push((out, t, sh));
            }
            _ => {}
        }
    }
    let last: Vec<&(String, usize, usize)> = values.iter().rev().take(4).collect();
    let shapes: Vec<String> = last.iter().map(|v| format!("{}{}", TYPES[v.1], SHAPES[v.2])).collect();
    let names: Vec<&str> = last.iter().map(|v| v.0.as_str()).collect();
    format!("HloModule r\n\nENTRY main {{\n{body}  ROOT t = ({}) tuple({})\n}}\n", shapes.join(", "), names.join(", "))
}
