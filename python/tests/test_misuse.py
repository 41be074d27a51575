"""Misuse of the Python API gives exceptions, never a crash: wrong element
types and ranks, odd memory layouts, read-only and foreign arrays, arrays
changed or dropped by another thread during a run, many threads on one
executable, and calls while the interpreter shuts down."""

import gc
import subprocess
import sys
import textwrap
import threading

import numpy as np
import pytest

import smelt
from conftest import square_matmul_hlo

NEG = "HloModule neg\n\nENTRY main {\n  x = f32[2,3] parameter(0)\n  ROOT y = f32[2,3] negate(x)\n}\n"
BACKENDS = ["interp", "cpu", "cranelift"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_arguments_of_the_wrong_kind_raise(backend):
    exe = smelt.compile(NEG, backend=backend)
    bad = [
        np.array([["a", "b", "c"], ["d", "e", "f"]]),  # strings
        np.array([[object(), None, 1], [2, 3, 4]], dtype=object),
        np.ones((3, 2), np.float32),  # wrong shape
        np.ones((2, 3, 1), np.float32),  # wrong rank
        np.float32(1.0),  # a scalar
        None,
        "x",
        [[1, 2], [3]],  # ragged
    ]
    for arg in bad:
        with pytest.raises((smelt.ShapeMismatchError, TypeError, ValueError)):
            exe(arg)
    with pytest.raises(smelt.ShapeMismatchError):
        exe()
    with pytest.raises(smelt.ShapeMismatchError):
        exe(np.ones((2, 3), np.float32), np.ones((2, 3), np.float32))


@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")  # np.matrix
@pytest.mark.parametrize("backend", BACKENDS)
def test_layouts_and_flags_are_read_right(backend):
    exe = smelt.compile(NEG, backend=backend)
    base = np.arange(6, dtype=np.float32).reshape(2, 3)
    readonly = base.copy()
    readonly.setflags(write=False)
    wide = np.zeros((4, 6), np.float32)
    wide[::2, ::2] = base
    unaligned = np.frombuffer(b"\0" + base.tobytes(), np.float32, offset=1).reshape(2, 3)
    views = {
        "fortran": np.asfortranarray(base),
        "transposed": base.T.copy().T,
        "negative strides": base[::-1, ::-1][::-1, ::-1],
        "strided": wide[::2, ::2],
        "read-only": readonly,
        "unaligned": unaligned,
        "big-endian": base.astype(">f4"),
        "broadcast": np.broadcast_to(np.float32(2.0), (2, 3)),
        "memoryview": memoryview(base.copy()),
        "matrix": np.asmatrix(base),
    }
    for name, arg in views.items():
        (y,) = exe(arg)
        np.testing.assert_array_equal(y, -np.asarray(arg, np.float32), err_msg=name)
    (y,) = exe(readonly)
    y[0, 0] = 5.0  # results are the caller's own memory
    assert readonly[0, 0] == 0.0


def test_zero_sized_and_empty_programs():
    text = "HloModule z\n\nENTRY main {\n  x = f32[0,3] parameter(0)\n  ROOT y = f32[0,3] negate(x)\n}\n"
    for backend in BACKENDS:
        (y,) = smelt.compile(text, backend=backend)(np.ones((0, 3), np.float32))
        assert y.shape == (0, 3)


def test_arrays_changed_or_dropped_by_another_thread_during_runs():
    n = 256
    text = square_matmul_hlo(n)
    exe = smelt.compile(text, backend="interp")  # slow enough for the other thread to act
    shared = [np.full((n, n), 1.0, np.float32)]
    stop = threading.Event()

    def meddle():
        while not stop.is_set():
            shared[0][:] = 2.0  # written in place while a run reads it
            shared[0] = np.full((n, n), 1.0, np.float32)  # the old array dropped
            gc.collect()

    t = threading.Thread(target=meddle)
    t.start()
    try:
        for _ in range(3):
            (d,) = exe(shared[0])
            # Each element is a sum of n products of 1s and 2s: whatever the
            # other thread did, never garbage.
            assert d.shape == (n, n) and np.all((d >= n) & (d <= 4 * n))
    finally:
        stop.set()
        t.join()


@pytest.mark.parametrize("backend", BACKENDS)
def test_many_threads_share_one_executable(backend):
    exe = smelt.compile(NEG, backend=backend)
    errors = []

    def work(k):
        try:
            for i in range(50):
                x = np.full((2, 3), k * 100 + i, np.float32)
                (y,) = exe(x)
                if not np.array_equal(y, -x):
                    errors.append(f"thread {k} run {i}: {y}")
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(f"thread {k}: {e!r}")

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[:5]


def test_calls_during_interpreter_shutdown_do_not_crash():
    code = textwrap.dedent(
        f"""
        import atexit, threading
        import numpy as np
        import smelt
        exes = [smelt.compile({NEG!r}, backend=b) for b in {BACKENDS!r}]
        x = np.ones((2, 3), np.float32)
        def late():
            for exe in exes:
                (y,) = exe(x)
                assert (y == -1).all()
            print("late calls ok", flush=True)
        atexit.register(late)
        class Last:
            def __del__(self):
                for exe in exes:
                    try:
                        exe(x)
                    except Exception as e:
                        print("refused:", type(e).__name__, flush=True)
        keep = Last()
        # A daemon thread still running a program when the interpreter exits.
        slow = smelt.compile({square_matmul_hlo(384)!r}, backend="interp")
        threading.Thread(target=lambda: slow(np.ones((384, 384), np.float32)), daemon=True).start()
        """
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, f"exit {r.returncode}: {r.stderr[-2000:]}"
    assert "late calls ok" in r.stdout, r.stdout + r.stderr
    assert "Traceback" not in r.stderr, r.stderr


def _random_array(rng):
    """An array-like of a random kind: element type, rank, extents, strides,
    order, byte order, flags, or not an array at all."""
    kinds = ["f4", "f8", "f2", "i4", "i8", "u1", "?", "c8", "U3", "O", "M8[s]", "V4"]
    dims = (2, 3) if rng.integers(2) else tuple(int(d) for d in rng.choice([0, 1, 2, 3, 5], size=rng.integers(0, 4)))
    kind = kinds[rng.integers(len(kinds))]
    if kind == "O":
        a = np.empty(dims, dtype=object)
        a.fill(rng.choice([None, 1.5, "x"]))
    elif kind.startswith("U"):
        a = np.full(dims, "ab")
    elif kind.startswith("V"):
        a = np.zeros(dims, dtype=kind)
    else:
        a = (rng.standard_normal(dims) * 10).astype(kind)
    trick = rng.integers(8)
    if trick == 1 and a.ndim:
        a = a[::-1]
    elif trick == 2 and a.ndim >= 2:
        a = a.T
    elif trick == 3:
        a = a.astype(a.dtype.newbyteorder(">")) if a.dtype.kind in "fiuc" else a
    elif trick == 4:
        a.setflags(write=False)
    elif trick == 5:
        a = a.tolist()
    elif trick == 6 and a.ndim:
        a = np.repeat(a, 2, axis=0)[::2]
    elif trick == 7:
        a = rng.choice([None, "text", 3, 2.5, b"bytes"])
    return a


@pytest.mark.parametrize("backend", ["interp", "cranelift"])
def test_random_array_likes_give_results_or_exceptions(backend):
    """5,000 random arguments per backend from a fixed seed (the Python door's
    fixed-seed fuzz run): each gives the right result or an exception, never a
    crash."""
    import warnings

    exe = smelt.compile(NEG, backend=backend)
    rng = np.random.default_rng(0x5EED)
    ran = refused = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # ComplexWarning and friends from NumPy's conversions
        for _ in range(5000):
            arg = _random_array(rng)
            try:
                (y,) = exe(arg)
            except (smelt.ShapeMismatchError, TypeError, ValueError, OverflowError):
                refused += 1
                continue
            want = -np.asarray(arg).astype(np.float32)
            np.testing.assert_array_equal(y, want)
            ran += 1
    print(f"{backend}: {ran} ran, {refused} refused")
    assert ran > 100 and refused > 1000, (ran, refused)
