#!/bin/sh
# scripts/read_results.py on files that are not readable uvmsim results
# (issue 38 P1): one line on stderr naming the file, exit 2, no traceback,
# and no allocation of what a damaged dataspace claims.  The files are made
# here with h5py.
. "$(dirname "$0")/../e2e_lib.sh"

PY=/usr/bin/python3
if ! $PY -c "import h5py, pandas" 2>/dev/null; then
    not_ok "python3-h5py/python3-pandas not installed"
    exit 1
fi
# shellcheck disable=SC2086
"$UVMSIM" run configs/default.yaml $SMALL --quiet -o "$TMP/good.h5"
$PY - "$TMP" <<'PYEOF'
import sys, h5py
d = sys.argv[1]
# A chunked dataset of 2^40 doubles that was never written: a few hundred
# bytes of file whose dataspace claims 8 TiB.
with h5py.File(d + "/huge.h5", "w") as f:
    f.create_group("stats"); f.create_group("config")
    f.create_dataset("timeseries", shape=(2**40,), dtype="f8", chunks=(1024,))
# Another program's HDF5: no /stats.
with h5py.File(d + "/other.h5", "w") as f:
    f["x"] = [1, 2, 3]
data = open(d + "/good.h5", "rb").read()
open(d + "/trunc.h5", "wb").write(data[: len(data) // 2])
PYEOF

# bad NAME FILE: read_results.py exits 2 with one line naming FILE.
bad() {
    $PY scripts/read_results.py "$2" >"$TMP/out" 2>"$TMP/err"
    rc=$?
    if [ $rc -eq 2 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
        grep -qF "read_results.py: $2: not a readable uvmsim result" "$TMP/err" &&
        ! grep -q Traceback "$TMP/err"; then
        ok "$1"
    else
        not_ok "$1: exit $rc, stderr: $(head -c 300 "$TMP/err")"
    fi
}
bad "a dataspace of 8 TiB over no stored chunk is refused, not allocated" "$TMP/huge.h5"
bad "an HDF5 file without /stats" "$TMP/other.h5"
bad "a truncated result" "$TMP/trunc.h5"
bad "a missing file" "$TMP/none.h5"
$PY scripts/read_results.py "$TMP/good.h5" >"$TMP/out" 2>"$TMP/err"
check "a good result still reads (exit 0)" [ $? -eq 0 ]
exit $FAILS
