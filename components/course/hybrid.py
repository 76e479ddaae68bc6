"""The hybrid-search lesson's content: a lexical and a dense ranking of one query, fused by reciprocal rank fusion.

Every number is the engine's: the fused list is :func:`components.engine.fusion.fuse` of the two lists written as
TREC runs (exactly what the take-home files hold), each list's values come from
:mod:`components.engine.metrics`, and the pair that shows what rrf's k does is
:func:`components.engine.fusion.rrf_flip_pair`. No Streamlit import here.

The rrf score of a document d over the lists that hold it, r_l(d) its 1-based rank in list l:

    s(d) = Σ_l 1 / (k + r_l(d))          (a list that does not hold d adds nothing)
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from types import MappingProxyType
from typing import Mapping, Sequence, cast

import numpy as np

from components.course import prose
from components.course import scenarios as sc
from components.engine import fusion, metrics, model
from components.engine.formatting import fmt
from components.formats import readers

NAME = "fusion"
Q = sc.HYBRID
CUTOFF = sc.HYBRID_CUTOFF
RANKERS = (sc.HYBRID_LEXICAL, sc.HYBRID_DENSE)
TAGS = ("bm25", "dense")  # the runs' tags and file names
KS = tuple(range(1, 101))  # the rrf k slider's range
MEASURES = ("R@k", "RR", "nDCG@k")  # each strip's board, in the engine's names (k: the cutoff)
LABELS = ("Recall@{k}", "RR", "nDCG@{k}")
QID = "q1"


def run_text(order: Sequence[str], tag: str) -> str:
    """One ranker's list as a TREC run: ranks from 1, scores falling from the list's length to 1 (rrf reads only
    the ranks).

    >>> print(run_text(["a", "b"], "bm25"), end="")
    q1 Q0 a 1 2 bm25
    q1 Q0 b 2 1 bm25
    """
    return "".join(f"{QID} Q0 {doc} {i} {len(order) - i + 1} {tag}\n" for i, doc in enumerate(order, 1))


def _run(text: str, name: str) -> model.Run:
    """A run written by :func:`run_text`, read (:func:`components.formats.readers.read`) under ``name``."""
    return cast(model.Run, readers.read(text, "run", name).parsed)


def qrels_text() -> str:
    """The query's judgements as a TREC qrels file (every judged document, relevant or not)."""
    return "".join(f"{QID} 0 {d.id} {d.grade}\n" for d in Q.docs if d.grade is not None)


def fused(orders: Sequence[Sequence[str]], k: int) -> tuple[tuple[str, float], ...]:
    """The rrf fusion of the lists at constant ``k``: (document, score), best first, in trec_eval's order (a tie
    goes to the larger document id). Empty when neither list returns anything.

    >>> fused([["a", "b"], ["b", "c"]], 60)[0]
    ('b', 0.03252247488101534)
    """
    given = [(order, tag) for order, tag in zip(orders, TAGS) if order]
    if not given:
        return ()
    if len(given) == 1:  # the other list returned nothing: rrf of one list keeps its order
        return tuple((doc, float(fusion.rrf_score([r], k))) for r, doc in enumerate(given[0][0], 1))
    runs = [_run(run_text(order, tag), tag) for order, tag in given]
    result = fusion.fuse(runs, k=k)
    return tuple((d.decode(), float(s)) for d, s in zip(result.docids, result.score))


def values(order: Sequence[str]) -> tuple[float, float, float]:
    """Recall@5, RR and nDCG@5 (exponential gain) of a returned list against every judged document of the query.

    >>> [fmt(v) for v in values(Q.presets[sc.HYBRID_LEXICAL])]
    ['0.375', '1.000', '0.563']
    """
    qs = query_set(order)
    return (float(metrics.recall(qs, CUTOFF)[0]), float(metrics.reciprocal_rank(qs)[0]),
            float(metrics.ndcg(qs, CUTOFF)[0]))


def query_set(order: Sequence[str]) -> metrics.QuerySet:
    """The query with ``order`` returned, judged against every judged document of the scenario."""
    return metrics.from_rankings([Q.grades(order)], [Q.judged_grades()])


@functools.lru_cache(maxsize=256)
def sweep(orders: tuple[tuple[str, ...], ...], ks: tuple[int, ...] = KS) -> dict[str, list[float]]:
    """Each measure of :data:`MEASURES` for the fused list at every k of ``ks`` (each distinct fused order scored
    once: as k grows the order changes only a few times). Kept for the last lists asked (a drag asks again).

    >>> {name: [fmt(v) for v in values] for name, values in sweep(tuple(Q.presets.values()), (1, 60)).items()}
    {'Recall@5': ['0.500', '0.500'], 'RR': ['1.000', '0.500'], 'nDCG@5': ['0.792', '0.565']}
    """
    lists = [tuple(doc for doc, _ in fused(orders, k)) for k in ks]
    scored = {order: values(order) for order in set(lists)}
    names = [label.replace("{k}", str(CUTOFF)) for label in LABELS]
    return {name: [scored[order][m] for order in lists] for m, name in enumerate(names)}


def terms(orders: Sequence[Sequence[str]], doc: str, k: int) -> str:
    """``doc``'s rrf score written out: one term per list, "nothing" for a list that does not hold it.

    >>> terms([["a", "b"], ["c"]], "b", 60)
    'BM25 #2: 1/(60 + 2) + Dense: not returned, adds nothing'
    """
    parts = [prose.text(NAME, "Term", ranker=ranker, rank=r, k=k) if r is not None
             else prose.text(NAME, "Term missing", ranker=ranker)
             for ranker, r in zip(RANKERS, fusion.ranks_in(orders, doc))]
    return " + ".join(parts)


def cell_title(orders: Sequence[Sequence[str]], doc: str, score: float, k: int) -> str:
    """What a fused cell says on hover and focus: its document's title and its score worked out."""
    return prose.text(NAME, "Fused cell", title=Q.by_id[doc].title, terms=terms(orders, doc, k),
                      score=fmt(score, "score"))


@dataclass(frozen=True)
class FlipStory:
    """The pair that shows what k does, as the page tells it: the two documents' titles, their scores worked out and
    their values at the slider's k; at an exact tie, the tied score and the title listed first there."""

    flip: fusion.Flip
    leader_title: str
    rival_title: str
    leader_terms: str
    rival_terms: str
    leader_score: float
    rival_score: float
    tie_score: float | None
    tie_first: str | None


def flip_story(orders: Sequence[Sequence[str]], k: int) -> FlipStory | None:
    """The engine's flip pair for these lists (None when no top pick is overtaken as k grows), told at ``k``.

    >>> story = flip_story(tuple(Q.presets.values()), 60)
    >>> story.flip, fmt(story.leader_score, "score"), fmt(story.rival_score, "score"), fmt(story.tie_score, "score")
    (Flip(leader='runbook', rival='tls', at=35, tie=True), '0.0307', '0.0308', '0.0500')
    >>> story.tie_first
    'Rotating TLS certificates without downtime'
    """
    flip = fusion.rrf_flip_pair(orders, KS)
    if flip is None:
        return None
    by_id = Q.by_id
    lead, rival = (fusion.ranks_in(orders, d) for d in (flip.leader, flip.rival))
    tie_score = tie_first = None
    if flip.tie:
        tie_score = float(fusion.rrf_score(lead, flip.at))
        at_tie = [doc for doc, _ in fused(orders, flip.at)]
        tie_first = by_id[min((flip.leader, flip.rival), key=at_tie.index)].title
    return FlipStory(flip, by_id[flip.leader].title, by_id[flip.rival].title, terms(orders, flip.leader, k),
                     terms(orders, flip.rival, k), float(fusion.rrf_score(lead, k)), float(fusion.rrf_score(rival, k)),
                     tie_score, tie_first)


def relevant_found(order: Sequence[str]) -> int:
    """How many relevant documents (grade 1 or more) the list has in its top :data:`CUTOFF`."""
    return int(np.count_nonzero(Q.grades(order[:CUTOFF]) >= 1))


# ----------------------------------------------------------------------------
# Take it home: the two runs and the fused run as TREC files, and two ways to fuse them again
# ----------------------------------------------------------------------------

FUSED_RUN, QRELS_FILE = "fused.run", "fusion.qrels"


@dataclass(frozen=True)
class FusionPack:
    """The lesson's take-home: ``files`` (name -> text: each ranker's run, the fused run, the qrels), the
    ``command`` that writes the fused run again and a ``ranx`` script that prints ``expected`` (the fused list,
    one "docid score" line each, scores to 4 decimals: the page's)."""

    files: Mapping[str, str]
    command: str
    ranx: str
    expected: str


def take_home(orders: Sequence[Sequence[str]], k: int) -> FusionPack:
    """The take-home pack for the two lists fused at ``k`` (both lists must return something).

    >>> pack = take_home(tuple(Q.presets.values()), 60)
    >>> sorted(pack.files), pack.command
    (['bm25.run', 'dense.run', 'fused.run', 'fusion.qrels'], 'rankwise fuse bm25.run dense.run --rrf-k 60 > fused.run')
    >>> pack.expected.splitlines()[0], pack.files["fused.run"].splitlines()[0]
    ('tls 0.0308', 'q1 Q0 tls 1 0.03076923076923077 fused')
    """
    runs = {f"{tag}.run": run_text(order, tag) for order, tag in zip(orders, TAGS)}
    result = fusion.fuse([_run(text, name) for name, text in runs.items()], k=k)
    files = {**runs, FUSED_RUN: fusion.to_trec(result), QRELS_FILE: qrels_text()}
    expected = "\n".join(f"{d.decode()} {fmt(float(s), 'score')}" for d, s in zip(result.docids, result.score))
    names = " ".join(runs)
    ranx = (f"from ranx import Run, fuse\n\n"
            f"runs = [Run.from_file(name, kind=\"trec\") for name in {list(runs)!r}]\n"
            f"fused = fuse(runs, norm=None, method=\"rrf\", params={{\"k\": {k}}})\n"
            f"ranked = sorted(fused[\"{QID}\"].items(), key=lambda item: (item[1], item[0]), reverse=True)\n"
            f"for doc, score in ranked:  # ties as trec_eval orders them: the larger docid first\n"
            f"    print(doc, f\"{{score:.4f}}\")\n")
    return FusionPack(MappingProxyType(files), f"rankwise fuse {names} --rrf-k {k} > {FUSED_RUN}", ranx, expected)
