#!/usr/bin/env bash
# A launch checked but for global memory between the warps of a block (inputs/interleaved_footprints.cu):
# the summary names the kernel and why in a line of its own, the JSON report lists it under
# "partly_checked", and the kernel whose blocks write contiguous tiles is not named; outputs equal native.
# Usage: interleaved_footprints.sh <native> <checked>. Exits 77 without a GPU.
source "$(dirname "$0")/input_test_start.sh"
fail=0
LDCC_REPORT="$work/report.json" "$checked" > "$work/check.out" 2> "$work/check.err" || { echo "checked run failed"; fail=1; }
cat "$work/check.err"
cmp -s "$work/native.out" "$work/check.out" || { echo "output differs from native"; fail=1; }
grep -q "^ldcc: no races in 2 checked launches$" "$work/check.err" || { echo "no clean summary"; fail=1; }
gaps="$(grep ": not checked: " "$work/check.err")"
[ "$gaps" = "ldcc: kernel 'strided': not checked: global memory between the warps of a block (the blocks' write footprints in out interleave)" ] ||
  { echo "not exactly strided's gap: $gaps"; fail=1; }
python3 - "$work/report.json" <<'PY' || fail=1
import json, sys
gaps = json.load(open(sys.argv[1]))["partly_checked"]
want = [{"kernel": "strided", "not_checked": "global memory between the warps of a block (the blocks' write footprints in out interleave)"}]
if gaps != want:
    print("partly_checked:", gaps)
    sys.exit(1)
PY
[ $fail -eq 0 ] && echo "interleaved_footprints: strided's gap said in the summary and the JSON report, tiled's none"
exit $fail
