# Sourced by the test of each e2e/inputs/<name>.cu (<name>.sh <native> <checked>): sets `native`,
# `checked` and `work` (a folder removed at exit), runs the native build into $work/native.out, and
# exits 77 (skipped) when there is no CUDA device.
set -u
native="$1" checked="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$native" > "$work/native.out" 2> /dev/null
[ $? -eq 77 ] && { echo "no CUDA device: skipped"; exit 77; }
