"""The "Your data" page in a real browser: files go in through the file inputs, as a learner's would.

Expected numbers come from the command line's evaluator; the table is read
from the grid's accessible table (the cells are drawn on a canvas). Ids that
hold HTML or Markdown must show as text, and no script may run (a dialog
would mean one did).
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from components.cli import run_evaluation
from components.course import prose
from components.engine.formatting import fmt
from lessons import your_data as your_data_page
from tests.e2e.helpers import current, metric_value, settle

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
SAMPLE_QRELS = ROOT / "assets" / "sample_qrels.txt"
SAMPLE_RUN = ROOT / "assets" / "sample_run.txt"
HTML_QID = "<img/src=x/onerror=alert(1)>"
SCRIPT_DOC = "<script>alert(2)</script>"
MARKDOWN_DOC = "**bold**"


@pytest.fixture
def your_data(page: Page, app_url):
    """A fresh session on the page; every dialog (alert, confirm) is recorded and dismissed."""
    page.set_viewport_size({"width": 1280, "height": 900})
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.goto(app_url + "/your-data")
    expect(page.get_by_role("button", name="Use the sample files")).to_be_visible(timeout=30_000)
    settle(page)  # the first run and the reruns it asks for (the browser's stored progress and lead)
    yield page, dialogs
    page.close()


def upload(page: Page, label: str, files) -> None:
    """Put a file into the uploader whose label starts with ``label`` ("1. Qrels" or "2. Run").

    Waits until the page says it received the file. An upload that lands while
    the page is rerunning for the progress sidebar's first sync can be dropped by
    Streamlit (seen on a loaded 2-core machine); the test then drops it in again,
    as a learner would.
    """
    name = files["name"] if isinstance(files, dict) else Path(files).name
    uploader = page.get_by_test_id("stFileUploader").filter(has_text=label).first.locator("input[type=file]")
    for attempt in range(3):
        uploader.set_input_files(files)
        try:
            expect(page.get_by_text(f"Received: {name}").first).to_be_visible(timeout=10_000)
            return
        except AssertionError:
            if attempt == 2:
                raise


def mean_card(page: Page, label: str):
    return metric_value(page.locator(".st-key-your-data-means"), label)


def open_options(page: Page, label: str, typed: str) -> list[str]:
    """Type into a select box until its option list is open, and read the options' text at once.

    A rerun just after a load may close the list again, so opening and reading happen together.
    """
    box = current(page).get_by_role("combobox", name=label)
    for _ in range(20):
        box.fill(typed)
        try:
            expect(page.get_by_role("option").first).to_be_visible(timeout=1_000)
        except AssertionError:
            continue
        return page.get_by_role("option").all_inner_texts()
    raise AssertionError(f"the options of {label!r} never opened")


def table_cells(page: Page):
    return page.locator(".st-key-your-data-table table td")


def table_rows(page: Page):
    return page.locator(".st-key-your-data-table table tr")


def table_headers(page: Page) -> list[str]:
    """The headers of the columns on screen (the grid's accessible table holds only the columns in view)."""
    return page.locator(".st-key-your-data-table table th").all_inner_texts()


def click_cell(page: Page, x: float, row: int) -> None:
    """Click the per-query grid ``x`` pixels from its left edge, on its ``row``-th row (0: the first query)."""
    grid = page.locator(".st-key-your-data-table").get_by_test_id("stDataFrame")
    grid.scroll_into_view_if_needed()
    box = grid.bounding_box()
    page.mouse.click(box["x"] + x, box["y"] + 35 + 35 * row + 17)


def test_uploading_the_samples_shows_trec_evals_numbers_and_the_table(your_data):
    page, dialogs = your_data
    upload(page, "1. Qrels", SAMPLE_QRELS)
    expect(page.get_by_text(prose.section("your_data", "Waiting run"))).to_be_visible()
    upload(page, "2. Run", SAMPLE_RUN)
    report = run_evaluation(SAMPLE_QRELS, SAMPLE_RUN, ["R@10", "Success@10", "RR", "AP", "nDCG@10"])
    expect(mean_card(page, "Queries evaluated")).to_have_text(str(len(report.qids)), timeout=30_000)
    expect(mean_card(page, "MRR")).to_have_text(fmt(report.mean["RR"]))
    expect(mean_card(page, "MAP")).to_have_text(fmt(report.mean["AP"]))  # trec_eval's first number
    expect(mean_card(page, "nDCG@10 (linear gain)")).to_have_text(fmt(report.mean["nDCG@10"]))
    expect(table_cells(page).first).to_have_text(report.qids[0])
    expect(table_rows(page)).to_have_count(len(report.qids) + 1)  # the header, then a row per query
    assert table_headers(page)[:7] == ["query", "note", "R@10", "Success@10", "RR", "AP", "nDCG@10 (linear gain)"]
    # a click on a row opens that query in the editor
    grid = page.locator(".st-key-your-data-table").get_by_test_id("stDataFrame")
    grid.scroll_into_view_if_needed()
    box = grid.bounding_box()
    page.mouse.click(box["x"] + 16, box["y"] + 35 + 35 * 2 + 17)  # the third row's selection box
    expect(current(page).get_by_role("combobox", name="Query")).to_have_value(report.qids[2])
    expect(page.get_by_text(f"Query {report.qids[2]}: the run's top 20")).to_be_visible()
    assert dialogs == []


def test_a_bad_file_shows_the_message_and_keeps_the_samples(your_data):
    page, _ = your_data
    page.get_by_role("button", name="Use the sample files").click()
    expect(mean_card(page, "Queries evaluated")).to_have_text("11", timeout=30_000)
    upload(page, "2. Run", {"name": "broken.run", "mimeType": "text/plain",
                            "buffer": b"101 Q0 D1 1 high r\n"})
    message = page.locator(".st-key-your-data-error").get_by_test_id("stCode")
    expect(message).to_contain_text("broken.run, line 1: found score 'high'")
    expect(page.get_by_text(prose.section("your_data", "Error kept"))).to_be_visible()
    expect(mean_card(page, "Queries evaluated")).to_have_text("11")
    expect(page.get_by_text("Traceback")).to_have_count(0)


def test_ids_holding_html_or_markdown_show_as_text_and_run_no_script(your_data):
    page, dialogs = your_data
    qrels = (f"{HTML_QID} 0 {MARKDOWN_DOC} 2\n{HTML_QID} 0 {SCRIPT_DOC} 1\n{HTML_QID} 0 missed 1\n"
             f"q2 0 d1 1\n").encode()
    run = (f"{HTML_QID} Q0 {SCRIPT_DOC} 1 3.0 r\n{HTML_QID} Q0 {MARKDOWN_DOC} 2 2.0 r\n"
           f"q2 Q0 d1 1 1.0 r\n").encode()
    upload(page, "1. Qrels", {"name": "**name**.txt", "mimeType": "text/plain", "buffer": qrels})
    upload(page, "2. Run", {"name": "<b>run</b>.txt", "mimeType": "text/plain", "buffer": run})
    expect(mean_card(page, "Queries evaluated")).to_have_text("2", timeout=30_000)
    expect(table_cells(page).first).to_have_text(HTML_QID)
    expect(current(page).get_by_role("combobox", name="Query")).to_have_value(HTML_QID)
    expect(page.get_by_text(f"Query {HTML_QID}: the run's top 2")).to_be_visible()  # the editor's label
    expect(page.get_by_test_id(f"rw-row-{MARKDOWN_DOC}")).to_contain_text(f"{MARKDOWN_DOC} · score 2")
    expect(page.get_by_test_id(f"rw-row-{SCRIPT_DOC}")).to_contain_text(f"{SCRIPT_DOC} · score 3")
    page.get_by_test_id("rw-tray-toggle").click()  # judged, relevant, not returned: the tray
    expect(page.get_by_test_id("rw-row-missed")).to_be_visible()
    expect(page.get_by_text("**name**.txt").first).to_be_visible()
    expect(page.get_by_text("<b>run</b>.txt").first).to_be_visible()
    assert page.locator("img[src='x']").count() == 0
    assert page.locator("b", has_text="run").count() == 0
    assert page.locator("strong", has_text="bold").count() == 0
    assert open_options(page, "Query", "onerror") == [HTML_QID]
    page.keyboard.press("Escape")
    expect(page.get_by_role("option")).to_have_count(0)  # the list closed: the page has rendered since
    assert dialogs == []


def test_a_new_session_in_a_tab_that_had_files_says_the_server_lost_them(your_data):
    page, _ = your_data
    page.get_by_role("button", name="Use the sample files").click()
    expect(page.get_by_test_id("stMetric").first).to_be_visible()
    gone = page.get_by_test_id("stAlert").filter(has_text="the server no longer holds them")
    expect(gone).to_have_count(0)
    page.reload()  # a new session in the same tab, as after a server restart: the files are gone from the server
    expect(gone).to_be_visible()
    expect(page.get_by_text(prose.section("your_data", "Waiting qrels"))).to_be_visible()
    page.get_by_role("button", name="Use the sample files").click()
    expect(page.get_by_test_id("stMetric").first).to_be_visible()
    expect(gone).to_have_count(0)


def test_changing_k_keeps_the_chosen_measures(your_data):
    page, _ = your_data
    page.get_by_role("button", name="Use the sample files").click()
    expect(page.get_by_test_id("stMetricLabel").get_by_text("R@10", exact=True).first).to_be_visible()
    box = page.get_by_test_id("stNumberInputField").first
    box.fill("5")
    box.press("Enter")
    for label in ("R@5", "Success@5", "MRR", "nDCG@5 (linear gain)"):
        expect(page.get_by_test_id("stMetricLabel").get_by_text(label, exact=True).first).to_be_visible()


def test_a_click_on_any_cell_of_a_row_opens_that_query(your_data):
    page, _ = your_data
    page.get_by_role("button", name="Use the sample files").click()
    report = run_evaluation(SAMPLE_QRELS, SAMPLE_RUN, ["R@10", "Success@10", "RR", "nDCG@10"])
    query = current(page).get_by_role("combobox", name="Query")
    expect(query).to_have_value(report.qids[0], timeout=30_000)
    click_cell(page, 150, 2)  # the third row's note
    expect(query).to_have_value(report.qids[2])
    click_cell(page, 16, 1)  # the second row's selection box
    expect(query).to_have_value(report.qids[1])
    click_cell(page, 420, 5)  # a measure of the sixth row: the newest click wins over the ticked box
    expect(query).to_have_value(report.qids[5])
    expect(page.get_by_text(f"Query {report.qids[5]}: the run's top 20")).to_be_visible()
    expect(table_rows(page).nth(6)).to_have_attribute("aria-selected", "true")  # that row is the one ticked now


@pytest.mark.parametrize("width, height, projector", [(1400, 900, False), (1280, 720, True), (1024, 768, False)])
def test_the_note_column_shows_every_note_in_full_without_scrolling_sideways(your_data, app_url, width, height,
                                                                            projector):
    page, _ = your_data
    page.set_viewport_size({"width": width, "height": height})
    if projector:
        page.goto(app_url + "/your-data?projector=1")
    page.get_by_role("button", name="Use the sample files").click()
    expect(table_cells(page).first).to_have_text("101", timeout=30_000)
    scale = 1.5 if projector else 1.0
    headers = table_headers(page)
    assert headers[:2] == ["query", "note"], headers  # in view as the table opens, before any scrolling
    notes = list(your_data_page.NOTES)
    root, widest = page.evaluate("""notes => {
        const context = document.createElement("canvas").getContext("2d");
        const root = parseFloat(getComputedStyle(document.documentElement).fontSize);
        context.font = `${0.875 * root}px "Source Sans", sans-serif`;  // the grid's cell font
        return [root, Math.max(...notes.map(note => context.measureText(note).width))];
    }""", notes)
    assert root == 16 * scale  # projector mode's larger font is on
    width_px = your_data_page.note_width(scale)
    assert widest + 2 * 8 * scale <= width_px, (widest, width_px)  # the text and the cell's padding on each side
    scroller = page.locator(".st-key-your-data-table .dvn-scroller")
    left, shown = scroller.evaluate("s => [s.scrollLeft, s.clientWidth]")
    assert left == 0 and shown >= width_px + 100 * scale  # the selection box and a query id fit beside the note


def test_the_limits_are_stated_once_in_mib_and_name_no_setting(your_data):
    page, _ = your_data
    limit = page.get_by_test_id("stCaptionContainer").filter(has_text="per file").first
    expect(limit).to_contain_text("286.1 MiB per file")
    expect(page.get_by_test_id("stFileUploaderDropzoneInstructions").first).to_be_hidden()  # Streamlit's "MB" line
    expect(page.get_by_text("maxUploadSize")).to_have_count(0)
    expect(page.get_by_text("RANKWISE_SESSION_UPLOAD_MB")).to_have_count(0)


def test_the_relevance_level_and_judged_only_change_the_cards_as_trec_eval_would(your_data):
    """Typing a relevance level of 2 and switching on judged-only give the command line's -l 2 and -J numbers."""
    page, _ = your_data
    page.get_by_role("button", name="Use the sample files").click()
    plain = run_evaluation(SAMPLE_QRELS, SAMPLE_RUN, ["R@10", "AP"]).mean
    expect(mean_card(page, "MAP")).to_have_text(fmt(plain["AP"]), timeout=30_000)
    settle(page)  # a value typed during the samples' run is lost when that run redraws the box
    level = page.get_by_role("spinbutton", name="Relevant from grade")
    level.fill("2")
    level.press("Enter")
    strict = run_evaluation(SAMPLE_QRELS, SAMPLE_RUN, ["R@10", "AP"], relevance_level=2).mean
    expect(mean_card(page, "R@10")).to_have_text(fmt(strict["R@10"]))
    expect(mean_card(page, "MAP")).to_have_text(fmt(strict["AP"]))
    settle(page)
    page.get_by_text("Judged documents only").click()
    both = run_evaluation(SAMPLE_QRELS, SAMPLE_RUN, ["R@10", "AP"], relevance_level=2, judged_only=True).mean
    expect(mean_card(page, "MAP")).to_have_text(fmt(both["AP"]))
    expect(mean_card(page, "R@10")).to_have_text(fmt(both["R@10"]))


def test_a_jsonl_pair_reads_with_chunks_and_a_diagnosed_query_opens_in_the_editor(your_data):
    """A JSONL golden set and results with chunk ids: the diagnosis warns about the chunk ids; counting chunks as
    their document gives the TREC samples' numbers; an example query of a finding opens in the editor."""
    page, dialogs = your_data
    upload(page, "1. Qrels", ROOT / "assets" / "sample_golden.jsonl")
    upload(page, "2. Run", ROOT / "assets" / "sample_results.jsonl")
    diagnosis = page.get_by_test_id("stExpander").filter(has_text="Diagnosis at k = 10")
    expect(diagnosis.get_by_text("Chunk ids against document ids").first).to_be_visible(timeout=30_000)
    page.get_by_text("Count chunks as their document", exact=True).click()
    report = run_evaluation(SAMPLE_QRELS, SAMPLE_RUN, ["AP"])
    expect(mean_card(page, "MAP")).to_have_text(fmt(report.mean["AP"]))
    example = diagnosis.get_by_role("button", name=re.compile(r"^1\d\d$")).first  # a topic id: 101 to 112
    qid = example.inner_text().strip()
    example.click()
    expect(current(page).get_by_role("combobox", name="Query")).to_have_value(qid)
    expect(page.get_by_text(f"Query {qid}: the run's top 20")).to_be_visible()
    assert not dialogs


def numbered_run(number: int) -> dict:
    """The sample run under another name and tag: each a different file (another SHA-256), the same numbers."""
    text = "".join(line.rsplit(" ", 1)[0] + f" run{number}\n" for line in SAMPLE_RUN.read_text().splitlines())
    return {"name": f"run{number}.txt", "mimeType": "text/plain", "buffer": text.encode()}


def test_the_last_of_quickly_dropped_runs_is_the_one_on_show(your_data):
    """Runs dropped one after another without waiting land while the page is still taking the one before (its
    uploader is being replaced by an empty one): in each of three bursts of ten, the page ends on the last run."""
    page, _ = your_data
    upload(page, "1. Qrels", SAMPLE_QRELS)
    uploader = page.get_by_test_id("stFileUploader").filter(has_text="2. Run").first.locator("input[type=file]")
    for burst in range(3):
        for number in range(10 * burst, 10 * burst + 10):
            uploader.set_input_files(numbered_run(number))  # the locator finds the uploader on show at each drop
        settle(page)
        expect(page.get_by_text(f"Received: run{10 * burst + 9}.txt").first).to_be_visible(timeout=15_000)
        expect(page.get_by_text(f"Received: run{10 * burst + 8}.txt")).to_have_count(0)
