"""The editor's live scoreboard: the page's metrics in the editor's own header, previewed during a move.

A page passes a :class:`Scoreboard` to ``ranking_editor``; the editor shows
its measures above the list, in view while any row is, and during a drag or
a key move the values the list would have *if dropped here*. Every value is
the engine's (:func:`components.ranking_editor.moves.move_table`) and every
displayed number is formatted here, by the app's formatter: the browser
only looks rows up, so the preview and the cards below can never disagree.
No Streamlit import here.

The payload (``data.score`` of the editor)::

    {"labels": ["Recall@{k}", "RR", "nDCG@{k}"],   # {k} is the previewed cutoff
     "hidden": false,                              # true: "?" everywhere (predict first), no table sent
     "shown":  [["0.400", "1.000", "0.878"], ...], # one row per distinct value row of the table
     "deltas": [["", "", ""], ["−0.100", "", "−0.056"], ...],  # row − current, "" where the display is the same
     "table":  {... moves.move_table's place, tray, grade, cutoff, current, window, k ...}}
"""
from __future__ import annotations

import dataclasses
import functools
import hashlib
from dataclasses import dataclass, field
from typing import Hashable, Sequence

import numpy as np

from components.engine.formatting import change, fmt
from components.engine.metrics import Gain
from components.ranking_editor.model import EditorState
from components.ranking_editor.moves import Other, move_table

TABLE_KEYS = ("current", "place", "tray", "grade", "cutoff", "window", "k")  # what the browser reads
SHARED_PAYLOADS = 256  # payloads kept for every session to reuse (a class following one instructor shows one state)


@dataclass(frozen=True)
class Scoreboard:
    """What the editor's scoreboard shows: the page's measures, under the page's labels.

    ``measures`` are engine names with ``@k`` for the page's cutoff
    (``("R@k", "RR", "nDCG@k")``); ``labels`` the page's names for them, with
    ``{k}`` where the cutoff goes (``("Recall@{k}", "RR", "nDCG@{k}")``).
    ``others`` and ``query_index`` make the values page-level means over
    several editors (:func:`~components.ranking_editor.moves.move_table`).
    ``tail`` and ``extra_judged`` are for a list cut from a longer run: the
    grades ranked below it, and the judged grades of documents not in it.
    ``hidden`` shows "?" and previews nothing (the page is hiding its numbers).
    ``gains`` gives a measure its own gain (one per measure; default ``gain``
    for all), e.g. nDCG@k in both gains side by side. ``relevance_level`` is
    the lowest grade that counts as relevant for the binary measures
    (trec_eval's -l; nDCG keeps the grades). ``own`` marks the measures that
    are this query's own value even on a board with ``others`` (one flag per
    measure; default none): MRR's lists show their own RR beside the page's MRR.
    ``extra`` marks the measures that count ``extra_judged`` (one flag per
    measure; default all): one list's IDCG from every judged page beside its
    IDCG from the returned pages only.
    """

    measures: Sequence[str]
    labels: Sequence[str]
    gain: Gain = "exponential"
    others: Sequence[Other] = field(default=())
    query_index: int = 0
    tail: Sequence[int] = field(default=())
    extra_judged: Sequence[int] = field(default=())
    hidden: bool = False
    gains: Sequence[Gain] | None = None
    relevance_level: int = 1
    own: Sequence[bool] | None = None
    extra: Sequence[bool] | None = None

    def __post_init__(self):
        if not self.measures or len(self.measures) != len(self.labels):
            raise ValueError("a scoreboard needs at least one measure, and one label per measure")
        if self.gains is not None and len(self.gains) != len(self.measures):
            raise ValueError("gains, when given, name one gain per measure")
        for flags, name in ((self.own, "own"), (self.extra, "extra")):
            if flags is not None and len(flags) != len(self.measures):
                raise ValueError(f"{name}, when given, has one flag per measure")

    def groups(self) -> dict[tuple[Gain, bool, bool], list[int]]:
        """The measures' positions grouped by (gain, own value, counts extra_judged), in order of first use: one
        move table each.

        >>> Scoreboard(("nDCG@k", "nDCG@k", "RR"), ("e", "l", "RR"), gains=("exponential", "linear", "exponential"),
        ...            own=(False, False, True)).groups()
        {('exponential', False, True): [0], ('linear', False, True): [1], ('exponential', True, True): [2]}
        >>> Scoreboard(("IDCG@k", "IDCG@k"), ("all", "returned"), extra=(True, False)).groups()
        {('exponential', False, True): [0], ('exponential', False, False): [1]}
        """
        n = len(self.measures)
        out: dict[tuple[Gain, bool, bool], list[int]] = {}
        flags = zip(self.gains or [self.gain] * n, self.own or [False] * n, self.extra or [True] * n)
        for i, (g, own, extra) in enumerate(flags):
            out.setdefault((g, bool(own), bool(extra)), []).append(i)
        return out


def _shown(values: Sequence[float]) -> list[str]:
    return [fmt(v) for v in values]


def _deltas(values: Sequence[float], current: Sequence[float]) -> list[str]:
    """``value − current`` as the app writes a change, "" where the displayed values are the same."""
    return [change(v, c) for v, c in zip(values, current)]


def merge_tables(tables: Sequence[dict], columns: Sequence[Sequence[int]]) -> dict:
    """One move table from several of the same editor state and options (one per gain).

    Table t holds the measures at positions ``columns[t]`` of the merged rows;
    every move (the same in each table, as the plan is the same) gets the row
    that joins the tables' rows for it, distinct rows kept once.

    Examples
    --------
    >>> a = {"values": [[0.5], [1.0]], "current": 0, "place": {"x": {"from": 0, "rows": [1, 0]}}, "tray": {},
    ...      "grade": {}, "cutoff": {"from": 1, "rows": []}}
    >>> b = {**a, "values": [[2.0], [3.0]], "place": {"x": {"from": 0, "rows": [1, 1]}}}
    >>> m = merge_tables([a, b], [[1], [0]])
    >>> m["values"], m["current"], m["place"]
    ([[2.0, 0.5], [3.0, 1.0], [3.0, 0.5]], 0, {'x': {'from': 0, 'rows': [1, 2]}})
    """
    width = sum(len(c) for c in columns)
    index: dict[tuple[int, ...], int] = {}
    values: list[list[float]] = []

    def row(*rows: int) -> int:
        if rows not in index:
            joined = [0.0] * width
            for t, r in enumerate(rows):
                for column, value in zip(columns[t], tables[t]["values"][r]):
                    joined[column] = value
            index[rows] = len(values)
            values.append(joined)
        return index[rows]

    first = tables[0]
    names, follows = [""] * width, [False] * width
    for t, where in zip(tables, columns):
        for column, name, follow in zip(where, t.get("measures", []), t.get("follows_k", [])):
            names[column], follows[column] = name, follow
    return {**first, "values": values, "measures": names, "follows_k": follows,
            "current": row(*(t["current"] for t in tables)),
            "place": {doc: {"from": entry["from"],
                            "rows": [row(*r) for r in zip(*(t["place"][doc]["rows"] for t in tables))]}
                      for doc, entry in first["place"].items()},
            "tray": {doc: row(*(t["tray"][doc] for t in tables)) for doc in first["tray"]},
            "grade": {doc: {step: row(*(t["grade"][doc][step] for t in tables)) for step in steps}
                      for doc, steps in first["grade"].items()},
            "cutoff": {"from": first["cutoff"]["from"],
                       "rows": [row(*r) for r in zip(*(t["cutoff"]["rows"] for t in tables))]}}


def payload(board: Scoreboard, state: EditorState, *, k: int | None, tray: bool, editable_grades: bool,
            grade_range: tuple[int, int]) -> dict:
    """The scoreboard's part of the editor's data (format: the module docstring).

    Shared by every session: the :data:`SHARED_PAYLOADS` most recent, by their inputs' exact value
    (:func:`input_key`), since most runs show an editor unchanged (a move elsewhere on the page) and a live
    class's followers all show the instructor's state. The dict returned is shared: never change it.

    Examples
    --------
    >>> from components.ranking_editor.model import EditorState
    >>> state = EditorState(order=("a", "b"), tray=(), grades={"a": 0, "b": 1})
    >>> score = payload(Scoreboard(("RR",), ("RR",)), state, k=None, tray=False, editable_grades=False,
    ...                 grade_range=(0, 2))
    >>> current = score["table"]["current"]
    >>> score["shown"][current], score["table"]["place"]["b"]
    (['0.500'], {'from': 0, 'rows': [1, 0]})
    >>> score["shown"][1], score["deltas"][1]
    (['1.000'], ['+0.500'])
    """
    return _shared_payload(ByValue((board, state, k, tray, editable_grades, grade_range)))


class ByValue:
    """A value that hashes and compares by :func:`input_key`, so that ``functools.lru_cache`` can keep results of
    unhashable inputs (dicts, arrays) by their exact value."""

    def __init__(self, value) -> None:
        self.value, self.key = value, input_key(value)

    def __hash__(self) -> int:
        return hash(self.key)

    def __eq__(self, other) -> bool:
        return isinstance(other, ByValue) and self.key == other.key


@functools.lru_cache(maxsize=SHARED_PAYLOADS)
def _shared_payload(inputs: ByValue) -> dict:
    board, state, k, tray, editable_grades, grade_range = inputs.value
    return _payload(board, state, k=k, tray=tray, editable_grades=editable_grades, grade_range=grade_range)


def input_key(value) -> Hashable:
    """An exact, hashable stand-in for ``value``: dataclasses by their fields, mappings by their sorted items,
    sequences item by item, NumPy arrays by dtype, shape and a digest of their bytes (a repr would cut them).

    >>> input_key(np.array([1, 2])) == input_key(np.array([1, 2])), input_key({"b": 1, "a": 2})
    (True, ('dict', (('a', 2), ('b', 1))))
    """
    if isinstance(value, np.ndarray):
        return "array", value.dtype.str, value.shape, hashlib.sha1(np.ascontiguousarray(value).tobytes()).digest()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return type(value).__name__, tuple(input_key(getattr(value, f.name)) for f in dataclasses.fields(value))
    if isinstance(value, dict) or (hasattr(value, "keys") and hasattr(value, "items")):
        return "dict", tuple(sorted((str(k), input_key(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return "seq", tuple(input_key(v) for v in value)
    if isinstance(value, np.generic):
        return value.item()
    hash(value)  # anything else must be a plain value (str, int, float, bool, None): a TypeError otherwise
    return value


def _payload(board: Scoreboard, state: EditorState, *, k: int | None, tray: bool, editable_grades: bool,
             grade_range: tuple[int, int]) -> dict:
    labels = [str(label) for label in board.labels]
    if board.hidden:
        return {"labels": labels, "hidden": True}
    groups = board.groups()
    tables = [move_table(state, [board.measures[i] for i in where], gain=g, k=k, tray=tray,
                         editable_grades=editable_grades, grade_range=grade_range,
                         others=() if own else board.others, query_index=0 if own else board.query_index,
                         tail=board.tail, extra_judged=board.extra_judged if extra else (),
                         relevance_level=board.relevance_level)
              for (g, own, extra), where in groups.items()]
    table = tables[0] if len(tables) == 1 else merge_tables(tables, list(groups.values()))
    rows: Sequence[Sequence[float]] = table["values"]
    current = rows[table["current"]]
    return {"labels": labels, "hidden": False, "shown": [_shown(row) for row in rows],
            "deltas": [_deltas(row, current) for row in rows],
            "table": {name: table[name] for name in TABLE_KEYS}}

