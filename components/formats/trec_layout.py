"""The two TREC layouts (a qrels file's columns, a run file's), and the rows either TREC reader gives.

No Streamlit import here.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

OLD_MAC_LINE_ENDS = ("lines ending in a carriage return only (old Mac line ends): "
                     "save with LF or CRLF line ends")  # the tail of a message about a line holding carriage returns


@dataclass(frozen=True)
class Layout:
    """The columns of one kind of TREC file, and the ones the readers keep."""

    kind: str
    columns: tuple[str, ...]
    example: str
    keep: tuple[int, ...]  # column positions of qid, docid and the value (grade or score)
    ignores_extra: bool = False  # whether text after the last column is ignored (a run's, as trec_eval does)

    @property
    def value(self) -> str:
        """The name of the value column: "grade" or "score"."""
        return self.columns[self.keep[2]]

    def describe(self) -> str:
        return f"{len(self.columns)} columns: {' '.join(self.columns)} (e.g. '{self.example}')"


QRELS_LAYOUT = Layout("qrels", ("qid", "iter", "docid", "grade"), "1 0 doc7 2", (0, 2, 3))
RUN_LAYOUT = Layout("run", ("qid", "Q0", "docid", "rank", "score", "tag"), "1 Q0 doc7 1 12.5 myrun", (0, 2, 4),
                     ignores_extra=True)


@dataclass(frozen=True)
class Rows:
    """The kept columns of a file's data rows, in file order: what either reader gives.

    ``qids`` are the distinct query ids in order of first appearance and
    ``qidx`` each row's index into them; ``docids`` the docid of each row (an
    ``S`` array); ``value`` its grade (int64) or score (float64); ``line``
    its 1-based line; ``trailing`` how many rows had text after the last
    column (only a run's may: :attr:`Layout.ignores_extra`).
    """

    qids: tuple[str, ...]
    qidx: np.ndarray
    docids: np.ndarray
    value: np.ndarray
    line: np.ndarray
    trailing: int = 0
    tag: str = ""  # a run's first tag (:func:`components.formats.trec._first_tag`)
