#!/bin/sh
# uvmsim step on hostile input (issue 38): numbers range-checked before any
# narrowing, over-long lines refused whole, control bytes escaped, a known
# command with a bad argument never "unknown".  On configs/tour.yaml, whose
# sizes are known by hand: 1 SM (gpu.sms), 48 warp slots (the default
# gpu.sm.max_warps), 12 memory channels (default dram.channels), an L2 TLB
# of 512 entries / 16 ways = 32 sets (defaults), 1 ns core cycles.
. "$(dirname "$0")/../e2e_lib.sh"
CFG=configs/tour.yaml
# The answer to the commands on stdin: the session without its banner and
# the echoed commands.
answer() { "$UVMSIM" step "$CFG" 2>"$TMP/err" | sed '1d; /^(uvmsim) /d'; }

printf 'show sm 4294967296\n' | answer >"$TMP/a"
check "show sm 2^32: an error naming the range, not SM 0" \
    [ "$(cat "$TMP/a")" = "no SM 4294967296: SMs are 0 to 0" ]
printf 'show tlb l2 set 9223372036854775808\n' | answer >"$TMP/a"
check "show tlb l2 set 2^63: an error naming the 32 sets, not the whole L2" \
    [ "$(cat "$TMP/a")" = "no set 9223372036854775808: sets are 0 to 31" ]
printf 'show tlb l2 set 18446744073709551616\n' | answer >"$TMP/a"
check "show tlb l2 set 2^64 (past strtoull): the same range error" \
    [ "$(cat "$TMP/a")" = "no set 18446744073709551616: sets are 0 to 31" ]
printf 'show tlb l1 4294967296\nshow warp 0 4294967344\nshow dram 4294967296\n' | answer >"$TMP/a"
check "show tlb l1 / warp / dram past 2^32: range errors" [ "$(cat "$TMP/a")" = "no SM 4294967296: SMs are 0 to 0
no warp 4294967344: warps are 0 to 47
no channel 4294967296: channels are 0 to 11" ]
printf 'show sm 0x\nshow sm 1x\n' | answer >"$TMP/a"
check "trailing junk in a number: refused" [ "$(grep -c "is not a number" "$TMP/a")" -eq 2 ]
printf 'show page 0x10000000000000\n' | answer >"$TMP/a"
check "show page past a 64-bit address: refused (pages are 0 to 2^52-1)" \
    [ "$(cat "$TMP/a")" = "no page 0x10000000000000: pages are 0 to 4503599627370495" ]
printf 'step 18446744073709551615\nstep 0\nwhere\n' | answer >"$TMP/a"
check "step N: at most 1e18 ps of 1 ns cycles, at least 1; the clock stays at 0" [ "$(cat "$TMP/a")" = "step N: N core cycles, 1 to 1000000000000000
step N: N core cycles, 1 to 1000000000000000
at t=0.000000 us (0 ps, core cycle 0); next: a scheduled callback (a landing, a launch, a timer) at t=0.000000 us (0 ps, core cycle 0)" ]

# A line over 511 bytes: refused whole.  The first 511 bytes end just
# before " run": split, the tail would have run the whole workload.
long="show stats $(printf '%0500d' 0 | tr 0 a) run"
printf '%s\nwhere\n' "$long" | answer >"$TMP/a"
check "a 515-byte line: one error line, its tail not run" [ "$(head -n 1 "$TMP/a")" = "line too long (515 bytes; at most 511): ignored" ]
check "a 515-byte line: the run did not move" grep -q "^at t=0.000000 us (0 ps" "$TMP/a"
check "a 515-byte line: two lines of answer in all" [ "$(wc -l <"$TMP/a")" -eq 2 ]
printf '%s\n' "$long" | "$UVMSIM" step "$CFG" >"$TMP/t" 2>&1
check "a long line's echo is cut (with ...), not the whole line" \
    sh -c "[ \$(sed -n 2p '$TMP/t' | wc -c) -lt 100 ] && sed -n 2p '$TMP/t' | grep -q '\.\.\.$'"
printf 'show \000x\nwhere\n' | answer >"$TMP/a"
check "a NUL byte: the line refused" [ "$(head -n 1 "$TMP/a")" = "line holds a NUL byte: ignored" ]

# Control bytes typed or piped in are echoed and quoted back escaped.
printf 'show stats \033[31m\nfoo\001bar\n' | "$UVMSIM" step "$CFG" >"$TMP/t" 2>&1
check "no control byte reaches the output" sh -c "! LC_ALL=C grep -q '[[:cntrl:]]' '$TMP/t'"
check "the echo shows the escape" grep -q '^(uvmsim) show stats \\x1b\[31m$' "$TMP/t"
check "the statistic pattern is quoted escaped" grep -q "no statistic matches '\\\\x1b\[31m'" "$TMP/t"
check "an unknown command is quoted escaped" grep -q "unknown command 'foo\\\\x01bar'" "$TMP/t"

# delete N: a missing breakpoint is named as such (MAX_BREAKS = 32).
{ i=0; while [ $i -lt 32 ]; do echo "break fault"; i=$((i + 1)); done
  echo "delete 33"; echo "delete 0"; echo "delete x"; echo "delete 32"; } | answer >"$TMP/a"
check "32 breakpoints set" [ "$(grep -c "^breakpoint .* set$" "$TMP/a")" -eq 32 ]
check "delete 33 of 32: the breakpoint does not exist" grep -q "^no breakpoint 33: breakpoints are 1 to 32$" "$TMP/a"
check "delete 0: the same" grep -q "^no breakpoint 0: breakpoints are 1 to 32$" "$TMP/a"
check "delete x: not a number" grep -q "^breakpoint 'x' is not a number" "$TMP/a"
check "delete 32 deletes" grep -q "^breakpoint 32 deleted$" "$TMP/a"
printf 'delete 1\n' | answer >"$TMP/a"
check "delete with none set says so" [ "$(cat "$TMP/a")" = "no breakpoints to delete" ]

# A known command with a stray argument says what it takes.
printf 'run x\ncontinue 3\nwhere x\nrestart now\nquit now\nrun until\n' | answer >"$TMP/a"
check "bad arguments are never 'unknown command'" sh -c "! grep -q 'unknown command' '$TMP/a'"
check "run x: takes no argument" grep -q "^run takes no argument" "$TMP/a"
check "quit now did not quit" grep -q "^quit takes no argument$" "$TMP/a"
check "run until (nothing): asks what" grep -q "^run until what?" "$TMP/a"
check "nothing on stderr" test ! -s "$TMP/err"
exit $FAILS
