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

use std::fmt;
use std::sync::OnceLock;

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
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Origin::Env => "set by SMELT_MAX_MEMORY",
            Origin::Available => "the memory available; SMELT_MAX_MEMORY sets another",
            Origin::Default => "the default; SMELT_MAX_MEMORY sets another",
        })
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BudgetError {
    #[error("{what}: {bytes} bytes, more than the memory budget of {budget} bytes ({origin})")]
    Over { what: String, bytes: u128, budget: u64, origin: Origin },
    #[error("SMELT_MAX_MEMORY={0:?} is not a size (bytes, or a number with a K, M, G or T suffix)")]
    BadSetting(String),
}

/// The budget in bytes and where it came from.
pub fn memory_budget() -> Result<(u64, Origin), BudgetError> {
    if let Ok(text) = std::env::var(ENV) {
        return parse_size(&text).map(|b| (b, Origin::Env)).ok_or(BudgetError::BadSetting(text));
    }
    Ok(match available_memory() {
        Some(bytes) => (bytes, Origin::Available),
        None => (1 << 40, Origin::Default),
    })
}

/// Checks that arrays of the given dimensions and element types fit in the
/// budget together; `what` names them (called only for the error).
pub fn check_arrays<'a>(
    arrays: impl IntoIterator<Item = (&'a [i64], DType)>,
    what: impl FnOnce() -> String,
) -> Result<(), BudgetError> {
    let total = arrays.into_iter().map(|(dims, t)| array_bytes(dims, t.byte_size())).fold(0, u128::saturating_add);
    check(total, what)
}

/// Checks that `bytes` fit in the budget; `what` names the buffer (called only
/// for the error).
pub fn check(bytes: u128, what: impl FnOnce() -> String) -> Result<(), BudgetError> {
    let (budget, origin) = memory_budget()?;
    if bytes <= u128::from(budget) { Ok(()) } else { Err(BudgetError::Over { what: what(), bytes, budget, origin }) }
}

/// The bytes of `elements` elements of `element_bytes` bytes each, never
/// overflowing (a negative dimension counts as 0).
pub fn array_bytes(dims: &[i64], element_bytes: usize) -> u128 {
    dims.iter().fold(element_bytes as u128, |n, &d| n.saturating_mul(d.max(0) as u128))
}

/// `4096`, `512K`, `3G`, `1.5T` (powers of 1024; fractions allowed with a suffix).
fn parse_size(text: &str) -> Option<u64> {
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
    fn array_bytes_saturate() {
        assert_eq!(array_bytes(&[2, 3], 4), 24);
        assert_eq!(array_bytes(&[], 8), 8);
        assert_eq!(array_bytes(&[-1, 5], 4), 0);
        assert_eq!(array_bytes(&[i64::MAX, i64::MAX, i64::MAX], 8), u128::MAX);
    }
}
