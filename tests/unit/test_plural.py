"""Plurals come from one helper (issue #42, point 5): formatting.plural, reached from the texts as {n:one|many}."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from components.course import prose
from components.engine.formatting import plural

TEXT_DIR = Path(prose.TEXT_DIR)
BROWSER_FILLED = {"editor.md", "rank_figure.md", "rank_strip.md"}  # filled by the components' scripts, not by prose
# a count followed straight by one of these nouns must carry the noun's two forms ({n} {n:query|queries})
COUNT_NOUNS = re.compile(r"\{(\w+)\} (queries|runs|measures|comparisons|lines|judgments|results|warnings|notes|chunks"
                         r"|differences|guesses|documents|cases|pages|places|points|searches|fractions|terms)\b")


@given(st.integers())
@example(1)
@example(-1)
def test_exactly_one_takes_the_singular_however_the_count_is_written(n):
    expected = "query" if abs(n) == 1 else "queries"
    for written in (n, f"{n:,}", str(n).replace("-", "−"), f" {n} "):
        assert plural(written, "query|queries") == expected


@given(st.floats(allow_nan=False, allow_infinity=False).filter(lambda x: not x.is_integer()))
def test_a_fraction_takes_the_plural(x):
    assert plural(x, "point|points") == "points"


@given(st.integers(min_value=0, max_value=10**6))
@example(1)
def test_a_filled_template_agrees_with_its_count(n):
    sentence = prose.fill("{n} {n:query|queries} {n:loses its|lose their} hit", n=f"{n:,}")
    assert sentence == (f"{n:,} query loses its hit" if n == 1 else f"{n:,} queries lose their hit")


def test_forms_need_exactly_one_mark():
    for bad in ("query", "a|b|c"):
        with pytest.raises(ValueError):
            plural(2, bad)


def text_files():
    return sorted(TEXT_DIR.glob("*.md"))


PLURAL_FIELD = re.compile(r"\{(\w+):([^{}]*\|[^{}]*)\}")  # {n:query|queries}; a formula's braces are not fields


@pytest.mark.parametrize("path", text_files(), ids=lambda p: p.name)
def test_every_plural_in_the_texts_has_two_forms_and_is_filled_by_prose(path):
    for heading, body in prose.sections(path.stem).items():
        for match in PLURAL_FIELD.finditer(body):
            name, spec = match.groups()
            assert path.name not in BROWSER_FILLED, f"{path.name} '## {heading}': the browser fills it, not prose"
            forms = spec.split("|")
            assert len(forms) == 2 and all(f.strip() for f in forms), f"{path.name} '## {heading}': {match.group(0)}"
            assert prose.placeholders(body) >= {name}


@pytest.mark.parametrize("path", [p for p in text_files() if p.name not in BROWSER_FILLED], ids=lambda p: p.name)
def test_a_count_before_a_noun_agrees_with_it(path):
    """No "{n} queries" that reads "1 queries": the noun after a count names both its forms."""
    for heading, body in prose.sections(path.stem).items():
        for match in COUNT_NOUNS.finditer(body):
            # "{better} scores": a run's name and a verb; "Query {i} results": a query's number
            assert match.group(1) in {"better", "run", "i"}, (
                f"{path.name} '## {heading}': {match.group(0)} should be "
                f"{{{match.group(1)}}} {{{match.group(1)}:…|{match.group(2)}}}")


def test_the_distributions_text_alternative_agrees_with_its_counts():
    """It said "1 scores exactly 0" and "2 score exactly 0" (its two sections were swapped) and "1 queries" nowhere."""
    from components.ui import charts

    one = charts.per_query_distribution([0.0, 0.5], metric="RR").alt_text
    two = charts.per_query_distribution([0.0, 0.0, 0.5], metric="RR").alt_text
    assert "over 2 queries" in one and "1 score exactly 0" in one
    assert "over 3 queries" in two and "2 scores exactly 0" in two
    assert "over 1 query:" in charts.per_query_distribution([0.5], metric="RR").alt_text
