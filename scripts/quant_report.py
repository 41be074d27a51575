#!/usr/bin/env python3
"""Quantized models side by side: smelt against onnxruntime, int8 against f32.

    python scripts/quant_models.py /tmp/qm              # float models + calibration
    python scripts/quant_report.py /tmp/qm [--runs 30] [--onnx-cases tests/onnx]
                                                        # needs target/release/smelt

For every model folder (model.onnx, calibration/*.npz, <input>.npy) it
writes two QDQ models, `smelt_qdq.onnx` (`smelt quantize`, min-max) and
`ort_qdq.onnx` (onnxruntime's `quantize_static`: QDQ, per channel, u8
activations, s8 weights), and reports in one run, on this machine:

- error: relative L2 of each quantized model's output against the float
  model (the held-out input), run by smelt and by onnxruntime;
- agreement: smelt against onnxruntime on the same QDQ model, as the largest
  difference in units of the output's quantization step;
- speed: steady-state median ms of the float and the QDQ models, smelt (cpu
  backend) and onnxruntime (2 intra-op threads), in this process;
- size on disk.

The CPU model is printed first (/proc/cpuinfo).
"""

import argparse
import glob
import pathlib
import subprocess
import sys
import time

import numpy as np
import onnx
import onnxruntime as ort
from onnx import numpy_helper
from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "python"))
import smelt.onnx  # noqa: E402


def cpu_name():
    for line in open("/proc/cpuinfo"):
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return "unknown"


class Reader(CalibrationDataReader):
    def __init__(self, folder):
        self.batches = iter([dict(np.load(f)) for f in sorted(glob.glob(str(folder / "calibration" / "*.npz")))])

    def get_next(self):
        return next(self.batches, None)


def ort_session(path):
    so = ort.SessionOptions()
    so.intra_op_num_threads = 2
    so.log_severity_level = 3
    return ort.InferenceSession(str(path), so, providers=["CPUExecutionProvider"])


def timed(run, runs):
    run()
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        run()
        times.append(time.perf_counter() - t)
    return 1e3 * float(np.median(times))


def output_step(path, name):
    """The quantization step of graph output `name` in a QDQ model, if any."""
    m = onnx.load(str(path))
    inits = {i.name: numpy_helper.to_array(i) for i in m.graph.initializer}
    for n in m.graph.node:
        if n.op_type == "QuantizeLinear" and n.input[0] == name and n.input[1] in inits:
            return float(np.max(inits[n.input[1]]))
    return None


def case_copy(case, root):
    """A tests/onnx case as a model folder: the model, its inputs, and four
    calibration batches (float inputs scaled and with noise, others as they are)."""
    import json
    import shutil
    d = root / case.name
    (d / "calibration").mkdir(parents=True, exist_ok=True)
    shutil.copy(case / "model.onnx", d / "model.onnx")
    meta = json.loads((case / "case.json").read_text())
    inputs = {i["name"]: np.load(case / i["file"]) for i in meta["inputs"]}
    for name, x in inputs.items():
        np.save(d / f"{name}.npy", x)
    rng = np.random.default_rng(5)
    for k in range(4):
        batch = {n: (x * rng.uniform(0.7, 1.3) + 0.3 * x.std() * rng.standard_normal(x.shape)).astype(x.dtype)
                 if np.issubdtype(x.dtype, np.floating) else x for n, x in inputs.items()}
        np.savez(d / "calibration" / f"{k}.npz", **batch)
    return d


def rel_l2(a, b):
    return float(np.linalg.norm((a - b).ravel()) / max(np.linalg.norm(b.ravel()), 1e-30))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("root", type=pathlib.Path)
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--smelt", default=str(ROOT / "target" / "release" / "smelt"))
    ap.add_argument("--onnx-cases", type=pathlib.Path,
                    help="also every tests/onnx-style case folder here (calibration made from its inputs)")
    args = ap.parse_args()
    print(f"CPU: {cpu_name()}")
    rows = []
    folders = sorted(p for p in args.root.iterdir() if (p / "model.onnx").is_file())
    if args.onnx_cases:
        folders += [case_copy(c, args.root / "onnx_cases") for c in sorted(args.onnx_cases.iterdir())
                    if (c / "case.json").is_file()]
    for folder in folders:
        model = folder / "model.onnx"
        q = subprocess.run([args.smelt, "quantize", str(model), "--calibration", str(folder / "calibration"),
                            "-o", str(folder / "smelt_qdq.onnx")], capture_output=True, text=True)
        if q.returncode != 0:
            print(f"{folder.name}: smelt quantize refused: {q.stderr.strip().splitlines()[-1]}")
            continue
        quantize_static(str(model), str(folder / "ort_qdq.onnx"), Reader(folder), quant_format=QuantFormat.QDQ,
                        per_channel=True, activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8)
        inits = {i.name for i in onnx.load(str(model)).graph.initializer}
        inputs = [i.name for i in onnx.load(str(model)).graph.input if i.name not in inits]
        feeds = {n: np.load(folder / f"{n}.npy") for n in inputs}
        fs = ort_session(model)
        out = fs.get_outputs()[0].name
        want = fs.run([out], feeds)[0]
        ss = smelt.onnx.InferenceSession(str(model), backend="cpu")
        row = {"model": folder.name,
               "f32 smelt ms": timed(lambda: ss.run([out], feeds), args.runs),
               "f32 ort ms": timed(lambda: fs.run([out], feeds), args.runs),
               "f32 MB": model.stat().st_size / 1e6}
        for q in ["smelt_qdq", "ort_qdq"]:
            path = folder / f"{q}.onnx"
            qo, qs = ort_session(path), smelt.onnx.InferenceSession(str(path), backend="cpu")
            got_ort, got_smelt = qo.run([out], feeds)[0], qs.run([out], feeds)[0]
            step = output_step(path, out)
            diff = float(np.max(np.abs(got_smelt - got_ort)))
            row[q] = {
                "err smelt": rel_l2(got_smelt, want), "err ort": rel_l2(got_ort, want),
                "agree (steps)": diff / step if step else None, "agree max|d|": diff,
                "smelt ms": timed(lambda: qs.run([out], feeds), args.runs),
                "ort ms": timed(lambda: qo.run([out], feeds), args.runs),
                "MB": path.stat().st_size / 1e6,
            }
        rows.append(row)
    print(f"\n{'model':<18} {'qdq':<10} {'relL2 smelt':>11} {'relL2 ort':>10} {'agree':>12} "
          f"{'smelt ms':>9} {'ort ms':>8} {'f32 smelt':>9} {'f32 ort':>8} {'int8/f32':>8} {'MB':>12}")
    for r in rows:
        for q in ["smelt_qdq", "ort_qdq"]:
            x = r[q]
            agree = f"{x['agree (steps)']:.2f} steps" if x["agree (steps)"] is not None else f"{x['agree max|d|']:.3g}"
            print(f"{r['model']:<18} {q:<10} {x['err smelt']:>11.4f} {x['err ort']:>10.4f} {agree:>12} "
                  f"{x['smelt ms']:>9.3f} {x['ort ms']:>8.3f} {r['f32 smelt ms']:>9.3f} {r['f32 ort ms']:>8.3f} "
                  f"{r['f32 smelt ms'] / x['smelt ms']:>7.2f}x {r['f32 MB']:>5.2f}->{x['MB']:.2f}")


if __name__ == "__main__":
    main()
