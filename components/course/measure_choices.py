"""The measure pickers of the "Your data" and "Compare runs" pages, derived from the measure registry.

The pages offer a few families in a fixed order; what each offers (the
family at k, or over the whole list, or both) and its label come from
:func:`components.engine.measures.cutoff_kind`, and the families whose
change "Compare runs" can explain from :func:`components.engine.attribution.supports`.
A choice's key is what the picker keeps in the session: the family's name
for its first form (``"RR"``, ``"nDCG"``), ``"<family>@k"`` or
``"<family>-all"`` for the other form of a family whose cutoff is optional.

No Streamlit import here.
"""
from __future__ import annotations

from typing import Iterable

from components.engine.attribution import supports
from components.engine.measures import cutoff_kind, parse_measure

# the families offered, in the pickers' order (the per-query table's columns follow it)
FAMILIES = ("R", "Success", "P", "RR", "AP", "GMAP", "R-prec", "nDCG", "DCG", "bpref", "Judged")
CUTOFF_FIRST = ("nDCG",)  # an optional cutoff: the field quotes nDCG at k first, RR and AP over the whole list
GAIN_CHOICES = ("linear", "exponential")  # linear first: trec_eval's, the pages' default
DEFAULT_K = 10  # the pages' cutoff k, from 1 to MAX_K
MAX_K = 1000


def _choices() -> dict[str, str]:
    """Each choice's key and its label ("k" stands for the chosen k)."""
    choices = {}
    for family in FAMILIES:
        kind = cutoff_kind(family)
        if kind == "required":
            choices[family] = f"{family}@k"
        elif kind == "optional" and family in CUTOFF_FIRST:
            choices.update({family: f"{family}@k", f"{family}-all": family})
        elif kind == "optional":
            choices.update({family: family, f"{family}@k": f"{family}@k"})
        else:
            choices[family] = family
    return choices


CHOICES = _choices()  # key -> label, e.g. {"R": "R@k", ..., "RR": "RR", "RR@k": "RR@k", ..., "nDCG-all": "nDCG"}
DEFAULT_CHOICES = ("R", "Success", "RR", "AP", "nDCG")  # "Your data"
# "Compare runs": a family's first form, where the page can also explain a query's change
COMPARE_CHOICES = tuple(key for key in CHOICES if key in FAMILIES and supports(CHOICES[key].replace("@k", "@1")))
COMPARE_DEFAULTS = ("R", "RR", "AP", "nDCG")


def measure_names(choices: Iterable[str], k: int) -> tuple[str, ...]:
    """The canonical names of the chosen keys at cutoff k.

    >>> measure_names(["R", "RR", "RR@k", "nDCG", "nDCG-all"], 10)
    ('R@10', 'RR', 'RR@10', 'nDCG@10', 'nDCG')
    >>> COMPARE_CHOICES
    ('R', 'Success', 'P', 'RR', 'AP', 'nDCG', 'DCG')
    """
    return tuple(parse_measure(CHOICES[c].replace("@k", f"@{k}")).name for c in choices)


def in_order(chosen: Iterable[str], offered: Iterable[str] = CHOICES) -> list[str]:
    """The chosen keys in the pickers' order, whatever order they were picked in."""
    chosen = set(chosen)
    return [key for key in offered if key in chosen]


def shown_name(name: str, gain: str) -> str:
    """A measure's name as a label, with the gain named next to nDCG and DCG."""
    return f"{name} ({gain} gain)" if "DCG" in name else name


def mean_name(name: str, gain: str) -> str:
    """The label of a measure's value over the queries: MRR for RR, MAP for AP, the measure's own name otherwise
    (gain named)."""
    return "M" + name if name.startswith(("RR", "AP")) else shown_name(name, gain)
