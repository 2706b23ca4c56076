#!/usr/bin/env python3
"""The fast model against the cycle model on the issue's full set (issue 41).

  fast_full.py plan [--points N]            the set, one line per point
  fast_full.py run DIR [-j JOBS] [--binary B] [--timeout S] [--points N]
  fast_full.py collect DIR -o CSV           one row per point and model
  fast_full.py report CSV                   the markdown tables (stdout)

The set: every reproduction sweep whose merged results are committed
(validation/results/*.meta.json) at its own sizes, minus thesis Ch. VI
(fast refuses selective caching, sim/system_model.c).  Its points come in
groups, a group being the points of a sweep that share the workload's
identity (every workload.* key, gpu.memory.fraction, host.dram.channels)
and differ in the rest (the policies): each point is then both an error
sample and a member of a policy ranking.  Per sweep the fewest groups,
spread evenly over its plan ((2i+1) n / 2G), that give at least
--points / (number of sweeps) points (at least one group).

`run` runs each point in both models with the same binary (`uvmsim run`
on the sweep's base with its set: keys and the point's overrides, plus
-s sim.model=cycle|fast), JOBS at a time, longest first by the committed
cpu_seconds; a run whose result exists is kept (rerun by removing it).
`collect` reads each pair's metrics and the runs' CPU seconds into CSV
(the file committed as validation/fast/full.points.csv.gz); `report`
renders docs/fast-validation.md from it (tests/e2e/fast_validation.sh
checks the committed doc against the committed CSV).
"""
import argparse
import csv
import glob
import gzip
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MODELS = ("cycle", "fast")
# metric: (column, what the h5 holds)
METRICS = [
    ("sim time", "sim_time_ps"),
    ("faults", "gmmu/faults"),
    ("batches", "driver/batches"),
    ("pages migrated", "driver/pages_migrated"),
    ("pages evicted", "driver/evictions"),
    ("link bytes", "link/bytes"),
    ("IPC", "gpu/ipc"),
]
# The goals (sim time; counts): fault-bound points, the others.
GOALS = {"fault-bound": (3.0, 10.0), "other": (5.0, 15.0), "counts": 2.0}
TIE = 0.005     # a sim-time difference under 0.5 % of the smaller is a tie


def identity(key):
    return key.startswith("workload.") or key in ("gpu.memory.fraction", "host.dram.channels")


def sweeps():
    out = []
    for m in sorted(glob.glob(os.path.join(ROOT, "validation", "results", "*.meta.json"))):
        name = os.path.basename(m)[:-len(".meta.json")]
        if name.startswith("thesis-ch6-"):
            continue
        if os.path.exists(os.path.join(ROOT, "configs", "sweeps", name + ".yaml")):
            out.append(name)
    return out


def plan(binary, sweep):
    """(base, sets, [(name, overrides)]) from `uvmsim sweep plan`."""
    p = subprocess.run([binary, "sweep", "plan", os.path.join(ROOT, "configs", "sweeps", sweep + ".yaml")],
                       capture_output=True, text=True, cwd=ROOT)
    if p.returncode:
        sys.exit(f"fast_full: sweep plan {sweep}: {p.stderr.strip()}")
    base, sets, pts = None, [], []
    for line in p.stdout.splitlines():
        if line.startswith("base: "):
            base = line[6:]
        elif line.startswith("set: "):
            sets.append(line[5:])
        else:
            f = line.split()
            if len(f) >= 3 and f[0].isdigit():
                pts.append((f[1], f[2:]))
    return base, sets, pts


def committed_cpu(sweep):
    return {n: float(r["cpu_seconds"] or 0) for n, r in committed_rows(sweep).items()}


def select(binary, total):
    """[(sweep, group, name, base, sets, overrides, est_cpu)]"""
    names = sweeps()
    per = max(1, -(-total // len(names)))
    out = []
    for sw in names:
        base, sets, pts = plan(binary, sw)
        groups = {}
        for name, ovr in pts:
            key = " ".join(o for o in ovr if identity(o.split("=")[0]))
            groups.setdefault(key, []).append((name, ovr))
        order = list(groups)
        size = max(1, round(len(pts) / len(order)))
        g = min(len(order), max(1, -(-per // size)))
        cpu = committed_cpu(sw)
        for i in range(g):
            k = order[(2 * i + 1) * len(order) // (2 * g)]
            for name, ovr in groups[k]:
                out.append((sw, i, name, base, sets, ovr, cpu.get(name, 0.0)))
    return out


def cmd_plan(a):
    sel = select(a.binary, a.points)
    for sw, g, name, _, _, ovr, est in sel:
        print(sw, g, name, "%.1f" % est, " ".join(ovr))
    print(f"# {len(sel)} points from {len({s[0] for s in sel})} sweeps; committed cpu_seconds "
          f"{sum(s[6] for s in sel):.0f} (one model)", file=sys.stderr)


# The placement profiles the thesis sweeps name (profiles/thesis-chN-K.prof)
# come from the reproduction's first pass; made here when missing.
PROFILE_SCRIPTS = {"thesis-ch4-": "scripts/thesis_ch4_profiles.sh",
                   "thesis-ch5-": "scripts/thesis_ch5_profiles.sh"}


def make_profiles(binary, sel):
    need = {o.split("=", 1)[1] for *_, ovr, _ in sel for o in ovr
            if o.startswith("driver.place.profile=")}
    for pre, script in PROFILE_SCRIPTS.items():
        if any(os.path.basename(n).startswith(pre) and not os.path.exists(os.path.join(ROOT, n))
               for n in need):
            print(f"fast_full: {script} (profiles the sweeps name)", flush=True)
            subprocess.run(["sh", script, binary], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)


def cmd_run(a):
    os.makedirs(a.dir, exist_ok=True)
    sel = select(a.binary, a.points)
    make_profiles(a.binary, sel)
    with open(os.path.join(a.dir, "set.txt"), "w") as f:
        for sw, g, name, *_ in sel:
            f.write(f"{sw} {g} {name}\n")
    jobs = []
    for sw, g, name, base, sets, ovr, est in sel:
        for m in MODELS:
            out = os.path.join(a.dir, f"{sw}.{name}.{m}")
            if os.path.exists(out + ".h5"):
                continue
            args = [a.binary, "run", base]
            for s in sets + ovr:
                args += ["-s", s]
            args += ["-s", f"sim.model={m}", "-o", out + ".h5", "--quiet", "--no-host-metrics"]
            jobs.append((est / (3 if m == "fast" else 1), out, args))
    jobs.sort(key=lambda j: -j[0])
    running, failed = {}, 0
    t0 = time.time()
    while jobs or running:
        while jobs and len(running) < a.jobs:
            _, out, args = jobs.pop(0)
            log = open(out + ".log", "w")
            p = subprocess.Popen(["timeout", str(a.timeout)] + args, stdout=log, stderr=log,
                                 stdin=subprocess.DEVNULL, cwd=ROOT)
            running[p.pid] = (out, log)
        pid, status, ru = os.wait4(-1, 0)
        if pid not in running:
            continue
        out, log = running.pop(pid)
        log.close()
        rc = os.waitstatus_to_exitcode(status)
        with open(out + ".time", "w") as f:
            f.write("%.3f\n" % (ru.ru_utime + ru.ru_stime))
        if rc:
            failed += 1
            print(f"fast_full: {os.path.basename(out)} exit {rc} ({out}.log)", file=sys.stderr)
            if os.path.exists(out + ".h5"):
                os.remove(out + ".h5")
        print(f"[{time.time() - t0:7.0f} s] {len(jobs)} queued, {len(running)} running: "
              f"{os.path.basename(out)} {ru.ru_utime + ru.ru_stime:.1f} s", flush=True)
    return 1 if failed else 0


def h5_metrics(path):
    import h5py
    with h5py.File(path, "r") as f:
        st = lambda k: float(f["stats/" + k][()]) if "stats/" + k in f else 0.0
        m = {}
        for col, k in METRICS:
            if k == "sim_time_ps":
                m[col] = float(f.attrs["sim_time_ps"])
            elif k == "link/bytes":
                m[col] = st("link/h2d/bytes") + st("link/d2h/bytes")
            else:
                m[col] = st(k)
        m["events"] = float(f.attrs["events"])
        m["mem_insts"] = st("gpu/mem_insts")
        m["model"] = f["config"].attrs.get("sim.model", b"")
        if isinstance(m["model"], bytes):
            m["model"] = m["model"].decode()
        return m


# the committed results' columns for the metrics compared with the cycle run
SAME = [("sim time", "sim_time_ps"), ("faults", "gmmu.faults"), ("batches", "driver.batches"),
        ("pages evicted", "driver.evictions")]


def committed_rows(sweep):
    path = os.path.join(ROOT, "validation", "results", sweep + ".points.csv.gz")
    with gzip.open(path, "rt") as f:
        return {r["name"]: r for r in csv.DictReader(f)}


def cmd_collect(a):
    rows, com = [], {}
    for line in open(os.path.join(a.dir, "set.txt")):
        sw, g, name = line.split()
        r = {"sweep": sw, "group": g, "name": name}
        if sw not in com:
            com[sw] = committed_rows(sw)
        for m in MODELS:
            base = os.path.join(a.dir, f"{sw}.{name}.{m}")
            if not os.path.exists(base + ".h5"):
                sys.exit(f"fast_full: {base}.h5 missing (rerun `run`)")
            v = h5_metrics(base + ".h5")
            if v["model"] not in ("", m):
                sys.exit(f"fast_full: {base}.h5 ran model {v['model']}")
            for col, _ in METRICS:
                r[f"{m}.{col}"] = repr(v[col])
            r[f"{m}.events"] = repr(v["events"])
            r[f"{m}.mem_insts"] = repr(v["mem_insts"])
            r[f"{m}.cpu_seconds"] = open(base + ".time").read().strip()
        c = com[sw].get(name)
        # 1 when this binary's cycle run gives the committed point's numbers
        r["committed_same"] = int(c is not None and all(
            float(c[k] or "nan") == float(r["cycle." + col]) for col, k in SAME))
        rows.append(r)
    op = gzip.open if a.output.endswith(".gz") else open
    with op(a.output, "wt", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    print(f"fast_full: {len(rows)} points to {a.output}")


def load(path):
    op = gzip.open if path.endswith(".gz") else open
    with op(path, "rt") as f:
        rows = list(csv.DictReader(f))
    for r in rows:
        for k in list(r):
            if k.startswith(MODELS) or k == "committed_same":
                r[k] = float(r[k])
    return rows


def err(r, col):
    a, b = r["cycle." + col], r["fast." + col]
    if a == 0:
        return 0.0 if b == 0 else 100.0
    return abs(b - a) / abs(a) * 100


def signed(r, col):
    a, b = r["cycle." + col], r["fast." + col]
    return (b - a) / a * 100 if a else 0.0


def q(v, x):
    v = sorted(v)
    return v[min(len(v) - 1, int(round(x * (len(v) - 1))))] if v else 0.0


def dist(sel, col):
    e = [(err(r, col), r["sweep"] + "." + r["name"]) for r in sel]
    v = [x for x, _ in e]
    w = max(e) if e else (0.0, "-")
    return q(v, .5), q(v, .95), w


def fault_bound(r):
    return r["cycle.pages evicted"] > 0


def ranking(rows):
    """{sweep: (groups, pairs, kept, ties, [reversed])}"""
    groups = {}
    for r in rows:
        groups.setdefault((r["sweep"], r["group"]), []).append(r)
    out = {}
    for (sw, _), pts in groups.items():
        o = out.setdefault(sw, [0, 0, 0, 0, []])
        o[0] += 1
        for i in range(len(pts)):
            for j in range(i + 1, len(pts)):
                a, b = pts[i], pts[j]
                oc = order(a["cycle.sim time"], b["cycle.sim time"])
                of = order(a["fast.sim time"], b["fast.sim time"])
                o[1] += 1
                if oc == of or oc == 0 or of == 0:
                    o[2] += 1
                    o[3] += oc == 0 or of == 0
                else:
                    o[4].append((a["name"], b["name"], a["cycle.sim time"] / b["cycle.sim time"],
                                 a["fast.sim time"] / b["fast.sim time"]))
    return out


def order(a, b):
    lo = min(a, b)
    return 0 if lo and abs(a - b) < TIE * lo else (1 if a > b else -1)


def cmd_report(a):
    rows = load(a.csv)
    print(render(rows), end="")


def render(rows):
    L = []
    p = L.append
    sw_names = list(dict.fromkeys(r["sweep"] for r in rows))
    fb = [r for r in rows if fault_bound(r)]
    ot = [r for r in rows if not fault_bound(r)]
    p("# The fast model against the cycle model: the full validation set\n")
    p("Generated by `make fast-validation` (`scripts/validation/fast_full.py report`)\n"
      "from the committed runs, validation/fast/full.points.csv.gz (written by\n"
      "`scripts/validate_fast.sh`; the set and the method: fast_full.py's header and\n"
      "[fast-model.md](fast-model.md)).  Do not edit by hand:\n"
      "tests/e2e/fast_validation.sh checks it against the CSV.\n")
    p("%d points from %d sweeps, each run in both models by one binary at the\n"
      "sweep's own sizes; %d fault-bound (cycle evicted pages), %d not.\n"
      % (len(rows), len(sw_names), len(fb), len(ot)))
    p("## Against the issue's goals\n")
    p("| set | metric | median | p95 | goal (median / p95) | met |")
    p("| --- | --- | ---: | ---: | --- | --- |")
    for label, sel, (gm, gp) in (("fault-bound", fb, GOALS["fault-bound"]), ("other", ot, GOALS["other"])):
        m, p95, _ = dist(sel, "sim time")
        p("| %s (%d) | sim time | %.2f %% | %.2f %% | %.0f %% / %.0f %% | %s |"
          % (label, len(sel), m, p95, gm, gp, "yes" if m <= gm and p95 <= gp else "no"))
    for col in ("faults", "pages migrated", "pages evicted"):
        m, p95, _ = dist(rows, col)
        p("| all (%d) | %s | %.2f %% | %.2f %% | %.0f %% / - | %s |"
          % (len(rows), col, m, p95, GOALS["counts"], "yes" if m <= GOALS["counts"] else "no"))
    rk = ranking(rows)
    n = sum(v[1] for v in rk.values())
    k = sum(v[2] for v in rk.values())
    p("| all groups (%d) | policy ranking kept | %.1f %% of %d pairs | | 95 %% | %s |\n"
      % (sum(v[0] for v in rk.values()), 100.0 * k / max(n, 1), n, "yes" if k >= 0.95 * n else "no"))
    for title, sel in (("All points", rows), ("Fault-bound points", fb), ("Other points", ot)):
        p("## %s (%d)\n" % (title, len(sel)))
        p("| metric | median | p95 | max | worst point |")
        p("| --- | ---: | ---: | ---: | --- |")
        for col, _ in METRICS:
            m, p95, w = dist(sel, col)
            p("| %s | %.2f %% | %.2f %% | %.2f %% | %s |" % (col, m, p95, w[0], w[1]))
        p("")
    p("## Per sweep\n")
    p("|err| of fast against cycle in %, median / p95 / max per metric; the\n"
      "worst sim-time point named (its signed error, fast - cycle); \"cycle =\n"
      "committed\": the points whose cycle run gives the committed result's sim\n"
      "time, faults, batches and evictions (validation/results), so that the\n"
      "sweep's committed results are this binary's cycle model.\n")
    p("| sweep | points | fault-bound | cycle = committed | " + " | ".join(c for c, _ in METRICS)
      + " | worst sim time |")
    p("| --- | ---: | ---: | ---: | " + " | ".join("---" for _ in METRICS) + " | --- |")
    for sw in sw_names:
        sel = [r for r in rows if r["sweep"] == sw]
        cells = []
        for col, _ in METRICS:
            m, p95, w = dist(sel, col)
            cells.append("%.1f / %.1f / %.1f" % (m, p95, w[0]))
        w = max(sel, key=lambda r: err(r, "sim time"))
        p("| %s | %d | %d | %d | %s | %s (%+.1f %%) |"
          % (sw, len(sel), sum(map(fault_bound, sel)), sum(r["committed_same"] for r in sel),
             " | ".join(cells), w["name"], signed(w, "sim time")))
    p("\n## Policy ranking per workload\n")
    p("A group is one workload at one size and memory fraction under each of\n"
      "the sweep's policies; every pair of its points ordered by sim time in\n"
      "each model (under 0.5 % apart is a tie, and a tie in either model keeps\n"
      "the pair).\n")
    p("| sweep | groups | pairs | kept | of which ties | reversed |")
    p("| --- | ---: | ---: | ---: | ---: | ---: |")
    for sw in sw_names:
        g, n_, k_, t, rev = rk[sw]
        p("| %s | %d | %d | %d | %d | %d |" % (sw, g, n_, k_, t, len(rev)))
    p("| all | %d | %d | %d (%.1f %%) | %d | %d |\n"
      % (sum(v[0] for v in rk.values()), n, k, 100.0 * k / max(n, 1),
         sum(v[3] for v in rk.values()), n - k))
    revs = [(sw, x) for sw in sw_names for x in rk[sw][4]]
    if revs:
        p("Reversed pairs (sim time of the first over the second, in each model):\n")
        p("| sweep | first | second | cycle | fast |")
        p("| --- | --- | --- | ---: | ---: |")
        for sw, (pa, pb, c, f) in revs:
            p("| %s | %s | %s | %.4f | %.4f |" % (sw, pa, pb, c, f))
        p("")
    tc = sum(r["cycle.cpu_seconds"] for r in rows)
    tf = sum(r["fast.cpu_seconds"] for r in rows)
    ev = lambda m: q([r[m + ".events"] / max(r[m + ".mem_insts"], 1) for r in rows], .5)
    p("## Speed\n")
    p("CPU seconds of the whole set: cycle %.1f, fast %.1f: %.2fx (the runs two at\n"
      "a time on the 2-core machine; read to +-15 %%).  Engine events per warp\n"
      "memory instruction, median over the points: cycle %.1f, fast %.1f.\n"
      % (tc, tf, tc / tf if tf else 0, ev("cycle"), ev("fast")))
    p("| sweep | cycle CPU s | fast CPU s | ratio |")
    p("| --- | ---: | ---: | ---: |")
    for sw in sw_names:
        sel = [r for r in rows if r["sweep"] == sw]
        c = sum(r["cycle.cpu_seconds"] for r in sel)
        f = sum(r["fast.cpu_seconds"] for r in sel)
        p("| %s | %.1f | %.1f | %.2fx |" % (sw, c, f, c / f if f else 0))
    return "\n".join(L) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    for c in ("plan", "run"):
        s = sub.add_parser(c)
        if c == "run":
            s.add_argument("dir")
            s.add_argument("-j", "--jobs", type=int, default=2)
            s.add_argument("--timeout", type=int, default=1800)
        s.add_argument("--binary", default=os.path.join(ROOT, "build", "uvmsim"))
        s.add_argument("--points", type=int, default=200)
    s = sub.add_parser("collect")
    s.add_argument("dir")
    s.add_argument("-o", "--output", required=True)
    s = sub.add_parser("report")
    s.add_argument("csv")
    a = ap.parse_args(argv)
    if getattr(a, "binary", None):
        a.binary = os.path.abspath(a.binary)
    return {"plan": cmd_plan, "run": cmd_run, "collect": cmd_collect, "report": cmd_report}[a.cmd](a) or 0


if __name__ == "__main__":
    sys.exit(main())
