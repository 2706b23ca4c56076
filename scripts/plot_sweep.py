#!/usr/bin/python3
"""Plot a merged uvmsim sweep (DIR/sweep.h5; docs/sweeps.md).

    plot_sweep.py SWEEP.h5 --x AXIS --y STAT [--group AXIS] [--facet AXIS]
                  [--normalize-to AXIS=VALUE] [--speedup] [--where AXIS=VALUE]...
                  [--line] [--no-gmean] [-o OUT.png|OUT.pdf] [--table]

Grouped bars, as the papers draw them: one cluster per value of --x, one
bar per value of --group, one panel per value of --facet.  With
--normalize-to AXIS=VALUE every bar is divided by the bar that has
AXIS=VALUE and the same other coordinates (--speedup: the baseline divided
by the bar, for times: higher is better), and a geometric-mean cluster
("GM") closes each panel.  --line draws lines over a numeric --x instead.
Axes that vary but are none of --x/--group/--facet (seeds, say) are
averaged (arithmetic mean) before normalising; --where AXIS=VALUE keeps
only the points with that value.  --table prints the plotted numbers as
Markdown tables (one per panel; one row per cluster, one column per bar).
Values are matched as written in the sweep file ("75%") or as numbers in
base units (0.75).
"""
import argparse
import difflib
import math
import os
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from read_results import load_sweep  # noqa: E402

GM = "GM"


def fail(msg):
    print(f"plot_sweep.py: {msg}", file=sys.stderr)
    sys.exit(2)


class Axis:
    """One sweep axis: its values in sweep order, as numbers and as text."""

    def __init__(self, df, key):
        self.key = key
        self.texts = list(df.attrs["axis_text"][key])
        self.values = list(df.attrs["axis_value"][key])
        self.numeric = not all(isinstance(v, float) and math.isnan(v)
                               for v in self.values)

    def column_value(self, i):
        """The i-th value as it appears in the /points column."""
        return self.values[i] if self.numeric else self.texts[i]

    def find(self, text):
        """Index of the value written TEXT (or equal to it as a number)."""
        if text in self.texts:
            return self.texts.index(text)
        try:
            x = float(text)
        except ValueError:
            x = None
        if x is not None and self.numeric:
            for i, v in enumerate(self.values):
                if math.isclose(v, x, rel_tol=1e-12, abs_tol=0.0):
                    return i
        fail(f"{self.key}: no value '{text}' (values: "
             f"{', '.join(self.texts)})")

    def label(self, value):
        for i in range(len(self.texts)):
            cv = self.column_value(i)
            if cv == value or (self.numeric and
                               math.isclose(cv, value, rel_tol=1e-12)):
                return self.texts[i]
        return str(value)

    def position(self, value):
        for i in range(len(self.texts)):
            cv = self.column_value(i)
            if cv == value or (self.numeric and
                               math.isclose(cv, value, rel_tol=1e-12)):
                return i
        return len(self.texts)


def key_value(arg, opt):
    if "=" not in arg:
        fail(f"{opt} expects AXIS=VALUE, got '{arg}'")
    return arg.split("=", 1)


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="plot_sweep.py", description=__doc__.split("\n\n")[1],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("sweep", help="DIR/sweep.h5 written by uvmsim sweep")
    p.add_argument("--x", required=True, help="axis along the x axis")
    p.add_argument("--y", required=True,
                   help="column of /points: a statistic (dotted name), "
                        "sim_time_ps or events")
    p.add_argument("--group", help="axis whose values are the bars of a "
                                   "cluster (or the lines)")
    p.add_argument("--facet", help="axis whose values are separate panels")
    p.add_argument("--normalize-to", metavar="AXIS=VALUE",
                   help="divide by the baseline point with AXIS=VALUE")
    p.add_argument("--speedup", action="store_true",
                   help="with --normalize-to: baseline / value (for times)")
    p.add_argument("--where", action="append", default=[],
                   metavar="AXIS=VALUE", help="keep only these points")
    p.add_argument("--line", action="store_true",
                   help="line plot over a numeric --x")
    p.add_argument("--no-gmean", action="store_true",
                   help="no geometric-mean cluster")
    p.add_argument("-o", "--output", help="figure file (.png, .pdf, .svg)")
    p.add_argument("--table", action="store_true",
                   help="print the numbers as Markdown tables")
    p.add_argument("--title", help="figure title")
    a = p.parse_args(argv)
    if a.speedup and not a.normalize_to:
        fail("--speedup needs --normalize-to AXIS=VALUE")
    return a


def select(df, axes, where):
    for w in where:
        k, v = key_value(w, "--where")
        if k not in axes:
            fail(f"--where {k}: not an axis (axes: {', '.join(axes)})")
        ax = axes[k]
        df = df[df[k] == ax.column_value(ax.find(v))]
    if df.empty:
        fail("--where leaves no point")
    return df


def check_column(df, y):
    if y in df.columns:
        return
    near = difflib.get_close_matches(y, list(df.columns), n=3)
    fail(f"--y {y}: no such column in /points"
         + (f" (did you mean {', '.join(near)}?)" if near else ""))


def aggregate(df, a, axes):
    """Mean of --y over the axes that are not drawn; one row per cell."""
    keys = [k for k in (a.facet, a.x, a.group) if k]
    if len(set(keys)) != len(keys):
        fail("--x, --group and --facet must be different axes")
    rest = [k for k in axes if k not in keys and df[k].nunique() > 1]
    if rest:
        print("plot_sweep.py: averaging over "
              + ", ".join(f"{k} ({df[k].nunique()} values)" for k in rest),
              file=sys.stderr)
    g = df.groupby(keys, sort=False)[a.y].mean().reset_index()
    return g, keys


def normalize(g, keys, a, axes):
    k, v = key_value(a.normalize_to, "--normalize-to")
    if k not in keys:
        fail(f"--normalize-to {k}: must be the --x, --group or --facet axis")
    base_value = axes[k].column_value(axes[k].find(v))
    others = [o for o in keys if o != k]
    base = g[g[k] == base_value][others + [a.y]].rename(
        columns={a.y: "_base"})
    if base.empty:
        fail(f"--normalize-to {k}={v}: no point has it")
    g = g.merge(base, on=others, how="left") if others else \
        g.assign(_base=base["_base"].iloc[0])
    g["_v"] = g["_base"] / g[a.y] if a.speedup else g[a.y] / g["_base"]
    label = (f"speedup over {k}={v}" if a.speedup
             else f"{a.y} normalized to {k}={v}")
    return g.drop(columns="_base"), label


def panels(g, keys, a, axes, normalized):
    """[(facet label, x labels, group labels, {group: [value per x]})]."""
    out = []
    fvals = sorted(g[a.facet].unique(), key=axes[a.facet].position) \
        if a.facet else [None]
    for fv in fvals:
        sub = g[g[a.facet] == fv] if a.facet else g
        xvals = sorted(sub[a.x].unique(), key=axes[a.x].position)
        gvals = sorted(sub[a.group].unique(), key=axes[a.group].position) \
            if a.group else [None]
        series = {}
        for gv in gvals:
            s = sub[sub[a.group] == gv] if a.group else sub
            series[gv] = [s[s[a.x] == xv]["_v"].mean() for xv in xvals]
        xl = [axes[a.x].label(v) for v in xvals]
        if normalized and not a.no_gmean and not a.line:
            for gv in gvals:
                vals = [v for v in series[gv] if v > 0 and not math.isnan(v)]
                series[gv].append(math.exp(sum(map(math.log, vals)) / len(vals))
                                  if vals else float("nan"))
            xl.append(GM)
        gl = [axes[a.group].label(v) for v in gvals] if a.group else [None]
        fl = f"{a.facet} = {axes[a.facet].label(fv)}" if a.facet else None
        out.append((fl, xl, gl, [series[gv] for gv in gvals], xvals))
    return out


def print_tables(pans, a, ylabel):
    for fl, xl, gl, series, _ in pans:
        if fl:
            print(f"### {fl}\n")
        cols = [g if g is not None else ylabel for g in gl]
        print("| " + " | ".join([a.x] + cols) + " |")
        print("|---|" + "---:|" * len(cols))
        for i, x in enumerate(xl):
            cells = [f"{s[i]:.4g}" for s in series]
            print("| " + " | ".join([x] + cells) + " |")
        print()


def draw(pans, a, ylabel, normalized, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    n = len(pans)
    bars = max(len(p[1]) * len(p[2]) for p in pans)
    width_in = max(6.0, min(16.0, 0.2 * bars + 3.0))
    # One panel per row: the papers' side-by-side panels get too narrow.
    fig, axs = plt.subplots(n, 1, figsize=(width_in, 3.4 * n), sharey=True,
                            squeeze=False)
    axs = [row[0] for row in axs]
    for ax, (fl, xl, gl, series, xvals) in zip(axs, pans):
        if a.line:
            for gv, s in zip(gl, series):
                ax.plot(xvals, s, marker="o", label=gv)
            ax.set_xlabel(a.x)
        else:
            ng = len(gl)
            w = 0.8 / ng
            for j, (gv, s) in enumerate(zip(gl, series)):
                xs = [i + (j - (ng - 1) / 2) * w for i in range(len(xl))]
                ax.bar(xs, s, w, label=gv)
            ax.set_xticks(range(len(xl)))
            ax.set_xticklabels(xl, rotation=30, ha="right")
        if normalized:
            ax.axhline(1.0, color="black", linewidth=0.6)
        if fl:
            ax.set_title(fl)
        ax.grid(axis="y", linewidth=0.3)
    for ax in axs:
        ax.set_ylabel(ylabel)
    if a.group:
        axs[0].legend(title=a.group, fontsize="small", loc="upper left",
                      bbox_to_anchor=(1.01, 1.0))
    if a.title:
        fig.suptitle(a.title)
    fig.tight_layout()
    fig.savefig(out, dpi=150)
    plt.close(fig)


def main(argv):
    a = parse_args(argv)
    df = load_sweep(a.sweep)
    axes = {k: Axis(df, k) for k in df.attrs["axes"]}
    for opt, k in (("--x", a.x), ("--group", a.group), ("--facet", a.facet)):
        if k and k not in axes:
            fail(f"{opt} {k}: not an axis (axes: {', '.join(axes)})")
    check_column(df, a.y)
    if a.line and not axes[a.x].numeric:
        fail(f"--line needs a numeric --x; {a.x} is text")
    df = select(df, axes, a.where)
    g, keys = aggregate(df, a, axes)
    normalized = bool(a.normalize_to)
    if normalized:
        g, ylabel = normalize(g, keys, a, axes)
    else:
        g["_v"] = g[a.y]
        ylabel = a.y
    pans = panels(g, keys, a, axes, normalized)
    if a.table:
        print_tables(pans, a, ylabel)
    out = a.output or (None if a.table else "sweep.png")
    if out:
        draw(pans, a, ylabel, normalized, out)
        print(f"plot_sweep.py: wrote {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    sys.exit(main(sys.argv[1:]))
