"""validation/claims.yaml's expressions against the sweeps' plans (issue 39):
scripts/validation/check_exprs.py evaluates every claim's expression on a
synthetic table per sweep (`uvmsim sweep plan`), so a selector that would
match no point, or several, fails now and not when the results come."""
import csv
import gzip
import json
import os
import sys

import pytest
import yaml

from conftest import REPO

sys.path.insert(0, os.path.join(REPO, "scripts", "validation"))
import check_exprs  # noqa: E402
import validation_doc  # noqa: E402

RESULTS = os.path.join(REPO, "validation", "results")
SEL = "workload.kind=hotspot driver.eviction=lru gpu.memory.fraction=0.75"


def claims_file(tmp_path, *claims):
    doc = {"papers": {"hpe": {"baseline": "b"}}, "claims": list(claims)}
    p = tmp_path / "claims.yaml"
    p.write_text(yaml.safe_dump(doc))
    return str(p)


def claim(cid, expr, kind="ratio", **kw):
    return dict(id=cid, paper="hpe", claim="c", kind=kind, paper_value=1.0,
                sweep="configs/sweeps/hpe-table2.yaml", expr=expr, **kw)


def test_every_claim_expression_evaluates_on_its_plans(uvmsim_bin):
    doc = validation_doc.load_claims(os.path.join(REPO, "validation", "claims.yaml"))
    bad, _ = check_exprs.check(doc, uvmsim_bin, RESULTS)
    assert bad == []


def test_a_broken_selector_fails(uvmsim_bin, tmp_path, capsys):
    good = f"pt('hpe-table2', 'sim_time_ps', '{SEL}')"
    p = claims_file(
        tmp_path,
        claim("OK-1", good),
        claim("OK-2", f"{good} > 0", kind="qualitative", holds="value"),
        claim("Z-1", "pt('hpe-table2', 'sim_time_ps', 'workload.kind=nosuch driver.eviction=lru "
                     "gpu.memory.fraction=0.75')"),
        claim("Z-2", "pt('hpe-table2', 'sim_time_ps', 'workload.kind=hotspot driver.eviction=lru "
                     "gpu.memory.fraction=75%')"),      # not base units: matches nothing
        claim("M-1", "pt('hpe-table2', 'sim_time_ps', 'workload.kind=hotspot driver.eviction=lru')"),
        claim("A-1", f"pt('hpe-table2', 'sim_time_ps', '{SEL} no.such.axis=1')"),
        claim("S-1", f"pt('hpe-table2', 'sim_time_pss', '{SEL}')"),
        claim("W-1", f"pt('no-such-sweep', 'sim_time_ps', '{SEL}')"),
        claim("R-1", f"{good} / undefined_name"),
        claim("R-2", f"{good} > 0", kind="qualitative", holds="value.no_such"),
        # differences of dummies divide without error: selectors are checked
        claim("D-1", f"gmean([1 / ({good} - {good})])"),
    )
    rc = check_exprs.main(["--claims", p, "--uvmsim", uvmsim_bin, "--results", RESULTS])
    err = capsys.readouterr().err
    assert rc == 1
    failed = {line.split()[2].rstrip(":") for line in err.splitlines()}
    assert failed == {"Z-1", "Z-2", "M-1", "A-1", "S-1", "W-1", "R-1", "R-2"}
    assert "0 planned points match" in err and "2 planned points match" in err
    assert "no.such.axis is not an axis of hpe-table2" in err
    assert "no statistic 'sim_time_pss'" in err


def test_the_real_claims_pass_and_exit_0(uvmsim_bin, capsys):
    assert check_exprs.main(["--uvmsim", uvmsim_bin]) == 0
    assert "evaluate on the plans" in capsys.readouterr().out


@pytest.mark.parametrize("name", sorted(f[:-len(".points.csv.gz")] for f in os.listdir(RESULTS)
                                        if f.endswith(".points.csv.gz")))
def test_plan_values_are_what_the_export_holds(uvmsim_bin, name):
    """The synthetic table's axis values are the committed export's, point
    by point (percent, sizes, times, bandwidths, booleans in base units)."""
    meta = json.load(open(os.path.join(RESULTS, name + ".meta.json")))
    with gzip.open(os.path.join(RESULTS, name + ".points.csv.gz"), "rt", newline="") as f:
        rows = {r["name"]: r for r in csv.DictReader(f)}
    plan = {r["name"]: r for r in check_exprs.plan(uvmsim_bin, meta["sweep_file"])}
    assert set(rows) <= set(plan)
    for n, r in rows.items():
        assert set(plan[n]) - {"name"} == set(meta["axes"]), n
        for a in meta["axes"]:
            assert validation_doc.Results._eq(r[a], plan[n][a]), (n, a, r[a], plan[n][a])


@pytest.mark.parametrize("raw,base", [("75%", "0.75"), ("true", "1"), ("false", "0"), ("16MiB", "16777216.0"),
                                      ("20us", "20000000.0"), ("90GB/s", "90000000000.0"), ("0B", "0.0"),
                                      ("lru", "lru"), ("1024", "1024"), ("0.2", "0.2"), ("mru-c", "mru-c")])
def test_base_value(raw, base):
    assert check_exprs.base_value(raw) == base


def test_dummy_arithmetic_never_raises():
    d = check_exprs.Dummy()
    x = 1 / (d - d) + 4096 * d - abs(-d) ** 2
    assert isinstance(x, check_exprs.Dummy)
    assert validation_doc.gmean([x, d]) == 1.0
    assert int(d) == 1 and f"{d:.3f}" == "1.000" and max([d, d]) is not None


def test_sweep_names_and_the_expression_names():
    assert validation_doc.sweep_names({"sweep": "configs/sweeps/a.yaml"}) == ["a"]
    assert validation_doc.sweep_names({"sweep": ["configs/sweeps/a.yaml", "configs/sweeps/b-1.yaml"]}) == ["a", "b-1"]
    assert validation_doc.sweep_names({"sweep": "configs/sweeps/sc19-*.yaml"}) is None
    assert validation_doc.sweep_names({"sweep": None}) is None
    env = validation_doc.expr_env(validation_doc.Results(RESULTS))
    # sorted, list, int, round: what the claims' comprehensions use
    assert eval("sorted([3, 1])[0] + int(2.7) + round(0.4) + len(list((1, 2)))", env) == 5
    # walrus-bound lambdas: how a long expression names its pieces
    assert eval("(f := lambda x: 2 * x, [f(i) for i in (1, 2)])[-1]", env) == [2, 4]
    with pytest.raises(NameError):
        eval("open('x')", env)


def test_a_claim_over_a_list_of_sweeps_is_not_run_while_one_is_missing():
    res = validation_doc.Results(RESULTS)
    c = claim("L-1", "1.0")
    c["sweep"] = ["configs/sweeps/hpe.yaml", "configs/sweeps/no-such-sweep.yaml"]
    assert validation_doc.evaluate(c, res) == (None, validation_doc.NOT_RUN)
    c["sweep"] = ["configs/sweeps/hpe.yaml"]
    assert validation_doc.evaluate(c, res)[0] == 1.0
    # why it is not run is derived, naming the sweep that has no results
    c["sweep"] = ["configs/sweeps/hpe.yaml", "configs/sweeps/no-such-sweep.yaml"]
    validation_doc.evaluate(c, res)
    assert c["_why"].startswith("no committed results of no-such-sweep ")
    assert "configs/sweeps/no-such-sweep.yaml" in c["_why"]


@pytest.mark.parametrize("extra,message", [
    (dict(state="not run"), "`state` is derived"),
    (dict(reason="results not committed"), "`reason` is only for a claim without an expr"),
])
def test_a_stored_verdict_or_reason_is_refused(tmp_path, extra, message):
    """A verdict or a not-run reason stored beside an expression went stale
    once the results were committed (issue 39): the loader refuses both."""
    p = claims_file(tmp_path, claim("X-1", "1.0", **extra))
    with pytest.raises(validation_doc.ClaimError, match=message):
        validation_doc.load_claims(p)
    ok = claims_file(tmp_path, claim("X-2", None, reason="no sweep yet"))
    assert validation_doc.load_claims(ok)["claims"][0]["id"] == "X-2"
