"""AppTest: the "Your data" page, with the sample files, with uploads set in session state, and with bad files.

AppTest cannot drive st.file_uploader: the page hands every received file to
``receive()``, which stores ``upload_record(name, bytes)`` under
state.YOUR_DATA_QRELS / state.YOUR_DATA_RUN; these tests set those keys (or
press "use the sample files"). Expected numbers come from the command line's
evaluator (components.cli.evaluate.run_evaluation) and the engine, never typed in.
"""
from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from streamlit.proto.Dataframe_pb2 import Dataframe as DataframeProto
from streamlit.testing.v1 import AppTest

from components.cli.evaluate import run_evaluation
from components.course import measure_choices, per_query, prose, samples, what_if
from components.engine import metrics, model
from components.engine.formatting import fmt, literal
from components.formats import readers, tabular
from components.ranking_editor import EditorState
from components.serving import settings, uploads
from components.ui import per_query_view, state, what_if_view
from tests.pages.helpers import open_page
from tests.unit.file_readers import load_table, load_trec, read_qrels, read_run

PAGE = "lessons/your_data.py"
ROOT = Path(__file__).resolve().parents[2]
SAMPLE_QRELS = ROOT / "assets" / "sample_qrels.txt"
SAMPLE_RUN = ROOT / "assets" / "sample_run.txt"
DEFAULT = ["R@10", "Success@10", "RR", "AP", "nDCG@10"]
HTML_QID = "<img/src=x/onerror=alert(1)>"
MARKDOWN_DOC = "**bold**"


def with_samples():
    at = open_page(PAGE)
    at.button(key=state.YOUR_DATA_SAMPLES).click().run()
    assert not at.exception
    return at


def with_files(qrels: tuple[str, bytes], run: tuple[str, bytes], at=None):
    """The page after receiving these files (as receive() stores them), on a fresh page or on ``at``."""
    records = {state.YOUR_DATA_QRELS: uploads.upload_record(*qrels), state.YOUR_DATA_RUN: uploads.upload_record(*run)}
    if at is None:
        return open_page(PAGE, session=records)
    for key, value in records.items():
        at.session_state[key] = value
    return at.run()


def means(at) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}  # the summary's cards come first; later duplicates are dropped


def summary_value(at, name: str, gain: str = "linear") -> str:
    label = measure_choices.mean_name(name, gain)
    return next(m.value for m in at.metric if m.label == label)


def query_cards(at, names) -> dict[str, str]:
    """The "one query up close" cards: the page's last metric cards, one per measure."""
    cards = list(at.metric)[-len(names):]
    return {m.label: m.value for m in cards}


def shown_text(at) -> list[str]:
    """Every piece of Markdown the page rendered (markdown, captions, alerts, subheaders)."""
    elements = [*at.markdown, *at.caption, *at.info, *at.warning, *at.error, *at.success, *at.subheader, *at.title]
    return [e.value for e in elements]


def sample_report(measures=DEFAULT, gain="linear"):
    return run_evaluation(SAMPLE_QRELS, SAMPLE_RUN, measures, gain)


# --- the samples ---------------------------------------------------------------------------

def test_the_sample_button_gives_trec_evals_numbers_and_the_skipped_counts():
    at = with_samples()
    report = sample_report()
    assert at.metric[0].label == "Queries evaluated" and at.metric[0].value == str(len(report.qids))
    for name in DEFAULT:
        assert summary_value(at, name) == fmt(report.mean[name])
    skipped = report.judged.skipped
    assert skipped == {"qrels_only": 1, "run_only": 1}  # the samples' topic 112 and topic 199
    counts = prose.text("your_data", "Counts", evaluated=str(len(report.qids)),
                        qrels_only=str(skipped["qrels_only"]), run_only=str(skipped["run_only"]))
    assert counts in [m.value for m in at.markdown]
    assert prose.text("your_data", "No relevant", count="1") in [c.value for c in at.caption]  # topic 105
    skipped_table = next(df.value for df in at.dataframe if "why skipped" in df.value.columns)
    assert skipped_table["query"].tolist() == ["112", "199"]
    table = next(df.value for df in at.dataframe if "note" in df.value.columns)
    assert table["query"].tolist() == list(report.qids)
    for name in DEFAULT:
        assert table[name].tolist() == report.values[name].tolist()
    limit = prose.text("your_data", "Limit", limit=uploads.size_text(300 * 1_000_000),
                       cap=uploads.size_text(uploads.session_cap()))
    assert limit in [c.value for c in at.caption]
    held = sum(len(p.read_bytes()) for p in (samples.SAMPLE_QRELS, samples.SAMPLE_RUN))
    cap = uploads.size_text(uploads.session_cap())
    held_note = prose.text("your_data", "Held", held=uploads.size_text(held), cap=cap)
    assert held_note in [c.value for c in at.caption]


@pytest.mark.parametrize("k", [1, 7, measure_choices.MAX_K])
@pytest.mark.parametrize("gain", ["linear", "exponential"])
def test_every_measure_at_min_middle_and_max_k_and_both_gains(k, gain):
    at = with_samples()
    at.number_input(key=state.YOUR_DATA_K).set_value(k).run()
    at.multiselect(key=state.YOUR_DATA_MEASURES).set_value(list(measure_choices.CHOICES)).run()
    at.segmented_control(key=state.YOUR_DATA_GAIN).set_value(gain).run()
    assert not at.exception
    names = [f"R@{k}", f"Success@{k}", f"P@{k}", "RR", f"RR@{k}", f"nDCG@{k}", f"DCG@{k}"]
    report = sample_report(names, gain)
    for name in names:
        assert summary_value(at, name, gain) == fmt(report.mean[name]), name
    assert any(f"**{gain}** gain" in c.value for c in at.caption)


def test_no_measure_chosen_says_so():
    at = with_samples()
    at.multiselect(key=state.YOUR_DATA_MEASURES).set_value([]).run()
    assert not at.exception
    assert [i.value for i in at.info] == [prose.section("your_data", "No measure")]


def test_moving_k_or_the_gain_does_not_read_the_files_again(monkeypatch):
    at = with_samples()
    expected = fmt(sample_report(["R@3"]).mean["R@3"])  # before counting: the command line reads through readers too
    calls = []
    original = readers.read
    monkeypatch.setattr(readers, "read",
                        lambda source, kind, *a, **kw: calls.append(kind) or original(source, kind, *a, **kw))
    at.number_input(key=state.YOUR_DATA_K).set_value(3).run()
    at.segmented_control(key=state.YOUR_DATA_GAIN).set_value("exponential").run()
    assert not at.exception
    assert calls == []
    assert summary_value(at, "R@3") == expected
    with_files(("new.qrels", b"1 0 a 1\n"), ("new.run", b"1 Q0 a 1 1.0 r\n"), at)  # new bytes are read
    assert not at.exception
    assert calls == ["qrels", "run"]


@pytest.mark.parametrize("delimiter, suffix", [(",", "csv"), ("\t", "tsv")])
def test_uploads_as_tables_give_the_same_numbers(delimiter, suffix):
    def table(path: Path, kind: str) -> bytes:
        value = 3 if kind == "qrels" else 4
        rows = [delimiter.join(tabular.COLUMNS[kind])]
        rows += [delimiter.join((p[0], p[2], p[value])) for p in map(str.split, path.read_text().splitlines())]
        return ("\n".join(rows) + "\n").encode()

    at = with_files((f"qrels.{suffix}", table(SAMPLE_QRELS, "qrels")), (f"run.{suffix}", table(SAMPLE_RUN, "run")))
    assert not at.exception
    report = sample_report()
    for name in DEFAULT:
        assert summary_value(at, name) == fmt(report.mean[name])
    shown = prose.text("your_data", "Files shown", qrels=literal(f"qrels.{suffix}"), judgments="198",
                       run=literal(f"run.{suffix}"), results=f"{report.judged.queries.qidx.size:,}",
                       formats=suffix.upper())
    assert shown in [c.value for c in at.caption]


def test_a_qrels_file_alone_waits_for_the_run():
    at = open_page(PAGE, session={state.YOUR_DATA_QRELS: uploads.upload_record(SAMPLE_QRELS.name,
                                                                              SAMPLE_QRELS.read_bytes())})
    assert not at.exception
    captions = [c.value for c in at.caption]
    assert prose.section("your_data", "Waiting run") in captions
    assert prose.section("your_data", "Waiting qrels") not in captions
    assert not at.metric


def test_changing_k_keeps_the_chosen_measures():
    at = with_samples()
    chosen = ["R", "Success", "P", "RR", "nDCG"]
    at.multiselect(key=state.YOUR_DATA_MEASURES).set_value(chosen).run()
    offered = at.multiselect(key=state.YOUR_DATA_MEASURES).options
    at.number_input(key=state.YOUR_DATA_K).set_value(5).run()
    assert not at.exception
    assert at.multiselect(key=state.YOUR_DATA_MEASURES).value == chosen
    # the options' labels do not name k: the browser dropped the choice when they changed with it
    assert at.multiselect(key=state.YOUR_DATA_MEASURES).options == offered
    labels = [m.label for m in at.metric][:len(chosen) + 1]  # the summary's cards
    assert labels == ["Queries evaluated", "R@5", "Success@5", "P@5", "MRR", "nDCG@5 (linear gain)"]


# --- one query in the editor ------------------------------------------------------------------

def editor_key_for(qid: str) -> tuple[str, int]:
    judged = load_trec(SAMPLE_QRELS.read_bytes(), SAMPLE_RUN.read_bytes())
    files = uploads.pair_key(uploads.upload_record(SAMPLE_QRELS.name, SAMPLE_QRELS.read_bytes()),
                             uploads.upload_record(SAMPLE_RUN.name, SAMPLE_RUN.read_bytes()))
    q = judged.qids.index(qid)
    return what_if_view.editor_key(files, q), q


@pytest.mark.parametrize("qid", ["101", "105", "111"])
def test_a_query_opens_in_the_editor_with_its_top_20_and_the_missed_relevant_documents(qid):
    at = with_samples()
    at.selectbox(key=state.YOUR_DATA_QUERY).set_value(qid).run()
    assert not at.exception
    key, q = editor_key_for(qid)
    judged = load_trec(SAMPLE_QRELS, SAMPLE_RUN)
    ranking = judged.ranking(q)
    judgments = read_qrels(SAMPLE_QRELS)
    rows = [i for i in range(judgments.qidx.size) if judgments.qids[judgments.qidx[i]] == qid]
    grades = {judgments.docids[i].decode(): int(judgments.grade[i]) for i in rows}
    returned = {doc for doc, _, _ in ranking}
    editor = at.session_state[key]
    assert editor.order == tuple(doc for doc, _, _ in ranking[:what_if.POOL])
    assert set(editor.tray) == {d for d, g in grades.items() if g >= 1 and d not in returned}
    assert dict(editor.grades) == {d: g for d, g in grades.items() if d in editor.order or d in editor.tray}
    report = sample_report()
    cards = query_cards(at, DEFAULT)
    for name in DEFAULT:
        assert cards[measure_choices.shown_name(name, "linear")] == fmt(report.values[name][q])


def test_what_if_reordering_follows_the_engine():
    qid = "101"  # its first relevant document sits at rank 13
    at = with_samples()
    at.selectbox(key=state.YOUR_DATA_QUERY).set_value(qid).run()
    key, q = editor_key_for(qid)
    before: EditorState = at.session_state[key]
    judged = load_trec(SAMPLE_QRELS, SAMPLE_RUN)
    ranking = judged.ranking(q)
    first_hit = next(doc for doc, _, grade in ranking if grade >= 1)
    missed = before.tray[0]  # a relevant document the run never returned
    order = (missed, first_hit) + tuple(d for d in before.order if d != first_hit)
    at.session_state[key] = EditorState(order=order, tray=before.tray[1:], grades=before.grades)
    at.run()
    assert not at.exception
    qrels = read_qrels(SAMPLE_QRELS)
    rows = [i for i in range(qrels.qidx.size) if qrels.qids[qrels.qidx[i]] == qid]
    judged_grades = [int(qrels.grade[i]) for i in rows]
    # every judged grade, for the documents below the editor's 20 too: AP reads the whole list
    all_grades = {**{qrels.docids[i].decode(): int(qrels.grade[i]) for i in rows}, **before.grades}
    new_ranking = [*order, *(doc for doc, _, _ in ranking[what_if.POOL:])]
    grades = [all_grades.get(doc, 0) for doc in new_ranking]
    qs = metrics.from_rankings([grades], [judged_grades])
    expected = {"R@10": metrics.recall(qs, 10)[0], "Success@10": metrics.success(qs, 10)[0],
                "RR": metrics.reciprocal_rank(qs)[0], "AP": metrics.average_precision(qs)[0],
                "nDCG@10 (linear gain)": metrics.ndcg(qs, 10, "linear")[0]}
    cards = query_cards(at, DEFAULT)
    assert cards == {label: fmt(value) for label, value in expected.items()}
    assert cards["RR"] == "1.000"  # a relevant document on top
    assert any(i.value.startswith(prose.text("your_data", "What changed", changes="")) for i in at.info)
    assert summary_value(at, "RR") == fmt(sample_report().mean["RR"])  # the run's means stay the run's


# --- bad files ----------------------------------------------------------------------------------

SAMPLE_Q = (SAMPLE_QRELS.name, SAMPLE_QRELS.read_bytes())
SAMPLE_R = (SAMPLE_RUN.name, SAMPLE_RUN.read_bytes())
BAD_PAIRS = {
    "a grade that is not a whole number": (("bad.qrels", b"101 0 D1 1\n101 0 D2 high\n"), SAMPLE_R),
    "too few columns": (("short.qrels", b"101 D1 1\n"), SAMPLE_R),
    "the two files swapped": (("run-as-qrels.txt", SAMPLE_RUN.read_bytes()), SAMPLE_R),
    "a table without a header": (("q.csv", b"101,D1,1\n"), SAMPLE_R),
    "a table run with a bad score": (SAMPLE_Q, ("run.tsv", b"qid\tdocid\tscore\n101\tD1\tlots\n")),
    "bytes that are not UTF-8": (SAMPLE_Q, ("run.bin", b"101 Q0 D1 1 1.0 r\n101 Q0 \xff\xfe 2 0.5 r\n")),
    "an empty run": (SAMPLE_Q, ("empty.txt", b"")),
    "no query in common": (SAMPLE_Q, ("other.run", b"q9 Q0 D1 1 1.0 r\n")),
    "a run score that is not a number": (SAMPLE_Q, ("broken.run", b"101 Q0 D1 1 high r\n")),
}


def expected_message(qrels, run) -> str:
    with pytest.raises(model.TrecFormatError) as caught:
        load_table(qrels[1], run[1], qrels_name=qrels[0], run_name=run[0])
    return str(caught.value)


@pytest.mark.parametrize("case", list(BAD_PAIRS))
def test_a_bad_file_shows_the_readers_message_and_keeps_the_earlier_upload(case):
    qrels, run = BAD_PAIRS[case]
    at = with_samples()
    report = sample_report()
    at = with_files(qrels, run, at)
    assert not at.exception
    assert [e.value for e in at.error] == [prose.section("your_data", "Error heading")]
    assert [c.value for c in at.code] == [expected_message(qrels, run)]
    assert prose.section("your_data", "Error kept") in [c.value for c in at.caption]
    for name in DEFAULT:  # the samples are still shown
        assert summary_value(at, name) == fmt(report.mean[name])
    common = prose.section("your_data", "No common query")
    assert (common in [m.value for m in at.markdown]) == (case == "no query in common")
    at.number_input(key=state.YOUR_DATA_K).set_value(5).run()  # the page still works, on the samples
    assert not at.exception
    assert summary_value(at, "R@5") == fmt(sample_report(["R@5"]).mean["R@5"])
    assert [c.value for c in at.code] == [expected_message(qrels, run)]


def test_the_message_of_a_bad_score_names_the_file_the_line_and_the_score():
    assert "broken.run, line 1: found score 'high'" in expected_message(*BAD_PAIRS["a run score that is not a number"])


def test_a_bad_file_first_shows_the_message_and_nothing_else():
    qrels, run = BAD_PAIRS["a grade that is not a whole number"]
    at = with_files(qrels, run)
    assert not at.exception
    assert [c.value for c in at.code] == [expected_message(qrels, run)]
    assert prose.section("your_data", "Error nothing before") in [c.value for c in at.caption]
    assert not at.metric


def test_a_fixed_file_replaces_the_message():
    at = with_files(*BAD_PAIRS["too few columns"])
    at = with_files(SAMPLE_Q, SAMPLE_R, at)
    assert not at.exception
    assert not at.error and not at.code
    assert summary_value(at, "RR") == fmt(sample_report().mean["RR"])


def test_exponential_gain_too_large_for_the_grades_falls_back_to_linear_with_the_message():
    qrels = ("big.qrels", b"1 0 a 100\n1 0 b 1\n")  # a grade trec_eval reads, too large for 2^grade
    run = ("r.run", b"1 Q0 b 1 2.0 r\n1 Q0 a 2 1.0 r\n")
    at = with_files(qrels, run)
    at.segmented_control(key=state.YOUR_DATA_GAIN).set_value("exponential").run()
    assert not at.exception
    assert [w.value for w in at.warning] == [prose.section("your_data", "Gain too large")]
    with pytest.raises(model.TrecFormatError) as caught:
        model.check_gain_fits(read_qrels(qrels[1], qrels[0]), "exponential")
    assert str(caught.value) in [c.value for c in at.code]
    expected = run_evaluation(qrels[1], run[1], ["nDCG@10"], "linear").mean["nDCG@10"]
    assert summary_value(at, "nDCG@10", "linear") == fmt(expected)


def test_a_grade_the_editor_cannot_show_keeps_its_value():
    qrels = ("big.qrels", b"1 0 a 200\n1 0 b 1\n1 0 c 3\n")
    run = ("r.run", b"1 Q0 b 1 2.0 r\n1 Q0 a 2 1.0 r\n")
    at = with_files(qrels, run)
    assert not at.exception
    key = what_if_view.editor_key(uploads.pair_key(uploads.upload_record(*qrels), uploads.upload_record(*run)), 0)
    editor = at.session_state[key]
    assert editor.order == ("b", "a") and editor.tray == ("c",)
    assert dict(editor.grades) == {"b": 1, "c": 3}  # "a" (grade 200) is named in its title instead
    report = run_evaluation(qrels[1], run[1], DEFAULT, "linear")
    cards = query_cards(at, DEFAULT)
    for name in DEFAULT:
        assert cards[measure_choices.shown_name(name, "linear")] == fmt(report.values[name][0])


# --- text from files is never Markdown or HTML ------------------------------------------------------

def test_ids_and_file_names_with_html_or_markdown_show_literally():
    qrels = ("**name**.txt", f"{HTML_QID} 0 {MARKDOWN_DOC} 2\n{HTML_QID} 0 <b>x</b> 0\nq2 0 :smile: 1\n".encode())
    run = ("`tick`.run", f"{HTML_QID} Q0 <b>x</b> 1 2.0 r\n{HTML_QID} Q0 {MARKDOWN_DOC} 2 1.0 r\n"
                         f"q2 Q0 :smile: 1 1.0 r\n".encode())
    at = with_files(qrels, run)
    assert not at.exception
    assert at.selectbox(key=state.YOUR_DATA_QUERY).options == [HTML_QID, "q2"]
    table = next(df.value for df in at.dataframe if "note" in df.value.columns)
    assert table["query"].tolist() == [HTML_QID, "q2"]
    key = what_if_view.editor_key(uploads.pair_key(uploads.upload_record(*qrels), uploads.upload_record(*run)), 0)
    assert at.session_state[key].order == ("<b>x</b>", MARKDOWN_DOC)
    texts = shown_text(at)
    for raw in (HTML_QID, "<b>", MARKDOWN_DOC, ":smile:"):
        assert not any(raw in text for text in texts), raw  # ids never reach Markdown
    captions = [c.value for c in at.caption]
    assert any(literal("**name**.txt") in c for c in captions)
    assert any(literal("`tick`.run") in c for c in captions)
    names = [text for text in texts if "**name**" in text or "tick" in text]
    assert names and all(literal("**name**.txt") in t or literal("`tick`.run") in t for t in names)


@pytest.mark.parametrize("text, expected", [
    ("plain", "` plain `"),
    ("**bold**", "` **bold** `"),
    ("a`b", "`` a`b ``"),
    ("``x", "``` ``x ```"),
    ("two\nlines", "` two lines `"),
])
def test_literal_builds_a_code_span_that_no_backtick_can_close(text, expected):
    assert literal(text) == expected


# --- the bundled samples -------------------------------------------------------------------------

def test_the_samples_are_what_the_generator_writes():
    spec = importlib.util.spec_from_file_location("make_samples", ROOT / "assets" / "make_samples.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    files = module.samples()
    assert set(files) == {"sample_qrels.txt", "sample_run.txt", "sample_run_b.txt", "sample_run_c.txt"}
    for name, content in files.items():
        assert (ROOT / "assets" / name).read_text(encoding="utf-8") == content, f"run assets/make_samples.py ({name})"
    second = run_evaluation(SAMPLE_QRELS, ROOT / "assets" / "sample_run_b.txt", ["nDCG@10"])
    assert second.mean["nDCG@10"] > sample_report(["nDCG@10"]).mean["nDCG@10"]  # a better second system
    ties = read_run(SAMPLE_RUN)
    assert any(ties.score[i] == ties.score[i + 1] and ties.qidx[i] == ties.qidx[i + 1]
               for i in range(ties.score.size - 1))


# --- a control that hands back nothing (a quick swap of files) --------------------------------------

@pytest.mark.parametrize("key", [state.YOUR_DATA_GAIN, state.YOUR_DATA_SHOWN_MEASURE, state.YOUR_DATA_QUERY,
                                 state.YOUR_DATA_K])
def test_a_control_read_as_none_gives_its_default_not_a_traceback(key):
    at = with_samples()
    at.session_state[key] = None
    at.run()
    assert not at.exception
    assert at.metric[0].label == "Queries evaluated" and len(list(at.metric)) > 4, "the page still shows its numbers"


def surrogate_names_page(qrels: bytes, run: bytes) -> None:
    """Files whose names hold bytes that are not UTF-8 (the browser's name, decoded with surrogates), then the page."""
    import streamlit as st

    from components.ui import upload_flow
    from lessons import your_data

    if "test.done" not in st.session_state:
        st.session_state["test.done"] = True
        upload_flow.receive("qrels", "qrels\udcff.txt", qrels)
        upload_flow.receive("run", "run\ud800.txt", run)
    your_data.render()


def test_a_file_name_with_bytes_that_are_not_utf8_is_shown_with_a_replacement_and_read():
    at = AppTest.from_function(surrogate_names_page, args=(SAMPLE_QRELS.read_bytes(), SAMPLE_RUN.read_bytes()),
                               default_timeout=30).run()
    assert not at.exception, at.exception
    assert at.session_state[state.YOUR_DATA_QRELS].name == "qrels\ufffd.txt"
    assert at.session_state[state.YOUR_DATA_RUN].name == "run?.txt"
    assert summary_value(at, "RR") == fmt(sample_report().mean["RR"])


# --- very many queries: the table and the query picker stay small -------------------------------------

def samples_page() -> None:
    """The page with the sample files loaded, run in the test's process (so a test can lower its blocks' limits)."""
    import streamlit as st

    from components.course import samples
    from components.ui import upload_flow
    from lessons import your_data

    if "test.samples" not in st.session_state:
        st.session_state["test.samples"] = True
        upload_flow.receive("qrels", "sample_qrels.txt", samples.SAMPLE_QRELS.read_bytes())
        upload_flow.receive("run", "sample_run.txt", samples.SAMPLE_RUN.read_bytes())
    your_data.render()


def test_past_the_row_limit_the_table_shows_the_lowest_scoring_queries_and_says_so(monkeypatch):
    monkeypatch.setattr(per_query_view, "TABLE_ROWS", 5)
    at = AppTest.from_function(samples_page, default_timeout=30).run()
    assert not at.exception
    report = sample_report()
    shown = next(df.value for df in at.dataframe if "note" in df.value.columns)
    assert len(shown) == 5
    lowest = sorted(report.values["R@10"].tolist())[:5]
    assert sorted(shown["R@10"]) == lowest
    assert any(f"With {len(report.qids):,} queries" in c.value and "the 5 that score lowest" in c.value
               for c in at.caption)


def test_past_the_option_limit_a_query_is_opened_by_typing_its_id(monkeypatch):
    monkeypatch.setattr(what_if_view, "SELECT_OPTIONS", 3)
    at = AppTest.from_function(samples_page, default_timeout=30).run()
    report = sample_report()
    box = at.text_input(key=state.YOUR_DATA_QUERY)
    assert box.value == report.qids[0]
    box.set_value(report.qids[2]).run()
    assert not at.exception
    files = at.session_state[state.YOUR_DATA_LOADED].key
    assert what_if_view.editor_key(files, 2) in at.session_state, "the typed query is open in the editor"
    at.text_input(key=state.YOUR_DATA_QUERY).set_value("no such query").run()
    assert not at.exception
    assert any("No evaluated query has the id ` no such query `" in c.value for c in at.caption)


# --- the per-query table and the sizes, as a learner reads them -------------------------------------

def per_query_element(at):
    return next(df for df in at.dataframe if "note" in df.value.columns)


def test_first_relevant_at_shows_a_dash_where_no_relevant_document_was_returned_and_stays_numeric():
    at = with_samples()
    table = per_query_element(at)
    assert table.proto.placeholder == "—", "a missing rank is drawn as a dash, not as 'None'"
    column = table.value["first relevant at"]
    assert pd.api.types.is_integer_dtype(column.dtype), "numbers, so a click on the header sorts by rank"
    first = metrics.first_hit_rank(sample_report().judged.queries)
    assert column.isna().tolist() == (~np.isfinite(first)).tolist()
    assert column.dropna().tolist() == first[np.isfinite(first)].astype(int).tolist()
    assert table.value.set_index("query").loc["105", "note"] == prose.section("your_data", "Note no relevant")


def test_the_table_heads_the_query_the_note_then_each_measure_as_the_summary_names_it():
    at = with_samples()
    table = per_query_element(at)
    config = json.loads(table.proto.columns)
    headers = [config.get(column, {}).get("label", column) for column in table.proto.column_order]
    assert headers[:7] == ["query", "note", "R@10", "Success@10", "RR", "AP", "nDCG@10 (linear gain)"]
    assert table.value["query"].tolist() == list(sample_report().qids)  # a row per evaluated query


@pytest.mark.parametrize("projector", [False, True])
def test_the_note_comes_second_wide_enough_for_its_longest_note_and_any_cell_opens_its_row(projector):
    at = with_samples() if not projector else open_page(PAGE, query={"projector": "1"})
    if projector:
        at.button(key=state.YOUR_DATA_SAMPLES).click().run()
    table = per_query_element(at)
    assert list(table.proto.column_order)[:2] == ["query", "note"], "on screen without scrolling sideways"
    assert set(table.proto.column_order) == set(table.value.columns)
    width = json.loads(table.proto.columns)["note"]["width"]
    assert width == per_query.note_width(1.5 if projector else 1.0)
    assert width > (1.5 if projector else 1.0) * 6 * max(len(note) for note in per_query.NOTES)
    modes = set(table.proto.selection_mode)
    assert {DataframeProto.SelectionMode.SINGLE_ROW, DataframeProto.SelectionMode.SINGLE_CELL} <= modes


SIZE = re.compile(r"(\d[\d,.]*)\s*(bytes|B|[kKMG]i?B)\b")
SETTING = re.compile(r"maxUploadSize|config\.toml|RANKWISE_|STREAMLIT_|server\.[a-z]")  # what docs/hosting.md names


def sizes_and_settings(at) -> tuple[set[str], list[str]]:
    """The units of every size the page wrote, and every server setting it named."""
    texts = shown_text(at)
    units = {unit for text in texts for _, unit in SIZE.findall(text)}
    return units, [name for text in texts for name in SETTING.findall(text)]


def test_every_size_is_in_kib_or_mib_and_no_server_setting_is_named():
    at = with_samples()
    limits = [c.value for c in at.caption if "per file" in c.value]
    assert len(limits) == 1 and "286.1 MiB per file" in limits[0], limits  # the shipped 300 MB, stated once
    units, settings_named = sizes_and_settings(at)
    assert units == {"KiB", "MiB"}, "the limit, the files received and held: one unit system"
    assert settings_named == []
    received = uploads.size_text(len(SAMPLE_QRELS.read_bytes()))
    assert prose.text("your_data", "Received", name=literal(SAMPLE_QRELS.name), size=received) in \
        [c.value for c in at.caption]


def test_a_refused_file_says_the_limit_in_mib_without_naming_the_setting(monkeypatch):
    qrels, run = SAMPLE_QRELS.read_bytes(), SAMPLE_RUN.read_bytes()
    cap = len(qrels) + len(run) // 2  # the qrels fit; with the run, the session would go over
    monkeypatch.setattr(settings, "LIMITS", settings.Limits(session_upload_bytes=cap, parsed_cache_bytes=10**9,
                                                            chart_cache_entries=100))
    at = with_samples()
    message = " ".join(e.value for e in at.error)
    assert uploads.size_text(len(run)) in message and uploads.size_text(cap) in message
    assert "Forget my files" in message
    units, settings_named = sizes_and_settings(at)
    assert units <= {"KiB", "MiB"} and settings_named == []


# --- text after the tag ---------------------------------------------------------------------------

def with_words_after_the_tag(every: int) -> bytes:
    """The sample run with words after the tag on every ``every``-th line."""
    lines = SAMPLE_RUN.read_text().splitlines()
    return "".join(line + (" STANDARD more junk" if i % every == 0 else "") + "\n" for i, line in enumerate(lines)).encode()


def trailing_note(count: int, name: str) -> str:
    return prose.text("your_data", "Trailing fields", count=f"{count:,}", run=literal(name))


def test_text_after_the_tag_is_ignored_and_the_page_says_how_many_lines_had_it():
    run = with_words_after_the_tag(every=3)
    at = with_files(("qrels.txt", SAMPLE_QRELS.read_bytes()), ("tagged.run", run))
    assert not at.exception
    report = sample_report()
    for name in DEFAULT:
        assert summary_value(at, name) == fmt(report.mean[name])  # the numbers of the run without the words
    count = read_run(run).trailing_lines
    assert count == len(range(0, len(SAMPLE_RUN.read_text().splitlines()), 3)) > 1
    assert trailing_note(count, "tagged.run") in [c.value for c in at.caption]


def test_no_note_on_text_after_the_tag_when_no_line_has_any():
    at = with_samples()
    assert not any("after the tag" in c.value for c in at.caption)


# --- trec_eval's measures and options ------------------------------------------------------------------

def test_map_is_shown_by_default_and_equals_trec_evals_map():
    at = with_samples()
    assert not at.exception
    report = run_evaluation(SAMPLE_QRELS, SAMPLE_RUN, ["AP"], "linear")
    assert summary_value(at, "AP") == fmt(report.mean["AP"])  # the card reads "MAP"
    assert measure_choices.mean_name("AP@10", "linear") == "MAP@10" and measure_choices.mean_name("GMAP", "linear") == "GMAP"


def test_gmap_r_prec_bpref_and_judged_show_the_command_lines_values():
    at = with_samples()
    at.multiselect(key=state.YOUR_DATA_MEASURES).set_value(["GMAP", "R-prec", "bpref", "Judged", "nDCG-all"])
    at.run()
    assert not at.exception
    report = run_evaluation(SAMPLE_QRELS, SAMPLE_RUN, ["GMAP", "R-prec", "bpref", "Judged@10", "nDCG"], "linear")
    for name, value in report.mean.items():
        assert summary_value(at, name) == fmt(value), name  # GMAP: the geometric mean, not the mean
    assert any("leaves out bpref, Judged@10" in c.value for c in at.caption)  # the editor cannot mark unjudged


def test_the_relevance_level_changes_recall_as_trec_evals_l_does():
    level = 2  # the samples' top grade: the box goes no higher
    at = with_samples()
    before = summary_value(at, "R@10")
    at.number_input(key=state.YOUR_DATA_LEVEL).set_value(level).run()
    assert not at.exception
    expected = run_evaluation(SAMPLE_QRELS, SAMPLE_RUN, ["R@10", "nDCG@10"], "linear", relevance_level=level).mean
    assert summary_value(at, "R@10") == fmt(expected["R@10"]) != before
    assert summary_value(at, "nDCG@10") == fmt(expected["nDCG@10"])  # nDCG keeps the grades
    assert any(f"`-l {level}`" in c.value for c in at.caption)


def test_judged_only_drops_the_unjudged_documents_as_trec_evals_j_does():
    at = with_samples()
    at.toggle(key=state.YOUR_DATA_JUDGED_ONLY).set_value(True).run()
    assert not at.exception
    expected = run_evaluation(SAMPLE_QRELS, SAMPLE_RUN, ["RR", "AP"], "linear", judged_only=True).mean
    assert summary_value(at, "RR") == fmt(expected["RR"]) and summary_value(at, "AP") == fmt(expected["AP"])
    key, q = what_if_view.editor_key(page_files(at), 0, 1, True), 0
    assert key in at.session_state  # the editor under -J is a new one: its list holds judged documents only
    judged = load_trec(SAMPLE_QRELS, SAMPLE_RUN).adjusted(judged_only=True)
    assert at.session_state[key].order == tuple(doc for doc, _, _ in judged.ranking(q)[:what_if.POOL])


def test_the_relevance_level_and_judged_only_together_give_trec_evals_l_and_j():
    at = with_samples()
    at.number_input(key=state.YOUR_DATA_LEVEL).set_value(2).run()
    strict = run_evaluation(SAMPLE_QRELS, SAMPLE_RUN, ["R@10", "AP"], "linear", relevance_level=2).mean
    assert [summary_value(at, "R@10"), summary_value(at, "AP")] == [fmt(strict["R@10"]), fmt(strict["AP"])]
    at.toggle(key=state.YOUR_DATA_JUDGED_ONLY).set_value(True).run()
    assert not at.exception
    both = run_evaluation(SAMPLE_QRELS, SAMPLE_RUN, ["R@10", "AP"], "linear", relevance_level=2,
                          judged_only=True).mean
    judged = run_evaluation(SAMPLE_QRELS, SAMPLE_RUN, ["R@10", "AP"], "linear", judged_only=True).mean
    assert fmt(both["AP"]) not in (fmt(strict["AP"]), fmt(judged["AP"]))  # each option counts in the result
    assert [summary_value(at, "R@10"), summary_value(at, "AP")] == [fmt(both["R@10"]), fmt(both["AP"])]


def page_files(at):
    """The pair's key, as the page computes it from the two records."""
    return uploads.pair_key(at.session_state[state.YOUR_DATA_QRELS], at.session_state[state.YOUR_DATA_RUN])
