"""Constraint puzzles: find an order of a lesson's pool that beats a given order on one measure and loses on
another ("higher Recall@5 but lower nDCG@5 than this one"), checked by the engine after every move.

A comparison is made on the values as the app displays them (three decimals): a learner who sees 0.400
against 0.400 has not made it higher, whatever the fourth decimal says. No Streamlit import here.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Literal, Sequence

from components.course import scenarios as sc
from components.engine import metrics
from components.engine.formatting import fmt
from components.engine.measures import evaluate, parse_measure
from components.engine.metrics import Gain

Relation = Literal["higher", "lower", "same"]


@dataclass(frozen=True)
class Constraint:
    """The learner's order must score ``relation`` than (or the same as) the reference on ``measure``."""

    measure: str  # an engine name with its cutoff, e.g. "R@5"
    relation: Relation


@dataclass(frozen=True)
class Outcome:
    """One constraint checked: the two displayed values and whether the learner's order meets it."""

    constraint: Constraint
    reference: str
    yours: str
    met: bool


@dataclass(frozen=True)
class Puzzle:
    """A reference order of ``query``'s pool and the constraints an order of the same pool must meet.

    The judged grades are the query's (a document left out of an order is not returned, still judged).
    """

    id: str
    query: sc.Query
    reference: tuple[str, ...]
    constraints: tuple[Constraint, ...]
    gain: Gain = "exponential"

    def values(self, order: Sequence[str]) -> dict[str, str]:
        """Each constrained measure of ``order``, as displayed."""
        qs = metrics.from_rankings([self.query.grades(order).tolist()], [self.query.judged_grades().tolist()])
        found = evaluate(qs, [c.measure for c in self.constraints], self.gain)
        return {c.measure: fmt(float(found[parse_measure(c.measure).name][0])) for c in self.constraints}

    def check(self, order: Sequence[str]) -> tuple[Outcome, ...]:
        """Every constraint, checked for ``order`` against the reference.

        Examples
        --------
        >>> p = Puzzle("x", sc.LAWYER, sc.LAWYER.presets["System A"], (Constraint("R@5", "same"),
        ...            Constraint("RR", "lower")))
        >>> [o.met for o in p.check(p.reference)]
        [True, False]
        >>> moved = ("n20", "c01", "c02") + p.reference[3:]
        >>> [(o.reference, o.yours, o.met) for o in p.check(moved)]
        [('0.400', '0.400', True), ('1.000', '0.500', True)]
        """
        ref, yours = self.reference_values, self.values(order)
        return tuple(Outcome(c, ref[c.measure], yours[c.measure], _meets(yours[c.measure], ref[c.measure],
                                                                          c.relation))
                     for c in self.constraints)

    @cached_property
    def reference_values(self) -> dict[str, str]:
        """:meth:`values` of the reference order (the same for every check)."""
        return self.values(self.reference)


def _meets(yours: str, reference: str, relation: Relation) -> bool:
    a, b = float(yours), float(reference)
    return a > b if relation == "higher" else a < b if relation == "lower" else a == b


# The lawyer's System A: keep its Recall@5, lose reciprocal rank (recall does not see where the hits sit).
RECALL_SAME_RR_LOWER = Puzzle("recall.same_recall_lower_rr", sc.LAWYER, sc.LAWYER.presets["System A"],
                              (Constraint("R@5", "same"), Constraint("RR", "lower")))
# The lawyer's System A again: lose reciprocal rank, gain AP (AP reads every hit, RR only the first; bringing
# more relevant cases into the list pays for a first hit pushed down).
AP_HIGHER_RR_LOWER = Puzzle("ap.higher_ap_lower_rr", sc.LAWYER, sc.LAWYER.presets["System A"],
                            (Constraint("AP", "higher"), Constraint("RR", "lower")))
# Two grade-2 pages in the top two, nothing else relevant in the top 5: more relevant pages in the top 5
# (higher Recall@5) placed worse can still lose on nDCG@5.
NDCG_RECALL_UP_NDCG_DOWN = Puzzle(
    "ndcg.recall_up_ndcg_down", sc.FRAMEWORKS,
    ("django", "flask", "snake", "monty", "pythons", "fastapi", "pyramid", "bottle"),
    (Constraint("R@5", "higher"), Constraint("nDCG@5", "lower")))
