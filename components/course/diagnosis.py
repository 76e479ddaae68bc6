"""Reading several metrics together: which stage of a pipeline a pattern points at (no Streamlit import).

A retrieval pipeline first *matches* candidates (did the relevant items get
in at all?) and then *ranks* them (are the best ones on top?). Recall@k speaks
for matching, nDCG@k for ranking, RR for the first hit:

- high Recall@k, low nDCG@k: found but badly ordered, a ranking problem;
- high RR, low Recall@k: the first hit is right but the rest are missed, a
  matching (breadth) problem;
- both high: healthy; both low: matching first, since ranking cannot order
  what was never found.
"""
from __future__ import annotations

from typing import Literal

HIGH = 0.75  # a value at or above this counts as "high"

Diagnosis = Literal["healthy", "ranking", "matching", "both"]


def diagnose(recall: float, ndcg: float, rr: float) -> Diagnosis:
    """Name the pattern of Recall@k, nDCG@k and RR (each in [0, 1]).

    Examples
    --------
    >>> diagnose(recall=1.0, ndcg=0.5, rr=0.5), diagnose(recall=0.25, ndcg=0.5, rr=1.0)
    ('ranking', 'matching')
    >>> diagnose(recall=0.9, ndcg=0.95, rr=1.0), diagnose(recall=0.2, ndcg=0.1, rr=0.2)
    ('healthy', 'both')
    """
    for value, name in ((recall, "recall"), (ndcg, "ndcg"), (rr, "rr")):
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"{name} must lie between 0 and 1, got {value}")
    if recall >= HIGH:
        return "healthy" if ndcg >= HIGH else "ranking"
    return "matching" if rr >= HIGH else "both"
