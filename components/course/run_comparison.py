"""A comparison of several runs with a baseline in words (lessons/text/cli.md), for the command line and the
"Compare runs" page: the runs' letters, intervals as text, and the plain readings of what survives the correction.

The numbers are :mod:`components.engine.many_runs`'; this module only fills the sentences. No Streamlit import
here.
"""
from __future__ import annotations

import string
from typing import Callable, Literal

import numpy as np
import pandas as pd

from components.course import prose
from components.course.measure_choices import shown_name
from components.engine import attribution, bootstrap, compare, corrections
from components.engine.attribution import Attribution, DocumentChange
from components.engine.compare import format_p
from components.engine.formatting import fmt, signed
from components.engine.many_runs import ManyRuns
from components.engine.metrics import GAIN_FORMULAS
from components.engine.power import Plan
from components.formats import report_tables

PAGE = "compare_runs"  # the page whose words its tables are
RUN_LABELS = string.ascii_uppercase  # the runs' letters in a comparison, in the order given
NO_VALUE = "–"  # a table cell or card with no value (a flagged run's corrected p)
SHOWN_DOCUMENTS = 8  # the documents named for one measure's change; the others are summed


def _text(section: str, **values) -> str:
    return prose.text(prose.CLI, section, **values)


def run_labels(result: ManyRuns) -> dict[str, str]:
    """Each run's letter, in the order given (A, B, C, ...): the tables' short names."""
    return {name: RUN_LABELS[i] for i, name in enumerate(result.names)}


def span(interval: tuple[float, float], between: str = "–") -> str:
    """An interval for a table: "low–high" (means) or "low to high" with signs (differences); "undefined" for
    one query."""
    low, high = interval
    if not (np.isfinite(low) and np.isfinite(high)):
        return "undefined"
    return f"{fmt(low)}–{fmt(high)}" if between == "–" else f"{signed(low)}{between}{signed(high)}"


def many_readings(result: ManyRuns, labels: dict[str, str]) -> list[str]:
    """The plain readings of a comparison of several runs: what survives the correction, what does not, the
    flagged runs, and where the two intervals disagree (sections of ``lessons/text/cli.md``)."""
    method = corrections.NAMES[result.correction]

    def named(v) -> str:
        return _text("Reading pair", run=labels[v.run], measure=v.measure, diff=signed(v.comparison.mean_diff),
                     p=compare.format_p(v.comparison.randomisation_p), corrected=compare.format_p(v.p_rand))

    family = [v for v in result.versus.values() if v.run not in result.flagged]
    won = [named(v) for v in family if v.significant]
    lost = [named(v) for v in family if v.comparison.randomisation_p < result.alpha and not v.significant]
    found = {"pairs": "; ".join(won)} if won else {}
    lines = [_text("Reading survived" if won else "Reading none survived", method=method, family=result.family,
                   alpha=f"{result.alpha:g}", **found)]
    if lost:
        lines.append(_text("Reading lost", pairs="; ".join(lost), family=result.family, alpha=f"{result.alpha:g}",
                           luck=f"{result.family * result.alpha:.2g}"))
    lines += [_text("Reading flagged", run=labels[name]) for name in result.flagged]
    lines += [_text("Reading intervals disagree", run=labels[v.run], measure=v.measure,
                    t=span(v.comparison.ci95, " to "), boot=span((v.boot.low, v.boot.high), " to "),
                    skew=fmt(bootstrap.skewness(v.comparison.tested)))
              for v in family if v.intervals_disagree]
    return lines


def change_lines(explained: Attribution | None, measure: str, shown: int = SHOWN_DOCUMENTS,
                 show_id: Callable[[str], str] = str) -> list[str]:
    """One measure's change on one query in words: a heading line, then one line per document (the ``shown``
    largest shares; the rest summed), each group, and the unjudged documents' part when there is one.
    ``show_id`` writes a document id (a page passes one that keeps it from being read as Markdown)."""
    if explained is None:
        return [_text("Explain unsupported", measure=measure)]
    if not explained.documents and not explained.groups:
        return [_text("Explain same", measure=measure, value=fmt(explained.value_a))]
    lines = [_text("Explain measure", measure=measure, value_a=fmt(explained.value_a), value_b=fmt(explained.value_b),
                   change=signed(explained.change), how=_text(f"Explain method {explained.method}"))]
    lines += [document_line(d, show_id) for d in explained.documents[:shown]]
    rest = explained.documents[shown:]
    if rest:
        lines.append(_text("Explain more", n=len(rest), share=signed(sum(d.contribution for d in rest))))
    lines += [_text(f"Explain group {'unjudged' if g.unjudged else 'judged'}", n=len(g.docids),
                    share=signed(g.contribution)) for g in explained.groups]
    if abs(explained.unjudged) > attribution.ZERO:
        lines.append(_text("Explain unjudged", share=signed(explained.unjudged)))
    return lines


def document_line(d: DocumentChange, show_id: Callable[[str], str] = str) -> str:
    """One document's move and share: "D12 (grade 2) fell from 2 to 14: −0.210"."""
    grade = _text("Explain unjudged grade") if d.grade is None else _text("Explain grade", grade=d.grade)
    values = {"doc": show_id(d.docid), "grade": grade, "share": signed(d.contribution)}
    kind = d.kind
    if kind == "entered":
        return (_text("Explain entered", b=d.rank_b, **values) if d.rank_a is None else
                _text("Explain came in", k=d.depth, a=d.rank_a, b=d.rank_b, **values))
    if kind == "left":
        return (_text("Explain left", a=d.rank_a, **values) if d.rank_b is None else
                _text("Explain fell out", k=d.depth, a=d.rank_a, b=d.rank_b, **values))
    return _text("Explain rose" if kind == "moved up" else "Explain fell", a=d.rank_a, b=d.rank_b, **values)


def power_formula(plan: Plan) -> str:
    """The normal approximation of the queries needed, in LaTeX on two lines (narrow screens), with the plan's
    numbers filled in: :math:`n \\approx ((z_{1-\\alpha/2} + z_{power})\\, s / \\delta)^2`.

    >>> from components.engine.power import plan
    >>> print(power_formula(plan([0.1, -0.1, 0.2, 0.0, -0.2], 0.1)))
    \\begin{aligned} n &\\approx \\left(\\frac{(z_{1-\\alpha/2} + z_{\\mathrm{power}})\\,s}{\\delta}\\right)^2 \\\\ &= \\left(\\frac{(1.96 + 0.84) \\times 0.158}{0.1}\\right)^2 = 19.6 \\end{aligned}
    """
    symbolic = r"\left(\frac{(z_{1-\alpha/2} + z_{\mathrm{power}})\,s}{\delta}\right)^2"
    numbers = rf"\left(\frac{{({plan.z_alpha:.2f} + {plan.z_power:.2f}) \times {fmt(plan.sd)}}}{{{plan.delta:g}}}\right)^2"
    return rf"\begin{{aligned}} n &\approx {symbolic} \\ &= {numbers} = {plan.normal_queries:,.1f} \end{{aligned}}"


def report_many(result: ManyRuns, layout: Literal["markdown", "latex"], gain: str) -> str:
    """Several runs' means as a Markdown or LaTeX table, a row each (the baseline first), with the dagger on a mean
    whose difference from the baseline's is significant after the correction, and notes saying how that is decided.

    >>> from components.engine.many_runs import compare_many
    >>> from components.formats.readers import read
    >>> from components.engine.model import judge
    >>> qrels = read("1 0 a 1\\n2 0 a 1\\n", "qrels").parsed
    >>> runs = [judge(qrels, read(r, "run").parsed) for r in ("1 Q0 a 1 1 r\\n2 Q0 x 1 1 r\\n",
    ...                                                   "1 Q0 a 1 1 r\\n2 Q0 a 1 1 r\\n")]
    >>> print(report_many(compare_many(runs, ["a.run", "b_2.run"], ["RR"]), "latex", "linear"))  # doctest: +ELLIPSIS
    \\begin{tabular}{lr}
    \\toprule
    run & RR \\\\
    \\midrule
    a.run (baseline) & 0.500 \\\\
    b\\_2.run & 1.000 \\\\
    \\bottomrule
    \\multicolumn{2}{l}{\\footnotesize $^{\\dagger}$ the difference from a.run is significant: ...} \\\\
    \\multicolumn{2}{l}{\\footnotesize Means over each run's own queries; linear gain (rel).} \\\\
    \\end{tabular}
    """
    base = result.names[result.baseline]
    order = [base, *result.others]
    means = {r.name: r.mean for r in result.runs}
    rows = [(_text("Report baseline", run=run) if run == base else run,
             [(fmt(means[run][m]), run != base and result.versus[run, m].significant) for m in result.measures])
            for run in order]
    mark = _text("Report mark", baseline=base, alpha=f"{result.alpha:g}", family=result.family,
                 method=corrections.NAMES[result.correction])
    note = _text("Report many note", gain=gain, formula=GAIN_FORMULAS[gain])
    table = report_tables.markdown if layout == "markdown" else report_tables.latex
    return table(["run", *result.measures], rows, [note], mark_note=mark)


def comparison_table(result: ManyRuns, gain: str) -> pd.DataFrame:
    """The "Compare runs" page's table: one row per run and measure against the baseline."""
    base = result.names[result.baseline]
    column = {name: prose.text(PAGE, f"Column {name}") for name in
              ("run", "measure", "paired", "mean", "t interval", "bootstrap", "counts", "p", "corrected", "significant")}
    difference = prose.text(PAGE, "Column difference", baseline=base)
    base_mean = prose.text(PAGE, "Column baseline mean", baseline=base)
    yes, no = prose.text(PAGE, "Significant yes"), prose.text(PAGE, "Significant no")
    # The two means over the paired queries, then their difference (the row adds up), then what decides: in view
    # without scrolling sideways at 1024 px with the sidebar open; the raw p and the intervals after.
    return pd.DataFrame([{
        column["run"]: v.run, column["measure"]: shown_name(v.measure, gain), column["paired"]: v.comparison.n,
        base_mean: fmt(v.comparison.mean_a), column["mean"]: fmt(v.comparison.mean_b),
        difference: signed(v.comparison.mean_diff), column["corrected"]: format_p(v.p_rand, NO_VALUE),
        column["significant"]: yes if v.significant else no,
        column["p"]: format_p(v.comparison.randomisation_p, NO_VALUE),
        column["t interval"]: span(v.comparison.ci95, " to "), column["bootstrap"]: span((v.boot.low, v.boot.high), " to "),
        column["counts"]: f"{v.comparison.improved} / {v.comparison.tied} / {v.comparison.hurt}",
    } for v in result.versus.values()])


def means_table(result: ManyRuns, gain: str) -> pd.DataFrame:
    """The "Compare runs" page's table of means: one row per run, each measure's mean and its interval."""
    return pd.DataFrame([{prose.text(PAGE, "Column run"): r.name,
                          **{shown_name(m, gain): f"{fmt(r.mean[m])} ({span(r.ci95[m])})" for m in result.measures}}
                         for r in result.runs])
