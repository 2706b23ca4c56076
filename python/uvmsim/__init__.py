"""uvmsim's result files in pandas (docs/results.md).

    import uvmsim
    run = uvmsim.open_run("run.h5")       # .config .stats .tables .timeseries .run
    df = uvmsim.load_sweep("DIR/sweep.h5")  # one row per point; df.attrs["axes"]
    uvmsim.plot_sweep(df, "workload.pattern.type", "sim_time_ps", speedup=True,
                      normalize_to="driver.eviction=lru", group="driver.eviction",
                      facet="gpu.memory.fraction", output="hpe.png")

Needs h5py and pandas (Debian: python3-h5py, python3-pandas); the plots
need matplotlib (python3-matplotlib).
"""
from .results import (NotAResult, Run, find_sweep, is_sweep, load_arrays, load_config,
                      load_run, load_stats, load_sweep, load_table,
                      load_timeseries, open_run, table_names)
from .sweep import (GM, Axis, Panel, Panels, SweepError, aggregate, axes_of,
                    normalize, panels_markdown, select, sweep_panels,
                    sweep_table)
from .plot import draw_panels, plot_sweep
from .compare import effect_verdict, f3, gmean, verdict
from .verdict import judge as verdict_of  # noqa: E402
import sys as _sys
# The module itself (uvmsim.verdict is the ratio function, kept for its
# callers; the module is uvmsim.verdicts or `from uvmsim.verdict import ...`).
verdicts = _sys.modules[__name__ + ".verdict"]

__version__ = "0.1.0"

__all__ = [
    "NotAResult", "Run", "open_run", "load_sweep", "find_sweep", "is_sweep",
    "load_stats", "load_arrays", "load_timeseries", "load_table",
    "table_names", "load_run", "load_config",
    "SweepError", "Axis", "axes_of", "select", "aggregate", "normalize",
    "Panel", "Panels", "sweep_panels", "panels_markdown", "sweep_table",
    "GM", "plot_sweep", "draw_panels",
    "gmean", "verdict", "effect_verdict", "f3", "verdicts", "verdict_of",
]
