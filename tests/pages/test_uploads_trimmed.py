"""AppTest: files Streamlit's upload store let go because, dropped together, they passed the session's upload cap
(components/serving/upload_store.py) are named on the page that took the drop, once, as text."""
from __future__ import annotations

import pytest

from components.engine.formatting import literal
from components.serving import upload_store, uploads
from components.ui import state
from tests.pages.helpers import open_page

NAMES = ["run_b.txt", "**bold** <b>run</b>.txt"]  # a browser's file names: shown as written, never as markup


def trimmed_once(monkeypatch) -> None:
    """The store let NAMES go before the page's next run (the real store's part: tests/unit/test_upload_store.py)."""
    told = iter([list(NAMES)])
    monkeypatch.setattr(upload_store, "take_trimmed", lambda session_id: next(told, []))


def errors(at) -> str:
    return " ".join(e.value for e in at.error)


@pytest.mark.parametrize("page", ["your_data", "compare_runs"])
def test_files_let_go_for_the_cap_are_named_once(page, monkeypatch):
    at = open_page(f"lessons/{page}.py")
    if page == "compare_runs":  # its uploader of more runs shows once a pair is loaded
        at.button(key=state.COMPARE_SAMPLES).click().run()
    trimmed_once(monkeypatch)
    at.run()
    assert not at.exception
    said = errors(at)
    assert f"Not kept: {', '.join(map(literal, NAMES))}." in said
    assert uploads.size_text(uploads.session_cap()) in said and "Forget my files" in said
    at.run()
    assert "Not kept" not in errors(at)  # said once
