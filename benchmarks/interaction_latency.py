"""Time the ranking editor in a real browser: mouse-up or key press to the updated metric text.

Starts ``streamlit run <page>`` on a free port on 127.0.0.1, opens it in
Debian's Chromium (headless), and moves one document of the page's first
ranking editor back and forth, by mouse drag and by keyboard (lift, move, drop), timing each move
from the ``pointerup`` / dropping ``keydown`` event to the first change of any
``st.metric`` value (both timestamps are taken inside the page). On a page
whose editor has a live scoreboard it also times the preview: from one
``pointermove`` of a drag in progress to the first change of the board
(no server round trip). Prints the median and 95th percentile for each way.
Targets: preview median <= 16 ms, p95 <= 33 ms (one to two frames); drop or
key to the cards median <= 100 ms, p95 <= 200 ms with server and browser on
the same 2-core machine.

    python benchmarks/interaction_latency.py [page.py] [--url-path ndcg] [--moves 40] [--editor 0]

The default page is the editor's test page (tests/e2e/editor_page.py). For a
lesson, pass the lesson's script (lessons/<name>.py runs standalone), or
``app.py --url-path <page url path>`` to go through the app's navigation.
The moved pair is the first two adjacent rows with different grades, so every
move changes at least one order-aware metric (RR or nDCG@k) on a lesson page.

``--reference`` also times a bare page (one st.button and one st.metric in a
fragment) the same way: Streamlit's own round trip on this machine at this
moment, the floor under any page; compare with it when the machine is busy.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import Locator, Page, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run as a script from anywhere: the tests' launcher lives in the repo

from tests.conftest import start_streamlit  # noqa: E402
from tests.e2e.helpers import IDLE  # noqa: E402

DEFAULT_PAGE = ROOT / "tests" / "e2e" / "editor_page.py"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]

# Installed in the page: stamps the start event and the first moment after it when the server's values are on
# screen: a metric card's changed, or (a lesson, whose numbers are on the editor's board, previewed during the
# drag) the first editor's board changed and no longer a preview, which it stays until the server's run is in.
PROBE = """
() => {
  if (window.__latency) return;
  const host = [...document.querySelectorAll("*")].find((e) => e.shadowRoot && e.shadowRoot.querySelector(".rw-score"));
  const board = host ? host.shadowRoot.querySelector(".rw-score") : null;
  const cards = '[data-testid="stMetricValue"]';
  const values = () => [...document.querySelectorAll(cards)].map((e) => e.textContent).join("|")
    + "|" + (board && !board.hidden ? board.querySelector(".rw-score-cells").textContent : "");
  const answered = () => !board || !board.classList.contains("rw-preview");
  const probe = { t0: null, t1: null, baseline: null };
  window.__latency = probe;
  window.__latencyArm = () => { probe.t0 = null; probe.t1 = null; probe.baseline = values(); };
  const start = () => { if (probe.t0 === null) probe.t0 = performance.now(); };
  window.addEventListener("pointerup", start, true);
  window.addEventListener("keydown", start, true);
  const stamp = () => {
    if (probe.t0 !== null && probe.t1 === null && values() !== probe.baseline && answered()) probe.t1 = performance.now();
  };
  const watch = { subtree: true, childList: true, characterData: true, attributes: true };
  new MutationObserver(stamp).observe(document.body, watch);
  if (host) new MutationObserver(stamp).observe(host.shadowRoot, watch);
}
"""


# Installed in the page: stamps the first pointermove after arming and the first change of the first
# editor's live scoreboard after it (the board sits in the editor's shadow root, where the page's
# MutationObserver cannot see).
PREVIEW_PROBE = """
() => {
  if (window.__preview) return;
  const board = ".rw-score:not([hidden]) .rw-score-cells, .rf-score-cells";
  const host = [...document.querySelectorAll("*")].find((e) => e.shadowRoot && e.shadowRoot.querySelector(board));
  if (!host) throw new Error("no editor or figure with a live scoreboard on this page");
  const cells = host.shadowRoot.querySelector(board);
  const probe = { armed: false, t0: null, t1: null, baseline: null };
  window.__preview = probe;
  window.__previewArm = () => { probe.armed = true; probe.t0 = null; probe.t1 = null; probe.baseline = cells.textContent; };
  window.addEventListener("pointermove", () => { if (probe.armed && probe.t0 === null) probe.t0 = performance.now(); },
                          true);
  new MutationObserver(() => {
    if (probe.t0 !== null && probe.t1 === null && cells.textContent !== probe.baseline) probe.t1 = performance.now();
  }).observe(cells, { subtree: true, childList: true, characterData: true });
}
"""


def start_server(script: Path) -> tuple[subprocess.Popen, str]:
    """``streamlit run script`` on a free port (the test suite's own launcher)."""
    return start_streamlit(script, cwd=ROOT)


def rows_of(page: Page, editor: int) -> Locator:
    return page.get_by_test_id("rw-list").nth(editor).locator("li.rw-row")


def drop_point(box: dict, before: bool) -> tuple[float, float]:
    """Where to release over a row to land before (or after) it: its first or last fifth."""
    return box["x"] + box["width"] / 2, box["y"] + box["height"] * (0.2 if before else 0.8)


def grade_of(row: Locator) -> str:
    return row.evaluate("li => li.querySelector('.rw-badge-num').textContent")


def pick_pair(page: Page, editor: int) -> int:
    """Index j of the first row whose grade differs from the row above it (the pair is j-1, j)."""
    rows = rows_of(page, editor)
    grades = [grade_of(rows.nth(i)) for i in range(min(rows.count(), 12))]
    for j in range(1, len(grades)):
        if grades[j] != grades[j - 1]:
            return j
    raise SystemExit(f"the first rows of editor {editor} all have the same grade: no move would change a metric")


TWO_FRAMES = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"


def wait_idle(page: Page, timeout: float = 10_000) -> None:
    """Wait for the app to finish its reruns (a lesson's editor's own, then its section's) and the component to
    settle before the next move."""
    page.wait_for_function(IDLE, polling=20, timeout=timeout)
    page.evaluate(TWO_FRAMES)


def timed(page: Page, action) -> float:
    """Milliseconds from the action's start event to the first metric change."""
    page.evaluate("() => window.__latencyArm()")
    action()
    page.wait_for_function("() => window.__latency.t1 !== null", timeout=10_000)
    ms = page.evaluate("() => window.__latency.t1 - window.__latency.t0")
    wait_idle(page)
    return ms


def drag_move(page: Page, editor: int, j: int, step: int) -> float:
    """Drag row j onto the upper half of row j-1 (even steps), or back below it (odd steps);
    time from the release."""
    rows = rows_of(page, editor)
    source, target = (rows.nth(j), rows.nth(j - 1)) if step % 2 == 0 else (rows.nth(j - 1), rows.nth(j))
    source.scroll_into_view_if_needed()
    s = source.locator(".rw-title").bounding_box()
    t = target.bounding_box()
    x, y = drop_point(t, before=step % 2 == 0)

    page.mouse.move(s["x"] + s["width"] / 2, s["y"] + s["height"] / 2)
    page.mouse.down()
    page.mouse.move(x, y, steps=5)
    # A person's drag lasts longer than a frame: let the drag's frames render before the
    # release, so the figure is what the learner waits for after letting go.
    page.evaluate(TWO_FRAMES)
    return timed(page, page.mouse.up)


def preview_move(page: Page, editor: int, j: int, step: int) -> float:
    """Lift row j (or j-1), then one pointer move over its neighbour: time from that pointermove to the first
    change of the live scoreboard (the preview, before any drop); then drop it there."""
    rows = rows_of(page, editor)
    source, target = (rows.nth(j), rows.nth(j - 1)) if step % 2 == 0 else (rows.nth(j - 1), rows.nth(j))
    source.scroll_into_view_if_needed()
    s = source.locator(".rw-title").bounding_box()
    t = target.bounding_box()
    x0, y0 = s["x"] + s["width"] / 2, s["y"] + s["height"] / 2
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move(x0, y0 + (8 if step % 2 else -8), steps=2)  # past the drag threshold, over its own slot
    page.evaluate(TWO_FRAMES)
    return timed_preview(page, drop_point(t, before=step % 2 == 0))


def timed_preview(page: Page, to: tuple[float, float]) -> float:
    """With a drag under way: milliseconds from one pointer move to ``to`` to the scoreboard's first change;
    then the drop, and the app's rerun."""
    page.evaluate("() => window.__previewArm()")
    page.mouse.move(*to)
    page.wait_for_function("() => window.__preview.t1 !== null", timeout=10_000)
    ms = page.evaluate("() => window.__preview.t1 - window.__preview.t0")
    page.evaluate("() => { window.__preview.armed = false; }")
    page.mouse.up()
    wait_idle(page)
    return ms


def key_move(page: Page, editor: int, j: int, step: int) -> float:
    """Focus row j, lift it (Space), ArrowUp, drop it (Space) (even steps), or the same from row j-1 with
    ArrowDown (odd steps); time from the dropping key press (the one change sent)."""
    rows = rows_of(page, editor)
    row, key = (rows.nth(j), "ArrowUp") if step % 2 == 0 else (rows.nth(j - 1), "ArrowDown")
    row.focus()
    page.keyboard.press("Space")
    page.keyboard.press(key)
    page.evaluate(TWO_FRAMES)
    return timed(page, lambda: page.keyboard.press("Space"))


# The four-query figure (components/rank_figure): query 4's dot between slots 6 and 7 (ranks 7 and 8,
# so MRR changes on every move), by mouse, by a key (previewed) then Enter (sent), and the preview alone.

def figure_slot(page: Page, slot: int) -> tuple[float, float]:
    box = page.locator(f'.rf-slot[data-slot="{slot}"]').nth(3).bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def figure_press(page: Page) -> tuple[float, float]:
    """Press on query 4's dot and move past the drag threshold within its own slot."""
    dot = page.get_by_test_id("rf-dot-4")
    dot.scroll_into_view_if_needed()
    box = dot.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 6, y, steps=2)
    page.evaluate(TWO_FRAMES)
    return x, y


def figure_drag(page: Page, _editor: int, _j: int, step: int) -> float:
    figure_press(page)
    page.mouse.move(*figure_slot(page, 6 if step % 2 == 0 else 7), steps=5)
    page.evaluate(TWO_FRAMES)
    return timed(page, page.mouse.up)


def figure_preview(page: Page, _editor: int, _j: int, step: int) -> float:
    figure_press(page)
    return timed_preview(page, figure_slot(page, 6 if step % 2 == 0 else 7))


def figure_key(page: Page, _editor: int, _j: int, step: int) -> float:
    page.get_by_test_id("rf-dot-4").focus()
    page.keyboard.press("ArrowLeft" if step % 2 == 0 else "ArrowRight")  # drawn and previewed, not sent
    page.evaluate(TWO_FRAMES)
    return timed(page, lambda: page.keyboard.press("Enter"))


REFERENCE_PAGE = """
import streamlit as st
st.session_state.setdefault("n", 0)

@st.fragment
def counter():
    if st.button("Add one", key="add"):
        st.session_state.n += 1
    st.metric("count", st.session_state.n)

counter()
"""


def reference_run(browser, moves: int, warmup: int) -> list[float]:
    """Click → metric on a bare page: the Streamlit round trip alone."""
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "reference_page.py"
        script.write_text(REFERENCE_PAGE)
        proc, url = start_server(script)
        try:
            page = browser.new_page()
            page.goto(url)
            page.get_by_test_id("stMetricValue").wait_for()
            wait_idle(page)
            page.evaluate(PROBE)
            add = page.get_by_role("button", name="Add one")
            times = [timed(page, add.click) for _ in range(warmup + moves)]
            page.close()
            return times[warmup:]
        finally:
            proc.terminate()
            proc.wait(10)


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0..100), linear interpolation between order statistics."""
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100
    lo = int(pos)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


def report(name: str, values: list[float]) -> None:
    print(f"{name:<22} n={len(values):<3} median {statistics.median(values):6.1f} ms   "
          f"p95 {percentile(values, 95):6.1f} ms   min {min(values):6.1f}   max {max(values):6.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("page", nargs="?", default=str(DEFAULT_PAGE), help="the Streamlit script to serve")
    parser.add_argument("--url-path", default="", help="page URL path under the app (e.g. 'ndcg' with app.py)")
    parser.add_argument("--moves", type=int, default=40, help="timed moves per way (at least 30)")
    parser.add_argument("--warmup", type=int, default=4, help="untimed moves per way first")
    parser.add_argument("--editor", type=int, default=0, help="which editor on the page (0 = the first)")
    parser.add_argument("--viewport", default="1280x900", help="browser window, WIDTHxHEIGHT")
    parser.add_argument("--reference", action="store_true", help="also time a bare button -> metric page")
    args = parser.parse_args()
    if args.moves < 30:
        parser.error("--moves must be at least 30")
    width, height = (int(x) for x in args.viewport.split("x"))

    proc, url = start_server(Path(args.page).resolve())
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": width, "height": height})
            page.goto(f"{url}/{args.url_path}")
            page.locator('[data-testid="rw-list"] li.rw-row, [data-testid="rf-figure"]').first.wait_for(timeout=60_000)
            wait_idle(page, timeout=60_000)  # a cold server's first page run imports everything
            page.evaluate(PROBE)
            results = {}
            if page.get_by_test_id("rf-figure").count():
                j = 0
                print(f"page {args.page} /{args.url_path}: moving query 4's dot between ranks 7 and 8")
                page.evaluate(PREVIEW_PROBE)
                ways = [("mouse-up -> metric", figure_drag), ("key enter -> metric", figure_key),
                        ("pointer move -> preview", figure_preview)]
            else:
                j = pick_pair(page, args.editor)
                print(f"page {args.page} /{args.url_path}: moving rows {j} and {j + 1} of editor {args.editor}")
                ways = [("mouse-up -> metric", drag_move), ("key drop -> metric", key_move)]
                if page.evaluate("() => [...document.querySelectorAll('*')].some((e) => e.shadowRoot && "
                                 "e.shadowRoot.querySelector('.rw-score:not([hidden])'))"):
                    page.evaluate(PREVIEW_PROBE)
                    ways.append(("pointer move -> preview", preview_move))
            for name, move in ways:
                for step in range(args.warmup):
                    move(page, args.editor, j, step)
                results[name] = [move(page, args.editor, j, args.warmup + step) for step in range(args.moves)]
            page.close()
            if args.reference:
                results["reference (bare page)"] = reference_run(browser, args.moves, args.warmup)
            browser.close()
    finally:
        proc.terminate()
        proc.wait(10)
    for name, values in results.items():
        report(name, values)
    print("targets: pointer move -> preview median <= 16 ms, p95 <= 33 ms; "
          "mouse-up/key -> metric median <= 100 ms, p95 <= 200 ms")
    print(f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
