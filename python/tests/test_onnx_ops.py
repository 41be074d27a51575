"""The ops added with DepthToSpace ... ScatterND, each a one-node ONNX model run
by smelt.onnx.InferenceSession (Cranelift) and by ONNX's own reference
implementation (onnx.reference.ReferenceEvaluator) as the oracle."""

import numpy as np
import pytest

import smelt.onnx

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402
from onnx.reference import ReferenceEvaluator  # noqa: E402

RNG = np.random.default_rng(0)


def randn(*dims):
    return RNG.standard_normal(dims).astype(np.float32)


class Const:
    """An op input given as an initializer rather than fed."""

    def __init__(self, value):
        self.value = np.asarray(value)


def check(op, ins, attrs=None, opset=18, n_out=1, rtol=1e-5, atol=1e-6):
    """Runs one `op` node over `ins` in order: arrays are graph inputs, `Const`s
    initializers, None an omitted input."""
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
    graph = helper.make_graph(
        [node], op, inputs, [helper.make_tensor_value_info(o, TensorProto.UNDEFINED, None) for o in outs], inits
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    want = ReferenceEvaluator(model).run(None, feeds)
    got = smelt.onnx.InferenceSession(model.SerializeToString(), backend="cranelift").run(None, feeds)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        w = np.asarray(w)
        assert g.shape == w.shape, f"{op} {attrs}: shape {g.shape} vs {w.shape}"
        assert g.dtype == w.dtype, f"{op} {attrs}: dtype {g.dtype} vs {w.dtype}"
        if np.issubdtype(w.dtype, np.floating):
            np.testing.assert_allclose(g, w, rtol=rtol, atol=atol, err_msg=f"{op} {attrs}")
        else:
            np.testing.assert_array_equal(g, w, err_msg=f"{op} {attrs}")


@pytest.mark.parametrize("mode", ["DCR", "CRD"])
@pytest.mark.parametrize("blocksize", [1, 2])
def test_depth_to_space(mode, blocksize):
    check("DepthToSpace", {"x": randn(2, 8, 2, 3)}, attrs={"blocksize": blocksize, "mode": mode})


@pytest.mark.parametrize("blocksize", [1, 2, 3])
def test_space_to_depth(blocksize):
    check("SpaceToDepth", {"x": randn(2, 3, 6, 6)}, attrs={"blocksize": blocksize})


@pytest.mark.parametrize("upper", [0, 1])
@pytest.mark.parametrize("k", [None, -1, 0, 2, 7])
def test_trilu(upper, k):
    kin = {} if k is None else {"k": Const(np.array(k, np.int64))}
    check("Trilu", {"x": randn(2, 3, 4), **kin}, attrs={"upper": upper})
    check("Trilu", {"x": randn(5, 3), **kin}, attrs={"upper": upper})
    if k is not None:
        # k fed at run time.
        check("Trilu", {"x": randn(3, 5), "k": np.array(k, np.int64)}, attrs={"upper": upper})


@pytest.mark.parametrize("exclusive", [0, 1])
@pytest.mark.parametrize("reverse", [0, 1])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_cumsum(exclusive, reverse, axis):
    attrs = {"exclusive": exclusive, "reverse": reverse}
    check("CumSum", {"x": randn(3, 4), "axis": Const(np.array(axis, np.int64))}, attrs=attrs, atol=1e-5)
    ints = RNG.integers(-5, 5, (3, 4)).astype(np.int64)
    check("CumSum", {"x": ints, "axis": Const(np.array(axis, np.int32))}, attrs=attrs)


@pytest.mark.parametrize("axis", [-1, 0, 1, 2])
def test_one_hot(axis):
    idx = np.array([[0, -1, 3], [5, -4, 2]], np.int64)
    values = np.array([-1.0, 3.5], np.float32)
    check("OneHot", {"idx": idx, "depth": Const(np.array(4, np.int64)), "values": values}, attrs={"axis": axis})
    ins = {"idx": idx.astype(np.int32), "depth": Const(np.array(4.0, np.float32)), "values": Const(values)}
    check("OneHot", ins, attrs={"axis": axis})


def test_mish():
    check("Mish", {"x": np.linspace(-8, 8, 33, dtype=np.float32)})


@pytest.mark.parametrize("p", [1, 2])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_lp_normalization(p, axis):
    # ONNX's reference sums x ** p without abs, so p=1 is checked on positive
    # data (smelt uses |x|, the L1 norm the op names).
    x = randn(3, 4)
    if p == 1:
        x = np.abs(x) + 0.1
    check("LpNormalization", {"x": x}, attrs={"p": p, "axis": axis})


@pytest.mark.parametrize("axes", [None, [0, 2, 3], [1], [-1, -2]])
def test_mean_variance_normalization(axes):
    attrs = {} if axes is None else {"axes": axes}
    check("MeanVarianceNormalization", {"x": randn(2, 3, 4, 5)}, attrs=attrs, atol=1e-4, rtol=1e-4)


@pytest.mark.parametrize("groups", [1, 2, 4])
def test_group_normalization(groups):
    x = randn(2, 4, 3, 2)
    # Opset 21: scale and bias per channel.
    feeds = {"x": x, "scale": randn(4), "bias": randn(4)}
    check("GroupNormalization", feeds, attrs={"num_groups": groups, "epsilon": 1e-3}, opset=21, atol=1e-5)
    # Opset 18: per group.
    feeds = {"x": x, "scale": randn(groups), "bias": randn(groups)}
    check("GroupNormalization", feeds, attrs={"num_groups": groups}, opset=18, atol=1e-5)


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_gather_elements(axis):
    data = randn(3, 4)
    # Fewer entries than data off the axis; negative indices count from the end.
    # (ONNX's reference misreads axis=-1 unless indices are shaped like data.)
    if axis == 0:
        idx = RNG.integers(-3, 3, (2, 4)).astype(np.int64)
    elif axis == 1:
        idx = RNG.integers(-4, 4, (3, 2)).astype(np.int64)
    else:
        idx = RNG.integers(-4, 4, (3, 4)).astype(np.int64)
    check("GatherElements", {"data": data, "idx": idx}, attrs={"axis": axis})


@pytest.mark.parametrize(
    "data_dims,idx,batch_dims",
    [
        ((2, 3, 4), [[1, 2, 3], [0, -1, -4]], 0),
        ((2, 3, 4), [[1], [-2]], 0),
        ((2, 3, 4), [[[0, 1]], [[2, -1]]], 1),
        ((2, 3, 4), [[[1], [-1]], [[0], [2]]], 1),
        ((2, 3, 4), [[[1, 0], [0, 1]], [[1, 1], [0, 0]]], 0),
    ],
)
def test_gather_nd(data_dims, idx, batch_dims):
    feeds = {"data": randn(*data_dims), "idx": np.array(idx, np.int64)}
    check("GatherND", feeds, attrs={"batch_dims": batch_dims})


@pytest.mark.parametrize("reduction", ["none", "add", "mul", "max", "min"])
@pytest.mark.parametrize("axis", [0, 1])
def test_scatter_elements(reduction, axis):
    data = randn(3, 3)
    # Distinct targets per column (axis 0) or row (axis 1), negatives included.
    idx = np.array([[1, 0, -1], [-1, 2, 0]], np.int64)
    if axis == 1:
        idx = idx.T.copy()
    upd = randn(*idx.shape)
    check("ScatterElements", {"data": data, "idx": idx, "upd": upd}, attrs={"axis": axis, "reduction": reduction})


@pytest.mark.parametrize("reduction", ["none", "add", "mul", "max", "min"])
def test_scatter_nd(reduction):
    data = randn(4, 3)
    rows = np.array([[2], [-4]], np.int64)
    check("ScatterND", {"data": data, "idx": rows, "upd": randn(2, 3)}, attrs={"reduction": reduction})
    elems = np.array([[3, 2], [0, -1], [1, 1]], np.int64)
    check("ScatterND", {"data": data, "idx": elems, "upd": randn(3)}, attrs={"reduction": reduction})
    # Repeated indices combine under a reduction.
    if reduction != "none":
        dup = np.array([[1], [1], [-3]], np.int64)
        check("ScatterND", {"data": data, "idx": dup, "upd": randn(3, 3)}, attrs={"reduction": reduction})
