"""The one front door for qrels and run files, whatever their format: for the "your data" page and the CLI.

A file's format is found from its content (:func:`detect`), never its name:

- "json" or "jsonl" when its first character (after blanks) is ``{`` or
  ``[``: :mod:`components.formats.json_formats` (dict-of-dicts, records,
  JSON Lines golden sets and results);
- "csv" or "tsv" for a table with a header (BEIR's ``qrels/test.tsv``
  among them): :mod:`components.formats.tabular`;
- "trec" otherwise: :mod:`components.formats.trec` (the fast reader for a
  large clean file, else the precise one: ``reader="auto"``).

This module is the one public way to read a file: the formats' own readers
are private (``json_formats._read``, ``tabular._read``), called from here.
:func:`components.formats.trec.read_with` is public only for what must choose
the TREC reader itself (the benchmarks that measure the fast and the precise
readers, and the tests that check both give the same).

Every reader parses straight to the data model's columns
(:mod:`components.engine.model`), with the TREC reader's limits, order, ties,
duplicate pairs and number syntax, so a file gives the same
:class:`~components.engine.model.Qrels` or :class:`~components.engine.model.Run`
(and the same numbers) in every format, and every problem is a
:class:`~components.engine.model.TrecFormatError` naming the file and line.
An id may hold any character its format allows (a space in a JSON string or
a CSV cell; a TREC file splits on whitespace).

Options, for every format:

- ``fields`` (:class:`~components.formats.json_formats.Fields`): which keys
  of JSON records hold the query id, the documents and their grades or
  scores, instead of the guess; other formats ignore it;
- ``chunks``: a separator (``"#"``: :data:`components.formats.chunks.DEFAULT_SEPARATOR`)
  to count chunks as their document (``doc12#3`` -> ``doc12``:
  :mod:`components.formats.chunks`), or None (the default) to keep ids
  as they are.

:func:`read` gives the parsed file and what was understood of it
(:class:`Understood`: the format, the columns or keys read, whether a run's
scores came from its lists' order, how many chunk rows merged, and the
first rows), from one reading; :func:`read_pair` reads a qrels file and a
run file (the qrels checked to fit the gain first); :func:`understood` gives
a preview only, cheaply for a big TREC or table file (its first lines).

No Streamlit import here.
"""
from __future__ import annotations

import dataclasses
import errno
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Union, cast, overload

import numpy as np

from components.engine import model
from components.formats import beir_zip, decode, json_formats, tabular, trec
from components.formats import chunks as chunk_ids
from components.formats.json_formats import Fields

Kind = Literal["qrels", "run"]
Format = Literal["trec", "csv", "tsv", "json", "jsonl"]
FORMATS: tuple[Format, ...] = ("trec", "csv", "tsv", "json", "jsonl")
PREVIEW_ROWS = 5  # rows in Understood.preview
_PREVIEW_LINES = 64  # understood() reads this many lines of a TREC file or table, when that is enough
Parsed = Union[model.Qrels, model.Run]
BEIR_SPLITS = ("test", "dev", "train")  # BEIR's qrels files: <folder>/qrels/<split>.tsv


@dataclass(frozen=True)
class Understood:
    """What a reader understood of a file, for a page to show (and let a learner correct).

    Attributes
    ----------
    format : one of :data:`FORMATS`.
    kind : "qrels" or "run".
    columns : a table's header names read as qid, docid and grade (or
        score), as written (lower case); None for other formats.
    fields : the keys of JSON records read (a guess, or the mapping given);
        None for other formats and for a JSON dict-of-dicts.
    scores_from_order : a run's scores (some of them) made from a list's
        order, n, n − 1, ..., 1 (JSON lists without scores): ties cannot
        occur there, and the tie rule does not apply.
    reordered : JSON lists with scores whose order is not their scores'
        (the scores decide, as in trec_eval).
    empty : JSON queries with no document (not in the result: a query
        without a row has no place in the model).
    merged_chunks : rows merged into another by counting chunks as their
        document (0 without the option).
    member : for a qrels file given as a BEIR dataset's zip, the file read in it (``scifact/qrels/test.tsv``:
        :mod:`components.formats.beir_zip`); else None.
    preview : the first rows as (qid, docid, grade or score), in the file's
        order (a JSON list's documents in rank order), after any merge.
    """

    format: Format
    kind: Kind
    columns: tuple[str, ...] | None
    fields: Fields | None
    scores_from_order: bool
    reordered: int
    empty: int
    merged_chunks: int
    preview: tuple[tuple[str, str, int | float], ...]
    member: str | None = None


@dataclass(frozen=True)
class Read:
    """A file read: the parsed qrels or run, and what was understood of it."""

    parsed: Parsed
    understood: Understood


def detect(source: decode.Source, kind: Kind) -> Format:
    """How a qrels or run file is written, from its content (reads only its first lines).

    Examples
    --------
    >>> detect(b"1 0 doc7 2\\n", "qrels"), detect(b"query-id\\tcorpus-id\\tscore\\n1\\tdoc7\\t1\\n", "qrels")
    ('trec', 'tsv')
    >>> detect(b'{"1": {"doc7": 2}}', "qrels"), detect(b'{"qid": "1", "gold_ids": ["doc7"]}\\n{"qid": "2", "gold_ids": []}\\n', "qrels")
    ('json', 'jsonl')
    """
    data = decode.read_source(source, None, kind)[0]
    return json_formats.json_format(data) or tabular.detect(data, kind)


@overload
def read(source: decode.Source, kind: Literal["qrels"], name: str | None = None, *, fields: Fields | None = None,
         chunks: str | None = None) -> Read: ...
@overload
def read(source: decode.Source, kind: Literal["run"], name: str | None = None, *, fields: Fields | None = None,
         chunks: str | None = None) -> Read: ...
def read(source: decode.Source, kind: Kind, name: str | None = None, *, fields: Fields | None = None,
         chunks: str | None = None) -> Read:
    """Read a qrels or run file in any format (see the module's docstring), and say what was understood.

    Raises :class:`~components.engine.model.TrecFormatError` (or its subclass
    :class:`~components.formats.json_formats.FieldsError` when the keys of
    JSON records cannot be guessed).

    Examples
    --------
    >>> done = read(b'{"qid": "q1", "retrieved_ids": ["d2#1", "d1#4", "d2#0"]}', "run", chunks="#")
    >>> [d.decode() for d in done.parsed.docids], done.understood.format, done.understood.merged_chunks
    (['d2', 'd1'], 'json', 1)
    >>> done.understood.scores_from_order, done.understood.preview
    (True, (('q1', 'd2', 3.0), ('q1', 'd1', 2.0)))
    """
    _check_kind(kind)
    data, name, member = _unzipped(*decode.read_source(source, name, kind), kind)
    fmt = detect(data, kind)
    columns, found = None, None
    parsed: Parsed
    if fmt in ("json", "jsonl"):
        parsed, found = json_formats._read(data, kind, name, fields=fields)
    elif fmt == "trec":
        parsed = trec.read_with("auto", data, kind, name)
    else:
        parsed = tabular._read(data, name, kind)
        columns = tabular.columns_read(data, kind)
    parsed, merged = _merged(parsed, chunks)
    return Read(parsed, Understood(
        format=fmt, kind=kind, columns=columns, fields=found.fields if found else None,
        scores_from_order=bool(found and found.scores_from_order),
        reordered=found.reordered if found else 0, empty=found.empty if found else 0,
        merged_chunks=merged, preview=preview(parsed), member=member))


def _unzipped(data: bytes, name: str, kind: Kind) -> tuple[bytes, str, str | None]:
    """A qrels file given as a BEIR dataset's zip: its ``qrels/test.tsv`` (bytes, the name messages give it, the
    member's name); any other file as it is (member None)."""
    if kind != "qrels" or not beir_zip.is_zip(data):
        return data, name, None
    member, body = beir_zip.qrels_in_zip(data, name, max_bytes=decode.max_file_bytes())
    return body, f"{name}: {member}", member


def read_pair(qrels: decode.Source, run: decode.Source, *, gain: str | None = None,
              qrels_fields: Fields | None = None, run_fields: Fields | None = None,
              chunks: str | None = None) -> tuple[Read, Read]:
    """Read a qrels file and a run file, each in any format (:func:`read`): the qrels first, checked to fit
    ``gain`` when it is given (:func:`components.engine.model.check_gain_fits`), before the run is read.

    Examples
    --------
    >>> judgments, results = read_pair(b'{"q 1": {"doc 7": 1}}', b"qid,docid,score\\nq 1,doc 7,0.5\\n")
    >>> model.judge(judgments.parsed, results.parsed).ranking(0), results.understood.format
    ([('doc 7', 0.5, 1)], 'csv')
    """
    judgments = read(qrels, "qrels", fields=qrels_fields, chunks=chunks)
    if gain is not None:
        model.check_gain_fits(cast(model.Qrels, judgments.parsed), gain)
    return judgments, read(run, "run", fields=run_fields, chunks=chunks)


def understood(source: decode.Source, kind: Kind, name: str | None = None, *, fields: Fields | None = None,
               chunks: str | None = None) -> Understood:
    """What :func:`read` would understand of a file: for a TREC file or a table without ``chunks``, from its first
    lines only (their rows are the file's first rows); else from reading it whole.

    Raises what :func:`read` raises (for a TREC file or table, only about its first lines).

    Examples
    --------
    >>> understood(b"qid,docid,relevance\\nq1,d1,2\\nq1,d2,0\\n", "qrels").columns
    ('qid', 'docid', 'relevance')
    """
    data, name, member = _unzipped(*decode.read_source(source, name, kind), kind)
    if chunks is None and json_formats.json_format(data) is None:
        head = _head(data, _PREVIEW_LINES)
        if len(head) < len(data):
            try:
                return dataclasses.replace(read(head, kind, name).understood, member=member)
            except model.TrecFormatError:
                pass  # a cut that holds no data line, say: read the whole
    return dataclasses.replace(read(data, kind, name, fields=fields, chunks=chunks).understood, member=member)


def preview(parsed: Parsed, rows: int = PREVIEW_ROWS) -> tuple[tuple[str, str, int | float], ...]:
    """The first rows of a parsed file as (qid, docid, grade or score): in the file's order (by line, then rank).

    Examples
    --------
    >>> preview(read("q2 Q0 a 1 1 r\\nq1 Q0 b 1 1 r\\nq1 Q0 c 2 2 r\\n", "run").parsed, 2)
    (('q2', 'a', 1.0), ('q1', 'b', 1.0))
    """
    line = parsed.line
    if not line.size:
        return ()
    last = np.partition(line, min(rows, line.size) - 1)[min(rows, line.size) - 1]
    first = np.flatnonzero(line <= last)  # the rows on the first lines (many may share one line: JSON)
    within = parsed.rank[first] if isinstance(parsed, model.Run) else first
    first = first[np.lexsort((within, line[first]))][:rows]
    values = parsed.score if isinstance(parsed, model.Run) else parsed.grade
    return tuple((parsed.qids[parsed.qidx[r]], parsed.docids[r].decode(), values[r].item()) for r in first)


def _merged(parsed: Parsed, separator: str | None) -> tuple[Parsed, int]:
    if separator is None:
        return parsed, 0
    if isinstance(parsed, model.Run):
        return chunk_ids.merge_run(parsed, separator)
    return chunk_ids.merge_qrels(parsed, separator)


def _head(data: bytes, lines: int) -> bytes:
    """The first ``lines`` lines of data (all of it when it has no more)."""
    end = -1
    for _ in range(lines):
        end = data.find(b"\n", end + 1)
        if end < 0:
            return data
    return data[:end + 1]


def _check_kind(kind: str) -> None:
    if kind not in ("qrels", "run"):
        raise ValueError(f"kind must be 'qrels' or 'run', got {kind!r}")


def beir_qrels(folder: Path, split: str = "test") -> Path:
    """The qrels file of a BEIR dataset folder, as BEIR lays it out (``corpus.jsonl``, ``queries.jsonl`` and
    ``qrels/<split>.tsv``): ``folder/qrels/<split>.tsv``, ``split`` one of :data:`BEIR_SPLITS`.

    Raises ``FileNotFoundError`` (an ``OSError`` naming the file looked for) when the folder has no such file,
    saying which splits it has.

    Examples
    --------
    >>> folder = Path(__file__).parents[2] / "assets" / "beir_sample"
    >>> beir_qrels(folder).relative_to(folder).as_posix()
    'qrels/test.tsv'
    >>> beir_qrels(folder, "dev")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    FileNotFoundError: [Errno 2] no qrels for the split "dev" in this BEIR folder (it has: test): '...dev.tsv'
    """
    if split not in BEIR_SPLITS:
        raise ValueError(f"split must be one of {BEIR_SPLITS}, got {split!r}")
    path = folder / "qrels" / f"{split}.tsv"
    if path.is_file():
        return path
    has = [s for s in BEIR_SPLITS if (folder / "qrels" / f"{s}.tsv").is_file()]
    raise FileNotFoundError(errno.ENOENT, f'no qrels for the split "{split}" in this BEIR folder '
                            f'(it has: {", ".join(has) or "no qrels/*.tsv"})', str(path))
