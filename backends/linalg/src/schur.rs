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
//!
//! The complex Schur form (`cgees`, `zgees`: `A = Z T Z^H`, `T` upper
//! triangular) is the same Hessenberg reduction with complex reflectors,
//! then single-shift QR with Wilkinson's shift and complex Givens rotations
//! (LAPACK's `zlahqr`, exceptional shifts likewise).

use num_complex::Complex;

use crate::scalar::Scalar;
use crate::{Float, qr};

/// What `gees` returns for one matrix (row-major `n x n`), in f64: a real
/// matrix's `T` and `Z` have no imaginary parts.
pub(crate) struct Schur {
    pub t: Vec<Complex<f64>>,
    pub z: Vec<Complex<f64>>,
    /// The eigenvalues off `T`'s diagonal (blocks).
    pub w: Vec<Complex<f64>>,
    /// LAPACK's `info`: 0, or the 1-based index below which the iteration failed.
    pub info: i32,
}

/// `A = Z T Z^H` for the row-major `n x n` matrix `a`: the real Schur form
/// of a real matrix, the complex one of a complex matrix.
pub(crate) fn gees<S: Scalar>(a: &[S], n: usize) -> Schur {
    if S::COMPLEX {
        return gees_complex(a, n);
    }
    let mut h: Vec<f64> = a.iter().map(|x| x.re().to_f64()).collect();
    let taus = qr::gehrd(&mut h, n, (1, n));
    let mut z = hessenberg_q(&h, &taus, n);
    for i in 0..n {
        for j in 0..i.saturating_sub(1) {
            h[i * n + j] = 0.0;
        }
    }
    let info = francis(&mut h, &mut z, n);
    let (wr, wi) = eigenvalues(&h, n);
    let complex = |v: Vec<f64>| v.into_iter().map(|x| Complex::new(x, 0.0)).collect();
    let w = wr.into_iter().zip(wi).map(|(re, im)| Complex::new(re, im)).collect();
    Schur { t: complex(h), z: complex(z), w, info }
}

/// `Q = H_0 H_1 ... H_{n-2}` from `gehrd`'s reflectors (below the subdiagonal of `h`).
fn hessenberg_q<S: Scalar>(h: &[S], taus: &[S], n: usize) -> Vec<S> {
    let mut q = vec![S::ZERO; n * n];
    for i in 0..n {
        q[i * n + i] = S::ONE;
    }
    for (i, &tau) in taus.iter().enumerate().rev() {
        if tau == S::ZERO {
            continue;
        }
        let v = |k: usize| if k == i + 1 { S::ONE } else { h[k * n + i] };
        // Q[i+1.., ..] -= tau v (v^H Q[i+1.., ..]).
        for c in 0..n {
            let s = (i + 1..n).fold(S::ZERO, |s, k| s + v(k).conj() * q[k * n + c]) * tau;
            for k in i + 1..n {
                q[k * n + c] = q[k * n + c] - s * v(k);
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
    let at = |i: usize, j: usize| i * n + j;
    let mut hi = n;
    let mut iterations = 0usize;
    while hi > 0 {
        let i = hi - 1;
        // Deflate: the lowest negligible subdiagonal entry at or above row i.
        let l = negligible_row(i, |r, c| h[at(r, c)].abs());
        if l > 0 {
            h[at(l, l - 1)] = 0.0;
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

/// The complex Schur form of the row-major `n x n` matrix `a`.
fn gees_complex<S: Scalar>(a: &[S], n: usize) -> Schur {
    let mut h: Vec<Complex<f64>> = a.iter().map(|x| x.wide_complex()).collect();
    let taus = qr::gehrd(&mut h, n, (1, n));
    let mut z = hessenberg_q(&h, &taus, n);
    for i in 0..n {
        for j in 0..i.saturating_sub(1) {
            h[i * n + j] = Complex::new(0.0, 0.0);
        }
    }
    let info = single_shift(&mut h, &mut z, n);
    let w = (0..n).map(|i| h[i * n + i]).collect();
    Schur { t: h, z, w, info }
}

/// The row `l <= i` where the active block starts: the lowest `k` whose
/// subdiagonal entry is negligible beside its diagonal neighbours (by the
/// magnitude `size(row, column)`: LAPACK's `lahqr` test), 0 if none.
fn negligible_row(i: usize, size: impl Fn(usize, usize) -> f64) -> usize {
    (1..=i)
        .rev()
        .find(|&k| {
            let sub = size(k, k - 1);
            sub <= f64::EPSILON * (size(k - 1, k - 1) + size(k, k)) || sub == 0.0
        })
        .unwrap_or(0)
}

/// `G = [[c, s], [-conj(s), c]]` (`c` real) with `G [x; y] = [r; 0]`.
fn givens(x: Complex<f64>, y: Complex<f64>) -> (f64, Complex<f64>) {
    let (ax, ay) = (x.norm(), y.norm());
    if ay == 0.0 {
        return (1.0, Complex::new(0.0, 0.0));
    }
    if ax == 0.0 {
        return (0.0, y.conj() / ay);
    }
    let norm = ax.hypot(ay);
    (ax / norm, (x / ax) * y.conj() / norm)
}

/// `T <- G T G^H` on rows and columns `k, k + 1` (columns `cols` of the
/// rows, rows `..rows` of the columns), `Z <- Z G^H`.
fn rotate_complex(
    t: &mut [Complex<f64>],
    z: &mut [Complex<f64>],
    n: usize,
    k: usize,
    (c, s): (f64, Complex<f64>),
    (cols, rows): (std::ops::Range<usize>, usize),
) {
    for j in cols {
        let (x, y) = (t[k * n + j], t[(k + 1) * n + j]);
        t[k * n + j] = x * c + s * y;
        t[(k + 1) * n + j] = y * c - s.conj() * x;
    }
    let columns = |m: &mut [Complex<f64>], rows: usize| {
        for r in 0..rows {
            let (x, y) = (m[r * n + k], m[r * n + k + 1]);
            m[r * n + k] = x * c + y * s.conj();
            m[r * n + k + 1] = y * c - x * s;
        }
    };
    columns(t, rows);
    columns(z, n);
}

/// Single-shift QR on the complex Hessenberg `h` (accumulating into `z`)
/// until it is upper triangular; returns LAPACK's `info`.
fn single_shift(h: &mut [Complex<f64>], z: &mut [Complex<f64>], n: usize) -> i32 {
    let at = |i: usize, j: usize| i * n + j;
    let abs1 = |x: Complex<f64>| x.re.abs() + x.im.abs();
    let mut hi = n;
    let mut iterations = 0usize;
    while hi > 0 {
        let i = hi - 1;
        let l = negligible_row(i, |r, c| abs1(h[at(r, c)]));
        if l > 0 {
            h[at(l, l - 1)] = Complex::new(0.0, 0.0);
        }
        if l == i {
            hi -= 1;
            iterations = 0;
            continue;
        }
        iterations += 1;
        if iterations > 30 * n.max(1) {
            return hi as i32;
        }
        let shift = if iterations.is_multiple_of(10) {
            // zlahqr's exceptional shift.
            let e = h[at(i, i - 1)].re.abs() + if i >= l + 2 { h[at(i - 1, i - 2)].re.abs() } else { 0.0 };
            h[at(i, i)] + 0.75 * e
        } else {
            // Wilkinson's: the trailing 2x2 block's eigenvalue nearer its last entry.
            let (a, b, c, d) = (h[at(i - 1, i - 1)], h[at(i - 1, i)], h[at(i, i - 1)], h[at(i, i)]);
            let p = (a - d) * 0.5;
            let root = (p * p + b * c).sqrt();
            let (m1, m2) = (d + p + root, d + p - root);
            if (m1 - d).norm() <= (m2 - d).norm() { m1 } else { m2 }
        };
        // The implicit QR step: a rotation from the shifted first column, then the bulge chased down.
        let mut x = h[at(l, l)] - shift;
        let mut y = h[at(l + 1, l)];
        for k in l..i {
            let g = givens(x, y);
            let first = if k > l { k - 1 } else { l };
            rotate_complex(h, z, n, k, g, (first..n, (k + 2).min(i) + 1));
            if k > l {
                h[at(k + 1, k - 1)] = Complex::new(0.0, 0.0);
            }
            if k + 1 < i {
                x = h[at(k + 1, k)];
                y = h[at(k + 2, k)];
            }
        }
    }
    0
}
