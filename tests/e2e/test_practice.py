"""The Practice page in a real browser: every section's button on screen, "Try again" and "Reset my progress"
clearing the answers on screen. One session: the screen's size and the projector mode change within it.

Expected texts come from lessons/text/*.md (through the page's own label
function and the question texts), never typed in.
"""
from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from components.course import prose, quiz
from components.ui import practice_sections, quiz_ui
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


def open_section(page: Page, section: str) -> None:
    """Press ``section``'s button on the Practice page; wait until its run is over."""
    label = practice_sections.section_label(section, quiz.progress([]))
    group = page.get_by_role("radiogroup", name=SECTIONS_LABEL)
    group.get_by_role("radio", name=label).click()
    expect(group.get_by_role("radio", name=label)).to_be_checked()
    # The button is checked before the section's run begins, when the page can still look idle: wait for a card
    # of the section, then for the run's end (a card read mid-run once held the last section's answer box too).
    expect(page.locator(f'[class*="st-key-quiz-practice-{section}-"]').first).to_be_attached()
    settle(page)  # a click on a card during the section's rerun is lost when the rerun redraws it


def assert_every_section_fully_on_screen(page: Page, screen: str) -> None:
    """Every section's button on the first screen of the page (scrolled to its top, as it opens)."""
    page.get_by_test_id("stMain").evaluate("main => { main.scrollTo(0, 0); window.scrollTo(0, 0); }")
    controls = page.locator(CONTROLS)
    expect(controls).to_have_count(len(practice_sections.SECTIONS))
    expect(controls.first).to_be_visible()
    settle(page)  # the projector's sizes come with the run
    page.evaluate("() => document.fonts.ready")
    next_frames(page)
    clipped = [c["text"] for c in controls.evaluate_all(FULLY_SHOWN) if not c["shown"]]
    assert not clipped, f"at {screen} these sections are cut off or hidden: {clipped}"


def card(page: Page, question_id: str):
    return page.locator(f".st-key-quiz-practice-{question_id.replace('.', '-')}")


def press_reset_my_progress(page: Page) -> None:
    page.get_by_test_id("stSidebar").get_by_role("button", name=quiz_ui.text("progress reset")).click()
    page.get_by_test_id("stPopoverBody").get_by_role("button", name=quiz_ui.text("progress reset")).click()


def check_try_again_clears_the_previous_choice(page: Page) -> None:
    open_section(page, "four_queries")
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

    open_section(page, "choosing")
    several = card(page, "choosing.diagnosis")
    several.get_by_role("checkbox").first.check(force=True)
    several.get_by_role("button", name=quiz_ui.text("card check")).click()
    expect(several.get_by_test_id("stAlert")).to_have_count(1)
    several.get_by_role("button", name=quiz_ui.text("card retry")).click()
    expect(several.get_by_test_id("stAlert")).to_have_count(0)
    for option in several.get_by_role("checkbox").all():
        expect(option).not_to_be_checked()


def check_reset_my_progress_clears_the_answers_on_screen(page: Page) -> None:
    open_section(page, "four_queries")
    number, one = card(page, "four_queries.recall_at_3"), card(page, "four_queries.recall_and_mrr")
    number.get_by_label(quiz_ui.text("card answer")).fill("3/4")
    number.get_by_role("button", name=quiz_ui.text("card check")).click()
    expect(number.get_by_text(quiz_ui.text(quiz.FEEDBACK_CORRECT))).to_be_visible()
    one.get_by_role("radio").first.check(force=True)
    one.get_by_role("button", name=quiz_ui.text("card check")).click()
    expect(one.get_by_test_id("stAlert")).to_have_count(1)

    press_reset_my_progress(page)
    expect(number.get_by_test_id("stAlert")).to_have_count(0)
    expect(number.get_by_label(quiz_ui.text("card answer"))).to_have_value("")
    for option in one.get_by_role("radio").all():
        expect(option).not_to_be_checked()


def test_the_sections_fit_the_screen_and_try_again_and_reset_clear_the_answers_on_screen(page: Page, app_url):
    """One session: every section's button fully on screen at 1024x768; then, on a tall screen, "Try again"
    clears a choice, a typed number and several ticks, and "Reset my progress" clears the answers on screen;
    last, projector mode at 1280x720, its sidebar folded as a projector link folds it: every button on screen."""
    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto(app_url + "/practice")
    assert_every_section_fully_on_screen(page, "1024x768")

    page.set_viewport_size({"width": 1400, "height": 1600})
    check_try_again_clears_the_previous_choice(page)
    check_reset_my_progress_clears_the_answers_on_screen(page)

    page.set_viewport_size({"width": 1280, "height": 720})
    sidebar = page.get_by_test_id("stSidebar")
    sidebar.get_by_text("Projector mode").click()
    page.wait_for_function("() => parseFloat(getComputedStyle(document.documentElement).fontSize) > 20")
    settle(page)
    if sidebar.get_attribute("data-collapsed") != "true":
        sidebar.get_by_role("button", name="Collapse sidebar").click()
    expect(sidebar).to_have_attribute("data-collapsed", "true")
    assert_every_section_fully_on_screen(page, "1280x720 in projector mode")
