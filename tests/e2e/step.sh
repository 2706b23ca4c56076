#!/bin/sh
# uvmsim step: the stepper driven by a script on stdin and typed into a real
# terminal (tmux send-keys / capture-pane), on configs/tour.yaml (every key
# the times depend on pinned there).  Times derived by hand (the derivation
# of page 0's fault is in tests/e2e/trace_json.sh):
#   fault of page 0x100000000 logged at 20 ns = 20000 ps (walk from 12 ns,
#   gmmu.walk_latency 8 cycles at gpu.clock 1GHz);
#   batch 1 fetched at 20000 ps (gmmu.interrupt_latency 0ns, driver.clock
#   1GHz), fault handling until 20000 ps + driver.fault_latency 20us
#   = 20020000 ps.
#   Batch 3 (page 2, GPU memory of two frames, gpu.memory.capacity 8KiB)
#   fetched at T3: its handling ends at T3 + 20 us, when it evicts page 0
#   (driver.eviction fifo) and shoots its translation down in the same
#   step; the SM stops issuing for tlb.shootdown.cycles 100 = 100 ns, so
#   its next tick is at T3 + 20 us + 100 ns; the write-back of page 0
#   (driver.drop_clean false) holds the D2H wire for 16 x (256 + 24) B at
#   16 GB/s = 280 ns (link.encoding none, link.dllp_interval 0).
. "$(dirname "$0")/../e2e_lib.sh"
CFG=configs/tour.yaml
cat >"$TMP/cmds" <<'EOF'
where
run until fault
show warp 0 0
show faultbuf
show page 0x100000000
run until batch
show batch
show faultbuf
run until time 21us
step 5
step
run until batch
run until batch
run until evict
run until shootdown
show sm 0
where
show link
show page 0x100000000
break kernel
break time 80us
break
run
delete 2
run
run
quit
EOF
"$UVMSIM" step "$CFG" <"$TMP/cmds" >"$TMP/out" 2>"$TMP/err"
rc=$?
cat "$TMP/out"
check "stepper exits 0 at quit" test $rc -eq 0
check "nothing on stderr" test ! -s "$TMP/err"
check "starts at t=0" grep -q "stepper: $CFG, t=0.000000 us (0 ps, core cycle 0)" "$TMP/out"
check "run until fault stops at 20000 ps on page 0x100000000" \
    grep -q "^stopped at t=0.020000 us (20000 ps, core cycle 20): fault on page 0x100000000 from SM 0 (read)$" "$TMP/out"
check "show warp: the faulting warp is fault-stalled" grep -q "SM 0 warp 0: stalled on a far fault" "$TMP/out"
check "show warp: its page is the faulted one" grep -q "page 0x100000000: FAULTED" "$TMP/out"
check "show faultbuf: the entry, logged at 0.020000 us (20000 ps)" \
    grep -q "entry 0: page 0x100000000, load, SM 0, logged at 0.020000 us (20000 ps)" "$TMP/out"
check "show page: unmapped, its access parked in SM 0's uTLB record" \
    grep -q "page 0x100000000 (address 0x100000000000): not mapped; SM 0's uTLB holds 1 read access(es) parked on its fault (in the fault buffer); first fault at 0.020000 us (20000 ps)" "$TMP/out"
check "run until batch: batch 1 at 20000 ps with that fault" \
    grep -q "^stopped at t=0.020000 us (20000 ps, core cycle 20): batch 1: 1 faults, 1 pages in 1 VA blocks$" "$TMP/out"
check "show batch: handling until 20020000 ps, the page in its block" \
    sh -c "grep -q 'batch 1: fetched at 0.020000 us (20000 ps), 1 faults, 1 unique pages in 1 VA blocks; fault handling until 20.020000 us (20020000 ps)' '$TMP/out' && grep -q 'VA block 0: 0x100000000 (load)' '$TMP/out'"
check "the batch emptied the fault buffer" grep -q "fault buffer: 0 of 1024 entries" "$TMP/out"
check "run until time 21us" grep -q "^stopped at t=21.000000 us (21000000 ps, core cycle 21000)$" "$TMP/out"
check "step 5: 5 core cycles" grep -q "^stopped at t=21.005000 us (21005000 ps, core cycle 21005)$" "$TMP/out"
check "step: 1 core cycle" grep -q "^stopped at t=21.006000 us (21006000 ps" "$TMP/out"
# T3 (batch 3's fetch) read off the transcript; the rest follows by hand.
t3=$(grep "batch 3: 1 faults" "$TMP/out" | sed -n 's/^stopped at t=[0-9.]* us (\([0-9]*\) ps.*/\1/p')
tev=$(grep "eviction of page 0x100000000" "$TMP/out" | sed -n 's/^stopped at t=[0-9.]* us (\([0-9]*\) ps.*/\1/p')
tsd=$(grep "shootdown of 1 page(s) from 0x100000000" "$TMP/out" | sed -n 's/^stopped at t=[0-9.]* us (\([0-9]*\) ps.*/\1/p')
echo "T3=$t3 evict=$tev shootdown=$tsd"
check "batch 3 found" test -n "$t3"
check "eviction of page 0 at T3 + 20 us (its handling's end)" test "$tev" = "$((t3 + 20000000))"
check "its shootdown in the same step" test "$tsd" = "$tev"
check "the shootdown is reported as in the same step" grep -q "2 TLB entries (in the same step as the last stop)" "$TMP/out"
check "show sm: issue blocked by the shootdown" grep -q "SM 0: 1 live warps.*issue blocked (shootdown)" "$TMP/out"
check "where: the SM's next tick 100 ns later" grep -q "next: sm.0 at t=[0-9.]* us ($((tev + 100000)) ps" "$TMP/out"
check "show link: the write-back holds D2H for 280 ns" \
    grep -q "GPU-to-host (D2H): wire busy until [0-9.]* us ($((tev + 280000)) ps); 1 transfers, 4096 bytes" "$TMP/out"
check "page 0 is unmapped after its eviction" grep -c "page 0x100000000 (address 0x100000000000): not mapped$" "$TMP/out"
check "breakpoints listed" sh -c "grep -q '  1: kernel' '$TMP/out' && grep -q '  2: time t=80.000000 us (80000000 ps' '$TMP/out'"
check "a time breakpoint stops the run" grep -q "^stopped at t=80.000000 us (80000000 ps, core cycle 80000): time breakpoint$" "$TMP/out"
check "a kernel breakpoint stops at its end" grep -q "kernel stream ends" "$TMP/out"
check "the run ends" grep -q "^the run is over at" "$TMP/out"
"$UVMSIM" step "$CFG" <"$TMP/cmds" >"$TMP/out2" 2>&1
check "the same script gives the same transcript" cmp -s "$TMP/out" "$TMP/out2"
printf 'bogus\nshow nothing\nstep -3\nrun until never\nbreak maybe\n' | "$UVMSIM" step "$CFG" >"$TMP/bad" 2>&1
check "bad commands are answered, not fatal" sh -c "grep -q \"unknown command 'bogus'\" '$TMP/bad' && grep -q 'show what?' '$TMP/bad' && grep -q 'step N' '$TMP/bad' && grep -q 'run until what?' '$TMP/bad' && grep -q 'break on what?' '$TMP/bad'"
"$UVMSIM" step "$CFG" -s gpu.sms=0 </dev/null >/dev/null 2>"$TMP/err"; rc=$?
check "config error: exit 2 with one line" sh -c "test $rc -eq 2 && test \$(wc -l <'$TMP/err') -eq 1"

# Every time reads "US us (PS ps": the two must be the same time.
check "times in us with the same time in ps beside them" sh -c "grep -o 't=[0-9.]* us ([0-9]* ps\|at [0-9.]* us ([0-9]* ps' '$TMP/out' | awk '{ gsub(/t=|at |\\(/, \"\"); split(\$0, a, \" \"); u = a[1]; sub(/\\./, \"\", u); if (u + 0 != a[3] + 0) bad++; n++ } END { exit !(n > 20 && !bad) }'"

# ---- after the end: where, the hint, restart ----
# restart builds the machine again from the same config and seed: what
# follows it must read as a fresh stepper's session (the simulation is
# deterministic), mid-run or after the end.
cat >"$TMP/x" <<'EOF2'
run until fault
show faultbuf
run until batch
show batch
run until evict
show link
where
run
where
run
EOF2
{ echo "run until batch"; echo "step 3"; echo restart; cat "$TMP/x"; echo restart; cat "$TMP/x"; } >"$TMP/rcmds"
"$UVMSIM" step "$CFG" <"$TMP/x" >"$TMP/fresh" 2>&1
"$UVMSIM" step "$CFG" <"$TMP/rcmds" >"$TMP/rout" 2>&1
tail -n +2 "$TMP/fresh" >"$TMP/fresh.body"
awk '/^restarted at/{n++; next} n==1' "$TMP/rout" | sed '$d' >"$TMP/r1"    # less the 2nd restart's echo
awk '/^restarted at/{n++; next} n==2' "$TMP/rout" >"$TMP/r2"
check "restart mid-run: the session reads as a fresh one" cmp -s "$TMP/fresh.body" "$TMP/r1"
check "restart after the end: the session reads as a fresh one" cmp -s "$TMP/fresh.body" "$TMP/r2"
check "restart says where it starts" grep -q "^restarted at t=0.000000 us (0 ps, core cycle 0)$" "$TMP/rout"
end=$(sed -n 's/^the run is over at \(t=[^:]*\):.*/\1/p' "$TMP/fresh")
check "where after the end: the end time the run reported ($end)" grep -qx "at $end; the run is over" "$TMP/fresh"
check "the hint after the end names the restart command" grep -qx "the run is over ('restart' starts it again, 'quit' leaves)" "$TMP/fresh"
check "help lists restart" sh -c "printf 'help\n' | '$UVMSIM' step '$CFG' | grep -q '^  restart '"

# ---- Ctrl-C, a second one while the command still runs: quit ----
# The stepper's output goes into a pipe nobody reads: a command that
# prints more than the pipe holds is still running, blocked.  The first
# SIGINT asks it to stop at the next event; it is not at one; the second
# quits (exit 130 = 128 + SIGINT).
mkfifo "$TMP/fin" "$TMP/fout"
"$UVMSIM" step "$CFG" <"$TMP/fin" >"$TMP/fout" 2>"$TMP/ferr" &
pid=$!
exec 3>"$TMP/fin" 4<"$TMP/fout"
i=0; while [ $i -lt 200 ]; do echo help; i=$((i + 1)); done >&3
sleep 1
kill -INT $pid; sleep 0.3
check "one Ctrl-C does not quit a command that cannot stop" kill -0 $pid
kill -INT $pid
wait $pid; rc=$?
exec 3>&- 4<&-
check "a second Ctrl-C while the command runs quits (exit 130)" test $rc -eq 130
check "... saying so" grep -q "second Ctrl-C" "$TMP/ferr"

# ---- a real terminal: tmux ----
if ! command -v tmux >/dev/null 2>&1; then
    not_ok "tmux not installed (apt-get install -y tmux; .ci/run installs it)"; exit 1
fi
SOCK="uvmsim-step-$$"
T="tmux -L $SOCK -f /dev/null"
$T new-session -d -s step -x 200 -y 60 "TERM=xterm $UVMSIM step $CFG; sleep 30"
# Type a line, then wait (at most 10 s, or TENTHS tenths of a second)
# until the screen shows `want`.
typed() {  # KEYS WANT [TENTHS]
    $T send-keys -t step "$1" Enter
    shows "$2" "${3:-100}"
}
shows() {  # WANT [TENTHS]
    i=0
    while [ $i -lt "${2:-100}" ]; do
        $T capture-pane -p -t step -S -200 >"$TMP/screen" 2>/dev/null
        grep -q -- "$1" "$TMP/screen" && return 0
        sleep 0.1; i=$((i + 1))
    done
    return 1
}
check "terminal: a prompt" typed "" "(uvmsim)"
check "terminal: run until fault stops at 20000 ps" typed "run until fault" "stopped at t=0.020000 us (20000 ps, core cycle 20): fault on page 0x100000000"
check "terminal: show warp shows the faulting warp" typed "show warp 0 0" "page 0x100000000: FAULTED"
check "terminal: show faultbuf shows its entry" typed "show faultbuf" "entry 0: page 0x100000000, load, SM 0, logged at 0.020000 us (20000 ps)"
check "terminal: run until batch shows the batch" typed "run until batch" "batch 1: 1 faults, 1 pages in 1 VA blocks"
check "terminal: show batch" typed "show batch" "fault handling until 20.020000 us (20020000 ps)"
check "terminal: step 2" typed "step 2" "stopped at t=0.022000 us (22000 ps"
# An empty line repeats the last command on a terminal (as gdb).
check "terminal: Enter repeats the step" typed "" "stopped at t=0.024000 us (24000 ps"
$T send-keys -t step "quit" Enter
sleep 0.5
$T capture-pane -p -t step -S -200 >"$TMP/screen" 2>/dev/null
cp "$TMP/screen" "$TMP/screen1"

# Ctrl-C during a long run (configs/default.yaml, 16 MiB streamed twice
# through half of it: seconds of host time): back at the prompt, stopped
# at an event boundary; the run then goes on to the same end as a run
# without the interruption (the state is the simulation's own).
LONG="configs/default.yaml -s workload.stream.footprint=16MiB -s gpu.memory.fraction=50%"
printf 'run\n' | "$UVMSIM" step $LONG >"$TMP/long" 2>&1
lend=$(sed -n 's/^the run is over at \(t=[^:]*\):.*/\1/p' "$TMP/long")
$T kill-server 2>/dev/null
T="tmux -L $SOCK-long -f /dev/null"       # a server of its own: the last one may still be exiting
$T new-session -d -s step -x 200 -y 60 "TERM=xterm $UVMSIM step $LONG; echo exited \$?; sleep 30"
check "terminal (long run): a prompt" typed "" "(uvmsim)"
$T send-keys -t step "run" Enter
sleep 0.5
$T send-keys -t step C-c
# (An empty line would repeat `run`: wait without typing.)
check "terminal: Ctrl-C stops the run at an event, back at the prompt" shows "interrupted (Ctrl-C)"
ti=$(sed -n 's/.*stopped at \(t=[^:]*\): interrupted (Ctrl-C)$/\1/p' "$TMP/screen" | head -1)
check "terminal: the interrupt came mid-run" test -n "$ti"
check "terminal: where shows the time it stopped at" typed "where" "^at $ti; next: "
$T send-keys -t step C-c
sleep 0.3
check "terminal: Ctrl-C at the prompt keeps the stepper" typed "step" "^stopped at t="
# The rest of the long run: seconds, many more under ASan on a busy machine.
check "terminal: the interrupted run goes on to the same end ($lend)" typed "run" "the run is over at $lend" 1200
check "terminal: quit after Ctrl-C exits 0" typed "quit" "exited 0"
$T capture-pane -p -t step -S -200 >>"$TMP/screen1" 2>/dev/null
mv "$TMP/screen1" "$TMP/screen"
# The terminal as the test saw it, kept beside the report's screenshot.
mkdir -p "$BUILD/artifacts" && cp "$TMP/screen" "$BUILD/artifacts/step-screen.txt"
$T kill-server 2>/dev/null
exit $FAILS
