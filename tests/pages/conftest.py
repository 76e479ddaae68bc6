"""Page tests: each test gets the live class's rate limits fresh. AppTest gives every session the same id and
no address, so every session of the suite would be one client (:func:`live_class_ui.client`)."""
from __future__ import annotations

import pytest

from components.serving.rate_limit import RateLimit
from components.ui import live_class_ui


@pytest.fixture(autouse=True)
def fresh_class_rate_limits(monkeypatch):
    limits = (RateLimit(live_class_ui.LIMITS.join_tries), RateLimit(live_class_ui.LIMITS.join_tries))
    monkeypatch.setattr(live_class_ui, "rate_limits", lambda: limits)
