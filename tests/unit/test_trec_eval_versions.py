"""trec_eval 9.0.7 against 10.0 (issue #44, item 7): where they differ, IPrec@x and 11pt_avg, each version's numbers;
9.0.7's are pytrec_eval's. `rankwise eval` follows 10.0 unless told `--trec-eval 9`."""
from __future__ import annotations

import json

import pytest
import pytrec_eval

from components.engine import metrics
from components.engine.measures import evaluate
from tests.unit.file_readers import load_trec

# R = 4; the run finds a, b and c at ranks 1, 3 and 6 (d never): recall 0.6 of R is 2.4 relevant documents, the 3rd
# in 9.0.7 (2.4 + 0.9, truncated) and the 2nd in 10.0 (2.4 rounded). From the 3rd on, the best precision is P@6 = 0.5;
# from the 2nd on, P@3 = 2/3.
QRELS = "q1 0 a 1\nq1 0 b 1\nq1 0 c 1\nq1 0 d 1\n"
RUN = "".join(f"q1 Q0 {doc} {rank} {10 - rank} r\n" for rank, doc in enumerate(["a", "x", "b", "y", "z", "c"], 1))


def pytrec(measure: str, name: str) -> float:
    qrels = {"q1": {d: 1 for d in "abcd"}}
    run = {"q1": {doc: float(10 - rank) for rank, doc in enumerate(["a", "x", "b", "y", "z", "c"], 1)}}
    return pytrec_eval.RelevanceEvaluator(qrels, {measure}).evaluate(run)["q1"][name]


@pytest.mark.parametrize("levels, r, nine, ten", [([0.6], 4, 3, 2), ([0.4], 3, 2, 1), ([0.5], 4, 2, 2),
                                                  ([0.0], 7, 1, 1), ([1.0], 5, 5, 5), ([0.3], 5, 2, 2)])
def test_each_version_counts_the_relevant_documents_a_recall_level_needs_its_own_way(levels, r, nine, ten):
    assert metrics.recall_cutoff(levels, [r], "9").tolist() == [[nine]]
    assert metrics.recall_cutoff(levels, [r], "10").tolist() == [[ten]]


def test_the_engine_gives_9s_numbers_as_pytrec_eval_and_10s_where_they_differ():
    queries = load_trec(QRELS, RUN).queries
    nine, ten = (evaluate(queries, ["IPrec@0.6", "11pt_avg"], "linear", version) for version in ("9", "10"))
    assert nine["IPrec@0.6"][0] == pytest.approx(pytrec("iprec_at_recall", "iprec_at_recall_0.60")) == 0.5
    assert nine["11pt_avg"][0] == pytest.approx(pytrec("11pt_avg", "11pt_avg"))
    assert ten["IPrec@0.6"][0] == pytest.approx(2 / 3)
    assert ten["11pt_avg"][0] != pytest.approx(nine["11pt_avg"][0])
    same = (evaluate(queries, ["AP", "R@5", "P@5"], "linear", version) for version in ("9", "10"))
    assert [v.tolist() for v in next(same).values()] == [v.tolist() for v in next(same).values()]
    with pytest.raises(ValueError, match="trec_eval must be one of"):
        evaluate(queries, ["AP"], "linear", "8")  # type: ignore[arg-type]


def test_rankwise_eval_follows_10_and_9_when_told(tmp_path, capsys):
    from components.cli import main

    (tmp_path / "qrels").write_text(QRELS)
    (tmp_path / "run").write_text(RUN)
    values = {}
    for flags in ([], ["--trec-eval", "10"], ["--trec-eval", "9"]):
        assert main(["eval", str(tmp_path / "qrels"), str(tmp_path / "run"), "-m", "IPrec@0.6", "--json", *flags]) == 0
        values[tuple(flags)] = json.loads(capsys.readouterr().out)["mean"]["IPrec@0.6"]
    assert values[()] == values[("--trec-eval", "10")] == pytest.approx(2 / 3)
    assert values[("--trec-eval", "9")] == 0.5
