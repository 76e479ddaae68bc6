"""A cache shared by every session, bounded in bytes and by who still needs a value: for parsed uploads.

``st.cache_resource`` bounds a cache by its number of entries, but one parsed
MS MARCO run is ~0.5 GiB and a sample file a few KiB, so a count says little
about memory; and it keeps a value after every session that used it has
gone. :class:`SharedCache` keeps a value only while a live :class:`Holder`
claims it: each session keeps a holder beside the files it stands for, so
when the files are forgotten or replaced, or the session ends, the value is
let go at once. Among the values claimed, it keeps them until their
estimated sizes (:func:`nbytes`) add up to more than its budget, then lets
the least recently used go (read again when asked for). The newest value is
always kept while claimed, even alone over the budget: the session that
asked for it is about to use it on every rerun.

Values are shared, never copied: :func:`freeze` makes their arrays read-only
first, so no session can change what another one sees. Concurrent requests
for one key compute it once (the others wait for that result); different keys
compute in parallel.
"""
from __future__ import annotations

import dataclasses
import threading
import weakref
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
    total = 0
    seen: set[int] = set()  # ids of the objects walked
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


class Holder:
    """A claim on cached values: the cache keeps a value only while a live holder has asked for it.

    Keep it beside what it stands for (a session's record of its files):
    when it is dropped, its claims go with it.
    """

    __slots__ = ("__weakref__",)


class SharedCache:
    """Values by key, kept while a live :class:`Holder` claims them and their :func:`nbytes` fit ``budget``."""

    def __init__(self, budget: int):
        if budget < 1:
            raise ValueError(f"budget must be at least 1 byte, got {budget}")
        self.budget = budget
        self._values: OrderedDict[Hashable, tuple[object, int]] = OrderedDict()  # least recently used first
        self._holders: dict[Hashable, weakref.WeakSet] = {}
        self._lock = threading.RLock()  # re-entered when a holder dies while this thread holds it
        self._computing: dict[Hashable, threading.Lock] = {}
        self._evicting = self._again = False

    def get(self, key: Hashable, compute: Callable[[], T], holder: Holder) -> T:
        """The value for ``key``, claimed by ``holder``: from the cache, or ``compute()`` (frozen, sized, kept)."""
        with self._lock:
            if key in self._values:
                return self._use(key, holder)
            computing = self._computing.setdefault(key, threading.Lock())
        with computing:  # one computation per key; the others wait for it, then find its result
            with self._lock:
                if key in self._values:
                    return self._use(key, holder)
            try:
                value = freeze(compute())
                size = nbytes(value)
                with self._lock:
                    self._values[key] = (value, size)
                    self._use(key, holder)
                    self._evict()
            finally:
                with self._lock:
                    self._computing.pop(key, None)
        return value

    def _use(self, key: Hashable, holder: Holder):
        """Mark key most recently used and claimed by holder; its value."""
        self._values.move_to_end(key)
        holders = self._holders.setdefault(key, weakref.WeakSet())
        if holder not in holders:
            holders.add(holder)
            weakref.finalize(holder, self._release)
        return self._values[key][0]

    def _claimed(self, key: Hashable) -> bool:
        return any(True for _ in self._holders.get(key, ()))  # iterating skips holders already gone

    def _release(self) -> None:
        """A holder is gone: let go of what nobody claims any more."""
        with self._lock:
            if self._evicting:  # it went while this thread was evicting: that eviction goes round again
                self._again = True
            else:
                self._evict()

    def _evict(self) -> None:
        """Let unclaimed values go; then the least recently used until the rest fit the budget (the newest stays)."""
        self._evicting = True
        try:
            self._again = True
            while self._again:
                self._again = False
                for key in [k for k in self._values if not self._claimed(k)]:
                    self._drop(key)
                while len(self._values) > 1 and self.size > self.budget:
                    self._drop(next(iter(self._values)))
        finally:
            self._evicting = False

    def _drop(self, key: Hashable) -> None:
        self._values.pop(key, None)
        self._holders.pop(key, None)

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
            self._holders.clear()
