#!/usr/bin/env bash
# Quick A/B: variants A (tree), B, C (patches) for a few programs' checked builds; check mode timings.
set -uo pipefail
out="$1"; progs="$2"; reps="${3:-2}"; shift 3
mkdir -p "$out"; export CUDA_MODULE_LOADING=EAGER
root=$PWD
tg=""; for p in $progs; do tg+=" eval_${p}_checked eval_${p}_native"; done
build() { cmake -S "$1" -B "$2" -G Ninja -DLDCC_BUILD_TRANSLATOR=OFF > "$out/cfg-$3.log" 2>&1 && cmake --build "$2" -j 16 --target $tg > "$out/build-$3.log" 2>&1 || tail -20 "$out/build-$3.log"; }
build "$root" /tmp/q-A A &
i=0; for v in B C; do pt="${1:-}"; shift || true; [ -z "$pt" ] && continue
  rm -rf /tmp/q-tree-$v && mkdir -p /tmp/q-tree-$v && cp -r "$root"/. /tmp/q-tree-$v/ && rm -rf /tmp/q-tree-$v/build*
  (cd /tmp/q-tree-$v && patch -p1 < "$root/$pt" > /dev/null) && build /tmp/q-tree-$v /tmp/q-$v $v & done
wait
echo "variant,program,mode,run,gpu_ms,last" > "$out/ab.csv"
for r in $(seq 1 $reps); do for p in $progs; do for v in A B C; do b=/tmp/q-$v/examples/eval/eval_${p}_checked; [ -x $b ] || continue
  for m in ${MODES:-check}; do LDCC_MODE=$m timeout 30 $b > /tmp/o 2> /tmp/e; echo "$v,$p,$m,$r,$(sed -n 's/^gpu_ms \([0-9.]*\).*/\1/p' /tmp/e | tail -1),$(tail -1 /tmp/o | tr -d , | cut -c1-30)" >> "$out/ab.csv"; done; done; done; done
sort -t, -k2,2 -k3,3 -k1,1 "$out/ab.csv"
