#!/bin/sh
# The HPE example sweep, reduced to 64-page workloads, drawn as the paper
# draws it (speedup over LRU per access pattern, a geometric-mean cluster,
# one panel per memory size) to PNG and PDF; the bars are counted and
# recomputed from the merged file through --table.
. "$(dirname "$0")/../e2e_lib.sh"
PY=/usr/bin/python3
PLOT="$PY scripts/plot_sweep.py"
if ! $PY -c "import h5py, pandas, matplotlib" 2>/dev/null; then
    not_ok "python3-h5py, python3-pandas, python3-matplotlib needed (apt-get install python3-matplotlib)"
    exit 1
fi

"$UVMSIM" sweep run configs/sweeps/hpe.yaml -o "$TMP/hpe" -s workload.pattern.pages=64 >"$TMP/run.out" 2>&1
check "reduced HPE sweep runs (84 points)" [ $? -eq 0 ] && grep -q "^merge: 84 of 84 points" "$TMP/run.out"

H="$TMP/hpe/sweep.h5"
$PLOT "$H" --x workload.pattern.type --y sim_time_ps --speedup \
    --normalize-to driver.eviction=lru --group driver.eviction \
    --facet gpu.memory.fraction -o "$TMP/hpe.png" --table >"$TMP/table.md" 2>"$TMP/err"
check "plot exits 0" [ $? -eq 0 ]
check "PNG written" [ -s "$TMP/hpe.png" ] && [ "$(head -c 4 "$TMP/hpe.png" | od -An -c | tr -d ' ')" = '211PNG' ]
# 2 panels (75%, 50%) x (6 patterns + GM) clusters x 7 policies.
bars=$(grep '^| ' "$TMP/table.md" | grep -v '^| workload.pattern.type' |
       awk -F'|' '{for (i = 3; i < NF; i++) if ($i ~ /[0-9]/) n++} END {print n + 0}')
check "98 bars in the table ($bars)" [ "$bars" -eq 98 ]
check "two panels" [ "$(grep -c '^### gpu.memory.fraction = ' "$TMP/table.md")" -eq 2 ]
check "a GM cluster per panel" [ "$(grep -c '^| GM |' "$TMP/table.md")" -eq 2 ]
# The baseline against itself is 1 in every cluster (14 of them).
ones=$(awk -F'|' '/^\| / && $2 !~ /workload/ {print $4}' "$TMP/table.md" | grep -c '^ 1 $')
check "LRU bars are 1 ($ones of 14)" [ "$ones" -eq 14 ]

# HPE's speedups at 75%, recomputed from the merged file with h5py alone.
$PY - "$H" "$TMP/table.md" >"$TMP/py" 2>&1 <<'PYEOF'
import math, sys, h5py
with h5py.File(sys.argv[1], "r") as f:
    p = f["points"][:]
t = {}
for r in p:
    t[(r["driver.eviction"].decode(), r["gpu.memory.fraction"],
       r["workload.pattern.type"].decode())] = float(r["sim_time_ps"])
pats = ["streaming", "thrashing", "part-repetitive", "most-repetitive",
        "repetitive-thrashing", "region-moving"]
want = [t[("lru", 0.75, w)] / t[("hpe", 0.75, w)] for w in pats]
want.append(math.exp(sum(math.log(x) for x in want) / len(want)))
lines = open(sys.argv[2]).read().split("### ")[1].splitlines()
rows = [l.split("|") for l in lines if l.startswith("| ") and "workload" not in l]
hdr = [c.strip() for c in [l for l in lines if l.startswith("| workload")][0].split("|")]
col = hdr.index("hpe")
got = [float(r[col]) for r in rows]
assert [r[1].strip() for r in rows] == pats + ["GM"], rows
for g, w in zip(got, want):
    assert abs(g - w) <= 5e-4 * w, (g, w)
print("ok")
PYEOF
check "table values are baseline / value, GM their geometric mean" grep -q '^ok$' "$TMP/py"
grep -q '^ok$' "$TMP/py" || cat "$TMP/py"

$PLOT "$H" --x workload.pattern.type --y driver.evictions --group driver.eviction \
    --where gpu.memory.fraction=50% -o "$TMP/ev.pdf" 2>"$TMP/err"
check "PDF, no normalisation, --where" [ $? -eq 0 ] && [ "$(head -c 4 "$TMP/ev.pdf")" = "%PDF" ]
$PLOT "$H" --line --x gpu.memory.fraction --y sim_time_ps --group driver.eviction \
    --where workload.pattern.type=thrashing -o "$TMP/line.png" 2>"$TMP/err"
check "line plot over a numeric axis" [ $? -eq 0 ] && [ -s "$TMP/line.png" ]
$PLOT "$H" --x workload.pattern.type --y sim_time_pss --table >/dev/null 2>"$TMP/err"
check "unknown --y: exit 2 with a suggestion" [ $? -eq 2 ] && grep -q "did you mean sim_time_ps" "$TMP/err"
$PLOT "$H" --x workload.kind --y sim_time_ps --table >/dev/null 2>"$TMP/err"
check "--x not an axis: exit 2" [ $? -eq 2 ] && grep -q "not an axis" "$TMP/err"
$PLOT "$H" --x workload.pattern.type --y sim_time_ps --normalize-to driver.eviction=lfu --table >/dev/null 2>"$TMP/err"
check "unknown baseline value: exit 2" [ $? -eq 2 ] && grep -q "no value 'lfu'" "$TMP/err"

[ "$FAILS" -eq 0 ]
