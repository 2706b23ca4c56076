#!/usr/bin/env python3
"""Thesis Ch. V (Agarwal 2015) vs uvmsim: dynamic page migration in a
CC-NUMA GPU (threshold-N, TLB shootdowns, range expansion, bandwidth
balancing).

  thesis_ch5_table.py DIR [-o FIG.png]

DIR holds the merged sweeps of configs/sweeps/thesis-ch5-*.yaml as
DIR/fig5.2/sweep.h5, DIR/fig5.3, DIR/table5.2, DIR/fig5.5, DIR/fig5.9
(scripts/reproduce/thesis_ch5.sh makes them); a sweep that is absent is
skipped.  Prints Markdown: per workload and per claim the thesis's number
(its text, Sec. 5.2-5.4, as ../shared/specs/batch-sc19-thesis.md C.2.5
quotes it) next to uvmsim's, and whether the claim is reproduced: in the
thesis's direction and within +-25 % of its magnitude.  Performance is
CC-only's simulated time over the scheme's (every point of a workload
does the same work).  -o writes Figs. 5.6-5.8 (GDDR's share of demand
bandwidth per 10 000-cycle window, TH / TH+RE / TH+RE+BWB, from the
fig5.9 points' /migration_windows tables).
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, ".."))
from read_results import load_sweep, load_table  # noqa: E402
from uvmsim import find_sweep  # noqa: E402
from paper_table import effect_verdict, gmean, verdict  # noqa: E402
from uvmsim.verdict import absolute_verdict, count_verdict, holds  # noqa: E402

# Table 5.2 verbatim (spec C.2.5): overhead of 100-cycle shootdowns, share
# of migrations without a shootdown with RE, runtime saved (all %).
TABLE52 = {
    "backprop": (29.1, 26, 7.6), "bfs": (6.7, 12, 0.8), "cns": (2.4, 20, 0.5),
    "comd": (2.02, 89, 1.8), "kmeans": (4.01, 79, 3.17), "minife": (3.6, 36, 1.3),
    "mummergpu": (21.15, 13, 2.75), "nw": (24.9, 55, 13.7), "pathfinder": (25.9, 10, 2.6),
    "srad_v1": (0.5, 27, 0.14), "xsbench": (2.1, 1, 0.02),
}
TABLE52_AVG = (11.13, 33.5, 3.72)
# Sec. 5.4.1: 200 / (200 + 80) GB/s.
TARGET = 200 / 280


def f3(x):
    return "-" if x != x else f"{x:.3f}"


def pct(x):
    return "-" if x != x else f"{x:.1f} %"


def pct_verdict(got, paper):
    """A share, rate or overhead: an absolute value, within 25 % (uvmsim.verdict)."""
    return absolute_verdict(got, paper)


def load(d, name):
    p = find_sweep(d, name, "thesis-ch5-" + name)
    if p is None:
        return None
    df = load_sweep(p)
    return df[df["status"] == "completed"] if "status" in df else df


def key(v):
    if isinstance(v, str):
        return v
    if isinstance(v, (bool,)) or str(v) in ("True", "False"):
        return str(v).lower()
    return round(float(v), 4)


def index(df, keys, stat="sim_time_ps"):
    """{(workload, key values...): stat}"""
    return {(r["workload.kind"],) + tuple(key(r[c]) for c in keys): float(r[stat])
            for _, r in df.iterrows()}


def claim(rows, name, paper, got, note="", effect=False):
    """A row of the claims table; EFFECT: the claim is a change (+6 %),
    judged on the change's size (paper_table.effect_verdict)."""
    judge = effect_verdict if effect else verdict
    rows.append(f"| {name} | {paper} | {f3(got) if isinstance(got, float) else got} | "
                f"{judge(got, paper) if isinstance(got, float) and isinstance(paper, float) else note} |")


def fig52(df, rows):
    t = index(df, ["driver.migration", "driver.migrate.threshold"])
    works = sorted({k[0] for k in t})
    ths = sorted({k[2] for k in t if k[1] == "threshold"})
    print("### Fig. 5.2: threshold-N migration, free shootdowns, performance relative to "
          "CC-only\n")
    print("| workload | " + " | ".join(f"T{int(n)}" for n in ths) + " | memcpy | best |")
    print("|---|" + "---:|" * (len(ths) + 1) + "---|")
    best, lowest_best, above_memcpy, peak = {}, [], [], []
    for w in works:
        cc = t.get((w, "none", 1.0), float("nan"))
        perf = [cc / t.get((w, "threshold", n), float("nan")) for n in ths]
        mc = cc / t.get((w, "memcpy", 1.0), float("nan"))
        b = max((p, n) for p, n in zip(perf, ths) if p == p)
        best[w] = b
        peak.append(b[0])
        # issue 39: the count, no margin (a tie at exactly the best counts)
        if perf[0] >= b[0]:
            lowest_best.append(w)
        if b[0] > mc:
            above_memcpy.append(w)
        print(f"| {w} | " + " | ".join(f3(p) for p in perf) + f" | {f3(mc)} | T{int(b[1])} |")
    print()
    claim(rows, "lowest threshold best for most workloads (TH5-1)", "most",
          f"{len(lowest_best)} of {len(works)}",
          holds(2 * len(lowest_best) > len(works)))
    claim(rows, "best threshold over CC-only, geomean (TH5-1: well above 1)", "> 1",
          # "well above": read as at least +10 % (the thesis gives no number)
          f3(gmean(peak)), holds(gmean(peak) > 1.1))
    claim(rows, "best threshold above legacy memcpy (TH5-1: rarely)", "few",
          f"{len(above_memcpy)} of {len(works)}: {', '.join(above_memcpy) or '-'}",
          holds(3 * len(above_memcpy) < len(works)))
    if "bfs" in best:
        b = best["bfs"]
        t1 = t[("bfs", "none", 1.0)] / t[("bfs", "threshold", 1.0)]
        claim(rows, "bfs improves with higher thresholds (TH5-1): best / T1", "> 1",
              f"{f3(b[0] / t1)} at T{int(b[1])}", holds(b[0] > t1))
    if "minife" in best:
        t1 = t[("minife", "none", 1.0)] / t[("minife", "threshold", 1.0)]
        claim(rows, "minife threshold-1 below CC-only (TH5-1)", "< 1", f3(t1),
              holds(t1 < 1))


def fig53(df, rows):
    t = index(df, ["driver.migration", "tlb.shootdown.cycles"])
    works = sorted({k[0] for k in t})
    cs = sorted({k[2] for k in t if k[1] == "threshold"})
    print("### Fig. 5.3: threshold-1 with the shootdown cost swept, performance relative to "
          "CC-only\n")
    print("| workload | " + " | ".join(f"C={int(c)}" for c in cs) + " | C=100 / C=0 |")
    print("|---|" + "---:|" * (len(cs) + 1))
    loss, negated = [], []
    for w in works:
        cc = t.get((w, "none", 0.0), float("nan"))
        perf = [cc / t.get((w, "threshold", c), float("nan")) for c in cs]
        r = perf[-1] / perf[0]
        loss.append(r)
        if perf[0] > 1.0 and perf[-1] <= 1.0:
            negated.append(w)
        print(f"| {w} | " + " | ".join(f3(p) for p in perf) + f" | {f3(r)} |")
    print()
    claim(rows, "shootdowns 0 -> 100 cycles at threshold-1, performance, geomean (TH5-2: -16 %)",
          0.84, gmean(loss), effect=True)
    claim(rows, "100-cycle shootdowns negate all of migration's gain (TH5-2: sometimes)",
          "some", ", ".join(negated) or "none", holds(negated))


def table52(df, rows):
    t = index(df, ["tlb.shootdown.cycles", "driver.migrate.expand"])
    pages = index(df, ["tlb.shootdown.cycles", "driver.migrate.expand"], "migration.pages")
    nosd = index(df, ["tlb.shootdown.cycles", "driver.migrate.expand"], "migration.no_shootdown")
    works = sorted({k[0] for k in t})
    print("### Table 5.2: threshold-1, 100-cycle shootdowns (thesis / uvmsim)\n")
    print("| workload | shootdown overhead | migrations without shootdown (RE 128) | "
          "runtime saved |")
    print("|---|---:|---:|---:|")
    cols = ([], [], [])
    for w in works:
        ov = 100 * (t.get((w, 100.0, 0.0), float("nan")) / t.get((w, 0.0, 0.0), float("nan")) - 1)
        n = pages.get((w, 100.0, 128.0), float("nan"))
        sh = 100 * nosd.get((w, 100.0, 128.0), float("nan")) / n if n else float("nan")
        sv = ov * sh / 100
        for c, x in zip(cols, (ov, sh, sv)):
            c.append(x)
        p = TABLE52.get(w, (float("nan"),) * 3)
        print(f"| {w} | {p[0]} % / {pct(ov)} | {p[1]} % / {pct(sh)} | {p[2]} % / {pct(sv)} |")
    avg = [sum(c) / len(c) if c else float("nan") for c in cols]
    print(f"| **average** | {TABLE52_AVG[0]} % / {pct(avg[0])} | {TABLE52_AVG[1]} % / "
          f"{pct(avg[1])} | {TABLE52_AVG[2]} % / {pct(avg[2])} |\n")
    for i, what in enumerate(("shootdown overhead, average (TH5-3)",
                              "migrations without shootdown with RE, average (TH5-3)",
                              "runtime saved by RE's avoided shootdowns, average (TH5-3)")):
        rows.append(f"| {what} | {TABLE52_AVG[i]} % | {pct(avg[i])} | "
                    f"{pct_verdict(avg[i], TABLE52_AVG[i])} |")
    if "comd" in works:
        x = cols[1][works.index("comd")]
        top = max(zip(cols[1], works))
        rows.append(f"| migrations without shootdown, comd (TH5-3: the most, 89 %) | 89 % | "
                    f"{pct(x)} (most: {top[1]} {pct(top[0])}) | {pct_verdict(x, 89.0)} |")


def fig55(df, rows):
    t = index(df, ["driver.migration", "driver.migrate.threshold", "driver.migrate.expand"])
    works = sorted({k[0] for k in t})
    cfg = sorted({(k[2], k[3]) for k in t if k[1] == "threshold"})
    print("### Fig. 5.5: threshold-N + range expansion RE, 100-cycle shootdowns, performance "
          "relative to CC-only\n")
    print("| workload | memcpy | " + " | ".join(f"T{int(n)} RE{int(r)}" for n, r in cfg) + " |")
    print("|---|" + "---:|" * (len(cfg) + 1))
    perf = {}
    for w in works:
        cc = t.get((w, "none", 1.0, 0.0), float("nan"))
        perf[(w, "memcpy")] = cc / t.get((w, "memcpy", 1.0, 0.0), float("nan"))
        for c in cfg:
            perf[(w, c)] = cc / t.get((w, "threshold") + c, float("nan"))
        print(f"| {w} | {f3(perf[(w, 'memcpy')])} | "
              + " | ".join(f3(perf[(w, c)]) for c in cfg) + " |")
    g = {c: gmean([perf[(w, c)] for w in works]) for c in cfg}
    gm = gmean([perf[(w, "memcpy")] for w in works])
    print(f"| **geomean** | {f3(gm)} | " + " | ".join(f3(g[c]) for c in cfg) + " |\n")
    if (1.0, 128.0) in g:
        claim(rows, "threshold-1 + RE 128 over CC-only, geomean (TH5-4)", 1.85, g[(1.0, 128.0)])
    if (64.0, 64.0) in g:
        claim(rows, "threshold-64 + RE 64 over CC-only, geomean (TH5-4)", 1.95, g[(64.0, 64.0)])
        if (1.0, 128.0) in g:
            claim(rows, "threshold-64 + RE 64 over threshold-1 + RE 128 (Sec. 5.3.2: about +5 %, "
                  "not worth tracking every page)", round(1.95 / 1.85, 3),
                  g[(64.0, 64.0)] / g[(1.0, 128.0)], effect=True)
        b = max((v, c) for c, v in g.items())
        claim(rows, "best threshold/RE in the geomean (TH5-4: T64 RE64)", "T64 RE64",
              f"T{int(b[1][0])} RE{int(b[1][1])} {b[0]:.3f}",
              holds(b[1] == (64.0, 64.0)))
    for re_, paper in ((16.0, 0.98), (64.0, 0.97), (128.0, 0.975)):
        xs = [(perf[(w, (1.0, re_))] / perf[(w, (1.0, 0.0))], w) for w in works
              if (w, (1.0, re_)) in perf and (w, (1.0, 0.0)) in perf]
        if xs:
            worst = min(xs)
            claim(rows, f"RE {int(re_)} at threshold-1: worst slowdown vs RE 0 (TH5-4: "
                  f"{round(100 * (1 - paper), 1)} %), at {worst[1]}", paper, worst[0], effect=True)
    if (1.0, 128.0) in g:
        beat = [w for w in works if max(perf[(w, c)] for c in cfg if c[1] > 0)
                > perf[(w, "memcpy")]]
        claim(rows, "range expansion beats legacy memcpy (TH5-4: often)", "often",
              f"{len(beat)} of {len(works)}", holds(2 * len(beat) >= len(works)))
    if "minife" in works:
        b = max(perf[("minife", c)] for c in cfg)
        claim(rows, "minife stays below memcpy (TH5-4): best scheme / memcpy", "< 1",
              f3(b / perf[("minife", "memcpy")]), holds(b < perf[("minife", "memcpy")]))
    # TH5-5: RE's gain at thresholds above 1
    high = [n for n in sorted({c[0] for c in cfg}) if n > 1]

    def gain(w, n):
        base = perf.get((w, (n, 0.0)), float("nan"))
        return max(perf.get((w, (n, r)), float("nan")) for r in (16.0, 64.0, 128.0)) / base

    for w in ("bfs", "xsbench"):
        if w in works and high:
            x = max(gain(w, n) for n in high)
            claim(rows, f"{w}: RE's largest gain at threshold > 1 (TH5-5: little)", "~1",
                  f3(x), verdict(x, 1.0))
    if "nw" in works and high:
        x = max(gain("nw", n) for n in high)
        claim(rows, "nw (needle): RE's largest gain at threshold > 1 (TH5-5: up to +42 %)", 1.42, x,
              effect=True)
    if "backprop" in works and (128.0, 0.0) in g:
        lo = perf[("backprop", (128.0, 0.0))] / perf[("backprop", (1.0, 0.0))]
        hi = max(perf[("backprop", (128.0, r))] for r in (16.0, 64.0, 128.0)) \
            / perf[("backprop", (1.0, 0.0))]
        claim(rows, "backprop: threshold-128 / threshold-1 without RE (TH5-5: too high)", "< 1",
              f3(lo), holds(lo < 1))
        claim(rows, "backprop: threshold-128 with RE / threshold-1 (TH5-5: about 1)", 1.0, hi)


def repeat(dfr, df5):
    """configs/sweeps/thesis-ch5-repeat.yaml: Fig. 5.5's key schemes with
    the inputs' repetitions restored, next to the cut inputs' (fig5.5)."""
    tr = by_name(dfr)
    t5 = by_name(df5) if df5 is not None else {}
    works = sorted({k[0] for k in tr})
    tags = (("memcpy-1_re0", "memcpy"), ("threshold-1_re128", "T1 RE128"),
            ("threshold-64_re64", "T64 RE64"))
    print("### Ch. V with the repetitions restored (thesis-ch5-repeat.yaml), performance "
          "relative to CC-only: cut inputs (fig5.5) / full repetitions\n")
    print("| workload | " + " | ".join(s for _, s in tags) + " |")
    print("|---|" + "---:|" * len(tags))
    for w in works:
        cells = []
        for tag, _ in tags:
            a = t5.get((w, "none-1_re0"), float("nan")) / t5.get((w, tag), float("nan"))
            b = tr.get((w, "none-1_re0"), float("nan")) / tr.get((w, tag), float("nan"))
            cells.append(f"{f3(a)} / {f3(b)}")
        print(f"| {w} | " + " | ".join(cells) + " |")
    print()


SCHEMES9 = (("host_none_re0_bwb-false", "CC-only"), ("host_threshold_re0_bwb-false", "TH"),
            ("host_threshold_re128_bwb-false", "TH+RE"),
            ("host_threshold_re128_bwb-true", "TH+RE+BWB"),
            ("host_memcpy_re0_bwb-false", "memcpy"), ("oracle_none_re0_bwb-false", "oracle"))


def by_name(df, stat="sim_time_ps"):
    """{(workload, the point's name after the workload's): stat}"""
    return {(r["workload.kind"], r["name"][len(r["workload.kind"]) + 1:]): float(r[stat])
            for _, r in df.iterrows()}


def fig59(df, rows):
    t = by_name(df)
    works = sorted({k[0] for k in t})
    print("### Fig. 5.9: migration schemes (threshold-1, 100-cycle shootdowns), performance "
          "relative to CC-only\n")
    print("| workload | " + " | ".join(s for _, s in SCHEMES9) + " |")
    print("|---|" + "---:|" * len(SCHEMES9))
    perf = {}
    for w in works:
        cc = t.get((w, SCHEMES9[0][0]), float("nan"))
        for tag, s in SCHEMES9:
            perf[(w, s)] = cc / t.get((w, tag), float("nan"))
        print(f"| {w} | " + " | ".join(f3(perf[(w, s)]) for _, s in SCHEMES9) + " |")
    g = {s: gmean([perf[(w, s)] for w in works]) for _, s in SCHEMES9}
    print("| **geomean** | " + " | ".join(f3(g[s]) for _, s in SCHEMES9) + " |\n")
    claim(rows, "TH+RE+BWB over CC-only, geomean (TH5-7)", 1.95, g["TH+RE+BWB"])
    claim(rows, "TH+RE+BWB over legacy memcpy, geomean (TH5-7: +6 %)", 1.06,
          g["TH+RE+BWB"] / g["memcpy"], effect=True)
    claim(rows, "TH+RE+BWB / oracle, geomean (TH5-7: within 28 %)", 0.72,
          g["TH+RE+BWB"] / g["oracle"])
    claim(rows, "BWB over TH+RE, geomean (Sec. 5.4.1: BWB helps)", "> 1",
          f3(g["TH+RE+BWB"] / g["TH+RE"]), holds(g["TH+RE+BWB"] > g["TH+RE"]))
    best = max((max(perf[(w, s)] for _, s in SCHEMES9), w) for w in works)
    claim(rows, "GDDR used well: the largest gain over the DDR-only system (TH5-9: up to 5x)",
          5.0, best[0])
    return perf


def split(d, rows):
    """TH5-8 (Fig. 5.10): the four bandwidth components of each migrating
    scheme, summed over the fig5.9 points' /migration_windows tables."""
    pdir = os.path.join(d, "fig5.9", "points")
    if not os.path.isdir(pdir):
        return
    print("### Fig. 5.10: bytes by kind, TH+RE+BWB (GB: DDR demand, DDR migration, "
          "GDDR migration, GDDR demand)\n")
    print("| workload | DDR demand | DDR migration | GDDR migration | GDDR demand | "
          "migration / demand |")
    print("|---|---:|---:|---:|---:|---:|")
    mig_over = []
    for f in sorted(os.listdir(pdir)):
        if not f.endswith("_host_threshold_re128_bwb-true.h5"):
            continue
        w = f.split("_host_")[0]
        try:
            mw = load_table(os.path.join(pdir, f), "migration_windows")
        except KeyError:
            continue
        s = {c: float(mw[c].sum()) / 1e9 for c in ("ddr_demand_bytes", "ddr_migration_bytes",
                                                    "gddr_migration_bytes", "gddr_demand_bytes")}
        dem = s["ddr_demand_bytes"] + s["gddr_demand_bytes"]
        mig = s["ddr_migration_bytes"] + s["gddr_migration_bytes"]
        if s["gddr_migration_bytes"] > s["gddr_demand_bytes"]:
            mig_over.append(w)
        print(f"| {w} | {s['ddr_demand_bytes']:.3f} | {s['ddr_migration_bytes']:.3f} | "
              f"{s['gddr_migration_bytes']:.3f} | {s['gddr_demand_bytes']:.3f} | "
              f"{f3(mig / dem if dem else float('nan'))} |")
    print()
    claim(rows, "GDDR migration > GDDR demand (TH5-8: minife, pathfinder)", "minife, pathfinder",
          ", ".join(mig_over) or "none",
          holds({"minife", "pathfinder"} <= set(mig_over)))


def shares(d, rows, figure):
    """TH5-6 (Figs. 5.6-5.8): GDDR's share of demand bytes per 10 000-cycle
    window for bfs, xsbench and nw; overshoot = windows above target + 5
    points, after the first window that reaches the target."""
    pdir = os.path.join(d, "fig5.9", "points")
    if not os.path.isdir(pdir):
        return
    tags = (("threshold_re0_bwb-false", "TH"), ("threshold_re128_bwb-false", "TH+RE"),
            ("threshold_re128_bwb-true", "TH+RE+BWB"))
    print("### Figs. 5.6-5.8: GDDR share of demand bandwidth per 10 000-cycle window "
          f"(target {TARGET:.3f}): mean over the run, and the share of windows above "
          "target + 5 points once the target is reached\n")
    print("| workload | " + " | ".join(f"{s} mean / over" for _, s in tags) + " |")
    print("|---|" + "---:|" * len(tags))
    series = {}
    for w in ("bfs", "xsbench", "nw"):
        cells = []
        for tag, s in tags:
            p = os.path.join(pdir, f"{w}_host_{tag}.h5")
            if not os.path.exists(p):
                cells.append("-")
                continue
            mw = load_table(p, "migration_windows")
            dem = mw["gddr_demand_bytes"] + mw["ddr_demand_bytes"]
            sh = (mw["gddr_demand_bytes"] / dem.where(dem > 0)).fillna(0.0)
            series[(w, s)] = (mw["end_ps"] / mw["end_ps"].iloc[-1], sh)
            reached = [i for i, x in enumerate(sh) if x >= TARGET]
            after = sh[reached[0]:] if reached else sh[:0]
            o = float((after > TARGET + 0.05).mean()) if len(after) else 0.0
            cells.append(f"{sh.mean():.3f} / {o:.2f}")
        print(f"| {w} | " + " | ".join(cells) + " |")
    print()
    # The claim read from the figures: without BWB the share settles well
    # above the target; with it the share stays near the target.  Judged
    # per workload on the run's mean share: above target + 5 points
    # without BWB, within 10 points of the target with it.
    ok, bad = [], []
    for w in ("bfs", "xsbench", "nw"):
        if (w, "TH+RE+BWB") not in series or (w, "TH") not in series:
            continue
        nb = min(float(series[(w, s)][1].mean()) for s in ("TH", "TH+RE") if (w, s) in series)
        wb = float(series[(w, "TH+RE+BWB")][1].mean())
        (ok if nb > TARGET + 0.05 and abs(wb - TARGET) <= 0.10 else bad).append(
            f"{w} {nb:.2f} -> {wb:.2f}")
    if ok or bad:
        claim(rows, "TH / TH+RE overshoot the target, TH+RE+BWB holds it (TH5-6): mean GDDR "
              "share without -> with BWB", f"> {TARGET + 0.05:.2f} -> {TARGET:.2f}",
              ", ".join(ok + bad), count_verdict(len(ok), len(ok) + len(bad)) + f" ({len(ok)} of {len(ok) + len(bad)})")
    if figure and series:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, axs = plt.subplots(1, 3, figsize=(13, 4), sharey=True)
        for ax, w in zip(axs, ("bfs", "xsbench", "nw")):
            for _, s in tags:
                if (w, s) in series:
                    x, y = series[(w, s)]
                    ax.plot(x, y, lw=0.8, label=s)
            ax.axhline(TARGET, color="grey", ls="--", lw=0.8, label="target")
            ax.set_title(w)
            ax.set_xlabel("fraction of run time")
        axs[0].set_ylabel("GDDR share of demand bytes")
        axs[0].legend(fontsize=8)
        fig.suptitle("Thesis Figs. 5.6-5.8 on uvmsim: bandwidth balancing")
        fig.tight_layout()
        fig.savefig(figure, dpi=110)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("-o", "--figure", help="Figs. 5.6-5.8 as a PNG")
    a = ap.parse_args()
    rows = []
    for name, fn in (("fig5.2", fig52), ("fig5.3", fig53), ("table5.2", table52),
                     ("fig5.5", fig55), ("fig5.9", fig59)):
        df = load(a.dir, name)
        if df is not None and len(df):
            fn(df, rows)
    dfr = load(a.dir, "repeat")
    if dfr is not None and len(dfr):
        repeat(dfr, load(a.dir, "fig5.5"))
    split(a.dir, rows)
    shares(a.dir, rows, a.figure)
    print("### The thesis's claims (Sec. 5.2-5.4) against uvmsim\n")
    print("| claim | thesis | uvmsim | reproduced |")
    print("|---|---:|---:|---|")
    print("\n".join(rows))
    if a.figure:
        print(f"\nfigure: {a.figure}")


if __name__ == "__main__":
    main()
