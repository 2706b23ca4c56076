#!/bin/sh
# Runs each fuzz target for SECONDS (libFuzzer, ASan+UBSan) from a corpus
# seeded with tests/fuzz/seeds/TARGET, the repository's configs (config)
# and every regression input, and prints one line per target:
#   TARGET EXECUTIONS CRASHES
# (A unit that takes over 60 s is a timeout: generous, for a loaded host.)
# Every crashing input is copied to tests/fuzz/regressions/TARGET/, where
# the normal test suite replays it (tests/e2e/fuzz_regressions.sh); the
# exit status is 1 when there was any.
# usage: sh tests/fuzz/run.sh BUILD_DIR SECONDS TARGET...
B=${1:?usage: run.sh BUILD_DIR SECONDS TARGET...}
S=${2:?seconds}
shift 2
F=tests/fuzz
sh $F/mkdict.sh "$B/uvmsim" "$B/dict" || exit 1
# The targets write each input to a file: memory-backed when possible.
[ -d /dev/shm ] && [ -w /dev/shm ] && export TMPDIR=/dev/shm
status=0
printf '%-10s %12s %8s\n' target executions crashes
for t in "$@"; do
    corpus=$B/corpus/$t art=$B/artifacts/$t
    rm -rf "$art"                   # only this run's crashes count
    mkdir -p "$corpus" "$art"
    cp $F/seeds/$t/* "$corpus"/ 2>/dev/null
    cp "$B"/seeds/$t/* "$corpus"/ 2>/dev/null       # made by the build (report)
    cp $F/regressions/$t/* "$corpus"/ 2>/dev/null
    [ "$t" = config ] && cp configs/*.yaml "$corpus"/
    # A result file is 170 KiB at least, a merged sweep 340 KiB.
    maxlen=65536
    [ "$t" = report ] && maxlen=524288
    # Leaks are bugs too (the parsers release everything on user errors).
    # No returning freed memory to the OS: on a loaded host its madvise
    # calls stalled single inputs past any timeout.
    ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=0:allocator_release_to_os_interval_ms=-1 \
    LSAN_OPTIONS=suppressions=$(pwd)/tests/lsan-hdf5.supp:print_suppressions=0 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        "$B/fuzz_$t" "$corpus" -dict="$B/dict/$t.dict" -max_total_time="$S" -timeout=60 \
        -rss_limit_mb=2048 -max_len="$maxlen" -print_final_stats=1 \
        -artifact_prefix="$art/" >"$B/fuzz_$t.log" 2>&1
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$B/fuzz_$t.log" | tail -n 1)
    n=0
    for c in "$art"/crash-* "$art"/leak-* "$art"/timeout-* "$art"/oom-*; do
        [ -e "$c" ] || continue
        n=$((n + 1))
        mkdir -p $F/regressions/$t
        cp "$c" $F/regressions/$t/
        echo "  $t: $(basename "$c") kept as tests/fuzz/regressions/$t/$(basename "$c") (log: $B/fuzz_$t.log)"
    done
    printf '%-10s %12s %8s\n' "$t" "${execs:-?}" "$n"
    [ "$n" -eq 0 ] && [ -n "$execs" ] || status=1
done
exit $status
