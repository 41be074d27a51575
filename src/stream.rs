//! The machine's streaming memory bandwidth, the yardstick for bandwidth-bound
//! programs.
//!
//! `smelt bench --stream` runs a STREAM-style triad (`a[i] = b[i] + s * c[i]`
//! over f32 arrays far larger than the caches) as plain Rust on every thread the
//! CPU backend would use, each thread touching its own part of the arrays first,
//! and reports the best of several runs as bytes read and written per second
//! (three arrays' worth, the STREAM convention). A bandwidth-bound compiled
//! program is then judged by its own bytes (arguments read plus results written)
//! per second against this figure.

use std::time::Instant;

/// What [`triad`] measured.
#[derive(Clone, Copy, Debug)]
pub struct Bandwidth {
    /// Bytes moved per second at the best run.
    pub bytes_per_s: f64,
    /// Threads that ran the triad.
    pub threads: usize,
    /// Elements per array.
    pub elements: usize,
}

/// Threads the CPU backend runs on: `SMELT_THREADS`, else every core.
pub fn threads() -> usize {
    std::env::var("SMELT_THREADS")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .filter(|&n| n > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// Runs the triad `runs` times over arrays of `elements` f32 each.
pub fn triad(elements: usize, runs: usize) -> Bandwidth {
    let threads = threads();
    let chunk = elements.div_ceil(threads).max(1);
    let mut a = Vec::<f32>::with_capacity(elements);
    let mut b = Vec::<f32>::with_capacity(elements);
    let mut c = Vec::<f32>::with_capacity(elements);
    // First touch by the thread that later streams each part (page placement).
    std::thread::scope(|s| {
        let parts = a.spare_capacity_mut()[..elements]
            .chunks_mut(chunk)
            .zip(b.spare_capacity_mut()[..elements].chunks_mut(chunk))
            .zip(c.spare_capacity_mut()[..elements].chunks_mut(chunk));
        for ((a, b), c) in parts {
            s.spawn(move || {
                for (i, ((a, b), c)) in a.iter_mut().zip(b.iter_mut()).zip(c.iter_mut()).enumerate() {
                    a.write(0.0);
                    b.write(1.0 + (i % 7) as f32);
                    c.write(2.0 - (i % 5) as f32);
                }
            });
        }
    });
    // SAFETY: every element of the three arrays was written above.
    unsafe {
        a.set_len(elements);
        b.set_len(elements);
        c.set_len(elements);
    }
    let scale = std::hint::black_box(3.0f32);
    let mut best = f64::INFINITY;
    for _ in 0..runs.max(1) {
        let t = Instant::now();
        std::thread::scope(|s| {
            for ((a, b), c) in a.chunks_mut(chunk).zip(b.chunks(chunk)).zip(c.chunks(chunk)) {
                s.spawn(move || {
                    for ((a, &b), &c) in a.iter_mut().zip(b).zip(c) {
                        *a = b + scale * c;
                    }
                });
            }
        });
        best = best.min(t.elapsed().as_secs_f64());
        std::hint::black_box(&mut a);
    }
    let bytes = 3.0 * elements as f64 * std::mem::size_of::<f32>() as f64;
    Bandwidth { bytes_per_s: bytes / best, threads, elements }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn triad_measures_a_positive_bandwidth() {
        let bw = triad(1 << 16, 2);
        assert!(bw.bytes_per_s.is_finite() && bw.bytes_per_s > 0.0, "{bw:?}");
        assert_eq!(bw.elements, 1 << 16);
        assert!(bw.threads >= 1);
    }
}
