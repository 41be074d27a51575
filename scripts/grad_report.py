#!/usr/bin/env python3
"""smelt's gradient modules beside JAX's, both compiled by smelt, on tests/grad.

    python scripts/grad_report.py [--smelt target/release/smelt] [--cases tests/grad]

For each case: `smelt grad forward.hlo` (smelt's autodiff) and the case's
`module.hlo` (JAX's value_and_grad of the same function, lowered by JAX),
each through smelt's default pipeline: kernels and peak temporary bytes
(`smelt opt --stats`), and the CPU backend's median run time (`smelt bench`).
Prints a markdown table.
"""

import argparse
import json
import os
import shutil
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def stats(smelt, path):
    out = subprocess.run([smelt, "opt", path, "--stats"], capture_output=True, text=True, check=True).stdout
    kv = dict(line.split(": ", 1) for line in out.splitlines() if ": " in line)
    return int(kv["kernels"]), int(kv["peak_temp_bytes"])


def run_ms(smelt, case_dir):
    out = subprocess.run([smelt, "bench", case_dir, "--backend", "cpu", "--json", "--time-s", "0.3"],
                         capture_output=True, text=True, check=True).stdout
    line = next(json.loads(l) for l in out.splitlines() if l.startswith("{"))
    return line["run_ms"]["median"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--smelt", default=os.path.join(HERE, "..", "target", "release", "smelt"))
    ap.add_argument("--cases", default=os.path.join(HERE, "..", "tests", "grad"))
    a = ap.parse_args()
    print("| case | smelt kernels | JAX kernels | smelt peak temp bytes | JAX peak temp bytes | smelt run ms | JAX run ms |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for name in sorted(os.listdir(a.cases)):
            d = os.path.join(a.cases, name)
            if not os.path.isfile(os.path.join(d, "forward.hlo")):
                continue
            wrt = json.load(open(os.path.join(d, "case.json")))["grad_wrt"]
            mine = os.path.join(tmp, name)
            os.makedirs(mine)
            for f in os.listdir(d):
                if f.startswith("in") and f.endswith(".npy") or f == "case.json":
                    shutil.copy(os.path.join(d, f), mine)
            subprocess.run([a.smelt, "grad", os.path.join(d, "forward.hlo"), "--wrt", ",".join(map(str, wrt)),
                            "-o", os.path.join(mine, "module.hlo")], check=True)
            sk, sb = stats(a.smelt, os.path.join(mine, "module.hlo"))
            jk, jb = stats(a.smelt, os.path.join(d, "module.hlo"))
            print(f"| `{name}` | {sk} | {jk} | {sb} | {jb} | {run_ms(a.smelt, mine):.4f} | {run_ms(a.smelt, d):.4f} |",
                  flush=True)


if __name__ == "__main__":
    main()
