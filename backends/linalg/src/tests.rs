//! Each routine against its defining identity, on random well-conditioned
//! matrices, and the attribute and shape checks.

use super::*;

/// A deterministic stream of values in [-1, 1).
fn values(n: usize, seed: u64) -> Vec<f64> {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 11) as f64 / (1u64 << 52) as f64 - 1.0
        })
        .collect()
}

fn bytes(v: &[f64]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn floats(b: &[u8]) -> Vec<f64> {
    read::<f64>(b)
}

fn ints(b: &[u8]) -> Vec<i32> {
    b.chunks_exact(4).map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

fn run(call: &Call, inputs: &[Vec<u8>]) -> Vec<Vec<u8>> {
    call.run_owned(&inputs.iter().map(|v| &v[..]).collect::<Vec<_>>()).unwrap()
}

#[test]
fn getrf_factors_p_a_into_l_u_with_lapacks_interchanges() {
    let (m, n) = (5, 4);
    let a = values(2 * m * n, 1);
    let call = Call::new(
        "lapack_dgetrf_ffi",
        Some("{}"),
        &[(DType::F64, &[2, 5, 4])],
        &[(DType::F64, &[2, 5, 4]), (DType::S32, &[2, 4]), (DType::S32, &[2])],
    )
    .unwrap();
    let out = run(&call, &[bytes(&a)]);
    let (lu, piv, info) = (floats(&out[0]), ints(&out[1]), ints(&out[2]));
    assert_eq!(info, vec![0, 0]);
    for b in 0..2 {
        let mut pa = a[b * m * n..(b + 1) * m * n].to_vec();
        for (j, &p) in piv[b * 4..(b + 1) * 4].iter().enumerate() {
            let p = p as usize - 1;
            assert!(p >= j && p < m, "interchange {p} at step {j}");
            for k in 0..n {
                pa.swap(j * n + k, p * n + k);
            }
        }
        let f = &lu[b * m * n..(b + 1) * m * n];
        for i in 0..m {
            for j in 0..n {
                let mut s = 0.0;
                for k in 0..=i.min(j) {
                    let l = if k == i { 1.0 } else { f[i * n + k] };
                    s += l * f[k * n + j];
                }
                assert!((s - pa[i * n + j]).abs() < 1e-12, "({i}, {j}): {s} vs {}", pa[i * n + j]);
            }
        }
        // Partial pivoting: every multiplier is at most 1 in magnitude.
        assert!((0..m).all(|i| (0..i.min(n)).all(|j| f[i * n + j].abs() <= 1.0)));
    }
}

#[test]
fn getrf_reports_the_first_zero_pivot_and_goes_on() {
    let a = [0.0, 1.0, 0.0, 2.0];
    let call = Call::new(
        "lapack_sgetrf_ffi",
        None,
        &[(DType::F32, &[2, 2])],
        &[(DType::F32, &[2, 2]), (DType::S32, &[2]), (DType::S32, &[])],
    )
    .unwrap();
    let input: Vec<u8> = a.iter().flat_map(|&x: &f64| (x as f32).to_le_bytes()).collect();
    let out = run(&call, &[input]);
    assert_eq!(ints(&out[1]), vec![1, 2]);
    assert_eq!(ints(&out[2]), vec![1]);
}

fn spd(n: usize, seed: u64) -> Vec<f64> {
    let g = values(n * n, seed);
    let mut a = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..n {
            a[i * n + j] =
                (0..n).map(|k| g[i * n + k] * g[j * n + k]).sum::<f64>() + if i == j { n as f64 } else { 0.0 };
        }
    }
    a
}

#[test]
fn potrf_factors_either_triangle_and_keeps_the_other() {
    let n = 5;
    let a = spd(n, 2);
    for lower in [true, false] {
        let config = if lower { "{uplo = 76 : ui8}" } else { "{uplo = 85 : ui8}" };
        let call = Call::new(
            "lapack_dpotrf_ffi",
            Some(config),
            &[(DType::F64, &[5, 5])],
            &[(DType::F64, &[5, 5]), (DType::S32, &[])],
        )
        .unwrap();
        let out = run(&call, &[bytes(&a)]);
        let (f, info) = (floats(&out[0]), ints(&out[1]));
        assert_eq!(info, vec![0]);
        let l = |i: usize, j: usize| {
            if j > i {
                0.0
            } else if lower {
                f[i * n + j]
            } else {
                f[j * n + i]
            }
        };
        for i in 0..n {
            for j in 0..n {
                let s: f64 = (0..n).map(|k| l(i, k) * l(j, k)).sum();
                assert!((s - a[i * n + j]).abs() < 1e-12);
                let untouched = if lower { j > i } else { j < i };
                if untouched {
                    assert_eq!(f[i * n + j], a[i * n + j]);
                }
            }
        }
    }
    let mut not_pd = spd(n, 3);
    not_pd[2 * n + 2] = -100.0;
    let call =
        Call::new("lapack_dpotrf_ffi", None, &[(DType::F64, &[5, 5])], &[(DType::F64, &[5, 5]), (DType::S32, &[])])
            .unwrap();
    assert_eq!(ints(&run(&call, &[bytes(&not_pd)])[1]), vec![3]);
}

#[test]
fn trsm_solves_every_side_triangle_transpose_and_diagonal() {
    let (m, n) = (4, 3);
    let b = values(m * n, 4);
    for left in [true, false] {
        let k = if left { m } else { n };
        let mut a = values(k * k, 5);
        for i in 0..k {
            a[i * k + i] += 4.0;
        }
        for (lower, trans, unit) in
            [(true, false, false), (false, false, true), (true, true, true), (false, true, false)]
        {
            let ch = |c: char| c as u32;
            let config = format!(
                "{{diag = {} : ui8, side = {} : ui8, trans_x = {} : ui8, uplo = {} : ui8}}",
                ch(if unit { 'U' } else { 'N' }),
                ch(if left { 'L' } else { 'R' }),
                ch(if trans { 'T' } else { 'N' }),
                ch(if lower { 'L' } else { 'U' }),
            );
            let kk = [k as i64, k as i64];
            let call = Call::new(
                "lapack_dtrsm_ffi",
                Some(&config),
                &[(DType::F64, &kk), (DType::F64, &[4, 3])],
                &[(DType::F64, &[4, 3])],
            )
            .unwrap();
            let x = floats(&run(&call, &[bytes(&a), bytes(&b)])[0]);
            // op(A) restricted to its triangle, as a full matrix.
            let t = |i: usize, j: usize| {
                let (r, c) = if trans { (j, i) } else { (i, j) };
                if r == c {
                    if unit { 1.0 } else { a[r * k + c] }
                } else if (r > c) == lower {
                    a[r * k + c]
                } else {
                    0.0
                }
            };
            for i in 0..m {
                for j in 0..n {
                    let s: f64 = if left {
                        (0..k).map(|p| t(i, p) * x[p * n + j]).sum()
                    } else {
                        (0..k).map(|p| x[i * n + p] * t(p, j)).sum()
                    };
                    assert!((s - b[i * n + j]).abs() < 1e-12, "{config}: ({i}, {j})");
                }
            }
        }
    }
}

#[test]
fn specs_round_trip_and_bad_calls_name_the_target() {
    let call = Call::new(
        "lapack_strsm_ffi",
        Some("{diag = 85 : ui8, side = 82 : ui8, trans_x = 84 : ui8, uplo = 85 : ui8}"),
        &[(DType::F32, &[2, 3, 3]), (DType::F32, &[2, 4, 3])],
        &[(DType::F32, &[2, 4, 3])],
    )
    .unwrap();
    assert_eq!(Call::from_spec(&call.spec()).unwrap(), call);
    let e = Call::new("lapack_cgetrf_ffi", None, &[(DType::F32, &[2, 2])], &[]).unwrap_err();
    assert_eq!(e.to_string(), "custom-call target \"lapack_cgetrf_ffi\": complex element types are not supported");
    let e = Call::new("foo", None, &[], &[]).unwrap_err();
    assert_eq!(e.to_string(), "unsupported custom-call target \"foo\"");
    let e = Call::new("lapack_sgetrf_ffi", None, &[(DType::F32, &[2, 2])], &[(DType::F32, &[2, 2])]).unwrap_err();
    assert!(e.to_string().contains("takes (f32[2, 2]) and gives (f32[2, 2], s32[2], s32[])"), "{e}");
}

#[test]
fn geqrf_and_orgqr_give_q_r_equal_to_a_with_orthonormal_q() {
    let (m, n) = (6, 4);
    let a = values(m * n, 6);
    let qr =
        Call::new("lapack_dgeqrf_ffi", None, &[(DType::F64, &[6, 4])], &[(DType::F64, &[6, 4]), (DType::F64, &[4])])
            .unwrap();
    let out = run(&qr, &[bytes(&a)]);
    let (packed, tau) = (floats(&out[0]), floats(&out[1]));
    // LAPACK's reflectors: tau in [1, 2] for a nonzero column.
    assert!(tau.iter().all(|&t| (1.0..=2.0).contains(&t)), "{tau:?}");
    let q =
        Call::new("lapack_dorgqr_ffi", None, &[(DType::F64, &[6, 4]), (DType::F64, &[4])], &[(DType::F64, &[6, 4])])
            .unwrap();
    let q = floats(&run(&q, &[out[0].clone(), out[1].clone()])[0]);
    let r = |i: usize, j: usize| if i <= j { packed[i * n + j] } else { 0.0 };
    for i in 0..m {
        for j in 0..n {
            let s: f64 = (0..n).map(|p| q[i * n + p] * r(p, j)).sum();
            assert!((s - a[i * n + j]).abs() < 1e-12, "qr ({i}, {j})");
        }
    }
    for i in 0..n {
        for j in 0..n {
            let s: f64 = (0..m).map(|p| q[p * n + i] * q[p * n + j]).sum();
            assert!((s - if i == j { 1.0 } else { 0.0 }).abs() < 1e-12, "q^T q ({i}, {j})");
        }
    }
}

#[test]
fn syevd_and_gesdd_decompose_their_matrices() {
    let n = 5;
    let a = spd(n, 7);
    let call = Call::new(
        "lapack_dsyevd_ffi",
        Some("{mode = 86 : ui8, uplo = 76 : ui8}"),
        &[(DType::F64, &[5, 5])],
        &[(DType::F64, &[5, 5]), (DType::F64, &[5]), (DType::S32, &[])],
    )
    .unwrap();
    let out = run(&call, &[bytes(&a)]);
    let (v, w) = (floats(&out[0]), floats(&out[1]));
    assert!(w.windows(2).all(|p| p[0] <= p[1]), "ascending: {w:?}");
    for i in 0..n {
        for j in 0..n {
            let av: f64 = (0..n).map(|p| a[i * n + p] * v[p * n + j]).sum();
            assert!((av - w[j] * v[i * n + j]).abs() < 1e-9, "A v = v w at ({i}, {j})");
        }
    }
    let (m, n) = (4, 6);
    let b = values(m * n, 8);
    for (mode, uc, vr) in [(b'A', 4, 6), (b'S', 4, 4)] {
        let config = format!("{{mode = {mode} : ui8}}");
        let (u_dims, vt_dims) = ([4, uc as i64], [vr as i64, 6]);
        let call = Call::new(
            "lapack_dgesdd_ffi",
            Some(&config),
            &[(DType::F64, &[4, 6])],
            &[
                (DType::F64, &[4, 6]),
                (DType::F64, &[4]),
                (DType::F64, &u_dims),
                (DType::F64, &vt_dims),
                (DType::S32, &[]),
            ],
        )
        .unwrap();
        let out = run(&call, &[bytes(&b)]);
        let (s, u, vt) = (floats(&out[1]), floats(&out[2]), floats(&out[3]));
        assert!(s.windows(2).all(|p| p[0] >= p[1]), "descending: {s:?}");
        for i in 0..m {
            for j in 0..n {
                let x: f64 = (0..m).map(|p| u[i * uc + p] * s[p] * vt[p * n + j]).sum();
                assert!((x - b[i * n + j]).abs() < 1e-9, "u s vt ({i}, {j}), mode {}", mode as char);
            }
        }
    }
}

#[test]
fn gehrd_reduces_to_hessenberg_form_by_a_similarity() {
    let n = 6;
    let a = values(n * n, 9);
    let call = Call::new(
        "lapack_dgehrd_ffi",
        Some("{high = 6 : i32, low = 1 : i32}"),
        &[(DType::F64, &[6, 6])],
        &[(DType::F64, &[6, 6]), (DType::F64, &[5]), (DType::S32, &[])],
    )
    .unwrap();
    let out = run(&call, &[bytes(&a)]);
    let (packed, tau) = (floats(&out[0]), floats(&out[1]));
    assert_eq!(ints(&out[2]), [0]);
    // Q = diag(1, orgqr(reflectors)), the reflectors below the subdiagonal
    // of the first n - 1 columns, as jax.scipy.linalg.hessenberg builds it.
    let m = n - 1;
    let sub: Vec<f64> =
        (0..m).flat_map(|i| (0..m).map(move |j| (i, j))).map(|(i, j)| packed[(i + 1) * n + j]).collect();
    let orgqr =
        Call::new("lapack_dorgqr_ffi", None, &[(DType::F64, &[5, 5]), (DType::F64, &[5])], &[(DType::F64, &[5, 5])])
            .unwrap();
    let q_sub = floats(&run(&orgqr, &[bytes(&sub), bytes(&tau)])[0]);
    let q = |i: usize, j: usize| match (i, j) {
        (0, 0) => 1.0,
        (0, _) | (_, 0) => 0.0,
        _ => q_sub[(i - 1) * m + j - 1],
    };
    let h = |i: usize, j: usize| if i <= j + 1 { packed[i * n + j] } else { 0.0 };
    for i in 0..n {
        for j in 0..n {
            let qhqt: f64 =
                (0..n).flat_map(|p| (0..n).map(move |r| (p, r))).map(|(p, r)| q(i, p) * h(p, r) * q(j, r)).sum();
            assert!((qhqt - a[i * n + j]).abs() < 1e-12, "Q H Q^T ({i}, {j}): {qhqt} vs {}", a[i * n + j]);
            let qtq: f64 = (0..n).map(|p| q(p, i) * q(p, j)).sum();
            assert!((qtq - if i == j { 1.0 } else { 0.0 }).abs() < 1e-12, "Q^T Q ({i}, {j})");
        }
    }
    // A restricted range leaves the rest alone: tau is 0 outside it.
    let call = Call::new(
        "lapack_dgehrd_ffi",
        Some("{high = 4 : i32, low = 2 : i32}"),
        &[(DType::F64, &[6, 6])],
        &[(DType::F64, &[6, 6]), (DType::F64, &[5]), (DType::S32, &[])],
    )
    .unwrap();
    let tau = floats(&run(&call, &[bytes(&a)])[1]);
    assert!(tau[0] == 0.0 && tau[3] == 0.0 && tau[4] == 0.0 && tau[1] != 0.0, "{tau:?}");
    let bad = Call::new(
        "lapack_dgehrd_ffi",
        Some("{high = 7 : i32, low = 1 : i32}"),
        &[(DType::F64, &[6, 6])],
        &[(DType::F64, &[6, 6]), (DType::F64, &[5]), (DType::S32, &[])],
    );
    assert!(matches!(bad, Err(LinalgError::Invalid { .. })), "{bad:?}");
}

#[test]
fn geev_gives_unit_eigenvectors_in_lapacks_order() {
    let n = 6;
    let a = values(n * n, 7);
    let call = Call::new(
        "lapack_dgeev_ffi",
        Some("{compute_left = 86 : ui8, compute_right = 86 : ui8}"),
        &[(DType::F64, &[6, 6])],
        &[
            (DType::F64, &[6]),
            (DType::F64, &[6]),
            (DType::F64, &[6, 6, 2]),
            (DType::F64, &[6, 6, 2]),
            (DType::S32, &[]),
        ],
    )
    .unwrap();
    let out = run(&call, &[bytes(&a)]);
    let (wr, wi, vl, vr) = (floats(&out[0]), floats(&out[1]), floats(&out[2]), floats(&out[3]));
    assert_eq!(ints(&out[4]), vec![0]);
    let mut j = 0;
    while j < n {
        // A conjugate pair: consecutive, positive imaginary part first.
        if wi[j] != 0.0 {
            assert!(wi[j] > 0.0 && wi[j + 1] == -wi[j] && wr[j + 1] == wr[j], "pair at {j}: {wr:?} {wi:?}");
            j += 2;
        } else {
            j += 1;
        }
    }
    let at = |v: &[f64], i: usize, j: usize| (v[2 * (i * n + j)], v[2 * (i * n + j) + 1]);
    for j in 0..n {
        let (w_re, w_im) = (wr[j], wi[j]);
        let mut norm = (0.0, 0.0);
        for i in 0..n {
            // (A v)_i - w v_i and (u^H A)_i - w u^H_i, u^H A = conj(A^T u).
            let (mut av, mut ua) = ((0.0, 0.0), (0.0, 0.0));
            for k in 0..n {
                let (vr_re, vr_im) = at(&vr, k, j);
                av = (av.0 + a[i * n + k] * vr_re, av.1 + a[i * n + k] * vr_im);
                let (vl_re, vl_im) = at(&vl, k, j);
                ua = (ua.0 + a[k * n + i] * vl_re, ua.1 - a[k * n + i] * vl_im);
            }
            let (v_re, v_im) = at(&vr, i, j);
            assert!((av.0 - (w_re * v_re - w_im * v_im)).abs() < 1e-10, "right residual {j}");
            assert!((av.1 - (w_re * v_im + w_im * v_re)).abs() < 1e-10, "right residual {j}");
            let (u_re, u_im) = at(&vl, i, j);
            let (uh_re, uh_im) = (u_re, -u_im);
            assert!((ua.0 - (w_re * uh_re - w_im * uh_im)).abs() < 1e-10, "left residual {j}");
            assert!((ua.1 - (w_re * uh_im + w_im * uh_re)).abs() < 1e-10, "left residual {j}");
            norm.0 += v_re * v_re + v_im * v_im;
            norm.1 += u_re * u_re + u_im * u_im;
        }
        assert!((norm.0 - 1.0).abs() < 1e-12 && (norm.1 - 1.0).abs() < 1e-12, "unit vectors {j}");
    }
}

#[test]
fn fft_targets_agree_with_the_defining_sums() {
    let (rows, n) = (2usize, 6usize);
    let x = values(rows * n, 9);
    // RFFT of each row against sum x[t] e^(-2 pi i k t / n), k <= n / 2.
    let rfft =
        Call::new("smelt_rfft", Some("{fft_rank = 1 : i64}"), &[(DType::F64, &[2, 6])], &[(DType::F64, &[2, 4, 2])])
            .unwrap();
    let spectrum = floats(&run(&rfft, &[bytes(&x)])[0]);
    for r in 0..rows {
        for k in 0..=n / 2 {
            let (mut re, mut im) = (0.0, 0.0);
            for t in 0..n {
                let angle = -2.0 * std::f64::consts::PI * (k * t) as f64 / n as f64;
                re += x[r * n + t] * angle.cos();
                im += x[r * n + t] * angle.sin();
            }
            let at = 2 * (r * (n / 2 + 1) + k);
            assert!((spectrum[at] - re).abs() < 1e-12 && (spectrum[at + 1] - im).abs() < 1e-12, "row {r} k {k}");
        }
    }
    // IRFFT inverts it, ignoring the imaginary parts of the first and the Nyquist entries.
    let mut tampered = spectrum.clone();
    tampered[1] = 5.0;
    tampered[2 * (n / 2) + 1] = -3.0;
    let irfft =
        Call::new("smelt_irfft", Some("{fft_rank = 1 : i64}"), &[(DType::F64, &[2, 4, 2])], &[(DType::F64, &[2, 6])])
            .unwrap();
    let back = floats(&run(&irfft, &[bytes(&tampered)])[0]);
    for (b, x) in back.iter().zip(&x) {
        assert!((b - x).abs() < 1e-12);
    }
    // FFT then IFFT of complex values is the identity; a spec round-trips.
    let z = values(2 * n, 11);
    let fft = Call::new("smelt_fft", Some("{fft_rank = 1 : i64}"), &[(DType::F64, &[6, 2])], &[(DType::F64, &[6, 2])])
        .unwrap();
    let ifft =
        Call::new("smelt_ifft", Some("{fft_rank = 1 : i64}"), &[(DType::F64, &[6, 2])], &[(DType::F64, &[6, 2])])
            .unwrap();
    let there = run(&fft, &[bytes(&z)]);
    let back = floats(&run(&ifft, &[there[0].clone()])[0]);
    for (b, z) in back.iter().zip(&z) {
        assert!((b - z).abs() < 1e-12);
    }
    assert_eq!(Call::from_spec(&rfft.spec()).unwrap(), rfft);
    assert!(Call::new("smelt_fft", Some("{}"), &[(DType::F64, &[6, 2])], &[(DType::F64, &[6, 2])]).is_err());
}

#[test]
fn gees_gives_an_orthogonal_z_and_a_standard_quasi_triangular_t() {
    for (n, seed) in [(1, 3), (2, 4), (5, 5), (8, 6), (12, 7)] {
        let a = values(n * n, seed);
        let call = Call::new(
            "lapack_dgees_ffi",
            Some("{mode = 86 : ui8, sort = 78 : ui8}"),
            &[(DType::F64, &[n as i64, n as i64])],
            &[
                (DType::F64, &[n as i64, n as i64]),
                (DType::F64, &[n as i64, n as i64]),
                (DType::F64, &[n as i64]),
                (DType::F64, &[n as i64]),
                (DType::S32, &[]),
                (DType::S32, &[]),
            ],
        )
        .unwrap();
        let out = run(&call, &[bytes(&a)]);
        let (t, z, wr, wi) = (floats(&out[0]), floats(&out[1]), floats(&out[2]), floats(&out[3]));
        assert_eq!(ints(&out[5]), vec![0], "n = {n}");
        for i in 0..n {
            for j in 0..n {
                // Z T Z^T = A and Z^T Z = I.
                let ztz: f64 = (0..n)
                    .flat_map(|k| (0..n).map(move |l| (k, l)))
                    .map(|(k, l)| z[i * n + k] * t[k * n + l] * z[j * n + l])
                    .sum();
                assert!((ztz - a[i * n + j]).abs() < 1e-10, "n = {n}: reconstruction at ({i}, {j})");
                let zz: f64 = (0..n).map(|k| z[k * n + i] * z[k * n + j]).sum();
                assert!((zz - f64::from(u8::from(i == j))).abs() < 1e-12, "n = {n}: orthogonality");
                if i > j + 1 {
                    assert_eq!(t[i * n + j], 0.0, "n = {n}: below the subdiagonal");
                }
            }
        }
        let mut k = 0;
        while k < n {
            if k + 1 < n && t[(k + 1) * n + k] != 0.0 {
                // A complex pair: equal diagonal, off-diagonal signs opposite, positive part first.
                assert_eq!(t[k * n + k], t[(k + 1) * n + k + 1]);
                assert!(t[k * n + k + 1] * t[(k + 1) * n + k] < 0.0 && wi[k] > 0.0 && wi[k + 1] == -wi[k]);
                assert!(k + 2 >= n || t[(k + 2) * n + k + 1] == 0.0);
                k += 2;
            } else {
                assert_eq!((wr[k], wi[k]), (t[k * n + k], 0.0));
                k += 1;
            }
        }
    }
}
