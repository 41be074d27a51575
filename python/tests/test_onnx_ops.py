"""The ops added with DepthToSpace ... ScatterND, Resize/Upsample, RNN,
NonMaxSuppression, RoiAlign and Einsum, each a
one-node ONNX model run by smelt.onnx.InferenceSession (Cranelift) and by ONNX's
own reference implementation (onnx.reference.ReferenceEvaluator) as the oracle."""

import numpy as np
import pytest

import smelt.onnx

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402
from onnx.reference import ReferenceEvaluator  # noqa: E402
from conftest import Const, op_model  # noqa: E402

RNG = np.random.default_rng(0)


def randn(*dims):
    return RNG.standard_normal(dims).astype(np.float32)


def check(op, ins, attrs=None, opset=18, n_out=1, rtol=1e-5, atol=1e-6):
    """Runs one `op` node over `ins` in order: arrays are graph inputs, `Const`s
    initializers, None an omitted input."""
    model, feeds = op_model(op, ins, attrs, opset, n_out)
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


# Resize and Upsample. Sizes are static: scales/sizes (and roi) are
# initializers. Crop boxes use binary fractions, so ONNX's float32 roi
# arithmetic and smelt's f64 agree exactly on where ties fall.

COORD_MODES = [
    "half_pixel",
    "half_pixel_symmetric",
    "pytorch_half_pixel",
    "align_corners",
    "asymmetric",
    "tf_crop_and_resize",
]

RESIZE_CASES = {
    # name: (input dims, scales, sizes, roi for tf_crop_and_resize)
    "2d_up_scales": ((5, 7), [1.6, 2.5], None, [0.125, -0.25, 0.875, 1.25]),
    "2d_down_sizes": ((9, 8), None, [4, 3], [0.25, 0.0, 1.0, 0.75]),
    "2d_to_one": ((4, 6), None, [1, 5], [0.25, 0.5, 0.75, 1.0]),
    "4d_up_scales": ((1, 2, 4, 5), [1.0, 1.0, 2.0, 1.5], None, [0, 0, 0.25, 0.125, 1, 1, 1.125, 0.75]),
    "4d_down_scales": ((2, 3, 8, 9), [1.0, 1.0, 0.5, 0.4], None, [0, 0, 0, 0, 1, 1, 1, 1]),
    "4d_mixed_sizes": ((1, 3, 6, 4), None, [1, 3, 4, 7], [0, 0, -0.25, 0.25, 1, 1, 0.75, 1.5]),
}


def resize_inputs(case, coord, dtype=np.float32):
    dims, scales, sizes, roi = RESIZE_CASES[case]
    x = randn(*dims).astype(dtype)
    ins = {"x": x, "roi": Const(np.array(roi, np.float32)) if coord == "tf_crop_and_resize" else None}
    ins["scales"] = None if scales is None else Const(np.array(scales, np.float32))
    ins["sizes"] = None if sizes is None else Const(np.array(sizes, np.int64))
    return ins


@pytest.mark.parametrize("case", list(RESIZE_CASES))
@pytest.mark.parametrize("coord", COORD_MODES)
@pytest.mark.parametrize("nearest_mode", ["round_prefer_floor", "round_prefer_ceil", "floor", "ceil"])
def test_resize_nearest(case, coord, nearest_mode):
    attrs = {"mode": "nearest", "coordinate_transformation_mode": coord, "nearest_mode": nearest_mode}
    if coord == "tf_crop_and_resize":
        attrs["extrapolation_value"] = -7.0
    check("Resize", resize_inputs(case, coord), attrs=attrs, opset=19)


@pytest.mark.parametrize("case", list(RESIZE_CASES))
@pytest.mark.parametrize("coord", COORD_MODES)
@pytest.mark.parametrize(
    "mode,extra",
    [
        ("linear", {}),
        ("linear", {"exclude_outside": 1}),
        ("cubic", {}),
        ("cubic", {"exclude_outside": 1}),
        ("cubic", {"cubic_coeff_a": -0.5}),
    ],
)
def test_resize_interpolating(case, coord, mode, extra):
    attrs = {"mode": mode, "coordinate_transformation_mode": coord, **extra}
    if coord == "tf_crop_and_resize":
        attrs["extrapolation_value"] = 2.5
    check("Resize", resize_inputs(case, coord), attrs=attrs, opset=19, atol=1e-5)


@pytest.mark.parametrize("mode", ["nearest", "linear", "cubic"])
def test_resize_axes_and_defaults(mode):
    x = randn(2, 3, 5, 6)
    # Opset 18's axes: sizes and scales for the named axes only, any order
    # (ONNX's reference reads no negative axes; the Rust tests check those).
    sizes = {"x": x, "roi": None, "scales": None, "sizes": Const(np.array([9, 4], np.int64))}
    check("Resize", sizes, attrs={"mode": mode, "axes": [3, 2]}, opset=18, atol=1e-5)
    scales = {"x": x, "roi": None, "scales": Const(np.array([0.5, 1.5], np.float32))}
    check("Resize", scales, attrs={"mode": mode, "axes": [1, 2]}, opset=18, atol=1e-5)
    # Opset 11/13 style: empty roi and scales tensors, the default attributes.
    empty = Const(np.zeros(0, np.float32))
    sizes = {"x": x, "roi": empty, "scales": empty, "sizes": Const(np.array([2, 3, 7, 3], np.int64))}
    check("Resize", sizes, attrs={"mode": mode}, opset=13, atol=1e-5)
    scales = {"x": x, "roi": empty, "scales": Const(np.array([1, 1, 1.4, 0.7], np.float32))}
    check("Resize", scales, attrs={"mode": mode}, opset=11, atol=1e-5)


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.uint8, np.int8, np.float64, np.float16])
@pytest.mark.parametrize("mode", ["nearest", "linear", "cubic"])
def test_resize_other_dtypes(dtype, mode):
    # Cubic overshoots past the input range: integers round and saturate.
    lo, hi = (-128, 128) if dtype == np.int8 else (0, 256) if dtype == np.uint8 else (-1000, 1000)
    x = RNG.integers(lo, hi, (1, 2, 3, 4)).astype(dtype)
    ins = {"x": x, "roi": None, "scales": Const(np.array([1, 1, 2.5, 0.75], np.float32))}
    tol = {"rtol": 2e-3, "atol": 0.5} if dtype == np.float16 else {}
    check("Resize", ins, attrs={"mode": mode}, opset=19, **tol)


def one_node_model(node, x, inits, opset):
    """A model of `node` reading the float input "x" (initializers `inits`) into "y"."""
    x_info = helper.make_tensor_value_info("x", TensorProto.FLOAT, x.shape)
    y_info = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    graph = helper.make_graph([node], "g", [x_info], [y_info], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def test_resize_refuses_antialias():
    x = randn(1, 1, 4, 4)
    node = helper.make_node("Resize", ["x", "", "s"], ["y"], mode="linear", antialias=1)
    model = one_node_model(node, x, [numpy_helper.from_array(np.array([1, 1, 0.5, 0.5], np.float32), "s")], 18)
    with pytest.raises(Exception, match="antialias"):
        smelt.onnx.InferenceSession(model.SerializeToString(), backend="cranelift").run(None, {"x": x})


@pytest.mark.parametrize("mode", ["nearest", "linear"])
@pytest.mark.parametrize("scales", [[1, 1, 2, 3], [1, 2, 1.5, 0.5]])
def test_upsample(mode, scales):
    """Upsample at opsets 7 (scales attribute) and 9 (scales input) against
    ONNX's Resize with asymmetric coordinates and floor rounding, which is how
    ONNX's version converter reads it (its reference Upsample only repeats
    elements by whole scales, checked too)."""
    x = randn(1, 2, 3, 4)
    s = np.array(scales, np.float32)
    sc = numpy_helper.from_array(s, "s")
    resize = helper.make_node(
        "Resize", ["x", "", "s"], ["y"], mode=mode, coordinate_transformation_mode="asymmetric", nearest_mode="floor"
    )
    want_model = one_node_model(resize, x, [sc], 13)
    want = ReferenceEvaluator(want_model).run(None, {"x": x})[0]
    if mode == "nearest" and s.astype(np.int64).tolist() == s.tolist():
        ref9 = one_node_model(helper.make_node("Upsample", ["x", "s"], ["y"], mode=mode), x, [sc], 9)
        np.testing.assert_array_equal(ReferenceEvaluator(ref9).run(None, {"x": x})[0], want)
    models = [
        one_node_model(helper.make_node("Upsample", ["x", "s"], ["y"], mode=mode), x, [sc], 9),
        one_node_model(helper.make_node("Upsample", ["x"], ["y"], mode=mode, scales=s.tolist()), x, [], 7),
        one_node_model(helper.make_node("Resize", ["x", "s"], ["y"], mode=mode), x, [sc], 10),
    ]
    for m in models:
        got = smelt.onnx.InferenceSession(m.SerializeToString(), backend="cranelift").run(None, {"x": x})[0]
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("direction", ["forward", "reverse", "bidirectional"])
@pytest.mark.parametrize("layout", [0, 1])
@pytest.mark.parametrize("extras", [False, True])
def test_rnn(direction, layout, extras):
    seq, batch, inp, hid = 4, 3, 5, 6
    dirs = 2 if direction == "bidirectional" else 1
    x = randn(seq, batch, inp) if layout == 0 else randn(batch, seq, inp)
    ins = {"X": x, "W": Const(randn(dirs, hid, inp)), "R": Const(0.5 * randn(dirs, hid, hid))}
    if extras:
        ins["B"] = Const(randn(dirs, 2 * hid))
        ins["sequence_lens"] = None
        ins["initial_h"] = randn(dirs, batch, hid) if layout == 0 else randn(batch, dirs, hid)
    check("RNN", ins, {"hidden_size": hid, "direction": direction, "layout": layout}, opset=14, n_out=2, rtol=1e-4, atol=1e-5)


def test_rnn_activations_and_clip():
    """ONNX's reference RNN applies neither `activations` nor `clip`: numpy is the oracle here."""
    seq, batch, inp, hid = 5, 2, 3, 4
    x, w, r, b, h0 = randn(seq, batch, inp), randn(2, hid, inp), randn(2, hid, hid), randn(2, 2 * hid), randn(2, batch, hid)
    acts = {"Relu": lambda v: np.maximum(v, 0), "Sigmoid": lambda v: 1 / (1 + np.exp(-v))}
    node = helper.make_node(
        "RNN", ["X", "W", "R", "B", "", "H0"], ["Y", "Yh"], hidden_size=hid, direction="bidirectional",
        activations=["Relu", "Sigmoid"], clip=0.75,
    )
    graph = helper.make_graph(
        [node], "rnn",
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, v.shape) for n, v in [("X", x), ("H0", h0)]],
        [helper.make_tensor_value_info(n, TensorProto.UNDEFINED, None) for n in ["Y", "Yh"]],
        [numpy_helper.from_array(v, n) for n, v in [("W", w), ("R", r), ("B", b)]],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)])
    y, yh = smelt.onnx.InferenceSession(model.SerializeToString(), backend="cranelift").run(None, {"X": x, "H0": h0})
    want_y = np.zeros((seq, 2, batch, hid), np.float32)
    for d, act in enumerate(acts.values()):
        h = h0[d]
        for t in (range(seq) if d == 0 else reversed(range(seq))):
            h = act(np.clip(x[t] @ w[d].T + h @ r[d].T + b[d, :hid] + b[d, hid:], -0.75, 0.75))
            want_y[t, d] = h
        np.testing.assert_allclose(yh[d], h, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(y, want_y, rtol=1e-5, atol=1e-6)


def boxes_and_scores(batches, n, classes, center):
    """Boxes that overlap in clusters (so IoU suppression matters), with tied scores."""
    centers = RNG.uniform(0, 10, (batches, n, 2)).astype(np.float32)
    centers[:, n // 2 :] = centers[:, : n - n // 2] + RNG.uniform(-0.5, 0.5, (batches, n - n // 2, 2)).astype(np.float32)
    sizes = RNG.uniform(0.5, 3, (batches, n, 2)).astype(np.float32)
    if center:
        boxes = np.concatenate([centers, sizes], axis=2)
    else:
        # [y1, x1, y2, x2] with corners in either order.
        lo, hi = centers - sizes / 2, centers + sizes / 2
        boxes = np.stack([lo[..., 1], hi[..., 0], hi[..., 1], lo[..., 0]], axis=2)
    scores = np.round(RNG.uniform(0, 1, (batches, classes, n)), 1).astype(np.float32)
    return boxes.astype(np.float32), scores


@pytest.mark.parametrize("center", [0, 1])
@pytest.mark.parametrize("limits", [(3, 0.5, None), (10, 0.3, 0.45), (0, 0.5, None), (100, 0.0, None)])
def test_non_max_suppression(center, limits):
    boxes, scores = boxes_and_scores(2, 12, 3, center)
    max_out, iou, score = limits
    ins = {"boxes": boxes, "scores": scores}
    for name, v, t in [("max", max_out, np.int64), ("iou", iou, np.float32), ("score", score, np.float32)]:
        ins[name] = None if v is None else Const(np.array([v], t))
    check("NonMaxSuppression", ins, {"center_point_box": center}, opset=11)


@pytest.mark.parametrize("mode", ["avg", "max"])
@pytest.mark.parametrize("coords", ["half_pixel", "output_half_pixel"])
@pytest.mark.parametrize("sampling", [0, 2])
def test_roi_align(mode, coords, sampling):
    x = randn(2, 3, 10, 12)
    rois = np.array([[0, 0, 9, 9], [1.5, 2.2, 6.7, 8.1], [-2, -1, 3, 4], [8, 6, 13, 12], [4, 4, 4.2, 4.1]], np.float32)
    batch = np.array([0, 1, 1, 0, 1], np.int64)
    attrs = {
        "mode": mode,
        "coordinate_transformation_mode": coords,
        "output_height": 3,
        "output_width": 4,
        "sampling_ratio": sampling,
        "spatial_scale": 0.9,
    }
    check("RoiAlign", {"X": x, "rois": rois, "batch_indices": batch}, attrs, opset=16, rtol=1e-4, atol=1e-5)


def test_roi_align_before_opset_16_uses_output_half_pixel():
    """Opset 10's RoiAlign does not shift by half a pixel. ONNX's reference
    evaluator applies opset 16's default there, so onnxruntime is the oracle."""
    ort = pytest.importorskip("onnxruntime")
    x = randn(1, 2, 6, 6)
    rois = np.array([[0.5, 1, 4, 5], [2, 0, 5.5, 3]], np.float32)
    batch = np.array([0, 0], np.int64)
    node = helper.make_node("RoiAlign", ["X", "rois", "b"], ["y"], output_height=2, output_width=3)
    feeds = {"X": x, "rois": rois, "b": batch}
    graph = helper.make_graph(
        [node], "roi", [helper.make_tensor_value_info(k, helper.np_dtype_to_tensor_dtype(v.dtype), v.shape) for k, v in feeds.items()],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 10)]).SerializeToString()
    want = ort.InferenceSession(model, providers=["CPUExecutionProvider"]).run(None, feeds)[0]
    got = smelt.onnx.InferenceSession(model, backend="cranelift").run(None, feeds)[0]
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("pooled,scale", [((2, 2), 1.0), ((3, 2), 0.5), ((1, 1), 0.25), ((3, 3), 0.0625)])
def test_max_roi_pool_matches_onnxruntime(pooled, scale):
    """ONNX's reference evaluator has no MaxRoiPool: onnxruntime is the oracle.
    Regions inside, across and outside the image (empty bins are 0), corners
    rounding half away from zero, bins that do not divide a region evenly."""
    ort = pytest.importorskip("onnxruntime")
    x = randn(2, 3, 9, 11)
    s = 1.0 / scale
    rois = np.array([
        [0, 0, 0, 10, 8], [1, 2.5 * s, 1.5 * s, 7 * s, 6 * s], [0, 8 * s, 6 * s, 14 * s, 12 * s],
        [1, -3 * s, -2 * s, 1 * s, 2 * s], [0, 20 * s, 20 * s, 25 * s, 25 * s], [1, 3 * s, 3 * s, 3 * s, 3 * s],
    ], np.float32)
    node = helper.make_node("MaxRoiPool", ["X", "rois"], ["y"], pooled_shape=list(pooled), spatial_scale=scale)
    feeds = {"X": x, "rois": rois}
    graph = helper.make_graph(
        [node], "roipool", [helper.make_tensor_value_info(k, TensorProto.FLOAT, v.shape) for k, v in feeds.items()],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]).SerializeToString()
    want = ort.InferenceSession(model, providers=["CPUExecutionProvider"]).run(None, feeds)[0]
    for backend in ("cranelift", "cpu"):
        got = smelt.onnx.InferenceSession(model, backend=backend).run(None, feeds)[0]
        np.testing.assert_array_equal(got, want)


EINSUMS = [
    ("ij,jk->ik", [(3, 4), (4, 5)]),
    ("ij,jk", [(3, 4), (4, 5)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("bhqd,bhkd->bhqk", [(2, 3, 5, 8), (2, 3, 7, 8)]),
    ("ii->i", [(4, 4)]),
    ("ii", [(4, 4)]),
    ("iij->j", [(3, 3, 2)]),
    ("ij->ji", [(3, 4)]),
    ("ij->", [(3, 4)]),
    ("i,i->", [(6,), (6,)]),
    ("i,j->ij", [(3,), (4,)]),
    ("...ij,...jk->...ik", [(2, 3, 4), (4, 5)]),
    ("...ij->...ji", [(2, 2, 3, 4)]),
    ("abc,cd,de->abe", [(2, 3, 4), (4, 5), (5, 6)]),
    ("bn,anm,bm->ba", [(2, 3), (4, 3, 5), (2, 5)]),
    ("ab,ab,ab->a", [(3, 4), (3, 4), (3, 4)]),
    ("BIJ, BJK -> BKI", [(2, 3, 4), (2, 4, 5)]),
]


@pytest.mark.parametrize("equation,shapes", EINSUMS)
def test_einsum(equation, shapes):
    ins = {f"x{k}": randn(*s) for k, s in enumerate(shapes)}
    check("Einsum", ins, attrs={"equation": equation}, opset=13, rtol=1e-4, atol=1e-5)
    want = np.einsum(equation.replace(" ", ""), *ins.values())
    model, feeds = op_model("Einsum", ins, {"equation": equation}, 13, 1)
    (got,) = smelt.onnx.InferenceSession(model.SerializeToString(), backend="cpu").run(None, feeds)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


def test_einsum_on_integers_and_its_errors():
    a = RNG.integers(-5, 5, (3, 4)).astype(np.int64)
    b = RNG.integers(-5, 5, (4, 2)).astype(np.int64)
    check("Einsum", {"a": a, "b": b}, attrs={"equation": "ij,jk->ik"}, opset=13)
    for equation, message in [("ij,jk->iq", "names no input"), ("ijk,jk->ik", "rank 2 is named by 3"),
                              ("ij,jk->ii", "repeated"), ("i.j,jk->ik", "not a letter")]:
        model, feeds = op_model("Einsum", {"a": a.astype(np.float32), "b": b.astype(np.float32)},
                                {"equation": equation}, 13, 1)
        with pytest.raises(smelt.SmeltError, match=message):
            smelt.onnx.InferenceSession(model.SerializeToString(), backend="cranelift").run(None, feeds)


UNARY_RANGES = {
    "Tan": (-1.4, 1.4), "Asin": (-0.99, 0.99), "Acos": (-0.99, 0.99), "Atan": (-20, 20),
    "Sinh": (-10, 10), "Cosh": (-10, 10), "Asinh": (-1e5, 1e5), "Acosh": (1, 1e5), "Atanh": (-0.99, 0.99),
    "Softsign": (-10, 10), "Celu": (-5, 5),
}


@pytest.mark.parametrize("op", sorted(UNARY_RANGES))
def test_math_ops(op):
    lo, hi = UNARY_RANGES[op]
    x = np.concatenate([RNG.uniform(lo, hi, 61), np.linspace(lo, hi, 11)[1:-1], [0.0] if lo < 0 < hi else []])
    x = x.astype(np.float32)
    if op == "Asinh":
        x = np.concatenate([x, [1e-6, -3e-5, 0.5, -2.0]]).astype(np.float32)
    check(op, {"x": x}, opset=13, rtol=2e-5, atol=1e-6)
    if op == "Celu":
        check(op, {"x": x}, attrs={"alpha": 0.5}, opset=13, rtol=2e-5, atol=1e-6)


def test_nan_inf_cast_like_and_bits():
    x = np.array([0.0, np.nan, np.inf, -np.inf, -1.5, 3.0], np.float32)
    check("IsNaN", {"x": x}, opset=13)
    for pos, neg in [(1, 1), (1, 0), (0, 1), (0, 0)]:
        check("IsInf", {"x": x}, attrs={"detect_positive": pos, "detect_negative": neg}, opset=13)
    check("CastLike", {"x": x[[0, 4, 5]], "like": np.zeros(2, np.int32)}, opset=15)
    a = RNG.integers(0, 2**31, (4, 5)).astype(np.uint32)
    s = RNG.integers(0, 31, (5,)).astype(np.uint32)
    for d in ["LEFT", "RIGHT"]:
        check("BitShift", {"a": a, "s": s}, attrs={"direction": d}, opset=13)
    i, j = RNG.integers(-1000, 1000, (2, 3, 4)).astype(np.int32)
    for op in ["BitwiseAnd", "BitwiseOr", "BitwiseXor"]:
        check(op, {"i": i, "j": j}, opset=18)
    check("BitwiseNot", {"i": i}, opset=18)


@pytest.mark.parametrize("op", ["ReduceL1", "ReduceLogSum", "ReduceLogSumExp"])
@pytest.mark.parametrize("axes,keepdims", [(None, 1), ([1], 0), ([0, 2], 1), ([-1], 0)])
def test_more_reductions(op, axes, keepdims):
    x = RNG.uniform(0.1, 4.0, (3, 4, 5)).astype(np.float32)
    if op != "ReduceLogSum":
        x = x - 2.0
    ins = {"x": x}
    if axes is not None:
        ins["axes"] = Const(np.array(axes, np.int64))
    check(op, ins, attrs={"keepdims": keepdims}, opset=18, rtol=1e-5, atol=1e-6)


def test_log_sum_exp_of_large_values_does_not_overflow():
    x = np.array([[100.0, 100.0], [-np.inf, 3.0], [89.0, -89.0]], np.float32)
    model, feeds = op_model("ReduceLogSumExp", {"x": x, "axes": Const(np.array([1], np.int64))}, {"keepdims": 0}, 18, 1)
    (got,) = smelt.onnx.InferenceSession(model.SerializeToString(), backend="cranelift").run(None, feeds)
    want = np.logaddexp.reduce(x.astype(np.float64), axis=1)
    np.testing.assert_allclose(got, want, rtol=1e-6)


def test_eye_like_windows_and_compress():
    x = randn(3, 5)
    for attrs in [{}, {"k": 1}, {"k": -2, "dtype": TensorProto.INT32}, {"k": 7}]:
        check("EyeLike", {"x": x}, attrs=attrs, opset=13)
    for op in ["HannWindow", "HammingWindow", "BlackmanWindow"]:
        for size in [1, 8, 10]:
            for periodic in [0, 1]:
                # A symmetric window of one point is 0/0 in ONNX's formula: NaN in both.
                with np.errstate(invalid="ignore"):
                    check(op, {"size": Const(np.int64(size))}, attrs={"periodic": periodic}, opset=17, atol=1e-6)
        check(op, {"size": Const(np.int32(6))}, attrs={"output_datatype": TensorProto.DOUBLE}, opset=17)
    data = randn(3, 4, 2)
    for axis, cond in [(0, [True, False, True]), (1, [False, True, True]), (2, [True]), (None, [1, 0, 0, 1, 1])]:
        attrs = {} if axis is None else {"axis": axis}
        check("Compress", {"data": data, "cond": np.array(cond, bool)}, attrs=attrs, opset=13)


def test_lp_pools_and_reverse_sequence():
    x = randn(2, 3, 7, 6)
    for attrs in [{"kernel_shape": [3, 3]}, {"kernel_shape": [2, 3], "strides": [2, 1], "p": 1},
                  {"kernel_shape": [3, 2], "pads": [1, 0, 1, 1], "p": 3}]:
        check("LpPool", {"x": x}, attrs=attrs, opset=18, rtol=1e-4, atol=1e-5)
    for p in [1, 2, 3]:
        # ONNX's reference evaluator has no GlobalLpPool: its definition in numpy.
        model, feeds = op_model("GlobalLpPool", {"x": x}, {"p": p}, 13, 1)
        (got,) = smelt.onnx.InferenceSession(model.SerializeToString(), backend="cranelift").run(None, feeds)
        want = (np.abs(x.astype(np.float64)) ** p).sum(axis=(2, 3), keepdims=True) ** (1 / p)
        np.testing.assert_allclose(got, want, rtol=1e-5)
    seq = randn(5, 4, 3)
    check("ReverseSequence", {"x": seq, "lens": np.array([5, 1, 3, 0], np.int64)}, opset=13)
    check("ReverseSequence", {"x": seq.transpose(1, 0, 2).copy(), "lens": np.array([4, 2, 5, 1], np.int64)},
          attrs={"batch_axis": 0, "time_axis": 1}, opset=13)


@pytest.mark.parametrize("shape,axes", [([3, 5], None), ([7, 2], None), ([6], [1]), ([2, 9], [-1, 0])])
def test_center_crop_pad(shape, axes):
    attrs = {} if axes is None else {"axes": axes}
    check("CenterCropPad", {"x": randn(4, 5), "shape": Const(np.array(shape, np.int64))}, attrs=attrs, opset=18)


@pytest.mark.parametrize(
    "parts,attrs,length,opset",
    [
        (1, {}, None, 17),
        (2, {"axis": 2}, None, 17),
        (2, {"inverse": 1}, None, 17),
        (1, {"onesided": 1}, None, 17),
        (1, {"onesided": 1}, 6, 17),
        (2, {}, 12, 17),
        (2, {"axis": 1, "inverse": 1}, 5, 17),
        (1, {}, None, 20),
        (2, {"inverse": 1}, 9, 20),
    ],
)
def test_dft(parts, attrs, length, opset):
    x = randn(2, 8, 7, parts)
    ins = {"x": x}
    if length is not None or opset >= 20:
        ins["n"] = Const(np.int64(length if length is not None else x.shape[-2 if opset >= 20 else 1]))
    if opset >= 20:
        ins["axis"] = Const(np.int64(-2))
    check("DFT", ins, attrs=attrs, opset=opset, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize(
    "mode,opset", [("bilinear", 16), ("linear", 20), ("nearest", 16), ("cubic", 20), ("bicubic", 16)]
)
@pytest.mark.parametrize("padding", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("align", [0, 1])
def test_grid_sample(mode, opset, padding, align):
    x = randn(2, 3, 5, 6)
    grid = RNG.uniform(-1.4, 1.4, (2, 4, 7, 2)).astype(np.float32)
    attrs = {"mode": mode, "padding_mode": padding, "align_corners": align}
    if mode not in ("bilinear", "bicubic"):
        check("GridSample", {"x": x, "grid": grid}, attrs=attrs, opset=opset, rtol=1e-4, atol=1e-5)
        return
    # ONNX's reference knows opset 16's names only by opset 20's.
    ref_mode = {"bilinear": "linear", "bicubic": "cubic"}[mode]
    ref, feeds = op_model("GridSample", {"x": x, "grid": grid}, {**attrs, "mode": ref_mode}, 20, 1)
    (want,) = ReferenceEvaluator(ref).run(None, feeds)
    model, feeds = op_model("GridSample", {"x": x, "grid": grid}, attrs, opset, 1)
    (got,) = smelt.onnx.InferenceSession(model.SerializeToString(), backend="cpu").run(None, feeds)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("bins,length,rate,low,high", [(8, 16, 8192, 0.0, 4096.0), (40, 512, 16000, 20.0, 8000.0)])
def test_mel_weight_matrix(bins, length, rate, low, high):
    ins = {
        "bins": Const(np.int64(bins)),
        "length": Const(np.int64(length)),
        "rate": Const(np.int64(rate)),
        "low": Const(np.float32(low)),
        "high": Const(np.float32(high)),
    }
    check("MelWeightMatrix", ins, opset=17)


@pytest.mark.parametrize(
    "parts,step,window,frame_length,attrs",
    [
        (1, 4, 16, None, {}),
        (1, 3, None, 10, {"onesided": 0}),
        (2, 5, 8, 12, {"onesided": 0}),
        (1, 6, 12, 12, {"onesided": 1}),
    ],
)
def test_stft(parts, step, window, frame_length, attrs):
    ins = {"x": randn(2, 40, parts), "step": Const(np.int64(step))}
    ins["window"] = None if window is None else Const(np.hanning(window).astype(np.float32))
    ins["frame_length"] = None if frame_length is None else Const(np.int64(frame_length))
    check("STFT", ins, attrs=attrs, opset=17, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("dims", [(1, 1), (3, 3), (2, 5, 5), (2, 3, 4, 4), (16, 16)])
def test_det(dims):
    x = randn(*dims)
    check("Det", {"x": x}, opset=11, rtol=2e-4, atol=1e-5)
    want = np.linalg.det(x.astype(np.float64))
    model, feeds = op_model("Det", {"x": x}, None, 11, 1)
    (got,) = smelt.onnx.InferenceSession(model.SerializeToString(), backend="cpu").run(None, feeds)
    np.testing.assert_allclose(got, want, rtol=2e-4, atol=1e-5)


def test_det_signs_singular_matrices_and_doubles():
    # Row swaps the factorization must count (odd and even permutations,
    # pivoting forced by zeros on the diagonal), a singular matrix, and f64.
    p_odd = np.eye(4, dtype=np.float32)[[1, 0, 2, 3]] * 2.0
    p_even = np.eye(4, dtype=np.float32)[[1, 2, 0, 3]] * 3.0
    singular = np.array([[1, 2, 3], [2, 4, 6], [1, 0, 1]], np.float32)
    for x in (p_odd, p_even, np.stack([p_odd, p_even])):
        check("Det", {"x": x}, opset=11)
    assert np.asarray(check_det(p_odd)) == pytest.approx(-16.0)
    assert np.asarray(check_det(p_even)) == pytest.approx(81.0)
    assert check_det(singular) == pytest.approx(0.0, abs=1e-6)
    x = RNG.standard_normal((3, 6, 6))
    got = check_det(x)
    assert got.dtype == np.float64
    np.testing.assert_allclose(got, np.linalg.det(x), rtol=1e-12)
    for bad, message in [(randn(3, 4), r"square matrices"), (randn(3), r"square matrices"),
                         (np.ones((2, 2), np.int32), "takes floats")]:
        model, feeds = op_model("Det", {"x": bad}, None, 11, 1)
        with pytest.raises(smelt.SmeltError, match=message):
            smelt.onnx.InferenceSession(model.SerializeToString(), backend="cpu").run(None, feeds)


def check_det(x):
    model, feeds = op_model("Det", {"x": x}, None, 11, 1)
    (got,) = smelt.onnx.InferenceSession(model.SerializeToString(), backend="cpu").run(None, feeds)
    return got


MAX_POOLS = [
    ((1, 2, 7, 7), {"kernel_shape": [3, 3], "strides": [2, 2]}),
    ((2, 3, 8, 9), {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1]}),
    ((1, 2, 9, 9), {"kernel_shape": [2, 3], "strides": [2, 1], "dilations": [2, 1]}),
    ((1, 1, 8, 8), {"kernel_shape": [3, 3], "strides": [2, 2], "ceil_mode": 1}),
    ((2, 3, 11), {"kernel_shape": [4], "strides": [3], "pads": [2, 1]}),
    ((1, 2, 5, 6, 4), {"kernel_shape": [2, 2, 2], "strides": [2, 2, 2]}),
]


@pytest.mark.parametrize("dims,attrs", MAX_POOLS)
def test_max_pool_indices(dims, attrs):
    x = randn(*dims)
    check("MaxPool", {"x": x}, attrs=attrs, opset=12, n_out=2)
    model, feeds = op_model("MaxPool", {"x": x}, attrs, 12, 2)
    want = ReferenceEvaluator(model).run(None, feeds)
    got = smelt.onnx.InferenceSession(model.SerializeToString(), backend="cpu").run(None, feeds)
    np.testing.assert_array_equal(got[0], want[0])
    np.testing.assert_array_equal(got[1], want[1])


def test_max_pool_indices_of_ties_nans_and_padding():
    # Equal values name their first position; -inf inputs beat the padding;
    # a NaN is the maximum of its window.
    x = np.zeros((1, 1, 5, 5), np.float32)
    x[0, 0, 1:3, 1:3] = -np.inf
    x[0, 0, 4, 4] = np.nan
    attrs = {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1]}
    model, feeds = op_model("MaxPool", {"x": x}, attrs, 12, 2)
    values, indices = smelt.onnx.InferenceSession(model.SerializeToString(), backend="cpu").run(None, feeds)
    want_idx = np.array([[0, 1, 3], [5, 8, 8], [15, 16, 24]], np.int64)
    np.testing.assert_array_equal(indices[0, 0], want_idx)
    assert np.isnan(values[0, 0, 2, 2]) and np.all(values[0, 0, :2] == 0)
    y = np.full((1, 1, 4, 4), -np.inf, np.float32)
    model, feeds = op_model("MaxPool", {"x": y}, attrs, 12, 2)
    _, indices = smelt.onnx.InferenceSession(model.SerializeToString(), backend="cpu").run(None, feeds)
    np.testing.assert_array_equal(indices[0, 0], [[0, 1], [4, 5]])


@pytest.mark.parametrize("dims,attrs", MAX_POOLS[:2] + MAX_POOLS[4:])
def test_max_unpool_reverses_max_pool(dims, attrs):
    x = randn(*dims)
    pool, feeds = op_model("MaxPool", {"x": x}, attrs, 12, 2)
    values, indices = ReferenceEvaluator(pool).run(None, feeds)
    unpool_attrs = {k: v for k, v in attrs.items() if k in ("kernel_shape", "strides", "pads")}
    # Without output_shape, the size that pooling maps back from; values
    # whose index falls outside it are dropped (ONNX's reference fails
    # there). With it, indices are flat into that shape, as the operator's
    # documentation and onnxruntime read them (the reference flattens the
    # inferred shape instead: see the next test).
    ns = len(dims) - 2
    pads = attrs.get("pads", [0] * 2 * ns)
    inferred = list(dims[:2]) + [(values.shape[2 + i] - 1) * attrs["strides"][i] - pads[i] - pads[ns + i]
                                 + attrs["kernel_shape"][i] for i in range(ns)]
    for shape, ins in [(inferred, {"x": values, "i": indices}),
                       (list(dims), {"x": values, "i": indices, "shape": Const(np.array(dims, np.int64))})]:
        if shape == list(dims) and "shape" not in ins:
            check("MaxUnpool", ins, attrs=unpool_attrs, opset=11)
        model, feeds = op_model("MaxUnpool", ins, unpool_attrs, 11, 1)
        (got,) = smelt.onnx.InferenceSession(model.SerializeToString(), backend="cpu").run(None, feeds)
        want = np.zeros(int(np.prod(shape)), np.float32)
        inside = indices.ravel() < want.size
        want[indices.ravel()[inside]] = values.ravel()[inside]
        np.testing.assert_array_equal(got, want.reshape(shape))


def test_max_unpool_with_output_shape_as_documented():
    # The example of ONNX's operator documentation (`with_output_shape`).
    x = np.array([[[[5, 6], [7, 8]]]], np.float32)
    i = np.array([[[[5, 7], [13, 15]]]], np.int64)
    ins = {"x": x, "i": i, "shape": Const(np.array([1, 1, 5, 5], np.int64))}
    model, feeds = op_model("MaxUnpool", ins, {"kernel_shape": [2, 2], "strides": [2, 2]}, 11, 1)
    (got,) = smelt.onnx.InferenceSession(model.SerializeToString(), backend="cranelift").run(None, feeds)
    want = np.array([[0, 0, 0, 0, 0], [5, 0, 6, 0, 0], [0, 0, 0, 7, 0], [8, 0, 0, 0, 0], [0, 0, 0, 0, 0]])
    np.testing.assert_array_equal(got[0, 0], want)


def run_model(model, feeds, backend="cpu"):
    return smelt.onnx.InferenceSession(model.SerializeToString(), backend=backend).run(None, feeds)


def col2im_case(image, block, c=2, n=2, dilations=None, pads=None, strides=None):
    ns = len(image)
    d = dilations or [1] * ns
    p = pads or [0] * (2 * ns)
    s = strides or [1] * ns
    counts = [(image[i] + p[i] + p[ns + i] - (d[i] * (block[i] - 1) + 1)) // s[i] + 1 for i in range(ns)]
    x = randn(n, c * int(np.prod(block)), int(np.prod(counts)))
    attrs = {k: v for k, v in (("dilations", dilations), ("pads", pads), ("strides", strides)) if v is not None}
    ins = {"x": x, "image": Const(np.array(image, np.int64)), "block": Const(np.array(block, np.int64))}
    return ins, attrs


COL2IMS = [
    ((5, 5), (1, 5), {}),  # ONNX's documentation example's shapes
    ((6, 7), (3, 3), {}),
    ((6, 7), (3, 2), {"strides": [2, 3]}),
    ((7, 6), (3, 3), {"pads": [1, 2, 0, 1]}),
    ((9, 8), (2, 3), {"dilations": [2, 2], "pads": [1, 0, 1, 1], "strides": [2, 1]}),
    ((4, 5, 6), (2, 2, 3), {"strides": [2, 1, 3]}),
    ((10,), (3,), {"pads": [2, 1], "strides": [2]}),
]


@pytest.mark.parametrize("image,block,attrs", COL2IMS)
def test_col2im(image, block, attrs):
    # Overlapping blocks add up; padding is cropped off; strides leave gaps.
    ins, attrs = col2im_case(image, block, **attrs)
    check("Col2Im", ins, attrs=attrs, opset=18, rtol=1e-5, atol=1e-5)
    model, feeds = op_model("Col2Im", ins, attrs, 18, 1)
    (want,) = ReferenceEvaluator(model).run(None, feeds)
    np.testing.assert_allclose(run_model(model, feeds)[0], want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("second", ["seq2", "c"])
def test_sequence_map_inlines_its_body_per_item(second):
    # The items of one sequence with the matching items of another, or with
    # one tensor for all (ONNX's reference takes either, not both): two output
    # sequences, read back through ConcatFromSequence.
    a, b, c = randn(2, 3), randn(2, 3), randn(3)
    f = TensorProto.FLOAT
    body = helper.make_graph(
        [helper.make_node("Add", ["x", "y"], ["s"]), helper.make_node("Mul", ["s", "x"], ["p"]),
         helper.make_node("Relu", ["x"], ["r"])],
        "body",
        [helper.make_tensor_value_info(k, f, None) for k in ("x", "y")],
        [helper.make_tensor_value_info(k, f, None) for k in ("p", "r")],
    )
    nodes = [
        helper.make_node("SequenceConstruct", ["a", "b", "a"], ["seq"]),
        helper.make_node("SequenceConstruct", ["b", "a", "a"], ["seq2"]),
        helper.make_node("SequenceMap", ["seq", second], ["out1", "out2"], body=body),
        helper.make_node("ConcatFromSequence", ["out1"], ["y1"], axis=0),
        helper.make_node("ConcatFromSequence", ["out2"], ["y2"], axis=1, new_axis=1),
    ]
    graph = helper.make_graph(
        nodes, "seqmap",
        [helper.make_tensor_value_info("a", f, a.shape), helper.make_tensor_value_info("b", f, b.shape),
         helper.make_tensor_value_info("c", f, c.shape)],
        [helper.make_tensor_value_info("y1", f, None), helper.make_tensor_value_info("y2", f, None)],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    feeds = {"a": a, "b": b, "c": c}
    want = ReferenceEvaluator(model).run(None, feeds)
    for backend in ("cranelift", "cpu"):
        got = run_model(model, feeds, backend)
        for g, w in zip(got, want):
            np.testing.assert_allclose(g, w, rtol=1e-6)


def test_sequence_map_refuses_sequences_of_other_lengths():
    f = TensorProto.FLOAT
    body = helper.make_graph(
        [helper.make_node("Add", ["x", "y"], ["s"])], "body",
        [helper.make_tensor_value_info(k, f, None) for k in ("x", "y")], [helper.make_tensor_value_info("s", f, None)],
    )
    nodes = [
        helper.make_node("SequenceConstruct", ["a", "a"], ["seq"]),
        helper.make_node("SequenceConstruct", ["a"], ["seq2"]),
        helper.make_node("SequenceMap", ["seq", "seq2"], ["out"], body=body),
        helper.make_node("ConcatFromSequence", ["out"], ["y"], axis=0),
    ]
    graph = helper.make_graph(nodes, "bad", [helper.make_tensor_value_info("a", f, (2,))],
                              [helper.make_tensor_value_info("y", f, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    with pytest.raises(Exception, match="SequenceMap.*holds 1 items"):
        run_model(model, {"a": randn(2)})


def check_with_onnxruntime(op, ins, attrs, opset):
    """`check` with onnxruntime as the oracle (float results), for operator
    versions ONNX's reference evaluator does not implement (it applies the
    newest one)."""
    ort = pytest.importorskip("onnxruntime")
    model, feeds = op_model(op, ins, attrs, opset, 1)
    model.graph.output[0].type.tensor_type.elem_type = TensorProto.FLOAT  # onnxruntime wants a type
    (want,) = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)
    for backend in ("cranelift", "cpu"):
        np.testing.assert_allclose(run_model(model, feeds, backend)[0], want, rtol=1e-6)


@pytest.mark.parametrize("axis", [-1, 0, 1])
def test_hardmax(axis):
    # Ties keep the first maximum.
    x = RNG.integers(-3, 4, (3, 4, 5)).astype(np.float32)
    check("Hardmax", {"x": x}, attrs={"axis": axis}, opset=13)


@pytest.mark.parametrize("axis", [0, 1, 2])
def test_hardmax_before_opset_13_flattens_at_the_axis(axis):
    x = RNG.integers(-3, 4, (3, 4, 5)).astype(np.float32)
    check_with_onnxruntime("Hardmax", {"x": x}, {"axis": axis}, 11)


def test_arg_max_and_hardmax_take_a_nan_as_the_maximum():
    x = randn(3, 6)
    x[0, 2] = x[0, 4] = np.nan
    x[2, 5] = np.nan
    check("ArgMax", {"x": x}, attrs={"axis": 1}, opset=13)
    check("ArgMin", {"x": x}, attrs={"axis": 1}, opset=13)
    check("Hardmax", {"x": x}, attrs={"axis": 1}, opset=13)


@pytest.mark.parametrize("axis", [0, 1])
def test_scatter_of_opsets_9_and_10_is_scatter_elements(axis):
    data, upd = randn(3, 4), randn(2, 3)
    idx = np.array([[1, 0, 2], [0, 2, 1]], np.int64)
    check_with_onnxruntime("Scatter", {"data": data, "indices": idx, "updates": upd}, {"axis": axis}, 10)


DEFORM_CONVS = [
    # (X, W, attrs, bias, mask)
    ((1, 1, 3, 3), (1, 1, 2, 2), {}, False, False),  # the documentation example's shapes
    ((2, 4, 7, 6), (6, 4, 3, 3), {"pads": [1, 1, 1, 1]}, True, True),
    ((1, 4, 9, 8), (4, 2, 3, 2), {"group": 2, "offset_group": 2, "strides": [2, 1], "dilations": [1, 2]}, True, True),
    ((2, 6, 6, 6), (3, 6, 2, 2), {"offset_group": 3, "pads": [0, 1, 1, 0]}, False, True),
]


@pytest.mark.parametrize("xs,ws,attrs,bias,mask", DEFORM_CONVS)
def test_deform_conv(xs, ws, attrs, bias, mask):
    # Offsets of up to two pixels send taps between pixels and past the border.
    x, w = randn(*xs), randn(*ws)
    kh, kw = ws[2:]
    st, dl = attrs.get("strides", [1, 1]), attrs.get("dilations", [1, 1])
    p = attrs.get("pads", [0, 0, 0, 0])
    oh = (xs[2] + p[0] + p[2] - ((kh - 1) * dl[0] + 1)) // st[0] + 1
    ow = (xs[3] + p[1] + p[3] - ((kw - 1) * dl[1] + 1)) // st[1] + 1
    og = attrs.get("offset_group", 1)
    ins = {"x": x, "w": w, "offset": RNG.uniform(-2, 2, (xs[0], og * kh * kw * 2, oh, ow)).astype(np.float32)}
    ins["b"] = randn(ws[0]) if bias else None
    if mask:
        ins["mask"] = RNG.uniform(0, 1, (xs[0], og * kh * kw, oh, ow)).astype(np.float32)
    check("DeformConv", ins, attrs=attrs, opset=19, rtol=1e-4, atol=1e-4)
    model, feeds = op_model("DeformConv", ins, attrs, 19, 1)
    (want,) = ReferenceEvaluator(model).run(None, feeds)
    np.testing.assert_allclose(run_model(model, feeds)[0], want, rtol=1e-4, atol=1e-4)


def test_deform_conv_with_zero_offsets_is_conv():
    x, w = randn(1, 3, 6, 7), randn(4, 3, 3, 3)
    ins = {"x": x, "w": w, "offset": np.zeros((1, 18, 4, 5), np.float32)}
    model, feeds = op_model("DeformConv", ins, {}, 19, 1)
    (want,) = ReferenceEvaluator(op_model("Conv", {"x": x, "w": w}, {}, 19, 1)[0]).run(None, {"x": x, "w": w})
    np.testing.assert_allclose(run_model(model, feeds)[0], want, rtol=1e-4, atol=1e-5)


def test_col2im_rejects_a_column_count_the_image_does_not_hold():
    ins, attrs = col2im_case((6, 7), (3, 3))
    ins["x"] = ins["x"][:, :, :-1]
    model, feeds = op_model("Col2Im", ins, attrs, 18, 1)
    with pytest.raises(Exception, match="Col2Im.*block positions"):
        run_model(model, feeds)


def test_random_generators_draw_from_their_distributions():
    n = 200_000
    model, feeds = op_model("RandomNormal", {}, {"shape": [n], "mean": 2.0, "scale": 3.0, "seed": 7.0}, 13, 1)
    (a,) = run_model(model, feeds)
    assert a.shape == (n,) and a.dtype == np.float32
    assert abs(a.mean() - 2.0) < 0.05 and abs(a.std() - 3.0) < 0.05
    # A seed draws the same numbers every run and in every session.
    np.testing.assert_array_equal(run_model(model, feeds)[0], a)
    np.testing.assert_array_equal(run_model(model, feeds, "cranelift")[0], a)
    model, feeds = op_model("RandomUniform", {}, {"shape": [4, n // 4], "low": -1.0, "high": 5.0, "dtype": 11}, 13, 1)
    (u,) = run_model(model, feeds)
    assert u.shape == (4, n // 4) and u.dtype == np.float64
    assert u.min() >= -1.0 and u.max() < 5.0 and abs(u.mean() - 2.0) < 0.05
    # Without a seed, each run draws anew.
    assert not np.array_equal(run_model(model, feeds)[0], u)
    like = np.zeros((3, 5), np.float16)
    for op in ("RandomNormalLike", "RandomUniformLike"):
        model, feeds = op_model(op, {"x": like}, {"seed": 1.0}, 13, 1)
        (got,) = run_model(model, feeds)
        assert got.shape == (3, 5) and got.dtype == np.float16 and np.all(np.isfinite(got))
        model, feeds = op_model(op, {"x": like}, {"seed": 1.0, "dtype": 1}, 13, 1)
        assert run_model(model, feeds)[0].dtype == np.float32


def test_bernoulli_and_generators_inside_a_model():
    p = np.concatenate([np.zeros(1000), np.ones(1000), np.full(100_000, 0.3)]).astype(np.float32)
    model, feeds = op_model("Bernoulli", {"p": p}, {"seed": 3.0}, 15, 1)
    (b,) = run_model(model, feeds)
    assert b.dtype == np.float32 and set(np.unique(b)) <= {0.0, 1.0}
    assert not b[:1000].any() and b[1000:2000].all() and abs(b[2000:].mean() - 0.3) < 0.01
    model, feeds = op_model("Bernoulli", {"p": p}, {"seed": 3.0, "dtype": 7}, 15, 1)
    np.testing.assert_array_equal(run_model(model, feeds)[0], b.astype(np.int64))
    # Noise added to an input: the generator runs on the host, the add compiled.
    x = randn(2, 8)
    nodes = [helper.make_node("RandomNormalLike", ["x"], ["noise"], seed=5.0, scale=0.0, mean=1.5),
             helper.make_node("Add", ["x", "noise"], ["y"])]
    graph = helper.make_graph(nodes, "noisy", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 8])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 8])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 15)])
    np.testing.assert_allclose(run_model(model, {"x": x})[0], x + 1.5, rtol=1e-6)
    model, feeds = op_model("RandomNormal", {}, {"shape": [2], "dtype": 6}, 13, 1)
    with pytest.raises(smelt.SmeltError, match="draws floats"):
        run_model(model, feeds)


def test_multinomial_draws_classes_by_their_probabilities():
    probs = np.array([[0.1, 0.2, 0.7, 0.0], [0.25, 0.25, 0.25, 0.25]])
    with np.errstate(divide="ignore"):
        logits = (np.log(probs) + 3.0).astype(np.float32)
    model, feeds = op_model("Multinomial", {"x": logits}, {"sample_size": 50_000, "seed": 2.0}, 13, 1)
    (d,) = run_model(model, feeds)
    assert d.shape == (2, 50_000) and d.dtype == np.int32
    for row, p in zip(d, probs):
        np.testing.assert_allclose(np.bincount(row, minlength=4) / row.size, p, atol=0.01)
    assert not np.any(d[0] == 3)
    np.testing.assert_array_equal(run_model(model, feeds)[0], d)
    model, feeds = op_model("Multinomial", {"x": logits}, {"sample_size": 3, "dtype": 7}, 13, 1)
    (d,) = run_model(model, feeds)
    assert d.shape == (2, 3) and d.dtype == np.int64


@pytest.mark.parametrize("mode", ["linear", "nearest", "cubic"])
@pytest.mark.parametrize("padding", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("align", [0, 1])
def test_grid_sample_volumes_and_lines(mode, padding, align):
    # Opset 20's N-D form: volumes [N, C, D, H, W] and 1-D lines [N, C, W].
    attrs = {"mode": mode, "padding_mode": padding, "align_corners": align}
    x = randn(2, 2, 3, 4, 5)
    grid = RNG.uniform(-1.3, 1.3, (2, 2, 3, 4, 3)).astype(np.float32)
    check("GridSample", {"x": x, "grid": grid}, attrs=attrs, opset=20, rtol=1e-4, atol=1e-5)
    line = randn(2, 3, 7)
    grid = RNG.uniform(-1.3, 1.3, (2, 5, 1)).astype(np.float32)
    check("GridSample", {"x": line, "grid": grid}, attrs=attrs, opset=20, rtol=1e-4, atol=1e-5)


# ONNX's reference divides by zero for an axis of one with align_corners
# (its step is infinite; it still yields -1, as smelt does).
@pytest.mark.filterwarnings("ignore:divide by zero:RuntimeWarning")
@pytest.mark.parametrize("size", [(2, 3, 4, 5), (1, 1, 1, 6), (2, 1, 3, 4, 5)])
@pytest.mark.parametrize("align", [0, 1])
def test_affine_grid(size, align):
    r = len(size) - 2
    theta = RNG.standard_normal((size[0], r, r + 1)).astype(np.float32)
    ins = {"theta": theta, "size": Const(np.array(size, np.int64))}
    check("AffineGrid", ins, attrs={"align_corners": align}, opset=20, rtol=1e-5, atol=1e-5)
    # A spatial transformer: the grid straight into GridSample, compiled.
    x = randn(*size)
    nodes = [helper.make_node("AffineGrid", ["theta", "size"], ["grid"], align_corners=align),
             helper.make_node("GridSample", ["x", "grid"], ["y"], align_corners=align)]
    elem = TensorProto.FLOAT
    graph = helper.make_graph(
        nodes, "stn",
        [helper.make_tensor_value_info("theta", elem, theta.shape), helper.make_tensor_value_info("x", elem, x.shape)],
        [helper.make_tensor_value_info("y", elem, None)],
        [numpy_helper.from_array(np.array(size, np.int64), "size")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)])
    feeds = {"theta": theta, "x": x}
    (want,) = ReferenceEvaluator(model).run(None, feeds)
    np.testing.assert_allclose(run_model(model, feeds)[0], want, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("op", ["NegativeLogLikelihoodLoss", "SoftmaxCrossEntropyLoss"])
@pytest.mark.parametrize("reduction", ["none", "sum", "mean"])
@pytest.mark.parametrize("weighted,ignore", [(False, None), (True, None), (True, 2), (False, 0)])
@pytest.mark.parametrize("dims", [(4, 5), (3, 5, 2, 3)])
def test_losses(op, reduction, weighted, ignore, dims):
    x = randn(*dims)
    target = RNG.integers(0, dims[1], (dims[0], *dims[2:])).astype(np.int64)
    ins = {"x": x, "t": target}
    if weighted:
        ins["w"] = RNG.uniform(0.5, 2.0, dims[1]).astype(np.float32)
    attrs = {"reduction": reduction}
    if ignore is not None:
        attrs["ignore_index"] = ignore
    n_out = 2 if op == "SoftmaxCrossEntropyLoss" else 1
    check(op, ins, attrs=attrs, opset=13, n_out=n_out, rtol=1e-5, atol=1e-6)
