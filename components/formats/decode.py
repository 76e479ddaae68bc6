"""Bytes in: a qrels or run file's raw bytes, at most :func:`max_file_bytes`, checked to be UTF-8 text.

Every reader starts here, whatever the format: :func:`read_source` takes a
path, the content as ``bytes`` or ``str``, or a binary file object (an
upload); :func:`check_text` drops a UTF-8 byte-order mark and refuses bytes
that are not UTF-8 text, or a NUL byte, naming the line (and UTF-16 or
UTF-32 when the file looks like one); :func:`line_chunks` cuts a file into
pieces of whole lines, which the readers work through one at a time.

A file read from a path or a file object is at most
:data:`DEFAULT_MAX_FILE_MB` = 1,024 MiB, or ``RANKWISE_MAX_FILE_MB`` MiB when
that environment variable is set; it is read up to the limit only (a device
such as ``/dev/zero``, whose size is 0, never ends), then refused with
:class:`FileTooLargeError` (an ``OSError``, errno EFBIG) naming the file,
the limit and the variable.

No Streamlit import here.
"""
from __future__ import annotations

import codecs
import errno
import os
from typing import BinaryIO, Union

from components.engine.checks import read_whole
from components.engine.model import TrecFormatError

Source = Union[str, bytes, bytearray, memoryview, "os.PathLike[str]", BinaryIO]
MAX_FILE_VARIABLE = "RANKWISE_MAX_FILE_MB"  # the environment variable that sets the largest file read (MiB)
DEFAULT_MAX_FILE_MB = 1024  # ... when it is not set: a run of 1,000 results for each of 20,000 queries fits
MIB = 1 << 20
_READ_BYTES = 1 << 24  # a file whose size is unknown (a pipe, a device) is read this many bytes at a time
_CHUNK_BYTES = 1 << 24  # the readers work on about this many bytes at a time (bounds their masks)


class FileTooLargeError(OSError):
    """A file read from a path or a file object that goes on past :func:`max_file_bytes` (errno EFBIG)."""


def max_file_bytes() -> int:
    """The most bytes read from a path or a file object: :data:`MAX_FILE_VARIABLE` MiB, read at each call (a value
    that is not a whole number from 1 up is ignored), else :data:`DEFAULT_MAX_FILE_MB` MiB.

    Examples
    --------
    >>> max_file_bytes() == int(os.environ.get(MAX_FILE_VARIABLE, DEFAULT_MAX_FILE_MB)) * 2**20
    True
    """
    given = read_whole(os.environ.get(MAX_FILE_VARIABLE, ""))
    return (given if given is not None and given >= 1 else DEFAULT_MAX_FILE_MB) * MIB


def read_source(source: Source, name: str | None = None, default: str = "file") -> tuple[bytes, str]:
    """The raw bytes of a path, a str or bytes content, or a file object; and a name for messages.

    A path or a file object is read up to :func:`max_file_bytes` (a device
    such as ``/dev/zero`` never ends): past it, :class:`FileTooLargeError`.
    """
    if isinstance(source, os.PathLike):
        with open(source, "rb") as file:
            return _read_capped(file, os.fspath(source)), name or os.fspath(source)
    if isinstance(source, str):
        return source.encode("utf-8", "surrogatepass"), name or default
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source), name or default
    if hasattr(source, "read"):
        name = name or str(getattr(source, "name", default))
        return _read_capped(source, name), name
    raise TypeError(f"expected a path, bytes, str or a file object, got {type(source).__name__}")


def _read_capped(file, name: str) -> bytes:
    """All of a file object as bytes (text as UTF-8), in one read for a regular file (its size known), else
    :data:`_READ_BYTES` at a time; FileTooLargeError as soon as it holds more than :func:`max_file_bytes`."""
    limit = max_file_bytes()
    try:
        size = os.fstat(file.fileno()).st_size  # 0 for a device or a pipe
    except (AttributeError, OSError, ValueError):  # no file descriptor (io.UnsupportedOperation is both)
        size = 0
    chunks: list = []
    total = 0
    while total <= limit:
        chunk = file.read(min(max(size - total + 1, _READ_BYTES), limit + 1 - total))
        if not chunk:
            if chunks and isinstance(chunks[0], str):
                return "".join(chunks).encode("utf-8", "surrogatepass")
            return b"".join(chunks)  # the one chunk itself when there is one
        chunks.append(chunk)
        total += len(chunk)
    raise FileTooLargeError(errno.EFBIG, f"larger than {limit / MIB:,.0f} MiB, the most a file may hold here; set "
                                         f"{MAX_FILE_VARIABLE} to a larger number of MiB to read it", name)


def check_text(data: bytes, name: str) -> bytes:
    """Drop a UTF-8 byte-order mark; raise unless the rest is UTF-8 text without NUL bytes.

    The advice names UTF-16 or UTF-32 when the file begins as one does (:func:`_wide_encoding`).
    """
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8):]
    bad, what, advice = None, "", "save the file as UTF-8"
    if not data.isascii():
        for lo, hi in line_chunks(data):  # a piece at a time (a str of the whole could take 4 bytes a character)
            try:
                data[lo:hi].decode("utf-8")  # a piece ends after a line feed, never inside a character
            except UnicodeDecodeError as err:
                bad, what = lo + err.start, f"byte 0x{data[lo + err.start]:02x}, which is not UTF-8 text"
                break
    if bad is None and b"\x00" in data:
        bad, what = data.index(b"\x00"), "a NUL byte"
        advice = "binary data, or UTF-16 or UTF-32 text: save it as UTF-8 text"
    if bad is None:
        return data
    wide = _wide_encoding(data)
    if wide is not None:
        advice = f"this file looks like {wide}: save it as UTF-8"
    line_start = data.rfind(b"\n", 0, bad) + 1
    raise TrecFormatError(name, data.count(b"\n", 0, bad) + 1, f"{what} (byte {bad - line_start + 1} of the line)",
                          f"UTF-8 text ({advice})")


def text(data: bytes, name: str) -> str:
    """A file's bytes as text, without a UTF-8 byte-order mark; :func:`check_text`'s error for bytes that are not
    UTF-8 text, or a NUL byte. For the readers that read text (a table, JSON), not bytes.

    >>> text(codecs.BOM_UTF8 + "q1,doc 7,1".encode(), "t.csv")
    'q1,doc 7,1'
    """
    data = data.removeprefix(codecs.BOM_UTF8)
    if b"\x00" not in data:
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            pass
    return check_text(data, name).decode("utf-8")  # raises, naming the line (a NUL byte, or not UTF-8)


# where an ASCII character's code units have NUL bytes (True) at the start of a file without a BOM; looked up
# with the first 4 bytes (fewer in a shorter file, which finds nothing)
_NUL_BYTES: dict[tuple[bool, ...], str] = {
    (False, True, True, True): "UTF-32", (True, True, True, False): "UTF-32",  # little-, big-endian
    (False, True, False, True): "UTF-16", (True, False, True, False): "UTF-16",
}


def _wide_encoding(data: bytes) -> str | None:
    """"UTF-32" or "UTF-16" when data begins as a file in that encoding does, else None.

    By its byte-order mark (UTF-32's first: its little-endian one, FF FE 00 00,
    begins with UTF-16's, FF FE), or, without one, by the NUL bytes of a first
    two ASCII characters (UTF-16) or a first one (UTF-32).

    Examples
    --------
    >>> [_wide_encoding("1 0 a 1\\n".encode(e)) for e in ("utf-32", "utf-16-be", "utf-32-le", "utf-8")]
    ['UTF-32', 'UTF-16', 'UTF-32', None]
    """
    if data.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
        return "UTF-32"
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "UTF-16"
    return _NUL_BYTES.get(tuple(byte == 0 for byte in data[:4]))


def line_chunks(data: bytes, size: int | None = None):
    """(lo, hi) byte ranges of about size bytes (default ``_CHUNK_BYTES``), each ending after a newline or the end.

    The readers (and the CSV reader's fast path) work a range at
    a time, so that their masks and index arrays stay a few times its size.
    """
    size = _CHUNK_BYTES if size is None else size
    lo = 0
    while lo < len(data):
        hi = data.find(b"\n", lo + size)
        hi = len(data) if hi < 0 else hi + 1
        yield lo, hi
        lo = hi
