"""Words match what is drawn (#22 item 5): markers named as the rows show them, nothing taught before its lesson."""
import pytest

from components.course import prose
from components.ui import state
from tests.pages.helpers import board, open_page


def page_text(at) -> str:
    """The page's words, less a puzzle's check (whose ✅ and ⬜ mark its conditions, not rows)."""
    marks = tuple(f"- {prose.section('ui', part)[0]}" for part in ("Puzzle met", "Puzzle not met"))
    words = [m.value for m in at.markdown if not any(line.startswith(marks) for line in m.value.splitlines())]
    return " ".join(words) + " " + " ".join(c.value for c in at.caption)


@pytest.mark.parametrize("page", ["lessons/recall.py", "lessons/mrr.py"])
def test_the_relevant_marker_is_the_chip_the_rows_show(page):
    at = open_page(page)
    assert not at.exception
    text = page_text(at)
    assert "✅" not in text  # no row shows a tick: a relevant row carries the "1 relevant" chip
    assert "**1 relevant**" in text


def test_the_trays_own_note_does_not_teach_ndcg_before_its_lesson():
    note = prose.section("editor", "Tray note")
    assert "nDCG" not in note and "ideal" not in note


def test_the_recall_pages_ndcg_preview_names_its_gain():
    at = open_page("lessons/recall.py")
    labels = list(board(at, state.RECALL_EDITOR))  # the previews are on the editor's board, the page's one place
    assert any(label.startswith("nDCG@5") and "exponential gain" in label for label in labels), labels
