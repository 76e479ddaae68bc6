"""Glossary links: every [[term]] in the lesson texts resolves to an entry, and linking breaks nothing."""
from __future__ import annotations

import re
import string

import pytest

from components.course import prose
from components.ui import registry

TEXT_FILES = sorted(p.stem for p in prose.TEXT_DIR.glob("*.md"))
LESSONS = ["accuracy", "recall", "mrr", "ap", "ndcg", "four_queries", "choosing", "differ"]
LATEX = re.compile(r"\$\$.*?\$\$|\$[^$]*\$", re.S)
# The terms the issue names: each must have an entry.
REQUIRED = ["relevance judgment", "grade", "qrels", "run", "pooling", "cutoff k", "hit", "hit rate", "Success@k",
            "recall", "Recall@k", "precision", "P@k", "reciprocal rank", "MRR", "gain", "discount", "DCG",
            "ideal ordering", "IDCG", "nDCG", "unjudged document", "trec_eval"]


def marks(name: str) -> list[tuple[str, str]]:
    """(heading, term) for every marked term in lessons/text/<name>.md."""
    return [(heading, term) for heading, body in prose.sections(name).items() for term in prose.marked_terms(body)]


@pytest.mark.parametrize("name", TEXT_FILES)
def test_every_marked_term_resolves_to_a_glossary_entry(name):
    anchors = set(prose.anchor(names[0]) for names in prose.glossary_entries().values())
    for heading, term in marks(name):
        assert prose.term_anchor(term) in anchors, f"lessons/text/{name}.md '## {heading}': [[{term}]]"


@pytest.mark.parametrize("name", LESSONS)
def test_each_lesson_links_its_terms_and_each_term_once(name):
    linked = [prose.term_anchor(term) for _, term in marks(name)]
    assert len(linked) >= 5, f"lessons/text/{name}.md links too few glossary terms"
    assert len(linked) == len(set(linked)), "only the first use of a term is linked"


def placeholders(text: str) -> set[str] | None:
    """A template's placeholders; None for text that is no template (LaTeX braces)."""
    try:
        return {f for _, f, _, _ in string.Formatter().parse(text) if f}
    except ValueError:
        return None


@pytest.mark.parametrize("name", TEXT_FILES)
def test_no_mark_inside_latex_and_templates_still_fill(name):
    for heading, body in prose.sections(name).items():
        for formula in LATEX.findall(body):
            assert "[[" not in formula, f"{name}.md '## {heading}': a mark inside LaTeX"
        raw = placeholders(body)
        linked = prose.section(name, heading)
        assert placeholders(linked) == raw
        if raw:
            filled = prose.fill(linked, **{f: "X" for f in raw})
            assert "[[" not in filled and "{" not in filled


def test_section_renders_links_and_leaves_unmarked_text_alone():
    body = prose.sections("mrr")["Intro"]
    assert "[[Reciprocal rank]]" in body
    shown = prose.section("mrr", "Intro")
    assert "[Reciprocal rank](/glossary#reciprocal-rank)" in shown and "[[" not in shown
    assert prose.section("home", "Welcome") == prose.sections("home")["Welcome"]


def test_link_syntax():
    assert prose.link_terms("see [[DCG|discounted cumulative gain]]") == \
        "see [discounted cumulative gain](/glossary#dcg)"
    assert prose.link_terms("**[[Recall@k]]** and [[hit rate@k]]") == \
        "**[Recall@k](/glossary#recall)** and [hit rate@k](/glossary#hit-rate)"
    assert prose.link_terms("[[  Ideal   ordering ]]") == "[Ideal   ordering](/glossary#ideal-ordering)"
    assert prose.link_terms("no marks, [a link](x), {k}") == "no marks, [a link](x), {k}"
    with pytest.raises(KeyError, match="names no entry"):
        prose.link_terms("[[no such term]]")


@pytest.mark.parametrize("term", REQUIRED)
def test_the_issues_terms_have_entries(term):
    assert prose.term_anchor(term)


def test_entries_are_short_and_anchors_unique():
    entries = prose.glossary_entries()
    anchors = [prose.anchor(names[0]) for names in entries.values()]
    assert len(anchors) == len(set(anchors)) and all(anchors)
    for heading in entries:
        body = prose.sections(prose.GLOSSARY)[heading]
        assert body and len(body.splitlines()) <= 2, heading


def test_the_glossary_page_is_registered_where_the_links_point():
    spec = next(p for p in registry.PAGES if p.module == prose.GLOSSARY)
    assert "/" + spec.url_path == prose.GLOSSARY_URL
    assert not spec.in_sequence
