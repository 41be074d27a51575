//! Robustness: mutated corpus text must give errors, never panics, from the parser
//! and the verifier. A fixed seed makes failures reproducible; the mutation that
//! broke is printed.

use std::panic::{AssertUnwindSafe, catch_unwind};

use smelt::hlo::random::SplitMix;
use smelt_hlo::{parse_module, verify};

use crate::common::corpus_hlo_files;

const MUTATIONS: usize = 10_000;

/// Splits text into tokens: runs of identifier characters, runs of whitespace, and
/// single punctuation characters. Joining the tokens gives the text back.
fn tokens(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let class = |c: char| {
        if c.is_alphanumeric() || matches!(c, '_' | '.' | '-' | '%') {
            0
        } else if c.is_whitespace() {
            1
        } else {
            2
        }
    };
    let mut prev: Option<u8> = None;
    for (i, c) in text.char_indices() {
        let k = class(c);
        if let Some(p) = prev
            && (p != k || k == 2)
        {
            out.push(&text[start..i]);
            start = i;
        }
        prev = Some(k);
    }
    if start < text.len() {
        out.push(&text[start..]);
    }
    out
}

/// One random mutation of `text`, and a description of it.
fn mutate(text: &str, rng: &mut SplitMix) -> (String, String) {
    let toks = tokens(text);
    let n = toks.len().max(1);
    let pick = |rng: &mut SplitMix| rng.below(n);
    let join = |t: &[&str]| t.concat();
    match rng.below(7) {
        0 => {
            let mut cut = rng.below(text.len().max(1));
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            (text[..cut].to_string(), format!("truncate at byte {cut}"))
        }
        1 => {
            let i = pick(rng);
            let mut t = toks.clone();
            t.remove(i.min(t.len().saturating_sub(1)));
            (join(&t), format!("delete token {i}"))
        }
        2 => {
            let i = pick(rng).min(toks.len().saturating_sub(1));
            let mut t = toks.clone();
            if let Some(&tok) = t.get(i) {
                t.insert(i, tok);
            }
            (join(&t), format!("duplicate token {i}"))
        }
        3 => {
            let (i, j) = (pick(rng), pick(rng));
            let mut t = toks.clone();
            if i < t.len() && j < t.len() {
                t.swap(i, j);
            }
            (join(&t), format!("swap tokens {i} and {j}"))
        }
        4 => {
            let mut bytes = text.as_bytes().to_vec();
            let i = rng.below(bytes.len().max(1));
            if let Some(b) = bytes.get_mut(i) {
                *b ^= 1 << rng.below(8);
            }
            (String::from_utf8_lossy(&bytes).into_owned(), format!("flip a bit of byte {i}"))
        }
        5 => {
            // Replace a number with an extreme one: overflow and huge-allocation checks.
            let numeric: Vec<usize> =
                (0..toks.len()).filter(|&i| toks[i].bytes().all(|b| b.is_ascii_digit())).collect();
            let extremes = ["0", "-1", "4294967296", "9223372036854775807", "99999999999999999999", "1000000"];
            let mut t = toks.clone();
            let e = extremes[rng.below(extremes.len())];
            if !numeric.is_empty() {
                let i = numeric[rng.below(numeric.len())];
                t[i] = e;
                (join(&t), format!("number token {i} -> {e}"))
            } else {
                (join(&t), "no numbers".into())
            }
        }
        _ => {
            // Replace a token with another token of the same file.
            let (i, j) = (pick(rng), pick(rng));
            let mut t = toks.clone();
            if i < t.len() && j < toks.len() {
                t[i] = toks[j];
            }
            (join(&t), format!("token {i} replaced by token {j}"))
        }
    }
}

#[test]
fn mutated_corpus_text_never_panics() {
    let files: Vec<(String, String)> = corpus_hlo_files()
        .into_iter()
        .map(|p| (p.display().to_string(), std::fs::read_to_string(&p).unwrap()))
        .collect();
    // Weight toward small files so the run stays short; every file still gets picked.
    let mut order: Vec<usize> = (0..files.len()).collect();
    order.sort_by_key(|&i| files[i].1.len());
    let mut rng = SplitMix(0x5eed_f00d);
    let (mut parse_errors, mut verify_errors, mut valid) = (0, 0, 0);
    // Silence the default hook: a panic is reported below with the mutation.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let mut failures = Vec::new();
    for k in 0..MUTATIONS {
        let idx = if k < files.len() {
            order[k]
        } else {
            let bound = rng.below(files.len()) + 1;
            order[rng.below(bound)]
        };
        let (name, text) = &files[idx];
        let (mutated, what) = mutate(text, &mut rng);
        let outcome = catch_unwind(AssertUnwindSafe(|| match parse_module(&mutated) {
            Err(e) => {
                assert!(e.line >= 1 && e.col >= 1);
                0
            }
            Ok(m) => match verify(&m) {
                Err(_) => 1,
                Ok(_) => 2,
            },
        }));
        match outcome {
            Ok(0) => parse_errors += 1,
            Ok(1) => verify_errors += 1,
            Ok(_) => valid += 1,
            Err(_) => failures.push(format!("{name}: {what}")),
        }
    }
    std::panic::set_hook(hook);
    assert!(
        failures.is_empty(),
        "{} mutations panicked, e.g.:\n{}",
        failures.len(),
        failures[..failures.len().min(10)].join("\n")
    );
    assert_eq!(parse_errors + verify_errors + valid, MUTATIONS);
    // The mutations reach both the parser's and the verifier's error paths.
    assert!(parse_errors > 1000 && verify_errors > 100, "parse {parse_errors}, verify {verify_errors}, valid {valid}");
}

#[test]
fn tokens_join_back_to_the_text() {
    let text = "  x.1 = f32[4,8]{1,0} add(a, b), metadata={op_name=\"a b\"}\n";
    assert_eq!(tokens(text).concat(), text);
}
