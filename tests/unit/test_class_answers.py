"""A live class's answers read against the value and its slips (components.course.class_answers)."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from components.course import class_answers as ca
from components.course import quiz
from components.course import scenarios as sc
from components.engine import conventions, metrics
from components.ui import charts

Q = sc.LAWYER


def lawyer(preset: str = "System A") -> metrics.QuerySet:
    return metrics.from_rankings([Q.grades(Q.presets[preset])], [Q.judged_grades()])


def test_recall_at_5_of_system_a_and_its_slips_come_from_the_engine():
    asked = ca.asked_on_screen("R@k", "Recall@5", lawyer(), 5)
    assert asked.value == pytest.approx(0.4)  # 4 of the 10 relevant cases in the top 5
    assert {t.name: t.value for t in asked.slips} == {"precision": pytest.approx(0.8), "hit rate": 1.0}


def test_ap_divided_by_the_relevant_returned_is_the_tutorials_mistake_per_query():
    rankings = [Q.grades(Q.presets[p]) for p in ("System A", "System B")]
    qs = metrics.from_rankings(rankings, [Q.judged_grades()] * 2)
    slips = {t.name: t.value for t in ca.asked_on_screen("AP", "AP", qs, 5).slips}
    expected = sum(conventions.ap_over_returned(g) for g in rankings) / 2
    assert slips["relevant returned"] == pytest.approx(expected)


def test_ndcg_on_graded_pages_has_the_other_gain_and_dcg_as_slips():
    q = sc.FRAMEWORKS
    qs = metrics.from_rankings([q.grades(q.presets[sc.FRAMEWORKS_MIXED])], [q.judged_grades()])
    asked = ca.asked_on_screen("nDCG@k", "nDCG@3", qs, 3, "exponential")
    slips = {t.name: t.value for t in asked.slips}
    assert asked.value == pytest.approx(metrics.ndcg(qs, 3)[0])
    assert slips["other gain"] == pytest.approx(metrics.ndcg(qs, 3, "linear")[0])
    assert slips["dcg"] == pytest.approx(metrics.dcg(qs, 3)[0])


def test_mrr_slips_are_the_sum_and_the_inverted_mean_rank():
    qs = sc.four_query_set()
    asked = ca.asked_on_screen("MRR", "MRR", qs, 1)
    rr = metrics.reciprocal_rank(qs)
    slips = {t.name: t.value for t in asked.slips}
    assert asked.value == pytest.approx(rr.mean()) and slips["sum"] == pytest.approx(rr.sum())
    assert slips["mean rank"] == pytest.approx(1 / (1 / rr).mean())


def test_an_unknown_measure_is_refused():
    with pytest.raises(ValueError, match="askable"):
        ca.asked_on_screen("bpref", "bpref", lawyer(), 5)


def test_guesses_are_sorted_into_right_slips_other_and_not_numbers():
    asked = ca.asked_on_screen("R@k", "Recall@5", lawyer(), 5)
    guesses = ca.read_guesses({"0.4": 3, "2/5": 1, "80%": 2, "0.8": 1, "0.55": 1, "lots": 2}, asked)
    assert (guesses.right, guesses.other, guesses.not_numbers, guesses.total) == (4, 1, 2, 10)
    assert [(t.name, n) for t, n in guesses.slips] == [("precision", 3)]
    assert sorted(guesses.values) == sorted([0.4] * 4 + [0.8] * 3 + [0.55])


@given(st.dictionaries(st.one_of(st.floats(0, 1).map(lambda v: f"{v:.3f}"), st.text(max_size=5)),
                       st.integers(1, 30), max_size=12))
def test_every_answer_is_counted_once(answers):
    asked = ca.Asked("Recall@5", 0.4, (quiz.Trap("precision", 0.8),))
    guesses = ca.read_guesses(answers, asked)
    assert guesses.total == sum(answers.values())
    assert guesses.right + sum(n for _, n in guesses.slips) + guesses.other == len(guesses.values)


def test_choice_counts_follow_the_options_and_ignore_the_rest():
    assert ca.choice_counts({"b": 2, "zz": 5}, ("a", "b")) == (("a", 0), ("b", 2))


def test_the_guesses_chart_says_in_words_what_it_draws():
    figure = charts.class_guesses([0.4, 0.4, 0.8], label="Recall@5", value=0.4, slips=[("precision", 0.8)])
    assert figure.alt_text == ("3 guesses of Recall@5, whose value is 0.400: 2 at 0.40; 1 at 0.80. "
                               "Marked: precision at 0.800.")
    assert [m["side"] for m in (*figure.rows["value"], *figure.rows["slips"])] == ["left", "right"]  # room
    choices = charts.class_choices([("a", 1), ("b", 2)], correct=None)
    assert "✓" not in choices.alt_text  # not revealed: no answer marked
