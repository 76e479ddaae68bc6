"""What a live class answered: the guesses of one hidden value read against it and its known slips, and the
counts of a choice question's options. No Streamlit.

A guess (typed as the practice cards take it: ``0.53``, ``2/3``, ``67%``) is

- *right* within the quiz's tolerance of the value (:func:`components.course.quiz.within`);
- a *slip* when it is within the tolerance of a known wrong answer, a :class:`Trap`: the question bank's for
  a practice question, or, for a value on a lesson's screen, one :func:`asked_on_screen` computes from the engine
  for the state on screen (P@k given for Recall@k, DCG for nDCG, ...);
- *other* when it is neither, and *not a number* when it does not parse.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np

from components.course import quiz
from components.course.quiz import Trap
from components.engine import metrics

# the hidden values a class can be asked for on a lesson's screen (the engine's names), and their slips
ASKABLE = ("R@k", "nDCG@k", "AP", "MRR")
OTHER_GAIN: Mapping[str, metrics.Gain] = {"exponential": "linear", "linear": "exponential"}


@dataclass(frozen=True)
class Asked:
    """One value the class is asked for: its label as the page shows it ("nDCG@3"), the engine's value, the
    known wrong answers and the tolerance's scale ("unit", or "relative": ±0.5%)."""

    label: str
    value: float
    slips: tuple[Trap, ...] = ()
    scale: str = "unit"


@dataclass(frozen=True)
class Guesses:
    """The class's guesses read against an :class:`Asked`."""

    values: tuple[float, ...]  # every guess that is a number, one per answer
    right: int
    slips: tuple[tuple[Trap, int], ...]  # the slips somebody made and how many made each, most made first
    other: int
    not_numbers: int

    @property
    def total(self) -> int:
        return len(self.values) + self.not_numbers


def read_guesses(answers: Mapping[str, int], asked: Asked) -> Guesses:
    """Each distinct answer text (with how many gave it) parsed and sorted into right, a slip, or other."""
    values: list[float] = []
    right = other = not_numbers = 0
    made = {trap: 0 for trap in asked.slips}
    for typed, count in answers.items():
        parsed = quiz.parse_answer(typed).value
        if parsed is None:
            not_numbers += count
            continue
        values.extend([parsed] * count)
        if quiz.within(parsed, asked.value, asked.scale):
            right += count
            continue
        trap = next((t for t in asked.slips if quiz.within(parsed, t.value, asked.scale)), None)
        if trap is None:
            other += count
        else:
            made[trap] += count
    slips = tuple(sorted(((t, n) for t, n in made.items() if n), key=lambda pair: -pair[1]))
    return Guesses(tuple(values), right, slips, other, not_numbers)


def choice_counts(answers: Mapping[str, int], options: Sequence[str]) -> tuple[tuple[str, int], ...]:
    """How many chose each option, in the options' order (answers that are no option are left out)."""
    return tuple((option, int(answers.get(option, 0))) for option in options)


def asked_on_screen(measure: str, label: str, qs: metrics.QuerySet, k: int,
                    gain: metrics.Gain = "exponential") -> Asked:
    """What the class is asked for a lesson's hidden ``measure`` (one of :data:`ASKABLE`, the mean over ``qs``'s
    queries) on this state: its value and its known wrong answers, from the engine, each distinct from the
    value and from each other:

    - Recall@k: P@k (dividing by k, not by the relevant documents) and hit rate@k (found any);
    - nDCG@k: P@k (the share of the top k that is relevant), DCG@k (not normalised) and nDCG@k under the
      other gain;
    - AP: AP divided by the relevant documents *returned* (Σ P@hit / found, that is AP · R / found), RR (the
      first hit only) and P@k;
    - MRR: the sum of the RRs (no mean) and 1 / the mean rank of the first hits (the mean taken the wrong
      way round).
    """
    if measure == "R@k":
        value = metrics.recall(qs, k).mean()
        slips = [("precision", metrics.precision(qs, k).mean()), ("hit rate", metrics.success(qs, k).mean())]
    elif measure == "nDCG@k":
        value = metrics.ndcg(qs, k, gain).mean()
        slips = [("precision", metrics.precision(qs, k).mean()), ("dcg", metrics.dcg(qs, k, gain).mean()),
                 ("other gain", metrics.ndcg(qs, k, OTHER_GAIN[gain]).mean())]
    elif measure == "AP":
        ap = metrics.average_precision(qs)
        value = ap.mean()
        found = metrics.num_relevant_returned(qs).astype(float)
        over_returned = np.divide(ap * metrics.num_relevant(qs), found, out=np.zeros_like(ap), where=found > 0)
        slips = [("relevant returned", over_returned.mean()), ("rr", metrics.reciprocal_rank(qs).mean()),
                 ("precision", metrics.precision(qs, k).mean())]
    elif measure == "MRR":
        rr = metrics.reciprocal_rank(qs)
        value = rr.mean()
        first = 1 / rr[rr > 0]
        slips = [("sum", rr.sum()), ("mean rank", 1 / first.mean() if len(first) else np.nan)]
    else:
        raise ValueError(f"no known slips for {measure!r}; askable: {ASKABLE}")
    return Asked(label, float(value), quiz.distinct_traps([Trap(name, float(v)) for name, v in slips], float(value)))
