"""Browser-test helpers shared by the browser tests (a module of its own: no test module imports another)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from playwright.sync_api import Locator, Page, WebSocket, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from components.ui.registry import PageSpec

# Streamlit keeps the elements of the run before, marked stale, until the new run has replaced them:
# a locator that means "what the learner sees now" skips them.
CURRENT = '[data-testid="stElementContainer"]:not([data-stale="true"])'


def drag(page: Page, source: Locator, target: Locator, *, half: str = "upper") -> None:
    """Mouse-drag ``source`` (grabbed by its title) onto the upper or lower half of ``target``.

    The source is scrolled into view first: a press must land on the screen; and both rows must stay put
    (a box read while the page still lays out sends the drop to another row).
    """
    source.scroll_into_view_if_needed()
    hold_still(page, source)
    hold_still(page, target)
    s = source.get_by_test_id("rw-title").bounding_box()
    t = target.bounding_box()
    page.mouse.move(s["x"] + s["width"] / 2, s["y"] + s["height"] / 2)
    page.mouse.down()
    x, y = t["x"] + t["width"] * 0.5, t["y"] + t["height"] * (0.2 if half == "upper" else 0.8)
    page.mouse.move(x, y, steps=8)
    for _ in range(2):  # under load the editor reads the pointer a frame late: hold it at the drop point first
        next_frames(page)
        page.mouse.move(x, y)
    page.mouse.up()


# The component's state object (ctx), found from an element inside it by the key its mount stores it under.
CTX = "(e, key) => { let n = e; while (n && !n[key]) n = n.parentNode; return n[key]; }"


def hold_changes(inside: Locator, key: str) -> None:
    """Hold in the page every change the component around ``inside`` sends to Python (its ``ctx.send``, until
    ``release_changes`` or the next render): a drop's answer can then be made to arrive during the next drag. ``key`` is where the
    component's mount keeps its state: "__rankwiseEditor", "__rankwiseStrip", "__rankwiseFigure"."""
    inside.evaluate(f"""(e, key) => {{ const ctx = ({CTX})(e, key), send = ctx.send; window.__held = [];
                                      ctx.send = (...change) => window.__held.push(() => send(...change));
                                      ctx.send.unheld = send; }}""", key)


def release_changes(inside: Locator, key: str) -> int:
    """Send the changes ``hold_changes`` held (later ones go straight through), and wait until Python's answer to
    the last of them is drawn: the component's ``ack`` reaches its ``sent``. Returns how many were held."""
    held = inside.evaluate(f"""(e, key) => {{ const ctx = ({CTX})(e, key), n = window.__held.length;
                                            if (ctx.send.unheld) ctx.send = ctx.send.unheld; window.__held.forEach((f) => f()); return n; }}""",
                           key)
    inside.page.wait_for_function(f"([e, key]) => {{ const ctx = ({CTX})(e, key); return ctx.data.ack >= ctx.sent; }}",
                                  arg=[inside.element_handle(), key])
    next_frames(inside.page)
    return held

# Resolves after ``count`` animation frames: the page has painted (and laid out) that many times.
FRAMES = "(count) => new Promise((done) => { const step = (n) => n ? requestAnimationFrame(() => step(n - 1)) : done(); step(count); })"

# What hold_still watches by default: an element's box, its place and size (a grid redrawn for a new window size can
# keep its top while it grows).
BOX = "(element) => JSON.stringify(element.getBoundingClientRect())"

# True once ``read`` (the source of a function of ``arg`` giving a string or a number) gives the same over ``frames``
# painted frames in a row.
STAYS_PUT = """([read, arg, frames]) => new Promise((done) => {
  const measure = eval(read), now = () => measure(arg);
  let last = now(), still = 0;
  const frame = () => { const seen = now(); still = seen === last ? still + 1 : 0; last = seen;
                        if (still >= frames) done(true); else requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
})"""


def next_frames(page: Page, count: int = 2) -> None:
    """Wait until the browser has painted ``count`` more frames (a signal, not a time)."""
    page.evaluate(FRAMES, count)


def hold_still(page: Page, locator: Locator | None = None, *, read: str = BOX, frames: int = 6) -> None:
    """Wait until the locator's element stays put, in place and size, over ``frames`` painted frames: a pointer
    aimed at a stale box lands on something else. ``read`` watches something else instead: the source of a
    function of the element (or of nothing, without a locator), e.g. the page's scroll position while a fling
    ends."""
    page.wait_for_function(STAYS_PUT, arg=[read, locator.element_handle() if locator else None, frames])


# True once every lesson section on the page has drawn the state its editor drew last: a move reruns the editor's
# own fragment, then the browser asks for the section's run (components/ui/answer_first.py).
ANSWERED = "() => !(window.rankwiseAnswered && window.rankwiseAnswered.pending())"
# The app is idle: its run is over, nothing of an earlier run is left on screen (stale), no ranking editor waits for the
# answer to a change it sent (its wrapper's data-unanswered, in its shadow root), and no lesson section is still to
# follow its editor's own run (ANSWERED).
IDLE = f"""() => {{
  const app = document.querySelector('[data-testid="stApp"]');
  if (!app || app.getAttribute("data-test-script-state") !== "notRunning") return false;
  if (document.querySelector('[data-stale="true"]')) return false;
  for (const host of document.querySelectorAll('[data-testid="stBidiComponentIsolated"]'))
    if (host.shadowRoot && host.shadowRoot.querySelector("[data-unanswered]")) return false;
  return ({ANSWERED})();
}}"""


def settle(page: Page, since: RunMark | None = None) -> None:
    """Wait until the app is idle (``IDLE``): a fresh page load is one run (nothing stored in the browser asks for
    another), and a lesson's section follows its editor's own run with a run of its own. A drag begun during a rerun
    is lost when the rerun redraws the component under the pointer. Looked at every 20 ms in the page: Playwright's
    ``expect`` looks again after 20, 50, 100, 100 ms, then every 500 ms, so a run of 400 ms would be seen over at
    770 ms.

    ``since`` (``PageRuns.mark()``, taken before a click or a key) first waits for a run that started after the
    mark to end, read from the websocket: right after a click the page still shows the run before as over, and
    the click's own run may not have begun yet."""
    if since is not None:
        since.runs.wait_for_run(page, since)
    page.wait_for_function(IDLE, polling=20, timeout=30_000)


def on_page(page: Page, spec: PageSpec) -> None:
    """Wait until the session's page is ``spec``'s (its run has begun) and the run is over."""
    page.wait_for_url(f"**/{spec.url_path}*")
    expect(page.get_by_test_id("stSidebar").get_by_role("link", name=spec.title, exact=True)).to_have_attribute(
        "aria-current", "page")
    settle(page)


def click_and_settle(page: Page, runs: PageRuns, target: Locator) -> None:
    """Click ``target`` and wait until the run the click caused has started and ended (and nothing stale is left)."""
    mark = runs.mark()
    target.click()
    settle(page, since=mark)


def press_home(page: Page, slider: Locator, landed: Callable[[float], object]) -> None:
    """Focus a Streamlit ``slider`` and press Home; ``landed(timeout_ms)`` waits for the server's answer.

    Under load, Streamlit's slider (1.67) now and then shows the key's new value but sends no rerun at all (the
    page's websocket frames showed nothing sent after the key press): then, once, it is moved away and back.
    """
    slider.focus()
    page.keyboard.press("Home")
    try:
        landed(10_000)
    except (PlaywrightTimeout, AssertionError):
        page.keyboard.press("End")
        page.keyboard.press("Home")
        landed(30_000)


@dataclass(frozen=True)
class RunMark:
    """How many runs (whole-page and fragment) ``runs`` had seen start at one moment: ``settle(page, since=mark)``
    waits for one that starts after it."""

    runs: PageRuns
    started: int


class PageRuns:
    """Counts the whole-page runs (``count``) and the fragment runs (``fragments``: a class's timers, for one; which
    fragments each ran: ``fragment_runs``) the server starts for ``page``, read from its websocket: a ``new_session``
    message names the fragments a run is for, or none for a whole-page run; a ``script_finished`` message ends it.
    Made before the page opens."""

    def __init__(self, page: Page) -> None:
        self.count = 0
        self.fragments = 0
        self.fragment_runs: list[tuple[str, ...]] = []  # each fragment run's fragments, in order
        self.running = False  # the last run seen start has not ended yet
        page.on("websocket", self._watch)

    def _watch(self, socket: WebSocket) -> None:
        socket.on("framereceived", self._frame)

    def _frame(self, payload) -> None:
        if isinstance(payload, str):
            return
        msg = ForwardMsg()
        msg.ParseFromString(payload)
        kind = msg.WhichOneof("type")
        if kind == "new_session":
            self.running = True
            if msg.metadata.run.fragment_ids:
                self.fragments += 1
                self.fragment_runs.append(tuple(msg.metadata.run.fragment_ids))
            else:
                self.count += 1
        elif kind == "script_finished":  # a run stopped for a rerun is followed by that rerun
            self.running = msg.script_finished == ForwardMsg.FINISHED_EARLY_FOR_RERUN

    def mark(self) -> RunMark:
        """The runs started so far: take it before the click or key whose run ``settle(page, since=...)`` waits
        for."""
        return RunMark(self, self.count + self.fragments)

    def _pump(self, page: Page, done: Callable[[], bool]) -> bool:
        """Let the websocket's frames in (they are read while Playwright waits on the page) until ``done()``."""
        for _ in range(900):  # at most 1,800 painted frames: about 30 s
            if done():
                return True
            next_frames(page, 2)
        return done()

    def wait_for_run(self, page: Page, mark: RunMark) -> None:
        """Wait until a run that started after ``mark`` has ended (as has any started after it)."""
        started = self._pump(page, lambda: self.count + self.fragments > mark.started and not self.running)
        assert started, f"no run started and ended after the mark ({self.count + self.fragments - mark.started} began)"

    def wait_for_fragments(self, page: Page, more: int) -> None:
        """Wait until ``more`` fragment runs have started since the call (a timer has fired that often)."""
        goal = self.fragments + more
        self._pump(page, lambda: self.fragments >= goal)
        assert self.fragments >= goal, f"{self.fragments - goal + more} of {more} fragment runs in time"


def lesson_editor(page: Page) -> Locator:
    """The page's first ranking editor: the lesson's own (duels, puzzles and questions further down have theirs)."""
    return page.get_by_test_id("rw-editor").first


def current(scope: Page | Locator) -> Locator:
    """The element containers of ``scope`` that belong to the latest run (not stale ones)."""
    return scope.locator(CURRENT)


def metric_value(scope: Page | Locator, label: str | re.Pattern) -> Locator:
    """The value of the current metric card in ``scope`` whose label is ``label`` (exact text or a pattern)."""
    page = scope if isinstance(scope, Page) else scope.page
    label_box = page.get_by_test_id("stMetricLabel")
    text = label_box.get_by_text(label, exact=True) if isinstance(label, str) else label_box.get_by_text(label)
    card = current(scope).get_by_test_id("stMetric").filter(has=text)
    return card.get_by_test_id("stMetricValue")


def board_value(page: Page, label: str | re.Pattern, *, prefix: str = "rw") -> Locator:
    """The value the page's first live board shows under ``label`` (exact text or a pattern): the lesson editor's
    (``prefix`` "rw") or the four-query figure's ("rf"). A lesson shows each of its numbers there once, with no
    card repeating it (issue #42)."""
    board = page.get_by_test_id("rw-editor" if prefix == "rw" else "rf-figure").first
    pattern = re.compile(f"^{re.escape(label)}$") if isinstance(label, str) else label
    labelled = page.locator(f".{prefix}-score-label").filter(has_text=pattern)
    return board.get_by_test_id(f"{prefix}-score-cell").filter(has=labelled).locator(f".{prefix}-score-value")


STORE_HELPERS = 3  # the storage helpers every page draws (app.py): progress, a class's lead, a class's member id


def runs_after_the_helpers_read(page: Page, runs: PageRuns) -> int:
    """The whole-page runs once every storage helper has read the browser's storage and the app is idle (a
    helper that found something asks for its run as it reads)."""
    page.wait_for_function(f"() => window.rankwiseStoreRead && window.rankwiseStoreRead.size >= {STORE_HELPERS}")
    settle(page)
    return runs.count


def stores_nothing(page: Page) -> bool:
    """Nothing of the app's in the browser's localStorage."""
    return page.evaluate("() => Object.keys(window.localStorage).filter(k => k.startsWith('rankwise.'))") == []
