#!/bin/sh
# `uvmsim trace convert` and trace replay end to end: a good trace converts
# and runs; malformed text names FILE:LINE, a damaged binary names the byte
# offset or the truncation, each with exit 2 and no output file.
. "$(dirname "$0")/../e2e_lib.sh"

addrs() { i=0; s=""; while [ $i -lt 32 ]; do s="$s $(printf '0x%016x' $(($1 + 4 * i)))"; i=$((i + 1)); done; echo "$s"; }
{
    echo "app output line"
    echo "MEMTRACE: CTX 0x1 - LAUNCH - Kernel pc 0x2 - Kernel name k - grid launch id 0 - grid size 2,1,1 - block size 32,1,1 - nregs 8 - shmem 0 - cuda stream id 0"
    echo "MEMTRACE: CTX 0x1 - grid_launch_id 0 - CTA 0,0,0 - warp 0 - LDG.E -$(addrs 0x7f0000000000)"
    echo "MEMTRACE: CTX 0x1 - grid_launch_id 0 - CTA 1,0,0 - warp 0 - STG.E -$(addrs 0x7f0000001000)"
} >"$TMP/good.txt"

"$UVMSIM" trace convert "$TMP/good.txt" "$TMP/good.bin" 2>"$TMP/err"; rc=$?
check "convert a good trace (exit 0)" [ "$rc" -eq 0 ]
check "binary starts with the magic" [ "$(head -c 8 "$TMP/good.bin")" = "UVMTRACE" ]
"$UVMSIM" run /dev/null -o "$TMP/r.h5" --quiet -s workload.kind=trace \
    -s workload.trace.file="$TMP/good.bin" -s gpu.memory.capacity=1MiB 2>"$TMP/err"; rc=$?
check "replay the binary (exit 0)" [ "$rc" -eq 0 ]
"$UVMSIM" trace --help | grep -q "usage: uvmsim trace convert"
check "trace --help" [ $? -eq 0 ]
"$UVMSIM" trace convert "$TMP/good.txt" >/dev/null 2>&1; rc=$?
check "trace convert without OUT is a usage error (exit 2)" [ "$rc" -eq 2 ]

# fails NAME WANT CMD...: exit 2, stderr has WANT, $TMP/out.bin absent
fails() {
    name=$1 want=$2
    shift 2
    rm -f "$TMP/out.bin" "$TMP"/out.bin.tmp*
    "$@" >/dev/null 2>"$TMP/err"; rc=$?
    if [ "$rc" -eq 2 ] && grep -qF -- "$want" "$TMP/err" && [ ! -e "$TMP/out.bin" ] &&
       ! ls "$TMP" | grep -q 'out.bin.tmp'; then ok "$name"
    else not_ok "$name: exit $rc, stderr: $(head -c 200 "$TMP/err")"; fi
}

{ head -n 3 "$TMP/good.txt"; echo "MEMTRACE: CTX 0x1 - grid_launch_id 0 - CTA 1,0,0 - warp 0 - STG.E - 0x10 zz"; } >"$TMP/bad.txt"
fails "malformed text line names file:line" "$TMP/bad.txt:4:" \
    "$UVMSIM" trace convert "$TMP/bad.txt" "$TMP/out.bin"
fails "missing text trace" "cannot read trace" "$UVMSIM" trace convert "$TMP/nope.txt" "$TMP/out.bin"
size=$(wc -c <"$TMP/good.bin")
head -c $((size - 3)) "$TMP/good.bin" >"$TMP/trunc.bin"
fails "truncated binary names the sizes" "header says $size bytes" \
    "$UVMSIM" run /dev/null -o "$TMP/r.h5" --quiet -s workload.kind=trace -s workload.trace.file="$TMP/trunc.bin"
# the last record's opcode byte: records are 6 B of op/size/mask, 8 B of
# lane 0's address and 31 one-byte deltas (coalesced, +4 B): 45 B each
cp "$TMP/good.bin" "$TMP/bad.bin"
printf '\011' | dd of="$TMP/bad.bin" bs=1 seek=$((size - 45)) conv=notrunc 2>/dev/null
fails "corrupt record names its byte offset" "corrupt trace at byte offset $((size - 45))" \
    "$UVMSIM" run /dev/null -o "$TMP/r.h5" --quiet -s workload.kind=trace -s workload.trace.file="$TMP/bad.bin" \
    -s gpu.memory.capacity=1MiB
fails "missing trace file names the key" "key 'workload.trace.file'" \
    "$UVMSIM" run /dev/null -o "$TMP/r.h5" --quiet -s workload.kind=trace -s workload.trace.file="$TMP/nope.bin"
exit $FAILS
