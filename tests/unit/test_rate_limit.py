"""The per-client rate limit of a live class's join attempts and starts: a sliding minute, per client, bounded."""
from __future__ import annotations

from components.serving import rate_limit
from components.serving.rate_limit import RateLimit


def test_a_client_gets_its_uses_a_minute_and_others_are_not_touched():
    now = [0.0]
    limit = RateLimit(3, clock=lambda: now[0])
    for t in (0.0, 10.0, 20.0):
        now[0] = t
        assert limit.allowed("203.0.113.5")
        limit.spend("203.0.113.5")
    assert not limit.allowed("203.0.113.5") and limit.allowed("203.0.113.6")
    now[0] = 59.9
    assert not limit.allowed("203.0.113.5")
    now[0] = 60.0  # the first use is a minute old: one more
    assert limit.allowed("203.0.113.5")
    limit.spend("203.0.113.5")
    assert not limit.allowed("203.0.113.5")


def test_an_attacker_at_39_tries_a_second_gets_its_budget_a_minute():
    now = [0.0]
    limit = RateLimit(20, clock=lambda: now[0])
    allowed = 0
    for n in range(39 * 120):  # two minutes at 39 a second
        now[0] = n / 39
        if limit.allowed("one client"):
            limit.spend("one client")
            allowed += 1
    assert allowed == 40


def test_idle_clients_are_let_go(monkeypatch):
    monkeypatch.setattr(rate_limit, "SWEEP_AT", 100)
    now = [0.0]
    limit = RateLimit(5, clock=lambda: now[0])
    for n in range(100):
        limit.spend(f"client {n}")
    now[0] = 61.0
    limit.spend("a new one")
    assert limit.held() == 1
