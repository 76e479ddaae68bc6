"""The command-line evaluator: output, JSON, options, and a message for every bad file.

Numbers are written as arithmetic with a comment, never as bare decimals.
Most runs call ``main(argv)`` in-process (fast); a few run
``python -m components.cli eval`` as a subprocess, as a user would.
"""
import json
import math
import resource
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from unittest import mock

import pytest

from components.cli.evaluate import eval_main as main
from components.cli.evaluate import run_evaluation
from components.engine import model
from components.formats import trec_layout, trec_precise
from tests.unit.file_readers import read_qrels, read_run

ROOT = Path(__file__).resolve().parents[2]
LOG2_3 = math.log2(3)


def ranking(qid: str, docs: list[str]) -> str:
    """Run lines for docs in rank order (strictly decreasing scores)."""
    return "".join(f"{qid} Q0 {doc} {i} {100 - i} tag\n" for i, doc in enumerate(docs, 1))


def write(path: Path, content) -> Path:
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    return path


def cli(tmp_path, capsys, qrels, run, *args):
    """Run main() on the two contents; return (exit status, stdout, stderr)."""
    argv = [str(write(tmp_path / "qrels.txt", qrels)), str(write(tmp_path / "run.txt", run)), *args]
    try:
        status = main(argv)
    except SystemExit as exit_:  # argparse: usage errors
        status = exit_.code
    out, err = capsys.readouterr()
    return status, out, err


def as_json(out: str) -> dict:
    return json.loads(out)  # fails unless stdout holds only the JSON


# The JAR scenario: one relevant file per query, found at positions 1, 2 and 5.
JAR_QRELS = "j1 0 lombok-1.18.30.jar 1\nj2 0 lombok-1.18.30.jar 1\nj3 0 lombok-1.18.30.jar 1\n"
JAR_RUN = (ranking("j1", ["lombok-1.18.30.jar", "lombok-1.18.28.jar"])
           + ranking("j2", ["lombok-maven-plugin", "lombok-1.18.30.jar"])
           + ranking("j3", ["a.jar", "b.jar", "c.jar", "d.jar", "lombok-1.18.30.jar"]))

# The four-query example: one relevant document per query, at ranks 1, 3, 1 and 8.
FOUR_QRELS = "".join(f"{q} 0 hit 1\n" for q in "1234")
FOUR_RUN = "".join(ranking(q, [f"miss{i}" for i in range(r - 1)] + ["hit"])
                   for q, r in zip("1234", [1, 3, 1, 8]))

# The frameworks scenario, System B: grades 0, 2, 2, 2, 1, 1, 0, 0 in rank order.
FRAMEWORK_DOCS = ["snake-care", "django", "flask", "fastapi", "bottle", "pyramid", "snake-food", "snake-pets"]
FRAMEWORK_GRADES = [0, 2, 2, 2, 1, 1, 0, 0]
FRAMEWORK_QRELS = "".join(f"web 0 {d} {g}\n" for d, g in zip(FRAMEWORK_DOCS, FRAMEWORK_GRADES))
FRAMEWORK_RUN = ranking("web", FRAMEWORK_DOCS)


# --- output ------------------------------------------------------------------------

def test_default_measures_and_linear_gain_in_a_readable_table(tmp_path, capsys):
    status, out, err = cli(tmp_path, capsys, FOUR_QRELS, FOUR_RUN)
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert "gain     linear (rel)" in lines
    assert "queries  4 evaluated; skipped: 0 only in qrels, 0 only in run" in lines
    table = lines[lines.index("") + 1:]
    assert table[0].split() == ["query", "R@5", "R@10", "RR", "nDCG@10"]
    assert len({len(line) for line in table}) == 1  # aligned: every row as wide as the header
    mrr = (1 + 1 / 3 + 1 + 1 / 8) / 4  # ranks 1, 3, 1, 8
    ndcg = (1 + 1 / math.log2(3 + 1) + 1 + 1 / math.log2(8 + 1)) / 4  # one relevant item: IDCG = 1
    assert table[-1].split() == ["mean", f"{3 / 4:.3f}", f"{4 / 4:.3f}", f"{mrr:.3f}", f"{ndcg:.3f}"]


def test_json_holds_canonical_names_and_unrounded_values(tmp_path, capsys):
    status, out, err = cli(tmp_path, capsys, FOUR_QRELS, FOUR_RUN, "--json", "-m", "recall@1", "-m", "r@3",
                           "-m", "HIT_RATE@5", "-m", "mrr", "-m", "MRR@2", "-m", "p@2")
    assert status == 0
    result = as_json(out)
    assert list(result) == ["gain", "num_queries", "skipped", "mean"]
    assert result["gain"] == "linear" and result["num_queries"] == 4
    assert result["skipped"] == {"qrels_only": 0, "run_only": 0}
    assert result["mean"] == pytest.approx({
        "R@1": 2 / 4,  # ranks 1 and 1
        "R@3": 3 / 4,  # ranks 1, 3 and 1
        "Success@5": 3 / 4,  # rank 8 misses
        "RR": (1 + 1 / 3 + 1 + 1 / 8) / 4,
        "RR@2": (1 + 0 + 1 + 0) / 4,  # hits at 3 and 8 lie below the cutoff
        "P@2": (1 / 2 + 0 + 1 / 2 + 0) / 4,
    }, abs=1e-15)
    assert result["mean"]["RR"] == (1 + 1 / 3 + 1 + 1 / 8) / 4  # unrounded: the float itself


def test_per_query_json_and_table(tmp_path, capsys):
    status, out, _ = cli(tmp_path, capsys, JAR_QRELS, JAR_RUN, "--json", "--per-query", "-m", "MRR")
    result = as_json(out)
    assert result["per_query"] == {"j1": {"RR": 1 / 1}, "j2": {"RR": 1 / 2}, "j3": {"RR": 1 / 5}}
    assert result["mean"]["RR"] == pytest.approx((1 + 0.5 + 0.2) / 3, abs=1e-15)  # 1.7 / 3
    status, out, _ = cli(tmp_path, capsys, JAR_QRELS, JAR_RUN, "--per-query", "-m", "RR")
    rows = [line.split() for line in out.splitlines()[-5:]]
    assert rows == [["j1", "1.000"], ["j2", "0.500"], ["j3", "0.200"], ["-----", "-----"],
                    ["mean", f"{1.7 / 3:.3f}"]]


def test_the_gain_is_named_and_changes_ndcg(tmp_path, capsys):
    # Frameworks System B at k = 3: grades 0, 2, 2; the ideal is 2, 2, 2.
    exponential = (3 / LOG2_3 + 3 / 2) / (3 + 3 / LOG2_3 + 3 / 2)  # gains 2^2 − 1 = 3
    linear = (2 / LOG2_3 + 2 / 2) / (2 + 2 / LOG2_3 + 2 / 2)
    for gain, expected in (("exponential", exponential), ("linear", linear)):
        _, out, _ = cli(tmp_path, capsys, FRAMEWORK_QRELS, FRAMEWORK_RUN, "--json", "-m", "ndcg@3", "--gain", gain)
        assert as_json(out)["gain"] == gain
        assert as_json(out)["mean"]["nDCG@3"] == pytest.approx(expected, abs=1e-12)
        _, out, _ = cli(tmp_path, capsys, FRAMEWORK_QRELS, FRAMEWORK_RUN, "-m", "DCG@3", "--gain", gain)
        assert f"gain     {gain} ({'2^rel − 1' if gain == 'exponential' else 'rel'})" in out
    # grades 1 then 2 (ideal 2 then 1): the two gains disagree
    qrels, run = "q 0 a 1\nq 0 b 2\n", ranking("q", ["a", "b"])
    _, out, _ = cli(tmp_path, capsys, qrels, run, "--json", "-m", "nDCG@2", "-m", "DCG@2", "--gain", "exponential")
    assert as_json(out)["mean"] == pytest.approx(
        {"nDCG@2": (1 + 3 / LOG2_3) / (3 + 1 / LOG2_3), "DCG@2": 1 + 3 / LOG2_3}, abs=1e-12)
    _, out, _ = cli(tmp_path, capsys, qrels, run, "--json", "-m", "nDCG@2", "--gain", "linear")
    assert as_json(out)["mean"]["nDCG@2"] == pytest.approx((1 + 2 / LOG2_3) / (2 + 1 / LOG2_3), abs=1e-12)


def test_skipped_queries_and_complete(tmp_path, capsys):
    qrels = JAR_QRELS + "j4 0 lombok-1.18.30.jar 1\n"
    run = JAR_RUN + ranking("x9", ["lombok-1.18.30.jar"])
    status, out, err = cli(tmp_path, capsys, qrels, run, "--json", "-m", "RR")
    assert as_json(out)["num_queries"] == 3
    assert as_json(out)["skipped"] == {"qrels_only": 1, "run_only": 1}
    assert "'j4'" in err and "'x9'" in err and "--complete" in err
    status, out, err = cli(tmp_path, capsys, qrels, run, "--json", "--per-query", "-m", "RR", "--complete")
    result = as_json(out)
    assert result["num_queries"] == 4 and result["skipped"] == {"qrels_only": 0, "run_only": 1}
    assert result["per_query"]["j4"] == {"RR": 0.0}
    assert result["mean"]["RR"] == pytest.approx((1 + 1 / 2 + 1 / 5 + 0) / 4, abs=1e-15)  # j4 counts as 0
    assert "count" in err and "'j4'" in err


def test_a_query_with_only_non_relevant_judgments_counts_with_zeros(tmp_path, capsys):
    qrels = JAR_QRELS + "j4 0 spam -2\nj4 0 other 0\n"
    run = JAR_RUN + ranking("j4", ["spam", "other"])
    _, out, _ = cli(tmp_path, capsys, qrels, run, "--json", "--per-query", "-m", "RR", "-m", "nDCG@5", "-m", "R@5")
    result = as_json(out)
    assert result["num_queries"] == 4
    assert result["per_query"]["j4"] == {"RR": 0.0, "nDCG@5": 0.0, "R@5": 0.0}


def test_a_measure_typed_twice_is_reported_once(tmp_path, capsys):
    _, out, _ = cli(tmp_path, capsys, JAR_QRELS, JAR_RUN, "--json", "-m", "MRR", "-m", "rr", "-m", "recall@5",
                    "-m", "R@5")
    assert list(as_json(out)["mean"]) == ["RR", "R@5"]


# --- bad input: a message, a non-zero status, never a traceback ------------------------------------

OK_QRELS, OK_RUN = "1 0 a 1\n", "1 Q0 a 1 2.5 r\n"

# (case, qrels, run, extra args, file at fault, line, fragments of the message)
BAD_FILES = [
    ("qrels: 3 columns", "1 0 a 1\n\n1 0 b\n", OK_RUN, [], "qrels", 3,
     ["found 3 columns in '1 0 b'", "expected 4 columns: qid iter docid grade"]),
    ("run: 5 columns", OK_QRELS, "# tag left out\n1 Q0 a 1 2.5\n", [], "run", 2,
     ["found 5 columns", "expected 6 columns: qid Q0 docid rank score tag"]),
    ("files swapped", OK_RUN, OK_QRELS, [], "qrels", 1, ["found 6 columns", "are the two files swapped?"]),
    ("grade with a decimal point", "1 0 a 1\n1 0 b 1.5\n", OK_RUN, [], "qrels", 2,
     ["found grade '1.5'", "expected a whole number"]),
    ("grade as a word", "1 0 a high\n", OK_RUN, [], "qrels", 1, ["found grade 'high'", "expected a whole number"]),
    ("grade too large", "1 0 a 99999999999999999999\n", OK_RUN, [], "qrels", 1, ["too large", "whole number"]),
    ("grade with an underscore", "1 0 a 1_0\n", OK_RUN, [], "qrels", 1, ["found grade '1_0'", "whole number"]),
    ("score as a word", OK_QRELS, "1 Q0 a 1 2.5 r\r\n1 Q0 b 2 high r\r\n", [], "run", 2,
     ["found score 'high'", "expected a finite number"]),
    ("score nan", OK_QRELS, "1 Q0 a 1 nan r\n", [], "run", 1, ["found score 'nan', which is not a finite number",
                                                               "expected a finite number"]),
    ("score inf", OK_QRELS, "1 Q0 a 1 -inf r\n", [], "run", 1, ["found score '-inf'", "expected a finite number"]),
    ("score overflows", OK_QRELS, "1 Q0 a 1 1e400 r\n", [], "run", 1, ["'1e400', which is not a finite", "finite"]),
    ("empty qrels", "", OK_RUN, [], "qrels", 1, ["found an empty file", "expected at least one data line"]),
    ("run of comments only", OK_QRELS, "# nothing yet\n\n", [], "run", 2,
     ["only blank lines and # comments", "expected at least one data line"]),
    ("qrels duplicate", "1 0 a 1\n2 0 a 1\n1 0 a 2\n", OK_RUN, [], "qrels", 3,
     ["document 'a' judged again for query '1' (first on line 1)", "expected each document at most once"]),
    ("run duplicate", OK_QRELS, "1 Q0 a 1 3 r\n1 Q0 b 2 2 r\n1 Q0 a 3 1 r\n", [], "run", 3,
     ["document 'a' listed again for query '1' (first on line 1)", "at most once per query",
      "Rankwise refuses such a run, as trec_eval does (\"duplicate docs\")", "keeping either line"]),
    ("qrels: text after the grade", "1 0 a 1\n1 0 b 2 checked\n", OK_RUN, [], "qrels", 2,
     ["found 5 columns in '1 0 b 2 checked'", "nothing after the grade", "\"Malformed line\""]),
    ("run: old Mac line ends", OK_QRELS, b"1 Q0 a 1 2 r\r1 Q0 b 2 1 r\r", [], "run", 1,
     ["found 12 columns", "old Mac line ends"]),
    ("qrels in Latin-1", "1 0 a 1\n1 0 caf\xe9 1\n".encode("latin-1"), OK_RUN, [], "qrels", 2,
     ["byte 0xe9, which is not UTF-8 text", "expected UTF-8 text"]),
    ("run in UTF-16", OK_QRELS, OK_RUN.encode("utf-16"), [], "run", 1, ["not UTF-8 text", "looks like UTF-16"]),
    ("run in UTF-32", OK_QRELS, OK_RUN.encode("utf-32"), [], "run", 1, ["byte 0xff", "looks like UTF-32"]),
    ("qrels in UTF-32 without a byte-order mark", OK_QRELS.encode("utf-32-be"), OK_RUN, [], "qrels", 1,
     ["a NUL byte", "looks like UTF-32"]),
    ("qrels in UTF-16 without a byte-order mark", OK_QRELS.encode("utf-16-le"), OK_RUN, [], "qrels", 1,
     ["a NUL byte", "looks like UTF-16"]),
    ("old Mac line ends", b"1 0 d1 1\r2 0 d2 1\r", OK_RUN, [], "qrels", 1,
     ["found 8 columns in '1 0 d1 1\\r2 0 d2 1'", "expected 4 columns: qid iter docid grade (e.g. '1 0 doc7 2'), "
      "one line each, not lines ending in a carriage return only (old Mac line ends): save with LF or CRLF line ends"]),
    ("a NUL byte", OK_QRELS, b"1 Q0 a 1 2.5 r\n1 Q0 b\x00 2 1 r\n", [], "run", 2, ["a NUL byte", "UTF-8 text"]),
    ("no common query", "1 0 a 1\n", "q1 Q0 a 1 1 r\n", [], "run", 1,
     ["no query that is also in", "'q1'", "expected query ids as the qrels writes them: '1'"]),
    ("grade too large for exponential gain", "1 0 a 1\n1 0 b 100\n", OK_RUN, ["--gain", "exponential"], "qrels", 2,
     ["grade 100, too large for exponential gain", "up to 60", "linear gain"]),
    ("grades whose exponential gains overflow", "1 0 a 1023\n1 0 b 1023\n1 0 c 1023\n", OK_RUN,
     ["--gain", "exponential", "--json"], "qrels", 1, ["grade '1023', which is too large", "from -1000 to 1000"]),
    ("the lowest int64 grade", "1 0 a 1\n1 0 b -9223372036854775808\n", OK_RUN, [], "qrels", 2,
     ["grade '-9223372036854775808', which is too small", "from -1000 to 1000"]),
    ("a docid over 512 bytes", OK_QRELS, "1 Q0 a 1 2.5 r\n1 Q0 " + "d" * 513 + " 2 1 r\n", [], "run", 2,
     ["found a docid of 513 bytes: 'ddd", "expected a docid of at most 512 bytes of UTF-8"]),
    ("a qid over 512 bytes", "1 0 a 1\n" + "\u00e9" * 257 + " 0 a 1\n", OK_RUN, [], "qrels", 2,
     ["found a qid of 514 bytes", "at most 512 bytes"]),  # 257 characters of 2 bytes each
]
AS_SUBPROCESS = {"qrels: 3 columns", "run in UTF-16", "no common query"}


def check_bad_file_message(status, out, err, path, line, fragments):
    assert status == 1
    assert out == ""
    assert "Traceback" not in err
    assert err.startswith(f"error: {path}, line {line}: found ")
    for fragment in fragments:
        assert fragment in err


@pytest.mark.parametrize("case, qrels, run, args, culprit, line, fragments", BAD_FILES, ids=[c[0] for c in BAD_FILES])
def test_every_bad_file_gets_a_message_and_a_non_zero_status(tmp_path, capsys, case, qrels, run, args, culprit,
                                                             line, fragments):
    status, out, err = cli(tmp_path, capsys, qrels, run, *args)
    check_bad_file_message(status, out, err, tmp_path / f"{culprit}.txt", line, fragments)


@pytest.mark.parametrize("case", sorted(AS_SUBPROCESS))
def test_bad_files_as_a_subprocess(tmp_path, case):
    _, qrels, run, args, culprit, line, fragments = next(c for c in BAD_FILES if c[0] == case)
    argv = [str(write(tmp_path / "qrels.txt", qrels)), str(write(tmp_path / "run.txt", run)), *args]
    done = subprocess.run([sys.executable, "-m", "components.cli", "eval", *argv], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    check_bad_file_message(done.returncode, done.stdout, done.stderr, tmp_path / f"{culprit}.txt", line, fragments)


TRAILING_RUN = "1 Q0 a 1 3 r\n1 Q0 b 2 2 r STANDARD more junk at\n1\tQ0\tc\t3\t1\tr\tx\n"


@pytest.mark.parametrize("args", [[], ["--json"], ["--per-query"]])
def test_text_after_the_tag_is_ignored_and_counted_in_a_note(tmp_path, capsys, args):
    qrels = "1 0 b 1\n1 0 c 2\n"
    _, plain_out, plain_err = cli(tmp_path, capsys, qrels, TRAILING_RUN.replace(" STANDARD more junk at", "")
                                  .replace("\tx", ""), *args)
    status, out, err = cli(tmp_path, capsys, qrels, TRAILING_RUN, *args)
    assert status == 0
    assert out == plain_out  # the same numbers, and nothing about it on stdout
    assert plain_err == ""
    assert err == "note: 2 lines of the run had text after the tag; ignored, as trec_eval does\n"
    _, _, err = cli(tmp_path, capsys, qrels, TRAILING_RUN.replace("\tx", ""), *args)
    assert err == "note: 1 line of the run had text after the tag; ignored, as trec_eval does\n"


def test_the_note_on_text_after_the_tag_comes_before_the_skipped_queries(tmp_path, capsys):
    _, _, err = cli(tmp_path, capsys, "1 0 b 1\n2 0 b 1\n", TRAILING_RUN, "--json")
    assert err.splitlines() == ["note: 2 lines of the run had text after the tag; ignored, as trec_eval does",
                                "note: 1 judged query is not in the run and was skipped (--complete counts it as 0): "
                                "'2'"]


def test_a_good_run_as_a_subprocess_prints_only_json(tmp_path):
    qrels = write(tmp_path / "qrels.txt", JAR_QRELS + "j4 0 x 1\n")
    run = write(tmp_path / "run.txt", JAR_RUN)
    done = subprocess.run([sys.executable, "-m", "components.cli", "eval", str(qrels), str(run), "--json"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    assert json.loads(done.stdout)["skipped"] == {"qrels_only": 1, "run_only": 0}
    assert "note: 1 judged query is not in the run" in done.stderr


def test_a_missing_file_or_a_folder(tmp_path, capsys):
    qrels = write(tmp_path / "qrels.txt", OK_QRELS)
    assert main([str(qrels), str(tmp_path / "nope.txt")]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(f"error: cannot read {tmp_path / 'nope.txt'}: ")
    assert main([str(tmp_path), str(qrels)]) == 1  # a folder is read as a BEIR folder: this one has no qrels/
    assert capsys.readouterr().err.startswith(f"error: cannot read {tmp_path / 'qrels' / 'test.tsv'}: no qrels ")


@pytest.mark.parametrize("name", ["MAP@x", "nDCG@0", "P@0", "R@", "R@-1", "recall_x", "bpref@10", "@5", ""])
def test_a_bad_measure_name_is_a_usage_error_listing_the_valid_forms(tmp_path, capsys, name):
    status, out, err = cli(tmp_path, capsys, OK_QRELS, OK_RUN, "-m", "RR", "-m", name)
    assert status == 2 and out == ""
    assert f"measure {name!r}" in err
    assert "R@k, Success@k, P@k, RR, RR@k, nDCG@k, DCG@k" in err and "hit_rate@k, MRR, MRR@k" in err
    assert "Traceback" not in err


def test_a_reader_that_stops_early_gets_no_traceback(tmp_path):
    # `... --per-query | head -1`: about 800 kB of table, far beyond a pipe's buffer, and the reader
    # goes away after its first line, so the evaluator's writes hit a closed pipe.
    qrels = write(tmp_path / "qrels.txt", "".join(f"q{i} 0 d 1\n" for i in range(20_000)))
    run = write(tmp_path / "run.txt", "".join(f"q{i} Q0 d 1 1 tag\n" for i in range(20_000)))
    child = subprocess.Popen([sys.executable, "-m", "components.cli", "eval", str(qrels), str(run), "--per-query"],
                             cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert child.stdout.readline().startswith(b"qrels ")
    child.stdout.close()
    err = child.stderr.read().decode()
    assert child.wait(timeout=60) == 141  # as a program killed by SIGPIPE
    assert err == ""  # no traceback, no "Exception ignored ... BrokenPipeError"


# --- JSON is strict: never NaN or Infinity -------------------------------------------------------

def strict_json(text: str) -> dict:
    def refuse(constant):
        raise ValueError(f"{constant} is not JSON")

    return json.loads(text, parse_constant=refuse)


@pytest.mark.parametrize("grade, gain", [(1000, "linear"), (-1000, "linear"), (60, "exponential")])
def test_json_at_the_limits_of_the_grades_is_strict_and_normalised(tmp_path, capsys, grade, gain):
    docs = [f"d{i}" for i in range(50)]
    qrels = "".join(f"q 0 {d} {grade if i % 2 else 1}\n" for i, d in enumerate(docs)) + "p 0 x -1000\n"
    run = ranking("q", docs[::-1]) + ranking("p", ["x"])
    measures = ["-m", "nDCG@10", "-m", "nDCG@100", "-m", "DCG@100", "-m", "R@10", "-m", "RR"]
    status, out, _ = cli(tmp_path, capsys, qrels, run, "--json", "--per-query", "--gain", gain, *measures)
    assert status == 0
    result = strict_json(out)
    assert all(0 <= v <= 1 for name, v in result["per_query"]["q"].items() if name != "DCG@100")
    status, out, _ = cli(tmp_path, capsys, qrels, run, "--json", "--per-query", "--gain", gain, *measures,
                         "--compare", str(write(tmp_path / "b.txt", ranking("q", docs) + ranking("p", ["x"]))))
    assert status == 0
    strict_json(out)


# --- control characters in ids, file names and lines are shown escaped ------------------------------

ESCAPES = "\x1b[2J\x1b]0;pwned\x07"  # clear the screen, retitle the terminal, ring the bell


def assert_shown_escaped(done: subprocess.CompletedProcess):
    for stream in (done.stdout, done.stderr):
        assert b"\x1b" not in stream and b"\x07" not in stream
    assert b"\\x1b[2J\\x1b]0;pwned\\x07" in done.stdout + done.stderr


@pytest.fixture
def evaluate_cli(capsysbinary):
    """``rankwise eval ARGS`` in this process, its output as the bytes written (what a terminal would receive)."""
    def run(*args) -> subprocess.CompletedProcess:
        try:
            status = main([str(a) for a in args])
        except SystemExit as exit_:  # argparse: usage errors
            status = exit_.code
        out, err = capsysbinary.readouterr()
        return subprocess.CompletedProcess(args, status, out, err)
    return run


def test_ids_with_escape_sequences_are_shown_escaped(tmp_path, evaluate_cli):
    qid = ESCAPES + "q1"
    qrels = write(tmp_path / "qrels.txt", f"{qid} 0 d1 1\n{qid} 0 {ESCAPES}d2 1\nq2 0 d1 1\n")
    run = write(tmp_path / "run.txt", ranking(qid, ["d1", ESCAPES + "d2"]) + ranking(ESCAPES + "q9", ["d1"]))
    run_b = write(tmp_path / "b.txt", ranking(qid, [ESCAPES + "d2", "d1"]))
    for args in ((qrels, run, "--per-query"), (qrels, run, "--per-query", "--json"),
                 (qrels, run, "--per-query", "--compare", run_b)):
        done = evaluate_cli(*args)
        assert done.returncode == 0
        assert_shown_escaped(done)
    assert b"\\x1b[2J\\x1b]0;pwned\\x07q1  " in evaluate_cli(qrels, run, "--per-query").stdout  # the table's row


def test_error_messages_and_file_names_show_escape_sequences_escaped(tmp_path, evaluate_cli):
    folder = tmp_path / ESCAPES
    folder.mkdir()
    qrels = write(folder / "qrels.txt", f"1 0 a 1\n1 0 {ESCAPES}b\n")
    run = write(folder / "run.txt", OK_RUN)
    for args, status in (((qrels, run), 1),  # the file's name and its line in the message
                         ((folder / "missing.txt", run), 1),
                         ((write(folder / "good.txt", OK_QRELS), run), 0),  # the names in the table's header
                         ((qrels, run, folder / "extra.txt"), 1),  # a second run that is missing
                         ((qrels, run, write(folder / "run2.txt", OK_RUN), "--baseline", folder / "other.txt"),
                          2)):  # a usage error
        done = evaluate_cli(*args)
        assert done.returncode == status
        assert_shown_escaped(done)


# --- running out of memory: one line naming the file ---------------------------------------------

def test_running_out_of_memory_reading_a_file_names_it(tmp_path, capsys, monkeypatch):
    precise = trec_precise.rows

    def out_of_memory_for_runs(data, name, layout):
        if layout is trec_layout.RUN_LAYOUT:
            raise MemoryError
        return precise(data, name, layout)

    monkeypatch.setattr(trec_precise, "rows", out_of_memory_for_runs)
    status, out, err = cli(tmp_path, capsys, OK_QRELS, OK_RUN)
    assert (status, out) == (1, "")
    assert err == f"error: {tmp_path / 'run.txt'}: not enough memory to read this file (15 bytes)\n"
    status, out, err = cli(tmp_path, capsys, OK_QRELS, OK_RUN, "--compare", str(write(tmp_path / "b.txt", OK_RUN)))
    assert (status, out) == (1, "") and err.startswith(f"error: {tmp_path / 'run.txt'}: not enough memory")


def test_running_out_of_memory_elsewhere_names_the_files(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(model, "judge", mock.Mock(side_effect=MemoryError))
    status, out, err = cli(tmp_path, capsys, OK_QRELS, OK_RUN)
    assert (status, out) == (1, "")
    assert err == f"error: not enough memory to evaluate {tmp_path / 'qrels.txt'} and {tmp_path / 'run.txt'}\n"


def test_other_exceptions_keep_their_traceback(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(model, "judge", mock.Mock(side_effect=KeyError("a bug")))
    with pytest.raises(KeyError):
        cli(tmp_path, capsys, OK_QRELS, OK_RUN)


def test_a_line_too_long_for_the_memory_limit_as_a_subprocess(tmp_path):
    limit = 512 * 2**20  # address space: enough for the evaluator, not for a 40 MB line's masks and copies

    def limited():
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    qrels, small = write(tmp_path / "qrels.txt", OK_QRELS), write(tmp_path / "small.txt", OK_RUN)
    if subprocess.run([sys.executable, "-m", "components.cli", "eval", str(qrels), str(small)], cwd=ROOT,
                      preexec_fn=limited, capture_output=True, timeout=60).returncode != 0:
        pytest.skip("this Python needs more than 512 MiB of address space to start the evaluator")
    run = write(tmp_path / "run.txt", "1 Q0 " + "x" * 40_000_000 + " 1 1 r\n")
    done = subprocess.run([sys.executable, "-m", "components.cli", "eval", str(qrels), str(run)], cwd=ROOT,
                          preexec_fn=limited, capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == f"error: {run}: not enough memory to read this file (40,000,012 bytes)\n"


def test_the_comparison_table_marks_a_randomisation_p_from_the_normal_approximation():
    from types import SimpleNamespace

    from components.cli.render_text import randomisation_cell
    from components.engine import compare

    flips = SimpleNamespace(randomisation_method=compare.SIGN_FLIPS, randomisation_p=0.0123)
    normal = SimpleNamespace(randomisation_method=compare.NORMAL_APPROXIMATION, randomisation_p=0.0123)
    assert randomisation_cell(normal) == "≈ " + randomisation_cell(flips)


# --- the rankwise command: eval and app ---------------------------------------------------------------

def test_rankwise_without_a_subcommand_prints_its_usage_and_exits_2(capsys):
    from components.cli import main as rankwise

    assert rankwise([]) == 2
    assert "rankwise eval QRELS RUN" in capsys.readouterr().err
    assert rankwise(["--help"]) == 0


def test_rankwise_eval_is_the_evaluator(tmp_path, capsys):
    from components.cli import main as rankwise

    qrels, run = tmp_path / "q.txt", tmp_path / "r.txt"
    qrels.write_text("1 0 a 1\n")
    run.write_text("1 Q0 a 1 1.0 r\n")
    assert rankwise(["eval", str(qrels), str(run), "-m", "RR", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["mean"] == {"RR": 1.0}


def test_rankwise_app_serves_the_app_from_any_folder(tmp_path):
    from tests.conftest import _free_port

    (tmp_path / "components").mkdir()  # an unrelated components/ in the current folder changes nothing
    (tmp_path / "components" / "__init__.py").write_text("raise SystemExit('the wrong components')\n")
    port = _free_port()
    server = subprocess.Popen([str(Path(sys.executable).with_name("rankwise")), "app", "--server.port", str(port),
                               "--server.headless", "true"], cwd=tmp_path, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                health = urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=1).read()
                break
            except OSError:
                assert server.poll() is None, "the server stopped"
                time.sleep(0.05)
        else:
            pytest.fail("rankwise app did not answer")
        assert health == b"ok"
        page = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5).read()
        assert b"<div id=\"root\">" in page
    finally:
        server.terminate()
        server.wait(10)
    with pytest.raises(OSError):  # stopping the command stopped the server: nothing answers on the port
        urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2)


def test_counts_and_gmap_are_given_as_trec_eval_gives_them_for_all(tmp_path):
    """num_* are summed over the queries and GMAP is a geometric mean, not a plain mean (pytrec_eval's aggregate)."""
    import pytrec_eval

    qrels = tmp_path / "q.txt"
    run = tmp_path / "r.txt"
    qrels.write_text("1 0 a 1\n1 0 b 0\n1 0 c 1\n2 0 x 1\n2 0 y 1\n")
    run.write_text("1 Q0 a 1 3 t\n1 Q0 b 2 2 t\n2 Q0 z 1 5 t\n2 Q0 y 2 4 t\n")
    done = subprocess.run([sys.executable, "-m", "components.cli", "eval", str(qrels), str(run), "--json",
                           "-m", "num_rel_ret", "-m", "num_rel", "-m", "num_q", "-m", "GMAP", "-m", "AP"],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    shown = json.loads(done.stdout)["mean"]
    evaluator = pytrec_eval.RelevanceEvaluator(
        {"1": {"a": 1, "b": 0, "c": 1}, "2": {"x": 1, "y": 1}},
        {"num_rel_ret", "num_rel", "num_q", "gm_map", "map"})
    per_query = evaluator.evaluate({"1": {"a": 3.0, "b": 2.0}, "2": {"z": 5.0, "y": 4.0}})
    for ours, theirs in (("num_rel_ret", "num_rel_ret"), ("num_rel", "num_rel"), ("num_q", "num_q"),
                         ("GMAP", "gm_map"), ("AP", "map")):
        expected = pytrec_eval.compute_aggregated_measure(theirs, [v[theirs] for v in per_query.values()])
        assert abs(shown[ours] - expected) < 1e-9, ours


def test_trec_evals_short_options_and_the_new_ones(tmp_path, capsys):
    """-q and -c are --per-query and --complete; -l 2 counts only grade 2 as relevant; -J drops unjudged rows."""
    qrels, run = "1 0 a 1\n1 0 b 2\n2 0 c 1\n", "1 Q0 x 1 3 t\n1 Q0 a 2 2 t\n1 Q0 b 3 1 t\n"
    long = as_json(cli(tmp_path, capsys, qrels, run, "--json", "--per-query", "--complete", "-m", "RR")[1])
    short = as_json(cli(tmp_path, capsys, qrels, run, "--json", "-q", "-c", "-m", "RR")[1])
    assert short == long and set(short["per_query"]) == {"1", "2"}
    level = as_json(cli(tmp_path, capsys, qrels, run, "--json", "-q", "-l", "2", "-m", "RR", "-m", "nDCG@3")[1])
    assert level["per_query"]["1"]["RR"] == 1 / 3  # only b (grade 2) is relevant
    plain = as_json(cli(tmp_path, capsys, qrels, run, "--json", "-q", "-m", "nDCG@3")[1])
    assert level["per_query"]["1"]["nDCG@3"] == plain["per_query"]["1"]["nDCG@3"]  # nDCG keeps the grades
    judged = as_json(cli(tmp_path, capsys, qrels, run, "--json", "-q", "-J", "-m", "RR")[1])
    assert judged["per_query"]["1"]["RR"] == 1.0  # x (unjudged) dropped: a comes first


@pytest.mark.parametrize("args, words", [(["-l", "0"], "-l/--rel-level: '0' is not a whole number from 1 to"),
                                         (["-M", "0"], "-M/--max-docs: '0' is not a whole number from 1 to"),
                                         (["--format", "trec", "--compare", "run.txt"], "--compare has no trec_eval"),
                                         (["--format", "trec", "-m", "AP", "-m", "RR@10", "-m", "Judged@5"],
                                          "RR@10, Judged@5 has no trec_eval counterpart"),
                                         (["--format", "csv"], "invalid choice: 'csv'"),
                                         (["--diagnose-k", "0"], "--diagnose-k: '0' is not a whole number from 1")])
def test_the_new_options_refuse_what_they_cannot_do(tmp_path, capsys, args, words):
    status, out, err = cli(tmp_path, capsys, "1 0 a 1\n", "1 Q0 a 1 1 t\n", *args)
    assert status == 2 and words in err and "Traceback" not in err


# --- every option's value is checked as it is read: exit 2, one line naming the option, the value as typed --------

MAX_WHOLE = "9,223,372,036,854,775,807"  # 2**63 - 1: the largest cutoff, level, -M or --diagnose-k
DIGITS_5000 = "9" * 5000  # more digits than Python's int() reads

BAD_VALUES = [  # (the options, what the one line says)
    (["-m", "R@0"], "argument -m/--measure: measure 'R@0' has cutoff 0"),
    (["-m", "R@9223372036854775808"], f"measure 'R@9223372036854775808' has cutoff 9223372036854775808, but k "
                                      f"counts positions from the top (1, 2, 3, ..., at most {MAX_WHOLE})"),
    (["-m", "R@" + DIGITS_5000], f"measure 'R@{DIGITS_5000}' has cutoff {DIGITS_5000}"),
    (["-m", "P.5,10,x"], "argument -m/--measure: unknown measure 'P.5,10,x'"),
    (["-m", "P.5,2.5"], "measure 'P.5,2.5' has cutoff 2.5"),
    (["-m", "IPrec@1.5"], "measure 'IPrec@1.5' has recall level 1.5"),
    (["-m", "IPrec@nan"], "unknown measure 'IPrec@nan'"),
    (["-m", ""], "argument -m/--measure: unknown measure ''"),
    (["-m", " "], "unknown measure ' '"),
    (["-m", "\t"], "unknown measure '\\t'"),
    (["-m", "R@5\nR@6"], "unknown measure 'R@5\\nR@6'"),  # the line break escaped: still one line
    (["-m", "ERR@10"], "unknown measure 'ERR@10'"),
    *[([option, value], f"argument {name}: {value!r} is not a whole number from 1 to {MAX_WHOLE}")
      for option, name in (("-l", "-l/--rel-level"), ("-M", "-M/--max-docs"), ("--diagnose-k", "--diagnose-k"))
      for value in ("0", "-1", "nan", "inf", "", " ", "1e3", "2.5", "9223372036854775808", DIGITS_5000, "seven")],
    *[(["--power", value], f"argument --power: {value!r} is not a positive number")
      for value in ("0", "-0.02", "nan", "inf", "", " ", "1e-400", "2e308", DIGITS_5000, "0x10", "big")],
    (["--power=-inf"], "argument --power: '-inf' is not a positive number"),  # "--power -inf" reads as an option
    *[(["--chunks", value], f"argument --chunks: a chunk separator is text without whitespace, such as '#', got "
                            f"{value!r}") for value in ("", " ", "\t", "a b", "\n", "\udcff")],
    (["--gain", ""], "argument --gain: invalid choice: ''"),
    (["--gain", "log"], "argument --gain: invalid choice: 'log'"),
    (["--format", " "], "argument --format: invalid choice: ' '"),
    (["--correction", "sidak"], "argument --correction: invalid choice: 'sidak'"),
    (["--qrels-fields", ""], "argument --qrels-fields: fields '': qid is missing"),
    (["--run-fields", "qid=q,qid=r"], "argument --run-fields: fields 'qid=q,qid=r': qid is named twice"),
    (["--run-fields", "nope=x"], "'nope' is not one of doc_id, docs, grade, qid, score"),
    (["--compare", ""], "argument --compare: '' is not a file name"),
    (["--baseline", ""], "--baseline '' is not one of the runs given"),
    (["--baseline", "a\nb"], "--baseline 'a\\nb' is not one of the runs given"),
    (["--nope"], "unrecognized arguments: --nope"),
]


@pytest.mark.parametrize("args, message", BAD_VALUES, ids=lambda v: repr(v)[:60] if isinstance(v, list) else "")
def test_a_bad_option_value_is_one_line_naming_it_and_exit_2(tmp_path, capsys, args, message):
    """Before any file is read (the qrels here would give a numbers table): exit 2, stdout empty, one line on stderr
    that names the option and quotes the value as typed, no usage and no traceback."""
    runs = [str(write(tmp_path / "b.txt", "1 Q0 a 1 1 t\n"))] if "--baseline" in args else []  # it needs two
    with mock.patch("components.cli.evaluate.readers.read", side_effect=AssertionError("a file was read")):
        status, out, err = cli(tmp_path, capsys, "1 0 a 1\n", "1 Q0 a 1 1 t\n", *runs, *args)
    assert (status, out) == (2, "")
    assert err.count("\n") == 1 and err.endswith("\n") and err.startswith("rankwise eval: error: "), err
    assert message in err and "Traceback" not in err and "usage:" not in err


@pytest.mark.parametrize("args, names", [
    (["-m", "R@1000000"], ["R@1000000"]), (["-m", "P.5,10,99999999"], ["P@5", "P@10", "P@99999999"]),
    (["-m", "nDCG@9223372036854775807"], ["nDCG@9223372036854775807"]),
    (["-m", "IPrec@0.0000000001"], ["IPrec@0.0000000001"]),
    (["-l", "9223372036854775807"], None), (["-M", "9223372036854775807"], None),
    (["--diagnose-k", "9223372036854775807"], None), (["-l", " 2 "], None), (["-M", "1_000"], None),
    (["--chunks", "::"], None), (["--chunks", "#" * 5000], None), (["--power", "1e-200"], None),
    (["--power", "5e-324"], None), (["--power", "1e308"], None), (["--explain", ""], None),
    (["--explain", "\n"], None),
])
def test_extreme_values_that_work_are_answered(tmp_path, capsys, args, names):
    """Huge cutoffs read as the whole list, and keep their names (R@1000000, never R@1e+06); a tiny or huge --power
    is answered (unreachable, or 2 queries); an --explain query that is not there is said so."""
    runs = ["--compare", str(write(tmp_path / "b.txt", "1 Q0 b 1 1 t\n2 Q0 c 1 1 t\n"))] \
        if args[0] in ("--power", "--explain") else []
    status, out, err = cli(tmp_path, capsys, "1 0 a 1\n1 0 b 1\n2 0 c 1\n",
                           "1 Q0 a 1 2 t\n1 Q0 b 2 1 t\n2 Q0 c 1 1 t\n", "--json", *runs, *args)
    assert status == 0 and "Traceback" not in err
    document = as_json(out)
    if names:
        assert list(document["mean"]) == names
    if args[0] == "--power":
        plans = [plan for by_measure in document["power"].values() for plan in by_measure.values()]
        assert plans and all(plan["queries_needed"] == (2 if float(args[1]) > 1 or plan["sd"] == 0 else None)
                             for plan in plans)  # σ = 0: any difference is detected


def test_max_docs_keeps_the_top_n_by_score_before_judged_only_drops_the_unjudged(tmp_path, capsys):
    """-M 2 keeps x and a (the top two by score): b, relevant at rank 3, is gone; with -J too, x goes after the cut."""
    qrels, run = "1 0 a 0\n1 0 b 1\n", "1 Q0 b 1 1 t\n1 Q0 x 2 3 t\n1 Q0 a 3 2 t\n"
    cut = as_json(cli(tmp_path, capsys, qrels, run, "--json", "-M", "2", "-m", "RR", "-m", "num_ret")[1])["mean"]
    assert cut == {"RR": 0.0, "num_ret": 2.0}
    both = as_json(cli(tmp_path, capsys, qrels, run, "--json", "-M", "2", "-J", "-m", "RR", "-m", "num_ret")[1])
    assert both["mean"] == {"RR": 0.0, "num_ret": 1.0}  # only a: -J after -M does not bring b back


def test_trec_format_prints_trec_evals_lines(tmp_path, capsys):
    """Tabs between the columns, names padded to 22, 4 decimals, counts whole, the runid from the run's tag."""
    status, out, err = cli(tmp_path, capsys, FOUR_QRELS, FOUR_RUN.replace(" tag", " bm25"),
                           "--format", "trec", "-m", "official")
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "runid                 \tall\tbm25"
    assert lines[1] == "num_q                 \tall\t4"
    mrr = (1 + 1 / 3 + 1 + 1 / 8) / 4  # one relevant per query, at ranks 1, 3, 1 and 8: AP = RR
    assert f"map                   \tall\t{mrr:.4f}" in lines and f"recip_rank            \tall\t{mrr:.4f}" in lines


def test_help_maps_rankwise_names_to_trec_evals(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    shown = capsys.readouterr().out
    for ours, theirs in [("R@k", "recall_k"), ("RR (MRR)", "recip_rank"), ("AP", "map"), ("nDCG@k", "ndcg_cut_k"),
                         ("IPrec@x", "iprec_at_recall_x")]:
        assert any(line.split()[:len(ours.split()) + 1] == [*ours.split(), theirs] or
                   f"  {ours}" in line and theirs in line for line in shown.splitlines()), ours
    assert "-m official" in shown and "--format" in shown and "-M N" in shown


def test_compare_takes_the_relevance_level_judged_only_and_max_docs(tmp_path, capsys):
    """-l 2 -J -M 2 with --compare: both runs scored as rankwise eval scores each with those options."""
    qrels = "1 0 a 1\n1 0 b 2\n2 0 c 2\n"
    run_a = "1 Q0 x 1 3 t\n1 Q0 a 2 2 t\n1 Q0 b 3 1 t\n2 Q0 c 1 1 t\n"
    run_b = "1 Q0 b 1 3 t\n1 Q0 a 2 2 t\n2 Q0 y 1 2 t\n2 Q0 c 2 1 t\n"
    write(tmp_path / "b.txt", run_b)
    options = ["-l", "2", "-J", "-M", "2", "-m", "RR"]
    status, out, _ = cli(tmp_path, capsys, qrels, run_a, "--json", "--compare", str(tmp_path / "b.txt"), *options)
    assert status == 0
    result = as_json(out)["versus_baseline"][str(tmp_path / "b.txt")]["RR"]
    mean_a = as_json(cli(tmp_path, capsys, qrels, run_a, "--json", *options)[1])["mean"]["RR"]
    mean_b = as_json(cli(tmp_path, capsys, qrels, run_b, "--json", *options)[1])["mean"]["RR"]
    assert (result["mean_a"], result["mean_b"]) == (mean_a, mean_b)
    assert mean_a == (0 + 1) / 2  # -M 2 keeps x, a (a: grade 1 < 2, b cut off); query 2: c first


# --- --diagnose: every way the files could mislead the numbers ---------------------------------------------

# The JAR scenario with a judged query the run skips (j4) and a query nobody judged (j9); its lists are shorter
# than 10 and hold unjudged documents.
DIAGNOSED_QRELS = JAR_QRELS + "j4 0 lombok-1.18.30.jar 1\n"
DIAGNOSED_RUN = JAR_RUN + ranking("j9", ["a.jar"])


def diagnosis_of(qrels: str, run: str, **options):
    """The diagnosis straight from the engine, as --diagnose should report it (default measures, k = 10)."""
    from components.engine.measures import DEFAULT_MEASURES
    from components.engine.run_diagnosis import diagnose

    judgments, results = read_qrels(qrels), read_run(run)
    return diagnose(judgments, results, model.judge(judgments, results), k=10, measures=DEFAULT_MEASURES,
                    gain="linear", **options)


def test_diagnose_prints_a_block_per_finding_after_the_numbers(tmp_path, capsys):
    from components.course import prose

    status, out, err = cli(tmp_path, capsys, DIAGNOSED_QRELS, DIAGNOSED_RUN, "--diagnose")
    plain = cli(tmp_path, capsys, DIAGNOSED_QRELS, DIAGNOSED_RUN)
    assert status == 0 and (out.startswith(plain[1].rstrip("\n")), err) == (True, plain[2])  # the numbers first
    expected = diagnosis_of(DIAGNOSED_QRELS, DIAGNOSED_RUN)
    severities = [f.severity for f in expected.findings]
    assert {"warning", "note", "ok"} <= set(severities)
    lines = out.splitlines()
    assert (f"diagnosis at k = 10: warnings {severities.count('warning')}, notes {severities.count('note')}, "
            f"checks with nothing to report {severities.count('ok')}") in lines
    blocks = [line for line in lines if line.startswith(("warning: ", "note: "))]
    assert [line.split(": ", 1)[1].split(" (")[0] for line in blocks] == \
        [prose.section("diagnose", f"{f.check} title") for f in expected.problems]
    assert "warning: Judged queries missing from the run (1 query: 'j4')" in lines
    assert sum(line.startswith("ok: ") for line in lines) == severities.count("ok")
    skipped = as_json(cli(tmp_path, capsys, DIAGNOSED_QRELS, DIAGNOSED_RUN, "--json")[1])["mean"]["RR"]
    counted = as_json(cli(tmp_path, capsys, DIAGNOSED_QRELS, DIAGNOSED_RUN, "--json", "-c")[1])["mean"]["RR"]
    assert counted == (1 + 1 / 2 + 1 / 5) / 4  # j4 counts as 0
    assert f"  RR: {skipped:.3f} as reported (skipped); {counted:.3f} with -c (−{skipped - counted:.3f})" in lines
    assert "  read more in the app (rankwise app): /why-does-my-number-differ" in lines


def test_diagnose_json_holds_every_check_and_leaves_the_numbers_alone(tmp_path, capsys):
    status, out, _ = cli(tmp_path, capsys, DIAGNOSED_QRELS, DIAGNOSED_RUN, "--json", "--diagnose", "-q")
    assert status == 0 and "NaN" not in out and "Infinity" not in out
    document = as_json(out)
    plain = as_json(cli(tmp_path, capsys, DIAGNOSED_QRELS, DIAGNOSED_RUN, "--json", "-q")[1])
    assert {key: value for key, value in document.items() if key != "diagnosis"} == plain
    expected = diagnosis_of(DIAGNOSED_QRELS, DIAGNOSED_RUN)
    assert document["diagnosis"] == json.loads(json.dumps(expected.as_dict()["diagnosis"]))
    assert [f["check"] for f in document["diagnosis"]] == [f.check for f in expected.findings]
    missing = document["diagnosis"][0]
    assert (missing["check"], missing["count"], missing["examples"], missing["severity"]) == \
        ("qrels_only", 1, ["j4"], "warning")
    counted = as_json(cli(tmp_path, capsys, DIAGNOSED_QRELS, DIAGNOSED_RUN, "--json", "-c")[1])["mean"]
    assert {name: pair for name, pair in missing["values"]["effects"].items()} == \
        {name: [plain["mean"][name], pytest.approx(counted[name])] for name in plain["mean"]}


def test_diagnose_with_trec_format_keeps_stdout_trec_evals(tmp_path, capsys):
    status, out, err = cli(tmp_path, capsys, DIAGNOSED_QRELS, DIAGNOSED_RUN, "--format", "trec", "-m", "P.5",
                           "--diagnose-k", "3")  # --diagnose-k alone asks for the diagnosis
    assert status == 0
    assert out == cli(tmp_path, capsys, DIAGNOSED_QRELS, DIAGNOSED_RUN, "--format", "trec", "-m", "P.5")[1]
    assert "diagnosis at k = 3: " in err and "warning: Judged queries missing from the run" in err


def test_a_clean_pair_is_diagnosed_clean(tmp_path, capsys):
    status, out, _ = cli(tmp_path, capsys, FRAMEWORK_QRELS, FRAMEWORK_RUN, "--diagnose", "--diagnose-k", "5")
    lines = out.splitlines()
    assert status == 0 and not any(line.startswith(("warning: ", "note: ")) for line in lines)
    from components.engine.run_diagnosis import CHECKS

    assert f"diagnosis at k = 5: warnings 0, notes 0, checks with nothing to report {len(CHECKS)}" in lines


def test_help_names_the_diagnosis(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    shown = capsys.readouterr().out
    assert "--diagnose" in shown and "--diagnose-k K" in shown


@pytest.mark.parametrize("qrels, run, options", [
    ("beir_sample/qrels/test.tsv", "beir_sample/results.json", []),
    ("sample_golden.jsonl", "sample_results.jsonl", ["--chunks"]),
    ("sample_golden.jsonl", "sample_results.jsonl", ["--chunks", "#"]),
])
def test_the_samples_in_every_format_give_the_trec_samples_numbers(capsys, qrels, run, options):
    measures = ["-m", "AP", "-m", "nDCG@10", "-m", "R@5", "-m", "RR", "--json"]
    assets = ROOT / "assets"
    assert main([str(assets / "sample_qrels.txt"), str(assets / "sample_run.txt"), *measures]) == 0
    expected = json.loads(capsys.readouterr().out)["mean"]
    assert main([str(assets / qrels), str(assets / run), *measures, *options]) == 0
    assert json.loads(capsys.readouterr().out)["mean"] == pytest.approx(expected, abs=1e-12)


def test_chunk_ids_without_the_option_are_diagnosed(capsys):
    assets = ROOT / "assets"
    assert main([str(assets / "sample_golden.jsonl"), str(assets / "sample_results.jsonl"), "--diagnose",
                 "--json"]) == 0
    findings = {f["check"]: f for f in json.loads(capsys.readouterr().out)["diagnosis"]}
    assert findings["chunk_ids"]["severity"] == "warning" and findings["chunk_ids"]["count"] > 0
    assert findings["ties"]["values"]["applies"] is False  # the lists have no scores: their order is the ranking


def test_field_mappings_read_json_records_whose_keys_cannot_be_guessed(tmp_path, capsys):
    qrels, run = tmp_path / "gold.jsonl", tmp_path / "hits.jsonl"
    qrels.write_text('{"q": "1", "gold": ["a", "b"]}\n{"q": "2", "gold": ["c"]}\n')
    run.write_text('{"q": "1", "hits": ["x", "a", "b"]}\n{"q": "2", "hits": ["c"]}\n')
    assert main([str(qrels), str(run), "-m", "AP", "--json"]) == 1  # unguessable keys: the reader says which it saw
    assert "'q', 'gold'" in capsys.readouterr().err
    assert main([str(qrels), str(run), "-m", "AP", "--json", "--qrels-fields", "qid=q,docs=gold",
                 "--run-fields", "qid=q, docs=hits"]) == 0
    as_trec = run_evaluation("1 0 a 1\n1 0 b 1\n2 0 c 1\n", "1 Q0 x 1 3 r\n1 Q0 a 2 2 r\n1 Q0 b 3 1 r\n2 Q0 c 1 1 r\n",
                             ["AP"])
    assert json.loads(capsys.readouterr().out)["mean"]["AP"] == pytest.approx(as_trec.mean["AP"])
    with pytest.raises(SystemExit) as usage:
        main([str(qrels), str(run), "--run-fields", "docs=hits"])
    assert usage.value.code == 2 and "qid is missing" in capsys.readouterr().err


def test_a_beir_folder_as_qrels_reads_its_test_split_and_says_so(capsys):
    """`rankwise eval beir_folder run`: the folder's qrels/test.tsv (or --split's), named on stderr; the numbers
    are the file's own."""
    folder, results = ROOT / "assets" / "beir_sample", ROOT / "assets" / "beir_sample" / "results.json"
    assert main([str(folder / "qrels" / "test.tsv"), str(results), "--json"]) == 0
    by_file = as_json(capsys.readouterr().out)
    assert main([str(folder), str(results), "--json"]) == 0
    out, err = capsys.readouterr()
    assert as_json(out) == by_file
    assert f"qrels read from {folder / 'qrels' / 'test.tsv'}" in err
    assert main([str(folder), str(results), "--split", "dev"]) == 1
    assert 'no qrels for the split "dev" in this BEIR folder (it has: test)' in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_:
        main([str(folder / "qrels" / "test.tsv"), str(results), "--split", "dev"])
    assert exit_.value.code == 2 and "--split picks the qrels file of a BEIR folder" in capsys.readouterr().err


def test_a_beir_datasets_zip_as_qrels_reads_its_test_split_and_says_so(tmp_path, capsys):
    """`rankwise eval scifact.zip run`: the zip's qrels/test.tsv, named on stderr; the numbers are the file's own;
    a zip without it is a file that cannot be read (exit 1, one line)."""
    import zipfile

    folder, results = ROOT / "assets" / "beir_sample", ROOT / "assets" / "beir_sample" / "results.json"
    archive = tmp_path / "sample.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
        z.write(folder / "qrels" / "test.tsv", "sample/qrels/test.tsv")
    assert main([str(folder / "qrels" / "test.tsv"), str(results), "--json"]) == 0
    by_file = as_json(capsys.readouterr().out)
    assert main([str(archive), str(results), "--json"]) == 0
    out, err = capsys.readouterr()
    assert as_json(out) == by_file and f"qrels read from sample/qrels/test.tsv in {archive}" in err
    empty = tmp_path / "empty.zip"
    with zipfile.ZipFile(empty, "w") as z:
        z.writestr("sample/corpus.jsonl", "{}")
    assert main([str(empty), str(results)]) == 1
    assert capsys.readouterr().err == f"error: {empty}: no qrels/test.tsv in this zip (its qrels: none)\n"


def test_trec_output_refuses_by_name_a_query_id_trec_cannot_carry(tmp_path, capsys):
    qrels = '{"qid": "q 1", "relevant_ids": ["doc 7"]}\n{"qid": "q2", "relevant_ids": ["a"]}\n'
    run = '{"qid": "q 1", "retrieved_ids": ["doc 7", "x"]}\n{"qid": "q2", "retrieved_ids": ["a"]}\n'
    status, out, err = cli(tmp_path, capsys, qrels, run, "--format", "trec", "-q", "-m", "RR")
    assert (status, out) == (1, "")
    assert err == (f"error: {tmp_path / 'qrels.txt'}, line 1: found query id 'q 1', which contains whitespace, but "
                   "TREC files separate their columns by whitespace: use an id without spaces, tabs or line breaks "
                   "(e.g. 'q_1'); expected ids a TREC file can carry, to be written as TREC (other formats take any "
                   "id)\n")
    status, out, _ = cli(tmp_path, capsys, qrels, run, "--format", "trec", "-m", "RR")  # "all" only: no query id
    assert (status, out.split()) == (0, ["recip_rank", "all", "1.0000"])
    status, out, _ = cli(tmp_path, capsys, qrels, run, "--json", "-q", "-m", "RR")  # JSON takes any id
    assert status == 0 and as_json(out)["per_query"]["q 1"] == {"RR": 1.0}
