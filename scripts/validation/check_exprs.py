#!/usr/bin/env python3
"""Check every claim's expression against its sweeps' plans (issue 39).

  scripts/validation/check_exprs.py [--claims validation/claims.yaml]
      [--results validation/results] [--uvmsim build/uvmsim]

A claim whose sweep has no committed results is "not run", so nothing
evaluates its `expr` until the results come: a selector that names a
point the sweep does not have, or an axis it does not vary, would only
show then.  This evaluates each expression now, on a synthetic table per
sweep built from `uvmsim sweep plan configs/sweeps/NAME.yaml`: one row per
planned point, its axis values in base units as export_points.py writes
them (75% is 0.75, 16MiB 16777216, 20us 20000000 ps, true 1), and a dummy
value for every statistic the expression asks for: a Dummy, which any
arithmetic turns into a Dummy (no division by zero, no log of a negative
number: those would say nothing about the selectors), which compares
true and converts to 1.  A claim fails when a pt() selector matches no
planned point or more than one, names a key that is not an axis of the
sweep, asks for a statistic no committed table and no stat_*() call of
sim/ has, or when the expression (or a qualitative claim's `holds`)
raises: a name it may not use, a typo, a wrong type.

Every claim with an expression is checked, committed or not: a sweep
committed with points missing would hide a bad selector as "not run" too.
Runs no simulation (`sweep plan` only).  Exit 1 with one line per failing
claim, 2 when the claims file or a plan cannot be read.
"""
import argparse
import glob
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import validation_doc as vd  # noqa: E402

ROOT = vd.ROOT

# Unit suffixes of config values and the factor to base units (bytes,
# picoseconds, bytes per second), as the config parser reads them.
UNITS = {"B": 1, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40,
         "KB": 10**3, "MB": 10**6, "GB": 10**9, "TB": 10**12,
         "ps": 1, "ns": 10**3, "us": 10**6, "ms": 10**9, "s": 10**12,
         "B/s": 1, "KB/s": 10**3, "MB/s": 10**6, "GB/s": 10**9,
         "KiB/s": 2**10, "MiB/s": 2**20, "GiB/s": 2**30}
NUM = re.compile(r"^([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)\s*([A-Za-z/%]*)$")


def base_value(v):
    """A plan's override value as the exported /points table holds it."""
    if v in ("true", "false"):
        return "1" if v == "true" else "0"
    m = NUM.match(v)
    if not m:
        return v
    x, unit = m.group(1), m.group(2)
    if unit == "":
        return x
    if unit == "%":
        return repr(float(x) / 100)
    if unit in UNITS:
        return repr(float(x) * UNITS[unit])
    return v


class CheckError(Exception):
    pass


class Dummy:
    """A statistic's value on a planned point: arithmetic with it gives a
    Dummy, comparisons are true, float() and int() are 1."""

    def _d(self, *_):
        return Dummy()

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _d
    __truediv__ = __rtruediv__ = __floordiv__ = __rfloordiv__ = __mod__ = __rmod__ = _d
    __pow__ = __rpow__ = __neg__ = __pos__ = __abs__ = __round__ = _d

    def _t(self, _):
        return True

    __lt__ = __le__ = __gt__ = __ge__ = __eq__ = _t

    def __ne__(self, _):
        return False

    __hash__ = object.__hash__

    def __float__(self):
        return 1.0

    def __int__(self):
        return 1

    def __bool__(self):
        return True

    def __format__(self, spec):
        return format(1.0, spec)

    def __repr__(self):
        return "Dummy()"


def plan(uvmsim, sweep_file):
    """[{axis: value}] in plan order, the values in base units."""
    r = subprocess.run([uvmsim, "sweep", "plan", sweep_file], cwd=ROOT, capture_output=True, text=True)
    if r.returncode != 0:
        raise CheckError(f"uvmsim sweep plan {sweep_file}: exit {r.returncode}: "
                         + (r.stderr.strip().splitlines() or ["no message"])[-1])
    rows, seen = [], False
    for line in r.stdout.splitlines():
        if re.match(r"^\s+#\s+name\s+overrides", line):
            seen = True
            continue
        m = re.match(r"^\s+(\d+)\s+(\S+)\s*(.*)$", line) if seen else None
        if m:
            row = {"name": m.group(2)}
            for kv in m.group(3).split():
                k, _, v = kv.partition("=")
                row[k] = base_value(v)
            rows.append(row)
    if not rows:
        raise CheckError(f"uvmsim sweep plan {sweep_file}: no points")
    return rows


def known_stats(results_dir):
    """Statistic names: the committed tables' columns and every name a
    stat_*() call of sim/ registers."""
    names = set()
    for t in vd.Results(results_dir).tables.values():
        for r in t[:1]:
            names.update(r)
    pat = re.compile(r'stat_\w+\(\s*[\w>.-]+\s*,\s*"([\w.]+)"')
    for f in glob.glob(os.path.join(ROOT, "sim", "**", "*.c"), recursive=True):
        names.update(pat.findall(open(f, errors="replace").read()))
    return names


class PlanResults:
    """Results-like: pt() over the plans' synthetic rows, checking each
    selector; `used` collects the sweeps an expression names."""

    def __init__(self, uvmsim, stats):
        self.uvmsim, self.stats = uvmsim, stats
        self.plans, self.used = {}, set()

    def rows(self, sweep):
        if sweep not in self.plans:
            f = os.path.join("configs", "sweeps", sweep + ".yaml")
            if not os.path.exists(os.path.join(ROOT, f)):
                raise CheckError(f"pt: no sweep file {f}")
            self.plans[sweep] = plan(self.uvmsim, f)
        return self.plans[sweep]

    def pt(self, sweep, stat, sel):
        self.used.add(sweep)
        rows = self.rows(sweep)
        axes = set(rows[0]) - {"name"}
        conds = [c.split("=", 1) for c in sel.split()]
        for c in conds:
            if len(c) != 2:
                raise CheckError(f"pt({sweep!r}, {stat!r}, {sel!r}): {c[0]!r} is not axis=value")
            if c[0] not in axes:
                raise CheckError(f"pt({sweep!r}, {stat!r}, {sel!r}): {c[0]} is not an axis of {sweep} "
                                 f"(axes: {', '.join(sorted(axes))})")
        hit = [r for r in rows if all(vd.Results._eq(r[k], v) for k, v in conds)]
        if len(hit) != 1:
            raise CheckError(f"pt({sweep!r}, {stat!r}, {sel!r}): {len(hit)} planned points match, not 1"
                             + (f" ({', '.join(r['name'] for r in hit[:3])}{' ...' if len(hit) > 3 else ''})"
                                if hit else ""))
        if stat not in self.stats:
            raise CheckError(f"pt({sweep!r}, {stat!r}, {sel!r}): no statistic {stat!r} in any committed "
                             "table or stat_*() call of sim/")
        return Dummy()


def check_claim(claim, pr):
    """None, or why the claim's expression fails on the plans."""
    pr.used = set()
    names = vd.sweep_names(claim)
    if not names:
        return f"`sweep` {claim.get('sweep')!r} is not configs/sweeps/NAME.yaml or a list of them"
    env = vd.expr_env(pr)
    try:
        value = eval(claim["expr"], env)
        if claim["kind"] == "qualitative":
            if not claim.get("holds"):
                return "a qualitative claim needs `holds`"
            eval(claim["holds"], dict(env, value=value))
    except CheckError as e:
        return str(e)
    except Exception as e:
        return f"{type(e).__name__}: {e}"
    return None


def check(doc, uvmsim, results_dir):
    """[(claim id, why)] for every claim with an expression that fails."""
    pr = PlanResults(uvmsim, known_stats(results_dir))
    bad = []
    for c in doc["claims"]:
        if c.get("expr") is None:
            continue
        why = check_claim(c, pr)
        if why:
            bad.append((c["id"], why))
    return bad, pr


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--claims", default=os.path.join(ROOT, "validation", "claims.yaml"))
    ap.add_argument("--results", default=os.path.join(ROOT, "validation", "results"))
    ap.add_argument("--uvmsim", default=os.environ.get("UVMSIM") or os.path.join(ROOT, "build", "uvmsim"))
    a = ap.parse_args(argv)
    try:
        doc = vd.load_claims(a.claims)
        bad, pr = check(doc, os.path.abspath(a.uvmsim), a.results)
    except (vd.ClaimError, CheckError, OSError) as e:
        print(f"check_exprs: {e}", file=sys.stderr)
        return 2
    for cid, why in bad:
        print(f"check_exprs: claim {cid}: {why}", file=sys.stderr)
    n = sum(1 for c in doc["claims"] if c.get("expr") is not None)
    print(f"check_exprs: {n - len(bad)} of {n} expressions evaluate on the plans of {len(pr.plans)} sweeps")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
