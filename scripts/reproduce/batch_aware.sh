#!/bin/sh
# Reproduce the batch-aware paper's evaluation (Kim et al., ASPLOS 2020):
# run the three sweeps (configs/sweeps/batch-aware*.yaml) and print the
# paper's numbers next to uvmsim's (docs/validation.md, "Batch-aware").
#
#   scripts/reproduce/batch_aware.sh [UVMSIM] [OUTDIR] [JOBS]
#
# Defaults: build/uvmsim, ba-repro/, 2 jobs.  Sweeps are resumable: a
# second call reuses every finished point.  REPRO_ONLY=main skips Figs. 17
# and 18.  The CPU time of the whole run (user + system, children
# included) is printed at the end: on a shared machine it, not the wall
# time, says what the reproduction costs.
set -e
UVMSIM=${1:-build/uvmsim}
OUT=${2:-ba-repro}
JOBS=${3:-2}
HERE=$(dirname "$0")
mkdir -p "$OUT"
sweeps="batch-aware"
[ "${REPRO_ONLY:-}" = main ] || sweeps="$sweeps batch-aware-fig17 batch-aware-fig18"
for s in $sweeps; do
    echo "== sweep $s" >&2
    "$UVMSIM" sweep run "configs/sweeps/$s.yaml" -o "$OUT/$s" -j "$JOBS" >"$OUT/$s.log" 2>&1 || {
        echo "sweep $s failed: see $OUT/$s.log" >&2; exit 1; }
done
/usr/bin/python3 "$HERE/batch_aware_table.py" "$OUT/batch-aware/sweep.h5" \
    "$OUT/batch-aware-fig17/sweep.h5" "$OUT/batch-aware-fig18/sweep.h5"
# CPU seconds of this shell's children (the sweeps and their points).
times | tail -n 1 | awk '{
    split($1, u, "m"); split($2, s, "m");
    printf "CPU time of the sweeps: %.0f s (user %s, system %s)\n",
        u[1] * 60 + u[2] + s[1] * 60 + s[2], $1, $2 }' >&2
