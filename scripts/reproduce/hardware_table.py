#!/usr/bin/env python3
"""uvmsim against real GPUs (issue 40): every row of
validation/hardware/measurements.csv run on its preset as committed
(configs/driver-real.yaml's fitted costs included), with the GPU's value,
uvmsim's and the verdict: semantic rows (migration sizes, counts) must
match exactly; times and bandwidths must be within 25 % of the GPU's
(python/uvmsim/verdict.py absolute_verdict).

  hardware_table.py UVMSIM [--csv OUT.csv] [--only ID-PREFIX] [--skip ID-PREFIX]

Prints Markdown; --csv also writes id,kind,gpu,uvmsim,verdict (the input
of plot_hardware.py).  Exits 0 whatever the verdicts.
"""
import argparse
import csv
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
import hardware_lib as hw  # noqa: E402
from uvmsim.verdict import MISSING, NOT, REPRODUCED, absolute_verdict  # noqa: E402

UNITS = {"migrated_kb": "KiB", "fault_us": "us", "batch_us": "us", "run_gbs": "GB/s"}


def verdict(row, u):
    if u != u:
        return MISSING
    if row["kind"] == "semantic":
        return REPRODUCED if u == row["gpu"] else NOT
    return absolute_verdict(u, row["gpu"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("uvmsim")
    ap.add_argument("--csv")
    ap.add_argument("--only", default="", help="rows whose id starts so")
    ap.add_argument("--skip", help="leave out rows whose id starts so")
    a = ap.parse_args()
    rows = [r for r in hw.load() if r["id"].startswith(a.only)
            and not (a.skip and r["id"].startswith(a.skip))]
    runs = {}
    out = []
    print("| id | preset | metric | GPU | uvmsim | verdict |")
    print("|---|---|---|---:|---:|---|")
    for r in rows:
        if hw.run_key(r) not in runs:
            runs[hw.run_key(r)] = hw.run(a.uvmsim, r["preset"], r["sets"])
        u = hw.value(r, runs[hw.run_key(r)])
        v = verdict(r, u)
        out.append((r["id"], r["kind"], r["gpu"], u, v))
        unit = UNITS[r["metric"]]
        fmt = "{:.0f}" if r["kind"] == "semantic" else "{:.3g}"
        print(f"| {r['id']} | {r['preset']} | {r['metric']} | {fmt.format(r['gpu'])} {unit} "
              f"| {fmt.format(u)} {unit} | {v} |")
    n = len(out)
    for kind in ("semantic", "time", "bandwidth"):
        k = [o for o in out if o[1] == kind]
        if k:
            print(f"\n{kind}: {sum(o[4] == REPRODUCED for o in k)} of {len(k)} reproduced", end="")
    print(f"\n\nall: {sum(o[4] == REPRODUCED for o in out)} of {n} reproduced")
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["id", "kind", "gpu", "uvmsim", "verdict"])
            w.writerows(out)


if __name__ == "__main__":
    main()
