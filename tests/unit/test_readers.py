"""The front door: every format detected from its content, read to the same qrels and run, and the same numbers
as trec_eval (pytrec_eval); counting chunks as documents; what a reader understood; the samples."""
from __future__ import annotations

import importlib.util
import io
import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from components.engine import model
from components.engine.measures import evaluate
from components.formats import chunks, readers
from components.formats.json_formats import Fields
from tests.unit.file_readers import load_trec, read_pair, read_qrels, read_run

pytrec_eval = pytest.importorskip("pytrec_eval", reason="pytrec-eval-terrier is the test oracle")

ASSETS = Path(__file__).resolve().parents[2] / "assets"
SAMPLE_QRELS, SAMPLE_RUN = ASSETS / "sample_qrels.txt", ASSETS / "sample_run.txt"
MEASURES = ["R@5", "P@5", "nDCG@10", "RR", "Success@1"]
ORACLE = {"R@5": "recall_5", "P@5": "P_5", "nDCG@10": "ndcg_cut_10", "RR": "recip_rank", "Success@1": "success_1"}


# --- a pair written in every format -------------------------------------------------------------------

def judgments_of(qrels_text: str) -> dict[str, dict[str, int]]:
    judged: dict[str, dict[str, int]] = {}
    for qid, _, doc, grade in (line.split() for line in qrels_text.splitlines()):
        judged.setdefault(qid, {})[doc] = int(grade)
    return judged


def results_of(run_text: str) -> dict[str, dict[str, float]]:
    """qid -> docid -> score, each query's documents in the file's order."""
    ranked: dict[str, dict[str, float]] = {}
    for qid, _, doc, _, score, _ in (line.split() for line in run_text.splitlines()):
        ranked.setdefault(qid, {})[doc] = float(score)
    return ranked


def in_trec_order(docs: dict[str, float]) -> list[str]:
    return sorted(docs, key=lambda d: (np.float32(docs[d]), d.encode()), reverse=True)


def qrels_formats(qrels_text: str) -> dict[str, bytes]:
    judged = judgments_of(qrels_text)
    return {
        "trec": qrels_text.encode(),
        "tsv": ("query-id\tcorpus-id\tscore\n" + "".join(f"{q}\t{d}\t{g}\n" for q, docs in judged.items()
                                                      for d, g in docs.items())).encode(),
        "json": json.dumps(judged).encode(),
        "jsonl": "".join(json.dumps({"query_id": q, "judgments": [{"id": d, "grade": g} for d, g in docs.items()]})
                         + "\n" for q, docs in judged.items()).encode(),
    }


def run_formats(run_text: str) -> dict[str, bytes]:
    ranked = results_of(run_text)
    orders = {q: in_trec_order(docs) for q, docs in ranked.items()}
    return {
        "trec": run_text.encode(),
        "csv": ("qid,docid,score\n" + "".join(f"{q},{d},{s!r}\n" for q, docs in ranked.items()
                                              for d, s in docs.items())).encode(),
        "json": json.dumps(ranked).encode(),
        "jsonl": "".join(json.dumps({"qid": q, "retrieved_ids": order, "scores": [ranked[q][d] for d in order]})
                         + "\n" for q, order in orders.items()).encode(),
        "jsonl-order": "".join(json.dumps({"qid": q, "retrieved_ids": order}) + "\n"  # the list's order only
                               for q, order in orders.items()).encode(),
    }


def assert_same_judged_run(a: model.JudgedRun, b: model.JudgedRun) -> None:
    assert a.qids == b.qids and a.qrels_only == b.qrels_only and a.run_only == b.run_only
    for field in ("qidx", "rank", "grade", "judged_qidx", "judged_grade"):
        np.testing.assert_array_equal(getattr(a.queries, field), getattr(b.queries, field), err_msg=field)
    assert a.docids.tolist() == b.docids.tolist()


def assert_equals_pytrec_eval(judged: model.JudgedRun, qrels_text: str, run_text: str) -> None:
    ours = evaluate(judged.queries, MEASURES, "linear")
    qrel = {q: {d: max(g, 0) for d, g in docs.items()} for q, docs in judgments_of(qrels_text).items()}
    expected = pytrec_eval.RelevanceEvaluator(qrel, set(ORACLE.values())).evaluate(results_of(run_text))
    assert set(judged.qids) == set(expected)
    for i, qid in enumerate(judged.qids):
        for measure, name in ORACLE.items():
            assert ours[measure][i] == pytest.approx(expected[qid][name], abs=1e-9), (qid, measure)


@pytest.mark.parametrize("run_format", ["trec", "csv", "json", "jsonl", "jsonl-order"])
@pytest.mark.parametrize("qrels_format", ["trec", "tsv", "json", "jsonl"])
def test_the_sample_pair_in_every_format_gives_trec_evals_numbers(qrels_format, run_format):
    qrels_text, run_text = SAMPLE_QRELS.read_text(), SAMPLE_RUN.read_text()
    qrels_data, run_data = qrels_formats(qrels_text)[qrels_format], run_formats(run_text)[run_format]
    assert readers.detect(qrels_data, "qrels") == qrels_format
    assert readers.detect(run_data, "run") == run_format.split("-")[0]
    judged = model.judge(*read_pair(qrels_data, run_data))
    assert_same_judged_run(judged, load_trec(SAMPLE_QRELS, SAMPLE_RUN))
    assert_equals_pytrec_eval(judged, qrels_text, run_text)


QIDS = st.sampled_from(["1", "7", "007", "q\u00e9", "10"])
DOCS = st.sampled_from(["7", "007", "d1", "D1", "d10", "\u00e9", "z", "doc-3", "a_b", "x1"])


@settings(max_examples=40, deadline=None)
@given(st.dictionaries(QIDS, st.dictionaries(DOCS, st.integers(0, 3), min_size=1), min_size=1),
       st.dictionaries(QIDS, st.lists(DOCS, min_size=1, unique=True), min_size=1), st.randoms(use_true_random=False))
def test_any_pair_with_distinct_scores_gives_the_same_numbers_in_every_format(judged, lists, rng):
    qrels_text = "".join(f"{q} 0 {d} {g}\n" for q, docs in judged.items() for d, g in docs.items())
    scores = rng.sample(range(1, 10_000), sum(map(len, lists.values())))
    run_text = "".join(f"{q} Q0 {d} 0 {scores.pop() / 8} r\n" for q, docs in lists.items() for d in docs)
    try:
        expected = load_trec(qrels_text, run_text)
    except model.NoCommonQueryError:
        return
    for qrels_data in qrels_formats(qrels_text).values():
        for run_data in run_formats(run_text).values():
            judged_run = model.judge(*read_pair(qrels_data, run_data))
            assert_same_judged_run(judged_run, expected)
    assert_equals_pytrec_eval(expected, qrels_text, run_text)


# --- detection -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("data, kind, expected", [
    (b"1 0 d 1\n", "qrels", "trec"),
    (b"qid,docid,grade\n1,d,1\n", "qrels", "csv"),
    (b"query-id\tcorpus-id\tscore\n1\td\t1\n", "qrels", "tsv"),
    (b'{"1": {"d": 1}}', "qrels", "json"),
    (b'[{"qid": "1", "relevant": ["d"]}]', "qrels", "json"),
    (b'{"qid": "1", "results": ["d"]}\n{"qid": "2", "results": ["e"]}\n', "run", "jsonl"),
    (b"\xef\xbb\xbf\n  {\"1\": {\"d\": 1}}", "qrels", "json"),
    (b"", "run", "trec"),
])
def test_detect_reads_the_content(data, kind, expected):
    assert readers.detect(data, kind) == expected
    assert readers.detect(io.BytesIO(data), kind) == expected


def test_a_file_object_is_read_once():
    upload = io.BytesIO(b'{"q1": {"d1": 1}}')
    upload.name = "gold.json"
    assert read_qrels(upload).name == "gold.json"


def test_bad_kind():
    with pytest.raises(ValueError, match="'qrels' or 'run'"):
        readers.read(b"1 0 d 1\n", "judgments")


# --- what was understood -------------------------------------------------------------------------------

def test_understood_a_beir_table():
    seen = readers.read(b"query-id\tcorpus-id\tscore\nq1\td1\t2\nq1\td2\t0\n", "qrels").understood
    assert (seen.format, seen.columns, seen.fields, seen.merged_chunks) == ("tsv", ("query-id", "corpus-id", "score"),
                                                                           None, 0)
    assert seen.preview == (("q1", "d1", 2), ("q1", "d2", 0))


def test_understood_json_lines():
    data = b'{"query_id": "q1", "retrieved_ids": ["b", "a"]}\n{"query_id": "q2", "retrieved_ids": []}\n'
    seen = readers.understood(data, "run")
    assert seen.format == "jsonl" and seen.fields == Fields("query_id", "retrieved_ids")
    assert (seen.scores_from_order, seen.empty, seen.reordered) == (True, 1, 0)
    assert seen.preview == (("q1", "b", 2.0), ("q1", "a", 1.0))


def test_understood_a_dict_of_dicts_run_with_scores():
    seen = readers.understood(b'{"q1": {"a": 0.1, "b": 0.7}}', "run")
    assert (seen.format, seen.fields, seen.scores_from_order) == ("json", None, False)
    assert seen.preview == (("q1", "b", 0.7), ("q1", "a", 0.1))


def test_the_preview_is_in_file_order():
    run = b"q2 Q0 a 1 1 r\nq1 Q0 b 1 5 r\nq2 Q0 c 2 9 r\n"
    assert readers.read(run, "run").understood.preview == (("q2", "a", 1.0), ("q1", "b", 5.0), ("q2", "c", 9.0))


def test_understood_reads_only_the_first_lines_of_a_trec_file():
    lines = [f"q{i % 7} Q0 d{i} {i} {1000 - i} r\n" for i in range(500)]
    good = "".join(lines).encode()
    assert readers.understood(good, "run") == readers.read(good, "run").understood
    broken = good + b"q1 Q0 d1 1 not-a-number r\n"  # beyond the first lines: not read
    assert readers.understood(broken, "run").preview == readers.read(good, "run").understood.preview
    with pytest.raises(model.TrecFormatError, match="line 501"):
        readers.read(broken, "run")
    with pytest.raises(model.TrecFormatError, match="line 501"):
        readers.understood(broken, "run", chunks="#")  # counting merges needs the whole file


def test_understood_of_a_file_whose_first_lines_hold_no_data():
    data = b"# notes\n" * 100 + b"q1 0 d1 1\n"
    assert readers.understood(data, "qrels").preview == (("q1", "d1", 1),)


def test_fields_reach_json_records_through_the_front_door():
    data = b'{"topic_no": "7", "gold": ["a"]}\n{"topic_no": "8", "gold": ["b"]}\n'
    with pytest.raises(model.TrecFormatError):
        read_qrels(data)
    qrels = read_qrels(data, fields=Fields("topic_no", "gold"))
    assert qrels.qids == ("7", "8")
    assert readers.read(data, "qrels", fields=Fields("topic_no", "gold")).understood.fields == Fields("topic_no",
                                                                                                       "gold")


def test_read_pair_checks_the_gain_before_the_run():
    with pytest.raises(model.TrecFormatError, match="too large for exponential gain"):
        read_pair(b'{"q": {"a": 100}}', b"not a run", gain="exponential", qrels_name="q.json")


# --- chunks counted as their document ------------------------------------------------------------------

def test_chunk_ids_merge_in_every_format():
    qrels = b"q 0 d1 1\nq 0 d2 2\n"
    run_texts = {
        "trec": b"q Q0 d1#0 1 9 r\nq Q0 d2#5 2 8 r\nq Q0 d1#1 3 7 r\nq Q0 d3 4 6 r\n",
        "csv": b"qid,docid,score\nq,d1#0,9\nq,d2#5,8\nq,d1#1,7\nq,d3,6\n",
        "json": b'{"q": {"d1#0": 9, "d2#5": 8, "d1#1": 7, "d3": 6}}',
        "jsonl": b'{"qid": "q", "results": ["d1#0", "d2#5", "d1#1", "d3"]}\n',
    }
    for fmt, data in run_texts.items():
        done = readers.read(data, "run", chunks="#")
        assert [d.decode() for d in done.parsed.docids] == ["d1", "d2", "d3"], fmt
        assert done.parsed.rank.tolist() == [1, 2, 3]
        assert done.understood.merged_chunks == 1
        judged = model.judge(read_qrels(qrels), done.parsed)
        assert evaluate(judged.queries, ["R@2"], "linear")["R@2"].tolist() == [1.0], fmt
        unmerged = model.judge(read_qrels(qrels), read_run(data))
        assert evaluate(unmerged.queries, ["R@2"], "linear")["R@2"].tolist() == [0.0], fmt


def test_a_merged_document_keeps_its_best_chunks_score_and_line():
    run = read_run("q Q0 a#1 1 0.5 r\nq Q0 b 2 0.7 r\nq Q0 a#2 3 0.9 r\nz Q0 a#1 1 1 r\n")
    merged, n = chunks.merge_run(run)
    assert [(merged.qids[q], d.decode(), s, line) for q, d, s, line in
            zip(merged.qidx, merged.docids, merged.score.tolist(), merged.line.tolist())] == [
        ("q", "a", 0.9, 3), ("q", "b", 0.7, 2), ("z", "a", 1.0, 4)]
    assert (n, merged.tag, merged.name) == (1, "r", run.name)


def test_qrels_chunks_keep_the_highest_grade():
    qrels = read_qrels("q 0 a#1 0\nq 0 a#2 2\nq 0 a#3 1\nq 0 b#1 -1\nr 0 a#1 1\n")
    merged, n = chunks.merge_qrels(qrels)
    assert [(merged.qids[q], d.decode(), g) for q, d, g in zip(merged.qidx, merged.docids, merged.grade.tolist())] == [
        ("q", "a", 2), ("q", "b", -1), ("r", "a", 1)]
    assert (n, merged.line.tolist()) == (2, [2, 4, 5])


def test_the_last_separator_splits_and_ids_without_one_stay():
    run = read_run("q Q0 http://x.org/p#intro#3 1 2 r\nq Q0 http://x.org/p#intro#0 2 1 r\nq Q0 plain 3 0 r\n")
    merged, n = chunks.merge_run(run)
    assert ([d.decode() for d in merged.docids], n) == (["http://x.org/p#intro", "plain"], 1)
    other, n = chunks.merge_run(read_run("q Q0 d1::0 1 2 r\nq Q0 d1::1 2 1 r\n"), "::")
    assert ([d.decode() for d in other.docids], n) == (["d1"], 1)


def test_chunk_ids_become_document_ids_even_when_nothing_merges():
    merged, n = chunks.merge_run(read_run("q Q0 a#1 1 2 r\nq Q0 b#1 2 1 r\n"))
    assert ([d.decode() for d in merged.docids], n) == (["a", "b"], 0)
    qrels, n = chunks.merge_qrels(read_qrels("q 0 a#1 1\n"))
    assert ([d.decode() for d in qrels.docids], n) == (["a"], 0)
    run = read_run("q Q0 a 1 2 r\nq Q0 b 2 1 r\n")
    assert chunks.merge_run(run) == (run, 0)  # no chunk id: the same run


def test_an_id_with_nothing_before_its_separator_is_refused():
    with pytest.raises(model.TrecFormatError) as caught:
        read_run(b"q Q0 a#1 1 2 r\nq Q0 #3 2 1 r\n", "run.txt", chunks="#")
    assert (caught.value.file, caught.value.line) == ("run.txt", 2)
    assert "'#3', with nothing before its chunk separator '#'" in caught.value.found


@pytest.mark.parametrize("separator", ["", " ", "a b", "\t"])
def test_a_separator_is_text_without_whitespace(separator):
    with pytest.raises(ValueError, match="without whitespace"):
        chunks.merge_run(read_run("q Q0 a 1 1 r\n"), separator)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(QIDS, DOCS, st.floats(-1e6, 1e6, allow_nan=False)), min_size=1, max_size=20,
                unique_by=lambda r: (r[0], r[1])),
       st.lists(st.integers(0, 3), min_size=20, max_size=20))
def test_splitting_documents_into_lower_scored_chunks_then_merging_gives_the_run_back(rows, extra):
    """Each document once as its best chunk with its own score, plus lower-scored chunks: merged, the same run."""
    text, chunked = "", ""
    for (qid, doc, score), more in zip(rows, extra):
        text += f"{qid} Q0 {doc} 0 {score!r} r\n"
        chunked += f"{qid} Q0 {doc}#0 0 {score!r} r\n"
        chunked += "".join(f"{qid} Q0 {doc}#{i + 1} 0 {score - 1 - i!r} r\n" for i in range(more))
    original, (merged, n) = read_run(text), chunks.merge_run(read_run(chunked))
    assert merged.qids == original.qids
    assert merged.docids.tolist() == original.docids.tolist()
    assert merged.score.tolist() == original.score.tolist()
    assert merged.rank.tolist() == original.rank.tolist()
    assert n == chunked.count("\n") - text.count("\n")


# --- the samples -----------------------------------------------------------------------------------------

def test_the_beir_sample_folder_reads_as_the_trec_samples():
    qrels = readers.read(ASSETS / "beir_sample" / "qrels" / "test.tsv", "qrels")
    run = readers.read(ASSETS / "beir_sample" / "results.json", "run")
    assert (qrels.understood.format, run.understood.format) == ("tsv", "json")
    assert_same_judged_run(model.judge(qrels.parsed, run.parsed), load_trec(SAMPLE_QRELS, SAMPLE_RUN))


def test_the_json_lines_samples_read_as_the_trec_samples_once_chunks_count_as_documents():
    qrels = readers.read(ASSETS / "sample_golden.jsonl", "qrels")
    run = readers.read(ASSETS / "sample_results.jsonl", "run", chunks="#")
    assert (qrels.understood.format, run.understood.format) == ("jsonl", "jsonl")
    assert qrels.understood.fields == Fields("query_id", "judgments", doc_id="id", grade="grade")
    assert run.understood.scores_from_order and run.understood.merged_chunks > 0
    expected = load_trec(SAMPLE_QRELS, SAMPLE_RUN)
    assert_same_judged_run(model.judge(qrels.parsed, run.parsed), expected)
    for name, values in evaluate(model.judge(qrels.parsed, run.parsed).queries, MEASURES, "linear").items():
        np.testing.assert_array_equal(values, evaluate(expected.queries, MEASURES, "linear")[name])
    as_chunks = model.judge(qrels.parsed, read_run(ASSETS / "sample_results.jsonl"))
    assert not evaluate(as_chunks.queries, ["R@10"], "linear")["R@10"].any()  # chunk ids match no judged id


def test_the_samples_in_other_formats_are_what_make_samples_writes():
    spec = importlib.util.spec_from_file_location("make_samples", ASSETS / "make_samples.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    files = module.other_formats(module.samples())
    assert set(files) == {"beir_sample/qrels/test.tsv", "beir_sample/results.json", "sample_golden.jsonl",
                          "sample_results.jsonl"}
    for name, content in files.items():
        assert (ASSETS / name).read_text(encoding="utf-8") == content, f"run assets/make_samples.py ({name})"


# --- numbers Python cannot hold as written, in every format: the file's own text, with file, line and field -------

def _written_in(fmt: str, kind: str, number: str) -> bytes:
    value = "grade" if kind == "qrels" else "score"
    return {
        "trec": f"q1 0 d1 1\nq1 0 d2 {number}\n" if kind == "qrels" else f"q1 Q0 d1 1 1 r\nq1 Q0 d2 2 {number} r\n",
        "csv": f"qid,docid,{value}\nq1,d1,1\nq1,d2,{number}\n",
        "tsv": f"query-id\tcorpus-id\tscore\nq1\td1\t1\nq1\td2\t{number}\n",  # (BEIR: a qrels grade is a score)
        "json": f'{{"q1": {{"d1": 1,\n"d2": {number}}}}}',  # (a dict-of-dicts' rows are on its query's line)
        "jsonl": f'{{"qid": "q0", "doc_ids": ["d1"], "{value}s": [1]}}\n'
                 f'{{"qid": "q1", "doc_ids": ["d2"], "{value}s": [{number}]}}\n',
    }[fmt].encode()


@pytest.mark.parametrize("fmt", ["trec", "csv", "tsv", "json", "jsonl"])
@pytest.mark.parametrize("kind", ["qrels", "run"])
@pytest.mark.parametrize("number", ["9" * 5000, "1e400", "-1E+999"])
def test_a_number_past_pythons_reach_is_refused_quoting_the_files_text(fmt, kind, number):
    data = _written_in(fmt, kind, number)
    if fmt == "jsonl" and kind == "qrels":
        data = data.replace(b"doc_ids", b"relevant_ids")
    with pytest.raises(model.TrecFormatError) as caught:
        readers.read(data, kind, "f")
    err = caught.value
    what = "grade" if kind == "qrels" else "score"
    assert err.found.startswith(f"{what} {number[:60] + ('…' if len(number) > 60 else '')!r}"), str(err)
    assert err.line == {"json": 1, "csv": 3, "tsv": 3}.get(fmt, 2), str(err)
    assert "sys.set_int_max_str_digits" not in str(err) and "inf'" not in str(err)
    if fmt in ("csv", "tsv", "jsonl"):
        assert err.column is not None and ("column 3" in err.column or f"'{what}s'" in err.column), str(err)
