"""How many queries a paired t-test needs: the power against two oracles, and the searches that invert it.

Oracles: the power as an integral over the sample variance (the noncentral t written out: Z + λ against
c·√(V/df), V chi-square, integrated numerically; no scipy.stats.nct), and a simulation: normal differences
drawn with a fixed seed and tested with scipy's own ``ttest_1samp``, thousands of times at once.
"""
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import integrate, stats

from components.engine import compare, power
from components.engine.power import detectable_difference, plan, queries_needed

SIMULATIONS = 4000  # tests per simulated case: the simulated power's standard error is at most 0.008

ns = st.integers(min_value=2, max_value=3000)
sds = st.floats(min_value=0.01, max_value=0.5)
deltas = st.floats(min_value=0.0, max_value=0.3)
alphas = st.sampled_from([0.01, 0.05, 0.1])
targets = st.sampled_from([0.5, 0.8, 0.9, 0.95])


def integrated_power(n: int, delta: float, sd: float, alpha: float = 0.05) -> float:
    """P(|Z + λ| > c·√(V/df)), V ~ chi-square(df), Z standard normal: the noncentral t's two tails, integrated over
    V where its density lives (mean df, sd √(2 df))."""
    df, nc = n - 1, delta * math.sqrt(n) / sd
    c = stats.t.ppf(1 - alpha / 2, df)

    def rejects(v: float) -> float:
        cut = c * math.sqrt(v / df)
        return (stats.norm.sf(cut - nc) + stats.norm.cdf(-cut - nc)) * stats.chi2.pdf(v, df)

    low, high = max(0.0, df - 40 * math.sqrt(2 * df)), df + 40 * math.sqrt(2 * df) + 40
    return integrate.quad(rejects, low, high, points=[df], limit=400, epsabs=1e-12)[0]


def simulated_power(n: int, delta: float, sd: float, alpha: float = 0.05, seed: int = 7) -> float:
    """The share of SIMULATIONS paired t-tests (scipy's ttest_1samp on n normal differences) that reject at alpha."""
    d = np.random.default_rng(seed).normal(delta, sd, size=(SIMULATIONS, n))
    return float(np.mean(stats.ttest_1samp(d, 0.0, axis=1).pvalue < alpha))


@pytest.mark.parametrize("n, delta, sd, alpha", [(2, 0.3, 0.15, 0.05), (5, 0.1, 0.1581, 0.05), (10, 1.0, 1.0, 0.05),
                                                 (50, 0.02, 0.15, 0.05), (444, 0.02, 0.15, 0.05),
                                                 (30, -0.05, 0.12, 0.01), (2000, 0.01, 0.2, 0.1)])
def test_power_equals_the_integral_over_the_sample_variance(n, delta, sd, alpha):
    assert power.achieved_power(n, delta, sd, alpha) == pytest.approx(integrated_power(n, delta, sd, alpha), abs=1e-7)


@given(ns, sds, alphas)
def test_with_no_true_difference_the_test_rejects_at_its_level(n, sd, alpha):
    assert power.achieved_power(n, 0.0, sd, alpha) == pytest.approx(alpha, abs=1e-9)


@given(ns, deltas, sds, alphas)
def test_power_grows_with_the_queries_and_the_difference_and_ignores_its_sign(n, delta, sd, alpha):
    p = power.achieved_power(n, delta, sd, alpha)
    assert alpha - 1e-9 <= p <= 1
    assert power.achieved_power(n + 5, delta, sd, alpha) >= p - 1e-12
    assert power.achieved_power(n, delta + 0.01, sd, alpha) >= p - 1e-12
    assert power.achieved_power(n, -delta, sd, alpha) == pytest.approx(p, abs=1e-12)
    assert power.achieved_power(n, 3 * delta, 3 * sd, alpha) == pytest.approx(p, abs=1e-9)  # only δ/σ matters


def test_power_strictly_grows_where_it_is_not_yet_certain():
    values = [power.achieved_power(n, 0.02, 0.15) for n in (2, 10, 50, 200, 444, 1000)]
    assert values == sorted(values) and len(set(values)) == len(values)


@given(st.floats(min_value=0.03, max_value=3.0), sds, alphas, targets)
def test_queries_needed_is_the_smallest_count_that_reaches_the_power(ratio, sd, alpha, target):
    delta = ratio * sd
    n = queries_needed(delta, sd, alpha, target)
    assert n is not None and n >= 2
    assert power.achieved_power(n, delta, sd, alpha) >= target
    assert n == 2 or power.achieved_power(n - 1, delta, sd, alpha) < target


def test_the_issue_example_about_440_queries():
    """sd 0.15, delta 0.02, α 0.05, power 0.8: the normal approximation says 441.5, the exact t test 444; with 50
    queries only about 0.06 is detectable. Each number checked against the integral, not against the module."""
    assert power.normal_queries(0.02, 0.15) == pytest.approx(((1.959964 + 0.841621) * 0.15 / 0.02) ** 2, rel=1e-6)
    assert queries_needed(0.02, 0.15) == 444
    assert integrated_power(444, 0.02, 0.15) >= 0.8 > integrated_power(443, 0.02, 0.15)
    assert integrated_power(50, detectable_difference(50, 0.15), 0.15) == pytest.approx(0.8, abs=1e-7)
    assert round(detectable_difference(50, 0.15), 2) == 0.06


@given(ns, sds, alphas, targets)
def test_detectable_difference_inverts_the_power(n, sd, alpha, target):
    delta = detectable_difference(n, sd, alpha, target)
    assert power.achieved_power(n, delta, sd, alpha) == pytest.approx(target, abs=1e-9)
    assert power.achieved_power(n, delta * (1 - 1e-4), sd, alpha) < target
    assert queries_needed(delta * (1 + 1e-6), sd, alpha, target) == n
    assert detectable_difference(n + 1, sd, alpha, target) < delta


@pytest.mark.parametrize("delta, sd, alpha, target", [(0.05, 0.15, 0.05, 0.8), (0.1, 0.1, 0.05, 0.8),
                                                      (0.02, 0.1, 0.01, 0.9), (0.3, 0.2, 0.05, 0.8)])
def test_a_simulation_detects_the_difference_as_often_as_promised(delta, sd, alpha, target):
    n = queries_needed(delta, sd, alpha, target)
    assert n is not None
    simulated = simulated_power(n, delta, sd, alpha)
    assert simulated == pytest.approx(power.achieved_power(n, delta, sd, alpha), abs=0.03)
    assert simulated >= target - 0.03  # at least the target: more with few queries (0.83 with 6, the last case)


@pytest.mark.parametrize("n, delta, sd", [(4, 0.15, 0.1), (5, 0.1, 0.1), (3, 0.0, 0.2)])
def test_a_simulation_agrees_with_few_queries_where_the_normal_approximation_does_not(n, delta, sd):
    """With so few queries the t test's power is well below the normal Φ(λ − z) (which ignores that s is only an
    estimate): the simulation sides with the t power."""
    simulated, exact = simulated_power(n, delta, sd), power.achieved_power(n, delta, sd)
    assert simulated == pytest.approx(exact, abs=0.03)
    if delta:
        normal = stats.norm.cdf(delta * math.sqrt(n) / sd - stats.norm.ppf(0.975))
        assert normal - exact > 0.1


def test_beyond_reach_queries_needed_says_none():
    assert queries_needed(0.0, 0.15) is None
    assert queries_needed(1e-5, 0.15) is None  # about 1.8 billion queries needed: beyond MAX_QUERIES
    assert power.normal_queries(1e-5, 0.15) > power.MAX_QUERIES
    assert queries_needed(1e-3, 0.15) == pytest.approx(power.normal_queries(1e-3, 0.15), abs=5)


@pytest.mark.parametrize("delta", [1e-200, 5e-324, -1e-200, 1e308])
def test_any_finite_difference_gets_an_answer_however_small_or_large(delta):
    """A tiny δ beside σ: the normal approximation's square is beyond a float, so it is inf, not an OverflowError;
    a huge one: reached with the fewest queries."""
    p = plan([0.1, -0.1, 0.2, 0.0, -0.2], delta)
    if abs(delta) < 1:
        assert p.normal_queries == math.inf and p.queries_needed is None and p.as_dict()["normal_queries"] is None
        assert p.normal_whole == power.MAX_QUERIES and p.power_have == pytest.approx(power.ALPHA)
    else:
        assert p.normal_queries == 0.0 and p.queries_needed == 2 and p.power_have == 1.0
    assert p.detectable == detectable_difference(5, p.sd)


def test_without_a_test_or_without_spread():
    """n < 2: no degrees of freedom, no test. σ = 0: compare.t_test rejects for sure unless every difference is 0."""
    assert power.achieved_power(1, 0.5, 0.1) == power.achieved_power(0, 0.5, 0.1) == 0.0
    assert detectable_difference(1, 0.1) == math.inf
    assert compare.t_test([0.2, 0.3], [0.3, 0.4])[1] == 0.0 and power.achieved_power(2, 0.1, 0.0) == 1.0
    assert compare.t_test([0.2, 0.3], [0.2, 0.3])[1] == 1.0 and power.achieved_power(2, 0.0, 0.0) == 0.0
    assert queries_needed(0.1, 0.0) == 2 and detectable_difference(5, 0.0) == 0.0


@pytest.mark.parametrize("call", [lambda: power.achieved_power(10, 0.1, -0.1), lambda: power.achieved_power(10, math.nan, 0.1),
                                  lambda: power.achieved_power(10, 0.1, 0.1, alpha=0.0), lambda: power.achieved_power(10.5, 0.1, 0.1),
                                  lambda: queries_needed(0.1, 0.1, power=0.04), lambda: queries_needed(0.1, 0.1, 1.2),
                                  lambda: detectable_difference(10, math.inf), lambda: plan([0.1], 0.02),
                                  lambda: plan([0.1, math.nan], 0.02), lambda: power.query_counts(1, 10)])
def test_nonsense_is_refused(call):
    with pytest.raises((ValueError, TypeError)):
        call()


def test_a_plan_from_a_pilot_of_50_queries():
    d = np.random.default_rng(3).normal(0.01, 0.15, size=50)
    p = plan(d, 0.02)
    assert p.n_have == 50 and p.sd == pytest.approx(np.std(d, ddof=1))
    assert (p.alpha, p.power) == (power.ALPHA, power.POWER) == (0.05, 0.8)
    assert (round(p.z_alpha, 2), round(p.z_power, 2)) == (1.96, 0.84)
    assert p.normal_queries == pytest.approx(((p.z_alpha + p.z_power) * p.sd / p.delta) ** 2)
    assert p.normal_whole == math.ceil(p.normal_queries)
    assert p.queries_needed == queries_needed(0.02, p.sd) and p.queries_needed > p.normal_whole
    assert p.power_have == power.achieved_power(50, 0.02, p.sd) < 0.8
    assert p.detectable == detectable_difference(50, p.sd) > 0.02


def test_the_curve_gives_the_detectable_difference_at_each_count():
    p = plan([0.1, -0.1, 0.2, 0.0, -0.2, 0.05], 0.05)
    counts = power.query_counts()
    assert counts[0] == power.CURVE_FROM and counts[-1] == power.CURVE_TO
    assert len(counts) <= power.CURVE_POINTS and np.all(np.diff(counts) > 0)
    curve = p.curve()
    assert curve.shape == counts.shape and np.all(np.diff(curve) < 0)
    assert p.curve([5, 50]).tolist() == [detectable_difference(5, p.sd), detectable_difference(50, p.sd)]


@given(st.integers(2, 100), st.integers(2, 10_000), st.integers(2, 100))
def test_query_counts_are_whole_increasing_and_within_bounds(start, span, points):
    counts = power.query_counts(start, start + span, points)
    assert counts[0] == start and counts[-1] == start + span
    assert np.all(np.diff(counts) > 0) and len(counts) <= points
