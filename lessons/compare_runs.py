"""Compare runs: a baseline against up to nine variants on the judgments loaded on "Your data".

The page only composes: the numbers are :mod:`components.engine.many_runs`' (tests, intervals, corrections),
:mod:`components.engine.attribution`'s (why a query changed) and :mod:`components.engine.power`'s (how many
queries), cached by :mod:`components.ui.compared_runs`; the sentences and tables are
:mod:`components.course.run_comparison`'s and lessons/text/compare_runs.md's. The
runs are listed by :mod:`components.ui.other_runs`; the fusion, explanation and power sections are
:mod:`components.ui.fusion_view`'s, :mod:`components.ui.explain_view`'s and :mod:`components.ui.power_view`'s.
"""
from __future__ import annotations

import streamlit as st

from components.course import prose
from components.course.findings import contrast_sentence
from components.course.measure_choices import (
    CHOICES,
    COMPARE_CHOICES,
    COMPARE_DEFAULTS,
    DEFAULT_K,
    GAIN_CHOICES,
    MAX_K,
    in_order,
    measure_names,
    shown_name,
)
from components.course.run_comparison import comparison_table, many_readings, means_table, report_many
from components.course.samples import SAMPLE_QRELS, SAMPLE_RUN
from components.engine import bootstrap, compare, corrections, many_runs, model, run_diagnosis
from components.formats import readers
from components.serving import uploads
from components.ui import compared_runs, comparison_charts, other_runs, registry, state, upload_flow
from components.ui.diagnosis_view import show_diagnosis
from components.ui.explain_view import show_explain
from components.ui.fusion_view import show_fusion
from components.ui.power_view import show_power
from components.ui.widgets import read_control, show_chart

NAME = "compare_runs"
YOUR_DATA = "your_data"  # the page that loads the judgments and run A, and whose words this page shares


def _use_samples() -> None:
    """The sample qrels and first run on "Your data", and runs B and C here."""
    upload_flow.receive("qrels", SAMPLE_QRELS.name, SAMPLE_QRELS.read_bytes())
    upload_flow.receive("run", SAMPLE_RUN.name, SAMPLE_RUN.read_bytes())
    other_runs.add_sample_runs()


def _settings() -> tuple[tuple[str, ...], str]:
    """The measures (canonical names) and the gain."""
    st.subheader(prose.text(NAME, "Settings heading"))
    st.session_state.setdefault(state.COMPARE_K, DEFAULT_K)
    st.session_state.setdefault(state.COMPARE_MEASURES, list(COMPARE_DEFAULTS))
    # The measures on a row of their own, k and the gain under them: three in a row cut the gain's second
    # choice ("exponentia") at 1024 px with the sidebar open.
    measures_column = st.container()
    k_column, gain_column, _ = st.columns([1, 2, 2], vertical_alignment="bottom")
    k = int(read_control(k_column.number_input(prose.text(NAME, "K label"), min_value=1, max_value=MAX_K, step=1,
                                               key=state.COMPARE_K), DEFAULT_K))
    choices = read_control(measures_column.multiselect(prose.text(NAME, "Measures label"), COMPARE_CHOICES,
                                                       key=state.COMPARE_MEASURES, format_func=CHOICES.get), [])
    gain = read_control(gain_column.segmented_control(prose.text(NAME, "Gain label"), GAIN_CHOICES,
                                                      key=state.COMPARE_GAIN, default=GAIN_CHOICES[0], required=True),
                        GAIN_CHOICES[0], GAIN_CHOICES)
    st.caption(prose.section(NAME, "Defaults note"))
    return measure_names(in_order(choices, COMPARE_CHOICES), k), gain


def _test_settings(letters: list[str]) -> tuple[int, corrections.Correction]:
    """The baseline's index and the correction: right above the results they change."""
    baseline_column, correction_column = st.columns([1, 2], vertical_alignment="bottom")
    baseline = read_control(baseline_column.segmented_control(prose.text(NAME, "Baseline label"), letters,
                                                              key=state.COMPARE_BASELINE, default=letters[0],
                                                              required=True), letters[0], letters)
    correction = read_control(correction_column.segmented_control(
        prose.text(NAME, "Correction label"), corrections.CORRECTIONS, key=state.COMPARE_CORRECTION,
        default=corrections.DEFAULT_CORRECTION, required=True, format_func=corrections.NAMES.get,
        help=prose.section(NAME, "Correction help")), corrections.DEFAULT_CORRECTION, corrections.CORRECTIONS)
    return letters.index(baseline), correction


def _table_section(result: many_runs.ManyRuns, gain: str) -> None:
    base = result.names[result.baseline]
    flagged = [prose.text(prose.CLI, "Reading flagged", run=name) for name in result.flagged]
    for warning in flagged:
        st.warning(warning, icon="⚠️")
    rows = [{"run": v.run, "measure": shown_name(v.measure, gain), "diff": v.comparison.mean_diff,
             "t_low": v.comparison.ci95[0], "t_high": v.comparison.ci95[1], "boot_low": v.boot.low,
             "boot_high": v.boot.high, "significant": v.significant} for v in result.versus.values()]
    chart_column, readings_column = st.columns([3, 2], gap="medium")
    with chart_column:
        show_chart(comparison_charts.difference_intervals, rows, baseline=base, key="compare_runs.intervals")
    with readings_column:
        st.markdown(prose.text(NAME, "Readings heading"))
        for reading in many_readings(result, {n: n for n in result.names}):
            if reading not in flagged:
                st.markdown(f"- {reading}")
    st.dataframe(comparison_table(result, gain), hide_index=True, width="stretch")
    st.caption(prose.text(NAME, "Method", family=result.family, runs=len(result.others) - len(result.flagged),
                          measures=len(result.measures), method=corrections.NAMES[result.correction],
                          controls=corrections.CONTROLS[result.correction], boot_method=bootstrap.METHOD,
                          resamples=f"{bootstrap.RESAMPLES:,}"))
    with st.expander(prose.text(NAME, "Tests heading")):
        st.markdown(prose.section("compare", compare.WHY_FEW_QUERIES))
        st.markdown(prose.section("compare", "Tests"))
    with st.expander(prose.text(NAME, "Means heading")):
        st.dataframe(means_table(result, gain), hide_index=True, width="stretch")
    with st.expander(prose.text(NAME, "Report heading")):
        st.caption(prose.text(NAME, "Report intro"))
        for layout, tab in zip(("markdown", "latex"), st.tabs([prose.text(NAME, "Copy as Markdown"),
                                                               prose.text(NAME, "Copy as LaTeX")])):
            tab.code(report_many(result, layout, gain), language=layout, wrap_lines=True)


def _diagnosis_section(result: many_runs.ManyRuns, gain: str, files: dict[str, uploads.PairKey], qrels: readers.Read,
                       reads: dict[str, readers.Read], judged: dict[str, model.JudgedRun], chunks: str | None) -> None:
    """Each run diagnosed against the qrels at the measures' largest cutoff: how each run's findings differ from
    the baseline's, then every run's diagnosis, a tab each."""
    st.subheader(prose.text(NAME, "Diagnosis heading"))
    k = run_diagnosis.diagnosis_cutoff(result.measures)
    found = {run: compared_runs.diagnosed(files[run], k, result.measures, gain, chunks, qrels, reads[run], judged[run])
             for run in result.names}
    base = result.names[result.baseline]
    lines = [contrast_sentence(c, run, base) for run in result.others
             for c in run_diagnosis.contrasts(found[base], found[run])]
    st.markdown(prose.text(NAME, "Diagnosis intro", k=k, baseline=base))
    st.markdown("\n".join(f"- {line}" for line in lines) if lines else prose.text(NAME, "Diagnosis same", k=k))
    for run, tab in zip(result.names, st.tabs(list(result.names))):
        with tab:
            show_diagnosis(found[run], openable=(), open_query=lambda qid: None, key=f"{state.COMPARE_DIAGNOSIS}.{run}",
                           expanded=False)  # folded: the lines above say what sets the runs apart


def render() -> None:
    st.title(prose.section(NAME, "Title"))
    st.markdown(prose.section(NAME, "Intro"))
    with st.container():  # the status box of a pair being read comes and goes inside: the uploader below keeps its
        # place, and the browser keeps it (drawn afresh, moved, it abandons the uploads it is making)
        loaded, _ = upload_flow.current_files()
    if loaded is None:
        st.info(prose.section(NAME, "No pair"), icon="📂")
        left, right = st.columns(2)
        left.button(prose.text(NAME, "Use samples"), key=state.COMPARE_SAMPLES, on_click=_use_samples, icon="🧪",
                    width="stretch")
        right.page_link(registry.page_for(registry.spec(YOUR_DATA)), label=prose.text(NAME, "Your data link"),
                        icon="📂")
        return
    others = other_runs.show_runs(loaded)
    if not others:
        st.info(prose.section(NAME, "One run"), icon="☝️")
        return
    st.divider()
    letters = ["A", *(other_runs.letter(slot) for slot, _, _ in others)]
    measures, gain = _settings()
    if not measures:
        st.info(prose.section(YOUR_DATA, "No measure"), icon="☝️")
        return
    st.subheader(prose.text(NAME, "Table heading"))
    baseline, correction = _test_settings(letters)
    judged = {"A": loaded.judged(), **{other_runs.letter(slot): j for slot, _, j in others}}
    files = (loaded.key, *(other_runs.pair_key(loaded, record) for _, record, _ in others))
    result = compared_runs.compared(files, tuple(letters), measures, gain, baseline, correction,
                      tuple(judged[letter] for letter in letters))
    _table_section(result, gain)
    st.divider()
    reads = {"A": loaded.read("run"), **{other_runs.letter(slot): other_runs.run_read(loaded, slot, record)
                                         for slot, record, _ in others}}
    _diagnosis_section(result, gain, dict(zip(letters, files)), loaded.read("qrels"), reads, judged,
                       loaded.run.reading.chunks)
    st.divider()
    show_fusion(result, gain, dict(zip(letters, files)), loaded.read("qrels"), reads)
    st.divider()
    show_explain(result, judged, gain)
    st.divider()
    show_power(result, gain)


if __name__ == "__main__":
    render()
