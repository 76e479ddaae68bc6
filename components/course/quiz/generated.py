"""Generated exercises: a random ranking from a seed, one metric asked, one known trap set up."""
from __future__ import annotations

import math
from dataclasses import dataclass
from types import MappingProxyType
from typing import Mapping

import numpy as np

from components.course.breakdown import dcg_terms, positions
from components.course.quiz.model import (
    NumericQuestion,
    Trap,
    joined,
    values_of,
    within,
)
from components.engine import metrics
from components.engine.formatting import fmt

# ----------------------------------------------------------------------------
# Generated exercises
# ----------------------------------------------------------------------------

GENERATED_METRICS: tuple[str, ...] = ("recall", "hit_rate", "rr", "ndcg")
# The situations a draw sets up, each a known trap for the metric asked.
SCENARIOS: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "recall": ("hit_at_k", "more_relevant_than_k", "no_relevant", "judged_not_returned"),
    "hit_rate": ("hit_at_k", "more_relevant_than_k", "judged_not_returned"),
    "rr": ("grade1_above_grade2", "several_relevant", "no_relevant"),
    "ndcg": ("grade1_above_grade2", "judged_not_returned", "no_relevant", "more_relevant_than_k"),
})
# Which solution template a generated exercise may use.
SOLUTION_PARTS: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "recall": ("solution", "solution no relevant"),
    "hit_rate": ("solution hit", "solution miss", "solution no hit"),
    "rr": ("solution", "solution no relevant"),
    "ndcg": ("solution", "solution no relevant"),
})
# The traps each metric's feedback sections cover.
GENERATED_TRAPS: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "recall": ("cutoff exclusive", "divided by k", "returned only", "nothing to find"),
    "hit_rate": ("cutoff exclusive", "recall instead"),
    "rr": ("first top grade", "mean over hits"),
    "ndcg": ("linear gain", "not normalised", "ideal from returned", "ideal beyond k", "nothing to find"),
})
# A query with nothing relevant is worth meeting, but not every fourth time.
RARE_SCENARIOS = frozenset({"no_relevant"})
RARE_SCENARIO_WEIGHT = 0.4
DEFAULT_SEED = 11  # a Recall@k draw with more relevant items than k


@dataclass(frozen=True)
class GeneratedExercise(NumericQuestion):
    """A numeric question drawn from a seed: one ranking, one metric, one trap set up.

    ``grades``: the returned list's grades, top first. ``missing``: grades of
    judged documents the system did not return. ``k`` is None for RR.
    """

    seed: int = 0
    metric: str = "recall"
    scenario: str = ""
    k: int | None = None
    grades: tuple[int, ...] = ()
    missing: tuple[int, ...] = ()

    @property
    def judged(self) -> np.ndarray:
        return np.array(self.grades + self.missing, dtype=np.int64)

    @property
    def graded(self) -> bool:
        """Whether grades above 1 occur (the table then shows grades, not just relevant or not)."""
        return max(self.grades + self.missing, default=0) > 1


def engine_value(exercise: GeneratedExercise) -> float:
    """The metric the exercise asks for, straight from the engine (what the property test compares)."""
    grades = np.array(exercise.grades, dtype=np.int64)
    if exercise.metric == "rr":
        return metrics.reciprocal_rank_of(grades)
    if exercise.k is None:
        raise ValueError(f"a {exercise.metric} exercise needs its cutoff k")
    if exercise.metric == "recall":
        return metrics.recall_at_k(grades, exercise.k, int(np.count_nonzero(exercise.judged >= 1)))
    if exercise.metric == "hit_rate":
        return metrics.success_at_k(grades, exercise.k)
    return metrics.ndcg_at_k(grades, exercise.k, exercise.judged)


def _relevant_grade(rng: np.random.Generator, graded: bool) -> int:
    return int(rng.integers(1, 3)) if graded else 1


def _draw(rng: np.random.Generator, metric: str, scenario: str) -> tuple[np.ndarray, list[int], int]:
    """A returned list (grades, top first), the grades judged but not returned, and k."""
    n = int(rng.integers(6, 11))
    k = int(rng.integers(2, 6))
    graded = metric == "ndcg" or scenario == "grade1_above_grade2"

    def fill(p: float) -> np.ndarray:
        rel = rng.random(n) < p
        return np.array([_relevant_grade(rng, graded) if r else 0 for r in rel], dtype=np.int64)

    missing: list[int] = []
    if scenario == "hit_at_k":
        grades = fill(0.25)
        if metric == "hit_rate":
            grades[:k - 1] = 0
        grades[k - 1] = _relevant_grade(rng, graded)
        if rng.random() < 0.4:
            missing = [_relevant_grade(rng, graded)]
    elif scenario == "more_relevant_than_k":
        grades = np.zeros(n, dtype=np.int64)
        total = k + int(rng.integers(1, 4))
        on_top = int(rng.integers(1, k + 1))
        below = min(int(rng.integers(0, total - on_top + 1)), n - k)
        for pos in rng.choice(k, size=on_top, replace=False):
            grades[pos] = _relevant_grade(rng, graded)
        for pos in k + rng.choice(n - k, size=below, replace=False):
            grades[pos] = _relevant_grade(rng, graded)
        missing = [_relevant_grade(rng, graded) for _ in range(total - on_top - below)]
    elif scenario == "no_relevant":
        grades = np.zeros(n, dtype=np.int64)
    elif scenario == "grade1_above_grade2":
        grades = fill(0.2)
        if metric == "rr":
            first = int(rng.integers(1, 4))
            second = int(rng.integers(first + 1, n + 1))
        else:
            first = int(rng.integers(1, k))
            second = int(rng.integers(first + 1, k + 1))
        grades[:first - 1] = 0
        grades[first - 1], grades[second - 1] = 1, 2
        if metric == "rr":
            grades[first:second - 1] = np.minimum(grades[first:second - 1], 1)
        if metric == "ndcg" and rng.random() < 0.3:
            missing = [_relevant_grade(rng, graded)]
    elif scenario == "judged_not_returned":
        grades = fill(0.3)
        if metric != "hit_rate" and not np.any(grades[:k] >= 1):
            grades[int(rng.integers(0, k))] = _relevant_grade(rng, graded)
        missing = [2 if metric == "ndcg" else _relevant_grade(rng, graded) for _ in range(int(rng.integers(1, 3)))]
    elif scenario == "several_relevant":
        grades = np.zeros(n, dtype=np.int64)
        first = int(rng.integers(1, 4))
        grades[first - 1] = 1
        later = rng.choice(np.arange(first, n), size=int(rng.integers(1, 4)), replace=False)
        grades[later] = 1
    else:
        raise ValueError(f"unknown scenario {scenario!r}")
    return grades, missing, k


def _trap_values(metric: str, grades: np.ndarray, missing: list[int], k: int) -> list[Trap]:
    """Every trap of the metric that applies to this draw, computed by the engine."""
    judged = np.r_[grades, np.array(missing, dtype=np.int64)]
    n_relevant = int(np.count_nonzero(judged >= 1))
    traps: list[Trap] = []
    if metric == "recall":
        if n_relevant == 0:
            traps.append(Trap("nothing to find", 1.0))
        else:
            traps.append(Trap("cutoff exclusive", metrics.recall_at_k(grades, k - 1, n_relevant)))
            traps.append(Trap("divided by k", metrics.precision_at_k(grades, k)))
            traps.append(Trap("returned only", metrics.recall_at_k(grades, k)))
    elif metric == "hit_rate":
        traps.append(Trap("cutoff exclusive", metrics.success_at_k(grades, k - 1)))
        if n_relevant:
            traps.append(Trap("recall instead", metrics.recall_at_k(grades, k, n_relevant)))
    elif metric == "rr":
        relevant_ranks = np.flatnonzero(grades >= 1) + 1
        if relevant_ranks.size:
            # RR of the first item with the list's highest grade, as if only that grade counted
            best_only = np.where(grades == grades.max(), 1, 0)
            traps.append(Trap("first top grade", metrics.reciprocal_rank_of(best_only)))
            traps.append(Trap("mean over hits", float(np.mean(1 / relevant_ranks))))
    else:
        if n_relevant == 0:
            traps.append(Trap("nothing to find", 1.0))
        else:
            traps.append(Trap("linear gain", metrics.ndcg_at_k(grades, k, judged, "linear")))
            traps.append(Trap("ideal from returned", metrics.ndcg_at_k(grades, k)))
            all_ideal = metrics.idcg_at_k(judged, judged.size)
            traps.append(Trap("ideal beyond k", metrics.dcg_at_k(grades, k) / all_ideal))
            traps.append(Trap("not normalised", metrics.dcg_at_k(grades, k)))
    return traps


def _distinct(traps: list[Trap], answer: float) -> tuple[Trap, ...]:
    """Traps that differ from the answer and from each other (the first of two equal ones is kept)."""
    kept: list[Trap] = []
    for trap in traps:
        if not math.isfinite(trap.value) or within(trap.value, answer):
            continue
        if any(within(trap.value, other.value) for other in kept):
            continue
        kept.append(trap)
    return tuple(kept)


def _solution(metric: str, grades: np.ndarray, judged: np.ndarray, k: int, answer: float) -> tuple[str, dict]:
    """The solution template's part and its values, all from the engine."""
    relevant_pos = np.flatnonzero(grades >= 1) + 1
    n_relevant = int(np.count_nonzero(judged >= 1))
    returned_relevant = int(relevant_pos.size)
    values: dict = {"answer": fmt(answer)}
    if metric == "recall":
        if n_relevant == 0:
            return "solution no relevant", values
        in_top = relevant_pos[relevant_pos <= k]
        found = int(metrics.relevant_in_top_k(metrics.from_rankings([grades]), k)[0])
        values.update(k=k, positions=joined(in_top) if in_top.size else "–", found=found, n_relevant=n_relevant,
                      returned_relevant=returned_relevant, missing_relevant=n_relevant - returned_relevant)
        return "solution", values
    if metric == "hit_rate":
        first = metrics.first_hit_rank(metrics.from_rankings([grades]))[0]
        values.update(k=k)
        if not math.isfinite(first):
            return "solution no hit", values
        values.update(first=int(first))
        return ("solution hit" if first <= k else "solution miss"), values
    if metric == "rr":
        first = metrics.first_hit_rank(metrics.from_rankings([grades]))[0]
        if not math.isfinite(first):
            return "solution no relevant", values
        values.update(first=int(first), grade=int(grades[int(first) - 1]))
        return "solution", values
    if n_relevant == 0:
        values.update(k=k)
        return "solution no relevant", values
    ideal = np.sort(judged)[::-1]
    values.update(k=k, dcg_terms=dcg_terms(positions(grades, k)), dcg=fmt(metrics.dcg_at_k(grades, k)),
                  ideal_grades=joined(ideal[:k]), idcg_terms=dcg_terms(positions(ideal, k)),
                  idcg=fmt(metrics.idcg_at_k(judged, k)))
    return "solution", values


def generate_exercise(seed: int) -> GeneratedExercise:
    """A random exercise from an integer seed (0 to 2^32 − 1); the same seed gives the same exercise.

    The metric and the trap situation are drawn first, then a ranking that
    sets up that situation; the answer, the trap values and the worked
    solution's numbers all come from the engine.

    Examples
    --------
    >>> generate_exercise(3) == generate_exercise(3)
    True
    """
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed <= 2**32 - 1:
        raise ValueError(f"seed must be a whole number from 0 to 2^32 − 1, got {seed!r}")
    rng = np.random.default_rng(int(seed))
    metric = GENERATED_METRICS[int(rng.integers(len(GENERATED_METRICS)))]
    options = SCENARIOS[metric]
    weights = np.array([RARE_SCENARIO_WEIGHT if o in RARE_SCENARIOS else 1.0 for o in options])
    scenario = options[int(rng.choice(len(options), p=weights / weights.sum()))]
    grades, missing, k = _draw(rng, metric, scenario)
    draft = GeneratedExercise(f"generated.{metric}", None, 0.0, seed=int(seed), metric=metric, scenario=scenario,
                              k=None if metric == "rr" else k, grades=tuple(int(g) for g in grades),
                              missing=tuple(int(g) for g in missing))
    answer = engine_value(draft)
    traps = _distinct(_trap_values(metric, grades, missing, k), answer)
    part, values = _solution(metric, grades, draft.judged, k, answer)
    missing_relevant = [g for g in missing if g >= 1]
    values.update(k=k, length=len(grades), seed=int(seed), missing_count=len(missing_relevant),
                  missing_grades=joined(missing_relevant))
    return GeneratedExercise(
        draft.id, None, answer, traps=traps, values=values_of(**values), solution_part=part,
        seed=draft.seed, metric=metric, scenario=scenario, k=draft.k, grades=draft.grades, missing=draft.missing)
