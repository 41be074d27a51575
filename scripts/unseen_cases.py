"""Programs the corpus lacks, for measuring smelt on what it has not seen.

Used with the corpus tools (`../shared/tools/corpus/`):

    compare.py --cases-module scripts/unseen_cases.py --set unseen --smelt target/release/smelt

Each leans on what the corpus has little of: transcendental functions in
other mixes (erf GELU, sin/cos encodings, softplus, log-sigmoid), an RMS norm
with SwiGLU, attention blocks (masked; grouped-query heads laid out sequence
first), and loops over dynamic indices (row-by-row dynamic_update_slice, a
scalar while_loop, a long sliding-window dynamic_slice loop). Their test-size
forms live in tests/corpus/ too (see its README).
"""

import numpy as np
import jax
import jax.numpy as jnp

from cases import Built, Registry, case, normal

UNSEEN = Registry("unseen")


@case(UNSEEN, "An MLP block with exact (erf) GELU between two dense layers.", rtol=1e-4, atol=1e-5)
def gelu_mlp(size):
    rng = np.random.default_rng(901)
    n, d, h = (8, 16, 32) if size == "test" else (512, 256, 1024)
    x, w1, w2 = normal(rng, (n, d)), normal(rng, (d, h), 0.1), normal(rng, (h, d), 0.1)

    def fn(x, w1, w2):
        return jax.nn.gelu(x @ w1, approximate=False) @ w2

    return Built(fn, (x, w1, w2))


@case(UNSEEN, "Sinusoidal position encodings added to embeddings, then a tanh-GELU.", rtol=1e-4, atol=1e-5)
def sincos_encoding(size):
    rng = np.random.default_rng(902)
    n, d = (16, 32) if size == "test" else (2048, 512)
    x = normal(rng, (n, d))

    def fn(x):
        pos = jnp.arange(n, dtype=jnp.float32)[:, None]
        i = jnp.arange(d // 2, dtype=jnp.float32)[None, :]
        angle = pos / jnp.power(10000.0, 2.0 * i / d)
        enc = jnp.concatenate([jnp.sin(angle), jnp.cos(angle)], axis=-1)
        return jax.nn.gelu(x + enc, approximate=True)

    return Built(fn, (x,))


@case(UNSEEN, "Softplus, log-sigmoid and logistic gates over one tensor.", rtol=1e-4, atol=1e-6)
def gates(size):
    rng = np.random.default_rng(903)
    shape = (8, 64) if size == "test" else (1024, 1024)
    x, y = normal(rng, shape, 4.0), normal(rng, shape, 4.0)

    def fn(x, y):
        return jax.nn.softplus(x) * jax.nn.sigmoid(y) + jax.nn.log_sigmoid(x - y)

    return Built(fn, (x, y))


@case(UNSEEN, "RMS norm, then a SwiGLU feed-forward.", rtol=1e-4, atol=1e-5)
def rmsnorm_swiglu(size):
    rng = np.random.default_rng(904)
    n, d, h = (8, 16, 32) if size == "test" else (256, 512, 1024)
    x, g = normal(rng, (n, d)), normal(rng, (d,))
    wa, wb, wo = normal(rng, (d, h), 0.05), normal(rng, (d, h), 0.05), normal(rng, (h, d), 0.05)

    def fn(x, g, wa, wb, wo):
        r = x * jax.lax.rsqrt(jnp.mean(x * x, axis=-1, keepdims=True) + 1e-6) * g
        return (jax.nn.silu(r @ wa) * (r @ wb)) @ wo

    return Built(fn, (x, g, wa, wb, wo))


@case(UNSEEN, "One attention head with a causal mask.", rtol=1e-4, atol=1e-5)
def causal_attention(size):
    rng = np.random.default_rng(905)
    t, d = (16, 8) if size == "test" else (512, 64)
    q, k, v = normal(rng, (t, d)), normal(rng, (t, d)), normal(rng, (t, d))

    def fn(q, k, v):
        s = (q @ k.T) / np.float32(np.sqrt(d))
        mask = jnp.tril(jnp.ones((t, t), dtype=bool))
        s = jnp.where(mask, s, -jnp.inf)
        return jax.nn.softmax(s, axis=-1) @ v

    return Built(fn, (q, k, v))


@case(UNSEEN, "Grouped-query attention in a sequence-first layout: batch axes in non-leading positions.", rtol=1e-4, atol=1e-5)
def gqa_sequence_first(size):
    rng = np.random.default_rng(911)
    t, b, g, hpg, d = (16, 2, 2, 2, 8) if size == "test" else (512, 4, 2, 4, 32)
    q = normal(rng, (t, b, g * hpg, d))
    k, v = normal(rng, (t, b, g, d)), normal(rng, (t, b, g, d))

    def fn(q, k, v):
        q5 = q.reshape(t, b, g, hpg, d)
        s = jnp.einsum("tbghd,sbgd->bghts", q5, k) / np.float32(np.sqrt(d))
        p = jax.nn.softmax(s, axis=-1)
        return jnp.einsum("bghts,sbgd->tbghd", p, v).reshape(t, b, g * hpg, d)

    return Built(fn, (q, k, v))


@case(UNSEEN, "A fori_loop writing a buffer row by row with dynamic_update_slice, each row a "
      "dynamic_slice of the input scaled by the step.", rtol=1e-5, atol=1e-6)
def rowwise_fill_loop(size):
    rng = np.random.default_rng(912)
    r, c = (12, 8) if size == "test" else (2048, 128)
    x = normal(rng, (r, c))

    def fn(x):
        def body(i, out):
            row = jax.lax.dynamic_slice_in_dim(x, r - 1 - i, 1, axis=0)
            return jax.lax.dynamic_update_slice_in_dim(out, jnp.tanh(row) * i.astype(jnp.float32), i, axis=0)
        return jax.lax.fori_loop(0, r, body, jnp.zeros_like(x))

    return Built(fn, (x,))


@case(UNSEEN, "A while_loop on scalars: the integer square root by Newton's iteration, then a "
      "count of its steps; a loop whose body is a handful of scalar instructions.", rtol=0, atol=0)
def scalar_newton_isqrt(size):
    n = np.int32(12345 if size == "test" else 2_000_000_000)

    def fn(n):
        def cond(s):
            x, y, _ = s
            return y < x

        def body(s):
            x, y, k = s
            return y, (y + n // y) // 2, k + 1
        x0 = n
        x, _, k = jax.lax.while_loop(cond, body, (x0, (x0 + 1) // 2, jnp.int32(0)))
        # Re-run as a counted loop of many tiny steps: a running xorshift of the root.
        def mix(i, h):
            h = h ^ (h << 13)
            h = h ^ (h >> 17)
            return h ^ (h << 5) ^ i.astype(jnp.uint32)
        steps = 100 if size == "test" else 50_000
        return x, k, jax.lax.fori_loop(0, steps, mix, x.astype(jnp.uint32))

    return Built(fn, (n,))


@case(UNSEEN, "A moving maximum and mean over a long signal: a fori_loop of many steps reading a "
      "window with dynamic_slice and writing one element with dynamic_update_slice.", rtol=1e-5, atol=1e-5)
def sliding_window_loop(size):
    rng = np.random.default_rng(913)
    n, w = (64, 5) if size == "test" else (32768, 7)
    x = normal(rng, (n,))

    def fn(x):
        def body(i, s):
            mx, mean = s
            win = jax.lax.dynamic_slice(x, (i,), (w,))
            mx = jax.lax.dynamic_update_slice(mx, jnp.max(win)[None], (i,))
            mean = jax.lax.dynamic_update_slice(mean, jnp.mean(win)[None], (i,))
            return mx, mean
        init = (jnp.zeros(n - w + 1, x.dtype), jnp.zeros(n - w + 1, x.dtype))
        return jax.lax.fori_loop(0, n - w + 1, body, init)

    return Built(fn, (x,))
