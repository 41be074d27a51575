"""Programs for compile-time scaling: how compile time grows with program size.

Used with the corpus tools (`../shared/tools/corpus/`), at benchmark size:

    compare.py --cases-module scripts/scaling_cases.py --set scaling --smelt target/release/smelt

- `transformer_L{6,24,48}`: a pre-norm transformer of L identical layers
  (d=32, 4 heads, sequence 16), unrolled as JAX emits a Python loop: the
  program grows linearly in L while every layer lowers to the same kernels.
- `chain_{1k,10k,100k}`: an elementwise chain of N dependent operations on a
  vector (add, multiply, subtract, maximum with a second input, in turn),
  which no simplification shortens.

Compile time is the figure; these are not generated into tests/corpus/.
"""

import numpy as np
import jax
import jax.numpy as jnp

from cases import Built, Registry, case, normal

SCALING = Registry("scaling")


def transformer(layers, size):
    rng = np.random.default_rng(950 + layers)
    t, d, h = 16, 32, 4
    x = normal(rng, (t, d))
    ws = [tuple(normal(rng, s, 0.2) for s in [(d, 3 * d), (d, d), (d, 4 * d), (4 * d, d)]) for _ in range(layers)]

    def norm(y):
        mu = y.mean(-1, keepdims=True)
        return (y - mu) * jax.lax.rsqrt(((y - mu) ** 2).mean(-1, keepdims=True) + 1e-5)

    def fn(x, ws):
        for wqkv, wo, w1, w2 in ws:
            q, k, v = jnp.split(norm(x) @ wqkv, 3, axis=-1)
            q, k, v = (a.reshape(t, h, d // h).transpose(1, 0, 2) for a in (q, k, v))
            p = jax.nn.softmax(q @ k.transpose(0, 2, 1) / np.float32(np.sqrt(d // h)), axis=-1)
            x = x + (p @ v).transpose(1, 0, 2).reshape(t, d) @ wo
            x = x + jax.nn.gelu(norm(x) @ w1) @ w2
        return x

    return Built(fn, (x, ws))


def chain(n, size):
    rng = np.random.default_rng(960)
    a, b = normal(rng, (1024,)), normal(rng, (1024,))

    def fn(a, b):
        y = a
        for i in range(n):
            y = [y + b, y * b, y - b, jnp.maximum(y, b)][i % 4]
        return y

    return Built(fn, (a, b))


@case(SCALING, "A transformer of 6 identical layers (d=32, 4 heads), unrolled.", rtol=1e-3, atol=1e-4)
def transformer_L6(size):
    return transformer(6, size)


@case(SCALING, "A transformer of 24 identical layers (d=32, 4 heads), unrolled.", rtol=1e-3, atol=1e-4)
def transformer_L24(size):
    return transformer(24, size)


@case(SCALING, "A transformer of 48 identical layers (d=32, 4 heads), unrolled.", rtol=1e-3, atol=1e-4)
def transformer_L48(size):
    return transformer(48, size)


@case(SCALING, "An elementwise chain of 1,000 dependent operations.", rtol=1e-3, atol=1e-3)
def chain_1k(size):
    return chain(1000, size)


@case(SCALING, "An elementwise chain of 10,000 dependent operations.", rtol=1e-3, atol=1e-3)
def chain_10k(size):
    return chain(10000, size)


@case(SCALING, "An elementwise chain of 100,000 dependent operations (XLA's compile grows super-linearly: "
      "run it with a generous --smelt-timeout-s, or time smelt alone with scripts/scaling_hlo.py).",
      rtol=1e-3, atol=1e-3)
def chain_100k(size):
    return chain(100000, size)
