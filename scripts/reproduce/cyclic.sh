#!/bin/sh
# Reproduce the cyclic-thrashing paper (Park et al., WIP, Sec. III, Figs. 1
# and 2) on the real-driver baseline: AddVector, FDTD-2D, NW and RA on the
# GTX 1660 preset with 100 MB and 1000 MB of GPU memory, stock driver vs
# pinning 10/25/50 % vs shuffling (configs/sweeps/cyclic-100mb.yaml,
# cyclic-1000mb.yaml).  Prints paper vs uvmsim, draws OUT/cyclic.png (Fig. 2)
# and OUT/cyclic-fig1.png: RA 1300 MB on 1000 MB with 25 % pinning, every
# root-chunk eviction by VA block (Fig. 1) -- the pinned point of the sweep.
#
#   sh scripts/reproduce/cyclic.sh [BUILD [OUT]] [--small]
#
# --small runs the 100 MB sweep only.  SWEEP_ARGS passes options to
# `uvmsim sweep run` (-j N, --force).  Cost: docs/validation.md.
set -eu
BUILD=build OUT=repro SMALL=0 n=0
for a in "$@"; do
    case "$a" in
    --small) SMALL=1 ;;
    *) if [ $n = 0 ]; then BUILD=$a; else OUT=$a; fi; n=$((n + 1)) ;;
    esac
done
UVMSIM=$BUILD/uvmsim
PY=${PYTHON:-/usr/bin/python3}
[ -x "$PY" ] || PY=python3
HERE=$(dirname "$0")
mkdir -p "$OUT"
SIZES="100"
[ "$SMALL" = 1 ] || SIZES="100 1000"
H5=""
for m in $SIZES; do
    # shellcheck disable=SC2086
    "$UVMSIM" sweep run "configs/sweeps/cyclic-${m}mb.yaml" -o "$OUT/cyclic-${m}mb" ${SWEEP_ARGS:-}
    H5="$H5 $OUT/cyclic-${m}mb/sweep.h5"
done
# shellcheck disable=SC2086
"$PY" "$HERE/paper_table.py" cyclic $H5 -o "$OUT/cyclic.png"
if [ "$SMALL" = 1 ]; then
    P="$OUT/cyclic-100mb/points/ra_67108864_2048_2048_12500000_cyclic_pin_25pct.h5"
else
    P="$OUT/cyclic-1000mb/points/ra_67108864_2048_2048_108333333_cyclic_pin_25pct.h5"
fi
"$PY" "$HERE/plot_evictions.py" "$P" -o "$OUT/cyclic-fig1.png"
