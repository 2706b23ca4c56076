"""Fixtures: small results made by running build/uvmsim on tiny configs.

The package under test is the repository's python/uvmsim (not an installed
copy).  The simulator is $UVMSIM, else build/uvmsim of the repository.
"""
import os
import subprocess
import sys

import pytest

PYDIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(PYDIR)
sys.path.insert(0, PYDIR)

# docs/sweeps.md: the product of the axes, the first varying slowest.
EVICTIONS = ["lru", "fifo"]
FRACTIONS = ["75%", "50%", "25%"]
FRACTION_VALUES = [0.75, 0.5, 0.25]


def _binary():
    b = os.environ.get("UVMSIM")
    if b:
        if not os.access(b, os.X_OK):
            pytest.fail(f"UVMSIM={b} is not an executable")
        return b
    b = os.path.join(REPO, "build", "uvmsim")
    if not os.access(b, os.X_OK):
        pytest.skip("build/uvmsim not built (run make first, or set UVMSIM)")
    return b


@pytest.fixture(scope="session")
def uvmsim_bin():
    return _binary()


def run_sim(binary, *args):
    p = subprocess.run([binary, *args], cwd=REPO, capture_output=True,
                       text=True, timeout=300)
    assert p.returncode == 0, f"uvmsim {' '.join(args)}: {p.stderr[-2000:]}"
    return p


# The e2e scripts' small machine (tests/e2e_lib.sh SMALL): 2 MiB of stream,
# a sample every 5 us.
SMALL = ["-s", "workload.stream.footprint=2MiB", "-s", "sim.epoch=5us"]


@pytest.fixture(scope="session")
def run_file(uvmsim_bin, tmp_path_factory):
    out = tmp_path_factory.mktemp("run") / "a.h5"
    run_sim(uvmsim_bin, "run", "configs/default.yaml", *SMALL, "--seed", "7",
            "--quiet", "-o", str(out))
    return str(out)


def write_sweep(path, axes, set_lines=()):
    """A sweep file on the paper's machine with a 64-page pattern."""
    lines = [f"base: {REPO}/configs/default.yaml", "set:",
             "  workload.kind: pattern", "  workload.pattern.pages: 64",
             *set_lines, "axes:"]
    lines += [f"  {k}: [{', '.join(v)}]" for k, v in axes.items()]
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.fixture(scope="session")
def sweep_dir(uvmsim_bin, tmp_path_factory):
    """2 policies x 3 memory sizes on the thrashing pattern: 6 points."""
    d = tmp_path_factory.mktemp("sweep")
    y = write_sweep(d / "s.yaml",
                    {"driver.eviction": EVICTIONS,
                     "gpu.memory.fraction": FRACTIONS},
                    ["  workload.pattern.type: thrashing"])
    run_sim(uvmsim_bin, "sweep", "run", str(y), "-o", str(d / "out"))
    return str(d / "out")
