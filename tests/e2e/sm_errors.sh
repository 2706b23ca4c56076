#!/bin/sh
# Impossible GPU-core and cache configurations are user errors: exit 2, a
# message naming the key, no result file.
. "$(dirname "$0")/../e2e_lib.sh"

# expect_user_error NAME KEY ARGS...: run with ARGS, want exit 2 naming KEY
expect_user_error() {
    name=$1; key=$2; shift 2
    rm -f "$TMP/out.h5"
    "$UVMSIM" run configs/default.yaml "$@" -o "$TMP/out.h5" >"$TMP/o" 2>"$TMP/e"
    rc=$?
    if [ "$rc" -eq 2 ] && grep -q "$key" "$TMP/e" && [ ! -e "$TMP/out.h5" ]; then
        ok "$name"
    else
        not_ok "$name (exit $rc: $(cat "$TMP/e"))"
    fi
}

expect_user_error "an L1D smaller than one set" gpu.l1d.size -s gpu.l1d.size=256B
expect_user_error "an L2 slice smaller than one set" l2.size -s l2.size=1KiB
expect_user_error "more schedulers than warps" gpu.sm.schedulers \
    -s gpu.sm.max_warps=2 -s gpu.sm.schedulers=4
expect_user_error "a block that fits on no SM" gpu.sm.registers \
    -s workload.stream.block=1024 -s gpu.sm.registers=8192
expect_user_error "an unknown scheduler" gpu.sm.scheduler -s gpu.sm.scheduler=fifo
[ "$FAILS" -eq 0 ]
