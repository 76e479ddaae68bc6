"""Lesson prose: Markdown files in lessons/text/, one per page, split by "## " headings.

Sentences generated from live numbers are templates with named placeholders
(``{k}``, ``{recall}``) kept in the same files; :func:`fill` substitutes them.
A word that goes with a count names the count and its two forms,
``{n} {n:query|queries} {n:was|were} skipped``, and agrees with it
(:func:`components.engine.formatting.plural`).
The loader sits in components/ (the text stays with the lessons) because the
quiz UI and the command line's comparison table use the same texts, and data
flows down: components never import lessons.
"""
from __future__ import annotations

import functools
import re
import string
from pathlib import Path
from types import MappingProxyType
from typing import Mapping

from components.engine.formatting import PLURAL_MARK, plural

TEXT_DIR = Path(__file__).resolve().parents[2] / "lessons" / "text"
CLI = "cli"  # lessons/text/cli.md: every sentence the command line prints; the your-data page shares its readings


@functools.cache
def sections(name: str) -> Mapping[str, str]:
    """The sections of ``lessons/text/<name>.md``: heading -> body (stripped); read-only, shared by all sessions."""
    path = TEXT_DIR / f"{name}.md"
    parts: dict[str, str] = {}
    heading = None
    lines: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            if heading is not None:
                parts[heading] = "\n".join(lines).strip()
            heading, lines = line[3:].strip(), []
        elif heading is not None:
            lines.append(line)
    if heading is not None:
        parts[heading] = "\n".join(lines).strip()
    return MappingProxyType(parts)


def section(name: str, heading: str) -> str:
    """One section's body, marked glossary terms linked (:func:`link_terms`); a missing section is a KeyError."""
    try:
        body = sections(name)[heading]
    except KeyError:
        raise KeyError(f"lessons/text/{name}.md has no section '## {heading}'") from None
    return link_terms(body)


def placeholders(template: str) -> set[str]:
    """The ``{name}`` fields a template uses.

    >>> sorted(placeholders("k = {k}, {value} ({k})"))
    ['k', 'value']
    """
    return {field for _, field, _, _ in string.Formatter().parse(template) if field}


class _Formatter(string.Formatter):
    """``str.format``, and a field whose format is "singular|plural" gives the form that agrees with its value."""

    def format_field(self, value, format_spec: str) -> str:
        if PLURAL_MARK in format_spec:
            return plural(value, format_spec)
        return super().format_field(value, format_spec)


_FORMATTER = _Formatter()


def fill(template: str, /, **values) -> str:
    """Substitute ``{name}`` placeholders; a missing or unused value is an error, not a silent gap.

    ``{name:singular|plural}`` is the word that agrees with the count ``name``:

    >>> fill("{n} {n:query|queries} {n:loses its|lose their} hit", n=1)
    '1 query loses its hit'
    >>> fill("{n} {n:query|queries} {n:loses its|lose their} hit", n="1,204")
    '1,204 queries lose their hit'
    """
    wanted = placeholders(template)
    if wanted != set(values):
        raise KeyError(f"template wants {sorted(wanted)}, got {sorted(values)}")
    if PLURAL_MARK in template:
        return _FORMATTER.format(template, **values)
    return template.format(**values)


def text(name: str, heading: str, /, **values) -> str:
    """A section, with its placeholders filled when values are given."""
    body = section(name, heading)
    return fill(body, **values) if values else body


def text_choosing(name: str, heading: str, values: dict) -> str:
    """A section chosen at run time from several that share one pool of values.

    Each placeholder must be in ``values``; values the chosen section does not
    use are fine (the other sections of the set use them).
    """
    body = section(name, heading)
    return fill(body, **{key: values[key] for key in placeholders(body)})


# ----------------------------------------------------------------------------
# Glossary links: a writer marks a term in lesson Markdown, section() links it
# ----------------------------------------------------------------------------

GLOSSARY = "glossary"  # lessons/text/glossary.md; the page's url_path in components/ui/registry.py
GLOSSARY_URL = "/glossary"
# [[term]] or [[term|words shown]]: brace-free, so templates filled with str.format keep working.
TERM_LINK = re.compile(r"\[\[([^\[\]|\n]+?)(?:\|([^\[\]\n]+?))?\]\]")
_NOT_GLOSSARY = {"Summary", "Title", "No match", "Used in", "Label filter", "Placeholder filter"}  # the page's own


def anchor(name: str) -> str:
    """The URL anchor of a glossary entry: its first name, lower case, runs of other characters as "-".

    Examples
    --------
    >>> anchor("Hit rate"), anchor("trec_eval"), anchor("Cutoff k"), anchor("nDCG")
    ('hit-rate', 'trec-eval', 'cutoff-k', 'ndcg')
    """
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def _key(name: str) -> str:
    return " ".join(name.lower().split())


@functools.cache
def glossary_entries() -> Mapping[str, tuple[str, ...]]:
    """The glossary's entries: heading -> its names (the heading split at " / "), in file order; read-only."""
    return MappingProxyType({heading: tuple(n.strip() for n in heading.split(" / ") if n.strip())
                             for heading in sections(GLOSSARY) if heading not in _NOT_GLOSSARY})


def glossary_matching(query: str) -> list[str]:
    """The entries (headings) whose names or definition contain ``query`` (case-insensitive); all if empty."""
    query = " ".join(query.lower().split())
    return [heading for heading in glossary_entries()
            if not query or query in heading.lower() or query in sections(GLOSSARY)[heading].lower()]


@functools.cache
def glossary_anchors() -> Mapping[str, str]:
    """Every name of every entry (lower case, spaces collapsed) -> the entry's anchor; read-only."""
    found: dict[str, str] = {}
    for names in glossary_entries().values():
        for name in names:
            if _key(name) in found:
                raise ValueError(f"lessons/text/{GLOSSARY}.md names {name!r} in two entries")
            found[_key(name)] = anchor(names[0])
    return MappingProxyType(found)


def term_anchor(term: str) -> str:
    """The anchor of the entry that names ``term`` (any of its names, case-insensitive); KeyError if none."""
    try:
        return glossary_anchors()[_key(term)]
    except KeyError:
        raise KeyError(f"[[{term}]] names no entry of lessons/text/{GLOSSARY}.md: add one, or link an "
                       f"existing name as [[name|{term}]]") from None


def marked_terms(markdown: str) -> list[str]:
    """The terms marked in ``markdown`` (``[[term]]`` or ``[[term|words]]``), in order."""
    return [m.group(1).strip() for m in TERM_LINK.finditer(markdown)]


def link_terms(markdown: str) -> str:
    """Turn every ``[[term]]`` into ``[term](/glossary#anchor)`` and ``[[term|words]]`` into ``[words](...)``.

    Text without a marked term comes back unchanged. A term with no glossary
    entry raises ``KeyError`` (a test checks every lesson text).

    Examples
    --------
    >>> link_terms("the [[reciprocal rank]] of the first hit")
    'the [reciprocal rank](/glossary#reciprocal-rank) of the first hit'
    >>> link_terms("[[DCG|discounted cumulative gain]], and **[[Recall@k]]**")
    '[discounted cumulative gain](/glossary#dcg), and **[Recall@k](/glossary#recall)**'
    """
    if "[[" not in markdown:
        return markdown

    def link(match: re.Match) -> str:
        term, shown = match.group(1).strip(), match.group(2)
        return f"[{(shown or term).strip()}]({GLOSSARY_URL}#{term_anchor(term)})"

    return TERM_LINK.sub(link, markdown)
