"""A live class in real browsers: an instructor and two learners, each in a browser context of their own, through
one class from its start to its end.

The instructor starts a class and reloads (the lead comes back from the browser's storage), then opens the Recall@k
lesson. Ada types a nickname and the code on the home page; Bob opens the join link. The instructor's roll call counts
them by itself. With "predict first" the class guesses Recall@5, the count of answers comes in on the
instructor's screen by itself, and the reveal shows everyone the value (its chart with its words under it). The instructor moves the k slider and
drags a case in the lesson's editor. From the ask on, both learners' screens follow by rerunning only the lesson's
fragment. Ada reloads and is still one learner (her browser's member id) with her nickname; Bob steps away ("Explore
on my own"); the instructor changes the page (Ada follows, Bob stays) and ends the class.

A screen reader hears each of these in the sidebar's one polite live region (its accessibility tree and its text are
checked): following the class and on which page, exploring alone, a page change, the end; the region is there, empty,
before the learner joins, and a page change keeps it (the same element): a region drawn with its text is not read.
axe-core audits a following learner's page with the guess box, and her Classroom panel
(tests/e2e/axe_audit.py's ``Audit``).

What the server computes from these steps (the panel's texts, the verdicts' wording, the counts of slips, a code
typed loosely in the sidebar) is checked in AppTest: tests/pages/test_live_class.py and test_class_*.py.
"""
from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect

from components.course import prose, scenarios
from components.engine import metrics
from components.engine.formatting import fmt
from components.live_class.members import MEMBER_STORAGE_KEY
from components.live_class.panel import LEAD_STORAGE_KEY
from components.ui import registry
from tests.e2e.axe_audit import Audit
from tests.e2e.helpers import PageRuns, board_value, drag, lesson_editor, press_home, settle

pytestmark = pytest.mark.e2e

K_SLIDER = "Cutoff k"
# True once the entry ``key`` of the browser's localStorage holds ``value`` as its ``field``: what a reload reads back
# (the panel shows a class's code before the hidden helper that stores the lead has run).
STORED = "([key, field, value]) => (JSON.parse(localStorage.getItem(key) || 'null') || {})[field] === value"
STORED_MEMBER = "(key) => JSON.parse(localStorage.getItem(key)).member"


@pytest.fixture
def open_watched(browser, app_url):
    """Opens a browser context of its own on a path of the app: its page and the count of its runs (made before the
    page opens). The contexts are closed after the test, passed or failed (their polls stop)."""
    opened = []

    def open_one(path: str) -> tuple[Page, PageRuns]:
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        opened.append(context)
        page = context.new_page()
        runs = PageRuns(page)
        page.goto(app_url + path)
        settle(page)
        return page, runs

    yield open_one
    for context in opened:
        context.close()


def classroom(page: Page):
    """The sidebar's Classroom panel, opened. Looked at once the page's run is over: a panel opened during a
    rerun that redraws the sidebar (a learner's reload joins the class again) was once drawn folded after it."""
    panel = page.get_by_test_id("stSidebar").get_by_test_id("stExpander").filter(has_text="Classroom")
    settle(page)
    if not panel.get_by_text("Hide answers").is_visible():
        panel.get_by_text("Classroom").first.click()
    expect(panel.get_by_text("Hide answers")).to_be_visible()
    return panel


def k_slider(page: Page):
    return page.get_by_role("slider", name=K_SLIDER).first


def following(page: Page, code: str):
    return page.get_by_test_id("stMain").get_by_text(f"You are following class {code}")  # the banner


def news(page: Page):
    """The sidebar's live region for the class's news (components/live_class/follow.py's show_news)."""
    return page.get_by_test_id("stSidebar").get_by_test_id("class-news")


def heard(page: Page, text: str) -> None:
    """The class's live region says ``text``, as the accessibility tree has it: one polite status."""
    expect(news(page)).to_have_text(text, timeout=30_000)
    expect(news(page)).to_match_aria_snapshot(f"- status: {json.dumps(text)}")
    expect(news(page)).to_have_attribute("aria-live", "polite")


# Marks the element (or, given a string, reads the mark back): the same element later is the one the browser read.
MARK = "(e, mark) => { if (mark) e.dataset.rwMark = mark; return e.dataset.rwMark || null; }"


def start_class(teacher: Page) -> str:
    """Start a class from the Classroom panel: its code (the QR code is drawn beside it)."""
    panel = classroom(teacher)
    panel.get_by_role("button", name="Start a class").click()
    code_line = panel.get_by_text("Class code:")
    expect(code_line).to_be_visible(timeout=30_000)
    expect(panel.get_by_role("img")).to_be_visible()  # the QR code, drawn here
    return code_line.inner_text().split(":")[1].strip()


def join_on_the_home_page(page: Page, code: str, nickname: str) -> None:
    """A learner on the home page types a nickname, then the class's code, and joins."""
    box = page.get_by_role("textbox", name=prose.text("ui", "Class nickname"))
    box.fill(nickname)
    box.press("Enter")
    settle(page)
    page.get_by_role("textbox", name=prose.text("ui", "Class join home")).fill(code)
    page.get_by_role("button", name=prose.text("ui", "Class join")).click()


def test_a_class_from_its_start_to_its_end(open_watched):
    q = scenarios.LAWYER  # the lesson's case, as it opens: System A at k = 5
    qs = metrics.from_rankings([q.grades(q.presets["System A"])], [q.judged_grades()])
    recall, precision = fmt(metrics.recall(qs, 5)[0]), fmt(metrics.precision(qs, 5)[0])

    # The instructor starts a class on the (light) home page; a reload is a new session, and the lead comes back
    # from the browser's storage; then the lesson, by its link in the sidebar.
    teacher, teacher_runs = open_watched("/")
    code = start_class(teacher)
    teacher.wait_for_function(STORED, arg=[LEAD_STORAGE_KEY, "code", code])  # or the reload loses it
    teacher.reload()
    panel = classroom(teacher)
    expect(panel.get_by_text(f"Class code: {code}")).to_be_visible(timeout=30_000)
    settle(teacher)
    teacher.get_by_test_id("stSidebar").get_by_role("link", name="Recall@k", exact=True).click()
    expect(k_slider(teacher)).to_be_visible(timeout=30_000)
    settle(teacher)
    panel = classroom(teacher)
    panel.get_by_text("Predict first").click()
    expect(board_value(teacher, "Recall@5")).to_have_text("?")
    settle(teacher)  # the run is over: it has sent "predict first" to the class

    # Ada joins on the home page with a nickname, Bob by the join link; both are taken to the class's page.
    ada, ada_runs = open_watched("/")
    expect(news(ada)).to_have_text("")  # the live region is there, empty, before she joins
    news(ada).evaluate(MARK, "home")
    join_on_the_home_page(ada, code, "Ada")
    bob, bob_runs = open_watched(f"/?class={code}")
    learners, runs = (ada, bob), (ada_runs, bob_runs)
    for page in learners:
        expect(following(page, code)).to_be_visible(timeout=30_000)
        expect(board_value(page, "Recall@5")).to_have_text("?", timeout=30_000)  # the class's page, predicting
        heard(page, prose.text("ui", "Class news following", code=code, page=registry.spec("recall").title))
    assert news(ada).evaluate(MARK, None) == "home", "the region Ada's screen reader listened to was replaced"
    expect(panel.get_by_text("Learners here: 2")).to_be_visible(timeout=30_000)  # no click: the roll call reads again
    expect(panel.get_by_text("Ada", exact=True)).to_be_visible()

    # Predict first: the class guesses (Bob the P@5 slip), the count comes in by itself, the reveal reaches everyone,
    # each step in the lesson's fragment alone (no whole-page run on a learner's screen).
    for page in learners:
        settle(page)
    whole_runs = [r.count for r in runs]
    teacher.get_by_role("button", name=prose.text("ui", "Class ask", label="Recall@5")).click()
    guess_label = prose.text("ui", "Class guess label", label="Recall@5")
    for page, typed in zip(learners, (recall, precision)):
        box = page.get_by_role("textbox", name=guess_label)
        expect(box).to_be_visible(timeout=30_000)
        settle(page)  # the run that drew the box is over: nothing replaces it under the typing
        if page is ada:  # axe-core on a following learner's banner and guess box
            audit = Audit(ada, "1280x900 following")
            audit("a following learner's guess box", within='[data-testid="stMain"] [data-testid="stAlert"], '
                                                            '[data-testid="stMain"] [data-testid="stForm"]')
            audit.check()
        box.fill(typed)
        page.get_by_role("button", name=prose.text("ui", "Class guess send")).click()
    for page in learners:
        expect(page.get_by_text("is in. The value comes")).to_be_visible()
    expect(teacher.get_by_text("2 answers so far")).to_be_visible(timeout=30_000)  # no click: it polls
    teacher.get_by_role("button", name=prose.text("ui", "Class reveal")).click()
    expect(board_value(teacher, "Recall@5")).to_have_text(recall)
    # The guesses' chart, its text alternative in the fold just under it (show_chart): opened, the chart's words.
    expect(teacher.get_by_test_id("stVegaLiteChart").first).to_be_visible()
    words = teacher.get_by_test_id("stElementContainer").filter(has=teacher.get_by_test_id("stVegaLiteChart")).first \
        .locator("xpath=following-sibling::*[1]")
    words.get_by_text(prose.text("ui", "Chart in words")).click()
    expect(words).to_match_aria_snapshot(f"""- group:
  - paragraph: {json.dumps(prose.text("ui", "Chart in words"))}
  - paragraph: /2 guesses of Recall@5, whose value is {re.escape(recall)}\\W.+/""")
    for page in learners:
        expect(board_value(page, "Recall@5")).to_have_text(recall, timeout=30_000)
        settle(page)
    settle(teacher)
    assert [r.count for r in runs] == whole_runs

    # The k and the order follow, in the lesson's fragment alone (no whole-page run on a learner's screen).
    press_home(teacher, k_slider(teacher),  # k = 1
               lambda ms: expect(board_value(teacher, "Recall@1")).to_be_visible(timeout=ms))
    for page in learners:
        expect(k_slider(page)).to_have_attribute("aria-valuetext", "1", timeout=30_000)
    editor = lesson_editor(teacher)
    drag(teacher, editor.get_by_test_id("rw-row-c03"), editor.get_by_test_id("rw-row-c01"))  # c03 to the top
    expect(editor.get_by_test_id("rw-row-c03").get_by_test_id("rw-pos")).to_have_text("1")
    for page in learners:
        moved = lesson_editor(page).get_by_test_id("rw-row-c03").get_by_test_id("rw-pos")
        expect(moved).to_have_text("1", timeout=30_000)
    assert [r.count for r in runs] == whole_runs

    # Ada reloads: the address joins her again, and her browser's member id and nickname keep her one learner (a
    # new nickname, sent after the reload, is stored with the member id she had before it).
    ada.wait_for_function(STORED, arg=[MEMBER_STORAGE_KEY, "nickname", "Ada"])
    member = ada.evaluate(STORED_MEMBER, MEMBER_STORAGE_KEY)
    ada.reload()
    settle(ada)
    expect(following(ada, code)).to_be_visible(timeout=30_000)
    heard(ada, prose.text("ui", "Class news following", code=code, page=registry.spec("recall").title))
    news(ada).evaluate(MARK, "reloaded")
    teacher_runs.wait_for_fragments(teacher, 2)  # the roll call read again since the reload
    expect(panel.get_by_text("Learners here: 2")).to_be_visible()
    ada_panel = classroom(ada)
    audit = Audit(ada, "1280x900 following")
    audit("a following learner's Classroom panel", within='[data-testid="stSidebar"]')
    audit.check()
    nickname = ada_panel.get_by_role("textbox", name=prose.text("ui", "Class nickname"))
    expect(nickname).to_have_value("Ada")
    nickname.fill("Ada L.")
    nickname.press("Enter")
    ada.wait_for_function(STORED, arg=[MEMBER_STORAGE_KEY, "nickname", "Ada L."])
    assert ada.evaluate(STORED_MEMBER, MEMBER_STORAGE_KEY) == member

    # Bob steps away; the instructor changes the page: Ada follows, Bob stays where he is; then the class ends.
    bob.get_by_role("button", name="Explore on my own").click()
    expect(bob.get_by_test_id("stMain").get_by_text("You are exploring on your own")).to_be_visible()
    heard(bob, prose.text("ui", "Class news exploring", code=code))
    teacher.get_by_test_id("stSidebar").get_by_role("link", name="MRR").click()
    expect(ada.get_by_role("heading", name="MRR").first).to_be_visible(timeout=30_000)  # a whole-page run, under load
    heard(ada, prose.text("ui", "Class news page", page=registry.spec("mrr").title))
    assert news(ada).evaluate(MARK, None) == "reloaded", "the page change replaced the live region"
    bob_runs.wait_for_fragments(bob, 2)  # the explorer's timer ran twice since: the one who stepped away stays
    expect(k_slider(bob)).to_have_attribute("aria-valuetext", "1")
    assert "/mrr" not in bob.url
    classroom(teacher).get_by_role("button", name="End class").click()
    expect(ada.get_by_test_id("stMain").get_by_text("The class has ended")).to_be_visible(timeout=30_000)
    heard(ada, prose.text("ui", "Class ended"))
