//! Yardsticks measured on the device itself, for `smelt gpu-bench`: a
//! device-to-device copy (the bandwidth a streaming kernel can hope for) and
//! cuBLAS's own SGEMM (what smelt's products, which call it, add overhead to).

use crate::error::Result;
use crate::runtime::{Device, Gemm};

fn median(mut t: Vec<f64>) -> f64 {
    t.sort_by(f64::total_cmp);
    t[t.len() / 2]
}

/// Median seconds of `f` over `runs` runs after one warm-up, each ended by
/// waiting for the device.
fn timed(device: &Device, runs: usize, mut f: impl FnMut() -> Result<()>) -> Result<f64> {
    f()?;
    device.synchronize()?;
    let mut times = Vec::with_capacity(runs.max(1));
    for _ in 0..runs.max(1) {
        let t = std::time::Instant::now();
        f()?;
        device.synchronize()?;
        times.push(t.elapsed().as_secs_f64());
    }
    Ok(median(times))
}

/// Median seconds to copy `bytes` from one device buffer to another.
pub fn copy_seconds(bytes: usize, runs: usize) -> Result<f64> {
    let device = Device::get()?;
    let (src, dst) = (device.alloc(bytes)?, device.alloc(bytes)?);
    timed(&device, runs, || device.copy(dst.ptr(), src.ptr(), bytes))
}

/// Median seconds of one `n x n x n` f32 product through cuBLAS directly.
pub fn cublas_sgemm_seconds(n: i64, runs: usize) -> Result<f64> {
    let device = Device::get()?;
    let bytes = (n * n) as usize * 4;
    let (a, b, c) = (device.alloc(bytes)?, device.alloc(bytes)?, device.alloc(bytes)?);
    let f32 = smelt_hlo::DType::F32;
    let g =
        Gemm { batch: 1, m: n, n, k: n, lhs_transposed: false, rhs_transposed: false, lhs: f32, rhs: f32, out: f32 };
    timed(&device, runs, || device.gemm(&g, a.ptr(), b.ptr(), c.ptr()))
}
