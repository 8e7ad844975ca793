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
# deterministic_runs EXPECTED_PATHS: three deterministic runs, stdout into $work/det.1 .. det.3 and
# stderr into $work/det.<i>.err, each without a warning and with exactly EXPECTED_PATHS as its
# "on the program's memory" plan lines, and all three printing the same; sets fail=1 otherwise. The
# caller checks what each run printed.
deterministic_runs() {
  local expected="$1" i paths
  for i in 1 2 3; do
    LDCC_MODE=deterministic LDCC_VERBOSE=1 "$checked" > "$work/det.$i" 2> "$work/det.$i.err" || { echo "run $i failed"; fail=1; }
    grep -q "warning" "$work/det.$i.err" && { echo "run $i: ldcc warned"; cat "$work/det.$i.err"; fail=1; }
    paths="$(grep "on the program's memory" "$work/det.$i.err")"
    [ "$paths" = "$expected" ] || { echo "run $i took other paths:"; echo "$paths"; fail=1; }
  done
  cat "$work/det.1"
  [ "$(md5sum "$work"/det.[0-9] | cut -d" " -f1 | sort -u | wc -l)" -eq 1 ] || { echo "deterministic runs differ"; fail=1; }
}
# matches_native MODE [but_last_line]: runs the checked program in MODE (check: its report in
# $work/report.json), stdout into $work/MODE.out, stderr into $work/MODE.err; sets fail=1 when it
# fails, warns, or prints other than the native build (but in its last line, with but_last_line: a
# racy kernel's result there may differ).
matches_native() {
  local mode="$1" keep=cat rc
  [ "${2:-}" = but_last_line ] && keep="head -n -1"
  LDCC_MODE="$mode" LDCC_REPORT="$work/report.json" "$checked" > "$work/$mode.out" 2> "$work/$mode.err"
  rc=$?
  [ $rc -eq 0 ] || { echo "$mode: exit code $rc"; cat "$work/$mode.err"; fail=1; }
  grep -q "warning" "$work/$mode.err" && { echo "$mode: ldcc warned"; cat "$work/$mode.err"; fail=1; }
  cmp -s <($keep "$work/native.out") <($keep "$work/$mode.out") ||
    { echo "$mode: output differs from native"; diff "$work/native.out" "$work/$mode.out" | head -20; fail=1; }
}
