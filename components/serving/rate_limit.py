"""How often one client may do a thing: at most ``per_minute`` times in any 60 seconds (a sliding window).

A live class uses it for the codes that join no class (guessing codes) and for starting classes
(:mod:`components.live_class.panel`); a client is whatever key the caller gives (an IP address, else a
session id). Memory stays bounded: a client's times older than the window are dropped when it is asked
about, and all idle clients when more than :data:`SWEEP_AT` are held. No Streamlit import here.
"""
from __future__ import annotations

import threading
import time
from collections import deque
from typing import Callable

WINDOW = 60.0  # seconds
SWEEP_AT = 10_000  # clients held before the idle ones are let go


class RateLimit:
    """``allowed(client)`` asks, ``spend(client)`` counts one use (``clock`` for the tests).

    >>> now = [0.0]; limit = RateLimit(2, clock=lambda: now[0])
    >>> limit.spend("a"); limit.spend("a"); limit.allowed("a"), limit.allowed("b")
    (False, True)
    >>> now[0] = 60.0; limit.allowed("a")
    True
    """

    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic):
        self.per_minute = per_minute
        self._clock = clock
        self._used: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def _recent(self, client: str, now: float) -> deque[float]:
        used = self._used.get(client, deque())
        while used and used[0] <= now - WINDOW:
            used.popleft()
        return used

    def allowed(self, client: str) -> bool:
        """Whether ``client`` has used fewer than ``per_minute`` in the last minute (asking holds nothing)."""
        with self._lock:
            return len(self._recent(client, self._clock())) < self.per_minute

    def spend(self, client: str) -> None:
        """One use by ``client``, now."""
        with self._lock:
            now = self._clock()
            self._used[client] = self._recent(client, now)
            self._used[client].append(now)
            if len(self._used) > SWEEP_AT:
                self._used = {c: used for c, used in self._used.items() if self._recent(c, now)}

    def held(self) -> int:
        """How many clients are held (for the tests and the benchmark)."""
        return len(self._used)
