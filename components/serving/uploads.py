"""Uploaded files at workshop scale: one parsed copy per distinct file, and a cap on what one session holds.

- :class:`UploadRecord` (made by :func:`upload_record`) is what a session
  keeps of a received file: its name, its bytes (the very object the
  uploader holds, not a copy), their SHA-256, and its :class:`Reading`
  options (the JSON fields a learner mapped, the chunk separator).
- :class:`FileKey` and :class:`PairKey` name a file, and a qrels and run
  pair, as read: by content hash, name and options, never by the bytes, so
  they are cheap to hash and hold no upload alive. They key every cache of
  parsed, joined or evaluated files.
- :func:`read_file` and :func:`judge_files` parse and join files through
  :data:`PARSED`, one :class:`~components.serving.shared_cache.SharedCache` for the
  whole server, keyed by those keys, bounded by
  ``RANKWISE_PARSED_CACHE_MB`` (:mod:`components.serving.settings`), and holding a
  value only while a :class:`~components.serving.shared_cache.Holder` claims it.
  Twenty learners uploading the same file share one parsed copy; a session
  keeps a holder beside its files (never the parsed data), so forgetting
  the files, or the end of the session, lets the parsed copy go.
- :func:`refusal` says whether a new file would take a session past
  ``RANKWISE_SESSION_UPLOAD_MB`` (and by how much, for the page's message).
"""
from __future__ import annotations

import ctypes
import dataclasses
import gc
import hashlib
import sys
from dataclasses import dataclass
from typing import Iterable, Literal, cast, overload

from components.engine import model
from components.formats import readers
from components.formats.json_formats import Fields
from components.serving import settings
from components.serving.settings import MIB
from components.serving.shared_cache import Holder, SharedCache

PARSED = SharedCache(settings.LIMITS.parsed_cache_bytes)
_cached_before = 0  # PARSED.size at the last collect_released()


@dataclass(frozen=True)
class Reading:
    """How a received file is read: the JSON fields a learner mapped (None: guessed from the records) and the
    chunk separator (None: ids as they are, else each chunk id counts as its document's)."""

    fields: Fields | None = None
    chunks: str | None = None


@dataclass(frozen=True)
class FileKey:
    """A received file as read, for cache keys: its SHA-256 (hex), its name (messages quote it) and its
    :class:`Reading`; hashable, and cheap to hash (never the bytes)."""

    sha256: str
    name: str
    reading: Reading


@dataclass(frozen=True)
class PairKey:
    """A qrels and run pair as read (:func:`pair_key`): what identifies the pair's parsed, joined and evaluated
    values in every cache."""

    qrels: FileKey
    run: FileKey


@dataclass(frozen=True)
class UploadRecord:
    """What a session keeps of a received file (:func:`upload_record` makes one).

    ``data`` is the uploader's own buffer, shared and never copied; records
    compare by :attr:`key` alone, so a record's hash never reads the bytes.
    """

    name: str
    data: bytes = dataclasses.field(repr=False, compare=False)
    sha256: str
    reading: Reading = Reading()

    @property
    def key(self) -> FileKey:
        """The file as read, without its bytes: what the caches keep."""
        return FileKey(self.sha256, self.name, self.reading)

    def read_with(self, reading: Reading) -> UploadRecord:
        """The same bytes read with other options: a new record, so the pair's key changes and it is read again."""
        return dataclasses.replace(self, reading=reading)


def upload_record(name: str, data: bytes) -> UploadRecord:
    """What a session keeps of a received file, read as it is (its name as the page can show it).

    ``data`` is kept as it is when it is already ``bytes`` (an upload's
    ``getvalue()`` is the uploader's own buffer), so the session and the
    uploader share one copy.

    >>> data = b"1 0 d1 1\\n"
    >>> upload_record("q.txt", data).data is data
    True
    """
    data = data if type(data) is bytes else bytes(data)
    return UploadRecord(shown_name(name), data, hashlib.sha256(data).hexdigest())


def shown_name(name) -> str:
    """A file name as text the page can send: bytes that were not UTF-8 (surrogates in ``str``) become "�".

    >>> shown_name("run\\udcff.txt"), shown_name("plain.txt")
    ('run�.txt', 'plain.txt')
    """
    text = str(name)
    try:
        raw = text.encode("utf-8", "surrogateescape")  # a byte the browser sent that was not UTF-8
    except UnicodeEncodeError:  # another lone surrogate
        raw = text.encode("utf-8", "replace")
    return raw.decode("utf-8", "replace")


def pair_key(qrels: UploadRecord, run: UploadRecord) -> PairKey:
    """What identifies a pair of received files as read."""
    return PairKey(qrels.key, run.key)


def read(kind: str, record: UploadRecord, holder: Holder) -> readers.Read:
    """One file, parsed in whatever format it is written (:mod:`components.formats.readers`) with what was
    understood of it: shared, cached by (kind, the file as read) while ``holder`` lives.

    Errors are not kept.
    """
    if kind not in ("qrels", "run"):
        raise ValueError(f"kind must be 'qrels' or 'run', got {kind!r}")
    checked = cast(readers.Kind, kind)
    return PARSED.get(("read", kind, record.key), lambda: readers.read(record.data, checked, record.name,
                                                                       fields=record.reading.fields,
                                                                       chunks=record.reading.chunks), holder)


@overload
def read_file(kind: Literal["qrels"], record: UploadRecord, holder: Holder) -> model.Qrels: ...
@overload
def read_file(kind: Literal["run"], record: UploadRecord, holder: Holder) -> model.Run: ...
@overload
def read_file(kind: str, record: UploadRecord, holder: Holder) -> model.Qrels | model.Run: ...
def read_file(kind: str, record: UploadRecord, holder: Holder) -> model.Qrels | model.Run:
    """The parsed file of :func:`read`."""
    return read(kind, record, holder).parsed


def judge_files(qrels: UploadRecord, run: UploadRecord, holder: Holder) -> model.JudgedRun:
    """The run joined with its qrels (each read through :func:`read_file`): shared, cached by :func:`pair_key`."""
    return PARSED.get(("judge", pair_key(qrels, run)),
                      lambda: model.judge(read_file("qrels", qrels, holder), read_file("run", run, holder)), holder)


def collect_released() -> None:
    """Collect what ended sessions left, and hand the memory of let-go parsed files back to the system.

    An ended session's state is a web of reference cycles: its
    :class:`~components.serving.shared_cache.Holder` goes, and with it the parsed
    files it claimed, only when the cycles are collected; the server runs no
    collection after each rerun (``runner.postScriptGC = false``) and an idle
    one allocates too little to trigger one. Once the cache holds less than
    at the last call, the C heap's free pages (glibc keeps them) and
    pyarrow's pool are released too. Called every few seconds by the upload
    sweep (:mod:`components.serving.upload_store`); a full collection takes tens of
    milliseconds.
    """
    global _cached_before
    if len(PARSED):
        gc.collect()
    size = PARSED.size
    if size < _cached_before:
        _release_free_memory()
    _cached_before = size


def _release_free_memory() -> None:
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):  # not glibc: its allocator returns memory by itself, or keeps it
        pass
    if "pyarrow" in sys.modules:
        sys.modules["pyarrow"].default_memory_pool().release_unused()


def held_bytes(records: Iterable[UploadRecord | None]) -> int:
    """The bytes a session holds in these upload records, each distinct bytes object counted once."""
    distinct = {id(r.data): len(r.data) for r in records if r is not None}
    return sum(distinct.values())


def size_text(size: int) -> str:
    """A file size for messages: bytes, KiB or MiB (one decimal).

    >>> size_text(900), size_text(2_772), size_text(3 * MIB // 2)
    ('900 bytes', '2.7 KiB', '1.5 MiB')
    """
    if size < 1024:
        return f"{size} bytes"
    return f"{size / 1024:.1f} KiB" if size < MIB else f"{size / MIB:.1f} MiB"


def session_cap() -> int:
    """The most uploaded bytes one session may hold (``RANKWISE_SESSION_UPLOAD_MB``)."""
    return settings.LIMITS.session_upload_bytes


def refusal(size: int, held: int, cap: int | None = None) -> dict[str, str] | None:
    """None if a new file of ``size`` bytes fits beside the ``held`` bytes of a session; else why, as values.

    The values (``size``, ``total``, ``cap``) fill the page's
    message template; ``cap`` defaults to :func:`session_cap`.

    Examples
    --------
    >>> refusal(10 * MIB, 20 * MIB, cap=50 * MIB) is None
    True
    >>> refusal(40 * MIB, 20 * MIB, cap=50 * MIB)
    {'size': '40.0 MiB', 'total': '60.0 MiB', 'cap': '50.0 MiB'}
    """
    cap = session_cap() if cap is None else cap
    if held + size <= cap:
        return None
    return {"size": size_text(size), "total": size_text(held + size), "cap": size_text(cap)}
