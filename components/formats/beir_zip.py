"""A BEIR dataset as it is downloaded, a zip (``scifact.zip``: ``scifact/corpus.jsonl``, ``queries.jsonl`` and
``qrels/test.tsv``): the qrels of one split, read from the zip without unpacking the rest.

Only the one member is decompressed (a corpus can be gigabytes), and only if its stated size is within the
limit the caller gives, so a zip cannot make the reader inflate more than that.
"""
from __future__ import annotations

import io
import os
import re
import zipfile

from components.engine import model

ZIP_MAGIC = b"PK\x03\x04"  # the first bytes of a zip file (its first local file header)
SPLITS = ("test", "dev", "train")  # BEIR's qrels files: <folder>/qrels/<split>.tsv


class BeirZipError(model.TrecFormatError):
    """A zip that holds no qrels for the split asked for (or is no zip, or whose qrels are too large): a file that
    cannot be read, like any other (the app and the CLI say so as they say a bad line), with no line to name."""

    def __init__(self, file: str, message: str):
        ValueError.__init__(self, f"{file}: {message}")  # the parts kept, without TrecFormatError's "line N"
        self.file, self.line, self.found, self.expected, self.column = file, 0, message, "", None

    def __reduce__(self):
        return type(self), (self.file, self.found)


def is_zip(data: bytes) -> bool:
    """Whether ``data`` starts as a zip file does."""
    return data[:4] == ZIP_MAGIC


def is_zip_file(path: os.PathLike) -> bool:
    """Whether ``path`` is a file that starts as a zip file does (False for a folder or a missing path)."""
    try:
        with open(path, "rb") as file:
            return is_zip(file.read(len(ZIP_MAGIC)))
    except OSError:
        return False


def _qrels_members(names: list[str]) -> dict[str, list[str]]:
    """Each split's ``qrels/<split>.tsv`` members, at any depth (macOS's ``__MACOSX/`` copies left out)."""
    found: dict[str, list[str]] = {}
    for name in names:
        match = re.fullmatch(r"(?:[^/]+/)*qrels/([^/]+)\.tsv", name)
        if match and not name.startswith("__MACOSX/"):
            found.setdefault(match.group(1), []).append(name)
    return found


def _open(source: bytes | os.PathLike, file: str) -> zipfile.ZipFile:
    try:
        return zipfile.ZipFile(io.BytesIO(source) if isinstance(source, bytes) else source)
    except zipfile.BadZipFile:
        raise BeirZipError(file, "not a zip file that can be read (a BEIR dataset's zip was expected)") from None


def _member(archive: zipfile.ZipFile, file: str, split: str) -> zipfile.ZipInfo:
    if split not in SPLITS:
        raise ValueError(f"split must be one of {SPLITS}, got {split!r}")
    members = _qrels_members(archive.namelist())
    chosen = members.get(split, [])
    if not chosen:
        has = ", ".join(s for s in SPLITS if s in members) or "none"
        raise BeirZipError(file, f"no qrels/{split}.tsv in this zip (its qrels: {has})")
    if len(chosen) > 1:
        raise BeirZipError(file, f"more than one qrels/{split}.tsv in this zip: {', '.join(sorted(chosen))}")
    return archive.getinfo(chosen[0])


def qrels_member(source: bytes | os.PathLike, file: str, split: str = "test") -> str:
    """The name of the member :func:`qrels_in_zip` reads (from the zip's directory alone: nothing inflated)."""
    with _open(source, file) as archive:
        return _member(archive, file, split).filename


def qrels_in_zip(source: bytes | os.PathLike, file: str, split: str = "test",
                 max_bytes: int | None = None) -> tuple[str, bytes]:
    """The member name and the bytes of ``qrels/<split>.tsv`` in the BEIR zip ``source`` (its bytes, or its path:
    then only its directory and that member are read), named ``file`` in messages, at whatever depth the zip puts
    its folder.

    Raises :class:`BeirZipError` naming ``file`` when ``source`` is not a zip, when it holds no such member (saying
    which splits it has), when it holds two (naming them), or when the member is larger than ``max_bytes``.

    Examples
    --------
    >>> def zipped(files):
    ...     buffer = io.BytesIO()
    ...     with zipfile.ZipFile(buffer, "w") as z:
    ...         for name, text in files.items():
    ...             z.writestr(name, text)
    ...     return buffer.getvalue()
    >>> data = zipped({"scifact/corpus.jsonl": "{}", "scifact/qrels/test.tsv": "query-id\\tcorpus-id\\tscore\\n"})
    >>> qrels_in_zip(data, "scifact.zip")
    ('scifact/qrels/test.tsv', b'query-id\\tcorpus-id\\tscore\\n')
    >>> qrels_in_zip(data, "scifact.zip", "dev")
    Traceback (most recent call last):
    ...
    components.formats.beir_zip.BeirZipError: scifact.zip: no qrels/dev.tsv in this zip (its qrels: test)
    """
    with _open(source, file) as archive:
        info = _member(archive, file, split)
        if max_bytes is not None and info.file_size > max_bytes:
            raise BeirZipError(file, f"{info.filename} is {info.file_size:,} bytes unpacked, over the limit of "
                                     f"{max_bytes:,}")
        return info.filename, archive.read(info)  # zipfile stops at the stated size (and checks the CRC)
