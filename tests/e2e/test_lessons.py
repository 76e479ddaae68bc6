"""The lessons in a real browser: what only a browser shows, on one page that walks the lessons by their links.

A lesson's numbers after a move are the server's (tests/pages/test_*_page.py set the editor's state and check
them); the ranking editor's own drags are tested on its test page (test_ranking_editor.py). Here: a lazy panel
opening on a click, a duel laid out beside its sentence, a grade's colour on two pages, a key move on a strip
scored in both gains, and the rank strip (the duels' compact view) moved by mouse, keys, buttons and its
cutoff line. Expected values come from the engine, never typed in.
"""
from __future__ import annotations

import re
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import Locator, Page, expect

from components.course import hybrid, quiz, scenarios
from components.engine import metrics
from components.engine.formatting import fmt
from components.ui import state
from tests.e2e.helpers import (
    PageRuns,
    board_value,
    hold_changes,
    hold_still,
    lesson_editor,
    press_home,
    release_changes,
    settle,
)
from tests.e2e.navigation import open_shared_page, visit

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def lessons(shared_context, app_url) -> Page:
    """One page (one session) for the module, tall enough for a duel and its sentence; tests move between the
    lessons by the sidebar's links."""
    page = open_shared_page(shared_context, app_url + "/recall", {"width": 1280, "height": 1600})
    yield page
    page.close()


def lesson(page: Page, module: str) -> Page:
    """The lesson ``module``, its editors drawn."""
    visit(page, module)
    expect(page.get_by_test_id("rw-editor").first).to_be_visible()
    return page


def strip_named(page: Page, label: str) -> Locator:
    """The rank strip (a duel's side, a puzzle) whose row is named ``label``."""
    return page.get_by_test_id("rs-strip").filter(has=page.get_by_test_id("rs-label").get_by_text(label, exact=True))


def board_values(strip: Locator) -> Locator:
    return strip.get_by_test_id("rs-scoreboard").locator(".rs-score-value")


def track(strip: Locator) -> list[str]:
    """The strip's list, top first: its cells' document ids."""
    return strip.get_by_test_id("rs-track").locator(".rs-cell").evaluate_all("cells => cells.map(c => c.dataset.id)")


def test_take_home_opens_on_a_click_with_the_files_and_the_link_to_this_view(lessons: Page):
    """The panel and the link box are built only when opened (lazy expanders): a click opens each and shows this
    ranking's files and the page's own address (the browser's, with the view's k)."""
    page = lesson(lessons, "recall")
    recall = lesson_editor(page).get_by_test_id("rw-score-cell").filter(has=page.locator(".rw-score-label",
                                                                                          has_text="Recall@5"))
    expect(recall.locator(".rw-score-value")).to_have_text("0.400")  # the editor's board: the lesson's one place
    download = page.get_by_role("button", name="Download recall.run")
    expect(download).to_have_count(0)
    page.get_by_text("Take this home", exact=False).first.click()
    expect(download).to_be_visible()
    expect(page.get_by_test_id("stCode").filter(has_text="R@5 0.400").first).to_be_visible()
    page.get_by_text("Copy a link to this view").first.click()
    expect(page.get_by_test_id("stCode").filter(has_text="/recall?k=5").first).to_be_visible()


def test_the_blind_spot_duel_shows_its_point_beside_its_text(lessons: Page):
    """Both lists at k = 20, in view together with the sentence that quotes their numbers."""
    page = lesson(lessons, "recall")
    top, bottom = strip_named(page, "Hits at positions 1–4"), strip_named(page, "Hits at positions 16–19")
    expect(board_values(top)).to_have_text(["0.400", "1.000"])
    expect(board_values(bottom)).to_have_text(["0.400", fmt(1 / 16)])
    sentence = page.get_by_text("Both lists have Recall@20 = 0.400")
    sentence.evaluate("e => e.scrollIntoView({block: 'start'})")
    expect(sentence).to_be_in_viewport()
    expect(board_values(top).first).to_be_in_viewport()
    expect(board_values(bottom).first).to_be_in_viewport()


def test_a_drop_is_answered_by_the_editors_own_run_and_the_arithmetic_follows(shared_context, app_url):
    """On nDCG, a move (a row's "up" button) reruns the editor's own fragment first (its board answers), then the "Try it"
    section's, whose arithmetic shows the new order's DCG@3 and which writes the order into the address
    (components/ui/answer_first.py); a new k reruns the section once. No whole-page run."""
    q = scenarios.FRAMEWORKS
    order = list(q.presets[next(iter(q.presets))])
    order[2], order[3] = order[3], order[2]
    dcg = fmt(metrics.dcg_at_k(q.grades(order), scenarios.FRAMEWORKS_K))
    page = shared_context.new_page()
    page.set_viewport_size({"width": 1280, "height": 900})
    runs = PageRuns(page)
    page.goto(app_url + "/ndcg")
    settle(page)
    title = q.by_id[order[2]].title  # the fourth row, moved up one by its button: one change sent
    lesson_editor(page).get_by_role("button", name=f"Move {title} up").click()
    expect(board_value(page, "DCG@3")).to_have_text(dcg)  # the editor's run: the board's answer
    line = re.compile(r"\\mathrm\{DCG@\}3 = .* = " + re.escape(dcg) + "$")
    expect(page.locator(".katex-mathml annotation").filter(has_text=line)).to_have_count(1)
    settle(page)
    assert runs.count == 1, "a move ran the whole page"
    editor_run, section_run = runs.fragment_runs
    assert editor_run != section_run, "the drop ran the section's fragment alone"
    assert parse_qs(urlparse(page.url).query)[state.PARAM_ORDER] == [state.write_order(order)]  # the section wrote it
    press_home(page, page.get_by_role("slider", name="Cutoff k").first,
               lambda ms: expect(lesson_editor(page).get_by_text("top 1")).to_be_visible(timeout=ms))
    settle(page)
    assert runs.fragment_runs[2:] == [section_run] and runs.count == 1
    page.close()


def test_a_grade_has_one_colour_on_every_page(lessons: Page):
    """Grade 1 is the same chip (words and colour class) on the binary Recall list and the graded nDCG list."""
    levels = {}
    for module, doc in (("recall", "c01"), ("ndcg", "pyramid")):
        badge = lesson(lessons, module).get_by_test_id(f"rw-row-{doc}").first.get_by_test_id("rw-badge")
        expect(badge).to_have_text("1relevant")
        levels[module] = badge.get_attribute("data-level")
    assert levels == {"recall": "g1", "ndcg": "g1"}


def test_a_key_move_on_the_gains_strip_rescores_both_gains(lessons: Page):
    """One list scored in both gains: a move by keys redraws its board in both, in the browser."""
    page = lesson(lessons, "ndcg")
    strip = strip_named(page, "One list, scored in both gains")
    q = scenarios.FRAMEWORKS
    start = list(q.presets[scenarios.FRAMEWORKS_MIXED])
    judged = q.judged_grades()

    def values(order):
        grades = q.grades(order)
        return [fmt(f(grades, 3, gain)) for gain in ("exponential", "linear")
                for f in (metrics.dcg_at_k, lambda g, k, gain: metrics.ndcg_at_k(g, k, judged, gain))]

    expect(board_values(strip)).to_have_text(values(start))
    strip.get_by_test_id("rs-cell-django").focus()
    for key in ("Space", "Home", "Space"):  # lift, to the top, drop
        page.keyboard.press(key)
    moved = ["django", *[i for i in start if i != "django"]]
    expect(board_values(strip)).to_have_text(values(moved))
    expect(strip.get_by_test_id("rs-track").locator(".rs-cell").first).to_have_attribute("data-id", "django")


def test_a_rank_strip_moves_by_mouse_keys_buttons_and_its_cutoff_line(lessons: Page):
    """The blind-spot duel's lower strip: a mouse drag of a cell along the row (the values preview while it moves,
    and stay once dropped), a key move (lift, End, drop), a button, and the dashed line dragged to k = 5 (which
    sets the section's slider). A cell's accessible name and hover text carry its document's title."""
    page = lesson(lessons, "recall")
    q = scenarios.LAWYER
    strip = strip_named(page, "Hits at positions 16–19")
    strip.scroll_into_view_if_needed()
    order = list(q.presets["System A, hits at 16–19"])

    def values(order, k=20):
        qs = metrics.from_rankings([q.grades(order)], [q.judged_grades()])
        return [fmt(metrics.recall(qs, k)[0]), fmt(metrics.reciprocal_rank(qs)[0])]

    expect(board_values(strip)).to_have_text(values(order))
    hit = order[15]  # the first relevant case, at position 16
    cell = strip.get_by_test_id(f"rs-cell-{hit}")
    title = next(d.title for d in q.docs if d.id == hit)
    expect(cell).to_have_attribute("title", title)
    assert cell.get_attribute("aria-label").startswith(f"{title}, position 16 of 20")
    start, target = cell.bounding_box(), strip.get_by_test_id(f"rs-cell-{order[0]}").bounding_box()
    page.mouse.move(start["x"] + 4, start["y"] + 4)
    page.mouse.down()
    for step in range(1, 9):
        page.mouse.move(start["x"] + 4 + (target["x"] - start["x"]) * step / 8, start["y"] + 4)
    moved = [hit, *[i for i in order if i != hit]]
    expect(strip.get_by_test_id("rs-note")).to_contain_text("preview")
    expect(board_values(strip)).to_have_text(values(moved))  # previewed from the engine's table, before the drop
    page.mouse.up()
    expect(strip.get_by_test_id("rs-note")).to_have_text("")  # the server's run is in: no preview left
    expect(board_values(strip)).to_have_text(values(moved))
    assert track(strip) == moved
    cell.focus()
    for key in ("Space", "End", "Space"):  # lift, to the end, drop
        page.keyboard.press(key)
    moved = [*[i for i in order if i != hit], hit]
    expect(board_values(strip)).to_have_text(values(moved))
    expect(strip.get_by_test_id("rs-live")).to_contain_text(f"{title} dropped at position 20 of 20")
    strip.get_by_test_id("rs-btn-earlier").click()
    expect(strip.get_by_test_id("rs-name")).to_contain_text(f"19. {title}")
    expect(strip.get_by_test_id("rs-note")).to_have_text("")
    moved.insert(18, moved.pop())
    assert track(strip) == moved
    settle(page)  # the button's run is over, and the line and the cells stay put: a box read as the page
    handle = strip.get_by_test_id("rs-cutoff").locator(".rs-cut-handle")  # still laid out once missed the line
    hold_still(page, handle)
    line = handle.bounding_box()
    fifth = strip.get_by_test_id("rs-track").locator(".rs-cell").nth(4).bounding_box()
    page.mouse.move(line["x"] + line["width"] / 2, line["y"] + line["height"] / 2)
    page.mouse.down()
    for step in range(1, 9):
        page.mouse.move(line["x"] + (fifth["x"] + fifth["width"] - line["x"]) * step / 8, line["y"] + 4)
    page.mouse.up()
    expect(strip.get_by_test_id("rs-cutoff")).to_have_attribute("aria-valuenow", "5")
    slider = page.get_by_test_id("stSlider").filter(has_text="k for both lists")
    expect(slider.get_by_role("slider")).to_have_attribute("aria-valuetext", "5")
    expect(board_values(strip)).to_have_text(values(moved, 5))
    slider.get_by_role("slider").press("End")  # the page as it was, for whoever comes next
    page.get_by_role("button", name="Start again", exact=True).last.click()


def test_a_strip_drag_held_while_the_last_drops_answer_arrives_lands_where_its_preview_shows(lessons: Page):
    """As in the ranking editor: a drop's answer (the dropped list, confirmed) that comes while the next drag is
    held leaves that drag alone, and its cell lands where its preview shows. (The first drop's change is held in
    the page until the second drag is under way.)"""
    page = lesson(lessons, "recall")
    strip = strip_named(page, "Hits at positions 16–19")
    strip.scroll_into_view_if_needed()
    settle(page)
    start = track(strip)
    hold_changes(strip, "__rankwiseStrip")

    def drag_to(cell_id: str, position: int, *, release: bool = True) -> None:
        cell = strip.get_by_test_id(f"rs-cell-{cell_id}")
        hold_still(page, cell)
        a, b = cell.bounding_box(), strip.get_by_test_id("rs-track").locator(".rs-cell").nth(position).bounding_box()
        page.mouse.move(a["x"] + 4, a["y"] + 4)
        page.mouse.down()
        page.mouse.move(b["x"] + b["width"] / 2, a["y"] + 4, steps=8)
        if release:
            page.mouse.up()

    drag_to(start[15], 0)  # the first drop, its change held
    first = [start[15], *[i for i in start if i != start[15]]]
    assert track(strip) == first
    drag_to(first[19], 2, release=False)
    preview = [*first[:2], first[19], *first[2:19]]
    assert track(strip) == preview
    assert release_changes(strip, "__rankwiseStrip") == 1  # the first drop's answer drawn, while this drag is held
    assert track(strip) == preview  # still dragging, the cell where it was
    page.mouse.up()
    expect(strip.get_by_test_id("rs-note")).to_have_text("")  # the second drop's run is in
    assert track(strip) == preview
    page.get_by_role("button", name="Start again", exact=True).last.click()  # the page as it was


def test_hybrid_search_fuses_again_on_a_drag_and_on_the_k_slider_and_checks_a_question(lessons: Page):
    """The fusion lesson: a drag in BM25's strip previews its own values and, dropped, fuses the lists again; the
    slider's Home key (k = 1) reorders the fused strip; a fused cell chosen by the keys writes out its score; a
    practice question checks in place. Expected orders and scores from the engine (components/course/hybrid.py)."""
    page = visit(lessons, "fusion")
    lexical, dense = (list(hybrid.Q.presets[name]) for name in hybrid.RANKERS)
    bm25, fused = strip_named(page, "BM25 (lexical)"), strip_named(page, "Fused by RRF at k = 60")
    bm25.scroll_into_view_if_needed()
    expect(fused).to_be_visible()
    assert track(fused) == [d for d, _ in hybrid.fused((lexical, dense), 60)]
    cell = bm25.get_by_test_id("rs-cell-tls")
    hold_still(page, cell)
    start, target = cell.bounding_box(), bm25.get_by_test_id("rs-cell-runbook").bounding_box()
    page.mouse.move(start["x"] + 4, start["y"] + 4)
    page.mouse.down()
    page.mouse.move(target["x"] + 4, start["y"] + 4, steps=8)
    moved = ["tls", *[d for d in lexical if d != "tls"]]
    expect(bm25.get_by_test_id("rs-note")).to_contain_text("preview")
    expect(board_values(bm25)).to_have_text([fmt(v) for v in hybrid.values(moved)])  # from the move table
    page.mouse.up()
    again = [d for d, _ in hybrid.fused((moved, dense), 60)]
    assert again[1] != hybrid.fused((lexical, dense), 60)[1][0]  # the drop changes the fused list's second place
    expect(fused.get_by_test_id("rs-track").locator(".rs-cell").nth(1)).to_have_attribute("data-id", again[1])
    assert track(fused) == again
    settle(page)
    page.get_by_role("button", name="Start again", exact=True).click()
    expect(bm25.get_by_test_id("rs-track").locator(".rs-cell").first).to_have_attribute("data-id", lexical[0])
    settle(page)
    slider = page.get_by_test_id("stSlider").filter(has_text="RRF's constant k").get_by_role("slider")
    fused = strip_named(page, "Fused by RRF at k = 1")
    at_one = hybrid.fused((lexical, dense), 1)
    press_home(page, slider, lambda timeout: expect(fused.get_by_test_id("rs-track").locator(".rs-cell").first)
               .to_have_attribute("data-id", at_one[0][0], timeout=timeout))
    fused.get_by_test_id(f"rs-cell-{at_one[0][0]}").focus()
    page.keyboard.press("ArrowRight")
    second, score = at_one[1]
    expect(fused.get_by_test_id("rs-name")).to_contain_text(f"2. {hybrid.cell_title((lexical, dense), second, score, 1)}")
    settle(page)
    question = next(q for q in quiz.questions_for("fusion") if quiz.is_graded(q))  # the practice's first card
    card = page.locator(f".st-key-quiz-fusion-{question.id.replace('.', '-')}")  # quiz_ui's card, keyed by page and id
    card.get_by_role("radio").nth(question.options.index(min(question.correct))).check(force=True)
    card.get_by_role("button", name="Check").click()
    expect(card.get_by_test_id("stAlertContentSuccess")).to_be_visible()
