"""``smelt.onnx``: ONNX models run by smelt through onnxruntime's API.

Code written for onnxruntime runs unchanged::

    import smelt.onnx as ort          # instead of: import onnxruntime as ort
    sess = ort.InferenceSession("model.onnx")
    name = sess.get_inputs()[0].name
    (y,) = sess.run(None, {name: x})

The model is imported (opsets 13 to 21), auto-clustered into compiled HLO
programs, and the rest runs op by op (docs/onnx.md, docs/graph.md). A cluster
compiles once per input signature, through the process-wide cache that
``smelt.compile`` and ``smelt.jit`` share. Feeds are copied into smelt's
arrays (a graph session owns its values); outputs are moved into NumPy arrays.
"""

import os

from . import _smelt

__all__ = ["InferenceSession", "NodeArg", "get_available_providers", "quantize"]

PROVIDER = "SmeltExecutionProvider"


def get_available_providers():
    """onnxruntime's call: the one provider smelt has."""
    return [PROVIDER]


class NodeArg:
    """A graph input or output: ``name``, ``shape`` (ints, names of symbolic
    dims, or None where the model gives neither) and ``type``
    (``"tensor(float)"``), as onnxruntime's ``NodeArg``."""

    __slots__ = ("name", "shape", "type")

    def __init__(self, name, shape, type):
        self.name = name
        self.shape = shape
        self.type = type

    def __repr__(self):
        return f"NodeArg(name={self.name!r}, type={self.type!r}, shape={self.shape!r})"


class InferenceSession:
    """An ONNX model ready to run: ``InferenceSession(path_or_bytes)``.

    ``sess_options`` and ``providers`` are accepted for onnxruntime
    compatibility and ignored (smelt has one provider: the host CPU);
    ``backend`` picks smelt's compiler ("tiered", "cpu", "cranelift",
    "interp").
    """

    def __init__(self, path_or_bytes, sess_options=None, providers=None, provider_options=None, *,
                 backend="tiered", **kwargs):
        if isinstance(path_or_bytes, (bytearray, memoryview)):
            path_or_bytes = bytes(path_or_bytes)
        self._native = _smelt.OnnxSession(path_or_bytes, backend)
        self._inputs = [NodeArg(*t) for t in self._native.inputs()]
        self._outputs = [NodeArg(*t) for t in self._native.outputs()]
        self._output_names = [o.name for o in self._outputs]

    def get_inputs(self):
        """The graph inputs (initializers excluded), as :class:`NodeArg`."""
        return list(self._inputs)

    def get_outputs(self):
        """The graph outputs, as :class:`NodeArg`."""
        return list(self._outputs)

    def get_providers(self):
        return [PROVIDER]

    def run(self, output_names, input_feed, run_options=None):
        """Runs the model: ``output_names`` (None: every output, in order) and
        ``input_feed`` ({input name: array}). Returns a list of NumPy arrays."""
        if not isinstance(input_feed, dict):
            raise TypeError(f"input_feed must be a dict of input name to array, got {type(input_feed).__name__}")
        names = list(output_names) if output_names else None
        return self._native.run(names, input_feed)


def quantize(model, calibration_data, output=None, *, method="minmax", percentile=99.999,
             activations="uint8", per_channel=True, backend="cpu"):
    """Post-training int8 quantization (``smelt quantize``): runs the float
    ``model`` (a path or bytes) over ``calibration_data`` (an iterable of
    {input name: array} batches, or an onnxruntime ``CalibrationDataReader``),
    chooses scales and zero points (``method``: "minmax", "percentile" or
    "entropy"), and returns the QDQ model's bytes (also written to
    ``output`` when given): s8 weights (per output channel unless
    ``per_channel=False``), ``activations`` "uint8" or "int8"."""
    if isinstance(model, (str, os.PathLike)):
        with open(model, "rb") as f:
            model = f.read()
    if hasattr(calibration_data, "get_next"):
        reader, calibration_data = calibration_data, []
        while (batch := reader.get_next()) is not None:
            calibration_data.append(batch)
    batches = [dict(b) for b in calibration_data]
    out = _smelt.quantize_onnx(bytes(model), batches, method, percentile, activations, per_channel, backend)
    if output is not None:
        with open(output, "wb") as f:
            f.write(out)
    return out
