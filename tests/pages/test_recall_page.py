"""AppTest: Lesson 1, Recall@k with the lawyer scenario."""
import pytest

from components.course import scenarios
from components.engine import metrics
from components.engine.formatting import fmt
from components.ranking_editor import EditorState
from components.ui import state
from tests.pages.helpers import board, cards, open_page

PAGE = "lessons/recall.py"
Q = scenarios.LAWYER


def metric(at, label_start):
    """The value the lesson editor's board shows under the label starting ``label_start`` ("?" while hidden):
    the page's one place for Recall@k, RR and nDCG@k."""
    return next(v for label, v in board(at, state.RECALL_EDITOR).items() if label.startswith(label_start))


def lawyer_state(order):
    grades = {d.id: d.grade for d in Q.docs}
    return EditorState(order=tuple(order), tray=(), grades=grades)


def test_opens_on_system_a_at_k_5():
    at = open_page(PAGE)
    assert not at.exception
    assert at.slider(key=state.RECALL_K).value == 5
    assert metric(at, "Recall@5") == "0.400"  # 4 of 10 relevant cases in the top 5


@pytest.mark.parametrize("query", [{}, {"predict_first": "1"}, {"steps": "1"}])
def test_the_board_is_the_one_place_for_its_numbers(query):
    """Issue #42: no big card beside the editor repeats a value its board shows (mid-drag the board previews
    and a card would not), in every mode; the board holds Recall@k, RR and nDCG@k."""
    at = open_page(PAGE, query=query)
    assert not at.exception
    assert list(board(at, state.RECALL_EDITOR)) == ["Recall@5", "RR (next lesson)", "nDCG@5 (exponential gain)"]
    assert cards(at) == {}


@pytest.mark.parametrize("preset, k, value", [("System A", 5, "0.400"), ("System B", 20, "0.900")])
def test_presets_set_order_and_k(preset, k, value):
    at = open_page(PAGE)
    at.button(key=f"recall.preset.{preset}").click().run()
    assert not at.exception
    assert at.slider(key=state.RECALL_K).value == k
    assert metric(at, f"Recall@{k}") == value


@pytest.mark.parametrize("k", [1, 10, 20])
def test_k_changes_recall_to_the_engines_value(k):
    at = open_page(PAGE)
    at.slider(key=state.RECALL_K).set_value(k).run()
    assert not at.exception
    expected = metrics.recall_at_k(Q.grades(Q.presets["System A"]), k, n_relevant=10)
    assert metric(at, f"Recall@{k}") == fmt(expected)


def test_an_order_set_through_session_state():
    order = Q.presets["System A, hits at 16–19"]
    at = open_page(PAGE, session={state.RECALL_EDITOR: lawyer_state(order)})
    at.slider(key=state.RECALL_K).set_value(15).run()
    assert not at.exception
    assert metric(at, "Recall@15") == "0.000"  # the four hits sit at 16–19
    assert metric(at, "RR") == fmt(1 / 16)


def test_moving_the_tenth_case_out_of_the_tray_raises_recall():
    order = Q.presets["System B"] + ("c10",)  # retrieve the tenth case at position 21
    at = open_page(PAGE, session={state.RECALL_EDITOR: lawyer_state(order)})
    at.slider(key=state.RECALL_K).set_value(20).run()
    assert metric(at, "Recall@20") == "0.900"
    order = ("c10",) + Q.presets["System B"][:-1]
    at.session_state[state.RECALL_EDITOR] = lawyer_state(order)
    at.run()
    assert not at.exception
    assert metric(at, "Recall@20") == fmt(10 / 10)


def test_the_fair_comparison_duel_shows_both_systems_at_one_k():
    at = open_page(PAGE)
    at.slider(key=state.RECALL_COMPARE_K).set_value(20).run()
    assert not at.exception
    assert board(at, state.duel_side(state.RECALL_FAIR, 0)) == {"Recall@20": "0.400"}
    assert board(at, state.duel_side(state.RECALL_FAIR, 1)) == {"Recall@20": "0.900"}
    assert any("System A's list finds 4 of the 10 relevant cases (Recall@20 = 0.400)" in m.value and "(Recall@20 = 0.900)" in m.value
               for m in at.markdown)


def test_the_hit_rate_table():
    at = open_page(PAGE)
    at.slider(key=state.RECALL_HIT_RATE_K).set_value(10).run()
    assert not at.exception
    table = next(t.value for t in at.table if "R@10" in t.value.columns)  # a table, which the projector's font grows
    assert list(table["R@10"]) == [fmt(1), fmt(2 / 3), fmt(3 / 10)]


def test_the_blind_spot_duel_shows_equal_recall_and_different_rr_beside_its_text():
    """Before: the buttons loaded the main editor, 2,500 px higher, at k = 5 (Recall@5 = 0.000 for the hits at
    16–19) while the text beside them claimed 0.400 for both."""
    at = open_page(PAGE)
    assert at.slider(key=state.RECALL_BLIND_K).value == 20
    top, bottom = (board(at, state.duel_side(state.RECALL_BLIND, i)) for i in (0, 1))
    assert top == {"Recall@20": "0.400", "RR": "1.000"} and bottom == {"Recall@20": "0.400", "RR": "0.063"}
    sentence = next(i.value for i in at.info if "Recall@20" in i.value)
    assert "Both lists have Recall@20 = 0.400" in sentence and "1.000" in sentence and "0.063" in sentence
    assert at.slider(key=state.RECALL_K).value == 5  # the main editor above is left alone
    at.slider(key=state.RECALL_BLIND_K).set_value(10).run()
    assert metric(at, "Recall@5") == "0.400"  # the main editor above still reads System A at k = 5
    sentence = next(i.value for i in at.info if "k = 10" in i.value)
    assert "does tell them apart (0.400 with the hits at 1–4, 0.000 with the hits at 16–19)" in sentence
    assert "Both lists have" not in sentence


def test_the_recall_puzzle_is_checked_after_each_move():
    at = open_page(PAGE)
    assert not any("Solved" in m.value for m in at.markdown)
    checked = next(m.value for m in at.markdown if "RR" in m.value and "not yet" in m.value)
    assert "yours 1.000, must be lower than 1.000" in checked
    order = ("n20", "c01", "c02") + scenarios.LAWYER.presets["System A"][3:]  # first hit at 2: RR 0.5
    at.session_state[state.RECALL_PUZZLE] = lawyer_state(order)
    at.run()
    assert not at.exception
    solved = next(m.value for m in at.markdown if "Solved" in m.value)
    assert "yours 0.400, the same as 0.400: met" in solved and "yours 0.500, lower than 1.000: met" in solved


def test_the_url_k_is_read_and_a_bad_one_noted():
    at = open_page(PAGE, query={"k": "7"})
    assert at.slider(key=state.RECALL_K).value == 7
    at = open_page(PAGE, query={"k": "99"})
    assert at.slider(key=state.RECALL_K).value == 5
    assert any("outside 1 to 20" in w.value for w in at.warning)


def test_practice_is_checked_in_place_with_the_precision_trap():
    at = open_page(PAGE)
    key = "quiz.recall.recall.lawyer_a_recall_at_5"
    at.text_input(key=f"{key}.answer").input("0.8")
    at.button(key=f"{key}.check").click().run()
    assert not at.exception
    assert any("precision" in w.value.lower() for w in at.warning), "the precision trap gets its own feedback"
    at.button(key=f"{key}.retry").click().run()
    at.text_input(key=f"{key}.answer").input("4/10")
    at.button(key=f"{key}.check").click().run()
    assert at.success


def test_each_sections_k_travels_in_the_link():
    """Before: the fair-comparison, blind-spot and hit-rate sliders were left out of the address."""
    at = open_page(PAGE, query={"fair_k": "20", "blind_k": "10", "hit_k": "3"})
    assert not at.exception
    assert at.slider(key=state.RECALL_COMPARE_K).value == 20
    assert at.slider(key=state.RECALL_BLIND_K).value == 10
    assert at.slider(key=state.RECALL_HIT_RATE_K).value == 3
    at.slider(key=state.RECALL_BLIND_K).set_value(15).run()
    assert at.query_params["blind_k"] == "15" and at.query_params["k"] == "5"
    at = open_page(PAGE, query={"blind_k": "99"})
    assert at.slider(key=state.RECALL_BLIND_K).value == 20
    assert any("blind_k" in w.value for w in at.warning)


def test_a_miss_on_top_halves_rr_and_a_hit_below_k_lowers_recall():
    """The lesson's two moves (in the browser, drags on the lesson's editor): within the top 5, the miss at
    position 3 to the top pushes every hit down by one, RR halves and Recall@5 stays; across the cutoff, a hit
    from the top 5 to position 6 lowers Recall@5."""
    system_a = list(Q.presets["System A"])
    within = ["n20", *[i for i in system_a if i != "n20"]]
    at = open_page(PAGE, session={state.RECALL_EDITOR: lawyer_state(within)})
    assert not at.exception
    assert metric(at, "RR") == fmt(1 / 2) and metric(at, "Recall@5") == "0.400"
    across = [i for i in within if i != "c04"]
    across.insert(across.index("n11") + 1, "c04")
    at.session_state[state.RECALL_EDITOR] = lawyer_state(across)
    at.run()
    assert metric(at, "Recall@5") == "0.300" and board(at, state.RECALL_EDITOR)["Recall@5"] == "0.300"


def test_predict_first_hides_the_lesson_boards_numbers_until_revealed():
    """The editor's scoreboard is sent as "?" (nothing to preview) until the class reveals the numbers."""
    at = open_page(PAGE, query={"predict_first": "1"})
    assert set(board(at, state.RECALL_EDITOR).values()) == {"?"}
    at.button(key="predict.recall.button").click().run()
    assert not at.exception
    qs = metrics.from_rankings([Q.grades(Q.presets["System A"])], [Q.judged_grades()])
    assert board(at, state.RECALL_EDITOR)["Recall@5"] == fmt(metrics.recall(qs, 5)[0]) == "0.400"
