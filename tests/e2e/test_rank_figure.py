"""The four-query figure in a real browser: dots and the cutoff line drag, keys and buttons move them,
the scoreboard previews the engine's values mid-drag, and every position fits each screen.

One page for the module; each test starts from the lesson's ranks (1, 3, 1, 8) at k = 5. An instructor's modes
(predict first, projector) get one page of their own. What the server sends the figure for a link's ranks is
checked in tests/pages/test_four_queries_page.py. Expected values come from the engine for the ranks the test
makes, never typed in.
"""
from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from components.course import scenarios
from components.engine import metrics
from components.engine.formatting import fmt
from tests.e2e.helpers import board_value, hold_changes, next_frames, release_changes, settle
from tests.e2e.navigation import open_shared_page, visit

pytestmark = pytest.mark.e2e
RANKS = list(scenarios.FOUR_QUERY_HIT_RANKS)  # 1, 3, 1, 8
SCREENS = [(1400, 900), (1024, 768), (390, 844)]
PROJECTOR_SCREEN = (1280, 720)
WIDE = {"width": 1400, "height": 1000}


def means(ranks, k: int = 5) -> list[str]:
    qs = scenarios.four_query_set(ranks)
    return [fmt(metrics.recall(qs, k).mean()), fmt(metrics.reciprocal_rank(qs).mean())]


def board(page: Page):
    return page.get_by_test_id("rf-scoreboard").locator(".rf-score-value")


@pytest.fixture(scope="module")
def lesson(shared_context, app_url) -> Page:
    """The module's one page (one session), on the four-query lesson."""
    page = open_shared_page(shared_context, app_url + "/four-queries", WIDE)
    yield page
    page.close()


def the_brief(page: Page) -> Page:
    """The figure at the lesson's ranks (its preset button) and k = 5 (the line's keys), in view, the run over."""
    page.set_viewport_size(WIDE)
    visit(page, "four_queries")
    line = page.get_by_test_id("rf-cutoff")
    if line.get_attribute("aria-valuenow") != "5":
        line.focus()
        for key in ("Home", *["ArrowRight"] * 4, "Enter"):  # k = 1, then 5, sent at once
            page.keyboard.press(key)
        expect(page.locator("input[type=range]").first).to_have_attribute("value", "5")
    page.locator(".st-key-four-preset-brief button").click()
    expect(board(page)).to_have_text(means(RANKS))
    settle(page)
    page.get_by_test_id("rf-figure").scroll_into_view_if_needed()
    return page


def slot_centre(page: Page, query: int, slot: int) -> tuple[float, float]:
    """The centre of query ``query``'s slot (0-based: positions 1..10, then 10 = not returned)."""
    box = page.locator(f'.rf-slot[data-slot="{slot}"]').nth(query - 1).bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def moves_sent(page: Page) -> int:
    """How many changes the figure has sent to Python (its sequence number)."""
    return page.get_by_test_id("rf-figure").evaluate(
        "e => { let n = e; while (n && !n.__rankwiseFigure) n = n.parentNode; return n.__rankwiseFigure.sent; }")


def press_drag(page: Page, source, to: tuple[float, float]) -> None:
    box = source.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(*to, steps=8)


def test_a_dot_drag_previews_then_the_server_agrees(lesson: Page):
    page = the_brief(lesson)
    press_drag(page, page.get_by_test_id("rf-dot-4"), slot_centre(page, 4, 3))  # query 4: rank 8 -> 4
    moved = [1, 3, 1, 4]
    expect(board(page)).to_have_text(means(moved))  # mouse still down
    expect(page.get_by_test_id("rf-scoreboard")).to_have_class("rf-score rf-preview")
    expect(page.get_by_test_id("rf-score-note")).to_contain_text("Query 4's answer entered the top 5")
    page.mouse.up()
    expect(page.get_by_test_id("rf-scoreboard")).to_have_class("rf-score")  # the server's run is in: no preview left
    expect(board_value(page, "MRR", prefix="rf")).to_have_text(means(moved)[1])
    expect(board_value(page, "recall@5", prefix="rf")).to_have_text(means(moved)[0])
    expect(page.get_by_test_id("rf-rr-4")).to_contain_text(fmt(1 / 4))
    assert "ranks=1%2C3%2C1%2C4" in page.url or "ranks=1,3,1,4" in page.url


def test_a_drag_held_while_the_last_drops_answer_arrives_goes_on(lesson: Page):
    """A drop's answer that only confirms the ranks dropped, come while the next drag is held, leaves that drag
    alone: its preview stays, and it lands where it shows. (The first drop's change is held in the page.)"""
    page = the_brief(lesson)
    figure = page.get_by_test_id("rf-figure")
    hold_changes(figure, "__rankwiseFigure")
    press_drag(page, page.get_by_test_id("rf-dot-4"), slot_centre(page, 4, 3))  # query 4: rank 8 -> 4, held
    page.mouse.up()
    press_drag(page, page.get_by_test_id("rf-dot-2"), slot_centre(page, 2, 1))  # query 2: rank 3 -> 2, still down
    both = [1, 2, 1, 4]
    dot = page.get_by_test_id("rf-dot-2")
    expect(dot).to_have_attribute("aria-valuenow", "2")
    assert release_changes(figure, "__rankwiseFigure") == 1  # the first drop's answer drawn during this drag
    expect(dot).to_have_attribute("aria-valuenow", "2")
    expect(board(page)).to_have_text(means(both))  # now one move from Python's ranks: previewed from its table
    expect(page.get_by_test_id("rf-scoreboard")).to_have_class("rf-score rf-preview")  # still dragging
    page.mouse.up()
    expect(page.get_by_test_id("rf-scoreboard")).to_have_class("rf-score")
    expect(board_value(page, "MRR", prefix="rf")).to_have_text(means(both)[1])
    expect(page.get_by_test_id("rf-rr-2")).to_contain_text(fmt(1 / 2))


def test_the_cutoff_line_drags_and_moves_the_slider(lesson: Page):
    page = the_brief(lesson)
    line = page.get_by_test_id("rf-cutoff")
    x9, _ = slot_centre(page, 1, 8)
    x10, y = slot_centre(page, 1, 9)
    press_drag(page, line.locator(".rf-cut-handle"), ((x9 + x10) / 2, y))  # the line after position 9
    expect(board(page)).to_have_text(means(RANKS, k=9))  # mouse still down: recall@9 previewed
    expect(page.get_by_test_id("rf-scoreboard").locator(".rf-score-label").first).to_have_text("recall@9")
    page.mouse.up()
    expect(board_value(page, "recall@9", prefix="rf")).to_have_text(means(RANKS, k=9)[0])
    expect(page.locator("input[type=range]").first).to_have_attribute("value", "9")  # the page's slider
    expect(line).to_have_attribute("aria-valuenow", "9")


def test_arrow_keys_move_a_dot_and_send_one_change(lesson: Page):
    page = the_brief(lesson)
    dot = page.get_by_test_id("rf-dot-4")
    dot.focus()
    sent = moves_sent(page)
    for _ in range(4):  # one quick run of presses, as a person taps: rank 8 -> 4, drawn and previewed at once
        page.keyboard.press("ArrowLeft")
    expect(dot).to_have_text("4")
    expect(board(page)).to_have_text(means([1, 3, 1, 4]))
    expect(page.get_by_test_id("rf-scoreboard")).to_have_class("rf-score")  # sent once the keys rest; answered
    expect(board_value(page, "MRR", prefix="rf")).to_have_text(means([1, 3, 1, 4])[1])
    assert moves_sent(page) == sent + 1  # four presses, one change
    expect(dot).to_be_focused()
    expect(dot).to_have_attribute("aria-valuetext", "Query 4: answer at rank 4, inside the top 5, counted, RR 0.250")
    page.keyboard.press("End")  # not returned
    page.keyboard.press("Enter")  # sent at once
    expect(page.get_by_test_id("rf-scoreboard")).to_have_class("rf-score")  # answered
    expect(board_value(page, "MRR", prefix="rf")).to_have_text(means([1, 3, 1, None])[1])
    expect(dot).to_have_text("–")


def test_the_buttons_move_a_dot_one_place(lesson: Page):
    page = the_brief(lesson)
    page.get_by_role("button", name="Move the answer of Query 2 one place up (towards rank 1)").click()
    expect(page.get_by_test_id("rf-scoreboard")).to_have_class("rf-score")  # answered
    expect(board_value(page, "MRR", prefix="rf")).to_have_text(means([1, 2, 1, 8])[1])
    earlier = page.get_by_role("button", name="Move the answer of Query 1 one place up (towards rank 1)")
    expect(earlier).to_have_attribute("aria-disabled", "true")


def figure_fits(page: Page, sizes, mode: str) -> None:
    """At each size in turn (the figure lays itself out again, as on a turned phone): the figure, every slot of
    every query and no sideways scrolling fit the screen, and each dot is at least 24×24 px."""
    figure = page.get_by_test_id("rf-figure")
    for width, height in sizes:
        page.set_viewport_size({"width": width, "height": height})
        figure.scroll_into_view_if_needed()
        next_frames(page, 3)  # laid out at the new size
        box = figure.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, f"the figure is wider than the {width}-px screen ({mode})"
        no_sideways = page.evaluate("() => { const m = document.querySelector('[data-testid=stMain]');"
                                    " return m.scrollWidth <= m.clientWidth + 1; }")
        assert no_sideways, f"the page scrolls sideways at {width}x{height} ({mode})"
        for q in range(1, 5):
            for slot in range(11):
                x, _ = slot_centre(page, q, slot)
                assert 0 <= x <= width, f"query {q}'s slot {slot + 1} is off screen at {width}px ({mode})"
            dot = page.get_by_test_id(f"rf-dot-{q}").bounding_box()
            assert dot["width"] >= 24 and dot["height"] >= 24, "a dot is smaller than 24×24 px"


def test_every_position_and_every_hit_fits_the_screen(lesson: Page):
    """One page, resized to each screen in turn."""
    page = the_brief(lesson)
    try:
        figure_fits(page, SCREENS, "plain")
    finally:
        page.set_viewport_size(WIDE)


def test_an_instructors_figure_hides_its_numbers_until_revealed_and_fits_a_projector(shared_context, app_url):
    """Predict first: the scoreboard and each query's RR show "?" until the class reveals the numbers. In projector
    mode (larger type) every position and every hit still fits the screen."""
    width, height = PROJECTOR_SCREEN
    page = open_shared_page(shared_context, app_url + "/four-queries?projector=1&predict_first=1",
                            {"width": width, "height": height})
    try:
        expect(board(page)).to_have_text(["?", "?"])
        expect(page.get_by_test_id("rf-rr-1")).to_contain_text("?")
        page.get_by_role("button", name="Reveal the numbers").click()
        expect(board(page)).to_have_text(means(RANKS))
        settle(page)
        assert page.evaluate("() => parseFloat(getComputedStyle(document.documentElement).fontSize)") > 16
        figure_fits(page, [PROJECTOR_SCREEN], "projector")
    finally:
        page.close()
