#!/usr/bin/env bash
# Level W over interleaved block footprints (inputs/interleaved_footprints.cu): exactly the four
# racy kernels' races between the warps of a block, found through the owner maps and the per-block
# lists of chunks and of words (the warp whose store was overwritten also reads the other's value in
# the re-execution); per_query_bytes, and no other kernel, named as partly checked in the summary and
# the JSON report; the race-free kernels' output equal to native.
# Usage: interleaved_footprints.sh <native> <checked>. Exits 77 without a GPU.
source "$(dirname "$0")/input_test_start.sh"
# These kernels would be proven race-free at launch (LDCC_PROOFS): the test is of the checker itself.
export LDCC_PROOFS=0
fail=0
LDCC_REPORT="$work/report.json" "$checked" > "$work/check.out" 2> "$work/check.err" || { echo "checked run failed"; fail=1; }
cat "$work/check.err"
grep -q "warning" "$work/check.err" && { echo "ldcc warned"; fail=1; }
cmp -s "$work/native.out" "$work/check.out" || { echo "output differs from native"; fail=1; }
expect_races "$work/report.json" \
  "strided_race write-write global out out[0] warp 0 and warp 1 of block (0,0,0) both wrote it" \
  "strided_race write-write global out out[128] warp 0 and warp 1 of block (0,0,0) both wrote it" \
  "strided_race write-write global out out[64] warp 0 and warp 1 of block (1,0,0) both wrote it" \
  "strided_race write-write global out out[192] warp 0 and warp 1 of block (1,0,0) both wrote it" \
  "strided_race read-write global out out[0] warp 0 of block (0,0,0) read a value another warp wrote in the same region" \
  "strided_race read-write global out out[128] warp 0 of block (0,0,0) read a value another warp wrote in the same region" \
  "strided_race read-write global out out[64] warp 0 of block (1,0,0) read a value another warp wrote in the same region" \
  "strided_race read-write global out out[192] warp 0 of block (1,0,0) read a value another warp wrote in the same region" \
  "strided_race_once write-write global out out[12800] warp 0 and warp 1 of block (0,0,0) both wrote it" \
  "strided_race_once read-write global out out[12800] warp 0 of block (0,0,0) read a value another warp wrote in the same region" \
  "per_query_race write-write global res res[5] warp 0 and warp 1 of block (1,0,0) both wrote it" \
  "per_query_race read-write global res res[5] warp 0 of block (1,0,0) read a value another warp wrote in the same region" \
  "per_query_race48 write-write global res res[6] warp 0 and warp 1 of block (2,0,0) both wrote it" \
  "per_query_race48 read-write global res res[6] warp 0 of block (2,0,0) read a value another warp wrote in the same region"
gap="ldcc: kernel 'per_query_bytes': not checked: global memory between the warps of a block (two blocks write into one 4-byte word of flags)"
gaps="$(grep ": not checked: " "$work/check.err")"
[ "$gaps" = "$gap" ] || { echo "not exactly per_query_bytes's gap: $gaps"; fail=1; }
python3 - "$work/report.json" <<'PY' || fail=1
import json, sys
gaps = json.load(open(sys.argv[1]))["partly_checked"]
want = [{"kernel": "per_query_bytes", "not_checked": "global memory between the warps of a block (two blocks write into one 4-byte word of flags)"}]
if gaps != want:
    print("partly_checked:", gaps)
    sys.exit(1)
PY
[ $fail -eq 0 ] && echo "interleaved_footprints: exactly the fourteen races, per_query_bytes's gap said, native's output"
exit $fail
