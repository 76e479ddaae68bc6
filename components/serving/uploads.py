"""Uploaded files at workshop scale: one parsed copy per distinct file, and a cap on what one session holds.

- :func:`upload_record` is what a session keeps of a received file: its name,
  its bytes (the very object the uploader holds, not a copy) and their
  SHA-256.
- :func:`read_file` and :func:`judge_files` parse and join files through
  :data:`PARSED`, one :class:`~components.serving.shared_cache.SharedCache` for the
  whole server, keyed by content hash (never by the bytes), bounded by
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
import gc
import hashlib
import sys
from typing import Iterable, Literal, cast, overload

from components.engine import model
from components.formats import readers
from components.formats.json_formats import Fields
from components.serving import settings
from components.serving.settings import MIB
from components.serving.shared_cache import Holder, SharedCache

PARSED = SharedCache(settings.LIMITS.parsed_cache_bytes)
_cached_before = 0  # PARSED.size at the last collect_released()
# (qrels SHA-256, qrels name, run SHA-256, run name), then each file's reading options (fields, chunks) when one
# is set (see :func:`reading`)
Files = tuple


def upload_record(name: str, data: bytes) -> dict:
    """What a session keeps of a received file: ``{"name", "data", "sha256"}`` (hex digest).

    ``data`` is kept as it is when it is already ``bytes`` (an upload's
    ``getvalue()`` is the uploader's own buffer), so the session and the
    uploader share one copy.

    >>> data = b"1 0 d1 1\\n"
    >>> upload_record("q.txt", data)["data"] is data
    True
    """
    data = data if type(data) is bytes else bytes(data)
    return {"name": shown_name(name), "data": data, "sha256": hashlib.sha256(data).hexdigest()}


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


def reading(record: dict) -> tuple[Fields | None, str | None]:
    """A received file's reading options: the JSON fields a learner mapped (None: guessed) and the chunk
    separator (None: ids as they are); :func:`with_reading` sets them."""
    return record.get("fields"), record.get("chunks")


def with_reading(record: dict, fields: Fields | None, chunks: str | None) -> dict:
    """The record read with other options (the same bytes: a new dict, so the pair's key changes)."""
    return {**record, "fields": fields, "chunks": chunks}


def files_key(qrels: dict, run: dict) -> Files:
    """What identifies a pair of received files as read: (qrels SHA-256, qrels name, run SHA-256, run name), and
    both files' reading options when either is set."""
    key = (qrels["sha256"], qrels["name"], run["sha256"], run["name"])
    options = (reading(qrels), reading(run))
    return key if options == ((None, None), (None, None)) else (*key, *options)


def read(kind: str, sha256: str, name: str, data: bytes, holder: Holder, fields: Fields | None = None,
         chunks: str | None = None) -> readers.Read:
    """One file, parsed in whatever format it is written (:mod:`components.formats.readers`) with what was
    understood of it: shared, cached by (kind, content hash, name, options) while ``holder`` lives.

    Errors are not kept.
    """
    if kind not in ("qrels", "run"):
        raise ValueError(f"kind must be 'qrels' or 'run', got {kind!r}")
    checked = cast(readers.Kind, kind)
    return PARSED.get(("read", kind, sha256, name, fields, chunks),
                      lambda: readers.read(data, checked, name, fields=fields, chunks=chunks), holder)


@overload
def read_file(kind: Literal["qrels"], sha256: str, name: str, data: bytes, holder: Holder, fields: Fields | None = None,
              chunks: str | None = None) -> model.Qrels: ...
@overload
def read_file(kind: Literal["run"], sha256: str, name: str, data: bytes, holder: Holder, fields: Fields | None = None,
              chunks: str | None = None) -> model.Run: ...
@overload
def read_file(kind: str, sha256: str, name: str, data: bytes, holder: Holder, fields: Fields | None = None,
              chunks: str | None = None) -> model.Qrels | model.Run: ...
def read_file(kind: str, sha256: str, name: str, data: bytes, holder: Holder, fields: Fields | None = None,
              chunks: str | None = None) -> model.Qrels | model.Run:
    """The parsed file of :func:`read`."""
    return read(kind, sha256, name, data, holder, fields, chunks).parsed


def judge_files(files: Files, qrels: bytes, run: bytes, holder: Holder) -> model.JudgedRun:
    """The run joined with its qrels (each read through :func:`read_file` with the options in ``files``): shared,
    cached by ``files``."""
    qsha, qname, rsha, rname, *options = files
    (qfields, qchunks), (rfields, rchunks) = options or ((None, None), (None, None))
    return PARSED.get(("judge", files), lambda: model.judge(read_file("qrels", qsha, qname, qrels, holder, qfields, qchunks),
                                                           read_file("run", rsha, rname, run, holder, rfields, rchunks)),
                      holder)


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


def held_bytes(records: Iterable[dict | None]) -> int:
    """The bytes a session holds in these upload records, each distinct bytes object counted once."""
    distinct = {id(r["data"]): len(r["data"]) for r in records if r is not None}
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
