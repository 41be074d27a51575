"""Chains of one CNN layer kind as ONNX models, to time a kind of layer
inside a model (weights of their own per layer, each layer reading what the
one before wrote) against onnxruntime, where one-op benchmarks see it warm.

    $PY scripts/onnx_layer_chains.py [OUT_DIR]      (default /tmp/onnxchain)
    $PY scripts/onnx_vs_ort.py --smelt BIN /tmp/onnxchain/*.onnx

Each model is Conv(+bias)+ReLU layers at batch 1, NCHW, opset 13, weights
He-scaled from a fixed seed: the bottleneck 1x1 pairs of ResNet-50's four
stages (`b56`: 64 <-> 256 over 56x56, `b28`, `b14`, `b7`) and 3x3 layers
over 56x56, 14x14 and 7x7 (`k3_56`, `k3_14`, `k3_7`: 512 -> 512, 9.4 MB of
weights a layer, more than the caches keep). None of them is in the corpus
or the ONNX test data.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def chain(path, layers, size, kernel=1, pad=0):
    """`layers`: (input channels, output channels) per layer."""
    rng = np.random.default_rng(0)
    nodes, inits, x = [], [], "x"
    for i, (ci, co) in enumerate(layers):
        fan = ci * kernel * kernel
        w = (rng.standard_normal((co, ci, kernel, kernel)) * np.sqrt(2 / fan)).astype(np.float32)
        b = (rng.standard_normal(co) * 0.1).astype(np.float32)
        inits += [numpy_helper.from_array(w, f"w{i}"), numpy_helper.from_array(b, f"b{i}")]
        nodes.append(
            helper.make_node("Conv", [x, f"w{i}", f"b{i}"], [f"c{i}"], kernel_shape=[kernel] * 2, pads=[pad] * 4)
        )
        nodes.append(helper.make_node("Relu", [f"c{i}"], [f"r{i}"]))
        x = f"r{i}"
    name = os.path.splitext(os.path.basename(path))[0]
    graph = helper.make_graph(
        nodes,
        name,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, layers[0][0], size, size])],
        [helper.make_tensor_value_info(x, TensorProto.FLOAT, [1, layers[-1][1], size, size])],
        inits,
    )
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), path)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "/tmp/onnxchain"
    os.makedirs(out, exist_ok=True)
    chain(f"{out}/b56.onnx", [(64, 256), (256, 64)] * 6, 56)
    chain(f"{out}/b28.onnx", [(128, 512), (512, 128)] * 6, 28)
    chain(f"{out}/b14.onnx", [(256, 1024), (1024, 256)] * 6, 14)
    chain(f"{out}/b7.onnx", [(512, 2048), (2048, 512)] * 3, 7)
    chain(f"{out}/k3_56.onnx", [(64, 64)] * 8, 56, 3, 1)
    chain(f"{out}/k3_14.onnx", [(256, 256)] * 8, 14, 3, 1)
    chain(f"{out}/k3_7.onnx", [(512, 512)] * 8, 7, 3, 1)
    print(f"wrote 7 models to {out}")


if __name__ == "__main__":
    main()
