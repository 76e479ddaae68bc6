"""The command-line evaluator against pytrec_eval (trec_eval inside), on files.

Generated qrels and run files hold every nasty case: ties that straddle k,
equal scores written differently (1, 1.0, 1e0, +1, 10e-1), negative and
scientific-notation scores, unjudged documents, queries with no relevant
item, queries in only one file, lists shorter than k, a rank column that
contradicts the scores, ids like 007 and 7, tabs, repeated spaces, CRLF,
blank and comment lines. R@k, Success@k, P@k, RR and nDCG@k (linear) must
equal pytrec_eval's recall_k, success_k, P_k, recip_rank and ndcg_cut_k per
query to 1e-9; nDCG@k with exponential gain must equal ndcg_cut_k on qrels
mapped to 2^rel − 1; RR@k must equal recip_rank on the list truncated to k.

pytrec_eval is given dicts built from the same files by a plain reading
(``line.split()``, ``float`` for scores), so it sorts the run itself: its tie
rule (score, then docid descending) is the one checked. Negative grades
reach it as 0 (what trec_eval's rule makes them), since pytrec-eval-terrier
0.5.11 corrupts its heap on negative grades (see test_metrics_oracle.py).
"""
import io
import json
import tempfile
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from components.cli.evaluate import eval_main as main
from components.engine.measures import is_count, trec_name

pytrec_eval = pytest.importorskip("pytrec_eval", reason="pytrec-eval-terrier is the test oracle")

KS = (1, 3, 5, 10)
ORACLE_NAMES = {"R": "recall", "Success": "success", "P": "P", "nDCG": "ndcg_cut"}
MEASURES = [f"{ours}@{k}" for ours in ORACLE_NAMES for k in KS] + ["RR"]


# --- running both sides -------------------------------------------------------------------

def cli_output(qrels_text: str, run_text: str, *args: str) -> str:
    """What ``rankwise eval qrels run --trec-eval 9 *args`` prints on stdout, for two files holding these texts
    (9.0.7's conventions: the trec_eval inside pytrec_eval, the oracle)."""
    with tempfile.TemporaryDirectory() as folder:
        qrels, run = Path(folder, "qrels.txt"), Path(folder, "run.txt")
        qrels.write_bytes(qrels_text.encode())
        run.write_bytes(run_text.encode())
        out = io.StringIO()
        with redirect_stdout(out), redirect_stderr(io.StringIO()):
            assert main([str(qrels), str(run), "--trec-eval", "9", *args]) == 0
    return out.getvalue()


def cli_json(qrels_text: str, run_text: str, *args: str) -> dict:
    """``main([qrels, run, --json, --per-query, *args])`` on two files; the parsed JSON."""
    return json.loads(cli_output(qrels_text, run_text, "--json", "--per-query", *args))


def plain_read(text: str, n_columns: int) -> list[list[str]]:
    """The data lines' fields, read one line at a time (independent of components.formats.trec)."""
    rows = [line.split() for line in text.splitlines()]
    rows = [r for r in rows if r and not r[0].startswith("#")]
    assert all(len(r) == n_columns for r in rows)
    return rows


def oracle_inputs(qrels_text: str, run_text: str, gain=lambda grade: max(grade, 0)):
    qrel, run = {}, {}
    for qid, _, doc, grade in plain_read(qrels_text, 4):
        qrel.setdefault(qid, {})[doc] = gain(int(grade))
    for qid, _, doc, _, score, _ in plain_read(run_text, 6):
        run.setdefault(qid, {})[doc] = float(score)
    return qrel, run


def oracle(qrel: dict, run: dict, measures: set[str]) -> dict:
    return pytrec_eval.RelevanceEvaluator(qrel, measures).evaluate(run)


def trec_order(docs: dict[str, float]) -> list[str]:
    """Score (as a 32-bit float, as trec_eval stores it) descending, then docid descending in byte order."""
    with np.errstate(over="ignore"):
        return sorted(docs, key=lambda d: (np.float32(docs[d]), d.encode()), reverse=True)


def assert_linear_measures_agree(qrels_text: str, run_text: str, scored_run: str | None = None):
    """Our per-query values on ``scored_run`` (default: run_text) equal pytrec_eval's on run_text."""
    ours = cli_json(qrels_text, scored_run or run_text, *(a for m in MEASURES for a in ("-m", m)))["per_query"]
    qrel, run = oracle_inputs(qrels_text, run_text)
    expected = oracle(qrel, run, {f"{name}_{k}" for name in ORACLE_NAMES.values() for k in KS} | {"recip_rank"})
    assert set(ours) == set(expected)  # only queries in both files
    for qid, values in expected.items():
        for measure in MEASURES:
            family, _, k = measure.partition("@")
            name = f"{ORACLE_NAMES[family]}_{k}" if k else "recip_rank"
            assert ours[qid][measure] == pytest.approx(values[name], abs=1e-9), (qid, measure)


def assert_exponential_ndcg_agrees(qrels_text: str, run_text: str):
    ours = cli_json(qrels_text, run_text, "--gain", "exponential", *(a for k in KS for a in ("-m", f"nDCG@{k}")))
    qrel, run = oracle_inputs(qrels_text, run_text, gain=lambda grade: 2 ** grade - 1 if grade > 0 else 0)
    expected = oracle(qrel, run, {f"ndcg_cut_{k}" for k in KS})
    assert ours["gain"] == "exponential"
    for qid, values in expected.items():
        for k in KS:
            assert ours["per_query"][qid][f"nDCG@{k}"] == pytest.approx(values[f"ndcg_cut_{k}"], abs=1e-9)


def assert_rr_at_k_agrees(qrels_text: str, run_text: str):
    ours = cli_json(qrels_text, run_text, *(a for k in KS for a in ("-m", f"RR@{k}")))["per_query"]
    qrel, run = oracle_inputs(qrels_text, run_text)
    for k in KS:
        truncated = {q: {d: docs[d] for d in trec_order(docs)[:k]} for q, docs in run.items()}
        for qid, values in oracle(qrel, truncated, {"recip_rank"}).items():
            assert ours[qid][f"RR@{k}"] == pytest.approx(values["recip_rank"], abs=1e-9), (qid, k)


def assert_complete_counts_missing_queries_as_zero(qrels_text: str, run_text: str):
    result = cli_json(qrels_text, run_text, "--complete", "-m", "RR", "-m", "nDCG@5")
    qrel, run = oracle_inputs(qrels_text, run_text)
    expected = oracle(qrel, run, {"recip_rank", "ndcg_cut_5"})
    assert result["num_queries"] == len(qrel)
    assert result["skipped"] == {"qrels_only": 0, "run_only": len(set(run) - set(qrel))}
    for qid in qrel:
        assert result["per_query"][qid]["RR"] == pytest.approx(expected.get(qid, {}).get("recip_rank", 0), abs=1e-9)
    mean_rr = sum(v["recip_rank"] for v in expected.values()) / len(qrel)
    assert result["mean"]["RR"] == pytest.approx(mean_rr, abs=1e-9)


# --- one file with every nasty case, written by hand ------------------------------------------------

NASTY_QRELS = (
    "# qid iter docid grade\r\n"
    "1\t0\t7\t1\r\n"  # 7 and 007 are different documents
    "1 0 007 2\r\n"
    "1   0  d1  0\r\n"
    "1 0 judged-only 3\r\n"  # relevant, never returned: counts for recall and the ideal
    "\r\n"
    "2 0 spam -2\r\n"  # query 2: no relevant item
    "2 0 b 0\r\n"
    "7 0 x 2\r\n"  # queries 7 and 007 are different queries
    "007 0 x 1\r\n"
    "007 0 y 2\r\n"
    "3 0 lonely 1\r\n"  # only in the qrels
    "4 0 e 1\r\n"
    "4 0 f 2\r\n"
    "4 0 h 1\r\n"
)
NASTY_RUN = (
    "1 Q0 007 1 1 tag\n"  # five-way tie at 1 (1, 1.0, 1e0, +1, 10e-1): docid descending
    "1 Q0 7 2 1.0 tag\n"  # ... so u2, u1, d1, 7, 007: the tie straddles k = 1, 3 and 5
    "1 Q0 u1 3 1e0 tag\n"
    "1 Q0 u2\t4\t+1\ttag\n"
    "1 Q0 d1 5 10e-1 tag\n"
    "1 Q0 low 0 -2.5e-1 tag\n"  # a rank column that contradicts the scores
    "1 Q0 top 99 2.5E2 tag\n"
    "# a comment between results\n"
    "2 Q0 spam 1 3 tag\n"
    "2 Q0 b 2 -1 tag\n"
    "7 Q0 x 1 -0.5 tag\n"
    "007 Q0 y 1 -1e-3 tag\n"
    "007 Q0 x 2 -1e-3 tag\n"  # tie: y > x
    "4 Q0 f 1 0 tag\n"  # five documents: shorter than k = 10
    "4 Q0 e 2 -0 tag\n"  # -0 ties with 0: f > e
    "4 Q0 g 3 1e-50 tag\n"  # 0 as a 32-bit float: ties with f and e (g first)
    "4 Q0 h 4 1.000000001 tag\n"  # 1 as a 32-bit float: ties with i (i first)
    "4 Q0 i 5 1 tag\n"
    "8 Q0 x 1 1 tag\n"  # only in the run
)


def test_the_hand_written_nasty_files_agree_with_pytrec_eval():
    assert_linear_measures_agree(NASTY_QRELS, NASTY_RUN)
    assert_exponential_ndcg_agrees(NASTY_QRELS, NASTY_RUN)
    assert_rr_at_k_agrees(NASTY_QRELS, NASTY_RUN)
    assert_complete_counts_missing_queries_as_zero(NASTY_QRELS, NASTY_RUN)


@pytest.mark.parametrize("docs", [
    {"007": 1.0, "7": 1.0, "\u00e9": 1.0, "z": 1.0, "Z": 1.0},  # ties: docid descending, in byte order
    {"a": 1.0 + 1e-9, "b": 1.0, "c": 1.0 + 1e-6, "d": 1e-50, "e": 0.0},  # equal as 32-bit floats: a, b and d, e
])
def test_pytrec_eval_orders_as_the_tests_assume(docs):
    for doc in docs:
        rank = trec_order(docs).index(doc) + 1
        assert oracle({"q": {doc: 1}}, {"q": docs}, {"recip_rank"})["q"]["recip_rank"] == pytest.approx(1 / rank)


# --- generated files -----------------------------------------------------------------------

QIDS = ["1", "7", "007", "10", "q\u00e9"]
DOCS = ["7", "007", "d1", "D1", "d10", "d2", "\u00e9", "z", "doc-3", "a_b", "x1", "x2"]
SPELLINGS = {  # the same number written differently: ties the file does not show
    1.0: ["1", "1.0", "1e0", "+1", "10e-1", "1.000"],
    0.0: ["0", "-0", "0.0", "0e5"],
    2.5: ["2.5", "25e-1", "2.50"],
    -1.5: ["-1.5", "-15e-1", "-1.5E0"],
    0.001: ["1e-3", "0.001", "1E-3"],
    250.0: ["2.5e2", "250", "250.0"],
}
SCORE_TEXT = st.one_of(
    st.sampled_from(sorted(SPELLINGS)).flatmap(lambda value: st.sampled_from(SPELLINGS[value])),
    st.floats(min_value=-1e6, max_value=1e6, allow_nan=False).map(repr),
)
SEPARATOR = st.sampled_from([" ", "\t", "  ", " \t "])
NOISE = st.sampled_from(["", "# a comment", "   "])


@st.composite
def trec_files(draw):
    """(qrels text, run text) sharing at least one query."""
    qrels_qids = draw(st.lists(st.sampled_from(QIDS), min_size=1, max_size=4, unique=True))
    run_qids = draw(st.lists(st.sampled_from(QIDS), min_size=0, max_size=4, unique=True))
    if not set(run_qids) & set(qrels_qids):
        run_qids.append(qrels_qids[0])
    lines = {"qrels": [], "run": []}
    for qid in qrels_qids:
        judged = draw(st.dictionaries(st.sampled_from(DOCS), st.integers(-2, 3), min_size=1, max_size=8))
        lines["qrels"] += [[qid, "0", doc, str(grade)] for doc, grade in judged.items()]
    for qid in run_qids:
        returned = draw(st.lists(st.sampled_from(DOCS), min_size=1, max_size=12, unique=True))
        lines["run"] += [[qid, "Q0", doc, str(draw(st.integers(0, 20))), draw(SCORE_TEXT), "tag"] for doc in returned]
    ending = draw(st.sampled_from(["\n", "\r\n"]))
    texts = []
    for kind in ("qrels", "run"):
        rows = draw(st.permutations(lines[kind])) if kind == "run" else lines[kind]
        text_lines = [draw(SEPARATOR).join(row) + ending + draw(NOISE) for row in rows]
        texts.append(ending.join(text_lines) + ending)
    return tuple(texts)


@given(trec_files())
def test_generated_files_agree_with_pytrec_eval_linear(files):
    assert_linear_measures_agree(*files)


# trec_eval's own measures, under our names and its: they read unjudged rows (bpref) and count (num_*).
TREC_MEASURES = {"AP": "map", "AP@5": "map_cut_5", "R-prec": "Rprec", "bpref": "bpref", "nDCG": "ndcg",
                 "num_ret": "num_ret", "num_rel": "num_rel", "num_rel_ret": "num_rel_ret"}


def assert_trec_eval_measures_agree(qrels_text: str, run_text: str, level: int = 1, judged_only: bool = False):
    """AP, AP@5, R-prec, bpref, nDCG (no cutoff), P@5, recall@5 and the counts per query equal pytrec_eval's,
    read from files, at relevance level ``level`` (-l) and with or without ``judged_only`` (-J).

    A negative grade means "judged, not relevant, yet unjudged for bpref" to trec_eval, which is what leaving
    the judgment out gives pytrec_eval (whose heap a negative grade corrupts).
    """
    options = ["-l", str(level), *(["-J"] if judged_only else [])]
    measures = {**TREC_MEASURES, "P@5": "P_5", "R@5": "recall_5"}
    ours = cli_json(qrels_text, run_text, *options, *(a for m in measures for a in ("-m", m)))["per_query"]
    qrel, run = oracle_inputs(qrels_text, run_text, gain=lambda grade: grade)
    qrel = {q: {d: g for d, g in docs.items() if g >= 0} for q, docs in qrel.items()}
    expected = pytrec_eval.RelevanceEvaluator(qrel, set(measures.values()), relevance_level=level,
                                              judged_docs_only_flag=judged_only).evaluate(run)
    for qid, values in expected.items():
        for measure, name in measures.items():
            assert ours[qid][measure] == pytest.approx(values[name], abs=1e-9), (qid, measure, level, judged_only)


@given(trec_files())
def test_generated_files_agree_with_pytrec_eval_on_trec_evals_own_measures(files):
    assert_trec_eval_measures_agree(*files)


@given(trec_files(), st.integers(1, 3), st.booleans())
def test_relevance_level_and_judged_only_options_agree_with_pytrec_eval(files, level, judged_only):
    """-l N and -J on the command line: pytrec_eval's relevance_level and judged_docs_only_flag."""
    assert_trec_eval_measures_agree(*files, level=level, judged_only=judged_only)


@given(trec_files())
def test_generated_files_agree_with_pytrec_eval_exponential(files):
    assert_exponential_ndcg_agrees(*files)


@given(trec_files())
def test_generated_files_rr_at_k_is_recip_rank_of_the_truncated_list(files):
    assert_rr_at_k_agrees(*files)


@given(trec_files())
def test_generated_files_complete_counts_judged_queries_missing_from_the_run_as_zero(files):
    assert_complete_counts_missing_queries_as_zero(*files)


# --- text after the tag: ignored, as trec_eval ignores it --------------------------------------------

TRAILING_TEXT = st.lists(st.sampled_from(["STANDARD", "more", "junk", "at", "0.5", "#", "Q0", "d1", "x,y"]),
                         min_size=1, max_size=4).map(" ".join)


@given(trec_files(), st.data())
def test_a_run_with_text_after_the_tag_gives_pytrec_evals_numbers_for_the_run_without_it(files, data):
    qrels_text, run_text = files
    lines = run_text.splitlines(keepends=True)
    extended = []
    for line in lines:
        body = line.rstrip("\r\n")
        if len(body.split()) == 6 and not body.lstrip().startswith("#") and data.draw(st.booleans()):
            line = body + data.draw(SEPARATOR) + data.draw(TRAILING_TEXT) + line[len(body):]
        extended.append(line)
    assert_linear_measures_agree(qrels_text, run_text, scored_run="".join(extended))


# --- interpolated precision, -M, trec_eval's measure sets and its output layout ----------------------

IPREC = {f"IPrec@{x:g}": f"iprec_at_recall_{x:.2f}" for x in (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)}


def truncated(run: dict, n: int) -> dict:
    """Each query's top ``n`` documents in trec_eval's order: what trec_eval's -M N evaluates."""
    return {q: {d: docs[d] for d in trec_order(docs)[:n]} for q, docs in run.items()}


@settings(max_examples=30)  # four options drawn at once: fewer examples than the profile's, each a wider one
@given(trec_files(), st.integers(1, 3), st.booleans(), st.one_of(st.none(), st.integers(1, 6)))
def test_interpolated_precision_and_max_docs_agree_with_pytrec_eval(files, level, judged_only, max_docs):
    """IPrec@0..1 equal iprec_at_recall_0.00..1.00, under -l and -J; -M N equals pytrec_eval on the run cut to
    its top N (trec_eval cuts before -J drops the unjudged)."""
    qrels_text, run_text = files
    measures = {**IPREC, "AP": "map", "P@5": "P_5", "num_ret": "num_ret", "bpref": "bpref"}
    options = ["-l", str(level), *(["-J"] if judged_only else []), *(["-M", str(max_docs)] if max_docs else [])]
    ours = cli_json(qrels_text, run_text, *options, *(a for m in measures for a in ("-m", m)))["per_query"]
    qrel, run = oracle_inputs(qrels_text, run_text, gain=lambda grade: grade)
    qrel = {q: {d: g for d, g in docs.items() if g >= 0} for q, docs in qrel.items()}
    run = truncated(run, max_docs) if max_docs else run
    expected = pytrec_eval.RelevanceEvaluator(qrel, set(measures.values()), relevance_level=level,
                                              judged_docs_only_flag=judged_only).evaluate(run)
    for qid, values in expected.items():
        for measure, name in measures.items():
            # trec_eval divides 0 by 0 for a query that -J leaves with no document (iprec is then nan): Rankwise
            # gives 0, as for every other measure of an empty list
            want = 0.0 if np.isnan(values[name]) and judged_only else values[name]
            assert ours[qid][measure] == pytest.approx(want, abs=1e-9), (qid, measure, options)


def parse_trec_output(text: str) -> dict[tuple[str, str], str]:
    """trec_eval's three columns read back: (measure, query) -> the value as printed."""
    rows = [line.split("\t") for line in text.splitlines()]
    assert all(len(row) == 3 for row in rows), text
    assert all(len(name) >= 22 for name, _, _ in rows)  # padded to 22 (%-22s), as trec_eval prints it
    return {(name.strip(), qid): value for name, qid, value in rows}


@settings(max_examples=30)  # sixty measures in two layouts per example
@given(trec_files(), st.booleans())
def test_official_in_trec_format_is_trec_evals_default_output_and_reads_back_as_the_json(files, complete):
    """-m official --format trec: trec_eval's measures, names and order; every value, rounded to 4 decimals,
    equals the JSON's (the counts whole numbers) and pytrec_eval's."""
    qrels_text, run_text = files
    extra = ["-c"] if complete else []
    printed = cli_output(qrels_text, run_text, "-m", "official", "--format", "trec", "-q", *extra)
    document = cli_json(qrels_text, run_text, "-m", "official", *extra)
    values = parse_trec_output(printed)
    names = [line.split("\t")[0].strip() for line in printed.splitlines() if "\tall\t" in line]
    assert names == ["runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
                     "recip_rank", *IPREC.values(), *(f"P_{k}" for k in (5, 10, 15, 20, 30, 100, 200, 500, 1000))]
    assert values[("runid", "all")] == "tag"
    for measure, mean in document["mean"].items():
        shown = values[(trec_name(measure), "all")]
        if is_count(measure):
            assert shown == str(int(mean))
        else:
            assert float(shown) == pytest.approx(mean, abs=5.1e-5) and len(shown.split(".")[1]) == 4
    for qid, per_query in document["per_query"].items():
        assert (("gm_map", qid) not in values) and (("num_q", qid) not in values)
        for measure, value in per_query.items():
            if measure not in ("GMAP", "num_q"):
                assert float(values[(trec_name(measure), qid)]) == pytest.approx(value, abs=5.1e-5)
    qrel, run = oracle_inputs(qrels_text, run_text, gain=lambda grade: max(grade, 0))
    expected = oracle(qrel, run, {"map", "P_5", "iprec_at_recall"})
    for qid, oracle_values in expected.items():
        assert float(values[("map", qid)]) == pytest.approx(oracle_values["map"], abs=5.1e-5)
        assert float(values[("iprec_at_recall_0.50", qid)]) == pytest.approx(oracle_values["iprec_at_recall_0.50"],
                                                                            abs=5.1e-5)


# --- ids with spaces: JSON Lines and CSV read them straight, and give pytrec_eval's numbers ------------------

SPACED_QRELS = {"q 1": {"doc 221": 2, "doc 7": 0, "doc\t9": 1, "doc  3": 1},
                "query two": {"a b": 1, "c": 2, " lead": 1},
                "q3": {"x": 1}}
SPACED_RUN = {"q 1": {"doc 221": 0.5, "doc 7": 0.9, "x y": 0.7, "doc\t9": 0.5, "doc  3": 0.25},  # a tie at 0.5
              "query two": {"c": 1.0, "a b": 1.0, "z": 2.0, " lead": 0.1},  # a tie at 1.0
              "only in the run": {"d": 1.0}}


def spaced_jsonl() -> tuple[str, str]:
    qrels = "".join(json.dumps({"query_id": q, "relevant_ids": list(docs), "grades": list(docs.values())}) + "\n"
                    for q, docs in SPACED_QRELS.items())
    run = "".join(json.dumps({"query_id": q, "retrieved_ids": list(docs), "scores": list(docs.values())}) + "\n"
                  for q, docs in SPACED_RUN.items())
    return qrels, run


def spaced_csv() -> tuple[str, str]:
    import csv

    def table(header: list[str], rows: dict) -> str:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n", quoting=csv.QUOTE_NONNUMERIC)  # " lead" keeps its space
        writer.writerow(header)
        writer.writerows((q, d, v) for q, docs in rows.items() for d, v in docs.items())
        return out.getvalue()

    return table(["qid", "docid", "grade"], SPACED_QRELS), table(["qid", "docid", "score"], SPACED_RUN)


@pytest.mark.parametrize("files", [spaced_jsonl, spaced_csv], ids=["jsonl", "csv"])
def test_a_pair_whose_ids_hold_spaces_gives_pytrec_evals_numbers(files):
    qrels_text, run_text = files()
    measures = {f"{name}_{k}" for name in ORACLE_NAMES.values() for k in KS} | {"recip_rank", "map"}
    expected = oracle(SPACED_QRELS, SPACED_RUN, measures)
    ours = cli_json(qrels_text, run_text, *(a for m in [*MEASURES, "AP"] for a in ("-m", m)))["per_query"]
    assert set(ours) == set(expected) == {"q 1", "query two"}
    for qid, values in expected.items():
        for measure in [*MEASURES, "AP"]:
            family, _, k = measure.partition("@")
            name = "map" if measure == "AP" else f"{ORACLE_NAMES[family]}_{k}" if k else "recip_rank"
            assert ours[qid][measure] == pytest.approx(values[name], abs=1e-9), (qid, measure)
