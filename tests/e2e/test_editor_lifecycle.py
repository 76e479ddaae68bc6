"""The ranking editor in a real browser: unmounted, it leaves nothing behind; on touch, its targets fit a finger."""
from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.e2e

# Every element (or shadow root) that holds an editor's state, found through the shadow roots.
EDITOR_ROOTS = """() => [...document.querySelectorAll("*")].filter((e) => e.shadowRoot)
  .flatMap((h) => [h.shadowRoot, ...h.shadowRoot.querySelectorAll("*")]).filter((n) => n.__rankwiseEditor)"""


def test_leaving_a_page_runs_each_editors_cleanup(page: Page, app_url):
    page.goto(app_url + "/recall")
    expect(page.get_by_test_id("rw-scoreboard").first).to_be_visible()
    count = page.evaluate(f"() => {{ window.__editorRoots = ({EDITOR_ROOTS})(); return window.__editorRoots.length; }}")
    assert count >= 1
    page.get_by_role("link", name="Glossary").first.click()  # the app's navigation: same window, editors unmounted
    expect(page.get_by_test_id("rw-editor")).to_have_count(0)
    page.wait_for_function("() => window.__editorRoots.every((r) => !r.__rankwiseEditor)")
    assert page.evaluate(EDITOR_ROOTS) == []


def test_on_a_touch_screen_buttons_are_finger_sized_and_key_hints_gone(browser, app_url):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        page.goto(app_url + "/recall")
        row = page.get_by_test_id("rw-row-c02")
        expect(row).to_be_visible()
        assert page.evaluate("() => matchMedia('(pointer: coarse)').matches"), "the emulation gives a coarse pointer"
        for action in ("up", "down", "tray"):
            box = row.locator(f'.rw-btn[data-action="{action}"]').bounding_box()
            assert box["width"] >= 44 and box["height"] >= 44, (action, box)
        expect(page.get_by_test_id("rw-hint").first).to_be_hidden()
    finally:
        context.close()
