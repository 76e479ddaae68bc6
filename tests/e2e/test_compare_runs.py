"""The "Compare runs" page in a real browser: the samples plus a third run uploaded through the file input, the
correction switched, a query opened, and the queries needed planned. Expected numbers come from the engine."""
from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from components.engine import compare, many_runs, power
from components.engine.formatting import fmt
from components.formats import trec
from tests.e2e.helpers import current, metric_value, settle

pytestmark = pytest.mark.e2e

ASSETS = Path(__file__).resolve().parents[2] / "assets"
QRELS = ASSETS / "sample_qrels.txt"
RUNS = [ASSETS / n for n in ("sample_run.txt", "sample_run_b.txt", "sample_run_c.txt")]
MEASURES = ["R@10", "RR", "AP", "nDCG@10"]


def reversed_run() -> bytes:
    """A fourth run: the first run's lists, each reversed."""
    rows: dict[str, list[str]] = {}
    for line in RUNS[0].read_text().splitlines():
        rows.setdefault(line.split()[0], []).append(line.split()[2])
    return "".join(f"{q} Q0 {d} {r} {100 - r} rev\n" for q, docs in rows.items()
                   for r, d in enumerate(reversed(docs), 1)).encode()


def expected(correction: str = "holm") -> many_runs.ManyRuns:
    judged = [trec.load(QRELS.read_bytes(), r) for r in (*(p.read_bytes() for p in RUNS), reversed_run())]
    return many_runs.compare_many(judged, list("ABCD"), MEASURES, "linear", 0, correction)


def test_runs_compared_corrected_explained_and_planned(page: Page, app_url):
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(app_url + "/compare-runs")
    page.get_by_role("button", name="Use the samples").click()
    expect(page.get_by_text("sample_run_c.txt")).to_be_visible(timeout=30_000)
    settle(page)
    uploader = page.get_by_test_id("stFileUploader").locator("input[type=file]")
    uploader.set_input_files({"name": "reversed.txt", "mimeType": "text/plain", "buffer": reversed_run()})
    expect(page.get_by_text("reversed.txt")).to_be_visible(timeout=30_000)
    settle(page)

    result = expected()
    b_recall = result.versus["B", "R@10"]  # the pair the reading under "Why did a query change?" opens on
    reading = current(page).get_by_test_id("stAlert").filter(has_text="comparisons on this page")
    expect(reading).to_contain_text(f"after Holm's correction its p is {compare.format_p(b_recall.p_rand)}")
    expect(page.get_by_text("across the 12 comparisons (3 runs × 4 measures)").first).to_be_visible()
    page.get_by_test_id("stButtonGroup").filter(has_text="Bonferroni").get_by_text("Bonferroni").click()
    bonferroni = expected("bonferroni").versus["B", "R@10"]
    expect(reading).to_contain_text(f"after Bonferroni's correction its p is {compare.format_p(bonferroni.p_rand)}")

    explained = page.get_by_test_id("stButtonGroup").filter(has_text="nDCG@10 (linear gain)").first
    explained.get_by_text("nDCG@10 (linear gain)").click()  # the measure explained
    settle(page)
    ndcg = result.versus["B", "nDCG@10"].comparison
    qids = result.pairings["B"].qids
    largest = qids[max(range(len(qids)), key=lambda i: abs(ndcg.diff[i]))]  # the picker opens on it
    expect(page.get_by_text(f"Query {largest}, the top 10 of run A (left) and run B (right)")).to_be_visible()
    expect(page.get_by_text("split by each document's own term").first).to_be_visible()
    settle(page)  # the picker is drawn again by any run still under way
    second = qids[sorted(range(len(qids)), key=lambda i: -abs(ndcg.diff[i]))[1]]  # the next-largest change
    picker = page.get_by_role("combobox", name="Query (largest change first)").first
    picker.scroll_into_view_if_needed()
    picker.click()
    page.get_by_role("option").filter(has_text=f"{second} (").first.click()
    expect(page.get_by_text(f"Query {second}, the top 10 of run A (left) and run B (right)")).to_be_visible()

    delta = current(page).get_by_role("spinbutton", name="Difference to detect")
    delta.fill("0.1")
    delta.press("Enter")
    plan = power.plan(result.versus["B", "R@10"].comparison.diff, 0.1)
    expect(metric_value(page, "Queries needed")).to_have_text(f"{plan.queries_needed:,}")
    expect(metric_value(page, "Detectable now")).to_have_text(fmt(plan.detectable))
