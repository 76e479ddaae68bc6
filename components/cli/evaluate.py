"""``rankwise eval``: read the qrels and the runs, run the engine, and hand the result to the renderer the layout
asks for (render_text, render_trec, render_json, render_report). Nothing here formats."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Sequence, cast

from components.cli import options, render_json, render_report, render_text, render_trec
from components.cli.output import emit, file_error
from components.cli.output import text as _text
from components.cli.report import Report
from components.engine import model, run_diagnosis
from components.engine.measures import DEFAULT_MEASURES, Measure, evaluate, parse_measures, uses_measure_set
from components.engine.metrics import Gain, TrecEval
from components.formats import beir_zip, decode, readers, trec_layout
from components.formats.json_formats import Fields


def run_evaluation(qrels: decode.Source, run: decode.Source, measures: Sequence[Measure | str] = DEFAULT_MEASURES,
                   gain: Gain = "linear", complete: bool = False, relevance_level: int = 1,
                   judged_only: bool = False, max_docs: int | None = None, diagnose: bool = False,
                   diagnosis_k: int | None = None, chunks: str | None = None, qrels_fields: Fields | None = None,
                   run_fields: Fields | None = None, trec_eval: TrecEval = "9", trec_qids: bool = False) -> Report:
    """Read both files, judge the run and evaluate the measures on every evaluated query, as ``trec_eval``'s version
    computes them ("9": 9.0.7, as pytrec_eval; "10": 10.0; they differ in IPrec@x and 11pt_avg only).

    ``relevance_level`` (trec_eval's -l): a grade at least this counts as relevant for the binary measures
    (nDCG keeps the grades). ``max_docs`` (trec_eval's -M): each query's top ``max_docs`` documents are kept,
    the rest dropped. ``judged_only`` (trec_eval's -J): then the run's unjudged documents are dropped, the rest
    ranked on. ``diagnose``: also diagnose the pair (:func:`components.engine.run_diagnosis.diagnose`, on the
    files as read: -J and -M do not apply) at ``diagnosis_k`` (default: :func:`components.engine.run_diagnosis.diagnosis_cutoff`). Files in
    any format :mod:`components.formats.readers` reads (TREC, CSV/TSV, BEIR, JSON, JSONL); ``chunks``: a separator
    to count chunks as their document (``doc12#3`` -> ``doc12``, best rank kept), or None; ``qrels_fields``,
    ``run_fields``: which keys of JSON records hold what, instead of the guess. ``trec_qids``: the evaluated
    query ids are to be written in trec_eval's layout, so each must be one a TREC file can carry (JSON and CSV
    take ids with spaces): TrecFormatError naming the first that is not
    (:func:`components.formats.trec_layout.check_writable`).

    Raises :class:`components.engine.model.TrecFormatError` for a file that cannot be
    read and ``ValueError`` for an unknown measure name.

    Examples
    --------
    >>> report = run_evaluation("1 0 a 1\\n2 0 b 2\\n", "1 Q0 x 1 2 r\\n1 Q0 a 2 1 r\\n2 Q0 b 1 1 r\\n", ["MRR", "P@1"])
    >>> report.mean
    {'RR': 0.75, 'P@1': 0.5}
    """
    read_qrels, read_run = readers.read_pair(qrels, run, gain=gain, qrels_fields=qrels_fields, run_fields=run_fields,
                                             chunks=chunks)
    judgments, results = cast(model.Qrels, read_qrels.parsed), cast(model.Run, read_run.parsed)
    judged = model.judge(judgments, results, complete)
    if trec_qids:
        trec_layout.check_writable(judgments, judged.qids, docids=False)
    queries = judged.adjusted(relevance_level, judged_only, max_docs).queries
    diagnosis = None if not diagnose else run_diagnosis.diagnose_read(
        read_qrels, read_run, judged, k=diagnosis_k or run_diagnosis.diagnosis_cutoff(measures), measures=measures,
        gain=gain, relevance_level=relevance_level, chunks=chunks)
    return Report(gain, evaluate(queries, measures, gain, trec_eval), judged, results.trailing_lines, results.tag,
                  diagnosis)


def judge_runs(qrels: decode.Source, runs: Sequence[decode.Source], gain: Gain = "linear", complete: bool = False,
               relevance_level: int = 1, judged_only: bool = False, max_docs: int | None = None,
               chunks: str | None = None, qrels_fields: Fields | None = None,
               run_fields: Fields | None = None) -> list[model.JudgedRun]:
    """Read the qrels and each run (any format :mod:`components.formats.readers` reads, as
    :func:`run_evaluation` reads them) and judge each run with trec_eval's -c, -l, -J and -M."""
    judgments = cast(model.Qrels, readers.read(qrels, "qrels", fields=qrels_fields, chunks=chunks).parsed)
    model.check_gain_fits(judgments, gain)
    return [model.judge(judgments, cast(model.Run, readers.read(run, "run", fields=run_fields, chunks=chunks).parsed),
                       complete).adjusted(relevance_level, judged_only, max_docs) for run in runs]


def eval_main(argv: Sequence[str] | None = None) -> int:
    """``rankwise eval`` (``argv``: what follows it); return the exit status (0 ok, 1 a file that cannot be read,
    2 usage)."""
    parser = options.build_parser()
    return run_eval(parser, parser.parse_args(argv))


def run_eval(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """``rankwise eval`` once its parser has read the command line; return the exit status."""
    measures = parse_measures(args.measures or DEFAULT_MEASURES)  # each checked as it was read (options._measure)
    diagnose = args.diagnose or args.diagnose_k is not None
    layout = "json" if args.json else args.format
    if args.qrels.is_dir():  # a BEIR folder: its qrels/<split>.tsv
        try:
            args.qrels = readers.beir_qrels(args.qrels, args.split or "test")
        except FileNotFoundError as err:
            return file_error(err, (args.qrels,))
        print(_text("Note qrels of folder", file=args.qrels), file=sys.stderr)
    elif args.split is not None:
        parser.error(_text("Split needs a folder"))
    elif beir_zip.is_zip_file(args.qrels):  # a BEIR dataset's zip: the readers take its qrels/test.tsv
        try:
            member = beir_zip.qrels_member(args.qrels, str(args.qrels))
        except model.TrecFormatError as err:
            return file_error(err, (args.qrels,))
        print(_text("Note qrels of zip", file=member, zip=args.qrels), file=sys.stderr)
    runs, baseline = options.check_eval(parser, args, measures, layout)
    args.run = runs[0]
    if len(runs) > 1:
        return _main_many(args, measures, runs, baseline, layout)
    try:
        report = run_evaluation(args.qrels, args.run, measures, args.gain, args.complete, args.rel_level,
                                args.judged_only, args.max_docs, diagnose, args.diagnose_k, args.chunks,
                                args.qrels_fields, args.run_fields, args.trec_eval,
                                trec_qids=layout == "trec" and args.per_query)
    except (OSError, MemoryError, model.TrecFormatError) as err:
        return file_error(err, (args.qrels, args.run))
    to_stderr = render_text.notes(report.judged, report.trailing_lines)
    if layout == "json":
        output = render_json.to_json(report, args.per_query)
    elif layout in render_report.REPORT_TABLES:
        output = render_report.report_one(report, layout, str(args.run))
    elif layout == "trec":
        output = render_trec.to_trec(report, args.per_query, runid=uses_measure_set(args.measures or ()))
        to_stderr += [render_text.format_diagnosis(report.diagnosis)] if report.diagnosis else []  # stdout stays trec_eval's
    else:
        output = render_text.format_table(report, args.per_query, str(args.qrels), str(args.run))
        output += f"\n\n{render_text.format_diagnosis(report.diagnosis)}" if report.diagnosis else ""
    return emit(output, to_stderr, escaped=layout == "trec")


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
                                        args.correction, trec_eval=args.trec_eval)
        diagnoses = diagnose_runs(args, measures, runs) if args.diagnose or args.diagnose_k is not None else None
    except (OSError, MemoryError, model.TrecFormatError, NothingToCompare) as err:  # a file that cannot be read,
        # or no query both runs answer; any other error is a fault of this program, not of the files
        return file_error(err, (args.qrels, *runs))
    labels = run_labels(result)
    base = result.names[baseline]
    plans = power_plans(result, args.power) if args.power is not None else None
    why = explained(result, judged, args.explain, args.gain) if args.explain is not None else None
    if layout in render_report.REPORT_TABLES:
        output = report_many(result, layout, args.gain)  # type: ignore[arg-type]  # a key of REPORT_TABLES
    elif layout == "json":
        output = render_json.many_to_json(result, args.gain, labels, args.per_query, plans, why, diagnoses)
    else:
        output = render_text.format_many(result, args.gain, args.per_query, str(args.qrels))
        if diagnoses is not None:
            output += "\n\n" + render_text.format_diagnoses(diagnoses, labels, base)
        if plans is not None:
            output += "\n\n" + render_text.format_power(result, args.power, plans)
        if why is not None:
            output += "\n\n" + render_text.format_explain(result, why, args.explain)
    notes_about = [note for run in result.others
                   for note in render_text.compare_notes(result.pairings[run], labels[base], labels[run])]
    return emit(output, notes_about)


def diagnose_runs(args: argparse.Namespace, measures: Sequence[Measure],
                  runs: Sequence[Path]) -> dict[str, run_diagnosis.Diagnosis]:
    """Each run's diagnosis against the qrels (``--diagnose`` with several runs), at the same k, by run name."""
    return {str(run): cast(run_diagnosis.Diagnosis, run_evaluation(
        args.qrels, run, measures, args.gain, args.complete, args.rel_level, diagnose=True, diagnosis_k=args.diagnose_k,
        chunks=args.chunks, qrels_fields=args.qrels_fields, run_fields=args.run_fields).diagnosis) for run in runs}


def explained(result, judged: Sequence[model.JudgedRun], qid: str, gain: Gain) -> dict:
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


def power_plans(result, delta: float) -> dict:
    """``--power DELTA``: for each run and measure (``(run, measure)``), what the run's differences from the
    baseline say about the queries needed to detect ``delta`` (:func:`components.engine.power.plan`; None with
    fewer than 2 compared queries)."""
    from components.engine import power

    plans = {}
    for run in result.others:
        for m in result.measures:
            diff = result.versus[run, m].comparison.diff
            plans[run, m] = power.plan(diff, delta) if diff.size >= 2 else None
    return plans
