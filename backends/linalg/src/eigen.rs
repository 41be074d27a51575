//! The symmetric eigendecomposition (`syevd`), the singular value
//! decomposition (`gesdd`) and the general eigendecomposition (`geev`)
//! through `faer`, in f64 for both element types (an f32 call's results are
//! then rounded once). Eigenvalues ascend, singular
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

/// What `geev` returns for one matrix: eigenvalues as real and imaginary
/// parts, left and right eigenvectors as complex columns stored as parts
/// (row-major `n x n x 2`; zeros where not asked for), and whether it converged.
pub(crate) struct Geev<T> {
    pub wr: Vec<T>,
    pub wi: Vec<T>,
    pub vl: Vec<T>,
    pub vr: Vec<T>,
    pub ok: bool,
}

/// The eigendecomposition of a general real matrix (`geev`), through faer in
/// f64. LAPACK's conventions: a complex conjugate pair is consecutive, the
/// eigenvalue with positive imaginary part first; each eigenvector has
/// Euclidean norm 1 and its component of largest modulus real (positive here;
/// LAPACK fixes no sign). Left eigenvectors `u` satisfy `u^H A = lambda u^H`.
pub(crate) fn geev<T: Float>(a: &[T], n: usize, left: bool, right: bool) -> Geev<T> {
    use faer::c64;
    let m = Mat::<f64>::from_fn(n, n, |i, j| a[i * n + j].to_f64());
    let failed = || Geev {
        wr: vec![T::of_f64(f64::NAN); n],
        wi: vec![T::of_f64(f64::NAN); n],
        vl: vec![T::ZERO; 2 * n * n],
        vr: vec![T::ZERO; 2 * n * n],
        ok: false,
    };
    let Ok(e) = m.eigen() else { return failed() };
    let values: Vec<c64> = (0..n).map(|i| e.S().column_vector()[i]).collect();
    // LAPACK's order: conjugate pairs together, positive imaginary part first.
    let mut order = Vec::with_capacity(n);
    let mut used = vec![false; n];
    for i in 0..n {
        if used[i] {
            continue;
        }
        used[i] = true;
        let w = values[i];
        if w.im == 0.0 {
            order.push(i);
            continue;
        }
        let partner = closest(&values, &used, w.conj());
        match partner {
            Some(j) => {
                used[j] = true;
                let (p, q) = if w.im > 0.0 { (i, j) } else { (j, i) };
                order.extend([p, q]);
            }
            None => order.push(i),
        }
    }
    let columns = |u: faer::MatRef<'_, c64>, picks: &[usize]| -> Vec<T> {
        let mut out = vec![T::ZERO; 2 * n * n];
        for (col, &j) in picks.iter().enumerate() {
            let v: Vec<c64> = (0..n).map(|k| u[(k, j)]).collect();
            let norm = v.iter().map(|z| z.norm_sqr()).sum::<f64>().sqrt();
            let top = (0..n).max_by(|&x, &y| v[x].norm_sqr().total_cmp(&v[y].norm_sqr())).unwrap_or(0);
            let big = v.get(top).copied().unwrap_or(c64::new(1.0, 0.0));
            let scale =
                if norm > 0.0 && big.norm() > 0.0 { big.conj() / (big.norm() * norm) } else { c64::new(1.0, 0.0) };
            for (k, z) in v.iter().enumerate() {
                let z = *z * scale;
                out[2 * (k * n + col)] = T::of_f64(z.re);
                // The largest component is real, exactly.
                out[2 * (k * n + col) + 1] = T::of_f64(if k == top { 0.0 } else { z.im });
            }
        }
        out
    };
    let vr = if right { columns(e.U(), &order) } else { vec![T::ZERO; 2 * n * n] };
    let vl = if left {
        // Left eigenvectors of A are right eigenvectors of A^T for the conjugate eigenvalues.
        let Ok(t) = m.transpose().to_owned().eigen() else { return failed() };
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
        vec![T::ZERO; 2 * n * n]
    };
    Geev {
        wr: order.iter().map(|&i| T::of_f64(values[i].re)).collect(),
        wi: order.iter().map(|&i| T::of_f64(values[i].im)).collect(),
        vl,
        vr,
        ok: true,
    }
}

/// The unused entry of `values` nearest to `target`.
fn closest(values: &[faer::c64], used: &[bool], target: faer::c64) -> Option<usize> {
    (0..values.len())
        .filter(|&j| !used[j])
        .min_by(|&x, &y| (values[x] - target).norm().total_cmp(&(values[y] - target).norm()))
}
