#!/usr/bin/env python3
"""Generate the JAX API sweep (scripts/jax_sweep.py) and run `smelt check` on it.

Run with the corpus tools' Python (JAX 0.10.2, numpy, ml_dtypes), from anywhere:

    $PY scripts/sweep.py --smelt target/release/smelt --out /tmp/sweep
    $PY scripts/sweep.py --smelt S --only sw_linalg_,sw_fft_fft2 --backends cpu
    $PY scripts/sweep.py --smelt S --no-gen          # reuse the folders already in --out

Steps:
 1. every selected case of the registries `sweep` and `sweep64` (the latter with x64 on) is
    written to --out/<case>/ with the corpus tools' gen.gen_case, one at a time; a case that
    fails in JAX itself is reported and skipped;
 2. `smelt check --backend B --out/<case>` runs once per case and backend, under `timeout`
    and `nice`, with SMELT_CACHE_DIR set to a scratch folder unless already set;
 3. prints a table category x backend of passes, every failure with the first relevant line of
    smelt's output, and the failures grouped by a normalized reason. --json FILE keeps it all.

--only takes comma-separated case names or name prefixes (sw_linalg_ selects a category).
The category of a case is the second word of its name (sw_<category>_...).
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DEFAULT_TOOLS = os.path.join(os.path.dirname(ROOT), "shared", "tools", "corpus")
SETS = ("sweep", "sweep64")
X64_SETS = {"sweep64"}


def category(name: str) -> str:
    parts = name.split("_")
    return parts[1] if len(parts) > 2 and parts[0] == "sw" else "other"


def selected(name: str, only: list[str]) -> bool:
    return not only or any(name == o or name.startswith(o) for o in only)


def first_line(text: str) -> str:
    """The first relevant line of smelt's output for a failure."""
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    for l in lines:
        if l.startswith("FAIL "):
            return l.split(": ", 1)[1] if ": " in l else l
    for key in ("error", "panicked", "Error", "thread '"):
        for l in lines:
            if key in l:
                return l
    skip = re.compile(r"^\d+ passed, \d+ failed$")
    rest = [l for l in lines if not skip.match(l)]
    return rest[0] if rest else "(no output)"


def reason_key(reason: str) -> str:
    """A failure reason with case-specific details removed, for grouping."""
    r = reason.split(" | ")[0]
    m = re.search(r'unsupported custom-call target "([^"]+)"', r)
    if m:
        return f'unsupported custom-call target "{m.group(1)}"'
    m = re.search(r"element type '(\w+)' is not supported", r)
    if m:
        return f"element type '{m.group(1)}' is not supported"
    m = re.search(r"instruction '[^']*' \(custom-call\): cannot lower.*\[targets: ([^\]]*)\]", r)
    if m:
        return f"(custom-call): cannot lower [targets: {m.group(1)}]"
    m = re.search(r"instruction '[^']*' \(([^)]+)\): (.*)", r)
    if m:
        return f"({m.group(1)}): {m.group(2)}"
    m = re.search(r"output \d+: index \[[^\]]*\]: got (\S+), want (\S+)", r)
    if m:
        return f"value mismatch: got {value_class(m.group(1))}, want {value_class(m.group(2))}"
    r = re.sub(r"'[^']*'", "'…'", r)
    r = re.sub(r"\b\d+(\.\d+)?(e[-+]?\d+)?\b", "N", r)
    return r[:140]


def value_class(v: str) -> str:
    """Classifies a number printed by smelt check: inf, -inf, NaN, 0, -0, subnormal, finite."""
    v = v.rstrip(",")
    try:
        f = float(v)
    except ValueError:
        return v
    if f != f:
        return "NaN"
    if f in (float("inf"), float("-inf")):
        return v
    if f == 0:
        return "-0" if v.startswith("-") else "0"
    if abs(f) < 1.1754944e-38:
        return "subnormal"
    return "finite"


def custom_call_targets(d):
    try:
        with open(os.path.join(d, "case.json")) as f:
            cc = json.load(f)["custom_call_targets"]["module.hlo"]
        return cc
    except (OSError, KeyError, ValueError):
        return []


def generate(names_by_set, out, gen, cases):
    import jax
    fails = {}
    for set_name, names in names_by_set.items():
        if not names:
            continue
        jax.config.update("jax_enable_x64", set_name in X64_SETS)
        reg = cases.REGISTRIES[set_name]
        for n in names:
            t0 = time.time()
            try:
                gen.gen_case(reg[n], out, with_bench_shapes=False)
                print(f"gen  {n:42s} {time.time() - t0:5.2f}s", file=sys.stderr, flush=True)
            except Exception as e:          # noqa: BLE001 - a JAX failure is a result
                msg = f"{type(e).__name__}: {str(e).strip().splitlines()[0] if str(e).strip() else ''}"
                fails[n] = msg[:200]
                print(f"gen  {n:42s} FAILED {msg[:160]}", file=sys.stderr, flush=True)
        jax.config.update("jax_enable_x64", False)
    return fails


def check(smelt, backend, d, timeout, env):
    t0 = time.time()
    cmd = ["nice", "-n", "10", "timeout", str(timeout), smelt, "check", "--backend", backend, d]
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    dt = time.time() - t0
    text = p.stdout + "\n" + p.stderr
    name = os.path.basename(d)
    ok = p.returncode == 0 and re.search(rf"^PASS {re.escape(name)}\b", p.stdout, re.M) is not None
    if ok:
        return True, "", dt
    if p.returncode == 124:
        return False, f"timeout after {timeout}s", dt
    if p.returncode < 0 or p.returncode > 128:
        sig = -p.returncode if p.returncode < 0 else p.returncode - 128
        return False, f"crashed (signal {sig}): {first_line(text)}", dt
    why = first_line(text)
    if "(custom-call): cannot lower" in why:          # the compiled backends do not name the target
        why += f" [targets: {', '.join(custom_call_targets(d)) or '?'}]"
    return False, why, dt


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--smelt", required=True, help="smelt binary")
    ap.add_argument("--out", default="/tmp/sweep", help="folder for the case folders (default /tmp/sweep)")
    ap.add_argument("--backends", default="interp,cpu,cranelift")
    ap.add_argument("--only", default="", help="comma-separated case names or name prefixes")
    ap.add_argument("--timeout", type=int, default=60, help="seconds per smelt check call")
    ap.add_argument("--no-gen", action="store_true", help="use the case folders already in --out")
    ap.add_argument("--tools", default=DEFAULT_TOOLS, help="the corpus tools folder (gen.py, cases.py)")
    ap.add_argument("--cases-module", default=os.path.join(HERE, "jax_sweep.py"))
    ap.add_argument("--json", default="", help="write all results to this file")
    a = ap.parse_args()

    smelt = os.path.abspath(a.smelt)
    if not os.access(smelt, os.X_OK):
        ap.error(f"not an executable: {smelt}")
    backends = [b for b in a.backends.split(",") if b]
    only = [o for o in a.only.split(",") if o]

    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    sys.path.insert(0, a.tools)
    import gen                                    # noqa: E402  (sets up jax config and cases)
    import cases                                  # noqa: E402
    cases.load_cases_module(a.cases_module)
    sys.modules["complex_dtypes"].register()  # gen is imported now: teach it c64/c128

    names_by_set = {s: [n for n in cases.REGISTRIES[s] if selected(n, only)] for s in SETS}
    names = [n for s in SETS for n in names_by_set[s]]
    if not names:
        ap.error("no case selected")
    os.makedirs(a.out, exist_ok=True)

    gen_fail = {} if a.no_gen else generate(names_by_set, a.out, gen, cases)
    present = [n for n in names if n not in gen_fail and os.path.isfile(os.path.join(a.out, n, "module.hlo"))]
    missing = [n for n in names if n not in gen_fail and n not in present]
    for n in missing:
        gen_fail[n] = "no case folder in --out (run without --no-gen)"

    env = dict(os.environ)
    env.setdefault("SMELT_CACHE_DIR", "/tmp/smelt-sweep-cache")
    results = {b: {} for b in backends}
    for b in backends:
        for n in present:
            ok, why, dt = check(smelt, b, os.path.join(a.out, n), a.timeout, env)
            results[b][n] = {"pass": ok, "reason": why, "seconds": round(dt, 2)}
            print(f"{b:9s} {'PASS' if ok else 'FAIL'} {n:42s} {dt:6.2f}s {why[:120]}", file=sys.stderr, flush=True)

    # ---- table --------------------------------------------------------------------------
    cats = []
    for n in names:
        if category(n) not in cats:
            cats.append(category(n))
    print(f"\n| category | cases | gen fail | " + " | ".join(backends) + " |")
    print("|---|---:|---:|" + "---:|" * len(backends))
    tot = collections.Counter()
    for c in cats:
        cn = [n for n in names if category(n) == c]
        row = [c, str(len(cn)), str(sum(n in gen_fail for n in cn))]
        tot["cases"] += len(cn)
        tot["gen"] += sum(n in gen_fail for n in cn)
        for b in backends:
            p = sum(results[b].get(n, {}).get("pass", False) for n in cn)
            tot[b] += p
            row.append(f"{p}/{len(cn)}")
        print("| " + " | ".join(row) + " |")
    print("| **total** | " + f"{tot['cases']} | {tot['gen']} | " +
          " | ".join(f"{tot[b]}/{tot['cases']}" for b in backends) + " |")

    if gen_fail:
        print("\nFailed to generate (JAX):")
        for n, why in gen_fail.items():
            print(f"  {n}: {why}")

    print("\nFailures (case: backends: reason):")
    for n in present:
        by_reason = collections.OrderedDict()
        for b in backends:
            r = results[b][n]
            if not r["pass"]:
                by_reason.setdefault(r["reason"], []).append(b)
        for why, bs in by_reason.items():
            print(f"  {n}: {','.join(bs)}: {why[:200]}")

    print("\nFailures grouped by reason (count per backend):")
    groups = collections.OrderedDict()
    for b in backends:
        for n in present:
            r = results[b][n]
            if not r["pass"]:
                groups.setdefault(reason_key(r["reason"]), {}).setdefault(b, []).append(n)
    for key, per_b in sorted(groups.items(), key=lambda kv: -sum(len(v) for v in kv[1].values())):
        counts = ", ".join(f"{b} {len(v)}" for b, v in per_b.items())
        cases_ = sorted({n for v in per_b.values() for n in v})
        print(f"  [{counts}] {key}")
        print(f"      {' '.join(cases_)}")

    if a.json:
        with open(a.json, "w") as f:
            json.dump({"smelt": smelt, "out": a.out, "backends": backends, "gen_fail": gen_fail,
                       "results": results}, f, indent=1)


if __name__ == "__main__":
    main()
