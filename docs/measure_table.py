"""docs/cli.md's table of measures, made from the measure registry (components/engine/measures.py).

    python docs/measure_table.py           # print the table
    python docs/measure_table.py --write   # put it into docs/cli.md, between its two markers

tests/unit/test_docs.py fails when the table in docs/cli.md and the registry disagree.
"""
from __future__ import annotations

import sys
from pathlib import Path

from components.engine import measures

CLI_MD = Path(__file__).resolve().parent / "cli.md"
BEGIN = "<!-- measure table: made by `python docs/measure_table.py --write` from components/engine/measures.py -->"
END = "<!-- end of measure table -->"
HEADER = ("| measure | also typed as (any case) | trec_eval's name | the set's value |\n"
          "|---|---|---|---|")
# what stands for the cutoff in a name: a rank k, a recall level x for IPrec, or a multiple m of R for Rprec_mult
_PLACEHOLDER = {"required": "k", "optional": "k", "level": "x", "multiple": "m"}


def _forms(cutoff: str) -> list[str | None]:
    """The cutoffs one family is written with: None for the bare name, else the placeholder (the bare name first)."""
    if cutoff == "none":
        return [None]
    if cutoff == "optional":
        return [None, "k"]
    return [_PLACEHOLDER[cutoff]]


def rows() -> list[tuple[str, str, str, str]]:
    """One row per form of each measure, in the registry's order: (name, other names, trec_eval's name, set's value).

    The registry is :mod:`components.engine.measures`'s table of families (how each is computed, its cutoff, its
    trec_eval names and how the set's value is made) and its table of the names typed for each family.
    """
    out = []
    for family, spec in measures._FAMILIES.items():  # the registry itself: the docs describe what it holds
        aliases = [a for a, f in measures._ALIASES.items() if f == family and a != family.lower()]
        for cut in _forms(spec.cutoff):
            suffix = "" if cut is None else f"@{cut}"
            typed = [a for a in aliases if cut is not None or a not in measures._NEEDS_CUTOFF]
            trec = spec.trec if cut is None else (f"{spec.trec_cut}_{cut}" if spec.trec_cut else None)
            out.append((f"`{family}{suffix}`", ", ".join(f"`{a}{suffix}`" for a in typed),
                        f"`{trec}`" if trec else "(none)", spec.aggregation))
    return out


def table() -> str:
    """The Markdown table, without its markers."""
    return "\n".join([HEADER, *(f"| {' | '.join(row)} |" for row in rows())])


def current(text: str) -> str:
    """The table that ``text`` (docs/cli.md) holds between the markers."""
    if BEGIN not in text or END not in text:
        raise ValueError(f"docs/cli.md has lost a marker of its measure table: {BEGIN!r} ... {END!r}")
    return text.split(BEGIN, 1)[1].split(END, 1)[0].strip()


def write(path: Path = CLI_MD) -> None:
    text = path.read_text()
    old = current(text)
    path.write_text(text.replace(f"{BEGIN}\n{old}\n{END}", f"{BEGIN}\n{table()}\n{END}", 1))


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        write()
    else:
        print(table())
