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

[ "$FAILS" -eq 0 ]
