"""ONNX models whose Loop runs as an HLO `while` in smelt, for timing against
onnxruntime (`scripts/onnx_vs_ort.py /tmp/loops/*.onnx`).

    $PY scripts/onnx_loop_models.py [OUT_DIR]   (default /tmp/loops)

Each is a recurrent cell `h = tanh(h W + x)` as the loop body, W a fixed-seed
random initializer: `loop_rnn_scan` (256 trips, width 64, every `h` as a scan
output) and `loop_rnn_wide` (128 trips, width 256, the final `h` only). Both
trip counts are constants above the importer's unrolling limit.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper, numpy_helper

OUT = sys.argv[1] if len(sys.argv) > 1 else "/tmp/loops"
rng = np.random.default_rng(0)


def vi(name, elem, shape=None):
    return helper.make_tensor_value_info(name, elem, shape)


def rnn(name, trips, width, scan):
    nodes = [
        helper.make_node("MatMul", ["h", "W"], ["hw"]),
        helper.make_node("Add", ["hw", "x"], ["pre"]),
        helper.make_node("Tanh", ["pre"], ["h2"]),
        helper.make_node("Identity", ["cond"], ["cond2"]),
    ]
    outs = [vi("cond2", T.BOOL), vi("h2", T.FLOAT, [1, width])]
    if scan:
        nodes.append(helper.make_node("Identity", ["h2"], ["s"]))
        outs.append(vi("s", T.FLOAT, [1, width]))
    body = helper.make_graph(
        nodes, "body", [vi("i", T.INT64, []), vi("cond", T.BOOL, []), vi("h", T.FLOAT, [1, width])], outs
    )
    results = ["hT"] + (["hs"] if scan else [])
    inits = [
        numpy_helper.from_array((rng.standard_normal((width, width)) / np.sqrt(width)).astype(np.float32), "W"),
        numpy_helper.from_array(np.array(True), "yes"),
        numpy_helper.from_array(np.zeros((1, width), np.float32), "h0"),
        numpy_helper.from_array(np.int64(trips), "M"),
    ]
    graph = helper.make_graph(
        [helper.make_node("Loop", ["M", "yes", "h0"], results, body=body)],
        name,
        [vi("x", T.FLOAT, [1, width])],
        [vi(r, T.FLOAT) for r in results],
        inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    onnx.save(model, os.path.join(OUT, f"{name}.onnx"))
    print(os.path.join(OUT, f"{name}.onnx"))


os.makedirs(OUT, exist_ok=True)
rnn("loop_rnn_scan", 256, 64, True)
rnn("loop_rnn_wide", 128, 256, False)
