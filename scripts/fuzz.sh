#!/usr/bin/env bash
# Coverage-guided fuzzing of one input door with cargo fuzz (libFuzzer).
#
#   scripts/fuzz.sh DOOR [RUNS] [extra libFuzzer flags...]
#
# DOOR: hlo_text, stablehlo_text, hlo_proto, onnx_model, npy or cache_entry (the
# functions of src/fuzz.rs).
# RUNS: inputs to run (default 1000000; 0 runs until stopped).
# Seeds come from the repository's own files (corpus modules, ONNX models,
# .npy inputs, cache entries written by `smelt onnx-run`) and, when the
# project's Python environment has the onnx package, the ONNX backend test
# models. The growing corpus lives in fuzz/corpus/DOOR, crashes in
# fuzz/artifacts/DOOR; replay one with `scripts/fuzz.sh DOOR 1 FILE`.
# Needs the nightly toolchain and `cargo install cargo-fuzz`.
# SMELT_FUZZ_SANITIZER (default none: panics, aborts and stack overflows are
# what safe Rust can hit; address doubles the cost) is passed to cargo fuzz.
set -euo pipefail
cd "$(dirname "$0")/.."
door=${1:?usage: scripts/fuzz.sh hlo_text|stablehlo_text|hlo_proto|onnx_model|npy|cache_entry [RUNS] [libFuzzer flags]}
runs=${2:-1000000}
shift $(( $# >= 2 ? 2 : 1 ))
case $door in hlo_text | stablehlo_text | hlo_proto | onnx_model | npy | cache_entry) ;; *)
    echo "fuzz.sh: unknown door '$door' (hlo_text, stablehlo_text, hlo_proto, onnx_model, npy, cache_entry)" >&2
    exit 2
    ;;
esac
command -v cargo-fuzz > /dev/null || {
    echo "fuzz.sh: cargo-fuzz is missing: cargo install cargo-fuzz" >&2
    exit 2
}
rustup toolchain list | grep -q '^nightly' || {
    echo "fuzz.sh: the nightly toolchain is missing: rustup toolchain install nightly" >&2
    exit 2
}

corpus=fuzz/corpus/$door
mkdir -p "$corpus"
seed() { cp -n "$1" "$corpus/$2" 2> /dev/null || true; }
case $door in
hlo_text)
    for f in tests/corpus/*/module.hlo tests/corpus/*/module.opt.hlo; do
        seed "$f" "$(basename "$(dirname "$f")")-$(basename "$f")"
    done
    ;;
stablehlo_text)
    for f in tests/corpus/*/module.stablehlo.mlir; do seed "$f" "$(basename "$(dirname "$f")").mlir"; done
    ;;
hlo_proto)
    for f in tests/corpus/*/module.pb; do seed "$f" "$(basename "$(dirname "$f")").pb"; done
    ;;
onnx_model)
    for f in tests/onnx/*/model.onnx; do seed "$f" "$(basename "$(dirname "$f")").onnx"; done
    py=$(ls -d ~/.cache/smelt/venv-*/bin/python 2> /dev/null | head -1 || true)
    data=$([ -n "$py" ] && "$py" -c 'import onnx, os; print(os.path.join(os.path.dirname(onnx.__file__), "backend/test/data/node"))' 2> /dev/null || true)
    if [ -n "$data" ] && [ -d "$data" ]; then
        for f in "$data"/*/model.onnx; do seed "$f" "node-$(basename "$(dirname "$f")").onnx"; done
    fi
    ;;
npy)
    for f in tests/corpus/*/in*.npy tests/onnx/*/*.npy; do
        [ "$(stat -c %s "$f")" -le 65536 ] && seed "$f" "$(basename "$(dirname "$f")")-$(basename "$f")"
    done
    ;;
cache_entry)
    if ! ls "$corpus"/*.smeltc > /dev/null 2>&1; then
        cargo build --release --quiet
        cache=$(mktemp -d)
        for m in tests/onnx/mlp tests/onnx/cnn tests/onnx/dynamic_batch; do
            SMELT_CACHE_DIR=$cache ./target/release/smelt onnx-run "$m" --backend cpu > /dev/null
        done
        for f in "$cache"/*.smeltc; do seed "$f" "$(basename "$f")"; done
        rm -rf "$cache"
    fi
    ;;
esac
echo "fuzz.sh: $door: $(ls "$corpus" | wc -l) inputs in $corpus, $runs runs" >&2
cd fuzz
exec cargo +nightly fuzz run --sanitizer "${SMELT_FUZZ_SANITIZER:-none}" "$door" "corpus/$door" -- \
    -runs="$runs" -timeout=120 -rss_limit_mb=6144 -max_len=1048576 -print_final_stats=1 "$@"
