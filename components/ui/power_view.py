"""The "Compare runs" page's power section: how many queries it takes to detect a difference between a run
and the baseline, with the formula, the numbers and a chart (:mod:`components.engine.power`)."""
from __future__ import annotations

from typing import Final

import numpy as np
import streamlit as st

from components.course import prose
from components.course.measure_choices import shown_name
from components.course.run_comparison import NO_VALUE, power_formula
from components.engine import many_runs, power
from components.engine.formatting import fmt
from components.engine.metrics import Gain
from components.ui import comparison_charts, state
from components.ui.explain_view import pick_pair
from components.ui.widgets import read_control, show_chart

TEXT = "compare_runs"  # the page whose words these are
PERCENT: Final = "percent"  # fmt's style for a share
DEFAULT_DELTA = 0.05


def show_power(result: many_runs.ManyRuns, gain: Gain) -> None:
    """How many queries a run's difference from the baseline needs to be detected, and what the queries at hand
    can detect (:mod:`components.engine.power`)."""
    st.subheader(prose.text(TEXT, "Power heading"))
    st.markdown(prose.section(TEXT, "Power intro"))
    columns = st.columns([1, 3.6, 1.1], vertical_alignment="bottom")  # the run, the measure, the difference
    run, measure = pick_pair(result, f"{state.COMPARE_RUN}.power", f"{state.COMPARE_MEASURE}.power", "Power", gain,
                              columns)
    delta_column = columns[2]
    st.session_state.setdefault(state.COMPARE_DELTA, DEFAULT_DELTA)
    delta = float(read_control(delta_column.number_input(
        prose.text(TEXT, "Power delta"), min_value=0.001, max_value=1.0, step=0.005, format="%.3f",
        key=state.COMPARE_DELTA, help=prose.section(TEXT, "Power delta help")), DEFAULT_DELTA))
    diff = result.versus[run, measure].comparison.diff
    base, label = result.names[result.baseline], shown_name(measure, gain)
    if diff.size < 2 or float(np.ptp(diff)) == 0.0:
        st.info(prose.text(TEXT, "Power no spread", run=run, base=base, measure=label), icon="🧮")
        return
    plan = power.plan(diff, delta)
    needed = f"{plan.queries_needed:,}" if plan.queries_needed is not None else NO_VALUE
    cards = st.columns(4)
    cards[0].metric(prose.text(TEXT, "Card needed"), needed)
    cards[1].metric(prose.text(TEXT, "Card have"), f"{plan.n_have:,}")
    cards[2].metric(prose.text(TEXT, "Card detectable"), fmt(plan.detectable))
    cards[3].metric(prose.text(TEXT, "Card power"), fmt(plan.power_have, PERCENT))
    st.markdown(prose.text(TEXT, "Power formula", run=run, base=base, measure=label, sd=fmt(plan.sd),
                           n=f"{plan.n_have:,}"))
    st.latex(power_formula(plan))
    formula_column, chart_column = st.columns([2, 3], gap="medium")
    with formula_column:
        if plan.queries_needed is None:
            st.markdown(prose.text(TEXT, "Power unreachable", most=f"{power.MAX_QUERIES:,}", delta=f"{delta:g}"))
        else:
            st.markdown(prose.text(TEXT, "Power formula exact", needed=needed))
            st.markdown(prose.text(TEXT, "Power reading", delta=f"{delta:g}", measure=label, needed=needed,
                                   n=f"{plan.n_have:,}", detectable=fmt(plan.detectable),
                                   power=fmt(plan.power_have, PERCENT)))
        st.caption(prose.text(TEXT, "Power caution", n=f"{plan.n_have:,}"))
    with chart_column:
        ns = power.query_counts()
        show_chart(comparison_charts.detectable_curve, ns, plan.curve(ns), n_have=plan.n_have, delta=delta,
                   needed=plan.queries_needed, measure=label, key="compare_runs.power")
