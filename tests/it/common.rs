//! Shared helpers: where the corpus is and how to list it.

use std::path::{Path, PathBuf};

pub fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus")
}

/// Every case folder of the corpus, sorted by name.
pub fn corpus_cases() -> Vec<PathBuf> {
    let mut cases: Vec<PathBuf> = std::fs::read_dir(corpus_dir())
        .expect("tests/corpus exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("module.hlo").is_file())
        .collect();
    cases.sort();
    cases
}

/// Every HLO text file of the corpus (module.hlo and module.opt.hlo of each case).
pub fn corpus_hlo_files() -> Vec<PathBuf> {
    corpus_cases()
        .into_iter()
        .flat_map(|c| [c.join("module.hlo"), c.join("module.opt.hlo")])
        .filter(|p| p.is_file())
        .collect()
}
