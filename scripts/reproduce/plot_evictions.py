#!/usr/bin/env python3
"""Park et al. (WIP) Fig. 1 from a result: every root-chunk eviction by the
address of its 2 MiB VA block over time (/driver_root_evictions, written
under driver.evict_unit=chunk), the cyclic-thrashing detections as violet
lines (/evict_cyclic), and beside it each VA block's eviction count.

  plot_evictions.py RESULT.h5 -o FIG.png
"""
import argparse
import collections
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from read_results import load_table, table_names  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("result")
    p.add_argument("-o", "--output", required=True)
    a = p.parse_args()
    if "driver_root_evictions" not in table_names(a.result):
        sys.exit(f"{a.result}: no /driver_root_evictions (a run with driver.evict_unit=chunk writes it)")
    ev = load_table(a.result, "driver_root_evictions")
    if ev.empty:
        sys.exit(f"{a.result}: no root chunk was evicted")
    base = int(ev["va_block"].min())
    mb = (ev["va_block"] - base) / 2**20
    ms = ev["time_ps"] / 1e9
    counts = collections.Counter(mb)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(12, 4.5), gridspec_kw={"width_ratios": [3, 1]}, sharey=True)
    ax.scatter(ms, mb, s=2, c="k")
    if "evict_cyclic" in table_names(a.result):
        cy = load_table(a.result, "evict_cyclic")
        when = dict(zip(ev["eviction"], ms))
        for _, r in cy.iterrows():
            e = r["event"].decode() if isinstance(r["event"], bytes) else str(r["event"])
            t = when.get(int(r["eviction"]))
            if t is not None and e == "thrashing":
                ax.axvline(t, color="darkviolet", lw=1.5)
            elif t is not None and e == "released":
                ax.axvline(t, color="darkviolet", lw=1, ls="--")
    ax.set_xlabel("time, ms")
    ax.set_ylabel("VA block address, MiB from the first")
    ax.set_title("root-chunk evictions (violet: cyclic thrashing declared)")
    ys = sorted(counts)
    bx.barh(ys, [counts[y] for y in ys], height=2)
    bx.set_xlabel("evictions per VA block")
    fig.tight_layout()
    fig.savefig(a.output)
    print(f"figure: {a.output} ({len(ev)} root evictions, {len(counts)} VA blocks)")


if __name__ == "__main__":
    main()
