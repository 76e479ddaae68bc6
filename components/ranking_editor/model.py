"""The ranking editor's data model and its validation (no Streamlit import).

An editor shows a pool of :class:`EditorItem` (documents). Its state, an
:class:`EditorState`, splits the pool into

- ``order``: the returned list, top first;
- ``tray``: the documents the system did *not* return (the "Not returned"
  zone; normally judged documents, since an unjudged document that was not
  returned counts for nothing);

and holds ``grades``: the current grade of every judged item, after the
learner's edits. An item without a grade (``None``) is *unjudged*: it is
missing from ``grades`` and counts as grade 0 wherever it is returned.

Placement rule (the same for the first render, for :func:`normalise` and for
``set_editor_state``): every item that the given order and tray leave out goes
to the end of the tray when the editor has one, else to the end of the list,
in the order of ``items``.

Every problem raises ``ValueError`` with a message saying what to fix.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Mapping, Sequence

from components.course import prose
from components.course.scenarios import Doc
from components.engine.checks import check_whole, is_whole
from components.engine.metrics import QuerySet, check_k, from_rankings

DEFAULT_GRADE_RANGE = (0, 2)
TEXT = "editor"  # lessons/text/editor.md: every word the editor shows or announces


EditorItem = Doc  # one document type for the scenarios and the editor: id, title, grade (None = unjudged)


@dataclass(frozen=True)
class EditorState:
    """What the editor holds: the returned order, the tray and the current grades.

    Attributes
    ----------
    order : ids of the returned documents, top first.
    tray : ids of the documents not returned (the "Not returned" zone).
    grades : id -> current grade of every judged item (after edits); an
        unjudged item is absent. Treat it as read-only.

    Examples
    --------
    >>> s = EditorState(order=("b", "a"), tray=("c",), grades={"a": 2, "b": 0, "c": 1})
    >>> s.order_grades(), s.judged_grades()
    ([0, 2], [2, 0, 1])
    >>> s.n_relevant()
    2
    """

    order: tuple[str, ...]
    tray: tuple[str, ...] = ()
    grades: Mapping[str, int] = field(default_factory=dict)

    def order_grades(self) -> list[int]:
        """Grades of the returned documents, top first (0 for an unjudged one)."""
        return [self.grades.get(i, 0) for i in self.order]

    def judged_grades(self) -> list[int]:
        """Every judged grade, returned or not (for |relevant| and the ideal ordering)."""
        return list(self.grades.values())

    def n_relevant(self) -> int:
        """|relevant|: judged items with grade >= 1, returned or not."""
        return sum(1 for g in self.grades.values() if g >= 1)


def query_set(*states: EditorState) -> QuerySet:
    """The editors' lists as the engine sees them, one query per state, in order.

    >>> query_set(EditorState(order=("a", "b"), grades={"a": 0, "b": 1})).grade.tolist()
    [0, 1]
    """
    return from_rankings([s.order_grades() for s in states], [s.judged_grades() for s in states])


@dataclass(frozen=True)
class EditorConfig:
    """The part of an editor's set-up that validation needs (kept between reruns)."""

    ids: tuple[str, ...]
    item_grades: Mapping[str, int]
    tray: bool
    grade_range: tuple[int, int]


def editor_items(docs: Iterable) -> tuple[EditorItem, ...]:
    """Editor items from any documents with ``id``, ``title`` and ``grade`` (e.g. ``scenarios.Doc``).

    Examples
    --------
    >>> from components.course.scenarios import FRAMEWORKS
    >>> editor_items(FRAMEWORKS.docs)[0]
    Doc(id='django', title='Django Guide', grade=2)
    """
    return tuple(d if type(d) is Doc else Doc(str(d.id), str(d.title), d.grade) for d in docs)


def grade_label(grade: int | None, grade_range: tuple[int, int] = DEFAULT_GRADE_RANGE) -> str:
    """The words on a grade badge (colour is never the only cue).

    Examples
    --------
    >>> grade_label(2), grade_label(0), grade_label(None), grade_label(4, (0, 4))
    ('highly relevant', 'not relevant', 'unjudged', 'grade 4')
    """
    if grade is None:
        return prose.text(TEXT, "Unjudged")
    words = _scale_words(*grade_range)
    if grade in words:
        return words[grade]
    return prose.text(TEXT, "Grade negative" if grade < 0 else "Grade other", grade=grade)


def _scale_words(lo: int, hi: int) -> dict[int, str]:
    """Words for the grades of a common scale ("## Grades 0 to 2": one word per grade, lowest first), else none."""
    section = f"Grades {lo} to {hi}"
    if section not in prose.sections(TEXT):
        return {}
    return dict(zip(range(lo, hi + 1), (w.strip() for w in prose.text(TEXT, section).split(","))))


def grade_labels(grade_range: tuple[int, int]) -> dict[int, str]:
    """Badge words for every grade in the range (inclusive)."""
    lo, hi = grade_range
    return {g: grade_label(g, grade_range) for g in range(lo, hi + 1)}


# ----------------------------------------------------------------------------
# Validation
# ----------------------------------------------------------------------------

def check_grade_range(grade_range) -> tuple[int, int]:
    """Return ``grade_range`` as (lo, hi), or raise unless it is two whole numbers with lo <= hi."""
    try:
        lo, hi = grade_range
    except (TypeError, ValueError):
        raise ValueError(f"grade_range must be a pair (lowest, highest), e.g. (0, 2); got {grade_range!r}") from None
    if not (is_whole(lo) and is_whole(hi)) or lo > hi:
        raise ValueError(f"grade_range must be two whole numbers with lowest <= highest, e.g. (0, 2); "
                         f"got {grade_range!r}")
    return int(lo), int(hi)


def check_items(items: Sequence[EditorItem], grade_range: tuple[int, int]) -> tuple[EditorItem, ...]:
    """Return the items as a tuple; raise on a non-item, an empty or repeated id, or a grade outside the range."""
    items = tuple(items)
    seen: set[str] = set()
    for item in items:
        if not isinstance(item, EditorItem):
            raise ValueError(f"items must be EditorItem objects (see editor_items()), got {item!r}")
        if not isinstance(item.id, str) or not item.id:
            raise ValueError(f"every item needs a non-empty string id, got {item.id!r}")
        if item.id in seen:
            raise ValueError(f"item ids must be unique: {item.id!r} appears more than once")
        seen.add(item.id)
        if item.grade is not None:
            check_grade(item.id, item.grade, grade_range)
    return items


def check_grade(item_id: str, grade, grade_range: tuple[int, int]) -> int:
    """Return ``grade`` as an int, or raise unless it is a whole number inside ``grade_range``."""
    lo, hi = grade_range
    return check_whole(grade, f"the grade of {item_id!r}", lo, hi, why="(grade_range)")


def check_editor_k(k) -> int | None:
    """Return k (None = no cutoff line), or raise unless it is a whole number >= 1."""
    return None if k is None else check_k(k)


def _check_ids(ids: Sequence[str], known: Iterable[str], what: str) -> tuple[str, ...]:
    """Return ``ids`` as a tuple; raise on a string instead of a list, a repeat or an unknown id."""
    if isinstance(ids, str):
        raise ValueError(f"{what} must be a list of ids, not the single string {ids!r}")
    ids = tuple(ids)
    known = set(known)
    unknown = [i for i in ids if i not in known]
    if unknown:
        raise ValueError(f"{what} names unknown id {unknown[0]!r}; the editor's items are {sorted(known)}")
    repeated = sorted({i for i in ids if ids.count(i) > 1})
    if repeated:
        raise ValueError(f"{what} lists {repeated[0]!r} more than once")
    return ids


def config_for(items: Sequence[EditorItem], tray: bool, grade_range: tuple[int, int]) -> EditorConfig:
    """The validation set-up of an editor (items already checked)."""
    return EditorConfig(
        ids=tuple(i.id for i in items),
        item_grades={i.id: int(i.grade) for i in items if i.grade is not None},
        tray=bool(tray),
        grade_range=grade_range,
    )


def initial_state(items: Sequence[EditorItem], default_order: Sequence[str], *, tray: bool = False,
                  grade_range: tuple[int, int] = DEFAULT_GRADE_RANGE) -> EditorState:
    """The state an editor of these items starts in (what its first render holds), without drawing it.

    A page whose numbers span several editors needs the later ones' states
    before they are drawn (the scoreboard of the first holds the page's mean).
    """
    return normalise(config_for(check_items(items, grade_range), tray, grade_range), default_order)


def normalise(config: EditorConfig, order: Sequence[str], tray: Sequence[str] | None = None,
              grades: Mapping[str, int] | None = None,
              base_grades: Mapping[str, int] | None = None) -> EditorState:
    """A complete, checked :class:`EditorState` for ``config``.

    ``order`` and ``tray`` may leave items out: they are placed by the module's
    placement rule (end of the tray, or end of the list without a tray).
    ``grades`` overrides ids of ``base_grades`` (default: the items' own
    grades); an override may also grade an unjudged item.

    Raises ``ValueError`` for an unknown or repeated id, an id both in the
    order and in the tray, a tray on an editor without one, or a grade
    outside the range.

    Examples
    --------
    >>> cfg = config_for(check_items([EditorItem("a", "A", 1), EditorItem("b", "B", 0),
    ...                               EditorItem("c", "C")], (0, 2)), tray=True, grade_range=(0, 2))
    >>> normalise(cfg, ["b"])
    EditorState(order=('b',), tray=('a', 'c'), grades={'a': 1, 'b': 0})
    >>> normalise(cfg, ["b", "a"], grades={"c": 2}).grades
    {'a': 1, 'b': 0, 'c': 2}
    """
    order = _check_ids(order, config.ids, "the order")
    tray_ids = _check_ids(() if tray is None else tray, config.ids, "the tray")
    both = [i for i in tray_ids if i in order]
    if both:
        raise ValueError(f"{both[0]!r} cannot be both in the order and in the tray")
    if tray_ids and not config.tray:
        raise ValueError("this editor has no tray (call ranking_editor with tray=True), "
                         f"yet the tray lists {list(tray_ids)}")
    placed = set(order) | set(tray_ids)
    rest = tuple(i for i in config.ids if i not in placed)
    if config.tray:
        tray_ids += rest
    else:
        order += rest
    merged = dict(config.item_grades if base_grades is None else base_grades)
    for item_id, grade in (grades or {}).items():
        _check_ids([item_id], config.ids, "the grades")
        merged[item_id] = grade
    checked = {i: check_grade(i, merged[i], config.grade_range) for i in config.ids if i in merged}
    return EditorState(order=order, tray=tray_ids, grades=checked)


def state_from_payload(config: EditorConfig, payload: Mapping) -> EditorState:
    """The state the browser sent after a move, checked as strictly as a caller's.

    The browser always sends every item (order + tray = all items); anything
    else is rejected with ``ValueError`` so a stale message cannot drop items.
    """
    if not isinstance(payload, Mapping):
        raise ValueError(f"the editor sent {payload!r}, not a mapping")
    order, tray, grades = payload.get("order"), payload.get("tray") or [], payload.get("grades") or {}
    if not isinstance(order, list) or not isinstance(tray, list) or not isinstance(grades, Mapping):
        raise ValueError("the editor's message must hold lists 'order' and 'tray' and a mapping 'grades'")
    if not all(isinstance(i, str) for i in order + tray) or sorted(order + tray) != sorted(config.ids):
        raise ValueError("the editor's message must place every item exactly once")
    return normalise(config, order, tray, grades=grades, base_grades={})
