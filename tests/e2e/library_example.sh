#!/usr/bin/env bash
# End to end through the library API: the race-free kernel's checked output equals its native
# (LDCC_MODE=off) output byte for byte, the racy kernel's one bug is one text report naming the 14
# element ranges of `data` it reads while other blocks write them, LDCC_REPORT writes all 14 as JSON
# and LDCC_ERROR_EXITCODE turns them into an exit code.
# Exits 77 (skipped) without a GPU.
set -u
example="$1"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
LDCC_MODE=off "$example" > "$work/native.out" 2> "$work/native.err"
rc=$?
[ $rc -eq 77 ] && { echo "no CUDA device: skipped"; exit 77; }
[ $rc -eq 0 ] || { echo "native run failed ($rc)"; cat "$work/native.err"; exit 1; }
LDCC_REPORT="$work/report.json" "$example" > "$work/checked.out" 2> "$work/checked.err" || { echo "checked run failed"; exit 1; }
fail=0
grep blur_race_free "$work/native.out" > "$work/a"; grep blur_race_free "$work/checked.out" > "$work/b"
cmp -s "$work/a" "$work/b" || { echo "race-free output differs: $(cat "$work/a") vs $(cat "$work/b")"; fail=1; }
grep -q "^ldcc: 1 race (0 write-write, 1 read-write) in 2 checked launches$" "$work/checked.err" ||
  { echo "unexpected summary:"; tail -3 "$work/checked.err"; fail=1; }
[ "$(grep -c '^  kernel:   blur_in_place$' "$work/checked.err")" -eq 1 ] || { echo "not one report in blur_in_place"; fail=1; }
grep -q '^  variable: data\[255\] .. data\[1792\] (14 element ranges in bytes 1020..7170 of data; ' "$work/checked.err" ||
  { echo "the report does not give the 14 element ranges"; fail=1; }
grep -q "blur_race_free" "$work/checked.err" && { echo "race reported in the race-free kernel"; fail=1; }
[ "$(grep -o '"kind":"read-write"' "$work/report.json" | wc -l)" -eq 14 ] || { echo "JSON report lacks the 14 races"; fail=1; }
grep -q '"variable":"data"' "$work/report.json" || { echo "JSON report lacks the variable"; fail=1; }
LDCC_ERROR_EXITCODE=66 "$example" > /dev/null 2>&1
[ $? -eq 66 ] || { echo "LDCC_ERROR_EXITCODE not applied"; fail=1; }
grep -q "^ldcc: no races in 0 checked launches, 2 launches unchecked$" "$work/native.err" || { echo "off-mode summary wrong"; fail=1; }
[ $fail -eq 0 ] && echo "library example: outputs identical, 14 races reported"
exit $fail
