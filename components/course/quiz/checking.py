"""Reading a learner's answer (numbers, fractions, percentages) and checking it against a question."""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Iterable, Sequence

import numpy as np

from components.course.quiz.model import (
    FEEDBACK_CHOICE_PARTIAL,
    FEEDBACK_CHOICE_WRONG,
    FEEDBACK_CORRECT,
    FEEDBACK_NOT_A_NUMBER,
    FEEDBACK_ORDER_INVALID,
    FEEDBACK_ORDER_TOO_SHORT,
    FEEDBACK_PERCENT_SIGN,
    FEEDBACK_PICK,
    FEEDBACK_WRONG,
    MAX_INPUT_LENGTH,
    ChoiceQuestion,
    NumericQuestion,
    OrderingQuestion,
    Outcome,
    Question,
    values_of,
    within,
)
from components.engine.formatting import fmt

# ----------------------------------------------------------------------------
# Parsing learner input
# ----------------------------------------------------------------------------

_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d{1,4})?", re.ASCII)
_APPROX_PREFIXES = ("≈", "~", "=")


@dataclass(frozen=True)
class Parsed:
    """A parsed answer: ``value`` is a finite float, or None with ``error`` naming the feedback section."""

    value: float | None
    error: str | None = None


def _plain_number(part: str) -> float | None:
    if part.count(",") > 1 or ("," in part and "." in part):
        return None
    part = part.replace(",", ".")
    if not _NUMBER.fullmatch(part):
        return None
    value = float(part)
    return value if math.isfinite(value) else None


def parse_answer(text) -> Parsed:
    """Read a typed number: ``0.75``, ``0,75``, ``3/4``, ``75%``, ``≈ 0.53``; spaces anywhere are ignored.

    Never raises: anything that is not a finite number (empty input, words,
    ``nan``, ``inf``, ``1/0``, ``1e9999``, very long input) gives
    ``Parsed(None, FEEDBACK_NOT_A_NUMBER)``.

    Examples
    --------
    >>> parse_answer("3/4").value, parse_answer(" 75 % ").value, parse_answer("0,75").value
    (0.75, 0.75, 0.75)
    >>> parse_answer("1/0")
    Parsed(value=None, error='feedback not a number')
    """
    invalid = Parsed(None, FEEDBACK_NOT_A_NUMBER)
    if not isinstance(text, str) or len(text) > MAX_INPUT_LENGTH:
        return invalid
    s = "".join(text.split())
    for prefix in _APPROX_PREFIXES:
        if s.startswith(prefix):
            s = s[len(prefix):]
            break
    percent = s.endswith("%")
    if percent:
        s = s[:-1]
    parts = s.split("/")
    if not s or len(parts) > 2:
        return invalid
    numbers = [n for n in (_plain_number(p) for p in parts) if n is not None]
    if len(numbers) != len(parts):
        return invalid
    value = numbers[0]
    if len(numbers) == 2:
        if numbers[1] == 0:
            return invalid
        value = numbers[0] / numbers[1]
    if percent:
        value /= 100
    if not math.isfinite(value):
        return invalid
    return Parsed(float(value))


# ----------------------------------------------------------------------------
# Checking
# ----------------------------------------------------------------------------

def check_numeric(question: NumericQuestion, text) -> Outcome:
    """Check a typed answer: correct, a known trap, a percentage without its sign, or wrong."""
    parsed = parse_answer(text)
    if parsed.value is None:
        return Outcome("invalid", parsed.error or FEEDBACK_NOT_A_NUMBER)
    value = parsed.value
    if within(value, question.answer, question.scale):
        return Outcome("correct", FEEDBACK_CORRECT)
    for trap in question.traps:
        if within(value, trap.value, question.scale):
            return Outcome("trap", f"{question.id} trap {trap.name}")
    if question.scale == "unit" and 1 < value <= 100 and within(value / 100, question.answer):
        return Outcome("wrong", FEEDBACK_PERCENT_SIGN, values_of(typed=f"{value:g}"))
    return Outcome("wrong", FEEDBACK_WRONG)


def check_choice(question: ChoiceQuestion, selected: Iterable[str] | None) -> Outcome:
    """Check picked options (unknown option ids are ignored)."""
    picked = {s for s in (selected or ()) if s in question.options}
    if not picked:
        return Outcome("invalid", FEEDBACK_PICK)
    if picked == question.correct:
        return Outcome("correct", FEEDBACK_CORRECT)
    if picked < question.correct:
        return Outcome("wrong", FEEDBACK_CHOICE_PARTIAL)
    return Outcome("wrong", FEEDBACK_CHOICE_WRONG)


def check_ordering(question: OrderingQuestion, order: Sequence[str] | None) -> Outcome:
    """Check an order of the pool: any order reaching the best nDCG@k is correct.

    At least k documents must be placed; documents left out sit below the k
    placed ones, where nDCG@k does not look.
    """
    order = list(order or ())
    k = question.k
    if any(not isinstance(i, str) or i not in question.query.by_id for i in order) or len(set(order)) != len(order):
        return Outcome("invalid", FEEDBACK_ORDER_INVALID)
    if len(order) < k:
        return Outcome("invalid", FEEDBACK_ORDER_TOO_SHORT, values_of(k=k, placed=len(order)))
    value, best = question.ndcg(order), question.best
    values = values_of(k=k, ndcg=fmt(value), best=fmt(best))
    if value >= best - 1e-12:
        return Outcome("correct", FEEDBACK_CORRECT, values)
    top = question.query.grades(order[:k])
    rest = question.query.grades([i for i in question.start if i not in order[:k]])
    best_left = int(rest.max()) if rest.size else 0
    if np.any(top <= 0) and best_left >= 1:
        trap = "irrelevant on top"
    elif int(top.min()) < best_left:
        trap = "lower grade on top"
    else:
        trap = "order inside top k"
    return Outcome("trap", f"ordering trap {trap}", values)


def check(question: Question, answer) -> Outcome | None:
    """Check any graded question's answer (None for a warm-up, which is not graded)."""
    if isinstance(question, NumericQuestion):
        return check_numeric(question, answer)
    if isinstance(question, ChoiceQuestion):
        return check_choice(question, answer)
    if isinstance(question, OrderingQuestion):
        return check_ordering(question, answer)
    return None
