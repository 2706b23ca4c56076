#!/bin/sh
# The host side of the link (copy engines, D2H writer, host DDR4) runs
# ahead of the engine in its private loop (link_host_loop.c, issue 13); while
# any trace listens it runs in step, every host read an engine-ordered event.
# Both must give the same results wherever host memory is shared: H2D copies
# next to eviction write-backs (thrashing at oversubscription), with one copy
# engine and with two and a setup time, and the memcpy steps of a Rodinia
# program in both directions.  The in-step run must cost more engine events
# (else the comparison compares a path with itself).
. "$(dirname "$0")/../e2e_lib.sh"

if ! command -v h5diff >/dev/null 2>&1; then
    not_ok "h5diff not installed (apt-get install hdf5-tools)"
    exit 1
fi

attr() { h5dump -a "/$2" "$1" 2>/dev/null | sed -n 's/^ *(0): *//p' | head -n 1; }
stat0() { h5dump -d "/stats/$2" "$1" 2>/dev/null | sed -n 's/^ *(0): *//p' | head -n 1; }

same() {
    what=$1
    shift
    "$UVMSIM" run "$@" --quiet -o "$TMP/ahead.h5" || { not_ok "$what: run"; return; }
    "$UVMSIM" run "$@" --quiet -o "$TMP/step.h5" \
        --trace "$TMP/t.json" --trace-what kernels || { not_ok "$what: traced run"; return; }
    h5diff --exclude-path /host --exclude-attribute / "$TMP/ahead.h5" "$TMP/step.h5" >"$TMP/diff" 2>&1
    check "$what: same statistics, series and records ahead or in step" [ $? -eq 0 ]
    check "$what: same end time" [ "$(attr "$TMP/ahead.h5" sim_time_ps)" = "$(attr "$TMP/step.h5" sim_time_ps)" ]
    ea=$(attr "$TMP/ahead.h5" events)
    es=$(attr "$TMP/step.h5" events)
    check "$what: in step costs more engine events ($es > $ea)" [ "$es" -gt "$ea" ]
    r=$(stat0 "$TMP/ahead.h5" host/dram/reads)
    w=$(stat0 "$TMP/ahead.h5" host/dram/writes)
    check "$what: host memory read ($r) and written ($w)" [ "$r" -gt 0 ] && [ "$w" -gt 0 ]
}

THRASH="configs/default.yaml -s workload.kind=pattern -s workload.pattern.type=thrashing"
# shellcheck disable=SC2086
same "thrashing, 1 copy engine" $THRASH
# shellcheck disable=SC2086
same "thrashing, 2 copy engines, 2 us setup" $THRASH -s link.copy_engines=2 -s link.ce_setup=2us
same "backprop memcpy steps at 50 %" configs/default.yaml -s workload.kind=backprop \
    -s workload.backprop.in=16384 -s gpu.memory.fraction=50%

[ "$FAILS" -eq 0 ]
