"""The command lines of scripts/read_results.py and scripts/plot_sweep.py
(installed as uvmsim-read-results and uvmsim-plot-sweep)."""
import argparse
import signal
import sys

import numpy as np

from .results import NotAResult, is_sweep, load_sweep, open_run
from .sweep import SweepError, sweep_panels, panels_markdown

READ_USAGE = """Read a uvmsim result file (schema: docs/results.md) with h5py and pandas.

    read_results.py RESULT.h5          # summary of the run
    read_results.py DIR/sweep.h5       # the points of a merged sweep

A file that is not a readable uvmsim result (damaged, truncated, another
program's HDF5, a dataset larger than its stored bytes can hold) prints
one line and exits 2.  From Python: import uvmsim (python/, docs/results.md).
"""

PLOT_USAGE = """Plot a merged uvmsim sweep (DIR/sweep.h5; docs/sweeps.md).

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
base units (0.75).  From Python: uvmsim.plot_sweep, uvmsim.sweep_table.
"""

# What h5py and numpy raise on a damaged file: OSError/KeyError/RuntimeError
# for damage, KeyError for a missing object, TypeError/ValueError for a
# wrong type.
_READ_ERRORS = (NotAResult, OSError, KeyError, ValueError, TypeError,
                IndexError, AttributeError, RuntimeError, UnicodeError)


def _one_line(e):
    return " ".join(str(e).split())[:300] or type(e).__name__


def _quiet_pipe():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)   # quiet under `| head`


# ---- read_results

def _summary_sweep(path):
    import h5py
    df = load_sweep(path)
    with h5py.File(df.attrs["path"], "r") as f:
        sweep_file = f.attrs["sweep_file"]
        sweep_file = sweep_file.decode() if isinstance(sweep_file, bytes) \
            else sweep_file
        merged, planned = f.attrs["points_merged"], f.attrs["points_planned"]
    out = [f"== sweep: {path} ({sweep_file})",
           f"  points: {merged} of {planned} merged",
           "  axes: " + ", ".join(df.attrs["axes"])]
    for name, state, code in df.attrs["missing"]:
        out.append(f"  missing {name} ({state}"
                   + (f", exit {code})" if state == "failed" else ")"))
    cols = ["name"] + df.attrs["axes"] + ["status", "sim_time_ps"]
    out.append(df[cols].to_string(index=False))
    return out


def _summary_run(path):
    """The summary's lines, all read before any is printed (a damaged file
    prints one error line, not a partial summary)."""
    r = open_run(path)
    out = [f"== run: {path}"]
    out += [f"  {k}: {v}" for k, v in r.run.items()]
    out.append("== config")
    out += [f"  {k}: {v}" for k, v in r.config.items()]
    out.append("== scalar statistics")
    out.append(r.stats.to_string() if len(r.stats) else "  (none)")
    if r.arrays:
        out.append("== vector and histogram statistics")
        out += [f"  {k}: {np.array2string(v, threshold=16)}"
                for k, v in r.arrays.items()]
    ts = r.timeseries
    out.append(f"== time series: {len(ts)} rows x {len(ts.columns)} columns")
    if len(ts):
        head = ts.head(10)
        # Many statistics: one line per statistic reads better.
        out.append((head.astype(object).T if len(ts.columns) > 10 else head)
                   .to_string())
    for name in r.table_names:
        t = r.table(name)
        out.append(f"== table /{name}: {len(t)} rows")
        if len(t):
            out.append(t.head(20).to_string())
    return out


def read_results_main(argv=None, prog="read_results.py"):
    """read_results.py FILE: exit 0 with the summary, 2 with one line."""
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1 or argv[0] in ("-h", "--help"):
        print(READ_USAGE.strip(), file=sys.stderr)
        return 2
    import pandas as pd
    path = argv[0]
    pd.set_option("display.width", 120)
    pd.set_option("display.max_rows", 200)
    try:
        out = _summary_sweep(path) if is_sweep(path) else _summary_run(path)
    except _READ_ERRORS as e:
        print(f"{prog}: {path}: not a readable uvmsim result ({_one_line(e)})",
              file=sys.stderr)
        return 2
    print("\n".join(out))
    return 0


# ---- plot_sweep

def _plot_args(argv, prog):
    p = argparse.ArgumentParser(
        prog=prog, description=PLOT_USAGE.split("\n\n")[1],
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
    return p.parse_args(argv)


def plot_sweep_main(argv=None, prog="plot_sweep.py"):
    """plot_sweep.py SWEEP.h5 ...: exit 0, or 2 with one line."""
    argv = sys.argv[1:] if argv is None else argv
    a = _plot_args(argv, prog)

    def fail(msg):
        print(f"{prog}: {msg}", file=sys.stderr)
        return 2
    if a.speedup and not a.normalize_to:
        return fail("--speedup needs --normalize-to AXIS=VALUE")
    try:
        df = load_sweep(a.sweep)
    except _READ_ERRORS as e:
        return fail(f"{a.sweep}: not a readable uvmsim sweep ({_one_line(e)})")

    def averaging(averaged):
        print(f"{prog}: averaging over "
              + ", ".join(f"{k} ({n} values)" for k, n in averaged),
              file=sys.stderr)
    try:
        p = sweep_panels(df, a.x, a.y, group=a.group, facet=a.facet,
                         normalize_to=a.normalize_to, speedup=a.speedup,
                         where=a.where, line=a.line, gmean=not a.no_gmean,
                         on_average=averaging)
    except SweepError as e:
        return fail(str(e))
    if a.table:
        sys.stdout.write(panels_markdown(p))
        sys.stdout.flush()
    out = a.output or (None if a.table else "sweep.png")
    if out:
        import matplotlib
        matplotlib.use("Agg")
        from .plot import draw_panels
        draw_panels(p, out, a.title)
        print(f"{prog}: wrote {out}", file=sys.stderr)
    return 0


def read_results_entry():
    _quiet_pipe()
    sys.exit(read_results_main(prog="uvmsim-read-results"))


def plot_sweep_entry():
    _quiet_pipe()
    sys.exit(plot_sweep_main(prog="uvmsim-plot-sweep"))
