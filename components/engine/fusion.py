"""Run fusion: several runs for the same queries made into one (hybrid search: a lexical and a dense run).

Each input run is read in trec_eval's order (score descending, ties by docid descending: :class:`model.Run`), so a
document's rank r is its 1-based position there; ``depth`` keeps each run's top ``depth`` per query. A document
counts only in the runs that hold it: no rank or score is invented for one a run did not return.

- **rrf**, reciprocal rank fusion (Cormack, Clarke & Büttcher, SIGIR 2009): :math:`s(d) = \\sum_r 1 / (k + r_r(d))`
  over the runs r holding d, with k = 60 by default. Ranks start at 1; scores are not used, so ``norm`` does not
  apply.
- **combsum**: :math:`s(d) = \\sum_r n_r(d)`, the sum of d's normalised scores ``n`` over the runs holding it.
- **combmnz**: combsum times the number of runs holding d.

Normalisation (combsum, combmnz), per run and query, over the documents kept:

- **none**: the scores as given;
- **minmax**: :math:`(s - \\min) / (\\max - \\min)`, 0 where all scores are equal;
- **zscore**: :math:`(s - \\bar s) / \\sigma` (the population standard deviation), 0 where all scores are equal.

The fused run is in trec_eval's order too: queries in order of first appearance (the first run's, then any new
ones of the next), then score descending as trec_eval compares scores (32-bit floats), ties by docid descending;
``rank`` is the position in that order. Written with :func:`to_trec` (every score's digits kept), it reads
back in the same order, so its rank column is what trec_eval uses. Fused ties are common (RRF gives ranks 2 and 5
the same score as 5 and 2).

No Streamlit import here.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, Sequence

import numpy as np

from components.engine import model
from components.engine.measures import Measure, aggregate, evaluate, parse_measure
from components.engine.metrics import Gain

Method = Literal["rrf", "combsum", "combmnz"]
Norm = Literal["none", "minmax", "zscore"]
METHODS: tuple[Method, ...] = ("rrf", "combsum", "combmnz")
NORMS: tuple[Norm, ...] = ("none", "minmax", "zscore")
RRF_K = 60  # Cormack et al.'s constant
TAG = "fused"


@dataclass(frozen=True)
class Fused:
    """A fused run: one row per (query, document), in trec_eval's order (see the module's docstring).

    Attributes
    ----------
    qids : the query ids, in order of first appearance; ``qidx`` indexes them per row.
    docids : each row's document id (UTF-8 bytes).
    score : each row's fused score.
    rank : each row's 1-based rank within its query.
    runs : how many input runs hold each row's document.
    """

    qids: tuple[str, ...]
    qidx: np.ndarray
    docids: np.ndarray
    score: np.ndarray
    rank: np.ndarray
    runs: np.ndarray


def fuse(runs: Sequence[model.Run], method: Method = "rrf", *, k: float = RRF_K, norm: Norm = "none",
         depth: int | None = None) -> Fused:
    """Fuse ``runs`` (two or more) by ``method``; see the module's docstring for the formulas.

    Raises ``ValueError`` for fewer than two runs, an unknown method or normalisation, a normalisation with rrf,
    a k that is not a positive number, or a depth under 1.

    Examples
    --------
    Document b is second in one run and first in the other: 1/62 + 1/61 beats a's 1/61 + 1/63, and c, in one run
    only, scores 1/63 (nothing is invented for the run that did not return it).

    >>> from components.formats.readers import read

    >>> lexical = read("q1 Q0 a 1 9.0 bm25\\nq1 Q0 b 2 8.0 bm25\\nq1 Q0 c 3 7.0 bm25\\n", "run").parsed
    >>> dense = read("q1 Q0 b 1 0.9 dense\\nq1 Q0 d 2 0.8 dense\\nq1 Q0 a 3 0.7 dense\\n", "run").parsed
    >>> fused = fuse([lexical, dense])
    >>> [(d.decode(), int(r), round(float(s), 6)) for d, r, s in zip(fused.docids, fused.rank, fused.score)]
    [('b', 1, 0.032522), ('a', 2, 0.032266), ('d', 3, 0.016129), ('c', 4, 0.015873)]
    >>> mnz = fuse([lexical, dense], "combmnz", norm="minmax")
    >>> [(d.decode(), round(float(s), 3)) for d, s in zip(mnz.docids, mnz.score)]
    [('b', 3.0), ('a', 2.0), ('d', 0.5), ('c', 0.0)]
    """
    _check(runs, method, k, norm, depth)
    qids = tuple(dict.fromkeys(q for run in runs for q in run.qids))
    code = {q: i for i, q in enumerate(qids)}
    parts = [_contributions(run, method, k, norm, depth, np.array([code[q] for q in run.qids], dtype=np.int64))
             for run in runs]
    qidx, docids, values = (np.concatenate([p[i] for p in parts]) for i in range(3))
    vocab, doc = np.unique(docids, return_inverse=True)  # vocab sorted by bytes: doc codes order the docids
    keys, row = np.unique(qidx * len(vocab) + doc, return_inverse=True)
    score = np.bincount(row, weights=values, minlength=len(keys))
    held = np.bincount(row, minlength=len(keys))
    if method == "combmnz":
        score = score * held
    fused_q, fused_doc = keys // len(vocab), keys % len(vocab)
    order = np.lexsort((-fused_doc, -score.astype(np.float32), fused_q))  # last key first: query, score, docid
    fused_q, fused_doc, score, held = fused_q[order], fused_doc[order], score[order], held[order]
    starts = np.flatnonzero(np.r_[True, fused_q[1:] != fused_q[:-1]])
    rank = np.arange(len(fused_q)) - np.repeat(starts, np.diff(np.r_[starts, len(fused_q)])) + 1
    return Fused(qids, fused_q, vocab[fused_doc], score, rank, held)


def _check(runs: Sequence[model.Run], method: str, k: float, norm: str, depth: int | None) -> None:
    if len(runs) < 2:
        raise ValueError(f"fuse two runs or more, got {len(runs)}")
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    if norm not in NORMS:
        raise ValueError(f"norm must be one of {NORMS}, got {norm!r}")
    if method == "rrf" and norm != "none":
        raise ValueError("rrf fuses ranks, not scores: it takes no normalisation")
    if not (np.isfinite(k) and k > 0):
        raise ValueError(f"k must be a positive number, got {k!r}")
    if depth is not None and depth < 1:
        raise ValueError(f"depth must be 1 or more, got {depth!r}")


def _contributions(run: model.Run, method: str, k: float, norm: str, depth: int | None,
                   codes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(query code, docid, value) of each row the run adds: 1/(k + rank) for rrf, the normalised score else."""
    kept = np.ones(len(run.rank), dtype=bool) if depth is None else run.rank <= depth
    qidx, rank, score = run.qidx[kept], run.rank[kept], run.score[kept].astype(np.float64)
    if method == "rrf":
        values = 1.0 / (k + rank)
    else:
        values = _normalised(score, qidx, norm)
    return codes[qidx], run.docids[kept], values


def _normalised(score: np.ndarray, qidx: np.ndarray, norm: str) -> np.ndarray:
    """Each score normalised over its query's rows (rows grouped by query, as a run's are)."""
    if norm == "none" or len(score) == 0:
        return score
    starts = np.flatnonzero(np.r_[True, qidx[1:] != qidx[:-1]])
    sizes = np.diff(np.r_[starts, len(score)])
    if norm == "minmax":
        low = np.repeat(np.minimum.reduceat(score, starts), sizes)
        spread = np.repeat(np.maximum.reduceat(score, starts), sizes) - low
        centred = score - low
    else:
        mean = np.repeat(np.add.reduceat(score, starts) / sizes, sizes)
        centred = score - mean
        spread = np.sqrt(np.repeat(np.add.reduceat(centred ** 2, starts) / sizes, sizes))
    out = np.zeros_like(score)
    np.divide(centred, spread, out=out, where=spread > 0)
    return out


def to_trec(fused: Fused, tag: str = TAG) -> str:
    """The fused run as TREC run text: ``qid Q0 docid rank score tag``, each score written as the shortest text
    that reads back as the same 64-bit number (Python's ``repr``).

    >>> from components.formats.readers import read

    >>> a = read("q1 Q0 x 1 2 a\\nq1 Q0 y 2 1 a\\n", "run").parsed
    >>> b = read("q1 Q0 y 1 2 b\\nq1 Q0 x 2 1 b\\n", "run").parsed
    >>> print(to_trec(fuse([a, b])), end="")  # a tie: y before x, docid descending, as trec_eval reads it
    q1 Q0 y 1 0.03252247488101534 fused
    q1 Q0 x 2 0.03252247488101534 fused
    """
    return "".join(f"{fused.qids[q]} Q0 {d.decode()} {r} {s!r} {tag}\n"
                   for q, d, r, s in zip(fused.qidx.tolist(), fused.docids, fused.rank.tolist(),
                                         fused.score.tolist()))


def to_json(fused: Fused) -> str:
    """The fused run as a JSON run, ``{qid: {docid: score}}`` (pytrec_eval's and ranx's layout): unlike TREC text,
    it carries ids that hold spaces. Each query's documents are listed in the fused order; the scores, written
    as Python's ``repr`` writes them, read back as the same 64-bit numbers, so a reader orders them the same.

    >>> from components.formats.readers import read
    >>> a = read(b'{"q 1": {"doc x": 2, "doc y": 1}}', "run", "a.json").parsed
    >>> print(to_json(fuse([a, a])))
    {"q 1": {"doc x": 0.03278688524590164, "doc y": 0.03225806451612903}}
    """
    by_query: dict[str, dict[str, float]] = {}
    for q, d, s in zip(fused.qidx.tolist(), fused.docids, fused.score.tolist()):
        by_query.setdefault(fused.qids[q], {})[d.decode()] = s
    return json.dumps(by_query, ensure_ascii=False)


def as_run(fused: Fused, tag: str = TAG) -> model.Run:
    """The fused run as a :class:`~components.engine.model.Run`, to judge and evaluate like any other: what
    :func:`to_trec`'s text reads back as (the same order and 64-bit scores; line i is row i), named ``tag``."""
    return model.run_of(tag, fused.qids, fused.qidx.copy(), fused.docids.copy(), fused.score.copy(),
                        np.arange(1, fused.qidx.size + 1), tag=tag)


def k_sweep(runs: Sequence[model.Run], qrels: model.Qrels, measure: Measure | str, ks: Sequence[float],
            gain: Gain) -> list[float]:
    """The value of ``measure`` (its :func:`~components.engine.measures.aggregate` over the queries, as a table
    shows it) for the rrf fusion of ``runs`` at each k of ``ks``, judged against ``qrels``.

    The relevant document m is third in both runs; t is first in one and tenth in the other. A small k rewards
    t's one first place; k = 60 weighs both runs nearly alike, and m comes first:

    >>> from components.formats.readers import read

    >>> x = read("q1 Q0 t 1 3 x\\nq1 Q0 f 2 2 x\\nq1 Q0 m 3 1 x\\n", "run").parsed
    >>> y = read("".join(f"q1 Q0 {d} {r} {10 - r} y\\n" for r, d in
    ...                           enumerate(["g1", "g2", "m", *(f"h{i}" for i in range(6)), "t"], 1)), "run").parsed
    >>> k_sweep([x, y], read("q1 0 m 1\\n", "qrels").parsed, "RR", [1, 60], "linear")
    [0.5, 1.0]
    """
    parsed = measure if isinstance(measure, Measure) else parse_measure(measure)
    values = []
    for k in ks:
        judged = model.judge(qrels, as_run(fuse(runs, k=k)))
        values.append(float(aggregate(parsed, evaluate(judged.queries, [parsed], gain)[parsed.name])))
    return values


# ----------------------------------------------------------------------------
# RRF on plain lists: one document's score, and where two documents' order flips as k grows
# ----------------------------------------------------------------------------

def rrf_score(ranks: Sequence[int | None], k: int) -> Fraction:
    """A document's rrf score, exactly: :math:`\\sum_r 1 / (k + r_r)` over the lists that hold it (a rank of None:
    the list does not hold it, which adds nothing).

    >>> rrf_score([1, 10], 35), rrf_score([5, 5], 35), rrf_score([2, None], 60)
    (Fraction(1, 20), Fraction(1, 20), Fraction(1, 62))
    """
    return sum((Fraction(1, k + r) for r in ranks if r is not None), Fraction(0))


def ranks_in(lists: Sequence[Sequence[str]], doc: str) -> tuple[int | None, ...]:
    """``doc``'s 1-based rank in each list (None where a list does not hold it).

    >>> ranks_in([["a", "b"], ["b"]], "a")
    (1, None)
    """
    return tuple(list(order).index(doc) + 1 if doc in order else None for order in lists)


@dataclass(frozen=True)
class Flip:
    """Two documents whose rrf order changes as k grows: ``leader`` is ahead at the smallest k; ``at`` is the first k
    where it no longer is, where the two tie exactly when ``tie`` (the rival is then ahead from the next k on, or
    from ``at`` itself when there is no tie)."""

    leader: str
    rival: str
    at: int
    tie: bool


def rrf_flip(lists: Sequence[Sequence[str]], leader: str, rival: str, ks: Sequence[int]) -> Flip | None:
    """Where ``leader``, ahead of ``rival`` at the first k of ``ks`` (ascending), stops being ahead, when ``rival``
    is ahead at the last k; None when the order at the two ends is not leader-then-rival. Exact: scores are
    compared as fractions.

    The issue's example: a document first in one list and 40th in the other against one tenth in both. They swap
    between k = 15 and k = 16 (no k ties them):

    >>> long = [f"x{i}" for i in range(29)]
    >>> a = ["t", *[f"p{i}" for i in range(8)], "m"]
    >>> b = [*[f"q{i}" for i in range(8)], "z", "m", *long, "t"]
    >>> rrf_flip([a, b], "t", "m", range(1, 101))
    Flip(leader='t', rival='m', at=16, tie=False)
    """
    first, second = ranks_in(lists, leader), ranks_in(lists, rival)
    ahead = [rrf_score(first, k) - rrf_score(second, k) for k in (ks[0], ks[-1])]
    if not (ahead[0] > 0 > ahead[1]):
        return None
    for k in ks:
        gap = rrf_score(first, k) - rrf_score(second, k)
        if gap <= 0:
            return Flip(leader, rival, int(k), gap == 0)
    raise AssertionError("unreachable: the last k has the rival ahead")


def rrf_flip_pair(lists: Sequence[Sequence[str]], ks: Sequence[int]) -> Flip | None:
    """A pair that shows what rrf's k does: one list's top pick, ahead at the smallest k of ``ks``, overtaken at the
    largest by a document the lists agree on more. The first list whose top pick has such a rival gives the
    leader; its rival is the one it holds off longest (the latest flip; the larger id at the same k, for a stable
    answer). None when no top pick is ever overtaken.

    Nothing overtakes a, first in one list and fifth in the other; b has only its first place, and m, fourth in
    both, ties it at k = 2 (1/3 = 2/6) and is ahead from k = 3:

    >>> rrf_flip_pair([["a", "x", "y", "m"], ["b", "c", "d", "m", "a"]], range(1, 101))
    Flip(leader='b', rival='m', at=2, tie=True)
    """
    docs = sorted({d for order in lists for d in order})
    for order in lists:
        if not order:
            continue
        flips = [f for f in (rrf_flip(lists, order[0], d, ks) for d in docs if d != order[0]) if f is not None]
        if flips:
            return max(flips, key=lambda f: (f.at, f.rival))
    return None
