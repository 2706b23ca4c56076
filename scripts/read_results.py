#!/usr/bin/python3
"""Read a uvmsim result file (schema: docs/results.md) with h5py and pandas.

    read_results.py RESULT.h5          # summary of the run

Importable:
    load_stats(path)        -> pd.Series of scalar statistics, by dotted name
    load_arrays(path)       -> dict of vector/histogram statistics (numpy)
    load_timeseries(path)   -> pd.DataFrame, one row per sample kept
                               (every epoch that changed something, and the
                               last of each stretch in which only the clock
                               moved: sim.epoch_rows)
    load_table(path, name)  -> pd.DataFrame, one row per record
    table_names(path)       -> names of the record tables in the file
    load_run(path)          -> dict of the root attributes and /host figures
    load_config(path)       -> dict of config key -> value (base units)
    load_sweep(path)        -> pd.DataFrame of a merged sweep (DIR/sweep.h5),
                               one row per point: name, axes, every scalar
                               statistic

A file that is not a readable uvmsim result (damaged, truncated, another
program's HDF5, a dataset larger than its stored bytes can hold) raises
NotAResult from the functions and, on the command line, prints one line
and exits 2.
"""
import signal
import sys

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


# Root objects that are not record tables.
_NOT_TABLES = {"config", "stats", "timeseries", "host"}
# Root objects of a merged sweep (docs/results.md, "Sweep files").
_SWEEP_TABLES = {"points", "axes", "missing"}


def _text(v):
    """h5py returns fixed-length strings as bytes; callers want str."""
    if isinstance(v, (bytes, np.bytes_)):
        return v.decode("utf-8", errors="replace")
    return v


def _scalar(v):
    """numpy scalars to plain Python values, for printing and dicts."""
    v = _text(v)
    return v.item() if isinstance(v, np.generic) else v


def _stat_datasets(path):
    """(dotted name, dataset) pairs of /stats, in name order."""
    found = []
    with h5py.File(path, "r") as f:
        def visit(name, obj):
            if isinstance(obj, h5py.Dataset):
                found.append((name.replace("/", "."), _read(obj),
                              _text(obj.attrs.get("kind", ""))))
        f["stats"].visititems(visit)
    return found


def load_stats(path):
    """Scalar statistics (counters, averages as their mean, reals)."""
    data = {name: _scalar(value) for name, value, _ in _stat_datasets(path)
            if np.ndim(value) == 0}
    return pd.Series(data, dtype=object).sort_index()


def load_arrays(path):
    """Vector and histogram statistics as numpy arrays, by dotted name."""
    return {name: value for name, value, _ in _stat_datasets(path)
            if np.ndim(value) == 1}


def _frame(dataset):
    data = _read(dataset)
    df = pd.DataFrame(data)
    for col in data.dtype.names or ():
        if data.dtype[col].kind == "S":
            df[col] = df[col].map(_text)
    return df


def load_timeseries(path):
    """The epoch samples: time_ps then one column per scalar statistic."""
    with h5py.File(path, "r") as f:
        return _frame(f["timeseries"])


def table_names(path):
    with h5py.File(path, "r") as f:
        return [k for k in f.keys()
                if k not in _NOT_TABLES and isinstance(f[k], h5py.Dataset)]


def load_table(path, name):
    """Record table /NAME (kernels, batches, ...) as a DataFrame."""
    with h5py.File(path, "r") as f:
        if name in _NOT_TABLES or name not in f:
            raise KeyError(f"{path}: no record table '{name}'")
        return _frame(f[name])


def load_run(path):
    """Root attributes (deterministic) and /host figures (host-dependent)."""
    with h5py.File(path, "r") as f:
        run = {k: _scalar(v) for k, v in f.attrs.items()}
        if "host" in f:
            run.update({"host." + k: _scalar(v)
                        for k, v in f["host"].attrs.items()})
    return run


def load_config(path):
    """Every config key in base units (ps, bytes, Hz, bytes/s)."""
    with h5py.File(path, "r") as f:
        return {k: _scalar(v) for k, v in f["config"].attrs.items()
                if k != "yaml"}


def load_sweep(path):
    """The /points table of a merged sweep as a DataFrame.

    One row per merged point: `name`, one column per axis (values in base
    units: 75% is 0.75, 4KiB is 4096), `status`, `sim_time_ps`, `events`,
    then every scalar statistic by dotted name (NaN where a point lacks
    it).  df.attrs["axes"] lists the axis keys in sweep order;
    df.attrs["axis_text"][key] lists that axis's values as written in the
    sweep file, in order, and df.attrs["axis_value"][key] the same values
    in base units (NaN for text keys).  df.attrs["missing"] lists the
    points without a valid result as (name, state, exit_code).
    """
    with h5py.File(path, "r") as f:
        if "points" not in f:
            raise KeyError(f"{path}: not a merged sweep (no /points)")
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
    return df


def _main_sweep(path):
    df = load_sweep(path)
    with h5py.File(path, "r") as f:
        print(f"== sweep: {path} ({_text(f.attrs['sweep_file'])})")
        print(f"  points: {f.attrs['points_merged']} of "
              f"{f.attrs['points_planned']} merged")
    print("  axes: " + ", ".join(df.attrs["axes"]))
    for name, state, code in df.attrs["missing"]:
        print(f"  missing {name} ({state}"
              + (f", exit {code})" if state == "failed" else ")"))
    cols = ["name"] + df.attrs["axes"] + ["status", "sim_time_ps"]
    print(df[cols].to_string(index=False))
    return 0


def main(argv):
    try:
        return _main(argv)
    except (NotAResult, OSError, KeyError, ValueError, TypeError,
            IndexError, AttributeError, RuntimeError, UnicodeError) as e:
        # h5py reports a damaged file as OSError/KeyError/RuntimeError, a
        # missing object as KeyError, a wrong type as TypeError/ValueError.
        msg = " ".join(str(e).split())[:300] or type(e).__name__
        path = argv[1] if len(argv) > 1 else ""
        print(f"read_results.py: {path}: not a readable uvmsim result ({msg})",
              file=sys.stderr)
        return 2


def _main(argv):
    if len(argv) != 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    path = argv[1]
    pd.set_option("display.width", 120)
    pd.set_option("display.max_rows", 200)
    with h5py.File(path, "r") as f:
        is_sweep = "points" in f and "runs" in f
    if is_sweep:
        return _main_sweep(path)

    print(f"== run: {path}")
    for k, v in load_run(path).items():
        print(f"  {k}: {v}")

    print("== config")
    for k, v in load_config(path).items():
        print(f"  {k}: {v}")

    print("== scalar statistics")
    stats = load_stats(path)
    print(stats.to_string() if len(stats) else "  (none)")
    arrays = load_arrays(path)
    if arrays:
        print("== vector and histogram statistics")
        for k, v in arrays.items():
            print(f"  {k}: {np.array2string(v, threshold=16)}")

    ts = load_timeseries(path)
    print(f"== time series: {len(ts)} rows x {len(ts.columns)} columns")
    if len(ts):
        head = ts.head(10)
        # Many statistics: one line per statistic reads better.
        print((head.astype(object).T if len(ts.columns) > 10 else head)
              .to_string())

    for name in table_names(path):
        t = load_table(path, name)
        print(f"== table /{name}: {len(t)} rows")
        if len(t):
            print(t.head(20).to_string())
    return 0


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)   # quiet under `| head`
    sys.exit(main(sys.argv))
