"""Ids and numbers, for every reader: how ids are kept and bounded, and how grades and scores are parsed.

Ids become fixed-width byte strings (``S`` arrays of UTF-8, padded with NUL
bytes), one per row, as wide as the longest id of their column, in whole
8-byte words (:func:`word_width`, so that the engine's 64-bit keys are a
view). Limits, each a TrecFormatError naming the line
(:func:`check_id_sizes`):

- an id (qid or docid) is at most :data:`MAX_ID_BYTES` = 512 bytes of
  UTF-8. Ids are kept padded to the longest of their column, so a long id
  costs its length on every row; 512 bytes holds every id scheme in use:
  numbers, TREC's document names and URLs, and Wikipedia titles (BEIR's
  DBpedia-entity, FEVER and others use them as docids; a title is at most
  255 bytes);
- padded, the qid and docid columns (rows × the longest qid, plus rows ×
  the longest docid, in whole 8-byte words) take at most 8 times the
  file's size plus 64 MiB (:func:`padded_bound`), so a few long ids among
  many short lines cannot make the parsed file many times its size.

A grade is a whole number from -1000 to 1000 (trec_eval reads grades as C
ints; judgments use a handful of levels, and the range keeps every gain and
sum finite and every normalised measure within [0, 1]), a score a finite
number, each written as Python's ``int()`` or ``float()`` reads it, without
``_``. :func:`parse_column` parses numbers of any length in groups of
similar length, none padded past twice its own length; :func:`why` says why
a number Python reads was still refused.

No Streamlit import here.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from components.engine import model
from components.engine.metrics import MAX_GRADE, MIN_GRADE
from components.engine.model import TrecFormatError, show
from components.formats.decode import MIB

MAX_ID_BYTES = 512  # the longest qid or docid, in bytes of UTF-8 (Wikipedia titles, used as docids, are <= 255)
_PADDED_PER_BYTE = 8  # padded ids may take this many bytes per byte of the file (see padded_bound) ...
_PADDED_FLOOR = 64 << 20  # ... plus this many, so that a file of short lines may hold an id up to the limit
_GATHER_BYTES = 1 << 20  # strings() copies about this many bytes of strings at a time (bounds its temporary copy)
_LOW_BYTES = np.array([(1 << (8 * i)) - 1 for i in range(9)], dtype="<u8")  # keeps the first i bytes of a word


def padded_size(rows: int, longest) -> int:
    """The bytes of id columns of ``rows`` rows padded to their longest ids (``longest``, in bytes, one per column)."""
    return rows * sum(word_width(n) for n in longest)


def padded_bound(n_bytes: int) -> int:
    """The most bytes a file of n_bytes may take as padded qid and docid columns (:func:`padded_size`).

    Real files take less than 8 times their size: an MS MARCO run, 16 bytes
    of padded ids per 30-byte line (0.5 times); a run whose docids are
    Wikipedia titles (up to 255 bytes, on lines of 40 to 50 bytes), 5 to 7
    times; its qrels, with shorter lines, up to about 8 times, but qrels are
    small, and the 64 MiB floor lets a file of short lines hold an id up to
    :data:`MAX_ID_BYTES` (100,000 lines padded to 520 bytes: 50 MiB). A file
    of 300 MB, the uploads' cap, may take 2.3 GiB.
    """
    return _PADDED_PER_BYTE * n_bytes + _PADDED_FLOOR


def check_id_sizes(name: str, line: np.ndarray, lengths: Sequence[np.ndarray], n_bytes: int, what: Sequence[str],
                   shown: Callable[[int, int], bytes | str],
                   about: Callable[[int, int], str] = lambda row, c: "") -> None:
    """Raise TrecFormatError for an id over :data:`MAX_ID_BYTES`, or ids too large once padded.

    ``lengths[c]`` holds the byte length of id column c (qid, docid) on each
    row, ``line`` each row's line, ``what[c]`` the column's name,
    ``shown(row, c)`` an id, and ``about(row, c)`` anything a message adds
    about a row (a JSON file's query or document). The first too-long qid or
    docid, in file order, is named; else, when the padded qid and docid
    columns would take more than :func:`padded_bound` of the file's
    ``n_bytes``, the longest id. Nothing is padded before this check.
    """
    longest = [int(length.max()) for length in lengths]
    too_long = [(int(np.argmax(length > MAX_ID_BYTES)), c) for c, length in enumerate(lengths)
                if longest[c] > MAX_ID_BYTES]
    if too_long:
        row, c = min(too_long)
        raise TrecFormatError(name, int(line[row]),
                              f"a {what[c]} of {int(lengths[c][row]):,} bytes: {show(shown(row, c))}{about(row, c)}",
                              f"a {what[c]} of at most {MAX_ID_BYTES} bytes of UTF-8")
    size, bound = padded_size(line.size, longest), padded_bound(n_bytes)
    if size > bound:
        c = int(np.argmax(longest))
        row = int(np.argmax(lengths[c] == longest[c]))
        raise TrecFormatError(
            name, int(line[row]),
            f"a {what[c]} of {longest[c]} bytes among {line.size:,} lines: with every id padded to the "
            f"longest of its column, the ids would take {size / MIB:,.1f} MiB",
            f"ids that take at most {_PADDED_PER_BYTE} times the file's size plus {_PADDED_FLOOR // MIB} MiB "
            f"(here {bound / MIB:,.1f} MiB) when padded: shorter ids, or fewer lines per file")


def strings(buf: np.ndarray, start: np.ndarray, end: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """The bytes buf[start:end] of every row as an ``S`` array (padded with NULs, which ids never hold).

    ``start`` must be non-decreasing (strings in the order they lie in buf).
    The width is the longest string's, rounded up to whole 8-byte words
    (:func:`word_width`), so that the keys of :func:`~components.engine.keys.id_keys` are a view,
    not a copy; or ``out``'s, when the strings are written into ``out``.
    Rows are copied about ``_GATHER_BYTES`` at a time (numpy's gather makes a
    copy first), so the copy adds little to the array's own size.
    """
    length = end - start
    width = word_width(int(length.max())) if out is None else out.dtype.itemsize
    out = np.empty(start.size, dtype=f"S{width}") if out is None else out
    rows = out.view(np.uint8).reshape(start.size, width)
    n_early = int(np.searchsorted(start, buf.size - width, side="right"))  # windows that end within buf
    step = max(_GATHER_BYTES // width, 1)
    for lo in range(0, n_early, step):
        rows[lo:min(lo + step, n_early)] = sliding_window_view(buf, width)[start[lo:min(lo + step, n_early)]]
    if n_early < start.size:  # the last few: from a copy of buf's end, padded
        tail_start = max(buf.size - width, 0)
        tail = np.concatenate([buf[tail_start:], np.zeros(width, dtype=np.uint8)])
        rows[n_early:] = sliding_window_view(tail, width)[start[n_early:] - tail_start]
    words = out.view("<u8").reshape(start.size, width // 8)
    for j in range(words.shape[1]):  # zero what lies beyond each string
        words[:, j] &= _LOW_BYTES[np.clip(length - 8 * j, 0, 8)]
    return out


def word_width(longest: int) -> int:
    """The width of an ``S`` array for strings of up to longest bytes: whole 8-byte words, at least one."""
    return -(-max(longest, 1) // 8) * 8


NUMBER = {
    "grade": (np.int64, int, f"a whole number from {MIN_GRADE} to {MAX_GRADE}, such as 0, 1, 2 or -2"),
    "score": (np.float64, float, "a finite number such as 12.5, -3 or 1e-3"),
}


def parse_column(buf: np.ndarray, start: np.ndarray, end: np.ndarray, what: str) -> tuple[np.ndarray, np.ndarray]:
    """The tokens buf[start:end] parsed as grades or scores: (values, bad), as :func:`parse_numbers`.

    Tokens are parsed in groups by length, each padded to its group's width
    (8, 16, 32, ... bytes: under twice its tokens' own length), so that one
    long number among many short ones does not pad every row to its length.
    ``start`` must be non-decreasing.
    """
    group = np.maximum(np.frexp(end - start - 1)[1], 3)  # 2**group bytes hold the token: ceil(log2(length))
    groups = np.flatnonzero(np.bincount(group))
    values, bad = np.zeros(start.size, dtype=NUMBER[what][0]), np.zeros(start.size, dtype=bool)
    for g in groups:
        rows = slice(None) if groups.size == 1 else np.flatnonzero(group == g)
        parsed, bad[rows] = parse_numbers(strings(buf, start[rows], end[rows]), what)
        if parsed is not None:
            values[rows] = parsed
    return values, bad


def parse_numbers(texts: np.ndarray, what: str) -> tuple[np.ndarray | None, np.ndarray]:
    """Byte strings parsed as grades or scores: (values, bad), bad marking each text that is not one.

    A grade must be a whole number from :data:`MIN_GRADE` to
    :data:`MAX_GRADE`, a score a finite number. ``values`` is None when a text
    cannot be parsed at all.
    """
    dtype, parse, _ = NUMBER[what]
    try:
        with np.errstate(over="ignore"):  # a score beyond float range becomes inf, and is bad
            values = texts.astype(dtype)  # numpy parses each value as Python's int() or float() does
        bad = ~np.isfinite(values) if what == "score" else (values < MIN_GRADE) | (values > MAX_GRADE)
    except (ValueError, OverflowError):
        values, bad = None, np.array([_value(t, what) is None for t in texts.tolist()])
    if np.any(texts.view(np.uint8) == ord("_")):  # Python's int() and float() allow 1_000
        bad |= (texts.view(np.uint8).reshape(texts.size, -1) == ord("_")).any(axis=1)
    return values, bad


def _value(text: bytes, what: str):
    """text parsed as a grade (a whole number in range) or a score (a finite number), or None."""
    try:
        value = NUMBER[what][1](text)
    except (ValueError, OverflowError):
        return None
    return value if (math.isfinite(value) if what == "score" else MIN_GRADE <= value <= MAX_GRADE) else None


def why(text: bytes, what: str) -> str:
    """Why a number that Python can read was still rejected ("" when it cannot be read)."""
    if b"_" in text:
        return ""
    try:
        value = NUMBER[what][1](text)
    except ValueError:
        return ""
    if what == "score":
        return ", which is not a finite number"
    return ", which is too large" if value > MAX_GRADE else ", which is too small"


# ----------------------------------------------------------------------------
# Rows read one at a time (JSON, a table line by line), into the model
# ----------------------------------------------------------------------------

_PACKED_ROWS = 1 << 12  # a Collector packs its rows into arrays this many at a time (or a query's, if more)
About = Callable[[str, bytes, int], str]  # what a message about a row adds, from its qid, its docid and the column


@dataclass(frozen=True)
class Collected:
    """A file's rows, packed, their ids' sizes checked: what :class:`Collector` gives (or a table's fast reading).
    ``bad``: the first row whose value is refused, and its text; None when every value is a grade (or score)."""

    what: str  # "grade" or "score"
    qids: tuple[str, ...]
    qidx: np.ndarray
    docids: np.ndarray
    value: np.ndarray
    line: np.ndarray
    bad: tuple[int, bytes] | None

    def model(self, name: str, value_column: str | None = None, about: About | None = None,
              tag: str = "") -> model.Qrels | model.Run:
        """The rows as the data model, checked as a TREC file's are: values that are grades (or scores), each
        document once per query (:func:`components.engine.model.qrels_of`). ``value_column`` names the value's
        column in a message, and ``about`` (see :class:`Collector`) adds to it; ``tag`` is a run's."""
        if self.bad is not None:
            row, text = self.bad
            more = "" if about is None else about(self.qids[self.qidx[row]], self.docids[row], 2)
            raise TrecFormatError(name, int(self.line[row]), f"{self.what} {show(text)}{why(text, self.what)}{more}",
                                  NUMBER[self.what][2], value_column)
        if self.what == "grade":
            return model.qrels_of(name, self.qids, self.qidx, self.docids, self.value, self.line)
        return model.run_of(name, self.qids, self.qidx, self.docids, self.value, self.line, tag=tag)


class Collector:
    """Rows added a query (:meth:`add`) or a block of lines (:meth:`add_rows`) at a time, packed into arrays
    :data:`_PACKED_ROWS` rows at a time (ids as UTF-8 bytes, values parsed as ``what``, "grade" or "score"), so
    that few rows are Python strings at once. Query ids are numbered in order of first appearance.

    The ids' sizes are checked (:func:`check_id_sizes`, against the file's ``n_bytes``) before the ids are padded
    to one width, and as blocks come when the padded ids grow past the bound; ``name`` and ``about`` are for the
    message (``about(qid, docid, c)``: what it adds about a row, c the column it shows: 0 the qid, 1 the docid,
    2 the value).
    """

    def __init__(self, what: str, name: str, n_bytes: int, about: About | None = None):
        self.what, self.name, self.n_bytes, self.about = what, name, n_bytes, about
        self.qids: dict[str, int] = {}
        self.qidx: list[int] = []  # rows not yet packed: their query indexes ...
        self.docs: list[str] = []  # ... document ids ...
        self.texts: list[str] = []  # ... values, as the file writes them ...
        self.lines: list[int] = []  # ... and lines
        self.packed: list[tuple[np.ndarray, ...]] = []  # (qidx, docids, doc_bytes, value, line) of each block
        self.bad: tuple[int, bytes] | None = None
        self.long_docid: tuple[int, bytes] | None = None  # the first docid over MAX_ID_BYTES (kept empty), its row
        self.longest = [0, 0]  # the longest qid and docid so far, in bytes
        self.n_measured = 0  # query ids measured so far
        self.n_packed = 0

    def add(self, qid: str, docs: list[str], texts: list[str], line: int) -> None:
        """One query's rows, all on one line."""
        self.qidx.extend([self.qids.setdefault(qid, len(self.qids))] * len(docs))
        self.docs.extend(docs)
        self.texts.extend(texts)
        self.lines.extend([line] * len(docs))
        if len(self.docs) >= _PACKED_ROWS:
            self._pack()

    def add_rows(self, qids: list[str], docs: list[str], texts: list[str], lines: list[int]) -> None:
        """Rows of their own lines."""
        codes = self.qids
        self.qidx.extend([codes.setdefault(q, len(codes)) for q in qids])
        self.docs.extend(docs)
        self.texts.extend(texts)
        self.lines.extend(lines)
        if len(self.docs) >= _PACKED_ROWS:
            self._pack()

    def __len__(self) -> int:
        return self.n_packed + len(self.docs)

    def collected(self) -> Collected:
        """Every row, packed (at least one row was added); TrecFormatError for an id too long."""
        self._pack()
        if max(self.longest) > MAX_ID_BYTES or padded_size(self.n_packed, self.longest) > padded_bound(self.n_bytes):
            self._check_id_sizes()  # raises
        blocks = [list(column) for column in zip(*self.packed)]  # (qidx, docids, doc_bytes, value, line) blocks
        self.packed = []

        def joined(c: int) -> np.ndarray:  # a column's blocks as one array, each block let go once copied
            pieces, blocks[c] = blocks[c], []
            return packed(pieces) if c == 1 else np.concatenate(pieces)

        return Collected(self.what, tuple(self.qids), joined(0), joined(1), joined(3), joined(4), self.bad)

    def _check_id_sizes(self) -> None:
        qidx, _, doc_bytes, _, line = (np.concatenate(c) for c in zip(*self.packed))
        qids = list(self.qids)
        qid_bytes = np.array([len(q.encode()) for q in qids], dtype=np.int64)

        def docid(row: int) -> bytes:
            if self.long_docid and self.long_docid[0] == row:
                return self.long_docid[1]
            block = int(np.searchsorted(np.cumsum([p[0].size for p in self.packed]), row, side="right"))
            return self.packed[block][1][row - sum(p[0].size for p in self.packed[:block])]

        about = self.about
        check_id_sizes(self.name, line, [qid_bytes[qidx], doc_bytes], self.n_bytes, ("qid", "docid"),
                       lambda row, c: qids[qidx[row]] if c == 0 else docid(row),
                       (lambda row, c: "") if about is None else
                       (lambda row, c: about(qids[qidx[row]], docid(row), c)))

    def _pack(self) -> None:
        if not self.docs:
            return
        texts = np.array([t.encode("utf-8") for t in self.texts])
        values, bad = parse_numbers(texts, self.what)
        if self.bad is None and bad.any():
            row = int(np.argmax(bad))
            self.bad = self.n_packed + row, texts[row]
        docids = [d.encode("utf-8") for d in self.docs]
        doc_bytes = np.array([len(d) for d in docids], dtype=np.int64)
        if doc_bytes.max() > MAX_ID_BYTES:  # kept empty, so that the block is not padded to it
            row = int(np.argmax(doc_bytes > MAX_ID_BYTES))
            self.long_docid = self.long_docid or (self.n_packed + row, docids[row])
            docids = [b"" if len(d) > MAX_ID_BYTES else d for d in docids]
        self.packed.append((np.array(self.qidx, dtype=np.int64), np.array(docids), doc_bytes,
                            values if values is not None else np.zeros(texts.size, dtype=NUMBER[self.what][0]),
                            np.array(self.lines, dtype=np.int64)))
        self.n_packed += texts.size
        self.qidx, self.docs, self.texts, self.lines = [], [], [], []
        new_qids = itertools.islice(self.qids, self.n_measured, None)
        self.longest = [max([self.longest[0], *(len(q.encode()) for q in new_qids)]),
                        max(self.longest[1], int(doc_bytes.max()))]
        self.n_measured = len(self.qids)
        if padded_size(self.n_packed, self.longest) > padded_bound(self.n_bytes):
            self._check_id_sizes()  # raises, about the rows so far (before more are padded)


def packed(pieces: list[np.ndarray]) -> np.ndarray:
    """``S`` arrays as one, as wide as the widest in whole 8-byte words (:func:`word_width`).

    >>> packed([np.array([b"a", b"bb"]), np.array([b"long-id-12"])]).tolist(), packed([np.array([b"a"])]).dtype
    ([b'a', b'bb', b'long-id-12'], dtype('S8'))
    """
    out = np.empty(sum(p.size for p in pieces), dtype=f"S{word_width(max(p.dtype.itemsize for p in pieces))}")
    at = 0
    for piece in pieces:
        out[at:at + piece.size] = piece
        at += piece.size
    return out
