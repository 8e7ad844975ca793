#!/usr/bin/env bash
# Invariant 3 (DESIGN.md section 9): with no memory for even two copies (LDCC_MEM_LIMIT=1K) a
# race-free program's global memory runs unchecked with a warning naming the kernel and the bytes it
# needed, and its output is still byte-identical to the native run. Exits 77 without a GPU.
set -u
# Its kernel would be proven race-free at launch (LDCC_PROOFS) and need no copies at all.
export LDCC_PROOFS=0
native="$1" checked="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$native" > "$work/native.out" 2> /dev/null
rc=$?
[ $rc -eq 77 ] && { echo "no CUDA device: skipped"; exit 77; }
LDCC_MEM_LIMIT=1K "$checked" > "$work/checked.out" 2> "$work/checked.err"
crc=$?
cat "$work/checked.err"
fail=0
[ $rc -eq 0 ] && [ $crc -eq 0 ] || { echo "exit codes $rc / $crc"; fail=1; }
cmp -s "$work/native.out" "$work/checked.out" || { echo "outputs differ"; fail=1; }
grep -q "warning: kernel '[^']*': global memory runs unchecked: .*needs at least [0-9]* bytes" "$work/checked.err" ||
  { echo "no warning naming the kernel and the bytes"; fail=1; }
[ $fail -eq 0 ] && echo "degraded to an unchecked launch with a warning; output identical"
exit $fail
