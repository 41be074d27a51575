//! The compiled backends (LLVM and Cranelift) against XLA's outputs on the whole
//! corpus, through the same engine `smelt check --backend cpu|cranelift` uses.

use smelt::case::{Case, compare_outputs};
use smelt::engine::{Compiled, Pipeline};

use crate::common::corpus_cases;

fn corpus_on(backend: &str) {
    let mut failures = Vec::new();
    for dir in corpus_cases() {
        let case = Case::load(&dir).unwrap();
        let text = std::fs::read_to_string(&case.module_path).unwrap();
        let module = smelt_hlo::parse_module(&text).unwrap();
        let outcome = Compiled::new(module, backend, Pipeline::Default)
            .map_err(|e| e.to_string())
            .and_then(|c| c.run(&case.load_inputs().unwrap()).map_err(|e| e.to_string()))
            .and_then(|got| compare_outputs(&case, &got, &case.load_expected().unwrap()));
        if let Err(e) = outcome {
            failures.push(format!("{}: {e}", case.name));
        }
    }
    assert!(failures.is_empty(), "{} cases failed on {}:\n{}", failures.len(), backend, failures.join("\n"));
}

#[test]
fn every_corpus_case_matches_xla_on_the_cpu_backend() {
    corpus_on("cpu");
}

#[test]
fn every_corpus_case_matches_xla_on_the_cranelift_backend() {
    corpus_on("cranelift");
}
