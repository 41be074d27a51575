//! Deterministic pseudo-random data, written once for the whole workspace:
//! the inputs of programs run without any (`smelt run`, `smelt bench`), and
//! the edge-heavy arrays that the differential tests of every crate feed the
//! interpreter, the passes and the backends (NaN, infinities, signed zeros,
//! integer limits). The same seed always gives the same values.

use crate::{Array, ArrayData, ArrayShape, DType, Literal, Shape};

/// SplitMix64: tiny, fast, and good enough for test data and fuzzing.
#[derive(Clone, Debug)]
pub struct SplitMix(pub u64);

impl SplitMix {
    /// A generator whose sequence depends on every bit of `seed`.
    pub fn new(seed: u64) -> SplitMix {
        SplitMix(seed.wrapping_mul(0x2545_f491_4f6c_dd1d) ^ 0x5eed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }

    /// Uniform in `lo..=hi` (`lo` when the range is empty).
    pub fn int_in(&mut self, lo: i64, hi: i64) -> i64 {
        let span = hi.wrapping_sub(lo) as u64;
        if hi < lo { lo } else { lo.wrapping_add((self.next_u64() % span.wrapping_add(1).max(1)) as i64) }
    }

    /// Uniform in [-1, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 52) as f64 - 1.0
    }

    /// Uniform in [lo, hi).
    pub fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * ((self.next_u64() >> 11) as f64 / (1u64 << 53) as f64)
    }

    /// A float: often an edge case (±0, ±1, 0.5, NaN, ±infinity), else a
    /// small value with few mantissa bits (exact in every float type).
    pub fn edge_float(&mut self) -> f64 {
        const EDGES: [f64; 8] = [0.0, -0.0, 1.0, -1.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 0.5];
        let r = self.next_u64();
        if r % 16 < 6 { EDGES[(r >> 8) as usize % EDGES.len()] } else { ((r >> 16) % 2001) as f64 / 64.0 - 15.625 }
    }

    /// An integer in `min..=max`: often 0, ±1, 2 or a limit, else small.
    pub fn edge_int(&mut self, min: i128, max: i128) -> i128 {
        let r = self.next_u64();
        let v = if r % 16 < 5 { [0, 1, -1, min, max, 2][(r >> 8) as usize % 6] } else { ((r >> 16) % 21) as i128 - 10 };
        v.clamp(min, max)
    }

    /// An array of edge-heavy values ([`SplitMix::edge_float`], [`SplitMix::edge_int`]).
    pub fn edge_array(&mut self, dtype: DType, dims: &[i64]) -> Array {
        let n = dims.iter().map(|&d| d.max(0) as usize).product();
        let data = if dtype.is_int() {
            // Through the bytes: 64-bit limits are not exact in f64.
            let bits = dtype.bit_width() as u32;
            let (min, max) = if dtype.is_signed_int() {
                (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
            } else {
                (0, (1i128 << bits) - 1)
            };
            let w = dtype.byte_size();
            let bytes: Vec<u8> = (0..n).flat_map(|_| self.edge_int(min, max).to_le_bytes()[..w].to_vec()).collect();
            ArrayData::from_le_bytes(dtype, &bytes)
        } else if dtype == DType::Pred {
            ArrayData::from_f64(dtype, (0..n).map(|_| (self.next_u64() >> 8 & 1) as f64))
        } else {
            ArrayData::from_f64(dtype, (0..n).map(|_| self.edge_float()))
        };
        Array::new(dims, data)
    }

    /// Edge-heavy values for every parameter shape (tuples leaf by leaf).
    pub fn edge_args(&mut self, params: &[Shape]) -> Vec<Literal> {
        params.iter().map(|s| self.edge_literal(s)).collect()
    }

    fn edge_literal(&mut self, shape: &Shape) -> Literal {
        match shape {
            Shape::Array(a) => {
                // Complex values are stored (and passed) as their parts.
                let a = a.storage();
                Literal::Array(self.edge_array(a.dtype, &a.dims))
            }
            Shape::Tuple(t) => Literal::Tuple(t.iter().map(|e| self.edge_literal(e)).collect()),
        }
    }
}

/// A random array of `shape`, seeded by `seed`: floats uniform in [-1, 1),
/// integers in [0, 8) (small enough to be valid indices and shift amounts),
/// pred at random.
pub fn random_array(shape: &ArrayShape, seed: u64) -> Array {
    let shape = &shape.storage();
    let mut rng = SplitMix::new(seed);
    let dtype = shape.dtype;
    let values = (0..shape.element_count()).map(|_| match dtype {
        DType::Pred => (rng.next_u64() & 1) as f64,
        t if t.is_int() => (rng.next_u64() % 8) as f64,
        _ => rng.unit(),
    });
    Array { dims: shape.dims.clone(), data: ArrayData::from_f64(dtype, values) }
}

/// [`random_array`] for every parameter shape, each leaf with its own seed.
///
/// The parameters' buffers are checked against the memory budget first
/// ([`crate::budget`]): together they must fit.
pub fn random_inputs(params: &[Shape]) -> Result<Vec<Literal>, crate::budget::BudgetError> {
    let leaves = params.iter().flat_map(Shape::leaves).map(|a| (&a.dims[..], a.dtype));
    crate::budget::check_arrays(leaves, || {
        let shapes: Vec<String> = params.iter().map(|s| s.to_string()).collect();
        format!("the parameters ({})", shapes.join(", "))
    })?;
    fn fill(shape: &Shape, seed: &mut u64) -> Literal {
        match shape {
            Shape::Array(a) => {
                *seed += 1;
                Literal::Array(random_array(a, *seed))
            }
            Shape::Tuple(t) => Literal::Tuple(t.iter().map(|s| fill(s, seed)).collect()),
        }
    }
    let mut seed = 0;
    Ok(params.iter().map(|s| fill(s, &mut seed)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edge_arrays_hold_the_edges_and_stay_in_range() {
        let mut rng = SplitMix::new(3);
        let f = rng.edge_array(DType::F32, &[4096]);
        let v = f.values::<f32>().unwrap_or_default();
        assert!(v.iter().any(|x| x.is_nan()) && v.iter().any(|x| x.is_infinite()));
        assert!(v.iter().any(|x| *x == 0.0 && x.is_sign_negative()));
        let i = rng.edge_array(DType::S8, &[4096]);
        let v = i.values::<i8>().unwrap_or_default();
        assert!(v.contains(&i8::MIN) && v.contains(&i8::MAX) && v.contains(&-1));
        assert_eq!(SplitMix::new(3).edge_array(DType::F32, &[4096]).dims.as_slice(), &[4096]);
        let same = |s| SplitMix::new(s).edge_array(DType::S32, &[64]);
        assert_eq!(same(9), same(9));
        assert_ne!(same(9), same(10));
    }
}
