"""The lessons' worked examples as data (no Streamlit import).

Every scenario separates what is *judged* (each document's grade, fixed by
the assessors) from what is *returned* (the system's ranked list). A judged
document missing from the list sits in the editor's "not returned" tray; a
returned document nobody judged counts as grade 0.

Numbers the lessons show are computed from these through
``components.engine.metrics``; nothing here stores a metric value.
"""
from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Mapping

import numpy as np

from components.engine import metrics


@dataclass(frozen=True)
class Doc:
    """A document: an opaque id, a title for display, and its judged grade (None = unjudged).

    The one document type of the course: the scenarios' documents and the ranking
    editor's items (``components.ranking_editor.EditorItem`` is this class). The
    id is opaque ("007" and "7" differ); the title is shown as plain text, never
    parsed as HTML; an unjudged document counts as grade 0 wherever it is returned.
    """

    id: str
    title: str
    grade: int | None = None


@dataclass(frozen=True)
class Query:
    """One query: its text, a pool of documents and named orderings of the returned list.

    ``presets`` maps a preset name to the returned ids, top first; judged
    documents left out of a preset are "not returned".
    """

    text: str
    docs: tuple[Doc, ...]
    presets: Mapping[str, tuple[str, ...]]

    def __post_init__(self):
        ids = [d.id for d in self.docs]
        if len(set(ids)) != len(ids):
            raise ValueError(f"document ids must be unique in {self.text!r}")
        for name, order in self.presets.items():
            unknown = set(order) - set(ids)
            if unknown or len(set(order)) != len(order):
                raise ValueError(f"preset {name!r} of {self.text!r} has unknown or repeated ids: {sorted(unknown)}")

    @property
    def by_id(self) -> dict[str, Doc]:
        return {d.id: d for d in self.docs}

    def grades(self, order) -> np.ndarray:
        """Grades of the documents in ``order`` (unjudged documents count as 0)."""
        by_id = self.by_id
        return np.array([by_id[i].grade or 0 for i in order], dtype=np.int64)

    def judged_grades(self) -> np.ndarray:
        """Every judged grade of the query, returned or not (for |relevant| and the ideal)."""
        return np.array([d.grade for d in self.docs if d.grade is not None], dtype=np.int64)

    def n_relevant(self) -> int:
        return int(np.count_nonzero(self.judged_grades() >= 1))

    def not_returned(self, order) -> tuple[str, ...]:
        """Judged documents that ``order`` leaves out, in pool order (the editor's tray)."""
        returned = set(order)
        return tuple(d.id for d in self.docs if d.grade is not None and d.id not in returned)


def _frozen(mapping: dict) -> Mapping:
    return MappingProxyType(mapping)


# ----------------------------------------------------------------------------
# Lesson 0: why plain accuracy fails
# ----------------------------------------------------------------------------

@dataclass(frozen=True)
class AccuracyCase:
    returned: int
    relevant_returned: int


ACCURACY_COLLECTION = 10_000
ACCURACY_RELEVANT = 50
ACCURACY_QUERY = "Python"
ACCURACY_PRESETS: Mapping[str, AccuracyCase] = _frozen({
    "Top 10, half of them relevant": AccuracyCase(returned=10, relevant_returned=5),
    "Return everything": AccuracyCase(returned=10_000, relevant_returned=50),
    "Return nothing": AccuracyCase(returned=0, relevant_returned=0),
})


def accuracy_bounds(returned: int) -> tuple[int, int]:
    """How many of ``returned`` documents can be relevant: at least those forced in, at most ACCURACY_RELEVANT.

    >>> accuracy_bounds(10), accuracy_bounds(9_990)
    ((0, 10), (40, 50))
    """
    return max(0, returned - (ACCURACY_COLLECTION - ACCURACY_RELEVANT)), min(ACCURACY_RELEVANT, returned)


# ----------------------------------------------------------------------------
# Lesson 1: Recall@k, the lawyer scenario
# ----------------------------------------------------------------------------

_RELEVANT_CASES = [
    ("c01", "Harrow v. Keel Marine (2011): contract voidable for misrepresentation"),
    ("c02", "Pellman Foods v. Ostrander (2004): minor's contract voidable at election"),
    ("c03", "Re Calloway Estate (1998): undue influence renders transfer voidable"),
    ("c04", "Drummond v. Sallis Motors (2016): duress and the right to rescind"),
    ("c05", "Vance Textiles v. Orrin Bank (2007): affirmation ends the right to avoid"),
    ("c06", "Quill v. Marsh Holdings (2013): void versus voidable distinguished"),
    ("c07", "Brightwater Co-op v. Lund (2001): incapacity through intoxication"),
    ("c08", "Ferrante v. Gale Insurance (2019): non-disclosure and rescission"),
    ("c09", "Ostby Homes v. Pruitt (2010): restitution after avoidance"),
    ("c10", "Kessler v. Northgate Leasing (2015): lapse of time bars rescission"),
]
_OTHER_CASES = [
    ("n01", "Marlow Estates v. City of Brant (2012): zoning variance appeal"),
    ("n02", "State v. Ridley (2008): admissibility of a dying declaration"),
    ("n03", "Tamsin Media v. Crowe (2014): defamation by implication"),
    ("n04", "Holloway v. Pace Logistics (2017): wrongful dismissal damages"),
    ("n05", "Re Ashdown Trust (2003): construing a charitable bequest"),
    ("n06", "Greer v. Fenwick Clinic (2009): standard of care in diagnosis"),
    ("n07", "Dunmore Ports v. Ilsley (2006): salvage award on a wreck"),
    ("n08", "People v. Okafor (2018): search of a vehicle without warrant"),
    ("n09", "Linden Power v. Rusk County (2011): property tax assessment"),
    ("n10", "Sorrel v. Sorrel (2015): division of a pension on divorce"),
    ("n11", "Caldwell Grain v. Ytterberg (2002): statute of frauds, land sale"),
    ("n12", "Ardent Software v. Polk (2020): trade secret misappropriation"),
    ("n13", "Re Wexford Mine (1999): mining lease royalties"),
    ("n14", "Nash v. Coleridge Transit (2013): occupier's liability, a slip"),
    ("n15", "Bellamy v. Price (2016): easement by prescription"),
    ("n16", "Corvin Pharma v. Yates (2010): patent claim construction"),
    ("n17", "Ingram Freight v. Dole (2005): carrier's limitation of liability"),
    ("n18", "Thornbury v. Ames School Board (2012): teacher tenure hearing"),
    ("n19", "Pryor v. Lakeside Bank (2014): guarantee given by a spouse"),
    ("n20", "Regent Hotels v. Voss (2007): frustration of a booking contract"),
    ("n21", "Whitcombe v. Marr (2018): adverse possession of a strip of land"),
    ("n22", "Ulster Cable v. Hanley (2011): breach of an exclusivity clause"),
    ("n23", "Garrity v. Noonan (2004): negligent misstatement by a surveyor"),
    ("n24", "Re Fairholme Insolvency (2019): voidable preference to a creditor"),
]

# System A: 4 relevant cases, all in its top 5 (position 3 is a miss).
_LAWYER_A = ("c01", "c02", "n20", "c03", "c04", "n11", "n22", "n24", "n19", "n23",
             "n01", "n03", "n05", "n07", "n09", "n12", "n14", "n16", "n18", "n21")
# System B: 9 relevant cases spread down its 20-long list.
_LAWYER_B = ("c05", "n24", "c01", "c06", "n20", "c02", "n22", "c07", "n11", "n19",
             "c03", "n23", "c08", "n02", "n04", "c09", "n06", "n08", "c04", "n10")
_A_HITS = ("c01", "c02", "c03", "c04")
_A_MISSES = tuple(i for i in _LAWYER_A if i not in _A_HITS)

LAWYER = Query(
    text="precedent regarding contract voidability",
    docs=tuple(Doc(i, t, 1) for i, t in _RELEVANT_CASES) + tuple(Doc(i, t, 0) for i, t in _OTHER_CASES),
    presets=_frozen({
        "System A": _LAWYER_A,
        "System B": _LAWYER_B,
        "System A, hits at 1–4": _A_HITS + _A_MISSES,
        "System A, hits at 16–19": _A_MISSES[:15] + _A_HITS + _A_MISSES[15:],
    }),
)
LAWYER_DEFAULT_K: Mapping[str, int] = _frozen({"System A": 5, "System B": 20})
# the recall lesson's pool: every document either system returned, plus every judged relevant case
LAWYER_POOL = tuple(d for d in LAWYER.docs
                    if d.id in {i for s in LAWYER_DEFAULT_K for i in LAWYER.presets[s]} or (d.grade or 0) >= 1)

# Recall@k versus hit rate@k: three queries with 1, 3 and 10 relevant items.
# Each is (returned grades top first, number of relevant judged items).
RECALL_VS_HIT_RATE: tuple[tuple[str, tuple[int, ...], int], ...] = (
    ("one relevant item", (0, 1, 0, 0, 0, 0, 0, 0, 0, 0), 1),
    ("three relevant items", (1, 0, 0, 0, 0, 0, 1, 0, 0, 0), 3),
    ("ten relevant items", (0, 0, 1, 0, 1, 0, 0, 0, 1, 0), 10),
)


# ----------------------------------------------------------------------------
# Lesson 2: MRR, the JAR-file scenario
# ----------------------------------------------------------------------------

JAR_TARGET = "lombok-1.18.30.jar"


def _jar_query(text: str, titles: list[str], relevant: set[str]) -> Query:
    docs = tuple(Doc(f"j{n:02d}", t, 1 if t in relevant else 0) for n, t in enumerate(titles, 1))
    return Query(text=text, docs=docs, presets=_frozen({"Default": tuple(d.id for d in docs)}))


JAR_QUERIES: tuple[Query, ...] = (
    _jar_query("lombok 1.18.30 jar", [
        JAR_TARGET, "lombok-1.18.30-sources.jar", "lombok-1.18.28.jar", "lombok-maven-plugin-1.18.20.0.jar",
        "lombok-1.18.26.jar", "lombok-mapstruct-binding-0.2.0.jar"], {JAR_TARGET}),
    _jar_query("download lombok jar", [
        "lombok-1.18.32.jar", JAR_TARGET, "lombok-1.18.30-javadoc.jar", "lombok-1.18.28.jar",
        "delombok-maven-plugin.jar", "lombok-1.16.22.jar"], {JAR_TARGET}),
    _jar_query("project lombok maven artifact", [
        "lombok-maven-plugin-1.18.20.0.jar", "lombok-1.18.32.jar", "lombok-1.18.28.jar",
        "lombok-mapstruct-binding-0.2.0.jar", JAR_TARGET, "lombok-1.18.30-sources.jar",
        "lombok-utils-0.9.jar"], {JAR_TARGET}),
)
# Several relevant items: the developer would take the jar or its sources jar.
JAR_TWO_RELEVANT = _jar_query("lombok 1.18.30 with sources", [
    "lombok-1.18.28.jar", "lombok-1.18.30-sources.jar", "lombok-maven-plugin-1.18.20.0.jar",
    JAR_TARGET, "lombok-1.18.32.jar", "lombok-1.18.30-javadoc.jar"],
    {JAR_TARGET, "lombok-1.18.30-sources.jar"})


# ----------------------------------------------------------------------------
# Lesson 3: nDCG, the Python web-frameworks scenario
# ----------------------------------------------------------------------------

FRAMEWORKS_MIXED = "Mixed grades"  # the preset where linear and exponential gain disagree
FRAMEWORKS_MISSED = "FastAPI missed"  # the preset with a grade-2 page the system never returned
FRAMEWORKS = Query(
    text="Best Python frameworks for web dev",
    docs=(
        Doc("django", "Django Guide", 2),
        Doc("flask", "Flask Tutorial", 2),
        Doc("fastapi", "FastAPI Docs", 2),
        Doc("pyramid", "Pyramid Overview", 1),
        Doc("bottle", "Bottle Quickstart", 1),
        Doc("snake", "Snake Care", 0),
        Doc("monty", "Monty Python Sketch Archive", 0),
        Doc("pythons", "Pythons of Southeast Asia", 0),
    ),
    presets=_frozen({
        "System A": ("django", "flask", "fastapi", "pyramid", "bottle", "snake", "monty", "pythons"),
        "System B": ("snake", "django", "flask", "fastapi", "pyramid", "bottle", "monty", "pythons"),
        # a grade-1 page above two grade-2 ones: the gains disagree (nDCG@3 0.687 exponential, 0.765 linear).
        FRAMEWORKS_MIXED: ("pyramid", "django", "flask", "bottle", "fastapi", "snake", "monty", "pythons"),
        # a grade-2 page the system never returned: the ideal still counts it.
        FRAMEWORKS_MISSED: ("django", "pyramid", "flask", "bottle", "snake", "monty", "pythons"),
    }),
)
FRAMEWORKS_K = 3
# The starting orders of two practice questions, each its own nDCG@3 (exponential), unlike any preset's:
FRAMEWORKS_SWAP_START = ("pyramid", "django", "snake", "monty", "flask", "fastapi", "bottle", "pythons")  # 0.453
FRAMEWORKS_ORDER_START = ("snake", "django", "pyramid", "monty", "flask", "fastapi", "bottle", "pythons")  # 0.374


# ----------------------------------------------------------------------------
# Lesson 4: the four-query example
# ----------------------------------------------------------------------------

FOUR_QUERY_HIT_RANKS: tuple[int, ...] = (1, 3, 1, 8)
FOUR_QUERY_LIST_LENGTH = 10
FOUR_QUERY_ANSWER = "answer"  # each query's one relevant document; the others are not relevant
FOUR_QUERY_OTHERS = tuple(f"other{i}" for i in range(1, FOUR_QUERY_LIST_LENGTH))
FOUR_QUERY_GRADES: Mapping[str, int] = _frozen({FOUR_QUERY_ANSWER: 1, **{o: 0 for o in FOUR_QUERY_OTHERS}})


def four_query_list(rank: int | None) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A query's list with its answer at ``rank`` (None: not returned, judged but missing): (order, tray).

    >>> four_query_list(2)[0][:3], four_query_list(None)[1]
    (('other1', 'answer', 'other2'), ('answer',))
    """
    if rank is None:
        return FOUR_QUERY_OTHERS, (FOUR_QUERY_ANSWER,)
    return FOUR_QUERY_OTHERS[:rank - 1] + (FOUR_QUERY_ANSWER,) + FOUR_QUERY_OTHERS[rank - 1:], ()


def single_hit_rankings(hit_ranks, length: int = FOUR_QUERY_LIST_LENGTH) -> list[list[int]]:
    """One ranking per query with its one relevant item at the given rank (None = not returned)."""
    rankings = []
    for rank in hit_ranks:
        if rank is not None and not 1 <= rank <= length:
            raise ValueError(f"a hit rank must lie between 1 and {length}, or be None (not returned); got {rank!r}")
        rankings.append([1 if rank == i else 0 for i in range(1, length + 1)])
    return rankings


def four_query_set(hit_ranks=FOUR_QUERY_HIT_RANKS) -> metrics.QuerySet:
    """The four queries as one query set: each has exactly one relevant judged item."""
    rankings = single_hit_rankings(hit_ranks)
    return metrics.from_rankings(rankings, [[1]] * len(rankings))


# ----------------------------------------------------------------------------
# Hybrid search: a lexical and a dense ranking of one query, fused
# ----------------------------------------------------------------------------

HYBRID_LEXICAL, HYBRID_DENSE = "BM25", "Dense"  # the presets: each ranker's top 10
HYBRID = Query(
    text="how do I rotate API keys without downtime",
    docs=(
        Doc("runbook", "Runbook: rotate API keys for the payments service", 2),
        Doc("rollover", "Credential rollover with no outage: the two-key pattern", 2),
        Doc("dualkey", "Serving two valid keys at once while clients switch over", 2),
        Doc("apiref", "API keys reference: create, list and revoke", 1),
        Doc("vault", "How we rotate database passwords with Vault", 1),
        Doc("kms", "Scheduling automatic key rotation in a key management service", 1),
        Doc("leak", "A key leaked: the revoke-and-reissue checklist", 1),
        Doc("shortlived", "Short-lived tokens instead of long-lived keys", 1),
        Doc("tls", "Rotating TLS certificates without downtime", 0),
        Doc("logrotate", "Rotate log files daily with logrotate", 0),
        Doc("ratelimit", "API rate limits and keys: frequently asked questions", 0),
        Doc("bluegreen", "Blue-green deployments without downtime", 0),
        Doc("canvas", "Keyboard shortcuts: rotate the canvas", 0),
        Doc("sighup", "Reload a service's configuration without a restart", 0),
    ),
    presets=_frozen({
        # exact words first: the runbook's phrase, then anything that says "rotate" or "API keys"
        HYBRID_LEXICAL: ("runbook", "kms", "logrotate", "apiref", "tls", "dualkey", "vault", "canvas", "ratelimit",
                         "bluegreen"),
        # meaning first: the rollover post shares hardly a word with the query, the runbook only just makes it
        HYBRID_DENSE: ("rollover", "leak", "sighup", "vault", "tls", "dualkey", "bluegreen", "shortlived", "apiref",
                       "runbook"),
    }),
)
HYBRID_CUTOFF = 5  # the boards' k: Recall@5 and nDCG@5


# ----------------------------------------------------------------------------
# Putting it together: one graded query where the metrics disagree
# ----------------------------------------------------------------------------

CHOOSING_DEFAULT = "Found but badly ordered"  # the preset the page opens with
CHOOSING = Query(
    text="reset a forgotten router password",
    docs=(
        Doc("reset", "Router admin password reset, step by step", 2),
        Doc("factory", "Factory-reset a router with the pinhole button", 2),
        Doc("recover", "Recover the Wi-Fi password from a connected laptop", 1),
        Doc("defaults", "Default admin logins by router brand", 1),
        Doc("ssid", "Change your Wi-Fi network name", 0),
        Doc("firmware", "Router firmware update guide", 0),
        Doc("mesh", "Choosing a mesh Wi-Fi system", 0),
        Doc("vault", "Password manager basics", 0),
        Doc("slow", "Fix slow Wi-Fi at home", 0),
        Doc("ports", "Port forwarding for game consoles", 0),
    ),
    presets=_frozen({
        "Well ordered": ("reset", "factory", "recover", "defaults", "ssid", "firmware", "mesh", "vault", "slow",
                         "ports"),
        # every relevant page in the top 5, the best ones last: a ranking problem
        CHOOSING_DEFAULT: ("ssid", "defaults", "recover", "factory", "reset", "firmware", "mesh", "vault",
                                    "slow", "ports"),
        # the first hit is perfect, the other relevant pages were never returned: a matching problem
        "First hit only": ("reset", "ssid", "firmware", "mesh", "vault", "slow", "ports"),
    }),
)
CHOOSING_K = 5
CHOOSING_MEASURES = ("R@k", "Success@k", "P@k", "RR", "nDCG@k", "AP")  # the page's board, in the engine's names

# Tied scores (listed order, score): ties straddle k = 3.
TIED_SCORES: tuple[tuple[str, float], ...] = (
    ("django", 0.9), ("flask", 0.7), ("snake", 0.7), ("monty", 0.7), ("fastapi", 0.5), ("pyramid", 0.5),
    ("bottle", 0.2), ("pythons", 0.1),
)
