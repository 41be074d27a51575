//! Batched matrix products in the canonical dot form: `[b, m, k] x [b, k, n]`
//! (either operand possibly transposed) into a row-major `[b, m, n]`.
//!
//! f32 and f64 products whose operands already have the accumulator type run
//! on the `gemm` crate's packed kernels in place; other float types are
//! widened to f32 (or f64) first and rounded once at the end, as the kernel
//! form's contract says. Integer products accumulate in wrapping i64 in a
//! plain loop (they are small in practice).

use smelt_hlo::DType;

use super::RoutineError;
use super::elements::{Acc, AccKind};

/// The shape of a batched product.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DotShape {
    pub batch: usize,
    pub m: usize,
    pub n: usize,
    pub k: usize,
    /// lhs is `[b, k, m]`.
    pub lhs_transposed: bool,
    /// rhs is `[b, n, k]`.
    pub rhs_transposed: bool,
}

/// Products above this many multiply-adds use every thread.
const PARALLEL_FLOPS: usize = 1 << 18;

/// `out = lhs x rhs`.
///
/// # Safety
/// Each pointer refers to a dense buffer of its type and the shape's size;
/// `out` does not overlap the operands.
pub unsafe fn dot(
    s: &DotShape,
    lhs: (*const u8, DType),
    rhs: (*const u8, DType),
    out: (*mut u8, DType),
) -> Result<(), RoutineError> {
    let (lhs_len, rhs_len, out_len) = (s.batch * s.m * s.k, s.batch * s.k * s.n, s.batch * s.m * s.n);
    if out_len == 0 {
        return Ok(());
    }
    // SAFETY (every call below): the caller's contract on sizes and types.
    unsafe {
        match AccKind::of(out.1) {
            AccKind::F32 if lhs.1 == DType::F32 && rhs.1 == DType::F32 && out.1 == DType::F32 => {
                gemm_batched::<f32>(s, lhs.0.cast(), rhs.0.cast(), out.0.cast());
            }
            AccKind::F64 if lhs.1 == DType::F64 && rhs.1 == DType::F64 => {
                gemm_batched::<f64>(s, lhs.0.cast(), rhs.0.cast(), out.0.cast());
            }
            AccKind::F32 => widened::<f32>(s, lhs, rhs, out),
            AccKind::F64 => widened::<f64>(s, lhs, rhs, out),
            AccKind::I64 => {
                let a = i64::read(lhs.1, lhs.0, lhs_len);
                let b = i64::read(rhs.1, rhs.0, rhs_len);
                let c = naive(s, &a, &b);
                i64::write(&c, out.1, out.0);
            }
        }
    }
    Ok(())
}

/// A float product with operands widened to the accumulator type first and
/// the result rounded once.
///
/// # Safety
/// As for [`dot`].
unsafe fn widened<A: Acc + GemmElem>(
    s: &DotShape,
    lhs: (*const u8, DType),
    rhs: (*const u8, DType),
    out: (*mut u8, DType),
) {
    // SAFETY: the caller's contract.
    unsafe {
        let a = A::read(lhs.1, lhs.0, s.batch * s.m * s.k);
        let b = A::read(rhs.1, rhs.0, s.batch * s.k * s.n);
        let mut c = vec![<A as Acc>::ZERO; s.batch * s.m * s.n];
        gemm_batched::<A>(s, a.as_ptr(), b.as_ptr(), c.as_mut_ptr());
        A::write(&c, out.1, out.0);
    }
}

/// Row and column strides of the operands and the output, in elements.
fn strides(s: &DotShape) -> [(isize, isize); 3] {
    let (m, n, k) = (s.m as isize, s.n as isize, s.k as isize);
    let lhs = if s.lhs_transposed { (1, m) } else { (k, 1) };
    let rhs = if s.rhs_transposed { (1, k) } else { (n, 1) };
    [lhs, rhs, (n, 1)]
}

trait GemmElem: Copy + 'static {
    const ZERO: Self;
    const ONE: Self;
}
impl GemmElem for f32 {
    const ZERO: Self = 0.0;
    const ONE: Self = 1.0;
}
impl GemmElem for f64 {
    const ZERO: Self = 0.0;
    const ONE: Self = 1.0;
}

/// # Safety
/// As for [`dot`], with every operand of type `T`.
unsafe fn gemm_batched<T: GemmElem>(s: &DotShape, a: *const T, b: *const T, c: *mut T) {
    let [(a_rs, a_cs), (b_rs, b_cs), (c_rs, c_cs)] = strides(s);
    let par = if s.m * s.n * s.k >= PARALLEL_FLOPS {
        gemm::Parallelism::Rayon(crate::pool::threads())
    } else {
        gemm::Parallelism::None
    };
    for i in 0..s.batch {
        // SAFETY: batch `i` of each operand lies within its buffer.
        unsafe {
            let a = a.add(i * s.m * s.k);
            let b = b.add(i * s.k * s.n);
            let c = c.add(i * s.m * s.n);
            if s.k == 0 {
                std::slice::from_raw_parts_mut(c, s.m * s.n).fill(T::ZERO);
                continue;
            }
            gemm::gemm(
                s.m,
                s.n,
                s.k,
                c,
                c_cs,
                c_rs,
                false,
                a,
                a_cs,
                a_rs,
                b,
                b_cs,
                b_rs,
                T::ZERO,
                T::ONE,
                false,
                false,
                false,
                par,
            );
        }
    }
}

/// Wrapping integer products in contracting order.
fn naive<A: Acc>(s: &DotShape, a: &[A], b: &[A]) -> Vec<A> {
    let [(a_rs, a_cs), (b_rs, b_cs), _] = strides(s);
    let mut c = vec![A::ZERO; s.batch * s.m * s.n];
    for bi in 0..s.batch {
        let (ao, bo) = (bi * s.m * s.k, bi * s.k * s.n);
        for i in 0..s.m {
            for j in 0..s.n {
                let mut acc = A::ZERO;
                for p in 0..s.k {
                    let x = a[ao + (i as isize * a_rs + p as isize * a_cs) as usize];
                    let y = b[bo + (p as isize * b_rs + j as isize * b_cs) as usize];
                    acc = acc.mul_add(x, y);
                }
                c[bi * s.m * s.n + i * s.n + j] = acc;
            }
        }
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_a_naive_product_in_every_layout() {
        for (lt, rt) in [(false, false), (true, false), (false, true), (true, true)] {
            let s = DotShape { batch: 2, m: 5, n: 7, k: 3, lhs_transposed: lt, rhs_transposed: rt };
            let a: Vec<f32> = (0..2 * 5 * 3).map(|i| (i % 7) as f32 - 3.0).collect();
            let b: Vec<f32> = (0..2 * 3 * 7).map(|i| (i % 5) as f32 * 0.5).collect();
            let mut c = vec![0f32; 2 * 5 * 7];
            unsafe {
                dot(
                    &s,
                    (a.as_ptr().cast(), DType::F32),
                    (b.as_ptr().cast(), DType::F32),
                    (c.as_mut_ptr().cast(), DType::F32),
                )
                .unwrap()
            };
            assert_eq!(c, naive(&s, &a, &b), "lhs_transposed={lt} rhs_transposed={rt}");
        }
    }
}
