"""Comparing measured numbers with a paper's (scripts/reproduce/*_table.py).

The reproduction tables put each number uvmsim measured next to the
paper's; the verdict is uvmsim.verdict's, the one rule (issue 39).
"""
import math

from . import verdict as _v
from .verdict import TOLERANCE  # noqa: F401


def gmean(xs):
    """Geometric mean of the positive, non-NaN values (NaN if none)."""
    xs = [x for x in xs if x == x and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def verdict(got, paper):
    """A ratio claim, judged by the one rule (uvmsim.verdict, issue 39):
    "reproduced", "direction", "not" or "missing"."""
    return _v.effect_verdict(got, paper, "ratio")


def effect_verdict(got, paper):
    """The same rule (kept for its callers): GOT and PAPER are ratios whose
    effect is ratio - 1."""
    return _v.effect_verdict(got, paper, "ratio")


def f3(x):
    """A table cell: three decimals, "-" for NaN."""
    return "-" if x != x else f"{x:.3f}"
