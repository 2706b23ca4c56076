#!/bin/sh
# Reproduce the thesis' Ch. IV (Agarwal 2015: BW-AWARE, oracle and
# annotated page placement in a GPU with GDDR5 and host DDR4) on uvmsim:
# the sweeps configs/sweeps/thesis-ch4-fig4.{2,3,4,9,11}.yaml on
# configs/thesis-ch4-inputs.yaml, the oracle/annotated profiles first
# (scripts/thesis_ch4_profiles.sh), then the thesis-vs-uvmsim tables of
# scripts/reproduce/thesis_ch4_table.py and OUT/thesis-ch4-fig4.2.png.
# Resumable: a second run only runs the points without a result.
#
#   sh scripts/reproduce/thesis_ch4.sh [BUILD [OUT]]
#   SWEEP_ARGS="-j 8" sh scripts/reproduce/thesis_ch4.sh build repro
#
# Cost (docs/validation.md): 810 points of seconds each, about 1.5 CPU
# hours; run from the repository root (the sweeps name profiles/...).
set -eu
BUILD=${1:-build}
OUT=${2:-repro}
UVMSIM=$BUILD/uvmsim
PY=${PYTHON:-/usr/bin/python3}
[ -x "$PY" ] || PY=python3
HERE=$(dirname "$0")
mkdir -p "$OUT/thesis-ch4"
for k in backprop bfs btree cns comd histo hotspot kmeans lud minife mriq mummergpu nw pathfinder sgemm spmv srad_v1 stencil xsbench; do
    [ -f profiles/thesis-ch4-$k.prof ] || { sh scripts/thesis_ch4_profiles.sh "$UVMSIM"; break; }
done
for f in 4.2 4.3 4.4 4.9 4.11; do
    # shellcheck disable=SC2086
    "$UVMSIM" sweep run configs/sweeps/thesis-ch4-fig$f.yaml -o "$OUT/thesis-ch4/fig$f" ${SWEEP_ARGS:-}
done
"$PY" "$HERE/thesis_ch4_table.py" "$OUT/thesis-ch4" -o "$OUT/thesis-ch4-fig4.2.png"
