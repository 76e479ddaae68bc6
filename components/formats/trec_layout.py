"""The two TREC layouts (a qrels file's columns, a run file's), the rows either TREC reader gives, and the ids a
TREC file can carry.

No Streamlit import here.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

import numpy as np

from components.engine.model import Qrels, Run, TrecFormatError, show

OLD_MAC_LINE_ENDS = ("lines ending in a carriage return only (old Mac line ends): "
                     "save with LF or CRLF line ends")  # the tail of a message about a line holding carriage returns
_SUSPECT_BYTES = np.array([*b" \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f", *range(0x80, 0x100)],
                          dtype=np.uint8)  # ASCII whitespace, or a byte of a character beyond ASCII: ids to look at closely


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


def unwritable(value: str) -> str | None:
    """Why an id cannot stand as one column of a TREC file (worded to follow the id), or None when it can.

    Whitespace separates the columns (any Unicode whitespace is refused, as a
    strict reader may split on it), and a line whose first character is
    ``#`` is a comment to Rankwise's reader. Other formats take such ids
    (``"doc 221"`` in JSON or in a CSV cell).

    Examples
    --------
    >>> unwritable("lombok-1.18.30.jar") is None
    True
    >>> unwritable("Django Guide")
    "contains whitespace, but TREC files separate their columns by whitespace: use an id without spaces, tabs or line breaks (e.g. 'Django_Guide')"
    """
    if not value:
        return "is empty, and a TREC column cannot be"
    if any(c.isspace() for c in value):
        return (f"contains whitespace, but TREC files separate their columns by whitespace: use an id without spaces, "
                f"tabs or line breaks (e.g. {'_'.join(value.split())!r})")
    if value.startswith("#"):
        return ("starts with '#', which some readers (Rankwise's among them) take for a comment line: use an id that "
                "starts with another character")
    return None


def check_writable(parsed: Qrels | Run, qids: Iterable[str] | None = None, docids: bool = True) -> None:
    """Raise TrecFormatError, naming the file, the line and the id, for the first id of a parsed file that a TREC
    file cannot carry (:func:`unwritable`): of its query ids (those of ``qids`` only, when given), then, with
    ``docids``, of its document ids. For what is written as TREC: a fused run, trec_eval's layout.

    Examples
    --------
    >>> from components.formats.readers import read
    >>> run = read(b'{"q1": {"doc 7": 1.5}}', "run", "run.json").parsed
    >>> check_writable(run, docids=False)
    >>> check_writable(run)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    components.engine.model.TrecFormatError: run.json, line 1: found docid 'doc 7' of query 'q1', which contains whitespace, ...
    """
    wanted = set(parsed.qids if qids is None else qids)
    for q, qid in enumerate(parsed.qids):
        why = unwritable(qid) if qid in wanted else None
        if why is not None:
            _refuse(parsed, int(np.argmax(parsed.qidx == q)), f"query id {show(qid)}, which {why}")
    if docids:
        vocab = parsed.doc_vocab
        data = vocab.view(np.uint8).reshape(vocab.size, -1)
        suspect = np.isin(data, _SUSPECT_BYTES).any(axis=1) | (data[:, 0] == ord("#"))  # the few to look at closely
        for code in np.flatnonzero(suspect).tolist():
            docid = vocab[code].decode()
            why = unwritable(docid)
            if why is not None:
                row = int(np.argmax(parsed.doc == code))
                _refuse(parsed, row, f"docid {show(docid)} of query {show(parsed.qids[parsed.qidx[row]])}, which {why}")


def _refuse(parsed: Qrels | Run, row: int, found: str) -> None:
    raise TrecFormatError(parsed.name, int(parsed.line[row]), found,
                          "ids a TREC file can carry, to be written as TREC (other formats take any id)")
