//! Deterministic random inputs for a module's entry parameters, so `smelt run` and
//! `smelt bench` work on a bare `.hlo` file. The same shapes always give the same
//! values: floats uniform in [-1, 1), integers in [0, 8) (small enough to be valid
//! indices and shift amounts), pred alternating at random.

use half::{bf16, f16};
use smelt_hlo::{Array, ArrayData, ArrayShape, DType, Literal, Shape};

/// SplitMix64: tiny, fast, and good enough for test data and fuzzing.
#[derive(Clone, Debug)]
pub struct SplitMix(pub u64);

impl SplitMix {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }

    /// Uniform in [-1, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 52) as f64 - 1.0
    }
}

/// A random array of `shape`, seeded by `seed`.
pub fn random_array(shape: &ArrayShape, seed: u64) -> Array {
    let n = shape.element_count();
    let mut rng = SplitMix(seed.wrapping_mul(0x2545_f491_4f6c_dd1d) ^ 0x5eed);
    let small = |rng: &mut SplitMix| rng.next_u64() % 8;
    let data = match shape.dtype {
        DType::Pred => ArrayData::Pred((0..n).map(|_| rng.next_u64() & 1 == 1).collect()),
        DType::S8 => ArrayData::S8((0..n).map(|_| small(&mut rng) as i8).collect()),
        DType::S16 => ArrayData::S16((0..n).map(|_| small(&mut rng) as i16).collect()),
        DType::S32 => ArrayData::S32((0..n).map(|_| small(&mut rng) as i32).collect()),
        DType::S64 => ArrayData::S64((0..n).map(|_| small(&mut rng) as i64).collect()),
        DType::U8 => ArrayData::U8((0..n).map(|_| small(&mut rng) as u8).collect()),
        DType::U16 => ArrayData::U16((0..n).map(|_| small(&mut rng) as u16).collect()),
        DType::U32 => ArrayData::U32((0..n).map(|_| small(&mut rng) as u32).collect()),
        DType::U64 => ArrayData::U64((0..n).map(|_| small(&mut rng)).collect()),
        DType::F16 => ArrayData::F16((0..n).map(|_| f16::from_f64(rng.unit())).collect()),
        DType::Bf16 => ArrayData::Bf16((0..n).map(|_| bf16::from_f64(rng.unit())).collect()),
        DType::F32 => ArrayData::F32((0..n).map(|_| rng.unit() as f32).collect()),
        DType::F64 => ArrayData::F64((0..n).map(|_| rng.unit()).collect()),
    };
    Array { dims: shape.dims.clone(), data }
}

/// Random values for every parameter shape (tuples filled leaf by leaf).
pub fn random_inputs(params: &[Shape]) -> Vec<Literal> {
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
    params.iter().map(|s| fill(s, &mut seed)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_are_deterministic_and_in_range() {
        let shapes = [Shape::array(DType::F32, [3, 5]), Shape::array(DType::S32, [7])];
        let a = random_inputs(&shapes);
        assert_eq!(a, random_inputs(&shapes));
        let f = a[0].as_array().unwrap().values::<f32>().unwrap();
        assert!(f.iter().all(|x| (-1.0..1.0).contains(x)));
        assert!(a[1].as_array().unwrap().values::<i32>().unwrap().iter().all(|x| (0..8).contains(x)));
    }
}
