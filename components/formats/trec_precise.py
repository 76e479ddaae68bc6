"""The precise TREC reader: the file split into tokens with numpy over its bytes, any layout, every message.

Separators are ASCII whitespace; blank lines and ``#`` comments are
skipped; a line of another number of columns, a number that is not one, or
an id too long is a TrecFormatError naming the line (see
:mod:`components.formats.trec` for the layouts). No Python loop per line:
the file is worked through :func:`~components.formats.decode.line_chunks`
at a time.

No Streamlit import here.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from components.engine import keys
from components.engine.model import TrecFormatError, show
from components.formats.columns import NUMBER, check_id_sizes, parse_column, strings, why
from components.formats.decode import line_chunks
from components.formats.trec_layout import OLD_MAC_LINE_ENDS, QRELS_LAYOUT, RUN_LAYOUT, Layout, Rows


def rows(data: bytes, name: str, layout: Layout) -> Rows:
    """Read any layout the module accepts; raise TrecFormatError, with the line, for anything else."""
    tokens = _Tokens.of(data, name, layout)
    tokens.check_id_sizes(len(data))
    qids, qidx = keys.query_codes(tokens.strings(0))
    return Rows(qids, qidx, tokens.strings(1), _numbers(tokens, 2, layout.value), tokens.line, tokens.trailing)


@dataclass(frozen=True)
class _Tokens:
    """Where the kept columns of every data row lie in the file's bytes.

    ``start[r, c]`` and ``end[r, c]`` delimit kept column c of data row r
    (byte offsets, end exclusive); ``line[r]`` is the row's 1-based line;
    ``trailing`` counts the rows with text after the last column.
    """

    buf: np.ndarray
    start: np.ndarray
    end: np.ndarray
    line: np.ndarray
    name: str
    layout: Layout
    trailing: int

    @classmethod
    def of(cls, data: bytes, name: str, layout: Layout) -> "_Tokens":
        """Tokenize data (already checked by :func:`check_text`) or raise TrecFormatError."""
        buf = np.frombuffer(data, dtype=np.uint8)
        parts, first_line = [], 1
        for lo, hi in line_chunks(data):
            parts.append(_split_chunk(buf[lo:hi], lo, first_line, name, layout))
            first_line += data.count(b"\n", lo, hi)
        if not parts or not sum(p[2].size for p in parts):
            raise _no_data(data, name, layout)
        start, end, line = (np.concatenate([p[i] for p in parts]) for i in range(3))
        return cls(buf, start, end, line, name, layout, sum(p[3] for p in parts))

    def strings(self, c: int) -> np.ndarray:
        """Kept column c as an array of byte strings (``S`` dtype, one per row)."""
        return strings(self.buf, self.start[:, c], self.end[:, c])

    def token(self, row: int, c: int) -> bytes:
        """Kept column c of one row, as bytes."""
        return self.buf[self.start[row, c]:self.end[row, c]].tobytes()

    def column_name(self, c: int) -> str:
        position = self.layout.keep[c]
        return f"column {position + 1} of: {' '.join(self.layout.columns)}"

    def check_id_sizes(self, n_bytes: int) -> None:
        """Raise TrecFormatError for an id over :data:`~components.formats.columns.MAX_ID_BYTES`, or ids too large
        once padded (:func:`~components.formats.columns.check_id_sizes`)."""
        lengths = [self.end[:, c] - self.start[:, c] for c in (0, 1)]
        what = [self.layout.columns[self.layout.keep[c]] for c in (0, 1)]
        check_id_sizes(self.name, self.line, lengths, n_bytes, what, self.token)


def _split_chunk(chunk: np.ndarray, offset: int, first_line: int, name: str, layout: Layout):
    """Token offsets of the kept columns of one chunk's data rows, their line numbers, and how many had more.

    Separators are ASCII whitespace (space, tab, CR, LF, VT, FF), as Python's
    ``bytes.split()``. A line is skipped when it is blank or its first token
    starts with ``#``; any other line must have exactly the layout's columns,
    or, for a layout that ignores what follows them (a run), at least as
    many, with no carriage return before its last token: that is a file with
    old Mac line ends, read as one line (:func:`_returns_inside`).
    """
    sep = np.ones(chunk.size + 2, dtype=bool)
    np.equal(chunk, ord(" "), out=sep[1:-1])
    sep[1:-1] |= (chunk - np.uint8(9)) <= 4  # bytes 9 to 13: \t \n \v \f \r
    edges = np.flatnonzero(sep[1:] != sep[:-1])  # alternately a token's start and its end
    start, end = edges[0::2], edges[1::2]
    line_start: NDArray[np.intp] = np.r_[0, np.flatnonzero(chunk == ord("\n")) + 1]
    first_token = np.searchsorted(start, line_start)
    count = np.diff(np.r_[first_token, start.size])
    is_data = count > 0
    is_data[is_data] = chunk[start[first_token[is_data]]] != ord("#")
    longer = is_data & (count > len(layout.columns))
    wrong = is_data & (count < len(layout.columns))
    if layout.ignores_extra and longer.any():
        longer_lines = np.flatnonzero(longer)
        wrong[longer_lines] = _returns_inside(chunk, start, line_start, first_token, count, longer_lines)
    else:
        wrong |= longer
    wrong_lines = np.flatnonzero(wrong)
    if wrong_lines.size:
        i = wrong_lines[0]
        text = chunk[line_start[i]:np.r_[line_start[1:] - 1, chunk.size][i]].tobytes()
        raise _wrong_columns(name, first_line + i, int(count[i]), text, layout)
    tokens = first_token[is_data][:, None] + np.asarray(layout.keep)
    return (start[tokens] + offset, end[tokens] + offset, first_line + np.flatnonzero(is_data),
            int(np.count_nonzero(longer)))


def _returns_inside(chunk: np.ndarray, start: np.ndarray, line_start: np.ndarray, first_token: np.ndarray,
                    count: np.ndarray, lines: np.ndarray) -> np.ndarray:
    """For each of these lines (each with at least one token), whether a carriage return lies before its last token.

    The arrays are :func:`_split_chunk`'s: token starts, line starts, each
    line's first token and number of tokens.

    Examples
    --------
    >>> chunk = np.frombuffer(b"a b\\r\\nc\\rd\\n", dtype=np.uint8)
    >>> _returns_inside(chunk, np.array([0, 2, 5, 7]), np.array([0, 5, 9]), np.array([0, 2, 4]),
    ...                 np.array([2, 2, 0]), np.array([0, 1])).tolist()
    [False, True]
    """
    returns = np.flatnonzero(chunk == ord("\r"))
    if not returns.size:
        return np.zeros(lines.size, dtype=bool)
    after_start = np.searchsorted(returns, line_start[lines])  # the line's first carriage return, if any
    first_return = returns[np.minimum(after_start, returns.size - 1)]
    last_token = start[first_token[lines] + count[lines] - 1]
    return (after_start < returns.size) & (first_return < last_token)


def _wrong_columns(name: str, line: int, found: int, text: bytes, layout: Layout) -> TrecFormatError:
    """The error for a line of another number of columns, with a hint for carriage returns or a swapped file.

    A carriage return before the line's end is where lines of a file with
    old Mac line ends (CR only) end: the whole file reads as one line. A
    qrels line with more columns is refused as trec_eval refuses it, and the
    message says so (a run's text after the tag is ignored instead).
    """
    other = RUN_LAYOUT if layout is QRELS_LAYOUT else QRELS_LAYOUT
    hint = ""
    if b"\r" in text.rstrip(b"\r"):
        hint = f", one line each, not {OLD_MAC_LINE_ENDS}"
    elif found == len(other.columns):
        hint = f" (that is the layout of a {other.kind} file: are the two files swapped?)"
    elif found > len(layout.columns):
        hint = (f", nothing after the {layout.columns[-1]} (trec_eval refuses such a line too: "
                f"\"Malformed line\")")
    return TrecFormatError(name, line, f"{found} column{'s' * (found != 1)} in {show(text)}",
                           f"{layout.describe()}{hint}")


def _no_data(data: bytes, name: str, layout: Layout) -> TrecFormatError:
    lines = data.count(b"\n") + (not data.endswith(b"\n"))
    found = "an empty file" if not data.strip() else "only blank lines and # comments"
    return TrecFormatError(name, max(lines, 1), f"{found} (end of file)",
                           f"at least one data line of {layout.describe()}")


def _numbers(tokens: _Tokens, c: int, what: str) -> np.ndarray:
    """Kept column c as grades (whole numbers in range) or scores (finite numbers); TrecFormatError if one is not."""
    values, bad = parse_column(tokens.buf, tokens.start[:, c], tokens.end[:, c], what)
    if not bad.any():
        return values
    row = int(np.argmax(bad))
    text = tokens.token(row, c)
    raise TrecFormatError(tokens.name, int(tokens.line[row]), f"{what} {show(text)}{why(text, what)}",
                          NUMBER[what][2], column=tokens.column_name(c))
