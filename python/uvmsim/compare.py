"""Comparing measured numbers with a paper's (scripts/reproduce/*_table.py).

The reproduction tables put each number uvmsim measured next to the
paper's and say whether the claim is reproduced: in the paper's direction
and within +-25 % of its magnitude (issue 15).
"""
import math

# Issue 15: a claim is reproduced within +-25 % of the paper's magnitude.
TOLERANCE = 0.25


def gmean(xs):
    """Geometric mean of the positive, non-NaN values (NaN if none)."""
    xs = [x for x in xs if x == x and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def verdict(got, paper):
    """Reproduced: same side of 1 as the paper and within +-25 % of it.

    A ratio near 1 is within 25 % of any modest paper ratio, so an effect
    that is absent (uvmsim 1.01x where the paper has 1.16x) would pass;
    the direction therefore also needs at least a quarter of the paper's
    effect (|got - 1| >= |paper - 1| / 4), else the verdict is "no".
    Returns "yes", "direction only", "no" or "missing" (GOT is NaN).
    """
    if got != got:
        return "missing"
    same = (got - 1) * (paper - 1) > 0 or (abs(got - 1) < 0.02 and abs(paper - 1) < 0.02)
    if abs(paper - 1) >= 0.02 and abs(got - 1) < abs(paper - 1) / 4:
        same = False
    close = abs(got / paper - 1) <= TOLERANCE
    return "yes" if same and close else ("direction only" if same else "no")


def effect_verdict(got, paper):
    """For a claim stated as a change (-16 %, +6 %, a 2 % worst-case
    slowdown): the change itself, got - 1 against paper - 1, must have the
    paper's sign and be within +-25 % of its size.  (The ratio test of
    verdict() would pass a 20 % slowdown against a claimed 2 %.)"""
    if got != got:
        return "missing"
    e, p = got - 1, paper - 1
    if e * p <= 0:
        return "no"
    return "yes" if abs(e / p - 1) <= TOLERANCE else "direction only"


def f3(x):
    """A table cell: three decimals, "-" for NaN."""
    return "-" if x != x else f"{x:.3f}"
