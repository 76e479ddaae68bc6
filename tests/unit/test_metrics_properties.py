"""Property tests (hypothesis) for the invariants of the metric engine."""
import numpy as np
from hypothesis import assume, given
from hypothesis import strategies as st

from components.engine import metrics as m
from tests.unit.file_readers import load_trec

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
                   m.reciprocal_rank(qs, k), m.ndcg(qs, k, gain), m.ndcg(qs, None, gain), m.average_precision(qs),
                   m.average_precision(qs, k), m.floored_average_precision(qs), m.r_precision(qs), m.bpref(qs),
                   m.judged_at_k(qs, k)):
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
    from components.engine import model
    from components.engine.measures import evaluate

    try:
        judged = load_trec(*files, gain=gain)
    except model.TrecFormatError:
        return  # refused, with a message: nothing to score
    names = [f"{family}@{k}" for family in ("R", "P", "Success", "RR", "nDCG", "AP", "Judged")]
    names += ["RR", "nDCG", "AP", "GMAP", "R-prec", "bpref"]
    for name, values in evaluate(judged.queries, names, gain).items():
        assert np.all((values >= 0) & (values <= 1)), (name, values)


# --- trec_eval's measures: AP, R-prec, bpref, the counts, relevance levels, judged only -----------

@st.composite
def ranking_with_unjudged(draw):
    """Returned grades with None for unjudged documents, plus every judged grade (some never returned)."""
    grades = draw(st.lists(st.one_of(st.none(), st.integers(min_value=-2, max_value=3)), max_size=15))
    missing = draw(st.lists(st.integers(min_value=-2, max_value=3), max_size=5))
    return grades, [g for g in grades if g is not None] + missing


@given(st.lists(st.integers(min_value=1, max_value=3), min_size=1, max_size=8),
       st.lists(st.integers(min_value=-2, max_value=0), max_size=8))
def test_ap_and_bpref_are_1_when_every_relevant_document_comes_first(relevant, others):
    qs = m.from_rankings([relevant + others])
    assert m.average_precision(qs)[0] == m.bpref(qs)[0] == m.r_precision(qs)[0] == 1.0


@given(ranking_with_unjudged(), k_st)
def test_ap_at_k_grows_with_k_up_to_ap(data, k):
    grades, judged = data
    qs = m.from_rankings([grades], [judged])
    at_k, at_next, whole = m.average_precision(qs, k)[0], m.average_precision(qs, k + 1)[0], m.average_precision(qs)[0]
    assert at_k <= at_next <= whole + 1e-12
    assert m.average_precision(qs, len(grades) + 1)[0] == whole


@given(ranking_with_unjudged())
def test_r_precision_is_precision_at_r(data):
    qs = m.from_rankings([data[0]], [data[1]])
    n_relevant = int(m.num_relevant(qs)[0])
    assert m.r_precision(qs)[0] == (m.precision(qs, n_relevant)[0] if n_relevant else 0.0)


@given(ranking_with_unjudged(), st.integers(min_value=1, max_value=3))
def test_the_counts(data, level):
    grades, judged = data
    qs = m.with_relevance_level(m.from_rankings([grades], [judged]), level)
    assert m.num_returned(qs)[0] == len(grades)
    assert m.num_relevant(qs)[0] == sum(g >= level for g in judged)
    assert m.num_relevant_returned(qs)[0] == sum(g is not None and g >= level for g in grades)
    assert m.num_queries(qs).tolist() == [1.0]


@given(ranking_with_unjudged(), st.integers(min_value=0, max_value=15))
def test_an_unjudged_document_anywhere_leaves_bpref_alone_and_lowers_judged_at_k(data, at):
    grades, judged = data
    more = grades[:at] + [None] + grades[at:]
    before, after = m.from_rankings([grades], [judged]), m.from_rankings([more], [judged])
    assert m.bpref(after)[0] == m.bpref(before)[0]
    k = min(at, len(grades)) + 1  # the cutoff takes in the new document
    assert m.judged_at_k(after, k)[0] <= m.judged_at_k(before, k)[0]


@given(ranking_with_unjudged(), k_st, gain_st)
def test_judged_only_drops_the_unjudged_and_keeps_the_order(data, k, gain):
    grades, judged = data
    kept = [g for g in grades if g is not None and g >= 0]
    a, b = m.judged_only(m.from_rankings([grades], [judged])), m.from_rankings([kept], [judged])
    for f in (m.recall, m.precision, m.average_precision, m.judged_at_k):
        assert f(a, k)[0] == f(b, k)[0]
    assert m.bpref(a)[0] == m.bpref(b)[0] and m.ndcg(a, k, gain)[0] == m.ndcg(b, k, gain)[0]
    assert m.judged_at_k(a, k)[0] == (1.0 if kept else 0.0)


@given(st.lists(ranking_with_unjudged(), min_size=1, max_size=6), st.integers(min_value=1, max_value=3), gain_st)
def test_a_relevance_level_acts_as_if_lower_grades_were_0_for_binary_measures(queries, level, gain):
    def lowered(grades):
        return [g if g is None or g >= level else min(g, 0) for g in grades]
    qs = m.with_relevance_level(m.from_rankings([g for g, _ in queries], [j for _, j in queries]), level)
    flat = m.from_rankings([lowered(g) for g, _ in queries], [lowered(j) for _, j in queries])
    for f in (m.average_precision, m.r_precision, m.bpref, m.reciprocal_rank, m.num_relevant_returned):
        np.testing.assert_array_equal(f(qs), f(flat))
    np.testing.assert_array_equal(m.ndcg(qs, None, gain), m.ndcg(m.from_rankings(  # nDCG keeps the grades
        [g for g, _ in queries], [j for _, j in queries]), None, gain))


@given(st.lists(ranking_with_unjudged(), min_size=1, max_size=6))
def test_the_geometric_mean_of_ap_lies_below_the_mean(queries):
    qs = m.from_rankings([g for g, _ in queries], [j for _, j in queries])
    floored = m.floored_average_precision(qs)
    assert m.geometric_mean(floored) <= floored.mean() + 1e-12
    assert np.all(floored >= m.MIN_GEO_MEAN) and np.all(floored >= m.average_precision(qs))


@given(st.lists(ranking_with_unjudged(), min_size=1, max_size=6), st.randoms(use_true_random=False))
def test_row_order_does_not_matter(queries, rnd):
    qs = m.from_rankings([g for g, _ in queries], [j for _, j in queries])
    rows = list(range(qs.rank.size))
    rnd.shuffle(rows)
    shuffled = m.query_set(qs.n_queries, qs.qidx[rows], qs.rank[rows], qs.grade[rows], qs.judged_qidx,
                           qs.judged_grade, qs.is_judged[rows] if qs.is_judged is not None else None)
    for f in (m.average_precision, m.bpref, m.r_precision):
        np.testing.assert_allclose(f(shuffled), f(qs), atol=1e-12)
    np.testing.assert_array_equal(m.judged_only(shuffled).grade, m.judged_only(qs).grade)
