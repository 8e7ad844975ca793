set -u
cmake -S . -B /tmp/b -G Ninja -DLDCC_BUILD_TRANSLATOR=OFF > /dev/null 2>&1
cmake --build /tmp/b -j 16 --target e2e_input_write_only_outputs_native e2e_input_write_only_outputs_checked > /tmp/bl.log 2>&1 || tail -20 /tmp/bl.log
b=/tmp/b/tests
bash tests/e2e/write_only_outputs.sh $b/e2e_input_write_only_outputs_native $b/e2e_input_write_only_outputs_checked > $OUT/with_fix.log 2>&1; echo "with fix rc=$?"; tail -1 $OUT/with_fix.log
# The same test against the previous global_ptr (a pointer just past a target not rebased).
rm -rf /tmp/old && mkdir /tmp/old && tar cf - --exclude=./.git . | tar xf - -C /tmp/old
python3 - <<'PY'
p='/tmp/old/kernels/include/ldcc/kernels/region_check.cuh'
s=open(p).read()
s=s.replace("for (int past_end = 0; past_end < 2; ++past_end)","for (int past_end = 0; past_end < 1; ++past_end)")
open(p,'w').write(s)
PY
cmake -S /tmp/old -B /tmp/bo -G Ninja -DLDCC_BUILD_TRANSLATOR=OFF > /dev/null 2>&1
cmake --build /tmp/bo -j 16 --target e2e_input_write_only_outputs_native e2e_input_write_only_outputs_checked > /tmp/blo.log 2>&1 || tail -20 /tmp/blo.log
bash tests/e2e/write_only_outputs.sh /tmp/bo/tests/e2e_input_write_only_outputs_native /tmp/bo/tests/e2e_input_write_only_outputs_checked > $OUT/without_fix.log 2>&1; echo "without fix rc=$?"
grep -E "differs|fill_range|exit code" $OUT/without_fix.log | head; grep -c "tail_reads read-write" $OUT/without_fix.log
