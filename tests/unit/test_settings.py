"""The hosting limits read from the environment: defaults, valid values, and values ignored with a note."""
from __future__ import annotations

import pytest

from components.serving import settings
from components.serving.settings import MIB, read_limits


def test_defaults_when_nothing_is_set():
    limits, notes = read_limits({})
    assert notes == []
    assert limits == settings.Limits(session_upload_bytes=700 * MIB, parsed_cache_bytes=2048 * MIB,
                                     chart_cache_entries=2000)


def test_each_setting_is_read():
    limits, notes = read_limits({"RANKWISE_SESSION_UPLOAD_MB": " 50 ", "RANKWISE_PARSED_CACHE_MB": "1_024",
                                 "RANKWISE_CHART_CACHE_ENTRIES": "300", "UNRELATED": "x"})
    assert notes == []
    assert (limits.session_upload_bytes, limits.parsed_cache_bytes, limits.chart_cache_entries) == \
        (50 * MIB, 1024 * MIB, 300)


@pytest.mark.parametrize("raw", ["0", "-5", "1.5", "50MB", "lots", "99999999999"])
def test_a_bad_value_is_ignored_and_named(raw):
    limits, notes = read_limits({"RANKWISE_SESSION_UPLOAD_MB": raw})
    assert limits.session_upload_bytes == settings.SESSION_UPLOAD.default * MIB
    assert len(notes) == 1 and notes[0].startswith(f"RANKWISE_SESSION_UPLOAD_MB={raw!r} ignored")
    assert "whole number of MiB from 1 to" in notes[0]


def test_an_empty_value_means_the_default_without_a_note():
    assert read_limits({"RANKWISE_CHART_CACHE_ENTRIES": "  "}) == (read_limits({})[0], [])


def test_the_live_class_limits_and_timers_are_read():
    limits, notes = read_limits({"RANKWISE_CLASSES": "5", "RANKWISE_CLASS_MEMBERS": "40", "RANKWISE_CLASS_ANSWERS": "41",
                                 "RANKWISE_JOIN_TRIES": "3", "RANKWISE_CLASS_POLL_MS": "200",
                                 "RANKWISE_CLASS_HERE_MS": "500", "RANKWISE_ROLL_CALL_MS": "300",
                                 "RANKWISE_CLASS_COUNT_MS": "250"})
    assert notes == []
    assert (limits.classes, limits.class_members, limits.class_answers, limits.join_tries) == (5, 40, 41, 3)
    assert (limits.poll_seconds, limits.here_seconds, limits.roll_call_seconds, limits.count_seconds) == \
        (0.2, 0.5, 0.3, 0.25)


def test_the_live_class_timers_default_to_what_they_were():
    limits = read_limits({})[0]
    assert (limits.poll_seconds, limits.here_seconds, limits.roll_call_seconds, limits.count_seconds) == \
        (1.0, 10.0, 5.0, 1.0)
    assert read_limits({"RANKWISE_CLASS_POLL_MS": "0"})[0].poll_seconds == 1.0  # below its bound: the default
