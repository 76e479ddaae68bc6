"""Charts on a page: the chart builders' scale under the current mode, and a chart shown with its text
alternative."""
from __future__ import annotations

from typing import Callable

import pyarrow as pa
import streamlit as st

from components.course import prose
from components.ui import state
from components.ui.charts import Figure

TEXT = "ui"  # lessons/text/ui.md: the fold's label

PROJECTOR_SCALE = 1.5  # root font and chart fonts grow by this factor in projector mode


def chart_scale() -> float:
    """The ``scale`` argument for the chart builders under the current mode."""
    return PROJECTOR_SCALE if st.session_state.get(state.PROJECTOR) else 1.0


def show_chart(builder: Callable[..., Figure], *args, key: str | None = None, fold: str | None = None,
               **kwargs) -> None:
    """``builder(*args, **kwargs)``, scaled for the mode, as a chart with its text alternative.

    The text alternative is a caption for everyone in a fold under the chart (one line folded: the chart itself
    is what the page shows), and the chart's alt text unless the figure has a ``label`` for that. ``fold``: the
    chart is a second view of what the section already shows, so it and its words sit folded under this label.
    ``builder`` is one of :mod:`components.ui.charts`' builders; the mode's
    ``scale`` is added here. The figure's main rows go beside the spec (:meth:`~components.ui.charts.Figure.sent`):
    a drop that changes only them keeps the drawn chart, which takes the new rows in place.
    """
    figure = builder(*args, scale=chart_scale(), **kwargs)
    rows, spec, alt = figure.sent()
    data = pa.Table.from_pylist(rows)  # Arrow straight away: Streamlit would go through a pandas DataFrame
    if fold is not None:
        with st.expander(fold):
            st.vega_lite_chart(data, spec, alt=alt, key=key)
            st.caption(figure.alt_text)
        return
    st.vega_lite_chart(data, spec, alt=alt, key=key)
    with st.expander(prose.text(TEXT, "Chart in words")):
        st.caption(figure.alt_text)
