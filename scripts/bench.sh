#!/bin/sh
# Host speed of the simulator (reported, never asserted).  Each row: the
# run, simulated time, wall time, simulated GPU cycles per host second,
# events per host second, peak RSS.  The two fault-latency rows show that
# simulated time spent waiting costs no host time: going from 20 us to
# 200 us multiplies simulated time but barely changes wall time.  The
# last column is simulated warp instructions per host second; the
# compute-only rows measure the SM issue path alone.
UVMSIM=${1:-build/uvmsim}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
run() {
    name=$1; shift
    "$UVMSIM" run configs/default.yaml "$@" -o "$TMP/b.h5" >"$TMP/out" || exit 1
    sim=$(sed -n 's/.* at \([0-9.]*\) us simulated.*/\1/p' "$TMP/out")
    host=$(sed -n 's/^  host *//p' "$TMP/out")
    insts=$(sed -n 's/^  gpu .* kernels, \([0-9]*\) warp instructions.*/\1/p' "$TMP/out")
    wall=$(echo "$host" | sed -n 's/^\([0-9.]*\) s wall.*/\1/p')
    ips=$(awk -v i="$insts" -v w="$wall" 'BEGIN { if (w > 0) printf "%.3g", i / w; else print "-" }')
    printf '%-34s %12s us  %s, %s warp insts/s\n' "$name" "$sim" "$host" "$ips"
}
echo "uvmsim bench ($(uname -m), $(nproc) cores)"
run "default (32 MiB stream, 75%)"
run "default, fault latency 200us" -s driver.fault_latency=200us
run "one warp, 1024 faults, 20us" -s workload.stream.footprint=4MiB \
    -s workload.stream.grid=1 -s workload.stream.block=32 \
    -s workload.stream.lane_stride=128B -s workload.stream.passes=1
run "one warp, 1024 faults, 200us" -s workload.stream.footprint=4MiB \
    -s workload.stream.grid=1 -s workload.stream.block=32 \
    -s workload.stream.lane_stride=128B -s workload.stream.passes=1 \
    -s driver.fault_latency=200us
run "256 MiB stream, 50%" -s workload.stream.footprint=256MiB \
    -s gpu.memory.fraction=50% -s workload.stream.passes=1
run "compute-only, 15 SMs x 6 blocks" -s workload.kind=compute -s gpu.memory.fraction=100% \
    -s workload.compute.grid=90 -s workload.compute.insts=20000
run "compute-only, GTO" -s workload.kind=compute -s gpu.memory.fraction=100% \
    -s workload.compute.grid=90 -s workload.compute.insts=20000 -s gpu.sm.scheduler=gto
