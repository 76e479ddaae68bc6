"""The "Your data" page's per-query table (components/course/per_query.py)."""
from __future__ import annotations

from components.course import per_query
from components.engine.measures import evaluate
from tests.unit.file_readers import load_trec

QRELS = "1 0 a 1\n1 0 b 1\n2 0 c 1\n3 0 d 0\n4 0 e 1\n5 0 f 1\n"
RUN = "1 Q0 x 1 9 r\n1 Q0 a 2 8 r\n2 Q0 y 1 9 r\n2 Q0 z 2 8 r\n2 Q0 c 3 7 r\n3 Q0 d 1 9 r\n5 Q0 g 1 9 r\n"


def test_a_row_per_query_with_its_counts_and_why_it_scores_zero():
    judged = load_trec(QRELS, RUN)
    values = evaluate(judged.queries, ["R@2"], "linear")
    table = per_query.per_query_table(judged, values, k=2).set_index(per_query.QUERY_COLUMN)
    below_k, none_returned, no_relevant = per_query.NOTES
    assert table.loc["1", "R@2"] == 0.5 and table.loc["1", per_query.NOTE_COLUMN] == ""
    assert table.loc["2", per_query.NOTE_COLUMN] == below_k  # its relevant document at rank 3
    assert table.loc["3", per_query.NOTE_COLUMN] == no_relevant
    assert table.loc["5", per_query.NOTE_COLUMN] == none_returned
    assert table.loc["2", "first relevant at"] == 3 and table.loc["1", "relevant judged"] == 2
    assert "4" not in table.index  # in the qrels only: not evaluated
