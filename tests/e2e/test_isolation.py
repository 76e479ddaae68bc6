"""Two learners on one server stay apart: a reorder or a new k in one browser never shows up in the other.

Two browser contexts (two learners: separate cookies, separate Streamlit
sessions) open the Recall@k lesson on the same app server. Each changes its
ranking with the keyboard and its k with the slider; after every change, the
*other* learner's page is checked (order, k, URL and the metric values) and
then made to rerun its own fragment, so a value leaked through server-side
state would be drawn there. Expected values come from the engine
(components.metrics), as the page computes them; nothing is typed in.
"""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from components import metrics, scenarios
from components.formatting import fmt

pytestmark = pytest.mark.e2e

Q = scenarios.LAWYER
DEFAULT = list(Q.presets["System A"])  # the recall lesson's editor starts with System A's list
DEFAULT_K = 5
TITLES = {d.id: d.title for d in Q.docs}


@pytest.fixture
def learners(browser: Browser, browser_context_args, app_url):
    """Two learners, each in a browser context of its own, both on the Recall@k lesson (default view)."""
    contexts = [browser.new_context(**browser_context_args) for _ in range(2)]
    pages = []
    for context in contexts:  # one after the other: a cold server's first run imports everything
        page = context.new_page()
        page.set_viewport_size({"width": 1280, "height": 1400})
        page.goto(app_url + "/recall")
        expect(metric_value(page, f"Recall@{DEFAULT_K}")).to_be_visible(timeout=60_000)
        expect_view(page, DEFAULT, DEFAULT_K)
        pages.append(page)
    yield pages
    for context in contexts:
        context.close()


def moved(order: list[str], doc_id: str, index: int) -> list[str]:
    order = [i for i in order if i != doc_id]
    order.insert(index, doc_id)
    return order


def shown_metrics(order: list[str], k: int) -> dict[str, str]:
    """The scenario's three cards for this order and k, computed the page's way."""
    qs = metrics.from_rankings([Q.grades(order)], [Q.judged_grades()])
    return {f"Recall@{k}": fmt(metrics.recall(qs, k)[0]),
            "RR (next lesson)": fmt(metrics.reciprocal_rank(qs)[0]),
            f"nDCG@{k} (lesson 3)": fmt(metrics.ndcg(qs, k)[0])}


def metric_value(page: Page, label: str):
    card = page.get_by_test_id("stMetric").filter(
        has=page.get_by_test_id("stMetricLabel").get_by_text(label, exact=True))
    return card.get_by_test_id("stMetricValue")


def slider(page: Page):
    return page.get_by_role("slider", name="Cutoff k", exact=False).first


def row(page: Page, doc_id: str):
    return page.get_by_test_id(f"rw-row-{doc_id}")


def expect_view(page: Page, order: list[str], k: int) -> None:
    """The page shows exactly this ranking, this k (slider, URL, labels) and the engine's values for them."""
    for label, value in shown_metrics(order, k).items():
        expect(metric_value(page, label)).to_have_text(value)
    expect(page.get_by_test_id("rw-list").get_by_test_id("rw-title")).to_have_text([TITLES[i] for i in order])
    expect(slider(page)).to_have_value(str(k))
    expect(page).to_have_url(re.compile(rf"[?&]k={k}(&|$)"))


def test_a_reorder_and_a_new_k_in_one_session_leave_the_other_unchanged(learners):
    a, b = learners

    # learner A: a non-relevant case to the top (Home), then k down by one
    row(a, "n11").focus()
    a.keyboard.press("Home")
    order_a = moved(DEFAULT, "n11", 0)
    expect_view(a, order_a, DEFAULT_K)
    slider(a).focus()
    a.keyboard.press("ArrowLeft")
    k_a = DEFAULT_K - 1
    expect_view(a, order_a, k_a)

    # learner B has not moved: still the default view, not A's
    expect_view(b, DEFAULT, DEFAULT_K)
    assert metric_value(b, f"Recall@{k_a}").count() == 0

    # B's own move reruns B's fragment: B's order at B's k, nothing of A's
    row(b, "c04").focus()
    b.keyboard.press("ArrowDown")
    order_b = moved(DEFAULT, "c04", DEFAULT.index("c04") + 1)
    expect_view(b, order_b, DEFAULT_K)

    # A reruns in turn: A's order and k, nothing of B's
    row(a, "n11").focus()
    a.keyboard.press("ArrowDown")
    order_a = moved(order_a, "n11", 1)
    expect_view(a, order_a, k_a)
    assert shown_metrics(order_a, k_a) != shown_metrics(order_b, DEFAULT_K)  # the two views really differ
    expect_view(b, order_b, DEFAULT_K)
