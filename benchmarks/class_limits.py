"""The live class's limits, against the attack of issue #39 (pure logic, and a real redis-server when installed).

Prints: the classes one session leaves live after 1,000 starts, the expired classes the memory store holds after
a start, the codes one client gets looked up in a minute at 39 tries a second, the roll call and answers after
1,000 learners, a guess of 1e308, and with Redis stopped (nothing listening) and stalled (a socket that never
answers): how long a call waits, and how many log lines 15 s of polling (55 calls) leave.

    python benchmarks/class_limits.py
"""
from __future__ import annotations

import logging
import socket
import time

from components.live_class import protocol as live_class
from components.live_class import store as class_store
from components.live_class.store import ClassStoreDown, MemoryStore, RedisStore
from components.serving.rate_limit import RateLimit
from components.serving.settings import LIMITS


def starts_by_one_session() -> int:
    store, lead = MemoryStore(), None
    for _ in range(1000):
        lead = live_class.start(store, most=LIMITS.classes, replacing=lead)
    return store.count()


def expired_held_after_a_start() -> int:
    now = [0.0]
    store = MemoryStore(clock=lambda: now[0])
    for n in range(10_000):
        store.create(f"C{n:05d}", {}, ttl=60)
    now[0] = 61.0
    live_class.start(store)
    return len(store._classes)


def codes_looked_up_in_a_minute() -> int:
    now = [0.0]
    limit, looked_up = RateLimit(LIMITS.join_tries, clock=lambda: now[0]), 0
    for n in range(39 * 60):
        now[0] = n / 39
        if limit.allowed("one client"):
            limit.spend("one client")
            looked_up += 1
    return looked_up


def stuffed_class() -> tuple[int, int, bool]:
    store = MemoryStore()
    lead = live_class.start(store)
    live_class.ask(store, lead, live_class.Question("recall", "number"))
    at = time.time()
    for n in range(1000):
        live_class.here(store, lead.code, f"member-{n:05d}", f"nick{n}", at, most=LIMITS.class_members)
        live_class.guess(store, lead.code, "recall", f"member-{n:05d}", 0.8, most=LIMITS.class_answers)
    huge = live_class.guess(store, lead.code, "recall", "member-x0001", 1e308)
    return live_class.roll_call(store, lead.code, at).count, sum(live_class.tally(store, lead.code, "recall").values()), huge


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _client_installed() -> bool:
    try:
        import redis  # noqa: F401
    except ImportError:
        return False
    return True


def redis_outage(url: str) -> tuple[float, float, int]:
    """(the longest call, the whole 55 calls' time, log lines) polling a store that is not answering for 15 s."""
    lines: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = lines.append  # type: ignore[method-assign]
    logging.getLogger(class_store.__name__).addHandler(handler)
    store, longest, began = RedisStore(url), 0.0, time.monotonic()
    for _ in range(55):
        start = time.monotonic()
        try:
            store.version("ABCDEF")
        except ClassStoreDown:
            pass
        longest = max(longest, time.monotonic() - start)
        time.sleep(15 / 55)
    logging.getLogger(class_store.__name__).removeHandler(handler)
    return longest, time.monotonic() - began, len(lines)


def main() -> None:
    print(f"classes live after one session started 1,000: {starts_by_one_session()}")
    print(f"classes held after 10,000 expired and one start: {expired_held_after_a_start()}")
    print(f"codes one client gets looked up in a minute at 39 a second: {codes_looked_up_in_a_minute()} "
          f"(RANKWISE_JOIN_TRIES={LIMITS.join_tries}; a code is {live_class.CODE_LENGTH} of "
          f"{len(live_class.CODE_ALPHABET)} characters)")
    members, answers, huge = stuffed_class()
    print(f"1,000 learners: roll call {members}, answers {answers} (caps {LIMITS.class_members}, "
          f"{LIMITS.class_answers}); a guess of 1e308 taken: {huge}")
    if not _client_installed():
        print("the redis client is not installed: no Redis figures")
        return
    port = _free_port()
    longest, total, logged = redis_outage(f"redis://127.0.0.1:{port}/0")  # nothing listens: stopped
    print(f"Redis stopped, 55 polls over {total:.1f} s: longest call {longest * 1000:.0f} ms, {logged} log lines")
    with socket.socket() as silent:  # accepts, never answers: stalled
        silent.bind(("127.0.0.1", 0))
        silent.listen(100)
        longest, total, logged = redis_outage(f"redis://127.0.0.1:{silent.getsockname()[1]}/0")
    print(f"Redis stalled, 55 polls over {total:.1f} s: longest call {longest * 1000:.0f} ms, {logged} log lines")


if __name__ == "__main__":
    main()
