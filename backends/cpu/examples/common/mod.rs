//! What the benchmarks share.

use std::time::{Duration, Instant};

/// The best time of `run` over at least `reps` runs and at least `seconds`.
pub fn best_time(reps: u32, seconds: f64, mut run: impl FnMut()) -> Duration {
    let mut best = Duration::MAX;
    let start = Instant::now();
    let mut n = 0;
    while n < reps || start.elapsed().as_secs_f64() < seconds {
        let t = Instant::now();
        run();
        best = best.min(t.elapsed());
        n += 1;
    }
    best
}

/// How many copies of an operand the environment variable `var` asks a
/// benchmark to cycle through (at least 1), so that each call reads it
/// from memory as a model does.
pub fn copies(var: &str) -> usize {
    std::env::var(var).ok().and_then(|v| v.parse().ok()).unwrap_or(1).max(1)
}
