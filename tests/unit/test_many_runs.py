"""A baseline against several runs: each pair as compare.py compares two, the p-values corrected as one family,
a run that never ran flagged and kept out of it."""
from __future__ import annotations

import json
import math

import numpy as np
import pytest

from components.engine import compare, corrections, many_runs
from tests.unit.file_readers import load_trec

MEASURES = ["RR", "nDCG@10", "R@10"]


def qrels_text(n_queries: int = 30) -> str:
    return "".join(f"q{q} 0 d{d} {1 + d % 2}\n" for q in range(n_queries) for d in range(4))


def run_text(rng: np.random.Generator, n_queries: int = 30, boost: float = 0.0) -> str:
    """Each query: 20 documents, the 4 relevant ones placed at random ranks (earlier with a larger boost)."""
    lines = []
    for q in range(n_queries):
        docs = [f"x{i}" for i in range(16)] + [f"d{d}" for d in range(4)]
        keys = rng.random(20) - boost * np.array([0] * 16 + [1] * 4)
        for rank, i in enumerate(np.argsort(keys), 1):
            lines.append(f"q{q} Q0 {docs[i]} {rank} {100 - rank} r\n")
    return "".join(lines)


@pytest.fixture(scope="module")
def runs():
    rng = np.random.default_rng(5)
    qrels = qrels_text()
    texts = [run_text(rng), run_text(rng, boost=0.6), run_text(rng, boost=0.05)]
    return [load_trec(qrels, t) for t in texts]


def test_each_pair_is_the_two_run_comparison_and_the_family_is_corrected_together(runs):
    result = many_runs.compare_many(runs[:3], ["base", "strong", "weak"], MEASURES, permutations=2000)
    raw = []
    for i, name in ((1, "strong"), (2, "weak")):
        pair = compare.compare_judged(runs[0], runs[i], MEASURES, "linear", permutations=2000)
        for m in pair.measures:
            assert result.versus[name, m].comparison.mean_diff == pair.measures[m].mean_diff
            raw.append((name, m, pair.measures[m].randomisation_p, pair.measures[m].t_test_p))
    holm_rand = corrections.adjust([r[2] for r in raw], "holm")
    holm_t = corrections.adjust([r[3] for r in raw], "holm")
    for (name, m, _, _), p_rand, p_t in zip(raw, holm_rand, holm_t):
        assert result.versus[name, m].p_rand == p_rand and result.versus[name, m].p_t == p_t
        assert result.versus[name, m].significant == (p_rand < 0.05)
    assert result.family == 6 and result.correction == "holm"
    assert result.versus["strong", "nDCG@10"].significant  # a real, large improvement survives


def test_a_raw_p_below_alpha_can_fail_to_survive_the_correction():
    rng = np.random.default_rng(11)
    qrels = qrels_text(12)
    base = load_trec(qrels, run_text(rng, 12))
    variants = [load_trec(qrels, run_text(rng, 12, boost=0.25)) for _ in range(5)]
    result = many_runs.compare_many([base, *variants], ["base", *"abcde"], MEASURES, permutations=2000)
    lost = [v for v in result.versus.values() if v.comparison.randomisation_p < 0.05 and not v.significant]
    assert lost, "with 15 comparisons, some raw wins should not survive Holm"
    bonferroni = many_runs.compare_many([base, *variants], ["base", *"abcde"], MEASURES, correction="bonferroni",
                                        permutations=2000)
    for pair, v in result.versus.items():
        assert v.p_rand <= bonferroni.versus[pair].p_rand + 1e-15


def test_a_run_that_never_ran_is_flagged_not_a_significant_loss(runs):
    broken_run = load_trec(qrels_text(), "".join(f"q{q} Q0 nothing 1 1 r\n" for q in range(30)))  # ids match none
    result = many_runs.compare_many([runs[0], runs[1], broken_run], ["base", "strong", "broken"], MEASURES,
                                    permutations=2000)
    assert result.flagged == ("broken",) and result.family == 3
    broken = [result.versus["broken", m] for m in MEASURES]
    assert all(v.comparison.mean_diff < 0 and not v.significant and math.isnan(v.p_rand) for v in broken)


def test_run_summaries_give_each_runs_own_mean_and_interval(runs):
    result = many_runs.compare_many(runs[:2], ["base", "strong"], ["nDCG@10"])
    summary = result.runs[1]
    assert summary.queries == 30 and not summary.never_ran
    low, high = summary.ci95["nDCG@10"]
    assert low < summary.mean["nDCG@10"] < high


def test_the_bootstrap_interval_sits_beside_the_t_interval(runs):
    v = many_runs.compare_many(runs[:2], ["base", "strong"], ["nDCG@10"]).versus["strong", "nDCG@10"]
    assert v.boot.method == "BCa" and v.boot.resamples == 10_000
    assert v.boot.contains(v.comparison.mean_diff)
    assert abs(v.boot.low - v.comparison.ci95[0]) < 0.05  # on 30 mild differences, the two nearly agree


def test_the_document_is_json(runs):
    document = many_runs.compare_many(runs[:3], ["base", "strong", "weak"], MEASURES).as_dict()
    text = json.dumps(document, allow_nan=False)
    assert json.loads(text)["versus_baseline"]["strong"]["RR"]["bootstrap"]["method"] == "BCa"
    assert document["baseline"] == "base" and document["family"] == 6


def test_bad_sets_of_runs_are_refused(runs):
    with pytest.raises(ValueError, match="2 to 10 runs"):
        many_runs.compare_many(runs[:1], ["base"], MEASURES)
    with pytest.raises(ValueError, match="repeat"):
        many_runs.compare_many(runs[:2], ["a", "a"], MEASURES)
    elsewhere = load_trec("z 0 a 1\nq0 0 d0 1\n", "z Q0 a 1 1 r\n")
    base = load_trec("z 0 a 1\nq0 0 d0 1\n", "q0 Q0 d0 1 1 r\n")
    with pytest.raises(ValueError, match="other against base"):
        many_runs.compare_many([base, elsewhere], ["base", "other"], MEASURES)


def test_each_runs_own_value_is_trec_evals_all_a_geometric_mean_a_sum_or_a_mean(runs):
    """Found by this session's review: with several runs, a run's own GMAP was the arithmetic mean of its floored
    APs and num_rel a mean, not trec_eval's "all" (0.202 where the one-run table said 0.071 on the samples)."""
    from components.engine.measures import aggregate, evaluate

    result = many_runs.compare_many(runs, ["A", "B", "C"], ["GMAP", "num_rel", "AP"], permutations=1000, resamples=1000)
    for judged, summary in zip(runs, result.runs):
        values = evaluate(judged.queries, ["GMAP", "num_rel", "AP"], gain="linear")
        assert summary.mean == {m: aggregate(m, v) for m, v in values.items()}
        logs = np.log(np.maximum(values["GMAP"], 0.00001))
        lo, hi = compare.confidence_interval(logs)
        assert summary.ci95["GMAP"] == pytest.approx((math.exp(lo), math.exp(hi)))
        assert summary.mean["GMAP"] < summary.mean["AP"] and lo < math.log(summary.mean["GMAP"]) < hi
        assert summary.mean["num_rel"] == values["num_rel"].sum()


def test_a_geometric_mean_is_compared_on_the_log_scale_and_its_paired_means_add_up(runs):
    """GMAP's paired columns were arithmetic means of the floored APs: "0.202 − 0.071" beside a GMAP that read
    0.071. Now the paired means are the geometric means over the shared queries (each one what the run alone
    scores on them), the difference is theirs, and the tests and both intervals run on the log ratios."""
    from components.engine.measures import aggregate

    result = many_runs.compare_many(runs, ["A", "B", "C"], ["GMAP", "AP"], permutations=2000, resamples=2000)
    for run in ("B", "C"):
        gmap, ap = result.versus[run, "GMAP"], result.versus[run, "AP"]
        c = gmap.comparison
        assert c.geometric and not ap.comparison.geometric
        assert c.mean_a == pytest.approx(aggregate("GMAP", c.a)) and c.mean_b == pytest.approx(aggregate("GMAP", c.b))
        assert c.mean_b - c.mean_a == pytest.approx(c.mean_diff)
        logs = np.log(c.b) - np.log(c.a)
        t, p = compare.t_test(np.log(c.a), np.log(c.b))
        assert c.t_test_p == pytest.approx(p)
        lo, hi = compare.confidence_interval(logs)
        assert c.ci95 == pytest.approx((c.mean_a * math.expm1(lo), c.mean_a * math.expm1(hi)))
        assert c.ci95[0] < c.mean_diff < c.ci95[1] and gmap.boot.low < c.mean_diff < gmap.boot.high
        assert c.randomisation_p == compare.randomisation(logs, 2000, compare.SEED).p
        assert ap.comparison.mean_a == pytest.approx(c.a.mean())  # an arithmetic mean stays one
    assert result.versus["B", "GMAP"].comparison.mean_diff > 0  # B's boost puts its relevant documents earlier
