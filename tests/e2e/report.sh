#!/bin/sh
# uvmsim report: the HTML page of a run and of a sweep, as a user makes it.
# The plotted values are checked against a result file built by hand (h5py)
# whose rates are derived in the comments; a real run checks that every
# plot is there and that the page needs nothing outside itself.
. "$(dirname "$0")/../e2e_lib.sh"
PY=/usr/bin/python3
if ! $PY -c 'import h5py, numpy' 2>/dev/null; then
    not_ok "python3-h5py not installed"; exit 1
fi

# ---- a hand-made result -------------------------------------------------
# gpu.clock 1 GHz: 1 us = 1000 core cycles.  Samples at 1, 2, 4 us:
#   gpu.warp_insts 1000, 3000, 3000  -> IPC 1000/1000 = 1, 2000/1000 = 2, 0
#   gmmu.faults       5,   15,   15  -> 5/us, 10/us, 0/us
#   link.h2d.bytes 16000, 16000, 48000 -> 16000 B/us = 16 GB/s, 0, 32000/2 us = 16 GB/s
#   link.d2h.bytes    0,  4000,  4000 -> 0, 4 GB/s, 0
#   driver.resident_pages 3, 5, 2 (a level: plotted as is); capacity 8
# /batches: faults 3, 3, 40 -> size histogram of 40 bins over 0..40 -> width 1:
#   bin 3 holds 2, bin 40 holds 1.  Durations 1, 1, 3 us.
$PY - "$TMP/hand.h5" <<'PYEOF'
import sys, h5py, numpy as np
f = h5py.File(sys.argv[1], "w")
f.attrs["uvmsim_version"] = "0.1.0"; f.attrs["status"] = "completed"
f.attrs["seed"] = np.uint64(7); f.attrs["sim_time_ps"] = np.uint64(4000000)
f.attrs["events"] = np.uint64(99)
c = f.create_group("config"); c.attrs["yaml"] = "gpu:\n  clock: 1GHz  # <hand>\n"
c.attrs["gpu.clock"] = 1e9
def stat(name, v, unit="", kind="counter"):
    d = f.create_dataset("stats/" + name.replace(".", "/"), data=v)
    d.attrs["kind"] = kind; d.attrs["unit"] = unit; d.attrs["description"] = "hand " + name
    return d
stat("gpu.warp_insts", np.uint64(3000)); stat("gmmu.faults", np.uint64(15))
stat("driver.capacity_pages", np.uint64(8), "pages")
h = stat("driver.residency_us", np.array([0, 2, 1, 4], dtype=np.uint64), "us", "histogram")
h.attrs["bin_width"] = np.uint64(10); h.attrs["count"] = np.uint64(7)
h.attrs["max"] = np.uint64(95); h.attrs["sum"] = 330.0
cols = ["time_ps", "gpu.warp_insts", "gmmu.faults", "link.h2d.bytes", "link.d2h.bytes",
        "driver.resident_pages"]
ts = np.zeros(3, dtype=[(n, "<u8") for n in cols])
ts["time_ps"] = [1000000, 2000000, 4000000]
ts["gpu.warp_insts"] = [1000, 3000, 3000]; ts["gmmu.faults"] = [5, 15, 15]
ts["link.h2d.bytes"] = [16000, 16000, 48000]; ts["link.d2h.bytes"] = [0, 4000, 4000]
ts["driver.resident_pages"] = [3, 5, 2]
f.create_dataset("timeseries", data=ts)
bcols = ["start_ps", "end_ps", "faults", "pages", "migrated", "h2d_bytes", "d2h_bytes",
         "handling_ps", "migration_ps", "evictions"]
b = np.zeros(3, dtype=[(n, "<u8") for n in bcols])
b["start_ps"] = [0, 1000000, 2000000]; b["end_ps"] = [1000000, 2000000, 5000000]
b["faults"] = [3, 3, 40]; b["handling_ps"] = [500000, 500000, 1000000]
f.create_dataset("batches", data=b)
f.close()
PYEOF
"$UVMSIM" report "$TMP/hand.h5" -o "$TMP/hand.html" 2>"$TMP/err"
check "report of a hand-made result exits 0" test $? -eq 0
# The values a polyline of plot ID draws (data-y of its N-th line).
series() {  # ID N
    $PY - "$TMP/hand.html" "$1" "$2" <<'PYEOF'
import re, sys
html, pid, n = open(sys.argv[1]).read(), sys.argv[2], int(sys.argv[3])
svg = re.search(r'<svg class="plot" id="%s".*?</svg>' % re.escape(pid), html, re.S).group(0)
print(re.findall(r'data-y="([^"]*)"', svg)[n])
PYEOF
}
check "IPC per epoch is 1, 2, 0" test "$(series ts-ipc 0)" = "1 2 0"
check "GMMU faults per us are 5, 10, 0" test "$(series ts-faults 0)" = "5 10 0"
check "H2D GB/s are 16, 0, 16" test "$(series ts-link 0)" = "16 0 16"
check "D2H GB/s are 0, 4, 0" test "$(series ts-link 1)" = "0 4 0"
check "resident pages are the level 3, 5, 2" test "$(series ts-resident 0)" = "3 5 2"
check "capacity line at 8" test "$(series ts-resident 1)" = "8 8 8"
bars() {  # ID: bin:count pairs of its histogram
    $PY - "$TMP/hand.html" "$1" <<'PYEOF'
import re, sys
html, pid = open(sys.argv[1]).read(), sys.argv[2]
svg = re.search(r'<svg class="plot" id="%s".*?</svg>' % re.escape(pid), html, re.S).group(0)
print(" ".join("%s:%s" % m for m in re.findall(r'data-bin="([^"]*)"[^>]*? data-n="([^"]*)"', svg)))
PYEOF
}
attr() {  # FILE ID ATTR: the values of ATTR in plot ID, space-separated
    $PY - "$@" <<'PYEOF'
import re, sys
html, pid, a = open(sys.argv[1]).read(), sys.argv[2], sys.argv[3]
svg = re.search(r'<svg class="plot" id="%s".*?</svg>' % re.escape(pid), html, re.S).group(0)
print(" ".join(re.findall(r' %s="([^"]*)"' % re.escape(a), svg)))
PYEOF
}
check "batch sizes: 2 batches of 3 faults, 1 of 40" test "$(bars batch-size)" = "3:2 40:1"
# Durations 1, 1, 3 us over 40 bins: 2/40 = 0.05 us wide from 1 us: bins 1 and 3.
check "batch times: 2 of 1 us, 1 of 3 us" test "$(bars batch-time)" = "1:2 3:1"
# residency_us: bins of 10 us from the first that holds samples (10); the
# last (30) is the overflow: its max is 95, so that bar runs to 96.
check "residency histogram keeps its bins and overflow" test "$(bars hist-residency)" = "10:2 20:1 30:4"
check "the overflow bar ends past the max (95 + 1)" test "$(attr "$TMP/hand.html" hist-residency data-hi)" = "20 30 96"
check "the overflow bar is marked" grep -q 'data-overflow="1"' "$TMP/hand.html"
# The batch timeline: one stacked bar per batch, handling (500000, 500000,
# 1000000 ps) under migration (end - start - handling: 0.5, 0.5, 2 us).
check "batch timeline: one bar per batch" test "$(attr "$TMP/hand.html" batch-timeline data-first)" = "0 1 2"
check "batch timeline: handling 0.5, 0.5, 1 us" test "$(attr "$TMP/hand.html" batch-timeline data-a)" = "0.5 0.5 1"
check "batch timeline: migration 0.5, 0.5, 2 us" test "$(attr "$TMP/hand.html" batch-timeline data-b)" = "0.5 0.5 2"
check "a run too short to smooth has no folded raw series" sh -c "! grep -q 'id=\"ts-ipc-raw\"' '$TMP/hand.html'"
check "plots scale with the page: width 100% and a viewBox" \
    sh -c "grep -q '<svg class=\"plot\" id=\"ts-ipc\" [^>]*width=\"100%\" viewBox=\"0 0 ' '$TMP/hand.html'"

# ---- a hand-made long run: smoothing, binned timeline, log bins ---------
# 100 samples 1 us apart (epoch 1 us, 1 GHz), warp instructions +0 in odd
# epochs and +2000 in even ones: per-epoch IPC 0, 2, 0, 2, ...  450 batches
# 0.2 us apart: window = 16 intervals = 3.2 us (>= 1/100 of the 100 us run,
# <= 1/10 of it, >= 2 epochs).  Centred, it spans the rows 2 us either side
# (4 epochs: two of IPC 0, two of IPC 2): IPC 1 everywhere but at t = 1 us
# (origin to 3 us: 2000 / 3000) and t = 99 us (97 to 100 us: 4000 / 3000).
# Batches: handling 0.1 us, migration (i mod 3) * 0.1 us; 450 > 200 bars:
# 3 batches a bar (150 bars), each the mean 0.1 + 0.1, longest 0.3 us.
# Residency (ranging histogram, 1-us bins): 10 samples at 1, 10 at 1000 us:
# three decades: a log axis from 1 to 1001.  Walks: 5 of 8 cycles each.
$PY - "$TMP/long.h5" <<'PYEOF'
import sys, h5py, numpy as np
f = h5py.File(sys.argv[1], "w")
f.attrs["uvmsim_version"] = "0.1.0"; f.attrs["status"] = "completed"
f.attrs["seed"] = np.uint64(1); f.attrs["sim_time_ps"] = np.uint64(100000000)
f.attrs["events"] = np.uint64(1)
c = f.create_group("config"); c.attrs["yaml"] = "x: 1\n"; c.attrs["gpu.clock"] = 1e9
c.attrs["sim.epoch"] = np.uint64(1000000)
def stat(name, v, unit="", kind="counter"):
    d = f.create_dataset("stats/" + name.replace(".", "/"), data=v)
    d.attrs["kind"] = kind; d.attrs["unit"] = unit; d.attrs["description"] = "hand"
    return d
r = np.zeros(1024, dtype=np.uint64); r[1] = 10; r[1000] = 10
h = stat("driver.residency_us", r, "us", "histogram")
h.attrs["bin_width"] = np.uint64(1); h.attrs["count"] = np.uint64(20)
h.attrs["max"] = np.uint64(1000); h.attrs["sum"] = 10010.0
w = np.zeros(256, dtype=np.uint64); w[8] = 5
h = stat("gmmu.walk_latency", w, "cycles", "histogram")
h.attrs["bin_width"] = np.uint64(1); h.attrs["count"] = np.uint64(5)
h.attrs["max"] = np.uint64(8); h.attrs["sum"] = 40.0
ts = np.zeros(100, dtype=[("time_ps", "<u8"), ("gpu.warp_insts", "<u8")])
t = np.arange(1, 101)
ts["time_ps"] = t * 1000000
ts["gpu.warp_insts"] = (t // 2) * 2000
f.create_dataset("timeseries", data=ts)
bcols = ["start_ps", "end_ps", "faults", "handling_ps"]
b = np.zeros(450, dtype=[(n, "<u8") for n in bcols])
i = np.arange(450)
b["start_ps"] = i * 200000; b["handling_ps"] = 100000
b["end_ps"] = b["start_ps"] + 100000 + (i % 3) * 100000; b["faults"] = 1
f.create_dataset("batches", data=b)
f.close()
PYEOF
"$UVMSIM" report "$TMP/long.h5" -o "$TMP/long.html" 2>"$TMP/err"
check "report of the long hand-made run exits 0" test $? -eq 0
$PY - "$TMP/long.html" >"$TMP/smooth" <<'PYEOF'
import re, sys
html = open(sys.argv[1]).read()
def ys(pid):
    svg = re.search(r'<svg class="plot" id="%s".*?</svg>' % pid, html, re.S).group(0)
    return [float(v) for v in re.search(r'data-y="([^"]*)"', svg).group(1).split()]
s, raw = ys("ts-ipc"), ys("ts-ipc-raw")
inner = s[:]; del inner[98]; del inner[0]
print(len(s), round(s[0], 4), round(s[98], 4), set(inner) == {1.0}, raw[:4])
PYEOF
check "raw IPC alternates 0, 2 and the moving average is 1 but at the ends" \
    test "$(cat "$TMP/smooth")" = "100 0.6667 1.3333 True [0.0, 2.0, 0.0, 2.0]"
check "the page names the window: 3.2 us" grep -q 'id="ts-window">3.2<' "$TMP/long.html"
check "the per-epoch series are folded in a <details>" \
    sh -c "grep -q '<details class=\"raw\"><summary>per-epoch (raw) series' '$TMP/long.html'"
check "450 batches: 150 bars of 3" test "$(attr "$TMP/long.html" batch-timeline data-first | wc -w)" -eq 150
check "binned bars: mean handling 0.1 us" test "$(attr "$TMP/long.html" batch-timeline data-a | tr ' ' '\n' | sort -u)" = "0.1"
check "binned bars: mean migration 0.1 us" test "$(attr "$TMP/long.html" batch-timeline data-b | tr ' ' '\n' | sort -u)" = "0.1"
check "binned bars: longest 0.3 us" test "$(attr "$TMP/long.html" batch-timeline data-max | tr ' ' '\n' | sort -u)" = "0.3"
$PY - "$TMP/long.html" >"$TMP/logbins" <<'PYEOF'
import re, sys
html = open(sys.argv[1]).read()
svg = re.search(r'<svg class="plot" id="hist-residency".*?</svg>', html, re.S).group(0)
b = re.findall(r'data-bin="([^"]*)" data-hi="([^"]*)" data-n="([^"]*)"', svg)
print(b[0][0], b[-1][1], [n for _, _, n in b], "log scale" in svg, "data-overflow" in svg)
PYEOF
check "residency over three decades: log bins from 1 to 1001, 10 + 10 samples, no overflow" \
    test "$(cat "$TMP/logbins")" = "1 1001 ['10', '10'] True False"
check "walks all of 8 cycles: one bar [8, 9) of 5" \
    test "$(attr "$TMP/long.html" hist-walk data-bin) $(attr "$TMP/long.html" hist-walk data-hi) $(attr "$TMP/long.html" hist-walk data-n)" = "8 9 5"
check "the note says every walk took as long" grep -q 'every walk took as long' "$TMP/long.html"

check "config YAML is on the page, escaped" grep -q 'clock: 1GHz  # &lt;hand&gt;' "$TMP/hand.html"
check "no temporary file left" test -z "$(ls "$TMP" | grep 'hand.html.tmp')"

# ---- a real run: every plot, nothing from outside ----------------------
"$UVMSIM" run configs/default.yaml -s workload.stream.footprint=4MiB -s gpu.memory.fraction=50% \
    -s sim.epoch=2us -o "$TMP/run.h5" --quiet
"$UVMSIM" report "$TMP/run.h5" -o "$TMP/run.html"
check "report of a run exits 0" test $? -eq 0
for id in ts-ipc ts-faults ts-resident ts-link ts-faultbuf ts-evict batch-timeline batch-size \
          batch-time batch-pages batch-evictions hist-residency; do
    check "plot $id is on the page" grep -q "<svg class=\"plot\" id=\"$id\"" "$TMP/run.html"
done
check "no 'not recorded' note for a current run" sh -c "! grep -q 'not recorded' '$TMP/run.html'"
check "the series note gives the epoch and says idle epochs are left out (sim.epoch_rows=changed)" \
    grep -q 'samples, epoch 2 us (epochs in which only the clock moved are left out' "$TMP/run.html"
"$UVMSIM" run configs/default.yaml -s workload.stream.footprint=1MiB -s sim.epoch=2us \
    -s sim.epoch_rows=every -o "$TMP/every.h5" --quiet
"$UVMSIM" report "$TMP/every.h5" -o "$TMP/every.html"
check "with sim.epoch_rows=every the note does not say so" \
    sh -c "grep -q 'samples, epoch 2 us' '$TMP/every.html' && ! grep -q 'are left out' '$TMP/every.html'"
check "self-contained: no script, no src=, no url(), no remote link" \
    sh -c "! grep -Eqi '<script|src=|url\\(|href=\"(https?:)?//' '$TMP/run.html'"
# Oversubscribed at 50%: resident pages never exceed the capacity line.
$PY - "$TMP/run.html" >"$TMP/res" <<'PYEOF'
import re, sys
html = open(sys.argv[1]).read()
svg = re.search(r'<svg class="plot" id="ts-resident".*?</svg>', html, re.S).group(0)
res, cap = [list(map(float, y.split())) for y in re.findall(r'data-y="([^"]*)"', svg)]
print(max(res) <= cap[0] and max(res) > 0)
PYEOF
check "resident pages stay within the capacity" test "$(cat "$TMP/res")" = True
# Same result, same page.
"$UVMSIM" report "$TMP/run.h5" -o "$TMP/run2.html"
check "the page is deterministic" cmp -s "$TMP/run.html" "$TMP/run2.html"

# ---- a sweep: hand-made sweep.h5 (docs/results.md, "Sweeps") -------------
# Two points on one axis, a third planned point that failed.  Point a:
# 300 us, IPC 0.5; point b: 600 us, IPC 0.25.  Each run's time series: one
# sample at 1 us with 500 (a) / 250 (b) warp instructions at 1 GHz: IPC
# 500/1000 = 0.5 and 0.25 on the overlay.
mkdir -p "$TMP/sweepdir"
$PY - "$TMP/sweepdir/sweep.h5" <<'PYEOF'
import sys, h5py, numpy as np
f = h5py.File(sys.argv[1], "w")
f.attrs["points_merged"] = np.uint64(2)
pts = np.zeros(2, dtype=[("name", "S32"), ("driver.eviction", "S8"), ("status", "S16"),
                         ("sim_time_ps", "<u8"), ("gpu.ipc", "<f8")])
pts["name"] = [b"fifo_a", b"lru_b"]; pts["driver.eviction"] = [b"fifo", b"lru"]
pts["status"] = [b"completed", b"completed"]
pts["sim_time_ps"] = [300000000, 600000000]; pts["gpu.ipc"] = [0.5, 0.25]
f.create_dataset("points", data=pts)
ax = np.zeros(2, dtype=[("key", "S32"), ("position", "<u8"), ("text", "S16"), ("value", "<f8")])
ax["key"] = [b"driver.eviction"] * 2; ax["position"] = [0, 1]; ax["text"] = [b"fifo", b"lru"]
ax["value"] = [np.nan, np.nan]
f.create_dataset("axes", data=ax)
mi = np.zeros(1, dtype=[("name", "S32"), ("state", "S16"), ("exit_code", "<i8")])
mi["name"] = [b"random_c"]; mi["state"] = [b"failed"]; mi["exit_code"] = [3]
f.create_dataset("missing", data=mi)
for name, insts in (("fifo_a", 500), ("lru_b", 250)):
    g = f.create_group("runs/" + name)
    g.attrs["status"] = "completed"; g.attrs["sim_time_ps"] = np.uint64(1000000)
    c = g.create_group("config"); c.attrs["gpu.clock"] = 1e9; c.attrs["yaml"] = "x: 1\n"
    d = g.create_dataset("stats/gpu/warp_insts", data=np.uint64(insts))
    d.attrs["kind"] = "counter"; d.attrs["unit"] = "insts"; d.attrs["description"] = "d"
    ts = np.zeros(1, dtype=[("time_ps", "<u8"), ("gpu.warp_insts", "<u8")])
    ts["time_ps"] = [1000000]; ts["gpu.warp_insts"] = [insts]
    g.create_dataset("timeseries", data=ts)
f.close()
PYEOF
"$UVMSIM" report "$TMP/sweepdir" -o "$TMP/sweep.html" 2>"$TMP/err"
check "report of a sweep directory exits 0" test $? -eq 0
check "the points table lists both points with their axis" \
    sh -c "grep -q '<td>fifo_a</td><td>fifo</td><td>completed</td>' '$TMP/sweep.html' && grep -q '<td>lru_b</td><td>lru</td><td>completed</td>' '$TMP/sweep.html'"
# One axis (the eviction policy): its values are the bars of one group,
# normalised to lru by default: 300 / 600 = 0.5 and 1; no GM of one group.
check "one axis: bars fifo, lru relative to lru: 0.5 and 1" test "$(attr "$TMP/sweep.html" cmp-0-0 data-v)" = "0.5 1"
check "one axis: the bars are labelled by their values" test "$(attr "$TMP/sweep.html" cmp-0-0 data-series)" = "fifo lru"
check "IPC overlay: one line per point (0.5, 0.25)" \
    sh -c "grep -A3 'id=\"sweep-ipc\"' '$TMP/sweep.html' >/dev/null && grep -q 'data-y=\"0.5\"' '$TMP/sweep.html' && grep -q 'data-y=\"0.25\"' '$TMP/sweep.html'"
check "the failed point is listed" grep -q '<td>random_c</td><td>failed</td>' "$TMP/sweep.html"
"$UVMSIM" report "$TMP/sweepdir/sweep.h5" -o "$TMP/sweep2.html"
check "DIR and DIR/sweep.h5 give the same page" cmp -s "$TMP/sweep.html" "$TMP/sweep2.html"

# ---- a 2 x 3 sweep with a third axis: grouped bars, GM, panels ----------
# driver.eviction fifo, lru, random (bars) x workload.pattern.type a, b
# (groups) x gpu.memory.fraction 75%, 50% (one panel each).  Simulated
# time at 75% (us): a: fifo 200, lru 100, random 400; b: fifo 800, lru 100,
# random 100; at 50% twice as long.  Relative to lru: a 2, 1, 4; b 8, 1, 1;
# GM (geometric mean over a, b): fifo sqrt(2 * 8) = 4, lru 1, random
# sqrt(4 * 1) = 2.  Relative to fifo: a 1, 0.5, 2; b 1, 0.125, 0.125; GM 1,
# sqrt(0.5 * 0.125) = 0.25, sqrt(2 * 0.125) = 0.5.
mkdir -p "$TMP/s23"
$PY - "$TMP/s23/sweep.h5" <<'PYEOF'
import sys, h5py, numpy as np
f = h5py.File(sys.argv[1], "w")
pol, pat, mem = ["fifo", "lru", "random"], ["a", "b"], [("75%", 0.75), ("50%", 0.5)]
t75 = {("a", "fifo"): 200, ("a", "lru"): 100, ("a", "random"): 400,
       ("b", "fifo"): 800, ("b", "lru"): 100, ("b", "random"): 100}
rows = [(p, w, m, v) for p in pol for m, v in mem for w in pat]
f.attrs["points_merged"] = np.uint64(len(rows))
pts = np.zeros(len(rows), dtype=[("name", "S32"), ("driver.eviction", "S8"), ("gpu.memory.fraction", "<f8"),
                                 ("workload.pattern.type", "S8"), ("status", "S16"), ("sim_time_ps", "<u8")])
for i, (p, w, m, v) in enumerate(rows):
    pts[i] = ("%s_%s_%s" % (p, m, w), p, v, w, "completed", t75[(w, p)] * 1000000 * (1 if v == 0.75 else 2))
f.create_dataset("points", data=pts)
axes = [("driver.eviction", p, np.nan) for p in pol] + [("gpu.memory.fraction", m, v) for m, v in mem] + \
       [("workload.pattern.type", w, np.nan) for w in pat]
ax = np.zeros(len(axes), dtype=[("key", "S32"), ("position", "<u8"), ("text", "S16"), ("value", "<f8")])
for i, (k, t, v) in enumerate(axes):
    ax[i] = (k, 0, t, v)
f.create_dataset("axes", data=ax)
f.create_group("runs")
f.close()
PYEOF
"$UVMSIM" report "$TMP/s23" -o "$TMP/s23.html" 2>"$TMP/err"
check "report of the 2 x 3 sweep exits 0" test $? -eq 0
groups() {  # FILE ID: the group labels of a grouped bar chart
    $PY - "$1" "$2" <<'PYEOF'
import re, sys
html, pid = open(sys.argv[1]).read(), sys.argv[2]
svg = re.search(r'<svg class="plot" id="%s".*?</svg>' % re.escape(pid), html, re.S).group(0)
print(" ".join(re.findall(r'<g class="group" data-group="([^"]*)"', svg)))
PYEOF
}
legend() {  # FILE ID: the legend's entries
    $PY - "$1" "$2" <<'PYEOF'
import re, sys
html, pid = open(sys.argv[1]).read(), sys.argv[2]
svg = re.search(r'<svg class="plot" id="%s".*?</svg>' % re.escape(pid), html, re.S).group(0)
leg = re.search(r'<g class="legend">(.*?)</g>', svg, re.S).group(1)
print(" ".join(re.findall(r'<text[^>]*>([^<]*)</text>', leg)))
PYEOF
}
check "groups: the pattern values and GM" test "$(groups "$TMP/s23.html" cmp-0-0)" = "a b GM"
check "bars: 6 + 3 in the GM group" test "$(attr "$TMP/s23.html" cmp-0-0 data-v | wc -w)" -eq 9
check "legend entries are the policies" test "$(legend "$TMP/s23.html" cmp-0-0)" = "fifo lru random"
check "relative to lru: a 2 1 4, b 8 1 1, GM 4 1 2" test "$(attr "$TMP/s23.html" cmp-0-0 data-v)" = "2 1 4 8 1 1 4 1 2"
check "the 50% panel: the same ratios (every time doubled)" test "$(attr "$TMP/s23.html" cmp-0-1 data-v)" = "2 1 4 8 1 1 4 1 2"
check "two panels, titled by the memory fraction" \
    sh -c "grep -q 'gpu.memory.fraction=75%' '$TMP/s23.html' && grep -q 'gpu.memory.fraction=50%' '$TMP/s23.html' && ! grep -q 'id=\"cmp-0-2\"' '$TMP/s23.html'"
check "no label is a point number #N" sh -c "! grep -Eq '>#[0-9]+<' '$TMP/s23.html'"
check "the points table scrolls" grep -q '<div class="scroll"><table class="points">' "$TMP/s23.html"
"$UVMSIM" report "$TMP/s23" -o "$TMP/s23f.html" --normalize-to driver.eviction=fifo
check "--normalize-to driver.eviction=fifo: a 1 .5 2, b 1 .125 .125, GM 1 .25 .5" \
    test "$(attr "$TMP/s23f.html" cmp-0-0 data-v)" = "1 0.5 2 1 0.125 0.125 1 0.25 0.5"
"$UVMSIM" report "$TMP/s23" -o "$TMP/s23n.html" --normalize-to none
check "--normalize-to none: simulated times, no GM" test "$(attr "$TMP/s23n.html" cmp-0-0 data-v) / $(groups "$TMP/s23n.html" cmp-0-0)" = "200 100 400 800 100 100 / a b"
"$UVMSIM" report "$TMP/s23" -o "$TMP/s23x.html" --normalize-to workload.pattern.type=a --x driver.eviction
check "--x driver.eviction --normalize-to workload.pattern.type=a: b / a per policy, GM" \
    test "$(groups "$TMP/s23x.html" cmp-0-0) / $(attr "$TMP/s23x.html" cmp-0-0 data-v)" = "fifo lru random GM / 1 4 1 1 1 0.25 1 1"
for bad in "driver.eviction=lfu" "nosuch=1" "driver.eviction"; do
    "$UVMSIM" report "$TMP/s23" -o "$TMP/x.html" --normalize-to "$bad" 2>"$TMP/err"; rc=$?
    check "--normalize-to $bad: exit 2, one line, nothing written" \
        sh -c "test $rc -eq 2 && test \$(wc -l <'$TMP/err') -eq 1 && test ! -e '$TMP/x.html'"
done
"$UVMSIM" report "$TMP/s23" -o "$TMP/x.html" --normalize-to driver.eviction=lfu 2>"$TMP/err"
check "a wrong value names the axis's values" grep -q "'lfu' is not a value of driver.eviction (values: fifo, lru, random)" "$TMP/err"
"$UVMSIM" report "$TMP/hand.h5" -o "$TMP/x.html" --normalize-to driver.eviction=lru 2>"$TMP/err"; rc=$?
check "--normalize-to on a run's result: exit 2, nothing written" sh -c "test $rc -eq 2 && test ! -e '$TMP/x.html'"

# ---- user errors: one line, exit 2, nothing written ---------------------
"$UVMSIM" report "$TMP/nope.h5" -o "$TMP/x.html" 2>"$TMP/err"; rc=$?
check "missing file: exit 2" test $rc -eq 2
check "missing file: one line naming it" sh -c "test \$(wc -l <'$TMP/err') -eq 1 && grep -q nope.h5 '$TMP/err'"
check "missing file: nothing written" test ! -e "$TMP/x.html"
echo "not hdf5" >"$TMP/text.h5"
"$UVMSIM" report "$TMP/text.h5" -o "$TMP/x.html" 2>"$TMP/err"; rc=$?
check "not an HDF5 file: exit 2, nothing written" sh -c "test $rc -eq 2 && test ! -e '$TMP/x.html'"
$PY -c "import h5py; h5py.File('$TMP/other.h5','w').create_group('x')"
"$UVMSIM" report "$TMP/other.h5" -o "$TMP/x.html" 2>"$TMP/err"; rc=$?
check "an HDF5 file that is no result: exit 2" sh -c "test $rc -eq 2 && grep -q 'not a uvmsim result' '$TMP/err'"
mkdir "$TMP/emptydir"
"$UVMSIM" report "$TMP/emptydir" -o "$TMP/x.html" 2>"$TMP/err"; rc=$?
check "a directory without sweep.h5: exit 2" sh -c "test $rc -eq 2 && grep -q 'sweep.h5' '$TMP/err'"
"$UVMSIM" report "$TMP/run.h5" -o "$TMP/no/such/dir/x.html" 2>"$TMP/err"; rc=$?
check "unwritable output: exit 1 with a message" sh -c "test $rc -eq 1 && grep -q 'cannot write' '$TMP/err'"
exit $FAILS
