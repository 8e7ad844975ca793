#!/usr/bin/env bash
# bench/determinism_compare.sh on hand-written bench CSVs: rows matched by program (in any order),
# the verdict kept, the count of equal outputs, and exit 1 when one program's output differs.
set -u
here="$(cd "$(dirname "$0")" && pwd)" fixture="$(cd "$(dirname "$0")" && pwd)/determinism_fixture"
compare="$here/../../bench/determinism_compare.sh"
fail=0
out="$(bash "$compare" "$fixture/h100.csv" H100 "$fixture/h200.csv" H200)" || { echo "equal outputs: exit $?"; fail=1; }
for line in "| 28_row_argmax_race | race | cccccccccccc | cccccccccccc | yes |" \
            "Same deterministic output on H100 and H200: 3 of 3 programs"; do
  grep -qxF "$line" <<< "$out" || { echo "missing: $line"; fail=1; }
done
out="$(bash "$compare" "$fixture/h100.csv" H100 "$fixture/h200_differs.csv" H200)" && { echo "a differing output: exit 0"; fail=1; }
for line in "| 28_row_argmax_race | race | cccccccccccc | dddddddddddd | NO |" \
            "Same deterministic output on H100 and H200: 2 of 3 programs"; do
  grep -qxF "$line" <<< "$out" || { echo "missing: $line"; fail=1; }
done
[ $fail -eq 0 ] && echo "determinism_compare: ok"
exit $fail
