"""JSON dict-of-dicts, JSON records and JSON Lines: read straight into the data model, with precise errors, never others."""
from __future__ import annotations

import json
import math
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from components.engine import model
from components.formats import decode, json_formats, readers
from components.formats.json_formats import Fields, FieldsError
from tests.unit.file_readers import read_qrels, read_run


def read(source: decode.Source, kind: str, name: str | None = None, *, fields: Fields | None = None):
    """A JSON file read through the front door (:func:`components.formats.readers.read`): the parsed file and
    what was understood of it."""
    done = readers.read(source, kind, name, fields=fields)
    return done.parsed, done.understood


def rows_of(parsed) -> list[tuple[str, str, float]]:
    values = parsed.grade if isinstance(parsed, model.Qrels) else parsed.score
    return [(parsed.qids[q], d.decode(), v) for q, d, v in zip(parsed.qidx.tolist(), parsed.docids, values.tolist())]


def jsonl(*records) -> bytes:
    return "".join(json.dumps(r) + "\n" for r in records).encode()


# --- each shape on its own --------------------------------------------------------------------------

def test_a_dict_of_dicts_reads_as_its_trec_twin():
    qrels = read_qrels(b'{"q1": {"d1": 2, "d2": 0}, "007": {"d1": -1, "d3": 1.0}}')
    assert rows_of(qrels) == rows_of(read_qrels("q1 0 d1 2\nq1 0 d2 0\n007 0 d1 -1\n007 0 d3 1\n"))
    run = read_run(b'{"q1": {"a": 0.5, "b": 0.5, "c": 0.9, "d": 3}}')
    assert rows_of(run) == [("q1", "d", 3.0), ("q1", "c", 0.9), ("q1", "b", 0.5), ("q1", "a", 0.5)]
    assert rows_of(run) == rows_of(read_run("q1 Q0 a 1 0.5 r\nq1 Q0 b 1 0.5 r\nq1 Q0 c 1 0.9 r\nq1 Q0 d 1 3 r\n"))


def test_lines_are_those_of_each_querys_key():
    text = b'{\n  "q1": {\n    "d1": 1,\n    "d2": 0\n  },\n  "q2": {"d3": 2}\n}\n'
    assert read_qrels(text).line.tolist() == [2, 2, 6]


def test_a_dict_of_lists_gives_grade_1_and_a_ranking_in_list_order():
    assert read_qrels(b'{"q1": ["d1", "d2"]}').grade.tolist() == [1, 1]
    run, converted = read(b'{"q1": ["z", "a", "m"]}', "run")
    assert [d.decode() for d in run.docids] == ["z", "a", "m"]
    assert run.score.tolist() == [3.0, 2.0, 1.0]
    assert converted.scores_from_order and converted.fields is None


@pytest.mark.parametrize("records, expected", [
    ([{"query_id": "q1", "relevant_ids": ["d1", "d2"]}], [("q1", "d1", 1), ("q1", "d2", 1)]),
    ([{"qid": "q1", "gold_ids": ["d1", "d2"], "grades": [2, 0]}], [("q1", "d1", 2), ("q1", "d2", 0)]),
    ([{"id": 7, "expected_ids": [3, "d"]}], [("7", "3", 1), ("7", "d", 1)]),  # whole numbers as ids
    ([{"question_id": "q", "reference_context_ids": [{"id": "c1", "relevance": 3}, {"id": "c2", "relevance": 1}]}],
     [("q", "c1", 3), ("q", "c2", 1)]),
    ([{"query-id": "q", "qrels": {"d1": 2, "d2": 1}}], [("q", "d1", 2), ("q", "d2", 1)]),
    ([{"query-id": "1", "corpus-id": "d1", "score": 1}, {"query-id": "1", "corpus-id": "d2", "score": 2}],
     [("1", "d1", 1), ("1", "d2", 2)]),  # MTEB's BEIR qrels: one judgment per line
    ([{"qid": "q1", "positive_ids": ["a"]}, {"qid": "q1", "positive_ids": ["b"]}], [("q1", "a", 1), ("q1", "b", 1)]),
])
def test_golden_set_records(records, expected):
    assert rows_of(read_qrels(jsonl(*records))) == expected
    assert rows_of(read_qrels(json.dumps(records).encode())) == expected  # one JSON array


def test_a_single_object_is_one_record():
    qrels = read_qrels(b'{\n "query_id": "q1",\n "relevant_ids": ["a", "b"]\n}\n')
    assert rows_of(qrels) == [("q1", "a", 1), ("q1", "b", 1)]
    assert qrels.line.tolist() == [1, 1]


def test_a_result_list_without_scores_is_ranked_in_its_order():
    run, converted = read(jsonl({"qid": "q1", "retrieved_ids": ["b", "c", "a"]},
                                             {"qid": "q2", "retrieved_ids": ["x"]}), "run")
    assert rows_of(run) == [("q1", "b", 3.0), ("q1", "c", 2.0), ("q1", "a", 1.0), ("q2", "x", 1.0)]
    assert run.rank.tolist() == [1, 2, 3, 1]
    assert run.line.tolist() == [1, 1, 1, 2]
    assert converted.scores_from_order and converted.reordered == 0
    assert converted.fields == Fields("qid", "retrieved_ids")


def test_the_keys_guessed_on_the_first_record_hold_for_the_others():
    with pytest.raises(model.TrecFormatError) as caught:
        read_run(jsonl({"qid": "q1", "retrieved_ids": ["b"]}, {"qid": "q2", "results": ["x"]}),
                              "r.jsonl")
    err = caught.value
    assert (err.line, err.column) == (2, "field 'retrieved_ids'")
    assert "without the key 'retrieved_ids' (the documents); its keys: 'qid', 'results'" in err.found


@pytest.mark.parametrize("record", [
    {"qid": "q1", "results": ["a", "b", "c"], "scores": [0.2, 0.9, 0.5]},
    {"qid": "q1", "hits": [{"docid": "a", "score": 0.2}, {"docid": "b", "score": 0.9}, {"docid": "c", "score": 0.5}]},
    {"qid": "q1", "ranking": {"a": 0.2, "b": 0.9, "c": 0.5}},
])
def test_scores_decide_the_order_as_in_trec_eval(record):
    run, converted = read(jsonl(record), "run")
    assert rows_of(run) == [("q1", "b", 0.9), ("q1", "c", 0.5), ("q1", "a", 0.2)]
    assert not converted.scores_from_order
    assert converted.reordered == (0 if "ranking" in record else 1)  # an object is no ranking


def test_lists_in_their_scores_order_are_not_counted_as_reordered():
    _, found = read(jsonl({"qid": "q", "results": ["b", "c", "a"], "scores": [2, 1, 1]},
                                       {"qid": "r", "results": ["a", "b"], "scores": [1, 1]}), "run")
    assert found.reordered == 1  # the tie a, b: docid descending puts b first


def test_empty_lists_are_counted_and_dropped():
    qrels, converted = read(jsonl({"qid": "q1", "relevant": []}, {"qid": "q2", "relevant": ["a"]}),
                                         "qrels")
    assert qrels.qids == ("q2",)
    assert converted.empty == 1


def test_json_lines_skip_blank_lines_and_take_crlf_and_a_bom():
    data = b'\xef\xbb\xbf{"qid": "q1", "relevant": ["a"]}\r\n\r\n  \n{"qid": "q2", "relevant": ["b"]}\r\n'
    assert read_qrels(data).line.tolist() == [1, 4]


@pytest.mark.parametrize("data, expected", [
    (b'{"q1": {"d1": 1}}', "json"),
    (b'{"q1": {"d1": 1}}\n\n', "json"),
    (b'\n{\n "q1": {"d1": 1}\n}\n', "json"),
    (b'[{"qid": 1, "relevant": [2]},\n {"qid": 2, "relevant": [3]}]\n', "json"),
    (b'{"qid": 1, "relevant": [2]}\n{"qid": 2, "relevant": [3]}\n', "jsonl"),
    (b'{"qid": 1, "qid": 2}\n{"qid": 2}\n', "jsonl"),  # a repeated key: still a whole value on its line
    (b"1 0 d 1\n", None),
    (b"qid,docid,grade\n", None),
    (b"", None),
])
def test_json_format(data, expected):
    assert json_formats.json_format(data) == expected
    if expected is not None:
        try:
            assert read(data, "qrels")[1].format == expected  # the reader decides alike
        except model.TrecFormatError:
            pass


# --- the mapping: guessed, given, or asked for -------------------------------------------------------

def test_explicit_fields_override_the_guess():
    record = {"id": "row-1", "topic_no": "q7", "gold": ["a", "b"], "relevant_ids": ["x"], "weights": [3, 1]}
    guessed = read_qrels(jsonl(record))
    assert rows_of(guessed) == [("row-1", "x", 1)]
    given = read_qrels(jsonl(record), fields=Fields(qid="topic_no", docs="gold", grade="weights"))
    assert rows_of(given) == [("q7", "a", 3), ("q7", "b", 1)]


def test_explicit_fields_read_a_single_object_as_a_record():
    data = b'{"query": ["a"], "docs": {"d1": 2}}'
    assert rows_of(read_qrels(data)) == [("query", "a", 1), ("docs", "d1", 2)]  # a dict of queries
    with pytest.raises(model.TrecFormatError, match="a query id that is a JSON array"):
        read_qrels(data, fields=Fields(qid="query", docs="docs"))


def test_explicit_item_keys():
    record = {"q": "1", "refs": [{"doc": "a", "stars": 2}, {"doc": "b", "stars": 0}]}
    qrels = read_qrels(jsonl(record), fields=Fields("q", "refs", grade="stars", doc_id="doc"))
    assert rows_of(qrels) == [("1", "a", 2), ("1", "b", 0)]
    run = read_run(jsonl(record), fields=Fields("q", "refs", score="stars", doc_id="doc"))
    assert rows_of(run) == [("1", "a", 2.0), ("1", "b", 0.0)]


def test_a_failed_guess_lists_the_keys_seen_and_the_roles_missing():
    with pytest.raises(FieldsError) as caught:
        read_qrels(jsonl({"question": "why?", "answer": "because", "contexts": ["c1"]}), "gold.jsonl")
    err = caught.value
    assert (err.file, err.line, err.keys, err.missing) == ("gold.jsonl", 1, ("question", "answer", "contexts"),
                                                           ("qid", "docs"))
    assert "the keys 'question', 'answer', 'contexts'" in err.found
    assert "query_id" in err.expected and "relevant_ids" in err.expected and "say which keys" in err.expected
    copy = pickle.loads(pickle.dumps(err))
    assert (copy.keys, copy.missing, str(copy)) == (err.keys, err.missing, str(err))


def test_a_failed_guess_of_an_objects_id_key():
    with pytest.raises(FieldsError) as caught:
        read_run(jsonl({"qid": "q", "results": [{"title": "A", "score": 1}]}))
    assert (caught.value.keys, caught.value.missing) == (("title", "score"), ("doc_id",))
    assert caught.value.record == Fields("qid", "results")  # the record's keys, known: a page asks only the object's
    assert pickle.loads(pickle.dumps(caught.value)).record == caught.value.record
    two = jsonl({"qid": "q", "results": [{"title": "A"}]}, {"qid": "r", "results": [{"title": "B"}]})
    with pytest.raises(FieldsError) as caught:  # records through the loop, not the one-object path
        read_run(two)
    assert caught.value.record == Fields("qid", "results")
    assert read_run(jsonl({"qid": "q", "results": [{"title": "A", "score": 1}]}),
                                 fields=Fields("qid", "results", score="score", doc_id="title")).docids.tolist() == [
        b"A"]


def test_guess_fields_prefers_the_documents_of_the_kind():
    record = {"query_id": "q", "reference_context_ids": ["a"], "retrieved_context_ids": ["b", "a"]}
    assert json_formats.guess_fields(record, "qrels").docs == "reference_context_ids"
    assert json_formats.guess_fields(record, "run").docs == "retrieved_context_ids"
    both = jsonl(record)  # one file serves as both
    assert rows_of(read_qrels(both)) == [("q", "a", 1)]
    assert rows_of(read_run(both)) == [("q", "b", 2.0), ("q", "a", 1.0)]


# --- errors: file, line, field, found, expected ----------------------------------------------------------

ERRORS = [
    # (kind, content, line, found contains, expected contains)
    ("qrels", b'{"q1": {"d1": 1, "d1": 2}}', 1, "the key 'd1' twice in one object", "a document once per query"),
    ("qrels", b'{"q1": {"d1": 1},\n"q1": {"d2": 1}}', 2, "the query 'q1' again (first on line 1)", "each query once"),
    ("qrels", b'{"q1": {"d1": 1.5}}', 1, "grade '1.5' (query 'q1', document 'd1')", "a whole number"),
    ("qrels", b'{"q1": {"d1": "2"}}', 1, 'grade "2" (a JSON string) for document \'d1\' of query \'q1\'',
     "a grade as a JSON number"),
    ("qrels", b'{"q1": {"d1": true}}', 1, "grade true (a JSON true/false)", "a JSON number"),
    ("qrels", b'{"q1": {"d1": 1001}}', 1, "grade '1001', which is too large", "from -1000 to 1000"),
    ("run", b'{"q1": {"d1": NaN}}', 1, "score 'NaN', which is not a finite number", "a finite number"),
    ("run", b'{"q1": {"d1": -Infinity}}', 1, "score '-Infinity', which is not a finite number", "a finite number"),
    ("run", b'{"q1": {"d1": 1e999}}', 1, "score '1e999', which is not a finite number", "a finite number"),
    ("qrels", b'{"": {"d1": 1}}', 1, "an empty query id", "not empty"),
    ("qrels", b'{"q1": {"d\\u0000": 1}}', 1, "holding a NUL character", "without NUL characters"),
    ("qrels", b'{"q1": {"\\udc80": 1}}', 1, "holding a lone surrogate", "valid Unicode text"),
    ("qrels", b'{"q1": 5}', 1, "an object with the keys 'q1'", "for an object of queries, each query's documents "
                                                               "as an object (document id -> value) or a list of ids, "
                                                               "not a JSON number as in 'q1'"),
    ("qrels", b'{"qid": 5}', 1, "an object with the keys 'qid'", "say which keys to read"),  # a record
    ("qrels", b'{"q1": {"' + b"d" * 600 + b'": 1}}', 1, "a docid of 600 bytes", "at most 512 bytes"),
    ("qrels", b'{"' + b"q" * 600 + b'": {"d1": 1}}', 1, "a qid of 600 bytes", "at most 512 bytes"),
    ("qrels", b'{"q1": {}}', 1, "no judgment (1 query with none)", "at least one query with a judgment"),
    ("qrels", b"{}", 1, "an empty JSON object or array", "at least one query"),
    ("qrels", b"[]", 1, "an empty JSON object or array", "at least one query"),
    ("qrels", b'{"q1": {"d1": 1}} x', 1, "'x'", "the end of the file after the JSON value"),
    ("qrels", b'{"q1": {"d1": 1},\n "q2": {"d2": 1,}}', 2, "'}}' at character 17", "valid JSON (expecting property"),
    ("qrels", b'{"q1": {"d1": 1}', 1, "the end of the file", "valid JSON"),
    ("qrels", b'{"q1": [1, 2]\n"q2": [3]}', 2, '\'"q2": [3]}\'', "',' or '}'"),
    ("qrels", b"[" * 50_000 + b"]" * 50_000, 1, "JSON nested too deeply", "records of a few levels"),
    ("qrels", b'{"q1": {"d1": 1' + b"0" * 5000 + b"}}", 1, "grade '10000000000", "a whole number from -1000 to 1000"),
    ("qrels", b'{"q": {"a": 1}}\x00', 1, "a NUL byte", "UTF-8 text"),
    ("run", jsonl({"qid": "q1", "results": ["a", "b", "a"]}), 1,
     "document 'a' listed again for query 'q1' (earlier in the same record)", "at most once per query"),
    ("qrels", jsonl({"qid": "q1", "relevant": ["a"]}, {"qid": "q2", "relevant": ["a"]}, {"qid": "q1", "relevant": ["a"]}),
     3, "document 'a' judged again for query 'q1' (first on line 1)", "at most once per query"),
    ("run", jsonl({"qid": "q1", "results": ["a"]}, {"qid": "q1", "results": ["b"]}), 2,
     "query 'q1' again (first on line 1, in a list without scores)", "one list per query"),
    ("run", jsonl({"qid": "q1", "results": {"a": 1}}, {"qid": "q1", "results": ["b"]}), 2,
     "query 'q1' again, in a list without scores (first on line 1)", "one list per query"),
    ("run", jsonl({"qid": "q1", "results": ["a", "b"], "scores": [1]}), 1, "a list of 1 in 'scores' beside 2",
     "as many scores"),
    ("run", jsonl({"qid": "q1", "results": ["a", "b"], "scores": 1}), 1, "a JSON number in 'scores' beside 2",
     "as many scores"),
    ("run", jsonl({"qid": "q1", "results": ["a", {"id": "b"}]}), 1, "a JSON string as item 1 of 'results'",
     "a list of ids, or a list of objects"),
    ("run", jsonl({"qid": "q1", "results": [{"id": "a", "score": 1}, {"id": "b"}]}), 1,
     "object 2 of 'results' without the key 'score'", "the value in 'score'"),
    ("qrels", jsonl({"qid": None, "relevant": ["a"]}), 1, "a query id that is a JSON null", "a string or a whole"),
    ("qrels", jsonl({"qid": 1.5, "relevant": ["a"]}), 1, "a query id that is a JSON number: 1.5", "a whole number"),
    ("qrels", jsonl({"qid": True, "relevant": ["a"]}), 1, "a query id that is a JSON true/false", "a string"),
    ("qrels", jsonl({"qid": "q", "relevant": [["a"]]}), 1, "a document id that is a JSON array", "a string"),
    ("qrels", jsonl({"qid": "q", "relevant": None}), 1, "a document id that is a JSON null", "a string"),
    ("run", jsonl({"qid": "q", "results": [{"id": "a"}, {"doc": "b"}]}), 1,
     "object 2 of 'results' without the key 'id' (the document id)", "the document id in 'id'"),
    ("qrels", b'{"qid": "q", "relevant": ["a"]}\n[1, 2]\n', 2, "a JSON array", "a JSON object for each record"),
    ("qrels", b'{"qid": "q", "relevant": ["a"]}\n{"qid": "r", "relevant": ["a"]} x\n', 2, "more after the JSON value",
     "one JSON value per line"),
    ("qrels", b'{"qid": "q", "relevant": ["a"]}\n{"qid": "r", "relevant": ["a"\n', 2, "the end of the file",
     "valid JSON"),
    # numbers Python reads as another value (1e400 as inf) or cannot read (over 4,300 digits): the file's own text
    ("qrels", b'{"q1": {"d1": 1e400}}', 1, "grade '1e400' (query 'q1', document 'd1')", "a whole number from -1000"),
    ("qrels", b'{"q1": ["d1"], "q2": {"d2": -1E+400}}', 1, "grade '-1E+400' (query 'q2'", "a whole number"),
    ("run", b'{"q1": {"d1": ' + b"9" * 5000 + b"}}", 1, "score '99999", "a finite number"),
    ("run", b'{"qid": "q1", "retrieved_ids": ["a"], "scores": [' + b"7" * 5000 + b']}\n'
            b'{"qid": "q2", "retrieved_ids": ["b"], "scores": [1]}\n', 1, "score '77777", "a finite number"),
    ("qrels", b'[{"qid": "q1", "relevant": ["a"], "grades": [2]},\n {"qid": "q2", "relevant": ["b"], "grades": [1e999]}]', 2,
     "grade '1e999' (query 'q2', document 'b')", "a whole number"),
    ("qrels", b'{"qid": 1e400, "relevant": ["a"]}', 1, "a query id that is a JSON number: 1e400", "a whole number"),
]


@pytest.mark.parametrize("kind, content, line, found, expected", ERRORS)
def test_errors_name_file_line_found_and_expected(kind, content, line, found, expected):
    with pytest.raises(model.TrecFormatError) as caught:
        read(content, kind, "data.json")
    err = caught.value
    assert (err.file, err.line) == ("data.json", line), str(err)
    assert found in err.found, str(err)
    assert expected in err.expected, str(err)
    where = f" ({err.column})" if err.column else ""
    assert str(err) == f"data.json, line {line}: found {err.found}; expected {err.expected}{where}"


NOT_JSON = [  # what readers.read never hands the JSON reader (json_format finds it not JSON): its own words still
    ("qrels", b"  \n ", 1, "an empty file", "JSON Lines"),
    ("qrels", b'\xff{"q1": {"d1": 1}}', 1, "byte 0xff, which is not UTF-8 text", "UTF-8 text"),
    ("qrels", b"1 0 d 1\n", 1, "'1 0 d 1' (not JSON)", "a JSON object or array"),
]


@pytest.mark.parametrize("kind, content, line, found, expected", NOT_JSON)
def test_the_json_reader_given_what_is_not_json_says_so(kind, content, line, found, expected):
    with pytest.raises(model.TrecFormatError) as caught:
        json_formats._read(content, kind, "data.json")
    err = caught.value
    assert (err.file, err.line, found in err.found, expected in err.expected) == ("data.json", line, True, True), str(err)


def test_an_error_names_the_field_of_records():
    with pytest.raises(model.TrecFormatError) as caught:
        read_qrels(jsonl({"qid": "q", "gold_ids": ["a"], "grades": [2.5]}))
    assert caught.value.column == "field 'grades'"
    with pytest.raises(model.TrecFormatError) as caught:
        read_qrels(jsonl({"qid": "q", "gold_ids": ["a"]}, {"qid": "", "gold_ids": ["a"]}))
    assert (caught.value.line, caught.value.column) == (2, "field 'qid'")


def test_ids_hold_any_character_json_allows_but_nul():
    qrels = read_qrels(b'{"q 1": {"doc 221": 2, "d\\t2": 1}, "#7": {"a\\nb": 1}}')
    assert qrels.qids == ("q 1", "#7")
    assert [d.decode() for d in qrels.docids] == ["doc 221", "d\t2", "a\nb"]
    run = read_run(jsonl({"qid": " q 1 ", "results": ["doc 221", "doc 7"]}))
    assert run.qids == (" q 1 ",) and [d.decode() for d in run.docids] == ["doc 221", "doc 7"]


def test_grades_written_as_whole_floats_count_as_whole():
    assert read_qrels(b'{"q": {"a": 2.0, "b": -0.0, "c": 1e2}}').grade.tolist() == [2, 0, 100]


def test_bad_arguments():
    with pytest.raises(ValueError, match="'qrels' or 'run'"):
        read(b"{}", "judgments")
    with pytest.raises(TypeError, match="expected a path, bytes, str or a file object"):
        read_qrels(12)


# --- generated files: the TREC reader's results, and only its error type --------------------------------

IDS = st.one_of(st.text("abcXYZ019-_.:/é#", min_size=1, max_size=6).filter(lambda s: not s.startswith("#")),
                st.integers(0, 10 ** 6))


@given(st.dictionaries(IDS.map(str), st.dictionaries(IDS.map(str), st.integers(-5, 5), min_size=1, max_size=8),
                       min_size=1, max_size=6))
def test_any_dict_of_dicts_reads_as_its_trec_twin(qrels):
    text = "".join(f"{q} 0 {d} {g}\n" for q, docs in qrels.items() for d, g in docs.items())
    assert rows_of(read_qrels(json.dumps(qrels).encode())) == rows_of(read_qrels(text))


@given(st.dictionaries(IDS.map(str), st.dictionaries(IDS.map(str), st.floats(-1e6, 1e6, allow_nan=False),
                                                     min_size=1, max_size=8), min_size=1, max_size=6))
def test_any_dict_of_dicts_run_reads_as_its_trec_twin(run):
    text = "".join(f"{q} Q0 {d} 0 {s!r} r\n" for q, docs in run.items() for d, s in docs.items())
    assert rows_of(read_run(json.dumps(run).encode())) == rows_of(read_run(text))


@given(st.lists(st.tuples(IDS, st.lists(IDS, min_size=0, max_size=8, unique_by=str)), min_size=1, max_size=6,
                unique_by=lambda r: str(r[0])))
def test_any_list_of_results_without_scores_keeps_its_order(records):
    data = jsonl(*({"query_id": q, "retrieved_ids": docs} for q, docs in records))
    if not any(docs for _, docs in records):
        with pytest.raises(model.TrecFormatError, match="no result"):
            read_run(data)
        return
    run = read_run(data)
    assert [(q, [d for qq, d, _ in rows_of(run) if qq == q]) for q in run.qids] == [
        (str(q), [str(d) for d in docs]) for q, docs in records if docs]


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10 ** 30, 10 ** 30) | st.floats() | st.text(max_size=8)
    | st.sampled_from(["q1", "d1", " ", "", "#", "a b", "\x00", "\ud800"]),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(
        st.sampled_from(["q1", "d1", "qid", "query_id", "relevant_ids", "retrieved_ids", "scores", "grades", "id",
                         "score", "grade", "results", "", " x"]) | st.text(max_size=4), children, max_size=5),
    max_leaves=20)


def only_format_errors(data: bytes, fields: Fields | None = None) -> None:
    for kind in ("qrels", "run"):
        try:
            read(data, kind, "fuzz.json", fields=fields)
        except model.TrecFormatError as err:
            assert err.file == "fuzz.json" and err.line >= 1 and str(err)


@settings(max_examples=300)
@given(JSON_VALUES)
def test_any_json_value_raises_only_the_format_error(value):
    try:
        text = json.dumps(value)
    except ValueError:
        return
    only_format_errors(text.encode("utf-8", "surrogatepass"))
    only_format_errors(text.encode("utf-8", "surrogatepass"), Fields("qid", "results", grade="grades",
                                                                        score="scores"))


@settings(max_examples=200)
@given(st.lists(JSON_VALUES, min_size=1, max_size=4))
def test_any_json_lines_raise_only_the_format_error(values):
    try:
        text = "\n".join(json.dumps(v) for v in values)
    except ValueError:
        return
    only_format_errors(text.encode("utf-8", "surrogatepass"))


@settings(max_examples=200)
@given(st.binary(max_size=80))
def test_random_bytes_raise_only_the_format_error(data):
    only_format_errors(b"{" + data)
    only_format_errors(b"[" + data)
    only_format_errors(b'{"qid": "q", "results": ["a"]}\n' + data)


@pytest.mark.parametrize("data", [
    b"[" * 200_000, b"{\"a\":" * 100_000, b'{"q": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
    b'{"q": {"d": ' + b"9" * 10_000 + b"}}", b'{"q": {"d": 1e400}}', b'{"q": {"d": -1e-400}}',
    b'{"q": {"d": ' + b"1" * 400 + b"}}",
])
def test_extreme_inputs_raise_only_the_format_error_or_read(data):
    only_format_errors(data)


def test_a_tiny_score_reads_as_zero_and_a_huge_integer_score_is_refused():
    assert read_run(b'{"q": {"d": -1e-400}}').score.tolist() == [0.0]
    with pytest.raises(model.TrecFormatError, match="not a finite number"):
        read_run(b'{"q": {"d": ' + b"1" * 400 + b"}}")
    assert math.isfinite(read_run(b'{"q": {"d": ' + b"1" * 300 + b"}}").score[0])


@pytest.mark.parametrize("kind, number, what", [("qrels", b"9" * 5000, "grade"), ("qrels", b"1e400", "grade"),
                                                 ("run", b"-" + b"9" * 5000, "score"), ("run", b"2E+999", "score")])
def test_a_number_python_cannot_hold_is_quoted_as_written_in_the_fields_terms(kind, number, what):
    docs, values = ("gold_ids", "grades") if kind == "qrels" else ("retrieved_ids", "scores")
    lines = b'{"qid": "q1", "%s": ["a"], "%s": [1]}\n{"qid": "q2", "%s": ["b"], "%s": [%s]}\n' % (
        docs.encode(), values.encode(), docs.encode(), values.encode(), number)
    with pytest.raises(model.TrecFormatError) as caught:
        read(lines, kind, "gold.jsonl")  # JSON Lines, whichever line holds the number
    err = caught.value
    assert (err.line, err.column) == (2, f"field '{values}'")
    assert err.found.startswith(f"{what} {number[:60].decode()!r}"[:-1])
    assert "sys.set_int_max_str_digits" not in str(err) and "inf" not in err.found


# --- memory: one top-level value's tree at a time, the rows packed a block at a time ---------------------------

def _ranked(q: int) -> dict:
    return {"qid": f"q{q}", "retrieved_ids": [f"d{q}-{r}" for r in range(200)], "scores": [1000 - r / 2 for r in range(200)]}


@pytest.mark.parametrize("shape", ["dict-of-dicts", "json lines", "array of one-result records"])
def test_reading_takes_a_few_times_the_file_not_its_whole_tree(shape):
    import tracemalloc

    data = {
        "dict-of-dicts": json.dumps({f"q{q}": {f"d{q}-{r}": 1000 - r / 2 for r in range(200)} for q in range(500)}),
        "json lines": "".join(json.dumps(_ranked(q)) + "\n" for q in range(500)),
        "array of one-result records": json.dumps([{"query-id": f"q{q}", "corpus-id": f"d{q}-{r}", "score": 1}
                                                    for q in range(500) for r in range(40)], indent=1),
    }[shape].encode()
    tracemalloc.start()
    run, _ = read(data, "run")
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    # the text decoded, the packed columns and the model's own arrays; the whole tree of values and a string per row
    # took 9 to 15 times the file
    assert peak < 4.5 * len(data), peak / len(data)
    assert run.line.size == (100_000 if shape != "array of one-result records" else 20_000)
