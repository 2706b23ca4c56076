#!/usr/bin/python3
"""Read a uvmsim result file (schema: docs/results.md) with h5py and pandas.

    read_results.py RESULT.h5          # summary of the run
    read_results.py DIR/sweep.h5       # the points of a merged sweep

A thin wrapper over the uvmsim package (python/uvmsim), used from the
repository without installing it.  Its functions stay importable here
(load_stats, load_arrays, load_timeseries, load_table, table_names,
load_run, load_config, load_sweep, NotAResult); new code: import uvmsim.
"""
import os
import signal
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "python"))
from uvmsim.results import (NotAResult, load_arrays, load_config,  # noqa: E402,F401
                            load_run, load_stats, load_sweep, load_table,
                            load_timeseries, table_names)
from uvmsim.cli import read_results_main  # noqa: E402

__all__ = ["NotAResult", "load_arrays", "load_config", "load_run", "load_stats",
           "load_sweep", "load_table", "load_timeseries", "table_names"]

if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)   # quiet under `| head`
    sys.exit(read_results_main(sys.argv[1:]))
