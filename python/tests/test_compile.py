"""smelt.compile: HLO text, paths and bytes in; NumPy arrays out; errors as exceptions."""

import os
import subprocess
import sys
import time

import numpy as np
import pytest

import smelt
from conftest import CORPUS, assert_close, case_json, square_matmul_hlo


@pytest.mark.parametrize("backend", ["interp", "cpu", "cranelift", "tiered"])
def test_add_on_every_backend(add_hlo, backend):
    exe = smelt.compile(add_hlo, backend=backend)
    x = np.arange(4, dtype=np.float32)
    (out,) = exe(x, x * 10)
    np.testing.assert_array_equal(out, x * 11)
    assert out.dtype == np.float32 and out.shape == (4,)
    assert exe.params == [((4,), np.dtype("float32")), ((4,), np.dtype("float32"))]
    assert exe.results == [((4,), np.dtype("float32"))]
    assert exe.tier in ("interp", "cranelift", "llvm")
    assert exe.stats["backend"] == backend and exe.stats["runs"] == 1


def test_path_bytes_and_text_agree(add_hlo, tmp_path):
    f = tmp_path / "add.hlo"
    f.write_text(add_hlo)
    x = np.ones(4, np.float32)
    outs = [smelt.compile(src, backend="cranelift")(x, x)[0] for src in (add_hlo, str(f), f, add_hlo.encode())]
    for o in outs:
        np.testing.assert_array_equal(o, 2 * x)


@pytest.mark.parametrize("name", ["bert_encoder", "multi_output_pytree", "sort_argsort", "convert_dtypes"])
def test_corpus_modules_match_xla(name):
    case = case_json(name)
    exe = smelt.compile(CORPUS / name / "module.hlo", backend="cpu")
    args = []
    for spec in case["inputs"]:
        a = np.load(CORPUS / name / spec["file"])
        args.append(a)
    outs = exe(*args)
    assert len(outs) == len(case["outputs"])
    for k, (got, spec) in enumerate(zip(outs, case["outputs"])):
        want = np.load(CORPUS / name / spec["file"])
        if spec["dtype"] == "bf16":
            want = want.view(got.dtype)
        assert_close(got, want, spec["rtol"], spec["atol"], f"{name} output {k}")


@pytest.mark.parametrize("module", ["module.stablehlo.mlir", "module.pb"])
def test_stablehlo_and_protos_compile_like_hlo_text(module):
    name = "multi_output_pytree"
    case = case_json(name)
    args = [np.load(CORPUS / name / spec["file"]) for spec in case["inputs"]]
    want = smelt.compile(CORPUS / name / "module.hlo", backend="cranelift")(*args)
    path = CORPUS / name / module
    fmt = "stablehlo" if module.endswith(".mlir") else "proto"
    for src in (path, path.read_bytes()):
        for f in (None, fmt):
            got = smelt.compile(src, backend="cranelift", format=f)(*args)
            for g, w in zip(got, want):
                np.testing.assert_array_equal(g, w)
    with pytest.raises(ValueError):
        smelt.compile(path, format="onnx")


def test_stablehlo_error_names_the_place(tmp_path):
    f = tmp_path / "bad.mlir"
    f.write_text("func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n  %0 = stablehlo.add %a, %b : tensor<4xf32>\n  return %0 : tensor<4xf32>\n}\n")
    with pytest.raises(smelt.InvalidInputError) as e:
        smelt.compile(f)
    assert f"{f}:2:" in str(e.value) and "%b" in str(e.value)


def test_syntax_error_names_the_place(tmp_path):
    f = tmp_path / "bad.hlo"
    f.write_text("HloModule bad\n\nENTRY main {\n  x = f32[4] parameter(0)\n  ROOT y = f32[4] add(x, z)\n}\n")
    with pytest.raises(smelt.InvalidInputError) as e:
        smelt.compile(f)
    assert f"{f}:5:" in str(e.value) and "z" in str(e.value)
    assert isinstance(e.value, smelt.SmeltError)


def test_unsupported_opcode_is_its_own_error():
    text = "HloModule u\n\nENTRY main {\n  x = f32[4] parameter(0)\n  ROOT y = f32[4] frobnicate(x)\n}\n"
    with pytest.raises(smelt.UnsupportedOperationError) as e:
        smelt.compile(text)
    assert "<hlo text>:5:" in str(e.value) and "frobnicate" in str(e.value)


def test_verifier_error_names_the_instruction():
    text = "HloModule v\n\nENTRY main {\n  x = f32[4] parameter(0)\n  ROOT y = f32[5] negate(x)\n}\n"
    with pytest.raises(smelt.InvalidInputError) as e:
        smelt.compile(text)
    assert "'y'" in str(e.value) and "negate" in str(e.value)


def test_wrong_arguments_raise_shape_mismatch(add_hlo):
    exe = smelt.compile(add_hlo, backend="cranelift")
    x = np.ones(4, np.float32)
    with pytest.raises(smelt.ShapeMismatchError, match="expected 2 arguments, got 1"):
        exe(x)
    with pytest.raises(smelt.ShapeMismatchError, match="argument 1: expected f32\\[4\\]"):
        exe(x, np.ones(5, np.float32))
    with pytest.raises(ValueError, match="unknown backend"):
        smelt.compile(add_hlo, backend="gpu-please")
    with pytest.raises(smelt.InvalidInputError, match="cannot read"):
        smelt.compile("/no/such/file.hlo")
    with pytest.raises(smelt.InvalidInputError, match="HloModuleProto"):
        smelt.compile(b"\x0a\x03\xff\xfe")


def test_contiguous_arrays_are_read_in_place_and_others_converted(add_hlo):
    exe = smelt.compile(add_hlo, backend="cpu")
    x = np.arange(4, dtype=np.float32)
    exe(x, x)
    assert (exe.stats["args_in_place"], exe.stats["args_converted"]) == (2, 0)
    strided = np.arange(8, dtype=np.float32)[::2]  # not contiguous
    wide = np.arange(4, dtype=np.float64)  # other dtype
    (out,) = exe(strided, wide)
    np.testing.assert_array_equal(out, strided + wide.astype(np.float32))
    assert (exe.stats["args_in_place"], exe.stats["args_converted"]) == (2, 2)
    (out,) = exe([1, 2, 3, 4], x)  # lists convert too
    np.testing.assert_array_equal(out, np.array([1, 2, 3, 4], np.float32) + x)


def test_in_place_means_the_same_memory():
    text = "HloModule neg\n\nENTRY main {\n  x = f32[1024] parameter(0)\n  ROOT y = f32[1024] negate(x)\n}\n"
    exe = smelt.compile(text, backend="cpu")
    x = np.arange(1024, dtype=np.float32)
    # The address the program would read the argument at is the array's own.
    assert exe._argument_addresses(x) == [x.ctypes.data]
    strided = np.arange(2048, dtype=np.float32)[::2]
    assert exe._argument_addresses(strided) != [strided.ctypes.data]
    (y,) = exe(x)
    np.testing.assert_array_equal(y, -x)
    # The result is the memory the program wrote, handed to NumPy as is.
    assert y.flags["C_CONTIGUOUS"] and not y.flags["OWNDATA"]


def test_same_program_hits_the_process_cache(add_hlo):
    renamed = add_hlo.replace("HloModule add", "HloModule other_name")
    first = smelt.compile(add_hlo, backend="cranelift")
    before = smelt.cache_stats("cranelift")
    second = smelt.compile(renamed, backend="cranelift")
    after = smelt.cache_stats("cranelift")
    assert second.stats["cache"] == "hit" and after["hits"] == before["hits"] + 1
    assert after["compiles"] == before["compiles"]
    assert first.params == second.params


def test_bf16_results_are_ml_dtypes():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    text = "HloModule c\n\nENTRY main {\n  x = f32[3] parameter(0)\n  ROOT y = bf16[3] convert(x)\n}\n"
    exe = smelt.compile(text, backend="cranelift")
    (y,) = exe(np.array([1.0, 2.5, -3.0], np.float32))
    assert y.dtype == ml_dtypes.bfloat16
    np.testing.assert_array_equal(y.astype(np.float32), [1.0, 2.5, -3.0])


def test_import_without_jax():
    code = "import sys; sys.modules['jax'] = None; import smelt; print(smelt.compile.__name__)"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=dict(os.environ))
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "compile"


def test_help_explains_jit():
    doc = smelt.jit.__doc__
    assert "jax.jit" in doc and "signature" in doc and "static_argnums" in doc


def test_runs_release_the_gil():
    import threading

    n = 512
    text = square_matmul_hlo(n)
    exe = smelt.compile(text, backend="interp")  # slow on purpose: seconds of native work
    a = np.full((n, n), 0.5, np.float32)
    done = threading.Event()
    result = []

    def run():
        result.extend(exe(a))
        done.set()

    t = threading.Thread(target=run)
    t.start()
    ticks = 0
    while not done.is_set():
        ticks += 1  # only runs while the other thread is not holding the GIL
        time.sleep(0.001)
    t.join()
    assert ticks > 20, "the main thread never ran during the native call"
    np.testing.assert_allclose(result[0][:2, :2], np.full((2, 2), 0.25 * n, np.float32))
