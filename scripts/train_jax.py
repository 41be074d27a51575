#!/usr/bin/env python3
"""The training examples' models trained by JAX on this machine, for steps per
second beside smelt's (`cargo run --release --example train_...`).

    python scripts/train_jax.py softmax [STEPS]

softmax: softmax regression on examples/data/digits_*.npy, full batch of the
first 1,437 images, momentum 0.9 at learning rate 0.5, as
examples/train_softmax_regression.rs; prints the loss every 25 steps, test
accuracy on the other 360 images, and steps per second (the first, compiling,
step not timed).
"""

import os
import sys
import time

import numpy as np
import jax
import jax.numpy as jnp

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


if __name__ == "__main__":
    which = sys.argv[1] if len(sys.argv) > 1 else "softmax"
    steps = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    {"softmax": softmax}[which](steps)
