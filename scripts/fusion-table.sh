#!/usr/bin/env bash
# Prints the markdown table of docs/passes.md: per corpus case, instructions before
# and after smelt's default pipeline, kernels launched by smelt and by XLA CPU (from
# XLA's own module.opt.hlo, counted the same way), and smelt's peak temporary bytes.
# Usage: scripts/fusion-table.sh [path/to/smelt] [corpus dir]
set -euo pipefail
smelt=${1:-target/release/smelt}
corpus=${2:-tests/corpus}
stat() { grep "^$1: " | awk '{print $2}'; }
echo "| case | instructions before | instructions after | kernels (smelt) | kernels (XLA) | peak temp bytes |"
echo "|---|---:|---:|---:|---:|---:|"
worse=0; total=0
for dir in "$corpus"/*/; do
  name=$(basename "$dir")
  s=$("$smelt" opt "$dir/module.hlo" --stats)
  x=$("$smelt" opt "$dir/module.opt.hlo" --pipeline none --stats)
  ks=$(echo "$s" | stat kernels); kx=$(echo "$x" | stat kernels)
  mark=""; if [ "$ks" -gt "$kx" ]; then mark=" (more)"; worse=$((worse + 1)); fi
  total=$((total + 1))
  echo "| $name | $(echo "$s" | stat instructions_before) | $(echo "$s" | stat instructions_after) | $ks$mark | $kx | $(echo "$s" | stat peak_temp_bytes) |"
done
echo
echo "smelt launches no more kernels than XLA on $((total - worse)) of $total cases."
