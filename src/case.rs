//! Case folders in the corpus layout, and comparing results with reference outputs.
//!
//! A case folder holds `module.hlo` (or another module file: `--module NAME`
//! picks, e.g. `module.stablehlo.mlir`), `in0.npy ...` (one per entry parameter),
//! optionally `out0.npy ...` (the reference outputs, tuple flattened) and `case.json`
//! (dtypes, per-output tolerances). `smelt check`, `smelt run` and `smelt bench`
//! all read this layout, and the tests use the same loading and comparison code.

use std::path::{Path, PathBuf};

use smelt_hlo::npy::{self, NpyError};
use smelt_hlo::{Array, ArrayData, DType, Literal};

#[derive(Debug, thiserror::Error)]
pub enum CaseError {
    #[error("{0}: not a case folder (no {1})")]
    NotACase(String, String),
    #[error("{path}: {message}")]
    Json { path: String, message: String },
    #[error(transparent)]
    Npy(#[from] NpyError),
    #[error("{0}: cannot read folder: {1}")]
    Dir(String, std::io::Error),
}

/// What `case.json` says about one reference output.
#[derive(Clone, Debug)]
pub struct OutputSpec {
    pub path: PathBuf,
    pub dtype: Option<DType>,
    pub rtol: f64,
    pub atol: f64,
}

/// One case folder.
#[derive(Clone, Debug)]
pub struct Case {
    pub name: String,
    pub dir: PathBuf,
    pub module_path: PathBuf,
    /// `in<i>.npy` with the dtype `case.json` gives (bf16 files hold u16 bits).
    pub inputs: Vec<(PathBuf, Option<DType>)>,
    pub outputs: Vec<OutputSpec>,
}

/// The module file of a case folder unless told otherwise.
pub const DEFAULT_MODULE: &str = "module.hlo";

/// Tolerance when a case has no `case.json`.
pub const DEFAULT_TOLERANCE: f64 = 1e-5;

impl Case {
    /// The case in `dir` with its module in `module.hlo`.
    pub fn load(dir: &Path) -> Result<Case, CaseError> {
        Case::load_named(dir, DEFAULT_MODULE)
    }

    /// The case in `dir` with its module in the file `module` (`module.pb`,
    /// `module.stablehlo.mlir`, ...).
    pub fn load_named(dir: &Path, module: &str) -> Result<Case, CaseError> {
        let module_path = dir.join(module);
        if !module_path.is_file() {
            return Err(CaseError::NotACase(dir.display().to_string(), module.to_string()));
        }
        let name = dir
            .canonicalize()
            .ok()
            .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_else(|| dir.display().to_string());
        let json_path = dir.join("case.json");
        let json: Option<serde_json::Value> = if json_path.is_file() {
            let text = std::fs::read_to_string(&json_path)
                .map_err(|e| CaseError::Json { path: json_path.display().to_string(), message: e.to_string() })?;
            Some(
                serde_json::from_str(&text)
                    .map_err(|e| CaseError::Json { path: json_path.display().to_string(), message: e.to_string() })?,
            )
        } else {
            None
        };
        let dtype_of = |v: &serde_json::Value| v.get("dtype").and_then(|d| d.as_str()).and_then(|d| d.parse().ok());
        let numbered = |prefix: &str| -> Vec<PathBuf> {
            (0..).map(|i| dir.join(format!("{prefix}{i}.npy"))).take_while(|p| p.is_file()).collect()
        };
        let json_list = |key: &str| -> Vec<serde_json::Value> {
            json.as_ref().and_then(|j| j.get(key)).and_then(|v| v.as_array()).cloned().unwrap_or_default()
        };
        let input_specs = json_list("inputs");
        let inputs =
            numbered("in").into_iter().enumerate().map(|(i, p)| (p, input_specs.get(i).and_then(dtype_of))).collect();
        let case_tol = json.as_ref().and_then(|j| j.get("tolerance"));
        let tol = |v: Option<&serde_json::Value>, key: &str| v.and_then(|t| t.get(key)).and_then(|x| x.as_f64());
        let output_specs = json_list("outputs");
        let outputs = numbered("out")
            .into_iter()
            .enumerate()
            .map(|(i, path)| {
                let spec = output_specs.get(i);
                OutputSpec {
                    path,
                    dtype: spec.and_then(dtype_of),
                    rtol: tol(spec, "rtol").or(tol(case_tol, "rtol")).unwrap_or(DEFAULT_TOLERANCE),
                    atol: tol(spec, "atol").or(tol(case_tol, "atol")).unwrap_or(DEFAULT_TOLERANCE),
                }
            })
            .collect();
        Ok(Case { name, dir: dir.to_path_buf(), module_path, inputs, outputs })
    }

    pub fn load_inputs(&self) -> Result<Vec<Literal>, CaseError> {
        self.inputs.iter().map(|(p, dtype)| Ok(Literal::Array(npy::read(p, *dtype)?))).collect()
    }

    pub fn load_expected(&self) -> Result<Vec<Array>, CaseError> {
        self.outputs.iter().map(|o| Ok(npy::read(&o.path, o.dtype)?)).collect()
    }
}

/// Expands PATHs into case folders: a case folder itself, or the case folders
/// directly inside a folder (sorted by name). A case folder holds the file `module`.
pub fn find_cases(paths: &[PathBuf], module: &str) -> Result<Vec<PathBuf>, CaseError> {
    let mut out = Vec::new();
    for p in paths {
        if p.join(module).is_file() {
            out.push(p.clone());
            continue;
        }
        let entries = std::fs::read_dir(p).map_err(|e| CaseError::Dir(p.display().to_string(), e))?;
        let mut cases: Vec<PathBuf> =
            entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|c| c.join(module).is_file()).collect();
        if cases.is_empty() {
            return Err(CaseError::NotACase(p.display().to_string(), module.to_string()));
        }
        cases.sort();
        out.extend(cases);
    }
    Ok(out)
}

/// The first element where `got` differs from `want` beyond tolerance.
#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch {
    pub message: String,
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// Compares elementwise: `|got - want| <= atol + rtol * |want|` for floats, NaN
/// matches NaN, infinities match exactly; integers and pred match exactly.
pub fn compare(got: &Array, want: &Array, rtol: f64, atol: f64) -> Result<(), Mismatch> {
    if got.dims != want.dims || got.dtype() != want.dtype() {
        return Err(Mismatch { message: format!("shape {} differs from expected {}", got.shape(), want.shape()) });
    }
    let index_of = |flat: usize| -> String {
        let mut idx = vec![0i64; got.dims.len()];
        let mut rem = flat as i64;
        for d in (0..got.dims.len()).rev() {
            let n = got.dims[d].max(1);
            idx[d] = rem % n;
            rem /= n;
        }
        format!("{idx:?}")
    };
    if want.dtype().is_float() {
        for i in 0..got.len() {
            let (g, w) = (got.data.get_f64(i), want.data.get_f64(i));
            let ok = if w.is_nan() {
                g.is_nan()
            } else if w.is_infinite() || g.is_infinite() || g.is_nan() {
                g == w
            } else {
                (g - w).abs() <= atol + rtol * w.abs()
            };
            if !ok {
                return Err(Mismatch { message: format!("index {}: got {g}, want {w}", index_of(i)) });
            }
        }
    } else {
        let exact =
            |d: &ArrayData, i: usize| -> i128 { smelt_hlo::with_data!(d, v => smelt_hlo::Element::to_i128(v[i])) };
        for i in 0..got.len() {
            let (g, w) = (exact(&got.data, i), exact(&want.data, i));
            if g != w {
                return Err(Mismatch { message: format!("index {}: got {g}, want {w}", index_of(i)) });
            }
        }
    }
    Ok(())
}

/// Compares every output of a run with the references; names the first mismatch.
pub fn compare_outputs(case: &Case, got: &[Array], want: &[Array]) -> Result<(), String> {
    if got.len() != want.len() {
        return Err(format!("produced {} outputs, expected {}", got.len(), want.len()));
    }
    for (k, ((g, w), spec)) in got.iter().zip(want).zip(&case.outputs).enumerate() {
        compare(g, w, spec.rtol, spec.atol).map_err(|m| format!("output {k}: {m}"))?;
    }
    Ok(())
}

/// The largest `|got - want|` over every element of every output, NaN pairs and
/// equal infinities counting as 0 (the same matches as [`compare`]); for
/// reporting how close a run came, after [`compare_outputs`] has judged it.
pub fn max_abs_error(got: &[Array], want: &[Array]) -> f64 {
    let mut max = 0.0f64;
    for (g, w) in got.iter().zip(want) {
        for i in 0..g.len().min(w.len()) {
            let (a, b) = (g.data.get_f64(i), w.data.get_f64(i));
            let e = if (a.is_nan() && b.is_nan()) || a == b { 0.0 } else { (a - b).abs() };
            max = max.max(e);
        }
    }
    max
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tolerance_and_special_values() {
        let want = Array::from_vec([4], vec![1.0f32, f32::NAN, f32::INFINITY, 0.0]);
        let ok = Array::from_vec([4], vec![1.00001f32, f32::NAN, f32::INFINITY, 1e-7]);
        assert_eq!(compare(&ok, &want, 1e-4, 1e-6), Ok(()));
        let bad = Array::from_vec([4], vec![1.0f32, 0.0, f32::INFINITY, 0.0]);
        let e = compare(&bad, &want, 1e-4, 1e-6).unwrap_err();
        assert_eq!(e.message, "index [1]: got 0, want NaN");
        let ints = Array::from_vec([2, 2], vec![1i32, 2, 3, 4]);
        let other = Array::from_vec([2, 2], vec![1i32, 2, 3, 5]);
        assert_eq!(compare(&other, &ints, 1.0, 1.0).unwrap_err().message, "index [1, 1]: got 5, want 4");
    }

    #[test]
    fn max_abs_error_ignores_matching_specials() {
        let want = Array::from_vec([3], vec![1.0f32, f32::NAN, f32::INFINITY]);
        let got = Array::from_vec([3], vec![1.25f32, f32::NAN, f32::INFINITY]);
        assert_eq!(max_abs_error(&[got], std::slice::from_ref(&want)), 0.25);
        assert_eq!(max_abs_error(std::slice::from_ref(&want), std::slice::from_ref(&want)), 0.0);
    }
}
