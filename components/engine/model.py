"""The data model of qrels and runs: what every reader gives, whatever the format, and what the engine evaluates.

- :class:`Qrels`: the judgments of a file, one row per judgment, in file
  order;
- :class:`Run`: the results of a file, one row per result, in trec_eval's
  order (:mod:`components.engine.ordering`);
- :class:`JudgedRun`: a run joined with its qrels by :func:`judge`, the
  engine's :class:`~components.engine.metrics.QuerySet` with the ids kept.

Ids are opaque strings ("007" and "7" differ), kept as UTF-8 bytes in ``S``
arrays (NUL-padded, so an id holds no NUL byte); any other character is
the reader's business (a TREC file cannot hold whitespace in an id, a JSON
string or a CSV cell can). A reader makes its rows into a model with
:func:`qrels_of` and :func:`run_of`, which refuse a (query, docid) pair
listed twice, as trec_eval does ("duplicate docs").

Every problem with a file raises :class:`TrecFormatError` (the name is
historical: every format raises it), whose message names the file, the
line, what was found there and what was expected.

The readers (:mod:`components.formats`) import this module; it imports
only the engine's core (:mod:`~components.engine.metrics`, the keys, the
order and the join), never a reader. No Streamlit import here.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from types import MappingProxyType
from typing import TYPE_CHECKING, Literal, Mapping

import numpy as np

from components.engine import join, keys, metrics
from components.engine.metrics import QuerySet, query_set
from components.engine.ordering import in_trec_order, positions

Kind = Literal["qrels", "run"]
MAX_EXPONENTIAL_GRADE = 60  # 2**60 - 1 rounds to 2**60 (relative error 1e-18); sums of such gains stay finite
_SHOWN_CHARS = 60  # longest excerpt of a line or an id quoted in a message


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


# ----------------------------------------------------------------------------
# The model
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
        return keys.factorize(self.docids)


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
        vocab, codes = keys.factorize(self.docids[in_file_order])
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

        >>> from components.formats.readers import read  # (examples written as TREC files)
        >>> qrels, run = read("a 0 d 1\\nb 0 d 1\\n", "qrels"), read("a Q0 d 1 1 r\\nb Q0 d 1 1 r\\n", "run")
        >>> judge(qrels.parsed, run.parsed).query_index["b"]
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

        >>> from components.formats.readers import read
        >>> judged = judge(read("1 0 a 0\\n1 0 b 1\\n", "qrels").parsed,
        ...                read("1 Q0 x 1 3 r\\n1 Q0 a 2 2 r\\n1 Q0 b 3 1 r\\n", "run").parsed)
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
        >>> from components.formats.readers import read
        >>> judged = judge(read("1 0 a 1\\n", "qrels").parsed, read("1 Q0 a 1 0.5 r\\n1 Q0 b 2 0.9 r\\n", "run").parsed)
        >>> judged.ranking(0)
        [('b', 0.9, 0), ('a', 0.5, 1)]
        """
        lo, hi = np.searchsorted(self.queries.qidx, [q, q + 1])
        return [(d.decode(), float(s), int(g)) for d, s, g in
                zip(self.docids[lo:hi], self.scores[lo:hi], self.queries.grade[lo:hi])]

    def grades(self, q: int) -> dict[str, int]:
        """docid -> judged grade of every judged document of query index q (unjudged documents are absent).

        >>> from components.formats.readers import read
        >>> judge(read("1 0 a 1\\n1 0 c 0\\n", "qrels").parsed, read("1 Q0 a 1 0.5 r\\n", "run").parsed).grades(0)
        {'a': 1, 'c': 0}
        """
        mask = self.queries.judged_qidx == q
        return {d.decode("utf-8"): int(g) for d, g in zip(self.judged_docids[mask].tolist(),
                                                          self.queries.judged_grade[mask].tolist())}



# ----------------------------------------------------------------------------
# Joining a run with its qrels
# ----------------------------------------------------------------------------

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
    >>> from components.formats.readers import read
    >>> qrels = read("1 0 a 2\\n1 0 b 0\\n2 0 c 1\\n3 0 d 1\\n", "qrels").parsed
    >>> run = read("1 Q0 b 1 9 r\\n1 Q0 a 2 8 r\\n1 Q0 x 3 7 r\\n2 Q0 c 1 1 r\\n9 Q0 a 1 1 r\\n", "run").parsed
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
    rows, kept, lengths = join.query_blocks(run.qidx, target)  # results of judged queries, in the qrels' query order
    docids, rank, scores = (join.take(values, rows) for values in (run.docids, run.rank, run.score))
    del rows
    grade, found = join.judged_grades(qrels, np.repeat(run_to_qrels[kept], lengths), docids)
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



def check_gain_fits(qrels: Qrels, gain: str) -> None:
    """Raise :class:`TrecFormatError` if a grade is too large for exponential gain.

    Exponential gain is 2^rel − 1, which doubles with every grade: up to
    :data:`MAX_EXPONENTIAL_GRADE` (60, a gain of about 1.2e18) gains and
    their sums stay within a float's 16 significant digits of exact, well
    inside its range; past 1023 they overflow to infinity. Linear gain takes
    any grade the reader accepts.

    Examples
    --------
    >>> from components.formats.readers import read
    >>> qrels = read("1 0 a 1\\n1 0 b 100\\n", "qrels", "big.txt").parsed
    >>> check_gain_fits(qrels, "linear")
    >>> check_gain_fits(qrels, "exponential")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    components.engine.model.TrecFormatError: big.txt, line 2: found grade 100, too large for exponential gain (2^100 − 1 ...
    """
    if gain != "exponential" or qrels.grade.max() <= MAX_EXPONENTIAL_GRADE:
        return
    row = int(np.argmax(qrels.grade > MAX_EXPONENTIAL_GRADE))
    grade = int(qrels.grade[row])
    raise TrecFormatError(
        qrels.name, int(qrels.line[row]),
        f"grade {grade}, too large for exponential gain (2^{grade} − 1 is about {2.0 ** grade:.2g})",
        f"grades up to {MAX_EXPONENTIAL_GRADE} for exponential gain, or linear gain (rel), which takes every grade")


def _no_common_query(qrels: Qrels, run: Run) -> NoCommonQueryError:
    def some(qids):
        return ", ".join(repr(q) for q in qids[:3]) + (", ..." if len(qids) > 3 else "")

    return NoCommonQueryError(
        run.name, int(run.line.min()),
        f"no query that is also in {qrels.name} (this run's queries: {some(run.qids)})",
        f"query ids as the qrels writes them: {some(qrels.qids)}")


# ----------------------------------------------------------------------------
# Rows into a model
# ----------------------------------------------------------------------------

def qrels_of(name: str, qids: tuple[str, ...], qidx: np.ndarray, docids: np.ndarray, grade: np.ndarray,
             line: np.ndarray) -> Qrels:
    """A reader's judgments as :class:`Qrels` (the arrays in file order, as its attributes);
    :class:`TrecFormatError` when a (query, docid) pair is judged twice."""
    _check_unique_pairs(name, "qrels", qids, qidx, docids, line)
    return Qrels(name, qids, qidx, docids, grade, line)


def run_of(name: str, qids: tuple[str, ...], qidx: np.ndarray, docids: np.ndarray, score: np.ndarray,
           line: np.ndarray, trailing_lines: int = 0, tag: str = "") -> Run:
    """A reader's results (the arrays in file order, which are reordered in place) as a :class:`Run` in trec_eval's
    order; :class:`TrecFormatError` when a document is listed twice for a query."""
    qidx, docids, score, line = in_trec_order(qidx, docids, score, line)
    _check_unique_pairs(name, "run", qids, qidx, docids, line)
    return Run(name, qids, qidx, docids, score, positions(qidx), line, trailing_lines, tag)


def show(text: bytes | str) -> str:
    """A line, a token or an id, quoted for a message (shortened; tabs and other controls escaped)."""
    shown = (text if isinstance(text, str) else text.decode("utf-8", "replace")).rstrip("\r")
    return repr(shown if len(shown) <= _SHOWN_CHARS else shown[:_SHOWN_CHARS] + "…")


def _may_repeat(qidx: np.ndarray, docids: np.ndarray) -> bool:
    """False when no (query, docid) pair is on two rows; True when one may be (equal keys: maybe a collision).

    Equal pairs have equal 64-bit keys (:func:`~components.engine.keys.pair_keys`), so when no two sorted
    keys are alike every pair is unique. Rows grouped by query whose queries all have the same number of rows (a
    run cut at a depth) sort their keys query by query: a sort per query of 1,000 keys is about six times
    faster than one sort of seven million, which leaves the cache. Other rows sort their pair keys all together.

    >>> _may_repeat(np.array([0, 0, 1, 1]), np.array([b"a", b"b", b"a", b"b"]))
    False
    >>> _may_repeat(np.array([0, 0, 1, 1]), np.array([b"a", b"b", b"b", b"b"]))
    True
    """
    width = qidx.size  # the keys sorted together: all of them, or each query's
    if qidx.size > 1 and np.all(qidx[1:] >= qidx[:-1]):
        starts = np.flatnonzero(np.r_[True, qidx[1:] != qidx[:-1]])
        if qidx.size % starts.size == 0 and np.all(np.diff(starts) == qidx.size // starts.size):
            width = qidx.size // starts.size
    sorted_keys = keys.pair_keys(qidx, docids).reshape(-1, max(width, 1))
    sorted_keys.sort(axis=1)
    return bool(np.any(sorted_keys[:, 1:] == sorted_keys[:, :-1]))


_REPEATED = {  # (verb, what Rankwise does and why) for a (query, docid) pair on two lines of a file
    "qrels": ("judged", "Rankwise refuses such qrels, as trec_eval does (\"duplicate docs\"), "
                        "rather than choose one of the two grades"),
    "run": ("listed", "Rankwise refuses such a run, as trec_eval does (\"duplicate docs\"): a document holds "
                      "one place in a ranking, and keeping either line could change the scores"),
}


def _check_unique_pairs(name: str, kind: Kind, qids: tuple[str, ...], qidx: np.ndarray, docids: np.ndarray,
                        line: np.ndarray) -> None:
    """Raise if a (query, docid) pair occurs twice, at the second occurrence that comes first (in the file).

    The message names the file, the line, the query, the document and the
    line it was first on, and says what Rankwise does and why (:data:`_REPEATED`).
    When :func:`_may_repeat` says no pair can repeat (the usual case), that is all. Otherwise the docids are
    numbered by their bytes and the pairs compared exactly (two distinct pairs may share a key).
    """
    if not _may_repeat(qidx, docids):
        return
    doc_vocab, doc = keys.factorize(docids)
    key = qidx * doc_vocab.size + doc
    order = np.lexsort((line, key))  # the rows of one pair in file order
    sorted_key = key[order]
    repeats = order[np.flatnonzero(sorted_key[1:] == sorted_key[:-1]) + 1]
    if not repeats.size:
        return
    row = repeats[np.argmin(line[repeats])]
    first = order[np.searchsorted(sorted_key, key[row])]
    verb, why = _REPEATED[kind]
    raise TrecFormatError(
        name, int(line[row]),
        f"document {show(docids[row])} {verb} again for query {show(qids[qidx[row]])} "
        f"(first on line {line[first]})",
        f"each document at most once per query ({why})")

