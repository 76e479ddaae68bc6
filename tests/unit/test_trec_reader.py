"""The TREC reader: friendly input, exact ids, trec_eval's order and join, and robustness.

The vectorised tokenizer is checked against a plain line-by-line reading
(``bytes.split()`` per line) on generated files, with tiny chunk sizes so that
chunk boundaries fall everywhere; random text and bytes either read or raise
TrecFormatError, nothing else.
"""
import io
import pickle
import tracemalloc
from unittest import mock

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from components.engine import keys, metrics, model
from components.engine.model import TrecFormatError
from components.formats import columns, decode, trec, trec_layout
from tests.unit.file_readers import load_trec, read_qrels, read_run


def run_docids(run):
    return [run.doc_vocab[d].decode() for d in run.doc]


def qrels_rows(qrels):
    return [(int(line), qrels.qids[q], qrels.doc_vocab[d].decode(), int(g))
            for line, q, d, g in zip(qrels.line, qrels.qidx, qrels.doc, qrels.grade)]


# --- friendly input -------------------------------------------------------------

def test_blank_lines_comments_tabs_crlf_and_a_byte_order_mark_are_fine():
    text = "\ufeff# judged by hand\r\n\r\n1\t0\tdoc1\t2\r\n   \n  # an indented comment\n7  0   doc2 -2\n007 0 doc2 1"
    qrels = read_qrels(text)
    assert qrels_rows(qrels) == [(3, "1", "doc1", 2), (6, "7", "doc2", -2), (7, "007", "doc2", 1)]


def test_ids_are_opaque_strings():
    qrels = read_qrels("7 0 7 1\n007 0 007 2\n7 0 007 3\n")
    assert qrels.qids == ("7", "007")
    assert sorted(qrels.doc_vocab.tolist()) == [b"007", b"7"]
    assert qrels_rows(qrels) == [(1, "7", "7", 1), (2, "007", "007", 2), (3, "7", "007", 3)]


def test_a_hash_inside_a_line_is_part_of_an_id():
    qrels = read_qrels("1 0 doc#1 1\n")
    assert qrels_rows(qrels) == [(1, "1", "doc#1", 1)]


@pytest.mark.parametrize("kind", ["path", "bytes", "bytearray", "str", "binary file", "text file"])
def test_every_kind_of_source_reads_the_same(tmp_path, kind):
    text = "1 0 a 1\n2 0 b 2\n"
    path = tmp_path / "judgments.txt"
    path.write_text(text)
    source = {"path": path, "bytes": text.encode(), "bytearray": bytearray(text.encode()), "str": text,
              "binary file": io.BytesIO(text.encode()), "text file": io.StringIO(text)}[kind]
    assert qrels_rows(read_qrels(source)) == [(1, "1", "a", 1), (2, "2", "b", 2)]


def test_messages_name_the_path_the_upload_or_the_given_name(tmp_path):
    path = tmp_path / "bad.qrels"
    path.write_text("1 0 a\n")
    with pytest.raises(TrecFormatError, match="^" + str(path).replace("\\", "\\\\") + ", line 1"):
        read_qrels(path)
    upload = io.BytesIO(b"1 0 a\n")
    upload.name = "upload.txt"
    with pytest.raises(TrecFormatError, match="^upload.txt, line 1"):
        read_qrels(upload)
    with pytest.raises(TrecFormatError, match="^mine, line 1"):
        read_qrels(b"1 0 a\n", "mine")


def test_an_unknown_source_type_is_a_type_error():
    with pytest.raises(TypeError, match="expected a path"):
        read_qrels(42)


def test_error_attributes_hold_the_parts_of_the_message():
    with pytest.raises(TrecFormatError) as caught:
        read_run("1 Q0 a 1 2 r\n\n1 Q0 b 2 high r\n", "run.txt")
    err = caught.value
    assert (err.file, err.line) == ("run.txt", 3)
    assert "'high'" in err.found and "finite number" in err.expected
    assert isinstance(err, ValueError)
    assert str(pickle.loads(pickle.dumps(err))) == str(err)


# --- trec_eval's order --------------------------------------------------------------

def test_run_order_is_score_then_docid_descending_in_byte_order_and_ignores_ranks():
    # Five documents tie at score 1 (spelled 1, 1.0, 1e0, +1, 10e-1); 'top' scores 2 but claims rank 9.
    run = read_run("q Q0 007 1 1 r\nq Q0 7 2 1.0 r\nq Q0 Z 3 1e0 r\nq Q0 z 4 +1 r\n"
                        "q Q0 \u00e9 5 10e-1 r\nq Q0 top 9 2 r\nq Q0 low 0 -1.5e-3 r\n")
    # bytes: é = c3 a9 > z = 7a > Z = 5a > 7 = 37 > 007 (starts with 30)
    assert run_docids(run) == ["top", "\u00e9", "z", "Z", "7", "007", "low"]
    assert run.rank.tolist() == [1, 2, 3, 4, 5, 6, 7]


def test_scores_are_compared_as_32_bit_floats_as_trec_eval_stores_them():
    run = read_run("q Q0 a 1 1.000000001 r\nq Q0 b 2 1 r\nq Q0 c 3 1.0000001 r\nq Q0 d 4 1e-50 r\nq Q0 e 5 0 r\n"
                        "q Q0 f 6 1e39 r\nq Q0 g 7 2e39 r\n")
    # 1.000000001 rounds to 1 in float32 (a tie: b > a); 1.0000001 does not; 1e-50 rounds to 0 (e > d);
    # 1e39 and 2e39 both overflow to infinity (g > f)
    assert run_docids(run) == ["g", "f", "c", "b", "a", "e", "d"]
    assert run.score[run_docids(run).index("a")] == 1.000000001  # the score itself is kept as read


def test_minus_zero_ties_with_zero():
    run = read_run("q Q0 a 1 0 r\nq Q0 b 2 -0 r\n")
    assert run_docids(run) == ["b", "a"]  # a tie: docid descending


def test_interleaved_queries_are_grouped_in_order_of_first_appearance():
    run = read_run("b Q0 x 1 1 r\na Q0 y 1 5 r\nb Q0 z 2 3 r\na Q0 w 2 9 r\n")
    assert run.qids == ("b", "a")
    assert [run.qids[q] for q in run.qidx] == ["b", "b", "a", "a"]
    assert run_docids(run) == ["z", "x", "w", "y"]
    assert run.rank.tolist() == [1, 2, 1, 2]
    assert run.line.tolist() == [3, 1, 4, 2]


# --- joining with the qrels ---------------------------------------------------------

QRELS = "1 0 a 2\n1 0 b 0\n1 0 c -2\n1 0 z 1\n2 0 c 1\n3 0 d 1\n"
RUN = "2 Q0 c 1 5 r\n1 Q0 b 1 9 r\n1 Q0 c 2 8 r\n1 Q0 x 3 7 r\n1 Q0 a 4 6 r\n9 Q0 a 1 1 r\n"


def test_judge_follows_the_qrels_order_and_grades_unjudged_documents_zero():
    judged = load_trec(QRELS, RUN)
    assert judged.qids == ("1", "2")
    assert judged.ranking(0) == [("b", 9.0, 0), ("c", 8.0, -2), ("x", 7.0, 0), ("a", 6.0, 2)]
    assert judged.ranking(1) == [("c", 5.0, 1)]
    assert judged.queries.judged_grade.tolist() == [2, 0, -2, 1, 1]  # z is judged, never returned
    assert judged.judged_docids.tolist() == [b"a", b"b", b"c", b"z", b"c"]
    assert judged.qrels_only == ("3",) and judged.run_only == ("9",)
    assert judged.skipped == {"qrels_only": 1, "run_only": 1}


def test_complete_adds_judged_queries_missing_from_the_run_with_an_empty_ranking():
    judged = load_trec(QRELS, RUN, complete=True)
    assert judged.qids == ("1", "2", "3")
    assert judged.ranking(2) == []
    assert judged.queries.judged_qidx.tolist() == [0, 0, 0, 0, 1, 2]
    assert judged.skipped == {"qrels_only": 0, "run_only": 1}


def test_no_common_query_shows_both_id_formats():
    with pytest.raises(TrecFormatError) as caught:
        load_trec("1 0 a 1\n2 0 a 1\n", "q1 Q0 a 1 1 r\n", qrels_name="qrels.txt", run_name="run.txt")
    assert str(caught.value).startswith("run.txt, line 1: found no query that is also in qrels.txt")
    assert "'q1'" in caught.value.found and "'1', '2'" in caught.value.expected


def test_exponential_gain_takes_grades_up_to_60():
    load_trec("1 0 a 60\n", "1 Q0 a 1 1 r\n", gain="exponential")  # 2^60 − 1: about 1.2e18
    load_trec("1 0 a 1000\n", "1 Q0 a 1 1 r\n", gain="linear")
    with pytest.raises(TrecFormatError) as caught:
        load_trec("1 0 a 1\n1 0 b 61\n", "1 Q0 a 1 1 r\n", gain="exponential", qrels_name="q.txt")
    assert str(caught.value) == ("q.txt, line 2: found grade 61, too large for exponential gain (2^61 − 1 is about "
                                 "2.3e+18); expected grades up to 60 for exponential gain, or linear gain (rel), "
                                 "which takes every grade")


# --- the vectorised tokenizer against a plain reading ------------------------------------

ID_CHARS = st.sampled_from(list("0123456789abzAZ_-.#:/") + ["\u00e9", "\u00ff", "\u4e2d", "\U0001f600"])
IDS = st.text(ID_CHARS, min_size=1, max_size=12).filter(lambda s: not s.startswith("#"))
SEPARATORS = st.sampled_from([" ", "\t", "  ", " \t ", "\x0b", "\x0c", "\r"])
SCORES = st.one_of(st.sampled_from(["1", "1.0", "1e0", "+1", "-0", "0", "-1.5E-3", ".5", "5."]),  # ties
                   st.floats(allow_nan=False, allow_infinity=False).map(repr))


@st.composite
def trec_text(draw, value_strategy, n_columns):
    """A well-formed file: data lines with unique (qid, docid), blank and comment lines, any separators."""
    qids = draw(st.lists(IDS, min_size=1, max_size=3, unique=True))  # few queries: many documents each
    pairs = draw(st.lists(st.tuples(st.sampled_from(qids), IDS), min_size=1, max_size=25, unique=True))
    lines = []
    for qid, docid in pairs:
        if draw(st.booleans()):
            lines.append(draw(st.sampled_from(["", "   ", "\t", "# a comment", "  #x y z"])))
        columns = [qid, "Q0" if n_columns == 6 else "0", docid]
        columns += [str(draw(st.integers(0, 1000))), draw(value_strategy), "tag"] if n_columns == 6 else \
            [draw(value_strategy)]
        sep = [draw(SEPARATORS) for _ in columns]
        lines.append(draw(st.sampled_from(["", " ", "\t"])) + "".join(c + s for c, s in zip(columns, sep)))
    ending = draw(st.sampled_from(["\n", "\r\n"]))
    return ending.join(lines) + draw(st.sampled_from(["", ending]))


def plain_rows(text: str):
    """(line, fields) of every data line, read one line at a time."""
    rows = []
    for number, line in enumerate(text.encode().split(b"\n"), 1):
        fields = line.split()
        if fields and not fields[0].startswith(b"#"):
            rows.append((number, [f.decode() for f in fields]))
    return rows


CHUNK_SIZES = st.sampled_from([1, 7, 64, 1 << 24])


def as_float32(text: str) -> float:
    with np.errstate(over="ignore"):
        return float(np.float32(float(text)))


@given(trec_text(st.integers(metrics.MIN_GRADE, metrics.MAX_GRADE).map(str), 4), CHUNK_SIZES)
def test_qrels_tokenizing_matches_a_plain_reading(text, chunk):
    with mock.patch.object(decode, "_CHUNK_BYTES", chunk):
        qrels = read_qrels(text)
    assert qrels_rows(qrels) == [(n, f[0], f[2], int(f[3])) for n, f in plain_rows(text)]


@given(trec_text(SCORES, 6), CHUNK_SIZES)
def test_run_tokenizing_and_order_match_a_plain_reading(text, chunk):
    with mock.patch.object(decode, "_CHUNK_BYTES", chunk):
        run = read_run(text)
    rows = plain_rows(text)
    first_seen = list(dict.fromkeys(f[0] for _, f in rows))
    # trec_eval's order: query (first appearance), score (as float32) descending, docid bytes descending
    rows.sort(key=lambda r: (first_seen.index(r[1][0]), -as_float32(r[1][4]), [-b for b in r[1][2].encode()] + [1]))
    got = [(int(line), run.qids[q], docid, float(score))
           for line, q, docid, score in zip(run.line, run.qidx, run_docids(run), run.score)]
    assert got == [(n, f[0], f[2], float(f[4])) for n, f in rows]


def test_numbering_falls_back_to_the_bytes_on_a_hash_collision():
    texts = np.array([b"a-long-document-id-1", b"a-long-document-id-2", b"a-long-document-id-1"])
    with mock.patch.object(keys, "_words", lambda t: np.zeros((t.size, 3), dtype=np.uint64)):
        vocab, codes = keys.factorize(texts)  # every key collides
    assert vocab.tolist() == [b"a-long-document-id-1", b"a-long-document-id-2"]
    assert codes.tolist() == [0, 1, 0]


# --- anything at all: data or TrecFormatError -----------------------------------------------

TOKENS = st.sampled_from(["1", "0", "Q0", "d1", "d2", "-2", "1.5", "nan", "inf", "1e400", "1_0", "9" * 25,
                          "#", " ", "  ", "\t", "\n", "\r\n", "\r", "\x00", "\u00e9", "\ufeff", "x"])
FIELDS = st.sampled_from(["1", "0", "2", "-2", "Q0", "d1", "d2", "7", "007", "1.5", "1e0", "nan", "-inf", "1_0",
                          "9" * 25, "#", "#c", "\u00e9", "\x00", "x"])
QIDS, DOCIDS = st.sampled_from(["1", "7", "007"]), st.sampled_from(["d1", "d2", "\u00e9"])
NEAR_TREC = st.lists(st.one_of(
    st.tuples(QIDS, st.just("0"), DOCIDS, FIELDS),  # qrels-like
    st.tuples(QIDS, st.just("Q0"), DOCIDS, FIELDS, FIELDS, st.just("r")),  # run-like
    st.lists(FIELDS, min_size=1, max_size=7),
).map(" ".join), min_size=1, max_size=6).map("\n".join)
ANY_INPUT = st.one_of(
    NEAR_TREC,
    st.binary(max_size=200),
    st.text(max_size=200),
    st.lists(TOKENS, max_size=60).map("".join),
    st.lists(TOKENS, max_size=60).map(lambda t: "".join(t).encode("utf-8")),
    st.lists(TOKENS, max_size=60).map(lambda t: "".join(t).encode("utf-16")),
)


@given(ANY_INPUT, ANY_INPUT)
def test_random_input_reads_or_raises_trec_format_error(first, second):
    for kind in ("qrels", "run"):
        try:
            result = trec.read_with("auto", first, kind, "f.txt")
        except TrecFormatError as err:
            assert str(err).startswith(f"f.txt, line {err.line}: found ")
            assert err.line >= 1 and "; expected " in str(err)
        else:
            assert result.qidx.size == result.doc.size == result.line.size > 0
    try:
        judged = load_trec(first, second)
    except TrecFormatError:
        return
    assert judged.queries.n_queries == len(judged.qids) >= 1


@pytest.mark.parametrize("chunk", [1, 7, 1 << 24])
def test_a_byte_that_is_not_utf8_is_found_wherever_the_pieces_end(chunk):
    # UTF-8 is checked a piece at a time: the same line and byte, whatever the piece size
    data = "1 0 a 1\n1 0 \u00e9t\u00e9 1\n1 0 \U0001f600 2\n".encode() + "2 0 caf\u00e9 1\n".encode("latin-1")
    with mock.patch.object(decode, "_CHUNK_BYTES", chunk), pytest.raises(TrecFormatError) as caught:
        read_qrels(data, "q.txt")
    # "2 0 caf" is 7 bytes: the Latin-1 é is the 8th
    assert str(caught.value).startswith("q.txt, line 4: found byte 0xe9, which is not UTF-8 text (byte 8 of the line)")


# --- limits: id length, padded size, grades ---------------------------------------------------

def traced_peak(call):
    """(what call() returned or raised, the peak of memory traced meanwhile, in bytes: numpy's arrays count)."""
    tracemalloc.start()
    try:
        try:
            result = call()
        except Exception as err:  # noqa: BLE001 (the caller checks what it is)
            result = err
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def short_run(n_lines: int) -> str:
    """A run of n_lines short results (10 queries of n_lines / 10), in rank order."""
    return "".join(f"q{i % 10} Q0 d{i} {i // 10 + 1} {-i} r\n" for i in range(n_lines))


AMPLIFICATION_RUN = short_run(100_000) + "q0 Q0 " + "L" * 10_000 + " 999 -1e9 r\n"  # ~2 MB: would pad to 1 GB


@pytest.mark.parametrize("reader", ["precise", "auto"])  # auto: the fast reader first, which declines
def test_one_id_over_the_limit_among_many_short_lines_is_refused_before_any_padding(reader):
    with mock.patch.object(trec, "FAST_MIN_BYTES", 0):
        err, peak = traced_peak(lambda: trec.read_with(reader, AMPLIFICATION_RUN.encode(), "run", "run.txt"))
    assert isinstance(err, TrecFormatError)
    assert str(err) == (f"run.txt, line 100001: found a docid of 10,000 bytes: '{'L' * 60}…'; "
                        "expected a docid of at most 512 bytes of UTF-8")
    assert peak < 64 * 2**20  # padded, the docids alone would take 100,001 × 10,000 bytes (954 MiB)


def test_the_first_id_over_the_limit_is_named_qid_or_docid():
    text = "1 0 a 1\n" + "q" * 513 + " 0 b 1\n1 0 " + "d" * 600 + " 1\n"
    with pytest.raises(TrecFormatError) as caught:
        read_qrels(text, "q.txt")
    assert (caught.value.line, caught.value.found[:18]) == (2, "a qid of 513 bytes")
    qrels = read_qrels("q" * 512 + " 0 " + "d" * 512 + " 1\n")  # at the limit: fine
    assert qrels.docids.dtype.itemsize == 512 and len(qrels.qids[0]) == 512


def test_ids_up_to_the_limit_among_many_short_lines_stay_within_the_bound():
    from components.serving.shared_cache import nbytes

    text = short_run(100_000) + "q0 Q0 " + "L" * columns.MAX_ID_BYTES + " 999 -1e9 r\n"
    run = read_run(text)
    assert run.docids.dtype.itemsize == 512
    assert nbytes(run) <= 8 * len(text) + 64 * 2**20  # about 56 MB for a 2 MB file: within 8 × 2 MB + 64 MiB


def test_ids_that_would_take_too_much_memory_padded_are_refused():
    # 200,000 lines of 12 to 17 bytes and one docid of 512 bytes: padded, 200,001 × (8 + 512) bytes, about 99 MiB,
    # more than 8 × the file's 3 MB + 64 MiB (about 88 MiB)
    text = "".join(f"{i % 100} 0 d{i} 1\n" for i in range(200_000)) + "7 0 " + "L" * 512 + " 1\n"
    assert 200_001 * 520 > 8 * len(text) + 64 * 2**20
    err, peak = traced_peak(lambda: read_qrels(text.encode(), "q.txt"))
    assert isinstance(err, TrecFormatError)
    assert peak < 64 * 2**20  # refused before the 99 MiB are allocated
    assert (err.file, err.line) == ("q.txt", 200_001)
    assert err.found == ("a docid of 512 bytes among 200,001 lines: with every id padded to the longest of its "
                         f"column, the ids would take {200_001 * 520 / 2**20:,.1f} MiB")
    assert err.expected == ("ids that take at most 8 times the file's size plus 64 MiB "
                            f"(here {(8 * len(text) + 64 * 2**20) / 2**20:,.1f} MiB) when padded: shorter ids, "
                            "or fewer lines per file")


def test_the_join_widens_neither_side():
    qrels = read_qrels("q0 0 d0 1\nq0 0 " + "L" * 512 + " 2\n")
    run = read_run(short_run(200_000))
    judged, peak = traced_peak(lambda: model.judge(qrels, run))
    assert judged.ranking(0)[0] == ("d0", 0.0, 1)
    assert peak < 10 * 2**20  # the run's docids widened to 512 bytes would take 98 MiB


def test_colliding_keys_match_docids_of_other_widths_exactly():
    long_ids = ["a-long-document-id-0001", "a-long-document-id-0002"]
    qrels = read_qrels(f"q 0 a 3\nq 0 {long_ids[0]} 2\nq 0 {'x' * 40} 1\n")
    for run_text in ("q Q0 a 1 9 r\nq Q0 b 2 8 r\n",  # narrower than the qrels' docids
                     f"q Q0 {long_ids[1]} 1 9 r\nq Q0 {long_ids[0]} 2 8 r\nq Q0 a 3 7 r\n",
                     f"q Q0 {'y' * 100} 1 9 r\nq Q0 a 2 8 r\n"):  # wider
        run = read_run(run_text)
        expected = model.judge(qrels, run).queries.grade.tolist()
        with mock.patch.object(keys, "pair_keys", lambda qidx, docids: np.zeros(qidx.size, dtype=np.uint64)):
            assert model.judge(qrels, run).queries.grade.tolist() == expected
    assert expected == [0, 3]


@pytest.mark.parametrize("grade, why", [("1001", "too large"), ("-1001", "too small"),
                                        ("-9223372036854775808", "too small"), ("9223372036854775807", "too large"),
                                        ("99999999999999999999", "too large")])
def test_grades_outside_minus_1000_to_1000_are_refused(grade, why):
    with pytest.raises(TrecFormatError) as caught:
        read_qrels(f"1 0 a 1\n1 0 b {grade}\n", "q.txt")
    assert str(caught.value) == (f"q.txt, line 2: found grade {grade!r}, which is {why}; expected a whole number "
                                 "from -1000 to 1000, such as 0, 1, 2 or -2 (column 4 of: qid iter docid grade)")


def test_grades_at_the_ends_of_the_range_read_and_score_as_pytrec_eval_does():
    from tests.unit.test_trec_oracle import assert_linear_measures_agree

    qrels = "1 0 a -1000\n1 0 b 1000\n1 0 c 1\n2 0 d -1000\n"
    assert read_qrels(qrels).grade.tolist() == [-1000, 1000, 1, -1000]
    assert_linear_measures_agree(qrels, "1 Q0 a 1 3 r\n1 Q0 c 2 2 r\n1 Q0 b 3 1 r\n2 Q0 d 1 1 r\n")


def test_a_long_number_among_short_ones_pads_only_its_own_group():
    digits = "0." + "0" * 9_990 + "1"  # 9,993 characters, a score of 1e-9991 (0.0 as a float)
    text = (short_run(20_000) + f"q0 Q0 x 1 {digits} r\n").encode()
    run, peak = traced_peak(lambda: trec.read_with("precise", text, "run"))
    assert run.score[run.docids == b"x"].tolist() == [0.0]
    assert peak < 20 * 2**20  # the scores padded to 10,000 bytes would take 191 MiB


def test_errors_are_structured_a_field_names_its_column_and_no_common_query_has_its_own_type():
    with pytest.raises(model.TrecFormatError) as caught:
        read_qrels("1 0 d1 x\n", "q.txt")
    assert caught.value.column == "column 4 of: qid iter docid grade"
    assert str(caught.value).endswith(f"{caught.value.expected} ({caught.value.column})")
    with pytest.raises(model.NoCommonQueryError):
        load_trec("1 0 d1 1\n", "2 Q0 d1 1 1.0 r\n")


# --- text after the tag (a run's) is ignored, as trec_eval ignores it; a qrels line has nothing after the grade ---

def run_rows(run):
    """(line, qid, docid, score, rank) of every result, in trec_eval's order."""
    return [(int(line), run.qids[q], docid, float(score), int(rank))
            for line, q, docid, score, rank in zip(run.line, run.qidx, run_docids(run), run.score, run.rank)]


EXTRA_SEPARATORS = st.sampled_from([" ", "\t", "  ", " \t ", "\x0b", "\x0c"])  # SEPARATORS but a carriage return
EXTRA_TEXT = st.lists(st.text("abcXYZ019#.,;-_:'\"" + "\u00e9\u4e2d", min_size=1, max_size=6), min_size=1,
                      max_size=4).map(" ".join)


@given(trec_text(SCORES, 6), st.data(), CHUNK_SIZES)
def test_a_run_with_text_after_the_tag_reads_as_without_it_and_counts_those_lines(text, data, chunk):
    lines = text.split("\n")
    with_extra = []
    for line in lines:
        fields = line.split()
        # (a carriage return inside a line with text after the tag is refused: see the old Mac line ends below)
        inner_return = "\r" in line.removesuffix("\r")
        if len(fields) == 6 and not fields[0].startswith("#") and not inner_return and data.draw(st.booleans()):
            cr = "\r" if line.endswith("\r") else ""
            line = line.removesuffix("\r") + data.draw(EXTRA_SEPARATORS) + data.draw(EXTRA_TEXT) + cr
        with_extra.append(line)
    extended = "\n".join(with_extra)
    with mock.patch.object(decode, "_CHUNK_BYTES", chunk):
        plain, extra = read_run(text), read_run(extended)
    assert run_rows(extra) == run_rows(plain)
    assert plain.trailing_lines == 0
    assert extra.trailing_lines == sum(len(f) > 6 for _, f in plain_rows(extended))


def test_the_lines_with_text_after_the_tag_are_counted_once_each():
    run = read_run("# a comment with many words in it\n1 Q0 a 1 3 r\n1 Q0 b 2 2 r STANDARD more junk at\n"
                        "\n1\tQ0\tc\t3\t1\tr\tx\r\n")
    assert run.trailing_lines == 2
    assert run_docids(run) == ["a", "b", "c"]


def test_a_run_line_with_fewer_than_six_columns_is_still_refused():
    with pytest.raises(TrecFormatError, match=r"line 2: found 5 columns in '1 Q0 b 2 2'; expected 6 columns"):
        read_run("1 Q0 a 1 3 r x\n1 Q0 b 2 2\n")


def test_a_qrels_line_with_text_after_the_grade_is_refused_as_trec_eval_refuses_it():
    with pytest.raises(TrecFormatError) as caught:
        read_qrels("1 0 a 1\n1 0 b 2 checked twice\n")
    assert str(caught.value) == ("qrels, line 2: found 6 columns in '1 0 b 2 checked twice'; expected 4 columns: qid "
                                 "iter docid grade (e.g. '1 0 doc7 2') (that is the layout of a run file: are the two "
                                 "files swapped?)")
    with pytest.raises(TrecFormatError) as caught:
        read_qrels("1 0 b 2 checked\n")
    assert str(caught.value).endswith("expected 4 columns: qid iter docid grade (e.g. '1 0 doc7 2'), nothing after "
                                      "the grade (trec_eval refuses such a line too: \"Malformed line\")")


@pytest.mark.parametrize("chunk", [1, 1 << 24])
def test_a_run_with_old_mac_line_ends_is_refused_not_read_as_one_line_with_text_after_the_tag(chunk):
    # the whole file is one line of 18 fields: read as text after the tag, it would keep the first result only
    with mock.patch.object(decode, "_CHUNK_BYTES", chunk), pytest.raises(TrecFormatError) as caught:
        read_run("1 Q0 a 1 3 r\r1 Q0 b 2 2 r\r1 Q0 c 3 1 r\r")
    assert caught.value.line == 1
    assert caught.value.found.startswith("18 columns")
    assert caught.value.expected.endswith(trec_layout.OLD_MAC_LINE_ENDS)
    assert read_run("1 Q0 a 1 3 r x\r\n1 Q0 b 2 2 r\r\n").trailing_lines == 1  # CRLF is fine


@pytest.mark.parametrize("read, text, expected", [
    (read_run, "1 Q0 a 1 3 r\n1 Q0 b 2 2 r\n1 Q0 a 3 1 r\n",
     "run, line 3: found document 'a' listed again for query '1' (first on line 1); expected each document at "
     "most once per query (Rankwise refuses such a run, as trec_eval does (\"duplicate docs\"): a document holds "
     "one place in a ranking, and keeping either line could change the scores)"),
    (read_qrels, "1 0 a 1\n1 0 a 2\n",
     "qrels, line 2: found document 'a' judged again for query '1' (first on line 1); expected each document at "
     "most once per query (Rankwise refuses such qrels, as trec_eval does (\"duplicate docs\"), rather than choose "
     "one of the two grades)"),
])
def test_a_document_twice_for_one_query_is_refused_saying_what_rankwise_does_and_why(read, text, expected):
    with pytest.raises(TrecFormatError) as caught:
        read(text)
    assert str(caught.value) == expected
