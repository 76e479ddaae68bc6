"""The ranking editor's single moves, made the plain way: what the tests check the move table against.

components/ranking_editor/moves.py builds the table of the page's values
after every single move (:func:`components.ranking_editor.moves.move_table`;
its module docstring says what each kind of move does and how the table is
laid out). Here, for the tests: :func:`editor_moves` lists the moves the
table holds as :class:`Move` values, :func:`apply_move` makes one on an
:class:`EditorState` (the plain, obviously right way; the tests compare the
table with it), and :func:`look_up` reads a move's values from a table, as
the browser does.

Examples
--------
>>> from components.ranking_editor.moves import move_table
>>> s = EditorState(order=("a", "b", "c"), tray=("d",), grades={"a": 0, "b": 1, "c": 0, "d": 1})
>>> t = move_table(s, ["R@k", "RR"], k=1, tray=True)
>>> look_up(t, Move("place", "b", 0)), look_up(t, Move("place", "d", 3)), look_up(t, Move("tray", "b"))
([0.5, 1.0], [0.0, 0.5], [0.0, 0.0])
>>> look_up(t, Move("cutoff", to=2))
[0.5, 0.5]
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Mapping

from components.engine import metrics
from components.ranking_editor import moves
from components.ranking_editor.model import DEFAULT_GRADE_RANGE, EditorState, check_grade_range
from components.ranking_editor.moves import DEFAULT_LIMIT, DEFAULT_WINDOW, KINDS, grade_steps

MoveKind = Literal["place", "tray", "grade", "cutoff"]


@dataclass(frozen=True)
class Move:
    """One single move of the editor (see moves.py's module docstring for what each kind does).

    Attributes
    ----------
    kind : ``"place"``, ``"tray"``, ``"grade"`` or ``"cutoff"``.
    doc : the moved document's id (None for a cutoff move).
    to : place: the list index the document lands on (0 = top); grade: the
        step, −1 or +1; cutoff: the new k; tray: None.
    """

    kind: MoveKind
    doc: str | None = None
    to: int | None = None


def editor_moves(state: EditorState, *, k: int | None = None, tray: bool = False, editable_grades: bool = False,
                 grade_range: tuple[int, int] = DEFAULT_GRADE_RANGE, k_max: int | None = None,
                 window: int | None = DEFAULT_WINDOW, limit: int | None = DEFAULT_LIMIT) -> tuple[Move, ...]:
    """Every move the table of :func:`~components.ranking_editor.moves.move_table` holds, with the same options, in
    the table's order.

    ``window=None, limit=None`` lists every single move of the editor. A
    place move to the document's own index is listed (it changes nothing).

    Examples
    --------
    >>> s = EditorState(order=("a", "b"), tray=("c",), grades={"a": 1, "c": 0})
    >>> [(m.kind, m.doc, m.to) for m in editor_moves(s, tray=True, editable_grades=True, grade_range=(0, 1))]
    ... # doctest: +NORMALIZE_WHITESPACE
    [('place', 'a', 0), ('place', 'a', 1), ('place', 'b', 0), ('place', 'b', 1),
     ('place', 'c', 0), ('place', 'c', 1), ('place', 'c', 2), ('tray', 'a', None), ('tray', 'b', None),
     ('grade', 'a', -1), ('grade', 'b', -1), ('grade', 'b', 1), ('grade', 'c', 1)]
    """
    grade_range = check_grade_range(grade_range)
    k = None if k is None else metrics.check_k(k)
    moves._check_state(state, tray, grade_range)
    plan = moves._plan(state, k=k, tray=tray, editable_grades=editable_grades, grade_range=grade_range,
                       k_max=moves._k_max(state, k, k_max), window=moves._check_bound(window, "window"),
                       limit=moves._check_bound(limit, "limit"))
    return (tuple(Move("place", doc, j) for doc, _, first, last in plan.place for j in range(first, last + 1))
            + tuple(Move("tray", doc) for doc, _ in plan.to_tray)
            + tuple(Move("grade", doc, step) for doc, step, _ in plan.grade)
            + tuple(Move("cutoff", None, j) for j in plan.cutoffs))


def apply_move(state: EditorState, move: Move, *, k: int | None = None,
               grade_range: tuple[int, int] = DEFAULT_GRADE_RANGE) -> tuple[EditorState, int | None]:
    """(state, k) after ``move``, made the plain way, as the editor makes it.

    Examples
    --------
    >>> s = EditorState(order=("a", "b", "c"), tray=("d",), grades={"a": 1, "d": 2})
    >>> apply_move(s, Move("place", "a", 2))[0].order, apply_move(s, Move("place", "d", 1))[0].order
    (('b', 'c', 'a'), ('a', 'd', 'b', 'c'))
    >>> apply_move(s, Move("tray", "b"))[0].tray, apply_move(s, Move("grade", "c", 1))[0].grades
    (('d', 'b'), {'a': 1, 'd': 2, 'c': 1})
    >>> apply_move(s, Move("cutoff", to=2), k=3)[1]
    2
    """
    order, tray_ids, grades = list(state.order), list(state.tray), dict(state.grades)
    if move.kind == "cutoff":
        return state, metrics.check_k(move.to)
    if move.doc not in order and move.doc not in tray_ids:
        raise ValueError(f"{move.doc!r} is neither in the list nor in the tray")
    if move.kind == "place":
        if not isinstance(move.to, int):
            raise ValueError(f"a place move needs the target index, got {move.to!r}")
        (order if move.doc in order else tray_ids).remove(move.doc)
        order.insert(max(0, min(move.to, len(order))), move.doc)
    elif move.kind == "tray":
        if move.doc not in order:
            raise ValueError(f"{move.doc!r} is already in the tray")
        order.remove(move.doc)
        tray_ids.append(move.doc)
    elif move.kind == "grade":
        steps = dict(grade_steps(grades.get(move.doc), grade_range))
        if move.to not in steps:
            raise ValueError(f"no grade step {move.to!r} for {move.doc!r} in {grade_range}")
        grades[move.doc] = steps[move.to]
    else:
        raise ValueError(f"unknown move kind {move.kind!r}; the kinds are {KINDS}")
    return EditorState(order=tuple(order), tray=tuple(tray_ids), grades=grades), k


def look_up(table: Mapping, move: Move) -> list[float] | None:
    """The values of ``move`` in a :func:`~components.ranking_editor.moves.move_table` table, as the browser reads
    them (None: left out); the reading is the one moves.py's module docstring gives, in JavaScript.

    A cutoff move to a k the table does not cover, or a grade step the editor
    disables, is None too.
    """
    row: int | None = None
    if move.kind == "place":
        entry = table["place"].get(move.doc)
        if entry is not None and move.to is not None and 0 <= move.to - entry["from"] < len(entry["rows"]):
            row = entry["rows"][move.to - entry["from"]]
    elif move.kind == "tray":
        row = table["tray"].get(move.doc)
    elif move.kind == "grade":
        row = table["grade"].get(move.doc, {}).get(f"{move.to:+d}")
    elif move.kind == "cutoff":
        entry = table["cutoff"]
        if move.to is not None and 0 <= move.to - entry["from"] < len(entry["rows"]):
            row = entry["rows"][move.to - entry["from"]]
    else:
        raise ValueError(f"unknown move kind {move.kind!r}; the kinds are {KINDS}")
    return None if row is None else list(table["values"][row])
