"""A BEIR dataset as it is downloaded, a zip (``scifact.zip``: ``scifact/corpus.jsonl``, ``queries.jsonl`` and
``qrels/test.tsv``): the qrels of one split, read from the zip without unpacking the rest.

Only the one member is decompressed (a corpus can be gigabytes), and only if its stated size is within the
limit the caller gives, so a zip cannot make the reader inflate more than that.
"""
from __future__ import annotations

import io
import re
import zipfile

ZIP_MAGIC = b"PK\x03\x04"  # the first bytes of a zip file (its first local file header)
SPLITS = ("test", "dev", "train")  # BEIR's qrels files: <folder>/qrels/<split>.tsv


class BeirZipError(ValueError):
    """A zip that holds no qrels for the split asked for (or is no zip, or whose qrels are too large)."""

    def __init__(self, file: str, message: str):
        self.file = file
        super().__init__(f"{file}: {message}")


def is_zip(data: bytes) -> bool:
    """Whether ``data`` starts as a zip file does."""
    return data[:4] == ZIP_MAGIC


def _qrels_members(names: list[str]) -> dict[str, list[str]]:
    """Each split's ``qrels/<split>.tsv`` members, at any depth (macOS's ``__MACOSX/`` copies left out)."""
    found: dict[str, list[str]] = {}
    for name in names:
        match = re.fullmatch(r"(?:[^/]+/)*qrels/([^/]+)\.tsv", name)
        if match and not name.startswith("__MACOSX/"):
            found.setdefault(match.group(1), []).append(name)
    return found


def qrels_in_zip(data: bytes, file: str, split: str = "test", max_bytes: int | None = None) -> tuple[str, bytes]:
    """The member name and the bytes of ``qrels/<split>.tsv`` in the BEIR zip ``data`` (named ``file`` in
    messages), at whatever depth the zip puts its folder.

    Raises :class:`BeirZipError` naming ``file`` when ``data`` is not a zip, when it holds no such member (saying
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
    if split not in SPLITS:
        raise ValueError(f"split must be one of {SPLITS}, got {split!r}")
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        raise BeirZipError(file, "not a zip file that can be read (a BEIR dataset's zip was expected)") from None
    with archive:
        members = _qrels_members(archive.namelist())
        chosen = members.get(split, [])
        if not chosen:
            has = ", ".join(s for s in SPLITS if s in members) or "none"
            raise BeirZipError(file, f"no qrels/{split}.tsv in this zip (its qrels: {has})")
        if len(chosen) > 1:
            raise BeirZipError(file, f"more than one qrels/{split}.tsv in this zip: {', '.join(sorted(chosen))}")
        info = archive.getinfo(chosen[0])
        if max_bytes is not None and info.file_size > max_bytes:
            raise BeirZipError(file, f"{info.filename} is {info.file_size:,} bytes unpacked, over the limit of "
                                     f"{max_bytes:,}")
        return info.filename, archive.read(info)  # zipfile stops at the stated size (and checks the CRC)
