"""Generated exercises: rankings drawn from a seed, one metric asked, one known trap set up.

Seeds
-----
A seed is a code a class can read aloud: :data:`SEED_LENGTH` characters from
:data:`SEED_ALPHABET` (the digits 2 to 9 and consonants: none of the
look-alikes 0/O or 1/I/L, and no vowels, so no code spells a word), the
first one a letter, e.g. ``K7M3Q``. Lower case reads as upper case.

A code names the same exercise as long as the kinds do not change: the kind
is drawn first from :data:`GENERATED_METRICS`, so adding one (rrf came last)
makes most codes draw something else, and a code written down before then
now names another exercise. Links made before codes carry a whole number
from 0 to 2^32 − 1; such a number still gives the exercise it gave then
(drawn from :data:`LEGACY_METRICS`, which never grows, by the same steps),
so an old link keeps working.
"""
from __future__ import annotations

import math
import secrets
from dataclasses import dataclass
from types import MappingProxyType
from typing import Mapping

import numpy as np

from components.course import precision
from components.course.breakdown import dcg_terms, positions
from components.course.quiz.model import (
    GENERATED_MISSING,
    GENERATED_NONE_MISSING,
    GENERATED_NOTHING_RELEVANT,
    NumericQuestion,
    Trap,
    distinct_traps,
    joined,
    values_of,
)
from components.engine import conventions, fusion, metrics
from components.engine.formatting import fmt

# ----------------------------------------------------------------------------
# Generated exercises
# ----------------------------------------------------------------------------

GENERATED_METRICS: tuple[str, ...] = ("recall", "hit_rate", "rr", "ndcg", "mrr", "precision", "ndcg_linear", "ap",
                                      "rrf")
LEGACY_METRICS = GENERATED_METRICS[:4]  # what a whole-number seed (a link from before codes) draws from
NO_CUTOFF = frozenset({"rr", "ap", "rrf"})  # kinds without a cutoff: their k is None
RRF_K = 60  # the rrf exercise's constant: the default a learner meets in every library
RRF_LIST_LENGTH = 10  # how many documents each list of an rrf exercise returns
RRF_SCALE = 1000  # an rrf score is asked for × 1000: near 0.03, its slips lie within ±0.005 of it
# The gain each nDCG kind asks for.
NDCG_GAINS: Mapping[str, metrics.Gain] = MappingProxyType({"ndcg": "exponential", "ndcg_linear": "linear"})
# The situations a draw sets up, each a known trap for the metric asked.
SCENARIOS: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "recall": ("hit_at_k", "more_relevant_than_k", "no_relevant", "judged_not_returned"),
    "hit_rate": ("hit_at_k", "more_relevant_than_k", "judged_not_returned"),
    "rr": ("grade1_above_grade2", "several_relevant", "no_relevant"),
    "ndcg": ("grade1_above_grade2", "judged_not_returned", "no_relevant", "more_relevant_than_k"),
    "mrr": ("query_without_hit", "hits_at_various_ranks", "several_relevant"),
    "precision": ("hit_at_k", "fewer_relevant_than_k", "short_list"),
    "ndcg_linear": ("grade1_above_grade2", "judged_not_returned", "no_relevant", "more_relevant_than_k"),
    "ap": ("judged_not_returned", "several_relevant", "no_relevant"),
    "rrf": ("both_lists", "one_list"),
})
# Which solution template a generated exercise may use.
SOLUTION_PARTS: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "recall": ("solution", "solution no relevant"),
    "hit_rate": ("solution hit", "solution miss", "solution no hit"),
    "rr": ("solution", "solution no relevant"),
    "ndcg": ("solution", "solution no relevant"),
    "mrr": ("solution", "solution no hit"),
    "precision": ("solution", "solution short list"),
    "ndcg_linear": ("solution", "solution no relevant"),
    "ap": ("solution", "solution no relevant"),
    "rrf": ("solution", "solution one list"),
})
# The traps each metric's feedback sections cover.
GENERATED_TRAPS: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "recall": ("cutoff exclusive", "divided by k", "returned only", "nothing to find"),
    "hit_rate": ("cutoff exclusive", "recall instead"),
    "rr": ("first top grade", "mean over hits"),
    "ndcg": ("linear gain", "not normalised", "ideal from returned", "ideal beyond k", "nothing to find"),
    "mrr": ("skipped no hit", "mean rank", "sum not mean", "mean over hits"),
    "precision": ("cutoff exclusive", "recall instead", "divided by returned"),
    "ndcg_linear": ("exponential gain", "not normalised", "ideal from returned", "ideal beyond k", "nothing to find"),
    "ap": ("divided by returned", "rr instead", "every rank", "nothing to find"),
    "rrf": ("from zero", "as last", "ranks added", "no k"),
})
# A query with nothing relevant is worth meeting, but not every fourth time.
RARE_SCENARIOS = frozenset({"no_relevant"})
RARE_SCENARIO_WEIGHT = 0.4

SEED_ALPHABET = "23456789BCDFGHJKMNPQRSTVWXZ"
SEED_LETTERS = "".join(c for c in SEED_ALPHABET if c.isalpha())
SEED_LENGTH = 5
LEGACY_MAX_SEED = 2**32 - 1
_CODE_STREAM = 1  # codes draw from random streams of their own, apart from every whole-number seed
DEFAULT_SEED = "B24G3"  # a Recall@4 draw with five relevant items, two of them not returned


def _is_code(text: str) -> bool:
    return len(text) == SEED_LENGTH and text[0] in SEED_LETTERS and all(c in SEED_ALPHABET for c in text)


def parse_seed(raw: object) -> str | None:
    """The seed ``raw`` names, written as :func:`generate_exercise` stores it, or None if it names none.

    A code is upper-cased; a whole number from an old link loses its leading
    zeros. Anything else (a code with a look-alike such as O or 1, a number
    beyond 2^32 − 1, a sign, words) names no seed.

    Examples
    --------
    >>> parse_seed(" k7m3q "), parse_seed("0042"), parse_seed("K7M3O"), parse_seed(str(2**32))
    ('K7M3Q', '42', None, None)
    """
    if not isinstance(raw, str):
        return None
    text = raw.strip().upper()
    if _is_code(text):
        return text
    if text.isascii() and text.isdigit() and len(text) <= len(str(LEGACY_MAX_SEED)) and int(text) <= LEGACY_MAX_SEED:
        return str(int(text))
    return None


def new_seed(avoid: str | None = None) -> str:
    """A fresh random code (never ``avoid``, the one on screen)."""
    while True:
        code = secrets.choice(SEED_LETTERS) + "".join(secrets.choice(SEED_ALPHABET) for _ in range(SEED_LENGTH - 1))
        if code != avoid:
            return code


def _random_stream(seed: str) -> tuple[np.random.Generator, tuple[str, ...]]:
    """The random stream of a seed (as :func:`parse_seed` writes it) and the kinds it draws from."""
    if seed.isdigit():
        return np.random.default_rng(int(seed)), LEGACY_METRICS
    index = 0
    for c in seed:
        index = index * len(SEED_ALPHABET) + SEED_ALPHABET.index(c)
    return np.random.default_rng([_CODE_STREAM, index]), GENERATED_METRICS


@dataclass(frozen=True)
class GeneratedExercise(NumericQuestion):
    """A numeric question drawn from a seed: one ranking (or, for MRR, a few), one metric, one trap set up.

    ``grades``: the returned list's grades, top first. ``missing``: grades of
    judged documents the system did not return. ``queries``: for an exercise
    over several queries (MRR), each query's list, top first (``grades`` is
    then empty). ``k`` is None for RR, MRR and AP (asked over the whole list). ``ranks``: for an rrf exercise,
    one document's rank in each of two lists (None: that list did not return it); its constant is :data:`RRF_K`.
    """

    seed: str = ""
    metric: str = "recall"
    scenario: str = ""
    k: int | None = None
    grades: tuple[int, ...] = ()
    missing: tuple[int, ...] = ()
    queries: tuple[tuple[int, ...], ...] = ()
    ranks: tuple[int | None, ...] = ()

    @property
    def judged(self) -> np.ndarray:
        return np.array(self.grades + self.missing, dtype=np.int64)

    @property
    def lists(self) -> tuple[tuple[int, ...], ...]:
        """Every returned list the exercise shows: its queries', or its one ranking."""
        return self.queries or (self.grades,)

    @property
    def graded(self) -> bool:
        """Whether grades above 1 occur (the table then shows grades, not just relevant or not)."""
        return max(self.grades + self.missing, default=0) > 1


def engine_value(exercise: GeneratedExercise) -> float:
    """The metric the exercise asks for, straight from the engine (what the property test compares)."""
    grades = np.array(exercise.grades, dtype=np.int64)
    if exercise.metric == "rrf":
        return RRF_SCALE * float(fusion.rrf_score(exercise.ranks, RRF_K))
    if exercise.metric == "mrr":
        return metrics.mean_reciprocal_rank(exercise.queries)
    if exercise.metric == "rr":
        return metrics.reciprocal_rank_of(grades)
    if exercise.metric == "ap":
        return float(metrics.average_precision(metrics.from_rankings([grades], [exercise.judged]))[0])
    if exercise.k is None:
        raise ValueError(f"a {exercise.metric} exercise needs its cutoff k")
    if exercise.metric == "recall":
        return metrics.recall_at_k(grades, exercise.k, int(np.count_nonzero(exercise.judged >= 1)))
    if exercise.metric == "hit_rate":
        return metrics.success_at_k(grades, exercise.k)
    if exercise.metric == "precision":
        return metrics.precision_at_k(grades, exercise.k)
    return metrics.ndcg_at_k(grades, exercise.k, exercise.judged, NDCG_GAINS[exercise.metric])


def judged_note(exercise: GeneratedExercise) -> str | None:
    """The shared sentence under a one-query exercise's table about what was judged (None over several queries).

    A query with nothing relevant at all gets a sentence of its own: "nothing
    relevant is missing" would be true but misleading there.
    """
    if exercise.queries or exercise.metric == "rrf":
        return None
    if not np.any(exercise.judged >= 1):
        return GENERATED_NOTHING_RELEVANT
    return GENERATED_MISSING if any(g >= 1 for g in exercise.missing) else GENERATED_NONE_MISSING


def _relevant_grade(rng: np.random.Generator, graded: bool) -> int:
    return int(rng.integers(1, 3)) if graded else 1


def _draw(rng: np.random.Generator, metric: str, scenario: str) -> tuple[np.ndarray, list[int], int]:
    """A returned list (grades, top first), the grades judged but not returned, and k."""
    n = int(rng.integers(6, 11))
    k = int(rng.integers(2, 6))
    graded = metric in NDCG_GAINS or scenario == "grade1_above_grade2"

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
        if metric in NDCG_GAINS and rng.random() < 0.3:
            missing = [_relevant_grade(rng, graded)]
    elif scenario == "judged_not_returned":
        grades = fill(0.3)
        if metric != "hit_rate" and not np.any(grades[:k] >= 1):
            grades[int(rng.integers(0, k))] = _relevant_grade(rng, graded)
        missing = [2 if metric in NDCG_GAINS else _relevant_grade(rng, graded)
                   for _ in range(int(rng.integers(1, 3)))]
    elif scenario == "several_relevant":
        grades = np.zeros(n, dtype=np.int64)
        first = int(rng.integers(1, 4))
        grades[first - 1] = 1
        later = rng.choice(np.arange(first, n), size=int(rng.integers(1, 4)), replace=False)
        grades[later] = 1
    elif scenario == "fewer_relevant_than_k":
        return _draw_few_relevant(rng, n, k)
    elif scenario == "short_list":
        return _draw_short_list(rng)
    else:
        raise ValueError(f"unknown scenario {scenario!r}")
    return grades, missing, k


def _draw_few_relevant(rng: np.random.Generator, n: int, k: int) -> tuple[np.ndarray, list[int], int]:
    """Fewer relevant documents judged than k (1 to k − 1), at least one of them in the top k."""
    total = int(rng.integers(1, k))
    on_top = int(rng.integers(1, total + 1))
    below = min(int(rng.integers(0, total - on_top + 1)), n - k)
    grades = np.zeros(n, dtype=np.int64)
    grades[rng.choice(k, size=on_top, replace=False)] = 1
    grades[k + rng.choice(n - k, size=below, replace=False)] = 1
    return grades, [1] * (total - on_top - below), k


def _draw_short_list(rng: np.random.Generator) -> tuple[np.ndarray, list[int], int]:
    """A list shorter than k (k from 4 to 6) with at least one relevant document in it."""
    k = int(rng.integers(4, 7))
    n = int(rng.integers(2, k))
    grades = np.zeros(n, dtype=np.int64)
    grades[rng.choice(n, size=int(rng.integers(1, n + 1)), replace=False)] = 1
    return grades, [1] if rng.random() < 0.3 else [], k


def _draw_queries(rng: np.random.Generator, scenario: str) -> tuple[tuple[int, ...], ...]:
    """Three or four lists of one length (grade 1 is relevant, top first) for an MRR exercise.

    Every list has a first hit, then more at random; ``query_without_hit``
    empties one list of hits, ``hits_at_various_ranks`` puts the first hits
    at distinct positions, ``several_relevant`` adds a hit below one list's first.
    """
    n_queries = int(rng.integers(3, 5))
    length = int(rng.integers(4, 7))
    if scenario == "hits_at_various_ranks":
        firsts = rng.choice(np.arange(1, length + 1), size=n_queries, replace=False)
    else:
        firsts = rng.integers(1, 4, size=n_queries)
    lists = np.zeros((n_queries, length), dtype=np.int64)
    for q, first in enumerate(firsts):
        lists[q, first - 1] = 1
        lists[q, first:] = rng.random(length - first) < 0.3
    if scenario == "query_without_hit":
        lists[int(rng.integers(n_queries))] = 0
    elif scenario == "several_relevant":
        q = int(rng.integers(n_queries))
        lists[q, int(rng.integers(firsts[q], length))] = 1
    elif scenario != "hits_at_various_ranks":
        raise ValueError(f"unknown scenario {scenario!r}")
    return tuple(tuple(int(g) for g in row) for row in lists)


def _mean_over_hits(grades: np.ndarray) -> float:
    """1 / position averaged over every relevant document of one list (0 without any): a slip, not a metric."""
    relevant_ranks = np.flatnonzero(grades >= 1) + 1
    return float(np.mean(1 / relevant_ranks)) if relevant_ranks.size else 0.0


def _mean_precision_over_list(grades: np.ndarray) -> float:
    """(1/n) Σ_{i=1..n} P@i over every position of a list of n, relevant or not: a slip for AP, not a metric."""
    qs = metrics.from_rankings([grades])
    return float(np.mean([metrics.precision(qs, i)[0] for i in range(1, grades.size + 1)]))


def _trap_values(metric: str, grades: np.ndarray, missing: list[int], k: int) -> list[Trap]:
    """Every trap of the metric that applies to this one-query draw, computed by the engine."""
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
    elif metric == "precision":
        if grades.size < k:  # no position k to stop short of: the slip is dividing by the list's length
            traps.append(Trap("divided by returned", metrics.precision_at_k(grades, grades.size)))
        else:
            traps.append(Trap("cutoff exclusive", metrics.precision_at_k(grades, k - 1)))
        if n_relevant:
            traps.append(Trap("recall instead", metrics.recall_at_k(grades, k, n_relevant)))
    elif metric == "ap":
        if n_relevant == 0:
            traps.append(Trap("nothing to find", 1.0))
        else:
            traps.append(Trap("divided by returned", conventions.ap_over_returned(grades)))
            traps.append(Trap("rr instead", metrics.reciprocal_rank_of(grades)))
            traps.append(Trap("every rank", _mean_precision_over_list(grades)))
    elif metric == "rr":
        if np.any(grades >= 1):
            # RR of the first item with the list's highest grade, as if only that grade counted
            best_only = np.where(grades == grades.max(), 1, 0)
            traps.append(Trap("first top grade", metrics.reciprocal_rank_of(best_only)))
            traps.append(Trap("mean over hits", _mean_over_hits(grades)))
    else:
        traps += _ndcg_traps(NDCG_GAINS[metric], grades, judged, k)
    return traps


def _ndcg_traps(gain: metrics.Gain, grades: np.ndarray, judged: np.ndarray, k: int) -> list[Trap]:
    """nDCG@k's traps with ``gain`` asked for: the other gain, the ideal from the list or beyond k, DCG alone."""
    if not np.any(judged >= 1):
        return [Trap("nothing to find", 1.0)]
    other: metrics.Gain = "linear" if gain == "exponential" else "exponential"
    return [Trap(f"{other} gain", metrics.ndcg_at_k(grades, k, judged, other)),
            Trap("ideal from returned", metrics.ndcg_at_k(grades, k, gain=gain)),
            Trap("ideal beyond k", metrics.dcg_at_k(grades, k, gain) / metrics.idcg_at_k(judged, judged.size, gain)),
            Trap("not normalised", metrics.dcg_at_k(grades, k, gain))]


def _mrr_traps(queries: tuple[tuple[int, ...], ...]) -> list[Trap]:
    """MRR's traps: the no-hit query left out, 1 / the mean first-hit position, the sum, every hit averaged."""
    qs = metrics.from_rankings(queries)
    rr, first = metrics.reciprocal_rank(qs), metrics.first_hit_rank(qs)
    hit = np.isfinite(first)
    traps = [Trap("skipped no hit", float(rr[hit].mean()))] if not hit.all() else []
    traps.append(Trap("mean rank", float(1 / first[hit].mean())))
    traps.append(Trap("sum not mean", float(rr.sum())))
    traps.append(Trap("mean over hits", float(np.mean([_mean_over_hits(np.array(q)) for q in queries]))))
    return traps


def _found_in_top(grades: np.ndarray, k: int) -> dict:
    """The relevant positions within the top k and their count (for recall and precision)."""
    relevant_pos = np.flatnonzero(grades >= 1) + 1
    in_top = relevant_pos[relevant_pos <= k]
    found = int(metrics.relevant_in_top_k(metrics.from_rankings([grades]), k)[0])
    return {"positions": joined(in_top) if in_top.size else "–", "found": found}


def _solution(metric: str, grades: np.ndarray, judged: np.ndarray, k: int, answer: float) -> tuple[str, dict]:
    """The solution template's part and its values, all from the engine."""
    n_relevant = int(np.count_nonzero(judged >= 1))
    returned_relevant = int(np.count_nonzero(grades >= 1))
    values: dict = {"answer": fmt(answer)}
    if metric == "recall":
        if n_relevant == 0:
            return "solution no relevant", values
        values.update(k=k, n_relevant=n_relevant, returned_relevant=returned_relevant,
                      missing_relevant=n_relevant - returned_relevant, **_found_in_top(grades, k))
        return "solution", values
    if metric == "precision":
        values.update(k=k, **_found_in_top(grades, k))
        return ("solution short list" if grades.size < k else "solution"), values
    if metric == "hit_rate":
        first = metrics.first_hit_rank(metrics.from_rankings([grades]))[0]
        values.update(k=k)
        if not math.isfinite(first):
            return "solution no hit", values
        values.update(first=int(first))
        return ("solution hit" if first <= k else "solution miss"), values
    if metric == "ap":
        values.update(n_relevant=n_relevant, returned_relevant=returned_relevant,
                      missing_relevant=n_relevant - returned_relevant)
        if n_relevant == 0:
            return "solution no relevant", values
        values.update(hits=joined(h.rank for h in precision.hits(grades)),
                      arithmetic=precision.ap_arithmetic(grades, n_relevant))
        return "solution", values
    if metric == "rr":
        first = metrics.first_hit_rank(metrics.from_rankings([grades]))[0]
        if not math.isfinite(first):
            return "solution no relevant", values
        values.update(first=int(first), grade=int(grades[int(first) - 1]))
        return "solution", values
    values.update(k=k)
    if n_relevant == 0:
        return "solution no relevant", values
    gain = NDCG_GAINS[metric]
    ideal = np.sort(judged)[::-1]
    values.update(dcg_terms=dcg_terms(positions(grades, k, gain)), dcg=fmt(metrics.dcg_at_k(grades, k, gain)),
                  ideal_grades=joined(ideal[:k]), idcg_terms=dcg_terms(positions(ideal, k, gain)),
                  idcg=fmt(metrics.idcg_at_k(judged, k, gain)))
    return "solution", values


def _mrr_solution(queries: tuple[tuple[int, ...], ...], answer: float) -> tuple[str, dict]:
    """The MRR solution template's part (a query without a hit has one of its own) and its values, from the engine."""
    qs = metrics.from_rankings(queries)
    first, rr = metrics.first_hit_rank(qs), metrics.reciprocal_rank(qs)
    values = {"answer": fmt(answer), "n_queries": len(queries),
              "first_ranks": joined(int(f) if math.isfinite(f) else "–" for f in first),
              "rr_terms": joined(f"1/{int(f)}" if math.isfinite(f) else "0" for f in first),
              "rr_sum": " + ".join(fmt(v) for v in rr)}
    return ("solution" if np.all(np.isfinite(first)) else "solution no hit"), values


def _scenario(rng: np.random.Generator, metric: str) -> str:
    """The situation to set up for ``metric`` (a rare one less often)."""
    options = SCENARIOS[metric]
    weights = np.array([RARE_SCENARIO_WEIGHT if o in RARE_SCENARIOS else 1.0 for o in options])
    return options[int(rng.choice(len(options), p=weights / weights.sum()))]


def _mrr_exercise(seed: str, scenario: str, queries: tuple[tuple[int, ...], ...]) -> GeneratedExercise:
    """An MRR exercise over the drawn queries, its answer, traps and solution from the engine."""
    answer = metrics.mean_reciprocal_rank(queries)
    part, values = _mrr_solution(queries, answer)
    values.update(length=len(queries[0]), seed=seed, missing_count=0, missing_grades="–")
    return GeneratedExercise("generated.mrr", None, answer, traps=distinct_traps(_mrr_traps(queries), answer),
                             values=values_of(**values), solution_part=part, seed=seed, metric="mrr",
                             scenario=scenario, queries=queries)


def _rrf_exercise(seed: str, scenario: str, rng: np.random.Generator) -> GeneratedExercise:
    """One document's rrf score (× :data:`RRF_SCALE`) from its ranks in two lists, or in one when the other did not
    return it; the answer, the slips and the worked solution from the engine.

    The slips: ranks counted from 0; the missing list's rank read as "just below its last"; the ranks added before
    dividing; k left out.
    """
    first = int(rng.integers(1, RRF_LIST_LENGTH + 1))
    second = None if scenario == "one_list" else int(rng.integers(1, RRF_LIST_LENGTH + 1))
    ranks = (first, second)
    held = [r for r in ranks if r is not None]

    def scaled(rs, k=RRF_K) -> float:
        return RRF_SCALE * float(fusion.rrf_score(rs, k))

    answer = scaled(ranks)
    slips = [Trap("from zero", scaled([r - 1 for r in held])), Trap("no k", RRF_SCALE * sum(1 / r for r in held))]
    if second is None:
        slips.append(Trap("as last", scaled([first, RRF_LIST_LENGTH + 1])))
    else:
        slips.append(Trap("ranks added", scaled([first + second])))
    terms = " + ".join(f"1/({RRF_K} + {r})" for r in held)
    values = values_of(seed=seed, k=RRF_K, first=first, second=second or "–", length=RRF_LIST_LENGTH,
                       next=RRF_LIST_LENGTH + 1, terms=terms, score=fmt(answer / RRF_SCALE, "score"),
                       answer=fmt(answer), missing_count=0, missing_grades="–")
    return GeneratedExercise("generated.rrf", None, answer, traps=distinct_traps(slips, answer, "relative"),
                             scale="relative", values=values,
                             solution_part="solution one list" if second is None else "solution", seed=seed,
                             metric="rrf", scenario=scenario, ranks=ranks)


def generate_exercise(seed: str) -> GeneratedExercise:
    """A random exercise from a seed (see :func:`parse_seed`); the same seed gives the same exercise.

    The metric and the trap situation are drawn first, then a ranking (or a
    few, for MRR) that sets up that situation; the answer, the trap values
    and the worked solution's numbers all come from the engine.

    Examples
    --------
    >>> generate_exercise("K7M3Q") == generate_exercise("k7m3q")
    True
    """
    normal = parse_seed(seed)
    if normal is None:
        raise ValueError(f"seed must be a code such as {DEFAULT_SEED} or a whole number from 0 to 2^32 − 1, "
                         f"got {seed!r}")
    rng, kinds = _random_stream(normal)
    metric = kinds[int(rng.integers(len(kinds)))]
    scenario = _scenario(rng, metric)
    if metric == "mrr":
        return _mrr_exercise(normal, scenario, _draw_queries(rng, scenario))
    if metric == "rrf":
        return _rrf_exercise(normal, scenario, rng)
    grades, missing, k = _draw(rng, metric, scenario)
    draft = GeneratedExercise(f"generated.{metric}", None, 0.0, seed=normal, metric=metric, scenario=scenario,
                              k=None if metric in NO_CUTOFF else k, grades=tuple(int(g) for g in grades),
                              missing=tuple(int(g) for g in missing))
    answer = engine_value(draft)
    traps = distinct_traps(_trap_values(metric, grades, missing, k), answer)
    part, values = _solution(metric, grades, draft.judged, k, answer)
    missing_relevant = [g for g in missing if g >= 1]
    values.update(k=k, length=len(grades), seed=normal, missing_count=len(missing_relevant),
                  missing_grades=joined(missing_relevant))
    return GeneratedExercise(
        draft.id, None, answer, traps=traps, values=values_of(**values), solution_part=part,
        seed=draft.seed, metric=metric, scenario=scenario, k=draft.k, grades=draft.grades, missing=draft.missing)
