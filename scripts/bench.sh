#!/bin/sh
# Host speed of the simulator (issue 13; reported, never asserted).
#
#   scripts/bench.sh [UVMSIM] [CASE...]      (make bench: every case)
#   scripts/bench.sh --cases                 (the case names, one a line)
#
# One row per case, columns separated by blanks (scripts/bench_compare.sh
# reads them): the case, simulated time, CPU seconds of the run (user +
# system, from /usr/bin/time: what a loaded machine does not distort), simulated GPU cycles and
# warp instructions per CPU second, engine events, events per warp
# instruction, CPU nanoseconds per event, peak RSS.  The two fault-latency
# rows show that simulated time spent waiting costs no host time: 20 us ->
# 200 us multiplies simulated time but should change CPU time by < 10 %;
# their ratio is printed last.  The compute-only rows measure the SM issue
# path alone.  One warp streaming 16 MiB with 128 B lanes faults on each of
# its 4096 pages in turn.  BENCH_MODEL=cycle|fast adds -s sim.model=...
# to every case (make bench runs the set once with each, issue 41).
LIST=false
[ "${1:-}" = --cases ] && LIST=true
UVMSIM=${1:-build/uvmsim}
[ $# -gt 0 ] && shift
$LIST || [ -x "$UVMSIM" ] || { echo "bench.sh: $UVMSIM is not an executable" >&2; exit 2; }
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

ONE_WARP="-s workload.stream.footprint=16MiB -s workload.stream.grid=1 -s workload.stream.block=32 -s workload.stream.lane_stride=128B -s workload.stream.passes=1"
COMPUTE="-s workload.kind=compute -s gpu.memory.fraction=100% -s workload.compute.grid=90 -s workload.compute.insts=20000"
# name|overrides of configs/default.yaml
CASES="bfs1M-91|-s workload.kind=bfs -s workload.bfs.nodes=1000000 -s gpu.memory.fraction=91%
ttc18-91|-s workload.kind=bfs_ttc -s workload.graph.scale=18 -s gpu.memory.fraction=91%
stream-default|
stream1G-50|-s workload.stream.footprint=1GiB -s gpu.memory.fraction=50%
gups4M-50|-s workload.kind=gups -s workload.gups.footprint=4MiB -s gpu.memory.fraction=50%
fault-20us|$ONE_WARP
fault-200us|$ONE_WARP -s driver.fault_latency=200us
compute-lrr|$COMPUTE
compute-gto|$COMPUTE -s gpu.sm.scheduler=gto"

wanted() {
    n=$1; shift
    [ $# -eq 0 ] && return 0
    for c in "$@"; do [ "$c" = "$n" ] && return 0; done
    return 1
}

NAMES=$(echo "$CASES" | cut -d'|' -f1)
if $LIST; then echo "$NAMES"; exit 0; fi
# A misspelt case would silently run nothing.
for want in "$@"; do      # not $c: wanted() sets it (sh has no locals)
    # shellcheck disable=SC2086
    wanted "$want" $NAMES ||
        { echo "bench.sh: no case '$want' (cases: $(echo $NAMES))" >&2; exit 2; }
done

# One row from a run's summary (sim/cli/summary.c), its /usr/bin/time output
# (CPU, peak RSS) and its result's /@events: measured the same way for any
# revision (bench_compare.sh runs older ones too).
row() {
    ev=$(h5dump -a /events "$3" 2>/dev/null | awk '/\(0\):/ { print $2 }')
    awk -v name="$1" -v events="${ev:-0}" '
        / simulated \(/ { for (i = 1; i <= NF; i++) if ($i == "at") us = $(i + 1);
                          c = $0; sub(/.*\(/, "", c); sub(/ core.*/, "", c); cycles = c }
        /^  gpu / { insts = $4 }
        /^cpu / { cpu = $2 + $3; rss = $4 / 1024 }
        END {
            if (cpu == "" || insts == "") { printf "%-15s failed\n", name; exit 1 }
            printf "%-15s %12.1f %8.2f %10.3g %10.3g %11d %8.2f %7.0f %8.1f\n",
                   name, us, cpu, (cpu > 0 ? cycles / cpu : 0), (cpu > 0 ? insts / cpu : 0),
                   events, (insts > 0 ? events / insts : 0),
                   (events > 0 ? cpu * 1e9 / events : 0), rss
        }' "$2"
}

MODEL_SET=
[ -n "${BENCH_MODEL:-}" ] && MODEL_SET="-s sim.model=$BENCH_MODEL"
echo "uvmsim bench ($(uname -m), $(nproc) cores): $UVMSIM${BENCH_MODEL:+, sim.model $BENCH_MODEL}"
printf '%-15s %12s %8s %10s %10s %11s %8s %7s %8s\n' case sim_us cpu_s cycles/s \
    insts/s events ev/inst ns/ev rss_MiB
echo "$CASES" | while IFS='|' read -r name args; do
    wanted "$name" "$@" || continue
    # shellcheck disable=SC2086
    if /usr/bin/time -f "cpu %U %S %M" -a -o "$TMP/$name.out" "$UVMSIM" run \
           "$ROOT/configs/default.yaml" $args $MODEL_SET -o "$TMP/$name.h5" >"$TMP/$name.out" 2>"$TMP/err"; then
        row "$name" "$TMP/$name.out" "$TMP/$name.h5"
        rm -f "$TMP/$name.h5"
    else
        printf '%-15s failed: %s\n' "$name" "$(head -1 "$TMP/err")"
    fi
done
if [ -f "$TMP/fault-20us.out" ] && [ -f "$TMP/fault-200us.out" ]; then
    a=$(awk '/^cpu /{print $2 + $3}' "$TMP/fault-20us.out")
    b=$(awk '/^cpu /{print $2 + $3}' "$TMP/fault-200us.out")
    awk -v a="$a" -v b="$b" 'BEGIN { if (a > 0) printf "fault latency 20 -> 200 us: CPU time x %.2f\n", b / a }'
fi
