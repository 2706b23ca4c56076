#!/usr/bin/env python3
"""The correlation plot of uvmsim against real GPUs (issue 40), as
Accel-Sim's correlation plots are for cores: one point per timed
measurement (hardware_table.py --csv), uvmsim's value against the GPU's,
log-log, with the y = x line and the +-25 % band.

  plot_hardware.py HARDWARE.csv -o OUT.png
"""
import argparse
import csv

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

MARK = {"time": ("o", "fault / batch time (us)"), "bandwidth": ("s", "run bandwidth (GB/s)"),
        "semantic": ("^", "migration size (KiB)")}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("csv")
    ap.add_argument("-o", "--out", required=True)
    a = ap.parse_args()
    with open(a.csv) as f:
        rows = [r for r in csv.DictReader(f) if float(r["uvmsim"]) == float(r["uvmsim"])]
    fig, ax = plt.subplots(figsize=(5.5, 5))
    vals = []
    for kind, (m, label) in MARK.items():
        k = [r for r in rows if r["kind"] == kind]
        if not k:
            continue
        x = [float(r["gpu"]) for r in k]
        y = [float(r["uvmsim"]) for r in k]
        vals += x + y
        ax.scatter(x, y, marker=m, label=f"{label}, {len(k)}", alpha=0.7)
    lo, hi = min(vals) / 1.5, max(vals) * 1.5
    ax.plot([lo, hi], [lo, hi], "k-", lw=1, label="y = x")
    ax.fill_between([lo, hi], [lo * 0.75, hi * 0.75], [lo * 1.25, hi * 1.25], color="grey",
                    alpha=0.15, label="+-25 %")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(lo, hi)
    ax.set_ylim(lo, hi)
    ax.set_xlabel("real GPU (GTX 1080 Ti, Titan V)")
    ax.set_ylabel("uvmsim")
    ax.set_title("uvmsim against hardware (scripts/reproduce/hardware.sh)")
    ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    fig.savefig(a.out, dpi=120)


if __name__ == "__main__":
    main()
