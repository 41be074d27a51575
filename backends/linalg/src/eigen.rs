//! The symmetric eigendecomposition (`syevd`) and the singular value
//! decomposition (`gesdd`) through `faer`, in f64 for both element types (an
//! f32 call's results are then rounded once). Eigenvalues ascend, singular
//! values descend, vectors are columns of `v` and `u` and rows of `vt`, as
//! LAPACK returns them; the signs of vectors are faer's (LAPACK fixes none).

use faer::{Mat, Side};

use crate::Float;

/// The eigenvectors (row-major `n x n`, columns; zeros without `vectors`),
/// the eigenvalues, and whether it converged.
pub(crate) fn syevd<T: Float>(a: &[T], n: usize, lower: bool, vectors: bool) -> (Vec<T>, Vec<T>, bool) {
    // The symmetric matrix the triangle holds (faer reads the side given).
    let m = Mat::<f64>::from_fn(n, n, |i, j| a[i * n + j].to_f64());
    let side = if lower { Side::Lower } else { Side::Upper };
    match m.self_adjoint_eigen(side) {
        Ok(e) => {
            let w = (0..n).map(|i| T::of_f64(e.S().column_vector()[i])).collect();
            let u = e.U();
            let v = (0..n * n).map(|x| if vectors { T::of_f64(u[(x / n, x % n)]) } else { T::ZERO }).collect();
            (v, w, true)
        }
        Err(_) => (vec![T::of_f64(f64::NAN); n * n], vec![T::of_f64(f64::NAN); n], false),
    }
}

pub(crate) struct Svd<T> {
    pub s: Vec<T>,
    pub u: Vec<T>,
    pub vt: Vec<T>,
    pub ok: bool,
}

/// Singular values of the row-major `m x n` matrix `a` and, with `vectors`,
/// `u` (`m x uc`) and `vt` (`vr x n`): all of them (`uc = m`, `vr = n`) or
/// the first `min(m, n)`.
pub(crate) fn gesdd<T: Float>(a: &[T], m: usize, n: usize, vectors: bool, (uc, vr): (usize, usize)) -> Svd<T> {
    let k = m.min(n);
    let mat = Mat::<f64>::from_fn(m, n, |i, j| a[i * n + j].to_f64());
    let zeros = |len: usize| vec![T::ZERO; len];
    let full = uc == m && vr == n;
    let done = if full {
        mat.svd().map(|s| (s.U().to_owned(), s.S().column_vector().to_owned(), s.V().to_owned()))
    } else {
        mat.thin_svd().map(|s| (s.U().to_owned(), s.S().column_vector().to_owned(), s.V().to_owned()))
    };
    match done {
        Ok((u, s, v)) => {
            let s = (0..k).map(|i| T::of_f64(s[i])).collect();
            if !vectors {
                return Svd { s, u: zeros(m * uc), vt: zeros(vr * n), ok: true };
            }
            let u = (0..m * uc).map(|x| T::of_f64(u[(x / uc, x % uc)])).collect();
            let vt = (0..vr * n).map(|x| T::of_f64(v[(x % n, x / n)])).collect();
            Svd { s, u, vt, ok: true }
        }
        Err(_) => Svd { s: vec![T::of_f64(f64::NAN); k], u: zeros(m * uc), vt: zeros(vr * n), ok: false },
    }
}
