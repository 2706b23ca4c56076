#!/usr/bin/env python3
"""Which claim verdicts change when the fast model runs a sweep (issue 41).

  scripts/validation/fast_verdicts.py CYCLE_DIR FAST_DIR

CYCLE_DIR and FAST_DIR each hold exports (scripts/validation/
export_points.py) of the same sweeps run by the same binary, with
`-s sim.model=cycle` and `-s sim.model=fast`.  Every claim of
validation/claims.yaml whose sweeps are all in both directories is judged
on each, by the one verdict module (validation_doc.py's evaluate); prints
one row per claim, its value and verdict in each model, and whether the
verdict changed; exits 1 if one did.  The question is only what the
model choice does, so both sides must be one binary's: CYCLE_DIR may be
the committed validation/results only where the binary's cycle runs give
the committed points (docs/fast-validation.md, "cycle = committed", and
scripts/regress.sh against the binaries that made them), as for
validation/fast/sweeps (docs/fast-model.md, "Claim verdicts").
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import validation_doc as vd  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("cycle_dir")
    ap.add_argument("fast_dir")
    ap.add_argument("--claims", default=os.path.join(vd.ROOT, "validation", "claims.yaml"))
    a = ap.parse_args(argv)
    try:
        doc = vd.load_claims(a.claims)
        cyc, fast = vd.Results(a.cycle_dir), vd.Results(a.fast_dir)
    except (vd.ClaimError, OSError) as e:
        print(f"fast_verdicts: {e}", file=sys.stderr)
        return 2
    both = set(cyc.tables) & set(fast.tables)
    print("| claim | sweep | cycle | verdict | fast | verdict | changed |")
    print("|---|---|---|---|---|---|---|")
    n = changed = 0
    for c in doc["claims"]:
        names = vd.sweep_names(c)
        if not names or c.get("expr") is None or not set(names) <= both:
            continue
        try:
            vc, jc = vd.evaluate(dict(c), cyc)
            vf, jf = vd.evaluate(dict(c), fast)
        except vd.ClaimError as e:
            print(f"fast_verdicts: {e}", file=sys.stderr)
            return 2
        n += 1
        changed += jc != jf
        print(f"| {c['id']} | {', '.join(names)} | {vd.cell(vd.fmt_value(vc))} | {vd.SHOWN[jc]} | "
              f"{vd.cell(vd.fmt_value(vf))} | {vd.SHOWN[jf]} | {'yes' if jc != jf else ''} |")
    print(f"\n{n} claims over {', '.join(sorted(both)) or 'no sweep'}: {changed} verdicts changed")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
