"""Measure every page against the height budgets of issue #42 ("Every lesson in a few screens"), in a real browser.

Starts the app (``streamlit run app.py``) on a free port on 127.0.0.1 and opens each page of the registry in a
fresh browser context of Debian's Chromium, headless, twice:

- **laptop**: 1366×768, as a learner first opens it (sidebar shown);
- **projector**: 1280×720 with ``?projector=1``, which opens with the sidebar folded (app.py's
  ``initial_sidebar_state``; the script checks that the sidebar is off screen).

Each page is opened in its default state ("predict first" off, nothing opened or answered). The script waits
until the run is over, no skeleton is left, every ranking editor has drawn its rows and every rank figure itself,
scrolls once through the page (anything drawn when it comes into view is drawn) and waits until the page's height
and its rows stay the same over 30 painted frames. Then, for each page:

- **height, screens**: the scroll height of Streamlit's scrolling container (``stMain``), and that height over
  the window's height (one decimal);
- **rows**: the rows of ranked lists in the page's DOM: every ranking editor's list and tray rows (a folded tray's
  rows count; ``components/ranking_editor/editor.js``'s ``li.rw-row``, inside each component's open shadow root)
  and every rank strip's rows (``components/ranking_editor/strip/``: a strip is one row of cells, so one row, or
  the lines its cells take where they wrap). "hidden" says how many of them have no box (a folded tray, a tab not
  shown);
- **tallest section** at projector size: a section runs from one ``st.subheader`` (an ``h3`` in a ``stHeading``)
  to the next, the last one to the end of the page's content; what is above the first one (title and
  introduction) is shown apart as "top". Every section over 720 px is named with its height.

Budgets (issue #42): each lesson at most 7 screens at 1366×768; the seven lessons from "Why accuracy fails" to
"Choosing a metric" (the registry's ``in_sequence`` pages from ``accuracy`` to ``choosing``, but for the lessons
added later, :data:`LATER`, which keep their own budget of 7 screens beside the total) together at most 40
screens there and at most 60 at 1280×720 projected; at most 50 rows of ranked lists on a page; every section fits
one 720 px projector screen. ``ok`` or ``OVER`` marks each.

``--screenshots DIR`` also saves each page at its full height (the window grown to the page) as
``DIR/<page>-<laptop|projector>.png``, to check the figures by eye; ``--markdown`` prints the table again as
Markdown (docs/performance.md's "Page height").

    python benchmarks/page_budget.py [--pages recall mrr] [--screenshots /tmp/budget] [--markdown]
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from pathlib import Path

from playwright.sync_api import Browser, Page, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run as a script from anywhere: the tests' launcher lives in the repo

from components.ui import registry  # noqa: E402
from tests.conftest import start_streamlit  # noqa: E402
from tests.e2e.helpers import next_frames, settle  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
LAPTOP = ("laptop", 1366, 768, "")
PROJECTOR = ("projector", 1280, 720, "?projector=1")
LESSON_SCREENS, LAPTOP_TOTAL, PROJECTOR_TOTAL, MAX_ROWS = 7, 40, 60, 50
SEVEN = ("accuracy", "choosing")  # the first and last of the seven lessons (registry modules)
LATER = ("fusion",)  # lessons added among them since (issue #46): each within its own budget, not in the total
EDITOR_ROWS = "li.rw-row"  # components/ranking_editor/editor.js: one per document, in its list or its tray
STRIP_CELLS = ".rs-cell"  # components/ranking_editor/strip/strip.js: a strip's cells, one per position, in one row
STILL_FRAMES = 30  # the page counts as laid out once its height and rows are the same over this many frames

# Every component on the page has drawn: each ranking editor has run its script and drawn its rows, each rank
# figure has run its script, any other component has put something in its shadow root; no skeleton is left.
DRAWN = """() => {
  const main = document.querySelector('[data-testid="stMain"]');
  if (!main || main.querySelector('[data-testid="stSkeleton"]')) return false;
  return [...main.querySelectorAll('[data-testid="stBidiComponentIsolated"]')].every((host) => {
    const root = host.shadowRoot;
    if (!root || !root.childElementCount) return false;
    if (root.querySelector(".rw") && !(root.__rankwiseEditor && root.querySelector("li.rw-row"))) return false;
    if (root.querySelector(".rf") && !root.__rankwiseFigure) return false;
    if (root.querySelector(".rs") && !(root.__rankwiseStrip && root.querySelector(".rs-cell"))) return false;
    return true;
  });
}"""

# Scrolls the main container through the page, a window at a time, two painted frames at each stop, then back up.
SCROLL_THROUGH = """async () => {
  const main = document.querySelector('[data-testid="stMain"]');
  const frame = () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  for (let y = 0; y < main.scrollHeight; y += main.clientHeight) { main.scrollTop = y; await frame(); }
  main.scrollTop = 0; await frame();
}"""

# Resolves true once the page's height and its row count are the same over ``still`` painted frames (false after
# 3,000 frames, under a minute, without that).
STAYS_THE_SAME = """(still) => new Promise((done) => {
  const main = document.querySelector('[data-testid="stMain"]');
  const rows = () => [...main.querySelectorAll("*")].map((h) => h.shadowRoot).filter(Boolean)
    .reduce((n, root) => n + root.querySelectorAll("li.rw-row").length, 0);
  const look = () => `${main.scrollHeight} ${rows()}`;
  let last = look(), same = 0, frames = 0;
  const frame = () => { const now = look(); same = now === last ? same + 1 : 0; last = now; frames += 1;
                        if (same >= still) done(true); else if (frames > 3000) done(false);
                        else requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
})"""

MEASURE = """([editorRows, stripCells]) => {
  const main = document.querySelector('[data-testid="stMain"]');
  const origin = main.getBoundingClientRect().top - main.scrollTop;  // the content's top, in window coordinates
  const shown = (e) => e.getClientRects().length > 0;
  const roots = [...main.querySelectorAll("*")].map((h) => h.shadowRoot).filter(Boolean);
  // A strip's rows: the lines its cells take (one, unless the window is so narrow that they wrap).
  const lines = (strip) => {
    const tops = [...strip.querySelectorAll(stripCells)].filter(shown).map((c) => c.getBoundingClientRect())
      .sort((a, b) => a.top - b.top);
    let n = 0, last = -Infinity;
    for (const box of tops) { if (box.top > last + box.height / 2) { n += 1; last = box.top; } }
    return Math.max(n, 1);
  };
  const rows = {editors: 0, strips: 0, list: 0, tray: 0, strip: 0, hidden: 0};
  for (const root of roots) {
    rows.editors += root.querySelectorAll(".rw").length;
    const all = [...root.querySelectorAll(editorRows)];
    const tray = all.filter((row) => row.closest(".rw-tray"));
    rows.list += all.length - tray.length; rows.tray += tray.length;
    rows.hidden += all.filter((row) => !shown(row)).length;
    for (const strip of root.querySelectorAll(".rs")) {
      const n = lines(strip);
      rows.strips += 1; rows.strip += n; rows.hidden += shown(strip) ? 0 : n;
    }
  }
  const block = main.querySelector('[data-testid="stMainBlockContainer"]');
  const end = block.firstElementChild.getBoundingClientRect().bottom - origin;
  const heads = [...main.querySelectorAll('[data-testid="stHeading"] h3')].filter(shown).map((h) => {
    const box = h.closest('[data-testid="stElementContainer"]') || h;
    return {name: h.textContent.trim(), top: box.getBoundingClientRect().top - origin};
  }).sort((a, b) => a.top - b.top);
  const sections = heads.map((h, i) => ({name: h.name,
    height: Math.round((i + 1 < heads.length ? heads[i + 1].top : end) - h.top)}));
  const sidebar = document.querySelector('[data-testid="stSidebar"]');
  const box = sidebar ? sidebar.getBoundingClientRect() : null;
  return {height: main.scrollHeight, window: main.clientHeight, rows, sections,
          top: Math.round(heads.length ? heads[0].top : end),
          sidebarShown: !!box && box.width > 0 && box.right > 0,
          errors: main.querySelectorAll('[data-testid="stException"]').length};
}"""


@dataclass
class Look:
    """One page at one window size."""
    height: int
    window: int
    rows: dict
    sections: list[dict] = field(default_factory=list)
    top: int = 0
    sidebar_shown: bool = False

    @property
    def screens(self) -> float:
        return self.height / self.window

    @property
    def row_count(self) -> int:
        return self.rows["list"] + self.rows["tray"] + self.rows["strip"]

    def tallest(self) -> dict | None:
        return max(self.sections, key=lambda s: s["height"], default=None)

    def over(self, limit: int) -> list[dict]:
        return [s for s in self.sections if s["height"] > limit]


def open_page(browser: Browser, url: str, path: str, size: tuple) -> tuple[Page, Look]:
    """Open ``path`` at ``size`` in a fresh context, wait until everything on it is drawn and still; measure."""
    _, width, height, query = size
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(f"{url}/{path}{query}")
    page.get_by_test_id("stMain").get_by_role("heading").first.wait_for()
    drawn(page)
    page.evaluate(SCROLL_THROUGH)
    drawn(page)
    found = page.evaluate(MEASURE, [EDITOR_ROWS, STRIP_CELLS])
    if found["errors"]:
        print(f"  note: {path}{query} shows {found['errors']} exception(s): measured as it is", file=sys.stderr)
    return page, Look(found["height"], found["window"], found["rows"], found["sections"], found["top"],
                      found["sidebarShown"])


def drawn(page: Page) -> None:
    """The run is over, every component has drawn (editors their rows), and the page stays the same."""
    settle(page)
    page.wait_for_function(DRAWN, timeout=60_000)
    settle(page)
    if not page.evaluate(STAYS_THE_SAME, STILL_FRAMES):
        print(f"  note: {page.url} kept changing its height for 3,000 frames; measured as it was", file=sys.stderr)


def screenshot(page: Page, width: int, look: Look, target: Path) -> None:
    """The whole page in one PNG: the window grown to the page's height (Streamlit scrolls inside stMain)."""
    page.set_viewport_size({"width": width, "height": look.height})
    next_frames(page, 4)
    settle(page)
    page.evaluate(STAYS_THE_SAME, STILL_FRAMES)
    page.screenshot(path=str(target))


def mark(ok: bool) -> str:
    return "ok" if ok else "OVER"


def row_text(look: Look) -> str:
    r = look.rows
    parts = [f"{r['list']} list", f"{r['tray']} tray"] + ([f"{r['strip']} strip"] if r["strip"] else [])
    hidden = f", {r['hidden']} hidden" if r["hidden"] else ""
    strips = f", {r['strips']} strips" if r["strips"] else ""
    return f"{look.row_count} ({' + '.join(parts)}{hidden}; {r['editors']} editors{strips})"


def seven_lessons() -> list[str]:
    walk = [p.module for p in registry.PAGES if p.in_sequence and p.module not in LATER]
    return walk[walk.index(SEVEN[0]):walk.index(SEVEN[1]) + 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", nargs="*", help="url paths to measure (default: every page of the registry)")
    parser.add_argument("--screenshots", type=Path, help="save each page's full height as a PNG in this folder")
    parser.add_argument("--markdown", action="store_true", help="print the table again as Markdown")
    args = parser.parse_args()
    specs = {spec.url_path: spec for spec in registry.PAGES}
    paths = args.pages or list(specs)
    unknown = [p for p in paths if p not in specs]
    if unknown:
        parser.error(f"not a page of the registry: {', '.join(unknown)} (pages: {', '.join(specs)})")
    if args.screenshots:
        args.screenshots.mkdir(parents=True, exist_ok=True)
    seven = seven_lessons()
    looks: dict[str, dict[str, Look]] = {}
    proc, url = start_streamlit(ROOT / "app.py")
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            for path in paths:
                looks[path] = {}
                for size in (LAPTOP, PROJECTOR):
                    page, look = open_page(browser, url, path, size)
                    if size is PROJECTOR and look.sidebar_shown:
                        print(f"  note: the sidebar is shown on {path} with ?projector=1", file=sys.stderr)
                    if args.screenshots:
                        screenshot(page, size[1], look, args.screenshots / f"{path}-{size[0]}.png")
                    page.context.close()
                    looks[path][size[0]] = look
            browser.close()
    finally:
        proc.terminate()
        proc.wait(10)
    report(paths, specs, looks, seven)
    if args.markdown:
        markdown(paths, specs, looks, seven)


def report(paths: list[str], specs: dict, looks: dict[str, dict[str, Look]], seven: list[str]) -> None:
    print(f"{'page':26} {'1366x768':>16} {'1280x720 proj.':>16} {'rows':>5} {'tallest section (proj.)':>30}  "
          f"marks: <={LESSON_SCREENS} screens, <={MAX_ROWS} rows, sections <=720 px")
    for path in paths:
        laptop, proj = looks[path]["laptop"], looks[path]["projector"]
        tallest = proj.tallest()
        tall = f"{tallest['height']:5d} px {tallest['name'][:21]}" if tallest else "(no subheader)"
        rows = max(laptop.row_count, proj.row_count)
        lesson = specs[path].module in seven
        marks = [mark(laptop.screens <= LESSON_SCREENS) if lesson else "-", mark(rows <= MAX_ROWS),
                 mark(not proj.over(720))]
        print(f"{path:26} {laptop.height:7d} px {laptop.screens:4.1f} {proj.height:7d} px {proj.screens:4.1f} "
              f"{rows:5d} {tall:>30}  {' '.join(marks)}")
    print()
    print("Rows of ranked lists (1366x768; at 1280x720 projected where it differs):")
    for path in paths:
        laptop, proj = looks[path]["laptop"], looks[path]["projector"]
        again = "" if proj.rows == laptop.rows else f"; projected {row_text(proj)}"
        print(f"  {path:26} {row_text(laptop)}{again}")
    print()
    print("Sections over 720 px at 1280x720 projected (top: title and introduction, above the first subheader):")
    for path in paths:
        proj = looks[path]["projector"]
        over = ", ".join(f"{s['name']} {s['height']}" for s in proj.over(720)) or "none"
        top = f"top {proj.top}" + (" (over 720, not a section)" if proj.top > 720 else "")
        print(f"  {path:26} {top}; {len(proj.sections)} sections, over: {over}")
    if total := totals(paths, specs, looks, seven):
        print()
        print(total)


def totals(paths: list[str], specs: dict, looks: dict[str, dict[str, Look]], seven: list[str]) -> str:
    """The seven lessons' screens added up against the two budgets ("" when none of them was measured)."""
    measured = [p for p in paths if specs[p].module in seven]
    if not measured:
        return ""
    laptop_total = sum(looks[p]["laptop"].screens for p in measured)
    proj_total = sum(looks[p]["projector"].screens for p in measured)
    if len(measured) < len(seven):  # the budgets are for all seven: no mark on a part of them
        return (f"Total, {len(measured)} of the seven lessons: {laptop_total:.1f} screens at 1366x768, "
                f"{proj_total:.1f} at 1280x720 projected (the budgets, {LAPTOP_TOTAL} and {PROJECTOR_TOTAL}, "
                "are for all seven)")
    return (f"Total, the seven lessons: {laptop_total:.1f} screens at 1366x768 (budget {LAPTOP_TOTAL}: "
            f"{mark(laptop_total <= LAPTOP_TOTAL)}), {proj_total:.1f} at 1280x720 projected "
            f"(budget {PROJECTOR_TOTAL}: {mark(proj_total <= PROJECTOR_TOTAL)})")


def markdown(paths: list[str], specs: dict, looks: dict[str, dict[str, Look]], seven: list[str]) -> None:
    """The same figures as a Markdown table, for docs/performance.md."""
    print()
    print("| page | 1366×768 | 1280×720 projected | rows (list + tray + strip) | tallest section, projected "
          f"| sections over 720 px, projected | ≤ {LESSON_SCREENS} screens | ≤ {MAX_ROWS} rows | sections fit |")
    print("|---|---|---|---|---|---|---|---|---|")
    for path in paths:
        laptop, proj = looks[path]["laptop"], looks[path]["projector"]
        r = max((laptop, proj), key=lambda look: look.row_count).rows
        rows = f"{r['list'] + r['tray'] + r['strip']} ({r['list']} + {r['tray']} + {r['strip']})"
        tallest = proj.tallest()
        tall = f"{tallest['name']}: {tallest['height']:,} px" if tallest else "(no subheader)"
        over = "; ".join(f"{s['name']} {s['height']:,}" for s in proj.over(720)) or "none"
        lesson = specs[path].module in seven
        print(f"| {specs[path].title} | {laptop.height:,} px, {laptop.screens:.1f} | {proj.height:,} px, "
              f"{proj.screens:.1f} | {rows} | {tall} | {over} | "
              f"{mark(laptop.screens <= LESSON_SCREENS) if lesson else '-'} | "
              f"{mark(max(laptop.row_count, proj.row_count) <= MAX_ROWS)} | {mark(not proj.over(720))} |")
    if total := totals(paths, specs, looks, seven):
        print()
        print(total)


if __name__ == "__main__":
    main()
