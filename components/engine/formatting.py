"""The display helpers: numbers (:func:`fmt`) and untrusted text inside Markdown (:func:`literal`).

Machine output is never rounded.

Metric and DCG values: 3 decimals (0.400, 6.393), a tie rounded away from
zero as a person would by hand (1/16 = 0.0625 shows as 0.063, not 0.062). Percentages, where a lesson
speaks in percentages: up to one decimal, without a trailing ".0" (50%,
99.5%, 0.5%). A value that does not exist (nan, e.g. precision of an empty
set) shows as "undefined".

Counts: a word that goes with a count agrees with it through
:func:`plural` (the prose templates write ``{n} {n:query|queries}``), never
by a hand-made ``if n == 1``.

Text that comes from outside (a URL value, a file name, an id or a line of
an uploaded file) is shown in Markdown only through :func:`literal`, so no
link, image, emphasis, HTML or KaTeX it holds is ever rendered.
"""
from __future__ import annotations

import math
import re
from decimal import ROUND_HALF_UP, Decimal
from typing import Literal

Style = Literal["metric", "percent", "approx", "score"]


def fmt(value: float, style: Style = "metric") -> str:
    """Format a number for display.

    ``metric``: 3 decimals; ``percent``: the value × 100 with up to one
    decimal and a % sign; ``approx``: "≈" and 2 decimals, for prose that quotes
    the rounded figure; ``score``: 4 decimals, for a fused rrf score (1/61 + 1/70 and 2/65 differ in the 4th).

    Examples
    --------
    >>> fmt(0.4), fmt(6.3927), fmt(1.7 / 3)
    ('0.400', '6.393', '0.567')
    >>> fmt(0.5, "percent"), fmt(0.995, "percent"), fmt(0.005, "percent")
    ('50%', '99.5%', '0.5%')
    >>> fmt(0.5308, "approx"), fmt(float("nan"))
    ('≈ 0.53', 'undefined')
    >>> fmt(1 / 16), fmt(-1 / 16), fmt(0.0125, "percent"), fmt(0.125, "approx")
    ('0.063', '-0.063', '1.3%', '≈ 0.13')
    >>> fmt(1 / 61 + 1 / 70, "score"), fmt(2 / 65, "score")
    ('0.0307', '0.0308')
    """
    if value is None or math.isnan(value):
        return "undefined"
    if style == "metric":
        return _rounded(value, 3)
    if style == "percent":
        text = _rounded(value * 100, 1)
        return (text[:-2] if text.endswith(".0") else text) + "%"
    if style == "approx":
        return f"≈ {_rounded(value, 2)}"
    if style == "score":
        return _rounded(value, 4)
    raise ValueError(f"style must be 'metric', 'percent', 'approx' or 'score', got {style!r}")


def _rounded(value: float, places: int) -> str:
    """``value`` with ``places`` decimals, an exact tie away from zero (the float's exact binary value decides)."""
    if math.isinf(value):
        return f"{value:.{places}f}"
    text = str(Decimal(value).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))
    return "0." + "0" * places if text.lstrip("-") == "0." + "0" * places else text


def signed(value: float, minus: str = "−") -> str:
    """A difference with its sign, 3 decimals: "+0.250", "−0.125" (a real minus sign), "0.000", "undefined".

    A value that shows as 0.000 has no sign. ``minus="-"`` gives an ASCII
    minus, for ``st.metric``'s delta, which reads it as a fall.

    Examples
    --------
    >>> signed(0.25), signed(-0.125), signed(-0.0001), signed(float("nan")), signed(-0.5, minus="-")
    ('+0.250', '−0.125', '0.000', 'undefined', '-0.500')
    """
    text = fmt(abs(value)) if value is not None else fmt(value)
    if text in ("undefined", fmt(0.0)):
        return text
    return ("+" if value > 0 else minus) + text


def change(value: float, before: float) -> str:
    """``value − before`` as the app writes a change (:func:`signed`), "" when the two display the same.

    Examples
    --------
    >>> change(0.75, 0.5), change(0.5001, 0.5)
    ('+0.250', '')
    """
    return "" if fmt(value) == fmt(before) else signed(value - before)


PLURAL_MARK = "|"  # between a word's singular and plural form: "query|queries"


def plural(count: object, forms: str) -> str:
    """The form of a word (or a few words) that agrees with ``count``: ``forms`` is "singular|plural".

    The count is a number or the text that shows it ("1,204", "−1"): the form
    follows the count as written, so exactly one (1 or −1) takes the
    singular and every other count the plural (0 queries, 1.5 points, 1.0
    points, 2 queries). The one helper for plurals: the prose templates reach
    it as ``{n:query|queries}`` (:func:`components.course.prose.fill`).

    Examples
    --------
    >>> plural(1, "query|queries"), plural(3, "query|queries"), plural(0, "query|queries")
    ('query', 'queries', 'queries')
    >>> plural("1,001", "run|runs"), plural(" 1 ", "loses its|lose their"), plural("−1", "point|points")
    ('runs', 'loses its', 'point')
    >>> plural(1.5, "point|points"), plural("1.0", "point|points")
    ('points', 'points')
    """
    one, sep, many = forms.partition(PLURAL_MARK)
    if not sep or PLURAL_MARK in many:
        raise ValueError(f"forms must be 'singular{PLURAL_MARK}plural', got {forms!r}")
    written = str(count).strip().lstrip("+-−")
    return one if written == "1" else many


def literal(text: object, limit: int | None = None) -> str:
    """Markdown that shows ``text`` exactly as written: an inline code span (no Markdown, HTML or math inside).

    The fence is one backtick longer than the longest run of backticks in
    the text, and padded with a space each side (CommonMark strips exactly
    one). Line breaks become spaces (a code span is one line). With
    ``limit``, text longer than ``limit`` characters is cut there and ends
    with "…".

    Examples
    --------
    >>> literal("![i](http://127.0.0.9/p.png)")
    '` ![i](http://127.0.0.9/p.png) `'
    >>> literal("a``b`")
    '``` a``b` ```'
    >>> literal("x" * 50, limit=5)
    '` xxxxx… `'
    """
    text = " ".join(str(text).splitlines())
    if limit is not None and len(text) > limit:
        text = text[:limit] + "…"
    longest = max((len(run) for run in re.findall("`+", text)), default=0)
    fence = "`" * (longest + 1)
    return f"{fence} {text or ' '} {fence}"
