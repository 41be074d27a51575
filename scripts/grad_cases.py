"""Forward programs and their JAX gradients, for testing `smelt grad`.

Each case registers, in the `grad` set, the function `value_and_grad(loss)`
flattened to `(loss, d loss / d arg for each arg in WRT)`: the case folder
that `gen.py` writes from it holds JAX's gradient module (`module.hlo`) and the
gradients XLA computed (`out*.npy`). `scripts/gen_grad_cases.py` adds the
forward program itself (`forward.hlo`, the loss alone) and which parameters to
differentiate (`grad_wrt` in `case.json`), so a test can differentiate the
forward module with smelt and compare with XLA's gradients.

The losses mix what training programs are made of: dense layers and MLPs,
softmax cross-entropy, convolutions with strides, padding, dilation and
feature groups in both layouts, average and max pooling, attention with layer
norm, an unrolled LSTM, elementwise math with kinks (abs, clip, max, where),
data movement (slices with strides, pads, concatenation, reversal, dynamic
slices and updates), reductions (max, min, logsumexp) and bf16 layers. Every
corpus program in tests/corpus whose first output is a floating-point scalar
is a case too (`corpus_<name>`: its own module is the forward program).
"""

import numpy as np
import jax
import jax.numpy as jnp
from jax import lax

from cases import Built, Registry, case, normal

GRAD = Registry("grad")

# Per case: the loss function and the argument numbers differentiated.
FORWARD = {}


def with_grads(name, loss, wrt, args):
    """`value_and_grad(loss)` over arguments `wrt`, flattened to `(loss, grads...)`,
    as a case; records the loss and `wrt` in FORWARD."""
    FORWARD[name] = (loss, tuple(wrt))

    def fn(*a):
        value, grads = jax.value_and_grad(loss, argnums=tuple(wrt))(*a)
        return (value, *grads)

    return Built(fn, args)


def corpus_grads(name, fn, args):
    """A corpus program whose first output is a floating-point scalar: its
    first output differentiated with respect to every argument whose leaves
    are all floating point. The forward program is the corpus program itself
    (all its outputs); `grad_wrt` lists the entry parameters (flattened leaves)
    those arguments become."""
    argnums, wrt, at = [], [], 0
    for i, a in enumerate(args):
        leaves = jax.tree_util.tree_leaves(a)
        if all(np.issubdtype(np.asarray(x).dtype, np.floating) for x in leaves):
            argnums.append(i)
            wrt.extend(range(at, at + len(leaves)))
        at += len(leaves)
    FORWARD[name] = (fn, tuple(wrt))

    def first(*a):
        return jax.tree_util.tree_leaves(fn(*a))[0]

    def grads(*a):
        value, gs = jax.value_and_grad(first, argnums=tuple(argnums))(*a)
        return (value, *jax.tree_util.tree_leaves(gs))

    return Built(grads, args)


@case(GRAD, "Two-layer MLP (tanh, relu), mean squared error.", rtol=1e-4, atol=1e-5)
def grad_mlp_mse(size):
    rng = np.random.default_rng(1101)
    n, d, h, o = 16, 12, 24, 3
    args = (normal(rng, (d, h), 0.3), normal(rng, (h,), 0.1), normal(rng, (h, o), 0.3), normal(rng, (o,), 0.1),
            normal(rng, (n, d)), normal(rng, (n, o)))

    def loss(w1, b1, w2, b2, x, y):
        hid = jax.nn.relu(jnp.tanh(x @ w1 + b1) * 2.0 - 0.3)
        return jnp.mean((hid @ w2 + b2 - y) ** 2)

    return with_grads("grad_mlp_mse", loss, (0, 1, 2, 3), args)


@case(GRAD, "Softmax regression: log-softmax cross-entropy against one-hot labels of an int input.", rtol=1e-4, atol=1e-5)
def grad_softmax_xent(size):
    rng = np.random.default_rng(1102)
    n, d, k = 32, 20, 10
    labels = rng.integers(0, k, size=(n,)).astype(np.int32)
    args = (normal(rng, (d, k), 0.2), normal(rng, (k,), 0.1), normal(rng, (n, d)), labels)

    def loss(w, b, x, labels):
        logits = x @ w + b
        logp = jax.nn.log_softmax(logits, axis=-1)
        return -jnp.mean(jnp.sum(jax.nn.one_hot(labels, k) * logp, axis=-1))

    return with_grads("grad_softmax_xent", loss, (0, 1), args)


@case(GRAD, "NHWC CNN: strided SAME conv, relu, 2x2 average pool, 3x3/2 max pool, dense, squared loss.", rtol=1e-4, atol=1e-5)
def grad_cnn_nhwc(size):
    rng = np.random.default_rng(1103)
    args = (normal(rng, (3, 3, 3, 8), 0.3), normal(rng, (8,), 0.1), normal(rng, (32, 4), 0.2),
            normal(rng, (2, 17, 17, 3)), normal(rng, (2, 4)))

    def loss(k, b, w, x, y):
        h = lax.conv_general_dilated(x, k, (2, 2), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
        h = jax.nn.relu(h + b)
        h = lax.reduce_window(h, 0.0, lax.add, (1, 2, 2, 1), (1, 1, 1, 1), "VALID") / 4.0
        h = lax.reduce_window(h, -jnp.inf, lax.max, (1, 3, 3, 1), (1, 2, 2, 1), "VALID")
        h = h.reshape(h.shape[0], -1)[:, :32]
        return jnp.sum((h @ w - y) ** 2)

    return with_grads("grad_cnn_nhwc", loss, (0, 1, 2), args)


@case(GRAD, "NCHW convolutions: dilated, two feature groups, explicit asymmetric padding, base dilation.", rtol=1e-4, atol=1e-5)
def grad_conv_nchw_groups(size):
    rng = np.random.default_rng(1104)
    args = (normal(rng, (6, 2, 3, 3), 0.3), normal(rng, (4, 6, 2, 2), 0.3), normal(rng, (2, 4, 11, 9)))

    def loss(k1, k2, x):
        h = lax.conv_general_dilated(x, k1, (1, 2), [(2, 1), (0, 2)], rhs_dilation=(2, 1),
                                     dimension_numbers=("NCHW", "OIHW", "NCHW"), feature_group_count=2)
        h = jnp.sin(h)
        h = lax.conv_general_dilated(h, k2, (1, 1), [(1, 1), (1, 0)], lhs_dilation=(2, 1),
                                     dimension_numbers=("NCHW", "OIHW", "NCHW"))
        return jnp.sum(h * h) * 0.01

    return with_grads("grad_conv_nchw_groups", loss, (0, 1, 2), args)


@case(GRAD, "Attention block with layer norm: batched dot_generals, softmax, mean/variance, rsqrt.", rtol=1e-4, atol=1e-5)
def grad_attention_layernorm(size):
    rng = np.random.default_rng(1105)
    b, s, d = 2, 6, 8
    args = (normal(rng, (d, d), 0.3), normal(rng, (d, d), 0.3), normal(rng, (d, d), 0.3),
            normal(rng, (d,), 0.1) + 1.0, normal(rng, (d,), 0.1), normal(rng, (b, s, d)), normal(rng, (b, s, d)))

    def loss(wq, wk, wv, gamma, beta, x, target):
        q, k, v = x @ wq, x @ wk, x @ wv
        att = jax.nn.softmax(jnp.einsum("bqd,bkd->bqk", q, k) / np.sqrt(d), axis=-1)
        h = jnp.einsum("bqk,bkd->bqd", att, v) + x
        mu = h.mean(-1, keepdims=True)
        var = ((h - mu) ** 2).mean(-1, keepdims=True)
        y = (h - mu) * lax.rsqrt(var + 1e-5) * gamma + beta
        return jnp.mean((y - target) ** 2)

    return with_grads("grad_attention_layernorm", loss, (0, 1, 2, 3, 4, 5), args)


@case(GRAD, "An LSTM unrolled over 5 steps, gates sliced from one product, loss on the last state.", rtol=1e-4, atol=1e-5)
def grad_lstm_unrolled(size):
    rng = np.random.default_rng(1106)
    n, d, h, t = 4, 3, 5, 5
    args = (normal(rng, (d, 4 * h), 0.3), normal(rng, (h, 4 * h), 0.3), normal(rng, (4 * h,), 0.1),
            normal(rng, (t, n, d)))

    def loss(wx, wh, b, xs):
        hs = jnp.zeros((n, h))
        cs = jnp.zeros((n, h))
        for step in range(t):
            z = xs[step] @ wx + hs @ wh + b
            i, f, g, o = jnp.split(z, 4, axis=-1)
            cs = jax.nn.sigmoid(f) * cs + jax.nn.sigmoid(i) * jnp.tanh(g)
            hs = jax.nn.sigmoid(o) * jnp.tanh(cs)
        return jnp.sum(hs ** 2) + 0.1 * jnp.sum(cs)

    return with_grads("grad_lstm_unrolled", loss, (0, 1, 2), args)


@case(GRAD, "Elementwise math: exp, log1p, expm1, sqrt, sigmoid, sin, cos, tan, erf, cbrt, pow, atan2, abs,"
           " clip, where, maximum, minimum, division.", rtol=1e-4, atol=1e-5)
def grad_elementwise_zoo(size):
    rng = np.random.default_rng(1107)
    a = normal(rng, (6, 7))
    c = np.abs(normal(rng, (6, 7))) + 0.5
    args = (a, c)

    def loss(a, c):
        t = jnp.exp(0.3 * a) + jnp.log1p(c) + jnp.expm1(0.2 * a) + jnp.sqrt(c) + jax.nn.sigmoid(a)
        t = t + jnp.sin(a) * jnp.cos(c) + jnp.tan(0.3 * a) + lax.erf(a) + jnp.cbrt(c) + c ** 1.7
        t = t + jnp.arctan2(a, c) + jnp.abs(a) + jnp.clip(a, -0.5, 0.7) + jnp.where(a > 0, a * c, -c)
        t = t + jnp.maximum(a, 0.1 * c) - jnp.minimum(a, c) + a / c + lax.rsqrt(c) + jnp.log(c)
        return jnp.sum(t * t) * 0.01

    return with_grads("grad_elementwise_zoo", loss, (0, 1), args)


@case(GRAD, "Data movement: strided slices, pads (interior and negative), concatenation, reversal,"
           " transposes, dynamic slice and dynamic update at an int input.", rtol=1e-4, atol=1e-5)
def grad_data_movement(size):
    rng = np.random.default_rng(1108)
    args = (normal(rng, (8, 10)), normal(rng, (3, 4)), np.array(2, dtype=np.int32))

    def loss(x, u, i):
        s = x[1:7:2, ::3]
        p = lax.pad(s, 0.5, [(1, -1, 1), (2, 0, 0)])
        cat = jnp.concatenate([p, jnp.flip(p, axis=1)], axis=1)
        t = cat.T @ cat
        d = lax.dynamic_slice(x, (i, i + 1), (3, 4))
        upd = lax.dynamic_update_slice(x, u * d, (i + 1, 3))
        return jnp.sum(t) * 0.01 + jnp.sum(jnp.sin(upd)) + jnp.sum(d * d)

    return with_grads("grad_data_movement", loss, (0, 1), args)


@case(GRAD, "Reductions: max and min over axes, logsumexp, mean, product-free statistics.", rtol=1e-4, atol=1e-5)
def grad_reductions(size):
    rng = np.random.default_rng(1109)
    args = (normal(rng, (5, 6, 7)),)

    def loss(x):
        m = jnp.max(x, axis=2)
        n = jnp.min(x, axis=(0, 2))
        lse = jax.nn.logsumexp(x, axis=1)
        return jnp.sum(m * m) + jnp.sum(n) + jnp.mean(lse) + jnp.var(x)

    return with_grads("grad_reductions", loss, (0,), args)


@case(GRAD, "A bf16 layer: bf16 weights and activations, f32 accumulation, f32 loss.",
           rtol=2e-2, atol=2e-2)
def grad_bf16_dense(size):
    rng = np.random.default_rng(1110)
    bf = jnp.bfloat16
    args = (normal(rng, (16, 8), 0.3).astype(bf), normal(rng, (8,), 0.1).astype(bf),
            normal(rng, (12, 16)).astype(bf))

    def loss(w, b, x):
        h = jnp.dot(x, w, preferred_element_type=jnp.float32) + b.astype(jnp.float32)
        return jnp.mean(jnp.tanh(h) ** 2)

    return with_grads("grad_bf16_dense", loss, (0, 1), args)


@case(GRAD, "Embedding lookup (gather rows by int ids, some repeated), mean-pooled, dense, squared loss.",
      rtol=1e-4, atol=1e-5)
def grad_embedding_bag(size):
    rng = np.random.default_rng(1111)
    v, d, n, s = 11, 6, 4, 5
    ids = rng.integers(0, v, size=(n, s)).astype(np.int32)
    ids[0, :2] = 3
    args = (normal(rng, (v, d), 0.5), normal(rng, (d, 2), 0.3), ids, normal(rng, (n, 2)))

    def loss(table, w, ids, y):
        e = jnp.take(table, ids, axis=0).mean(axis=1)
        return jnp.sum((jnp.tanh(e) @ w - y) ** 2)

    return with_grads("grad_embedding_bag", loss, (0, 1), args)



@case(GRAD, "Gathers with clipped out-of-range indices (take_along_axis, clip mode) and scatter-adds"
      " (segment_sum, .at[].add with an index past the end, dropped).", rtol=1e-4, atol=1e-5)
def grad_gather_scatter(size):
    rng = np.random.default_rng(1112)
    seg = np.array([0, 2, 2, 1, 0, 3, 3, 3], dtype=np.int32)
    cols = rng.integers(0, 7, size=(5, 3)).astype(np.int32)
    cols[0, 0] = 9
    at = np.array([1, 4, 4, 6], dtype=np.int32)
    args = (normal(rng, (5, 7)), normal(rng, (8, 3)), normal(rng, (4,)), cols, seg, at)

    def loss(x, v, u, cols, seg, at):
        picked = jnp.take_along_axis(x, cols, axis=1, mode="clip")
        sums = jax.ops.segment_sum(v * v, seg, num_segments=4)
        y = jnp.zeros((6,)).at[at].add(u * 2.0, mode="drop")
        return jnp.sum(picked ** 3) + jnp.sum(jnp.sin(sums)) + jnp.sum(y * jnp.arange(6.0))

    return with_grads("grad_gather_scatter", loss, (0, 1, 2), args)


@case(GRAD, "Cumulative sums, maxima and minima along axes (reduce-window scans), and a strided min pool.", rtol=1e-4, atol=1e-5)
def grad_cumulative(size):
    rng = np.random.default_rng(1113)
    args = (normal(rng, (4, 9)),)

    def loss(x):
        c = jnp.cumsum(x, axis=1)
        r = jnp.cumsum(x[:, ::-1], axis=0)
        m = lax.cummax(x, axis=1)
        n = lax.cummin(x, axis=0)
        pool = lax.reduce_window(x, jnp.inf, lax.min, (2, 3), (1, 2), "VALID")
        return jnp.sum(c * c) * 0.1 + jnp.sum(jnp.tanh(r)) + jnp.sum(m) + jnp.sum(n * n) + jnp.sum(pool ** 3)

    return with_grads("grad_cumulative", loss, (0,), args)


@case(GRAD, "An RNN as a fori_loop (constant bounds): the counter indexes the inputs; loss on the final state.",
      rtol=1e-4, atol=1e-5)
def grad_fori_rnn(size):
    rng = np.random.default_rng(1114)
    t, n, d, h = 6, 3, 4, 5
    args = (normal(rng, (h, h), 0.4), normal(rng, (d, h), 0.4), normal(rng, (n, h)), normal(rng, (t, n, d)))

    def loss(w, u, h0, xs):
        def step(i, hs):
            return jnp.tanh(hs @ w + xs[i] @ u)

        hs = lax.fori_loop(0, t, step, h0)
        return jnp.sum(hs ** 2)

    return with_grads("grad_fori_rnn", loss, (0, 1, 2), args)


@case(GRAD, "A scan whose per-step outputs are stacked, and nested fori_loops writing rows of a buffer.",
      rtol=1e-4, atol=1e-5)
def grad_scan_nested(size):
    rng = np.random.default_rng(1115)
    args = (normal(rng, (4, 4), 0.4), normal(rng, (5, 4)), normal(rng, (4,)))

    def loss(w, xs, c0):
        def cell(c, x):
            c = jnp.sin(c @ w) + x
            return c, c * c

        c, ys = lax.scan(cell, c0, xs)

        def outer(i, buf):
            def inner(j, row):
                return row * 0.9 + jnp.cos(row) * w[j]

            row = lax.fori_loop(0, 4, inner, buf[i])
            return buf.at[i].set(row)

        buf = lax.fori_loop(0, 3, outer, ys)
        return jnp.sum(buf) + jnp.sum(c ** 2)

    return with_grads("grad_scan_nested", loss, (0, 1, 2), args)


@case(GRAD, "Conditionals on run-time values: lax.cond on a data-dependent predicate, lax.switch on an int"
      " input, one inside a fori_loop.", rtol=1e-4, atol=1e-5)
def grad_conditionals(size):
    rng = np.random.default_rng(1116)
    args = (normal(rng, (4, 5)), normal(rng, (5,)), np.array(2, dtype=np.int32))

    def loss(x, v, k):
        a = lax.cond(jnp.sum(x) > 0.0, lambda t: jnp.sin(t[0]) * t[1], lambda t: t[0] * 2.0 + t[1] ** 2, (x, v))
        b = lax.switch(k, [lambda t: jnp.tanh(t), lambda t: t ** 3, lambda t: jnp.exp(-t * t)], x @ v)

        def body(i, c):
            return lax.cond(i % 2 == 0, lambda u: u * jnp.cos(u), lambda u: u + 0.5 * u * u, c)

        c = lax.fori_loop(0, 3, body, v)
        return jnp.sum(a * a) + jnp.sum(b) + jnp.sum(c)

    return with_grads("grad_conditionals", loss, (0, 1), args)


@case(GRAD, "Sorts (values, a key-value sort along an axis, top-k by sorting) and products (with a zero).",
      rtol=1e-4, atol=1e-5)
def grad_sort_prod(size):
    rng = np.random.default_rng(1117)
    x = normal(rng, (4, 6))
    x[1, 2] = 0.0
    args = (x, normal(rng, (4, 6)))

    def loss(x, v):
        s = jnp.sort(x, axis=1)
        _, carried = lax.sort((x[:, 0], v[:, 1]), num_keys=1)
        top = jnp.sort(x.ravel())[-5:]
        p = jnp.prod(x, axis=1) + jnp.prod(v[:, :3] + 2.0, axis=0).sum()
        return jnp.sum(s * jnp.arange(6.0)) + jnp.sum(carried ** 2) + jnp.sum(top ** 3) + jnp.sum(p)

    return with_grads("grad_sort_prod", loss, (0, 1), args)


def _register_corpus_cases():
    """Every corpus program in tests/corpus whose first output is a
    floating-point scalar, as `corpus_<name>` (built from its `jax_source`)."""
    import json
    import os

    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "corpus")
    for name in sorted(os.listdir(root)):
        path = os.path.join(root, name, "case.json")
        if not os.path.isfile(path):
            continue
        meta = json.load(open(path))
        outs = meta.get("outputs", [])
        if not outs or outs[0]["shape"] != [] or outs[0]["dtype"] not in ("f32", "f64"):
            continue

        def builder(size, meta=meta, name=name):
            namespace = {"__name__": f"corpus_{name}"}
            exec(compile(meta["jax_source"], f"<{name} jax_source>", "exec"), namespace)
            built = namespace[name]("test")
            return corpus_grads(f"corpus_{name}", built.fn, built.args)

        builder.__name__ = f"corpus_{name}"
        builder.__qualname__ = builder.__name__
        source = meta["jax_source"] + f"\n\n# corpus_{name}: value_and_grad of the first output (scripts/grad_cases.py)\n"
        builder._source = source
        tol = meta.get("tolerance", {})
        GRAD[builder.__name__] = _corpus_case(builder, f"Gradient of corpus program {name}'s first output.",
                                              max(tol.get("rtol", 1e-5), 1e-4), max(tol.get("atol", 1e-6), 1e-5))


def _corpus_case(builder, description, rtol, atol):
    import cases

    c = cases.Case(builder.__name__, description, builder, rtol, atol, (), False, GRAD.name)
    c.source = lambda: builder._source
    return c


_register_corpus_cases()
