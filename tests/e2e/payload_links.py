"""Pages opened in the browser from links whose every parameter holds a Markdown, HTML or KaTeX payload
(tests/link_payloads.py): the link's notes render as text (no image, link, emphasis or math), and no page asks
any host but the app's for anything (a font, an image, a script), with or without such a link.

tests/pages/test_link_payloads.py runs each kind of payload through each parameter of each page headless, and
checks there that each page reads them and that a note stays until dismissed. Here the accessibility walks
(tests/e2e/test_accessibility.py) open their pages from such links, so each page is audited with its notes on
screen: the first page by a fresh load of its link, the others as the browser's Back and Forward open them (the
history's address, its parameters and all, in the same session: a page link would drop the parameters). A page
reads its parameters on its first run in the session, so each page reads the payloads; the notes of the pages
before stay on screen.
"""
from __future__ import annotations

import re
from urllib.parse import urlencode, urlparse

from playwright.sync_api import Page, expect

from components.course import prose
from components.ui import registry
from tests.e2e.helpers import settle
from tests.link_payloads import PARAMS, PAYLOADS

MARKUP = "img, a, strong, em, b, .katex"
# Back or Forward to an address: the browser's history moves, Streamlit hears "popstate" and runs that address's
# page with its parameters (a page change of its own drops them).
HISTORY = "(address) => { history.pushState({}, '', address); dispatchEvent(new PopStateEvent('popstate')); }"


def payload_query() -> str:
    """Every parameter the app reads, each holding one of the payloads in turn."""
    kinds = sorted(PAYLOADS)
    return urlencode({name: PAYLOADS[kinds[i % len(kinds)]] for i, name in enumerate(PARAMS)})


class PayloadLinks:
    """One browser page (one session) that opens pages from payload links and checks each as it opens. Made before
    the page's first address is opened: from then on, every request the page makes to another host is recorded."""

    def __init__(self, page: Page, app_url: str) -> None:
        self.page, self.app_url = page, app_url
        self.foreign: list[str] = []
        self.first_notes: list[str] = []
        self.alerts = page.get_by_test_id("stAlert").filter(has_text="The link's")
        own = urlparse(app_url).netloc
        page.on("request", lambda request: None if urlparse(request.url).netloc in (own, "")
                else self.foreign.append(request.url))

    def open(self, spec: registry.PageSpec) -> None:
        """Open ``spec``'s page from a payload link (a fresh load for the session's first page, else by the
        history), wait until its run is over, and check what it shows of the link."""
        address = f"/{'' if spec is registry.PAGES[0] else spec.url_path}?{payload_query()}"
        if self.page.url.startswith(self.app_url):
            self.page.evaluate(HISTORY, address)
        else:
            self.page.goto(self.app_url + address)
        nav = self.page.get_by_test_id("stSidebar").get_by_role("link", name=spec.title, exact=True)
        expect(nav).to_have_attribute("aria-current", "page")  # the session's page is this one: its run has begun
        settle(self.page)
        expect(self.alerts.first).to_be_visible()
        expect(self.page.get_by_role("heading", level=1).first).to_be_visible()  # the page ran
        where = spec.url_path
        assert self.alerts.locator(MARKUP).count() == 0, where
        assert self.page.locator("b").filter(has_text=re.compile(r"^x$")).count() == 0, where  # <b>x</b>
        shown = self.alerts.all_inner_texts()
        assert any(payload in " ".join(shown) for payload in PAYLOADS.values()), shown  # as text
        self.first_notes = self.first_notes or shown
        assert set(self.first_notes) <= set(shown), f"/{where}: a note of the first page went away"
        assert self.foreign == [], f"/{where} asked another host for {self.foreign}"

    def dismiss_one(self) -> None:
        """Dismiss the first note: it goes, and the others stay."""
        note = self.page.locator('[class*="st-key-link-note-"]').filter(has_text="The link's").first
        dismissed = note.get_by_test_id("stAlert").get_by_test_id("stMarkdownContainer").inner_text()
        count = self.alerts.count()
        note.get_by_role("button", name=prose.text("ui", "Dismiss"), exact=True).click()
        expect(self.alerts).to_have_count(count - 1)
        expect(self.alerts.filter(has_text=dismissed)).to_have_count(0)
        settle(self.page)
