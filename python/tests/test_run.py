"""open_run on a run file: what the file holds, checked by properties
derived independently of the reader (conservation, units, the config)."""
import h5py
import numpy as np
import pytest

import uvmsim


def test_config_in_base_units(run_file):
    r = uvmsim.open_run(run_file)
    # Set on the command line: 5 us and 2 MiB, in ps and bytes.
    assert r.config["sim.epoch"] == 5 * 10**6
    assert r.config["workload.stream.footprint"] == 2 * 2**20
    assert r.config["sim.seed"] == 7
    assert "yaml" not in r.config
    # The YAML holds every key as written (sim: is its first section).
    assert r.yaml.startswith("sim:\n") and "\n  epoch: 5us\n" in r.yaml
    assert "\n  seed: 7\n" in r.yaml


def test_run_attributes(run_file):
    r = uvmsim.open_run(run_file)
    assert r.run["status"] == "completed"
    assert r.run["seed"] == r.config["sim.seed"]
    # The time series' last sample is the end of the run (docs/results.md).
    assert r.timeseries["time_ps"].iloc[-1] == r.run["sim_time_ps"]
    assert any(k.startswith("host.") for k in r.run)


def test_batches_conserve_migrated_pages(run_file):
    r = uvmsim.open_run(run_file)
    b = r.table("batches")
    assert len(b) > 0
    # Every migrated page came in one batch, every batch has an end after
    # its start.
    assert b["pages"].sum() == r.stats["driver.pages_migrated"]
    assert (b["end_ps"] >= b["start_ps"]).all()
    # The stream workload launches its kernels: one row each.
    assert len(r.table("kernels")) == r.stats["gpu.kernels"]


def test_timeseries_is_cumulative(run_file):
    r = uvmsim.open_run(run_file)
    ts = r.timeseries
    assert ts.columns[0] == "time_ps"
    assert ts["time_ps"].is_monotonic_increasing
    for c in ("gpu.warp_insts", "driver.pages_migrated"):
        assert ts[c].is_monotonic_increasing
        assert ts[c].iloc[-1] == r.stats[c]


def test_tables_and_names(run_file):
    r = uvmsim.open_run(run_file)
    assert set(r.tables) == set(r.table_names)
    assert {"kernels", "batches"} <= set(r.table_names)
    assert not {"config", "stats", "timeseries", "host"} & set(r.table_names)
    kernels = r.tables["kernels"]
    assert isinstance(kernels["name"].iloc[0], str)     # string32 decoded
    with pytest.raises(KeyError):
        r.table("no_such_table")


def test_arrays_are_vectors(run_file):
    r = uvmsim.open_run(run_file)
    per_sm = r.arrays["sm.warp_insts"]
    assert per_sm.ndim == 1 and len(per_sm) == r.config["gpu.sms"]
    assert per_sm.sum() == r.stats["gpu.warp_insts"]


def test_path_functions_agree(run_file):
    r = uvmsim.open_run(run_file)
    assert uvmsim.load_stats(run_file).equals(r.stats)
    assert uvmsim.load_config(run_file) == r.config
    assert uvmsim.load_run(run_file) == r.run
    assert uvmsim.load_timeseries(run_file).equals(r.timeseries)
    assert uvmsim.table_names(run_file) == r.table_names


def test_not_a_result(tmp_path, run_file):
    other = tmp_path / "other.h5"
    with h5py.File(other, "w") as f:
        f["x"] = [1, 2, 3]
    with pytest.raises(uvmsim.NotAResult):
        uvmsim.open_run(other)
    # 2^40 doubles over no stored chunk: refused, not allocated.
    huge = tmp_path / "huge.h5"
    with h5py.File(huge, "w") as f:
        f.create_group("stats")
        f.create_group("config")
        f.create_dataset("timeseries", shape=(2**40,), dtype="f8",
                         chunks=(1024,))
    with pytest.raises(uvmsim.NotAResult, match="claims"):
        uvmsim.open_run(huge).timeseries
    data = open(run_file, "rb").read()
    trunc = tmp_path / "trunc.h5"
    trunc.write_bytes(data[: len(data) // 2])
    with pytest.raises(uvmsim.NotAResult):
        uvmsim.open_run(trunc)
    with pytest.raises(FileNotFoundError):
        uvmsim.open_run(tmp_path / "none.h5")


def test_stats_are_plain_values(run_file):
    s = uvmsim.open_run(run_file).stats
    assert all(not isinstance(v, np.generic) for v in s.values)
