//! Shared helpers: where the corpus is, how to list it, and how to mutate its
//! text for fuzzing.

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

/// The corpus: 44 cases from the shared corpus, 31 from
/// `scripts/unseen_cases.py` and 22 from `scripts/api_cases.py` (sets `api`
/// and, generated with x64 on, `api64`).
pub const CORPUS_CASES: usize = 97;

/// Whether a case checks XLA CPU's floating-point environment (subnormals
/// flushed; its name starts with `fpenv_`). The GPU backends compute with
/// subnormals, as XLA's GPU backend does by default, so XLA CPU's outputs for
/// these cases are not theirs to match.
pub fn checks_cpu_fpenv(case_dir: &Path) -> bool {
    case_dir.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("fpenv_"))
}

/// The library routines a case's `module.hlo` calls: its custom-call targets
/// (from its `case.json`) and the `smelt_fft` targets its `fft`s become
/// (`smelt_hlo::complex`). Such cases run on the host backends only, and the
/// GPU backend and `smelt aot` must refuse them naming one.
pub fn custom_call_targets(case_dir: &Path) -> Vec<String> {
    let json = std::fs::read_to_string(case_dir.join("case.json"))
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .unwrap_or_default();
    let names = json["custom_call_targets"]["module.hlo"].as_array().cloned().unwrap_or_default();
    let mut targets: Vec<String> = names.iter().filter_map(|v| v.as_str().map(str::to_string)).collect();
    let text = std::fs::read_to_string(case_dir.join("module.hlo")).unwrap_or_default();
    for kind in text.split("fft_type=").skip(1).filter_map(|rest| rest.split([',', ' ', '\n']).next()) {
        if let Some(kind) = smelt_hlo::attrs::FftKind::from_name(kind) {
            targets.push(smelt_hlo::complex::fft_target(kind).to_string());
        }
    }
    targets.sort();
    targets.dedup();
    targets
}

/// Whether `error` refuses one of `targets` by name.
pub fn names_a_target(error: &str, targets: &[String]) -> bool {
    targets.iter().any(|t| error.contains(&format!("custom-call target \"{t}\"")))
}

/// Runs `check` on every corpus case ([`CORPUS_CASES`]), printing those that take
/// over 2 s, and fails listing every failure as `<case><suffix>: <error>`.
pub fn check_every_case(suffix: &str, check: impl Fn(&Path) -> Result<(), String>) {
    let cases = corpus_cases();
    assert_eq!(cases.len(), CORPUS_CASES, "the corpus has {CORPUS_CASES} cases");
    let mut failures = Vec::new();
    for case in &cases {
        let name = case.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let start = std::time::Instant::now();
        let outcome = check(case);
        let secs = start.elapsed().as_secs_f64();
        if secs > 2.0 {
            eprintln!("{name}{suffix}: {secs:.1}s");
        }
        if let Err(e) = outcome {
            failures.push(format!("{name}{suffix}: {e}"));
        }
    }
    assert!(failures.is_empty(), "{} of {} cases fail:\n{}", failures.len(), cases.len(), failures.join("\n"));
}

/// Every HLO text file of the corpus (module.hlo and module.opt.hlo of each case).
pub fn corpus_hlo_files() -> Vec<PathBuf> {
    corpus_cases()
        .into_iter()
        .flat_map(|c| [c.join("module.hlo"), c.join("module.opt.hlo")])
        .filter(|p| p.is_file())
        .collect()
}

/// One mutant of an HLO text: integer `range` of `text` replaced by `replacement`.
pub struct Mutant {
    pub text: String,
    pub range: std::ops::Range<usize>,
    pub replacement: &'static str,
}

/// `count` mutants of `text`, each with one integer (a dimension, an attribute
/// value, a parameter number, a constant element; the digits of a fraction
/// too when `fractions`) replaced by one of `replacements`, both drawn from `rng`.
pub fn integer_mutants(
    text: &str,
    replacements: &[&'static str],
    count: usize,
    fractions: bool,
    rng: &mut smelt_hlo::random::SplitMix,
) -> Vec<Mutant> {
    let bytes = text.as_bytes();
    let mut numbers = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit()
            && (i == 0 || !bytes[i - 1].is_ascii_alphanumeric() && (fractions || bytes[i - 1] != b'.'))
        {
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            numbers.push(start..i);
        } else {
            i += 1;
        }
    }
    if numbers.is_empty() {
        return Vec::new();
    }
    (0..count)
        .map(|_| {
            let range = numbers[rng.below(numbers.len())].clone();
            let replacement = replacements[rng.below(replacements.len())];
            let text = format!("{}{replacement}{}", &text[..range.start], &text[range.end..]);
            Mutant { text, range, replacement }
        })
        .collect()
}
