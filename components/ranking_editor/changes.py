"""What changed after a move: which metrics moved, and by how much (no Streamlit import).

Generic on purpose: it compares two ``{metric name: value}`` dicts, so a
lesson passes whatever it shows (``{"Recall@5": 0.4, "RR": 1.0}``) before and
after the learner's move, and builds its "what changed" caption from the
result (the sentence templates live with the lesson's prose).

A metric counts as *moved* when its value as displayed (rounded to
``decimals``, 3 by default, the app's display precision) differs, so a
floating-point wobble never reads as a change.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping

from components.course import prose
from components.engine.formatting import fmt, signed

TEXT = "editor"  # lessons/text/editor.md holds the sentences


@dataclass(frozen=True)
class MetricChange:
    """One metric before and after a move.

    ``delta`` is ``after − before`` (nan when either is nan); ``moved`` says
    whether the displayed value changed.
    """

    name: str
    before: float
    after: float
    delta: float
    moved: bool

    @property
    def direction(self) -> str:
        """'up', 'down' or 'same' (the displayed value; 'changed' when a value is undefined)."""
        if not self.moved:
            return "same"
        if math.isnan(self.delta):
            return "changed"
        return "up" if self.delta > 0 else "down"

    def text(self) -> str:
        """The change in figures, as the app displays numbers.

        Examples
        --------
        >>> describe_change({"RR": 0.5}, {"RR": 1 / 3})[0].text()
        'RR 0.500 → 0.333 (−0.167)'
        >>> describe_change({"Recall@5": 0.4}, {"Recall@5": 0.4})[0].text()
        'Recall@5 0.400 (unchanged)'
        """
        if not self.moved:
            return prose.text(TEXT, "Change unchanged", name=self.name, after=fmt(self.after))
        if math.isnan(self.delta):
            return prose.text(TEXT, "Change undefined", name=self.name, before=fmt(self.before), after=fmt(self.after))
        return prose.text(TEXT, "Change moved", name=self.name, before=fmt(self.before), after=fmt(self.after),
                          delta=signed(self.delta))


def _displayed(value: float, decimals: int) -> float | None:
    """The value as shown (rounded), None for nan (so nan equals nan)."""
    return None if math.isnan(value) else round(value, decimals)


def describe_change(before: Mapping[str, float], after: Mapping[str, float], *,
                    decimals: int = 3) -> list[MetricChange]:
    """Compare two sets of metric values, metric by metric, in the order of ``after``.

    Returns one :class:`MetricChange` per metric, moved or not, so a caption
    can say both what moved and what stayed put (Recall@k does not see order
    inside the top k). Filter with ``[c for c in changes if c.moved]``.

    Raises ``ValueError`` when the two dicts do not name the same metrics
    (compare values computed at the same k) or a value is not a number.

    Examples
    --------
    Moving the hit from position 2 to 3: RR falls, Recall@5 stays.

    >>> changes = describe_change({"Recall@5": 0.4, "RR": 0.5}, {"Recall@5": 0.4, "RR": 1 / 3})
    >>> [(c.name, c.moved, c.direction, round(c.delta, 3)) for c in changes]
    [('Recall@5', False, 'same', 0.0), ('RR', True, 'down', -0.167)]
    """
    if set(before) != set(after):
        missing = sorted(set(before) ^ set(after))
        raise ValueError(f"before and after must name the same metrics (compare values at the same k); "
                         f"only one side has {missing}")
    changes = []
    for name, new in after.items():
        old = before[name]
        try:
            old, new = float(old), float(new)
        except (TypeError, ValueError):
            raise ValueError(f"the values of {name!r} must be numbers, got {before[name]!r} and {after[name]!r}") from None
        delta = new - old
        moved = _displayed(old, decimals) != _displayed(new, decimals)
        changes.append(MetricChange(name, old, new, delta, moved))
    return changes
