#!/bin/sh
# The Python package's own tests (python/tests, pytest from Debian), one
# ok / not ok line per test.  They run $BUILD/uvmsim on tiny configs, and
# the package from the repository (not an installed copy).
. "$(dirname "$0")/../e2e_lib.sh"
PY=/usr/bin/python3
if ! $PY -c "import pytest, h5py, pandas" 2>/dev/null; then
    not_ok "python3-pytest, python3-h5py, python3-pandas needed (apt-get install python3-pytest)"
    exit 1
fi
case $UVMSIM in /*) ;; *) UVMSIM="$(pwd)/$UVMSIM" ;; esac
UVMSIM="$UVMSIM" nice $PY -m pytest -q -rA python/tests >"$TMP/out" 2>&1
rc=$?
# -rA's summary: "PASSED file::test", "FAILED file::test - why",
# "ERROR file::test - why", "SKIPPED [n] file:line: why".
sed -n 's/^PASSED \(.*\)/ok - \1/p
s/^SKIPPED \[[0-9]*\] \(.*\)/ok - # SKIP \1/p
s/^\(FAILED\|ERROR\) \(.*\)/not ok - \2/p' "$TMP/out"
n=$(grep -c '^\(PASSED\|FAILED\|ERROR\|SKIPPED\) ' "$TMP/out")
if [ "$rc" -eq 5 ] || [ "$n" -eq 0 ]; then
    not_ok "pytest python/tests collected no test (exit $rc)"
fi
if [ "$rc" -ne 0 ]; then
    not_ok "pytest python/tests exits $rc"
    tail -n 60 "$TMP/out"
fi
[ "$rc" -eq 0 ]
