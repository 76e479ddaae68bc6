"""A link's values are shown as text: Markdown, HTML and KaTeX in any URL parameter render nothing.

Every page of the registry is opened with every URL parameter the app reads
set to one payload kind at a time. Each note about a bad value must hold the
value only inside a code span (:func:`components.engine.formatting.literal`), so the
browser renders no image, link, emphasis or math from it; the notes stay
until dismissed. (In the browser, tests/e2e/payload_links.py checks the
rendered page and its requests.)
"""
from __future__ import annotations

import re

import pytest

from components.ui import state
from components.ui.registry import PAGES
from tests.link_payloads import PARAMS, PAYLOADS
from tests.pages.helpers import open_page

CODE_SPAN = re.compile(r"(`+).+?\1")  # a run of backticks, its text, the same run


def outside_code_spans(markdown: str) -> str:
    """The Markdown with every code span taken out: what the browser would render as markup."""
    return CODE_SPAN.sub("", markdown)


@pytest.mark.parametrize("kind", sorted(PAYLOADS))
@pytest.mark.parametrize("spec", PAGES, ids=[p.module for p in PAGES])
def test_every_url_value_is_shown_only_inside_a_code_span(spec, kind):
    payload = PAYLOADS[kind]
    at = open_page(f"lessons/{spec.module}.py", query={name: payload for name in PARAMS})
    assert not at.exception
    notes = [w.value for w in at.warning]
    assert notes, "a bad link value is noted"
    for note in notes:
        rest = outside_code_spans(note)
        for marker in ("![", "](", "<", "$", "**", "_it_"):
            assert marker not in rest, (note, marker)
    assert any("<img" in n or "![" in n or "$x" in n or "**bold" in n or "[click" in n for n in notes)


def test_a_link_note_stays_through_reruns_until_dismissed():
    at = open_page("lessons/recall.py", query={state.PARAM_K: "99"})
    assert any("outside 1 to 20" in w.value for w in at.warning)
    at.slider(key=state.RECALL_K).set_value(7).run()  # a rerun of the page
    at.run()  # and a full rerun, as the progress sync does
    assert any("outside 1 to 20" in w.value for w in at.warning), "the note stays"
    dismiss = [b for b in at.button if b.key and b.key.startswith("link_note.dismiss.")]
    assert dismiss
    dismiss[0].click().run()
    assert not any("outside 1 to 20" in w.value for w in at.warning)
    at.run()
    assert not any("outside 1 to 20" in w.value for w in at.warning), "a dismissed note does not come back"
