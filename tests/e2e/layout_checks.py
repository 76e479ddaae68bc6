"""What a narrow or projected window must not cut short or push sideways, checked page by page as a class walks the
lessons by their "Next" links (tests/e2e/test_classroom.py at 1024x768; tests/e2e/test_accessibility.py projected,
where it walks them anyway)."""
from __future__ import annotations

from playwright.sync_api import Page, expect

from components.course import prose
from components.ui import registry
from tests.e2e.helpers import hold_still, next_frames, settle

SEQUENCE = [spec for spec in registry.PAGES if spec.in_sequence]  # the lessons, then Why does my number differ?
LESSONS = registry.PAGES[registry.PAGES.index(registry.spec("accuracy")):registry.PAGES.index(registry.spec("choosing")) + 1]

# What a narrow window must not cut short or push sideways: metric labels, sidebar page names and button labels
# (cut with an ellipsis: a preset "Top 10, half of the…"), formulas, worked or the lesson's own (wider than their
# column: "accurac" at 1024 px), tables (scrolling sideways), and a ranking editor's titles (squeezed beside the
# row's buttons: three MRR editors side by side at 1024 px kept 27 px of "lombok-1.18.30.jar", "lom").
_CUT_SHORT = """() => {
    const cut = (sel) => [...document.querySelectorAll(sel)].filter(e => e.scrollWidth > e.clientWidth + 1)
        .map(e => sel + ': ' + e.textContent.slice(0, 40));
    const wide = [...document.querySelectorAll('.katex')]
        .filter(e => e.getBoundingClientRect().right > e.closest('[data-testid="stElementContainer"]')
            .getBoundingClientRect().right + 1).map(e => 'formula: ' + e.textContent.slice(0, 40));
    const em = (e) => parseFloat(getComputedStyle(e).fontSize);
    const squeezed = [...document.querySelectorAll('[data-testid="stMain"] *')].map(h => h.shadowRoot).filter(Boolean)
        .flatMap(root => [...root.querySelectorAll('.rw-list .rw-title')])
        .filter(t => t.clientWidth > 0 && t.clientWidth < 5 * em(t))
        .map(t => 'editor title ' + t.clientWidth + ' px: ' + t.textContent.slice(0, 40));
    return [...cut('[data-testid="stMetricLabel"] p'), ...cut('[data-testid="stMetricLabel"] div'),
            ...cut('[data-testid="stSidebarNavLink"] span'), ...cut('[data-testid="stTable"]'),
            ...cut('[data-testid="stDataFrame"] .dvn-scroller'), ...cut('.katex-display'), ...wide,
            ...cut('[data-testid="stMain"] button [data-testid="stMarkdownContainer"]'), ...squeezed];
}"""


def check_nothing_cut_short(page: Page, spec: registry.PageSpec, *, projected: bool) -> None:
    """On the lesson ``spec`` as the page shows it now: nothing cut short or pushed sideways, and a projector's
    folded sidebar still folded."""
    expect(page.get_by_test_id("stMain").get_by_role("heading").first).to_be_visible()
    settle(page)
    page.evaluate("() => document.fonts.ready")
    next_frames(page)
    sidebar = page.get_by_test_id("stSidebar").bounding_box()
    assert not projected or sidebar["x"] + sidebar["width"] <= 0, f"/{spec.url_path}: the projector's sidebar opened"
    # The app's own style comes with the run (a sidebar page name wraps), and KaTeX draws a lesson's formula a
    # moment after its text (its module loads on first use): measure once both are there.
    formula = "document.querySelector('.katex-display')" if "Formula" in prose.sections(spec.module) else "true"
    page.wait_for_function(f"""() => {formula} && getComputedStyle(
        document.querySelector('[data-testid="stSidebarNavLink"] span')).whiteSpace === 'normal'""")
    # KaTeX's fonts are asked for once its formula is drawn, and a formula laid out before they arrive is wider
    # for a moment (a loaded CI run caught one at 1024 px): the fonts, then the formulas' widths at rest.
    page.evaluate("() => document.fonts.ready.then(() => true)")
    hold_still(page, read="() => [...document.querySelectorAll('.katex-display')].map(e => e.scrollWidth).join()")
    cut = page.evaluate(_CUT_SHORT)
    width = page.viewport_size["width"]
    assert not cut, f"/{spec.url_path} at {width}px cuts short or pushes sideways: {cut}"


def follow_next(page: Page, after: registry.PageSpec) -> None:
    """Click the lesson's "Next" link to ``after`` and wait for its address."""
    page.get_by_test_id("stPageLink").filter(has_text=prose.text("ui", "Next", title=after.title)).click()
    page.wait_for_url(f"**/{after.url_path}*")
