#!/usr/bin/env bash
# A/B probe on the GPU machine: evaluation programs built from two trees of the runtime headers (the
# working tree, and the same with a patch applied), each program's GPU time (its own gpu_ms) natively,
# in check mode and in deterministic mode, REPEAT runs each, plus one LDCC_PROFILE run per mode.
# Optionally also check mode under several LDCC_MEM_LIMIT values (level B in rounds).
# Usage (on the GPU machine, from the repository root):
#   bench/probes/eval_ab.sh OUT PATCH "prog1 prog2 ..." [REPEAT] ["limit1 limit2 ..." "progs for limits"]
# PATCH may be "-" (one tree only), or several patches separated by commas (variants B, C, ...). Writes OUT/ab.csv: variant,program,mode,limit,run,gpu_ms (its table, from ab_table.py, in OUT/ab.md) and
# OUT/profiles/<variant>.<program>.<mode>[.<limit>].csv, and each variant's first run's last stderr line
# per program and mode (ldcc's summary: the verdict) to OUT/summaries.txt.
# MODES: the checked modes (default "check deterministic"); PROFILE=0: no LDCC_PROFILE runs.
set -uo pipefail
out="$1" patch="$2" programs="$3" repeat="${4:-3}" limits="${5:-}" limit_programs="${6:-}"
root="$(cd "$(dirname "$0")/../.." && pwd)"
mkdir -p "$out/profiles"
modes="${MODES:-check deterministic}"
export CUDA_MODULE_LOADING=EAGER
targets() { for p in $1; do printf 'eval_%s_native eval_%s_checked ' "$p" "$p"; done; }
build() {  # build SRC_TREE BUILD_DIR
  cmake -S "$1" -B "$2" -G Ninja -DLDCC_BUILD_TRANSLATOR=OFF > "$out/build-$(basename "$2").log" 2>&1 &&
    cmake --build "$2" -j 16 --target $(targets "$programs $limit_programs") >> "$out/build-$(basename "$2").log" 2>&1
}
gpu_ms() { sed -n 's/^gpu_ms \([0-9.]*\).*/\1/p' "$1" | tail -1; }
echo "variant,program,mode,limit,run,gpu_ms" > "$out/ab.csv"
variants=(A)
build "$root" /tmp/ab-A || { tail -30 "$out/build-ab-A.log"; exit 1; }
names=(B C D E)
IFS=, read -ra patches <<< "$patch"
for i in "${!patches[@]}"; do
  [ "${patches[$i]}" = "-" ] && continue
  v=${names[$i]}
  rm -rf /tmp/ab-tree && mkdir -p /tmp/ab-tree && cp -r "$root"/. /tmp/ab-tree/ && rm -rf /tmp/ab-tree/build*
  (cd /tmp/ab-tree && patch -p1 < "$root/${patches[$i]}") > "$out/patch-$v.log" 2>&1 || { cat "$out/patch-$v.log"; exit 1; }
  build /tmp/ab-tree "/tmp/ab-$v" || { tail -30 "$out/build-ab-$v.log"; exit 1; }
  variants+=("$v")
done
for v in "${variants[@]}"; do
  bin="/tmp/ab-$v/examples/eval"
  for p in $programs; do
    for ((i = 1; i <= repeat; i++)); do
      [ "$v" = A ] && { "$bin/eval_${p}_native" > /dev/null 2> /tmp/err; echo "$v,$p,native,,$i,$(gpu_ms /tmp/err)" >> "$out/ab.csv"; }
      for m in $modes; do
        LDCC_MODE=$m "$bin/eval_${p}_checked" > /dev/null 2> /tmp/err
        echo "$v,$p,$m,,$i,$(gpu_ms /tmp/err)" >> "$out/ab.csv"
        [ "$i" = 1 ] && echo "$v $p $m: $(grep -v '^gpu_ms' /tmp/err | tail -1)" >> "$out/summaries.txt"
      done
    done
    [ "${PROFILE:-1}" = 0 ] && continue
    for m in $modes; do
      LDCC_MODE=$m LDCC_PROFILE="$out/profiles/$v.$p.$m.csv" "$bin/eval_${p}_checked" > /dev/null 2>&1
    done
  done
  for p in $limit_programs; do
    for l in $limits; do
      for ((i = 1; i <= repeat; i++)); do
        LDCC_MODE=check LDCC_MEM_LIMIT=$l LDCC_VERBOSE=1 "$bin/eval_${p}_checked" > /tmp/out 2> /tmp/err
        echo "$v,$p,check,$l,$i,$(gpu_ms /tmp/err)" >> "$out/ab.csv"
        [ "$i" = 1 ] && { grep -m4 'level B\|level W\|rounds' /tmp/err > "$out/profiles/$v.$p.plan.$l.txt"; tail -3 /tmp/out >> "$out/profiles/$v.$p.plan.$l.txt"; }
      done
      LDCC_MODE=check LDCC_MEM_LIMIT=$l LDCC_PROFILE="$out/profiles/$v.$p.check.$l.csv" "$bin/eval_${p}_checked" > /dev/null 2>&1
    done
  done
done
tar czf "$out/profiles.tgz" -C "$out" profiles && rm -rf "$out/profiles"
python3 "$root/bench/probes/ab_table.py" "$out/ab.csv" | tee "$out/ab.md"
