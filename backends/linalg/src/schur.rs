//! The real Schur decomposition (`gees`): `A = Z T Z^T` with `Z` orthogonal
//! and `T` upper quasi-triangular, in f64 for both element types.
//!
//! The Hessenberg reduction is `qr::gehrd`'s; `T` then comes from Francis'
//! double-shift QR iteration with deflation (Golub and Van Loan, algorithm
//! 7.5.2; LAPACK's `lahqr` with its exceptional shifts after 10 and 20
//! iterations). Each 2x2 block left on the diagonal is put in standard form
//! as LAPACK does: a block with real eigenvalues is split into two 1x1
//! blocks, one with a complex pair gets equal diagonal entries, so the
//! eigenvalues read off `T` are `a +- i sqrt(|b c|)`, positive part first.

use crate::{Float, qr};

/// What `gees` returns for one matrix (row-major `n x n`).
pub(crate) struct Schur<T> {
    pub t: Vec<T>,
    pub z: Vec<T>,
    pub wr: Vec<T>,
    pub wi: Vec<T>,
    /// LAPACK's `info`: 0, or the 1-based index below which the iteration failed.
    pub info: i32,
}

/// `A = Z T Z^T` for the row-major `n x n` matrix `a`.
pub(crate) fn gees<T: Float>(a: &[T], n: usize) -> Schur<T> {
    let mut h: Vec<f64> = a.iter().map(|x| x.to_f64()).collect();
    let taus = qr::gehrd(&mut h, n, (1, n));
    let mut z = hessenberg_q(&h, &taus, n);
    for i in 0..n {
        for j in 0..i.saturating_sub(1) {
            h[i * n + j] = 0.0;
        }
    }
    let info = francis(&mut h, &mut z, n);
    let (wr, wi) = eigenvalues(&h, n);
    let cast = |v: Vec<f64>| v.into_iter().map(T::of_f64).collect();
    Schur { t: cast(h), z: cast(z), wr: cast(wr), wi: cast(wi), info }
}

/// `Q = H_0 H_1 ... H_{n-2}` from `gehrd`'s reflectors (below the subdiagonal of `h`).
fn hessenberg_q(h: &[f64], taus: &[f64], n: usize) -> Vec<f64> {
    let mut q = vec![0.0; n * n];
    for i in 0..n {
        q[i * n + i] = 1.0;
    }
    for (i, &tau) in taus.iter().enumerate().rev() {
        if tau == 0.0 {
            continue;
        }
        let v = |k: usize| if k == i + 1 { 1.0 } else { h[k * n + i] };
        // Q[i+1.., ..] -= tau v (v^T Q[i+1.., ..]).
        for c in 0..n {
            let s: f64 = (i + 1..n).map(|k| v(k) * q[k * n + c]).sum::<f64>() * tau;
            for k in i + 1..n {
                q[k * n + c] -= s * v(k);
            }
        }
    }
    q
}

/// Applies the reflector `I - beta u u^T` (`u.len()` rows from `k`) to rows
/// `k..` of `h` over columns `cols` (from the left), or to columns `k..` over
/// rows `cols` (from the right, `right`).
fn reflect(m: &mut [f64], n: usize, k: usize, u: &[f64], beta: f64, range: std::ops::Range<usize>, right: bool) {
    for r in range {
        let at = |j: usize| if right { r * n + k + j } else { (k + j) * n + r };
        let s: f64 = u.iter().enumerate().map(|(j, &uj)| uj * m[at(j)]).sum::<f64>() * beta;
        for (j, &uj) in u.iter().enumerate() {
            m[at(j)] -= s * uj;
        }
    }
}

/// The Householder vector `u` (first entry 1) and `beta` with `(I - beta u u^T) x = alpha e_1`.
fn householder(x: &[f64]) -> (Vec<f64>, f64) {
    let norm = x.iter().map(|v| v * v).sum::<f64>().sqrt();
    if norm == 0.0 {
        return (vec![1.0; 1].into_iter().chain(std::iter::repeat_n(0.0, x.len() - 1)).collect(), 0.0);
    }
    let alpha = if x[0] >= 0.0 { -norm } else { norm };
    let mut u: Vec<f64> = x.to_vec();
    u[0] -= alpha;
    let u0 = u[0];
    u.iter_mut().for_each(|v| *v /= u0);
    let beta = -u0 / alpha;
    (u, beta)
}

/// Rotates rows and columns `k, k + 1` of `t` (and columns of `z`) by `(c, s)`:
/// `T <- G^T T G`, `Z <- Z G`, `G = [[c, -s], [s, c]]`.
fn rotate(t: &mut [f64], z: &mut [f64], n: usize, k: usize, (c, s): (f64, f64)) {
    for j in 0..n {
        let (x, y) = (t[k * n + j], t[(k + 1) * n + j]);
        t[k * n + j] = c * x + s * y;
        t[(k + 1) * n + j] = -s * x + c * y;
    }
    for m in [&mut *t, &mut *z] {
        for r in 0..n {
            let (x, y) = (m[r * n + k], m[r * n + k + 1]);
            m[r * n + k] = c * x + s * y;
            m[r * n + k + 1] = -s * x + c * y;
        }
    }
}

/// Francis' double-shift QR on the Hessenberg `h` (accumulating into `z`);
/// returns LAPACK's `info`.
fn francis(h: &mut [f64], z: &mut [f64], n: usize) -> i32 {
    let eps = f64::EPSILON;
    let at = |i: usize, j: usize| i * n + j;
    let mut hi = n;
    let mut iterations = 0usize;
    while hi > 0 {
        let i = hi - 1;
        // Deflate: the lowest negligible subdiagonal entry at or above row i.
        let mut l = 0;
        for k in (1..=i).rev() {
            let scale = h[at(k - 1, k - 1)].abs() + h[at(k, k)].abs();
            if h[at(k, k - 1)].abs() <= eps * scale || h[at(k, k - 1)] == 0.0 {
                h[at(k, k - 1)] = 0.0;
                l = k;
                break;
            }
        }
        if l == i {
            hi -= 1;
            iterations = 0;
            continue;
        }
        if l + 1 == i {
            standardize(h, z, n, l);
            hi -= 2;
            iterations = 0;
            continue;
        }
        iterations += 1;
        if iterations > 30 * n.max(1) {
            return hi as i32;
        }
        // The shifts: the trailing 2x2 block's eigenvalues, or LAPACK's exceptional ones.
        let (s, t) = if iterations.is_multiple_of(10) {
            let e = h[at(i, i - 1)].abs() + h[at(i - 1, i - 2)].abs();
            let h11 = 0.75 * e + h[at(i, i)];
            (2.0 * h11, h11 * h11 + 0.4375 * e * e)
        } else {
            let (a, b, c, d) = (h[at(i - 1, i - 1)], h[at(i - 1, i)], h[at(i, i - 1)], h[at(i, i)]);
            (a + d, a * d - b * c)
        };
        let mut x = h[at(l, l)] * h[at(l, l)] + h[at(l, l + 1)] * h[at(l + 1, l)] - s * h[at(l, l)] + t;
        let mut y = h[at(l + 1, l)] * (h[at(l, l)] + h[at(l + 1, l + 1)] - s);
        let mut w = h[at(l + 1, l)] * h[at(l + 2, l + 1)];
        for k in l..i - 1 {
            let (u, beta) = householder(&[x, y, w]);
            let q = if k > l { k - 1 } else { l };
            reflect(h, n, k, &u, beta, q..n, false);
            let r = (k + 3).min(i);
            reflect(h, n, k, &u, beta, 0..r + 1, true);
            reflect(z, n, k, &u, beta, 0..n, true);
            x = h[at(k + 1, k)];
            y = h[at(k + 2, k)];
            if k + 3 <= i {
                w = h[at(k + 3, k)];
            }
        }
        let (u, beta) = householder(&[x, y]);
        reflect(h, n, i - 1, &u, beta, i - 2..n, false);
        reflect(h, n, i - 1, &u, beta, 0..i + 1, true);
        reflect(z, n, i - 1, &u, beta, 0..n, true);
        // Exact zeros below the subdiagonal that the bulge chase leaves tiny.
        for r in l + 2..=i {
            for c in l..r - 1 {
                h[at(r, c)] = 0.0;
            }
        }
    }
    0
}

/// Puts the 2x2 diagonal block at `k` in standard form: upper triangular when
/// its eigenvalues are real, equal diagonal entries when they are a complex pair.
fn standardize(t: &mut [f64], z: &mut [f64], n: usize, k: usize) {
    let at = |i: usize, j: usize| i * n + j;
    let (a, b, c, d) = (t[at(k, k)], t[at(k, k + 1)], t[at(k + 1, k)], t[at(k + 1, k + 1)]);
    if c == 0.0 {
        return;
    }
    let p = 0.5 * (a - d);
    let disc = p * p + b * c;
    let (cs, sn) = if disc >= 0.0 {
        // Real eigenvalues: rotate an eigenvector into the first column.
        let root = disc.sqrt();
        let lambda = 0.5 * (a + d) + if p >= 0.0 { root } else { -root };
        let (vx, vy) = if (lambda - d).abs() + c.abs() >= b.abs() + (lambda - a).abs() {
            (lambda - d, c)
        } else {
            (b, lambda - a)
        };
        let r = vx.hypot(vy);
        (vx / r, vy / r)
    } else {
        // A complex pair: the rotation that equalizes the diagonal.
        let theta = 0.5 * (-(a - d)).atan2(b + c);
        (theta.cos(), theta.sin())
    };
    rotate(t, z, n, k, (cs, sn));
    if disc >= 0.0 {
        t[at(k + 1, k)] = 0.0;
    } else {
        let m = 0.5 * (t[at(k, k)] + t[at(k + 1, k + 1)]);
        t[at(k, k)] = m;
        t[at(k + 1, k + 1)] = m;
    }
}

/// The eigenvalues read off a standardized quasi-triangular `t`.
fn eigenvalues(t: &[f64], n: usize) -> (Vec<f64>, Vec<f64>) {
    let (mut wr, mut wi) = (vec![0.0; n], vec![0.0; n]);
    let mut k = 0;
    while k < n {
        if k + 1 < n && t[(k + 1) * n + k] != 0.0 {
            let im = (t[k * n + k + 1] * t[(k + 1) * n + k]).abs().sqrt();
            wr[k] = t[k * n + k];
            wr[k + 1] = t[k * n + k];
            wi[k] = im;
            wi[k + 1] = -im;
            k += 2;
        } else {
            wr[k] = t[k * n + k];
            k += 1;
        }
    }
    (wr, wi)
}
