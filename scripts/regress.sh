#!/bin/sh
# Behaviour regression between two builds (issue 13): both binaries run the
# same set of configs and their results must be identical but for host
# speed.  Compared: every dataset and attribute but /host (wall time, RSS,
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
    /usr/bin/time -f "%U %S" -o "$out.time" nice -n 10 "$bin" run "$@" \
        -o "$out.h5" --quiet >"$out.log" 2>&1
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

echo "$CASES" | while IFS='|' read -r name cfg args; do
    [ -n "$name" ] || continue
    # shellcheck disable=SC2086
    wanted "$name" "$@" || continue
    # shellcheck disable=SC2086
    run "$A" "$DIR/$name.base" "$CFG/$cfg" $args &
    pa=$!
    # shellcheck disable=SC2086
    run "$B" "$DIR/$name.new" "$CFG/$cfg" $args
    rb=$?
    wait $pa
    ra=$?
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
