"""AppTest: Lesson 4, the four-query example."""
import json

import pytest

from components.course import scenarios
from components.engine import metrics
from components.engine.formatting import fmt
from components.rank_figure import widget_key
from components.ui import state
from tests.pages.helpers import cards, figure_board, open_page

PAGE = "lessons/four_queries.py"


def metric(at, label):
    """The value the figure's board shows under ``label`` (recall@k, MRR: the page's one place for them)."""
    return figure_board(at, state.FOUR_RANKS)[label]


def figure(at) -> dict:
    """What the page sends the four-query figure (its ranks, k and scoreboard) for the browser to draw."""
    (element,) = [e for e in at.get("bidi_component") if e.key == widget_key(state.FOUR_RANKS)]
    return json.loads(element.proto.json)


def board(at) -> list[str]:
    """The figure's scoreboard for the ranks on it (recall@k, MRR); [] while it is hidden."""
    score = figure(at)["score"]
    return score["shown"][score["current"]] if score else []


def means(ranks, k=5) -> list[str]:
    qs = scenarios.four_query_set(ranks)
    return [fmt(metrics.recall(qs, k).mean()), fmt(metrics.reciprocal_rank(qs).mean())]


def recall_row(at):
    return next(t.value for t in at.table if "k = 1" in t.value.columns).iloc[0]


def test_defaults_show_the_brief_numbers():
    at = open_page(PAGE)
    assert not at.exception
    row = recall_row(at)  # ranks 1, 3, 1, 8
    assert (row["k = 1"], row["k = 3"], row["k = 5"]) == ("0.500", "0.750", "0.750")
    assert metric(at, "MRR") == fmt((1 + 1 / 3 + 1 + 1 / 8) / 4)  # 0.615
    assert metric(at, "recall@5") == cards(at)["hit rate@5"] == "0.750"


@pytest.mark.parametrize("query", [{}, {"predict_first": "1"}, {"steps": "1"}])
def test_the_figures_board_is_the_one_place_for_its_numbers(query):
    """Issue #42: no big card repeats a value the figure's board shows (mid-drag the board previews and a card
    would not), in every mode; hit rate@k, which the board lacks, keeps its card, hidden with the board."""
    at = open_page(PAGE, query=query)
    assert not at.exception
    assert list(figure_board(at, state.FOUR_RANKS)) == ["recall@5", "MRR"]
    assert list(cards(at)) == ["hit rate@5"]
    assert (cards(at)["hit rate@5"] == "?") == (set(figure_board(at, state.FOUR_RANKS).values()) == {"?"})


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



def test_predict_first_sends_the_figure_no_numbers_until_revealed():
    """Hidden, the figure gets no scoreboard (it shows "?" for each value and each query's RR, and previews
    nothing); revealed, the engine's values for its ranks."""
    at = open_page(PAGE, query={"predict_first": "1"})
    assert figure(at)["score"] is None and metric(at, "MRR") == "?" == cards(at)["hit rate@5"]
    at.button(key="predict.four_queries.button").click().run()
    assert not at.exception
    assert board(at) == means(scenarios.FOUR_QUERY_HIT_RANKS)


def test_a_link_opens_the_figure_at_its_ranks():
    at = open_page(PAGE, query={"ranks": "2,-,1,10", "k": "3"})
    assert not at.exception
    data = figure(at)
    assert (data["ranks"], data["k"]) == ([2, None, 1, 10], 3)  # "-": query 2's answer not returned
    assert board(at) == means([2, None, 1, 10], k=3)
    assert [metric(at, "recall@3"), metric(at, "MRR")] == means([2, None, 1, 10], k=3)
