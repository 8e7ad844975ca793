#!/usr/bin/env bash
# Level B in rounds chosen by cost (inputs/costed_rounds.cu): the first launch of add_segments checks
# with a copy per block, the next ones with fewer copies in two or more rounds; the race-free launches
# give native's output; level W still checks global memory between warps (footprints from the store
# hooks) and reports exactly the race between warps 0 and 1 of block 7 on data[14336]; the race
# between blocks 9 and 10 on data[20485], found in rounds, is reported with those two blocks (level
# B checked again with a copy per block). Nothing else is reported.
# Usage: costed_rounds.sh <native> <checked>. Exits 77 without a GPU.
source "$(dirname "$0")/input_test_start.sh"
LDCC_VERBOSE=1 LDCC_REPORT="$work/report.json" "$checked" > "$work/check.out" 2> "$work/check.err"
rc=$?
fail=0
[ $rc -eq 0 ] || { echo "exit code $rc"; cat "$work/check.err"; fail=1; }
cmp -s <(grep '^clean:' "$work/native.out") <(grep '^clean:' "$work/check.out") ||
  { echo "clean launches differ from native:"; grep '^clean:' "$work/native.out" "$work/check.out"; fail=1; }
plans="$(grep -o 'add_segments: level B over 1 global targets ([0-9]* bytes per copy): 512 blocks, [0-9]* copies, [0-9]* rounds' "$work/check.err" | sed 's/.*blocks, //')"
echo "level B plans:"; echo "$plans"
[ "$(echo "$plans" | head -1)" = "512 copies, 1 rounds" ] || { echo "first launch: not a copy per block"; fail=1; }
echo "$plans" | sed -n 2,7p | grep -qv -E '^[0-9]+ copies, [2-9] rounds$' && { echo "launches 2-7: not in rounds"; fail=1; }
[ "$(echo "$plans" | sed -n 2,7p | wc -l)" -eq 6 ] || { echo "launches 2-7: no plan line each"; fail=1; }
# Only launch 8, where level B found a race, leaves global memory out of level W.
[ "$(grep -c "global memory is not checked between warps" "$work/check.err")" -eq 1 ] &&
  grep -q "add_segments: global memory is not checked between warps: level B found races" "$work/check.err" ||
  { echo "level W left global memory out where level B found no race"; fail=1; }
grep -q 'add_segments: level B found races with [0-9]* copies; again with 512' "$work/check.err" ||
  { echo "the race between blocks was not checked again with a copy per block"; fail=1; }
races="$(python3 - "$work/report.json" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["races"]:
    print(r["kind"], r["space"], r["variable"], r["element"], r["units"])
PY
)"
echo "races:"; echo "$races"
expected="$(printf '%s\n' \
  "write-write global data data[14336] warp 0 and warp 1 of block (7,0,0) both wrote it" \
  "write-write global data data[20485] block (9,0,0) and block (10,0,0) both wrote it")"
[ "$(echo "$races" | sort)" = "$(echo "$expected" | sort)" ] || { echo "expected:"; echo "$expected"; fail=1; }
[ $fail -eq 0 ] && echo "costed_rounds: rounds after the first launch, native output, both races exact"
exit $fail
