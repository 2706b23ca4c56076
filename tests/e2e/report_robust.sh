#!/bin/sh
# uvmsim report on files that are not (whole) uvmsim results (issue 38
# R1-R7): each is refused with exit 2 and one line "FILE: not a uvmsim
# result: ...", or drawn, in bounded time and size; never a crash, a
# sanitizer report, HDF5's error stack, or a temporary left behind.  The
# files are made here with h5py (hand-made ones) and by flipping bits of a
# real result with a seeded generator.
. "$(dirname "$0")/../e2e_lib.sh"
PY=/usr/bin/python3
if ! $PY -c 'import h5py, numpy' 2>/dev/null; then
    not_ok "python3-h5py not installed"; exit 1
fi

# A minimal valid result: what page_run reads, written as uvmsim does.
# Then variants, each damaged in one way.
$PY - "$TMP" <<'PYEOF'
import sys, h5py, numpy as np
d = sys.argv[1]
def base(path, batches=None, ts=None, hist=None, events=np.uint64(9), status="completed"):
    f = h5py.File(path, "w")
    f.attrs["uvmsim_version"] = "0.1.0"; f.attrs["status"] = status
    f.attrs["seed"] = np.uint64(1); f.attrs["sim_time_ps"] = np.uint64(4000000)
    f.attrs["events"] = events
    c = f.create_group("config"); c.attrs["yaml"] = "x: 1\n"; c.attrs["gpu.clock"] = 1e9
    s = f.create_dataset("stats/gpu/warp_insts", data=np.uint64(30))
    s.attrs["kind"] = "counter"; s.attrs["unit"] = ""; s.attrs["description"] = "d"
    if hist is not None:
        h = f.create_dataset("stats/driver/residency_us", data=np.array([0, 2, 1, 4], dtype=np.uint64))
        h.attrs["kind"] = "histogram"; h.attrs["unit"] = "us"; h.attrs["description"] = "d"
        h.attrs["count"] = np.uint64(7); h.attrs["max"] = np.uint64(35); h.attrs["sum"] = 100.0
        h.attrs["bin_width"] = hist
    if batches is not None:
        cols = ["start_ps", "end_ps", "faults", "handling_ps", "pages", "evictions"]
        b = np.zeros(len(batches[0]), dtype=[(n, "<f8") for n in cols])
        b["start_ps"], b["end_ps"], b["faults"] = batches
        b["handling_ps"] = 0
        f.create_dataset("batches", data=b)
    if ts is not None:
        t = np.zeros(len(ts), dtype=[("time_ps", "<f8"), ("gpu.warp_insts", "<f8"),
                                     ("driver.resident_pages", "<f8")])
        t["time_ps"] = ts; t["gpu.warp_insts"] = np.arange(len(ts))
        t["driver.resident_pages"] = 5
        f.create_dataset("timeseries", data=t)
    return f
base(d + "/ok.h5", batches=([0, 1e6], [1e6, 2e6], [3, 4]), ts=[1e6, 2e6]).close()
# R1: hi == lo where lo + 1 == lo; a histogram of infinite / 1e308 bins.
base(d + "/r1_batches.h5", batches=([-1e23] * 3, [-1e23] * 3, [5, 5, 5])).close()
base(d + "/r1_ts.h5", ts=[-1e30, -1e30, -1e30]).close()
base(d + "/r1_inf_bins.h5", hist=np.inf).close()
base(d + "/r1_huge_bins.h5", hist=1e308).close()
# R2: arrays where one value belongs.
base(d + "/r2_events.h5", events=np.array([1, 2, 3], dtype=np.uint64)).close()
base(d + "/r2_status.h5", status=np.array([b"completed", b"x" * 64])).close()
f = base(d + "/r2_clock.h5"); del f["config"].attrs["gpu.clock"]
f["config"].attrs["gpu.clock"] = np.arange(64.0); f.close()
# R3: dataspaces far larger than their stored bytes; fixed strings of 2 MiB.
f = base(d + "/r3_stat31.h5")
f.create_dataset("stats/gpu/big", shape=(2**31,), dtype="f8", chunks=(4096,)); f.close()
f = base(d + "/r3_table40.h5")
f.create_dataset("timeseries", shape=(2**40,), dtype=[("time_ps", "<u8")], chunks=(4096,)); f.close()
f = base(d + "/r3_strings.h5")
k = np.zeros(4, dtype=[("name", "S2097152"), ("start_ps", "<u8"), ("end_ps", "<u8"),
                       ("warp_insts", "<u8")])
f.create_dataset("kernels", data=k, chunks=(1,), compression="gzip"); f.close()
# R4: NaN and infinities where counts belong (uvmsim writes none).
base(d + "/r4_nonfinite.h5", batches=([0, 1, 2, 3, 4], [1, np.inf, 3, 4, 1e308],
                                       [np.nan, np.inf, -np.inf, 1e308, -1e308])).close()
PYEOF

# refused NAME FILE PATTERN: exit 2, one line "uvmsim: report: FILE: PATTERN",
# within 30 s, no page and no temporary left.
refused() {
    rm -f "$TMP"/out.html*
    # At most 20 MiB written (an endless axis would fill the disk).
    (ulimit -f 40960; timeout 30 "$UVMSIM" report "$2" -o "$TMP/out.html") >/dev/null 2>"$TMP/err"
    rc=$?
    if [ $rc -eq 2 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
        grep -q "^uvmsim: report: $2: $3" "$TMP/err" && ! ls "$TMP"/out.html* >/dev/null 2>&1; then
        ok "$1"
    else
        not_ok "$1: exit $rc, $(ls "$TMP" | grep -c out.html) files, stderr: $(head -c 300 "$TMP/err")"
    fi
}
# drawn NAME FILE: exit 0 within 30 s, a page under 2 MiB whose SVG
# coordinates are all finite numbers; stderr holds only the line naming
# the page written (issue 36).
drawn() {
    rm -f "$TMP"/out.html*
    # At most 20 MiB written (an endless axis would fill the disk).
    (ulimit -f 40960; timeout 30 "$UVMSIM" report "$2" -o "$TMP/out.html") >/dev/null 2>"$TMP/err"
    rc=$?
    size=$( (wc -c <"$TMP/out.html") 2>/dev/null || echo 0)
    if [ $rc -eq 0 ] && [ "$size" -lt 2097152 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
        grep -q '^uvmsim: wrote ' "$TMP/err" &&
        ! grep -Eiq '(x|y|x1|x2|y1|y2|width|height|points)="[^"]*(nan|inf)' "$TMP/out.html"; then
        ok "$1"
    else
        not_ok "$1: exit $rc, $size bytes, stderr: $(head -c 300 "$TMP/err")"
    fi
}
NR="not a uvmsim result"
drawn "a small valid result draws" "$TMP/ok.h5"
drawn "R1: batches at start = end = -1e23 draw in bounded size" "$TMP/r1_batches.h5"
drawn "R1: a time series at -1e30 throughout draws in bounded size" "$TMP/r1_ts.h5"
refused "R1: a histogram of infinite bin width is refused" "$TMP/r1_inf_bins.h5" "$NR: histogram"
refused "R1: a histogram of 1e308-wide bins is refused" "$TMP/r1_huge_bins.h5" "$NR: histogram"
refused "R2: /@events = [1, 2, 3] is refused, not read into one double" "$TMP/r2_events.h5" \
    "$NR: attribute 'events' of . is not a single value"
refused "R2: /@status as an array of strings is refused" "$TMP/r2_status.h5" \
    "$NR: attribute 'status' of . is not a single value"
refused "R2: /config@gpu.clock of 64 doubles is refused" "$TMP/r2_clock.h5" \
    "$NR: attribute 'gpu.clock' of config is not a single value"
refused "R3: 2^31 never-written doubles in /stats are refused, not allocated" "$TMP/r3_stat31.h5" \
    "$NR: /stats/gpu/big: 17179869184 bytes claimed"
refused "R3: a table of 2^40 never-written rows is refused" "$TMP/r3_table40.h5" \
    "$NR: /timeseries: 8796093022208 bytes claimed"
refused "R3: a table of 2 MiB fixed strings is refused" "$TMP/r3_strings.h5" \
    "$NR: /kernels: field 'name' is a string of 2097152 bytes"
drawn "R4: NaN and infinities in /batches draw (left out), no cast of them" "$TMP/r4_nonfinite.h5"

# R6: a failing report leaves no OUT.tmp.PID; one of a dead process is
# removed, one of a live process kept.
sh -c 'exit 0' & wait $!
dead=$!
touch "$TMP/keep.html.tmp.$dead" "$TMP/keep.html.tmp.$$"
"$UVMSIM" report "$TMP/ok.h5" -o "$TMP/keep.html" 2>/dev/null
check "R6: a stale temporary of a dead pid is removed, a live one's kept" \
    sh -c "[ ! -e '$TMP/keep.html.tmp.$dead' ] && [ -e '$TMP/keep.html.tmp.$$' ]"
rm -f "$TMP"/keep.html*

# R5, R7: 120 results with one bit flipped each (seeded), from a real run.
# shellcheck disable=SC2086
"$UVMSIM" run configs/default.yaml $SMALL --quiet --no-host-metrics -o "$TMP/real.h5"
$PY - "$TMP/real.h5" "$TMP/flip" <<'PYEOF'
import os, random, sys
data = bytearray(open(sys.argv[1], "rb").read())
os.makedirs(sys.argv[2])
rng = random.Random(38)
for i in range(120):
    b = bytearray(data)
    # Half anywhere, half in the first 16 KiB (superblock, headers, heaps).
    pos = rng.randrange(len(b) if i % 2 else min(len(b), 16384))
    b[pos] ^= 1 << rng.randrange(8)
    open("%s/f%03d.h5" % (sys.argv[2], i), "wb").write(b)
PYEOF
crash=0 multi=0 noise=0 left=0 other=0
for f in "$TMP"/flip/*.h5; do
    (ulimit -f 40960; timeout 60 "$UVMSIM" report "$f" -o "$TMP/flip.html") >/dev/null 2>"$TMP/err"
    rc=$?
    case $rc in 0|2) ;; 1) other=$((other + 1)) ;; *) crash=$((crash + 1)); echo "# $f: exit $rc" ;; esac
    [ "$(wc -l <"$TMP/err")" -le 1 ] || multi=$((multi + 1))
    grep -q HDF5 "$TMP/err" && noise=$((noise + 1))
    ls "$TMP"/flip.html.tmp.* >/dev/null 2>&1 && left=$((left + 1))
    rm -f "$TMP"/flip.html*
done
check "R5: 120 bit-flipped results: no crash, sanitizer report or timeout ($crash)" [ $crash -eq 0 ]
check "R5: 120 bit-flipped results: exit 0 or 2 ($other exit 1)" [ $other -eq 0 ]
check "R7: 120 bit-flipped results: at most one line on stderr ($multi more)" [ $multi -eq 0 ]
check "R7: 120 bit-flipped results: no HDF5 error stack on stderr ($noise)" [ $noise -eq 0 ]
check "R6: 120 bit-flipped results: no temporary left ($left)" [ $left -eq 0 ]

# R7 in sweep merge: a damaged point result (20 seeded flips of one) gives
# at most one line on stderr and no HDF5 noise.  (Which exit status and
# whether the point is merged is the sweep's own business: issue 38 S2.)
cat >"$TMP/sw.yaml" <<YAML
base: $(pwd)/configs/default.yaml
set:
  workload.stream.footprint: 256KiB
  sim.epoch: 20us
axes:
  driver.eviction: [lru, fifo]
YAML
"$UVMSIM" sweep run "$TMP/sw.yaml" -o "$TMP/sw" -j 1 >/dev/null 2>&1
cp "$TMP/sw/points/lru.h5" "$TMP/lru.h5"
$PY - "$TMP/lru.h5" "$TMP/pflip" <<'PYEOF'
import os, random, sys
data = bytearray(open(sys.argv[1], "rb").read())
os.makedirs(sys.argv[2])
rng = random.Random(3805)
for i in range(20):
    b = bytearray(data)
    b[rng.randrange(min(len(b), 16384))] ^= 1 << rng.randrange(8)
    open("%s/p%02d.h5" % (sys.argv[2], i), "wb").write(b)
PYEOF
multi=0 noise=0 crash=0
for f in "$TMP"/pflip/*.h5; do
    cp "$f" "$TMP/sw/points/lru.h5"
    timeout 60 "$UVMSIM" sweep merge "$TMP/sw" >/dev/null 2>"$TMP/err"
    [ $? -gt 2 ] && crash=$((crash + 1))
    [ "$(wc -l <"$TMP/err")" -le 1 ] || multi=$((multi + 1))
    grep -q HDF5 "$TMP/err" && noise=$((noise + 1))
done
check "R7: sweep merge of 20 damaged points: no crash ($crash)" [ $crash -eq 0 ]
check "R7: sweep merge of 20 damaged points: at most one line on stderr ($multi more)" [ $multi -eq 0 ]
check "R7: sweep merge of 20 damaged points: no HDF5 noise ($noise)" [ $noise -eq 0 ]
exit $FAILS
