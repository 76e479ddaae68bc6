"""Position-by-position DCG for the nDCG lesson's table and chart (no Streamlit import).

For each position i = 1..k of a ranking and of its ideal ordering:
gain g(rel_i), discount 1/log2(i + 1), discounted gain g(rel_i)/log2(i + 1),
and the running DCG (the sum so far). The values come from the engine's own
``gain_values`` and ``discounts``, so the table and the metric cannot drift.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from components.engine import metrics
from components.engine.formatting import fmt


@dataclass(frozen=True)
class Positions:
    """One ordering's top-k positions (arrays of equal length, at most k)."""

    rank: np.ndarray
    grade: np.ndarray
    gain: np.ndarray
    discount: np.ndarray
    discounted: np.ndarray
    running: np.ndarray


def positions(grades, k: int, gain: metrics.Gain = "exponential") -> Positions:
    """The first min(k, len(grades)) positions of ``grades``, with gain, discount and running DCG.

    Examples
    --------
    >>> p = positions([0, 2, 2, 2], k=3)
    >>> p.discounted.round(3).tolist(), round(float(p.running[-1]), 3)
    ([0.0, 1.893, 1.5], 3.393)
    """
    grades = np.asarray(grades, dtype=np.int64)[:metrics.check_k(k)]
    rank = np.arange(1, grades.size + 1)
    gain_ = metrics.gain_values(grades, gain)
    discount = metrics.discounts(rank)
    discounted = gain_ * discount
    return Positions(rank, grades, gain_, discount, discounted, np.cumsum(discounted))


def ideal_order(ids, grades) -> list:
    """The ids sorted best grade first (ties keep their given order): the ideal ordering.

    Examples
    --------
    >>> ideal_order(["a", "b", "c"], [1, 2, 1])
    ['b', 'a', 'c']
    """
    order = np.argsort(-np.asarray(grades, dtype=np.int64), kind="stable")
    return [list(ids)[i] for i in order]


def dcg_terms(p: Positions) -> str:
    """The DCG sum written out, one term per position: "3/1 + 3/1.585 + 0/2".

    Examples
    --------
    >>> dcg_terms(positions([2, 1, 0], k=3))
    '3/1 + 1/1.585 + 0/2'
    """
    def number(x: float) -> str:
        return f"{x:.3f}".rstrip("0").rstrip(".")
    return " + ".join(f"{number(g)}/{number(np.log2(r + 1))}" for g, r in zip(p.gain, p.rank)) or "0"


def dcg_latex(p: Positions) -> str:
    r"""The DCG sum as LaTeX fractions: "\frac{3}{1} + \frac{3}{1.585}".

    Examples
    --------
    >>> dcg_latex(positions([2, 0], k=2))
    '\\frac{3}{1} + \\frac{0}{1.585}'
    """
    return " + ".join(r"\frac{%s}{%s}" % tuple(term.split("/")) for term in dcg_terms(p).split(" + ")) \
        if p.rank.size else "0"


@dataclass(frozen=True)
class ByK:
    """DCG@k, IDCG@k and nDCG@k of one ranking for k = 1..len(ks), and where nDCG@k fell from k − 1."""

    ks: np.ndarray
    dcg: np.ndarray
    idcg: np.ndarray
    ndcg: np.ndarray

    def falls(self) -> np.ndarray:
        """True at each k whose nDCG@k is below nDCG@(k − 1) as displayed (three decimals); False at k = 1.

        Examples
        --------
        >>> by_k([2, 0, 0, 2], [2, 0, 0, 2], 4).falls().tolist()
        [False, True, False, False]
        """
        shown = np.array([float(fmt(v)) for v in self.ndcg])
        return np.concatenate([[False], shown[1:] < shown[:-1]])


def by_k(grades, judged, k_max: int, gain: metrics.Gain = "exponential") -> ByK:
    """The engine's DCG@k, IDCG@k and nDCG@k of ``grades`` (judged grades ``judged``) for k = 1..k_max.

    nDCG@k = DCG@k / IDCG@k can fall as k grows: at each new position the ideal adds its next best gain
    while the ranking may add a 0. Grades 2, 0, 0, 2 (exponential gain):

    >>> [round(float(v), 3) for v in by_k([2, 0, 0, 2], [2, 0, 0, 2], 4).ndcg]
    [1.0, 0.613, 0.613, 0.877]
    """
    qs = metrics.from_rankings([list(grades)], [list(judged)])
    ks = np.arange(1, metrics.check_k(k_max, "k_max") + 1)
    values = [np.array([float(f(qs, int(k), gain)[0]) for k in ks]) for f in (metrics.dcg, metrics.idcg, metrics.ndcg)]
    return ByK(ks, *values)
