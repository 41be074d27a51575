#!/usr/bin/env python3
"""The training examples' models trained by JAX on this machine, for steps per
second beside smelt's (`cargo run --release --example train_...`).

    python scripts/train_jax.py softmax|lstm|bert [STEPS]
    SMELT_DUMP_STEP=step.hlo python scripts/train_jax.py lstm   # also XLA's kernels and memory

softmax: softmax regression on examples/data/digits_*.npy, full batch of the
first 1,437 images, momentum 0.9 at learning rate 0.5, as
examples/train_softmax_regression.rs; prints the loss every 25 steps, test
accuracy on the other 360 images, and steps per second (the first, compiling,
step not timed).

lstm: the forecaster of examples/train_lstm_forecaster.rs (24-hour windows of
3 variables, an LSTM of 16, three dense heads, the mean of their squared
errors, Adam at 0.01, batches of 32), on a series of the same construction
with NumPy's noise; prints the loss every 25 steps and steps per second.

bert: the 2-layer tiny BERT of examples/train_bert_tiny.rs (vocabulary 12,
16 tokens, hidden 32, 4 heads, FFN 64, tanh GELU, post-LN, mean pooling;
label: first token greater than the last), Adam at 3e-3, batches of 32 from
NumPy's generator; prints the loss every 25 steps and steps per second.
"""

import os
import sys
import time

import numpy as np
import jax
import jax.numpy as jnp

DUMP = os.environ.get("SMELT_DUMP_STEP")


def report(step, *args):
    """With SMELT_DUMP_STEP=FILE: writes the training step's HLO as JAX lowers
    it (for `smelt opt --stats`) and prints XLA's view of it: instructions
    in its optimized entry computation that launch work (fusions, custom
    calls, products, loops) and its temporary bytes."""
    if not DUMP:
        return
    lowered = step.lower(*args)
    with open(DUMP, "w") as f:
        f.write(lowered.compiler_ir("hlo").as_hlo_text())
    compiled = lowered.compile()
    text = compiled.as_text()
    entry = text[text.index("ENTRY"):]
    entry = entry[: entry.index("\n}")]
    skip = (" parameter(", " constant(", " tuple(", " get-tuple-element(", " bitcast(")
    work = [l for l in entry.splitlines()[1:] if "=" in l and not any(k in l for k in skip)]
    temp = compiled.memory_analysis().temp_size_in_bytes
    print(f"XLA: {len(work)} entry instructions launching work, {temp} temporary bytes; JAX's step HLO in {DUMP}")


DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples", "data")
TRAIN = 1437


def softmax(steps):
    images = np.load(os.path.join(DATA, "digits_images.npy")).astype(np.float32) / 16.0
    labels = np.load(os.path.join(DATA, "digits_labels.npy")).astype(np.int32)
    x, y = images[:TRAIN], jax.nn.one_hot(labels[:TRAIN], 10)

    def loss(params, x, y):
        w, b = params
        return -jnp.mean(jnp.sum(y * jax.nn.log_softmax(x @ w + b, axis=-1), axis=1))

    @jax.jit
    def step(params, vel, x, y):
        value, grads = jax.value_and_grad(loss)(params, x, y)
        vel = tuple(0.9 * v + g for v, g in zip(vel, grads))
        params = tuple(p - 0.5 * v for p, v in zip(params, vel))
        return params, vel, value

    params = (jnp.zeros((64, 10)), jnp.zeros((10,)))
    vel = (jnp.zeros((64, 10)), jnp.zeros((10,)))
    report(step, params, vel, x, y)
    params, vel, value = step(params, vel, x, y)
    print(f"step    0  loss {float(value):.4f}")
    t = time.perf_counter()
    for s in range(1, steps):
        params, vel, value = step(params, vel, x, y)
        if s % 25 == 0 or s + 1 == steps:
            print(f"step {s:4d}  loss {float(value):.4f}")
    jax.block_until_ready(params)
    sps = (steps - 1) / (time.perf_counter() - t)
    pred = np.argmax(np.asarray(images[TRAIN:] @ params[0] + params[1]), axis=1)
    print(f"test accuracy {100 * np.mean(pred == labels[TRAIN:]):.1f}% on 360 held-out images")
    print(f"{sps:.0f} steps per second (full batch of {TRAIN})")


def lstm(steps):
    rng = np.random.default_rng(0)
    hours, window, hidden, batch = 3000, 24, 16, 32
    t = np.arange(hours, dtype=np.float32)
    tau = 2 * np.pi
    shared = np.zeros(hours, np.float32)
    for h in range(1, hours):
        shared[h] = 0.9 * shared[h - 1] + 0.3 * (rng.random() - 0.5)
    week = np.sin(t * tau / 168)
    temp = 0.8 * np.sin(t * tau / 24 - 1) + 0.3 * week + shared
    hum = -0.6 * temp + 0.2 * np.sin(t * tau / 24)
    load = 0.7 * np.sin(t * tau / 24) + 0.4 * week + 0.3 * np.abs(temp) + 0.0002 * t
    s = np.stack([load, temp, hum], axis=1).astype(np.float32)

    def init(shape, scale, seed):
        return (np.random.default_rng(seed).random(shape, dtype=np.float32) * 2 - 1) * scale

    params = {"W": init((4 * hidden, 3), 0.4, 1), "R": init((4 * hidden, hidden), 0.2, 2),
              "B": np.zeros(8 * hidden, np.float32),
              "heads": [(init((hidden, 1), 0.3, 10 + k), np.zeros(1, np.float32)) for k in range(3)]}

    def loss(p, x, ys):
        def cell(carry, xt):
            h, c = carry
            z = xt @ p["W"].T + h @ p["R"].T + p["B"][: 4 * hidden] + p["B"][4 * hidden:]
            i, o, f, g = jnp.split(z, 4, axis=-1)
            c = jax.nn.sigmoid(f) * c + jax.nn.sigmoid(i) * jnp.tanh(g)
            h = jax.nn.sigmoid(o) * jnp.tanh(c)
            return (h, c), None

        zeros = jnp.zeros((x.shape[0], hidden))
        (h, _), _ = jax.lax.scan(cell, (zeros, zeros), jnp.swapaxes(x, 0, 1))
        return sum(jnp.mean((h @ w + b - y) ** 2) for (w, b), y in zip(p["heads"], ys)) / 3

    @jax.jit
    def step(p, m, v, t, x, ys):
        value, g = jax.value_and_grad(loss)(p, x, ys)
        m = jax.tree_util.tree_map(lambda m, g: 0.9 * m + 0.1 * g, m, g)
        v = jax.tree_util.tree_map(lambda v, g: 0.999 * v + 0.001 * g * g, v, g)
        fix1, fix2 = 1 - 0.9 ** t, 1 - 0.999 ** t
        p = jax.tree_util.tree_map(lambda p, m, v: p - 0.01 * (m / fix1) / (jnp.sqrt(v / fix2) + 1e-8), p, m, v)
        return p, m, v, value

    zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
    m, v = zeros, zeros
    starts = np.arange(hours * 4 // 5 - window)

    def data(k):
        idx = starts[(k * 97 + np.arange(batch) * 71) % len(starts)]
        x = np.stack([s[i:i + window] for i in idx])
        return x, [s[idx + window, j:j + 1] for j in range(3)]

    report(step, params, m, v, 1.0, *data(0))

    params, m, v, value = step(params, m, v, 1.0, *data(0))
    print(f"step    0  loss {float(value):.5f}")
    t0 = time.perf_counter()
    for k in range(1, steps):
        params, m, v, value = step(params, m, v, float(k + 1), *data(k))
        if k % 25 == 0 or k + 1 == steps:
            print(f"step {k:4d}  loss {float(value):.5f}")
    jax.block_until_ready(params)
    print(f"{(steps - 1) / (time.perf_counter() - t0):.0f} steps per second (batches of {batch})")


def bert(steps):
    vocab, seq, hidden, heads, ffn, batch = 12, 16, 32, 4, 64, 32
    rng = np.random.default_rng(0)

    def dense(din, dout):
        return {"w": rng.uniform(-1, 1, (din, dout)).astype(np.float32) / np.sqrt(din), "b": np.zeros(dout, np.float32)}

    def ln():
        return {"g": np.ones(hidden, np.float32), "b": np.zeros(hidden, np.float32)}

    params = {"tok": rng.uniform(-0.5, 0.5, (vocab, hidden)).astype(np.float32),
              "pos": rng.uniform(-0.1, 0.1, (seq, hidden)).astype(np.float32),
              "layers": [{"q": dense(hidden, hidden), "k": dense(hidden, hidden), "v": dense(hidden, hidden),
                          "o": dense(hidden, hidden), "ln1": ln(), "up": dense(hidden, ffn),
                          "down": dense(ffn, hidden), "ln2": ln()} for _ in range(2)],
              "cls": dense(hidden, 2)}

    def apply(d, x):
        return x @ d["w"] + d["b"]

    def norm(p, x):
        mu = x.mean(-1, keepdims=True)
        var = ((x - mu) ** 2).mean(-1, keepdims=True)
        return (x - mu) / jnp.sqrt(var + 1e-5) * p["g"] + p["b"]

    def loss(p, ids, y):
        x = p["tok"][ids] + p["pos"]
        d = hidden // heads
        for lp in p["layers"]:
            split = lambda t: t.reshape(batch, seq, heads, d).transpose(0, 2, 1, 3)
            q, k, v = split(apply(lp["q"], x)), split(apply(lp["k"], x)), split(apply(lp["v"], x))
            a = jax.nn.softmax(q @ k.transpose(0, 1, 3, 2) / np.sqrt(d), axis=-1)
            ctx = (a @ v).transpose(0, 2, 1, 3).reshape(batch, seq, hidden)
            x = norm(lp["ln1"], apply(lp["o"], ctx) + x)
            x = norm(lp["ln2"], apply(lp["down"], jax.nn.gelu(apply(lp["up"], x), approximate=True)) + x)
        logits = apply(p["cls"], x.mean(axis=1))
        return -jnp.sum(y * jax.nn.log_softmax(logits)) / batch

    @jax.jit
    def step(p, m, v, t, ids, y):
        value, g = jax.value_and_grad(loss)(p, ids, y)
        m = jax.tree_util.tree_map(lambda m, g: 0.9 * m + 0.1 * g, m, g)
        v = jax.tree_util.tree_map(lambda v, g: 0.999 * v + 0.001 * g * g, v, g)
        fix1, fix2 = 1 - 0.9 ** t, 1 - 0.999 ** t
        p = jax.tree_util.tree_map(lambda p, m, v: p - 3e-3 * (m / fix1) / (jnp.sqrt(v / fix2) + 1e-8), p, m, v)
        return p, m, v, value

    def data():
        ids = rng.integers(0, vocab, (batch, seq))
        return ids, np.eye(2, dtype=np.float32)[(ids[:, 0] > ids[:, -1]).astype(int)]

    zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
    m, v = zeros, zeros
    report(step, params, m, v, 1.0, *data())
    params, m, v, value = step(params, m, v, 1.0, *data())
    print(f"step    0  loss {float(value):.4f}")
    t0 = time.perf_counter()
    for k in range(1, steps):
        params, m, v, value = step(params, m, v, float(k + 1), *data())
        if k % 25 == 0 or k + 1 == steps:
            print(f"step {k:4d}  loss {float(value):.4f}")
    jax.block_until_ready(params)
    print(f"{(steps - 1) / (time.perf_counter() - t0):.0f} steps per second (batches of {batch})")


if __name__ == "__main__":
    which = sys.argv[1] if len(sys.argv) > 1 else "softmax"
    steps = int(sys.argv[2]) if len(sys.argv) > 2 else {"softmax": 300, "lstm": 400, "bert": 400}[which]
    {"softmax": softmax, "lstm": lstm, "bert": bert}[which](steps)
