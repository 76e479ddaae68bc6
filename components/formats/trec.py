"""Reading TREC qrels and run files into the metric engine's arrays, for :func:`components.formats.readers.read`.

The two files, whitespace-separated, one line per judgment or per result:

- qrels: ``qid iter docid grade`` (``iter`` is ignored; ``grade`` is a whole
  number from -1000 to 1000, negative allowed: a grade <= 0 is
  non-relevant, with gain 0);
- run: ``qid Q0 docid rank score tag`` (``Q0``, ``rank`` and ``tag`` are
  ignored; ``score`` is a finite number). Text after the tag is ignored too,
  as trec_eval ignores it (its ``get_trec_results.c`` reads six fields and
  skips to the end of the line), and the lines that have any are counted
  (:attr:`~components.engine.model.Run.trailing_lines`), so that the command line and the page can
  say so. A qrels line has nothing after the grade: trec_eval refuses one
  that does ("Malformed line"), and so does this reader.

Friendlier than trec_eval where it costs nothing: blank lines and lines whose
first character (after spaces) is ``#`` are skipped; tabs, repeated spaces,
CRLF line ends and a UTF-8 byte-order mark are fine. Ids are opaque strings
("007" and "7" are different queries or documents).

Semantics are trec_eval's (as pytrec_eval shows them):

- a run is ordered by score descending, ties broken by docid descending in
  byte order (the UTF-8 bytes compared); the rank column is ignored; scores
  are compared as 32-bit floats, as trec_eval stores them, so scores that
  differ only beyond about 7 significant digits tie;
- only queries in both files are evaluated; queries only in the qrels or only
  in the run are skipped and counted, unless ``complete=True`` (trec_eval's
  ``-c``), which scores judged queries missing from the run as 0;
- a returned document nobody judged has grade 0; a query whose judgments
  are all <= 0 is evaluated, with every value 0;
- a (qid, docid) pair listed twice, in either file, is an error, as in
  trec_eval ("duplicate docs"): a document has one place in a ranking and
  one grade, and keeping either line could change the scores.

Every problem with a file raises :class:`~components.engine.model.TrecFormatError`, whose message
names the file, the line, what was found there and what was expected.

Limits: the file's size (:mod:`components.formats.decode`), the length of
an id and of the padded id columns, and the range of a grade
(:mod:`components.formats.columns`), each a :class:`TrecFormatError`
naming the line; exponential gain takes grades up to
:data:`~components.engine.model.MAX_EXPONENTIAL_GRADE` = 60
(:func:`~components.engine.model.check_gain_fits`).

Two readers give the same result (tests check every nasty case through both):

- the precise reader splits the file into tokens with numpy over its bytes
  (no Python loop per line) and reads any layout above; it owns every error
  message;
- the fast reader, for large clean files (a single space or a single tab
  between columns, no blank or comment line, LF or CRLF line ends), parses
  with pyarrow's multi-threaded CSV reader. It declines anything else, and
  anything it cannot read exactly as the precise reader would, and the
  precise reader then reads the file (``reader="auto"``, which
  :func:`components.formats.readers.read` takes, tries it from
  :data:`FAST_MIN_BYTES` on).

Either way the rows become the data model (:mod:`components.engine.model`):
ids as fixed-width byte strings (``S`` arrays, padded with NUL bytes, which
is why a NUL byte in a file is an error), one per row; query ids numbered in
order of first appearance; a run in trec_eval's order
(:mod:`components.engine.ordering`). Memory is about (rows × longest id)
bytes per id column plus 8 bytes per row for each number kept. When memory
runs out anyway, the reader raises ``MemoryError`` with a message naming
the file.

The modules, one job each: :mod:`~components.formats.decode` (bytes in),
:mod:`~components.formats.trec_layout` (the columns),
:mod:`~components.formats.trec_precise` and
:mod:`~components.formats.trec_fast` (the two readers),
:mod:`~components.formats.columns` (ids and numbers); this one chooses the
reader and makes the model.

No Streamlit import here: the "your data" page and the command-line
evaluator (:mod:`components.cli`) share this reader.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Literal

from components.engine.model import Qrels, Run, qrels_of, run_of
from components.formats import trec_fast, trec_precise
from components.formats.decode import Source, check_text, read_source
from components.formats.trec_layout import QRELS_LAYOUT, RUN_LAYOUT, Layout, Rows

Kind = Literal["qrels", "run"]
Reader = Literal["auto", "fast", "precise"]
READERS: tuple[Reader, ...] = ("auto", "fast", "precise")
FAST_MIN_BYTES = 1 << 22  # reader="auto" tries the fast reader on files of 4 MiB (about 100,000 lines) or more


# Public functions
# ----------------------------------------------------------------------------

def read_with(reader: Reader, source: Source, kind: Kind, name: str | None = None) -> Qrels | Run:
    """Read a TREC qrels file (``qid iter docid grade`` per line) or run file (``qid Q0 docid rank score tag`` per
    line, put in trec_eval's order), with the reader chosen.

    Product code reads files through :func:`components.formats.readers.read`, which calls this with
    ``reader="auto"`` for a TREC file. It is public (the table and JSON readers are private) for what must
    choose the reader itself: the benchmarks that measure each one (``benchmarks/evaluate_scale.py
    --with-precise``, ``benchmarks/reader_memory.py``) and the tests that check both give the same.

    Parameters
    ----------
    reader : "auto" (the fast reader for a large clean file, else the
        precise one), "precise", or "fast" (which raises ``ValueError`` for
        a file it declines). Every reader gives the same result.
    source : a path (``pathlib.Path`` or any ``os.PathLike``), the file's
        content as ``bytes`` or ``str``, or a binary file object (an upload).
        A plain ``str`` is content, not a path.
    kind : "qrels" or "run".
    name : the name used in messages (default: the path, the upload's name,
        or the kind).

    Raises
    ------
    TrecFormatError
        Wrong number of columns (a qrels line has four; a run line at least
        six), a grade that is not a whole number or a score that is not a
        finite number, no data lines, a (qid, docid) pair listed twice, or
        bytes that are not UTF-8.

    Examples
    --------
    >>> qrels = read_with("auto", "# topic 1\\n1 0 doc7 2\\n1\\t0\\tdoc3   -2\\r\\n007 0 doc7 1\\n", "qrels")
    >>> qrels.qids, qrels.grade.tolist()
    (('1', '007'), [2, -2, 1])
    >>> read_with("precise", "1 0 doc7 2.5\\n", "qrels", name="q.txt")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    components.engine.model.TrecFormatError: q.txt, line 1: found grade '2.5'; expected a whole number from -1000 to 1000, ...

    In a run, the rank column is ignored; equal scores (1, 1.0 and 1e0 are
    equal) are ordered by docid descending, in byte order:

    >>> run = read_with("auto", "q1 Q0 doc1 1 1 r\\nq1 Q0 doc2 2 1.0 r\\nq1 Q0 doc3 3 1e0 r\\nq1 Q0 doc0 4 2 r\\n",
    ...                 "run")
    >>> [d.decode() for d in run.docids], run.rank.tolist()
    (['doc0', 'doc3', 'doc2', 'doc1'], [1, 2, 3, 4])

    Text after the tag is ignored, as trec_eval ignores it, and counted:

    >>> read_with("auto", "q1 Q0 doc1 1 2 r more text\\nq1 Q0 doc2 2 1 r\\n", "run").trailing_lines
    1

    The first data line's tag is the run's name in trec_eval's output:

    >>> read_with("auto", "# my notes\\nq1 Q0 doc1 1 2 bm25\\n", "run").tag
    'bm25'
    """
    if kind not in ("qrels", "run"):
        raise ValueError(f"kind must be 'qrels' or 'run', got {kind!r}")
    if kind == "qrels":
        rows, name = _read_rows(source, name, QRELS_LAYOUT, reader)
        return qrels_of(name, rows.qids, rows.qidx, rows.docids, rows.value, rows.line)
    rows, name = _read_rows(source, name, RUN_LAYOUT, reader)
    return run_of(name, rows.qids, rows.qidx, rows.docids, rows.value, rows.line, rows.trailing, rows.tag)


def _read_rows(source: Source, name: str | None, layout: Layout, reader: Reader) -> tuple[Rows, str]:
    """The data rows of a source, with the reader chosen (see :func:`read_with`); and the name for messages.

    Running out of memory raises ``MemoryError`` with a message naming the file.
    """
    if reader not in READERS:
        raise ValueError(f"reader must be one of {', '.join(map(repr, READERS))}, got {reader!r}")
    data, name = read_source(source, name, layout.kind)
    try:
        data = check_text(data, name)
        if reader == "fast" or (reader == "auto" and len(data) >= FAST_MIN_BYTES):
            try:
                rows = trec_fast.rows(data, layout)
            except trec_fast.Declined as declined:
                if reader == "fast":
                    raise ValueError(f"{name}: the fast reader declines this file ({declined}); "
                                     f"reader='auto' or 'precise' reads it") from None
                rows = trec_precise.rows(data, name, layout)
        else:
            rows = trec_precise.rows(data, name, layout)
        return (replace(rows, tag=_first_tag(data)) if layout is RUN_LAYOUT else rows), name
    except MemoryError:
        raise MemoryError(f"{name}: not enough memory to read this file ({len(data):,} bytes)") from None


def _first_tag(data: bytes) -> str:
    """The sixth field of the first data line (not blank, not a ``#`` comment), or "" if there is none.

    >>> _first_tag(b"\\n# notes\\n1 Q0 d 1 2.5 bm25 extra\\n1 Q0 e 2 1 other\\n")
    'bm25'
    """
    start = 0
    while start < len(data):
        end = data.find(b"\n", start)
        end = len(data) if end < 0 else end
        fields = data[start:end].split()
        if fields and not fields[0].startswith(b"#"):
            return fields[5].decode() if len(fields) > 5 else ""
        start = end + 1
    return ""
