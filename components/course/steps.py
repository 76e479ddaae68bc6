"""Worked arithmetic as steps, for stepping through it in class (no Streamlit import).

A line of arithmetic such as ``MRR = (1/1 + 1/2) / 2 = 1.500 / 2 = 0.750`` is
shown one step at a time: the formula with its first substitution, then each
further "= …". A block of several lines (Markdown bullets, or LaTeX lines)
gives the steps of each line in turn.
"""
from __future__ import annotations


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
