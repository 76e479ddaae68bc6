"""The metric engine: Recall@k, Success@k, P@k, RR, DCG@k, IDCG@k, nDCG (@k), AP (@k), R-prec, bpref, Judged@k and counts,
and trec_eval's infAP, 11pt_avg and Rprec_mult.

One vectorised core works on a whole query set at once (:class:`QuerySet`:
flat arrays of query index, rank and grade, plus every judged grade per query
for the ideal ordering). The per-ranking functions the lessons call
(:func:`recall_at_k` and friends) are thin wrappers that build a one-query set
and call the same core, so a lesson and a 7-million-line run share one
implementation.

Conventions (the same as trec_eval's):

- a grade >= 1 is *relevant* (trec_eval's relevance level 1; another level
  with :func:`with_relevance_level`); grades <= 0 (including trec_eval's
  negative grades such as -2 for spam) are non-relevant and have gain 0;
- a returned document that nobody judged has grade 0; :attr:`QuerySet.is_judged`
  tells it apart from a judged 0, for bpref, Judged@k and :func:`judged_only`;
- bpref and :func:`judged_only` read a negative grade as trec_eval does: "in
  the pool, but not judged" (neither judged relevant nor judged non-relevant);
  so does infAP, for which such a document also counts as pooled (a judged
  sample of the pool left it out), unlike a document not in the judgments;
- the ideal ordering (IDCG) is built from *all* judged grades of the query,
  returned or not;
- a query with no relevant judged document scores 0 on every measure (GMAP's
  per-query value is then its floor, 0.00001);
- k is a cutoff on rank positions; a list shorter than k is simply shorter.

Grades lie between :data:`MIN_GRADE` and :data:`MAX_GRADE` (-1000 and
1000; :func:`query_set` checks it): every gain, sum and ratio then stays
finite (2^1000 − 1 is about 1e301), so every normalised measure lies in
[0, 1].

No Streamlit import here: this module is pure numpy.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal, Sequence, Union

import numpy as np
from numpy.typing import NDArray

from components.engine.checks import check_whole

Gain = Literal["exponential", "linear"]
# Which trec_eval a convention follows where two differ (:func:`recall_cutoff`): 9.0.7, inside pytrec_eval, or 10.0.
TrecEval = Literal["9", "10"]
TREC_EVAL_VERSIONS: tuple[TrecEval, ...] = ("10", "9")
GradeList = Union[Sequence[int], NDArray[np.integer]]  # one query's grades, top first: a list or an integer array
GAINS: tuple[Gain, ...] = ("exponential", "linear")
GAIN_FORMULAS = {"exponential": "2^rel − 1", "linear": "rel"}
MIN_GRADE, MAX_GRADE = -1000, 1000  # the grades the engine (and the readers) take; judgments use a handful of levels
MIN_GEO_MEAN = 0.00001  # trec_eval's floor for a value that enters a geometric mean (its MIN_GEO_MEAN)
ELEVEN_POINTS = tuple(i / 10 for i in range(11))  # the recall levels 0.0, 0.1, ..., 1.0 of 11pt_avg (and the graph)
INFAP_EPSILON = 0.00001  # trec_eval's smoothing of infAP's share of relevant documents among the judged


# ----------------------------------------------------------------------------
# Validation helpers
# ----------------------------------------------------------------------------

def check_k(k: object, name: str = "k") -> int:
    """Return ``k`` as an int, or raise ``ValueError`` unless it is a whole number >= 1."""
    return check_whole(k, name, lo=1, why="(the cutoff counts positions from the top: 1, 2, 3, ...)")


def check_gain(gain: str) -> Gain:
    """Return ``gain`` if it names a known gain, else raise ``ValueError``."""
    if gain not in GAINS:
        raise ValueError(f"gain must be 'exponential' (2^rel − 1) or 'linear' (rel), got {gain!r}")
    return gain  # type: ignore[return-value]


def _int_array(values, name: str) -> NDArray[np.int64]:
    arr = np.asarray(values)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be a flat list of numbers, got an array of shape {arr.shape}")
    if arr.size and not np.issubdtype(arr.dtype, np.integer):
        if not np.issubdtype(arr.dtype, np.number) or not np.all(np.mod(arr, 1) == 0):
            raise ValueError(f"{name} must hold whole numbers (grades and ranks are integers), got {values!r}")
    return arr.astype(np.int64, copy=False)


# ----------------------------------------------------------------------------
# Gain and discount
# ----------------------------------------------------------------------------

def gain_values(grades, gain: Gain = "exponential") -> np.ndarray:
    """Gain of each grade.

    ``exponential``: g(rel) = 2^rel − 1;  ``linear``: g(rel) = rel;
    where rel is the graded relevance. Grades <= 0 have gain 0 under both.

    Examples
    --------
    >>> gain_values([2, 1, 0, -2]).tolist()
    [3.0, 1.0, 0.0, 0.0]
    >>> gain_values([2, 1, 0, -2], "linear").tolist()
    [2.0, 1.0, 0.0, 0.0]
    """
    check_gain(gain)
    rel = np.maximum(np.asarray(grades, dtype=np.float64), 0.0)
    return np.exp2(rel) - 1.0 if gain == "exponential" else rel


def discounts(ranks) -> np.ndarray:
    """Position discount 1 / log2(i + 1), where i is the 1-based rank.

    Examples
    --------
    >>> discounts([1, 2, 3]).round(3).tolist()
    [1.0, 0.631, 0.5]
    """
    return 1.0 / np.log2(np.asarray(ranks, dtype=np.float64) + 1.0)


# ----------------------------------------------------------------------------
# The query set and the vectorised core
# ----------------------------------------------------------------------------

@dataclass(frozen=True)
class QuerySet:
    """Rankings of many queries as flat arrays (one row per returned document).

    Attributes
    ----------
    n_queries : number of queries; query indices run from 0 to n_queries − 1.
    qidx : query index of each returned document.
    rank : 1-based rank of each returned document within its query (unique per query).
    grade : judged grade of each returned document (0 when unjudged).
    judged_qidx, judged_grade : every judged document of every query
        (returned or not), used for the number of relevant items and the ideal.
    is_judged : whether each returned document is in the judgments (with
        any grade, negative ones included), one bool per row; None when every
        returned document is. Only bpref, Judged@k and :func:`judged_only`
        read it: the other measures take an unjudged document as grade 0.
    relevance_level : the lowest grade that counts as relevant (trec_eval's
        ``-l``, 1 by default); set it with :func:`with_relevance_level`.

    Build it with :func:`query_set` (checked) or :func:`from_rankings`.
    """

    n_queries: int
    qidx: np.ndarray
    rank: np.ndarray
    grade: np.ndarray
    judged_qidx: np.ndarray
    judged_grade: np.ndarray
    is_judged: np.ndarray | None = None
    relevance_level: int = 1


def query_set(n_queries: int, qidx, rank, grade, judged_qidx, judged_grade, is_judged=None) -> QuerySet:
    """Check the arrays and build a :class:`QuerySet`.

    ``is_judged`` (optional) holds one bool per returned document: whether it
    is in the judgments; None means every returned document is.

    Raises ``ValueError`` when array lengths differ, a query index is out of
    range, a rank is below 1 or appears twice in one query, or a grade lies
    outside :data:`MIN_GRADE` to :data:`MAX_GRADE`.

    >>> query_set(1, [0, 0], [1, 1], [1, 0], [0], [1])
    Traceback (most recent call last):
    ...
    ValueError: each rank appears once per query; query index 0 has rank 1 twice
    """
    qidx, rank, grade = (_int_array(a, n) for a, n in ((qidx, "qidx"), (rank, "rank"), (grade, "grade")))
    judged_qidx = _int_array(judged_qidx, "judged_qidx")
    judged_grade = _int_array(judged_grade, "judged_grade")
    if not (qidx.size == rank.size == grade.size):
        raise ValueError(
            f"qidx, rank and grade must have one entry per returned document, got lengths "
            f"{qidx.size}, {rank.size} and {grade.size}")
    if judged_qidx.size != judged_grade.size:
        raise ValueError(
            f"judged_qidx and judged_grade must have the same length, got {judged_qidx.size} and {judged_grade.size}")
    for arr, name in ((qidx, "qidx"), (judged_qidx, "judged_qidx")):
        if arr.size and (arr.min() < 0 or arr.max() >= n_queries):
            raise ValueError(f"{name} must lie between 0 and {n_queries - 1} (there are {n_queries} queries)")
    if rank.size and rank.min() < 1:
        raise ValueError("ranks start at 1 (the top position); got a rank below 1")
    if rank.size > 1 and not _in_query_rank_order(qidx, rank):  # the reader's order: one pass; else sort to check
        order = np.lexsort((rank, qidx))
        same = (np.diff(qidx[order]) == 0) & (np.diff(rank[order]) == 0)
        if same.any():
            row = order[int(np.argmax(same))]
            raise ValueError(f"each rank appears once per query; query index {qidx[row]} has rank {rank[row]} twice")
    for arr, name in ((grade, "grade"), (judged_grade, "judged_grade")):
        if arr.size and (arr.min() < MIN_GRADE or arr.max() > MAX_GRADE):
            raise ValueError(f"{name} must lie between {MIN_GRADE} and {MAX_GRADE}, "
                             f"got {int(arr.min() if arr.min() < MIN_GRADE else arr.max())}")
    return QuerySet(int(n_queries), qidx, rank, grade, judged_qidx, judged_grade, _judged_mask(is_judged, grade.size))


def _judged_mask(is_judged, n_rows: int) -> np.ndarray | None:
    """``is_judged`` as a bool array of n_rows entries, or None when it is None or all True."""
    if is_judged is None:
        return None
    mask = np.asarray(is_judged)
    if mask.shape != (n_rows,) or mask.dtype != np.bool_:
        raise ValueError(f"is_judged must hold one bool per returned document ({n_rows}), "
                         f"got an array of shape {mask.shape} and type {mask.dtype}")
    return None if mask.all() else mask


def _in_query_rank_order(qidx: np.ndarray, rank: np.ndarray) -> bool:
    """Whether rows are sorted by query, then strictly by rank (so no rank repeats within a query)."""
    step_q, step_r = np.diff(qidx), np.diff(rank)
    return bool(np.all((step_q > 0) | ((step_q == 0) & (step_r > 0))))


def from_rankings(rankings: Sequence[Sequence[int | None] | NDArray[np.integer]],
                  judged: Sequence[GradeList] | None = None) -> QuerySet:
    """Build a query set from per-query lists of grades in rank order.

    ``rankings[q]`` holds the grades of query q's returned documents, top first;
    None marks a document nobody judged (grade 0, and not judged for bpref and
    Judged@k). ``judged[q]`` holds *every* judged grade of query q, returned
    or not; when omitted, the returned grades other than None are taken as the
    judgments (every relevant item was returned).

    Examples
    --------
    >>> qs = from_rankings([[1, 0], [0, 0, 1]])
    >>> reciprocal_rank(qs).tolist()
    [1.0, 0.3333333333333333]
    >>> qs = from_rankings([[None, 1, 0]])
    >>> qs.grade.tolist(), qs.is_judged.tolist(), qs.judged_grade.tolist()
    ([0, 1, 0], [False, True, True], [1, 0])
    """
    grades, marks = zip(*map(_grades_and_marks, rankings)) if len(rankings) else ((), ())
    if judged is None:
        judged = [g[m] for g, m in zip(grades, marks)]
    if len(judged) != len(rankings):
        raise ValueError(f"need one list of judged grades per ranking: {len(rankings)} rankings, {len(judged)} judged lists")
    lengths = np.array([len(r) for r in rankings], dtype=np.int64)
    jlengths = np.array([len(j) for j in judged], dtype=np.int64)
    qidx = np.repeat(np.arange(len(rankings)), lengths)
    rank = np.arange(lengths.sum()) - np.repeat(np.cumsum(lengths) - lengths, lengths) + 1
    grade = np.concatenate(grades) if grades else np.zeros(0, np.int64)
    is_judged = np.concatenate(marks) if marks else np.zeros(0, bool)
    jq = np.repeat(np.arange(len(judged)), jlengths)
    jg = np.concatenate([np.asarray(j, dtype=np.int64) for j in judged]) if len(judged) else np.zeros(0, np.int64)
    return query_set(len(rankings), qidx, rank, grade, jq, jg, is_judged)


def _grades_and_marks(ranking) -> tuple[np.ndarray, np.ndarray]:
    """One ranking's grades (None read as 0) and whether each document is judged (not None)."""
    if isinstance(ranking, np.ndarray):
        return _int_array(ranking, "grades"), np.ones(ranking.size, dtype=bool)
    marks = np.array([g is not None for g in ranking], dtype=bool)
    return _int_array([0 if g is None else g for g in ranking], "grades"), marks


def with_relevance_level(qs: QuerySet, level: int) -> QuerySet:
    """The same query set where a grade >= ``level`` counts as relevant (trec_eval's ``-l``).

    Every binary measure (R, Success, P, RR, AP, R-prec, bpref, the counts)
    follows the level; DCG and nDCG keep the grades as gains, as in
    trec_eval. The level is a whole number >= 1, so an unjudged document
    (grade 0) is never relevant.

    Examples
    --------
    >>> qs = from_rankings([[1, 2, 0]])
    >>> recall(qs, 1).tolist(), recall(with_relevance_level(qs, 2), 1).tolist()
    ([0.5], [0.0])
    """
    level = check_whole(level, "relevance_level", lo=1, why="(a grade at least this counts as relevant)")
    return replace(qs, relevance_level=level)


def judged_only(qs: QuerySet) -> QuerySet:
    """The query set without its unjudged returned documents, the rest ranked 1, 2, 3, ... (trec_eval's ``-J``).

    A returned document with a negative grade goes too: trec_eval reads a
    negative grade as "in the pool, but not judged". The order of what stays
    is kept, and so are the judgments.

    Examples
    --------
    >>> qs = judged_only(from_rankings([[None, 0, -2, 1]], [[0, -2, 1, 1]]))
    >>> qs.rank.tolist(), qs.grade.tolist(), reciprocal_rank(qs).tolist()
    ([1, 2], [0, 1], [0.5])
    """
    return keep_rows(qs, judged_rows_kept(qs))


def judged_rows_kept(qs: QuerySet) -> np.ndarray:
    """The rows :func:`judged_only` keeps (judged, grade >= 0), as indices in query and rank order.

    >>> judged_rows_kept(from_rankings([[None, 0, -2, 1]], [[0, -2, 1, 1]])).tolist()
    [1, 3]
    """
    keep = np.flatnonzero(_judged_rows(qs) & (qs.grade >= 0))
    return keep[np.lexsort((qs.rank[keep], qs.qidx[keep]))]


def keep_rows(qs: QuerySet, rows: np.ndarray) -> QuerySet:
    """The query set with only these returned rows (indices in query and rank order), ranked 1, 2, 3, ... again.

    >>> keep_rows(from_rankings([[0, 1, 1]]), np.array([1, 2])).rank.tolist()
    [1, 2]
    """
    qidx = qs.qidx[rows]
    rank = np.arange(qidx.size) - _group_starts(qidx) + 1
    is_judged = None if qs.is_judged is None else qs.is_judged[rows]
    return replace(qs, qidx=qidx, rank=rank, grade=qs.grade[rows], is_judged=is_judged)


def at_most(qs: QuerySet, n: int) -> QuerySet:
    """The query set with each ranking cut to its top ``n`` documents (trec_eval's ``-M``).

    trec_eval cuts before it drops unjudged documents (``-J``), so apply this
    first. The judgments are kept: a relevant document cut off still counts
    in R.

    >>> qs = at_most(from_rankings([[0, 1, 1], [1]]), 2)
    >>> qs.rank.tolist(), recall(qs, 10).tolist()
    ([1, 2, 1], [0.5, 1.0])
    """
    n = check_whole(n, "n", lo=1, why="(the most documents kept per query)")
    keep = qs.rank <= n
    is_judged = None if qs.is_judged is None else qs.is_judged[keep]
    return replace(qs, qidx=qs.qidx[keep], rank=qs.rank[keep], grade=qs.grade[keep], is_judged=is_judged)


def _group_starts(sorted_q: np.ndarray) -> np.ndarray:
    """For each row of a sorted array of query indices, the row where its query's run of rows starts.

    >>> _group_starts(np.array([0, 0, 2, 2, 2, 5])).tolist()
    [0, 0, 2, 2, 2, 5]
    """
    if not sorted_q.size:
        return np.zeros(0, np.int64)
    starts = np.flatnonzero(np.r_[True, sorted_q[1:] != sorted_q[:-1]])
    return np.repeat(starts, np.diff(np.r_[starts, sorted_q.size]))


def _judged_rows(qs: QuerySet) -> np.ndarray:
    """Whether each returned document is in the judgments (every one, when ``is_judged`` is None)."""
    return np.ones(qs.rank.size, dtype=bool) if qs.is_judged is None else qs.is_judged


def _relevant(qs: QuerySet) -> np.ndarray:
    """Whether each returned document is relevant: grade >= the query set's relevance level."""
    return qs.grade >= qs.relevance_level


def _within(rank: np.ndarray, k: int | None) -> np.ndarray:
    """rank <= k (every row when k is None: no cutoff)."""
    return np.ones(rank.size, dtype=bool) if k is None else rank <= check_k(k)


def _rows_in_order(qs: QuerySet, mask: np.ndarray) -> np.ndarray:
    """The indices of the rows where ``mask`` is set, in query and rank order (the reader's order needs no sort).

    >>> _rows_in_order(QuerySet(2, np.array([1, 0, 0]), np.array([1, 2, 1]), np.zeros(3, int), np.zeros(0, int),
    ...                         np.zeros(0, int)), np.array([True, True, True])).tolist()
    [2, 1, 0]
    """
    rows = np.flatnonzero(mask)
    if rows.size < 2 or _in_query_rank_order(qs.qidx[rows], qs.rank[rows]):
        return rows
    return rows[np.lexsort((qs.rank[rows], qs.qidx[rows]))]


def _so_far(sorted_q: np.ndarray, counted: np.ndarray) -> np.ndarray:
    """For rows sorted by query: how many rows of the same query, this one included, have ``counted`` set.

    >>> _so_far(np.array([0, 0, 0, 1, 1]), np.array([True, False, True, True, True])).tolist()
    [1, 1, 2, 1, 2]
    """
    running = np.cumsum(counted, dtype=np.int64)
    return running - (running - counted)[_group_starts(sorted_q)]


def _hits(qs: QuerySet, k: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The relevant returned rows at rank <= k (all when k is None), in query and rank order: their query
    index, their rank and their place among their query's hits (1 for the first hit)."""
    rows = _rows_in_order(qs, _relevant(qs) & _within(qs.rank, k))
    q = qs.qidx[rows]
    return q, qs.rank[rows], np.arange(rows.size) - _group_starts(q) + 1


def num_relevant(qs: QuerySet) -> np.ndarray:
    """|relevant| per query (trec_eval's num_rel): judged documents with grade >= 1 (the relevance level)."""
    return np.bincount(qs.judged_qidx, weights=qs.judged_grade >= qs.relevance_level, minlength=qs.n_queries)


def relevant_in_top_k(qs: QuerySet, k: int) -> np.ndarray:
    """|relevant ∩ top k| per query: returned documents at rank <= k with grade >= 1 (the relevance level)."""
    k = check_k(k)
    hit = (qs.rank <= k) & _relevant(qs)
    return np.bincount(qs.qidx[hit], minlength=qs.n_queries).astype(np.float64)  # (weights=hit: twice as slow)


def recall(qs: QuerySet, k: int) -> np.ndarray:
    """Recall@k per query: |relevant ∩ top k| / |relevant| (0 when |relevant| = 0)."""
    found, total = relevant_in_top_k(qs, k), num_relevant(qs)
    return np.divide(found, total, out=np.zeros(qs.n_queries), where=total > 0)


def success(qs: QuerySet, k: int) -> np.ndarray:
    """Success@k (hit rate@k) per query: 1 if any relevant document is in the top k, else 0."""
    return (relevant_in_top_k(qs, k) > 0).astype(np.float64)


def precision(qs: QuerySet, k: int) -> np.ndarray:
    """P@k per query: |relevant ∩ top k| / k (k, not the list length, as trec_eval)."""
    return relevant_in_top_k(qs, k) / check_k(k)


def first_hit_rank(qs: QuerySet) -> np.ndarray:
    """Rank of the first relevant returned document per query (``inf`` when none)."""
    first = np.full(qs.n_queries, np.inf)
    rel = _relevant(qs)
    np.minimum.at(first, qs.qidx[rel], qs.rank[rel])
    return first


def mean_recall_and_success_by_k(qs: QuerySet, ks: Sequence[int]) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """Mean Recall@k and mean Success@k (hit rate@k) over the query set, for every k in ``ks``, in one pass.

    .. math:: \\overline{\\mathrm{Recall@}k} = \\frac{1}{|Q|} \\sum_q \\sum_{i \\le k,\\ \\mathrm{rel}_{q,i} \\ge 1}
              \\frac{1}{R_q}, \\qquad
              \\overline{\\mathrm{Success@}k} = \\frac{|\\{q : f_q \\le k\\}|}{|Q|}

    where R_q is query q's number of relevant judged documents (a query with
    R_q = 0 adds 0), f_q the rank of its first relevant returned document and
    |Q| = ``qs.n_queries`` (every query counts). Each relevant returned row adds
    its weight 1/R_q to the bin of the smallest k in ``ks`` at or above its
    rank, each query its first hit to the bin of f_q; cumulative sums over the
    bins give every k at once. The same values as ``recall(qs, k).mean()`` and
    ``success(qs, k).mean()`` (to rounding), in the order of ``ks``; nan for
    every k of an empty query set, as the mean of no values.

    Examples
    --------
    Query 1 finds 2 of its 3 relevant documents, at ranks 1 and 3; query 2
    its one relevant document at rank 2. Recall@3 = (2/3 + 1) / 2:

    >>> qs = from_rankings([[1, 0, 1], [0, 1]], [[1, 1, 1], [1]])
    >>> recall, hit_rate = mean_recall_and_success_by_k(qs, [1, 2, 3])
    >>> [round(r, 4) for r in recall], hit_rate
    ([0.1667, 0.6667, 0.8333], (0.5, 1.0, 1.0))
    """
    asked = np.array([check_k(k) for k in ks], dtype=np.int64)
    cutoffs = np.unique(asked)  # sorted; bin j holds ranks in (cutoffs[j - 1], cutoffs[j]], the last bin ranks beyond
    total = num_relevant(qs)
    rel = _relevant(qs)
    weights = np.divide(1.0, total, out=np.zeros(qs.n_queries), where=total > 0)[qs.qidx[rel]]
    found = np.cumsum(np.bincount(np.searchsorted(cutoffs, qs.rank[rel]), weights, minlength=cutoffs.size + 1))
    first = first_hit_rank(qs)
    hits = np.cumsum(np.bincount(np.searchsorted(cutoffs, first[np.isfinite(first)]), minlength=cutoffs.size + 1))
    at = np.searchsorted(cutoffs, asked)
    with np.errstate(invalid="ignore", divide="ignore"):  # no queries: nan, as the mean of no values
        return (tuple((found[at] / qs.n_queries).tolist()), tuple((hits[at] / qs.n_queries).tolist()))


def reciprocal_rank(qs: QuerySet, k: int | None = None) -> np.ndarray:
    """RR per query: 1 / rank of the first relevant document; RR@k: 0 if it lies below k.

    0 when no relevant document was returned (or none within k).
    """
    first = first_hit_rank(qs)
    if k is not None:
        first = np.where(first <= check_k(k), first, np.inf)
    return 1.0 / first


def dcg(qs: QuerySet, k: int | None, gain: Gain = "exponential") -> np.ndarray:
    """DCG@k per query: Σ_{i=1..min(k, n)} g(rel_i) / log2(i + 1); with k None, over the whole list (i = 1..n)."""
    top = _within(qs.rank, k)
    weights = gain_values(qs.grade[top], gain) * discounts(qs.rank[top])
    return np.bincount(qs.qidx[top], weights=weights, minlength=qs.n_queries)


def ideal_ranks(judged_qidx: np.ndarray, judged_grade: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Order every query's judged grades best first; return (order, rank in the ideal list).

    Grades are sorted by ``~grade`` (−grade − 1) ascending, which is grade
    descending for every int64: −grade would wrap around at −2^63.

    Examples
    --------
    >>> order, rank = ideal_ranks(np.array([0, 0, 0]), np.array([-2**63, 1, 2**63 - 1]))
    >>> order.tolist(), rank.tolist()
    ([2, 1, 0], [1, 2, 3])
    """
    order = np.lexsort((~judged_grade, judged_qidx))
    return order, np.arange(order.size) - _group_starts(judged_qidx[order]) + 1


def idcg(qs: QuerySet, k: int | None, gain: Gain = "exponential") -> np.ndarray:
    """IDCG@k per query: the DCG@k of the ideal ordering of *all* judged grades (k None: all of them)."""
    order, irank = ideal_ranks(qs.judged_qidx, qs.judged_grade)
    top = _within(irank, k)
    weights = gain_values(qs.judged_grade[order][top], gain) * discounts(irank[top])
    return np.bincount(qs.judged_qidx[order][top], weights=weights, minlength=qs.n_queries)


def ndcg(qs: QuerySet, k: int | None, gain: Gain = "exponential") -> np.ndarray:
    """nDCG@k per query: DCG@k / IDCG@k (0 when IDCG@k = 0, i.e. no relevant judged item).

    With k None, trec_eval's ``ndcg``: the DCG of the whole returned list over
    the DCG of the whole ideal list (every judged grade, best first).

    Examples
    --------
    Grades 0, 2, 1 returned; a judged 2 was not: (2/log2(3) + 1/2) / (2 + 2/log2(3) + 1/2).

    >>> round(float(ndcg(from_rankings([[0, 2, 1]], [[0, 2, 1, 2]]), None, "linear")[0]), 4)
    0.4683
    """
    top, ideal = dcg(qs, k, gain), idcg(qs, k, gain)
    return np.divide(top, ideal, out=np.zeros(qs.n_queries), where=ideal > 0)


def average_precision(qs: QuerySet, k: int | None = None) -> np.ndarray:
    """AP per query (trec_eval's ``map`` per query); AP@k (``map_cut_k``) with a cutoff.

    .. math:: \\mathrm{AP@}k = \\frac{1}{R} \\sum_{i \\le k,\\ \\mathrm{rel}_i \\ge 1} \\mathrm{P@}i

    where R is the number of relevant judged documents (returned or not) and
    the sum runs over the ranks i of the relevant returned documents (all of
    them when k is None). A relevant document never returned adds 0, so AP
    is not a mean over the returned ones. 0 when R = 0.

    Examples
    --------
    Relevant at ranks 1 and 3, and a third relevant document never returned:
    (1/1 + 2/3) / 3; AP@2 keeps only the first term, 1/3.

    >>> qs = from_rankings([[1, 0, 1]], [[1, 0, 1, 1]])
    >>> [round(float(v[0]), 4) for v in (average_precision(qs), average_precision(qs, 2))]
    [0.5556, 0.3333]
    """
    q, rank, nth = _hits(qs, k)  # the nth hit at rank r adds P@r = n / r
    total = num_relevant(qs)
    found = np.bincount(q, weights=nth / rank, minlength=qs.n_queries)
    return np.divide(found, total, out=np.zeros(qs.n_queries), where=total > 0)


def floored_average_precision(qs: QuerySet) -> np.ndarray:
    """max(AP, 0.00001) per query: the values whose geometric mean is GMAP (trec_eval's ``gm_map``).

    trec_eval floors AP at :data:`MIN_GEO_MEAN` so that one query with AP = 0
    does not make the geometric mean 0; pytrec_eval reports log(max(AP,
    0.00001)) per query instead. :func:`geometric_mean` averages these.

    >>> floored_average_precision(from_rankings([[0, 1], [0]], [[1], [1]])).tolist()
    [0.5, 1e-05]
    """
    return np.maximum(average_precision(qs), MIN_GEO_MEAN)


def geometric_mean(values) -> float:
    """exp(mean(log(max(v, 0.00001)))): trec_eval's geometric mean over queries (nan for no values).

    >>> round(geometric_mean([0.5, 0.0]), 6)  # sqrt(0.5 × 0.00001)
    0.002236
    """
    logs = np.log(np.maximum(np.asarray(values, dtype=np.float64), MIN_GEO_MEAN))
    return float(np.exp(logs.mean())) if logs.size else float("nan")


def recall_cutoff(levels, n_relevant, trec_eval: TrecEval = "9") -> np.ndarray:
    """c, how many relevant documents a recall level x of R needs, as each trec_eval reads it: 9.0.7 (and the
    trec_eval inside pytrec_eval) truncates x · R + 0.9, 10.0 rounds x · R to the nearest whole number, a half away
    from 0 (C's ``lround``); at least 1 either way (c = 0 reads as the first relevant document). Levels along the
    first axis, queries along the second.

    They differ where x · R has a fractional part from 0.1 to under 0.5: R = 4 at x = 0.6 needs 3 in 9.0.7, 2 in 10.0.

    >>> recall_cutoff([0.0, 0.6, 0.5], [4]).tolist(), recall_cutoff([0.0, 0.6, 0.5], [4], "10").tolist()
    ([[1], [3], [2]], [[1], [2], [2]])
    """
    if trec_eval not in TREC_EVAL_VERSIONS:
        raise ValueError(f"trec_eval must be one of {TREC_EVAL_VERSIONS}, got {trec_eval!r}")
    wanted = np.asarray(levels, dtype=np.float64)[:, None] * np.asarray(n_relevant, dtype=np.float64)[None, :]
    whole = np.floor(wanted)
    c = np.floor(wanted + 0.9) if trec_eval == "9" else whole + (wanted - whole >= 0.5)  # lround, without x + 0.5's error
    return np.maximum(c, 1).astype(np.int64)


def interpolated_precision(qs: QuerySet, level: float, trec_eval: TrecEval = "9") -> np.ndarray:
    """Interpolated precision at a recall level per query (trec_eval's ``iprec_at_recall_0.10`` and the like).

    .. math:: \\mathrm{IPrec@}x = \\max_{i \\ge r_c} \\mathrm{P@}i, \\qquad c = \\lfloor x \\cdot R + 0.9 \\rfloor
        \\text{ (trec\\_eval 9.0.7), or } x \\cdot R \\text{ rounded (10.0: ``trec_eval="10"``, :func:`recall_cutoff`)}

    where R is the number of relevant judged documents, r_c the rank of the
    c-th relevant returned document (of the first when c = 0) and the maximum
    runs over every rank from r_c to the end of the list: the precision
    "interpolated" from the right, as in the standard recall-precision graph.
    0 when fewer than c relevant documents were returned, or none at all.
    By default c is the c of trec_eval 9.0.7 and of the trec_eval inside pytrec_eval
    (x · R + 0.9, truncated: 1 of R = 2 relevant is recall 0.5, not 0.6);
    trec_eval 10.0 rounds x · R to the nearest whole number instead.

    Examples
    --------
    Relevant at ranks 2 and 3 of 4, R = 4: P@2 = 0.5, P@3 = 0.667, so every
    level up to 0.5 (c <= 2) reads 0.667; 0.75 needs a third relevant hit.

    >>> qs = from_rankings([[0, 1, 1, 0]], [[0, 1, 1, 1, 1]])
    >>> [round(float(interpolated_precision(qs, x)[0]), 3) for x in (0.0, 0.5, 0.75)]
    [0.667, 0.667, 0.0]
    """
    return interpolated_precision_at_levels(qs, [level], trec_eval)[0]


def interpolated_precision_at_levels(qs: QuerySet, levels: Sequence[float], trec_eval: TrecEval = "9") -> np.ndarray:
    """:func:`interpolated_precision` at several recall levels in one pass: one row per level, one column per query.

    >>> qs = from_rankings([[0, 1, 1, 0]], [[0, 1, 1, 1, 1]])
    >>> interpolated_precision_at_levels(qs, [0.0, 0.75]).round(3).tolist()
    [[0.667], [0.0]]
    """
    wanted_levels = np.asarray(levels, dtype=np.float64)
    inside = (wanted_levels >= 0.0) & (wanted_levels <= 1.0)  # nan is not
    if not inside.all():
        raise ValueError(f"a recall level lies between 0 and 1, got {float(wanted_levels[~inside][0])!r}")
    # Only the relevant returned rows matter: between two hits precision falls, so the best precision from a hit
    # to the end of the list is the best precision at a hit from there on.
    q, rank, nth = _hits(qs)
    precision_at_hit = nth / rank
    # the best from each hit to its query's last: a running maximum over the reversed hits, each query's values
    # lifted above every query after it (precision lies in [0, 1]) so that none carries over
    lift = 2.0 * q[::-1]
    best_from_here = (np.maximum.accumulate(precision_at_hit[::-1] - lift) + lift)[::-1]
    # the c-th hit of query q is hit number first[q] + c - 1 (hits are in query and rank order); c = 0 reads at
    # the first hit
    found = np.bincount(q, minlength=qs.n_queries)
    first = np.cumsum(found) - found
    wanted = recall_cutoff(wanted_levels, num_relevant(qs), trec_eval)
    reached = wanted <= found[None, :]
    at = np.where(reached, first[None, :] + wanted - 1, 0)
    return np.where(reached, best_from_here[at] if best_from_here.size else 0.0, 0.0)


def eleven_point_average(qs: QuerySet, trec_eval: TrecEval = "9") -> np.ndarray:
    """11-point interpolated average precision per query (trec_eval's ``11pt_avg``).

    .. math:: \\mathrm{11pt\\_avg} = \\frac{1}{11} \\sum_{x \\in \\{0, 0.1, \\ldots, 1\\}} \\mathrm{IPrec@}x

    the mean of :func:`interpolated_precision` over the recall levels 0.0,
    0.1, ..., 1.0 (:data:`ELEVEN_POINTS`), each with trec_eval 9.0.7's
    c = ⌊x · R + 0.9⌋, or 10.0's x · R rounded (:func:`recall_cutoff`). An old summary
    of the recall-precision curve, kept for comparisons with old runs. 0 when
    nothing relevant was returned.

    Examples
    --------
    Relevant at ranks 1 and 3, R = 2: the levels 0.0 to 0.5 (c <= 1) read
    P@1 = 1, the levels 0.6 to 1.0 (c = 2) read P@3 = 2/3: (6 × 1 + 5 × 2/3) / 11.

    >>> round(float(eleven_point_average(from_rankings([[1, 0, 1]]))[0]), 4)
    0.8485
    """
    return interpolated_precision_at_levels(qs, ELEVEN_POINTS, trec_eval).mean(axis=0)


def r_precision(qs: QuerySet) -> np.ndarray:
    """R-prec per query (trec_eval's ``Rprec``): P@R, where R is the number of relevant judged documents.

    .. math:: \\mathrm{R\\text{-}prec} = \\frac{|\\mathrm{relevant} \\cap \\mathrm{top}\\,R|}{R}

    A list shorter than R is simply shorter (the division is still by R); at
    rank R, precision equals recall. 0 when R = 0.

    >>> r_precision(from_rankings([[1, 0, 1, 1]], [[1, 0, 1, 1, 1]])).tolist()  # R = 4: 3 in the top 4
    [0.75]
    """
    total = num_relevant(qs)
    hit = _relevant(qs) & (qs.rank <= total[qs.qidx])
    found = np.bincount(qs.qidx[hit], minlength=qs.n_queries).astype(np.float64)
    return np.divide(found, total, out=np.zeros(qs.n_queries), where=total > 0)


def r_precision_at_multiple(qs: QuerySet, multiple: float) -> np.ndarray:
    """Precision at a multiple of R per query (trec_eval's ``Rprec_mult_0.20`` and the like): P@c.

    .. math:: \\mathrm{Rprec\\_mult@}m = \\frac{|\\mathrm{relevant} \\cap \\mathrm{top}\\,c|}{c},
              \\qquad c = \\lfloor m \\cdot R + 0.9 \\rfloor

    where R is the number of relevant judged documents. c is trec_eval's
    cutoff (m · R + 0.9, truncated, as for interpolated precision in 9.0.7;
    trec_eval 10 keeps it for this measure too): m = 0.2 of R = 2 is c = 1,
    not the 0 that rounding 0.4 would give. A list shorter than c is simply
    shorter (the division is still by c), so m = 1 is R-prec. 0 when c = 0
    (R = 0). Low multiples tell how precise the top is, high ones how much a
    system finds further down.

    Examples
    --------
    Relevant at ranks 1, 3 and 4, R = 4: m = 0.5 is P@2 = 1/2, m = 1 is P@4
    = 3/4, m = 2 is P@8 = 3/8 (the list holds 5).

    >>> qs = from_rankings([[1, 0, 1, 1, 0]], [[1, 0, 1, 1, 1]])
    >>> [float(r_precision_at_multiple(qs, m)[0]) for m in (0.5, 1.0, 2.0)]
    [0.5, 0.75, 0.375]
    """
    if not (np.isfinite(multiple) and multiple > 0):
        raise ValueError(f"a multiple of R is a number above 0, got {multiple!r}")
    cutoff = np.floor(multiple * num_relevant(qs) + 0.9)
    hit = _relevant(qs) & (qs.rank <= cutoff[qs.qidx])
    found = np.bincount(qs.qidx[hit], minlength=qs.n_queries).astype(np.float64)
    return np.divide(found, cutoff, out=np.zeros(qs.n_queries), where=cutoff > 0)


def bpref(qs: QuerySet) -> np.ndarray:
    """bpref per query (trec_eval's ``bpref``, Buckley and Voorhees 2004): judged documents only.

    .. math:: \\mathrm{bpref} = \\frac{1}{R} \\sum_{r} \\left(1 - \\frac{\\min(n_r, R)}{\\min(N, R)}\\right)

    where the sum runs over the relevant returned documents r, n_r is the
    number of judged non-relevant documents returned above r (a term is 1
    when n_r = 0), R the number of relevant judged documents and N the number
    of judged non-relevant ones (grades from 0 to the relevance level − 1).
    Unjudged returned documents are skipped, and so are negative grades
    (trec_eval: "in the pool, but not judged"). 0 when R = 0.

    Examples
    --------
    Returned: relevant, judged non-relevant, unjudged, relevant; R = 2, N = 3:
    (1 + (1 − 1/2)) / 2.

    >>> bpref(from_rankings([[1, 0, None, 1]], [[1, 0, 1, 0, 0]])).tolist()
    [0.75]
    """
    level = qs.relevance_level
    total = num_relevant(qs)
    judged_nonrel = (qs.judged_grade >= 0) & (qs.judged_grade < level)
    cap = np.minimum(np.bincount(qs.judged_qidx, weights=judged_nonrel, minlength=qs.n_queries), total)
    rel = _relevant(qs)
    nonrel = _judged_rows(qs) & (qs.grade >= 0) & (qs.grade < level)
    rows = _rows_in_order(qs, rel | nonrel)  # only judged rows count or are counted
    is_hit = rel[rows]
    above, q = _so_far(qs.qidx[rows], nonrel[rows])[is_hit], qs.qidx[rows][is_hit]
    # min(n_r, R) / min(N, R), with n_r <= N: the same as min(n_r, min(N, R)) / min(N, R), which stays in [0, 1]
    # even for a query set whose returned rows disagree with its judgments
    penalty = np.divide(np.minimum(above, cap[q]), cap[q], out=np.zeros(q.size), where=cap[q] > 0)
    kept = np.bincount(q, weights=1.0 - penalty, minlength=qs.n_queries)
    return np.divide(kept, total, out=np.zeros(qs.n_queries), where=total > 0)


def floored_bpref(qs: QuerySet) -> np.ndarray:
    """max(bpref, 0.00001) per query: the values whose geometric mean is trec_eval's ``gm_bpref``.

    As :func:`floored_average_precision` for GMAP: the floor :data:`MIN_GEO_MEAN`
    keeps one query with bpref = 0 from making the geometric mean 0;
    pytrec_eval reports log(max(bpref, 0.00001)) per query, and trec_eval
    prints gm_bpref only for the whole set.

    >>> floored_bpref(from_rankings([[1, 0], [0]], [[1, 0], [1, 0]])).tolist()
    [1.0, 1e-05]
    """
    return np.maximum(bpref(qs), MIN_GEO_MEAN)


def inferred_average_precision(qs: QuerySet) -> np.ndarray:
    """infAP per query (trec_eval's ``infAP``; Yilmaz and Aslam, CIKM 2006): AP estimated from a judged sample of
    the pool.

    .. math:: \\mathrm{infAP} = \\frac{1}{R} \\sum_{r} \\frac{1}{k_r}
              \\left(1 + p_r \\cdot \\frac{a_r + \\varepsilon}{a_r + b_r + 2\\varepsilon}\\right)

    where the sum runs over the relevant returned documents r, k_r is r's
    rank, p_r the number of documents above r that are in the pool (judged
    or not), a_r and b_r the numbers of them judged relevant and judged
    non-relevant, ε = 0.00001 (:data:`INFAP_EPSILON`) and R the number of
    relevant judged documents. The precision at r is estimated as: r itself
    (1/k_r), plus the documents above it that are in the pool, relevant in
    the share the judged ones among them are. A document above r that is not
    in the pool counts as non-relevant, as in AP.

    Which documents are in the pool is trec_eval's reading of the judgments:
    a judged grade >= 0 is judged, a *negative* grade is "in the pool, but
    not judged" (not sampled), and a document that is not in the judgments
    at all is not in the pool. With every pooled document judged, infAP is
    AP (up to ε). 0 when R = 0.

    Examples
    --------
    Returned: relevant, in the pool but not judged (-1), not in the pool,
    relevant; R = 2. The first is 1/1; the second sees 2 pooled documents
    above it, its relevant one of 1 judged: (1 + 2 · (1 + ε)/(1 + 2ε)) / 4.

    >>> qs = from_rankings([[1, -1, None, 1]], [[1, -1, 1]])
    >>> round(float(inferred_average_precision(qs)[0]), 4)
    0.875
    """
    level = qs.relevance_level
    judged = _judged_rows(qs)  # in the pool: in the judgments, with any grade
    rel = _relevant(qs)
    nonrel = judged & (qs.grade >= 0) & (qs.grade < level)
    unsampled = judged & (qs.grade < 0)
    rows = _rows_in_order(qs, judged)
    q = qs.qidx[rows]
    is_hit = rel[rows]
    # above each relevant row: the pooled rows of its query, and the relevant and judged non-relevant among them
    rel_above = (_so_far(q, is_hit) - 1)[is_hit]
    nonrel_above = _so_far(q, nonrel[rows])[is_hit]
    pooled_above = rel_above + nonrel_above + _so_far(q, unsampled[rows])[is_hit]
    share = (rel_above + INFAP_EPSILON) / (rel_above + nonrel_above + 2 * INFAP_EPSILON)
    estimate = (1.0 + pooled_above * share) / qs.rank[rows][is_hit]
    total = num_relevant(qs)
    found = np.bincount(q[is_hit], weights=estimate, minlength=qs.n_queries)
    return np.divide(found, total, out=np.zeros(qs.n_queries), where=total > 0)


def judged_at_k(qs: QuerySet, k: int) -> np.ndarray:
    """Judged@k per query (ir_measures' ``Judged@k``): the share of the top k that is in the judgments.

    .. math:: \\mathrm{Judged@}k = \\frac{|\\mathrm{judged} \\cap \\mathrm{top}\\,k|}{\\min(k, n)}

    where n is the list length: a list shorter than k is judged on what it
    returned. Any grade counts as judged, negative ones too (as ir_measures).
    0 when nothing was returned.

    >>> judged_at_k(from_rankings([[1, None, 0], [None]]), 10).tolist()
    [0.6666666666666666, 0.0]
    """
    top = qs.rank <= check_k(k)
    shown = np.bincount(qs.qidx[top], minlength=qs.n_queries).astype(np.float64)
    judged = np.bincount(qs.qidx[top], weights=_judged_rows(qs)[top], minlength=qs.n_queries)
    return np.divide(judged, shown, out=np.zeros(qs.n_queries), where=shown > 0)


def num_returned(qs: QuerySet) -> np.ndarray:
    """num_ret per query: the number of returned documents."""
    return np.bincount(qs.qidx, minlength=qs.n_queries).astype(np.float64)


def num_relevant_returned(qs: QuerySet) -> np.ndarray:
    """num_rel_ret per query: the number of relevant returned documents."""
    return np.bincount(qs.qidx[_relevant(qs)], minlength=qs.n_queries).astype(np.float64)


def num_queries(qs: QuerySet) -> np.ndarray:
    """num_q per query: 1 for every query (as trec_eval); their sum is the number of queries."""
    return np.ones(qs.n_queries)


# ----------------------------------------------------------------------------
# Per-ranking wrappers for the lessons (one query; same core)
# ----------------------------------------------------------------------------

def _one(grades, judged_grades=None) -> QuerySet:
    grades = _int_array(grades, "grades")
    judged = grades if judged_grades is None else _int_array(judged_grades, "judged_grades")
    return from_rankings([grades], [judged])


def _judged_with_relevant(grades, n_relevant: int | None):
    """Judged grades that make |relevant| = n_relevant (relevant items not returned are added)."""
    grades = _int_array(grades, "grades")
    if n_relevant is None:
        return grades
    found = int(np.count_nonzero(grades >= 1))
    if isinstance(n_relevant, bool) or not isinstance(n_relevant, (int, np.integer)) or n_relevant < found:
        raise ValueError(
            f"n_relevant must be a whole number at least the {found} relevant item(s) in the list, got {n_relevant!r}")
    return np.r_[grades, np.ones(n_relevant - found, dtype=np.int64)]


def recall_at_k(grades, k: int, n_relevant: int | None = None) -> float:
    """Recall@k of one ranking.

    .. math:: \\mathrm{Recall@}k = \\frac{|\\mathrm{relevant} \\cap \\mathrm{top}\\,k|}{|\\mathrm{relevant}|}

    where
      - grades: grades of the returned documents, top first (>= 1 is relevant);
      - k: the cutoff, k >= 1;
      - n_relevant: |relevant|, every relevant judged item for the query,
        including those not returned (default: the relevant items in ``grades``).

    Returns 0 when there is no relevant item. Blind to order inside the top k.

    Examples
    --------
    Lawyer System A: 4 relevant cases in its top 5, 10 relevant cases judged.

    >>> recall_at_k([1, 1, 0, 1, 1] + [0] * 15, k=5, n_relevant=10)
    0.4
    """
    return float(recall(_one(grades, _judged_with_relevant(grades, n_relevant)), k)[0])


def success_at_k(grades, k: int) -> float:
    """Success@k (hit rate@k) of one ranking: 1.0 if any of the top k is relevant, else 0.0.

    Examples
    --------
    >>> success_at_k([0, 0, 1], k=2), success_at_k([0, 0, 1], k=3)
    (0.0, 1.0)
    """
    return float(success(_one(grades), k)[0])


def precision_at_k(grades, k: int) -> float:
    """P@k of one ranking: |relevant ∩ top k| / k.

    Examples
    --------
    Lawyer System A: 4 relevant among the top 5 (the precision trap of lesson 1).

    >>> precision_at_k([1, 1, 0, 1, 1], k=5)
    0.8
    """
    return float(precision(_one(grades), k)[0])


def reciprocal_rank_of(grades, k: int | None = None) -> float:
    """RR of one ranking: 1 / rank of the first relevant item (0 if none; RR@k: 0 if below k).

    Examples
    --------
    >>> reciprocal_rank_of([0, 0, 0, 0, 1])
    0.2
    >>> reciprocal_rank_of([0, 0, 0, 0, 1], k=3)
    0.0
    """
    return float(reciprocal_rank(_one(grades), k)[0])


def mean_reciprocal_rank(rankings: Sequence[Sequence[int]], k: int | None = None) -> float:
    """MRR = (1/|Q|) Σ_q RR_q, where RR_q = 1 / rank of query q's first relevant item.

    Examples
    --------
    JAR scenario: the file at positions 1, 2 and 5.

    >>> round(mean_reciprocal_rank([[1], [0, 1], [0, 0, 0, 0, 1]]), 3)
    0.567
    """
    return float(reciprocal_rank(from_rankings(rankings), k).mean())


def dcg_at_k(grades, k: int, gain: Gain = "exponential") -> float:
    """DCG@k of one ranking.

    .. math:: \\mathrm{DCG@}k = \\sum_{i=1}^{\\min(k,n)} \\frac{g(\\mathrm{rel}_i)}{\\log_2(i + 1)}

    where rel_i is the grade at position i, g is the gain (exponential
    2^rel − 1, or linear rel) and n the list length.

    Examples
    --------
    Frameworks System B (grades 0, 2, 2 in the top 3): 0 + 3/1.585 + 3/2.

    >>> round(dcg_at_k([0, 2, 2, 2], k=3), 3)
    3.393
    """
    return float(dcg(_one(grades), k, gain)[0])


def idcg_at_k(judged_grades, k: int, gain: Gain = "exponential") -> float:
    """IDCG@k: DCG@k of all judged grades sorted best first.

    Examples
    --------
    >>> round(idcg_at_k([0, 1, 2, 2, 2], k=3), 3)
    6.393
    """
    judged = _int_array(judged_grades, "judged_grades")
    return float(idcg(from_rankings([[]], [judged]), k, gain)[0])


def ndcg_at_k(grades, k: int, judged_grades=None, gain: Gain = "exponential") -> float:
    """nDCG@k of one ranking: DCG@k / IDCG@k.

    where the ideal (IDCG@k) is built from ``judged_grades``, every judged
    grade of the query including documents that were not returned (default:
    the returned grades). 0 when IDCG@k = 0 (no relevant judged item).

    Examples
    --------
    Frameworks System B: 3.393 / 6.393.

    >>> round(ndcg_at_k([0, 2, 2, 2, 1, 1, 0, 0], k=3), 3)
    0.531
    """
    return float(ndcg(_one(grades, judged_grades), k, gain)[0])


# ----------------------------------------------------------------------------
# Lesson 0: a returned set in a collection
# ----------------------------------------------------------------------------

@dataclass(frozen=True)
class SetCounts:
    """Precision, recall and accuracy of a returned *set* (no ranking)."""

    precision: float  # relevant returned / returned (nan when nothing is returned)
    recall: float  # relevant returned / relevant
    accuracy: float  # (relevant returned + non-relevant not returned) / collection


def set_retrieval(collection: int, relevant: int, returned: int, relevant_returned: int) -> SetCounts:
    """Precision, recall and classification accuracy of a returned set.

    precision = TP / returned;  recall = TP / relevant;
    accuracy = (TP + TN) / collection,
    where TP = relevant_returned and TN = (collection − relevant) − (returned − TP),
    the non-relevant documents correctly left out.
    Precision is undefined (nan) when nothing is returned; recall is 0 when
    nothing is relevant.

    Examples
    --------
    The "Python" query: 10,000 documents, 50 relevant, 10 returned with 5 relevant.

    >>> set_retrieval(10_000, 50, 10, 5)
    SetCounts(precision=0.5, recall=0.1, accuracy=0.995)
    """
    for value, name in ((collection, "collection"), (relevant, "relevant"), (returned, "returned"),
                        (relevant_returned, "relevant_returned")):
        check_whole(value, name, lo=0)
    if collection < 1 or relevant > collection or returned > collection:
        raise ValueError("the collection must hold at least one document, and at least as many as are relevant or returned")
    if relevant_returned > min(relevant, returned) or returned - relevant_returned > collection - relevant:
        raise ValueError(
            f"{relevant_returned} relevant returned does not fit {returned} returned from {relevant} relevant "
            f"in {collection} documents")
    true_negative = (collection - relevant) - (returned - relevant_returned)
    return SetCounts(
        precision=relevant_returned / returned if returned else float("nan"),
        recall=relevant_returned / relevant if relevant else 0.0,
        accuracy=(relevant_returned + true_negative) / collection,
    )
