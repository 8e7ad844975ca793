#!/usr/bin/env bash
# Sets up, builds and runs the whole test suite (what CI runs). On a machine without a GPU the GPU
# tests report SKIPPED; scripts/gpu_run.sh runs them on the GPU machine.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bash "$root/scripts/build.sh"
ctest --test-dir "${LDCC_BUILD_DIR:-$root/build}" --output-on-failure -j "$(nproc)"
