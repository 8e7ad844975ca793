#!/usr/bin/env bash
# Check-mode A/B (A = working tree, B = HEAD), then the eval verdict tests and every e2e input test on A.
progs="btree_clean btree_race bfs_clean bfs_race kmeans_clean kmeans_race scan_clean scan_race backprop_clean bisect_clean histogram64_clean cocluster_clean em_clean"
MODES=check PROFILE=0 bash bench/probes/eval_ab.sh $OUT/ab .gpu/ab/B.patch "$progs" 3 > $OUT/ab.log 2>&1
cat $OUT/ab/ab.md; cp $OUT/ab/summaries.txt $OUT/summaries.txt 2>/dev/null; rm -f $OUT/ab/profiles.tgz
b=/tmp/ldcc-gpu-build
ga=(); [ -f /usr/include/gtest/gtest.h ] || ga=(-DLDCC_GTEST_SOURCE=$PWD/.gpu/googletest)
cmake -S . -B $b -G Ninja -DLDCC_BUILD_TRANSLATOR=OFF "${ga[@]}" > $OUT/build.log 2>&1
cmake --build $b -j 16 --target eval_programs e2e_input_programs -- -k 0 >> $OUT/build.log 2>&1 || { grep -B2 -A8 error $OUT/build.log | head -40; }
ctest --test-dir $b -R '^e2e\.(eval\.[a-z0-9_]+|[a-z0-9_]+)$' -j 8 --output-on-failure > $OUT/ctest.log 2>&1
tail -15 $OUT/ctest.log
