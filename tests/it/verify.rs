//! The verifier over the corpus: every module JAX and XLA produced verifies, and
//! mutated modules are rejected (or accepted) without a panic.

use smelt_hlo::{parse_module, verify};

use crate::common::{Mutant, corpus_hlo_files, integer_mutants};

#[test]
fn every_corpus_file_verifies() {
    let files = corpus_hlo_files();
    assert_eq!(files.len(), 2 * crate::common::CORPUS_CASES, "every corpus case has two HLO files");
    let mut failures = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let module = parse_module(&text).unwrap_or_else(|e| panic!("{}", e.render(&path.display().to_string())));
        if let Err(e) = verify(&module) {
            failures.push(format!("{}: {e}", path.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Replaces one integer of the text (a dimension, an attribute, a parameter number,
/// a constant element) with an extreme or off-by-one value, many times per file:
/// parsing and verifying the result must never panic, and the verifier must reject
/// a good share of what still parses.
#[test]
fn mutated_corpus_modules_never_panic() {
    const REPLACEMENTS: [&str; 8] =
        ["0", "1", "2", "-1", "7", "1000000000000000000", "9223372036854775807", "-9223372036854775808"];
    let mut rng = smelt_hlo::random::SplitMix::new(0x2545_f491_4f6c_dd1d);
    let (mut parsed, mut rejected) = (0, 0);
    for path in corpus_hlo_files() {
        let text = std::fs::read_to_string(&path).unwrap();
        for Mutant { text: mutated, range, replacement } in integer_mutants(&text, &REPLACEMENTS, 40, true, &mut rng) {
            let outcome = std::panic::catch_unwind(|| parse_module(&mutated).ok().map(|m| verify(&m).is_ok()));
            match outcome {
                Ok(Some(ok)) => {
                    parsed += 1;
                    rejected += usize::from(!ok);
                }
                Ok(None) => {}
                Err(_) => panic!(
                    "{}: panicked after replacing {:?} at byte {} with {replacement}",
                    path.display(),
                    &text[range.clone()],
                    range.start
                ),
            }
        }
    }
    assert!(rejected * 4 >= parsed, "the verifier rejected only {rejected} of {parsed} mutated modules");
}
