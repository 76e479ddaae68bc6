"""AppTest: a lesson page shows the "take this home" panel, and it follows the page's ranking, k and gain.

The panel is built only while its expander is open (its key in session state is True).
"""
from components.course import export, prose, scenarios
from components.engine import metrics
from components.engine.formatting import fmt
from components.ranking_editor import EditorState
from components.ui import state
from components.ui.take_home import panel_key
from tests.pages.helpers import open_page


def opened(name: str, **session) -> dict:
    """Session state with the page's take-home panel open."""
    return {panel_key(name): True, **session}


def judged(query):
    return {d.id: d.grade for d in query.docs if d.grade is not None}


def codes(at) -> list[str]:
    """The code blocks' text (st.code drops a final newline)."""
    return [c.value.rstrip("\n") for c in at.code]


def test_the_panel_is_built_only_when_opened():
    at = open_page("lessons/recall.py")
    assert not at.exception
    assert not [b for b in at.download_button if b.key and b.key.startswith("take_home.")]
    assert not codes(at)


def test_recall_page_offers_both_files_and_the_pages_numbers():
    at = open_page("lessons/recall.py", session=opened("recall"))
    assert not at.exception
    assert at.download_button(key="take_home.recall.qrels").label == "Download recall.qrels"
    assert at.download_button(key="take_home.recall.run").label == "Download recall.run"
    system_a = EditorState(scenarios.LAWYER.presets["System A"], (), judged(scenarios.LAWYER))
    pack = export.take_home("recall", [system_a], k=5, gain="exponential", measures=("R@k", "RR", "nDCG@k"))
    assert pack.expected.startswith("R@5 0.400\n")  # 4 of the 10 relevant cases in the top 5
    shown = codes(at)
    assert pack.expected in shown
    assert pack.snippets["pytrec_eval"].rstrip("\n") in shown and pack.snippets["ir_measures"].rstrip("\n") in shown
    assert pack.command in shown

    # the panel lives in the scenario's fragment: a new order and k reach it
    order = scenarios.LAWYER.presets["System A, hits at 16–19"]
    at.session_state[state.RECALL_EDITOR] = EditorState(order, (), judged(scenarios.LAWYER))
    at.slider(key=state.RECALL_K).set_value(15).run()
    assert not at.exception
    moved = export.take_home("recall", [at.session_state[state.RECALL_EDITOR]], k=15, gain="exponential",
                             measures=("R@k", "RR", "nDCG@k"))
    assert moved.expected.startswith("R@15 0.000\nRR 0.062\n")  # the four hits sit at 16–19: RR = 1/16
    assert moved.expected in codes(at) and moved.command in codes(at)


def test_ndcg_panel_follows_the_gain_switch():
    at = open_page("lessons/ndcg.py", session=opened("ndcg"))
    at.segmented_control(key=state.NDCG_GAIN).set_value("linear").run()
    assert not at.exception
    system_a = EditorState(scenarios.FRAMEWORKS.presets["System A"], (), judged(scenarios.FRAMEWORKS))
    pack = export.take_home("ndcg", [system_a], k=3, gain="linear", measures=("nDCG@k", "R@k"))
    assert pack.command.endswith("--gain linear")
    assert pack.expected in codes(at) and pack.command in codes(at)
    assert at.download_button(key="take_home.ndcg.run")


def test_four_queries_panel_exports_all_four_queries():
    at = open_page("lessons/four_queries.py", session=opened("four_queries"))
    assert not at.exception
    assert "R@5 0.750\nSuccess@5 0.750\nRR 0.615" in codes(at)  # ranks 1, 3, 1, 8
    assert at.download_button(key="take_home.four_queries.qrels")


def test_four_queries_panel_exports_the_ranks_on_the_figure():
    ranks = (2, None, 1, 10)
    at = open_page("lessons/four_queries.py", session=opened("four_queries", **{state.FOUR_RANKS: ranks}))
    assert not at.exception
    qs = scenarios.four_query_set(ranks)
    recall, rr = metrics.recall(qs, 5).mean(), metrics.reciprocal_rank(qs).mean()
    assert f"R@5 {fmt(recall)}\nSuccess@5 {fmt(recall)}\nRR {fmt(rr)}" in codes(at)


def test_predict_first_hides_the_panel_until_the_numbers_are_revealed():
    at = open_page("lessons/recall.py", session=opened("recall", **{state.PREDICT_FIRST: True}))
    assert not at.exception
    assert not [b for b in at.download_button if b.key and b.key.startswith("take_home.")]


def test_an_empty_list_has_nothing_to_export():
    grades = judged(scenarios.FRAMEWORKS)
    nothing_returned = EditorState((), tuple(grades), grades)
    at = open_page("lessons/ndcg.py", session=opened("ndcg", **{state.NDCG_EDITOR: nothing_returned}))
    assert not at.exception
    assert not [b for b in at.download_button if b.key and b.key.startswith("take_home.")]
    assert prose.section("take_home", "Nothing returned") in [i.value for i in at.info]


def test_the_conventions_page_exports_what_trec_eval_computes():
    at = open_page("lessons/differ.py", session=opened("differ"))
    assert not at.exception
    mixed = EditorState(scenarios.FRAMEWORKS.presets["Mixed grades"], (), judged(scenarios.FRAMEWORKS))
    pack = export.take_home("differ", [mixed], k=3, gain="linear", measures=("nDCG@k", "R@k", "RR", "RR@k"))
    assert pack.expected in codes(at) and pack.command.endswith("--gain linear")
    table = next(t.value for t in at.table if "convention" in t.value.columns)
    value = dict(zip(table["convention"], table["value"]))
    shown = dict(line.split(" ") for line in pack.expected.splitlines())
    assert shown["nDCG@3"] == value["nDCG@k, linear gain (rel)"]  # the file gives the table's trec_eval rows
    assert shown["R@3"] == value["Recall@k, denominator |relevant|"]
    assert shown["RR"] == value["RR, no cutoff"] and shown["RR@3"] == value["RR@k, a hit below k counts 0"]
