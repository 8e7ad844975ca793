#!/usr/bin/env bash
# Deterministic mode under a memory limit that forces batches of blocks: the same stdout as with one
# copy per block (the batch size is not part of the result), and, for a race-free program, as native.
# Usage: deterministic_batches.sh <checked> <LDCC_MEM_LIMIT> [<native>]. Exits 77 without a GPU.
set -u
checked="$1" limit="$2" native="${3:-}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
LDCC_MODE=deterministic LDCC_VERBOSE=1 "$checked" > "$work/whole.out" 2> "$work/whole.err"
rc=$?
[ $rc -eq 77 ] && { echo "no CUDA device: skipped"; exit 77; }
LDCC_MODE=deterministic LDCC_VERBOSE=1 LDCC_MEM_LIMIT="$limit" "$checked" > "$work/batched.out" 2> "$work/batched.err"
echo "--- one copy per block"; grep "deterministic" "$work/whole.err"
echo "--- LDCC_MEM_LIMIT=$limit"; grep "deterministic" "$work/batched.err"
fail=0
grep -q "blocks in 1 batches" "$work/whole.err" || { echo "the unlimited run used batches"; fail=1; }
grep -q "blocks in \([2-9]\|[1-9][0-9]\+\) batches" "$work/batched.err" || { echo "the limited run used no batches"; fail=1; }
grep -q "warning" "$work/batched.err" && { echo "ldcc warned"; fail=1; }
cmp -s "$work/whole.out" "$work/batched.out" || { echo "outputs differ:"; diff "$work/whole.out" "$work/batched.out"; fail=1; }
if [ -n "$native" ]; then
  "$native" > "$work/native.out" 2> /dev/null
  cmp -s "$work/native.out" "$work/batched.out" || { echo "differs from native"; fail=1; }
fi
[ $fail -eq 0 ] && echo "batched output identical"
exit $fail
