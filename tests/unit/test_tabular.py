"""CSV and TSV qrels/runs: read through the TREC reader, with the same results and the same precise errors."""
from __future__ import annotations

import codecs
from pathlib import Path
from unittest import mock

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from components.cli.evaluate import run_evaluation
from components.engine import model
from components.engine.measures import evaluate
from components.formats import tabular, trec, trec_layout
from tests.unit.file_readers import load_table, read_qrels, read_run

ROOT = Path(__file__).resolve().parents[2]
SAMPLE_QRELS = ROOT / "assets" / "sample_qrels.txt"
SAMPLE_RUN = ROOT / "assets" / "sample_run.txt"


def same_rows(a, b) -> None:
    """Two readings of a table (:func:`tabular._rows_fast`, :func:`tabular._rows`) give the same rows."""
    assert (a.what, a.qids, a.bad) == (b.what, b.qids, b.bad)
    for column in ("qidx", "docids", "value", "line"):
        assert getattr(a, column).tolist() == getattr(b, column).tolist(), column


def same_qrels(a: model.Qrels, b: model.Qrels) -> None:
    assert a.qids == b.qids
    assert a.qidx.tolist() == b.qidx.tolist()
    assert a.docids.tolist() == b.docids.tolist()
    assert a.grade.tolist() == b.grade.tolist()


def same_run(a: model.Run, b: model.Run) -> None:
    assert a.qids == b.qids
    assert a.qidx.tolist() == b.qidx.tolist()
    assert a.docids.tolist() == b.docids.tolist()
    assert a.score.tolist() == b.score.tolist()
    assert a.rank.tolist() == b.rank.tolist()


def as_table(trec_text: str, kind: str, delimiter: str = ",") -> str:
    """A TREC file written as a table with a header (qid, docid and the value column)."""
    value = 3 if kind == "qrels" else 4
    lines = [delimiter.join(tabular.COLUMNS[kind])]
    lines += [delimiter.join((p[0], p[2], p[value])) for p in (line.split() for line in trec_text.splitlines())]
    return "\n".join(lines) + "\n"


# --- detection ------------------------------------------------------------------------------

@pytest.mark.parametrize("data, kind, expected", [
    (b"qid,docid,grade\n1,a,1\n", "qrels", "csv"),
    (b"\xef\xbb\xbf\n\n QID , DocID , Grade \n1,a,1\n", "qrels", "csv"),  # BOM, blank lines, case, spaces
    (b"qid\tdocid\tscore\n1\ta\t0.5\n", "run", "tsv"),
    (b"docid\tqid\tscore\trank\n", "run", "tsv"),
    (b"1 0 a 1\n", "qrels", "trec"),
    (b"1\t0\ta\t1\n", "qrels", "trec"),  # tab-separated TREC is still TREC
    (b"1 0 doc,7 2\n", "qrels", "trec"),  # a comma inside a TREC docid
    (b"# a comment, with a comma\n1 0 a 1\n", "qrels", "trec"),
    (b"1,a,1\n", "qrels", "csv"),  # a table without its header: reported as such
    (b"", "run", "trec"),
])
def test_detect(data, kind, expected):
    assert tabular.detect(data, kind) == expected


def test_detect_rejects_an_unknown_kind():
    with pytest.raises(ValueError, match="'qrels' or 'run'"):
        tabular.detect(b"qid,docid,grade\n", "judgments")


# --- reading: the same as the TREC reader ------------------------------------------------------

@pytest.mark.parametrize("delimiter", [",", "\t"])
def test_sample_files_as_tables_read_as_the_trec_files(delimiter):
    qrels_text, run_text = SAMPLE_QRELS.read_text(), SAMPLE_RUN.read_text()
    same_qrels(read_qrels(as_table(qrels_text, "qrels", delimiter)), read_qrels(qrels_text))
    same_run(read_run(as_table(run_text, "run", delimiter)), read_run(run_text))


def test_a_table_evaluates_to_trec_evals_numbers():
    measures = ["R@5", "Success@5", "RR", "nDCG@10", "P@5"]
    expected = run_evaluation(SAMPLE_QRELS, SAMPLE_RUN, measures, "linear")
    judged = load_table(as_table(SAMPLE_QRELS.read_text(), "qrels"), as_table(SAMPLE_RUN.read_text(), "run", "\t"))
    assert judged.qids == expected.qids
    assert judged.skipped == expected.judged.skipped
    got = evaluate(judged.queries, measures, "linear")
    for name in measures:
        np.testing.assert_array_equal(got[name], expected.values[name])


def test_trec_files_go_straight_to_the_trec_reader():
    text = SAMPLE_RUN.read_text()
    same_run(read_run(text.encode()), trec.read_with("auto", text, "run"))
    same_run(read_run(SAMPLE_RUN), trec.read_with("auto", SAMPLE_RUN, "run"))  # a path works too


def test_columns_in_any_order_extra_columns_ignored_names_padded():
    table = "Score , rank, DOCID,tag , qid\n2.0,1,a,x,q1\n3.0,2,b,x,q1\n"
    run = read_run(table)
    assert [d.decode() for d in run.docids] == ["b", "a"]  # by score: the rank column is ignored
    assert run.score.tolist() == [3.0, 2.0]


def test_ties_are_broken_by_docid_descending():
    run = read_run("qid,docid,score\nq,d1,1\nq,d3,1\nq,d2,1.0\nq,d0,0.5\n")
    assert [d.decode() for d in run.docids] == ["d3", "d2", "d1", "d0"]


def test_quotes_crlf_bom_and_blank_lines_keep_line_numbers():
    data = codecs.BOM_UTF8 + b'qid,docid,grade\r\n\r\n"q1","doc,7",2\r\nq1,"say""hi""",0\r\n'
    qrels = read_qrels(data)
    assert [d.decode() for d in qrels.docids] == ["doc,7", 'say"hi"']
    assert qrels.line.tolist() == [3, 4]


def test_ids_are_opaque_text():
    qrels = read_qrels("qid,docid,grade\n007,a,1\n7,a,2\n<img/src=x>,**b**,1\n")
    assert qrels.qids == ("007", "7", "<img/src=x>")
    assert qrels.docids.tolist()[-1] == b"**b**"


def test_each_row_keeps_its_line():
    assert read_qrels("qid,docid,grade\n\nq1,a,2\n").line.tolist() == [3]


@given(st.lists(st.tuples(st.text("abcXYZ019-_.:/<>*&", min_size=1, max_size=6),
                          st.text("abcXYZ019-_.:/<>*&", min_size=1, max_size=6),
                          st.integers(-2, 4)), min_size=1, max_size=30, unique_by=lambda r: (r[0], r[1])))
def test_any_table_reads_as_its_trec_twin(rows):
    trec_text = "".join(f"{q} 0 {d} {g}\n" for q, d, g in rows)
    table = "qid,docid,grade\n" + "".join(f"{q},{d},{g}\n" for q, d, g in rows)
    same_qrels(read_qrels(table), read_qrels(trec_text))


# --- other names of the columns, and BEIR's qrels ---------------------------------------------

@pytest.mark.parametrize("qid", tabular.ALIASES["qid"])
@pytest.mark.parametrize("docid", tabular.ALIASES["docid"])
def test_every_alias_of_qid_and_docid_reads_as_the_plain_header(qid, docid):
    table = f"{qid.upper()}\t{docid}\tgrade\nq1\td1\t2\nq2\td2\t0\n"
    assert tabular.detect(table, "qrels") == "tsv"
    same_qrels(read_qrels(table), read_qrels("qid\tdocid\tgrade\nq1\td1\t2\nq2\td2\t0\n"))


@pytest.mark.parametrize("grade", tabular.ALIASES["grade"])
def test_every_alias_of_the_grade_reads_as_the_grade(grade):
    assert read_qrels(f"qid,docid,{grade}\nq1,d1,2\n").grade.tolist() == [2]


def test_a_beir_qrels_file_reads_its_score_as_the_grade():
    beir = "query-id\tcorpus-id\tscore\n" + "".join(f"{q}\t{d}\t{g}\n" for q, _, d, g in
                                                       (line.split() for line in SAMPLE_QRELS.read_text().splitlines()))
    same_qrels(read_qrels(beir), read_qrels(SAMPLE_QRELS))
    assert read_qrels("query_id,corpus_id,score\n1,a,2\n").grade.tolist() == [2]


def test_a_grade_column_wins_over_beirs_score_and_a_run_keeps_its_score():
    assert read_qrels("query-id,corpus-id,score,grade\n1,a,0.5,2\n").grade.tolist() == [2]
    assert read_run("query-id\tcorpus-id\tscore\n1\ta\t0.5\n").score.tolist() == [0.5]


def test_an_error_names_the_value_column_where_the_header_has_it():
    with pytest.raises(model.TrecFormatError) as caught:
        read_qrels("corpus-id\tscore\tquery-id\na\thigh\t1\n", "test.tsv")
    assert caught.value.column == "column 2 of the header 'corpus-id\\tscore\\tquery-id'"


# --- errors: the TREC reader's error type, with file, line, found and expected ----------------

QRELS_ERRORS = [
    # (content, line, found contains, expected contains)
    ("1,doc7,2\n", 1, "comma-separated first line without a header: '1,doc7,2'", "such as 'qid,docid,grade'"),
    ("qid,docid,quality\n1,a,1\n", 1, "without the column 'grade'", "qid, docid, grade"),
    ("qid,docid,quality\n1,a,1\n", 1, "without the column 'grade'", "grade (or relevance, rel, label; or score"),
    ("qid,docid,score\n1,a,1\n", 1, "are the two files swapped?", "qid, docid, grade"),
    ("query_id,doc_id,score\n1,a,1\n", 1, "are the two files swapped?", "qid, docid, grade"),  # not BEIR's docid
    ("qid,topic,docid,grade\n1,1,a,1\n", 1, "the columns 'qid' and 'topic', which both name the qid,",
     "each of qid, docid, grade once"),
    ("qid,docid,grade,grade\n1,a,1,1\n", 1, "the column 'grade' twice", "once"),
    ("qid,docid,grade\n1,a,1\n1,b\n", 3, "2 fields in '1,b'",
     "3 fields separated by commas, as in the header on line 1"),
    ("qid\tdocid\tgrade\n1\ta\t1\t7\n", 2, "4 fields", "separated by tabs"),
    ("qid,docid,grade\n1,,1\n", 2, "an empty docid", "column 2 of the header 'qid,docid,grade'"),
    ('qid,docid,grade\n1,a,"1 "\n', 2, "grade '1 ' with a space or tab inside", "without spaces, tabs or line breaks"),
    ('qid,docid,grade\n1,"a,1\n', 2, "a quote that is not closed", 'closed on its own line'),
    ("qid,docid,grade\n\n", 2, "only a header (end of file)", "data lines after the header"),
    ("qid,docid,grade\n1,a,2.5\n", 2, "grade '2.5'", "whole number from -1000 to 1000, such as 0, 1, 2 or -2 "
                                                    "(column 3 of the header 'qid,docid,grade')"),
    ("docid,grade,qid\na,high,1\n", 2, "grade 'high'", "(column 2 of the header 'docid,grade,qid')"),
    ("qid,docid,grade\n1,a,1\n\n1,a,0\n", 4, "document 'a' judged again for query '1' (first on line 2)",
     "each document at most once per query"),
]


@pytest.mark.parametrize("content, line, found, expected", QRELS_ERRORS)
def test_qrels_errors_name_file_line_found_and_expected(content, line, found, expected):
    with pytest.raises(model.TrecFormatError) as caught:
        read_qrels(content, "judgments.csv")
    err = caught.value
    assert (err.file, err.line) == ("judgments.csv", line)
    assert found in err.found
    where = f" ({err.column})" if err.column else ""
    assert expected in err.expected + where
    assert str(err) == f"judgments.csv, line {line}: found {err.found}; expected {err.expected}{where}"


RUN_ERRORS = [
    ("qid\tdocid\tscore\nq1\td1\tabc\n", 2, "score 'abc'", "finite number such as 12.5, -3 or 1e-3 "
                                                          "(column 3 of the header 'qid\\tdocid\\tscore')"),
    ("qid\tdocid\tscore\nq1\td1\tinf\n", 2, "which is not a finite number", "finite number"),
    ("qid,docid,grade\nq1,d1,1\n", 1, "without the column 'score'", "are the two files swapped?"),
    ("qid,docid,score\nq1,d1,1\nq1,d1,2\n", 3, "document 'd1' listed again", "at most once per query"),
]


@pytest.mark.parametrize("content, line, found, text", RUN_ERRORS)
def test_run_errors(content, line, found, text):
    with pytest.raises(model.TrecFormatError) as caught:
        read_run(content, "run.tsv")
    err = caught.value
    assert (err.file, err.line) == ("run.tsv", line)
    assert found in err.found
    assert text in str(err)


@pytest.mark.parametrize("data, line, found", [
    (b"qid,docid,grade\n1,a,1\n1,\xff,1\n", 3, "not UTF-8 text"),
    (b"qid,docid,grade\n1,a\x00,1\n", 2, "a NUL byte"),
])
def test_bytes_that_are_not_text_get_the_trec_readers_message(data, line, found):
    with pytest.raises(model.TrecFormatError) as caught:
        read_qrels(data, "bad.csv")
    err = caught.value
    assert (err.file, err.line) == ("bad.csv", line)
    assert found in err.found
    with pytest.raises(model.TrecFormatError) as direct:
        trec.read_with("auto", data, "qrels", "bad.csv")
    assert str(err) == str(direct.value)  # worded by the TREC reader itself


def test_an_empty_file_gets_the_trec_readers_message():
    with pytest.raises(model.TrecFormatError, match="empty file") as caught:
        read_run(b"", "empty.csv")
    with pytest.raises(model.TrecFormatError) as direct:
        trec.read_with("auto", b"", "run", "empty.csv")
    assert str(caught.value) == str(direct.value)


def test_a_run_with_no_query_in_common_says_so():
    with pytest.raises(model.TrecFormatError) as caught:
        load_table("qid,docid,grade\nq1,a,1\n", "qid,docid,score\n1,a,0.5\n", qrels_name="q.csv",
                     run_name="r.csv")
    err = caught.value
    assert (err.file, err.line) == ("r.csv", 2)
    assert "no query that is also in q.csv" in err.found
    assert "'q1'" in err.expected


def test_exponential_gain_checks_the_grades():
    with pytest.raises(model.TrecFormatError, match="too large for exponential gain") as caught:
        load_table("qid,docid,grade\nq1,a,100\n", "qid,docid,score\nq1,a,1\n", gain="exponential",
                     qrels_name="big.csv")
    assert (caught.value.file, caught.value.line) == ("big.csv", 2)
    assert load_table("qid,docid,grade\nq1,a,100\n", "qid,docid,score\nq1,a,1\n", gain="linear").qids == ("q1",)


def test_errors_pickle_with_their_parts():
    import pickle

    with pytest.raises(model.TrecFormatError) as caught:
        read_qrels("qid,docid,grade\n1,a,x\n", "x.csv")
    copy = pickle.loads(pickle.dumps(caught.value))
    assert (copy.file, copy.line, copy.found, copy.expected, copy.column) == (
        caught.value.file, caught.value.line, caught.value.found, caught.value.expected, caught.value.column)


def test_bad_arguments():
    with pytest.raises(TypeError, match="expected a path, bytes, str or a file object"):
        read_qrels(12)
    with pytest.raises(ValueError, match="'qrels' or 'run'"):
        tabular.columns_read("qid,docid,grade\n", "judgments")


# --- the fast conversion equals the line-by-line one ---------------------------------------------

ID_CHARS = "abcXYZ019-_.:/<>*&é"


@given(rows=st.lists(st.tuples(st.text(ID_CHARS, min_size=1, max_size=5), st.text(ID_CHARS, min_size=1, max_size=5),
                               st.integers(-2, 3)), min_size=1, max_size=25),
       order=st.permutations(["qid", "docid", "grade", "extra"]), delimiter=st.sampled_from([",", "\t"]),
       newline=st.sampled_from(["\n", "\r\n"]), blanks=st.sets(st.integers(0, 30), max_size=4),
       final_newline=st.booleans(), chunk=st.sampled_from([1, 5, 17, 64, 1 << 20]), block=st.integers(1, 4))
def test_fast_and_line_by_line_conversions_agree(rows, order, delimiter, newline, blanks, final_newline, chunk,
                                                 block):
    lines = [delimiter.join(order)]
    for i, (q, d, g) in enumerate(rows):
        if i in blanks:
            lines.append("")
        values = {"qid": "x" + q, "docid": d, "grade": str(g), "extra": "e"}
        lines.append(delimiter.join(values[c] for c in order))
    text = newline.join(lines) + (newline if final_newline else "")
    header = tabular._find_header(text, "t", "qrels")
    fast = tabular._rows_fast(text.encode(), header, "t", "qrels", len(text), piece_bytes=chunk)
    assert fast is not None
    with mock.patch.object(tabular, "_BLOCK_LINES", block):
        same_rows(fast, tabular._rows(text, header, "t", "qrels", len(text)))


@pytest.mark.parametrize("body", [
    '1,"a",1\n',  # a quote
    "1, a,1\n",  # a space
    "1,a,1\n1,b\n",  # too few fields
    "1,,1\n",  # an empty field
    "1,a,1\r2,b,1\n",  # a lone carriage return
    "\n\n",  # no data line
])
def test_the_fast_conversion_declines_what_it_cannot_read_exactly(body):
    text = "qid,docid,grade\n" + body
    assert tabular._rows_fast(text.encode(), tabular._find_header(text, "t", "qrels"), "t", "qrels", len(text)) is None


# --- whitespace is ASCII whitespace on both paths ----------------------------------------------------

UNICODE_SPACES = ["\u00a0", "\u2003", "\u3000", "\u0085", "\u2028", "\u001f"]  # str.split() splits at each


@pytest.mark.parametrize("space", UNICODE_SPACES)
@pytest.mark.parametrize("newline", ["\n", "\r\n"])  # CRLF: the line-by-line path strips every line
def test_unicode_spaces_are_part_of_a_field_on_both_paths(space, newline):
    rows = [("q1", f"d1{space}", "1"), (f"{space}q2", "d2", "2"), ("q3", f"a{space}b", f"{space}0")]
    text = newline.join(["qid,docid,grade", *(",".join(row) for row in rows)]) + newline
    header = tabular._find_header(text, "t", "qrels")
    fast = tabular._rows_fast(text.encode(), header, "t", "qrels", len(text))
    assert fast is not None
    same_rows(fast, tabular._rows(text, header, "t", "qrels", len(text)))
    qrels = read_qrels(text.replace("q3", '"q3"').replace(f"{space}0", "0"))  # a quote: line by line
    assert [d.decode() for d in qrels.docids] == [f"d1{space}", "d2", f"a{space}b"]
    assert qrels.qids == ("q1", f"{space}q2", "q3")
    with pytest.raises(model.TrecFormatError, match="found grade"):  # not a number, whichever path reads it
        read_qrels(text.replace("q3", '"q3"'))


@pytest.mark.parametrize("run", ['qid,docid,score\r\nq1,"d1\u00a0",1\r\n',  # a quote and CRLF
                                 'qid,docid,score,tag\nq1,"d1\u00a0",1,my run\n'])  # a quote and a space
def test_a_docid_ending_in_a_no_break_space_matches_its_judgment_whichever_path_reads_it(run):
    judged = load_table("qid,docid,grade\nq1,d1\u00a0,1\n", run)
    assert evaluate(judged.queries, ["R@10"], "linear")["R@10"].tolist() == [1.0]


# --- quoted fields of any length; the csv module's strict rules otherwise ---------------------------------

def test_a_quoted_field_over_128_kib_is_an_id_too_long_not_an_unclosed_quote():
    long_id = "d" * 200_000  # beyond the csv module's field_size_limit() of 131,072
    with pytest.raises(model.TrecFormatError) as caught:
        read_run(f'qid,docid,score\nq1,d1,1\nq1,"{long_id}",0.5\n', "run.csv")
    assert str(caught.value) == (f"run.csv, line 3: found a docid of 200,000 bytes: '{'d' * 60}…'; "
                                 "expected a docid of at most 512 bytes of UTF-8")
    run = read_run(f'qid,docid,score,text\nq1,d1,1,"{"a passage, " * 20_000}"\n')  # an ignored column
    assert run.docids.tolist() == [b"d1"]


@given(st.lists(st.sampled_from(['"', ",", "\t", "a", "b", " ", '""']), min_size=1, max_size=12).map("".join),
       st.sampled_from([",", "\t"]))
def test_fields_split_as_the_csv_modules_strict_reader_splits_them(line, delimiter):
    import csv

    try:
        expected = next(csv.reader([line], delimiter=delimiter, strict=True))
    except csv.Error:
        expected = None
    assert tabular._split_fields(line, delimiter) == expected


# --- old Mac line ends --------------------------------------------------------------------------------

@pytest.mark.parametrize("table", [b"qid,docid,grade\r1,d1,1\r2,d2,1\r", b"qid\tdocid\tgrade\r1\td1\t1\r"])
def test_a_table_with_old_mac_line_ends_says_so(table):
    with pytest.raises(model.TrecFormatError) as caught:
        read_qrels(table, "q.csv")
    err = caught.value
    assert (err.line, err.found[:40]) == (1, "carriage returns inside the first line: ")
    assert err.expected == ("a header line, then data lines, one line each, not lines ending in a carriage return "
                            "only (old Mac line ends): save with LF or CRLF line ends")
    with pytest.raises(model.TrecFormatError, match="old Mac line ends"):
        read_qrels(b"1 0 d1 1\r2 0 d2 1\r")  # TREC format: the TREC reader's hint


# --- memory: a few times the table, whatever its size -------------------------------------------------

def test_the_fast_reading_works_a_piece_at_a_time():
    import tracemalloc

    table = ("\n\nqid,docid,score\n" + "".join(f"{i % 100},d{i},1\n" for i in range(200_000))).encode()
    header = tabular._find_header(table.decode(), "t", "run")
    tracemalloc.start()
    rows = tabular._rows_fast(table, header, "t", "run", len(table))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    # the columns (32 bytes a row), each piece's too while they are joined, and numbering the query ids: about 110
    # bytes a row (the precise TREC reader takes about 230 for the same rows); index arrays for the whole table would
    # be 48 bytes a row more
    assert peak < 128 * 200_000 + 4 * 2**20, peak / 200_000
    same_rows(rows, tabular._rows(table.decode(), header, "t", "run", len(table)))
    run = read_run(table)
    assert (run.line.min(), run.line.max()) == (4, 200_003)  # the header on line 3


# --- whitespace inside a quoted field: part of the id, never more columns; refused in a number ---------------

@pytest.mark.parametrize("kind", ["qrels", "run"])
@pytest.mark.parametrize("space", [" ", "\t", "\v", "\f", "\r"])
@pytest.mark.parametrize("delimiter", [",", "\t"])
@pytest.mark.parametrize("padded", [False, True])  # another line with a space: the fields of lines are stripped
def test_whitespace_inside_a_quoted_field_is_part_of_it(kind, space, delimiter, padded):
    header = delimiter.join(["query-id", "corpus-id", "score"])
    other = f"q2{delimiter}d2{delimiter}{' ' if padded else ''}1"
    read = read_qrels if kind == "qrels" else read_run
    assert read(f'{header}\n{other}\n"q{space}1"{delimiter}d1{delimiter}1\n').qids == ("q2", f"q{space}1")
    with pytest.raises(model.TrecFormatError) as caught:
        read(f'{header}\n{other}\nq1{delimiter}d1{delimiter}"1{space}"\n', name="beir.tsv")
    err = caught.value
    what = "grade" if kind == "qrels" else "score"
    assert (err.file, err.line, err.found) == ("beir.tsv", 3, f"{what} {f'1{space}'!r} with a space or tab inside")
    assert err.column == f"column 3 of the header {header!r}"


@pytest.mark.parametrize("field", ['"q1 "', '" q1"', '"q\t1"'])
def test_a_quoted_field_is_read_as_written_even_when_other_lines_are_padded(field):
    assert read_run(f"qid,docid,score\nq2, d2, 1\n{field},d1,1\n").qids == ("q2", field[1:-1])
    assert read_run('qid,docid,score\nq2, d2, 1\n"q1","d,1",1\n').qids == ("q2", "q1")


def test_a_qid_may_start_with_a_hash_in_a_table_but_not_in_trec_output():
    qrels = read_qrels("qid,docid,grade\n#1,a,1\n2,b b,1\n", "q.csv")
    assert qrels.qids == ("#1", "2") and qrels.docids.tolist() == [b"a", b"b b"]
    with pytest.raises(model.TrecFormatError) as caught:
        trec_layout.check_writable(qrels, docids=False)
    assert (caught.value.line, caught.value.found[:24]) == (2, "query id '#1', which sta")
    with pytest.raises(model.TrecFormatError) as caught:
        trec_layout.check_writable(qrels, qids=["2"])
    assert (caught.value.line, caught.value.found) == (3, "docid 'b b' of query '2', which contains whitespace, but "
                                                          "TREC files separate their columns by whitespace: use an "
                                                          "id without spaces, tabs or line breaks (e.g. 'b_b')")
