#!/usr/bin/env bash
# Level B's read-write races (inputs/block_reads.cu): none for blocks that race within themselves
# (counted_in_shared: the shared race is reported, and the blocks' counts are not a read of another
# block's write: it only stores there, so level B does not re-execute it); exactly seen[0] .. seen[14]
# for the real read of the next block's flag (reads_neighbour); in a kernel where only the even
# blocks race within themselves, the odd blocks' reads (reads[1], [3], .. [13]) and the write-write
# race between blocks 2 and 3 on cell[0] (mixed_blocks).
# Usage: block_reads.sh <native> <checked>. Exits 77 without a GPU.
source "$(dirname "$0")/input_test_start.sh"
LDCC_REPORT="$work/report.json" "$checked" > "$work/check.out" 2> "$work/check.err"
cat "$work/check.err"
fail=0
# counted_in_shared only stores into counts, each block its own element: level B runs it once
# (GlobalDesc::write_only), so it has no read-write records to leave out and no warning. mixed_blocks
# reads what it writes: its racing blocks' records are left out, with the warning.
grep -q "warning: kernel 'counted_in_shared'" "$work/check.err" && { echo "a warning for counted_in_shared"; fail=1; }
grep -q "warning: kernel 'mixed_blocks': blocks that race within themselves are not checked for reading other blocks' writes" \
  "$work/check.err" || { echo "no warning for mixed_blocks' blocks"; fail=1; }
grep -q '"space":"shared","kernel":"counted_in_shared","region":"[^"]*","variable":"tally"' "$work/report.json" ||
  { echo "the shared race on tally is not reported"; fail=1; }
grep -q '"space":"global","kernel":"counted_in_shared"' "$work/report.json" &&
  { echo "a global race in counted_in_shared"; fail=1; }
# One line per element of every global race of a kernel: "kind variable element".
global_races() {
  grep -o "\"kind\":\"[a-z-]*\",\"space\":\"global\",\"kernel\":\"$1\",\"region\":\"[^\"]*\",\"variable\":\"[a-z]*\",\"element_size\":4,\"first_element\":[0-9]*,\"last_element\":[0-9]*" \
    "$work/report.json" | sed 's/"kind":"\([a-z-]*\)".*"variable":"\([a-z]*\)".*"first_element":\([0-9]*\),"last_element":\([0-9]*\)/\1 \2 \3 \4/' |
    while read -r kind var first last; do for e in $(seq "$first" "$last"); do echo "$kind $var $e"; done; done | sort -u
}
got="$(global_races reads_neighbour)"
expected="$(for e in $(seq 0 14); do echo "read-write seen $e"; done | sort -u)"
[ "$got" = "$expected" ] || { echo "reads_neighbour races: got"; echo "$got"; echo "expected read-write races on seen[0] .. seen[14]"; fail=1; }
got="$(global_races mixed_blocks)"
expected="$({ for e in 1 3 5 7 9 11 13; do echo "read-write reads $e"; done; echo "write-write cell 0"; } | sort -u)"
[ "$got" = "$expected" ] || { echo "mixed_blocks races: got"; echo "$got"; echo "expected"; echo "$expected"; fail=1; }
grep -q '"space":"shared","kernel":"mixed_blocks","region":"[^"]*","variable":"tally"' "$work/report.json" ||
  { echo "the shared race on tally in mixed_blocks is not reported"; fail=1; }
[ $fail -eq 0 ] && echo "block_reads: no global race for blocks racing within themselves; seen[0..14], the odd blocks' reads and cell[0] reported; the warning for mixed_blocks only"
exit $fail
