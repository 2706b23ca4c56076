#!/bin/sh
# End to end: `uvmsim link-bench` on the PCIe and NVLink presets against
# the hand-derived calibration (tests/unit/test_link.c derives the times).
. "$(dirname "$0")/../e2e_lib.sh"

# gbs FILE SIZE DIR: GB/s of the SIZE row, H2D (column 4) or D2H (column 7).
gbs() { awk -v s="$2" -v c="$3" '$1 == s { print (c == "H2D" ? $4 : $7) }' "$1"; }
us() { awk -v s="$2" -v c="$3" '$1 == s { print (c == "H2D" ? $2 : $5) }' "$1"; }
within() { awk -v x="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(x >= lo && x <= hi) }'; }

"$UVMSIM" link-bench configs/hpe-table1.yaml > "$TMP/pcie" 2>&1
check "hpe-table1: exit 0" [ $? -eq 0 ]
# 16 GB/s x 128/130 x (1 - 16/168) = 14.253 GB/s of packets.
check "hpe-table1: 14.253 GB/s of packets" grep -q '14\.253 GB/s of packets' "$TMP/pcie"
check "hpe-table1: 4 KiB H2D is 32 x 148 B" grep -q 'H2D 4736 B' "$TMP/pcie"
# Bare wire + 1 us: 4 KiB 1.332 us, 64 KiB 6.316 us, 2 MiB 171.122 us; the
# host read of the first 128 B adds about 0.1 us.
check "4 KiB H2D: 1.33-1.45 us" within "$(us "$TMP/pcie" 4KiB H2D)" 1.332 1.45
check "64 KiB H2D: 6.32-6.45 us" within "$(us "$TMP/pcie" 64KiB H2D)" 6.316 6.45
check "2 MiB H2D: 171.12-171.25 us" within "$(us "$TMP/pcie" 2MiB H2D)" 171.122 171.25
check "2 MiB H2D lands in 12-13 GB/s" within "$(gbs "$TMP/pcie" 2MiB H2D)" 12 13
# D2H: 2 MiB = 8192 x 280 B at 14.253 GB/s + 1 us = 161.926 us.
check "2 MiB D2H: 161.926 us" within "$(us "$TMP/pcie" 2MiB D2H)" 161.925 161.927

# sim.model fast: host memory on the copy path is the fast server
# (dram_fast.c); the same hand-derived times hold (the link dominates, the
# first 128 B read adds about 0.1 us).
"$UVMSIM" link-bench configs/hpe-table1.yaml -s sim.model=fast > "$TMP/pf" 2>&1
check "fast: exit 0" [ $? -eq 0 ]
check "fast: 4 KiB H2D: 1.33-1.45 us" within "$(us "$TMP/pf" 4KiB H2D)" 1.332 1.45
check "fast: 64 KiB H2D: 6.32-6.45 us" within "$(us "$TMP/pf" 64KiB H2D)" 6.316 6.45
check "fast: 2 MiB H2D: 171.12-171.25 us" within "$(us "$TMP/pf" 2MiB H2D)" 171.122 171.25
check "fast: 2 MiB D2H: 161.926 us" within "$(us "$TMP/pf" 2MiB D2H)" 161.925 161.927

"$UVMSIM" link-bench configs/batch-aware-table1.yaml > "$TMP/ba" 2>&1
check "batch-aware: 2 MiB H2D in 12-13 GB/s" within "$(gbs "$TMP/ba" 2MiB H2D)" 12 13

# NVLink 2 (V100): 50 GB/s, no line code, 16 B header flit per 256 B:
# 2 MiB = 8192 x 272 B = 44.564 us + 1 us = 45.564 us D2H.
"$UVMSIM" link-bench configs/link-nvlink2-v100.yaml > "$TMP/nv" 2>&1
check "V100 NVLink: 2 MiB D2H 45.564 us" within "$(us "$TMP/nv" 2MiB D2H)" 45.563 45.565

"$UVMSIM" link-bench configs/hpe-table1.yaml -s link.rcb=512B > "$TMP/o" 2> "$TMP/e"
check "rcb above max payload: exit 2 naming link.rcb" \
    sh -c "[ $? -eq 2 ] && grep -q \"key 'link.rcb'\" '$TMP/e'"
"$UVMSIM" link-bench --help > "$TMP/o" 2>&1
check "--help exits 0 with usage" sh -c "[ $? -eq 0 ] && grep -q usage '$TMP/o'"
"$UVMSIM" link-bench > "$TMP/o" 2> "$TMP/e"
check "missing CONFIG: exit 2" [ $? -eq 2 ]
[ "$FAILS" -eq 0 ]
