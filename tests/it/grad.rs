//! `smelt grad` against JAX: every case of `tests/grad` (written by
//! `scripts/gen_grad_cases.py`) holds a forward module (`forward.hlo`, a scalar
//! loss), the parameters to differentiate (`grad_wrt` in `case.json`) and the
//! loss and gradients XLA computed for JAX's `value_and_grad` of the same
//! function. smelt's gradient module of the forward one must reproduce them on
//! the interpreter and on the compiled backends.

use std::path::{Path, PathBuf};

use smelt::case::{Case, compare_outputs};
use smelt::engine::{Compiled, Pipeline};

fn grad_cases() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/grad");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("tests/grad exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("forward.hlo").is_file())
        .collect();
    cases.sort();
    cases
}

/// The gradient module of a case's forward module.
fn gradient_module(dir: &Path) -> Result<smelt_hlo::Module, String> {
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("case.json")).map_err(|e| e.to_string())?)
            .map_err(|e| e.to_string())?;
    let wrt: Vec<u32> = meta["grad_wrt"]
        .as_array()
        .ok_or("grad_wrt missing")?
        .iter()
        .map(|v| v.as_u64().map(|n| n as u32).ok_or("grad_wrt holds a non-number"))
        .collect::<Result<_, _>>()?;
    let text = std::fs::read_to_string(dir.join("forward.hlo")).map_err(|e| e.to_string())?;
    let forward = smelt_hlo::parse_module(&text).map_err(|e| e.to_string())?;
    smelt_passes::grad(&forward, &wrt).map_err(|e| e.to_string())
}

fn grads_on(backend: &str) {
    let cases = grad_cases();
    assert!(cases.len() >= 10, "tests/grad has {} cases", cases.len());
    let mut failures = Vec::new();
    for dir in &cases {
        let case = Case::load_named(dir, "forward.hlo").unwrap();
        let outcome = gradient_module(dir)
            .and_then(|m| Compiled::new(m, backend, Pipeline::Default).map_err(|e| e.to_string()))
            .and_then(|c| c.run(&case.load_inputs().unwrap()).map_err(|e| e.to_string()))
            .and_then(|got| compare_outputs(&case, &got, &case.load_expected().unwrap()));
        if let Err(e) = outcome {
            failures.push(format!("{}: {e}", case.name));
        }
    }
    assert!(failures.is_empty(), "{} gradient cases failed on {backend}:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn gradients_match_jax_on_the_interpreter() {
    grads_on("interp");
}

#[test]
fn gradients_match_jax_on_the_cpu_backend() {
    grads_on("cpu");
}
