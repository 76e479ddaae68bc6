"""The lessons' scenarios in a real browser: the moves each lesson is built around, numbers from the engine."""
from __future__ import annotations

import pytest
from playwright.sync_api import Locator, Page, expect

from components.course import quiz, scenarios
from components.engine import metrics
from components.engine.formatting import fmt
from components.ui import quiz_ui
from tests.e2e.helpers import drag as drag_in_view
from tests.e2e.helpers import metric_value as metric
from tests.e2e.helpers import settle

pytestmark = pytest.mark.e2e


def drag(page: Page, source: Locator, target: Locator, *, half: str) -> None:
    """Once the app's runs are over, bring the pair into the middle of the screen (lessons are long), then drag
    by mouse."""
    settle(page)
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
    settle(page)  # a drag begun during the preset's rerun is lost when the rerun redraws the editor
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


def editor_named(page: Page, label: str) -> Locator:
    """The ranking editor whose list is named ``label``."""
    return page.get_by_test_id("rw-editor").filter(has=page.get_by_test_id("rw-label").get_by_text(label, exact=True))


def board_values(editor: Locator) -> Locator:
    return editor.get_by_test_id("rw-scoreboard").locator(".rw-score-value")


def test_the_blind_spot_duel_shows_its_point_beside_its_text(tall_page: Page, app_url):
    """Both lists at k = 20, in view together with the sentence that quotes their numbers; the main editor
    above (k = 5) is not touched."""
    page = tall_page
    page.goto(app_url + "/recall")
    top, bottom = editor_named(page, "Hits at positions 1–4"), editor_named(page, "Hits at positions 16–19")
    expect(board_values(top)).to_have_text(["0.400", "1.000"])
    expect(board_values(bottom)).to_have_text(["0.400", fmt(1 / 16)])
    sentence = page.get_by_text("Both lists have Recall@20 = 0.400")
    sentence.evaluate("e => e.scrollIntoView({block: 'start'})")
    expect(sentence).to_be_in_viewport()
    expect(board_values(top).first).to_be_in_viewport()
    expect(board_values(bottom).first).to_be_in_viewport()
    expect(metric(page, "Recall@5")).to_have_text("0.400")  # the main editor still reads System A at k = 5


def test_a_move_on_one_side_of_the_gains_duel_is_made_on_both(tall_page: Page, app_url):
    page = tall_page
    page.goto(app_url + "/ndcg")
    left, right = editor_named(page, "With exponential gain"), editor_named(page, "With linear gain")
    q = scenarios.FRAMEWORKS
    start = list(q.presets[scenarios.FRAMEWORKS_MIXED])
    judged = q.judged_grades()

    def values(order, gain):
        grades = q.grades(order)
        return [fmt(metrics.dcg_at_k(grades, 3, gain)), fmt(metrics.ndcg_at_k(grades, 3, judged, gain))]

    expect(board_values(left)).to_have_text(values(start, "exponential"))
    expect(board_values(right)).to_have_text(values(start, "linear"))
    rows = right.get_by_test_id("rw-list")
    drag(page, rows.get_by_test_id("rw-row-django"), rows.get_by_test_id(f"rw-row-{start[0]}"), half="upper")
    moved = ["django", *[i for i in start if i != "django"]]
    expect(board_values(right)).to_have_text(values(moved, "linear"))
    expect(board_values(left)).to_have_text(values(moved, "exponential"))  # the other side followed
    expect(left.get_by_test_id("rw-list").locator("li").first).to_contain_text("Django Guide")


def test_ap_follows_a_hit_dragged_down_the_lawyers_list(tall_page: Page, app_url):
    """System A (hits at 1, 2, 4, 5): AP 0.355; the first hit dragged to position 10 gives the engine's value;
    a click on the relevance level changes the pitfall's AP."""
    page = tall_page
    page.goto(app_url + "/average-precision")
    q = scenarios.LAWYER
    start = list(q.presets["System A"])
    expect(metric(page, "AP")).to_have_text("0.355")
    editor = page.get_by_test_id("rw-editor").first
    rows = editor.get_by_test_id("rw-list")
    drag(page, rows.get_by_test_id("rw-row-c01"), rows.get_by_test_id(f"rw-row-{start[9]}"), half="lower")
    moved = [i for i in start if i != "c01"]
    moved.insert(9, "c01")
    value = fmt(metrics.average_precision(metrics.from_rankings([q.grades(moved)], [q.judged_grades()]))[0])
    expect(metric(page, "AP")).to_have_text(value)
    expect(board_values(editor).first).to_have_text(value)
    # the relevance level: on the frameworks' mixed grades, grade ≥ 2 counts three of five pages
    levels = page.get_by_test_id("stButtonGroup").filter(has_text="grade ≥ 2")
    levels.get_by_text("grade ≥ 2").click()
    expect(metric(page, "AP, grade ≥ 2 counts")).to_have_text("0.589")


def test_the_higher_ap_question_is_checked_in_place(tall_page: Page, app_url):
    """On the AP lesson: the first-hit-on-top option gets RR's explanation, the engine's answer is right."""
    page = tall_page
    page.goto(app_url + "/average-precision")
    q = quiz.question("ap.higher_order")
    card = page.locator(".st-key-quiz-ap-ap-higher_order")  # the question's form, keyed by lesson and id
    settle(page)
    card.evaluate("e => e.scrollIntoView({block: 'center'})")
    check = card.get_by_role("button", name=quiz_ui.text("card check"))
    card.get_by_text(quiz_ui.text("ap.higher_order option a", q.values)).click()
    check.click()
    expect(card.get_by_text(quiz_ui.text(quiz.FEEDBACK_CHOICE_WRONG))).to_be_visible()
    expect(page.get_by_text(quiz_ui.text("ap.higher_order option a why", q.values))).to_be_visible()
    (right,) = q.correct
    card.get_by_text(quiz_ui.text(f"ap.higher_order option {right}", q.values)).click()
    check.click()
    expect(page.get_by_text(quiz_ui.text(quiz.FEEDBACK_CORRECT))).to_be_visible()
