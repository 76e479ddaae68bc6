"""infAP, gm_bpref, 11pt_avg and Rprec_mult (issue #44): small cases worked by hand, and pytrec_eval with the
negative grades that infAP reads as "in the pool, but not judged".

pytrec-eval-terrier 0.5.11 corrupts its heap when a query's judgments are all negative (a segmentation fault a few
evaluations later; see test_metrics_oracle.py), so the generated cases go to pytrec_eval in one subprocess of their
own, each query with at least one grade of 0 or more (a never-returned document judged 0, which changes no value,
where the draw gave none). The same measures are checked in process on test_metrics_oracle.py's generated query
sets, with the negative grades left out.
"""
import io
import json
import random
import subprocess
import sys
import tempfile
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import numpy as np
import pytest

from components.cli.evaluate import eval_main
from components.engine import measures
from components.engine import metrics as m

pytest.importorskip("pytrec_eval", reason="pytrec-eval-terrier is the test oracle")

EPS = m.INFAP_EPSILON
MULTIPLES = [f"Rprec_mult@{x:g}" for x in measures.R_MULTIPLES]
OURS = ["infAP", "bpref", "gm_bpref", "11pt_avg", "AP", *MULTIPLES]


# --- worked by hand --------------------------------------------------------------------------------------------

def test_infap_estimates_precision_from_the_judged_share_of_the_pool_above():
    """Returned: relevant, pooled not judged (-1), relevant, not pooled, judged non-relevant, relevant; R = 4.

    Rank 1: 1. Rank 3: 2 pooled above, 1 of 1 judged relevant: (1 + 2 (1 + ε)/(1 + 2ε)) / 3. Rank 6: 4 pooled
    above (the unpooled one is not), 2 of 3 judged relevant: (1 + 4 (2 + ε)/(3 + 2ε)) / 6.
    """
    qs = m.from_rankings([[1, -1, 2, None, 0, 1]], [[1, -1, 2, 0, 1, 1, -2]])
    expected = (1 + (1 + 2 * (1 + EPS) / (1 + 2 * EPS)) / 3 + (1 + 4 * (2 + EPS) / (3 + 2 * EPS)) / 6) / 4
    assert m.inferred_average_precision(qs)[0] == pytest.approx(expected, rel=1e-12)


def test_infap_is_ap_when_every_pooled_document_is_judged():
    qs = m.from_rankings([[0, 1, None, 1, 0, 2], [None, 1]], [[0, 1, 1, 0, 2, 3], [1, 0]])
    assert m.inferred_average_precision(qs) == pytest.approx(m.average_precision(qs), abs=EPS)
    assert not np.array_equal(m.inferred_average_precision(qs), m.average_precision(qs))  # ε is there


def test_infap_reads_a_negative_grade_unlike_the_other_measures():
    """A document the sample left out (-1) above a relevant one raises infAP's estimate, an unpooled one does not;
    AP and P count both as non-relevant."""
    sampled, unpooled = m.from_rankings([[1, -1, 1]], [[1, -1, 1]]), m.from_rankings([[1, None, 1]], [[1, 1]])
    assert m.inferred_average_precision(sampled)[0] == pytest.approx((1 + (1 + 2 * (1 + EPS) / (1 + 2 * EPS)) / 3) / 2)
    assert m.inferred_average_precision(unpooled)[0] == pytest.approx((1 + (1 + (1 + EPS) / (1 + 2 * EPS)) / 3) / 2)
    assert m.average_precision(sampled)[0] == m.average_precision(unpooled)[0] == pytest.approx((1 + 2 / 3) / 2)


@pytest.mark.parametrize("relevant, multiple, cutoff", [
    (2, 0.2, 1),  # 0.4 + 0.9: P@1, where rounding 0.4 would give P@0
    (4, 0.6, 3),  # 2.4 + 0.9: P@3, where rounding 2.4 would give P@2
    (5, 0.2, 1), (5, 1.0, 5), (5, 1.4, 7), (3, 2.0, 6), (10, 0.2, 2), (10, 1.8, 18),
])
def test_rprec_mult_is_precision_at_trec_evals_cutoff(relevant, multiple, cutoff):
    ranking = [1, 0] * 12  # relevant at ranks 1, 3, 5, ...: a list of 24, longer than every cutoff here
    qs = m.from_rankings([ranking], [[1] * relevant])
    assert m.r_precision_at_multiple(qs, multiple)[0] == m.precision(qs, cutoff)[0]


def test_rprec_mult_past_the_list_divides_by_the_cutoff_and_at_one_is_r_prec():
    qs = m.from_rankings([[1, 1, 0], [0, 1]], [[1, 1, 1, 1], [1]])  # R = 4 and 1
    assert m.r_precision_at_multiple(qs, 2.0).tolist() == [2 / 8, 1 / 2]  # P@8 of a list of 3, P@2
    assert m.r_precision_at_multiple(qs, 1.0).tolist() == m.r_precision(qs).tolist()
    assert m.r_precision_at_multiple(m.from_rankings([[0, 1]], [[0]]), 1.0).tolist() == [0.0]  # R = 0


def test_11pt_avg_is_the_mean_of_the_eleven_interpolated_precisions():
    qs = m.from_rankings([[0, 1, 0, 0, 1, 1, 0, 1], [1], [0, 0]], [[1] * 6, [1, 0], [1]])
    levels = np.array([m.interpolated_precision(qs, x / 10) for x in range(11)])
    np.testing.assert_allclose(m.eleven_point_average(qs), levels.mean(axis=0), rtol=1e-15)
    # query 1, R = 6, hits at 2, 5, 6, 8 (precision 1/2, 2/5, 1/2, 1/2): the levels 0 to 0.6 (c = ⌊6x + 0.9⌋
    # up to 4) read 1/2; the levels 0.7 to 1.0 (c = 5, 6) are never reached: (7 × 1/2 + 4 × 0) / 11
    assert m.eleven_point_average(qs)[0] == pytest.approx(3.5 / 11)


def test_gm_bpref_is_the_geometric_mean_of_bpref_floored():
    qs = m.from_rankings([[1, 0], [0, 1], [0]], [[1, 0], [1, 0], [1, 0]])  # bpref 1, 0, 0
    floored = measures.evaluate(qs, ["gm_bpref"], "linear")["gm_bpref"]
    assert floored.tolist() == [1.0, m.MIN_GEO_MEAN, m.MIN_GEO_MEAN]
    assert measures.aggregate("gm_bpref", floored) == pytest.approx(m.MIN_GEO_MEAN ** (2 / 3))


# --- pytrec_eval, negative grades given ------------------------------------------------------------------------

ORACLE_SCRIPT = """
import json, sys, pytrec_eval
out = []
for case in json.load(sys.stdin):
    evaluator = pytrec_eval.RelevanceEvaluator(case["qrel"], {"infAP", "bpref", "gm_bpref", "11pt_avg", "map",
                                                              "Rprec_mult"}, relevance_level=case["level"],
                                               judged_docs_only_flag=case["judged_only"])
    out.append(evaluator.evaluate(case["run"]))
print(json.dumps(out))
"""


def trec_eval_in_a_subprocess(cases: list[dict]) -> list[dict]:
    """pytrec_eval's values for each case ({"qrel", "run", "level", "judged_only"}), from a process of its own."""
    done = subprocess.run([sys.executable, "-c", ORACLE_SCRIPT], input=json.dumps(cases), capture_output=True,
                          text=True, check=True)
    return json.loads(done.stdout)


def generated_queries(rng: random.Random) -> list[tuple[dict[str, int], list[str]]]:
    """1 to 4 queries: judgments with grades -2..3 (a negative grade: pooled, left out of the judged sample), and a
    non-empty returned list mixing them with documents never pooled (u*)."""
    queries = []
    for _ in range(rng.randint(1, 4)):
        judged = {f"d{i}": rng.choice([-2, -1, -1, 0, 0, 1, 1, 2, 3]) for i in rng.sample(range(14), rng.randint(1, 12))}
        if max(judged.values()) < 0:
            judged["never-returned"] = 0  # pytrec_eval's heap: a query needs a grade of 0 or more
        pool = [doc for doc in judged if doc != "never-returned"] + [f"u{i}" for i in range(4)]
        queries.append((judged, rng.sample(pool, rng.randint(1, len(pool)))))
    return queries


def as_oracle_case(queries, level: int, judged_only: bool) -> dict:
    # strictly decreasing scores: the list's order is the ranking, with no tie rule involved
    return {"qrel": {f"q{q}": judged for q, (judged, _) in enumerate(queries)},
            "run": {f"q{q}": {doc: float(100 - i) for i, doc in enumerate(returned)}
                    for q, (_, returned) in enumerate(queries)},
            "level": level, "judged_only": judged_only}


def ours(queries, level: int, judged_only: bool) -> dict[str, np.ndarray]:
    qs = m.from_rankings([[judged.get(doc) for doc in returned] for judged, returned in queries],
                         [list(judged.values()) for judged, _ in queries])
    qs = m.with_relevance_level(qs, level)
    return measures.evaluate(m.judged_only(qs) if judged_only else qs, OURS, gain="linear")


def test_generated_sampled_pools_agree_with_pytrec_eval():
    """infAP, bpref, gm_bpref, 11pt_avg, AP and Rprec_mult at trec_eval's ten multiples, per query and for the
    set, on 150 generated query sets with negative grades, at relevance levels 1 and 2, with and without -J."""
    rng = random.Random(44)
    drawn = [(generated_queries(rng), rng.randint(1, 2), rng.random() < 0.3) for _ in range(150)]
    expected = trec_eval_in_a_subprocess([as_oracle_case(*case) for case in drawn])
    for (queries, level, judged_only), theirs in zip(drawn, expected):
        for name, values in ours(queries, level, judged_only).items():
            trec = measures.trec_name(name)
            want = np.array([theirs[f"q{q}"][trec] for q in range(len(queries))])
            if judged_only:  # a query -J leaves with no document: trec_eval's 11pt_avg is 0/0, Rankwise's 0
                want = np.where(np.isnan(want), 0.0, want)
            got = np.log(values) if measures.aggregation(name) == measures.GEOMETRIC_MEAN else values
            np.testing.assert_allclose(got, want, atol=1e-12, err_msg=f"{name} {level} {judged_only} {queries}")


# --- rankwise eval on files: the reader's negative grades, and trec_eval's layout ------------------------------

QRELS = """\
1 0 a 1
1 0 b -1
1 0 c 2
1 0 e 0
1 0 f 1
1 0 g -2
2 0 h 1
2 0 i -1
2 0 j 0
"""
RUN = """\
1 Q0 a 1 9 tag
1 Q0 b 2 8 tag
1 Q0 c 3 7 tag
1 Q0 d 4 6 tag
1 Q0 e 5 5 tag
1 Q0 f 6 4 tag
1 Q0 g 7 3 tag
2 Q0 i 1 3 tag
2 Q0 j 2 2 tag
2 Q0 x 3 1 tag
"""
NAMES = ["infAP", "gm_bpref", "11pt_avg", "Rprec_mult.0.2,1.4,2", "bpref"]


def rankwise_eval(*args: str) -> str:
    with tempfile.TemporaryDirectory() as folder:
        qrels, run = Path(folder, "qrels"), Path(folder, "run")
        qrels.write_text(QRELS)
        run.write_text(RUN)
        out = io.StringIO()
        with redirect_stdout(out), redirect_stderr(io.StringIO()):
            assert eval_main([str(qrels), str(run), "--trec-eval", "9", *args]) == 0  # pytrec_eval's trec_eval
    return out.getvalue()


def test_files_with_negative_grades_give_pytrec_evals_values_and_its_layout():
    per_query = json.loads(rankwise_eval("--json", "-q", *(a for n in NAMES for a in ("-m", n))))["per_query"]
    qrel = {q: {} for q in ("1", "2")}
    for line in QRELS.splitlines():
        q, _, doc, grade = line.split()
        qrel[q][doc] = int(grade)
    run = {q: {} for q in ("1", "2")}
    for line in RUN.splitlines():
        q, _, doc, _, score, _ = line.split()
        run[q][doc] = float(score)
    [expected] = trec_eval_in_a_subprocess([{"qrel": qrel, "run": run, "level": 1, "judged_only": False}])
    for qid, values in per_query.items():
        for name, value in values.items():
            theirs = expected[qid][measures.trec_name(name)]
            assert (np.log(value) if name == "gm_bpref" else value) == pytest.approx(theirs, abs=1e-12), (qid, name)
    # query 1: relevant a (rank 1), c (3: b pooled above, a judged relevant), f (6: 4 pooled above, 2 of 3 relevant)
    assert per_query["1"]["infAP"] == pytest.approx(
        (1 + (1 + 2 * (1 + EPS) / (1 + 2 * EPS)) / 3 + (1 + 4 * (2 + EPS) / (3 + 2 * EPS)) / 6) / 3)
    printed = rankwise_eval("--format", "trec", "-q", *(a for n in NAMES for a in ("-m", n)))
    rows = [line.split("\t") for line in printed.splitlines()]
    assert [name.strip() for name, qid, _ in rows if qid == "all"] == [
        "bpref", "infAP", "gm_bpref", "Rprec_mult_0.20", "Rprec_mult_1.40", "Rprec_mult_2.00", "11pt_avg"]
    assert [name.strip() for name, qid, _ in rows if qid == "1"] == [
        "bpref", "infAP", "Rprec_mult_0.20", "Rprec_mult_1.40", "Rprec_mult_2.00", "11pt_avg"]  # gm_bpref: all only
