"""Measure names as the field writes them, and evaluating a list of them on a query set.

Valid names (case-insensitive; k is a whole number >= 1):

======================  ===========  ==========================================
typed                   canonical    engine function (:mod:`components.engine.metrics`)
======================  ===========  ==========================================
R@k, recall@k           R@k          :func:`~components.engine.metrics.recall`
Success@k, hit_rate@k   Success@k    :func:`~components.engine.metrics.success`
P@k                     P@k          :func:`~components.engine.metrics.precision`
RR, MRR                 RR           :func:`~components.engine.metrics.reciprocal_rank`
RR@k, MRR@k             RR@k         reciprocal_rank with the cutoff k
nDCG@k, ndcg@k          nDCG@k       :func:`~components.engine.metrics.ndcg`
DCG@k                   DCG@k        :func:`~components.engine.metrics.dcg`
IDCG@k                  IDCG@k       :func:`~components.engine.metrics.idcg` (the ideal order's DCG@k)
======================  ===========  ==========================================

MRR is the mean of the per-query RR, so both names give the same per-query
values; results are keyed by the canonical name whatever alias was typed.
Only nDCG, DCG and IDCG depend on the gain ("linear": rel, as trec_eval;
"exponential": 2^rel − 1).

No Streamlit import here.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Iterable

import numpy as np

from components.engine import metrics
from components.engine.metrics import Gain, QuerySet

DEFAULT_MEASURES = ("R@5", "R@10", "RR", "nDCG@10")

# typed family name (lower case) -> canonical family name
_ALIASES = {
    "r": "R", "recall": "R",
    "success": "Success", "hit_rate": "Success",
    "p": "P",
    "rr": "RR", "mrr": "RR",
    "ndcg": "nDCG",
    "dcg": "DCG",
    "idcg": "IDCG",
}
_CUTOFF_OPTIONAL = {"RR"}
_NAME = re.compile(r"(?P<family>[A-Za-z_]+)(?:@(?P<k>[0-9]+))?")

VALID_FORMS = (
    "valid measures (case-insensitive, k a whole number >= 1): R@k, Success@k, P@k, RR, RR@k, nDCG@k, DCG@k, IDCG@k; "
    "aliases: recall@k, hit_rate@k, MRR, MRR@k, ndcg@k; for example R@5, RR@10, nDCG@10")

# canonical family -> how the engine computes it per query. k is None only for RR (a cutoff is optional
# there); the others check it with metrics.check_k, which refuses None (a Measure built without its cutoff).
_ENGINE: dict[str, Callable[[QuerySet, int | None, Gain], np.ndarray]] = {
    "R": lambda qs, k, gain: metrics.recall(qs, metrics.check_k(k)),
    "Success": lambda qs, k, gain: metrics.success(qs, metrics.check_k(k)),
    "P": lambda qs, k, gain: metrics.precision(qs, metrics.check_k(k)),
    "RR": lambda qs, k, gain: metrics.reciprocal_rank(qs, k),
    "nDCG": lambda qs, k, gain: metrics.ndcg(qs, metrics.check_k(k), gain),
    "DCG": lambda qs, k, gain: metrics.dcg(qs, metrics.check_k(k), gain),
    "IDCG": lambda qs, k, gain: metrics.idcg(qs, metrics.check_k(k), gain),
}


@dataclass(frozen=True)
class Measure:
    """One measure: a family (``R``, ``Success``, ``P``, ``RR``, ``nDCG``, ``DCG``, ``IDCG``) and its cutoff k.

    ``k`` is None only for RR without a cutoff.
    """

    family: str
    k: int | None = None

    @property
    def name(self) -> str:
        """The canonical name: ``R@5``, ``RR``, ``RR@10``, ``nDCG@10``, ...

        Examples
        --------
        >>> Measure("nDCG", 10).name, Measure("RR").name
        ('nDCG@10', 'RR')
        """
        return self.family if self.k is None else f"{self.family}@{self.k}"

    def __str__(self) -> str:
        return self.name


def parse_measure(text: str) -> Measure:
    """Read a measure name as the field writes it.

    Raises ``ValueError``, listing the valid forms, for an unknown name, a
    missing cutoff (``nDCG`` alone) or a cutoff below 1.

    Examples
    --------
    >>> [parse_measure(t).name for t in ["r@5", "MRR", "mrr@10", "hit_rate@3", "NDCG@10", "recall@20"]]
    ['R@5', 'RR', 'RR@10', 'Success@3', 'nDCG@10', 'R@20']
    >>> parse_measure("MAP")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: unknown measure 'MAP'; valid measures (case-insensitive, k a whole number >= 1): R@k, Success@k, ...
    """
    match = _NAME.fullmatch(text.strip())
    family = _ALIASES.get(match["family"].lower()) if match else None
    if match is None or family is None:
        raise ValueError(f"unknown measure {text!r}; {VALID_FORMS}")
    if match["k"] is None:
        if family not in _CUTOFF_OPTIONAL:
            raise ValueError(f"measure {text!r} needs a cutoff k, as in {family}@10; {VALID_FORMS}")
        return Measure(family)
    k = int(match["k"])
    if k < 1:
        raise ValueError(f"measure {text!r} has cutoff {k}, but k counts positions from the top (1, 2, 3, ...); "
                         f"{VALID_FORMS}")
    return Measure(family, k)


def parse_measures(texts: Iterable[str]) -> tuple[Measure, ...]:
    """Parse several names; a measure typed twice (even as two aliases) is kept once, first place.

    Examples
    --------
    >>> [m.name for m in parse_measures(["R@5", "RR", "recall@5", "MRR", "P@5"])]
    ['R@5', 'RR', 'P@5']
    """
    return tuple(dict.fromkeys(parse_measure(t) for t in texts))


def evaluate(qs: QuerySet, measures: Iterable[Measure | str], gain: Gain) -> dict[str, np.ndarray]:
    """Per-query values of each measure, keyed by canonical name, in the order given.

    Every value comes from the engine (:mod:`components.engine.metrics`); ``gain``
    applies to nDCG, DCG and IDCG only. Names are parsed with :func:`parse_measure`.

    Examples
    --------
    The four-query example (one relevant document per query, at ranks 1, 3, 1 and 8):

    >>> qs = metrics.from_rankings([[1], [0, 0, 1], [1], [0] * 7 + [1]])
    >>> values = evaluate(qs, ["recall@3", "MRR"], gain="linear")
    >>> values["R@3"].tolist(), round(float(values["RR"].mean()), 4)
    ([1.0, 1.0, 1.0, 0.0], 0.6146)
    """
    metrics.check_gain(gain)
    parsed = [m if isinstance(m, Measure) else parse_measure(m) for m in measures]
    return {m.name: _ENGINE[m.family](qs, m.k, gain) for m in parsed}
