#!/bin/sh
# docs/students.md works as written: its stepper commands, fed in order to
# `uvmsim step configs/tour.yaml`, print every line the tour quotes; its
# trace and report commands run.
. "$(dirname "$0")/../e2e_lib.sh"
DOC=docs/students.md
sed -n 's/^(uvmsim) //p' "$DOC" >"$TMP/cmds"
echo quit >>"$TMP/cmds"
check "the tour has stepper commands" test "$(wc -l <"$TMP/cmds")" -gt 15
"$UVMSIM" step configs/tour.yaml <"$TMP/cmds" >"$TMP/out" 2>&1
check "the tour's commands run (exit 0)" test $? -eq 0
check "no command is unknown or malformed" sh -c "! grep -Eq 'unknown command|what\\?' '$TMP/out'"
# Every output line quoted in the tour's code blocks (indented or 'stopped
# at'/'at t=' lines) appears in the stepper's transcript.
awk '/^```/{inb=!inb; next} inb && !/^\(uvmsim\)/ && !/^build|^make/' "$DOC" >"$TMP/quoted"
missing=0
while IFS= read -r line; do
    grep -qxF -- "$line" "$TMP/out" || { echo "not in transcript: $line"; missing=$((missing + 1)); }
done <"$TMP/quoted"
check "every quoted line is what the stepper prints" test "$missing" -eq 0
cd "$TMP" && "$OLDPWD/$UVMSIM" run "$OLDPWD/configs/tour.yaml" --trace tour.json -o tour.h5 --quiet && \
    "$OLDPWD/$UVMSIM" report tour.h5 -o tour.html
check "the tour's trace and report commands run" test -s "$TMP/tour.html"
/usr/bin/python3 - "$TMP/tour.json" >"$TMP/t" <<'PYEOF'
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
def first(name):
    return next(e for e in ev if e["name"] == name)
print(first("walk (fault)")["ts"], first("batch")["ts"], first("evict")["ts"], first("shootdown")["ts"],
      first("DMA D2H")["ts"], [e for e in ev if e["name"] == "DMA H2D"][2]["ts"])
PYEOF
check "the trace holds the times the tour quotes" grep -qx "0.012 0.02 63.119 63.119 63.119 64.399" "$TMP/t"
exit $FAILS
