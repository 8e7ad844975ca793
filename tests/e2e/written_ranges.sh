#!/usr/bin/env bash
# Level W's checks of global memory in regions that store to it, in either execution
# (inputs/written_ranges.cu): exactly the read-write races of warp 1 on out[100] (stored in pass 2
# only) and out[200] (pass 1 only), in block (0,0,0), and on out[150], stored in pass 2 of a region
# whose pass 1 stored nothing to global memory; out[0], out[63] (race-free) and out[64], out[255]
# (never stored) equal native.
# Usage: written_ranges.sh <native> <checked>. Exits 77 without a GPU.
source "$(dirname "$0")/input_test_start.sh"
LDCC_REPORT="$work/report.json" "$checked" > "$work/check.out" 2> "$work/check.err"
rc=$?
fail=0
[ $rc -eq 0 ] || { echo "exit code $rc"; cat "$work/check.err"; fail=1; }
cmp -s "$work/native.out" "$work/check.out" || { echo "output differs from native"; fail=1; }
races="$(python3 - "$work/report.json" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["races"]:
    print(r["kind"], r["space"], r["variable"], r["element"], r["units"])
PY
)"
echo "races:"; echo "$races"
expected="$(printf '%s\n' \
  "read-write global out out[100] warp 1 of block (0,0,0) read a value another warp wrote in the same region" \
  "read-write global out out[200] warp 1 of block (0,0,0) read a value another warp wrote in the same region" \
  "read-write global out out[150] warp 1 of block (0,0,0) read a value another warp wrote in the same region")"
[ "$(echo "$races" | sort)" = "$(echo "$expected" | sort)" ] || { echo "expected:"; echo "$expected"; fail=1; }
[ $fail -eq 0 ] && echo "written_ranges: both executions' stores checked, exactly the two races of warp 1"
exit $fail
