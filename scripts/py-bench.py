#!/usr/bin/env python3
"""smelt.jit beside jax.jit in one process: steady-state run time per program,
measured alternately, and smelt.jit's per-call overhead on a cache hit.

    python scripts/py-bench.py [--cases bert_encoder,layernorm,mlp2_forward]
                               [--unseen all|none|a,b] [--rounds 5] [--target-s 0.3]
                               [--backend cpu] [--json FILE]

Needs the smelt package with JAX (`pip install './python[jax]'`, a release
build for meaningful numbers). Corpus programs come from each case's own
`jax_source` (tests/corpus/<case>/case.json) at its benchmark size; the
"unseen" programs below are not in the corpus, so figures are not only on
programs smelt was developed against.

Method: both sides compile first (smelt with --backend, LLVM code by default;
JAX with jax.jit), then for --rounds rounds each side runs for about
--target-s seconds, smelt then JAX; the per-call median of each round is kept
and the best round is reported. JAX gets its inputs already on the device
(jax.device_put) and is synchronised with block_until_ready; smelt gets NumPy
arrays and returns NumPy arrays (its results are host memory).
"""

import argparse
import json
import math
import pathlib
import platform
import statistics
import sys
import time

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]


def cpu_model():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def corpus_program(name):
    case = json.loads((ROOT / "tests" / "corpus" / name / "case.json").read_text())
    ns = {"__name__": f"corpus_{name}"}
    exec(compile(case["jax_source"], f"<{name}>", "exec"), ns)
    built = ns[name]("bench")
    return built.fn, tuple(built.args)


def unseen_programs():
    """Programs of the corpus's kind that the corpus does not have."""
    import jax
    import jax.numpy as jnp

    rng = np.random.default_rng(2026)

    def f32(*shape, scale=1.0):
        return (rng.standard_normal(shape) * scale).astype(np.float32)

    def causal_attention(q, k, v):
        # [B, H, S, D] scaled dot-product attention with a causal mask.
        s = jnp.einsum("bhqd,bhkd->bhqk", q, k) / math.sqrt(q.shape[-1])
        n = q.shape[2]
        mask = jnp.tril(jnp.ones((n, n), bool))
        s = jnp.where(mask, s, -1e9)
        return jnp.einsum("bhqk,bhkd->bhqd", jax.nn.softmax(s, axis=-1), v)

    def rmsnorm_swiglu(x, g, w1, w3, w2):
        # A LLaMA-style feed-forward block: RMSNorm, SwiGLU, residual.
        h = x * jax.lax.rsqrt(jnp.mean(x * x, axis=-1, keepdims=True) + 1e-6) * g
        return x + (jax.nn.silu(h @ w1) * (h @ w3)) @ w2

    def gelu_ffn_layernorm(x, w1, b1, w2, b2, gamma, beta):
        y = x + jax.nn.gelu(x @ w1 + b1) @ w2 + b2
        mu = y.mean(-1, keepdims=True)
        var = ((y - mu) ** 2).mean(-1, keepdims=True)
        return (y - mu) / jnp.sqrt(var + 1e-5) * gamma + beta

    B, H, S, D = 4, 8, 256, 64
    E, F = 512, 1376
    return {
        "causal_attention": (causal_attention, (f32(B, H, S, D), f32(B, H, S, D), f32(B, H, S, D))),
        "rmsnorm_swiglu": (
            rmsnorm_swiglu,
            (f32(8, 128, E), f32(E), f32(E, F, scale=0.05), f32(E, F, scale=0.05), f32(F, E, scale=0.05)),
        ),
        "gelu_ffn_layernorm": (
            gelu_ffn_layernorm,
            (f32(16, 128, E), f32(E, 4 * E, scale=0.05), f32(4 * E), f32(4 * E, E, scale=0.05), f32(E), f32(E),
             f32(E)),
        ),
    }


def per_call(fn, target_s, sync=None):
    """Median seconds per call over about target_s seconds."""
    times = []
    end = time.perf_counter() + target_s
    while True:
        t0 = time.perf_counter()
        out = fn()
        if sync is not None:
            sync(out)
        times.append(time.perf_counter() - t0)
        if time.perf_counter() > end and len(times) >= 3:
            return statistics.median(times)


def check_close(ours, theirs, name):
    import jax

    for g, w in zip(jax.tree_util.tree_leaves(ours), jax.tree_util.tree_leaves(theirs)):
        w = np.asarray(w)
        if g.dtype.kind == "f":
            err = float(np.max(np.abs(g.astype(np.float64) - w.astype(np.float64)))) if g.size else 0.0
            scale = float(np.max(np.abs(w))) if w.size else 0.0
            if not err <= 1e-3 * max(scale, 1.0):
                raise SystemExit(f"{name}: smelt and JAX differ by {err} (scale {scale})")
        elif not np.array_equal(g, w):
            raise SystemExit(f"{name}: smelt and JAX differ")


def bench_program(name, fn, args, backend, rounds, target_s):
    import jax

    import smelt

    ours = smelt.jit(fn, backend=backend)
    theirs = jax.jit(fn)
    dev_args = jax.device_put(args)
    t0 = time.perf_counter()
    out = ours(*args)
    smelt_first_ms = (time.perf_counter() - t0) * 1e3
    ours.executable(*args).wait_optimized()
    t0 = time.perf_counter()
    ref = jax.block_until_ready(theirs(*dev_args))
    jax_first_ms = (time.perf_counter() - t0) * 1e3
    check_close(out, ref, name)
    sync = jax.block_until_ready
    best_s, best_j = math.inf, math.inf
    for _ in range(rounds):
        best_s = min(best_s, per_call(lambda: ours(*args), target_s))
        best_j = min(best_j, per_call(lambda: theirs(*dev_args), target_s, sync))
    return {
        "program": name,
        "smelt_ms": best_s * 1e3,
        "jax_ms": best_j * 1e3,
        "speedup": best_j / best_s,
        "smelt_first_call_ms": smelt_first_ms,
        "jax_first_call_ms": jax_first_ms,
    }


def overhead(backend, rounds):
    """smelt.jit's cost on a cache hit, over its executable's own call, for f32[4] + 1."""
    import jax

    import smelt

    f = smelt.jit(lambda x: x + 1.0, backend=backend)
    x = np.ones(4, np.float32)
    f(x)
    exe = f.executable(x)
    exe.wait_optimized()
    jf = jax.jit(lambda x: x + 1.0)
    jx = jax.device_put(x)
    jax.block_until_ready(jf(jx))
    n = 20000
    best = {"call": math.inf, "exe": math.inf, "jax": math.inf}
    for _ in range(rounds):
        for key, fn in (("call", lambda: f(x)), ("exe", lambda: exe(x)), ("jax", lambda: jf(jx))):
            t0 = time.perf_counter()
            for _ in range(n):
                fn()
            best[key] = min(best[key], (time.perf_counter() - t0) / n)
    return {
        "smelt_jit_call_us": best["call"] * 1e6,
        "executable_call_us": best["exe"] * 1e6,
        "overhead_us": (best["call"] - best["exe"]) * 1e6,
        "jax_jit_call_us": best["jax"] * 1e6,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cases", default="bert_encoder,layernorm,mlp2_forward",
                    help="corpus cases, comma-separated ('' for none)")
    ap.add_argument("--unseen", default="all", help="programs not in the corpus: all, none, or names")
    ap.add_argument("--backend", default="cpu")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--target-s", type=float, default=0.3)
    ap.add_argument("--json", help="write the figures here too")
    a = ap.parse_args()

    import jax

    programs = []
    for name in filter(None, a.cases.split(",")):
        programs.append((name, "corpus", *corpus_program(name)))
    if a.unseen != "none":
        unseen = unseen_programs()
        names = unseen if a.unseen == "all" else a.unseen.split(",")
        for name in names:
            programs.append((name, "unseen", *unseen[name]))
    rows = []
    for name, kind, fn, args in programs:
        print(f"py-bench: {name} ...", file=sys.stderr)
        row = bench_program(name, fn, args, a.backend, a.rounds, a.target_s)
        row["kind"] = kind
        rows.append(row)
    oh = overhead(a.backend, a.rounds)
    cpu = cpu_model()
    print(f"smelt.jit (backend {a.backend}) beside jax.jit {jax.__version__}, one process, alternating; {cpu}\n")
    print("| program | kind | jax.jit ms | smelt.jit ms | speedup |")
    print("|---|---|---:|---:|---:|")
    for r in rows:
        print(f"| {r['program']} | {r['kind']} | {r['jax_ms']:.3f} | {r['smelt_ms']:.3f} | {r['speedup']:.2f}x |")
    geo = math.exp(sum(math.log(r["speedup"]) for r in rows) / len(rows)) if rows else 0.0
    print(f"\ngeomean {geo:.2f}x over {len(rows)} programs")
    print(
        f"cache-hit call of f32[4] + 1: smelt.jit {oh['smelt_jit_call_us']:.2f} us, its executable "
        f"{oh['executable_call_us']:.2f} us, overhead {oh['overhead_us']:.2f} us; jax.jit {oh['jax_jit_call_us']:.2f} us"
    )
    if a.json:
        pathlib.Path(a.json).write_text(json.dumps({"cpu": cpu, "backend": a.backend, "programs": rows,
                                                    "overhead": oh, "geomean": geo}, indent=1))


if __name__ == "__main__":
    main()
