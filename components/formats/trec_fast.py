"""The fast TREC reader: pyarrow's multi-threaded CSV reader, on large clean files only.

Clean: a single space or a single tab between columns, no blank or comment
line, LF or CRLF line ends. It gives what the precise reader
(:mod:`components.formats.trec_precise`) gives for the same bytes, and
declines (:class:`Declined`) anything it cannot read exactly so; the
precise reader then reads the file and words any error.

No Streamlit import here.
"""
from __future__ import annotations

import numpy as np

from components.engine import keys
from components.formats.columns import MAX_ID_BYTES, padded_bound, padded_size, parse_column, strings, word_width
from components.formats.decode import line_chunks
from components.formats.trec_layout import Layout, Rows

_CHUNK_BYTES = 1 << 25  # the fast reader hands pyarrow about this many bytes at a time (bounds its memory)
_BLOCK_BYTES = 1 << 22  # ... which pyarrow splits into blocks of this size, parsed in parallel
MAX_COLUMNS = 16  # the fast reader declines a run whose lines have more columns (text after the tag)


class Declined(Exception):
    """The fast reader cannot read a file exactly as the precise reader would; the message says why."""


def rows(data: bytes, layout: Layout) -> Rows:
    """Read a clean file with pyarrow's multi-threaded CSV reader, or raise :class:`Declined`.

    Clean: one separator (a single space, or a single tab) between columns,
    no blank or comment line, LF or CRLF line ends. What it returns is what
    :func:`components.formats.trec_precise.rows` returns for the same bytes; anything that could
    read otherwise is declined (the precise reader then reads the file and
    words any error):

    - a vertical tab, a form feed, a lone carriage return, or both tabs and
      spaces (:func:`_clean_separator`, before parsing);
    - a line with another number of columns than the first line, a score
      pyarrow cannot read (pyarrow's own error), or an empty column, which is
      what repeated separators, one at the start or end of a line, and blank
      lines give;
    - a query id starting with ``#`` (a comment line), a score that is not
      finite, a grade the precise reader rejects;
    - an id longer than :data:`MAX_ID_BYTES`, or ids that would take more
      than :func:`padded_bound` once padded (checked before each piece's ids
      are padded, against the file's number of lines: every line of a file
      it reads is a data row).

    A run whose first line has text after the tag is read with that line's
    number of columns (:func:`_fast_width`): every line then has text after
    the tag, and is counted so; a run whose lines differ is declined.
    Scores are parsed by pyarrow (correctly rounded, as Python's ``float``);
    grades by the precise reader's own parser, since pyarrow also reads
    hexadecimal integers; query ids are dictionary-encoded by pyarrow. The file goes to pyarrow in pieces of about
    ``_CHUNK_BYTES``, each written into the result arrays before the
    next is parsed, so memory stays about the result's size.
    """
    try:
        import pyarrow as pa
        import pyarrow.csv as pa_csv
    except ImportError:
        raise Declined("pyarrow is not installed") from None
    separator = _clean_separator(data)
    n_columns = _fast_width(data, separator, layout)
    options = _csv_options(pa, pa_csv, separator, n_columns, layout)
    whole = pa.py_buffer(data)
    columns = _FastColumns(layout, n_rows=data.count(b"\n") + (not data.endswith(b"\n")), n_bytes=len(data),
                           extra=n_columns > len(layout.columns))
    try:
        for lo, hi in line_chunks(data, _CHUNK_BYTES):
            columns.add(pa_csv.read_csv(pa.BufferReader(whole.slice(lo, hi - lo)), **options))
    except pa.ArrowException as err:
        raise Declined(f"pyarrow: {err}") from None
    finally:
        pa.default_memory_pool().release_unused()  # what pyarrow kept for the next piece
    return columns.rows()


class _FastColumns:
    """The kept columns of the fast reader, filled one piece (a pyarrow table) at a time.

    ``n_rows`` is the file's number of lines (every one a data row, or the
    file is declined), ``n_bytes`` its size; ``extra`` whether every line has
    text after the layout's columns (:func:`_fast_width`).
    """

    def __init__(self, layout: Layout, n_rows: int, n_bytes: int, extra: bool = False):
        self.layout, self.n_rows, self.n_bytes, self.extra = layout, n_rows, n_bytes, extra
        self.longest = [0, 0]  # the longest qid and docid so far, in bytes
        self.qid_vocabs: list[np.ndarray] = []  # each block's distinct query ids
        self.n_vocab = 0  # their number so far
        self.qid_codes, self.docids, self.values = _Column(n_rows), _Column(n_rows), _Column(n_rows)

    def add(self, table) -> None:
        """Take one piece's rows, or raise :class:`Declined`."""
        qid, docid, value = self.layout.keep
        _check_filled(table, self.layout)
        for encoded in table.column(qid).chunks:  # dictionary-encoded by pyarrow, block by block
            vocab = self.ids(0, encoded.dictionary)  # the block's distinct query ids, in order of first appearance
            codes = self.qid_codes.reserve(len(encoded), np.int64)
            np.add(_numbers(encoded.indices), self.n_vocab, out=codes, dtype=np.int64)  # into all blocks' ids
            self.qid_vocabs.append(vocab)
            self.n_vocab += vocab.size
        for array in table.column(docid).chunks:
            self.ids(1, array, self.docids)
        _fast_values(table.column(value), self.layout.value, self.values)

    def ids(self, c: int, array, into: _Column | None = None) -> np.ndarray:
        """Ids (c: 0 qids, 1 docids) of a pyarrow binary array as an ``S`` array; written into a column when given.

        :class:`Declined` for an id over :data:`MAX_ID_BYTES`, or when the
        file's padded ids would pass :func:`padded_bound` (before padding).
        """
        buf, start, end = _arrow_bytes(array)
        if not start.size:
            return np.zeros(0, dtype="S8")
        longest = int(np.max(end - start))
        if longest > MAX_ID_BYTES:
            raise Declined(f"an id longer than {MAX_ID_BYTES} bytes")
        self.longest[c] = max(self.longest[c], longest)
        if padded_size(self.n_rows, self.longest) > padded_bound(self.n_bytes):
            raise Declined("ids that would take too much memory once padded")
        out = None if into is None else into.reserve(start.size, f"S{word_width(longest)}")
        return strings(buf, start, end, out)

    def rows(self) -> Rows:
        """The rows taken, as the precise reader gives them; :class:`Declined` for a comment line or no row."""
        if not self.qid_vocabs:
            raise Declined("no data line")
        vocab, codes = keys.factorize(np.concatenate(self.qid_vocabs))  # first appearance in the blocks: in the file
        if np.any(vocab.view(np.uint8)[::vocab.dtype.itemsize] == ord("#")):
            raise Declined("a comment line")
        qidx = codes[self.qid_codes.values()]
        return Rows(tuple(q.decode() for q in vocab.tolist()), qidx, self.docids.values(), self.values.values(),
                     np.arange(1, qidx.size + 1), qidx.size if self.extra else 0)


class _Column:
    """A column written piece by piece into one array allocated for the file's number of lines.

    Only the rows written take memory (the pages beyond are never touched),
    and no piece outlives its chunk. Byte strings wider than those so far
    widen the array (the rows written are copied once).
    """

    def __init__(self, capacity: int):
        self.capacity, self.size = capacity, 0
        self.array: np.ndarray | None = None  # allocated by the first reserve()

    def append(self, piece: np.ndarray) -> None:
        self.reserve(piece.size, piece.dtype)[:] = piece

    def reserve(self, n: int, dtype) -> np.ndarray:
        """The next n rows, to be written by the caller (a view), for values of dtype."""
        dtype = np.dtype(dtype)
        if self.array is None or dtype.itemsize > self.array.dtype.itemsize:
            wider = np.empty(self.capacity, dtype=dtype)
            if self.array is not None:
                wider[:self.size] = self.array[:self.size]
            self.array = wider
        self.size += n
        return self.array[self.size - n:self.size]

    def values(self) -> np.ndarray:
        """The rows written (a view of the array)."""
        if self.array is None:  # the readers reserve rows in every column before asking for them
            raise RuntimeError("a column read before any row was written to it")
        return self.array[:self.size]


def _clean_separator(data: bytes) -> str:
    """The separator of a file the fast reader may read (" " or "\\t"), or :class:`Declined`.

    Declines what pyarrow would split otherwise than the precise reader: a
    vertical tab or a form feed (whitespace to the precise reader, part of a
    value to pyarrow), a carriage return that does not end a line (pyarrow
    ends a line there), and tabs mixed with spaces (pyarrow takes one
    separator). Each check is a ``memchr`` over the bytes.
    """
    for byte, what in ((b"\x0b", "a vertical tab"), (b"\x0c", "a form feed")):
        if byte in data:
            raise Declined(what)
    if b"\r" in data and not _carriage_returns_end_lines(data):
        raise Declined("a carriage return inside a line")
    tab, space = b"\t" in data, b" " in data
    if tab and space:
        raise Declined("both tabs and spaces between columns")
    return "\t" if tab else " "


def _carriage_returns_end_lines(data: bytes) -> bool:
    """Whether every carriage return in data is followed by a line feed (CRLF line ends).

    A chunk at a time: a chunk ends after a line feed, so it never splits a
    CRLF.
    """
    buf = np.frombuffer(data, dtype=np.uint8)
    for lo, hi in line_chunks(data):
        returns = np.flatnonzero(buf[lo:hi] == ord("\r")) + lo
        if returns.size and (returns[-1] + 1 >= hi or np.any(buf[returns + 1] != ord("\n"))):
            return False
    return True


def _fast_width(data: bytes, separator: str, layout: Layout) -> int:
    """How many columns pyarrow is to read: the layout's, or, for a run, its first line's when that has more.

    The extra columns are text after the tag, which the precise reader
    ignores: pyarrow fails on any line with another number of columns, and
    the file is declined. More than :data:`MAX_COLUMNS` is declined
    at once (a column costs memory and time whatever it holds).

    Examples
    --------
    >>> from components.formats.trec_layout import QRELS_LAYOUT, RUN_LAYOUT
    >>> _fast_width(b"1 Q0 d 1 2.5 tag some notes\\n", " ", RUN_LAYOUT), _fast_width(b"1 0 d 1 x\\n", " ", QRELS_LAYOUT)
    (8, 4)
    """
    if not layout.ignores_extra:
        return len(layout.columns)
    end = data.find(b"\n")
    first_line = data[:end if end >= 0 else len(data)].rstrip(b"\r")
    n_columns = first_line.count(separator.encode()) + 1
    if n_columns > MAX_COLUMNS:
        raise Declined(f"more than {MAX_COLUMNS} columns")
    return max(n_columns, len(layout.columns))


def _csv_options(pa, pa_csv, separator: str, n_columns: int, layout: Layout) -> dict:
    """pyarrow's CSV options for n_columns columns of a layout: no header, no quoting; bytes, but the score float64.

    Query ids come dictionary-encoded (each block's distinct ids, and an index
    per row), since a file holds few of them, each on many lines.
    """
    names = [f"column{i + 1}" for i in range(n_columns)]
    types = [pa.binary()] * len(names)
    types[layout.keep[0]] = pa.dictionary(pa.int32(), pa.binary())
    if layout.value == "score":
        types[layout.keep[2]] = pa.float64()
    return {
        "read_options": pa_csv.ReadOptions(column_names=names, block_size=_BLOCK_BYTES),
        "parse_options": pa_csv.ParseOptions(delimiter=separator, quote_char=False, double_quote=False,
                                             escape_char=False, newlines_in_values=False, ignore_empty_lines=False),
        "convert_options": pa_csv.ConvertOptions(column_types=dict(zip(names, types)), null_values=[],
                                                 strings_can_be_null=False, quoted_strings_can_be_null=False,
                                                 check_utf8=False),
    }


def _check_filled(table, layout: Layout) -> None:
    """:class:`Declined` if a column of one piece parsed by pyarrow holds an empty value (see :func:`_offsets`).

    The query ids are checked where their dictionary becomes byte strings,
    and a score column holds numbers (pyarrow fails on an empty one).
    """
    for c in range(table.num_columns):  # the extra columns of a run too: an empty one is a separator too many
        if c != layout.keep[0] and (c != layout.keep[2] or layout.value != "score"):
            for array in table.column(c).chunks:
                _offsets(array)


def _fast_values(column, what: str, values: _Column) -> None:
    """Write one piece's scores (parsed by pyarrow) or grades (the precise reader's parser); or :class:`Declined`."""
    if what == "grade":
        grades, bad = parse_column(*_arrow_bytes(column.combine_chunks()), "grade")
        if bad.any():
            raise Declined("a grade the precise reader rejects")
        values.append(grades)
        return
    for array in column.chunks:
        scores = values.reserve(len(array), np.float64)
        scores[:] = _numbers(array)
        if not np.all(np.isfinite(scores)):
            raise Declined("a score that is not a finite number")


def _numbers(array) -> np.ndarray:
    """A pyarrow array of integers or floats without nulls, as a NumPy view of its values' buffer (pyarrow's own
    ``to_numpy`` imports pandas the first time: a quarter of a second of a three-second evaluation)."""
    from pyarrow import types

    if array.null_count:
        raise Declined("a missing value")
    dtype = np.dtype(f"{'float' if types.is_floating(array.type) else 'int'}{array.type.bit_width}")
    return np.frombuffer(array.buffers()[1], dtype=dtype)[array.offset:array.offset + len(array)]


def _arrow_bytes(array) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(buf, start, end) of a pyarrow binary array, value i at buf[start[i]:end[i]]; :class:`Declined` if one is ""."""
    if not len(array):
        return np.zeros(0, dtype=np.uint8), np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.int32)
    offsets = _offsets(array)
    return np.frombuffer(array.buffers()[2], dtype=np.uint8), offsets[:-1], offsets[1:]


def _offsets(array) -> np.ndarray:
    """The n + 1 value offsets of a pyarrow binary array; :class:`Declined` if a value is empty.

    An empty value is what two separators in a row, a separator at the start
    or end of a line, or a blank line give: the precise reader sees fewer
    columns there.
    """
    offsets = np.frombuffer(array.buffers()[1], dtype=np.int32)[array.offset:array.offset + len(array) + 1]
    if len(array) and np.diff(offsets).min() == 0:
        raise Declined("an empty column (repeated separators, or a blank line)")
    return offsets
