#!/usr/bin/env python3
"""OpenBLAS SGEMM GFLOP/s (through numpy) on the shapes of backends/cpu/examples/gemm_bench.rs.

Best of several runs per shape, with OPENBLAS_NUM_THREADS=2 unless already set.
Usage: OPENBLAS_NUM_THREADS=2 /work/venv/bin/python scripts/sgemm-openblas.py [SECONDS_PER_SHAPE]
(SGEMM_ONLY=label: one shape.)
"""
import os
import sys

os.environ.setdefault("OPENBLAS_NUM_THREADS", "2")
import time  # noqa: E402

import numpy as np  # noqa: E402

SHAPES = [
    ("256^3", 1, 256, 256, 256, False),
    ("512^3", 1, 512, 512, 512, False),
    ("1024^3", 1, 1024, 1024, 1024, False),
    ("2048^3", 1, 2048, 2048, 2048, False),
    ("4096^3", 1, 4096, 4096, 4096, False),
    ("[1024,768]x[768,768]", 1, 1024, 768, 768, False),
    ("[1024,768]x[768,3072]", 1, 1024, 3072, 768, False),
    ("[1024,3072]x[3072,768]", 1, 1024, 768, 3072, False),
    ("[96,128,64]x[96,64,128]", 96, 128, 128, 64, False),
    ("[96,128,64]x[96,128,64]^T", 96, 128, 128, 64, True),
    ("[4096,4096]x[4096,1]", 1, 4096, 1, 4096, False),
    ("[1,4096]x[4096,4096]", 1, 1, 4096, 4096, False),
    ("[256,64]x[64,1]", 1, 256, 1, 64, False),
]


def main():
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
    rng = np.random.default_rng(0)
    print(f"| shape | OpenBLAS GFLOP/s ({os.environ['OPENBLAS_NUM_THREADS']} threads) |")
    print("|---|---:|")
    only = os.environ.get("SGEMM_ONLY")
    for label, batch, m, n, k, rt in SHAPES:
        if only is not None and label != only:
            continue
        a = rng.standard_normal((batch, m, k), dtype=np.float32)
        b = rng.standard_normal((batch, n, k) if rt else (batch, k, n), dtype=np.float32)
        c = np.empty((batch, m, n), dtype=np.float32)
        bb = b.transpose(0, 2, 1) if rt else b
        if batch == 1:
            a2, b2, c2 = a[0], bb[0], c[0]

            def run():
                np.matmul(a2, b2, out=c2)
        else:
            # numpy's stacked matmul does not call BLAS here; one SGEMM per batch
            # element is what an OpenBLAS user would do.
            slices = [(a[i], bb[i], c[i]) for i in range(batch)]

            def run():
                for x, y, z in slices:
                    np.matmul(x, y, out=z)

        run()
        best = float("inf")
        start = time.perf_counter()
        reps = 0
        while reps < 3 or time.perf_counter() - start < seconds:
            t = time.perf_counter()
            run()
            best = min(best, time.perf_counter() - t)
            reps += 1
        print(f"| {label} | {2.0 * batch * m * n * k / best / 1e9:.1f} |")


if __name__ == "__main__":
    main()
