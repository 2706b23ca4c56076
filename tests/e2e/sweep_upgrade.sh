#!/bin/sh
# Resuming a sweep after an upgrade (docs/sweeps.md, "Resuming"): a point
# reruns only when something that decides its result changed.  An older or
# newer binary is simulated by editing what a result recorded: its config
# (/config@yaml, the text staleness reads, with /config@yaml_hash and the
# typed /config attributes kept consistent, as a binary would write them)
# and its /@model_revision.  Both ways: edits that must not rerun a point
# (a key the old binary lacked, at its default) and edits that must (a
# changed explicit value, a changed default, a new key the point sets, a
# changed model revision, a broken file), each with its reason.
. "$(dirname "$0")/../e2e_lib.sh"
SMOKE=configs/sweeps/smoke.yaml
PY=/usr/bin/python3
N=8

stat_of() { stat -c '%i %y' "$1"; }
# state_of PLAN NAME: the state column of point NAME in `sweep plan` output.
state_of() { sed -n "s/^ *[0-9][0-9]*  $2  *\(.*[^ ]\)  *driver\.eviction=.*/\1/p" "$1"; }

# edit POINT OP...: as another binary would have written POINT's result.
#   drop KEY            the config lacks KEY (a binary without it)
#   set KEY TEXT TYPED  KEY recorded as TEXT (typed attribute TYPED)
#   revision N          /@model_revision = N
#   norevision          no /@model_revision (a binary before revisions)
edit() {
    $PY - "$TMP/d/points/$1.h5" "$@" <<'PYEOF'
import sys, h5py, numpy as np
path, op, args = sys.argv[1], sys.argv[3], sys.argv[4:]

def fnv1a(data):        # results_yaml_hash: FNV-1a 64 (published constants)
    h = 0xcbf29ce484222325
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
    return h

def edit_yaml(text, key, new):
    """config_to_yaml's nested mapping: drop KEY's line or give it NEW."""
    out, stack, hits = [], [], 0
    for line in text.split("\n"):
        body = line.lstrip(" ")
        if not body:
            out.append(line)
            continue
        depth = (len(line) - len(body)) // 2
        name, _, value = body.partition(":")
        stack[depth:] = [name]
        if value.strip() and ".".join(stack) == key:
            hits += 1
            if new is None:
                continue
            line = " " * (2 * depth) + name + ": " + new
        out.append(line)
    assert hits == 1, (key, hits)
    return "\n".join(out)

with h5py.File(path, "r+") as f:
    g = f["config"]
    if op in ("drop", "set"):
        yaml = g.attrs["yaml"]
        yaml = yaml.decode() if isinstance(yaml, bytes) else yaml
        yaml = edit_yaml(yaml, args[0], args[1] if op == "set" else None)
        g.attrs.modify("yaml", yaml)
        g.attrs.modify("yaml_hash", np.uint64(fnv1a(yaml.encode())))
        if op == "drop":
            del g.attrs[args[0]]
        else:
            g.attrs.modify(args[0], np.array(int(args[2]), g.attrs[args[0]].dtype))
    elif op == "revision":
        f.attrs.modify("model_revision", np.uint64(int(args[0])))
    elif op == "norevision":
        del f.attrs["model_revision"]
PYEOF
}

"$UVMSIM" sweep run "$SMOKE" -o "$TMP/d" -j 2 >/dev/null 2>&1
check "the sweep runs" [ $? -eq 0 ]
"$UVMSIM" --version >"$TMP/v"
rev=$(sed -n 's/.*(model revision \([0-9][0-9]*\))$/\1/p' "$TMP/v")
check "--version prints the model revision ($rev)" [ -n "$rev" ]
$PY - "$TMP/d/points/fifo_75pct_thrashing_256.h5" "$TMP/d/sweep.h5" "$rev" >"$TMP/py" 2>&1 <<'PYEOF'
import sys, h5py
for p in sys.argv[1:3]:
    with h5py.File(p, "r") as f:
        assert int(f.attrs["model_revision"]) == int(sys.argv[3]), p
print("ok")
PYEOF
check "a result and the merged file record it" grep -q '^ok$' "$TMP/py"

# ---- what must not rerun a point ----
# gpu.sm.oversub.ctx_regs is 0 in the point and 0 by default (docs/config.md
# row; configs/default.yaml does not set it): a binary without the key ran
# the same model.  The schema's default is read from the doc, not the program.
check "ctx_regs defaults to 0 (docs/config.md)" \
    grep -q '^| `gpu.sm.oversub.ctx_regs` | int |  | `0` |' docs/config.md
check "... and the base config leaves it alone" sh -c '! grep -q ctx_regs configs/default.yaml'
edit fifo_75pct_thrashing_256 drop gpu.sm.oversub.ctx_regs
# A result written before results recorded a revision counts as revision 1.
edit fifo_75pct_region-moving_512 norevision
keep1=$(stat_of "$TMP/d/points/fifo_75pct_thrashing_256.h5")
keep2=$(stat_of "$TMP/d/points/fifo_75pct_region-moving_512.h5")
"$UVMSIM" sweep plan "$SMOKE" -o "$TMP/d" >"$TMP/plan" 2>&1
check "a key the result lacks, at its default: done" \
    [ "$(state_of "$TMP/plan" fifo_75pct_thrashing_256)" = done ]
if [ "$rev" = 1 ]; then
    check "a result without a revision (revision 1): done" \
        [ "$(state_of "$TMP/plan" fifo_75pct_region-moving_512)" = done ]
else
    # This binary's model is past revision 1: the unrevised result is
    # stale; give it back its revision so the no-rerun checks below hold.
    check "a result without a revision (revision 1): stale under revision $rev" \
        [ "$(state_of "$TMP/plan" fifo_75pct_region-moving_512)" = "stale: model revision 1 -> $rev" ]
    edit fifo_75pct_region-moving_512 revision "$rev"
fi
"$UVMSIM" sweep run "$SMOKE" -o "$TMP/d" >"$TMP/run" 2>&1
check "nothing reruns" grep -q "$N already done, 0 to run" "$TMP/run"
check "... and no point is named stale" sh -c "! grep -q '^  rerun' '$TMP/run'"
check "the results stay as they were" \
    [ "$(stat_of "$TMP/d/points/fifo_75pct_thrashing_256.h5")" = "$keep1" ] &&
    [ "$(stat_of "$TMP/d/points/fifo_75pct_region-moving_512.h5")" = "$keep2" ]
"$UVMSIM" sweep point "$TMP/d" fifo_75pct_thrashing_256 >"$TMP/p" 2>&1
check "a Slurm task agrees (against DIR/configs)" grep -q "already done" "$TMP/p"

# ---- what must rerun exactly its points, and why ----
# A changed default the point relies on: the old binary's default for
# gpu.kernel_launch_latency was 5ns (5000 ps); the point now gets 0ns.
edit fifo_50pct_thrashing_256 set gpu.kernel_launch_latency 5ns 5000
# A key the old binary lacked that the point sets off its default:
# tlb.shootdown.cycles is 0 in configs/default.yaml, 100 by default.
check "shootdown cycles default to 100 (docs/config.md)" \
    grep -q '^| `tlb.shootdown.cycles` | int |  | `100` |' docs/config.md
edit fifo_50pct_region-moving_512 drop tlb.shootdown.cycles
# A deliberate model change.
edit lru_75pct_thrashing_256 revision $((rev + 1))
# A result that is not one.
printf 'not hdf5\n' >"$TMP/d/points/lru_75pct_region-moving_512.h5"
# A changed explicit value (the smoke sweep sets sim.epoch: 5us), here on
# one point's record: as if the sweep had said 10us when it ran.
# (tests/e2e/sweep_run.sh changes a value in the sweep file itself.)
edit lru_50pct_thrashing_256 set sim.epoch 10us 10000000
untouched=$(stat_of "$TMP/d/points/lru_50pct_region-moving_512.h5")
"$UVMSIM" sweep plan "$SMOKE" -o "$TMP/d" >"$TMP/plan" 2>&1
check "changed default: stale, old -> new" \
    [ "$(state_of "$TMP/plan" fifo_50pct_thrashing_256)" = "stale: key gpu.kernel_launch_latency 5ns -> 0ns" ]
check "new key set off its default: stale" \
    [ "$(state_of "$TMP/plan" fifo_50pct_region-moving_512)" = "stale: key tlb.shootdown.cycles (none) -> 0" ]
check "changed model revision: stale" \
    [ "$(state_of "$TMP/plan" lru_75pct_thrashing_256)" = "stale: model revision $((rev + 1)) -> $rev" ]
check "a broken result: stale" \
    [ "$(state_of "$TMP/plan" lru_75pct_region-moving_512)" = "stale: unreadable result" ]
check "changed value: stale" \
    [ "$(state_of "$TMP/plan" lru_50pct_thrashing_256)" = "stale: key sim.epoch 10us -> 5us" ]
check "plan counts them" grep -q "^in $TMP/d: 3 done, 5 stale, 0 failed, 0 not run$" "$TMP/plan"
"$UVMSIM" sweep plan "$TMP/d" >"$TMP/plan2" 2>&1
check "sweep plan DIR: the same states, from DIR's own plan" \
    [ $? -eq 0 ] && cmp -s "$TMP/plan" "$TMP/plan2"
"$UVMSIM" sweep run "$SMOKE" -o "$TMP/d" -j 2 >"$TMP/run" 2>&1
check "the run reruns the 5 stale points only" grep -q "3 already done, 5 to run" "$TMP/run"
check "... saying why for each" [ "$(grep -c '^  rerun [^ ]*: stale: ' "$TMP/run")" -eq 5 ] &&
    grep -q '^  rerun lru_75pct_thrashing_256: stale: model revision' "$TMP/run"
check "... leaving the others" \
    [ "$(stat_of "$TMP/d/points/lru_50pct_region-moving_512.h5")" = "$untouched" ] &&
    [ "$(stat_of "$TMP/d/points/fifo_75pct_thrashing_256.h5")" = "$keep1" ]
"$UVMSIM" sweep plan "$TMP/d" >"$TMP/plan" 2>&1
check "all done afterwards" grep -q "^in $TMP/d: 8 done, 0 stale" "$TMP/plan"

# Several keys differ: the first by name, and how many more.
edit lru_50pct_thrashing_256 set sim.epoch 10us 10000000
edit lru_50pct_thrashing_256 set gpu.kernel_launch_latency 5ns 5000
edit lru_50pct_thrashing_256 set gpu.sms 16 16
"$UVMSIM" sweep plan "$TMP/d" >"$TMP/plan" 2>&1
check "three keys: the first named, two more counted" \
    [ "$(state_of "$TMP/plan" lru_50pct_thrashing_256)" = "stale: key gpu.kernel_launch_latency 5ns -> 0ns (and 2 more keys)" ]

# Past five stale points the run counts the rest.
for p in "$TMP"/d/points/*.h5; do edit "$(basename "$p" .h5)" revision $((rev + 1)); done
"$UVMSIM" sweep slurm "$SMOKE" -o "$TMP/d" --dry-run >"$TMP/sl" 2>&1
check "sweep slurm names them too" \
    [ "$(grep -c '^  rerun [^ ]*: stale: model revision' "$TMP/sl")" -eq 5 ] &&
    grep -q "^sweep .*: 8 points, 0 already done, 8 to run" "$TMP/sl"
"$UVMSIM" sweep run "$SMOKE" -o "$TMP/d" -j 2 >"$TMP/run" 2>&1
check "eight stale: five named, three counted" \
    [ "$(grep -c '^  rerun [^ ]*: stale: model revision' "$TMP/run")" -eq 5 ] &&
    grep -q "^  rerun 3 more stale points (sweep plan $TMP/d lists them)$" "$TMP/run"

# sweep plan DIR with the -s it ran with, and without its sweep file.
"$UVMSIM" sweep run "$SMOKE" -o "$TMP/s" -s gpu.sms=8 >/dev/null 2>&1
"$UVMSIM" sweep plan "$TMP/s" >"$TMP/plan" 2>&1
check "sweep plan DIR keeps the run's -s" grep -q "^set: gpu.sms=8$" "$TMP/plan" &&
    grep -q "^in $TMP/s: 8 done, 0 stale" "$TMP/plan"
case $UVMSIM in /*) U=$UVMSIM ;; *) U=$PWD/$UVMSIM ;; esac
(cd "$TMP" && "$U" sweep plan s >"$TMP/e" 2>&1)
check "sweep plan DIR whose sweep file is not there: exit 2, one line" \
    [ $? -eq 2 ] && [ "$(wc -l <"$TMP/e")" -eq 1 ] && grep -q "its sweep file 'configs/sweeps/smoke.yaml'" "$TMP/e"
"$UVMSIM" sweep plan "$TMP/s" -o "$TMP/s" >"$TMP/e" 2>&1
check "sweep plan DIR -o: exit 2" [ $? -eq 2 ]
mkdir "$TMP/empty"
"$UVMSIM" sweep plan "$TMP/empty" >"$TMP/e" 2>&1
check "sweep plan of a directory without a plan: exit 2, says so" \
    [ $? -eq 2 ] && grep -q "not a sweep directory" "$TMP/e"

[ "$FAILS" -eq 0 ]
