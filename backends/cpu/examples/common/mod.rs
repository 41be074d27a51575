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
