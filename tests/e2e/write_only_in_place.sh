#!/usr/bin/env bash
# Deterministic mode on the program's memory for write-only launches (inputs/write_only_in_place.cu):
# tile_scan runs in place (its warps' stores are disjoint); last_warp's warps store to one word and
# shared_cell's blocks overlap, and they run again on block copies. Three deterministic runs: tile_scan
# prints the native line, the highest warp's store wins (last_warp: 7), block 6 is the highest block that changed out[0]
# (shared_cell: out[0] 6, the start state restored before the block copies were made), and every run
# prints the same. LDCC_PROFILE splits its phases by kernel.
# Usage: write_only_in_place.sh <native> <checked>. Exits 77 without a GPU.
source "$(dirname "$0")/input_test_start.sh"
fail=0
grep -q "^tile_scan: PASS" "$work/native.out" || { echo "native run failed its self-check"; cat "$work/native.out"; fail=1; }
echo "native:"; cat "$work/native.out"
deterministic_runs "ldcc: tile_scan: deterministic on the program's memory (write-only targets): the blocks' footprints are disjoint
ldcc: last_warp: deterministic on the program's memory (write-only targets): two warps of a block stored to one word, again on block copies
ldcc: shared_cell: deterministic on the program's memory (write-only targets): two blocks' footprints overlap, again on block copies"
for i in 1 2 3; do
  grep -qx "ldcc: deterministic: 3 launches in unit order" "$work/det.$i.err" || { echo "run $i:"; cat "$work/det.$i.err"; fail=1; }
  [ "$(grep "^tile_scan:" "$work/det.$i")" = "$(grep "^tile_scan:" "$work/native.out")" ] || { echo "tile_scan differs from native"; fail=1; }
  grep -qx "last_warp: 7" "$work/det.$i" || { echo "run $i: the highest warp's store did not land last"; fail=1; }
  grep -q "^shared_cell: out\[0\] 6 " "$work/det.$i" || { echo "run $i: out[0] is not block 6's"; fail=1; }
done
# LDCC_PROFILE's split by kernel: the three kernels, each with its footprints, and only shared_cell
# with an ordered merge (it alone ran again on block copies).
LDCC_MODE=deterministic LDCC_PROFILE="$work/profile.csv" "$checked" > /dev/null 2>&1 || { echo "profiled run failed"; fail=1; }
python3 - "$work/profile.csv" <<'PY' || fail=1
import csv, sys
phases = {}
for r in csv.DictReader(open(sys.argv[1] + ".kernels")):
    phases.setdefault(r["kernel"], set()).add(r["phase"])
print("profile by kernel:", {k: sorted(v) for k, v in sorted(phases.items())})
ok = sorted(phases) == ["last_warp", "shared_cell", "tile_scan"]
ok = ok and "ordered merge" in phases["shared_cell"] and "ordered merge" not in phases["tile_scan"]
ok = ok and all("footprints of in-place targets" in phases[k] for k in phases)
sys.exit(0 if ok else 1)
PY
[ $fail -eq 0 ] && echo "write_only_in_place: tile_scan equals native, last_warp 7 and shared_cell 6 on every run, each on the expected path, profiled by kernel"
exit $fail
