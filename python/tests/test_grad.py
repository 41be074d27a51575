"""smelt.grad against jax.grad: smelt differentiates the lowered forward
function itself; gradient modules from text; refusals."""

import os

import numpy as np
import pytest

jax = pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402
from jax import lax  # noqa: E402

import smelt  # noqa: E402

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")


def rand(rng, *shape, scale=1.0):
    return (rng.normal(size=shape) * scale).astype(np.float32)


def mlp(params, x, y):
    h = jnp.tanh(x @ params["w1"] + params["b1"])
    return jnp.mean((h @ params["w2"] - y) ** 2)


def conv_pool(k, x):
    h = lax.conv_general_dilated(x, k, (2, 1), "SAME", dimension_numbers=("NCHW", "OIHW", "NCHW"))
    h = lax.reduce_window(jax.nn.relu(h), -jnp.inf, lax.max, (1, 1, 2, 2), (1, 1, 2, 2), "VALID")
    return jnp.sum(h * h)


def loop(w, h0):
    return jnp.sum(lax.fori_loop(0, 4, lambda i, h: jnp.sin(h @ w) + 0.1 * i, h0) ** 2)


@pytest.mark.parametrize("backend", ["interp", "cpu", "tiered"])
def test_pytree_gradients_match_jax(backend):
    rng = np.random.default_rng(1)
    params = {"w1": rand(rng, 5, 7), "b1": rand(rng, 7), "w2": rand(rng, 7, 2)}
    x, y = rand(rng, 9, 5), rand(rng, 9, 2)
    got = smelt.grad(mlp, backend=backend)(params, x, y)
    want = jax.grad(mlp)(params, x, y)
    assert set(got) == set(want)
    for k in want:
        np.testing.assert_allclose(got[k], want[k], rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("fn, shapes", [(conv_pool, [(4, 3, 3, 3), (2, 3, 8, 6)]), (loop, [(3, 3), (2, 3)])])
def test_argnums_tuples_match_jax(fn, shapes):
    rng = np.random.default_rng(2)
    args = [rand(rng, *s, scale=0.5) for s in shapes]
    got = smelt.grad(fn, argnums=(0, 1), backend="cpu")(*args)
    want = jax.grad(fn, argnums=(0, 1))(*args)
    assert isinstance(got, tuple) and len(got) == 2
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-5)


def test_module_text_and_files():
    text = "HloModule m\nENTRY e {\n  x = f32[3] parameter(0)\n  n = s32[] parameter(1)\n  " \
           "s = f32[3] sine(x)\n  z = f32[] constant(0)\n  ROOT l = f32[] reduce(s, z), dimensions={0}, " \
           "to_apply=add\n}\nadd {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT c = f32[] add(a, b)\n}\n"
    g = smelt.grad(text)
    assert "ROOT" in g and "cosine" in g
    exe = smelt.compile(g, "cpu")
    x = np.array([0.0, 1.0, 2.0], np.float32)
    loss, dx = exe(x, np.int32(0))
    np.testing.assert_allclose(dx, np.cos(x), rtol=1e-6)
    np.testing.assert_allclose(loss, np.sin(x).sum(), rtol=1e-6)
    forward = os.path.join(ROOT, "tests", "grad", "grad_mlp_mse", "forward.hlo")
    assert smelt.grad(forward, wrt=[0]).startswith("HloModule")


def test_while_loop_with_a_run_time_trip_count_matches_forward_mode():
    # jax.grad refuses reverse mode through while_loop; smelt recomputes each
    # iteration's state, and JAX's forward mode is the reference.
    def until_large(x):
        return jnp.sum(lax.while_loop(lambda c: jnp.sum(c) < 100.0, lambda c: jnp.sin(c) + c * 2.0, x) ** 2)

    x = np.array([0.5, 1.0, -0.25, 2.0], np.float32)
    with pytest.raises(ValueError):
        jax.grad(until_large)(x)
    got = smelt.grad(until_large, backend="cpu")(x)
    np.testing.assert_allclose(got, jax.jacfwd(until_large)(x), rtol=1e-4, atol=1e-4)


def test_refusals_raise_typed_errors():
    with pytest.raises(smelt.UnsupportedOperationError, match="complex numbers are not differentiated yet"):
        smelt.grad(lambda x: jnp.sum(jnp.abs(jnp.fft.fft(x)) ** 2))(np.ones(8, np.float32))
    with pytest.raises(smelt.InvalidInputError, match="only floating-point arrays have gradients"):
        smelt.grad("HloModule m\nENTRY e {\n  n = s32[] parameter(0)\n  ROOT x = f32[] constant(1)\n}\n", wrt=[0])
    with pytest.raises(TypeError):
        smelt.grad(42)
