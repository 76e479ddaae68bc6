"""axe-core in a real browser page (issue #45): :class:`Audit` runs it state after state and keeps every serious or
critical violation in the project's own markup (tests/e2e/test_accessibility.py says what is audited and why
Streamlit's navigation is excluded; tests/e2e/test_live_class.py audits a following learner)."""
from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect

from tests.e2e.helpers import next_frames, settle

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
