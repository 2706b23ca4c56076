#!/bin/sh
# Results as batch users read them: determinism across runs and job order,
# and the pandas reader.
. "$(dirname "$0")/../e2e_lib.sh"

# shellcheck disable=SC2086
"$UVMSIM" run configs/default.yaml $SMALL --seed 7 --quiet -o "$TMP/a.h5"
# shellcheck disable=SC2086
"$UVMSIM" run configs/default.yaml $SMALL --seed 7 --quiet -o "$TMP/b.h5"
if command -v h5diff >/dev/null 2>&1; then
    h5diff --exclude-path /host "$TMP/a.h5" "$TMP/b.h5" >"$TMP/diff"
    check "same config and seed: identical statistics, series and records" [ $? -eq 0 ]
else
    not_ok "h5diff not installed (apt-get install hdf5-tools)"
fi

PY=/usr/bin/python3
if $PY -c "import h5py, pandas" 2>/dev/null; then
    $PY scripts/read_results.py "$TMP/a.h5" >"$TMP/py" 2>&1
    check "scripts/read_results.py reads a result" [ $? -eq 0 ]
    $PY - "$TMP/a.h5" >"$TMP/py2" 2>&1 <<'PYEOF'
import sys
sys.path.insert(0, "scripts")
from read_results import load_stats, load_timeseries, load_table
s = load_stats(sys.argv[1])
ts = load_timeseries(sys.argv[1])
k = load_table(sys.argv[1], "kernels")
b = load_table(sys.argv[1], "batches")
# Conservation: every migrated page came in one batch.
assert b["pages"].sum() == s["driver.pages_migrated"], "pages per batch"
assert len(k) == s["gpu.kernels"] == 2
# Cumulative series end at the final scalar value.
assert ts["driver.pages_migrated"].iloc[-1] == s["driver.pages_migrated"]
print("ok")
PYEOF
    check "pandas view is consistent (batches sum to pages migrated)" grep -q '^ok$' "$TMP/py2"
else
    not_ok "python3-h5py/python3-pandas not installed"
fi

# sim.epoch_rows: with faults that take 200 us, most 5 us epochs only move
# the clock.  `changed` (the default) keeps, of the rows `every` writes,
# those that differ from the one before in something but time_ps,
# gpu.cycles and gpu.ipc, and the last row before each such change; the
# statistics are the same.
LONG="-s driver.fault_latency=200us"
# shellcheck disable=SC2086
"$UVMSIM" run configs/default.yaml $SMALL $LONG --quiet -o "$TMP/chg.h5"
# shellcheck disable=SC2086
"$UVMSIM" run configs/default.yaml $SMALL $LONG -s sim.epoch_rows=every --quiet -o "$TMP/all.h5"
if command -v h5diff >/dev/null 2>&1; then
    check "sim.epoch_rows changes no statistic" h5diff "$TMP/chg.h5" "$TMP/all.h5" /stats
fi
if $PY -c "import h5py, numpy" 2>/dev/null; then
    $PY - "$TMP/chg.h5" "$TMP/all.h5" >"$TMP/py3" 2>&1 <<'PYEOF'
import sys
import h5py
kept = h5py.File(sys.argv[1], "r")["timeseries"][:]
every = h5py.File(sys.argv[2], "r")["timeseries"][:]
end = h5py.File(sys.argv[2], "r").attrs["sim_time_ps"]
epoch = h5py.File(sys.argv[2], "r")["config"].attrs["sim.epoch"]
clock = {"time_ps", "gpu.cycles", "gpu.ipc"}
cols = [n for n in every.dtype.names if n not in clock]
same = lambda a, b: all(a[n] == b[n] for n in cols)
# `every`: one row per epoch, then the end.
assert list(every["time_ps"][:-1]) == [epoch * (i + 1) for i in range(len(every) - 1)]
assert every["time_ps"][-1] == end and kept["time_ps"][-1] == end
at = {t: i for i, t in enumerate(every["time_ps"])}
idx = [at[t] for t in kept["time_ps"]]           # KeyError: a row not sampled
assert idx == sorted(idx) and idx[0] == 0
assert all(kept[j] == every[i] for j, i in enumerate(idx)), "kept rows differ"
ks = set(idx)
for i in range(1, len(every)):
    changed = not same(every[i], every[i - 1])
    assert (i in ks) == (changed or i + 1 == len(every) or
                         not same(every[i + 1], every[i])), i
assert len(kept) < len(every) / 2, (len(kept), len(every))
print("ok", len(kept), len(every))
PYEOF
    check "sim.epoch_rows=changed keeps exactly the rows that change and the last before each change" \
        grep -q '^ok ' "$TMP/py3"
fi
if $PY -c "import h5py, pandas" 2>/dev/null; then
    # docs/results.md's recipe for every epoch back from `changed`.
    $PY - "$TMP/chg.h5" "$TMP/all.h5" >"$TMP/py4" 2>&1 <<'PYEOF'
import sys
sys.path.insert(0, "scripts")
from read_results import load_timeseries, load_config
ts = load_timeseries(sys.argv[1]).set_index("time_ps")
epoch = load_config(sys.argv[1])["sim.epoch"]
grid = range(epoch, int(ts.index[-1]) + 1, epoch)
full = ts.reindex(ts.index.union(grid)).ffill()
every = load_timeseries(sys.argv[2]).set_index("time_ps")
assert list(full.index) == list(every.index)
for c in every.columns:
    if c not in ("gpu.cycles", "gpu.ipc"):
        assert (full[c].astype(every[c].dtype) == every[c]).all(), c
print("ok")
PYEOF
    check "forward-filled on the epoch grid, changed rows give every row" grep -q '^ok$' "$TMP/py4"
fi

[ "$FAILS" -eq 0 ]
