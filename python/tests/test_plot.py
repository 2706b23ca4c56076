"""Figures of the 2 x 3 sweep: files written, one bar per cell."""
import pytest

import uvmsim

matplotlib = pytest.importorskip("matplotlib")


def test_png_and_pdf(sweep_dir, tmp_path):
    df = uvmsim.load_sweep(sweep_dir)
    png, pdf = tmp_path / "s.png", tmp_path / "s.pdf"
    uvmsim.plot_sweep(df, "gpu.memory.fraction", "sim_time_ps",
                      group="driver.eviction", speedup=True,
                      normalize_to="driver.eviction=lru", output=str(png))
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    uvmsim.plot_sweep(df, "driver.eviction", "driver.evictions",
                      facet="gpu.memory.fraction", output=str(pdf))
    assert pdf.read_bytes()[:4] == b"%PDF"


def test_bars_per_panel(sweep_dir):
    df = uvmsim.load_sweep(sweep_dir)
    fig = uvmsim.plot_sweep(df, "driver.eviction", "sim_time_ps",
                            facet="gpu.memory.fraction",
                            normalize_to="driver.eviction=fifo")
    axes = fig.get_axes()
    assert len(axes) == 3                          # one panel per size
    for ax in axes:
        # 2 policies + the GM cluster, one bar each (no group).
        assert len(ax.patches) == 3
        heights = [b.get_height() for b in ax.patches]
        assert heights[1] == pytest.approx(1.0)    # fifo against itself
    import matplotlib.pyplot as plt
    plt.close(fig)


def test_lines(sweep_dir):
    df = uvmsim.load_sweep(sweep_dir)
    fig = uvmsim.plot_sweep(df, "gpu.memory.fraction", "sim_time_ps",
                            group="driver.eviction", line=True)
    ax = fig.get_axes()[0]
    assert len(ax.get_lines()) == 2
    x = list(ax.get_lines()[0].get_xdata())
    assert x == [0.75, 0.5, 0.25]
    import matplotlib.pyplot as plt
    plt.close(fig)
