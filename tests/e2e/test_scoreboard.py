"""The editor's live scoreboard in a real browser: in view beside any row, and previewing during a drag.

One page for the module: the tests move between the lessons by the sidebar's links, and a test on the Recall
lesson starts from its System A preset (k = 5); an instructor's modes get one page of their own. What the server
sends the board for a state is checked in tests/pages/test_recall_page.py. Expected values come from the engine
(components.engine.metrics), computed for the order the test makes, never typed in.
"""
from __future__ import annotations

import re
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import Locator, Page, expect

from components.course import scenarios
from components.engine import metrics
from components.engine.formatting import fmt
from tests.e2e.helpers import hold_still, lesson_editor, next_frames, settle
from tests.e2e.navigation import open_shared_page, visit

pytestmark = pytest.mark.e2e
Q = scenarios.LAWYER
SYSTEM_A = list(Q.presets["System A"])
K = 5
SCREENS = [(1024, 768), (390, 844)]  # 1400x900 has more room
PROJECTOR_SCREEN = (1280, 720)
WIDE = {"width": 1400, "height": 1400}
PREVIEW = re.compile(r"\brw-preview\b")  # the board's class while it shows a preview


@pytest.fixture(scope="module")
def lessons(shared_context, app_url) -> Page:
    """The module's one page (one session), on the Recall lesson."""
    page = open_shared_page(shared_context, app_url + "/recall", WIDE)
    yield page
    page.close()


def system_a(page: Page) -> Page:
    """The Recall lesson with its editor on System A at k = 5 (its preset), the run over."""
    page.set_viewport_size(WIDE)
    visit(page, "recall")
    page.locator(".st-key-recall-preset-System-A button").click()
    expect(board_cell(page, "Recall@5")).to_have_text(recall_at_k(SYSTEM_A))
    expect(page.locator("input[type=range]").first).to_have_attribute("value", "5")
    settle(page)  # a move or measure made during a rerun is lost when the rerun redraws the editor
    return page


def recall_at_k(order) -> str:
    qs = metrics.from_rankings([Q.grades(order)], [Q.judged_grades()])
    return fmt(metrics.recall(qs, K)[0])


def board_cell(page: Page, label: str):
    """The value of the lesson editor's scoreboard cell whose label is ``label``."""
    exactly = re.compile(f"^{re.escape(label)}$")
    editor = lesson_editor(page)
    cell = editor.get_by_test_id("rw-score-cell").filter(has=page.locator(".rw-score-label", has_text=exactly))
    return cell.locator(".rw-score-value")


def in_view(page: Page, locator) -> bool:
    """On screen, and not under Streamlit's header bar (which lies over the top of the page)."""
    box = locator.bounding_box()
    header = page.get_by_test_id("stHeader").bounding_box()
    top = header["y"] + header["height"] if header else 0
    return box is not None and box["y"] >= top - 1 and box["y"] + box["height"] <= page.viewport_size["height"] + 1


def press(page: Page, grip: Locator, to: Locator, *, at: float) -> None:
    """Press the mouse on ``grip`` and move it onto ``to`` (at this fraction of its height); the button stays
    down, so the board shows its preview."""
    hold_still(page, grip)
    start, box = grip.bounding_box(), to.bounding_box()
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] * at, steps=10)


def board_in_view_with_the_last_row(page: Page, sizes, mode: str) -> None:
    """At each size in turn: the lesson editor's last row scrolled into view, its scoreboard on screen too."""
    board = lesson_editor(page).get_by_test_id("rw-scoreboard")
    last = lesson_editor(page).get_by_test_id(f"rw-row-{SYSTEM_A[-1]}")
    for width, height in sizes:
        page.set_viewport_size({"width": width, "height": height})
        next_frames(page)  # laid out at the new size
        last.scroll_into_view_if_needed()
        expect(last).to_be_in_viewport()
        next_frames(page)  # the sticky header placed after the scroll
        assert in_view(page, board), f"the scoreboard is off screen at {width}x{height} ({mode}) with the last row in view"


def test_the_scoreboard_stays_in_view_with_the_last_row(lessons: Page):
    """One page, resized to each screen in turn."""
    page = system_a(lessons)
    try:
        board_in_view_with_the_last_row(page, SCREENS, "plain")
    finally:
        page.set_viewport_size(WIDE)


def test_an_instructors_board_hides_its_numbers_until_revealed_and_stays_in_view_on_a_projector(shared_context,
                                                                                                 app_url):
    """Predict first: the board shows "?" until the class reveals the numbers. In projector
    mode (larger type) the board stays in view with the last row."""
    width, height = PROJECTOR_SCREEN
    page = open_shared_page(shared_context, app_url + "/recall?projector=1&predict_first=1",
                            {"width": width, "height": height})
    try:
        expect(board_cell(page, "Recall@5")).to_have_text("?")
        page.get_by_role("button", name="Reveal the numbers").first.click()
        expect(board_cell(page, "Recall@5")).to_have_text(recall_at_k(SYSTEM_A))
        settle(page)
        assert page.evaluate("() => parseFloat(getComputedStyle(document.documentElement).fontSize)") > 16
        board_in_view_with_the_last_row(page, [PROJECTOR_SCREEN], "projector")
    finally:
        page.close()


def test_a_drag_previews_the_engines_value_before_the_drop(lessons: Page):
    page = system_a(lessons)
    first, target = SYSTEM_A[0], SYSTEM_A[6]  # a relevant case at 1, dragged below the 7th row (out of the top 5)
    editor = lesson_editor(page)
    editor.get_by_test_id(f"rw-row-{SYSTEM_A[3]}").evaluate("e => e.scrollIntoView({block: 'center'})")
    press(page, editor.get_by_test_id(f"rw-row-{first}").get_by_test_id("rw-title"),
          editor.get_by_test_id(f"rw-row-{target}"), at=0.8)
    moved = [d for d in SYSTEM_A if d != first]
    moved.insert(6, first)
    # mouse still down: the board shows the value of the order under the pointer, marked as a preview
    expect(board_cell(page, "Recall@5")).to_have_text(recall_at_k(moved))
    expect(editor.get_by_test_id("rw-scoreboard")).to_have_class("rw-score rw-preview")
    expect(editor.get_by_test_id("rw-score-note")).not_to_have_text("")
    page.mouse.up()
    # dropped: the editor's own run answers, and the board, the page's one place for Recall@5 (no card repeats it,
    # tests/pages/test_recall_page.py), shows the server's value for it, no longer a preview
    expect(editor.get_by_test_id("rw-scoreboard")).not_to_have_class(PREVIEW)
    expect(board_cell(page, "Recall@5")).to_have_text(recall_at_k(moved))
    # then the section's run, the drop's second, writes the new order into the address
    page.wait_for_url(lambda url: order_in(url) != SYSTEM_A)
    settle(page)
    dropped = order_in(page.url)  # the order of the server's run
    assert dropped.index(first) >= K and recall_at_k(dropped) == recall_at_k(moved)


def order_in(url: str) -> list[str]:
    """The editor's order as the address carries it."""
    return parse_qs(urlparse(url).query)["order"][0].split(",")


def test_each_mrr_list_previews_its_rr_and_the_pages_mrr_with_the_other_lists_fixed(lessons: Page):
    page = visit(lessons, "mrr")
    queries = scenarios.JAR_QUERIES
    lists = [list(next(iter(q.presets.values()))) for q in queries]

    def rr(orders) -> list[float]:
        qs = metrics.from_rankings([q.grades(o) for q, o in zip(queries, orders)], [q.judged_grades() for q in queries])
        return list(metrics.reciprocal_rank(qs))

    def shown(orders, i) -> list[str]:
        """List i's board: its own RR, then the page's MRR."""
        values = rr(orders)
        return [fmt(values[i]), fmt(sum(values) / len(values))]

    first = page.get_by_test_id("rw-editor").first
    boards = page.locator('[data-testid="rw-scoreboard"]:not([hidden])')  # the fourth list has no board
    expect(boards).to_have_count(3)
    for i in range(3):
        expect(boards.nth(i).locator(".rw-score-value")).to_have_text(shown(lists, i))
    settle(page)
    first.get_by_test_id("rw-row-j01").evaluate("e => e.scrollIntoView({block: 'center'})")
    press(page, first.get_by_test_id("rw-row-j01").get_by_test_id("rw-title"), first.get_by_test_id("rw-row-j02"),
          at=0.8)
    moved = [["j02", "j01", *lists[0][2:]], lists[1], lists[2]]
    expect(boards.first.locator(".rw-score-value")).to_have_text(shown(moved, 0))  # mouse still down
    page.mouse.up()
    expect(boards.first).to_have_class("rw-score")  # the server's run is in: no preview left
    for i in range(3):  # every list's board follows: its own RR, and the page's MRR, one number
        expect(boards.nth(i).locator(".rw-score-value")).to_have_text(shown(moved, i))


def test_the_ndcg_board_previews_all_four_values(lessons: Page):
    page = visit(lessons, "ndcg")
    f = scenarios.FRAMEWORKS
    k = scenarios.FRAMEWORKS_K
    label = f"nDCG@{k}"  # in the chosen gain, exponential: the board is the page's one place for it

    def ndcg(order, gain="exponential") -> str:
        qs = metrics.from_rankings([f.grades(order)], [f.judged_grades()])
        return fmt(metrics.ndcg(qs, k, gain)[0])

    start = list(f.presets["System A"])
    expect(board_cell(page, label)).to_have_text(ndcg(start))
    settle(page)
    editor = page.get_by_test_id("rw-editor").first  # the lesson's editor (a question below has its own)
    # Centred, as the other drags here are: away from the window's edges and from under the sticky board.
    editor.get_by_test_id("rw-row-fastapi").evaluate("e => e.scrollIntoView({block: 'center'})")
    press(page, editor.get_by_test_id("rw-row-snake").get_by_test_id("rw-title"), editor.get_by_test_id("rw-row-django"),
          at=0.2)
    moved = ["snake", *[d for d in start if d != "snake"]]
    expect(board_cell(page, label)).to_have_text(ndcg(moved))  # mouse still down
    expect(board_cell(page, f"nDCG@{k} linear")).to_have_text(ndcg(moved, "linear"))  # the other gain too
    expect(editor.get_by_test_id("rw-score-cell")).to_have_count(4)  # DCG, IDCG, nDCG, nDCG in the other gain
    page.mouse.up()
    settle(page)  # dropped: the board shows the server's value for the new order, no longer a preview
    expect(editor.get_by_test_id("rw-scoreboard")).not_to_have_class(PREVIEW)
    expect(board_cell(page, label)).to_have_text(ndcg(moved))


def test_dragging_the_cutoff_line_previews_each_k_then_moves_the_slider(lessons: Page):
    page = system_a(lessons)
    line = lesson_editor(page).get_by_test_id("rw-cutoff")
    line.evaluate("e => e.scrollIntoView({block: 'center'})")
    target = lesson_editor(page).get_by_test_id(f"rw-row-{SYSTEM_A[7]}")  # the 8th row: k = 8 below its middle
    press(page, line, target, at=0.9)
    qs = metrics.from_rankings([Q.grades(SYSTEM_A)], [Q.judged_grades()])
    expect(board_cell(page, "Recall@8")).to_have_text(fmt(metrics.recall(qs, 8)[0]))  # mouse still down
    expect(line).to_contain_text("top 8")
    page.mouse.up()
    expect(page.locator("input[type=range]").first).to_have_attribute("value", "8")  # the page's slider moved
    settle(page)  # the run at k = 8 is over: the board shows the server's Recall@8, no longer a preview
    expect(lesson_editor(page).get_by_test_id("rw-scoreboard")).not_to_have_class(PREVIEW)
    expect(board_cell(page, "Recall@8")).to_have_text(fmt(metrics.recall(qs, 8)[0]))
    assert "k=8" in page.url


def test_the_conventions_board_previews_the_tables_engine_rows(lessons: Page):
    page = visit(lessons, "differ")
    f, k = scenarios.FRAMEWORKS, scenarios.FRAMEWORKS_K
    start = list(f.presets[scenarios.FRAMEWORKS_MIXED])

    def values(order) -> list[str]:
        qs = metrics.from_rankings([f.grades(order)], [f.judged_grades()])
        return [fmt(metrics.ndcg(qs, k, "linear")[0]), fmt(metrics.ndcg(qs, k, "exponential")[0]),
                fmt(metrics.recall(qs, k)[0]), fmt(metrics.reciprocal_rank(qs)[0]),
                fmt(metrics.reciprocal_rank(qs, k)[0])]

    cells = page.get_by_test_id("rw-scoreboard").first.locator(".rw-score-value")
    expect(cells).to_have_text(values(start))
    settle(page)
    editor = page.get_by_test_id("rw-editor").first
    last, first = editor.get_by_test_id(f"rw-row-{start[-1]}"), editor.get_by_test_id(f"rw-row-{start[0]}")
    first.scroll_into_view_if_needed()
    press(page, last.get_by_test_id("rw-title"), first, at=0.2)
    moved = [start[-1], *start[:-1]]
    expect(cells).to_have_text(values(moved))  # mouse still down
    page.mouse.up()
    expect(page.get_by_role("cell", name=values(moved)[0], exact=True).first).to_be_visible()
