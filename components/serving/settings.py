"""Server-wide limits for a hosted instance, read once from environment variables.

A workshop organiser sets them before ``streamlit run app.py`` (the README's
"Hosting a workshop" lists them with advice on sizing):

``RANKWISE_SESSION_UPLOAD_MB``
    the most uploaded data one learner's session may hold, in MiB (the
    qrels, the run, the second run and the last pair that read cleanly,
    each file counted once); a file that would take a session over it is
    refused with a message. Default 700: one MS MARCO-sized pair fits.
``RANKWISE_PARSED_CACHE_MB``
    the memory budget, in MiB, of parsed and joined uploads, shared by all
    sessions (one copy per distinct file); least recently used files are let
    go first. Default 2048.
``RANKWISE_CHART_CACHE_ENTRIES``
    how many chart templates (one per chart shape: axes, series, fonts; the
    rows are filled in on each run) are kept for every session to reuse, a
    few KiB each. Default 2000.
``RANKWISE_CLASS_HOURS``
    how long a live class is kept after its last change (the instructor's
    move or a learner's answer), in hours. Default 12.

A value that is not a whole number inside its bounds is ignored (the default
applies) and named in a note, which the app writes to the server's log.
"""
from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from typing import Mapping

from components.engine.checks import read_whole

MIB = 1024 * 1024


@dataclass(frozen=True)
class Setting:
    """One environment variable: its name, default, bounds, and what it is for."""

    env: str
    default: int
    lo: int
    hi: int
    unit: str


SESSION_UPLOAD = Setting("RANKWISE_SESSION_UPLOAD_MB", 700, 1, 1_000_000, "MiB")
PARSED_CACHE = Setting("RANKWISE_PARSED_CACHE_MB", 2048, 16, 10_000_000, "MiB")
CHART_CACHE = Setting("RANKWISE_CHART_CACHE_ENTRIES", 2000, 10, 10_000_000, "entries")
CLASS_HOURS = Setting("RANKWISE_CLASS_HOURS", 12, 1, 168, "hours")
SETTINGS = (SESSION_UPLOAD, PARSED_CACHE, CHART_CACHE, CLASS_HOURS)


@dataclass(frozen=True)
class Limits:
    """The limits in force (bytes, entries)."""

    session_upload_bytes: int
    parsed_cache_bytes: int
    chart_cache_entries: int
    class_seconds: int = CLASS_HOURS.default * 3600


def read_limits(environ: Mapping[str, str]) -> tuple[Limits, list[str]]:
    """The limits from ``environ`` (defaults where unset), and a note for each value that was ignored.

    Examples
    --------
    >>> limits, notes = read_limits({"RANKWISE_SESSION_UPLOAD_MB": "50"})
    >>> limits.session_upload_bytes == 50 * MIB, notes
    (True, [])
    >>> limits, notes = read_limits({"RANKWISE_PARSED_CACHE_MB": "lots"})
    >>> limits.parsed_cache_bytes == 2048 * MIB
    True
    >>> notes
    ["RANKWISE_PARSED_CACHE_MB='lots' ignored: expected a whole number of MiB from 16 to 10000000; using 2048."]
    """
    values, notes = {}, []
    for setting in SETTINGS:
        raw = environ.get(setting.env)
        values[setting] = setting.default
        if raw is None or not raw.strip():
            continue
        value = read_whole(raw)
        if value is None or not setting.lo <= value <= setting.hi:
            notes.append(f"{setting.env}={raw!r} ignored: expected a whole number of {setting.unit} from "
                         f"{setting.lo} to {setting.hi}; using {setting.default}.")
        else:
            values[setting] = value
    return Limits(session_upload_bytes=values[SESSION_UPLOAD] * MIB,
                  parsed_cache_bytes=values[PARSED_CACHE] * MIB,
                  chart_cache_entries=values[CHART_CACHE], class_seconds=values[CLASS_HOURS] * 3600), notes


LIMITS, NOTES = read_limits(os.environ)
for _note in NOTES:
    logging.getLogger(__name__).warning(_note)
