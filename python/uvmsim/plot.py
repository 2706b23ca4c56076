"""Figures of a merged sweep with matplotlib (the papers' grouped bars).

matplotlib is imported when a figure is drawn, so reading results does not
need it.  Without a display (and no backend chosen) the Agg backend is used.
"""
import os

from .sweep import sweep_panels


def _pyplot():
    import sys
    import matplotlib
    # Headless (tests, batch jobs) unless the caller chose a backend first
    # (a notebook's inline one, or pyplot already in use).
    if "matplotlib.pyplot" not in sys.modules and not os.environ.get("DISPLAY") \
            and not os.environ.get("MPLBACKEND"):
        matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def draw_panels(p, output=None, title=None):
    """Draw sweep_panels' result P: one panel per row, grouped bars (or
    lines), a line at 1 when normalized, the legend outside on the right.
    Saves to OUTPUT (.png, .pdf, .svg: by its suffix) if given, and
    returns the matplotlib Figure (closed if saved)."""
    plt = _pyplot()
    n = len(p.panels)
    bars = max(len(q.x_labels) * len(q.group_labels) for q in p.panels)
    width_in = max(6.0, min(16.0, 0.2 * bars + 3.0))
    # One panel per row: the papers' side-by-side panels get too narrow.
    fig, axs = plt.subplots(n, 1, figsize=(width_in, 3.4 * n), sharey=True,
                            squeeze=False)
    axs = [row[0] for row in axs]
    for ax, q in zip(axs, p.panels):
        if p.line:
            for gv, s in zip(q.group_labels, q.series):
                ax.plot(q.x_values, s, marker="o", label=gv)
            ax.set_xlabel(p.x)
        else:
            ng = len(q.group_labels)
            w = 0.8 / ng
            for j, (gv, s) in enumerate(zip(q.group_labels, q.series)):
                xs = [i + (j - (ng - 1) / 2) * w for i in range(len(q.x_labels))]
                ax.bar(xs, s, w, label=gv)
            ax.set_xticks(range(len(q.x_labels)))
            ax.set_xticklabels(q.x_labels, rotation=30, ha="right")
        if p.normalized:
            ax.axhline(1.0, color="black", linewidth=0.6)
        if q.title:
            ax.set_title(q.title)
        ax.grid(axis="y", linewidth=0.3)
    for ax in axs:
        ax.set_ylabel(p.ylabel)
    if p.group:
        axs[0].legend(title=p.group, fontsize="small", loc="upper left",
                      bbox_to_anchor=(1.01, 1.0))
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    if output:
        fig.savefig(output, dpi=150)
        plt.close(fig)
    return fig


def plot_sweep(df, x, y, output=None, title=None, **kw):
    """Draw a sweep (load_sweep's DataFrame) as scripts/plot_sweep.py does.

    The keyword arguments are sweep_panels' (group, facet, normalize_to,
    speedup, where, line, gmean).  Returns the matplotlib Figure."""
    return draw_panels(sweep_panels(df, x, y, **kw), output, title)
