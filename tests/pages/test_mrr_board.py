"""MRR's lists: each board shows its own query's RR beside the page's MRR (issue #42: the query you drag shows its own
RR, not only the set's MRR)."""
from __future__ import annotations

from components.course import prose, scenarios
from components.engine import metrics
from components.engine.formatting import fmt
from components.ui import state
from tests.pages.helpers import board, open_page


def test_each_list_shows_its_own_rr_and_the_pages_mrr():
    at = open_page("lessons/mrr.py")
    rr = []
    for q in scenarios.JAR_QUERIES:
        order = next(iter(q.presets.values()))
        qs = metrics.from_rankings([q.grades(order)], [q.judged_grades()])
        rr.append(metrics.reciprocal_rank(qs)[0])
    mrr = fmt(sum(rr) / len(rr))
    for i, key in enumerate(state.MRR_EDITORS):
        assert board(at, key) == {prose.text("mrr", "Label RR card", i=i + 1): fmt(rr[i]), "MRR": mrr}


def test_no_card_repeats_a_boards_number():
    """One number per measure: a card beside the lists would keep its old value while a list is dragged."""
    at = open_page("lessons/mrr.py")
    shown = {label for key in state.MRR_EDITORS for label in board(at, key)}
    assert shown and not shown & {m.label for m in at.metric}
