"""AppTest: "Why does my number differ?", the conventions switchboard."""
import pytest

from components.course import scenarios
from components.engine import conventions, metrics
from components.engine.formatting import fmt
from components.ranking_editor import EditorState
from components.ui import state
from tests.pages.helpers import open_page

PAGE = "lessons/differ.py"
Q = scenarios.FRAMEWORKS


def table(at, column):
    return next(t.value for t in [*at.dataframe, *at.table] if column in t.value.columns)


def value(at, convention):
    rows = table(at, "convention")
    return rows.loc[rows["convention"] == convention, "value"].item()


@pytest.mark.parametrize("k", [1, 5, len(Q.docs)])
def test_every_row_has_the_engines_number(k):
    at = open_page(PAGE)
    at.slider(key=state.DIFFER_K).set_value(k).run()
    assert not at.exception
    grades = Q.grades(Q.presets["Mixed grades"])
    judged = Q.judged_grades()
    assert len(table(at, "convention")) == 12
    assert value(at, "nDCG@k, linear gain (rel)") == fmt(metrics.ndcg_at_k(grades, k, judged, "linear"))
    query = metrics.from_rankings([grades], [judged])
    level_2 = metrics.recall(metrics.with_relevance_level(query, 2), k)[0]
    assert value(at, "Recall@k, only grade 2 relevant") == fmt(level_2)
    assert value(at, "AP@k over every relevant page") == fmt(metrics.average_precision(query, k)[0])
    assert value(at, "AP@k over min(k, relevant)") == fmt(conventions.ap_at_k_capped(grades, k, 5))
    assert value(at, "RR, unjudged pages dropped first") == value(at, "RR, no cutoff")  # every page is judged
    assert value(at, "nDCG@k, exponential gain (2^rel − 1)") == fmt(metrics.ndcg_at_k(grades, k, judged))
    assert value(at, "Recall@k, denominator min(|relevant|, k)") == fmt(conventions.capped_recall_at_k(grades, k, 5))
    assert value(at, "RR@k, a hit below k counts 0") == fmt(metrics.reciprocal_rank_of(grades, k))
    ties = table(at, "tie rule")
    assert len(ties) == 3


def test_a_missed_page_splits_the_ideal_conventions():
    order = Q.presets["FastAPI missed"]
    at = open_page(PAGE, session={state.DIFFER_EDITOR: EditorState(order=order, tray=("fastapi",),
                                                                   grades={d.id: d.grade for d in Q.docs})})
    assert not at.exception
    grades = Q.grades(order)
    assert value(at, "nDCG@k, ideal from the returned list only") == fmt(conventions.ndcg_returned_ideal(grades, 3, "linear"))
    assert value(at, "nDCG@k, linear gain (rel)") != value(at, "nDCG@k, ideal from the returned list only")


def test_the_tie_rules_disagree_on_the_tied_preset():
    at = open_page(PAGE)
    ties = table(at, "tie rule")
    assert ties.iloc[0]["top k"] == "django, snake, monty"  # trec_eval: docid descending among the 0.7s
    assert ties.iloc[1]["top k"] == "django, flask, snake"  # the listed order
    assert len(set(ties["nDCG@3 (linear)"])) == 3


def test_the_empty_query_sentence():
    at = open_page(PAGE)
    recall = metrics.recall_at_k(Q.grades(Q.presets["Mixed grades"]), 3, 5)
    text = next(md.value for md in at.markdown if "no relevant item" in md.value and "skipped" in md.value)
    assert f"**{fmt(recall / 2)}** if it counts as 0" in text and f"**{fmt(recall)}** if it is skipped" in text
