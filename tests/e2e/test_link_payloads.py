"""A link's values render nothing in the browser: no image, link, emphasis or math, and no request elsewhere.

Every page is opened with every URL parameter the app reads holding a
Markdown, HTML or KaTeX payload (tests/pages/test_link_payloads.py runs each
kind through each parameter headless). Requests to any other host are
recorded and refused: no page, with or without such a link, fetches a font,
image or script from anywhere but the app.
"""
from __future__ import annotations

from urllib.parse import urlencode

import pytest
from playwright.sync_api import Page, expect

from components.ui import registry
from tests.e2e.helpers import refuse_other_hosts
from tests.link_payloads import PARAMS, PAYLOADS

pytestmark = pytest.mark.e2e
MARKUP = "img, a, strong, em, b, .katex"


def payload_query() -> str:
    kinds = sorted(PAYLOADS)
    return urlencode({name: PAYLOADS[kinds[i % len(kinds)]] for i, name in enumerate(PARAMS)})


@pytest.mark.parametrize("spec", registry.PAGES, ids=[spec.module for spec in registry.PAGES])
def test_payloads_in_every_url_parameter_render_as_text_and_fetch_nothing(page: Page, app_url, spec):
    foreign = refuse_other_hosts(page, app_url)
    page.goto(f"{app_url}/{'' if spec is registry.PAGES[0] else spec.url_path}?{payload_query()}")
    alerts = page.get_by_test_id("stAlert").filter(has_text="The link's")
    expect(alerts.first).to_be_visible()
    expect(page.get_by_role("heading", level=1).first).to_be_visible()  # the page ran
    assert alerts.locator(MARKUP).count() == 0
    shown = " ".join(alerts.all_inner_texts())
    assert any(payload in shown for payload in PAYLOADS.values()), shown  # as text
    assert foreign == []


def test_a_link_note_stays_until_dismissed(page: Page, app_url):
    page.goto(app_url + "/recall?k=99")
    note = page.get_by_test_id("stAlert").filter(has_text="is outside 1 to 20")
    expect(note).to_be_visible()
    page.get_by_role("slider", name="Cutoff k", exact=False).first.press("ArrowRight")  # a rerun: k 5 -> 6
    expect(page.get_by_test_id("stMetricLabel").get_by_text("Recall@6", exact=True).first).to_be_visible()
    expect(note).to_be_visible()
    page.get_by_role("button", name="Dismiss", exact=True).click()
    expect(note).to_have_count(0)
