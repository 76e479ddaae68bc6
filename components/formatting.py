"""The one number-formatting helper for display (machine output is never rounded).

Metric and DCG values: 3 decimals (0.400, 6.393). Percentages, where a lesson
speaks in percentages: up to one decimal, without a trailing ".0" (50%,
99.5%, 0.5%). A value that does not exist (nan, e.g. precision of an empty
set) shows as "undefined".
"""
from __future__ import annotations

import math
from typing import Literal

Style = Literal["metric", "percent", "approx"]


def fmt(value: float, style: Style = "metric") -> str:
    """Format a number for display.

    ``metric``: 3 decimals; ``percent``: the value × 100 with up to one
    decimal and a % sign; ``approx``: "≈" and 2 decimals, for prose that quotes
    the rounded figure.

    Examples
    --------
    >>> fmt(0.4), fmt(6.3927), fmt(1.7 / 3)
    ('0.400', '6.393', '0.567')
    >>> fmt(0.5, "percent"), fmt(0.995, "percent"), fmt(0.005, "percent")
    ('50%', '99.5%', '0.5%')
    >>> fmt(0.5308, "approx"), fmt(float("nan"))
    ('≈ 0.53', 'undefined')
    """
    if value is None or math.isnan(value):
        return "undefined"
    if style == "metric":
        return f"{value:.3f}"
    if style == "percent":
        text = f"{value * 100:.1f}"
        return (text[:-2] if text.endswith(".0") else text) + "%"
    if style == "approx":
        return f"≈ {value:.2f}"
    raise ValueError(f"style must be 'metric', 'percent' or 'approx', got {style!r}")
