#!/usr/bin/env bash
# Sets up, builds and runs the whole test suite (what CI runs). On a machine without a GPU the GPU
# tests report SKIPPED; scripts/gpu_run.sh runs them on the GPU machine.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${LDCC_BUILD_DIR:-$root/build}"
bash "$root/scripts/setup.sh"
cmake -S "$root" -B "$build" -G Ninja ${LDCC_CMAKE_ARGS:-}
cmake --build "$build" -j "$(nproc)"
ctest --test-dir "$build" --output-on-failure -j "$(nproc)"
