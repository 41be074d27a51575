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
    let e = Call::new("lapack_cgetrf_ffi", None, &[(DType::F32, &[2, 3])], &[]).unwrap_err();
    assert!(e.to_string().contains("operand f32[2, 3] is not complex parts"), "{e}");
    let e = Call::new("lapack_corgqr_ffi", None, &[(DType::F32, &[2, 2, 2])], &[]).unwrap_err();
    assert_eq!(e.to_string(), "unsupported custom-call target \"lapack_corgqr_ffi\"");
    let call = Call::new(
        "lapack_ctrsm_ffi",
        Some("{diag = 85 : ui8, side = 76 : ui8, trans_x = 67 : ui8, uplo = 85 : ui8}"),
        &[(DType::F32, &[3, 3, 2]), (DType::F32, &[3, 4, 2])],
        &[(DType::F32, &[3, 4, 2])],
    )
    .unwrap();
    assert_eq!(Call::from_spec(&call.spec()).unwrap(), call);
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

type C = Complex<f64>;

/// A complex row-major matrix of `len` entries.
fn cvalues(len: usize, seed: u64) -> Vec<C> {
    values(2 * len, seed).chunks_exact(2).map(|p| C::new(p[0], p[1])).collect()
}

fn cbytes(v: &[C]) -> Vec<u8> {
    v.iter().flat_map(|z| [z.re.to_le_bytes(), z.im.to_le_bytes()]).flatten().collect()
}

fn complexes(b: &[u8]) -> Vec<C> {
    floats(b).chunks_exact(2).map(|p| C::new(p[0], p[1])).collect()
}

/// `a[m, k] b[k, n]`.
fn cmul(a: &[C], b: &[C], (m, k, n): (usize, usize, usize)) -> Vec<C> {
    (0..m * n).map(|x| (0..k).map(|p| a[x / n * k + p] * b[p * n + x % n]).sum()).collect()
}

/// The conjugate transpose of `a[m, n]`.
fn adjoint(a: &[C], m: usize, n: usize) -> Vec<C> {
    (0..m * n).map(|x| a[(x % m) * n + x / m].conj()).collect()
}

fn assert_near(got: &[C], want: &[C], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!((g - w).norm() < 1e-10, "{what} [{i}]: {g} vs {w}");
    }
}

fn identity(n: usize) -> Vec<C> {
    (0..n * n).map(|x| C::new(f64::from(u8::from(x / n == x % n)), 0.0)).collect()
}

/// A Hermitian positive definite matrix.
fn hpd(n: usize, seed: u64) -> Vec<C> {
    let a = cvalues(n * n, seed);
    let mut h = cmul(&a, &adjoint(&a, n, n), (n, n, n));
    for i in 0..n {
        h[i * n + i] += n as f64;
    }
    h
}

fn complex_call(target: &str, config: Option<&str>, operands: &[&[i64]], results: &[(DType, &[i64])]) -> Call {
    let with_pair = |d: &[i64]| [d, &[2]].concat();
    let ops: Vec<Vec<i64>> = operands.iter().map(|d| with_pair(d)).collect();
    let ops: Vec<(DType, &[i64])> = ops.iter().map(|d| (DType::F64, &d[..])).collect();
    Call::new(target, config, &ops, results).unwrap()
}

#[test]
fn complex_lu_cholesky_and_triangular_solves_satisfy_their_identities() {
    let n = 4;
    let a = cvalues(n * n, 11);
    let lu = complex_call(
        "lapack_zgetrf_ffi",
        None,
        &[&[4, 4]],
        &[(DType::F64, &[4, 4, 2]), (DType::S32, &[4]), (DType::S32, &[])],
    );
    let out = run(&lu, &[cbytes(&a)]);
    let (f, piv) = (complexes(&out[0]), ints(&out[1]));
    assert_eq!(ints(&out[2]), vec![0]);
    let mut pa = a.clone();
    for (j, &p) in piv.iter().enumerate() {
        for k in 0..n {
            pa.swap(j * n + k, (p as usize - 1) * n + k);
        }
    }
    let l: Vec<C> = (0..n * n)
        .map(|x| {
            if x / n == x % n {
                C::new(1.0, 0.0)
            } else if x / n > x % n {
                f[x]
            } else {
                C::default()
            }
        })
        .collect();
    let u: Vec<C> = (0..n * n).map(|x| if x / n <= x % n { f[x] } else { C::default() }).collect();
    assert_near(&cmul(&l, &u, (n, n, n)), &pa, "P A = L U");
    // Pivots by |re| + |im| (izamax): every multiplier's modulus is at most sqrt(2).
    assert!((0..n * n).filter(|x| x / n > x % n).all(|x| f[x].norm() <= 2f64.sqrt() + 1e-12));

    let h = hpd(n, 12);
    for lower in [true, false] {
        let config = format!("{{uplo = {} : ui8}}", if lower { 76 } else { 85 });
        let call = complex_call(
            "lapack_zpotrf_ffi",
            Some(&config),
            &[&[4, 4]],
            &[(DType::F64, &[4, 4, 2]), (DType::S32, &[])],
        );
        let out = run(&call, &[cbytes(&h)]);
        assert_eq!(ints(&out[1]), vec![0]);
        let g = complexes(&out[0]);
        let keep = |x: usize| if lower { x / n >= x % n } else { x / n <= x % n };
        let t: Vec<C> = (0..n * n).map(|x| if keep(x) { g[x] } else { C::default() }).collect();
        let product =
            if lower { cmul(&t, &adjoint(&t, n, n), (n, n, n)) } else { cmul(&adjoint(&t, n, n), &t, (n, n, n)) };
        assert_near(&product, &h, "A = L L^H / U^H U");
        // The other triangle keeps the input's values; the diagonal is real and positive.
        assert!((0..n * n).all(|x| keep(x) || g[x] == h[x]));
        assert!((0..n).all(|i| g[i * n + i].im == 0.0 && g[i * n + i].re > 0.0));
    }

    let b = cvalues(n * 3, 13);
    let mut t = cvalues(n * n, 14);
    for i in 0..n {
        t[i * n + i] += 3.0;
    }
    for (trans, lower) in [(b'N', true), (b'T', false), (b'C', true), (b'C', false)] {
        let config = format!(
            "{{diag = 78 : ui8, side = 76 : ui8, trans_x = {trans} : ui8, uplo = {} : ui8}}",
            if lower { 76 } else { 85 }
        );
        let call = complex_call("lapack_ztrsm_ffi", Some(&config), &[&[4, 4], &[4, 3]], &[(DType::F64, &[4, 3, 2])]);
        let x = complexes(&run(&call, &[cbytes(&t), cbytes(&b)])[0]);
        let tri: Vec<C> = (0..n * n)
            .map(|k| if (k / n == k % n) || ((k / n > k % n) == lower) { t[k] } else { C::default() })
            .collect();
        let op = match trans {
            b'N' => tri,
            b'T' => (0..n * n).map(|k| tri[(k % n) * n + k / n]).collect(),
            _ => adjoint(&tri, n, n),
        };
        assert_near(&cmul(&op, &x, (n, n, 3)), &b, &format!("op(A) X = B, trans {}", trans as char));
    }
}

#[test]
fn complex_qr_hessenberg_and_decompositions_satisfy_their_identities() {
    let (m, n) = (5, 3);
    let a = cvalues(m * n, 21);
    let geqrf = complex_call("lapack_zgeqrf_ffi", None, &[&[5, 3]], &[(DType::F64, &[5, 3, 2]), (DType::F64, &[3, 2])]);
    let out = run(&geqrf, &[cbytes(&a)]);
    let (packed, tau) = (complexes(&out[0]), complexes(&out[1]));
    // zlarfg: beta real, 1 <= re tau <= 2, |tau - 1| <= 1.
    assert!((0..n).all(|i| packed[i * n + i].im == 0.0), "beta is real");
    assert!(tau.iter().all(|t| (1.0..=2.0).contains(&t.re) && (t - 1.0).norm() <= 1.0 + 1e-12), "{tau:?}");
    let ungqr = complex_call("lapack_zungqr_ffi", None, &[&[5, 3], &[3]], &[(DType::F64, &[5, 3, 2])]);
    let q = complexes(&run(&ungqr, &[cbytes(&packed), cbytes(&tau)])[0]);
    let r: Vec<C> = (0..n * n).map(|x| if x / n <= x % n { packed[x] } else { C::default() }).collect();
    assert_near(&cmul(&q, &r, (m, n, n)), &a, "Q R = A");
    assert_near(&cmul(&adjoint(&q, m, n), &q, (n, m, n)), &identity(n), "Q^H Q = I");

    let n = 5;
    let a = cvalues(n * n, 22);
    let gehrd = complex_call(
        "lapack_zgehrd_ffi",
        Some("{high = 5 : i32, low = 1 : i32}"),
        &[&[5, 5]],
        &[(DType::F64, &[5, 5, 2]), (DType::F64, &[4, 2]), (DType::S32, &[])],
    );
    let out = run(&gehrd, &[cbytes(&a)]);
    let (h, tau) = (complexes(&out[0]), complexes(&out[1]));
    // Q = H_0 ... H_3 from the reflectors; Q^H A Q is the Hessenberg part of h.
    let mut q = identity(n);
    for (i, &t) in tau.iter().enumerate().rev() {
        let v: Vec<C> = (0..n)
            .map(|k| {
                if k <= i {
                    C::default()
                } else if k == i + 1 {
                    C::new(1.0, 0.0)
                } else {
                    h[k * n + i]
                }
            })
            .collect();
        let reflector: Vec<C> = (0..n * n).map(|x| identity(n)[x] - t * v[x / n] * v[x % n].conj()).collect();
        q = cmul(&reflector, &q, (n, n, n));
    }
    let upper: Vec<C> = (0..n * n).map(|x| if x / n <= x % n + 1 { h[x] } else { C::default() }).collect();
    assert_near(&cmul(&cmul(&q, &upper, (n, n, n)), &adjoint(&q, n, n), (n, n, n)), &a, "Q H Q^H = A");

    let herm = hpd(n, 23);
    let heevd = complex_call(
        "lapack_zheevd_ffi",
        Some("{mode = 86 : ui8, uplo = 76 : ui8}"),
        &[&[5, 5]],
        &[(DType::F64, &[5, 5, 2]), (DType::F64, &[5]), (DType::S32, &[])],
    );
    let out = run(&heevd, &[cbytes(&herm)]);
    let (v, w) = (complexes(&out[0]), floats(&out[1]));
    assert!(w.windows(2).all(|p| p[0] <= p[1]), "ascending {w:?}");
    let vw: Vec<C> = (0..n * n).map(|x| v[x] * w[x % n]).collect();
    assert_near(&cmul(&herm, &v, (n, n, n)), &vw, "A V = V diag(w)");
    assert_near(&cmul(&adjoint(&v, n, n), &v, (n, n, n)), &identity(n), "V^H V = I");

    let (m, k) = (5, 3);
    let a = cvalues(m * k, 24);
    let gesdd = complex_call(
        "lapack_zgesdd_ffi",
        Some("{mode = 83 : ui8}"),
        &[&[5, 3]],
        &[
            (DType::F64, &[5, 3, 2]),
            (DType::F64, &[3]),
            (DType::F64, &[5, 3, 2]),
            (DType::F64, &[3, 3, 2]),
            (DType::S32, &[]),
        ],
    );
    let out = run(&gesdd, &[cbytes(&a)]);
    let (s, u, vt) = (floats(&out[1]), complexes(&out[2]), complexes(&out[3]));
    assert!(s.windows(2).all(|p| p[0] >= p[1]) && s.iter().all(|&x| x > 0.0), "{s:?}");
    let us: Vec<C> = (0..m * k).map(|x| u[x] * s[x % k]).collect();
    assert_near(&cmul(&us, &vt, (m, k, k)), &a, "U S V^H = A");
}

#[test]
fn complex_eig_and_schur_forms_satisfy_their_identities() {
    let n = 5;
    let a = cvalues(n * n, 31);
    let geev = complex_call(
        "lapack_zgeev_ffi",
        Some("{compute_left = 86 : ui8, compute_right = 86 : ui8}"),
        &[&[5, 5]],
        &[(DType::F64, &[5, 2]), (DType::F64, &[5, 5, 2]), (DType::F64, &[5, 5, 2]), (DType::S32, &[])],
    );
    let out = run(&geev, &[cbytes(&a)]);
    let (w, vl, vr) = (complexes(&out[0]), complexes(&out[1]), complexes(&out[2]));
    assert_eq!(ints(&out[3]), vec![0]);
    let column = |v: &[C], j: usize| -> Vec<C> { (0..n).map(|i| v[i * n + j]).collect() };
    for (j, &wj) in w.iter().enumerate() {
        let (r, l) = (column(&vr, j), column(&vl, j));
        assert_near(&cmul(&a, &r, (n, n, 1)), &r.iter().map(|x| x * wj).collect::<Vec<_>>(), "A v = w v");
        let lh = adjoint(&l, n, 1);
        assert_near(&cmul(&lh, &a, (1, n, n)), &lh.iter().map(|x| x * wj).collect::<Vec<_>>(), "u^H A = w u^H");
        for v in [&r, &l] {
            assert!((v.iter().map(|x| x.norm_sqr()).sum::<f64>() - 1.0).abs() < 1e-12, "unit norm");
            let top = v.iter().map(|x| x.norm()).fold(0.0, f64::max);
            assert!(v.iter().any(|x| x.norm() == top && x.im == 0.0), "largest component real");
        }
    }

    let gees = complex_call(
        "lapack_zgees_ffi",
        Some("{mode = 86 : ui8, sort = 78 : ui8}"),
        &[&[5, 5]],
        &[
            (DType::F64, &[5, 5, 2]),
            (DType::F64, &[5, 5, 2]),
            (DType::F64, &[5, 2]),
            (DType::S32, &[]),
            (DType::S32, &[]),
        ],
    );
    let out = run(&gees, &[cbytes(&a)]);
    let (t, z, ws) = (complexes(&out[0]), complexes(&out[1]), complexes(&out[2]));
    assert_eq!((ints(&out[3]), ints(&out[4])), (vec![0], vec![0]));
    assert!((0..n * n).all(|x| x / n <= x % n || t[x] == C::default()), "T upper triangular");
    assert_eq!(ws, (0..n).map(|i| t[i * n + i]).collect::<Vec<_>>());
    assert_near(&cmul(&adjoint(&z, n, n), &z, (n, n, n)), &identity(n), "Z^H Z = I");
    assert_near(&cmul(&cmul(&z, &t, (n, n, n)), &adjoint(&z, n, n), (n, n, n)), &a, "Z T Z^H = A");
    // The same eigenvalues as geev's, in some order.
    for x in &w {
        assert!(ws.iter().any(|y| (x - y).norm() < 1e-9), "{x} among {ws:?}");
    }
}

#[test]
fn gtsv_solves_tridiagonal_systems_real_and_complex() {
    let (n, nrhs) = (6, 2);
    // Small diagonals force row interchanges.
    let (dl, du) = (values(2 * n, 41), values(2 * n, 42));
    let d: Vec<f64> = values(2 * n, 43).iter().map(|x| 0.1 * x).collect();
    let b = values(2 * n * nrhs, 44);
    let call = Call::new(
        "lapack_dgtsv_ffi",
        Some("{}"),
        &[(DType::F64, &[2, 6]), (DType::F64, &[2, 6]), (DType::F64, &[2, 6]), (DType::F64, &[2, 6, 2])],
        &[
            (DType::F64, &[2, 6]),
            (DType::F64, &[2, 6]),
            (DType::F64, &[2, 6]),
            (DType::F64, &[2, 6, 2]),
            (DType::S32, &[2]),
        ],
    )
    .unwrap();
    assert_eq!(Call::from_spec(&call.spec()).unwrap(), call);
    let out = run(&call, &[bytes(&dl), bytes(&d), bytes(&du), bytes(&b)]);
    let (x, info) = (floats(&out[3]), ints(&out[4]));
    assert_eq!(info, vec![0, 0]);
    for s in 0..2 {
        let at = |v: &[f64], i: usize| v[s * n + i];
        for i in 0..n {
            for j in 0..nrhs {
                let xs = |r: usize| x[(s * n + r) * nrhs + j];
                let mut y = at(&d, i) * xs(i);
                if i > 0 {
                    y += at(&dl, i) * xs(i - 1);
                }
                if i + 1 < n {
                    y += at(&du, i) * xs(i + 1);
                }
                assert!((y - b[(s * n + i) * nrhs + j]).abs() < 1e-10, "system {s} row {i}");
            }
        }
    }
    // dl[0] is not LAPACK's: it comes back as it went in.
    assert_eq!(floats(&out[0])[0], dl[0]);

    let (dl, d, du, b) = (cvalues(n, 45), cvalues(n, 46), cvalues(n, 47), cvalues(n, 48));
    let call = complex_call(
        "lapack_zgtsv_ffi",
        None,
        &[&[6], &[6], &[6], &[6, 1]],
        &[
            (DType::F64, &[6, 2]),
            (DType::F64, &[6, 2]),
            (DType::F64, &[6, 2]),
            (DType::F64, &[6, 1, 2]),
            (DType::S32, &[]),
        ],
    );
    let out = run(&call, &[cbytes(&dl), cbytes(&d), cbytes(&du), cbytes(&b)]);
    let x = complexes(&out[3]);
    let a: Vec<C> = (0..n * n)
        .map(|k| {
            let (i, j) = (k / n, k % n);
            if i == j {
                d[i]
            } else if i == j + 1 {
                dl[i]
            } else if j == i + 1 {
                du[i]
            } else {
                C::default()
            }
        })
        .collect();
    assert_near(&cmul(&a, &x, (n, n, 1)), &b, "A x = b");
    // A zero pivot: info names it and the solve stops.
    let zero = vec![0.0; 3];
    let call = Call::new(
        "lapack_sgtsv_ffi",
        None,
        &[(DType::F32, &[3]), (DType::F32, &[3]), (DType::F32, &[3]), (DType::F32, &[3, 1])],
        &[(DType::F32, &[3]), (DType::F32, &[3]), (DType::F32, &[3]), (DType::F32, &[3, 1]), (DType::S32, &[])],
    )
    .unwrap();
    let f32s = |v: &[f64]| v.iter().flat_map(|&x| (x as f32).to_le_bytes()).collect::<Vec<u8>>();
    let out = run(&call, &[f32s(&zero), f32s(&zero), f32s(&zero), f32s(&[1.0, 2.0, 3.0])]);
    assert_eq!(ints(&out[4]), vec![1]);
}
