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

ONE="-s workload.stream.block=32 -s workload.stream.grid=1 -s workload.stream.footprint=512KiB \
-s gpu.memory.fraction=50%"
for m in cycle fast; do
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

exit $((FAILS > 0))
