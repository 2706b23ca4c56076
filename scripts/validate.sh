#!/bin/sh
# The measured figures of docs/validation.md, per machine preset: link copy
# times (uvmsim link-bench) and GPU memory peak, streaming bandwidth and
# idle latency (uvmsim dram-replay).  Usage: scripts/validate.sh [UVMSIM]
# [PRESET...]; without presets, every paper machine and fragment.
UVMSIM=${1:-build/uvmsim}
[ $# -gt 0 ] && shift
PRESETS=${*:-"default hpe-table1 batch-aware-table1 thesis-table3-1 \
    link-nvlink2-v100 link-nvlink-thesis dram-gddr5-thesis"}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# 48000 sequential 128 B line reads and 192000 32 B sector reads (6 MiB),
# all at time 0; one idle sector read and one idle line read.
awk 'BEGIN { for (i = 0; i < 48000; i++) printf "0 0x%x R\n", i * 128 }' > "$TMP/lines.tr"
awk 'BEGIN { for (i = 0; i < 192000; i++) printf "0 0x%x R 32\n", i * 32 }' > "$TMP/sectors.tr"
printf '0 0x0 R 32\n' > "$TMP/sector.tr"
printf '0 0x0 R\n' > "$TMP/line.tr"

bw() { sed -n 's/^bandwidth *\([0-9.]*\) GB\/s (\([0-9.]*\) % of peak \([0-9.]*\) GB\/s.*/\1 GB\/s (\2 % of \3)/p' "$1"; }
lat() { sed -n 's/.*p50 \([0-9.]*\) ns.*/\1 ns/p' "$1"; }

for p in $PRESETS; do
    f=configs/$p.yaml
    echo "== $p"
    "$UVMSIM" link-bench "$f" || exit 1
    for t in lines sectors sector line; do
        "$UVMSIM" dram-replay "$f" "$TMP/$t.tr" > "$TMP/$t.out" || exit 1
    done
    echo "dram        128 B stream $(bw "$TMP/lines.out"); 32 B stream $(bw "$TMP/sectors.out")"
    echo "dram        idle read: 32 B $(lat "$TMP/sector.out"), 128 B $(lat "$TMP/line.out")"
done

# Batch sizes on a wide irregular workload (issue 11, point 2): GUPS over
# 8 MiB, one update per word, GPU memory holding half of it, on each full
# machine preset (fragments have no workload).  Prints batches, fault-buffer
# entries per batch (mean, and the share of batches at driver.batch_size),
# pages per batch and the duplicates the driver coalesced.
for p in $PRESETS; do
    case $p in link-*|dram-*) continue ;; esac
    "$UVMSIM" run "configs/$p.yaml" -s workload.kind=gups -s workload.gups.footprint=8MiB \
        -s workload.gups.updates_per_word=1 -s gpu.memory.fraction=50% \
        -o "$TMP/gups.h5" > /dev/null || exit 1
    /usr/bin/python3 - "$p" "$TMP/gups.h5" <<'PY' || exit 1
import sys, h5py, numpy as np
p, path = sys.argv[1], sys.argv[2]
with h5py.File(path, "r") as f:
    b = f["batches"][:]
    limit = int(f["config"].attrs["driver.batch_size"])
    dup = int(f["stats/driver/duplicate_faults"][()])
faults, pages = b["faults"], b["pages"]
print(f"== {p}: GUPS 8 MiB at 50 %: {len(b)} batches, {faults.mean():.1f} entries/batch "
      f"(max {faults.max()}, {100.0 * (faults == limit).mean():.1f} % at the limit {limit}), "
      f"{pages.mean():.1f} pages/batch, {dup} duplicates")
PY
done
