"""The ``rankwise`` command: a trec_eval-compatible evaluator, and the app.

Usage (``python -m components.cli`` is the same command)::

    rankwise eval QRELS RUN [RUN2 ...] [-m MEASURE ...] [--gain linear|exponential]
                            [-q|--per-query] [-c|--complete] [-l N] [-J] [-M N]
                            [--format table|json|trec] [--json] [--compare RUN2]
                            [--diagnose [--diagnose-k K]] [--baseline RUN]
                            [--correction holm|bonferroni|bh] [--explain QID] [--power DELTA]
    rankwise app [STREAMLIT OPTIONS]   # e.g. --server.address 0.0.0.0

``rankwise app`` runs the installed app (``app.py`` and its
``.streamlit/config.toml``, found beside the installed packages, so it works
from any folder) with ``streamlit run``.

Measures are named as the field names them, case-insensitive (see
:mod:`components.engine.measures`); without ``-m``: R@5, R@10, RR, nDCG@10. The
default gain is linear, so the numbers equal trec_eval's (recall_k,
success_k, P_k, recip_rank, ndcg_cut_k); the output always names the gain.

Semantics are trec_eval's (see :mod:`components.formats.trec`): the run is ordered by
score descending, ties by docid descending, the rank column ignored; only
queries in both files are evaluated and averaged, unless ``-c``/``--complete``
(trec_eval's -c) scores judged queries missing from the run as 0. ``-l N``
(``--rel-level``, trec_eval's -l) counts a grade of at least N as relevant
for the binary measures (nDCG keeps the grades); ``-J`` (``--judged-only``,
trec_eval's -J) drops the run's unjudged documents first, and ``-M N``
(``--max-docs``, trec_eval's -M) keeps only the top N documents of each
query, before -J. ``-m official`` and ``-m all_trec`` are trec_eval's
measure sets, and ``-m P.5,10`` its form for several cutoffs (see
:mod:`components.engine.measures`).

``--format trec`` prints trec_eval's own layout: one line per value,
``name<TAB>query<TAB>value``, with trec_eval's measure names padded to 22
characters, ``all`` for the query set, values with 4 decimals and the counts
as whole numbers; with ``-q`` every query's lines first, queries in byte
order of their ids (trec_eval's), without num_q and gm_map, which trec_eval
prints only for "all"; measures in trec_eval's order; and a ``runid`` line
first when a measure set was asked for, as trec_eval's default output has.

``--json`` (or ``--format json``) prints only JSON on stdout::

    {"gain": "linear", "num_queries": N, "skipped": {"qrels_only": n, "run_only": n},
     "mean": {measure: value}, "per_query": {qid: {measure: value}}}

(``per_query`` only with ``--per-query``), with canonical measure names and
unrounded values ("mean" holds the value of trec_eval's "all" line: the sum
for the counts, the geometric mean for GMAP); notes go to stderr: the queries skipped, and how many lines
of the run had text after the tag (ignored, as trec_eval ignores it).

Several runs (``RUN RUN2 ...``, up to 10; ``--compare RUN2`` is the same as
a second run) are each compared with the baseline (the first run, or
``--baseline RUN``, by path or file name) on the queries judged in QRELS and
answered by both (see :mod:`components.engine.many_runs`, the code the
"Compare runs" page uses too): each run's means with 95% t-intervals; for
each run and measure, the mean difference with its t-interval and its paired
BCa bootstrap interval, the queries improved, tied and hurt, a paired t-test
and a paired randomisation test, both p-values corrected across the runs ×
measures (``--correction holm|bonferroni|bh``, Holm by default); then the
readings of what survives the correction. ``--explain QID`` adds, for each
run, each measure's change on that query split over the documents;
``--power DELTA`` the queries a paired t-test needs to detect DELTA. With
``--json``::

    {"gain": ..., "labels": {run: letter}, "baseline": run, "correction": ..., "alpha": 0.05,
     "family": m, "flagged": [run, ...],
     "runs": {run: {"queries", "never_ran", "mean": {measure: v}, "ci95": {measure: [lo, hi]}}},
     "versus_baseline": {run: {measure: {"mean_a", "mean_b", "mean_diff", "ci95", "improved", "hurt",
                                         "tied", "t_test_p", "randomisation_p", "randomisation_method",
                                         "randomisation_exact", "randomisation_assignments",
                                         "randomisation_error_bound", "permutations", "seed", "bootstrap",
                                         "t_test_p_corrected", "randomisation_p_corrected", "significant"}}},
     "skipped": {run: {"qrels_only", "a_only", "b_only", "run_only"}}}

(undefined values, such as the t-test on a single query, are ``null``), plus
``"per_query": {run: {qid: {measure: run − baseline}}}`` with ``--per-query``,
``"power"`` with ``--power`` and ``"explain"`` with ``--explain``. Every other
value is a finite number (the readers' limits keep them so), and the JSON is
strict: never ``NaN`` or ``Infinity``.

``--diagnose`` adds a diagnosis of the pair (see
:mod:`components.engine.run_diagnosis`): every way the files could make the
numbers misleading (queries on one side only, queries with nothing relevant,
merged chunks, ties at the cutoff, unjudged documents in the top k, short
lists, queries whose scores are all equal, ids written two ways), at the
cutoff ``--diagnose-k`` (default: the largest cutoff among the measures, or
10). It comes after the numbers: below the table, one block per finding
(title, count, up to five example queries, what it does to each measure,
advice, where to read more), then a line for each check that found nothing;
in the JSON report as ``"diagnosis": [{"check", "count", "examples",
"severity", "values", "link"}, ...]``, every check in order (``values``
holds the numbers of the sentences; its ``effects`` map each measure to its
value as reported and under the alternative, null where undefined); with
``--format trec`` on stderr, so stdout stays trec_eval's. The words are in
``lessons/text/diagnose.md``. The exit status does not change. It diagnoses
one run: several runs refuse it.

Without ``--json``: an aligned table (with several runs, followed by the
readings), values rounded to 3 decimals. A file that cannot be read (not what
the reader expects, missing, unreadable, or too large for the memory) prints
one line on stderr and exits with status 1 (a usage error: status 2), never a
traceback; any other exception is a bug, and shows its traceback. Every
option's value is checked as argparse reads it (``type=``), before any file
is read: a bad one is a usage error, one line on stderr naming the option,
the value as typed and what was expected (``argument -M/--max-docs: '0' is
not a whole number from 1 to 9,223,372,036,854,775,807``). When the
reader of the output goes away early (``| head``), the evaluator stops
quietly with status 141, as a program killed by SIGPIPE.

Everything printed outside the JSON (the table, notes, error messages) shows
characters that are not printable as Python's ``repr`` escapes them (ESC as
``\\x1b``), so ids, file names and lines of a crafted file cannot send
escape sequences to the terminal (clear it, retitle it); the JSON escapes
them itself.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence, TypedDict, cast

import numpy as np

from components.course import prose
from components.course.findings import contrast_sentence, counted, describe
from components.engine import fusion, run_diagnosis
from components.engine.checks import read_whole
from components.engine.corrections import CORRECTIONS, DEFAULT_CORRECTION
from components.engine.formatting import fmt, signed
from components.engine.measures import (
    DEFAULT_MEASURES,
    MAX_CUTOFF,
    Measure,
    aggregate,
    evaluate,
    is_count,
    parse_measures,
    per_query_in_trec,
    trec_name,
    trec_order,
    uses_measure_set,
)
from components.engine.metrics import GAIN_FORMULAS, GAINS, Gain
from components.formats import chunks as chunk_ids
from components.formats import readers, report_tables, trec
from components.formats.json_formats import Fields, parse_fields

FORMATS = ("table", "json", "trec", "markdown", "latex")
REPORT_TABLES = {"markdown": report_tables.markdown, "latex": report_tables.latex}  # --format: to paste in a paper
EXIT_BAD_FILE = 1
EXIT_BROKEN_PIPE = 128 + 13  # what a shell shows for a program killed by SIGPIPE (signal 13)
_SHOWN_QIDS = 5  # query ids listed in a note
_WRAP = 100  # the diagnosis's sentences are wrapped at this width, indented by two spaces
_LONGEST_WHOLE = 100  # an option's whole number longer than this (in characters) is refused unread


@dataclass(frozen=True)
class Report:
    """The evaluation of a run: per-query values of each measure and how many queries were skipped.

    Attributes
    ----------
    gain : the nDCG/DCG gain used.
    values : canonical measure name -> per-query values, aligned with ``qids``.
    judged : the run joined with its qrels (evaluated and skipped query ids included).
    trailing_lines : how many lines of the run had text after the tag (ignored).
    runid : the run's tag (its first line's), trec_eval's "runid".
    diagnosis : the pair's diagnosis, when asked for (:func:`run_evaluation`'s ``diagnose``), else None.
    """

    gain: Gain
    values: dict[str, np.ndarray]
    judged: trec.JudgedRun
    trailing_lines: int = 0
    runid: str = ""
    diagnosis: run_diagnosis.Diagnosis | None = None

    @property
    def qids(self) -> tuple[str, ...]:
        """The evaluated queries, in the qrels file's order."""
        return self.judged.qids

    @property
    def mean(self) -> dict[str, float]:
        """Each measure's value over the evaluated queries, as trec_eval's "all" line gives it: the mean, except
        the sum for the counts (num_ret, num_rel, num_rel_ret, num_q) and the geometric mean for GMAP."""
        return {name: aggregate(name, v) for name, v in self.values.items()}

    def per_query(self) -> dict[str, dict[str, float]]:
        """qid -> measure -> value."""
        return {qid: {name: float(v[i]) for name, v in self.values.items()} for i, qid in enumerate(self.qids)}


class _JsonReport(TypedDict):
    gain: Gain
    num_queries: int
    skipped: dict[str, int]
    mean: dict[str, float]


class JsonReport(_JsonReport, total=False):
    """What :func:`to_json` writes; ``per_query`` (qid -> measure -> value) and ``diagnosis`` (one object per
    check) only when asked for."""

    per_query: dict[str, dict[str, float]]
    diagnosis: list[dict[str, object]]


def run_evaluation(qrels: trec.Source, run: trec.Source, measures: Sequence[Measure | str] = DEFAULT_MEASURES,
                   gain: Gain = "linear", complete: bool = False, relevance_level: int = 1,
                   judged_only: bool = False, max_docs: int | None = None, diagnose: bool = False,
                   diagnosis_k: int | None = None, chunks: str | None = None, qrels_fields: Fields | None = None,
                   run_fields: Fields | None = None) -> Report:
    """Read both files, judge the run and evaluate the measures on every evaluated query.

    ``relevance_level`` (trec_eval's -l): a grade at least this counts as relevant for the binary measures
    (nDCG keeps the grades). ``max_docs`` (trec_eval's -M): each query's top ``max_docs`` documents are kept,
    the rest dropped. ``judged_only`` (trec_eval's -J): then the run's unjudged documents are dropped, the rest
    ranked on. ``diagnose``: also diagnose the pair (:func:`components.engine.run_diagnosis.diagnose`, on the
    files as read: -J and -M do not apply) at ``diagnosis_k`` (default: :func:`components.engine.run_diagnosis.diagnosis_cutoff`). Files in
    any format :mod:`components.formats.readers` reads (TREC, CSV/TSV, BEIR, JSON, JSONL); ``chunks``: a separator
    to count chunks as their document (``doc12#3`` -> ``doc12``, best rank kept), or None; ``qrels_fields``,
    ``run_fields``: which keys of JSON records hold what, instead of the guess.

    Raises :class:`components.formats.trec.TrecFormatError` for a file that cannot be
    read and ``ValueError`` for an unknown measure name.

    Examples
    --------
    >>> report = run_evaluation("1 0 a 1\\n2 0 b 2\\n", "1 Q0 x 1 2 r\\n1 Q0 a 2 1 r\\n2 Q0 b 1 1 r\\n", ["MRR", "P@1"])
    >>> report.mean
    {'RR': 0.75, 'P@1': 0.5}
    """
    read_qrels = readers.read(qrels, "qrels", fields=qrels_fields, chunks=chunks)
    judgments = cast(trec.Qrels, read_qrels.parsed)
    trec.check_gain_fits(judgments, gain)
    read_run = readers.read(run, "run", fields=run_fields, chunks=chunks)
    results = cast(trec.Run, read_run.parsed)
    judged = trec.judge(judgments, results, complete)
    queries = judged.adjusted(relevance_level, judged_only, max_docs).queries
    diagnosis = None if not diagnose else run_diagnosis.diagnose_read(
        read_qrels, read_run, judged, k=diagnosis_k or run_diagnosis.diagnosis_cutoff(measures), measures=measures,
        gain=gain, relevance_level=relevance_level, chunks=chunks)
    return Report(gain, evaluate(queries, measures, gain), judged, results.trailing_lines, results.tag, diagnosis)


def to_json(report: Report, per_query: bool = False) -> str:
    """The report as JSON: gain, num_queries, skipped, mean and (optionally) per_query; floats unrounded.

    Examples
    --------
    >>> print(to_json(run_evaluation("1 0 a 1\\n", "1 Q0 a 1 1 r\\n", ["RR"])))
    {"gain": "linear", "num_queries": 1, "skipped": {"qrels_only": 0, "run_only": 0}, "mean": {"RR": 1.0}}
    """
    document: JsonReport = {"gain": report.gain, "num_queries": len(report.qids),
                            "skipped": report.judged.skipped, "mean": report.mean}
    if per_query:
        document["per_query"] = report.per_query()
    if report.diagnosis is not None:
        document["diagnosis"] = report.diagnosis.as_dict()["diagnosis"]
    return json.dumps(document, allow_nan=False)


def format_table(report: Report, per_query: bool = False, qrels_name: str = "qrels", run_name: str = "run") -> str:
    """A readable report: the files, the gain, the query counts, and an aligned table of values.

    Values are rounded for display (3 decimals); the last row is the mean.

    Examples
    --------
    >>> report = run_evaluation("1 0 a 1\\n2 0 b 1\\n", "1 Q0 a 1 1 r\\n2 Q0 x 1 1 r\\n", ["RR", "nDCG@10"])
    >>> print(format_table(report, per_query=True))
    qrels    qrels
    run      run
    gain     linear (rel)
    queries  2 evaluated; skipped: 0 only in qrels, 0 only in run
    <BLANKLINE>
    query     RR  nDCG@10
    1      1.000    1.000
    2      0.000    0.000
    -----  -----  -------
    mean   0.500    0.500
    """
    skipped = report.judged.skipped
    header = [("qrels", qrels_name), ("run", run_name), ("gain", f"{report.gain} ({GAIN_FORMULAS[report.gain]})"),
              ("queries", _text("Header queries", evaluated=len(report.qids), qrels_only=skipped["qrels_only"],
                                run_only=skipped["run_only"]))]
    names = list(report.values)
    rows = [["query", *names]]
    if per_query:
        rows += [[qid, *(fmt(v) for v in values.values())] for qid, values in report.per_query().items()]
    rows.append(["mean", *(fmt(v) for v in report.mean.values())])
    return "\n".join([*_aligned([list(pair) for pair in header], numbers=False), "",
                      *_aligned(rows, rule_before_last=per_query)])


def to_trec(report: Report, per_query: bool = False, runid: bool = False) -> str:
    """The report in trec_eval's layout: ``name<TAB>query<TAB>value`` lines (see the module's docstring).

    Every measure must have a trec_eval name (:func:`components.engine.measures.trec_name`); ``runid``
    adds trec_eval's first line, the run's tag.

    Examples
    --------
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


def _aligned(rows: list[list[str]], numbers: bool = True, rule_before_last: bool = False) -> list[str]:
    """Rows as lines, columns two spaces apart: the first left-aligned, the others right-aligned if numbers.

    Cells are shown :func:`_printable` (before their widths are measured).
    """
    rows = [[_printable(cell) for cell in row] for row in rows]
    widths = [max(len(row[c]) for row in rows) for c in range(len(rows[0]))]
    if rule_before_last:
        rows = [*rows[:-1], ["-" * w for w in widths], rows[-1]]
    return ["  ".join(cell.rjust(w) if numbers and c else cell.ljust(w) for c, (cell, w) in
                      enumerate(zip(row, widths))).rstrip() for row in rows]


def notes(judged: trec.JudgedRun, trailing_lines: int = 0) -> list[str]:
    """Notes for stderr: the run's lines with text after the tag, and the queries skipped (or scored 0 under --complete).

    Examples
    --------
    >>> for note in notes(trec.load("1 0 a 1\\n2 0 b 1\\n", "1 Q0 a 1 1 r\\n7 Q0 a 1 1 r\\n8 Q0 a 1 1 r\\n"), 412):
    ...     print(note)
    note: 412 lines of the run had text after the tag; ignored, as trec_eval does
    note: 1 judged query is not in the run and was skipped (--complete counts it as 0): '2'
    note: 2 queries of the run have no judgments and were skipped: '7', '8'
    """
    missing = "Note missing complete" if judged.complete else "Note missing"
    trailing = [_text("Note trailing", n=trailing_lines)] if trailing_lines else []
    return trailing + [_note(section, qids) for section, qids in ((missing, judged.qrels_only),
                                                                  ("Note unjudged", judged.run_only)) if qids]


def _text(section: str, **values) -> str:
    """A section of lessons/text/cli.md, its placeholders filled."""
    return prose.text(prose.CLI, section, **values)


def _note(section: str, qids: tuple[str, ...], **values) -> str:
    """The note ``section`` about these queries (its words agree with their count), the first few named."""
    return _text(section, n=len(qids), ids=_ids(qids, len(qids)), **values)


def _ids(qids: Sequence[str], total: int) -> str:
    """The first few of ``total`` query ids, quoted, and how many more there are."""
    shown = ", ".join(repr(q) for q in qids[:_SHOWN_QIDS])
    return _text("More ids", shown=shown, more=total - _SHOWN_QIDS) if total > _SHOWN_QIDS else shown


# ----------------------------------------------------------------------------
# The diagnosis in words (lessons/text/diagnose.md)
# ----------------------------------------------------------------------------

def format_diagnosis(diagnosis: run_diagnosis.Diagnosis) -> str:
    """The diagnosis as text: a header, one block per finding to report (warnings first), then one line per check
    that found nothing.

    Examples
    --------
    >>> report = run_evaluation("1 0 a 1\\n2 0 b 1\\n", "1 Q0 a 1 1 r\\n", ["RR"], diagnose=True, diagnosis_k=1)
    >>> print(format_diagnosis(report.diagnosis).split("\\n\\n")[1])
    warning: Judged queries missing from the run (1 query: '2')
      The qrels judge 1 query that the run never answers. trec_eval leaves such queries out of every
      mean, so a run that skips its hardest queries can look better than it is; with -c (--complete)
      each one counts, with the values of a system that returned nothing.
      RR: 1.000 as reported (skipped); 0.500 with -c (−0.500)
      If your system really returned nothing for a query, report the numbers with -c. If the two files
      come from different query sets, check that you picked the matching pair.
      read more in the app (rankwise app): /why-does-my-number-differ
    """
    found = diagnosis.findings
    lines = [_text("Diagnosis header", k=diagnosis.k, warnings=sum(f.severity == "warning" for f in found),
                   notes=sum(f.severity == "note" for f in found), passed=sum(f.severity == "ok" for f in found))]
    for finding in diagnosis.problems:
        text = describe(finding)
        severity = _text(f"Severity {finding.severity}")
        lines += ["", _text("Diagnosis block examples", severity=severity, title=text.title,
                            queries=counted(finding.count, "query"), ids=_ids(finding.examples, finding.count))
                  if finding.examples else _text("Diagnosis block", severity=severity, title=text.title)]
        lines += [*_wrapped(text.body), *(f"  {line}" for line in text.effects), *_wrapped(text.advice)]
        if finding.link:
            lines.append("  " + _text("Diagnosis read more", link=finding.link))
    passed = [line for f in found if f.severity == "ok"
              for line in _wrapped(_text("Diagnosis ok", sentence=describe(f).body), first="")]
    return "\n".join([*lines, *([""] + passed if passed else [])])


def _wrapped(text: str, first: str = "  ") -> list[str]:
    """A sentence wrapped at :data:`_WRAP` columns, its first line indented by ``first``, the others by two spaces."""
    return textwrap.wrap(" ".join(text.split()), _WRAP, initial_indent=first, subsequent_indent="  ",
                         break_long_words=False, break_on_hyphens=False)


class _Parser(argparse.ArgumentParser):
    """argparse's parser, whose usage error is one line on stderr, without the usage (``--help`` shows it): the
    option, the value as typed and what was expected, :func:`_printable` on one line (a value's line breaks are
    escaped too); exit status 2."""

    def error(self, message: str):
        self.exit(2, _text("Usage error", prog=self.prog, message=_printable(message, one_line=True)) + "\n")


def build_parser() -> argparse.ArgumentParser:
    """The command line: QRELS RUN [-m MEASURE ...] [--gain ...] [--per-query] [--complete] [--json]."""
    parser = _Parser(prog="rankwise eval", description=_text("Description"), epilog=_text("Epilog"),
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("qrels", type=_file, help=_text("Help qrels"))
    parser.add_argument("runs", type=_file, nargs="+", metavar="RUN", help=_text("Help run"))
    parser.add_argument("--split", choices=readers.BEIR_SPLITS, help=_text("Help split"))
    parser.add_argument("-m", "--measure", type=_measure, action="append", dest="measures", metavar="MEASURE",
                        help=_text("Help measure", default=" ".join(DEFAULT_MEASURES)))
    parser.add_argument("--gain", choices=GAINS, default="linear", help=_text("Help gain"))
    parser.add_argument("-q", "--per-query", action="store_true", help=_text("Help per-query"))
    parser.add_argument("-c", "--complete", action="store_true", help=_text("Help complete"))
    parser.add_argument("-l", "--rel-level", type=_whole, default=1, metavar="N", help=_text("Help rel-level"))
    parser.add_argument("-J", "--judged-only", action="store_true", help=_text("Help judged-only"))
    parser.add_argument("-M", "--max-docs", type=_whole, metavar="N", help=_text("Help max-docs"))
    parser.add_argument("--format", choices=FORMATS, default="table", help=_text("Help format"))
    parser.add_argument("--json", action="store_true", help=_text("Help json"))
    parser.add_argument("--compare", type=_file, metavar="RUN2", help=_text("Help compare"))
    parser.add_argument("--baseline", metavar="RUN", help=_text("Help baseline"))
    parser.add_argument("--correction", choices=CORRECTIONS, default=DEFAULT_CORRECTION,
                        help=_text("Help correction"))
    parser.add_argument("--power", type=_positive_float, metavar="DELTA", help=_text("Help power"))
    parser.add_argument("--explain", metavar="QID", help=_text("Help explain"))
    parser.add_argument("--diagnose", action="store_true", help=_text("Help diagnose"))
    parser.add_argument("--diagnose-k", type=_whole, metavar="K", help=_text("Help diagnose-k"))
    parser.add_argument("--chunks", type=_separator, nargs="?", const=chunk_ids.DEFAULT_SEPARATOR, metavar="SEP",
                        help=_text("Help chunks", default=chunk_ids.DEFAULT_SEPARATOR))
    for kind in ("qrels", "run"):
        parser.add_argument(f"--{kind}-fields", type=_fields, metavar="ROLE=KEY,...", help=_text(f"Help {kind}-fields"))
    return parser


# Each option's value is checked here, as argparse reads it (``type=``): a bad one is a usage error naming the
# option, the value as typed and what was expected, before any file is read.

def _file(text: str) -> Path:
    """QRELS, RUN, ``--compare``: a path; a usage error for an empty one (which ``Path`` would read as ``.``)."""
    if not text:
        raise argparse.ArgumentTypeError(_text("Not a file name", value=repr(text)))
    return Path(text)


def _measure(text: str) -> str:
    """``-m``: the name as typed, once :func:`components.engine.measures.parse_measures` reads it (a set's name,
    trec_eval's ``P.5,10``, one measure); a usage error quoting it as typed otherwise."""
    try:
        parse_measures([text])
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None
    return text


def _whole(text: str) -> int:
    """``-l``, ``-M``, ``--diagnose-k``: a whole number from 1 to :data:`~components.engine.measures.MAX_CUTOFF`
    (the int64 the engine compares grades and ranks with), as ``int`` reads it (spaces around it and ``_``
    between digits allowed); a usage error for anything else, however long (``int`` reads at most 4,300 digits)."""
    value = read_whole(text) if len(text) <= _LONGEST_WHOLE else None
    if value is None or not 1 <= value <= MAX_CUTOFF:
        raise argparse.ArgumentTypeError(_text("Not a whole number", value=repr(text), most=f"{MAX_CUTOFF:,}"))
    return value


def _positive_float(text: str) -> float:
    """``--power DELTA``: a usage error for anything but a positive finite number (any such is answered:
    :mod:`components.engine.power`)."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not (np.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(_text("Not a positive number", value=repr(text)))
    return value


def _separator(text: str) -> str:
    """``--chunks SEP``: the separator, once :func:`components.formats.chunks.separator_bytes` accepts it (text
    without whitespace); a usage error otherwise."""
    try:
        chunk_ids.separator_bytes(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None
    return text


def _fields(spec: str) -> Fields:
    """``--qrels-fields`` / ``--run-fields``: a usage error for a mapping that does not parse."""
    try:
        return parse_fields(spec)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def build_fuse_parser() -> argparse.ArgumentParser:
    """``rankwise fuse RUN RUN [...] [--method ...] [--rrf-k K] [--norm ...] [--depth N] [--tag TAG]``."""
    parser = _Parser(prog="rankwise fuse", description=_text("Fuse description"),
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("runs", type=_file, nargs="+", metavar="RUN", help=_text("Help fuse runs"))
    parser.add_argument("--method", choices=fusion.METHODS, default="rrf", help=_text("Help fuse method"))
    parser.add_argument("--rrf-k", type=_positive_float, metavar="K", help=_text("Help rrf-k", k=fusion.RRF_K))
    parser.add_argument("--norm", choices=fusion.NORMS, help=_text("Help norm"))
    parser.add_argument("--depth", type=_whole, metavar="N", help=_text("Help depth"))
    parser.add_argument("--tag", type=_tag, default=fusion.TAG, help=_text("Help tag", tag=fusion.TAG))
    return parser


def _tag(text: str) -> str:
    """``--tag``: the run's name in the written file's last column: text without whitespace."""
    if not text or any(c.isspace() for c in text):
        raise argparse.ArgumentTypeError(_text("Not a tag", value=repr(text)))
    return text


def fuse_main(argv: Sequence[str] | None = None) -> int:
    """``rankwise fuse``: the fused run as TREC text on stdout; return the exit status (0 ok, 1 a file that cannot
    be read, 2 usage). Each run may be in any format :mod:`components.formats.readers` reads."""
    parser = build_fuse_parser()
    args = parser.parse_args(argv)
    if len(args.runs) < 2:
        parser.error(_text("Fuse needs two runs"))
    if args.method == "rrf" and args.norm is not None:
        parser.error(_text("Norm with rrf"))
    if args.method != "rrf" and args.rrf_k is not None:
        parser.error(_text("Rrf-k without rrf", method=args.method))
    if len(set(map(str, args.runs))) < len(args.runs):
        parser.error(_text("Run twice"))
    try:
        runs = [cast(trec.Run, readers.read(path, "run").parsed) for path in args.runs]
    except (OSError, MemoryError, trec.TrecFormatError) as err:
        return _file_error(err, args.runs)
    fused = fusion.fuse(runs, args.method, k=args.rrf_k or fusion.RRF_K, norm=args.norm or "none",
                        depth=args.depth)
    sys.stdout.write(fusion.to_trec(fused, args.tag))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``rankwise eval ...``, ``rankwise fuse ...`` or ``rankwise app ...``; return the exit status (2 for a usage
    error)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    command, rest = (argv[0], argv[1:]) if argv else ("", [])
    if command == "eval":
        return eval_main(rest)
    if command == "fuse":
        return fuse_main(rest)
    if command == "app":
        return app_main(rest)
    print(_text("Usage"), file=sys.stderr)
    return 0 if command in ("-h", "--help") else 2


def app_paths() -> tuple[Path, Path]:
    """Where the installed app lives: (its ``app.py``, the folder holding its ``.streamlit/config.toml``).

    Beside the packages: the checkout itself for an editable install (or a
    run from the checkout), the installed package data otherwise.
    """
    here = Path(__file__).resolve().parent
    for folder in (here.parent, here / "app"):
        if (folder / "app.py").is_file() and (folder / ".streamlit" / "config.toml").is_file():
            return folder / "app.py", folder
    raise FileNotFoundError(f"no app.py with .streamlit/config.toml beside {here}: is Rankwise installed?")


def app_main(streamlit_args: Sequence[str]) -> int:
    """``streamlit run app.py [options]`` in the app's folder, so its ``.streamlit/config.toml`` applies.

    The command becomes the server (``os.execv``), so a signal that stops ``rankwise app`` stops the server:
    no child is left running after its parent.
    """
    try:
        script, folder = app_paths()
    except FileNotFoundError as err:
        print(_text("Error", message=err), file=sys.stderr)
        return 1
    os.chdir(folder)
    os.execv(sys.executable, [sys.executable, "-m", "streamlit", "run", str(script), *streamlit_args])


def eval_main(argv: Sequence[str] | None = None) -> int:
    """``rankwise eval``; return the exit status (0 ok, 1 a file that cannot be read, 2 usage)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    measures = parse_measures(args.measures or DEFAULT_MEASURES)  # each checked as it was read (_measure)
    diagnose = args.diagnose or args.diagnose_k is not None
    layout = "json" if args.json else args.format
    if args.qrels.is_dir():  # a BEIR folder: its qrels/<split>.tsv
        try:
            args.qrels = readers.beir_qrels(args.qrels, args.split or "test")
        except FileNotFoundError as err:
            return _file_error(err, (args.qrels,))
        print(_text("Note qrels of folder", file=args.qrels), file=sys.stderr)
    elif args.split is not None:
        parser.error(_text("Split needs a folder"))
    if layout in REPORT_TABLES:
        for option, given in (("-q", args.per_query), ("--diagnose", diagnose), ("--power", args.power is not None),
                              ("--explain", args.explain is not None)):
            if given:
                parser.error(_text("Report table options", layout=layout, option=option))
    runs = [*args.runs, *([args.compare] if args.compare is not None else [])]
    args.run = runs[0]
    if len(runs) > 1:
        from components.engine.many_runs import MAX_RUNS  # scipy loads only when runs are compared

        if layout == "trec":
            parser.error(_text("Compare options"))
        if len(runs) > MAX_RUNS:
            parser.error(_text("Too many runs", n=len(runs), most=MAX_RUNS))
        if len(set(map(str, runs))) < len(runs):
            parser.error(_text("Run twice"))
        if args.explain is not None and args.rel_level != 1:
            parser.error(_text("Explain needs level one"))
        return _main_many(args, measures, runs, _baseline(parser, args.baseline, runs), layout)
    for option, given in (("--baseline", args.baseline), ("--power", args.power), ("--explain", args.explain)):
        if given is not None:
            parser.error(_text("Needs several runs", option=option))
    untranslatable = [m.name for m in measures if trec_name(m) is None]
    if layout == "trec" and untranslatable:
        parser.error(_text("Not in trec format", names=", ".join(untranslatable)))
    try:
        report = run_evaluation(args.qrels, args.run, measures, args.gain, args.complete, args.rel_level,
                                args.judged_only, args.max_docs, diagnose, args.diagnose_k, args.chunks,
                                args.qrels_fields, args.run_fields)
    except (OSError, MemoryError, trec.TrecFormatError) as err:
        return _file_error(err, (args.qrels, args.run))
    to_stderr = notes(report.judged, report.trailing_lines)
    if layout == "json":
        output = to_json(report, args.per_query)
    elif layout in REPORT_TABLES:
        output = report_one(report, layout, str(args.run))
    elif layout == "trec":
        output = to_trec(report, args.per_query, runid=uses_measure_set(args.measures or ()))
        to_stderr += [format_diagnosis(report.diagnosis)] if report.diagnosis else []  # stdout stays trec_eval's
    else:
        output = format_table(report, args.per_query, str(args.qrels), str(args.run))
        output += f"\n\n{format_diagnosis(report.diagnosis)}" if report.diagnosis else ""
    return _emit(output, to_stderr, escaped=layout == "trec")


def _baseline(parser: argparse.ArgumentParser, given: str | None, runs: Sequence[Path]) -> int:
    """``--baseline``: which of the runs, by its path as given or its file name (default: the first)."""
    if given is None:
        return 0
    matches = [i for i, run in enumerate(runs) if given in (str(run), run.name)]
    if len(matches) != 1:
        parser.error(_text("Baseline unknown", given=repr(given), runs=", ".join(map(str, runs))))
    return matches[0]


def judge_runs(qrels: trec.Source, runs: Sequence[trec.Source], gain: Gain = "linear", complete: bool = False,
               relevance_level: int = 1, judged_only: bool = False, max_docs: int | None = None,
               chunks: str | None = None, qrels_fields: Fields | None = None,
               run_fields: Fields | None = None) -> list[trec.JudgedRun]:
    """Read the qrels and each run (any format :mod:`components.formats.readers` reads, as
    :func:`run_evaluation` reads them) and judge each run with trec_eval's -c, -l, -J and -M."""
    judgments = cast(trec.Qrels, readers.read(qrels, "qrels", fields=qrels_fields, chunks=chunks).parsed)
    trec.check_gain_fits(judgments, gain)
    return [trec.judge(judgments, cast(trec.Run, readers.read(run, "run", fields=run_fields, chunks=chunks).parsed),
                       complete).adjusted(relevance_level, judged_only, max_docs) for run in runs]


def _main_many(args: argparse.Namespace, measures: Sequence[Measure], runs: Sequence[Path], baseline: int,
               layout: str) -> int:
    """Several runs (``RUN RUN2 ...`` or ``--compare RUN2``): each against the baseline, as a table or JSON."""
    from components.course.run_comparison import report_many, run_labels
    from components.engine import many_runs  # scipy loads only when runs are compared
    from components.engine.compare import NothingToCompare

    try:
        judged = judge_runs(args.qrels, runs, args.gain, args.complete, args.rel_level, args.judged_only,
                            args.max_docs, args.chunks, args.qrels_fields, args.run_fields)
        result = many_runs.compare_many(judged, [str(r) for r in runs], measures, args.gain, baseline,
                                        args.correction)
        diagnoses = diagnose_runs(args, measures, runs) if args.diagnose or args.diagnose_k is not None else None
    except (OSError, MemoryError, trec.TrecFormatError, NothingToCompare) as err:  # a file that cannot be read,
        # or no query both runs answer; any other error is a fault of this program, not of the files
        return _file_error(err, (args.qrels, *runs))
    labels = run_labels(result)
    base = result.names[baseline]
    if layout in REPORT_TABLES:
        output = report_many(result, layout, args.gain)  # type: ignore[arg-type]  # a key of REPORT_TABLES
    elif layout == "json":
        document = {"gain": args.gain, "labels": labels, **result.as_dict(),
                    "skipped": {run: p.skipped for run, p in result.pairings.items()}}
        if args.per_query:
            document["per_query"] = {run: {qid: {m: float(result.versus[run, m].comparison.diff[i])
                                                 for m in result.measures}
                                           for i, qid in enumerate(result.pairings[run].qids)}
                                     for run in result.others}
        if args.power is not None:
            document["power"] = {run: {m: _as_dict(power_plan(result, run, m, args.power)) for m in result.measures}
                                 for run in result.others}
        if args.explain is not None:
            document["explain"] = {run: {m: _as_dict(e) for m, e in (why or {}).items()} if why is not None else None
                                   for run, why in explained(result, judged, args.explain, args.gain).items()}
        if diagnoses is not None:
            document["diagnosis"] = {run: d.as_dict()["diagnosis"] for run, d in diagnoses.items()}
            document["diagnosis_contrasts"] = {
                run: [{"check": c.check, "sentence": contrast_sentence(c, labels[run], labels[base])}
                      for c in run_diagnosis.contrasts(diagnoses[base], diagnoses[run])] for run in result.others}
        output = json.dumps(document, allow_nan=False)
    else:
        output = format_many(result, args.gain, args.per_query, str(args.qrels))
        if diagnoses is not None:
            output += "\n\n" + format_diagnoses(diagnoses, labels, base)
        if args.power is not None:
            output += "\n\n" + format_power(result, args.power)
        if args.explain is not None:
            output += "\n\n" + format_explain(result, explained(result, judged, args.explain, args.gain),
                                               args.explain)
    notes_about = [note for run in result.others for note in compare_notes(result.pairings[run], labels[base], labels[run])]
    return _emit(output, notes_about)


def diagnose_runs(args: argparse.Namespace, measures: Sequence[Measure],
                  runs: Sequence[Path]) -> dict[str, run_diagnosis.Diagnosis]:
    """Each run's diagnosis against the qrels (``--diagnose`` with several runs), at the same k, by run name."""
    return {str(run): cast(run_diagnosis.Diagnosis, run_evaluation(
        args.qrels, run, measures, args.gain, args.complete, args.rel_level, diagnose=True, diagnosis_k=args.diagnose_k,
        chunks=args.chunks, qrels_fields=args.qrels_fields, run_fields=args.run_fields).diagnosis) for run in runs}


def format_diagnoses(diagnoses: Mapping[str, run_diagnosis.Diagnosis], labels: Mapping[str, str], base: str) -> str:
    """Several runs' diagnoses as text: each run's (the baseline first), then how each differs from the
    baseline's (:func:`components.engine.run_diagnosis.contrasts`)."""
    order = [base, *(run for run in diagnoses if run != base)]
    blocks = [_text("Diagnosis of run", label=labels[run], run=run) + "\n" + format_diagnosis(diagnoses[run])
              for run in order]
    lines = [_text("Diagnosis contrasts", baseline=labels[base])]
    for run in order[1:]:
        found = run_diagnosis.contrasts(diagnoses[base], diagnoses[run])
        lines += [line for c in found for line in _wrapped(contrast_sentence(c, labels[run], labels[base]), first="- ")]
        if not found:
            lines.append(_text("Diagnosis no contrast", run=labels[run], baseline=labels[base]))
    return "\n\n".join([*blocks, "\n".join(lines)])


def report_one(report: Report, layout: str, run: str) -> str:
    """One run's means as a Markdown or LaTeX table (``--format markdown|latex``): a row, a column per measure.

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


def format_many(result, gain: Gain = "linear", per_query: bool = False, qrels_name: str = "qrels") -> str:
    """Several runs against a baseline as text: the files, how the tests and intervals are made, each run's
    means with their intervals, each comparison with raw and corrected p-values, and the readings.

    ``result`` is a :class:`components.engine.many_runs.ManyRuns`. Values are rounded for display; the words
    come from ``lessons/text/cli.md``.

    Examples
    --------
    >>> from components.engine.many_runs import compare_many
    >>> runs = [trec.load("1 0 a 1\\n2 0 a 1\\n", r) for r in ("1 Q0 a 1 1 r\\n2 Q0 x 1 1 r\\n",
    ...                                                         "1 Q0 a 1 1 r\\n2 Q0 a 1 1 r\\n")]
    >>> print(format_many(compare_many(runs, ["a.run", "b.run"], ["RR"])).split("\\n\\n")[2])  # doctest: +NORMALIZE_WHITESPACE
    Each difference is over the queries that run and the baseline both answer ("paired"); the two means beside it are
    over those same queries, so the difference is theirs. Each run's mean over all its own queries is in the table above.
    run  measure  paired      A    run     − A  95% t-interval    95% bootstrap    win/tie/loss  t-test p  corrected  randomisation p  corrected
    B    RR            2  0.500  1.000  +0.500  −5.853 to +6.853  0.000 to +1.000         1/1/0     0.500      0.500            1.000      1.000
    """
    from components.course.run_comparison import many_readings, run_labels, span
    from components.engine import bootstrap, compare, corrections

    labels = run_labels(result)
    base = result.names[result.baseline]
    first = next(iter(result.versus.values())).comparison
    header = [["qrels", qrels_name],
              *[["runs" if i == 0 else "", " ".join([f"{labels[n]}: {n}", *([_text("Baseline mark")] if n == base else [])])]
                for i, n in enumerate(result.names)],
              ["gain", f"{gain} ({GAIN_FORMULAS[gain]})"],
              ["tests", _text("Header tests", exact_queries=compare.EXACT_LIMIT.bit_length() - 1,
                              permutations=f"{first.permutations:,}", seed=first.seed)],
              ["correction", _text("Header correction", family=result.family,
                                   runs=len(result.others) - len(result.flagged), measures=len(result.measures),
                                   method=corrections.NAMES[result.correction],
                                   controls=corrections.CONTROLS[result.correction], alpha=f"{result.alpha:g}")],
              ["intervals", _text("Header intervals", method=bootstrap.METHOD,
                                  resamples=f"{first_boot(result).resamples:,}", seed=first_boot(result).seed)]]
    means = [["run", "queries", *result.measures]]
    means += [[labels[r.name] + (" ⚠" if r.never_ran else ""), f"{r.queries:,}",
               *(f"{fmt(r.mean[m])} ({span(r.ci95[m])})" for m in result.measures)] for r in result.runs]
    rows = [["run", "measure", "paired", labels[base], "run", f"− {labels[base]}", "95% t-interval", "95% bootstrap",
             "win/tie/loss", "t-test p", "corrected", "randomisation p", "corrected"]]
    for run in result.others:
        for m in result.measures:
            v = result.versus[run, m]
            c = v.comparison
            rows.append([labels[run], m, f"{c.n:,}", fmt(c.mean_a), fmt(c.mean_b),
                         signed(c.mean_diff) + (" *" if v.significant else ""),
                         span(c.ci95, " to "), span((v.boot.low, v.boot.high), " to "),
                         f"{c.improved}/{c.tied}/{c.hurt}", compare.format_p(c.t_test_p), compare.format_p(v.p_t),
                         randomisation_cell(c), compare.format_p(v.p_rand)])
    lines = [*_aligned(header, numbers=False), "", *_table(means, left=1), "", _text("Paired means"),
             *_table(rows, left=2, also=(6, 7))]
    if per_query:
        for run in result.others:
            table = [["query", *(f"{m} {labels[run]} − {labels[base]}" for m in result.measures)]]
            table += [[qid, *(signed(result.versus[run, m].comparison.diff[i]) for m in result.measures)]
                      for i, qid in enumerate(result.pairings[run].qids)]
            lines += ["", *_aligned(table)]
    lines += ["", *(" ".join(text.split()) for text in many_readings(result, labels))]
    return "\n".join(lines)


def _as_dict(value):
    """A plan or attribution as JSON fields; None stays None."""
    return None if value is None else value.as_dict()


def explained(result, judged: Sequence[trec.JudgedRun], qid: str, gain: Gain) -> dict:
    """``--explain QID``: for each run against the baseline, each measure's change on that query split over the
    documents (:func:`components.engine.many_runs.explain_query`), or None when the query is not in both."""
    from components.engine import many_runs

    base = judged[result.baseline]
    out: dict[str, dict | None] = {}
    for run in result.others:
        try:
            out[run] = many_runs.explain_query(base, judged[result.names.index(run)], qid, result.measures, gain)
        except ValueError:  # the query is not judged and answered by both runs
            out[run] = None
    return out


def format_explain(result, why: dict, qid: str) -> str:
    """``--explain QID`` as text: a block per run, a heading line per measure and a line per document."""
    from components.course.run_comparison import change_lines, run_labels

    labels = run_labels(result)
    base = labels[result.names[result.baseline]]
    blocks = []
    for run, measures in why.items():
        if measures is None:
            blocks.append(_text("Explain not both", qid=qid, base=base, run=labels[run]))
            continue
        lines = [_text("Explain heading", qid=qid, run=labels[run], base=base)]
        for m, explained_measure in measures.items():
            first, *rest = change_lines(explained_measure, m)
            lines += [f"  {first}", *(f"    {line}" for line in rest)]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def power_plan(result, run: str, measure: str, delta: float):
    """What the run's differences from the baseline on ``measure`` say about the queries needed to detect
    ``delta`` (:func:`components.engine.power.plan`; None with fewer than 2 compared queries)."""
    from components.engine import power

    diff = result.versus[run, measure].comparison.diff
    return power.plan(diff, delta) if diff.size >= 2 else None


def format_power(result, delta: float) -> str:
    """``--power DELTA``: for each run and measure, the queries a paired t-test needs to detect ``delta``, the
    smallest difference detectable with the queries compared, and the power they give; the formula first."""
    from components.course.run_comparison import run_labels
    from components.engine import power

    labels = run_labels(result)
    rows = [["run", "measure", "queries", "sd of differences", "needed", "detectable now", "power now"]]
    formulas: list[str] = []
    for run in result.others:
        for m in result.measures:
            plan = power_plan(result, run, m, delta)
            if plan is None:
                continue
            needed = f"{plan.queries_needed:,}" if plan.queries_needed is not None else \
                _text("Power unreachable", most=f"{power.MAX_QUERIES:,}")
            rows.append([labels[run], m, f"{plan.n_have:,}", fmt(plan.sd), needed, fmt(plan.detectable),
                         fmt(plan.power_have, "percent")])
            if not formulas and plan.queries_needed is not None:
                formulas.append(_text("Power formula", run=labels[run], measure=m, z_alpha=f"{plan.z_alpha:.3f}",
                                      z_power=f"{plan.z_power:.3f}", sd=fmt(plan.sd), delta=f"{delta:g}",
                                      normal=f"{plan.normal_queries:,.1f}", needed=f"{plan.queries_needed:,}"))
    heading = _text("Power heading", delta=f"{delta:g}", alpha=f"{power.ALPHA:g}", power=fmt(power.POWER, "percent"))
    return "\n".join([heading, *formulas, "", *_table(rows, left=2)])


def first_boot(result):
    """The bootstrap interval of the first comparison (all share the resamples and the seed)."""
    return next(iter(result.versus.values())).boot


def _table(rows: list[list[str]], left: int, also: tuple[int, ...] = ()) -> list[str]:
    """Rows aligned in columns: the first ``left`` columns (and those in ``also``) to the left, the rest right."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.ljust(w) if c < left or c in also else cell.rjust(w)
                      for c, (cell, w) in enumerate(zip(row, widths))).rstrip() for row in rows]


def randomisation_cell(c) -> str:
    """A comparison's randomisation p for the table: "≈ " before it when it is the normal approximation."""
    from components.engine.compare import NORMAL_APPROXIMATION, format_p

    return ("≈ " if c.randomisation_method == NORMAL_APPROXIMATION else "") + format_p(c.randomisation_p)


def compare_notes(pairing, a: str = "A", b: str = "B") -> list[str]:
    """Notes for stderr on the queries a comparison of run ``b`` with run ``a`` skipped (``pairing``: a
    :class:`components.engine.compare.Pairing`).

    Examples
    --------
    >>> from components.engine.compare import compare_files
    >>> result = compare_files("1 0 a 1\\n2 0 a 1\\n3 0 a 1\\n", "1 Q0 a 1 1 r\\n2 Q0 a 1 1 r\\n",
    ...                        "1 Q0 a 1 1 r\\n7 Q0 a 1 1 r\\n", ["RR"])
    >>> for note in compare_notes(result.pairing, "A", "C"):
    ...     print(note)
    note: 1 judged query is in neither run A nor run C and was skipped (--complete counts it as 0): '3'
    note: 1 judged query is answered by run A only, not by run C, and was skipped (--complete counts it as 0 for run C): '2'
    note: 1 query of run A or run C has no judgments and was skipped: '7'
    """
    return [_note(section, qids, a=a, b=b) for section, qids in (("Note neither run", pairing.qrels_only),
                                                                  ("Note run A only", pairing.a_only),
                                                                  ("Note run B only", pairing.b_only),
                                                                  ("Note runs unjudged", pairing.run_only)) if qids]


def _file_error(err: Exception, files: Sequence[Path]) -> int:
    """Say on stderr, in one line, why the files could not be used; return 1.

    ``err`` is an ``OSError`` (missing, unreadable), a ``MemoryError`` (the
    reader's names the file; another names ``files``) or the reader's error.
    """
    if isinstance(err, OSError):
        message = _text("Error unreadable", file=err.filename or _text("A file"), reason=err.strerror or err)
    elif isinstance(err, MemoryError) and not str(err):
        message = _text("Error memory", files=" and ".join(map(str, files)))
    else:
        message = _text("Error", message=err)
    print(_printable(message, one_line=True), file=sys.stderr)
    return EXIT_BAD_FILE


def _printable(text: str, one_line: bool = False) -> str:
    """text with each character that is not printable written as ``repr`` does (ESC as ``\\x1b``); line breaks kept,
    unless ``one_line`` (a message of one line: its line breaks are written ``\\n`` too).

    Examples
    --------
    >>> print(_printable("\\x1b[2J\\x1b]0;pwned\\x07q1\\tcaf\\u00e9\\nnext line"))
    \\x1b[2J\\x1b]0;pwned\\x07q1\\tcafé
    next line
    >>> print(_printable("cannot read a\\nb", one_line=True))
    cannot read a\\nb
    """
    lines = [text] if one_line else text.split("\n")
    return "\n".join(line if line.isprintable() else "".join(c if c.isprintable() else repr(c)[1:-1] for c in line)
                     for line in lines)


def _emit(output: str, notes_to_stderr, escaped: bool = False) -> int:
    """Print the notes on stderr and the output on stdout, :func:`_printable` (unless the output is ``escaped``
    already, as trec_eval's layout is, whose tabs separate columns); return 0 (or the broken-pipe status)."""
    try:
        for note in notes_to_stderr:
            print(_printable(note), file=sys.stderr)
        print(output if escaped else _printable(output))
        sys.stdout.flush()
    except BrokenPipeError:
        return _stop_writing()
    return 0


def _stop_writing() -> int:
    """After a broken pipe: send what is left of stdout to devnull, so the exit's flush fails no more.

    Returns the status to exit with (:data:`EXIT_BROKEN_PIPE`). The remedy is
    the one Python's documentation gives for SIGPIPE.
    """
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return EXIT_BROKEN_PIPE


if __name__ == "__main__":
    sys.exit(main())
