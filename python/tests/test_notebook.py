"""python/examples/hpe_comparison.ipynb, executed headless (nbclient and
ipykernel from Debian) on a reduced HPE sweep: it runs without error, draws
its figure, and its speedups are the ones h5py alone gives."""
import math
import os
import re

import h5py
import pytest

from conftest import PYDIR, run_sim, write_sweep

nbformat = pytest.importorskip(
    "nbformat", reason="apt-get install python3-nbformat python3-nbclient "
                       "python3-ipykernel")
nbclient = pytest.importorskip(
    "nbclient", reason="apt-get install python3-nbclient python3-ipykernel")
pytest.importorskip("ipykernel", reason="apt-get install python3-ipykernel")

NOTEBOOK = os.path.join(PYDIR, "examples", "hpe_comparison.ipynb")
PATTERNS = ["thrashing", "part-repetitive"]
FRACS = [0.75, 0.5]


@pytest.fixture(scope="module")
def hpe_sweep(uvmsim_bin, tmp_path_factory):
    """configs/sweeps/hpe.yaml cut to LRU and HPE, two patterns: 8 points."""
    d = tmp_path_factory.mktemp("hpe")
    y = write_sweep(d / "hpe.yaml",
                    {"driver.eviction": ["lru", "hpe"],
                     "gpu.memory.fraction": ["75%", "50%"],
                     "workload.pattern.type": PATTERNS})
    run_sim(uvmsim_bin, "sweep", "run", str(y), "-o", str(d / "out"))
    return str(d / "out" / "sweep.h5")


def test_notebook_runs_headless(hpe_sweep, monkeypatch):
    monkeypatch.setenv("UVMSIM_SWEEP", hpe_sweep)
    monkeypatch.setenv("PYTHONPATH", PYDIR)     # the repository's package
    monkeypatch.delenv("DISPLAY", raising=False)
    nb = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(
        nb, timeout=120, kernel_name="python3",
        resources={"metadata": {"path": os.path.dirname(NOTEBOOK)}})
    client.execute()            # raises CellExecutionError on any error

    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    text = "".join(o.get("text", "") for o in outputs if o.output_type == "stream")
    assert "8 points; axes: driver.eviction, gpu.memory.fraction, " \
           "workload.pattern.type" in text
    assert any("image/png" in o.get("data", {}) for o in outputs), \
        "the plot cell shows a figure"

    # The geometric means it prints, against h5py alone.
    with h5py.File(hpe_sweep, "r") as f:
        pts = f["points"][:]
    t = {(r["driver.eviction"].decode(), float(r["gpu.memory.fraction"]),
          r["workload.pattern.type"].decode()): float(r["sim_time_ps"])
         for r in pts}
    for m in FRACS:
        sp = [t[("lru", m, w)] / t[("hpe", m, w)] for w in PATTERNS]
        want = math.exp(sum(map(math.log, sp)) / len(sp))
        got = re.search(rf"^hpe over lru at {m:g}: ([0-9.]+)$", text, re.M)
        assert got, text
        assert float(got.group(1)) == pytest.approx(want, abs=5e-5)
    # The last cell: a point's batches conserve its migrated pages.
    last = re.search(r"^(\S+) completed (\d+) batches, (\d+) pages = (\d+)$",
                     text, re.M)
    assert last and last.group(3) == last.group(4), text
