#!/bin/sh
# docs/validation.md's generated sections are what validation/claims.yaml
# and validation/results/ give (issue 39): regenerated into a temporary
# copy, without any simulation, the document must not change.
. "$(dirname "$0")/../e2e_lib.sh"
PY=/usr/bin/python3
GEN=scripts/validation/validation_doc.py

"$PY" "$GEN" -o "$TMP/doc.md" docs/validation.md 2>"$TMP/err"
check "validation_doc regenerates from the committed files" [ $? -eq 0 ]
if cmp -s "$TMP/doc.md" docs/validation.md; then
    ok "docs/validation.md is what make validation writes"
else
    not_ok "docs/validation.md differs from make validation's output (run make validation)"
    diff docs/validation.md "$TMP/doc.md" | head -n 20
fi

# The prose's data tables are generated too (table markers): a number
# edited by hand inside one comes back as the table script computes it.
sed '/BEGIN generated: table \[thesis_ch6_table.py {results}\] Fig. 6.4:/,/END generated/s/^| backprop | 1.000 | [0-9.]* |/| backprop | 1.000 | 9.999 |/' \
    docs/validation.md > "$TMP/edited.md"
check "the hand edit is in the copy" grep -q '^| backprop | 1.000 | 9.999 |' "$TMP/edited.md"
"$PY" "$GEN" -o "$TMP/edited2.md" "$TMP/edited.md"
check "a table marker's text is regenerated from the committed results" cmp -s "$TMP/edited2.md" docs/validation.md

# The comparison can fail: a changed paper value changes the document.
sed 's/^  paper_value: 1.0$/  paper_value: 3.0/' validation/claims.yaml > "$TMP/claims.yaml"
"$PY" "$GEN" --claims "$TMP/claims.yaml" -o "$TMP/doc2.md" docs/validation.md
check "a changed paper value changes the generated document" sh -c "! cmp -s '$TMP/doc2.md' docs/validation.md"

# Without results every claim is "not run", never a number.
mkdir "$TMP/none"
"$PY" "$GEN" --results "$TMP/none" -o "$TMP/doc3.md" docs/validation.md
check "no committed results: every counted claim is not run" \
    grep -q '^| \*\*all\*\* | \*\*\([0-9]*\)\*\* | \*\*0\*\* | \*\*0\*\* | \*\*0\*\* |' "$TMP/doc3.md"

# A claim over two sweeps, one of them not committed: "not run", no error.
printf 'papers: {hpe: {baseline: b}}\nclaims:\n- {id: X-2, paper: hpe, claim: c, kind: ratio, paper_value: 1.2, sweep: configs/sweeps/hpe.yaml, expr: "pt(%s, %s, %s) / pt(%s, %s, %s)"}\n' \
    "'hpe'" "'sim_time_ps'" "'driver.eviction=lru gpu.memory.fraction=0.75 workload.pattern.type=streaming'" \
    "'no-such-sweep'" "'sim_time_ps'" "'x=1'" > "$TMP/two.yaml"
printf '<!-- BEGIN generated: claims-counts -->\n<!-- END generated: claims-counts -->\n<!-- BEGIN generated: results-committed -->\n<!-- END generated: results-committed -->\n<!-- BEGIN generated: claims-hpe -->\n<!-- END generated: claims-hpe -->\n' > "$TMP/two.md"
"$PY" "$GEN" --claims "$TMP/two.yaml" "$TMP/two.md" 2>"$TMP/err5"
check "a claim naming an uncommitted second sweep exits 0" [ $? -eq 0 ]
check "... and is not run" grep -q '^| X-2 |.*| not run |' "$TMP/two.md"

# Every expression evaluates on its sweeps' plans (synthetic tables from
# `uvmsim sweep plan`): a selector matching no planned point or several, or
# an axis the sweep lacks, fails now, not when the results are committed.
"$PY" scripts/validation/check_exprs.py --uvmsim "$UVMSIM" >"$TMP/chk" 2>&1
check "every claim's expression selects one planned point per pt()" [ $? -eq 0 ]
sed "s/workload.kind={w} driver.eviction=lru gpu.memory.fraction=0.75'/workload.kind={w} driver.eviction=lru gpu.memory.fraction=75%'/" \
    validation/claims.yaml > "$TMP/badsel.yaml"
"$PY" scripts/validation/check_exprs.py --uvmsim "$UVMSIM" --claims "$TMP/badsel.yaml" 2>"$TMP/chk2" >/dev/null
check "a selector in other than base units (75% for 0.75) fails the check" [ $? -eq 1 ]
check "... naming the claim" grep -q 'claim HPE-B1: .*0 planned points match' "$TMP/chk2"

# A malformed claims file: one line, exit 2, the document untouched.
printf 'papers: {a: {baseline: x}}\nclaims:\n- {id: X-1, paper: b, claim: c, kind: ratio, expr: null, reason: r}\n' > "$TMP/bad.yaml"
cp docs/validation.md "$TMP/doc4.md"
"$PY" "$GEN" --claims "$TMP/bad.yaml" "$TMP/doc4.md" 2>"$TMP/err4"
rc=$?
check "an unknown paper exits 2" [ $rc -eq 2 ]
check "... with one line naming the claim" sh -c "[ \$(wc -l < '$TMP/err4') -eq 1 ] && grep -q 'X-1' '$TMP/err4'"
check "... and leaves the document alone" cmp -s "$TMP/doc4.md" docs/validation.md

# Every committed /points table records the binary of each point.
for f in validation/results/*.points.csv.gz; do
    check "$(basename "$f"): every point names its uvmsim version and model revision" \
        sh -c "gzip -dc '$f' | $PY -c 'import csv,sys; r=list(csv.DictReader(sys.stdin)); sys.exit(not r or any(not x[\"uvmsim_version\"] or not x[\"model_revision\"] for x in r))'"
done
# Every "why" link of the generated tables names a heading of the document.
check "every #anchor link names a heading of docs/validation.md" "$PY" - docs/validation.md <<'PY'
import re, sys
sys.path.insert(0, "scripts/validation")
from validation_doc import anchor
doc = open(sys.argv[1]).read()
heads = {anchor(h) for h in re.findall(r"^#+ (.*)$", doc, re.M)}
bad = sorted(set(re.findall(r"\]\(#([\w-]+)\)", doc)) - heads)
for b in bad:
    print("no heading for #" + b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
[ "$FAILS" -eq 0 ]
