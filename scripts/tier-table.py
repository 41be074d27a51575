#!/usr/bin/env python3
"""Compile and run time of every corpus case on the LLVM (cpu) and Cranelift
backends, side by side, as a Markdown table (docs/benchmarks.md, "Tiers"):
the backends' own compile time (kernel form to loaded code; the middle end and
lowering before it are shared) and the end-to-end time from parsing.

Usage: scripts/tier-table.py [SMELT_BINARY] [CORPUS_DIR]
"""
import json
import statistics
import subprocess
import sys
from pathlib import Path

smelt = sys.argv[1] if len(sys.argv) > 1 else "target/release/smelt"
corpus = Path(sys.argv[2] if len(sys.argv) > 2 else "tests/corpus")


def bench(case, backend):
    out = subprocess.run(
        [smelt, "bench", str(case), "--backend", backend, "--json", "--time-s", "0.2"],
        check=True, capture_output=True, text=True,
    ).stdout
    return json.loads(out.splitlines()[0])


rows = []
for case in sorted(p for p in corpus.iterdir() if (p / "module.hlo").exists()):
    llvm, clif = bench(case, "cpu"), bench(case, "cranelift")
    rows.append((case.name, llvm, clif))


def codegen(r):
    return r["compile_phases_ms"]["codegen"]


print("| case | LLVM codegen ms | Cranelift codegen ms | ratio | LLVM total ms | Cranelift total ms | ratio "
      "| LLVM run ms | Cranelift run ms |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
tier, total = [], []
for name, l, c in rows:
    tier.append(codegen(c) / codegen(l))
    total.append(c["compile_ms"] / l["compile_ms"])
    print(f"| {name} | {codegen(l):.1f} | {codegen(c):.2f} | {tier[-1]:.3f} | {l['compile_ms']:.1f} "
          f"| {c['compile_ms']:.1f} | {total[-1]:.3f} | {l['run_ms']['median']:.4f} | {c['run_ms']['median']:.4f} |")
print()


def summary(what, ratios):
    worst = max(range(len(ratios)), key=ratios.__getitem__)
    return (f"{what} Cranelift/LLVM: median {statistics.median(ratios):.3f}, max {ratios[worst]:.3f} "
            f"({rows[worst][0]}), over 1/10 on {sum(r > 0.1 for r in ratios)} of {len(ratios)} cases")


print(summary("codegen (kernel form to loaded code)", tier))
print(summary("end to end (parse to loaded code)", total))
run = [c["run_ms"]["median"] / l["run_ms"]["median"] for _, l, c in rows]
print(f"run time Cranelift/LLVM: median {statistics.median(run):.2f}x")
