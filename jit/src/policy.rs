//! The recompilation policy: when a program family stops being compiled.
//!
//! This is TensorFlow's XLA JIT policy (`DeviceCompilationProfiler`): a
//! *family* (one program at any shapes: the canonical text with dimensions
//! erased, or the name given in `CompileOptions::family`) is compiled once per
//! signature. A family compiled for more than [`Policy::max_compiles`]
//! signatures whose launches average fewer than [`Policy::min_runs_per_compile`]
//! per compilation is *megamorphic*: compiling it costs more than the compiled
//! code saves, typically because the shapes change on every call. From then on
//! (the verdict is sticky, as in TensorFlow) new signatures of the family are
//! not compiled: they get an executable that runs the module on the reference
//! interpreter, counted in `Stats::interpreted` launches and
//! `Stats::megamorphic_fallbacks`. Signatures compiled before keep their code.
//!
//! TensorFlow falls back to its op-by-op executor; smelt's counterpart is the
//! interpreter, which needs no compilation at all. Defaults follow TensorFlow:
//! 10 compilations, 50 runs per compilation.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// When a family counts as megamorphic (see the module comment).
#[derive(Clone, Debug)]
pub struct Policy {
    /// Whether the policy applies at all.
    pub enabled: bool,
    /// Signatures a family may compile before the run ratio is checked.
    pub max_compiles: u64,
    /// Launches per compilation below which a family past `max_compiles` is
    /// megamorphic.
    pub min_runs_per_compile: f64,
}

impl Default for Policy {
    fn default() -> Self {
        Policy { enabled: true, max_compiles: 10, min_runs_per_compile: 50.0 }
    }
}

/// Counters of one program family.
#[derive(Debug, Default)]
pub struct Family {
    /// Signatures compiled.
    pub(crate) compiles: AtomicU64,
    /// Launches over every executable of the family.
    pub(crate) runs: AtomicU64,
    megamorphic: AtomicBool,
}

impl Family {
    /// Decides, before compiling one more signature, whether the family is
    /// megamorphic; records the compilation when it is not.
    pub(crate) fn admit(&self, policy: &Policy) -> bool {
        if !policy.enabled {
            self.compiles.fetch_add(1, Ordering::Relaxed);
            return true;
        }
        if self.megamorphic.load(Ordering::Relaxed) {
            return false;
        }
        let compiles = self.compiles.load(Ordering::Relaxed);
        let runs = self.runs.load(Ordering::Relaxed);
        if compiles > policy.max_compiles && (runs as f64) < policy.min_runs_per_compile * compiles as f64 {
            self.megamorphic.store(true, Ordering::Relaxed);
            return false;
        }
        self.compiles.fetch_add(1, Ordering::Relaxed);
        true
    }

    pub fn is_megamorphic(&self) -> bool {
        self.megamorphic.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn megamorphic_after_many_rarely_run_compiles() {
        let p = Policy { enabled: true, max_compiles: 3, min_runs_per_compile: 2.0 };
        let f = Family::default();
        assert!((0..4).all(|_| f.admit(&p)));
        assert!(!f.admit(&p));
        assert!(f.is_megamorphic());
        // Sticky, even once runs catch up.
        f.runs.store(1000, Ordering::Relaxed);
        assert!(!f.admit(&p));
    }

    #[test]
    fn busy_family_keeps_compiling() {
        let p = Policy { enabled: true, max_compiles: 3, min_runs_per_compile: 2.0 };
        let f = Family::default();
        for _ in 0..10 {
            assert!(f.admit(&p));
            f.runs.fetch_add(2, Ordering::Relaxed);
        }
    }
}
