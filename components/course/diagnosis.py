"""Reading several metrics together: which stage of a pipeline a pattern points at (no Streamlit import).

A retrieval pipeline first *matches* candidates (did the relevant items get
in at all?) and then *ranks* them (are the best ones on top?). Recall@k speaks
for matching, nDCG@k for ranking, RR for the first hit:

- high Recall@k, low nDCG@k: found but badly ordered, a ranking problem;
- high RR, low Recall@k: the first hit is right but the rest are missed, a
  matching (breadth) problem;
- both high: healthy; both low: matching first, since ranking cannot order
  what was never found.

Recall@k is read against its ceiling: with R relevant items a list of k can
hold at most min(k, R) of them, so Recall@k <= min(k, R) / R. A perfect list
at k = 1 with 4 relevant pages scores Recall@1 = 0.25, which is no matching
problem; Recall@k / ceiling (BEIR's capped recall, R_cap@k) is what counts.
"""
from __future__ import annotations

from typing import Literal

from components.course import prose
from components.engine import metrics
from components.engine.formatting import fmt

TEXT = "choosing"  # the page whose words the sentence of diagnosis is
HIGH = 0.75  # a value at or above this counts as "high"

Diagnosis = Literal["healthy", "ranking", "matching", "both"]


def recall_ceiling(k: int, n_relevant: int) -> float:
    """The most Recall@k can be: min(k, R) / R (1 when there is no relevant item: nothing to miss).

    >>> recall_ceiling(1, 4), recall_ceiling(5, 4), recall_ceiling(3, 0)
    (0.25, 1.0, 1.0)
    """
    return min(k, n_relevant) / n_relevant if n_relevant else 1.0


def diagnose(recall: float, ndcg: float, rr: float, *, ceiling: float = 1.0) -> Diagnosis:
    """Name the pattern of Recall@k, nDCG@k and RR (each in [0, 1]), Recall@k read against its ``ceiling``.

    Examples
    --------
    >>> diagnose(recall=1.0, ndcg=0.5, rr=0.5), diagnose(recall=0.25, ndcg=0.5, rr=1.0)
    ('ranking', 'matching')
    >>> diagnose(recall=0.9, ndcg=0.95, rr=1.0), diagnose(recall=0.2, ndcg=0.1, rr=0.2)
    ('healthy', 'both')

    A perfect list at k = 1 with four relevant pages: Recall@1 = 0.25 is its ceiling.

    >>> diagnose(recall=0.25, ndcg=1.0, rr=1.0, ceiling=0.25)
    'healthy'
    """
    for value, name in ((recall, "recall"), (ndcg, "ndcg"), (rr, "rr")):
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"{name} must lie between 0 and 1, got {value}")
    if not 0.0 < ceiling <= 1.0 or recall > ceiling + 1e-12:
        raise ValueError(f"the ceiling must lie in (0, 1] and be at least Recall@k; got {ceiling} for {recall}")
    if recall / ceiling >= HIGH:
        return "healthy" if ndcg >= HIGH else "ranking"
    return "matching" if rr >= HIGH else "both"


def diagnosis_text(qs: metrics.QuerySet, k: int) -> str:
    """The generated sentence of diagnosis for a one-query set's numbers; Recall@k judged against its ceiling."""
    recall, ndcg, rr = (float(v[0]) for v in (metrics.recall(qs, k), metrics.ndcg(qs, k), metrics.reciprocal_rank(qs)))
    first = metrics.first_hit_rank(qs)[0]
    relevant = int(metrics.num_relevant(qs)[0])
    ceiling = recall_ceiling(k, relevant)
    values = dict(k=k, recall=fmt(recall), ndcg=fmt(ndcg), rr=fmt(rr), relevant=relevant, ceiling=fmt(ceiling),
                  capped=fmt(recall / ceiling),
                  first=int(first) if first != float("inf") else prose.section(TEXT, "No first hit"))
    text = prose.text_choosing(TEXT, f"Diagnosis {diagnose(recall, ndcg, rr, ceiling=ceiling)}", values)
    if ceiling < 1:
        text += " " + prose.text_choosing(TEXT, "Ceiling", values)
    return text
