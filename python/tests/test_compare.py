"""The compare helpers: the verdicts are aliases of uvmsim.verdict's rule."""
import math

from uvmsim import effect_verdict, f3, gmean, verdict

NAN = float("nan")


def test_gmean():
    assert gmean([2, 8]) == 4.0
    assert abs(gmean([1, 10, 100]) - 10) < 1e-12
    # NaN and non-positive values are left out; none left is NaN.
    assert gmean([4, NAN, 0, -1]) == 4.0
    assert math.isnan(gmean([NAN, 0]))


def test_verdict_is_the_effect_rule():
    # 1.30 against 1.34: effects 0.30 vs 0.34, |diff| 0.04 <= 0.085
    assert verdict(1.30, 1.34) == "reproduced"
    # HPE over LRU, issue 39's example: +19.5 % against +34 %:
    # |0.195 - 0.34| = 0.145 > 0.085, but 0.195 >= 0.085
    assert verdict(1.195, 1.34) == "direction"
    assert verdict(0.90, 1.16) == "not"
    assert verdict(1.03, 1.16) == "not"            # 0.03 < 0.16 / 4
    assert verdict(NAN, 1.16) == "missing"
    assert effect_verdict(0.85, 0.84) == "reproduced"   # -15 % vs -16 %
    assert effect_verdict(1.20, 1.02) == "direction"    # +20 % vs +2 %


def test_f3():
    assert f3(1.23456) == "1.235"
    assert f3(NAN) == "-"
