"""Reading TREC qrels and run files into the metric engine's arrays.

The two files, whitespace-separated, one line per judgment or per result:

- qrels: ``qid iter docid grade`` (``iter`` is ignored; ``grade`` is a whole
  number from -1000 to 1000, negative allowed: a grade <= 0 is
  non-relevant, with gain 0);
- run: ``qid Q0 docid rank score tag`` (``Q0``, ``rank`` and ``tag`` are
  ignored; ``score`` is a finite number). Text after the tag is ignored too,
  as trec_eval ignores it (its ``get_trec_results.c`` reads six fields and
  skips to the end of the line), and the lines that have any are counted
  (:attr:`Run.trailing_lines`), so that the command line and the page can
  say so. A qrels line has nothing after the grade: trec_eval refuses one
  that does ("Malformed line"), and so does this reader.

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
- a (qid, docid) pair listed twice, in either file, is an error, as in
  trec_eval ("duplicate docs"): a document has one place in a ranking and
  one grade, and keeping either line could change the scores.

Every problem with a file raises :class:`TrecFormatError`, whose message
names the file, the line, what was found there and what was expected.

Limits (each a :class:`TrecFormatError` naming the line, but the first):

- a file read from a path or a file object is at most
  :data:`DEFAULT_MAX_FILE_MB` = 1,024 MiB, or ``RANKWISE_MAX_FILE_MB``
  MiB when that environment variable is set (:func:`max_file_bytes`); it
  is read up to the limit only (a device such as ``/dev/zero``, whose size
  is 0, never ends), then refused with :class:`FileTooLargeError` (an
  ``OSError``, errno EFBIG) naming the file, the limit and the variable;
- an id (qid or docid) is at most :data:`MAX_ID_BYTES` = 512 bytes of
  UTF-8. Ids are kept padded to the longest of their column (see below), so
  a long id costs its length on every row; 512 bytes holds every id scheme
  in use: numbers, TREC's document names and URLs, and Wikipedia titles
  (BEIR's DBpedia-entity, FEVER and others use them as docids; a title is
  at most 255 bytes);
- padded, the qid and docid columns (rows × the longest qid, plus rows ×
  the longest docid, in whole 8-byte words) take at most 8 times the
  file's size plus 64 MiB (:func:`_padded_bound`), so a few long ids among
  many short lines cannot make the parsed file many times its size;
- a grade lies between :data:`MIN_GRADE` and :data:`MAX_GRADE`, -1000 and
  1000 (trec_eval reads grades as C ints; judgments use a handful of
  levels, and the range keeps every gain and sum finite and every
  normalised measure within [0, 1]);
- exponential gain (2^rel − 1) takes grades up to
  :data:`MAX_EXPONENTIAL_GRADE` = 60 (:func:`check_gain_fits`): 2^60 is
  still an exact float, and sums of such gains stay finite and nearly exact;
  linear gain takes every grade.

A grade or score may be written with any number of characters: numbers are
parsed in groups of similar length, none padded past twice its own length.

Two readers give the same result (tests check every nasty case through both):

- the precise reader splits the file into tokens with numpy over its bytes
  (no Python loop per line) and reads any layout above; it owns every error
  message;
- the fast reader, for large clean files (a single space or a single tab
  between columns, no blank or comment line, LF or CRLF line ends), parses
  with pyarrow's multi-threaded CSV reader. It declines anything else, and
  anything it cannot read exactly as the precise reader would, and the
  precise reader then reads the file (``reader="auto"``, the default, tries
  it from :data:`FAST_MIN_BYTES` on).

Either way ids become fixed-width byte strings (``S`` arrays, padded with NUL
bytes, which is why a NUL byte in a file is an error), one per row; query ids
are numbered in order of first appearance. Duplicate pairs and the join with
the qrels go through a 64-bit key per (query, docid), checked against the
bytes wherever two keys meet; the join widens neither file's docids to the
other's width. Memory is about (rows × longest id) bytes per id column (at
most 8 times the file's size plus 64 MiB, above) plus 8 bytes per row for
each number kept. When memory runs out anyway, the reader raises
``MemoryError`` with a message naming the file.

No Streamlit import here: the "your data" page and the command-line
evaluator (:mod:`components.cli`) share this reader.
"""
from __future__ import annotations

import codecs
import errno
import math
import os
from dataclasses import dataclass, replace
from functools import cached_property
from types import MappingProxyType
from typing import TYPE_CHECKING, BinaryIO, Literal, Mapping, Union

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view
from numpy.typing import NDArray

from components.engine import metrics
from components.engine.checks import read_whole
from components.engine.metrics import MAX_GRADE, MIN_GRADE, QuerySet, query_set

Source = Union[str, bytes, bytearray, memoryview, "os.PathLike[str]", BinaryIO]
Reader = Literal["auto", "fast", "precise"]
READERS: tuple[Reader, ...] = ("auto", "fast", "precise")

MAX_EXPONENTIAL_GRADE = 60  # 2**60 - 1 rounds to 2**60 (relative error 1e-18); sums of such gains stay finite
MAX_ID_BYTES = 512  # the longest qid or docid, in bytes of UTF-8 (Wikipedia titles, used as docids, are <= 255)
OLD_MAC_LINE_ENDS = ("lines ending in a carriage return only (old Mac line ends): "
                     "save with LF or CRLF line ends")  # the tail of a message about a line holding carriage returns
_PADDED_PER_BYTE = 8  # padded ids may take this many bytes per byte of the file (see _padded_bound) ...
_PADDED_FLOOR = 64 << 20  # ... plus this many, so that a file of short lines may hold an id up to the limit
_MIB = 1 << 20
MAX_FILE_VARIABLE = "RANKWISE_MAX_FILE_MB"  # the environment variable that sets the largest file read (MiB)
DEFAULT_MAX_FILE_MB = 1024  # ... when it is not set: a run of 1,000 results for each of 20,000 queries fits
_READ_BYTES = 1 << 24  # a file whose size is unknown (a pipe, a device) is read this many bytes at a time
FAST_MIN_BYTES = 1 << 22  # reader="auto" tries the fast reader on files of 4 MiB (about 100,000 lines) or more
_CHUNK_BYTES = 1 << 24  # the tokenizer works on about this many bytes at a time (bounds its masks)
_GATHER_BYTES = 1 << 20  # _strings copies about this many bytes of strings at a time (bounds its temporary copy)
_FAST_CHUNK_BYTES = 1 << 25  # the fast reader hands pyarrow about this many bytes at a time (bounds its memory)
_FAST_BLOCK_BYTES = 1 << 22  # ... which pyarrow splits into blocks of this size, parsed in parallel
_FAST_MAX_COLUMNS = 16  # the fast reader declines a run whose lines have more columns (text after the tag)
_KEY_MULTIPLIER = np.uint64(0x9E3779B97F4A7C15)  # mixes 64-bit words into one key (wrapping around 2**64)
_SLOT_MULTIPLIER = np.uint64(0xBF58476D1CE4E5B9)  # spreads a key's bits into the top ones, which pick its slot
_LOW_BYTES = np.array([(1 << (8 * i)) - 1 for i in range(9)], dtype="<u8")  # keeps the first i bytes of a word
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
    column : which column, when the problem is one field ("column 4 of: qid
        iter docid grade"), or None; the message names it after ``expected``.
    """

    def __init__(self, file: str, line: int, found: str, expected: str, column: str | None = None):
        self.file, self.line, self.found, self.expected, self.column = file, line, found, expected, column
        where = f" ({column})" if column else ""
        super().__init__(f"{file}, line {line}: found {found}; expected {expected}{where}")

    def __reduce__(self):  # pickles with its parts, not only the message
        return type(self), (self.file, self.line, self.found, self.expected, self.column)


class NoCommonQueryError(TrecFormatError):
    """A run and qrels that share no query id: nothing can be evaluated (often ids written differently)."""


@dataclass(frozen=True)
class _Layout:
    """The columns of one kind of file, and the ones this reader keeps."""

    kind: str
    columns: tuple[str, ...]
    example: str
    keep: tuple[int, ...]  # column positions of qid, docid and the value (grade or score)
    ignores_extra: bool = False  # whether text after the last column is ignored (a run's, as trec_eval does)

    @property
    def value(self) -> str:
        """The name of the value column: "grade" or "score"."""
        return self.columns[self.keep[2]]

    def describe(self) -> str:
        return f"{len(self.columns)} columns: {' '.join(self.columns)} (e.g. '{self.example}')"


QRELS_LAYOUT = _Layout("qrels", ("qid", "iter", "docid", "grade"), "1 0 doc7 2", (0, 2, 3))
RUN_LAYOUT = _Layout("run", ("qid", "Q0", "docid", "rank", "score", "tag"), "1 Q0 doc7 1 12.5 myrun", (0, 2, 4),
                     ignores_extra=True)


# ----------------------------------------------------------------------------
# What the reader returns
# ----------------------------------------------------------------------------

class _DocCodes:
    """``doc_vocab`` (the distinct docids) and ``doc`` (each row's index into it), from ``_vocabulary``."""

    if TYPE_CHECKING:  # (doc_vocab, doc): a cached property of each subclass
        @property
        def _vocabulary(self) -> tuple[np.ndarray, np.ndarray]: ...

    @property
    def doc_vocab(self) -> np.ndarray:
        return self._vocabulary[0]

    @property
    def doc(self) -> np.ndarray:
        return self._vocabulary[1]


@dataclass(frozen=True)
class Qrels(_DocCodes):
    """The judgments of a qrels file, one row per data line, in file order.

    Attributes
    ----------
    name : the file's name, for messages.
    qids : the distinct query ids, in order of first appearance; row i is
        about query ``qids[qidx[i]]``.
    qidx : query index of each judgment.
    docids : docid of each judgment, as UTF-8 bytes (an ``S`` array).
    grade : the judged grade of each judgment.
    line : the 1-based line each judgment came from.
    doc_vocab : the distinct docids, in order of first appearance (computed
        on first use, like ``doc``).
    doc : docid of each judgment, as an index into ``doc_vocab``.
    """

    name: str
    qids: tuple[str, ...]
    qidx: np.ndarray
    docids: np.ndarray
    grade: np.ndarray
    line: np.ndarray

    @cached_property
    def _vocabulary(self) -> tuple[np.ndarray, np.ndarray]:
        return _factorize(self.docids)


@dataclass(frozen=True)
class Run(_DocCodes):
    """The results of a run file, one row per data line, in trec_eval's order.

    Rows are sorted by query (in order of first appearance), then score
    descending (compared as 32-bit floats, as trec_eval does), then docid
    descending in byte order; ``rank`` is the 1-based position that order
    gives (the file's rank column is ignored).

    Attributes
    ----------
    name, qids, qidx, docids, line : as in :class:`Qrels`.
    score : the score of each result, as read (64-bit).
    rank : its 1-based rank within its query.
    trailing_lines : how many data lines had text after the tag (ignored, as
        trec_eval ignores it).
    tag : the first data line's tag (trec_eval's "runid").
    doc_vocab, doc : as in :class:`Qrels` (first appearance in the file).
    """

    name: str
    qids: tuple[str, ...]
    qidx: np.ndarray
    docids: np.ndarray
    score: np.ndarray
    rank: np.ndarray
    line: np.ndarray
    trailing_lines: int = 0
    tag: str = ""

    @cached_property
    def _vocabulary(self) -> tuple[np.ndarray, np.ndarray]:
        in_file_order = np.argsort(self.line)
        vocab, codes = _factorize(self.docids[in_file_order])
        doc = np.empty_like(codes)
        doc[in_file_order] = codes
        return vocab, doc


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

    @cached_property
    def query_index(self) -> Mapping[str, int]:
        """Each evaluated query id's index into ``qids`` (read-only).

        >>> load("a 0 d 1\\nb 0 d 1\\n", "a Q0 d 1 1 r\\nb Q0 d 1 1 r\\n").query_index["b"]
        1
        """
        return MappingProxyType({qid: i for i, qid in enumerate(self.qids)})

    @property
    def skipped(self) -> dict[str, int]:
        """How many queries were left out: ``{"qrels_only": n, "run_only": n}``."""
        return {"qrels_only": 0 if self.complete else len(self.qrels_only), "run_only": len(self.run_only)}

    def adjusted(self, relevance_level: int = 1, judged_only: bool = False, max_docs: int | None = None) -> JudgedRun:
        """The same run under trec_eval's options: each query's top ``max_docs`` documents (-M), then without the
        unjudged ones (-J), with a grade of at least ``relevance_level`` relevant (-l); ids and scores follow.

        >>> judged = load("1 0 a 0\\n1 0 b 1\\n", "1 Q0 x 1 3 r\\n1 Q0 a 2 2 r\\n1 Q0 b 3 1 r\\n")
        >>> [doc for doc, _, _ in judged.adjusted(judged_only=True).ranking(0)]
        ['a', 'b']
        >>> [doc for doc, _, _ in judged.adjusted(judged_only=True, max_docs=2).ranking(0)]
        ['a']
        """
        queries, docids, scores = self.queries, self.docids, self.scores
        if max_docs is not None:
            kept = queries.rank <= max_docs
            queries, docids, scores = metrics.at_most(queries, max_docs), docids[kept], scores[kept]
        if judged_only:
            rows = metrics.judged_rows_kept(queries)  # what metrics.judged_only keeps, found once for all three
            queries, docids, scores = metrics.keep_rows(queries, rows), docids[rows], scores[rows]
        return replace(self, queries=metrics.with_relevance_level(queries, relevance_level), docids=docids,
                       scores=scores)

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

    def grades(self, q: int) -> dict[str, int]:
        """docid -> judged grade of every judged document of query index q (unjudged documents are absent).

        >>> load("1 0 a 1\\n1 0 c 0\\n", "1 Q0 a 1 0.5 r\\n").grades(0)
        {'a': 1, 'c': 0}
        """
        mask = self.queries.judged_qidx == q
        return {d.decode("utf-8"): int(g) for d, g in zip(self.judged_docids[mask].tolist(),
                                                          self.queries.judged_grade[mask].tolist())}


# ----------------------------------------------------------------------------
# Public functions
# ----------------------------------------------------------------------------

def read_qrels(source: Source, name: str | None = None, *, reader: Reader = "auto") -> Qrels:
    """Read a qrels file: ``qid iter docid grade`` per line.

    Parameters
    ----------
    source : a path (``pathlib.Path`` or any ``os.PathLike``), the file's
        content as ``bytes`` or ``str``, or a binary file object (an upload).
        A plain ``str`` is content, not a path.
    name : the name used in messages (default: the path, the upload's name,
        or "qrels").
    reader : "auto" (the default: the fast reader for a large clean file,
        else the precise one), "precise", or "fast" (which raises
        ``ValueError`` for a file it declines). Every reader gives the same
        result.

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
    components.formats.trec.TrecFormatError: q.txt, line 1: found grade '2.5'; expected a whole number from -1000 to 1000, ...
    """
    rows, name = _read_rows(source, name, QRELS_LAYOUT, reader)
    _check_unique_pairs(rows, name, QRELS_LAYOUT)
    return Qrels(name, rows.qids, rows.qidx, rows.docids, rows.value, rows.line)


def read_run(source: Source, name: str | None = None, *, reader: Reader = "auto") -> Run:
    """Read a run file: ``qid Q0 docid rank score tag`` per line, in trec_eval's order.

    Parameters are as in :func:`read_qrels` (default name "run").

    Raises
    ------
    TrecFormatError
        Fewer than six columns, a score that is not a finite number, no data
        lines, a docid listed twice for one query, or bytes that are not UTF-8.

    Examples
    --------
    The rank column is ignored; equal scores (1, 1.0 and 1e0 are equal) are
    ordered by docid descending, in byte order:

    >>> run = read_run("q1 Q0 doc1 1 1 r\\nq1 Q0 doc2 2 1.0 r\\nq1 Q0 doc3 3 1e0 r\\nq1 Q0 doc0 4 2 r\\n")
    >>> [d.decode() for d in run.docids], run.rank.tolist()
    (['doc0', 'doc3', 'doc2', 'doc1'], [1, 2, 3, 4])

    Text after the tag is ignored, as trec_eval ignores it, and counted:

    >>> read_run("q1 Q0 doc1 1 2 r more text\\nq1 Q0 doc2 2 1 r\\n").trailing_lines
    1

    The first data line's tag is the run's name in trec_eval's output:

    >>> read_run("# my notes\\nq1 Q0 doc1 1 2 bm25\\n").tag
    'bm25'
    """
    rows, name = _read_rows(source, name, RUN_LAYOUT, reader)
    _check_unique_pairs(rows, name, RUN_LAYOUT)
    qidx, docids, score, line = _in_trec_order(rows)
    return Run(name, rows.qids, qidx, docids, score, _positions(qidx), line, rows.trailing, rows.tag)


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

    target = np.where(run_to_qrels >= 0, new_index[run_to_qrels], -1)  # each run query's evaluated index, or -1
    rows, kept, lengths = _query_blocks(run.qidx, target)  # results of judged queries, in the qrels' query order
    docids, rank, scores = (_take(values, rows) for values in (run.docids, run.rank, run.score))
    del rows
    grade, found = _judged_grades(qrels, np.repeat(run_to_qrels[kept], lengths), docids)
    judged = np.flatnonzero(evaluated[qrels.qidx])
    queries = query_set(int(evaluated.sum()), np.repeat(target[kept], lengths), rank, grade,
                        new_index[qrels.qidx[judged]], qrels.grade[judged], is_judged=found)
    return JudgedRun(
        qids=tuple(qid for qid, e in zip(qrels.qids, evaluated) if e),
        queries=queries,
        docids=docids,
        scores=scores,
        judged_docids=qrels.docids[judged],
        qrels_only=tuple(qid for qid, a in zip(qrels.qids, answered) if not a),
        run_only=tuple(qid for qid, i in zip(run.qids, run_to_qrels) if i < 0),
        complete=complete,
    )


def load(qrels: Source, run: Source, complete: bool = False, gain: str | None = None,
         qrels_name: str | None = None, run_name: str | None = None, *, reader: Reader = "auto") -> JudgedRun:
    """Read both files and :func:`judge` the run: the one path the CLI and the pages use.

    Parameters are those of :func:`read_pair`, and ``complete`` is :func:`judge`'s.

    Examples
    --------
    >>> load("1 0 a 1\\n", "1 Q0 a 1 0.5 r\\n").queries.grade.tolist()
    [1]
    """
    return judge(*read_pair(qrels, run, gain, qrels_name, run_name, reader=reader), complete)


def read_pair(qrels: Source, run: Source, gain: str | None = None, qrels_name: str | None = None,
              run_name: str | None = None, *, reader: Reader = "auto") -> tuple[Qrels, Run]:
    """Read a qrels file and a run file: what :func:`load` joins, for a caller that also needs the files.

    When ``gain`` is given, the grades are also checked to fit it
    (:func:`check_gain_fits`), before the run is read. ``reader`` chooses the
    reader for both files (see :func:`read_qrels`).

    Examples
    --------
    >>> judgments, results = read_pair("1 0 a 1\\n", "1 Q0 a 1 0.5 r extra\\n")
    >>> judgments.grade.tolist(), results.trailing_lines
    ([1], 1)
    """
    judgments = read_qrels(qrels, qrels_name, reader=reader)
    if gain is not None:
        check_gain_fits(judgments, gain)
    return judgments, read_run(run, run_name, reader=reader)


def check_gain_fits(qrels: Qrels, gain: str) -> None:
    """Raise :class:`TrecFormatError` if a grade is too large for exponential gain.

    Exponential gain is 2^rel − 1, which doubles with every grade: up to
    :data:`MAX_EXPONENTIAL_GRADE` (60, a gain of about 1.2e18) gains and
    their sums stay within a float's 16 significant digits of exact, well
    inside its range; past 1023 they overflow to infinity. Linear gain takes
    any grade the reader accepts.

    Examples
    --------
    >>> qrels = read_qrels("1 0 a 1\\n1 0 b 100\\n", name="big.txt")
    >>> check_gain_fits(qrels, "linear")
    >>> check_gain_fits(qrels, "exponential")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    components.formats.trec.TrecFormatError: big.txt, line 2: found grade 100, too large for exponential gain (2^100 − 1 ...
    """
    if gain != "exponential" or qrels.grade.max() <= MAX_EXPONENTIAL_GRADE:
        return
    row = int(np.argmax(qrels.grade > MAX_EXPONENTIAL_GRADE))
    grade = int(qrels.grade[row])
    raise TrecFormatError(
        qrels.name, int(qrels.line[row]),
        f"grade {grade}, too large for exponential gain (2^{grade} − 1 is about {2.0 ** grade:.2g})",
        f"grades up to {MAX_EXPONENTIAL_GRADE} for exponential gain, or linear gain (rel), which takes every grade")


# ----------------------------------------------------------------------------
# Bytes in
# ----------------------------------------------------------------------------

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
    return (given if given is not None and given >= 1 else DEFAULT_MAX_FILE_MB) * _MIB


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
    raise FileTooLargeError(errno.EFBIG, f"larger than {limit / _MIB:,.0f} MiB, the most a file may hold here; set "
                                         f"{MAX_FILE_VARIABLE} to a larger number of MiB to read it", name)


def _check_text(data: bytes, name: str) -> bytes:
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


def _show(text: bytes | str) -> str:
    """A line or token, quoted for a message (shortened; tabs and other controls escaped)."""
    shown = (text if isinstance(text, str) else text.decode("utf-8", "replace")).rstrip("\r")
    return repr(shown if len(shown) <= _SHOWN_CHARS else shown[:_SHOWN_CHARS] + "…")


@dataclass(frozen=True)
class _Rows:
    """The kept columns of a file's data rows, in file order: what either reader gives.

    ``qids`` are the distinct query ids in order of first appearance and
    ``qidx`` each row's index into them; ``docids`` the docid of each row (an
    ``S`` array); ``value`` its grade (int64) or score (float64); ``line``
    its 1-based line; ``trailing`` how many rows had text after the last
    column (only a run's may: :attr:`_Layout.ignores_extra`).
    """

    qids: tuple[str, ...]
    qidx: np.ndarray
    docids: np.ndarray
    value: np.ndarray
    line: np.ndarray
    trailing: int = 0
    tag: str = ""  # a run's first tag (:func:`_first_tag`)


def _read_rows(source: Source, name: str | None, layout: _Layout, reader: Reader) -> tuple[_Rows, str]:
    """The data rows of a source, with the reader chosen (see :func:`read_qrels`); and the name for messages.

    Running out of memory raises ``MemoryError`` with a message naming the file.
    """
    if reader not in READERS:
        raise ValueError(f"reader must be one of {', '.join(map(repr, READERS))}, got {reader!r}")
    data, name = read_source(source, name, layout.kind)
    try:
        data = _check_text(data, name)
        if reader == "fast" or (reader == "auto" and len(data) >= FAST_MIN_BYTES):
            try:
                rows = _fast_rows(data, layout)
            except _Declined as declined:
                if reader == "fast":
                    raise ValueError(f"{name}: the fast reader declines this file ({declined}); "
                                     f"reader='auto' or 'precise' reads it") from None
                rows = _precise_rows(data, name, layout)
        else:
            rows = _precise_rows(data, name, layout)
        return (replace(rows, tag=_first_tag(data)) if layout is RUN_LAYOUT else rows), name
    except MemoryError:
        raise MemoryError(f"{name}: not enough memory to read this file ({len(data):,} bytes)") from None


def _first_tag(data: bytes) -> str:
    """The sixth field of the first data line (not blank, not a ``#`` comment), or "" if there is none.

    >>> _first_tag(b"\\n# notes\\n1 Q0 d 1 2.5 bm25 extra\\n1 Q0 e 2 1 other\\n")
    'bm25'
    """
    start = 0
    while start < len(data):
        end = data.find(b"\n", start)
        end = len(data) if end < 0 else end
        fields = data[start:end].split()
        if fields and not fields[0].startswith(b"#"):
            return fields[5].decode() if len(fields) > 5 else ""
        start = end + 1
    return ""


# ----------------------------------------------------------------------------
# The precise reader: numpy over the bytes
# ----------------------------------------------------------------------------

def _precise_rows(data: bytes, name: str, layout: _Layout) -> _Rows:
    """Read any layout the module accepts; raise TrecFormatError, with the line, for anything else."""
    tokens = _Tokens.of(data, name, layout)
    tokens.check_id_sizes(len(data))
    qids, qidx = _query_codes(tokens.strings(0))
    return _Rows(qids, qidx, tokens.strings(1), _numbers(tokens, 2, layout.value), tokens.line, tokens.trailing)


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
    layout: _Layout
    trailing: int

    @classmethod
    def of(cls, data: bytes, name: str, layout: _Layout) -> "_Tokens":
        """Tokenize data (already checked by :func:`_check_text`) or raise TrecFormatError."""
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
        return _strings(self.buf, self.start[:, c], self.end[:, c])

    def token(self, row: int, c: int) -> bytes:
        """Kept column c of one row, as bytes."""
        return self.buf[self.start[row, c]:self.end[row, c]].tobytes()

    def column_name(self, c: int) -> str:
        position = self.layout.keep[c]
        return f"column {position + 1} of: {' '.join(self.layout.columns)}"

    def check_id_sizes(self, n_bytes: int) -> None:
        """Raise TrecFormatError for an id over :data:`MAX_ID_BYTES`, or ids too large once padded.

        The first too-long qid or docid, in file order, is named; else, when
        the padded qid and docid columns would take more than
        :func:`_padded_bound` of the file's ``n_bytes``, the longest id.
        Nothing is padded before this check.
        """
        lengths = [self.end[:, c] - self.start[:, c] for c in (0, 1)]
        longest = [int(length.max()) for length in lengths]
        too_long = [(int(np.argmax(length > MAX_ID_BYTES)), c) for c, length in enumerate(lengths)
                    if longest[c] > MAX_ID_BYTES]
        if too_long:
            row, c = min(too_long)
            what = self.layout.columns[self.layout.keep[c]]
            raise TrecFormatError(self.name, int(self.line[row]),
                                  f"a {what} of {int(lengths[c][row]):,} bytes: {_show(self.token(row, c))}",
                                  f"a {what} of at most {MAX_ID_BYTES} bytes of UTF-8")
        size, bound = _padded_size(self.line.size, longest), _padded_bound(n_bytes)
        if size > bound:
            c = int(np.argmax(longest))
            row = int(np.argmax(lengths[c] == longest[c]))
            what = self.layout.columns[self.layout.keep[c]]
            raise TrecFormatError(
                self.name, int(self.line[row]),
                f"a {what} of {longest[c]} bytes among {self.line.size:,} lines: with every id padded to the "
                f"longest of its column, the ids would take {size / _MIB:,.1f} MiB",
                f"ids that take at most {_PADDED_PER_BYTE} times the file's size plus {_PADDED_FLOOR // _MIB} MiB "
                f"(here {bound / _MIB:,.1f} MiB) when padded: shorter ids, or fewer lines per file")


def line_chunks(data: bytes, size: int | None = None):
    """(lo, hi) byte ranges of about size bytes (default ``_CHUNK_BYTES``), each ending after a newline or the end.

    The readers (and :mod:`components.formats.tabular`'s conversion) work a range at
    a time, so that their masks and index arrays stay a few times its size.
    """
    size = _CHUNK_BYTES if size is None else size
    lo = 0
    while lo < len(data):
        hi = data.find(b"\n", lo + size)
        hi = len(data) if hi < 0 else hi + 1
        yield lo, hi
        lo = hi


def _split_chunk(chunk: np.ndarray, offset: int, first_line: int, name: str, layout: _Layout):
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


def _wrong_columns(name: str, line: int, found: int, text: bytes, layout: _Layout) -> TrecFormatError:
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
    return TrecFormatError(name, line, f"{found} column{'s' * (found != 1)} in {_show(text)}",
                           f"{layout.describe()}{hint}")


def _no_data(data: bytes, name: str, layout: _Layout) -> TrecFormatError:
    lines = data.count(b"\n") + (not data.endswith(b"\n"))
    found = "an empty file" if not data.strip() else "only blank lines and # comments"
    return TrecFormatError(name, max(lines, 1), f"{found} (end of file)",
                           f"at least one data line of {layout.describe()}")


def _padded_size(rows: int, longest) -> int:
    """The bytes of id columns of ``rows`` rows padded to their longest ids (``longest``, in bytes, one per column)."""
    return rows * sum(_word_width(n) for n in longest)


def _padded_bound(n_bytes: int) -> int:
    """The most bytes a file of n_bytes may take as padded qid and docid columns (:func:`_padded_size`).

    Real files take less than 8 times their size: an MS MARCO run, 16 bytes
    of padded ids per 30-byte line (0.5 times); a run whose docids are
    Wikipedia titles (up to 255 bytes, on lines of 40 to 50 bytes), 5 to 7
    times; its qrels, with shorter lines, up to about 8 times, but qrels are
    small, and the 64 MiB floor lets a file of short lines hold an id up to
    :data:`MAX_ID_BYTES` (100,000 lines padded to 520 bytes: 50 MiB). A file
    of 300 MB, the uploads' cap, may take 2.3 GiB.
    """
    return _PADDED_PER_BYTE * n_bytes + _PADDED_FLOOR


def _strings(buf: np.ndarray, start: np.ndarray, end: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """The bytes buf[start:end] of every row as an ``S`` array (padded with NULs, which ids never hold).

    ``start`` must be non-decreasing (strings in the order they lie in buf).
    The width is the longest string's, rounded up to whole 8-byte words
    (:func:`_word_width`), so that the keys of :func:`_id_keys` are a view,
    not a copy; or ``out``'s, when the strings are written into ``out``.
    Rows are copied about ``_GATHER_BYTES`` at a time (numpy's gather makes a
    copy first), so the copy adds little to the array's own size.
    """
    length = end - start
    width = _word_width(int(length.max())) if out is None else out.dtype.itemsize
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


def _word_width(longest: int) -> int:
    """The width of an ``S`` array for strings of up to longest bytes: whole 8-byte words, at least one."""
    return -(-max(longest, 1) // 8) * 8


# ----------------------------------------------------------------------------
# The fast reader: pyarrow's CSV reader on clean files
# ----------------------------------------------------------------------------

class _Declined(Exception):
    """The fast reader cannot read a file exactly as the precise reader would; the message says why."""


def _fast_rows(data: bytes, layout: _Layout) -> _Rows:
    """Read a clean file with pyarrow's multi-threaded CSV reader, or raise :class:`_Declined`.

    Clean: one separator (a single space, or a single tab) between columns,
    no blank or comment line, LF or CRLF line ends. What it returns is what
    :func:`_precise_rows` returns for the same bytes; anything that could
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
      than :func:`_padded_bound` once padded (checked before each piece's ids
      are padded, against the file's number of lines: every line of a file
      it reads is a data row).

    A run whose first line has text after the tag is read with that line's
    number of columns (:func:`_fast_width`): every line then has text after
    the tag, and is counted so; a run whose lines differ is declined.
    Scores are parsed by pyarrow (correctly rounded, as Python's ``float``);
    grades by the precise reader's own parser, since pyarrow also reads
    hexadecimal integers; query ids are dictionary-encoded by pyarrow. The file goes to pyarrow in pieces of about
    ``_FAST_CHUNK_BYTES``, each written into the result arrays before the
    next is parsed, so memory stays about the result's size.
    """
    try:
        import pyarrow as pa
        import pyarrow.csv as pa_csv
    except ImportError:
        raise _Declined("pyarrow is not installed") from None
    separator = _clean_separator(data)
    n_columns = _fast_width(data, separator, layout)
    options = _csv_options(pa, pa_csv, separator, n_columns, layout)
    whole = pa.py_buffer(data)
    columns = _FastColumns(layout, n_rows=data.count(b"\n") + (not data.endswith(b"\n")), n_bytes=len(data),
                           extra=n_columns > len(layout.columns))
    try:
        for lo, hi in line_chunks(data, _FAST_CHUNK_BYTES):
            columns.add(pa_csv.read_csv(pa.BufferReader(whole.slice(lo, hi - lo)), **options))
    except pa.ArrowException as err:
        raise _Declined(f"pyarrow: {err}") from None
    finally:
        pa.default_memory_pool().release_unused()  # what pyarrow kept for the next piece
    return columns.rows()


class _FastColumns:
    """The kept columns of the fast reader, filled one piece (a pyarrow table) at a time.

    ``n_rows`` is the file's number of lines (every one a data row, or the
    file is declined), ``n_bytes`` its size; ``extra`` whether every line has
    text after the layout's columns (:func:`_fast_width`).
    """

    def __init__(self, layout: _Layout, n_rows: int, n_bytes: int, extra: bool = False):
        self.layout, self.n_rows, self.n_bytes, self.extra = layout, n_rows, n_bytes, extra
        self.longest = [0, 0]  # the longest qid and docid so far, in bytes
        self.qid_vocabs: list[np.ndarray] = []  # each block's distinct query ids
        self.n_vocab = 0  # their number so far
        self.qid_codes, self.docids, self.values = _Column(n_rows), _Column(n_rows), _Column(n_rows)

    def add(self, table) -> None:
        """Take one piece's rows, or raise :class:`_Declined`."""
        qid, docid, value = self.layout.keep
        _check_filled(table, self.layout)
        for encoded in table.column(qid).chunks:  # dictionary-encoded by pyarrow, block by block
            vocab = self.ids(0, encoded.dictionary)  # the block's distinct query ids, in order of first appearance
            codes = self.qid_codes.reserve(len(encoded), np.int64)
            np.add(encoded.indices.to_numpy(), self.n_vocab, out=codes, dtype=np.int64)  # into all blocks' ids
            self.qid_vocabs.append(vocab)
            self.n_vocab += vocab.size
        for array in table.column(docid).chunks:
            self.ids(1, array, self.docids)
        _fast_values(table.column(value), self.layout.value, self.values)

    def ids(self, c: int, array, into: _Column | None = None) -> np.ndarray:
        """Ids (c: 0 qids, 1 docids) of a pyarrow binary array as an ``S`` array; written into a column when given.

        :class:`_Declined` for an id over :data:`MAX_ID_BYTES`, or when the
        file's padded ids would pass :func:`_padded_bound` (before padding).
        """
        buf, start, end = _arrow_bytes(array)
        if not start.size:
            return np.zeros(0, dtype="S8")
        longest = int(np.max(end - start))
        if longest > MAX_ID_BYTES:
            raise _Declined(f"an id longer than {MAX_ID_BYTES} bytes")
        self.longest[c] = max(self.longest[c], longest)
        if _padded_size(self.n_rows, self.longest) > _padded_bound(self.n_bytes):
            raise _Declined("ids that would take too much memory once padded")
        out = None if into is None else into.reserve(start.size, f"S{_word_width(longest)}")
        return _strings(buf, start, end, out)

    def rows(self) -> _Rows:
        """The rows taken, as the precise reader gives them; :class:`_Declined` for a comment line or no row."""
        if not self.qid_vocabs:
            raise _Declined("no data line")
        vocab, codes = _factorize(np.concatenate(self.qid_vocabs))  # first appearance in the blocks: in the file
        if np.any(vocab.view(np.uint8)[::vocab.dtype.itemsize] == ord("#")):
            raise _Declined("a comment line")
        qidx = codes[self.qid_codes.values()]
        return _Rows(tuple(q.decode() for q in vocab.tolist()), qidx, self.docids.values(), self.values.values(),
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
    """The separator of a file the fast reader may read (" " or "\\t"), or :class:`_Declined`.

    Declines what pyarrow would split otherwise than the precise reader: a
    vertical tab or a form feed (whitespace to the precise reader, part of a
    value to pyarrow), a carriage return that does not end a line (pyarrow
    ends a line there), and tabs mixed with spaces (pyarrow takes one
    separator). Each check is a ``memchr`` over the bytes.
    """
    for byte, what in ((b"\x0b", "a vertical tab"), (b"\x0c", "a form feed")):
        if byte in data:
            raise _Declined(what)
    if b"\r" in data and not _carriage_returns_end_lines(data):
        raise _Declined("a carriage return inside a line")
    tab, space = b"\t" in data, b" " in data
    if tab and space:
        raise _Declined("both tabs and spaces between columns")
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


def _fast_width(data: bytes, separator: str, layout: _Layout) -> int:
    """How many columns pyarrow is to read: the layout's, or, for a run, its first line's when that has more.

    The extra columns are text after the tag, which the precise reader
    ignores: pyarrow fails on any line with another number of columns, and
    the file is declined. More than :data:`_FAST_MAX_COLUMNS` is declined
    at once (a column costs memory and time whatever it holds).

    Examples
    --------
    >>> _fast_width(b"1 Q0 d 1 2.5 tag some notes\\n", " ", RUN_LAYOUT), _fast_width(b"1 0 d 1 x\\n", " ", QRELS_LAYOUT)
    (8, 4)
    """
    if not layout.ignores_extra:
        return len(layout.columns)
    end = data.find(b"\n")
    first_line = data[:end if end >= 0 else len(data)].rstrip(b"\r")
    n_columns = first_line.count(separator.encode()) + 1
    if n_columns > _FAST_MAX_COLUMNS:
        raise _Declined(f"more than {_FAST_MAX_COLUMNS} columns")
    return max(n_columns, len(layout.columns))


def _csv_options(pa, pa_csv, separator: str, n_columns: int, layout: _Layout) -> dict:
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
        "read_options": pa_csv.ReadOptions(column_names=names, block_size=_FAST_BLOCK_BYTES),
        "parse_options": pa_csv.ParseOptions(delimiter=separator, quote_char=False, double_quote=False,
                                             escape_char=False, newlines_in_values=False, ignore_empty_lines=False),
        "convert_options": pa_csv.ConvertOptions(column_types=dict(zip(names, types)), null_values=[],
                                                 strings_can_be_null=False, quoted_strings_can_be_null=False,
                                                 check_utf8=False),
    }


def _check_filled(table, layout: _Layout) -> None:
    """:class:`_Declined` if a column of one piece parsed by pyarrow holds an empty value (see :func:`_offsets`).

    The query ids are checked where their dictionary becomes byte strings,
    and a score column holds numbers (pyarrow fails on an empty one).
    """
    for c in range(table.num_columns):  # the extra columns of a run too: an empty one is a separator too many
        if c != layout.keep[0] and (c != layout.keep[2] or layout.value != "score"):
            for array in table.column(c).chunks:
                _offsets(array)


def _fast_values(column, what: str, values: _Column) -> None:
    """Write one piece's scores (parsed by pyarrow) or grades (the precise reader's parser); or :class:`_Declined`."""
    if what == "grade":
        grades, bad = _parse_column(*_arrow_bytes(column.combine_chunks()), "grade")
        if bad.any():
            raise _Declined("a grade the precise reader rejects")
        values.append(grades)
        return
    for array in column.chunks:
        scores = values.reserve(len(array), np.float64)
        scores[:] = array.to_numpy()
        if not np.all(np.isfinite(scores)):
            raise _Declined("a score that is not a finite number")


def _arrow_bytes(array) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(buf, start, end) of a pyarrow binary array, value i at buf[start[i]:end[i]]; :class:`_Declined` if one is ""."""
    if not len(array):
        return np.zeros(0, dtype=np.uint8), np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.int32)
    offsets = _offsets(array)
    return np.frombuffer(array.buffers()[2], dtype=np.uint8), offsets[:-1], offsets[1:]


def _offsets(array) -> np.ndarray:
    """The n + 1 value offsets of a pyarrow binary array; :class:`_Declined` if a value is empty.

    An empty value is what two separators in a row, a separator at the start
    or end of a line, or a blank line give: the precise reader sees fewer
    columns there.
    """
    offsets = np.frombuffer(array.buffers()[1], dtype=np.int32)[array.offset:array.offset + len(array) + 1]
    if len(array) and np.diff(offsets).min() == 0:
        raise _Declined("an empty column (repeated separators, or a blank line)")
    return offsets


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
    first, codes = _number(_id_keys(texts))
    if texts.dtype.itemsize > 8 and not np.array_equal(texts[first][codes], texts):
        first, codes = _number(texts)
    return texts[first], codes


def _id_keys(texts: np.ndarray) -> np.ndarray:
    """A 64-bit key per byte string: its bytes when they fit in 8 (exact), else a hash of its 8-byte words.

    The words are combined last first (the sum of word j times the
    multiplier to the power j), so the NUL words that pad a string to its
    array's width add nothing: equal strings get equal keys in arrays of any
    widths, and no array is widened to compare keys with another.

    Examples
    --------
    >>> bool(_id_keys(np.array([b"a-long-document-id"], dtype="S24"))[0]
    ...      == _id_keys(np.array([b"a-long-document-id"], dtype="S512"))[0])
    True
    """
    words = _words(texts)
    key = words[:, -1]
    for j in range(words.shape[1] - 2, -1, -1):  # wraps around modulo 2**64 on purpose
        key = key * _KEY_MULTIPLIER + words[:, j]
    return key


def _pair_keys(qidx: np.ndarray, docids: np.ndarray) -> np.ndarray:
    """A 64-bit key per (query index, docid) row: equal pairs get equal keys, distinct pairs rarely do."""
    keys = _id_keys(docids) * _KEY_MULTIPLIER
    keys += np.ascontiguousarray(qidx, dtype=np.int64).view(np.uint64)  # indices are >= 0: the same as uint64
    return keys


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
    """Byte strings as rows of 64-bit words (NUL-padded to a multiple of 8 bytes; a view when they are)."""
    width = texts.dtype.itemsize
    n_words = -(-width // 8)
    data = np.ascontiguousarray(texts).view(np.uint8).reshape(texts.size, width)
    if width != 8 * n_words:
        data = np.concatenate([data, np.zeros((texts.size, 8 * n_words - width), dtype=np.uint8)], axis=1)
    return data.view(np.uint64)


def _query_codes(texts: np.ndarray) -> tuple[tuple[str, ...], np.ndarray]:
    """Distinct query ids (as str) in order of first appearance, and each row's index into them."""
    vocab, codes = _factorize(texts)
    return tuple(q.decode() for q in vocab.tolist()), codes


_NUMBER = {
    "grade": (np.int64, int, f"a whole number from {MIN_GRADE} to {MAX_GRADE}, such as 0, 1, 2 or -2"),
    "score": (np.float64, float, "a finite number such as 12.5, -3 or 1e-3"),
}


def _numbers(tokens: _Tokens, c: int, what: str) -> np.ndarray:
    """Kept column c as grades (whole numbers in range) or scores (finite numbers); TrecFormatError if one is not."""
    values, bad = _parse_column(tokens.buf, tokens.start[:, c], tokens.end[:, c], what)
    if not bad.any():
        return values
    row = int(np.argmax(bad))
    text = tokens.token(row, c)
    raise TrecFormatError(tokens.name, int(tokens.line[row]), f"{what} {_show(text)}{_why(text, what)}",
                          _NUMBER[what][2], column=tokens.column_name(c))


def _parse_column(buf: np.ndarray, start: np.ndarray, end: np.ndarray, what: str) -> tuple[np.ndarray, np.ndarray]:
    """The tokens buf[start:end] parsed as grades or scores: (values, bad), as :func:`_parse_numbers`.

    Tokens are parsed in groups by length, each padded to its group's width
    (8, 16, 32, ... bytes: under twice its tokens' own length), so that one
    long number among many short ones does not pad every row to its length.
    ``start`` must be non-decreasing.
    """
    group = np.maximum(np.frexp(end - start - 1)[1], 3)  # 2**group bytes hold the token: ceil(log2(length))
    groups = np.flatnonzero(np.bincount(group))
    values, bad = np.zeros(start.size, dtype=_NUMBER[what][0]), np.zeros(start.size, dtype=bool)
    for g in groups:
        rows = slice(None) if groups.size == 1 else np.flatnonzero(group == g)
        parsed, bad[rows] = _parse_numbers(_strings(buf, start[rows], end[rows]), what)
        if parsed is not None:
            values[rows] = parsed
    return values, bad


def _parse_numbers(texts: np.ndarray, what: str) -> tuple[np.ndarray | None, np.ndarray]:
    """Byte strings parsed as grades or scores: (values, bad), bad marking each text that is not one.

    A grade must be a whole number from :data:`MIN_GRADE` to
    :data:`MAX_GRADE`, a score a finite number. ``values`` is None when a text
    cannot be parsed at all.
    """
    dtype, parse, _ = _NUMBER[what]
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
        value = _NUMBER[what][1](text)
    except (ValueError, OverflowError):
        return None
    return value if (math.isfinite(value) if what == "score" else MIN_GRADE <= value <= MAX_GRADE) else None


def _why(text: bytes, what: str) -> str:
    """Why a number that Python can read was still rejected ("" when it cannot be read)."""
    if b"_" in text:
        return ""
    try:
        value = _NUMBER[what][1](text)
    except ValueError:
        return ""
    if what == "score":
        return ", which is not a finite number"
    return ", which is too large" if value > MAX_GRADE else ", which is too small"


_REPEATED = {  # (verb, what Rankwise does and why) for a (query, docid) pair on two lines of a file
    "qrels": ("judged", "Rankwise refuses such qrels, as trec_eval does (\"duplicate docs\"), "
                        "rather than choose one of the two grades"),
    "run": ("listed", "Rankwise refuses such a run, as trec_eval does (\"duplicate docs\"): a document holds "
                      "one place in a ranking, and keeping either line could change the scores"),
}


def _check_unique_pairs(rows: _Rows, name: str, layout: _Layout) -> None:
    """Raise if a (query, docid) pair occurs twice, at the second occurrence that comes first.

    The message names the file, the line, the query, the document and the
    line it was first on, and says what Rankwise does and why (:data:`_REPEATED`).
    Equal pairs have equal 64-bit keys (:func:`_pair_keys`), so when no two
    sorted keys are alike every pair is unique: one sort, the usual case.
    Otherwise the docids are numbered by their bytes and the pairs compared
    exactly (two distinct pairs may share a key).
    """
    keys = _pair_keys(rows.qidx, rows.docids)
    keys.sort()
    if not np.any(keys[1:] == keys[:-1]):
        return
    doc_vocab, doc = _factorize(rows.docids)
    key = rows.qidx * doc_vocab.size + doc
    order = np.argsort(key, kind="stable")  # rows of one key stay in file order
    sorted_key = key[order]
    repeats = order[np.flatnonzero(sorted_key[1:] == sorted_key[:-1]) + 1]
    if not repeats.size:
        return
    row = repeats[np.argmin(rows.line[repeats])]
    first = order[np.searchsorted(sorted_key, key[row])]
    verb, why = _REPEATED[layout.kind]
    raise TrecFormatError(
        name, int(rows.line[row]),
        f"document {_show(rows.docids[row])} {verb} again for query {_show(rows.qids[rows.qidx[row]])} "
        f"(first on line {rows.line[first]})",
        f"each document at most once per query ({why})")


def _in_trec_order(rows: _Rows) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(qidx, docids, score, line) of a run's rows in trec_eval's order.

    The order: query (first appearance), score descending, then docid
    descending in byte order. Scores are compared as 32-bit floats, because
    trec_eval stores them so: scores that differ only beyond about 7
    significant digits tie, and the docid decides (pytrec_eval agrees). A run
    written in rank order is already sorted by query and score, which is
    checked in linear time: then only rows with tied scores move, in place
    (the rows' arrays are the reader's own). Otherwise one sort of a 64-bit
    key orders the rows first (:func:`_query_score_order`).
    """
    with np.errstate(over="ignore"):  # beyond float32's range a score becomes ±inf, as in trec_eval
        score32 = rows.value.astype(np.float32)
    arrays = (rows.qidx, rows.docids, rows.value, rows.line)
    order = _query_score_order(rows.qidx, score32)
    if order is not None:
        arrays, score32 = tuple(a[order] for a in arrays), score32[order]
    to, source = _tie_moves(arrays[0], score32, arrays[1])
    for a in arrays[1:]:  # a tie is within one query: qidx stays
        a[to] = a[source]
    return arrays


def _query_score_order(qidx: np.ndarray, score32: np.ndarray) -> np.ndarray | None:
    """Row order by query index, then score descending; None when the rows are in that order already.

    Tied rows are left in any order (:func:`_tie_moves` orders them).

    Examples
    --------
    >>> _query_score_order(np.array([0, 0, 1]), np.array([2, 1, 5], dtype=np.float32)) is None
    True
    >>> _query_score_order(np.array([0, 0, 1]), np.array([1, 2, 5], dtype=np.float32)).tolist()
    [1, 0, 2]
    """
    if np.all((qidx[1:] > qidx[:-1]) | ((qidx[1:] == qidx[:-1]) & (score32[1:] <= score32[:-1]))):
        return None
    return np.argsort(_query_score_keys(qidx, score32))


def _tie_moves(qidx: np.ndarray, score32: np.ndarray, docids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(to, source): rows sorted by query and score get docid descending among equal scores by ``a[to] = a[source]``.

    Only the rows in a tie (same query, equal 32-bit score as a neighbour)
    are listed; docids are compared as bytes.

    Examples
    --------
    >>> to, source = _tie_moves(np.zeros(4, np.int64), np.array([3, 1, 1, 1], dtype=np.float32),
    ...                         np.array([b"x", b"a", b"c", b"b"]))
    >>> to.tolist(), source.tolist()
    ([1, 2, 3], [2, 3, 1])
    """
    tied_with_next = (qidx[1:] == qidx[:-1]) & (score32[1:] == score32[:-1])  # row i ties with row i + 1
    pairs = np.flatnonzero(tied_with_next)
    if not pairs.size:
        return pairs, pairs
    in_tie = np.zeros(qidx.size, dtype=bool)
    in_tie[pairs] = in_tie[pairs + 1] = True
    tied = np.flatnonzero(in_tie)
    group = np.cumsum(np.r_[True, ~tied_with_next[tied[1:] - 1]])  # the rows of one tie share a number
    ascending = np.lexsort((docids[tied], group))
    descending = ascending[::-1][np.argsort(group[ascending[::-1]], kind="stable")]
    return tied, tied[descending]


def _query_score_keys(qidx: np.ndarray, score: np.ndarray) -> np.ndarray:
    """A uint64 per row that sorts by query index, then 32-bit score descending; tied rows get equal keys.

    The query index fills the high 32 bits; the low 32 bits are the score's
    bits, turned so that unsigned order is float order reversed (-0 and 0
    are made equal first, as they compare).

    Examples
    --------
    >>> keys = _query_score_keys(np.array([0, 0, 0, 0, 1]), np.array([-1, 0, -0.0, 2, 5], dtype=np.float32))
    >>> np.argsort(keys, kind="stable").tolist()
    [3, 1, 2, 0, 4]
    """
    bits = (score + np.float32(0)).view(np.uint32)  # + 0 turns -0 into 0
    ascending = np.where(bits >> np.uint32(31) == 1, ~bits, bits | np.uint32(1 << 31))
    return (qidx.astype(np.uint64) << np.uint64(32)) | (~ascending).astype(np.uint64)


def _positions(sorted_qidx: np.ndarray) -> np.ndarray:
    """1-based position of each row within its query (rows grouped by query)."""
    starts = np.flatnonzero(np.r_[True, sorted_qidx[1:] != sorted_qidx[:-1]])
    return np.arange(sorted_qidx.size) - np.repeat(starts, np.diff(np.r_[starts, sorted_qidx.size])) + 1


# ----------------------------------------------------------------------------
# Joining a run with its qrels
# ----------------------------------------------------------------------------

def _query_blocks(qidx: np.ndarray, target: np.ndarray) -> tuple[np.ndarray | None, np.ndarray, np.ndarray]:
    """The rows of the run queries with a target, query by query in target order.

    ``qidx`` is grouped by query in increasing order (a :class:`Run`);
    ``target[q]`` is run query q's place in the result, or -1 to leave it
    out. Returns (rows, kept, lengths): the rows, each query's keeping their
    order; the kept queries in target order; and their number of rows.
    ``rows`` is None when it would be every row as it is (the usual case: both
    files list the same queries in the same order). A permutation of whole
    blocks, in linear time.

    Examples
    --------
    >>> rows, kept, lengths = _query_blocks(np.array([0, 0, 1, 2, 2]), np.array([1, -1, 0]))
    >>> rows.tolist(), kept.tolist(), lengths.tolist()
    ([3, 4, 0, 1], [2, 0], [2, 2])
    """
    kept = np.flatnonzero(target >= 0)
    kept = kept[np.argsort(target[kept], kind="stable")]
    counts = np.bincount(qidx, minlength=target.size)
    lengths = counts[kept]
    if kept.size == target.size and np.all(kept == np.arange(kept.size)):
        return None, kept, lengths
    shift = (np.cumsum(counts) - counts)[kept] - (np.cumsum(lengths) - lengths)  # a block's place -> its rows
    return np.arange(lengths.sum()) + np.repeat(shift, lengths), kept, lengths


def _take(values: np.ndarray, rows: np.ndarray | None) -> np.ndarray:
    """values[rows], or values itself when rows is None (every row, in order)."""
    return values if rows is None else values[rows]


def _judged_grades(qrels: Qrels, q: np.ndarray, docids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The qrels grade of each row's (qrels query index q, docid) pair (0 where nobody judged that pair), and
    whether the pair is judged at all (any grade: bpref and Judged@k tell a judged 0 from an unjudged row).

    A hash join: the rows whose 64-bit pair key (:func:`_pair_keys`) may be
    among the judgments' keys (:func:`_maybe_among`) are looked up in the
    sorted keys and compared by their bytes, so a key that collides never
    borrows a grade. When two judgments share a key, the pairs are matched
    exactly instead (:func:`_judged_grades_exactly`). Neither side's docids
    are widened to the other's width (keys do not depend on it), so the
    join takes no more memory than the two files' own arrays and a few
    numbers per row.
    """
    judged_keys = _pair_keys(qrels.qidx, qrels.docids)
    order = np.argsort(judged_keys)
    sorted_keys = judged_keys[order]
    if np.any(sorted_keys[1:] == sorted_keys[:-1]):
        return _judged_grades_exactly(qrels, q, docids)
    keys = _pair_keys(q, docids)
    rows = np.flatnonzero(_maybe_among(keys, sorted_keys))
    pos = np.minimum(np.searchsorted(sorted_keys, keys[rows]), sorted_keys.size - 1)
    match = order[pos]
    same = (sorted_keys[pos] == keys[rows]) & (qrels.qidx[match] == q[rows]) & (qrels.docids[match] == docids[rows])
    grade = np.zeros(q.size, dtype=np.int64)
    grade[rows[same]] = qrels.grade[match[same]]
    found = np.zeros(q.size, dtype=bool)
    found[rows[same]] = True
    return grade, found


def _maybe_among(keys: np.ndarray, members: np.ndarray) -> np.ndarray:
    """True for every key among members, and for a few others: a bitmap of hashed keys (no false negatives).

    The bitmap has about 256 slots per member (at most 2**24, 16 MB), so that
    few keys are looked up in vain: one random read per key, where a binary
    search would take about log2(members) of them.

    Examples
    --------
    >>> bool(_maybe_among(np.array([5, 7, 9], dtype=np.uint64), np.array([7], dtype=np.uint64))[1])
    True
    """
    bits = int(min(max(np.log2(members.size + 1) + 8, 10), 24))
    shift = np.uint64(64 - bits)
    table = np.zeros(1 << bits, dtype=bool)
    table[((members * _SLOT_MULTIPLIER) >> shift).view(np.int64)] = True
    slots = keys * _SLOT_MULTIPLIER
    slots >>= shift
    return table[slots.view(np.int64)]  # slots are below 2**24: as int64 the same, and no index copy


def _judged_grades_exactly(qrels: Qrels, q: np.ndarray, docids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """As :func:`_judged_grades`, with the docids numbered by their bytes (slower; no key is shared).

    Only docids that fit the narrower side's width can be on both sides, so
    both are cut to it (the other rows are judged for no returned row):
    nothing is widened.
    """
    width = min(qrels.docids.dtype.itemsize, docids.dtype.itemsize)
    judged, returned = _fitting(qrels.docids, width), _fitting(docids, width)
    grade, found = np.zeros(q.size, dtype=np.int64), np.zeros(q.size, dtype=bool)
    if not judged.size or not returned.size:
        return grade, found
    _, codes = _factorize(np.concatenate([qrels.docids[judged].astype(f"S{width}"),
                                          docids[returned].astype(f"S{width}")]))
    n_docs = int(codes.max()) + 1
    judged_key = qrels.qidx[judged] * n_docs + codes[:judged.size]
    key = q[returned] * n_docs + codes[judged.size:]
    order = np.argsort(judged_key)
    sorted_key = judged_key[order]
    pos = np.minimum(np.searchsorted(sorted_key, key), sorted_key.size - 1)
    found[returned] = sorted_key[pos] == key
    grade[returned] = np.where(found[returned], qrels.grade[judged][order][pos], 0)
    return grade, found


def _fitting(texts: np.ndarray, width: int) -> np.ndarray:
    """The rows of an ``S`` array whose strings are at most width bytes long.

    Examples
    --------
    >>> _fitting(np.array([b"a", b"a-long-document-id", b"b"]), 8).tolist()
    [0, 2]
    """
    if texts.dtype.itemsize <= width:
        return np.arange(texts.size)
    return np.flatnonzero(np.ascontiguousarray(texts).view(np.uint8).reshape(texts.size, -1)[:, width] == 0)


def _no_common_query(qrels: Qrels, run: Run) -> NoCommonQueryError:
    def some(qids):
        return ", ".join(repr(q) for q in qids[:3]) + (", ..." if len(qids) > 3 else "")

    return NoCommonQueryError(
        run.name, int(run.line.min()),
        f"no query that is also in {qrels.name} (this run's queries: {some(run.qids)})",
        f"query ids as the qrels writes them: {some(qrels.qids)}")
