"""Open one page of the real app (navigation, sidebar and all) in AppTest."""
from pathlib import Path

from streamlit.testing.v1 import AppTest
from streamlit.util import calc_hash

from components.ui import registry

ROOT = Path(__file__).resolve().parents[2]


def open_page(page: str, *, query: dict[str, str] | None = None, session: dict | None = None) -> AppTest:
    """Run app.py once, on ``page`` (a path like "lessons/accuracy.py").

    A real session asks for a page by its url path, and Streamlit names a page by the hash of that path; AppTest's
    own ``switch_page`` needs a run first (of the home page) to learn the names, so the name is given here instead
    (``_page_hash``, which ``switch_page`` sets; tested with Streamlit 1.67: the run checks the app has a page of
    that name; a class's link may take the session on to another page).
    """
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=30)
    for key, value in (query or {}).items():
        at.query_params[key] = value
    for key, value in (session or {}).items():
        at.session_state[key] = value
    url_path = registry.spec(Path(page).stem).url_path
    at._page_hash = calc_hash(url_path)
    at.run()
    assert at._page_hash in at._registered_pages, f"no page of the app is named as {page} was asked for"
    return at


def board(at: AppTest, editor_key: str) -> dict[str, str]:
    """The live scoreboard of the editor ``editor_key`` as sent to the browser: label ({k} filled) -> shown
    value of the current state ("?" for each while the board is hidden)."""
    import json

    from components.ranking_editor.editor import widget_key

    (element,) = [e for e in at.get("bidi_component") if e.key == widget_key(editor_key)]
    data = json.loads(element.proto.json)
    score, k = data["score"], data["k"]
    labels = [label.replace("{k}", str(k)) for label in score["labels"]]
    if score["hidden"]:
        return dict.fromkeys(labels, "?")
    return dict(zip(labels, score["shown"][score["table"]["current"]]))
