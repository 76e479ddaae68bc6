"""Diagnose my run: each check triggered by a small pair built for it, and silent on a clean pair.

Every number a finding gives is checked against the engine computing the same thing another way: the -c
effect against model.judge(complete=True), the tie effect against both tie orders built by
conventions.order_by_score, Judged@k against the engine's measure.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from components.course import prose
from components.engine import conventions, metrics, model, run_diagnosis
from components.engine.measures import aggregate, evaluate
from components.engine.run_diagnosis import CHECKS, diagnose
from components.ui import registry
from tests.unit.file_readers import load_trec, read_qrels, read_run

MEASURES = ("P@3", "RR", "nDCG@3", "AP", "num_rel")


def lines(qid: str, docs: Sequence[str], scores: list[float] | None = None) -> str:
    """Run lines for the documents ``docs`` (letters of a string, or ids), in that order; scores 10, 9, ... unless
    given."""
    scores = scores if scores is not None else [10 - i for i in range(len(docs))]
    return "".join(f"{qid} Q0 {doc} {i} {score} tag\n" for i, (doc, score) in enumerate(zip(docs, scores), 1))


def judgments(qid: str, grades: dict[str, int]) -> str:
    return "".join(f"{qid} 0 {doc} {grade}\n" for doc, grade in grades.items())


# three queries, every returned document judged, four per list, distinct scores, the same ids in both files
CLEAN_QRELS = "".join(judgments(q, {"a": 1, "b": 0, "c": 2, "d": 0}) for q in ("q1", "q2", "q3"))
CLEAN_RUN = lines("q1", "abcd") + lines("q2", "cadb") + lines("q3", "dcba")


def diagnosed(qrels: str, run: str, *, k: int = 3, measures=MEASURES, complete: bool = False, **options):
    qrels_read, run_read = read_qrels(qrels), read_run(run)
    return diagnose(qrels_read, run_read, model.judge(qrels_read, run_read, complete), k=k, measures=measures,
                    gain="linear", **options)


def means(qrels: str, run: str, measures=MEASURES, complete: bool = False) -> dict[str, float]:
    """Each measure's value as trec_eval's "all" line gives it, straight from the reader and the engine."""
    queries = load_trec(qrels, run, complete).queries
    return {name: aggregate(name, v) for name, v in evaluate(queries, measures, "linear").items()}


# --- a clean pair: nothing to report ------------------------------------------------------------------

def test_a_clean_pair_has_nothing_to_report():
    found = diagnosed(CLEAN_QRELS, CLEAN_RUN)
    assert [f.check for f in found.findings] == list(CHECKS)
    assert found.problems == ()
    assert all(f.count == 0 and f.examples == () for f in found.findings)
    assert found.judged_at_k.tolist() == [1.0, 1.0, 1.0] and found.qids == ("q1", "q2", "q3")


@st.composite
def clean_pairs(draw):
    """A pair with no problem: distinct scores, every returned document judged, each query with a relevant one and
    at least k results, ids written alike."""
    k = draw(st.integers(1, 4))
    qrels, run = [], []
    for q in range(draw(st.integers(1, 5))):
        n = draw(st.integers(k, k + 3))
        grades = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n).filter(lambda g: max(g) >= 1))
        docs = [f"d{q}x{i}" for i in draw(st.permutations(range(n)))]
        qrels.append(judgments(f"q{q}", dict(zip(docs, grades))))
        run.append("".join(f"q{q} Q0 {doc} {i} {n - i} t\n" for i, doc in enumerate(docs)))
    return "".join(qrels), "".join(run), k


@settings(max_examples=40, deadline=None)
@given(clean_pairs())
def test_a_generated_clean_pair_gives_no_warning_and_no_note(pair):
    qrels, run, k = pair
    assert diagnosed(qrels, run, k=k).problems == ()


# --- queries on one side only, and queries with nothing to find ----------------------------------------

def test_queries_only_in_the_qrels_and_what_complete_does_to_each_mean():
    qrels = CLEAN_QRELS + judgments("q4", {"a": 1, "z": 2})
    found = diagnosed(qrels, CLEAN_RUN).finding("qrels_only")
    assert (found.count, found.examples, found.severity) == (1, ("q4",), "warning")
    skipped, counted = means(qrels, CLEAN_RUN), means(qrels, CLEAN_RUN, complete=True)
    assert counted["num_rel"] == skipped["num_rel"] + 2  # -c counts q4's two relevant documents
    for name, (now, other) in found.values["effects"].items():
        assert now == skipped[name] and other == pytest.approx(counted[name], abs=1e-15)
    with_c = diagnosed(qrels, CLEAN_RUN, complete=True).finding("qrels_only")
    assert with_c.values["complete"] is True
    assert {name: now for name, (now, _) in with_c.values["effects"].items()} == counted  # the report's, exactly
    assert all(other == skipped[name] for name, (_, other) in with_c.values["effects"].items())


def test_queries_only_in_the_run():
    found = diagnosed(CLEAN_QRELS, CLEAN_RUN + lines("q9", "ab") + lines("q8", "a"))
    run_only = found.finding("run_only")
    assert (run_only.count, run_only.examples, run_only.severity) == (2, ("q9", "q8"), "note")
    assert found.finding("qrels_only").severity == "ok"


def test_examples_stop_at_five_in_the_files_order():
    run = CLEAN_RUN + "".join(lines(f"x{i}", "a") for i in range(7))
    found = diagnosed(CLEAN_QRELS, run).finding("run_only")
    assert found.count == 7 and found.examples == ("x0", "x1", "x2", "x3", "x4")


def test_queries_without_a_relevant_document_count_as_zero_or_are_skipped():
    qrels = CLEAN_QRELS + judgments("q4", {"a": 0, "b": 0})
    run = CLEAN_RUN + lines("q4", "abcd")
    found = diagnosed(qrels, run).finding("no_relevant")
    assert (found.count, found.examples, found.severity, found.values["level"]) == (1, ("q4",), "note", 1)
    per_query = evaluate(load_trec(qrels, run).queries, ["AP", "RR"], "linear")
    has_relevant = [True, True, True, False]
    for name in ("AP", "RR"):
        assert found.values["effects"][name] == (
            conventions.mean_with_empty_rule(per_query[name], has_relevant, "zero"),
            conventions.mean_with_empty_rule(per_query[name], has_relevant, "skip"))


def test_the_relevance_level_decides_what_has_nothing_relevant():
    found = diagnosed(CLEAN_QRELS, CLEAN_RUN, relevance_level=3).finding("no_relevant")
    assert found.count == 3 and found.values["level"] == 3
    assert found.values["effects"]["AP"] == (0.0, None)  # nothing left to average
    assert found.values["effects"]["num_rel"] == (0.0, 0.0)  # a sum over no query is 0
    assert diagnosed(CLEAN_QRELS, CLEAN_RUN, relevance_level=2).finding("no_relevant").severity == "ok"


# --- duplicates: refused by the reader; merged chunks are reported -------------------------------------

def test_duplicate_documents_are_refused_and_merged_chunks_reported():
    with pytest.raises(model.TrecFormatError, match="duplicate docs"):
        read_run(CLEAN_RUN + "q1 Q0 a 9 0.5 tag\n")
    assert diagnosed(CLEAN_QRELS, CLEAN_RUN).finding("duplicates").severity == "ok"
    merged = diagnosed(CLEAN_QRELS, CLEAN_RUN, merged_chunks=4).finding("duplicates")
    assert (merged.count, merged.severity, merged.values["merged"], merged.examples) == (4, "note", 4, ())


# --- ties ------------------------------------------------------------------------------------------------

def test_a_tie_across_k_is_found_and_its_effect_is_both_orders_scored():
    """q1 lists c (grade 2) then d (grade 0), tied at ranks 3 and 4: trec_eval's docid order puts d first."""
    run = lines("q1", "abcd", [4, 3, 2, 2]) + lines("q2", "cadb") + lines("q3", "dcba")
    found = diagnosed(CLEAN_QRELS, run).finding("ties")
    assert (found.count, found.examples, found.values["changed"], found.values["tied"]) == (1, ("q1",), 1, 1)
    assert found.severity == "warning"  # P@3 moves: c enters the top 3 in the file's order
    by_docid, in_file_order = (lines("q1", order) + lines("q2", "cadb") + lines("q3", "dcba")
                               for order in ("abdc", "abcd"))
    for name, (now, other) in found.values["effects"].items():
        assert (now, other) == (means(CLEAN_QRELS, by_docid)[name], means(CLEAN_QRELS, in_file_order)[name])
    assert found.values["effects"]["P@3"] == (pytest.approx((1 + 2 + 1) / 9), pytest.approx((2 + 2 + 1) / 9))


def test_ties_inside_the_top_k_move_a_mean_without_straddling_k():
    run = lines("q1", "abcd", [4, 4, 2, 1]) + lines("q2", "cadb") + lines("q3", "dcba")
    found = diagnosed(CLEAN_QRELS, run).finding("ties")
    assert found.count == 0 and found.values["tied"] == 1 and found.severity == "warning"
    now, other = found.values["effects"]["RR"]  # trec_eval puts b (grade 0) above a; the file lists a first
    assert (now, other) == (pytest.approx((1 / 2 + 1 + 1 / 2) / 3), pytest.approx((1 + 1 + 1 / 2) / 3))


def test_ties_do_not_apply_when_the_order_is_the_ranking():
    run = lines("q1", "abdc", [4, 3, 2, 2]) + lines("q2", "cadb", [1, 1, 1, 1]) + lines("q3", "dcba")
    found = diagnosed(CLEAN_QRELS, run, scores_from_order=True)
    for check in ("ties", "equal_scores"):
        assert found.finding(check).severity == "ok" and found.finding(check).values["applies"] is False


@st.composite
def tied_runs(draw):
    """Queries of 1 to 6 documents with scores from {0, 1, 2} (many ties), listed in any order, some judged."""
    k = draw(st.integers(1, 4))
    qrels, run, rankings = [], [], []
    for q in range(draw(st.integers(1, 4))):
        docs = draw(st.lists(st.sampled_from("abcdefgh"), min_size=1, max_size=6, unique=True))
        scores = draw(st.lists(st.integers(0, 2), min_size=len(docs), max_size=len(docs)))
        grades = {d: draw(st.integers(0, 2)) for d in docs if draw(st.booleans())} or {"zz": 1}
        qrels.append(judgments(f"q{q}", grades))
        run.append("".join(f"q{q} Q0 {d} 1 {s} t\n" for d, s in zip(docs, scores)))
        rankings.append((docs, scores, grades))
    return "".join(qrels), "".join(run), k, rankings


@settings(max_examples=60, deadline=None)
@given(tied_runs())
def test_the_ties_check_agrees_with_brute_force(case):
    qrels, run, k, rankings = case
    found = diagnosed(qrels, run, k=k, measures=("P@2", "RR", "nDCG@3", "AP", "bpref")).finding("ties")
    orders = {rule: [[docs[i] for i in conventions.order_by_score(docs, scores, rule)] for docs, scores, _ in rankings]
              for rule in ("trec_eval", "listed")}
    straddle = [f"q{q}" for q, (docs, scores, _) in enumerate(rankings)
                if len(docs) > k and sorted(scores, reverse=True)[k - 1] == sorted(scores, reverse=True)[k]]
    changed = sum(set(a[:k]) != set(b[:k]) for a, b in zip(orders["trec_eval"], orders["listed"]))
    assert (found.count, found.examples, found.values["changed"]) == (len(straddle), tuple(straddle[:5]), changed)

    def scored(rule: str) -> dict[str, float]:
        queries = metrics.from_rankings([[grades.get(d) for d in order] for order, (_, _, grades) in
                                         zip(orders[rule], rankings)], [list(g.values()) for *_, g in rankings])
        return {n: aggregate(n, v) for n, v in evaluate(queries, ("P@2", "RR", "nDCG@3", "AP", "bpref"),
                                                        "linear").items()}

    expected = scored("trec_eval"), scored("listed")
    for name, (now, other) in found.values["effects"].items():
        assert (now, other) == (pytest.approx(expected[0][name]), pytest.approx(expected[1][name]))


# --- unjudged documents, short lists, equal scores -------------------------------------------------------

def test_judged_at_k_per_query_and_overall_are_the_engines():
    run = lines("q1", "axyz") + lines("q2", "cxdb") + lines("q3", "dcba")  # q1: 1 of 3 judged, q2: 2 of 3
    found = diagnosed(CLEAN_QRELS, run)
    engine = evaluate(load_trec(CLEAN_QRELS, run).queries, ["Judged@3"], "linear")["Judged@3"]
    assert found.judged_at_k.tolist() == engine.tolist() == [1 / 3, 2 / 3, 1.0]
    unjudged = found.finding("unjudged")
    assert unjudged.values["overall"] == engine.mean() and unjudged.values["overall"] < 0.8
    assert (unjudged.count, unjudged.examples, unjudged.severity) == (2, ("q1", "q2"), "warning")  # lowest first
    assert unjudged.values["documents"] == 3 and unjudged.values["lowest"] == 1 / 3


def test_a_few_queries_below_the_threshold_are_a_note_and_the_threshold_is_an_option():
    run = lines("q1", "cxab") + CLEAN_RUN.split("q1 Q0 d 4 7 tag\n")[1]  # q1: 2 of 3 judged
    found = diagnosed(CLEAN_QRELS, run).finding("unjudged")
    assert (found.count, found.severity, found.values["overall"]) == (1, "note", pytest.approx(8 / 9))
    assert diagnosed(CLEAN_QRELS, run, judged_threshold=0.5).finding("unjudged").severity == "ok"
    with pytest.raises(ValueError, match="between 0 and 1"):
        diagnosed(CLEAN_QRELS, run, judged_threshold=80)


def test_lists_shorter_than_k():
    run = lines("q1", "ab") + lines("q2", "cadb") + lines("q3", "d")
    found = diagnosed(CLEAN_QRELS, run, k=3).finding("short_lists")
    assert (found.count, found.examples, found.values["shortest"], found.severity) == (2, ("q1", "q3"), 1, "note")
    assert diagnosed(CLEAN_QRELS, run, k=1).finding("short_lists").severity == "ok"


def test_a_query_whose_scores_are_all_equal():
    run = lines("q1", "abcd", [0.5] * 4) + lines("q2", "cadb") + lines("q3", "d", [1.0])  # one document: no ranking
    found = diagnosed(CLEAN_QRELS, run).finding("equal_scores")
    assert (found.count, found.examples, found.severity) == (1, ("q1",), "warning")


def test_scores_equal_as_32_bit_floats_count_as_equal_as_trec_eval_compares_them():
    run = lines("q1", "ab", [1.0, 1.000000001]) + lines("q2", "cadb") + lines("q3", "dcba")
    assert diagnosed(CLEAN_QRELS, run).finding("equal_scores").count == 1


# --- ids written two ways ---------------------------------------------------------------------------------

def test_query_ids_equal_once_case_and_leading_zeros_are_ignored():
    qrels = CLEAN_QRELS + judgments("7", {"a": 1}) + judgments("Q12", {"a": 1})
    run = CLEAN_RUN + lines("007", "a") + lines("q12", "a") + lines("other", "a")
    found = diagnosed(qrels, run).finding("query_ids")
    assert (found.count, found.examples, found.severity) == (2, ("007", "q12"), "warning")
    assert (found.values["run_id"], found.values["qrels_id"]) == ("007", "7")


def test_document_ids_equal_once_normalised_within_the_same_query():
    qrels = CLEAN_QRELS.replace("q2 0 c 2", "q2 0 DOC7 2")
    run = lines("q1", "abcd") + lines("q2", ["doc7", "a", "d", "b"]) + lines("q3", "dcba")
    found = diagnosed(qrels, run).finding("doc_ids")
    assert (found.count, found.examples, found.values["documents"]) == (1, ("q2",), 1)
    assert (found.values["run_id"], found.values["qrels_id"]) == ("doc7", "DOC7")
    other_query = lines("q1", ["doc7", "a", "b", "d"]) + lines("q2", "cadb") + lines("q3", "dcba")
    assert diagnosed(qrels, other_query).finding("doc_ids").severity == "ok"  # DOC7 is judged for q2 only


def test_chunk_ids_whose_stem_is_a_judged_document():
    run = lines("q1", ["a#1", "A#2", "b", "c"]) + lines("q2", "cadb") + lines("q3", ["d#0", "x#1", "b", "a"])
    found = diagnosed(CLEAN_QRELS, run).finding("chunk_ids")
    assert (found.count, found.examples, found.values["documents"]) == (2, ("q1", "q3"), 3)
    assert (found.values["run_id"], found.values["qrels_id"]) == ("a#1", "a")
    assert diagnosed(CLEAN_QRELS, run, chunk_separator="_").finding("chunk_ids").severity == "ok"


IDS = st.text(alphabet="0 1a7A#Z\t", max_size=8).map(lambda s: s.encode())


def reference_normalised(text: bytes) -> bytes:
    text = text.strip(b" \t").lower()
    while len(text) > 1 and text[:1] == b"0" and text[1:2].isdigit():
        text = text[1:]
    return text


@settings(max_examples=200, deadline=None)
@given(st.lists(IDS, min_size=1, max_size=20))
def test_normalised_ids_are_what_a_byte_by_byte_reading_gives(ids):
    got = run_diagnosis.normalised(np.array(ids, dtype=bytes))
    assert got.tolist() == [reference_normalised(i) for i in ids]
    assert run_diagnosis.normalised(got).tolist() == got.tolist()


@settings(max_examples=200, deadline=None)
@given(st.lists(IDS, min_size=1, max_size=20))
def test_chunk_stems_cut_at_the_last_separator(ids):
    stems, cut = run_diagnosis.chunk_stems(np.array(ids, dtype=bytes))
    expected = [i.rpartition(b"#")[0] for i in ids]
    assert cut.tolist() == [e != b"" for e in expected]
    assert stems.tolist() == [e for e in expected if e]


# --- contract ---------------------------------------------------------------------------------------------

def test_the_judged_run_must_be_the_runs_own_unadjusted_join():
    qrels, run = read_qrels(CLEAN_QRELS), read_run(lines("q1", "xabc"))
    judged = model.judge(qrels, run)
    with pytest.raises(ValueError, match="not adjusted"):
        diagnose(qrels, run, judged.adjusted(judged_only=True), k=3, measures=["RR"], gain="linear")
    with pytest.raises(ValueError, match="not adjusted"):
        diagnose(qrels, read_run(CLEAN_RUN), judged, k=3, measures=["RR"], gain="linear")


def test_the_json_form_holds_every_field():
    found = diagnosed(CLEAN_QRELS + judgments("q4", {"a": 1}), CLEAN_RUN)
    first = found.as_dict()["diagnosis"][0]
    assert first == {"check": "qrels_only", "count": 1, "examples": ["q4"], "severity": "warning",
                     "values": dict(found.finding("qrels_only").values), "link": "/why-does-my-number-differ"}
    assert [f["check"] for f in found.as_dict()["diagnosis"]] == list(CHECKS)


def test_every_link_points_at_a_page_or_a_glossary_entry():
    pages = {"/" + spec.url_path for spec in registry.PAGES}
    anchors = set(prose.glossary_anchors().values())
    assert set(run_diagnosis.LINKS) == set(CHECKS)
    for link in filter(None, run_diagnosis.LINKS.values()):
        page, _, anchor = link.partition("#")
        assert page in pages and (not anchor or (page == prose.GLOSSARY_URL and anchor in anchors)), link


@pytest.mark.parametrize("check", list(CHECKS))
def test_every_check_has_its_words(check):
    headings = prose.sections("diagnose")
    assert {f"{check} {part}" for part in ("title", "found", "advice", "ok")} <= set(headings)
