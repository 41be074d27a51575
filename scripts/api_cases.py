"""Programs over the parts of the JAX API the corpus lacked: linear algebra
through LAPACK custom calls, top-k selection, subnormal values in XLA CPU's
flush-to-zero floating-point environment, complex numbers (special values
included) and FFTs.

Used with the corpus tools (`../shared/tools/corpus/`), generated at test
size into tests/corpus/ (see its README):

    gen.py --cases-module scripts/api_cases.py --set api --out tests/corpus
    JAX_ENABLE_X64=1 gen.py --cases-module scripts/api_cases.py --set api64 --out tests/corpus

On the CPU, `jnp.linalg` and `jax.scipy.linalg` lower to typed-FFI LAPACK
custom calls (`lapack_sgetrf_ffi`, `lapack_spotrf_ffi`, `lapack_strsm_ffi`);
each case checks raw factors where LAPACK's conventions fix them (LU
factors and pivots, Cholesky factors) and invariants besides (`p l u - a`,
`l l^T - a`, residuals of solves). Inputs are well conditioned: a random
matrix plus a multiple of the identity, or `g g^T + n I`.
"""

import os
import sys

import numpy as np
import jax
import jax.numpy as jnp
from jax import lax

from cases import Built, Registry, case, normal

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import complex_dtypes  # noqa: E402

complex_dtypes.register()

API = Registry("api")
API64 = Registry("api64")  # f64 and c128 cases: generate with JAX_ENABLE_X64=1


def well_conditioned(rng, batch, n):
    return normal(rng, batch + (n, n)) + np.float32(n) * np.eye(n, dtype=np.float32)


def spd(rng, batch, n):
    g = normal(rng, batch + (n, n))
    return g @ np.swapaxes(g, -1, -2) + np.float32(n) * np.eye(n, dtype=np.float32)


@case(API, "jnp.linalg.inv, solve and det over a batch (LU through lapack_sgetrf_ffi, solves through lapack_strsm_ffi).",
      rtol=1e-4, atol=1e-5)
def linalg_lu_family(size):
    rng = np.random.default_rng(1901)
    batch, n = ((3,), 5) if size == "test" else ((64,), 32)
    a, b = well_conditioned(rng, batch, n), normal(rng, batch + (n, 2))

    def fn(a, b):
        x = jnp.linalg.solve(a, b)
        return jnp.linalg.inv(a), x, a @ x - b, jnp.linalg.det(a)

    return Built(fn, (a, b))


@case(API, "jnp.linalg.slogdet and the raw LU factors and pivots of jax.scipy.linalg.lu_factor.", rtol=1e-4, atol=1e-5)
def linalg_lu_factors(size):
    rng = np.random.default_rng(1902)
    n = 6 if size == "test" else 64
    a = normal(rng, (n, n))

    def fn(a):
        import jax.scipy.linalg as jsl

        lu, piv = jsl.lu_factor(a)
        p, l, u = jsl.lu(a)
        sign, logdet = jnp.linalg.slogdet(a)
        return lu, piv, p @ l @ u - a, sign, logdet

    return Built(fn, (a,))


@case(API, "Cholesky factors (lapack_spotrf_ffi, both triangles), cho_solve, and the reconstruction l l^T - a.",
      rtol=1e-4, atol=1e-5)
def linalg_cholesky(size):
    rng = np.random.default_rng(1903)
    batch, n = ((2,), 5) if size == "test" else ((32,), 48)
    a, b = spd(rng, batch, n), normal(rng, batch + (n, 3))

    def fn(a, b):
        import jax.scipy.linalg as jsl

        l = jnp.linalg.cholesky(a)
        u = jsl.cholesky(a, lower=False)
        x = jsl.cho_solve(jsl.cho_factor(a), b)
        return l, u, l @ jnp.swapaxes(l, -1, -2) - a, x, a @ x - b

    return Built(fn, (a, b))


@case(API, "Triangular solves (lapack_strsm_ffi) of every side, triangle, transpose and diagonal kind.", rtol=1e-4,
      atol=1e-5)
def linalg_triangular(size):
    rng = np.random.default_rng(1904)
    n, m = (5, 3) if size == "test" else (64, 16)
    a, b, c = well_conditioned(rng, (), n), normal(rng, (n, m)), normal(rng, (m, n))

    def fn(a, b, c):
        import jax.scipy.linalg as jsl

        lower = jsl.solve_triangular(a, b, lower=True)
        upper_t = jsl.solve_triangular(a, b, lower=False, trans=1)
        unit = jsl.solve_triangular(a, b, lower=True, unit_diagonal=True)
        right = jax.lax.linalg.triangular_solve(a, c, left_side=False, lower=False)
        return lower, upper_t, unit, right, jnp.tril(a) @ lower - b

    return Built(fn, (a, b, c))


@case(API, "lax.top_k of rows with ties and NaN, and jnp.argpartition's smallest-k through it.", rtol=0, atol=0)
def top_k_rows(size):
    rng = np.random.default_rng(1905)
    rows, n, k = (4, 9, 3) if size == "test" else (4096, 1024, 8)
    x = np.round(normal(rng, (rows, n)) * 2) / 2  # many ties
    x[0, 2] = np.nan
    x[1, :] = 1.0
    y = rng.integers(-5, 5, size=(rows, n)).astype(np.int32)

    def fn(x, y):
        v, i = jax.lax.top_k(x, k)
        w, j = jax.lax.top_k(y, k)
        smallest = jnp.sort(jnp.take_along_axis(x, jnp.argpartition(x, k, axis=-1)[:, :k], axis=-1), axis=-1)
        return v, i, w, j, smallest

    return Built(fn, (x, y))


@case(API, "QR (lapack_sgeqrf_ffi, lapack_sorgqr_ffi): raw Householder factors and tau, reduced and complete q, q r - a.",
      rtol=1e-4, atol=1e-5)
def linalg_qr(size):
    rng = np.random.default_rng(1906)
    batch, m, n = ((2,), 6, 4) if size == "test" else ((16,), 96, 64)
    a = normal(rng, batch + (m, n))

    def fn(a):
        h, tau = jnp.linalg.qr(a, mode="raw")
        q, r = jnp.linalg.qr(a)
        qc, rc = jnp.linalg.qr(a, mode="complete")
        return h, tau, q, r, q @ r - a, qc @ rc - a, jnp.swapaxes(qc, -1, -2) @ qc

    return Built(fn, (a,))


@case(API, "eigh (lapack_ssyevd_ffi) and svd (lapack_sgesdd_ffi) by their invariants: eigenvalues, singular values, "
      "v diag(w) v^T - a, u s vt - a, pinv and matrix_rank.", rtol=1e-4, atol=1e-4)
def linalg_eigh_svd(size):
    rng = np.random.default_rng(1907)
    n, m = (5, 7) if size == "test" else (64, 96)
    s, a = spd(rng, (), n), normal(rng, (m, n))

    def fn(s, a):
        w, v = jnp.linalg.eigh(s)
        u, sv, vt = jnp.linalg.svd(a, full_matrices=False)
        return (w, (v * w) @ v.T - s, sv, (u * sv) @ vt - a, jnp.linalg.svd(a, compute_uv=False),
                jnp.linalg.pinv(a) @ a, jnp.linalg.matrix_rank(a))

    return Built(fn, (s, a))


@case(API, "Hessenberg reduction (jax.scipy.linalg.hessenberg: lapack_sgehrd_ffi, then lapack_sorgqr_ffi for q): "
      "raw h, q h q^T - a and q^T q.", rtol=1e-4, atol=1e-4)
def linalg_hessenberg(size):
    rng = np.random.default_rng(1910)
    batch, n = ((2,), 5) if size == "test" else ((8,), 64)
    a = normal(rng, batch + (n, n))

    def fn(a):
        import jax.scipy.linalg as jsl
        h, q = jax.vmap(lambda m: jsl.hessenberg(m, calc_q=True))(a)
        return h, q @ h @ jnp.swapaxes(q, -1, -2) - a, jnp.swapaxes(q, -1, -2) @ q

    return Built(fn, (a,))


def subnormal_mix(rng, shape):
    """f32 subnormals of both signs (the smallest, 1e-45, included), signed zeros,
    the smallest normal, tiny normals whose products and differences underflow,
    and ordinary values, shuffled."""
    pool = np.array([1e-40, -1e-41, 1e-45, -1e-45, 5e-39, -5e-39, 3e-39, -8e-41, 0.0, -0.0,
                     1.17549435e-38, -1.17549435e-38, 1.5e-38, 2e-38, 1e-30, -1e-20,
                     1.0, -2.5, 0.5, 3.0, -0.75, 88.0, -90.0, 1e10], np.float32)
    return rng.permutation(np.resize(pool, int(np.prod(shape)))).reshape(shape).astype(np.float32)


@case(API, "Subnormal inputs and results through elementwise math: XLA CPU reads subnormals as zero and writes "
      "subnormal results as zero (FTZ/DAZ), except sin, tan, tanh, expm1 and atan2 pass them through.",
      rtol=1e-5, atol=0)
def fpenv_subnormal_math(size):
    rng = np.random.default_rng(1908)
    shape = (4, 6) if size == "test" else (512, 1024)
    x, y = subnormal_mix(rng, shape), subnormal_mix(rng, shape)

    def fn(x, y):
        return (jnp.log(x), jnp.sqrt(x), jax.lax.rsqrt(x), jnp.sign(x), jnp.floor(x), jnp.ceil(x), jnp.round(x),
                1.0 / x, x * y, x + y, x - y, x / (y + 4.0), jnp.maximum(x, y), jnp.minimum(x, 0.0),
                jnp.exp(x - 1.0), jnp.exp(-jnp.abs(y) * 100.0), jnp.tanh(x), jnp.sin(x), jnp.cos(x), jnp.tan(x),
                jnp.expm1(x), jnp.log1p(x), jnp.arctan2(x, 2.0), jax.nn.sigmoid(x),
                jnp.abs(x), -x, jnp.where(x > 0, 1.0, jnp.where(x < 0, -1.0, 0.0)), x == 0.0,
                jnp.fmod(x, 1.0), jnp.power(jnp.abs(x), 0.5))

    return Built(fn, (x, y))


@case(API, "Subnormals through reductions, products, scans and conversions (f32 to bf16 and f16 and back), "
      "in XLA CPU's flush-to-zero environment.", rtol=1e-5, atol=0, strict=True)
def fpenv_subnormal_reductions(size):
    rng = np.random.default_rng(1909)
    shape = (4, 6) if size == "test" else (256, 512)
    x = subnormal_mix(rng, shape)
    h = np.resize(np.array([1e-5, -3e-6, 6e-8, 1e-3, 0.0, 2.0, -1e-7, 0.25], np.float16), shape)

    def fn(x, h):
        return (jnp.sum(x, axis=1), jnp.max(x, axis=1), jnp.min(x, axis=0), jnp.sum(x * 1e30, axis=0),
                x @ x.T, jnp.cumsum(x, axis=1), x.astype(jnp.bfloat16), (x * 1e10).astype(jnp.float16),
                h.astype(jnp.float32), h * h, x.astype(jnp.bfloat16).astype(jnp.float32) * 2.0,
                jnp.sort(x, axis=1), jnp.argmax(x, axis=1))

    return Built(fn, (x, h))


@case(API, "sin, cos and tan of f32 arguments over the whole exponent range (up to 3.4e38, the Payne-Hanek "
      "reduction's domain) mixed with ordinary ones, and sin(x)^2 + cos(x)^2.", rtol=1e-5, atol=1e-6)
def trig_huge_arguments(size):
    rng = np.random.default_rng(1919)
    shape = (8, 16) if size == "test" else (1024, 1024)
    mag = np.exp2(rng.uniform(-4.0, 127.9, shape)) * rng.choice([-1.0, 1.0], shape)
    ordinary = rng.uniform(-10.0, 10.0, shape)
    x = np.where(rng.uniform(size=shape) < 0.75, mag, ordinary).astype(np.float32)
    x.flat[:6] = [3.4028235e38, -3.4028235e38, 1e30, 2 ** 26 * 1.5707963, 8388607.5, 0.0]

    def fn(x):
        s, c = jnp.sin(x), jnp.cos(x)
        return s, c, jnp.tan(x), s * s + c * c

    return Built(fn, (x,))


def special_grid(dtype):
    """Every pair (re, im) of zeros of both signs, ordinary, tiny, huge, infinite
    and NaN parts: the special cases of XLA's complex formulas."""
    parts = np.array([0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 1e-3, 7.0, 1e30, -1e30, np.inf, -np.inf, np.nan], dtype)
    re, im = np.meshgrid(parts, parts, indexing="ij")
    return re.ravel(), im.ravel()


def complex_ops(z, w):
    """The elementwise complex operations XLA defines, on z and on z with w. Powers take
    exponents without huge finite parts: z^w's angle is then d log|z| for a huge d,
    whose cosine depends on the last bit of a logarithm."""
    def tame(x):
        return jnp.where(jnp.isfinite(x) & (jnp.abs(x) > 100), 3.0, x)

    power = lax.pow(z, lax.complex(tame(lax.real(w)), tame(lax.imag(w))))
    return (lax.abs(z), lax.sign(z), lax.exp(z), lax.expm1(z), lax.log(z), lax.log1p(z), lax.sqrt(z),
            lax.rsqrt(z), lax.sin(z), lax.cos(z), lax.tan(z), lax.tanh(z), z * w, z / w, power,
            z + w, z - w, -z, z == w, z != w, lax.real(z), lax.imag(z), jnp.conj(z),
            z.astype(jnp.complex64) if z.dtype == jnp.complex128 else z.astype(jnp.complex128))


@case(API, "Elementwise complex operations (abs, sign, exp, expm1, log, log1p, sqrt, rsqrt, trig, tanh, "
      "multiply, divide, power, compare) on every pair of special parts: zeros, tiny, huge, inf, NaN.",
      rtol=1e-5, atol=1e-6)
def complex_special_values(size):
    re, im = special_grid(np.float32)
    if size != "test":
        re, im = np.resize(re, 1 << 20), np.resize(im, 1 << 20)
    order = np.random.default_rng(1930).permutation(re.size)

    def fn(re, im, order):
        z = lax.complex(re, im)
        return complex_ops(z, z[order])

    return Built(fn, (re, im, order.astype(np.int32)))


@case(API, "Complex values through data movement, products and reductions: gather, scatter-add, dynamic "
      "slices, pad, concatenate, transpose, select, sum, cumsum, batched einsum and convert.", rtol=1e-5, atol=1e-5)
def complex_data_movement(size):
    rng = np.random.default_rng(1931)
    b, n = (2, 6) if size == "test" else (64, 128)
    a, c = normal(rng, (b, n, n)), normal(rng, (b, n, n))
    idx = rng.integers(0, n, (5,)).astype(np.int32)

    def fn(a, c, idx):
        z = lax.complex(a, c)
        i = idx[0]
        rows = z[:, idx, :]
        scattered = jnp.zeros_like(z).at[:, idx, 1].add(z[:, 0, :5])
        window = lax.dynamic_slice(z, (0, i, 1), (b, 2, 3))
        updated = lax.dynamic_update_slice(z, window * 2j, (0, 1, i))
        padded = jnp.pad(z, ((0, 0), (1, 2), (0, 1)), constant_values=1.5 - 0.5j)
        stacked = jnp.concatenate([z, jnp.conj(z)], axis=1)
        chosen = jnp.where(a > 0, z, z * 1j)
        prod = jnp.einsum("bij,bjk->bik", z, jnp.swapaxes(z, 1, 2).conj())
        mixed = jnp.einsum("bij,bjk->bik", z, a)
        return (rows, scattered, window, updated, padded, stacked, jnp.transpose(z, (2, 0, 1)), chosen,
                jnp.sum(z, axis=(0, 2)), jnp.sum(z * z), jnp.cumsum(z, axis=2), prod, mixed,
                a.astype(jnp.complex64) + 1j, jnp.abs(prod), jnp.angle(z))

    return Built(fn, (a, c, idx))


@case(API, "jnp.fft: fft, ifft, rfft and irfft of even and odd lengths, 2-D and 3-D transforms over batches, "
      "fftshift and round trips.", rtol=1e-4, atol=1e-4)
def fft_family(size):
    rng = np.random.default_rng(1932)
    b, n = (3, 12) if size == "test" else (256, 1536)
    x, y = normal(rng, (b, n)), normal(rng, (b, n))
    v = normal(rng, (2, 4, 6, 5))

    def fn(x, y, v):
        z = lax.complex(x, y)
        spectrum = jnp.fft.rfft(x)
        return (jnp.fft.fft(z), jnp.fft.ifft(z), spectrum, jnp.fft.rfft(x[:, :n - 1]), jnp.fft.irfft(spectrum, n=n),
                jnp.fft.irfft(spectrum, n=n - 1), jnp.fft.fft2(z.reshape(b, 3, n // 3)),
                jnp.fft.rfftn(v, axes=(1, 2, 3)), jnp.fft.irfftn(jnp.fft.rfftn(v, axes=(2, 3)), s=(6, 5), axes=(2, 3)),
                jnp.fft.fftshift(jnp.abs(jnp.fft.fft(z)), axes=1), jnp.fft.ifft(jnp.fft.fft(z)) - z,
                jnp.fft.fft(z, axis=0))

    return Built(fn, (x, y, v))


@case(API64, "c128: elementwise complex operations on special parts, complex products and f64 FFTs "
      "(generated with x64 on).", rtol=1e-12, atol=1e-12)
def complex128_family(size):
    rng = np.random.default_rng(1933)
    re, im = special_grid(np.float64)
    n = 10 if size == "test" else 4096
    a = rng.standard_normal((4, n))
    order = np.random.default_rng(1934).permutation(re.size)

    def fn(re, im, order, a):
        z = lax.complex(re, im)
        c = lax.complex(a, a[::-1])
        return complex_ops(z, z[order]) + (c @ c.T.conj(), jnp.fft.fft(c), jnp.fft.irfft(jnp.fft.rfft(a), n=n),
                                           jnp.fft.rfft2(a))

    return Built(fn, (re, im, order.astype(np.int64), a))


@case(API, "jnp.linalg.eig and lax.linalg.eig with left eigenvectors (lapack_sgeev_ffi): residuals "
      "a v - v diag(w) and u^H a - diag(w) u^H, unit vectors, sorted eigenvalues and eigvals.", rtol=1e-4, atol=1e-4)
def linalg_eig(size):
    rng = np.random.default_rng(1935)
    batch, n = ((2,), 5) if size == "test" else ((16,), 48)
    a = normal(rng, batch + (n, n))

    def fn(a):
        w, v = jnp.linalg.eig(a)
        wl, vl, vr = lax.linalg.eig(a, compute_left_eigenvectors=True, compute_right_eigenvectors=True)
        right = a.astype(jnp.complex64) @ v - v * w[..., None, :]
        left = jnp.swapaxes(vl.conj(), -1, -2) @ a.astype(jnp.complex64) - wl[..., :, None] * jnp.swapaxes(vl.conj(), -1, -2)
        order = jnp.argsort(jnp.abs(w), axis=-1)
        return (jnp.abs(right), jnp.abs(left), jnp.linalg.norm(v, axis=-2), jnp.linalg.norm(vr, axis=-2),
                jnp.take_along_axis(jnp.abs(w), order, axis=-1), jnp.sort(jnp.linalg.eigvals(a), axis=-1),
                jnp.sum(w, axis=-1) - jnp.trace(a, axis1=-2, axis2=-1))

    return Built(fn, (a,))


@case(API, "Convolutions and correlations of complex signals (jnp.convolve, jnp.correlate, lax.conv on c64).",
      rtol=1e-5, atol=1e-5)
def complex_convolution(size):
    rng = np.random.default_rng(1936)
    n, k = (16, 5) if size == "test" else (4096, 33)
    x, y, h = normal(rng, (n,)), normal(rng, (n,)), normal(rng, (k,))
    img = normal(rng, (1, 2, 9, 9))
    ker = normal(rng, (3, 2, 3, 3))

    def fn(x, y, h, img, ker):
        z = lax.complex(x, y)
        zi = lax.complex(img, img[:, ::-1])
        conv = lax.conv_general_dilated(zi, ker.astype(jnp.complex64) * (1 - 1j), (1, 1), "SAME")
        return jnp.convolve(z, h, mode="same"), jnp.correlate(z, z[:k], mode="valid"), jnp.convolve(x, z[:k]), conv

    return Built(fn, (x, y, h, img, ker))


@case(API, "jax.scipy.linalg.schur of general matrices (lapack_sgees_ffi): z t z^T - a, z^T z - I, the zeros "
      "below t's subdiagonal and its sorted diagonal.", rtol=1e-4, atol=1e-4)
def linalg_schur(size):
    rng = np.random.default_rng(1937)
    batch, n = ((3,), 6) if size == "test" else ((16,), 48)
    a = normal(rng, batch + (n, n))

    def fn(a):
        import jax.scipy.linalg as jsl
        t, z = jax.vmap(jsl.schur)(a)
        zt = jnp.swapaxes(z, -1, -2)
        return (z @ t @ zt - a, zt @ z - jnp.eye(n, dtype=a.dtype), jnp.tril(t, -2),
                jnp.sort(jnp.diagonal(t, axis1=-2, axis2=-1), axis=-1))

    return Built(fn, (a,))


def complex_pair(rng, shape):
    """Real and imaginary parts of a complex array (the program builds the complex value)."""
    return normal(rng, shape), normal(rng, shape)


@case(API, "Complex LU, Cholesky, triangular solves and QR (lapack_c{getrf,potrf,trsm,geqrf,ungqr}_ffi): raw factors, "
      "pivots and tau where LAPACK fixes them, and the residuals p l u - a, l l^H - a, op(a) x - b, q r - a.",
      rtol=1e-4, atol=1e-4)
def linalg_complex_factors(size):
    rng = np.random.default_rng(1940)
    batch, n = ((2,), 5) if size == "test" else ((16,), 48)
    (ar, ai), (br, bi) = complex_pair(rng, batch + (n, n)), complex_pair(rng, batch + (n, 2))

    def fn(ar, ai, br, bi):
        import jax.scipy.linalg as jsl
        eye = jnp.eye(n, dtype=jnp.complex64)
        a = lax.complex(ar, ai) + n * eye
        b = lax.complex(br, bi)
        h = a @ jnp.swapaxes(a.conj(), -1, -2) + n * eye
        lu, piv = jax.vmap(jsl.lu_factor)(a)
        x = jnp.linalg.solve(a, b)
        l = jnp.linalg.cholesky(h)
        u = jsl.cholesky(h, lower=False)
        t_c = jax.vmap(lambda m, v: jsl.solve_triangular(m, v, lower=True, trans="C"))(a, b)
        t_t = jax.vmap(lambda m, v: jsl.solve_triangular(m, v, lower=False, trans="T", unit_diagonal=True))(a, b)
        raw, tau = jnp.linalg.qr(a, mode="raw")
        q, r = jnp.linalg.qr(a)
        lh = jnp.swapaxes(l.conj(), -1, -2)
        return (lu, piv, x, a @ x - b, jnp.linalg.det(a), jnp.linalg.inv(a) @ a - eye, l, u, l @ lh - h,
                t_c, jnp.swapaxes(jnp.tril(a).conj(), -1, -2) @ t_c - b, t_t, raw, tau, q, r, q @ r - a)

    return Built(fn, (ar, ai, br, bi))


@case(API, "Complex eigh, svd, eig, Schur, Hessenberg and sqrtm (lapack_c{heevd,gesdd,geev,gees,gehrd}_ffi) by their "
      "invariants: eigenvalues and singular values, residuals, unitary factors, triangular t, sqrtm(a)^2 - a.",
      rtol=1e-4, atol=2e-4)
def linalg_complex_spectral(size):
    rng = np.random.default_rng(1941)
    batch, n = ((2,), 5) if size == "test" else ((8,), 32)
    ar, ai = complex_pair(rng, batch + (n, n))
    g = normal(rng, (n, n))

    def fn(ar, ai, g):
        import jax.scipy.linalg as jsl
        eye = jnp.eye(n, dtype=jnp.complex64)
        a = lax.complex(ar, ai)
        adj = lambda m: jnp.swapaxes(m.conj(), -1, -2)
        h = a + adj(a)
        w, v = jnp.linalg.eigh(h)
        u, s, vh = jnp.linalg.svd(a, full_matrices=False)
        ew, ev = jnp.linalg.eig(a)
        t, z = jax.vmap(lambda m: jsl.schur(m, output="complex"))(a)
        hh, hq = jax.vmap(lambda m: jsl.hessenberg(m, calc_q=True))(a)
        root = jsl.sqrtm(g @ g.T + n * np.eye(n, dtype=np.float32))
        return (w, (v * w[..., None, :]) @ adj(v) - h, adj(v) @ v - eye, s, (u * s[..., None, :]) @ vh - a,
                jnp.abs(a @ ev - ev * ew[..., None, :]), jnp.linalg.norm(ev, axis=-2),
                jnp.sort(ew, axis=-1), z @ t @ adj(z) - a, adj(z) @ z - eye, jnp.tril(t, -1),
                jnp.sort(jnp.diagonal(t, axis1=-2, axis2=-1), axis=-1),
                hq @ hh @ adj(hq) - a, jnp.tril(hh, -2), root @ root - (g @ g.T + n * np.eye(n, dtype=np.float32)),
                root)

    return Built(fn, (ar, ai, g))


@case(API, "Tridiagonal solves (lax.linalg.tridiagonal_solve: lapack_sgtsv_ffi and lapack_cgtsv_ffi) over a batch, "
      "with small diagonals that force row interchanges, and their residuals.", rtol=1e-4, atol=1e-4)
def linalg_tridiagonal(size):
    rng = np.random.default_rng(1942)
    batch, n, k = ((3,), 7, 2) if size == "test" else ((64,), 512, 4)
    dl, du, b = normal(rng, batch + (n,)), normal(rng, batch + (n,)), normal(rng, batch + (n, k))
    d = np.float32(0.1) * normal(rng, batch + (n,))
    dl[..., 0] = 0
    du[..., -1] = 0

    def fn(dl, d, du, b):
        x = lax.linalg.tridiagonal_solve(dl, d, du, b)
        a = jnp.zeros(batch + (n, n), jnp.float32)
        idx = jnp.arange(n)
        a = a.at[..., idx, idx].set(d).at[..., idx[1:], idx[:-1]].set(dl[..., 1:]).at[..., idx[:-1], idx[1:]].set(du[..., :-1])
        zc = lambda v: lax.complex(v, v[..., ::-1])
        xc = lax.linalg.tridiagonal_solve(zc(dl) * jnp.array([0] + [1] * (n - 1), jnp.complex64), zc(d),
                                          zc(du) * jnp.array([1] * (n - 1) + [0], jnp.complex64), zc(b))
        return x, a @ x - b, xc

    return Built(fn, (dl, d, du, b))


@case(API64, "c128 and f64 linear algebra (lapack_z*_ffi, lapack_dgtsv_ffi): LU solve, Cholesky, QR, eigh, complex "
      "Schur and tridiagonal solves (generated with x64 on).", rtol=1e-9, atol=1e-9)
def linalg_complex128(size):
    rng = np.random.default_rng(1943)
    n = 6 if size == "test" else 48
    ar, ai = rng.standard_normal((n, n)), rng.standard_normal((n, n))
    b = rng.standard_normal((n, 2))

    def fn(ar, ai, b):
        import jax.scipy.linalg as jsl
        eye = jnp.eye(n, dtype=jnp.complex128)
        a = lax.complex(ar, ai) + n * eye
        h = a @ a.T.conj() + n * eye
        x = jnp.linalg.solve(a, b.astype(jnp.complex128))
        l = jnp.linalg.cholesky(h)
        q, r = jnp.linalg.qr(a)
        w, v = jnp.linalg.eigh(h)
        t, z = jsl.schur(a, output="complex")
        dl = jnp.concatenate([jnp.zeros(1), ar[0, 1:]])
        du = jnp.concatenate([ar[1, :-1], jnp.zeros(1)])
        xt = lax.linalg.tridiagonal_solve(dl, 0.1 * ar[2], du, b)
        return (x, a @ x - b, l, l @ l.T.conj() - h, q, r, q @ r - a, w, (v * w) @ v.T.conj() - h,
                z @ t @ z.T.conj() - a, jnp.tril(t, -1), xt)

    return Built(fn, (ar, ai, b))
