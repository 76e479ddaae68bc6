"""A row dragged to the window's edge scrolls the page, and the scrolling stops at the list's end (issue #41, 4).

The lawyer's 20-row list of the editor test page (tests/e2e/editor_page.py, ``?scenario=lawyer``), on a laptop's
screen and projected (projector mode: larger rows, five in sight). The tests share one page: each mounts a new
editor (the page's "New editors" button: fresh keys, a fresh state) at its window size, projected or not. A row is
held 8 px from the window's bottom until the page stops scrolling (its scroll position the same over 30 painted
frames; it scrolls every frame until then, so a page that scrolled on past the list's end never passes): the list's
last row is still on screen when it is let go, and the row lands where the dashed placeholder showed (its slot among
the other rows, read from the screen, not from the editor's state).
"""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from components.course import scenarios
from tests.e2e.helpers import PageRuns, click_and_settle, hold_still, settle

pytestmark = pytest.mark.e2e

ORDER = list(scenarios.LAWYER.presets["System A"])  # the page's first list
SCROLL_TOP = "() => document.querySelector('[data-testid=stMain]').scrollTop"  # the page's scroll position
STOPPED = 30  # painted frames with the page where it is: it has stopped scrolling (it moves every frame until then)
EDGE_GAP = 8  # px between the pointer and the window's bottom (1,200 px/s of scrolling there)

# The other rows' middles and the placeholder's box, as drawn: the slot a drop would take is the number of rows
# whose middle lies above the placeholder's.
GEOMETRY = """(list) => {
  const box = (e) => e.getBoundingClientRect();
  const rows = [...list.querySelectorAll(':scope > li.rw-row:not(.rw-dragging)')];
  const slot = box(list.getRootNode().querySelector('.rw-indicator'));
  const last = box(rows[rows.length - 1]);
  return {slot: {top: slot.top, bottom: slot.bottom}, last: {top: last.top, bottom: last.bottom},
          above: rows.filter((r) => box(r).top + box(r).height / 2 < slot.top + slot.height / 2).length,
          shown: list.querySelector('li.rw-dragging [data-testid="rw-pos"]').textContent,
          animations: list.getRootNode().getAnimations().length};
}"""


@pytest.fixture(scope="module")
def context(shared_context):
    """This module's tests share one browser context (tests/e2e/conftest.py) and one page."""
    return shared_context


@pytest.fixture(scope="module")
def shared(context, editor_url):
    """The module's page on the lawyer's list, and its runs (counted from before it opens)."""
    page = context.new_page()
    runs = PageRuns(page)
    page.goto(f"{editor_url}/?scenario=lawyer")
    settle(page)
    yield page, runs
    page.close()


def lawyer_list(shared, width: int, height: int, *, projector: bool = False, motion: str = "no-preference") -> Page:
    """The shared page at ``width``×``height``, projected or not, with the lawyer's list in a new editor (fresh
    keys: a fresh state) and its run over, scrolled to the top."""
    page, runs = shared
    page.set_viewport_size({"width": width, "height": height})
    page.emulate_media(reduced_motion=motion)
    sidebar = page.get_by_test_id("stSidebar")
    if sidebar.get_by_role("switch", name="Projector mode").is_checked() != projector:  # as ?projector=1 does
        click_and_settle(page, runs, sidebar.get_by_text("Projector mode"))
    click_and_settle(page, runs, sidebar.get_by_role("button", name="New editors, the lawyer's list", exact=True))
    page.get_by_test_id("stMain").evaluate("e => e.scrollTo(0, 0)")
    return page


def editor(page: Page) -> Locator:
    return page.locator(".st-key-editor-a")


def row(page: Page, doc_id: str) -> Locator:
    return editor(page).get_by_test_id(f"rw-row-{doc_id}")


def test_a_row_held_at_the_top_edge_scrolls_to_the_list_start_and_no_further(shared):
    """The last row dragged up and held over the header bar: the page stops with the list's top just below it."""
    page = lawyer_list(shared, 1366, 768)
    last = row(page, ORDER[-1])
    expect(last).to_be_attached()
    last.scroll_into_view_if_needed()
    hold_still(page, last)
    expect(row(page, ORDER[0])).not_to_be_in_viewport()
    grip = last.get_by_test_id("rw-title").bounding_box()
    x = grip["x"] + 20
    page.mouse.move(x, grip["y"] + grip["height"] / 2)
    page.mouse.down()
    page.mouse.move(x, EDGE_GAP, steps=10)
    hold_still(page, read=SCROLL_TOP, frames=STOPPED)
    header = page.get_by_test_id("stHeader").bounding_box()
    top = editor(page).get_by_test_id("rw-list").bounding_box()["y"]  # its first slot's (the placeholder's) top
    page.mouse.up()

    below = header["y"] + header["height"]  # the header bar lies over the page: the list shows below it
    assert below - 1 <= top <= below + 1, (top, header)
    expect(editor(page).get_by_text(re.compile(r"^Order: "))).to_have_text(
        "Order: " + " › ".join([ORDER[-1], *ORDER[:-1]]))


@pytest.mark.parametrize(("width", "height", "projector", "motion"), [
    (1366, 768, False, "no-preference"),
    (1366, 768, False, "reduce"),
    (1280, 720, True, "no-preference"),  # last: projector mode is switched on once, and never off
], ids=["laptop", "reduced-motion", "projector"])
def test_a_row_held_at_the_bottom_edge_scrolls_to_the_list_end_and_no_further(
        shared, width, height, projector, motion):
    page = lawyer_list(shared, width, height, projector=projector, motion=motion)  # its run over: a rerun under
    first = row(page, ORDER[0])  # the pointer would end the drag
    expect(first).to_be_attached()
    first.scroll_into_view_if_needed()
    hold_still(page, first)
    grip = first.get_by_test_id("rw-title").bounding_box()
    x = grip["x"] + 20
    page.mouse.move(x, grip["y"] + grip["height"] / 2)
    page.mouse.down()
    page.mouse.move(x, height - EDGE_GAP, steps=10)
    hold_still(page, read=SCROLL_TOP, frames=STOPPED)  # held at the edge until the page stops scrolling by itself
    seen = editor(page).get_by_test_id("rw-list").evaluate(GEOMETRY)
    page.mouse.up()

    for name in ("last", "slot"):  # the list's last row, and the placeholder, on screen
        assert 0 <= seen[name]["top"] and seen[name]["bottom"] <= height + 1, (name, seen, height)
    landed = seen["above"]
    assert seen["shown"] == str(landed + 1)  # the dragged row's number says the placeholder's slot
    order = [d for d in ORDER if d != ORDER[0]]
    order.insert(landed, ORDER[0])
    expect(editor(page).get_by_text(re.compile(r"^Order: "))).to_have_text("Order: " + " › ".join(order))
    if motion == "reduce":
        assert seen["animations"] == 0  # the editor animates nothing (its scroll steps are instant)
