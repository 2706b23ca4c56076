#!/bin/sh
# Reproduce the HPE paper (Yu et al., TCAD 2020) at its sizes on the
# faithful baseline: the policy comparison of Sec. V-B over the 19 Table II
# workloads uvmsim generates (configs/sweeps/hpe-table2.yaml and, for the
# comparators' walk-hit feed, hpe-table2-replay-walks.yaml), then with
# --sens the sensitivity studies of Sec. V-A (configs/sweeps/hpe-sens-*.yaml).
# Prints paper vs uvmsim (scripts/reproduce/paper_table.py) and draws
# OUT/hpe-table2.png and OUT/hpe-sens-*.png.  Resumable: a second run only
# runs the points without a result (uvmsim sweep run).
#
#   sh scripts/reproduce/hpe.sh [BUILD [OUT]] [--sens]
#   SWEEP_ARGS="-j 8" sh scripts/reproduce/hpe.sh build repro
#
# Cost (docs/validation.md): the policy sweeps are 228 + 114 points and hours of
# CPU on two cores; SWEEP_ARGS passes options to `uvmsim sweep run` (-j N,
# --force, -s KEY=VALUE to scale a workload down for a quick look).
set -eu
BUILD=build OUT=repro SENS=0 n=0
for a in "$@"; do
    case "$a" in
    --sens) SENS=1 ;;
    *) if [ $n = 0 ]; then BUILD=$a; else OUT=$a; fi; n=$((n + 1)) ;;
    esac
done
UVMSIM=$BUILD/uvmsim
PY=${PYTHON:-/usr/bin/python3}
[ -x "$PY" ] || PY=python3
HERE=$(dirname "$0")
mkdir -p "$OUT"

# shellcheck disable=SC2086
"$UVMSIM" sweep run configs/sweeps/hpe-table2.yaml -o "$OUT/hpe-table2" ${SWEEP_ARGS:-}
"$PY" "$HERE/paper_table.py" hpe "$OUT/hpe-table2/sweep.h5" -o "$OUT/hpe-table2.png"
# The comparators in the paper's reading of its ideal-model feed (every walk
# hit, the replayed access's included: driver.evict.replay_walks=feed), the
# reading the claims judge RRIP-FP and CLOCK-Pro in (docs/decisions.md);
# then what each policy is fed, and both readings side by side.
# shellcheck disable=SC2086
"$UVMSIM" sweep run configs/sweeps/hpe-table2-replay-walks.yaml -o "$OUT/hpe-table2-replay-walks" ${SWEEP_ARGS:-}
"$PY" "$HERE/paper_table.py" hpe-feed "$OUT/hpe-table2/sweep.h5" "$OUT/hpe-table2-replay-walks/sweep.h5"

[ "$SENS" = 1 ] || exit 0
# Sec. V-A: each study normalised as the paper's figure (Fig. 7 to set size
# 8, Fig. 8 to interval 32) or to the default (threshold 0.3, transfer 16,
# HIR 1024 x 8); geometric means per panel.  The plots of set size and
# interval show the MRU-C runs; the tables below keep one strategy per
# application, the faster at the default value.
plot() {   # sweep x-norm group facet-where...
    s=$1 norm=$2 group=$3; shift 3
    # shellcheck disable=SC2086
    "$UVMSIM" sweep run "configs/sweeps/$s.yaml" -o "$OUT/$s" ${SWEEP_ARGS:-}
    "$PY" "$HERE/../plot_sweep.py" "$OUT/$s/sweep.h5" --x workload.kind --y sim_time_ps \
        --speedup --normalize-to "$norm" --group "$group" --facet gpu.memory.fraction \
        "$@" --table -o "$OUT/$s.png"
}
plot hpe-sens-setsize driver.evict.hpe.set_pages=8 driver.evict.hpe.set_pages --where driver.evict.hpe.strategy=mru-c
plot hpe-sens-interval driver.evict.hpe.interval=32 driver.evict.hpe.interval --where driver.evict.hpe.strategy=mru-c
plot hpe-sens-threshold driver.evict.hpe.ratio1=0.3 driver.evict.hpe.ratio1
plot hpe-sens-transfer gmmu.hir.transfer_faults=16 gmmu.hir.transfer_faults
plot hpe-sens-hir gmmu.hir.entries=1024 gmmu.hir.entries --where gmmu.hir.assoc=8
# The tables: per-type means, the spreads Figs. 7/8 bound, the text's
# statements (one strategy per application where the study fixes it by hand).
"$PY" "$HERE/paper_table.py" hpe-sens "$OUT"/hpe-sens-setsize/sweep.h5 "$OUT"/hpe-sens-interval/sweep.h5 \
    "$OUT"/hpe-sens-threshold/sweep.h5 "$OUT"/hpe-sens-transfer/sweep.h5 "$OUT"/hpe-sens-hir/sweep.h5
