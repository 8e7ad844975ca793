#!/usr/bin/env bash
# Deterministic outputs of two GPUs side by side: two CSVs of bench/determinism_bench.sh (their
# deterministic_md5 column, the md5 of one deterministic run's stdout), one row per program.
# Usage: bench/determinism_compare.sh A.csv NAME_A B.csv NAME_B  -> markdown on stdout; exits 1 when
# a program's deterministic output differs between the two (or is missing from one).
set -euo pipefail
a="$1" name_a="$2" b="$3" name_b="$4"
awk -F, -v na="$name_a" -v nb="$name_b" '
  FNR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
  FILENAME == ARGV[1] { ma[$1] = $col["deterministic_md5"]; verdict[$1] = $col["verdict"]; order[++n] = $1; next }
  { mb[$1] = $col["deterministic_md5"] }
  END {
    printf "| program | verdict | %s output md5 | %s output md5 | same |\n|---|---|---|---|---|\n", na, nb
    for (i = 1; i <= n; ++i) {
      p = order[i]; same = (p in mb) && ma[p] == mb[p] ? "yes" : "NO"
      if (same == "yes") ++equal; else bad = 1
      printf "| %s | %s | %s | %s | %s |\n", p, verdict[p], ma[p], (p in mb) ? mb[p] : "-", same
    }
    printf "\nSame deterministic output on %s and %s: %d of %d programs\n", na, nb, equal, n
    exit bad
  }' "$a" "$b"
