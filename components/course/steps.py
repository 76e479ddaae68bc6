"""Worked arithmetic as steps, for stepping through it in class (no Streamlit import).

A line of arithmetic such as ``MRR = (1/1 + 1/2) / 2 = 1.500 / 2 = 0.750`` is
shown one step at a time: the formula with its first substitution, then each
further "= …". A block of several lines (Markdown bullets, or LaTeX lines)
gives the steps of each line in turn.
"""
from __future__ import annotations

import math
from typing import Iterable


def arithmetic_steps(text: str) -> list[str]:
    """Split worked arithmetic into steps at each " = " after the first.

    Examples
    --------
    >>> arithmetic_steps("MRR = (1/1 + 1/2) / 2 = 1.500 / 2 = **0.750**")
    ['MRR = (1/1 + 1/2) / 2', '= 1.500 / 2', '= **0.750**']
    >>> arithmetic_steps("- a = 1\\n- b = 2 = 2.0")
    ['- a = 1', '- b = 2', '= 2.0']
    """
    steps: list[str] = []
    for line in text.splitlines():
        if not line.strip():
            continue
        parts = line.split(" = ")
        steps.append(" = ".join(parts[:2]))
        steps += [f"= {part}" for part in parts[2:]]
    return steps


def reciprocal_terms(first_ranks: Iterable[float], cutoff: int | None) -> str:
    """MRR's sum written out: one term per query, 1/rank of its first hit, 0 for no hit (or one below the cutoff).

    >>> reciprocal_terms([1, 2, math.inf], None), reciprocal_terms([1, 4], 3)
    ('1/1 + 1/2 + 0', '1/1 + 0')
    """
    counted = [r if math.isfinite(r) and (cutoff is None or r <= cutoff) else None for r in first_ranks]
    return " + ".join(f"1/{int(r)}" if r is not None else "0" for r in counted)
