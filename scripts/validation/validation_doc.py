#!/usr/bin/env python3
"""Regenerate the generated sections of docs/validation.md (issue 39).

  scripts/validation/validation_doc.py [--claims validation/claims.yaml]
      [--results validation/results] [-o OUT] DOC

Judges every claim of the claims list from the committed results with the
one rule (python/uvmsim/verdict.py) and rewrites, in DOC (or into OUT,
leaving DOC alone), the text between each pair of markers

    <!-- BEGIN generated: NAME -->
    <!-- END generated: NAME -->

NAME is claims-counts (the counts per paper), results-committed (the
committed sweeps and their provenance) or claims-PAPER (one claims table
per paper key).  A data table of the prose sits between

    <!-- BEGIN generated: table [SCRIPT ARGS...] HEADING -->
    <!-- END generated: table [SCRIPT ARGS...] HEADING -->

and is the section of `python3 scripts/reproduce/SCRIPT ARGS...` whose
Markdown heading starts with HEADING (the heading line and what follows it
up to the next heading, without the script's own "Verdict" lines: the
claims tables are the verdicts); {results} in ARGS is the results directory, so
the table scripts read the committed exports (uvmsim.find_sweep).
Everything outside the markers is hand-written and left as it is.  Runs no
simulation; the claims need PyYAML only (the results are CSV.gz), the
tables the table scripts' pandas and h5py.
A claim whose expression is null, or whose sweep has no committed results,
is "not run".  Exit 2 on a malformed claims file, a marker without its
pair, or a claim that cannot be evaluated (one line naming the claim).
"""
import argparse
import csv
import gzip
import json
import math
import os
import re
import sys

import yaml

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

# The verdict module by its file: the uvmsim package itself needs h5py and
# pandas, which regenerating the document does not.
def _verdict_module():
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        "uvmsim_verdict", os.path.join(ROOT, "python", "uvmsim", "verdict.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


_V = _verdict_module()
DIRECTION, KINDS, MISSING, NOT, REPRODUCED = _V.DIRECTION, _V.KINDS, _V.MISSING, _V.NOT, _V.REPRODUCED
holds, judge, ordering_share = _V.holds, _V.judge, _V.ordering_share

NOT_RUN = "not run"
SHOWN = {REPRODUCED: "reproduced", DIRECTION: "direction", NOT: "not reproduced",
         MISSING: "missing", NOT_RUN: NOT_RUN}
MARK = re.compile(r"<!-- BEGIN generated: ([\w-]+) -->\n.*?<!-- END generated: \1 -->", re.S)


class ClaimError(Exception):
    pass


class NoResults(Exception):
    """An expression names a sweep whose results are not committed (a
    claim over two sweeps, one of them missing): the claim is not run."""


def not_committed(names):
    """Why a claim over these uncommitted sweeps is not run, and the fix."""
    files = ", ".join(f"configs/sweeps/{n}.yaml" for n in names)
    return (f"no committed results of {', '.join(names)} (run {files} and export it"
            " with scripts/validation/export_points.py)")


def gmean(xs):
    xs = [x for x in xs]
    if not xs or any(not (x > 0) for x in xs):
        raise ClaimError("gmean of an empty list or of a value that is not positive")
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def anchor(heading):
    """GitHub's anchor of a Markdown heading."""
    a = heading.strip().lower()
    a = re.sub(r"[^\w\- ]", "", a)
    return a.replace(" ", "-")


class Results:
    """The committed /points tables, validation/results/NAME.points.csv.gz."""

    def __init__(self, d):
        self.dir = d
        self.tables, self.meta = {}, {}
        for fn in sorted(os.listdir(d)) if os.path.isdir(d) else []:
            if fn.endswith(".points.csv.gz"):
                name = fn[:-len(".points.csv.gz")]
                with gzip.open(os.path.join(d, fn), "rt", newline="") as f:
                    self.tables[name] = list(csv.DictReader(f))
                mp = os.path.join(d, name + ".meta.json")
                self.meta[name] = json.load(open(mp)) if os.path.exists(mp) else {}

    @staticmethod
    def _eq(cell, want):
        try:
            return abs(float(cell) - float(want)) <= 1e-9 * max(1.0, abs(float(want)))
        except ValueError:
            return cell == want

    def pt(self, sweep, stat, sel):
        if sweep not in self.tables:
            raise NoResults(not_committed([sweep]))
        conds = [c.split("=", 1) for c in sel.split()]
        rows = [r for r in self.tables[sweep] if r.get("status") == "completed"
                and all(k in r and self._eq(r[k], v) for k, v in conds)]
        if not rows and self.meta.get(sweep, {}).get("missing"):
            # A sweep committed with points missing (meta.json lists them):
            # a claim over one of those is not run, not an error.
            raise NoResults(f"{sweep} is committed without some of its points (meta.json: missing)")
        if len(rows) != 1:
            raise ClaimError(f"pt({sweep!r}, {stat!r}, {sel!r}): {len(rows)} points match, not 1")
        if stat not in rows[0]:
            raise ClaimError(f"pt: no statistic {stat!r} in {sweep}")
        return float(rows[0][stat])


def sweep_names(claim):
    """The sweeps of a claim's `sweep`: one file, or a list of them (a
    claim over several sweeps); None where one is not a sweep file."""
    s = claim.get("sweep")
    names = []
    for f in (s if isinstance(s, list) else [s or ""]):
        m = re.match(r"configs/sweeps/([\w.-]+)\.yaml$", str(f).strip())
        if not m:
            return None
        names.append(m.group(1))
    return names


def sweep_name(claim):
    """The first (or only) sweep of a claim."""
    names = sweep_names(claim)
    return names[0] if names else None


# The names an expression may use besides pt (validation/claims.yaml's
# header): the helpers and the few builtins a comprehension needs.
NAMES = {"gmean": gmean, "ordering_share": ordering_share,
         "all": all, "any": any, "len": len, "sum": sum, "min": min, "max": max, "abs": abs,
         "sorted": sorted, "list": list, "int": int, "round": round}


def expr_env(res):
    return dict(NAMES, __builtins__={}, pt=res.pt)


def evaluate(claim, res):
    """(uvmsim value or None, verdict)."""
    expr = claim.get("expr")
    if expr is None:
        return None, NOT_RUN
    names = sweep_names(claim)
    if not names:
        return None, NOT_RUN
    missing = [n for n in names if n not in res.tables]
    if missing:
        # Derived, not stored: a hand-written reason went stale as soon as
        # the results were committed (issue 39).
        claim["_why"] = not_committed(missing)
        return None, NOT_RUN
    env = expr_env(res)
    try:
        value = eval(expr, env)  # the claims file is the project's own, reviewed like code
        kind = claim["kind"]
        if kind == "qualitative":
            cond = claim.get("holds")
            if not cond:
                raise ClaimError("a qualitative claim needs `holds`")
            return value, holds(bool(eval(cond, dict(env, value=value))))
        if kind == "in-N-of-M":
            want = claim["paper_value"]
            m = re.match(r"^\s*(\d+) of \d+", str(want))
            return value, judge(kind, value, int(m.group(1)) if m else want)
        return value, judge(kind, value, claim["paper_value"])
    except NoResults as e:
        claim["_why"] = str(e)
        return None, NOT_RUN
    except ClaimError as e:
        raise ClaimError(f"claim {claim['id']}: {e}")
    except Exception as e:  # a typo in an expression: name the claim
        raise ClaimError(f"claim {claim['id']}: {type(e).__name__}: {e}")


def fmt_value(v):
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return f"{v:.3f}"
    if isinstance(v, (list, tuple)):
        return " / ".join(fmt_value(x) for x in v)
    if isinstance(v, dict):
        return ", ".join(f"{k} {fmt_value(x)}" for k, x in v.items())
    return str(v)


def cell(s):
    return str(s).replace("|", "\\|").replace("\n", " ")


def load_claims(path):
    try:
        doc = yaml.safe_load(open(path))
    except (OSError, yaml.YAMLError) as e:
        raise ClaimError(f"{path}: {e}")
    if not isinstance(doc, dict) or "papers" not in doc or "claims" not in doc:
        raise ClaimError(f"{path}: needs `papers` and `claims`")
    seen = set()
    for c in doc["claims"]:
        for k in ("id", "paper", "claim", "kind"):
            if k not in c:
                raise ClaimError(f"{path}: claim {c.get('id', '?')}: no `{k}`")
        if c["id"] in seen:
            raise ClaimError(f"{path}: claim {c['id']}: id used twice")
        seen.add(c["id"])
        if c["paper"] not in doc["papers"]:
            raise ClaimError(f"{path}: claim {c['id']}: unknown paper {c['paper']!r}")
        if c["kind"] not in KINDS:
            raise ClaimError(f"{path}: claim {c['id']}: unknown kind {c['kind']!r}")
        if c.get("expr") is None and not c.get("reason"):
            raise ClaimError(f"{path}: claim {c['id']}: expr null needs a `reason`")
        # A verdict and a missing-results reason are computed from the
        # committed results; a stored copy is one more number to go stale.
        if "state" in c:
            raise ClaimError(f"{path}: claim {c['id']}: `state` is derived from the results; remove it")
        if c.get("expr") is not None and "reason" in c:
            raise ClaimError(f"{path}: claim {c['id']}: `reason` is only for a claim without an expr "
                             "(a claim with one says itself why it is not run)")
    return doc


def sections(doc, res):
    papers = doc["papers"]
    judged = [(c, *evaluate(c, res)) for c in doc["claims"]]
    out = {}
    # counts
    lines = ["| paper | claims | reproduced | direction | not reproduced | not run | explanation rows |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    tot = [0] * 6
    for key in papers:
        mine = [(c, v) for c, _, v in judged if c["paper"] == key]
        cnt = [c for c, v in mine if c.get("counted", True)]
        n = [len(cnt)] + [sum(1 for c, v in mine if c.get("counted", True) and v == w)
                          for w in (REPRODUCED, DIRECTION, NOT)]
        n.append(sum(1 for c, v in mine if c.get("counted", True) and v in (NOT_RUN, MISSING)))
        n.append(len(mine) - len(cnt))
        tot = [a + b for a, b in zip(tot, n)]
        lines.append(f"| [{key}](#claims-{key}) | " + " | ".join(str(x) for x in n) + " |")
    lines.append("| **all** | " + " | ".join(f"**{x}**" for x in tot) + " |")
    out["claims-counts"] = "\n".join(lines)
    # committed results
    lines = ["| sweep | points | binary (version, model revision, commit) | CPU time |",
             "|---|---:|---|---|"]
    for name in sorted(res.tables):
        m = res.meta.get(name, {})
        ver = ", ".join(m.get("uvmsim_versions", [])) or "?"
        rev = ", ".join(str(x) for x in m.get("model_revisions", [])) or "?"
        cpu = m.get("cpu_seconds_measured")
        cpu_s = (f"{cpu:.1f} s measured (sweep run, user + sys); " if cpu is not None else "") + \
            f"{m.get('cpu_seconds_points', float('nan')):.1f} s in the points"
        commit = m.get("binary_commit") or "commit not recorded"
        parts = m.get("parts") or []
        if len(parts) > 1:
            # A sweep completed in parts (export_points.py --join): each
            # binary with its points and its own measured time.
            # A part at another revision names the committed points it
            # reran identically (its evidence that the model is the same).
            commit = ", ".join(f"{p['binary_commit'] or '?'} ({len(p['points'])} points"
                               + (f", revision {', '.join(str(x) for x in p['model_revisions'])}"
                                  if len(m.get("model_revisions", [])) > 1 and p.get("model_revisions") else "")
                               + (f"; {len(p['checked'])} committed points rerun identically"
                                  if p.get("checked") else "") + ")"
                               for p in parts)
            if cpu is None:
                cpu_s += "".join(f"; {p['cpu_seconds_measured']:.1f} s measured for the "
                                 f"{p['binary_commit']} part" for p in parts
                                 if p.get("cpu_seconds_measured") is not None)
        lines.append(f"| `{m.get('sweep_file', name)}` | {m.get('points_merged', len(res.tables[name]))} "
                     f"of {m.get('points_planned', '?')} | uvmsim {ver}, revision {rev}, "
                     f"{commit} | {cpu_s} |")
    if not res.tables:
        lines.append("| (none) | | | |")
    out["results-committed"] = "\n".join(lines)
    # one table per paper
    for key, p in papers.items():
        why = f"#{anchor(p['explanation'])}" if p.get("explanation") else None
        lines = [f"Baseline: {p['baseline']}.", "",
                 "| id | section | claim | paper | uvmsim | verdict | why / state |",
                 "|---|---|---|---|---|---|---|"]
        for c, val, v in judged:
            if c["paper"] != key:
                continue
            if v == NOT_RUN:
                note = "not run: " + (c.get("_why") or c.get("reason") or "results not committed")
            elif v in (REPRODUCED,):
                note = ""
            else:
                link = c.get("explanation")
                note = f"[why](#{anchor(link)})" if link else (f"[why]({why})" if why else "")
            if not c.get("counted", True):
                note = ("explanation row, not counted; " + note).rstrip("; ")
            lines.append(f"| {c['id']} | {cell(c.get('section') or '')} | {cell(c['claim'])} | "
                         f"{cell(fmt_value(c.get('paper_value')))} | {cell(fmt_value(val))} | "
                         f"{SHOWN[v]} | {cell(note)} |")
        out[f"claims-{key}"] = "\n".join(lines)
    return out


TABLE = re.compile(r"<!-- BEGIN generated: table \[([^\]\n]+)\] ([^\n]+?) -->\n.*?"
                   r"<!-- END generated: table \[\1\] \2 -->", re.S)


def table_sections(text, results):
    """{(args, heading): the generated text} for every table marker of TEXT,
    running each table script once."""
    import subprocess
    outputs, gen = {}, {}
    for args, heading in TABLE.findall(text):
        argv = [a.replace("{results}", results) for a in args.split()]
        if not re.fullmatch(r"[\w.-]+\.py", argv[0]):
            raise ClaimError(f"table marker [{args}]: not a script of scripts/reproduce")
        absent = [a for a, raw in zip(argv[1:], args.split()[1:])
                  if "{results}" in raw and raw != "{results}" and not os.path.exists(os.path.join(ROOT, a))]
        if absent:
            gen[(args, heading)] = f"(no table: {os.path.basename(absent[0])} is not committed)"
            continue
        if args not in outputs:
            r = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "reproduce", argv[0])] + argv[1:],
                               cwd=ROOT, capture_output=True, text=True, timeout=600)
            if r.returncode != 0:
                last = (r.stderr.strip().splitlines() or ["no message"])[-1]
                raise ClaimError(f"table marker [{args}]: {argv[0]} exit {r.returncode}: {last}")
            outputs[args] = r.stdout
        body = None
        lines = outputs[args].splitlines()
        for i, line in enumerate(lines):
            if re.match(r"#+ ", line) and line.split(" ", 1)[1].startswith(heading):
                j = i + 1
                while j < len(lines) and not re.match(r"#+ ", lines[j]):
                    j += 1
                # The scripts' own "Verdict ..." lines stay out: the
                # claims tables are the verdicts (one rule, one list).
                keep = [x for x in lines[i:j] if not x.startswith("Verdict")]
                body = re.sub(r"\n{3,}", "\n\n", "\n".join(keep)).rstrip()
                break
        gen[(args, heading)] = body if body is not None else \
            f"(no table: {argv[0]} prints no section '{heading}' from these results)"
    return gen


def regenerate_tables(text, gen):
    def sub(m):
        args, heading = m.group(1), m.group(2)
        return (f"<!-- BEGIN generated: table [{args}] {heading} -->\n{gen[(args, heading)]}\n"
                f"<!-- END generated: table [{args}] {heading} -->")
    if len(re.findall(r"<!-- BEGIN generated: table ", text)) != len(TABLE.findall(text)):
        raise ClaimError("a table marker without its END")
    return TABLE.sub(sub, text)


def regenerate(text, gen):
    found = set()

    def sub(m):
        name = m.group(1)
        if name not in gen:
            raise ClaimError(f"marker {name!r}: no such generated section")
        found.add(name)
        return f"<!-- BEGIN generated: {name} -->\n{gen[name]}\n<!-- END generated: {name} -->"

    new = MARK.sub(sub, text)
    begins = re.findall(r"<!-- BEGIN generated: ([\w-]+) -->", text)
    if len(begins) != len(found) or len(begins) != len(set(begins)):
        raise ClaimError("a BEGIN marker without its END, or a section twice")
    missing = set(gen) - found
    if missing:
        raise ClaimError("no markers for " + ", ".join(sorted(missing)))
    return new


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("doc")
    ap.add_argument("--claims", default=os.path.join(ROOT, "validation", "claims.yaml"))
    ap.add_argument("--results", default=os.path.join(ROOT, "validation", "results"))
    ap.add_argument("-o", "--output", default=None)
    a = ap.parse_args(argv)
    try:
        doc = load_claims(a.claims)
        res = Results(a.results)
        text = open(a.doc).read()
        new = regenerate(text, sections(doc, res))
        new = regenerate_tables(new, table_sections(new, os.path.relpath(a.results, ROOT)))
    except (ClaimError, OSError) as e:
        print(f"validation_doc: {e}", file=sys.stderr)
        return 2
    out = a.output or a.doc
    if out != a.doc or new != text:
        with open(out, "w") as f:
            f.write(new)
    return 0


if __name__ == "__main__":
    sys.exit(main())
