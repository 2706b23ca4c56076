#!/bin/sh
# The bench scripts' case selection (issue 13): a named case runs alone, a
# misspelt one is an error -- never a run of nothing, or of other cases.
. "$(dirname "$0")/../e2e_lib.sh"

sh scripts/bench.sh --cases >"$TMP/cases"
check "--cases lists the bench set" [ "$(wc -l <"$TMP/cases")" -eq 9 ]
check "--cases names ttc18-91 and fault-200us" \
    sh -c 'grep -qx ttc18-91 "$1" && grep -qx fault-200us "$1"' _ "$TMP/cases"

sh scripts/bench.sh "$UVMSIM" fault-20us >"$TMP/one" 2>&1
check "one named case exits 0" [ $? -eq 0 ]
rows=$(awk 'NR > 2 && $1 != "fault" { print $1 }' "$TMP/one")
check "and runs that case only" [ "$rows" = fault-20us ]

sh scripts/bench.sh "$UVMSIM" fault-20us nosuch >"$TMP/bad" 2>&1
check "a misspelt case exits 2" [ $? -eq 2 ]
check "and names it" grep -q "no case 'nosuch'" "$TMP/bad"
check "before running anything" [ "$(grep -c '^fault-20us ' "$TMP/bad")" -eq 0 ]

# bench_compare checks the names before it builds anything.
scripts/bench_compare.sh -n 1 HEAD nosuch >"$TMP/cmp" 2>&1
check "bench_compare: a misspelt case exits 2" [ $? -eq 2 ]
check "  before building" [ "$(grep -c building "$TMP/cmp")" -eq 0 ]

[ "$FAILS" -eq 0 ]
