#!/usr/bin/env bash
# Sets up, builds, and runs the main job: the library-API example, which checks a race-free and a
# racy kernel and prints the race report. Without a GPU it builds and says how to run it.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${LDCC_BUILD_DIR:-$root/build}"
bash "$root/scripts/build.sh"
example="$build/examples/library_api/library_api_example"
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
  "$example"
else
  echo "Built. No GPU here: run $example on a machine with an NVIDIA GPU,"
  echo "or run the GPU suite and benchmarks on the GPU machine with scripts/gpu_run.sh (see README)."
fi
