"""Classroom features in a real browser: projector mode, predict first, deep links, and no off-host request."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from components.course import prose, scenarios
from components.ui import registry
from tests.e2e.helpers import drag, lesson_editor, metric_value, next_frames, press_home, settle

pytestmark = pytest.mark.e2e
LAWYER = scenarios.LAWYER
LESSONS = registry.PAGES[registry.PAGES.index(registry.spec("recall")):registry.PAGES.index(registry.spec("choosing")) + 1]


def recall_value(page: Page):
    return metric_value(page, re.compile(r"^Recall@\d+$"))


def font_px(locator) -> float:
    return float(locator.evaluate("e => parseFloat(getComputedStyle(e).fontSize)"))


def test_projector_mode_enlarges_text_and_metrics_without_horizontal_scroll(page: Page, app_url):
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(app_url + "/recall")
    expect(recall_value(page)).to_have_text("0.400")
    body = page.get_by_test_id("stMarkdownContainer").filter(has_text="law firm").locator("p").first
    normal_text, normal_metric = font_px(body), font_px(recall_value(page))

    page.goto(app_url + "/recall?projector=1")
    expect(recall_value(page)).to_have_text("0.400")
    settle(page)  # the projector style comes with the run: measure once it is over (it raced a loaded CI run)
    big_text, big_metric = font_px(body), font_px(recall_value(page))
    assert big_text >= 1.3 * normal_text
    assert big_metric >= 2 * big_text, "metric values at least twice the body text"
    assert big_metric > normal_metric
    main = page.get_by_test_id("stMain")
    assert main.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), "nothing needs horizontal scrolling"
    # the sidebar starts folded away; the way back out stays one click away
    page.get_by_test_id("stExpandSidebarButton").click()
    toggle = page.get_by_test_id("stSidebar").get_by_text("Projector mode")
    expect(toggle).to_be_visible()
    toggle.click()
    page.wait_for_function("() => parseFloat(getComputedStyle(document.documentElement).fontSize) < 20")


def test_a_reload_and_a_copied_link_keep_the_modes_and_the_mrr_cutoff(page: Page, browser, app_url):
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(app_url + "/mrr")
    page.get_by_test_id("stSidebar").get_by_text("Projector mode").click()
    page.wait_for_function("() => location.search.includes('projector=1')")
    page.reload()
    page.wait_for_function("() => parseFloat(getComputedStyle(document.documentElement).fontSize) > 20")
    settle(page)  # a key pressed during the reload's reruns (the progress sync) is lost when they redraw the slider
    cutoff = page.get_by_role("slider", name="Cutoff k for MRR@k")
    press_home(page, cutoff, lambda ms: page.wait_for_function("() => location.search.includes('cutoff=1')",
                                                             timeout=ms))  # from "no cutoff" at the right end to 1
    expect(cutoff).to_have_attribute("aria-valuetext", "1")
    fresh = browser.new_context()  # a copied link opened somewhere else: nothing in its session
    other = fresh.new_page()
    other.goto(page.url)
    other.wait_for_function("() => parseFloat(getComputedStyle(document.documentElement).fontSize) > 20")
    expect(other.get_by_role("slider", name="Cutoff k for MRR@k")).to_have_attribute("aria-valuetext", "1")
    fresh.close()


def test_predict_first_hides_the_value_after_a_drag_until_revealed(page: Page, app_url):
    page.set_viewport_size({"width": 1280, "height": 1400})
    page.goto(app_url + "/recall?predict_first=1")
    reveal = page.get_by_role("button", name="Reveal the numbers").first
    expect(recall_value(page)).to_have_text("?")
    reveal.click()
    expect(recall_value(page)).to_have_text("0.400")
    # drag a relevant case (position 1) below the cutoff line, to position 8
    drag(page, lesson_editor(page).get_by_test_id("rw-row-c01"), lesson_editor(page).get_by_test_id("rw-row-n24"), half="lower")
    expect(recall_value(page)).to_have_text("?")
    reveal.click()
    expect(recall_value(page)).to_have_text("0.300")


def test_a_deep_link_restores_k_order_and_tray(page: Page, app_url):
    order = ("c10",) + LAWYER.presets["System B"][:19]  # the tenth case retrieved, B's last miss dropped
    page.goto(app_url + f"/recall?k=20&order={','.join(order)}")
    expect(recall_value(page)).to_have_text("1.000")
    expect(lesson_editor(page).get_by_test_id("rw-row-c10").get_by_test_id("rw-pos")).to_have_text("1")
    expect(page.get_by_role("slider", name="Cutoff k", exact=False).first).to_have_attribute("value", "20")
    tray = lesson_editor(page).get_by_test_id("rw-tray")
    expect(tray.get_by_test_id("rw-tray-toggle")).to_have_text("11 judged, not returned")
    tray.get_by_test_id("rw-tray-toggle").click()
    expect(tray.get_by_test_id("rw-row-n10")).to_be_visible()


def test_a_malformed_deep_link_shows_the_note_and_the_defaults(page: Page, app_url):
    page.goto(app_url + "/recall?k=abc&order=c01,<b>x</b>")
    expect(page.get_by_text(re.compile("is not a whole number; using 5"))).to_be_visible()
    expect(page.get_by_text(re.compile("unknown document"))).to_be_visible()
    expect(recall_value(page)).to_have_text("0.400")
    expect(page.locator("b", has_text="x")).to_have_count(0)


# What a narrow window must not cut short or push sideways: metric labels and sidebar page names (cut with
# an ellipsis), worked formulas (wider than their column) and tables (scrolling sideways).
_CUT_SHORT = """() => {
    const cut = (sel) => [...document.querySelectorAll(sel)].filter(e => e.scrollWidth > e.clientWidth + 1)
        .map(e => sel + ': ' + e.textContent.slice(0, 40));
    const wide = [...document.querySelectorAll('.katex')]
        .filter(e => e.getBoundingClientRect().right > e.closest('[data-testid="stElementContainer"]')
            .getBoundingClientRect().right + 1).map(e => 'formula: ' + e.textContent.slice(0, 40));
    return [...cut('[data-testid="stMetricLabel"] p'), ...cut('[data-testid="stMetricLabel"] div'),
            ...cut('[data-testid="stSidebarNavLink"] span'), ...cut('[data-testid="stTable"]'),
            ...cut('[data-testid="stDataFrame"] .dvn-scroller'), ...cut('.katex-display'), ...wide];
}"""


@pytest.mark.parametrize("width, height, query", [(1280, 720, "?projector=1"), (1024, 768, "")])
def test_nothing_is_cut_short_in_a_narrow_or_projected_window(page: Page, app_url, width, height, query):
    """The lessons from Recall@k to Choosing a metric, one after another by each page's "Next" link, as a class
    walks them: one session, so a projector's mode and its folded sidebar stay as they were."""
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{app_url}/{LESSONS[0].url_path}{query}")
    for spec, after in zip(LESSONS, [*LESSONS[1:], None]):
        expect(page.get_by_test_id("stMetric").first).to_be_visible()
        settle(page)
        page.evaluate("() => document.fonts.ready")
        next_frames(page)
        sidebar = page.get_by_test_id("stSidebar").bounding_box()
        assert not query or sidebar["x"] + sidebar["width"] <= 0, f"/{spec.url_path}: the projector's sidebar opened"
        cut = page.evaluate(_CUT_SHORT)
        assert not cut, f"/{spec.url_path} at {width}px cuts short or pushes sideways: {cut}"
        if after is not None:
            page.get_by_test_id("stPageLink").filter(has_text=prose.text("ui", "Next", title=after.title)).click()
            page.wait_for_url(f"**/{after.url_path}*")
