"""Read uvmsim result files (schema: docs/results.md) with h5py and pandas.

A run file (`uvmsim run -o RUN.h5`) is read through `open_run`; a merged
sweep (`uvmsim sweep run`, DIR/sweep.h5) through `load_sweep`, and one of
its points through `open_run(path, point=NAME)`.  The path-based
`load_*` functions are the older interface of scripts/read_results.py and
stay for the scripts that import them.

A file that is not a readable uvmsim result (damaged, truncated, another
program's HDF5, a dataset larger than its stored bytes can hold) raises
NotAResult.
"""
import contextlib
import errno
import functools
import os

import h5py
import numpy as np
import pandas as pd

# deflate cannot shrink data by more than 1032:1 (its longest match, 258
# bytes, costs at least two bits: RFC 1951 Sec. 3.2.5), and the shuffle
# filter uvmsim applies first only reorders bytes.  A dataset whose
# dataspace claims more than that over its stored bytes (e.g. chunks that
# were never written) was not written by uvmsim: refuse it instead of
# allocating what the dataspace says.
_MAX_RATIO = 1032
# Small datasets are exempt (fixed overhead, compact layouts).
_SLACK_BYTES = 1 << 20


class NotAResult(Exception):
    """The file is not a readable uvmsim result."""


def _read(dataset):
    """dataset[()] after checking that its size is one uvmsim could write."""
    logical = dataset.size * dataset.dtype.itemsize
    stored = dataset.id.get_storage_size()
    if logical > _SLACK_BYTES and logical > _MAX_RATIO * stored:
        raise NotAResult(f"dataset {dataset.name} claims {logical} bytes but "
                         f"stores {stored}: not written by uvmsim")
    return dataset[()]


# Objects of a run group that are not record tables.
_NOT_TABLES = {"config", "stats", "timeseries", "host"}


def _text(v):
    """h5py returns fixed-length strings as bytes; callers want str."""
    if isinstance(v, (bytes, np.bytes_)):
        return v.decode("utf-8", errors="replace")
    return v


def _scalar(v):
    """numpy scalars to plain Python values, for printing and dicts."""
    v = _text(v)
    return v.item() if isinstance(v, np.generic) else v


def _frame(dataset):
    data = _read(dataset)
    df = pd.DataFrame(data)
    for col in data.dtype.names or ():
        if data.dtype[col].kind == "S":
            df[col] = df[col].map(_text)
    return df


# ---- readers of one run group (the file's root, or /runs/NAME of a sweep)

def _stat_datasets(g):
    """(dotted name, value) pairs of STATS, in name order."""
    found = []

    def visit(name, obj):
        if isinstance(obj, h5py.Dataset):
            found.append((name.replace("/", "."), _read(obj)))
    g["stats"].visititems(visit)
    return found


def _stats(g):
    data = {n: _scalar(v) for n, v in _stat_datasets(g) if np.ndim(v) == 0}
    return pd.Series(data, dtype=object).sort_index()


def _arrays(g):
    return {n: v for n, v in _stat_datasets(g) if np.ndim(v) == 1}


def _table_names(g):
    return [k for k in g.keys()
            if k not in _NOT_TABLES and isinstance(g[k], h5py.Dataset)]


def _table(g, name, where):
    if name in _NOT_TABLES or name not in g or \
            not isinstance(g[name], h5py.Dataset):
        raise KeyError(f"{where}: no record table '{name}'")
    return _frame(g[name])


def _config(g):
    return {k: _scalar(v) for k, v in g["config"].attrs.items() if k != "yaml"}


def _run_attrs(g, host):
    run = {k: _scalar(v) for k, v in g.attrs.items()}
    if host is not None:
        run.update({"host." + k: _scalar(v) for k, v in host.attrs.items()})
    return run


def _sweep_file(path):
    """A sweep's directory names its merged file, DIR/sweep.h5."""
    path = os.fspath(path)
    return os.path.join(path, "sweep.h5") if os.path.isdir(path) else path


def is_sweep(path):
    """True if PATH (a file, or a sweep's directory) is a merged sweep
    (it has /points and /runs)."""
    with _open(_sweep_file(path)) as f:
        return "points" in f and "runs" in f


def _open(path):
    """h5py.File(path) for reading; a file HDF5 cannot open (truncated,
    not HDF5) is NotAResult, a missing one FileNotFoundError."""
    if not os.path.exists(path):
        raise FileNotFoundError(errno.ENOENT, "no such file", path)
    try:
        return h5py.File(path, "r")
    except OSError as e:
        raise NotAResult("HDF5 cannot open it: "
                         + " ".join(str(e).split())[:200]) from None


class Run:
    """One uvmsim run, read on demand and cached.

    .run         dict: root attributes (status, seed, sim_time_ps, ...; a
                 sweep point's axis values too) and, prefixed "host.", the
                 host figures (not deterministic)
    .config      dict: every config key in base units (ps, bytes, Hz, B/s)
    .yaml        str: the resolved config as YAML (runs it again)
    .stats       pd.Series: scalar statistics by dotted name
    .arrays      dict: vector and histogram statistics (numpy), by name
    .timeseries  pd.DataFrame: time_ps, then one column per scalar statistic
    .tables      dict: record table name -> pd.DataFrame (all of them)
    .table(name) one record table; .table_names their names
    """

    def __init__(self, path, point=None):
        self.path = os.fspath(path)
        self.point = point
        self._tables = {}
        with self._group() as g:
            missing = [k for k in ("stats", "config") if k not in g]
            if missing:
                raise NotAResult(f"no /{missing[0]}: not a uvmsim result")

    def __repr__(self):
        where = f", point={self.point!r}" if self.point is not None else ""
        return f"uvmsim.Run({self.path!r}{where})"

    @contextlib.contextmanager
    def _group(self):
        """The run's group in the open file: the root, or /runs/POINT."""
        with _open(self.path) as f:
            if self.point is None:
                if "points" in f and "runs" in f:
                    raise NotAResult("a merged sweep: use load_sweep(), "
                                     "or open_run(path, point=NAME)")
                yield f
                return
            runs = f.get("runs")
            if runs is None or self.point not in runs:
                raise KeyError(f"{self.path}: no point '{self.point}'")
            yield runs[self.point]

    def _host(self, g):
        if self.point is None:
            return g["host"] if "host" in g else None
        return g.file.get("host/" + self.point)

    @functools.cached_property
    def run(self):
        with self._group() as g:
            return _run_attrs(g, self._host(g))

    @functools.cached_property
    def config(self):
        with self._group() as g:
            return _config(g)

    @functools.cached_property
    def yaml(self):
        with self._group() as g:
            return _text(g["config"].attrs.get("yaml", ""))

    @functools.cached_property
    def stats(self):
        with self._group() as g:
            return _stats(g)

    @functools.cached_property
    def arrays(self):
        with self._group() as g:
            return _arrays(g)

    @functools.cached_property
    def timeseries(self):
        with self._group() as g:
            return _frame(g["timeseries"])

    @functools.cached_property
    def table_names(self):
        with self._group() as g:
            return _table_names(g)

    @functools.cached_property
    def tables(self):
        return {n: self.table(n) for n in self.table_names}

    def table(self, name):
        """Record table NAME (kernels, batches, ...) as a DataFrame."""
        if name not in self._tables:
            with self._group() as g:
                self._tables[name] = _table(g, name, self.path)
        return self._tables[name]


def open_run(path, point=None):
    """A uvmsim run file as a Run (see Run); POINT: a sweep file's point."""
    return Run(path, point)


# ---- the path-based interface of scripts/read_results.py

def load_stats(path):
    """Scalar statistics (counters, averages as their mean, reals)."""
    with h5py.File(path, "r") as f:
        return _stats(f)


def load_arrays(path):
    """Vector and histogram statistics as numpy arrays, by dotted name."""
    with h5py.File(path, "r") as f:
        return _arrays(f)


def load_timeseries(path):
    """The epoch samples: time_ps then one column per scalar statistic.

    One row per sample kept (every epoch that changed something, and the
    last of each stretch in which only the clock moved: sim.epoch_rows)."""
    with h5py.File(path, "r") as f:
        return _frame(f["timeseries"])


def table_names(path):
    """Names of the record tables in the file."""
    with h5py.File(path, "r") as f:
        return _table_names(f)


def load_table(path, name):
    """Record table /NAME (kernels, batches, ...) as a DataFrame."""
    with h5py.File(path, "r") as f:
        return _table(f, name, path)


def load_run(path):
    """Root attributes (deterministic) and /host figures (host-dependent)."""
    with h5py.File(path, "r") as f:
        return _run_attrs(f, f["host"] if "host" in f else None)


def load_config(path):
    """Every config key in base units (ps, bytes, Hz, bytes/s)."""
    with h5py.File(path, "r") as f:
        return _config(f)


def load_sweep(path):
    """The /points table of a merged sweep as a DataFrame.

    PATH is DIR/sweep.h5 or the sweep's directory DIR.  One row per merged
    point: `name`, one column per axis (values in base units: 75% is 0.75,
    4KiB is 4096), `status`, `sim_time_ps`, `events`, then every scalar
    statistic by dotted name (NaN where a point lacks it).
    df.attrs["axes"] lists the axis keys in sweep order;
    df.attrs["axis_text"][key] lists that axis's values as written in the
    sweep file, in order, and df.attrs["axis_value"][key] the same values
    in base units (NaN for text keys).  df.attrs["missing"] lists the
    points without a valid result as (name, state, exit_code);
    df.attrs["path"] is the file (open_run(path, point=name) reads a
    point's whole run).

    PATH may also be a committed export, validation/results/NAME.points.csv.gz
    (scripts/validation/export_points.py): the same table and attrs, read
    from it and NAME.meta.json beside it, so that every table script runs
    on the results committed with the code (issue 39); open_run cannot
    read its points (the export keeps only the /points table).
    """
    if os.fspath(path).endswith(_COMMITTED):
        return _load_committed(os.fspath(path))
    path = _sweep_file(path)
    with _open(path) as f:
        if "points" not in f:
            raise NotAResult("not a merged sweep (no /points)")
        df = _frame(f["points"])
        axes = [_text(a) for a in f.attrs["axes"]]
        ax = _frame(f["axes"])
        missing = _frame(f["missing"])
    df.attrs["axes"] = axes
    df.attrs["axis_text"] = {}
    df.attrs["axis_value"] = {}
    for key in axes:
        rows = ax[ax["key"] == key].sort_values("position")
        df.attrs["axis_text"][key] = list(rows["text"])
        df.attrs["axis_value"][key] = list(rows["value"])
    df.attrs["missing"] = [tuple(r) for r in
                           missing[["name", "state", "exit_code"]].itertuples(
                               index=False)]
    df.attrs["path"] = path
    return df


_COMMITTED = ".points.csv.gz"


def find_sweep(d, sub, committed):
    """The merged sweep a table script reads from directory D: D/SUB/sweep.h5
    (a sweep run here, e.g. by scripts/reproduce/*.sh) or, where D is
    validation/results, D/COMMITTED.points.csv.gz (the committed export);
    None when D holds neither."""
    for p in (os.path.join(d, sub, "sweep.h5"), os.path.join(d, committed + _COMMITTED)):
        if os.path.exists(p):
            return p
    return None


def _load_committed(path):
    """load_sweep of an export_points.py file (see load_sweep)."""
    import json
    import yaml
    meta_path = path[:-len(_COMMITTED)] + ".meta.json"
    if not os.path.exists(path):
        raise FileNotFoundError(errno.ENOENT, "no such file", path)
    if not os.path.exists(meta_path):
        raise NotAResult(f"no {os.path.basename(meta_path)} beside it")
    with open(meta_path) as f:
        meta = json.load(f)
    # The export writes floats as repr (read back exactly: round_trip) and
    # NaN as 'nan'; text values such as 'none' or 'null' are values.
    df = pd.read_csv(path, compression="gzip", keep_default_na=False,
                     na_values=["nan"], low_memory=False,
                     float_precision="round_trip")
    axes = list(meta.get("axes", []))
    written = {}
    sweep_file = meta.get("sweep_file", "")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(path))))
    for cand in (sweep_file, os.path.join(root, sweep_file)):
        if cand and os.path.isfile(cand):
            with open(cand) as f:
                doc = yaml.safe_load(f) or {}
            written.update({k: list(v) for k, v in (doc.get("axes") or {}).items()})
            for group in doc.get("zip") or []:
                written.update({k: list(v) for k, v in group.items()})
            break
    df.attrs["axes"] = axes
    df.attrs["axis_text"] = {}
    df.attrs["axis_value"] = {}
    for key in axes:
        seen = list(dict.fromkeys(df[key].tolist())) if key in df else []
        text = written.get(key)
        if text is None or len(text) < len(seen):
            text = [str(v) for v in seen]
        df.attrs["axis_text"][key] = [str(t) for t in text]
        df.attrs["axis_value"][key] = [v if isinstance(v, (int, float)) else float("nan")
                                       for v in seen]
    df.attrs["missing"] = [tuple(m) for m in meta.get("missing", [])]
    df.attrs["path"] = path
    return df
