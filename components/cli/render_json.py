"""The JSON that ``--json`` (or ``--format json``) prints: strict (never ``NaN`` or ``Infinity``; undefined values
are ``null``), canonical measure names, values unrounded. Its fields: docs/cli.md."""
from __future__ import annotations

import json
from typing import Mapping, TypedDict

from components.cli.report import Report
from components.course.findings import contrast_sentence
from components.engine import run_diagnosis
from components.engine.metrics import Gain


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


def to_json(report: Report, per_query: bool = False) -> str:
    """The report as JSON: gain, num_queries, skipped, mean and (optionally) per_query; floats unrounded.

    Examples
    --------
    >>> from components.cli.evaluate import run_evaluation
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


def many_to_json(result, gain: Gain, labels: Mapping[str, str], per_query: bool = False, plans: dict | None = None,
                 why: dict | None = None, diagnoses: Mapping[str, run_diagnosis.Diagnosis] | None = None) -> str:
    """Several runs against a baseline as JSON (``result``: a :class:`components.engine.many_runs.ManyRuns`): its
    fields, the labels and each pair's skipped queries; each run's differences from the baseline per query with
    ``per_query``; ``power`` from the ``plans`` (run, measure -> plan, or None), ``explain`` from ``why`` (run ->
    measure -> attribution, or None when the query is not in both) and the ``diagnoses`` (run -> diagnosis, with
    how each differs from the baseline's), when given."""
    base = result.names[result.baseline]
    document = {"gain": gain, "labels": labels, **result.as_dict(),
                "skipped": {run: p.skipped for run, p in result.pairings.items()}}
    if per_query:
        document["per_query"] = {run: {qid: {m: float(result.versus[run, m].comparison.diff[i])
                                             for m in result.measures}
                                       for i, qid in enumerate(result.pairings[run].qids)}
                                 for run in result.others}
    if plans is not None:
        document["power"] = {run: {m: _as_dict(plans[run, m]) for m in result.measures} for run in result.others}
    if why is not None:
        document["explain"] = {run: {m: _as_dict(e) for m, e in (measures or {}).items()} if measures is not None
                               else None for run, measures in why.items()}
    if diagnoses is not None:
        document["diagnosis"] = {run: d.as_dict()["diagnosis"] for run, d in diagnoses.items()}
        document["diagnosis_contrasts"] = {
            run: [{"check": c.check, "sentence": contrast_sentence(c, labels[run], labels[base])}
                  for c in run_diagnosis.contrasts(diagnoses[base], diagnoses[run])] for run in result.others}
    return json.dumps(document, allow_nan=False)


def _as_dict(value):
    """A plan or attribution as JSON fields; None stays None."""
    return None if value is None else value.as_dict()
