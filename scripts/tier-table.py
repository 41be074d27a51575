#!/usr/bin/env python3
"""Compile and run time of every corpus case on the LLVM (cpu) and Cranelift
backends, side by side, as a Markdown table (docs/benchmarks.md, "Tiers").

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


rows, ratios = [], []
for case in sorted(p for p in corpus.iterdir() if (p / "module.hlo").exists()):
    llvm, clif = bench(case, "cpu"), bench(case, "cranelift")
    ratio = clif["compile_ms"] / llvm["compile_ms"]
    ratios.append(ratio)
    rows.append((case.name, llvm["compile_ms"], clif["compile_ms"], ratio,
                 llvm["run_ms"]["median"], clif["run_ms"]["median"]))
print("| case | LLVM compile ms | Cranelift compile ms | Cranelift/LLVM | LLVM run ms | Cranelift run ms |")
print("|---|---:|---:|---:|---:|---:|")
for name, lc, cc, r, lr, cr in rows:
    print(f"| {name} | {lc:.1f} | {cc:.2f} | {r:.3f} | {lr:.4f} | {cr:.4f} |")
print()
print(f"cases: {len(rows)}; compile-time ratio Cranelift/LLVM: median {statistics.median(ratios):.3f}, "
      f"max {max(ratios):.3f} ({rows[ratios.index(max(ratios))][0]})")
