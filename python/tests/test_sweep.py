"""load_sweep and the sweep shaping on a 2 x 3 sweep made here."""
import itertools
import math

import pytest

import uvmsim
from conftest import EVICTIONS, FRACTIONS, FRACTION_VALUES


def test_six_rows_with_the_axes_values(sweep_dir):
    df = uvmsim.load_sweep(sweep_dir + "/sweep.h5")
    assert len(df) == 6
    assert df.attrs["axes"] == ["driver.eviction", "gpu.memory.fraction"]
    assert df.attrs["axis_text"]["gpu.memory.fraction"] == FRACTIONS
    assert df.attrs["axis_value"]["gpu.memory.fraction"] == FRACTION_VALUES
    assert df.attrs["axis_text"]["driver.eviction"] == EVICTIONS
    assert all(math.isnan(v) for v in df.attrs["axis_value"]["driver.eviction"])
    # Plan order: the product, the first axis varying slowest.
    assert list(zip(df["driver.eviction"], df["gpu.memory.fraction"])) == \
        list(itertools.product(EVICTIONS, FRACTION_VALUES))
    assert df.attrs["missing"] == []
    assert (df["status"] == "completed").all()


def test_directory_or_file(sweep_dir):
    a = uvmsim.load_sweep(sweep_dir)
    b = uvmsim.load_sweep(sweep_dir + "/sweep.h5")
    assert a.equals(b)


def test_rows_are_the_points_runs(sweep_dir):
    df = uvmsim.load_sweep(sweep_dir)
    for _, row in df.iterrows():
        r = uvmsim.open_run(df.attrs["path"], point=row["name"])
        assert r.run["sim_time_ps"] == row["sim_time_ps"]
        assert r.config["driver.eviction"] == row["driver.eviction"]
        assert r.config["gpu.memory.fraction"] == row["gpu.memory.fraction"]
        for k, v in r.stats.items():
            assert row[k] == v, (row["name"], k)
        # The point's batches conserve its migrated pages, as a run's do.
        assert r.table("batches")["pages"].sum() == row["driver.pages_migrated"]
    with pytest.raises(uvmsim.NotAResult, match="load_sweep"):
        uvmsim.open_run(df.attrs["path"])
    with pytest.raises(KeyError):
        uvmsim.open_run(df.attrs["path"], point="no_such_point")


def test_less_memory_is_not_faster(sweep_dir):
    # The thrashing pattern on less GPU memory evicts more: never fewer
    # evictions, never less time (same policy, same references).
    df = uvmsim.load_sweep(sweep_dir)
    for ev in EVICTIONS:
        sub = df[df["driver.eviction"] == ev].sort_values(
            "gpu.memory.fraction", ascending=False)
        assert sub["driver.evictions"].is_monotonic_increasing
        assert sub["sim_time_ps"].is_monotonic_increasing


def test_select_by_text_or_number(sweep_dir):
    df = uvmsim.load_sweep(sweep_dir)
    a = uvmsim.select(df, ["gpu.memory.fraction=50%"])
    b = uvmsim.select(df, {"gpu.memory.fraction": 0.5})
    assert list(a["name"]) == list(b["name"]) == ["lru_50pct", "fifo_50pct"]
    assert (a["gpu.memory.fraction"] == 0.5).all()
    with pytest.raises(uvmsim.SweepError, match="no value '10%'"):
        uvmsim.select(df, ["gpu.memory.fraction=10%"])
    with pytest.raises(uvmsim.SweepError, match="not an axis"):
        uvmsim.select(df, ["workload.kind=pattern"])


def test_normalize(sweep_dir):
    df = uvmsim.load_sweep(sweep_dir)
    g = uvmsim.normalize(df, "sim_time_ps", "driver.eviction=lru",
                         speedup=True)
    assert len(g) == 6
    t = {(r["driver.eviction"], r["gpu.memory.fraction"]): r["sim_time_ps"]
         for _, r in df.iterrows()}
    for _, r in g.iterrows():
        want = t[("lru", r["gpu.memory.fraction"])] / r["sim_time_ps"]
        assert r["normalized"] == pytest.approx(want, rel=1e-12)
    assert (g[g["driver.eviction"] == "lru"]["normalized"] == 1).all()
    assert g.attrs["label"] == "speedup over driver.eviction=lru"
    # Divided instead, over the memory axis only: the policies averaged.
    h = uvmsim.normalize(df, "driver.evictions", "gpu.memory.fraction=75%",
                         keys=["gpu.memory.fraction"])
    assert len(h) == 3
    mean = df.groupby("gpu.memory.fraction")["driver.evictions"].mean()
    assert h.set_index("gpu.memory.fraction")["normalized"][0.5] == \
        pytest.approx(mean[0.5] / mean[0.75])
    with pytest.raises(uvmsim.SweepError, match="no value 'lfu'"):
        uvmsim.normalize(df, "sim_time_ps", "driver.eviction=lfu")


def test_panels_geometric_mean(sweep_dir):
    df = uvmsim.load_sweep(sweep_dir)
    p = uvmsim.sweep_panels(df, "gpu.memory.fraction", "sim_time_ps",
                            group="driver.eviction", speedup=True,
                            normalize_to="driver.eviction=lru")
    assert len(p.panels) == 1 and p.averaged == []
    pan = p.panels[0]
    assert pan.x_labels == FRACTIONS + [uvmsim.GM]
    assert pan.group_labels == EVICTIONS
    fifo = pan.series[1]
    t = {(r["driver.eviction"], r["gpu.memory.fraction"]): r["sim_time_ps"]
         for _, r in df.iterrows()}
    want = [t[("lru", m)] / t[("fifo", m)] for m in FRACTION_VALUES]
    assert fifo[:3] == pytest.approx(want, rel=1e-12)
    assert fifo[3] == pytest.approx(math.prod(want) ** (1 / 3), rel=1e-12)
    assert pan.series[0] == [1.0] * 4


def test_panels_average_and_facets(sweep_dir):
    df = uvmsim.load_sweep(sweep_dir)
    seen = []
    p = uvmsim.sweep_panels(df, "gpu.memory.fraction", "driver.evictions",
                            on_average=seen.append)
    assert p.averaged == [("driver.eviction", 2)] and seen == [p.averaged]
    mean = df.groupby("gpu.memory.fraction")["driver.evictions"].mean()
    assert p.panels[0].series[0] == [mean[m] for m in FRACTION_VALUES]
    q = uvmsim.sweep_panels(df, "driver.eviction", "events",
                            facet="gpu.memory.fraction")
    assert [x.title for x in q.panels] == \
        [f"gpu.memory.fraction = {m}" for m in FRACTIONS]


def test_markdown_table(sweep_dir):
    df = uvmsim.load_sweep(sweep_dir)
    md = uvmsim.sweep_table(df, "gpu.memory.fraction", "sim_time_ps",
                            group="driver.eviction", speedup=True,
                            normalize_to="driver.eviction=lru")
    rows = [line for line in md.splitlines() if line.startswith("| ")]
    assert rows[0] == "| gpu.memory.fraction | lru | fifo |"
    assert [r.split("|")[1].strip() for r in rows[1:]] == FRACTIONS + ["GM"]
    assert all(r.split("|")[2].strip() == "1" for r in rows[1:])


def test_errors_name_the_option(sweep_dir):
    df = uvmsim.load_sweep(sweep_dir)
    with pytest.raises(uvmsim.SweepError, match="did you mean sim_time_ps"):
        uvmsim.sweep_panels(df, "driver.eviction", "sim_time_pss")
    with pytest.raises(uvmsim.SweepError, match="--line needs a numeric"):
        uvmsim.sweep_panels(df, "driver.eviction", "sim_time_ps", line=True)
    with pytest.raises(uvmsim.SweepError, match="different axes"):
        uvmsim.sweep_panels(df, "driver.eviction", "sim_time_ps",
                            group="driver.eviction")


def test_not_a_sweep(run_file):
    with pytest.raises(uvmsim.NotAResult, match="not a merged sweep"):
        uvmsim.load_sweep(run_file)
    assert not uvmsim.is_sweep(run_file)
