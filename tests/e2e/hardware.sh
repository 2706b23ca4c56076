#!/bin/sh
# The real-GPU comparison (issue 40) on its smallest runs: the UVMSmart
# P1 and managedAllocRoundUp faults migrate what the GTX 1080 Ti's nvprof
# trace logged (exact), their times are judged, and the correlation plot
# is drawn.  The full comparison is scripts/reproduce/hardware.sh.
. "$(dirname "$0")/../e2e_lib.sh"
PY=${PYTHON:-/usr/bin/python3}
[ -x "$PY" ] || PY=python3
R=scripts/reproduce
"$PY" "$R/hardware_table.py" "$UVMSIM" --only p1. --csv "$TMP/p1.csv" >"$TMP/p1.md" 2>&1
check "hardware_table.py runs P1" [ $? -eq 0 ]
check "P1: 6 of 6 migration sizes exact" grep -q "^semantic: 6 of 6 reproduced" "$TMP/p1.md"
check "P1: the table has every row" [ "$(grep -c '^| p1\.' "$TMP/p1.md")" -eq 12 ]
"$PY" "$R/hardware_table.py" "$UVMSIM" --only roundup. >"$TMP/ru.md" 2>&1
check "managedAllocRoundUp: 9 of 9 migration sizes exact" \
    grep -q "^semantic: 9 of 9 reproduced" "$TMP/ru.md"
"$PY" "$R/plot_hardware.py" "$TMP/p1.csv" -o "$TMP/p1.png" 2>"$TMP/plot.err"
check "plot_hardware.py draws the correlation plot" [ -s "$TMP/p1.png" ]
[ "$FAILS" -eq 0 ]
