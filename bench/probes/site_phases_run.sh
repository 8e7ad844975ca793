#!/usr/bin/env bash
# Where level W's sites spend their cycles (GPU machine, repository root): applies site_phases.patch
# (thread 0 of block 0 counts clock64 cycles between the barriers of arrive_in_block and prints them
# when the block ends), builds the checked evaluation programs with -DLDCC_SITE_PHASES and prints,
# per program, the phases summed over its launches (block 0 only):
#   region: thread 0 from leaving a site to reaching the next; wait: thread 0 clearing the next tallies
#   (until 2026-11-29 the site's first barrier); enter: region key, publishing the written ranges, and
#   the barrier that waits for the slowest warp; ww / gww: pass 1's ww-check of the shared
#   layout / of the global footprints; rewind: undo and rewind; rw / grw: pass 2's rw-check and commit;
#   leave: the rest of the site. sites1 / sites2: sites at the end of pass 1 / pass 2.
# Usage: bench/probes/site_phases_run.sh [program ...]   (outputs under $OUT/site-phases.tgz)
set -u
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
grep -q LDCC_SITE_PHASES kernels/include/ldcc/kernels/region_check.cuh || git apply bench/probes/site_phases.patch || exit 1
b=/tmp/probe-build out="${OUT:-/tmp}/site-phases"
mkdir -p "$out"
cmake -S . -B $b -G Ninja -DLDCC_BUILD_TRANSLATOR=OFF -DCMAKE_CUDA_FLAGS=-DLDCC_SITE_PHASES > "$out/cfg.log" 2>&1 ||
  { tail -20 "$out/cfg.log"; exit 1; }
progs="${*:-btree_clean scan_clean bisect_clean backprop_clean histogram64_clean bfs_race kmeans_race em_clean cocluster_clean btree_race}"
t=""; for p in $progs; do t="$t eval_${p}_checked"; done
cmake --build $b -j 16 --target $t > "$out/build.log" 2>&1 || { grep -A5 error "$out/build.log" | head -30; exit 1; }
for p in $progs; do
  LDCC_MODE=check $b/examples/eval/eval_${p}_checked > "$out/$p.out" 2> "$out/$p.err"
  echo "== $p rc=$? $(grep gpu_ms "$out/$p.err")"
  grep site-phases "$out/$p.out" |
    awk '{for(i=3;i<=NF;i++){split($i,a,"=");s[a[1]]+=a[2]} n++} END{printf "launches=%d",n; for(k in s) printf " %s=%d",k,s[k]; print ""}'
done
tar czf "${OUT:-/tmp}/site-phases.tgz" -C "$(dirname "$out")" site-phases && rm -rf "$out"
