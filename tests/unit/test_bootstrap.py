"""The paired BCa bootstrap interval: scipy's BCa on the same data, its coverage on simulated sets, edge cases."""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from scipy import stats

from components.engine import bootstrap


@pytest.mark.parametrize("seed", range(4))
def test_the_interval_is_scipys_bca_up_to_resampling_noise(seed):
    rng = np.random.default_rng(seed)
    d = rng.exponential(0.1, 40) - 0.08  # skewed, as per-query differences often are
    ours = bootstrap.interval(d)
    scipys = stats.bootstrap((d,), np.mean, n_resamples=10_000, method="BCa", random_state=seed).confidence_interval
    width = scipys.high - scipys.low
    assert abs(ours.low - scipys.low) < 0.05 * width and abs(ours.high - scipys.high) < 0.05 * width


@pytest.mark.parametrize("draw", ["normal", "skewed"])
def test_the_95_interval_covers_the_true_mean_difference_at_about_the_nominal_rate(draw):
    """200 simulated evaluation sets of 40 queries, 1,000 resamples each: coverage near 0.95."""
    rng = np.random.default_rng(7)
    true_mean = 0.02 if draw == "normal" else 0.1 - 0.08
    sets = rng.normal(0.02, 0.1, (200, 40)) if draw == "normal" else rng.exponential(0.1, (200, 40)) - 0.08
    covered = [bootstrap.interval(d, resamples=1000, seed=i).contains(true_mean) for i, d in enumerate(sets)]
    assert 0.90 <= np.mean(covered) <= 0.98


@settings(max_examples=25)
@given(st.lists(st.floats(-1, 1), min_size=2, max_size=30), st.integers(0, 2**32 - 1))
@example(d=[0.0, 3.4823154662285355e-141], seed=0)  # a spread so small its cube underflowed: a division by zero
def test_the_interval_holds_the_mean_and_lies_within_the_differences(d, seed):
    i = bootstrap.interval(d, resamples=500, seed=seed)
    assert min(d) - 1e-12 <= i.low <= i.high <= max(d) + 1e-12


def test_columns_resampled_together_give_each_columns_own_interval():
    rng = np.random.default_rng(3)
    d = rng.normal(0, 0.2, (30, 3))
    together = bootstrap.intervals(d, resamples=2000)
    for j, joint in enumerate(together):  # the same draws: equal up to the matrix product's rounding
        alone = bootstrap.interval(d[:, j], resamples=2000)
        assert (alone.low, alone.high) == pytest.approx((joint.low, joint.high), abs=1e-12)


def test_the_same_differences_give_the_same_interval():
    d = np.linspace(-0.2, 0.5, 25)
    assert bootstrap.interval(d) == bootstrap.interval(d)
    assert bootstrap.interval(d, seed=1) != bootstrap.interval(d, seed=2)


def test_one_difference_has_no_interval_and_equal_ones_a_point():
    assert all(math.isnan(x) for x in (bootstrap.interval([0.3]).low, bootstrap.interval([0.3]).high))
    assert (bootstrap.interval([0.2, 0.2]).low, bootstrap.interval([0.2, 0.2]).high) == (0.2, 0.2)


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="level"):
        bootstrap.interval([0.1, 0.2], level=1.5)
    with pytest.raises(ValueError, match="finite"):
        bootstrap.interval([0.1, float("nan")])


def test_disagreement_is_about_zero_being_inside():
    boot = bootstrap.Interval(0.01, 0.2, 0.95, 10, 1)
    assert bootstrap.disagree((-0.01, 0.19), boot) and not bootstrap.disagree((0.005, 0.19), boot)
    assert not bootstrap.disagree((math.nan, math.nan), bootstrap.Interval(math.nan, math.nan, 0.95, 10, 1))


def test_skewness_is_zero_for_a_symmetric_spread_and_positive_for_one_big_win():
    assert bootstrap.skewness([-1, 0, 1]) == pytest.approx(0)
    assert bootstrap.skewness([0, 0, 0, 0, 0.9]) > 1
    assert math.isnan(bootstrap.skewness([0.1, 0.1, 0.1]))
