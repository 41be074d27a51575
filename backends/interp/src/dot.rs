//! `dot` with general dimension numbers, and the accumulator types that `dot`
//! and `convolution` share.
//!
//! The output element type is the instruction's (XLA's preferred element type).
//! Products accumulate in [`Acc`]: f32 for f16/bf16/f32 results (so low-precision
//! dots round once, at the end), f64 for f64, wrapping i64 for integers (which
//! equals wrapping arithmetic in the narrower result type, e.g. s8 x s8 -> s32).
//! Each output element sums its products in contracting-index order.

use smelt_hlo::attrs::DotDims;
use smelt_hlo::{Array, ArrayData, DType, Element, with_data};

use crate::error::{KResult, invalid};
use crate::index::{Odometer, adims, check_dim_list, count, make, strides};
use crate::num::Elem;
use crate::value::with_dtype;

/// An accumulator type for products; values enter and leave it through
/// [`Elem::cast`] and [`Elem::from_cast`].
pub(crate) trait Acc: Elem {
    /// `self + a * b`, rounding the product and the sum separately.
    fn mul_add(self, a: Self, b: Self) -> Self;
}

macro_rules! float_acc {
    ($($t:ty),*) => {$(
        impl Acc for $t {
            #[inline]
            fn mul_add(self, a: Self, b: Self) -> Self {
                use crate::num::Calc;
                // XLA CPU's FTZ/DAZ (see `edge`): flushed operands and sums.
                (self + a.flush() * b.flush()).flush()
            }
        }
    )*};
}

float_acc!(f32, f64);

impl Acc for i64 {
    #[inline]
    fn mul_add(self, a: Self, b: Self) -> Self {
        self.wrapping_add(a.wrapping_mul(b))
    }
}

/// Which accumulator a result type uses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum AccKind {
    F32,
    F64,
    I64,
}

impl AccKind {
    pub(crate) fn for_output(d: DType) -> AccKind {
        match d {
            DType::F64 => AccKind::F64,
            d if d.is_float() => AccKind::F32,
            _ => AccKind::I64,
        }
    }
}

/// Converts every element of `data` to the accumulator type.
pub(crate) fn to_acc<A: Acc>(data: &ArrayData) -> Vec<A> {
    with_data!(data, v => v.iter().map(|&x| A::from_cast(Elem::cast(x))).collect())
}

/// Converts accumulators to the result type.
pub(crate) fn from_acc<A: Acc>(v: &[A], to: DType) -> ArrayData {
    with_dtype!(to, T => {
        let out: Vec<T> = v.iter().map(|&a| <T as Elem>::from_cast(a.cast())).collect();
        <T as Element>::wrap(out)
    })
}

/// Reorders `a` into `[groups..., rows..., cols...]` (each list of dimensions
/// flattened), as accumulators.
fn arrange<A: Acc>(a: &Array, order: &[usize]) -> Vec<A> {
    let dims = adims(a);
    let ss = strides(&dims);
    let out_dims: Vec<usize> = order.iter().map(|&d| dims[d]).collect();
    let acc = to_acc::<A>(&a.data);
    let mut out = Vec::with_capacity(acc.len());
    let mut it = Odometer::new(&out_dims);
    while let Some(idx) = it.next() {
        let off: usize = idx.iter().zip(order).map(|(&i, &d)| i * ss[d]).sum();
        out.push(acc[off]);
    }
    out
}

fn dot_acc<A: Acc>(
    lhs: &Array,
    rhs: &Array,
    lhs_order: &[usize],
    rhs_order: &[usize],
    (b, m, k, n): (usize, usize, usize, usize),
) -> Vec<A> {
    let l = arrange::<A>(lhs, lhs_order); // [b, m, k]
    let r = arrange::<A>(rhs, rhs_order); // [b, k, n]
    let mut out = vec![A::default(); b * m * n];
    for bi in 0..b {
        for mi in 0..m {
            let row = &mut out[(bi * m + mi) * n..(bi * m + mi + 1) * n];
            for ki in 0..k {
                let a = l[(bi * m + mi) * k + ki];
                let rrow = &r[(bi * k + ki) * n..(bi * k + ki + 1) * n];
                for (o, &x) in row.iter_mut().zip(rrow) {
                    *o = o.mul_add(a, x);
                }
            }
        }
    }
    out
}

/// `dot`: output dimensions are the batch dimensions, then lhs's free
/// dimensions, then rhs's, each in operand order.
pub(crate) fn dot(lhs: &Array, rhs: &Array, dd: &DotDims, out_dtype: DType) -> KResult<Array> {
    let (ld, rd) = (adims(lhs), adims(rhs));
    let lb = check_dim_list(&dd.lhs_batch, ld.len(), "lhs batch dimension")?;
    let rb = check_dim_list(&dd.rhs_batch, rd.len(), "rhs batch dimension")?;
    let lc = check_dim_list(&dd.lhs_contracting, ld.len(), "lhs contracting dimension")?;
    let rc = check_dim_list(&dd.rhs_contracting, rd.len(), "rhs contracting dimension")?;
    if lb.len() != rb.len() || lc.len() != rc.len() {
        invalid!("lhs and rhs have different numbers of batch or contracting dimensions");
    }
    for (&a, &b) in lb.iter().zip(&rb).chain(lc.iter().zip(&rc)) {
        if ld[a] != rd[b] {
            invalid!("lhs dimension {a} (size {}) does not match rhs dimension {b} (size {})", ld[a], rd[b]);
        }
    }
    if lb.iter().any(|d| lc.contains(d)) || rb.iter().any(|d| rc.contains(d)) {
        invalid!("a dimension is both batch and contracting");
    }
    let lf: Vec<usize> = (0..ld.len()).filter(|d| !lb.contains(d) && !lc.contains(d)).collect();
    let rf: Vec<usize> = (0..rd.len()).filter(|d| !rb.contains(d) && !rc.contains(d)).collect();
    let size = |dims: &[usize], list: &[usize]| list.iter().map(|&d| dims[d]).product::<usize>();
    let (b, m, k, n) = (size(&ld, &lb), size(&ld, &lf), size(&ld, &lc), size(&rd, &rf));
    let mut out_dims: Vec<usize> = lb.iter().map(|&d| ld[d]).collect();
    out_dims.extend(lf.iter().map(|&d| ld[d]));
    out_dims.extend(rf.iter().map(|&d| rd[d]));
    count(&out_dims)?;
    let lorder: Vec<usize> = lb.iter().chain(&lf).chain(&lc).copied().collect();
    let rorder: Vec<usize> = rb.iter().chain(&rc).chain(&rf).copied().collect();
    let data = match AccKind::for_output(out_dtype) {
        AccKind::F32 => from_acc(&dot_acc::<f32>(lhs, rhs, &lorder, &rorder, (b, m, k, n)), out_dtype),
        AccKind::F64 => from_acc(&dot_acc::<f64>(lhs, rhs, &lorder, &rorder, (b, m, k, n)), out_dtype),
        AccKind::I64 => from_acc(&dot_acc::<i64>(lhs, rhs, &lorder, &rorder, (b, m, k, n)), out_dtype),
    };
    Ok(make(&out_dims, data))
}

#[cfg(test)]
mod tests {
    use super::*;
    use half::bf16;

    fn dims(lb: &[i64], rb: &[i64], lc: &[i64], rc: &[i64]) -> DotDims {
        DotDims {
            lhs_batch: lb.iter().copied().collect(),
            rhs_batch: rb.iter().copied().collect(),
            lhs_contracting: lc.iter().copied().collect(),
            rhs_contracting: rc.iter().copied().collect(),
        }
    }

    #[test]
    fn matmul_and_batch_dims_in_odd_places() {
        let a = Array::from_vec([2, 3], vec![1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0]);
        let b = Array::from_vec([3, 2], vec![1.0f32, 0.0, 0.0, 1.0, 1.0, 1.0]);
        let r = dot(&a, &b, &dims(&[], &[], &[1], &[0]), DType::F32).unwrap();
        assert_eq!(r.values::<f32>().unwrap(), &[4.0, 5.0, 10.0, 11.0]);
        // Batch on lhs dim 1 and rhs dim 0, contracting lhs dim 0 with rhs dim 1.
        let l = Array::from_vec([2, 2], vec![1.0f32, 2.0, 3.0, 4.0]); // [k, b]
        let r2 = Array::from_vec([2, 2], vec![1.0f32, 1.0, 2.0, 0.0]); // [b, k]
        let r = dot(&l, &r2, &dims(&[1], &[0], &[0], &[1]), DType::F32).unwrap();
        // b=0: l[:,0]=[1,3] . [1,1] = 4; b=1: l[:,1]=[2,4] . [2,0] = 4.
        assert_eq!(r.values::<f32>().unwrap(), &[4.0, 4.0]);
    }

    #[test]
    fn low_precision_accumulates_in_f32_and_ints_wrap() {
        // 256 + 1 + 1 ... in bf16 per step would stay 256; in f32 then rounded it is 260.
        let a = Array::from_vec([5], vec![bf16::from_f32(256.0), bf16::ONE, bf16::ONE, bf16::ONE, bf16::ONE]);
        let ones = Array::from_vec([5], vec![bf16::ONE; 5]);
        let r = dot(&a, &ones, &dims(&[], &[], &[0], &[0]), DType::Bf16).unwrap();
        assert_eq!(r.values::<bf16>().unwrap(), &[bf16::from_f32(260.0)]);
        let s = Array::from_vec([2], vec![-128i8, 127]);
        let r = dot(&s, &s, &dims(&[], &[], &[0], &[0]), DType::S32).unwrap();
        assert_eq!(r.values::<i32>().unwrap(), &[128 * 128 + 127 * 127]);
    }
}
