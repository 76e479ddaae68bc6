"""AppTest: the precision and average precision lesson, with the lawyer scenario and the four-query example."""
import pytest

from components.course import export, precision, quiz, scenarios
from components.engine import conventions, metrics
from components.engine.formatting import fmt
from components.ranking_editor import EditorState
from components.ui import layout, quiz_ui, state
from components.ui.take_home import panel_key
from tests.pages.helpers import board, cards, open_page

PAGE = "lessons/ap.py"
Q = scenarios.LAWYER


def metric(at, label):
    """The value the lesson editor's board shows under ``label``: the page's one place for AP, P@k, Recall@k, RR."""
    return board(at, state.AP_EDITOR)[label]


@pytest.mark.parametrize("preset, ap, terms", [
    ("System A", "0.355", "(1/1 + 2/2 + 3/4 + 4/5) / 10"),  # hits at 1, 2, 4, 5
    ("System A, hits at 1–4", "0.400", "(1/1 + 2/2 + 3/3 + 4/4) / 10"),
    ("System A, hits at 16–19", "0.056", "(1/16 + 2/17 + 3/18 + 4/19) / 10"),
])
def test_each_preset_shows_the_engines_ap_with_its_arithmetic(preset, ap, terms):
    at = open_page(PAGE)
    at.button(key=f"ap.preset.{preset}").click().run()
    assert not at.exception
    grades = Q.grades(Q.presets[preset])
    engine = metrics.average_precision(metrics.from_rankings([grades], [Q.judged_grades()]))[0]
    assert metric(at, "AP") == fmt(engine) == ap
    assert any(terms in m.value and f"**{ap}**" in m.value for m in at.markdown)


def test_the_hit_table_and_the_returned_trap_follow_the_list():
    at = open_page(PAGE)
    table = next(t.value for t in at.table if "P@rank" in t.value.columns)
    assert list(table["rank"]) == [1, 2, 4, 5] and list(table["running sum"])[-1] == "3.550"
    trap = next(m.value for m in at.markdown if "instead of all" in m.value)
    assert fmt(conventions.ap_over_returned(Q.grades(Q.presets["System A"]))) in trap  # 0.888 against 0.355
    order = ("c01",) + tuple(i for i in Q.presets["System A"] if i not in ("c01", "c02", "c03", "c04"))
    at.session_state[state.AP_EDITOR] = EditorState(order=order, grades={d.id: d.grade for d in Q.docs})
    at.run()
    assert metric(at, "AP") == "0.100"  # one hit at rank 1 of ten relevant
    assert "would score 1.000 instead of 0.100" in next(m.value for m in at.markdown if "instead of all" in m.value)


def test_k_moves_precision_and_recall_but_not_ap():
    at = open_page(PAGE)
    at.slider(key=state.AP_K).set_value(10).run()
    shown = board(at, state.AP_EDITOR)
    assert shown == {"AP": "0.355", "P@10": "0.400", "Recall@10": "0.400", "RR": "1.000"}


@pytest.mark.parametrize("query", [{}, {"predict_first": "1"}, {"steps": "1"}])
def test_the_board_is_the_one_place_for_its_numbers(query):
    """Issue #42: no big card repeats a value the editor's board shows (mid-drag the board previews and a card
    would not), in every mode; the one card left is AP at a relevance level, on another list, with no board."""
    at = open_page(PAGE, query=query)
    assert not at.exception
    assert list(board(at, state.AP_EDITOR)) == ["AP", "P@5", "Recall@5", "RR"]
    assert list(cards(at)) == ["AP, grade ≥ 1 counts"]


def test_the_duel_same_recall_different_ap():
    at = open_page(PAGE)
    top, bottom = (board(at, state.duel_side(state.AP_DUEL, i)) for i in (0, 1))
    assert top["Recall@20"] == bottom["Recall@20"] == "0.400"
    assert (top["AP"], bottom["AP"]) == ("0.400", "0.056")
    assert any("AP is 0.400 with the hits at 1–4 and 0.056" in i.value for i in at.info)


def test_map_equals_mrr_on_the_four_query_example():
    at = open_page(PAGE)
    table = next(t.value for t in at.table if "AP" in t.value.columns and "RR" in t.value.columns)
    assert list(table["AP"]) == list(table["RR"]) == ["1.000", "0.333", "1.000", "0.125"]
    assert any("MAP = 0.615 and MRR = 0.615" in m.value for m in at.markdown)


def test_the_cutoff_denominator_pitfall_quotes_both_conventions():
    at = open_page(PAGE)
    text = next(m.value for m in at.markdown if "map_cut_5" in m.value)
    assert "AP@5 is 0.355" in text and "gives 0.710" in text


def test_the_arithmetic_agrees_with_the_engine_on_every_preset():
    for order in Q.presets.values():
        grades = Q.grades(order)
        value = metrics.average_precision(metrics.from_rankings([grades], [Q.judged_grades()]))[0]
        assert precision.ap_arithmetic(grades, Q.n_relevant()).endswith(f"**{fmt(value)}**")


def test_the_variant_presets_have_short_labels_and_their_full_names_as_help():
    at = open_page(PAGE)
    for name in scenarios.LAWYER.presets:
        button = at.button(key=f"ap.preset.{name}")
        assert len(button.label) <= 13 and button.help == name


def test_the_ap_puzzle_is_checked_after_each_move():
    at = open_page(PAGE)
    checked = next(m.value for m in at.markdown if "AP: yours" in m.value)
    assert "yours 0.355, must be higher than 0.355: not yet" in checked
    # a miss on top (RR 0.5) pushes every hit down: AP falls below System A's until more relevant cases come in
    pushed = ("n20",) + tuple(d for d in Q.presets["System A"] if d != "n20")
    at.session_state[state.AP_PUZZLE] = EditorState(order=pushed, grades={d.id: d.grade for d in Q.docs})
    at.run()
    checked = next(m.value for m in at.markdown if "AP: yours" in m.value)
    assert "AP: yours 0.272, must be higher than 0.355: not yet" in checked and "yours 0.500, lower than 1.000: met" in checked
    more = pushed[:5] + ("c05", "c06") + pushed[5:]
    at.session_state[state.AP_PUZZLE] = EditorState(order=more, grades={d.id: d.grade for d in Q.docs})
    at.run()
    engine = metrics.average_precision(metrics.from_rankings([Q.grades(more)], [Q.judged_grades()]))[0]
    solved = next(m.value for m in at.markdown if "Solved" in m.value)
    assert f"yours {fmt(engine)}, higher than 0.355: met" in solved and fmt(engine) == "0.441"


@pytest.mark.parametrize("level, ap, terms", [(1, "1.000", "(1/1 + 2/2 + 3/3 + 4/4 + 5/5) / 5"),
                                              (2, "0.589", "(1/2 + 2/3 + 3/5) / 3")])
def test_the_relevance_level_decides_what_ap_counts_and_ndcg_reads_the_grades(level, ap, terms):
    at = open_page(PAGE)
    at.segmented_control(key=state.AP_LEVEL).set_value(level).run()
    assert not at.exception
    f = scenarios.FRAMEWORKS
    order = f.presets[scenarios.FRAMEWORKS_MIXED]
    qs = metrics.with_relevance_level(metrics.from_rankings([f.grades(order)], [f.judged_grades()]), level)
    assert cards(at)[f"AP, grade ≥ {level} counts"] == fmt(metrics.average_precision(qs)[0]) == ap
    assert any(terms in m.value and f"**{ap}**" in m.value for m in at.markdown)
    table = next(t.value for t in at.table if f"relevant at grade ≥ {level}?" in t.value.columns)
    assert list(table["grade"]) == list(f.grades(order))
    assert sum(v.startswith("✓") for v in table[f"relevant at grade ≥ {level}?"]) == int(metrics.num_relevant(qs)[0])
    ndcg = fmt(metrics.ndcg(qs, 5)[0])
    assert any(f"nDCG@5 is {ndcg} at either level" in c.value for c in at.caption) and ndcg == "0.830"


def test_take_home_exports_the_list_on_screen_with_snippets_that_print_its_ap():
    at = open_page(PAGE, session={panel_key("ap"): True})
    at.button(key="ap.preset.System B").click().run()
    assert not at.exception
    current = EditorState(Q.presets["System B"], (), {d.id: d.grade for d in Q.docs})
    pack = export.take_home("ap", [current], k=5, gain="exponential", measures=("AP", "P@k", "R@k", "RR"))
    assert pack.expected.splitlines()[0] == f"AP {metric(at, 'AP')}"
    assert pack.expected in [c.value.rstrip("\n") for c in at.code]


def test_ap_follows_a_hit_moved_down_to_position_10():
    """System A's first hit (AP 0.355) moved to position 10: the editor's board gives the engine's value."""
    at = open_page(PAGE)
    assert metric(at, "AP") == "0.355"
    moved = [i for i in Q.presets["System A"] if i != "c01"]
    moved.insert(9, "c01")
    at.session_state[state.AP_EDITOR] = EditorState(order=tuple(moved), grades={d.id: d.grade for d in Q.docs})
    at.run()
    assert not at.exception
    value = fmt(metrics.average_precision(metrics.from_rankings([Q.grades(moved)], [Q.judged_grades()]))[0])
    assert metric(at, "AP") == value != "0.355"


def test_the_higher_ap_question_is_checked_in_place():
    """On the lesson itself: the first-hit-on-top option gets its explanation (RR's), the engine's answer is
    right."""
    at = open_page(PAGE)
    q = quiz.question("ap.higher_order")
    key = f"{state.QUIZ_PREFIX}ap.ap.higher_order"  # the question's widgets, keyed by lesson and id
    graded = [g.id for g in quiz.questions_for("ap") if quiz.is_graded(g)]
    at.radio(key=layout.practice_pick_key("ap")).set_value(graded.index(q.id)).run()
    at.radio(key=f"{key}.choice").set_value("a")
    at.button(key=f"{key}.check").click().run()
    assert not at.exception
    assert quiz_ui.text(quiz.FEEDBACK_CHOICE_WRONG) in [e.value for e in at.error]
    assert any(quiz_ui.text("ap.higher_order option a why", q.values) in m.value for m in at.markdown)
    (right,) = q.correct
    at.radio(key=f"{key}.choice").set_value(right)
    at.button(key=f"{key}.check").click().run()
    assert quiz_ui.text(quiz.FEEDBACK_CORRECT) in [s.value for s in at.success]
