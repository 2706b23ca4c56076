"""Shared by hardware_table.py and hardware_fit.py: the real-GPU
measurements (validation/hardware/measurements.csv) and how uvmsim's value
for each is read from a run.

A run is one (preset, overrides) pair; its rows are read from the result's
/batches (one row per fault batch), /kernels and /stats/driver.
"""
import csv
import os
import statistics
import subprocess
import tempfile

import h5py

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
CSV = os.path.join(ROOT, "validation", "hardware", "measurements.csv")
VA_BLOCK = 2 << 20
# The driver's CPU-side cost keys (docs/driver.md), in the fit's order:
# per batch, per fault-buffer entry, per VA block a batch services, per
# page migrated, per VA block first serviced, once per run.
COSTS = ("driver.fault_latency", "driver.fault_cost", "driver.block_cost", "driver.page_cost",
         "driver.new_block_cost", "driver.first_fault_cost")


def load(path=CSV):
    with open(path) as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    for r in rows:
        r["gpu"] = float(r["gpu"])
    return rows


def run_key(row):
    return (row["preset"], row["sets"])


def run(uvmsim, preset, sets, extra=(), tmp=None):
    """Run uvmsim on configs/PRESET.yaml with SETS (space-separated) and
    EXTRA overrides; the parsed result."""
    fd, out = tempfile.mkstemp(suffix=".h5", dir=tmp)
    os.close(fd)
    cmd = [uvmsim, "run", os.path.join(ROOT, "configs", preset + ".yaml"), "-o", out, "--quiet"]
    for s in list(sets.split()) + list(extra):
        cmd += ["-s", s]
    subprocess.run(cmd, check=True)
    with h5py.File(out, "r") as f:
        b = f["batches"][()]
        k = f["kernels"][()]
        d = f["stats/driver"]
        res = {
            "batches": [{n: int(x[n]) for n in b.dtype.names} for x in b],
            "kernel_ps": int(max(x["end_ps"] for x in k) - min(x["start_ps"] for x in k)),
            "va_blocks": int(d["va_blocks"][()]),
            "batch_size": int(f["config"].attrs["driver.batch_size"]),
        }
        res["footprint"] = int(f["stats/workload/footprint"][()])
    os.unlink(out)
    return res


def full_batches(res):
    full = [b for b in res["batches"] if b["faults"] >= res["batch_size"]]
    return full or res["batches"]


def value(row, res):
    """uvmsim's value for ROW from its run RES."""
    m = row["metric"]
    if m in ("migrated_kb", "fault_us"):
        i = int(row["batch"]) - 1
        if i >= len(res["batches"]):
            return float("nan")
        b = res["batches"][i]
        return b["h2d_bytes"] / 1024 if m == "migrated_kb" else (b["end_ps"] - b["start_ps"]) / 1e6
    if m == "batch_us":
        return statistics.median((b["end_ps"] - b["start_ps"]) / 1e6 for b in full_batches(res))
    if m == "run_gbs":
        return res["footprint"] / (res["kernel_ps"] / 1e12) / 1e9
    raise ValueError(f"{row['id']}: unknown metric {m!r}")


def regressors(row, res):
    """What each cost of COSTS multiplies in ROW's time, from the run RES
    (its costs 0), and the time itself in us: (t0, [x per cost], y_gpu)."""
    m = row["metric"]
    if m == "fault_us":
        b = res["batches"][int(row["batch"]) - 1]
        # one thread: one fault, one VA block per batch
        x = [1, b["faults"], 1, b["migrated"], int(row["new_block"]), int(row["first"])]
        return value(row, res), x, row["gpu"]
    n = len(res["batches"])
    new = -(-res["footprint"] // VA_BLOCK)
    if m == "batch_us":
        full = full_batches(res)
        x = [1, statistics.median(b["faults"] for b in full), res["va_blocks"] / n,
             statistics.median(b["migrated"] for b in full), new / n, 0]
        return value(row, res), x, row["gpu"]
    if m == "run_gbs":
        # the driver is the run's critical path: each cost adds to it
        x = [n, sum(b["faults"] for b in res["batches"]), res["va_blocks"],
             sum(b["migrated"] for b in res["batches"]), new, 1]
        return res["kernel_ps"] / 1e6, x, res["footprint"] / (row["gpu"] * 1e9) * 1e6
    raise ValueError(f"{row['id']}: {m} is not a timed metric")
