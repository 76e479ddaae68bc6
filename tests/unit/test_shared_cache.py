"""SharedCache: kept while claimed, bounded in bytes, least recently used out first, one computation per key."""
from __future__ import annotations

import gc
import threading
import weakref
from dataclasses import dataclass

import numpy as np
import pytest

from components.serving.shared_cache import Holder, SharedCache, freeze, nbytes

KIB = 1024
HOLDER = Holder()  # a claim that outlives every test


def block(n_kib: int, fill: int = 0) -> np.ndarray:
    return np.full(n_kib * KIB, fill, dtype=np.uint8)


def test_least_recently_used_goes_first():
    cache = SharedCache(3 * KIB + 100)
    for key in "abc":
        cache.get(key, lambda: block(1), HOLDER)
    cache.get("a", lambda: pytest.fail("a is cached"), HOLDER)  # a is now the most recently used
    cache.get("d", lambda: block(1), HOLDER)
    assert [k for k in "abcd" if k in cache] == ["a", "c", "d"]
    assert cache.size <= cache.budget


def test_a_value_over_the_budget_stays_alone():
    cache = SharedCache(2 * KIB)
    cache.get("small", lambda: block(1), HOLDER)
    big = cache.get("big", lambda: block(5), HOLDER)
    assert "small" not in cache and len(cache) == 1
    assert cache.get("big", lambda: pytest.fail("kept"), HOLDER) is big


def test_one_computation_per_key_and_keys_in_parallel():
    cache = SharedCache(10**6)
    calls = []
    both_computing = threading.Barrier(2, timeout=10)  # x and y must be computing at the same time to pass it

    def compute(key):
        def run():
            calls.append(key)
            both_computing.wait()  # BrokenBarrierError if the keys were computed one after the other
            return np.array([ord(key)])
        return run

    results = {}

    def one(i):
        results[i] = cache.get("xy"[i % 2], compute("xy"[i % 2]), HOLDER)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    assert not both_computing.broken, "two different keys compute at the same time"
    assert sorted(calls) == ["x", "y"], "each key computed once"
    assert len(results) == 10 and len({id(results[i]) for i in range(0, 10, 2)}) == 1


def test_a_failed_computation_is_not_kept():
    cache = SharedCache(10**6)
    with pytest.raises(ValueError):
        cache.get("k", lambda: (_ for _ in ()).throw(ValueError("bad file")), HOLDER)
    assert "k" not in cache
    assert cache.get("k", lambda: np.arange(3), HOLDER).tolist() == [0, 1, 2]


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
    assert not cache.get("k", lambda: {"a": np.ones(3)}, HOLDER)["a"].flags.writeable


def test_budget_must_be_positive():
    with pytest.raises(ValueError):
        SharedCache(0)


def test_a_value_goes_as_soon_as_no_live_holder_claims_it():
    cache = SharedCache(10**6)
    first, second = Holder(), Holder()
    value = cache.get("k", lambda: block(1), first)
    assert cache.get("k", lambda: pytest.fail("cached"), second) is value
    del first
    gc.collect()
    assert "k" in cache, "the second holder still claims it"
    gone = weakref.ref(value)
    del value, second
    gc.collect()
    assert "k" not in cache and gone() is None, "the last holder took the value with it"


def test_a_holder_that_dies_while_the_cache_evicts_lets_its_value_go_too():
    cache = SharedCache(10**6)
    inner, outer = Holder(), Holder()
    cache.get("b", lambda: block(1), inner)
    value = {"data": block(1), "holder": inner}
    cache.get("a", lambda value=value: value, outer)  # the only reference to inner will be in a's value
    del inner, value
    gc.collect()
    assert "a" in cache and "b" in cache
    del outer  # a goes; with its value goes inner, while the cache is evicting: b goes in the same round
    gc.collect()
    assert len(cache) == 0
