"""Property tests (hypothesis) for the invariants of the metric engine."""
import numpy as np
from hypothesis import assume, given
from hypothesis import strategies as st

from components.engine import metrics as m

grades_st = st.lists(st.integers(min_value=-2, max_value=3), min_size=1, max_size=15)
k_st = st.integers(min_value=1, max_value=20)
gain_st = st.sampled_from(m.GAINS)


@st.composite
def ranking_with_judged(draw):
    """Returned grades plus extra judged grades that were not returned."""
    grades = draw(grades_st)
    missing = draw(st.lists(st.integers(min_value=-2, max_value=3), max_size=5))
    return grades, grades + missing


@given(ranking_with_judged(), k_st, gain_st)
def test_values_lie_in_0_1(data, k, gain):
    grades, judged = data
    qs = m.from_rankings([grades], [judged])
    for values in (m.recall(qs, k), m.success(qs, k), m.precision(qs, k), m.reciprocal_rank(qs),
                   m.reciprocal_rank(qs, k), m.ndcg(qs, k, gain)):
        assert 0.0 <= values[0] <= 1.0 + 1e-12


@given(grades_st, k_st, gain_st)
def test_ideal_order_gives_ndcg_1(grades, k, gain):
    assume(max(grades) >= 1)
    ideal = sorted(grades, reverse=True)
    assert abs(m.ndcg_at_k(ideal, k, gain=gain) - 1.0) < 1e-12


@given(ranking_with_judged(), k_st)
def test_recall_never_decreases_with_k(data, k):
    grades, judged = data
    qs = m.from_rankings([grades], [judged])
    assert m.recall(qs, k + 1)[0] >= m.recall(qs, k)[0]


@given(grades_st, st.data())
def test_moving_a_relevant_item_up_never_lowers_rr(grades, data):
    i = data.draw(st.integers(min_value=0, max_value=len(grades) - 1))
    grades[i] = data.draw(st.integers(min_value=1, max_value=3))  # the item that moves is relevant
    j = data.draw(st.integers(min_value=0, max_value=i))
    moved = grades[:i] + grades[i + 1:]
    moved.insert(j, grades[i])
    assert m.reciprocal_rank_of(moved) >= m.reciprocal_rank_of(grades)


@st.composite
def ranking_with_a_better_item_below(draw):
    """A ranking, its judged grades, and positions i < j where the item at j has the strictly higher gain."""
    grades = draw(st.lists(st.integers(min_value=-2, max_value=3), min_size=2, max_size=15))
    i = draw(st.integers(min_value=0, max_value=len(grades) - 2))
    j = draw(st.integers(min_value=i + 1, max_value=len(grades) - 1))
    grades[i] = draw(st.integers(min_value=-2, max_value=2))
    grades[j] = draw(st.integers(min_value=max(grades[i], 0) + 1, max_value=3))
    missing = draw(st.lists(st.integers(min_value=-2, max_value=3), max_size=5))
    return grades, grades + missing, i, j


@given(ranking_with_a_better_item_below(), k_st, gain_st)
def test_swapping_above_a_strictly_lower_grade_never_lowers_dcg(data, k, gain):
    grades, judged, i, j = data
    swapped = list(grades)
    swapped[i], swapped[j] = swapped[j], swapped[i]
    assert m.dcg_at_k(swapped, k, gain) >= m.dcg_at_k(grades, k, gain) - 1e-12
    assert m.ndcg_at_k(swapped, k, judged, gain) >= m.ndcg_at_k(grades, k, judged, gain) - 1e-12


@given(ranking_with_judged(), k_st, gain_st, st.randoms(use_true_random=False))
def test_reordering_below_the_last_relevant_item_changes_nothing(data, k, gain, rnd):
    grades, judged = data
    last = max([i for i, g in enumerate(grades) if g >= 1], default=-1)
    tail = grades[last + 1:]
    rnd.shuffle(tail)
    shuffled = grades[:last + 1] + tail
    a, b = m.from_rankings([grades], [judged]), m.from_rankings([shuffled], [judged])
    for f in (m.recall, m.success, m.precision, m.reciprocal_rank):
        assert f(a, k)[0] == f(b, k)[0]
    assert m.ndcg(a, k, gain)[0] == m.ndcg(b, k, gain)[0]


@given(st.lists(ranking_with_judged(), min_size=1, max_size=6), st.one_of(st.none(), k_st))
def test_mrr_is_the_mean_of_per_query_rr(queries, k):
    rankings = [g for g, _ in queries]
    qs = m.from_rankings(rankings, [j for _, j in queries])
    per_query = [m.reciprocal_rank_of(g, k) for g in rankings]
    assert abs(m.mean_reciprocal_rank(rankings, k) - np.mean(per_query)) < 1e-12
    assert np.allclose(m.reciprocal_rank(qs, k), per_query)


@given(st.lists(ranking_with_judged(), min_size=1, max_size=6), k_st, gain_st)
def test_the_core_equals_the_per_ranking_wrappers(queries, k, gain):
    qs = m.from_rankings([g for g, _ in queries], [j for _, j in queries])
    for q, (grades, judged) in enumerate(queries):
        n_rel = sum(1 for g in judged if g >= 1)
        assert m.recall(qs, k)[q] == m.recall_at_k(grades, k, n_relevant=n_rel)
        assert m.ndcg(qs, k, gain)[q] == m.ndcg_at_k(grades, k, judged, gain)


# --- every normalised measure lies in [0, 1], for any file the reader accepts --------------------

GRADE_EXTREMES = [m.MIN_GRADE, m.MIN_GRADE - 1, m.MAX_GRADE, m.MAX_GRADE + 1, 60, 61, 1023, -(2**63), 2**63 - 1, 0, 1]
ANY_GRADE = st.one_of(st.sampled_from(GRADE_EXTREMES), st.integers(m.MIN_GRADE, m.MAX_GRADE),
                      st.integers(-(2**63), 2**63 - 1))
ANY_SCORE = st.one_of(st.sampled_from(["1e308", "-1e308", "5e-324", "0", "-0", "1", "1.0"]),
                      st.floats(allow_nan=False, allow_infinity=False).map(repr))
ID = st.text(st.sampled_from("ab7_-\u00e9\u4e2d"), min_size=1, max_size=4)


@st.composite
def accepted_or_not_files(draw):
    """(qrels text, run text): judgments with grades in and out of the accepted range, results with any scores.

    The run returns some of the judged documents (and others), in any order.
    """
    qids = draw(st.lists(ID, min_size=1, max_size=3, unique=True))
    judged = draw(st.lists(st.tuples(st.sampled_from(qids), ID), min_size=1, max_size=12, unique=True))
    found = draw(st.lists(st.sampled_from(judged), min_size=1, max_size=12, unique=True))
    others = draw(st.lists(st.tuples(st.sampled_from(qids), ID), max_size=5))
    returned = list(dict.fromkeys(found + others))
    qrels = "".join(f"{q} 0 {d} {draw(ANY_GRADE)}\n" for q, d in judged)
    run = "".join(f"{q} Q0 {d} 0 {draw(ANY_SCORE)} r\n" for q, d in returned)
    return qrels, run


@given(accepted_or_not_files(), k_st, gain_st)
def test_normalised_measures_lie_in_0_1_for_any_file_the_reader_accepts(files, k, gain):
    from components.engine.measures import evaluate
    from components.formats import trec

    try:
        judged = trec.load(*files, gain=gain)
    except trec.TrecFormatError:
        return  # refused, with a message: nothing to score
    names = [f"{family}@{k}" for family in ("R", "P", "Success", "RR", "nDCG")] + ["RR"]
    for name, values in evaluate(judged.queries, names, gain).items():
        assert np.all((values >= 0) & (values <= 1)), (name, values)
