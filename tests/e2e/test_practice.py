"""The Practice page in a real browser: every section's button on screen, and "Try again" clearing the answer.

Expected texts come from lessons/text/*.md (through the page's own label
function and the question texts), never typed in.
"""
from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from components.course import prose, quiz
from components.ui import quiz_ui
from lessons import practice
from tests.e2e.helpers import next_frames, settle

pytestmark = pytest.mark.e2e

SECTIONS_LABEL = prose.section("practice", "Sections label")
# Whatever picks the section (tabs before, a wrapping row of buttons now): each of its controls.
CONTROLS = '[role="tab"], [role="radiogroup"][aria-label="{}"] [role="radio"]'.format(SECTIONS_LABEL)

FULLY_SHOWN = """els => els.map(e => {
  const r = e.getBoundingClientRect(), y = r.top + r.height / 2;
  const inside = r.left >= 0 && r.right <= innerWidth && r.top >= 0 && r.bottom <= innerHeight;
  const seen = x => { const hit = document.elementFromPoint(x, y); return !!hit && e.contains(hit); };
  return {text: e.textContent, shown: inside && seen(r.left + 3) && seen(r.right - 3)};
})"""


def open_section(page: Page, app_url: str, section: str, query: str = "") -> None:
    page.goto(app_url + "/practice" + query)
    label = practice.section_label(section, quiz.progress([]))
    group = page.get_by_role("radiogroup", name=SECTIONS_LABEL)
    group.get_by_role("radio", name=label).click()
    expect(group.get_by_role("radio", name=label)).to_be_checked()
    settle(page)  # a click on a card during the section's rerun is lost when the rerun redraws it


@pytest.mark.parametrize("width, height, query", [(1024, 768, ""), (1280, 720, "?projector=1")])
def test_every_practice_section_is_fully_on_screen(page: Page, app_url, width, height, query):
    page.set_viewport_size({"width": width, "height": height})
    page.goto(app_url + "/practice" + query)
    controls = page.locator(CONTROLS)
    expect(controls).to_have_count(len(practice.SECTIONS))
    expect(controls.first).to_be_visible()
    settle(page)  # the projector's sizes come with the run
    page.evaluate("() => document.fonts.ready")
    next_frames(page)
    clipped = [c["text"] for c in controls.evaluate_all(FULLY_SHOWN) if not c["shown"]]
    assert not clipped, f"at {width}x{height}{query} these sections are cut off or hidden: {clipped}"


def card(page: Page, question_id: str):
    return page.locator(f".st-key-quiz-practice-{question_id.replace('.', '-')}")


def test_try_again_clears_the_previous_choice(page: Page, app_url):
    page.set_viewport_size({"width": 1400, "height": 1600})
    open_section(page, app_url, "four_queries")
    one = card(page, "four_queries.recall_and_mrr")
    one.get_by_role("radio").first.check(force=True)
    one.get_by_role("button", name=quiz_ui.text("card check")).click()
    expect(one.get_by_test_id("stAlert")).to_have_count(1)
    one.get_by_role("button", name=quiz_ui.text("card retry")).click()
    expect(one.get_by_test_id("stAlert")).to_have_count(0)
    for option in one.get_by_role("radio").all():
        expect(option).not_to_be_checked()

    number = card(page, "four_queries.recall_at_3")
    number.get_by_label(quiz_ui.text("card answer")).fill("0.5")
    number.get_by_role("button", name=quiz_ui.text("card check")).click()
    expect(number.get_by_test_id("stAlert")).to_have_count(1)
    number.get_by_role("button", name=quiz_ui.text("card retry")).click()
    expect(number.get_by_label(quiz_ui.text("card answer"))).to_have_value("")

    open_section(page, app_url, "choosing")
    several = card(page, "choosing.diagnosis")
    several.get_by_role("checkbox").first.check(force=True)
    several.get_by_role("button", name=quiz_ui.text("card check")).click()
    expect(several.get_by_test_id("stAlert")).to_have_count(1)
    several.get_by_role("button", name=quiz_ui.text("card retry")).click()
    expect(several.get_by_test_id("stAlert")).to_have_count(0)
    for option in several.get_by_role("checkbox").all():
        expect(option).not_to_be_checked()


def test_reset_my_progress_clears_the_answers_on_screen(page: Page, app_url):
    page.set_viewport_size({"width": 1400, "height": 1600})
    open_section(page, app_url, "four_queries")
    number, one = card(page, "four_queries.recall_at_3"), card(page, "four_queries.recall_and_mrr")
    number.get_by_label(quiz_ui.text("card answer")).fill("3/4")
    number.get_by_role("button", name=quiz_ui.text("card check")).click()
    expect(number.get_by_text(quiz_ui.text(quiz.FEEDBACK_CORRECT))).to_be_visible()
    one.get_by_role("radio").first.check(force=True)
    one.get_by_role("button", name=quiz_ui.text("card check")).click()
    expect(one.get_by_test_id("stAlert")).to_have_count(1)

    page.get_by_test_id("stSidebar").get_by_role("button", name=quiz_ui.text("progress reset")).click()
    page.get_by_test_id("stPopoverBody").get_by_role("button", name=quiz_ui.text("progress reset")).click()
    expect(number.get_by_test_id("stAlert")).to_have_count(0)
    expect(number.get_by_label(quiz_ui.text("card answer"))).to_have_value("")
    for option in one.get_by_role("radio").all():
        expect(option).not_to_be_checked()
