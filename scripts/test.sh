#!/usr/bin/env bash
# The whole test suite, as CI runs it (the README's test command):
#   1. the Rust workspace: cargo test --workspace;
#   2. the Python package: its extension module built in the same target folder,
#      profile and feature resolution as step 1 (so the workspace crates are not
#      built a second time), then pytest python/tests in a virtual environment
#      filled from PyPI with python/requirements-test.txt (pinned).
# The environment lives in $SMELT_TEST_VENV (default: ~/.cache/smelt/venv-<hash
# of the requirements>), made once and reused while the requirements stay the
# same. `scripts/test.sh --python` runs step 2 alone.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

if [ "${1:-}" != "--python" ]; then
  cargo test --workspace
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
PYO3_PYTHON="$venv/bin/python" cargo build --workspace --all-targets
cp target/debug/lib_smelt.so python/smelt/_smelt.abi3.so
PYTHONPATH="$PWD/python${PYTHONPATH:+:$PYTHONPATH}" "$venv/bin/python" -m pytest python/tests -q -p no:cacheprovider
