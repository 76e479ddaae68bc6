"""A lesson's formula ("## Formula" in lessons/text/<lesson>.md) that holds several equations lets a narrow column
wrap it between them: each equation a ``{group}`` and an ``\\allowbreak`` between two (the app's style lets KaTeX's
display wrap there: components/ui/widgets.py). Written as one unbroken line, it was cut at the column's edge
("accurac" projected with the sidebar open, "recall = T" on a phone)."""
from __future__ import annotations

import pytest

from components.course import prose
from components.ui import registry

LESSONS = [p.module for p in registry.PAGES if "Formula" in prose.sections(p.module)]


def at_depth(latex: str, most: int) -> str:
    """The characters of ``latex`` inside at most ``most`` levels of braces (0: outside every group)."""
    depth, kept = 0, []
    for ch in latex:
        depth += ch == "{"
        if depth <= most:
            kept.append(ch)
        depth -= ch == "}"
    return "".join(kept)


def test_the_lessons_have_formulas():
    assert {"accuracy", "recall", "mrr", "ap", "ndcg", "four_queries"} <= set(LESSONS)


@pytest.mark.parametrize("lesson", LESSONS)
def test_a_formula_of_several_equations_can_wrap_between_them(lesson):
    formula = prose.section(lesson, "Formula")
    equations = at_depth(formula, 1).count("=")  # an equation's own "=", not a sum's "i=1"
    if equations < 2:
        return  # one equation: nothing to wrap between
    assert "=" not in at_depth(formula, 0), f"{lesson}: each equation in a {{group}}, so it never breaks inside"
    assert formula.count("\\allowbreak") == equations - 1, f"{lesson}: one \\allowbreak between two equations"
