"""The fast reader (pyarrow) against the precise one: the same result on every file, or a decline.

Both readers are forced with ``trec.read_with("fast", ...)`` / ``("precise", ...)``. Every
nasty-case file and every generated oracle case of test_trec_oracle.py is
read through both, rewritten clean (one space or one tab between columns, no
blank or comment line, LF or CRLF): the fast reader must take it, and the
qrels, the run, the join and every measure's per-query values must be
identical, exactly. As written (comments, mixed separators), the fast reader
either declines or gives that same result. Tiny pieces put pyarrow's piece
boundaries everywhere. With the size threshold at 0, ``reader="auto"`` must
read every bad file of test_evaluate_cli.py as the precise reader does, and
fail with the same message.
"""
from unittest import mock

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from components.engine import keys, model
from components.engine.measures import evaluate
from components.engine.model import TrecFormatError
from components.formats import columns, trec, trec_fast, trec_precise
from tests.unit.file_readers import load_trec, read_qrels, read_run
from tests.unit.test_evaluate_cli import BAD_FILES
from tests.unit.test_trec_oracle import NASTY_QRELS, NASTY_RUN, trec_files

KS = (1, 3, 5, 10)
MEASURES = [f"{family}@{k}" for family in ("R", "P", "Success", "RR", "nDCG", "DCG") for k in KS] + ["RR"]
SEPARATORS = st.sampled_from([" ", "\t"])
ENDINGS = st.sampled_from(["\n", "\r\n"])
PIECE_BYTES = st.sampled_from([1, 48, 1 << 25])  # the pieces handed to pyarrow: one line, a few lines, all


def clean(text: str, separator: str = " ", ending: str = "\n") -> str:
    """The data lines of text, one separator between columns: what the fast reader takes."""
    rows = [line.split() for line in text.splitlines()]
    return "".join(separator.join(row) + ending for row in rows if row and not row[0].startswith("#"))


def small_pieces(size: int):
    """Patch the fast reader to hand pyarrow pieces of about size bytes, which it parses in blocks of 256.

    (A block holds at least one line: pyarrow fails on a line that straddles two blocks.)
    """
    return mock.patch.multiple(trec_fast, _CHUNK_BYTES=size, _BLOCK_BYTES=256)


# --- comparing the two readers' results -------------------------------------------------

def assert_same_arrays(a, b, fields):
    for field in fields:
        x, y = getattr(a, field), getattr(b, field)
        if isinstance(x, np.ndarray):
            assert x.dtype == y.dtype, field
            assert np.array_equal(x, y), field
        else:
            assert x == y, field


def assert_same_qrels(fast: model.Qrels, precise: model.Qrels):
    assert_same_arrays(fast, precise, ["name", "qids", "qidx", "docids", "grade", "line", "doc_vocab", "doc"])


def assert_same_run(fast: model.Run, precise: model.Run):
    assert_same_arrays(fast, precise, ["name", "qids", "qidx", "docids", "rank", "line", "doc_vocab", "doc",
                                       "trailing_lines"])
    assert np.array_equal(fast.score.view(np.uint64), precise.score.view(np.uint64))  # the same bits


def assert_same_judged(fast: model.JudgedRun, precise: model.JudgedRun):
    assert_same_arrays(fast, precise, ["qids", "docids", "judged_docids", "qrels_only", "run_only", "complete"])
    assert np.array_equal(fast.scores.view(np.uint64), precise.scores.view(np.uint64))
    assert_same_arrays(fast.queries, precise.queries, ["n_queries", "qidx", "rank", "grade", "judged_qidx",
                                                       "judged_grade"])
    for gain in ("linear", "exponential"):
        ours, theirs = evaluate(fast.queries, MEASURES, gain), evaluate(precise.queries, MEASURES, gain)
        for name in MEASURES:
            assert np.array_equal(ours[name], theirs[name]), (gain, name)  # per query, exactly


def assert_both_readers_agree(qrels_text: str, run_text: str, complete: bool = False):
    """Read both files with each reader (the fast one must take them) and compare everything."""
    fast_qrels, precise_qrels = (trec.read_with(r, qrels_text, "qrels") for r in ("fast", "precise"))
    fast_run, precise_run = (trec.read_with(r, run_text, "run") for r in ("fast", "precise"))
    assert_same_qrels(fast_qrels, precise_qrels)
    assert_same_run(fast_run, precise_run)
    assert_same_judged(model.judge(fast_qrels, fast_run, complete), model.judge(precise_qrels, precise_run, complete))


def fast_or_decline(kind, text):
    """The fast reader's result for a qrels or run file, or None when it declines the file."""
    try:
        return trec.read_with("fast", text, kind)
    except TrecFormatError:
        raise
    except ValueError as err:
        assert "the fast reader declines this file" in str(err)
        return None


# --- every nasty case and every generated oracle case ---------------------------------------

@pytest.mark.parametrize("separator", [" ", "\t"])
@pytest.mark.parametrize("ending", ["\n", "\r\n"])
def test_the_nasty_files_read_alike_through_both_readers(separator, ending):
    assert_both_readers_agree(clean(NASTY_QRELS, separator, ending), clean(NASTY_RUN, separator, ending))
    assert_both_readers_agree(clean(NASTY_QRELS, separator, ending), clean(NASTY_RUN, separator, ending),
                              complete=True)


def test_the_nasty_files_as_written_are_declined_by_the_fast_reader():
    # comment lines, tabs among spaces, repeated spaces: what only the precise reader reads
    for kind, text in (("qrels", NASTY_QRELS), ("run", NASTY_RUN)):
        assert fast_or_decline(kind, text) is None
        assert trec.read_with("auto", text, kind) is not None  # small files: the precise reader, directly


@given(trec_files(), SEPARATORS, ENDINGS, PIECE_BYTES, st.booleans())
def test_generated_oracle_cases_read_alike_through_both_readers(files, separator, ending, piece, complete):
    qrels_text, run_text = (clean(text, separator, ending) for text in files)
    with small_pieces(piece):
        assert_both_readers_agree(qrels_text, run_text, complete)


@given(trec_files(), PIECE_BYTES)
def test_generated_oracle_cases_as_written_are_declined_or_read_alike(files, piece):
    qrels_text, run_text = files
    with small_pieces(piece):
        fast_qrels, fast_run = fast_or_decline("qrels", qrels_text), fast_or_decline("run", run_text)
    if fast_qrels is not None:
        assert_same_qrels(fast_qrels, trec.read_with("precise", qrels_text, "qrels"))
    if fast_run is not None:
        assert_same_run(fast_run, trec.read_with("precise", run_text, "run"))


# --- text after the tag: ignored and counted alike ----------------------------------------------

WORDS = st.lists(st.text("abcXYZ019#.,;-_:'\"\u00e9\u4e2d", min_size=1, max_size=5), min_size=1, max_size=4)


def with_text_after_the_tag(run_text: str, words: list[str], separator: str, every: int) -> str:
    """run_text (clean, LF or CRLF) with the words after the tag on every ``every``-th line (0: on none)."""
    lines = run_text.splitlines(keepends=True)
    ending = lines[0][len(lines[0].rstrip("\r\n")):]
    return "".join(line.rstrip("\r\n") + separator + separator.join(words) + ending
                   if every and i % every == 0 else line for i, line in enumerate(lines))


@given(trec_files(), SEPARATORS, ENDINGS, PIECE_BYTES, WORDS)
def test_text_after_the_tag_on_every_line_reads_alike_through_both_readers(files, separator, ending, piece, words):
    qrels_text, run_text = (clean(text, separator, ending) for text in files)
    extended = with_text_after_the_tag(run_text, words, separator, every=1)
    with small_pieces(piece):
        assert_both_readers_agree(qrels_text, extended)  # the fast reader must take it
        fast = trec.read_with("fast", extended, "run")
    assert fast.trailing_lines == run_text.count("\n") > 0
    assert_same_judged(load_trec(qrels_text, extended, reader="fast"), load_trec(qrels_text, run_text))


@given(trec_files(), SEPARATORS, ENDINGS, PIECE_BYTES, WORDS, st.integers(2, 5))
def test_text_after_the_tag_on_some_lines_is_declined_or_read_alike(files, separator, ending, piece, words, every):
    run_text = clean(files[1], separator, ending)
    extended = with_text_after_the_tag(run_text, words, separator, every)
    with small_pieces(piece):
        fast = fast_or_decline("run", extended)
    precise = trec.read_with("precise", extended, "run")
    assert precise.trailing_lines == len(range(0, run_text.count("\n"), every))
    if fast is not None:
        assert_same_run(fast, precise)


# --- scores: pyarrow's parsing against Python's, bit for bit ---------------------------------

DIGITS = st.text("0123456789", min_size=1, max_size=30)
SCORE_TEXTS = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.floats(allow_nan=False, allow_infinity=False, width=32).map(lambda x: f"{x:.9g}"),
    st.tuples(st.sampled_from(["", "+", "-"]), DIGITS, st.sampled_from(["", "."]), st.text("0123456789", max_size=25),
              st.sampled_from(["", "e", "E"]), st.sampled_from(["", "+", "-"]), st.integers(0, 330))
    .map(lambda p: f"{p[0]}{p[1]}{p[2]}{p[3]}" + (f"{p[4]}{p[5]}{p[6]}" if p[4] else "")),
    st.sampled_from([".5", "5.", "-.5", "+0", "-0", "0e0", "1e-320", "4.9e-324", "2.2250738585072014e-308",
                     "1.7976931348623157e308", "9007199254740993", "0.1000000000000000055511151231257827"]),
)


@given(st.lists(SCORE_TEXTS, min_size=1, max_size=40), PIECE_BYTES)
def test_scores_read_alike_bit_for_bit_or_are_declined(scores, piece):
    text = "".join(f"q{i % 3} Q0 d{i} {i} {score} tag\n" for i, score in enumerate(scores))
    with small_pieces(piece):
        fast = fast_or_decline("run", text)
    try:
        precise = trec.read_with("precise", text, "run")
    except TrecFormatError:
        assert fast is None  # a score the precise reader rejects (too large): the fast reader declined it
        return
    if fast is not None:
        assert_same_run(fast, precise)


# --- what the fast reader declines, and auto's fallback ------------------------------------

GOOD_QRELS, GOOD_RUN = "1 0 a 1\n1 0 b 2\n2 0 c 1\n", "1 Q0 a 1 2.5 r\n1 Q0 b 2 1.5 r\n2 Q0 c 1 1 r\n"
DECLINED = [  # (case, qrels text, run text): the fast reader declines one of the two files
    ("a blank line", GOOD_QRELS, "1 Q0 a 1 2.5 r\n\n1 Q0 b 2 1.5 r\n"),
    ("a blank line at the end", GOOD_QRELS, GOOD_RUN + "\n"),
    ("a comment line with six columns", GOOD_QRELS, "# q Q0 doc rank score tag\n" + GOOD_RUN),
    ("a comment line that reads as a result", GOOD_QRELS, GOOD_RUN + "#q Q0 d 1 2.5 r\n"),
    ("a comment line that reads as a judgment", "# judged by 2\n" + GOOD_QRELS, GOOD_RUN),
    ("two spaces between columns", GOOD_QRELS, "1 Q0  a 1 2.5 r\n"),
    ("two spaces, then too few columns", GOOD_QRELS, "1  Q0 a 1 2.5\n"),
    ("a space at the start of a line", GOOD_QRELS, " 1 Q0 a 1 2.5 r\n"),
    ("a space at the end of a line", GOOD_QRELS, "1 Q0 a 1 2.5 r \n"),
    ("a space at the end, one column short", GOOD_QRELS, "1 Q0 a 1 2.5 \n"),
    ("tabs and spaces", "1\t0 a 1\n", GOOD_RUN),
    ("a space inside a tab-separated line", "1\t0\ta b\t1\n", GOOD_RUN),  # 4 columns to pyarrow, 5 to us
    ("a carriage return inside a line", GOOD_QRELS, "1 Q0 a 1 2.5 r\r1 Q0 b 2 1.5 r\n"),
    ("a carriage return at the very end", GOOD_QRELS, GOOD_RUN + "\r"),
    ("a vertical tab", GOOD_QRELS, "1 Q0 a\x0b1 2.5 r\n"),
    ("a vertical tab inside an id", GOOD_QRELS, "1 Q0 a\x0bb 1 2.5 r\n"),  # 6 columns to pyarrow, 7 to us
    ("a form feed inside an id", "1 0 a\x0cb 1\n", GOOD_RUN),
    ("a score nan", GOOD_QRELS, "1 Q0 a 1 nan r\n"),
    ("a score inf", GOOD_QRELS, "1 Q0 a 1 -inf r\n"),
    ("a score that overflows", GOOD_QRELS, "1 Q0 a 1 1e400 r\n"),
    ("a score with an underscore", GOOD_QRELS, "1 Q0 a 1 1_0 r\n"),
    ("a hexadecimal score", GOOD_QRELS, "1 Q0 a 1 0x10 r\n"),
    ("a hexadecimal grade", "1 0 a 0x10\n", GOOD_RUN),
    ("a grade with a decimal point", "1 0 a 1.0\n", GOOD_RUN),
    ("a grade too large", "1 0 a 99999999999999999999\n", GOOD_RUN),
    ("too few columns", GOOD_QRELS, "1 Q0 a 1 2.5\n"),
    ("text after the tag on a later line only", GOOD_QRELS, GOOD_RUN + "3 Q0 d 1 1 r more\n"),
    ("text after the tag on the first line only", GOOD_QRELS, "3 Q0 d 1 1 r more\n" + GOOD_RUN),
    ("more words after the tag on a later line", GOOD_QRELS, "1 Q0 a 1 2.5 r x\n1 Q0 b 2 1.5 r x y\n"),
    ("a space after the tag's text", GOOD_QRELS, "1 Q0 a 1 2.5 r x \n1 Q0 b 2 1.5 r y \n"),
    ("two spaces before the tag's text", GOOD_QRELS, "1 Q0 a 1 2.5 r  x\n1 Q0 b 2 1.5 r  y\n"),
    ("more columns than the fast reader takes", GOOD_QRELS,
     "".join(f"1 Q0 d{i} 1 1 r {' '.join('x' * trec_fast.MAX_COLUMNS)}\n" for i in range(3))),
    ("old Mac line ends, text after the tag", GOOD_QRELS, "1 Q0 a 1 2.5 r\r1 Q0 b 2 1.5 r\r"),
    ("a judgment with text after the grade", "1 0 a 1 x\n1 0 b 2 y\n", GOOD_RUN),
    ("the files swapped", GOOD_RUN, GOOD_QRELS),
    ("an empty file", "", GOOD_RUN),
    ("only a line end", GOOD_QRELS, "\n"),
]


def outcome(kind, text, reader):
    """What reading text as a qrels or run file gives: the result, or the error's message."""
    try:
        return trec.read_with(reader, text, kind)
    except TrecFormatError as err:
        return str(err)


@pytest.mark.parametrize("case, qrels, run", DECLINED, ids=[c[0] for c in DECLINED])
def test_the_fast_reader_declines_what_it_could_read_otherwise(case, qrels, run):
    declined = [fast_or_decline(kind, text) is None for kind, text in (("qrels", qrels), ("run", run))]
    assert any(declined)


@pytest.mark.parametrize("case, qrels, run", DECLINED, ids=[c[0] for c in DECLINED])
def test_auto_falls_back_to_the_precise_reader(case, qrels, run):
    with mock.patch.object(trec, "FAST_MIN_BYTES", 0):  # auto tries the fast reader on every file
        for kind, text in (("qrels", qrels), ("run", run)):
            auto, precise = outcome(kind, text, "auto"), outcome(kind, text, "precise")
            if isinstance(precise, str):
                assert auto == precise  # the same message
            elif kind == "qrels":
                assert_same_qrels(auto, precise)
            else:
                assert_same_run(auto, precise)


@pytest.mark.parametrize("case, qrels, run, args, culprit, line, fragments", BAD_FILES, ids=[c[0] for c in BAD_FILES])
def test_every_bad_file_fails_alike_whichever_reader_auto_picks(case, qrels, run, args, culprit, line, fragments):
    gain = args[1] if args else None
    messages = []
    for threshold in (0, 1 << 40):  # auto tries the fast reader first / goes to the precise reader directly
        with mock.patch.object(trec, "FAST_MIN_BYTES", threshold), pytest.raises(TrecFormatError) as caught:
            load_trec(qrels, run, gain=gain, qrels_name="qrels.txt", run_name="run.txt")
        messages.append(str(caught.value))
    assert messages[0] == messages[1]
    assert messages[0].startswith(f"{culprit}.txt, line {line}: found ")


def test_quotes_commas_hashes_and_non_ascii_bytes_are_plain_characters_to_both_readers():
    ids = ['"a', "b,c", "d#e", "'f'", "\u00e9t\u00e9", "nb\u00a0sp", "\u4e2d", "\U0001f600", "\\x"]
    qrels = "".join(f"q{i % 2} 0 {d} {i % 3}\n" for i, d in enumerate(ids))
    run = "".join(f"q{i % 2} Q0 {d} {i} 1 tag\n" for i, d in enumerate(reversed(ids)))  # all tied: byte order
    assert_both_readers_agree(qrels, run)


def test_auto_takes_the_fast_reader_for_a_large_clean_file_only():
    text = "".join(f"q{i // 100} Q0 d{i} {i % 100 + 1} {-i} tag\n" for i in range(2_000))
    with mock.patch.object(trec, "FAST_MIN_BYTES", len(text)), \
            mock.patch.object(trec_precise, "rows", wraps=trec_precise.rows) as precise:
        read_run(text)  # large enough, and clean: the fast reader
        assert precise.call_count == 0
        read_run(text[:-1])  # a byte short of the threshold: the precise reader
        assert precise.call_count == 1
        read_run("# a comment\n" + text)  # large, not clean: declined, then the precise reader
        assert precise.call_count == 2


def test_the_reader_must_be_one_of_three():
    with pytest.raises(ValueError, match="reader must be one of 'auto', 'fast', 'precise', got 'quick'"):
        trec.read_with("quick", GOOD_QRELS, "qrels")


# --- piece boundaries, widths, ids ----------------------------------------------------------

def test_ids_wider_than_a_word_in_later_pieces_widen_the_columns():
    # short ids first, then ids of 9, 17 and 30 bytes (one to four 8-byte words), query ids too
    ids = ["a", "b", "007", "7", "doc-00009", "document-00000017", "a-very-long-document-id-000030"]
    qrels = "".join(f"{q} 0 {d} {i % 3}\n" for i, (q, d) in enumerate((q, d) for q in ids for d in ids))
    run = "".join(f"{q} Q0 {d} {i} {i % 4} tag\n" for i, (q, d) in enumerate((q, d) for q in reversed(ids)
                                                                              for d in ids))
    for piece in (1, 40, 1 << 25):
        with small_pieces(piece):
            assert_both_readers_agree(qrels, run)


def test_a_run_out_of_rank_order_is_sorted_alike():
    # queries interleaved, scores ascending, ties across the whole run: the sorting branch
    run = "".join(f"q{i % 7} Q0 d{i} {i} {(i * 37) % 11 - 5} tag\n" for i in range(500))
    qrels = "".join(f"q{q} 0 d{d} {d % 3}\n" for q in range(8) for d in range(q, 500, 9))
    with small_pieces(1 << 10):
        assert_both_readers_agree(qrels, run)
        assert_both_readers_agree(qrels, run, complete=True)


# --- 64-bit keys: collisions change nothing ------------------------------------------------

def test_colliding_pair_keys_change_nothing():
    qrels, run = clean(NASTY_QRELS), clean(NASTY_RUN)
    expected = load_trec(qrels, run)
    with mock.patch.object(keys, "pair_keys", lambda qidx, docids: np.zeros(qidx.size, dtype=np.uint64)):
        collided = load_trec(qrels, run, reader="fast")  # every pair shares a key: exact comparisons throughout
    assert_same_judged(collided, expected)


def test_a_run_key_colliding_with_a_judged_key_borrows_no_grade():
    def by_length(qidx, docids):  # keys that collide across documents of one length
        return np.char.str_len(docids).astype(np.uint64) * np.uint64(1000) + qidx.astype(np.uint64)

    qrels = read_qrels("q 0 a 3\nq 0 bb 2\nq 0 ccc 1\n")
    run = read_run("q Q0 x 1 9 r\nq Q0 yy 2 8 r\nq Q0 ccc 3 7 r\nq Q0 a 4 6 r\n")
    with mock.patch.object(keys, "pair_keys", by_length):
        judged = model.judge(qrels, run)
    assert judged.queries.grade.tolist() == [0, 0, 1, 3]  # x and yy share a key with a and bb, not their grades


def test_distinct_pairs_get_distinct_keys():
    # a realistic set, 200,000 pairs: one collision would send every check to the slow exact path
    rng = np.random.default_rng(16)
    qidx = np.repeat(np.arange(200), 1_000)
    numbers = rng.integers(0, 8_841_823, qidx.size)  # MS MARCO passage ids
    n_pairs = np.unique(qidx * 10**7 + numbers).size
    short = np.char.encode(numbers.astype(str))
    for docids in (short, np.char.add(b"clueweb09-en0000-", short)):  # one 8-byte word; three
        assert np.unique(keys.pair_keys(qidx, docids)).size == n_pairs


# --- the limits on ids: declined before padding, worded by the precise reader ----------------------

def test_ids_up_to_the_limit_read_alike_through_both_readers():
    longest = "L" * columns.MAX_ID_BYTES
    qrels = f"{longest} 0 a 1\n1 0 {longest} 2\n1 0 b 1\n"
    run = f"1 Q0 b 1 3 r\n1 Q0 {longest} 2 2 r\n{longest} Q0 a 1 1 r\n"
    for piece in (1, 1 << 25):  # a line a piece, or one piece (pyarrow's blocks of 4 MiB hold these lines)
        with mock.patch.object(trec_fast, "_CHUNK_BYTES", piece):
            assert_both_readers_agree(qrels, run)


@pytest.mark.parametrize("case", ["one long docid among short lines", "too much once padded"])
@pytest.mark.parametrize("piece", [1 << 12, 1 << 25])  # the long id in a late piece, or in the only one
def test_the_fast_reader_declines_ids_over_the_limits_before_padding_them(case, piece):
    from tests.unit.test_trec_reader import AMPLIFICATION_RUN, traced_peak

    many_short_lines = "".join(f"{i % 100} 0 d{i} 1\n" for i in range(200_000)) + "7 0 " + "L" * 512 + " 1\n"
    kind, text = {"one long docid among short lines": ("run", AMPLIFICATION_RUN),
                  "too much once padded": ("qrels", many_short_lines)}[case]
    data = text.encode()
    with mock.patch.object(trec_fast, "_CHUNK_BYTES", piece):
        declined, peak = traced_peak(lambda: trec.read_with("fast", data, kind))
        with mock.patch.object(trec, "FAST_MIN_BYTES", 0):
            auto = outcome(kind, data, "auto")
    assert isinstance(declined, ValueError) and "the fast reader declines this file" in str(declined)
    assert peak < 64 * 2**20  # what the padded ids would take: 954 MiB and 99 MiB
    assert auto == outcome(kind, data, "precise")
    assert auto.startswith(f"{kind}, line ")
