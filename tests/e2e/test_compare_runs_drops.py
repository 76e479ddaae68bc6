"""The "Compare runs" page in a real browser: runs dropped one after another without waiting each find a slot."""
from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.helpers import settle
from tests.e2e.test_your_data_upload import numbered_run

pytestmark = pytest.mark.e2e


def test_every_one_of_quickly_dropped_runs_is_compared(page: Page, app_url):
    """Six runs dropped into the runs' uploader one after another without waiting, each landing while the page is
    still taking an earlier one: each gets a slot and its line, none is lost."""
    page.goto(app_url + "/compare-runs")
    page.get_by_role("button", name="Use the samples").click()
    expect(page.get_by_text("sample_run_c.txt")).to_be_visible(timeout=30_000)
    settle(page)
    uploader = page.get_by_test_id("stFileUploader").locator("input[type=file]")
    for number in range(6):
        uploader.set_input_files(numbered_run(number))
    settle(page)
    for number in range(6):
        expect(page.get_by_test_id("stMarkdown").filter(has_text=f"run{number}.txt")).to_be_visible(timeout=15_000)
