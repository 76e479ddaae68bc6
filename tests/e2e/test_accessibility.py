"""WCAG 2.1 A and AA in a real browser, checked by axe-core (issue #45): every page of the app and the states a
learner reaches, at a laptop's size and projected.

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
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from components.course import prose
from components.ui import quiz_ui, registry
from tests.e2e.helpers import PageRuns, click_and_settle, hold_still, lesson_editor, next_frames, settle
from tests.e2e.navigation import open_shared_page, visit

pytestmark = pytest.mark.e2e

AXE = Path(__file__).with_name("vendor") / "axe-core" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
# Streamlit's own markup, not the project's (see the module's docstring).
EXCLUDE = ['[data-testid="stSidebarNav"]']

# axe.run on the page (or on the element ``include`` selects, shadow roots and all), less the excluded markup; the serious and critical violations, each with its nodes' targets
# (a target inside a shadow root is a list: the host's selector, then the node's within it).
RUN_AXE = r"""async ([include, exclude, tags]) => {
  const context = { exclude: exclude.map((s) => [s]) };
  if (include) context.include = [[include]];
  const result = await axe.run(context,
                               { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] });
  // Streamlit's generated class names say nothing to a reader: left out of the selectors shown.
  const short = (selector) => selector.replace(/\.(st-emotion-cache-|e[0-9a-z]{5,}\d)[\w-]*/g, "");
  const name = (target) => target.map((part) => short(Array.isArray(part) ? part.join(" >> ") : part)).join(" ");
  return result.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({ rule: v.id, impact: v.impact, nodes: v.nodes.map((n) => name(n.target)) }));
}"""


# axe checks the contrast of text only where it can find its background: text in a scrolled box below the box's
# visible part goes unchecked ("partially obscured"), and Streamlit's main area is such a box, inside containers
# clipped to the window. Here the document scrolls instead of the main area, so every text on the page is checked
# (the widths, and so the layout, stay as they were).
UNCLIP = """html, body, [data-testid="stApp"], [data-testid="stAppViewContainer"], [data-testid="stMain"] {
  overflow: visible !important; height: auto !important; }"""

# True once every component shown in a shadow root has adopted its stylesheets and none is still empty (a hidden
# helper component has none).
STYLED = """() => [...document.querySelectorAll('[data-testid="stBidiComponentIsolated"]')]
  .filter((host) => host.shadowRoot && host.getClientRects().length)
  .every((host) => host.shadowRoot.adoptedStyleSheets.length
                   && host.shadowRoot.adoptedStyleSheets.every((sheet) => sheet.cssRules.length))"""

# Known violations, each left for its owner with its reason (issue #45): (rule, page, size) -> why, not counted as
# failures; anything else fails. None is left: the projected tables that scrolled sideways now wrap their cells' words
# and Compare runs' formula keeps room for its brackets (components/ui/widgets.py's CSS).
KNOWN: dict[tuple[str, str, str], str] = {}


class Audit:
    """Runs axe on one browser page, state after state, and keeps every serious or critical violation found."""

    def __init__(self, page: Page, size: str) -> None:
        self.page, self.size = page, size
        self.found: list[str] = []
        self.audited: list[str] = []

    def __call__(self, where: str, *, within: str | None = None, pointer_away: bool = True) -> None:
        """Audit the page as it is now (or only the element ``within`` selects: a state that changes one part of a
        page audited whole just before), named ``where`` in the failure message."""
        settle(self.page)
        if pointer_away:  # a tooltip under the pointer of the last click, caught fading in, is not a state to audit
            self.page.mouse.move(0, self.page.viewport_size["height"] - 1)
            expect(self.page.locator(".stTooltipContent")).to_have_count(0)
        # The components' stylesheets arrive after the run (dom.js adoptStyles fetches each once per page): until
        # then an editor is hidden, and axe would skip it.
        self.page.wait_for_function(STYLED)
        # A formula laid out before its KaTeX fonts arrived is wider than it will be, and may scroll for a moment.
        self.page.evaluate("() => document.fonts.ready.then(() => true)")
        next_frames(self.page)
        if not self.page.evaluate("() => typeof window.axe === 'object'"):
            self.page.add_script_tag(path=str(AXE))
            self.page.add_style_tag(content=UNCLIP)
        self.audited.append(where)
        for v in self.page.evaluate(RUN_AXE, [within, EXCLUDE, TAGS]):
            if (v["rule"], where, self.size) in KNOWN:
                continue
            nodes = "\n      ".join(v["nodes"][:8]) + ("\n      ..." if len(v["nodes"]) > 8 else "")
            self.found.append(f"{v['rule']} ({v['impact']}) on {where} at {self.size}, "
                              f"{len(v['nodes'])} node(s):\n      {nodes}")

    def check(self) -> None:
        assert not self.found, (f"axe-core found {len(self.found)} serious or critical violation(s) in "
                                f"{len(self.audited)} audits:\n  " + "\n  ".join(self.found))


def first_page(audit: Audit) -> None:
    """The page opened on the home page (the default page, at "/": navigation.visit finds the others by path)."""
    expect(audit.page.get_by_test_id("stMain")).to_be_visible()
    audit(registry.PAGES[0].url_path)


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


def data_states(audit: Audit, runs: PageRuns) -> None:
    """"Your data" with the sample files' results, then Compare runs with the samples' comparison."""
    page = audit.page
    visit(page, "your_data")
    audit("your-data")
    click_and_settle(page, runs, page.get_by_role("button", name=prose.text("your_data", "Use samples")))
    expect(page.locator(".st-key-your-data-table table td").first).to_be_attached()  # the grid's table for AT
    audit("your-data with results")
    visit(page, "compare_runs")
    audit("compare-runs")
    click_and_settle(page, runs, page.get_by_role("button", name=prose.text("compare_runs", "Add samples")))
    expect(page.get_by_text("sample_run_c.txt").first).to_be_visible()
    audit("compare-runs with results")


def practice_states(audit: Audit, runs: PageRuns) -> None:
    """Practice: a wrong number's feedback, then the method hint and the solution open on the same card."""
    page = audit.page
    visit(page, "practice")
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


def test_every_page_and_state_at_a_laptops_size(shared_context, app_url):
    """At 1366x768: every page in its first state, and the states a learner reaches on them."""
    page = shared_context.new_page()
    runs = PageRuns(page)
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(app_url + "/")
    audit = Audit(page, "1366x768")
    first_page(audit)
    for spec in registry.PAGES[1:]:
        if spec.module in ("your_data", "compare_runs", "practice"):
            continue  # with their states, below
        visit(page, spec.module)
        audit(spec.url_path)
        if spec.module == "recall":
            editor_states(audit)
    data_states(audit, runs)
    practice_states(audit, runs)
    page.close()
    audit.check()


def test_every_page_projected(shared_context, app_url):
    """At 1280x720 in projector mode (?projector=1): every page in its first state."""
    page = open_shared_page(shared_context, app_url + "/?projector=1", {"width": 1280, "height": 720})
    page.wait_for_function("() => parseFloat(getComputedStyle(document.documentElement).fontSize) > 20")
    audit = Audit(page, "1280x720 projected")
    first_page(audit)
    for spec in registry.PAGES[1:]:
        visit(page, spec.module)
        audit(spec.url_path)
    page.close()
    audit.check()
