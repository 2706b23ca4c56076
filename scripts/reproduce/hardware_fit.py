#!/usr/bin/env python3
"""The calibration of the real-driver baseline's CPU-side costs (issue 40):
a least-squares fit of driver.fault_latency (per batch), fault_cost,
block_cost, page_cost, new_block_cost and first_fault_cost on the timed rows of
validation/hardware/measurements.csv -- the UVMSmart micro-benchmarks'
fault times (GTX 1080 Ti) and Allen and Ge's batch time and end-to-end
rate (Titan V) -- and nothing else.

  hardware_fit.py UVMSIM [--check] [--csv FILE]

Each run is made once with every cost 0.  A row's time is then linear in
the costs: t = t0 + sum_k c_k x_k, x = (batches, faults, VA blocks serviced, pages
migrated, VA blocks first serviced, first batch) of its batch (fault_us),
of the run's mean full batch (batch_us), or of the whole run (run_gbs, on
the run's time, the driver being its critical path).  The fit minimises
the sum of squared relative residuals ((t - t_gpu) / t_gpu)^2, every
measurement one term, with every cost >= 0 (the best of the fits over
each subset of costs held at 0).  --check reruns with the fitted costs and
prints the residuals uvmsim then has (the linear model's and the rerun's
differ where costs change a batch's make-up).  Prints Markdown.
"""
import argparse
import itertools
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import hardware_lib as hw  # noqa: E402


def solve(a, b):
    """Solve the square system A x = b (Gaussian elimination, pivoting)."""
    n = len(b)
    m = [list(a[i]) + [b[i]] for i in range(n)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        if abs(m[p][c]) < 1e-18:
            return None
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                m[r] = [u - f * v for u, v in zip(m[r], m[c])]
    return [m[i][n] / m[i][i] for i in range(n)]


def fit(data):
    """DATA: (t0, x, y).  Non-negative weighted least squares over the
    subsets of free costs; returns (costs, objective)."""
    k = len(data[0][1])
    best = None
    for free in itertools.product((0, 1), repeat=k):
        idx = [i for i in range(k) if free[i]]
        c = [0.0] * k
        if idx:
            # rows scaled by 1 / y: minimise sum ((t0 + x.c - y) / y)^2
            ata = [[sum(x[i] * x[j] / y ** 2 for _, x, y in data) for j in idx] for i in idx]
            atb = [sum(x[i] * (y - t0) / y ** 2 for t0, x, y in data) for i in idx]
            sol = solve(ata, atb)
            if sol is None or min(sol) < 0:
                continue
            for i, v in zip(idx, sol):
                c[i] = v
        obj = sum(((t0 + sum(ci * xi for ci, xi in zip(c, x)) - y) / y) ** 2 for t0, x, y in data)
        if best is None or obj < best[1] - 1e-15:
            best = (c, obj)
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("uvmsim")
    ap.add_argument("--csv", default=hw.CSV)
    ap.add_argument("--check", action="store_true", help="rerun with the fitted costs")
    a = ap.parse_args()
    rows = [r for r in hw.load(a.csv) if r["kind"] != "semantic"]
    zero = [f"{k}=0ns" for k in hw.COSTS]
    runs = {}
    for r in rows:
        if hw.run_key(r) not in runs:
            runs[hw.run_key(r)] = hw.run(a.uvmsim, r["preset"], r["sets"], zero)
    data = [hw.regressors(r, runs[hw.run_key(r)]) for r in rows]
    c, obj = fit(data)
    print("## The fit\n")
    print(f"{len(rows)} measurements, {len(hw.COSTS)} costs, sum of squared relative residuals {obj:.4f}\n")
    print("| key | fitted (us) | configs/driver-real.yaml |")
    print("|---|---:|---|")
    for k, v in zip(hw.COSTS, c):
        ns = round(v * 1000)
        print(f"| `{k}` | {v:.3f} | `{k.split('.', 1)[1]}: {ns}ns` |")
    checked = {}
    if a.check:
        sets = [f"{k}={round(v * 1000)}ns" for k, v in zip(hw.COSTS, c)]
        for key in runs:
            checked[key] = hw.run(a.uvmsim, key[0], key[1], sets)
    print("\n## Residuals\n")
    print("| id | GPU (us) | uvmsim, costs 0 | fit (linear) | resid. | uvmsim, fitted |"
          " resid. |" if a.check else "| id | GPU (us) | uvmsim, costs 0 | fit (linear) | resid. |")
    print("|---|---:|---:|---:|---:|" + ("---:|---:|" if a.check else ""))
    for r, (t0, x, y) in zip(rows, data):
        t = t0 + sum(ci * xi for ci, xi in zip(c, x))
        line = f"| {r['id']} | {y:.1f} | {t0:.1f} | {t:.1f} | {100 * (t - y) / y:+.0f} % |"
        if a.check:
            t1 = hw.regressors(r, checked[hw.run_key(r)])[0]
            line += f" {t1:.1f} | {100 * (t1 - y) / y:+.0f} % |"
        print(line)


if __name__ == "__main__":
    main()
