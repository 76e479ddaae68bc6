"""The lesson on why plain accuracy fails (the 10,000-document "Python" collection)."""
from __future__ import annotations

import streamlit as st

from components.course import prose, scenarios
from components.engine import metrics
from components.engine.formatting import fmt
from components.ui import charts, layout, state
from components.ui.widgets import numbers_revealed, read_control, show_chart, show_steps, steps_done

NAME = "accuracy"
N = scenarios.ACCURACY_COLLECTION
RELEVANT = scenarios.ACCURACY_RELEVANT
DEFAULT = next(iter(scenarios.ACCURACY_PRESETS.values()))  # the first preset: top 10, half of them relevant


def _apply_preset(case: scenarios.AccuracyCase) -> None:
    st.session_state[state.ACCURACY_RETURNED] = case.returned
    st.session_state[state.ACCURACY_RELEVANT_RETURNED] = case.relevant_returned


def _inputs() -> tuple[int, int]:
    """Preset buttons and two bounded inputs; returns (returned, relevant returned)."""
    st.session_state.setdefault(state.ACCURACY_RETURNED, DEFAULT.returned)
    st.session_state.setdefault(state.ACCURACY_RELEVANT_RETURNED, DEFAULT.relevant_returned)
    buttons = st.columns(len(scenarios.ACCURACY_PRESETS))
    for column, (name, case) in zip(buttons, scenarios.ACCURACY_PRESETS.items()):
        column.button(name, on_click=_apply_preset, args=(case,), key=f"accuracy.preset.{name}", width="stretch")
    left, right = st.columns(2)
    returned = read_control(left.number_input(prose.section(NAME, "Label returned"), min_value=0, max_value=N, step=1,
                                              key=state.ACCURACY_RETURNED), DEFAULT.returned)
    lo, hi = scenarios.accuracy_bounds(returned)
    current = st.session_state[state.ACCURACY_RELEVANT_RETURNED]
    st.session_state[state.ACCURACY_RELEVANT_RETURNED] = min(max(current, lo), hi)
    relevant_returned = read_control(right.number_input(prose.text(NAME, "Label relevant returned", lo=lo, hi=hi),
                                                        min_value=lo, max_value=hi, step=1,
                                                        key=state.ACCURACY_RELEVANT_RETURNED), lo)
    return int(returned), int(relevant_returned)


def _verdict(accuracy: float, nothing: float) -> str:
    gap = (accuracy - nothing) * 100
    if abs(gap) < 1e-9:
        return prose.section(NAME, "Verdict same")
    if gap > 0:
        return prose.text(NAME, "Verdict better", gap=f"{gap:.2f}".rstrip("0").rstrip("."))
    return prose.section(NAME, "Verdict worse")


def render() -> None:
    layout.show_lesson_opening(NAME, warm_up=False)
    st.markdown(prose.section(NAME, "Try it"))
    returned, tp = _inputs()
    counts = metrics.set_retrieval(N, RELEVANT, returned, tp)
    tn = (N - RELEVANT) - (returned - tp)

    values = {"precision": counts.precision, "recall": counts.recall, "accuracy": counts.accuracy}
    shown = {name: fmt(value, "percent") for name, value in values.items()}  # every share a percentage (see "Try it")
    arithmetic = prose.text(NAME, "Arithmetic", tp=f"{tp:,}", returned=f"{returned:,}", relevant=RELEVANT,
                            tn=f"{tn:,}", collection=f"{N:,}", **shown)
    if returned == 0:
        lines = arithmetic.splitlines()
        lines[0] = prose.text(NAME, "Precision undefined", tp=tp)
        arithmetic = "\n".join(lines)
    revealed = numbers_revealed("accuracy", (returned, tp))
    shown_now = revealed and steps_done("accuracy", arithmetic)  # step by step: the result comes with the last step
    cards = st.columns(3)
    cards[0].metric(prose.section(NAME, "Label precision card"), shown["precision"] if shown_now else "?")
    cards[1].metric(prose.section(NAME, "Label recall card"), shown["recall"] if shown_now else "?")
    cards[2].metric(prose.section(NAME, "Label accuracy card"), shown["accuracy"] if shown_now else "?")
    if not revealed:
        return _after_scenario()

    left, right = st.columns([3, 2], gap="large")
    with left:
        st.markdown(prose.section(NAME, "Heading arithmetic"))
        show_steps(arithmetic, key="accuracy")
        if shown_now:
            nothing = metrics.set_retrieval(N, RELEVANT, 0, 0).accuracy
            st.info(prose.text(NAME, "Do nothing", nothing=fmt(nothing, "percent"),
                               accuracy=shown["accuracy"], verdict=_verdict(counts.accuracy, nothing)),
                    icon="🤔")
    if shown_now:
        with right:
            show_chart(charts.share_bars, values, shown, key="accuracy.chart")

    _after_scenario()


def _after_scenario() -> None:
    st.subheader(prose.section(NAME, "Heading what went wrong"))
    st.markdown(prose.section(NAME, "What went wrong"))
    layout.show_practice(NAME)
    layout.show_lesson_end(NAME)


if __name__ == "__main__":
    render()
