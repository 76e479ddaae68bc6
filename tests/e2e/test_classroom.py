"""Classroom features in a real browser: projector mode's sizes, a layout that cuts nothing short in a narrow or
projected window, and a reload or a copied link that keeps the modes.

What the server decides (a deep link's k, order and tray; a malformed link's notes and defaults; predict first
hiding a value after a change) is checked in tests/pages/test_classroom_modes.py; that a link's note renders as
text, in tests/e2e/test_link_payloads.py. Each test here is one session that walks the lessons by their "Next"
links, as a class does.
"""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from components.course import prose
from components.ui import registry
from tests.e2e.helpers import board_value, next_frames, press_home, settle
from tests.e2e.navigation import visit

pytestmark = pytest.mark.e2e
GROUP_PER_TEST = True  # two long walks through the lessons, each on its own page: both workers at once
LESSONS = registry.PAGES[registry.PAGES.index(registry.spec("accuracy")):registry.PAGES.index(registry.spec("choosing")) + 1]
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


# What a narrow window must not cut short or push sideways: metric labels, sidebar page names and button labels
# (cut with an ellipsis: a preset "Top 10, half of the…"), formulas, worked or the lesson's own (wider than their
# column: "accurac" at 1024 px), tables (scrolling sideways), and a ranking editor's titles (squeezed beside the
# row's buttons: three MRR editors side by side at 1024 px kept 27 px of "lombok-1.18.30.jar", "lom").
_CUT_SHORT = """() => {
    const cut = (sel) => [...document.querySelectorAll(sel)].filter(e => e.scrollWidth > e.clientWidth + 1)
        .map(e => sel + ': ' + e.textContent.slice(0, 40));
    const wide = [...document.querySelectorAll('.katex')]
        .filter(e => e.getBoundingClientRect().right > e.closest('[data-testid="stElementContainer"]')
            .getBoundingClientRect().right + 1).map(e => 'formula: ' + e.textContent.slice(0, 40));
    const em = (e) => parseFloat(getComputedStyle(e).fontSize);
    const squeezed = [...document.querySelectorAll('[data-testid="stMain"] *')].map(h => h.shadowRoot).filter(Boolean)
        .flatMap(root => [...root.querySelectorAll('.rw-list .rw-title')])
        .filter(t => t.clientWidth > 0 && t.clientWidth < 5 * em(t))
        .map(t => 'editor title ' + t.clientWidth + ' px: ' + t.textContent.slice(0, 40));
    return [...cut('[data-testid="stMetricLabel"] p'), ...cut('[data-testid="stMetricLabel"] div'),
            ...cut('[data-testid="stSidebarNavLink"] span'), ...cut('[data-testid="stTable"]'),
            ...cut('[data-testid="stDataFrame"] .dvn-scroller'), ...cut('.katex-display'), ...wide,
            ...cut('[data-testid="stMain"] button [data-testid="stMarkdownContainer"]'), ...squeezed];
}"""


def walk_the_lessons(page: Page, *, projected: bool, start: str = "accuracy") -> None:
    """From the page open (lessons/``start``.py) to Choosing a metric, one after another by each page's "Next"
    link: nothing is cut short on any of them, and a projector's folded sidebar stays folded."""
    width = page.viewport_size["width"]
    lessons = LESSONS[LESSONS.index(registry.spec(start)):]
    for spec, after in zip(lessons, [*lessons[1:], None]):
        expect(page.get_by_test_id("stMain").get_by_role("heading").first).to_be_visible()
        settle(page)
        page.evaluate("() => document.fonts.ready")
        next_frames(page)
        sidebar = page.get_by_test_id("stSidebar").bounding_box()
        assert not projected or sidebar["x"] + sidebar["width"] <= 0, f"/{spec.url_path}: the projector's sidebar opened"
        # The app's own style comes with the run (a sidebar page name wraps), and KaTeX draws a lesson's formula a
        # moment after its text (its module loads on first use): measure once both are there.
        formula = "document.querySelector('.katex-display')" if "Formula" in prose.sections(spec.module) else "true"
        page.wait_for_function(f"""() => {formula} && getComputedStyle(
            document.querySelector('[data-testid="stSidebarNavLink"] span')).whiteSpace === 'normal'""")
        next_frames(page)
        cut = page.evaluate(_CUT_SHORT)
        assert not cut, f"/{spec.url_path} at {width}px cuts short or pushes sideways: {cut}"
        if after is not None:
            page.get_by_test_id("stPageLink").filter(has_text=prose.text("ui", "Next", title=after.title)).click()
            page.wait_for_url(f"**/{after.url_path}*")


def test_a_projector_link_enlarges_text_and_metrics_cuts_nothing_short_and_its_toggle_turns_it_off(page: Page, app_url):
    """A projector link at 1280x720: bigger text, the board's values twice the text, nothing to scroll sideways, the sidebar
    folded on every lesson; its toggle (one click behind the sidebar's arrow) brings the normal sizes back."""
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(app_url + "/recall?projector=1")
    big_text, big_metric = recall_sizes(page)
    assert big_metric >= 2 * big_text, "metric values at least twice the body text"
    main = page.get_by_test_id("stMain")
    assert main.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), "nothing needs horizontal scrolling"
    walk_the_lessons(page, projected=True, start="recall")

    page.get_by_test_id("stExpandSidebarButton").click()  # the sidebar starts folded; the way out is one click away
    toggle = page.get_by_test_id("stSidebar").get_by_text("Projector mode")
    expect(toggle).to_be_visible()
    toggle.click()
    page.wait_for_function(f"() => ({ROOT_FONT_PX})() < 20")
    visit(page, "recall")
    normal_text, normal_metric = recall_sizes(page)
    assert big_text >= 1.3 * normal_text
    assert big_metric > normal_metric


def test_a_narrow_window_cuts_nothing_short_and_a_copied_link_keeps_the_modes_and_the_mrr_cutoff(page: Page, app_url):
    """At 1024x768, the lessons walked; then on MRR the projector toggled on and the cutoff moved by the keyboard:
    the address holds both, so the link opened afresh (a new session, nothing in the browser's storage) shows
    them."""
    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto(f"{app_url}/{LESSONS[0].url_path}")
    walk_the_lessons(page, projected=False)

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
