#!/bin/sh
# What the commands say about what they did (issue 36, point 5): `run`
# without -o names the file it wrote and whether it replaced one; `report`
# names the page it wrote the same way; `replay --policy hpe` keeps its
# event lines off stdout (--verbose: stderr); the progress line counts
# kernels done of the program's total.
. "$(dirname "$0")/../e2e_lib.sh"
U=$(cd "$(dirname "$UVMSIM")" && pwd)/uvmsim    # absolute: the runs below cd
cp configs/default.yaml "$TMP/mymachine.yaml"

# ---- run without -o ----
# shellcheck disable=SC2086
(cd "$TMP" && "$U" run mymachine.yaml $SMALL --quiet 2>"$TMP/err1"; \
 "$U" run mymachine.yaml $SMALL --quiet 2>"$TMP/err2")
cat "$TMP/err1" "$TMP/err2"
check "run without -o writes the config's name" test -s "$TMP/mymachine.h5"
check "... and says so on stderr, in one line" \
    sh -c "grep -qx \"uvmsim: wrote mymachine.h5 (no -o: the config's name in the current directory)\" '$TMP/err1' && test \$(wc -l <'$TMP/err1') -eq 1"
check "a second run says it replaced the first one's file" \
    grep -qx "uvmsim: wrote mymachine.h5 (no -o: the config's name in the current directory; it replaced the file of that name)" "$TMP/err2"
# shellcheck disable=SC2086
"$UVMSIM" run "$TMP/mymachine.yaml" $SMALL -o "$TMP/named.h5" --quiet 2>"$TMP/err3"
check "with -o (a name the user chose) stderr stays empty" test ! -s "$TMP/err3"

# ---- report ----
"$UVMSIM" report "$TMP/named.h5" -o "$TMP/r.html" 2>"$TMP/rerr1" >"$TMP/rout1"
"$UVMSIM" report "$TMP/named.h5" -o "$TMP/r.html" 2>"$TMP/rerr2"
cat "$TMP/rerr1" "$TMP/rerr2"
check "report says what it wrote, from what (one line, stderr as run)" \
    sh -c "grep -qx 'uvmsim: wrote $TMP/r.html (the report of $TMP/named.h5)' '$TMP/rerr1' && test \$(wc -l <'$TMP/rerr1') -eq 1 && test ! -s '$TMP/rout1'"
check "... and when it replaced a page of that name" \
    grep -qx "uvmsim: wrote $TMP/r.html (the report of $TMP/named.h5; it replaced the file of that name)" "$TMP/rerr2"
"$UVMSIM" report "$TMP/nope.h5" -o "$TMP/x.html" 2>"$TMP/rerr3"
check "a failed report says no 'wrote'" sh -c "! grep -q wrote '$TMP/rerr3'"

# ---- replay: the HPE event lines are a log, not the result ----
# A loop of 64 pages in 48 frames: HPE classifies it regular at the first
# fill (48 faults), one event row.
i=0; : >"$TMP/loop.txt"
while [ $i -lt 128 ]; do echo $((i % 64)) >>"$TMP/loop.txt"; i=$((i + 1)); done
"$UVMSIM" replay --pages "$TMP/loop.txt" --frames 48 --policy hpe >"$TMP/out" 2>"$TMP/err"
check "replay --policy hpe: no debug line on stdout" sh -c "! grep -q 'event=' '$TMP/out' && ! grep -q '^evict_hpe:' '$TMP/out'"
check "... nor on stderr" test ! -s "$TMP/err"
"$UVMSIM" replay --pages "$TMP/loop.txt" --frames 48 --policy hpe --verbose >"$TMP/vout" 2>"$TMP/verr"
check "--verbose: the event on stderr" grep -qx "evict_hpe: fault=48 event=class regular value=[0-9]*" "$TMP/verr"
check "--verbose: stdout unchanged" cmp -s "$TMP/out" "$TMP/vout"

# ---- the progress line (a terminal only): kernels done of the total ----
# workload.stream.passes=5: one kernel per pass, 5 in all.
if ! command -v tmux >/dev/null 2>&1; then
    not_ok "tmux not installed (apt-get install -y tmux; .ci/run installs it)"; exit 1
fi
T="tmux -L uvmsim-msg-$$ -f /dev/null"
$T new-session -d -s run -x 200 -y 20 "$UVMSIM run configs/default.yaml -s workload.stream.footprint=8MiB -s workload.stream.passes=5 -s gpu.memory.fraction=50% -o $TMP/p.h5 --quiet; sleep 30"
i=0; seen=""
while [ $i -lt 150 ]; do
    $T capture-pane -p -t run >"$TMP/screen" 2>/dev/null
    seen=$(grep -o "kernels [0-9]* of [0-9]* done" "$TMP/screen" | head -1)
    [ -n "$seen" ] && break
    sleep 0.1; i=$((i + 1))
done
$T kill-server 2>/dev/null
echo "progress: $seen"
check "the progress line shows kernels done of the program's 5" sh -c "echo '$seen' | grep -q '^kernels [0-5] of 5 done$'"
exit $FAILS
