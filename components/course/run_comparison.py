"""A comparison of several runs with a baseline in words (lessons/text/cli.md), for the command line and the
"Compare runs" page: the runs' letters, intervals as text, and the plain readings of what survives the correction.

The numbers are :mod:`components.engine.many_runs`'; this module only fills the sentences. No Streamlit import
here.
"""
from __future__ import annotations

import string

import numpy as np

from components.course import prose
from components.engine import bootstrap, compare, corrections
from components.engine.formatting import fmt, signed
from components.engine.many_runs import ManyRuns

RUN_LABELS = string.ascii_uppercase  # the runs' letters in a comparison, in the order given


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
                    skew=fmt(bootstrap.skewness(v.comparison.diff)))
              for v in family if v.intervals_disagree]
    return lines
