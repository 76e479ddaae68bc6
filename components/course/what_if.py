"""One query of a loaded pair in the ranking editor ("what if"): which documents the editor holds, and the
query's measures with the editor's order on top.

No Streamlit import here.
"""
from __future__ import annotations

from dataclasses import dataclass

from components.engine import metrics, model
from components.engine.measures import evaluate
from components.engine.metrics import Gain

POOL = 20  # the run's top results opened in the editor
TRAY_MAX = 30  # relevant judged documents not returned, shown in the tray


@dataclass(frozen=True)
class QueryPool:
    """What the editor holds of a query: the run's top :data:`POOL` (document, score, grade or None when
    unjudged), then up to :data:`TRAY_MAX` relevant judged documents the run did not return (document, grade),
    and the counts the page reports."""

    top: list[tuple[str, float, int | None]]
    tray: list[tuple[str, int]]
    facts: dict[str, int]


def query_pool(judged: model.JudgedRun, q: int) -> QueryPool:
    """The editor's documents for query q, highest grades first in the tray."""
    ranking = judged.ranking(q)
    grades = judged.grades(q)
    returned = {doc for doc, _, _ in ranking}
    missing = sorted(((d, g) for d, g in grades.items() if d not in returned), key=lambda dg: -dg[1])
    level = judged.queries.relevance_level
    relevant_missing = [(d, g) for d, g in missing if g >= level]
    tray = relevant_missing[:TRAY_MAX]
    facts = {"relevant": sum(1 for g in grades.values() if g >= level), "returned": len(ranking),
             "missing": len(relevant_missing), "shown": len(tray), "more": len(relevant_missing) - len(tray),
             "non_relevant_missing": len(missing) - len(relevant_missing)}
    return QueryPool([(doc, score, grades.get(doc)) for doc, score, _ in ranking[:POOL]], tray, facts)


def what_if_values(judged: model.JudgedRun, q: int, order, edited_grades: dict[str, int], names, gain: Gain):
    """The measures of query q with the editor's order on top (positions beyond POOL as in the run).

    ``edited_grades`` are the editor's grades (a learner's change included);
    every other judged document of the query (and one whose grade the editor
    cannot show) keeps its grade, so Recall's denominator and nDCG's ideal
    still see all of them.
    """
    ranking = judged.ranking(q)
    judged_grades = {**judged.grades(q), **edited_grades}
    rest = [doc for doc, _, _ in ranking[POOL:]]
    grades = [judged_grades.get(doc, 0) for doc in [*order, *rest]]
    qs = metrics.with_relevance_level(metrics.from_rankings([grades], [list(judged_grades.values())]),
                                      judged.queries.relevance_level)
    return {name: float(v[0]) for name, v in evaluate(qs, names, gain).items()}


def below_pool(judged: model.JudgedRun, q: int) -> list[int]:
    """The grades of the run's results below the editor's list (0 where unjudged), in rank order."""
    grades = judged.grades(q)
    return [grades.get(doc, 0) for doc, _, _ in judged.ranking(q)[POOL:]]
