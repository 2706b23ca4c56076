#!/bin/sh
# Behaviour regression between two builds (issue 13): both binaries run the
# same set of configs and their results must be identical but for host
# speed (both run with --no-host-metrics).  Compared: every dataset and attribute but /host (wall time, RSS,
# host speed) and the root attribute `events` (engine events executed: an
# implementation measure, which the speed work of issue 13 lowers on
# purpose, e.g. no stale tick events); the other root attributes
# (uvmsim_version, status, seed, sim_time_ps) are compared on their own, and
# /config key by key (a key only the new binary has is no difference).
#
#   scripts/regress.sh BASE_BINARY NEW_BINARY [CASE...]
#
# CASE names pick cases from the list below (default: all).  Each case runs
# the two binaries side by side (two processes at a time), nice'd.  Prints
# one line per case (same / DIFFERENT, CPU seconds of each) and exits 1 if
# any case differs or fails; the differing results are kept and named.
#   REGRESS_KEEP=DIR   keep every result under DIR (default: a temp dir,
#                      removed unless something differed)
#   REGRESS_ARGS="..." overrides added to every case, e.g. "-s sim.model=fast"
#                      (issue 41: the fast model's own regressions); a case
#                      both binaries refuse alike (exit 2, the same line) is
#                      "refused", not a failure
set -u
if [ $# -lt 2 ]; then
    echo "usage: scripts/regress.sh BASE_BINARY NEW_BINARY [CASE...]" >&2
    exit 2
fi
A=$1
B=$2
shift 2
for bin in "$A" "$B"; do
    [ -x "$bin" ] || { echo "regress.sh: $bin is not an executable" >&2; exit 2; }
done
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CFG=$ROOT/configs
DIR=${REGRESS_KEEP:-$(mktemp -d /tmp/uvmsim-regress.XXXXXX)}
mkdir -p "$DIR"

# name | config | overrides.  Each case takes a few CPU seconds on main
# (6305db4); together they cover the SM scheduler policies (lrr, gto),
# several memory instructions in flight per warp, barriers, far faults with
# eviction (age-based, HPE), fully associative and set-associative L1 TLBs,
# 4 KiB and 64 KiB pages, the walker through GPU memory, the L1D and L2 and
# DRAM, regular and irregular (bfs, GUPS, graph) access.
CASES='
default|default.yaml|
gups|default.yaml|-s workload.kind=gups -s workload.gups.footprint=1MiB
bfs|default.yaml|-s workload.kind=bfs -s workload.bfs.nodes=100000
thrash-hpe|default.yaml|-s workload.kind=pattern -s workload.pattern.type=thrashing -s driver.eviction=hpe
bfs_ta-ba50|batch-aware-table1.yaml|-s workload.kind=bfs_ta -s gpu.memory.fraction=50% -s workload.graph.scale=14
thesis|thesis-table3-1.yaml|
gto-mo4|default.yaml|-s gpu.sm.scheduler=gto -s gpu.sm.max_outstanding_mem=4 -s workload.stream.footprint=8MiB
xlate-ba|translation-batch-aware.yaml|-s workload.stream.footprint=8MiB
cyclic|default.yaml|-s driver.eviction=cyclic
chunk|default.yaml|-s driver.evict_unit=chunk -s sim.epoch=1us
thrash|default.yaml|-s workload.stream.footprint=8MiB -s driver.thrashing.enabled=true -s driver.prefetch=tree -s gmmu.walker.mode=memory -s gmmu.hir.enabled=true
epochs|default.yaml|-s workload.stream.footprint=4MiB -s sim.epoch=100ns
barrier-gto|default.yaml|-s workload.kind=compute -s workload.compute.grid=45 -s workload.compute.insts=3000 -s workload.compute.barrier_every=100 -s workload.compute.load_warps=4 -s workload.compute.latency=6 -s gpu.sm.scheduler=gto
'
# Every preset of configs/ as it stands (issue 37: the regression set
# covers each machine), the larger ones cut to a few CPU seconds.
CASES="$CASES"'
p-batch-aware-repro|batch-aware-repro.yaml|-s workload.graph.scale=12
p-batch-aware-table1|batch-aware-table1.yaml|
p-dram-gddr5-336-thesis|dram-gddr5-336-thesis.yaml|
p-dram-gddr5-hpe|dram-gddr5-hpe.yaml|
p-dram-gddr5-thesis|dram-gddr5-thesis.yaml|
p-dram-hbm2-v100|dram-hbm2-v100.yaml|
p-driver-real|driver-real.yaml|
p-gtx1660|gtx1660.yaml|
p-hpe-table1|hpe-table1.yaml|
p-link-nvlink-thesis|link-nvlink-thesis.yaml|
p-link-nvlink2-v100|link-nvlink2-v100.yaml|
p-link-pcie3-batch-aware|link-pcie3-batch-aware.yaml|
p-link-pcie3-hpe|link-pcie3-hpe.yaml|
p-sc19-summit|sc19-summit.yaml|
p-thesis-ch4-inputs|thesis-ch4-inputs.yaml|
p-thesis-ch4|thesis-ch4.yaml|
p-thesis-ch5-inputs|thesis-ch5-inputs.yaml|
p-thesis-ch5|thesis-ch5.yaml|
p-thesis-ch6-inputs|thesis-ch6-inputs.yaml|
p-thesis-ch6|thesis-ch6.yaml|
p-tour|tour.yaml|
p-translation-ba|translation-batch-aware.yaml|
'
# One small point of every reproduction sweep of configs/sweeps/ (its base,
# its set: keys and one value of each axis, the footprint cut down).
# @PROF4@ / @PROF5@: a placement profile that the base binary writes first
# (thesis-ch4/5 oracle and annotated points read one).
CASES="$CASES"'
s-smoke|default.yaml|-s sim.epoch=5us -s workload.kind=pattern -s driver.eviction=lru -s gpu.memory.fraction=50% -s workload.pattern.type=region-moving -s workload.pattern.pages=512
s-hpe|default.yaml|-s workload.kind=pattern -s driver.eviction=rrip-fp -s gpu.memory.fraction=50% -s workload.pattern.type=part-repetitive -s workload.pattern.pages=2048
s-hpe-ideal|default.yaml|-s workload.kind=pattern -s driver.eviction=ideal -s gpu.memory.fraction=75% -s workload.pattern.type=repetitive-thrashing -s workload.pattern.pages=2048
s-hpe-table2|hpe-table1.yaml|-s workload.hotspot3d.iterations=10 -s workload.kind=hotspot -s driver.eviction=clock-pro -s gpu.memory.fraction=50%
s-hpe-sens-hir|hpe-table1.yaml|-s workload.hotspot3d.iterations=10 -s driver.eviction=hpe -s gpu.memory.fraction=50% -s workload.kind=srad -s workload.srad.rows=512 -s workload.srad.cols=512 -s driver.evict.rrip_fp.insert=distant -s driver.evict.rrip_fp.delay=128 -s gmmu.hir.entries=256 -s gmmu.hir.assoc=8
s-hpe-sens-interval|hpe-table1.yaml|-s driver.eviction=hpe -s driver.evict.hpe.adjust=false -s driver.evict.hpe.hit_feed=ideal -s gpu.memory.fraction=50% -s driver.evict.hpe.strategy=lru -s driver.evict.hpe.interval=32 -s workload.kind=hotspot
s-hpe-sens-setsize|hpe-table1.yaml|-s driver.eviction=hpe -s driver.evict.hpe.adjust=false -s driver.evict.hpe.hit_feed=ideal -s gpu.memory.fraction=75% -s driver.evict.hpe.strategy=mru-c -s driver.evict.hpe.set_pages=8 -s gmmu.hir.set_pages=8 -s workload.kind=gemm -s workload.gemm.ni=256 -s workload.gemm.nj=256 -s workload.gemm.nk=256
s-hpe-sens-threshold|hpe-table1.yaml|-s driver.eviction=hpe -s gpu.memory.fraction=50% -s driver.evict.hpe.ratio1=0.2 -s workload.kind=backprop -s workload.backprop.in=16384
s-hpe-sens-transfer|hpe-table1.yaml|-s driver.eviction=hpe -s gpu.memory.fraction=50% -s gmmu.hir.transfer_faults=8 -s workload.kind=bfs -s workload.bfs.nodes=50000
s-cyclic-100mb|gtx1660.yaml|-s gpu.memory.capacity=4MiB -s workload.kind=vecadd -s workload.vecadd.n=1000000 -s driver.eviction=cyclic -s driver.evict.cyclic.mode=pin -s driver.evict.cyclic.pin=25%
s-cyclic-1000mb|gtx1660.yaml|-s gpu.memory.capacity=8MiB -s workload.kind=ra -s workload.ra.n=1000000 -s driver.eviction=cyclic -s driver.evict.cyclic.mode=shuffle -s driver.evict.cyclic.pin=25%
s-batch-aware|batch-aware-repro.yaml|-s workload.kind=bfs_ttc -s workload.graph.scale=12 -s gpu.sm.oversub.enabled=true -s driver.eviction_timing=unobtrusive -s gpu.memory.fraction=50%
s-batch-aware-ideal|batch-aware-repro.yaml|-s workload.kind=pagerank -s workload.graph.scale=11 -s driver.eviction_timing=ideal -s gpu.memory.fraction=50%
s-ba-fig17|batch-aware-repro.yaml|-s workload.kind=kcore -s workload.graph.scale=12 -s driver.eviction_timing=serial -s gpu.memory.fraction=10%
s-ba-fig18|batch-aware-repro.yaml|-s driver.fault_latency=50us -s gpu.sm.oversub.enabled=true -s driver.eviction_timing=unobtrusive -s workload.kind=bfs_ttc -s workload.graph.scale=12 -s gpu.memory.fraction=50%
s-sc19-backprop|sc19-summit.yaml|-s workload.kind=backprop -s gpu.memory.capacity=4MiB -s workload.backprop.in=16384 -s runtime.policy=um -s runtime.transfer=hybrid -s runtime.partial=true -s driver.access_counters.migrate=true
s-sc19-bfs|sc19-summit.yaml|-s workload.kind=bfs -s gpu.memory.capacity=2MiB -s workload.bfs.nodes=50000 -s runtime.policy=rlm
s-sc19-bfs-scaling|sc19-summit.yaml|-s workload.kind=bfs -s gpu.memory.capacity=2MiB -s workload.bfs.nodes=60000 -s runtime.policy=rdm
s-sc19-cfd|sc19-summit.yaml|-s workload.kind=cfd -s gpu.memory.capacity=4MiB -s workload.cfd.elements=10000 -s runtime.policy=baseline
s-sc19-edges|sc19-summit.yaml|-s workload.kind=ra -s workload.ra.n=262144 -s gpu.memory.capacity=2MiB -s runtime.policy=rdm -s runtime.analysis=profile -s workload.ra.every=1024 -s runtime.transfer=explicit
s-sc19-hotspot|sc19-summit.yaml|-s workload.kind=hotspot -s gpu.memory.capacity=2MiB -s workload.hotspot.rows=256 -s workload.hotspot.cols=256 -s runtime.policy=host
s-sc19-kmeans|sc19-summit.yaml|-s workload.kind=kmeans -s gpu.memory.capacity=2MiB -s workload.kmeans.points=10000 -s workload.kmeans.iterations=2 -s runtime.policy=lru
s-sc19-minivite|sc19-summit.yaml|-s workload.kind=minivite -s gpu.memory.capacity=4MiB -s workload.minivite.vertices=5300 -s runtime.policy=glm
s-sc19-nn|sc19-summit.yaml|-s workload.kind=nn -s gpu.memory.capacity=4MiB -s workload.nn.records=100000 -s runtime.policy=um_pf -s driver.access_counters.migrate=true
s-sc19-srad|sc19-summit.yaml|-s workload.kind=srad -s gpu.memory.capacity=2MiB -s workload.srad.rows=256 -s workload.srad.cols=256 -s runtime.policy=rdm -s runtime.transfer=implicit -s runtime.partial=false
s-sc19-hoisted|sc19-summit.yaml|-s workload.kind=srad -s gpu.memory.capacity=2MiB -s workload.srad.rows=256 -s workload.srad.cols=256 -s runtime.policy=baseline_hoisted
s-ch4-fig4.11|thesis-ch4-inputs.yaml|-s driver.place.co_percent=30 -s gpu.memory.fraction=10% -s driver.placement=annotated -s workload.kind=hotspot -s driver.place.profile=@PROF4@
s-ch4-fig4.2|thesis-ch4-inputs.yaml|-s driver.placement=bw-aware -s workload.kind=backprop -s driver.place.co_percent=30
s-ch4-fig4.3|thesis-ch4-inputs.yaml|-s driver.place.co_percent=30 -s workload.kind=pathfinder -s driver.placement=local -s gpu.memory.fraction=50%
s-ch4-fig4.4|thesis-ch4-inputs.yaml|-s workload.kind=hotspot -s driver.placement=interleave -s host.dram.channels=2
s-ch4-fig4.9|thesis-ch4-inputs.yaml|-s driver.place.co_percent=30 -s gpu.memory.fraction=10% -s driver.placement=oracle -s workload.kind=hotspot -s driver.place.profile=@PROF4@
s-ch5-fig5.2|thesis-ch5-inputs.yaml|-s tlb.shootdown.cycles=0 -s workload.kind=backprop -s driver.migration=threshold -s driver.migrate.threshold=4
s-ch5-fig5.3|thesis-ch5-inputs.yaml|-s driver.migrate.threshold=1 -s workload.kind=pathfinder -s driver.migration=threshold -s tlb.shootdown.cycles=50
s-ch5-fig5.5|thesis-ch5-inputs.yaml|-s workload.kind=nw -s driver.migration=threshold -s driver.migrate.threshold=16 -s driver.migrate.expand=64
s-ch5-fig5.9|thesis-ch5-inputs.yaml|-s driver.migrate.threshold=1 -s workload.kind=kmeans -s workload.kmeans.points=20000 -s driver.placement=host -s driver.migration=threshold -s driver.migrate.expand=128 -s driver.migrate.bwb.enabled=true
s-ch5-fig5.9-oracle|thesis-ch5-inputs.yaml|-s driver.migrate.threshold=1 -s workload.kind=pathfinder -s driver.placement=oracle -s driver.migration=none -s driver.place.profile=@PROF5@
s-ch5-repeat|thesis-ch5-inputs.yaml|-s workload.srad_v1.iterations=20 -s workload.xsbench.lookups=5000 -s workload.kmeans.iterations=10 -s workload.kind=xsbench -s driver.migration=memcpy -s driver.migrate.threshold=1
s-ch5-table5.2|thesis-ch5-inputs.yaml|-s driver.migration=threshold -s driver.migrate.threshold=1 -s workload.kind=srad_v1 -s workload.srad_v1.iterations=2 -s tlb.shootdown.cycles=100 -s driver.migrate.expand=128
s-ch6-fig6.4|thesis-ch6-inputs.yaml|-s workload.kind=bfs -s workload.bfs.nodes=100000 -s gpu.caching.remote=none -s gpu.caching.coalesce=l1
s-ch6-fig6.5|thesis-ch6-inputs.yaml|-s gpu.caching.remote=none -s gpu.caching.coalesce=l1l2 -s workload.kind=kmeans -s workload.kmeans.points=20000 -s host.client_cache.size=128KiB
s-ch6-fig6.6|thesis-ch6-inputs.yaml|-s gpu.caching.remote=none -s gpu.caching.coalesce=l1l2 -s host.client_cache.size=512KiB -s workload.kind=nw -s link.variable_transfers=true -s link.bandwidth=90GB/s
s-ch6-fig6.7|thesis-ch6-inputs.yaml|-s gpu.caching.remote=readonly -s gpu.caching.coalesce=l1l2 -s host.client_cache.size=512KiB -s link.variable_transfers=true -s workload.kind=pathfinder -s gpu.caching.ro_zero_cost=false -s gpu.caching.ro_fault_latency=30us
s-ch6-fig6.8|thesis-ch6-inputs.yaml|-s driver.place.co_percent=90 -s workload.kind=backprop -s gpu.caching.remote=all -s gpu.caching.coalesce=none -s host.client_cache.size=512KiB -s link.variable_transfers=true
s-ch6-remark|thesis-ch6-inputs.yaml|-s gpu.caching.remote=readonly -s gpu.caching.coalesce=l1l2 -s host.client_cache.size=512KiB -s link.variable_transfers=true -s gpu.caching.ro_fault_latency=20us -s gpu.caching.ro_remark=never -s workload.kind=srad_v1 -s workload.srad_v1.iterations=2
'

wanted() {
    n=$1; shift
    [ $# -eq 0 ] && return 0
    for c in "$@"; do [ "$c" = "$n" ] && return 0; done
    return 1
}

# run BIN OUT ARGS...: writes OUT.h5, OUT.time (user+sys CPU seconds)
run() {
    bin=$1 out=$2
    shift 2
    # shellcheck disable=SC2086
    /usr/bin/time -f "%U %S" -o "$out.time" nice -n 10 "$bin" run "$@" ${REGRESS_ARGS:-} \
        -o "$out.h5" --quiet --no-host-metrics >"$out.log" 2>&1
}

# Values only: results since issue 38 hold fixed-length strings where
# older ones held variable-length ones (the same text).
rootattrs() {
    for a in uvmsim_version status seed sim_time_ps; do
        h5dump -a "/$a" "$1" 2>&1 | sed -n 's/^ *(0): *//p'
    done
}

# /config key by key: a key only NEW has (a new feature at its default)
# is no difference; the YAML text and its hash are left out with it.
PY=${PYTHON:-/usr/bin/python3}
[ -x "$PY" ] || PY=python3
cfgdiff() {
    "$PY" - "$1" "$2" 2>&1 <<'PY'
import sys, h5py
a = h5py.File(sys.argv[1], "r")["config"].attrs
b = h5py.File(sys.argv[2], "r")["config"].attrs
t = lambda v: v.decode() if isinstance(v, bytes) else str(v)   # fixed or variable length
bad = [k for k in a if k not in ("yaml", "yaml_hash") and (k not in b or t(a[k]) != t(b[k]))]
print(" ".join(bad))
sys.exit(1 if bad else 0)
PY
}

cpu() { awk '{ printf "%.2f", $1 + $2 }' "$1.time" 2>/dev/null || echo "-"; }

# The placement profiles the oracle / annotated points read: written once
# by the base binary (an input to both runs, not a result compared).
profile() {
    [ -f "$DIR/$1.prof" ] && return 0
    nice -n 10 "$A" profile "$CFG/$2" -s workload.kind="$3" -o "$DIR/$1.prof" --quiet \
        >"$DIR/$1.prof.log" 2>&1
}

echo "$CASES" | while IFS='|' read -r name cfg args; do
    [ -n "$name" ] || continue
    # shellcheck disable=SC2086
    wanted "$name" "$@" || continue
    case $args in
    *@PROF4@*) profile ch4-hotspot thesis-ch4-inputs.yaml hotspot
               args=$(echo "$args" | sed "s|@PROF4@|$DIR/ch4-hotspot.prof|g") ;;
    *@PROF5@*) profile ch5-pathfinder thesis-ch5-inputs.yaml pathfinder
               args=$(echo "$args" | sed "s|@PROF5@|$DIR/ch5-pathfinder.prof|g") ;;
    esac
    # shellcheck disable=SC2086
    run "$A" "$DIR/$name.base" "$CFG/$cfg" $args &
    pa=$!
    # shellcheck disable=SC2086
    run "$B" "$DIR/$name.new" "$CFG/$cfg" $args
    rb=$?
    wait $pa
    ra=$?
    if [ $ra -eq 2 ] && [ $rb -eq 2 ] &&
       [ "$(grep -v '^Command exited' "$DIR/$name.base.log")" = "$(grep -v '^Command exited' "$DIR/$name.new.log")" ]; then
        printf '%-14s refused    (both: %s)\n' "$name" "$(head -1 "$DIR/$name.new.log")"
        continue
    fi
    if [ $ra -ne 0 ] || [ $rb -ne 0 ]; then
        printf '%-14s FAILED (exit %s / %s; see %s)\n' "$name" $ra $rb "$DIR/$name.*.log"
        echo 1 >"$DIR/.failed"
        continue
    fi
    d=$(h5diff --exclude-path /host --exclude-attribute / --exclude-attribute /config \
            "$DIR/$name.base.h5" "$DIR/$name.new.h5" 2>&1)
    hd=$?
    c=$(cfgdiff "$DIR/$name.base.h5" "$DIR/$name.new.h5") || { hd=1; d="$d
/config keys differ: $c"; }
    rootattrs "$DIR/$name.base.h5" >"$DIR/$name.base.root"
    rootattrs "$DIR/$name.new.h5" >"$DIR/$name.new.root"
    if [ $hd -eq 0 ] && cmp -s "$DIR/$name.base.root" "$DIR/$name.new.root"; then
        printf '%-14s same       cpu %7s s base, %7s s new\n' "$name" \
            "$(cpu "$DIR/$name.base")" "$(cpu "$DIR/$name.new")"
    else
        printf '%-14s DIFFERENT  (%s)\n' "$name" "$DIR/$name.{base,new}.h5"
        echo "$d" | head -20 | sed 's/^/    /'
        diff "$DIR/$name.base.root" "$DIR/$name.new.root" | head -10 | sed 's/^/    /'
        echo 1 >"$DIR/.failed"
    fi
done

if [ -f "$DIR/.failed" ]; then
    echo "regress.sh: differences; results kept in $DIR"
    exit 1
fi
[ -n "${REGRESS_KEEP:-}" ] || rm -rf "$DIR"
echo "regress.sh: all cases identical"
