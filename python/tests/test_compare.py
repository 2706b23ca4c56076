"""The verdicts of the reproduction tables, on hand-computed cases."""
import math

from uvmsim import effect_verdict, f3, gmean, verdict

NAN = float("nan")


def test_gmean():
    assert gmean([2, 8]) == 4.0
    assert abs(gmean([1, 10, 100]) - 10) < 1e-12
    # NaN and non-positive values are left out; none left is NaN.
    assert gmean([4, NAN, 0, -1]) == 4.0
    assert math.isnan(gmean([NAN, 0]))


def test_verdict():
    assert verdict(1.30, 1.34) == "yes"            # within 25 %, same side
    assert verdict(1.60, 1.16) == "direction only"  # 1.6 / 1.16 = 1.38
    assert verdict(0.90, 1.16) == "no"             # the other side of 1
    # 1.03 is within 25 % of 1.16 but shows under a quarter of its effect.
    assert verdict(1.03, 1.16) == "no"
    assert verdict(1.04, 1.16) == "yes"            # 0.04 >= 0.16 / 4
    assert verdict(1.01, 1.00) == "yes"            # both "no effect"
    assert verdict(NAN, 1.16) == "missing"


def test_effect_verdict():
    assert effect_verdict(0.85, 0.84) == "yes"     # -15 % vs -16 %
    assert effect_verdict(1.20, 1.02) == "direction only"  # +20 % vs +2 %
    assert effect_verdict(0.98, 1.02) == "no"
    assert effect_verdict(NAN, 1.02) == "missing"


def test_f3():
    assert f3(NAN) == "-"
    assert f3(1.23456) == "1.235"
