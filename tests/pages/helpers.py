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


def figure_board(at: AppTest, figure_key: str) -> dict[str, str]:
    """The live scoreboard of the rank figure ``figure_key`` as sent to the browser: label ({k} filled) -> shown
    value of the current ranks ("?" for each while the page hides its numbers: the figure then gets no score)."""
    import json

    from components.rank_figure import widget_key

    (element,) = [e for e in at.get("bidi_component") if e.key == widget_key(figure_key)]
    data = json.loads(element.proto.json)
    score, k = data["score"], data["k"]
    labels = [label.replace("{k}", str(k)) for label in data["labels"]]
    if score is None:
        return dict.fromkeys(labels, "?")
    return dict(zip(labels, score["shown"][score["current"]]))


def cards(at: AppTest) -> dict[str, str]:
    """Every big ``st.metric`` card on the page: label -> shown value."""
    return {m.label: m.value for m in at.metric}


def boards(at: AppTest) -> dict[str, str]:
    """Every live scoreboard on the page (editors', duels', the rank figure's), in page order: label -> shown
    value ("?" while hidden); where two boards share a label, the first on the page."""
    import json

    shown: dict[str, str] = {}
    for element in at.get("bidi_component"):
        try:
            data = json.loads(element.proto.json)
        except (AttributeError, ValueError):
            continue
        if not isinstance(data, dict) or "score" not in data or "k" not in data:
            continue
        score, k = data["score"], data["k"]
        if "labels" in data:  # the rank figure: no score while hidden
            labels = [label.replace("{k}", str(k)) for label in data["labels"]]
            values = ["?"] * len(labels) if score is None else score["shown"][score["current"]]
        elif score:
            labels = [label.replace("{k}", str(k)) for label in score["labels"]]
            values = ["?"] * len(labels) if score["hidden"] else score["shown"][score["table"]["current"]]
        else:
            continue
        for label, value in zip(labels, values):
            shown.setdefault(label, value)
    return shown


def shown_value(at: AppTest, label_start: str) -> str:
    """The value on screen under the label starting ``label_start``: a big card's, else a live board's."""
    for label, value in [*cards(at).items(), *boards(at).items()]:
        if label.startswith(label_start):
            return value
    raise LookupError(f"no card or board shows {label_start!r}: cards {cards(at)}, boards {boards(at)}")
