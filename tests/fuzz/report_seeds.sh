#!/bin/sh
# Seeds of the `report` fuzz target, made by the build (not committed
# binaries): two small runs and a merged two-point sweep written by UVMSIM,
# and, where h5py is installed, a hand-made result of a few KiB holding
# every table the run page reads (fast inputs for the mutator).
# usage: sh tests/fuzz/report_seeds.sh UVMSIM DIR
U=${1:?usage: report_seeds.sh UVMSIM DIR} D=${2:?dir}
mkdir -p "$D"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
small="-s workload.stream.footprint=256KiB -s sim.epoch=20us --quiet --no-host-metrics"
# shellcheck disable=SC2086
"$U" run configs/default.yaml $small -o "$D/run-stream.h5" || exit 1
# shellcheck disable=SC2086
"$U" run configs/default.yaml $small -s workload.kind=pattern -s workload.pattern.type=thrashing \
    -s workload.pattern.pages=128 -s gpu.memory.fraction=50% -o "$D/run-thrash.h5" || exit 1
cat >"$T/sweep.yaml" <<YAML
base: $(pwd)/configs/default.yaml
set:
  workload.stream.footprint: 256KiB
  sim.epoch: 20us
axes:
  driver.eviction: [lru, fifo]
YAML
"$U" sweep run "$T/sweep.yaml" -o "$T/sw" -j 1 >/dev/null || exit 1
cp "$T/sw/sweep.h5" "$D/sweep.h5"
PY=/usr/bin/python3
$PY -c 'import h5py' 2>/dev/null || exit 0
$PY - "$D/hand.h5" <<'PYEOF'
import sys, h5py, numpy as np
s = np.bytes_       # fixed-length strings, as uvmsim writes them
f = h5py.File(sys.argv[1], "w", libver=("v108", "v108"))
f.attrs["uvmsim_version"] = s(b"0.1.0"); f.attrs["status"] = s(b"completed")
f.attrs["seed"] = np.uint64(1); f.attrs["sim_time_ps"] = np.uint64(4000000)
f.attrs["events"] = np.uint64(9)
c = f.create_group("config"); c.attrs["yaml"] = s(b"x: 1\n"); c.attrs["gpu.clock"] = 1e9
c.attrs["sim.epoch"] = np.uint64(1000000)
for name, v in (("gpu/warp_insts", np.uint64(3000)), ("gmmu/faults", np.uint64(15))):
    d = f.create_dataset("stats/" + name, data=v)
    d.attrs["kind"] = s(b"counter"); d.attrs["unit"] = s(b""); d.attrs["description"] = s(b"d")
h = f.create_dataset("stats/driver/residency_us", data=np.array([0, 2, 1, 4], dtype=np.uint64))
h.attrs["kind"] = s(b"histogram"); h.attrs["unit"] = s(b"us"); h.attrs["description"] = s(b"d")
h.attrs["bin_width"] = np.uint64(10); h.attrs["count"] = np.uint64(7)
h.attrs["max"] = np.uint64(95); h.attrs["sum"] = 330.0
ts = np.zeros(3, dtype=[(n, "<u8") for n in ("time_ps", "gpu.warp_insts", "gmmu.faults",
                                              "link.h2d.bytes", "link.d2h.bytes", "driver.resident_pages")])
ts["time_ps"] = [1000000, 2000000, 4000000]; ts["gpu.warp_insts"] = [1000, 3000, 3000]
f.create_dataset("timeseries", data=ts)
b = np.zeros(3, dtype=[(n, "<u8") for n in ("start_ps", "end_ps", "faults", "handling_ps", "pages",
                                             "evictions")])
b["start_ps"] = [0, 1000000, 2000000]; b["end_ps"] = [1000000, 2000000, 5000000]
b["faults"] = [3, 3, 40]
f.create_dataset("batches", data=b)
k = np.zeros(2, dtype=[("name", "S32"), ("start_ps", "<u8"), ("end_ps", "<u8"), ("warp_insts", "<u8")])
k["name"] = [b"k0", b"k1"]
f.create_dataset("kernels", data=k)
f.close()
PYEOF
