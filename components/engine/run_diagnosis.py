"""Diagnose my run: every way a qrels and run pair can make its numbers misleading (no Streamlit, no prose).

:func:`diagnose` runs each check on a judged pair and returns a :class:`Diagnosis`: one :class:`Finding` per
check, in :data:`CHECKS` order, whether it found something or not. A finding holds its count, up to
:data:`EXAMPLES` example query ids (in a stable order), a severity ("warning", "note" or "ok" when it found
nothing), the numbers its sentences need (the words are in ``lessons/text/diagnose.md``) and the page that
explains it (:data:`LINKS`), or None. k is the diagnosis's cutoff; the "evaluated" queries are the judged
run's (with ``-c``, the judged queries the run does not answer too), the "answered" ones those the run answers.
An effect's first value is the report's (a mean over the evaluated queries), its second the alternative's.
The checks:

- ``qrels_only``: judged queries the run does not answer. trec_eval skips them; ``-c`` counts them with an
  empty list. Effects: each measure's value as reported, and under the other choice of ``-c``.
- ``run_only``: queries of the run nobody judged: skipped, with or without ``-c``.
- ``no_relevant``: evaluated queries with no judged document of grade >= the relevance level: they score 0
  on every measure (trec_eval's rule). Effects: the value with them (as 0) and without them.
- ``duplicates``: a document listed twice for one query. The reader refuses such a run, as trec_eval
  does, so what can be left is chunks counted as their document (``merged_chunks``, kept at their best rank).
- ``ties``: answered queries whose scores at ranks k and k + 1 are equal (as 32-bit floats, as trec_eval
  compares them), so their top k depends on the tie rule; ``values["changed"]`` counts those whose top k
  is another set of documents under the file's order. Effects: each measure under trec_eval's rule (score,
  then docid descending: the reader's order) and under the listed rule (score, then the file's order;
  :func:`components.engine.conventions.order_by_score`). With ``scores_from_order`` (a list without scores,
  whose order is the ranking) the check does not apply.
- ``unjudged``: Judged@k (:func:`components.engine.metrics.judged_at_k`) per answered query and over them
  (the mean); a warning when the mean is below ``judged_threshold``, a note when only some queries are.
- ``short_lists``: answered queries that return fewer than k documents.
- ``equal_scores``: answered queries of two or more documents whose scores are all equal (the ranking is
  then the docid order); not applicable with ``scores_from_order``.
- ``query_ids``: query ids of the run nobody judged that equal a qrels id once both are :func:`normalised`
  (trimmed, ASCII case folded, leading zeros dropped: ``007`` and ``7``).
- ``doc_ids``: unjudged returned documents whose normalised id equals the normalised id of a document
  judged for the same query.
- ``chunk_ids``: unjudged returned documents whose id, cut at its last chunk separator (``doc12#3``), is
  a document judged for the same query, both normalised.

Every check is a small function of a :class:`Pair` (the inputs, and what several checks share); each works
on whole arrays, so a run of millions of lines is diagnosed in seconds (``benchmarks/diagnose.py``).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any, Callable, Literal, Mapping, Sequence, Union, cast

import numpy as np

from components.engine import keys, metrics, model
from components.engine.measures import Measure, aggregate, evaluate, parse_measure, rank_cutoff
from components.engine.metrics import Gain, QuerySet
from components.formats import readers
from components.formats.chunks import DEFAULT_SEPARATOR

Severity = Literal["warning", "note", "ok"]
ID_CHECKS = ("query_ids", "doc_ids", "chunk_ids")  # ids written two ways: told first
Effect = tuple[Union[float, None], Union[float, None]]  # a measure's value as reported, and under an alternative
EXAMPLES = 5  # example query ids kept per finding
DEFAULT_CUTOFF = 10  # the diagnosis's k when no measure has a cutoff
VISIBLE_CHANGE = 0.0005  # a mean that moves this much shows in the third decimal: a tie warning
DIFFER_PAGE = "/why-does-my-number-differ"  # components/ui/registry.py's url paths (a test checks them)
LINKS: dict[str, str | None] = {  # the page (and glossary entry) that explains each check
    "qrels_only": DIFFER_PAGE,  # its rules for a query with nothing to find: count 0, or skip
    "run_only": "/glossary#qrels",
    "no_relevant": DIFFER_PAGE,
    "duplicates": None,
    "ties": DIFFER_PAGE,  # its table of tie rules
    "unjudged": "/glossary#unjudged-document",
    "short_lists": "/glossary#cutoff-k",
    "equal_scores": "/glossary#ties",
    "query_ids": "/glossary#trec-format",
    "doc_ids": "/glossary#trec-format",
    "chunk_ids": "/glossary#trec-format",
}
_CHUNK_BYTES = 1 << 22  # byte-wise id work takes about this many bytes of ids at a time (bounds its masks)
_SPACE, _TAB, _ZERO, _NINE, _UPPER_A, _UPPER_Z = 32, 9, ord("0"), ord("9"), ord("A"), ord("Z")


@dataclass(frozen=True)
class Finding:
    """What one check found.

    Attributes
    ----------
    check : the check's name (one of :data:`CHECKS`).
    count : how many queries it concerns (for ``duplicates``: chunks merged).
    examples : up to :data:`EXAMPLES` of those query ids, in a stable order.
    severity : "warning", "note", or "ok" when there is nothing to report.
    values : the numbers (and ids) its sentences need; ``effects``, where there is one, maps each measure to
        (its value as reported, its value under the alternative the check names); None where undefined.
    link : the app's page (a url path, maybe with a glossary anchor) that explains it, or None.
    """

    check: str
    count: int
    examples: tuple[str, ...]
    severity: Severity
    values: Mapping[str, Any]
    link: str | None

    def as_dict(self) -> dict[str, object]:
        """The finding as JSON-ready data: check, count, examples, severity, values, link."""
        return {"check": self.check, "count": self.count, "examples": list(self.examples),
                "severity": self.severity, "values": dict(self.values), "link": self.link}


@dataclass(frozen=True)
class Diagnosis:
    """Every check's :class:`Finding`, in :data:`CHECKS` order, and Judged@k per answered query.

    Attributes
    ----------
    findings : one per check.
    k : the cutoff the checks used.
    qids : the answered queries, in the qrels file's order.
    judged_at_k : Judged@k of each of them.
    """

    findings: tuple[Finding, ...]
    k: int
    qids: tuple[str, ...]
    judged_at_k: np.ndarray

    @property
    def problems(self) -> tuple[Finding, ...]:
        """The findings with something to report (severity other than "ok"), warnings first, and among them the ids
        written two ways first (:data:`ID_CHECKS`: such a format problem can explain every other number)."""
        return tuple(sorted((f for f in self.findings if f.severity != "ok"),
                            key=lambda f: (f.severity != "warning", f.check not in ID_CHECKS)))

    def finding(self, check: str) -> Finding:
        """The finding of one check, by name."""
        return next(f for f in self.findings if f.check == check)

    def as_dict(self) -> dict[str, list[dict[str, object]]]:
        """``{"diagnosis": [finding.as_dict(), ...]}``, every check in order."""
        return {"diagnosis": [f.as_dict() for f in self.findings]}


@dataclass(frozen=True)
class Pair:
    """The inputs of the checks, and the arrays several of them share (computed once, on first use).

    ``judged`` is ``model.judge(qrels, run, complete)`` as it came (not :meth:`~model.JudgedRun.adjusted`).
    """

    qrels: model.Qrels
    run: model.Run
    judged: model.JudgedRun
    k: int
    measures: tuple[Measure, ...]
    gain: Gain
    relevance_level: int = 1
    scores_from_order: bool = False
    merged_chunks: int = 0
    judged_threshold: float = 0.8
    chunk_separator: str = "#"

    @cached_property
    def queries(self) -> QuerySet:
        """The judged run's query set, a grade >= the relevance level relevant."""
        return self.judged.adjusted(self.relevance_level).queries

    @cached_property
    def answered(self) -> np.ndarray:
        """One bool per judged query: whether the run answers it (False only for ``-c``'s added queries)."""
        missing = set(self.judged.qrels_only)
        return np.array([qid not in missing for qid in self.judged.qids], dtype=bool)

    @cached_property
    def answered_qids(self) -> tuple[str, ...]:
        """The ids of the judged queries the run answers, in order."""
        return tuple(qid for qid, a in zip(self.judged.qids, self.answered) if a)

    @cached_property
    def values(self) -> dict[str, np.ndarray]:
        """Each measure's per-query values, every judged query (the report's numbers)."""
        return evaluate(self.queries, self.measures, self.gain)

    @cached_property
    def score32(self) -> np.ndarray:
        """Each returned row's score as a 32-bit float: how trec_eval stores and compares them."""
        with np.errstate(over="ignore"):
            return self.judged.scores.astype(np.float32)

    @cached_property
    def tied_with_next(self) -> np.ndarray:
        """For each row but the last: whether the next row is of the same query with an equal score."""
        q = self.queries.qidx
        return (q[1:] == q[:-1]) & (self.score32[1:] == self.score32[:-1])

    @cached_property
    def run_rows(self) -> np.ndarray:
        """The run's row of each returned row (a judged query's rows are its run query's, in order)."""
        run, judged = self.run, self.judged
        run_index = {qid: i for i, qid in enumerate(run.qids)}
        run_starts = np.searchsorted(run.qidx, np.arange(len(run.qids)))
        first = np.array([run_starts[run_index[qid]] if qid in run_index else 0 for qid in judged.qids],
                         dtype=np.int64)
        return first[judged.queries.qidx] + judged.queries.rank - 1

    @cached_property
    def starts(self) -> np.ndarray:
        """The first row of each judged query, and the end of the rows last (n_queries + 1 entries)."""
        return np.searchsorted(self.queries.qidx, np.arange(self.queries.n_queries + 1))

    def examples(self, query_indices: np.ndarray) -> tuple[str, ...]:
        """The first :data:`EXAMPLES` of these judged query indices (in the order given), as ids."""
        return tuple(self.judged.qids[int(i)] for i in query_indices[:EXAMPLES])


def diagnose(qrels: model.Qrels, run: model.Run, judged: model.JudgedRun, *, k: int,
             measures: Sequence[Measure | str], gain: Gain, relevance_level: int = 1, scores_from_order: bool = False,
             merged_chunks: int = 0, judged_threshold: float = 0.8, chunk_separator: str = "#") -> Diagnosis:
    """Run every check of :data:`CHECKS` on a judged pair (``judged = model.judge(qrels, run, complete)``).

    ``measures`` and ``gain`` are those reported (each effect is on them); ``relevance_level`` is trec_eval's
    ``-l``; ``scores_from_order``: the run's scores were made from its list order (no tie can exist);
    ``merged_chunks``: how many chunks the reader counted as their document; ``judged_threshold``: the
    Judged@k below which the unjudged check warns; ``chunk_separator``: what separates a document id from
    its chunk number.

    Examples
    --------
    >>> from components.formats.readers import read
    >>> qrels = read("1 0 a 1\\n2 0 b 1\\n", "qrels").parsed
    >>> run = read("1 Q0 a 1 2 r\\n1 Q0 x 2 1 r\\n7 Q0 b 1 1 r\\n", "run").parsed
    >>> found = diagnose(qrels, run, model.judge(qrels, run), k=2, measures=["P@2"], gain="linear")
    >>> [(f.check, f.count, f.examples) for f in found.problems]
    [('qrels_only', 1, ('2',)), ('unjudged', 1, ('1',)), ('run_only', 1, ('7',))]
    >>> found.finding("qrels_only").values["effects"]
    {'P@2': (0.5, 0.25)}
    """
    if not 0.0 <= judged_threshold <= 1.0:
        raise ValueError(f"judged_threshold is a share of the top k, between 0 and 1; got {judged_threshold!r}")
    parsed = tuple(m if isinstance(m, Measure) else parse_measure(m) for m in measures)
    pair = Pair(qrels, run, judged, metrics.check_k(k), parsed, metrics.check_gain(gain), relevance_level,
                scores_from_order, merged_chunks, judged_threshold, chunk_separator)
    _check_judged_from(pair)
    found = tuple(check(pair) for check in CHECKS.values())
    return Diagnosis(found, pair.k, pair.answered_qids, unjudged_values(pair))


def _check_judged_from(pair: Pair) -> None:
    """Raise ``ValueError`` unless ``pair.judged`` is the run's own join, unadjusted (its rows are the run's)."""
    rows = pair.run_rows
    if (rows.size and rows.max() >= pair.run.docids.size) or not np.array_equal(pair.run.docids[rows],
                                                                                  pair.judged.docids):
        raise ValueError("judged must be model.judge(qrels, run) of this run, not adjusted (-J, -M)")


def _finding(pair: Pair, check: str, count: int, examples: tuple[str, ...], severity: Severity,
             **values: Any) -> Finding:
    """A finding of ``check`` (severity "ok" when ``count`` is 0 and nothing else says otherwise)."""
    return Finding(check, int(count), examples, severity if count else "ok", values, LINKS[check])


def _mean(name: str, values: np.ndarray) -> float | None:
    """The set's value of a measure from per-query values (:func:`aggregate`); None when undefined (no query)."""
    value = aggregate(name, values)
    return None if np.isnan(value) else value


def _effects(now: Mapping[str, np.ndarray], other: Mapping[str, np.ndarray]) -> dict[str, Effect]:
    """measure -> (its value now, its value under the alternative), each :func:`_mean` of its per-query values."""
    return {name: (_mean(name, now[name]), _mean(name, other[name])) for name in now}


# ----------------------------------------------------------------------------
# The checks
# ----------------------------------------------------------------------------

def qrels_only(pair: Pair) -> Finding:
    """Judged queries the run does not answer; effects: as reported against the other choice of ``-c``
    (skipped, trec_eval's default, or counted with an empty list).

    A query counted by ``-c`` has its values on its judgments alone (nothing returned).
    """
    missing = pair.judged.qrels_only
    if not missing:
        return _finding(pair, "qrels_only", 0, (), "ok")
    skipped = {name: v[pair.answered] for name, v in pair.values.items()}
    counted = pair.values if pair.judged.complete else \
        {name: np.concatenate([skipped[name], v]) for name, v in _unanswered_values(pair).items()}
    now, other = (counted, skipped) if pair.judged.complete else (skipped, counted)
    return _finding(pair, "qrels_only", len(missing), missing[:EXAMPLES], "warning", complete=pair.judged.complete,
                    effects=_effects(now, other))


def _unanswered_values(pair: Pair) -> dict[str, np.ndarray]:
    """Per-query values of the judged queries the run does not answer, each with an empty list (as ``-c``)."""
    qrels = pair.qrels
    place = np.full(len(qrels.qids), -1, dtype=np.int64)
    index = {qid: i for i, qid in enumerate(qrels.qids)}
    place[[index[qid] for qid in pair.judged.qrels_only]] = np.arange(len(pair.judged.qrels_only))
    rows = np.flatnonzero(place[qrels.qidx] >= 0)
    none = np.zeros(0, dtype=np.int64)
    queries = metrics.query_set(len(pair.judged.qrels_only), none, none, none, place[qrels.qidx[rows]],
                                qrels.grade[rows])
    return evaluate(metrics.with_relevance_level(queries, pair.relevance_level), pair.measures, pair.gain)


def run_only(pair: Pair) -> Finding:
    """Queries of the run nobody judged: skipped with or without ``-c``, so no mean includes them."""
    skipped = pair.judged.run_only
    return _finding(pair, "run_only", len(skipped), skipped[:EXAMPLES], "note")


def no_relevant(pair: Pair) -> Finding:
    """Evaluated queries without a relevant judged document (0 on every measure); effects: with them, without."""
    empty = metrics.num_relevant(pair.queries) == 0
    kept = {name: v[~empty] for name, v in pair.values.items()}
    return _finding(pair, "no_relevant", int(empty.sum()), pair.examples(np.flatnonzero(empty)), "note",
                    level=pair.relevance_level, effects=_effects(pair.values, kept))


def duplicates(pair: Pair) -> Finding:
    """Documents listed twice for a query: refused by the reader (as trec_eval), so only merged chunks remain."""
    return _finding(pair, "duplicates", pair.merged_chunks, (), "note", merged=pair.merged_chunks)


def ties(pair: Pair) -> Finding:
    """Answered queries tied at ranks k and k + 1; effects: trec_eval's tie rule against the file's order.

    ``changed`` counts the queries whose top k holds other documents in the file's order.
    """
    if pair.scores_from_order:
        return _finding(pair, "ties", 0, (), "ok", applies=False, k=pair.k)
    qs = pair.queries
    straddle = np.flatnonzero((qs.rank[:-1] == pair.k) & pair.tied_with_next)
    listed = listed_order(pair)
    crossed = (qs.rank <= pair.k) & (qs.rank[listed] > pair.k)  # a row from below k moves into the top k
    in_file_order = replace(qs, grade=qs.grade[listed],
                            is_judged=None if qs.is_judged is None else qs.is_judged[listed])
    effects = _effects(pair.values, evaluate(in_file_order, pair.measures, pair.gain))
    moved = max((abs(a - b) for a, b in effects.values() if a is not None and b is not None), default=0.0)
    severity: Severity = "warning" if moved >= VISIBLE_CHANGE else "note" if straddle.size or moved else "ok"
    tied_queries = np.unique(qs.qidx[:-1][pair.tied_with_next])
    values = {"applies": True, "k": pair.k, "changed": int(np.unique(qs.qidx[crossed]).size),
              "tied": int(tied_queries.size), "effects": effects}
    return Finding("ties", int(straddle.size), pair.examples(qs.qidx[straddle]), severity, values, LINKS["ties"])


def listed_order(pair: Pair) -> np.ndarray:
    """The judged run's rows in the listed rule's order: score descending, equal scores in the file's order.

    Row i of the result is the row at position i; only rows within a tie (equal 32-bit scores, one query)
    move, so query indices and ranks stay where they are.
    """
    tied_next = pair.tied_with_next
    pairs = np.flatnonzero(tied_next)
    order = np.arange(pair.queries.rank.size)
    if not pairs.size:
        return order
    in_tie = np.zeros(order.size, dtype=bool)
    in_tie[pairs] = in_tie[pairs + 1] = True
    tied = np.flatnonzero(in_tie)
    group = np.cumsum(np.r_[True, ~tied_next[tied[1:] - 1]])  # the rows of one tie share a number
    lines = pair.run.line[pair.run_rows[tied]]
    order[tied] = tied[np.lexsort((lines, group))]
    return order


def diagnose_read(qrels: readers.Read, run: readers.Read, judged: model.JudgedRun, *, k: int,
                  measures: Sequence[Measure | str], gain: Gain, relevance_level: int = 1,
                  chunks: str | None = None) -> Diagnosis:
    """:func:`diagnose` on two files as :func:`components.formats.readers.read` read them: what the readers
    understood goes in (a run whose scores came from its lists' order, the chunks merged into their document;
    ``chunks``: the separator they were read with, None when ids were kept as they are)."""
    return diagnose(cast(model.Qrels, qrels.parsed), cast(model.Run, run.parsed), judged, k=k, measures=measures,
                    gain=gain, relevance_level=relevance_level, scores_from_order=run.understood.scores_from_order,
                    merged_chunks=qrels.understood.merged_chunks + run.understood.merged_chunks,
                    chunk_separator=chunks or DEFAULT_SEPARATOR)


def diagnosis_cutoff(measures: Sequence[Measure | str]) -> int:
    """The diagnosis's default cutoff: the largest rank cutoff among the measures, or 10 when none has one.

    >>> diagnosis_cutoff(["R@5", "nDCG@20", "RR"]), diagnosis_cutoff(["AP"])
    (20, 10)
    """
    return max((k for k in map(rank_cutoff, measures) if k is not None), default=DEFAULT_CUTOFF)


def unjudged_values(pair: Pair) -> np.ndarray:
    """Judged@k of each answered query (the engine's :func:`~components.engine.metrics.judged_at_k`)."""
    return metrics.judged_at_k(pair.queries, pair.k)[pair.answered]


def unjudged(pair: Pair) -> Finding:
    """Answered queries whose Judged@k is below the threshold, lowest first; overall = their mean Judged@k."""
    share = unjudged_values(pair)
    below = np.flatnonzero(share < pair.judged_threshold)
    below = below[np.argsort(share[below], kind="stable")]
    qs = pair.queries
    top = qs.rank <= pair.k
    missing = 0 if qs.is_judged is None else int(np.count_nonzero(top & ~qs.is_judged))
    overall = float(share.mean()) if share.size else 1.0
    return _finding(pair, "unjudged", below.size, tuple(pair.answered_qids[i] for i in below[:EXAMPLES]),
                    "warning" if overall < pair.judged_threshold else "note", k=pair.k, overall=overall,
                    threshold=pair.judged_threshold, documents=missing,
                    lowest=float(share[below[0]]) if below.size else 1.0)


def short_lists(pair: Pair) -> Finding:
    """Answered queries returning fewer than k documents; ``shortest`` is the shortest list's length."""
    length = np.diff(pair.starts)
    short = np.flatnonzero(pair.answered & (length < pair.k))
    return _finding(pair, "short_lists", short.size, pair.examples(short), "note", k=pair.k,
                    shortest=int(length[short].min()) if short.size else pair.k)


def equal_scores(pair: Pair) -> Finding:
    """Answered queries of two or more documents whose scores are all equal (as 32-bit floats)."""
    if pair.scores_from_order:
        return _finding(pair, "equal_scores", 0, (), "ok", applies=False)
    first, end = pair.starts[:-1], pair.starts[1:]
    several = np.flatnonzero(end - first >= 2)
    flat = several[pair.score32[first[several]] == pair.score32[end[several] - 1]]  # sorted: first = last, all equal
    return _finding(pair, "equal_scores", flat.size, pair.examples(flat), "warning", applies=True)


def query_ids(pair: Pair) -> Finding:
    """Query ids of the run nobody judged that equal a qrels id once both are :func:`normalised`."""
    unjudged_ids = pair.judged.run_only
    mine, theirs = (_as_bytes(ids) for ids in (unjudged_ids, pair.qrels.qids))
    rows, match = _matches(np.zeros(mine.size, np.int64), normalised(mine),
                           np.zeros(theirs.size, np.int64), normalised(theirs))
    if not rows.size:
        return _finding(pair, "query_ids", 0, (), "warning")
    return _finding(pair, "query_ids", rows.size, tuple(unjudged_ids[i] for i in rows[:EXAMPLES]), "warning",
                    run_id=unjudged_ids[rows[0]], qrels_id=pair.qrels.qids[match[0]])


def doc_ids(pair: Pair) -> Finding:
    """Unjudged returned documents whose :func:`normalised` id is that of a document judged for the query."""
    rows = _unjudged_rows(pair)
    mine, theirs = pair.judged.docids[rows], pair.judged.judged_docids
    mine_normalised, theirs_normalised = normalised(mine), normalised(theirs)
    # an id normalising to itself can only match a judged id that does not: when none does, only changed ids
    probe = np.arange(rows.size) if np.any(theirs_normalised != theirs) else np.flatnonzero(mine_normalised != mine)
    qs = pair.queries
    found, match = _matches(qs.qidx[rows[probe]], mine_normalised[probe], qs.judged_qidx, theirs_normalised)
    return _id_finding(pair, "doc_ids", rows[probe[found]], match)


def chunk_ids(pair: Pair) -> Finding:
    """Unjudged returned documents whose id, cut at its last chunk separator, is a document judged for the query
    (both ids :func:`normalised`: ``D12#3`` is a chunk of ``d12``)."""
    rows = _unjudged_rows(pair)
    stems, cut = chunk_stems(pair.judged.docids[rows], pair.chunk_separator)
    rows = rows[cut]
    qs = pair.queries
    found, match = _matches(qs.qidx[rows], normalised(stems), qs.judged_qidx, normalised(pair.judged.judged_docids))
    return _id_finding(pair, "chunk_ids", rows[found], match)


def _unjudged_rows(pair: Pair) -> np.ndarray:
    """The returned rows nobody judged for their query."""
    is_judged = pair.queries.is_judged
    return np.zeros(0, dtype=np.int64) if is_judged is None else np.flatnonzero(~is_judged)


def _id_finding(pair: Pair, check: str, rows: np.ndarray, match: np.ndarray) -> Finding:
    """A finding of returned rows whose ids look like judged ones: their queries, and the first pair of ids."""
    if not rows.size:
        return _finding(pair, check, 0, (), "warning")
    queries = np.unique(pair.queries.qidx[rows])  # query indices ascending: the qrels file's order
    return _finding(pair, check, queries.size, pair.examples(queries), "warning", documents=int(rows.size),
                    run_id=_decoded(pair.judged.docids[rows[0]]), qrels_id=_decoded(pair.judged.judged_docids[match[0]]))


CHECKS: dict[str, Callable[[Pair], Finding]] = {
    "qrels_only": qrels_only, "run_only": run_only, "no_relevant": no_relevant, "duplicates": duplicates,
    "ties": ties, "unjudged": unjudged, "short_lists": short_lists, "equal_scores": equal_scores,
    "query_ids": query_ids, "doc_ids": doc_ids, "chunk_ids": chunk_ids,
}


# ----------------------------------------------------------------------------
# Ids, byte-wise over whole arrays
# ----------------------------------------------------------------------------

def normalised(ids: np.ndarray) -> np.ndarray:
    """Ids (an ``S`` array) as a format mix-up would blur them: spaces and tabs trimmed from both ends, ASCII
    letters lower-cased, and leading zeros dropped where a digit follows (``007`` -> ``7``, ``0`` stays).

    Examples
    --------
    >>> normalised(np.array([b" Doc7 ", b"007", b"0", b"00", b"0x1", b"D007"])).tolist()
    [b'doc7', b'7', b'0', b'0', b'0x1', b'd007']
    """
    return _bytewise(ids, _normalise_bytes)


def chunk_stems(ids: np.ndarray, separator: str = "#") -> tuple[np.ndarray, np.ndarray]:
    """(stems, cut): each id that holds ``separator`` cut before its last one, and which ids did.

    >>> stems, cut = chunk_stems(np.array([b"doc12#3", b"doc7", b"a#b#2"]))
    >>> stems.tolist(), cut.tolist()
    ([b'doc12', b'a#b'], [True, False, True])
    """
    mark = separator.encode()
    if len(mark) != 1:
        raise ValueError(f"the chunk separator is one ASCII character, got {separator!r}")
    stems = _bytewise(ids, lambda data: _stem_bytes(data, mark[0]))
    cut = stems != b""  # an id without the separator has no stem (nor has "#3": nothing to match)
    return stems[cut], cut


def _bytewise(ids: np.ndarray, change: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """``change`` applied to the ids' bytes (rows of a uint8 matrix, NUL-padded), a block of rows at a time."""
    width = max(ids.dtype.itemsize, 1)
    data = np.ascontiguousarray(ids, dtype=f"S{width}").view(np.uint8).reshape(ids.size, width)
    step = max(1, _CHUNK_BYTES // width)
    out = np.concatenate([change(data[lo:lo + step].copy()) for lo in range(0, ids.size, step)]) if ids.size \
        else data
    return np.ascontiguousarray(out).view(f"S{width}").ravel()


def _normalise_bytes(data: np.ndarray) -> np.ndarray:
    """:func:`normalised` on a block of NUL-padded id bytes (modified in place, and returned).

    Every byte is lower-cased in one pass; the rows holding a space or a tab are trimmed
    (:func:`_trimmed`); then the rows that begin with a zero and a digit lose that zero, a column at a
    time, until none does. Nothing works row by row over the whole block (a reduction along each row
    costs a pass per byte of width).
    """
    flat = data.reshape(-1)
    flat += np.uint8(32) * ((flat >= _UPPER_A) & (flat <= _UPPER_Z))
    spaced = np.unique(np.flatnonzero((flat == _SPACE) | (flat == _TAB)) // data.shape[1])
    if spaced.size:
        data[spaced] = _trimmed(data[spaced])
    rows = np.arange(len(data))
    while data.shape[1] > 1 and rows.size:
        rows = rows[(data[rows, 0] == _ZERO) & (data[rows, 1] >= _ZERO) & (data[rows, 1] <= _NINE)]
        data[rows, :-1] = data[rows, 1:]
        data[rows, -1] = 0
    return data


def _trimmed(data: np.ndarray) -> np.ndarray:
    """Rows of id bytes without their leading and trailing spaces and tabs."""
    solid = (data != 0) & (data != _SPACE) & (data != _TAB)
    width = data.shape[1]
    last = width - 1 - np.argmax(solid[:, ::-1], axis=1)  # the last solid byte (every row's, when none: col 0)
    data[np.arange(width) > np.where(solid.any(axis=1), last, -1)[:, None]] = 0
    return _shifted(data, np.argmax(solid, axis=1))  # leading spaces gone (argmax of no solid byte is 0)


def _stem_bytes(data: np.ndarray, mark: int) -> np.ndarray:
    """Each row cut before its last ``mark`` byte; a row without one emptied."""
    width = data.shape[1]
    at = np.flatnonzero(data.reshape(-1) == mark)
    at = at[np.r_[at[1:] // width != at[:-1] // width, True]] if at.size else at  # each row's last
    end = np.zeros(len(data), dtype=np.int64)
    end[at // width] = at % width
    data[np.arange(width) >= end[:, None]] = 0
    return data


def _shifted(data: np.ndarray, by: np.ndarray) -> np.ndarray:
    """Each row moved ``by`` bytes to the left, NUL-padded; only the rows that move are touched."""
    rows = np.flatnonzero(by)
    if rows.size:
        width = data.shape[1]
        source = np.arange(width) + by[rows, None]
        data[rows] = np.where(source < width, np.take_along_axis(data[rows], np.minimum(source, width - 1), 1), 0)
    return data


def _matches(q: np.ndarray, ids: np.ndarray, judged_q: np.ndarray, judged_ids: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray]:
    """(rows, match): the rows i whose (q[i], ids[i]) is some (judged_q[j], judged_ids[j]), and that j.

    A join on the reader's 64-bit pair keys, each match checked on the bytes (so a shared key never matches).
    """
    if not ids.size or not judged_ids.size:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    judged_keys = keys.pair_keys(judged_q, judged_ids)
    order = np.argsort(judged_keys)
    sorted_keys = judged_keys[order]
    probe = keys.pair_keys(q, ids)
    pos = np.minimum(np.searchsorted(sorted_keys, probe), sorted_keys.size - 1)
    candidate = np.flatnonzero(sorted_keys[pos] == probe)
    match = order[pos[candidate]]
    same = (judged_q[match] == q[candidate]) & (judged_ids[match] == ids[candidate])
    return candidate[same], match[same]


def _as_bytes(ids: Sequence[str]) -> np.ndarray:
    return np.array([i.encode("utf-8", "surrogatepass") for i in ids], dtype=bytes)


def _decoded(text: bytes) -> str:
    return text.decode("utf-8", "replace")


JUDGED_GAP = 0.02  # two runs' mean Judged@k this far apart (2 points) are judged to different depths


@dataclass(frozen=True)
class Contrast:
    """A way two runs' diagnoses differ, against the same qrels: ``check`` (one of :data:`CHECKS`), the
    baseline's finding and the other run's. For ``unjudged``: the other run's mean Judged@k is lower (its scores
    may be underestimated against the baseline's) or higher by :data:`JUDGED_GAP` or more; for any other check:
    one run has something to report and the other has not, or reports it at another severity."""

    check: str
    base: Finding
    other: Finding

    @property
    def judged_less(self) -> bool:
        """For ``unjudged``: whether the other run is the one judged less deeply."""
        return self.other.values["overall"] < self.base.values["overall"]


def contrasts(base: Diagnosis, other: Diagnosis) -> tuple[Contrast, ...]:
    """How ``other``'s diagnosis differs from the baseline's ``base`` (both at the same k), in :data:`CHECKS` order.

    Examples
    --------
    >>> from components.formats.readers import read
    >>> qrels = read("1 0 a 1\\n1 0 b 0\\n2 0 c 1\\n", "qrels").parsed
    >>> deep, shallow = (read(t, "run").parsed for t in ("1 Q0 a 1 2 r\\n1 Q0 b 2 1 r\\n2 Q0 c 1 1 r\\n",
    ...                                               "1 Q0 a 1 2 r\\n1 Q0 x 2 1 r\\n"))
    >>> found = [diagnose(qrels, run, model.judge(qrels, run), k=2, measures=["P@2"], gain="linear")
    ...          for run in (deep, shallow)]
    >>> [(c.check, c.judged_less if c.check == "unjudged" else c.other.severity) for c in contrasts(*found)]
    [('qrels_only', 'warning'), ('unjudged', True), ('short_lists', 'ok')]
    """
    if base.k != other.k:
        raise ValueError(f"diagnoses at different cutoffs ({base.k} and {other.k}) do not compare")
    found = []
    for a, b in zip(base.findings, other.findings):
        if a.check == "unjudged":
            differs = abs(a.values["overall"] - b.values["overall"]) >= JUDGED_GAP
        else:
            differs = a.severity != b.severity
        if differs:
            found.append(Contrast(a.check, a, b))
    return tuple(found)
