#!/bin/sh
# End to end: `uvmsim dram-replay` on a generated stream and a random trace
# against analytic bounds; bad traces and impossible timing exit 2.
. "$(dirname "$0")/../e2e_lib.sh"

# stream N: N sequential 128 B line reads, all at time 0.
stream() { awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) printf "0 0x%x R\n", i * 128 }'; }
# field NAME FILE: the first number after NAME's label.
pct_of_peak() { sed -n 's/^bandwidth.*(\([0-9.]*\) % of peak.*/\1/p' "$1"; }
ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a >= b) }'; }

stream 12000 > "$TMP/stream.tr"
"$UVMSIM" dram-replay configs/default.yaml "$TMP/stream.tr" > "$TMP/out" 2>&1
check "stream: exit 0" [ $? -eq 0 ]
check "stream: all 12000 requests" grep -q '^requests *12000 (12000 reads, 0 writes)' "$TMP/out"
# Peak 12 x 4 B x 4 x 924 MHz = 177.4 GB/s; a stream keeps >= 90 % of it.
check "stream: peak is 177.4 GB/s" grep -q 'peak 177\.4[0-9]* GB/s' "$TMP/out"
check "stream: >= 90 % of peak" ge "$(pct_of_peak "$TMP/out")" 90
# 16 lines per 2 KiB row: the hit rate is near 15/16 (refresh closes a few).
hit=$(sed -n 's/^row buffer *hit rate \([0-9.]*\) %.*/\1/p' "$TMP/out")
check "stream: row hit rate >= 85 %" ge "$hit" 85

"$UVMSIM" dram-replay configs/dram-hbm2-v100.yaml "$TMP/stream.tr" -s dram.tREFI=0 > "$TMP/hbm" 2>&1
check "HBM2 stream: >= 90 % of peak" ge "$(pct_of_peak "$TMP/hbm")" 90
check "HBM2 peak is 898 GB/s" grep -q 'peak 898\.[0-9]* GB/s' "$TMP/hbm"

# The batch-aware machine's 150-clock controller pipeline holds no queue
# slot: 32 B sector reads still stream at >= 95 % of the same peak (a 32 B
# burst every tCCD_S = 2 clocks), and an idle line read takes 150 + 35
# clocks = 200.170 ns.
awk 'BEGIN { for (i = 0; i < 48000; i++) printf "0 0x%x R 32\n", i * 32 }' > "$TMP/s32.tr"
"$UVMSIM" dram-replay configs/batch-aware-table1.yaml "$TMP/s32.tr" > "$TMP/ba" 2>&1
check "batch-aware 32 B stream: >= 95 % of peak" ge "$(pct_of_peak "$TMP/ba")" 95
printf '0 0x0 R\n' > "$TMP/one.tr"
"$UVMSIM" dram-replay configs/batch-aware-table1.yaml "$TMP/one.tr" > "$TMP/ba1" 2>&1
check "batch-aware idle line read: 200.170 ns" grep -q 'p50 200\.170 ns' "$TMP/ba1"

# Random reads over 1 GiB: rows rarely hit; no read beats the idle line
# latency tRCD + 3 tCCD_L + tCL + burst = 35 clocks of 1082 ps = 37.870 ns,
# and the bandwidth stays under the peak.
awk 'BEGIN { srand(7); for (i = 0; i < 4000; i++) printf "%d 0x%x R\n", i, int(rand() * 8388608) * 128 }' > "$TMP/random.tr"
"$UVMSIM" dram-replay configs/default.yaml "$TMP/random.tr" > "$TMP/rnd" 2>&1
check "random: exit 0" [ $? -eq 0 ]
p50=$(sed -n 's/.*p50 \([0-9.]*\) ns.*/\1/p' "$TMP/rnd")
check "random: p50 >= idle latency 37.870 ns" ge "$p50" 37.870
check "random: below peak" ge 100 "$(pct_of_peak "$TMP/rnd")"
hit=$(sed -n 's/^row buffer *hit rate \([0-9.]*\) %.*/\1/p' "$TMP/rnd")
check "random: row hit rate < 10 %" ge 10 "$hit"

# All random reads queued at once with tRRD = 20 clocks: nearly every read
# opens a row, so each channel moves at most one 128 B line per ACT, one ACT
# per 20 clocks: 12 x 128 B / (20 x 1.082 ns) = 70.98 GB/s; channel
# imbalance of a random trace keeps it somewhat below.
awk 'BEGIN { srand(7); for (i = 0; i < 4000; i++) printf "0 0x%x R\n", int(rand() * 8388608) * 128 }' > "$TMP/random0.tr"
"$UVMSIM" dram-replay configs/default.yaml "$TMP/random0.tr" -s dram.tRRD_S=20 \
    -s dram.tRRD_L=20 -s dram.tREFI=0 > "$TMP/act" 2>&1
bw=$(sed -n 's/^bandwidth *\([0-9.]*\) GB\/s.*/\1/p' "$TMP/act")
check "random, ACT-bound: <= 70.98 GB/s" ge 70.98 "$bw"
check "random, ACT-bound: >= 75 % of the bound" ge "$bw" 53.2

printf '0 0x0 R\n# fine\n3 0x80 W 64\n2 0x100 R\n' > "$TMP/back.tr"
"$UVMSIM" dram-replay configs/default.yaml "$TMP/back.tr" > "$TMP/o" 2> "$TMP/e"
check "time going backwards: exit 2" [ $? -eq 2 ]
check "time going backwards: names line 4" grep -q "back.tr:4: time goes backwards" "$TMP/e"
printf '0 0x0 Q\n' > "$TMP/op.tr"
"$UVMSIM" dram-replay configs/default.yaml "$TMP/op.tr" > "$TMP/o" 2> "$TMP/e"
check "bad operation: exit 2 with line 1" sh -c "[ $? -eq 2 ] && grep -q 'op.tr:1:' '$TMP/e'"
"$UVMSIM" dram-replay configs/default.yaml "$TMP/stream.tr" -s dram.tRC=30 > "$TMP/o" 2> "$TMP/e"
check "tRC < tRAS + tRP: exit 2 naming dram.tRC" sh -c "[ $? -eq 2 ] && grep -q \"key 'dram.tRC'\" '$TMP/e'"
"$UVMSIM" config check configs/default.yaml -s host.dram.tRAS=5 > "$TMP/o" 2> "$TMP/e"
check "config check: tRAS < tRCD names host.dram.tRAS" sh -c "[ $? -eq 2 ] && grep -q \"key 'host.dram.tRAS'\" '$TMP/e'"
"$UVMSIM" dram-replay --help > "$TMP/o" 2>&1
check "--help exits 0" sh -c "[ $? -eq 0 ] && grep -q 'TIME_NS ADDRESS' '$TMP/o'"
"$UVMSIM" dram-replay configs/default.yaml > "$TMP/o" 2> "$TMP/e"
check "missing TRACE: exit 2" [ $? -eq 2 ]

for f in configs/*.yaml; do
    "$UVMSIM" config check "$f" > /dev/null 2>&1
    check "preset $f loads" [ $? -eq 0 ]
done
[ "$FAILS" -eq 0 ]
