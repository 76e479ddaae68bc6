"""Which sections of lessons/text/questions.md each question needs."""
from __future__ import annotations

from components.course.quiz.bank import QUESTIONS
from components.course.quiz.generated import GENERATED_METRICS, GENERATED_TRAPS, SOLUTION_PARTS, GeneratedExercise
from components.course.quiz.model import (
    N_HINTS,
    SHARED_TEXTS,
    ChoiceQuestion,
    NumericQuestion,
    Question,
    WarmUp,
)

# ----------------------------------------------------------------------------
# Which prose each question needs
# ----------------------------------------------------------------------------

def required_texts(q: Question) -> tuple[str, ...]:
    """The questions.md sections a question needs (a generated exercise: every variant of its metric)."""
    hints = tuple(f"{q.id} hint {i}" for i in range(1, N_HINTS + 1))
    if isinstance(q, WarmUp):
        return (f"{q.id} prompt", f"{q.id} answer")
    if isinstance(q, GeneratedExercise):
        return ((f"{q.id} prompt",) + hints + tuple(f"{q.id} {part}" for part in SOLUTION_PARTS[q.metric])
                + tuple(f"{q.id} trap {name}" for name in GENERATED_TRAPS[q.metric]))
    if isinstance(q, NumericQuestion):
        return (f"{q.id} prompt",) + hints + (f"{q.id} solution",) + tuple(f"{q.id} trap {t.name}" for t in q.traps)
    if isinstance(q, ChoiceQuestion):
        return ((f"{q.id} prompt",) + hints + (f"{q.id} solution",)
                + tuple(s for o in q.options for s in (f"{q.id} option {o}", f"{q.id} option {o} why")))
    return (f"{q.id} prompt",) + hints + (f"{q.id} solution",)


def all_required_texts() -> frozenset[str]:
    """Every section questions.md must hold: the bank's, the generated exercises' and the shared ones."""
    needed = set(SHARED_TEXTS)
    for q in QUESTIONS:
        needed.update(required_texts(q))
    for metric in GENERATED_METRICS:
        probe = GeneratedExercise(f"generated.{metric}", None, 0.0, metric=metric)
        needed.update(required_texts(probe))
    return frozenset(needed)
