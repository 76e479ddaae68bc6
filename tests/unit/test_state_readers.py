"""URL readers: good values pass, bad ones fall back to the default with a note; never raise."""
import pytest
from hypothesis import given
from hypothesis import strategies as st

from components.ui import state

IDS = ("a", "b", "c", "007", "7")


@pytest.mark.parametrize("raw, value, noted", [
    (None, 5, False), ("", 5, False), ("3", 3, False), (" 20 ", 20, False),
    ("0", 5, True), ("21", 5, True), ("2.5", 5, True), ("five", 5, True), ("<b>1</b>", 5, True),
])
def test_read_k(raw, value, noted):
    reading = state.read_k(raw, default=5, hi=20)
    assert reading.value == value
    assert (reading.note is not None) == noted


def test_notes_say_what_was_wrong():
    assert "outside 1 to 20" in state.read_k("99", default=5, hi=20).note
    assert "unknown document" in state.read_order("a,zz", valid_ids=IDS, default=IDS).note


@pytest.mark.parametrize("raw, value", [
    ("c,a", ("c", "a")), ("007,7", ("007", "7")), ("-", ()), (None, IDS), ("a,a", IDS), ("a,,b", IDS),
])
def test_read_order(raw, value):
    assert state.read_order(raw, valid_ids=IDS, default=IDS).value == value


def test_write_order_round_trips():
    for order in [("c", "a"), (), IDS]:
        assert state.read_order(state.write_order(order), valid_ids=IDS, default=("a",)).value == order


@pytest.mark.parametrize("raw, grades, noted", [
    ("a:2,b:0", {"a": 2, "b": 0, "c": 1}, False),
    ("a:3", {"a": 1, "b": 1, "c": 1}, True),
    ("x:1", {"a": 1, "b": 1, "c": 1}, True),
    ("a=1", {"a": 1, "b": 1, "c": 1}, True),
])
def test_read_grades(raw, grades, noted):
    reading = state.read_grades(raw, valid_ids=("a", "b", "c"), default={"a": 1, "b": 1, "c": 1}, lo=0, hi=2)
    assert reading.value == grades and (reading.note is not None) == noted


@pytest.mark.parametrize("raw, value, noted", [
    ("linear", "linear", False), ("Exponential", "exponential", False), ("log", "exponential", True),
])
def test_read_gain(raw, value, noted):
    reading = state.read_gain(raw)
    assert reading.value == value and (reading.note is not None) == noted


@pytest.mark.parametrize("raw, value, noted", [("1", True, False), ("off", False, False), ("maybe", False, True)])
def test_read_flag(raw, value, noted):
    reading = state.read_flag(raw, name="reveal")
    assert reading.value is value and (reading.note is not None) == noted


def test_load_mode_flags_keeps_what_the_session_already_has():
    session = {state.PROJECTOR: False}
    notes = state.load_mode_flags({"projector": "1", "reveal": "1", "predict_first": "x"}, session)
    assert session == {state.PROJECTOR: False, state.REVEAL: True, state.PREDICT_FIRST: False,
                       state.STEP_MODE: False}
    assert len(notes) == 1 and "predict_first" in notes[0]


@given(st.text(max_size=60))
def test_readers_never_raise(raw):
    state.read_k(raw, default=1, hi=10)
    state.read_gain(raw)
    state.read_flag(raw, name="f")
    state.read_order(raw, valid_ids=IDS, default=IDS)
    state.read_grades(raw, valid_ids=IDS, default={}, lo=0, hi=2)
