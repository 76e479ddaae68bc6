"""The ranking editor's lifecycle in a real browser: unmounted, it leaves nothing behind."""
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
