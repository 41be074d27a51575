"""Where an ONNX model's time goes, layer kind by layer kind, in onnxruntime
and in smelt, side by side in one run: the tool behind the per-layer figures
of `docs/benchmarks.md`.

    $PY scripts/onnx_layers_vs_ort.py [--smelt target/release/smelt]
        [--threads 1] [--runs 30] [--top 25] MODEL.onnx

One fixed-seed normal input (batch 1 where a dim is symbolic). onnxruntime
(CPU provider, `--threads` intra-op threads) runs with its profiler on: each
node's median kernel time. smelt imports the model once (`smelt onnx-run
--dump-clusters`), then times every cluster with `smelt bench --profile`
(`SMELT_THREADS=--threads`): each step's time per run.

Layers are matched by kind: a 1x1 convolution that keeps its image size is
smelt's `dot m=F n=H*W k=C`; other convolutions by output shape and kernel;
everything else (pooling, concatenation, elementwise) is summed as `other`
on smelt's side and listed by operator on onnxruntime's. Rows are sorted by
how much longer smelt takes. The sums differ from the plain steady state:
both profilers add a little per step.
"""

import argparse
import collections
import json
import os
import re
import subprocess
import tempfile

import numpy as np
import onnxruntime as ort


def ort_layers(model, threads, runs):
    """onnxruntime's median kernel time per layer kind (ms), and the input."""
    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    so.enable_profiling = True
    so.log_severity_level = 3
    so.profile_file_prefix = os.path.join(tempfile.mkdtemp(), "ort")
    s = ort.InferenceSession(model, so, providers=["CPUExecutionProvider"])
    i = s.get_inputs()[0]
    shape = [d if isinstance(d, int) else 1 for d in i.shape]
    x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    for _ in range(runs):
        s.run(None, {i.name: x})
    path = s.end_profiling()
    with open(path) as f:
        events = json.load(f)
    os.remove(path)
    os.rmdir(os.path.dirname(path))
    times, args = collections.defaultdict(list), {}
    for e in events:
        if e.get("cat") == "Node" and e["name"].endswith("_kernel_time"):
            name = e["name"][: -len("_kernel_time")]
            times[name].append(e["dur"])
            args[name] = e.get("args", {})
    kinds = collections.defaultdict(float)
    for name, us in times.items():
        a = args[name]
        op = a.get("op_name")
        outs = [list(t.values())[0] for t in a.get("output_type_shape", [])]
        ins = [list(t.values())[0] for t in a.get("input_type_shape", [])]
        kinds[layer_kind(op, outs, ins)] += float(np.median(us)) / 1000
    return kinds, i.name, x


def layer_kind(op, outs, ins):
    if op == "Conv" and len(ins) > 1 and len(outs[0]) == 4:
        o, w = outs[0], ins[1]
        if w[2:] == [1, 1] and o[2:] == ins[0][2:] and o[0] == 1:
            return f"dot m={o[1]} n={o[2] * o[3]} k={ins[0][1]}"
        return f"conv {'x'.join(map(str, o))} kernel {'x'.join(map(str, w))}"
    return op


def smelt_layers(smelt, model, name, x, threads, runs):
    """smelt's time per run per layer kind (ms), over every cluster."""
    env = dict(os.environ, SMELT_THREADS=str(threads))
    kinds = collections.defaultdict(float)
    with tempfile.TemporaryDirectory() as tmp:
        np.save(os.path.join(tmp, "x.npy"), x)
        dump = os.path.join(tmp, "clusters")
        cmd = [smelt, "onnx-run", model, "--input", f"{name}={tmp}/x.npy", "--dump-clusters", dump, "--backend", "cpu"]
        subprocess.run(cmd, env=env, check=True, capture_output=True)
        for cluster in sorted(os.listdir(dump)):
            cmd = [smelt, "bench", os.path.join(dump, cluster), "--backend", "cpu", "--profile", "--runs", str(runs)]
            out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout
            for line in out.splitlines():
                m = re.match(r"\s+([\d.]+)\s+[\d.]+%\s+\d+\s+(.*)", line)
                if not m:
                    continue
                ms, step = float(m.group(1)), m.group(2)
                if step.startswith("dot b=1 "):
                    kinds["dot " + step[len("dot b=1 "):]] += ms
                elif step.startswith("convolution -> "):
                    kinds["conv " + step[len("convolution -> "):]] += ms
                else:
                    kinds["other"] += ms
    return kinds


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("model")
    p.add_argument("--smelt", default="target/release/smelt")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--runs", type=int, default=30)
    p.add_argument("--top", type=int, default=25)
    a = p.parse_args()
    theirs, name, x = ort_layers(a.model, a.threads, a.runs)
    ours = smelt_layers(a.smelt, a.model, name, x, a.threads, a.runs)
    rows, matched = [], set()
    for kind, ms in ours.items():
        if kind.startswith("conv "):
            # smelt names a convolution by its output shape only.
            same = [k for k in theirs if k.startswith(kind + " kernel ")]
        else:
            same = [kind] if kind in theirs else []
        matched.update(same)
        rows.append((ms - sum(theirs[k] for k in same), kind, ms, sum(theirs[k] for k in same)))
    rows.sort(reverse=True)
    print(f"threads {a.threads}: smelt {sum(ours.values()):.2f} ms, onnxruntime {sum(theirs.values()):.2f} ms (profiled)")
    print("| layer kind | smelt ms | onnxruntime ms | difference |")
    print("|---|---:|---:|---:|")
    for diff, kind, ms, ort_ms in rows[: a.top]:
        print(f"| {kind} | {ms:.3f} | {ort_ms:.3f} | {diff:+.3f} |")
    rest = ", ".join(f"{k} {v:.3f}" for k, v in sorted(theirs.items()) if k not in matched)
    print(f"onnxruntime's layers without a match (ms): {rest or 'none'}")


if __name__ == "__main__":
    main()
