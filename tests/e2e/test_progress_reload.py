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
from components.ui import quiz_ui, registry
from lessons import practice
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
    label = practice.section_label("four_queries", quiz.progress([]))
    page.get_by_role("radiogroup", name=prose.section("practice", "Sections label")).get_by_role(
        "radio", name=label).click()
    return page.locator(".st-key-quiz-practice-four_queries-recall_at_3")


def open_four_queries(page: Page, app_url: str):
    page.goto(app_url + "/practice")
    return show_four_queries(page)


def stored(page: Page) -> list[str]:
    raw = page.evaluate(f"() => window.localStorage.getItem({json.dumps(quiz_ui.STORAGE_KEY)})")
    return ((json.loads(raw) if raw else None) or {}).get("solved", [])  # nothing solved: nothing kept


def test_progress_survives_a_reload_and_reset_clears_it(page: Page, app_url):
    assert "show_progress_sidebar()" in APP.read_text(), \
        "app.py must call components.ui.quiz_ui.show_progress_sidebar() (before page.run()) to keep progress"
    sidebar = page.get_by_test_id("stSidebar")
    card = open_four_queries(page, app_url)
    expect(sidebar.get_by_text(progress_text(0))).to_be_visible(timeout=30_000)

    card.get_by_label("Your answer").fill("3/4")
    card.get_by_role("button", name="Check").click()
    expect(card.get_by_text(quiz_ui.text(quiz.FEEDBACK_CORRECT))).to_be_visible()
    expect(card.get_by_text(solved_badge())).to_be_visible()
    expect(sidebar.get_by_text(progress_text(1))).to_be_visible()
    page.wait_for_function(
        f"() => (window.localStorage.getItem({json.dumps(quiz_ui.STORAGE_KEY)}) || '').includes({json.dumps(QUESTION)})")

    page.reload()  # a new session: the count comes back from localStorage
    expect(sidebar.get_by_text(progress_text(1))).to_be_visible(timeout=30_000)
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


HELPERS = 3  # the storage helpers every page draws: progress, a class's lead, a class's member id
LESSONS = [spec for spec in registry.PAGES if spec.in_sequence]


def runs_after_the_helpers_read(page: Page, runs: PageRuns) -> int:
    """The whole-page runs once every storage helper has read the browser's storage and the app is idle (a
    helper that found something asks for its run as it reads)."""
    page.wait_for_function(f"() => window.rankwiseStoreRead && window.rankwiseStoreRead.size >= {HELPERS}")
    settle(page)
    return runs.count


def test_a_fresh_visit_runs_each_lesson_once_and_a_returning_learner_once_more(page: Page, app_url):
    """Nothing stored: nothing for the helpers to hand over, so no second run (it cost every page load a whole
    second run, about 2 s after the first). Stored progress costs one more run, to merge it."""
    runs = PageRuns(page)
    for spec in LESSONS:
        before = runs.count
        page.goto(f"{app_url}/{spec.url_path}")
        assert runs_after_the_helpers_read(page, runs) - before == 1, f"{spec.url_path}: a fresh visit ran twice"
        ours = page.evaluate("() => Object.keys(window.localStorage).filter(k => k.startsWith('rankwise.'))")
        assert ours == [], "a fresh visit stores nothing"
    page.evaluate(f"() => window.localStorage.setItem({json.dumps(quiz_ui.STORAGE_KEY)}, "
                  f"{json.dumps(json.dumps({'version': 1, 'solved': [QUESTION]}))})")
    before = runs.count
    page.reload()
    expect(page.get_by_test_id("stSidebar").get_by_text(progress_text(1))).to_be_visible()  # merged: by its run
    assert runs_after_the_helpers_read(page, runs) - before == 2, "stored progress: one more run to merge it"
