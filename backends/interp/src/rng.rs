//! Random numbers: `rng-bit-generator` exactly as XLA expands it
//! (`RngBitGeneratorExpander` over `xla/hlo/builder/lib/prng.cc`), and the legacy
//! `rng` op.
//!
//! `rng-bit-generator(state)` returns `(new_state, bits)`. The state is `u64[2]`
//! (threefry) or `u64[2]`/`u64[3]` (philox); element 0 is the key. XLA CPU's
//! default algorithm is philox. The bit layouts below follow prng.cc step by step:
//!
//! - Threefry, 32-bit results: the shape is split in halves along its first
//!   even dimension (else its largest); counter `state[1] + i` for each element
//!   `i` of the half shape gives two words, and the halves interleave along the
//!   split dimension (`out[.., 2h + c, ..] = word_c[.., h, ..]`). The state
//!   advances by the half's element count. 64-bit results: counter
//!   `state[1] + i` per element, words combined low then high. Narrower types take
//!   the low bits of the 32-bit result.
//! - Philox4x32-10: a 128-bit counter (`state[1]` low, `state[2]` high, or for
//!   a 2-element state `state[1]` low and `state[0]` high) plus `i` gives four
//!   words per step, laid out in order; 64-bit results pair words (0,1) and (2,3).
//!   The counter advances by the number of steps.
//!
//! The legacy `rng` op's values are implementation-defined in XLA; here they come
//! from a philox stream private to one evaluation, so runs are reproducible.

use smelt_hlo::attrs::{RngAlgorithm, RngDistribution};
use smelt_hlo::{Array, ArrayData, ArrayShape, DType, Literal};

use crate::error::{KResult, invalid, unsupported};
use crate::index::{Odometer, count, dims_of, make, strides};
use crate::num::Cast;
use crate::value::{Scalar, scalar_of};

/// Threefry-2x32 with 20 rounds (Salmon et al. 2011), as XLA defines it.
pub(crate) fn threefry2x32(key: [u32; 2], counter: [u32; 2]) -> [u32; 2] {
    const ROTATIONS: [u32; 8] = [13, 15, 26, 6, 17, 29, 16, 24];
    let ks = [key[0], key[1], 0x1BD1_1BDA ^ key[0] ^ key[1]];
    let mut x = [counter[0].wrapping_add(ks[0]), counter[1].wrapping_add(ks[1])];
    let round = |x: &mut [u32; 2], r: u32| {
        x[0] = x[0].wrapping_add(x[1]);
        x[1] = x[1].rotate_left(r);
        x[1] ^= x[0];
    };
    for block in 0..5u32 {
        let rots = if block % 2 == 0 { &ROTATIONS[..4] } else { &ROTATIONS[4..] };
        for &r in rots {
            round(&mut x, r);
        }
        // Key injection after every four rounds.
        let i = block as usize + 1;
        x[0] = x[0].wrapping_add(ks[i % 3]);
        x[1] = x[1].wrapping_add(ks[(i + 1) % 3]).wrapping_add(i as u32);
    }
    x
}

/// Philox-4x32 with 10 rounds, as XLA defines it.
pub(crate) fn philox4x32(counter: [u32; 4], key: [u32; 2]) -> [u32; 4] {
    const W_A: u32 = 0x9E37_79B9;
    const W_B: u32 = 0xBB67_AE85;
    const M_A: u64 = 0xD251_1F53;
    const M_B: u64 = 0xCD9E_8D57;
    let mut x = counter;
    let mut k = key;
    for _ in 0..10 {
        let p0 = x[0] as u64 * M_A;
        let p1 = x[2] as u64 * M_B;
        x = [((p1 >> 32) as u32) ^ x[1] ^ k[0], p1 as u32, ((p0 >> 32) as u32) ^ x[3] ^ k[1], p0 as u32];
        k = [k[0].wrapping_add(W_A), k[1].wrapping_add(W_B)];
    }
    x
}

fn split_u64(v: u64) -> [u32; 2] {
    [v as u32, (v >> 32) as u32]
}

/// XLA's `SplitShapeIntoHalves`: the dimension split for 32-bit threefry, or
/// `None` for a scalar.
fn split_dim(dims: &[usize]) -> Option<usize> {
    if dims.is_empty() {
        return None;
    }
    if let Some(d) = dims.iter().position(|&d| d % 2 == 0) {
        return Some(d);
    }
    let mut best = 0;
    for (i, &d) in dims.iter().enumerate() {
        if d > dims[best] {
            best = i;
        }
    }
    Some(best)
}

/// Threefry bits as u32 (for widths up to 32) and the new counter.
fn threefry_bits32(key: u64, ctr: u64, dims: &[usize]) -> KResult<(Vec<u32>, u64)> {
    let n = count(dims)?;
    let k = split_u64(key);
    let Some(sd) = split_dim(dims) else {
        let w = threefry2x32(k, split_u64(ctr));
        return Ok((vec![w[0]], ctr.wrapping_add(1)));
    };
    let mut half = dims.to_vec();
    half[sd] = dims[sd].div_ceil(2);
    let half_n = count(&half)?;
    let words: Vec<[u32; 2]> = (0..half_n as u64).map(|i| threefry2x32(k, split_u64(ctr.wrapping_add(i)))).collect();
    let hs = strides(&half);
    let mut out = Vec::with_capacity(n);
    let mut it = Odometer::new(dims);
    while let Some(idx) = it.next() {
        let mut off = 0;
        for (d, (&i, &s)) in idx.iter().zip(&hs).enumerate() {
            off += if d == sd { i / 2 } else { i } * s;
        }
        out.push(words[off][idx[sd] % 2]);
    }
    Ok((out, ctr.wrapping_add(half_n as u64)))
}

/// Philox words for `n` 32-bit values (`n` rounded up to whole steps) and the new counter.
fn philox_words(key: u64, ctr: (u64, u64), n: usize) -> (Vec<[u32; 4]>, (u64, u64)) {
    let k = split_u64(key);
    let steps = n.div_ceil(4) as u64;
    let add = |c: (u64, u64), i: u64| {
        let lo = c.0.wrapping_add(i);
        (lo, if lo < c.0 { c.1.wrapping_add(1) } else { c.1 })
    };
    let words = (0..steps)
        .map(|i| {
            let c = add(ctr, i);
            let (a, b) = (split_u64(c.0), split_u64(c.1));
            philox4x32([a[0], a[1], b[0], b[1]], k)
        })
        .collect();
    (words, add(ctr, steps))
}

/// Truncates 32-bit values to the width of `to` and reinterprets them.
fn narrow(bits: &[u32], to: DType) -> ArrayData {
    let mut bytes = Vec::with_capacity(bits.len() * to.byte_size());
    for &b in bits {
        bytes.extend_from_slice(&b.to_le_bytes()[..to.byte_size()]);
    }
    ArrayData::from_le_bytes(to, &bytes)
}

fn from_u64(bits: &[u64], to: DType) -> ArrayData {
    let bytes: Vec<u8> = bits.iter().flat_map(|b| b.to_le_bytes()).collect();
    ArrayData::from_le_bytes(to, &bytes)
}

pub(crate) fn rng_bit_generator(algorithm: RngAlgorithm, state: &Array, out: &ArrayShape) -> KResult<Literal> {
    let ArrayData::U64(s) = &state.data else {
        invalid!("rng state must be u64, got {}", state.shape());
    };
    if state.dims.len() != 1 {
        invalid!("rng state must be rank 1, got {}", state.shape());
    }
    let dims = dims_of(&out.dims)?;
    let n = count(&dims)?;
    let width = out.dtype.byte_size();
    if out.dtype == DType::Pred {
        unsupported!("rng-bit-generator producing pred");
    }
    let algorithm = match algorithm {
        // XLA CPU expands the default algorithm as philox.
        RngAlgorithm::Default => RngAlgorithm::Philox,
        a => a,
    };
    let (data, new_state) = match algorithm {
        RngAlgorithm::ThreeFry => {
            if s.len() != 2 {
                invalid!("threefry needs a u64[2] state, got {}", state.shape());
            }
            let (key, ctr) = (s[0], s[1]);
            if width == 8 {
                let bits: Vec<u64> = (0..n as u64)
                    .map(|i| {
                        let w = threefry2x32(split_u64(key), split_u64(ctr.wrapping_add(i)));
                        w[0] as u64 | (w[1] as u64) << 32
                    })
                    .collect();
                (from_u64(&bits, out.dtype), vec![key, ctr.wrapping_add(n as u64)])
            } else {
                let (bits, ctr) = threefry_bits32(key, ctr, &dims)?;
                (narrow(&bits, out.dtype), vec![key, ctr])
            }
        }
        _ => {
            let (key, ctr) = match s.as_slice() {
                [k, lo] => (*k, (*lo, *k)),
                [k, lo, hi] => (*k, (*lo, *hi)),
                _ => invalid!("philox needs a u64[2] or u64[3] state, got {}", state.shape()),
            };
            let (data, ctr) = if width == 8 {
                let (words, ctr) = philox_words(key, ctr, 2 * n);
                let bits: Vec<u64> = words
                    .iter()
                    .flat_map(|w| [w[0] as u64 | (w[1] as u64) << 32, w[2] as u64 | (w[3] as u64) << 32])
                    .take(n)
                    .collect();
                (from_u64(&bits, out.dtype), ctr)
            } else {
                let (words, ctr) = philox_words(key, ctr, n);
                let bits: Vec<u32> = words.iter().flatten().copied().take(n).collect();
                (narrow(&bits, out.dtype), ctr)
            };
            let new_state = if s.len() == 2 { vec![key, ctr.0] } else { vec![key, ctr.0, ctr.1] };
            (data, new_state)
        }
    };
    let state_len = new_state.len();
    Ok(Literal::Tuple(vec![
        Literal::Array(make(&[state_len], ArrayData::U64(new_state))),
        Literal::Array(make(&dims, data)),
    ]))
}

/// The legacy `rng` op: uniform in `[a, b)` or normal with mean `a` and
/// standard deviation `b`, drawn from `stream` (a philox counter advanced here).
pub(crate) fn rng(
    distribution: RngDistribution,
    a: &Array,
    b: &Array,
    out: &ArrayShape,
    stream: &mut u64,
) -> KResult<Array> {
    let (lo, hi) = (scalar_of(a, "rng parameter")?, scalar_of(b, "rng parameter")?);
    if lo.dtype() != out.dtype || hi.dtype() != out.dtype {
        invalid!("rng parameters must be scalars of the result type {}", out.dtype);
    }
    let dims = dims_of(&out.dims)?;
    let n = count(&dims)?;
    let (words, ctr) = philox_words(0x5eed, (*stream, 0), 2 * n);
    *stream = ctr.0;
    let bits: Vec<u64> = words
        .iter()
        .flat_map(|w| [w[0] as u64 | (w[1] as u64) << 32, w[2] as u64 | (w[3] as u64) << 32])
        .take(n)
        .collect();
    let unit = |b: u64| (b >> 11) as f64 / (1u64 << 53) as f64;
    let as_f64 = |s: Scalar| match s.cast() {
        Cast::Int(i) => i as f64,
        Cast::Float(f) => f,
    };
    let mut data = ArrayData::zeros(out.dtype, n);
    for (i, &b) in bits.iter().enumerate() {
        let v = match (distribution, out.dtype.is_float()) {
            (RngDistribution::Uniform, true) => Cast::Float(as_f64(lo) + (as_f64(hi) - as_f64(lo)) * unit(b)),
            (RngDistribution::Uniform, false) => {
                let (l, h) = (lo.as_index() as i128, hi.as_index() as i128);
                let span = (h - l).max(1) as u128;
                Cast::Int(l + (b as u128 % span) as i128)
            }
            (RngDistribution::Normal, true) => {
                // Box-Muller on two uniforms from one 64-bit draw.
                let u1 = ((b >> 32) as f64 + 1.0) / 4294967296.0;
                let u2 = (b as u32) as f64 / 4294967296.0;
                let z = (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
                Cast::Float(as_f64(lo) + as_f64(hi) * z)
            }
            (RngDistribution::Normal, false) => {
                unsupported!("rng normal distribution over {}", out.dtype)
            }
        };
        Scalar::from_cast(out.dtype, v).set(&mut data, i);
    }
    Ok(make(&dims, data))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u64s(v: &[u64]) -> Array {
        Array::from_vec([v.len() as i64], v.to_vec())
    }

    fn bits(l: &Literal) -> (Vec<u64>, Vec<u32>) {
        let Literal::Tuple(t) = l else { panic!("tuple expected") };
        (
            t[0].as_array().unwrap().values::<u64>().unwrap().to_vec(),
            t[1].as_array().unwrap().values::<u32>().unwrap().to_vec(),
        )
    }

    #[test]
    fn threefry_known_answers() {
        // Random123's kat_vectors for threefry2x32_20 (also JAX's tests).
        assert_eq!(threefry2x32([0, 0], [0, 0]), [0x6b200159, 0x99ba4efe]);
        assert_eq!(threefry2x32([u32::MAX, u32::MAX], [u32::MAX, u32::MAX]), [0x1cb996fc, 0xbb002be7]);
        assert_eq!(threefry2x32([0x13198a2e, 0x03707344], [0x243f6a88, 0x85a308d3]), [0xc4923a9c, 0x483df7a0]);
    }

    #[test]
    fn philox_known_answers() {
        // Random123's kat_vectors for philox4x32_10.
        assert_eq!(philox4x32([0; 4], [0; 2]), [0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8]);
        assert_eq!(philox4x32([u32::MAX; 4], [u32::MAX; 2]), [0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd]);
        assert_eq!(
            philox4x32([0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344], [0xa4093822, 0x299f31d0]),
            [0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1]
        );
    }

    #[test]
    fn threefry_generator_layout() {
        // u32[4]: split along dimension 0 into halves of 2; counters 0 and 1
        // interleave: [w(0)[0], w(0)[1], w(1)[0], w(1)[1]].
        let out = ArrayShape::new(DType::U32, [4]);
        let r = rng_bit_generator(RngAlgorithm::ThreeFry, &u64s(&[0, 0]), &out).unwrap();
        let (state, v) = bits(&r);
        let w1 = threefry2x32([0, 0], [1, 0]);
        assert_eq!(v, vec![0x6b200159, 0x99ba4efe, w1[0], w1[1]]);
        assert_eq!(state, vec![0, 2]);
        // The pi vector through the generator: key in state[0], counter in state[1].
        let out = ArrayShape::new(DType::U32, [2]);
        let st = u64s(&[0x03707344_13198a2e, 0x85a308d3_243f6a88]);
        let (_, v) = bits(&rng_bit_generator(RngAlgorithm::ThreeFry, &st, &out).unwrap());
        assert_eq!(v, vec![0xc4923a9c, 0x483df7a0]);
    }

    #[test]
    fn sixty_four_bit_layouts() {
        let values = |alg, n: i64| {
            let out = ArrayShape::new(DType::U64, [n]);
            let Literal::Tuple(t) = rng_bit_generator(alg, &u64s(&[0, 0]), &out).unwrap() else {
                panic!("tuple expected")
            };
            t[1].as_array().unwrap().values::<u64>().unwrap().to_vec()
        };
        // Threefry: one counter per element, words joined low then high.
        assert_eq!(values(RngAlgorithm::ThreeFry, 1), vec![0x99ba4efe_6b200159]);
        // Philox: words (0,1) and (2,3) of each step.
        assert_eq!(values(RngAlgorithm::Philox, 2), vec![0xe169c58d_6627e8d5, 0x9b00dbd8_bc57ac4c]);
    }

    #[test]
    fn philox_generator_layout_and_default() {
        // A 3-word state [key, counter low, counter high].
        let out = ArrayShape::new(DType::U32, [4]);
        let st = u64s(&[0x299f31d0_a4093822, 0x85a308d3_243f6a88, 0x03707344_13198a2e]);
        let (state, v) = bits(&rng_bit_generator(RngAlgorithm::Philox, &st, &out).unwrap());
        assert_eq!(v, vec![0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1]);
        assert_eq!(state, vec![0x299f31d0_a4093822, 0x85a308d3_243f6a89, 0x03707344_13198a2e]);
        // A 2-word state [key, counter low]; the key doubles as the counter's high word.
        let out = ArrayShape::new(DType::U32, [3]);
        let (state, v) = bits(&rng_bit_generator(RngAlgorithm::Default, &u64s(&[0, 0]), &out).unwrap());
        assert_eq!(v, vec![0x6627e8d5, 0xe169c58d, 0xbc57ac4c]);
        assert_eq!(state, vec![0, 1]);
    }
}
