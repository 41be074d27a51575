//! Corpus conformance of the kernel form: every case's module, through the
//! default pipeline, lowered to a program (`smelt_kernel::lower_module`) and run
//! by the kernel-form evaluator (`smelt_kernel::eval::run`), reproduces the
//! outputs XLA CPU computed, within the case's tolerances. This checks the
//! lowering, the kernel form's semantics and buffer assignment together (the
//! evaluator runs over the assigned offsets of one arena). Failures are collected
//! over all cases and reported together, each with its case, output and index.

use std::path::Path;

use smelt::case::{Case, compare_outputs};
use smelt_hlo::{Array, Literal, parse_module};
use smelt_passes::{Options, PassContext};

use crate::common::{Mutant, corpus_cases, integer_mutants};

fn run_case(dir: &Path) -> Result<(), String> {
    let case = Case::load(dir).map_err(|e| e.to_string())?;
    let text = std::fs::read_to_string(&case.module_path).map_err(|e| e.to_string())?;
    let mut module = parse_module(&text).map_err(|e| e.render("module.hlo"))?;
    let mut cx = PassContext::new(Options::default());
    smelt_passes::default_pipeline(&Options::default()).run_on(&mut module, &mut cx).map_err(|e| e.to_string())?;
    let program = smelt_kernel::lower_module(&module).map_err(|e| format!("lowering: {e}"))?;
    let inputs: Vec<Array> =
        case.load_inputs().map_err(|e| e.to_string())?.into_iter().flat_map(Literal::into_leaves).collect();
    let got = smelt_kernel::eval::run(&program, &inputs).map_err(|e| format!("evaluation: {e}"))?;
    let want = case.load_expected().map_err(|e| e.to_string())?;
    compare_outputs(&case, &got, &want)
}

#[test]
fn every_corpus_case_runs_in_the_kernel_form() {
    crate::common::check_every_case("", run_case);
}

/// Every corpus module as JAX wrote it (no pipeline: calls, unfused
/// instructions, dots in any form) lowers to a program that reproduces XLA's
/// outputs, or is refused with a lowering error naming the instruction; lowering
/// never panics.
#[test]
fn unoptimized_corpus_modules_lower_or_are_refused() {
    let mut failures = Vec::new();
    let mut lowered = 0;
    for dir in &corpus_cases() {
        let name = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let outcome = (|| -> Result<bool, String> {
            let case = Case::load(dir).map_err(|e| e.to_string())?;
            let text = std::fs::read_to_string(&case.module_path).map_err(|e| e.to_string())?;
            let module = parse_module(&text).map_err(|e| e.render("module.hlo"))?;
            let program = match smelt_kernel::lower_module(&module) {
                Ok(p) => p,
                Err(smelt_kernel::LowerError::Unsupported { .. }) => return Ok(false),
                Err(e) => return Err(e.to_string()),
            };
            let inputs: Vec<Array> =
                case.load_inputs().map_err(|e| e.to_string())?.into_iter().flat_map(Literal::into_leaves).collect();
            let got = smelt_kernel::eval::run(&program, &inputs).map_err(|e| format!("evaluation: {e}"))?;
            compare_outputs(&case, &got, &case.load_expected().map_err(|e| e.to_string())?)?;
            Ok(true)
        })();
        match outcome {
            Ok(ok) => lowered += ok as usize,
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    assert!(failures.is_empty(), "{} cases fail:\n{}", failures.len(), failures.join("\n"));
    eprintln!("{lowered} of {} unoptimized corpus modules lower", corpus_cases().len());
}

/// Optimized corpus modules with one integer of their text replaced (sizes,
/// indices, attribute values): whatever still verifies must lower or be refused
/// with an error, never panic; and what lowers computes what the interpreter
/// computes (on random inputs, when it runs in reasonable time and space).
#[test]
fn mutated_optimized_modules_never_panic_the_lowering() {
    const REPLACEMENTS: [&str; 7] = ["0", "1", "2", "-1", "3", "5", "1000000"];
    let mut rng = smelt_hlo::random::SplitMix::new(0x9e37_79b9_7f4a_7c15);
    let (mut verified, mut lowered, mut compared) = (0, 0, 0);
    let mut failures = Vec::new();
    for dir in &corpus_cases() {
        let name = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let text = std::fs::read_to_string(dir.join("module.hlo")).unwrap();
        let mut module = parse_module(&text).unwrap();
        let mut cx = PassContext::new(Options::default());
        smelt_passes::default_pipeline(&Options::default()).run_on(&mut module, &mut cx).unwrap();
        let text = smelt_hlo::print_module(&module);
        for Mutant { text: mutated, range, replacement } in integer_mutants(&text, &REPLACEMENTS, 40, false, &mut rng) {
            let Ok(m) = parse_module(&mutated) else { continue };
            if smelt_hlo::verify(&m).is_err() {
                continue;
            }
            verified += 1;
            let what = format!("{name}: replacing byte {} with {replacement}", range.start);
            let program = match std::panic::catch_unwind(|| smelt_kernel::lower_module(&m)) {
                Ok(Ok(p)) => p,
                Ok(Err(_)) => continue,
                Err(_) => {
                    failures.push(format!("{what}: lowering panicked"));
                    continue;
                }
            };
            lowered += 1;
            if program.temp_bytes > 1 << 24 || program.params.iter().any(|t| t.byte_size() > 1 << 24) {
                continue;
            }
            let Ok(args) = smelt::hlo::random::random_inputs(&m.entry().param_shapes()) else { continue };
            let limits = smelt_interp::Options { max_while_iterations: Some(1000), ..Default::default() };
            let Ok(want) = smelt_interp::evaluate_with(&m, m.entry, &args, &limits) else { continue };
            let flat: Vec<Array> = args.into_iter().flat_map(Literal::into_leaves).collect();
            compared += 1;
            match smelt_kernel::eval::run(&program, &flat) {
                Ok(got) => {
                    for (k, (g, w)) in got.iter().zip(want.into_leaves()).enumerate() {
                        let agree = g.dims == w.dims
                            && (0..g.len()).all(|i| {
                                let (a, b) = (g.data.get_f64(i), w.data.get_f64(i));
                                a.to_bits() == b.to_bits() || a.is_nan() && b.is_nan()
                            });
                        if !agree {
                            failures.push(format!("{what}: result {k} differs from the interpreter"));
                            break;
                        }
                    }
                }
                Err(e) => failures.push(format!("{what}: {e}")),
            }
        }
    }
    assert!(failures.is_empty(), "{} mutations fail:\n{}", failures.len(), failures.join("\n"));
    eprintln!("{lowered} of {verified} mutated modules that verify lower, {compared} compared with the interpreter");
}
