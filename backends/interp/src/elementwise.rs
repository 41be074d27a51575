//! Elementwise kernels over whole arrays: unary and binary arithmetic, compare,
//! select, clamp, convert, bitcast-convert, is-finite and reduce-precision.
//!
//! Each kernel checks operand shapes and element types once, then runs a typed
//! loop over [`Elem`]'s per-element semantics. Binary ops that dominate real
//! programs (add, multiply, ...) get loops specialized on the opcode so the
//! per-element `match` folds away.

use smelt_hlo::attrs::{CompareType, ComparisonDirection};
use smelt_hlo::{Array, ArrayData, DType, Element, Opcode, map_data, with_data};

use crate::error::{KResult, invalid, unsupported};
use crate::num::Elem;
use crate::value::{binary_ok, convert_data, unary_ok, zip_data};

fn same_dims(a: &Array, b: &Array, what: &str) -> KResult<()> {
    if a.dims != b.dims {
        invalid!("{what}: operand shapes {} and {} differ", a.shape(), b.shape());
    }
    Ok(())
}

fn same_dtype(a: &Array, b: &Array, what: &str) -> KResult<()> {
    if a.dtype() != b.dtype() {
        invalid!("{what}: operand element types {} and {} differ", a.dtype(), b.dtype());
    }
    Ok(())
}

/// The typed slice of `data` with the element type of `_like`.
fn typed<'a, T: Element>(_like: &[T], data: &'a ArrayData) -> KResult<&'a [T]> {
    match T::unwrap(data) {
        Some(v) => Ok(v),
        None => invalid!("operand element type {} where {} was expected", data.dtype(), T::DTYPE),
    }
}

pub(crate) fn unary(op: Opcode, a: &Array) -> KResult<Array> {
    if !unary_ok(a.dtype(), op) {
        unsupported!("{op} on {}", a.dtype());
    }
    let data = map_data!(&a.data, v => v.iter().map(|&x| Elem::unary(op, x)).collect());
    Ok(Array { dims: a.dims.clone(), data })
}

fn binary_vec<T: Elem>(op: Opcode, x: &[T], y: &[T]) -> Vec<T> {
    macro_rules! go {
        ($op:expr) => {
            x.iter().zip(y).map(|(&p, &q)| T::binary($op, p, q)).collect()
        };
    }
    match op {
        Opcode::Add => go!(Opcode::Add),
        Opcode::Subtract => go!(Opcode::Subtract),
        Opcode::Multiply => go!(Opcode::Multiply),
        Opcode::Divide => go!(Opcode::Divide),
        Opcode::Maximum => go!(Opcode::Maximum),
        Opcode::Minimum => go!(Opcode::Minimum),
        _ => go!(op),
    }
}

pub(crate) fn binary(op: Opcode, a: &Array, b: &Array) -> KResult<Array> {
    same_dims(a, b, op.name())?;
    same_dtype(a, b, op.name())?;
    if !binary_ok(a.dtype(), op) {
        unsupported!("{op} on {}", a.dtype());
    }
    let data = zip_data!(&a.data, &b.data, x, y => Element::wrap(binary_vec(op, x, y)),
        else invalid!("{op}: operand element types differ"));
    Ok(Array { dims: a.dims.clone(), data })
}

pub(crate) fn compare(dir: ComparisonDirection, ty: Option<CompareType>, a: &Array, b: &Array) -> KResult<Array> {
    same_dims(a, b, "compare")?;
    same_dtype(a, b, "compare")?;
    let out: Vec<bool> = zip_data!(&a.data, &b.data, x, y =>
        x.iter().zip(y.iter()).map(|(&p, &q)| Elem::compare(dir, ty, p, q)).collect(),
        else invalid!("compare: operand element types differ"));
    Ok(Array { dims: a.dims.clone(), data: ArrayData::Pred(out) })
}

/// `select(pred, on_true, on_false)`; `pred` may be a scalar.
pub(crate) fn select(p: &Array, t: &Array, f: &Array) -> KResult<Array> {
    let ArrayData::Pred(pv) = &p.data else {
        invalid!("select: predicate must be pred, got {}", p.dtype());
    };
    same_dims(t, f, "select")?;
    same_dtype(t, f, "select")?;
    let scalar = p.dims.is_empty();
    if !scalar && p.dims != t.dims {
        invalid!("select: predicate shape {} does not match {}", p.shape(), t.shape());
    }
    let data = zip_data!(&t.data, &f.data, x, y => {
        let out: Vec<_> = if scalar {
            if pv[0] { x.clone() } else { y.clone() }
        } else {
            pv.iter().zip(x.iter().zip(y.iter())).map(|(&c, (&a, &b))| if c { a } else { b }).collect()
        };
        Element::wrap(out)
    }, else invalid!("select: operand element types differ"));
    Ok(Array { dims: t.dims.clone(), data })
}

/// `clamp(min, x, max) = min(max, maximum(min, x))`, with XLA's NaN-propagating
/// float max/min; `min` and `max` may be scalars.
pub(crate) fn clamp(lo: &Array, x: &Array, hi: &Array) -> KResult<Array> {
    for (bound, name) in [(lo, "min"), (hi, "max")] {
        same_dtype(bound, x, "clamp")?;
        if !bound.dims.is_empty() && bound.dims != x.dims {
            invalid!("clamp: {name} shape {} does not match operand {}", bound.shape(), x.shape());
        }
    }
    if !binary_ok(x.dtype(), Opcode::Maximum) {
        unsupported!("clamp on {}", x.dtype());
    }
    let data = with_data!(&x.data, xv => {
        let lv = typed(xv, &lo.data)?;
        let hv = typed(xv, &hi.data)?;
        let out: Vec<_> = xv
            .iter()
            .enumerate()
            .map(|(i, &v)| {
                let l = if lv.len() == 1 { lv[0] } else { lv[i] };
                let h = if hv.len() == 1 { hv[0] } else { hv[i] };
                crate::num::clamp(l, v, h)
            })
            .collect();
        Element::wrap(out)
    });
    Ok(Array { dims: x.dims.clone(), data })
}

pub(crate) fn convert(a: &Array, to: DType) -> Array {
    Array { dims: a.dims.clone(), data: convert_data(&a.data, to) }
}

/// Reinterprets the bits (little-endian). Between types of different widths the
/// wider side has one more trailing dimension of `wide / narrow` elements:
/// `f32[N] <-> u8[N,4]`.
pub(crate) fn bitcast_convert(a: &Array, to: DType, out_dims: &[i64]) -> KResult<Array> {
    let from = a.dtype();
    let (wi, wo) = (from.byte_size(), to.byte_size());
    let mut expected = a.dims.clone();
    if wi > wo {
        expected.push((wi / wo) as i64);
    } else if wi < wo {
        if expected.last() != Some(&((wo / wi) as i64)) {
            invalid!("bitcast-convert from {} to {to} needs a last dimension of {}", a.shape(), wo / wi);
        }
        expected.pop();
    }
    if expected.as_slice() != out_dims {
        invalid!(
            "bitcast-convert of {} to {to} gives dimensions {:?}, not {:?}",
            a.shape(),
            expected.as_slice(),
            out_dims
        );
    }
    let data = ArrayData::from_le_bytes(to, &a.data.to_le_bytes());
    Ok(Array { dims: expected, data })
}

pub(crate) fn is_finite(a: &Array) -> KResult<Array> {
    if !a.dtype().is_float() {
        unsupported!("is-finite on {}", a.dtype());
    }
    let out: Vec<bool> = with_data!(&a.data, v => v.iter().map(|&x| Elem::is_finite(x)).collect());
    Ok(Array { dims: a.dims.clone(), data: ArrayData::Pred(out) })
}

/// XLA's `ReducePrecision` on raw bits: rounds the mantissa to `mant_bits` (to
/// nearest even) and flushes values outside the range of `exp_bits` exponent bits
/// to ±inf / ±0. `total`, `src_mant`, `src_exp` describe the storage format.
fn reduce_precision_bits(bits: u64, total: u32, src_mant: u32, src_exp: u32, exp_bits: u32, mant_bits: u32) -> u64 {
    let width_mask = if total == 64 { u64::MAX } else { (1u64 << total) - 1 };
    let mut v = bits;
    if mant_bits < src_mant {
        let last_mantissa_bit_mask = 1u64 << (src_mant - mant_bits);
        let base_rounding_bias = (last_mantissa_bit_mask >> 1) - 1;
        let x_last_mantissa_bit = (v & last_mantissa_bit_mask) >> (src_mant - mant_bits);
        let x_rounding_bias = x_last_mantissa_bit + base_rounding_bias;
        let truncation_mask = !(last_mantissa_bit_mask - 1);
        v = (v.wrapping_add(x_rounding_bias) & truncation_mask) & width_mask;
    }
    if exp_bits < src_exp {
        let sign_bit_mask = 1u64 << (total - 1);
        let exp_bits_mask = ((1u64 << src_exp) - 1) << src_mant;
        let exponent_bias = (1u64 << (src_exp - 1)) - 1;
        let reduced_exponent_bias = (1u64 << (exp_bits - 1)) - 1;
        let reduced_max_exponent = exponent_bias + reduced_exponent_bias;
        let reduced_min_exponent = exponent_bias - reduced_exponent_bias;
        let x_exponent = v & exp_bits_mask;
        let x_signed_zero = v & sign_bit_mask;
        if x_exponent > (reduced_max_exponent << src_mant) {
            v = x_signed_zero | exp_bits_mask;
        } else if x_exponent <= (reduced_min_exponent << src_mant) {
            v = x_signed_zero;
        }
    }
    v
}

pub(crate) fn reduce_precision(a: &Array, exponent_bits: i64, mantissa_bits: i64) -> KResult<Array> {
    if !(1..=64).contains(&exponent_bits) || !(0..=64).contains(&mantissa_bits) {
        invalid!("reduce-precision needs exponent_bits >= 1 and mantissa_bits >= 0");
    }
    let (e, m) = (exponent_bits as u32, mantissa_bits as u32);
    // Each float type with its bits type and its mantissa and exponent widths.
    // A NaN stays NaN unless no mantissa bits are left to hold it.
    macro_rules! go {
        ($v:expr, $t:ty, $bits:ty, $sm:expr, $se:expr) => {
            $v.iter()
                .map(|&x: &$t| {
                    if x.is_nan() {
                        if m > 0 { x } else { <$t>::INFINITY }
                    } else {
                        let r = reduce_precision_bits(u64::from(x.to_bits()), <$bits>::BITS, $sm, $se, e, m);
                        // The result keeps within the type's width.
                        <$t>::from_bits(r as $bits)
                    }
                })
                .collect()
        };
    }
    use half::{bf16, f16};
    let data = match &a.data {
        ArrayData::F16(v) => ArrayData::F16(go!(v, f16, u16, 10, 5)),
        ArrayData::Bf16(v) => ArrayData::Bf16(go!(v, bf16, u16, 7, 8)),
        ArrayData::F32(v) => ArrayData::F32(go!(v, f32, u32, 23, 8)),
        ArrayData::F64(v) => ArrayData::F64(go!(v, f64, u64, 52, 11)),
        other => unsupported!("reduce-precision on {}", other.dtype()),
    };
    Ok(Array { dims: a.dims.clone(), data })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f32s(v: &[f32]) -> Array {
        Array::from_vec([v.len() as i64], v.to_vec())
    }

    #[test]
    fn reduce_precision_to_bf16_matches_rounding() {
        let x = [1.0f32 + 1.0 / 256.0, 1.0 + 3.0 / 256.0, 3.0e38, 1e-39, -2.5];
        let r = reduce_precision(&f32s(&x), 8, 7).unwrap();
        let want: Vec<f32> = x.iter().map(|&v| half::bf16::from_f32(v).to_f32()).collect();
        assert_eq!(r.values::<f32>().unwrap()[..4], want[..4]);
        // To f16's range: 1e5 overflows to inf, 1e-8 flushes to zero.
        let r = reduce_precision(&f32s(&[1e5, 1e-8, -1e5]), 5, 10).unwrap();
        assert_eq!(r.values::<f32>().unwrap(), &[f32::INFINITY, 0.0, f32::NEG_INFINITY]);
    }

    #[test]
    fn bitcast_convert_changes_width_little_endian() {
        let a = f32s(&[1.0]);
        let b = bitcast_convert(&a, DType::U8, &[1, 4]).unwrap();
        assert_eq!(b.values::<u8>().unwrap(), &[0, 0, 0x80, 0x3f]);
        let back = bitcast_convert(&b, DType::F32, &[1]).unwrap();
        assert_eq!(back, a);
        assert!(bitcast_convert(&a, DType::U8, &[4]).is_err());
    }

    #[test]
    fn clamp_with_scalar_bounds_propagates_nan() {
        let x = f32s(&[-5.0, 0.5, 5.0, f32::NAN]);
        let r = clamp(&Array::scalar(0.0f32), &x, &Array::scalar(1.0f32)).unwrap();
        let v = r.values::<f32>().unwrap();
        assert_eq!(&v[..3], &[0.0, 0.5, 1.0]);
        assert!(v[3].is_nan());
    }

    #[test]
    fn unsupported_element_types_are_errors() {
        assert!(unary(Opcode::Popcnt, &f32s(&[1.0])).is_err());
        assert!(binary(Opcode::ShiftLeft, &f32s(&[1.0]), &f32s(&[1.0])).is_err());
        assert!(binary(Opcode::Add, &f32s(&[1.0]), &f32s(&[1.0, 2.0])).is_err());
    }
}
