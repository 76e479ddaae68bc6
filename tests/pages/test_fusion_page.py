"""AppTest: the hybrid-search lesson. Two rankers' strips, their fusion as a fixed strip, rrf's k, the chart over k
and the pair whose order flips. Expected values come from the engine, never typed in."""
import json

from components.course import hybrid
from components.course import scenarios as sc
from components.engine import fusion
from components.engine.formatting import fmt
from components.ranking_editor.editor import widget_key
from components.ui import state
from tests.pages.helpers import board, open_page
from tests.unit.file_readers import read_run

PAGE = "lessons/fusion.py"
LEXICAL, DENSE = (tuple(sc.HYBRID.presets[name]) for name in hybrid.RANKERS)
SIDES = [state.duel_side(state.FUSION_DUEL, i) for i in range(2)]


def strip(at, key: str) -> dict:
    """What the page sends the strip ``key`` for the browser to draw."""
    (element,) = [e for e in at.get("bidi_component") if e.key == widget_key(key)]
    return json.loads(element.proto.json)


def expected_board(order) -> dict[str, str]:
    return dict(zip(["Recall@5", "RR", "nDCG@5"], [fmt(v) for v in hybrid.values(order)]))


def markdown(at) -> str:
    return "\n".join(m.value for m in at.markdown)


def test_the_fused_strip_is_the_engines_fusion_at_the_sliders_k():
    at = open_page(PAGE)
    assert not at.exception
    for key, order in zip(SIDES, (LEXICAL, DENSE)):
        assert board(at, key) == expected_board(order)
    ranked = fusion.fuse([read_run(hybrid.run_text(o, t), t) for o, t in zip((LEXICAL, DENSE),
                                                                                          hybrid.TAGS)], k=60)
    order = [d.decode() for d in ranked.docids]
    fused = strip(at, state.FUSION_FUSED)
    assert fused["fixed"] and fused["order"] == order
    assert board(at, state.FUSION_FUSED) == expected_board(order)
    titles = {item["id"]: item["title"] for item in fused["items"]}
    assert titles["runbook"].endswith(f"BM25 #1: 1/(60 + 1) + Dense #10: 1/(60 + 10) = "
                                      f"{fmt(1 / 61 + 1 / 70, 'score')}")
    assert "Dense: not returned, adds nothing" in titles["kms"]
    assert f'opens with "{sc.HYBRID.by_id[order[0]].title}"' in markdown(at)


def test_the_k_slider_reorders_the_fused_strip_and_the_link_keeps_it():
    at = open_page(PAGE)
    at.slider(key=state.FUSION_K).set_value(1).run()
    assert not at.exception
    assert strip(at, state.FUSION_FUSED)["order"] == [d for d, _ in hybrid.fused((LEXICAL, DENSE), 1)]
    assert at.query_params[state.PARAM_RRF_K] == "1"
    assert "Fused by RRF at k = 1" == strip(at, state.FUSION_FUSED)["label"]


def test_a_moved_document_fuses_again_and_the_link_carries_the_lists():
    lexical = ("kms", *[d for d in LEXICAL if d != "kms"])
    at = open_page(PAGE, query={state.PARAM_LEXICAL: ",".join(lexical), state.PARAM_RRF_K: "20"})
    assert not at.exception
    assert strip(at, SIDES[0])["order"] == list(lexical)
    assert strip(at, state.FUSION_FUSED)["order"] == [d for d, _ in hybrid.fused((lexical, DENSE), 20)]
    assert at.query_params[state.PARAM_LEXICAL] == ",".join(lexical)


def test_the_pair_that_flips_is_found_and_its_tie_is_named():
    at = open_page(PAGE)
    flip = fusion.rrf_flip_pair((LEXICAL, DENSE), hybrid.KS)
    assert flip is not None and flip.tie
    text = markdown(at)
    tied = fmt(float(fusion.rrf_score(fusion.ranks_in((LEXICAL, DENSE), flip.leader), flip.at)), "score")
    assert f"at k = {flip.at} the two tie exactly ({tied} each)" in text
    assert f"from k = {flip.at + 1} on, the second leads" in text
    [chart] = [e.proto for e in at.get("vega_lite_chart") if "the fused list's value" in e.proto.alt]
    [words] = [c.value for c in at.caption if c.value.startswith("the fused list's value")]
    sweep = hybrid.sweep((LEXICAL, DENSE))
    assert f"At rrf's k = 60: Recall@5: {fmt(sweep['Recall@5'][59])}; RR: {fmt(sweep['RR'][59])}" in words


def test_predict_first_hides_the_fused_list_until_revealed():
    at = open_page(PAGE, query={"predict_first": "1"})
    assert not at.exception
    assert not [e for e in at.get("bidi_component") if e.key == widget_key(state.FUSION_FUSED)]
    assert set(board(at, SIDES[0]).values()) == {"?"}
    assert "Predict first: which document will top the fused list at k = 60" in markdown(at)
    next(b for b in at.button if b.key == f"predict.{hybrid.NAME}.button").click().run()
    assert strip(at, state.FUSION_FUSED)["order"][0] == hybrid.fused((LEXICAL, DENSE), 60)[0][0]


def test_take_home_offers_the_three_runs_and_the_qrels_when_opened():
    at = open_page(PAGE)
    assert not at.get("download_button")  # built only when the panel opens
    at.session_state[f"take_home.{hybrid.NAME}.open"] = True
    at.run()
    names = [b.proto.label for b in at.get("download_button")]
    assert names == [f"Download {f}" for f in ("bm25.run", "dense.run", "fused.run", "fusion.qrels")]
    pack = hybrid.take_home((LEXICAL, DENSE), 60)
    assert [c.value.strip() for c in at.code][:3] == [pack.command, pack.ranx.strip(), pack.expected]


def test_a_live_class_predicts_the_fused_lists_rr_then_sees_the_fused_strip():
    """Predict first in a live class: the instructor asks for the fused list's RR (is its top relevant?), a learner
    guesses, the reveal shows everyone the fused strip."""
    from components.live_class import questions
    from tests.pages.test_live_class import instructor, learner

    teacher, lead = instructor()
    teacher.toggle(key=state.PREDICT_FIRST).set_value(True).run()
    teacher.switch_page(PAGE).run()
    student = learner(lead.code)
    student.switch_page(PAGE).run()  # where the class took them (the test's own idea of the page follows)
    sides = tuple(teacher.session_state[key] for key in SIDES)
    qid = questions.value_id(hybrid.NAME, (*sides, hybrid.CUTOFF))
    teacher.button(key=f"class.ask.{qid}").click().run()
    student.run()
    rr = fmt(hybrid.values([d for d, _ in hybrid.fused((LEXICAL, DENSE), 60)])[1])
    student.text_input(key=f"class.guess.{qid}.text").set_value(rr)
    student.button(key=f"class.guess.{qid}.send").click().run()
    assert any(f"Your guess, **{rr}**, is in" in s.value for s in student.success)
    teacher.button(key=f"class.reveal.{qid}").click().run()
    student.run()
    assert strip(student, state.FUSION_FUSED)["order"] == [d for d, _ in hybrid.fused((LEXICAL, DENSE), 60)]


def test_a_following_learner_takes_the_instructors_k_and_lists():
    from tests.pages.test_live_class import instructor, learner

    teacher, lead = instructor()
    teacher.switch_page(PAGE).run()
    student = learner(lead.code)
    student.switch_page(PAGE).run()
    teacher.slider(key=state.FUSION_K).set_value(1).run()
    student.run()
    assert student.session_state[state.FUSION_K] == 1
    assert strip(student, state.FUSION_FUSED)["order"] == [d for d, _ in hybrid.fused((LEXICAL, DENSE), 1)]
