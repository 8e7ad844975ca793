#!/usr/bin/env bash
# Level W on global memory whose last footprint ends inside a 16-byte chunk
# (inputs/global_byte_segments.cu): the race-free kernel's results equal native in check and
# deterministic mode and it has no race; the racy kernel's races are exactly write-write races on
# elements 112 b, 112 b + 40 and 112 b + 111 of buf for blocks 0..10 and 1232, 1272, 1335 for block 11
# (that one byte at the buffer's end), each one element.
# Usage: global_byte_segments.sh <native> <checked>. Exits 77 without a GPU.
source "$(dirname "$0")/input_test_start.sh"
LDCC_REPORT="$work/report.json" "$checked" > "$work/check.out" 2> "$work/check.err"
LDCC_MODE=deterministic "$checked" > "$work/det.out" 2> "$work/det.err"
cat "$work/check.err"
fail=0
cmp -s "$work/native.out" "$work/check.out" || { echo "check output differs from native"; fail=1; }
cmp -s "$work/native.out" "$work/det.out" || { echo "deterministic output differs from native"; fail=1; }
grep -q "unchecked\|warning" "$work/check.err" && { echo "a kernel ran unchecked"; fail=1; }
grep -q '"kernel":"clean_segments"' "$work/report.json" && { echo "a race in the race-free kernel"; fail=1; }
# "kind":...,"variable":"buf","element_size":1,"first_element":F,"last_element":L per race, one per line.
races() {
  grep -o "\"kind\":\"$1\",\"space\":\"global\",\"kernel\":\"racy_segments\",\"region\":\"[^\"]*\",\"variable\":\"buf\",\"element_size\":1,\"first_element\":[0-9]*,\"last_element\":[0-9]*" \
    "$work/report.json" | sed 's/.*"first_element":\([0-9]*\),"last_element":\([0-9]*\)/\1 \2/' | sort -n -u
}
expected="$(for b in $(seq 0 11); do
  last=$((b == 11 ? 103 : 111))
  for e in $((112 * b)) $((112 * b + 40)) $((112 * b + last)); do echo "$e $e"; done
done | sort -n)"
ww="$(races write-write)"
[ "$ww" = "$expected" ] || { echo "write-write races: got"; echo "$ww"; echo "expected"; echo "$expected"; fail=1; }
# The racing threads store the values the owners store, so pass 2 recomputes what U holds: no
# read-write race follows from the write-write ones.
rw="$(races read-write)"
[ -z "$rw" ] || { echo "read-write races:"; echo "$rw"; fail=1; }
others="$(grep -o '"variable":"[^"]*"' "$work/report.json" | sort -u | grep -v '"variable":"buf"')"
[ -z "$others" ] || { echo "races on other variables: $others"; fail=1; }
[ $fail -eq 0 ] && echo "global_byte_segments: 36 write-write races at the expected elements, race-free kernel equal to native"
exit $fail
