//! Householder QR with LAPACK's conventions (`geqr2`, `org2r`/`ung2r`,
//! `larfg`): `H = I - tau v v^H` with `v[0] = 1` implied, `beta =
//! -sign(re alpha) |(alpha, x)|`, `tau = (beta - alpha) / beta`, the rest of
//! `v` stored below the diagonal; `tau = 0` (no reflection) where the column
//! below is already 0 and `alpha` real. `geqrf` applies `H^H` (`conj(tau)`),
//! `orgqr` multiplies the `H`s. The Hessenberg reduction (`gehd2`) uses the
//! same reflectors one row lower. On reals `v^H` is `v^T` and `tau` real.

use crate::Float;
use crate::scalar::Scalar;

/// `geqr2` on the row-major `m x n` matrix `a`, in place; returns `tau`.
pub(crate) fn geqrf<T: Scalar>(a: &mut [T], m: usize, n: usize) -> Vec<T> {
    let mut taus = Vec::with_capacity(m.min(n));
    for j in 0..m.min(n) {
        let tau = reflector(a, n, (j, j), m);
        taus.push(tau);
        if tau != T::ZERO {
            // A[j.., j+1..] -= conj(tau) v (v^H A[j.., j+1..]).
            for c in j + 1..n {
                let mut s = a[j * n + c];
                for r in j + 1..m {
                    s = s + a[r * n + j].conj() * a[r * n + c];
                }
                let s = s * tau.conj();
                a[j * n + c] = a[j * n + c] - s;
                for r in j + 1..m {
                    a[r * n + c] = a[r * n + c] - s * a[r * n + j];
                }
            }
        }
    }
    taus
}

/// `larfg` on column `j` of the row-major matrix `a` (`n` columns), rows
/// `i..end`: leaves `beta` at `(i, j)` and `v[1..]` below it; returns `tau`.
fn reflector<T: Scalar>(a: &mut [T], n: usize, (i, j): (usize, usize), end: usize) -> T {
    let alpha = a[i * n + j];
    let (re, im) = (alpha.re().to_f64(), alpha.im().to_f64());
    let square = |x: T| x.re().to_f64().powi(2) + x.im().to_f64().powi(2);
    let xnorm = (i + 1..end).map(|r| square(a[r * n + j])).sum::<f64>().sqrt();
    if xnorm == 0.0 && im == 0.0 {
        return T::ZERO;
    }
    let norm = re.hypot(im).hypot(xnorm);
    let beta = if re == 0.0 { -norm } else { -re.signum() * norm };
    let beta = T::of_real(T::Real::of_f64(beta));
    let tau = (beta - alpha).over(beta.re());
    let scale = T::ONE.quotient(alpha - beta);
    for r in i + 1..end {
        a[r * n + j] = a[r * n + j] * scale;
    }
    a[i * n + j] = beta;
    tau
}

/// `gehd2` on the row-major `n x n` matrix `a`, in place, for the 1-based
/// range `low..=high`; returns `tau[n - 1]`. Reflector `i` (rows `i + 1..high`,
/// `v[0] = 1` implied at row `i + 1`) is applied from the right to rows
/// `..high` and from the left to columns `i + 1..`.
pub(crate) fn gehrd<T: Scalar>(a: &mut [T], n: usize, (low, high): (usize, usize)) -> Vec<T> {
    let mut taus = vec![T::ZERO; n.saturating_sub(1)];
    for i in low.saturating_sub(1)..high.saturating_sub(1) {
        let tau = reflector(a, n, (i + 1, i), high);
        taus[i] = tau;
        if tau == T::ZERO {
            continue;
        }
        let v = |a: &[T], k: usize| if k == i + 1 { T::ONE } else { a[k * n + i] };
        // A[..high, i+1..high] -= tau (A v) v^H.
        for r in 0..high {
            let mut s = T::ZERO;
            for k in i + 1..high {
                s = s + a[r * n + k] * v(a, k);
            }
            let s = s * tau;
            for k in i + 1..high {
                a[r * n + k] = a[r * n + k] - s * v(a, k).conj();
            }
        }
        // A[i+1..high, i+1..] -= conj(tau) v (v^H A).
        for c in i + 1..n {
            let mut s = T::ZERO;
            for k in i + 1..high {
                s = s + v(a, k).conj() * a[k * n + c];
            }
            let s = s * tau.conj();
            for k in i + 1..high {
                a[k * n + c] = a[k * n + c] - s * v(a, k);
            }
        }
    }
    taus
}

/// `org2r` (`ung2r`): overwrites the row-major `m x n` matrix `a` (the reflectors as
/// `geqrf` left them, `tau.len()` of them) with the first `n` columns of
/// `H_0 H_1 ... H_{k-1}`.
pub(crate) fn orgqr<T: Scalar>(a: &mut [T], m: usize, n: usize, tau: &[T]) {
    let k = tau.len();
    // Columns k.. start as those of the identity.
    for c in k..n {
        for r in 0..m {
            a[r * n + c] = if r == c { T::ONE } else { T::ZERO };
        }
    }
    for i in (0..k).rev() {
        // Apply H_i to A[i.., i+1..] from the left, v = (1, A[i+1.., i]).
        if i + 1 < n {
            a[i * n + i] = T::ONE;
            for c in i + 1..n {
                let mut s = T::ZERO;
                for r in i..m {
                    s = s + a[r * n + i].conj() * a[r * n + c];
                }
                let s = s * tau[i];
                for r in i..m {
                    a[r * n + c] = a[r * n + c] - s * a[r * n + i];
                }
            }
        }
        for r in i + 1..m {
            a[r * n + i] = T::ZERO - tau[i] * a[r * n + i];
        }
        a[i * n + i] = T::ONE - tau[i];
        for r in 0..i {
            a[r * n + i] = T::ZERO;
        }
    }
}
