//! The memory budget: the one rule for how large the buffers that a program's
//! sizes ask for may be. Programs are checked against it before anything is
//! allocated for them (the kernel verifier checks every compiled program's
//! parameters, results, constants and temporaries; `smelt run` and `smelt bench`
//! check the random inputs they make), so a program too large for the machine
//! is refused with an error naming the buffer and its size instead of aborting
//! the process when an allocation fails.
//!
//! The budget is `SMELT_MAX_MEMORY` when set (bytes, or a number with a `K`,
//! `M`, `G` or `T` suffix, powers of 1024), else the memory the system reports
//! available when first asked (`MemAvailable` in `/proc/meminfo`), else 1 TiB
//! where the system does not say.
//!
//! The compile budget bounds the work one compilation may do, so that a
//! program cannot hold a JIT that serves requests for minutes: the module's
//! instruction count (`SMELT_MAX_INSTRUCTIONS`, checked before the middle
//! end), the kernel form's size (`SMELT_MAX_KERNEL_OPS`, checked by the kernel
//! verifier every backend calls) and the wall time (`SMELT_COMPILE_TIMEOUT`
//! seconds, checked between passes and between a backend's stages).

use std::fmt;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use crate::dtype::DType;

/// The environment variable that sets the budget.
pub const ENV: &str = "SMELT_MAX_MEMORY";

/// Where the budget came from, for error messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// `SMELT_MAX_MEMORY`.
    Env,
    /// The system's available memory.
    Available,
    /// Neither: the fallback.
    Default,
    /// The program that uses smelt (`ClientOptions::limits`).
    Given,
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Origin::Env => "set by SMELT_MAX_MEMORY",
            Origin::Available => "the memory available; SMELT_MAX_MEMORY sets another",
            Origin::Default => "the default; SMELT_MAX_MEMORY sets another",
            Origin::Given => "set by the caller",
        })
    }
}

#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum BudgetError {
    #[error("{what}: {bytes} bytes, more than the memory budget of {budget} bytes ({origin})")]
    Over { what: String, bytes: u128, budget: u64, origin: Origin },
    #[error("SMELT_MAX_MEMORY={0:?} is not a size (bytes, or a number with a K, M, G or T suffix)")]
    BadSetting(String),
    #[error("{what}: {count} {unit}, more than the compile budget of {limit} ({knob} sets another)")]
    TooBig { what: String, count: usize, unit: &'static str, limit: usize, knob: &'static str },
    #[error(
        "compile time: {elapsed_ms:.1} ms at the end of {stage}, more than the compile budget of {limit_ms:.1} ms \
         (SMELT_COMPILE_TIMEOUT sets another, in seconds; 0 for none)"
    )]
    OutOfTime { stage: String, elapsed_ms: f64, limit_ms: f64 },
    #[error("{var}={text:?} is not a number")]
    BadNumber { var: &'static str, text: String },
}

/// A memory budget: bytes and where the number came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoryBudget {
    pub bytes: u64,
    pub origin: Origin,
}

impl MemoryBudget {
    /// A budget a caller chose (`ClientOptions`).
    pub fn new(bytes: u64) -> MemoryBudget {
        MemoryBudget { bytes, origin: Origin::Given }
    }

    /// `SMELT_MAX_MEMORY`, else the available memory, else 1 TiB.
    pub fn from_env() -> Result<MemoryBudget, BudgetError> {
        if let Ok(text) = std::env::var(ENV) {
            let bytes = parse_size(&text).ok_or(BudgetError::BadSetting(text))?;
            return Ok(MemoryBudget { bytes, origin: Origin::Env });
        }
        Ok(match available_memory() {
            Some(bytes) => MemoryBudget { bytes, origin: Origin::Available },
            None => MemoryBudget { bytes: 1 << 40, origin: Origin::Default },
        })
    }

    /// Checks that `bytes` fit; `what` names the buffer (called only for the error).
    pub fn check(&self, bytes: u128, what: impl FnOnce() -> String) -> Result<(), BudgetError> {
        if bytes <= u128::from(self.bytes) {
            return Ok(());
        }
        Err(BudgetError::Over { what: what(), bytes, budget: self.bytes, origin: self.origin })
    }

    /// Checks that arrays of the given dimensions and element types fit
    /// together; `what` names them (called only for the error).
    pub fn check_arrays<'a>(
        &self,
        arrays: impl IntoIterator<Item = (&'a [i64], DType)>,
        what: impl FnOnce() -> String,
    ) -> Result<(), BudgetError> {
        let total = arrays.into_iter().map(|(dims, t)| array_bytes(dims, t.byte_size())).fold(0, u128::saturating_add);
        self.check(total, what)
    }
}

/// The memory and compile budgets together: what a compilation is checked
/// against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub memory: MemoryBudget,
    pub compile: CompileBudget,
}

impl Limits {
    /// Both budgets from their environment variables and defaults.
    pub fn from_env() -> Result<Limits, BudgetError> {
        Ok(Limits { memory: MemoryBudget::from_env()?, compile: CompileBudget::from_env()? })
    }
}

/// [`MemoryBudget::check_arrays`] against the environment's budget.
pub fn check_arrays<'a>(
    arrays: impl IntoIterator<Item = (&'a [i64], DType)>,
    what: impl FnOnce() -> String,
) -> Result<(), BudgetError> {
    MemoryBudget::from_env()?.check_arrays(arrays, what)
}

/// [`MemoryBudget::check`] against the environment's budget.
pub fn check(bytes: u128, what: impl FnOnce() -> String) -> Result<(), BudgetError> {
    MemoryBudget::from_env()?.check(bytes, what)
}

/// The bytes of `elements` elements of `element_bytes` bytes each, never
/// overflowing (a negative dimension counts as 0).
pub fn array_bytes(dims: &[i64], element_bytes: usize) -> u128 {
    dims.iter().fold(element_bytes as u128, |n, &d| n.saturating_mul(d.max(0) as u128))
}

/// `4096`, `512K`, `3G`, `1.5T` (powers of 1024; fractions allowed with a suffix).
pub fn parse_size(text: &str) -> Option<u64> {
    let t = text.trim();
    let (number, scale) = match t.char_indices().last()? {
        (i, c) if c.is_ascii_alphabetic() => {
            let shift = match c.to_ascii_uppercase() {
                'K' => 10,
                'M' => 20,
                'G' => 30,
                'T' => 40,
                _ => return None,
            };
            (&t[..i], (1u64 << shift) as f64)
        }
        _ => return t.parse().ok(),
    };
    let value: f64 = number.trim().parse().ok()?;
    (value.is_finite() && value >= 0.0).then_some((value * scale) as u64)
}

/// Bounds on the work of one compilation (defaults: [`CompileBudget::default`];
/// [`CompileBudget::from_env`] reads the knobs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CompileBudget {
    /// Most instructions in a module, over all its computations.
    pub max_instructions: usize,
    /// Most nodes in the kernel form's kernel bodies, over all kernels.
    pub max_kernel_ops: usize,
    /// Most wall time from the start of the middle end to a loaded executable.
    pub time_limit: Option<Duration>,
}

impl Default for CompileBudget {
    /// 1,000,000 instructions (real models are tens of thousands; a chain of
    /// 100,000 compiles in about 6 s on the CPU backend, every pass linear),
    /// 1,000,000 kernel nodes and 10 minutes.
    fn default() -> Self {
        CompileBudget {
            max_instructions: 1_000_000,
            max_kernel_ops: 1_000_000,
            time_limit: Some(Duration::from_secs(600)),
        }
    }
}

/// The environment variables of the compile budget.
pub const MAX_INSTRUCTIONS_ENV: &str = "SMELT_MAX_INSTRUCTIONS";
pub const MAX_KERNEL_OPS_ENV: &str = "SMELT_MAX_KERNEL_OPS";
pub const COMPILE_TIMEOUT_ENV: &str = "SMELT_COMPILE_TIMEOUT";

impl CompileBudget {
    /// The defaults with every knob that is set in the environment applied.
    pub fn from_env() -> Result<CompileBudget, BudgetError> {
        let number = |var: &'static str| -> Result<Option<f64>, BudgetError> {
            let Ok(text) = std::env::var(var) else { return Ok(None) };
            match text.trim().parse::<f64>() {
                Ok(n) if n.is_finite() && n >= 0.0 => Ok(Some(n)),
                _ => Err(BudgetError::BadNumber { var, text }),
            }
        };
        let mut budget = CompileBudget::default();
        if let Some(n) = number(MAX_INSTRUCTIONS_ENV)? {
            budget.max_instructions = n as usize;
        }
        if let Some(n) = number(MAX_KERNEL_OPS_ENV)? {
            budget.max_kernel_ops = n as usize;
        }
        if let Some(s) = number(COMPILE_TIMEOUT_ENV)? {
            budget.time_limit = (s > 0.0).then(|| Duration::from_secs_f64(s));
        }
        Ok(budget)
    }

    /// Checks a module's instruction count; `what` names the module.
    pub fn check_instructions(&self, count: usize, what: impl FnOnce() -> String) -> Result<(), BudgetError> {
        over(count, self.max_instructions, "instructions", MAX_INSTRUCTIONS_ENV, what)
    }

    /// Checks a kernel program's node count; `what` names the program.
    pub fn check_kernel_ops(&self, count: usize, what: impl FnOnce() -> String) -> Result<(), BudgetError> {
        over(count, self.max_kernel_ops, "kernel nodes", MAX_KERNEL_OPS_ENV, what)
    }

    /// A deadline starting now, for the time limit.
    pub fn start(&self) -> Deadline {
        Deadline { start: Instant::now(), limit: self.time_limit }
    }
}

fn over(
    count: usize,
    limit: usize,
    unit: &'static str,
    knob: &'static str,
    what: impl FnOnce() -> String,
) -> Result<(), BudgetError> {
    if count <= limit { Ok(()) } else { Err(BudgetError::TooBig { what: what(), count, unit, limit, knob }) }
}

/// When a compilation must have finished: checked between its stages (one
/// stage, such as LLVM's optimization of a module, is not interrupted).
#[derive(Clone, Copy, Debug)]
pub struct Deadline {
    start: Instant,
    limit: Option<Duration>,
}

impl Deadline {
    /// No limit.
    pub fn none() -> Deadline {
        Deadline { start: Instant::now(), limit: None }
    }

    /// Errs when the time is up; `stage` names the stage just ended
    /// ("pass 'fusion'").
    pub fn check(&self, stage: impl FnOnce() -> String) -> Result<(), BudgetError> {
        let Some(limit) = self.limit else { return Ok(()) };
        let elapsed = self.start.elapsed();
        if elapsed <= limit {
            return Ok(());
        }
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        Err(BudgetError::OutOfTime { stage: stage(), elapsed_ms: ms(elapsed), limit_ms: ms(limit) })
    }
}

impl Default for Deadline {
    fn default() -> Self {
        Deadline::none()
    }
}

/// `MemAvailable` of `/proc/meminfo`, in bytes, as it was when first asked for
/// (read once per process: checks run on every compile and interpreter call).
fn available_memory() -> Option<u64> {
    static AVAILABLE: OnceLock<Option<u64>> = OnceLock::new();
    *AVAILABLE.get_or_init(read_available_memory)
}

fn read_available_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_with_binary_suffixes() {
        assert_eq!(parse_size("4096"), Some(4096));
        assert_eq!(parse_size("512K"), Some(512 << 10));
        assert_eq!(parse_size("3g"), Some(3 << 30));
        assert_eq!(parse_size("1.5T"), Some(3 << 39));
        for bad in ["", "G", "-1", "12Q", "lots"] {
            assert_eq!(parse_size(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn compile_budget_counts_and_deadlines() {
        let budget = CompileBudget { max_instructions: 10, max_kernel_ops: 5, time_limit: Some(Duration::ZERO) };
        assert!(budget.check_instructions(10, String::new).is_ok());
        let e = budget.check_instructions(11, || "module 'm'".into()).unwrap_err().to_string();
        assert!(e.contains("module 'm': 11 instructions") && e.contains("SMELT_MAX_INSTRUCTIONS"), "{e}");
        assert!(budget.check_kernel_ops(6, String::new).is_err());
        let deadline = budget.start();
        std::thread::sleep(Duration::from_millis(2));
        let e = deadline.check(|| "pass 'dce'".into());
        assert!(e.unwrap_err().to_string().contains("at the end of pass 'dce'"));
        assert!(Deadline::none().check(String::new).is_ok());
    }

    #[test]
    fn array_bytes_saturate() {
        assert_eq!(array_bytes(&[2, 3], 4), 24);
        assert_eq!(array_bytes(&[], 8), 8);
        assert_eq!(array_bytes(&[-1, 5], 4), 0);
        assert_eq!(array_bytes(&[i64::MAX, i64::MAX, i64::MAX], 8), u128::MAX);
    }
}
