"""The "Compare runs" page's explanation of one run against the baseline: the test's reading in words, the
change of every query, and why one query changed (:func:`components.engine.many_runs.explain_query`)."""
from __future__ import annotations

import numpy as np
import streamlit as st

from components.course import prose
from components.course.measure_choices import shown_name
from components.course.run_comparison import change_lines
from components.engine import compare, corrections, many_runs, model
from components.engine.compare import format_p
from components.engine.formatting import literal, signed
from components.engine.metrics import Gain
from components.ui import charts, comparison_charts, state
from components.ui.widgets import read_control, show_chart

TEXT = "compare_runs"  # the page whose words these are
QUERY_OPTIONS = 2_000  # the query picker lists the queries with the largest changes, at most this many


def show_explain(result: many_runs.ManyRuns, judged: dict[str, model.JudgedRun], gain: Gain) -> None:
    """One run against the baseline on one measure: the reading of the test, the wins and losses per query, and
    why one query changed (the documents that moved)."""
    st.subheader(prose.text(TEXT, "Explain heading"))
    st.markdown(prose.section(TEXT, "Explain intro"))
    run, measure = pick_pair(result, state.COMPARE_RUN, state.COMPARE_MEASURE, "Explain", gain,
                              st.columns([1, 3], vertical_alignment="bottom"))
    diff = result.versus[run, measure].comparison.diff
    qids = result.pairings[run].qids
    base = result.names[result.baseline]
    _pair_reading(result, result.versus[run, measure], shown_name(measure, gain))
    st.markdown(prose.text("compare", "Chart key", run_a=base, run_b=run))
    show_chart(charts.win_loss_bars, qids, diff, metric=shown_name(measure, gain), run_a=base, run_b=run,
               key="compare_runs.wins")
    order = np.argsort(-np.abs(diff), kind="stable")[:QUERY_OPTIONS]
    options = [qids[i] for i in order]
    change = {qids[i]: signed(diff[i]) for i in order}
    qid = read_control(st.selectbox(prose.text(TEXT, "Explain query"), options, key=query_key(run, measure),
                                    format_func=lambda q: f"{q} ({change[q]})"), options[0], options)
    why = many_runs.explain_query(judged[base], judged[run], qid, [measure], gain)[measure]
    chart_column, lines_column = st.columns([7, 4], gap="medium")
    with chart_column:
        show_chart(comparison_charts.two_rankings, _top(judged[base], qid), _top(judged[run], qid), run_a=base,
                   run_b=run, qid=qid, key="compare_runs.rankings")
    with lines_column:
        first, *rest = change_lines(why, shown_name(measure, gain), show_id=literal)
        st.markdown(f"**{first}**")
        for line in rest:
            st.markdown(f"- {line}")


def query_key(run: str, measure: str) -> str:
    """The query picker's key: one picker per run and measure, since its options (and their order, largest
    change first) are that pair's (a picker whose options change under it can stop opening)."""
    return f"{state.COMPARE_QUERY}.{run}.{measure}"


def _pair_reading(result: many_runs.ManyRuns, v: many_runs.Versus, label: str) -> None:
    """One run against the baseline on one measure in words: the queries compared, the outcome, the reading of
    its p-value and what the correction makes of it."""
    base, c = result.names[result.baseline], v.comparison
    heading, values = compare.reading(c, label, a=base, b=v.run)
    values["p_rand_how"] = prose.text_choosing(prose.CLI, compare.randomisation_how(c), values)
    skipped = {k: f"{n:,}" for k, n in result.pairings[v.run].skipped.items()}
    st.caption(prose.text("compare", "Counts", n=f"{c.n:,}", run_a=base, run_b=v.run, **skipped))
    st.markdown(prose.text_choosing("compare", "Outcome", values))
    after = "" if v.run in result.flagged else prose.text(
        TEXT, "Corrected significant" if v.significant else "Corrected not significant", family=result.family,
        method=corrections.NAMES[result.correction], corrected=format_p(v.p_rand), alpha=f"{result.alpha:g}")
    st.info(" ".join([prose.text_choosing(prose.CLI, heading, values), after]), icon="🧮")
    if compare.p_values_disagree(c):
        st.caption(prose.text_choosing(prose.CLI, compare.READING_TESTS_DISAGREE, values))


def _top(judged: model.JudgedRun, qid: str) -> list[tuple[str, int | None]]:
    """A query's top documents with their grades (None: unjudged)."""
    q = judged.query_index[qid]
    grades = judged.grades(q)
    return [(doc, grades.get(doc)) for doc, _, _ in judged.ranking(q)[:comparison_charts.RANKS_SHOWN]]


def pick_pair(result: many_runs.ManyRuns, run_key: str, measure_key: str, label: str, gain: Gain,
               columns) -> tuple[str, str]:
    """A run (other than the baseline) and a measure, in the first two of ``columns``."""
    run_column, measure_column = columns[:2]
    others = list(result.others)
    run = read_control(run_column.segmented_control(prose.text(TEXT, f"{label} run"), others, key=run_key,
                                                    default=others[0], required=True), others[0], others)
    measures = list(result.measures)
    measure = read_control(measure_column.segmented_control(
        prose.text(TEXT, f"{label} measure"), measures, key=measure_key, default=measures[0], required=True,
        format_func=lambda m: shown_name(m, gain)), measures[0], measures)
    return run, measure
