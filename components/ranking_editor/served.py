"""Components v2 whose script and stylesheet the browser fetches once, from a URL, instead of with every element.

A v2 component given inline ``js``/``css`` strings sends them inside each element of each run: the Recall page's
editors sent about 62 KB apiece on every rerun. Given a *file name* instead, each element carries one short path,
and the browser imports the script once per page (its module map keeps it across the app's own page changes) from
``/_stcore/bidi-components/<name>/<file>``. The script may import its neighbours by relative URL
(``import { el } from "./dom.js"``) and fetches its stylesheet itself, once (``adoptStyles`` in dom.js): Streamlit
serves these files without a max-age, so a stylesheet named to Streamlit would be asked for again by every
element of every page.

Streamlit serves a component's files only from an ``asset_dir`` declared in an installed package's manifest
(``[tool.streamlit.component]``). Rankwise is an app, not an installed component package, so it declares each
component folder itself, on the running Streamlit runtime, before the component first mounts there (AppTest makes
a runtime per test), through :func:`components.serving.streamlit_compat.serve_folder` (Streamlit's internals).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import streamlit as st

from components.serving import streamlit_compat

PACKAGE = "rankwise"  # the served name is "rankwise.<folder>": /_stcore/bidi-components/rankwise.ranking_editor/
SERVED: list[Path] = []  # every served component's folder, in the order they were made


def component_name(folder: Path) -> str:
    """The name Streamlit serves ``folder``'s files under."""
    return f"{PACKAGE}.{folder.name}"


def served_component(folder: Path, *, html: str, js: str) -> Callable[..., Any]:
    """A component whose script ``js`` is a file in ``folder``, served from there with its neighbours.

    ``html`` is the markup itself (small, and needed before the script runs). The returned function mounts the
    component and takes st.components.v2's mount arguments (``key``, ``data``, ``on_<event>_change``...). Its
    first mount on a runtime declares every served folder there, so a script can import another component's
    files (``../rankwise.<folder>/<file>``) before that component has mounted.
    """
    if not (folder / js).is_file():
        raise FileNotFoundError(f"{folder / js} is missing: a served component's files sit in its folder")
    SERVED.append(folder)
    made: list[Callable[..., Any]] = []

    def mount(**kwargs: Any) -> Any:
        for served in SERVED:
            streamlit_compat.serve_folder(component_name(served), PACKAGE, served)
        if not made:  # built inside a run, where the runtime that serves the files exists
            made.append(st.components.v2.component(component_name(folder), html=html, js=js))
        return made[0](**kwargs)

    return mount
