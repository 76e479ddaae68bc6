"""The "Compare runs" page's charts: each difference with its two intervals, one query's two rankings side by
side, and the smallest detectable difference against the number of queries.

Built as :mod:`components.ui.charts` builds its charts (a cached template over named datasets, the rows per
call, a text alternative with every figure); the words are in lessons/text/charts.md.
"""
from __future__ import annotations

from typing import Mapping, Sequence

import altair as alt
import numpy as np

from components.course import prose
from components.engine.formatting import fmt, signed
from components.ui.charts import ACCENT, LOSS, MUTED, WIN, Figure, _template_cache, named, template

TEXT = "charts"
RANKS_SHOWN = 10  # the rankings chart shows each run's top 10
GRADE_COLOURS = {"unjudged": MUTED, "0": "#57606a", "1": ACCENT, "2": "#8250df", "3+": "#bf3989"}


ROW_STEP = 34  # px per run and measure in the chart of differences: a label, its bars and a gap


def difference_intervals(rows: Sequence[Mapping], *, baseline: str, scale: float = 1.0) -> Figure:
    """Each run's mean difference from the baseline on each measure, with its 95% t-interval (a thick bar) and its
    bootstrap interval (a thin bar beside it), around a zero rule.

    ``rows``: one per run and measure, with "run", "measure", "diff", "t_low", "t_high", "boot_low", "boot_high"
    and "significant" (after the correction). A significant difference is a filled diamond labelled "✓", any
    other a hollow circle: the shape says what the colour says. The text alternative names each difference,
    its intervals and whether it is significant.

    >>> figure = difference_intervals([{"run": "B", "measure": "RR", "diff": 0.2, "t_low": 0.05, "t_high": 0.35,
    ...                                 "boot_low": 0.07, "boot_high": 0.33, "significant": True}], baseline="A")
    >>> figure.alt_text
    'Mean difference from run A, with the 95% t-interval and the bootstrap interval: B on RR +0.200 (t +0.050 to +0.350, bootstrap +0.070 to +0.330), significant after the correction.'
    """
    data = []
    for row in rows:
        label = f"{row['run']} · {row['measure']}"
        mark = prose.text(TEXT, "difference significant legend" if row["significant"] else "difference not significant")
        verdict = prose.text(TEXT, "difference significant" if row["significant"] else "difference not significant")
        data.append({**row, "label": label, "mark": mark, "verdict": verdict, "shown": signed(row["diff"])})
    finite = [v for r in rows for v in (r["t_low"], r["t_high"], r["boot_low"], r["boot_high"], r["diff"])
              if np.isfinite(v)]
    top = max((abs(v) for v in finite), default=1.0) or 1.0
    chart = _intervals_template(tuple(r["label"] for r in data), baseline, top, scale)
    parts = [prose.text(TEXT, "differences alt", baseline=baseline)]
    parts += [prose.text(TEXT, "difference alt", run=r["run"], measure=r["measure"], diff=signed(r["diff"]),
                         t=_between(r["t_low"], r["t_high"]), boot=_between(r["boot_low"], r["boot_high"]),
                         verdict=r["verdict"]) for r in data]
    return Figure(chart, {"rows": [{k: (v if not isinstance(v, float) or np.isfinite(v) else None)
                                    for k, v in r.items()} for r in data], "zero": [{"x": 0.0}]},
                  " ".join(parts).replace(" .", "."))


def _between(low: float, high: float) -> str:
    return prose.text(TEXT, "interval", low=signed(low), high=signed(high)) if np.isfinite(low) else prose.text(
        TEXT, "no interval")


@_template_cache
def _intervals_template(labels: tuple[str, ...], baseline: str, top: float, scale: float) -> dict:
    y = alt.Y("label:N", sort=list(labels), title=None, axis=alt.Axis(labelOverlap=False, labelLimit=0))
    x = alt.X("diff:Q", title=[prose.text(TEXT, "differences axis", baseline=baseline),  # short lines: they fit
                               prose.text(TEXT, "differences axis t"), prose.text(TEXT, "differences axis boot")],
              scale=alt.Scale(domain=[-top * 1.1, top * 1.1], nice=True))
    significant, other = prose.text(TEXT, "difference significant legend"), prose.text(TEXT, "difference not significant")
    legend = alt.Legend(title=None, orient="top", direction="vertical", labelLimit=0)  # one entry a line: narrow columns
    shape = alt.Shape("mark:N", scale=alt.Scale(domain=[significant, other], range=["diamond", "circle"]),
                      legend=legend)
    colour = alt.Color("mark:N", scale=alt.Scale(domain=[significant, other], range=[WIN, "#57606a"]), legend=legend)
    tooltip = [alt.Tooltip("label:N", title=" "), alt.Tooltip("shown:N", title=prose.text(TEXT, "differences tip"))]
    t_bars = named("rows").mark_rule(strokeWidth=5 * scale, opacity=0.55).encode(
        y=y, x="t_low:Q", x2="t_high:Q", color=colour, tooltip=tooltip)
    boot = named("rows").mark_rule(strokeWidth=1.5 * scale, yOffset=7 * scale).encode(
        y=y, x="boot_low:Q", x2="boot_high:Q", color=colour, tooltip=tooltip)
    points = named("rows").mark_point(filled=True, size=110 * scale, opacity=1).encode(
        y=y, x=x, shape=shape, color=colour, tooltip=tooltip)
    zero = named("zero").mark_rule(color="#24292f", strokeWidth=1.2 * scale).encode(x="x:Q")
    row = {"step": round(ROW_STEP * scale)}  # a band per row, however many: the height follows the rows
    return template((t_bars + boot + points + zero).properties(height=row, width="container"), scale)


def two_rankings(ranking_a: Sequence[tuple[str, int | None]], ranking_b: Sequence[tuple[str, int | None]], *,
                 run_a: str, run_b: str, qid: str, scale: float = 1.0) -> Figure:
    """One query's top :data:`RANKS_SHOWN` in two runs side by side, a line joining each document's two places.

    ``ranking_a`` / ``ranking_b``: (docid, grade or None for unjudged), top first. A document in one top list
    only is drawn on that side, its line running to the bottom edge ("below 10" or "not returned"). Each point
    is labelled with its rank, id and grade (so the colour, which also follows the grade, is never the only
    cue); a
    line is solid for a document in both top lists, dashed and faint for one in only one.

    >>> figure = two_rankings([("x", 0), ("r", 1)], [("r", 1), ("y", None)], run_a="A", run_b="B", qid="q1")
    >>> figure.alt_text
    'Query q1, the top 10 of run A (left) and run B (right), a line joining each document: 1 moved up, 0 moved down, 0 stayed, 1 entered the top 10, 1 left it.'
    """
    place_a = {doc: i for i, (doc, _) in enumerate(ranking_a[:RANKS_SHOWN], 1)}
    place_b = {doc: i for i, (doc, _) in enumerate(ranking_b[:RANKS_SHOWN], 1)}
    grades = {doc: grade for doc, grade in (*ranking_b[:RANKS_SHOWN], *ranking_a[:RANKS_SHOWN])}
    below = RANKS_SHOWN + 1.5
    points, lines = [], []
    for doc, grade in grades.items():
        group = _grade_group(grade)
        for side, places in ((run_a, place_a), (run_b, place_b)):
            rank = places.get(doc)
            if rank is not None:
                label = prose.text(TEXT, "ranking label left" if side == run_a else "ranking label right",
                                   doc=_short(doc), grade=_grade_mark(grade), rank=rank)
                points.append({"run": side, "rank": rank, "label": label, "grade": group, "doc": doc})
            lines.append({"run": side, "rank": below if rank is None else rank, "doc": doc, "grade": group,
                          "both": doc in place_a and doc in place_b})
    counts = _moves(place_a, place_b)
    chart = _rankings_template(run_a, run_b, scale)
    alt_text = prose.text(TEXT, "rankings alt", qid=qid, k=RANKS_SHOWN, run_a=run_a, run_b=run_b, **counts)
    beyond = [{"run": side, "rank": below, "label": prose.text(TEXT, "ranking beyond", k=RANKS_SHOWN)}
              for side in (run_a, run_b)]
    return Figure(chart, {"points": points, "lines": lines, "beyond": beyond}, alt_text)


def _moves(place_a: dict[str, int], place_b: dict[str, int]) -> dict[str, int]:
    both = place_a.keys() & place_b.keys()
    return {"up": sum(place_b[d] < place_a[d] for d in both), "down": sum(place_b[d] > place_a[d] for d in both),
            "stayed": sum(place_b[d] == place_a[d] for d in both), "entered": len(place_b.keys() - place_a.keys()),
            "left": len(place_a.keys() - place_b.keys())}


def _grade_group(grade: int | None) -> str:
    return "unjudged" if grade is None else str(grade) if grade < 3 else "3+"


def _grade_mark(grade: int | None) -> str:
    return prose.text(TEXT, "ranking unjudged") if grade is None else prose.text(TEXT, "ranking grade", grade=grade)


def _short(doc: str, limit: int = 18) -> str:
    return doc if len(doc) <= limit else doc[:limit - 1] + "…"


@_template_cache
def _rankings_template(run_a: str, run_b: str, scale: float) -> dict:
    x = alt.X("run:N", sort=[run_a, run_b], title=None, axis=alt.Axis(labelAngle=0, orient="top", domain=False,
                                                                          ticks=False),
              scale=alt.Scale(paddingOuter=1))
    y = alt.Y("rank:Q", scale=alt.Scale(domain=[RANKS_SHOWN + 1.6, 0.5], nice=False), axis=None)  # ranks: in labels
    domain = list(GRADE_COLOURS)
    colour = alt.Color("grade:N", scale=alt.Scale(domain=domain, range=list(GRADE_COLOURS.values())),
                       legend=alt.Legend(title=prose.text(TEXT, "ranking legend"), orient="bottom", titleLimit=0))
    lines = named("lines").mark_line(strokeWidth=2 * scale, opacity=0.75).encode(
        x=x, y=y, detail="doc:N", color=colour,
        strokeDash=alt.condition(alt.datum.both, alt.value([1, 0]), alt.value([3, 3])),
        opacity=alt.condition(alt.datum.both, alt.value(0.85), alt.value(0.35)))
    points = named("points").mark_circle(size=90 * scale, opacity=1).encode(x=x, y=y, color=colour,
                                                                           tooltip=["doc:N", "grade:N"])
    left = named("points").transform_filter(alt.datum.run == run_a).mark_text(
        align="right", dx=-9 * scale).encode(x=x, y=y, text="label:N")
    right = named("points").transform_filter(alt.datum.run == run_b).mark_text(
        align="left", dx=9 * scale).encode(x=x, y=y, text="label:N")
    beyond = named("beyond").mark_text(color="#57606a", fontStyle="italic", dy=10 * scale).encode(
        x=x, y=y, text="label:N")
    return template((lines + points + left + right + beyond).properties(height=round(380 * scale),
                                                                        width="container"), scale)


def detectable_curve(ns: Sequence[int], detectable: Sequence[float], *, n_have: int, delta: float,
                     needed: int | None, measure: str, scale: float = 1.0) -> Figure:
    """The smallest difference a paired t-test detects (at the plan's power) against the number of queries, on a
    logarithmic axis; a dashed rule at the difference to detect, a point where the queries you have stand and a
    diamond at the queries needed.

    >>> figure = detectable_curve([10, 100, 1000], [0.3, 0.09, 0.03], n_have=50, delta=0.05, needed=330,
    ...                           measure="nDCG@10")
    >>> figure.alt_text
    'Smallest detectable difference in nDCG@10 against the number of queries: 0.300 with 10 queries, 0.030 with 1,000. You have 50 queries; detecting 0.050 takes 330.'
    """
    curve = [{"n": int(n), "detectable": float(d)} for n, d in zip(ns, detectable)]
    marks = [{"n": n_have, "detectable": float(np.interp(np.log(n_have), np.log(ns), detectable)),
              "what": prose.text(TEXT, "power have")}]
    if needed is not None:
        marks.append({"n": needed, "detectable": delta, "what": prose.text(TEXT, "power needed")})
    chart = _curve_template(measure, scale)
    needed_text = prose.text(TEXT, "power alt needed", delta=fmt(delta), needed=f"{needed:,}") if needed else \
        prose.text(TEXT, "power alt unreachable", delta=fmt(delta))
    alt_text = prose.text(TEXT, "power alt", measure=measure, first=fmt(curve[0]["detectable"]),
                          n_first=f"{curve[0]['n']:,}", last=fmt(curve[-1]["detectable"]),
                          n_last=f"{curve[-1]['n']:,}", n_have=f"{n_have:,}", needed=needed_text)
    return Figure(chart, {"curve": curve, "marks": marks, "delta": [{"y": delta}]}, alt_text)


@_template_cache
def _curve_template(measure: str, scale: float) -> dict:
    x = alt.X("n:Q", scale=alt.Scale(type="log"), title=prose.text(TEXT, "power axis x"))
    y = alt.Y("detectable:Q", title=prose.text(TEXT, "power axis y", measure=measure))
    line = named("curve").mark_line(color=ACCENT, strokeWidth=2.5 * scale).encode(
        x=x, y=y, tooltip=[alt.Tooltip("n:Q", title=prose.text(TEXT, "power axis x")),
                           alt.Tooltip("detectable:Q", format=".3f")])
    what = alt.Legend(title=None, orient="top", direction="vertical", labelLimit=0)  # one a line: fits a narrow column
    names = [prose.text(TEXT, "power have"), prose.text(TEXT, "power needed")]
    marks = named("marks").mark_point(filled=True, size=140 * scale, opacity=1).encode(
        x=x, y=y, shape=alt.Shape("what:N", scale=alt.Scale(domain=names, range=["circle", "diamond"]), legend=what),
        color=alt.Color("what:N", scale=alt.Scale(domain=names, range=[LOSS, WIN]), legend=what),
        tooltip=["what:N", alt.Tooltip("n:Q"), alt.Tooltip("detectable:Q", format=".3f")])
    rule = named("delta").mark_rule(strokeDash=[6, 4], color="#24292f").encode(y="y:Q")
    return template((line + rule + marks).properties(height=round(260 * scale), width="container"), scale)


def fusion_sweep(ks: Sequence[int], values: Sequence[float], *, metric: str, current_k: int,
                 runs: Mapping[str, float] | None = None, scale: float = 1.0) -> Figure:
    """The fused run's value of ``metric`` for each rrf constant k (a point at each k computed), the chosen k marked
    by a dashed rule, and each fused run's own value (``runs``: name -> value) as a dotted level, labelled.

    The text alternative gives the lowest and highest value and where each is, each run's own value, and the value
    at the chosen k.

    >>> figure = fusion_sweep([1, 2, 3], [0.5, 0.75, 0.75], metric="RR", current_k=2, runs={"A": 0.6})
    >>> figure.alt_text
    'RR of the fused run for rrf k = 1 to 3: lowest 0.500 at k = 1, highest 0.750 at k = 2. Each run alone: A 0.600. At k = 2: 0.750.'
    """
    rows = [{"k": k, "value": float(v), "label": fmt(v)} for k, v in zip(ks, values)]
    labels = [f"{name} {fmt(v)}" for name, v in (runs or {}).items()]
    levels = [{"run": name, "value": float(v), "label": label, "k": max(ks)}
              for (name, v), label in zip((runs or {}).items(), labels)]
    low, high = int(np.argmin(values)), int(np.argmax(values))
    at = dict(zip(ks, values)).get(current_k)
    text = prose.text(TEXT, "fusion sweep alt", metric=metric, lo=min(ks), hi=max(ks), low=fmt(values[low]),
                      low_k=ks[low], high=fmt(values[high]), high_k=ks[high])
    if labels:
        text += " " + prose.text(TEXT, "fusion sweep runs", runs=", ".join(labels))
    if at is not None:
        text += " " + prose.text(TEXT, "fusion sweep at", k=current_k, value=fmt(at))
    return Figure(_sweep_template(metric, min(ks), max(ks), scale),
                  {"rows": rows, "current": [{"k": current_k}], "levels": levels}, text)


@_template_cache
def _sweep_template(metric: str, lo: int, hi: int, scale: float) -> dict:
    x = alt.X("k:Q", title=prose.text(TEXT, "fusion sweep axis"), scale=alt.Scale(domain=[lo, hi]))
    y = alt.Y("value:Q", title=metric, scale=alt.Scale(zero=True, nice=True))
    line = named("rows").mark_line(color=ACCENT, strokeWidth=2 * scale, point=alt.OverlayMarkDef(
        size=40 * scale, color=ACCENT)).encode(x=x, y=y, tooltip=[alt.Tooltip("k:Q"), alt.Tooltip("label:N",
                                                                                                      title=metric)])
    current = named("current").mark_rule(strokeDash=[6, 4], color="#24292f", strokeWidth=1.2 * scale).encode(x="k:Q")
    level = named("levels").mark_rule(strokeDash=[2, 3], color=MUTED, strokeWidth=1.5 * scale).encode(y="value:Q")
    label = named("levels").mark_text(align="right", dy=-7 * scale, dx=-4 * scale, color="#57606a",
                                      fontSize=12 * scale).encode(x="k:Q", y="value:Q", text="label:N")
    return template((line + current + level + label).properties(height=round(200 * scale), width="container"),
                    scale)
