#!/bin/sh
# Reproduce SC19 (Li & Chapman: compiler-assisted hybrid implicit/explicit
# GPU memory management) on uvmsim: the sweeps configs/sweeps/sc19-*.yaml
# on configs/sc19-summit.yaml (footprints scaled to 16 MiB / 4 MiB of GPU
# memory keeping the paper's footprint/capacity ratios, spec B.6), then the
# paper-vs-uvmsim tables of scripts/reproduce/sc19_table.py.  Resumable: a
# second run only runs the points without a result.
#
#   sh scripts/reproduce/sc19.sh [BUILD [OUT]]
#   SWEEP_ARGS="-j 8" sh scripts/reproduce/sc19.sh build repro
#
# Cost (docs/validation.md "SC19"): 380 points, about 2 h on 2 cores; run from
# the repository root.
set -eu
BUILD=${1:-build}
OUT=${2:-repro}
UVMSIM=$BUILD/uvmsim
PY=${PYTHON:-/usr/bin/python3}
[ -x "$PY" ] || PY=python3
HERE=$(dirname "$0")
mkdir -p "$OUT/sc19"
for w in nn hotspot backprop srad cfd minivite kmeans bfs edges bfs-scaling; do
    # shellcheck disable=SC2086
    "$UVMSIM" sweep run configs/sweeps/sc19-$w.yaml -o "$OUT/sc19/$w" ${SWEEP_ARGS:--j 2} ||
        echo "sc19.sh: sweep $w has points without a result (its logs/); the tables mark them missing"
done
"$PY" "$HERE/sc19_table.py" "$OUT/sc19"
