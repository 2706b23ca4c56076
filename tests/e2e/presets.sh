#!/bin/sh
# The papers' machines as config presets: each loads, resolves to the
# table's numbers, and runs a small stream to completion.
. "$(dirname "$0")/../e2e_lib.sh"

# key value pairs that must appear in `config show` of a preset
has() {
    f=$1; shift
    "$UVMSIM" config show "$f" >"$TMP/show" 2>&1 || return 1
    python3 - "$TMP/show" "$@" <<'PYEOF'
import sys
lines = open(sys.argv[1]).read().split("\n")
# flatten the YAML mapping by indentation
path, flat = [], {}
for l in lines:
    if not l.strip() or l.strip().startswith("#"):
        continue
    ind = (len(l) - len(l.lstrip())) // 2
    k, _, v = l.strip().partition(":")
    path = path[:ind] + [k]
    if v.strip():
        flat[".".join(path)] = v.strip()
args = sys.argv[2:]
bad = [(k, v, flat.get(k)) for k, v in zip(args[::2], args[1::2]) if flat.get(k) != v]
if bad:
    print(bad)
sys.exit(1 if bad else 0)
PYEOF
}

check "hpe-table1: HPE Table I" has configs/hpe-table1.yaml \
    gpu.sms 15 gpu.clock 1.4GHz gpu.l1d.size 16KiB gpu.l1d.assoc 4 \
    l2.size 1536KiB l2.assoc 8 dram.channels 12 tlb.l1.entries 128 \
    tlb.l2.entries 512 tlb.l2.assoc 16 link.bandwidth 16GB/s
check "batch-aware-table1: batch-aware Table 1" has configs/batch-aware-table1.yaml \
    gpu.sms 16 gpu.clock 1GHz gpu.sm.max_threads 1024 gpu.sm.registers 65536 \
    gpu.l1d.size 16KiB gpu.l1d.assoc 4 l2.size 2MiB l2.assoc 16 \
    tlb.l1.entries 64 tlb.l2.entries 1024 tlb.l2.assoc 32 link.bandwidth 16GB/s \
    link.encoding 128b130b
check "thesis-table3-1: thesis Table 3.1" has configs/thesis-table3-1.yaml \
    gpu.sms 15 gpu.clock 1.4GHz gpu.l1d.latency 3 gpu.l1d.mshrs 64 \
    l2.latency 120 l2.mshrs 128 l2.size 1536KiB
# Issue 11: the papers' fault handling.  Shootdowns cost what each paper
# charges (HPE and batch-aware: nothing; the thesis: 100 cycles), every
# evicted page is copied back, and the batch-aware machine services whole
# 1024-entry buffers back to back with per-page wake-up and 64 KiB pages.
check "hpe-table1: no shootdown cost, write-back" has configs/hpe-table1.yaml \
    tlb.shootdown.cycles 0 driver.drop_clean false driver.page_size 4KiB
check "thesis-table3-1: 100-cycle shootdowns" has configs/thesis-table3-1.yaml \
    tlb.shootdown.cycles 100
check "batch-aware-table1: Sec. 2.2 batches" has configs/batch-aware-table1.yaml \
    tlb.shootdown.cycles 0 driver.batch_size 1024 driver.batches_per_wake 1000000 \
    driver.replay_policy page driver.page_size 64KiB driver.prefetch tree \
    driver.eviction fifo driver.drop_clean false
# The real driver's defaults as a fragment for real-GPU presets.
check "driver-real: the stock driver" has configs/driver-real.yaml \
    driver.batch_size 256 driver.batches_per_wake 20 driver.replay_policy batch_flush \
    driver.prefetch tree driver.evict_unit chunk driver.eviction fifo \
    driver.drop_clean false driver.thrashing.enabled true
# Issue 15: the cyclic-thrashing paper's GTX 1660 (NVIDIA spec) on the
# stock driver: 6 x 4 B x 4 x 2 GHz = 192 GB/s.
check "gtx1660: NVIDIA spec on the stock driver" has configs/gtx1660.yaml \
    gpu.sms 22 gpu.clock 1785MHz dram.channels 6 dram.clock 2GHz dram.bus_width 4B \
    dram.data_rate 4 l2.size 1536KiB driver.evict_unit chunk driver.eviction fifo \
    driver.prefetch tree
# Issue 40: the measuring GPUs (NVIDIA specs) on the stock driver with its
# fitted CPU costs: GTX 1080 Ti 11 x 4 B x 4 x 2.75 GHz = 484 GB/s; Titan V
# 48 x 8 B x 2 x 850 MHz = 652.8 GB/s; V100 on NVLink 2.0 50 GB/s.
check "driver-real: the fitted CPU costs" has configs/driver-real.yaml \
    driver.fault_latency 11759ns driver.fault_cost 2480ns driver.page_cost 219ns \
    driver.new_block_cost 37919ns driver.first_fault_cost 120229ns
check "gtx1080ti: NVIDIA spec on the stock driver" has configs/gtx1080ti.yaml \
    gpu.sms 28 gpu.clock 1582MHz dram.channels 11 dram.clock 2750MHz dram.bus_width 4B \
    dram.data_rate 4 l2.size 2816KiB gpu.memory.capacity 11GB driver.page_cost 219ns
check "titanv: NVIDIA spec on the stock driver" has configs/titanv.yaml \
    gpu.sms 80 gpu.clock 1455MHz dram.channels 48 dram.clock 850MHz dram.bus_width 8B \
    dram.data_rate 2 l2.size 4608KiB gpu.memory.capacity 12GB link.bandwidth 16GB/s
check "v100: NVIDIA spec on NVLink 2.0" has configs/v100.yaml \
    gpu.sms 80 gpu.clock 1530MHz dram.channels 64 dram.clock 877MHz l2.size 6MiB \
    link.bandwidth 50GB/s driver.evict_unit chunk
for f in hpe-table1 batch-aware-table1 thesis-table3-1 driver-real gtx1660 gtx1080ti titanv; do
    # shellcheck disable=SC2086
    "$UVMSIM" run "configs/$f.yaml" $SMALL --quiet -o "$TMP/$f.h5"
    check "$f runs to completion" [ $? -eq 0 ]
done
[ "$FAILS" -eq 0 ]
