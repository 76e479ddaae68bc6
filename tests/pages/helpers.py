"""Open one page of the real app (navigation, sidebar and all) in AppTest."""
from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]


def open_page(page: str, *, query: dict[str, str] | None = None, session: dict | None = None) -> AppTest:
    """Run app.py once, switch to ``page`` (a path like "lessons/accuracy.py") and run it."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=30)
    for key, value in (query or {}).items():
        at.query_params[key] = value
    at.run()
    for key, value in (session or {}).items():
        at.session_state[key] = value
    return at.switch_page(page).run()
