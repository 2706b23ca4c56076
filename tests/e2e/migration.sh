#!/bin/sh
# Dynamic migration end to end (issue 19, thesis Ch. V): on the Ch. V
# machine (configs/thesis-ch5.yaml) a 2 MiB read stream, twice, with
# every page homed in host memory: CC-only reads every line remotely,
# legacy memcpy copies everything first and reads nothing remotely,
# threshold-1 migrates every page (each after its first touch, so each
# with a shootdown); runs repeat exactly; config errors are located (exit
# 2, one line, no result).
. "$(dirname "$0")/../e2e_lib.sh"

stat0() { h5dump -d "/stats/$2" "$1" 2>/dev/null | sed -n 's/^ *(0): *//p' | head -n 1; }

S="configs/thesis-ch5.yaml -s workload.kind=stream -s workload.stream.footprint=2MiB -s workload.stream.passes=2 -s workload.stream.op=read"
# CC-only: the stream is twice the 1 MiB L2, so every line misses in every
# pass: 512 pages x 32 lines x 2 passes remote reads.
# shellcheck disable=SC2086
"$UVMSIM" run $S -s driver.migration=none -o "$TMP/cc.h5" --quiet
check "cc-only run completes" [ $? -eq 0 ]
check "cc-only: 32768 remote reads" [ "$(stat0 "$TMP/cc.h5" remote/reads)" = 32768 ]
check "cc-only: no migration statistics" [ -z "$(stat0 "$TMP/cc.h5" migration/pages)" ]

# shellcheck disable=SC2086
"$UVMSIM" run $S -s driver.migration=memcpy -o "$TMP/mc.h5" --quiet
check "memcpy run completes" [ $? -eq 0 ]
check "memcpy: all 512 pages copied" [ "$(stat0 "$TMP/mc.h5" migration/pages)" = 512 ]
check "memcpy: no remote read (every access in GPU memory)" [ "$(stat0 "$TMP/mc.h5" remote/reads)" = 0 ]
check "memcpy: no shootdown" [ "$(stat0 "$TMP/mc.h5" tlb/shootdowns)" = 0 ]
check "memcpy: the kernels waited for the copies" [ "$(stat0 "$TMP/mc.h5" migration/prologue_ps)" -gt 0 ]
check "memcpy: 2 MiB read from host memory" [ "$(stat0 "$TMP/mc.h5" migration/ddr_bytes)" = 2097152 ]

# shellcheck disable=SC2086
"$UVMSIM" run $S -o "$TMP/th.h5" --quiet
check "threshold-1 run completes" [ $? -eq 0 ]
check "threshold-1: every page migrated" [ "$(stat0 "$TMP/th.h5" migration/pages)" = 512 ]
check "threshold-1: each after a touch, so each shot down" \
    [ "$(stat0 "$TMP/th.h5" migration/shootdowns)" = 512 ]
check "threshold-1: fewer remote reads than cc-only" \
    [ "$(stat0 "$TMP/th.h5" remote/reads)" -lt 32768 ]
check "threshold-1: GPU memory written as much as host memory read" \
    [ "$(stat0 "$TMP/th.h5" migration/gddr_bytes)" = "$(stat0 "$TMP/th.h5" migration/ddr_bytes)" ]

# The same config and seed twice: identical statistics.
for i in 1 2; do
    # shellcheck disable=SC2086
    "$UVMSIM" run $S -s driver.migrate.expand=16 -s driver.migrate.bwb.enabled=true \
        -o "$TMP/d$i.h5" --quiet
    h5dump -g /stats "$TMP/d$i.h5" 2>&1 | tail -n +2 >"$TMP/d$i.txt"
done
check "deterministic: same statistics twice" cmp -s "$TMP/d1.txt" "$TMP/d2.txt"

# errors: exit 2, one line, located, no result
one_line() { [ "$(wc -l <"$1")" -eq 1 ] && grep -qF -- "$2" "$1" && grep -qF -- "key '$3'" "$1"; }
bad() {
    what=$1 want=$2 key=$3
    shift 3
    rm -f "$TMP/e.h5"
    "$UVMSIM" run "$@" -o "$TMP/e.h5" --quiet 2>"$TMP/err"
    rc=$?
    check "$what: exit 2" [ $rc -eq 2 ]
    check "$what: one line naming '$want' and key '$key'" one_line "$TMP/err" "$want" "$key"
    check "$what: no result" [ ! -e "$TMP/e.h5" ]
}
mkdir -p "$TMP/c"
printf 'base: %s/configs/thesis-ch5.yaml\ndriver:\n  placement: fault\n' "$(pwd)" >"$TMP/c/fault.yaml"
bad "migration without a static placement" "driver.placement=fault: $TMP/c/fault.yaml:3:14" \
    driver.migration "$TMP/c/fault.yaml"
printf 'base: %s/configs/thesis-ch5.yaml\ndriver:\n  migration: memcpy\n  migrate:\n    expand: 64\n' \
    "$(pwd)" >"$TMP/c/re.yaml"
bad "range expansion without threshold" "re.yaml:5:13:" driver.migrate.expand "$TMP/c/re.yaml"
# shellcheck disable=SC2086
bad "bandwidth balancing without threshold" "needs driver.migration threshold" \
    driver.migrate.bwb.enabled $S -s driver.migration=none -s driver.migrate.bwb.enabled=true
printf 'base: %s/configs/thesis-ch5.yaml\ntlb:\n  shootdown:\n    scope: sharers\n' "$(pwd)" >"$TMP/c/sh.yaml"
bad "the sharers list with per-SM scope" "tlb.shootdown.scope=sharers: $TMP/c/sh.yaml:4:12" \
    tlb.shootdown.filter "$TMP/c/sh.yaml"
# shellcheck disable=SC2086
bad "bwb target between -1 and 0" "expected a percentage" driver.migrate.bwb.target $S \
    -s driver.migrate.bwb.target=-0.5
# shellcheck disable=SC2086
bad "threshold above a byte" "driver.migrate.threshold" driver.migrate.threshold $S \
    -s driver.migrate.threshold=256

# thesis-ch5.yaml is thesis-ch4.yaml's machine with Ch. V's start.
"$UVMSIM" config show configs/thesis-ch5.yaml >"$TMP/ch5" 2>&1
for want in "sms: 15" "channels: 8" "size: 1MiB" "placement: host" "migration: threshold" \
            "filter: touched" "copy_engines: 4" "cycles: 100"; do
    check "thesis-ch5: $want" grep -q "^ *$want\$" "$TMP/ch5"
done

# thesis-ch5-inputs.yaml (the sweeps' base) is thesis-ch5.yaml's machine
# with thesis-ch4-inputs.yaml's workload sizes: outside the workload
# section the two resolve alike.
"$UVMSIM" config show configs/thesis-ch5-inputs.yaml >"$TMP/ch5i" 2>&1
no_workload() { awk '/^[a-z]/ { w = ($0 ~ /^workload:/) } !w' "$1"; }
no_workload "$TMP/ch5" >"$TMP/ch5.m"
no_workload "$TMP/ch5i" >"$TMP/ch5i.m"
check "thesis-ch5-inputs: the machine is thesis-ch5's" cmp -s "$TMP/ch5.m" "$TMP/ch5i.m"
check "thesis-ch5-inputs: kmeans at the Ch. IV sweeps' 100000 points" \
    grep -q "^ *points: 100000\$" "$TMP/ch5i"

# The Ch. V sweeps plan (docs/validation.md runs them): workloads x scheme
# rows as each file lists them -- 12 x 10, 12 x 6, 11 x 3, 12 x 18,
# 12 x 6 and 3 x 4 points.
for fn in fig5.2:120 fig5.3:72 table5.2:33 fig5.5:216 fig5.9:72 repeat:12; do
    f=configs/sweeps/thesis-ch5-${fn%%:*}.yaml
    check "$f plans ${fn#*:} points" sh -c \
        "'$UVMSIM' sweep plan $f 2>&1 | head -n 1 | grep -q ': ${fn#*:} points'"
done

[ "$FAILS" -eq 0 ]
