"""The command lines (scripts/read_results.py, scripts/plot_sweep.py and
the package's entry points behind them)."""
import os
import subprocess
import sys

import h5py

from conftest import REPO
from uvmsim.cli import plot_sweep_main, read_results_main


def test_read_results_summary(run_file, capsys):
    assert read_results_main([run_file]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"== run: {run_file}\n")
    for section in ("== config", "== scalar statistics", "== time series:",
                    "== table /kernels:", "== table /batches:"):
        assert "\n" + section in out


def test_read_results_sweep(sweep_dir, capsys):
    assert read_results_main([sweep_dir + "/sweep.h5"]) == 0
    out = capsys.readouterr().out
    assert "  points: 6 of 6 merged\n" in out
    assert "  axes: driver.eviction, gpu.memory.fraction\n" in out


def test_read_results_refuses_in_one_line(tmp_path, capsys):
    other = tmp_path / "other.h5"
    with h5py.File(other, "w") as f:
        f["x"] = [1]
    assert read_results_main([str(other)]) == 2
    cap = capsys.readouterr()
    assert cap.out == ""            # no partial summary
    assert cap.err.count("\n") == 1
    assert cap.err.startswith(f"read_results.py: {other}: not a readable "
                              "uvmsim result (")


def test_plot_sweep_table(sweep_dir, capsys):
    rc = plot_sweep_main([sweep_dir + "/sweep.h5", "--x", "gpu.memory.fraction",
                          "--y", "sim_time_ps", "--group", "driver.eviction",
                          "--speedup", "--normalize-to", "driver.eviction=lru",
                          "--table"])
    assert rc == 0
    out = capsys.readouterr().out
    assert out.startswith("| gpu.memory.fraction | lru | fifo |\n|---|---:|---:|\n")
    rows = [r for r in out.splitlines() if r.startswith("| ")]
    assert len(rows) == 1 + 3 + 1                  # header, 3 sizes, GM
    assert rows[-1].startswith("| GM | 1 | ")


def test_plot_sweep_errors(sweep_dir, run_file, capsys):
    s = sweep_dir + "/sweep.h5"
    assert plot_sweep_main([s, "--x", "sim.seed", "--y", "events"]) == 2
    assert "plot_sweep.py: --x sim.seed: not an axis" in capsys.readouterr().err
    assert plot_sweep_main([run_file, "--x", "a", "--y", "b"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not a merged sweep" in err


def test_scripts_use_the_repository_package(sweep_dir, tmp_path):
    # From another directory, without installing: the wrappers put
    # python/ on the path themselves.
    p = subprocess.run([sys.executable, os.path.join(REPO, "scripts",
                                                     "read_results.py"),
                        sweep_dir], cwd=tmp_path, capture_output=True,
                       text=True, env={**os.environ, "PYTHONPATH": ""})
    assert p.returncode == 0, p.stderr
    assert "points: 6 of 6 merged" in p.stdout
    p = subprocess.run([sys.executable, "-c",
                        "import sys; sys.path.insert(0, sys.argv[1]); "
                        "from read_results import load_sweep, NotAResult; "
                        "import uvmsim; assert NotAResult is uvmsim.NotAResult; "
                        "print(len(load_sweep(sys.argv[2])))",
                        os.path.join(REPO, "scripts"), sweep_dir],
                       cwd=tmp_path, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert p.stdout == "6\n"
