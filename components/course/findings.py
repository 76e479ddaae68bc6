"""A diagnosis's findings in words (lessons/text/diagnose.md), for the command line and the "Your data" page.

The checks and their numbers are :mod:`components.engine.run_diagnosis`'s; this module only fills the
sentences. No Streamlit import here.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from components.course import prose
from components.engine import run_diagnosis
from components.engine.formatting import fmt, signed
from components.engine.measures import is_count

DIAGNOSE = "diagnose"  # lessons/text/diagnose.md: the words of the diagnosis's findings
_PERCENT_VALUES = ("overall", "threshold", "lowest")  # a finding's values shown as percentages
_COUNTED_VALUES = {"documents": "document", "merged": "chunk", "tied": "query", "changed": "query"}  # values shown with their noun


@dataclass(frozen=True)
class FindingText:
    """A finding in words: its title, what it found, one line per measure on what it does to it, and advice."""

    title: str
    body: str
    effects: tuple[str, ...]
    advice: str


def describe(finding: run_diagnosis.Finding, quote: Callable[[str], str] = repr, app: bool = False) -> FindingText:
    """A finding's sentences from ``lessons/text/diagnose.md``, filled with its numbers.

    ``app``: the advice names the app's controls where the command line's names flags (a section
    "<check> advice app"), for a page; without it, the command line's flags.

    Values show with 3 decimals, shares as percentages, counts with their noun ("3 queries"), ids through
    ``quote``. A finding with nothing to report has its "ok" (or "not applicable") sentence as body, and no
    effect or advice.

    Examples
    --------
    >>> text = describe(run_diagnosis.Finding("short_lists", 2, ("1", "7"), "note", {"k": 10, "shortest": 3}, None))
    >>> text.title, text.body.split(".")[0]
    ('Lists shorter than k', 'The list holds fewer than 10 documents for 2 queries (the shortest holds 3)')
    >>> describe(run_diagnosis.Finding("ties", 1, ("1",), "warning", {"applies": True, "k": 1, "changed": 1,
    ...          "tied": 1, "effects": {"RR": (1.0, 0.5)}}, None)).effects
    ("RR: 1.000 as reported, ties by document id; 0.500 with ties in the file's order (−0.500)",)
    """
    check, values = finding.check, finding.values
    pool: dict[str, object] = {"queries": counted(finding.count, "query")}
    for key, value in values.items():
        if key in _PERCENT_VALUES:
            pool[key] = fmt(value, "percent")
        elif key in _COUNTED_VALUES:
            pool[key] = counted(value, _COUNTED_VALUES[key])
        else:
            pool[key] = quote(value) if isinstance(value, str) else value
    if "k" in values:
        pool["k_next"] = values["k"] + 1
    title = prose.section(DIAGNOSE, f"{check} title")
    if finding.severity == "ok":
        variant = "not applicable" if values.get("applies") is False else "ok"
        return FindingText(title, prose.text_choosing(DIAGNOSE, f"{check} {variant}", pool), (), "")
    variant = "inside" if check == "ties" and not finding.count else "found"
    effect = f"{check} effect complete" if values.get("complete") else f"{check} effect"
    effects = values.get("effects", {})
    lines = tuple(prose.text(DIAGNOSE, effect, measure=name, now=_value(name, now), other=_value(name, other),
                             change=_change(now, other))
                  for name, (now, other) in effects.items())
    advice = f"{check} advice app" if app and f"{check} advice app" in prose.sections(DIAGNOSE) else f"{check} advice"
    return FindingText(title, prose.text_choosing(DIAGNOSE, f"{check} {variant}", pool), lines,
                       prose.text_choosing(DIAGNOSE, advice, pool))


def counted(n: int, noun: str) -> str:
    """A count with its noun, from diagnose.md's "Count ..." sections: "1 query", "1,234 queries"."""
    return prose.text(DIAGNOSE, f"Count {noun}", n=f"{n:,}")


def _value(measure: str, value: float | None) -> str:
    """A measure's value as the table shows it (a count as a whole number; "undefined" for None)."""
    if value is None:
        return fmt(float("nan"))
    return str(int(value)) if is_count(measure) else fmt(value)


def _change(now: float | None, other: float | None) -> str:
    """other − now with its sign ("undefined" when either is None)."""
    return fmt(float("nan")) if now is None or other is None else signed(other - now)


def contrast_sentence(contrast: run_diagnosis.Contrast, run: str, baseline: str) -> str:
    """How a run's diagnosis differs from the baseline's, in one sentence (``lessons/text/diagnose.md``).

    Examples
    --------
    >>> shallow = run_diagnosis.Finding("unjudged", 3, (), "warning", {"k": 10, "overall": 0.568}, None)
    >>> deep = run_diagnosis.Finding("unjudged", 1, (), "note", {"k": 10, "overall": 0.616}, None)
    >>> contrast_sentence(run_diagnosis.Contrast("unjudged", deep, shallow), "B", "A").split(";")[0]
    'B is judged less deeply than A: Judged@10 is 56.8% against 61.6%'
    >>> ok = run_diagnosis.Finding("ties", 0, (), "ok", {"applies": True, "k": 10}, None)
    >>> tied = run_diagnosis.Finding("ties", 2, ("1", "2"), "warning", {"applies": True, "k": 10}, None)
    >>> contrast_sentence(run_diagnosis.Contrast("ties", ok, tied), "B", "A")
    'Tied scores at the cutoff: a warning (2 queries) for B, nothing to report for A.'
    """
    base, other = contrast.base, contrast.other
    if contrast.check == "unjudged":
        return prose.text(DIAGNOSE, "Contrast judged less" if contrast.judged_less else "Contrast judged more",
                          run=run, baseline=baseline, k=other.values["k"], other=fmt(other.values["overall"], "percent"),
                          base=fmt(base.values["overall"], "percent"))

    def state(finding: run_diagnosis.Finding) -> str:
        found = prose.text(DIAGNOSE, f"Contrast {finding.severity}")
        return found if finding.severity == "ok" or not finding.count else \
            prose.text(DIAGNOSE, "Contrast counted", found=found, queries=counted(finding.count, "query"))

    return prose.text(DIAGNOSE, "Contrast", title=prose.section(DIAGNOSE, f"{contrast.check} title"), run=run,
                      other=state(other), baseline=baseline, base=state(base))
