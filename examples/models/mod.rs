//! Models built with the Graph API, shared by the examples and the session
//! benchmark. Weights are deterministic pseudo-random constants.

// Each example and bench includes this tree and uses only its own model.
#![allow(dead_code)]

pub mod bert;
pub mod lstm;

use smelt_jit::Array;

/// Deterministic values in [-scale, scale).
pub fn weights(dims: &[i64], seed: u64, scale: f32) -> Array {
    let n: i64 = dims.iter().product();
    let mut s = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let v: Vec<f32> = (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            ((s >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * scale
        })
        .collect();
    Array::from_vec(dims, v)
}

/// The backend named by the first command-line argument (default: cpu); the
/// session says which names exist.
pub fn backend_arg() -> String {
    std::env::args().nth(1).unwrap_or_else(|| "cpu".to_string())
}
