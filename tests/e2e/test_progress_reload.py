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
from tests.e2e.helpers import PageRuns, on_page, runs_after_the_helpers_read

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


def test_progress_survives_a_reload_at_one_more_run_and_reset_clears_it(page: Page, app_url):
    """On Practice, a question solved; the browser's storage carries the progress over reloads. Stored progress
    costs a reload one more run, to merge it. (With nothing stored, a fresh visit runs once and each lesson opened
    by the previous one's "Next" link runs once: tests/e2e/test_classroom.py's walk at 1024 px counts them.)
    """
    assert "show_progress_sidebar()" in APP.read_text(), \
        "app.py must call components.ui.quiz_ui.show_progress_sidebar() (before page.run()) to keep progress"
    runs = PageRuns(page)
    page.goto(f"{app_url}/{registry.spec('practice').url_path}")
    on_page(page, registry.spec("practice"))
    sidebar = page.get_by_test_id("stSidebar")
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
