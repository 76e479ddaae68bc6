"""trec_eval's order of a run's rows: query, then score descending (as 32-bit floats), then docid descending.

:func:`in_trec_order` orders the rows every reader gives, whatever the
format, so that a :class:`~components.engine.model.Run` is ranked as
trec_eval ranks it.

No Streamlit import here.
"""
from __future__ import annotations

import numpy as np


def in_trec_order(qidx: np.ndarray, docids: np.ndarray, score: np.ndarray,
                  line: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(qidx, docids, score, line) of a run's rows in trec_eval's order; the arrays given may be reordered in place.

    The order: query (first appearance), score descending, then docid
    descending in byte order. Scores are compared as 32-bit floats, because
    trec_eval stores them so: scores that differ only beyond about 7
    significant digits tie, and the docid decides (pytrec_eval agrees). A run
    written in rank order is already sorted by query and score, which is
    checked in linear time: then only rows with tied scores move, in place
    (the arrays given). Otherwise one sort of a 64-bit
    key orders the rows first (:func:`_query_score_order`).
    """
    with np.errstate(over="ignore"):  # beyond float32's range a score becomes ±inf, as in trec_eval
        score32 = score.astype(np.float32)
    arrays = (qidx, docids, score, line)
    order = _query_score_order(qidx, score32)
    if order is not None:
        arrays, score32 = tuple(a[order] for a in arrays), score32[order]
    to, source = _tie_moves(arrays[0], score32, arrays[1])
    for a in arrays[1:]:  # a tie is within one query: qidx stays
        a[to] = a[source]
    return arrays


def _query_score_order(qidx: np.ndarray, score32: np.ndarray) -> np.ndarray | None:
    """Row order by query index, then score descending; None when the rows are in that order already.

    Tied rows are left in any order (:func:`_tie_moves` orders them).

    Examples
    --------
    >>> _query_score_order(np.array([0, 0, 1]), np.array([2, 1, 5], dtype=np.float32)) is None
    True
    >>> _query_score_order(np.array([0, 0, 1]), np.array([1, 2, 5], dtype=np.float32)).tolist()
    [1, 0, 2]
    """
    if np.all((qidx[1:] > qidx[:-1]) | ((qidx[1:] == qidx[:-1]) & (score32[1:] <= score32[:-1]))):
        return None
    return np.argsort(_query_score_keys(qidx, score32))


def _tie_moves(qidx: np.ndarray, score32: np.ndarray, docids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(to, source): rows sorted by query and score get docid descending among equal scores by ``a[to] = a[source]``.

    Only the rows in a tie (same query, equal 32-bit score as a neighbour)
    are listed; docids are compared as bytes.

    Examples
    --------
    >>> to, source = _tie_moves(np.zeros(4, np.int64), np.array([3, 1, 1, 1], dtype=np.float32),
    ...                         np.array([b"x", b"a", b"c", b"b"]))
    >>> to.tolist(), source.tolist()
    ([1, 2, 3], [2, 3, 1])
    """
    tied_with_next = (qidx[1:] == qidx[:-1]) & (score32[1:] == score32[:-1])  # row i ties with row i + 1
    pairs = np.flatnonzero(tied_with_next)
    if not pairs.size:
        return pairs, pairs
    in_tie = np.zeros(qidx.size, dtype=bool)
    in_tie[pairs] = in_tie[pairs + 1] = True
    tied = np.flatnonzero(in_tie)
    group = np.cumsum(np.r_[True, ~tied_with_next[tied[1:] - 1]])  # the rows of one tie share a number
    ascending = np.lexsort((docids[tied], group))
    descending = ascending[::-1][np.argsort(group[ascending[::-1]], kind="stable")]
    return tied, tied[descending]


def _query_score_keys(qidx: np.ndarray, score: np.ndarray) -> np.ndarray:
    """A uint64 per row that sorts by query index, then 32-bit score descending; tied rows get equal keys.

    The query index fills the high 32 bits; the low 32 bits are the score's
    bits, turned so that unsigned order is float order reversed (-0 and 0
    are made equal first, as they compare).

    Examples
    --------
    >>> keys = _query_score_keys(np.array([0, 0, 0, 0, 1]), np.array([-1, 0, -0.0, 2, 5], dtype=np.float32))
    >>> np.argsort(keys, kind="stable").tolist()
    [3, 1, 2, 0, 4]
    """
    bits = (score + np.float32(0)).view(np.uint32)  # + 0 turns -0 into 0
    ascending = np.where(bits >> np.uint32(31) == 1, ~bits, bits | np.uint32(1 << 31))
    return (qidx.astype(np.uint64) << np.uint64(32)) | (~ascending).astype(np.uint64)


def positions(sorted_qidx: np.ndarray) -> np.ndarray:
    """1-based position of each row within its query (rows grouped by query)."""
    starts = np.flatnonzero(np.r_[True, sorted_qidx[1:] != sorted_qidx[:-1]])
    return np.arange(sorted_qidx.size) - np.repeat(starts, np.diff(np.r_[starts, sorted_qidx.size])) + 1

