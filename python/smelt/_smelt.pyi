"""Type stubs for smelt's native module (python/src/lib.rs)."""

import os
from typing import Any, Optional, Sequence, Union

import numpy as np

__version__: str

class SmeltError(Exception):
    """Everything smelt raises. The message is the one the smelt CLI prints."""

class InvalidInputError(SmeltError):
    """A program or model that cannot be read (syntax error at file:line:col, a module that does not verify)."""

class UnsupportedOperationError(SmeltError):
    """A valid program that uses an operation or type smelt does not implement."""

class ShapeMismatchError(SmeltError):
    """Arguments of the wrong number, shape or dtype for a compiled program."""

_Shape = tuple[int, ...]

class Executable:
    """A compiled HLO module: one array per flattened parameter in, the flattened results out."""

    def __call__(self, *args: Any) -> list[np.ndarray]: ...
    @property
    def params(self) -> list[tuple[_Shape, np.dtype]]: ...
    @property
    def results(self) -> list[tuple[_Shape, np.dtype]]: ...
    @property
    def tier(self) -> str: ...
    @property
    def stats(self) -> dict[str, Any]: ...
    def wait_optimized(self, timeout: Optional[float] = None) -> bool: ...

def compile(
    hlo: Union[str, bytes, "os.PathLike[str]"], backend: str = "tiered", format: Optional[str] = None
) -> Executable: ...
def cache_stats(backend: str = "tiered") -> dict[str, Any]: ...
def grad(
    hlo: Union[str, bytes, "os.PathLike[str]"], wrt: Optional[list[int]] = None, format: Optional[str] = None
) -> str: ...
def _shutdown() -> None: ...

_Dim = Union[int, str, None]

class OnnxSession:
    def __init__(self, model: Union[str, bytes, "os.PathLike[str]"], backend: str = "tiered") -> None: ...
    def inputs(self) -> list[tuple[str, Optional[list[_Dim]], str]]: ...
    def outputs(self) -> list[tuple[str, Optional[list[_Dim]], str]]: ...
    def run(self, fetches: Optional[Sequence[str]], feeds: dict[str, Any]) -> list[np.ndarray]: ...
