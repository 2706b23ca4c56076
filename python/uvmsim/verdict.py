"""The one rule that says whether uvmsim reproduces a paper's claim (issue 39).

Every table script (scripts/reproduce/*_table.py) and the claims list
(validation/claims.yaml, `make validation`) judge through this module;
nothing else computes a verdict.  A verdict is one of

    REPRODUCED  "reproduced"
    DIRECTION   "direction"    the paper's sign, at least a quarter of its effect
    NOT         "not"
    MISSING     "missing"      uvmsim's value is absent (NaN / None)

The rule, by the kind of claim (docs/validation.md, "How a claim is judged"):

- ratio or change: the effect is ratio - 1 (for a change, the change
  itself).  Reproduced when the sign matches and |e_u - e_p| <= 0.25 |e_p|;
  direction when the sign matches and |e_u| >= 0.25 |e_p|; otherwise not.
  A paper effect of exactly 0 ("about equal", "on par", ratio 1.0) has no
  sign to match: it is judged as an absolute claim on the ratio (within
  25 % of 1.0, i.e. |e_u| <= 0.25) and is never "direction".
- absolute: within 25 % of the paper's value (never "direction").
- ordering: the share of the pairs that are in the paper's order;
  reproduced when every pair is (share 1), direction when more than half
  are, otherwise not.
- in-N-of-M ("in all cases", "7 of 12"): the count against the paper's
  count, no margin: reproduced when it equals it (for "all", every case),
  otherwise not.
- qualitative (a bound such as "> 1", or a named property): reproduced
  when it holds, otherwise not.
"""
import math

TOLERANCE = 0.25          # issue 15 / 39: a quarter of the paper's effect
REPRODUCED, DIRECTION, NOT, MISSING = "reproduced", "direction", "not", "missing"
VERDICTS = (REPRODUCED, DIRECTION, NOT, MISSING)
KINDS = ("ratio", "change", "absolute", "ordering", "in-N-of-M", "qualitative")

# Floating-point slack so that a value exactly on a boundary written in
# decimal (1.25 against 1.20) lands on the inclusive side.
_EPS = 1e-9


def _absent(x):
    return x is None or (isinstance(x, float) and math.isnan(x))


def effect(value, kind="ratio"):
    """The effect of a ratio (ratio - 1) or of a change (itself)."""
    if kind == "ratio":
        return value - 1.0
    if kind == "change":
        return value
    raise ValueError(f"effect of kind {kind!r}: only ratio or change")


def effect_verdict(uvmsim, paper, kind="ratio"):
    """Judge a ratio or a change (see the module's rule)."""
    if _absent(uvmsim):
        return MISSING
    e_u, e_p = effect(uvmsim, kind), effect(paper, kind)
    if e_p == 0:
        return REPRODUCED if abs(e_u) <= TOLERANCE * (1 + _EPS) else NOT
    if e_u * e_p <= 0:
        return NOT
    slack = _EPS * abs(e_p)
    if abs(e_u - e_p) <= TOLERANCE * abs(e_p) + slack:
        return REPRODUCED
    if abs(e_u) >= TOLERANCE * abs(e_p) - slack:
        return DIRECTION
    return NOT


def absolute_verdict(uvmsim, paper):
    """Within 25 % of the paper's value (a paper value of 0: exactly 0)."""
    if _absent(uvmsim):
        return MISSING
    return REPRODUCED if abs(uvmsim - paper) <= TOLERANCE * abs(paper) * (1 + _EPS) else NOT


def ordering_share(values, order="ascending"):
    """The share of the pairs (i < j) of VALUES that are in ORDER
    ("ascending": values[i] < values[j]; "descending": >)."""
    vs = list(values)
    pairs = [(a, b) for i, a in enumerate(vs) for b in vs[i + 1:]]
    if not pairs:
        raise ValueError("an ordering needs at least two values")
    ok = sum(1 for a, b in pairs if (a < b if order == "ascending" else a > b))
    return ok / len(pairs)


def ordering_verdict(share):
    """Every pair in order: reproduced; more than half: direction."""
    if _absent(share):
        return MISSING
    if share >= 1.0:
        return REPRODUCED
    return DIRECTION if share > 0.5 else NOT


def count_verdict(count, paper_count):
    """"In all cases" / "in N of M": the count, no margin."""
    if _absent(count):
        return MISSING
    return REPRODUCED if count == paper_count else NOT


def holds(condition):
    """A qualitative claim (a bound, a named property): it holds or not."""
    if condition is None:
        return MISSING
    return REPRODUCED if condition else NOT


def judge(kind, uvmsim, paper=None):
    """Dispatch by the claim's kind (validation/claims.yaml).  For an
    ordering UVMSIM is the share of pairs in order; for in-N-of-M the
    count (PAPER the paper's count); for qualitative a bool."""
    if kind in ("ratio", "change"):
        return effect_verdict(uvmsim, paper, kind)
    if kind == "absolute":
        return absolute_verdict(uvmsim, paper)
    if kind == "ordering":
        return ordering_verdict(uvmsim)
    if kind == "in-N-of-M":
        return count_verdict(uvmsim, paper)
    if kind == "qualitative":
        return holds(uvmsim)
    raise ValueError(f"unknown kind of claim {kind!r} (one of {', '.join(KINDS)})")
