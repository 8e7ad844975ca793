#!/usr/bin/env bash
# A racy corpus program checked under a memory budget (DESIGN.md section 5): with
# LDCC_MEM_LIMIT=<limit> level B must run with exactly <copies> private copies in <rounds> rounds
# (fewer copies than blocks), finish, and report the same races as with the default budget.
# Exits 77 (skipped) without a GPU or when the program skips (device too small).
set -u
checked="$1" limit="$2" copies="$3" rounds="$4"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
LDCC_REPORT="$work/default.json" "$checked" > "$work/default.out" 2> "$work/default.err"
rc=$?
[ $rc -eq 77 ] && { cat "$work/default.err"; echo "skipped"; exit 77; }
LDCC_MEM_LIMIT="$limit" LDCC_VERBOSE=1 LDCC_REPORT="$work/limited.json" "$checked" > "$work/limited.out" 2> "$work/limited.err"
lrc=$?
echo "--- limited stderr"; cat "$work/limited.err"
fail=0
[ $rc -eq 0 ] && [ $lrc -eq 0 ] || { echo "exit codes $rc / $lrc"; fail=1; }
grep -q "level B .* blocks, $copies copies, $rounds rounds" "$work/limited.err" || { echo "not $copies copies in $rounds rounds"; fail=1; }
grep -q '"races":\[{' "$work/limited.json" || { echo "no race under the budget"; fail=1; }
cmp -s "$work/default.json" "$work/limited.json" || { echo "reports differ:"; diff "$work/default.json" "$work/limited.json"; fail=1; }
[ $fail -eq 0 ] && echo "same report with $copies copies in $rounds rounds under LDCC_MEM_LIMIT=$limit"
exit $fail
