# Sourced by the test of each e2e/inputs/<name>.cu (<name>.sh <native> <checked>): sets `native`,
# `checked` and `work` (a folder removed at exit), runs the native build into $work/native.out, and
# exits 77 (skipped) when there is no CUDA device.
set -u
native="$1" checked="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$native" > "$work/native.out" 2> /dev/null
[ $? -eq 77 ] && { echo "no CUDA device: skipped"; exit 77; }
# expect_races REPORT LINE...: the races of the JSON report, one "kernel kind space variable element
# units" line each, must be exactly the LINEs, in any order; prints both and sets fail=1 otherwise.
expect_races() {
  local report="$1" races expected
  shift
  races="$(python3 - "$report" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["races"]:
    print(r["kernel"], r["kind"], r["space"], r["variable"], r["element"], r["units"])
PY
)"
  expected="$(printf '%s\n' "$@")"
  echo "races:"; echo "$races"
  [ "$(echo "$races" | sort)" = "$(echo "$expected" | sort)" ] || { echo "expected:"; echo "$expected"; fail=1; }
}
