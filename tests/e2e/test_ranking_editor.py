"""The ranking editor in a real browser: every way to move, the tray, grades, the cutoff, presets.

One Streamlit server per worker (tests/e2e/editor_page.py) and one page for the module (one session, loaded
once): each test starts by pressing the page's "New editors", which mounts new editors under fresh keys, so
nothing of the test before is left. Expected metric values come from the engine (components.engine.metrics),
never typed in. Locators pierce the component's open shadow root; the tests wait for text, never sleep.
"""
from __future__ import annotations

import re
from typing import NamedTuple

import pytest
from playwright.sync_api import Locator, Page, expect

from components.course import scenarios
from components.engine import metrics
from components.engine.formatting import fmt
from tests.e2e.helpers import (
    PageRuns,
    click_and_settle,
    drag,
    hold_changes,
    metric_value,
    next_frames,
    release_changes,
    settle,
)

pytestmark = pytest.mark.e2e

FRAMEWORK_GRADES = {d.id: d.grade for d in scenarios.FRAMEWORKS.docs}  # "html" is unjudged
SYSTEM_B = list(scenarios.FRAMEWORKS.presets["System B"]) + ["html"]
SYSTEM_A = list(scenarios.FRAMEWORKS.presets["System A"]) + ["html"]
TALL = {"width": 1280, "height": 1500}  # editor "a" whole, away from the auto-scroll edges


@pytest.fixture(scope="module")
def context(shared_context):
    """This module's tests share one browser context (tests/e2e/conftest.py) and, but for one, one page."""
    return shared_context


class Shared(NamedTuple):
    """The module's page, its runs (counted from before it opened) and the test page's address."""

    page: Page
    runs: PageRuns
    url: str


@pytest.fixture(scope="module")
def shared(context, editor_url):
    """One page for the module's tests, opened on the test page by its first test."""
    page = context.new_page()
    runs = PageRuns(page)
    page.set_viewport_size(TALL)
    yield Shared(page, runs, editor_url)
    page.close()


def new_editors(shared: Shared, size: dict[str, int], button: str = "New editors") -> Page:
    """The shared page at ``size``, after ``button`` has mounted new editors (fresh keys: a fresh state) and its
    run is over, scrolled to the top."""
    page, runs = shared.page, shared.runs
    page.set_viewport_size(size)
    if page.url == "about:blank":
        page.goto(shared.url)
        settle(page)
    click_and_settle(page, runs, page.get_by_test_id("stSidebar").get_by_role("button", name=button, exact=True))
    page.get_by_test_id("stMain").evaluate("e => e.scrollTo(0, 0)")
    return page


@pytest.fixture
def page_a(shared):
    """The test page with new editors, both drawn."""
    page = new_editors(shared, TALL)
    expect(row(page, "a", "django")).to_be_visible()
    expect(row(page, "b", "j05")).to_be_visible()
    return page


@pytest.fixture
def lawyer_page(shared):
    """The first editor new on the lawyer's 20-row list, on a 1280×720 screen."""
    return new_editors(shared, {"width": 1280, "height": 720}, "New editors, the lawyer's list")


# --- helpers ---------------------------------------------------------------------------------

def editor(page: Page, which: str) -> Locator:
    """The container of editor "a" (frameworks) or "b" (a JAR query)."""
    return page.locator(f".st-key-editor-{which}")


def row(page: Page, which: str, doc_id: str) -> Locator:
    return editor(page, which).get_by_test_id(f"rw-row-{doc_id}")


def metric(page: Page, which: str, label: str) -> Locator:
    return metric_value(editor(page, which), label)


def caption(page: Page, which: str, prefix: str) -> Locator:
    return editor(page, which).get_by_text(re.compile(rf"^{prefix}: "))


def order_text(order) -> str:
    return " › ".join(order)


def expected_a(order, k: int = 3, grades: dict | None = None) -> dict[str, str]:
    """The page's three metrics for editor "a", from the engine."""
    graded = {**FRAMEWORK_GRADES, **(grades or {})}
    judged = [g for g in graded.values() if g is not None]
    returned = [graded.get(i) or 0 for i in order]
    return {
        f"Recall@{k}": fmt(metrics.recall_at_k(returned, k, n_relevant=sum(g >= 1 for g in judged))),
        "RR": fmt(metrics.reciprocal_rank_of(returned)),
        f"nDCG@{k}": fmt(metrics.ndcg_at_k(returned, k, judged_grades=judged)),
    }


def expect_a(page: Page, order, tray=(), k: int = 3, grades: dict | None = None) -> None:
    """Editor "a" shows this order and tray, and the page shows the engine's metrics for it."""
    expect(caption(page, "a", "Order")).to_have_text("Order: " + order_text(order))
    expect(caption(page, "a", "Tray")).to_have_text("Tray: " + (order_text(tray) or "empty"))
    for label, value in expected_a(order, k, grades).items():
        expect(metric(page, "a", label)).to_have_text(value)


def moved(order, doc_id, index):
    order = [i for i in order if i != doc_id]
    order.insert(index, doc_id)
    return order


# --- every way to move ----------------------------------------------------------------------

def test_an_editor_stays_hidden_until_its_stylesheet_applies(shared: Shared):
    """The script fetches the stylesheet itself (once a page): until it applies, the drawn rows are hidden, not
    shown unstyled (a row measured then was 450 px tall). A page load of the shared page: as the module's first
    test it is the page's first load, so it costs none of its own."""
    page = shared.page
    held = []
    sheet = "**/rankwise.ranking_editor/editor.css"
    page.route(sheet, lambda route: held.append(route))  # held until released
    try:
        page.goto(shared.url)
        while not held:  # at most a few seconds of painted frames
            next_frames(page)
        expect(row(page, "a", "django")).to_be_attached()
        expect(row(page, "a", "django")).to_be_hidden()
        held[0].continue_()
        expect(row(page, "a", "django")).to_be_visible()
        assert row(page, "a", "django").bounding_box()["height"] < 100
    finally:
        page.unroute(sheet)


def test_mouse_drag_reorders_and_updates_metrics(page_a: Page):
    page = page_a
    expect_a(page, SYSTEM_B)
    drag(page, row(page, "a", "django"), row(page, "a", "snake"), half="upper")
    expect_a(page, moved(SYSTEM_B, "django", 0))
    expect(row(page, "a", "django").get_by_test_id("rw-pos")).to_have_text("1")
    expect(editor(page, "a").get_by_test_id("rw-live")).to_have_text("Django Guide moved to position 1 of 9")
    expect(editor(page, "a").get_by_test_id("rw-drop-indicator")).to_be_hidden()
    expect(editor(page, "a").get_by_text(re.compile(r"^What changed: .*nDCG@3 0\.531 → "))).to_be_visible()

    # downwards, onto the lower half of a row below
    drag(page, row(page, "a", "django"), row(page, "a", "pyramid"), half="lower")
    order = moved(SYSTEM_B, "django", 4)
    expect_a(page, order)

    # Escape during a drag puts everything back
    s = row(page, "a", "bottle").get_by_test_id("rw-title").bounding_box()
    t = row(page, "a", "snake").bounding_box()
    page.mouse.move(s["x"] + 10, s["y"] + s["height"] / 2)
    page.mouse.down()
    page.mouse.move(t["x"] + 200, t["y"] + 5, steps=6)
    expect(editor(page, "a").get_by_test_id("rw-drop-indicator")).to_be_visible()
    expect(row(page, "a", "bottle").get_by_test_id("rw-pos")).to_have_text("1")  # where it would land
    page.keyboard.press("Escape")
    page.mouse.up()
    expect(editor(page, "a").get_by_test_id("rw-drop-indicator")).to_be_hidden()
    expect(row(page, "a", "bottle").get_by_test_id("rw-pos")).to_have_text(str(order.index("bottle") + 1))
    expect_a(page, order)


def test_a_drag_held_while_the_last_drops_answer_arrives_lands_where_its_preview_shows(page_a: Page):
    """Reported on the Recall@k lesson: a drag whose preview showed position 7 dropped at 6. A drop sends the
    list to Python, whose answer (the same list, confirmed) came back while the next drag was held and replaced
    the list under it: the drag ended and its row went back to where it had been. Now an answer that only
    confirms the list as it was dropped leaves a drag alone; the row lands where its preview shows. (The first
    drop's change is held in the page until the second drag is under way, so its answer comes during it.)"""
    page = page_a
    expect_a(page, SYSTEM_B)
    held = editor(page, "a").get_by_test_id("rw-editor")
    hold_changes(held, "__rankwiseEditor")
    drag(page, row(page, "a", "django"), row(page, "a", "snake"), half="upper")  # the first drop, its change held
    first = moved(SYSTEM_B, "django", 0)
    second = row(page, "a", "bottle")
    s = second.get_by_test_id("rw-title").bounding_box()
    page.mouse.move(s["x"] + 10, s["y"] + s["height"] / 2)
    page.mouse.down()
    t = row(page, "a", first[first.index("bottle") + 1]).bounding_box()
    page.mouse.move(s["x"] + 10, t["y"] + t["height"] * 0.8, steps=4)  # onto the lower half of the row below
    preview = str(first.index("bottle") + 2)
    expect(second.get_by_test_id("rw-pos")).to_have_text(preview)
    assert release_changes(held, "__rankwiseEditor") == 1  # the first drop's answer drawn, while this drag is held
    expect(editor(page, "a").get_by_test_id("rw-drop-indicator")).to_be_visible()  # still dragging
    expect(second.get_by_test_id("rw-pos")).to_have_text(preview)
    page.mouse.up()
    expect_a(page, moved(first, "bottle", int(preview) - 1))


def keys(page: Page, *names: str) -> None:
    for name in names:
        page.keyboard.press(name)


def edits_sent(page: Page, which: str) -> int:
    """How many changes editor ``which`` has sent to Python (its sequence number)."""
    return editor(page, which).get_by_test_id("rw-editor").evaluate(
        "e => { let n = e; while (n && !n.__rankwiseEditor) n = n.parentNode; return n.__rankwiseEditor.sent; }")


def test_keyboard_lift_move_drop_keeps_focus_announces_and_sends_one_change(page_a: Page):
    page = page_a
    live = editor(page, "a").get_by_test_id("rw-live")
    flask = row(page, "a", "flask")
    flask.focus()
    sent = edits_sent(page, "a")
    keys(page, "Space", "ArrowUp")  # lifted and moved: drawn, previewed, not sent
    expect(flask.get_by_test_id("rw-pos")).to_have_text("2")
    expect(live).to_have_text("Flask Tutorial moved to position 2 of 9")
    assert edits_sent(page, "a") == sent
    page.keyboard.press("Space")  # dropped: one change
    order = moved(SYSTEM_B, "flask", 1)
    expect_a(page, order)
    expect(flask).to_be_focused()
    expect(live).to_have_text("Flask Tutorial dropped at position 2 of 9.")
    assert edits_sent(page, "a") == sent + 1

    keys(page, "Space", "Home", "Space")
    expect_a(page, moved(order, "flask", 0))
    expect(flask).to_be_focused()
    keys(page, "Space", "End", "Space")
    expect_a(page, moved(order, "flask", 8))
    expect(flask).to_be_focused()
    keys(page, "Space", "ArrowDown")  # already last: nothing moves, the edge is announced
    expect(live).to_have_text(re.compile("already at position 9 of 9"))
    keys(page, "ArrowUp", "Space")
    expect_a(page, moved(order, "flask", 7))
    expect(flask).to_be_focused()


def test_escape_puts_a_lifted_row_back_and_arrows_alone_move_the_focus(page_a: Page):
    page = page_a
    flask = row(page, "a", "flask")
    flask.focus()
    keys(page, "Space", "ArrowUp", "ArrowUp", "Escape")
    expect(editor(page, "a").get_by_test_id("rw-live")).to_have_text("Flask Tutorial put back where it was.")
    expect_a(page, SYSTEM_B)
    page.keyboard.press("ArrowDown")  # not lifted: the focus goes to the next row, nothing moves
    expect(row(page, "a", SYSTEM_B[SYSTEM_B.index("flask") + 1])).to_be_focused()
    expect_a(page, SYSTEM_B)
    tab_stops = editor(page, "a").locator('li.rw-row[tabindex="0"]')
    expect(tab_stops).to_have_count(1)  # one Tab stop per list (a roving tabindex)


def test_move_buttons(page_a: Page):
    page = page_a
    a = editor(page, "a")
    expect(a.get_by_role("button", name="Move Snake Care up")).to_have_attribute("aria-disabled", "true")
    a.get_by_role("button", name="Move Snake Care down").click()
    order = moved(SYSTEM_B, "snake", 1)
    expect_a(page, order)
    a.get_by_role("button", name="Move Snake Care down").click()
    order = moved(order, "snake", 2)
    expect_a(page, order)
    a.get_by_role("button", name="Move FastAPI Docs up").click()
    expect_a(page, moved(order, "fastapi", 2))
    expect(row(page, "a", "fastapi")).to_be_focused()


def test_tray_by_drag_key_and_button(page_a: Page):
    page = page_a
    a = editor(page, "a")
    toggle = a.get_by_test_id("rw-tray-toggle")
    expect(toggle).to_have_text("Not returned: none yet")
    expect(toggle).to_have_attribute("aria-expanded", "false")  # folded: a drop onto it opens it
    drag(page, row(page, "a", "django"), a.get_by_test_id("rw-tray"))
    order = [i for i in SYSTEM_B if i != "django"]
    expect_a(page, order, tray=["django"])
    expect(toggle).to_have_attribute("aria-expanded", "true")
    expect(toggle).to_have_text("1 judged, not returned")
    expect(row(page, "a", "django").get_by_test_id("rw-pos")).to_have_text("–")
    expect(a.get_by_test_id("rw-count")).to_have_text("8 returned · 1 not returned")

    row(page, "a", "django").focus()
    page.keyboard.press("t")  # back, at the bottom of the list
    order = order + ["django"]
    expect_a(page, order)
    expect(row(page, "a", "django")).to_be_focused()
    page.keyboard.press("Delete")
    expect_a(page, order[:-1], tray=["django"])
    expect(a.get_by_test_id("rw-live")).to_have_text("Django Guide moved to Not returned")

    a.get_by_role("button", name="Remove Flask Tutorial from the list").click()
    order = [i for i in order[:-1] if i != "flask"]
    expect_a(page, order, tray=["django", "flask"])
    a.get_by_role("button", name="Add Django Guide to the list").click()
    expect_a(page, order + ["django"], tray=["flask"])
    toggle.click()  # fold it: its row is out of sight and out of the Tab order, its count stays
    expect(row(page, "a", "flask")).to_be_hidden()
    expect(toggle).to_have_text("1 judged, not returned")
    toggle.click()

    # drag out of the tray onto the top of the list
    drag(page, row(page, "a", "flask"), row(page, "a", "snake"), half="upper")
    expect_a(page, ["flask"] + order + ["django"])


def test_grade_editing_and_a_title_with_html(page_a: Page):
    page = page_a
    a = editor(page, "a")
    badge = row(page, "a", "snake").get_by_test_id("rw-badge")
    expect(badge).to_have_text("0not relevant")
    a.get_by_role("button", name="Raise the grade of Snake Care").click()
    expect(badge).to_have_text("1relevant")
    expect_a(page, SYSTEM_B, grades={"snake": 1})
    row(page, "a", "snake").focus()
    page.keyboard.press("2")
    expect(badge).to_have_text("2highly relevant")
    expect_a(page, SYSTEM_B, grades={"snake": 2})
    expect(a.get_by_role("button", name="Raise the grade of Snake Care")).to_have_attribute("aria-disabled", "true")
    page.keyboard.press("-")
    expect_a(page, SYSTEM_B, grades={"snake": 1})
    expect(row(page, "a", "snake")).to_be_focused()

    # a title with HTML in it is shown as text; unjudged, it becomes judged when graded
    html_row = row(page, "a", "html")
    expect(html_row.get_by_test_id("rw-title")).to_have_text("<b>x</b> forum post")
    expect(html_row.locator("b")).to_have_count(0)
    expect(html_row).to_have_attribute("aria-label", re.compile(r"^<b>x</b> forum post, position 9 of 9"))
    html_badge = html_row.get_by_test_id("rw-badge")
    expect(html_badge).to_have_text("?unjudged")
    a.get_by_role("button", name="Raise the grade of <b>x</b> forum post").click()
    expect(html_badge).to_have_text("1relevant")
    expect_a(page, SYSTEM_B, grades={"snake": 1, "html": 1})


def test_cutoff_line_follows_k(page_a: Page):
    page = page_a
    cutoff = editor(page, "a").get_by_test_id("rw-cutoff")

    def between(upper: str, lower: str) -> None:
        top, line, bottom = (x.bounding_box() for x in (row(page, "a", upper), cutoff, row(page, "a", lower)))
        assert top["y"] + top["height"] <= line["y"] + 1 and line["y"] + line["height"] <= bottom["y"] + 1

    expect(cutoff).to_contain_text("top 3")
    expect(cutoff).to_contain_text("not seen")
    between("flask", "fastapi")
    slider = editor(page, "a").get_by_role("slider")
    slider.focus()
    page.keyboard.press("ArrowRight")
    expect(cutoff).to_contain_text("top 4")
    expect(metric(page, "a", "nDCG@4")).to_have_text(expected_a(SYSTEM_B, k=4)["nDCG@4"])
    between("fastapi", "pyramid")
    expect(row(page, "a", "pyramid")).to_have_attribute("aria-label", re.compile("below the cutoff"))
    page.keyboard.press("End")
    expect(cutoff).to_contain_text("top 9")
    expect(cutoff).to_contain_text("end of list")


def test_two_editors_stay_independent(page_a: Page):
    page = page_a
    jar_order = [d.id for d in scenarios.JAR_QUERIES[2].docs]
    expect(metric(page, "b", "RR (JAR)")).to_have_text(fmt(1 / 5))
    row(page, "b", "j05").focus()
    keys(page, "Space", "ArrowUp", "Space")
    expect(caption(page, "b", "JAR order")).to_have_text("JAR order: " + order_text(moved(jar_order, "j05", 3)))
    expect(metric(page, "b", "RR (JAR)")).to_have_text(fmt(1 / 4))
    expect_a(page, SYSTEM_B)  # the other editor did not move

    row(page, "a", "django").focus()
    keys(page, "Space", "Home", "Space")
    expect_a(page, moved(SYSTEM_B, "django", 0))
    expect(caption(page, "b", "JAR order")).to_have_text("JAR order: " + order_text(moved(jar_order, "j05", 3)))
    expect(row(page, "b", "j05").get_by_test_id("rw-pos")).to_have_text("4")


def test_a_binary_list_by_buttons_and_tray(page_a: Page):
    page = page_a
    b = editor(page, "b")
    jar_order = [d.id for d in scenarios.JAR_QUERIES[2].docs]
    hit = scenarios.JAR_TARGET
    b.get_by_role("button", name=f"Move {hit} up").click()
    b.get_by_role("button", name=f"Move {hit} up").click()
    expect(caption(page, "b", "JAR order")).to_have_text("JAR order: " + order_text(moved(jar_order, "j05", 2)))
    expect(metric(page, "b", "RR (JAR)")).to_have_text(fmt(1 / 3))
    expect(metric(page, "b", "Hit rate@3 (JAR)")).to_have_text(fmt(1.0))
    b.get_by_role("button", name=f"Move {hit} down").click()
    expect(metric(page, "b", "Hit rate@3 (JAR)")).to_have_text(fmt(0.0))
    row(page, "b", "j05").focus()
    page.keyboard.press("t")
    expect(metric(page, "b", "RR (JAR)")).to_have_text(fmt(0.0))
    expect(row(page, "b", "j05").get_by_test_id("rw-pos")).to_have_text("–")


def test_preset_then_drag_stays_in_sync(page_a: Page, shared: Shared):
    page = page_a
    a = editor(page, "a")
    click_and_settle(page, shared.runs, a.get_by_role("button", name="System A", exact=True))  # then drag: no rerun
    expect_a(page, SYSTEM_A)
    expect(row(page, "a", "snake").get_by_test_id("rw-pos")).to_have_text("6")
    drag(page, row(page, "a", "snake"), row(page, "a", "django"), half="upper")
    expect_a(page, moved(SYSTEM_A, "snake", 0))

    click_and_settle(page, shared.runs, a.get_by_role("button", name="FastAPI missed", exact=True))
    missed = list(scenarios.FRAMEWORKS.presets["FastAPI missed"]) + ["html"]
    expect_a(page, missed, tray=["fastapi"])
    expect(row(page, "a", "fastapi")).to_be_hidden()  # a preset leaves the tray folded
    a.get_by_test_id("rw-tray-toggle").click()
    expect(row(page, "a", "fastapi").get_by_test_id("rw-pos")).to_have_text("–")
    row(page, "a", "fastapi").focus()
    page.keyboard.press("t")
    expect_a(page, missed + ["fastapi"])
    keys(page, "Space", "Home", "Space")
    expect_a(page, ["fastapi"] + missed)


def test_drag_auto_scrolls_a_long_list(lawyer_page: Page):
    """The lawyer's 20-row list on a 1280×720 screen: drag the last row to the top."""
    page = lawyer_page
    order = list(scenarios.LAWYER.presets["System A"])
    first, last = row(page, "a", order[0]), row(page, "a", order[-1])
    expect(first).to_be_visible()
    last.scroll_into_view_if_needed()
    expect(first).not_to_be_in_viewport()
    s = last.get_by_test_id("rw-title").bounding_box()
    page.mouse.move(s["x"] + 20, s["y"] + s["height"] / 2)
    page.mouse.down()
    page.mouse.move(s["x"] + 20, 12, steps=10)  # near the top edge: the page scrolls by itself
    expect(first).to_be_in_viewport()
    t = first.bounding_box()
    page.mouse.move(t["x"] + 200, t["y"] + 4, steps=3)
    page.mouse.up()
    expect(caption(page, "a", "Order")).to_have_text("Order: " + order_text(moved(order, order[-1], 0)))


def test_the_help_line_folds_the_other_keys_and_the_list_describes_them_all(page_a: Page):
    page = page_a
    hint = editor(page, "a").get_by_test_id("rw-hint")
    expect(hint).to_contain_text("Drag a row")
    more = hint.get_by_text("More keys")
    home = hint.locator("details kbd", has_text="Home")
    expect(home).to_be_hidden()  # folded
    more.click()
    expect(home).to_be_visible()
    lst = editor(page, "a").get_by_test_id("rw-list")
    expect(lst).to_have_accessible_description(re.compile("Drag a row.*Home.*End.*top, bottom.*Not returned"))
