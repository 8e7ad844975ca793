#!/usr/bin/env bash
# Installs every build, test and benchmark dependency of ldcc from Debian packages
# (idempotent: packages already present are skipped) and checks for the CUDA 13 toolkit.
set -euo pipefail

PACKAGES=(
  cmake ninja-build g++ make git python3
  clang-22 libclang-22-dev llvm-22-dev llvm-22-tools   # LibTooling for the translator, FileCheck for golden tests
  libcli11-dev                                        # the ldcc driver's option parsing
  googletest libgtest-dev                             # unit tests; the source is also carried to the GPU machine
  gnuplot-nox                                         # bench plots
)

missing=()
for pkg in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if ((${#missing[@]})); then
  echo "ldcc setup: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

CUDA_HOME="${CUDA_HOME:-/usr/local/cuda}"
if [ ! -x "$CUDA_HOME/bin/nvcc" ]; then
  echo "ldcc setup: no CUDA toolkit at $CUDA_HOME (set CUDA_HOME to a CUDA 13 install)" >&2
  exit 1
fi
version=$("$CUDA_HOME/bin/nvcc" --version | sed -n 's/.*release \([0-9]*\)\..*/\1/p')
if [ "${version:-0}" -lt 13 ]; then
  echo "ldcc setup: $CUDA_HOME has CUDA $version; ldcc needs CUDA 13" >&2
  exit 1
fi
echo "ldcc setup: dependencies present; CUDA $version at $CUDA_HOME"
