"""Attributing one query's change of a measure to documents (components/engine/attribution.py).

Oracles: the engine's own values (a one-query set per ranking), hand-worked
terms and Shapley values, and a brute-force Shapley over every mover and
every coalition, built here by sorting the documents by their keys (no
pruning, no counting): the module's pruned, vectorised game must give the
same values.
"""
import math
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from components.engine import attribution, metrics
from components.engine.attribution import MAX_PLAYERS, explain
from components.engine.measures import evaluate

MEASURES = ("P@3", "R@5", "DCG@4", "nDCG", "nDCG@5", "RR", "RR@3", "AP", "AP@4", "Success@2")
ADDITIVE = ("P@3", "R@5", "DCG@4", "nDCG", "nDCG@5")
KINDS = {"entered", "left", "moved up", "moved down"}


def engine_value(ranking, judgments, measure, gain="linear") -> float:
    """The engine's value of one ranking of docids: a one-query set, every judgment in the ideal."""
    qs = metrics.from_rankings([[judgments.get(d) for d in ranking]], [list(judgments.values())])
    return float(evaluate(qs, [measure], gain)[attribution.parse_measure(measure).name][0])


def total(ex) -> float:
    return sum(d.contribution for d in ex.documents) + sum(g.contribution for g in ex.groups)


@st.composite
def pairs(draw, most: int = 20):
    """Two rankings drawn from a pool of at most `most` docids, and judgments of some of the pool (grades -1..3)."""
    pool = [f"d{i}" for i in range(draw(st.integers(1, most)))]
    a, b = (draw(st.permutations(pool))[:draw(st.integers(0, len(pool)))] for _ in range(2))
    judgments = draw(st.dictionaries(st.sampled_from(pool), st.integers(-1, 3)))
    return a, b, judgments


# ----------------------------------------------------------------------------
# Every supported measure: the engine's values, and contributions that add up
# ----------------------------------------------------------------------------

@settings(max_examples=150, deadline=None)
@given(pairs(), st.sampled_from(MEASURES), st.sampled_from(metrics.GAINS))
def test_values_are_the_engines_and_contributions_sum_to_the_change(pair, measure, gain):
    a, b, judgments = pair
    ex = explain(a, b, judgments, measure, gain)
    assert (ex.value_a, ex.value_b) == (engine_value(a, judgments, measure, gain),
                                        engine_value(b, judgments, measure, gain))
    assert ex.change == ex.value_b - ex.value_a
    assert total(ex) == pytest.approx(ex.change, abs=1e-9)
    assert ex.judged + ex.unjudged == pytest.approx(ex.change, abs=1e-9)
    assert ex.method == (attribution.EXACT if measure in ADDITIVE else attribution.SHAPLEY_EXACT)
    sizes = [abs(d.contribution) for d in ex.documents]
    assert sizes == sorted(sizes, reverse=True) and all(s > attribution.ZERO for s in sizes)
    for d in ex.documents:
        assert d.kind in KINDS and d.rank_a != d.rank_b
        assert (d.rank_a, d.rank_b) == tuple(r.index(d.docid) + 1 if d.docid in r else None for r in (a, b))
        assert d.grade == judgments.get(d.docid)
    assert len(ex.documents) + len(ex.groups) <= (len(set(a) | set(b)) if measure in ADDITIVE else MAX_PLAYERS)
    for g in ex.groups:
        assert {judgments.get(d) is None for d in g.docids} == {g.unjudged}


@settings(max_examples=60, deadline=None)
@given(pairs(), st.sampled_from([m for m in MEASURES if m not in ADDITIVE]))
def test_the_coalition_game_starts_at_a_and_ends_at_b(pair, measure):
    """v({}) is ranking A's value and v(all players) ranking B's: what makes the Shapley values add up exactly."""
    a, b, judgments = pair
    parsed = attribution.parse_measure(measure)
    docs = attribution._documents(a, b, judgments)
    game = attribution._game(docs, parsed)
    players = [p for p, _ in attribution._players(docs, game)]
    values = attribution._coalition_values(docs, game, judgments, parsed, "linear", players)
    assert values[0] == engine_value(a, judgments, measure)
    assert values[-1] == engine_value(b, judgments, measure)


def brute_force_shapley(a, b, judgments, measure) -> dict[str, float]:
    """Shapley values over every document that moved, every coalition ranked by sorting on the keys."""
    rank_a, rank_b = ({d: i + 1 for i, d in enumerate(r)} for r in (a, b))
    docs = list(dict.fromkeys(a + b))
    movers = [d for d in docs if rank_a.get(d, math.inf) != rank_b.get(d, math.inf)]

    def value(s: set) -> float:
        key = {d: (rank_b if d in s else rank_a).get(d, math.inf) for d in docs}
        # the tie rule: at the same key, the document placed by its rank in B goes first
        ranking = sorted((d for d in docs if key[d] < math.inf), key=lambda d: (key[d], d not in s))
        return engine_value(ranking, judgments, measure)

    n = len(movers)
    phi = {}
    for d in movers:
        others = [o for o in movers if o != d]
        phi[d] = sum(math.factorial(k) * math.factorial(n - k - 1) / math.factorial(n)
                     * (value(set(s) | {d}) - value(set(s))) for k in range(n) for s in combinations(others, k))
    return phi


@settings(max_examples=80, deadline=None)
@given(pairs(most=6), st.sampled_from([m for m in MEASURES if m not in ADDITIVE]))
def test_the_shapley_values_are_the_brute_force_ones_over_every_mover(pair, measure):
    """The pruned players (null players dropped) and the counted ranks give the values of the full game."""
    a, b, judgments = pair
    ex = explain(a, b, judgments, measure)
    got = {d.docid: d.contribution for d in ex.documents}
    expected = brute_force_shapley(a, b, judgments, measure)
    assert set(got) <= set(expected)
    for docid, phi in expected.items():
        assert got.get(docid, 0.0) == pytest.approx(phi, abs=1e-9), docid


@settings(max_examples=60, deadline=None)
@given(pairs(), st.sampled_from(ADDITIVE), st.sampled_from(metrics.GAINS))
def test_an_additive_measure_gives_each_document_its_own_term_difference(pair, measure, gain):
    """The term of d at rank r: the engine's value of the ranking that holds d at r and unjudged filler above."""
    a, b, judgments = pair

    def term(d, ranking):
        if d not in ranking:
            return 0.0
        filler = [f"filler{i}" for i in range(ranking.index(d))]  # unjudged: gain 0, not relevant
        return engine_value(filler + [d], judgments, measure, gain)

    ex = explain(a, b, judgments, measure, gain)
    got = {d.docid: d.contribution for d in ex.documents}
    for d in set(a) | set(b):
        assert got.get(d, 0.0) == pytest.approx(term(d, b) - term(d, a), abs=1e-12)


# ----------------------------------------------------------------------------
# Hand-worked examples
# ----------------------------------------------------------------------------

FILLER = [f"page{i}" for i in range(11)]  # judged non-relevant (grade 0)


def flask_pair():
    """Flask Tutorial (grade 2) falls from 2 to 14; Flask Docs (grade 1) climbs from 3 to 2; an unjudged page
    enters at 3; the other pages are judged non-relevant."""
    a = ["intro", "flask tutorial", "flask docs", *FILLER]
    b = ["intro", "flask docs", "new page", *FILLER[:10], "flask tutorial"]
    judgments = {"intro": 0, "flask tutorial": 2, "flask docs": 1, "flask faq": 1, **{p: 0 for p in FILLER}}
    return a, b, judgments


def test_a_grade_2_document_falling_from_2_to_14_loses_exactly_its_ndcg_at_10_term():
    a, b, judgments = flask_pair()
    ex = explain(a, b, judgments, "nDCG@10")
    ideal = 2 + 1 / math.log2(3) + 1 / math.log2(4)  # grades 2, 1, 1 (Flask FAQ was never returned)
    by_id = {d.docid: d for d in ex.documents}
    assert by_id["flask tutorial"].contribution == pytest.approx(-2 / math.log2(3) / ideal, abs=1e-15)
    assert by_id["flask tutorial"].kind == "left"  # from 2 to beyond the depth 10
    assert by_id["flask docs"].contribution == pytest.approx((1 / math.log2(3) - 1 / math.log2(4)) / ideal, abs=1e-15)
    assert by_id["flask docs"].kind == "moved up"
    assert [d.docid for d in ex.documents] == ["flask tutorial", "flask docs"]  # the largest share first
    assert ex.change == pytest.approx(total(ex), abs=1e-15)
    # the unjudged page adds nothing itself under an additive measure: its gain is 0
    assert ex.unjudged == 0.0 and ex.judged == pytest.approx(ex.change, abs=1e-15)


def test_rr_shapley_split_of_a_swap_goes_to_the_document_that_moves_into_the_place():
    """A = [x, r], B = [r, x], r relevant: RR 0.5 -> 1. Both documents moved: players x (1 -> 2), r (2 -> 1).

    By the tie rule (at the same key, the document placed by B goes first):
    v({}) = 0.5; v({r}) = 1 (r at key 1 goes before x at key 1); v({x}) = 0.5 (x at key 2 goes before r at
    key 2); v({x, r}) = 1. So phi_r = ((1 - 0.5) + (1 - 0.5)) / 2 = 0.5 and phi_x = ((0.5 - 0.5) + (1 - 1)) / 2 = 0:
    x moving down alone changes nothing, r moving up alone does it all.
    """
    ex = explain(["x", "r"], ["r", "x"], {"r": 1, "x": 0}, "RR")
    assert (ex.value_a, ex.value_b) == (0.5, 1.0)
    assert [(d.docid, d.contribution, d.rank_a, d.rank_b, d.kind) for d in ex.documents] == \
        [("r", 0.5, 2, 1, "moved up")]


def test_an_unjudged_document_entering_is_told_apart_from_judged_documents_moving():
    """RR: A = [r1, j, r2], B = [u, r2, j, r1]. u (unjudged) enters at the top, r2 (relevant) climbs from 3 to 2,
    r1 falls from 1 to 4: RR 1 -> 0.5. The brute-force oracle gives every share; the unjudged one is negative."""
    a, b, judgments = ["r1", "j", "r2"], ["u", "r2", "j", "r1"], {"r1": 1, "r2": 1, "j": 0}
    ex = explain(a, b, judgments, "RR")
    assert ex.change == -0.5
    expected = brute_force_shapley(a, b, judgments, "RR")
    assert {d.docid: d.contribution for d in ex.documents} == pytest.approx(
        {d: phi for d, phi in expected.items() if abs(phi) > attribution.ZERO})
    unjudged = [d for d in ex.documents if d.grade is None]
    assert [(d.docid, d.kind) for d in unjudged] == [("u", "entered")]
    assert ex.unjudged == unjudged[0].contribution < 0
    assert ex.judged == pytest.approx(ex.change - ex.unjudged, abs=1e-12)


def test_an_unjudged_page_entering_at_the_top_takes_all_of_rrs_fall():
    ex = explain(["r"], ["new", "r"], {"r": 1}, "RR")
    assert [(d.docid, d.grade, d.contribution, d.kind) for d in ex.documents] == [("new", None, -0.5, "entered")]
    assert (ex.unjudged, ex.judged) == (-0.5, 0.0)


@pytest.mark.parametrize("measure", MEASURES)
def test_identical_rankings_give_no_documents_and_no_change(measure):
    a, _, judgments = flask_pair()
    ex = explain(a, list(a), judgments, measure)
    assert ex.change == 0.0 and ex.documents == () and ex.groups == ()


def test_documents_moving_below_every_relevant_one_are_null_players():
    """20 non-relevant documents reversed below r: no coalition changes, so none is a player, and no group forms."""
    tail = [f"t{i}" for i in range(20)]
    ex = explain(["x", "r", *tail], ["r", "x", *tail[::-1]], {"r": 1, **{t: 0 for t in tail[:10]}}, "AP")
    assert [d.docid for d in ex.documents] == ["r"] and ex.groups == ()
    assert ex.documents[0].contribution == pytest.approx(0.5)


def test_beyond_twelve_players_the_lowest_merge_into_a_judged_and_an_unjudged_group():
    """14 relevant documents each swap with the judged non-relevant one above them, 2 unjudged pages enter at the
    top and 2 more at the bottom (beyond every relevant document: null players)."""
    relevant, judged_out, pages = [f"r{i}" for i in range(14)], [f"n{i}" for i in range(14)], [f"u{i}" for i in range(4)]
    a = [d for pair in zip(judged_out, relevant) for d in pair] + pages
    b = pages[:2] + [d for pair in zip(relevant, judged_out) for d in pair] + pages[2:]
    judgments = {**{r: 1 for r in relevant}, **{n: 0 for n in judged_out}}
    docs = attribution._documents(a, b, judgments)
    players = attribution._players(docs, attribution._game(docs, attribution.parse_measure("AP")))
    assert len(players) == MAX_PLAYERS
    assert [docs.docids[p[0]] for p, group in players if group is None] == relevant[:10]  # relevant first, best rank
    ex = explain(a, b, judgments, "AP")
    groups = {g.unjudged: set(g.docids) for g in ex.groups}
    assert groups == {False: set(relevant[10:] + judged_out), True: {"u0", "u1"}}
    assert total(ex) == pytest.approx(ex.change, abs=1e-12)
    assert ex.unjudged == next(g.contribution for g in ex.groups if g.unjudged) < 0


def test_the_kind_reads_the_measures_depth():
    a, b = [f"p{i}" for i in range(15)], [f"p{i}" for i in range(15)]
    b[2], b[11] = b[11], b[2]  # p11 climbs from 12 to 3, p2 falls from 3 to 12
    judgments = {"p2": 1, "p11": 2}
    kinds = {d.docid: d.kind for d in explain(a, b, judgments, "nDCG@10").documents}
    assert kinds == {"p11": "entered", "p2": "left"}
    kinds = {d.docid: d.kind for d in explain(a, b, judgments, "nDCG").documents}
    assert kinds == {"p11": "moved up", "p2": "moved down"}


@pytest.mark.parametrize("measure", ["bpref", "Judged@10", "GMAP", "num_ret", "num_rel_ret", "IDCG@10", "R-prec",
                                     "IPrec@0.5"])
def test_a_measure_that_cannot_be_split_is_refused_naming_those_that_can(measure):
    with pytest.raises(ValueError, match="supported measures: P@k, R@k, DCG@k, nDCG"):
        explain(["a"], ["b"], {"a": 1}, measure)


def test_a_document_twice_in_a_ranking_is_refused():
    with pytest.raises(ValueError, match="ranking B lists document 'a' twice"):
        explain(["a"], ["a", "b", "a"], {"a": 1}, "RR")


@pytest.mark.parametrize("measure", ["AP", "RR", "RR@10", "Success@10", "nDCG@10", "nDCG"])
def test_a_thousand_document_pair_finishes_and_adds_up(measure):
    rng = np.random.default_rng(5)
    pool = [f"doc{i}" for i in range(3000)]
    a, b = (list(rng.choice(pool, 1000, replace=False)) for _ in range(2))
    judgments = {d: int(rng.integers(0, 3)) for d in rng.choice(pool, 600, replace=False)}
    ex = explain(a, b, judgments, measure)
    assert ex.value_a == engine_value(a, judgments, measure) and ex.value_b == engine_value(b, judgments, measure)
    assert total(ex) == pytest.approx(ex.change, abs=1e-9)
    assert len(ex.documents) + len(ex.groups) <= (2000 if measure.startswith("nDCG") else MAX_PLAYERS)
