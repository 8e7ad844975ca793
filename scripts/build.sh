#!/usr/bin/env bash
# Sets up (scripts/setup.sh), configures and builds ldcc into $LDCC_BUILD_DIR (default build/).
# Extra CMake arguments: LDCC_CMAKE_ARGS.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${LDCC_BUILD_DIR:-$root/build}"
bash "$root/scripts/setup.sh"
cmake -S "$root" -B "$build" -G Ninja ${LDCC_CMAKE_ARGS:-}
cmake --build "$build" -j "$(nproc)"
