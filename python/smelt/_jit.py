"""``smelt.jit``: JAX functions compiled by smelt, called like ``jax.jit``'s.

How a call maps to a compilation:

1. The arguments are split into static ones (``static_argnums`` /
   ``static_argnames``, which must be hashable) and dynamic ones; the dynamic
   ones are flattened as JAX flattens them, ``((args...), {kwargs...})``.
2. The *signature* is the pytree structure, every leaf's shape and dtype (and,
   for Python scalars and ``jax.Array``s, weak typing), and the static values.
3. A signature seen before finds its executable in a dict: nothing is traced,
   lowered or compiled. A new one is lowered once by JAX
   (``jax.jit(fn, keep_unused=True, ...).lower(...)``, HLO text) and compiled
   by smelt through the process-wide cache, which every ``smelt.jit`` function
   shares (and ``SMELT_CACHE_DIR`` keeps on disk): two functions that lower
   to the same program compile it once.
4. The leaves run as the executable's flattened parameters; NumPy arrays of
   the right dtype in C order are read in place. The flattened results are
   rebuilt into ``fn``'s output structure.
"""

import functools
import inspect
import threading
import time

import numpy as np

from . import _smelt

_SCALARS = (bool, int, float, complex)


def _needs_jax():
    try:
        import jax  # noqa: F401
    except ImportError as e:  # pragma: no cover - exercised without JAX only
        raise ImportError(
            "smelt.jit needs JAX to trace and lower functions: pip install './python[jax]' "
            "(smelt.compile and smelt.onnx work without it)"
        ) from e
    return jax


def _argnums(value, what):
    if value is None:
        return ()
    if isinstance(value, int):
        return (value,)
    try:
        out = tuple(value)
    except TypeError:
        raise TypeError(f"{what} must be an int or a sequence of ints, got {value!r}") from None
    if not all(isinstance(v, int) for v in out):
        raise TypeError(f"{what} must be an int or a sequence of ints, got {value!r}")
    return out


def _argnames(value):
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    return tuple(value)


def _infer_static(fn, nums, names):
    """Fills in static_argnames from static_argnums or the reverse, from
    ``fn``'s signature, as ``jax.jit`` does when only one is given."""
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return nums, names
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if nums and not names:
        names = tuple(
            positional[i].name
            for i in nums
            if 0 <= i < len(positional) and positional[i].kind == inspect.Parameter.POSITIONAL_OR_KEYWORD
        )
    elif names and not nums:
        nums = tuple(i for i, p in enumerate(positional) if p.name in names)
    return nums, names


def _hashable(value, where):
    try:
        hash(value)
    except TypeError:
        raise ValueError(
            f"static argument {where} must be hashable (it is part of the signature), got {type(value).__name__}"
        ) from None
    return value


class _Entry:
    """What one signature compiled to."""

    __slots__ = ("exe", "out_tree", "hlo", "lower_ms", "compile_ms", "cache", "signature")

    def __init__(self, exe, out_tree, hlo, lower_ms, signature):
        self.exe = exe
        self.out_tree = out_tree
        self.hlo = hlo
        self.lower_ms = lower_ms
        self.compile_ms = exe.stats["compile_ms"]
        self.cache = exe.stats["cache"]
        self.signature = signature


class JitFunction:
    """A function compiled by smelt per argument signature (see ``smelt.jit``)."""

    def __init__(self, fn, *, static_argnums=(), static_argnames=(), donate_argnums=(), backend="tiered",
                 return_jax=False):
        if not callable(fn):
            raise TypeError(f"smelt.jit expects a callable, got {type(fn).__name__}")
        if backend not in ("tiered", "cpu", "cranelift", "interp"):
            raise ValueError(f"unknown backend {backend!r} (expected 'tiered', 'cpu', 'cranelift' or 'interp')")
        jax = _needs_jax()
        self._tree_flatten = jax.tree_util.tree_flatten
        self._tree_unflatten = jax.tree_util.tree_unflatten
        self._jax_array = jax.Array
        self._fn = fn
        nums, names = _infer_static(fn, _argnums(static_argnums, "static_argnums"), _argnames(static_argnames))
        self._static_argnums = tuple(sorted(set(nums)))
        self._static_argnames = frozenset(names)
        self._donate_argnums = _argnums(donate_argnums, "donate_argnums")
        self._backend = backend
        self._return_jax = return_jax
        self._jitted = jax.jit(
            fn,
            static_argnums=self._static_argnums,
            static_argnames=tuple(sorted(self._static_argnames)),
            donate_argnums=self._donate_argnums,
            keep_unused=True,
        )
        self._entries = {}
        self._lock = threading.Lock()
        self._last = None
        functools.update_wrapper(self, fn)

    # -- signatures -------------------------------------------------------

    def _leaf_key(self, x):
        t = type(x)
        if t is np.ndarray:
            return (x.shape, x.dtype)
        if t in _SCALARS:
            return t  # weakly typed: JAX gives it the default type of its kind
        if isinstance(x, self._jax_array):
            return (x.shape, x.dtype, x.weak_type)
        if isinstance(x, np.generic):
            return ((), x.dtype)
        a = np.asarray(x)
        return (a.shape, a.dtype, t)

    def _split(self, args, kwargs):
        """(dynamic pytree, static key): the statics removed, as JAX removes them."""
        statics = ()
        if self._static_argnums:
            n = len(args)
            nums = {i if i >= 0 else i + n for i in self._static_argnums}
            statics = tuple((i, _hashable(args[i], f"{i}")) for i in sorted(nums) if 0 <= i < n)
            args = tuple(a for i, a in enumerate(args) if i not in nums)
        if kwargs and self._static_argnames:
            statics += tuple(
                (k, _hashable(v, repr(k))) for k, v in sorted(kwargs.items()) if k in self._static_argnames
            )
            kwargs = {k: v for k, v in kwargs.items() if k not in self._static_argnames}
        return (args, kwargs), statics

    def _signature(self, args, kwargs):
        dynamic, statics = self._split(args, kwargs)
        leaves, treedef = self._tree_flatten(dynamic)
        key = (treedef, statics, tuple(map(self._leaf_key, leaves)))
        return key, leaves, treedef

    # -- calls ------------------------------------------------------------

    def __call__(self, *args, **kwargs):
        key, leaves, _ = self._signature(args, kwargs)
        entry = self._entries.get(key)
        hit = entry is not None
        if not hit:
            entry = self._compile(key, args, kwargs)
        outs = entry.exe(*leaves)
        self._last = (entry, hit)
        if self._return_jax:
            import jax.numpy as jnp

            outs = [jnp.asarray(o) for o in outs]
        return self._tree_unflatten(entry.out_tree, outs)

    def _lowered(self, args, kwargs):
        return self._jitted.lower(*args, **kwargs)

    def _compile(self, key, args, kwargs):
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None:
                return entry
            start = time.perf_counter()
            lowered = self._lowered(args, kwargs)
            hlo = lowered.compiler_ir("hlo").as_hlo_text(print_large_constants=True)
            lower_ms = (time.perf_counter() - start) * 1e3
            treedef = key[0]  # the flattening this call was keyed by
            if lowered.in_tree != treedef:
                raise _smelt.SmeltError(
                    f"smelt.jit: JAX flattened the arguments as {lowered.in_tree}, expected {treedef}; "
                    "please report this"
                )
            exe = _smelt.compile(hlo, self._backend)
            entry = _Entry(exe, lowered.out_tree, hlo, lower_ms, key)
            self._entries[key] = entry
            return entry

    # -- inspection -------------------------------------------------------

    def lower(self, *args, **kwargs):
        """The HLO text JAX lowers ``fn`` to for these arguments (what smelt compiles)."""
        lowered = self._lowered(args, kwargs)
        return lowered.compiler_ir("hlo").as_hlo_text(print_large_constants=True)

    def executable(self, *args, **kwargs):
        """The :class:`smelt.Executable` for these arguments' signature (compiled if new)."""
        key, _, _ = self._signature(args, kwargs)
        entry = self._entries.get(key)
        return entry.exe if entry is not None else self._compile(key, args, kwargs).exe

    @property
    def signatures(self):
        """How many argument signatures this function has compiled."""
        return len(self._entries)

    def explain(self):
        """What the last call ran: whether it compiled, the tier, the executable's counters."""
        if self._last is None:
            return f"smelt.jit({self.__name__}): not called yet"
        entry, hit = self._last
        s = entry.exe.stats
        params = ", ".join(f"{np.dtype(d).name}{list(shape)}" for shape, d in entry.exe.params)
        lines = [f"smelt.jit({self.__name__}) on backend {self._backend}: last call"]
        lines.append(f"  signature: ({params})" + (f", static {entry.signature[1]}" if entry.signature[1] else ""))
        if hit:
            lines.append("  compiled nothing: signature cache hit")
        else:
            how = "compiled" if entry.cache == "miss" else "found in the process-wide cache (another function or call compiled it)"
            lines.append(f"  new signature: lowered by JAX in {entry.lower_ms:.1f} ms, {how} in {entry.compile_ms:.1f} ms")
        lines.append(f"  ran on tier {s['tier']} (next call: {s['next_tier']}); kernels: {s['kernels']}")
        lines.append(
            f"  this executable: {s['runs']} runs, arguments read in place {s['args_in_place']}, "
            f"converted {s['args_converted']}"
        )
        lines.append(f"  signatures compiled by this function: {len(self._entries)}")
        return "\n".join(lines)

    def __repr__(self):
        return f"<smelt.jit {self.__name__} backend={self._backend} signatures={len(self._entries)}>"


def jit(fn=None, *, static_argnums=(), static_argnames=(), donate_argnums=(), backend="tiered", return_jax=False):
    """Compile a JAX function with smelt: a drop-in for ``jax.jit`` on the host.

    ``smelt.jit(fn)(*args, **kwargs)`` returns what ``jax.jit(fn)(*args, **kwargs)``
    returns, in ``fn``'s own pytree structure, as NumPy arrays (or
    ``jax.Array``s with ``return_jax=True``). Arguments may be NumPy arrays,
    ``jax.Array``s on the CPU, Python scalars, and pytrees of them.

    On each call the abstract signature is built: the pytree structure, each
    leaf's shape and dtype (and weak type), and the static arguments' values.
    A signature not seen before is traced and lowered to HLO by JAX, once, and
    compiled by smelt; a known one runs at once (no tracing, no compiling).
    Compilations are shared by every ``smelt.jit`` function in the process and
    kept on disk when ``SMELT_CACHE_DIR`` is set.

    Arguments:
        fn: the function (any function ``jax.jit`` accepts).
        static_argnums, static_argnames: arguments that are Python values
            rather than arrays (hashable; each new value compiles anew), as in
            ``jax.jit``.
        donate_argnums: accepted as in ``jax.jit`` (the lowered program carries
            the aliasing); on the host smelt leaves donated arrays intact.
        backend: "tiered" (Cranelift code at once, LLVM code from a background
            thread when ready), "cpu" (LLVM), "cranelift", or "interp".
        return_jax: return ``jax.Array``s instead of NumPy arrays.

    The result has ``.lower(*args)`` (the HLO text), ``.explain()`` (what the
    last call did), ``.executable(*args)`` and ``.signatures``. Usable as a
    decorator, with or without arguments: ``@smelt.jit`` or
    ``@smelt.jit(static_argnums=1)``.
    """
    options = dict(static_argnums=static_argnums, static_argnames=static_argnames, donate_argnums=donate_argnums,
                   backend=backend, return_jax=return_jax)
    if fn is None:
        return lambda f: JitFunction(f, **options)
    return JitFunction(fn, **options)
