"""A link's values render nothing in the browser: no image, link, emphasis or math, and no request elsewhere.

Every page is opened with every URL parameter the app reads holding a
Markdown, HTML or KaTeX payload (tests/pages/test_link_payloads.py runs each
kind through each parameter headless, and checks there that each page reads
them and that a note stays until dismissed). Requests to any other host are
recorded and refused: no page, with or without such a link, fetches a font,
image or script from anywhere but the app.

One session walks every page: the first is a fresh load of its link, the others
are opened as the browser's Back and Forward open them (the history's address,
its parameters and all, in the same session: a page link would drop the
parameters). A page reads its parameters on its first run in the session, so
each page reads the payloads; the notes of the pages before stay on screen.
"""
from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest
from playwright.sync_api import Page, expect

from components.course import prose
from components.ui import registry
from tests.e2e.helpers import refuse_other_hosts, settle
from tests.link_payloads import PARAMS, PAYLOADS

pytestmark = pytest.mark.e2e
MARKUP = "img, a, strong, em, b, .katex"
# Back or Forward to an address: the browser's history moves, Streamlit hears "popstate" and runs that address's
# page with its parameters (a page change of its own drops them).
HISTORY = "(address) => { history.pushState({}, '', address); dispatchEvent(new PopStateEvent('popstate')); }"


def payload_query() -> str:
    kinds = sorted(PAYLOADS)
    return urlencode({name: PAYLOADS[kinds[i % len(kinds)]] for i, name in enumerate(PARAMS)})


def open_with_payloads(page: Page, app_url: str, spec: registry.PageSpec) -> None:
    """Open ``spec``'s page with the payloads in every parameter: a fresh load for the first page, else by the
    history in the same session; wait until its run is over."""
    address = f"/{'' if spec is registry.PAGES[0] else spec.url_path}?{payload_query()}"
    if spec is registry.PAGES[0]:
        page.goto(app_url + address)
    else:
        page.evaluate(HISTORY, address)
    nav = page.get_by_test_id("stSidebar").get_by_role("link", name=spec.title, exact=True)
    expect(nav).to_have_attribute("aria-current", "page")  # the session's page is this one: its run has begun
    settle(page)


def test_payloads_in_every_url_parameter_of_every_page_render_as_text_and_fetch_nothing(page: Page, app_url):
    foreign = refuse_other_hosts(page, app_url)
    alerts = page.get_by_test_id("stAlert").filter(has_text="The link's")
    first_notes: list[str] = []
    for spec in registry.PAGES:
        open_with_payloads(page, app_url, spec)
        expect(alerts.first).to_be_visible()
        expect(page.get_by_role("heading", level=1).first).to_be_visible()  # the page ran
        assert alerts.locator(MARKUP).count() == 0, spec.url_path
        assert page.locator("b").filter(has_text=re.compile(r"^x$")).count() == 0, spec.url_path  # <b>x</b>
        shown = alerts.all_inner_texts()
        assert any(payload in " ".join(shown) for payload in PAYLOADS.values()), shown  # as text
        first_notes = first_notes or shown
        assert set(first_notes) <= set(shown), f"/{spec.url_path}: a note of the first page went away"
        assert foreign == [], spec.url_path

    note = page.locator('[class*="st-key-link-note-"]').filter(has_text="The link's").first
    dismissed, count = note.get_by_test_id("stAlert").get_by_test_id("stMarkdownContainer").inner_text(), alerts.count()
    note.get_by_role("button", name=prose.text("ui", "Dismiss"), exact=True).click()
    expect(alerts).to_have_count(count - 1)
    expect(alerts.filter(has_text=dismissed)).to_have_count(0)
