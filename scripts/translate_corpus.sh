#!/usr/bin/env bash
# Translates examples/corpus/*.cu with the built `ldcc --translate-only` into .gpu/corpus/, which
# scripts/gpu_run.sh builds on the GPU machine (it has nvcc but no clang 22).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${LDCC_BUILD_DIR:-$root/build}"
out="$root/.gpu/corpus"
cmake --build "$build" --target ldcc > /dev/null
mkdir -p "$out"
rm -f "$out"/*.ldcc.cu
for source in "$root"/examples/corpus/*.cu; do
  name="$(basename "$source" .cu)"
  "$build/bin/ldcc" --translate-only -std=c++17 "$source" -o "$out/$name.ldcc.cu"
done
echo "translated $(ls "$out"/*.ldcc.cu | wc -l) programs into $out"
