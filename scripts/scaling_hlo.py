"""Writes benchmark-size case folders (module.hlo, in<i>.npy, case.json) for
cases of scripts/scaling_cases.py without compiling them with XLA: for timing
smelt alone on programs XLA takes too long to compile (`chain_100k`).

    $PY scripts/scaling_hlo.py --out /tmp/cws chain_100k
    target/release/smelt bench /tmp/cws/chain_100k --backend cpu --compile-profile

Uses the corpus tools' writer (`gen.write_run_case`, the layout compare.py
writes) from `--tools` (default: ../shared/tools/corpus beside this checkout).
"""

import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tools", default=os.path.join(HERE, "..", "..", "shared", "tools", "corpus"))
    ap.add_argument("--out", required=True, help="folder to write <case>/ into")
    ap.add_argument("cases", nargs="+")
    a = ap.parse_args()
    sys.path.insert(0, os.path.abspath(a.tools))
    sys.path.insert(0, HERE)
    import gen  # noqa: E402  (the corpus tools)
    import scaling_cases  # noqa: E402

    for name in a.cases:
        case = scaling_cases.SCALING.get(name)
        if case is None:
            sys.exit(f"scaling_hlo.py: no case {name!r} (have: {', '.join(scaling_cases.SCALING)})")
        t = time.time()
        built = case.build("bench")
        gen.write_run_case(case, built, os.path.join(a.out, name), "bench")
        print(f"{name}: written to {os.path.join(a.out, name)} in {time.time() - t:.1f} s", flush=True)


if __name__ == "__main__":
    main()
