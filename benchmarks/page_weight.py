"""Weigh every page of the app in a real browser: what a fresh session receives, and how many runs it takes.

Starts the app (``streamlit run app.py``) on a free port on 127.0.0.1 and opens each page of the navigation in
a fresh browser (empty cache and storage), Debian's Chromium, headless. From navigation until the
app is idle it counts:

- **websocket**: the bytes of every message the server sends (the page's elements, each run);
- **component files**: the bytes on the wire (gzip) of every script and stylesheet fetched for the page's
  components (``/_stcore/bidi-components/...``);
- **runs**: the whole-page script runs (a fresh load should take one);
- **load**: seconds from navigation to the end of the last run (on a busy machine this is the figure that
  moves; the bytes do not).

The goal (issue #41) is at most 250 KB per lesson page for websocket plus component files. Streamlit's own
frontend (its JS bundle, about the same for every page, cached by the browser) is printed once, apart.

A last line follows the "Next" link from Recall@k to MRR in one session: the component files it fetches again
(the goal is none).

    python benchmarks/page_weight.py [--pages recall mrr]
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run as a script from anywhere: the tests' launcher lives in the repo

from components.course import prose  # noqa: E402
from components.ui import registry  # noqa: E402
from tests.conftest import start_streamlit  # noqa: E402
from tests.e2e.helpers import PageRuns, hold_still, settle  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
COMPONENT_FILES = "/_stcore/bidi-components/"


# The page's fetched files so far, from the browser's own resource timing: name, bytes on the wire, initiator.
RESOURCES = """() => performance.getEntriesByType("resource")
  .map((entry) => [entry.name, entry.transferSize, entry.initiatorType])"""


class Weigher:
    """Adds up what ``page`` receives: websocket bytes (counted as they come), and, read at the end
    (:meth:`read_files`), the component files and the app shell's files fetched since ``since`` entries."""

    def __init__(self, page: Page) -> None:
        self.websocket = self.components = self.shell = 0
        self.component_urls: list[str] = []
        page.on("websocket", lambda socket: socket.on("framereceived", self._frame))
        # The browser keeps 250 entries by default, fewer than Streamlit's own files: keep them all.
        page.add_init_script("performance.setResourceTimingBufferSize(100000)")

    def _frame(self, payload) -> None:
        self.websocket += len(payload)

    def read_files(self, page: Page, since: int = 0) -> None:
        for name, size, _ in page.evaluate(RESOURCES)[since:]:
            if COMPONENT_FILES in name:
                self.components += size
                self.component_urls.append(name.split(COMPONENT_FILES)[1])
            else:
                self.shell += size


# True once every component shown on the page (an editor, a rank strip, a rank figure: each keeps its state on its
# shadow root) has fetched its script and drawn itself. A shadow root is empty until its script has loaded, so
# "no editor inside yet" is not "drawn": the count of shown hosts must match the count of drawn ones (hidden helper
# components, which keep the browser's storage, have no box and no script of ours).
COMPONENTS_DRAWN = """() => [...document.querySelectorAll('[data-testid="stBidiComponentIsolated"]')]
  .filter((host) => host.shadowRoot && host.getClientRects().length)
  .every((host) => host.shadowRoot.__rankwiseEditor || host.shadowRoot.__rankwiseStrip
                   || host.shadowRoot.__rankwiseFigure)"""


# The components shown and drawn, as one string that stops changing once the page has drawn them all.
COMPONENT_COUNT = """() => { const hosts = [...document.querySelectorAll('[data-testid="stBidiComponentIsolated"]')]
  .filter((host) => host.shadowRoot && host.getClientRects().length);
  return hosts.length + ":" + hosts.filter((host) => Object.keys(host.shadowRoot).some((key) =>
    key.startsWith("__rankwise"))).length; }"""


def until_idle(page: Page) -> None:
    """The app's run is over and every component has fetched its files and drawn itself.

    The components mount after the run is over (their hosts appear once the frontend has their scripts), so the
    run's end is not enough: then no HTTP request for half a second (the scripts and stylesheets are in), every
    shown component drawn, and their count the same over 30 painted frames."""
    page.get_by_test_id("stMain").get_by_role("heading").first.wait_for()
    settle(page)
    page.wait_for_load_state("networkidle")
    page.wait_for_function(COMPONENTS_DRAWN)
    hold_still(page, read=COMPONENT_COUNT, frames=30)


def weigh(playwright, url: str, url_path: str) -> tuple[Weigher, PageRuns, float]:
    """Open ``url_path`` in a fresh browser (Chromium shares its cache between contexts); return what it
    received, its runs and its load time."""
    browser = launch(playwright)
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    weigher, runs = Weigher(page), PageRuns(page)
    start = time.monotonic()
    page.goto(f"{url}/{url_path}")
    until_idle(page)
    seconds = time.monotonic() - start
    weigher.read_files(page)
    browser.close()
    return weigher, runs, seconds


def launch(playwright):
    return playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])


def next_page_refetch(playwright, url: str) -> Weigher:
    """What a session on Recall@k fetches for components when it follows its Next link to MRR."""
    browser = launch(playwright)
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    page.goto(f"{url}/recall")
    until_idle(page)
    before = len(page.evaluate(RESOURCES))
    weigher = Weigher(page)
    page.get_by_test_id("stPageLink").filter(has_text=prose.text("ui", "Next", title="MRR")).click()
    page.get_by_role("heading", name="MRR").first.wait_for()
    until_idle(page)
    weigher.read_files(page, since=before)
    browser.close()
    return weigher


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", nargs="*", help="url paths to weigh (default: every page)")
    args = parser.parse_args()
    paths = args.pages or [spec.url_path for spec in registry.PAGES]
    proc, url = start_streamlit(ROOT / "app.py")
    try:
        with sync_playwright() as playwright:
            weigh(playwright, url, paths[0])  # warm the server (imports, caches) before timing
            print(f"{'page':28} {'websocket':>10} {'components':>11} {'total':>8} {'runs':>5} {'load':>6}")
            shell = 0
            for path in paths:
                weigher, runs, seconds = weigh(playwright, url, path)
                total = weigher.websocket + weigher.components
                shell = weigher.shell
                print(f"{path or 'home':28} {weigher.websocket / 1024:8.0f} KB {weigher.components / 1024:8.0f} KB "
                      f"{total / 1024:5.0f} KB {runs.count:5d} {seconds:5.1f}s")
            print(f"Streamlit's own frontend, fetched by a fresh browser: {shell / 1024:.0f} KB (the same on every page)")
            again = next_page_refetch(playwright, url)
            print(f"Recall@k -> MRR by the Next link: {len(again.component_urls)} component files fetched again, "
                  f"{again.components / 1024:.0f} KB ({', '.join(again.component_urls)})")
    finally:
        proc.terminate()


if __name__ == "__main__":
    main()
