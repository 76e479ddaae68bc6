"""The ranking editor in a real browser: unmounted, it leaves nothing behind; on touch, its targets fit a finger.

The tests share one phone (a mobile context and its page); each starts on the Recall@k lesson (by the sidebar's
link when the page is elsewhere). The first touch test only looks, the second moves c03 from position 4 to 2; the
last leaves the lesson.
"""
from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.helpers import hold_still, lesson_editor
from tests.e2e.navigation import visit

pytestmark = pytest.mark.e2e

# Every element (or shadow root) that holds an editor's state, found through the shadow roots.
EDITOR_ROOTS = """() => [...document.querySelectorAll("*")].filter((e) => e.shadowRoot)
  .flatMap((h) => [h.shadowRoot, ...h.shadowRoot.querySelectorAll("*")]).filter((n) => n.__rankwiseEditor)"""


@pytest.fixture(scope="module")
def phone(browser, app_url) -> Page:
    """A touch screen (a coarse pointer), on the Recall@k lesson."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(app_url + "/recall")
    yield page
    context.close()


def test_on_a_touch_screen_buttons_are_finger_sized_and_the_hint_speaks_of_touch(phone: Page):
    page = visit(phone, "recall")
    row = lesson_editor(page).get_by_test_id("rw-row-c02")
    expect(row).to_be_visible()
    assert page.evaluate("() => matchMedia('(pointer: coarse)').matches"), "the emulation gives a coarse pointer"
    for action in ("up", "down", "tray"):
        box = row.locator(f'.rw-btn[data-action="{action}"]').bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44, (action, box)
    hint = page.get_by_test_id("rw-hint").first
    expect(hint.locator(".rw-hint-keys")).to_be_hidden()
    expect(hint.get_by_test_id("rw-hint-touch")).to_be_visible()


def touch_drag(cdp, page: Page, x: float, y: float, to_y: float, steps: int = 10) -> None:
    """One finger down at (x, y), moved to (x, to_y) in steps, lifted (real touch events through CDP)."""
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for i in range(1, steps + 1):
        point = {"x": x, "y": y + (to_y - y) * i / steps}
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
        page.wait_for_timeout(16)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def test_on_a_touch_screen_a_swipe_over_rows_scrolls_and_a_drag_starts_from_the_number(phone: Page):
    page = visit(phone, "recall")
    row = lesson_editor(page).get_by_test_id("rw-row-c03")
    row.scroll_into_view_if_needed()
    expect(row.get_by_test_id("rw-pos")).to_have_text("4")
    hold_still(page, row)
    scroll_top = "() => document.querySelector('[data-testid=stMain]').scrollTop"
    before = page.evaluate(scroll_top)
    title = row.get_by_test_id("rw-title").bounding_box()
    cdp = page.context.new_cdp_session(page)
    touch_drag(cdp, page, title["x"] + 10, title["y"] + title["height"] / 2, title["y"] - 250)
    page.wait_for_function(f"() => ({scroll_top})() > {before + 100}")  # a swipe over a row scrolls the page
    expect(row.get_by_test_id("rw-pos")).to_have_text("4")  # and moves nothing

    hold_still(page, read=scroll_top, frames=10)  # the swipe's fling has stopped
    row.evaluate("e => e.scrollIntoView({block: 'center'})")  # the row and the one above it, below the board
    hold_still(page, read=scroll_top, frames=10)
    hold_still(page, row)
    number = row.get_by_test_id("rw-pos").bounding_box()
    above = lesson_editor(page).get_by_test_id("rw-row-c02").bounding_box()  # position 2
    touch_drag(cdp, page, number["x"] + number["width"] / 2, number["y"] + number["height"] / 2,
               above["y"] + above["height"] * 0.2)
    expect(row.get_by_test_id("rw-pos")).to_have_text("2")  # dragged by its number, above position 2


def test_leaving_a_page_runs_each_editors_cleanup(phone: Page):
    page = visit(phone, "recall")
    expect(page.get_by_test_id("rw-scoreboard").first).to_be_visible()
    count = page.evaluate(f"() => {{ window.__editorRoots = ({EDITOR_ROOTS})(); return window.__editorRoots.length; }}")
    assert count >= 1
    visit(page, "glossary")  # the app's navigation: same window, editors unmounted
    expect(page.get_by_test_id("rw-editor")).to_have_count(0)
    page.wait_for_function("() => window.__editorRoots.every((r) => !r.__rankwiseEditor)")
    assert page.evaluate(EDITOR_ROOTS) == []
