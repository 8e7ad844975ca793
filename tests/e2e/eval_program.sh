#!/usr/bin/env bash
# One evaluation program (examples/eval/manifest.csv gives its verdict), native, checked and
# deterministic, as bench/eval.sh runs it but with the verdict asserted:
#   clean: check and deterministic stdout byte-identical to native, "ldcc: no races";
#   race:  bench/eval_report.py's verdict (verdict_of: every listed kind among the JSON report's
#          races, the listed space and variable among theirs), and a race in the listed space on the
#          listed variable in one of the listed kernels (k1+k2); two deterministic runs, one stdout.
# Exits 77 (skipped) without a GPU.
set -u
name="$1" native="$2" checked="$3" manifest="$4"
row="$(grep "^${name}," "$manifest")" || { echo "$name is not in $manifest"; exit 1; }
IFS=, read -r _ _ _ _ verdict kind space variable _ <<< "$row"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

"$native" > "$work/native.out" 2> "$work/native.err"
rc=$?
[ $rc -eq 77 ] && { echo "no CUDA device: skipped"; exit 77; }
LDCC_MODE=check LDCC_REPORT="$work/report.json" "$checked" > "$work/check.out" 2> "$work/check.err"
crc=$?
LDCC_MODE=deterministic "$checked" > "$work/det.out" 2> "$work/det.err"
drc=$?
echo "--- check stderr"; cat "$work/check.err"
fail=0
[ $crc -eq 0 ] || { echo "checked run failed ($crc)"; fail=1; }
[ $drc -eq 0 ] || { echo "deterministic run failed ($drc)"; cat "$work/det.err"; fail=1; }
grep -q "unchecked" "$work/check.err" && { echo "a kernel ran unchecked"; fail=1; }
if [ "$verdict" = clean ]; then
  [ $rc -eq 0 ] || { echo "native run failed ($rc)"; fail=1; }
  cmp -s "$work/native.out" "$work/check.out" || { echo "check output differs:"; diff "$work/native.out" "$work/check.out" | head; fail=1; }
  cmp -s "$work/native.out" "$work/det.out" || { echo "deterministic output differs:"; diff "$work/native.out" "$work/det.out" | head; fail=1; }
  grep -q "^ldcc: no races in [1-9][0-9]* checked launch" "$work/check.err" || { echo "no clean summary"; fail=1; }
  [ $fail -eq 0 ] && echo "$name: race-free, check and deterministic outputs identical to native"
else
  python3 - "$(dirname "$0")/../../bench" "$work/report.json" "$manifest" "$name" <<'PY' || fail=1
import json, sys
sys.path.insert(0, sys.argv[1])
from eval_report import analyse_report, load_manifest, verdict_of
report, manifest, name = sys.argv[2:]
expected = next(row for row in load_manifest(manifest) if row["program"] == name)
match, reasons = verdict_of({"expected": expected, "report": analyse_report(report)})
if not match:
    print("verdict wrong: " + (", ".join(reasons) or "no report"))
    sys.exit(1)
# The listed variable's race also in one of the listed kernels.
if not any(r["space"] == expected["space"] and r["variable"] == expected["variable"] and
           r["kernel"] in expected["kernel"].split("+") for r in json.load(open(report))["races"]):
    print(f"no race on {expected['space']} {expected['variable']} in {expected['kernel']}")
    sys.exit(1)
PY
  LDCC_MODE=deterministic "$checked" > "$work/det2.out" 2> /dev/null
  cmp -s "$work/det.out" "$work/det2.out" || { echo "two deterministic runs differ"; fail=1; }
  [ $fail -eq 0 ] && echo "$name: $kind race on $space $variable reported, deterministic output repeated"
fi
exit $fail
