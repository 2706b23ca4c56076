#!/bin/sh
# The host's read-back after the last kernel (workload.read_back,
# sim/runtime/rt_readback.c), numbers derived by hand:
# - vecadd n = 100000 on 2 MiB of GPU memory (no eviction: 3 x 98 pages
#   of 512 frames): off, nothing goes to the host; on, the one written
#   object C (4 n = 400000 B = ceil(400000 / 4096) = 98 pages) comes back:
#   98 pages, 98 x 4096 = 401408 D2H bytes;
# - fdtd2d 64 x 64, 2 time steps, on the GTX 1660 preset (driver-real.yaml
#   turns it on): ex, ey and hz are written (64 x 65, 65 x 64, 64 x 64
#   floats = 16640 + 16640 + 16384 = 49664 B = 5 + 5 + 4 = 14 pages,
#   57344 D2H bytes); _fict_ is only read;
# - backprop copies its results to the host itself (cudaMemcpy D2H in
#   its program): nothing is added.
. "$(dirname "$0")/../e2e_lib.sh"

stat0() { h5dump -d "/stats/$2" "$1" 2>/dev/null | sed -n 's/^ *(0): *//p' | head -n 1; }

VA="configs/default.yaml -s workload.kind=vecadd -s workload.vecadd.n=100000 -s gpu.memory.capacity=2MiB"
# shellcheck disable=SC2086
if "$UVMSIM" run $VA -o "$TMP/off.h5" --quiet && "$UVMSIM" run $VA -s workload.read_back=true -o "$TMP/on.h5" --quiet; then
    check "vecadd, read_back off: no D2H ($(stat0 "$TMP/off.h5" link/d2h/bytes))" \
        [ "$(stat0 "$TMP/off.h5" link/d2h/bytes)" = 0 ]
    check "vecadd, read_back on: C's 98 pages, 401408 B D2H ($(stat0 "$TMP/on.h5" driver/pages_to_host), $(stat0 "$TMP/on.h5" link/d2h/bytes))" \
        [ "$(stat0 "$TMP/on.h5" driver/pages_to_host)" = 98 ] && [ "$(stat0 "$TMP/on.h5" link/d2h/bytes)" = 401408 ] &&
        [ "$(stat0 "$TMP/on.h5" workload/read_back_objects)" = 1 ] && [ "$(stat0 "$TMP/on.h5" workload/read_back_bytes)" = 400000 ] &&
        [ "$(stat0 "$TMP/on.h5" driver/evictions)" = 0 ]
else
    not_ok "vecadd runs"
fi

if "$UVMSIM" run configs/gtx1660.yaml -s workload.kind=fdtd2d -s workload.fdtd2d.nx=64 -s workload.fdtd2d.ny=64 \
       -s workload.fdtd2d.tmax=2 -s gpu.memory.capacity=2MiB -o "$TMP/fd.h5" --quiet; then
    check "fdtd2d on the real-driver preset reads back ex, ey, hz: 3 objects, 49664 B, 14 pages, 57344 B D2H" \
        [ "$(stat0 "$TMP/fd.h5" workload/read_back_objects)" = 3 ] && [ "$(stat0 "$TMP/fd.h5" workload/read_back_bytes)" = 49664 ] &&
        [ "$(stat0 "$TMP/fd.h5" driver/pages_to_host)" = 14 ] && [ "$(stat0 "$TMP/fd.h5" link/d2h/bytes)" = 57344 ]
else
    not_ok "fdtd2d runs on gtx1660.yaml"
fi

if "$UVMSIM" run configs/gtx1660.yaml -s workload.kind=fdtd2d -s workload.fdtd2d.nx=64 -s workload.fdtd2d.ny=64 \
       -s workload.fdtd2d.tmax=2 -s gpu.memory.capacity=2MiB -s runtime.policy=um -o "$TMP/fdum.h5" --quiet; then
    check "fdtd2d under runtime.policy um: the same 3 objects, 14 pages" \
        [ "$(stat0 "$TMP/fdum.h5" workload/read_back_objects)" = 3 ] && [ "$(stat0 "$TMP/fdum.h5" driver/pages_to_host)" = 14 ]
else
    not_ok "fdtd2d runs under um"
fi

if "$UVMSIM" run configs/default.yaml -s workload.kind=backprop -s workload.backprop.in=1024 -s gpu.memory.fraction=100% \
       -s workload.read_back=true -o "$TMP/bp.h5" --quiet; then
    check "backprop copies its own results: nothing read back" [ "$(stat0 "$TMP/bp.h5" workload/read_back_objects)" = 0 ]
else
    not_ok "backprop runs"
fi
[ "$FAILS" = 0 ]
