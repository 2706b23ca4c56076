#!/bin/sh
# sim.model (issue 41): the key, its refusal of what fast does not model,
# the model in the summary and the result, and a one-warp serial trace
# that faults the same pages in the same order in both models (the fault
# path is shared: only GPU memory's timing differs, so one warp that waits
# for each access before the next meets the same faults).
. "$(dirname "$0")/../e2e_lib.sh"

check "sim.model defaults to cycle" sh -c "\"$UVMSIM\" config show configs/default.yaml | grep -q '^ *model: cycle'"

"$UVMSIM" run configs/default.yaml -s sim.model=fast -s gpu.caching.remote=readonly \
    -o "$TMP/no.h5" >"$TMP/out" 2>"$TMP/err"
rc=$?
check "fast refuses selective caching (exit 2)" test $rc -eq 2
check "one line" test "$(wc -l <"$TMP/err")" -eq 1
check "it names the key and where it was set" \
    grep -q "^-s 'gpu.caching.remote=readonly': key 'gpu.caching.remote': sim.model fast does not model selective caching" "$TMP/err"
check "no result written" test ! -e "$TMP/no.h5"
"$UVMSIM" run configs/default.yaml -s sim.model=cycle-dram-server -s gpu.caching.remote=none \
    -o "$TMP/no2.h5" >"$TMP/out" 2>"$TMP/err"
check "a diagnostic model refuses it too (exit 2, named)" \
    sh -c "test $? -eq 2 && grep -q 'sim.model cycle-dram-server does not model selective caching' \"$TMP/err\""

ONE="-s workload.stream.block=32 -s workload.stream.grid=1 -s workload.stream.footprint=512KiB \
-s gpu.memory.fraction=50%"
# The diagnostics (cycle with one of fast's coarsenings) share the fault
# path too: the same faults in the same order.
for m in cycle fast cycle-dram-server cycle-tlb-lookup cycle-host-server; do
    # shellcheck disable=SC2086
    "$UVMSIM" run configs/default.yaml $ONE -s sim.model=$m -o "$TMP/$m.h5" \
        --trace "$TMP/$m.json" --trace-what faults >"$TMP/$m.out" 2>"$TMP/$m.err"
    check "$m: one warp runs" test -s "$TMP/$m.h5"
    check "$m: the summary names the model" grep -q "^  model   $m (sim.model)$" "$TMP/$m.out"
    check "$m: the result records it" sh -c "h5dump -a /config/sim.model \"$TMP/$m.h5\" | grep -q '\"$m\"'"
    grep '"fault logged"' "$TMP/$m.json" | sed 's/.*"args":\({[^}]*}\).*/\1/' >"$TMP/$m.faults"
done
check "one warp: faults on every page, evictions too" \
    sh -c "test \$(wc -l <\"$TMP/cycle.faults\") -ge 128 && grep -q 'evicted (' \"$TMP/cycle.out\""
check "one warp: the same faults in the same order in both models" cmp -s "$TMP/cycle.faults" "$TMP/fast.faults"
for m in cycle-dram-server cycle-tlb-lookup cycle-host-server; do
    check "one warp: $m faults as cycle" cmp -s "$TMP/cycle.faults" "$TMP/$m.faults"
done
# cycle-dram-server's GPU memory is the server: a read never waits in a
# queue (the FR-FCFS controller holds each one at least until scheduled),
# and the same 8192 line reads reach it.
qsum() { /usr/bin/python3 -c 'import h5py, sys
print(int(h5py.File(sys.argv[1], "r")["stats/dram/channel_read_queue_ps"][()].sum()))' "$1"; }
check "cycle: reads wait in the controller's queue" test "$(qsum "$TMP/cycle.h5")" -gt 0
check "cycle-dram-server: no read waits in a queue" test "$(qsum "$TMP/cycle-dram-server.h5")" -eq 0
check "cycle-dram-server: the same reads reach GPU memory" sh -c \
    "test \"\$(h5dump -d /stats/dram/reads \"$TMP/cycle.h5\" | grep '(0)')\" = \"\$(h5dump -d /stats/dram/reads \"$TMP/cycle-dram-server.h5\" | grep '(0)')\""

exit $((FAILS > 0))
