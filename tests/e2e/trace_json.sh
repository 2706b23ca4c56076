#!/bin/sh
# uvmsim run --trace: Chrome trace-event JSON of a tiny crafted run, checked
# as a user would load it (json.load), against a timeline derived by hand.
#
# The run: configs/tour.yaml, one SM, one warp (stream, 32 threads, 128 B
# apart: one 4 KiB page per load), four pages read once, two frames.  Every
# key the timeline depends on is pinned there; the derivation of page 0's
# fault:
#   t = 0        the kernel starts (gpu.kernel_launch_latency 0ns), the
#                warp issues its load: its "memory" slice starts at 0.
#   1 ns         the SM sends the translation at its next cycle (an SM tick
#                sends waiting translations before it issues; gpu.clock
#                1GHz: 1 cycle = 1 ns).
#   2 ns         L1 TLB lookup (tlb.l1.latency 1 cycle), miss.
#   12 ns        L2 TLB lookup (tlb.l2.latency 10 cycles), miss; the walk
#                starts at once (gmmu.walker.mode fixed: no queue latency).
#   20 ns        the walk ends (gmmu.walk_latency 8 cycles) and logs the
#                fault: walk slice [0.012, 0.020] us, the flow starts at
#                0.012; the warp is fault-stalled from 0.020.
#   20 ns        the driver wakes (gmmu.interrupt_latency 0ns, driver.clock
#                1GHz: an edge every ns) and fetches batch 1: flow step at
#                0.020, batch slice from 0.020.
#   20.020 us    fault handling ends (driver.fault_latency 20us,
#                driver.fault_cost 0ns, driver.block_cost 0ns); migration
#                and the H2D DMA start (link.ce_setup 0ns, one copy engine).
#   DMA end      = 20.020 us + H + 4480 B / 16 GB/s + 1 us: 16 completions
#                of 256 B + 24 B header (link.rcb 0: completions of
#                link.max_payload 256B; link.completion_header 24B;
#                link.encoding none; link.dllp_interval 0; link.bandwidth
#                16GB/s) = 280 ns on the wire, link.latency 1us; the one
#                read request (link.max_read_request 4KiB) rides D2H inside
#                the latency.  H is the copy engine's host read of the
#                first 128 B (host.latency 0): host DDR4 at 1250 MHz
#                (0.8 ns), closed bank: ACT, RD after tRCD 12, the second
#                64 B RD after tCCD_L 6, its data tCL 12 + 4 clocks later:
#                34 clocks = 27.2 ns, plus at most 2 clocks of controller
#                alignment: H in [27.2, 28.8] ns.
#   L            = the DMA end rounded up to the driver's next 1 ns edge:
#                the landing wakes the driver, the batch ends and the
#                replay (driver.replay_policy batch_flush) re-executes the
#                access parked in SM 0's uTLB fault record: it re-enters
#                the L1 TLB (lookup at L + 1 ns, tlb.l1.latency), misses
#                (the fault NACK left no entry), L2 lookup at L + 11 ns
#                (tlb.l2.latency), misses, walks from L + 11 ns to
#                L + 19 ns (gmmu.walk_latency 8), finds the page mapped;
#                the L2 and L1 fills and the SM's answer queue have no
#                latency: the warp gets its translation at R = L + 19 ns:
#                flow end at R on the warp's track, fault stall
#                [0.020, R].
# Page 1's load issues when page 0's lines are back (at the end of the
# "memory" slice after L); its walk starts 12 ns after that issue and the
# driver fetches batch 2 at the walk's end, 8 ns later.
. "$(dirname "$0")/../e2e_lib.sh"
PY=/usr/bin/python3
cp configs/tour.yaml "$TMP/tiny.yaml"

"$UVMSIM" run "$TMP/tiny.yaml" --trace "$TMP/t.json" -o "$TMP/t.h5" --quiet 2>"$TMP/t.err"
check "traced run exits 0" test $? -eq 0
# The run names the trace, its size and how to open it (stderr: stdout
# keeps the summary, here --quiet: nothing).
n=$($PY -c "import json,sys; print(len(json.load(open(sys.argv[1]))['traceEvents']))" "$TMP/t.json")
kib=$(($(wc -c <"$TMP/t.json") * 10 / 1024))
cat "$TMP/t.err"
check "stderr names the trace with its $n events and $((kib / 10)).$((kib % 10)) KiB" \
    grep -q "^uvmsim: trace $TMP/t.json: $n events, $((kib / 10))\.[$((kib % 10))$(((kib + 1) % 10))] KiB; " "$TMP/t.err"
check "... and how to open it (ui.perfetto.dev, chrome://tracing)" \
    sh -c "grep -q 'https://ui.perfetto.dev' '$TMP/t.err' && grep -q 'chrome://tracing' '$TMP/t.err'"
check "... in one line, nothing on stdout" sh -c "test \$(wc -l <'$TMP/t.err') -eq 1"
"$UVMSIM" run "$TMP/tiny.yaml" --trace "$TMP/t2.json" -o "$TMP/t2.h5" >"$TMP/t2.out" 2>/dev/null
check "stdout keeps the summary's format" sh -c "head -1 '$TMP/t2.out' | grep -q '^uvmsim [0-9.]*: completed at ' && tail -1 '$TMP/t2.out' | grep -q '^  result  $TMP/t2.h5$'"

# Structure: JSON, fields per phase, slices nested per track, flows.
cat >"$TMP/check.py" <<'PYEOF'
import json, sys
from decimal import Decimal
def load(path):
    with open(path) as f:
        return json.load(f, parse_float=Decimal)   # ts keeps its 6 decimals (ps)
REQ = {"X": {"name", "ph", "ts", "dur", "pid", "tid"}, "i": {"name", "ph", "ts", "pid", "tid", "s"},
       "C": {"name", "ph", "ts", "pid", "args"}, "M": {"name", "ph", "pid", "args"},
       "s": {"name", "ph", "ts", "pid", "tid", "id"}, "t": {"name", "ph", "ts", "pid", "tid", "id"},
       "f": {"name", "ph", "ts", "pid", "tid", "id"}}
def structure(ev):
    errs = []
    for e in ev:
        need = REQ.get(e.get("ph"))
        if need is None: errs.append("unknown phase %r" % e); continue
        if not need <= set(e): errs.append("missing %s in %r" % (need - set(e), e))
        if "ts" in e and Decimal(e["ts"]) < 0: errs.append("negative ts %r" % e)
        if e.get("ph") == "X" and Decimal(e["dur"]) < 0: errs.append("negative dur %r" % e)
    tracks = {}
    for e in ev:
        if e.get("ph") == "X": tracks.setdefault((e["pid"], e["tid"]), []).append(e)
    for k, sl in tracks.items():
        sl.sort(key=lambda e: (Decimal(e["ts"]), -Decimal(e["dur"])))
        stack = []
        for e in sl:
            a, b = Decimal(e["ts"]), Decimal(e["ts"]) + Decimal(e["dur"])
            while stack and a >= stack[-1][1] and not (a == stack[-1][1] == stack[-1][0]): stack.pop()
            while stack and a >= stack[-1][1]: stack.pop()
            if stack and b > stack[-1][1]:
                errs.append("slice %s [%s,%s] overlaps %s on track %s" % (e["name"], a, b, stack[-1][2], k))
            stack.append((a, b, e["name"]))
    return errs
PYEOF

$PY - "$TMP/t.json" >"$TMP/out" 2>&1 <<PYEOF
import sys; sys.path.insert(0, "$TMP")
from check import *
ev = load(sys.argv[1])["traceEvents"]
errs = structure(ev)
print("structure", "ok" if not errs else errs[:5])
D = Decimal
def one(**kw):
    m = [e for e in ev if all(e.get(k) == v for k, v in kw.items())]
    return m
walks = [e for e in ev if e["name"] == "walk (fault)"]
batches = [e for e in ev if e["name"] == "batch"]
dmas = [e for e in ev if e["name"] == "DMA H2D"]
flows = {}
for e in ev:
    if e["ph"] in "stf" and e.get("cat") == "faults": flows.setdefault(e["id"], []).append(e)
w0, b0, d0 = walks[0], batches[0], dmas[0]
print("walk0", w0["ts"], D(w0["ts"]) + D(w0["dur"]), w0["pid"])
print("batch0.start", b0["ts"])
fh = [e for e in ev if e["name"] == "fault handling"][0]
print("handling", fh["ts"], D(fh["ts"]) + D(fh["dur"]))
print("dma0.start", d0["ts"])
dma_end = D(d0["ts"]) + D(d0["dur"])
H = dma_end - D(d0["ts"]) - D("1.280")
print("H_ok", D("0.0272") <= H <= D("0.0288"))
import math
L = D(math.ceil(dma_end * 1000)) / 1000
print("batch0.end_is_L", D(b0["ts"]) + D(b0["dur"]) == L)
f1 = sorted(flows[1], key=lambda e: D(e["ts"]))
print("flow1", [(e["ph"], str(e["ts"]), e["pid"], e["tid"]) for e in f1])
R = L + D("0.019")
print("flow1_end_is_R", f1[-1]["ph"] == "f" and D(f1[-1]["ts"]) == R and f1[-1]["pid"] == 1 and f1[-1]["tid"] == 1)
stall = [e for e in ev if e["name"] == "fault stall"][0]
print("stall", stall["ts"], D(stall["ts"]) + D(stall["dur"]) == R)
mem = sorted([e for e in ev if e["name"] == "memory" and D(e["ts"]) >= R], key=lambda e: D(e["ts"]))[0]
issue1 = D(mem["ts"]) + D(mem["dur"])
w1, b1 = walks[1], batches[1]
print("walk1_rel", D(w1["ts"]) - issue1, D(w1["ts"]) + D(w1["dur"]) - issue1)
print("batch1_rel", D(b1["ts"]) - issue1)
print("replays", len([e for e in ev if e["name"].startswith("replay")]))
PYEOF
cat "$TMP/out"
check "trace parses; fields per phase; slices nest per track" grep -q "^structure ok" "$TMP/out"
check "walk of page 0 on a GMMU walker track: [0.012, 0.020] us" grep -q "^walk0 0.012000 0.020000 3$" "$TMP/out"
check "batch 1 fetched at 0.020 us" grep -q "^batch0.start 0.020000$" "$TMP/out"
check "fault handling [0.020, 20.020] us" grep -q "^handling 0.020000 20.020000$" "$TMP/out"
check "H2D DMA starts at 20.020 us" grep -q "^dma0.start 20.020000$" "$TMP/out"
check "DMA = H + 280 ns + 1 us with H the DDR4 first read" grep -q "^H_ok True$" "$TMP/out"
check "batch 1 ends at L (landing on the driver's next edge)" grep -q "^batch0.end_is_L True$" "$TMP/out"
check "flow 1: walk (s, GMMU) -> batch (t, driver) -> replay (f)" \
    grep -q "^flow1 \[('s', '0.012000', 3, 1), ('t', '0.020000', 4, 0), ('f', " "$TMP/out"
check "flow 1 ends on the warp's track at R = L + 19 ns" grep -q "^flow1_end_is_R True$" "$TMP/out"
check "warp fault-stalled from 0.020 us to R" grep -q "^stall 0.020000 True$" "$TMP/out"
check "page 1's walk: issue + 12 ns to issue + 20 ns" grep -q "^walk1_rel 0.012000 0.020000$" "$TMP/out"
check "batch 2 fetched at the walk's end" grep -q "^batch1_rel 0.020000$" "$TMP/out"

# ---- a window limits the events to it ----
"$UVMSIM" run "$TMP/tiny.yaml" --trace "$TMP/w.json" --trace-window 10us:30us -o "$TMP/w.h5" --quiet
$PY - "$TMP/w.json" >"$TMP/wout" 2>&1 <<PYEOF
import sys; sys.path.insert(0, "$TMP")
from check import *
ev = load(sys.argv[1])["traceEvents"]
print("structure", "ok" if not structure(ev) else structure(ev)[:3])
D = Decimal
bad = [e for e in ev if e["ph"] != "M" and not (D(10) <= D(e["ts"]) <= D(30))]
badx = [e for e in ev if e["ph"] == "X" and D(e["ts"]) + D(e["dur"]) > D(30)]
print("outside", len(bad) + len(badx))
print("walks", len([e for e in ev if e["name"].startswith("walk")]))
bs = sorted([e for e in ev if e["name"] == "batch"], key=lambda e: D(e["ts"]))
print("batches", len(bs), [str(D(e["ts"]) + D(e["dur"])) for e in bs][-1:])
PYEOF
cat "$TMP/wout"
check "windowed trace parses and nests" grep -q "^structure ok" "$TMP/wout"
check "every event inside [10, 30] us" grep -q "^outside 0$" "$TMP/wout"
# Page 0's walk (at 12 ns) is before the window, page 1's (L + its lines'
# return, about 21.5 us) inside; batch 1 [0.020, L] starts before the
# window and batch 2 (from about 21.5 us, 20 us of handling) ends after it:
# both are cut to it, batch 2 ending at 30 us.
check "only page 1's walk is in the window" grep -q "^walks 1$" "$TMP/wout"
check "batches 1 and 2 cut to the window" grep -q "^batches 2 \['30.000000'\]$" "$TMP/wout"

# A long run with a short window: the file is bounded by the window.
"$UVMSIM" run configs/default.yaml -s workload.stream.footprint=4MiB -s gpu.memory.fraction=50% \
    --trace "$TMP/long.json" --trace-window 100us:110us -o "$TMP/long.h5" --quiet
"$UVMSIM" run configs/default.yaml -s workload.stream.footprint=4MiB -s gpu.memory.fraction=50% \
    --trace "$TMP/long2.json" --trace-window 100us:1100us -o "$TMP/long2.h5" --quiet
s1=$(wc -c <"$TMP/long.json"); s2=$(wc -c <"$TMP/long2.json")
echo "10 us window: $s1 B; 1000 us window: $s2 B"
/usr/bin/python3 - "$TMP/long.json" >"$TMP/lout" <<'PYEOF'
import json, sys
from decimal import Decimal as D
ev = json.load(open(sys.argv[1]), parse_float=D)["traceEvents"]
print(sum(1 for e in ev if e["ph"] != "M" and not (D(100) <= D(e["ts"]) <= D(110))
          or e["ph"] == "X" and D(e["ts"]) + D(e["dur"]) > D(110)))
PYEOF
check "a 10 us window of a long run holds only that window" test "$(cat "$TMP/lout")" = 0
check "a 100x longer window gives a larger file" test "$s2" -gt $((s1 * 10))
check "tracing does not change the result" sh -c "\"$UVMSIM\" run configs/default.yaml -s workload.stream.footprint=4MiB -s gpu.memory.fraction=50% -o '$TMP/plain.h5' --quiet && h5dump -d /stats/gpu/cycles '$TMP/plain.h5' | grep '(0)' >'$TMP/a' && h5dump -d /stats/gpu/cycles '$TMP/long.h5' | grep '(0)' >'$TMP/b' && cmp -s '$TMP/a' '$TMP/b'"

# ---- the size cap (--trace-max) ----
# Capped at 1 MiB, the trace stops at the first size check past it: at
# most 256 events later (the check's period), then one slice per warp
# still open (its state up to the cut).  The bound: 1 MiB + 256 events of
# at most 300 B + 15 SMs x 48 warp slots (the default machine) x 120 B.
LONGRUN="configs/default.yaml -s workload.stream.footprint=4MiB -s gpu.memory.fraction=50%"
"$UVMSIM" run $LONGRUN --trace "$TMP/cap.json" --trace-max 1MiB -o "$TMP/cap.h5" --quiet 2>"$TMP/cap.err"
check "a capped trace: the run exits 0" test $? -eq 0
"$UVMSIM" run $LONGRUN --trace "$TMP/nocap.json" --trace-max 0 -o "$TMP/nocap.h5" --quiet 2>"$TMP/nocap.err"
$PY - "$TMP/cap.json" "$TMP/nocap.json" >"$TMP/cout" 2>&1 <<PYEOF
import sys, os; sys.path.insert(0, "$TMP")
from check import *
d = json.load(open(sys.argv[1]), parse_float=Decimal)
ev, od = d["traceEvents"], d["otherData"]
print("structure", "ok" if not structure(ev) else structure(ev)[:3])
print("truncated", od["truncated"], od["max_bytes"])
cut = Decimal(od["truncated_at_us"])
print("after_cut", sum(1 for e in ev if "ts" in e and Decimal(e["ts"]) > cut))
print("marked", sum(1 for e in ev if e["name"] == "trace truncated (--trace-max)" and Decimal(e["ts"]) == cut))
size = os.path.getsize(sys.argv[1])
print("size_ok", 1 << 20 <= size <= (1 << 20) + 256 * 300 + 15 * 48 * 120)
n = json.load(open(sys.argv[2]))
print("nocap", n["otherData"]["truncated"], os.path.getsize(sys.argv[2]) > 2 * size)
PYEOF
cat "$TMP/cout" "$TMP/cap.err"
check "capped trace: valid JSON, slices nest" grep -q "^structure ok" "$TMP/cout"
check "otherData says truncated, with the cap" grep -q "^truncated True 1048576$" "$TMP/cout"
check "nothing after the cut; one instant marks it" sh -c "grep -q '^after_cut 0$' '$TMP/cout' && grep -q '^marked 1$' '$TMP/cout'"
check "the file stops within its bound past 1 MiB" grep -q "^size_ok True$" "$TMP/cout"
check "a warning on stderr names the cap and the time" \
    grep -q "^uvmsim: warning: the trace reached --trace-max (1 MiB) at t=[0-9.]* us ([0-9]* ps)" "$TMP/cap.err"
check "the trace line says truncated" grep -q "truncated by --trace-max; open it in" "$TMP/cap.err"
check "--trace-max 0: no cap, the whole run (more than twice the capped file), not truncated" \
    sh -c "grep -q '^nocap False True$' '$TMP/cout' && ! grep -q warning '$TMP/nocap.err'"
check "the default cap (64MiB) is the one the help and docs/trace.md give" \
    sh -c "'$UVMSIM' run --help | grep -q 'default 64MiB' && grep -q 'default 64 MiB' docs/trace.md"
"$UVMSIM" run "$TMP/tiny.yaml" --trace "$TMP/e.json" --trace-max lots --quiet 2>"$TMP/err"; rc=$?
check "bad --trace-max: exit 2, one line naming it, no trace" \
    sh -c "test $rc -eq 2 && test \$(wc -l <'$TMP/err') -eq 1 && grep -q -- '--trace-max' '$TMP/err' && test ! -e '$TMP/e.json'"

# ---- memory channels (--trace-what dram) ----
# Host DDR4 bursts are 8 B x burst length 8 = 64 B (host.dram.bus_width,
# host.dram.burst_length defaults): the four 4 KiB pages the copy engine
# reads are 4 x 64 = 256 read bursts, the two written back 2 x 64 = 128
# write bursts; one channel's data bus never carries two bursts at once.
"$UVMSIM" run "$TMP/tiny.yaml" --trace "$TMP/d.json" --trace-what dram -o "$TMP/d.h5" --quiet
$PY - "$TMP/d.json" >"$TMP/dout" 2>&1 <<PYEOF
import sys; sys.path.insert(0, "$TMP")
from check import *
ev = load(sys.argv[1])["traceEvents"]
print("structure", "ok" if not structure(ev) else structure(ev)[:3])
print("host", sum(1 for e in ev if e["pid"] == 8 and e["name"] == "read burst"),
      sum(1 for e in ev if e["pid"] == 8 and e["name"] == "write burst"))
print("other", sum(1 for e in ev if e["ph"] != "M" and e.get("cat") != "dram"))
PYEOF
cat "$TMP/dout"
check "dram bursts: no two at once on a channel" grep -q "^structure ok" "$TMP/dout"
check "host memory: 256 read bursts, 128 write bursts" grep -q "^host 256 128$" "$TMP/dout"
check "--trace-what dram records only bursts" grep -q "^other 0$" "$TMP/dout"

# ---- an aborted run (watchdog) still yields valid JSON ----
"$UVMSIM" run "$TMP/tiny.yaml" -s sim.watchdog=4us --trace "$TMP/abort.json" -o "$TMP/abort.h5" \
    --quiet 2>"$TMP/abort.err"; rc=$?
check "watchdog aborts the run (exit 3)" test $rc -eq 3
check "the abort names the watchdog" grep -q watchdog "$TMP/abort.err"
$PY -c "import json,sys; d=json.load(open(sys.argv[1])); print(len(d['traceEvents']))" "$TMP/abort.json" >"$TMP/n" 2>&1
check "aborted run's trace is valid JSON with its events" sh -c "test \$(cat '$TMP/n') -gt 10"

# ---- user errors: one line, exit 2, no trace written ----
"$UVMSIM" run "$TMP/tiny.yaml" --trace "$TMP/e.json" --trace-window 30us:10us --quiet 2>"$TMP/err"; rc=$?
check "window end before start: exit 2, nothing written" sh -c "test $rc -eq 2 && test ! -e '$TMP/e.json' && grep -q trace-window '$TMP/err'"
"$UVMSIM" run "$TMP/tiny.yaml" --trace "$TMP/e.json" --trace-window 10parsecs:20us --quiet 2>"$TMP/err"; rc=$?
check "bad window unit: exit 2" sh -c "test $rc -eq 2 && test ! -e '$TMP/e.json'"
"$UVMSIM" run "$TMP/tiny.yaml" --trace "$TMP/e.json" --trace-what faults,bogus --quiet 2>"$TMP/err"; rc=$?
check "unknown --trace-what: exit 2 naming it" sh -c "test $rc -eq 2 && grep -q bogus '$TMP/err' && test ! -e '$TMP/e.json'"
"$UVMSIM" run "$TMP/tiny.yaml" --trace "$TMP/no/dir/e.json" -o "$TMP/x.h5" --quiet 2>"$TMP/err"; rc=$?
check "unwritable trace: exit 2" test $rc -eq 2
"$UVMSIM" run "$TMP/tiny.yaml" -s gpu.sms=0 --trace "$TMP/e.json" --quiet 2>/dev/null; rc=$?
check "config error: exit 2, no trace" sh -c "test $rc -eq 2 && test ! -e '$TMP/e.json'"

# ---- a trace that cannot be written (issue 38 T1): one line, exit 1 ----
# (exit 1 as when the result cannot be written; the result itself is whole)
"$UVMSIM" run "$TMP/tiny.yaml" --trace /dev/full -o "$TMP/full.h5" --quiet 2>"$TMP/err"; rc=$?
check "--trace /dev/full: exit 1" test $rc -eq 1
check "--trace /dev/full: one line naming the trace and the reason" \
    sh -c "[ \$(wc -l <'$TMP/err') -eq 1 ] && grep -q \"cannot write the trace '/dev/full': No space left\" '$TMP/err'"
# A regular file that stops growing (RLIMIT_FSIZE of 1 MiB, SIGXFSZ ignored:
# writes fail with EFBIG) is removed, not left truncated; the run's result
# (about 0.2 MB) fits, the whole trace (several MB) does not.
# shellcheck disable=SC2086
sh -c "trap '' XFSZ; ulimit -f 2048; exec \"\$@\"" sh "$UVMSIM" run configs/default.yaml $SMALL --trace "$TMP/big.json" \
    --trace-max 0 -o "$TMP/big.h5" --quiet 2>"$TMP/err"; rc=$?
check "a trace past the file size limit: exit 1" test $rc -eq 1
check "a trace past the file size limit: no truncated trace left" test ! -e "$TMP/big.json"
check "a trace past the file size limit: one line saying it is removed" \
    sh -c "[ \$(wc -l <'$TMP/err') -eq 1 ] && grep -q 'File too large; it is removed' '$TMP/err'"

# ---- the trace and the result naming one file (T2): refused before running ----
"$UVMSIM" run "$TMP/tiny.yaml" --trace "$TMP/same.h5" -o "$TMP/same.h5" --quiet 2>"$TMP/err"; rc=$?
check "--trace X -o X: exit 2, one line, nothing written" \
    sh -c "test $rc -eq 2 && [ \$(wc -l <'$TMP/err') -eq 1 ] && test ! -e '$TMP/same.h5' && grep -q 'is the same file as the result -o' '$TMP/err'"
mkdir -p "$TMP/sub"
"$UVMSIM" run "$TMP/tiny.yaml" --trace "$TMP/sub/../same.h5" -o "$TMP/./same.h5" --quiet 2>"$TMP/err"; rc=$?
check "--trace and -o spelled differently, neither existing: exit 2" sh -c "test $rc -eq 2 && test ! -e '$TMP/same.h5'"
echo old >"$TMP/kept.h5"
ln -s kept.h5 "$TMP/link.json"
"$UVMSIM" run "$TMP/tiny.yaml" --trace "$TMP/link.json" -o "$TMP/kept.h5" --quiet 2>"$TMP/err"; rc=$?
check "--trace through a link to the -o file: exit 2, the file untouched" \
    sh -c "test $rc -eq 2 && [ \"\$(cat '$TMP/kept.h5')\" = old ]"
cp "$TMP/tiny.yaml" "$TMP/cfg.yaml"
"$UVMSIM" run "$TMP/cfg.yaml" --trace "$TMP/cfg.yaml" -o "$TMP/c.h5" --quiet 2>"$TMP/err"; rc=$?
check "--trace naming the config: exit 2, the config intact" \
    sh -c "test $rc -eq 2 && cmp -s '$TMP/cfg.yaml' '$TMP/tiny.yaml' && grep -q 'same file as the config' '$TMP/err'"
"$UVMSIM" run "$TMP/tiny.yaml" --trace "$TMP/other.json" -o "$TMP/other.h5" --quiet 2>"$TMP/err"; rc=$?
check "two different files still run" sh -c "test $rc -eq 0 && test -s '$TMP/other.json' && test -s '$TMP/other.h5'"

# ---- trace options without --trace (T3): one line, exit 2 ----
for opt in "--trace-window 10us:20us" "--trace-what faults" "--trace-max 1MiB"; do
    # shellcheck disable=SC2086
    "$UVMSIM" run "$TMP/tiny.yaml" $opt -o "$TMP/nt.h5" --quiet 2>"$TMP/err"; rc=$?
    check "${opt%% *} without --trace: exit 2, one line naming it, no result" \
        sh -c "test $rc -eq 2 && [ \$(wc -l <'$TMP/err') -eq 1 ] && grep -q -- '${opt%% *} .*--trace' '$TMP/err' && test ! -e '$TMP/nt.h5'"
done
exit $FAILS
