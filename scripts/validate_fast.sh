#!/bin/sh
# sim.model fast against cycle (issue 41, "Validate").
#
#   scripts/validate_fast.sh [BINARY]
#       the issue's set: at least 200 points drawn from every reproduction
#       sweep with committed results (thesis Ch. VI aside: fast refuses
#       selective caching) at the sweeps' own sizes, in groups of one
#       workload under each of the sweep's policies, each run in both
#       models by BINARY (default build/uvmsim), two at a time
#       (scripts/validation/fast_full.py: the selection); then writes
#       validation/fast/full.points.csv.gz and docs/fast-validation.md
#       (errors per sweep and metric, the goals, the rankings, the
#       speed).  The runs stay in VALIDATE_KEEP (default
#       /tmp/uvmsim-validate-full); a run whose result is there is kept,
#       so an interrupted validation resumes.  About 75 CPU minutes (50
#       wall minutes, two at a time) on the 2-core machine.
#
#   scripts/validate_fast.sh --cut [BINARY] [POINTS_PER_SWEEP] [GROUPS_PER_SWEEP]
#       a small set at cut sizes, in minutes: the rest of this header.
#
if [ "${1:-}" != --cut ]; then
    ROOT=$(cd "$(dirname "$0")/.." && pwd)
    BIN=${1:-$ROOT/build/uvmsim}
    PY=${PYTHON:-/usr/bin/python3}
    DIR=${VALIDATE_KEEP:-/tmp/uvmsim-validate-full}
    "$PY" "$ROOT/scripts/validation/fast_full.py" run "$DIR" --binary "$BIN" -j "${VALIDATE_JOBS:-2}" &&
    "$PY" "$ROOT/scripts/validation/fast_full.py" collect "$DIR" \
        -o "$ROOT/validation/fast/full.points.csv.gz" &&
    "$PY" "$ROOT/scripts/validation/fast_full.py" report \
        "$ROOT/validation/fast/full.points.csv.gz" >"$ROOT/docs/fast-validation.md"
    exit $?
fi
shift
# sim.model fast against cycle (issue 41, "Validate"): a stratified set of
# points drawn from the reproduction sweeps in configs/sweeps, each run in
# both models by the same binary; prints per metric the |error| of fast
# relative to cycle (median, p95, max, worst point), over all points and
# over the fault-bound ones (GPU memory oversubscribed: cycle evicted),
# and the speed ratio (CPU seconds cycle / fast, and events per warp
# memory instruction).
#
#   scripts/validate_fast.sh --cut [BINARY] [POINTS_PER_SWEEP] [GROUPS_PER_SWEEP]
#
# Points: POINTS_PER_SWEEP (default 5) spread evenly over each sweep's
# plan (index (2i+1) n / 2k), with the sweep's own set: keys and the
# point's overrides, then the size cuts listed below (small sizes so the
# whole set runs in minutes; the issue's full set is at the sweeps' own
# sizes).  Sweeps of selective caching (thesis Ch. VI) are not drawn:
# fast refuses them (sim/system_model.c).  A run over VALIDATE_TIMEOUT wall
# seconds (default 120) or failing drops the point (listed).
#
# The policy ranking (issue 41: "per workload whether the ranking of the
# policies is kept"): GROUPS_PER_SWEEP (default 2) groups of each sweep of
# RANKS below, a group being the points that differ only in the sweep's
# policy keys (hpe: every eviction policy of one pattern and memory size),
# spread evenly over the plan's groups, every point run in both models
# (keys the size cuts set do not tell groups apart).
# Each pair of a group's points is ordered by sim time in each model; a
# difference under 0.5 % of the smaller time is a tie.  A pair is kept
# when the orders agree or either model has a tie, reversed otherwise;
# the reversals are listed with both models' ratios.
#   VALIDATE_KEEP=DIR  keep the results (default: a temp dir, removed)
#   VALIDATE_CYCLE=DIR take each point's cycle run from DIR (an earlier
#                      VALIDATE_KEEP) instead of running it: for a change
#                      that leaves cycle identical (scripts/regress.sh says
#                      so), only fast reruns
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${1:-$ROOT/build/uvmsim}
K=${2:-5}
G=${3:-2}
TO=${VALIDATE_TIMEOUT:-120}
DIR=${VALIDATE_KEEP:-$(mktemp -d /tmp/uvmsim-validate.XXXXXX)}
mkdir -p "$DIR"
PY=${PYTHON:-/usr/bin/python3}
[ -x "$PY" ] || PY=python3

# sweep | size cuts (applied after the point's overrides)
SWEEPS='
hpe|-s workload.pattern.pages=4096
hpe-table2|
cyclic-100mb|
batch-aware|-s workload.graph.scale=12
thesis-ch4-fig4.2|
thesis-ch5-fig5.2|
sc19-bfs|-s workload.bfs.nodes=50000
'

# sweep | its policy keys (the rest of a point's overrides is its group) |
# size cuts
RANKS='
hpe|driver.eviction|-s workload.pattern.pages=4096
batch-aware|gpu.sm.oversub.enabled driver.eviction_timing gpu.memory.fraction|-s workload.graph.scale=12
thesis-ch5-fig5.2|driver.migration driver.migrate.threshold|
sc19-bfs|runtime.policy runtime.transfer runtime.partial driver.access_counters.migrate|-s workload.bfs.nodes=50000
'

# run MODEL OUT CONFIG ARGS...: OUT.h5 and OUT.time (user+sys CPU seconds)
run() {
    m=$1 out=$2
    shift 2
    if [ "$m" = cycle ] && [ -n "${VALIDATE_CYCLE:-}" ]; then
        b=$(basename "$out")
        cp "$VALIDATE_CYCLE/$b.h5" "$VALIDATE_CYCLE/$b.time" "$(dirname "$out")/" 2>/dev/null
        return
    fi
    /usr/bin/time -f "%U %S" -o "$out.time" timeout "$TO" nice -n 10 "$BIN" run "$@" \
        -s sim.model="$m" -o "$out.h5" --quiet --no-host-metrics >"$out.log" 2>&1 </dev/null
}

# plan_of SW: DIR/SW.plan written; base and sets its config and set: keys
plan_of() {
    "$BIN" sweep plan "$ROOT/configs/sweeps/$1.yaml" >"$DIR/$1.plan" 2>&1 || {
        echo "validate_fast.sh: sweep plan $1 failed" >&2; return 1; }
    base=$(sed -n 's/^base: //p' "$DIR/$1.plan")
    sets=$(sed -n 's/^set: /-s /p' "$DIR/$1.plan" | tr '\n' ' ')
}

# both P ARGS...: P's run in each model, side by side; rc and rf their exits
both() {
    p=$1
    shift
    run cycle "$DIR/$p.cycle" "$@" &
    pa=$!
    run fast "$DIR/$p.fast" "$@"
    rf=$?
    wait $pa
    rc=$?
}

: >"$DIR/points"
echo "$SWEEPS" | while IFS='|' read -r sw cuts; do
    [ -n "$sw" ] || continue
    plan_of "$sw" || continue
    n=$(sed -n 's/.*: \([0-9]*\) points.*/\1/p' "$DIR/$sw.plan")
    i=0
    while [ $i -lt "$K" ] && [ $i -lt "$n" ]; do
        idx=$(( (2 * i + 1) * n / (2 * K) ))
        line=$(awk -v k="$idx" '$1 == k && NF >= 3 { print; exit }' "$DIR/$sw.plan")
        name=$(echo "$line" | awk '{ print $2 }')
        ovr=$(echo "$line" | awk '{ for (j = 3; j <= NF; j++) printf "-s %s ", $j }')
        p="$sw.$name"
        # shellcheck disable=SC2086
        both "$p" "$base" $sets $ovr $cuts
        if [ $rc -eq 0 ] && [ $rf -eq 0 ]; then echo "$sw $p" >>"$DIR/points"
        else echo "dropped $p (exit cycle $rc, fast $rf; $DIR/$p.*.log)" >&2; fi
        i=$((i + 1))
    done
done

# The ranking groups: GROUPS_PER_SWEEP groups of each RANKS sweep.
: >"$DIR/groups"
echo "$RANKS" | while IFS='|' read -r sw keys cuts; do
    if [ -z "$sw" ] || [ "$G" -eq 0 ]; then continue; fi
    plan_of "$sw" || continue
    # shellcheck disable=SC2086
    # "GROUP NAME OVERRIDES..." for the points of the chosen groups
    # A key the cuts set is no group key: points that differ only in it
    # are the same runs after the cut (sc19-bfs's node counts), so a
    # group keeps one point per policy.
    CUT_KEYS=$(echo "$cuts" | tr ' ' '\n' | sed -n 's/=.*//p' | tr '\n' ' ') \
    "$PY" - "$DIR/$sw.plan" "$G" $keys <<'PY' >"$DIR/$sw.rank"
import os, sys
plan, g, keys = sys.argv[1], int(sys.argv[2]), set(sys.argv[3:])
cut = set(os.environ.get("CUT_KEYS", "").split())
groups = {}
for line in open(plan):
    f = line.split()
    if len(f) < 3 or not f[0].isdigit():
        continue
    key = " ".join(o for o in f[2:] if o.split("=")[0] not in keys | cut)
    pol = " ".join(o for o in f[2:] if o.split("=")[0] in keys)
    members = groups.setdefault(key, {})
    if pol not in members:
        members[pol] = (f[1], f[2:])
groups = {k: list(v.values()) for k, v in groups.items()}
order = list(groups)
for i in range(min(g, len(order))):
    k = order[(2 * i + 1) * len(order) // (2 * g)]
    for name, ovr in groups[k]:
        print(i, name, " ".join(ovr))
PY
    while read -r gi name ovr; do
        p="$sw.$name"
        ovr=$(echo "$ovr" | awk '{ for (j = 1; j <= NF; j++) printf "-s %s ", $j }')
        if [ ! -f "$DIR/$p.cycle.h5" ] || [ ! -f "$DIR/$p.fast.h5" ]; then
            # shellcheck disable=SC2086
            both "$p" "$base" $sets $ovr $cuts
        else
            rc=0 rf=0           # drawn as a point above too
        fi
        if [ $rc -eq 0 ] && [ $rf -eq 0 ]; then echo "$sw $gi $p" >>"$DIR/groups"
        else echo "dropped $p from the ranking (exit cycle $rc, fast $rf)" >&2; fi
    done <"$DIR/$sw.rank"
done

"$PY" - "$DIR" <<'PY'
import sys, os, h5py
d = sys.argv[1]
pts = [l.split() for l in open(os.path.join(d, "points")) if l.strip()]
def stat(f, k):
    return float(f["stats/" + k][()]) if "stats/" + k in f else 0.0
def metrics(path):
    f = h5py.File(path, "r")
    m = {
        "sim time": float(f.attrs["sim_time_ps"]),
        "faults": stat(f, "gmmu/faults"),
        "batches": stat(f, "driver/batches"),
        "pages migrated": stat(f, "driver/pages_migrated"),
        "pages evicted": stat(f, "driver/evictions"),
        "link bytes": stat(f, "link/h2d/bytes") + stat(f, "link/d2h/bytes"),
        "IPC": stat(f, "gpu/ipc"),
    }
    ev, mi = float(f.attrs["events"]), stat(f, "gpu/mem_insts")
    return m, ev, mi
def cpu(path):
    try:
        u, s = open(path).read().split()[:2]
        return float(u) + float(s)
    except Exception:
        return 0.0
rows = []
for sw, p in pts:
    c, evc, mic = metrics(os.path.join(d, p + ".cycle.h5"))
    fa, evf, mif = metrics(os.path.join(d, p + ".fast.h5"))
    rows.append((sw, p, c, fa, cpu(os.path.join(d, p + ".cycle.time")),
                 cpu(os.path.join(d, p + ".fast.time")), evc / max(mic, 1), evf / max(mif, 1)))
def err(a, b):
    if a == 0: return 0.0 if b == 0 else 100.0
    return abs(b - a) / abs(a) * 100
def q(v, x):
    v = sorted(v)
    return v[min(len(v) - 1, int(round(x * (len(v) - 1))))]
names = ["sim time", "faults", "batches", "pages migrated", "pages evicted", "link bytes", "IPC"]
def table(title, sel):
    print("\n%s (%d points)\n" % (title, len(sel)))
    print("| metric | median | p95 | max | worst point |")
    print("| --- | ---: | ---: | ---: | --- |")
    if not sel: return
    for n in names:
        e = [(err(r[2][n], r[3][n]), r[1]) for r in sel]
        v = [x for x, _ in e]
        w = max(e)
        print("| %s | %.2f %% | %.2f %% | %.2f %% | %s |" % (n, q(v, .5), q(v, .95), w[0], w[1]))
print("fast vs cycle: %d points from %d sweeps" % (len(rows), len({r[0] for r in rows})))
if not rows: sys.exit(1)
table("All points", rows)
table("Fault-bound points (cycle evicted pages)", [r for r in rows if r[2]["pages evicted"] > 0])
table("Other points", [r for r in rows if r[2]["pages evicted"] == 0])
tc, tf = sum(r[4] for r in rows), sum(r[5] for r in rows)
print("\nCPU time: cycle %.1f s, fast %.1f s: %.2fx" % (tc, tf, tc / tf if tf else 0))
print("engine events per warp memory instruction: cycle median %.1f, fast median %.1f"
      % (q([r[6] for r in rows], .5), q([r[7] for r in rows], .5)))
print("\n| point | sim time err | faults err | cycle s | fast s |")
print("| --- | ---: | ---: | ---: | ---: |")
for r in rows:
    print("| %s | %.2f %% | %.2f %% | %.2f | %.2f |" % (r[1], err(r[2]["sim time"], r[3]["sim time"]),
                                                  err(r[2]["faults"], r[3]["faults"]), r[4], r[5]))
PY
rc=$?
"$PY" - "$DIR" <<'PY' || rc=1
import sys, os, h5py
d = sys.argv[1]
rows = [l.split() for l in open(os.path.join(d, "groups")) if l.strip()]
if not rows:
    sys.exit(0)
t = lambda p, m: float(h5py.File(os.path.join(d, "%s.%s.h5" % (p, m)), "r").attrs["sim_time_ps"])
groups = {}
for sw, gi, p in rows:
    groups.setdefault((sw, gi), []).append((p, t(p, "cycle"), t(p, "fast")))
def order(a, b):
    lo = min(a, b)
    return 0 if lo and abs(a - b) < 0.005 * lo else (1 if a > b else -1)
print("\nPolicy ranking (pairs of points of one group; a tie is under 0.5 %)\n")
print("| sweep | groups | pairs | kept | of which ties | reversed |")
print("| --- | ---: | ---: | ---: | ---: | ---: |")
tot = [0, 0, 0, 0]
rev = []
for sw in dict.fromkeys(s for s, _ in groups):
    gs = [v for (s, _), v in groups.items() if s == sw]
    n = kept = ties = 0
    for pts in gs:
        for i in range(len(pts)):
            for j in range(i + 1, len(pts)):
                (pa, ca, fa), (pb, cb, fb) = pts[i], pts[j]
                oc, of = order(ca, cb), order(fa, fb)
                n += 1
                if oc == of or oc == 0 or of == 0:
                    kept += 1
                    ties += oc == 0 or of == 0
                else:
                    rev.append((pa, pb, ca / cb, fa / fb))
    print("| %s | %d | %d | %d | %d | %d |" % (sw, len(gs), n, kept, ties, n - kept))
    tot = [tot[0] + len(gs), tot[1] + n, tot[2] + kept, tot[3] + ties]
print("| all | %d | %d | %d (%.1f %%) | %d | %d |" % (tot[0], tot[1], tot[2],
      100.0 * tot[2] / max(tot[1], 1), tot[3], tot[1] - tot[2]))
for pa, pb, rc_, rf_ in rev:
    print("reversed: %s / %s: cycle %.4f, fast %.4f" % (pa, pb, rc_, rf_))
PY
[ -n "${VALIDATE_KEEP:-}" ] || rm -rf "$DIR"
exit $rc
