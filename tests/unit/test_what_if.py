"""One query of a loaded pair in the ranking editor: the editor's live scoreboard is the engine's what-if value
(components/course/what_if.py, components/ui/what_if_view.py)."""
from __future__ import annotations

from components.course.samples import SAMPLE_QRELS, SAMPLE_RUN
from components.course.what_if import query_pool, what_if_values
from components.engine.formatting import fmt
from components.ui.what_if_view import editor_items, query_scoreboard
from tests.unit.file_readers import load_trec


def test_the_query_editors_scoreboard_equals_the_what_if_values_after_every_move():
    """The live preview of a query of the sample files is the engine's what-if value for each single move."""
    from components.ranking_editor import scoreboard
    from components.ranking_editor.model import initial_state
    from tests.unit.reference_moves import apply_move, editor_moves, look_up

    judged = load_trec(SAMPLE_QRELS.read_text(), SAMPLE_RUN.read_text())
    names, gain, grade_range = ("R@10", "RR", "nDCG@10"), "linear", (0, 2)
    checked = 0
    for q in range(len(judged.qids)):
        pool = query_pool(judged, q)
        items, order = editor_items(pool), [doc for doc, _, _ in pool.top]
        board = query_scoreboard(judged, q, items, names, gain)
        assert board is not None
        start = initial_state(items, order, tray=True, grade_range=grade_range)
        score = scoreboard.payload(board, start, k=10, tray=True, editable_grades=True, grade_range=grade_range)
        shown = {**score["table"], "values": score["shown"]}  # look_up reads rows of whatever "values" holds
        for move in editor_moves(start, k=10, tray=True, editable_grades=True, grade_range=grade_range):
            if move.kind == "cutoff":
                continue  # the page's measures name their k (R@10): a cutoff move does not change them
            after, _ = apply_move(start, move, k=10, grade_range=grade_range)
            expected = what_if_values(judged, q, after.order, dict(after.grades), names, gain)
            assert look_up(shown, move) == [fmt(expected[n]) for n in names], (judged.qids[q], move)
            checked += 1
    assert checked > 100
