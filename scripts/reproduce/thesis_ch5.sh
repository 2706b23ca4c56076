#!/bin/sh
# Reproduce the thesis' Ch. V (Agarwal 2015: dynamic page migration in a
# CC-NUMA GPU -- threshold-N, TLB shootdowns, range expansion, bandwidth
# balancing) on uvmsim: the oracle's profiles first
# (scripts/thesis_ch5_profiles.sh), the sweeps
# configs/sweeps/thesis-ch5-{fig5.2,fig5.3,table5.2,fig5.5,fig5.9}.yaml on
# configs/thesis-ch5-inputs.yaml, then the thesis-vs-uvmsim tables of
# scripts/reproduce/thesis_ch5_table.py and OUT/thesis-ch5-fig5.6-8.png.
# Resumable: a second run only runs the points without a result.
#
#   sh scripts/reproduce/thesis_ch5.sh [BUILD [OUT]]
#   SWEEP_ARGS="-j 8" sh scripts/reproduce/thesis_ch5.sh build repro
#
# Cost (docs/validation.md): 513 points of seconds each, about 1.5 CPU
# hours; run from the repository root (the sweeps name profiles/...).
set -eu
BUILD=${1:-build}
OUT=${2:-repro}
UVMSIM=$BUILD/uvmsim
PY=${PYTHON:-/usr/bin/python3}
[ -x "$PY" ] || PY=python3
HERE=$(dirname "$0")
mkdir -p "$OUT/thesis-ch5"
for k in backprop bfs btree cns comd kmeans minife mummergpu nw pathfinder srad_v1 xsbench; do
    [ -f profiles/thesis-ch5-$k.prof ] || { sh scripts/thesis_ch5_profiles.sh "$UVMSIM"; break; }
done
for f in fig5.2 fig5.3 table5.2 fig5.5 fig5.9; do
    # shellcheck disable=SC2086
    "$UVMSIM" sweep run configs/sweeps/thesis-ch5-$f.yaml -o "$OUT/thesis-ch5/$f" ${SWEEP_ARGS:-}
done
"$PY" "$HERE/thesis_ch5_table.py" "$OUT/thesis-ch5" -o "$OUT/thesis-ch5-fig5.6-8.png"
