"""ONNX models through onnxruntime and through smelt, side by side in one run.

    $PY scripts/onnx_vs_ort.py [--smelt target/release/smelt] [--runs 20]
        [--turns 3] [--baseline OTHER_SMELT [--rounds 3]] MODEL.onnx...

For each model, with one fixed-seed normal input (batch 1 where a dim is
symbolic):

- onnxruntime (CPU provider, 2 intra-op threads), in this process: session
  load, first run, steady-state median (of `--turns` medians, see below);
- smelt, each in a fresh process of `smelt onnx-bench --json`:
  fully cold (empty JIT cache and empty GEMM/convolution routine cache),
  cold model (empty JIT cache, the routine cache the cold run filled: what a
  machine that has run smelt before sees) and warm (both caches filled):
  import, first run (clustering and compiling, plus one inference), the
  wait after it for convolutions of shapes the routine cache lacked to move
  from the generic routine to their own (built in the background), and the
  process's peak resident memory;
- the steady states in `--turns` turns (default 3), each onnxruntime in a
  fresh session, then smelt warm: the medians of each side's medians, so
  that both see the same minutes of a noisy machine;
- the largest difference between smelt's outputs and onnxruntime's, relative
  to onnxruntime's largest magnitude (`smelt onnx-run --out-dir`).

With `--baseline OTHER_SMELT`, each model's steady state is also measured
with that binary (its own caches, warmed first), the two binaries taking
turns `--rounds` times so that both see the same moments of a noisy
machine; the table gains the baseline's median of medians and the ratio.

Prints a Markdown table. Make models with real-sized random weights from the
ONNX backend test data with `scripts/onnx_light_weights.py`.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
import onnx
import onnxruntime as ort


def run_child(cmd, env):
    """Runs cmd; returns (stdout, its peak resident memory in MB). The peak
    comes from GNU time when installed: a forked child's own rusage also
    counts the pages of this Python process (onnxruntime's session
    included) from before the exec."""
    with tempfile.TemporaryDirectory() as tmp:
        peak = os.path.join(tmp, "peak")
        timed = ["/usr/bin/time", "-f", "%M", "-o", peak] + cmd if os.path.exists("/usr/bin/time") else cmd
        p = subprocess.run(timed, env=env, capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit(f"{' '.join(cmd)} failed:\n{p.stderr}")
        rss = float(open(peak).read().split()[-1]) / 1024 if os.path.exists(peak) else float("nan")
        return p.stdout, rss


def inputs_of(path):
    m = onnx.load(path, load_external_data=False)
    inits = {i.name for i in m.graph.initializer}
    rng = np.random.default_rng(1)
    elem = {1: np.float32, 7: np.int64, 6: np.int32, 11: np.float64}
    feeds = {}
    for i in m.graph.input:
        if i.name in inits:
            continue
        t = i.type.tensor_type
        shape = tuple(d.dim_value if d.HasField("dim_value") else 1 for d in t.shape.dim)
        feeds[i.name] = rng.standard_normal(shape).astype(elem.get(t.elem_type, np.float32))
    return feeds


def ort_steady(path, feeds, runs):
    """onnxruntime's steady median (ms) in a fresh session of 2 intra-op
    threads, after three warm-up runs."""
    so = ort.SessionOptions()
    so.intra_op_num_threads = 2
    sess = ort.InferenceSession(path, so, providers=["CPUExecutionProvider"])
    for _ in range(3):
        sess.run(None, feeds)
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        sess.run(None, feeds)
        times.append(time.perf_counter() - t)
    return 1e3 * float(np.median(times))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("models", nargs="+")
    ap.add_argument("--smelt", default="target/release/smelt")
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--baseline", help="another smelt binary to time beside --smelt, in turns")
    ap.add_argument("--rounds", type=int, default=3, help="turns of each binary with --baseline")
    ap.add_argument("--turns", type=int, default=3, help="turns of onnxruntime and smelt for the steady states")
    args = ap.parse_args()
    rows = []
    for path in args.models:
        name = os.path.basename(path).removesuffix(".onnx")
        feeds = inputs_of(path)
        so = ort.SessionOptions()
        so.intra_op_num_threads = 2
        t = time.perf_counter()
        sess = ort.InferenceSession(path, so, providers=["CPUExecutionProvider"])
        ort_load = time.perf_counter() - t
        t = time.perf_counter()
        want = sess.run(None, feeds)
        ort_first = time.perf_counter() - t
        outputs = [o.name for o in sess.get_outputs()]
        del sess

        with tempfile.TemporaryDirectory() as tmp:
            flags = []
            for k, (n, a) in enumerate(feeds.items()):
                f = os.path.join(tmp, f"in{k}.npy")
                np.save(f, a)
                flags += ["--input", f"{n}={f}"]
            env = dict(os.environ)
            env["SMELT_CACHE_DIR"] = os.path.join(tmp, "jit")
            env["SMELT_ROUTINE_CACHE"] = os.path.join(tmp, "routines")
            bench = [args.smelt, "onnx-bench", path, "--backend", "cpu", "--runs", str(args.runs), "--json"] + flags
            states = {}
            for state in ["cold", "cold model", "warm"]:
                if state == "cold model":
                    env["SMELT_CACHE_DIR"] = os.path.join(tmp, "jit2")
                out, rss = run_child(bench, env)
                states[state] = (json.loads(out), rss)
            # Steady states in turns, each turn onnxruntime (a fresh session,
            # gone before smelt runs: its idle threads spin) then smelt warm:
            # medians of their medians, so both see the same minutes of a
            # noisy machine.
            ort_turns, smelt_turns = [], []
            for _ in range(args.turns):
                ort_turns.append(ort_steady(path, feeds, args.runs))
                smelt_turns.append(json.loads(run_child(bench, env)[0])["median_ms"])
            ort_ms = float(np.median(ort_turns))
            states["steady"] = float(np.median(smelt_turns))
            if args.baseline:
                # Both binaries warm, then in turns: medians of their medians.
                base_env = dict(env)
                base_env["SMELT_CACHE_DIR"] = os.path.join(tmp, "base-jit")
                base_env["SMELT_ROUTINE_CACHE"] = os.path.join(tmp, "base-routines")
                base_bench = [args.baseline] + bench[1:]
                run_child(base_bench, base_env)
                turns = {"new": [], "base": []}
                for _ in range(args.rounds):
                    turns["new"].append(json.loads(run_child(bench, env)[0])["median_ms"])
                    turns["base"].append(json.loads(run_child(base_bench, base_env)[0])["median_ms"])
                states["turns"] = {k: float(np.median(v)) for k, v in turns.items()}
            out_dir = os.path.join(tmp, "out")
            run_child([args.smelt, "onnx-run", path, "--backend", "cpu", "--out-dir", out_dir] + flags, env)
            err = 0.0
            for n, w in zip(outputs, want):
                stem = "".join(c if c.isalnum() or c in "_-." else "_" for c in n)
                got = np.load(os.path.join(out_dir, f"{stem}.npy"))
                err = max(err, float(np.max(np.abs(got - w)) / max(1e-30, float(np.max(np.abs(w))))))
        mb = os.path.getsize(path) / 1e6
        rows.append((name, mb, ort_load, ort_first, ort_ms, states, err))
        print(
            f"{name}: onnxruntime steady {ort_ms:.1f} ms, smelt steady {states['steady']:.1f} ms, max rel err {err:.1e}",
            file=sys.stderr,
            flush=True,
        )

    def ready(s):
        r = s[0]
        return (r["load_ms"] + r["first_run_ms"]) / 1e3

    def specializing(s):
        return s[0].get("specialize_ms", 0.0) / 1e3

    base_head = " | smelt in turns ms | baseline in turns ms | baseline/smelt" if args.baseline else ""
    print(
        "| model | MB | ORT load + first run s | ORT steady ms | smelt load + first run s: cold / cold model / warm"
        " | cold: convolutions specialized s later | smelt steady ms | ORT/smelt | smelt peak RSS MB (cold / warm)"
        f" | max rel err{base_head} |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|" + ("---:|" * 3 if args.baseline else ""))
    for name, mb, ol, of, oms, st, err in rows:
        steady = st["steady"]
        base = ""
        if "turns" in st:
            t = st["turns"]
            base = f" | {t['new']:.1f} | {t['base']:.1f} | {t['base'] / t['new']:.2f}x"
        print(
            f"| {name} | {mb:.0f} | {ol + of:.2f} | {oms:.1f} | {ready(st['cold']):.2f} / {ready(st['cold model']):.2f}"
            f" / {ready(st['warm']):.2f} | {specializing(st['cold']):.2f} | {steady:.1f} | {oms / steady:.2f}x | {st['cold'][1]:.0f} / {st['warm'][1]:.0f}"
            f" | {err:.1e}{base} |"
        )


if __name__ == "__main__":
    main()
