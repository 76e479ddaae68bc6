"""Progress survives a reload: kept in the browser's localStorage, read back into a new session.

Needs app.py to call components.ui.quiz_ui.show_progress_sidebar() (the progress
sidebar and its localStorage helper). Expected texts come from
lessons/text/*.md and counts from components.course.quiz, never typed in.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from components.course import prose, quiz
from components.ui import practice_sections, quiz_ui, registry
from tests.e2e.helpers import PageRuns, settle

pytestmark = pytest.mark.e2e

APP = Path(__file__).resolve().parents[2] / "app.py"
QUESTION = "four_queries.recall_at_3"
TOTAL = len(quiz.counted_ids())


def progress_text(solved: int) -> str:
    return quiz_ui.text("progress total", {"solved": str(solved), "total": str(TOTAL)})


def lesson_text(solved: int) -> str:
    total = quiz.progress([])["four_queries"][1]
    return prose.text("practice", "Lesson progress", solved=solved, total=total)


def solved_badge() -> str:
    """The "solved" badge's text as the browser shows it (the Markdown badge directive taken off)."""
    return re.fullmatch(r":[a-z-]+\[(.*)\]", quiz_ui.text("card solved")).group(1)


def show_four_queries(page: Page):
    """Press the Four queries section's button; the card of the question this test answers."""
    label = practice_sections.section_label("four_queries", quiz.progress([]))
    page.get_by_role("radiogroup", name=prose.section("practice", "Sections label")).get_by_role(
        "radio", name=label).click()
    return page.locator(".st-key-quiz-practice-four_queries-recall_at_3")


def stored(page: Page) -> list[str]:
    raw = page.evaluate(f"() => window.localStorage.getItem({json.dumps(quiz_ui.STORAGE_KEY)})")
    return ((json.loads(raw) if raw else None) or {}).get("solved", [])  # nothing solved: nothing kept


HELPERS = 3  # the storage helpers every page draws: progress, a class's lead, a class's member id
LESSONS = [spec for spec in registry.PAGES if spec.in_sequence]


def runs_after_the_helpers_read(page: Page, runs: PageRuns) -> int:
    """The whole-page runs once every storage helper has read the browser's storage and the app is idle (a
    helper that found something asks for its run as it reads)."""
    page.wait_for_function(f"() => window.rankwiseStoreRead && window.rankwiseStoreRead.size >= {HELPERS}")
    settle(page)
    return runs.count


def stores_nothing(page: Page) -> bool:
    return page.evaluate("() => Object.keys(window.localStorage).filter(k => k.startsWith('rankwise.'))") == []


def on_page(page: Page, spec: registry.PageSpec) -> None:
    """Wait until the session's page is ``spec``'s (its run has begun) and the run is over."""
    page.wait_for_url(f"**/{spec.url_path}*")
    expect(page.get_by_test_id("stSidebar").get_by_role("link", name=spec.title, exact=True)).to_have_attribute(
        "aria-current", "page")
    settle(page)


def test_each_lesson_runs_once_progress_survives_a_reload_at_one_more_run_and_reset_clears_it(page: Page, app_url):
    """One session walks the lessons, then Practice; the browser's storage carries the progress over reloads.

    Nothing stored: nothing for the helpers to hand over, so a fresh visit runs once (a second run cost every
    page load about 2 s after the first). The helpers are app.py's, the same on every page: the first lesson's
    fresh load shows they ask for nothing; each lesson after it, opened by the previous one's "Next" link, shows
    its own first run asks for no second. Stored progress costs a reload one more run, to merge it.
    """
    assert "show_progress_sidebar()" in APP.read_text(), \
        "app.py must call components.ui.quiz_ui.show_progress_sidebar() (before page.run()) to keep progress"
    runs = PageRuns(page)
    page.goto(f"{app_url}/{LESSONS[0].url_path}")
    assert runs_after_the_helpers_read(page, runs) == 1, f"{LESSONS[0].url_path}: a fresh visit ran twice"
    assert stores_nothing(page), "a fresh visit stores nothing"
    for spec in LESSONS[1:]:
        before = runs.count
        page.get_by_test_id("stPageLink").filter(has_text=prose.text("ui", "Next", title=spec.title)).click()
        on_page(page, spec)
        assert runs.count - before == 1, f"{spec.url_path}: its first run asked for a second"
        assert stores_nothing(page), f"{spec.url_path}: a visit with nothing solved stores something"

    sidebar = page.get_by_test_id("stSidebar")
    sidebar.get_by_role("link", name=registry.spec("practice").title, exact=True).click()
    on_page(page, registry.spec("practice"))
    card = show_four_queries(page)
    expect(sidebar.get_by_text(progress_text(0))).to_be_visible()
    card.get_by_label("Your answer").fill("3/4")
    card.get_by_role("button", name="Check").click()
    expect(card.get_by_text(quiz_ui.text(quiz.FEEDBACK_CORRECT))).to_be_visible()
    expect(card.get_by_text(solved_badge())).to_be_visible()
    expect(sidebar.get_by_text(progress_text(1))).to_be_visible()
    page.wait_for_function(
        f"() => (window.localStorage.getItem({json.dumps(quiz_ui.STORAGE_KEY)}) || '').includes({json.dumps(QUESTION)})")

    before = runs.count
    page.reload()  # a new session: the count comes back from localStorage
    expect(sidebar.get_by_text(progress_text(1))).to_be_visible(timeout=30_000)  # merged: by its run
    assert runs_after_the_helpers_read(page, runs) - before == 2, "stored progress: one more run to merge it"
    card = show_four_queries(page)
    expect(page.get_by_text(lesson_text(1))).to_be_visible()
    expect(card.get_by_text(solved_badge())).to_be_visible()  # on the question itself, not only in the sidebar
    expect(card.get_by_text(quiz_ui.text(quiz.FEEDBACK_CORRECT))).to_have_count(0)  # the verdict was this session's

    sidebar.get_by_role("button", name=quiz_ui.text("progress reset")).click()
    page.get_by_test_id("stPopoverBody").get_by_role("button", name=quiz_ui.text("progress reset")).click()
    expect(sidebar.get_by_text(progress_text(0))).to_be_visible()
    expect(card.get_by_text(solved_badge())).to_have_count(0)
    page.wait_for_function(
        f"() => !(window.localStorage.getItem({json.dumps(quiz_ui.STORAGE_KEY)}) || '').includes({json.dumps(QUESTION)})")

    page.reload()
    expect(sidebar.get_by_text(progress_text(0))).to_be_visible(timeout=30_000)
    assert stored(page) == []
