//! The client's counters and their snapshot.
//!
//! The counters are shared (`Arc`) by a client, its cache and every executable
//! it made, which update them atomically; [`Stats`] is what a caller reads.

use std::sync::atomic::AtomicU64;
use std::time::Duration;

/// The client's counters, updated atomically.
#[derive(Debug, Default)]
pub(crate) struct Counters {
    pub hits: AtomicU64,
    pub waits: AtomicU64,
    pub misses: AtomicU64,
    pub compiles: AtomicU64,
    pub compile_ns: AtomicU64,
    pub background_compiles: AtomicU64,
    pub background_failures: AtomicU64,
    pub disk_hits: AtomicU64,
    pub disk_writes: AtomicU64,
    pub disk_errors: AtomicU64,
    pub evictions: AtomicU64,
    pub interpreted: AtomicU64,
    pub megamorphic_fallbacks: AtomicU64,
    pub baseline_fallbacks: AtomicU64,
    pub baseline_skips: AtomicU64,
}

/// A snapshot of a client's counters ([`Client::stats`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stats {
    /// Requests served without compiling (in-memory hits, including requests
    /// that waited for a concurrent compilation of the same key, and
    /// [`Function`] launches that found their executable).
    pub hits: u64,
    /// Of the hits, those that waited for a compilation in flight.
    pub waits: u64,
    /// Requests that found nothing in memory.
    pub misses: u64,
    /// Compilations run in the foreground (a miss that hit the disk, or fell
    /// back to the interpreter, compiles nothing).
    pub compiles: u64,
    /// Foreground compile time, summed.
    pub compile_time: Duration,
    /// Background LLVM compilations finished (tiered) and failed.
    pub background_compiles: u64,
    pub background_failures: u64,
    /// Persistent cache: entries loaded, entries written, entries rejected
    /// (truncated, corrupt, mismatched) or unwritable.
    pub disk_hits: u64,
    pub disk_writes: u64,
    pub disk_errors: u64,
    /// Executables dropped from the in-memory cache for capacity.
    pub evictions: u64,
    /// Launches that ran on the interpreter.
    pub interpreted: u64,
    /// Executables made for a megamorphic family (interpreted, not compiled).
    pub megamorphic_fallbacks: u64,
    /// Tiered compilations whose Cranelift baseline was unavailable or failed
    /// (compiled with LLVM in the foreground instead).
    pub baseline_fallbacks: u64,
    /// Tiered compilations that compiled LLVM in the foreground because the
    /// Cranelift baseline's run was estimated to outlast LLVM's compile
    /// (`first_tier`).
    pub baseline_skips: u64,
    /// Program families found megamorphic so far.
    pub megamorphic_families: usize,
    /// Executables in the in-memory cache now.
    pub cached: usize,
}

impl std::fmt::Display for Stats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "jit cache: {} hits ({} waited), {} misses, {} cached, {} evicted",
            self.hits, self.waits, self.misses, self.cached, self.evictions
        )?;
        writeln!(
            f,
            "compiles: {} in {:.1} ms, {} in the background ({} failed), {} baseline fallbacks, {} LLVM first",
            self.compiles,
            self.compile_time.as_secs_f64() * 1e3,
            self.background_compiles,
            self.background_failures,
            self.baseline_fallbacks,
            self.baseline_skips
        )?;
        writeln!(f, "disk: {} hits, {} writes, {} rejected", self.disk_hits, self.disk_writes, self.disk_errors)?;
        write!(
            f,
            "policy: {} interpreted launches, {} megamorphic fallbacks in {} families",
            self.interpreted, self.megamorphic_fallbacks, self.megamorphic_families
        )
    }
}
