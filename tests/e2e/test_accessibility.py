"""WCAG 2.1 A and AA in a real browser, checked by axe-core (issue #45): every page of the app and the states a
learner reaches at a laptop's size, and the home page and the lessons projected.

axe-core 4.10 (tests/e2e/vendor/axe-core/, the npm package's ``axe.min.js`` and its licences) runs with the rules
tagged ``wcag2a``, ``wcag2aa``, ``wcag21a`` and ``wcag21aa``; a serious or critical violation in the project's own
markup fails the test, naming the rule, the page (and state) and the nodes. axe looks into open shadow roots, so the
ranking editor, the rank strip and the four-query figure (Components v2, each drawn in a shadow root) are audited
too: a node inside one is named as ``host >> node``.

Excluded by selector: Streamlit's own sidebar navigation (``[data-testid="stSidebarNav"]``). Its list holds
``<div>`` wrappers around each ``<li>`` (rules "list" and "listitem", about 180 nodes over the pages): markup Streamlit
1.67 draws for ``st.navigation``, which this project neither writes nor can change. Everything else Streamlit draws
for the project's calls (buttons, sliders, captions, alerts, tables) is audited: the project chooses those widgets
and their colours (``.streamlit/config.toml``).

One browser page per size moves between the app's pages by its sidebar links (tests/e2e/navigation.py), as the
other browser tests do; the states are reached on the same page.

What a screen reader hears (issue #45, item 4), on the same page: every ranking editor, rank strip and four-query
figure has one live region, polite, and the sidebar one for the class's news; a move by the keys in the lesson's
editor, a duel's strip and the figure is said there, its position and the board's values, and Python's answer to it
(the rerun) says nothing more, in that region or any other; the editor's help line is read once, and the list's
description names every key. (A following learner's live region: tests/e2e/test_live_class.py.)
"""
from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect

from components.course import prose, quiz, scenarios
from components.ui import quiz_ui, registry
from tests.e2e.axe_audit import Audit
from tests.e2e.helpers import (
    CTX,
    PageRuns,
    click_and_settle,
    hold_still,
    lesson_editor,
    next_frames,
    runs_after_the_helpers_read,
    settle,
    stores_nothing,
)
from tests.e2e.layout_checks import LESSONS, SEQUENCE, check_nothing_cut_short, follow_next
from tests.e2e.navigation import visit
from tests.e2e.payload_links import PayloadLinks

pytestmark = pytest.mark.e2e
GROUP_PER_TEST = True  # the long tests run on both workers at once (tests/e2e/conftest.py)

# The elements of the components (in shadow roots) that would move by themselves: a transition or an animation set,
# or one running.
MOVING = """() => {
  const moving = new Set();
  for (const host of document.querySelectorAll('[data-testid="stBidiComponentIsolated"]')) {
    for (const e of host.shadowRoot ? host.shadowRoot.querySelectorAll("*") : []) {
      const style = getComputedStyle(e);
      if (style.transitionDuration.split(",").some((d) => parseFloat(d) > 0) || style.animationName !== "none")
        moving.add(`${e.getAttribute("class")}: ${style.transitionProperty} ${style.transitionDuration}`);
    }
  }
  for (const a of document.getAnimations())
    if (a.effect && a.effect.target && a.effect.target.getRootNode() !== document) moving.add(`running: ${a.id}`);
  return [...moving];
}"""

# Every editor, strip and figure has one live region, polite, and nothing else that speaks by itself; the page has one
# region for the class's news, in the sidebar. What is amiss, in words.
LIVE_REGIONS = """() => {
  const found = [], live = '[aria-live], [role="status"], [role="alert"], [role="log"]';
  for (const host of document.querySelectorAll('[data-testid="stBidiComponentIsolated"]')) {
    const root = host.shadowRoot;
    const widget = root && root.querySelector('[data-testid="rw-editor"], [data-testid="rs-strip"], [data-testid="rf-figure"]');
    if (!widget) continue;
    const polite = root.querySelectorAll('[aria-live="polite"]').length, speaking = root.querySelectorAll(live).length;
    if (polite !== 1 || speaking !== 1) found.push(`${widget.dataset.testid}: ${polite} polite live region(s), ${speaking} in all`);
  }
  const news = document.querySelectorAll('[data-testid="stSidebar"] [data-testid="class-news"][aria-live="polite"]');
  if (news.length !== 1) found.push(`${news.length} live region(s) for the class's news in the sidebar`);
  return found;
}"""

# From now on, note each time a live region speaks (a change inside it, even to the same text; a region added with its
# text is not read): [the region's test id or role, its text], read back by ``heard``. In the page and in every
# component's shadow root; the changes of one task to one region count once.
LISTEN = """() => {
  const said = window.__rwHeard = [];
  const live = '[aria-live]:not([aria-live="off"]), [role="status"], [role="alert"], [role="log"]';
  const note = (records) => {
    const regions = new Set();
    for (const r of records) {
      const at = r.target.nodeType === 1 ? r.target : r.target.parentElement;
      const region = at && at.closest(live);
      if (region) regions.add(region);
    }
    for (const region of regions) said.push([region.dataset.testid || region.getAttribute("role"), region.textContent]);
  };
  for (const root of [document.body, ...[...document.querySelectorAll('[data-testid="stBidiComponentIsolated"]')]
                        .map((host) => host.shadowRoot).filter(Boolean)])
    new MutationObserver(note).observe(root, { subtree: true, childList: true, characterData: true });
}"""


BOARD_RECALL = r"Recall@\d+ \d\.\d{3}"  # a recall board's value, as said


def live_regions(audit: Audit, where: str) -> None:
    for problem in audit.page.evaluate(LIVE_REGIONS):
        audit.found.append(f"live regions on {where}: {problem}")


def heard(page: Page, region: str, starts: list[str], values: str) -> None:
    """Since ``LISTEN``: the live region ``region`` alone spoke, once for each of ``starts`` (each what it said
    first), the last time with the board's values (``values``: a pattern, a measure's label and value); Python's
    answer to the move said nothing. The accessibility tree has the last as the region's status."""
    said = page.evaluate("() => window.__rwHeard")
    assert [name for name, _ in said] == [region] * len(starts), f"the live regions said {said}"
    for (_, text), start in zip(said, starts):
        assert text.startswith(start), f"{region} said {text!r}, not {start!r}"
        rest = text[len(start):]  # the board's values, after a full stop: "… of 20. Recall@5", not "… of 20 Recall@5"
        assert not rest or start[-1] in ".:;!?" or rest[0] in ".:;!?", f"{region} runs two sentences together: {text!r}"
    assert re.search(values, said[-1][1]), f"the move's values are not said: {said[-1][1]!r}"
    expect(page.locator(f'[data-testid="{region}"]').filter(has_text=said[-1][1])) \
        .to_match_aria_snapshot(f"- status: {json.dumps(said[-1][1])}")


def strip_move(audit: Audit, runs: PageRuns) -> None:
    """On Recall@k: a duel's first strip, its first cell lifted, moved one place right and dropped by the keys."""
    page = audit.page
    strip = page.get_by_test_id("rs-strip").first
    cell = strip.get_by_test_id("rs-track").get_by_role("listitem").first
    cell.scroll_into_view_if_needed()
    title = cell.evaluate(f"(e) => {{ const ctx = ({CTX})(e, '__rankwiseStrip'); return ctx.titles.get(ctx.local.order[0]); }}")
    n = strip.get_by_test_id("rs-track").get_by_role("listitem").count()
    cell.focus()
    page.evaluate(LISTEN)
    mark = runs.mark()
    for key in ("Space", "ArrowRight", "Space"):
        page.keyboard.press(key)
    settle(page, since=mark)
    next_frames(page)
    heard(page, "rs-live", [prose.text("rank_strip", "Lifted", title=title),
                            prose.text("rank_strip", "Moved", title=title, pos=2, n=n),
                            prose.text("rank_strip", "Dropped", title=title, pos=2, n=n)], BOARD_RECALL)


def figure_move(audit: Audit, runs: PageRuns) -> None:
    """On the four queries: the first query's dot one rank right by the keys, sent by Enter."""
    page = audit.page
    dot = page.get_by_test_id("rf-figure").first.get_by_role("slider").first
    dot.scroll_into_view_if_needed()
    query, rank = dot.evaluate(f"(e) => {{ const ctx = ({CTX})(e, '__rankwiseFigure'); "
                               f"return [ctx.data.queries[0], ctx.local.ranks[0]]; }}")
    dot.focus()
    page.evaluate(LISTEN)
    mark = runs.mark()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    settle(page, since=mark)
    next_frames(page)
    where = prose.text("rank_figure", "Where rank", rank=rank + 1)
    heard(page, "rf-live", [prose.text("rank_figure", "Moved", query=query, where=where)], r"MRR \d\.\d{3}")


RECALL_EDITOR = ".st-key-recall-editor-ranking-editor"  # the lesson editor's element (its key's class)


def editor_states(audit: Audit) -> None:
    """On Recall@k: the lesson editor's tray open, then a row lifted by the pointer (mid-drag), put back by Escape.
    Mid-drag, with reduced motion asked for (prefers-reduced-motion), nothing in the editors and strips moves by
    itself: no transition or animation is set or running."""
    page = audit.page
    page.emulate_media(reduced_motion="reduce")  # as a context's reduced_motion="reduce", on the shared page
    editor = lesson_editor(page)
    toggle = editor.get_by_test_id("rw-tray-toggle")
    toggle.scroll_into_view_if_needed()
    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    audit("recall, the tray open", within=RECALL_EDITOR)
    title = editor.locator("li.rw-row").first.get_by_test_id("rw-title")
    title.scroll_into_view_if_needed()
    hold_still(page, title)
    box = title.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x, y + box["height"] * 1.5, steps=6)
    expect(editor).to_have_class(re.compile(r"\brw-is-dragging\b"))
    audit("recall, mid-drag (pointer down on a row)", within=RECALL_EDITOR, pointer_away=False)
    assert page.evaluate(MOVING) == [], "with prefers-reduced-motion, these move by themselves"
    page.keyboard.press("Escape")
    page.mouse.up()
    expect(editor).not_to_have_class(re.compile(r"\brw-is-dragging\b"))
    page.emulate_media(reduced_motion="no-preference")


def data_states(audit: Audit, runs: PageRuns, links: PayloadLinks) -> None:
    """"Your data" with the sample files' results, then Compare runs with the samples' comparison: each opened from
    a payload link."""
    page = audit.page
    links.open(registry.spec("your_data"))
    audit("your-data")
    click_and_settle(page, runs, page.get_by_role("button", name=prose.text("your_data", "Use samples")))
    expect(page.locator(".st-key-your-data-table table td").first).to_be_attached()  # the grid's table for AT
    audit("your-data with results")
    links.open(registry.spec("compare_runs"))
    audit("compare-runs")
    click_and_settle(page, runs, page.get_by_role("button", name=prose.text("compare_runs", "Add samples")))
    expect(page.get_by_text("sample_run_c.txt").first).to_be_visible()
    audit("compare-runs with results")


def practice_states(audit: Audit, runs: PageRuns, links: PayloadLinks) -> None:
    """Practice, opened from a payload link: a wrong number's feedback, then the method hint and the solution open
    on the same card."""
    page = audit.page
    links.open(registry.spec("practice"))
    audit("practice")
    answer = page.get_by_label(quiz_ui.text("card answer")).and_(page.locator("input[type=text]")).first
    card = page.locator('[class*="st-key-quiz-practice-"]').filter(has=answer).first
    answer.fill("0.123")
    click_and_settle(page, runs, card.get_by_role("button", name=quiz_ui.text("card check")))
    expect(card.get_by_test_id("stAlert").first).to_be_visible()
    audit("practice, a wrong answer's feedback")
    click_and_settle(page, runs, card.get_by_role("button", name=quiz_ui.text("card method button")))
    click_and_settle(page, runs, card.get_by_role("button", name=quiz_ui.text("card solution button")))
    expect(card.get_by_test_id("stAlert")).to_have_count(4)  # the verdict, two hints, the solution
    audit("practice, the hints and the solution open")


def instructor_states(audit: Audit, runs: PageRuns) -> None:
    """The sidebar's Classroom panel open, then with a class started (its code, link and QR code); the class ends
    after (a learner's following panel needs a session of its own: not audited here)."""
    page = audit.page
    sidebar = page.get_by_test_id("stSidebar")
    panel = sidebar.get_by_test_id("stExpander").filter(has_text=prose.text("ui", "Classroom"))
    start = panel.get_by_role("button", name=prose.text("ui", "Class start"))
    if not start.is_visible():
        panel.get_by_text(prose.text("ui", "Classroom")).first.click()
    expect(start).to_be_visible()
    audit("the Classroom panel open", within='[data-testid="stSidebar"]')
    click_and_settle(page, runs, start)
    expect(panel.get_by_role("img")).to_be_visible()  # the QR code beside the class's code
    audit("the Classroom panel with a class", within='[data-testid="stSidebar"]')
    click_and_settle(page, runs, panel.get_by_role("button", name=prose.text("ui", "Class end")))
    expect(start).to_be_visible()


# The element that has the keyboard's focus (inside a component's shadow root, the element there), its name, whether a
# focus indicator is drawn on it or in it (an outline or a box-shadow: Streamlit draws its rings as box-shadows; a
# strip's cutoff line rings its handle), and whether
# it comes after the element focused before it in the page's order (each taken at the document's level, a shadow
# root's host, unless both are in the same root; null when there is nothing to compare with: no focus before, or it
# was redrawn by a run).
FOCUSED = r"""() => {
  let a = document.activeElement;
  while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
  if (!a || a === document.body) return null;
  const drawn = (e) => { const s = getComputedStyle(e);
                         return (s.outlineStyle !== "none" && parseFloat(s.outlineWidth) > 0) || s.boxShadow !== "none"; };
  const box = a.closest('[data-testid="stTextInputRootElement"]');  // a text box's ring is round its box
  const ring = drawn(a) || [...a.querySelectorAll("*")].some(drawn) || (box !== null && drawn(box));
  const name = (a.getAttribute("aria-label") || (a.labels && a.labels[0] && a.labels[0].innerText) || a.innerText
                || "").replace(/\s+/g, " ").trim().slice(0, 80);
  const last = window.__rwLastFocus;
  let after = null;
  if (last && last.isConnected && last !== a) {
    let x = last, y = a;
    if (x.getRootNode() !== y.getRootNode()) {
      while (x.getRootNode() !== document) x = x.getRootNode().host;
      while (y.getRootNode() !== document) y = y.getRootNode().host;
    }
    if (x !== y) after = !!(x.compareDocumentPosition(y) & Node.DOCUMENT_POSITION_FOLLOWING);
  }
  window.__rwLastFocus = a;
  return { tag: a.tagName, name, ring, after, id: a.dataset ? a.dataset.id || null : null };
}"""


class Keyboard:
    """Drives one page with the keyboard alone and checks every focus it lands on: a focus ring is drawn, and a Tab
    lands later in the page's order (Shift+Tab earlier)."""

    def __init__(self, page: Page, runs: PageRuns) -> None:
        self.page, self.runs = page, runs
        self.path: list[str] = []

    def focused(self) -> dict:
        seen = self.page.evaluate(FOCUSED)
        assert seen is not None, f"the focus was lost after {self.path[-3:]}"
        return seen

    def tab(self, back: bool = False) -> dict:
        self.page.keyboard.press("Shift+Tab" if back else "Tab")
        seen = self.focused()
        self.path.append(f"{'Shift+Tab' if back else 'Tab'} -> {seen['tag']} {seen['name']!r}")
        assert seen["ring"], f"no visible focus ring on {self.path[-1]} (after {self.path[-12:-1]})"
        assert seen["after"] in (None, not back), f"focus order: {self.path[-1]} is not {'before' if back else 'after'} " \
                                                f"the element focused before it ({self.path[-3:-1]})"
        return seen

    def tab_to(self, name: str | re.Pattern, *, back: bool = False, limit: int = 120) -> dict:
        """Tab (or Shift+Tab) until the focus is on an element named ``name`` (exact, or a pattern)."""
        for _ in range(limit):
            seen = self.tab(back)
            if (seen["name"] == name) if isinstance(name, str) else name.search(seen["name"]):
                return seen
        raise AssertionError(f"{name!r} not reached in {limit} presses: {self.path[-limit:]}")

    def press(self, key: str) -> dict:
        """Press ``key`` where the focus is and wait for the run it causes; the focus is still shown."""
        mark = self.runs.mark()
        self.page.keyboard.press(key)
        settle(self.page, since=mark)
        next_frames(self.page)
        seen = self.focused()
        self.path.append(f"{key} -> {seen['tag']} {seen['name']!r}")
        assert seen["ring"], f"no visible focus ring after {self.path[-1]}"
        return seen


def keyboard_lesson(page: Page, runs: PageRuns) -> None:
    """The Recall@k lesson with the keyboard alone (issue #45, item 3): change k, reorder a case
    and move one in from the tray, load a preset (back up the page with Shift+Tab), answer the first practice
    question wrong then right, and follow the link to the next lesson, starting from the lesson's link in the sidebar
    (the rest of the sidebar is on the way). Every focus shows its ring, and the focus
    moves in the page's order. The keys: Tab, Shift+Tab, the arrows (down the list and on into the open tray, which
    shares the list's Tab stop), Space, Enter, the editor's T (a row in or out of the tray, as its help line says:
    Space lifts a tray row within the tray only) and typing (and Backspace) in the answer box."""
    visit(page, "recall")
    page.mouse.move(0, page.viewport_size["height"] - 1)
    # The walk starts on the lesson's link in the sidebar, as after following it by keyboard (the page drawn anew under
    # a clicked link leaves Tab's starting point anywhere: 2 runs in 6 began mid-page).
    page.get_by_test_id("stSidebar").get_by_role("link", name=registry.spec("recall").title, exact=True).focus()
    keys = Keyboard(page, runs)
    slider = keys.tab_to(prose.text("ui", "Cutoff k"))
    assert slider["tag"] == "INPUT", f"the first 'Cutoff k' in Tab order is not the slider: {keys.path[-6:]}"
    keys.press("ArrowRight")
    page.wait_for_url(re.compile(r"[?&]k=6\b"))
    editor = lesson_editor(page)
    rows = editor.get_by_test_id("rw-list").locator("li.rw-row")
    first, second = rows.nth(0).get_attribute("data-id"), rows.nth(1).get_attribute("data-id")
    row = keys.tab_to(re.compile("."))  # the list's one Tab stop comes after the slider (and the hint's fold)
    while row["tag"] != "LI":
        row = keys.tab()
    assert row["id"] == first, f"the list's Tab stop is its first row, not {row}"
    title, n = rows.nth(0).get_by_test_id("rw-title").inner_text(), rows.count()
    # The help line is read once, as shown; the list's description has all its keys, each by its name, apart.
    assert editor.aria_snapshot().count(prose.text("editor", "Hint move", keys="", lift="", move="", drop="",
                                                   escape="")[:10]) == 1
    expect(editor.get_by_test_id("rw-list")).to_have_accessible_description(
        re.compile(f"{prose.text('editor', 'Key up')} {prose.text('editor', 'Key down')} .+ Home End "))
    page.evaluate(LISTEN)
    page.keyboard.press("Space")  # lift
    page.keyboard.press("ArrowDown")  # move it down one (drawn, nothing sent)
    keys.press("Space")  # drop: one change sent
    expect(rows.nth(0)).to_have_attribute("data-id", second)
    expect(rows.nth(1)).to_have_attribute("data-id", first)
    heard(page, "rw-live", [prose.text("editor", "Lifted", title=title),
                            prose.text("editor", "Moved to position", title=title, pos=2, n=n),
                            prose.text("editor", "Dropped", title=title, pos=2, n=n)], BOARD_RECALL)
    toggle = editor.get_by_test_id("rw-tray-toggle")
    keys.tab_to(re.compile(re.escape(toggle.inner_text().strip())))
    if toggle.get_attribute("aria-expanded") == "false":
        page.keyboard.press("Enter")
        expect(toggle).to_have_attribute("aria-expanded", "true")
    count = rows.count()
    tray_first = editor.get_by_test_id("rw-tray-list").locator("li.rw-row").first.get_attribute("data-id")
    row = keys.tab(back=True)  # back to the editor's one Tab stop, the row moved last
    for _ in range(count):  # down the list and on into the open tray
        if row["id"] == tray_first:
            break
        page.keyboard.press("ArrowDown")
        row = keys.focused()
        assert row["ring"], f"no visible focus ring on the row {row}"
    assert row["id"] == tray_first, f"ArrowDown from the list's last row does not reach the tray, but {row}"
    tray_row = row
    keys.press("t")  # into the list
    expect(rows).to_have_count(count + 1)
    expect(editor.get_by_test_id("rw-list").locator(f'li.rw-row[data-id="{tray_row["id"]}"]')).to_have_count(1)
    preset = prose.text("recall", "Button system", system="System B", k=scenarios.LAWYER_DEFAULT_K["System B"])
    keys.tab_to(preset, back=True)
    keys.press("Enter")
    page.wait_for_url(re.compile(rf"[?&]k={scenarios.LAWYER_DEFAULT_K['System B']}\b"))
    answer = keys.tab_to(quiz_ui.text("card answer"))
    assert answer["tag"] == "INPUT"
    question = next(q for q in quiz.questions_for("recall") if quiz.is_graded(q))  # the practice's first card
    card = page.locator(f".st-key-quiz-recall-{question.id.replace('.', '-')}")  # quiz_ui's card, keyed by page and id
    expect(card.get_by_label(quiz_ui.text("card answer"))).to_be_focused()
    page.keyboard.type("0.123")
    keys.press("Enter")  # the form's Check
    expect(card.get_by_test_id("stAlertContentError")).to_be_visible()
    assert keys.focused()["name"] == quiz_ui.text("card answer"), f"the focus left the answer box: {keys.path[-1]}"
    for _ in range(8):
        page.keyboard.press("Backspace")
    page.keyboard.type(f"{question.answer:g}")
    keys.press("Enter")
    expect(card.get_by_test_id("stAlertContentSuccess")).to_be_visible()
    after = registry.neighbours("recall")[1]
    assert after is not None
    keys.tab_to(re.compile(re.escape(prose.text("ui", "Next", title=after.title))))
    page.keyboard.press("Enter")
    page.wait_for_url(f"**/{after.url_path}*")
    expect(page.get_by_role("heading", level=1).first).to_be_visible()


# What reaches past the window's right edge, with the page as it is laid out now: the main area or the document
# scrolling sideways, and every element (shadow roots too) whose box goes past the edge while no box between it and the
# main area scrolls sideways (a table's own box may: WCAG 1.4.10 allows it). The sidebar (folded over the page at these
# widths), the contents of a closed fold (laid out, not shown) and Streamlit's slider's native range input are left
# out (a transparent box, 129 px wide, centred on the thumb as its pointer and keyboard target: at the top
# value half of it lies past the rail's end, with nothing drawn and the page not scrolling).
PAST_THE_EDGE = """() => {
  const width = document.documentElement.clientWidth;
  const main = document.querySelector('[data-testid="stMain"]');
  const found = [];
  if (document.documentElement.scrollWidth > width) found.push(`the document scrolls sideways (${document.documentElement.scrollWidth} px)`);
  if (main.scrollWidth > main.clientWidth) found.push(`the main area scrolls sideways (${main.scrollWidth} px in ${main.clientWidth})`);
  const up = (e) => e.parentElement || (e.getRootNode() instanceof ShadowRoot ? e.getRootNode().host : null);
  const inScroller = (e) => {
    for (let a = up(e); a && a !== main; a = up(a)) {
      const x = getComputedStyle(a).overflowX;
      if (x === "auto" || x === "scroll") return true;
    }
    return false;
  };
  const walk = (root) => {
    for (const e of root.querySelectorAll("*")) {
      if (e.shadowRoot) walk(e.shadowRoot);
      const box = e.getBoundingClientRect();
      if (!box.width || box.right <= width + 1) continue;
      const host = e.getRootNode() instanceof ShadowRoot ? e.getRootNode().host : e;
      if (host.closest('[data-testid="stSidebar"], details:not([open])') || inScroller(e)) continue;
      if (e.matches('[data-testid="stSlider"] input[type="range"]')) continue;  // see the comment above
      found.push(`${e.tagName.toLowerCase()}.${(e.getAttribute("class") || "").split(" ")[0]} ends at ${Math.round(box.right)} px: `
                 + JSON.stringify((e.textContent || "").trim().slice(0, 40)));
      if (found.length > 6) return;
    }
  };
  walk(document);
  return found;
}"""

# 200% zoom of a 1280x720 screen (WCAG 1.4.4) and the reflow width (WCAG 1.4.10, 320 CSS px; the height a phone's).
ZOOMED = ({"width": 640, "height": 360}, {"width": 320, "height": 640})
# One page of each kind: a lesson with its editor and strips, the four-query figure, tables beside an editor.
REFLOWED = ("recall", "four_queries", "differ")


def at_size(page: Page, size: dict[str, int]) -> None:
    """Set the window to ``size`` and wait until the layout has caught up with it: the main area's widths and the
    page's height stay put."""
    page.set_viewport_size(size)
    hold_still(page, read="""() => { const m = document.querySelector('[data-testid="stMain"]');
                                     return `${m.clientWidth} ${m.scrollWidth} ${m.scrollHeight}`; }""")


def reflow(audit: Audit) -> None:
    """At 200% zoom and at 320 px wide, the page (as it stands) has nothing past the window's right edge outside a
    box that scrolls sideways (a table's), and does not scroll sideways; back to the audit's size after."""
    page, size = audit.page, audit.page.viewport_size
    where = page.url.split("?")[0].rsplit("/", 1)[-1]
    for zoomed in ZOOMED:
        at_size(page, zoomed)
        for problem in page.evaluate(PAST_THE_EDGE):
            audit.found.append(f"reflow on {where} at {zoomed['width']}x{zoomed['height']}: {problem}")
    at_size(page, size)


NARROW = {"width": 1024, "height": 768}  # a small laptop's window: the sidebar still beside the page


def narrow(page: Page, spec: registry.PageSpec) -> None:
    """At 1024x768, nothing on the lesson ``spec`` is cut short or pushed sideways (tests/e2e/layout_checks.py);
    back to the window's size after."""
    size = page.viewport_size
    at_size(page, NARROW)
    check_nothing_cut_short(page, spec, projected=False)
    at_size(page, size)


def laptop_page(shared_context, app_url) -> tuple[Page, PageRuns, Audit, PayloadLinks]:
    """A page of its own (a session of its own) at 1366x768, not yet opened, with its audit and its payload
    links."""
    page = shared_context.new_page()
    runs = PageRuns(page)
    page.set_viewport_size({"width": 1366, "height": 768})
    return page, runs, Audit(page, "1366x768"), PayloadLinks(page, app_url)


def test_every_page_and_the_lessons_states_at_a_laptops_size(shared_context, app_url):
    """At 1366x768: every page in its first state, opened from a link with markup in every parameter
    (tests/e2e/payload_links.py: the link's notes show as text, no other host is asked for anything), and the
    states a learner reaches on the lessons (the data pages, practice and the instructor's panel: the next test,
    which the suite's other worker can take). Each lesson and Why does my number differ? also at 1024x768: nothing
    cut short or pushed sideways. A note dismissed at the end goes, and the others stay."""
    page, runs, audit, links = laptop_page(shared_context, app_url)
    for spec in registry.PAGES:
        if spec.module in ("your_data", "compare_runs", "practice"):
            continue  # with their states: the next test
        links.open(spec)
        audit(spec.url_path)
        live_regions(audit, spec.url_path)
        if spec.module in REFLOWED:
            reflow(audit)
        if spec in SEQUENCE:
            narrow(page, spec)
        if spec.module == "recall":
            editor_states(audit)
            strip_move(audit, runs)
        if spec.module == "four_queries":
            figure_move(audit, runs)
    links.dismiss_one()
    page.close()
    audit.check()


def test_the_data_pages_practice_and_the_instructors_panel_at_a_laptops_size(shared_context, app_url):
    """At 1366x768: "Your data" and Compare runs before and with results, practice's feedback and hints, the
    Classroom panel before and with a class; each page opened from a payload link."""
    page, runs, audit, links = laptop_page(shared_context, app_url)
    data_states(audit, runs, links)
    practice_states(audit, runs, links)
    instructor_states(audit, runs)
    page.close()
    audit.check()


def test_a_whole_lesson_by_keyboard_alone(shared_context, app_url):
    """At 1366x768, on a session of its own (a test of its own: the suite's workers share the long ones out)."""
    page, runs, _, _ = laptop_page(shared_context, app_url)
    page.goto(app_url + "/")
    expect(page.get_by_test_id("stMain")).to_be_visible()
    keyboard_lesson(page, runs)
    page.close()


def test_every_lesson_projected(browser, browser_context_args, app_url):
    """At 1280x720 in projector mode (?projector=1): the home page and every lesson in its first state, walked as a
    class walks them, from the home page's link by each one's "Next" link: the fresh load runs once and each page
    after it once (nothing stored in the browser asks for another run), nothing is stored, the projector's folded
    sidebar stays folded, and nothing is cut short or pushed sideways on any (tests/e2e/layout_checks.py). (The
    other pages, the glossary, the data pages and practice, are audited at a laptop's size: projected, they are
    the same markup in larger type.) A browser context of its own: the module's others store a learner's
    progress."""
    context = browser.new_context(**browser_context_args)
    page = context.new_page()
    runs = PageRuns(page)
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(app_url + "/?projector=1")
    assert runs_after_the_helpers_read(page, runs) == 1, "a fresh visit ran twice"
    page.wait_for_function("() => parseFloat(getComputedStyle(document.documentElement).fontSize) > 20")
    audit = Audit(page, "1280x720 projected")
    audit(registry.PAGES[0].url_path)
    before = runs.count
    page.get_by_test_id("stPageLink").filter(has_text=LESSONS[0].title).click()
    page.wait_for_url(f"**/{LESSONS[0].url_path}*")
    for spec, after in zip(LESSONS, [*LESSONS[1:], None]):
        check_nothing_cut_short(page, spec, projected=True)
        assert runs.count - before == 1, f"{spec.url_path}: its first run asked for a second"
        assert stores_nothing(page), f"{spec.url_path}: a visit with nothing solved stores something"
        audit(spec.url_path)
        if after is not None:
            before = runs.count
            follow_next(page, after)
    context.close()
    audit.check()
