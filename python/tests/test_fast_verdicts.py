"""scripts/validation/fast_verdicts.py (issue 41): a claim is judged on
each model's results by the one verdict module, and a changed verdict is
named and fails the run."""
import csv
import gzip
import os
import sys

import yaml

from conftest import REPO

sys.path.insert(0, os.path.join(REPO, "scripts", "validation"))
import fast_verdicts  # noqa: E402


def results(d, times):
    """An export of a two-point sweep 'toy': policies a and b."""
    os.makedirs(d)
    with gzip.open(os.path.join(d, "toy.points.csv.gz"), "wt", newline="") as f:
        w = csv.writer(f)
        w.writerow(["name", "pol", "status", "sim_time_ps"])
        for pol, t in times.items():
            w.writerow([pol, pol, "completed", t])
    return d


def test_a_changed_verdict_is_named_and_fails(tmp_path, capsys):
    # paper: b is 2x slower than a (effect +1.0).  cycle 2.0: reproduced;
    # fast 1.5: effect 0.5, sign right, under 75 % of the paper's: direction.
    claim = dict(id="T-1", paper="p", claim="c", kind="ratio", paper_value=2.0,
                 sweep="configs/sweeps/toy.yaml",
                 expr="pt('toy', 'sim_time_ps', 'pol=b') / pt('toy', 'sim_time_ps', 'pol=a')")
    other = dict(claim, id="T-2", sweep="configs/sweeps/absent.yaml",
                 expr="pt('absent', 'sim_time_ps', 'pol=a')")
    cf = tmp_path / "claims.yaml"
    cf.write_text(yaml.safe_dump({"papers": {"p": {"baseline": "x"}}, "claims": [claim, other]}))
    cyc = results(str(tmp_path / "c"), {"a": 100, "b": 200})
    fast = results(str(tmp_path / "f"), {"a": 100, "b": 150})
    rc = fast_verdicts.main([cyc, fast, "--claims", str(cf)])
    out = capsys.readouterr().out
    assert rc == 1
    row = [l for l in out.splitlines() if l.startswith("| T-1 ")][0]
    assert "| reproduced |" in row and "| direction |" in row and row.endswith("| yes |")
    assert "T-2" not in out                         # its sweep is in neither
    assert "1 claims over toy: 1 verdicts changed" in out
    # the same results on both sides: nothing changes, exit 0
    assert fast_verdicts.main([cyc, cyc, "--claims", str(cf)]) == 0
