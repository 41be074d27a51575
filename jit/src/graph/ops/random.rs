//! ONNX's random generators, on the host: `RandomUniform`, `RandomNormal`,
//! their `*Like` forms (the shape, and by default the type, of an input),
//! `Bernoulli` and `Multinomial`. They run where the session runs host ops, once per run,
//! so every run draws: with a `seed` the same numbers each time (as ONNX's
//! reference evaluator gives), without one fresh numbers from a process-wide
//! sequence. The generator is the workspace's SplitMix64
//! ([`smelt_hlo::random::SplitMix`]); the numbers are not onnxruntime's,
//! whose generator ONNX leaves to each implementation.

use std::sync::atomic::{AtomicU64, Ordering};

use smelt_hlo::random::SplitMix;
use smelt_hlo::{Array, ArrayData, DType};

use super::shape::dtype_attr;
use crate::graph::{GraphError, Node, Result};

/// The generator of one run of `node`: from its `seed` attribute (its f32
/// bits), else the next of a process-wide counter.
fn generator(node: &Node) -> SplitMix {
    static UNSEEDED: AtomicU64 = AtomicU64::new(0x6a09_e667_f3bc_c908);
    match node.float("seed") {
        Some(seed) => SplitMix::new(u64::from(seed.to_bits())),
        None => SplitMix::new(UNSEEDED.fetch_add(0x9e37_79b9_7f4a_7c15, Ordering::Relaxed)),
    }
}

/// A standard normal draw (Box-Muller; the log of a number in (0, 1]).
fn normal(g: &mut SplitMix) -> f64 {
    let u = 1.0 - g.uniform(0.0, 1.0);
    let v = g.uniform(0.0, 1.0);
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

/// The output type: attribute `dtype` (an ONNX type code), else `default`;
/// a float type.
fn float_type(node: &Node, default: DType) -> Result<DType> {
    let dtype = dtype_attr(node, "dtype", default)?;
    if !dtype.is_float() {
        return Err(GraphError::node(node, format!("draws floats, not {dtype}")));
    }
    Ok(dtype)
}

/// The output dims: attribute `shape`, or the first input's dims (`*Like`).
fn dims(node: &Node, args: &[Array]) -> Result<Vec<i64>> {
    let dims = match args.first() {
        Some(x) => x.dims.to_vec(),
        None => node.ints("shape").map(<[i64]>::to_vec).ok_or_else(|| GraphError::node(node, "needs a shape"))?,
    };
    if dims.iter().any(|&d| d < 0) {
        return Err(GraphError::node(node, format!("shape {dims:?} has a negative dim")));
    }
    Ok(dims)
}

fn draw(node: &Node, args: &[Array], mut one: impl FnMut(&mut SplitMix) -> f64) -> Result<Vec<Array>> {
    let default = args.first().map_or(DType::F32, |x| x.dtype());
    let dtype = float_type(node, if default.is_float() { default } else { DType::F32 })?;
    let dims = dims(node, args)?;
    let n = dims.iter().try_fold(1usize, |n, &d| n.checked_mul(d as usize));
    let n = n.ok_or_else(|| GraphError::node(node, format!("shape {dims:?} is too large")))?;
    let mut g = generator(node);
    let values: Vec<f64> = (0..n).map(|_| one(&mut g)).collect();
    Ok(vec![Array::new(dims, ArrayData::from_f64(dtype, values))])
}

/// `RandomUniform` and `RandomUniformLike`: uniform in [`low`, `high`).
pub fn uniform(node: &Node, args: &[Array]) -> Result<Vec<Array>> {
    let low = f64::from(node.float("low").unwrap_or(0.0));
    let high = f64::from(node.float("high").unwrap_or(1.0));
    draw(node, args, |g| g.uniform(low, high))
}

/// `RandomNormal` and `RandomNormalLike`: normal with `mean` and `scale`.
pub fn normal_draws(node: &Node, args: &[Array]) -> Result<Vec<Array>> {
    let mean = f64::from(node.float("mean").unwrap_or(0.0));
    let scale = f64::from(node.float("scale").unwrap_or(1.0));
    draw(node, args, |g| mean + scale * normal(g))
}

/// `Bernoulli(p)`: 1 with probability `p`, else 0, per element, in `dtype`
/// (default `p`'s type; integer types allowed).
pub fn bernoulli(node: &Node, args: &[Array]) -> Result<Vec<Array>> {
    let p = args.first().ok_or_else(|| GraphError::node(node, "input 0 is required"))?;
    if !p.dtype().is_float() {
        return Err(GraphError::node(node, format!("takes float probabilities, not {}", p.dtype())));
    }
    let dtype = dtype_attr(node, "dtype", p.dtype())?;
    let mut g = generator(node);
    let values: Vec<f64> =
        (0..p.len()).map(|i| if g.uniform(0.0, 1.0) < p.data.get_f64(i) { 1.0 } else { 0.0 }).collect();
    Ok(vec![Array::new(p.dims.to_vec(), ArrayData::from_f64(dtype, values))])
}

/// `Multinomial(input[batch, classes])`: `sample_size` draws per row from the
/// categorical distribution whose unnormalized log-probabilities the row
/// holds, as class indices of `dtype` (int32 by default, or int64).
pub fn multinomial(node: &Node, args: &[Array]) -> Result<Vec<Array>> {
    let x = args.first().ok_or_else(|| GraphError::node(node, "input 0 is required"))?;
    let [batch, classes] = x.dims[..] else {
        return Err(GraphError::node(node, format!("takes [batch, classes] log-probabilities, not {:?}", x.dims)));
    };
    if !x.dtype().is_float() || classes == 0 {
        return Err(GraphError::node(
            node,
            format!("takes float log-probabilities of some classes, not {} {:?}", x.dtype(), x.dims),
        ));
    }
    let dtype = dtype_attr(node, "dtype", DType::S32)?;
    if !matches!(dtype, DType::S32 | DType::S64) {
        return Err(GraphError::node(node, format!("draws int32 or int64 indices, not {dtype}")));
    }
    let samples = node.int("sample_size").unwrap_or(1);
    if samples < 0 {
        return Err(GraphError::node(node, format!("sample_size {samples} is negative")));
    }
    let mut g = generator(node);
    let (batch, classes, samples) = (batch as usize, classes as usize, samples as usize);
    let mut draws = Vec::with_capacity(batch * samples);
    for b in 0..batch {
        let row: Vec<f64> = (0..classes).map(|c| x.data.get_f64(b * classes + c)).collect();
        // Cumulative weights exp(l - max), so large log-probabilities stay finite.
        let max = row.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let mut cumulative = Vec::with_capacity(classes);
        let mut total = 0.0;
        for l in &row {
            total += (l - max).exp();
            cumulative.push(total);
        }
        for _ in 0..samples {
            let u = g.uniform(0.0, total);
            let class = cumulative.iter().position(|&c| u < c).unwrap_or(classes - 1);
            draws.push(class as f64);
        }
    }
    Ok(vec![Array::new([batch as i64, samples as i64], ArrayData::from_f64(dtype, draws))])
}
