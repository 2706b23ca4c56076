#!/bin/sh
# workload.kind=accelsim end to end: a hand-written Accel-Sim trace (plain
# and xz) runs; damaged traces name FILE:LINE with exit 2 and no output; a
# workload exported with `uvmsim trace export` replays to the same /stats.
. "$(dirname "$0")/../e2e_lib.sh"

T="$TMP/t"
mkdir -p "$T"
hdr() {
    printf '%s\n' "-kernel name = k" "-kernel id = 1" "-grid dim = (2,1,1)" "-block dim = (32,1,1)" \
        "-shmem = 0" "-nregs = 8" "-binary version = 70" "-cuda stream id = 0" \
        "-shmem base_addr = 0x00007f5000000000" "-local mem base_addr = 0x00007f5001000000" \
        "-nvbit version = 1.5.5" "-accelsim tracer version = 4" "-enable lineinfo = 0" "" \
        "#traces format = [line_num] PC mask ..." ""
}
{
    hdr
    printf '%s\n' "#BEGIN_TB" "" "thread block = 0,0,0" "" "warp = 0" "insts = 4" \
        "0000 ffffffff 1 R1 IMAD 2 R2 R3 0" \
        "0010 0000000f 1 R4 LDG.E 1 R2 4 0 0x7f0000000000 0x7f0000000004 0x7f0000000008 0x7f000000000c" \
        "0020 ffffffff 0 STG.E 2 R2 R4 4 1 0x7f0000001000 4" \
        "0030 ffffffff 0 EXIT 0 0" "" "#END_TB" \
        "#BEGIN_TB" "thread block = 1,0,0" "warp = 0" "insts = 2" \
        "0000 00000011 0 ATOMG.E.ADD 2 R2 R4 4 2 0x7f0000002000 64" \
        "0010 ffffffff 0 EXIT 0 0" "#END_TB"
} >"$T/kernel-1.traceg"
printf 'MemcpyHtoD,0x00007f0000000000,4096\nkernel-1.traceg\n' >"$T/kernelslist.g"
RUN="$UVMSIM run /dev/null --quiet $SMALL -s workload.kind=accelsim"
$RUN -o "$TMP/h.h5" -s workload.accelsim.file="$T/kernelslist.g" 2>"$TMP/err"; rc=$?
check "hand-written trace replays (exit 0)" [ "$rc" -eq 0 ]
mkdir -p "$TMP/x"
cp "$T/kernel-1.traceg" "$TMP/x/" && xz "$TMP/x/kernel-1.traceg"
printf 'MemcpyHtoD,0x00007f0000000000,4096\nkernel-1.traceg.xz\n' >"$TMP/x/kernelslist.g"
$RUN -o "$TMP/hx.h5" -s workload.accelsim.file="$TMP/x/kernelslist.g" 2>"$TMP/err"; rc=$?
check "the same trace xz-compressed replays (exit 0)" [ "$rc" -eq 0 ]
h5diff -q "$TMP/h.h5" "$TMP/hx.h5" /stats /stats >/dev/null 2>&1
check "plain and xz give the same /stats" [ $? -eq 0 ]

# bad NAME LINE-OF-kernel-1 REPLACEMENT WANT: line LINE of the good kernel
# replaced; exit 2, stderr names kernel-1.traceg:LINE and has WANT, no output
bad() {
    name=$1 line=$2 repl=$3 want=$4
    mkdir -p "$TMP/b"
    awk -v n="$line" -v r="$repl" 'NR == n { if (r != "DELETE") print r; next } { print }' \
        "$T/kernel-1.traceg" >"$TMP/b/kernel-1.traceg"
    printf 'kernel-1.traceg\n' >"$TMP/b/kernelslist.g"
    rm -f "$TMP/bad.h5"
    $RUN -o "$TMP/bad.h5" -s workload.accelsim.file="$TMP/b/kernelslist.g" >/dev/null 2>"$TMP/err"; rc=$?
    if [ "$rc" -eq 2 ] && grep -qF -- "kernel-1.traceg:$line: " "$TMP/err" && grep -qF -- "$want" "$TMP/err" &&
       [ "$(wc -l <"$TMP/err")" -eq 1 ] && [ ! -e "$TMP/bad.h5" ]; then ok "$name"
    else not_ok "$name: exit $rc, stderr: $(head -c 300 "$TMP/err")"; fi
}
bad "address list shorter than the mask" 24 \
    "0010 0000000f 1 R4 LDG.E 1 R2 4 0 0x7f0000000000 0x7f0000000004" "2 addresses for 4 active lanes"
bad "truncated instruction line" 25 "0020 ffffffff 0 STG.E 2 R2 R4 4 1 0x7f000" "expected the stride"
bad "unknown address format" 25 "0020 ffffffff 0 STG.E 2 R2 R4 4 7 0x7f0000001000 4" "unknown address format 7"
bad "deltas fewer than the lanes" 34 "0000 00000011 0 ATOMG.E.ADD 2 R2 R4 4 2 0x7f0000002000" "0 deltas for 2 active lanes"
bad "bad header" 3 "-grid dim = (2,1)" "bad header '-grid dim'"
sed -i 's/^-accelsim tracer version = 4$/-accelsim tracer version = 2/' "$T/kernel-1.traceg"
bad "tracer version 2 is refused" 17 "#BEGIN_TB" "tracer version 2: this reader reads versions 3 to 5"
sed -i 's/^-accelsim tracer version = 2$/-accelsim tracer version = 4/' "$T/kernel-1.traceg"
bad "insts count disagrees" 22 "insts = 5" "'insts = 5' but the warp has 4 instruction lines"
bad "thread block outside the grid" 19 "thread block = 2,0,0" "outside the grid"
bad "bad opcode characters" 23 "0000 ffffffff 1 R1 im\$ad 2 R2 R3 0" "opcode"
printf '0000 ffffffff 1 R1 IMAD 2 R2' >"$TMP/b/kernel-1.traceg.part"
{ head -n 22 "$T/kernel-1.traceg"; cat "$TMP/b/kernel-1.traceg.part"; } >"$TMP/b/kernel-1.traceg"
$RUN -o "$TMP/bad.h5" -s workload.accelsim.file="$TMP/b/kernelslist.g" >/dev/null 2>"$TMP/err"; rc=$?
check "file cut mid-line names file:line" sh -c "[ $rc -eq 2 ] && grep -qF 'kernel-1.traceg:23: truncated line' '$TMP/err'"
printf 'kernel-1.traceg\nMemcpyDtoD,0x0,8\n' >"$TMP/b/kernelslist.g"
$RUN -o "$TMP/bad.h5" -s workload.accelsim.file="$TMP/b/kernelslist.g" >/dev/null 2>"$TMP/err"; rc=$?
check "unknown command list line names list:line" sh -c "[ $rc -eq 2 ] && grep -qF 'kernelslist.g:2: unknown command' '$TMP/err'"
head -c 100 "$TMP/x/kernel-1.traceg.xz" >"$TMP/b/kernel-1.traceg.xz"
printf 'kernel-1.traceg.xz\n' >"$TMP/b/kernelslist.g"
$RUN -o "$TMP/bad.h5" -s workload.accelsim.file="$TMP/b/kernelslist.g" >/dev/null 2>"$TMP/err"; rc=$?
check "truncated xz is a user error" sh -c "[ $rc -eq 2 ] && grep -q 'kernel-1.traceg.xz' '$TMP/err'"

# Round trip: hotspot (compute runs, barriers, loads and stores) exported
# and replayed with its side file; the run's /stats are identical.
W="-s workload.kind=hotspot -s workload.hotspot.rows=64 -s workload.hotspot.cols=64"
M="-s sim.epoch=5us -s gpu.memory.capacity=64KiB"
"$UVMSIM" trace export /dev/null -o "$TMP/rt" $W 2>"$TMP/err"; rc=$?
check "trace export (exit 0)" [ "$rc" -eq 0 ]
"$UVMSIM" run /dev/null -o "$TMP/a.h5" --quiet $W $M
$RUN -o "$TMP/b.h5" $M -s workload.accelsim.file="$TMP/rt/kernelslist.g" \
    -s workload.accelsim.allocs="$TMP/rt/allocs.txt" 2>"$TMP/err"; rc=$?
check "exported trace replays (exit 0)" [ "$rc" -eq 0 ]
h5diff -q "$TMP/a.h5" "$TMP/b.h5" /stats /stats >/dev/null 2>&1
check "round trip: same /stats as the original run" [ $? -eq 0 ]
h5diff -q "$TMP/a.h5" "$TMP/b.h5" /kernels /kernels >/dev/null 2>&1
check "round trip: same /kernels" [ $? -eq 0 ]
for f in "$TMP"/rt/kernel-*.traceg; do xz "$f"; done
sed -i 's/\.traceg$/.traceg.xz/' "$TMP/rt/kernelslist.g"
$RUN -o "$TMP/c.h5" $M -s workload.accelsim.file="$TMP/rt/kernelslist.g" \
    -s workload.accelsim.allocs="$TMP/rt/allocs.txt" 2>"$TMP/err"
h5diff -q "$TMP/a.h5" "$TMP/c.h5" /stats /stats >/dev/null 2>&1
check "round trip through xz: same /stats" [ $? -eq 0 ]
"$UVMSIM" trace export /dev/null -o "$TMP/rt2" -s workload.kind=stream -s workload.stream.advice=preferred_host \
    >/dev/null 2>"$TMP/err"; rc=$?
check "export of advice is refused (exit 2)" sh -c "[ $rc -eq 2 ] && grep -q 'advice' '$TMP/err'"
check "a refused export leaves no files" [ -z "$(ls -A "$TMP/rt2")" ]
# The size cap: GUPS's init kernel alone writes 256 warps x 32 addresses of
# tens of bytes each, far past 64 KiB; stream of 64 KiB fits in 4 GiB.
"$UVMSIM" trace export /dev/null -o "$TMP/rt3" --max-size 64KiB -s workload.kind=gups \
    >/dev/null 2>"$TMP/err"; rc=$?
check "export past --max-size: exit 2, one line naming the option" \
    sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$TMP/err') -eq 1 ] && grep -q -- '--max-size' '$TMP/err'"
check "export past --max-size keeps nothing" [ -z "$(ls -A "$TMP/rt3")" ]
"$UVMSIM" trace export /dev/null -o "$TMP/rt4" --max-size 1zz >/dev/null 2>"$TMP/err"
check "a bad --max-size is a user error" [ $? -eq 2 ]
exit $FAILS
