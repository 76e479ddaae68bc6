"""The readable report (the default ``--format table``): the files, the gain and the counts, then an aligned table
of values rounded to 3 decimals; with several runs the comparisons and their readings; the diagnosis in words; the
``--power`` and ``--explain`` blocks; and the notes for stderr. The words are lessons/text/cli.md's and
lessons/text/diagnose.md's."""
from __future__ import annotations

import textwrap
from typing import Mapping, Sequence

from components.cli.output import printable as _printable
from components.cli.output import text as _text
from components.cli.report import Report
from components.course.findings import contrast_sentence, counted, describe
from components.engine import model, run_diagnosis
from components.engine.formatting import fmt, signed
from components.engine.metrics import GAIN_FORMULAS, Gain

_SHOWN_QIDS = 5  # query ids listed in a note
_WRAP = 100  # the diagnosis's sentences are wrapped at this width, indented by two spaces


def format_table(report: Report, per_query: bool = False, qrels_name: str = "qrels", run_name: str = "run") -> str:
    """A readable report: the files, the gain, the query counts, and an aligned table of values.

    Values are rounded for display (3 decimals); the last row is the mean.

    Examples
    --------
    >>> from components.cli.evaluate import run_evaluation
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


def notes(judged: model.JudgedRun, trailing_lines: int = 0) -> list[str]:
    """Notes for stderr: the run's lines with text after the tag, and the queries skipped (or scored 0 under --complete).

    Examples
    --------
    >>> from components.formats.readers import read
    >>> judged = model.judge(read("1 0 a 1\\n2 0 b 1\\n", "qrels").parsed,
    ...                      read("1 Q0 a 1 1 r\\n7 Q0 a 1 1 r\\n8 Q0 a 1 1 r\\n", "run").parsed)
    >>> for note in notes(judged, 412):
    ...     print(note)
    note: 412 lines of the run had text after the tag; ignored, as trec_eval does
    note: 1 judged query is not in the run and was skipped (--complete counts it as 0): '2'
    note: 2 queries of the run have no judgments and were skipped: '7', '8'
    """
    missing = "Note missing complete" if judged.complete else "Note missing"
    trailing = [_text("Note trailing", n=trailing_lines)] if trailing_lines else []
    return trailing + [_note(section, qids) for section, qids in ((missing, judged.qrels_only),
                                                                  ("Note unjudged", judged.run_only)) if qids]


def compare_notes(pairing, a: str = "A", b: str = "B") -> list[str]:
    """Notes for stderr on the queries a comparison of run ``b`` with run ``a`` skipped (``pairing``: a
    :class:`components.engine.compare.Pairing`).

    Examples
    --------
    >>> from components.formats.readers import read
    >>> from components.engine.compare import compare_judged
    >>> qrels = read("1 0 a 1\\n2 0 a 1\\n3 0 a 1\\n", "qrels").parsed
    >>> a, c = (model.judge(qrels, read(r, "run").parsed) for r in ("1 Q0 a 1 1 r\\n2 Q0 a 1 1 r\\n",
    ...                                                             "1 Q0 a 1 1 r\\n7 Q0 a 1 1 r\\n"))
    >>> result = compare_judged(a, c, ["RR"], "linear")
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
    >>> from components.cli.evaluate import run_evaluation
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


def _wrapped(text: str, first: str = "  ") -> list[str]:
    """A sentence wrapped at :data:`_WRAP` columns, its first line indented by ``first``, the others by two spaces."""
    return textwrap.wrap(" ".join(text.split()), _WRAP, initial_indent=first, subsequent_indent="  ",
                         break_long_words=False, break_on_hyphens=False)


# ----------------------------------------------------------------------------
# Several runs against a baseline
# ----------------------------------------------------------------------------

def format_many(result, gain: Gain = "linear", per_query: bool = False, qrels_name: str = "qrels") -> str:
    """Several runs against a baseline as text: the files, how the tests and intervals are made, each run's
    means with their intervals, each comparison with raw and corrected p-values, and the readings.

    ``result`` is a :class:`components.engine.many_runs.ManyRuns`. Values are rounded for display; the words
    come from ``lessons/text/cli.md``.

    Examples
    --------
    >>> from components.formats.readers import read
    >>> from components.engine.many_runs import compare_many
    >>> qrels = read("1 0 a 1\\n2 0 a 1\\n", "qrels").parsed
    >>> runs = [model.judge(qrels, read(r, "run").parsed) for r in ("1 Q0 a 1 1 r\\n2 Q0 x 1 1 r\\n",
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


def first_boot(result):
    """The bootstrap interval of the first comparison (all share the resamples and the seed)."""
    return next(iter(result.versus.values())).boot


def randomisation_cell(c) -> str:
    """A comparison's randomisation p for the table: "≈ " before it when it is the normal approximation."""
    from components.engine.compare import NORMAL_APPROXIMATION, format_p

    return ("≈ " if c.randomisation_method == NORMAL_APPROXIMATION else "") + format_p(c.randomisation_p)


def _table(rows: list[list[str]], left: int, also: tuple[int, ...] = ()) -> list[str]:
    """Rows aligned in columns: the first ``left`` columns (and those in ``also``) to the left, the rest right."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.ljust(w) if c < left or c in also else cell.rjust(w)
                      for c, (cell, w) in enumerate(zip(row, widths))).rstrip() for row in rows]


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


def format_power(result, delta: float, plans: Mapping) -> str:
    """``--power DELTA``: for each run and measure, the queries a paired t-test needs to detect ``delta``, the
    smallest difference detectable with the queries compared, and the power they give; the formula first. ``plans``:
    run, measure -> its plan (:func:`components.cli.evaluate.power_plans`), or None (left out)."""
    from components.course.run_comparison import run_labels
    from components.engine import power

    labels = run_labels(result)
    rows = [["run", "measure", "queries", "sd of differences", "needed", "detectable now", "power now"]]
    formulas: list[str] = []
    for run in result.others:
        for m in result.measures:
            plan = plans[run, m]
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
