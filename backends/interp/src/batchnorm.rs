//! Batch normalization: `batch-norm-inference`, `batch-norm-training` and
//! `batch-norm-grad`, with the formulas of XLA's `BatchNormExpander`.
//!
//! Statistics are over every dimension except `feature_index`; the variance is
//! the biased one (`E[x^2] - E[x]^2`). Arithmetic is carried out in f64 and
//! rounded to the operand type at the end: this is the oracle, and XLA CPU's
//! f32 expansion agrees within the usual tolerances.

use smelt_hlo::{Array, ArrayData, DType, Literal};

use crate::error::{KResult, invalid, unsupported};
use crate::index::adims;
use crate::num::{Cast, Elem};
use crate::value::{Scalar, with_dtype};

/// Reads a float array as f64.
fn floats(a: &Array) -> Vec<f64> {
    (0..a.len())
        .map(|i| match Scalar::get(&a.data, i).cast() {
            Cast::Float(f) => f,
            Cast::Int(i) => i as f64,
        })
        .collect()
}

fn to_dtype(v: &[f64], dtype: DType) -> ArrayData {
    with_dtype!(dtype, T => {
        let out: Vec<T> = v.iter().map(|&x| <T as Elem>::from_cast(Cast::Float(x))).collect();
        <T as smelt_hlo::Element>::wrap(out)
    })
}

/// Shape checks; returns (feature dimension size, feature stride, elements per feature).
fn layout(x: &Array, feature_index: i64, per_feature: &[&Array]) -> KResult<(usize, usize, usize)> {
    if !x.dtype().is_float() {
        unsupported!("batch norm over {}", x.dtype());
    }
    let dims = adims(x);
    let Some(f) = usize::try_from(feature_index).ok().filter(|&f| f < dims.len()) else {
        invalid!("feature_index {feature_index} out of range for {}", x.shape());
    };
    let c = dims[f];
    for a in per_feature {
        if a.dims.as_slice() != [c as i64] || a.dtype() != x.dtype() {
            invalid!("per-feature operand {} must be {}[{c}]", a.shape(), x.dtype());
        }
    }
    let stride: usize = dims[f + 1..].iter().product();
    let n = x.len().checked_div(c).unwrap_or(0);
    Ok((c, stride, n))
}

#[inline]
fn feature_of(i: usize, stride: usize, c: usize) -> usize {
    (i / stride.max(1)) % c.max(1)
}

/// Per-feature mean and biased variance.
fn moments(x: &[f64], c: usize, stride: usize, n: usize) -> (Vec<f64>, Vec<f64>) {
    let mut sum = vec![0.0; c];
    let mut sq = vec![0.0; c];
    for (i, &v) in x.iter().enumerate() {
        let f = feature_of(i, stride, c);
        sum[f] += v;
        sq[f] += v * v;
    }
    let n = n.max(1) as f64;
    let mean: Vec<f64> = sum.iter().map(|s| s / n).collect();
    let var = sq.iter().zip(&mean).map(|(s, m)| s / n - m * m).collect();
    (mean, var)
}

fn normalize(x: &[f64], mean: &[f64], var: &[f64], scale: &[f64], offset: &[f64], eps: f64, stride: usize) -> Vec<f64> {
    let c = mean.len();
    x.iter()
        .enumerate()
        .map(|(i, &v)| {
            let f = feature_of(i, stride, c);
            (v - mean[f]) / (var[f] + eps).sqrt() * scale[f] + offset[f]
        })
        .collect()
}

/// The result tuple of training and grad: `full` shaped like `x`, then two
/// per-feature vectors, all of `x`'s element type.
fn outputs(x: &Array, full: &[f64], per_feature: [&[f64]; 2]) -> Literal {
    let dt = x.dtype();
    let mut out = vec![Literal::Array(Array { dims: x.dims.clone(), data: to_dtype(full, dt) })];
    for v in per_feature {
        out.push(Literal::Array(Array { dims: [v.len() as i64].into_iter().collect(), data: to_dtype(v, dt) }));
    }
    Literal::Tuple(out)
}

pub(crate) fn inference(ops: &[&Array], epsilon: f32, feature_index: i64) -> KResult<Array> {
    let [x, scale, offset, mean, var] = ops else {
        invalid!("batch-norm-inference takes 5 operands");
    };
    let (_, stride, _) = layout(x, feature_index, &[scale, offset, mean, var])?;
    let y = normalize(&floats(x), &floats(mean), &floats(var), &floats(scale), &floats(offset), epsilon as f64, stride);
    Ok(Array { dims: x.dims.clone(), data: to_dtype(&y, x.dtype()) })
}

pub(crate) fn training(ops: &[&Array], epsilon: f32, feature_index: i64) -> KResult<Literal> {
    let [x, scale, offset] = ops else {
        invalid!("batch-norm-training takes 3 operands");
    };
    let (c, stride, n) = layout(x, feature_index, &[scale, offset])?;
    let xs = floats(x);
    let (mean, var) = moments(&xs, c, stride, n);
    let y = normalize(&xs, &mean, &var, &floats(scale), &floats(offset), epsilon as f64, stride);
    Ok(outputs(x, &y, [&mean, &var]))
}

/// Gradients with respect to operand, scale and offset:
/// `grad_offset = sum(dy)`, `grad_scale = sum(dy * (x - mean)) / sqrt(var + eps)`,
/// `grad_x = scale / sqrt(var + eps) * (dy - grad_offset / N
///           - (x - mean) * sum(dy * (x - mean)) / (N * (var + eps)))`.
pub(crate) fn grad(ops: &[&Array], epsilon: f32, feature_index: i64) -> KResult<Literal> {
    let [x, scale, mean, var, dy] = ops else {
        invalid!("batch-norm-grad takes 5 operands");
    };
    let (c, stride, n) = layout(x, feature_index, &[scale, mean, var])?;
    if dy.dims != x.dims || dy.dtype() != x.dtype() {
        invalid!("grad_output {} must match the operand {}", dy.shape(), x.shape());
    }
    let (xs, dys) = (floats(x), floats(dy));
    let (sc, mu, va) = (floats(scale), floats(mean), floats(var));
    let eps = epsilon as f64;
    let mut sum_dy = vec![0.0; c];
    let mut sum_dy_xc = vec![0.0; c];
    for (i, (&xv, &g)) in xs.iter().zip(&dys).enumerate() {
        let f = feature_of(i, stride, c);
        sum_dy[f] += g;
        sum_dy_xc[f] += g * (xv - mu[f]);
    }
    let nf = n.max(1) as f64;
    let gx: Vec<f64> = xs
        .iter()
        .zip(&dys)
        .enumerate()
        .map(|(i, (&xv, &g))| {
            let f = feature_of(i, stride, c);
            let inv = 1.0 / (va[f] + eps).sqrt();
            sc[f] * inv * (g - sum_dy[f] / nf - (xv - mu[f]) * sum_dy_xc[f] / (nf * (va[f] + eps)))
        })
        .collect();
    let gscale: Vec<f64> = (0..c).map(|f| sum_dy_xc[f] / (va[f] + eps).sqrt()).collect();
    Ok(outputs(x, &gx, [&gscale, &sum_dy]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn training_normalizes_per_feature() {
        // [2, 2] with features on dimension 1: feature 0 = {1, 3}, feature 1 = {2, 6}.
        let x = Array::from_vec([2, 2], vec![1.0f32, 2.0, 3.0, 6.0]);
        let ones = Array::from_vec([2], vec![1.0f32, 1.0]);
        let zeros = Array::from_vec([2], vec![0.0f32, 0.0]);
        let Literal::Tuple(t) = training(&[&x, &ones, &zeros], 0.0, 1).unwrap() else {
            panic!("tuple expected");
        };
        assert_eq!(t[0].as_array().unwrap().values::<f32>().unwrap(), &[-1.0, -1.0, 1.0, 1.0]);
        assert_eq!(t[1].as_array().unwrap().values::<f32>().unwrap(), &[2.0, 4.0]);
        assert_eq!(t[2].as_array().unwrap().values::<f32>().unwrap(), &[1.0, 4.0]);
    }
}
