//! The text format's round trip over every corpus file: parsing the canonical
//! print gives the same module, and printing is idempotent.

use smelt_hlo::{parse_module, print_module};

use crate::common::corpus_hlo_files;

#[test]
fn every_corpus_file_round_trips() {
    let files = corpus_hlo_files();
    assert_eq!(files.len(), 2 * crate::common::CORPUS_CASES, "every corpus case has two HLO files");
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let parsed = parse_module(&text).unwrap_or_else(|e| panic!("{}", e.render(&path.display().to_string())));
        let printed = print_module(&parsed);
        let reparsed =
            parse_module(&printed).unwrap_or_else(|e| panic!("reparse of {}: {}", path.display(), e.render("printed")));
        assert!(reparsed == parsed, "{}: parse(print(parse(t))) != parse(t)", path.display());
        assert_eq!(print_module(&reparsed), printed, "{}: printing is not idempotent", path.display());
    }
}

/// JAX's unoptimized dumps are already in XLA's canonical spelling, and smelt's
/// printer reproduces it byte for byte.
#[test]
fn unoptimized_corpus_modules_print_byte_identical() {
    for case in crate::common::corpus_cases() {
        let path = case.join("module.hlo");
        let text = std::fs::read_to_string(&path).unwrap();
        let printed = print_module(&parse_module(&text).unwrap());
        assert!(printed == text, "{}: canonical print differs from XLA's text", path.display());
    }
}
