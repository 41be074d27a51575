#!/usr/bin/env bash
# The GPU backend's device checks, as one script that ends within 8 minutes.
#
#   scripts/gpu-check.sh prepare    on a build machine: release build, then the
#                                   binary and the shared libraries it loads packed
#                                   into .gpu-bundle/ (to carry to a GPU machine
#                                   that has no Rust or LLVM)
#   scripts/gpu-check.sh run [OUT]  on the GPU machine: the checks below, results
#                                   in OUT (default: gpu-check-out)
#   scripts/gpu-check.sh [OUT]      both, on a machine with cargo and a GPU
#
# Checks: `smelt check tests/corpus --backend gpu` (XLA's outputs), `smelt gpu-bench`
# (a fused elementwise chain over 1 GiB f32 arrays beside a device copy; a 8192^3
# f32 GEMM through smelt beside cuBLAS directly), `smelt bench tests/corpus --backend
# gpu` (test-size cases, device-resident), and, if JAX with CUDA is installed, XLA
# GPU beside smelt on the corpus (compare.py). Every step has its own time limit.
set -uo pipefail
cd "$(dirname "$0")/.."
mode=both
case "${1:-}" in
  prepare) mode=prepare; shift ;;
  run) mode=run; shift ;;
esac
out=${1:-gpu-check-out}
bundle=.gpu-bundle

prepare() {
  cargo build --release --bin smelt || exit 1
  rm -rf "$bundle" && mkdir -p "$bundle/pack"
  cp target/release/smelt "$bundle/pack/" && strip "$bundle/pack/smelt"
  ldd target/release/smelt | awk '/=>/ {print $3}' | grep -v -E '/(libc|libm|libgcc_s|libpthread|libdl|ld-linux)[.-]' |
    while read -r lib; do cp -L "$lib" "$bundle/pack/"; done
  tar -C "$bundle/pack" -cf - . | xz -T0 -6 > "$bundle/smelt.tar.xz" && rm -rf "$bundle/pack"
  # The XLA side of the comparison (JAX programs, compare.py), when present.
  [ -d ../shared/tools/corpus ] && cp -r ../shared/tools/corpus "$bundle/corpus-tools"
  grep -qx "/$bundle/" .git/info/exclude 2>/dev/null || echo "/$bundle/" >> .git/info/exclude
  echo "prepared $bundle/smelt.tar.xz ($(du -h "$bundle/smelt.tar.xz" | cut -f1)); carry $bundle to the GPU machine"
}

run_checks() {
  mkdir -p "$out"
  exec > >(tee "$out/gpu-check.log") 2>&1
  local start=$SECONDS smelt=target/release/smelt
  if [ -f "$bundle/smelt.tar.xz" ] && ! command -v cargo >/dev/null; then
    mkdir -p /tmp/smelt-bundle && tar -C /tmp/smelt-bundle -xJf "$bundle/smelt.tar.xz" || exit 1
    # The bundled libraries for smelt alone (Python and JAX keep the system's).
    printf '#!/bin/sh\nLD_LIBRARY_PATH=/tmp/smelt-bundle${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} exec /tmp/smelt-bundle/smelt "$@"\n' \
      > /tmp/smelt-bundle/smelt-run && chmod +x /tmp/smelt-bundle/smelt-run
    smelt=/tmp/smelt-bundle/smelt-run
  elif [ ! -x "$smelt" ]; then
    echo "no smelt binary: run 'scripts/gpu-check.sh prepare' first (or install cargo)"; exit 1
  fi
  # cuBLAS (libcublas.so.12 or .13) from the CUDA toolkit or from NVIDIA's wheels.
  local d
  for d in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib $(python3 -c "
import glob, os, site, sys
roots = set(site.getsitepackages() + [p for p in sys.path if p.endswith('-packages')])
print('\n'.join(sorted({os.path.dirname(f) for r in roots
                        for f in glob.glob(os.path.join(r, 'nvidia', '**', 'libcublas.so*'), recursive=True)})))
" 2>/dev/null); do
    [ -d "$d" ] && export LD_LIBRARY_PATH=$d${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  done
  echo "LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1 | tee "$out/device.txt"
  echo "== corpus on the GPU"
  timeout 150 "$smelt" check tests/corpus --backend gpu 2>&1 | tee "$out/check.txt"
  echo "== device benchmarks"
  timeout 150 "$smelt" gpu-bench --gib 1 --gemm 8192 --runs 20 --json "$out/gpu-bench.json"
  echo "== corpus timings (test size, device-resident)"
  timeout 60 "$smelt" bench tests/corpus --backend gpu --json --time-s 0.05 > "$out/bench-gpu.json"
  if [ $((SECONDS - start)) -lt 300 ] && python3 -c "import jax; assert jax.devices('gpu')" >/dev/null 2>&1; then
    echo "== XLA GPU beside smelt (compare.py, bench size)"
    local cmp=../shared/tools/corpus/compare.py
    [ -f "$cmp" ] || cmp=$bundle/corpus-tools/compare.py
    if [ -f "$cmp" ]; then
      JAX_PLATFORMS=cuda timeout $((450 - (SECONDS - start))) python3 "$cmp" --smelt "$smelt" --backend gpu \
        --passes 1 --target-s 0.2 --json-out "$out/compare-gpu.json" 2>&1 | tail -60
    else
      echo "compare.py not found: XLA GPU timings skipped"
    fi
  else
    echo "no JAX with CUDA here (or no time left): XLA GPU timings skipped"
  fi
  echo "gpu-check: done in $((SECONDS - start)) s; results in $out"
}

case $mode in
  prepare) prepare ;;
  run) run_checks ;;
  both) cargo build --release --bin smelt && run_checks ;;
esac
