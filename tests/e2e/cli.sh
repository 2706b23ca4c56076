#!/bin/sh
# The command line as a user drives it.
. "$(dirname "$0")/../e2e_lib.sh"

"$UVMSIM" --version | grep -q '^uvmsim [0-9]' ; check "--version" [ $? -eq 0 ]
for c in "--help" "run --help" "config --help" "config doc --help" "replay --help" \
         "dram-replay --help" "workloads --help" "trace --help"; do
    # shellcheck disable=SC2086
    "$UVMSIM" $c >"$TMP/help" 2>&1; rc=$?
    check "$c exits 0 with usage" [ $rc -eq 0 ] && grep -q usage "$TMP/help"
done
"$UVMSIM" frobnicate 2>/dev/null; check "unknown command exits 2" [ $? -eq 2 ]
"$UVMSIM" run 2>/dev/null; check "run without CONFIG exits 2" [ $? -eq 2 ]
"$UVMSIM" run configs/default.yaml --bogus 2>/dev/null; check "unknown option exits 2" [ $? -eq 2 ]

# A run writes its result only on success, and prints a summary.
# shellcheck disable=SC2086
"$UVMSIM" run configs/default.yaml $SMALL -o "$TMP/r.h5" >"$TMP/out" 2>"$TMP/err"
rc=$?
check "run exits 0" [ $rc -eq 0 ]
check "result written" [ -s "$TMP/r.h5" ]
check "no temporary left" [ -z "$(ls "$TMP" | grep tmp)" ]
check "summary names host speed" grep -q "cycles/s" "$TMP/out"
check "no progress line when stderr is not a terminal" [ ! -s "$TMP/err" ]
# shellcheck disable=SC2086
"$UVMSIM" run configs/default.yaml $SMALL --quiet -o "$TMP/q.h5" >"$TMP/out"
check "--quiet prints nothing" [ ! -s "$TMP/out" ]

# Default output name: the config's name with .h5, in the current directory.
cp configs/default.yaml "$TMP/mymachine.yaml"
# shellcheck disable=SC2086
(cd "$TMP" && "$OLDPWD/$UVMSIM" run mymachine.yaml $SMALL --quiet)
check "default output name" [ -s "$TMP/mymachine.h5" ]

# An unwritable output place is a user error before any simulation.
"$UVMSIM" run configs/default.yaml -o "$TMP/no/such/dir/r.h5" 2>"$TMP/err"
check "missing output directory exits 2" [ $? -eq 2 ]
check "and says where" grep -q "no/such/dir" "$TMP/err"

# The watchdog aborts (exit 3) with a dump of waiting warps, no output.
# 10 ns: above the shortest access (the floor: tlb.l1.latency 1 + gpu.l1d.latency
# 3 = 4 core cycles at 1.4 GHz = 2.9 ns) and below the first translation
# (an L2 TLB miss and a page walk), so every warp still waits on memory.
# shellcheck disable=SC2086
"$UVMSIM" run configs/default.yaml $SMALL -s sim.watchdog=10ns -o "$TMP/w.h5" 2>"$TMP/err" >/dev/null
check "watchdog exits 3" [ $? -eq 3 ]
check "watchdog names itself and the time" grep -q "internal error in watchdog at t=" "$TMP/err"
check "watchdog dumps warps" grep -q "warp .*: memory" "$TMP/err"
check "watchdog leaves no result" [ ! -e "$TMP/w.h5" ]

# A watchdog below the shortest access can never pass (issue 38 E2): refused
# by the checks with its location and the floor.  configs/tour.yaml: gpu.clock
# 1 GHz, tlb.l1.latency 1, gpu.l1d.latency 3 (default): 4 cycles = 4000 ps.
printf 'base: %s/configs/tour.yaml\nsim:\n  watchdog: 3999ps\n' "$PWD" >"$TMP/wd.yaml"
"$UVMSIM" config check "$TMP/wd.yaml" >"$TMP/out" 2>"$TMP/err"
check "a watchdog below one access: config check exits 2" [ $? -eq 2 ]
check "a watchdog below one access: one line" [ "$(wc -l <"$TMP/err")" -eq 1 ]
check "a watchdog below one access: located, the key and the floor named" \
    grep -q "^$TMP/wd.yaml:3:13: .*sim.watchdog .*(4000 ps)" "$TMP/err"
"$UVMSIM" run "$TMP/wd.yaml" -o "$TMP/wd.h5" >"$TMP/out" 2>"$TMP/err"
check "a watchdog below one access: run exits 2 before simulating, no result" \
    sh -c "[ $? -eq 2 ] && [ ! -e '$TMP/wd.h5' ] && grep -q 'sim.watchdog' '$TMP/err'"
"$UVMSIM" config check configs/tour.yaml -s sim.watchdog=4ns >"$TMP/out" 2>&1
check "a watchdog at the floor (4 ns) passes" [ $? -eq 0 ]
"$UVMSIM" config check configs/tour.yaml -s sim.watchdog=0 >"$TMP/out" 2>&1
check "sim.watchdog 0 (off) passes" [ $? -eq 0 ]

# A landed copy is progress: NW 1024 copies its two 1025^2 int matrices
# (8.4 MB) before the first kernel, over 0.7 ms at PCIe 3.0 x16's ~12 GB/s,
# in 2 MiB DMAs landing every ~0.17 ms: a 400 us watchdog must not fire
# (it did while only retired instructions and faults counted).
"$UVMSIM" run configs/gtx1660.yaml -s workload.kind=nw -s workload.nw.dim=1024 \
    -s sim.watchdog=400us -o "$TMP/wc.h5" --quiet 2>"$TMP/err"
check "a host copy longer than sim.watchdog completes" [ $? -eq 0 ]
first_start=$(h5dump -d /kernels "$TMP/wc.h5" 2>/dev/null | sed -n '/DATA {/,/}/p' | sed -n 5p | tr -d ' ,')
check "the copy outlasted the watchdog window (first kernel after 400 us)" \
    [ "${first_start:-0}" -gt 400000000 ]

# Limits end the run early but still write the result, with its status.
# shellcheck disable=SC2086
"$UVMSIM" run configs/default.yaml $SMALL -s sim.max_time=50us -o "$TMP/l.h5" >/dev/null 2>"$TMP/err"
check "time limit exits 0" [ $? -eq 0 ]
check "time limit warns" grep -q "sim.max_time" "$TMP/err"

# config show is complete and loads back to itself; config doc is the doc.
"$UVMSIM" config show configs/default.yaml >"$TMP/show.yaml"
check "config show exits 0" [ $? -eq 0 ]
"$UVMSIM" config show "$TMP/show.yaml" >"$TMP/show2.yaml"
check "config show round-trips" cmp -s "$TMP/show.yaml" "$TMP/show2.yaml"
check "config show lists defaults" grep -q "max_warps: 48" "$TMP/show.yaml"
"$UVMSIM" config check configs/default.yaml >/dev/null
check "config check of default passes" [ $? -eq 0 ]
"$UVMSIM" config doc >"$TMP/config.md"
check "docs/config.md is generated from the schema (make docs)" cmp -s "$TMP/config.md" docs/config.md
for f in configs/*.yaml; do
    "$UVMSIM" config check "$f" >/dev/null; check "config check $f" [ $? -eq 0 ]
done

# Root-chunk eviction is the real driver's age order: driver.eviction fifo only.
"$UVMSIM" run configs/default.yaml $SMALL -s driver.eviction=hpe -s driver.evict_unit=chunk \
    -o "$TMP/c.h5" 2>"$TMP/err" >/dev/null
check "evict_unit=chunk with hpe exits 2" [ $? -eq 2 ]
check "and names the key" grep -q "driver.evict_unit" "$TMP/err"

# Policy-only replay: 1 2W 3 1 4 5 1 with 3 frames under LRU faults 5 times,
# evicts 2 (dirty: one write-back) and 3.
printf '1\n2 W\n3\n1\n4\n5\n1\n' >"$TMP/pages.txt"
"$UVMSIM" replay --pages "$TMP/pages.txt" --frames 3 --policy lru >"$TMP/out"
check "replay exits 0" [ $? -eq 0 ]
check "replay counts faults" grep -q "^faults *5$" "$TMP/out"
check "replay counts write-backs" grep -q "^writebacks *1$" "$TMP/out"
printf '1\nseven\n' >"$TMP/bad.txt"
"$UVMSIM" replay --pages "$TMP/bad.txt" --frames 3 --policy lru 2>"$TMP/err" >/dev/null
check "replay bad line exits 2" [ $? -eq 2 ]
check "replay bad line names file:line" grep -q "bad.txt:2:" "$TMP/err"
"$UVMSIM" replay --pages "$TMP/none.txt" --frames 3 --policy lru 2>/dev/null
check "replay missing file exits 2" [ $? -eq 2 ]
"$UVMSIM" replay --pages "$TMP/pages.txt" --frames 3 --policy nope 2>/dev/null
check "replay unknown policy exits 2" [ $? -eq 2 ]

# Belady on 1 2 3 4 1 2 5 1 2 3 4 5 with 3 frames: 7 faults (the textbook
# string); FIFO: 9.
printf '1\n2\n3\n4\n1\n2\n5\n1\n2\n3\n4\n5\n' >"$TMP/belady.txt"
"$UVMSIM" replay --pages "$TMP/belady.txt" --frames 3 --policy ideal >"$TMP/out"
check "replay ideal: 7 faults" grep -q "^faults *7$" "$TMP/out"
"$UVMSIM" replay --pages "$TMP/belady.txt" --frames 3 --policy fifo >"$TMP/out"
check "replay fifo: 9 faults" grep -q "^faults *9$" "$TMP/out"
check "replay prints evict.victims" grep -q "^evict.victims *6$" "$TMP/out"
# HPE on a loop of 64 pages (four 16-page sets, every page faulted once)
# in 48 frames: classified regular at the first fill.
i=0; : >"$TMP/loop.txt"
while [ $i -lt 128 ]; do echo $((i % 64)) >>"$TMP/loop.txt"; i=$((i + 1)); done
"$UVMSIM" replay --pages "$TMP/loop.txt" --frames 48 --policy hpe >"$TMP/out" 2>"$TMP/err"
check "replay hpe: no event line on stdout (nor stderr) without --verbose" \
    sh -c "! grep -q 'event=' '$TMP/out' && test ! -s '$TMP/err' && grep -q '^evict.hpe.class  *1$' '$TMP/out'"
"$UVMSIM" replay --pages "$TMP/loop.txt" --frames 48 --policy hpe --verbose >"$TMP/vout" 2>"$TMP/err"
check "replay hpe --verbose reports its class on stderr" grep -q "^evict_hpe: fault=48 event=class regular" "$TMP/err"
check "... stdout the same as without --verbose" cmp -s "$TMP/out" "$TMP/vout"
"$UVMSIM" replay --pages "$TMP/loop.txt" --frames 48 --policy hpe -s driver.evict.hpe.set_pages=12 2>"$TMP/err" >/dev/null
check "hpe set size not a power of two exits 2" [ $? -eq 2 ]
check "... naming the key" grep -q "driver.evict.hpe.set_pages" "$TMP/err"

[ "$FAILS" -eq 0 ]
