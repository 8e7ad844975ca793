#!/usr/bin/env bash
# Packs what the GPU machine needs beyond the tracked sources into .gpu/ (git-ignored, carried to the
# device): today only what the runtime-only build cannot make there itself. Prints its size.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
pack="$root/.gpu"
rm -rf "$pack"
mkdir -p "$pack"
# GoogleTest's source, for a GPU machine whose image has no GoogleTest package.
cp -r /usr/src/googletest "$pack/googletest"
du -sh "$pack"
