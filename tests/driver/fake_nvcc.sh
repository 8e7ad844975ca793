#!/bin/sh
# Stands in for nvcc (LDCC_NVCC): writes its arguments, one per line, to $FAKE_NVCC_LOG and
# exits with $FAKE_NVCC_EXIT.
printf '%s\n' "$@" > "$FAKE_NVCC_LOG"
exit "${FAKE_NVCC_EXIT:-0}"
