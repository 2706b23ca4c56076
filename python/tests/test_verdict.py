"""The one verdict rule (issue 39), on hand-made cases at every boundary.

Paper effects are chosen so that 25 % of them is exact in decimal; each
boundary is tested on it, just inside and just outside."""
import math

import pytest

from uvmsim import verdicts as V
from uvmsim.verdict import (DIRECTION, MISSING, NOT, REPRODUCED,
                            absolute_verdict, count_verdict, effect_verdict,
                            holds, judge, ordering_share, ordering_verdict)

NAN = float("nan")


def test_exported_from_the_package():
    import uvmsim
    assert uvmsim.verdict_of is V.judge
    assert uvmsim.effect_verdict(1.5, 1.5) == REPRODUCED


# Paper ratio 1.40: effect +0.40; a quarter of it is 0.10.
@pytest.mark.parametrize("got,want", [
    (1.40, REPRODUCED),          # equal
    (1.50, REPRODUCED),          # exactly +25 % of the effect (0.50 - 0.40 = 0.10)
    (1.30, REPRODUCED),          # exactly -25 % (0.30)
    (1.5001, DIRECTION),         # just above the band
    (1.2999, DIRECTION),         # just below the band, still >= a quarter
    (1.10, DIRECTION),           # exactly a quarter of the effect
    (1.0999, NOT),               # just under a quarter
    (3.00, DIRECTION),           # far above: sign right, magnitude not
    (1.00, NOT),                 # no effect at all: no sign
    (0.90, NOT),                 # sign mismatch
    (NAN, MISSING),
    (None, MISSING),
])
def test_ratio_gain(got, want):
    assert effect_verdict(got, 1.40) == want


# Paper ratio 0.60 (a 40 % reduction): effect -0.40.
@pytest.mark.parametrize("got,want", [
    (0.60, REPRODUCED), (0.50, REPRODUCED), (0.70, REPRODUCED),
    (0.4999, DIRECTION), (0.7001, DIRECTION), (0.90, DIRECTION),
    (0.9001, NOT), (1.05, NOT),
])
def test_ratio_reduction(got, want):
    assert effect_verdict(got, 0.60) == want


def test_the_audits_examples():
    # HPE over LRU +19.5 % against +34 %: outside the band, direction.
    assert effect_verdict(1.195, 1.34) == DIRECTION
    # UE on top of TO +29 % against +61 %: direction.
    assert effect_verdict(1.29, 1.61) == DIRECTION
    # ideal eviction +37 % against +16 %: direction (0.37 - 0.16 > 0.04).
    assert effect_verdict(1.37, 1.16) == DIRECTION
    # nw +6.6 % against +42 %: under a quarter (0.105): not.
    assert effect_verdict(1.066, 1.42) == NOT
    # -12 % against -16 %: |0.04| <= 0.04: reproduced.
    assert effect_verdict(0.88, 0.84) == REPRODUCED


# A change is its own effect: -16 % is -0.16, a quarter 0.04.
@pytest.mark.parametrize("got,want", [
    (-0.16, REPRODUCED), (-0.20, REPRODUCED), (-0.12, REPRODUCED),
    (-0.2001, DIRECTION), (-0.04, DIRECTION), (-0.0399, NOT),
    (0.16, NOT), (0.0, NOT),
])
def test_change(got, want):
    assert effect_verdict(got, -0.16, kind="change") == want


@pytest.mark.parametrize("got,want", [
    (1.00, REPRODUCED), (1.25, REPRODUCED), (0.75, REPRODUCED),
    (1.2501, NOT), (0.7499, NOT), (NAN, MISSING),
])
def test_zero_paper_effect_is_judged_absolute(got, want):
    # "about equal" (ratio 1.0): within 25 % of 1, never "direction".
    assert effect_verdict(got, 1.00) == want
    assert effect_verdict(got - 1 if got == got else got, 0.0, kind="change") == want


@pytest.mark.parametrize("got,want", [
    (0.60, REPRODUCED), (0.75, REPRODUCED), (0.45, REPRODUCED),
    (0.7501, NOT), (0.4499, NOT), (NAN, MISSING),
])
def test_absolute(got, want):
    assert absolute_verdict(got, 0.60) == want
    # a negative value: the band is on its magnitude
    assert absolute_verdict(-got if got == got else got, -0.60) == want


def test_absolute_zero():
    assert absolute_verdict(0.0, 0.0) == REPRODUCED
    assert absolute_verdict(1e-6, 0.0) == NOT


def test_ordering():
    assert ordering_share([1, 2, 3, 4]) == 1.0
    # 4, 1, 2, 3: of the 6 pairs, (1,2) (1,3) (2,3) are in order
    assert ordering_share([4, 1, 2, 3]) == 0.5
    assert ordering_share([3, 2, 1], order="descending") == 1.0
    assert ordering_share([1, 1]) == 0.0          # a tie is not in order
    assert ordering_verdict(1.0) == REPRODUCED
    assert ordering_verdict(5 / 6) == DIRECTION
    assert ordering_verdict(0.5) == NOT            # half is not "more than half"
    assert ordering_verdict(NAN) == MISSING
    with pytest.raises(ValueError):
        ordering_share([1])


def test_count_has_no_margin():
    assert count_verdict(12, 12) == REPRODUCED
    assert count_verdict(11, 12) == NOT            # "in all cases": no 2 % margin
    assert count_verdict(7, 7) == REPRODUCED
    assert count_verdict(8, 7) == NOT
    assert count_verdict(None, 7) == MISSING


def test_qualitative_and_judge():
    assert holds(True) == REPRODUCED and holds(False) == NOT and holds(None) == MISSING
    assert judge("ratio", 1.5, 1.4) == REPRODUCED
    assert judge("change", -0.12, -0.16) == REPRODUCED
    assert judge("absolute", 0.7, 0.6) == REPRODUCED
    assert judge("ordering", 1.0) == REPRODUCED
    assert judge("in-N-of-M", 3, 3) == REPRODUCED
    assert judge("qualitative", False) == NOT
    with pytest.raises(ValueError):
        judge("vibes", 1.0, 1.0)
    assert math.isclose(V.effect(1.25), 0.25)
