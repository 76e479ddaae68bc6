"""A served component whose stylesheet cannot be fetched is shown anyway, unstyled but usable.

The editors' HTML hides them until their stylesheet applies (tests/e2e/test_ranking_editor.py holds the request
and sees them hidden, then styled); components/ranking_editor/dom.js's ``adoptStyles`` fetches the sheet. Here
the request fails: the editor must not stay hidden forever.
"""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import ConsoleMessage, Page, expect

from components.course import scenarios

pytestmark = pytest.mark.e2e

STYLESHEET = "**/rankwise.ranking_editor/editor.css"
SYSTEM_B = list(scenarios.FRAMEWORKS.presets["System B"]) + ["html"]  # editor "a"'s first order, as shown


def test_an_editor_whose_stylesheet_fails_is_shown_and_usable(page: Page, editor_url):
    failed = []
    page.route(STYLESHEET, lambda route: (failed.append(route.request.url), route.abort()))
    warnings: list[ConsoleMessage] = []
    page.on("console", lambda message: warnings.append(message) if message.type == "warning" else None)
    page.set_viewport_size({"width": 1280, "height": 1500})
    page.goto(editor_url)
    editor = page.locator(".st-key-editor-a")
    django = editor.get_by_test_id("rw-row-django")
    expect(django).to_be_visible()
    expect(page.locator(".st-key-editor-b").get_by_test_id("rw-row-j05")).to_be_visible()
    assert failed, "the stylesheet was never asked for"

    # usable: the keyboard moves a row, and the page's caption (from Python) shows the new order
    django.focus()
    for key in ("Space", "Home", "Space"):
        page.keyboard.press(key)
    order = [d for d in SYSTEM_B if d != "django"]
    expect(editor.get_by_text(re.compile(r"^Order: "))).to_have_text("Order: " + " › ".join(["django", *order]))
    expect(django.get_by_test_id("rw-pos")).to_have_text("1")

    # one warning for the one failed fetch (both editors share it), naming the stylesheet
    said = [m.text for m in warnings if "editor.css" in m.text]
    assert len(said) == 1 and "could not be loaded" in said[0], [m.text for m in warnings]
    assert len(failed) == 1, failed  # fetched once a page: the moves above did not ask again
    page.close()
