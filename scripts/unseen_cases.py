"""Programs the corpus lacks, for measuring smelt on what it has not seen.

Used with the corpus tools (`../shared/tools/corpus/`):

    compare.py --cases-module scripts/unseen_cases.py --set unseen --smelt target/release/smelt

Each leans on what the corpus has little of: transcendental functions in
other mixes (erf GELU, sin/cos encodings, softplus, log-sigmoid), an RMS norm
with SwiGLU, attention blocks (masked; grouped-query heads laid out sequence
first), loops over dynamic indices (row-by-row dynamic_update_slice, a
scalar while_loop, a long sliding-window dynamic_slice loop), an Adam
optimizer step, bf16 and integer elementwise chains, rounding conversions,
an embedding bag (gather then segment sum), nested loops with a
conditional inside, statistics over leading and middle axes (batch norm,
column softmax and scaling, NCHW instance/group/channel norms, column
argmax), a dilated causal 1D convolution stack, NCHW convolutions, and
statistics over long rows (log-sum-exp and entropy of logits, L2-normalized
rows), and softmaxes over short ones (attention over 12-token windows, a
12-class classifier head) and long ones (an 8192-token language-model
head; causal attention probabilities and their entropy). Their test-size forms live in tests/corpus/ too (see its README).
"""

import numpy as np
import jax
import jax.numpy as jnp

from cases import Built, Registry, case, dense, glorot, normal, softmax_xent

UNSEEN = Registry("unseen")


def nchw_conv(x, w, stride=1, pad=0, groups=1):
    """A PyTorch-layout convolution (NCHW input and output, OIHW kernel),
    symmetric padding, one stride for both axes."""
    return jax.lax.conv_general_dilated(
        x, w, (stride, stride), [(pad, pad), (pad, pad)],
        dimension_numbers=("NCHW", "OIHW", "NCHW"), feature_group_count=groups,
    )


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


@case(UNSEEN, "One Adam step on a two-layer MLP: value_and_grad of a cross-entropy loss, then the "
      "first and second moment updates with bias correction over the parameter tree.",
      rtol=1e-4, atol=1e-5)
def adam_step(size):
    rng = np.random.default_rng(914)
    B, D, H = (8, 16, 32) if size == "test" else (128, 512, 1024)
    params = {"w1": glorot(rng, D, H), "b1": np.zeros((H,), np.float32),
              "w2": glorot(rng, H, 10), "b2": np.zeros((10,), np.float32)}
    m = {k: normal(rng, v.shape, 1e-3) for k, v in params.items()}
    v = {k: np.abs(normal(rng, v.shape, 1e-4)) for k, v in params.items()}
    x = normal(rng, (B, D))
    y = rng.integers(0, 10, B, dtype=np.int32)
    t = np.int32(7)

    def fn(params, m, v, t, x, y):
        def loss_fn(p):
            return softmax_xent(dense(jax.nn.relu(dense(x, p["w1"], p["b1"])), p["w2"], p["b2"]), y, 10)
        loss, g = jax.value_and_grad(loss_fn)(params)
        b1, b2, lr, eps = 0.9, 0.999, 1e-3, 1e-8
        tf = (t + 1).astype(jnp.float32)
        m = jax.tree_util.tree_map(lambda m, g: b1 * m + (1 - b1) * g, m, g)
        v = jax.tree_util.tree_map(lambda v, g: b2 * v + (1 - b2) * g * g, v, g)
        c1, c2 = 1 - b1 ** tf, 1 - b2 ** tf
        params = jax.tree_util.tree_map(
            lambda p, m, v: p - lr * (m / c1) / (jnp.sqrt(v / c2) + eps), params, m, v)
        return params, m, v, loss

    return Built(fn, (params, m, v, t, x, y))


@case(UNSEEN, "A bf16 elementwise chain: multiply-add, tanh, exp, rsqrt, clamp and a select in bf16, "
      "a row sum accumulated in f32.", rtol=2e-2, atol=2e-2)
def bf16_chain(size):
    rng = np.random.default_rng(915)
    shape = (8, 64) if size == "test" else (2048, 1024)
    x, y, z = (normal(rng, shape).astype(jnp.bfloat16) for _ in range(3))

    def fn(x, y, z):
        a = x * y + z
        b = jnp.tanh(a) * jnp.exp(-jnp.abs(z)) + jax.lax.rsqrt(x * x + jnp.bfloat16(1))
        c = jnp.clip(jnp.where(a > 0, b, a * jnp.bfloat16(0.25)), -3, 3)
        return c, jnp.sum(c.astype(jnp.float32), axis=1)

    return Built(fn, (x, y, z))


@case(UNSEEN, "An integer hashing chain on u32 and s32: a murmur3-style finalizer, rotations built "
      "from shifts, a remainder by a constant, popcount and count-leading-zeros, and a bucket "
      "histogram by comparisons.", rtol=0, atol=0)
def int_hash_mix(size):
    rng = np.random.default_rng(916)
    n = 256 if size == "test" else 1 << 21
    a = rng.integers(0, 2 ** 32, n, dtype=np.uint32)
    b = rng.integers(-2 ** 31, 2 ** 31, n, dtype=np.int64).astype(np.int32)

    def fn(a, b):
        h = a ^ (a >> 16)
        h = h * np.uint32(0x85EBCA6B)
        h = h ^ (h >> 13)
        h = h * np.uint32(0xC2B2AE35)
        h = h ^ (h >> 16)
        rot = (h << 7) | (h >> 25)
        bucket = (rot % np.uint32(1000)).astype(jnp.int32)
        mixed = (b ^ bucket) + jax.lax.population_count(b) - jax.lax.clz(b | 1)
        small = jnp.where(mixed > 0, mixed >> 3, -((-mixed) >> 3))
        counts = jnp.sum((bucket[:, None] < jnp.array([250, 500, 750], jnp.int32)).astype(jnp.int32), axis=0)
        return h, rot, small, counts

    return Built(fn, (a, b))


@case(UNSEEN, "Rounding conversions: f32 rounded half to even, floored and ceiled into s32, "
      "saturated into u8 and s8, f32 to f16 and bf16 and back, s32 to f32.", rtol=0, atol=0)
def convert_rounding_mix(size):
    rng = np.random.default_rng(917)
    n = 512 if size == "test" else 1 << 22
    x = normal(rng, (n,), 300.0)
    x[:8] = [0.5, 1.5, 2.5, -0.5, -1.5, 1e9, -1e9, 0.0]
    i = rng.integers(-2 ** 24, 2 ** 24, n, dtype=np.int32)

    def fn(x, i):
        r = jnp.round(x).astype(jnp.int32)
        f = jnp.floor(x).astype(jnp.int32)
        c = jnp.ceil(x).astype(jnp.int32)
        u8 = jnp.clip(x, 0, 255).astype(jnp.uint8)
        s8 = jnp.clip(jnp.round(x / 4), -128, 127).astype(jnp.int8)
        h = x.astype(jnp.float16).astype(jnp.float32)
        bf = x.astype(jnp.bfloat16).astype(jnp.float32)
        return r, f, c, u8, s8, h, bf, i.astype(jnp.float32) * 0.5

    return Built(fn, (x, i))


@case(UNSEEN, "An embedding bag: rows gathered by token ids, summed per bag with segment_sum over "
      "sorted bag ids, divided by the bag sizes.", rtol=1e-5, atol=1e-5)
def embedding_bag(size):
    rng = np.random.default_rng(918)
    V, D, T, NB = (50, 8, 40, 6) if size == "test" else (20000, 128, 65536, 4096)
    table = normal(rng, (V, D))
    ids = rng.integers(0, V, T, dtype=np.int32)
    bags = np.sort(rng.integers(0, NB, T)).astype(np.int32)

    def fn(table, ids, bags):
        rows = jnp.take(table, ids, axis=0)
        sums = jax.ops.segment_sum(rows, bags, num_segments=NB, indices_are_sorted=True)
        counts = jax.ops.segment_sum(jnp.ones_like(bags, jnp.float32), bags, num_segments=NB)
        return sums / jnp.maximum(counts, 1.0)[:, None]

    return Built(fn, (table, ids, bags))


@case(UNSEEN, "Nested control flow: a fori_loop whose body runs a data-dependent while_loop and a "
      "lax.cond on a small vector state.", rtol=1e-5, atol=1e-5)
def nested_loops_cond(size):
    rng = np.random.default_rng(919)
    n, steps = (16, 10) if size == "test" else (256, 2000)
    x = normal(rng, (n,))

    def fn(x):
        def outer(i, s):
            def cond(c):
                v, k = c
                return (jnp.max(jnp.abs(v)) > 1.0) & (k < 8)

            def halve(c):
                v, k = c
                return v * 0.5, k + 1
            s, k = jax.lax.while_loop(cond, halve, (s, jnp.int32(0)))
            s = jax.lax.cond(k % 2 == 0, lambda s: jnp.sin(s) + 0.1 * s, lambda s: s * 1.5 + 0.01, s)
            return jnp.roll(s, 1) * 0.9 + s * 0.2
        return jax.lax.fori_loop(0, steps, outer, x)

    return Built(fn, (x,))


@case(UNSEEN, "Training-mode batch normalization: per-feature mean and variance over the batch axis "
      "of a dense activation and over N, H, W of an NHWC image batch (reductions over leading axes "
      "feeding elementwise consumers).", rtol=1e-4, atol=1e-5)
def batch_stats_norm(size):
    rng = np.random.default_rng(920)
    (n, c), img = ((16, 8), (2, 4, 4, 3)) if size == "test" else ((8192, 512), (32, 64, 64, 64))
    x, y = normal(rng, (n, c), 2.0), normal(rng, img)
    gamma, beta = normal(rng, (c,)), normal(rng, (c,))

    def fn(x, y, gamma, beta):
        mu = x.mean(0)
        var = ((x - mu) ** 2).mean(0)
        xn = (x - mu) * jax.lax.rsqrt(var + 1e-5) * gamma + beta
        m = y.mean((0, 1, 2))
        v = y.var((0, 1, 2))
        return xn, mu, var, (y - m) / jnp.sqrt(v + 1e-3)

    return Built(fn, (x, y, gamma, beta))


@case(UNSEEN, "Column statistics: softmax over the leading axis, a column L2 normalization and a "
      "column max-abs scale (int8-style), each a reduction over axis 0 of a row-major matrix.",
      rtol=1e-5, atol=1e-6)
def column_softmax_scale(size):
    rng = np.random.default_rng(921)
    n, m = (12, 20) if size == "test" else (2048, 2048)
    x = normal(rng, (n, m), 2.0)

    def fn(x):
        sm = jax.nn.softmax(x, axis=0)
        l2 = x / jnp.sqrt(jnp.sum(x * x, axis=0) + 1e-6)
        scale = 127.0 / jnp.max(jnp.abs(x), axis=0)
        q = jnp.clip(jnp.round(x * scale), -127, 127).astype(jnp.int8)
        return sm, l2, q

    return Built(fn, (x,))


@case(UNSEEN, "Normalizations of an NCHW image batch: instance norm (statistics over H, W), group "
      "norm (over channel groups, H and W) and a channel norm over C (a reduction over a middle "
      "axis), each with a per-channel affine.", rtol=1e-4, atol=1e-5)
def nchw_norms(size):
    rng = np.random.default_rng(922)
    n, c, h, w = (2, 8, 4, 4) if size == "test" else (16, 64, 56, 56)
    g = 4
    x = normal(rng, (n, c, h, w), 1.5)
    gamma, beta = normal(rng, (c,)), normal(rng, (c,))

    def fn(x, gamma, beta):
        aff = lambda y: y * gamma[None, :, None, None] + beta[None, :, None, None]
        mu = x.mean((2, 3), keepdims=True)
        inst = aff((x - mu) * jax.lax.rsqrt(x.var((2, 3), keepdims=True) + 1e-5))
        xg = x.reshape(n, g, c // g, h, w)
        gm = xg.mean((2, 3, 4), keepdims=True)
        grp = aff(((xg - gm) * jax.lax.rsqrt(xg.var((2, 3, 4), keepdims=True) + 1e-5)).reshape(x.shape))
        cm = x.mean(1, keepdims=True)
        chan = (x - cm) / jnp.sqrt(((x - cm) ** 2).mean(1, keepdims=True) + 1e-5)
        return inst, grp, chan

    return Built(fn, (x, gamma, beta))


@case(UNSEEN, "Column-wise selection: argmax and argmin over the leading axis, a one-hot of the "
      "argmax, the values gathered back with take_along_axis, and a top-2 by masking.",
      rtol=1e-6, atol=1e-6)
def argmax_columns(size):
    rng = np.random.default_rng(923)
    n, m = (10, 12) if size == "test" else (2048, 2048)
    x = normal(rng, (n, m))

    def fn(x):
        am = jnp.argmax(x, axis=0)
        an = jnp.argmin(x, axis=0)
        oh = jax.nn.one_hot(am, n, axis=0, dtype=jnp.float32)
        best = jnp.take_along_axis(x, am[None, :], axis=0)[0]
        second = jnp.max(jnp.where(oh > 0, -jnp.inf, x), axis=0)
        return am, an, oh, best - second

    return Built(fn, (x,))


@case(UNSEEN, "A dilated causal 1D convolution stack on audio-like sequences (NWC): two dilations, "
      "a depthwise layer and a gated linear unit, as in WaveNet-style models.", rtol=1e-4, atol=1e-4)
def dilated_conv1d(size):
    rng = np.random.default_rng(924)
    b, t, c = (2, 32, 8) if size == "test" else (8, 16384, 64)
    x = normal(rng, (b, t, c))
    w1 = normal(rng, (3, c, 2 * c), 1.0 / np.sqrt(3 * c))
    w2 = normal(rng, (3, 1, c), 0.5)
    w3 = normal(rng, (2, c, c), 1.0 / np.sqrt(2 * c))

    def conv(x, w, dil, groups=1):
        k = w.shape[0]
        x = jnp.pad(x, ((0, 0), ((k - 1) * dil, 0), (0, 0)))
        return jax.lax.conv_general_dilated(x, w, (1,), "VALID", rhs_dilation=(dil,),
                                            dimension_numbers=("NWC", "WIO", "NWC"),
                                            feature_group_count=groups)

    def fn(x, w1, w2, w3):
        h = conv(x, w1, 2)
        a, g = jnp.split(h, 2, axis=-1)
        h = jnp.tanh(a) * jax.nn.sigmoid(g)
        h = conv(h, w2, 4, groups=c)
        return x + conv(jax.nn.relu(h), w3, 8)

    return Built(fn, (x, w1, w2, w3))


@case(UNSEEN, "A ResNet bottleneck in PyTorch's NCHW/OIHW layout at batch 1: 1x1 reduce, 3x3, 1x1 "
      "expand, each with a per-channel affine (folded batch norm) and ReLU, a strided 1x1 projection "
      "shortcut and the residual add.", rtol=1e-4, atol=1e-4)
def nchw_bottleneck(size):
    rng = np.random.default_rng(931)
    c, m, o, hw = (8, 4, 16, 8) if size == "test" else (256, 128, 512, 28)
    x = normal(rng, (1, c, hw, hw))
    w1, w2, w3, wp = (normal(rng, s, 1 / np.sqrt(np.prod(s[1:]))) for s in
                      [(m, c, 1, 1), (m, m, 3, 3), (o, m, 1, 1), (o, c, 1, 1)])
    s1, s2, s3 = (1 + 0.1 * normal(rng, (k,)) for k in (m, m, o))

    def fn(x, w1, w2, w3, wp, s1, s2, s3):
        aff = lambda y, s: y * s[None, :, None, None] + 0.05
        y = jax.nn.relu(aff(nchw_conv(x, w1, stride=2), s1))
        y = jax.nn.relu(aff(nchw_conv(y, w2, pad=1), s2))
        y = aff(nchw_conv(y, w3), s3)
        return jax.nn.relu(y + nchw_conv(x, wp, stride=2))

    return Built(fn, (x, w1, w2, w3, wp, s1, s2, s3))


@case(UNSEEN, "A ResNet last-stage bottleneck in NCHW at batch 1 over a 7x7 map: 1x1 down to a "
      "quarter of the channels, a 3x3, 1x1 back up, the identity added, a ReLU and a global "
      "average pool: products 49 pixels wide, weights of megabytes.", rtol=1e-4, atol=1e-4)
def nchw_late_bottleneck(size):
    rng = np.random.default_rng(949)
    c, m, hw = (16, 4, 3) if size == "test" else (2048, 512, 7)
    x = jax.nn.relu(normal(rng, (1, c, hw, hw)))
    w1, w2, w3 = (normal(rng, s, 1 / np.sqrt(np.prod(s[1:]))) for s in [(m, c, 1, 1), (m, m, 3, 3), (c, m, 1, 1)])
    b1, b2, b3 = (0.1 * normal(rng, (k,)) for k in (m, m, c))

    def fn(x, w1, w2, w3, b1, b2, b3):
        bias = lambda y, b: y + b[None, :, None, None]
        y = jax.nn.relu(bias(nchw_conv(x, w1), b1))
        y = jax.nn.relu(bias(nchw_conv(y, w2, pad=1), b2))
        y = jax.nn.relu(bias(nchw_conv(y, w3), b3) + x)
        return y.mean((2, 3))

    return Built(fn, (x, w1, w2, w3, b1, b2, b3))


@case(UNSEEN, "A MobileNet/ShuffleNet-style separable block in NCHW: a grouped 1x1 convolution, "
      "a channel shuffle, a depthwise 3x3 (one group per channel), a grouped 1x1 convolution and a "
      "ReLU6.", rtol=1e-4, atol=1e-4)
def nchw_separable(size):
    rng = np.random.default_rng(932)
    c, g, hw = (8, 2, 6) if size == "test" else (240, 4, 28)
    x = normal(rng, (1, c, hw, hw))
    w1 = normal(rng, (c, c // g, 1, 1), 1 / np.sqrt(c // g))
    wd = normal(rng, (c, 1, 3, 3), 1 / 3)
    w2 = normal(rng, (c, c // g, 1, 1), 1 / np.sqrt(c // g))

    def fn(x, w1, wd, w2):
        y = jax.nn.relu(nchw_conv(x, w1, groups=g))
        y = y.reshape(1, g, c // g, hw, hw).transpose(0, 2, 1, 3, 4).reshape(1, c, hw, hw)
        y = nchw_conv(y, wd, pad=1, groups=c)
        return jnp.clip(nchw_conv(y, w2, groups=g), 0, 6)

    return Built(fn, (x, w1, wd, w2))


@case(UNSEEN, "Statistics of long rows of logits: a temperature-scaled log-sum-exp, the softmax's "
      "entropy and the top logit's margin over the log-sum-exp.", rtol=1e-4, atol=1e-5)
def row_logit_stats(size):
    rng = np.random.default_rng(941)
    n, m = (4, 300) if size == "test" else (512, 4096)
    x = normal(rng, (n, m), 3.0)

    def fn(x):
        z = x / 0.7
        lse = jax.nn.logsumexp(z, axis=-1)
        logp = z - lse[:, None]
        ent = -jnp.sum(jnp.exp(logp) * logp, axis=-1)
        return lse, ent, jnp.max(z, axis=-1) - lse

    return Built(fn, (x,))


@case(UNSEEN, "Rows scaled to unit L2 norm, centred per column and clipped (cosine-similarity "
      "preprocessing).", rtol=1e-4, atol=1e-5)
def l2_rows_center(size):
    rng = np.random.default_rng(942)
    n, m = (6, 256) if size == "test" else (2048, 1024)
    x = normal(rng, (n, m))

    def fn(x):
        y = x * jax.lax.rsqrt(jnp.sum(x * x, axis=1, keepdims=True) + 1e-8)
        y = y - jnp.mean(y, axis=0, keepdims=True)
        return jnp.clip(y, -0.5, 0.5)

    return Built(fn, (x,))


@case(UNSEEN, "Multi-head attention over short windows (12 tokens, 4 heads): a softmax over rows "
      "of 12 per head, then the output projection.", rtol=1e-4, atol=1e-5)
def short_window_attention(size):
    rng = np.random.default_rng(943)
    b, t, h, d = (2, 12, 4, 8) if size == "test" else (256, 12, 4, 16)
    x = normal(rng, (b, t, h * d))
    wq, wk, wv, wo = (normal(rng, (h * d, h * d), 0.2) for _ in range(4))

    def fn(x, wq, wk, wv, wo):
        def heads(y):
            return y.reshape(b, t, h, d).transpose(0, 2, 1, 3)
        q, k, v = heads(x @ wq), heads(x @ wk), heads(x @ wv)
        p = jax.nn.softmax(q @ k.transpose(0, 1, 3, 2) / np.float32(np.sqrt(d)), axis=-1)
        return (p @ v).transpose(0, 2, 1, 3).reshape(b, t, h * d) @ wo

    return Built(fn, (x, wq, wk, wv, wo))


@case(UNSEEN, "A 12-class classifier head: log-softmax cross-entropy against integer labels, "
      "its gradient with respect to the logits, and the accuracy.", rtol=1e-4, atol=1e-5)
def small_class_head(size):
    rng = np.random.default_rng(944)
    n, f, c = (8, 16, 12) if size == "test" else (4096, 128, 12)
    x, w = normal(rng, (n, f)), normal(rng, (f, c), 0.1)
    labels = rng.integers(0, c, size=(n,)).astype(np.int32)

    def fn(x, w, labels):
        def loss(logits):
            logp = jax.nn.log_softmax(logits, axis=-1)
            return -jnp.mean(jnp.take_along_axis(logp, labels[:, None], axis=-1))
        logits = x @ w
        value, grad = jax.value_and_grad(loss)(logits)
        acc = jnp.mean((jnp.argmax(logits, axis=-1) == labels).astype(jnp.float32))
        return value, grad, acc

    return Built(fn, (x, w, labels))


@case(UNSEEN, "A language-model head over an 8192-token vocabulary: logits from a product, a "
      "log-softmax cross-entropy against labels over rows longer than the tile interpreter's "
      "chunks, the mean entropy of the predictions, and the top-1 accuracy.", rtol=1e-4, atol=1e-5)
def lm_head_xent(size):
    rng = np.random.default_rng(945)
    n, d, v = (8, 16, 1100) if size == "test" else (512, 256, 8192)
    h, w = normal(rng, (n, d)), normal(rng, (d, v), 0.05)
    labels = rng.integers(0, v, size=(n,)).astype(np.int32)

    def fn(h, w, labels):
        logits = h @ w
        logp = jax.nn.log_softmax(logits, axis=-1)
        nll = -jnp.mean(jnp.take_along_axis(logp, labels[:, None], axis=-1))
        entropy = -jnp.mean(jnp.sum(jnp.exp(logp) * logp, axis=-1))
        acc = jnp.mean((jnp.argmax(logits, axis=-1) == labels).astype(jnp.float32))
        return nll, entropy, acc

    return Built(fn, (h, w, labels))


@case(UNSEEN, "Attention probabilities alone: scaled scores plus a causal mask bias, a softmax "
      "over keys, and each query's attention entropy, over [batch, heads, queries, keys].",
      rtol=1e-4, atol=1e-5)
def attention_probs(size):
    rng = np.random.default_rng(946)
    b, hd, t = (2, 2, 16) if size == "test" else (8, 8, 256)
    scores = normal(rng, (b, hd, t, t), 2.0)

    def fn(scores):
        mask = jnp.tril(jnp.ones((t, t), bool))
        bias = jnp.where(mask, 0.0, -1e9).astype(jnp.float32)
        p = jax.nn.softmax(scores * (1.0 / np.sqrt(64.0)) + bias, axis=-1)
        entropy = -jnp.sum(p * jnp.log(p + 1e-9), axis=-1)
        return p, entropy

    return Built(fn, (scores,))


@case(UNSEEN, "A squeeze-and-excitation block in NCHW (EfficientNet, MobileNetV3): a global average "
      "pool over the spatial axes, two dense layers with a swish and a sigmoid, the channels "
      "rescaled, then a global-pool classifier head.", rtol=1e-4, atol=1e-5)
def squeeze_excite(size):
    rng = np.random.default_rng(947)
    n, c, hw, r, k = (2, 8, 5, 4, 3) if size == "test" else (8, 256, 28, 64, 100)
    x = normal(rng, (n, c, hw, hw))
    w1, w2, wh = normal(rng, (c, r), 0.1), normal(rng, (r, c), 0.1), normal(rng, (c, k), 0.1)

    def fn(x, w1, w2, wh):
        s = x.mean((2, 3))
        g = jax.nn.sigmoid(jax.nn.silu(s @ w1) @ w2)
        y = x * g[:, :, None, None]
        return jax.nn.log_softmax(jnp.max(y, axis=(2, 3)) @ wh, axis=-1), y

    return Built(fn, (x, w1, w2, wh))


@case(UNSEEN, "Branches concatenated along the leading (feature) axis, as Inception and SqueezeNet "
      "do over NCHW channels at batch 1: two products and a 1x1-convolution-like product of a "
      "pooled input, joined, then a ReLU and a product over all of them.", rtol=1e-4, atol=1e-4)
def feature_concat(size):
    rng = np.random.default_rng(948)
    c, a, b, p, o = (6, 4, 5, 3, 7) if size == "test" else (256, 192, 128, 64, 384)
    s = 10 if size == "test" else 784
    x = normal(rng, (c, s))
    wa, wb, wp, wo = (normal(rng, sh, 1 / np.sqrt(sh[1])) for sh in [(a, c), (b, c), (p, c), (o, a + b + p)])

    def fn(x, wa, wb, wp, wo):
        pooled = jnp.maximum(x, jnp.roll(x, 1, axis=1))
        y = jnp.concatenate([wa @ x, jnp.tanh(wb @ x), wp @ pooled], axis=0)
        return wo @ jax.nn.relu(y)

    return Built(fn, (x, wa, wb, wp, wo))
