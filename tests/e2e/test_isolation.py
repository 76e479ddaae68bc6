"""Two learners on one server stay apart: a reorder or a new k in one browser never shows up in the other.

Two pages (two learners: two Streamlit sessions, which is all a learner's state
is kept in; they share the module's browser context, so its assets load once)
open the Recall@k lesson on the same app server and take turns:
one reorders with the keyboard (lift, move, drop), then the other moves its k slider, and so on.
A slider move reruns the learner's fragment *without* sending an order, so an
order (or a k) kept anywhere but the learner's own session, e.g. in a module,
would be drawn right then; after every turn both pages are checked (ranking,
slider, URL and metric values). Expected values come from the engine
(components.engine.metrics), as the page computes them; nothing is typed in.
"""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from components.course import scenarios
from components.engine import metrics
from components.engine.formatting import fmt
from tests.e2e.helpers import board_value, lesson_editor

pytestmark = pytest.mark.e2e

Q = scenarios.LAWYER
DEFAULT = list(Q.presets["System A"])  # the recall lesson's editor starts with System A's list
DEFAULT_K = 5
TITLES = {d.id: d.title for d in Q.docs}


@pytest.fixture
def learners(shared_context, app_url):
    """Two learners, each in a page (a session) of their own, both on the Recall@k lesson (default view)."""
    pages = []
    for _ in range(2):  # one after the other: a cold server's first run imports everything
        page = shared_context.new_page()
        page.set_viewport_size({"width": 1280, "height": 1400})
        page.goto(app_url + "/recall")
        expect(board_value(page, f"Recall@{DEFAULT_K}")).to_be_visible(timeout=60_000)
        expect_view(page, DEFAULT, DEFAULT_K)
        pages.append(page)
    yield pages
    for page in pages:
        page.close()


def moved(order: list[str], doc_id: str, index: int) -> list[str]:
    order = [i for i in order if i != doc_id]
    order.insert(index, doc_id)
    return order


def shown_metrics(order: list[str], k: int) -> dict[str, str]:
    """The lesson board's three values for this order and k, computed the page's way."""
    qs = metrics.from_rankings([Q.grades(order)], [Q.judged_grades()])
    return {f"Recall@{k}": fmt(metrics.recall(qs, k)[0]),
            "RR (next lesson)": fmt(metrics.reciprocal_rank(qs)[0]),
            f"nDCG@{k} (exponential gain)": fmt(metrics.ndcg(qs, k)[0])}


def slider(page: Page):
    return page.get_by_role("slider", name="Cutoff k", exact=False).first


def row(page: Page, doc_id: str):
    return lesson_editor(page).get_by_test_id(f"rw-row-{doc_id}")


def expect_view(page: Page, order: list[str], k: int) -> None:
    """The page shows exactly this ranking, this k (slider, URL, labels) and the engine's values for them."""
    for label, value in shown_metrics(order, k).items():
        expect(board_value(page, label)).to_have_text(value)
    expect(lesson_editor(page).get_by_test_id("rw-list").get_by_test_id("rw-title")).to_have_text([TITLES[i] for i in order])
    expect(slider(page)).to_have_value(str(k))
    expect(page).to_have_url(re.compile(rf"[?&]k={k}(&|$)"))


def move_k(page: Page, key: str) -> None:
    slider(page).focus()
    page.keyboard.press(key)


def test_a_reorder_and_a_new_k_in_one_session_leave_the_other_unchanged(learners):
    a, b = learners

    # A moves a non-relevant case to the top (Home)
    row(a, "n11").focus()
    for key in ("Space", "Home", "Space"):  # lift, move to the top, drop
        a.keyboard.press(key)
    order_a, k_a = moved(DEFAULT, "n11", 0), DEFAULT_K
    expect_view(a, order_a, k_a)

    # B still shows the default; B's slider reruns B's fragment without sending an order,
    # so an order kept anywhere but B's own session would be drawn now
    expect_view(b, DEFAULT, DEFAULT_K)
    move_k(b, "ArrowRight")
    order_b, k_b = DEFAULT, DEFAULT_K + 1
    expect_view(b, order_b, k_b)

    # A kept its k; A's own slider move shows A's order, not B's k
    expect_view(a, order_a, k_a)
    move_k(a, "ArrowLeft")
    k_a -= 1
    expect_view(a, order_a, k_a)

    # B reorders; A's next slider move must still show A's order
    row(b, "c04").focus()
    for key in ("Space", "ArrowDown", "Space"):
        b.keyboard.press(key)
    order_b = moved(DEFAULT, "c04", DEFAULT.index("c04") + 1)
    expect_view(b, order_b, k_b)
    move_k(a, "ArrowRight")
    k_a += 1
    expect_view(a, order_a, k_a)
    assert shown_metrics(order_a, k_a) != shown_metrics(order_b, k_b)  # the two views really differ
    expect_view(b, order_b, k_b)
