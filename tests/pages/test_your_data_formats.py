"""AppTest: "Your data" with the formats practitioners bring (BEIR, JSON, JSONL, chunk ids), the JSON field mapping,
and the diagnosis of the loaded pair. Expected numbers come from the command line's evaluator on the TREC samples."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from components.cli.evaluate import run_evaluation
from components.course.measure_choices import mean_name
from components.engine.formatting import fmt
from components.serving import uploads
from components.ui import state
from tests.pages.helpers import open_page
from tests.unit.file_readers import read_qrels

PAGE = "lessons/your_data.py"
ASSETS = Path(__file__).resolve().parents[2] / "assets"
DEFAULT = ["R@10", "Success@10", "RR", "AP", "nDCG@10"]


def cards(at) -> dict[str, str]:
    """The summary's cards (they come first; the query view's later cards of the same names are left out)."""
    shown: dict[str, str] = {}
    for m in at.metric:
        shown.setdefault(m.label, m.value)
    return shown


def trec_sample_cards() -> dict[str, str]:
    report = run_evaluation((ASSETS / "sample_qrels.txt").read_bytes(), (ASSETS / "sample_run.txt").read_bytes(),
                            DEFAULT)
    return {mean_name(name, "linear"): fmt(value) for name, value in report.mean.items()}


@pytest.mark.parametrize("sample, chunked", [("beir", False), ("jsonl", True)])
def test_the_beir_and_jsonl_samples_give_the_trec_samples_numbers(sample, chunked):
    at = open_page(PAGE)
    if chunked:
        at.toggle(key=state.YOUR_DATA_CHUNKS).set_value(True).run()
    at.button(key=f"{state.YOUR_DATA_SAMPLES}.{sample}").click().run()
    assert not at.exception and not at.error
    shown = cards(at)
    assert {label: shown[label] for label in trec_sample_cards()} == trec_sample_cards()
    formats = {"beir": "TSV and JSON", "jsonl": "JSONL"}[sample]
    assert any(f"read as {formats}" in c.value for c in at.caption)


def test_chunk_ids_unmerged_are_a_diagnosed_id_problem_the_toggle_merges_them_and_an_example_opens():
    """The JSONL golden set and results with chunk ids: the diagnosis warns about the chunk ids; counting chunks as
    their document gives the TREC samples' numbers; an example query of a finding opens in the editor."""
    at = open_page(PAGE)
    at.button(key=f"{state.YOUR_DATA_SAMPLES}.jsonl").click().run()
    assert not at.exception
    expander = next(e for e in at.expander if "Diagnosis at k = 10" in e.label)
    assert "warning" in expander.label
    assert any("Chunk ids against document ids" in m.value for m in expander.markdown)
    at.toggle(key=state.YOUR_DATA_CHUNKS).set_value(True).run()
    assert cards(at)[mean_name("AP", "linear")] == trec_sample_cards()[mean_name("AP", "linear")]
    assert any("chunk rows merged" in c.value for c in at.caption)
    example = next(b for b in at.button if b.key and b.key.startswith(state.YOUR_DATA_DIAGNOSIS))
    qid = example.label
    assert qid in read_qrels((ASSETS / "sample_qrels.txt").read_bytes()).qids  # a topic id, not a chunk's
    example.click().run()
    assert not at.exception
    assert at.selectbox(key=state.YOUR_DATA_QUERY).value == qid
    assert editor_labels(at) == [f"Query {qid}: the run's top 20"]


def editor_labels(at) -> list[str]:
    """The labels of the ranking editors on the page (the query view's one)."""
    data = [json.loads(e.proto.json) for e in at.get("bidi_component") if e.key.startswith(state.YOUR_DATA_EDITOR)]
    return [d["label"] for d in data]


def open_pair(qrels: bytes, run: bytes):
    """The page with this JSONL pair received (gold.jsonl, hits.jsonl)."""
    at = open_page(PAGE, session={state.YOUR_DATA_QRELS: uploads.upload_record("gold.jsonl", qrels),
                                  state.YOUR_DATA_RUN: uploads.upload_record("hits.jsonl", run)})
    assert not at.exception
    return at


def test_json_records_with_unknown_keys_ask_for_a_mapping_and_read_with_it():
    qrels = b'{"q": "1", "gold": ["a", "b"]}\n{"q": "2", "gold": ["c"]}\n'
    run = b'{"q": "1", "hits": ["x", "a", "b"]}\n{"q": "2", "hits": ["c"]}\n'
    at = open_pair(qrels, run)
    assert any("Which keys of the qrels file's records" in m.value for m in at.markdown)
    at.selectbox(key=f"{state.YOUR_DATA_FIELDS}.qrels.qid").set_value("q")
    at.selectbox(key=f"{state.YOUR_DATA_FIELDS}.qrels.docs").set_value("gold")
    at.button(key=f"{state.YOUR_DATA_FIELDS}.qrels.read").click().run()
    assert any("Which keys of the run file's records" in m.value for m in at.markdown)
    at.selectbox(key=f"{state.YOUR_DATA_FIELDS}.run.qid").set_value("q")
    at.selectbox(key=f"{state.YOUR_DATA_FIELDS}.run.docs").set_value("hits")
    at.button(key=f"{state.YOUR_DATA_FIELDS}.run.read").click().run()
    assert not at.exception and not at.error
    as_trec = run_evaluation("1 0 a 1\n1 0 b 1\n2 0 c 1\n", "1 Q0 x 1 3 r\n1 Q0 a 2 2 r\n1 Q0 b 3 1 r\n2 Q0 c 1 1 r\n",
                             DEFAULT)
    assert cards(at)[mean_name("AP", "linear")] == fmt(as_trec.mean["AP"])
    assert any("their order is the ranking" in c.value for c in at.caption)


def test_objects_whose_id_key_is_unknown_ask_for_it_and_keep_the_records_keys():
    qrels = b'{"qid": "1", "relevant": [{"page": "a", "label": 2}, {"page": "b", "label": 1}]}\n'
    run = b'{"qid": "1", "retrieved_ids": ["x", "b", "a"]}\n'
    at = open_pair(qrels, run)
    assert any("as objects under" in m.value and "relevant" in m.value for m in at.markdown)
    fields = f"{state.YOUR_DATA_FIELDS}.qrels"
    assert at.selectbox(key=f"{fields}.doc_id").options == ["page", "label"]
    at.selectbox(key=f"{fields}.doc_id").set_value("page")
    at.selectbox(key=f"{fields}.value").set_value("label")
    at.button(key=f"{fields}.read").click().run()
    assert not at.exception and not at.error
    as_trec = run_evaluation("1 0 a 2\n1 0 b 1\n", "1 Q0 x 1 3 r\n1 Q0 b 2 2 r\n1 Q0 a 3 1 r\n", ["nDCG@10"])
    assert cards(at)[mean_name("nDCG@10", "linear")] == fmt(as_trec.mean["nDCG@10"])


def test_a_bad_json_file_names_the_line_and_keeps_the_earlier_pair():
    at = open_page(PAGE)
    at.button(key=state.YOUR_DATA_SAMPLES).click().run()
    before = cards(at)
    at.session_state[state.YOUR_DATA_RUN] = uploads.upload_record("bad.jsonl", b'{"qid": "101", "retrieved_ids": ["a"]}\n{"qid": \n')
    at.run()
    assert not at.exception
    message = next(c.value for c in at.code if "bad.jsonl" in c.value)
    assert "line 2" in message
    assert cards(at) == before


def test_the_diagnosis_lists_the_samples_problems_and_an_example_opens_its_query():
    at = open_page(PAGE)
    at.button(key=state.YOUR_DATA_SAMPLES).click().run()
    expander = next(e for e in at.expander if "Diagnosis at k = 10" in e.label)
    text = " ".join(m.value for m in expander.markdown)
    assert "Judged queries missing from the run" in text and "Queries nobody judged" in text
    advice = " ".join(c.value for c in expander.caption)
    assert '"Judged documents only" turned on' in advice and "Add Judged@k to the measures" in advice  # the page's
    assert "-J (--judged-only)" not in advice and "-m Judged@" not in advice  # controls, not the command line's flags
    buttons = [b for b in at.button if b.key and b.key.startswith(state.YOUR_DATA_DIAGNOSIS)]
    assert buttons, "every finding about evaluated queries offers them as buttons"
    qid = buttons[0].label
    buttons[0].click().run()
    assert not at.exception
    assert at.selectbox(key=state.YOUR_DATA_QUERY).value == qid


def test_a_clean_pair_says_nothing_misleads_the_numbers():
    qrels = b"1 0 a 1\n1 0 b 0\n2 0 c 1\n"
    run = b"".join(f"{q} Q0 {d} {r} {10 - r} t\n".encode() for q, docs in (("1", "ab"), ("2", "c"))
                   for r, d in enumerate(docs, 1))
    at = open_page(PAGE, session={state.YOUR_DATA_QRELS: uploads.upload_record("q.txt", qrels),
                                  state.YOUR_DATA_RUN: uploads.upload_record("r.txt", run)})
    expander = next(e for e in at.expander if "Diagnosis at k" in e.label)
    assert read_qrels(qrels).qids == ("1", "2")
    assert "warnings" not in expander.label or "0 warnings" in expander.label
    json.dumps(expander.label)  # plain text, no markup object


def test_a_beir_datasets_zip_as_the_judgments_gives_the_samples_numbers_and_names_the_file_read():
    import io
    import zipfile

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("sample/corpus.jsonl", '{"_id": "d1", "text": "a document"}\n')
        z.write(ASSETS / "beir_sample" / "qrels" / "test.tsv", "sample/qrels/test.tsv")
    at = open_page(PAGE, session={
        state.YOUR_DATA_QRELS: uploads.upload_record("sample.zip", buffer.getvalue()),
        state.YOUR_DATA_RUN: uploads.upload_record("results.json", (ASSETS / "beir_sample" / "results.json").read_bytes())})
    assert not at.exception and not at.error
    shown = cards(at)
    assert {label: shown[label] for label in trec_sample_cards()} == trec_sample_cards()
    assert any("sample/qrels/test.tsv" in c.value and "sample.zip" in c.value for c in at.caption)
