#!/usr/bin/env python3
"""Paper vs uvmsim tables for the HPE and cyclic-thrashing reproductions.

  paper_table.py hpe    DIR/sweep.h5 [-o FIG.png]   (configs/sweeps/hpe-table2.yaml)
  paper_table.py hpe-feed DIR/sweep.h5 FED/sweep.h5 (hpe-table2 and hpe-table2-replay-walks.yaml)
  paper_table.py hpe-sens DIR/sweep.h5 ...          (configs/sweeps/hpe-sens-*.yaml)
  paper_table.py cyclic DIR/sweep.h5 [DIR2/sweep.h5 ...] [-o FIG.png]
                                                    (configs/sweeps/cyclic-*mb.yaml)

Prints Markdown: every number uvmsim measured next to the paper's where the
paper's text gives one, and per claim whether it is reproduced: in the
paper's direction and within +-25 % of its magnitude (issue 15).  The paper
numbers below are quoted from the papers' text (figures are not in the text
copies): HPE, Yu et al. TCAD 2020, Sec. V-B; cyclic, Park et al. WIP, Sec. III.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
# The generic pieces (the verdicts, the geometric mean) are the package's;
# the other *_table.py scripts import them from here too.
from uvmsim import load_sweep  # noqa: E402
from uvmsim.compare import effect_verdict, f3, gmean, verdict  # noqa: E402,F401
from uvmsim.verdict import holds  # noqa: E402

# HPE Table II: pattern type of each workload uvmsim generates.
HPE_TYPE = {
    "hotspot": "I", "cutcp": "I", "2dconv": "I", "gemm": "I",
    "srad": "II", "hotspot3d": "II", "mriq": "II", "stencil": "II",
    "pathfinder": "III", "backprop": "III", "kmeans": "III", "sad": "III",
    "nw": "IV", "bfs": "IV", "mvt": "IV",
    "sgemm": "V", "histo": "V", "spmv": "V", "btree": "VI",
}
HPE_ABBR = {"hotspot": "HOT", "cutcp": "CUT", "2dconv": "2DC", "gemm": "GEM", "srad": "SRD",
            "hotspot3d": "HSD", "mriq": "MRQ", "stencil": "STN", "pathfinder": "PAT",
            "backprop": "BKP", "kmeans": "KMN", "sad": "SAD", "nw": "NW", "bfs": "BFS",
            "mvt": "MVT", "sgemm": "SGM", "histo": "HIS", "spmv": "SPV", "btree": "B+T"}
# Sec. V-C (Fig. 13 text): strategy use per application.
HPE_STRATEGY = {
    **{w: "LRU throughout" for w in ("kmeans", "nw", "btree", "spmv", "mvt")},
    **{w: "MRU-C throughout" for w in ("hotspot", "backprop", "pathfinder", "cutcp", "mriq",
                                        "stencil", "2dconv", "gemm")},
    **{w: "MRU-C at 75 %, adjusts at 50 %" for w in ("hotspot3d", "sgemm")},
    **{w: "switches at both" for w in ("srad", "bfs", "sad", "histo")},
}
# Sec. IV-E and V-A: classes the text names.  BFS is named twice and
# differently: "BFS is classified as irregular#1" (Sec. IV-E) and, with
# HIS, "classified as irregular#2" (Sec. V-C, Fig. 14's outliers).
HPE_CLASS = {"bfs": "irregular#1 (IV-E) / irregular#2 (V-C)", "kmeans": "irregular#2",
             "sad": "irregular#2", "sgemm": "regular", "histo": "irregular#2"}
CLASS = {0: "-", 1: "regular", 2: "irregular#1", 3: "irregular#2"}
# Sec. V-B: geometric means over Table II, 75 % / 50 %.
HPE_PAPER = {
    "HPE over LRU": (1.34, 1.16),
    "HPE over random": (1.16, 1.21),
    "HPE over RRIP-FP": (1.27, 1.16),
    "HPE over CLOCK-Pro": (1.20, 1.15),
    "HPE evictions / LRU evictions": (0.82, 0.88),
    "HPE evictions / Ideal evictions": (1.18, 1.16),
    "HPE time / Ideal time": (1.11, 1.11),
}
FRACS = (0.75, 0.5)


def hpe(df, out):
    key = {"w": "workload.kind", "p": "driver.eviction", "m": "gpu.memory.fraction"}
    val = {}
    for _, r in df.iterrows():
        val[(r[key["w"]], r[key["p"]], round(float(r[key["m"]]), 4))] = r
    works = [w for w in HPE_TYPE if any(k[0] == w for k in val)]
    pols = [p for p in ("lru", "random", "rrip-fp", "clock-pro", "hpe", "ideal")
            if any(k[1] == p for k in val)]

    def stat(w, p, m, col):
        r = val.get((w, p, m))
        return float(r[col]) if r is not None and col in r and r[col] == r[col] else float("nan")

    def sp(w, p, m, base="lru"):
        return stat(w, base, m, "sim_time_ps") / stat(w, p, m, "sim_time_ps")

    def mean_over(ws, p, m, f):
        """gmean of f(w) over ws, or NaN when a point of p or LRU is not
        there (a partly committed sweep must not average over what it
        has); a ratio that is undefined (nothing evicted) is left out."""
        if any((w, q, m) not in val for w in ws for q in (p, "lru")):
            return float("nan")
        return gmean([f(w) for w in ws])

    def ev(w, p, m, base="lru"):
        b, v = stat(w, base, m, "driver.evictions"), stat(w, p, m, "driver.evictions")
        return v / b if b > 0 else float("nan")

    print("### Speedup over LRU per workload (LRU time / policy time), 75 % / 50 %\n")
    print("| workload | type | " + " | ".join(pols) + " |")
    print("|---|---|" + "---:|" * len(pols))
    for w in works:
        cells = [f"{f3(sp(w, p, 0.75))} / {f3(sp(w, p, 0.5))}" for p in pols]
        print(f"| {HPE_ABBR[w]} | {HPE_TYPE[w]} | " + " | ".join(cells) + " |")
    for t in ("I", "II", "III", "IV", "V", "VI", None):
        ws = [w for w in works if t is None or HPE_TYPE[w] == t]
        if not ws:
            continue
        cells = [f"{f3(mean_over(ws, p, 0.75, lambda w: sp(w, p, 0.75)))} / "
                 f"{f3(mean_over(ws, p, 0.5, lambda w: sp(w, p, 0.5)))}" for p in pols]
        print(f"| **gmean {t or 'all'}** | | " + " | ".join(cells) + " |")

    print("\n### Evictions relative to LRU (policy / LRU: below 1 is fewer), 75 % / 50 %\n")
    print("| workload | " + " | ".join(pols) + " |")
    print("|---|" + "---:|" * len(pols))
    for w in works:
        print(f"| {HPE_ABBR[w]} | " + " | ".join(f"{f3(ev(w, p, 0.75))} / {f3(ev(w, p, 0.5))}" for p in pols) + " |")
    print("| **gmean** | " + " | ".join(
        f"{f3(mean_over(works, p, 0.75, lambda w: ev(w, p, 0.75)))} / "
        f"{f3(mean_over(works, p, 0.5, lambda w: ev(w, p, 0.5)))}" for p in pols) + " |")

    print("\n### HPE's class, strategy and adjustment per workload\n")
    print("| workload | class 75 % / 50 % | ratio1, ratio2 (75 %) | final strategy | switches | jumps "
          "| paper class | paper strategy (Fig. 13) |")
    print("|---|---|---|---|---|---|---|---|")
    for w in works:
        c = [CLASS.get(int(stat(w, "hpe", m, "evict.hpe.class")), "-")
             if stat(w, "hpe", m, "evict.hpe.class") == stat(w, "hpe", m, "evict.hpe.class") else "-"
             for m in FRACS]
        s = ["MRU-C" if stat(w, "hpe", m, "evict.hpe.strategy") == 1 else "LRU" for m in FRACS]
        sw = [f3(stat(w, "hpe", m, "evict.hpe.switches")).replace(".000", "") for m in FRACS]
        jp = [f3(stat(w, "hpe", m, "evict.hpe.jumps")).replace(".000", "") for m in FRACS]
        print(f"| {HPE_ABBR[w]} | {c[0]} / {c[1]} | {f3(stat(w, 'hpe', 0.75, 'evict.hpe.ratio1'))}, "
              f"{f3(stat(w, 'hpe', 0.75, 'evict.hpe.ratio2'))} | {s[0]} / {s[1]} | {sw[0]} / {sw[1]} | "
              f"{jp[0]} / {jp[1]} | {HPE_CLASS.get(w, '')} | {HPE_STRATEGY.get(w, '')} |")

    if "ideal" in pols:
        hpe_ideal(works, stat, ev)

    print("\n### The paper's averages (Sec. V-B) against uvmsim's geometric means\n")
    print("| claim | paper 75 % | uvmsim 75 % | reproduced | paper 50 % | uvmsim 50 % | reproduced |")
    print("|---|---:|---:|---|---:|---:|---|")
    ours = {
        "HPE over LRU": lambda m: gmean([sp(w, "hpe", m) for w in works]),
        "HPE over random": lambda m: gmean([sp(w, "hpe", m, "random") for w in works]),
        "HPE over RRIP-FP": lambda m: gmean([sp(w, "hpe", m, "rrip-fp") for w in works]),
        "HPE over CLOCK-Pro": lambda m: gmean([sp(w, "hpe", m, "clock-pro") for w in works]),
        "HPE evictions / LRU evictions": lambda m: gmean([ev(w, "hpe", m) for w in works]),
        "HPE evictions / Ideal evictions": lambda m: gmean([ev(w, "hpe", m, "ideal") for w in works]),
        "HPE time / Ideal time": lambda m: gmean([1 / sp(w, "hpe", m, "ideal") for w in works]),
    }
    for k, (p75, p50) in HPE_PAPER.items():
        a, b = ours[k](0.75), ours[k](0.5)
        print(f"| {k} | {p75} | {f3(a)} | {verdict(a, p75)} | {p50} | {f3(b)} | {verdict(b, p50)} |")
    hsd = sp("hotspot3d", "hpe", 0.75)
    print(f"| HSD, HPE over LRU (the paper's largest) | 2.81 | {f3(hsd)} | {verdict(hsd, 2.81)} | | "
          f"{f3(sp('hotspot3d', 'hpe', 0.5))} | |")
    slower = [(w, m) for w in works for m in FRACS if sp(w, "ideal", m) < 1]
    print(f"\nIdeal slower than LRU: {', '.join(f'{HPE_ABBR[w]} at {int(m * 100)} %' for w, m in slower) or 'nowhere'}")

    if out:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, axs = plt.subplots(2, 1, figsize=(max(8, len(works) * 0.7), 7), sharex=True)
        for ax, m in zip(axs, FRACS):
            width = 0.8 / len(pols)
            for i, p in enumerate(pols):
                ys = [sp(w, p, m) for w in works]
                ax.bar([j + i * width for j in range(len(works))], ys, width, label=p)
            ax.axhline(1, color="k", lw=0.5)
            ax.set_ylabel(f"speedup over LRU, {int(m * 100)} %")
        axs[-1].set_xticks([j + 0.4 for j in range(len(works))])
        axs[-1].set_xticklabels([HPE_ABBR[w] for w in works], rotation=45)
        axs[0].legend(ncol=len(pols), fontsize=8)
        fig.suptitle("HPE Fig. 10/12 at the paper's sizes (uvmsim)")
        fig.tight_layout()
        fig.savefig(out)
        print(f"\nfigure: {out}")


def hpe_ideal(works, stat, ev):
    """Issue 42, point 3: where HPE's evictions part from Ideal's.  Ideal
    (MIN) knows every page reference of the program; a driver-side policy
    is told the faults and what reaches it from the walks: the program's
    references per reference LRU was fed (faults + touches) is how much
    Ideal knows that a driver policy does not.  The share of the geomean's
    log shows which workloads make the average gap."""
    import math
    print("\n### HPE against Ideal per workload (evictions), 75 % / 50 %\n")
    print("| workload | type | Ideal evictions | HPE / Ideal | LRU / Ideal | share of the HPE gmean's log "
          "| HPE class, final strategy | paper strategy | program refs per ref fed to LRU |")
    print("|---|---|---|---|---|---|---|---|---|")
    logs = {m: {w: math.log(ev(w, "hpe", m, "ideal")) for w in works
                if ev(w, "hpe", m, "ideal") == ev(w, "hpe", m, "ideal") and ev(w, "hpe", m, "ideal") > 0}
            for m in FRACS}
    complete = {m: all((stat(w, "hpe", m, "sim_time_ps") == stat(w, "hpe", m, "sim_time_ps")
                        and stat(w, "ideal", m, "sim_time_ps") == stat(w, "ideal", m, "sim_time_ps"))
                       for w in works) for m in FRACS}
    for w in works:
        cells = []
        for col in range(6):
            vals = []
            for m in FRACS:
                if col == 0:
                    v = stat(w, "ideal", m, "driver.evictions")
                    vals.append(f"{v:.0f}" if v == v else "-")
                elif col == 1:
                    vals.append(f3(ev(w, "hpe", m, "ideal")))
                elif col == 2:
                    vals.append(f3(ev(w, "lru", m, "ideal")))
                elif col == 3:
                    tot = sum(logs[m].values())
                    vals.append(f3(logs[m][w] / tot) if complete[m] and w in logs[m] and tot else "-")
                elif col == 4:
                    c = stat(w, "hpe", m, "evict.hpe.class")
                    st = stat(w, "hpe", m, "evict.hpe.strategy")
                    vals.append(f"{CLASS.get(int(c), '-')}, {'MRU-C' if st == 1 else 'LRU'}" if c == c else "-")
                else:
                    fed = stat(w, "lru", m, "evict.fed_faults") + stat(w, "lru", m, "evict.fed_touches")
                    prog = stat(w, "ideal", m, "evict.ideal.references")
                    vals.append(f3(prog / fed) if fed > 0 and prog == prog else "-")
            cells.append(" / ".join(vals))
        cells.insert(5, HPE_STRATEGY.get(w, ""))
        print(f"| {HPE_ABBR[w]} | {HPE_TYPE[w]} | " + " | ".join(cells) + " |")
    g = [f3(math.exp(sum(logs[m].values()) / len(logs[m]))) if complete[m] and logs[m] else "-" for m in FRACS]
    one = " / ".join("1" if complete[m] and logs[m] else "-" for m in FRACS)
    print(f"| **gmean** (workloads Ideal evicts in) | | | {g[0]} / {g[1]} | | {one} | | | |")
    print("\nA share is the workload's log(HPE / Ideal) over the sum of them: the part of the geomean's "
          "gap it makes (negative: HPE evicts less than Ideal there).")


FED = ("lru", "rrip-fp", "clock-pro")


def hpe_feed(df, fed_df):
    """Issue 42: what LRU, RRIP-FP and CLOCK-Pro are fed (hpe-table2, the
    replayed accesses' walks skipped: the default) and how they fare when
    those walks are fed too (hpe-table2-replay-walks); HPE, random and
    Ideal take no walk hits, so hpe-table2's points are theirs in both."""
    def index(d):
        out = {}
        for _, r in d.iterrows():
            if r.get("status", "completed") == "completed":
                out[(r["workload.kind"], r["driver.eviction"], round(float(r["gpu.memory.fraction"]), 4))] = r
        return out
    skip, fed = index(df), index(fed_df) if fed_df is not None else {}
    works = [w for w in HPE_TYPE if any(k[0] == w for k in skip)]

    def stat(ix, w, p, m, col):
        r = ix.get((w, p, m))
        return float(r[col]) if r is not None and col in r and r[col] == r[col] else float("nan")

    def share(ix, w, p, m, num, den):
        d = stat(ix, w, p, m, den)
        return stat(ix, w, p, m, num) / d if d > 0 else float("nan")

    for m in FRACS:
        print(f"### What the policies are fed, {int(m * 100)} % (hpe-table2: replayed walks skipped)\n")
        print("Per policy: references to resident pages handed over per fault (touches; HPE: hit records), "
              "and the share of victims the policy saw no reference to after their arrival; first, the "
              "page references of the program (Ideal's future, `evict.ideal.references`) per reference "
              "LRU was fed (its faults and touches).\n")
        print("| workload | type | program / fed refs | "
              + " | ".join(f"{p} refs/fault, unreferenced victims" for p in FED + ("hpe",)) + " |")
        print("|---|---|---:|" + "---:|" * (len(FED) + 1))
        for w in works:
            fed_lru = stat(skip, w, "lru", m, "evict.fed_faults") + stat(skip, w, "lru", m, "evict.fed_touches")
            prog = stat(skip, w, "ideal", m, "evict.ideal.references")
            cells = [f3(prog / fed_lru) if fed_lru > 0 else "-"]
            for p in FED + ("hpe",):
                refs = share(skip, w, p, m, "evict.hit_records" if p == "hpe" else "evict.fed_touches",
                             "evict.fed_faults")
                cells.append(f"{f3(refs)}, {f3(share(skip, w, p, m, 'evict.victims_unreferenced', 'evict.victims'))}")
            print(f"| {HPE_ABBR[w]} | {HPE_TYPE[w]} | " + " | ".join(cells) + " |")
        print()

    def sp(ix_a, pa, ix_b, pb, w, m):
        a, b = stat(ix_a, w, pa, m, "sim_time_ps"), stat(ix_b, w, pb, m, "sim_time_ps")
        return a / b if a > 0 and b > 0 else float("nan")

    print("### Speedup over LRU with the replayed walks skipped / fed (LRU of the same reading), 75 % / 50 %\n")
    print("| workload | type | rrip-fp | clock-pro | hpe |")
    print("|---|---|---:|---:|---:|")
    rows = {}
    for w in works:
        cells = []
        for p in ("rrip-fp", "clock-pro", "hpe"):
            vals = []
            for m in FRACS:
                a = sp(skip, "lru", skip, p, w, m)
                b = sp(fed, "lru", fed if p != "hpe" else skip, p, w, m)
                rows.setdefault((p, m), []).append((a, b))
                vals.append(f"{f3(a)} / {f3(b)}")
            cells.append(" ; ".join(vals))
        print(f"| {HPE_ABBR[w]} | {HPE_TYPE[w]} | " + " | ".join(cells) + " |")

    def gm(xs):
        xs = [x for x in xs if x == x]
        return gmean(xs) if len(xs) == len(works) else float("nan")
    cells = []
    for p in ("rrip-fp", "clock-pro", "hpe"):
        cells.append(" ; ".join(f"{f3(gm([a for a, _ in rows[(p, m)]]))} / {f3(gm([b for _, b in rows[(p, m)]]))}"
                                for m in FRACS))
    print("| **gmean all** | | " + " | ".join(cells) + " |")
    print("\nEach cell: 75 % skipped / fed ; 50 % skipped / fed (HPE's own run is the same in both readings; "
          "its LRU is the reading's).\n")

    print("### HPE over the comparators in both readings against the paper (Sec. V-B), geomean over the workloads\n")
    print("| ratio | paper 75 % | skipped 75 % | fed 75 % | paper 50 % | skipped 50 % | fed 50 % |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for p, name, paper in (("lru", "LRU", HPE_PAPER["HPE over LRU"]),
                           ("rrip-fp", "RRIP-FP", HPE_PAPER["HPE over RRIP-FP"]),
                           ("clock-pro", "CLOCK-Pro", HPE_PAPER["HPE over CLOCK-Pro"])):
        cells = []
        for i, m in enumerate(FRACS):
            a = gm([sp(skip, p, skip, "hpe", w, m) for w in works])
            b = gm([sp(fed, p, skip, "hpe", w, m) for w in works])
            cells += [str(paper[i]), f3(a), f3(b)]
        print(f"| HPE over {name} | " + " | ".join(cells) + " |")
    print()


# HPE Sec. V-A: the studies, what each varies, its default and the value the
# paper's figure normalises to (Fig. 7: set size 8; Fig. 8: interval 32; the
# studies whose results the paper does not show: the default).
HPE_SENS = [
    ("page-set size (Fig. 7)", "driver.evict.hpe.set_pages", 16, 8),
    ("interval length (Fig. 8)", "driver.evict.hpe.interval", 64, 32),
    ("ratio1 threshold (Sec. V-A)", "driver.evict.hpe.ratio1", 0.3, 0.3),
    ("transfer interval (Sec. V-A, not shown)", "gmmu.hir.transfer_faults", 16, 16),
    ("HIR entries x ways (Sec. V-A)", ("gmmu.hir.entries", "gmmu.hir.assoc"), (1024, 8), (1024, 8)),
]
# Sec. V-A: "the three page set sizes have performance difference within
# 10%", "the three interval lengths have performance difference within 12%".
HPE_SENS_SPREAD = {"driver.evict.hpe.set_pages": 1.10, "driver.evict.hpe.interval": 1.12}
TYPES = ("I", "II", "III", "IV", "V", "VI")


def _tup(x):
    return tuple(float(v) for v in (x if isinstance(x, tuple) else (x,)))


def _fmt(v):
    return "x".join(f"{x:g}" for x in v)


def hpe_sens(df):
    """One table per study in the sweep(s): per workload and memory size the
    speedup over the normalising value (IPC ratio: same instructions), per-type
    and overall geometric means, the spread the paper bounds, and the
    statements the text makes about each study.

    A study's value is one key or a tuple of keys (HIR entries x ways).
    Where the sweep runs both strategies with adjustment off (set size,
    interval: "selected an appropriate eviction strategy for each
    application manually before simulation"), each workload keeps one
    strategy for all values: the faster one at the default value, so the
    choice is made once per application as the paper's was, not per point.
    """
    sk = "driver.evict.hpe.strategy"
    for title, cols, default, norm in HPE_SENS:
        cols = cols if isinstance(cols, tuple) else (cols,)
        col, default, norm = cols[0], _tup(default), _tup(norm)
        if any(c not in df.columns for c in cols):
            continue
        sub = df

        def val(r):
            return tuple(float(r[c]) for c in cols)
        values = sorted({val(r) for _, r in sub.iterrows()})
        if len(values) < 2:
            continue
        t, point = {}, {}
        for _, r in sub.iterrows():
            k = (r["workload.kind"], round(float(r["gpu.memory.fraction"]), 4),
                 r[sk] if sk in sub.columns else "-", val(r))
            t[k] = float(r["sim_time_ps"])
            point[k] = r
        strategies = sorted({k[2] for k in t})
        works = [w for w in HPE_TYPE if any(k[0] == w for k in t)]
        chosen = {}
        for w in works:
            for m in FRACS:
                # Ties (nothing evicted) go to MRU-C, HPE's strategy for
                # the regular class.
                ok = [(t[(w, m, s, default)], s != "mru-c", s) for s in strategies
                      if (w, m, s, default) in t]
                if ok:
                    chosen[(w, m)] = min(ok)[2]

        def sp(w, m, v):
            s = chosen.get((w, m))
            a, b = t.get((w, m, s, norm)), t.get((w, m, s, v))
            return a / b if a and b else float("nan")

        def row(w, m, v):
            return point.get((w, m, chosen.get((w, m)), v))

        name = " x ".join(c.split(".")[-1] for c in cols)
        print(f"\n### HPE {title}: speedup over {name} = {_fmt(norm)}, 75 % / 50 %\n")
        head = "| workload | type |" + ("" if len(strategies) < 2 else " strategy |")
        print(head + "".join(f" {_fmt(v)} |" for v in values))
        print("|---|---|" + ("" if len(strategies) < 2 else "---|") + "---:|" * len(values))
        for w in works:
            st = "" if len(strategies) < 2 else f" {chosen.get((w, 0.75), '-')} / {chosen.get((w, 0.5), '-')} |"
            print(f"| {HPE_ABBR[w]} | {HPE_TYPE[w]} |{st}"
                  + "".join(f" {f3(sp(w, 0.75, v))} / {f3(sp(w, 0.5, v))} |" for v in values))
        pad = "" if len(strategies) < 2 else " |"
        rows = {}
        for ty in TYPES + (None,):
            ws = [w for w in works if ty is None or HPE_TYPE[w] == ty]
            if not ws:
                continue
            # A mean over fewer workloads than the type has says so.
            have = [sum(all(sp(w, m, v) == sp(w, m, v) for v in values) for w in ws) for m in FRACS]
            part = "" if all(h == len(ws) for h in have) else \
                " (" + " / ".join(f"{h} of {len(ws)}" for h in have) + ")"
            rows[ty] = {(m, v): gmean([sp(w, m, v) for w in ws
                                       if all(sp(w, m, u) == sp(w, m, u) for u in values)])
                        for m in FRACS for v in values}
            print(f"| **gmean {ty or 'all'}**{part} | |{pad}"
                  + "".join(f" {f3(rows[ty][(0.75, v)])} / {f3(rows[ty][(0.5, v)])} |" for v in values))
        if col in HPE_SENS_SPREAD:
            lim = HPE_SENS_SPREAD[col]
            print(f"\nSpread of the per-type means (max / min over the {len(values)} values; paper: within "
                  f"{round((lim - 1) * 100)} %):\n")
            print("| type | 75 % | 50 % | within the paper's bound |")
            print("|---|---:|---:|---|")
            for ty, r in rows.items():
                sprd = []
                for m in FRACS:
                    ys = [r[(m, v)] for v in values]
                    sprd.append(max(ys) / min(ys) if all(y == y for y in ys) else float("nan"))
                have = [x for x in sprd if x == x]
                ok = "-" if not have else (holds(all(x <= lim for x in have)))
                if have and len(have) < len(sprd):
                    ok += " (" + " and ".join(f"{int(m * 100)} %" for m, x in zip(FRACS, sprd) if x == x) + " only)"
                print(f"| {ty or 'all'} | {f3(sprd[0])} | {f3(sprd[1])} | {ok} |")
        if col == "driver.evict.hpe.interval":
            # Sec. V-A: "interval length of 64 and 128 perform slightly better
            # than interval length of 32"; "128 ... performs best for SRD, but
            # performs worst for STN".
            for m in FRACS:
                a = rows[None]
                print(f"\n{int(m * 100)} %: overall 64 vs 32 {f3(a[(m, (64.0,))])}, 128 vs 32 "
                      f"{f3(a[(m, (128.0,))])} (paper: both slightly above 1)")
                for w in ("srad", "stencil"):
                    if w in works and all(sp(w, m, v) == sp(w, m, v) for v in values):
                        best = max(values, key=lambda v: sp(w, m, v))
                        worst = min(values, key=lambda v: sp(w, m, v))
                        print(f"  {HPE_ABBR[w]}: best {_fmt(best)}, worst {_fmt(worst)}"
                              f" (paper: 128 {'best' if w == 'srad' else 'worst'})")
        if col in ("driver.evict.hpe.set_pages", "driver.evict.hpe.ratio1") and "evict.hpe.ratio1" in sub.columns:
            # Sec. V-A: at set size 32 "the ratio1 of some regular applications
            # is higher, making it difficult for classification"; the
            # threshold 0.3 makes KMN and SAD irregular#2 and SGM regular.
            print(f"\nratio1 at first fill (75 %) and class per {name}:\n")
            print("| workload |" + "".join(f" {_fmt(v)} |" for v in values) + " paper (Secs. IV-E, V-A) |")
            print("|---|" + "---|" * len(values) + "---|")
            for w in works:
                cells = []
                for v in values:
                    r = row(w, 0.75, v)
                    if r is not None and r["evict.hpe.ratio1"] == r["evict.hpe.ratio1"]:
                        c = CLASS.get(int(r["evict.hpe.class"]), "-")
                        cells.append(f"{float(r['evict.hpe.ratio1']):.3f} {c}")
                    else:
                        cells.append("-")
                print(f"| {HPE_ABBR[w]} |" + "".join(f" {c} |" for c in cells)
                      + f" {HPE_CLASS.get(w, '-')} |")
            if col == "driver.evict.hpe.ratio1":
                for m in FRACS:
                    flips = []
                    for w in works:
                        cs = [row(w, m, v) for v in values]
                        cs = [CLASS.get(int(r["evict.hpe.class"]), "-") for r in cs if r is not None]
                        if len(set(cs)) > 1:
                            flips.append(f"{HPE_ABBR[w]} ({' / '.join(cs)})")
                    print(f"\n{int(m * 100)} %: class changes with the threshold: "
                          f"{', '.join(flips) or 'none'}")
        if "gmmu.hir.lost" in sub.columns and col == "gmmu.hir.entries":
            # Sec. V-A: "an 8-way associative HIR with 1024 entries avoids way
            # conflicts in the simulations for most applications (except MVT)".
            print("\nWalk hits lost to HIR way conflicts, % of the hits the HIR saw (75 % / 50 %):\n")
            print("| workload |" + "".join(f" {_fmt(v)} |" for v in values))
            print("|---|" + "---:|" * len(values))
            lost = {}
            for w in works:
                cells = []
                for v in values:
                    pair = []
                    for m in FRACS:
                        r = row(w, m, v)
                        if r is None:
                            pair.append("-")
                            continue
                        n, rec = float(r["gmmu.hir.lost"]), float(r["gmmu.hir.records"])
                        lost[(w, m, v)] = n
                        pair.append(f"{100 * n / (n + rec):.2f}" if n + rec else "0")
                    cells.append(" / ".join(pair))
                print(f"| {HPE_ABBR[w]} |" + "".join(f" {c} |" for c in cells))
            for m in FRACS:
                ws = [HPE_ABBR[w] for w in works if lost.get((w, m, default), 0) > 0]
                print(f"\n{int(m * 100)} %: workloads losing hits at {_fmt(default)}: "
                      f"{', '.join(ws) or 'none'} (paper: MVT only)")


# Sec. V-A calls two strategies' performance "similar" (SGM, SAD) without
# a number; within 1 % the class is counted as neither right nor wrong.
SIMILAR = 0.01


def hpe_class_vs_hand(dfs):
    """Sec. V-A chose the ratio1 threshold by whether each class's strategy
    suits the application: "LRU performs better than MRU-C for KMN" (so
    irregular#2, LRU, is right), "LRU performs similarly to MRU-C for SGM"
    (so regular, MRU-C, is acceptable).  With a threshold sweep and a sweep
    that runs both strategies by hand (set-size or interval study), this
    prints, per workload, the hand-run MRU-C / LRU time at the default
    values, and per threshold whether the class's first strategy (regular:
    MRU-C; irregular#1 and #2: LRU) is the faster one: right, wrong, or
    similar (the two within SIMILAR)."""
    thr = [d for d in dfs if "driver.evict.hpe.ratio1" in d.attrs.get("axes", [])]
    hand = [d for d in dfs if "driver.evict.hpe.strategy" in d.attrs.get("axes", [])]
    if not thr or not hand:
        return
    thr, hand = thr[0], hand[0]
    for col, v in (("driver.evict.hpe.set_pages", 16), ("driver.evict.hpe.interval", 64)):
        if col in hand.columns:
            hand = hand[hand[col].astype(float) == v]
    ht = {(r["workload.kind"], round(float(r["gpu.memory.fraction"]), 4), r["driver.evict.hpe.strategy"]):
          float(r["sim_time_ps"]) for _, r in hand.iterrows()}
    cls = {(r["workload.kind"], round(float(r["gpu.memory.fraction"]), 4), float(r["driver.evict.hpe.ratio1"])):
           int(r["evict.hpe.class"]) for _, r in thr.iterrows()}
    values = sorted({k[2] for k in cls})
    works = [w for w in HPE_TYPE if any(k[0] == w for k in cls) and any(k[0] == w for k in ht)]
    print("\n### HPE classes against the strategy chosen by hand (Sec. V-A, threshold)\n")
    print("MRU-C / LRU: time under MRU-C over time under LRU, adjustment off, ideal feed, defaults "
          "(above 1: LRU faster).  Per threshold: the class, and whether its first strategy "
          f"(regular: MRU-C, irregular: LRU) is the faster one by hand (similar: within {SIMILAR:.0%}).\n")
    print("| workload | memory | MRU-C / LRU |" + "".join(f" {v:g} |" for v in values))
    print("|---|---|---:|" + "---|" * len(values))
    verdicts = ("right", "similar", "wrong")
    count = {(m, v): dict.fromkeys(verdicts, 0) for m in FRACS for v in values}
    for w in works:
        for m in FRACS:
            a, b = ht.get((w, m, "mru-c")), ht.get((w, m, "lru"))
            if not a or not b:
                continue
            q = a / b
            cells = []
            for v in values:
                c = cls.get((w, m, v))
                if c is None or c == 0:
                    cells.append("-")
                    continue
                vd = "similar" if abs(q - 1) <= SIMILAR else "right" if (c == 1) == (q < 1) else "wrong"
                count[(m, v)][vd] += 1
                cells.append(f"{CLASS[c]} {vd}")
            print(f"| {HPE_ABBR[w]} | {int(m * 100)} % | {q:.3f} |" + "".join(f" {c} |" for c in cells))
    for m in FRACS:
        print(f"\n{int(m * 100)} %: the class's strategy, right / similar / wrong: "
              + ", ".join(f"{'/'.join(str(count[(m, v)][k]) for k in verdicts)} at {v:g}" for v in values))


# Park et al. Sec. III: what the text states.  The speed-ups and the
# anomalies are pinning's ("The maximum speedup by page pinning,
# approximately 40% to 50%"; anomalies "caused by pinning pages that are not
# reused"), so best / worst run over the pinning columns; shuffling's claim
# ("less or no slowdown than page pinning") compares the two worst cases.
CYC_PAPER = [
    ("AddVector unchanged by pinning and shuffling", "vecadd", lambda b, w, sw: (b, 1.0)),
    ("FDTD-2D: pinning up to 1.40-1.55x faster", "fdtd2d", lambda b, w, sw: (b, 1.475)),
    ("NW: pinning up to 1.40-1.55x faster", "nw", lambda b, w, sw: (b, 1.475)),
    ("RA: pinning up to 1.40-1.55x faster", "ra", lambda b, w, sw: (b, 1.475)),
    # the point the paper names (issue 39: not the worst over all sizes)
    ("RA: pinning slowdown anomaly 2.1x at RA 1300 MB on 1000 MB (the worst pin share there)", "ra1300",
     lambda b, w, sw: (w, 1 / 2.1)),
    ("RA: the same, worst over every size (explanation row, not the paper's point)", "ra",
     lambda b, w, sw: (w, 1 / 2.1)),
    ("NW: pinning slowdown anomalies (size not given; 2.1x is RA's)", "nw", lambda b, w, sw: (w, 1 / 2.1)),
]
SIZE_KEY = {"vecadd": "workload.vecadd.n", "ra": "workload.ra.n", "fdtd2d": "workload.fdtd2d.nx",
            "nw": "workload.nw.dim"}


def cyclic(dfs, out):
    rows = []
    for path, df in dfs:
        for _, r in df.iterrows():
            k = r["workload.kind"]
            drv = "baseline" if r["driver.eviction"] == "fifo" else (
                "shuffle" if r["driver.evict.cyclic.mode"] == "shuffle"
                else f"pin {round(float(r['driver.evict.cyclic.pin']) * 100)} %")
            rows.append(dict(mem=float(r["driver.capacity_pages"]) * 4096 / 2**20, kind=k,
                             data=float(r["workload.footprint"]) / 1e6 if "workload.footprint" in r
                             else float("nan"), size=r[SIZE_KEY[k]], drv=drv,
                             t=float(r["sim_time_ps"]), ev=float(r.get("driver.pmm.root_evictions", float("nan"))),
                             det=float(r.get("evict.cyclic.detections", float("nan")))))
    drvs = ["pin 10 %", "pin 25 %", "pin 50 %", "shuffle"]
    print("### Speedup over the stock driver (baseline time / time), per data size\n")
    print("| GPU memory MiB (whole roots) | workload | data MB | baseline ms | root evictions | " + " | ".join(drvs) + " |")
    print("|---:|---|---:|---:|---:|" + "---:|" * len(drvs))
    best, worst, sbest, sworst = {}, {}, {}, {}
    for mem in sorted({r["mem"] for r in rows}):
        for k in ("vecadd", "fdtd2d", "nw", "ra"):
            for size in sorted({r["size"] for r in rows if r["mem"] == mem and r["kind"] == k}):
                pick = {r["drv"]: r for r in rows if r["mem"] == mem and r["kind"] == k and r["size"] == size}
                b = pick.get("baseline")
                if not b:
                    continue
                sps = [b["t"] / pick[d]["t"] if d in pick else float("nan") for d in drvs]
                for d, s in zip(drvs, sps):
                    if s != s:
                        continue
                    if d == "shuffle":
                        sworst[k] = min(sworst.get(k, 9), s)
                        sbest[k] = max(sbest.get(k, 0), s)
                    else:
                        best[k] = max(best.get(k, 0), s)
                        worst[k] = min(worst.get(k, 9), s)
                        # Sec. III names RA 1,300 MB on 1,000 MB of GPU memory
                        if k == "ra" and abs(b["data"] - 1300) < 50 and 900 <= mem * 2**20 / 1e6 <= 1100:
                            worst["ra1300"] = min(worst.get("ra1300", 9), s)
                print(f"| {mem:.0f} | {k} | {b['data']:.0f} | {b['t'] / 1e9:.2f} | {b['ev']:.0f} | "
                      + " | ".join(f3(s) for s in sps) + " |")
    print("\n### The paper's claims (Sec. III)\n")
    print("| claim | paper | uvmsim | reproduced |")
    print("|---|---:|---:|---|")
    nan = float("nan")
    for text, k, f in CYC_PAPER:
        got, paper = f(best.get(k, nan), worst.get(k, nan), sworst.get(k, nan))
        print(f"| {text} | {paper:.3f} | {f3(got)} | {verdict(got, paper)} |")
    # Shuffling: its worst case no worse than pinning's, per workload with both.
    ks = [k for k in ("fdtd2d", "nw", "ra") if k in sworst and k in worst]
    if ks:
        ok = all(sworst[k] >= worst[k] for k in ks)
        detail = ", ".join(f"{k} {f3(sworst[k])} vs {f3(worst[k])}" for k in ks)
        print(f"| shuffling: less or no slowdown than pinning (worst shuffle vs worst pin: {detail}) "
              f"| | | {holds(ok)} |")
        print("| shuffling: smaller gains than pinning (best shuffle vs best pin: "
              + ", ".join(f"{k} {f3(sbest[k])} vs {f3(best[k])}" for k in ks)
              + f") | | | {holds(all(sbest[k] <= best[k] for k in ks))} |")
    if out:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        mems = sorted({r["mem"] for r in rows})
        fig, axs = plt.subplots(len(mems), 4, figsize=(14, 3.2 * len(mems)), squeeze=False)
        for i, mem in enumerate(mems):
            for j, k in enumerate(("vecadd", "fdtd2d", "nw", "ra")):
                ax = axs[i][j]
                for d in ["baseline"] + drvs:
                    pts = sorted((r["data"], r["t"] / 1e9) for r in rows
                                 if r["mem"] == mem and r["kind"] == k and r["drv"] == d)
                    if pts:
                        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=d)
                ax.set_title(f"{k}, {mem:.0f} MiB GPU memory", fontsize=9)
                ax.set_xlabel("data MB")
                ax.set_ylabel("kernel time, ms")
        axs[0][0].legend(fontsize=7)
        fig.suptitle("Park et al. Fig. 2 (uvmsim, GTX 1660 preset)")
        fig.tight_layout()
        fig.savefig(out)
        print(f"\nfigure: {out}")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("paper", choices=("hpe", "hpe-feed", "hpe-sens", "cyclic"))
    p.add_argument("sweeps", nargs="+", help="DIR/sweep.h5 written by uvmsim sweep")
    p.add_argument("-o", "--output", help="figure file (.png, .pdf, .svg)")
    a = p.parse_args()
    if a.paper == "hpe":
        hpe(load_sweep(a.sweeps[0]), a.output)
    elif a.paper == "hpe-feed":
        second = a.sweeps[1] if len(a.sweeps) > 1 and os.path.exists(a.sweeps[1]) else None
        hpe_feed(load_sweep(a.sweeps[0]), load_sweep(second) if second else None)
    elif a.paper == "hpe-sens":
        dfs = [load_sweep(sw) for sw in a.sweeps]
        for df in dfs:
            hpe_sens(df)
        hpe_class_vs_hand(dfs)
    else:
        cyclic([(s, load_sweep(s)) for s in a.sweeps], a.output)


if __name__ == "__main__":
    main()
