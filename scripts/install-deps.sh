#!/usr/bin/env bash
# Installs what building and testing smelt needs on Debian/Ubuntu: a C toolchain,
# LLVM 22 (for the LLVM backends, linked dynamically), the AArch64 cross toolchain
# and user-mode emulator the AOT tests build and run AArch64 objects with, NVIDIA's
# PTX assembler (ptxas, from the nvidia-cuda-nvcc-cu12 wheel on PyPI, into
# ~/.cache/smelt/nvcc; the GPU tests assemble their PTX with it and say so when it
# is missing), and Rust if it is missing.
# Idempotent: when everything is present it only checks, in about a second.
set -euo pipefail

packages=(
  build-essential pkg-config llvm-22-dev libpolly-22-dev libzstd-dev zlib1g-dev
  # `smelt aot --target aarch64-unknown-linux-gnu` tests (tests/it/aot.rs): cross
  # C compiler and libc to link the driver, qemu-aarch64 to run it.
  gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user
  # pip, to fetch ptxas below.
  python3-pip
)

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then sudo_cmd=(sudo); else
    echo "install-deps: not root and no sudo; install these yourself: ${packages[*]}" >&2
    exit 1
  fi
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  if ! apt-cache policy llvm-22-dev 2>/dev/null | grep -q 'Candidate: [0-9]'; then
    # Not in the distribution's archive: use LLVM's own apt repository.
    codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
    "${sudo_cmd[@]}" apt-get install -y -qq curl gnupg ca-certificates >/dev/null
    curl -fsSL https://apt.llvm.org/llvm-snapshot.gpg.key | "${sudo_cmd[@]}" gpg --dearmor --yes -o /usr/share/keyrings/llvm.gpg
    echo "deb [signed-by=/usr/share/keyrings/llvm.gpg] http://apt.llvm.org/$codename/ llvm-toolchain-$codename-22 main" |
      "${sudo_cmd[@]}" tee /etc/apt/sources.list.d/llvm-22.list >/dev/null
    "${sudo_cmd[@]}" apt-get update -qq
  fi
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# ptxas for the GPU backend's tests (no GPU or CUDA install needed). Optional: the
# tests check the PTX text alone where it cannot be had.
nvcc_dir="$HOME/.cache/smelt/nvcc"
if [ ! -x "$nvcc_dir/nvidia/cuda_nvcc/bin/ptxas" ]; then
  echo "install-deps: fetching ptxas (nvidia-cuda-nvcc-cu12 wheel)" >&2
  python3 -m pip install --quiet --no-deps --disable-pip-version-check --target "$nvcc_dir" \
    "nvidia-cuda-nvcc-cu12==12.9.86" ||
    echo "install-deps: could not fetch ptxas; the GPU tests will check PTX text only" >&2
fi

if ! command -v cargo >/dev/null 2>&1 && [ ! -x "$HOME/.cargo/bin/cargo" ]; then
  echo "install-deps: installing Rust with rustup" >&2
  curl -fsSL https://sh.rustup.rs | sh -s -- -y --profile minimal
fi
echo "install-deps: ok" >&2
