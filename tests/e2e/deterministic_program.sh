#!/usr/bin/env bash
# One corpus program in deterministic mode (LDCC_MODE=deterministic on its checked build):
#   clean: stdout byte-identical to the native run, every launch in unit order or proven race-free at
#          launch (the original kernel ran, deterministic as it is), no warning;
#   race:  RUNS deterministic runs (default 20) give one single stdout; RUNS native runs are counted
#          too and the number of distinct native outputs is printed (it is what the mode removes).
# Exits 77 (skipped) without a GPU.
set -u
name="$1" native="$2" checked="$3" manifest="$4" runs="${5:-20}"
row="$(grep "^${name}.cu," "$manifest")" || { echo "$name is not in $manifest"; exit 1; }
IFS=, read -r _ verdict _ <<< "$row"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

"$native" > "$work/native.0" 2> /dev/null
rc=$?
[ $rc -eq 77 ] && { echo "no CUDA device: skipped"; exit 77; }
LDCC_MODE=deterministic "$checked" > "$work/det.0" 2> "$work/stderr.det"
crc=$?
echo "--- deterministic stderr"; cat "$work/stderr.det"
fail=0
[ $crc -eq $rc ] || { echo "exit codes differ: native $rc, deterministic $crc"; fail=1; }
grep -Eq "^ldcc: deterministic: [0-9]+ launch(es)? in unit order(, [1-9][0-9]* launch(es)? proven race-free \(the original kernel ran\))?$" \
  "$work/stderr.det" && ! grep -q "^ldcc: deterministic: 0 launches in unit order$" "$work/stderr.det" \
  || { echo "not every launch ran in unit order or proven"; fail=1; }
grep -q "warning" "$work/stderr.det" && { echo "ldcc warned"; fail=1; }
if [ "$verdict" = clean ]; then
  cmp -s "$work/native.0" "$work/det.0" || { echo "outputs differ:"; diff "$work/native.0" "$work/det.0" | head; fail=1; }
  [ $fail -eq 0 ] && echo "$name: deterministic output identical to native"
  exit $fail
fi
for i in $(seq 1 $((runs - 1))); do
  "$native" > "$work/native.$i" 2> /dev/null
  LDCC_MODE=deterministic "$checked" > "$work/det.$i" 2> /dev/null
done
native_distinct=$(md5sum "$work"/native.* | cut -d" " -f1 | sort -u | wc -l)
det_distinct=$(md5sum "$work"/det.* | cut -d' ' -f1 | sort -u | wc -l)
echo "$name: $native_distinct distinct outputs in $runs native runs, $det_distinct in $runs deterministic runs"
[ "$det_distinct" -eq 1 ] || { echo "deterministic runs differ"; fail=1; }
exit $fail
