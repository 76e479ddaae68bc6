"""The question types, their outcome, and the names of the shared prose sections (pure data)."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Iterable, Literal, Mapping, Sequence, Union

import numpy as np

from components.course import scenarios as sc
from components.engine import metrics

# ----------------------------------------------------------------------------
# Lessons and shared text sections
# ----------------------------------------------------------------------------

LESSONS: tuple[str, ...] = ("accuracy", "recall", "mrr", "ap", "ndcg", "four_queries", "fusion", "choosing")

UNIT_TOLERANCE = 0.005  # absolute, for values in [0, 1]
RELATIVE_TOLERANCE = 0.005  # relative (0.5%), for values off the [0, 1] scale: DCG, a fused rrf score near 0.03
MAX_INPUT_LENGTH = 64  # longer input is not a number anybody means


def within(value: float, target: float, scale: str = "unit") -> bool:
    """|value − target| within the tolerance (±0.005, or ±0.5% of target on the "relative" scale), edges included.

    Examples
    --------
    >>> within(0.755, 0.75), within(0.7551, 0.75), within(3.409, 3.393, "relative")
    (True, False, True)
    """
    tolerance = UNIT_TOLERANCE if scale == "unit" else RELATIVE_TOLERANCE * abs(target)
    return abs(value - target) <= tolerance + 1e-9



# Shared sections of lessons/text/questions.md (not tied to one question).
FEEDBACK_CORRECT = "feedback correct"
FEEDBACK_WRONG = "feedback wrong"
FEEDBACK_NOT_A_NUMBER = "feedback not a number"
FEEDBACK_PERCENT_SIGN = "feedback percent sign"
FEEDBACK_RECORDED = "feedback recorded"
FEEDBACK_HIDDEN = "feedback hidden"
FEEDBACK_PICK = "feedback pick an option"
FEEDBACK_CHOICE_WRONG = "feedback choice wrong"
FEEDBACK_CHOICE_PARTIAL = "feedback choice partial"
FEEDBACK_ORDER_TOO_SHORT = "feedback order too short"
FEEDBACK_ORDER_INVALID = "feedback order invalid"
ORDERING_TRAPS = ("irrelevant on top", "lower grade on top", "order inside top k")
GENERATED_MISSING = "generated missing"
GENERATED_NONE_MISSING = "generated none missing"
GENERATED_NOTHING_RELEVANT = "generated nothing relevant"
GENERATED_LINK_SEED = "generated link seed"  # the note on a link whose seed names no exercise
# The progress sidebar's texts.
PROGRESS_TEXTS = ("progress heading", "progress total", "progress reset", "progress reset confirm",
                  "progress privacy")

# The question card's own labels: the kind badges, the solved mark, the table, the answer widgets, the buttons.
CARD_TEXTS = ("card kind warm-up", "card kind exercise", "card kind number", "card kind pick all",
              "card kind pick one", "card kind order", "card solved", "card table position", "card table grade",
              "card table query", "card order label", "card answer", "card answer placeholder", "card check",
              "card reveal", "card reveal one", "card reveal one help", "card hint", "card hint button",
              "card method button", "card solution button", "card retry")

SHARED_TEXTS: tuple[str, ...] = (
    FEEDBACK_CORRECT, FEEDBACK_WRONG, FEEDBACK_NOT_A_NUMBER, FEEDBACK_PERCENT_SIGN,
    FEEDBACK_RECORDED, FEEDBACK_HIDDEN, FEEDBACK_PICK, FEEDBACK_CHOICE_WRONG, FEEDBACK_CHOICE_PARTIAL,
    FEEDBACK_ORDER_TOO_SHORT, FEEDBACK_ORDER_INVALID,
    *(f"ordering trap {name}" for name in ORDERING_TRAPS),
    GENERATED_MISSING, GENERATED_NONE_MISSING, GENERATED_NOTHING_RELEVANT, GENERATED_LINK_SEED,
    *PROGRESS_TEXTS, *CARD_TEXTS,
    *(f"lesson {lesson}" for lesson in LESSONS),
    "lesson warmup",
)

N_HINTS = 2  # hint 1: a nudge; hint 2: the method


def values_of(**values) -> Mapping[str, str]:
    return MappingProxyType({name: str(value) for name, value in values.items()})


def joined(numbers: Iterable) -> str:
    return ", ".join(str(n) for n in numbers)


# ----------------------------------------------------------------------------
# Outcomes
# ----------------------------------------------------------------------------

Status = Literal["correct", "trap", "wrong", "invalid"]


@dataclass(frozen=True)
class Outcome:
    """The result of checking one answer.

    ``status``: correct, trap (a known wrong answer), wrong (any other wrong
    answer) or invalid (not an answer: unparseable, nothing picked).
    ``feedback``: the questions.md section to show; ``values`` fill its
    placeholders.
    """

    status: Status
    feedback: str
    values: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def correct(self) -> bool:
        return self.status == "correct"


# ----------------------------------------------------------------------------
# Question types
# ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Trap:
    """A known wrong answer and the slip behind it (feedback: ``<id> trap <name>``)."""

    name: str
    value: float


def distinct_traps(traps, answer: float, scale: str = "unit") -> tuple[Trap, ...]:
    """Traps that differ from the answer and from each other (the first of two equal ones is kept)."""
    kept: list[Trap] = []
    for trap in traps:
        if not math.isfinite(trap.value) or within(trap.value, answer, scale):
            continue
        if any(within(trap.value, other.value, scale) for other in kept):
            continue
        kept.append(trap)
    return tuple(kept)


@dataclass(frozen=True)
class NumericQuestion:
    """Type a number. ``scale`` is "unit" (a value in [0, 1]) or "relative" (±0.5% of the answer: DCG, rrf scores)."""

    id: str
    lesson: str | None
    answer: float
    traps: tuple[Trap, ...] = ()
    scale: Literal["unit", "relative"] = "unit"
    values: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    solution_part: str = "solution"

    def __post_init__(self):
        for trap in self.traps:
            if within(trap.value, self.answer, self.scale):
                raise ValueError(f"{self.id}: trap {trap.name!r} ({trap.value}) is within tolerance of the answer")


@dataclass(frozen=True)
class ChoiceQuestion:
    """Pick one option (radio) or several (``multiple``); every option has an explanation."""

    id: str
    lesson: str | None
    options: tuple[str, ...]
    correct: frozenset[str]
    values: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    def __post_init__(self):
        if not self.correct or not self.correct <= set(self.options):
            raise ValueError(f"{self.id}: the correct options must be among {self.options}")

    @property
    def multiple(self) -> bool:
        return len(self.correct) > 1


@dataclass(frozen=True)
class OrderingQuestion:
    """Put a pool of documents in an order that maximises nDCG@k (any optimal order is right).

    ``start`` is the order the pool is shown in first; every document of the
    query is judged, so the best nDCG@k is 1.
    """

    id: str
    lesson: str | None
    query: sc.Query
    start: tuple[str, ...]
    k: int
    gain: metrics.Gain = "exponential"
    values: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    def ndcg(self, order: Sequence[str]) -> float:
        """nDCG@k of ``order`` (documents not placed sit below it, where they cannot count)."""
        return metrics.ndcg_at_k(self.query.grades(order), self.k, self.query.judged_grades(), self.gain)

    def ideal_order(self) -> tuple[str, ...]:
        """One optimal order: the pool sorted by grade, best first (stable)."""
        grades = self.query.grades(self.start)
        return tuple(self.start[i] for i in np.argsort(-grades, kind="stable"))

    @property
    def best(self) -> float:
        return self.ndcg(self.ideal_order())


@dataclass(frozen=True)
class WarmUp:
    """Think, then reveal: not graded, never counted in progress.

    ``lesson`` is the lesson the warm-up opens (its question is about the
    lesson before); None for a warm-up carried over from an earlier topic.
    ``values`` fill the ``{placeholders}`` of its prompt and answer.
    """

    id: str
    lesson: str | None = None
    values: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))


Question = Union[NumericQuestion, ChoiceQuestion, OrderingQuestion, WarmUp]


def is_graded(question: Question) -> bool:
    """Whether checking the question can be right or wrong (warm-ups cannot)."""
    return not isinstance(question, WarmUp)
