#!/bin/sh
# Sweep files as a user writes them: the expansion of axes, zip groups,
# seeds and exclude rules against hand-written lists, the names, and every
# kind of mistake as one FILE:LINE:COL line, exit 2, nothing created.
. "$(dirname "$0")/../e2e_lib.sh"
BASE="$PWD/configs/default.yaml"

# plan's point lines: "NAME OVERRIDES" with single spaces.
points() { sed -n 's/^ *[0-9][0-9]*  *//p' "$1" | tr -s ' '; }

cat >"$TMP/full.yaml" <<YAML
base: $BASE
set:
  workload.kind: pattern
axes:
  driver.eviction: [fifo, lru, hpe]
  gpu.memory.fraction: [75%, 0.5]
zip:
  - workload.pattern.type: [thrashing, streaming]
    workload.pattern.pages: [64, 128]
seeds: 2
exclude:
  - driver.eviction: hpe
    gpu.memory.fraction: 50%
  - workload.pattern.type: streaming
    sim.seed: 2
YAML
"$UVMSIM" sweep plan "$TMP/full.yaml" >"$TMP/plan" 2>&1
check "plan exits 0" [ $? -eq 0 ]
# 3 x 2 x 2 x 2 = 24 combinations.  Excluded: hpe at 50% (written 0.5 on
# the axis: matched by value) = 1 x 1 x 2 x 2 = 4; streaming with seed 2 =
# 3 x 2 x 1 x 1 = 6; both = 1; 4 + 6 - 1 = 9, leaving 15.
check "count, combinations, excluded" grep -q "15 points (24 combinations, 9 excluded)" "$TMP/plan"
cat >"$TMP/want" <<'LIST'
fifo_75pct_thrashing_64_seed1 driver.eviction=fifo gpu.memory.fraction=75% workload.pattern.type=thrashing workload.pattern.pages=64 sim.seed=1
fifo_75pct_thrashing_64_seed2 driver.eviction=fifo gpu.memory.fraction=75% workload.pattern.type=thrashing workload.pattern.pages=64 sim.seed=2
fifo_75pct_streaming_128_seed1 driver.eviction=fifo gpu.memory.fraction=75% workload.pattern.type=streaming workload.pattern.pages=128 sim.seed=1
fifo_0.5_thrashing_64_seed1 driver.eviction=fifo gpu.memory.fraction=0.5 workload.pattern.type=thrashing workload.pattern.pages=64 sim.seed=1
fifo_0.5_thrashing_64_seed2 driver.eviction=fifo gpu.memory.fraction=0.5 workload.pattern.type=thrashing workload.pattern.pages=64 sim.seed=2
fifo_0.5_streaming_128_seed1 driver.eviction=fifo gpu.memory.fraction=0.5 workload.pattern.type=streaming workload.pattern.pages=128 sim.seed=1
lru_75pct_thrashing_64_seed1 driver.eviction=lru gpu.memory.fraction=75% workload.pattern.type=thrashing workload.pattern.pages=64 sim.seed=1
lru_75pct_thrashing_64_seed2 driver.eviction=lru gpu.memory.fraction=75% workload.pattern.type=thrashing workload.pattern.pages=64 sim.seed=2
lru_75pct_streaming_128_seed1 driver.eviction=lru gpu.memory.fraction=75% workload.pattern.type=streaming workload.pattern.pages=128 sim.seed=1
lru_0.5_thrashing_64_seed1 driver.eviction=lru gpu.memory.fraction=0.5 workload.pattern.type=thrashing workload.pattern.pages=64 sim.seed=1
lru_0.5_thrashing_64_seed2 driver.eviction=lru gpu.memory.fraction=0.5 workload.pattern.type=thrashing workload.pattern.pages=64 sim.seed=2
lru_0.5_streaming_128_seed1 driver.eviction=lru gpu.memory.fraction=0.5 workload.pattern.type=streaming workload.pattern.pages=128 sim.seed=1
hpe_75pct_thrashing_64_seed1 driver.eviction=hpe gpu.memory.fraction=75% workload.pattern.type=thrashing workload.pattern.pages=64 sim.seed=1
hpe_75pct_thrashing_64_seed2 driver.eviction=hpe gpu.memory.fraction=75% workload.pattern.type=thrashing workload.pattern.pages=64 sim.seed=2
hpe_75pct_streaming_128_seed1 driver.eviction=hpe gpu.memory.fraction=75% workload.pattern.type=streaming workload.pattern.pages=128 sim.seed=1
LIST
points "$TMP/plan" >"$TMP/got"
check "cartesian x zip x seeds minus exclude, in order, with names" cmp -s "$TMP/want" "$TMP/got"
check "plan shows the fixed keys" grep -q "^set: workload.kind=pattern$" "$TMP/plan"

# seeds as a list, a name template, -s fixed for every point.
cat >"$TMP/tmpl.yaml" <<YAML
base: $BASE
axes:
  driver.eviction: [fifo, random]
seeds: [7, 11]
name: "{driver.eviction}-s{seed}"
YAML
"$UVMSIM" sweep plan "$TMP/tmpl.yaml" -s gpu.memory.fraction=60% >"$TMP/plan" 2>&1
check "template plan exits 0" [ $? -eq 0 ]
printf '%s\n' "fifo-s7 driver.eviction=fifo sim.seed=7" "fifo-s11 driver.eviction=fifo sim.seed=11" \
    "random-s7 driver.eviction=random sim.seed=7" "random-s11 driver.eviction=random sim.seed=11" >"$TMP/want"
points "$TMP/plan" >"$TMP/got"
check "seeds list and name template" cmp -s "$TMP/want" "$TMP/got"
check "-s shown as fixed" grep -q "^set: gpu.memory.fraction=60%$" "$TMP/plan"

# A workload is config keys; a zip row may repeat a value of one key.
cat >"$TMP/wl.yaml" <<YAML
base: $BASE
zip:
  - workload.kind: [stream, pattern, pattern]
    workload.pattern.type: [thrashing, thrashing, streaming]
YAML
"$UVMSIM" sweep plan "$TMP/wl.yaml" >"$TMP/plan" 2>&1
check "zip rows repeating one key's value" grep -q "3 points (3 combinations, 0 excluded)" "$TMP/plan"

# ---- mistakes: one line FILE:LINE:COL: key 'K': ..., exit 2, nothing run ----
# expect_error NAME FILE LOCATION PATTERN [ARGS...]: sweep run must exit 2
# with exactly one line that starts with LOCATION and matches PATTERN, and
# create no directory.
expect_error() {
    what=$1; f=$2; loc=$3; pat=$4; shift 4
    rm -rf "$TMP/out"
    "$UVMSIM" sweep run "$f" -o "$TMP/out" "$@" >"$TMP/o" 2>"$TMP/e"
    rc=$?
    check "$what: exit 2" [ $rc -eq 2 ]
    check "$what: one line" [ "$(wc -l <"$TMP/e")" -eq 1 ] && [ ! -s "$TMP/o" ]
    check "$what: at $loc" grep -q "^$loc: .*$pat" "$TMP/e"
    check "$what: nothing created" [ ! -e "$TMP/out" ]
}
bad() { printf '%s\n' "base: $BASE" "$@" >"$TMP/bad.yaml"; }

bad "axes:" "  gpu.memory.fraction: [75%, 150%]"
expect_error "bad axis value" "$TMP/bad.yaml" "$TMP/bad.yaml:3:30" \
    "key 'gpu.memory.fraction': expected a fraction"
bad "axes:" "  driver.eviction: [fifo, lfu]"
expect_error "bad choice" "$TMP/bad.yaml" "$TMP/bad.yaml:3:27" \
    "key 'driver.eviction': expected one of .*got 'lfu'"
bad "axes:" "  driver.evicton: [fifo]"
expect_error "unknown key" "$TMP/bad.yaml" "$TMP/bad.yaml:3:3" \
    "key 'driver.evicton': unknown key (did you mean 'driver.eviction'?)"
bad "axes:" "  driver.eviction: fifo"
expect_error "axis not a list" "$TMP/bad.yaml" "$TMP/bad.yaml:3:20" \
    "key 'driver.eviction': expected a list of values"
bad "axes:" "  gpu.memory.fraction: [75%, 0.75]"
expect_error "same value twice" "$TMP/bad.yaml" "$TMP/bad.yaml:3:30" \
    "already on the axis (as '75%' at 3:25)"
bad "zip:" "  - workload.pattern.type: [thrashing, streaming]" "    workload.pattern.pages: [64]"
expect_error "zip lengths" "$TMP/bad.yaml" "$TMP/bad.yaml:4:29" \
    "zip group lists must have equal lengths"
bad "axes:" "  driver.eviction: [fifo]" "seeds: 0"
expect_error "seeds count" "$TMP/bad.yaml" "$TMP/bad.yaml:4:8" "key 'seeds': expected a count"
bad "axes:" "  driver.eviction: [fifo, lru]" "exclude:" "  - driver.eviction: hpe"
expect_error "exclude value not on the axis" "$TMP/bad.yaml" "$TMP/bad.yaml:5:22" \
    "'hpe' is not a value of the axis"
bad "axes:" "  driver.eviction: [fifo, lru]" "exclude:" "  - gpu.sms: 4"
expect_error "exclude key not an axis" "$TMP/bad.yaml" "$TMP/bad.yaml:5:5" \
    "key 'gpu.sms': exclude names a key that is not an axis"
bad "set:" "  driver.eviction: lru" "axes:" "  driver.eviction: [fifo, lru]"
expect_error "set: key also an axis" "$TMP/bad.yaml" "$TMP/bad.yaml:3:3" \
    "key 'driver.eviction': set: fixes it"
bad "axes:" "  driver.eviction: [fifo, lru]" "  gpu.memory.fraction: [75%, 50%]" "name: \"{driver.eviction}\""
# The second point of the clash (plan order) is named at its value.
expect_error "name template misses an axis" "$TMP/bad.yaml" "$TMP/bad.yaml:4:30" \
    "both named 'fifo': the name: template (at 5:7) needs {gpu.memory.fraction}"
bad "axes:" "  workload.trace.file: [a/b, a-b]"
expect_error "two values, one name" "$TMP/bad.yaml" "$TMP/bad.yaml:3:30" \
    "value 'a-b' gives the same point name 'a-b' as 'a/b'"
bad "axes:" "  dram.tRC: [40, 20]"
expect_error "cross-key check" "$TMP/bad.yaml" "$TMP/bad.yaml:3:18" \
    "key 'dram.tRC': 20 clocks < tRAS + tRP .*(point '20')"
bad "axis:" "  driver.eviction: [fifo]"
expect_error "unknown sweep key" "$TMP/bad.yaml" "$TMP/bad.yaml:2:1" "key 'axis': unknown sweep key"
printf '%s\n' "base: no-such.yaml" "seeds: 2" >"$TMP/bad.yaml"
expect_error "missing base" "$TMP/bad.yaml" "$TMP/bad.yaml:1:7" "key 'base': cannot open"
bad "axes:" "  driver.eviction: [fifo, lru"
expect_error "YAML syntax" "$TMP/bad.yaml" "$TMP/bad.yaml:[0-9]*:[0-9]*" "YAML syntax error"
bad "axes:" "  driver.eviction: [fifo]"
expect_error "bad -s" "$TMP/bad.yaml" "-s 'gpu.sms=abc'" "key 'gpu.sms': expected" -s gpu.sms=abc
expect_error "-s on an axis" "$TMP/bad.yaml" "-s 'driver.eviction=lru'" "is an axis of" -s driver.eviction=lru
"$UVMSIM" sweep plan "$TMP/none.yaml" 2>"$TMP/e"
check "missing sweep file exits 2" [ $? -eq 2 ] && grep -q "none.yaml: cannot open" "$TMP/e"
"$UVMSIM" sweep run "$TMP/full.yaml" 2>/dev/null
check "run without -o exits 2" [ $? -eq 2 ]
"$UVMSIM" sweep frob 2>/dev/null
check "unknown sweep command exits 2" [ $? -eq 2 ]
"$UVMSIM" sweep --help | grep -q "usage: uvmsim sweep plan"
check "sweep --help" [ $? -eq 0 ]

[ "$FAILS" -eq 0 ]
