"""Shared paths and helpers for the Python package's tests."""

import json
import pathlib

import numpy as np
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "corpus"
ONNX_CASES = ROOT / "tests" / "onnx"


def corpus_cases():
    return sorted(p.name for p in CORPUS.iterdir() if (p / "case.json").is_file())


def onnx_cases():
    return sorted(p.name for p in ONNX_CASES.iterdir() if (p / "case.json").is_file())


def square_matmul_hlo(n):
    """`a @ a` for an f32[n, n] parameter: seconds of native work on the interpreter."""
    return f"""HloModule mm

ENTRY main {{
  a = f32[{n},{n}] parameter(0)
  ROOT d = f32[{n},{n}] dot(a, a), lhs_contracting_dims={{1}}, rhs_contracting_dims={{0}}
}}
"""


def case_json(name):
    return json.loads((CORPUS / name / "case.json").read_text())


def assert_close(got, want, rtol, atol, what=""):
    """The corpus rule: |got - want| <= atol + rtol*|want| for floats (NaN
    matches NaN, infinities exactly), exact equality for integers and bools."""
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, f"{what}: shape {got.shape} != {want.shape}"
    assert got.dtype == want.dtype, f"{what}: dtype {got.dtype} != {want.dtype}"
    if want.dtype.kind == "c":
        # Complex values part by part.
        got, want = np.stack([got.real, got.imag], -1), np.stack([want.real, want.imag], -1)
    if want.dtype.kind in "fV" or want.dtype.name == "bfloat16":
        g, w = got.astype(np.float64), want.astype(np.float64)
        np.testing.assert_allclose(g, w, rtol=rtol, atol=atol, equal_nan=True, err_msg=what)
    else:
        np.testing.assert_array_equal(got, want, err_msg=what)


@pytest.fixture
def add_hlo():
    return """HloModule add

ENTRY main {
  x = f32[4] parameter(0)
  y = f32[4] parameter(1)
  ROOT s = f32[4] add(x, y)
}
"""


class Const:
    """An op input given as an initializer rather than fed."""

    def __init__(self, value):
        self.value = np.asarray(value)


def op_model(op, ins, attrs=None, opset=18, n_out=1):
    """A model of one `op` node over `ins` (name -> array, in input order;
    `Const` values are initializers, None an omitted input), outputs
    `y0..`, and the feeds it needs."""
    from onnx import TensorProto, helper, numpy_helper

    inputs, inits, names, feeds = [], [], [], {}
    for name, value in ins.items():
        if value is None:
            names.append("")
            continue
        names.append(name)
        if isinstance(value, Const):
            inits.append(numpy_helper.from_array(value.value, name))
        else:
            feeds[name] = value
            elem = helper.np_dtype_to_tensor_dtype(value.dtype)
            inputs.append(helper.make_tensor_value_info(name, elem, value.shape))
    while names and names[-1] == "":
        names.pop()
    outs = [f"y{k}" for k in range(n_out)]
    node = helper.make_node(op, names, outs, **(attrs or {}))
    undefined = [helper.make_tensor_value_info(o, TensorProto.UNDEFINED, None) for o in outs]
    graph = helper.make_graph([node], op, inputs, undefined, inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)]), feeds
