#!/bin/sh
# Static placement end to end (issue 18): a whole run places pages without
# faults and spills at capacity; `uvmsim profile` writes a profile that
# oracle and annotated runs read; a malformed or foreign profile, oracle
# without one, and a bad list of bases are user errors: exit 2, one line
# naming FILE:LINE:COL and the key, no result written.
. "$(dirname "$0")/../e2e_lib.sh"

stat0() { h5dump -d "/stats/$2" "$1" 2>/dev/null | sed -n 's/^ *(0): *//p' | head -n 1; }

# 1 MiB stream (256 pages), 512 KiB of GPU memory (128 frames): LOCAL puts
# the first 128 pages in GPU memory and the other 128 in host memory;
# nothing faults, nothing is copied; the host half is read remotely.
S="configs/default.yaml -s workload.kind=stream -s workload.stream.footprint=1MiB -s workload.stream.passes=1 -s workload.stream.op=read"
# shellcheck disable=SC2086
"$UVMSIM" run $S -s driver.placement=local -s gpu.memory.capacity=512KiB -o "$TMP/l.h5" --quiet
check "local run completes" [ $? -eq 0 ]
check "local: 128 pages in GPU memory" [ "$(stat0 "$TMP/l.h5" placement/gpu_pages)" = 128 ]
check "local: 128 pages in host memory" [ "$(stat0 "$TMP/l.h5" placement/host_pages)" = 128 ]
check "local: no fault" [ "$(stat0 "$TMP/l.h5" gmmu/faults)" = 0 ]
check "local: no copy" [ "$(stat0 "$TMP/l.h5" link/h2d/transfers)" = 0 ]
# 128 host pages x 32 lines of 128 B (4 B lanes: one line per warp read,
# read once, the L2 holds them: each fetched once).
check "local: 4096 remote reads" [ "$(stat0 "$TMP/l.h5" remote/reads)" = 4096 ]

# Profile, then oracle and annotated from it.
# shellcheck disable=SC2086
"$UVMSIM" profile $S -o "$TMP/s.prof" --quiet
check "profile written" [ $? -eq 0 ] && [ -s "$TMP/s.prof" ]
check "profile: 256 pages with accesses" [ "$(grep -c '^page 0 ' "$TMP/s.prof")" = 256 ]
check "profile: 8192 references (256 pages x 32 warp reads)" \
    [ "$(awk '$1 == "alloc" { print $4 }' "$TMP/s.prof")" = 8192 ]
# DRAM accesses are 32 B sectors moved: each line fetched once, whole
# (4 sectors): 32 x 4 = 128 a page, 256 x 128 = 32768 in all.
check "profile: 128 DRAM sectors on every page" \
    [ "$(awk '$1 == "page" && $4 != 128' "$TMP/s.prof" | wc -l)" = 0 ]
check "profile: 32768 DRAM sectors in all" \
    [ "$(awk '$1 == "alloc" { print $5 }' "$TMP/s.prof")" = 32768 ]
# 128 B between lanes: each 4 B element is one sector of its own line,
# fetched alone: 32 sectors a page, a quarter of the coalesced stream's
# bytes (counting requests would make both 32).
# shellcheck disable=SC2086
"$UVMSIM" profile $S -s workload.stream.lane_stride=128B -o "$TMP/w.prof" --quiet
check "profile: one-sector requests weigh one sector" \
    [ "$(awk '$1 == "page" && $4 != 32' "$TMP/w.prof" | wc -l)" = 0 ]
for p in oracle annotated; do
    # shellcheck disable=SC2086
    "$UVMSIM" run $S -s driver.placement=$p -s driver.place.profile="$TMP/s.prof" \
        -s gpu.memory.fraction=10% -o "$TMP/$p.h5" --quiet
    check "$p run with the profile" [ $? -eq 0 ]
done
# 10 % of 256 pages = 25 frames; the oracle's share (71.4 % of uniform
# accesses) asks for more: it fills them.
check "oracle fills the 25 frames" [ "$(stat0 "$TMP/oracle.h5" placement/gpu_pages)" = 25 ]

# errors: exit 2, one line, located, no result
# Inside one check, so a wrong message or key fails it (not only the count).
one_line_naming() {
    [ "$(wc -l <"$3")" -eq 1 ] && grep -qF -- "$1" "$3" && grep -qF -- "key '$2'" "$3"
}
bad() {
    what=$1 want=$2 key=$3
    shift 3
    rm -f "$TMP/e.h5"
    "$UVMSIM" run "$@" -o "$TMP/e.h5" --quiet 2>"$TMP/err"
    rc=$?
    check "$what: exit 2" [ $rc -eq 2 ]
    check "$what: one line naming '$want' and key '$key'" one_line_naming "$want" "$key" "$TMP/err"
    check "$what: no result" [ ! -e "$TMP/e.h5" ]
}
printf 'uvmsim-profile 2\n' >"$TMP/v2.prof"
# shellcheck disable=SC2086
bad "profile of another version" "$TMP/v2.prof:1:1:" driver.place.profile $S \
    -s driver.placement=oracle -s driver.place.profile="$TMP/v2.prof"
sed 's/^alloc a /alloc b /' "$TMP/s.prof" >"$TMP/name.prof"
# shellcheck disable=SC2086
bad "profile of another workload" "$TMP/name.prof:3:7:" driver.place.profile $S \
    -s driver.placement=oracle -s driver.place.profile="$TMP/name.prof"
sed 's/^page 0 7 /page 0 999 /' "$TMP/s.prof" >"$TMP/page.prof"
line=$(grep -n '^page 0 999 ' "$TMP/page.prof" | cut -d: -f1)
# shellcheck disable=SC2086
bad "page out of range" "$TMP/page.prof:$line:8:" driver.place.profile $S \
    -s driver.placement=oracle -s driver.place.profile="$TMP/page.prof"
sed 's/^page 0 7 \([0-9]*\)/page 0 7 1x/' "$TMP/s.prof" >"$TMP/num.prof"
line=$(grep -n '^page 0 7 1x' "$TMP/num.prof" | cut -d: -f1)
# shellcheck disable=SC2086
bad "count not a number" "$TMP/num.prof:$line:10:" driver.place.profile $S \
    -s driver.placement=oracle -s driver.place.profile="$TMP/num.prof"
# shellcheck disable=SC2086
bad "missing profile file" "$TMP/none.prof" driver.place.profile $S \
    -s driver.placement=oracle -s driver.place.profile="$TMP/none.prof"
# shellcheck disable=SC2086
bad "oracle without a profile" "driver.place.profile" driver.placement $S -s driver.placement=oracle
# shellcheck disable=SC2086
bad "co_percent between -1 and 0" "expected a percentage" driver.place.co_percent $S \
    -s driver.place.co_percent=-0.5

# A list of bases: later overrides earlier, the file overrides them all.
mkdir -p "$TMP/c"
printf 'gpu:\n  sms: 3\nl2:\n  latency: 50\n' >"$TMP/c/a.yaml"
printf 'gpu:\n  sms: 5\n' >"$TMP/c/b.yaml"
printf 'base: [a.yaml, b.yaml]\nl2:\n  mshrs: 7\n' >"$TMP/c/top.yaml"
"$UVMSIM" config show "$TMP/c/top.yaml" >"$TMP/show" 2>&1
check "base list: the later base wins (sms 5)" grep -q '^  sms: 5$' "$TMP/show"
check "base list: the earlier base's other keys stay (l2 latency 50)" grep -q '^  latency: 50$' "$TMP/show"
check "base list: the file's own keys (mshrs 7)" grep -q '^  mshrs: 7$' "$TMP/show"
printf 'base: []\n' >"$TMP/c/empty.yaml"
"$UVMSIM" config check "$TMP/c/empty.yaml" 2>"$TMP/err"
check "base: [] is an error (exit 2)" [ $? -eq 2 ]
check "base: [] names the place" grep -qF "empty.yaml:1:7: key 'base'" "$TMP/err"
printf 'base: [a.yaml, nope.yaml]\n' >"$TMP/c/missing.yaml"
"$UVMSIM" config check "$TMP/c/missing.yaml" 2>"$TMP/err"
check "a missing base in a list names it" grep -qF "missing.yaml:1:16: key 'base': cannot open" "$TMP/err"

# thesis-ch4.yaml composes its three presets: Table 3.1's GPU (15 SMs),
# the 200 GB/s GDDR5 (8 channels at 781.25 MHz, not the link file's 336
# GB/s), NVLink's flits, and its own L2 (1 MiB), link (300 GB/s, no
# latency) and the +100-cycle hop.
"$UVMSIM" config show configs/thesis-ch4.yaml >"$TMP/ch4" 2>&1
for want in "sms: 15" "clock: 781.25MHz" "channels: 8" "size: 1MiB" "bandwidth: 300GB/s" \
            "flit: 16B" "latency: 0ps" "latency: 100" "placement: bw-aware"; do
    check "thesis-ch4: $want" grep -q "^ *$want\$" "$TMP/ch4"
done

[ "$FAILS" -eq 0 ]
