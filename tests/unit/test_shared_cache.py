"""SharedCache: bounded in bytes, least recently used out first, one computation per key, values frozen."""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass

import numpy as np
import pytest

from components.shared_cache import SharedCache, freeze, nbytes

KIB = 1024


def block(n_kib: int, fill: int = 0) -> np.ndarray:
    return np.full(n_kib * KIB, fill, dtype=np.uint8)


def test_least_recently_used_goes_first():
    cache = SharedCache(3 * KIB + 100)
    for key in "abc":
        cache.get(key, lambda: block(1))
    cache.get("a", lambda: pytest.fail("a is cached"))  # a is now the most recently used
    cache.get("d", lambda: block(1))
    assert [k for k in "abcd" if k in cache] == ["a", "c", "d"]
    assert cache.size <= cache.budget


def test_a_value_over_the_budget_stays_alone():
    cache = SharedCache(2 * KIB)
    cache.get("small", lambda: block(1))
    big = cache.get("big", lambda: block(5))
    assert "small" not in cache and len(cache) == 1
    assert cache.get("big", lambda: pytest.fail("kept")) is big


def test_one_computation_per_key_and_keys_in_parallel():
    cache = SharedCache(10**6)
    calls, running, most = [], [0], [0]
    lock = threading.Lock()

    def slow(key):
        def compute():
            with lock:
                calls.append(key)
                running[0] += 1
                most[0] = max(most[0], running[0])
            time.sleep(0.2)
            with lock:
                running[0] -= 1
            return np.array([ord(key)])
        return compute

    results = {}
    threads = [threading.Thread(target=lambda i=i: results.setdefault(i, cache.get("xy"[i % 2], slow("xy"[i % 2]))))
               for i in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert sorted(calls) == ["x", "y"], "each key computed once"
    assert most[0] == 2, "two different keys compute at the same time"
    assert len({id(results[i]) for i in range(0, 10, 2)}) == 1


def test_a_failed_computation_is_not_kept():
    cache = SharedCache(10**6)
    with pytest.raises(ValueError):
        cache.get("k", lambda: (_ for _ in ()).throw(ValueError("bad file")))
    assert "k" not in cache
    assert cache.get("k", lambda: np.arange(3)).tolist() == [0, 1, 2]


@dataclass(frozen=True)
class Parsed:
    name: str
    values: np.ndarray
    parts: tuple


def test_values_are_frozen_and_sized_through_dataclasses_and_containers():
    inner = np.arange(10, dtype=np.int64)
    value = Parsed("run.txt", np.zeros(100, dtype=np.float64), ({"a": inner, "view": inner[:5]}, ["id"]))
    assert nbytes(value) == 800 + 80 + len("run.txt") + len("id") + 2 * 64
    freeze(value)
    for array in (value.values, inner, value.parts[0]["view"]):
        assert not array.flags.writeable
    cache = SharedCache(10**6)
    assert not cache.get("k", lambda: {"a": np.ones(3)})["a"].flags.writeable


def test_budget_must_be_positive():
    with pytest.raises(ValueError):
        SharedCache(0)
