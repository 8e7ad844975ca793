#!/usr/bin/env bash
# The evaluation suite on the GPU machine (examples/eval: the LD paper's eleven programs, race-free
# and racy): every program natively, under `ldcc` check mode, in deterministic mode, and under
# compute-sanitizer racecheck. It only collects; bench/eval_report.py turns the raw files into the
# tables (detection, slowdown, memory, profile) and the plot.
#   <raw>/<program>.<mode>.<i>.out|err   stdout/stderr of run i (the program prints gpu_ms on stderr)
#   <raw>/<program>.check.1.json         ldcc's JSON report (first check run)
#   <raw>/<program>.<mode>.<i>.timing    LDCC_TIMING: kernel,mode,us,peak extra device bytes
#   <raw>/<program>.check.profile        LDCC_PROFILE of one extra check run (phases, synchronized)
#   <raw>/<program>.racecheck.*          one racecheck run (RACECHECK_TIMEOUT seconds at most)
# Usage: bench/eval.sh BUILD_DIR RAW_DIR [REPEAT] [PROGRAM_FILTER] [STEPS]
#   STEPS: a comma list of native,check,deterministic,profile,racecheck (default: all of them)
set -uo pipefail
build="$1" raw="$2" repeat="${3:-5}" filter="${4:-}" steps="${5:-native,check,deterministic,profile,racecheck}"
timeout_s="${RACECHECK_TIMEOUT:-60}"
mkdir -p "$raw"
has() { [[ ",$steps," == *",$1,"* ]]; }
sanitizer="$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)"
export CUDA_MODULE_LOADING=EAGER  # module loading stays out of the first launch's time
for native in "$build"/examples/eval/eval_*_native; do
  name="$(basename "$native" _native)"; name="${name#eval_}"
  [ -n "$filter" ] && [[ "$name" != *$filter* ]] && continue
  checked="$build/examples/eval/eval_${name}_checked"
  [ -x "$checked" ] || { echo "$name: no checked build"; continue; }
  for ((i = 1; i <= repeat; i++)); do
    has native && "$native" > "$raw/$name.native.$i.out" 2> "$raw/$name.native.$i.err"
    has check && LDCC_MODE=check LDCC_TIMING="$raw/$name.check.$i.timing" LDCC_REPORT="$raw/$name.check.$i.json" \
      "$checked" > "$raw/$name.check.$i.out" 2> "$raw/$name.check.$i.err"
    has deterministic && LDCC_MODE=deterministic LDCC_TIMING="$raw/$name.deterministic.$i.timing" \
      "$checked" > "$raw/$name.deterministic.$i.out" 2> "$raw/$name.deterministic.$i.err"
  done
  has profile && LDCC_MODE=check LDCC_PROFILE="$raw/$name.check.profile" "$checked" > /dev/null 2>&1
  if has racecheck; then
    start=$(date +%s%N)
    timeout "$timeout_s" "$sanitizer" --tool racecheck --print-limit 0 "$native" > "$raw/$name.racecheck.out" 2> "$raw/$name.racecheck.err"
    echo "$? $(( ($(date +%s%N) - start) / 1000000 ))" > "$raw/$name.racecheck.rc"
  fi
  echo "$name: done"
done
