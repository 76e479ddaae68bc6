"""Run fusion (components/engine/fusion.py): hand-computed cases, the usual mistakes, a plain reference for
generated runs, and the written run read back in the same order."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from components.engine import fusion, model
from tests.unit.file_readers import read_qrels, read_run

LEXICAL = "q1 Q0 a 1 9.0 bm25\nq1 Q0 b 2 8.0 bm25\nq1 Q0 c 3 7.0 bm25\nq2 Q0 a 1 5.0 bm25\n"
DENSE = "q1 Q0 b 1 0.9 dense\nq1 Q0 d 2 0.8 dense\nq1 Q0 a 3 0.5 dense\nq3 Q0 z 1 0.1 dense\n"


def rows(fused: fusion.Fused) -> list[tuple[str, str, int, float]]:
    return [(fused.qids[q], d.decode(), int(r), float(s))
            for q, d, r, s in zip(fused.qidx, fused.docids, fused.rank, fused.score)]


def runs(*texts: str) -> list[model.Run]:
    return [read_run(text) for text in texts]


def test_rrf_by_hand_ranks_from_one_and_invents_nothing():
    fused = rows(fusion.fuse(runs(LEXICAL, DENSE)))
    assert fused == [
        ("q1", "b", 1, pytest.approx(1 / 62 + 1 / 61)),
        ("q1", "a", 2, pytest.approx(1 / 61 + 1 / 63)),
        ("q1", "d", 3, pytest.approx(1 / 62)),  # in one run only: nothing added for the other
        ("q1", "c", 4, pytest.approx(1 / 63)),
        ("q2", "a", 1, pytest.approx(1 / 61)),  # queries in order of first appearance: the first run's, then new ones
        ("q3", "z", 1, pytest.approx(1 / 61)),
    ]
    assert rows(fusion.fuse(runs(LEXICAL, DENSE), k=1))[0] == ("q1", "b", 1, pytest.approx(1 / 3 + 1 / 2))
    assert fusion.fuse(runs(LEXICAL, DENSE)).runs.tolist() == [2, 2, 1, 1, 1, 1]


def test_the_usual_mistakes_give_other_numbers():
    """0-based ranks, a rank invented for a missing document, or the max instead of the sum: each differs."""
    b_score = rows(fusion.fuse(runs(LEXICAL, DENSE)))[0][3]
    assert b_score != pytest.approx(1 / 61 + 1 / 60)  # ranks from 0
    d_score = rows(fusion.fuse(runs(LEXICAL, DENSE)))[2][3]
    assert d_score != pytest.approx(1 / 62 + 1 / (60 + 4))  # d given the rank after the lexical list's last
    assert b_score != pytest.approx(max(1 / 62, 1 / 61))  # max, not sum


def test_combsum_and_combmnz_by_hand_with_each_normalisation():
    two = runs(LEXICAL, DENSE)
    assert rows(fusion.fuse(two, "combsum"))[:4] == [
        ("q1", "a", 1, pytest.approx(9.5)), ("q1", "b", 2, pytest.approx(8.9)),
        ("q1", "c", 3, pytest.approx(7.0)), ("q1", "d", 4, pytest.approx(0.8))]
    # minmax over q1: lexical a 1, b 0.5, c 0; dense b 1, d 0.75, a 0; one row (q2, q3): 0
    assert rows(fusion.fuse(two, "combsum", norm="minmax")) == [
        ("q1", "b", 1, pytest.approx(1.5)), ("q1", "a", 2, pytest.approx(1.0)), ("q1", "d", 3, pytest.approx(0.75)),
        ("q1", "c", 4, pytest.approx(0.0)), ("q2", "a", 1, 0.0), ("q3", "z", 1, 0.0)]
    assert rows(fusion.fuse(two, "combmnz", norm="minmax"))[:3] == [
        ("q1", "b", 1, pytest.approx(3.0)), ("q1", "a", 2, pytest.approx(2.0)), ("q1", "d", 3, pytest.approx(0.75))]
    z = np.array([9.0, 8.0, 7.0])
    zl = (z - z.mean()) / z.std()
    dz = np.array([0.9, 0.8, 0.5])
    zd = (dz - dz.mean()) / dz.std()
    got = dict(((d, s) for _, d, _, s in rows(fusion.fuse(two, "combsum", norm="zscore"))[:4]))
    assert got == {"a": pytest.approx(zl[0] + zd[2]), "b": pytest.approx(zl[1] + zd[0]), "c": pytest.approx(zl[2]),
                   "d": pytest.approx(zd[1])}


def test_depth_keeps_each_runs_top_n():
    fused = rows(fusion.fuse(runs(LEXICAL, DENSE), depth=1))
    assert fused == [("q1", "b", 1, pytest.approx(1 / 61)), ("q1", "a", 2, pytest.approx(1 / 61)),  # a tie: docid
                     ("q2", "a", 1, pytest.approx(1 / 61)), ("q3", "z", 1, pytest.approx(1 / 61))]  # descending


def test_inputs_are_read_in_trec_evals_order_not_by_their_rank_column():
    """The file's rank column is ignored: score descending, ties by docid descending, as trec_eval reads it."""
    shuffled = "q1 Q0 a 3 1.0 x\nq1 Q0 b 1 1.0 x\nq1 Q0 c 2 2.0 x\n"  # trec_eval's order: c, b, a
    fused = rows(fusion.fuse(runs(shuffled, "q1 Q0 z 1 1 y\n")))
    assert [(d, s) for _, d, _, s in fused] == [("z", pytest.approx(1 / 61)), ("c", pytest.approx(1 / 61)),
                                                ("b", pytest.approx(1 / 62)), ("a", pytest.approx(1 / 63))]


@pytest.mark.parametrize("call, message", [
    (lambda r: fusion.fuse(r[:1]), "two runs or more"),
    (lambda r: fusion.fuse(r, "max"), "method must be one of"),
    (lambda r: fusion.fuse(r, norm="minmax"), "rrf fuses ranks"),
    (lambda r: fusion.fuse(r, "combsum", norm="l2"), "norm must be one of"),
    (lambda r: fusion.fuse(r, k=0), "k must be a positive number"),
    (lambda r: fusion.fuse(r, k=float("nan")), "k must be a positive number"),
    (lambda r: fusion.fuse(r, depth=0), "depth must be 1 or more"),
])
def test_bad_options_are_refused_by_name(call, message):
    with pytest.raises(ValueError, match=message):
        call(runs(LEXICAL, DENSE))


def reference(texts: list[str], method: str, k: float, norm: str, depth: int | None) -> dict[str, dict[str, float]]:
    """Fusion written plainly, a dict per query, for comparison."""
    fused: dict[str, dict[str, float]] = {}
    held: dict[str, dict[str, int]] = {}
    for text in texts:
        by_query: dict[str, list[tuple[str, float]]] = {}
        for line in text.splitlines():
            qid, _, doc, _, score, _ = line.split()
            by_query.setdefault(qid, []).append((doc, float(score)))
        for qid, docs in by_query.items():
            by_docid = sorted(docs, key=lambda d: d[0].encode(), reverse=True)  # ties: docid descending
            ranked = sorted(by_docid, key=lambda d: -np.float32(d[1]))[:depth]  # a stable sort keeps that
            scores = np.array([s for _, s in ranked])
            if norm == "minmax":
                spread = scores.max() - scores.min()
                scores = (scores - scores.min()) / spread if spread > 0 else np.zeros_like(scores)
            elif norm == "zscore":
                spread = scores.std()
                scores = (scores - scores.mean()) / spread if spread > 0 else np.zeros_like(scores)
            for rank, ((doc, _), score) in enumerate(zip(ranked, scores), 1):
                value = 1 / (k + rank) if method == "rrf" else float(score)
                fused.setdefault(qid, {})[doc] = fused.get(qid, {}).get(doc, 0.0) + value
                held.setdefault(qid, {})[doc] = held.get(qid, {}).get(doc, 0) + 1
    if method == "combmnz":
        fused = {q: {d: s * held[q][d] for d, s in docs.items()} for q, docs in fused.items()}
    return fused


def run_texts(draw_runs: int = 3):
    doc = st.sampled_from(["a", "b", "c", "d", "e", "f", "D10", "d9"])
    one_query = st.lists(st.tuples(doc, st.integers(-3, 3).map(float)), min_size=1, max_size=6,
                         unique_by=lambda t: t[0])
    one_run = st.dictionaries(st.sampled_from(["q1", "q2", "q3"]), one_query, min_size=1, max_size=3)
    return st.lists(one_run, min_size=2, max_size=draw_runs).map(
        lambda rs: ["".join(f"{q} Q0 {d} 0 {s} t\n" for q, docs in r.items() for d, s in docs) for r in rs])


@given(run_texts(), st.sampled_from([("rrf", "none"), ("combsum", "none"), ("combsum", "minmax"),
                                     ("combmnz", "zscore"), ("combmnz", "none")]),
       st.sampled_from([60, 1, 2.5]), st.sampled_from([None, 1, 3]))
def test_generated_runs_fuse_as_the_plain_reference_and_read_back_in_the_same_order(texts, how, k, depth):
    method, norm = how
    fused = fusion.fuse(runs(*texts), method, k=k, norm=norm, depth=depth)
    expected = reference(texts, method, k, norm, depth)
    got: dict[str, dict[str, float]] = {}
    for qid, doc, _, score in rows(fused):
        got.setdefault(qid, {})[doc] = score
    assert got.keys() == expected.keys()
    for qid in expected:
        assert got[qid] == pytest.approx(expected[qid], abs=1e-12)
    again = read_run(fusion.to_trec(fused))  # trec_eval's order of the written run is the fused order
    assert [(again.qids[q], d) for q, d in zip(again.qidx, again.docids)] == \
        [(fused.qids[q], d) for q, d in zip(fused.qidx, fused.docids)]
    assert again.rank.tolist() == fused.rank.tolist()


def test_rankwise_fuse_writes_the_fused_run_and_refuses_bad_options_by_name(tmp_path, capsys):
    from components.cli import main

    lexical, dense = tmp_path / "lexical.txt", tmp_path / "dense.jsonl"
    lexical.write_text(LEXICAL)
    dense.write_text("".join(f'{{"qid": "{q}", "docid": "{d}", "score": {s}}}\n'
                             for q, d, s in [("q1", "b", 0.9), ("q1", "d", 0.8), ("q1", "a", 0.5), ("q3", "z", 0.1)]))
    assert main(["fuse", str(lexical), str(dense), "--tag", "hybrid"]) == 0
    out = capsys.readouterr().out
    assert out == fusion.to_trec(fusion.fuse(runs(LEXICAL, DENSE)), "hybrid")  # a JSONL run reads as its TREC twin
    assert main(["fuse", str(lexical), str(dense), "--method", "combmnz", "--norm", "minmax", "--depth", "2"]) == 0
    assert capsys.readouterr().out == fusion.to_trec(fusion.fuse(runs(LEXICAL, DENSE), "combmnz", norm="minmax",
                                                                 depth=2))
    for args, said in [([str(lexical)], "fuse needs two runs or more"),
                       ([str(lexical), str(dense), "--norm", "zscore"], "--norm is for combsum and combmnz"),
                       ([str(lexical), str(dense), "--method", "combsum", "--rrf-k", "10"], "does not use it"),
                       ([str(lexical), str(lexical)], "a run is given twice"),
                       ([str(lexical), str(dense), "--tag", "a b"], "expected a tag without spaces")]:
        with pytest.raises(SystemExit) as exit_:
            main(["fuse", *args])
        assert exit_.value.code == 2 and said in capsys.readouterr().err, args
    assert main(["fuse", str(lexical), str(tmp_path / "missing.txt")]) == 1
    assert "cannot read" in capsys.readouterr().err
    spaced = tmp_path / "spaced.jsonl"
    spaced.write_text('{"qid": "q1", "docid": "doc 7", "score": 1}\n')
    assert main(["fuse", str(lexical), str(spaced)]) == 1  # a TREC run cannot carry it: refused by name
    assert capsys.readouterr().err.startswith(f"error: {spaced}, line 1: found docid 'doc 7' of query 'q1', which "
                                              "contains whitespace")


STORED = json.loads((Path(__file__).with_name("data") / "ranx_fusion.json").read_text())
RANX = STORED["cases"]


@pytest.mark.parametrize("case", RANX, ids=lambda c: f"{c['method']}-{c['norm']}-k{c['k']}")
def test_generated_runs_without_ties_fuse_as_ranx_does(case):
    """ranx 0.3.21's ``fuse`` (rrf, sum, mnz; min-max and zmuv) on runs whose scores do not tie within a query
    (tests/unit/data/make_ranx_fusion.py made the file): the same documents, scores and order."""
    texts = ["".join(f"{q} Q0 {d} 0 {s!r} t\n" for q, docs in run.items() for d, s in docs.items())
             for run in case["runs"]]
    fused = fusion.fuse(runs(*texts), case["method"], k=case["k"], norm=case["norm"])
    got: dict[str, dict[str, float]] = {}
    for qid, doc, _, score in rows(fused):
        got.setdefault(qid, {})[doc] = score
    assert got.keys() == case["fused"].keys()
    for qid, expected in case["fused"].items():
        assert got[qid] == pytest.approx(expected, rel=1e-9, abs=1e-12)
        ours = [d for q, d, _, _ in rows(fused) if q == qid]
        theirs = sorted(expected, key=lambda d: -expected[d])
        distinct = len(set(expected.values())) == len(expected)
        assert not distinct or ours == theirs, qid  # where ranx's fused scores do not tie, the same order


def test_the_hybrid_lessons_take_home_fuses_again_to_the_pages_scores(tmp_path, capsys):
    """The lesson's take-home: ``rankwise fuse`` on its two run files writes its fused.run, and its ranx snippet
    (run by tests/unit/data/make_ranx_fusion.py on the same files, ranx 0.3.21) printed the page's fused list."""
    from components.cli import main
    from components.course import hybrid

    lists = tuple(hybrid.Q.presets[name] for name in hybrid.RANKERS)
    pack = hybrid.take_home(lists, fusion.RRF_K)
    for name, text in pack.files.items():
        (tmp_path / name).write_text(text)
    words = pack.command.split()
    assert words[:2] == ["rankwise", "fuse"] and words[-2:] == [">", hybrid.FUSED_RUN]
    assert main([word if not word.endswith(".run") else str(tmp_path / word) for word in words[1:-2]]) == 0
    assert capsys.readouterr().out == pack.files[hybrid.FUSED_RUN]
    assert STORED["lesson"] == {"snippet": pack.ranx, "printed": pack.expected + "\n"}
    assert pack.expected.splitlines() == [f"{doc} {score:.4f}" for doc, score in hybrid.fused(lists, fusion.RRF_K)]
    judged = model.judge(read_qrels(pack.files[hybrid.QRELS_FILE]), read_run(pack.files["bm25.run"]))
    assert judged.queries.n_queries == 1  # the qrels and runs share their query id


def test_a_fused_run_of_ids_with_spaces_goes_through_json_in_the_same_order():
    """Compare runs adds the fused run as a file: JSON, since TREC text cannot carry "doc 221" (found when ids with
    spaces became legal in JSON and CSV). Read back, it is the fused run: the same rows, order and scores, ties
    included."""
    from components.formats import readers

    a = read_run(b'{"q 1": {"doc a": 3, "doc b": 2, "doc c": 1}, "q 2": {"x y": 1}}', "a.json")
    b = read_run(b'{"q 1": {"doc c": 3, "doc b": 2, "doc a": 1}}', "b.json")
    fused = fusion.fuse([a, b])
    back = readers.read(fusion.to_json(fused).encode(), "run", "fused.json").parsed
    expected = fusion.as_run(fused)
    assert [back.qids[q] for q in back.qidx] == [expected.qids[q] for q in expected.qidx]
    assert back.docids.tolist() == expected.docids.tolist() and back.score.tolist() == expected.score.tolist()
    assert [d.decode() for d in back.docids[:3]] == ["doc c", "doc a", "doc b"]  # a and c tie: docid descending
