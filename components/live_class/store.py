"""Where a live class's state lives: one small store interface, two implementations.

A class is a JSON record under its code, with a **version** that grows by one
on every write, so that a following learner's session polls only that number
(one cheap read a second) and reads the record when it moved; per question,
each learner's latest answer; and the roll call: each learner's optional
nickname and when their session last said it was there. A learner is a
**member id**, a random string their browser keeps; nothing in the store names
a person unless they chose to give a nickname. Everything expires ``ttl``
seconds after the class's last change (the instructor's write or a learner's
answer).

- :class:`MemoryStore`, the default: a dict in the server process, behind a
  lock. One process serves the whole class with no set-up.
- :class:`RedisStore`: the same in Redis, for a class spread over several
  replicas (``RANKWISE_CLASS_STORE=redis://host:6379/0``). A class is a hash
  ``rankwise:class:<code>`` (fields ``version`` and ``record``), written in
  one transaction; its answers hashes ``rankwise:class:<code>:answers:<question>`` (member → answer)
  and the set of those questions ``rankwise:class:<code>:questions`` (each expiring ``ttl`` after its last
  answer); its roll call, the hash ``rankwise:class:<code>:members`` (member → JSON ``[nickname, seen at]``);
  and the sorted set ``rankwise:classes`` (code → when it expires, wall-clock), so that :meth:`ClassStore.count`
  counts the live classes of every replica without a scan.

Bounds: :meth:`ClassStore.count` says how many classes are live (the caller caps them); the roll call and
each question's answers take a ``most`` (a new member beyond it is refused); the memory store lets expired
classes go on every create and count (O(classes)), not only when their code is asked for again.

When Redis cannot be reached, every method of :class:`RedisStore` raises one :class:`ClassStoreDown` (caught
in one place: :func:`_reports_down`). A call waits at most :data:`REDIS_TIMEOUT` seconds; for
:data:`RETRY_SECONDS` after a failure the calls fail at once without trying, and the outage is logged once
(a warning when it starts, another when Redis answers again), not once per call.

:func:`store_from_env` picks one from ``RANKWISE_CLASS_STORE``. No Streamlit import here.
"""
from __future__ import annotations

import functools
import json
import logging
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Protocol

CLASS_TTL = 12 * 3600  # seconds a class lives after its last change
STORE_ENV = "RANKWISE_CLASS_STORE"  # unset or "memory": in the process; "redis://...": Redis
REDIS_TIMEOUT = 1.0  # seconds one Redis call may take (to connect, or to answer)
RETRY_SECONDS = 2.0  # after a failed call, Redis is not tried again for this long
_PREFIX = "rankwise:class:"
_INDEX = "rankwise:classes"  # code -> when it expires
_LOG = logging.getLogger(__name__)

Record = Mapping[str, Any]


class ClassStoreDown(ConnectionError):
    """The class store cannot be reached now (Redis down, stalled or restarting); the class may come back."""


class ClassStore(Protocol):
    """The store's contract (tests/unit/test_class_store.py runs it against every implementation)."""

    def create(self, code: str, record: Record, ttl: int = CLASS_TTL) -> bool:
        """Store a new class at version 1; False (nothing written) when the code is taken."""

    def count(self) -> int:
        """How many classes are live now (expired ones are not counted)."""

    def version(self, code: str) -> int | None:
        """The class's version, or None when there is no such class (never was, ended or expired)."""

    def read(self, code: str) -> tuple[int, dict] | None:
        """(version, record), or None as :meth:`version`."""

    def write(self, code: str, record: Record, ttl: int = CLASS_TTL) -> int | None:
        """Replace the record and add one to the version (returned); None when there is no such class."""

    def answer(self, code: str, question: str, member: str, value: str, ttl: int = CLASS_TTL,
               most: int | None = None) -> bool:
        """The member's answer to a question of the class (in place of any they gave before); False when there
        is no such class, or when the question holds ``most`` answers and none is this member's."""

    def answers(self, code: str, question: str) -> list[str]:
        """The question's answers, one per member ([] when none, or no such class)."""

    def seen(self, code: str, member: str, nickname: str, at: float, ttl: int = CLASS_TTL,
             most: int | None = None) -> bool:
        """The member is in the class at time ``at`` (seconds), under ``nickname`` ("": none); False when there
        is no such class, or when the roll call holds ``most`` members and this one is not among them. Not a
        change: the class's expiry stays."""

    def left(self, code: str, member: str) -> None:
        """The member is off the roll call (nothing when they were not on it, or there is no such class)."""

    def members(self, code: str) -> dict[str, tuple[str, float]]:
        """The roll call: member -> (nickname, when last seen) ({} when no such class)."""

    def delete(self, code: str) -> None:
        """Remove the class and its answers (ending it)."""


@dataclass
class _Held:
    version: int
    record: dict
    expires: float
    answers: dict[str, dict[str, str]] = field(default_factory=dict)  # question -> member -> answer
    members: dict[str, tuple[str, float]] = field(default_factory=dict)


class MemoryStore:
    """:class:`ClassStore` in this process: a dict behind a lock (``clock`` for the tests)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic):
        self._classes: dict[str, _Held] = {}
        self._lock = threading.Lock()
        self._clock = clock

    def _sweep(self) -> None:
        """Let every expired class go (under the lock)."""
        now = self._clock()
        for code in [code for code, held in self._classes.items() if held.expires <= now]:
            del self._classes[code]

    def _live(self, code: str) -> _Held | None:
        held = self._classes.get(code)
        if held is not None and held.expires <= self._clock():
            del self._classes[code]
            return None
        return held

    def create(self, code: str, record: Record, ttl: int = CLASS_TTL) -> bool:
        with self._lock:
            self._sweep()
            if code in self._classes:
                return False
            self._classes[code] = _Held(1, _copy(record), self._clock() + ttl)
            return True

    def count(self) -> int:
        with self._lock:
            self._sweep()
            return len(self._classes)

    def version(self, code: str) -> int | None:
        with self._lock:
            held = self._live(code)
            return None if held is None else held.version

    def read(self, code: str) -> tuple[int, dict] | None:
        with self._lock:
            held = self._live(code)
            return None if held is None else (held.version, _copy(held.record))

    def write(self, code: str, record: Record, ttl: int = CLASS_TTL) -> int | None:
        with self._lock:
            held = self._live(code)
            if held is None:
                return None
            held.version, held.record, held.expires = held.version + 1, _copy(record), self._clock() + ttl
            return held.version

    def answer(self, code: str, question: str, member: str, value: str, ttl: int = CLASS_TTL,
               most: int | None = None) -> bool:
        with self._lock:
            held = self._live(code)
            if held is None:
                return False
            answers = held.answers.setdefault(question, {})
            if not _room(answers, member, most):
                return False
            answers[member] = str(value)
            held.expires = self._clock() + ttl
            return True

    def answers(self, code: str, question: str) -> list[str]:
        with self._lock:
            held = self._live(code)
            return [] if held is None else list(held.answers.get(question, {}).values())

    def seen(self, code: str, member: str, nickname: str, at: float, ttl: int = CLASS_TTL,
             most: int | None = None) -> bool:
        with self._lock:
            held = self._live(code)
            if held is None or not _room(held.members, member, most):
                return False
            held.members[member] = (str(nickname), float(at))
            return True

    def left(self, code: str, member: str) -> None:
        with self._lock:
            held = self._live(code)
            if held is not None:
                held.members.pop(member, None)

    def members(self, code: str) -> dict[str, tuple[str, float]]:
        with self._lock:
            held = self._live(code)
            return {} if held is None else dict(held.members)

    def delete(self, code: str) -> None:
        with self._lock:
            self._classes.pop(code, None)


def _room(held: Mapping[str, Any], member: str, most: int | None) -> bool:
    """Whether ``member`` may be put in ``held`` (member -> ...): there already, or fewer than ``most`` there."""
    return most is None or member in held or len(held) < most


_CONTRACT = ("create", "count", "version", "read", "write", "answer", "answers", "seen", "left", "members", "delete")


def _reports_down(cls):
    """Every contract method of the Redis store raises :class:`ClassStoreDown` when Redis fails (the client's
    errors, a refused connection, a timeout), and, for :data:`RETRY_SECONDS` after, at once without trying;
    the outage is logged when it starts and when it ends."""
    def guard(method):
        @functools.wraps(method)
        def call(self, *args, **kwargs):
            if self._clock() < self._down_until:
                raise ClassStoreDown("the class store is not answering (retrying)")
            try:
                result = method(self, *args, **kwargs)
            except self._failures as error:
                if self._down_since is None:
                    self._down_since = self._clock()
                    _LOG.warning("live class store unreachable, classes wait for it: %s", error)
                self._down_until = self._clock() + RETRY_SECONDS
                raise ClassStoreDown(str(error)) from None
            if self._down_since is not None:
                _LOG.warning("live class store back after %.0f s", self._clock() - self._down_since)
                self._down_since = None
            return result
        return call
    for name in _CONTRACT:
        setattr(cls, name, guard(getattr(cls, name)))
    return cls


@_reports_down
class RedisStore:
    """:class:`ClassStore` in Redis (``redis.Redis.from_url(url)``): every replica sees the same classes.

    No call waits more than :data:`REDIS_TIMEOUT` (no retries inside the client); a failure is a
    :class:`ClassStoreDown` (``clock``: monotonic seconds, for the tests)."""

    def __init__(self, url: str, clock: Callable[[], float] = time.monotonic):
        import redis  # only a Redis-backed deployment needs the client
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        self._redis = redis.Redis.from_url(url, decode_responses=True, socket_timeout=REDIS_TIMEOUT,
                                           socket_connect_timeout=REDIS_TIMEOUT, retry=Retry(NoBackoff(), 0),
                                           retry_on_timeout=False)
        self._failures = (redis.exceptions.RedisError, OSError)
        self._clock = clock
        self._down_until = float("-inf")
        self._down_since: float | None = None

    def _key(self, code: str) -> str:
        return _PREFIX + code

    def _answers_key(self, code: str, question: str) -> str:
        return f"{_PREFIX}{code}:answers:{question}"

    def _questions_key(self, code: str) -> str:
        """The set of the questions answered so far (so that ending the class finds their answers)."""
        return f"{_PREFIX}{code}:questions"

    def _members_key(self, code: str) -> str:
        return f"{_PREFIX}{code}:members"

    def create(self, code: str, record: Record, ttl: int = CLASS_TTL) -> bool:
        key = self._key(code)
        if not self._redis.hsetnx(key, "version", 1):
            return False
        with self._redis.pipeline() as pipe:
            pipe.hset(key, "record", json.dumps(record))
            pipe.expire(key, ttl)
            pipe.zadd(_INDEX, {code: time.time() + ttl})
            pipe.execute()
        return True

    def count(self) -> int:
        with self._redis.pipeline() as pipe:
            pipe.zremrangebyscore(_INDEX, "-inf", time.time())
            pipe.zcard(_INDEX)
            return int(pipe.execute()[1])

    def version(self, code: str) -> int | None:
        value = self._redis.hget(self._key(code), "version")
        return None if value is None else int(value)

    def read(self, code: str) -> tuple[int, dict] | None:
        version, record = self._redis.hmget(self._key(code), ["version", "record"])
        return None if version is None or record is None else (int(version), json.loads(record))

    def write(self, code: str, record: Record, ttl: int = CLASS_TTL) -> int | None:
        key = self._key(code)
        with self._redis.pipeline() as pipe:  # MULTI/EXEC: the version and the record change together
            pipe.exists(key)
            pipe.hincrby(key, "version", 1)
            pipe.hset(key, "record", json.dumps(record))
            pipe.expire(key, ttl)
            pipe.zadd(_INDEX, {code: time.time() + ttl})
            existed, version, *_ = pipe.execute()
        if not existed:  # the class had ended or expired: undo the write that made a new hash
            self._redis.delete(key)
            self._redis.zrem(_INDEX, code)
            return None
        return int(version)

    def answer(self, code: str, question: str, member: str, value: str, ttl: int = CLASS_TTL,
               most: int | None = None) -> bool:
        key, questions = self._answers_key(code, question), self._questions_key(code)
        if not self._redis.exists(self._key(code)) or not self._room(key, member, most):
            return False
        with self._redis.pipeline() as pipe:
            pipe.hset(key, member, str(value))
            pipe.sadd(questions, question)
            for each in (key, questions, self._key(code)):
                pipe.expire(each, ttl)
            pipe.zadd(_INDEX, {code: time.time() + ttl})
            pipe.execute()
        return True

    def _room(self, key: str, member: str, most: int | None) -> bool:
        """As :func:`_room`, for the hash at ``key`` (two replicas adding at once may both pass: a few over)."""
        return most is None or bool(self._redis.hexists(key, member)) or self._redis.hlen(key) < most

    def answers(self, code: str, question: str) -> list[str]:
        if not self._redis.exists(self._key(code)):
            return []
        return [str(a) for a in self._redis.hvals(self._answers_key(code, question))]

    def seen(self, code: str, member: str, nickname: str, at: float, ttl: int = CLASS_TTL,
             most: int | None = None) -> bool:
        key = self._members_key(code)
        if not self._redis.exists(self._key(code)) or not self._room(key, member, most):
            return False
        with self._redis.pipeline() as pipe:
            pipe.hset(key, member, json.dumps([str(nickname), float(at)]))
            pipe.expire(key, ttl)
            pipe.execute()
        return True

    def left(self, code: str, member: str) -> None:
        self._redis.hdel(self._members_key(code), member)

    def members(self, code: str) -> dict[str, tuple[str, float]]:
        if not self._redis.exists(self._key(code)):
            return {}
        held = self._redis.hgetall(self._members_key(code))
        return {str(member): (str(nickname), float(at))
                for member, (nickname, at) in ((m, json.loads(v)) for m, v in held.items())}

    def delete(self, code: str) -> None:
        questions = self._redis.smembers(self._questions_key(code))
        self._redis.delete(self._key(code), self._questions_key(code), self._members_key(code),
                           *(self._answers_key(code, str(q)) for q in questions))
        self._redis.zrem(_INDEX, code)


def store_from_env(environ: Mapping[str, str]) -> ClassStore:
    """The store ``RANKWISE_CLASS_STORE`` names: unset, empty or "memory" → :class:`MemoryStore`;
    ``redis://`` or ``rediss://`` URL → :class:`RedisStore`; anything else is a ``ValueError`` naming it."""
    value = environ.get(STORE_ENV, "").strip()
    if value in ("", "memory"):
        return MemoryStore()
    if value.startswith(("redis://", "rediss://", "unix://")):
        return RedisStore(value)
    raise ValueError(f"{STORE_ENV}={value!r}: expected 'memory' or a redis:// URL")


def _copy(record: Record) -> dict:
    """A deep copy through JSON: what the Redis store keeps, so both stores hold the same kinds of values."""
    return json.loads(json.dumps(record))
