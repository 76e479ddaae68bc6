"""Correcting p-values for many comparisons at once (a baseline against several runs, over several measures).

With m tests of true null hypotheses at level α, about α·m of them come out
"significant" by luck alone. A correction adjusts each p-value so that the
adjusted values can be read against α as one family. With the raw p-values
sorted ascending, :math:`p_{(1)} \\le \\dots \\le p_{(m)}`:

- **Holm** (step-down, controls the chance of any false positive, the
  family-wise error rate, with no assumption on how the tests relate; never
  less powerful than Bonferroni; the default):

  .. math:: \\tilde p_{(i)} = \\min\\Bigl(1, \\max_{j \\le i} (m - j + 1)\\, p_{(j)}\\Bigr)

- **Bonferroni** (the same guarantee, simpler and more conservative):
  :math:`\\tilde p_i = \\min(1, m\\, p_i)`;
- **Benjamini–Hochberg** (controls the expected share of false positives
  among the results called significant, the false discovery rate, for
  independent or positively dependent tests; more results survive):

  .. math:: \\tilde p_{(i)} = \\min\\Bigl(1, \\min_{j \\ge i} \\frac{m}{j}\\, p_{(j)}\\Bigr)

Adjusted p-values come back in the order given. No Streamlit import here.
"""
from __future__ import annotations

from typing import Literal, Sequence, get_args

import numpy as np

Correction = Literal["holm", "bonferroni", "bh"]
CORRECTIONS: tuple[str, ...] = get_args(Correction)
DEFAULT_CORRECTION: Correction = "holm"
NAMES = {"holm": "Holm", "bonferroni": "Bonferroni", "bh": "Benjamini–Hochberg"}  # as a table names them
CONTROLS = {"holm": "family-wise error rate", "bonferroni": "family-wise error rate", "bh": "false discovery rate"}


def adjust(p_values: Sequence[float] | np.ndarray, method: Correction = DEFAULT_CORRECTION) -> np.ndarray:
    """The corrected p-values of one family of tests, in the order given (formulas in the module's docstring).

    Examples
    --------
    >>> adjust([0.01, 0.04, 0.03], "holm").tolist()
    [0.03, 0.06, 0.06]
    >>> adjust([0.01, 0.04, 0.03], "bonferroni").tolist()
    [0.03, 0.12, 0.09]
    >>> adjust([0.01, 0.04, 0.03], "bh").round(3).tolist()
    [0.03, 0.04, 0.04]
    """
    p = np.asarray(p_values, dtype=np.float64)
    if method not in CORRECTIONS:
        raise ValueError(f"unknown correction {method!r}: one of {', '.join(CORRECTIONS)}")
    if p.ndim != 1 or np.any(~np.isfinite(p)) or np.any((p < 0) | (p > 1)):
        raise ValueError("p-values must be a flat sequence of numbers between 0 and 1")
    m = len(p)
    if m == 0:
        return p.copy()
    if method == "bonferroni":
        return np.minimum(1.0, m * p)
    order = np.argsort(p, kind="stable")
    ranked = p[order]
    if method == "holm":
        steps = np.maximum.accumulate((m - np.arange(m)) * ranked)
    else:
        steps = np.minimum.accumulate((m / np.arange(1, m + 1) * ranked)[::-1])[::-1]
    adjusted = np.empty(m)
    adjusted[order] = np.minimum(1.0, steps)
    return adjusted
