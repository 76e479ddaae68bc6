"""Counting chunks as their document: ``doc12#3`` -> ``doc12``, in a run or qrels of any format.

Retrieval for language models often ranks chunks (passages) of documents,
while the judgments are about whole documents (or the other way round). A
chunk id is the document's id, a separator (:data:`DEFAULT_SEPARATOR`,
``#``, or any other text without whitespace) and the chunk's: the document
is what comes before the **last** separator (``a#b#3`` -> ``a#b``, since
document ids may hold the separator themselves, as URLs with a fragment do,
and a chunk's part is the one added last). An id without the separator is
a document already, and stays as it is; one with nothing before it
(``#3``) is refused.

- In a run, a query's chunks of one document become one result: the
  document, at its best-ranked chunk's place, with that chunk's score (and
  line). The other chunks go, and the ranking closes up: the document after
  them moves up.
- In qrels, a query's chunks of one document become one judgment, with the
  highest grade of its chunks (and the line of the first chunk with it).

The result is made into the data model again
(:func:`components.engine.model.run_of`, :func:`~components.engine.model.qrels_of`),
so that it is a run or qrels like any other: a run in trec_eval's order
(score descending, then docid descending: the document's id now breaks a
tie) with ranks 1, 2, ... again. Each function also gives how many rows merged into
another (rows before minus rows after).

No Streamlit import here.
"""
from __future__ import annotations

import numpy as np

from components.engine import model

DEFAULT_SEPARATOR = "#"
_SPACE = b" \t\n\r\v\f"


def document_ids(docids: np.ndarray, separator: str = DEFAULT_SEPARATOR) -> list[bytes]:
    """The document of each id (UTF-8 bytes, as readers keep them): the part before the last separator, or the
    whole id when it has none.

    Examples
    --------
    >>> document_ids(np.array([b"doc12#3", b"doc7", b"http://x.org/a#top#2"]))
    [b'doc12', b'doc7', b'http://x.org/a#top']
    >>> document_ids(np.array([b"d1::0", b"d1"]), "::")
    [b'd1', b'd1']
    """
    sep = separator_bytes(separator)
    heads = []
    for docid in docids.tolist():
        head, found, _ = docid.rpartition(sep)
        heads.append(head if found else docid)
    return heads


def merge_run(run: model.Run, separator: str = DEFAULT_SEPARATOR) -> tuple[model.Run, int]:
    """The run with each query's chunks of one document as one result, at its best chunk's place; and how many
    results merged.

    Examples
    --------
    >>> from components.formats.readers import read
    >>> run = read("q Q0 d1#0 1 9 r\\nq Q0 d2#0 2 8 r\\nq Q0 d1#1 3 7 r\\nq Q0 d3 4 6 r\\n", "run").parsed
    >>> merged, n = merge_run(run)
    >>> [d.decode() for d in merged.docids], merged.rank.tolist(), merged.score.tolist(), n
    (['d1', 'd2', 'd3'], [1, 2, 3], [9.0, 8.0, 6.0], 1)
    """
    heads = _heads(run, separator)
    kept: dict[tuple[int, bytes], int] = {}
    for row, key in enumerate(zip(run.qidx.tolist(), heads)):
        kept.setdefault(key, row)  # rows are in rank order: the first is the best-ranked chunk
    rows = sorted(kept.values())
    if heads == run.docids.tolist():  # no chunk id
        return run, 0
    docids = _id_array([heads[r] for r in rows])
    merged = model.run_of(run.name, run.qids, run.qidx[rows], docids, run.score[rows], run.line[rows],
                          run.trailing_lines, run.tag)
    return merged, run.qidx.size - len(rows)


def merge_qrels(qrels: model.Qrels, separator: str = DEFAULT_SEPARATOR) -> tuple[model.Qrels, int]:
    """The qrels with each query's chunks of one document as one judgment, with their highest grade; and how many
    judgments merged.

    Examples
    --------
    >>> from components.formats.readers import read
    >>> qrels = read("q 0 d1#0 0\\nq 0 d1#1 2\\nq 0 d2#0 1\\nq 0 d1#2 2\\n", "qrels").parsed
    >>> merged, n = merge_qrels(qrels)
    >>> [d.decode() for d in merged.docids], merged.grade.tolist(), merged.line.tolist(), n
    (['d1', 'd2'], [2, 1], [2, 3], 2)
    """
    heads = _heads(qrels, separator)
    grades = qrels.grade.tolist()
    best: dict[tuple[int, bytes], int] = {}
    for row, key in enumerate(zip(qrels.qidx.tolist(), heads)):
        if key not in best or grades[row] > grades[best[key]]:
            best[key] = row
    rows = sorted(best.values())
    if heads == qrels.docids.tolist():  # no chunk id
        return qrels, 0
    merged = model.qrels_of(qrels.name, qrels.qids, qrels.qidx[rows], _id_array([heads[r] for r in rows]),
                            qrels.grade[rows], qrels.line[rows])
    return merged, qrels.qidx.size - len(rows)


def _id_array(ids: list[bytes]) -> np.ndarray:
    """Ids as an ``S`` array as wide as the longest, in whole 8-byte words (as the readers keep them)."""
    return np.array(ids, dtype=f"S{-(-max(map(len, ids), default=1) // 8) * 8}")


def _heads(parsed: model.Qrels | model.Run, separator: str) -> list[bytes]:
    """:func:`document_ids` of a file's rows; TrecFormatError for an id with nothing before its separator."""
    heads = document_ids(parsed.docids, separator)
    empty = next((row for row, head in enumerate(heads) if not head), None)
    if empty is not None:
        docid = parsed.docids[empty].decode()
        raise model.TrecFormatError(
            parsed.name, int(parsed.line[empty]),
            f"document {docid!r}, with nothing before its chunk separator {separator!r}",
            f"chunk ids such as 'doc12{separator}3' (the document, the separator, then the chunk), "
            "or the option to count chunks as documents off")
    return heads


def separator_bytes(separator: str) -> bytes:
    """The separator as UTF-8 bytes; ValueError unless it is text without whitespace (and UTF-8 can write it: a
    command line's undecodable bytes cannot be).

    >>> separator_bytes("::")
    b'::'
    >>> separator_bytes(" ")
    Traceback (most recent call last):
    ...
    ValueError: a chunk separator is text without whitespace, such as '#', got ' '
    """
    try:
        sep = separator.encode("utf-8") if isinstance(separator, str) else b""
    except UnicodeEncodeError:
        sep = b""
    if not sep or any(c in sep for c in _SPACE):
        raise ValueError(f"a chunk separator is text without whitespace, such as '#', got {separator!r}")
    return sep
