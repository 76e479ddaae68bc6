"""The lessons' scenarios in a real browser: the moves each lesson is built around, numbers from the engine."""
from __future__ import annotations

import pytest
from playwright.sync_api import Locator, Page, expect

from components.course import scenarios
from components.engine import metrics
from components.engine.formatting import fmt
from tests.e2e.helpers import drag as drag_in_view
from tests.e2e.helpers import metric_value as metric

pytestmark = pytest.mark.e2e


def drag(page: Page, source: Locator, target: Locator, *, half: str) -> None:
    """Bring the pair into the middle of the screen (lessons are long), then drag by mouse."""
    source.evaluate("e => e.scrollIntoView({block: 'center'})")
    drag_in_view(page, source, target, half=half)


def editor_list(page: Page, name: str) -> Locator:
    return page.get_by_role("list", name=name, exact=True)


@pytest.fixture
def tall_page(page: Page) -> Page:
    page.set_viewport_size({"width": 1280, "height": 1600})
    return page


def test_recall_across_and_within_the_cutoff(tall_page: Page, app_url):
    page = tall_page
    page.goto(app_url + "/recall")
    expect(metric(page, "Recall@5")).to_have_text("0.400")
    expect(metric(page, "RR (next lesson)")).to_have_text("1.000")
    rows = editor_list(page, "The system's results")
    # within the top 5: the miss at position 3 to the top, pushing every hit down by one
    drag(page, rows.get_by_test_id("rw-row-n20"), rows.get_by_test_id("rw-row-c01"), half="upper")
    expect(metric(page, "RR (next lesson)")).to_have_text(fmt(1 / 2))
    expect(metric(page, "Recall@5")).to_have_text("0.400")  # recall stays put
    # across the cutoff: a hit from the top 5 down to position 6
    drag(page, rows.get_by_test_id("rw-row-c04"), rows.get_by_test_id("rw-row-n11"), half="lower")
    expect(metric(page, "Recall@5")).to_have_text("0.300")


def test_mrr_rises_when_a_file_is_dragged_to_the_top(tall_page: Page, app_url):
    page = tall_page
    page.goto(app_url + "/mrr")
    expect(metric(page, "MRR")).to_have_text("0.567")
    rows = editor_list(page, "Query 3 results")
    target = next(d.id for d in scenarios.JAR_QUERIES[2].docs if d.grade == 1)
    first = scenarios.JAR_QUERIES[2].presets["Default"][0]
    drag(page, rows.get_by_test_id(f"rw-row-{target}"), rows.get_by_test_id(f"rw-row-{first}"), half="upper")
    expect(metric(page, "RR, query 3")).to_have_text("1.000")
    expect(metric(page, "MRR")).to_have_text(fmt(metrics.mean_reciprocal_rank([[1], [0, 1], [1]])))


def test_ndcg_snake_care_to_the_bottom_of_system_b(tall_page: Page, app_url):
    page = tall_page
    page.goto(app_url + "/ndcg")
    page.get_by_role("button", name="System B", exact=True).click()
    label = "nDCG@3 (exponential gain)"
    expect(metric(page, label)).to_have_text("0.531")
    rows = editor_list(page, "Search results")
    drag(page, rows.get_by_test_id("rw-row-snake"), rows.get_by_test_id("rw-row-pythons"), half="lower")
    expect(metric(page, label)).to_have_text("1.000")


def test_take_home_opens_with_the_files_for_the_order_on_screen(tall_page: Page, app_url):
    """The panel is built only when opened (a lazy expander): opening it shows this ranking's files and numbers."""
    page = tall_page
    page.goto(app_url + "/recall")
    expect(metric(page, "Recall@5")).to_have_text("0.400")
    download = page.get_by_role("button", name="Download recall.run")
    expect(download).to_have_count(0)
    page.get_by_text("Take this home", exact=False).first.click()
    expect(download).to_be_visible()
    expect(page.get_by_test_id("stCode").filter(has_text="R@5 0.400").first).to_be_visible()
    page.get_by_text("Copy a link to this view").first.click()
    expect(page.get_by_test_id("stCode").filter(has_text="/recall?k=5").first).to_be_visible()


def test_a_grade_has_one_colour_on_every_page(tall_page: Page, app_url):
    """Grade 1 is the same chip (words and colour class) on the binary Recall list and the graded nDCG list."""
    page = tall_page
    levels = {}
    for path, doc in (("/recall", "c01"), ("/ndcg", "pyramid")):
        page.goto(app_url + path)
        badge = page.get_by_test_id(f"rw-row-{doc}").first.get_by_test_id("rw-badge")
        expect(badge).to_have_text("1relevant")
        levels[path] = badge.get_attribute("data-level")
    assert levels == {"/recall": "g1", "/ndcg": "g1"}
