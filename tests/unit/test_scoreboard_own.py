"""A board that shows a query's own value beside the page's mean (MRR's lists: own RR and MRR), every move included."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from components.engine import metrics
from components.engine.formatting import fmt
from components.ranking_editor.model import EditorState
from components.ranking_editor.scoreboard import Scoreboard, payload
from tests.unit.reference_moves import Move, apply_move, look_up

IDS = ("a", "b", "c", "d")
lists = st.tuples(st.permutations(IDS), st.lists(st.integers(0, 1), min_size=len(IDS), max_size=len(IDS)))


def state_of(drawn) -> EditorState:
    order, grades = drawn
    return EditorState(order=tuple(order), tray=(), grades=dict(zip(IDS, grades)))


def rr(state: EditorState) -> float:
    return float(metrics.reciprocal_rank(metrics.from_rankings([state.order_grades()], [state.judged_grades()]))[0])


@settings(max_examples=40, deadline=None)
@given(lists, lists, st.integers(0, 1))
def test_own_rr_and_the_pages_mrr_after_every_move(mine, theirs, index):
    state, other = state_of(mine), state_of(theirs)
    board = Scoreboard(("RR", "RR"), ("RR, query", "MRR"), others=[other], query_index=index, own=(True, False))
    score = payload(board, state, k=None, tray=False, editable_grades=False, grade_range=(0, 1))
    shown = {**score["table"], "values": score["shown"]}  # the board's rows, as the browser reads them
    for move in (Move("place", doc, j) for doc in IDS for j in range(len(IDS))):
        after, _ = apply_move(state, move, grade_range=(0, 1))
        page = (rr(after) + rr(other)) / 2
        assert look_up(shown, move) == [fmt(rr(after)), fmt(page)]


def test_without_own_flags_a_board_with_others_shows_the_pages_mean():
    state = EditorState(order=("a", "b"), tray=(), grades={"a": 0, "b": 1})
    other = EditorState(order=("a", "b"), tray=(), grades={"a": 1, "b": 0})

    def current(board: Scoreboard) -> list[str]:
        score = payload(board, state, k=None, tray=False, editable_grades=False, grade_range=(0, 1))
        return score["shown"][score["table"]["current"]]

    assert current(Scoreboard(("RR",), ("MRR",), others=[other])) == ["0.750"]
    assert current(Scoreboard(("RR", "RR"), ("RR", "MRR"), others=[other], own=(True, False))) == ["0.500", "0.750"]
