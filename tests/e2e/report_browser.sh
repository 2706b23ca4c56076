#!/bin/sh
# The report as a person sees it: headless Debian chromium loads the page
# (tests/browser_check.py, a small DevTools client), counts the plots it
# laid out, listens for console errors and network requests, and takes a
# full-page screenshot, kept as a test artifact: BUILD/artifacts/report.png.
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

"$UVMSIM" run configs/default.yaml -s workload.stream.footprint=4MiB -s gpu.memory.fraction=50% \
    -s sim.epoch=2us -o "$TMP/run.h5" --quiet
"$UVMSIM" report "$TMP/run.h5" -o "$ART/report.html"
check "report written" test -s "$ART/report.html"
# Plots the page source holds (the browser must lay out every one).
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
# A sweep's page in the browser too (the smoke sweep: 8 points).
"$UVMSIM" sweep run configs/sweeps/smoke.yaml -o "$TMP/sweep" -j 2 >/dev/null 2>&1
"$UVMSIM" report "$TMP/sweep" -o "$ART/sweep.html"
check "sweep report written" test -s "$ART/sweep.html"
n=$(grep -c '<svg class="plot"' "$ART/sweep.html")
$PY tests/browser_check.py "$ART/sweep.html" "$ART/sweep.png" >"$TMP/sout" 2>&1
cat "$TMP/sout"
check "sweep page: 9 comparison bars and the IPC overlay" test "$n" -eq 10
check "sweep page: chromium lays out every plot" grep -q "^drawn=$n\$" "$TMP/sout"
check "sweep page: no console error, no request" sh -c "grep -q '^errors=0$' '$TMP/sout' && grep -q '^requests=0$' '$TMP/sout'"
check "sweep screenshot kept" test -s "$ART/sweep.png"
exit $FAILS
