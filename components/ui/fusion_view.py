"""The "Compare runs" page's fusion section: reciprocal rank fusion of runs chosen there
(:mod:`components.engine.fusion`), a measure for every rrf constant k, and a button that adds the fused run
to the comparison."""
from __future__ import annotations

from typing import cast

import streamlit as st

from components.course import prose
from components.course.measure_choices import shown_name
from components.engine import fusion, many_runs, model
from components.engine.metrics import Gain
from components.formats import readers
from components.serving import uploads
from components.ui import comparison_charts, state, upload_flow
from components.ui.widgets import read_control, show_chart

TEXT = "compare_runs"  # the page whose words these are
SWEEP_KS = (1, 2, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100)  # the rrf constants the fusion chart evaluates


@st.cache_resource(max_entries=16, show_spinner=False)
def _sweep(files: tuple[uploads.PairKey, ...], measure: str, gain: str, _runs: tuple[model.Run, ...],
           _qrels: model.Qrels) -> tuple[float, ...]:
    """The fused runs' mean of ``measure`` at each of SWEEP_KS; shared by every session."""
    return tuple(fusion.k_sweep(_runs, _qrels, measure, SWEEP_KS, cast(Gain, gain)))


def _add_fused(letters: list[str], k: int, runs: dict[str, model.Run]) -> None:
    """The "add" button: the rrf fusion of these runs at k joins the comparison, as a run file in the next slot
    (JSON, which carries any id the runs hold: a TREC file cannot carry "doc 221")."""
    slot = upload_flow.free_slot()
    if slot is not None:
        fused = fusion.fuse([runs[letter] for letter in letters], k=k)
        upload_flow.receive(slot, f"fused-rrf-k{k}-{'+'.join(letters)}.json", fusion.to_json(fused).encode())


def show_fusion(result: many_runs.ManyRuns, gain: str, files: dict[str, uploads.PairKey], qrels: readers.Read,
                    reads: dict[str, readers.Read]) -> None:
    """Reciprocal rank fusion of runs chosen here (:mod:`components.engine.fusion`): a chart of a measure for every
    k, and a button that adds the fused run at the chosen k to the comparison."""
    st.subheader(prose.text(TEXT, "Fusion heading"))
    st.markdown(prose.section(TEXT, "Fusion intro"))
    pick, k_at, measure_at = st.columns([2, 2, 1], vertical_alignment="bottom")
    letters = pick.multiselect(prose.text(TEXT, "Fusion runs"), list(result.names), default=list(result.names[:2]),
                               key=state.COMPARE_FUSE_RUNS)
    k = k_at.slider(prose.text(TEXT, "Fusion k"), 1, max(SWEEP_KS), fusion.RRF_K, key=state.COMPARE_FUSE_K)
    measure = read_control(measure_at.selectbox(prose.text(TEXT, "Fusion measure"), result.measures,
                                                key=state.COMPARE_FUSE_MEASURE), result.measures[0], result.measures)
    if len(letters) < 2:
        st.info(prose.text(TEXT, "Fusion needs two"), icon="☝️")
        return
    runs = {letter: cast(model.Run, reads[letter].parsed) for letter in letters}
    values = _sweep(tuple(files[letter] for letter in letters), measure, gain, tuple(runs.values()),
                    cast(model.Qrels, qrels.parsed))
    alone = {letter: next(r.mean[measure] for r in result.runs if r.name == letter) for letter in letters}
    show_chart(comparison_charts.fusion_sweep, list(SWEEP_KS), list(values), metric=shown_name(measure, gain),
               current_k=k, runs=alone, key="compare_runs.fusion")
    full = upload_flow.free_slot() is None
    st.button(prose.text(TEXT, "Fusion add", k=k, runs=" + ".join(letters)), key=state.COMPARE_FUSE_ADD,
              on_click=_add_fused, args=(letters, k, runs), disabled=full, icon="🔀",
              help=prose.text(TEXT, "Fusion full") if full else None)
