#!/usr/bin/env python3
"""Writes the `grad` cases of scripts/grad_cases.py into tests/grad/.

    python scripts/gen_grad_cases.py [--corpus-tools ../shared/tools/corpus] [--out tests/grad]

Each case folder is what the corpus generator (`gen.py`) writes for JAX's
`value_and_grad` of the case's loss (`module.hlo`, inputs, XLA's outputs:
the loss, then one gradient per differentiated argument), plus
`forward.hlo`, the loss alone lowered at the same inputs, and `grad_wrt` in
`case.json`: the entry parameters the gradients are taken with respect to.
`tests/it/grad.rs` differentiates `forward.hlo` with smelt and compares.
"""

import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus-tools", default=os.path.join(HERE, "..", "..", "shared", "tools", "corpus"))
    ap.add_argument("--out", default=os.path.join(HERE, "..", "tests", "grad"))
    ap.add_argument("--only", default="", help="comma-separated case names")
    a = ap.parse_args()
    sys.path.insert(0, os.path.abspath(a.corpus_tools))
    import cases
    import gen

    mod = cases.load_cases_module(os.path.join(HERE, "grad_cases.py"))
    reg = cases.REGISTRIES["grad"]
    names = [n for n in reg if not a.only or n in a.only.split(",")]
    os.makedirs(a.out, exist_ok=True)
    metas = []
    for name in names:
        meta, dt = gen.gen_case(reg[name], a.out, False)
        loss, wrt = mod.FORWARD[name]
        built = reg[name].build("test")
        _, _, text = gen.lower(loss, built.args)
        d = os.path.join(a.out, name)
        with open(os.path.join(d, "forward.hlo"), "w") as f:
            f.write(text)
        meta["grad_wrt"] = list(wrt)
        with open(os.path.join(d, "case.json")) as f:
            on_disk = json.load(f)
        on_disk["grad_wrt"] = list(wrt)
        with open(os.path.join(d, "case.json"), "w") as f:
            json.dump(on_disk, f, indent=1)
        metas.append(meta)
        print(f"{name:30s} wrt={list(wrt)} {dt:6.2f}s", flush=True)
    if not a.only:
        gen.write_readme(a.out, "grad", metas)


if __name__ == "__main__":
    main()
