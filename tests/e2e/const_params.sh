#!/usr/bin/env bash
# Parameters the translator once got wrong (inputs/const_params.cu): exactly the race of blocks 0 and 1
# on out[0] through a const pointer parameter (block 0's store of the 0 already there shows as a read),
# and a helper's reference parameter read after a barrier giving native's output.
# Usage: const_params.sh <native> <checked>. Exits 77 without a GPU.
source "$(dirname "$0")/input_test_start.sh"
fail=0
matches_native check
expect_races "$work/report.json" \
  "overlap read-write global out out[0] block (0,0,0) read a value another block wrote (blocks do not synchronize within a launch)"
[ $fail -eq 0 ] && echo "const_params: the race through the const pointer, and native's output"
exit $fail
