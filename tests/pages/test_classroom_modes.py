"""AppTest: the classroom modes (hide answers, predict first, step-by-step) and deep links to a view."""
import pytest

from components.course import scenarios
from components.engine.formatting import fmt, literal
from components.ranking_editor import EditorState
from components.ui import state
from tests.pages.helpers import board, open_page, shown_value

Q = scenarios.LAWYER
TRAP_KEY = "quiz.recall.recall.lawyer_a_recall_at_5"


def metric(at, label):
    """The value shown under ``label``: the lesson board's (the one place for it on the lessons), or a card's."""
    return shown_value(at, label)


def test_hide_answers_records_without_marking_then_reveals_one():
    at = open_page("lessons/recall.py", query={"reveal": "1"})
    at.text_input(key=f"{TRAP_KEY}.answer").input("0.8")
    at.button(key=f"{TRAP_KEY}.check").click().run()
    assert not at.exception
    assert not any("precision" in w.value.lower() for w in at.warning)  # no targeted feedback yet
    at.button(key=f"{TRAP_KEY}.show_in_class").click().run()
    assert any("precision" in w.value.lower() for w in at.warning)


def test_hide_answers_off_reveals_them_all():
    at = open_page("lessons/recall.py", query={"reveal": "1"})
    at.text_input(key=f"{TRAP_KEY}.answer").input("0.4")
    at.button(key=f"{TRAP_KEY}.check").click().run()
    assert not at.success
    at.toggle(key=state.REVEAL).set_value(False).run()
    assert at.success


def test_predict_first_hides_the_numbers_until_revealed_and_again_after_a_change():
    at = open_page("lessons/recall.py", query={"predict_first": "1"})
    assert metric(at, "Recall@5") == "?"
    at.button(key="predict.recall.button").click().run()
    assert metric(at, "Recall@5") == "0.400"
    at.slider(key=state.RECALL_K).set_value(20).run()
    assert metric(at, "Recall@20") == "?"
    at.button(key="predict.recall.button").click().run()
    assert not at.exception
    assert metric(at, "Recall@20") == "0.400"


def test_predict_first_hides_the_value_again_after_a_move_in_the_editor():
    """A drag (here: its result, the editor's new order) is a change like any other: predict again."""
    at = open_page("lessons/recall.py", query={"predict_first": "1"})
    assert metric(at, "Recall@5") == "?"
    at.button(key="predict.recall.button").click().run()
    assert metric(at, "Recall@5") == "0.400"
    order = [i for i in Q.presets["System A"] if i != "c01"]
    order.insert(7, "c01")  # the relevant case on top dragged below the cutoff, to position 8
    at.session_state[state.RECALL_EDITOR] = EditorState(order=tuple(order), grades={d.id: d.grade for d in Q.docs})
    at.run()
    assert metric(at, "Recall@5") == "?"
    at.button(key="predict.recall.button").click().run()
    assert not at.exception
    assert metric(at, "Recall@5") == "0.300"


def test_step_by_step_arithmetic():
    at = open_page("lessons/mrr.py", query={"steps": "1"})
    steps = [md.value for md in at.markdown if md.value.startswith(("MRR = (", "= "))]
    assert steps == ["MRR = (1/1 + 1/2 + 1/5) / 3"]
    at.button(key="steps.mrr.next").click().run()
    at.button(key="steps.mrr.next").click().run()
    steps = [md.value for md in at.markdown if md.value.startswith(("MRR = (", "= "))]
    assert steps == ["MRR = (1/1 + 1/2 + 1/5) / 3", "= 1.700 / 3", "= **0.567**"]
    assert at.button(key="steps.mrr.next").disabled


def test_a_deep_link_restores_k_order_tray_and_grades():
    order = Q.presets["System B"]
    at = open_page("lessons/recall.py", query={"k": "20", "order": ",".join(order)})
    assert not at.exception
    assert metric(at, "Recall@20") == "0.900"
    at = open_page("lessons/ndcg.py", query={"k": "3", "order": "snake,django,flask", "grades": "snake:2",
                                             "gain": "linear"})
    assert not at.exception
    editor = at.session_state[state.NDCG_EDITOR]
    assert editor.order == ("snake", "django", "flask") and "fastapi" in editor.tray
    assert editor.grades["snake"] == 2
    assert board(at, state.NDCG_EDITOR)["nDCG@3"] == fmt((2 + 2 / 1.5849625007211563 + 1) / (2 + 2 / 1.5849625007211563 + 1))


def test_a_deep_link_brings_a_document_out_of_the_tray_to_the_top():
    order = ("c10",) + Q.presets["System B"][:19]  # the tenth case retrieved, B's last miss dropped
    at = open_page("lessons/recall.py", query={"k": "20", "order": ",".join(order)})
    assert not at.exception
    assert at.slider(key=state.RECALL_K).value == 20
    assert metric(at, "Recall@20") == "1.000"
    editor = at.session_state[state.RECALL_EDITOR]
    assert editor.order == order
    assert set(editor.tray) == {d.id for d in scenarios.LAWYER_POOL} - set(order) and "n10" in editor.tray
    assert len(editor.tray) == 11  # "11 judged, not returned"


@pytest.mark.parametrize("k, order, k_note", [("0", "c01,nope,c02", "is outside 1 to 20"),
                                              ("abc", "c01,<b>x</b>", "is not a whole number; using 5")])
def test_a_malformed_deep_link_shows_a_note_and_the_defaults(k, order, k_note):
    at = open_page("lessons/recall.py", query={"order": order, "k": k})
    assert not at.exception
    notes = " ".join(w.value for w in at.warning)
    assert "unknown document" in notes and k_note in notes
    unknown = order.split(",")[1]
    assert literal(unknown, limit=40) in notes and notes.count(unknown) == 1  # quoted once, as code
    assert metric(at, "Recall@5") == "0.400"  # System A at k = 5


def test_the_page_writes_its_state_back_to_the_url():
    at = open_page("lessons/recall.py")
    at.slider(key=state.RECALL_K).set_value(8).run()
    assert at.query_params["k"] == ["8"] or at.query_params["k"] == "8"
    assert at.query_params["order"] in (",".join(Q.presets["System A"]), [",".join(Q.presets["System A"])])


def test_the_link_box_is_built_when_opened_and_holds_the_views_address():
    at = open_page("lessons/recall.py")
    assert not [c for c in at.code if "?" in c.value], "closed: nothing built"
    at.session_state["link_to_view"] = True
    at.slider(key=state.RECALL_K).set_value(8).run()
    assert not at.exception
    [link] = [c.value for c in at.code if "k=8" in c.value]
    assert "order=" + ",".join(Q.presets["System A"]).replace(",", "%2C") in link


@pytest.mark.parametrize("page, key, card", [("lessons/recall.py", "recall", "Recall@5"),
                                             ("lessons/mrr.py", "mrr", "MRR"),
                                             ("lessons/ndcg.py", "ndcg", "nDCG@3"),
                                             ("lessons/four_queries.py", "four_queries", "recall@5"),
                                             ("lessons/accuracy.py", "accuracy", "Accuracy")])
def test_step_by_step_holds_the_cards_back_until_the_last_step(page, key, card):
    at = open_page(page, query={"steps": "1"})
    assert not at.exception
    assert metric(at, card) == "?"  # the arithmetic starts at its first line: no result above it yet
    at.button(key=f"steps.{key}.all").click().run()
    assert metric(at, card) != "?"
    at.button(key=f"steps.{key}.restart").click().run()
    assert metric(at, card) == "?"


def test_a_new_k_starts_the_steps_and_hides_the_result_again():
    at = open_page("lessons/recall.py", query={"steps": "1"})
    at.button(key="steps.recall.all").click().run()
    assert metric(at, "Recall@5") == "0.400"
    at.slider(key=state.RECALL_K).set_value(20).run()
    assert metric(at, "Recall@20") == "?"


def test_the_classroom_panel_stays_open_when_its_last_toggle_goes_off():
    at = open_page("lessons/recall.py", query={"predict_first": "1"})
    at.toggle(key=state.PREDICT_FIRST).set_value(False).run()
    assert not at.exception
    panel = next(e for e in at.sidebar.expander if "Classroom" in e.label)
    assert panel.proto.expanded


def test_every_mode_is_written_into_the_address():
    at = open_page("lessons/recall.py")
    for flag in state.MODE_FLAGS:
        assert flag not in at.query_params
    at.toggle(key=state.PROJECTOR).set_value(True).run()
    at.toggle(key=state.STEP_MODE).set_value(True).run()
    at.toggle(key=state.PREDICT_FIRST).set_value(True).run()
    at.toggle(key=state.REVEAL).set_value(True).run()
    assert not at.exception
    assert {flag: at.query_params.get(flag) for flag in state.MODE_FLAGS} == dict.fromkeys(state.MODE_FLAGS, "1")
    at.toggle(key=state.PROJECTOR).set_value(False).run()
    assert state.PROJECTOR not in at.query_params


def test_the_mrr_cutoff_travels_in_the_address():
    at = open_page("lessons/mrr.py", query={"cutoff": "3"})
    assert not at.exception
    assert at.select_slider(key=state.MRR_CUTOFF).value == 3
    at.select_slider(key=state.MRR_CUTOFF).set_value("none").run()
    assert at.query_params.get("cutoff") == "none"
    bad = open_page("lessons/mrr.py", query={"cutoff": "99"})
    assert bad.select_slider(key=state.MRR_CUTOFF).value == "none"
    assert any("cutoff=99" in w.value for w in bad.warning)


def test_predict_first_hides_both_boards_of_a_duel_until_revealed():
    from tests.pages.helpers import board

    at = open_page("lessons/recall.py", query={"predict_first": "1"})
    assert not at.exception
    sides = [state.duel_side(state.RECALL_BLIND, i) for i in (0, 1)]
    assert all(set(board(at, s).values()) == {"?"} for s in sides)
    assert not any("Both lists have" in i.value for i in at.info)  # the sentence quotes the numbers: hidden too
    at.button(key="predict.recall.blind.button").click().run()
    assert [board(at, s)["RR"] for s in sides] == ["1.000", fmt(1 / 16)]
    assert any("Both lists have Recall@20 = 0.400" in i.value for i in at.info)
