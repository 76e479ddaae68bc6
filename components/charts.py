"""Altair chart builders: data in, chart and its text alternative out.

Every builder takes ``scale`` (1.0 normally, larger in projector mode): Vega
sizes fonts in pixels and does not follow the page's root font size, so the
builders scale axis, label and title fonts themselves. Every builder returns a
:class:`Figure`, the chart together with a short text alternative that says
what the chart shows in words (for screen readers and for anyone who cannot
read the colours).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import altair as alt
import pandas as pd

from components.formatting import fmt

BASE_FONT = 13  # px at scale 1.0
ACCENT = "#1f6feb"
MUTED = "#8b949e"


@dataclass(frozen=True)
class Figure:
    chart: alt.TopLevelMixin
    alt_text: str


def styled(chart: alt.TopLevelMixin, scale: float = 1.0) -> alt.TopLevelMixin:
    """Apply the app's fonts, scaled by ``scale``, to a finished chart."""
    if scale <= 0:
        raise ValueError(f"scale must be positive, got {scale}")
    size = round(BASE_FONT * scale)
    return (chart.configure_axis(labelFontSize=size, titleFontSize=size + 1)
            .configure_legend(labelFontSize=size, titleFontSize=size + 1)
            .configure_title(fontSize=size + 3)
            .configure_text(fontSize=size)
            .configure_view(strokeWidth=0))


def metric_by_k(ks: Sequence[int], values: Sequence[float], *, metric: str, current_k: int,
                scale: float = 1.0, step: bool = True) -> Figure:
    """A metric plotted against the cutoff k, with the current k marked by a rule and a point.

    ``step`` draws a step curve (Recall@k, which only changes at a hit);
    otherwise points joined by lines (nDCG@k).
    """
    if len(ks) != len(values) or not len(ks):
        raise ValueError("need one value per k, and at least one k")
    data = pd.DataFrame({"k": list(ks), "value": list(values)})
    data["label"] = [fmt(v) for v in values]
    x = alt.X("k:Q", title="cutoff k", scale=alt.Scale(domain=[min(ks), max(ks)]), axis=alt.Axis(tickMinStep=1))
    y = alt.Y("value:Q", title=metric, scale=alt.Scale(domain=[0, 1]))
    line = alt.Chart(data).mark_line(interpolate="step-after" if step else "linear", color=ACCENT,
                                     strokeWidth=2 * scale).encode(x=x, y=y)
    points = alt.Chart(data).mark_point(filled=True, color=ACCENT, size=30 * scale).encode(
        x=x, y=y, tooltip=[alt.Tooltip("k:Q"), alt.Tooltip("label:N", title=metric)])
    current = data[data["k"] == current_k]
    rule = alt.Chart(pd.DataFrame({"k": [current_k]})).mark_rule(strokeDash=[6, 4], color=MUTED).encode(x="k:Q")
    marker = alt.Chart(current).mark_point(shape="diamond", filled=True, size=140 * scale, color="#d1242f").encode(x=x, y=y)
    chart = (line + points + rule + marker).properties(height=round(220 * scale), width="container")
    text = (f"{metric} for k = {min(ks)} to {max(ks)}: "
            + ", ".join(f"k={k}: {fmt(v)}" for k, v in zip(ks, values))
            + f". The current cutoff k = {current_k} is marked"
            + (f" at {fmt(current['value'].iloc[0])}." if len(current) else "."))
    return Figure(styled(chart, scale), text)


def share_bars(values: dict[str, float], labels: dict[str, str], *, scale: float = 1.0) -> Figure:
    """Horizontal bars on a 0–1 axis, one per named value, each labelled with its display text.

    ``labels`` gives the text shown at each bar's end (formatted by the page,
    so the chart says what the metric cards say). A value that does not exist
    (nan) gets no bar.
    """
    if set(values) != set(labels):
        raise ValueError("need exactly one label per value")
    names = list(values)
    data = pd.DataFrame({"name": names, "value": [0.0 if v != v else v for v in values.values()],
                         "label": [labels[n] for n in names]})
    y = alt.Y("name:N", sort=names, title=None)
    x = alt.X("value:Q", scale=alt.Scale(domain=[0, 1]), title=None, axis=alt.Axis(tickCount=5))
    bars = alt.Chart(data).mark_bar(color=ACCENT, height={"band": 0.7}).encode(x=x, y=y)
    text = alt.Chart(data).mark_text(align="left", dx=6, fontWeight="bold").encode(x=x, y=y, text="label:N")
    chart = (bars + text).properties(height=round(44 * len(names) * scale), width="container")
    return Figure(styled(chart, scale), "; ".join(f"{n}: {labels[n]}" for n in names) + ".")
