"""How many queries a paired t-test needs: its power, the queries needed, the smallest detectable difference.

The test is compare's paired t-test (:func:`components.engine.compare.t_test`), two-sided at level
:math:`\\alpha`, over per-query differences :math:`d_i = b_i - a_i` assumed independent and normal with true
mean :math:`\\delta` and standard deviation :math:`\\sigma`. No Streamlit import here.

The formulas
------------
With :math:`n` queries, :math:`\\mathit{df} = n - 1` and the critical value :math:`c = t_{1-\\alpha/2,\\,\\mathit{df}}`
(Student's t quantile), the statistic :math:`t = \\bar d / (s/\\sqrt n)` follows a noncentral t distribution
:math:`T'` with df degrees of freedom and noncentrality

.. math:: \\lambda = \\delta \\sqrt n / \\sigma,

so the test's **power** (the chance that it rejects "no difference") is

.. math:: \\mathrm{power}(n) = P(|T'| > c) = P(T' > c) + P(T' < -c)

(``scipy.stats.nct``). The **normal approximation** replaces t by the standard normal and drops the far tail:
:math:`\\mathrm{power} \\approx \\Phi(\\lambda - z_{1-\\alpha/2})`, which solved for n gives

.. math:: n \\approx \\left(\\frac{(z_{1-\\alpha/2} + z_{\\mathrm{power}})\\,\\sigma}{\\delta}\\right)^2

(:func:`normal_queries`; 441.5 for σ = 0.15, δ = 0.02, α = 0.05 and power 0.8). The t test needs a few queries
more, because :math:`s` estimates σ: :func:`queries_needed` starts from the approximation and searches with
the exact power (444 there). :func:`detectable_difference` solves the exact power for δ at a given n.

Edge cases
----------
- Fewer than 2 queries: no degrees of freedom, no test (compare.t_test gives nan): power 0, nothing is
  detectable (:func:`detectable_difference` is inf).
- σ = 0: every difference equals δ, so compare.t_test rejects for sure when δ ≠ 0 (power 1) and never when
  δ = 0 (its p is 1: power 0).
- The sign of δ does not matter (the test is two-sided).
- :func:`queries_needed` gives ``None`` when even :data:`MAX_QUERIES` queries do not reach the power (δ = 0,
  or δ tiny beside σ).
- Any finite δ and σ ≥ 0 give an answer, however far apart: with δ = 1e-200 and σ = 0.15 the normal
  approximation is inf (its square is beyond a float) and no query count reaches the power.
"""
from __future__ import annotations

import dataclasses
import math
import operator
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np
import numpy.typing as npt
from scipy import optimize, stats  # type: ignore[import-untyped, unused-ignore]  # typed only with scipy-stubs

from components.engine import compare

ALPHA = compare.ALPHA  # the default significance level, two-sided: 0.05, the threshold compare's reading speaks of
POWER = 0.8  # the default target power: the conventional 80 % chance of detecting the difference
MAX_QUERIES = 10_000_000  # queries_needed searches no further: beyond this it gives None (unreachable)
CURVE_FROM, CURVE_TO, CURVE_POINTS = 10, 5000, 60  # the chart's query counts: log-spaced, from, to, how many
_NC_LIMIT = 1e9  # scipy's nct gives nan beyond λ ≈ 3e9; the power there is 1 for any sensible α
Floats = compare.Floats


def _check_levels(alpha: float, power: float | None = None) -> None:
    """``ValueError`` unless 0 < alpha < 1 and (if given) alpha < power < 1."""
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be between 0 and 1, got {alpha}")
    if power is not None and not alpha < power < 1:
        raise ValueError(f"the target power must be between alpha ({alpha}) and 1, got {power}")


def _check_spread(delta: float, sd: float) -> None:
    """``ValueError`` unless delta is finite and sd finite and not negative."""
    if not math.isfinite(delta) or not math.isfinite(sd) or sd < 0:
        raise ValueError(f"need a finite difference and a finite standard deviation ≥ 0, got {delta} and {sd}")


def _power_at(df: int, nc: float, c: float) -> float:
    """:math:`P(|T'| > c)` for :math:`T'` noncentral t (df, nc), nc capped at _NC_LIMIT; c is the critical value
    :math:`t_{1-\\alpha/2,\\,df}` (:func:`_critical`).

    The far tail :math:`P(T' < -c)` is read as :math:`P(-T' > c)`, the upper tail at noncentrality −nc: scipy's
    ``nct.cdf`` gives nan for some tiny lower tails, its ``sf`` does not. Both tails in one call (half the time).
    """
    nc = min(abs(nc), _NC_LIMIT)
    return float(stats.nct.sf(c, df, [nc, -nc]).sum())


def _critical(df: int, alpha: float) -> float:
    """:math:`t_{1-\\alpha/2,\\,df}`, the two-sided test's critical value (2.0096 for df = 49, α = 0.05)."""
    return float(stats.t.isf(alpha / 2, df))


def achieved_power(n: int, delta: float, sd: float, alpha: float = ALPHA) -> float:
    """The power of the two-sided paired t-test with n queries: :math:`P(|T'| > t_{1-\\alpha/2,\\,n-1})`, T'
    noncentral t with n − 1 degrees of freedom and noncentrality :math:`\\lambda = \\delta\\sqrt n/\\sigma`.

    n < 2: 0 (no test); sd = 0: 1 if delta ≠ 0, else 0 (see the module's docstring).

    Examples
    --------
    No true difference: the test rejects at its level, α. A difference of 0.02 with σ = 0.15:

    >>> round(achieved_power(50, 0.0, 0.15), 6), round(achieved_power(50, 0.02, 0.15), 3), round(achieved_power(444, 0.02, 0.15), 3)
    (0.05, 0.152, 0.801)
    """
    n = operator.index(n)
    _check_levels(alpha)
    _check_spread(delta, sd)
    if n < 2:
        return 0.0
    if sd == 0:
        return 1.0 if delta else 0.0
    return _power_at(n - 1, delta * math.sqrt(n) / sd, _critical(n - 1, alpha))


def _z(alpha: float, power: float) -> tuple[float, float]:
    """:math:`(z_{1-\\alpha/2}, z_{\\mathrm{power}})`, standard normal quantiles: (1.96, 0.84) at 0.05 and 0.8."""
    return float(stats.norm.ppf(1 - alpha / 2)), float(stats.norm.ppf(power))


def normal_queries(delta: float, sd: float, alpha: float = ALPHA, power: float = POWER) -> float:
    """The normal approximation's :math:`n = ((z_{1-\\alpha/2} + z_{\\mathrm{power}})\\,\\sigma/\\delta)^2`, not
    rounded (inf for δ = 0 and σ > 0; 0 for σ = 0).

    >>> round(normal_queries(0.02, 0.15), 1)
    441.5
    """
    _check_levels(alpha, power)
    _check_spread(delta, sd)
    if sd == 0:
        return 0.0
    if delta == 0:
        return math.inf
    root = sum(_z(alpha, power)) * sd / delta
    return root * root  # inf where the square is beyond a float (a tiny delta), where ** would raise OverflowError


def queries_needed(delta: float, sd: float, alpha: float = ALPHA, power: float = POWER) -> int | None:
    """The smallest n ≥ 2 with ``achieved_power(n, delta, sd, alpha)`` ≥ the target power; ``None`` when even
    :data:`MAX_QUERIES` do not reach it.

    Starts at the normal approximation (:func:`normal_queries`, rounded up) and brackets the answer by steps
    of 1, 2, 4, ... away from it, then bisects: the power grows with n.

    >>> queries_needed(0.02, 0.15), queries_needed(0.0, 0.15)
    (444, None)
    """
    start = normal_queries(delta, sd, alpha, power)  # checks the arguments

    def reaches(n: int) -> bool:
        return achieved_power(n, delta, sd, alpha) >= power

    if not reaches(MAX_QUERIES):
        return None
    low, high = _bracket(reaches, _whole_queries(start))
    while high - low > 1:  # reaches(high), not reaches(low)
        middle = (low + high) // 2
        low, high = (low, middle) if reaches(middle) else (middle, high)
    return high


def _whole_queries(n: float) -> int:
    """n rounded up to whole queries, within 2 .. MAX_QUERIES (n = inf gives MAX_QUERIES)."""
    return MAX_QUERIES if n >= MAX_QUERIES else max(2, math.ceil(n))


def _bracket(reaches: Callable[[int], bool], start: int) -> tuple[int, int]:
    """(low, high) with ``reaches(high)`` and not ``reaches(low)`` (n = 1 never reaches), found by steps of 1, 2,
    4, ... from ``start`` (within 2 .. MAX_QUERIES, and reaches(MAX_QUERIES) holds)."""
    step, direction = 1, (-1 if reaches(start) else 1)
    near = start
    while True:
        far = min(max(near + direction * step, 1), MAX_QUERIES)
        if far == 1 or reaches(far) != reaches(near):
            return (far, near) if direction < 0 else (near, far)
        near, step = far, step * 2


def _noncentrality_needed(df: int, alpha: float, power: float) -> float:
    """The λ ≥ 0 at which the power with df degrees of freedom reaches the target (brentq on the exact power,
    bracketed by doubling from the normal approximation's z_{1-α/2} + z_power); inf if not even at _NC_LIMIT."""
    low, high, c = 0.0, sum(_z(alpha, power)), _critical(df, alpha)
    while _power_at(df, high, c) < power:
        if high >= _NC_LIMIT:
            return math.inf
        low, high = high, high * 2
    return float(optimize.brentq(lambda nc: _power_at(df, nc, c) - power, low, high, xtol=1e-12))


def detectable_difference(n: int, sd: float, alpha: float = ALPHA, power: float = POWER) -> float:
    """The smallest true difference δ ≥ 0 that n queries detect with the target power:
    :math:`\\delta = \\lambda^{*}\\sigma/\\sqrt n`, where :math:`\\lambda^{*}` solves power = target for the
    noncentral t with n − 1 degrees of freedom (``scipy.optimize.brentq``).

    n < 2: inf (no test); sd = 0: 0 (any difference is detected).

    >>> round(detectable_difference(50, 0.15), 4), round(detectable_difference(444, 0.15), 4)
    (0.0606, 0.02)
    """
    n = operator.index(n)
    _check_levels(alpha, power)
    _check_spread(0.0, sd)
    if n < 2:
        return math.inf
    if sd == 0:
        return 0.0
    return _noncentrality_needed(n - 1, alpha, power) * sd / math.sqrt(n)


def query_counts(start: int = CURVE_FROM, stop: int = CURVE_TO, points: int = CURVE_POINTS) -> npt.NDArray[np.int64]:
    """About ``points`` whole query counts from start to stop, log-spaced, rounded, without repeats.

    >>> query_counts(10, 1000, 5).tolist()
    [10, 32, 100, 316, 1000]
    """
    if not 2 <= start <= stop or points < 2:
        raise ValueError(f"need 2 ≤ start ≤ stop and points ≥ 2, got {start}, {stop}, {points}")
    return np.unique(np.rint(np.geomspace(start, stop, points)).astype(np.int64))


@dataclass(frozen=True)
class Plan:
    """What a pilot's differences say about the queries a paired t-test needs (see :func:`plan`)."""

    n_have: int  # the queries in the pilot
    sd: float  # the sample standard deviation of their differences (n − 1 in the denominator)
    delta: float  # the difference to detect
    alpha: float
    power: float  # the target power
    z_alpha: float  # z_{1-α/2}, the normal approximation's first term (1.96 at α = 0.05)
    z_power: float  # z_power, its second (0.84 at power 0.8)
    normal_queries: float  # ((z_alpha + z_power) × sd / delta)^2, not rounded
    queries_needed: int | None  # the exact t answer (None: not within MAX_QUERIES)
    power_have: float  # the power with the n_have queries to detect delta
    detectable: float  # the smallest difference detectable with n_have queries at the target power

    @property
    def normal_whole(self) -> int:
        """The normal approximation rounded up to whole queries, within 2 .. :data:`MAX_QUERIES` (where
        :func:`queries_needed` starts its search)."""
        return _whole_queries(self.normal_queries)

    def as_dict(self) -> dict[str, float | int | None]:
        """The JSON fields: every attribute, and the normal approximation rounded up (inf and nan: None)."""
        fields = {**dataclasses.asdict(self), "normal_whole": self.normal_whole}
        return {k: v if not isinstance(v, float) or math.isfinite(v) else None for k, v in fields.items()}

    def curve(self, ns: Sequence[int] | npt.NDArray[np.integer] | None = None) -> Floats:
        """The detectable difference at each query count of ``ns`` (default :func:`query_counts`), for a chart
        of detectable difference against the number of queries."""
        counts = query_counts() if ns is None else ns
        return np.array([detectable_difference(int(n), self.sd, self.alpha, self.power) for n in counts])


def plan(differences: compare.Values, delta: float, alpha: float = ALPHA, power: float = POWER) -> Plan:
    """The :class:`Plan` for detecting ``delta`` from observed per-query differences (a pilot, at least 2).

    >>> p = plan([0.1, -0.1, 0.2, 0.0, -0.2], 0.1)
    >>> p.n_have, round(p.sd, 4), round(p.normal_queries, 1), p.normal_whole, p.queries_needed
    (5, 0.1581, 19.6, 20, 22)
    >>> round(p.power_have, 3), round(p.detectable, 3)
    (0.195, 0.266)
    """
    d = np.asarray(differences, dtype=np.float64)
    if d.ndim != 1 or d.size < 2 or not np.isfinite(d).all():
        raise ValueError("need at least 2 finite per-query differences to estimate their spread")
    n, sd = int(d.size), float(d.std(ddof=1))
    z_alpha, z_power = _z(alpha, power)
    return Plan(n_have=n, sd=sd, delta=delta, alpha=alpha, power=power, z_alpha=z_alpha, z_power=z_power,
                normal_queries=normal_queries(delta, sd, alpha, power),
                queries_needed=queries_needed(delta, sd, alpha, power),
                power_have=achieved_power(n, delta, sd, alpha), detectable=detectable_difference(n, sd, alpha, power))
