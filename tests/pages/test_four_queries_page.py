"""AppTest: Lesson 4, the four-query example."""
import pytest

from components.course import scenarios
from components.engine import metrics
from components.engine.formatting import fmt
from components.ui import state
from tests.pages.helpers import open_page

PAGE = "lessons/four_queries.py"


def metric(at, label):
    return next(m.value for m in at.metric if m.label == label)


def recall_row(at):
    return next(t.value for t in at.table if "k = 1" in t.value.columns).iloc[0]


def test_defaults_show_the_brief_numbers():
    at = open_page(PAGE)
    assert not at.exception
    row = recall_row(at)  # ranks 1, 3, 1, 8
    assert (row["k = 1"], row["k = 3"], row["k = 5"]) == ("0.500", "0.750", "0.750")
    assert metric(at, "MRR") == fmt((1 + 1 / 3 + 1 + 1 / 8) / 4)  # 0.615
    assert metric(at, "recall@5") == metric(at, "hit rate@5") == "0.750"


@pytest.mark.parametrize("ranks", [(1, 3, 1, 4), (10, 10, 10, 10), (None, 2, None, 7), (1, 1, 1, 1)])
@pytest.mark.parametrize("k", [1, 5, 10])
def test_ranks_set_through_session_state(ranks, k):
    at = open_page(PAGE, session={state.FOUR_RANKS: ranks})
    at.slider(key=state.FOUR_K).set_value(k).run()
    assert not at.exception
    qs = scenarios.four_query_set(ranks)
    assert metric(at, f"recall@{k}") == fmt(metrics.recall(qs, k).mean())
    assert metric(at, "MRR") == fmt(metrics.reciprocal_rank(qs).mean())


def test_moving_query_4_from_8_to_4():
    at = open_page(PAGE, session={state.FOUR_RANKS: (1, 3, 1, 4)})
    assert metric(at, "recall@5") == "1.000"
    assert metric(at, "MRR") == "0.646"  # (1 + 1/3 + 1 + 1/4) / 4


def test_presets_same_recall_different_mrr():
    at = open_page(PAGE)
    at.button(key="four.preset.k").click().run()
    assert (metric(at, "recall@5"), metric(at, "MRR")) == ("1.000", fmt(1 / 5))
    at.button(key="four.preset.top").click().run()
    assert (metric(at, "recall@5"), metric(at, "MRR")) == ("1.000", "1.000")
    at.button(key="four.preset.brief").click().run()
    assert not at.exception
    assert metric(at, "MRR") == "0.615"


@pytest.mark.parametrize("n, honest", [(1, "0.500"), (5, "0.750"), (100, "1.000")])
def test_choosing_k(n, honest):
    at = open_page(PAGE)
    at.number_input(key=state.FOUR_BUDGET).set_value(n).run()
    assert not at.exception
    assert any(f"recall@{n} = {honest}, while recall@100 = 1.000" in i.value for i in at.info)

