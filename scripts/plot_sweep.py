#!/usr/bin/python3
"""Plot a merged uvmsim sweep (DIR/sweep.h5; docs/sweeps.md).

    plot_sweep.py SWEEP.h5 --x AXIS --y STAT [--group AXIS] [--facet AXIS]
                  [--normalize-to AXIS=VALUE] [--speedup] [--where AXIS=VALUE]...
                  [--line] [--no-gmean] [-o OUT.png|OUT.pdf] [--table]

A thin wrapper over the uvmsim package (python/uvmsim; --help for the
options); from Python: uvmsim.plot_sweep and uvmsim.sweep_table.
"""
import os
import signal
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "python"))
from uvmsim.cli import plot_sweep_main  # noqa: E402

if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    sys.exit(plot_sweep_main(sys.argv[1:]))
