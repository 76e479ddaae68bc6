"""The ranking editor's and the rank figure's script and stylesheet are served as files, not sent with each element."""
from __future__ import annotations

import pytest
from streamlit.components.v2.component_manager import BidiComponentManager

from components.rank_figure import figure
from components.ranking_editor import served
from components.ranking_editor.editor import FOLDER as EDITOR_FOLDER
from components.serving import streamlit_compat
from tests.pages.helpers import open_page

SERVED_FILES = {"rankwise.ranking_editor": "editor.js", "rankwise.strip": "strip.js", "rankwise.rank_figure": "figure.js"}


@pytest.mark.parametrize(("page", "names"), [("lessons/recall.py", {"rankwise.ranking_editor", "rankwise.strip"}),
                                              ("lessons/four_queries.py", {"rankwise.rank_figure"})])
def test_each_element_names_its_files_and_carries_no_code(page, names):
    at = open_page(page)
    elements = [e.proto for e in at.get("bidi_component") if e.proto.component_name in SERVED_FILES]
    assert {proto.component_name for proto in elements} == names
    for proto in elements:
        assert proto.js_source_path == SERVED_FILES[proto.component_name]
        assert not proto.js_content and not proto.css_content and not proto.css_source_path  # the script adopts it


def test_the_first_mount_on_a_runtime_serves_every_folder(monkeypatch):
    """The figure's script imports dom.js from the editor's folder: mounting the figure alone (a fresh server's
    first page may be the four queries) must serve that folder too."""
    manager = BidiComponentManager()
    made = []
    monkeypatch.setattr(served, "SERVED", list(served.SERVED))  # as imported: the editor's folder, the figure's
    monkeypatch.setattr(streamlit_compat, "get_bidi_component_manager", lambda: manager)
    monkeypatch.setattr(served.st.components.v2, "component", lambda name, **files: made.append((name, files))
                        or (lambda **mount: mount))
    mount = served.served_component(figure.FOLDER, html="<div></div>", js="figure.js")
    assert mount(key="k") == {"key": "k"}
    assert manager.get_component_asset_root("rankwise.ranking_editor") == EDITOR_FOLDER.resolve()
    assert manager.get_component_asset_root("rankwise.rank_figure") == figure.FOLDER.resolve()
    assert made == [("rankwise.rank_figure", {"html": "<div></div>", "js": "figure.js"})]


def test_a_missing_file_is_named_at_once():
    with pytest.raises(FileNotFoundError, match="figure.jsx is missing"):
        served.served_component(figure.FOLDER, html="", js="figure.jsx")
