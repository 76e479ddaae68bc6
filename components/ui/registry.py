"""The one ordered list of pages: navigation, the home page's map and previous/next links.

A page is listed here only once it exists (no placeholder pages). Titles and
section names are in lessons/text/navigation.md; links and tests rely on them.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import streamlit as st

from components.course import prose

TEXT = "navigation"  # lessons/text/navigation.md: section names and page titles


@dataclass(frozen=True)
class PageSpec:
    section_key: str  # the navigation section: "## section <key>" of lessons/text/navigation.md
    module: str  # lessons/<module>.py runs render() as a page script; its prose is lessons/text/<module>.md
    url_path: str
    icon: str  # an emoji: a ":material/" icon would fetch a font from a CDN
    in_sequence: bool = True  # part of the previous/next walk through the course

    @property
    def title(self) -> str:
        """The page's title in the navigation and its links ("## page <module>")."""
        return prose.text(TEXT, f"page {self.module}")

    @property
    def section(self) -> str:
        """The name of the page's navigation section."""
        return prose.text(TEXT, f"section {self.section_key}")

    @property
    def summary(self) -> str:
        """The one-line description on the home page's map (the page's "## Summary")."""
        return prose.section(self.module, "Summary")


PAGES: tuple[PageSpec, ...] = (
    PageSpec("start", "home", "home", "🏠", in_sequence=False),
    PageSpec("start", "accuracy", "why-accuracy-fails", "🎯"),
    PageSpec("metrics", "recall", "recall", "🔎"),
    PageSpec("metrics", "mrr", "mrr", "🥇"),
    PageSpec("metrics", "ap", "average-precision", "🎚️"),
    PageSpec("metrics", "ndcg", "ndcg", "📶"),
    PageSpec("metrics", "four_queries", "four-queries", "🧮"),
    PageSpec("together", "fusion", "hybrid-search", "🔀"),
    PageSpec("together", "choosing", "choosing-a-metric", "🧭"),
    PageSpec("together", "differ", "why-does-my-number-differ", "⚖️"),
    PageSpec("together", "glossary", "glossary", "📖", in_sequence=False),
    PageSpec("data", "your_data", "your-data", "📂", in_sequence=False),
    PageSpec("data", "compare_runs", "compare-runs", "🧪", in_sequence=False),
    PageSpec("practice", "practice", "practice", "✏️", in_sequence=False),
)


LESSONS_DIR = Path(__file__).resolve().parents[2] / "lessons"  # the page scripts


def page_for(spec: PageSpec) -> st.Page:
    """The st.Page for a spec: the file lessons/<module>.py (the same spec gives the same page)."""
    return st.Page(LESSONS_DIR / f"{spec.module}.py", title=spec.title, icon=spec.icon, url_path=spec.url_path,
                   default=spec is PAGES[0])


def spec_at(url_path: str | None) -> PageSpec | None:
    """The page whose st.Page has this url path ("" is the default page's, as Streamlit gives it), or None."""
    if url_path is None:
        return None
    if url_path == "":
        return PAGES[0]
    return next((p for p in PAGES[1:] if p.url_path == url_path), None)


def spec(module: str) -> PageSpec:
    """The page of lessons/<module>.py."""
    return next(p for p in PAGES if p.module == module)


def navigation() -> dict[str, list[st.Page]]:
    """Sections in order, each with its pages, for st.navigation."""
    sections: dict[str, list[st.Page]] = {}
    for spec in PAGES:
        sections.setdefault(spec.section, []).append(page_for(spec))
    return sections


def lesson_number(module: str) -> int:
    """The number of lessons/<module>.py in the course, from 1, as the home page numbers it (the in_sequence pages,
    in order); a text that names a lesson by number fills it from here."""
    walk = [p.module for p in PAGES if p.in_sequence]
    if module not in walk:
        raise ValueError(f"{module!r} is not a page in the course sequence")
    return walk.index(module) + 1


def neighbours(module: str) -> tuple[PageSpec | None, PageSpec | None]:
    """The previous and next page in the course sequence around ``module``."""
    walk = [p for p in PAGES if p.in_sequence]
    names = [p.module for p in walk]
    if module not in names:
        raise ValueError(f"{module!r} is not a page in the course sequence")
    i = names.index(module)
    return (walk[i - 1] if i > 0 else None, walk[i + 1] if i + 1 < len(walk) else None)


def page_url(spec: PageSpec) -> str:
    """The URL path of a page (the default page is served only at "/")."""
    return "/" if spec is PAGES[0] else f"/{spec.url_path}"


def glossary_links() -> dict[str, list[PageSpec]]:
    """A glossary entry's anchor -> the pages whose text links that entry, in course order."""
    pages: dict[str, list[PageSpec]] = {}
    for spec in PAGES:
        if spec.module == prose.GLOSSARY:
            continue
        anchors = {prose.term_anchor(t) for body in prose.sections(spec.module).values()
                   for t in prose.marked_terms(body)}
        for a in sorted(anchors):
            pages.setdefault(a, []).append(spec)
    return pages
