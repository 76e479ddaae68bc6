"""Reading TREC qrels and run files into the metric engine's arrays.

The two files, whitespace-separated, one line per judgment or per result:

- qrels: ``qid iter docid grade`` (``iter`` is ignored; ``grade`` is a whole
  number, negative allowed: a grade <= 0 is non-relevant, with gain 0);
- run: ``qid Q0 docid rank score tag`` (``Q0``, ``rank`` and ``tag`` are
  ignored; ``score`` is a finite number).

Friendlier than trec_eval where it costs nothing: blank lines and lines whose
first character (after spaces) is ``#`` are skipped; tabs, repeated spaces,
CRLF line ends and a UTF-8 byte-order mark are fine. Ids are opaque strings
("007" and "7" are different queries or documents).

Semantics are trec_eval's (as pytrec_eval shows them):

- a run is ordered by score descending, ties broken by docid descending in
  byte order (the UTF-8 bytes compared); the rank column is ignored; scores
  are compared as 32-bit floats, as trec_eval stores them, so scores that
  differ only beyond about 7 significant digits tie;
- only queries in both files are evaluated; queries only in the qrels or only
  in the run are skipped and counted, unless ``complete=True`` (trec_eval's
  ``-c``), which scores judged queries missing from the run as 0;
- a returned document nobody judged has grade 0; a query whose judgments
  are all <= 0 is evaluated, with every value 0;
- a (qid, docid) pair listed twice, in either file, is an error.

Every problem with a file raises :class:`TrecFormatError`, whose message
names the file, the line, what was found there and what was expected.

Parsing is vectorised: the file is split into tokens with numpy over its bytes
(no Python loop per line), ids become fixed-width byte strings (``S`` arrays,
padded with NUL bytes, which is why a NUL byte in a file is an error) and are
numbered through a 64-bit key per id, checked against the bytes. Memory is
about (rows × longest id) bytes per id column.

No Streamlit import here: the "your data" page and the command-line
evaluator (:mod:`components.evaluate`) share this reader.
"""
from __future__ import annotations

import codecs
import os
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Union

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from components.metrics import QuerySet, query_set

Source = Union[str, bytes, bytearray, memoryview, "os.PathLike[str]", BinaryIO]

MAX_EXPONENTIAL_GRADE = 1023  # 2**1024 overflows a float: exponential gain needs grades below it
_CHUNK_BYTES = 1 << 24  # the tokenizer works on about this many bytes at a time (bounds its masks)
_SHOWN_CHARS = 60  # longest excerpt of a line quoted in a message


class TrecFormatError(ValueError):
    """A qrels or run file that cannot be read.

    The message reads "FILE, line N: found ...; expected ...", and the parts are
    kept as attributes for a page that lays them out itself.

    Attributes
    ----------
    file : the file's name as given (a path, or the name of an upload).
    line : 1-based line number.
    found : what is on that line.
    expected : what should be there instead.
    """

    def __init__(self, file: str, line: int, found: str, expected: str):
        self.file, self.line, self.found, self.expected = file, line, found, expected
        super().__init__(f"{file}, line {line}: found {found}; expected {expected}")

    def __reduce__(self):  # pickles with its parts, not only the message
        return type(self), (self.file, self.line, self.found, self.expected)


@dataclass(frozen=True)
class _Layout:
    """The columns of one kind of file, and the ones this reader keeps."""

    kind: str
    columns: tuple[str, ...]
    example: str
    keep: tuple[int, ...]  # column positions of qid, docid and the value (grade or score)

    def describe(self) -> str:
        return f"{len(self.columns)} columns: {' '.join(self.columns)} (e.g. '{self.example}')"


QRELS_LAYOUT = _Layout("qrels", ("qid", "iter", "docid", "grade"), "1 0 doc7 2", (0, 2, 3))
RUN_LAYOUT = _Layout("run", ("qid", "Q0", "docid", "rank", "score", "tag"), "1 Q0 doc7 1 12.5 myrun", (0, 2, 4))


# ----------------------------------------------------------------------------
# What the reader returns
# ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Qrels:
    """The judgments of a qrels file, one row per data line, in file order.

    Attributes
    ----------
    name : the file's name, for messages.
    qids : the distinct query ids, in order of first appearance; row i is
        about query ``qids[qidx[i]]``.
    qidx : query index of each judgment.
    doc_vocab : the distinct docids as UTF-8 bytes, in order of first appearance.
    doc : docid of each judgment, as an index into ``doc_vocab``.
    grade : the judged grade of each judgment.
    line : the 1-based line each judgment came from.
    """

    name: str
    qids: tuple[str, ...]
    qidx: np.ndarray
    doc_vocab: np.ndarray
    doc: np.ndarray
    grade: np.ndarray
    line: np.ndarray


@dataclass(frozen=True)
class Run:
    """The results of a run file, one row per data line, in trec_eval's order.

    Rows are sorted by query (in order of first appearance), then score
    descending (compared as 32-bit floats, as trec_eval does), then docid
    descending in byte order; ``rank`` is the 1-based position that order
    gives (the file's rank column is ignored).

    Attributes
    ----------
    name, qids, qidx, doc_vocab, doc, line : as in :class:`Qrels`.
    score : the score of each result, as read (64-bit).
    rank : its 1-based rank within its query.
    """

    name: str
    qids: tuple[str, ...]
    qidx: np.ndarray
    doc_vocab: np.ndarray
    doc: np.ndarray
    score: np.ndarray
    rank: np.ndarray
    line: np.ndarray


@dataclass(frozen=True)
class JudgedRun:
    """A run joined with its qrels: the engine's :class:`QuerySet`, with the ids kept.

    Attributes
    ----------
    qids : the evaluated query ids; query index i of ``queries`` is ``qids[i]``.
        They follow the qrels file's order.
    queries : the engine's arrays (rows grouped by query, top rank first).
    docids : the docid (UTF-8 bytes) of each returned row of ``queries``.
    scores : the score of each returned row.
    judged_docids : the docid of each judged row (``queries.judged_qidx``).
    qrels_only : judged queries the run does not answer (skipped, or scored 0
        when ``complete``).
    run_only : queries in the run that nobody judged (always skipped).
    complete : whether ``qrels_only`` queries are evaluated (trec_eval's -c).
    """

    qids: tuple[str, ...]
    queries: QuerySet
    docids: np.ndarray
    scores: np.ndarray
    judged_docids: np.ndarray
    qrels_only: tuple[str, ...]
    run_only: tuple[str, ...]
    complete: bool

    @property
    def skipped(self) -> dict[str, int]:
        """How many queries were left out: ``{"qrels_only": n, "run_only": n}``."""
        return {"qrels_only": 0 if self.complete else len(self.qrels_only), "run_only": len(self.run_only)}

    def ranking(self, q: int) -> list[tuple[str, float, int]]:
        """``(docid, score, grade)`` of query index q's returned documents, top first.

        Examples
        --------
        >>> judged = load("1 0 a 1\\n", "1 Q0 a 1 0.5 r\\n1 Q0 b 2 0.9 r\\n")
        >>> judged.ranking(0)
        [('b', 0.9, 0), ('a', 0.5, 1)]
        """
        lo, hi = np.searchsorted(self.queries.qidx, [q, q + 1])
        return [(d.decode(), float(s), int(g)) for d, s, g in
                zip(self.docids[lo:hi], self.scores[lo:hi], self.queries.grade[lo:hi])]


# ----------------------------------------------------------------------------
# Public functions
# ----------------------------------------------------------------------------

def read_qrels(source: Source, name: str | None = None) -> Qrels:
    """Read a qrels file: ``qid iter docid grade`` per line.

    Parameters
    ----------
    source : a path (``pathlib.Path`` or any ``os.PathLike``), the file's
        content as ``bytes`` or ``str``, or a binary file object (an upload).
        A plain ``str`` is content, not a path.
    name : the name used in messages (default: the path, the upload's name,
        or "qrels").

    Raises
    ------
    TrecFormatError
        Wrong number of columns, a grade that is not a whole number, no data
        lines, a (qid, docid) pair judged twice, or bytes that are not UTF-8.

    Examples
    --------
    >>> qrels = read_qrels("# topic 1\\n1 0 doc7 2\\n1\\t0\\tdoc3   -2\\r\\n007 0 doc7 1\\n")
    >>> qrels.qids, qrels.grade.tolist()
    (('1', '007'), [2, -2, 1])
    >>> read_qrels("1 0 doc7 2.5\\n", name="q.txt")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    components.trec.TrecFormatError: q.txt, line 1: found grade '2.5'; expected a whole number such as 0, 1, 2 or -2 ...
    """
    data, name = _read_source(source, name, "qrels")
    tokens = _Tokens.of(data, name, QRELS_LAYOUT)
    qids, qidx = _query_codes(tokens.strings(0))
    doc_vocab, doc = _factorize(tokens.strings(1))
    grade = _numbers(tokens, 2, "grade")
    _check_unique_pairs(qids, qidx, doc_vocab, doc, tokens.line, name, "judged")
    return Qrels(name, qids, qidx, doc_vocab, doc, grade, tokens.line)


def read_run(source: Source, name: str | None = None) -> Run:
    """Read a run file: ``qid Q0 docid rank score tag`` per line, in trec_eval's order.

    Parameters are as in :func:`read_qrels` (default name "run").

    Raises
    ------
    TrecFormatError
        Wrong number of columns, a score that is not a finite number, no data
        lines, a docid listed twice for one query, or bytes that are not UTF-8.

    Examples
    --------
    The rank column is ignored; equal scores (1, 1.0 and 1e0 are equal) are
    ordered by docid descending, in byte order:

    >>> run = read_run("q1 Q0 doc1 1 1 r\\nq1 Q0 doc2 2 1.0 r\\nq1 Q0 doc3 3 1e0 r\\nq1 Q0 doc0 4 2 r\\n")
    >>> [run.doc_vocab[d].decode() for d in run.doc], run.rank.tolist()
    (['doc0', 'doc3', 'doc2', 'doc1'], [1, 2, 3, 4])
    """
    data, name = _read_source(source, name, "run")
    tokens = _Tokens.of(data, name, RUN_LAYOUT)
    qids, qidx = _query_codes(tokens.strings(0))
    doc_vocab, doc = _factorize(tokens.strings(1))
    score = _numbers(tokens, 2, "score")
    _check_unique_pairs(qids, qidx, doc_vocab, doc, tokens.line, name, "listed")
    order = _trec_order(qidx, score, doc_vocab[doc])
    qidx, doc, score, line = qidx[order], doc[order], score[order], tokens.line[order]
    return Run(name, qids, qidx, doc_vocab, doc, score, _positions(qidx), line)


def judge(qrels: Qrels, run: Run, complete: bool = False) -> JudgedRun:
    """Join a run with its qrels into the engine's :class:`QuerySet`.

    Only queries in both files are evaluated, in the qrels file's order; with
    ``complete`` (trec_eval's -c), judged queries missing from the run are
    evaluated too, with an empty ranking (every value 0). Returned documents
    nobody judged get grade 0.

    Raises
    ------
    TrecFormatError
        When no query is in both files (and ``complete`` is off): the message
        shows a few query ids of each file, since this is usually a mismatch
        of id formats ("q1" against "1").

    Examples
    --------
    >>> qrels = read_qrels("1 0 a 2\\n1 0 b 0\\n2 0 c 1\\n3 0 d 1\\n")
    >>> run = read_run("1 Q0 b 1 9 r\\n1 Q0 a 2 8 r\\n1 Q0 x 3 7 r\\n2 Q0 c 1 1 r\\n9 Q0 a 1 1 r\\n")
    >>> judged = judge(qrels, run)
    >>> judged.qids, judged.queries.grade.tolist(), judged.skipped
    (('1', '2'), [0, 2, 0, 1], {'qrels_only': 1, 'run_only': 1})
    >>> judge(qrels, run, complete=True).qids
    ('1', '2', '3')
    """
    in_qrels = {qid: i for i, qid in enumerate(qrels.qids)}
    run_to_qrels = np.array([in_qrels.get(qid, -1) for qid in run.qids], dtype=np.int64)
    answered = np.zeros(len(qrels.qids), dtype=bool)
    answered[run_to_qrels[run_to_qrels >= 0]] = True
    evaluated = np.ones_like(answered) if complete else answered
    if not evaluated.any():
        raise _no_common_query(qrels, run)
    new_index = np.where(evaluated, np.cumsum(evaluated) - 1, -1)

    rows = np.flatnonzero(run_to_qrels[run.qidx] >= 0)  # results of judged queries, in run order
    rows = rows[_stable_order(new_index[run_to_qrels[run.qidx[rows]]])]  # grouped in the qrels' query order
    q = run_to_qrels[run.qidx[rows]]
    grade = _judged_grades(qrels, q, _doc_map(run.doc_vocab, qrels.doc_vocab)[run.doc[rows]])
    judged = np.flatnonzero(evaluated[qrels.qidx])
    queries = query_set(int(evaluated.sum()), new_index[q], run.rank[rows], grade,
                        new_index[qrels.qidx[judged]], qrels.grade[judged])
    return JudgedRun(
        qids=tuple(qid for qid, e in zip(qrels.qids, evaluated) if e),
        queries=queries,
        docids=run.doc_vocab[run.doc[rows]],
        scores=run.score[rows],
        judged_docids=qrels.doc_vocab[qrels.doc[judged]],
        qrels_only=tuple(qid for qid, a in zip(qrels.qids, answered) if not a),
        run_only=tuple(qid for qid, i in zip(run.qids, run_to_qrels) if i < 0),
        complete=complete,
    )


def load(qrels: Source, run: Source, complete: bool = False, gain: str | None = None,
         qrels_name: str | None = None, run_name: str | None = None) -> JudgedRun:
    """Read both files and :func:`judge` the run: the one path the CLI and the pages use.

    When ``gain`` is given, the grades are also checked to fit it
    (:func:`check_gain_fits`).

    Examples
    --------
    >>> load("1 0 a 1\\n", "1 Q0 a 1 0.5 r\\n").queries.grade.tolist()
    [1]
    """
    judgments = read_qrels(qrels, qrels_name)
    if gain is not None:
        check_gain_fits(judgments, gain)
    return judge(judgments, read_run(run, run_name), complete)


def check_gain_fits(qrels: Qrels, gain: str) -> None:
    """Raise :class:`TrecFormatError` if a grade is too large for exponential gain.

    Exponential gain is 2^rel − 1, which overflows a float for rel > 1023;
    linear gain takes any grade.

    Examples
    --------
    >>> qrels = read_qrels("1 0 a 2000\\n", name="big.txt")
    >>> check_gain_fits(qrels, "linear")
    >>> check_gain_fits(qrels, "exponential")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    components.trec.TrecFormatError: big.txt, line 1: found grade 2000, too large for exponential gain ...
    """
    if gain != "exponential" or qrels.grade.max() <= MAX_EXPONENTIAL_GRADE:
        return
    row = int(np.argmax(qrels.grade > MAX_EXPONENTIAL_GRADE))
    raise TrecFormatError(
        qrels.name, int(qrels.line[row]),
        f"grade {qrels.grade[row]}, too large for exponential gain (2^rel − 1 overflows)",
        f"grades up to {MAX_EXPONENTIAL_GRADE} for exponential gain, or linear gain")


# ----------------------------------------------------------------------------
# Bytes in
# ----------------------------------------------------------------------------

def _read_source(source: Source, name: str | None, default: str) -> tuple[bytes, str]:
    """The raw bytes of a path, a str or bytes content, or a file object; and a name for messages."""
    if isinstance(source, os.PathLike):
        return Path(source).read_bytes(), name or os.fspath(source)
    if isinstance(source, str):
        return source.encode("utf-8", "surrogatepass"), name or default
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source), name or default
    if hasattr(source, "read"):
        data = source.read()
        data = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else bytes(data)
        return data, name or str(getattr(source, "name", default))
    raise TypeError(f"expected a path, bytes, str or a file object, got {type(source).__name__}")


def _check_text(data: bytes, name: str) -> bytes:
    """Drop a UTF-8 byte-order mark; raise unless the rest is UTF-8 text without NUL bytes."""
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8):]
    bad, what, advice = None, "", "save the file as UTF-8"
    if not data.isascii():
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as err:
            bad, what = err.start, f"byte 0x{data[err.start]:02x}, which is not UTF-8 text"
    if bad is None and b"\x00" in data:
        bad, what, advice = data.index(b"\x00"), "a NUL byte", "binary data or UTF-16 text: save it as UTF-8 text"
    if bad is None:
        return data
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        advice = "this file looks like UTF-16: save it as UTF-8"
    line_start = data.rfind(b"\n", 0, bad) + 1
    raise TrecFormatError(name, data.count(b"\n", 0, bad) + 1, f"{what} (byte {bad - line_start + 1} of the line)",
                          f"UTF-8 text ({advice})")


def _show(text: bytes | str) -> str:
    """A line or token, quoted for a message (shortened; tabs and other controls escaped)."""
    shown = (text if isinstance(text, str) else text.decode("utf-8", "replace")).rstrip("\r")
    return repr(shown if len(shown) <= _SHOWN_CHARS else shown[:_SHOWN_CHARS] + "…")


# ----------------------------------------------------------------------------
# Tokenizing: numpy over the bytes
# ----------------------------------------------------------------------------

@dataclass(frozen=True)
class _Tokens:
    """Where the kept columns of every data row lie in the file's bytes.

    ``start[r, c]`` and ``end[r, c]`` delimit kept column c of data row r
    (byte offsets, end exclusive); ``line[r]`` is the row's 1-based line.
    """

    buf: np.ndarray
    start: np.ndarray
    end: np.ndarray
    line: np.ndarray
    name: str
    layout: _Layout

    @classmethod
    def of(cls, data: bytes, name: str, layout: _Layout) -> "_Tokens":
        data = _check_text(data, name)
        buf = np.frombuffer(data, dtype=np.uint8)
        parts, first_line = [], 1
        for lo, hi in _chunks(data):
            parts.append(_split_chunk(buf[lo:hi], lo, first_line, name, layout))
            first_line += data.count(b"\n", lo, hi)
        if not parts or not sum(p[2].size for p in parts):
            raise _no_data(data, name, layout)
        start, end, line = (np.concatenate([p[i] for p in parts]) for i in range(3))
        return cls(buf, start, end, line, name, layout)

    def strings(self, c: int) -> np.ndarray:
        """Kept column c as an array of byte strings (``S`` dtype, one per row)."""
        return _strings(self.buf, self.start[:, c], self.end[:, c])

    def column_name(self, c: int) -> str:
        position = self.layout.keep[c]
        return f"column {position + 1} of: {' '.join(self.layout.columns)}"


def _chunks(data: bytes):
    """(lo, hi) byte ranges of about ``_CHUNK_BYTES``, each ending after a newline (or at the end)."""
    lo = 0
    while lo < len(data):
        hi = data.find(b"\n", lo + _CHUNK_BYTES)
        hi = len(data) if hi < 0 else hi + 1
        yield lo, hi
        lo = hi


def _split_chunk(chunk: np.ndarray, offset: int, first_line: int, name: str, layout: _Layout):
    """Token offsets of the kept columns of one chunk's data rows, and their line numbers.

    Separators are ASCII whitespace (space, tab, CR, LF, VT, FF), as Python's
    ``bytes.split()``. A line is skipped when it is blank or its first token
    starts with ``#``; any other line must have exactly the layout's columns.
    """
    sep = np.ones(chunk.size + 2, dtype=bool)
    np.equal(chunk, ord(" "), out=sep[1:-1])
    sep[1:-1] |= (chunk - np.uint8(9)) <= 4  # bytes 9 to 13: \t \n \v \f \r
    edges = np.flatnonzero(sep[1:] != sep[:-1])  # alternately a token's start and its end
    start, end = edges[0::2], edges[1::2]
    line_start = np.r_[0, np.flatnonzero(chunk == ord("\n")) + 1]
    first_token = np.searchsorted(start, line_start)
    count = np.diff(np.r_[first_token, start.size])
    is_data = count > 0
    is_data[is_data] = chunk[start[first_token[is_data]]] != ord("#")
    wrong = np.flatnonzero(is_data & (count != len(layout.columns)))
    if wrong.size:
        i = wrong[0]
        text = chunk[line_start[i]:np.r_[line_start[1:] - 1, chunk.size][i]].tobytes()
        raise _wrong_columns(name, first_line + i, int(count[i]), text, layout)
    tokens = first_token[is_data][:, None] + np.asarray(layout.keep)
    return start[tokens] + offset, end[tokens] + offset, first_line + np.flatnonzero(is_data)


def _wrong_columns(name: str, line: int, found: int, text: bytes, layout: _Layout) -> TrecFormatError:
    other = RUN_LAYOUT if layout is QRELS_LAYOUT else QRELS_LAYOUT
    hint = ""
    if found == len(other.columns):
        hint = f" (that is the layout of a {other.kind} file: are the two files swapped?)"
    return TrecFormatError(name, line, f"{found} column{'s' * (found != 1)} in {_show(text)}",
                           f"{layout.describe()}{hint}")


def _no_data(data: bytes, name: str, layout: _Layout) -> TrecFormatError:
    lines = data.count(b"\n") + (not data.endswith(b"\n"))
    found = "an empty file" if not data.strip() else "only blank lines and # comments"
    return TrecFormatError(name, max(lines, 1), f"{found} (end of file)",
                           f"at least one data line of {layout.describe()}")


def _strings(buf: np.ndarray, start: np.ndarray, end: np.ndarray) -> np.ndarray:
    """The bytes buf[start:end] of every row as an ``S`` array (padded with NULs, which ids never hold)."""
    length = end - start
    width = max(int(length.max()), 1)
    if int(start.max()) + width > buf.size:  # windows near the end need padding
        buf = np.concatenate([buf, np.zeros(width, dtype=np.uint8)])
    window = sliding_window_view(buf, width)[start]  # a (rows, width) copy
    window[np.arange(width) >= length[:, None]] = 0
    return window.view(f"S{width}").ravel()


# ----------------------------------------------------------------------------
# Columns to arrays
# ----------------------------------------------------------------------------

def _factorize(texts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct byte strings in order of first appearance, and each row's index into them.

    Each string is reduced to a 64-bit key (exact for ids up to 8 bytes, a
    hash of its 8-byte words beyond), and the integer keys are numbered. The
    result is checked against the bytes; on a hash collision the strings
    themselves are numbered instead.

    Examples
    --------
    >>> vocab, codes = _factorize(np.array([b"b", b"a", b"b", b"a-long-document-id"]))
    >>> vocab.tolist(), codes.tolist()
    ([b'b', b'a', b'a-long-document-id'], [0, 1, 0, 2])
    """
    words = _words(texts)
    key = words[:, 0]
    for j in range(1, words.shape[1]):  # wraps around modulo 2**64 on purpose
        key = key * np.uint64(0x9E3779B97F4A7C15) + words[:, j]
    first, codes = _number(key)
    if words.shape[1] > 1 and not np.array_equal(texts[first][codes], texts):
        first, codes = _number(texts)
    return texts[first], codes


def _number(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Number equal keys 0, 1, 2, ... in order of first appearance.

    Returns the row where each number first appears, and each row's number.
    Runs of equal adjacent keys (a run file's query ids) are numbered once.
    """
    run_start = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    run_keys = keys[run_start]
    order = np.argsort(run_keys)
    sorted_keys = run_keys[order]
    new = np.flatnonzero(np.r_[True, sorted_keys[1:] != sorted_keys[:-1]])  # where each distinct key starts
    group = np.empty(order.size, dtype=np.int64)
    group[order] = np.repeat(np.arange(new.size), np.diff(np.r_[new, order.size]))
    first_run = np.minimum.reduceat(order, new)  # earliest run of each distinct key
    by_appearance = np.argsort(first_run)
    renumber = np.empty_like(by_appearance)
    renumber[by_appearance] = np.arange(by_appearance.size)
    codes = np.repeat(renumber[group], np.diff(np.r_[run_start, keys.size]))
    return run_start[first_run[by_appearance]], codes


def _words(texts: np.ndarray) -> np.ndarray:
    """Byte strings as rows of 64-bit words (NUL-padded to a multiple of 8 bytes)."""
    width = texts.dtype.itemsize
    padded = -(-width // 8) * 8
    if padded != width:
        texts = texts.astype(f"S{padded}")
    return np.ascontiguousarray(texts).view(np.uint64).reshape(texts.size, padded // 8)


def _query_codes(texts: np.ndarray) -> tuple[tuple[str, ...], np.ndarray]:
    """Distinct query ids (as str) in order of first appearance, and each row's index into them."""
    vocab, codes = _factorize(texts)
    return tuple(q.decode() for q in vocab.tolist()), codes


_NUMBER = {
    "grade": (np.int64, int, "a whole number such as 0, 1, 2 or -2"),
    "score": (np.float64, float, "a finite number such as 12.5, -3 or 1e-3"),
}


def _numbers(tokens: _Tokens, c: int, what: str) -> np.ndarray:
    """Kept column c parsed as grades (whole numbers) or scores (finite numbers)."""
    dtype, parse, expected = _NUMBER[what]
    texts = tokens.strings(c)
    try:
        values = texts.astype(dtype)  # numpy parses each value as Python's int() or float() does
        bad = ~np.isfinite(values) if what == "score" else np.zeros(values.size, dtype=bool)
    except (ValueError, OverflowError):
        values, bad = None, np.array([_value(t, parse) is None for t in texts.tolist()])
    if np.any(texts.view(np.uint8) == ord("_")):  # Python's int() and float() allow 1_000
        bad |= (texts.view(np.uint8).reshape(texts.size, -1) == ord("_")).any(axis=1)
    if not bad.any():
        return values
    row = int(np.argmax(bad))
    raise TrecFormatError(tokens.name, int(tokens.line[row]), f"{what} {_show(texts[row])}{_why(texts[row], parse)}",
                          f"{expected} ({tokens.column_name(c)})")


def _value(text: bytes, parse):
    """text parsed as a number within int64 or float range, or None."""
    try:
        value = parse(text)
    except (ValueError, OverflowError):
        return None
    return value if parse is float or -(2**63) <= value < 2**63 else None


def _why(text: bytes, parse) -> str:
    """Why a number that Python can read was still rejected ("" when it cannot be read)."""
    if b"_" in text:
        return ""
    try:
        parse(text)
    except ValueError:
        return ""
    return ", which is not a finite number" if parse is float else ", which is too large"


def _check_unique_pairs(qids, qidx, doc_vocab, doc, line, name: str, verb: str) -> None:
    """Raise if a (query, docid) pair occurs twice, at the second occurrence that comes first."""
    key = qidx * doc_vocab.size + doc
    sorted_key = np.sort(key)
    if not np.any(sorted_key[1:] == sorted_key[:-1]):
        return
    order = np.argsort(key, kind="stable")  # rows of one key stay in file order
    sorted_key = key[order]
    repeats = order[np.flatnonzero(sorted_key[1:] == sorted_key[:-1]) + 1]
    row = repeats[np.argmin(line[repeats])]
    first = order[np.searchsorted(sorted_key, key[row])]
    raise TrecFormatError(
        name, int(line[row]),
        f"document {_show(doc_vocab[doc[row]])} {verb} again for query {_show(qids[qidx[row]])} "
        f"(first on line {line[first]})",
        "each document at most once per query")


def _trec_order(qidx: np.ndarray, score: np.ndarray, docid: np.ndarray) -> np.ndarray:
    """Row order by query, score descending, then docid descending in byte order (trec_eval's).

    Scores are compared as 32-bit floats, because trec_eval stores them so:
    scores that differ only beyond about 7 significant digits tie, and the
    docid decides (pytrec_eval agrees). A run written in rank order is already
    sorted by query and score: that is checked in linear time and needs no
    sort. Docids are compared only inside groups of tied scores.

    Examples
    --------
    >>> docids = np.array([b"a", b"b", b"c"])
    >>> _trec_order(np.zeros(3, np.int64), np.array([1.0, 1.0 + 1e-9, 2.0]), docids).tolist()
    [2, 1, 0]
    """
    with np.errstate(over="ignore"):  # beyond float32's range a score becomes ±inf, as in trec_eval
        score = score.astype(np.float32)
    same = qidx[1:] == qidx[:-1]
    if np.all((qidx[1:] > qidx[:-1]) | (same & (score[1:] <= score[:-1]))):
        order = np.arange(qidx.size)
    else:
        order = np.lexsort((-score, qidx))
    q, s = qidx[order], score[order]
    tied_with_next = (q[1:] == q[:-1]) & (s[1:] == s[:-1])
    tied = np.flatnonzero(np.r_[tied_with_next, False] | np.r_[False, tied_with_next])
    if tied.size:
        group = np.cumsum(np.r_[True, ~tied_with_next])[tied]  # rows of one tie share a number
        ascending = np.lexsort((docid[order[tied]], group))
        descending = ascending[::-1][np.argsort(group[ascending[::-1]], kind="stable")]
        order[tied] = order[tied[descending]]
    return order


def _stable_order(keys: np.ndarray) -> np.ndarray:
    """A stable sorting permutation of keys (the identity when they are already sorted)."""
    if np.all(keys[1:] >= keys[:-1]):
        return np.arange(keys.size)
    return np.argsort(keys, kind="stable")


def _positions(sorted_qidx: np.ndarray) -> np.ndarray:
    """1-based position of each row within its query (rows grouped by query)."""
    starts = np.flatnonzero(np.r_[True, sorted_qidx[1:] != sorted_qidx[:-1]])
    return np.arange(sorted_qidx.size) - np.repeat(starts, np.diff(np.r_[starts, sorted_qidx.size])) + 1


# ----------------------------------------------------------------------------
# Joining a run with its qrels
# ----------------------------------------------------------------------------

def _doc_map(run_vocab: np.ndarray, qrels_vocab: np.ndarray) -> np.ndarray:
    """For each run docid, its index in the qrels' docids, or -1 when nobody judged it."""
    _, codes = _factorize(np.concatenate([qrels_vocab, run_vocab]))
    codes = codes[qrels_vocab.size:]  # the qrels' distinct docids come first, so they keep their index
    return np.where(codes < qrels_vocab.size, codes, -1)


def _judged_grades(qrels: Qrels, q: np.ndarray, doc: np.ndarray) -> np.ndarray:
    """The qrels grade of each (query index, qrels doc index) pair; 0 when not judged (doc −1)."""
    n_docs = qrels.doc_vocab.size
    judged_key = qrels.qidx * n_docs + qrels.doc
    order = np.argsort(judged_key)
    sorted_key = judged_key[order]
    key = q * n_docs + doc
    pos = np.minimum(np.searchsorted(sorted_key, key), sorted_key.size - 1)
    found = (doc >= 0) & (sorted_key[pos] == key)
    return np.where(found, qrels.grade[order][pos], 0)


def _no_common_query(qrels: Qrels, run: Run) -> TrecFormatError:
    def some(qids):
        return ", ".join(repr(q) for q in qids[:3]) + (", ..." if len(qids) > 3 else "")

    return TrecFormatError(
        run.name, int(run.line.min()),
        f"no query that is also in {qrels.name} (this run's queries: {some(run.qids)})",
        f"query ids as the qrels writes them: {some(qrels.qids)}")
