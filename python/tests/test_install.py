"""The package installs from the repository with Debian's tools alone
(no PyPI): a venv that sees Debian's h5py/pandas (--system-site-packages),
pip install --no-build-isolation --no-deps, then three lines of Python in
a fresh process elsewhere load a sweep."""
import os
import shutil
import subprocess
import sys

import pytest

from conftest import PYDIR


def _have(mod):
    return subprocess.run([sys.executable, "-c", f"import {mod}"],
                          capture_output=True).returncode == 0


@pytest.fixture(scope="module")
def venv(tmp_path_factory):
    for mod, pkg in (("venv", "python3-venv"), ("ensurepip", "python3-venv"),
                     ("pip", "python3-pip"), ("setuptools", "python3-setuptools")):
        if not _have(mod):
            pytest.skip(f"python module {mod} missing: apt-get install {pkg}")
    d = tmp_path_factory.mktemp("install")
    # Build from a copy: setuptools writes build/ and *.egg-info next to
    # the sources, which must not land in the repository.
    src = d / "src"
    shutil.copytree(PYDIR, src, ignore=shutil.ignore_patterns(
        "tests", "__pycache__", "build", "*.egg-info"))
    v = d / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages",
                    str(v)], check=True, capture_output=True, timeout=300)
    p = subprocess.run([str(v / "bin" / "python"), "-m", "pip", "install",
                        "--no-build-isolation", "--no-deps", "--no-index",
                        "--disable-pip-version-check", str(src)],
                       capture_output=True, text=True, timeout=300, cwd=d)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    shutil.rmtree(src)          # the installed copy must not need it
    return v


def test_three_lines_load_a_sweep(venv, sweep_dir, tmp_path):
    code = ("import uvmsim; df = uvmsim.load_sweep(p); print(len(df))\n"
            "import os; assert os.path.realpath(uvmsim.__file__)"
            ".startswith(os.path.realpath(v)), uvmsim.__file__\n")
    env = {k: val for k, val in os.environ.items() if k != "PYTHONPATH"}
    p = subprocess.run([str(venv / "bin" / "python"), "-c",
                        f"p = {sweep_dir + '/sweep.h5'!r}; v = {str(venv)!r}\n"
                        + code],
                       cwd=tmp_path, capture_output=True, text=True, env=env)
    assert p.returncode == 0, p.stderr
    assert p.stdout == "6\n"


def test_entry_points(venv, sweep_dir, tmp_path):
    p = subprocess.run([str(venv / "bin" / "uvmsim-read-results"), sweep_dir],
                       cwd=tmp_path, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert "points: 6 of 6 merged" in p.stdout
    p = subprocess.run([str(venv / "bin" / "uvmsim-plot-sweep"), sweep_dir,
                        "--x", "gpu.memory.fraction", "--y", "sim_time_ps",
                        "-o", "f.png"], cwd=tmp_path, capture_output=True,
                       text=True)
    assert p.returncode == 0, p.stderr
    assert (tmp_path / "f.png").read_bytes()[:4] == b"\x89PNG"
