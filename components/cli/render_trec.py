"""trec_eval's layout: one line per value, ``name<TAB>query<TAB>value``, with trec_eval's measure names padded to
22 characters, ``all`` for the query set, values with 4 decimals and the counts as whole numbers; with ``-q`` every
query's lines first, queries in byte order of their ids (trec_eval's), without num_q and gm_map, which trec_eval
prints only for "all"; measures in trec_eval's order; and a ``runid`` line first when a measure set was asked for,
as trec_eval's default output has."""
from __future__ import annotations

from components.cli.output import printable as _printable
from components.cli.report import Report
from components.engine.measures import Measure, is_count, parse_measures, per_query_in_trec, trec_name, trec_order


def to_trec(report: Report, per_query: bool = False, runid: bool = False) -> str:
    """The report in trec_eval's layout: ``name<TAB>query<TAB>value`` lines (see this module's docstring).

    Every measure must have a trec_eval name (:func:`components.engine.measures.trec_name`); ``runid``
    adds trec_eval's first line, the run's tag.

    Examples
    --------
    >>> from components.cli.evaluate import run_evaluation
    >>> report = run_evaluation("1 0 a 1\\n2 0 b 1\\n", "1 Q0 a 1 1 bm25\\n2 Q0 x 1 1 bm25\\n", ["P@5", "num_q", "AP"])
    >>> print(to_trec(report, per_query=True, runid=True).expandtabs(4))
    map                     1   1.0000
    P_5                     1   0.2000
    map                     2   0.0000
    P_5                     2   0.0000
    runid                   all bm25
    num_q                   all 2
    map                     all 0.5000
    P_5                     all 0.1000
    """
    ordered = trec_order(parse_measures(report.values))
    lines = []
    if per_query:
        for qid, values in sorted(report.per_query().items(), key=lambda item: item[0].encode()):
            lines += [_trec_line(m, qid, values[m.name]) for m in ordered if per_query_in_trec(m)]
    if runid:
        lines.append(f"{'runid':<22}\tall\t{_printable(report.runid)}")
    means = report.mean
    lines += [_trec_line(m, "all", means[m.name]) for m in ordered]
    return "\n".join(lines)


def _trec_line(measure: Measure, qid: str, value: float) -> str:
    """One line as trec_eval prints it: the name padded to 22, the query, the value (%6.4f, or %ld for a count)."""
    shown = str(int(value)) if is_count(measure) else f"{value:6.4f}"
    return f"{trec_name(measure):<22}\t{_printable(qid)}\t{shown}"
