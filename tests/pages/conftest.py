"""Page tests: each test gets the live class's rate limits fresh. AppTest gives every session the same id and
no address, so every session of the suite would be one client (:func:`components.live_class.panel.client`)."""
from __future__ import annotations

import pytest

from components.live_class import panel
from components.serving.rate_limit import RateLimit


@pytest.fixture(autouse=True)
def fresh_class_rate_limits(monkeypatch):
    limits = (RateLimit(panel.LIMITS.join_tries), RateLimit(panel.LIMITS.join_tries))
    monkeypatch.setattr(panel, "rate_limits", lambda: limits)
