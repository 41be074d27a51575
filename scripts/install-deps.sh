#!/usr/bin/env bash
# Installs what building and testing smelt needs on Debian/Ubuntu: a C toolchain,
# LLVM 22 (for the LLVM backends, linked dynamically), the AArch64 cross toolchain
# and user-mode emulator the AOT tests build and run AArch64 objects with, Python's
# venv and pip (the Python package and its tests), and NVIDIA's PTX assembler
# (ptxas, from the nvidia-cuda-nvcc-cu12 wheel on PyPI, into ~/.cache/smelt/nvcc;
# the GPU tests assemble their PTX with it and say so when it is missing).
# Everything comes from the distribution's archive and PyPI; nothing else is
# fetched. Rust (1.95 or newer) must be there already: the script says how to get
# it when it is not.
#
#   scripts/install-deps.sh            install what is missing (idempotent: about a
#                                      second when everything is there)
#   scripts/install-deps.sh --dry-run  the same detection of missing packages and of
#                                      each package's install candidate, for every
#                                      package, installed or not; prints what it
#                                      would install and installs nothing (it may
#                                      refresh stale package lists); exits 1 when a
#                                      missing package has no install candidate
#
# No `cmd | grep -q`: under pipefail, grep -q exiting at its first match kills the
# writer with SIGPIPE and fails the whole pipeline. Output is captured first and
# matched in the shell.
set -euo pipefail

dry_run=0
case "${1:-}" in
  --dry-run) dry_run=1 ;;
  "") ;;
  *) echo "usage: scripts/install-deps.sh [--dry-run]" >&2; exit 2 ;;
esac

packages=(
  build-essential pkg-config llvm-22-dev libpolly-22-dev libzstd-dev zlib1g-dev
  # `smelt aot --target aarch64-unknown-linux-gnu` tests (tests/it/aot.rs): cross
  # C compiler and libc to link the driver, qemu-aarch64 to run it.
  gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user
  # pip for ptxas below; venv for the Python package's tests (scripts/test.sh).
  python3-pip python3-venv
)

say() { echo "install-deps: $*" >&2; }

# Whether dpkg has package $1 installed.
installed() {
  local status
  status=$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null) || return 1
  [[ $status == *"install ok installed"* ]]
}

# The version apt would install for package $1, empty when it has none.
candidate() {
  local policy line
  policy=$(apt-cache policy "$1" 2>/dev/null) || return 0
  while IFS= read -r line; do
    if [[ $line =~ ^[[:space:]]*Candidate:[[:space:]]*([^[:space:]]+) ]]; then
      [[ ${BASH_REMATCH[1]} == "(none)" ]] || echo "${BASH_REMATCH[1]}"
      return 0
    fi
  done <<< "$policy"
}

sudo_cmd=()
if [ "$(id -u)" -ne 0 ] && [ "$dry_run" -eq 0 ]; then
  if command -v sudo >/dev/null 2>&1; then sudo_cmd=(sudo); else
    say "not root and no sudo; install these yourself: ${packages[*]}"
    exit 1
  fi
fi

missing=()
for p in "${packages[@]}"; do installed "$p" || missing+=("$p"); done

if [ "$dry_run" -eq 1 ]; then
  # Every package's candidate, so that this path runs on machines that have them all.
  # A package without one may only mean old package lists: refresh them once (the
  # real run does the same before installing), as root; nothing gets installed.
  for p in "${packages[@]}"; do
    if [ -z "$(candidate "$p")" ] && [ "$(id -u)" -eq 0 ]; then
      say "refreshing the package lists (no candidate for $p)"
      apt-get update -qq || say "apt-get update failed"
      break
    fi
  done
  no_candidate=()
  for p in "${packages[@]}"; do
    version=$(candidate "$p")
    if [ -z "$version" ]; then no_candidate+=("$p"); fi
    if installed "$p"; then state=installed; else state=missing; fi
    printf 'install-deps: %-24s %-9s candidate %s\n' "$p" "$state" "${version:-(none)}" >&2
  done
  if [ ${#missing[@]} -gt 0 ]; then say "would install: ${missing[*]}"; else say "would install nothing"; fi
  if [ ${#no_candidate[@]} -gt 0 ]; then
    say "no install candidate for: ${no_candidate[*]} (run 'apt-get update' first?)"
    # Only a missing package without a candidate is a failure; an installed one
    # without (a stale package list) is not.
    for p in "${no_candidate[@]}"; do
      if ! installed "$p"; then exit 1; fi
    done
  fi
  command -v cargo >/dev/null 2>&1 || [ -x "$HOME/.cargo/bin/cargo" ] || say "would stop: Rust is missing"
  say "dry run ok"
  exit 0
fi

if [ ${#missing[@]} -gt 0 ]; then
  say "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  no_candidate=()
  for p in "${missing[@]}"; do [ -n "$(candidate "$p")" ] || no_candidate+=("$p"); done
  if [ ${#no_candidate[@]} -gt 0 ]; then
    say "the package archive has no ${no_candidate[*]}; LLVM 22 is in Debian 12 (bookworm-security), Debian 13 and Ubuntu 25.10 or later"
    exit 1
  fi
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# ptxas for the GPU backend's tests (no GPU or CUDA install needed). Optional: the
# tests check the PTX text alone where it cannot be had.
nvcc_dir="$HOME/.cache/smelt/nvcc"
if [ ! -x "$nvcc_dir/nvidia/cuda_nvcc/bin/ptxas" ]; then
  say "fetching ptxas (nvidia-cuda-nvcc-cu12 wheel)"
  python3 -m pip install --quiet --no-deps --disable-pip-version-check --target "$nvcc_dir" \
    "nvidia-cuda-nvcc-cu12==12.9.86" ||
    say "could not fetch ptxas; the GPU tests will check PTX text only"
fi

if ! command -v cargo >/dev/null 2>&1 && [ ! -x "$HOME/.cargo/bin/cargo" ]; then
  say "Rust 1.95 or newer is needed and cargo was not found: install it with rustup"
  say "(https://rustup.rs: 'curl --proto =https --tlsv1.2 -sSf https://sh.rustup.rs | sh'), then rerun"
  exit 1
fi
say "ok"
