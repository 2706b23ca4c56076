#!/usr/bin/python3
"""Read a uvmsim result file (schema: docs/results.md) with h5py and pandas.

    read_results.py RESULT.h5          # summary of the run

Importable:
    load_stats(path)        -> pd.Series of scalar statistics, by dotted name
    load_arrays(path)       -> dict of vector/histogram statistics (numpy)
    load_timeseries(path)   -> pd.DataFrame, one row per epoch
    load_table(path, name)  -> pd.DataFrame, one row per record
    table_names(path)       -> names of the record tables in the file
    load_run(path)          -> dict of the root attributes and /host figures
    load_config(path)       -> dict of config key -> value (base units)
"""
import signal
import sys

import h5py
import numpy as np
import pandas as pd

# Root objects that are not record tables.
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


def _stat_datasets(path):
    """(dotted name, dataset) pairs of /stats, in name order."""
    found = []
    with h5py.File(path, "r") as f:
        def visit(name, obj):
            if isinstance(obj, h5py.Dataset):
                found.append((name.replace("/", "."), obj[()],
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
    data = dataset[()]
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


def main(argv):
    if len(argv) != 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    path = argv[1]
    pd.set_option("display.width", 120)
    pd.set_option("display.max_rows", 200)

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
