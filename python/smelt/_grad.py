"""``smelt.grad``: gradients computed by smelt's own reverse-mode autodiff.

``smelt.grad(module)`` differentiates a module (HLO or StableHLO text, a path,
or bytes) whose entry returns a scalar loss and returns the gradient module as
HLO text (``smelt grad`` on the command line; docs/autodiff.md).

``smelt.grad(fn, argnums=0)`` is a drop-in for ``jax.grad`` on the host: JAX
traces and lowers ``fn`` (the *forward* function only, once per argument
signature); smelt differentiates the lowered module, compiles the gradient
module and runs it. The result has the structure ``jax.grad`` gives: the
gradient of the argument ``argnums`` names (a pytree like it), or a tuple of
them for a tuple of ``argnums``.
"""

import os

import numpy as np

from . import _smelt
from ._jit import _argnums, _needs_jax


def grad(fun_or_module, argnums=0, *, backend="tiered", wrt=None, format=None):
    """Gradients by smelt's autodiff: of a module (returns the gradient module's
    HLO text; ``wrt`` picks entry parameters) or of a JAX-traceable function
    (returns a function, as ``jax.grad``)."""
    if isinstance(fun_or_module, (str, bytes, bytearray, os.PathLike)):
        return _smelt.grad(fun_or_module, None if wrt is None else list(wrt), format)
    if not callable(fun_or_module):
        raise TypeError(f"smelt.grad takes a module or a function, not {type(fun_or_module).__name__}")
    return _GradFunction(fun_or_module, argnums, backend)


class _GradFunction:
    def __init__(self, fn, argnums, backend):
        self._fn = fn
        self._single = isinstance(argnums, int)
        self._argnums = _argnums(argnums, "argnums")
        self._backend = backend
        self._cache = {}

    def __call__(self, *args):
        jax = _needs_jax()
        for n in self._argnums:
            if not -len(args) <= n < len(args):
                raise ValueError(f"argnums {n} is out of range for {len(args)} arguments")
        argnums = tuple(n % len(args) for n in self._argnums)
        leaves_per_arg = [jax.tree_util.tree_flatten(a) for a in args]
        leaves = [np.asarray(x) for ls, _ in leaves_per_arg for x in ls]
        key = (
            tuple(treedef for _, treedef in leaves_per_arg),
            tuple((x.shape, x.dtype.str) for x in leaves),
            argnums,
        )
        entry = self._cache.get(key)
        if entry is None:
            entry = self._compile(jax, args, leaves_per_arg, argnums)
            self._cache[key] = entry
        exe, spans = entry
        out = exe(*leaves)
        grads = []
        at = 1
        for n in argnums:
            count, treedef = spans[n]
            grads.append(jax.tree_util.tree_unflatten(treedef, out[at : at + count]))
            at += count
        return grads[0] if self._single else tuple(grads)

    def _compile(self, jax, args, leaves_per_arg, argnums):
        text = jax.jit(self._fn, keep_unused=True).lower(*args).compiler_ir("hlo").as_hlo_text()
        spans, wrt, at = {}, [], 0
        for i, (ls, treedef) in enumerate(leaves_per_arg):
            if i in argnums:
                spans[i] = (len(ls), treedef)
                wrt.extend(range(at, at + len(ls)))
            at += len(ls)
        module = _smelt.grad(text, wrt, "hlo")
        return _smelt.compile(module, self._backend, "hlo"), spans
