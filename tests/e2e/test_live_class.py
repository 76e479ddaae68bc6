"""A live class in real browsers: an instructor and two learners, each in a browser context of their own.

The instructor starts a class, moves the k slider, drags a case in the lesson's editor and then changes the
page; both learners' screens follow (the k and the order by rerunning only the lesson's fragment). One
learner steps away ("Explore on my own") and stops following; the other keeps following.
"""
from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.helpers import PageRuns, drag, lesson_editor, metric_value, press_home, settle

pytestmark = pytest.mark.e2e

K_SLIDER = "Cutoff k"


OPENED = []  # the browser contexts a test opened: closed after it, passed or failed (their polls stop)


@pytest.fixture(autouse=True)
def close_contexts():
    yield
    while OPENED:
        OPENED.pop().close()


def open_app(browser, app_url: str, path: str) -> Page:
    return open_watched(browser, app_url, path)[0]


def open_watched(browser, app_url: str, path: str) -> tuple[Page, PageRuns]:
    """A new browser context on ``path``, and the count of its whole-page runs."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    OPENED.append(context)
    page = context.new_page()
    runs = PageRuns(page)
    page.goto(app_url + path)
    settle(page)
    return page, runs


def classroom(page: Page):
    """The sidebar's Classroom panel, opened."""
    panel = page.get_by_test_id("stSidebar").get_by_test_id("stExpander").filter(has_text="Classroom")
    if not panel.get_by_text("Hide answers").is_visible():
        panel.get_by_text("Classroom").first.click()
    return panel


def k_slider(page: Page):
    return page.get_by_role("slider", name=K_SLIDER).first


def test_learners_follow_the_instructor_until_one_steps_away(browser, app_url):
    teacher = open_app(browser, app_url, "/recall")
    panel = classroom(teacher)
    panel.get_by_role("button", name="Start a class").click()
    code_line = panel.get_by_text("Class code:")
    expect(code_line).to_be_visible(timeout=30_000)
    code = code_line.inner_text().split(":")[1].strip()
    expect(panel.get_by_role("img")).to_be_visible()  # the QR code, drawn here
    teacher.reload()  # a new session: the lead comes back from this browser's storage
    expect(classroom(teacher).get_by_text(f"Class code: {code}")).to_be_visible(timeout=30_000)

    learners, runs = [], []
    for _ in range(2):
        page, page_runs = open_watched(browser, app_url, "/")
        box = classroom(page).get_by_role("textbox", name="Join a class: its code")
        box.fill(code.lower())
        box.press("Enter")
        expect(page.get_by_text(f"You are following class {code}")).to_be_visible(timeout=30_000)
        learners.append(page)
        runs.append(page_runs)
    for page in learners:
        expect(k_slider(page)).to_be_visible(timeout=30_000)  # the class's page: Recall@k
        settle(page)
    whole_runs = [r.count for r in runs]

    press_home(teacher, k_slider(teacher),  # k = 1
               lambda ms: expect(metric_value(teacher, "Recall@1")).to_be_visible(timeout=ms))
    for page in learners:
        expect(k_slider(page)).to_have_attribute("aria-valuetext", "1", timeout=15_000)

    editor = lesson_editor(teacher)
    drag(teacher, editor.get_by_test_id("rw-row-c03"), editor.get_by_test_id("rw-row-c01"))  # c03 to the top
    expect(editor.get_by_test_id("rw-row-c03").get_by_test_id("rw-pos")).to_have_text("1")
    for page in learners:
        moved = lesson_editor(page).get_by_test_id("rw-row-c03").get_by_test_id("rw-pos")
        expect(moved).to_have_text("1", timeout=15_000)
    assert [r.count for r in runs] == whole_runs  # the k and the order came in the lesson's fragment alone

    learners[0].reload()  # a learner's reload joins again (the address holds the class's code)
    expect(learners[0].get_by_text(f"You are following class {code}")).to_be_visible(timeout=30_000)
    learners[1].get_by_role("button", name="Explore on my own").click()
    expect(learners[1].get_by_text("You are exploring on your own")).to_be_visible()
    teacher.get_by_test_id("stSidebar").get_by_role("link", name="MRR").click()
    expect(learners[0].get_by_role("heading", name="MRR").first).to_be_visible(timeout=30_000)  # a whole-page run, under load
    runs[1].wait_for_fragments(learners[1], 2)  # the explorer's timer ran twice since: the one who stepped away stays
    expect(k_slider(learners[1])).to_have_attribute("aria-valuetext", "1")
    assert "/mrr" not in learners[1].url

    panel = classroom(teacher)
    panel.get_by_role("button", name="End class").click()
    expect(learners[0].get_by_text("The class has ended")).to_be_visible(timeout=15_000)


def start_class(teacher: Page) -> str:
    panel = classroom(teacher)
    panel.get_by_role("button", name="Start a class").click()
    code_line = panel.get_by_text("Class code:")
    expect(code_line).to_be_visible(timeout=30_000)
    return code_line.inner_text().split(":")[1].strip()


def join(browser, app_url: str, code: str) -> Page:
    page = open_app(browser, app_url, f"/?class={code}")  # the join link
    expect(page.get_by_text(f"You are following class {code}")).to_be_visible(timeout=30_000)
    return page


def test_the_class_predicts_then_sees_the_reveal_together(browser, app_url):
    """Predict first: the instructor asks for Recall@5, two learners guess (one the P@5 slip), the count comes
    in on the instructor's screen by itself, and the reveal shows everyone the value."""
    from components.course import prose, scenarios
    from components.engine import metrics
    from components.engine.formatting import fmt

    q = scenarios.LAWYER
    qs = metrics.from_rankings([q.grades(q.presets["System A"])], [q.judged_grades()])
    recall, precision = fmt(metrics.recall(qs, 5)[0]), fmt(metrics.precision(qs, 5)[0])
    teacher = open_app(browser, app_url, "/recall")
    code = start_class(teacher)
    classroom(teacher).get_by_text("Predict first").click()
    learners = [join(browser, app_url, code) for _ in range(2)]
    for page in learners:
        expect(metric_value(page, "Recall@5")).to_have_text("?", timeout=15_000)
    teacher.get_by_role("button", name=prose.text("ui", "Class ask", label="Recall@5")).click()
    guess_label = prose.text("ui", "Class guess label", label="Recall@5")
    for page, typed in zip(learners, (recall, precision)):
        box = page.get_by_role("textbox", name=guess_label)
        expect(box).to_be_visible(timeout=15_000)
        box.fill(typed)
        page.get_by_role("button", name=prose.text("ui", "Class guess send")).click()
        expect(page.get_by_text("is in. The value comes")).to_be_visible()
    expect(teacher.get_by_text("2 answers so far")).to_be_visible(timeout=10_000)  # no click: it polls
    teacher.get_by_role("button", name=prose.text("ui", "Class reveal")).click()
    expect(metric_value(teacher, "Recall@5")).to_have_text(recall)
    expect(teacher.get_by_text(f"of you said {precision}")).to_be_visible()
    expect(teacher.get_by_test_id("stVegaLiteChart").first).to_be_visible()
    for page in learners:
        expect(metric_value(page, "Recall@5")).to_have_text(recall, timeout=15_000)
    expect(learners[1].get_by_text(f"You said {precision}: that is the share")).to_be_visible()


def test_the_roll_call_counts_each_learner_once_through_a_reload_and_shows_their_nickname(browser, app_url):
    """A learner types a nickname on the home page and joins; another joins by the link with none. The
    instructor's roll call shows both, Ada by name; Ada reloads (a new session, joined again by the link
    before her browser's member id is read back) and is still one learner, her nickname kept."""
    from components.course import prose

    teacher, teacher_runs = open_watched(browser, app_url, "/recall")
    code = start_class(teacher)
    ada = open_app(browser, app_url, "/")
    nickname = ada.get_by_role("textbox", name=prose.text("ui", "Class nickname"))
    nickname.fill("Ada")
    nickname.press("Enter")
    settle(ada)
    ada.get_by_role("textbox", name=prose.text("ui", "Class join home")).fill(code)
    ada.get_by_role("button", name=prose.text("ui", "Class join")).click()
    expect(ada.get_by_text(f"You are following class {code}")).to_be_visible(timeout=30_000)
    join(browser, app_url, code)
    panel = classroom(teacher)
    expect(panel.get_by_text("Learners here: 2")).to_be_visible(timeout=15_000)  # no click: it reads again
    expect(panel.get_by_text("Ada", exact=True)).to_be_visible()
    expect(panel.get_by_text("and 1 without a nickname")).to_be_visible()

    ada.reload()
    settle(ada)
    expect(ada.get_by_text(f"You are following class {code}")).to_be_visible(timeout=30_000)
    teacher_runs.wait_for_fragments(teacher, 2)  # the roll call read again since the reload
    expect(panel.get_by_text("Learners here: 2")).to_be_visible()
    expect(classroom(ada).get_by_role("textbox", name=prose.text("ui", "Class nickname"))).to_have_value("Ada")
