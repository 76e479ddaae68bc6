"""The scoreboard's payloads, shared by every session: a kept payload is the one the inputs give, and inputs
that differ anywhere (a long tail a repr would cut included) never share one."""
from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from components.ranking_editor import scoreboard
from components.ranking_editor.model import EditorState
from components.ranking_editor.scoreboard import Scoreboard, input_key, payload

STATE = EditorState(order=("a", "b", "c"), tray=(), grades={"a": 0, "b": 1, "c": 1})


def score(board: Scoreboard, state: EditorState = STATE, k: int = 2) -> dict:
    return payload(board, state, k=k, tray=False, editable_grades=False, grade_range=(0, 2))


def test_a_kept_payload_is_the_one_made_for_the_same_inputs():
    board = Scoreboard(("R@k", "RR"), ("Recall@{k}", "RR"))
    first = score(board)
    assert score(Scoreboard(("R@k", "RR"), ("Recall@{k}", "RR"))) is first  # equal inputs: the kept one
    assert score(board, k=1) is not first and score(board, k=1)["shown"] != first["shown"]
    swapped = EditorState(order=("b", "a", "c"), tray=(), grades=dict(STATE.grades))
    assert score(board, swapped)["shown"] != first["shown"]


def test_long_tails_that_differ_past_what_a_repr_shows_do_not_share_a_payload():
    tail = np.zeros(5000, dtype=np.int64)
    other = tail.copy()
    other[10] = 1  # the relevant document not in the list is found, 13th, in the rest of the run
    assert repr(tail) == repr(other)
    boards = [Scoreboard(("AP",), ("AP",), tail=t, extra_judged=(1,)) for t in (tail, other)]
    assert score(boards[0])["shown"] != score(boards[1])["shown"]


def test_the_store_is_bounded():
    for k in range(1, 3):
        for n in range(scoreboard.SHARED_PAYLOADS):
            score(Scoreboard(("RR",), ("RR",), query_index=0, relevance_level=1 + n % 2, extra_judged=(n,)), k=k)
    assert scoreboard._shared_payload.cache_info().currsize <= scoreboard.SHARED_PAYLOADS


@given(st.recursive(st.one_of(st.integers(), st.text(max_size=3), st.booleans(), st.none()),
                    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=2), inner,
                                                                                          max_size=3)),
                    max_leaves=8))
def test_input_keys_are_hashable_and_equal_for_equal_values(value):
    assert hash(input_key(value)) == hash(input_key(value))
