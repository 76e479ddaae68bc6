"""AppTest: Lesson 3, nDCG with the frameworks scenario."""
import pytest

from components.course import scenarios
from components.engine import metrics
from components.engine.formatting import fmt
from components.ranking_editor import EditorState
from components.ui import state
from tests.pages.helpers import board, cards, open_page

PAGE = "lessons/ndcg.py"
Q = scenarios.FRAMEWORKS
GRADES = {d.id: d.grade for d in Q.docs}


def metric(at, label):
    """The value the lesson editor's board shows under ``label``: the page's one place for it."""
    return board(at, state.NDCG_EDITOR)[label]


def values(at, k=3, gain="exponential"):
    """DCG@k, IDCG@k and nDCG@k on the board, in the chosen gain (checked to be ``gain``)."""
    assert at.segmented_control(key=state.NDCG_GAIN).value == gain
    return tuple(metric(at, f"{name}@{k}") for name in ("DCG", "IDCG", "nDCG"))


@pytest.mark.parametrize("preset, expected", [
    ("System A", ("6.393", "6.393", "1.000")),  # 3/1 + 3/1.585 + 3/2
    ("System B", ("3.393", "6.393", "0.531")),  # 0 + 3/1.585 + 3/2
])
def test_presets_show_the_brief_numbers(preset, expected):
    at = open_page(PAGE)
    at.button(key=f"ndcg.preset.{preset}").click().run()
    assert not at.exception
    assert values(at) == expected


@pytest.mark.parametrize("query", [{}, {"predict_first": "1"}, {"steps": "1"}, {"gain": "linear"}])
def test_the_board_is_the_one_place_for_its_numbers(query):
    """Issue #42: no big card repeats a value the editor's board shows (mid-drag the board previews and a card
    would not), in every mode; the board holds DCG@k, IDCG@k, nDCG@k in the chosen gain and nDCG@k in the other."""
    at = open_page(PAGE, query=query)
    assert not at.exception
    other = "exponential" if query.get("gain") == "linear" else "linear"
    assert list(board(at, state.NDCG_EDITOR)) == ["DCG@3", "IDCG@3", "nDCG@3", f"nDCG@3 {other}"]
    assert cards(at) == {}


def test_a_regrade_through_session_state():
    grades = GRADES | {"django": 0, "pyramid": 2}
    order = Q.presets["System A"]
    at = open_page(PAGE, session={state.NDCG_EDITOR: EditorState(order=order, tray=(), grades=grades)})
    assert not at.exception
    row = [grades[i] for i in order]
    judged = list(grades.values())
    assert values(at) == (fmt(metrics.dcg_at_k(row, 3)), fmt(metrics.idcg_at_k(judged, 3)),
                         fmt(metrics.ndcg_at_k(row, 3, judged)))


@pytest.mark.parametrize("gain", ["linear", "exponential"])
def test_the_gain_switch(gain):
    at = open_page(PAGE)
    at.button(key="ndcg.preset.Mixed grades").click().run()
    at.segmented_control(key=state.NDCG_GAIN).set_value(gain).run()
    assert not at.exception
    grades = Q.grades(Q.presets["Mixed grades"])
    other = "exponential" if gain == "linear" else "linear"
    assert values(at, gain=gain)[2] == fmt(metrics.ndcg_at_k(grades, 3, Q.judged_grades(), gain))
    assert metric(at, f"nDCG@3 {other}") == fmt(metrics.ndcg_at_k(grades, 3, Q.judged_grades(), other))
    assert metric(at, "nDCG@3") != metric(at, f"nDCG@3 {other}")


def test_the_tray_changes_only_what_the_engine_says():
    at = open_page(PAGE)
    at.button(key="ndcg.preset.FastAPI missed").click().run()
    assert not at.exception
    grades = Q.grades(Q.presets["FastAPI missed"])
    assert values(at)[1] == "6.393"  # the ideal still holds all three grade-2 pages
    assert values(at)[2] == fmt(metrics.ndcg_at_k(grades, 3, Q.judged_grades()))


@pytest.mark.parametrize("k", [1, 3, len(Q.docs)])
def test_every_k(k):
    at = open_page(PAGE, session={state.NDCG_TABLE: True})  # the position table's fold open
    at.button(key="ndcg.preset.System B").click().run()
    at.slider(key=state.NDCG_K).set_value(k).run()
    assert not at.exception
    grades = Q.grades(Q.presets["System B"])
    assert values(at, k=k)[2] == fmt(metrics.ndcg_at_k(grades, k, Q.judged_grades()))
    table = next(t.value for t in at.table if "running DCG" in t.value.columns)
    assert len(table) == k


def test_the_position_table_is_built_only_while_its_fold_is_open():
    at = open_page(PAGE)
    assert not any("running DCG" in t.value.columns for t in at.table), "closed: nothing sent on a drop"
    at.session_state[state.NDCG_TABLE] = True
    at.run()
    assert any("running DCG" in t.value.columns for t in at.table)


def test_a_bad_gain_in_the_url_is_noted():
    at = open_page(PAGE, query={"gain": "log"})
    assert not at.exception
    assert at.segmented_control(key=state.NDCG_GAIN).value == "exponential"
    assert any("gain" in w.value for w in at.warning)


def gain_sentence(at) -> str:
    return next(m.value for m in at.markdown if m.value.startswith("Here "))


def frameworks_state(order, grades=GRADES):
    return EditorState(order=tuple(order), tray=tuple(i for i in GRADES if i not in order), grades=dict(grades))


def test_one_strip_scores_its_list_in_both_gains_beside_its_text():
    at = open_page(PAGE)
    grades, judged = Q.grades(Q.presets["Mixed grades"]), Q.judged_grades()
    shown = board(at, state.duel_side(state.NDCG_GAINS, 0))
    assert [e for e in at.get("bidi_component") if e.key.startswith(state.NDCG_GAINS)] and \
        state.duel_side(state.NDCG_GAINS, 1) not in at.session_state  # one list, not two copies of it
    exp, lin = shown["nDCG@3 exponential"], shown["nDCG@3 linear"]
    assert exp == fmt(metrics.ndcg_at_k(grades, 3, judged, "exponential"))
    assert lin == fmt(metrics.ndcg_at_k(grades, 3, judged, "linear"))
    assert shown["DCG@3 exponential"] == fmt(metrics.dcg_at_k(grades, 3, "exponential"))
    assert shown["DCG@3 linear"] == fmt(metrics.dcg_at_k(grades, 3, "linear"))
    assert abs(float(exp) - float(lin)) >= 0.05
    sentence = gain_sentence(at)
    assert "disagree" in sentence and f"{exp} with exponential" in sentence and "Load" not in sentence


def test_a_move_on_the_gains_strip_rescores_both_gains():
    at = open_page(PAGE)
    at.session_state[state.duel_side(state.NDCG_GAINS, 0)] = frameworks_state(Q.presets["System B"])
    at.run()
    shown = board(at, state.duel_side(state.NDCG_GAINS, 0))
    assert shown["nDCG@3 exponential"] == shown["nDCG@3 linear"] == "0.531"
    sentence = gain_sentence(at)  # System B puts a grade-0 page on top: not "already right"
    assert "same grade" in sentence and "already" not in sentence


def test_one_strip_shows_both_ideals_the_missed_page_counted_by_one_only():
    at = open_page(PAGE)
    grades = Q.grades(Q.presets["FastAPI missed"])
    shown = board(at, state.duel_side(state.NDCG_IDEAL, 0))
    assert shown == {"IDCG@3, every judged page": "6.393",
                     "nDCG@3, every judged page": fmt(metrics.ndcg_at_k(grades, 3, Q.judged_grades())),
                     "IDCG@3, returned only": fmt(metrics.idcg_at_k(grades, 3)),
                     "nDCG@3, returned only": fmt(metrics.ndcg_at_k(grades, 3))}
    assert any("FastAPI Docs (grade 2)" in c.value for c in at.caption)
    sentence = next(m.value for m in at.markdown if m.value.startswith("Ideal from every judged page"))
    assert shown["nDCG@3, every judged page"] in sentence and shown["nDCG@3, returned only"] in sentence


def test_ndcg_falls_as_k_grows_on_the_list_2_0_0_2_whatever_the_main_editor_holds():
    """Before: the k table used the main editor's list, 1.000 at every k on the default."""
    at = open_page(PAGE)
    table = next(t.value for t in at.table if "change from k − 1" in t.value.columns)
    assert list(table["nDCG@k"]) == ["1.000", "0.613", "0.613", "0.877"]
    assert table["change from k − 1"][1].startswith("▼ falls")
    assert sum(str(c).startswith("▼") for c in table["change from k − 1"]) == 1
    assert board(at, state.NDCG_FALL) == {"nDCG@1": "1.000", "nDCG@2": "0.613", "nDCG@3": "0.613",
                                          "nDCG@4": "0.877"}
    assert any("falls at k = 2 (1.000 → 0.613)" in m.value for m in at.markdown)
    ordered = ("django", "flask", "snake", "monty")
    at.session_state[state.NDCG_FALL] = EditorState(order=ordered, grades={i: GRADES[i] for i in ordered})
    at.run()
    assert any("never falls" in m.value for m in at.markdown)


def test_a_list_shorter_than_k():
    at = open_page(PAGE)
    assert at.slider(key=state.NDCG_SHORT_K).value == 10
    shown = board(at, state.NDCG_SHORT)
    grades = Q.grades(("django", "pyramid", "snake"))
    assert shown["P@10"] == "0.200" and shown["Recall@10"] == "0.400"  # 2 relevant found of 5; 2 / 10
    assert shown["nDCG@10"] == fmt(metrics.ndcg_at_k(grades, 10, Q.judged_grades()))
    sentence = next(m.value for m in at.markdown if m.value.startswith("The list holds 3 pages"))
    assert "P@10 = 2 / 10 = 0.200, not 0.667" in sentence
    at.slider(key=state.NDCG_SHORT_K).set_value(2).run()
    assert any(m.value.startswith("k = 2 is inside the list") for m in at.markdown)


def test_the_ndcg_puzzle():
    at = open_page(PAGE)
    puzzle_info = next(m.value for m in at.markdown if "nDCG@5" in m.value and "not yet" in m.value)
    assert "not yet" in puzzle_info
    order = ("snake", "pyramid", "bottle", "django", "flask", "monty", "pythons", "fastapi")
    at.session_state[state.NDCG_PUZZLE] = frameworks_state(order)
    at.run()
    assert any("Solved" in m.value for m in at.markdown)


def test_system_b_with_its_snake_care_page_moved_to_the_bottom_scores_1():
    """System B's grade-0 page on top (nDCG@3 0.531) moved below the last page: the ideal top 3."""
    at = open_page(PAGE)
    at.button(key="ndcg.preset.System B").click().run()
    assert values(at)[2] == "0.531"
    order = [i for i in Q.presets["System B"] if i != "snake"] + ["snake"]
    at.session_state[state.NDCG_EDITOR] = EditorState(order=tuple(order), tray=(), grades=GRADES)
    at.run()
    assert not at.exception
    assert values(at)[2] == fmt(metrics.ndcg_at_k(Q.grades(order), 3, Q.judged_grades())) == "1.000"
    assert board(at, state.NDCG_EDITOR)["nDCG@3"] == "1.000"
