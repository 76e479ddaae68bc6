"""Why one query's value changed between two runs: the change of one measure, split over the documents.

For one query, run A's ranking and run B's ranking (docids, top first) and
the query's judgments give the measure's value in each run (the engine's own
per-query value: :func:`components.engine.measures.evaluate`, the ideal of
nDCG built from *all* the query's judgments, as trec_eval, so it is the same
for A and B). :func:`explain` splits the change ``value_b − value_a`` into
one contribution per document, and the contributions add up to the change
(to rounding). Relevant means grade >= 1 (the engine's default level); a
document absent from the judgments is *unjudged* (grade None here, gain 0
and not relevant for the measures).

Additive measures: each document's own term ("exact")
-----------------------------------------------------
P@k, R@k, DCG@k and nDCG (@k) are sums of one term per returned document,

.. math:: M = \\sum_{d\\ \\mathrm{returned}} t(d, r_d), \\qquad
          t_{\\mathrm{DCG@}k}(d, r) = [r \\le k]\\, \\frac{g(\\mathrm{rel}_d)}{\\log_2(r + 1)},\\quad
          t_{\\mathrm{nDCG@}k} = \\frac{t_{\\mathrm{DCG@}k}}{\\mathrm{IDCG@}k},\\quad
          t_{\\mathrm{P@}k} = \\frac{[r \\le k]\\,[\\mathrm{rel}_d \\ge 1]}{k},\\quad
          t_{\\mathrm{R@}k} = \\frac{[r \\le k]\\,[\\mathrm{rel}_d \\ge 1]}{R}

(the ideal IDCG@k and R, the number of relevant judged documents, are fixed
by the judgments), so document d's contribution is

.. math:: c_d = t(d, r^B_d) - t(d, r^A_d)

with t = 0 where d is absent from a ranking, and :math:`\\sum_d c_d = M_B - M_A`
exactly. Each term is the engine's value of a pseudo-query that holds d alone
at its rank (the query's judgments replicated), so no formula is written
twice here. A document below grade 1 has gain 0 and is not relevant: its
term is 0 in both runs. An unjudged document that enters the top k therefore
adds nothing itself: the judged documents it pushes down carry the change.

Other measures: Shapley values over the documents' moves ("shapley-exact")
--------------------------------------------------------------------------
RR (@k), AP (@k) and Success@k are not sums of per-document terms. The
change is then shared out by the Shapley values of a game whose players are
the documents that moved (rank in A ≠ rank in B, an absent document at rank
∞). A coalition S is a ranking between A and B: each document gets the key

.. math:: \\kappa_S(d) = r^B_d \\ \\text{if}\\ d \\in S, \\quad r^A_d \\ \\text{otherwise}

(a document that did not move has one rank for both), the documents are
sorted by key, a document with key ∞ left out, and ranked 1, 2, 3, ... in
that order: :math:`v(S)` is the measure of that ranking, so
:math:`v(\\emptyset) = M_A` and :math:`v(N) = M_B`. Tie rule: two documents
can share a key only when one is placed by its rank in B and the other by its
rank in A; the one placed by B goes first (a document that moves takes the
place it moves to). Each player i gets

.. math:: \\varphi_i = \\sum_{S \\subseteq N \\setminus \\{i\\}} \\frac{|S|!\\,(n - |S| - 1)!}{n!}
          \\bigl(v(S \\cup \\{i\\}) - v(S)\\bigr)

over all :math:`2^n` coalitions, and efficiency gives
:math:`\\sum_i \\varphi_i = v(N) - v(\\emptyset) = M_B - M_A` exactly.

Null players, dropped exactly. These measures read only the ranks of the
relevant documents (RR and Success only the first one's, the @k forms only
those within k), and a document's rank in a coalition's ranking is 1 + the
number of documents that precede it. Say d is *sure* to precede a place
when it precedes it from both of its own places (in A and in B). A relevant
document's place (its rank in A, or in B) is *read* unless it is absent
there, or (with a cutoff k) k or more documents are sure to precede it (its
rank then lies beyond k in every coalition), or (RR, Success) another
relevant document is sure to precede it (it is then never the first). The
measure reads no other place in any coalition. A document that precedes the
same read places from both of its own places, and has no read place itself,
changes no coalition's value by moving: its Shapley value is 0, and leaving
it out changes no other player's value, so it stays put (at its rank in A)
in every coalition. Among these: every non-relevant document (grade < 1, or
unjudged) whose ranks in A and in B both lie beyond every relevant
document's ranks in A and in B, one that moves without
crossing a read place, and a relevant document without a read place (it
precedes none: what is sure to precede it is sure to precede what it
precedes, so that place would not be read).

Cost bound. At most :data:`MAX_PLAYERS` (12) players, so at most 4,096
coalitions, all evaluated by the engine as pseudo-queries of ONE query set.
Each coalition's pseudo-query holds what these measures read: the relevant
documents at read places, at their ranks there (a rank beyond the cutoff k
left out), and the query's relevant judgments (for R). The ranks come from
counts: for each player (and for the documents that stay put), how many of
its documents precede each relevant document's place, from either of their
own places; a coalition's ranks are then a sum over at most 13 counts, not a
sort of the whole list. When more documents moved, the players are taken in
priority order (the relevant documents, then the unjudged ones, then the
judged non-relevant ones; within each, by best rank in A or B, then docid)
and the lowest merged into one player per kind, "other judged documents" and
"other unjudged documents" (:class:`DocumentGroup`), whose documents move
together. The Shapley values of that game still add up to the change
exactly, and still split it between judged and unjudged documents.
Sampling permutations instead would cost more for less: 2,000 permutations
of 13 players are 28,000 coalitions, seven times the 4,096 enumerated here,
and their values carry a Monte Carlo error. A 1,000-document pair takes well
under a second (``benchmarks/attribution.py``).

No Streamlit import here.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal, Mapping, Sequence

import numpy as np

from components.engine import metrics
from components.engine.measures import Measure, evaluate, parse_measure, rank_cutoff
from components.engine.metrics import Gain

ADDITIVE = ("P", "R", "DCG", "nDCG")  # families that are a sum of one term per document
SHAPLEY = ("RR", "AP", "Success")  # families attributed by Shapley values
FIRST_HIT = ("RR", "Success")  # of those, the families that read only the first relevant document
SUPPORTED = ("P@k, R@k, DCG@k, nDCG and nDCG@k (each document's own term); RR, RR@k, AP, AP@k and Success@k "
             "(Shapley values over the documents' moves)")
EXACT = "exact"  # method: each document's own term in B minus its term in A
SHAPLEY_EXACT = "shapley-exact"  # method: Shapley values over every coalition of at most MAX_PLAYERS players
MAX_PLAYERS = 12  # at most 2^12 = 4,096 coalitions; beyond, the lowest-priority documents merge into groups
ZERO = 1e-12  # a contribution smaller than this in size is rounding noise: the document is left out
RELEVANT = 1  # the engine's default relevance level: grade >= 1 is relevant

Kind = Literal["entered", "left", "moved up", "moved down"]


@dataclass(frozen=True)
class DocumentChange:
    """One document's share of the change: its grade (None: unjudged), its ranks (None: absent) and contribution.

    ``depth`` is the measure's cutoff k (None: the whole list), which
    :attr:`kind` reads.
    """

    docid: str
    grade: int | None
    rank_a: int | None
    rank_b: int | None
    contribution: float
    depth: int | None = None

    @property
    def kind(self) -> Kind:
        """The move: "entered" (only in B, or from beyond the depth into it), "left" (the reverse), else "moved up"
        or "moved down".

        >>> [DocumentChange("d", 1, a, b, 0.1, depth=10).kind for a, b in [(None, 3), (12, 3), (3, None), (2, 14)]]
        ['entered', 'entered', 'left', 'left']
        >>> [DocumentChange("d", 1, a, b, 0.1).kind for a, b in [(12, 3), (2, 14)]]
        ['moved up', 'moved down']
        """
        a, b = (math.inf if r is None else r for r in (self.rank_a, self.rank_b))
        depth = math.inf if self.depth is None else self.depth
        if self.rank_a is None or a > depth >= b:
            return "entered"
        if self.rank_b is None or b > depth >= a:
            return "left"
        return "moved up" if b < a else "moved down"


@dataclass(frozen=True)
class DocumentGroup:
    """Documents merged into one Shapley player (they move together): all unjudged, or all judged."""

    unjudged: bool
    docids: tuple[str, ...]
    contribution: float


@dataclass(frozen=True)
class Attribution:
    """One measure's change on one query, split over documents (and groups): their contributions sum to ``change``.

    ``documents`` is sorted by size of contribution, largest first; documents
    whose contribution is 0 are left out. ``groups`` holds the merged
    players (Shapley with more than :data:`MAX_PLAYERS` documents moving).
    """

    measure: str
    value_a: float
    value_b: float
    method: str  # EXACT or SHAPLEY_EXACT
    documents: tuple[DocumentChange, ...]
    groups: tuple[DocumentGroup, ...] = ()

    @property
    def change(self) -> float:
        """value_b − value_a."""
        return self.value_b - self.value_a

    @property
    def unjudged(self) -> float:
        """The part of the change due to unjudged documents: a gap in the judgments, not necessarily a worse run."""
        return self._part(unjudged=True)

    @property
    def judged(self) -> float:
        """The part of the change due to judged documents (relevant or not); judged + unjudged = change."""
        return self._part(unjudged=False)

    def as_dict(self) -> dict[str, object]:
        """The JSON fields: the values, the change, the method, each document (with its move) and group, and the
        unjudged documents' part of the change."""
        return {"value_a": self.value_a, "value_b": self.value_b, "change": self.change, "method": self.method,
                "unjudged": self.unjudged,
                "documents": [{"docid": d.docid, "grade": d.grade, "rank_a": d.rank_a, "rank_b": d.rank_b,
                               "move": d.kind, "contribution": d.contribution} for d in self.documents],
                "groups": [{"unjudged": g.unjudged, "documents": len(g.docids), "contribution": g.contribution}
                           for g in self.groups]}

    def _part(self, unjudged: bool) -> float:
        return (sum((d.contribution for d in self.documents if (d.grade is None) == unjudged), 0.0)
                + sum((g.contribution for g in self.groups if g.unjudged == unjudged), 0.0))


@dataclass(frozen=True)
class _Documents:
    """Every document of A or B (A's in order, then B's others): ranks (inf when absent) and grades."""

    docids: tuple[str, ...]
    rank: np.ndarray  # shape (2, n): the rank in A, the rank in B (floats, inf when absent)
    grade: tuple[int | None, ...]  # None: unjudged

    @property
    def grades(self) -> np.ndarray:
        """The grades as ints, 0 for an unjudged document (the engine's reading)."""
        return np.array([0 if g is None else g for g in self.grade], dtype=np.int64)

    @property
    def relevant(self) -> np.ndarray:
        return self.grades >= RELEVANT

    def change(self, d: int, contribution: float, depth: int | None) -> DocumentChange:
        rank_a, rank_b = (None if math.isinf(r) else int(r) for r in self.rank[:, d])
        return DocumentChange(self.docids[d], self.grade[d], rank_a, rank_b, contribution, depth)


def explain(ranking_a: Sequence[str], ranking_b: Sequence[str], judgments: Mapping[str, int],
            measure: Measure | str, gain: Gain = "linear") -> Attribution:
    """Split one query's change of ``measure`` from ranking A to ranking B over the documents (see the module).

    Raises ``ValueError`` for a measure that cannot be attributed (bpref,
    Judged@k, GMAP, the counts, ...), naming those that can, or for a docid
    listed twice in one ranking.

    Examples
    --------
    A relevant document climbs from 2 to 1 and pushes a non-relevant one down.
    For nDCG@10 its own term changes; for RR the Shapley split gives it all
    of the change, since the document moving up takes the first place:

    >>> a, b, grades = ["x", "r"], ["r", "x"], {"r": 1, "x": 0}
    >>> ex = explain(a, b, grades, "RR")
    >>> ex.value_a, ex.value_b, ex.method, [(d.docid, d.contribution, d.kind) for d in ex.documents]
    (0.5, 1.0, 'shapley-exact', [('r', 0.5, 'moved up')])
    >>> ex = explain(a, b, grades, "nDCG@10")
    >>> round(ex.change, 4), [(d.docid, round(d.contribution, 4)) for d in ex.documents]
    (0.3691, [('r', 0.3691)])

    An unjudged page entering at the top takes the blame for RR:

    >>> ex = explain(["r"], ["new", "r"], {"r": 1}, "RR")
    >>> ex.change, ex.unjudged, ex.judged
    (-0.5, -0.5, 0.0)
    """
    parsed = _supported(measure)
    docs = _documents(ranking_a, ranking_b, judgments)
    value_a, value_b = _values(ranking_a, ranking_b, judgments, parsed, gain)
    depth = rank_cutoff(parsed)
    if parsed.family in ADDITIVE:
        terms = _terms(docs, judgments, parsed, gain)
        changes = [docs.change(d, float(c), depth) for d, c in enumerate(terms[1] - terms[0])]
        return _attribution(parsed, value_a, value_b, EXACT, changes, [])
    game = _game(docs, parsed)
    players = _players(docs, game)
    phi = _shapley(_coalition_values(docs, game, judgments, parsed, gain, [p for p, _ in players]))
    changes = [docs.change(int(p[0]), float(c), depth) for (p, group), c in zip(players, phi) if group is None]
    groups = [DocumentGroup(group, tuple(docs.docids[d] for d in p), float(c))
              for (p, group), c in zip(players, phi) if group is not None]
    return _attribution(parsed, value_a, value_b, SHAPLEY_EXACT, changes, groups)


def supports(measure: Measure | str) -> bool:
    """Whether :func:`explain` can split this measure's change over documents.

    >>> supports("nDCG@10"), supports("AP"), supports("bpref")
    (True, True, False)
    """
    parsed = measure if isinstance(measure, Measure) else parse_measure(measure)
    return parsed.family in ADDITIVE + SHAPLEY


def _supported(measure: Measure | str) -> Measure:
    parsed = measure if isinstance(measure, Measure) else parse_measure(measure)
    if not supports(parsed):
        raise ValueError(f"cannot split {parsed.name} over documents; supported measures: {SUPPORTED}")
    return parsed


def _documents(ranking_a: Sequence[str], ranking_b: Sequence[str], judgments: Mapping[str, int]) -> _Documents:
    for name, ranking in (("A", ranking_a), ("B", ranking_b)):
        if len(set(ranking)) != len(ranking):
            twice = next(d for i, d in enumerate(ranking) if d in ranking[:i])
            raise ValueError(f"ranking {name} lists document {twice!r} twice; each document has one rank")
    docids = tuple(dict.fromkeys([*ranking_a, *ranking_b]))
    rank = np.full((2, len(docids)), np.inf)
    where = {d: i for i, d in enumerate(docids)}
    for side, ranking in enumerate((ranking_a, ranking_b)):
        rank[side, [where[d] for d in ranking]] = np.arange(1, len(ranking) + 1)
    return _Documents(docids, rank, tuple(judgments.get(d) for d in docids))


def _values(ranking_a: Sequence[str], ranking_b: Sequence[str], judgments: Mapping[str, int], measure: Measure,
            gain: Gain) -> tuple[float, float]:
    """The engine's value of the measure for ranking A and for ranking B (one query set of two queries)."""
    rankings = [[judgments.get(d) for d in ranking] for ranking in (ranking_a, ranking_b)]
    judged = list(judgments.values())
    values = evaluate(metrics.from_rankings(rankings, [judged, judged]), [measure], gain)[measure.name]
    return float(values[0]), float(values[1])


def _terms(docs: _Documents, judgments: Mapping[str, int], measure: Measure, gain: Gain) -> np.ndarray:
    """Each document's term in A and in B, shape (2, n): the engine's value of a pseudo-query holding it alone.

    Only the relevant documents get a pseudo-query (each with the query's
    judgments, for the ideal and R); the others' terms are 0.
    """
    side, doc = np.nonzero(np.isfinite(docs.rank) & docs.relevant)
    judged = np.fromiter(judgments.values(), dtype=np.int64, count=len(judgments))
    n = side.size
    qs = metrics.query_set(n, np.arange(n), docs.rank[side, doc].astype(np.int64), docs.grades[doc],
                           np.repeat(np.arange(n), judged.size), np.tile(judged, n))
    terms = np.zeros(docs.rank.shape)
    terms[side, doc] = evaluate(qs, [measure], gain)[measure.name]
    return terms


def _precedes(docs: _Documents, among: np.ndarray) -> np.ndarray:
    """prec[s, t, d, j]: whether document d, placed by its rank in run s (0: A, 1: B), precedes document among[j]
    placed by its rank in run t: a smaller key, or the same key with d placed by B and among[j] by A.

    A document absent from run s (key ∞) precedes nothing.
    """
    prec = np.zeros((2, 2, docs.rank.shape[1], among.size), dtype=bool)
    for s in (0, 1):
        key = docs.rank[s][:, None]
        for t in (0, 1):
            other = docs.rank[t, among][None, :]
            prec[s, t] = np.isfinite(key) & ((key < other) | ((key == other) & (s == 1) & (t == 0)))
    return prec


@dataclass(frozen=True)
class _Game:
    """What every coalition shares: who precedes whom, and which places of the relevant documents can be read."""

    relevant: np.ndarray  # the relevant documents' indices
    prec: np.ndarray  # prec[s, t, d, j] (see _precedes), j over the relevant documents
    read: np.ndarray  # read[t, j]: the measure can read relevant document j at its place in run t


def _game(docs: _Documents, measure: Measure) -> _Game:
    """The places the measure can read: present, and (with a cutoff k) at most k documents sure to precede
    them, and (RR, Success) no relevant document sure to precede them; "sure": from both its places."""
    relevant = np.flatnonzero(docs.relevant)
    prec = _precedes(docs, relevant)
    sure = prec[0] & prec[1]  # sure[t, d, j]: d precedes j's place in run t from both its own places
    read = np.isfinite(docs.rank[:, relevant])
    cutoff = rank_cutoff(measure)
    if cutoff is not None:
        read &= 1 + sure.sum(axis=1) <= cutoff
    if measure.family in FIRST_HIT:
        read &= ~sure[:, relevant, :].any(axis=1)
    return _Game(relevant, prec, read)


def _players(docs: _Documents, game: _Game) -> list[tuple[np.ndarray, bool | None]]:
    """The Shapley players: each a list of document indices and None (one document) or a group's ``unjudged``.

    The documents that moved, without the null players (see the module);
    beyond :data:`MAX_PLAYERS`, the lowest-priority ones merged into one
    group per kind (judged, unjudged).
    """
    same = ((game.prec[0] == game.prec[1]) | ~game.read[:, None, :]).all(axis=(0, 2))
    own_read = np.zeros(docs.rank.shape[1], dtype=bool)
    own_read[game.relevant] = game.read.any(axis=0)
    moved = docs.rank[0] != docs.rank[1]
    relevant, unjudged = docs.relevant, np.array([g is None for g in docs.grade], dtype=bool)
    order = sorted(np.flatnonzero(moved & (own_read | ~same)),
                   key=lambda d: (0 if relevant[d] else 1 if unjudged[d] else 2, docs.rank[:, d].min(), docs.docids[d]))
    if len(order) <= MAX_PLAYERS:
        return [(np.array([d]), None) for d in order]
    cut = MAX_PLAYERS - 1 if len({bool(unjudged[d]) for d in order[MAX_PLAYERS - 1:]}) == 1 else MAX_PLAYERS - 2
    rest = np.array(order[cut:])
    groups = [(rest[unjudged[rest] == kind], kind) for kind in (False, True)]
    return [(np.array([d]), None) for d in order[:cut]] + [(p, kind) for p, kind in groups if p.size]


def _coalition_values(docs: _Documents, game: _Game, judgments: Mapping[str, int], measure: Measure, gain: Gain,
                      players: Sequence[np.ndarray]) -> np.ndarray:
    """v(S) for every coalition S of the players (bit i of S's index: player i is in S), from the engine.

    A relevant document j's rank in S's ranking is 1 + Σ_g T[g, s_g, t, j],
    where j sits at its place in run t, g runs over the players and the
    documents that stay put (placed by A: a null player precedes the same
    read places from both of its own), s_g says whether g is in S (placed
    by B), and T[g, s, t, j] counts g's documents placed by run s that
    precede j placed by run t. Each coalition is one pseudo-query of one
    query set: its relevant documents at read places, at those ranks (beyond
    the cutoff k, left out), and the query's relevant judgments (for R).
    """
    m = len(players)
    player = np.full(docs.rank.shape[1], m)  # each document's player; m: it stays put
    for i, p in enumerate(players):
        player[p] = i
    member = np.zeros((m + 1, player.size))
    member[player, np.arange(player.size)] = 1.0
    r = game.relevant.size
    counts = (member @ game.prec.reshape(4, player.size, r).astype(np.float64)).reshape(2, 2, m + 1, r)
    coalitions = np.arange(1 << m)
    in_s = np.zeros((coalitions.size, m + 1))  # the documents that stay put are never "in S"
    in_s[:, :m] = (coalitions[:, None] >> np.arange(m)) & 1
    by_b = in_s[:, player[game.relevant]].astype(bool)  # whether each relevant document sits at its place in B
    before = [counts[0, t].sum(axis=0) + in_s @ (counts[1, t] - counts[0, t]) for t in (0, 1)]
    rank = 1 + np.where(by_b, before[1], before[0]).round().astype(np.int64)
    shown = np.where(by_b, game.read[1], game.read[0])
    cutoff = rank_cutoff(measure)
    if cutoff is not None:
        shown &= rank <= cutoff
    q, j = np.nonzero(shown)
    judged = np.array([g for g in judgments.values() if g >= RELEVANT], dtype=np.int64)
    qs = metrics.query_set(coalitions.size, q, rank[q, j], docs.grades[game.relevant][j],
                           np.repeat(coalitions, judged.size), np.tile(judged, coalitions.size))
    return evaluate(qs, [measure], gain)[measure.name]


def _shapley(values: np.ndarray) -> np.ndarray:
    """φ_i = Σ_{S ⊆ N∖{i}} |S|! (n − |S| − 1)! / n! · (v(S ∪ {i}) − v(S)), from v over the 2^n coalitions.

    >>> _shapley(np.array([0.0, 1.0, 2.0, 4.0])).tolist()  # v({0}) = 1, v({1}) = 2, v({0, 1}) = 4
    [1.5, 2.5]
    """
    n = values.size.bit_length() - 1
    coalitions = np.arange(values.size)
    size = ((coalitions[:, None] >> np.arange(n)) & 1).sum(axis=1)
    weight = np.array([math.factorial(s) * math.factorial(n - s - 1) / math.factorial(n) for s in range(n)])
    phi = np.empty(n)
    for i in range(n):
        without = coalitions[(coalitions >> i) & 1 == 0]
        phi[i] = weight[size[without]] @ (values[without | (1 << i)] - values[without])
    return phi


def _attribution(measure: Measure, value_a: float, value_b: float, method: str, changes: list[DocumentChange],
                 groups: list[DocumentGroup]) -> Attribution:
    """The attribution, documents sorted by size of contribution (then best rank, docid), zeros left out."""
    def best_rank(d: DocumentChange) -> int:
        return min(r for r in (d.rank_a, d.rank_b) if r is not None)

    kept = sorted((d for d in changes if abs(d.contribution) > ZERO),
                  key=lambda d: (-abs(d.contribution), best_rank(d), d.docid))
    return Attribution(measure.name, value_a, value_b, method, tuple(kept),
                       tuple(g for g in groups if abs(g.contribution) > ZERO))
