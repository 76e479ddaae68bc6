"""Small Streamlit helpers shared by every page: mode controls, figures, metric cards."""
from __future__ import annotations

import streamlit as st

from components import state
from components.charts import Figure
from components.formatting import fmt

PROJECTOR_SCALE = 1.5  # root font and chart fonts grow by this factor in projector mode

_PROJECTOR_CSS = f"""
<style>
  html {{ font-size: {PROJECTOR_SCALE * 100:.0f}%; }}
  [data-testid="stMetricValue"] {{ font-size: 3.2rem; }}
  [data-testid="stMarkdownContainer"] p, [data-testid="stMarkdownContainer"] li {{ line-height: 1.45; }}
</style>
"""


def show_mode_controls() -> None:
    """Sidebar: read the mode flags from the URL once, and offer the projector toggle."""
    for note in state.load_mode_flags(st.query_params, st.session_state):
        st.sidebar.warning(note)
    st.sidebar.toggle("Projector mode", key=state.PROJECTOR,
                      help="Larger text, metric values and chart labels, for showing the app to a room.")
    if st.session_state[state.PROJECTOR]:
        st.html(_PROJECTOR_CSS)


def chart_scale() -> float:
    """The ``scale`` argument for the chart builders under the current mode."""
    return PROJECTOR_SCALE if st.session_state.get(state.PROJECTOR) else 1.0


def show_figure(figure: Figure, *, key: str | None = None) -> None:
    """A chart with its text alternative, as the chart's alt text and as a visible caption."""
    st.altair_chart(figure.chart, alt=figure.alt_text, key=key)
    st.caption(figure.alt_text)


def show_metric(column, label: str, value: float, *, help: str | None = None) -> None:
    """A live metric value, formatted the app's way."""
    column.metric(label, fmt(value), help=help)


def show_k_slider(key: str, *, hi: int, default: int, label: str = "Cutoff k", lo: int = 1,
                  url: bool = True, help: str | None = None) -> int:
    """A slider for the cutoff k that owns ``key``; with ``url``, mirrored in the URL as ``?k=``.

    On the first run the value comes from the URL when it is valid (else the
    default, with a note saying why); every later change is written back, so a
    copied link opens at the same k.
    """
    if key not in st.session_state:
        reading = state.read_k(st.query_params.get(state.PARAM_K) if url else None, default=default, hi=hi, lo=lo)
        st.session_state[key] = reading.value
        if reading.note:
            st.warning(reading.note, icon="🔗")
    value = st.slider(label, lo, hi, key=key, help=help)
    if url and st.query_params.get(state.PARAM_K) != str(value):
        st.query_params[state.PARAM_K] = str(value)
    return int(value)
