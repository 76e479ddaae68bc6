"""The ranking editor's Python side: the data model's validation, the wrapper's errors, describe_change."""
import math

import pytest
from streamlit.testing.v1 import AppTest

from components.course.scenarios import FRAMEWORKS
from components.ranking_editor import EditorItem, EditorState, describe_change, editor_items
from components.ranking_editor.model import (
    check_editor_k,
    check_grade_range,
    check_items,
    config_for,
    grade_label,
    normalise,
    state_from_payload,
)

ITEMS = (EditorItem("a", "Alpha", 2), EditorItem("b", "Beta", 0), EditorItem("c", "Gamma", 1),
         EditorItem("u", "Unjudged blog"))


def config(tray=True, grade_range=(0, 2)):
    return config_for(check_items(ITEMS, grade_range), tray, grade_range)


# --- items, k and grade range --------------------------------------------------------------

def test_duplicate_ids_are_refused():
    with pytest.raises(ValueError, match="unique: 'a' appears more than once"):
        check_items([EditorItem("a", "A"), EditorItem("a", "A again")], (0, 2))


def test_an_empty_id_or_a_non_item_is_refused():
    with pytest.raises(ValueError, match="non-empty string id"):
        check_items([EditorItem("", "nameless")], (0, 2))
    with pytest.raises(ValueError, match="EditorItem objects"):
        check_items([{"id": "a", "title": "A"}], (0, 2))


@pytest.mark.parametrize("grade", [3, -1, 1.5, True])
def test_an_item_grade_outside_the_range_is_refused(grade):
    with pytest.raises(ValueError, match="grade of 'a' must be a whole number from 0 to 2"):
        check_items([EditorItem("a", "A", grade)], (0, 2))


def test_a_wider_range_admits_negative_grades():
    assert check_items([EditorItem("spam", "Spam", -2)], (-2, 2))[0].grade == -2


@pytest.mark.parametrize("k", [0, -3, 2.5, True, "3"])
def test_k_must_be_a_whole_number_at_least_1(k):
    with pytest.raises(ValueError, match="k must"):
        check_editor_k(k)


def test_k_none_means_no_cutoff_line():
    assert check_editor_k(None) is None
    assert check_editor_k(4) == 4


@pytest.mark.parametrize("bad", [(2, 0), (0,), "02", (0, 1.5), None])
def test_grade_range_must_be_an_ordered_pair_of_whole_numbers(bad):
    with pytest.raises(ValueError, match="grade_range"):
        check_grade_range(bad)


# --- placing items and checking orders -----------------------------------------------------

def test_items_left_out_go_to_the_tray_in_item_order():
    state = normalise(config(tray=True), ["c"])
    assert state == EditorState(order=("c",), tray=("a", "b", "u"), grades={"a": 2, "b": 0, "c": 1})


def test_without_a_tray_items_left_out_are_appended():
    state = normalise(config(tray=False), ["c", "a"])
    assert state.order == ("c", "a", "b", "u") and state.tray == ()


def test_an_unjudged_item_is_absent_from_grades_and_counts_as_zero():
    state = normalise(config(), ["u", "a"])
    assert "u" not in state.grades
    assert state.order_grades() == [0, 2]
    assert state.judged_grades() == [2, 0, 1] and state.n_relevant() == 2


@pytest.mark.parametrize("order, tray, message", [
    (["a", "zz"], None, "the order names unknown id 'zz'"),
    (["a", "a"], None, "the order lists 'a' more than once"),
    (["a"], ["x"], "the tray names unknown id 'x'"),
    (["a"], ["a"], "'a' cannot be both in the order and in the tray"),
    ("ab", None, "not the single string 'ab'"),
])
def test_bad_orders_and_trays_are_refused(order, tray, message):
    with pytest.raises(ValueError, match=message):
        normalise(config(), order, tray)


def test_a_tray_on_an_editor_without_one_is_refused():
    with pytest.raises(ValueError, match="this editor has no tray"):
        normalise(config(tray=False), ["a"], ["b"])


def test_grade_overrides_are_checked_and_merged():
    state = normalise(config(), ["a", "b"], grades={"b": 2, "u": 1})
    assert state.grades == {"a": 2, "b": 2, "c": 1, "u": 1}
    with pytest.raises(ValueError, match="grade of 'b' must be a whole number from 0 to 2"):
        normalise(config(), ["a"], grades={"b": 5})
    with pytest.raises(ValueError, match="the grades names unknown id 'nope'"):
        normalise(config(), ["a"], grades={"nope": 1})


def test_a_message_from_the_browser_must_place_every_item_once():
    good = {"seq": 3, "order": ["c", "a"], "tray": ["b", "u"], "grades": {"a": 2, "b": 0, "c": 2}}
    assert state_from_payload(config(), good).grades["c"] == 2
    with pytest.raises(ValueError, match="every item exactly once"):
        state_from_payload(config(), {**good, "tray": ["b"]})
    with pytest.raises(ValueError, match="every item exactly once"):
        state_from_payload(config(), {**good, "tray": ["b", 7]})
    with pytest.raises(ValueError, match="from 0 to 2"):
        state_from_payload(config(), {**good, "grades": {"a": 7}})
    with pytest.raises(ValueError, match="lists 'order' and 'tray'"):
        state_from_payload(config(), {"order": "c,a"})


def test_editor_items_and_grade_labels():
    items = editor_items(FRAMEWORKS.docs)
    assert [i.id for i in items] == [d.id for d in FRAMEWORKS.docs]
    assert grade_label(1) == "relevant" and grade_label(1, (0, 1)) == "relevant"
    assert grade_label(-2, (-2, 2)) == "non-relevant (-2)"


# --- the Streamlit wrapper (run in AppTest, which gives it a session) -----------------------

def run_script(body: str) -> AppTest:
    """Run a tiny script that uses the editor; return the finished AppTest."""
    source = "from components.ranking_editor import *\nimport streamlit as st\n" + body
    return AppTest.from_string(source, default_timeout=30).run()


@pytest.mark.parametrize("call, message", [
    ("ranking_editor([EditorItem('a', 'A'), EditorItem('a', 'B')], key='e', default_order=['a'])",
     "unique"),
    ("ranking_editor([EditorItem('a', 'A')], key='e', default_order=['b'])", "unknown id 'b'"),
    ("ranking_editor([EditorItem('a', 'A', 3)], key='e', default_order=['a'])", "from 0 to 2"),
    ("ranking_editor([EditorItem('a', 'A')], key='e', default_order=['a'], k=0)", "at least 1"),
    ("ranking_editor([EditorItem('a', 'A')], key='my__editor', default_order=['a'])", "must not contain '__'"),
    ("ranking_editor([EditorItem('a', 'A')], key='e', default_order=['a'], scale=10)", "scale"),
])
def test_the_wrapper_raises_clear_value_errors(call, message):
    at = run_script(call)
    assert at.exception[0].proto.type == "ValueError"
    assert message in at.exception[0].message


def test_set_editor_state_is_checked_against_a_rendered_editor():
    at = run_script(
        "items = [EditorItem('a', 'A', 1), EditorItem('b', 'B', 0)]\n"
        "ranking_editor(items, key='e', default_order=['a', 'b'])\n"
        "set_editor_state('e', ['b', 'zz'])\n")
    assert at.exception[0].proto.type == "ValueError"
    assert "unknown id 'zz'" in at.exception[0].message


def test_set_editor_state_before_the_first_render_is_checked_at_the_render():
    at = run_script(
        "set_editor_state('e', ['b', 'zz'])\n"
        "ranking_editor([EditorItem('a', 'A', 1), EditorItem('b', 'B', 0)], key='e', default_order=['a'])\n")
    assert "unknown id 'zz'" in at.exception[0].message


def test_set_editor_state_then_render_and_read_back():
    at = run_script(
        "items = [EditorItem('a', 'A', 1), EditorItem('b', 'B', 0), EditorItem('c', 'C', 2)]\n"
        "assert editor_state('e') is None\n"
        "set_editor_state('e', ['c'], grades={'b': 1})\n"
        "state = ranking_editor(items, key='e', default_order=['a', 'b'], tray=True)\n"
        "st.text(f'same: {state == editor_state(\"e\")}')\n")
    assert not at.exception
    state = at.session_state["e"]
    assert state == EditorState(order=("c",), tray=("a", "b"), grades={"a": 1, "b": 1, "c": 2})
    assert at.text[0].value == "same: True"


# --- describe_change -------------------------------------------------------------------------

def test_describe_change_says_what_moved_and_what_stayed():
    before = {"Recall@5": 0.4, "RR": 0.5, "nDCG@5": 0.6}
    after = {"Recall@5": 0.4, "RR": 1 / 3, "nDCG@5": 0.7}
    changes = describe_change(before, after)
    assert [c.name for c in changes] == ["Recall@5", "RR", "nDCG@5"]
    assert [c.moved for c in changes] == [False, True, True]
    assert [c.direction for c in changes] == ["same", "down", "up"]
    assert changes[1].delta == pytest.approx(1 / 3 - 0.5)
    assert changes[1].text() == "RR 0.500 → 0.333 (−0.167)"
    assert changes[2].text() == "nDCG@5 0.600 → 0.700 (+0.100)"


def test_a_change_below_display_precision_is_not_a_move():
    (change,) = describe_change({"nDCG@3": 0.5308}, {"nDCG@3": 0.5308 + 1e-12})
    assert not change.moved and change.direction == "same"
    (change,) = describe_change({"x": 0.1}, {"x": 0.1004}, decimals=4)
    assert change.moved


def test_undefined_values():
    (same,) = describe_change({"P": math.nan}, {"P": math.nan})
    assert not same.moved
    (became,) = describe_change({"P": math.nan}, {"P": 0.5})
    assert became.moved and became.direction == "changed"
    assert became.text() == "P undefined → 0.500"


def test_describe_change_refuses_different_metrics_or_non_numbers():
    with pytest.raises(ValueError, match="same metrics"):
        describe_change({"Recall@5": 0.4}, {"Recall@6": 0.4})
    with pytest.raises(ValueError, match="must be numbers"):
        describe_change({"RR": "high"}, {"RR": 0.5})


@pytest.mark.parametrize("options", [{}, {"view": "strip", "k": 1, "k_key": "k"}, {"view": "strip", "editable_grades": True}])
def test_a_fixed_view_is_a_strip_whose_line_and_grades_do_not_move(options):
    """fixed=True (a fused list the page makes) is only for a strip, and nothing on it may move: not its cutoff line,
    not its grades."""
    from components.ranking_editor import ranking_editor

    with pytest.raises(ValueError, match="fixed=True is for a strip"):
        ranking_editor([EditorItem("a", "A", 1)], key="fixed", default_order=["a"], fixed=True, **options)
