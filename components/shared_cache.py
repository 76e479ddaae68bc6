"""A cache shared by every session, bounded in bytes: for parsed uploads, which can be hundreds of MiB each.

``st.cache_resource`` bounds a cache by its number of entries, but one parsed
MS MARCO run is ~0.5 GiB and a sample file a few KiB, so a count says little
about memory. :class:`SharedCache` keeps values until their estimated sizes
(:func:`nbytes`) add up to more than its budget, then lets the least recently
used go. The newest value is always kept, even alone over the budget: the
session that asked for it is about to use it on every rerun.

Values are shared, never copied: :func:`freeze` makes their arrays read-only
first, so no session can change what another one sees. Concurrent requests
for one key compute it once (the others wait for that result); different keys
compute in parallel.
"""
from __future__ import annotations

import dataclasses
import threading
from collections import OrderedDict
from typing import Callable, Hashable, Iterator, TypeVar

import numpy as np

T = TypeVar("T")
_OBJECT_OVERHEAD = 64  # bytes counted for each str/bytes/object besides its characters


def _parts(value) -> Iterator:
    """The values directly inside ``value``: dataclass fields (and cached properties), container items."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name for f in dataclasses.fields(value)}
        yield from (getattr(value, name) for name in fields)
        yield from (v for k, v in getattr(value, "__dict__", {}).items() if k not in fields)  # cached properties
    elif isinstance(value, dict):
        yield from value.values()
    elif isinstance(value, (list, tuple, set, frozenset)):
        yield from value


def _walk(value, seen: set[int]) -> Iterator:
    """``value`` and everything inside it, each object once."""
    if id(value) in seen:
        return
    seen.add(id(value))
    yield value
    for part in _parts(value):
        yield from _walk(part, seen)


def nbytes(value) -> int:
    """An estimate of the memory held by ``value``: its NumPy arrays' buffers, strings and bytes, plus overhead.

    An array that is a view counts only if its base is not counted already.

    Examples
    --------
    >>> nbytes(np.zeros(1000, dtype=np.int64))
    8000
    >>> a = np.zeros(1000, dtype=np.int64)
    >>> nbytes((a, a[:10]))  # the view shares a's memory
    8000
    """
    total, seen = 0, set()
    for part in _walk(value, seen):
        if isinstance(part, np.ndarray):
            if part.base is None or id(part.base) not in seen:
                total += part.nbytes
                if part.dtype == object:
                    total += sum(nbytes(item) for item in part.ravel().tolist())
        elif isinstance(part, (str, bytes)):
            total += len(part) + _OBJECT_OVERHEAD
    return total


def freeze(value: T) -> T:
    """Make every NumPy array inside ``value`` read-only (in place), and return ``value``.

    Examples
    --------
    >>> frozen = freeze({"grades": np.arange(3)})
    >>> frozen["grades"][0] = 7
    Traceback (most recent call last):
    ...
    ValueError: assignment destination is read-only
    """
    for part in _walk(value, set()):
        if isinstance(part, np.ndarray):
            part.flags.writeable = False
    return value


class SharedCache:
    """Values by key, kept while their :func:`nbytes` total fits ``budget`` (the newest always kept)."""

    def __init__(self, budget: int):
        if budget < 1:
            raise ValueError(f"budget must be at least 1 byte, got {budget}")
        self.budget = budget
        self._values: OrderedDict[Hashable, tuple[object, int]] = OrderedDict()  # least recently used first
        self._lock = threading.Lock()
        self._computing: dict[Hashable, threading.Lock] = {}

    def get(self, key: Hashable, compute: Callable[[], T]) -> T:
        """The value for ``key``: from the cache, or ``compute()`` (frozen, sized and kept)."""
        with self._lock:
            if key in self._values:
                self._values.move_to_end(key)
                return self._values[key][0]
            computing = self._computing.setdefault(key, threading.Lock())
        with computing:  # one computation per key; the others wait for it, then find its result
            with self._lock:
                if key in self._values:
                    self._values.move_to_end(key)
                    return self._values[key][0]
            try:
                value = freeze(compute())
                size = nbytes(value)
                with self._lock:
                    self._values[key] = (value, size)
                    self._evict()
            finally:
                with self._lock:
                    self._computing.pop(key, None)
        return value

    def _evict(self) -> None:
        """Let the least recently used values go until the rest fit the budget (the newest stays)."""
        while len(self._values) > 1 and self.size > self.budget:
            self._values.popitem(last=False)

    @property
    def size(self) -> int:
        """The estimated bytes held."""
        return sum(size for _, size in self._values.values())

    def __len__(self) -> int:
        return len(self._values)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._values

    def clear(self) -> None:
        with self._lock:
            self._values.clear()
