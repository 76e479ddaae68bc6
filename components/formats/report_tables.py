"""Report tables to paste into a paper or a README: Markdown and LaTeX (booktabs), with significance marks and notes.

A table is a header (the first column's name, then one per measure) and rows: a row's name, then one
:data:`Cell` per measure, ``(text, marked)``. A marked cell gets the dagger (``†`` in Markdown,
``$^{\\dagger}$`` in LaTeX), and ``mark_note``, the first note under the table, says what it means. Notes are
plain text. Text is escaped: ``|`` in Markdown, LaTeX's special characters in LaTeX.

No Streamlit import here.
"""
from __future__ import annotations

from typing import Sequence

Cell = tuple[str, bool]  # a value as shown, and whether it carries the significance mark
MARKDOWN_MARK = "†"
LATEX_MARK = "$^{\\dagger}$"
_LATEX_SPECIAL = {"\\": "\\textbackslash{}", "&": "\\&", "%": "\\%", "$": "\\$", "#": "\\#", "_": "\\_",
                  "{": "\\{", "}": "\\}", "~": "\\textasciitilde{}", "^": "\\textasciicircum{}"}


def markdown(header: Sequence[str], rows: Sequence[tuple[str, Sequence[Cell]]], notes: Sequence[str] = (),
             mark_note: str | None = None) -> str:
    """A GitHub-flavoured Markdown table, numbers aligned right, each note a paragraph under it.

    >>> print(markdown(["run", "RR"], [("a|b.txt", [("0.500", False)]), ("c.txt", [("0.828", True)])],
    ...                mark_note="p < 0.05"))
    | run | RR |
    |:---|---:|
    | a\\|b.txt | 0.500 |
    | c.txt | 0.828† |
    <BLANKLINE>
    † p < 0.05
    """
    def cell(text: str) -> str:
        return text.replace("|", "\\|")

    lines = ["| " + " | ".join(map(cell, header)) + " |", "|:---|" + "---:|" * (len(header) - 1)]
    lines += ["| " + " | ".join([cell(name), *(cell(text) + (MARKDOWN_MARK if marked else "") for text, marked in cells)])
              + " |" for name, cells in rows]
    marked = [f"{MARKDOWN_MARK} {mark_note}"] if mark_note else []
    return "\n".join([*lines, *(f"\n{note}" for note in [*marked, *notes])])


def latex(header: Sequence[str], rows: Sequence[tuple[str, Sequence[Cell]]], notes: Sequence[str] = (),
          mark_note: str | None = None) -> str:
    r"""A LaTeX ``tabular`` with booktabs rules (``\usepackage{booktabs}``), each note a row under the last rule.

    >>> print(latex(["run", "nDCG@10"], [("bm25_v2", [("0.275", False)]), ("dense", [("0.494", True)])],
    ...             ["10% of queries"], mark_note="p < 0.05"))
    \begin{tabular}{lr}
    \toprule
    run & nDCG@10 \\
    \midrule
    bm25\_v2 & 0.275 \\
    dense & 0.494$^{\dagger}$ \\
    \bottomrule
    \multicolumn{2}{l}{\footnotesize $^{\dagger}$ p < 0.05} \\
    \multicolumn{2}{l}{\footnotesize 10\% of queries} \\
    \end{tabular}
    """
    columns = len(header)
    lines = [f"\\begin{{tabular}}{{l{'r' * (columns - 1)}}}", "\\toprule", " & ".join(map(escape, header)) + " \\\\",
             "\\midrule"]
    lines += [" & ".join([escape(name), *(escape(text) + (LATEX_MARK if marked else "") for text, marked in cells)])
              + " \\\\" for name, cells in rows]
    lines.append("\\bottomrule")
    shown = [f"{LATEX_MARK} {escape(mark_note)}"] if mark_note else []
    shown += [escape(note) for note in notes]
    lines += [f"\\multicolumn{{{columns}}}{{l}}{{\\footnotesize {note}}} \\\\" for note in shown]
    lines.append("\\end{tabular}")
    return "\n".join(lines)


def escape(text: str) -> str:
    r"""Text as LaTeX prints it: each special character escaped, and the minus sign ``−`` as math.

    >>> print(escape("run_1 & 50% {#2} ~x^2 \\ −0.1"))
    run\_1 \& 50\% \{\#2\} \textasciitilde{}x\textasciicircum{}2 \textbackslash{} $-$0.1
    """
    return "".join(_LATEX_SPECIAL.get(c, c) for c in text).replace("−", "$-$")
