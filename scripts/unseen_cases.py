"""Programs the corpus lacks, for measuring smelt on what it has not seen.

Used with the corpus tools (`../shared/tools/corpus/`):

    compare.py --cases-module scripts/unseen_cases.py --set unseen --smelt target/release/smelt

Each leans on what the corpus has little of: transcendental functions in
other mixes (erf GELU, sin/cos encodings, softplus, log-sigmoid), an RMS norm
with SwiGLU, and an attention block whose softmax is masked.
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
