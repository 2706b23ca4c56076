#!/bin/sh
# The report as a person sees it: headless Debian chromium loads the page
# (tests/browser_check.py, a small DevTools client), counts the plots it
# laid out, listens for console errors and network requests, and takes a
# full-page screenshot, kept as a test artifact: BUILD/artifacts/report.png
# (the default run) and sweep.png (the HPE sweep); the structure of the
# plots (columns, groups, bars, legends) is read off the laid-out DOM.
. "$(dirname "$0")/../e2e_lib.sh"
PY=/usr/bin/python3
ART="$BUILD/artifacts"
mkdir -p "$ART"
if ! command -v chromium >/dev/null 2>&1; then
    not_ok "chromium not installed (apt-get install -y chromium; .ci/run installs it)"; exit 1
fi

# The checker itself can fail: a page with a console error, an uncaught
# exception and a missing image is reported as such.
cat >"$TMP/bad.html" <<'HTML'
<!DOCTYPE html><html><body><img src="missing.png">
<script>console.error("deliberate"); no_such_function();</script></body></html>
HTML
$PY tests/browser_check.py "$TMP/bad.html" "$TMP/bad.png" >"$TMP/bad.out" 2>&1
check "checker sees console errors on a broken page" grep -q '^errors=[1-9]' "$TMP/bad.out"
check "checker sees the console.error text" grep -q 'deliberate' "$TMP/bad.out"
check "checker counts images" grep -q '^img=1$' "$TMP/bad.out"

# The default run (714 fault batches over 28 ms, issue 36), as a newcomer
# makes it.
"$UVMSIM" run configs/default.yaml -o "$TMP/run.h5" --quiet
"$UVMSIM" report "$TMP/run.h5" -o "$ART/report.html"
check "report written" test -s "$ART/report.html"
# Plots the page source holds (the browser must lay out every one, the
# folded per-epoch series included once opened).
n=$(grep -c '<svg class="plot"' "$ART/report.html")
$PY tests/browser_check.py "$ART/report.html" "$ART/report.png" >"$TMP/out" 2>&1
rc=$?
cat "$TMP/out"
check "chromium loaded the page" test $rc -eq 0
check "at least 14 plots in the source" test "$n" -ge 14
check "chromium sees every plot as an SVG element" grep -q "^plots=$n\$" "$TMP/out"
check "chromium laid out every plot with content" grep -q "^drawn=$n\$" "$TMP/out"
check "no <img>: plots are inline SVG" grep -q '^img=0$' "$TMP/out"
check "no network request" grep -q '^requests=0$' "$TMP/out"
check "no console error" grep -q '^errors=0$' "$TMP/out"
check "screenshot kept as an artifact" test -s "$ART/report.png"
# A full page of plots is far larger than a blank PNG of the same size.
check "screenshot is not blank (> 100 KB)" test "$(wc -c <"$ART/report.png")" -gt 100000
# The plots use the page's width: at 1600 px two columns fill it (each
# plot at least half the page less the gap and borders, at most half), at
# 1000 px one plot spans it.
pw=$(sed -n 's/^page_w=//p' "$TMP/out")
check "1600 px: two plots fill each row of the page" \
    sh -c "test $(( 2 * $(sed -n 's/^plot_w_min=//p' "$TMP/out") )) -ge $((pw - 40)) && test $(sed -n 's/^plot_w_max=//p' "$TMP/out") -le $((pw / 2))"
$PY tests/browser_check.py "$ART/report.html" "$TMP/narrow.png" --width 1000 >"$TMP/nout" 2>&1
pw=$(sed -n 's/^page_w=//p' "$TMP/nout")
check "1000 px: each plot spans the page (within its border)" \
    sh -c "test $(sed -n 's/^plot_w_min=//p' "$TMP/nout") -ge $((pw - 40))"
# The residency histogram of the default run holds no overflow bar (the
# histogram ranges with its data) and its bars span 9 to 11.4 ms; the
# timeline draws one bar per batch or per few (at most 200).
$PY - "$ART/report.html" >"$TMP/shape" <<'PYEOF'
import re, sys
html = open(sys.argv[1]).read()
def svg(pid):
    return re.search(r'<svg class="plot" id="%s".*?</svg>' % pid, html, re.S).group(0)
r = svg("hist-residency")
print("overflow" if "data-overflow" in r else "no-overflow", len(re.findall(r'data-n=', r)) >= 20,
      len(re.findall(r'<g class="bin"', svg("batch-timeline"))), len(re.findall(r'data-n=', svg("hist-walk"))))
PYEOF
# 714 batches > 200: 4 a bar, ceil(714 / 4) = 179 bars; walks: all 8 cycles.
check "default run: residency in >= 20 bars, none overflow; 179 timeline bars; one walk bar" \
    test "$(cat "$TMP/shape")" = "no-overflow True 179 1"

# The HPE sweep's page (configs/sweeps/hpe.yaml at 64 pages a pattern so
# it runs in seconds): 7 policies x 2 memory fractions x 6 patterns.  Each
# panel: the 6 patterns and GM as groups, 7 bars each (6 x 7 + 7 = 49),
# the legend the 7 policies in sweep order; one panel per memory fraction.
"$UVMSIM" sweep run configs/sweeps/hpe.yaml -o "$TMP/sweep" -j 2 -s workload.pattern.pages=64 >/dev/null 2>&1
"$UVMSIM" report "$TMP/sweep" -o "$ART/sweep.html"
check "sweep report written" test -s "$ART/sweep.html"
n=$(grep -c '<svg class="plot"' "$ART/sweep.html")
$PY tests/browser_check.py "$ART/sweep.html" "$ART/sweep.png" --plot cmp-0-0 --plot cmp-0-1 >"$TMP/sout" 2>&1
cat "$TMP/sout"
check "sweep page: chromium lays out every plot" grep -q "^drawn=$n\$" "$TMP/sout"
check "sweep page: no console error, no request" sh -c "grep -q '^errors=0$' '$TMP/sout' && grep -q '^requests=0$' '$TMP/sout'"
for p in cmp-0-0 cmp-0-1; do
    check "sweep $p: 7 groups (6 patterns + GM)" grep -q "^$p.groups=7\$" "$TMP/sout"
    check "sweep $p: 49 bars" grep -q "^$p.bars=49\$" "$TMP/sout"
    check "sweep $p: the legend is the 7 policies" grep -q "^$p.legend=fifo|lru|random|rrip-fp|clock-pro|hpe|ideal\$" "$TMP/sout"
    check "sweep $p: groups are the patterns, then GM" \
        grep -q "^$p.glabels=streaming|thrashing|part-repetitive|most-repetitive|repetitive-thrashing|region-moving|GM\$" "$TMP/sout"
done
check "sweep page: no label is a point number" grep -q '^numbered=0$' "$TMP/sout"
check "sweep screenshot kept" test -s "$ART/sweep.png"
check "sweep screenshot is not blank (> 100 KB)" test "$(wc -c <"$ART/sweep.png")" -gt 100000
exit $FAILS
