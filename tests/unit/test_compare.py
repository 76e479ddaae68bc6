"""Comparing two runs: the paired tests against oracles, the skipped queries, the chart, and ``--compare``.

Oracles: scipy's own ``ttest_rel`` and t quantiles for the t-test and the
interval; for the randomisation test, sign patterns counted by hand, an exact
permutation p-value enumerating all 2^n sign flips here, scipy's
``permutation_test``, and whole-number arithmetic (no rounding at all). Up to
13 non-zero differences the test must give the exact p itself; above that its
sampled flips must land within their Monte Carlo error.
"""
import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from components.cli.evaluate import eval_main as main
from components.cli.evaluate import run_evaluation
from components.course import prose
from components.engine import compare, corrections, model
from components.engine.formatting import fmt, signed
from components.ui import charts
from tests.unit.file_readers import read_qrels, read_run


def compare_files(qrels: str, run_a: str, run_b: str, measures: list[str], complete: bool = False):
    """Read the qrels and both runs, judge each run and compare them: :func:`compare.compare_judged` on files."""
    judgments = read_qrels(qrels)
    return compare.compare_judged(model.judge(judgments, read_run(run_a, "run A"), complete),
                                  model.judge(judgments, read_run(run_b, "run B"), complete), measures, "linear")



def randomisation_test(d, permutations: int = compare.PERMUTATIONS, seed: int = compare.SEED) -> float:
    """The paired randomisation (sign-flip) test's two-sided p-value for differences ``d``.

    ``randomisation(d, permutations, seed).p``: see
    :func:`components.engine.compare.randomisation` for the formulas. All
    differences 0: p = 1 (the one assignment left gives the observed 0).

    Examples
    --------
    Four differences all in B's favour: the observed mean is the largest of the
    16 sign patterns in size (shared with its mirror), so p = 2/16:

    >>> randomisation_test([0.1, 0.2, 0.3, 0.4])
    0.125
    >>> randomisation_test([0.0, 0.0, 0.0])
    1.0

    20,000 differences of ±1, 10,100 of them +1: S = 200, V = 20,000, so
    p = 2 (1 − Φ(200/141.4)) = 0.157:

    >>> round(randomisation_test([1.0] * 10_100 + [-1.0] * 9_900), 3)
    0.157
    """
    return compare.randomisation(d, permutations, seed).p


def exact_sign_flip_p(d) -> float:
    """The exact two-sided permutation p: the share of all 2^n sign vectors with |sum(eps d)| >= |sum(d)|."""
    d = np.asarray(d, dtype=np.float64)
    n = d.size
    signs = 1 - 2 * ((np.arange(2 ** n)[:, None] >> np.arange(n)) & 1)  # every row of -1/+1, once
    sums = signs @ d
    return float(np.mean(np.abs(sums) >= abs(d.sum()) - 1e-9))


def monte_carlo_tolerance(p_exact: float, permutations: int) -> float:
    """4 standard errors of a proportion over `permutations` draws, plus the "+1" rule's shift (at most 1/(P+1))."""
    return 4 * math.sqrt(p_exact * (1 - p_exact) / permutations) + 1 / (permutations + 1)


# ----------------------------------------------------------------------------
# The t-test and the interval
# ----------------------------------------------------------------------------

T_DATA = [
    # (run A, run B): per-query values of a measure
    ([0.2, 0.4, 0.5, 0.1, 0.9, 0.0], [0.3, 0.6, 0.4, 0.4, 1.0, 0.5]),
    ([1.0, 0.5, 1 / 3, 0.25, 0.0, 1.0, 0.2, 0.5], [1.0, 1.0, 0.5, 0.25, 1 / 8, 0.5, 1.0, 1.0]),
    (list(np.random.default_rng(7).uniform(size=40)), list(np.random.default_rng(8).uniform(size=40))),
]


@pytest.mark.parametrize("a, b", T_DATA)
def test_the_t_test_p_equals_scipys_own_and_the_textbook_formula(a, b):
    result = compare.compare_values(a, b)
    expected = stats.ttest_rel(b, a)
    assert result.t_test_p == pytest.approx(float(expected.pvalue), rel=1e-12, abs=1e-15)
    assert result.t_statistic == pytest.approx(float(expected.statistic), rel=1e-12)
    d = np.subtract(b, a)
    n = d.size
    t = d.mean() / (d.std(ddof=1) / math.sqrt(n))  # t = mean(d) / (s / sqrt(n))
    assert result.t_test_p == pytest.approx(2 * stats.t.sf(abs(t), n - 1), rel=1e-9)


def test_the_confidence_interval_matches_a_hand_computation():
    d = [0.1, 0.2, 0.3, 0.4, 0.5]
    mean = (0.1 + 0.2 + 0.3 + 0.4 + 0.5) / 5  # 0.3
    s = math.sqrt((0.2 ** 2 + 0.1 ** 2 + 0 + 0.1 ** 2 + 0.2 ** 2) / 4)  # sample sd, n - 1 = 4
    t_975_4 = 2.7764451051977987  # Student's t, 97.5% quantile, 4 degrees of freedom (tables: 2.776)
    half = t_975_4 * s / math.sqrt(5)
    low, high = compare.confidence_interval(d)
    assert (low, high) == pytest.approx((mean - half, mean + half), abs=1e-12)
    a = [0.5] * 5
    result = compare.compare_values(a, [x + y for x, y in zip(a, d)])
    assert result.ci95 == pytest.approx((mean - half, mean + half), abs=1e-12)
    assert result.mean_diff == pytest.approx(mean, abs=1e-15)


def test_all_differences_equal_and_non_zero():
    result = compare.compare_values([0.1, 0.2, 0.3], [0.3, 0.4, 0.5])  # every query +0.2 (up to rounding)
    assert result.t_test_p == 0.0 and result.t_statistic == math.inf
    assert result.ci95 == pytest.approx((0.2, 0.2), abs=1e-12)
    assert result.randomisation_p == 2 / 8  # exact: only all-plus and all-minus reach |0.6|


def test_one_query_leaves_the_t_test_and_interval_undefined():
    result = compare.compare_values([0.2], [0.7])
    assert math.isnan(result.t_test_p) and all(math.isnan(x) for x in result.ci95)
    assert result.randomisation_p == 1.0  # flipping one sign cannot make |mean| larger
    assert (result.randomisation_exact, result.randomisation_assignments) == (True, 2)
    document = result.as_dict()
    assert document["t_test_p"] is None and document["ci95"] == [None, None]
    assert json.loads(json.dumps(document)) == document  # valid JSON: no NaN
    assert compare.reading(result, "RR")[0] == compare.READING_ONE_QUERY


# ----------------------------------------------------------------------------
# The randomisation test against exact enumeration
# ----------------------------------------------------------------------------

EXACT_SETS = {
    # RR-like differences over 10 queries, mixed signs (p well above 0.05)
    "mixed": [0.5, -0.25, 1 / 3, 0.0, -0.5, 0.75, 1 / 6, -1 / 12, 0.2, 0.0],
    # B wins 9 of 10 (p well below 0.05)
    "lopsided": [0.5, 0.25, 1 / 3, 0.1, 0.5, 0.75, 1 / 6, -1 / 12, 0.2, 0.4],
    # mostly wins, p about 0.13
    "moderate": [0.3, 0.1, 0.2, -0.15, 0.25, -0.05, 0.1, 0.2, -0.2, 0.15, 0.05],
    # random differences of 12 queries
    "random": list(np.round(np.random.default_rng(3).normal(0.05, 0.2, size=12), 3)),
}


@pytest.mark.parametrize("name", list(EXACT_SETS))
def test_up_to_13_non_zero_differences_the_randomisation_p_is_the_exact_p(name):
    d = EXACT_SETS[name]
    m = int(np.count_nonzero(d))
    result = compare.randomisation(d)
    assert result.p == exact_sign_flip_p(d)
    assert (result.method, result.exact, result.assignments) == (compare.SIGN_FLIPS, True, 2 ** m)
    assert result.p * 2 ** m == round(result.p * 2 ** m)  # a whole number of the 2^m patterns


# above 13 non-zero differences the flips are sampled: 14 to 16 still let the oracle count every pattern
SAMPLED_SETS = {
    "14 mixed": list(np.round(np.random.default_rng(11).normal(0.04, 0.2, size=14), 3)),
    "15 lopsided": list(np.round(np.random.default_rng(12).normal(0.15, 0.2, size=15), 3)) + [0.0] * 3,
    "16 RR-like": [1 / r - 1 / s for r, s in zip([1, 2, 3, 1, 4, 2, 5, 1, 2, 3, 1, 6, 2, 1, 3, 2],
                                                  [2, 1, 1, 3, 1, 1, 2, 2, 1, 1, 4, 1, 3, 2, 2, 1])],
}


@pytest.mark.parametrize("name", list(SAMPLED_SETS))
def test_above_13_non_zero_differences_the_p_is_within_its_monte_carlo_error_of_the_exact_p(name):
    d = SAMPLED_SETS[name]
    assert 14 <= np.count_nonzero(d) <= 16
    exact = exact_sign_flip_p(d)
    result = compare.randomisation(d)
    assert (result.method, result.exact, result.assignments) == (compare.SIGN_FLIPS, False, compare.PERMUTATIONS)
    assert abs(result.p - exact) <= monte_carlo_tolerance(exact, compare.PERMUTATIONS), (result.p, exact)


def test_the_exact_enumeration_stops_at_13_non_zero_differences():
    assert compare.EXACT_LIMIT == 10_000 and 2 ** 13 <= compare.EXACT_LIMIT < 2 ** 14
    thirteen = [0.5, -0.25] * 6 + [0.125] + [0.0] * 500  # ties do not count: 13 non-zero differences
    assert compare.randomisation(thirteen)[2:4] == (True, 2 ** 13)
    assert compare.randomisation(thirteen + [0.75])[2:4] == (False, compare.PERMUTATIONS)
    assert compare.randomisation(thirteen + [0.75], permutations=2000)[2:4] == (False, 2000)
    assert compare.randomisation([0.0] * 4)[:4] == (1.0, compare.SIGN_FLIPS, True, 1)  # one pattern: no flip


def test_exact_p_values_counted_by_hand():
    # d = (1, 2, 3), sum 6. The 8 sign patterns and their sums:
    #   +++ 6   -++ 4   +-+ 2   --+ 0   ++- 0   -+- -2   +-- -4   --- -6
    # |sum| >= 6 for +++ and --- only: p = 2/8
    assert randomisation_test([1.0, 2.0, 3.0]) == 2 / 8
    assert randomisation_test([-3.0, -2.0, -1.0, 0.0]) == 2 / 8  # order, overall sign, ties: the same
    # d = (1, -1), sum 0: every pattern reaches |0|
    assert randomisation_test([1.0, -1.0]) == 1.0
    # d = (1, 1, 2), sum 4: +++ 4, -++ 2, +-+ 2, --+ 0, ++- 0, -+- -2, +-- -2, --- -4: p = 2/8
    assert randomisation_test([1.0, 1.0, 2.0]) == 2 / 8
    # d = (0.1, 0.2, -0.3, 0.5), sum 0.5. Flipping a set F gives 0.5 - 2 sum(F), which reaches |0.5| when
    # sum(F) <= 0 or sum(F) >= 0.5: F = {}, {-.3}, {.5}, {.1, -.3}, {.1, .5}, {.2, -.3}, {.2, .5}, {.1, .2, -.3},
    # {.1, .2, .5}, all four: 10 of 16. F = {.1, .2, -.3} gives 0.49999999999999994 in floats: the slack counts it.
    assert randomisation_test([0.1, 0.2, -0.3, 0.5]) == 10 / 16


def scipy_sign_flip_p(d) -> float:
    """scipy's exact paired permutation test of d = b - a (every within-pair swap, that is every sign flip)."""
    d = np.asarray(d, dtype=np.float64)
    result = stats.permutation_test((d, np.zeros_like(d)), lambda x, y, axis: np.mean(x - y, axis=axis),
                                    permutation_type="samples", n_resamples=np.inf, alternative="two-sided")
    return float(result.pvalue)


@pytest.mark.parametrize("d", [*EXACT_SETS.values(), [1.0, 2.0, 3.0], [0.1, 0.2, -0.3, 0.5], [0.25] * 13,
                               [0.5, -0.5, 0.25, 0.0], [1 / 3, -1 / 6, 1 / 6, 1 / 2, -1 / 3, 1 / 4]])
def test_the_exact_p_agrees_with_scipys_permutation_test(d):
    assert randomisation_test(d) == pytest.approx(scipy_sign_flip_p(d), rel=1e-12)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-16, 16), min_size=2, max_size=13), st.integers(-3, 3))  # scipy: 2 or more
def test_exact_p_property_against_scipy_and_its_symmetries(eighths, power):
    d = np.array(eighths) / 8  # multiples of 1/8: every sum is exact in floats, so ties are unambiguous
    m = int(np.count_nonzero(d))
    result = compare.randomisation(d)
    assert result.exact and result.assignments == 2 ** m
    assert result.p == pytest.approx(scipy_sign_flip_p(d), rel=1e-12)
    assert result.p * 2 ** m == round(result.p * 2 ** m)  # a count of patterns
    assert result.p >= (2 / 2 ** m if m else 1.0)  # the observed pattern and its mirror always count
    for same in (-d, d[::-1], d * 2.0 ** power, np.r_[d, 0.0, 0.0]):  # overall sign, order, scale, ties
        assert randomisation_test(same) == result.p


RR_VALUES = [0.0, *(1 / r for r in range(1, 11))]  # reciprocal ranks 1/1 .. 1/10, and 0 (not found)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 10), st.integers(0, 10)), min_size=1, max_size=13))
def test_exact_p_property_against_whole_number_arithmetic(pairs):
    # RR values: 2520 = lcm(1..10) turns every difference 1/r - 1/s into a whole number, so the oracle counts
    # the sign patterns with no rounding at all; the engine, in floats, must count the same ties
    a, b = [RR_VALUES[i] for i, _ in pairs], [RR_VALUES[j] for _, j in pairs]
    whole = np.array([(2520 // j if j else 0) - (2520 // i if i else 0) for i, j in pairs], dtype=np.int64)
    whole = whole[whole != 0]
    signs = 1 - 2 * ((np.arange(2 ** whole.size)[:, None] >> np.arange(whole.size)) & 1)
    exact = np.count_nonzero(np.abs(signs @ whole) >= abs(whole.sum())) / 2 ** whole.size
    result = compare.compare_values(a, b)
    assert result.randomisation_p == exact
    assert (result.randomisation_exact, result.randomisation_assignments) == (True, 2 ** whole.size)


def test_the_exact_oracle_itself_on_a_set_small_enough_to_count_by_hand():
    # d = (1, 2): sign patterns give sums 3, -1, 1, -3; |sum| >= 3 for 2 of the 4
    assert exact_sign_flip_p([1.0, 2.0]) == 2 / 4
    # d = (1, 1, 1): only all-plus and all-minus reach |3|
    assert exact_sign_flip_p([1.0, 1.0, 1.0]) == 2 / 8
    # the lattice oracle below (sizes 1, 1, 1, 2, 2; signed sum 5) agrees with counting all 32 patterns
    assert exact_lattice_p({1: 3, 2: 2}, 5) == pytest.approx(exact_sign_flip_p([1.0, 1.0, -1.0, 2.0, 2.0]))


def test_the_randomisation_test_is_reproducible_and_uses_at_least_10000_permutations():
    small = EXACT_SETS["moderate"]  # 11 non-zero differences: exact, so the seed and P do not matter
    result = compare.compare_values(np.zeros(11), small)
    assert (result.randomisation_exact, result.randomisation_assignments) == (True, 2 ** 11)
    assert result.permutations == compare.PERMUTATIONS and result.seed == compare.SEED  # the settings, as given
    assert randomisation_test(small, permutations=20_000, seed=1) == result.randomisation_p
    d = SAMPLED_SETS["15 lopsided"]  # 15 non-zero differences: sampled
    assert compare.PERMUTATIONS >= 10_000
    assert randomisation_test(d) == randomisation_test(d)
    result = compare.compare_values(np.zeros(len(d)), d)
    assert (result.randomisation_exact, result.randomisation_assignments) == (False, compare.PERMUTATIONS)
    assert result.permutations == compare.PERMUTATIONS and result.seed == compare.SEED
    p = randomisation_test(d, permutations=20_000, seed=1)
    assert abs(p - exact_sign_flip_p(d)) <= monte_carlo_tolerance(exact_sign_flip_p(d), 20_000)
    p = randomisation_test(np.random.default_rng(0).normal(0.01, 0.3, size=3000))  # many queries: chunks
    assert 0 < p <= 1


# p-values of the sampled flips before the normal approximation and the exact enumeration existed: every
# comparison between the two (14 to 13,061 non-zero differences at least) keeps them
FLIP_P_VALUES = [
    (np.random.default_rng(0).normal(0.01, 0.3, size=3000), 0.9697030296970303),
    (np.random.default_rng(5).choice([-1.0, 1.0, 0.0], size=12000, p=[0.3, 0.32, 0.38]), 0.006399360063993601),
]


@pytest.mark.parametrize("d, p", FLIP_P_VALUES)
def test_comparisons_between_the_exact_limit_and_the_rule_keep_the_p_values_the_flips_gave(d, p):
    assert compare.randomisation_method(d)[0] == compare.SIGN_FLIPS
    assert compare.randomisation(d)[:4] == (p, compare.SIGN_FLIPS, False, compare.PERMUTATIONS)


def exact_lattice_p(counts: dict[int, int], observed: int) -> float:
    """The exact sign-flip p of differences on a lattice: ``counts[w]`` differences of size w (whole numbers).

    The flipped sum is sum_w w (2 B_w - c_w), B_w ~ Binomial(c_w, 1/2): the convolution of their distributions.
    """
    from scipy.signal import fftconvolve
    pmf, low = np.ones(1), 0  # distribution of the sum, from value `low` in steps of 1
    for w, c in counts.items():
        term = np.zeros(2 * w * c + 1)
        term[::2 * w] = stats.binom.pmf(np.arange(c + 1), c, 0.5)  # value w (2b - c), b = 0..c
        pmf, low = np.clip(fftconvolve(pmf, term), 0, None), low - w * c
    values = np.arange(pmf.size) + low
    return float(pmf[np.abs(values) >= abs(observed)].sum())


@pytest.mark.parametrize("signs", [
    {1: (10_100, 9_900)},  # 20,000 differences of +-1 (Success@k, P@1): the worst lattice for the approximation
    {1: (6_000, 5_800), 2: (5_000, 4_950), 4: (3_000, 2_900)},  # sizes 0.25, 0.5, 1 (multiples of 1/4)
    {1: (12_000, 12_000)},  # no difference on average: p near 1
])
def test_the_normal_approximation_lies_within_its_bound_of_the_exact_sign_flip_p(signs):
    d = np.concatenate([np.r_[np.full(up, w / 4), np.full(down, -w / 4)] for w, (up, down) in signs.items()])
    d = np.r_[d, np.zeros(5_000)]  # ties change nothing
    method, bound = compare.randomisation_method(d)
    assert method == compare.NORMAL_APPROXIMATION
    exact = exact_lattice_p({w: up + down for w, (up, down) in signs.items()},
                            sum(w * (up - down) for w, (up, down) in signs.items()))
    p, _, is_exact, assignments, _ = compare.randomisation(d)
    assert (is_exact, assignments) == (False, 0)  # a formula, no sign pattern counted
    assert abs(p - exact) <= bound <= 1.96 * 0.5 / math.sqrt(compare.PERMUTATIONS)
    s, v = d.sum(), (d * d).sum()
    assert p == pytest.approx(2 * stats.norm.sf(abs(s) / math.sqrt(v)), rel=1e-9)  # the documented formula


def test_the_rule_switches_at_the_documented_bound():
    # +-1 differences: B = 1.12 / sqrt(m), at most 0.0098 from m = 13,062 non-zero differences on
    assert compare.randomisation_method([1.0, -1.0] * 6_530 + [1.0] + [0.0] * 900)[0] == compare.SIGN_FLIPS
    method, bound = compare.randomisation_method([1.0, -1.0] * 6_531 + [0.0] * 900)
    assert method == compare.NORMAL_APPROXIMATION and bound == pytest.approx(1.12 / math.sqrt(13_062), rel=1e-12)
    # more flips asked for: a smaller margin, so the approximation needs more queries
    assert compare.randomisation_method([1.0, -1.0] * 6_531, permutations=40_000)[0] == compare.SIGN_FLIPS
    # a few queries carrying most of the spread: far from normal, so the flips, however many queries
    assert compare.randomisation_method([1.0] * 5 + [0.001] * 200_000)[0] == compare.SIGN_FLIPS
    assert compare.randomisation_method([0.0, 0.0]) == (compare.SIGN_FLIPS, math.inf)


def test_the_bound_and_the_approximation_are_scale_free():
    d = np.random.default_rng(2).uniform(-1, 1, size=30_000) + 0.01
    method, bound = compare.randomisation_method(d)
    assert method == compare.NORMAL_APPROXIMATION
    for scale in (1e-200, 1e200):  # d^2 and d^3 would underflow or overflow
        scaled_method, scaled_bound = compare.randomisation_method(d * scale)
        assert scaled_method == method and scaled_bound == pytest.approx(bound, rel=1e-12)
        assert randomisation_test(d * scale) == pytest.approx(randomisation_test(d), rel=1e-12)


def test_a_comparison_of_200000_queries_uses_the_normal_approximation_and_says_so():
    rng = np.random.default_rng(4)
    a = rng.integers(0, 11, size=200_000) / 10  # P@10-like values
    b = np.clip(a + rng.choice([-0.1, 0.0, 0.1], size=a.size, p=[0.3, 0.38, 0.32]), 0, 1)
    c = compare.compare_values(a, b)
    assert c.randomisation_method == compare.NORMAL_APPROXIMATION and c.randomisation_error_bound <= 0.0098
    assert c.randomisation_p == pytest.approx(c.t_test_p, abs=0.002)  # at this size the two tests agree
    document = c.as_dict()
    assert document["randomisation_method"] == "normal approximation"
    assert (document["randomisation_exact"], document["randomisation_assignments"]) == (False, 0)
    assert document["randomisation_error_bound"] == c.randomisation_error_bound
    _, values = compare.reading(c, "P@10")
    assert values["p_rand_method"] == "normal approximation" and values["assignments"] == "0"
    assert float(values["p_rand_error"]) >= c.randomisation_error_bound  # rounded up: the shown bound holds
    same = compare.compare_values(a, a)
    assert same.as_dict()["randomisation_error_bound"] is None and same.randomisation_p == 1.0  # inf: JSON null


@pytest.mark.parametrize("bad", [dict(d=[]), dict(d=[0.1, float("nan")]), dict(d=[0.1], permutations=10),
                                 dict(d=[0.1], permutations=1000.5)])
def test_the_randomisation_test_rejects_bad_input(bad):
    with pytest.raises(ValueError):
        randomisation_test(**bad)


def test_values_must_be_aligned_and_finite():
    with pytest.raises(ValueError, match="aligned"):
        compare.compare_values([0.1, 0.2], [0.1])
    with pytest.raises(ValueError, match="at least one query"):
        compare.compare_values([], [])
    with pytest.raises(ValueError, match="finite"):
        compare.compare_values([0.1, float("inf")], [0.1, 0.2])


# ----------------------------------------------------------------------------
# Identical runs, swapping the runs
# ----------------------------------------------------------------------------

def test_identical_runs_give_zero_differences_and_p_equal_to_one(tmp_path):
    a = [0.5, 1.0, 0.0, 1 / 3, 0.25]
    result = compare.compare_values(a, list(a))
    assert result.diff.tolist() == [0.0] * 5
    assert (result.improved, result.hurt, result.tied) == (0, 0, 5)
    assert result.mean_diff == 0.0 and result.ci95 == (0.0, 0.0)
    assert result.t_test_p == 1.0 and result.randomisation_p == 1.0
    assert compare.reading(result, "RR")[0] == compare.READING_IDENTICAL
    # the same run file twice, through the readers and the engine
    qrels = "".join(f"{q} 0 d{q} 1\n{q} 0 e{q} 2\n" for q in range(1, 7))
    run = "".join(f"{q} Q0 x{q} 1 3 r\n{q} Q0 e{q} 2 2 r\n{q} Q0 d{q} 3 1 r\n" for q in range(1, 7))
    both = compare_files(qrels, run, run, ["RR", "nDCG@10", "P@2"])
    for c in both.measures.values():
        assert not c.diff.any() and c.t_test_p == 1.0 and c.randomisation_p == 1.0


pairs = st.lists(st.tuples(st.floats(0, 1), st.floats(0, 1)), min_size=1, max_size=15)


@settings(max_examples=40, deadline=None)
@given(pairs)
def test_p_values_lie_in_0_1_and_swapping_the_runs_negates_the_difference_only(values):
    a, b = [x for x, _ in values], [y for _, y in values]
    ab, ba = compare.compare_values(a, b), compare.compare_values(b, a)
    for c in (ab, ba):
        for p in (c.t_test_p, c.randomisation_p):
            assert math.isnan(p) if (p != p) else 0 <= p <= 1
        assert c.improved + c.hurt + c.tied == len(values)
    assert len(values) > 1 or math.isnan(ab.t_test_p)
    assert ba.mean_diff == pytest.approx(-ab.mean_diff, abs=1e-12)
    assert ab.mean_diff == pytest.approx(ab.mean_b - ab.mean_a, abs=1e-12)
    assert ba.randomisation_p == ab.randomisation_p
    if not math.isnan(ab.t_test_p):
        assert ba.t_test_p == pytest.approx(ab.t_test_p, rel=1e-9, abs=1e-15)
        assert ba.ci95 == pytest.approx((-ab.ci95[1], -ab.ci95[0]), abs=1e-12)
    assert (ba.improved, ba.hurt, ba.tied) == (ab.hurt, ab.improved, ab.tied)


# ----------------------------------------------------------------------------
# Which queries are compared
# ----------------------------------------------------------------------------

SKIP_QRELS = "".join(f"{q} 0 hit 1\n" for q in "123456")
SKIP_A = "".join(f"{q} Q0 hit 1 1 a\n" for q in "12349")  # 4 judged, not in B; 9 unjudged
SKIP_B = "".join(f"{q} Q0 miss 1 2 b\n{q} Q0 hit 2 1 b\n" for q in "12358")  # 5 judged, not in A; 8 unjudged


def test_only_queries_in_the_qrels_and_both_runs_are_compared_and_the_rest_counted():
    result = compare_files(SKIP_QRELS, SKIP_A, SKIP_B, ["RR"])
    assert result.qids == ("1", "2", "3")
    assert result.skipped == {"qrels_only": 1, "a_only": 1, "b_only": 1, "run_only": 2}
    pairing = result.pairing
    assert (pairing.qrels_only, pairing.a_only, pairing.b_only, set(pairing.run_only)) == (
        ("6",), ("4",), ("5",), {"9", "8"})
    c = result.measures["RR"]
    assert c.a.tolist() == [1.0] * 3 and c.b.tolist() == [1 / 2] * 3  # A: hit at rank 1; B: at rank 2
    assert c.hurt == 3 and c.mean_diff == pytest.approx(1 / 2 - 1, abs=1e-15)


def test_complete_compares_every_judged_query_scoring_a_missing_one_as_0():
    result = compare_files(SKIP_QRELS, SKIP_A, SKIP_B, ["RR"], complete=True)
    assert result.qids == tuple("123456")
    assert result.skipped == {"qrels_only": 0, "a_only": 0, "b_only": 0, "run_only": 2}
    c = result.measures["RR"]
    assert c.a.tolist() == [1, 1, 1, 1, 0, 0] and c.b.tolist() == [1 / 2, 1 / 2, 1 / 2, 0, 1 / 2, 0]


def test_runs_without_a_shared_judged_query_are_an_error():
    with pytest.raises(compare.NothingToCompare, match="share no judged query"):
        compare_files("1 0 a 1\n2 0 a 1\n", "1 Q0 a 1 1 r\n", "2 Q0 a 1 1 r\n", ["RR"])


def test_values_the_page_already_has_give_the_same_comparison():
    qrels = read_qrels(SKIP_QRELS)
    judged_a, judged_b = model.judge(qrels, read_run(SKIP_A)), model.judge(qrels, read_run(SKIP_B))
    computed = compare.compare_judged(judged_a, judged_b, ["RR", "R@1"], "linear")
    report_a = run_evaluation(SKIP_QRELS, SKIP_A, ["RR", "R@1"])
    given_ = compare.compare_judged(judged_a, judged_b, ["RR", "R@1"], "linear", values_a=report_a.values)
    for name in ("RR", "R@1"):
        assert computed.measures[name].as_dict() == given_.measures[name].as_dict()
    with pytest.raises(ValueError, match="one value per evaluated query"):
        compare.compare_judged(judged_a, judged_b, ["RR"], "linear", values_a={"RR": np.zeros(2)})


# ----------------------------------------------------------------------------
# The reading (lessons/text/compare.md) and purity
# ----------------------------------------------------------------------------

@pytest.mark.parametrize("a, b, heading", [
    ([0.1] * 12, [0.9] * 12, compare.READING_STRONG),
    ([0.9] * 12, [0.1] * 12, compare.READING_STRONG),
    ([0.5, 0.4, 0.3, 0.6, 0.5, 0.2, 0.4], [0.7, 0.6, 0.5, 0.8, 0.7, 0.4, 0.3], compare.READING_EVIDENCE),
    ([0.5, 0.4, 0.3, 0.6], [0.6, 0.3, 0.4, 0.6], compare.READING_WEAK),
])
def test_the_reading_follows_the_randomisation_p_and_fills_its_template(a, b, heading):
    result = compare.compare_values(a, b)
    chosen, values = compare.reading(result, "nDCG@10")
    assert chosen == heading
    text = prose.text_choosing(prose.CLI, chosen, values)
    assert "{" not in text and values["p_rand"] in text
    assert values["better"] == ("B" if result.mean_diff > 0 else "A")


def test_randomisation_how_names_the_method_the_p_came_from():
    exact = compare.compare_values([0.1, 0.5, 0.2], [0.3, 0.4, 0.9])
    sampled = compare.compare_values(np.zeros(20), np.linspace(0.1, 0.3, 20))
    assert compare.randomisation_how(exact) == compare.RANDOMISATION_EXACT
    assert compare.randomisation_how(sampled) == compare.RANDOMISATION_SAMPLED
    assert "8 sign patterns" in prose.text_choosing(prose.CLI, compare.randomisation_how(exact),
                                                    compare.reading(exact, "RR")[1])


def test_every_reading_section_fills_from_the_reading_values():
    _, values = compare.reading(compare.compare_values([0.1, 0.5, 0.2], [0.3, 0.4, 0.9]), "RR")
    assert values["assignments"] == "8"  # exact: all 2^3 sign patterns
    assert compare.reading(compare.compare_values(np.zeros(20), np.linspace(0.1, 0.3, 20)), "RR")[1][
        "assignments"] == f"{compare.PERMUTATIONS:,}"  # sampled
    for how in (compare.RANDOMISATION_EXACT, compare.RANDOMISATION_SAMPLED, compare.RANDOMISATION_NORMAL):
        values["p_rand_how"] = prose.text_choosing(prose.CLI, how, values)  # how the page says p was computed
        assert "{" not in values["p_rand_how"]
    for heading in (*compare.READINGS, compare.READING_TESTS_DISAGREE):
        assert "{" not in prose.text_choosing(prose.CLI, heading, values)
    assert "{" not in prose.text_choosing("compare", "Outcome", values)
    assert prose.section("compare", compare.WHY_FEW_QUERIES)
    counts = prose.text("compare", "Counts", n="3", qrels_only="1", a_only="0", b_only="0", run_only="2",
                        run_a="A", run_b="C")
    assert "3" in counts and "run C only" in counts
    assert compare.reading(compare.compare_values([0.1] * 12, [0.9] * 12), "RR", a="A", b="C")[1]["better"] == "C"


# ----------------------------------------------------------------------------
# The chart
# ----------------------------------------------------------------------------

def test_the_win_loss_chart_sorts_wins_first_and_says_so_in_words():
    figure = charts.win_loss_bars(["q1", "q2", "q3", "q4", "q5"], [-0.5, 0.25, 0.0, 1.0, -0.125], metric="RR")
    assert figure.alt_text == ("Per-query difference in RR, run B minus run A, over 5 queries, sorted from largest "
                               "win to largest loss: B better on 2, worse on 2, tied on 1. Largest win: query q4, "
                               "+1.000. Largest loss: query q1, −0.500. Mean difference +0.125.")
    spec = figure.spec()
    layers = spec["layer"]
    assert layers[0]["encoding"]["x"]["sort"] == {"field": "place", "op": "min"}  # each bar's place in the order:
    places = {row["query"]: row["place"] for layer in layers[:2] for row in layer["data"]["values"]}
    assert sorted(places, key=places.get) == ["q4", "q2", "q3", "q5", "q1"]  # largest win ... largest loss
    assert layers[0]["encoding"]["color"]["scale"]["range"] == [charts.WIN, "#8b949e", charts.LOSS]
    assert layers[0]["encoding"]["y2"] == {"datum": 0}  # bars grow from zero: sign is position
    assert any(layer["mark"]["type"] == "rule" for layer in layers if isinstance(layer["mark"], dict))
    assert [row["label"] for row in layers[0]["data"]["values"]] == ["+1.000", "+0.250", "−0.125", "−0.500"]  # bars


def test_the_win_loss_chart_for_identical_runs_and_bad_input():
    figure = charts.win_loss_bars(["1", "2"], [0.0, 0.0], metric="P@5", scale=1.5)
    assert "B better on 0, worse on 0, tied on 2" in figure.alt_text and "Largest" not in figure.alt_text
    figure.spec()
    figure = charts.win_loss_bars(["**bold**", "[x](http://e.org)", "q3"], [0.5, -0.5, 0.0], metric="RR")
    assert "Largest win: the leftmost bar, +0.500. Largest loss: the rightmost bar, −0.500." in figure.alt_text
    assert "**" not in figure.alt_text and "http" not in figure.alt_text  # file text never reaches Markdown
    with pytest.raises(ValueError):
        charts.win_loss_bars(["1"], [0.1, 0.2], metric="RR")
    with pytest.raises(ValueError):
        charts.win_loss_bars(["1"], [float("nan")], metric="RR")


# ----------------------------------------------------------------------------
# The command line: --compare
# ----------------------------------------------------------------------------

# 12 queries, one relevant document each: run A finds it at rank r_a, run B at rank r_b (0: not returned).
RANKS_A = [1, 2, 3, 1, 5, 2, 1, 4, 0, 2, 3, 1]
RANKS_B = [1, 1, 1, 1, 2, 1, 2, 1, 3, 1, 1, 1]


def _run(ranks, tag: str, extra: str = "") -> str:
    lines = []
    for q, r in enumerate(ranks, 1):
        docs = [f"m{i}" for i in range(5)]
        if r:
            docs[r - 1] = "hit"
        lines += [f"q{q} Q0 {d} {i} {10 - i} {tag}\n" for i, d in enumerate(docs, 1)]
    return "".join(lines) + extra


def compare_cli(tmp_path, capsys, *args, run_b=None):
    paths = {}
    for name, content in (("qrels.txt", "".join(f"q{q} 0 hit 1\n" for q in range(1, 14))),
                          ("a.txt", _run(RANKS_A, "a")), ("b.txt", run_b or _run(RANKS_B, "b", "q99 Q0 x 1 1 b\n"))):
        paths[name] = tmp_path / name
        paths[name].write_text(content)
    try:
        status = main([str(paths["qrels.txt"]), str(paths["a.txt"]), "--compare", str(paths["b.txt"]), *args])
    except SystemExit as exit_:
        status = exit_.code
    out, err = capsys.readouterr()
    return status, out, err


def expected_rr(ranks):
    return [1 / r if r else 0.0 for r in ranks]


def test_compare_json(tmp_path, capsys):
    status, out, err = compare_cli(tmp_path, capsys, "--json", "-m", "MRR", "-m", "recall@1")
    assert status == 0
    result = json.loads(out)
    b = str(tmp_path / "b.txt")
    assert result["gain"] == "linear" and result["baseline"] == str(tmp_path / "a.txt")
    assert result["labels"] == {str(tmp_path / "a.txt"): "A", b: "B"}
    assert result["skipped"][b] == {"qrels_only": 1, "a_only": 0, "b_only": 0, "run_only": 1}  # q13; q99
    assert result["runs"][b]["queries"] == 12 and result["family"] == 2 and result["correction"] == "holm"
    rr = result["versus_baseline"][b]["RR"]
    assert list(rr) == ["n", "mean_a", "mean_b", "mean_diff", "ci95", "improved", "hurt", "tied", "t_test_p",
                        "randomisation_p", "randomisation_method", "randomisation_exact",
                        "randomisation_assignments", "randomisation_error_bound", "permutations", "seed",
                        "bootstrap", "t_test_p_corrected", "randomisation_p_corrected", "significant"]
    a_rr, b_rr = expected_rr(RANKS_A), expected_rr(RANKS_B)
    assert rr["n"] == 12  # the means and their difference are over the 12 queries both runs answer
    assert rr["mean_a"] == pytest.approx(sum(a_rr) / 12, abs=1e-15)
    assert rr["mean_b"] == pytest.approx(sum(b_rr) / 12, abs=1e-15)
    assert (rr["improved"], rr["hurt"], rr["tied"]) == (8, 1, 3)  # query 7: rank 1 -> 2
    direct = compare.compare_values(a_rr, b_rr)
    assert rr["t_test_p"] == pytest.approx(direct.t_test_p, rel=1e-12)
    assert rr["randomisation_p"] == direct.randomisation_p
    assert rr["ci95"] == pytest.approx(list(direct.ci95), abs=1e-12)
    assert rr["permutations"] == compare.PERMUTATIONS and rr["seed"] == compare.SEED
    assert rr["randomisation_method"] == compare.SIGN_FLIPS == direct.randomisation_method  # 12 queries: flips,
    assert rr["randomisation_exact"] is True and rr["randomisation_assignments"] == 2 ** 9  # all 2^9 (3 tied)
    assert rr["randomisation_p"] == exact_sign_flip_p(np.subtract(b_rr, a_rr))
    assert rr["randomisation_error_bound"] == direct.randomisation_error_bound > 0.0098
    r1 = result["versus_baseline"][b]["R@1"]
    holm = corrections.adjust([rr["randomisation_p"], r1["randomisation_p"]], "holm")
    assert [rr["randomisation_p_corrected"], r1["randomisation_p_corrected"]] == holm.tolist()
    assert rr["bootstrap"]["method"] == "BCa" and rr["bootstrap"]["low"] <= rr["mean_diff"] <= rr["bootstrap"]["high"]
    assert set(result["versus_baseline"][b]) == {"RR", "R@1"}
    assert "'q13'" in err and "'q99'" in err  # the skipped queries are noted on stderr


def test_compare_json_per_query(tmp_path, capsys):
    _, out, _ = compare_cli(tmp_path, capsys, "--json", "--per-query", "-m", "RR")
    per_query = json.loads(out)["per_query"][str(tmp_path / "b.txt")]
    assert per_query["q1"] == {"RR": 0.0} and per_query["q2"] == {"RR": pytest.approx(1 - 1 / 2)}
    assert per_query["q9"] == {"RR": pytest.approx(1 / 3)}  # A misses, B at rank 3


def test_compare_table(tmp_path, capsys):
    status, out, _ = compare_cli(tmp_path, capsys, "-m", "RR", "-m", "nDCG@10")
    assert status == 0
    lines = out.splitlines()
    assert lines[0].split()[0] == "qrels" and lines[1].split()[:3] == ["runs", "A:", str(tmp_path / "a.txt")]
    assert lines[1].endswith("(baseline)") and lines[2].split() == ["B:", str(tmp_path / "b.txt")]
    assert "with Holm's method" in out
    header = next(line for line in lines if line.startswith("run  measure"))
    assert header.split()[:7] == ["run", "measure", "paired", "A", "run", "−", "A"]
    row = next(line for line in lines if line.startswith("B    RR "))
    direct = compare.compare_values(expected_rr(RANKS_A), expected_rr(RANKS_B))
    assert row.split()[2:6] == ["12", fmt(direct.mean_a), fmt(direct.mean_b), signed(direct.mean_diff)]  # adds up
    assert "8/3/1" in row
    assert compare.format_p(direct.t_test_p) in row and compare.format_p(direct.randomisation_p) in row
    assert any(line.startswith("After Holm's correction across 2 comparisons") for line in lines)


def test_compare_errors(tmp_path, capsys):
    status, _, err = compare_cli(tmp_path, capsys, "-m", "RR", run_b="q13 Q0 hit 1 1 b\n")  # A lacks q13
    assert status == 1 and "share no judged query" in err
    status, _, err = compare_cli(tmp_path, capsys, "-m", "RR", run_b="q99 Q0 x 1 1 b\n")  # nothing judged
    assert status == 1 and "found no query that is also in" in err
    status, _, err = compare_cli(tmp_path, capsys, "-m", "RR", run_b="q1 Q0 x 1 high b\n")  # score not a number
    assert status == 1 and "b.txt, line 1" in err and "Traceback" not in err
    status, _, err = compare_cli(tmp_path, capsys, "-m", "MAP@x")
    assert status == 2
