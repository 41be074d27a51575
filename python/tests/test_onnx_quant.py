"""The linear-quantization ops (QuantizeLinear, DequantizeLinear,
DynamicQuantizeLinear, MatMulInteger, ConvInteger, QLinearMatMul, QLinearConv),
each a one-node ONNX model run by smelt.onnx.InferenceSession on every backend
that compiles and by ONNX's reference implementation as the oracle."""

import numpy as np
import pytest

import smelt.onnx

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402
from onnx.reference import ReferenceEvaluator  # noqa: E402
from conftest import Const, op_model  # noqa: E402

RNG = np.random.default_rng(7)
BACKENDS = ["cranelift", "cpu"]


def model_of(op, ins, attrs=None, opset=21, n_out=1):
    return op_model(op, ins, attrs, opset, n_out)


def check(op, ins, attrs=None, opset=21, n_out=1, steps=0, backend="cranelift"):
    """smelt against the reference; integer outputs may differ by `steps`
    (products whose scaling the reference does in f64, smelt in f32)."""
    model, feeds = model_of(op, ins, attrs, opset, n_out)
    want = ReferenceEvaluator(model).run(None, feeds)
    got = smelt.onnx.InferenceSession(model.SerializeToString(), backend=backend).run(None, feeds)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        w = np.asarray(w)
        assert g.shape == w.shape and g.dtype == w.dtype, f"{op}: {g.dtype}{g.shape} vs {w.dtype}{w.shape}"
        if np.issubdtype(w.dtype, np.floating):
            np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-6, err_msg=op)
        else:
            diff = np.abs(g.astype(np.int64) - w.astype(np.int64))
            assert diff.max(initial=0) <= steps, f"{op}: {diff.max()} steps off at {np.argmax(diff)}"


def q8(dtype, *dims):
    info = np.iinfo(dtype)
    return RNG.integers(info.min, info.max + 1, dims).astype(dtype)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.uint16, np.int16])
@pytest.mark.parametrize("per_axis", [False, True])
def test_quantize_linear(backend, dtype, per_axis):
    x = (RNG.standard_normal((2, 3, 5)) * 40).astype(np.float32)
    # Halves: round half to even, and values past both ends (saturation).
    x[0, 0, :] = [0.5, 1.5, 2.5, -0.5, 1e6]
    scale = np.array([0.5, 0.25, 2.0], np.float32) if per_axis else np.float32(0.5)
    zp = np.array([3, 0, 7] if per_axis else 3).astype(dtype)
    check("QuantizeLinear", {"x": x, "s": Const(scale), "z": Const(zp)}, attrs={"axis": 1}, backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_quantize_linear_default_zero_point_is_uint8(backend):
    x = (RNG.standard_normal((4, 6)) * 3).astype(np.float32)
    check("QuantizeLinear", {"x": x, "s": Const(np.float32(0.05))}, backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.int32])
@pytest.mark.parametrize("axis", [None, 0, -1])
def test_dequantize_linear(backend, dtype, axis):
    q = q8(np.int8 if dtype == np.int32 else dtype, 4, 5).astype(dtype)
    n = 1 if axis is None else q.shape[axis]
    scale = (RNG.random(n).astype(np.float32) + 0.1) if axis is not None else np.float32(0.1)
    zp = np.zeros(n if axis is not None else (), dtype) if dtype == np.int32 else q8(dtype, n).reshape(np.shape(scale))
    attrs = {} if axis is None else {"axis": axis}
    check("DequantizeLinear", {"q": q, "s": Const(scale), "z": Const(zp)}, attrs=attrs, backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("kind", ["mixed", "positive", "zeros"])
def test_dynamic_quantize_linear(backend, kind):
    x = RNG.standard_normal((3, 7)).astype(np.float32) * 4
    if kind == "positive":
        x = np.abs(x) + 1
    elif kind == "zeros":
        x = np.zeros_like(x)
    check("DynamicQuantizeLinear", {"x": x}, n_out=3, backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("a_dtype", [np.uint8, np.int8])
def test_matmul_integer(backend, a_dtype):
    a = q8(a_dtype, 2, 5, 16)
    b = q8(np.int8, 16, 6)
    zb = q8(np.int8, 6)  # per column of B
    ins = {"a": a, "b": Const(b), "za": Const(q8(a_dtype, 1)[0]), "zb": Const(zb)}
    check("MatMulInteger", ins, opset=10, backend=backend)
    check("MatMulInteger", {"a": a, "b": b}, opset=10, backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_matmul_integer_per_row_zero_point(backend):
    # The reference cannot broadcast a per-row zero point; numpy is the oracle.
    a, b, za = q8(np.uint8, 5, 16), q8(np.int8, 16, 6), q8(np.uint8, 5)
    model, feeds = model_of("MatMulInteger", {"a": a, "b": Const(b), "za": Const(za)}, opset=10)
    got = smelt.onnx.InferenceSession(model.SerializeToString(), backend=backend).run(None, feeds)[0]
    want = (a.astype(np.int32) - za.astype(np.int32)[:, None]) @ b.astype(np.int32)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("group", [1, 2])
def test_conv_integer(backend, group):
    x = q8(np.uint8, 1, 4, 7, 7)
    w = q8(np.int8, 6, 4 // group, 3, 3)
    ins = {"x": x, "w": Const(w), "zx": Const(np.uint8(121)), "zw": Const(q8(np.int8, 6))}
    check("ConvInteger", ins, attrs={"pads": [1, 0, 1, 2], "strides": [2, 1], "group": group}, opset=10,
          backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("out", [np.uint8, np.int8])
def test_qlinear_matmul(backend, out):
    a = q8(np.uint8, 3, 32)
    b = q8(np.int8, 32, 8)
    ins = {
        "a": a, "sa": Const(np.float32(0.02)), "za": Const(np.uint8(128)),
        "b": Const(b), "sb": Const(np.float32(0.01)), "zb": Const(np.int8(0)),
        "sy": Const(np.float32(0.3)), "zy": Const(np.array(5 if out == np.int8 else 130, out)),
    }
    check("QLinearMatMul", ins, steps=1, backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("per_channel", [False, True])
def test_qlinear_conv(backend, per_channel):
    x = q8(np.uint8, 2, 3, 8, 8)
    w = q8(np.int8, 4, 3, 3, 3)
    sw = (RNG.random(4).astype(np.float32) * 0.02 + 0.005) if per_channel else np.float32(0.01)
    zw = np.zeros(4, np.int8) if per_channel else np.int8(0)
    ins = {
        "x": x, "sx": Const(np.float32(0.03)), "zx": Const(np.uint8(100)),
        "w": Const(w), "sw": Const(sw), "zw": Const(zw),
        "sy": Const(np.float32(0.5)), "zy": Const(np.uint8(128)),
        "bias": Const(RNG.integers(-500, 500, 4).astype(np.int32)),
    }
    check("QLinearConv", ins, attrs={"pads": [1, 1, 1, 1]}, steps=1, backend=backend)


def test_blocked_quantization_is_refused():
    model, _ = model_of(
        "DequantizeLinear",
        {"q": q8(np.int8, 4, 8), "s": Const(np.ones((4, 2), np.float32))},
        attrs={"axis": 1, "block_size": 4},
    )
    with pytest.raises(Exception, match="block_size=4"):
        smelt.onnx.InferenceSession(model.SerializeToString(), backend="cranelift").run(None, {
            "q": q8(np.int8, 4, 8)})


# Whole models: smelt's quantizer and onnxruntime's, each QDQ model run by
# smelt and by onnxruntime.

ort = pytest.importorskip("onnxruntime")
from conftest import ONNX_CASES  # noqa: E402

QUANT_CASES = ["cnn", "mlp"]


def case_feeds(name):
    model = onnx.load(ONNX_CASES / name / "model.onnx")
    return {i.name: np.load(ONNX_CASES / name / f"{i.name}.npy") for i in model.graph.input}


def calibration(name, n=4):
    """The case's inputs and noisy copies of them: `n` batches."""
    base = case_feeds(name)
    rng = np.random.default_rng(11)
    return [{k: (v + 0.3 * rng.standard_normal(v.shape) * v.std()).astype(v.dtype) for k, v in base.items()}
            for _ in range(n)]


def output_steps(model_bytes):
    """Graph output -> the scale of the QuantizeLinear reading it, if any."""
    m = onnx.load_from_string(model_bytes)
    inits = {i.name: numpy_helper.to_array(i) for i in m.graph.initializer}
    outs = {o.name for o in m.graph.output}
    return {n.input[0]: float(np.max(inits[n.input[1]])) for n in m.graph.node
            if n.op_type == "QuantizeLinear" and n.input[0] in outs and n.input[1] in inits}


def reference(model_bytes, feeds):
    """ONNX's reference implementation of the model: integer products computed
    exactly. Its QuantizeLinear and DequantizeLinear are implemented from opset
    19; their semantics for 8-bit types are unchanged since 13, and so are those
    of the other ops these models use, so the model is read at opset 21."""
    m = onnx.load_from_string(model_bytes)
    for o in m.opset_import:
        if o.domain in ("", "ai.onnx"):
            o.version = max(o.version, 21)
    return ReferenceEvaluator(m).run(None, feeds)


def rel_l2(a, b):
    return float(np.linalg.norm((a - b).ravel()) / np.linalg.norm(b.ravel()))


def assert_agrees(model_bytes, feeds, float_outputs, max_error):
    """smelt agrees with ONNX's reference implementation within one
    quantization step of each output (where no QuantizeLinear reads an output,
    2% of its largest magnitude), and stays within `max_error` (relative L2) of
    the float model; onnxruntime runs the model too. onnxruntime is not the
    oracle: on x86 without VNNI its 8-bit products add pairs into saturating
    16-bit sums (`vpmaddubsw`), and drifted up to 0.15 from the exact result on
    an AMD EPYC (Zen 2), where smelt matched the reference to 4e-7."""
    got = smelt.onnx.InferenceSession(model_bytes, backend="cpu").run(None, feeds)
    want = reference(model_bytes, feeds)
    so = ort.SessionOptions()
    so.log_severity_level = 3
    by_ort = ort.InferenceSession(model_bytes, so, providers=["CPUExecutionProvider"]).run(None, feeds)
    steps = output_steps(model_bytes)
    names = [o.name for o in onnx.load_from_string(model_bytes).graph.output]
    for name, g, w, o, f in zip(names, got, want, by_ort, float_outputs):
        assert g.shape == w.shape == o.shape, (name, g.shape, w.shape, o.shape)
        step = steps.get(name, 0.02 * float(np.abs(w).max()))
        assert np.max(np.abs(g - w)) <= step + 1e-6, f"{name}: {np.max(np.abs(g - w))} vs step {step}"
        assert rel_l2(g, f) < max_error and rel_l2(w, f) < max_error, (rel_l2(g, f), rel_l2(w, f))


@pytest.mark.parametrize("name", QUANT_CASES)
def test_smelt_quantized_models_match_the_reference_and_run_in_onnxruntime(name):
    model = (ONNX_CASES / name / "model.onnx").read_bytes()
    feeds = case_feeds(name)
    qdq = smelt.onnx.quantize(model, calibration(name))
    m = onnx.load_from_string(qdq)
    ops = {n.op_type for n in m.graph.node}
    assert {"QuantizeLinear", "DequantizeLinear"} <= ops
    # Weights are stored in 8 bits: their bytes shrink to about a quarter.
    def weight_bytes(m):
        return sum(numpy_helper.to_array(i).nbytes for i in m.graph.initializer)

    assert weight_bytes(m) < 0.4 * weight_bytes(onnx.load_from_string(model))
    float_outputs = ort.InferenceSession(model, providers=["CPUExecutionProvider"]).run(None, feeds)
    assert_agrees(qdq, feeds, float_outputs, max_error=0.06)


@pytest.mark.parametrize("name", QUANT_CASES)
def test_onnxruntime_quantized_models_run_alike_in_smelt(name, tmp_path):
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static

    class Reader(CalibrationDataReader):
        def __init__(self):
            self.batches = iter(calibration(name))

        def get_next(self):
            return next(self.batches, None)

    out = tmp_path / "qdq.onnx"
    quantize_static(str(ONNX_CASES / name / "model.onnx"), str(out), Reader(), quant_format=QuantFormat.QDQ,
                    per_channel=True, activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8)
    feeds = case_feeds(name)
    float_outputs = ort.InferenceSession(str(ONNX_CASES / name / "model.onnx"),
                                         providers=["CPUExecutionProvider"]).run(None, feeds)
    assert_agrees(out.read_bytes(), feeds, float_outputs, max_error=0.08)


@pytest.mark.parametrize("options", [
    {"method": "percentile", "percentile": 99.9},
    {"method": "entropy"},
    {"activations": "int8"},
    {"per_channel": False},
])
def test_quantize_options(options):
    model = (ONNX_CASES / "cnn" / "model.onnx").read_bytes()
    feeds = case_feeds("cnn")
    qdq = smelt.onnx.quantize(model, calibration("cnn"), **options)
    float_outputs = ort.InferenceSession(model, providers=["CPUExecutionProvider"]).run(None, feeds)
    assert_agrees(qdq, feeds, float_outputs, max_error=0.15)


def test_quantize_refusals():
    model = (ONNX_CASES / "cnn" / "model.onnx").read_bytes()
    with pytest.raises(ValueError, match="method must be"):
        smelt.onnx.quantize(model, calibration("cnn"), method="median")
    with pytest.raises(Exception, match="no calibration batches"):
        smelt.onnx.quantize(model, [])
    # A model with no product to quantize.
    relu, _ = model_of("Relu", {"x": RNG.standard_normal((2, 3)).astype(np.float32)}, opset=17)
    with pytest.raises(Exception, match="nothing to quantize"):
        smelt.onnx.quantize(relu.SerializeToString(), [{"x": np.ones((2, 3), np.float32)}])


def test_matmul_bias_joins_the_accumulator():
    # MatMul then Add of a bias vector (a Gemm as exporters split it) then
    # Tanh: the bias is stored as s32 in the accumulator's scale, the sum is
    # quantized once (not the MatMul's output), and smelt and onnxruntime
    # agree on the result within one step.
    rng = np.random.default_rng(5)
    w = (rng.standard_normal((32, 48)) * 0.2).astype(np.float32)
    b = (rng.standard_normal(48) * 0.1).astype(np.float32)
    nodes = [
        helper.make_node("MatMul", ["x", "w"], ["m"]),
        helper.make_node("Add", ["b", "m"], ["s"]),
        helper.make_node("Tanh", ["s"], ["t"]),
        helper.make_node("MatMul", ["t", "w2"], ["y"]),
    ]
    w2 = (rng.standard_normal((48, 8)) * 0.2).astype(np.float32)
    graph = helper.make_graph(
        nodes, "bias", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [16, 32])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [16, 8])],
        [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b"), numpy_helper.from_array(w2, "w2")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]).SerializeToString()
    batches = [{"x": rng.standard_normal((16, 32)).astype(np.float32)} for _ in range(4)]
    qdq = smelt.onnx.quantize(model, batches)
    m = onnx.load_from_string(qdq)
    quantized = {n.input[0] for n in m.graph.node if n.op_type == "QuantizeLinear"}
    assert "s" in quantized and "m" not in quantized, quantized
    add = next(n for n in m.graph.node if n.op_type == "Add")
    bias_dq = next(n for n in m.graph.node if n.output[0] in add.input and n.op_type == "DequantizeLinear")
    inits = {i.name: numpy_helper.to_array(i) for i in m.graph.initializer}
    assert inits[bias_dq.input[0]].dtype == np.int32
    feeds = {"x": rng.standard_normal((16, 32)).astype(np.float32)}
    float_outputs = ort.InferenceSession(model, providers=["CPUExecutionProvider"]).run(None, feeds)
    assert_agrees(qdq, feeds, float_outputs, max_error=0.06)


def test_relu_is_quantized_with_its_product():
    # Conv -> Relu: one quantization, of the Relu's output (the clamp at 0 is
    # part of the requantization); onnxruntime agrees within a step.
    rng = np.random.default_rng(6)
    w = (rng.standard_normal((8, 3, 3, 3)) * 0.3).astype(np.float32)
    b = (rng.standard_normal(8) * 0.1).astype(np.float32)
    nodes = [
        helper.make_node("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c"], ["r"]),
        helper.make_node("Conv", ["r", "w2"], ["y"]),
    ]
    w2 = (rng.standard_normal((4, 8, 1, 1)) * 0.3).astype(np.float32)
    graph = helper.make_graph(
        nodes, "relu", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 8, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 4, 8, 8])],
        [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b"), numpy_helper.from_array(w2, "w2")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]).SerializeToString()
    batches = [{"x": rng.standard_normal((2, 3, 8, 8)).astype(np.float32)} for _ in range(4)]
    qdq = smelt.onnx.quantize(model, batches)
    quantized = {n.input[0] for n in onnx.load_from_string(qdq).graph.node if n.op_type == "QuantizeLinear"}
    assert "r" in quantized and "c" not in quantized, quantized
    feeds = {"x": rng.standard_normal((2, 3, 8, 8)).astype(np.float32)}
    float_outputs = ort.InferenceSession(model, providers=["CPUExecutionProvider"]).run(None, feeds)
    assert_agrees(qdq, feeds, float_outputs, max_error=0.06)
