#!/bin/sh
# End to end: every class of config error makes `uvmsim run` and
# `uvmsim config check` exit 2 with one located message naming the key, and
# `run` writes no output (neither OUT.h5 nor a temporary OUT.h5.tmp*).
#
# usage (from the repo root): sh tests/e2e/config_errors.sh BUILD_DIR
# Only sim.* keys are used so this does not depend on other components.

BUILD=${1:?usage: sh tests/e2e/config_errors.sh BUILD_DIR}
UVMSIM=$BUILD/uvmsim
if [ ! -x "$UVMSIM" ]; then
    echo "not ok - config_errors: $UVMSIM not built"
    exit 1
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/uvmsim-cfgerr.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
trap 'exit 130' HUP INT PIPE TERM
failed=0

# write NAME TEXT: a fixture in $TMP (\n in TEXT is a newline).
write() {
    printf '%b' "$2" > "$TMP/$1"
}

# why_bad WANT KEY: why the last command's result is wrong ("" when right).
why_bad() {
    if [ "$rc" -ne 2 ]; then
        echo "exit code $rc, expected 2"
    elif [ "$(wc -l < "$TMP/stderr")" -ne 1 ] ||
         [ "$(wc -c < "$TMP/stderr")" -le 1 ]; then
        echo "stderr is not exactly one line"
    elif ! grep -qF -- "$1" "$TMP/stderr"; then
        echo "stderr lacks '$1'"
    elif ! grep -qF -- "key '$2'" "$TMP/stderr"; then
        echo "stderr lacks \"key '$2'\""
    else
        for f in "$TMP/out.h5" "$TMP"/out.h5.tmp*; do
            if [ -e "$f" ]; then
                echo "output file $(basename "$f") exists"
                return
            fi
        done
    fi
}

# run_case NAME WANT KEY ARGS...: run uvmsim ARGS and check the result.
run_case() {
    name=$1 want=$2 key=$3
    shift 3
    rm -f "$TMP/out.h5" "$TMP"/out.h5.tmp*
    "$UVMSIM" "$@" > "$TMP/stdout" 2> "$TMP/stderr" < /dev/null
    rc=$?
    why=$(why_bad "$want" "$key")
    if [ -z "$why" ]; then
        echo "ok - $name"
    else
        echo "not ok - $name: $why"
        sed 's/^/#   stderr: /' "$TMP/stderr" | head -n 5
        failed=$((failed + 1))
    fi
}

# check NAME CONFIG WANT KEY [-s K=V]...: both `run` and `config check`.
check() {
    # run_case sets name/want/key: keep this case's own copies.
    c_name=$1 c_cfg=$2 c_want=$3 c_key=$4
    shift 4
    run_case "$c_name (run)" "$c_want" "$c_key" \
        run "$c_cfg" -o "$TMP/out.h5" "$@"
    run_case "$c_name (config check)" "$c_want" "$c_key" \
        config check "$c_cfg" "$@"
}

write good.yaml 'sim:\n  seed: 1\n'
write unknown.yaml 'sim:\n  seed: 1\n  sed: 2\n'
write badtype.yaml 'sim:\n  seed: abc\n'
write badunit.yaml 'sim:\n  epoch: 10\n'
write range.yaml 'sim:\n  epoch: 0.5ps\n'
write nobase.yaml 'base: nope.yaml\nsim:\n  seed: 1\n'
write badbase.yaml 'sim:\n  watchdog: 3 parsecs\n'
write inbase.yaml 'base: badbase.yaml\nsim.seed: 2\n'

check "unknown key" "$TMP/unknown.yaml" "$TMP/unknown.yaml:3:3:" sim.sed
check "bad type" "$TMP/badtype.yaml" "$TMP/badtype.yaml:2:9:" sim.seed
check "bad unit" "$TMP/badunit.yaml" "$TMP/badunit.yaml:2:10:" sim.epoch
check "out of range" "$TMP/range.yaml" "$TMP/range.yaml:2:10:" sim.epoch
check "missing base file" "$TMP/nobase.yaml" "$TMP/nobase.yaml:1:7:" base
check "error inside a base file" "$TMP/inbase.yaml" \
    "$TMP/badbase.yaml:2:13:" sim.watchdog
check "bad -s value" "$TMP/good.yaml" "-s 'sim.seed=abc':" sim.seed \
    -s sim.seed=abc
check "bad -s unknown key" "$TMP/good.yaml" "-s 'sim.sed=1':" sim.sed \
    -s sim.max_events=3 -s sim.sed=1
check "bad -s without =" "$TMP/good.yaml" "-s 'sim.epoch':" sim.epoch \
    -s sim.epoch
check "bad -s out of range" "$TMP/good.yaml" "-s 'sim.epoch=0ps':" \
    sim.epoch -s sim.epoch=0ps

if [ "$failed" -ne 0 ]; then
    echo "# config_errors: $failed failed"
    exit 1
fi
exit 0
