#!/usr/bin/env bash
# One corpus program, native and checked (examples/corpus/manifest.csv gives its verdict):
#   clean: stdout byte-identical to the native run, "ldcc: no races" and nothing else from ldcc;
#   race:  a race of the listed kind on the listed shared variable in the listed kernel, in the
#          JSON report, and never a race in another kernel.
# Exits 77 (skipped) without a GPU.
set -u
name="$1" native="$2" checked="$3" manifest="$4"
row="$(grep "^${name}.cu," "$manifest")" || { echo "$name is not in $manifest"; exit 1; }
IFS=, read -r _ verdict kind space variable kernel _ <<< "$row"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

"$native" > "$work/native.out" 2> "$work/native.err"
rc=$?
[ $rc -eq 77 ] && { echo "no CUDA device: skipped"; exit 77; }
LDCC_REPORT="$work/report.json" "$checked" > "$work/checked.out" 2> "$work/checked.err"
crc=$?
echo "--- checked stderr"; cat "$work/checked.err"
fail=0
if [ "$verdict" = clean ]; then
  [ $rc -eq 0 ] || { echo "native run failed ($rc)"; fail=1; }
  [ $crc -eq 0 ] || { echo "checked run failed ($crc)"; fail=1; }
  cmp -s "$work/native.out" "$work/checked.out" || { echo "outputs differ:"; diff "$work/native.out" "$work/checked.out" | head; fail=1; }
  grep -q "^ldcc: no races in [1-9][0-9]* checked launch" "$work/checked.err" || { echo "no clean summary"; fail=1; }
  grep -q "unchecked\|warning" "$work/checked.err" && { echo "a kernel ran unchecked"; fail=1; }
  [ $fail -eq 0 ] && echo "$name: race-free, outputs identical"
else
  long=$([ "$kind" = ww ] && echo write-write || echo read-write)
  grep -q "\"kind\":\"$long\",\"space\":\"$space\",\"kernel\":\"$kernel\",\"region\":\"[^\"]*\",\"variable\":\"$variable\"" \
    "$work/report.json" || { echo "no $long race on $variable in $kernel"; fail=1; }
  grep -o '"kernel":"[^"]*"' "$work/report.json" | grep -v "\"kernel\":\"$kernel\"" && { echo "race in another kernel"; fail=1; }
  grep -q "unchecked" "$work/checked.err" && { echo "a kernel ran unchecked"; fail=1; }
  [ $fail -eq 0 ] && echo "$name: $long race on $variable in $kernel reported"
fi
exit $fail
