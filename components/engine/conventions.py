"""The conventions other tools use, as engine options (no Streamlit import).

The app's defaults are trec_eval's (see components/engine/metrics.py). Each function
here computes a metric under one *other* convention a learner may meet, so the
"Why does my number differ?" page can put the numbers side by side:

- recall with a capped denominator, min(|relevant|, k);
- nDCG with the ideal built from the returned list only (a tutorial mistake);
- scikit-learn's ``ndcg_score``: linear gain, tied scores averaged, the ideal
  built from the items passed in;
- three rules for tied scores: trec_eval's (score descending, then document
  id descending), the listed order, and tie-averaging;
- three rules for a query with no relevant item: score 0, skip it, or refuse.
"""
from __future__ import annotations

from typing import Literal, Sequence

import numpy as np

from components.engine import metrics
from components.engine.formatting import plural

TieRule = Literal["trec_eval", "listed"]
EmptyRule = Literal["zero", "skip", "error"]


def capped_recall_at_k(grades, k: int, n_relevant: int) -> float:
    """Recall@k with the denominator capped at k: |relevant ∩ top k| / min(|relevant|, k).

    Some benchmarks use it so that a perfect system can reach 1 even when a
    query has more relevant items than k. 0 when there is no relevant item.

    Examples
    --------
    Lawyer System A: 4 of 10 relevant cases in the top 5 gives 4/5, not 4/10.

    >>> capped_recall_at_k([1, 1, 0, 1, 1], 5, n_relevant=10)
    0.8
    """
    k = metrics.check_k(k)
    found = metrics.recall_at_k(grades, k, n_relevant) * n_relevant
    return float(found / min(n_relevant, k)) if n_relevant else 0.0


def ap_over_returned(grades) -> float:
    """AP divided by the relevant documents *returned* instead of all relevant judged ones (a tutorial
    mistake): Σ P@rank over the hits / |relevant ∩ returned|. 0 when nothing relevant is returned.

    A list whose one relevant document is at rank 1 scores 1.0 this way, however many it missed.

    >>> ap_over_returned([1, 0, 0]), ap_over_returned([1, 1, 0, 1, 1])
    (1.0, 0.8875)
    """
    qs = metrics.from_rankings([list(grades)])  # judged = the list: R is the relevant returned
    return float(metrics.average_precision(qs)[0])


def ap_at_k_capped(grades, k: int, n_relevant: int) -> float:
    """AP@k over min(k, R) instead of trec_eval's R (``map_cut_k`` divides by every relevant judged document):
    Σ_{i ≤ k, rel_i ≥ 1} P@i / min(k, R). 0 when there is no relevant document.

    Lawyer System A at k = 5 (hits at 1, 2, 4, 5; R = 10): 3.55 / 5 here, 3.55 / 10 in trec_eval.

    >>> round(ap_at_k_capped([1, 1, 0, 1, 1], 5, n_relevant=10), 3)
    0.71
    """
    k = metrics.check_k(k)
    if n_relevant == 0:
        return 0.0
    qs = metrics.from_rankings([list(grades)], [[1] * n_relevant])
    return float(metrics.average_precision(qs, k)[0] * n_relevant / min(k, n_relevant))


def ndcg_returned_ideal(grades, k: int, gain: metrics.Gain = "exponential") -> float:
    """nDCG@k with the ideal built from the *returned* grades only (not trec_eval's rule).

    A system that misses a great document is compared with an ideal that never
    had it, so it can score 1.0 regardless.

    Examples
    --------
    >>> ndcg_returned_ideal([1, 0], 2)
    1.0
    """
    return metrics.ndcg_at_k(grades, k, judged_grades=None, gain=gain)


def order_by_score(ids: Sequence[str], scores: Sequence[float], rule: TieRule = "trec_eval") -> list[int]:
    """Positions that sort a scored list, best first, under a tie rule.

    ``trec_eval``: score descending, ties by document id descending (byte
    order); ``listed``: score descending, ties kept in the order given.

    Examples
    --------
    >>> order_by_score(["a", "b", "c"], [1.0, 2.0, 1.0])
    [1, 2, 0]
    >>> order_by_score(["a", "b", "c"], [1.0, 2.0, 1.0], "listed")
    [1, 0, 2]
    """
    score = np.asarray(scores, dtype=np.float64)
    if len(ids) != score.size:
        raise ValueError(f"need one score per document: {len(ids)} ids, {score.size} scores")
    if rule == "listed":
        return [int(i) for i in np.argsort(-score, kind="stable")]
    if rule == "trec_eval":
        by_id = sorted(range(len(ids)), key=lambda i: ids[i].encode("utf-8"), reverse=True)
        return sorted(by_id, key=lambda i: -score[i])
    raise ValueError(f"rule must be 'trec_eval' or 'listed', got {rule!r}")


def tie_averaged_dcg_at_k(grades, scores, k: int, gain: metrics.Gain = "linear") -> float:
    """DCG@k averaged over every order of tied scores (McSherry and Najork, 2008).

    Within a group of equal scores, each position gets the group's mean gain:
    DCG@k = Σ_groups mean_gain(group) · Σ_{i in group, i <= k} 1/log2(i + 1).

    Examples
    --------
    Two tied documents with grades 1 and 0: both positions get gain 0.5.

    >>> round(tie_averaged_dcg_at_k([1, 0], [3.0, 3.0], k=2), 4)
    0.8155
    """
    k = metrics.check_k(k)
    grades, scores = np.asarray(grades, dtype=np.int64), np.asarray(scores, dtype=np.float64)
    if grades.size != scores.size:
        raise ValueError(f"need one score per grade: {grades.size} grades, {scores.size} scores")
    if not grades.size:
        return 0.0
    values, group = np.unique(-scores, return_inverse=True)
    counts = np.bincount(group)
    mean_gain = np.bincount(group, weights=metrics.gain_values(grades, gain)) / counts
    ends = np.cumsum(counts)
    ranks = np.arange(1, grades.size + 1)
    discount = np.where(ranks <= k, metrics.discounts(ranks), 0.0)
    discount_per_group = np.diff(np.r_[0.0, np.cumsum(discount)[ends - 1]])
    return float(mean_gain @ discount_per_group)


def sklearn_ndcg(grades, scores, k: int | None = None) -> float:
    """What scikit-learn's ``ndcg_score([grades], [scores], k=k)`` returns.

    Linear gain; tied scores averaged (:func:`tie_averaged_dcg_at_k`); the
    ideal is the best order of the items passed in only, so a relevant
    document the system did not return is invisible to it. 0 when no item
    passed in is relevant.

    Examples
    --------
    >>> round(sklearn_ndcg([0, 2, 1], [3.0, 2.0, 1.0], k=2), 3)
    0.48
    """
    grades = np.asarray(grades, dtype=np.int64)
    if grades.size and grades.min() < 0:
        raise ValueError("scikit-learn's ndcg_score refuses negative grades")
    k = grades.size if k is None else metrics.check_k(k)
    ideal = tie_averaged_dcg_at_k(np.sort(grades)[::-1], np.arange(grades.size, 0, -1), max(k, 1))
    return tie_averaged_dcg_at_k(grades, scores, max(k, 1)) / ideal if ideal > 0 else 0.0


def mean_with_empty_rule(values: Sequence[float], has_relevant: Sequence[bool], rule: EmptyRule) -> float:
    """The mean over queries under a rule for queries with no relevant item.

    ``zero``: they count with 0 (trec_eval); ``skip``: they are left out of the
    mean; ``error``: refuse, raising ``ValueError`` naming how many there are.

    Examples
    --------
    >>> mean_with_empty_rule([0.8, 0.0], [True, False], "zero"), mean_with_empty_rule([0.8, 0.0], [True, False], "skip")
    (0.4, 0.8)
    """
    value, relevant = np.asarray(values, dtype=np.float64), np.asarray(has_relevant, dtype=bool)
    if value.size != relevant.size or not value.size:
        raise ValueError("need one flag per value, and at least one query")
    if rule == "zero":
        return float(np.where(relevant, value, 0.0).mean())
    if rule == "skip":
        return float(value[relevant].mean()) if relevant.any() else float("nan")
    if rule == "error":
        empty = int((~relevant).sum())
        if empty:
            raise ValueError(f"{empty} {plural(empty, 'query has|queries have')} no relevant item")
        return float(value.mean())
    raise ValueError(f"rule must be 'zero', 'skip' or 'error', got {rule!r}")
