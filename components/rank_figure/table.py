"""The hit-rank figure's numbers: recall@k and MRR for the figure's state and for every single move (no Streamlit).

The figure draws one row per query on a shared rank axis 1..L plus "not
returned"; each query has exactly one relevant document, its *hit*, drawn as
a dot. A single move is one dot to another slot (the other queries fixed) or
the cutoff line to another k. With ``rank_q`` the position of query q's hit::

    recall@k = |{q : rank_q <= k}| / |Q|        MRR = (1 / |Q|) * sum_q 1 / rank_q

(a hit that was not returned adds nothing to either). Every value comes from
the engine (:mod:`components.engine.metrics`): one query set holds a single-hit
query for each slot, the engine scores it once per k, and a state's value is
the mean of its queries' slot values, which is exactly what the engine's mean
over the four-query set gives (``tests/unit/test_rank_figure.py`` checks every
move). The browser only looks the rows up.

The table (JSON)::

    {"slots":   [1, 2, ..., 10, null],        # the axis; null = not returned
     "values":  [[0.75, 0.615], ...],          # distinct value rows: [recall@k, MRR]
     "current": 0,                             # the row of the state as it is
     "place":   [[3, 4, 0, ...], ...],         # place[q][s]: query q's hit moved to slots[s]
     "cutoff":  [[5, 6, ...]],                 # cutoff[j - 1]: the line moved to k = j (ranks as they are)
     "rr":      [1.0, 0.5, ..., 0.0]}          # RR of a hit in each slot (the label beside a dot)
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from components.course.scenarios import single_hit_rankings
from components.engine import metrics
from components.engine.checks import is_whole

Rank = int | None  # a hit's position, None when the query's list does not hold it


def check_ranks(ranks: Sequence[Rank], length: int) -> tuple[Rank, ...]:
    """``ranks`` as a tuple, or ``ValueError`` unless each is None or a whole number 1..length."""
    out = []
    for rank in ranks:
        if rank is not None and (not is_whole(rank) or not 1 <= rank <= length):
            raise ValueError(f"a hit rank is a whole number from 1 to {length}, or None (not returned); got {rank!r}")
        out.append(rank)
    if not out:
        raise ValueError("the figure needs at least one query")
    return tuple(out)


def slots(length: int) -> tuple[Rank, ...]:
    """The axis: positions 1..length, then None ("not returned")."""
    return tuple(range(1, length + 1)) + (None,)


def slot_values(length: int) -> tuple[np.ndarray, np.ndarray]:
    """Per slot, one query's hit there: (hit@j for j = 1..length as a slots × length array, RR per slot).

    Examples
    --------
    >>> hits, rr = slot_values(3)
    >>> hits.tolist()  # rows: hit at 1, 2, 3, not returned; columns: k = 1, 2, 3
    [[1.0, 1.0, 1.0], [0.0, 1.0, 1.0], [0.0, 0.0, 1.0], [0.0, 0.0, 0.0]]
    >>> [round(float(x), 3) for x in rr]
    [1.0, 0.5, 0.333, 0.0]
    """
    qs = metrics.from_rankings(single_hit_rankings(slots(length), length), [[1]] * (length + 1))
    hits = np.column_stack([metrics.recall(qs, j) for j in range(1, length + 1)])
    return hits, metrics.reciprocal_rank(qs)


def figure_table(ranks: Sequence[Rank], k: int, length: int) -> dict:
    """The figure's table (format: the module docstring) for hit ``ranks`` and cutoff ``k``.

    Examples
    --------
    >>> t = figure_table((1, 3, 1, 8), k=5, length=10)
    >>> t["values"][t["current"]]  # recall@5 = 3/4, MRR = (1 + 1/3 + 1 + 1/8) / 4
    [0.75, 0.6145833333333333]
    >>> t["values"][t["place"][3][3]]  # query 4's hit moved to rank 4
    [1.0, 0.6458333333333333]
    >>> t["values"][t["cutoff"][0]]  # the line moved to k = 1
    [0.5, 0.6145833333333333]
    """
    ranks = check_ranks(ranks, length)
    k = metrics.check_k(k)
    if k > length:
        raise ValueError(f"k must be at most the axis length {length}, got {k}")
    axis = slots(length)
    index = {slot: i for i, slot in enumerate(axis)}
    hits, rr = slot_values(length)
    at = [index[r] for r in ranks]
    n = len(ranks)
    rows: dict[tuple[float, float], int] = {}

    def row(where: Sequence[int], j: int) -> int:
        value = (float(hits[where, j - 1].sum() / n), float(rr[where].sum() / n))
        return rows.setdefault(value, len(rows))

    current = row(at, k)
    place = [[row(at[:q] + [s] + at[q + 1:], k) for s in range(len(axis))] for q in range(n)]
    cutoff = [row(at, j) for j in range(1, length + 1)]
    return {"slots": list(axis), "values": [list(v) for v in rows], "current": current, "place": place,
            "cutoff": cutoff, "rr": [float(x) for x in rr]}
