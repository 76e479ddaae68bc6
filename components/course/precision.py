"""Average precision worked out hit by hit, for the AP lesson's table and arithmetic (no Streamlit import).

For a ranking with grades rel_1, rel_2, ..., a relevance level L (trec_eval's ``-l``, 1 by default: a
grade of at least L counts as relevant) and R relevant judged documents (returned or not):

    P@i = |relevant ∩ top i| / i,        AP = (1 / R) Σ_{i : rel_i ≥ L} P@i

The value itself is the engine's (:func:`components.engine.metrics.average_precision`); this module
only lists the terms so the page can show them, and the tests check the two agree.
"""
from __future__ import annotations

from dataclasses import dataclass

from components.course import prose
from components.engine import metrics
from components.engine.formatting import fmt

TEXT = "ap"  # lessons/text/ap.md: the arithmetic's templates


@dataclass(frozen=True)
class Hit:
    """A relevant returned document: its rank, the relevant documents up to it, and P@rank."""

    rank: int
    found: int

    @property
    def precision(self) -> float:
        return self.found / self.rank


def hits(grades, level: int = 1) -> list[Hit]:
    """Every relevant returned document (grade ≥ ``level``), top first, with P@rank.

    >>> [(h.rank, h.found, round(h.precision, 3)) for h in hits([1, 1, 0, 1, 1])]
    [(1, 1, 1.0), (2, 2, 1.0), (4, 3, 0.75), (5, 4, 0.8)]
    >>> [(h.rank, h.found) for h in hits([1, 2, 2, 1, 2], level=2)]
    [(2, 1), (3, 2), (5, 3)]
    """
    out: list[Hit] = []
    for i, grade in enumerate(grades, 1):
        if grade >= level:
            out.append(Hit(i, len(out) + 1))
    return out


def ap_arithmetic(grades, n_relevant: int, level: int = 1) -> str:
    """AP worked out with the list's numbers: each hit's P@rank as found/rank, their sum, over R, the
    relevant judged documents at ``level`` (the value is the engine's, at that relevance level).

    >>> ap_arithmetic([1, 1, 0, 1, 1], 10)
    'AP = (1/1 + 2/2 + 3/4 + 4/5) / 10 = 3.550 / 10 = **0.355**'
    >>> ap_arithmetic([1, 2, 2, 1, 2], 3, level=2)
    'AP = (1/2 + 2/3 + 3/5) / 3 = 1.767 / 3 = **0.589**'
    >>> ap_arithmetic([0, 0], 3)
    'AP = 0 / 3 = **0.000**'
    """
    if n_relevant == 0:
        return prose.section(TEXT, "Arithmetic no relevant")
    found = hits(grades, level)
    qs = metrics.from_rankings([list(grades)], [[level] * n_relevant])
    value = fmt(metrics.average_precision(metrics.with_relevance_level(qs, level))[0])
    if not found:
        return prose.text(TEXT, "Arithmetic no hit", relevant=n_relevant, ap=value)
    return prose.text(TEXT, "Arithmetic", terms=" + ".join(f"{h.found}/{h.rank}" for h in found),
                      total=fmt(sum(h.precision for h in found)), relevant=n_relevant, ap=value)
