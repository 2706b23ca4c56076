#!/bin/sh
# Reproduce the thesis' Ch. VI (Agarwal 2015: selective caching -- naive,
# request coalescing, CPU-side client cache, variable-size transfers,
# promiscuous read-only caching) on uvmsim: the sweeps
# configs/sweeps/thesis-ch6-fig6.{4,5,6,7,8}.yaml on
# configs/thesis-ch6-inputs.yaml, then the thesis-vs-uvmsim tables of
# scripts/reproduce/thesis_ch6_table.py.  Resumable: a second run only runs
# the points without a result.
#
#   sh scripts/reproduce/thesis_ch6.sh [BUILD [OUT]]
#   SWEEP_ARGS="-j 8" sh scripts/reproduce/thesis_ch6.sh build repro
#
# Cost (docs/validation.md): 264 points; run from the repository root.
set -eu
BUILD=${1:-build}
OUT=${2:-repro}
UVMSIM=$BUILD/uvmsim
PY=${PYTHON:-/usr/bin/python3}
[ -x "$PY" ] || PY=python3
HERE=$(dirname "$0")
mkdir -p "$OUT/thesis-ch6"
for f in 6.4 6.5 6.6 6.7 6.8; do
    # shellcheck disable=SC2086
    "$UVMSIM" sweep run configs/sweeps/thesis-ch6-fig$f.yaml -o "$OUT/thesis-ch6/fig$f" ${SWEEP_ARGS:-}
done
"$PY" "$HERE/thesis_ch6_table.py" "$OUT/thesis-ch6"
