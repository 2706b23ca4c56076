#!/bin/sh
# uvmsim against real GPUs (issue 40): every measurement of
# validation/hardware/measurements.csv -- the UVMSmart micro-benchmarks'
# migrations and fault times (GTX 1080 Ti, workload uvmsmart) and Allen and
# Ge's batch time and end-to-end rate (Titan V, workload uvmeval) -- run on
# its preset as committed; prints GPU value, uvmsim value and verdict
# (semantics exact, times and bandwidths within 25 %).
#
#   sh scripts/reproduce/hardware.sh [BUILD [OUT]] [--plot] [--fit] [--quick]
#
# --plot draws OUT/hardware.png (uvmsim against the GPU, log-log, y = x);
# --fit first reruns the calibration (hardware_fit.py --check: the fitted
# costs and their residuals); --quick leaves out the 4 GiB Titan V run
# (about a minute of the ~1.5 min).  Writes OUT/hardware.md, OUT/hardware.csv.
set -eu
BUILD=build OUT=repro PLOT=0 FIT=0 ONLY="" n=0
for a in "$@"; do
    case "$a" in
    --plot) PLOT=1 ;;
    --fit) FIT=1 ;;
    --quick) ONLY=quick ;;
    *) if [ $n = 0 ]; then BUILD=$a; else OUT=$a; fi; n=$((n + 1)) ;;
    esac
done
PY=${PYTHON:-/usr/bin/python3}
[ -x "$PY" ] || PY=python3
HERE=$(dirname "$0")
mkdir -p "$OUT"
if [ "$FIT" = 1 ]; then
    "$PY" "$HERE/hardware_fit.py" "$BUILD/uvmsim" --check | tee "$OUT/hardware-fit.md"
    echo
fi
SKIP=""
[ "$ONLY" = quick ] && SKIP="--skip ag.linear4g"
# shellcheck disable=SC2086
"$PY" "$HERE/hardware_table.py" "$BUILD/uvmsim" --csv "$OUT/hardware.csv" $SKIP > "$OUT/hardware.md"
cat "$OUT/hardware.md"
if [ "$PLOT" = 1 ]; then
    "$PY" "$HERE/plot_hardware.py" "$OUT/hardware.csv" -o "$OUT/hardware.png"
    echo "plot: $OUT/hardware.png"
fi
