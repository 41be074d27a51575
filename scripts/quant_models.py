#!/usr/bin/env python3
"""Float ONNX models for quantization work, written with onnx.helper (no
framework needed), with calibration batches beside them.

    python scripts/quant_models.py OUT_DIR [--calibration 8]

writes, for each model NAME:

    OUT_DIR/NAME/model.onnx          the float model (opset 17, random weights
                                     scaled like a trained network's: He init)
    OUT_DIR/NAME/calibration/K.npz   K = 0..n-1, one batch each, input name -> array
    OUT_DIR/NAME/<input>.npy         a held-out input (for benchmarks and error)

Models (none is in the corpus or tests/onnx):

- resnet_cnn: a ResNet-style CNN (stem 3x3/2, three stages of two basic
  blocks with identity and 1x1 projection shortcuts, BatchNorm folded into
  the convolutions as biases, global pooling, Gemm classifier) on
  [4, 3, 96, 96] images: conv-bound.
- transformer_block: one pre-norm encoder block (LayerNormalization,
  4-head attention from MatMuls, GELU feed-forward 4x wide, residuals) on
  [8, 64, 256]: GEMM-bound.
- mlp_tabular: three Gemm layers with ReLU on [256, 128] features.
- mobile_cnn: MobileNetV2-style inverted residual blocks (1x1 expansion,
  3x3 depthwise, 1x1 projection, residuals) with SiLU activations (x *
  sigmoid(x)) on [4, 3, 96, 96]: depthwise and pointwise convolutions, and
  a transcendental function in every block.
"""

import argparse
import pathlib

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

RNG = np.random.default_rng(2026)


class Builder:
    def __init__(self):
        self.nodes, self.inits, self.n = [], [], 0

    def name(self, base):
        self.n += 1
        return f"{base}_{self.n}"

    def const(self, base, value):
        name = self.name(base)
        self.inits.append(numpy_helper.from_array(np.asarray(value), name))
        return name

    def op(self, op, inputs, base=None, **attrs):
        out = self.name(base or op.lower())
        self.nodes.append(helper.make_node(op, inputs, [out], name=out, **attrs))
        return out

    def conv(self, x, cin, cout, k, stride=1, relu=True):
        w = (RNG.standard_normal((cout, cin, k, k)) * np.sqrt(2.0 / (cin * k * k))).astype(np.float32)
        b = (RNG.standard_normal(cout) * 0.05).astype(np.float32)
        pad = k // 2
        y = self.op("Conv", [x, self.const("w", w), self.const("b", b)], "conv",
                    strides=[stride, stride], pads=[pad] * 4)
        return self.op("Relu", [y]) if relu else y

    def dwconv(self, x, c, stride=1):
        w = (RNG.standard_normal((c, 1, 3, 3)) * np.sqrt(2.0 / 9)).astype(np.float32)
        b = (RNG.standard_normal(c) * 0.05).astype(np.float32)
        return self.op("Conv", [x, self.const("w", w), self.const("b", b)], "dwconv",
                       strides=[stride, stride], pads=[1] * 4, group=c)

    def silu(self, x):
        return self.op("Mul", [x, self.op("Sigmoid", [x])])

    def dense(self, x, k, n, relu=False):
        w = (RNG.standard_normal((k, n)) * np.sqrt(2.0 / k)).astype(np.float32)
        y = self.op("MatMul", [x, self.const("w", w)], "matmul")
        y = self.op("Add", [y, self.const("b", (RNG.standard_normal(n) * 0.05).astype(np.float32))])
        return self.op("Relu", [y]) if relu else y

    def classifier(self, name, y, cin, shape=(4, 3, 96, 96)):
        """Global pooling and a 10-way Gemm after `y` (`cin` channels): the
        image model `name` over an `image` input of `shape`."""
        y = self.op("Flatten", [self.op("GlobalAveragePool", [y])])
        w = (RNG.standard_normal((10, cin)) * np.sqrt(1.0 / cin)).astype(np.float32)
        y = self.op("Gemm", [y, self.const("fc", w), self.const("fcb", np.zeros(10, np.float32))], "logits", transB=1)
        ins = [helper.make_tensor_value_info("image", TensorProto.FLOAT, list(shape))]
        outs = [helper.make_tensor_value_info(y, TensorProto.FLOAT, [shape[0], 10])]
        return self.model(name, ins, outs), {"image": list(shape)}

    def model(self, name, inputs, outputs):
        graph = helper.make_graph(self.nodes, name, inputs, outputs, self.inits)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
        model.ir_version = 8
        onnx.checker.check_model(model)
        return model


def resnet_cnn():
    b = Builder()
    x = "image"
    y = b.conv(x, 3, 32, 3, stride=2)
    cin = 32
    for cout, stride in [(32, 1), (64, 2), (128, 2)]:
        for block in range(2):
            s = stride if block == 0 else 1
            h = b.conv(y, cin, cout, 3, stride=s)
            h = b.conv(h, cout, cout, 3, relu=False)
            short = y if (s == 1 and cin == cout) else b.conv(y, cin, cout, 1, stride=s, relu=False)
            y = b.op("Relu", [b.op("Add", [h, short])])
            cin = cout
    return b.classifier("resnet_cnn", y, cin)


def transformer_block():
    b = Builder()
    bsz, seq, d, heads, ff = 8, 64, 256, 4, 1024
    x = "tokens"

    def norm(v):
        return b.op("LayerNormalization", [v, b.const("g", np.ones(d, np.float32)),
                                            b.const("beta", np.zeros(d, np.float32))], axis=-1)

    h = norm(x)
    q, k, v = (b.dense(h, d, d) for _ in range(3))

    def split(t):
        t = b.op("Reshape", [t, b.const("shape", np.array([bsz, seq, heads, d // heads], np.int64))])
        return b.op("Transpose", [t], perm=[0, 2, 1, 3])

    q, k, v = split(q), split(k), split(v)
    kt = b.op("Transpose", [k], perm=[0, 1, 3, 2])
    s = b.op("MatMul", [q, kt])
    s = b.op("Mul", [s, b.const("scale", np.float32(1 / np.sqrt(d // heads)))])
    p = b.op("Softmax", [s], axis=-1)
    a = b.op("MatMul", [p, v])
    a = b.op("Transpose", [a], perm=[0, 2, 1, 3])
    a = b.op("Reshape", [a, b.const("shape", np.array([bsz, seq, d], np.int64))])
    x = b.op("Add", [x, b.dense(a, d, d)])
    h = norm(x)
    h = b.dense(h, d, ff)
    # GELU (tanh form) written out, as exporters do.
    c = b.op("Mul", [h, b.op("Mul", [h, h])])
    c = b.op("Add", [h, b.op("Mul", [c, b.const("k", np.float32(0.044715))])])
    c = b.op("Tanh", [b.op("Mul", [c, b.const("k", np.float32(np.sqrt(2 / np.pi)))])])
    h = b.op("Mul", [b.op("Mul", [h, b.const("half", np.float32(0.5))]),
                     b.op("Add", [c, b.const("one", np.float32(1))])])
    y = b.op("Add", [x, b.dense(h, ff, d)], "out")
    shape = [bsz, seq, d]
    ins = [helper.make_tensor_value_info("tokens", TensorProto.FLOAT, shape)]
    outs = [helper.make_tensor_value_info(y, TensorProto.FLOAT, shape)]
    return b.model("transformer_block", ins, outs), {"tokens": shape}


def mlp_tabular():
    b = Builder()
    y = b.dense("features", 128, 512, relu=True)
    y = b.dense(y, 512, 256, relu=True)
    y = b.dense(y, 256, 16)
    shape = [256, 128]
    ins = [helper.make_tensor_value_info("features", TensorProto.FLOAT, shape)]
    outs = [helper.make_tensor_value_info(y, TensorProto.FLOAT, [256, 16])]
    return b.model("mlp_tabular", ins, outs), {"features": shape}


def mobile_cnn():
    b = Builder()
    y = b.silu(b.conv("image", 3, 16, 3, stride=2, relu=False))
    cin = 16
    for cout, stride, repeats in [(24, 2, 2), (32, 2, 2), (64, 2, 2)]:
        for r in range(repeats):
            s = stride if r == 0 else 1
            h = b.silu(b.conv(y, cin, cin * 4, 1, relu=False))
            h = b.silu(b.dwconv(h, cin * 4, stride=s))
            h = b.conv(h, cin * 4, cout, 1, relu=False)
            y = b.op("Add", [y, h]) if (s == 1 and cin == cout) else h
            cin = cout
    return b.classifier("mobile_cnn", y, cin)


MODELS = {
    "resnet_cnn": resnet_cnn,
    "transformer_block": transformer_block,
    "mlp_tabular": mlp_tabular,
    "mobile_cnn": mobile_cnn,
}


def sample(shape):
    # Images and activations: mostly small, a few large values (what
    # percentile calibration is for).
    x = RNG.standard_normal(shape).astype(np.float32)
    x[RNG.random(shape) < 0.001] *= 6
    return x


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", type=pathlib.Path)
    ap.add_argument("--calibration", type=int, default=8, help="calibration batches per model")
    ap.add_argument("--only", nargs="*", help="model names")
    args = ap.parse_args()
    for name, make in MODELS.items():
        if args.only and name not in args.only:
            continue
        model, inputs = make()
        d = args.out / name
        (d / "calibration").mkdir(parents=True, exist_ok=True)
        onnx.save(model, d / "model.onnx")
        for k in range(args.calibration):
            np.savez(d / "calibration" / f"{k}.npz", **{n: sample(s) for n, s in inputs.items()})
        for n, s in inputs.items():
            np.save(d / f"{n}.npy", sample(s))
        print(f"{name}: {len(model.graph.node)} nodes, {model.ByteSize() / 1e6:.1f} MB -> {d}")


if __name__ == "__main__":
    main()
