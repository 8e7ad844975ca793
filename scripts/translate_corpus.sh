#!/usr/bin/env bash
# Translates the programs the GPU machine runs through ldcc (it has nvcc but no clang 22) with the
# built `ldcc --translate-only`: examples/corpus -> .gpu/corpus, examples/eval -> .gpu/eval,
# tests/e2e/inputs -> .gpu/e2e_inputs. scripts/gpu_run.sh builds them there.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${LDCC_BUILD_DIR:-$root/build}"
cmake --build "$build" --target ldcc > /dev/null
for pair in examples/corpus:corpus examples/eval:eval tests/e2e/inputs:e2e_inputs; do
  from="$root/${pair%%:*}" out="$root/.gpu/${pair##*:}"
  mkdir -p "$out"
  rm -f "$out"/*.ldcc.cu
  for source in "$from"/*.cu; do
    [ -e "$source" ] || continue
    name="$(basename "$source" .cu)"
    "$build/bin/ldcc" --translate-only -std=c++17 "$source" -o "$out/$name.ldcc.cu" || echo "not translated: $source" >&2
  done
  echo "translated $(ls "$out" | grep -c '\.ldcc\.cu$' || true) programs into $out"
done
