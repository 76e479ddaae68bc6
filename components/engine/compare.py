"""Comparing two runs on the same queries: per-query wins and losses, and two paired significance tests.

One code path for the "your data" page and the command line
(``rankwise eval QRELS RUN --compare RUN2``). No Streamlit
import here.

Which queries are compared
--------------------------
The single-run rule, applied to both runs at once: a query is compared only
if it is in the qrels **and** in both runs. The others are skipped and
counted (:attr:`RunComparison.skipped`):

- ``qrels_only``: judged, but in neither run;
- ``a_only`` / ``b_only``: judged, but answered by run A only / run B only;
- ``run_only``: in run A or run B (or both) but not judged.

With ``complete`` (trec_eval's ``-c``), every judged query is compared and a
run that lacks one scores 0 on it, so only ``run_only`` can be non-zero.

The statistics, for one measure
-------------------------------
(For GMAP and gm_bpref, averaged geometrically, the same statistics run on
:math:`\\log b_i - \\log a_i`; see :func:`compare_values`.)

With per-query values :math:`a_i` (run A) and :math:`b_i` (run B) on the
same :math:`n` queries:

- difference :math:`d_i = b_i - a_i` (positive: B is better on query i).
  Differences smaller than :data:`TIE_TOLERANCE` in absolute value are
  rounding noise and count as exactly 0;
- counts: improved (:math:`d_i > 0`), hurt (:math:`d_i < 0`), tied (:math:`d_i = 0`);
- mean difference :math:`\\bar d = \\frac{1}{n}\\sum_i d_i` (equals
  mean(b) − mean(a));
- 95% confidence interval :math:`\\bar d \\pm t_{0.975,\\,n-1}\\, s/\\sqrt{n}`,
  where :math:`s = \\sqrt{\\sum_i (d_i - \\bar d)^2 / (n - 1)}` is the sample
  standard deviation of the differences and :math:`t_{0.975,\\,n-1}` the
  97.5% quantile of Student's t distribution with n − 1 degrees of freedom
  (``scipy.stats.ttest_1samp(d, 0).confidence_interval()``);
- paired t-test: :math:`t = \\bar d / (s/\\sqrt{n})`, two-sided p-value
  :math:`2\\,P(T_{n-1} \\ge |t|)` (``scipy.stats.ttest_rel``);
- paired randomisation test (sign flips): under the null hypothesis that A
  and B are interchangeable, each :math:`d_i` is as likely to have had the
  other sign. Queries with :math:`d_i = 0` are left out (flipping 0 changes
  nothing); over the :math:`m` non-zero differences, each of the
  :math:`2^m` sign assignments :math:`\\varepsilon \\in \\{-1, +1\\}^m` is
  equally likely and gives :math:`\\bar d^{*} = \\frac{1}{n}\\sum_i
  \\varepsilon_i d_i`. The two-sided p-value is the share of assignments
  with :math:`|\\bar d^{*}| \\ge |\\bar d|`, computed one of three ways
  (:func:`randomisation`):

  1. **exact**, when :math:`2^m \\le` :data:`EXACT_LIMIT` (10,000: up to
     m = 13 non-zero differences): every assignment is enumerated,

     .. math:: p = \\frac{\\#\\{\\varepsilon : |\\textstyle\\sum_i \\varepsilon_i d_i| \\ge |\\sum_i d_i|\\}}{2^m}

     a multiple of :math:`1/2^m`, at least :math:`2/2^m` (the observed
     assignment and its mirror), and 1 when m = 0. No seed, no Monte Carlo
     error (:attr:`Comparison.randomisation_exact`).
  2. **sampled flips**, above that: draw :math:`P` random sign vectors (a
     fixed seed, so the same data always give the same p; vectorised, see
     :func:`randomisation`) and take

     .. math:: p = \\frac{\\#\\{\\,|\\bar d^{*}| \\ge |\\bar d|\\,\\} + 1}{P + 1}

     (the "+1" counts the observed assignment itself, so p is never 0 and the
     test stays valid: Phipson and Smyth, 2010). Its Monte Carlo standard
     error is about :math:`\\sqrt{p(1 - p)/P}` (0.002 at p = 0.05, P = 10,000).
  3. **normal approximation**, with many queries: the flips cost P × m
     operations (2 billion at m = 200,000), so the same sign-flip
     distribution is then read from its normal approximation instead, when
     its guaranteed error is no larger than the flips' own 95% error margin
     at its widest. With :math:`S = \\sum_i d_i` and :math:`V = \\sum_i
     d_i^2`, the flipped sum :math:`\\sum_i \\varepsilon_i d_i` has mean 0 and
     variance exactly :math:`V`, and

     .. math:: p_{\\mathrm{normal}} = 2\\,\\bigl(1 - \\Phi(|S| / \\sqrt{V})\\bigr)

     lies within :math:`B = 2 \\cdot 0.56 \\cdot \\sum_i |d_i|^3 / V^{3/2}` of
     the exact sign-flip p (the Berry–Esseen theorem for independent summands
     :math:`\\varepsilon_i d_i`, with Shevtsova's 2010 constant 0.56, once per
     tail). The rule (:func:`randomisation_method`): the normal
     approximation when :math:`B \\le 1.96 \\times 0.5 / \\sqrt{P}` (0.0098
     for P = 10,000: the flips' own 95% error margin where it is widest, at
     p = 0.5), else the flips. B is at least :math:`1.12/\\sqrt{m}`, so the
     approximation needs at least 13,062 non-zero differences (more when a
     few queries carry most of the spread).

  Ties: "≥" is read with a slack of :math:`10^{-10} \\sum_i |d_i|` (exact
  and sampled alike). Two assignments whose sums are equal in exact
  arithmetic can come out different in floating point (by about
  :math:`m \\cdot 2.2 \\times 10^{-16} \\sum_i |d_i|` at most), so a flipped
  sum within the slack below :math:`|S|` counts as reaching it; sums that
  truly differ by less than that slack are far finer than any difference of
  per-query metric values. :attr:`Comparison.randomisation_method` says
  whether the flips (exact or sampled) or the normal approximation gave p,
  :attr:`Comparison.randomisation_assignments` how many sign assignments
  were counted, and :attr:`Comparison.randomisation_error_bound` gives B.

Edges
-----
- Identical runs (every :math:`d_i = 0`): zero differences, CI [0, 0], and
  p = 1 for both tests (scipy alone returns nan there: zero variance).
- All differences equal and non-zero (:math:`s = 0`): the t statistic is
  infinite, so the t-test's p is 0 and the CI is the single point
  :math:`\\bar d`; the randomisation test is unaffected.
- One query (n = 1): the t-test and the CI are undefined (nan, shown as
  "undefined"); the randomisation p is 1 (flipping one sign cannot make the
  mean any larger in size).
"""
from __future__ import annotations

import dataclasses
import math
import warnings
from dataclasses import dataclass
from typing import Any, Iterable, NamedTuple, Sequence

import numpy as np
import numpy.typing as npt
from scipy import stats  # type: ignore[import-untyped, unused-ignore]  # typed only with scipy-stubs installed

from components.engine import model
from components.engine.checks import check_whole
from components.engine.formatting import fmt, plural, signed
from components.engine.measures import GEOMETRIC_MEAN, Measure, aggregation, evaluate, parse_measures
from components.engine.metrics import Gain

Floats = npt.NDArray[np.float64]
Values = Sequence[float] | npt.NDArray[np.floating[Any]]  # per-query values or differences, as given by a caller

PERMUTATIONS = 10_000  # sign-flip permutations of the randomisation test (its Monte Carlo error: ±0.002 at p = 0.05)
SEED = 20240515  # the randomisation test's fixed seed: the same data always give the same p
EXACT_LIMIT = 10_000  # at most this many sign assignments (2^m ≤ 10,000: m ≤ 13) are all enumerated: an exact p
TIE_TOLERANCE = 1e-12  # |b - a| below this is rounding noise, counted as a tie (difference 0)
SUM_SLACK = 1e-10  # a flipped sum within SUM_SLACK × Σ|d_i| below |Σ d_i| counts as reaching it (float rounding)
ALPHA = 0.05  # the conventional threshold the reading speaks of
STRONG = 0.01  # below this, the reading says "strong evidence"
MIN_PERMUTATIONS = 1000
SIGN_FLIPS = "sign flips"  # how the randomisation p was computed: from the sign flips (all of them, or P random ones)
NORMAL_APPROXIMATION = "normal approximation"  # ... or the normal approximation of the same distribution
BERRY_ESSEEN = 0.56  # Berry–Esseen constant, independent summands not identically distributed (Shevtsova, 2010)
_EXACT_MAX = EXACT_LIMIT.bit_length() - 1  # the most non-zero differences enumerated: 13 (2^13 = 8,192 ≤ 10,000)
_CHUNK_BYTES = 1 << 20  # the sign matrix is drawn in chunks of about this many bytes, 8 signs each (bounds memory)

# Sections of lessons/text/compare.md that read a comparison (see :func:`reading`).
READING_IDENTICAL = "Reading identical"
READING_ONE_QUERY = "Reading one query"
READING_STRONG = "Reading strong"
READING_EVIDENCE = "Reading evidence"
READING_WEAK = "Reading weak"
READING_TESTS_DISAGREE = "Reading tests disagree"
# how the randomisation p was computed, in words: the section of lessons/text/cli.md (see randomisation_how)
RANDOMISATION_EXACT = "Randomisation exact"
RANDOMISATION_SAMPLED = "Randomisation sign flips"
RANDOMISATION_NORMAL = "Randomisation normal approximation"
READINGS = (READING_IDENTICAL, READING_ONE_QUERY, READING_STRONG, READING_EVIDENCE, READING_WEAK)
WHY_FEW_QUERIES = "Why few queries prove little"


@dataclass(frozen=True)
class Comparison:
    """The paired comparison of one measure: B against A on the same queries.

    Attributes
    ----------
    a, b : per-query values of run A and run B (aligned: query i is the same).
    diff : b − a per query (|b − a| < TIE_TOLERANCE set to 0).
    mean_a, mean_b : the two means; mean_diff = mean_b − mean_a. For a measure averaged geometrically (GMAP,
        gm_bpref), the two geometric means over these queries.
    ci95 : (low, high), the 95% t confidence interval of the mean difference.
    tested : the per-query differences the tests and intervals run on: ``diff``, or for a geometric mean the
        log ratios :math:`\\log b_i - \\log a_i` (their mean is the log of the geometric means' ratio).
    geometric : the values enter a geometric mean, so the tests and intervals work on the log scale
        (``tested``) and an interval there is brought back as a difference of geometric means
        (:meth:`as_difference`).
    improved, hurt, tied : queries where B is higher, lower, equal.
    t_statistic, t_test_p : the paired t-test (two-sided).
    randomisation_p : the sign-flip randomisation test's p (two-sided; exact, or with the "+1" rule when sampled).
    randomisation_method : :data:`SIGN_FLIPS` or :data:`NORMAL_APPROXIMATION` (see :func:`randomisation_method`).
    randomisation_exact : whether p counts every one of the :math:`2^m` sign assignments of the m non-zero
        differences (when :math:`2^m \\le` :data:`EXACT_LIMIT`): no seed, no Monte Carlo error.
    randomisation_assignments : how many sign assignments p counts: :math:`2^m` when exact, ``permutations``
        random ones when sampled (the "+1" rule adds the observed one), 0 with the normal approximation.
    randomisation_error_bound : B, how far the normal approximation's p can be from the exact sign-flip p
        (whichever method was used; inf when no difference is non-zero).
    permutations, seed : the random sign vectors the flips draw when the exact enumeration is too large
        (``permutations`` also sets the rule's margin; the seed is unused by the other two ways).
    """

    a: Floats
    b: Floats
    diff: Floats
    mean_a: float
    mean_b: float
    mean_diff: float
    ci95: tuple[float, float]
    improved: int
    hurt: int
    tied: int
    t_statistic: float
    t_test_p: float
    randomisation_p: float
    randomisation_method: str
    randomisation_exact: bool
    randomisation_assignments: int
    randomisation_error_bound: float
    permutations: int
    seed: int
    tested: Floats
    geometric: bool = False

    @property
    def n(self) -> int:
        """The number of compared queries."""
        return int(self.diff.size)

    def as_difference(self, x: float) -> float:
        """A mean of :attr:`tested` as a difference of means: itself, or for a geometric mean
        :math:`G_a (e^x - 1)`, the change of B's geometric mean that ratio :math:`e^x` gives (an interval's ends
        map one to one, and :math:`x = \\overline{\\log b - \\log a}` gives ``mean_diff``)."""
        return self.mean_a * math.expm1(x) if self.geometric else x

    def as_dict(self) -> dict[str, Any]:
        """The JSON fields: n (the queries compared), mean_a and mean_b over those queries, mean_diff, ci95, counts,
        both p-values, how the randomisation p was computed (method, exact or not, the sign assignments counted) and
        its normal approximation's error bound, permutations, seed.

        Undefined and infinite values (nan, inf) become ``None`` (JSON has neither).
        """
        def num(x: float) -> float | None:
            return float(x) if math.isfinite(x) else None

        return {"n": self.n, "mean_a": num(self.mean_a), "mean_b": num(self.mean_b), "mean_diff": num(self.mean_diff),
                "ci95": [num(self.ci95[0]), num(self.ci95[1])], "improved": self.improved, "hurt": self.hurt,
                "tied": self.tied, "t_test_p": num(self.t_test_p), "randomisation_p": num(self.randomisation_p),
                "randomisation_method": self.randomisation_method,
                "randomisation_exact": self.randomisation_exact,
                "randomisation_assignments": self.randomisation_assignments,
                "randomisation_error_bound": num(self.randomisation_error_bound),
                "permutations": self.permutations, "seed": self.seed}


class NothingToCompare(ValueError):
    """Two runs have no query in common to compare (a fact of the files, not a caller's mistake)."""


def paired_differences(a: Values, b: Values) -> Floats:
    """:math:`d_i = b_i - a_i`, with differences below :data:`TIE_TOLERANCE` in size set to exactly 0.

    Raises :class:`NothingToCompare` for no values, and ``ValueError`` for
    arrays of different lengths or a value that is not a finite number.

    Examples
    --------
    >>> paired_differences([0.5, 1.0, 0.2], [1.0, 0.5, 0.2 + 1e-17]).tolist()
    [0.5, -0.5, 0.0]
    """
    values_a, values_b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if values_a.ndim != 1 or values_a.shape != values_b.shape:
        raise ValueError(f"need one value per query from each run, aligned; got shapes {values_a.shape} and "
                         f"{values_b.shape}")
    if values_a.size == 0:
        raise NothingToCompare("need at least one query in both runs to compare them")
    if not (np.isfinite(values_a).all() and np.isfinite(values_b).all()):
        raise ValueError("per-query values must be finite numbers")
    d = values_b - values_a
    d[np.abs(d) < TIE_TOLERANCE] = 0.0
    return d


def confidence_interval(d: Values, level: float = 0.95) -> tuple[float, float]:
    """The t confidence interval of the mean of ``d``: :math:`\\bar d \\pm t_{(1+level)/2,\\,n-1}\\, s/\\sqrt{n}`.

    ``s`` is the sample standard deviation (n − 1 in the denominator); scipy
    computes it (``scipy.stats.ttest_1samp(d, 0).confidence_interval(level)``).
    One value: (nan, nan); no spread (all values equal, up to
    :data:`TIE_TOLERANCE`): the point (d̄, d̄).

    Examples
    --------
    Differences 0.1, 0.2, 0.3: mean 0.2, s = 0.1, t_{0.975, 2} = 4.303, so 0.2 ± 4.303 × 0.1/√3:

    >>> [round(x, 4) for x in confidence_interval([0.1, 0.2, 0.3])]
    [-0.0484, 0.4484]
    >>> confidence_interval([0.0, 0.0])
    (0.0, 0.0)
    """
    values = np.asarray(d, dtype=np.float64)
    if not 0 < level < 1:
        raise ValueError(f"level must be between 0 and 1, got {level}")
    if values.size < 2:
        return math.nan, math.nan
    if _no_spread(values):
        mean = float(values.mean())
        return mean, mean
    with warnings.catch_warnings():  # scipy warns about precision loss on nearly equal differences
        warnings.simplefilter("ignore", RuntimeWarning)
        interval = stats.ttest_1samp(values, 0.0).confidence_interval(confidence_level=level)
    return float(interval.low), float(interval.high)


def _no_spread(d: Floats) -> bool:
    """Whether all differences are equal, up to rounding noise (max − min below :data:`TIE_TOLERANCE`)."""
    return float(np.ptp(d)) < TIE_TOLERANCE


def t_test(a: Values, b: Values) -> tuple[float, float]:
    """The paired t-test of B against A: (t, two-sided p), as ``scipy.stats.ttest_rel(b, a)``.

    :math:`t = \\bar d / (s/\\sqrt{n})` with :math:`d = b - a`, and
    :math:`p = 2\\,P(T_{n-1} \\ge |t|)`. Zero variance, handled here because
    scipy returns nan: all differences 0 gives (0, 1); all equal and non-zero
    (up to :data:`TIE_TOLERANCE`) gives (±inf, 0). One query: (nan, nan).

    Examples
    --------
    Differences 0.1, 0.2, −0.1, 0.3: mean 0.125, s = √(0.0875/3) = 0.1708,
    t = 0.125 / (0.1708/√4) = 1.464 on 3 degrees of freedom:

    >>> t, p = t_test([0.2, 0.4, 0.5, 0.1], [0.3, 0.6, 0.4, 0.4])
    >>> round(t, 4), round(p, 4)
    (1.4639, 0.2394)
    >>> t_test([0.5, 0.5], [0.5, 0.5]), t_test([0.1, 0.2], [0.3, 0.4])
    ((0.0, 1.0), (inf, 0.0))
    """
    d = paired_differences(a, b)
    if d.size < 2:
        return math.nan, math.nan
    if not d.any():
        return 0.0, 1.0
    if _no_spread(d):
        return math.copysign(math.inf, float(d.mean())), 0.0
    with warnings.catch_warnings():  # scipy warns about precision loss on nearly equal differences
        warnings.simplefilter("ignore", RuntimeWarning)
        result = stats.ttest_rel(np.asarray(b, dtype=np.float64), np.asarray(a, dtype=np.float64))
    return float(result.statistic), float(result.pvalue)


def _checked(d: Values, permutations: int) -> tuple[Floats, int]:
    """``d`` as a float64 array and ``permutations`` as an int, or ``ValueError``."""
    values = np.asarray(d, dtype=np.float64)
    if values.ndim != 1 or values.size == 0 or not np.isfinite(values).all():
        raise ValueError("need at least one finite difference")
    return values, check_whole(permutations, "permutations", lo=MIN_PERMUTATIONS)


def randomisation_method(d: Values, permutations: int = PERMUTATIONS) -> tuple[str, float]:
    """How :func:`randomisation` computes p for differences ``d``: (method, B).

    B is the Berry–Esseen bound on how far the normal approximation's p can be
    from the exact sign-flip p, over the :math:`m` non-zero differences:

    .. math:: B = 2 \\cdot 0.56 \\cdot \\frac{\\sum_i |d_i|^3}{\\bigl(\\sum_i d_i^2\\bigr)^{3/2}}

    (inf when m = 0). The method is :data:`NORMAL_APPROXIMATION` when
    :math:`B \\le 1.96 \\times 0.5 / \\sqrt{P}`, the 95% Monte Carlo error
    margin of ``P = permutations`` flips at its widest (p = 0.5; 0.0098 for
    10,000), else :data:`SIGN_FLIPS`: all :math:`2^m` of them when
    :math:`2^m \\le` :data:`EXACT_LIMIT`, else P random ones (see
    :func:`randomisation`). B is at least :math:`1.12/\\sqrt{m}` (equality
    when every :math:`|d_i|` is the same), so the approximation needs at least
    13,062 non-zero differences for 10,000 flips, far above the exact
    enumeration's 13; the bound is scale free (the differences are divided by
    their largest size first, so no power underflows).

    Examples
    --------
    >>> randomisation_method([0.5, -0.25, 0.0, 0.125])[0]
    'sign flips'
    >>> method, bound = randomisation_method([1.0, -1.0] * 10_000)  # m = 20,000: B = 1.12 / sqrt(20,000)
    >>> method, round(bound, 5)
    ('normal approximation', 0.00792)
    """
    values, permutations = _checked(d, permutations)
    return _method(values, permutations)


def _method(d: Floats, permutations: int) -> tuple[str, float]:
    """:func:`randomisation_method` on checked differences."""
    size = np.abs(d[d != 0])
    if size.size == 0:
        return SIGN_FLIPS, math.inf
    size /= size.max()
    squares = size * size
    bound = 2 * BERRY_ESSEEN * float(squares @ size) / float(squares.sum()) ** 1.5
    return (NORMAL_APPROXIMATION if bound <= 1.96 * 0.5 / math.sqrt(permutations) else SIGN_FLIPS), bound


class Randomisation(NamedTuple):
    """The randomisation test of one set of differences (see :func:`randomisation`).

    Attributes
    ----------
    p : the two-sided p-value.
    method : :data:`SIGN_FLIPS` or :data:`NORMAL_APPROXIMATION`.
    exact : whether p counts every one of the :math:`2^m` sign assignments (no Monte Carlo error).
    assignments : the sign assignments counted: :math:`2^m` exact, P sampled, 0 with the normal approximation.
    error_bound : B, the normal approximation's bound (:func:`randomisation_method`).
    """

    p: float
    method: str
    exact: bool
    assignments: int
    error_bound: float


def randomisation(d: Values, permutations: int = PERMUTATIONS, seed: int = SEED) -> Randomisation:
    """The paired randomisation (sign-flip) test of differences ``d``: its p and how it was computed.

    Queries with :math:`d_i = 0` are dropped (a flip there changes nothing),
    leaving m differences with sum :math:`S`. With :math:`F` the set of
    flipped queries, :math:`\\sum_i \\varepsilon_i d_i = S - 2\\sum_{i \\in F}
    d_i`; means and sums differ by the factor 1/n only, which changes no
    comparison. Each "≥" allows the slack :data:`SUM_SLACK` ×
    :math:`\\sum_i |d_i|`, so a flip that gives the observed sum back, up to
    float rounding, always counts (see the module's docstring). Three ways,
    in this order:

    - exact, when :math:`2^m \\le` :data:`EXACT_LIMIT`:
      :math:`p = \\#\\{F : |S - 2\\sum_{i \\in F} d_i| \\ge |S|\\} / 2^m`
      over all :math:`2^m` subsets F. Vectorised: the :math:`2^m \\times m`
      matrix :math:`M_{ki} = \\lfloor k / 2^i \\rfloor \\bmod 2` (bit i of k:
      query i flipped) lists every subset once, and :math:`S - 2Md` gives all
      the flipped sums in one product.
    - :data:`NORMAL_APPROXIMATION`, when :func:`randomisation_method` says so
      (many queries): :math:`p = 2\\,(1 - \\Phi(|S|/\\sqrt{V}))` with
      :math:`V = \\sum_i d_i^2`, within B of the exact sign-flip p.
    - sampled flips otherwise:
      :math:`p = (\\#\\{|\\bar d^{*}| \\ge |\\bar d|\\} + 1) / (P + 1)` over
      ``P = permutations`` random sign vectors drawn with ``seed``. Vectorised,
      no Python loop per permutation or per query: the sign matrix (one row
      per permutation, one bit per query: flipped or not) is drawn as random
      bytes, each byte the bits of 8 consecutive queries; a table of the 256
      partial sums of each block of 8 differences turns a row of bytes into
      :math:`\\sum_{i \\in F} d_i` with one lookup per 8 queries (about ten
      times faster than multiplying an unpacked sign matrix, in the same
      float64 arithmetic). Rows come in chunks to bound memory.

    Examples
    --------
    Differences 1, 2, 3: the 8 sign patterns give sums ±6, ±4, ±2 and 0 twice;
    only +6 and −6 reach |6|, so p = 2/8:

    >>> r = randomisation([1.0, 2.0, 3.0])
    >>> r.p, r.method, r.exact, r.assignments
    (0.25, 'sign flips', True, 8)

    Twenty non-zero differences: :math:`2^{20}` assignments are too many, so
    10,000 are drawn (counting all :math:`2^{20}` would give 0.0072):

    >>> r = randomisation(np.linspace(-0.2, 0.5, 20))
    >>> r.method, r.exact, r.assignments, round(r.p, 4)
    ('sign flips', False, 10000, 0.0063)
    """
    values, permutations = _checked(d, permutations)
    method, bound = _method(values, permutations)
    nonzero = values[values != 0]
    if nonzero.size <= _EXACT_MAX:
        return Randomisation(_exact_p(nonzero), SIGN_FLIPS, True, 1 << nonzero.size, bound)
    if method == NORMAL_APPROXIMATION:
        return Randomisation(_normal_p(nonzero), method, False, 0, bound)
    return Randomisation(_sampled_p(nonzero, permutations, seed), method, False, permutations, bound)


def _reach(d: Floats, total: float) -> float:
    """The size a flipped sum must reach to count: :math:`|S| - ` :data:`SUM_SLACK` :math:`\\sum_i |d_i|`."""
    return abs(total) - SUM_SLACK * float(np.abs(d).sum())


def _exact_p(d: Floats) -> float:
    """The exact sign-flip p of the non-zero differences ``d``: every one of the :math:`2^m` subsets F flipped once."""
    total = float(d.sum())
    flipped = (np.arange(1 << d.size)[:, None] >> np.arange(d.size)) & 1  # row k: bit i of k, query i flipped
    sums = total - 2.0 * (flipped @ d)  # S − 2 Σ_{i ∈ F} d_i, one per subset
    return int(np.count_nonzero(np.abs(sums) >= _reach(d, total))) / flipped.shape[0]


def _normal_p(d: Floats) -> float:
    """The normal approximation's p of the non-zero differences ``d``: :math:`2\\,(1 - \\Phi(|S|/\\sqrt{V}))`."""
    scaled = d / np.abs(d).max()  # scale free: |S| / sqrt(V) is unchanged, and no square underflows
    return math.erfc(abs(float(scaled.sum())) / math.sqrt(2 * float(scaled @ scaled)))  # 2 (1 − Φ(z)) = erfc(z/√2)


def _sampled_p(d: Floats, permutations: int, seed: int) -> float:
    """The sampled sign-flip p of the non-zero differences ``d``: ``permutations`` random subsets, "+1" rule."""
    total = float(d.sum())
    reach = _reach(d, total)
    blocks = -(-d.size // 8)
    padded = np.zeros(blocks * 8)
    padded[:d.size] = d
    bits = (np.arange(256)[:, None] >> np.arange(8)) & 1  # byte value -> its 8 bits (bit j: query 8b + j flipped)
    partial = (padded.reshape(blocks, 8) @ bits.T.astype(np.float64)).ravel()  # [b * 256 + byte]: flipped sum
    offsets = np.arange(blocks, dtype=np.intp) * 256
    rng = np.random.default_rng(seed)
    rows = max(1, _CHUNK_BYTES // blocks)
    at_least = 0
    for start in range(0, permutations, rows):
        signs = rng.integers(0, 256, size=(min(rows, permutations - start), blocks), dtype=np.uint8)
        flipped = np.take(partial, signs + offsets).sum(axis=1)  # sum of the flipped d_i, per permutation
        at_least += int(np.count_nonzero(np.abs(total - 2.0 * flipped) >= reach))
    return (at_least + 1) / (permutations + 1)


def compare_values(a: Values, b: Values, *, permutations: int = PERMUTATIONS, seed: int = SEED,
                   geometric: bool = False) -> Comparison:
    """Compare B against A on per-query values aligned by query: counts, mean difference, CI, both tests.

    ``geometric``: the values (positive, floored as trec_eval floors them) enter a geometric mean, as GMAP's
    do. The means are then geometric, and the t-test, the randomisation test and the interval work on the
    log ratios :math:`\\log b_i - \\log a_i`, the scale on which a geometric mean is an average; the
    interval comes back as a difference of geometric means (:meth:`Comparison.as_difference`). The counts
    still compare :math:`b_i` with :math:`a_i`.

    Examples
    --------
    >>> c = compare_values([0.5, 0.2, 1.0, 0.0, 0.3], [1.0, 0.2, 0.5, 0.5, 0.6])
    >>> c.improved, c.hurt, c.tied, round(c.mean_diff, 3)
    (3, 1, 1, 0.16)
    >>> [round(x, 3) for x in c.ci95], round(c.t_test_p, 3)
    ([-0.364, 0.684], 0.444)
    >>> c.randomisation_p, c.randomisation_exact, c.randomisation_assignments  # 4 non-zero: 16 sign patterns
    (0.625, True, 16)
    >>> same = compare_values([0.5, 0.2], [0.5, 0.2])
    >>> same.diff.tolist(), same.ci95, same.t_test_p, same.randomisation_p
    ([0.0, 0.0], (0.0, 0.0), 1.0, 1.0)

    Geometric: A's APs 0.1 and 0.4 (geometric mean 0.2), B's 0.4 and 0.4 (0.4); the log ratios are log 4 and 0:

    >>> g = compare_values([0.1, 0.4], [0.4, 0.4], geometric=True)
    >>> round(g.mean_a, 4), round(g.mean_b, 4), round(g.mean_diff, 4), (g.improved, g.tied)
    (0.2, 0.4, 0.2, (1, 1))
    >>> round(g.as_difference(float(g.tested.mean())), 4)  # the mean log ratio log 2, as G_a (2 − 1)
    0.2
    """
    d = paired_differences(a, b)
    values_a, values_b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    scale_a, scale_b = (np.log(values_a), np.log(values_b)) if geometric else (values_a, values_b)
    tested = paired_differences(scale_a, scale_b) if geometric else d
    t, p = t_test(scale_a, scale_b)
    test = randomisation(tested, permutations, seed)
    mean_a, mean_b = (float(np.exp(v.mean())) for v in (scale_a, scale_b)) if geometric else \
        (float(values_a.mean()), float(values_b.mean()))
    made = Comparison(
        a=values_a, b=values_b, diff=d, mean_a=mean_a, mean_b=mean_b,
        mean_diff=mean_b - mean_a if geometric else float(d.mean()), ci95=confidence_interval(tested),
        improved=int((d > 0).sum()), hurt=int((d < 0).sum()), tied=int((d == 0).sum()), t_statistic=t, t_test_p=p,
        randomisation_p=test.p, randomisation_method=test.method, randomisation_exact=test.exact,
        randomisation_assignments=test.assignments, randomisation_error_bound=test.error_bound,
        permutations=int(permutations), seed=int(seed), tested=tested, geometric=geometric)
    return dataclasses.replace(made, ci95=(made.as_difference(made.ci95[0]), made.as_difference(made.ci95[1])))


# ----------------------------------------------------------------------------
# Two runs on the same queries
# ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Pairing:
    """Which queries two judged runs share, and which are skipped.

    Attributes
    ----------
    qids : the compared queries, in the qrels file's order.
    index_a, index_b : where each compared query sits in ``judged_a.qids`` and ``judged_b.qids``.
    qrels_only, a_only, b_only, run_only : the skipped query ids (see the module's docstring).
    """

    qids: tuple[str, ...]
    index_a: np.ndarray
    index_b: np.ndarray
    qrels_only: tuple[str, ...]
    a_only: tuple[str, ...]
    b_only: tuple[str, ...]
    run_only: tuple[str, ...]

    @property
    def skipped(self) -> dict[str, int]:
        """``{"qrels_only": n, "a_only": n, "b_only": n, "run_only": n}``."""
        return {"qrels_only": len(self.qrels_only), "a_only": len(self.a_only), "b_only": len(self.b_only),
                "run_only": len(self.run_only)}


def pair(judged_a: model.JudgedRun, judged_b: model.JudgedRun) -> Pairing:
    """The queries evaluated for both runs (judged against the same qrels), and the skipped ones.

    Raises :class:`NothingToCompare` when the two runs share no judged query.

    Examples
    --------
    >>> from components.formats.readers import read
    >>> qrels = read("1 0 a 1\\n2 0 a 1\\n3 0 a 1\\n4 0 a 1\\n", "qrels").parsed
    >>> a = model.judge(qrels, read("1 Q0 a 1 1 r\\n2 Q0 a 1 1 r\\n9 Q0 a 1 1 r\\n", "run").parsed)
    >>> b = model.judge(qrels, read("2 Q0 a 1 1 r\\n1 Q0 a 1 1 r\\n3 Q0 a 1 1 r\\n8 Q0 a 1 1 r\\n", "run").parsed)
    >>> p = pair(a, b)
    >>> p.qids, p.index_a.tolist(), p.index_b.tolist(), p.skipped
    (('1', '2'), [0, 1], [0, 1], {'qrels_only': 1, 'a_only': 0, 'b_only': 1, 'run_only': 2})
    """
    in_b = dict(zip(judged_b.qids, range(len(judged_b.qids))))
    index_a = [i for i, qid in enumerate(judged_a.qids) if qid in in_b]
    qids = tuple(judged_a.qids[i] for i in index_a)
    if not qids:
        raise NothingToCompare(f"the two runs share no judged query: run A answers {len(judged_a.qids)} judged "
                               f"{plural(len(judged_a.qids), 'query|queries')}, run B {len(judged_b.qids)}, "
                               f"none of them the same")
    missing_b = set(judged_b.qrels_only)
    qrels_only = () if judged_a.complete or judged_b.complete else tuple(
        q for q in judged_a.qrels_only if q in missing_b)
    run_only = tuple(dict.fromkeys([*judged_a.run_only, *judged_b.run_only]))
    in_a = set(judged_a.qids)
    return Pairing(qids=qids,
                   index_a=np.array(index_a, dtype=np.int64),
                   index_b=np.fromiter(map(in_b.__getitem__, qids), dtype=np.int64, count=len(qids)),
                   qrels_only=qrels_only,
                   a_only=() if len(qids) == len(judged_a.qids) else tuple(q for q in judged_a.qids if q not in in_b),
                   b_only=() if len(qids) == len(judged_b.qids) else tuple(q for q in judged_b.qids if q not in in_a),
                   run_only=run_only)


@dataclass(frozen=True)
class RunComparison:
    """Run B against run A on their shared queries, for one or more measures.

    Attributes
    ----------
    gain : the nDCG/DCG gain used.
    pairing : the compared and skipped queries.
    measures : canonical measure name -> :class:`Comparison`.
    """

    gain: Gain
    pairing: Pairing
    measures: dict[str, Comparison]

    @property
    def qids(self) -> tuple[str, ...]:
        return self.pairing.qids

    @property
    def skipped(self) -> dict[str, int]:
        return self.pairing.skipped

    def as_dict(self) -> dict:
        """``{"gain", "num_queries", "skipped", "compare": {measure: Comparison.as_dict()}}``."""
        return {"gain": self.gain, "num_queries": len(self.qids), "skipped": self.skipped,
                "compare": {name: c.as_dict() for name, c in self.measures.items()}}


def compare_judged(judged_a: model.JudgedRun, judged_b: model.JudgedRun, measures: Iterable[Measure | str],
                   gain: Gain, *, permutations: int = PERMUTATIONS, seed: int = SEED,
                   values_a: dict[str, np.ndarray] | None = None,
                   values_b: dict[str, np.ndarray] | None = None) -> RunComparison:
    """Compare two runs judged against the same qrels: the entry point of the page.

    ``values_a`` / ``values_b`` may pass per-query values the caller already
    has (from :func:`components.engine.measures.evaluate` on each judged run, keyed
    by canonical name); missing ones are computed.

    Examples
    --------
    >>> from components.formats.readers import read
    >>> qrels = read("1 0 a 1\\n2 0 b 1\\n3 0 c 1\\n", "qrels").parsed
    >>> a = model.judge(qrels, read("1 Q0 x 1 2 r\\n1 Q0 a 2 1 r\\n2 Q0 b 1 1 r\\n3 Q0 x 1 1 r\\n", "run").parsed)
    >>> b = model.judge(qrels, read("1 Q0 a 1 1 r\\n2 Q0 b 1 1 r\\n3 Q0 c 1 1 r\\n", "run").parsed)
    >>> result = compare_judged(a, b, ["MRR"], "linear")
    >>> c = result.measures["RR"]
    >>> c.diff.tolist(), (c.improved, c.hurt, c.tied), c.mean_diff
    ([0.5, 0.0, 1.0], (2, 0, 1), 0.5)
    """
    parsed = parse_measures([m.name if isinstance(m, Measure) else m for m in measures])
    if not parsed:
        raise ValueError("name at least one measure to compare the runs on")
    pairing = pair(judged_a, judged_b)
    values_a = _values(judged_a, parsed, gain, values_a)
    values_b = _values(judged_b, parsed, gain, values_b)
    return RunComparison(gain, pairing, {
        m.name: compare_values(values_a[m.name][pairing.index_a], values_b[m.name][pairing.index_b],
                               permutations=permutations, seed=seed, geometric=aggregation(m.name) == GEOMETRIC_MEAN)
        for m in parsed})


def _values(judged: model.JudgedRun, measures: Sequence[Measure], gain: Gain,
            given: dict[str, np.ndarray] | None) -> dict[str, np.ndarray]:
    given = dict(given or {})
    missing = [m for m in measures if m.name not in given]
    if missing:
        given.update(evaluate(judged.queries, missing, gain))
    for m in measures:
        if len(given[m.name]) != len(judged.qids):
            raise ValueError(f"{m.name}: need one value per evaluated query ({len(judged.qids)}), "
                             f"got {len(given[m.name])}")
    return given


# ----------------------------------------------------------------------------
# Reading the result in plain language (the words are in lessons/text/compare.md)
# ----------------------------------------------------------------------------

def format_p(p: float, missing: str = "undefined") -> str:
    """A p-value for display: 3 decimals, "< 0.001" below that, ``missing`` for nan (a table cell may want "–").

    Examples
    --------
    >>> format_p(0.04321), format_p(0.0000999), format_p(1.0), format_p(float("nan")), format_p(float("nan"), "–")
    ('0.043', '< 0.001', '1.000', 'undefined', '–')
    """
    if math.isnan(p):
        return missing
    return "< 0.001" if p < 0.001 else f"{p:.3f}"


def format_bound(x: float) -> str:
    """An error bound for display: rounded up to 3 decimals (float noise below 1e-12 aside), so the shown bound
    still holds; "undefined" if infinite.

    Examples
    --------
    >>> format_bound(0.00412), format_bound(0.004), format_bound(math.inf)
    ('0.005', '0.004', 'undefined')
    """
    return f"{math.ceil(round(x * 1000, 9)) / 1000:.3f}" if math.isfinite(x) else "undefined"


def randomisation_how(c: Comparison) -> str:
    """The section that says how ``c``'s randomisation p was computed: every sign pattern (exact), random sign
    flips, or the normal approximation."""
    if c.randomisation_method == NORMAL_APPROXIMATION:
        return RANDOMISATION_NORMAL
    return RANDOMISATION_EXACT if c.randomisation_exact else RANDOMISATION_SAMPLED


def reading(c: Comparison, measure: str, a: str = "A", b: str = "B") -> tuple[str, dict[str, str]]:
    """Which section of ``lessons/text/cli.md`` reads this comparison, and the values for its placeholders.

    The randomisation test's p decides (it assumes nothing about the shape of
    the differences): below :data:`STRONG` "strong", below :data:`ALPHA`
    "evidence", otherwise "weak". Identical runs and a single query have their
    own sections. The values (all strings) fit every reading section, so a page
    fills the chosen one with ``prose.text_choosing(prose.CLI, heading, values)``.
    ``a`` and ``b`` name the runs (their letters). When the two tests fall on different sides of :data:`ALPHA`,
    add the
    section :data:`READING_TESTS_DISAGREE` (same values): see :func:`p_values_disagree`.
    ``p_rand_method`` says how the randomisation p was computed
    (:data:`SIGN_FLIPS` or :data:`NORMAL_APPROXIMATION`) and ``p_rand_error``
    how far the normal approximation's p can be from the exact test's
    (:func:`format_bound`; only meaningful with that method).
    ``assignments`` is how many sign assignments the p counts
    (:attr:`Comparison.randomisation_assignments`: all :math:`2^m` when
    :attr:`Comparison.randomisation_exact`, else the ``permutations`` sampled,
    or 0 with the normal approximation).

    Examples
    --------
    >>> heading, values = reading(compare_values([0.5, 0.2], [0.5, 0.2]), "RR")
    >>> heading, values["n"]
    ('Reading identical', '2')
    >>> heading, values = reading(compare_values([0.1] * 12, [0.9] * 12), "RR")
    >>> heading, values["better"], values["diff"], values["p_rand"]
    ('Reading strong', 'B', '0.800', '< 0.001')
    """
    d = c.diff
    if not d.any():
        heading = READING_IDENTICAL
    elif c.n < 2:
        heading = READING_ONE_QUERY
    elif c.randomisation_p < STRONG:
        heading = READING_STRONG
    elif c.randomisation_p < ALPHA:
        heading = READING_EVIDENCE
    else:
        heading = READING_WEAK
    b_better = c.mean_diff >= 0
    values = {
        "measure": measure, "n": f"{c.n:,}", "mean_a": fmt(c.mean_a), "mean_b": fmt(c.mean_b),
        "diff": fmt(abs(c.mean_diff)), "signed_diff": signed(c.mean_diff),
        "better": b if b_better else a, "worse": a if b_better else b, "run_a": a, "run_b": b,
        "direction": "higher" if b_better else "lower",
        "low": signed(c.ci95[0]), "high": signed(c.ci95[1]),
        "p_rand": format_p(c.randomisation_p), "p_t": format_p(c.t_test_p),
        "chance": "< 0.1%" if c.randomisation_p < 0.001 else fmt(c.randomisation_p, "percent"),
        "improved": f"{c.improved:,}", "hurt": f"{c.hurt:,}", "tied": f"{c.tied:,}",
        "permutations": f"{c.permutations:,}", "alpha": f"{ALPHA:g}",
        "assignments": f"{c.randomisation_assignments:,}",
        "p_rand_method": c.randomisation_method, "p_rand_error": format_bound(c.randomisation_error_bound),
    }
    return heading, values


def p_values_disagree(c: Comparison) -> bool:
    """Whether the t-test and the randomisation test fall on different sides of :data:`ALPHA`.

    Examples
    --------
    >>> p_values_disagree(compare_values([0.5, 0.2], [0.5, 0.2]))
    False
    """
    if math.isnan(c.t_test_p) or not c.diff.any():
        return False
    return (c.t_test_p < ALPHA) != (c.randomisation_p < ALPHA)
