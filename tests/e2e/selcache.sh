#!/bin/sh
# Selective caching (issue 20, thesis Ch. VI): the Ch. VI sweep files plan,
# and each variant of a sweep point runs a real workload for 60 us on the
# Table 6.3 machine (the sweeps themselves are the lead's to run).
. "$(dirname "$0")/../e2e_lib.sh"

for f in configs/sweeps/thesis-ch6-fig6.4.yaml configs/sweeps/thesis-ch6-fig6.5.yaml \
         configs/sweeps/thesis-ch6-fig6.6.yaml configs/sweeps/thesis-ch6-fig6.7.yaml \
         configs/sweeps/thesis-ch6-fig6.8.yaml; do
    check "plan $(basename "$f")" sh -c "\"$UVMSIM\" sweep plan \"$f\" >\"$TMP/plan\" 2>&1"
done
n=$(for f in configs/sweeps/thesis-ch6-fig6.*.yaml; do "$UVMSIM" sweep plan "$f"; done 2>/dev/null |
    sed -n 's/.*: \([0-9]*\) points.*/\1/p' | awk '{s += $1} END {print s}')
check "264 points in the Ch. VI sweeps (12 workloads)" test "$n" = 264

# One short run per variant: naive, L1+L2 coalescing with the client cache
# and variable transfers, read-only caching with the CPU stream on; each
# writes its result and registers the statistics of what it turned on.
run() {
    "$UVMSIM" run configs/thesis-ch6-inputs.yaml -s workload.kind=srad_v1 -s sim.max_time=60us \
        --quiet -o "$TMP/r.h5" "$@" >"$TMP/out" 2>&1 && test -s "$TMP/r.h5"
}
check "naive run" run -s gpu.caching.remote=none
check "naive: uncached lines counted" sh -c "h5ls \"$TMP/r.h5/stats/gpu/caching/uncached_lines\" >/dev/null"
check "coalescing + client cache + VT run" run -s gpu.caching.remote=none \
    -s gpu.caching.coalesce=l1l2 -s host.client_cache.size=512KiB -s link.variable_transfers=true
check "client cache statistics" sh -c "h5ls \"$TMP/r.h5/stats/host/client_cache/hits\" >/dev/null"
check "read-only caching + CPU stream run" run -s gpu.caching.remote=readonly \
    -s gpu.caching.coalesce=l1l2 -s cpu.stream.interval=200ns
check "protection faults counted" sh -c "h5ls \"$TMP/r.h5/stats/gpu/caching/prot_faults\" >/dev/null"
check "directory inserts counted" sh -c "h5ls \"$TMP/r.h5/stats/remote_dir/inserts\" >/dev/null"
check "bad coalesce value: exit 2" sh -c "\"$UVMSIM\" config check configs/thesis-ch6.yaml \
    -s gpu.caching.coalesce=l3 >\"$TMP/e\" 2>&1; test \$? = 2"
exit $((FAILS > 0))
