"""smelt: an XLA-style tensor compiler, from Python.

- ``smelt.compile(hlo, backend="tiered", format=None)``: compile a module (HLO
  or StableHLO text, a path to a module file, or bytes, including a serialized
  HloModuleProto; ``format`` is "hlo", "proto" or "stablehlo", detected when
  omitted) to an :class:`Executable` that takes and returns NumPy arrays.
- ``smelt.jit(fn, ...)``: a drop-in for ``jax.jit`` on the host. JAX traces and
  lowers ``fn`` once per argument signature; smelt compiles and runs it
  (needs JAX: ``pip install ./python[jax]``).
- ``smelt.grad(fn, argnums=0)``: a drop-in for ``jax.grad`` whose gradients
  smelt's own autodiff computes from the lowered forward function;
  ``smelt.grad(module)`` returns a module's gradient module as HLO text.
- ``smelt.onnx.InferenceSession(model)``: onnxruntime's session API over
  smelt's ONNX importer and graph clustering.

Errors raise :class:`SmeltError` or one of its subclasses
(:class:`InvalidInputError`, :class:`UnsupportedOperationError`,
:class:`ShapeMismatchError`) with the message the ``smelt`` CLI prints.
Compilations are cached per process (one cache per backend, shared by every
``compile`` call and every ``smelt.jit`` function) and on disk when
``SMELT_CACHE_DIR`` is set. See docs/python.md.
"""

import atexit as _atexit

from ._smelt import (
    Executable,
    InvalidInputError,
    ShapeMismatchError,
    SmeltError,
    UnsupportedOperationError,
    __version__,
    cache_stats,
    compile,
)
from ._smelt import _shutdown
from ._grad import grad
from ._jit import JitFunction, jit
from . import onnx

# A process must not exit while LLVM compiles on a background thread.
_atexit.register(_shutdown)

BACKENDS = ("tiered", "cpu", "cranelift", "interp")

__all__ = [
    "BACKENDS",
    "Executable",
    "InvalidInputError",
    "JitFunction",
    "ShapeMismatchError",
    "SmeltError",
    "UnsupportedOperationError",
    "__version__",
    "cache_stats",
    "compile",
    "grad",
    "jit",
    "onnx",
]
