"""scripts/validation/export_points.py on a hand-made merged sweep file
(the layout of docs/results.md's /points, /runs, /host; no simulation)."""
import csv
import gzip
import importlib.util
import json
import os

import h5py
import numpy as np

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _export():
    spec = importlib.util.spec_from_file_location(
        "export_points", os.path.join(REPO, "scripts", "validation", "export_points.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.main


def _sweep(path):
    dt = np.dtype([("name", "S16"), ("driver.eviction", "S8"), ("gpu.memory.fraction", "<f8"),
                   ("status", "S12"), ("sim_time_ps", "<u8"), ("driver.evictions", "<f8")])
    rows = np.array([(b"lru_75pct", b"lru", 0.75, b"completed", 1000, 10.0),
                     (b"hpe_75pct", b"hpe", 0.75, b"completed", 800, 0.1 + 0.2)], dtype=dt)
    with h5py.File(path, "w") as f:
        f.create_dataset("points", data=rows)
        f.attrs["axes"] = np.array(["driver.eviction", "gpu.memory.fraction"], dtype=object)
        f.attrs["sweep_file"] = "configs/sweeps/toy.yaml"
        f.attrs["points_planned"] = 3
        f.attrs["model_revision"] = 1
        f.create_dataset("missing", data=np.array([(b"fifo_75pct", b"failed", 1)],
                         dtype=[("name", "S16"), ("state", "S8"), ("exit_code", "<i4")]))
        for n, cpu, rev in (("lru_75pct", 1.5, 1), ("hpe_75pct", 2.25, 2)):
            r = f.create_group(f"runs/{n}")
            r.attrs["uvmsim_version"] = "0.1.0"
            r.attrs["model_revision"] = rev
            r.attrs["seed"] = 1
            f.create_group(f"host/{n}").attrs["cpu_seconds"] = cpu


def test_export(tmp_path):
    src = tmp_path / "sweep.h5"
    _sweep(src)
    main = _export()
    assert main([str(src), str(tmp_path / "out"), "--binary-commit", "abc1234",
                 "--cpu-seconds", "4.5"]) == 0
    with gzip.open(tmp_path / "out" / "toy.points.csv.gz", "rt") as f:
        rows = list(csv.DictReader(f))
    assert [r["name"] for r in rows] == ["lru_75pct", "hpe_75pct"]
    assert list(rows[0])[:4] == ["name", "driver.eviction", "gpu.memory.fraction", "status"]
    # each point names the binary that ran it; floats round-trip exactly
    assert [r["model_revision"] for r in rows] == ["1", "2"]
    assert rows[1]["uvmsim_version"] == "0.1.0"
    assert float(rows[1]["driver.evictions"]) == 0.1 + 0.2
    meta = json.load(open(tmp_path / "out" / "toy.meta.json"))
    assert meta["points_planned"] == 3 and meta["points_merged"] == 2
    assert meta["missing"] == [["fifo_75pct", "failed", 1]]
    assert meta["model_revisions"] == [1, 2]
    assert meta["cpu_seconds_points"] == 3.75 and meta["cpu_seconds_measured"] == 4.5
    assert meta["binary_commit"] == "abc1234"
    # a re-export is byte-for-byte the same file
    first = (tmp_path / "out" / "toy.points.csv.gz").read_bytes()
    assert main([str(src), str(tmp_path / "out")]) == 0
    assert (tmp_path / "out" / "toy.points.csv.gz").read_bytes() == first


def test_not_a_merged_sweep(tmp_path, capsys):
    p = tmp_path / "x.h5"
    with h5py.File(p, "w") as f:
        f.create_group("stats")
    assert _export()([str(p), str(tmp_path / "out")]) == 2
    assert "no /points" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_load_sweep_reads_the_export(tmp_path):
    """load_sweep of the committed export gives the rows and values the
    hand-made file holds (what the table scripts read from validation/results)."""
    import sys
    sys.path.insert(0, os.path.join(REPO, "python"))
    from uvmsim import find_sweep, load_sweep
    src = tmp_path / "sweep.h5"
    _sweep(src)
    assert _export()([str(src), str(tmp_path / "out")]) == 0
    path = find_sweep(str(tmp_path / "out"), "toy", "toy")
    assert path == str(tmp_path / "out" / "toy.points.csv.gz")
    df = load_sweep(path)
    assert list(df["name"]) == ["lru_75pct", "hpe_75pct"]
    assert list(df["driver.eviction"]) == ["lru", "hpe"]
    assert list(df["sim_time_ps"]) == [1000, 800]
    assert df["driver.evictions"].iloc[1] == 0.1 + 0.2
    assert df.attrs["axes"] == ["driver.eviction", "gpu.memory.fraction"]
    assert df.attrs["missing"] == [("fifo_75pct", "failed", 1)]
    # a sweep run here wins over the export in the same directory
    os.makedirs(tmp_path / "out" / "toy")
    _sweep(tmp_path / "out" / "toy" / "sweep.h5")
    assert find_sweep(str(tmp_path / "out"), "toy", "toy").endswith("toy/sweep.h5")
    assert find_sweep(str(tmp_path / "none"), "toy", "toy") is None


def _part(path, points, missing, rev=1, extra_col=False, sim=None):
    """A merged sweep file of the toy plan hpe, lru, fifo (plan.tsv beside
    it) holding POINTS (name -> CPU s) and listing MISSING as not run;
    sim_time_ps 100, 200, ... in POINTS' order unless SIM names it."""
    cols = [("name", "S16"), ("driver.eviction", "S8"), ("status", "S12"), ("sim_time_ps", "<u8")]
    if extra_col:
        cols.append(("evict.fed_faults", "<f8"))
    sim = sim or {}
    rows = [tuple([n.encode(), n.split("_")[0].encode(), b"completed", sim.get(n, 100 * (i + 1))] +
                  ([0.0] if extra_col else [])) for i, n in enumerate(points)]
    with h5py.File(path, "w") as f:
        f.create_dataset("points", data=np.array(rows, dtype=np.dtype(cols)))
        f.attrs["axes"] = np.array(["driver.eviction"], dtype=object)
        f.attrs["sweep_file"] = "configs/sweeps/toy.yaml"
        f.attrs["points_planned"] = 3
        f.attrs["model_revision"] = rev
        f.create_dataset("missing", data=np.array([(m.encode(), b"not run", -1) for m in missing],
                         dtype=[("name", "S16"), ("state", "S8"), ("exit_code", "<i4")]))
        for n, cpu in points.items():
            r = f.create_group(f"runs/{n}")
            r.attrs["uvmsim_version"] = "0.1.0"
            r.attrs["model_revision"] = rev
            r.attrs["seed"] = 1
            f.create_group(f"host/{n}").attrs["cpu_seconds"] = cpu
    with open(os.path.join(os.path.dirname(path), "plan.tsv"), "w") as f:
        f.write("uvmsim-sweep-plan\t1\nsweep\tconfigs/sweeps/toy.yaml\naxis\tdriver.eviction\thpe\tlru\tfifo\n")
        for n in ("hpe_75pct", "lru_75pct", "fifo_75pct"):
            f.write(f"point\t{n}\t0123456789abcdef\t{n.split('_')[0]}\n")


def _rows(out):
    with gzip.open(out / "toy.points.csv.gz", "rt") as f:
        return list(csv.DictReader(f))


def test_join_completes_a_partial_sweep(tmp_path):
    """A sweep committed in part, completed by a later binary that ran only
    its missing points: rows in plan order, each part's provenance kept."""
    main, out = _export(), tmp_path / "out"
    os.makedirs(tmp_path / "a")
    os.makedirs(tmp_path / "b")
    _part(str(tmp_path / "a" / "sweep.h5"), {"lru_75pct": 2.0}, ["hpe_75pct", "fifo_75pct"])
    assert main([str(tmp_path / "a" / "sweep.h5"), str(out), "--binary-commit", "aaaaaaa"]) == 0
    committed = [r["name"] for r in _rows(out)]
    _part(str(tmp_path / "b" / "sweep.h5"), {"hpe_75pct": 3.0, "fifo_75pct": 5.0}, ["lru_75pct"])
    assert main([str(tmp_path / "b" / "sweep.h5"), str(out), "--binary-commit", "bbbbbbb",
                 "--cpu-seconds", "8.5", "--join"]) == 0
    rows = _rows(out)
    assert committed == ["lru_75pct"]
    assert [r["name"] for r in rows] == ["hpe_75pct", "lru_75pct", "fifo_75pct"]
    # the committed row is kept as it was (its value: the first part's)
    assert rows[1]["sim_time_ps"] == "100"
    meta = json.load(open(out / "toy.meta.json"))
    assert meta["points_merged"] == 3 and meta["missing"] == []
    assert [(p["binary_commit"], p["points"]) for p in meta["parts"]] == \
        [("aaaaaaa", ["lru_75pct"]), ("bbbbbbb", ["hpe_75pct", "fifo_75pct"])]
    assert meta["cpu_seconds_points"] == 10.0
    # the first part's whole run was not measured: no measured total
    assert meta["cpu_seconds_measured"] is None
    assert meta["parts"][1]["cpu_seconds_measured"] == 8.5


def test_join_takes_the_union_of_the_columns(tmp_path):
    """A policy's own statistics exist only in its points: a part whose
    points have one the other part's lack gets NaN there, as one merge of
    all the points would write."""
    main, out = _export(), tmp_path / "out"
    os.makedirs(tmp_path / "a")
    os.makedirs(tmp_path / "b")
    _part(str(tmp_path / "a" / "sweep.h5"), {"lru_75pct": 2.0}, ["hpe_75pct", "fifo_75pct"])
    assert main([str(tmp_path / "a" / "sweep.h5"), str(out)]) == 0
    _part(str(tmp_path / "b" / "sweep.h5"), {"hpe_75pct": 1.0}, ["lru_75pct", "fifo_75pct"], extra_col=True)
    assert main([str(tmp_path / "b" / "sweep.h5"), str(out), "--join"]) == 0
    rows = _rows(out)
    assert [r["name"] for r in rows] == ["hpe_75pct", "lru_75pct"]
    assert rows[0]["evict.fed_faults"] == "0.0" and rows[1]["evict.fed_faults"] == "nan"
    assert list(rows[0])[-1] == "evict.fed_faults"


def test_join_across_revisions_with_identical_check_points(tmp_path):
    """A part run at a later model revision joins when it reran a committed
    point and got every statistic the same: that row stays the committed
    one, the part names it as checked and carries its revision."""
    main, out = _export(), tmp_path / "out"
    os.makedirs(tmp_path / "a")
    os.makedirs(tmp_path / "b")
    _part(str(tmp_path / "a" / "sweep.h5"), {"lru_75pct": 2.0}, ["hpe_75pct", "fifo_75pct"])
    assert main([str(tmp_path / "a" / "sweep.h5"), str(out), "--binary-commit", "aaaaaaa"]) == 0
    # lru first: sim_time_ps 100 as committed; a different CPU time is no difference
    _part(str(tmp_path / "b" / "sweep.h5"), {"lru_75pct": 9.0, "hpe_75pct": 3.0, "fifo_75pct": 5.0},
          [], rev=2)
    assert main([str(tmp_path / "b" / "sweep.h5"), str(out), "--binary-commit", "bbbbbbb",
                 "--join"]) == 0
    rows = _rows(out)
    assert [r["name"] for r in rows] == ["hpe_75pct", "lru_75pct", "fifo_75pct"]
    assert [r["model_revision"] for r in rows] == ["2", "1", "2"]
    assert rows[1]["cpu_seconds"] == "2.0"
    meta = json.load(open(out / "toy.meta.json"))
    assert meta["model_revisions"] == [1, 2] and meta["missing"] == []
    assert [(p["points"], p.get("checked"), p["model_revisions"]) for p in meta["parts"]] == \
        [(["lru_75pct"], None, [1]), (["hpe_75pct", "fifo_75pct"], ["lru_75pct"], [2])]
    # the CPU time spent includes the check point's rerun
    assert meta["cpu_seconds_points"] == 2.0 + 9.0 + 3.0 + 5.0


def test_replace_reruns_the_points_a_change_reaches(tmp_path, capsys):
    """A model change reaching only the hpe points: the rerun's hpe row
    replaces the committed one, lru (rerun identically) is the check point,
    fifo keeps its committed row; each part keeps the points it holds."""
    main, out = _export(), tmp_path / "out"
    for d in "abcde":
        os.makedirs(tmp_path / d)
    _part(str(tmp_path / "a" / "sweep.h5"), {"hpe_75pct": 1.0, "lru_75pct": 2.0, "fifo_75pct": 4.0}, [])
    assert main([str(tmp_path / "a" / "sweep.h5"), str(out), "--binary-commit", "aaaaaaa",
                 "--cpu-seconds", "7.5"]) == 0
    before = (out / "toy.points.csv.gz").read_bytes()
    # committed: hpe 100, lru 200, fifo 300
    refusals = [
        ("b", {"lru_75pct": 1.0}, {"lru_75pct": 200}, "1 committed points with driver.eviction=hpe were not rerun"),
        ("c", {"hpe_75pct": 1.0}, {"hpe_75pct": 90}, "no check point"),
        ("d", {"hpe_75pct": 1.0, "lru_75pct": 1.0}, {"hpe_75pct": 90, "lru_75pct": 210},
         "--replace driver.eviction=hpe and check point lru_75pct's sim_time_ps differs: committed 200, new 210"),
    ]
    for d, pts, sim, msg in refusals:
        _part(str(tmp_path / d / "sweep.h5"), pts, [], rev=2, sim=sim)
        assert main([str(tmp_path / d / "sweep.h5"), str(out), "--replace", "driver.eviction=hpe"]) == 2
        err = capsys.readouterr().err
        assert msg in err and err.count("\n") == 1, err
        assert (out / "toy.points.csv.gz").read_bytes() == before
    assert main([str(tmp_path / "d" / "sweep.h5"), str(out), "--replace", "workload.kind=bfs"]) == 2
    assert "not AXIS=VALUE with an axis of the sweep" in capsys.readouterr().err
    _part(str(tmp_path / "e" / "sweep.h5"), {"hpe_75pct": 3.0, "lru_75pct": 1.5}, [], rev=2,
          sim={"hpe_75pct": 90, "lru_75pct": 200})
    assert main([str(tmp_path / "e" / "sweep.h5"), str(out), "--binary-commit", "eeeeeee",
                 "--replace", "driver.eviction=hpe"]) == 0
    rows = _rows(out)
    assert [(r["name"], r["sim_time_ps"], r["model_revision"]) for r in rows] == \
        [("hpe_75pct", "90", "2"), ("lru_75pct", "200", "1"), ("fifo_75pct", "300", "1")]
    meta = json.load(open(out / "toy.meta.json"))
    assert meta["model_revisions"] == [1, 2] and meta["points_merged"] == 3
    assert meta["file_model_revision"] == 2            # the file the replacing rows came from
    assert [(p["binary_commit"], p["points"], p.get("checked"), p.get("replaced_where"))
            for p in meta["parts"]] == [("aaaaaaa", ["lru_75pct", "fifo_75pct"], None, None),
                                        ("eeeeeee", ["hpe_75pct"], ["lru_75pct"], "driver.eviction=hpe")]
    assert meta["cpu_seconds_points"] == 7.0 + 4.5
    assert meta["cpu_seconds_measured"] is None       # the rerun's whole run was not measured


def test_replace_takes_several_values_of_one_axis(tmp_path, capsys):
    """A sweep setting that reaches two of the three policies' programs:
    --replace driver.eviction=hpe,fifo replaces both rows, lru (rerun
    identically) is the check point; a rerun lacking one of the values'
    points is refused."""
    main, out = _export(), tmp_path / "out"
    for d in "abc":
        os.makedirs(tmp_path / d)
    _part(str(tmp_path / "a" / "sweep.h5"), {"hpe_75pct": 1.0, "lru_75pct": 2.0, "fifo_75pct": 4.0}, [])
    assert main([str(tmp_path / "a" / "sweep.h5"), str(out)]) == 0
    # committed: hpe 100, lru 200, fifo 300
    _part(str(tmp_path / "b" / "sweep.h5"), {"hpe_75pct": 1.0, "lru_75pct": 1.0}, [], rev=2,
          sim={"hpe_75pct": 90, "lru_75pct": 200})
    assert main([str(tmp_path / "b" / "sweep.h5"), str(out), "--replace", "driver.eviction=hpe,fifo"]) == 2
    assert "1 committed points with driver.eviction=hpe,fifo were not rerun" in capsys.readouterr().err
    _part(str(tmp_path / "c" / "sweep.h5"), {"hpe_75pct": 1.0, "lru_75pct": 1.0, "fifo_75pct": 1.0}, [],
          rev=2, sim={"hpe_75pct": 90, "lru_75pct": 200, "fifo_75pct": 310})
    assert main([str(tmp_path / "c" / "sweep.h5"), str(out), "--binary-commit", "ccccccc",
                 "--replace", "driver.eviction=hpe,fifo"]) == 0
    assert [(r["name"], r["sim_time_ps"]) for r in _rows(out)] == \
        [("hpe_75pct", "90"), ("lru_75pct", "200"), ("fifo_75pct", "310")]
    meta = json.load(open(out / "toy.meta.json"))
    assert [(p["points"], p.get("checked"), p.get("replaced_where")) for p in meta["parts"]] == \
        [(["lru_75pct"], None, None), (["hpe_75pct", "fifo_75pct"], ["lru_75pct"], "driver.eviction=hpe,fifo")]


def test_join_refuses(tmp_path, capsys):
    main, out = _export(), tmp_path / "out"
    os.makedirs(tmp_path / "a")
    _part(str(tmp_path / "a" / "sweep.h5"), {"lru_75pct": 2.0}, ["hpe_75pct", "fifo_75pct"])
    assert main([str(tmp_path / "a" / "sweep.h5"), str(out)]) == 0
    before = (out / "toy.points.csv.gz").read_bytes()
    cases = [({"lru_75pct": 1.0}, ["hpe_75pct", "fifo_75pct"], {}, "committed already"),
             ({"hpe_75pct": 1.0}, ["lru_75pct", "fifo_75pct"], {"rev": 2},
              "model revisions differ (committed [1], new [2]): rerun one or more committed points"),
             # the check point's sim_time_ps is 200 here, 100 committed
             ({"hpe_75pct": 1.0, "lru_75pct": 1.0}, ["fifo_75pct"], {"rev": 2},
              "check point lru_75pct's sim_time_ps differs: committed 100, new 200")]
    for i, (pts, miss, kw, msg) in enumerate(cases):
        d = tmp_path / f"b{i}"
        os.makedirs(d)
        _part(str(d / "sweep.h5"), pts, miss, **kw)
        assert main([str(d / "sweep.h5"), str(out), "--join"]) == 2
        err = capsys.readouterr().err
        assert msg in err and err.count("\n") == 1
        assert (out / "toy.points.csv.gz").read_bytes() == before
    # a point the committed file does not list as missing
    json_p = out / "toy.meta.json"
    meta = json.load(open(json_p))
    meta["missing"] = [["fifo_75pct", "not run", -1]]
    json.dump(meta, open(json_p, "w"))
    d = tmp_path / "c"
    os.makedirs(d)
    _part(str(d / "sweep.h5"), {"hpe_75pct": 1.0}, ["lru_75pct", "fifo_75pct"])
    assert main([str(d / "sweep.h5"), str(out), "--join"]) == 2
    assert "hpe_75pct is not one of the committed file's missing points" in capsys.readouterr().err
    # nothing committed to join
    assert main([str(d / "sweep.h5"), str(tmp_path / "empty"), "--join"]) == 2
    assert "nothing committed to join" in capsys.readouterr().err
    # no plan.tsv beside the sweep file
    os.remove(d / "plan.tsv")
    meta["missing"] = [["hpe_75pct", "not run", -1], ["fifo_75pct", "not run", -1]]
    json.dump(meta, open(json_p, "w"))
    assert main([str(d / "sweep.h5"), str(out), "--join"]) == 2
    assert "plan.tsv not found" in capsys.readouterr().err
