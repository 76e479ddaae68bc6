"""Classroom features in a real browser: projector mode's sizes and its toggle, a lesson opened afresh that runs
once, and a reload or a copied link that keeps the modes.

What the server decides (a deep link's k, order and tray; a malformed link's notes and defaults; predict first
hiding a value after a change) is checked in tests/pages/test_classroom_modes.py; that a link's note renders as
text, in tests/e2e/payload_links.py. A layout that cuts nothing short in a narrow or projected window, and a page
that runs once as a class walks to it by its "Next" link, are tests/e2e/test_accessibility.py's walks.
"""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.helpers import (
    PageRuns,
    board_value,
    press_home,
    runs_after_the_helpers_read,
    settle,
)
from tests.e2e.layout_checks import SEQUENCE
from tests.e2e.navigation import visit

pytestmark = pytest.mark.e2e
ROOT_FONT_PX = "() => parseFloat(getComputedStyle(document.documentElement).fontSize)"


@pytest.fixture(scope="module")
def context(shared_context):
    """This module's tests share one browser context (tests/e2e/conftest.py); each opens its own page."""
    return shared_context


def recall_value(page: Page):
    return board_value(page, re.compile(r"^Recall@\d+$"))


def font_px(locator) -> float:
    return float(locator.evaluate("e => parseFloat(getComputedStyle(e).fontSize)"))


def recall_sizes(page: Page) -> tuple[float, float]:
    """The Recall lesson's body text and its Recall@k value, in px, once the run (and its style) is over."""
    expect(recall_value(page)).to_have_text("0.400")
    settle(page)  # the projector style comes with the run: measure once it is over (it raced a loaded CI run)
    body = page.get_by_test_id("stMarkdownContainer").filter(has_text="law firm").locator("p").first
    return font_px(body), font_px(recall_value(page))


def test_a_projector_link_enlarges_text_and_metrics_and_its_toggle_turns_it_off(page: Page, app_url):
    """A projector link at 1280x720: bigger text, the board's values twice the text, nothing to scroll sideways; its
    toggle (one click behind the folded sidebar's arrow) brings the normal sizes back. (Every lesson projected, the
    sidebar kept folded and nothing cut short: tests/e2e/test_accessibility.py's projected walk.)"""
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(app_url + "/recall?projector=1")
    big_text, big_metric = recall_sizes(page)
    assert big_metric >= 2 * big_text, "metric values at least twice the body text"
    main = page.get_by_test_id("stMain")
    assert main.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), "nothing needs horizontal scrolling"

    page.get_by_test_id("stExpandSidebarButton").click()  # the sidebar starts folded; the way out is one click away
    toggle = page.get_by_test_id("stSidebar").get_by_text("Projector mode")
    expect(toggle).to_be_visible()
    toggle.click()
    page.wait_for_function(f"() => ({ROOT_FONT_PX})() < 20")
    visit(page, "recall")
    normal_text, normal_metric = recall_sizes(page)
    assert big_text >= 1.3 * normal_text
    assert big_metric > normal_metric


def test_a_lesson_opened_afresh_runs_once_and_a_copied_link_keeps_the_modes_and_the_mrr_cutoff(page: Page, app_url):
    """At 1024x768, a lesson opened afresh runs once (with nothing stored, the storage helpers have nothing to hand
    over: a second run cost every page load about 2 s after the first; each page reached from it by its "Next"
    link runs once too, in tests/e2e/test_accessibility.py's projected walk, which also checks that nothing is
    stored, and the lessons at 1024x768 are its laptop walk's). Then on MRR the projector toggled on and the cutoff
    moved by the keyboard: the address holds both, so the link opened afresh (a new session, nothing in the
    browser's storage) shows them."""
    page.set_viewport_size({"width": 1024, "height": 768})
    runs = PageRuns(page)
    page.goto(f"{app_url}/{SEQUENCE[0].url_path}")
    assert runs_after_the_helpers_read(page, runs) == 1, f"{SEQUENCE[0].url_path}: a fresh visit ran twice"

    visit(page, "mrr")
    page.get_by_test_id("stSidebar").get_by_text("Projector mode").click()
    page.wait_for_function("() => location.search.includes('projector=1')")
    settle(page)  # a key pressed during the toggle's run is lost when the run redraws the slider
    cutoff = page.get_by_role("slider", name="Cutoff k for MRR@k")
    press_home(page, cutoff, lambda ms: page.wait_for_function("() => location.search.includes('cutoff=1')",
                                                             timeout=ms))  # from "no cutoff" at the right end to 1
    page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")  # only the address carries the view
    page.reload()
    page.wait_for_function(f"() => ({ROOT_FONT_PX})() > 20")
    expect(page.get_by_role("slider", name="Cutoff k for MRR@k")).to_have_attribute("aria-valuetext", "1")
