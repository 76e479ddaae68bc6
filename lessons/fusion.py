"""Lesson: hybrid search, a lexical and a dense ranking fused by reciprocal rank fusion (rrf)."""
from __future__ import annotations

import streamlit as st

from components.course import class_answers, hybrid, prose
from components.course.hybrid import CUTOFF, LABELS, MEASURES, NAME, Q
from components.engine.formatting import fmt
from components.live_class.follow import followed_fragment
from components.ranking_editor import (
    EditorItem,
    Scoreboard,
    editor_state,
    ranking_editor,
    set_editor_state,
)
from components.ranking_editor.model import editor_items
from components.ui import charts, layout, state
from components.ui.duel import Side, duel_controls, show_duel
from components.ui.take_home import show_fusion_take_home
from components.ui.widgets import (
    chart_scale,
    keep_link_note,
    numbers_hidden,
    numbers_revealed,
    set_url_param,
    show_chart,
    show_k_slider,
    show_link_to_view,
)

ITEMS = editor_items(Q.docs)
DEFAULTS = tuple(Q.presets[name] for name in hybrid.RANKERS)
PARAMS = (state.PARAM_LEXICAL, state.PARAM_DENSE)
SIDES = tuple(state.duel_side(state.FUSION_DUEL, i) for i in range(2))


def _orders_from_link() -> None:
    """On the session's first run, the two rankers' lists from the address (?bm25=, ?dense=), when valid."""
    if st.session_state.get(f"{NAME}.url_read"):
        return
    st.session_state[f"{NAME}.url_read"] = True
    for key, param, default in zip(SIDES, PARAMS, DEFAULTS):
        reading = state.read_order(st.query_params.get(param), valid_ids=[d.id for d in Q.docs], default=default,
                                   name=param)
        keep_link_note(reading.note)
        if param in st.query_params and not reading.note:
            set_editor_state(key, reading.value)


def _show_fused(orders: tuple[tuple[str, ...], ...], ranked: tuple[tuple[str, float], ...], k: int) -> None:
    """The fused list (``ranked``: the engine's, at ``k``) as a fixed strip under the two rankers' (its cells say
    their scores worked out)."""
    score = dict(ranked)
    items = [EditorItem(d.id, hybrid.cell_title(orders, d.id, score[d.id], k), d.grade) if d.id in score else d
             for d in ITEMS]
    order = [doc for doc, _ in ranked]
    stored = editor_state(state.FUSION_FUSED)
    if stored is None or list(stored.order) != order:
        set_editor_state(state.FUSION_FUSED, order, tray=[d.id for d in ITEMS if d.id not in score])
    ranking_editor(items, key=state.FUSION_FUSED, default_order=order, k=CUTOFF, tray=True, grade_range=(0, 2),
                   scale=chart_scale(), label=prose.text(NAME, "Label fused", k=k),
                   scoreboard=Scoreboard(MEASURES, LABELS), view="strip", fixed=True)


def _fused_sentence(orders, ranked, k: int) -> str:
    if not ranked:
        return prose.section(NAME, "Fused empty")
    top, top_score = ranked[0]
    fused_order = [doc for doc, _ in ranked]
    return prose.text(NAME, "Fused sentence", k=k, top=Q.by_id[top].title, score=fmt(top_score, "score"), cutoff=CUTOFF, found=hybrid.relevant_found(fused_order),
                      found_lexical=hybrid.relevant_found(orders[0]), found_dense=hybrid.relevant_found(orders[1]))


def _flip_sentence(orders, k: int) -> str:
    story = hybrid.flip_story(orders, k)
    if story is None:
        return prose.section(NAME, "Flip none")
    flip = story.flip
    values = dict(leader=story.leader_title, rival=story.rival_title, leader_terms=story.leader_terms,
                  rival_terms=story.rival_terms, k=k, leader_score=fmt(story.leader_score, "score"),
                  rival_score=fmt(story.rival_score, "score"), at=flip.at)
    if not flip.tie:
        return prose.text(NAME, "Flip", **values)
    return prose.text(NAME, "Flip tie", **values, after=flip.at + 1, tie_first=story.tie_first,
                      tie_score=fmt(story.tie_score, "score"))


@followed_fragment
def _fusion() -> None:
    _orders_from_link()
    slider_at, reset_at = duel_controls()
    with slider_at:
        k = show_k_slider(state.FUSION_K, hi=hybrid.KS[-1], default=hybrid.fusion.RRF_K,
                          label=prose.section(NAME, "Label rrf k"), param=state.PARAM_RRF_K,
                          help=prose.section(NAME, "Help rrf k"))
    board = Scoreboard(MEASURES, LABELS)
    sides = (Side(prose.section(NAME, "Duel lexical"), DEFAULTS[0], board),
             Side(prose.section(NAME, "Duel dense"), DEFAULTS[1], board))
    lexical, dense = show_duel(state.FUSION_DUEL, ITEMS, sides, k=CUTOFF, scope=NAME, tray=True, grade_range=(0, 2),
                               reset_in=reset_at)
    for param, side, default in zip(PARAMS, (lexical, dense), DEFAULTS):
        set_url_param(param, None if side.order == tuple(default) else state.write_order(side.order))
    orders = (tuple(lexical.order), tuple(dense.order))
    signature = (lexical, dense, CUTOFF)
    if numbers_hidden(NAME, signature):
        st.markdown(prose.text(NAME, "Predict", k=k))
    ranked = hybrid.fused(orders, k)
    asked = prose.text(NAME, "Asked", k=k)  # a live class predicts the fused list's RR: is its top relevant?
    if not numbers_revealed(NAME, signature, ask=lambda: class_answers.asked_on_screen(
            "MRR", asked, hybrid.query_set([doc for doc, _ in ranked]), CUTOFF)):
        return
    _show_fused(orders, ranked, k)
    st.markdown(_fused_sentence(orders, ranked, k))
    link, take_home = st.columns(2)
    with link:
        show_link_to_view()
    with take_home:
        if all(orders):
            show_fusion_take_home(NAME, lambda: hybrid.take_home(orders, k))
    st.subheader(prose.section(NAME, "Heading what k does"))
    st.markdown(prose.section(NAME, "What k does"))
    show_chart(charts.metric_by_k, list(hybrid.KS), hybrid.sweep(orders), metric=prose.section(NAME, "Chart label"),
               current_k=k, step=True, axis=prose.section(NAME, "Chart axis"), key=f"{NAME}.sweep")
    st.markdown(_flip_sentence(orders, k))


def render() -> None:
    layout.show_lesson_opening(NAME, intro=prose.text(NAME, "Intro", query=Q.text))
    st.markdown(prose.section(NAME, "Scenario"))
    _fusion()
    layout.show_practice(NAME)
    layout.show_lesson_end(NAME)


if __name__ == "__main__":
    render()
