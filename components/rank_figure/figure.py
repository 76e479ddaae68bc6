"""The hit-rank figure: a Streamlit Components v2 component (HTML, CSS and JS beside this file, no build).

One row per query on a shared rank axis 1..L plus "not returned"; each
query's one relevant document is a dot the learner drags along its row (or
moves with the arrow keys or the buttons), and a dashed cutoff line they drag
across the axis. The scoreboard in the figure shows the page's recall@k and
MRR and previews both during a move, from the engine's table for every
single move (:func:`components.rank_figure.table.figure_table`).

State: ``st.session_state[key]`` holds the hit ranks (a tuple, None for not
returned) and is the source of truth; k belongs to the page's slider
(``k_key``), so moving the line moves the slider. The browser reports a move
as a trigger value ``{"seq", "ranks"}`` or ``{"seq", "k"}``; the callback
checks it and writes the state before the rerun. ``ack`` and ``rev`` work as
in the ranking editor (:mod:`components.ranking_editor.editor`).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

import streamlit as st

from components.course import prose
from components.engine.checks import check_whole
from components.engine.formatting import change, fmt
from components.rank_figure.table import Rank, check_ranks, figure_table
from components.ranking_editor.served import served_component

FOLDER = Path(__file__).parent  # figure.css and figure.js, served from here (served.py)
TEXT = "rank_figure"  # lessons/text/rank_figure.md
_EVENT = "move"

_component = served_component(FOLDER, html=(FOLDER / "figure.html").read_text(encoding="utf-8"),
                              js="figure.js")  # which adopts figure.css


@dataclass
class _Book:
    """Per-figure bookkeeping kept in session state beside the ranks."""

    ack: int = 0  # last sequence number received from the browser
    rev: int = 0  # bumped whenever Python sets the ranks itself


def widget_key(key: str) -> str:
    """The key of the browser component behind the figure ``key``."""
    return f"{key}.figure"


def _book(key: str) -> _Book:
    return st.session_state.setdefault(f"{key}.book", _Book())


def set_figure_ranks(key: str, ranks: Sequence[Rank], length: int) -> None:
    """Set the hit ranks from Python (a preset's ``on_click``); the browser adopts them on the next render."""
    st.session_state[key] = check_ranks(ranks, length)
    _book(key).rev += 1


def _on_move(key: str, k_key: str, n: int, length: int) -> None:
    """The browser's trigger: store the new ranks, or set the page's k slider, before the rerun."""
    book = _book(key)
    result = st.session_state.get(widget_key(key))
    payload = result.get(_EVENT) if result is not None else None
    if not isinstance(payload, Mapping):
        return
    seq = payload.get("seq")
    if isinstance(seq, int) and not isinstance(seq, bool):
        book.ack = max(book.ack, seq)
    try:
        if "ranks" in payload:
            ranks = check_ranks(payload["ranks"], length)
            if len(ranks) != n:
                raise ValueError(f"expected {n} ranks, got {len(ranks)}")
            st.session_state[key] = ranks
        elif "k" in payload:
            st.session_state[k_key] = check_whole(payload["k"], "k", lo=1, hi=length)
    except (TypeError, ValueError):
        book.rev += 1  # a stale or malformed message: the browser adopts Python's state again


def _score(ranks: tuple[Rank, ...], k: int, length: int) -> dict:
    """The engine's table, every value formatted here (the browser only looks rows up)."""
    table = figure_table(ranks, k, length)
    rows = table["values"]
    current = rows[table["current"]]
    return {"shown": [[fmt(v) for v in row] for row in rows],
            "deltas": [[change(v, c) for v, c in zip(row, current)] for row in rows],
            "current": table["current"], "place": table["place"], "cutoff": table["cutoff"],
            "rr": [fmt(x) for x in table["rr"]]}


def rank_figure(*, key: str, k_key: str, queries: Sequence[str], short: Sequence[str],
                default_ranks: Sequence[Rank], k: int, length: int, labels: Sequence[str], label: str,
                hidden: bool = False, scale: float = 1.0) -> tuple[Rank, ...]:
    """Show the figure; return the hit ranks it holds (a tuple, None where a hit was not returned).

    Parameters
    ----------
    key : the session-state key of the ranks (the source of truth).
    k_key : the session-state key of the page's k slider; dragging the line sets it.
    queries, short : each query's name (accessible, in sentences) and its row label.
    default_ranks : the ranks on first render.
    k : the page's cutoff; ``length`` the axis (positions 1..length, then "not returned").
    labels : the scoreboard's names for recall@k and MRR (``{k}`` where the cutoff goes).
    label : the figure's visible and accessible name.
    hidden : show "?" and preview nothing (the page is hiding its numbers: predict first, hide answers).
    scale : type size factor (``widgets.chart_scale()`` for projector mode).
    """
    stored = st.session_state.get(key)
    ranks = check_ranks(stored if stored is not None else default_ranks, length)
    if len(ranks) != len(queries):
        raise ValueError(f"one rank per query: {len(queries)} queries, {len(ranks)} ranks")
    st.session_state[key] = ranks
    book = _book(key)
    data = {"queries": list(queries), "short": list(short), "ranks": list(ranks), "k": k, "length": length,
            "labels": list(labels), "label": label, "scale": float(scale), "text": dict(prose.sections(TEXT)),
            "score": None if hidden else _score(ranks, k, length), "ack": book.ack, "rev": book.rev}
    _component(key=widget_key(key), data=data,
               on_move_change=functools.partial(_on_move, key, k_key, len(queries), length))
    return ranks
