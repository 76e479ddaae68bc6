"""Every single move of a ranking editor, and the page's metric values after it: the live scoreboard's table.

During a drag or a keyboard move the editor previews the numbers the page
would show if the document were dropped *here*. The numbers come from the
engine (:mod:`components.engine.metrics` through
:func:`components.engine.measures.evaluate`), never from JavaScript: with each
render the server sends :func:`move_table`, the values after every single move
of the editor, and the browser only looks them up. No Streamlit import here.

The moves (one change to the current state, as the editor makes it)
--------------------------------------------------------------------
Let the list hold n documents (index 0 = top) and the tray T.

``place`` (doc, j)
    A list document at index i lands on index j, 0 <= j <= n − 1: it is
    removed, then inserted at j (the editor's ``moveItem``: drag, arrow keys,
    Home/End, up/down buttons). j = i leaves the list as it is. A tray
    document is inserted at index j, 0 <= j <= n (the list grows to n + 1).
``tray`` (doc)
    A list document goes to the tray (only on an editor with a tray). Where
    in the tray does not matter to any measure. It stays *judged*: Recall's
    denominator and nDCG's ideal still count it.
``grade`` (doc, ±1)
    A grade step on an editor with editable grades, for every document, in
    the list or the tray, exactly as the editor's ``stepGrade``: a judged
    grade g goes to g − 1 (only when g > lo) or g + 1 (only when g < hi)
    within ``grade_range`` = (lo, hi); an unjudged document becomes judged,
    "−1" giving lo and "+1" giving min(hi, max(lo, 1)). The judged grades
    change with it (the denominator and the ideal see the new grade). A
    digit key (a grade typed directly) is not in the table.
``cutoff`` (j)
    The cutoff line dragged to k = j, 1 <= j <= k_max. A measure written with
    ``@k`` (``R@k``, ``nDCG@k``, ...) is then computed at j (R@k → R@j);
    a measure without it (``RR``, ``RR@1``) keeps its value.

tests/unit/reference_moves.py lists them (``editor_moves``, as ``Move``
values) and makes one on an :class:`EditorState` (``apply_move``: the plain,
obviously right way; the tests compare the table with it); its ``look_up``
reads a move's values from a table, as the browser does (see "The table"
below).

The values
----------
Every value is the page's number for one measure: with ``others`` (the
page's other queries, e.g. the two other lists of the MRR lesson) it is the
mean over all 1 + len(others) queries,

    value = (1 / |Q|) Σ_q v_q,   v_q the engine's per-query value,

the other queries fixed and this editor's query at place ``query_index`` of
the page's order (the mean adds them in that order, as the page's own
``values.mean()`` does, so the table matches the page bit for bit). Without
``others`` it is this query's value.

Bound
-----
A long list must not send n² entries. With ``window`` = W and ``limit`` = L:
only the first L list documents (indices 0 .. L − 1) and the first L tray
documents (in tray order) get entries; a list document at index i only
targets j with |j − i| <= W; a tray document only targets j = 0 .. min(n, W)
(the top of the list); cutoffs only j with |j − k| <= W. ``None`` lifts a
bound. The defaults (W = 25, L = 50) keep every lesson list complete
(20 rows and a tray of up to 30). A move without an entry is *left out*: the
UI shows the values after the drop instead, and says so.

The table (JSON-ready; every key below is always present)
---------------------------------------------------------
::

    {
      "measures":  ["R@5", "RR", "nDCG@5"],   # names at the page's k, in the order asked
      "follows_k": [true, false, true],       # which measures a cutoff move recomputes at the new k
      "k": 5,                                 # the page's k (null: no cutoff)
      "queries": 1,                           # values are means over this many queries
      "values": [[0.4, 1.0, 0.85], ...],      # the distinct value rows, one value per measure
      "current": 0,                           # row of the state as it is
      "place":  {"c01": {"from": 0, "rows": [0, 3, 3, ...]}},
      "tray":   {"c01": 7},
      "grade":  {"c01": {"-1": 9}, "u7": {"-1": 2, "+1": 11}},
      "cutoff": {"from": 1, "rows": [12, 13, 0, ...]},
      "window": {"size": 25, "limit": 50, "complete": true,
                 "left_out": {"place": 0, "tray": 0, "grade": 0, "cutoff": 0}}
    }

Every entry is a row index into ``values`` (the rows are distinct, so the
table stays small: many moves give the same numbers). ``place`` holds the
list documents top first, then the tray's; ``grade`` the list's, then the
tray's. In JavaScript:

- place doc at index j: ``e = t.place[id]``; covered when ``e`` exists and
  ``0 <= j - e.from < e.rows.length``; values ``t.values[e.rows[j - e.from]]``
  (for a list document the rows run over its current index too: the values
  as they are);
- to the tray: ``t.values[t.tray[id]]`` when ``id in t.tray``;
- grade step: ``t.values[t.grade[id]["+1"]]`` (or ``"-1"``), when present
  (absent at the range's end, where the editor's button is disabled);
- cutoff at j: ``t.values[t.cutoff.rows[j - t.cutoff.from]]`` when in range
  (no cutoff moves: ``{"from": 1, "rows": []}``).

``left_out`` counts the moves without an entry (``place``: (document,
target) pairs); ``complete`` is true when all four are 0. Values are full
doubles (``json.dumps`` writes the shortest repr that reads back exactly);
round them for display as the page does.

Cost: one query set of C candidates (C = the number of entries, plus the
state as it is) whose rows stop at the depth the measures can see (the
largest cutoff; for RR without a cutoff, one below the second relevant
document, else the whole list), with the relevant judged grades of each;
plus one small set for the cutoff moves and the other queries. On the
project's (shared, 2-core) machine: 2–8 ms for a lesson list, about 25 ms
for the "Your data" editor over a 1,000-deep run, about 80 ms for a
1,000-row editor list with the default bound (``benchmarks/move_table.py``).

Examples
--------
>>> s = EditorState(order=("a", "b", "c"), tray=("d",), grades={"a": 0, "b": 1, "c": 0, "d": 1})
>>> t = move_table(s, ["R@k", "RR"], k=1, tray=True)
>>> t["measures"], t["values"][t["current"]]
(['R@1', 'RR'], [0.0, 0.5])
>>> b, d, cutoff = t["place"]["b"], t["place"]["d"], t["cutoff"]  # b to the top, d (tray) to the end, b to the tray
>>> t["values"][b["rows"][0 - b["from"]]], t["values"][d["rows"][3 - d["from"]]], t["values"][t["tray"]["b"]]
([0.5, 1.0], [0.0, 0.5], [0.0, 0.0])
>>> t["values"][cutoff["rows"][2 - cutoff["from"]]]  # the cutoff line at k = 2
[0.5, 0.5]
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Mapping, Sequence, Union

import numpy as np

from components.engine import metrics
from components.engine.checks import check_whole
from components.engine.measures import Measure, evaluate, parse_measure, rank_cutoff
from components.engine.metrics import Gain
from components.ranking_editor.model import DEFAULT_GRADE_RANGE, EditorState, check_grade, check_grade_range

DEFAULT_WINDOW = 25  # targets within ±25 positions: a 20-row list is complete
DEFAULT_LIMIT = 50  # the first 50 list and 50 tray documents: a lesson list and its tray are complete
KINDS = ("place", "tray", "grade", "cutoff")
STEPS = (-1, 1)
_AT_K = re.compile(r"@k$", re.IGNORECASE)

Other = Union[EditorState, Mapping[str, float]]


# ----------------------------------------------------------------------------
# The moves: which there are and which the table covers
# ----------------------------------------------------------------------------

def grade_steps(grade: int | None, grade_range: tuple[int, int]) -> list[tuple[int, int]]:
    """(step, new grade) for each grade button that does something, as the editor's ``stepGrade``.

    Examples
    --------
    >>> grade_steps(0, (0, 2)), grade_steps(1, (0, 2)), grade_steps(2, (0, 2))
    ([(1, 1)], [(-1, 0), (1, 2)], [(-1, 1)])
    >>> grade_steps(None, (0, 2)), grade_steps(None, (-2, 0))
    ([(-1, 0), (1, 1)], [(-1, -2), (1, 0)])
    """
    lo, hi = grade_range
    if grade is None:
        return [(-1, lo), (1, min(hi, max(lo, 1)))]
    return [(step, grade + step) for step in STEPS if lo <= grade + step <= hi]


@dataclass(frozen=True)
class _Plan:
    """Which moves the table holds (list and tray documents in the state's order)."""

    place: tuple[tuple[str, int, int, int], ...]  # (doc, source, first target, last target); source i < n: list
    # index i, source n + t: tray index t
    to_tray: tuple[tuple[str, int], ...]  # (doc, list index)
    grade: tuple[tuple[str, int, int], ...]  # (doc, step, new grade)
    cutoffs: tuple[int, ...]  # the covered k, ascending
    left_out: dict[str, int]


def _plan(state: EditorState, *, k: int | None, tray: bool, editable_grades: bool, grade_range: tuple[int, int],
          k_max: int, window: int | None, limit: int | None) -> _Plan:
    n = len(state.order)
    left = dict.fromkeys(KINDS, 0)
    place: list[tuple[str, int, int, int]] = []
    to_tray: list[tuple[str, int]] = []
    grade: list[tuple[str, int, int]] = []
    for zone, ids in (("list", state.order), ("tray", state.tray)):
        for i, doc in enumerate(ids):
            covered = limit is None or i < limit
            if zone == "list":  # targets 0 .. n - 1, within the window of i
                reach = n if window is None else window
                source, first, last, targets = i, max(0, i - reach), min(n - 1, i + reach), n
            else:  # targets 0 .. n, the top of the list
                source, first, last, targets = n + i, 0, n if window is None else min(n, window), n + 1
            if covered:
                place.append((doc, source, first, last))
            left["place"] += targets - (last - first + 1 if covered else 0)
            if zone == "list" and tray:
                if covered:
                    to_tray.append((doc, i))
                else:
                    left["tray"] += 1
            if editable_grades:
                steps = grade_steps(state.grades.get(doc), grade_range)
                if covered:
                    grade.extend((doc, step, new) for step, new in steps)
                else:
                    left["grade"] += len(steps)
    cutoffs: tuple[int, ...] = ()
    if k is not None:
        lo, hi = (1, k_max) if window is None else (max(1, k - window), min(k_max, k + window))
        cutoffs = tuple(range(lo, hi + 1))
        left["cutoff"] = k_max - len(cutoffs)
    return _Plan(tuple(place), tuple(to_tray), tuple(grade), cutoffs, left)


def _check_bound(value, name: str) -> int | None:
    return None if value is None else check_whole(value, name, lo=0, why="(None: no bound)")


def _check_state(state: EditorState, tray: bool, grade_range: tuple[int, int]) -> None:
    if not isinstance(state, EditorState):
        raise ValueError(f"state must be an EditorState, got {type(state).__name__}")
    ids = list(state.order) + list(state.tray)
    if len(set(ids)) != len(ids):
        raise ValueError("each document must appear once, in the order or in the tray")
    if state.tray and not tray:
        raise ValueError(f"the state has a tray {list(state.tray)}, yet tray=False: pass the editor's tray option")
    for doc, g in state.grades.items():
        check_grade(doc, g, grade_range)


def _grades(values: Sequence[int], name: str) -> np.ndarray:
    """Whole-number grades as an int64 array (the query set checks their range).

    >>> _grades([2, 0, 1], "tail").tolist()
    [2, 0, 1]
    >>> _grades([1, 0.5], "tail")
    Traceback (most recent call last):
    ...
    ValueError: tail must be a list of whole-number grades, got [1, 0.5]
    """
    if isinstance(values, str):
        raise ValueError(f"{name} must be a list of grades, not the single string {values!r}")
    array = np.asarray(list(values))
    if array.ndim != 1 or (array.size and not np.issubdtype(array.dtype, np.integer)):
        raise ValueError(f"{name} must be a list of whole-number grades, got {list(values)!r}")
    return array.astype(np.int64)


def _k_max(state: EditorState, k: int | None, k_max: int | None) -> int:
    if k_max is None:
        return max(len(state.order), k or 0)
    return check_whole(k_max, "k_max", lo=0, why="(the largest k the cutoff line can be dragged to; 0: none)")


# ----------------------------------------------------------------------------
# The table
# ----------------------------------------------------------------------------

@dataclass(frozen=True)
class _Spec:
    measure: Measure  # at the page's k
    follows_k: bool  # written with @k: a cutoff move recomputes it at the new k

    def at(self, j: int) -> str:
        return Measure(self.measure.family, j).name if self.follows_k else self.measure.name


def _specs(names: Sequence[str], k: int | None) -> list[_Spec]:
    if isinstance(names, str):
        raise ValueError(f"measures must be a list of names, not the single string {names!r}")
    specs = []
    for name in names:
        follows = bool(_AT_K.search(name))
        if follows and k is None:
            raise ValueError(f"{name!r} reads the page's cutoff, but k is None: pass k")
        specs.append(_Spec(parse_measure(_AT_K.sub(f"@{k}", name) if follows else name), follows))
    if not specs:
        raise ValueError("name at least one measure, e.g. ['R@k', 'RR']")
    return specs


def _depth(specs: Sequence[_Spec], ranking: np.ndarray, relevance_level: int = 1) -> int:
    """How deep the candidates' rankings must go for these measures to be exact (rows below change nothing).

    A cutoff measure sees ranks <= k. RR without a cutoff sees the first
    relevant rank; one move touches one document, so when the list holds two
    relevant documents at ranks r1 < r2, one of them stays relevant at rank
    <= r2 + 1 in every candidate. Any other measure without a cutoff (AP,
    nDCG over the whole list, ...) sees the whole list.
    """
    deep = ranking.size + 1  # an inserted tray document makes a ranking one longer
    depth = 0
    for spec in specs:
        k = rank_cutoff(spec.measure)
        if k is not None:
            depth = max(depth, k)
        elif spec.measure.family == "RR":
            relevant = np.flatnonzero(ranking >= relevance_level)
            depth = max(depth, int(relevant[1]) + 2 if relevant.size >= 2 else deep)
        else:
            depth = deep
    return min(depth, deep)


def _candidates(state: EditorState, plan: _Plan, tail: np.ndarray, extra_judged: np.ndarray,
                depth: int) -> metrics.QuerySet:
    """One query set: query 0 the state as it is, then one query per move of the plan, in the table's order.

    Each candidate is the current list with one document removed and/or one
    inserted, the tail below, cut at ``depth`` rows; a grade move patches one
    grade of the ranking and of the judged grades. Vectorised over the
    candidates: one (candidates × depth) matrix of indices into ``pool``.
    """
    n, n_tray = len(state.order), len(state.tray)
    pool = np.concatenate([np.array(state.order_grades(), dtype=np.int64),
                           np.array([state.grades.get(i, 0) for i in state.tray], dtype=np.int64), tail])
    where = {doc: i for i, doc in enumerate(state.order)}
    sizes = [last - first + 1 for _, _, first, last in plan.place]
    sources = np.array([source for _, source, _, _ in plan.place], dtype=np.int64)
    n_move, n_grade = len(plan.to_tray), len(plan.grade)
    # per candidate (-1: none): the list index removed, the pool index inserted and the list index it
    # lands on, the list index whose grade a grade move changes
    removed = np.concatenate([[-1], np.repeat(np.where(sources < n, sources, -1), sizes),
                        [i for _, i in plan.to_tray], np.full(n_grade, -1)]).astype(np.int64)
    inserted = np.concatenate([[-1], np.repeat(sources, sizes), np.full(n_move + n_grade, -1)]).astype(np.int64)
    at = np.concatenate([[-1]] + [np.arange(first, last + 1) for _, _, first, last in plan.place]
                       + [np.full(n_move + n_grade, -1)]).astype(np.int64)
    n_cand = removed.size
    graded = np.arange(n_cand - n_grade, n_cand)  # the grade moves come last
    values = np.array([new for _, _, new in plan.grade], dtype=np.int64)
    patched = np.full(n_cand, -1, dtype=np.int64)
    patched[graded] = [where.get(doc, -1) for doc, _, _ in plan.grade]

    # the ranking of each candidate: list index p reads pool[src[c, p]]
    has_rem, has_ins = (removed >= 0)[:, None], (inserted >= 0)[:, None]
    listed = (n - has_rem + has_ins)  # the candidate's list length, (C, 1)
    length = np.minimum(listed + tail.size, depth)
    p = np.arange(int(length.max()) if n_cand else 0)[None, :]
    q = p - (has_ins & (p > at[:, None]))  # index in the list after the removal
    src = np.where(has_ins & (p == at[:, None]), inserted[:, None], q + (has_rem & (q >= removed[:, None])))
    src = np.where(p < listed, src, n + n_tray + (p - listed))  # below the list: the tail
    valid = p < length
    grades = pool[np.where(valid, src, 0)] if pool.size else np.zeros(valid.shape, dtype=np.int64)
    patch = (patched[graded] >= 0) & (patched[graded] < length[graded, 0])
    grades[graded[patch], patched[graded][patch]] = values[patch]
    qidx, col = np.nonzero(valid)

    # judged grades: only the relevant ones (a judged grade <= 0 adds 0 to |relevant| and to the ideal), best
    # first (the ideal's sort then has little to do); the same for every candidate but a grade move's
    rel = sorted(((doc, g) for doc, g in state.grades.items() if g >= 1), key=lambda dg: -dg[1])
    column = {doc: c for c, (doc, _) in enumerate(rel)}
    base = np.array([g for _, g in rel] + sorted((g for g in extra_judged.tolist() if g >= 1), reverse=True),
                    dtype=np.int64)
    n_same = n_cand - n_grade
    judged = np.zeros((n_grade, base.size + 1), dtype=np.int64)
    judged[:, :-1] = base
    old = np.array([column.get(doc, -1) for doc, _, _ in plan.grade], dtype=np.int64)
    judged[np.flatnonzero(old >= 0), old[old >= 0]] = 0  # the old grade goes...
    judged[:, -1] = values  # ...the new one comes (kept when relevant)
    keep = judged >= 1
    jq, _ = np.nonzero(keep)
    return metrics.query_set(n_cand, qidx, col + 1, grades[valid],
                             np.concatenate([np.repeat(np.arange(n_same), base.size), n_same + jq]),
                             np.concatenate([np.tile(base, n_same), judged[keep]]))


def _page_mean(own: np.ndarray, others: np.ndarray, query_index: int) -> np.ndarray:
    """Mean over the page's queries, this one at ``query_index``: own (R, M), others (R, M, Q − 1) -> (R, M).

    The queries lie along the last, contiguous axis, so each mean adds them as
    ``values.mean()`` adds a page's per-query array (numpy's pairwise sum).
    """
    if others.shape[-1] == 0:
        return own
    n_queries = others.shape[-1] + 1
    stacked = np.empty(own.shape + (n_queries,))
    stacked[..., query_index] = own
    stacked[..., [q for q in range(n_queries) if q != query_index]] = others
    return stacked.mean(axis=-1)


def _other_values(others: Sequence[Other], names: Sequence[str], computed: Mapping[str, np.ndarray]) -> np.ndarray:
    """The other queries' values of ``names``, (len(names), len(others)); ``computed`` holds the states' (query 1..)."""
    out = np.empty((len(names), len(others)))
    state_row = 1
    for q, other in enumerate(others):
        if isinstance(other, EditorState):
            out[:, q] = [computed[name][state_row] for name in names]
            state_row += 1
            continue
        for m, name in enumerate(names):
            if name not in other:
                raise ValueError(f"others[{q}] has no value for {name!r}; a mapping needs every measure at the "
                                 f"page's k and, for a cutoff move, at each k (or pass the query's EditorState)")
            value = other[name]
            if isinstance(value, bool) or not isinstance(value, (int, float, np.number)) or not math.isfinite(value):
                raise ValueError(f"others[{q}][{name!r}] must be a finite number, got {value!r}")
            out[m, q] = float(value)
    return out


def move_table(state: EditorState, measures: Sequence[str], *, gain: Gain = "exponential", k: int | None = None,
               tray: bool = False, editable_grades: bool = False,
               grade_range: tuple[int, int] = DEFAULT_GRADE_RANGE, k_max: int | None = None,
               others: Sequence[Other] = (), query_index: int = 0, tail: Sequence[int] = (),
               extra_judged: Sequence[int] = (), window: int | None = DEFAULT_WINDOW,
               limit: int | None = DEFAULT_LIMIT, relevance_level: int = 1) -> dict:
    """The page's values after every single move of the editor (format: the module docstring).

    Parameters
    ----------
    state : the editor's current state.
    measures : the page's measures, as :mod:`components.engine.measures`
        names; ``@k`` reads the page's cutoff ``k`` and follows a cutoff move
        (``["R@k", "RR", "nDCG@k"]``); a fixed cutoff (``RR@1``) stays.
    gain : for nDCG, DCG and IDCG ("exponential" 2^rel − 1, or "linear" rel).
    k : the page's cutoff (None: no cutoff line, no ``@k`` measure).
    tray, editable_grades, grade_range : the editor's options, as passed to
        ``ranking_editor`` (``editable_grades`` only when grades are shown).
    k_max : the largest k the cutoff line can be dragged to (default the
        list's length, at least k; 0: no cutoff moves).
    others : the page's other queries, each an :class:`EditorState` (the
        engine computes it) or a mapping of measure name to its fixed value
        (every name at the page's k and, for the cutoff moves, at each
        covered k); the table then holds the page's mean over all queries.
    query_index : this editor's place among the page's queries (0 .. len(others)).
    tail : grades of documents ranked below the editor's list and not in
        it (e.g. the rest of an uploaded run); no move touches them.
    extra_judged : judged grades of the query's documents that are not in
        the editor (returned in ``tail`` or not): |relevant| and the ideal
        count them.
    window, limit : the bound (module docstring); None lifts it.
    relevance_level : the lowest grade that counts as relevant for the binary
        measures (trec_eval's -l; nDCG keeps the grades).

    Raises ``ValueError`` for an unknown measure, an ``@k`` measure without
    k, a tray on an editor without one, a grade outside ``grade_range``, a
    mapping in ``others`` missing a value, or a bad bound.

    Examples
    --------
    MRR over three lists, the second edited (its hit at rank 2, the others at 1 and 5):

    >>> lists = [EditorState(("x", "y"), grades={"x": 1}), EditorState(("x", "y"), grades={"y": 1}),
    ...          EditorState(tuple("vwxyz"), grades={"z": 1})]
    >>> t = move_table(lists[1], ["RR"], others=[lists[0], lists[2]], query_index=1)
    >>> y = t["place"]["y"]  # its hit moved to the top: the row of index 0
    >>> t["queries"], round(t["values"][t["current"]][0], 4), round(t["values"][y["rows"][0 - y["from"]]][0], 4)
    (3, 0.5667, 0.7333)
    """
    metrics.check_gain(gain)
    grade_range = check_grade_range(grade_range)
    k = None if k is None else metrics.check_k(k)
    _check_state(state, tray, grade_range)
    window, limit = _check_bound(window, "window"), _check_bound(limit, "limit")
    others = list(others)
    query_index = check_whole(query_index, "query_index", lo=0, hi=len(others),
                              why="(this editor's place among the page's queries)")
    tail_grades, extra = _grades(tail, "tail"), _grades(extra_judged, "extra_judged")
    specs = _specs(measures, k)
    plan = _plan(state, k=k, tray=tray, editable_grades=editable_grades, grade_range=grade_range,
                 k_max=_k_max(state, k, k_max), window=window, limit=limit)
    names = [s.measure.name for s in specs]

    # every candidate in one query set
    ranking = np.concatenate([np.array(state.order_grades(), dtype=np.int64), tail_grades])
    qs = metrics.with_relevance_level(_candidates(state, plan, tail_grades, extra,
                                                  _depth(specs, ranking, relevance_level)), relevance_level)
    computed = evaluate(qs, dict.fromkeys(names), gain)
    own = np.column_stack([computed[name] for name in names])

    # the cutoff moves and the other queries: one small set (this query as it is, then the other states)
    states = [o for o in others if isinstance(o, EditorState)]
    small = metrics.with_relevance_level(metrics.from_rankings(
        [ranking] + [o.order_grades() for o in states],
        [state.judged_grades() + extra.tolist()] + [o.judged_grades() for o in states]), relevance_level)
    at_j = [[s.at(j) for s in specs] for j in plan.cutoffs]
    fixed = evaluate(small, dict.fromkeys(names + [name for row in at_j for name in row]), gain)
    rows = _page_mean(own, _other_values(others, names, fixed)[None], query_index)
    if at_j:
        cut_own = np.array([[fixed[name][0] for name in row] for row in at_j])
        cut_others = np.stack([_other_values(others, row, fixed) for row in at_j])
        rows = np.vstack([rows, _page_mean(cut_own, cut_others, query_index)])
    distinct, index = np.unique(rows, axis=0, return_inverse=True)
    index = index.reshape(-1).tolist()

    place: dict[str, dict[str, int | list[int]]] = {}
    at = 1
    for doc, _, first, last in plan.place:
        place[doc] = {"from": first, "rows": index[at:at + last - first + 1]}
        at += last - first + 1
    to_tray = {doc: index[at + c] for c, (doc, _) in enumerate(plan.to_tray)}
    at += len(plan.to_tray)
    grade: dict[str, dict[str, int]] = {}
    for c, (doc, step, _) in enumerate(plan.grade):
        grade.setdefault(doc, {})[f"{step:+d}"] = index[at + c]
    at += len(plan.grade)
    return {
        "measures": names,
        "follows_k": [s.follows_k for s in specs],
        "k": k,
        "queries": 1 + len(others),
        "values": distinct.tolist(),
        "current": index[0],
        "place": place,
        "tray": to_tray,
        "grade": grade,
        "cutoff": {"from": plan.cutoffs[0] if plan.cutoffs else 1, "rows": index[at:]},
        "window": {"size": window, "limit": limit, "complete": not any(plan.left_out.values()),
                   "left_out": plan.left_out},
    }
