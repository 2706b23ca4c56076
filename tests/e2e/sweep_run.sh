#!/bin/sh
# Running sweeps as a user does: -j 1 and -j 2 agree byte for byte outside
# /host, a point equals the run typed by hand, reruns resume, a changed
# config reruns exactly its points, SIGKILL and Ctrl-C mid-way lose
# nothing, failures are recorded, one sweep per directory, Slurm scripts.
# No timing is asserted: the machine may be busy.
. "$(dirname "$0")/../e2e_lib.sh"
SMOKE=configs/sweeps/smoke.yaml
PY=/usr/bin/python3
N=8      # the smoke sweep: 2 policies x 2 fractions x 2 zip rows

# stat_of FILE: "inode mtime" (a rerun replaces a result by rename).
stat_of() { stat -c '%i %y' "$1"; }
count_results() { ls "$1/points" 2>/dev/null | grep -c '\.h5$'; }
no_temps() { [ -z "$(find "$1" -name '*.tmp.*')" ]; }

# ---- -j 1 and -j 2 ----
"$UVMSIM" sweep run "$SMOKE" -o "$TMP/j1" -j 1 >"$TMP/j1.out" 2>&1
check "-j 1 exits 0" [ $? -eq 0 ]
"$UVMSIM" sweep run "$SMOKE" -o "$TMP/j2" -j2 >"$TMP/j2.out" 2>&1
check "-j2 exits 0" [ $? -eq 0 ]
check "not a terminal: one line per finished point" \
    [ "$(grep -c "^\[[1-8]/$N\] done " "$TMP/j2.out")" -eq $N ]
check "merged all points" grep -q "^merge: $N of $N points" "$TMP/j2.out"
same_files=0
for f in "$TMP"/j1/points/*.h5; do
    g="$TMP/j2/points/$(basename "$f")"
    h5diff --exclude-path /host "$f" "$g" >/dev/null 2>&1 || continue
    # Outside /host the bytes are the same: at most its eight 8-byte values
    # differ (docs/results.md: four figures, and the four CPU-time ones of
    # issue 13).
    [ "$(stat -c %s "$f")" = "$(stat -c %s "$g")" ] || continue
    [ "$(cmp -l "$f" "$g" | wc -l)" -le 64 ] || continue
    same_files=$((same_files + 1))
done
check "-j 1 and -j 2: the $N point files agree outside /host" [ $same_files -eq $N ]
h5diff --exclude-path /host "$TMP/j1/sweep.h5" "$TMP/j2/sweep.h5" >/dev/null 2>&1
check "-j 1 and -j 2: merged files agree outside /host" [ $? -eq 0 ]
h5diff "$TMP/j1/sweep.h5" "$TMP/j2/sweep.h5" /points /points >/dev/null 2>&1
check "-j 1 and -j 2: identical /points" [ $? -eq 0 ]
check "-j 1 and -j 2: merged bytes differ at most in /host ($N x 64)" \
    [ "$(cmp -l "$TMP/j1/sweep.h5" "$TMP/j2/sweep.h5" | wc -l)" -le $((N * 64)) ]
check "no temporary left" no_temps "$TMP/j1"

# A point is the run one would type by hand.
"$UVMSIM" run configs/default.yaml -s sim.epoch=5us -s workload.kind=pattern \
    -s driver.eviction=lru -s gpu.memory.fraction=50% \
    -s workload.pattern.type=thrashing -s workload.pattern.pages=256 \
    --quiet -o "$TMP/hand.h5"
h5diff --exclude-path /host "$TMP/hand.h5" "$TMP/j1/points/lru_50pct_thrashing_256.h5" >/dev/null 2>&1
check "a point equals uvmsim run with the same keys" [ $? -eq 0 ]

# ---- resuming ----
before=$(stat_of "$TMP/j1/points/fifo_75pct_thrashing_256.h5")
"$UVMSIM" sweep run "$SMOKE" -o "$TMP/j1" >"$TMP/again.out" 2>&1
check "rerun exits 0" [ $? -eq 0 ]
check "rerun runs nothing" grep -q "$N already done, 0 to run" "$TMP/again.out"
check "rerun leaves results alone" [ "$(stat_of "$TMP/j1/points/fifo_75pct_thrashing_256.h5")" = "$before" ]
"$UVMSIM" sweep run "$SMOKE" -o "$TMP/j1" --force >"$TMP/force.out" 2>&1
check "--force reruns every point" grep -q "0 already done, $N to run" "$TMP/force.out"
check "--force replaced the result" [ "$(stat_of "$TMP/j1/points/fifo_75pct_thrashing_256.h5")" != "$before" ]

# ---- a changed config reruns exactly its points ----
# The names leave out the page count, so changing it for one zip row
# changes the config of 2 x 2 = 4 points under the same names.
{
    sed "s|^base: .*|base: $PWD/configs/default.yaml|" "$SMOKE"
    echo 'name: "{driver.eviction}_{gpu.memory.fraction}_{workload.pattern.type}"'
} >"$TMP/named.yaml"
"$UVMSIM" sweep run "$TMP/named.yaml" -o "$TMP/ch" >/dev/null 2>&1
check "named sweep runs" [ $? -eq 0 ] && [ "$(count_results "$TMP/ch")" -eq $N ]
keep=$(stat_of "$TMP/ch/points/lru_50pct_thrashing.h5")
redo=$(stat_of "$TMP/ch/points/lru_50pct_region-moving.h5")
sed -i 's/workload.pattern.pages: \[256, 512\]/workload.pattern.pages: [256, 384]/' "$TMP/named.yaml"
"$UVMSIM" sweep plan "$TMP/named.yaml" -o "$TMP/ch" >"$TMP/plan" 2>&1
check "plan shows the changed points stale" [ "$(grep -c ' stale: ' "$TMP/plan")" -eq 4 ]
check "... and why: the value that changed" \
    [ "$(grep -c ' stale: key workload.pattern.pages 512 -> 384 ' "$TMP/plan")" -eq 4 ]
"$UVMSIM" sweep run "$TMP/named.yaml" -o "$TMP/ch" >"$TMP/ch.out" 2>&1
check "changed config: exit 0" [ $? -eq 0 ]
check "changed config: 4 points rerun" grep -q "4 already done, 4 to run" "$TMP/ch.out"
check "changed config: the others untouched" [ "$(stat_of "$TMP/ch/points/lru_50pct_thrashing.h5")" = "$keep" ]
check "changed config: its points replaced" [ "$(stat_of "$TMP/ch/points/lru_50pct_region-moving.h5")" != "$redo" ]

# ---- SIGKILL mid-way, then the same command ----
"$UVMSIM" sweep run "$SMOKE" -o "$TMP/k" -j 2 >"$TMP/k.out" 2>&1 &
pid=$!
i=0
while [ "$(count_results "$TMP/k")" -lt 2 ] && [ $i -lt 6000 ]; do sleep 0.01; i=$((i + 1)); done
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
rc=$?
sleep 0.2   # the children die with the sweep (PR_SET_PDEATHSIG)
done_before=$(count_results "$TMP/k")
check "killed mid-way (exit $rc, $done_before of $N done)" [ $rc -eq 137 ] && [ "$done_before" -lt $N ]
"$UVMSIM" sweep plan "$SMOKE" -o "$TMP/k" >"$TMP/plan" 2>&1
check "every result left behind is whole and valid" \
    [ "$(grep -c ' done ' "$TMP/plan")" -eq "$done_before" ]
"$UVMSIM" sweep run "$SMOKE" -o "$TMP/k" -j 2 >"$TMP/k2.out" 2>&1
check "rerun after SIGKILL exits 0" [ $? -eq 0 ]
check "rerun after SIGKILL runs only the missing points" \
    grep -q "$done_before already done, $((N - done_before)) to run" "$TMP/k2.out"
check "complete afterwards: $N results, no temporary" \
    [ "$(count_results "$TMP/k")" -eq $N ] && no_temps "$TMP/k"
h5diff --exclude-path /host "$TMP/j2/sweep.h5" "$TMP/k/sweep.h5" >/dev/null 2>&1
check "merged file equals the uninterrupted run's" [ $? -eq 0 ]

# ---- Ctrl-C (SIGINT to the sweep) ----
"$UVMSIM" sweep run "$SMOKE" -o "$TMP/int" -j 1 >"$TMP/int.out" 2>&1 &
pid=$!
i=0
while [ "$(count_results "$TMP/int")" -lt 1 ] && [ $i -lt 6000 ]; do sleep 0.01; i=$((i + 1)); done
kill -INT $pid
wait $pid 2>/dev/null
rc=$?
check "SIGINT: exit 130" [ $rc -eq 130 ]
check "SIGINT: says how to go on" grep -q "interrupted" "$TMP/int.out"
check "SIGINT: no temporary left" no_temps "$TMP/int"

# ---- failures ----
cat >"$TMP/fail.yaml" <<YAML
base: $PWD/configs/default.yaml
set:
  workload.kind: pattern
  workload.pattern.pages: 64
axes:
  sim.watchdog: [10ms, 10ns]   # 10 ns: above one access, below a translation (cli.sh)
YAML
"$UVMSIM" sweep run "$TMP/fail.yaml" -o "$TMP/f" >"$TMP/f.out" 2>&1
check "a failed point: exit 1" [ $? -eq 1 ]
check "a failed point: named with its exit code" grep -q "FAILED 10ns (exit 3)" "$TMP/f.out"
check "a failed point: its error line shown" grep -q "internal error in watchdog" "$TMP/f.out"
check "a failed point: recorded" [ "$(head -n 1 "$TMP/f/logs/10ns.failed")" = "exit 3" ]
check "the other point still ran" [ -s "$TMP/f/points/10ms.h5" ]
$PY - "$TMP/f/sweep.h5" >"$TMP/py" 2>&1 <<'PYEOF'
import sys, h5py
with h5py.File(sys.argv[1], "r") as f:
    m = f["missing"][:]
    assert f.attrs["points_merged"] == 1 and f.attrs["points_planned"] == 2
    assert len(m) == 1 and m[0]["name"] == b"10ns" and m[0]["state"] == b"failed"
    assert m[0]["exit_code"] == 3
    assert list(f["points"]["name"]) == [b"10ms"]
print("ok")
PYEOF
check "sweep.h5 lists the failed point in /missing" grep -q '^ok$' "$TMP/py"
"$UVMSIM" sweep run "$TMP/fail.yaml" -o "$TMP/f" >"$TMP/f2.out" 2>&1
check "rerun tries only the failed point" grep -q "1 already done, 1 to run" "$TMP/f2.out"

# ---- one sweep per directory ----
"$UVMSIM" sweep run "$SMOKE" -o "$TMP/lock" -j 1 >/dev/null 2>&1 &
pid=$!
i=0
while [ ! -e "$TMP/lock/plan.tsv" ] && [ $i -lt 6000 ]; do sleep 0.01; i=$((i + 1)); done
kill -STOP $pid     # holds the lock while stopped
"$UVMSIM" sweep run "$SMOKE" -o "$TMP/lock" >"$TMP/lock.out" 2>&1
rc=$?
kill -CONT $pid
wait $pid 2>/dev/null
check "a second sweep in the same directory: exit 2" [ $rc -eq 2 ]
check "and says who holds it" grep -q "in use by another uvmsim sweep (pid $pid)" "$TMP/lock.out"

# ---- Slurm scripts without Slurm (--dry-run) ----
"$UVMSIM" sweep slurm "$SMOKE" -o "$TMP/s" --dry-run --max-parallel 3 \
    --partition short --time 1:00:00 --mem 1G --setup 'module load hdf5' >"$TMP/s.out" 2>&1
check "slurm --dry-run exits 0" [ $? -eq 0 ]
A="$TMP/s/slurm/array.sh"
check "array over the $N points, 3 at a time" grep -q "^#SBATCH --array=0-7%3$" "$A"
check "partition, time, memory" grep -q "^#SBATCH --partition=short$" "$A" &&
    grep -q "^#SBATCH --time=1:00:00$" "$A" && grep -q "^#SBATCH --mem=1G$" "$A"
check "setup line before the run" grep -q "^module load hdf5$" "$A"
"$UVMSIM" sweep plan "$SMOKE" | sed -n 's/^ *[0-9][0-9]*  *\([^ ]*\).*/\1/p' >"$TMP/names"
sed -n 's/^    \([^ ]*\)\( \\\)*$/\1/p' "$A" >"$TMP/task_names"
check "task i runs point i of the plan" cmp -s "$TMP/names" "$TMP/task_names"
check "the task runs sweep point" grep -q "sweep point '.*' \"\$1\"$" "$A"
check "merge script" grep -q "sweep merge '$TMP/s'$" "$TMP/s/slurm/merge.sh"
check "dry run submits nothing" [ ! -e "$TMP/s/slurm/jobs" ]
check "dry run names the sbatch commands" grep -q "dependency=afterok:<array job>" "$TMP/s.out"
# A Slurm task: one point, its log and record, then merge by hand.
"$UVMSIM" sweep point "$TMP/s" fifo_75pct_thrashing_256 >"$TMP/p.out" 2>&1
check "sweep point runs one point" [ $? -eq 0 ] && [ "$(count_results "$TMP/s")" -eq 1 ]
"$UVMSIM" sweep point "$TMP/s" fifo_75pct_thrashing_256 >"$TMP/p.out" 2>&1
check "sweep point of a done point does nothing" grep -q "already done" "$TMP/p.out"
before=$(stat_of "$TMP/s/points/fifo_75pct_thrashing_256.h5")
"$UVMSIM" sweep point "$TMP/s" fifo_75pct_thrashing_256 --force >"$TMP/p.out" 2>&1
check "sweep point --force reruns it" [ "$(stat_of "$TMP/s/points/fifo_75pct_thrashing_256.h5")" != "$before" ]
"$UVMSIM" sweep point "$TMP/s" nosuch 2>"$TMP/e"
check "sweep point of an unknown name: exit 2" [ $? -eq 2 ] && grep -q "no point named 'nosuch'" "$TMP/e"
# scancel: SIGTERM reaches the task's `sweep point` and its `uvmsim run` at
# once.  The point must not SIGKILL its child (PR_SET_PDEATHSIG) before the
# child removed its temporary result, nor record the stop as a failure.
# The point runs for seconds (32768 pages, 4 passes at 50 %).
cat >"$TMP/long.yaml" <<YAML
base: $PWD/configs/default.yaml
set:
  workload.kind: pattern
  workload.pattern.pages: 32768
  workload.pattern.passes: 4
  gpu.memory.fraction: 50%
axes:
  driver.eviction: [lru]
name: "long_{driver.eviction}"
YAML
"$UVMSIM" sweep slurm "$TMP/long.yaml" -o "$TMP/sc" --dry-run >/dev/null 2>&1
"$UVMSIM" sweep point "$TMP/sc" long_lru >"$TMP/sc.out" 2>&1 &
pid=$!
i=0
while [ -z "$(find "$TMP/sc/points" -name '*.tmp.*' 2>/dev/null)" ] && [ $i -lt 6000 ]; do
    sleep 0.01; i=$((i + 1))
done
child=$(pgrep -P $pid)
kill -TERM $pid $child
wait $pid
rc=$?
sleep 0.2
check "scancel of a point (child ${child:-none}): exit 143" [ $rc -eq 143 ] && [ -n "$child" ]
check "scancel of a point: says so" grep -q "long_lru: stopped by SIGTERM" "$TMP/sc.out"
check "scancel of a point: no temporary, no result, no failure record" no_temps "$TMP/sc" &&
    [ "$(count_results "$TMP/sc")" -eq 0 ] && [ ! -e "$TMP/sc/logs/long_lru.failed" ]
"$UVMSIM" sweep merge "$TMP/s" >"$TMP/m.out" 2>&1
check "merge of a partial sweep: exit 1" [ $? -eq 1 ]
check "merge says what is missing" grep -q "^merge: 1 of $N points" "$TMP/m.out" &&
    [ "$(grep -c '^  missing .*(not run)$' "$TMP/m.out")" -eq 7 ]
"$UVMSIM" sweep slurm "$SMOKE" -o "$TMP/s" --dry-run >"$TMP/s2.out" 2>&1
check "slurm scripts only for points without a result" grep -q "1 already done, 7 to run" "$TMP/s2.out" &&
    grep -q "^#SBATCH --array=0-6$" "$A"
"$UVMSIM" sweep slurm "$SMOKE" -o "$TMP/s" --dry-run --force >"$TMP/s3.out" 2>&1
check "slurm --force: every point, and the tasks rerun theirs" grep -q "^#SBATCH --array=0-7$" "$A" &&
    grep -q "sweep point '.*' \"\$1\" --force$" "$A"
PATH=/nonexistent "$UVMSIM" sweep slurm "$SMOKE" -o "$TMP/s" >/dev/null 2>"$TMP/e"
check "no sbatch: exit 2, says so" [ $? -eq 2 ] && grep -q "cannot run sbatch" "$TMP/e"
"$UVMSIM" sweep merge "$TMP" 2>"$TMP/e"
check "merge of a directory without a plan: exit 2" [ $? -eq 2 ] && grep -q "not a sweep directory" "$TMP/e"

# ---- the merged table as pandas sees it ----
$PY - "$TMP/j1/sweep.h5" "$TMP/j1/points" >"$TMP/py" 2>&1 <<'PYEOF'
import math, sys
sys.path.insert(0, "scripts")
import h5py
from read_results import load_sweep, load_stats, load_run
df = load_sweep(sys.argv[1])
assert len(df) == 8, len(df)
assert df.attrs["axes"] == ["driver.eviction", "gpu.memory.fraction",
                            "workload.pattern.type", "workload.pattern.pages"]
assert df.attrs["axis_text"]["gpu.memory.fraction"] == ["75%", "50%"]
# 75% and 50% in base units; the zip pairs each pattern with its pages.
assert sorted(set(df["gpu.memory.fraction"])) == [0.5, 0.75]
assert set(zip(df["workload.pattern.type"], df["workload.pattern.pages"])) == \
    {("thrashing", 256), ("region-moving", 512)}
# Every row is its point file: each scalar statistic and the run's end.
for _, row in df.iterrows():
    path = f"{sys.argv[2]}/{row['name']}.h5"
    stats, run = load_stats(path), load_run(path)
    assert row["sim_time_ps"] == run["sim_time_ps"] and row["status"] == run["status"]
    for k, v in stats.items():
        assert row[k] == v or (math.isnan(row[k]) and math.isnan(v)), (row["name"], k)
print("ok")
PYEOF
check "load_sweep(): one row per point, equal to each point file's statistics" grep -q '^ok$' "$TMP/py"
[ -s "$TMP/py" ] && ! grep -q '^ok$' "$TMP/py" && cat "$TMP/py"

[ "$FAILS" -eq 0 ]
