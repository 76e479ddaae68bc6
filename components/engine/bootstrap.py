"""The paired bootstrap interval of a mean difference (BCa), beside the t-interval of :mod:`compare`.

With per-query differences :math:`d_1, \\dots, d_n` (run B minus run A on
the same queries) and their mean :math:`\\bar d`:

1. **Resample.** Draw :math:`B` samples of n queries with replacement
   (:data:`RESAMPLES` = 10,000, a fixed :data:`SEED`, so the same files give
   the same interval) and take each sample's mean :math:`\\bar d^{*}_b`.
   Resampling whole queries keeps each query's two values together: that is
   what makes it *paired*.
2. **Bias-corrected and accelerated (BCa) percentiles** (Efron, 1987), not
   the plain percentiles: they correct for a bootstrap distribution that is
   off-centre or skewed, as per-query differences of IR measures often are.

   - bias correction :math:`z_0 = \\Phi^{-1}\\bigl(\\#\\{\\bar d^{*}_b < \\bar d\\}
     / B + \\tfrac12\\, \\#\\{\\bar d^{*}_b = \\bar d\\} / B\\bigr)`;
   - acceleration, from the jackknife means :math:`\\bar d_{(i)} = (n\\bar d -
     d_i)/(n - 1)` and their mean :math:`\\bar d_{(\\cdot)}`:
     :math:`a = \\sum_i (\\bar d_{(\\cdot)} - \\bar d_{(i)})^3 \\big/ 6\\bigl(\\sum_i
     (\\bar d_{(\\cdot)} - \\bar d_{(i)})^2\\bigr)^{3/2}`;
   - for each tail :math:`q \\in \\{(1-\\text{level})/2,\\ (1+\\text{level})/2\\}`
     with :math:`z_q = \\Phi^{-1}(q)`, the percentile
     :math:`\\Phi\\bigl(z_0 + (z_0 + z_q) / (1 - a (z_0 + z_q))\\bigr)` of the
     resampled means.

The interval needs no normal shape; the t-interval does. When the two
disagree about whether 0 is inside, the differences are usually skewed (a
few queries with large changes): :func:`disagree` says so, and
:func:`skewness` measures it. No Streamlit import here.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats

RESAMPLES = 10_000  # bootstrap samples (the interval's Monte Carlo error is then small beside its width)
SEED = 20240516  # fixed: the same differences always give the same interval
LEVEL = 0.95
METHOD = "BCa"  # bias-corrected and accelerated percentiles, named wherever an interval is shown
_BATCH_VALUES = 1 << 20  # resampled indices drawn at a time (bounds memory: 8 MiB of int64)


@dataclass(frozen=True)
class Interval:
    """A bootstrap interval: (low, high) at ``level``, from ``resamples`` samples drawn with ``seed``."""

    low: float
    high: float
    level: float
    resamples: int
    seed: int
    method: str = METHOD

    def contains(self, value: float) -> bool:
        return self.low <= value <= self.high

    def as_dict(self) -> dict[str, object]:
        def num(x: float) -> float | None:
            return float(x) if math.isfinite(x) else None

        return {"low": num(self.low), "high": num(self.high), "level": self.level, "method": self.method,
                "resamples": self.resamples, "seed": self.seed}


def resampled_means(d: np.ndarray, resamples: int = RESAMPLES, seed: int = SEED) -> np.ndarray:
    """The means of ``resamples`` samples of the n rows of ``d`` drawn with replacement (a fixed seed).

    ``d``: n values, or an (n, m) array of m columns of differences on the same queries; every column is
    resampled with the same draws (the same queries each time: common random numbers). Each sample is
    counted (how often each query was drawn, ``np.bincount``) and its means are those counts times ``d``
    over n, in batches that bound memory. The result: (resamples,) or (resamples, m).
    """
    rng = np.random.default_rng(seed)
    n = d.shape[0]
    means = np.empty((resamples, *d.shape[1:]))
    batch = max(1, _BATCH_VALUES // n)
    for start in range(0, resamples, batch):
        rows = min(batch, resamples - start)
        drawn = rng.integers(0, n, size=(rows, n)) + np.arange(rows)[:, None] * n
        counts = np.bincount(drawn.ravel(), minlength=rows * n).reshape(rows, n)
        means[start:start + rows] = counts @ d / n
    return means


def interval(d, level: float = LEVEL, resamples: int = RESAMPLES, seed: int = SEED) -> Interval:
    """The paired BCa bootstrap interval of the mean of the differences ``d`` (formulas in the module's docstring).

    One difference: (nan, nan), as the t-interval. No spread (all equal): the point (d̄, d̄).

    Examples
    --------
    >>> i = interval([0.1, 0.2, 0.3, 0.2, 0.0, 0.4, 0.1, 0.2])
    >>> round(i.low, 3), round(i.high, 3), i.method, i.resamples
    (0.113, 0.275, 'BCa', 10000)
    >>> same = interval([0.5, 0.5, 0.5])
    >>> same.low, same.high
    (0.5, 0.5)
    """
    return intervals(np.asarray(d, dtype=np.float64)[:, None], level, resamples, seed)[0]


def intervals(d: np.ndarray, level: float = LEVEL, resamples: int = RESAMPLES, seed: int = SEED) -> list[Interval]:
    """:func:`interval` of each column of an (n, m) array of differences on the same n queries, all from the
    same resampled query sets (one pass: much faster than m calls)."""
    values = np.asarray(d, dtype=np.float64)
    if not 0 < level < 1:
        raise ValueError(f"level must be between 0 and 1, got {level}")
    if values.ndim != 2 or not np.isfinite(values).all():
        raise ValueError("differences must be finite numbers, one row per query")
    n, m = values.shape
    if n < 2:
        return [Interval(math.nan, math.nan, level, resamples, seed) for _ in range(m)]
    spread = np.ptp(values, axis=0) > 0
    result = [Interval(float(values[0, j]), float(values[0, j]), level, resamples, seed) for j in range(m)]
    if spread.any():
        columns = np.flatnonzero(spread)
        means = resampled_means(values[:, columns], resamples, seed)
        for j, column in enumerate(columns):
            low, high = _bca(values[:, column], means[:, j], level)
            result[column] = Interval(low, high, level, resamples, seed)
    return result


def _bca(d: np.ndarray, means: np.ndarray, level: float) -> tuple[float, float]:
    """The BCa percentiles of the resampled ``means`` of ``d`` (bias correction z0, acceleration a)."""
    mean, resamples = float(d.mean()), means.size
    share = (np.count_nonzero(means < mean) + 0.5 * np.count_nonzero(means == mean)) / resamples
    z0 = stats.norm.ppf(np.clip(share, 1 / (2 * resamples), 1 - 1 / (2 * resamples)))
    jackknife = (d.sum() - d) / (d.size - 1)
    spread = jackknife.mean() - jackknife
    scale = float(np.max(np.abs(spread)))
    unit = spread / scale if scale > 0 else spread  # a is scale-free: a tiny spread's cube would underflow to 0
    a = float(np.sum(unit ** 3)) / (6 * float(np.sum(unit ** 2)) ** 1.5) if scale > 0 else 0.0
    z = stats.norm.ppf([(1 - level) / 2, (1 + level) / 2])
    tails = stats.norm.cdf(z0 + (z0 + z) / (1 - a * (z0 + z)))
    low, high = np.quantile(means, tails)
    return float(low), float(high)


def skewness(d) -> float:
    """The sample skewness of the differences, :math:`m_3 / m_2^{3/2}` (0 for a symmetric spread; nan for none)."""
    values = np.asarray(d, dtype=np.float64)
    if values.size < 3 or float(np.ptp(values)) == 0.0:
        return math.nan
    return float(stats.skew(values))


def disagree(t_interval: tuple[float, float], boot: Interval) -> bool:
    """Whether the t-interval and the bootstrap interval disagree on whether 0 (no difference) is inside."""
    low, high = t_interval
    if not (math.isfinite(low) and math.isfinite(boot.low)):
        return False
    return (low <= 0 <= high) != boot.contains(0.0)
