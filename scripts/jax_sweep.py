"""A sweep of small programs over the public JAX API, one function per case.

Used with the corpus tools (`../shared/tools/corpus/`), usually through
scripts/sweep.py, which generates the case folders and runs `smelt check`
on them with several backends:

    $PY scripts/sweep.py --smelt target/release/smelt --out /tmp/sweep

or by hand:

    cd ../shared/tools/corpus
    $PY gen.py --cases-module /path/to/smelt/scripts/jax_sweep.py --set sweep --out /tmp/sweep \
        --no-bench-shapes
    JAX_ENABLE_X64=1 $PY gen.py --cases-module /path/to/smelt/scripts/jax_sweep.py --set sweep64 \
        --out /tmp/sweep --no-bench-shapes

Each case applies ONE public JAX function (jax.numpy, jax.numpy.linalg,
jax.numpy.fft, jax.scipy.special, jax.scipy.linalg, jax.lax, jax.nn,
jax.random) to tiny fixed-seed inputs; the reference outputs are what XLA
CPU computes. Names say the category: sw_<category>_<what>, the categories
being

    jnp      elementwise math, rounding, bit operations
    arr      reductions and array operations (sort, cumsum, einsum, pad, ...)
    linalg   jnp.linalg and jax.scipy.linalg (LAPACK custom calls on CPU);
             non-unique factorizations return invariants (sorted eigenvalues,
             reconstructions, singular values), a few return raw factors
    fft      jnp.fft, real outputs (abs/real/imag) and a few complex ones
    complex  programs with complex intermediates
    special  jax.scipy.special
    lax      jax.lax primitives and control flow
    nn       jax.nn activations and helpers
    random   jax.random from a seed or a raw uint32 key passed as input
    fpenv    subnormal inputs and results (XLA CPU flushes denormals)
    trig     sin/cos/tan of huge arguments (f32 here; f64 in set sweep64,
             which must be generated with JAX_ENABLE_X64=1)

Builders accept size "test" and "bench" and return the same small inputs
for both. Complex outputs are stored as c64 / c128 .npy files: importing
this module teaches gen.py those dtype names (it has no complex entry).
"""

import os
import sys

import numpy as np
import jax
import jax.numpy as jnp
from jax import lax

from cases import Built, Registry, case, normal, uniform

SWEEP = Registry("sweep")
SWEEP64 = Registry("sweep64")        # f64 cases: generate with JAX_ENABLE_X64=1


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import complex_dtypes  # noqa: E402

complex_dtypes.register()

LA = dict(rtol=1e-3, atol=1e-4)      # linalg tolerances


# ----------------------------------------------------------------------------------
# Input helpers (their source goes into each case's jax_source).
# ----------------------------------------------------------------------------------

def unif(seed, shape=(4, 5), lo=-3.0, hi=3.0, dtype=np.float32):
    return uniform(np.random.default_rng(seed), shape, lo, hi, dtype)


def gauss(seed, shape=(4, 5), scale=1.0, dtype=np.float32):
    return normal(np.random.default_rng(seed), shape, scale, dtype)


def ints(seed, shape=(4, 5), lo=-20, hi=20, dtype=np.int32):
    return np.random.default_rng(seed).integers(lo, hi, shape).astype(dtype)


def wellcond(seed, n=4, batch=()):
    """A random n x n matrix plus n * I: far from singular."""
    a = gauss(seed, batch + (n, n))
    return (a + n * np.eye(n, dtype=np.float32)).astype(np.float32)


def spd(seed, n=4):
    """A symmetric positive definite n x n matrix."""
    a = gauss(seed, (n, n))
    return (a @ a.T + n * np.eye(n, dtype=np.float32)).astype(np.float32)


def specials():
    """Values with inf, nan, signed zeros and halves."""
    return np.array([[0.0, -0.0, 0.5, -0.5, 1.5], [-2.5, np.inf, -np.inf, np.nan, 3.0],
                     [1e30, -1e30, 2.5, 7.25, -7.75], [1e-3, -1e-3, 100.5, -100.5, 0.25]],
                    np.float32)


def subnormals():
    """f32 subnormals (1e-40, -1e-41, 1e-45 = the smallest, 5e-39) mixed with normal values."""
    return np.array([[1e-40, -1e-41, 1e-45, -1e-45, 5e-39, -5e-39],
                     [0.0, -0.0, 1.0, -2.5, 1.17549435e-38, 1e-30],
                     [3e-39, 2.0, -1e-40, 0.5, 8e-41, -3.0]], np.float32)


def huge_f32():
    return np.array([0.5, -3.0, 1e4, 1e6, 1e10, -1e10, 1e15, 1e20, -1e20, 1e30, 3e38, -3e38,
                     123456.7, 8388607.5, 16777216.0, 1e25], np.float32)


def huge_f64():
    return np.array([0.5, -3.0, 1e10, -1e10, 1e15, 1e20, 1e30, -1e30, 1e100, 1e200, 1e300,
                     -1e300, 1.7e308, 123456789.123, 2.0 ** 53, 1e22], np.float64)


# ==================================================================================
# jnp: elementwise math, rounding and bit operations
# ==================================================================================

@case(SWEEP, "jnp.sinh", rtol=1e-4, atol=1e-5)
def sw_jnp_sinh(size):
    return Built(jnp.sinh, (unif(1),))


@case(SWEEP, "jnp.cosh", rtol=1e-4, atol=1e-5)
def sw_jnp_cosh(size):
    return Built(jnp.cosh, (unif(2),))


@case(SWEEP, "jnp.arcsinh", rtol=1e-4, atol=1e-5)
def sw_jnp_arcsinh(size):
    return Built(jnp.arcsinh, (unif(3, lo=-50.0, hi=50.0),))


@case(SWEEP, "jnp.arccosh of values above 1", rtol=1e-4, atol=1e-5)
def sw_jnp_arccosh(size):
    return Built(jnp.arccosh, (unif(4, lo=1.0, hi=40.0),))


@case(SWEEP, "jnp.arctanh of values in (-1, 1)", rtol=1e-4, atol=1e-5)
def sw_jnp_arctanh(size):
    return Built(jnp.arctanh, (unif(5, lo=-0.99, hi=0.99),))


@case(SWEEP, "jnp.arcsin and jnp.arccos", rtol=1e-4, atol=1e-5)
def sw_jnp_arcsin_arccos(size):
    return Built(lambda x: (jnp.arcsin(x), jnp.arccos(x)), (unif(6, lo=-1.0, hi=1.0),))


@case(SWEEP, "jnp.arctan2 over all four quadrants", rtol=1e-4, atol=1e-5)
def sw_jnp_arctan2(size):
    return Built(jnp.arctan2, (unif(7), unif(8)))


@case(SWEEP, "jnp.expm1 of small and moderate values", rtol=1e-4, atol=1e-6)
def sw_jnp_expm1(size):
    x = unif(9, lo=-1.0, hi=1.0) * np.float32(10.0) ** ints(10, lo=-6, hi=1).astype(np.float32)
    return Built(jnp.expm1, (x.astype(np.float32),))


@case(SWEEP, "jnp.log1p of small and moderate values", rtol=1e-4, atol=1e-6)
def sw_jnp_log1p(size):
    x = unif(11, lo=-0.9, hi=5.0) * np.float32(10.0) ** ints(12, lo=-6, hi=1).astype(np.float32)
    return Built(jnp.log1p, (x.astype(np.float32),))


@case(SWEEP, "jnp.log2 and jnp.log10", rtol=1e-4, atol=1e-5)
def sw_jnp_log2_log10(size):
    return Built(lambda x: (jnp.log2(x), jnp.log10(x)), (unif(13, lo=1e-3, hi=1e3),))


@case(SWEEP, "jnp.exp2", rtol=1e-4, atol=1e-5)
def sw_jnp_exp2(size):
    return Built(jnp.exp2, (unif(14, lo=-20.0, hi=20.0),))


@case(SWEEP, "jnp.logaddexp with large magnitudes", rtol=1e-4, atol=1e-5)
def sw_jnp_logaddexp(size):
    return Built(jnp.logaddexp, (unif(15, lo=-100.0, hi=100.0), unif(16, lo=-100.0, hi=100.0)))


@case(SWEEP, "jnp.logaddexp2", rtol=1e-4, atol=1e-5)
def sw_jnp_logaddexp2(size):
    return Built(jnp.logaddexp2, (unif(17, lo=-30.0, hi=30.0), unif(18, lo=-30.0, hi=30.0)))


@case(SWEEP, "jnp.hypot", rtol=1e-4, atol=1e-5)
def sw_jnp_hypot(size):
    return Built(jnp.hypot, (unif(19, lo=-1e3, hi=1e3), unif(20)))


@case(SWEEP, "jnp.cbrt of negative and positive values", rtol=1e-4, atol=1e-5)
def sw_jnp_cbrt(size):
    return Built(jnp.cbrt, (unif(21, lo=-100.0, hi=100.0),))


@case(SWEEP, "jnp.floor_divide on f32 with negative operands", rtol=1e-4, atol=1e-5)
def sw_jnp_floor_divide_f32(size):
    y = unif(23, lo=0.5, hi=3.0) * np.sign(unif(24))
    return Built(jnp.floor_divide, (unif(22, lo=-10.0, hi=10.0), y.astype(np.float32)))


@case(SWEEP, "jnp.floor_divide on s32 with negative operands (Python semantics)", rtol=0, atol=0)
def sw_jnp_floor_divide_s32(size):
    y = ints(26, lo=1, hi=7) * np.where(ints(27, lo=0, hi=2) > 0, 1, -1).astype(np.int32)
    return Built(jnp.floor_divide, (ints(25, lo=-50, hi=50), y.astype(np.int32)))


@case(SWEEP, "jnp.remainder on f32 (sign of the divisor)", rtol=1e-4, atol=1e-5)
def sw_jnp_remainder_f32(size):
    y = unif(29, lo=0.5, hi=3.0) * np.sign(unif(30))
    return Built(jnp.remainder, (unif(28, lo=-10.0, hi=10.0), y.astype(np.float32)))


@case(SWEEP, "jnp.remainder on s32 (sign of the divisor)", rtol=0, atol=0)
def sw_jnp_remainder_s32(size):
    y = ints(32, lo=1, hi=7) * np.where(ints(33, lo=0, hi=2) > 0, 1, -1).astype(np.int32)
    return Built(jnp.remainder, (ints(31, lo=-50, hi=50), y.astype(np.int32)))


@case(SWEEP, "jnp.fmod on f32 (sign of the dividend)", rtol=1e-4, atol=1e-5)
def sw_jnp_fmod_f32(size):
    return Built(jnp.fmod, (unif(34, lo=-10.0, hi=10.0), unif(35, lo=0.5, hi=3.0)))


@case(SWEEP, "jnp.fmod on s32", rtol=0, atol=0)
def sw_jnp_fmod_s32(size):
    return Built(jnp.fmod, (ints(36, lo=-50, hi=50), ints(37, lo=1, hi=9)))


@case(SWEEP, "jnp.divmod on s32", rtol=0, atol=0)
def sw_jnp_divmod_s32(size):
    y = ints(39, lo=1, hi=7) * np.where(ints(40, lo=0, hi=2) > 0, 1, -1).astype(np.int32)
    return Built(jnp.divmod, (ints(38, lo=-50, hi=50), y.astype(np.int32)))


@case(SWEEP, "jnp.sign of f32 with zeros, infinities and NaN", rtol=0, atol=0)
def sw_jnp_sign_f32(size):
    return Built(jnp.sign, (specials(),))


@case(SWEEP, "jnp.sign of s32", rtol=0, atol=0)
def sw_jnp_sign_s32(size):
    return Built(jnp.sign, (ints(41, lo=-3, hi=4),))


@case(SWEEP, "jnp.copysign", rtol=0, atol=0)
def sw_jnp_copysign(size):
    return Built(jnp.copysign, (unif(42), specials()))


@case(SWEEP, "jnp.nextafter towards +-inf and towards each other", rtol=0, atol=0)
def sw_jnp_nextafter(size):
    return Built(lambda x, y: (jnp.nextafter(x, y), jnp.nextafter(x, jnp.inf), jnp.nextafter(x, -jnp.inf)),
                 (unif(43), unif(44)))


@case(SWEEP, "jnp.round (half to even) of halves and infinities", rtol=0, atol=0)
def sw_jnp_round(size):
    return Built(jnp.round, (specials(),))


@case(SWEEP, "jnp.round to 2 decimals", rtol=1e-5, atol=1e-6)
def sw_jnp_round_decimals(size):
    return Built(lambda x: jnp.round(x, 2), (unif(45, lo=-10.0, hi=10.0),))


@case(SWEEP, "jnp.rint", rtol=0, atol=0)
def sw_jnp_rint(size):
    return Built(jnp.rint, (specials(),))


@case(SWEEP, "jnp.trunc", rtol=0, atol=0)
def sw_jnp_trunc(size):
    return Built(jnp.trunc, (specials(),))


@case(SWEEP, "jnp.floor and jnp.ceil", rtol=0, atol=0)
def sw_jnp_floor_ceil(size):
    return Built(lambda x: (jnp.floor(x), jnp.ceil(x)), (specials(),))


@case(SWEEP, "jnp.modf (fractional and integral parts)", rtol=1e-6, atol=1e-6)
def sw_jnp_modf(size):
    return Built(lambda x: tuple(jnp.modf(x)), (unif(46, lo=-10.0, hi=10.0),))


@case(SWEEP, "jnp.clip with array bounds", rtol=0, atol=0)
def sw_jnp_clip(size):
    return Built(lambda x, lo: jnp.clip(x, lo, lo + 1.5), (unif(47), unif(48, (5,), -1.0, 0.0)))


@case(SWEEP, "jnp.heaviside with zeros in x", rtol=0, atol=0)
def sw_jnp_heaviside(size):
    return Built(jnp.heaviside, (specials(), unif(49)))


@case(SWEEP, "jnp.sinc, including x = 0", rtol=1e-4, atol=1e-5)
def sw_jnp_sinc(size):
    x = unif(50)
    x[0, 0] = 0.0
    return Built(jnp.sinc, (x,))


@case(SWEEP, "jnp.deg2rad and jnp.rad2deg", rtol=1e-5, atol=1e-5)
def sw_jnp_deg2rad(size):
    return Built(lambda x: (jnp.deg2rad(x), jnp.rad2deg(x)), (unif(51, lo=-360.0, hi=360.0),))


@case(SWEEP, "jnp.isfinite, jnp.isnan, jnp.isinf, jnp.isposinf, jnp.signbit", rtol=0, atol=0)
def sw_jnp_isfinite_isnan(size):
    return Built(lambda x: (jnp.isfinite(x), jnp.isnan(x), jnp.isinf(x), jnp.isposinf(x),
                            jnp.signbit(x)), (specials(),))


@case(SWEEP, "jnp.nan_to_num", rtol=0, atol=0)
def sw_jnp_nan_to_num(size):
    return Built(lambda x: jnp.nan_to_num(x, nan=-1.0, posinf=9.0), (specials(),))


@case(SWEEP, "jnp.where with a broadcast condition", rtol=0, atol=0)
def sw_jnp_where(size):
    return Built(lambda c, x, y: jnp.where(c, x, y), (ints(52, (1, 5), 0, 2).astype(bool), unif(53), unif(54)))


@case(SWEEP, "jnp.maximum/minimum (NaN propagates) and jnp.fmax/fmin (NaN ignored)", rtol=0, atol=0)
def sw_jnp_max_fmax_nan(size):
    return Built(lambda x, y: (jnp.maximum(x, y), jnp.minimum(x, y), jnp.fmax(x, y), jnp.fmin(x, y)),
                 (specials(), unif(55)))


@case(SWEEP, "jnp.bitwise_and / or / xor on s32", rtol=0, atol=0)
def sw_jnp_bitwise_s32(size):
    a, b = ints(56, lo=-1000, hi=1000), ints(57, lo=-1000, hi=1000)
    return Built(lambda a, b: (jnp.bitwise_and(a, b), jnp.bitwise_or(a, b), jnp.bitwise_xor(a, b)), (a, b))


@case(SWEEP, "jnp.bitwise_not / invert on u8 and s32", rtol=0, atol=0)
def sw_jnp_invert(size):
    return Built(lambda a, b: (jnp.invert(a), jnp.bitwise_not(b)),
                 (ints(58, lo=0, hi=256, dtype=np.uint8), ints(59)))


@case(SWEEP, "jnp.left_shift on s32 and u32 (shift amounts up to 31)", rtol=0, atol=0)
def sw_jnp_left_shift(size):
    return Built(lambda a, u, s: (jnp.left_shift(a, s), jnp.left_shift(u, s.astype(jnp.uint32))),
                 (ints(60, lo=-100, hi=100), ints(61, lo=0, hi=1 << 30, dtype=np.uint32),
                  ints(62, lo=0, hi=32)))


@case(SWEEP, "jnp.right_shift on s32 (arithmetic) and u32 (logical)", rtol=0, atol=0)
def sw_jnp_right_shift(size):
    return Built(lambda a, u, s: (jnp.right_shift(a, s), jnp.right_shift(u, s.astype(jnp.uint32))),
                 (ints(63, lo=-100000, hi=100000), ints(64, lo=0, hi=1 << 31, dtype=np.uint32),
                  ints(65, lo=0, hi=32)))


@case(SWEEP, "jnp.power with an integer exponent array on s32", rtol=0, atol=0)
def sw_jnp_int_power(size):
    return Built(jnp.power, (ints(66, lo=-5, hi=6), ints(67, lo=0, hi=7)))


@case(SWEEP, "x ** 3 and x ** -2 on f32 (integer_pow)", rtol=1e-4, atol=1e-5)
def sw_jnp_integer_pow_f32(size):
    return Built(lambda x: (x ** 3, x ** -2), (unif(68, lo=0.5, hi=3.0),))


@case(SWEEP, "jnp.power with float exponents", rtol=1e-4, atol=1e-5)
def sw_jnp_power_f32(size):
    return Built(jnp.power, (unif(69, lo=0.1, hi=5.0), unif(70, lo=-3.0, hi=3.0)))


@case(SWEEP, "jnp.float_power", rtol=1e-4, atol=1e-5)
def sw_jnp_float_power(size):
    return Built(jnp.float_power, (unif(71, lo=0.1, hi=5.0), unif(72, lo=-3.0, hi=3.0)))


@case(SWEEP, "jnp.ldexp", rtol=0, atol=0)
def sw_jnp_ldexp(size):
    return Built(jnp.ldexp, (unif(73), ints(74, lo=-20, hi=20)))


@case(SWEEP, "jnp.frexp (mantissa and exponent)", rtol=0, atol=0)
def sw_jnp_frexp(size):
    x = unif(75, lo=-1e4, hi=1e4)
    x[0, 0] = 0.0
    return Built(jnp.frexp, (x,))


@case(SWEEP, "jnp.square and jnp.reciprocal", rtol=1e-5, atol=1e-6)
def sw_jnp_square_reciprocal(size):
    return Built(lambda x: (jnp.square(x), jnp.reciprocal(x)), (unif(76, lo=0.5, hi=4.0),))


@case(SWEEP, "jnp.abs of s32 (including INT_MIN) and f32", rtol=0, atol=0)
def sw_jnp_abs_int(size):
    a = ints(77)
    a[0, 0] = np.iinfo(np.int32).min
    return Built(lambda a, x: (jnp.abs(a), jnp.abs(x)), (a, specials()))


@case(SWEEP, "jnp.gcd and jnp.lcm on s32", rtol=0, atol=0)
def sw_jnp_gcd_lcm(size):
    return Built(lambda a, b: (jnp.gcd(a, b), jnp.lcm(a, b)), (ints(78, lo=-60, hi=60), ints(79, lo=1, hi=40)))


@case(SWEEP, "jnp.logical_and / or / xor / not", rtol=0, atol=0)
def sw_jnp_logical(size):
    a, b = ints(80, lo=0, hi=2).astype(bool), ints(81, lo=0, hi=2).astype(bool)
    return Built(lambda a, b: (jnp.logical_and(a, b), jnp.logical_or(a, b), jnp.logical_xor(a, b),
                               jnp.logical_not(a)), (a, b))


@case(SWEEP, "jnp.i0 (modified Bessel function of order 0)", rtol=1e-4, atol=1e-5)
def sw_jnp_i0(size):
    return Built(jnp.i0, (unif(82, lo=-5.0, hi=5.0),))


@case(SWEEP, "jnp.spacing", rtol=0, atol=0)
def sw_jnp_spacing(size):
    return Built(jnp.spacing, (unif(83, lo=-100.0, hi=100.0),))


@case(SWEEP, "jnp.true_divide on s32 operands (promotes to f32)", rtol=1e-6, atol=1e-6)
def sw_jnp_true_divide_s32(size):
    return Built(jnp.true_divide, (ints(84), ints(85, lo=1, hi=9)))


@case(SWEEP, "jnp.tan and jnp.arctan", rtol=1e-4, atol=1e-5)
def sw_jnp_tan_arctan(size):
    return Built(lambda x: (jnp.tan(x), jnp.arctan(x * 10.0)), (unif(86, lo=-1.4, hi=1.4),))


@case(SWEEP, "astype conversions: f32 -> s32 (truncation), f32 -> u8, s32 -> f16, f32 -> bf16", rtol=0, atol=0)
def sw_jnp_astype(size):
    return Built(lambda x, i: (x.astype(jnp.int32), jnp.clip(x, 0, 255).astype(jnp.uint8),
                               i.astype(jnp.float16), x.astype(jnp.bfloat16)),
                 (unif(87, lo=-300.0, hi=300.0), ints(88, lo=-3000, hi=3000)))


# ==================================================================================
# arr: reductions and array operations
# ==================================================================================

@case(SWEEP, "jnp.sum over one axis", rtol=1e-5, atol=1e-5)
def sw_arr_sum_axis(size):
    return Built(lambda x: jnp.sum(x, axis=1), (unif(101),))


@case(SWEEP, "jnp.sum over axes (0, 2) of a 3-D array", rtol=1e-5, atol=1e-5)
def sw_arr_sum_axes(size):
    return Built(lambda x: jnp.sum(x, axis=(0, 2)), (unif(102, (3, 4, 5)),))


@case(SWEEP, "jnp.prod over axis 0", rtol=1e-5, atol=1e-5)
def sw_arr_prod(size):
    return Built(lambda x: jnp.prod(x, axis=0), (unif(103, lo=0.5, hi=1.5),))


@case(SWEEP, "jnp.mean with keepdims", rtol=1e-5, atol=1e-6)
def sw_arr_mean_keepdims(size):
    return Built(lambda x: jnp.mean(x, axis=-1, keepdims=True), (unif(104, (3, 4, 5)),))


@case(SWEEP, "jnp.var with ddof=1 and jnp.std over axis 0", rtol=1e-4, atol=1e-5)
def sw_arr_var_std(size):
    return Built(lambda x: (jnp.var(x, axis=1, ddof=1), jnp.std(x, axis=0)), (unif(105),))


@case(SWEEP, "jnp.nanmean and jnp.nansum with NaNs", rtol=1e-5, atol=1e-6)
def sw_arr_nanmean(size):
    x = unif(106)
    x[0, 1] = x[2, 3] = x[3, 0] = np.nan
    return Built(lambda x: (jnp.nanmean(x, axis=1), jnp.nansum(x, axis=0), jnp.nanmax(x)), (x,))


@case(SWEEP, "jnp.max / jnp.min over axes", rtol=0, atol=0)
def sw_arr_amax_amin(size):
    return Built(lambda x: (jnp.max(x, axis=0), jnp.min(x, axis=(1, 2))), (unif(107, (3, 4, 5)),))


@case(SWEEP, "jnp.argmax / jnp.argmin with ties (first index wins)", rtol=0, atol=0)
def sw_arr_argmax_argmin(size):
    x = np.round(unif(108, (4, 6))).astype(np.float32)
    return Built(lambda x: (jnp.argmax(x, axis=1), jnp.argmin(x, axis=0), jnp.argmax(x)), (x,))


@case(SWEEP, "jnp.argmax of rows with NaN", rtol=0, atol=0)
def sw_arr_argmax_nan(size):
    return Built(lambda x: (jnp.argmax(x, axis=1), jnp.argmin(x, axis=1)), (specials(),))


@case(SWEEP, "jnp.cumsum along axis 1", rtol=1e-5, atol=1e-5)
def sw_arr_cumsum(size):
    return Built(lambda x: jnp.cumsum(x, axis=1), (unif(109, (3, 4, 5)),))


@case(SWEEP, "jnp.cumprod along axis 0", rtol=1e-5, atol=1e-5)
def sw_arr_cumprod(size):
    return Built(lambda x: jnp.cumprod(x, axis=0), (unif(110, lo=0.5, hi=1.5),))


@case(SWEEP, "jnp.cumsum of 64 f16 values", rtol=2e-3, atol=2e-3)
def sw_arr_cumsum_f16(size):
    return Built(jnp.cumsum, (unif(111, (64,), 0.0, 1.0, np.float16),))


@case(SWEEP, "jnp.cumsum of 64 bf16 values", rtol=1.6e-2, atol=1.6e-2)
def sw_arr_cumsum_bf16(size):
    return Built(jnp.cumsum, (unif(112, (64,), 0.0, 1.0, jnp.bfloat16),))


@case(SWEEP, "jnp.nancumsum", rtol=1e-5, atol=1e-5)
def sw_arr_nancumsum(size):
    x = unif(113)
    x[1, 2] = np.nan
    return Built(lambda x: jnp.nancumsum(x, axis=1), (x,))


@case(SWEEP, "jnp.sort along the last axis", rtol=0, atol=0)
def sw_arr_sort(size):
    return Built(jnp.sort, (unif(114, (3, 4, 5)),))


@case(SWEEP, "jnp.sort along axis 0, with NaN and infinities", rtol=0, atol=0)
def sw_arr_sort_axis0_nan(size):
    return Built(lambda x: jnp.sort(x, axis=0), (specials(),))


@case(SWEEP, "jnp.sort of s32, descending", rtol=0, atol=0)
def sw_arr_sort_desc_s32(size):
    return Built(lambda x: jnp.sort(x, descending=True), (ints(115, (4, 8)),))


@case(SWEEP, "jnp.argsort (stable, with ties)", rtol=0, atol=0)
def sw_arr_argsort(size):
    return Built(lambda x: jnp.argsort(x, axis=-1, stable=True), (ints(116, (4, 8), 0, 4),))


@case(SWEEP, "jnp.lexsort of two keys", rtol=0, atol=0)
def sw_arr_lexsort(size):
    return Built(lambda a, b: jnp.lexsort((a, b)), (ints(117, (10,), 0, 3), ints(118, (10,), 0, 3)))


@case(SWEEP, "jnp.take with clipped indices", rtol=0, atol=0)
def sw_arr_take(size):
    return Built(lambda x, i: jnp.take(x, i, axis=1, mode="clip"), (unif(119), ints(120, (3, 2), -2, 7)))


@case(SWEEP, "jnp.take_along_axis with argsort indices", rtol=0, atol=0)
def sw_arr_take_along_axis(size):
    return Built(lambda x, y: jnp.take_along_axis(x, jnp.argsort(y, axis=1), axis=1), (unif(121), unif(122)))


@case(SWEEP, "jnp.roll along one axis and along two", rtol=0, atol=0)
def sw_arr_roll(size):
    return Built(lambda x: (jnp.roll(x, 2, axis=1), jnp.roll(x, (-1, 3), axis=(0, 2))), (unif(123, (3, 4, 5)),))


@case(SWEEP, "jnp.flip, jnp.fliplr, jnp.rot90", rtol=0, atol=0)
def sw_arr_flip(size):
    return Built(lambda x: (jnp.flip(x, axis=(0, 1)), jnp.fliplr(x), jnp.rot90(x)), (unif(124),))


@case(SWEEP, "jnp.tril and jnp.triu with offsets", rtol=0, atol=0)
def sw_arr_tril_triu(size):
    return Built(lambda x: (jnp.tril(x, -1), jnp.triu(x, 1)), (unif(125, (5, 5)),))


@case(SWEEP, "jnp.diag (extract, offset 1) and jnp.diag of a vector", rtol=0, atol=0)
def sw_arr_diag(size):
    return Built(lambda x, v: (jnp.diag(x, 1), jnp.diag(v), jnp.diagonal(x, -1)), (unif(126), unif(127, (4,))))


@case(SWEEP, "jnp.trace", rtol=1e-5, atol=1e-5)
def sw_arr_trace(size):
    return Built(lambda x: (jnp.trace(x), jnp.trace(x, offset=1)), (unif(128, (5, 5)),))


@case(SWEEP, "jnp.kron", rtol=1e-5, atol=1e-6)
def sw_arr_kron(size):
    return Built(jnp.kron, (unif(129, (2, 3)), unif(130, (3, 2))))


@case(SWEEP, "jnp.outer and jnp.inner", rtol=1e-5, atol=1e-5)
def sw_arr_outer(size):
    return Built(lambda a, b: (jnp.outer(a, b), jnp.inner(a, b)), (unif(131, (6,)), unif(132, (6,))))


@case(SWEEP, "jnp.cross of 3-vectors", rtol=1e-5, atol=1e-5)
def sw_arr_cross(size):
    return Built(jnp.cross, (unif(133, (4, 3)), unif(134, (4, 3))))


@case(SWEEP, "jnp.einsum 'ij,jk->ik'", rtol=1e-5, atol=1e-5)
def sw_arr_einsum_matmul(size):
    return Built(lambda a, b: jnp.einsum("ij,jk->ik", a, b), (unif(135, (4, 5)), unif(136, (5, 3))))


@case(SWEEP, "jnp.einsum batched attention scores 'bhqd,bhkd->bhqk'", rtol=1e-5, atol=1e-5)
def sw_arr_einsum_attention(size):
    return Built(lambda q, k: jnp.einsum("bhqd,bhkd->bhqk", q, k), (unif(137, (2, 3, 4, 5)), unif(138, (2, 3, 6, 5))))


@case(SWEEP, "jnp.einsum 'ii->i', 'ij->', 'ijk->kji'", rtol=1e-5, atol=1e-5)
def sw_arr_einsum_misc(size):
    return Built(lambda a, b: (jnp.einsum("ii->i", a), jnp.einsum("ij->", a), jnp.einsum("ijk->kji", b)),
                 (unif(139, (4, 4)), unif(140, (2, 3, 4))))


@case(SWEEP, "jnp.einsum with three operands 'ij,jk,kl->il'", rtol=1e-5, atol=1e-5)
def sw_arr_einsum_three(size):
    return Built(lambda a, b, c: jnp.einsum("ij,jk,kl->il", a, b, c),
                 (unif(141, (3, 4)), unif(142, (4, 5)), unif(143, (5, 2))))


@case(SWEEP, "jnp.einsum with a broadcast batch 'bij,jk->bik' and an outer product 'i,j->ij'", rtol=1e-5, atol=1e-5)
def sw_arr_einsum_broadcast(size):
    return Built(lambda a, b, u, v: (jnp.einsum("bij,jk->bik", a, b), jnp.einsum("i,j->ij", u, v)),
                 (unif(144, (2, 3, 4)), unif(145, (4, 5)), unif(146, (3,)), unif(147, (4,))))


@case(SWEEP, "jnp.tensordot over two axes", rtol=1e-5, atol=1e-5)
def sw_arr_tensordot(size):
    return Built(lambda a, b: jnp.tensordot(a, b, axes=([1, 2], [0, 1])), (unif(148, (3, 4, 5)), unif(149, (4, 5, 2))))


@case(SWEEP, "jnp.matmul with broadcasting batch dims", rtol=1e-5, atol=1e-5)
def sw_arr_matmul_broadcast(size):
    return Built(jnp.matmul, (unif(150, (2, 1, 3, 4)), unif(151, (3, 4, 5))))


@case(SWEEP, "jnp.vdot and jnp.dot of vectors", rtol=1e-5, atol=1e-5)
def sw_arr_vdot(size):
    return Built(lambda a, b: (jnp.vdot(a, b), jnp.dot(a[0], b[0])), (unif(152), unif(153)))


@case(SWEEP, "jnp.pad constant with a value", rtol=0, atol=0)
def sw_arr_pad_constant(size):
    return Built(lambda x: jnp.pad(x, ((1, 2), (0, 3)), constant_values=-7.0), (unif(154),))


@case(SWEEP, "jnp.pad mode='reflect' and 'symmetric'", rtol=0, atol=0)
def sw_arr_pad_reflect(size):
    return Built(lambda x: (jnp.pad(x, ((2, 1), (3, 2)), mode="reflect"),
                            jnp.pad(x, ((2, 1), (3, 2)), mode="symmetric")), (unif(155),))


@case(SWEEP, "jnp.pad mode='edge' and 'wrap'", rtol=0, atol=0)
def sw_arr_pad_edge_wrap(size):
    return Built(lambda x: (jnp.pad(x, ((1, 2), (2, 1)), mode="edge"),
                            jnp.pad(x, ((1, 2), (2, 1)), mode="wrap")), (unif(156),))


@case(SWEEP, "jnp.pad mode='linear_ramp' and 'maximum'", rtol=1e-5, atol=1e-5)
def sw_arr_pad_ramp_max(size):
    return Built(lambda x: (jnp.pad(x, ((1, 2), (2, 1)), mode="linear_ramp", end_values=5.0),
                            jnp.pad(x, 2, mode="maximum")), (unif(157),))


@case(SWEEP, "jnp.concatenate along axis 1", rtol=0, atol=0)
def sw_arr_concatenate(size):
    return Built(lambda a, b, c: jnp.concatenate([a, b, c], axis=1),
                 (unif(158, (4, 2)), unif(159, (4, 5)), unif(160, (4, 1))))


@case(SWEEP, "jnp.stack along a new middle axis, jnp.hstack, jnp.vstack", rtol=0, atol=0)
def sw_arr_stack(size):
    return Built(lambda a, b: (jnp.stack([a, b], axis=1), jnp.hstack([a, b]), jnp.vstack([a, b])),
                 (unif(161), unif(162)))


@case(SWEEP, "jnp.split and jnp.array_split", rtol=0, atol=0)
def sw_arr_split(size):
    return Built(lambda x: tuple(jnp.split(x, [1, 3], axis=0)) + tuple(jnp.array_split(x, 2, axis=1)),
                 (unif(163, (5, 6)),))


@case(SWEEP, "jnp.tile and jnp.repeat", rtol=0, atol=0)
def sw_arr_tile_repeat(size):
    return Built(lambda x: (jnp.tile(x, (2, 3)), jnp.repeat(x, 3, axis=0), jnp.repeat(x, jnp.array([1, 0, 2]), axis=1,
                                                                                       total_repeat_length=3)),
                 (unif(164, (2, 3)),))


@case(SWEEP, "jnp.transpose, jnp.moveaxis, jnp.swapaxes, reshape", rtol=0, atol=0)
def sw_arr_transpose(size):
    return Built(lambda x: (jnp.transpose(x, (2, 0, 1)), jnp.moveaxis(x, 0, -1), jnp.swapaxes(x, 0, 1),
                            x.reshape(5, 12)), (unif(165, (3, 4, 5)),))


@case(SWEEP, "jnp.searchsorted left and right", rtol=0, atol=0)
def sw_arr_searchsorted(size):
    a = np.sort(np.round(unif(166, (10,)))).astype(np.float32)
    return Built(lambda a, v: (jnp.searchsorted(a, v), jnp.searchsorted(a, v, side="right")),
                 (a, np.round(unif(167, (4, 5))).astype(np.float32)))


@case(SWEEP, "jnp.digitize", rtol=0, atol=0)
def sw_arr_digitize(size):
    return Built(jnp.digitize, (unif(168), np.array([-2.0, -0.5, 0.0, 1.0, 2.5], np.float32)))


@case(SWEEP, "jnp.diff (n=1 and n=2) and jnp.ediff1d", rtol=1e-5, atol=1e-5)
def sw_arr_diff(size):
    return Built(lambda x: (jnp.diff(x, axis=1), jnp.diff(x, n=2, axis=0), jnp.ediff1d(x)), (unif(169),))


@case(SWEEP, "jnp.interp", rtol=1e-5, atol=1e-5)
def sw_arr_interp(size):
    xp = np.sort(unif(170, (8,))).astype(np.float32)
    return Built(jnp.interp, (unif(171, (12,), -4.0, 4.0), xp, unif(172, (8,))))


@case(SWEEP, "jnp.polyval", rtol=1e-4, atol=1e-5)
def sw_arr_polyval(size):
    return Built(jnp.polyval, (unif(173, (5,)), unif(174)))


@case(SWEEP, "jnp.polymul", rtol=1e-5, atol=1e-5)
def sw_arr_polymul(size):
    return Built(jnp.polymul, (unif(175, (4,)), unif(176, (3,))))


@case(SWEEP, "jnp.convolve mode='full' (1-D convolution)", rtol=1e-5, atol=1e-5)
def sw_arr_convolve_full(size):
    return Built(jnp.convolve, (unif(177, (12,)), unif(178, (4,))))


@case(SWEEP, "jnp.convolve mode='same'", rtol=1e-5, atol=1e-5)
def sw_arr_convolve_same(size):
    return Built(lambda a, v: jnp.convolve(a, v, mode="same"), (unif(179, (12,)), unif(180, (5,))))


@case(SWEEP, "jnp.correlate mode='valid' and 'full'", rtol=1e-5, atol=1e-5)
def sw_arr_correlate(size):
    return Built(lambda a, v: (jnp.correlate(a, v), jnp.correlate(a, v, mode="full")),
                 (unif(181, (12,)), unif(182, (3,))))


@case(SWEEP, "jnp.partition", rtol=0, atol=0)
def sw_arr_partition(size):
    return Built(lambda x: jnp.partition(x, 2, axis=-1), (unif(183, (4, 7)),))


@case(SWEEP, "jnp.argpartition", rtol=0, atol=0)
def sw_arr_argpartition(size):
    return Built(lambda x: jnp.argpartition(x, 3, axis=-1), (unif(184, (4, 7)),))


@case(SWEEP, "jnp.median over an axis (odd and even lengths)", rtol=1e-5, atol=1e-5)
def sw_arr_median(size):
    return Built(lambda x: (jnp.median(x, axis=1), jnp.median(x, axis=0)), (unif(185, (4, 5)),))


@case(SWEEP, "jnp.percentile (linear) over an axis", rtol=1e-5, atol=1e-5)
def sw_arr_percentile(size):
    return Built(lambda x: jnp.percentile(x, jnp.array([10.0, 50.0, 90.0]), axis=1), (unif(186, (4, 9)),))


@case(SWEEP, "jnp.quantile with method='nearest' and 'midpoint'", rtol=1e-5, atol=1e-5)
def sw_arr_quantile(size):
    return Built(lambda x: (jnp.quantile(x, 0.3, method="nearest"), jnp.quantile(x, 0.75, axis=0, method="midpoint")),
                 (unif(187, (6, 5)),))


@case(SWEEP, "jnp.any, jnp.all and jnp.count_nonzero", rtol=0, atol=0)
def sw_arr_any_all(size):
    x = np.round(unif(188, lo=-0.7, hi=0.7)).astype(np.float32)
    return Built(lambda x: (jnp.any(x != 0, axis=1), jnp.all(x == 0, axis=0), jnp.count_nonzero(x, axis=1)), (x,))


@case(SWEEP, "jnp.nonzero with a static size and fill value", rtol=0, atol=0)
def sw_arr_nonzero(size):
    return Built(lambda x: jnp.nonzero(x > 1.0, size=8, fill_value=-1), (unif(189),))


@case(SWEEP, "jnp.bincount with a static length and weights", rtol=1e-5, atol=1e-5)
def sw_arr_bincount(size):
    return Built(lambda x, w: (jnp.bincount(x, length=6), jnp.bincount(x, weights=w, length=6)),
                 (ints(190, (20,), 0, 6), unif(191, (20,))))


@case(SWEEP, "jnp.average with weights", rtol=1e-5, atol=1e-5)
def sw_arr_average(size):
    return Built(lambda x, w: jnp.average(x, axis=1, weights=w), (unif(192), unif(193, (5,), 0.1, 1.0)))


@case(SWEEP, "jnp.ptp", rtol=0, atol=0)
def sw_arr_ptp(size):
    return Built(lambda x: jnp.ptp(x, axis=0), (unif(194),))


@case(SWEEP, "jnp.cov and jnp.corrcoef", rtol=1e-4, atol=1e-5)
def sw_arr_cov_corrcoef(size):
    return Built(lambda x: (jnp.cov(x), jnp.corrcoef(x)), (unif(195, (3, 8)),))


@case(SWEEP, "jnp.select over three conditions", rtol=0, atol=0)
def sw_arr_select(size):
    return Built(lambda x: jnp.select([x < -1, x < 1, x < 2], [x * 2, -x, x + 10], default=0.0), (unif(196),))


@case(SWEEP, "jnp.piecewise", rtol=1e-5, atol=1e-6)
def sw_arr_piecewise(size):
    return Built(lambda x: jnp.piecewise(x, [x < 0, x >= 1], [lambda t: t * t, lambda t: jnp.sqrt(t), 0.5]),
                 (unif(197),))


@case(SWEEP, "jnp.meshgrid and jnp.arange arithmetic", rtol=1e-6, atol=1e-6)
def sw_arr_meshgrid(size):
    def fn(x):
        i, j = jnp.meshgrid(jnp.arange(4), jnp.arange(5), indexing="ij")
        return x * (i - j) + jnp.linspace(0.0, 1.0, 5)
    return Built(fn, (unif(198),))


@case(SWEEP, "jnp.cumsum in reverse via flip, and jnp.cumulative_sum with include_initial", rtol=1e-5, atol=1e-5)
def sw_arr_cumulative_sum(size):
    return Built(lambda x: (jnp.flip(jnp.cumsum(jnp.flip(x, 1), axis=1), 1),
                            jnp.cumulative_sum(x, axis=0, include_initial=True)), (unif(199),))


@case(SWEEP, "jnp.unravel_index and jnp.ravel_multi_index", rtol=0, atol=0)
def sw_arr_unravel_index(size):
    return Built(lambda i: jnp.unravel_index(i, (3, 4, 5)) + (jnp.ravel_multi_index((i % 3, i % 4), (3, 4), mode="clip"),),
                 (ints(200, (7,), 0, 60),))


@case(SWEEP, "jnp.isin against a small set", rtol=0, atol=0)
def sw_arr_isin(size):
    return Built(lambda x, s: jnp.isin(x, s), (ints(201, (4, 5), 0, 10), np.array([1, 3, 5, 8], np.int32)))


# ==================================================================================
# linalg: jnp.linalg and jax.scipy.linalg
# ==================================================================================

@case(SWEEP, "jnp.linalg.inv", **LA)
def sw_linalg_inv(size):
    return Built(jnp.linalg.inv, (wellcond(301),))


@case(SWEEP, "jnp.linalg.inv of a batch", **LA)
def sw_linalg_inv_batched(size):
    return Built(jnp.linalg.inv, (wellcond(302, 3, (2,)),))


@case(SWEEP, "jnp.linalg.det", **LA)
def sw_linalg_det(size):
    return Built(jnp.linalg.det, (wellcond(303),))


@case(SWEEP, "jnp.linalg.slogdet of a matrix with a negative determinant", **LA)
def sw_linalg_slogdet(size):
    a = wellcond(304)
    a[[0, 1]] = a[[1, 0]]
    return Built(lambda a: tuple(jnp.linalg.slogdet(a)), (a,))


@case(SWEEP, "jnp.linalg.solve with a matrix right-hand side", **LA)
def sw_linalg_solve(size):
    return Built(jnp.linalg.solve, (wellcond(305), unif(306, (4, 3))))


@case(SWEEP, "jnp.linalg.solve batched with vector right-hand sides", **LA)
def sw_linalg_solve_batched(size):
    return Built(lambda a, b: jnp.linalg.solve(a, b[..., None])[..., 0], (wellcond(307, 4, (3,)), unif(308, (3, 4))))


@case(SWEEP, "jnp.linalg.cholesky of an SPD matrix", **LA)
def sw_linalg_cholesky(size):
    return Built(jnp.linalg.cholesky, (spd(309),))


@case(SWEEP, "jnp.linalg.qr: reconstruction q @ r - a, q^T q - I and |diag r|", **LA)
def sw_linalg_qr_invariants(size):
    def fn(a):
        q, r = jnp.linalg.qr(a)
        return q @ r - a, q.T @ q - jnp.eye(q.shape[1]), jnp.abs(jnp.diagonal(r))
    return Built(fn, (unif(310, (5, 4)),))


@case(SWEEP, "jnp.linalg.qr raw factors (Householder, as LAPACK geqrf/orgqr)", **LA)
def sw_linalg_qr_raw(size):
    return Built(lambda a: tuple(jnp.linalg.qr(a)), (unif(311, (4, 4)),))


@case(SWEEP, "jnp.linalg.svd singular values only", **LA)
def sw_linalg_svdvals(size):
    return Built(lambda a: jnp.linalg.svd(a, compute_uv=False), (unif(312, (5, 4)),))


@case(SWEEP, "jnp.linalg.svd: reconstruction a - u s vt and singular values", **LA)
def sw_linalg_svd_reconstruct(size):
    def fn(a):
        u, s, vt = jnp.linalg.svd(a, full_matrices=False)
        return a - (u * s) @ vt, s
    return Built(fn, (unif(313, (4, 6)),))


@case(SWEEP, "jnp.linalg.svd raw factors", **LA)
def sw_linalg_svd_raw(size):
    return Built(lambda a: tuple(jnp.linalg.svd(a)), (unif(314, (4, 4)),))


@case(SWEEP, "jnp.linalg.eigvalsh", **LA)
def sw_linalg_eigvalsh(size):
    return Built(jnp.linalg.eigvalsh, (spd(315, 5),))


@case(SWEEP, "jnp.linalg.eigh: reconstruction v diag(w) v^T - a and w", **LA)
def sw_linalg_eigh_reconstruct(size):
    def fn(a):
        w, v = jnp.linalg.eigh(a)
        return (v * w) @ v.T - a, w
    return Built(fn, (spd(316),))


@case(SWEEP, "jnp.linalg.eigh raw eigenvectors", **LA)
def sw_linalg_eigh_raw(size):
    return Built(lambda a: tuple(jnp.linalg.eigh(a)), (spd(317),))


@case(SWEEP, "jnp.linalg.eig of a non-symmetric matrix: sorted |eigenvalues| and their sum", **LA)
def sw_linalg_eig(size):
    def fn(a):
        w, _ = jnp.linalg.eig(a)
        return jnp.sort(jnp.abs(w)), jnp.real(jnp.sum(w)), jnp.sort(jnp.real(w))
    return Built(fn, (wellcond(318),))


@case(SWEEP, "jnp.linalg.eigvals of a matrix with complex eigenvalues (complex output, sorted)", **LA)
def sw_linalg_eigvals(size):
    return Built(lambda a: jnp.sort(jnp.linalg.eigvals(a)), (unif(319, (4, 4)),))


@case(SWEEP, "jnp.linalg.pinv of a tall matrix", **LA)
def sw_linalg_pinv(size):
    return Built(jnp.linalg.pinv, (unif(320, (6, 4)),))


@case(SWEEP, "jnp.linalg.lstsq of an overdetermined full-rank system (solution only)", **LA)
def sw_linalg_lstsq(size):
    return Built(lambda a, b: jnp.linalg.lstsq(a, b)[0], (unif(321, (8, 3)), unif(322, (8, 2))))


@case(SWEEP, "jnp.linalg.matrix_rank of a rank-2 matrix", rtol=0, atol=0)
def sw_linalg_matrix_rank(size):
    return Built(jnp.linalg.matrix_rank, ((unif(323, (5, 2)) @ unif(324, (2, 4))).astype(np.float32),))


@case(SWEEP, "jnp.linalg.norm with ord 2, 'fro', 'nuc', 1, -inf", **LA)
def sw_linalg_norm_matrix(size):
    return Built(lambda a: (jnp.linalg.norm(a, 2), jnp.linalg.norm(a, "fro"), jnp.linalg.norm(a, "nuc"),
                            jnp.linalg.norm(a, 1), jnp.linalg.norm(a, -jnp.inf)), (unif(325, (4, 5)),))


@case(SWEEP, "jnp.linalg.norm of vectors: ord 1, 3, inf along an axis", rtol=1e-4, atol=1e-5)
def sw_linalg_norm_vector(size):
    return Built(lambda a: (jnp.linalg.norm(a, 1, axis=1), jnp.linalg.norm(a, 3, axis=0),
                            jnp.linalg.norm(a, jnp.inf, axis=1)), (unif(326),))


@case(SWEEP, "jnp.linalg.matrix_power with exponents 3 and -2", **LA)
def sw_linalg_matrix_power(size):
    return Built(lambda a: (jnp.linalg.matrix_power(a, 3), jnp.linalg.matrix_power(a, -2)),
                 ((wellcond(327) / 4.0).astype(np.float32),))


@case(SWEEP, "jnp.linalg.cond", **LA)
def sw_linalg_cond(size):
    return Built(jnp.linalg.cond, (wellcond(328),))


@case(SWEEP, "jnp.linalg.tensorsolve", **LA)
def sw_linalg_tensorsolve(size):
    a = wellcond(329, 6).reshape(2, 3, 6)
    return Built(jnp.linalg.tensorsolve, (a, unif(330, (2, 3))))


@case(SWEEP, "jnp.linalg.multi_dot", rtol=1e-4, atol=1e-5)
def sw_linalg_multi_dot(size):
    return Built(lambda a, b, c: jnp.linalg.multi_dot([a, b, c]),
                 (unif(331, (3, 6)), unif(332, (6, 2)), unif(333, (2, 5))))


@case(SWEEP, "jax.scipy.linalg.lu: p, l, u (partial pivoting)", **LA)
def sw_linalg_lu(size):
    return Built(lambda a: tuple(jax.scipy.linalg.lu(a)), (unif(334, (4, 4)),))


@case(SWEEP, "jax.scipy.linalg.lu_factor: packed lu and pivots", **LA)
def sw_linalg_lu_factor(size):
    return Built(lambda a: tuple(jax.scipy.linalg.lu_factor(a)), (unif(335, (4, 4)),))


@case(SWEEP, "jax.scipy.linalg.lu_solve after lu_factor", **LA)
def sw_linalg_lu_solve(size):
    return Built(lambda a, b: jax.scipy.linalg.lu_solve(jax.scipy.linalg.lu_factor(a), b),
                 (wellcond(336), unif(337, (4, 2))))


@case(SWEEP, "jax.scipy.linalg.solve_triangular, lower and upper-transposed", **LA)
def sw_linalg_solve_triangular(size):
    def fn(a, b):
        lo = jnp.tril(a)
        return jax.scipy.linalg.solve_triangular(lo, b, lower=True), jax.scipy.linalg.solve_triangular(jnp.triu(a), b, trans=1)
    return Built(fn, (wellcond(338), unif(339, (4, 3))))


@case(SWEEP, "jax.scipy.linalg.cho_factor + cho_solve", **LA)
def sw_linalg_cho_solve(size):
    return Built(lambda a, b: jax.scipy.linalg.cho_solve(jax.scipy.linalg.cho_factor(a, lower=True), b),
                 (spd(340), unif(341, (4, 2))))


@case(SWEEP, "jax.scipy.linalg.expm (Pade)", **LA)
def sw_linalg_expm(size):
    return Built(jax.scipy.linalg.expm, (unif(342, (4, 4), -1.0, 1.0),))


@case(SWEEP, "jax.scipy.linalg.schur of a symmetric matrix: z t z^T - a and sorted diag(t)", **LA)
def sw_linalg_schur(size):
    def fn(a):
        t, z = jax.scipy.linalg.schur(a)
        return z @ t @ z.T - a, jnp.sort(jnp.diagonal(t))
    return Built(fn, (spd(343),))


@case(SWEEP, "jax.scipy.linalg.hessenberg: q h q^T - a and the zeros below the subdiagonal", **LA)
def sw_linalg_hessenberg(size):
    def fn(a):
        h, q = jax.scipy.linalg.hessenberg(a, calc_q=True)
        return q @ h @ q.T - a, jnp.tril(h, -2)
    return Built(fn, (unif(344, (5, 5)),))


@case(SWEEP, "jax.scipy.linalg.det and inv", **LA)
def sw_linalg_scipy_det_inv(size):
    return Built(lambda a: (jax.scipy.linalg.det(a), jax.scipy.linalg.inv(a)), (wellcond(345),))


@case(SWEEP, "log-determinant of an SPD matrix via cholesky", **LA)
def sw_linalg_cholesky_logdet(size):
    return Built(lambda a: 2.0 * jnp.sum(jnp.log(jnp.diagonal(jnp.linalg.cholesky(a)))), (spd(346, 5),))


@case(SWEEP, "jax.scipy.linalg.sqrtm of an SPD matrix (real part)", **LA)
def sw_linalg_sqrtm(size):
    return Built(lambda a: jnp.real(jax.scipy.linalg.sqrtm(a)), (spd(347),))


@case(SWEEP, "jax.scipy.linalg.eigh_tridiagonal eigenvalues", **LA)
def sw_linalg_eigh_tridiagonal(size):
    return Built(lambda d, e: jax.scipy.linalg.eigh_tridiagonal(d, e, eigvals_only=True),
                 (unif(348, (6,), 1.0, 4.0), unif(349, (5,), -1.0, 1.0)))


# ==================================================================================
# fft: jnp.fft
# ==================================================================================

@case(SWEEP, "jnp.fft.fft of a real signal: |X|", rtol=1e-4, atol=1e-4)
def sw_fft_fft_abs(size):
    return Built(lambda x: jnp.abs(jnp.fft.fft(x)), (unif(401, (4, 16)),))


@case(SWEEP, "jnp.fft.fft returning complex", rtol=1e-4, atol=1e-4)
def sw_fft_fft_complex(size):
    return Built(jnp.fft.fft, (unif(402, (3, 8)),))


@case(SWEEP, "jnp.fft.ifft of a complex built from two reals: real and imag", rtol=1e-4, atol=1e-4)
def sw_fft_ifft(size):
    def fn(re, im):
        y = jnp.fft.ifft(lax.complex(re, im))
        return jnp.real(y), jnp.imag(y)
    return Built(fn, (unif(403, (4, 8)), unif(404, (4, 8))))


@case(SWEEP, "jnp.fft.rfft: |X| and real part", rtol=1e-4, atol=1e-4)
def sw_fft_rfft(size):
    return Built(lambda x: (jnp.abs(jnp.fft.rfft(x)), jnp.real(jnp.fft.rfft(x))), (unif(405, (4, 16)),))


@case(SWEEP, "jnp.fft.rfft of length 7 (not a power of two), complex output", rtol=1e-4, atol=1e-4)
def sw_fft_rfft_odd(size):
    return Built(jnp.fft.rfft, (unif(406, (3, 7)),))


@case(SWEEP, "jnp.fft.irfft of a half spectrum built from two reals", rtol=1e-4, atol=1e-4)
def sw_fft_irfft(size):
    return Built(lambda re, im: jnp.fft.irfft(lax.complex(re, im), n=10), (unif(407, (3, 6)), unif(408, (3, 6))))


@case(SWEEP, "rfft then irfft round trip", rtol=1e-4, atol=1e-4)
def sw_fft_rfft_irfft_roundtrip(size):
    return Built(lambda x: jnp.fft.irfft(jnp.fft.rfft(x) * 2.0, n=12), (unif(409, (4, 12)),))


@case(SWEEP, "jnp.fft.fft2: real and imag", rtol=1e-4, atol=1e-4)
def sw_fft_fft2(size):
    def fn(x):
        y = jnp.fft.fft2(x)
        return jnp.real(y), jnp.imag(y)
    return Built(fn, (unif(410, (2, 4, 8)),))


@case(SWEEP, "jnp.fft.ifft2 of fft2 times a real filter", rtol=1e-4, atol=1e-4)
def sw_fft_ifft2(size):
    return Built(lambda x, h: jnp.real(jnp.fft.ifft2(jnp.fft.fft2(x) * h)), (unif(411, (4, 8)), unif(412, (4, 8))))


@case(SWEEP, "jnp.fft.rfftn over 3 axes: real and imag", rtol=1e-4, atol=1e-4)
def sw_fft_rfftn(size):
    def fn(x):
        y = jnp.fft.rfftn(x)
        return jnp.real(y), jnp.imag(y)
    return Built(fn, (unif(413, (4, 4, 6)),))


@case(SWEEP, "jnp.fft.irfftn over 2 axes", rtol=1e-4, atol=1e-4)
def sw_fft_irfftn(size):
    return Built(lambda re, im: jnp.fft.irfftn(lax.complex(re, im), s=(4, 6)), (unif(414, (4, 4)), unif(415, (4, 4))))


@case(SWEEP, "jnp.fft.fftn over axes (0, 2): |X|", rtol=1e-4, atol=1e-4)
def sw_fft_fftn_axes(size):
    return Built(lambda x: jnp.abs(jnp.fft.fftn(x, axes=(0, 2))), (unif(416, (4, 3, 8)),))


@case(SWEEP, "jnp.fft.fft along axis 0 with zero padding to n=8", rtol=1e-4, atol=1e-4)
def sw_fft_fft_pad_axis0(size):
    return Built(lambda x: jnp.abs(jnp.fft.fft(x, n=8, axis=0)), (unif(417, (5, 3)),))


@case(SWEEP, "jnp.fft.hfft and jnp.fft.ihfft", rtol=1e-4, atol=1e-4)
def sw_fft_hfft(size):
    return Built(lambda re, im, x: (jnp.fft.hfft(lax.complex(re, im)), jnp.abs(jnp.fft.ihfft(x))),
                 (unif(418, (5,)), unif(419, (5,)), unif(420, (8,))))


@case(SWEEP, "jnp.fft.fftshift of |fft| and jnp.fft.fftfreq", rtol=1e-4, atol=1e-4)
def sw_fft_fftshift(size):
    return Built(lambda x: (jnp.fft.fftshift(jnp.abs(jnp.fft.fft(x)), axes=-1), jnp.fft.fftfreq(x.shape[-1], 0.1)),
                 (unif(421, (3, 10)),))


@case(SWEEP, "jnp.fft.ifftn of a complex 3-D array (complex output)", rtol=1e-4, atol=1e-4)
def sw_fft_ifftn_complex(size):
    return Built(lambda re, im: jnp.fft.ifftn(re + 1j * im), (unif(422, (2, 4, 4)), unif(423, (2, 4, 4))))


# ==================================================================================
# complex: programs with complex intermediates
# ==================================================================================

@case(SWEEP, "|lax.complex(x, y)|", rtol=1e-5, atol=1e-6)
def sw_complex_abs(size):
    return Built(lambda x, y: jnp.abs(lax.complex(x, y)), (unif(501), unif(502)))


@case(SWEEP, "jnp.angle of x + 1j*y", rtol=1e-5, atol=1e-6)
def sw_complex_angle(size):
    return Built(lambda x, y: jnp.angle(x + 1j * y), (unif(503), unif(504)))


@case(SWEEP, "z * conj(z) real part, jnp.real / jnp.imag of a product", rtol=1e-5, atol=1e-5)
def sw_complex_conj_product(size):
    def fn(a, b, c, d):
        z, w = lax.complex(a, b), lax.complex(c, d)
        return jnp.real(z * jnp.conj(z)), jnp.real(z * w), jnp.imag(z * w)
    return Built(fn, (unif(505), unif(506), unif(507), unif(508)))


@case(SWEEP, "complex exp: real and imag", rtol=1e-4, atol=1e-5)
def sw_complex_exp(size):
    def fn(x, y):
        z = jnp.exp(lax.complex(x, y))
        return jnp.real(z), jnp.imag(z)
    return Built(fn, (unif(509, lo=-2.0, hi=2.0), unif(510, lo=-6.0, hi=6.0)))


@case(SWEEP, "complex log (complex output)", rtol=1e-4, atol=1e-5)
def sw_complex_log(size):
    return Built(lambda x, y: jnp.log(lax.complex(x, y)), (unif(511), unif(512)))


@case(SWEEP, "complex sqrt, including the negative real axis (complex output)", rtol=1e-4, atol=1e-5)
def sw_complex_sqrt(size):
    y = unif(514)
    y[0, :] = 0.0
    return Built(lambda x, y: jnp.sqrt(lax.complex(x, y)), (unif(513), y))


@case(SWEEP, "complex matmul (complex output)", rtol=1e-4, atol=1e-5)
def sw_complex_matmul(size):
    def fn(a, b, c, d):
        return lax.complex(a, b) @ lax.complex(c, d)
    return Built(fn, (unif(515, (3, 4)), unif(516, (3, 4)), unif(517, (4, 2)), unif(518, (4, 2))))


@case(SWEEP, "complex division and reciprocal (complex outputs)", rtol=1e-4, atol=1e-5)
def sw_complex_divide(size):
    def fn(a, b, c, d):
        z, w = lax.complex(a, b), lax.complex(c, d)
        return z / w, 1.0 / w
    return Built(fn, (unif(519), unif(520), unif(521), unif(522)))


@case(SWEEP, "complex tanh, sin and cos: |.|", rtol=1e-4, atol=1e-5)
def sw_complex_trig(size):
    def fn(x, y):
        z = lax.complex(x, y)
        return jnp.abs(jnp.tanh(z)), jnp.real(jnp.sin(z)), jnp.imag(jnp.cos(z))
    return Built(fn, (unif(523, lo=-2.0, hi=2.0), unif(524, lo=-2.0, hi=2.0)))


@case(SWEEP, "complex integer power z**3 and z**-1", rtol=1e-4, atol=1e-5)
def sw_complex_integer_pow(size):
    def fn(x, y):
        z = lax.complex(x, y)
        return z ** 3, z ** -1
    return Built(fn, (unif(525, lo=0.5, hi=2.0), unif(526, lo=-2.0, hi=2.0)))


@case(SWEEP, "complex sum and mean over an axis (complex outputs)", rtol=1e-5, atol=1e-5)
def sw_complex_reduce(size):
    def fn(x, y):
        z = lax.complex(x, y)
        return jnp.sum(z, axis=1), jnp.mean(z * z, axis=0)
    return Built(fn, (unif(527), unif(528)))


@case(SWEEP, "polar round trip: |z| exp(i angle z) - z", rtol=1e-4, atol=1e-5)
def sw_complex_polar(size):
    def fn(x, y):
        z = lax.complex(x, y)
        back = jnp.abs(z) * jnp.exp(1j * jnp.angle(z))
        return jnp.real(back), jnp.imag(back)
    return Built(fn, (unif(529), unif(530)))


@case(SWEEP, "jnp.sign of complex (complex output)", rtol=1e-5, atol=1e-6)
def sw_complex_sign(size):
    return Built(lambda x, y: jnp.sign(lax.complex(x, y)), (unif(531), unif(532)))


@case(SWEEP, "complex einsum with conj, real output", rtol=1e-4, atol=1e-5)
def sw_complex_einsum(size):
    def fn(a, b):
        z = lax.complex(a, b)
        return jnp.real(jnp.einsum("ij,kj->ik", z, jnp.conj(z)))
    return Built(fn, (unif(533, (3, 5)), unif(534, (3, 5))))


@case(SWEEP, "complex equality, isfinite and conversion from f32 (complex output)", rtol=0, atol=0)
def sw_complex_compare(size):
    def fn(x, y):
        z = lax.complex(x, y)
        return z == jnp.conj(z), jnp.isfinite(z / x), x.astype(jnp.complex64)
    y = unif(536)
    y[1, :] = 0.0
    x = unif(535)
    x[0, 0] = 0.0
    return Built(fn, (x, y))


@case(SWEEP, "complex expm1 / log1p and arctan of complex", rtol=1e-4, atol=1e-5)
def sw_complex_expm1_log1p(size):
    def fn(x, y):
        z = lax.complex(x, y)
        return jnp.expm1(z), jnp.log1p(z), jnp.arctan(z)
    return Built(fn, (unif(537, lo=-0.5, hi=0.5), unif(538, lo=-0.5, hi=0.5)))


# ==================================================================================
# special: jax.scipy.special
# ==================================================================================

@case(SWEEP, "jax.scipy.special.erf", rtol=1e-4, atol=1e-5)
def sw_special_erf(size):
    return Built(jax.scipy.special.erf, (unif(601),))


@case(SWEEP, "jax.scipy.special.erfc (including the tail)", rtol=1e-4, atol=1e-6)
def sw_special_erfc(size):
    return Built(jax.scipy.special.erfc, (unif(602, lo=-3.0, hi=8.0),))


@case(SWEEP, "jax.scipy.special.erfinv", rtol=1e-4, atol=1e-5)
def sw_special_erfinv(size):
    return Built(jax.scipy.special.erfinv, (unif(603, lo=-0.999, hi=0.999),))


@case(SWEEP, "jax.scipy.special.gammaln", rtol=1e-4, atol=1e-5)
def sw_special_gammaln(size):
    return Built(jax.scipy.special.gammaln, (unif(604, lo=0.05, hi=30.0),))


@case(SWEEP, "jax.scipy.special.gamma", rtol=1e-4, atol=1e-5)
def sw_special_gamma(size):
    return Built(jax.scipy.special.gamma, (unif(605, lo=0.1, hi=8.0),))


@case(SWEEP, "jax.scipy.special.digamma", rtol=1e-4, atol=1e-5)
def sw_special_digamma(size):
    return Built(jax.scipy.special.digamma, (unif(606, lo=0.05, hi=20.0),))


@case(SWEEP, "jax.scipy.special.polygamma orders 1 and 2", rtol=1e-4, atol=1e-5)
def sw_special_polygamma(size):
    return Built(lambda x: (jax.scipy.special.polygamma(1, x), jax.scipy.special.polygamma(2, x)),
                 (unif(607, lo=0.5, hi=10.0),))


@case(SWEEP, "jax.scipy.special.zeta (Hurwitz)", rtol=1e-4, atol=1e-5)
def sw_special_zeta(size):
    return Built(jax.scipy.special.zeta, (unif(608, lo=1.5, hi=6.0), unif(609, lo=0.5, hi=3.0)))


@case(SWEEP, "jax.scipy.special.logsumexp over an axis, with b and return_sign", rtol=1e-4, atol=1e-5)
def sw_special_logsumexp(size):
    lse = jax.scipy.special.logsumexp
    return Built(lambda x, b: (lse(x, axis=1),) + tuple(lse(x, axis=0, b=b, return_sign=True)),
                 (unif(610, lo=-50.0, hi=50.0), unif(611, lo=-1.0, hi=1.0)))


@case(SWEEP, "jax.scipy.special.xlogy and xlog1py with zeros", rtol=1e-4, atol=1e-5)
def sw_special_xlogy(size):
    x = unif(612, lo=0.0, hi=3.0)
    x[0, :] = 0.0
    return Built(lambda x, y: (jax.scipy.special.xlogy(x, y), jax.scipy.special.xlog1py(x, y - 0.5)),
                 (x, unif(613, lo=0.0, hi=3.0)))


@case(SWEEP, "jax.scipy.special.expit and logit", rtol=1e-4, atol=1e-5)
def sw_special_expit_logit(size):
    return Built(lambda x, p: (jax.scipy.special.expit(x), jax.scipy.special.logit(p)),
                 (unif(614, lo=-20.0, hi=20.0), unif(615, lo=0.01, hi=0.99)))


@case(SWEEP, "jax.scipy.special.ndtr and log_ndtr", rtol=1e-4, atol=1e-5)
def sw_special_ndtr(size):
    return Built(lambda x: (jax.scipy.special.ndtr(x), jax.scipy.special.log_ndtr(x)), (unif(616, lo=-10.0, hi=5.0),))


@case(SWEEP, "jax.scipy.special.ndtri", rtol=1e-4, atol=1e-5)
def sw_special_ndtri(size):
    return Built(jax.scipy.special.ndtri, (unif(617, lo=0.001, hi=0.999),))


@case(SWEEP, "jax.scipy.special.i0e and i1e", rtol=1e-4, atol=1e-5)
def sw_special_i0e_i1e(size):
    return Built(lambda x: (jax.scipy.special.i0e(x), jax.scipy.special.i1e(x)), (unif(618, lo=-30.0, hi=30.0),))


@case(SWEEP, "jax.scipy.special.i0 and i1", rtol=1e-4, atol=1e-5)
def sw_special_i0_i1(size):
    return Built(lambda x: (jax.scipy.special.i0(x), jax.scipy.special.i1(x)), (unif(619, lo=-6.0, hi=6.0),))


@case(SWEEP, "jax.scipy.special.betaln", rtol=1e-4, atol=1e-5)
def sw_special_betaln(size):
    return Built(jax.scipy.special.betaln, (unif(620, lo=0.1, hi=10.0), unif(621, lo=0.1, hi=10.0)))


@case(SWEEP, "jax.scipy.special.betainc", rtol=1e-4, atol=1e-5)
def sw_special_betainc(size):
    return Built(jax.scipy.special.betainc,
                 (unif(622, lo=0.5, hi=5.0), unif(623, lo=0.5, hi=5.0), unif(624, lo=0.01, hi=0.99)))


@case(SWEEP, "jax.scipy.special.gammainc and gammaincc", rtol=1e-4, atol=1e-5)
def sw_special_gammainc(size):
    return Built(lambda a, x: (jax.scipy.special.gammainc(a, x), jax.scipy.special.gammaincc(a, x)),
                 (unif(625, lo=0.5, hi=6.0), unif(626, lo=0.1, hi=8.0)))


@case(SWEEP, "jax.scipy.special.entr, rel_entr and kl_div", rtol=1e-4, atol=1e-5)
def sw_special_entr(size):
    x = unif(627, lo=0.0, hi=2.0)
    x[0, 0] = 0.0
    return Built(lambda x, y: (jax.scipy.special.entr(x), jax.scipy.special.rel_entr(x, y), jax.scipy.special.kl_div(x, y)),
                 (x, unif(628, lo=0.1, hi=2.0)))


@case(SWEEP, "jax.scipy.special.softmax over axis 0", rtol=1e-4, atol=1e-6)
def sw_special_softmax(size):
    return Built(lambda x: jax.scipy.special.softmax(x, axis=0), (unif(629, lo=-10.0, hi=10.0),))


@case(SWEEP, "jax.scipy.special.log_softmax", rtol=1e-4, atol=1e-5)
def sw_special_log_softmax(size):
    return Built(lambda x: jax.scipy.special.log_softmax(x, axis=-1), (unif(630, lo=-10.0, hi=10.0),))


@case(SWEEP, "jax.scipy.special.multigammaln", rtol=1e-4, atol=1e-5)
def sw_special_multigammaln(size):
    return Built(lambda a: jax.scipy.special.multigammaln(a, 3), (unif(631, lo=1.5, hi=10.0),))


@case(SWEEP, "jax.scipy.special.spence, expi and exp1", rtol=1e-4, atol=1e-5)
def sw_special_spence_expi(size):
    return Built(lambda x: (jax.scipy.special.spence(x), jax.scipy.special.expi(x), jax.scipy.special.exp1(x)),
                 (unif(632, lo=0.1, hi=5.0),))


@case(SWEEP, "jax.scipy.special.bessel_jn, orders 0..2", rtol=1e-4, atol=1e-5)
def sw_special_bessel_jn(size):
    return Built(lambda x: jax.scipy.special.bessel_jn(x, v=2), (unif(633, lo=0.1, hi=10.0),))


@case(SWEEP, "jax.scipy.special.factorial and poch", rtol=1e-4, atol=1e-5)
def sw_special_factorial_poch(size):
    return Built(lambda n, z, m: (jax.scipy.special.factorial(n), jax.scipy.special.poch(z, m)),
                 (unif(634, lo=0.0, hi=8.0), unif(635, lo=0.5, hi=4.0), unif(636, lo=0.0, hi=3.0)))


# ==================================================================================
# lax: primitives and control flow
# ==================================================================================

@case(SWEEP, "lax.top_k (k=3) of rows", rtol=0, atol=0)
def sw_lax_top_k(size):
    return Built(lambda x: tuple(lax.top_k(x, 3)), (unif(701, (4, 8)),))


@case(SWEEP, "lax.sort of two operands, one key (values follow keys)", rtol=0, atol=0)
def sw_lax_sort_multi(size):
    return Built(lambda k, v: tuple(lax.sort((k, v), dimension=1, num_keys=1)), (unif(702, (3, 8)), ints(703, (3, 8))))


@case(SWEEP, "lax.sort of three operands with two keys (ties in the first)", rtol=0, atol=0)
def sw_lax_sort_two_keys(size):
    return Built(lambda a, b, v: tuple(lax.sort((a, b, v), num_keys=2)),
                 (ints(704, (12,), 0, 3), ints(705, (12,), 0, 4), unif(706, (12,))))


@case(SWEEP, "lax.cumlogsumexp", rtol=1e-4, atol=1e-5)
def sw_lax_cumlogsumexp(size):
    return Built(lambda x: lax.cumlogsumexp(x, axis=1), (unif(707, lo=-10.0, hi=10.0),))


@case(SWEEP, "lax.cummax and lax.cummin (reverse)", rtol=0, atol=0)
def sw_lax_cummax(size):
    return Built(lambda x: (lax.cummax(x, axis=1), lax.cummin(x, axis=0, reverse=True)), (unif(708),))


@case(SWEEP, "lax.cumsum and lax.cumprod with reverse=True", rtol=1e-5, atol=1e-5)
def sw_lax_cumsum_reverse(size):
    return Built(lambda x: (lax.cumsum(x, axis=0, reverse=True), lax.cumprod(x, axis=1, reverse=True)),
                 (unif(709, lo=0.5, hi=1.5),))


@case(SWEEP, "lax.reduce_window max 3x3 stride 2, SAME padding", rtol=0, atol=0)
def sw_lax_reduce_window_max(size):
    return Built(lambda x: lax.reduce_window(x, -jnp.inf, lax.max, (3, 3), (2, 2), "SAME"), (unif(710, (7, 8)),))


@case(SWEEP, "lax.reduce_window add with explicit padding, base and window dilation", rtol=1e-5, atol=1e-5)
def sw_lax_reduce_window_sum_dilated(size):
    return Built(lambda x: lax.reduce_window(x, 0.0, lax.add, (2, 3), (1, 2), ((1, 0), (2, 1)),
                                             base_dilation=(1, 1), window_dilation=(2, 1)), (unif(711, (6, 7)),))


@case(SWEEP, "lax.conv_general_dilated 1-D, NWC/WIO/NWC, stride 1, SAME", rtol=1e-4, atol=1e-5)
def sw_lax_conv1d_nwc(size):
    return Built(lambda x, w: lax.conv_general_dilated(x, w, (1,), "SAME", dimension_numbers=("NWC", "WIO", "NWC")),
                 (unif(712, (2, 10, 3)), unif(713, (3, 3, 4))))


@case(SWEEP, "lax.conv_general_dilated 1-D, default NCW/OIW, stride 2, VALID, rhs dilation 2", rtol=1e-4, atol=1e-5)
def sw_lax_conv1d_ncw(size):
    return Built(lambda x, w: lax.conv_general_dilated(x, w, (2,), "VALID", rhs_dilation=(2,)),
                 (unif(714, (2, 3, 12)), unif(715, (4, 3, 3))))


@case(SWEEP, "lax.conv_general_dilated 2-D, NCHW/OIHW, padding ((1,0),(0,1))", rtol=1e-4, atol=1e-5)
def sw_lax_conv2d_nchw(size):
    return Built(lambda x, w: lax.conv_general_dilated(x, w, (1, 1), ((1, 0), (0, 1))),
                 (unif(716, (2, 3, 6, 5)), unif(717, (4, 3, 3, 2))))


@case(SWEEP, "lax.conv_general_dilated 2-D, NHWC/HWIO, stride 2, SAME", rtol=1e-4, atol=1e-5)
def sw_lax_conv2d_nhwc(size):
    return Built(lambda x, w: lax.conv_general_dilated(x, w, (2, 2), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")),
                 (unif(718, (2, 7, 6, 3)), unif(719, (3, 3, 3, 5))))


@case(SWEEP, "lax.conv_general_dilated 2-D with odd labels CHWN/OHWI/NCHW", rtol=1e-4, atol=1e-5)
def sw_lax_conv2d_odd_labels(size):
    return Built(lambda x, w: lax.conv_general_dilated(x, w, (1, 1), "VALID", dimension_numbers=("CHWN", "OHWI", "NCHW")),
                 (unif(720, (3, 6, 5, 2)), unif(721, (4, 2, 2, 3))))


@case(SWEEP, "lax.conv_general_dilated 2-D with lhs dilation (a transposed conv) and rhs dilation", rtol=1e-4, atol=1e-5)
def sw_lax_conv2d_dilated(size):
    return Built(lambda x, w: lax.conv_general_dilated(x, w, (1, 1), ((2, 2), (1, 1)), lhs_dilation=(2, 2),
                                                       rhs_dilation=(1, 2)),
                 (unif(722, (1, 2, 4, 4)), unif(723, (3, 2, 3, 2))))


@case(SWEEP, "lax.conv_general_dilated 2-D depthwise (feature_group_count = channels)", rtol=1e-4, atol=1e-5)
def sw_lax_conv2d_depthwise(size):
    return Built(lambda x, w: lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"),
                                                       feature_group_count=4),
                 (unif(724, (1, 5, 5, 4)), unif(725, (3, 3, 1, 8))))


@case(SWEEP, "lax.conv_general_dilated 2-D with batch_group_count 2", rtol=1e-4, atol=1e-5)
def sw_lax_conv2d_batch_group(size):
    return Built(lambda x, w: lax.conv_general_dilated(x, w, (1, 1), "VALID", batch_group_count=2),
                 (unif(726, (4, 3, 5, 5)), unif(727, (4, 3, 2, 2))))


@case(SWEEP, "lax.conv_general_dilated 3-D, NDHWC/DHWIO", rtol=1e-4, atol=1e-5)
def sw_lax_conv3d(size):
    return Built(lambda x, w: lax.conv_general_dilated(x, w, (1, 1, 1), "SAME",
                                                       dimension_numbers=("NDHWC", "DHWIO", "NDHWC")),
                 (unif(728, (1, 4, 5, 4, 2)), unif(729, (2, 3, 2, 2, 3))))


@case(SWEEP, "lax.conv_transpose 2-D, stride 2", rtol=1e-4, atol=1e-5)
def sw_lax_conv_transpose(size):
    return Built(lambda x, w: lax.conv_transpose(x, w, (2, 2), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")),
                 (unif(730, (1, 4, 4, 3)), unif(731, (3, 3, 3, 2))))


@case(SWEEP, "lax.dynamic_slice with a runtime (clamped) start", rtol=0, atol=0)
def sw_lax_dynamic_slice(size):
    return Built(lambda x, i, j: lax.dynamic_slice(x, (i, j), (2, 3)),
                 (unif(732, (5, 6)), np.array(2, np.int32), np.array(5, np.int32)))


@case(SWEEP, "lax.dynamic_update_slice with a runtime start", rtol=0, atol=0)
def sw_lax_dynamic_update_slice(size):
    return Built(lambda x, u, i: lax.dynamic_update_slice(x, u, (i, 1)),
                 (unif(733, (5, 6)), unif(734, (2, 3)), np.array(3, np.int32)))


@case(SWEEP, "gather via x[idx] with negative indices and x[idx0, idx1]", rtol=0, atol=0)
def sw_lax_gather(size):
    return Built(lambda x, i, j: (x[i], x[i, j], x[:, j]),
                 (unif(735, (5, 6)), ints(736, (3,), -5, 5), ints(737, (3,), 0, 6)))


@case(SWEEP, "scatter-add via .at[idx].add with duplicate indices", rtol=1e-5, atol=1e-6)
def sw_lax_scatter_add(size):
    return Built(lambda x, i, u: x.at[i].add(u),
                 (unif(738, (6, 4)), np.array([0, 2, 2, 5, 0], np.int32), unif(739, (5, 4))))


@case(SWEEP, "scatter via .at[].set, .at[].max, .at[].mul, .at[].min", rtol=1e-5, atol=1e-6)
def sw_lax_scatter_ops(size):
    return Built(lambda x, i, u: (x.at[i, 1].set(u), x.at[i, 2].max(u), x.at[i, 0].mul(u), x.at[i].min(-1.0)),
                 (unif(740, (6, 4)), np.array([1, 3, 3, 4], np.int32), unif(741, (4,))))


@case(SWEEP, "lax.select_n with an s32 selector over three cases", rtol=0, atol=0)
def sw_lax_select_n(size):
    return Built(lambda s, a, b, c: lax.select_n(s, a, b, c), (ints(742, lo=0, hi=3), unif(743), unif(744), unif(745)))


@case(SWEEP, "lax.clamp with array bounds", rtol=0, atol=0)
def sw_lax_clamp(size):
    return Built(lambda lo, x: lax.clamp(lo, x, lo + 2.0), (unif(746, lo=-2.0, hi=0.0), unif(747)))


@case(SWEEP, "lax.population_count on s32 and u8", rtol=0, atol=0)
def sw_lax_population_count(size):
    return Built(lambda a, b: (lax.population_count(a), lax.population_count(b)),
                 (ints(748, lo=-(1 << 30), hi=1 << 30), ints(749, lo=0, hi=256, dtype=np.uint8)))


@case(SWEEP, "lax.clz on s32 (including 0) and u32", rtol=0, atol=0)
def sw_lax_clz(size):
    a = ints(750, lo=-1000, hi=1 << 20)
    a[0, 0] = 0
    return Built(lambda a, b: (lax.clz(a), lax.clz(b)), (a, ints(751, lo=0, hi=1 << 31, dtype=np.uint32)))


@case(SWEEP, "lax.shift_right_logical / shift_right_arithmetic / shift_left on s32, amounts 0..40", rtol=0, atol=0)
def sw_lax_shifts(size):
    return Built(lambda a, s: (lax.shift_right_logical(a, s), lax.shift_right_arithmetic(a, s), lax.shift_left(a, s)),
                 (ints(752, lo=-100000, hi=100000), ints(753, lo=0, hi=40)))


@case(SWEEP, "lax.rem on f32 and s32 (C semantics)", rtol=1e-5, atol=1e-6)
def sw_lax_rem(size):
    return Built(lambda x, y, a, b: (lax.rem(x, y), lax.rem(a, b)),
                 (unif(754, lo=-10.0, hi=10.0), unif(755, lo=0.5, hi=3.0), ints(756, lo=-50, hi=50), ints(757, lo=1, hi=7)))


@case(SWEEP, "lax.integer_pow exponents 5 and -3", rtol=1e-4, atol=1e-5)
def sw_lax_integer_pow(size):
    return Built(lambda x: (lax.integer_pow(x, 5), lax.integer_pow(x, -3)), (unif(758, lo=0.5, hi=2.0),))


@case(SWEEP, "lax.nextafter", rtol=0, atol=0)
def sw_lax_nextafter(size):
    return Built(lax.nextafter, (specials(), unif(759)))


@case(SWEEP, "lax.fori_loop accumulating a matrix power-like recurrence", rtol=1e-4, atol=1e-5)
def sw_lax_fori_loop(size):
    return Built(lambda x, a: lax.fori_loop(0, 7, lambda i, c: jnp.tanh(c @ a) + i * 0.1, x),
                 (unif(760, (3, 4)), unif(761, (4, 4), -0.5, 0.5)))


@case(SWEEP, "lax.while_loop with a data-dependent trip count", rtol=1e-5, atol=1e-6)
def sw_lax_while_loop(size):
    def fn(x):
        def cond(s):
            return s[0] < 100.0
        def body(s):
            return s[0] * 1.7 + 1.0, s[1] + 1
        return lax.while_loop(cond, body, (x, jnp.int32(0)))
    return Built(fn, (np.array(0.3, np.float32),))


@case(SWEEP, "lax.scan: a cumulative running mean with a carry and stacked outputs", rtol=1e-5, atol=1e-5)
def sw_lax_scan(size):
    def fn(xs):
        def step(c, x):
            s, n = c
            s = s + x
            return (s, n + 1.0), s / (n + 1.0)
        return lax.scan(step, (jnp.zeros(xs.shape[1:]), 0.0), xs)
    return Built(fn, (unif(762, (6, 3)),))


@case(SWEEP, "lax.scan in reverse with unroll=2", rtol=1e-5, atol=1e-5)
def sw_lax_scan_reverse(size):
    return Built(lambda xs: lax.scan(lambda c, x: (c * 0.9 + x, c), jnp.zeros(4), xs, reverse=True, unroll=2),
                 (unif(763, (5, 4)),))


@case(SWEEP, "lax.cond on a runtime predicate", rtol=1e-5, atol=1e-6)
def sw_lax_cond(size):
    return Built(lambda p, x: (lax.cond(p > 0, jnp.sin, jnp.cos, x), lax.cond(p < 0, jnp.sin, jnp.cos, x)),
                 (np.array(1, np.int32), unif(764)))


@case(SWEEP, "lax.switch over three branches with a clamped index", rtol=1e-5, atol=1e-6)
def sw_lax_switch(size):
    branches = [jnp.sin, jnp.exp, lambda x: x * x]
    return Built(lambda i, x: (lax.switch(i, branches, x), lax.switch(i + 5, branches, x)),
                 (np.array(1, np.int32), unif(765)))


@case(SWEEP, "lax.map over rows", rtol=1e-5, atol=1e-6)
def sw_lax_map(size):
    return Built(lambda x: lax.map(lambda r: jnp.sum(r * r) + jnp.max(r), x), (unif(766, (5, 4)),))


@case(SWEEP, "lax.associative_scan with a non-commutative combiner (affine maps)", rtol=1e-4, atol=1e-5)
def sw_lax_associative_scan(size):
    def fn(a, b):
        def comb(l, r):
            return l[0] * r[0], r[0] * l[1] + r[1]
        return lax.associative_scan(comb, (a, b))
    return Built(fn, (unif(767, (9,), 0.5, 1.2), unif(768, (9,))))


@case(SWEEP, "lax.reduce with two operands (max value and its index)", rtol=0, atol=0)
def sw_lax_reduce_variadic(size):
    def fn(x):
        idx = lax.broadcasted_iota(jnp.int32, x.shape, 1)
        def comb(a, b):
            av, ai = a
            bv, bi = b
            pick = (av > bv) | ((av == bv) & (ai < bi))
            return jnp.where(pick, av, bv), jnp.where(pick, ai, bi)
        return lax.reduce((x, idx), (-jnp.inf, jnp.int32(0)), comb, (1,))
    return Built(fn, (unif(769, (4, 6)),))


@case(SWEEP, "lax.argmax / lax.argmin with s32 indices", rtol=0, atol=0)
def sw_lax_argmax(size):
    return Built(lambda x: (lax.argmax(x, 0, jnp.int32), lax.argmin(x, 1, jnp.int32)), (unif(770),))


@case(SWEEP, "lax.reduce_precision to bf16 and f16 bit widths", rtol=0, atol=0)
def sw_lax_reduce_precision(size):
    return Built(lambda x: (lax.reduce_precision(x, 8, 7), lax.reduce_precision(x, 5, 10)),
                 (unif(771, lo=-1e5, hi=1e5),))


@case(SWEEP, "lax.bitcast_convert_type f32 <-> s32 and f32 -> u8[4]", rtol=0, atol=0)
def sw_lax_bitcast_convert(size):
    return Built(lambda x, i: (lax.bitcast_convert_type(x, jnp.int32), lax.bitcast_convert_type(i, jnp.float32),
                               lax.bitcast_convert_type(x, jnp.uint8)),
                 (unif(772), ints(773, lo=0x3f000000, hi=0x40000000)))


@case(SWEEP, "lax.pad with negative and interior padding", rtol=0, atol=0)
def sw_lax_pad_interior(size):
    return Built(lambda x: lax.pad(x, -1.0, ((1, -1, 1), (-2, 2, 2))), (unif(774),))


@case(SWEEP, "lax.dot_general with batch dims and preferred_element_type f32 from bf16", rtol=1e-2, atol=1e-2)
def sw_lax_dot_general(size):
    return Built(lambda a, b: lax.dot_general(a, b, (((2,), (1,)), ((0,), (0,))), preferred_element_type=jnp.float32),
                 (unif(775, (2, 3, 4), dtype=jnp.bfloat16), unif(776, (2, 4, 5), dtype=jnp.bfloat16)))


@case(SWEEP, "lax.rev, lax.broadcast_in_dim, lax.slice with strides", rtol=0, atol=0)
def sw_lax_rev_broadcast_slice(size):
    return Built(lambda x: (lax.rev(x, (0, 1)), lax.broadcast_in_dim(x[0], (3, 5, 2), (1,)),
                            lax.slice(x, (0, 1), (4, 5), (2, 2))), (unif(777),))


@case(SWEEP, "lax.approx_max_k (exact on CPU)", rtol=0, atol=0)
def sw_lax_approx_max_k(size):
    return Built(lambda x: tuple(lax.approx_max_k(x, 2)), (unif(778, (3, 10)),))


@case(SWEEP, "lax.sort of f32 with NaN and -0.0 (total order)", rtol=0, atol=0)
def sw_lax_sort_nan(size):
    return Built(lambda x: lax.sort(x.reshape(-1)), (specials(),))


# ==================================================================================
# nn: jax.nn
# ==================================================================================

@case(SWEEP, "jax.nn.relu and relu6", rtol=0, atol=0)
def sw_nn_relu(size):
    return Built(lambda x: (jax.nn.relu(x), jax.nn.relu6(x * 3.0)), (unif(801),))


@case(SWEEP, "jax.nn.gelu exact (erf)", rtol=1e-4, atol=1e-5)
def sw_nn_gelu_exact(size):
    return Built(lambda x: jax.nn.gelu(x, approximate=False), (unif(802, lo=-6.0, hi=6.0),))


@case(SWEEP, "jax.nn.gelu tanh approximation", rtol=1e-4, atol=1e-5)
def sw_nn_gelu_tanh(size):
    return Built(lambda x: jax.nn.gelu(x, approximate=True), (unif(803, lo=-6.0, hi=6.0),))


@case(SWEEP, "jax.nn.silu and sigmoid", rtol=1e-4, atol=1e-5)
def sw_nn_silu(size):
    return Built(lambda x: (jax.nn.silu(x), jax.nn.sigmoid(x)), (unif(804, lo=-10.0, hi=10.0),))


@case(SWEEP, "jax.nn.softplus over large magnitudes", rtol=1e-4, atol=1e-5)
def sw_nn_softplus(size):
    return Built(jax.nn.softplus, (unif(805, lo=-50.0, hi=50.0),))


@case(SWEEP, "jax.nn.log_sigmoid", rtol=1e-4, atol=1e-5)
def sw_nn_log_sigmoid(size):
    return Built(jax.nn.log_sigmoid, (unif(806, lo=-30.0, hi=30.0),))


@case(SWEEP, "jax.nn.elu and celu (alpha 0.5)", rtol=1e-4, atol=1e-5)
def sw_nn_elu_celu(size):
    return Built(lambda x: (jax.nn.elu(x), jax.nn.celu(x, alpha=0.5)), (unif(807),))


@case(SWEEP, "jax.nn.selu and leaky_relu", rtol=1e-4, atol=1e-5)
def sw_nn_selu(size):
    return Built(lambda x: (jax.nn.selu(x), jax.nn.leaky_relu(x, 0.1)), (unif(808),))


@case(SWEEP, "jax.nn.glu along the last axis", rtol=1e-4, atol=1e-5)
def sw_nn_glu(size):
    return Built(jax.nn.glu, (unif(809, (4, 6)),))


@case(SWEEP, "jax.nn.hard_tanh, hard_sigmoid, hard_swish", rtol=1e-5, atol=1e-6)
def sw_nn_hard(size):
    return Built(lambda x: (jax.nn.hard_tanh(x), jax.nn.hard_sigmoid(x), jax.nn.hard_swish(x)),
                 (unif(810, lo=-5.0, hi=5.0),))


@case(SWEEP, "jax.nn.one_hot with out-of-range labels", rtol=0, atol=0)
def sw_nn_one_hot(size):
    return Built(lambda i: jax.nn.one_hot(i, 5), (ints(811, (6,), -1, 7),))


@case(SWEEP, "jax.nn.logsumexp over an axis", rtol=1e-4, atol=1e-5)
def sw_nn_logsumexp(size):
    return Built(lambda x: jax.nn.logsumexp(x, axis=0), (unif(812, lo=-20.0, hi=20.0),))


@case(SWEEP, "jax.nn.standardize", rtol=1e-4, atol=1e-5)
def sw_nn_standardize(size):
    return Built(lambda x: jax.nn.standardize(x, axis=-1), (unif(813),))


@case(SWEEP, "jax.nn.softmax with a where mask", rtol=1e-4, atol=1e-6)
def sw_nn_softmax_where(size):
    m = ints(815, lo=0, hi=2).astype(bool)
    m[:, 0] = True
    return Built(lambda x, m: jax.nn.softmax(x, axis=-1, where=m), (unif(814), m))


@case(SWEEP, "jax.nn.log_softmax", rtol=1e-4, atol=1e-5)
def sw_nn_log_softmax(size):
    return Built(lambda x: jax.nn.log_softmax(x, axis=0), (unif(816, lo=-10.0, hi=10.0),))


@case(SWEEP, "jax.nn.mish, squareplus and sparse_plus", rtol=1e-4, atol=1e-5)
def sw_nn_mish(size):
    return Built(lambda x: (jax.nn.mish(x), jax.nn.squareplus(x), jax.nn.sparse_plus(x)), (unif(817),))


@case(SWEEP, "jax.nn.dot_product_attention (xla implementation), causal", rtol=1e-4, atol=1e-5)
def sw_nn_dot_product_attention(size):
    return Built(lambda q, k, v: jax.nn.dot_product_attention(q, k, v, is_causal=True),
                 (unif(818, (1, 5, 2, 4)), unif(819, (1, 5, 2, 4)), unif(820, (1, 5, 2, 4))))


# ==================================================================================
# random: jax.random (threefry, integer ops)
# ==================================================================================

@case(SWEEP, "jax.random.normal from an int seed argument", rtol=1e-5, atol=1e-6)
def sw_random_normal(size):
    return Built(lambda s: jax.random.normal(jax.random.PRNGKey(s), (4, 5)), (np.array(42, np.int32),))


@case(SWEEP, "jax.random.uniform from a raw uint32[2] key argument", rtol=1e-6, atol=1e-7)
def sw_random_uniform(size):
    return Built(lambda k: jax.random.uniform(k, (4, 5), minval=-2.0, maxval=3.0), (np.array([0, 7], np.uint32),))


@case(SWEEP, "jax.random.bernoulli with per-element p", rtol=0, atol=0)
def sw_random_bernoulli(size):
    return Built(lambda k, p: jax.random.bernoulli(k, p), (np.array([1, 2], np.uint32), unif(901, lo=0.0, hi=1.0)))


@case(SWEEP, "jax.random.categorical over logits", rtol=0, atol=0)
def sw_random_categorical(size):
    return Built(lambda k, l: jax.random.categorical(k, l, axis=-1, shape=(3, 4)),
                 (np.array([3, 4], np.uint32), unif(902, (4, 6))))


@case(SWEEP, "jax.random.permutation of an array", rtol=0, atol=0)
def sw_random_permutation(size):
    return Built(lambda k, x: jax.random.permutation(k, x), (np.array([5, 6], np.uint32), ints(903, (10,), 0, 100)))


@case(SWEEP, "jax.random.split then normal from each subkey, and fold_in", rtol=1e-5, atol=1e-6)
def sw_random_split(size):
    def fn(s):
        k = jax.random.PRNGKey(s)
        k1, k2 = jax.random.split(k)
        return jax.random.split(k, 3), jax.random.normal(k1, (3,)), jax.random.normal(jax.random.fold_in(k2, 9), (3,))
    return Built(fn, (np.array(123, np.int32),))


@case(SWEEP, "jax.random.randint with a negative range", rtol=0, atol=0)
def sw_random_randint(size):
    return Built(lambda k: jax.random.randint(k, (4, 5), -10, 17), (np.array([8, 9], np.uint32),))


@case(SWEEP, "jax.random.gumbel and exponential", rtol=1e-4, atol=1e-5)
def sw_random_gumbel(size):
    return Built(lambda k: (jax.random.gumbel(k, (4, 5)), jax.random.exponential(jax.random.fold_in(k, 1), (5,))),
                 (np.array([10, 11], np.uint32),))


@case(SWEEP, "jax.random.choice without replacement", rtol=0, atol=0)
def sw_random_choice(size):
    return Built(lambda k, x: jax.random.choice(k, x, (4,), replace=False),
                 (np.array([12, 13], np.uint32), ints(904, (10,), 0, 100)))


@case(SWEEP, "jax.random.truncated_normal and laplace", rtol=1e-4, atol=1e-5)
def sw_random_truncated_normal(size):
    return Built(lambda k: (jax.random.truncated_normal(k, -1.0, 2.0, (4, 5)),
                            jax.random.laplace(jax.random.fold_in(k, 3), (6,))), (np.array([14, 15], np.uint32),))


@case(SWEEP, "jax.random.bits (u32) and key_data of a split", rtol=0, atol=0)
def sw_random_bits(size):
    return Built(lambda k: (jax.random.bits(k, (3, 4)), jax.random.key_data(jax.random.split(jax.random.wrap_key_data(k)))),
                 (np.array([16, 17], np.uint32),))


@case(SWEEP, "jax.random.gamma (rejection sampling in a while loop)", rtol=1e-4, atol=1e-5)
def sw_random_gamma(size):
    return Built(lambda k, a: jax.random.gamma(k, a), (np.array([18, 19], np.uint32), unif(905, (6,), 0.5, 4.0)))


# ==================================================================================
# fpenv: subnormals (XLA CPU runs with denormals flushed to zero)
# ==================================================================================

@case(SWEEP, "log of subnormal inputs", rtol=1e-5, atol=1e-6)
def sw_fpenv_log(size):
    return Built(jnp.log, (subnormals(),))


@case(SWEEP, "sqrt of subnormal inputs (sqrt(-1e-40))", rtol=1e-5, atol=1e-6)
def sw_fpenv_sqrt(size):
    return Built(jnp.sqrt, (subnormals(),))


@case(SWEEP, "lax.rsqrt of subnormal inputs", rtol=1e-5, atol=1e-6)
def sw_fpenv_rsqrt(size):
    return Built(lax.rsqrt, (subnormals(),))


@case(SWEEP, "x > 0, x == 0, x < 0 for subnormal x", rtol=0, atol=0)
def sw_fpenv_compare(size):
    return Built(lambda x: (x > 0, x == 0, x < 0), (subnormals(),))


@case(SWEEP, "jnp.sign of subnormals", rtol=0, atol=0)
def sw_fpenv_sign(size):
    return Built(jnp.sign, (subnormals(),))


@case(SWEEP, "jnp.floor and jnp.ceil of subnormals", rtol=0, atol=0)
def sw_fpenv_floor(size):
    return Built(lambda x: (jnp.floor(x), jnp.ceil(x)), (subnormals(),))


@case(SWEEP, "1 / x for subnormal x", rtol=1e-5, atol=0)
def sw_fpenv_reciprocal(size):
    return Built(lambda x: 1.0 / x, (subnormals(),))


@case(SWEEP, "x * 1.0 (simplified away) and x * 2.0, x * y with y = 1 at run time", rtol=0, atol=0)
def sw_fpenv_mul_one(size):
    return Built(lambda x, y: (x * 1.0, x * 2.0, x * y), (subnormals(), np.ones((3, 6), np.float32)))


@case(SWEEP, "x + y with y = 0 at run time, and abs", rtol=0, atol=0)
def sw_fpenv_add_zero(size):
    return Built(lambda x, y: (x + y, jnp.abs(x)), (subnormals(), np.zeros((3, 6), np.float32)))


@case(SWEEP, "exp of -87..-104: results in the subnormal range", rtol=1e-5, atol=0)
def sw_fpenv_exp_underflow(size):
    return Built(jnp.exp, (np.array([-80.0, -87.0, -87.5, -88.0, -89.0, -95.0, -100.0, -103.0, -104.0, -110.0],
                                    np.float32),))


@case(SWEEP, "differences of nearby tiny normals (subnormal results)", rtol=0, atol=0)
def sw_fpenv_sub_underflow(size):
    a = np.array([1.5e-38, 2e-38, 1.2e-38, 3e-38], np.float32)
    b = np.array([1.4e-38, 1.9e-38, 1.17549435e-38, 1e-38], np.float32)
    return Built(lambda a, b: (a - b, (a - b) * 1e30), (a, b))


@case(SWEEP, "tiny quotients and products (1e-30 / 1e10, 1e-20 * 1e-20)", rtol=0, atol=0)
def sw_fpenv_div_underflow(size):
    return Built(lambda x, y: (x / y, x * x), (np.array([1e-30, 1e-20, 1e-19, 3e-35], np.float32),
                                                np.array([1e10, 1e19, 1e20, 1e4], np.float32)))


@case(SWEEP, "max(x, 0), min(x, 0) and where(x != 0) for subnormals", rtol=0, atol=0)
def sw_fpenv_max_where(size):
    return Built(lambda x: (jnp.maximum(x, 0.0), jnp.minimum(x, 0.0), jnp.where(x != 0, 1.0, -1.0)), (subnormals(),))


@case(SWEEP, "sum and max reductions over subnormals", rtol=0, atol=0)
def sw_fpenv_reduce(size):
    return Built(lambda x: (jnp.sum(x, axis=1), jnp.max(x, axis=1), jnp.sum(x * 1e30)), (subnormals(),))


@case(SWEEP, "conversions of subnormals: f32 -> bf16 and f16, f16 subnormals -> f32 and squared", rtol=0, atol=0, strict=True)
def sw_fpenv_convert(size):
    h = np.array([1e-5, -3e-6, 6e-8, 1e-3, 0.0, 2.0], np.float16)
    return Built(lambda x, h: (x.astype(jnp.bfloat16), (x * 1e10).astype(jnp.float16), h.astype(jnp.float32), h * h),
                 (subnormals(), h))


@case(SWEEP, "tanh, sin, expm1, log1p of subnormals", rtol=1e-5, atol=0)
def sw_fpenv_transcendental(size):
    return Built(lambda x: (jnp.tanh(x), jnp.sin(x), jnp.expm1(x), jnp.log1p(x)), (subnormals(),))


# ==================================================================================
# trig: sin/cos/tan of huge arguments
# ==================================================================================

@case(SWEEP, "sin of f32 up to 3e38", rtol=1e-4, atol=1e-5)
def sw_trig_sin_f32(size):
    return Built(jnp.sin, (huge_f32(),))


@case(SWEEP, "cos of f32 up to 3e38", rtol=1e-4, atol=1e-5)
def sw_trig_cos_f32(size):
    return Built(jnp.cos, (huge_f32(),))


@case(SWEEP, "tan of f32 up to 3e38", rtol=1e-4, atol=1e-5)
def sw_trig_tan_f32(size):
    return Built(jnp.tan, (huge_f32(),))


@case(SWEEP, "sin and cos of f32 in [-1e5, 1e5]", rtol=1e-4, atol=1e-5)
def sw_trig_sincos_mid_f32(size):
    return Built(lambda x: (jnp.sin(x), jnp.cos(x)), (unif(1001, (4, 8), -1e5, 1e5),))


@case(SWEEP, "sin of f32 multiples of pi/2 near 2^23", rtol=1e-4, atol=1e-5)
def sw_trig_sin_pi_multiples_f32(size):
    x = (np.arange(1, 13, dtype=np.float64) * np.pi / 2 * 1e5).astype(np.float32)
    return Built(lambda x: (jnp.sin(x), jnp.cos(x)), (x,))


@case(SWEEP64, "sin of f64 up to 1.7e308", rtol=1e-9, atol=1e-12)
def sw_trig_sin_f64(size):
    return Built(jnp.sin, (huge_f64(),))


@case(SWEEP64, "cos of f64 up to 1.7e308", rtol=1e-9, atol=1e-12)
def sw_trig_cos_f64(size):
    return Built(jnp.cos, (huge_f64(),))


@case(SWEEP64, "tan of f64 up to 1.7e308", rtol=1e-9, atol=1e-12)
def sw_trig_tan_f64(size):
    return Built(jnp.tan, (huge_f64(),))
