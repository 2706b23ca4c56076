#!/bin/sh
# Issue 12, end to end: every defect the fuzzing review found, as the user
# meets it.  Each case is named "12.N" after the issue's numbered list.
. "$(dirname "$0")/../e2e_lib.sh"
REG=tests/fuzz/regressions

# user_err NAME WANT CMD...: exit 2, exactly one line on stderr containing
# WANT, no control character in it, no result ($TMP/out.h5 or a temporary).
user_err() {
    name=$1 want=$2
    shift 2
    rm -f "$TMP/out.h5" "$TMP"/out.h5.tmp*
    "$@" >"$TMP/stdout" 2>"$TMP/stderr" </dev/null
    rc=$?
    why=""
    if [ "$rc" -ne 2 ]; then why="exit $rc, expected 2"
    elif [ "$(wc -l <"$TMP/stderr")" -ne 1 ]; then why="stderr is not one line"
    elif LC_ALL=C grep -q '[[:cntrl:]]' "$TMP/stderr"; then why="control character on stderr"
    elif ! grep -qF -- "$want" "$TMP/stderr"; then why="stderr lacks '$want'"
    elif [ -e "$TMP/out.h5" ] || ls "$TMP" | grep -q 'out.h5.tmp'; then why="a result was written"
    fi
    if [ -z "$why" ]; then ok "$name"
    else not_ok "$name: $why; stderr: $(head -c 300 "$TMP/stderr" | tr '\n' '|')"; fi
}
RUN="$UVMSIM run /dev/null -o $TMP/out.h5 --quiet"

# ---- 12.1: a Matrix Market entry count of 2^61 (nnz * 8 wrapped to 0) ----
printf '%%%%MatrixMarket matrix coordinate pattern general\n2 2 2305843009213693952\n1 2\n' >"$TMP/big.mtx"
user_err "12.1 mtx: 2^61 entries refused at the header line" "$TMP/big.mtx:2: " \
    $RUN -s workload.kind=bfs_ttc -s workload.graph.input=mtx -s workload.graph.file="$TMP/big.mtx"

# ---- 12.2: an edge list whose one vertex id makes a 3.7e9-vertex CSR ----
# (88 GB: refused wherever the machine has less; tests/unit/test_robust.c
# checks the bound against a set limit on any machine.)
printf '0 3666666666\n' >"$TMP/big.el"
mem_kb=$(sed -n 's/^MemTotal: *\([0-9]*\) kB/\1/p' /proc/meminfo)
if [ -n "$mem_kb" ] && [ "$mem_kb" -lt 80000000 ]; then
    user_err "12.2 edge list: a vertex id too large for host memory is FILE:LINE, exit 2" \
        "$TMP/big.el:1: 3666666667 vertices" \
        $RUN -s workload.kind=bfs_ttc -s workload.graph.input=edgelist -s workload.graph.file="$TMP/big.el"
else
    ok "12.2 edge list (skipped: this machine has 80 GB or more)"
fi

# ---- 12.3: trace addresses beyond 64 bits ----
addrs() { i=0; s=""; while [ $i -lt 32 ]; do s="$s $(printf '0x%016x' $(($1 + 4 * i)))"; i=$((i + 1)); done; echo "$s"; }
LAUNCH="MEMTRACE: CTX 0x1 - LAUNCH - Kernel pc 0x2 - Kernel name k - grid launch id 0 - grid size 1,1,1 - block size 32,1,1 - nregs 8 - shmem 0 - cuda stream id 0"
{ echo "$LAUNCH"; echo "MEMTRACE: CTX 0x1 - grid_launch_id 0 - CTA 0,0,0 - warp 0 - LDG.E - 0x10000000000000000 $(addrs 0x7f0000000000 | cut -d' ' -f3-)"; } >"$TMP/wide.txt"
user_err "12.3 text trace: a 17-digit address is FILE:LINE" "$TMP/wide.txt:2: address 1 of 32: more than 64 bits" \
    "$UVMSIM" trace convert "$TMP/wide.txt" "$TMP/out.bin"
{ echo "$LAUNCH"; echo "MEMTRACE: CTX 0x1 - grid_launch_id 0 - CTA 0,0,0 - warp 0 - LDG.E - 0xfffffffffffffffe $(addrs 0x7f0000000000 | cut -d' ' -f3-)"; } >"$TMP/wrap.txt"
user_err "12.3 text trace: 4 bytes from 2^64-2 pass the end of the address space" "$TMP/wrap.txt:2: address 1 of 32" \
    "$UVMSIM" trace convert "$TMP/wrap.txt" "$TMP/out.bin"
user_err "12.3 binary trace: an access wrapping past 2^64 is outside every range" \
    "issue12-3-access-wraps-2e64.bin: corrupt trace at byte offset" \
    $RUN -s workload.kind=trace -s workload.trace.file=$REG/bintrace/issue12-3-access-wraps-2e64.bin -s gpu.memory.capacity=1MiB
check "12.3 nothing converted" [ ! -e "$TMP/out.bin" ]

# ---- 12.4: a binary trace with a 2^57-byte range (was exit 3 in the chunk allocator) ----
user_err "12.4 a 2^57-byte trace range is a located user error" \
    "key 'workload.trace.file': allocation 'trace.range0' of 144115188075855872 bytes" \
    $RUN -s workload.kind=trace -s workload.trace.file=$REG/bintrace/issue12-4-range-2e57.bin

# The same assertion was reachable from a config value alone (exit 3), and
# GPU memory whose frame table outgrows host memory was exit 1.
user_err "12.4 GPU memory beyond 32-bit frame numbers is a located user error" \
    "-s 'gpu.memory.capacity=1000TB': key 'gpu.memory.capacity': GPU memory of 244140625000 pages" \
    $RUN -s gpu.memory.capacity=1000TB

# ---- 12.5: a launch without global accesses (qsort(NULL, 0) under UBSan) ----
echo "$LAUNCH" >"$TMP/empty.txt"
"$UVMSIM" trace convert "$TMP/empty.txt" "$TMP/empty.bin" 2>"$TMP/err"
check "12.5 a launch without accesses converts (exit 0, no sanitizer report)" [ $? -eq 0 ] && [ ! -s "$TMP/err" ]

# ---- 12.6: checks across keys name the user's key, where, and the other's origin ----
user_err "12.6 data_rate vs the default burst length names -s data_rate" \
    "-s 'dram.data_rate=3': key 'dram.data_rate': " \
    "$UVMSIM" config check /dev/null -s dram.data_rate=3
check "12.6 ... and says the burst length is the default" grep -qF "dram.burst_length=8: default" "$TMP/stderr"
printf 'dram:\n  bus_width: 7B\n' >"$TMP/bw.yaml"
user_err "12.6 bus_width: 7B names FILE:LINE:COL of bus_width" \
    "$TMP/bw.yaml:2:14: key 'dram.bus_width': " "$UVMSIM" config check "$TMP/bw.yaml"
user_err "12.6 the same from run" "$TMP/bw.yaml:2:14: key 'dram.bus_width': " \
    "$UVMSIM" run "$TMP/bw.yaml" -o "$TMP/out.h5"

# ---- 12.7: config check runs every check run runs ----
# "SETS|WANT": the -s options, and the start of the one-line error.
for c in "tlb.l2.entries=1|-s 'tlb.l2.entries=1': key 'tlb.l2.entries': " \
         "gpu.memory.fraction=0.0001%|-s 'gpu.memory.fraction=0.0001%': key 'gpu.memory.fraction': " \
         "workload.kind=trace|-s 'workload.kind=trace': key 'workload.kind': workload.trace.file: needed" \
         "workload.kind=bfs_ttc -s workload.graph.input=mtx|-s 'workload.graph.input=mtx': key 'workload.graph.input': workload.graph.file: needed"; do
    s=${c%%|*} want=${c#*|}
    # shellcheck disable=SC2086
    user_err "12.7 config check refuses -s $s with its location" "$want" \
        "$UVMSIM" config check /dev/null -s $s
    # shellcheck disable=SC2086
    user_err "12.7 run refuses -s $s the same way" "$want" $RUN -s $s
done
printf '%%%%MatrixMarket matrix coordinate pattern symmetric\n4 4 3\n2 1\n3 2\n4 3\n' >"$TMP/path.mtx"
user_err "12.7 a tiny graph under the default fraction: its keys and the fraction" \
    "key 'workload.graph.input': GPU memory of 105 bytes (gpu.memory.fraction = 100% of the 105-byte footprint of workload.graph.input, workload.graph.file," \
    "$UVMSIM" config check /dev/null -s workload.kind=bfs_ttc -s workload.graph.input=mtx \
    -s workload.graph.file="$TMP/path.mtx"

# ---- 12.8: config show always loads back ----
val=$(printf 'a\302\205b\342\200\250c\033d"e\\f\tg')
"$UVMSIM" config show /dev/null -s "workload.trace.file=$val" >"$TMP/s1.yaml"
"$UVMSIM" config show "$TMP/s1.yaml" >"$TMP/s2.yaml" 2>"$TMP/err"
check "12.8 show -> show of NEL, U+2028, ESC, quote, backslash, tab is identical" cmp -s "$TMP/s1.yaml" "$TMP/s2.yaml"
user_err "12.8 a value that is not UTF-8 is refused" "value is not UTF-8 text (byte 2 is 0xff)" \
    "$UVMSIM" config show /dev/null -s "$(printf 'workload.trace.file=a\377')"

# ---- 12.9: control characters in keys and values are escaped ----
user_err "12.9 an ESC and a newline in a key come out escaped" "sim.se\\x1b[31m\\ned" \
    "$UVMSIM" config check /dev/null -s "$(printf 'sim.se\033[31m\ned=1')"
printf 'sim:\n  seed: "1\\u001b[2J"\n' >"$TMP/esc.yaml"
user_err "12.9 ... and in a YAML value" "got '1\\x1b[2J'" "$UVMSIM" config check "$TMP/esc.yaml"

# ---- 12.10: -o onto something that is not a regular file ----
SMALLRUN="$UVMSIM run /dev/null -s workload.stream.footprint=256KiB --quiet"
ln -s "$TMP/target.h5" "$TMP/link.h5"
user_err "12.10 -o a symbolic link is refused" "-o $TMP/link.h5: it is a symbolic link" $SMALLRUN -o "$TMP/link.h5"
check "12.10 ... and the link is left alone" [ -L "$TMP/link.h5" ] && [ ! -e "$TMP/target.h5" ]
mkfifo "$TMP/fifo"
user_err "12.10 -o a FIFO is refused" "it is a FIFO" $SMALLRUN -o "$TMP/fifo"
# Device nodes (-o /dev/null) are refused by the same check: tested without
# a run in tests/unit/test_robust.c, since a binary without the fix would
# replace /dev/null when the tests run as root.

# ---- 12.11: documented latencies at their maxima run with the default watchdog ----
"$UVMSIM" run /dev/null -o "$TMP/w1.h5" --quiet -s workload.stream.footprint=256KiB \
    -s driver.fault_latency=1s -s sim.epoch=10ms 2>"$TMP/err"
check "12.11 driver.fault_latency=1s completes (exit 0)" [ $? -eq 0 ]
"$UVMSIM" run /dev/null -o "$TMP/w2.h5" --quiet -s workload.stream.footprint=16KiB \
    -s gpu.memory.capacity=4KiB -s tlb.shootdown.cycles=1000000000 -s sim.epoch=1s 2>"$TMP/err"
check "12.11 tlb.shootdown.cycles=1e9 completes (exit 0)" [ $? -eq 0 ]

# ---- 12.12: one frame, 32 pages per warp instruction ----
# stream of 128 KiB at a 4 KiB lane stride: one warp, 32 pages per
# instruction, 2 passes of load + store = 4 memory instructions.  With one
# frame, each instruction finds at most one of its pages resident, so at
# least 4 x 31 = 124 pages migrate; none of it may stall.
for p in block once; do
    "$UVMSIM" run /dev/null -o "$TMP/l.h5" -s workload.stream.footprint=128KiB \
        -s workload.stream.lane_stride=4KiB -s gpu.memory.capacity=4KiB \
        -s driver.replay_policy=$p >"$TMP/out" 2>"$TMP/err"
    rc=$?
    mig=$(sed -n 's/.* \([0-9]*\) pages migrated.*/\1/p' "$TMP/out")
    check "12.12 one frame, replay_policy=$p: completes (exit $rc)" [ $rc -eq 0 ]
    check "12.12 ... migrating at least 124 pages (got $mig)" [ "${mig:-0}" -ge 124 ]
done

# ---- 12.13: SIGINT / SIGTERM ----
LONG="run /dev/null -s workload.stream.footprint=512MiB --quiet"
# A background job of a script ignores SIGINT; env gives it back its default.
# shellcheck disable=SC2086
env --default-signal=INT,TERM "$UVMSIM" $LONG -o "$TMP/sig.h5" 2>"$TMP/err" &
pid=$!
sleep 1
kill -INT $pid; wait $pid; rc=$?
check "12.13 SIGINT stops the run with exit 130" [ $rc -eq 130 ]
check "12.13 ... saying so" grep -q "stopped by SIGINT; no result written" "$TMP/err"
check "12.13 ... and writes nothing" [ -z "$(ls "$TMP" | grep '^sig.h5')" ]
# SIGTERM while the result is being written (a long time series: 1 ns epochs).
# shellcheck disable=SC2086
env --default-signal=INT,TERM "$UVMSIM" run /dev/null -s workload.stream.footprint=2MiB \
    -s sim.epoch=1ns --quiet -o "$TMP/sig.h5" 2>"$TMP/err" &
pid=$!
n=0
while [ $n -lt 600 ] && ! ls "$TMP" | grep -q '^sig.h5.tmp'; do sleep 0.05; n=$((n + 1)); done
kill -TERM $pid; wait $pid; rc=$?
check "12.13 SIGTERM while writing exits 143 (saw the temporary: $n < 600)" [ $rc -eq 143 ] && [ $n -lt 600 ]
check "12.13 ... and removes the temporary file" [ -z "$(ls "$TMP" | grep '^sig.h5')" ]
# A temporary left by a process that is gone (SIGKILL, power loss) goes at
# the next run to the same path; one of a live process stays.
dead=$(sh -c 'echo $$')
touch "$TMP/st.h5.tmp.$dead" "$TMP/st.h5.tmp.$$" "$TMP/other.h5.tmp.$dead"
$SMALLRUN -o "$TMP/st.h5"
check "12.13 the next run removes a dead process's temporary" [ ! -e "$TMP/st.h5.tmp.$dead" ]
check "12.13 ... keeps a live process's one" [ -e "$TMP/st.h5.tmp.$$" ]
check "12.13 ... and another target's one" [ -e "$TMP/other.h5.tmp.$dead" ]

# ---- 12.14: byte-identical files without /host ----
$SMALLRUN --seed 7 --no-host-metrics -o "$TMP/a.h5"
$SMALLRUN --seed 7 --no-host-metrics -o "$TMP/b.h5"
check "12.14 --no-host-metrics: two runs give identical bytes" cmp -s "$TMP/a.h5" "$TMP/b.h5"
if command -v h5ls >/dev/null 2>&1; then
    check "12.14 ... and the file has no /host" sh -c "! h5ls '$TMP/a.h5' | grep -q '^host'"
fi
exit $FAILS
