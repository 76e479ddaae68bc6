"""Whole numbers in a range: one check for values given in code, one reading for text typed by people.

- :func:`check_whole` returns an int or raises ``ValueError`` (a caller's
  mistake: an argument that is not a whole number, or outside its range);
- :func:`read_whole` returns an int or None (text from a URL or an
  environment variable: the caller falls back to its default and says so).
"""
from __future__ import annotations

import numpy as np


def is_whole(value) -> bool:
    """A Python or NumPy integer (a bool is not a number here)."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def range_text(lo: int | None, hi: int | None) -> str:
    """How a range reads in a message: "from 0 to 2", "at least 1", "at most 9", or "" for no bound.

    >>> range_text(0, 2), range_text(1, None), range_text(None, None)
    ('from 0 to 2', 'at least 1', '')
    """
    if lo is not None and hi is not None:
        return f"from {lo} to {hi}"
    return f"at least {lo}" if lo is not None else f"at most {hi}" if hi is not None else ""


def check_whole(value, name: str, lo: int | None = None, hi: int | None = None, why: str = "") -> int:
    """``value`` as an int; ``ValueError`` unless it is a whole number from lo to hi (either bound optional).

    ``why`` ends the message (e.g. "(the cutoff counts positions from the top)").

    >>> check_whole(3, "k", lo=1)
    3
    >>> check_whole(0, "k", lo=1, why="(the cutoff counts positions from the top)")
    Traceback (most recent call last):
    ...
    ValueError: k must be a whole number at least 1 (the cutoff counts positions from the top), got 0
    """
    if not is_whole(value) or (lo is not None and value < lo) or (hi is not None and value > hi):
        bounds = " ".join(part for part in (range_text(lo, hi), why) if part)
        raise ValueError(f"{name} must be a whole number{' ' + bounds if bounds else ''}, got {value!r}")
    return int(value)


def read_whole(text: str) -> int | None:
    """The whole number ``text`` writes (spaces around it and ``_`` between digits allowed), or None.

    The caller checks the range, to say which was wrong.

    >>> read_whole(" 50 "), read_whole("1_024"), read_whole("lots"), read_whole("2.5")
    (50, 1024, None, None)
    """
    try:
        return int(text.strip())
    except ValueError:
        return None
