#!/usr/bin/env bash
# The whole test suite, as CI runs it (the README's test command):
#   1. the Rust workspace: cargo test --workspace, the GPU simulator's corpus
#      test in a process of its own after the rest (it starts an OS thread per
#      simulated GPU thread, about a thousand per launch, the heaviest load
#      of the suite on the 2-core machines);
#   2. the Python package: its extension module built in the same target folder,
#      profile and feature resolution as step 1 (so the workspace crates are not
#      built a second time), then pytest python/tests in a virtual environment
#      filled from PyPI with python/requirements-test.txt (pinned);
#   3. the install path: pip install ./python into a fresh virtual environment
#      (dev profile), and import smelt there without JAX.
# The environment lives in $SMELT_TEST_VENV (default: ~/.cache/smelt/venv-<hash
# of the requirements>), made once and reused while the requirements stay the
# same. `scripts/test.sh --python` runs steps 2 and 3 alone.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

if [ "${1:-}" != "--python" ]; then
  sim=gpu::every_corpus_case_matches_xla_in_the_gpu_simulator
  cargo test --workspace -- --skip "$sim"
  cargo test -p smelt --test it -- --exact "$sim"
fi

req=python/requirements-test.txt
hash=$(sha256sum "$req" | cut -c1-12)
venv=${SMELT_TEST_VENV:-$HOME/.cache/smelt/venv-$hash}
if [ ! -x "$venv/bin/python" ] || [ ! -f "$venv/.complete" ]; then
  echo "test.sh: making the test environment $venv (pinned packages from $req)" >&2
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$req"
  touch "$venv/.complete"
fi

# The extension module, built by cargo with the same feature resolution as
# `cargo test --workspace` (all targets selected, so dev-dependencies' features
# count too): only pyo3, numpy and smelt-python compile here. (`maturin develop`
# resolves features for the one package and would rebuild a dozen workspace
# crates.) It goes beside the Python sources, as an editable install puts it.
echo "test.sh: building the Python extension" >&2
fresh=$(mktemp -d)
trap 'rm -rf "$fresh"' EXIT
PYO3_PYTHON="$venv/bin/python" cargo build --workspace --all-targets --message-format=json-render-diagnostics |
  python3 -c '
import json, shutil, sys
for line in sys.stdin:
    m = json.loads(line)
    # The cdylib itself: --all-targets also builds the lib as a test harness.
    if (m.get("reason") == "compiler-artifact" and m["target"]["name"] == "_smelt"
            and "cdylib" in m["target"]["kind"] and not m["profile"]["test"]):
        shutil.copy(next(f for f in m["filenames"] if f.endswith(".so")), sys.argv[1])
' "$fresh/_smelt.abi3.so"
[ -f "$fresh/_smelt.abi3.so" ] || { echo "test.sh: cargo built no smelt-python extension" >&2; exit 1; }

# The path a user takes, so that it cannot rot unseen: `pip install ./python`
# (PEP 517, maturin fetched into pip's isolated build environment) into a fresh
# virtual environment, then `import smelt` there without JAX. In the dev profile
# to keep it short (MATURIN_PEP517_ARGS); users get release builds.
echo "test.sh: pip install ./python into a fresh virtual environment" >&2
rm -f python/smelt/_smelt*.so # the copy below is for the tests, not for the wheel
python3 -m venv "$fresh/venv"
MATURIN_PEP517_ARGS="--profile dev" "$fresh/venv/bin/python" -m pip install --quiet --disable-pip-version-check ./python
(cd "$fresh" && "$fresh/venv/bin/python" -c "import sys, smelt; assert 'jax' not in sys.modules; print('test.sh: installed smelt', smelt.__version__, 'imports without JAX')")

cp "$fresh/_smelt.abi3.so" python/smelt/_smelt.abi3.so

PYTHONPATH="$PWD/python${PYTHONPATH:+:$PYTHONPATH}" "$venv/bin/python" -m pytest python/tests -q -p no:cacheprovider
