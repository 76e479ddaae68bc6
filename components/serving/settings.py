"""Server-wide limits for a hosted instance, read once from environment variables.

A workshop organiser sets them before ``streamlit run app.py`` (docs/hosting.md,
"Rankwise's limits", lists them; its "Memory" gives advice on sizing):

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
``RANKWISE_CLASSES``
    the most live classes this server holds at once (all replicas together with
    Redis); "Start a class" beyond it is refused with a message. Default 200.
``RANKWISE_CLASS_MEMBERS``
    the most learners on one class's roll call (those not heard from for
    30 s make room); a learner beyond it follows the class but is not
    counted. Default 300.
``RANKWISE_CLASS_ANSWERS``
    the most answers one question of a class takes (one per learner). Default 300.
``RANKWISE_JOIN_TRIES``
    how many codes that join no class one client (an IP address, else a
    session) may type in a minute; then "too many attempts, wait a minute".
    Right codes are not counted. The same budget, per minute, bounds the
    classes one client starts. Default 20.
``RANKWISE_CLASS_POLL_MS``, ``RANKWISE_CLASS_HERE_MS``, ``RANKWISE_ROLL_CALL_MS``, ``RANKWISE_CLASS_COUNT_MS``
    a live class's timers, in milliseconds: how often a follower reads the
    class's version (default 1000), a joined learner says it is there (10000),
    the instructor's roll call (5000) and count of answers (1000) are read
    again. Shorter values make a test server quick, and a busy server busier.

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
CLASSES = Setting("RANKWISE_CLASSES", 200, 1, 100_000, "classes")
CLASS_MEMBERS = Setting("RANKWISE_CLASS_MEMBERS", 300, 1, 100_000, "learners")
CLASS_ANSWERS = Setting("RANKWISE_CLASS_ANSWERS", 300, 1, 100_000, "answers")
JOIN_TRIES = Setting("RANKWISE_JOIN_TRIES", 20, 1, 100_000, "attempts a minute")
CLASS_POLL = Setting("RANKWISE_CLASS_POLL_MS", 1000, 50, 600_000, "ms")
CLASS_HERE = Setting("RANKWISE_CLASS_HERE_MS", 10_000, 50, 600_000, "ms")
ROLL_CALL = Setting("RANKWISE_ROLL_CALL_MS", 5000, 50, 600_000, "ms")
CLASS_COUNT = Setting("RANKWISE_CLASS_COUNT_MS", 1000, 50, 600_000, "ms")
SETTINGS = (SESSION_UPLOAD, PARSED_CACHE, CHART_CACHE, CLASS_HOURS, CLASSES, CLASS_MEMBERS, CLASS_ANSWERS, JOIN_TRIES,
            CLASS_POLL, CLASS_HERE, ROLL_CALL, CLASS_COUNT)


@dataclass(frozen=True)
class Limits:
    """The limits in force (bytes, entries)."""

    session_upload_bytes: int
    parsed_cache_bytes: int
    chart_cache_entries: int
    class_seconds: int = CLASS_HOURS.default * 3600
    classes: int = CLASSES.default
    class_members: int = CLASS_MEMBERS.default
    class_answers: int = CLASS_ANSWERS.default
    join_tries: int = JOIN_TRIES.default  # per client per minute
    poll_seconds: float = CLASS_POLL.default / 1000
    here_seconds: float = CLASS_HERE.default / 1000
    roll_call_seconds: float = ROLL_CALL.default / 1000
    count_seconds: float = CLASS_COUNT.default / 1000


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
                  chart_cache_entries=values[CHART_CACHE], class_seconds=values[CLASS_HOURS] * 3600,
                  classes=values[CLASSES], class_members=values[CLASS_MEMBERS], class_answers=values[CLASS_ANSWERS],
                  join_tries=values[JOIN_TRIES], poll_seconds=values[CLASS_POLL] / 1000,
                  here_seconds=values[CLASS_HERE] / 1000, roll_call_seconds=values[ROLL_CALL] / 1000,
                  count_seconds=values[CLASS_COUNT] / 1000), notes


LIMITS, NOTES = read_limits(os.environ)
for _note in NOTES:
    logging.getLogger(__name__).warning(_note)
