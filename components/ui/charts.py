"""Altair chart builders: data in, chart and its text alternative out.

Every builder takes ``scale`` (1.0 normally, larger in projector mode): Vega
sizes fonts in pixels and does not follow the page's root font size, so the
builders scale axis, label and title fonts themselves. Every builder returns a
:class:`Figure`, the chart together with a short text alternative that says
what the chart shows in words (for screen readers and for anyone who cannot
read the colours).

Speed: building and validating an Altair chart costs tens of milliseconds, a
drag's whole budget. So each builder splits its chart in two: the *template*,
an Altair chart over named datasets (``alt.NamedData``) that depends only on
what shapes the chart (series names, axis ranges, scale), converted once to a
Vega-Lite dict and kept (``functools.lru_cache``, shared read-only by every
session); and the *rows*, computed on every call. :meth:`Figure.spec` puts
the rows into a copy of the template. A drag changes the rows only, and the page sends the rows it changes
beside the spec (:meth:`Figure.sent`), so the drawn chart takes them in place.
"""
from __future__ import annotations

import copy
import functools
import re
from dataclasses import dataclass
from typing import Mapping, Sequence

import altair as alt
import numpy as np

from components.course import prose
from components.engine.formatting import fmt, signed
from components.serving.settings import LIMITS

TEXT = "charts"  # lessons/text/charts.md: axis titles, legend names, text alternatives
BASE_FONT = 13  # px at scale 1.0
ACCENT = "#1f6feb"
MUTED = "#8b949e"
_template_cache = functools.lru_cache(maxsize=LIMITS.chart_cache_entries)


@dataclass(frozen=True)
class Sample:
    """A chart that draws some of its queries: ``shown`` of ``total``, evenly spaced along the sorted list."""

    shown: int
    total: int


@dataclass(frozen=True)
class Figure:
    """A chart: its Vega-Lite template (shared: never change it), its rows per named dataset, its text alternative,
    and, when it draws only some of its queries, which (``sample``; None when it draws them all).

    A chart drawn beside a ranking editor keeps what Streamlit compares from one run to the next the same when a
    drop changes only its values, so that the drawn chart takes the new values in place instead of being drawn
    anew (Streamlit 1.67 draws a chart anew whenever its prepared spec, which holds the alt text, changes):

    - ``main`` names the dataset a learner's move changes (None: the first of ``rows``). The page sends it beside
      the spec, not in it (:meth:`sent`);
    - ``label``, when given, is the chart's alt text: what the chart is, in words that do not change with its
      values. The values in words, ``alt_text``, are then under the chart (None: ``alt_text`` is the alt text).
    """

    template: Mapping
    rows: Mapping[str, list[dict]]
    alt_text: str
    sample: Sample | None = None
    main: str | None = None
    label: str | None = None

    def spec(self, *, apart: str | None = None) -> dict:
        """The chart's Vega-Lite spec: a copy of the template with each layer's named dataset given inline, but for
        ``apart``, whose layers take their rows from the chart's top-level data instead (given beside the spec).

        Examples
        --------
        >>> figure = share_bars({"recall": 0.5}, {"recall": "0.500"})
        >>> [layer["data"]["values"] for layer in figure.spec()["layer"]][0]
        [{'name': 'recall', 'value': 0.5, 'label': '0.500'}]
        >>> [layer.get("data") for layer in figure.spec(apart="bars")["layer"]]
        [None, None]
        >>> figure.template["layer"][0]["data"]
        {'name': 'bars'}
        """
        spec = copy.deepcopy(dict(self.template))
        for view in [spec, *spec.get("layer", [])]:  # Altair puts data shared by every layer at the top
            name = view.get("data", {}).get("name")
            if name is None:
                continue
            if name == apart:
                del view["data"]
            else:
                view["data"] = {"values": self.rows[name]}
        return spec

    def sent(self) -> tuple[list[dict], dict, str]:
        """What a page sends: the main dataset's rows, the spec with every other dataset inline, and the alt text."""
        main = self.main if self.main is not None else next(iter(self.rows))
        return self.rows[main], self.spec(apart=main), self.label if self.label is not None else self.alt_text


def styled(chart: alt.TopLevelMixin, scale: float = 1.0) -> alt.TopLevelMixin:
    """Apply the app's fonts, scaled by ``scale``, to a finished chart."""
    if scale <= 0:
        raise ValueError(f"scale must be positive, got {scale}")
    size = round(BASE_FONT * scale)
    labels = {"labelFontSize": size, "titleFontSize": size + 1}
    return chart.configure(axis=labels, legend=labels, title={"fontSize": size + 3}, text={"fontSize": size},
                           view={"strokeWidth": 0})  # one call: each configure_* copies the whole chart


def template(chart: alt.TopLevelMixin, scale: float) -> dict:
    """A styled chart as a validated Vega-Lite dict, without Altair's default view size (the chart sets its own)."""
    spec = styled(chart, scale).to_dict()
    for size in ("continuousWidth", "continuousHeight"):
        spec["config"]["view"].pop(size, None)
    return spec


def named(name: str) -> alt.Chart:
    """A chart over the dataset ``name``, whose rows each call of a builder supplies."""
    return alt.Chart(alt.NamedData(name=name))


def metric_by_k(ks: Sequence[int], series: dict[str, Sequence[float]], *, metric: str, current_k: int,
                scale: float = 1.0, step: bool = True, axis: str | None = None) -> Figure:
    """One or more metric curves against the cutoff k, with the current k marked by a dashed rule.

    ``series`` maps a name (a system, "current order") to one value per k.
    ``step`` draws step curves (Recall@k changes only at a hit); otherwise
    points joined by lines. Series differ by dash and point shape as well as
    colour. ``axis`` names a k that is not the cutoff (rrf's constant): the x axis's title and the text's
    "at the current" sentence use it.
    """
    ks = list(ks)
    if not ks or any(len(v) != len(ks) for v in series.values()) or not series:
        raise ValueError("need at least one k, and one value per k in every series")
    rows = [{"k": k, "value": float(v), "series": name, "label": fmt(v)}
            for name, values in series.items() for k, v in zip(ks, values)]
    x_title = axis or prose.text(TEXT, "cutoff k")
    chart = _metric_by_k_template(tuple(series), metric, min(ks), max(ks), step, scale, x_title)
    at_k = "; ".join(f"{name}: {fmt(values[ks.index(current_k)])}" for name, values in series.items()
                     if current_k in ks)
    curves = " ".join(prose.text(TEXT, "by k curve", name=name, steps=describe_steps(ks, values))
                      for name, values in series.items())
    text = prose.text(TEXT, "by k alt", metric=metric, lo=min(ks), hi=max(ks), curves=curves)
    if at_k:
        text += " " + (prose.text(TEXT, "by k at current", k=current_k, values=at_k) if axis is None
                       else prose.text(TEXT, "by k at current named", axis=axis, k=current_k, values=at_k))
    label = prose.text(TEXT, "by k label", metric=metric, axis=x_title, lo=min(ks), hi=max(ks), names=", ".join(series))
    return Figure(chart, {"points": rows, "cutoff": [{"k": current_k}]}, text, label=label)


@_template_cache
def _metric_by_k_template(names: tuple[str, ...], metric: str, lo: int, hi: int, step: bool, scale: float,
                          axis: str) -> dict:
    x = alt.X("k:Q", title=axis, scale=alt.Scale(domain=[lo, hi]), axis=alt.Axis(tickMinStep=1))
    y = alt.Y("value:Q", title=metric, scale=alt.Scale(domain=[0, 1]))
    legend = alt.Legend(title=None, orient="bottom") if len(names) > 1 else None
    color = alt.Color("series:N", sort=list(names), legend=legend,
                      scale=alt.Scale(range=[ACCENT, "#bf8700", "#8250df"]))
    dash = alt.StrokeDash("series:N", sort=list(names), legend=None)
    shape = alt.Shape("series:N", sort=list(names), legend=legend)
    line = named("points").mark_line(interpolate="step-after" if step else "linear",
                                      strokeWidth=2 * scale).encode(x=x, y=y, color=color, strokeDash=dash)
    points = named("points").mark_point(filled=True, size=40 * scale).encode(
        x=x, y=y, color=color, shape=shape,
        tooltip=[alt.Tooltip("series:N", title=" "), alt.Tooltip("k:Q"), alt.Tooltip("label:N", title=metric)])
    rule = named("cutoff").mark_rule(strokeDash=[6, 4], color=MUTED, strokeWidth=2 * scale).encode(x="k:Q")
    return template((line + points + rule).properties(height=round(230 * scale), width="container"), scale)


def describe_steps(ks: Sequence[int], values: Sequence[float]) -> str:
    """A curve in words, naming only the k where it changes.

    Examples
    --------
    >>> describe_steps([1, 2, 3, 4], [0.1, 0.1, 0.3, 0.3])
    '0.100 at k=1, 0.300 from k=3, and 0.300 at k=4'
    >>> describe_steps([1, 2], [0.5, 0.5])
    '0.500 at every k'
    """
    if all(fmt(v) == fmt(values[0]) for v in values):
        return prose.text(TEXT, "steps flat", value=fmt(values[0]))
    parts = [prose.text(TEXT, "steps first", value=fmt(values[0]), k=ks[0])]
    parts += [prose.text(TEXT, "steps change", value=fmt(v), k=k)
              for k, v, before in zip(ks[1:], values[1:], values) if fmt(v) != fmt(before)]
    return ", ".join(parts) + prose.text(TEXT, "steps last", value=fmt(values[-1]), k=ks[-1])


def share_bars(values: dict[str, float], labels: dict[str, str], *, scale: float = 1.0) -> Figure:
    """Horizontal bars on a 0–1 axis, one per named value, each labelled with its display text.

    ``labels`` gives the text shown at each bar's end (formatted by the page,
    so the chart says what the metric cards say). A value that does not exist
    (nan) gets no bar.
    """
    if set(values) != set(labels):
        raise ValueError("need exactly one label per value")
    names = tuple(values)
    rows = [{"name": n, "value": 0.0 if values[n] != values[n] else float(values[n]), "label": labels[n]}
            for n in names]
    return Figure(_share_bars_template(names, scale), {"bars": rows},
                  "; ".join(f"{n}: {labels[n]}" for n in names) + ".")


@_template_cache
def _share_bars_template(names: tuple[str, ...], scale: float) -> dict:
    y = alt.Y("name:N", sort=list(names), title=None)
    x = alt.X("value:Q", scale=alt.Scale(domain=[0, 1]), title=None, axis=alt.Axis(tickCount=5))
    bars = named("bars").mark_bar(color=ACCENT, height={"band": 0.7}).encode(x=x, y=y)
    text = named("bars").mark_text(align="left", dx=6, fontWeight="bold").encode(x=x, y=y, text="label:N")
    return template((bars + text).properties(height=round(44 * len(names) * scale), width="container"), scale)


def reciprocal_rank_curve(max_rank: int, hits: dict[str, int | None], *, scale: float = 1.0) -> Figure:
    """The 1/rank discount for ranks 1..max_rank, with each query's current hit marked and labelled.

    ``hits`` maps a query name to the rank of its first relevant result
    (None when it has none: listed in the text, not drawn).
    """
    curve = [{"rank": r, "rr": 1 / r} for r in range(1, max_rank + 1)]
    drawn = {name: r for name, r in hits.items() if r is not None and r <= max_rank}
    at_rank: dict[int, list[str]] = {}
    for name, r in drawn.items():
        at_rank.setdefault(r, []).append(name)
    # Queries whose first hit shares a position share one label (the first of them carries it): two would overlap.
    marks = [{"rank": r, "rr": 1 / r, "query": name, "tip": f"{name}: {fmt(1 / r)}",
              "label": f"{', '.join(at_rank[r])}: {fmt(1 / r)}" if at_rank[r][0] == name else ""}
             for name, r in drawn.items()]
    chart = _reciprocal_rank_template(max_rank, tuple(m["query"] for m in marks), scale)
    described = "; ".join(prose.text(TEXT, "rr hit", name=name, rank=r, rr=fmt(1 / r)) if r is not None
                          else prose.text(TEXT, "rr none", name=name) for name, r in hits.items())
    text = prose.text(TEXT, "rr alt", last=fmt(1 / max_rank), max_rank=max_rank, described=described)
    return Figure(chart, {"curve": curve, "marks": marks}, text, main="marks",
                  label=prose.text(TEXT, "rr label", max_rank=max_rank))


@_template_cache
def _reciprocal_rank_template(max_rank: int, marked: tuple[str, ...], scale: float) -> dict:
    x = alt.X("rank:Q", title=prose.text(TEXT, "rr axis x"), scale=alt.Scale(domain=[1, max_rank]),
              axis=alt.Axis(tickMinStep=1))
    y = alt.Y("rr:Q", title=prose.text(TEXT, "rr axis y"), scale=alt.Scale(domain=[0, 1.05]))
    layers = [named("curve").mark_line(color=MUTED, strokeWidth=2 * scale, point=True).encode(x=x, y=y)]
    if marked:
        shape = alt.Shape("query:N", sort=list(marked), legend=None)
        layers += [named("marks").mark_point(filled=True, size=160 * scale, color=ACCENT).encode(
                       x=x, y=y, shape=shape, tooltip=["tip:N"]),
                   named("marks").mark_text(align="left", dx=10, dy=-10, fontWeight="bold").encode(
                       x=x, y=y, text="label:N")]
    return template(alt.layer(*layers).properties(height=round(240 * scale), width="container"), scale)


def discounted_gain_by_position(current: Sequence[float], ideal: Sequence[float], *, scale: float = 1.0) -> Figure:
    """Discounted gain at each position: the current order as bars, the ideal as a dashed line with points.

    The two differ by mark (bar against line) as well as colour.
    """
    names = prose.text(TEXT, "current order"), prose.text(TEXT, "ideal order")
    rows = {ordering: [{"position": i, "value": float(v), "ordering": ordering, "label": fmt(v)}
                       for i, v in enumerate(values, 1)]
            for ordering, values in zip(names, (current, ideal))}
    positions = "; ".join(prose.text(TEXT, "gain position", i=i, current=fmt(c), ideal=fmt(d))
                          for i, (c, d) in enumerate(zip(current, ideal), 1))
    return Figure(_discounted_gain_template(names, scale), rows, prose.text(TEXT, "gain alt", positions=positions),
                  label=prose.text(TEXT, "gain label"))


@_template_cache
def _discounted_gain_template(names: tuple[str, str], scale: float) -> dict:
    gain = prose.text(TEXT, "discounted gain")
    x = alt.X("position:O", title=prose.text(TEXT, "position"), axis=alt.Axis(labelAngle=0))
    y = alt.Y("value:Q", title=gain)
    tooltip = ["ordering:N", "position:O", alt.Tooltip("label:N", title=gain)]
    bars = named(names[0]).mark_bar(color=ACCENT, width={"band": 0.6}).encode(x=x, y=y, tooltip=tooltip)
    line = named(names[1]).mark_line(
        color="#bf8700", strokeDash=[6, 3], strokeWidth=2 * scale,
        point=alt.OverlayMarkDef(filled=False, size=70 * scale, color="#bf8700")).encode(x=x, y=y, tooltip=tooltip)
    return template((bars + line).properties(height=round(220 * scale), width="container"), scale)


# --- your data: per-query values of an uploaded run ---------------------------------------

def _edge(x: float) -> str:
    """A bin edge for a label: at most 2 decimals, no trailing zeros (0.1, 0.25, 1)."""
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return text if text != "-0" else "0"


def per_query_distribution(values: Sequence[float], *, metric: str, bins: int = 10,
                           scale: float = 1.0) -> Figure:
    """How the per-query values of one measure spread: a histogram, the queries at exactly 0 apart.

    The bins are (0, w], (w, 2w], ... up to 1 (or up to the largest value,
    for DCG), w = top / bins; queries scoring exactly 0 (no hit, or no
    relevant judged document) get their own bar left of 0, in another
    colour and named in the legend. A dashed rule marks the mean. The rows
    are the bins (bins + 1 of them), however many queries; the counting is
    vectorised.

    Examples
    --------
    >>> figure = per_query_distribution([0.0, 0.0, 0.5, 1.0], metric="RR", bins=4)
    >>> figure.alt_text
    'Per-query RR over 4 queries: 2 scores exactly 0; 1 between 0.25 and 0.5; 1 between 0.75 and 1. Mean 0.375, median 0.250.'
    """
    scores = np.asarray(values, dtype=np.float64).ravel()
    if not scores.size or bins < 1:
        raise ValueError("need at least one value and at least one bin")
    if np.isnan(scores).any() or (scores < 0).any():
        raise ValueError("per-query scores must be numbers >= 0")
    top = max(1.0, float(scores.max()))
    width = top / bins
    above = scores[scores != 0]
    where = np.clip(np.ceil(np.round(above / width, 9)) - 1, 0, bins - 1).astype(np.intp)  # bin (a, b]
    counts = np.bincount(where, minlength=bins).tolist()
    n = scores.size
    zeros = n - above.size
    exactly_0, above_0 = prose.text(TEXT, "exactly 0"), prose.text(TEXT, "above 0")
    rows = [{"start": -width, "end": 0.0, "count": zeros, "label": exactly_0, "kind": exactly_0,
             "share": fmt(zeros / n, "percent")}]
    rows += [{"start": i * width, "end": (i + 1) * width, "count": c, "kind": above_0,
              "label": prose.text(TEXT, "bin label", lo=_edge(i * width), hi=_edge((i + 1) * width)),
              "share": fmt(c / n, "percent")}
             for i, c in enumerate(counts)]
    mean = float(scores.mean())
    middle = np.partition(scores, [(n - 1) // 2, n // 2])
    median = (float(middle[(n - 1) // 2]) + float(middle[n // 2])) / 2
    chart = _distribution_template(metric, width, top, max(zeros, *counts) * 1.3 + 0.5, scale)
    data = {"bins": rows, "counted": [row for row in rows if row["count"] > 0],
            "mean": [{"x": mean, "text": prose.text(TEXT, "mean label", mean=fmt(mean))}]}
    parts = [prose.text(TEXT, "zeros", n=zeros)]
    parts += [prose.text(TEXT, "bin count", count=c, lo=_edge(i * width), hi=_edge((i + 1) * width))
              for i, c in enumerate(counts) if c]
    text = prose.text(TEXT, "distribution alt", metric=metric, queries=_queries(n), parts="; ".join(parts),
                      mean=fmt(mean), median=fmt(median))
    return Figure(chart, data, text)


def _queries(n: int) -> str:
    """ "1 query", "2,345 queries"."""
    return prose.text(TEXT, "query count", n=f"{n:,}")


@_template_cache
def _distribution_template(metric: str, width: float, top: float, y_top: float, scale: float) -> dict:
    x = alt.X("start:Q", title=prose.text(TEXT, "distribution axis x", metric=metric), scale=alt.Scale(domain=[-width, top], nice=False),
              axis=alt.Axis(values=[round(i * top / 5, 6) for i in range(6)]))
    queries = prose.text(TEXT, "queries")
    y = alt.Y("count:Q", title=queries, axis=alt.Axis(tickMinStep=1), scale=alt.Scale(domain=[0, y_top], nice=False))
    kinds = [prose.text(TEXT, "exactly 0"), prose.text(TEXT, "above 0")]
    colour = alt.Color("kind:N", scale=alt.Scale(domain=kinds, range=["#cf222e", ACCENT]),
                       legend=alt.Legend(title=None, orient="top"))
    tooltip = [alt.Tooltip("label:N", title=metric), alt.Tooltip("count:Q", title=queries),
               alt.Tooltip("share:N", title=prose.text(TEXT, "share"))]
    bars = named("bins").mark_bar(stroke="white", strokeWidth=1).encode(x=x, x2="end:Q", y=y, y2=alt.datum(0),
                                                                         color=colour, tooltip=tooltip)
    labels = named("counted").transform_calculate(middle="(datum.start + datum.end) / 2").mark_text(
        dy=-7 * scale, fontWeight="bold").encode(x="middle:Q", y=y, text="count:Q")
    rule = named("mean").mark_rule(strokeDash=[6, 4], color="#57606a", strokeWidth=2 * scale).encode(x="x:Q")
    rule_label = named("mean").mark_text(align="left", dx=5, baseline="top", color="#57606a",
                                         fontWeight="bold").encode(x="x:Q", y=alt.value(2), text="text:N")
    return template((bars + labels + rule + rule_label).properties(height=round(230 * scale), width="container"),
                    scale)


# --- your data: two runs compared, query by query ---------------------------------------

WIN = "#0072B2"  # Okabe-Ito blue: B better
LOSS = "#D55E00"  # Okabe-Ito vermillion: B worse (blue against vermillion holds for every common colour blindness)
_TIE = "#8b949e"
WIN_SHAPE, TIE_SHAPE, LOSS_SHAPE = "triangle-up", "circle", "triangle-down"  # the marks, so shape says it too
_MAX_LABELLED_QUERIES = 40  # more queries than this: no query ids under the bars (the tooltip still names them)
MAX_BARS = 2_000  # more queries than this: the win/loss chart draws at most this many places of the sorted list


def _named_query(qid: str, where: str) -> str:
    """A query id for a sentence shown as Markdown: the id when it is plain (letters, digits, ``_.:-``,
    at most 40 characters), else where its bar is, so no text from an uploaded file is rendered as Markdown."""
    return prose.text(TEXT, "named query", qid=qid) if re.fullmatch(r"[\w.:-]{1,40}", qid) else where


def win_loss_bars(qids: Sequence[str], differences: Sequence[float], *, metric: str, run_a: str = "A",
                  run_b: str = "B", scale: float = 1.0) -> Figure:
    """Per-query differences B − A (``run_b`` − ``run_a``: the runs' letters) as bars sorted from the largest win
    to the largest loss.

    Wins (B better) rise above a zero rule in blue, each bar tipped with an
    upward triangle; losses (B worse) fall below it in vermillion, tipped with
    a downward triangle; ties are grey dots on the rule. So position and
    shape say what the colour says (the legend shows the shapes too), and the
    two colours stay apart for colour-blind readers. The text alternative
    gives the counts, the largest win and loss with their queries (an id that
    is not plain, which Markdown could read as formatting, is replaced by "the
    leftmost bar" / "the rightmost bar"), and the mean difference, always over
    every query. Query ids appear on the axis (up to 40 queries) and in the
    tooltips.

    More than :data:`MAX_BARS` queries: the chart draws the sorted list at
    :data:`MAX_BARS` places at most (:func:`sample_places`: evenly spaced,
    plus the first and last query of the wins, the ties and the losses, so
    the largest win and loss are drawn and no run vanishes), each bar the
    query at that place, and the text alternative and the figure's
    ``sample`` say so.

    Examples
    --------
    >>> figure = win_loss_bars(["q1", "q2", "q3", "q4"], [0.5, -0.25, 0.0, 0.125], metric="RR")
    >>> figure.alt_text
    'Per-query difference in RR, run B minus run A, over 4 queries, sorted from largest win to largest loss: B better on 2, worse on 1, tied on 1. Largest win: query q1, +0.500. Largest loss: query q2, −0.250. Mean difference +0.094.'
    """
    values = np.asarray(differences, dtype=np.float64)
    if values.ndim != 1 or not values.size or values.size != len(qids):
        raise ValueError("need one difference per query, and at least one query")
    if not np.isfinite(values).all():
        raise ValueError("differences must be finite numbers")
    n = values.size
    order = np.argsort(-values, kind="stable")  # largest win first; equal differences in the given order
    wins, losses = int((values > 0).sum()), int((values < 0).sum())
    places = sample_places(n, (wins, n - wins - losses, losses), MAX_BARS)
    better, worse, tied = _outcomes(run_b)
    rows = []
    for place in places.tolist():
        i = int(order[place])
        v = float(values[i])
        rows.append({"query": str(qids[i]), "place": place, "diff": v,
                     "outcome": better if v > 0 else worse if v < 0 else tied, "label": signed(v)})
    sample = Sample(len(rows), n) if len(rows) < n else None
    chart = _win_loss_template(n <= _MAX_LABELLED_QUERIES, sample is not None, metric,
                               float(np.abs(values).max()) or 1.0, run_a, run_b, scale)
    data = {"bars": [row for row in rows if row["outcome"] != tied],
            "ties": [row for row in rows if row["outcome"] == tied], "zero": [{"y": 0.0}]}
    best, worst = int(order[0]), int(order[-1])
    showing = (prose.text(TEXT, "showing", shown=f"{sample.shown:,}", n=f"{n:,}", how=prose.text(TEXT, "sampled"))
               if sample else "")
    parts = [prose.text(TEXT, "wins alt", metric=metric, queries=_queries(n), showing=showing, wins=f"{wins:,}",
                        losses=f"{losses:,}", ties=f"{n - wins - losses:,}", run_a=run_a, run_b=run_b)]
    if wins:
        where = prose.text(TEXT, "leftmost bar")
        parts.append(prose.text(TEXT, "largest win", query=_named_query(str(qids[best]), where),
                                value=signed(values[best])))
    if losses:
        where = prose.text(TEXT, "rightmost bar")
        parts.append(prose.text(TEXT, "largest loss", query=_named_query(str(qids[worst]), where),
                                value=signed(values[worst])))
    parts.append(prose.text(TEXT, "mean difference", value=signed(float(values.mean()))))
    return Figure(chart, data, " ".join(parts), sample)


def sample_places(n: int, runs: Sequence[int], limit: int) -> np.ndarray:
    """The places (0 to n − 1) of a sorted list to draw: all of them, or at most ``limit`` when n is larger.

    ``runs`` are the lengths of the list's consecutive runs (wins, ties,
    losses: they add up to n). Past ``limit``: the first and last place of
    every run, and the rest evenly spaced, the j-th of m at
    round(j (n − 1) / (m − 1)), so each run keeps about its share of the
    places and every run boundary is drawn.

    Examples
    --------
    >>> sample_places(4, (2, 1, 1), 10).tolist()
    [0, 1, 2, 3]
    >>> sample_places(101, (50, 1, 50), 7).tolist()  # runs 0-49, 50, 51-100: their ends, and 33, 67
    [0, 33, 49, 50, 51, 67, 100]
    >>> sample_places(1000, (1000,), 6).tolist()
    [0, 200, 400, 599, 799, 999]
    """
    if n <= limit:
        return np.arange(n)
    starts = np.cumsum((0, *runs))[:-1]
    ends = np.array([(s, s + r - 1) for s, r in zip(starts, runs) if r], dtype=np.intp).ravel()
    ends = np.unique(ends)
    if limit < ends.size:
        raise ValueError(f"need a limit of at least {ends.size} places, the ends of the runs; got {limit}")
    spaced = np.round(np.linspace(0, n - 1, limit - ends.size + 2)).astype(np.intp)  # 0 and n − 1 are ends too
    return np.union1d(ends, spaced)


def _outcomes(run: str) -> tuple[str, str, str]:
    """The legend's names: "B better", "B worse", "tied"."""
    return prose.text(TEXT, "better", run=run), prose.text(TEXT, "worse", run=run), prose.text(TEXT, "tied")


@_template_cache
def _win_loss_template(labelled: bool, sampled: bool, metric: str, top: float, run_a: str, run_b: str,
                       scale: float) -> dict:
    # the queries are ordered by their "place" field (0 = largest win), not by a list in the template, so one
    # template serves every comparison; "min" lets the bars' and the ties' domains be unioned in that order
    order = alt.EncodingSortField(field="place", op="min")
    how = " " + prose.text(TEXT, "wins axis sampled", how=prose.text(TEXT, "sampled")) if sampled else ""
    x = alt.X("query:N", sort=order, title=prose.text(TEXT, "wins axis x", sampled=how),
              axis=alt.Axis(labels=labelled, ticks=labelled, labelAngle=-45 if labelled else 0))
    difference = prose.text(TEXT, "wins axis y", metric=metric, run_a=run_a, run_b=run_b)
    y = alt.Y("diff:Q", title=difference, scale=alt.Scale(domain=[-top * 1.1, top * 1.1], nice=True))
    better, worse, tied = _outcomes(run_b)
    outcomes = [better, tied, worse]
    legend = alt.Legend(title=None, orient="top")  # one legend: colour and shape share the field and its names
    colour = alt.Color("outcome:N", scale=alt.Scale(domain=outcomes, range=[WIN, _TIE, LOSS]), legend=legend)
    shape = alt.Shape("outcome:N", scale=alt.Scale(domain=outcomes, range=[WIN_SHAPE, TIE_SHAPE, LOSS_SHAPE]),
                      legend=legend)
    tooltip = [alt.Tooltip("query:N"), alt.Tooltip("label:N", title=difference),
               alt.Tooltip("outcome:N", title=" ")]
    bars = named("bars").mark_bar().encode(x=x, y=y, y2=alt.datum(0), color=colour, tooltip=tooltip)
    ties = named("ties").mark_point(filled=True, opacity=1, size=30 * scale).encode(x=x, y=y, color=colour,
                                                                                   shape=shape, tooltip=tooltip)
    side = (12 if labelled else 6) * scale  # the tip's width in pixels: narrower where the bars are thin
    lift = round(side * 3 ** 0.5 / 4, 2)  # half a Vega triangle's height: its base sits on the bar's end
    tips = named("bars").mark_point(filled=True, opacity=1, size=side * side,
                                    yOffset={"expr": f"datum.diff > 0 ? {-lift} : {lift}"}).encode(
        x=x, y=y, color=colour, shape=shape, tooltip=tooltip)
    zero = named("zero").mark_rule(color="#24292f", strokeWidth=1.5 * scale).encode(y="y:Q")
    return template((bars + ties + tips + zero).properties(height=round(260 * scale), width="container"), scale)


# --- a live class's answers --------------------------------------------------------------

GUESS_BIN = 0.01  # a class's guesses are counted to the nearest hundredth
GUESS_SLOTS = 22  # at most this many bars across the axis at scale 1 (22 / scale projected), so that no bar and no
#                   count runs into the next: in a lesson's numbers column (about 330 px of plot on a laptop, 300 px
#                   projected in 1.5× type) a slot is 15 px, wider than a bar (12 px) and its count (two digits)
RIGHT = "#0072B2"  # Okabe-Ito blue: the value (and the right option)
SLIP = "#D55E00"  # Okabe-Ito vermillion: a known slip
GUESS_HEIGHT, GUESS_AXIS, GUESS_ROW = 200, 45, 18  # px at scale 1: the chart with no slip, its x axis (labels and
#                                                    title, under the plot), a row of labels (a slip's name)
HALO = "#ffffff"  # the page's background, drawn under a chart's words where they cross a rule or a bar


def guess_bin(hundredths: Sequence[float] | np.ndarray, top: float, scale: float = 1.0) -> float:
    """The width the bars of :func:`class_guesses` count guesses in: a hundredth while every two guessed
    hundredths are at least a slot (``top · scale / GUESS_SLOTS``) apart, else the smallest of 1, 2, 2.5 or 5
    times a power of ten that is at least a slot.

    Examples
    --------
    >>> guess_bin([0.4, 0.8, 1.0], top=1.0), guess_bin([0.39, 0.4, 0.41], top=1.0)
    (0.01, 0.05)
    >>> guess_bin([0.39, 0.4], top=1.0, scale=1.5), guess_bin([0.5, 0.53, 6.39], top=6.39)
    (0.1, 0.5)
    """
    slot = top * scale / GUESS_SLOTS
    xs = np.sort(np.asarray(hundredths, dtype=np.float64))
    if len(xs) < 2 or np.diff(xs).min() >= slot - 1e-9:
        return GUESS_BIN
    power = 10.0 ** np.floor(np.log10(slot))
    return next(round(float(m * power), 10) for m in (1, 2, 2.5, 5, 10) if m * power >= slot - 1e-9)


def class_guesses(values: Sequence[float], *, label: str, value: float, slips: Sequence[tuple[str, float]],
                  scale: float = 1.0) -> Figure:
    """A class's guesses of one value: how many guessed each hundredth, a solid rule at the engine's value
    (marked "✓ value") and a dashed rule at each known slip (named), so the words say what the colours do; each
    label on the side of its rule that has room. A guess that is not a finite number (or too large to count in
    hundredths) is a ``ValueError``: the class takes only guesses in the measure's range.

    Where guesses crowd (two guessed hundredths closer than a bar's slot, :func:`guess_bin`), the bars count
    them in wider bins, one centred on the value, so that no bar or count overlaps another; the text alternative
    still counts each hundredth. Every word on the chart (a count, a rule's label) has a halo of the page's
    background, so a rule that crosses it does not strike it through.

    Examples
    --------
    >>> figure = class_guesses([0.4, 0.4, 0.8], label="Recall@5", value=0.4, slips=[("P@5", 0.8)])
    >>> [(row["x"], row["count"]) for row in figure.rows["bars"]]
    [(0.4, 2), (0.8, 1)]
    >>> figure.alt_text
    '3 guesses of Recall@5, whose value is 0.400: 2 at 0.40; 1 at 0.80. Marked: P@5 at 0.800.'
    >>> crowded = class_guesses([0.39, 0.4, 0.4, 0.41, 0.8], label="Recall@5", value=0.4, slips=[])
    >>> [(row["x"], row["count"], row["text"]) for row in crowded.rows["bars"]]
    [(0.4, 4, '0.38–0.42'), (0.8, 1, '0.78–0.82')]
    """
    with np.errstate(over="ignore", invalid="ignore"):
        bins = np.round(np.asarray(values, dtype=np.float64) / GUESS_BIN)
    if not np.isfinite(bins).all():  # inf, nan, or too large to count in hundredths (1e308)
        bad = [float(v) for v, ok in zip(values, np.isfinite(bins)) if not ok]
        raise ValueError(f"class_guesses takes finite guesses only, got {bad}")
    rounded = bins * GUESS_BIN
    xs, counts = np.unique(np.round(rounded, 6), return_counts=True)
    low, top = 0.0, max([1.0, value, *(v for _, v in slips), *(float(x) for x in xs)])
    width = GUESS_BIN
    bars: list[dict] = [{"x": float(x), "count": int(n), "text": f"{x:.2f}"} for x, n in zip(xs, counts)]
    while guess_bin(xs, top - low, scale) > width:  # wider bins, one centred on the value: the right guesses stand
        width = guess_bin(xs, top - low, scale)     # on its rule; the axis then holds every bin, and a wider axis
        bars, low, top = _binned(xs, counts, value, width, low, top)  # may want wider bins still

    def side(x: float) -> str:  # a label sits on the side of its rule that has room
        return "left" if x <= (low + top) / 2 else "right"

    marks = [{"x": value, "text": prose.text(TEXT, "guesses value", value=fmt(value)), "side": side(value), "offset": 2},
             *({"x": v, "text": name, "side": side(v), "offset": round((4 + GUESS_ROW * (i + 1)) * scale)}  # a row each
               for i, (name, v) in enumerate(slips))]
    tallest = max([1, *(int(row["count"]) for row in bars)])
    height = GUESS_HEIGHT + GUESS_ROW * len(slips)  # unscaled px: a row of labels more for each slip
    plot = height - GUESS_AXIS  # the plot's height, under Streamlit's fit; the labels' rows and a count above the
    labels = GUESS_ROW * (len(slips) + 2) + 4  # tallest bar take its top: the bars stand below them
    chart = _guesses_template(low, top, tallest * plot / (plot - labels), round(height * scale), scale)
    parts = "; ".join(prose.text(TEXT, "guesses at", count=int(n), x=f"{x:.2f}") for x, n in zip(xs, counts))
    marked = ", ".join(prose.text(TEXT, "guesses slip", name=name, x=fmt(v)) for name, v in slips)
    alt_text = prose.text(TEXT, "guesses alt", n=len(values), label=label, value=fmt(value),
                          parts=parts or "–", marked=marked or "–")
    return Figure(chart, {"bars": bars, "value": marks[:1], "slips": marks[1:]}, alt_text)


def _binned(xs: np.ndarray, counts: np.ndarray, value: float, width: float, low: float,
            top: float) -> tuple[list[dict], float, float]:
    """The bars of :func:`class_guesses` in bins ``width`` wide, one centred on ``value`` (each holds
    [centre − width/2, centre + width/2)), named by the first and last hundredth they hold; and the axis's ends,
    widened to hold every bin."""
    centres = np.round(value + width * np.floor((xs - value) / width + 0.5 + 1e-9), 6)
    places, at = np.unique(centres, return_inverse=True)
    binned = np.bincount(at, weights=counts).astype(int)
    first = np.ceil((places - width / 2) / GUESS_BIN - 1e-6) * GUESS_BIN
    last = np.ceil((places + width / 2) / GUESS_BIN - 1e-6) * GUESS_BIN - GUESS_BIN
    bars = [{"x": float(c), "count": int(n), "text": f"{lo:.2f}–{hi:.2f}"}
            for c, n, lo, hi in zip(places, binned, first, last)]
    return bars, min(low, float(places[0]) - width / 2), max(top, float(places[-1]) + width / 2)


def _haloed(chart: alt.Chart, scale: float, **mark) -> list[alt.Chart]:
    """A text layer twice: first in the page's background with a wide outline (the halo), then itself on top."""
    return [chart.mark_text(**{**mark, "color": HALO}, stroke=HALO, strokeWidth=round(4 * scale, 1),
                            strokeJoin="round"),
            chart.mark_text(**mark)]


@_template_cache
def _guesses_template(low: float, top: float, y_top: float, height: int, scale: float) -> dict:
    x = alt.X("x:Q", title=prose.text(TEXT, "guesses axis x"), scale=alt.Scale(domain=[low, top], nice=False))
    y = alt.Y("count:Q", title=prose.text(TEXT, "guesses axis y"), axis=alt.Axis(tickMinStep=1),
              scale=alt.Scale(domain=[0, y_top], nice=False))
    bars = named("bars").mark_bar(color=ACCENT, size=round(12 * scale)).encode(x=x, y=y,
                                                        tooltip=[alt.Tooltip("text:N"), alt.Tooltip("count:Q")])
    counts = _haloed(named("bars").encode(x="x:Q", y=y, text="count:Q"), scale, dy=-7 * scale, fontWeight="bold")
    value = named("value").mark_rule(color=RIGHT, strokeWidth=3 * scale).encode(x="x:Q")
    slips = named("slips").mark_rule(color=SLIP, strokeDash=[6, 4], strokeWidth=2 * scale).encode(x="x:Q")
    labels = [layer for data, colour in (("value", RIGHT), ("slips", SLIP)) for side in ("left", "right")
              for layer in _haloed(named(data).transform_filter(alt.datum.side == side).encode(
                  x="x:Q", y=alt.Y("offset:Q", scale=None, axis=None), text="text:N"), scale,
                  align=side, dx=5 if side == "left" else -5, baseline="top", color=colour,
                  fontWeight="bold" if data == "value" else "normal")]
    return template(alt.layer(bars, value, slips, *counts, *labels).properties(height=height, width="container"),
                    scale)


def class_choices(counts: Sequence[tuple[str, int]], *, correct: frozenset[str] | None,
                  scale: float = 1.0) -> Figure:
    """How many chose each option (a bar per option, its count on it); once revealed (``correct`` given) the
    right options are named "✓" and coloured, the others not.

    Examples
    --------
    >>> class_choices([("a", 3), ("b", 1)], correct=frozenset({"b"})).alt_text
    'Answers by option: (a) 3; (b) ✓ 1.'
    """
    right = prose.text(TEXT, "choices right")
    rows = [{"option": f"({o})", "count": n, "mark": right if correct and o in correct else ""} for o, n in counts]
    top = max([1, *(n for _, n in counts)]) * 1.3 + 0.5
    parts = "; ".join(" ".join(str(part) for part in (row["option"], row["mark"], row["count"]) if part != "")
                      for row in rows)
    return Figure(_choices_template(tuple(row["option"] for row in rows), top, scale), {"bars": rows},
                  prose.text(TEXT, "choices alt", parts=parts))


@_template_cache
def _choices_template(options: tuple[str, ...], y_top: float, scale: float) -> dict:
    x = alt.X("option:N", title=None, sort=list(options), axis=alt.Axis(labelAngle=0))
    y = alt.Y("count:Q", title=prose.text(TEXT, "guesses axis y"), axis=alt.Axis(tickMinStep=1),
              scale=alt.Scale(domain=[0, y_top], nice=False))
    colour = alt.condition(alt.datum.mark != "", alt.value(RIGHT), alt.value(MUTED))
    bars = named("bars").mark_bar().encode(x=x, y=y, color=colour)
    labels = named("bars").transform_calculate(shown="datum.mark + ' ' + datum.count").mark_text(
        dy=-8 * scale, fontWeight="bold").encode(x=x, y=y, text="shown:N")
    return template((bars + labels).properties(height=round(180 * scale), width="container"), scale)
