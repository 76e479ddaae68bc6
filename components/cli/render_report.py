"""One run's means as a Markdown or LaTeX table (``--format markdown|latex``), drawn by
:mod:`components.formats.report_tables`; several runs' is :func:`components.course.run_comparison.report_many`."""
from __future__ import annotations

from components.cli.output import text as _text
from components.cli.report import Report
from components.engine.formatting import fmt
from components.engine.metrics import GAIN_FORMULAS
from components.formats import report_tables

REPORT_TABLES = {"markdown": report_tables.markdown, "latex": report_tables.latex}  # --format: to paste in a paper


def report_one(report: Report, layout: str, run: str) -> str:
    """One run's means as a Markdown or LaTeX table (``--format markdown|latex``): a row, a column per measure.

    >>> from components.cli.evaluate import run_evaluation
    >>> report = run_evaluation("1 0 a 1\\n2 0 b 1\\n", "1 Q0 a 1 1 r\\n2 Q0 x 1 1 r\\n", ["RR", "P@1"])
    >>> print(report_one(report, "markdown", "bm25.txt"))
    | run | RR | P@1 |
    |:---|---:|---:|
    | bm25.txt | 0.500 | 0.500 |
    <BLANKLINE>
    Means over 2 queries; linear gain (rel).
    """
    cells = [(fmt(report.mean[m]), False) for m in report.mean]
    note = _text("Report note", queries=f"{report.judged.queries.n_queries:,}", gain=report.gain,
                 formula=GAIN_FORMULAS[report.gain])
    return REPORT_TABLES[layout](["run", *report.mean], [(run, cells)], [note])
