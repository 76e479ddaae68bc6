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
