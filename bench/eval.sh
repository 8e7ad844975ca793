#!/usr/bin/env bash
# The evaluation suite on the GPU machine (examples/eval: the LD paper's eleven programs, race-free
# and racy): every program natively, under `ldcc` check mode, in deterministic mode, and under
# compute-sanitizer racecheck. It only collects; bench/eval_report.py turns the raw files into the
# tables (detection, slowdown, memory, profile) and the plot.
#   <raw>/<program>.<mode>.<i>.out|err   stdout/stderr of run i (the program prints gpu_ms on stderr)
#   <raw>/<program>.<mode>.<i>.wall      exit status and wall milliseconds of the whole process
#                                        (124: stopped at EVAL_RUN_TIMEOUT, RACECHECK_TIMEOUT for racecheck)
#   <raw>/<program>.check.1.json         ldcc's JSON report (first check run)
#   <raw>/<program>.{check,deterministic}.timing   LDCC_TIMING of one extra run: kernel,mode,us,peak
#                                        extra device bytes per launch
#   <raw>/<program>.{check,deterministic}.profile  LDCC_PROFILE of one extra run: phase,us,count
#   <raw>/<program>.racecheck.1.*        one racecheck run of the native build, hazards and analysis (RACECHECK_TIMEOUT
#                                        seconds at most; exit status 124 in .wall: timed out)
# Usage: bench/eval.sh BUILD_DIR RAW_DIR [REPEAT] [PROGRAM_FILTER] [STEPS]
#   STEPS: a comma list of native,check,deterministic,profile,racecheck (default: all of them)
set -uo pipefail
build="$1" raw="$2" repeat="${3:-5}" filter="${4:-}" steps="${5:-native,check,deterministic,profile,racecheck}"
timeout_s="${RACECHECK_TIMEOUT:-60}"
run_timeout_s="${EVAL_RUN_TIMEOUT:-120}"  # any other run: a hung or very slow one does not take the rest
deadline_s="${EVAL_DEADLINE:-0}"        # >0: no new program starts after this many seconds (device calls are capped)
started=$(date +%s)
mkdir -p "$raw"
has() { [[ ",$steps," == *",$1,"* ]]; }
# run NAME MODE I [ENV=VALUE...] BINARY: one run, its output, exit status and wall time.
run() {
  local name="$1" mode="$2" i="$3"; shift 3
  local start=$(date +%s%N)
  local limit="$run_timeout_s"
  [ "$mode" = racecheck ] && limit="$timeout_s"
  timeout "$limit" env "$@" > "$raw/$name.$mode.$i.out" 2> "$raw/$name.$mode.$i.err"
  echo "$? $(( ($(date +%s%N) - start) / 1000000 ))" > "$raw/$name.$mode.$i.wall"
}
sanitizer="$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)"
export CUDA_MODULE_LOADING=EAGER  # module loading stays out of the first launch's time
for native in "$build"/examples/eval/eval_*_native; do
  name="$(basename "$native" _native)"; name="${name#eval_}"
  [ -n "$filter" ] && [[ "$name" != *$filter* ]] && continue
  if [ "$deadline_s" -gt 0 ] && [ $(( $(date +%s) - started )) -ge "$deadline_s" ]; then echo "$name: skipped (deadline)"; continue; fi
  checked="$build/examples/eval/eval_${name}_checked"
  [ -x "$checked" ] || { echo "$name: no checked build"; continue; }
  for ((i = 1; i <= repeat; i++)); do
    has native && run "$name" native "$i" "$native"
    has check && run "$name" check "$i" LDCC_MODE=check LDCC_REPORT="$raw/$name.check.$i.json" "$checked"
    has deterministic && run "$name" deterministic "$i" LDCC_MODE=deterministic "$checked"
  done
  # Timing and profile runs synchronize every launch: kept apart from the timed runs above.
  has profile && run "$name" check-timing 1 LDCC_MODE=check LDCC_TIMING="$raw/$name.check.timing" "$checked"
  has profile && run "$name" deterministic-timing 1 LDCC_MODE=deterministic LDCC_TIMING="$raw/$name.deterministic.timing" "$checked"
  has profile && run "$name" check-profile 1 LDCC_MODE=check LDCC_PROFILE="$raw/$name.check.profile" "$checked"
  has profile && run "$name" deterministic-profile 1 LDCC_MODE=deterministic LDCC_PROFILE="$raw/$name.deterministic.profile" "$checked"
  if has racecheck; then
    run "$name" racecheck 1 "$sanitizer" --tool racecheck --racecheck-report all "$native"
  fi
  echo "$name: done"
done
