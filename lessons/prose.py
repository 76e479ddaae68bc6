"""Lesson prose: Markdown files in lessons/text/, one per page, split by "## " headings.

Sentences generated from live numbers are templates with named placeholders
(``{k}``, ``{recall}``) kept in the same files; :func:`fill` substitutes them.
"""
from __future__ import annotations

import functools
import string
from pathlib import Path

TEXT_DIR = Path(__file__).parent / "text"


@functools.cache
def sections(name: str) -> dict[str, str]:
    """The sections of ``lessons/text/<name>.md``: heading -> body (stripped)."""
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
    return parts


def section(name: str, heading: str) -> str:
    """One section's body; a missing section is a KeyError naming the file and heading."""
    try:
        return sections(name)[heading]
    except KeyError:
        raise KeyError(f"lessons/text/{name}.md has no section '## {heading}'") from None


def fill(template: str, **values) -> str:
    """Substitute ``{name}`` placeholders; a missing or unused value is an error, not a silent gap."""
    wanted = {field for _, field, _, _ in string.Formatter().parse(template) if field}
    if wanted != set(values):
        raise KeyError(f"template wants {sorted(wanted)}, got {sorted(values)}")
    return template.format(**values)


def text(name: str, heading: str, **values) -> str:
    """A section, with its placeholders filled when values are given."""
    body = section(name, heading)
    return fill(body, **values) if values else body


def text_choosing(name: str, heading: str, values: dict) -> str:
    """A section chosen at run time from several that share one pool of values.

    Each placeholder must be in ``values``; values the chosen section does not
    use are fine (the other sections of the set use them).
    """
    body = section(name, heading)
    wanted = {field for _, field, _, _ in string.Formatter().parse(body) if field}
    return fill(body, **{key: values[key] for key in wanted})
