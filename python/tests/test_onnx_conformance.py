"""The ONNX project's own backend test data, as shipped in the onnx package.

Every model of the `pytorch-converted`, `pytorch-operator` and `simple` folders,
and the `light` CNNs (fed as the suite feeds them: `arange(n) / n`),
runs through smelt.onnx on the Cranelift backend (quick to compile) and must
match the stored outputs at the suite's tolerance (rtol 1e-3, atol 1e-7), or,
for the operators smelt does not implement yet, fail to load with an error
that names what is missing. A model moves from the second list to the first
when its operator lands; one that stops passing fails this test.
"""

import os

import numpy as np
import pytest

import smelt
import smelt.onnx

onnx = pytest.importorskip("onnx")
from onnx import numpy_helper  # noqa: E402

DATA = os.path.join(os.path.dirname(onnx.__file__), "backend", "test", "data")
FOLDERS = ["pytorch-converted", "pytorch-operator", "simple"]

# Models refused at load, and the word the error must contain.
UNSUPPORTED = {
    "test_gradient_of_add": "ai.onnx.preview.training",
    "test_gradient_of_add_and_mul": "ai.onnx.preview.training",
}
STRING_PREFIX = "test_strnorm_"  # string tensors: refused, naming the operator


def cases():
    out = []
    for folder in FOLDERS:
        root = os.path.join(DATA, folder)
        if os.path.isdir(root):
            out += [(folder, c) for c in sorted(os.listdir(root)) if os.path.isfile(os.path.join(root, c, "model.onnx"))]
    return out


def load_pb(path):
    t = onnx.TensorProto()
    with open(path, "rb") as f:
        t.ParseFromString(f.read())
    return t.name, numpy_helper.to_array(t)


def data_sets(case_dir):
    n = 0
    while os.path.isdir(os.path.join(case_dir, f"test_data_set_{n}")):
        yield os.path.join(case_dir, f"test_data_set_{n}")
        n += 1


def test_the_suite_is_there():
    assert len(cases()) >= 140


def feeds(ds, names):
    out, k = {}, 0
    while os.path.isfile(os.path.join(ds, f"input_{k}.pb")):
        name, a = load_pb(os.path.join(ds, f"input_{k}.pb"))
        out[name if name in names else names[k]] = a
        k += 1
    return out


@pytest.mark.parametrize("folder,case", cases(), ids=lambda v: v if isinstance(v, str) else None)
def test_backend_model(folder, case):
    case_dir = os.path.join(DATA, folder, case)
    model = os.path.join(case_dir, "model.onnx")
    first = next(data_sets(case_dir))
    if case in UNSUPPORTED or case.startswith(STRING_PREFIX):
        # Refused when loaded, or (Pad's modes) when first compiled.
        word = UNSUPPORTED.get(case, "StringNormalizer")
        with pytest.raises(smelt.SmeltError, match=word):
            sess = smelt.onnx.InferenceSession(model, backend="cranelift")
            sess.run(None, feeds(first, [i.name for i in sess.get_inputs()]))
        return
    sess = smelt.onnx.InferenceSession(model, backend="cranelift")
    names = [i.name for i in sess.get_inputs()]
    for ds in data_sets(case_dir):
        got = sess.run(None, feeds(ds, names))
        k = 0
        while os.path.isfile(os.path.join(ds, f"output_{k}.pb")):
            _, want = load_pb(os.path.join(ds, f"output_{k}.pb"))
            np.testing.assert_allclose(got[k], want, rtol=1e-3, atol=1e-7, err_msg=f"{case} output {k}")
            k += 1
        assert k == len(got)


LIGHT = os.path.join(DATA, "light")


def light_models():
    if not os.path.isdir(LIGHT):
        return []
    return sorted(f[: -len(".onnx")] for f in os.listdir(LIGHT) if f.endswith(".onnx"))


def test_the_light_models_are_there():
    assert len(light_models()) >= 9


@pytest.mark.parametrize("name", light_models())
def test_light_cnn(name):
    model = onnx.load(os.path.join(LIGHT, name + ".onnx"))
    inits = {i.name for i in model.graph.initializer}
    feeds = {}
    for x in model.graph.input:
        if x.name in inits:
            continue
        shape = tuple(d.dim_value if d.HasField("dim_value") else 1 for d in x.type.tensor_type.shape.dim)
        n = int(np.prod(shape))
        feeds[x.name] = (np.arange(n).reshape(shape) / n).astype(np.float32)
    sess = smelt.onnx.InferenceSession(os.path.join(LIGHT, name + ".onnx"), backend="cranelift")
    got = sess.run(None, feeds)
    _, want = load_pb(os.path.join(LIGHT, name + "_output_0.pb"))
    np.testing.assert_allclose(got[0], want, rtol=1e-3, atol=1e-7, err_msg=name)
