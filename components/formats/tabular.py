"""Qrels and run files written as CSV or TSV with a header, read straight into the data model's columns (for
:func:`components.formats.readers.read`, the one public way to read a file).

Besides TREC format (see :mod:`components.formats.trec`), the "your data" page
accepts a table with a header line naming its columns, separated by commas
(CSV) or tabs (TSV):

- qrels: ``qid``, ``docid`` and ``grade``;
- run: ``qid``, ``docid`` and ``score``.

Each column may go by another common name (:data:`ALIASES`): the qid by
``query-id``, ``query_id``, ``queryid`` or ``topic``; the docid by ``doc-id``,
``doc_id``, ``corpus-id``, ``corpus_id``, ``docno`` or ``pid``; the grade by
``relevance``, ``rel`` or ``label``. A BEIR qrels file
(``qrels/test.tsv``: ``query-id corpus-id score``) names its grade
``score``: a qrels header takes ``score`` as the grade when its docid
column is named BEIR's way (``corpus-id`` or ``corpus_id``) and no column
names a grade otherwise; any other qrels header with ``score`` and no grade
is a run's header (the files are swapped). :func:`column_names` words the
names for a message or a page.

Column names are case-insensitive and may be padded with spaces; the columns
may come in any order, and other columns (``rank``, ``tag``, ...) are
ignored. A field may be quoted with double quotes, as spreadsheets and
pandas write them (``"doc,7"``), on one line, and be of any length (the TREC
reader then holds ids to its limits). Blank lines are skipped. Whitespace is
ASCII whitespace (space, tab, CR, LF, VT, FF), as in TREC format: a
non-breaking space or any other Unicode space is part of a field, on every
path.

How it reads: every data line becomes one row of the data model
(:mod:`components.engine.model`) on its own line number, with the same
limits on ids, order, ties (score descending, then docid descending; the
rank column, if any, is ignored), duplicate pairs and number syntax, and
the same messages, as a TREC file (:mod:`components.formats.columns`). An id
may hold any character a cell can: ``doc 221`` is one docid (a TREC file
cannot hold it, and :func:`components.formats.trec_layout.check_writable` says so
when one is written as TREC). What is particular to a table is checked
here, with the same error, :class:`~components.engine.model.TrecFormatError`
(file, line, found, expected):

- a missing header, or one that lacks a needed column (or names a run's
  columns in a qrels file, or a qrels file's in a run: the files are
  swapped), or names one twice (also under two of its names);
- a line with another number of fields than the header, an empty field, an
  unclosed quote; a first line holding carriage returns (old Mac line ends);
- spaces around the fields of a line without quotes are dropped, and a line
  with quotes is read as written (``"q<TAB>1"`` is one qid, never two
  columns); a grade or score with whitespace inside is refused;
- no data line after the header.

A file that is not UTF-8, or holds a NUL byte, is refused as a TREC file is
(:func:`components.formats.decode.text`). Anything without such a header is a TREC
file (:func:`detect`), which :func:`components.formats.readers.read` gives to the TREC reader.

Two readings give the same rows (a test checks it on generated tables): a
clean table (no quotes, no whitespace inside fields, every line complete)
is read with numpy over the bytes; anything else line by line in Python,
which also words every error.

No Streamlit import here.
"""
from __future__ import annotations

import codecs
import re
from dataclasses import dataclass
from typing import Literal, overload

import numpy as np
from numpy.typing import NDArray

from components.engine import keys, model
from components.formats import columns, decode, trec_layout

Kind = Literal["qrels", "run"]
Format = Literal["trec", "csv", "tsv"]
TableSource = decode.Source  # a path, str or bytes content, or a file object

COLUMNS: dict[str, tuple[str, str, str]] = {"qrels": ("qid", "docid", "grade"), "run": ("qid", "docid", "score")}
ALIASES: dict[str, tuple[str, ...]] = {  # each column's names in a header (lower case), its own name first
    "qid": ("qid", "query-id", "query_id", "queryid", "topic"),
    "docid": ("docid", "doc-id", "doc_id", "corpus-id", "corpus_id", "docno", "pid"),
    "grade": ("grade", "relevance", "rel", "label"),
    "score": ("score",),
}
BEIR_DOCIDS = ("corpus-id", "corpus_id")  # a qrels header whose docid is named so may name its grade "score" (BEIR)
_DELIMITERS = {"csv": ",", "tsv": "\t"}
_DELIMITER_NAMES = {",": "commas", "\t": "tabs"}
_TREC_COLUMNS = {"qrels": len(trec_layout.QRELS_LAYOUT.columns), "run": len(trec_layout.RUN_LAYOUT.columns)}
_SHOWN_CHARS = 60  # longest excerpt of a line quoted in a message
_SPACE = " \t\n\r\v\f"  # ASCII whitespace, the TREC reader's separators (str.split() and strip() take NBSP too)
_HAS_SPACE = re.compile(f"[{_SPACE}]").search
_PIECE_BYTES = 1 << 18  # the fast conversion works on about this much of a table at a time (bounds its arrays)
_BLOCK_LINES = 1 << 16  # the line-by-line reading hands this many lines at a time to its collector
_QUOTED = re.compile(r'"([^"]*(?:""[^"]*)*)"')  # a quoted field: a doubled quote stands for one


@dataclass(frozen=True)
class Header:
    """The header line of a table: where it is and what it names.

    Attributes
    ----------
    line : its 1-based line number.
    text : the line as written (without the line end).
    delimiter : "," or a tab.
    names : each column's name, stripped and lower-cased.
    keep : the positions of the columns read as qid, docid and the value
        (grade or score), 0-based.
    """

    line: int
    text: str
    delimiter: str
    names: tuple[str, ...]
    keep: tuple[int, int, int]


def detect(source: TableSource, kind: Kind) -> Format:
    """How a qrels or run file is written: "csv", "tsv" (a table with a header) or "trec".

    A file is a table when its first line that is not blank is a header: it
    names ``qid`` and ``docid`` (or another of their :data:`ALIASES`) among
    fields separated by tabs or commas. A
    first line with commas that splits into fewer fields than TREC's columns
    is treated as a table too, so that a table without a header gets a message
    about its header rather than about TREC columns (more fields is a TREC run
    line with text after its tag, which may hold a comma).

    Examples
    --------
    >>> detect(b"qid,docid,grade\\n1,doc7,2\\n", "qrels"), detect(b"qid\\tdocid\\tscore\\n", "run")
    ('csv', 'tsv')
    >>> detect(b"1 0 doc7 2\\n", "qrels"), detect(b"1\\t0\\tdoc,7\\t2\\n", "qrels")
    ('trec', 'trec')
    >>> detect(b"1,doc7,2\\n", "qrels"), detect(b"query-id\\tcorpus-id\\tscore\\n", "qrels")
    ('csv', 'tsv')
    """
    _check_kind(kind)
    first = _first_line(decode.read_source(source)[0])
    if first is None:
        return "trec"
    _, line = first
    header = _header_names(line)
    if header is not None:
        return "csv" if header[0] == "," else "tsv"
    # fewer fields than TREC's columns (more is TREC with text after the tag, which may hold a comma)
    if "," in line and not line.lstrip(_SPACE).startswith("#") and len(line.encode().split()) < _TREC_COLUMNS[kind]:
        return "csv"
    return "trec"


def columns_read(source: TableSource, kind: Kind) -> tuple[str, str, str] | None:
    """The names of a table's columns read as qid, docid and the value (grade or score), as its header writes
    them (lower case); None for a file in TREC format. Reads only the first line that is not blank.

    Examples
    --------
    >>> columns_read(b"\\nQuery-ID\\tcorpus-id\\tscore\\n1\\tdoc7\\t1\\n", "qrels"), columns_read(b"1 0 doc7 2\\n", "qrels")
    (('query-id', 'corpus-id', 'score'), None)
    """
    _check_kind(kind)
    data, name = decode.read_source(source, None, kind)
    first = _first_line(data)
    if first is None or detect(data, kind) == "trec":
        return None
    header = _find_header("\n" * (first[0] - 1) + first[1], name, kind)
    qp, dp, vp = header.keep
    return header.names[qp], header.names[dp], header.names[vp]


def column_names(kind: Kind) -> str:
    """The columns a table of this kind needs, each with its other names (:data:`ALIASES`), for a message or a page.

    Examples
    --------
    >>> column_names("run")
    'qid (or query-id, query_id, queryid, topic), docid (or doc-id, doc_id, corpus-id, corpus_id, docno, pid), score'
    >>> column_names("qrels").split("), ")[-1]
    'grade (or relevance, rel, label; or score when the docid is named corpus-id or corpus_id, as in BEIR)'
    """
    _check_kind(kind)
    described = []
    for column in COLUMNS[kind]:
        others = list(ALIASES[column][1:])
        if kind == "qrels" and column == "grade":
            others[-1] += f"; or score when the docid is named {' or '.join(BEIR_DOCIDS)}, as in BEIR"
        described.append(f"{column} (or {', '.join(others)})" if others else column)
    return ", ".join(described)


# ----------------------------------------------------------------------------
# Inside
# ----------------------------------------------------------------------------

def _check_kind(kind: str) -> None:
    if kind not in COLUMNS:
        raise ValueError(f"kind must be 'qrels' or 'run', got {kind!r}")


@overload
def _read(data: bytes, name: str, kind: Literal["qrels"]) -> model.Qrels: ...
@overload
def _read(data: bytes, name: str, kind: Literal["run"]) -> model.Run: ...
def _read(data: bytes, name: str, kind: Kind) -> model.Qrels | model.Run:
    """Read a qrels or run file that :func:`detect` finds a table (csv or tsv: :func:`components.formats.readers.read`
    calls it so), with columns qid, docid and grade or score (or their aliases); a run in trec_eval's order (score
    descending, ties by docid descending).

    Raises :class:`components.engine.model.TrecFormatError`, naming the file and line.

    Examples
    --------
    >>> qrels = _read(b"qid,docid,grade\\n1,doc7,2\\n\\n007,doc3,0\\n", "qrels", "qrels")
    >>> qrels.qids, qrels.grade.tolist(), qrels.line.tolist()
    (('1', '007'), [2, 0], [2, 4])
    >>> _read(b"query-id\\tcorpus-id\\tscore\\nq1\\tdoc7\\t1\\n", "qrels", "qrels").grade.tolist()  # BEIR's qrels
    [1]
    >>> _read(b"qid,docid,grade\\n1,doc7,high\\n", "q.csv", "qrels")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    components.engine.model.TrecFormatError: q.csv, line 2: found grade 'high'; expected a whole number ... (column 3 of the header 'qid,docid,grade')
    >>> run = _read(b"qid\\tdocid\\tscore\\nq1\\ta\\t0.5\\nq1\\tb\\t0.5\\nq1\\tc\\t0.9\\n", "run", "run")
    >>> [d.decode() for d in run.docids], run.line.tolist()
    (['c', 'b', 'a'], [4, 3, 2])
    """
    text = decode.text(data, name)
    header = _find_header(text, name, kind)
    rows = _rows_fast(data.removeprefix(codecs.BOM_UTF8), header, name, kind, len(data))
    if rows is None:
        rows = _rows(text, header, name, kind, len(data))
    return rows.model(name, f"column {header.keep[2] + 1} of the header {_show(header.text)}", tag="table")


def _first_line(data: bytes | str) -> tuple[int, str] | None:
    """(1-based number, text) of the first line that is not blank, or None (reads no further than that line)."""
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8):]
    start, number = 0, 1
    while start < len(data):
        end = data.find(b"\n", start)
        end = len(data) if end < 0 else end
        line = data[start:end]
        if line.strip():
            return number, line.decode("utf-8", "replace").rstrip("\r")
        start, number = end + 1, number + 1
    return None


def _header_names(line: str) -> tuple[str, tuple[str, ...]] | None:
    """(delimiter, names) when ``line`` names a qid and a docid (:data:`ALIASES`) among tab- or comma-separated
    fields."""
    for delimiter in ("\t", ","):
        fields = _split_fields(line, delimiter) if delimiter in line else None
        names = tuple(f.strip(_SPACE).lower() for f in fields or ())
        if any(n in ALIASES["qid"] for n in names) and any(n in ALIASES["docid"] for n in names):
            return delimiter, names
    return None


def _positions(names: tuple[str, ...], kind: Kind) -> dict[str, list[int]]:
    """Each column of this kind (:data:`COLUMNS`) -> the positions of the header names naming it.

    A qrels header names its grade ``score`` only BEIR's way (see the module's docstring).

    Examples
    --------
    >>> _positions(("query-id", "corpus-id", "score"), "qrels")
    {'qid': [0], 'docid': [1], 'grade': [2]}
    >>> _positions(("qid", "docid", "score"), "qrels")
    {'qid': [0], 'docid': [1], 'grade': []}
    """
    found = {c: [i for i, n in enumerate(names) if n in ALIASES[c]] for c in COLUMNS[kind]}
    if kind == "qrels" and not found["grade"] and any(names[i] in BEIR_DOCIDS for i in found["docid"]):
        found["grade"] = [i for i, n in enumerate(names) if n in ALIASES["score"]]
    return found


def _find_header(text: str, name: str, kind: Kind) -> Header:
    """The table's header, checked to name this kind's columns once each; else TrecFormatError."""
    first = _first_line(text)
    if first is None:
        raise model.TrecFormatError(name, max(text.count("\n"), 1), "an empty file (end of file)",
                                   f"a header line such as '{','.join(COLUMNS[kind])}', then data lines")
    number, line = first
    if "\r" in line:
        raise model.TrecFormatError(name, number, f"carriage returns inside the first line: {_show(line)}",
                                   f"a header line, then data lines, one line each, not {trec_layout.OLD_MAC_LINE_ENDS}")
    found = _header_names(line)
    wanted = COLUMNS[kind]
    if found is None:
        raise model.TrecFormatError(
            name, number, f"a comma-separated first line without a header: {_show(line)}",
            f"a first line naming the columns, such as '{','.join(wanted)}' "
            f"(or TREC format: {_trec_layout(kind).describe()})")
    delimiter, names = found
    positions = _positions(names, kind)
    other_kind: Kind = "run" if kind == "qrels" else "qrels"
    missing = [c for c in wanted if not positions[c]]
    if missing:
        hint = ""
        if all(_positions(names, other_kind).values()):
            hint = f" (those are the columns of a {other_kind} file: are the two files swapped?)"
        raise model.TrecFormatError(
            name, number, f"a header without the column {missing[0]!r}: {_show(line)}{hint}",
            f"a header naming the columns {', '.join(wanted)} (in any order; by these names: {column_names(kind)})")
    repeated = [c for c in wanted if len(positions[c]) > 1]
    if repeated:
        column = repeated[0]
        both = {names[i] for i in positions[column]}
        what = (f"the column {column!r} twice" if both == {column} else
                f"the columns {' and '.join(repr(names[i]) for i in positions[column])}, which both name the {column},")
        raise model.TrecFormatError(name, number, f"{what} in the header {_show(line)}",
                                   f"each of {', '.join(wanted)} once")
    qp, dp, vp = (positions[c][0] for c in wanted)
    return Header(number, line, delimiter, names, (qp, dp, vp))


def _rows(text: str, header: Header, name: str, kind: Kind, n_bytes: int) -> columns.Collected:
    """The table's data lines as rows, each on its own line number.

    The loop is kept lean (about a second per million lines): a line is
    looked at closely (:func:`_check_line`) only when something about it is
    off: a quote, the wrong number of fields, an empty field, or whitespace
    where the file has any. Lines go to the collector ``_BLOCK_LINES`` at a
    time, so that only one block's fields are Python strings at once.
    """
    qp, dp, vp = header.keep
    width = len(header.names)
    delimiter = header.delimiter
    lines = text.split("\n")
    body = sum(len(line) + 1 for line in lines[:header.line])  # where the lines after the header start
    spaces = any(text.find(c, body) >= 0 for c in " \t\v\f\r" if c != delimiter)  # else no field holds whitespace
    rows = columns.Collector(COLUMNS[kind][2], name, n_bytes)

    def fields_of(number: int) -> tuple[str, str, str] | None:
        line = lines[number - 1]
        if spaces:
            line = line.rstrip("\r")
            if not line.strip(_SPACE):
                return None
        elif not line:
            return None
        fields = line.split(delimiter)
        quoted = '"' in line
        if len(fields) != width or quoted:
            fields = _check_line(line, fields, header, name, number)
        qid, docid, value = fields[qp], fields[dp], fields[vp]
        if spaces and not quoted:  # a line with quotes is read as written: a quoted field is what the quotes hold
            qid, docid, value = qid.strip(_SPACE), docid.strip(_SPACE), value.strip(_SPACE)
        if not (qid and docid and value) or ((spaces or quoted) and _HAS_SPACE(value)):
            _check_fields(kind, (qid, docid, value), (qp, dp, vp), header, name, number, line)
        return qid, docid, value

    for lo in range(header.line + 1, len(lines) + 1, _BLOCK_LINES):
        numbers = range(lo, min(lo + _BLOCK_LINES, len(lines) + 1))
        block = [(number, fields) for number in numbers if (fields := fields_of(number)) is not None]
        if block:
            rows.add_rows([f[0] for _, f in block], [f[1] for _, f in block], [f[2] for _, f in block],
                          [number for number, _ in block])
    if not len(rows):
        each = "judgment" if kind == "qrels" else "result"
        raise model.TrecFormatError(name, len(lines) - (lines[-1] == "" and len(lines) > 1),
                                    "only a header (end of file)", f"data lines after the header, one per {each}")
    return rows.collected()


def _rows_fast(data: bytes, header: Header, name: str, kind: Kind, n_bytes: int,
               piece_bytes: int = _PIECE_BYTES) -> columns.Collected | None:
    """What :func:`_rows` gives, read with numpy over the bytes; None when it does not apply.

    It applies to clean tables: no quote, no whitespace but the line ends
    (LF or CRLF) and a tab delimiter, exactly the header's number of fields
    on every line that is not blank, no empty field. Anything else goes to
    :func:`_rows`, which words the errors (and reads ids too long, or too
    large once padded). The table is read a piece at a time (about
    ``piece_bytes``, ending after a line feed:
    :func:`components.formats.decode.line_chunks`), each piece's fields
    made into columns at once, so that the index arrays stay a few times the
    piece.
    """
    delimiter = header.delimiter.encode()
    others = [c for c in (b" ", b"\t", b"\v", b"\f", b'"') if c != delimiter]
    if any(c in data for c in others) or data.count(b"\r") != data.count(b"\r\n"):
        return None
    buf = np.frombuffer(data, dtype=np.uint8)
    what = COLUMNS[kind][2]
    n_lines, longest = data.count(b"\n") + 1, [0, 0]
    pieces: list[tuple[np.ndarray, ...]] = []  # (qids, docids, values, lines) of each piece
    first_line, n_rows, bad = 1, 0, None
    for lo, hi in decode.line_chunks(data, piece_bytes):
        found = _fields_in_piece(buf[lo:hi], first_line, hi == buf.size, header)
        if found is None:
            return None
        first_line += data.count(b"\n", lo, hi)
        start, end, line = found[0] + lo, found[1] + lo, found[2]
        if not line.size:
            continue
        longest = [max(longest[c], int((end[:, c] - start[:, c]).max())) for c in (0, 1)]
        if max(longest) > columns.MAX_ID_BYTES or \
                columns.padded_size(n_lines, longest) > columns.padded_bound(n_bytes):
            return None  # ids too long, or too large once padded: read line by line, which words it
        values, refused = columns.parse_column(buf, start[:, 2], end[:, 2], what)
        if bad is None and refused.any():
            row = int(np.argmax(refused))
            bad = n_rows + row, buf[start[row, 2]:end[row, 2]].tobytes()
        pieces.append((columns.strings(buf, start[:, 0], end[:, 0]), columns.strings(buf, start[:, 1], end[:, 1]),
                       values, line))
        n_rows += line.size
    if not pieces:
        return None
    qids, qidx = keys.query_codes(columns.packed([p[0] for p in pieces]))
    return columns.Collected(what, qids, qidx, columns.packed([p[1] for p in pieces]),
                             np.concatenate([p[2] for p in pieces]), np.concatenate([p[3] for p in pieces]), bad)


def _fields_in_piece(piece: np.ndarray, first_line: int, last: bool,
                     header: Header) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """(start, end, line): where the kept fields (qid, docid, value) of each data line of a piece of a clean table
    (see :func:`_rows_fast`) lie in the piece, and the lines' numbers. None when a line is not clean.

    ``first_line`` is the number of the piece's first line; a piece that is
    not the ``last`` ends after a line feed (what follows is the next piece's).
    """
    newlines = np.flatnonzero(piece == ord("\n"))
    starts: NDArray[np.intp] = np.r_[0, newlines + 1]
    ends: NDArray[np.intp] = np.r_[newlines, piece.size]
    if not last:
        starts, ends = starts[:-1], ends[:-1]
    crlf = ends > starts
    crlf[crlf] = piece[ends[crlf] - 1] == ord("\r")
    ends = ends - crlf
    number = np.arange(first_line, first_line + starts.size)
    data_line = (number > header.line) & (ends > starts)
    cuts = np.flatnonzero(piece == ord(header.delimiter))
    first = np.searchsorted(cuts, starts)
    width = len(header.names)
    if np.any((np.searchsorted(cuts, ends) - first)[data_line] != width - 1):
        return None
    rows = np.flatnonzero(data_line)
    field_start = np.empty((rows.size, width), dtype=np.int64)
    field_end = np.empty((rows.size, width), dtype=np.int64)
    field_start[:, 0] = starts[rows]
    field_end[:, -1] = ends[rows]
    if width > 1:
        between = cuts[first[rows][:, None] + np.arange(width - 1)]
        field_end[:, :-1] = between
        field_start[:, 1:] = between + 1
    keep = list(header.keep)
    start, end = field_start[:, keep], field_end[:, keep]
    if np.any(end <= start):
        return None
    return start, end, number[rows]


def _check_line(line: str, fields: list[str], header: Header, name: str, number: int) -> list[str]:
    """A data line's fields, unquoted; TrecFormatError unless there are as many as the header names."""
    if '"' in line:
        fields = _fields(line, header.delimiter, name, number)
    if len(fields) != len(header.names):
        raise model.TrecFormatError(
            name, number, f"{len(fields)} field{'s' * (len(fields) != 1)} in {_show(line)}",
            f"{len(header.names)} fields separated by {_DELIMITER_NAMES[header.delimiter]}, as in the header on "
            f"line {header.line}: {_show(header.text)}")
    return fields


def _check_fields(kind: Kind, values, positions, header: Header, name: str, number: int, line: str) -> None:
    """Raise TrecFormatError for the first field of a line that is empty, or a number with whitespace inside."""
    for column, field, position in zip(COLUMNS[kind], values, positions):
        _check_field(column, field, position, header, name, number, line)


def _fields(line: str, delimiter: str, name: str, number: int) -> list[str]:
    """A data line's fields; quoted fields (double quotes) are unquoted."""
    fields = _split_fields(line, delimiter)
    if fields is None:
        raise model.TrecFormatError(name, number, f"a quote that is not closed, or text after a closing quote, "
                                                 f"in {_show(line)}",
                                   'fields quoted as "...", each closed on its own line')
    return fields


def _split_fields(line: str, delimiter: str) -> list[str] | None:
    """The fields of one line, as Python's ``csv.reader(strict=True)`` reads them; None where it raises an error.

    A field that starts with a double quote runs to the next quote that is
    not doubled, and must end there (a doubled quote inside stands for one);
    any other field runs to the next delimiter, quotes and all. Unlike the
    csv module, no limit on a field's length (``csv.field_size_limit()``, a
    setting of the whole process).

    Examples
    --------
    >>> _split_fields('q1,"doc,7","say ""hi"" now",a"b,', ",")
    ['q1', 'doc,7', 'say "hi" now', 'a"b', '']
    >>> _split_fields('q1,"doc', ","), _split_fields('q1,"doc"7', ",")
    (None, None)
    """
    fields, at = [], 0
    while True:
        if line.startswith('"', at):
            quoted = _QUOTED.match(line, at)
            if quoted is None:
                return None
            end = quoted.end()
            if end < len(line) and line[end] != delimiter:
                return None
            fields.append(quoted[1].replace('""', '"'))
        else:
            end = line.find(delimiter, at)
            end = len(line) if end < 0 else end
            fields.append(line[at:end])
        if end == len(line):
            return fields
        at = end + 1


def _check_field(column: str, field: str, position: int, header: Header, name: str, number: int,
                 line: str) -> None:
    where = f"column {position + 1} of the header {_show(header.text)}"
    if not field:
        raise model.TrecFormatError(name, number, f"an empty {column} in {_show(line)}", f"a {column} ({where})")
    if column in ("grade", "score") and _HAS_SPACE(field):
        raise model.TrecFormatError(name, number, f"{column} {_show(field)} with a space or tab inside",
                                    f"a {column} without spaces, tabs or line breaks, quoted or not (numbers are "
                                    "whitespace-free)", where)


def _trec_layout(kind: Kind):
    return trec_layout.QRELS_LAYOUT if kind == "qrels" else trec_layout.RUN_LAYOUT


def _show(text: str) -> str:
    """A line or field, quoted for a message (shortened; tabs and other controls escaped)."""
    return repr(text if len(text) <= _SHOWN_CHARS else text[:_SHOWN_CHARS] + "…")
