#!/usr/bin/env bash
# Deterministic-mode A/B plus output identity of native vs deterministic (race-free programs).
progs="btree_clean btree_race bfs_clean kmeans_clean cocluster_clean nbody_clean backprop_race scan_clean"
MODES="deterministic" PROFILE=0 bash bench/probes/eval_ab.sh $OUT/ab .gpu/ab/B.patch "$progs" 3 > $OUT/ab.log 2>&1
for p in $progs; do
  b=/tmp/ab-A/examples/eval
  $b/eval_${p}_native > /tmp/n.txt 2>/dev/null
  LDCC_MODE=deterministic $b/eval_${p}_checked > /tmp/d1.txt 2>/dev/null
  LDCC_MODE=deterministic $b/eval_${p}_checked > /tmp/d2.txt 2>/dev/null
  echo "$p native-vs-det: $(cmp -s /tmp/n.txt /tmp/d1.txt && echo same || echo DIFF) det-repeat: $(cmp -s /tmp/d1.txt /tmp/d2.txt && echo same || echo DIFF)"
done > $OUT/identity.txt
cat $OUT/ab/ab.md $OUT/identity.txt
