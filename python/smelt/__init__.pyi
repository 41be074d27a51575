from typing import Any, Callable, Optional, Sequence, Union

from . import onnx as onnx
from ._jit import JitFunction as JitFunction
from ._smelt import (
    Executable as Executable,
    InvalidInputError as InvalidInputError,
    ShapeMismatchError as ShapeMismatchError,
    SmeltError as SmeltError,
    UnsupportedOperationError as UnsupportedOperationError,
    __version__ as __version__,
    cache_stats as cache_stats,
    compile as compile,
)

BACKENDS: tuple[str, ...]

def jit(
    fn: Optional[Callable[..., Any]] = None,
    *,
    static_argnums: Union[int, Sequence[int]] = (),
    static_argnames: Union[str, Sequence[str]] = (),
    donate_argnums: Union[int, Sequence[int]] = (),
    backend: str = "tiered",
    return_jax: bool = False,
) -> Any: ...

def grad(
    fun_or_module: Any,
    argnums: Union[int, Sequence[int]] = 0,
    *,
    backend: str = "tiered",
    wrt: Optional[Sequence[int]] = None,
    format: Optional[str] = None,
) -> Any: ...
