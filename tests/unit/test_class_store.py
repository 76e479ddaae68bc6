"""The class store's contract, run against the in-process store and against a real redis-server (started on a
free loopback port; skipped, with the reason, where redis-server is not installed)."""
from __future__ import annotations

import logging
import shutil
import socket
import subprocess
import time

import pytest

from components.live_class import store as class_store
from components.live_class.store import ClassStoreDown, MemoryStore, RedisStore

REDIS_SERVER = shutil.which("redis-server")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_redis(port: int) -> subprocess.Popen:
    """A redis-server on ``port`` (nothing saved), once it takes connections."""
    if REDIS_SERVER is None:
        pytest.skip("redis-server not found (apt-get install -y redis-server): the Redis store is not tested")
    proc = subprocess.Popen([REDIS_SERVER, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly",
                             "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.05)
    return proc


def stop_redis(proc: subprocess.Popen) -> None:
    proc.terminate()
    proc.wait(timeout=10)


@pytest.fixture(scope="module")
def redis_url():
    port = _free_port()
    proc = start_redis(port)
    yield f"redis://127.0.0.1:{port}/0"
    stop_redis(proc)


@pytest.fixture(params=["memory", "redis"])
def store(request):
    if request.param == "memory":
        return MemoryStore()
    url = request.getfixturevalue("redis_url")
    made = RedisStore(url)
    made._redis.flushdb()
    return made


def test_a_class_starts_at_version_one_and_each_write_adds_one(store):
    assert store.create("ABCDE", {"page": "home"})
    assert store.read("ABCDE") == (1, {"page": "home"})
    assert store.write("ABCDE", {"page": "recall", "target": {"k": 3}}) == 2
    assert store.version("ABCDE") == 2 and store.read("ABCDE") == (2, {"page": "recall", "target": {"k": 3}})


def test_a_taken_code_is_refused_and_kept(store):
    assert store.create("ABCDE", {"n": 1})
    assert not store.create("ABCDE", {"n": 2})
    assert store.read("ABCDE") == (1, {"n": 1})


def test_an_unknown_class_reads_as_none_and_takes_no_write(store):
    assert store.version("NOPE1") is None and store.read("NOPE1") is None
    assert store.write("NOPE1", {"x": 1}) is None
    assert store.read("NOPE1") is None  # the write made nothing
    assert not store.answer("NOPE1", "q", "m1", "0.5") and store.answers("NOPE1", "q") == []
    assert not store.seen("NOPE1", "m1", "Ada", 1.0) and store.members("NOPE1") == {}
    store.left("NOPE1", "m1")  # nothing to do, and no error


def test_answers_are_kept_per_question_one_per_member(store):
    store.create("ABCDE", {})
    for member, value in (("m1", "0.5"), ("m2", "0.667"), ("m3", "0.5"), ("m2", "0.75")):
        assert store.answer("ABCDE", "ndcg", member, value)
    store.answer("ABCDE", "other", "m1", "b")
    assert sorted(store.answers("ABCDE", "ndcg")) == ["0.5", "0.5", "0.75"]
    assert store.answers("ABCDE", "other") == ["b"]


def test_the_roll_call_keeps_each_members_latest_nickname_and_time(store):
    store.create("ABCDE", {})
    assert store.seen("ABCDE", "m1", "Ada", 10.0) and store.seen("ABCDE", "m2", "", 11.5)
    store.seen("ABCDE", "m1", "Ada L.", 20.25)
    assert store.members("ABCDE") == {"m1": ("Ada L.", 20.25), "m2": ("", 11.5)}
    store.left("ABCDE", "m2")
    store.left("ABCDE", "m9")  # never on it: nothing
    assert store.members("ABCDE") == {"m1": ("Ada L.", 20.25)}
    assert store.version("ABCDE") == 1  # being seen is not a change


def test_deleting_ends_the_class_its_answers_and_its_roll_call(store):
    store.create("ABCDE", {})
    store.answer("ABCDE", "q", "m1", "1")
    store.seen("ABCDE", "m1", "Ada", 1.0)
    store.delete("ABCDE")
    assert store.read("ABCDE") is None and store.answers("ABCDE", "q") == [] and store.members("ABCDE") == {}
    assert store.create("ABCDE", {"fresh": True}) and store.answers("ABCDE", "q") == []
    assert store.members("ABCDE") == {}


def test_records_come_back_as_plain_json(store):
    store.create("ABCDE", {"target": {"order": ["a", "b"], "k": 3, "gain": None}})
    record = store.read("ABCDE")[1]
    record["target"]["order"].append("c")  # a copy: changing it changes nothing stored
    assert store.read("ABCDE")[1] == {"target": {"order": ["a", "b"], "k": 3, "gain": None}}


def test_a_class_expires_its_time_after_the_last_change():
    now = [0.0]
    store = MemoryStore(clock=lambda: now[0])
    store.create("ABCDE", {}, ttl=60)
    now[0] = 50
    store.write("ABCDE", {"page": "x"}, ttl=60)  # a change: another 60 s
    now[0] = 100
    assert store.version("ABCDE") == 2
    store.answer("ABCDE", "q", "m1", "1", ttl=60)  # an answer is a change too
    now[0] = 150
    store.seen("ABCDE", "m1", "Ada", 150.0, ttl=60)  # being seen is not
    now[0] = 159
    assert store.version("ABCDE") == 2
    now[0] = 161
    assert store.version("ABCDE") is None and store.answers("ABCDE", "q") == [] and store.members("ABCDE") == {}


def test_the_live_classes_are_counted_without_the_ended(store):
    assert store.count() == 0
    for code in ("AAAAAA", "CCCCCC", "DDDDDD"):
        store.create(code, {})
    store.delete("CCCCCC")
    store.write("AAAAAA", {"x": 1})
    assert store.count() == 2


def test_a_roll_call_and_a_questions_answers_take_at_most_their_most(store):
    store.create("ABCDE", {})
    assert store.seen("ABCDE", "m1", "", 1.0, most=2) and store.seen("ABCDE", "m2", "", 1.0, most=2)
    assert not store.seen("ABCDE", "m3", "", 1.0, most=2)
    assert store.seen("ABCDE", "m1", "Ada", 2.0, most=2)  # on it already
    assert set(store.members("ABCDE")) == {"m1", "m2"}
    assert store.answer("ABCDE", "q", "m1", "0.5", most=1) and not store.answer("ABCDE", "q", "m2", "0.5", most=1)
    assert store.answer("ABCDE", "q", "m1", "0.25", most=1) and store.answers("ABCDE", "q") == ["0.25"]


def test_expired_classes_are_let_go_when_a_class_is_made_not_only_when_asked_for():
    now = [0.0]
    store = MemoryStore(clock=lambda: now[0])
    for n in range(10_000):
        store.create(f"C{n:05d}", {}, ttl=60)
    now[0] = 61
    store.create("NEW001", {}, ttl=60)
    assert len(store._classes) == 1 and store.count() == 1


def test_redis_expires_a_class_too(redis_url):
    store = RedisStore(redis_url)
    store.create("EXPRE", {}, ttl=1)
    assert store._redis.ttl("rankwise:class:EXPRE") in (0, 1)
    store._redis.pexpire("rankwise:class:EXPRE", 1)  # its second, gone by in a millisecond: Redis lets it go
    while store._redis.exists("rankwise:class:EXPRE"):
        time.sleep(0.01)
    assert store.read("EXPRE") is None


@pytest.mark.parametrize("value, kind", [(None, MemoryStore), ("memory", MemoryStore), ("", MemoryStore),
                                         ("redis://127.0.0.1:1/0", RedisStore)])
def test_the_store_is_chosen_from_the_environment(value, kind):
    environ = {} if value is None else {class_store.STORE_ENV: value}
    assert isinstance(class_store.store_from_env(environ), kind)


def test_an_unknown_store_is_named():
    with pytest.raises(ValueError, match="RANKWISE_CLASS_STORE='postgres://x'"):
        class_store.store_from_env({class_store.STORE_ENV: "postgres://x"})


def test_a_stopped_redis_is_one_error_logged_once_and_a_restarted_one_is_used_again(caplog):
    port = _free_port()
    proc = start_redis(port)
    store = RedisStore(f"redis://127.0.0.1:{port}/0")
    store.create("ABCDEF", {"page": "recall"})
    stop_redis(proc)
    with caplog.at_level(logging.WARNING, logger="components.live_class.store"):
        for _ in range(5):  # the first call fails, the next ones at once, without trying
            with pytest.raises(ClassStoreDown):
                store.version("ABCDEF")
        proc = start_redis(port)  # back, and empty: the class is gone for good
        store._down_until = float("-inf")  # the retry's wait, over
        try:
            assert store.version("ABCDEF") is None
        finally:
            stop_redis(proc)
    logged = [r.getMessage() for r in caplog.records]
    assert len(logged) == 2 and "unreachable" in logged[0] and "back" in logged[1]
    assert all(r.exc_info is None for r in caplog.records), "no traceback"


def test_a_stalled_redis_is_given_up_on_after_the_timeout():
    with socket.socket() as silent:  # accepts connections, never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        store = RedisStore(f"redis://127.0.0.1:{silent.getsockname()[1]}/0")
        with pytest.raises(ClassStoreDown):
            store.version("ABCDEF")
        with pytest.raises(ClassStoreDown):  # within the retry's wait: at once, Redis not asked
            store.read("ABCDEF")
