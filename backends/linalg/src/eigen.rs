//! The symmetric and Hermitian eigendecompositions (`syevd`, `heevd`), the
//! singular value decomposition (`gesdd`) and the general eigendecomposition
//! (`geev`) through `faer`, in f64 (or its complex form) for every element
//! type (an f32 call's results are then rounded once). Eigenvalues ascend,
//! singular values descend, vectors are columns of `v` and `u` and rows of
//! `vt`, as LAPACK returns them; the signs (phases) of vectors are faer's
//! (LAPACK fixes none).

use faer::{Mat, Side, c64};

use crate::Float;
use crate::scalar::Scalar;

/// The row-major `rows x cols` matrix `a` in faer's f64 form.
fn matrix<S: Scalar>(a: &[S], rows: usize, cols: usize) -> Mat<S::Wide> {
    Mat::from_fn(rows, cols, |i, j| a[i * cols + j].wide())
}

/// The eigenvectors (row-major `n x n`, columns; zeros without `vectors`),
/// the eigenvalues, and whether it converged: `syevd`, or `heevd` for a
/// Hermitian matrix.
pub(crate) fn syevd<S: Scalar>(a: &[S], n: usize, lower: bool, vectors: bool) -> (Vec<S>, Vec<S::Real>, bool) {
    // The self-adjoint matrix the triangle holds (faer reads the side given).
    let side = if lower { Side::Lower } else { Side::Upper };
    match matrix(a, n, n).self_adjoint_eigen(side) {
        Ok(e) => {
            let w = (0..n).map(|i| S::of_wide(&e.S().column_vector()[i]).re()).collect();
            let u = e.U();
            let v = (0..n * n).map(|x| if vectors { S::of_wide(&u[(x / n, x % n)]) } else { S::ZERO }).collect();
            (v, w, true)
        }
        Err(_) => {
            let nan = S::Real::of_f64(f64::NAN);
            (vec![S::of_parts(nan, nan); n * n], vec![nan; n], false)
        }
    }
}

pub(crate) struct Svd<S: Scalar> {
    pub s: Vec<S::Real>,
    pub u: Vec<S>,
    pub vt: Vec<S>,
    pub ok: bool,
}

/// Singular values of the row-major `m x n` matrix `a` and, with `vectors`,
/// `u` (`m x uc`) and `vt` (`vr x n`, `V^H`): all of them (`uc = m`, `vr =
/// n`) or the first `min(m, n)`.
pub(crate) fn gesdd<S: Scalar>(a: &[S], m: usize, n: usize, vectors: bool, (uc, vr): (usize, usize)) -> Svd<S> {
    let k = m.min(n);
    let mat = matrix(a, m, n);
    let zeros = |len: usize| vec![S::ZERO; len];
    let full = uc == m && vr == n;
    let done = if full {
        mat.svd().map(|s| (s.U().to_owned(), s.S().column_vector().to_owned(), s.V().to_owned()))
    } else {
        mat.thin_svd().map(|s| (s.U().to_owned(), s.S().column_vector().to_owned(), s.V().to_owned()))
    };
    match done {
        Ok((u, s, v)) => {
            let s = (0..k).map(|i| S::of_wide(&s[i]).re()).collect();
            if !vectors {
                return Svd { s, u: zeros(m * uc), vt: zeros(vr * n), ok: true };
            }
            let u = (0..m * uc).map(|x| S::of_wide(&u[(x / uc, x % uc)])).collect();
            let vt = (0..vr * n).map(|x| S::of_wide(&v[(x % n, x / n)]).conj()).collect();
            Svd { s, u, vt, ok: true }
        }
        Err(_) => Svd { s: vec![S::Real::of_f64(f64::NAN); k], u: zeros(m * uc), vt: zeros(vr * n), ok: false },
    }
}

/// What `geev` returns for one matrix, in f64: the eigenvalues, and the left
/// and right eigenvectors as columns of row-major `n x n` matrices (zeros
/// where not asked for); `None` if it did not converge.
pub(crate) struct Geev {
    pub values: Vec<c64>,
    pub vl: Vec<c64>,
    pub vr: Vec<c64>,
}

/// The eigendecomposition of a general matrix (`geev`), through faer in
/// f64. LAPACK's conventions: for a real matrix a complex conjugate pair is
/// consecutive, the eigenvalue with positive imaginary part first (a complex
/// matrix's values come in faer's order); each eigenvector has Euclidean
/// norm 1 and its component of largest modulus real (positive here; LAPACK
/// fixes no sign). Left eigenvectors `u` satisfy `u^H A = lambda u^H`.
pub(crate) fn geev<S: Scalar>(a: &[S], n: usize, left: bool, right: bool) -> Option<Geev> {
    let m = matrix(a, n, n);
    let e = m.eigen().ok()?;
    let values: Vec<c64> = (0..n).map(|i| e.S().column_vector()[i]).collect();
    let mut order = Vec::with_capacity(n);
    let mut used = vec![false; n];
    for i in 0..n {
        if used[i] {
            continue;
        }
        used[i] = true;
        let w = values[i];
        if S::COMPLEX || w.im == 0.0 {
            order.push(i);
            continue;
        }
        // LAPACK's order for real matrices: conjugate pairs together, positive imaginary part first.
        match closest(&values, &used, w.conj()) {
            Some(j) => {
                used[j] = true;
                let (p, q) = if w.im > 0.0 { (i, j) } else { (j, i) };
                order.extend([p, q]);
            }
            None => order.push(i),
        }
    }
    let columns = |u: faer::MatRef<'_, c64>, picks: &[usize]| -> Vec<c64> {
        let mut out = vec![c64::new(0.0, 0.0); n * n];
        for (col, &j) in picks.iter().enumerate() {
            let v: Vec<c64> = (0..n).map(|k| u[(k, j)]).collect();
            let norm = v.iter().map(|z| z.norm_sqr()).sum::<f64>().sqrt();
            let top = (0..n).max_by(|&x, &y| v[x].norm_sqr().total_cmp(&v[y].norm_sqr())).unwrap_or(0);
            let big = v.get(top).copied().unwrap_or(c64::new(1.0, 0.0));
            let scale =
                if norm > 0.0 && big.norm() > 0.0 { big.conj() / (big.norm() * norm) } else { c64::new(1.0, 0.0) };
            for (k, z) in v.iter().enumerate() {
                let z = *z * scale;
                // The largest component is real, exactly.
                out[k * n + col] = c64::new(z.re, if k == top { 0.0 } else { z.im });
            }
        }
        out
    };
    let zeros = || vec![c64::new(0.0, 0.0); n * n];
    let vr = if right { columns(e.U(), &order) } else { zeros() };
    let vl = if left {
        // Left eigenvectors of A are right eigenvectors of A^H for the conjugate eigenvalues.
        let t = m.adjoint().to_owned().eigen().ok()?;
        let tv: Vec<c64> = (0..n).map(|i| t.S().column_vector()[i]).collect();
        let mut taken = vec![false; n];
        let mut picks = Vec::with_capacity(n);
        for &i in &order {
            let j = closest(&tv, &taken, values[i].conj()).unwrap_or(0);
            taken[j] = true;
            picks.push(j);
        }
        columns(t.U(), &picks)
    } else {
        zeros()
    };
    Some(Geev { values: order.iter().map(|&i| values[i]).collect(), vl, vr })
}

/// The unused entry of `values` nearest to `target`.
fn closest(values: &[faer::c64], used: &[bool], target: faer::c64) -> Option<usize> {
    (0..values.len())
        .filter(|&j| !used[j])
        .min_by(|&x, &y| (values[x] - target).norm().total_cmp(&(values[y] - target).norm()))
}
