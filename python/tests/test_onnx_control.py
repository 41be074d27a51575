"""ONNX `If`, `Loop` and `Scan` (docs/onnx.md), against ONNX's reference evaluator
(and numpy where it has no answer):
branches chosen at import and at run time (an HLO `conditional`), loops
unrolled at import and run as a `while` (trip counts fed at run time, none at all, long ones),
loop-carried values, scan outputs, a condition computed in the body, nested
subgraphs that read enclosing scopes, and the loops smelt refuses."""

import numpy as np
import pytest

import smelt
import smelt.onnx

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402
from onnx.reference import ReferenceEvaluator  # noqa: E402

F, I64, B = TensorProto.FLOAT, TensorProto.INT64, TensorProto.BOOL


def vi(name, t, shape=None):
    return helper.make_tensor_value_info(name, t, shape)


def model(nodes, inputs, outputs, inits=()):
    g = helper.make_graph(nodes, "m", inputs, outputs, [numpy_helper.from_array(np.asarray(v), k) for k, v in inits])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])


def check(m, feeds, backend="cranelift"):
    want = ReferenceEvaluator(m).run(None, feeds)
    got = smelt.onnx.InferenceSession(m.SerializeToString(), backend=backend).run(None, feeds)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.shape == w.shape
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)


def branches():
    then_g = helper.make_graph([helper.make_node("Mul", ["x", "x"], ["t"])], "then", [], [vi("t", F)])
    else_g = helper.make_graph([helper.make_node("Neg", ["x"], ["e"])], "else", [], [vi("e", F)])
    return then_g, else_g


@pytest.mark.parametrize("x", [[1, 2, 3], [-1, -2, 0.5]])
def test_if_on_a_condition_computed_at_run_time(x):
    then_g, else_g = branches()
    m = model(
        [
            helper.make_node("ReduceSum", ["x"], ["s"], keepdims=0),
            helper.make_node("Greater", ["s", "zero"], ["c"]),
            helper.make_node("If", ["c"], ["y"], then_branch=then_g, else_branch=else_g),
        ],
        [vi("x", F, [3])],
        [vi("y", F)],
        [("zero", np.float32(0))],
    )
    check(m, {"x": np.array(x, np.float32)})


@pytest.mark.parametrize("cond", [True, False])
def test_if_on_a_constant_imports_one_branch(cond):
    then_g, _ = branches()
    # The branch not taken holds an operator smelt does not have: never imported.
    else_g = helper.make_graph([helper.make_node("NoSuchOp", ["x"], ["e"])], "else", [], [vi("e", F)])
    if not cond:
        then_g, else_g = else_g, then_g
    m = model(
        [helper.make_node("If", ["c"], ["y"], then_branch=then_g, else_branch=else_g)],
        [vi("x", F, [3])],
        [vi("y", F)],
        [("c", np.array(cond))],
    )
    x = np.array([1, -2, 3], np.float32)
    got = smelt.onnx.InferenceSession(m.SerializeToString(), backend="cranelift").run(None, {"x": x})
    np.testing.assert_allclose(got[0], x * x)


def counting_body(with_scan):
    """acc += x * i (i the iteration number); the condition passes through."""
    outs = [vi("cond2", B), vi("acc2", F, [3])] + ([vi("scan", F, [3])] if with_scan else [])
    nodes = [
        helper.make_node("Cast", ["i"], ["fi"], to=F),
        helper.make_node("Mul", ["x", "fi"], ["xi"]),
        helper.make_node("Add", ["acc", "xi"], ["acc2"]),
        helper.make_node("Identity", ["cond"], ["cond2"]),
    ]
    if with_scan:
        nodes.append(helper.make_node("Identity", ["acc2"], ["scan"]))
    return helper.make_graph(nodes, "body", [vi("i", I64, []), vi("cond", B, []), vi("acc", F, [3])], outs)


def test_loop_with_a_constant_trip_count_and_scan_outputs():
    m = model(
        [helper.make_node("Loop", ["M", "yes", "a0"], ["final", "scans"], body=counting_body(True))],
        [vi("x", F, [3]), vi("a0", F, [3])],
        [vi("final", F), vi("scans", F)],
        [("M", np.int64(5)), ("yes", np.array(True))],
    )
    check(m, {"x": np.array([1, 2, 3], np.float32), "a0": np.array([0, 1, 0], np.float32)})


@pytest.mark.parametrize("c0", [True, False])
def test_loop_stops_on_a_condition_computed_in_the_body(c0):
    body = helper.make_graph(
        [
            helper.make_node("Add", ["acc", "x"], ["acc2"]),
            helper.make_node("ReduceSum", ["acc2"], ["s"], keepdims=0),
            helper.make_node("Less", ["s", "ten"], ["cond2"]),
        ],
        "body",
        [vi("i", I64, []), vi("cond", B, []), vi("acc", F, [3])],
        [vi("cond2", B), vi("acc2", F, [3])],
        [numpy_helper.from_array(np.float32(10), "ten")],
    )
    m = model(
        [helper.make_node("Loop", ["M", "c0", "a0"], ["final"], body=body)],
        [vi("x", F, [3]), vi("a0", F, [3]), vi("c0", B, [])],
        [vi("final", F)],
        [("M", np.int64(20))],
    )
    check(m, {"x": np.array([1, 0.5, 1], np.float32), "a0": np.zeros(3, np.float32), "c0": np.array(c0)})


def test_nested_if_in_a_loop_reads_the_body_scope():
    # Each iteration doubles acc when the iteration number is even, else adds x.
    then_g = helper.make_graph([helper.make_node("Add", ["acc", "acc"], ["d"])], "even", [], [vi("d", F)])
    else_g = helper.make_graph([helper.make_node("Add", ["acc", "x"], ["p"])], "odd", [], [vi("p", F)])
    body = helper.make_graph(
        [
            helper.make_node("Mod", ["i", "two"], ["r"]),
            helper.make_node("Equal", ["r", "zero"], ["even"]),
            helper.make_node("If", ["even"], ["acc2"], then_branch=then_g, else_branch=else_g),
            helper.make_node("Identity", ["cond"], ["cond2"]),
        ],
        "body",
        [vi("i", I64, []), vi("cond", B, []), vi("acc", F, [3])],
        [vi("cond2", B), vi("acc2", F, [3])],
        [numpy_helper.from_array(np.int64(2), "two"), numpy_helper.from_array(np.int64(0), "zero")],
    )
    m = model(
        [helper.make_node("Loop", ["M", "yes", "a0"], ["final"], body=body)],
        [vi("x", F, [3]), vi("a0", F, [3])],
        [vi("final", F)],
        [("M", np.int64(6)), ("yes", np.array(True))],
    )
    check(m, {"x": np.array([1, 2, 3], np.float32), "a0": np.array([1, 1, 1], np.float32)})


@pytest.mark.parametrize("backend", ["cranelift", "cpu"])
@pytest.mark.parametrize("trips", [0, 1, 3, 40])
def test_a_trip_count_fed_at_run_time_runs_a_while_loop(backend, trips):
    m = model(
        [helper.make_node("Loop", ["M", "yes", "a0"], ["final"], body=counting_body(False), name="the_loop")],
        [vi("x", F, [3]), vi("a0", F, [3]), vi("M", I64, [])],
        [vi("final", F)],
        [("yes", np.array(True))],
    )
    feeds = {"x": np.array([1, 2, 3], np.float32), "a0": np.array([0, 1, 0], np.float32), "M": np.int64(trips)}
    check(m, feeds, backend)


@pytest.mark.parametrize("backend", ["cranelift", "cpu"])
def test_scan_outputs_of_a_long_loop_and_of_a_fed_trip_count(backend):
    x, a0 = np.array([1, 2, 3], np.float32), np.array([0, 1, 0], np.float32)
    long = model(
        [helper.make_node("Loop", ["M", "yes", "a0"], ["final", "scans"], body=counting_body(True))],
        [vi("x", F, [3]), vi("a0", F, [3])],
        [vi("final", F), vi("scans", F)],
        [("M", np.int64(50)), ("yes", np.array(True))],
    )
    check(long, {"x": x, "a0": a0}, backend)
    fed = model(
        [helper.make_node("Loop", ["M", "yes", "a0"], ["final", "scans"], body=counting_body(True))],
        [vi("x", F, [3]), vi("a0", F, [3]), vi("M", I64, [])],
        [vi("final", F), vi("scans", F)],
        [("yes", np.array(True))],
    )
    session = smelt.onnx.InferenceSession(fed.SerializeToString(), backend=backend)
    for trips in [4, 30, 4]:
        feeds = {"x": x, "a0": a0, "M": np.int64(trips)}
        want = ReferenceEvaluator(fed).run(None, feeds)
        for g, w in zip(session.run(None, feeds), want):
            assert g.shape == w.shape
            np.testing.assert_allclose(g, w, rtol=1e-5)


@pytest.mark.parametrize("start", [0.0, 3.0, 20.0])
def test_a_loop_without_a_trip_count_runs_until_its_condition_fails(start):
    # Halve until below one, counting the halvings: a while loop proper.
    body = helper.make_graph(
        [
            helper.make_node("Mul", ["v", "half"], ["v2"]),
            helper.make_node("Add", ["n", "one"], ["n2"]),
            helper.make_node("Greater", ["v2", "one_f"], ["cond2"]),
        ],
        "body",
        [vi("i", I64, []), vi("cond", B, []), vi("v", F, []), vi("n", I64, [])],
        [vi("cond2", B), vi("v2", F, []), vi("n2", I64, [])],
        [
            numpy_helper.from_array(np.float32(0.5), "half"),
            numpy_helper.from_array(np.int64(1), "one"),
            numpy_helper.from_array(np.float32(1), "one_f"),
        ],
    )
    m = model(
        [
            helper.make_node("Greater", ["v0", "one_f"], ["c0"]),
            helper.make_node("Loop", ["", "c0", "v0", "n0"], ["v", "n"], body=body),
        ],
        [vi("v0", F, [])],
        [vi("v", F), vi("n", I64)],
        [("one_f", np.float32(1)), ("n0", np.int64(0))],
    )
    check(m, {"v0": np.float32(start)}, "cpu")


def test_nested_while_loops_read_every_enclosing_scope():
    # out = sum over i < M, k < K of (x * i + y * k): the inner loop reads
    # the outer body's iteration number and the graph's inputs. Neither loop
    # has a condition input, which ONNX's reference evaluator takes for
    # "never run" (its Loop tests `while cond`): numpy has the answer.
    inner = helper.make_graph(
        [
            helper.make_node("Cast", ["k"], ["fk"], to=F),
            helper.make_node("Cast", ["i"], ["fi"], to=F),
            helper.make_node("Mul", ["x", "fi"], ["xi"]),
            helper.make_node("Mul", ["y", "fk"], ["yk"]),
            helper.make_node("Add", ["xi", "yk"], ["t"]),
            helper.make_node("Add", ["acc_in", "t"], ["acc_out"]),
            helper.make_node("Identity", ["c_in"], ["c_out"]),
        ],
        "inner",
        [vi("k", I64, []), vi("c_in", B, []), vi("acc_in", F, [3])],
        [vi("c_out", B), vi("acc_out", F, [3])],
    )
    outer = helper.make_graph(
        [
            helper.make_node("Loop", ["K", "", "acc"], ["acc2"], body=inner),
            helper.make_node("Identity", ["cond"], ["cond2"]),
        ],
        "outer",
        [vi("i", I64, []), vi("cond", B, []), vi("acc", F, [3])],
        [vi("cond2", B), vi("acc2", F, [3])],
    )
    m = model(
        [helper.make_node("Loop", ["M", "", "a0"], ["out"], body=outer)],
        [vi("x", F, [3]), vi("y", F, [3]), vi("M", I64, []), vi("K", I64, [])],
        [vi("out", F)],
        [("a0", np.zeros(3, np.float32))],
    )
    x, y = np.array([1, 2, 3], np.float32), np.array([0.5, -1, 2], np.float32)
    session = smelt.onnx.InferenceSession(m.SerializeToString(), backend="cpu")
    for trips, inner_trips in [(0, 5), (3, 4), (20, 17)]:
        (got,) = session.run(None, {"x": x, "y": y, "M": np.int64(trips), "K": np.int64(inner_trips)})
        want = sum(x * i + y * k for i in range(trips) for k in range(inner_trips)) + np.zeros(3, np.float32)
        np.testing.assert_allclose(got, want, rtol=1e-5)


@pytest.mark.parametrize("backend", ["cranelift", "cpu"])
def test_a_while_body_reads_a_shape_fed_to_the_graph(backend):
    # The body reshapes by a graph input: its value is asked for while
    # compiling (as for a Reshape outside a loop), one compilation per value.
    body = helper.make_graph(
        [
            helper.make_node("Reshape", ["acc", "shape"], ["r"]),
            helper.make_node("Transpose", ["r"], ["t"]),
            helper.make_node("Reshape", ["t", "flat"], ["u"]),
            helper.make_node("Add", ["u", "x"], ["acc2"]),
            helper.make_node("Identity", ["cond"], ["cond2"]),
        ],
        "body",
        [vi("i", I64, []), vi("cond", B, []), vi("acc", F, [6])],
        [vi("cond2", B), vi("acc2", F, [6])],
        [numpy_helper.from_array(np.array([-1], np.int64), "flat")],
    )
    m = model(
        [helper.make_node("Loop", ["M", "yes", "a0"], ["final"], body=body)],
        [vi("x", F, [6]), vi("a0", F, [6]), vi("shape", I64, [2])],
        [vi("final", F)],
        [("M", np.int64(21)), ("yes", np.array(True))],
    )
    session = smelt.onnx.InferenceSession(m.SerializeToString(), backend=backend)
    x, a0 = np.arange(6, dtype=np.float32) / 7, np.arange(6, dtype=np.float32)
    for shape in [[2, 3], [3, 2], [2, 3]]:
        feeds = {"x": x, "a0": a0, "shape": np.array(shape, np.int64)}
        (want,) = ReferenceEvaluator(m).run(None, feeds)
        (got,) = session.run(None, feeds)
        np.testing.assert_allclose(got, want, rtol=1e-6)


@pytest.mark.parametrize("backend", ["cranelift", "cpu"])
def test_an_if_in_a_while_body_runs_one_branch_per_iteration(backend):
    # 40 iterations (a while loop): even ones double acc, odd ones add x and
    # a value read from the graph two scopes out.
    then_g = helper.make_graph([helper.make_node("Add", ["acc", "acc"], ["d"])], "even", [], [vi("d", F)])
    else_g = helper.make_graph(
        [helper.make_node("Add", ["acc", "x"], ["p"]), helper.make_node("Sub", ["p", "bias"], ["q"])],
        "odd",
        [],
        [vi("q", F)],
    )
    body = helper.make_graph(
        [
            helper.make_node("Mod", ["i", "two"], ["r"]),
            helper.make_node("Equal", ["r", "zero"], ["even"]),
            helper.make_node("If", ["even"], ["acc1"], then_branch=then_g, else_branch=else_g),
            helper.make_node("Mul", ["acc1", "shrink"], ["acc2"]),
            helper.make_node("Identity", ["cond"], ["cond2"]),
        ],
        "body",
        [vi("i", I64, []), vi("cond", B, []), vi("acc", F, [3])],
        [vi("cond2", B), vi("acc2", F, [3])],
        [
            numpy_helper.from_array(np.int64(2), "two"),
            numpy_helper.from_array(np.int64(0), "zero"),
            numpy_helper.from_array(np.float32(0.5), "shrink"),
        ],
    )
    m = model(
        [helper.make_node("Loop", ["M", "yes", "a0"], ["final"], body=body)],
        [vi("x", F, [3]), vi("a0", F, [3]), vi("bias", F, [3])],
        [vi("final", F)],
        [("M", np.int64(40)), ("yes", np.array(True))],
    )
    feeds = {k: np.array(v, np.float32) for k, v in [("x", [1, 2, 3]), ("a0", [1, 1, 1]), ("bias", [0.5, 0, -1])]}
    check(m, feeds, backend)


def test_loops_smelt_cannot_compile_name_the_node():
    scans_and_computed_cond = model(
        [helper.make_node("Loop", ["M", "c0", "a0"], ["final", "scans"], body=counting_body(True), name="scanner")],
        [vi("x", F, [3]), vi("a0", F, [3]), vi("c0", B, [])],
        [vi("final", F), vi("scans", F)],
        [("M", np.int64(3))],
    )
    with pytest.raises(smelt.SmeltError, match="scanner.*scan outputs and a condition computed at run time"):
        smelt.onnx.InferenceSession(scans_and_computed_cond.SerializeToString(), backend="cranelift")
    feeds = {"x": np.ones(3, np.float32), "a0": np.ones(3, np.float32), "c0": np.array(True)}
    long_scans_and_computed_cond = model(
        [helper.make_node("Loop", ["M", "c0", "a0"], ["final", "scans"], body=counting_body(True), name="scanner")],
        [vi("x", F, [3]), vi("a0", F, [3]), vi("c0", B, [])],
        [vi("final", F), vi("scans", F)],
        [("M", np.int64(30))],
    )
    session = smelt.onnx.InferenceSession(long_scans_and_computed_cond.SerializeToString(), backend="cpu")
    with pytest.raises(smelt.SmeltError, match="scanner.*condition may stop it early"):
        session.run(None, feeds)
    growing = helper.make_graph(
        [
            helper.make_node("Concat", ["acc", "x"], ["acc2"], axis=0),
            helper.make_node("Identity", ["cond"], ["cond2"]),
        ],
        "body",
        [vi("i", I64, []), vi("cond", B, []), vi("acc", F, None)],
        [vi("cond2", B), vi("acc2", F, None)],
    )
    grows = model(
        [helper.make_node("Loop", ["M", "", "a0"], ["final"], body=growing, name="grower")],
        [vi("x", F, [3]), vi("a0", F, [3]), vi("M", I64, [])],
        [vi("final", F)],
    )
    session = smelt.onnx.InferenceSession(grows.SerializeToString(), backend="cpu")
    with pytest.raises(smelt.SmeltError, match="grower.*loop-carried value 0 enters as f32\\[3\\] and leaves"):
        session.run(None, {"x": np.ones(3, np.float32), "a0": np.ones(3, np.float32), "M": np.int64(2)})


def scan_model(in_axes=None, in_dirs=None, out_axes=None, out_dirs=None, x_shape=(5, 3)):
    """Scan: a running sum of x's slices (the state) and, per step, the sum
    and the slice of y times it (two scan inputs, two scan outputs)."""
    r = len(x_shape) - 1
    body = helper.make_graph(
        [
            helper.make_node("Add", ["s", "xs"], ["s2"]),
            helper.make_node("Identity", ["s2"], ["sum_out"]),
            helper.make_node("Mul", ["ys", "s2"], ["prod_out"]),
        ],
        "body",
        [vi("s", F, [3]), vi("xs", F, [3]), vi("ys", F, [3])],
        [vi("s2", F, [3]), vi("sum_out", F, [3] if r == 1 else None), vi("prod_out", F, [3])],
    )
    attrs = {"num_scan_inputs": 2}
    for key, v in [("scan_input_axes", in_axes), ("scan_input_directions", in_dirs),
                   ("scan_output_axes", out_axes), ("scan_output_directions", out_dirs)]:
        if v is not None:
            attrs[key] = v
    return helper.make_model(
        helper.make_graph(
            [helper.make_node("Scan", ["s0", "x", "y"], ["s_final", "sums", "prods"], body=body, **attrs)],
            "m",
            [vi("s0", F, [3]), vi("x", F, list(x_shape)), vi("y", F, list(x_shape))],
            [vi("s_final", F), vi("sums", F), vi("prods", F)],
        ),
        opset_imports=[helper.make_opsetid("", 13)],
    )


@pytest.mark.parametrize("backend", ["cranelift", "cpu"])
@pytest.mark.parametrize(
    "attrs",
    [
        {},
        {"in_dirs": [1, 0]},
        {"in_axes": [1, 1], "x_shape": (3, 7)},
        {"in_axes": [-1, 0], "x_shape": (3, 3), "out_dirs": [1, 0]},
        {"out_axes": [1, -1], "out_dirs": [0, 1]},
    ],
)
def test_scan_runs_as_a_while_loop(backend, attrs):
    m = scan_model(**attrs)
    shape = attrs.get("x_shape", (5, 3))
    rng = np.random.default_rng(3)
    feeds = {
        "s0": rng.standard_normal(3).astype(np.float32),
        "x": rng.standard_normal(shape).astype(np.float32),
        "y": rng.standard_normal(shape).astype(np.float32),
    }
    if not attrs:
        check(m, feeds, backend)
        return
    # ONNX's reference evaluator runs only the default axes and directions:
    # the Scan definition in numpy.
    in_axes, in_dirs = attrs.get("in_axes", [0, 0]), attrs.get("in_dirs", [0, 0])
    out_axes, out_dirs = attrs.get("out_axes", [0, 0]), attrs.get("out_dirs", [0, 0])
    xs, ys = (np.moveaxis(feeds[k], a, 0)[:: -1 if d else 1] for k, a, d in zip("xy", in_axes, in_dirs))
    s, sums, prods = feeds["s0"], [], []
    for xt, yt in zip(xs, ys):
        s = s + xt
        sums.append(s)
        prods.append(yt * s)
    want = [s] + [
        np.moveaxis(np.stack(v)[:: -1 if d else 1], 0, a) for v, a, d in zip([sums, prods], out_axes, out_dirs)
    ]
    got = smelt.onnx.InferenceSession(m.SerializeToString(), backend=backend).run(None, feeds)
    for g, w in zip(got, want):
        assert g.shape == w.shape
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)
