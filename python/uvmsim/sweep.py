"""Shaping a merged sweep for plots and tables (docs/sweeps.md).

The papers' figures are grouped bars: one cluster per value of an x axis,
one bar per value of a group axis, one panel per value of a facet axis,
each bar often divided by a baseline bar (speedup over LRU) and a
geometric-mean cluster closing each panel.  `sweep_panels` computes
those numbers from `load_sweep`'s DataFrame; `uvmsim.plot` draws them.

Values are matched as written in the sweep file ("75%") or as numbers in
base units (0.75).  A mistake (an axis that is not one, a value the axis
lacks) raises SweepError, whose text names the option as
scripts/plot_sweep.py spells it.
"""
import collections
import difflib
import math

GM = "GM"


class SweepError(ValueError):
    """A request the sweep cannot answer (unknown axis, value, column)."""


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
        text = str(text) if not isinstance(text, float) else text
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
        raise SweepError(f"{self.key}: no value '{text}' (values: "
                         f"{', '.join(self.texts)})")

    def value(self, text):
        """The /points column value of the value written TEXT."""
        return self.column_value(self.find(text))

    def _index(self, value):
        for i in range(len(self.texts)):
            cv = self.column_value(i)
            if cv == value or (self.numeric and
                               math.isclose(cv, value, rel_tol=1e-12)):
                return i
        return None

    def label(self, value):
        i = self._index(value)
        return str(value) if i is None else self.texts[i]

    def position(self, value):
        i = self._index(value)
        return len(self.texts) if i is None else i


def axes_of(df):
    """{key: Axis} of a load_sweep DataFrame, in sweep order."""
    return {k: Axis(df, k) for k in df.attrs["axes"]}


def _pairs(spec, opt):
    """AXIS=VALUE strings, (axis, value) pairs or a dict -> [(axis, value)]."""
    if spec is None:
        return []
    if isinstance(spec, dict):
        return list(spec.items())
    if isinstance(spec, (str, tuple)):
        spec = [spec]
    out = []
    for s in spec:
        if isinstance(s, tuple):
            out.append(s)
        elif "=" not in s:
            raise SweepError(f"{opt} expects AXIS=VALUE, got '{s}'")
        else:
            out.append(tuple(s.split("=", 1)))
    return out


def select(df, where, axes=None):
    """The points whose axes have the given values (AXIS=VALUE each)."""
    axes = axes or axes_of(df)
    for k, v in _pairs(where, "--where"):
        if k not in axes:
            raise SweepError(f"--where {k}: not an axis "
                             f"(axes: {', '.join(axes)})")
        df = df[df[k] == axes[k].value(v)]
    if df.empty:
        raise SweepError("--where leaves no point")
    return df


def check_column(df, y):
    """SweepError unless Y is a column of /points (suggesting near names)."""
    if y in df.columns:
        return
    near = difflib.get_close_matches(y, list(df.columns), n=3)
    raise SweepError(f"--y {y}: no such column in /points"
                     + (f" (did you mean {', '.join(near)}?)" if near else ""))


def aggregate(df, y, keys, axes=None):
    """Mean of Y per combination of KEYS, over the axes not in KEYS.

    Returns (DataFrame with KEYS and Y, [(averaged axis, its values)])."""
    axes = axes or axes_of(df)
    if len(set(keys)) != len(keys):
        raise SweepError("--x, --group and --facet must be different axes")
    rest = [(k, df[k].nunique()) for k in axes
            if k not in keys and df[k].nunique() > 1]
    g = df.groupby(list(keys), sort=False)[y].mean().reset_index()
    return g, rest


def _normalize(g, keys, y, to, speedup, axes):
    pairs = _pairs(to, "--normalize-to")
    if len(pairs) != 1:
        raise SweepError("--normalize-to expects one AXIS=VALUE")
    k, v = pairs[0]
    if k not in keys:
        raise SweepError(f"--normalize-to {k}: must be the --x, --group or "
                         f"--facet axis")
    base_value = axes[k].value(v)
    others = [o for o in keys if o != k]
    base = g[g[k] == base_value][others + [y]].rename(columns={y: "_base"})
    if base.empty:
        raise SweepError(f"--normalize-to {k}={v}: no point has it")
    g = g.merge(base, on=others, how="left") if others else \
        g.assign(_base=base["_base"].iloc[0])
    g["normalized"] = g["_base"] / g[y] if speedup else g[y] / g["_base"]
    label = (f"speedup over {k}={v}" if speedup
             else f"{y} normalized to {k}={v}")
    return g.drop(columns="_base"), label


def normalize(df, y, to, speedup=False, keys=None):
    """Y of each cell divided by the baseline cell's (TO: "AXIS=VALUE").

    KEYS are the axes kept (default: every axis of the sweep); the others
    are averaged first (arithmetic mean).  The baseline of a cell is the
    cell with AXIS=VALUE and the same other keys.  SPEEDUP: baseline / Y
    instead (for times: higher is better).  Returns a DataFrame: KEYS, Y,
    and `normalized`; .attrs["label"] says what it is.
    """
    axes = axes_of(df)
    keys = list(keys) if keys is not None else list(axes)
    for k in keys:
        if k not in axes:
            raise SweepError(f"{k}: not an axis (axes: {', '.join(axes)})")
    check_column(df, y)
    g, _ = aggregate(df, y, keys, axes)
    g, label = _normalize(g, keys, y, to, speedup, axes)
    g.attrs["label"] = label
    return g


Panel = collections.namedtuple(
    "Panel", "title x_labels group_labels series x_values")
Panel.__doc__ = """One panel: its title (None without a facet), the cluster
labels (the x values as written, then GM), the bar labels (group values;
[None] without a group), one list of values per bar (one per cluster), and
the x values themselves (for line plots)."""

Panels = collections.namedtuple(
    "Panels", "panels x y group facet ylabel normalized line averaged")
Panels.__doc__ = """What sweep_panels computed: the panels, the axes they
use, the y label, whether the values are normalized, whether they are
lines, and the axes averaged over as (key, number of values)."""


def sweep_panels(df, x, y, group=None, facet=None, normalize_to=None,
                 speedup=False, where=None, line=False, gmean=True,
                 on_average=None):
    """The numbers of a grouped-bar (or line) figure of a sweep.

    X, GROUP, FACET: axes (clusters, bars in a cluster, panels).  Y: a
    column of /points (a statistic, sim_time_ps, events).  NORMALIZE_TO
    "AXIS=VALUE": divide each bar by the bar with that value and the same
    other coordinates (SPEEDUP: baseline / bar); with it (and bars) a
    geometric-mean cluster "GM" closes each panel unless GMEAN is false.
    WHERE: AXIS=VALUE conditions (a list, or a dict) that keep points.
    Axes that vary but are none of X/GROUP/FACET are averaged (listed in
    the result's .averaged; ON_AVERAGE, if given, is called with that list
    as soon as it is known).
    """
    axes = axes_of(df)
    for opt, k in (("--x", x), ("--group", group), ("--facet", facet)):
        if k and k not in axes:
            raise SweepError(f"{opt} {k}: not an axis "
                             f"(axes: {', '.join(axes)})")
    check_column(df, y)
    if line and not axes[x].numeric:
        raise SweepError(f"--line needs a numeric --x; {x} is text")
    if speedup and not normalize_to:
        raise SweepError("--speedup needs --normalize-to AXIS=VALUE")
    df = select(df, where, axes) if where else df
    keys = [k for k in (facet, x, group) if k]
    g, averaged = aggregate(df, y, keys, axes)
    if averaged and on_average:
        on_average(averaged)
    normalized = bool(normalize_to)
    if normalized:
        g, ylabel = _normalize(g, keys, y, normalize_to, speedup, axes)
    else:
        g["normalized"] = g[y]
        ylabel = y
    out = []
    fvals = sorted(g[facet].unique(), key=axes[facet].position) \
        if facet else [None]
    for fv in fvals:
        sub = g[g[facet] == fv] if facet else g
        xvals = sorted(sub[x].unique(), key=axes[x].position)
        gvals = sorted(sub[group].unique(), key=axes[group].position) \
            if group else [None]
        series = {}
        for gv in gvals:
            s = sub[sub[group] == gv] if group else sub
            series[gv] = [s[s[x] == xv]["normalized"].mean() for xv in xvals]
        xl = [axes[x].label(v) for v in xvals]
        if normalized and gmean and not line:
            for gv in gvals:
                vals = [v for v in series[gv] if v > 0 and not math.isnan(v)]
                series[gv].append(math.exp(sum(map(math.log, vals)) / len(vals))
                                  if vals else float("nan"))
            xl.append(GM)
        gl = [axes[group].label(v) for v in gvals] if group else [None]
        fl = f"{facet} = {axes[facet].label(fv)}" if facet else None
        out.append(Panel(fl, xl, gl, [series[gv] for gv in gvals], xvals))
    return Panels(out, x, y, group, facet, ylabel, normalized, line, averaged)


def panels_markdown(p):
    """The numbers of sweep_panels as Markdown: one table per panel, one
    row per cluster, one column per bar (4 significant digits)."""
    lines = []
    for pan in p.panels:
        if pan.title:
            lines += [f"### {pan.title}", ""]
        cols = [g if g is not None else p.ylabel for g in pan.group_labels]
        lines.append("| " + " | ".join([p.x] + cols) + " |")
        lines.append("|---|" + "---:|" * len(cols))
        for i, xl in enumerate(pan.x_labels):
            cells = [f"{s[i]:.4g}" for s in pan.series]
            lines.append("| " + " | ".join([xl] + cells) + " |")
        lines.append("")
    return "\n".join(lines) + "\n"


def sweep_table(df, x, y, **kw):
    """sweep_panels(df, x, y, **kw) as Markdown (panels_markdown)."""
    return panels_markdown(sweep_panels(df, x, y, **kw))
