#!/usr/bin/env python3
"""Export a merged sweep's /points table for committing (issue 39).

  scripts/validation/export_points.py DIR/sweep.h5 OUT [--binary-commit HASH] [--cpu-seconds S]
                                     [--join | --replace AXIS=VALUE]

Writes, for the sweep file NAME.yaml the merged sweep.h5 was run from,

  OUT/NAME.points.csv.gz  one row per merged point: its name, its axis
                          values (base units), status, the binary that ran
                          it (uvmsim_version, model_revision from /runs/NAME),
                          its seed and CPU seconds (/host/NAME), then every
                          scalar statistic of /points
  OUT/NAME.meta.json      the sweep file, its axes, points planned / merged /
                          missing, the binaries' versions and model
                          revisions, the commit the binary was built from
                          (--binary-commit: the file does not record it), and
                          the CPU time: the sum of the points' own, and the
                          whole `sweep run` as measured outside
                          (--cpu-seconds, e.g. /usr/bin/time's user + sys)

--join completes a sweep committed with points missing: DIR ran (with
`uvmsim sweep point`) only points that OUT/NAME.meta.json lists as
missing; the committed rows are kept as they are and the new ones put
among them in DIR/plan.tsv's order.  The two parts must have the same
axes and no point in common but check points; the columns are the union
of theirs (NaN where a part's points have no such statistic); meta.json's
`parts` then names, per binary, its commit, its points and its CPU time
(each point's provenance), and the top-level CPU time is their sum
(measured only when every part was).

A part run at another model revision joins only when it shows that the
model did not change for this sweep: DIR also reran one or more committed
points (check points), and every statistic of each (all columns but the
binary's version, revision and CPU seconds) is identical to the committed
row.  A revision counts every change to the model anywhere; a sweep's
configs may not reach the changed code, and rerunning a committed point is
the evidence that they did not.  The check points' committed rows are kept;
the part records them (`checked`) and its revisions.

--replace AXIS=VALUE reruns part of a committed sweep after a model change
that reaches only its points with that axis value (as the CSV writes it:
booleans 1 / 0), or with any of several (AXIS=V1,V2: a sweep setting that
reaches some workloads' programs only, e.g. workload.kind=nw,bfs),
e.g. driver.access_counters.migrate=1: DIR reran every
committed point with the value, whose rows it replaces, and one or more
points without it (check points), each identical to its committed row on
every statistic, the evidence that the change does not reach them.  The
replaced points leave their old parts; the new part names them, its check
points (`checked`), the value (`replaced_where`) and its revisions.  CPU
time stays the sum of every part's: the replaced runs were spent too.

The CSV is written byte-for-byte reproducibly (gzip mtime 0, floats as
repr) so that a re-export of the same sweep.h5 gives the same file.
Needs h5py.  scripts/validation/validation_doc.py reads these files.
"""
import argparse
import csv
import gzip
import io
import json
import os
import sys

import h5py


def text(v):
    if isinstance(v, bytes):
        return v.decode()
    return v


def cell(v):
    v = text(v)
    if hasattr(v, "item"):
        v = v.item()
    if isinstance(v, float):
        return repr(v)
    return str(v)


class JoinError(Exception):
    pass


def part(meta, names):
    return {"binary_commit": meta["binary_commit"], "points": names,
            "model_revisions": meta["model_revisions"],
            "cpu_seconds_points": meta["cpu_seconds_points"],
            "cpu_seconds_measured": meta["cpu_seconds_measured"]}


def plan_order(sweep_h5):
    """Point names in plan order, from the plan.tsv beside DIR/sweep.h5
    (`point NAME HASH VALUES...` lines)."""
    p = os.path.join(os.path.dirname(os.path.abspath(sweep_h5)), "plan.tsv")
    if not os.path.exists(p):
        raise JoinError(f"{p} not found: the joined rows are put in its plan order")
    names = []
    with open(p) as f:
        for line in f:
            c = line.rstrip("\n").split("\t")
            if c[0] == "point" and len(c) >= 2:
                names.append(c[1])
    return names


# Host-dependent or provenance columns: the check compares all the others.
NOT_MODEL = ("uvmsim_version", "model_revision", "cpu_seconds")


def same_model(head, old_rows, rows, names, why):
    """Every statistic of each check point identical in both parts (rows
    already on the union of the columns, HEAD)."""
    old_by = {r[0]: r for r in old_rows}
    new_by = {r[0]: r for r in rows}
    for n in names:
        for i, c in enumerate(head):
            if c not in NOT_MODEL and old_by[n][i] != new_by[n][i]:
                raise JoinError(f"{why} and check point {n}'s {c} "
                                f"differs: committed {old_by[n][i]}, new {new_by[n][i]}")


def committed(a, name, head, rows, meta):
    """The committed meta and rows of NAME, and both parts' rows on the
    union of their columns: (old, head, old_rows, rows)."""
    csv_p = os.path.join(a.out, f"{name}.points.csv.gz")
    meta_p = os.path.join(a.out, f"{name}.meta.json")
    if not (os.path.exists(csv_p) and os.path.exists(meta_p)):
        raise JoinError(f"nothing committed to join: {csv_p} or {meta_p} missing")
    old = json.load(open(meta_p))
    with gzip.open(csv_p, "rt", newline="") as f:
        r = csv.reader(f)
        old_head = next(r)
        old_rows = list(r)
    if old.get("axes") != meta["axes"]:
        raise JoinError(f"axes differ: committed {old.get('axes')}, new {meta['axes']}")
    # A merged table holds the union of its points' statistics (a
    # policy's own counters exist only in its points; a point without one
    # reads NaN), so each part's columns are those of the points it ran:
    # the joined file has the union, NaN where a part's points lack one,
    # as one merge of all the points would.
    fixed = ["name"] + meta["axes"] + ["status", "uvmsim_version", "model_revision", "seed", "cpu_seconds"]
    if old_head[:len(fixed)] != fixed or head[:len(fixed)] != fixed:
        raise JoinError("the leading columns are not name, the axes, status and the binary's")
    union = old_head + [c for c in head if c not in old_head]
    old_rows = [r + ["nan"] * (len(union) - len(old_head)) for r in old_rows]
    pos = {c: i for i, c in enumerate(head)}
    rows = [[r[pos[c]] if c in pos else "nan" for c in union] for r in rows]
    head = union
    return old, head, old_rows, rows


def totals(out, parts):
    measured = [p["cpu_seconds_measured"] for p in parts]
    out.update({
        "binary_commit": ", ".join(p["binary_commit"] or "?" for p in parts),
        "cpu_seconds_points": round(sum(p["cpu_seconds_points"] for p in parts), 3),
        "cpu_seconds_measured": (round(sum(measured), 3) if None not in measured else None),
        "parts": parts,
    })
    return out


def old_parts(old, old_names):
    parts = old.get("parts") or [part(old, old_names)]
    return [dict(p, model_revisions=p.get("model_revisions", old.get("model_revisions"))) for p in parts]


def provenance(old, meta, revisions):
    """What a completed file ran with: the old file's binaries and the new
    one's, the revisions of the parts kept, and the new file's own."""
    return {
        "uvmsim_versions": sorted(set(old.get("uvmsim_versions", [])) | set(meta["uvmsim_versions"])),
        "model_revisions": sorted(revisions),
        "file_model_revision": meta["file_model_revision"],
    }


def join(a, name, head, rows, meta):
    old, head, old_rows, rows = committed(a, name, head, rows, meta)
    old_names = [x[0] for x in old_rows]
    new_names = [x[0] for x in rows]
    both = sorted(set(old_names) & set(new_names))
    checked = []
    if old.get("model_revisions") != meta["model_revisions"]:
        revs = f"committed {old.get('model_revisions')}, new {meta['model_revisions']}"
        if not both:
            raise JoinError(f"model revisions differ ({revs}): rerun one or more committed "
                            f"points with the new binary to show the model is the same for this sweep")
        same_model(head, old_rows, rows, both, f"model revisions differ ({revs})")
        checked = both
        rows = [r for r in rows if r[0] not in checked]
        new_names = [x[0] for x in rows]
        meta = dict(meta)
        meta["parts"] = [dict(meta["parts"][0], points=new_names, checked=checked)]
    elif both:
        raise JoinError(f"{len(both)} points are committed already, e.g. {both[0]}")
    waiting = {m[0] for m in old.get("missing", [])}
    extra = [n for n in new_names if n not in waiting]
    if extra:
        raise JoinError(f"{extra[0]} is not one of the committed file's missing points")
    order = {n: i for i, n in enumerate(plan_order(a.sweep_h5))}
    unplanned = [n for n in old_names + new_names if n not in order]
    if unplanned:
        raise JoinError(f"{unplanned[0]} is not in the plan")
    joined = sorted(old_rows + rows, key=lambda x: order[x[0]])
    have = set(old_names) | set(new_names)
    out = dict(meta)
    out.update({
        "points_merged": len(joined),
        "missing": [m for m in meta["missing"] if m[0] not in have],
        **provenance(old, meta, set(old.get("model_revisions", [])) | set(meta["model_revisions"])),
    })
    return head, joined, totals(out, old_parts(old, old_names) + meta["parts"])


def replace(a, name, head, rows, meta):
    where = a.replace
    key, eq, val = where.partition("=")
    if not eq or key not in meta["axes"]:
        raise JoinError(f"--replace {where}: not AXIS=VALUE with an axis of the sweep ({', '.join(meta['axes'])})")
    old, head, old_rows, rows = committed(a, name, head, rows, meta)
    k = head.index(key)
    old_names = [x[0] for x in old_rows]
    new_by = {r[0]: r for r in rows}
    vals = set(val.split(","))
    hit = [n for n, r in zip(old_names, old_rows) if r[k] in vals]
    if not hit:
        raise JoinError(f"no committed point has {where}")
    lacking = [n for n in hit if n not in new_by]
    if lacking:
        raise JoinError(f"{len(lacking)} committed points with {where} were not rerun, e.g. {lacking[0]}")
    stray = [n for n in new_by if n not in old_names]
    if stray:
        raise JoinError(f"{stray[0]} is not a committed point")
    checks = [n for n in new_by if new_by[n][k] not in vals]
    if not checks:
        raise JoinError(f"no check point: rerun one or more committed points without {where} "
                        f"to show the change does not reach them")
    same_model(head, old_rows, rows, checks, f"--replace {where}")
    joined = [new_by[n] if n in hit else r for n, r in zip(old_names, old_rows)]
    parts = [dict(p, points=[n for n in p["points"] if n not in hit]) for p in old_parts(old, old_names)]
    new = dict(meta["parts"][0], points=hit, checked=checks, replaced_where=where)
    parts = [p for p in parts if p["points"]] + [new]
    out = dict(old)
    out.update(provenance(old, meta, {r for p in parts for r in p["model_revisions"]}))
    return head, joined, totals(out, parts)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("sweep_h5")
    ap.add_argument("out")
    ap.add_argument("--binary-commit", default=None,
                    help="the git commit the uvmsim binary was built from")
    ap.add_argument("--cpu-seconds", type=float, default=None,
                    help="measured CPU seconds of the whole sweep run (user + sys)")
    ap.add_argument("--join", action="store_true",
                    help="add these points to the committed OUT/NAME files (a sweep committed in part)")
    ap.add_argument("--replace", metavar="AXIS=VALUE[,VALUE...]", default=None,
                    help="these points replace the committed ones with AXIS=VALUE, or any of the "
                         "comma-separated values (the others run are check points)")
    a = ap.parse_args(argv)
    try:
        f = h5py.File(a.sweep_h5, "r")
    except OSError as e:
        print(f"export_points: {a.sweep_h5}: {e}", file=sys.stderr)
        return 2
    with f:
        if "points" not in f:
            print(f"export_points: {a.sweep_h5}: not a merged sweep (no /points)", file=sys.stderr)
            return 2
        pts = f["points"]
        cols = list(pts.dtype.names)
        axes = [text(x) for x in f.attrs["axes"]]
        sweep_file = text(f.attrs.get("sweep_file", ""))
        name = os.path.splitext(os.path.basename(sweep_file))[0] or "sweep"
        extra = ["uvmsim_version", "model_revision", "seed", "cpu_seconds"]
        head = ["name"] + axes + ["status"] + extra + [c for c in cols if c not in ["name", "status"] + axes]
        rows, versions, revisions, cpu = [], set(), set(), 0.0
        for r in pts[()]:
            d = {c: r[c] for c in cols}
            pname = text(d["name"])
            run = f["runs"][pname].attrs if "runs" in f and pname in f["runs"] else {}
            host = f["host"][pname].attrs if "host" in f and pname in f["host"] else {}
            d["uvmsim_version"] = text(run.get("uvmsim_version", ""))
            d["model_revision"] = run.get("model_revision", "")
            d["seed"] = run.get("seed", "")
            d["cpu_seconds"] = host.get("cpu_seconds", float("nan"))
            versions.add(d["uvmsim_version"])
            revisions.add(int(d["model_revision"]) if d["model_revision"] != "" else -1)
            if d["cpu_seconds"] == d["cpu_seconds"]:
                cpu += float(d["cpu_seconds"])
            rows.append([cell(d[c]) for c in head])
        missing = [[text(m["name"]), text(m["state"]), int(m["exit_code"])]
                   for m in f["missing"][()]] if "missing" in f else []
        meta = {
            "sweep": name,
            "sweep_file": sweep_file,
            "axes": axes,
            "points_planned": int(f.attrs.get("points_planned", len(rows))),
            "points_merged": len(rows),
            "missing": missing,
            "uvmsim_versions": sorted(versions),
            "model_revisions": sorted(revisions),
            "file_model_revision": int(f.attrs.get("model_revision", -1)),
            "binary_commit": a.binary_commit,
            "cpu_seconds_points": round(cpu, 3),
            "cpu_seconds_measured": a.cpu_seconds,
        }
    meta["parts"] = [part(meta, [r[0] for r in rows])]
    if a.join and a.replace:
        print("export_points: --join and --replace are two different completions: give one", file=sys.stderr)
        return 2
    if a.join or a.replace:
        try:
            head, rows, meta = (join if a.join else replace)(a, name, head, rows, meta)
        except JoinError as e:
            print(f"export_points: {'--join' if a.join else '--replace'} {name}: {e}", file=sys.stderr)
            return 2
    os.makedirs(a.out, exist_ok=True)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(head)
    w.writerows(rows)
    with open(os.path.join(a.out, f"{name}.points.csv.gz"), "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as g:
            g.write(buf.getvalue().encode())
    with open(os.path.join(a.out, f"{name}.meta.json"), "w") as out:
        json.dump(meta, out, indent=1, sort_keys=True)
        out.write("\n")
    print(f"{name}: {len(rows)} points -> {a.out}/{name}.points.csv.gz")
    return 0


if __name__ == "__main__":
    sys.exit(main())
