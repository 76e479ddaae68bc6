"""Joining a run with its qrels: the grade of each returned (query, docid) pair, and the run's rows in the qrels'
query order. The internals of :func:`components.engine.model.judge`.

No Streamlit import here.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from components.engine import keys

if TYPE_CHECKING:
    from components.engine.model import Qrels

SLOT_MULTIPLIER = np.uint64(0xBF58476D1CE4E5B9)  # spreads a key's bits into the top ones, which pick its slot


def query_blocks(qidx: np.ndarray, target: np.ndarray) -> tuple[np.ndarray | None, np.ndarray, np.ndarray]:
    """The rows of the run queries with a target, query by query in target order.

    ``qidx`` is grouped by query in increasing order (a :class:`~components.engine.model.Run`);
    ``target[q]`` is run query q's place in the result, or -1 to leave it
    out. Returns (rows, kept, lengths): the rows, each query's keeping their
    order; the kept queries in target order; and their number of rows.
    ``rows`` is None when it would be every row as it is (the usual case: both
    files list the same queries in the same order). A permutation of whole
    blocks, in linear time.

    Examples
    --------
    >>> rows, kept, lengths = query_blocks(np.array([0, 0, 1, 2, 2]), np.array([1, -1, 0]))
    >>> rows.tolist(), kept.tolist(), lengths.tolist()
    ([3, 4, 0, 1], [2, 0], [2, 2])
    """
    kept = np.flatnonzero(target >= 0)
    kept = kept[np.argsort(target[kept], kind="stable")]
    counts = np.bincount(qidx, minlength=target.size)
    lengths = counts[kept]
    if kept.size == target.size and np.all(kept == np.arange(kept.size)):
        return None, kept, lengths
    shift = (np.cumsum(counts) - counts)[kept] - (np.cumsum(lengths) - lengths)  # a block's place -> its rows
    return np.arange(lengths.sum()) + np.repeat(shift, lengths), kept, lengths


def take(values: np.ndarray, rows: np.ndarray | None) -> np.ndarray:
    """values[rows], or values itself when rows is None (every row, in order)."""
    return values if rows is None else values[rows]


def judged_grades(qrels: Qrels, q: np.ndarray, docids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The qrels grade of each row's (qrels query index q, docid) pair (0 where nobody judged that pair), and
    whether the pair is judged at all (any grade: bpref and Judged@k tell a judged 0 from an unjudged row).

    A hash join: the rows whose 64-bit pair key (:func:`~components.engine.keys.pair_keys`) may be
    among the judgments' keys (:func:`_maybe_among`) are looked up in the
    sorted keys and compared by their bytes, so a key that collides never
    borrows a grade. When two judgments share a key, the pairs are matched
    exactly instead (:func:`_judged_grades_exactly`). Neither side's docids
    are widened to the other's width (keys do not depend on it), so the
    join takes no more memory than the two files' own arrays and a few
    numbers per row.
    """
    judged_keys = keys.pair_keys(qrels.qidx, qrels.docids)
    order = np.argsort(judged_keys)
    sorted_keys = judged_keys[order]
    if np.any(sorted_keys[1:] == sorted_keys[:-1]):
        return _judged_grades_exactly(qrels, q, docids)
    probe = keys.pair_keys(q, docids)
    rows = np.flatnonzero(_maybe_among(probe, sorted_keys))
    pos = np.minimum(np.searchsorted(sorted_keys, probe[rows]), sorted_keys.size - 1)
    match = order[pos]
    same = (sorted_keys[pos] == probe[rows]) & (qrels.qidx[match] == q[rows]) & (qrels.docids[match] == docids[rows])
    grade = np.zeros(q.size, dtype=np.int64)
    grade[rows[same]] = qrels.grade[match[same]]
    found = np.zeros(q.size, dtype=bool)
    found[rows[same]] = True
    return grade, found


def _maybe_among(keys: np.ndarray, members: np.ndarray) -> np.ndarray:
    """True for every key among members, and for a few others: a bitmap of hashed keys (no false negatives).

    The bitmap has about 256 slots per member (at most 2**24, 16 MB), so that
    few keys are looked up in vain: one random read per key, where a binary
    search would take about log2(members) of them.

    Examples
    --------
    >>> bool(_maybe_among(np.array([5, 7, 9], dtype=np.uint64), np.array([7], dtype=np.uint64))[1])
    True
    """
    bits = int(min(max(np.log2(members.size + 1) + 8, 10), 24))
    shift = np.uint64(64 - bits)
    table = np.zeros(1 << bits, dtype=bool)
    table[((members * SLOT_MULTIPLIER) >> shift).view(np.int64)] = True
    slots = keys * SLOT_MULTIPLIER
    slots >>= shift
    return table[slots.view(np.int64)]  # slots are below 2**24: as int64 the same, and no index copy


def _judged_grades_exactly(qrels: Qrels, q: np.ndarray, docids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """As :func:`judged_grades`, with the docids numbered by their bytes (slower; no key is shared).

    Only docids that fit the narrower side's width can be on both sides, so
    both are cut to it (the other rows are judged for no returned row):
    nothing is widened.
    """
    width = min(qrels.docids.dtype.itemsize, docids.dtype.itemsize)
    judged, returned = _fitting(qrels.docids, width), _fitting(docids, width)
    grade, found = np.zeros(q.size, dtype=np.int64), np.zeros(q.size, dtype=bool)
    if not judged.size or not returned.size:
        return grade, found
    _, codes = keys.factorize(np.concatenate([qrels.docids[judged].astype(f"S{width}"),
                                          docids[returned].astype(f"S{width}")]))
    n_docs = int(codes.max()) + 1
    judged_key = qrels.qidx[judged] * n_docs + codes[:judged.size]
    key = q[returned] * n_docs + codes[judged.size:]
    order = np.argsort(judged_key)
    sorted_key = judged_key[order]
    pos = np.minimum(np.searchsorted(sorted_key, key), sorted_key.size - 1)
    found[returned] = sorted_key[pos] == key
    grade[returned] = np.where(found[returned], qrels.grade[judged][order][pos], 0)
    return grade, found


def _fitting(texts: np.ndarray, width: int) -> np.ndarray:
    """The rows of an ``S`` array whose strings are at most width bytes long.

    Examples
    --------
    >>> _fitting(np.array([b"a", b"a-long-document-id", b"b"]), 8).tolist()
    [0, 2]
    """
    if texts.dtype.itemsize <= width:
        return np.arange(texts.size)
    return np.flatnonzero(np.ascontiguousarray(texts).view(np.uint8).reshape(texts.size, -1)[:, width] == 0)

