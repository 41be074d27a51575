"""smelt.onnx.InferenceSession against onnxruntime on every model in tests/onnx."""

import json

import numpy as np
import pytest

import smelt
import smelt.onnx
from conftest import ONNX_CASES, assert_close, onnx_cases

ort = pytest.importorskip("onnxruntime")


def feeds_for(case_dir, case):
    return {i["name"]: np.load(case_dir / i["file"]) for i in case["inputs"]}


@pytest.mark.parametrize("name", onnx_cases())
def test_session_matches_onnxruntime(name):
    case_dir = ONNX_CASES / name
    case = json.loads((case_dir / "case.json").read_text())
    feeds = feeds_for(case_dir, case)
    ours = smelt.onnx.InferenceSession(str(case_dir / "model.onnx"))
    theirs = ort.InferenceSession(str(case_dir / "model.onnx"), providers=["CPUExecutionProvider"])
    # The same description of the model's inputs and outputs.
    for a, b in zip(ours.get_inputs(), theirs.get_inputs(), strict=True):
        assert (a.name, a.type) == (b.name, b.type)
        assert [d if isinstance(d, int) else "sym" for d in a.shape] == [
            d if isinstance(d, int) else "sym" for d in b.shape
        ]
    assert [o.name for o in ours.get_outputs()] == [o.name for o in theirs.get_outputs()]
    assert [o.type for o in ours.get_outputs()] == [o.type for o in theirs.get_outputs()]
    got = ours.run(None, feeds)
    want = theirs.run(None, feeds)
    assert len(got) == len(want) == len(case["outputs"])
    for g, w, spec in zip(got, want, case["outputs"]):
        assert_close(g, w, spec["rtol"], spec["atol"], f"{name} {spec['name']}")
        assert_close(g, np.load(case_dir / spec["file"]), spec["rtol"], spec["atol"], f"{name} {spec['name']}")
    # A subset of outputs by name, in the order asked for.
    last = case["outputs"][-1]["name"]
    (only,) = ours.run([last], feeds)
    assert_close(only, want[-1], case["outputs"][-1]["rtol"], case["outputs"][-1]["atol"])


def test_model_from_bytes_and_errors():
    model = (ONNX_CASES / "mlp" / "model.onnx").read_bytes()
    sess = smelt.onnx.InferenceSession(model)
    name = sess.get_inputs()[0].name
    with pytest.raises(smelt.SmeltError):
        sess.run(None, {"no_such_input": np.zeros(3, np.float32)})
    with pytest.raises(smelt.ShapeMismatchError):
        sess.run(None, {name: np.zeros((2, 2, 2), np.float32)})
    with pytest.raises(smelt.InvalidInputError):
        smelt.onnx.InferenceSession(b"definitely not a model")
    with pytest.raises(smelt.InvalidInputError, match="cannot read"):
        smelt.onnx.InferenceSession("/no/such/model.onnx")
    assert smelt.onnx.get_available_providers() == ["SmeltExecutionProvider"]
