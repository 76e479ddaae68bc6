"""Qrels and runs written as JSON or JSON Lines, read straight into the data model's columns.

Two shapes of file:

- **dict-of-dicts**, one JSON object, as pytrec_eval, ranx and ir_measures
  take it: ``{"q1": {"d1": 2, "d2": 0}}`` for qrels (whole-number grades;
  ``2.0`` counts as 2), ``{"q1": {"d1": 12.5, "d2": 3}}`` for a run
  (numbers). A run is then in trec_eval's order: score descending, ties by
  docid descending. A query's value may also be a list of ids,
  ``{"q1": ["d1", "d2"]}``: each judged with grade 1 (qrels), or ranked in
  the list's order (a run, see below).
- **records**: JSON objects, one per line (JSON Lines), or in one JSON
  array, or a single object. A record names a query id and its documents
  (:class:`Fields` says under which keys); the documents are

  - a list of ids, ``"relevant_ids": ["d1", "d2"]``: grades from a list as
    long beside it (``"grades": [2, 1]``), else 1 each; a run's scores from
    such a list (``"scores"``), else from the list's order;
  - a list of objects, ``[{"id": "d1", "grade": 2}, ...]``, each with an id
    and, optionally, a grade or a score;
  - an object, ``{"d1": 2, "d2": 0}``: docid -> grade (or score);
  - one id: a record per judgment or result, as the MTEB datasets write
    BEIR's qrels (``{"query-id": "q1", "corpus-id": "d1", "score": 1}``),
    with its grade (else 1) or score beside it.

  A query may have several records (rows add up), except a run's list
  without scores.

A run's list without scores is its ranking: a list of n ids gets the scores
n, n − 1, ..., 1, so that trec_eval's order is the list's
(:attr:`Found.scores_from_order`; a query then has one list, and a
second record for it is refused). With scores, the scores decide the order,
as in trec_eval; the lists whose order differs from their scores' are
counted (:attr:`Found.reordered`). The list's order gives scores up to
:data:`MAX_ORDERED` = 2^24 ids, which 32-bit floats (trec_eval's) hold
exactly.

The keys of records are guessed from the first record (:func:`guess_fields`,
tables :data:`QID_KEYS` and following), or given: an explicit
:class:`Fields` is read as given, except a missing ``doc_id``, guessed from
the first object of a list. When guessing fails, :class:`FieldsError` (a
:class:`~components.engine.model.TrecFormatError`) lists the keys it saw and
the roles it could not fill, so that a page can ask for the mapping.

How it reads: every judgment or result becomes one row of the data model
(:mod:`components.engine.model`), with the same limits, order, ties,
duplicates and number syntax as a TREC file: ids are kept as
:mod:`components.formats.columns` keeps them, grades and scores are parsed
as a TREC file's are, from the text the file writes them with. Each row's
``line`` is its record's line (JSON Lines), the line where its record
starts (an array), or the line of its query's key (dict-of-dicts): rows of
one record share a line. Checked here:

- ids are strings or whole numbers (written in decimal), not empty, without
  NUL characters, valid Unicode (no lone surrogate); any other character is
  fine (``"doc 221"`` is an id; a TREC file cannot hold it, and
  :func:`components.formats.trec_layout.check_writable` says so when one is
  written as TREC);
- grades and scores are JSON numbers (not strings, not true/false), with
  the values a TREC file may hold (whole grades from -1000 to 1000, finite
  scores; NaN and Infinity are refused), quoted as the file writes them: a
  number that Python reads as another value (``1e400`` as infinity) or
  cannot read (an integer of more than 4,300 digits) sends the file through
  a second reading that keeps such numbers as written;
- a key twice in one object (a document twice in a query's object, a query
  twice at the top), which :func:`json.loads` would silently keep once.

Every problem raises :class:`~components.engine.model.TrecFormatError` with
the file, the line, what was found (naming the query and the document where
there is one) and what was expected; ``column`` names the JSON key.

Memory: the file's text is decoded whole, then its top-level values (JSON
Lines' lines, the members of its object or the elements of its array) are
decoded one at a time with :mod:`json`'s C decoder, and their rows are
packed into arrays a block at a time, so that the reading holds
the text, the columns and one value's tree (a single query of a million
results is one value, held whole).

No Streamlit import here.
"""
from __future__ import annotations

import codecs
import dataclasses
import json
import math
import re
from dataclasses import dataclass, replace
from typing import Any, Callable, Iterable, Iterator, Literal, Mapping, overload

import numpy as np

from components.engine import model
from components.engine.formatting import plural
from components.formats import columns, decode, tabular

Kind = Literal["qrels", "run"]
JsonFormat = Literal["json", "jsonl"]

QID_KEYS = ("query_id", "qid", "query-id", "queryid", "question_id", "topic", "id", "_id")  # a record's query id
DOCS_KEYS: dict[str, tuple[str, ...]] = {  # a record's list (or object) of documents, by kind of file
    "qrels": ("relevant_ids", "gold_ids", "expected_ids", "reference_context_ids", "relevant", "qrels",
              "positive_ids", "relevant_docs", "relevant_doc_ids", "judgments"),
    "run": ("retrieved_ids", "retrieved_context_ids", "retrieved", "results", "doc_ids", "ranking", "hits",
            "retrieved_docs", "retrieved_doc_ids"),
}
ONE_DOC_KEYS = tabular.ALIASES["docid"]  # a record of one judgment or result: its one document id
VALUE_KEYS: dict[str, tuple[str, ...]] = {  # beside the documents: a list of grades or scores, or one value
    "qrels": ("grades", "relevances", "labels", *tabular.ALIASES["grade"]),
    "run": ("scores", "similarities", *tabular.ALIASES["score"], "similarity"),
}
ITEM_ID_KEYS = ("id", "doc_id", "docid", "corpus_id", "corpus-id", "pid", "passage_id", "chunk_id", "context_id",
                "docno", "_id")  # in a list of objects: each object's document id
ITEM_VALUE_KEYS: dict[str, tuple[str, ...]] = {"qrels": (*tabular.ALIASES["grade"], "score"),
                                               "run": ("score", "similarity")}
MAX_ORDERED = 1 << 24  # the longest list the order gives scores to (32-bit floats hold whole numbers to 2^24)
_ROLES = {"qid": "the query id", "docs": "the documents", "doc_id": "each object's document id"}
_BAD_ID = re.compile("\x00").search  # what an id cannot hold (ids are NUL-padded byte strings)
_NOT_BLANK = re.compile(r"[^ \t\r\n]")  # JSON's whitespace is these four
_NOT_BLANK_BYTE = re.compile(rb"[^ \t\r\n]")
_JSON = "a JSON object or array, or one JSON object per line (JSON Lines)"
_SHOWN_CHARS = 60
_SHOWN_KEYS = 12


@dataclass(frozen=True)
class Fields:
    """Which keys of a record hold what (see the module's docstring for the shapes).

    Attributes
    ----------
    qid : the query id's key.
    docs : the documents' key: a list of ids, a list of objects, an object
        ``{docid: value}``, or one id.
    grade : qrels only: beside a list of ids, the key of a list of grades as
        long; beside one id, the key of its grade; in a list of objects,
        each object's key of its grade. None: grade 1 each.
    score : runs only, as ``grade`` for scores. None: scores from the list's
        order.
    doc_id : in a list of objects, each object's key of its document id
        (None: guessed from the first such object).
    """

    qid: str
    docs: str
    grade: str | None = None
    score: str | None = None
    doc_id: str | None = None

    def value(self, kind: Kind) -> str | None:
        """The key of the grades (qrels) or scores (run)."""
        return self.grade if kind == "qrels" else self.score


def parse_fields(spec: str) -> Fields:
    """A mapping written ``role=key`` with commas (the command line's ``--qrels-fields`` and ``--run-fields``);
    the roles are :class:`Fields`' attributes, ``qid`` and ``docs`` required. ``ValueError`` names what is wrong.

    Examples
    --------
    >>> parse_fields("qid=question, docs=hits, score=scores")
    Fields(qid='question', docs='hits', grade=None, score='scores', doc_id=None)
    >>> parse_fields("docs=hits")
    Traceback (most recent call last):
    ...
    ValueError: fields 'docs=hits': qid is missing; write role=key pairs with commas, e.g. qid=query_id,docs=relevant_ids
    """
    roles = {f.name for f in dataclasses.fields(Fields)}
    example = "write role=key pairs with commas, e.g. qid=query_id,docs=relevant_ids"
    given: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in spec.split(","))):
        role, equals, key = (x.strip() for x in part.partition("="))
        if not equals or not key or role not in roles or role in given:
            why = (f"{role!r} is not one of {', '.join(sorted(roles))}" if role not in roles else
                   f"{role} is named twice" if role in given else f"{part!r} has no key")
            raise ValueError(f"fields {spec!r}: {why}; {example}")
        given[role] = key
    for role in ("qid", "docs"):
        if role not in given:
            raise ValueError(f"fields {spec!r}: {role} is missing; {example}")
    return Fields(**given)


class FieldsError(model.TrecFormatError):
    """Records whose keys could not be guessed (:func:`guess_fields`).

    Attributes, besides :class:`~components.engine.model.TrecFormatError`'s
    ----------
    keys : the keys of the object looked at (a record, or the first object
        of its list of documents).
    missing : the roles no key filled: "qid", "docs" (a record's) or
        "doc_id" (an object's in a list), as in :class:`Fields`.
    record : for a missing "doc_id", the record's fields already known
        (its query id and documents keys); None otherwise.
    """

    def __init__(self, file: str, line: int, found: str, expected: str, column: str | None = None,
                 keys: tuple[str, ...] = (), missing: tuple[str, ...] = (), record: Fields | None = None):
        super().__init__(file, line, found, expected, column)
        self.keys, self.missing, self.record = keys, missing, record

    def __reduce__(self):
        return type(self), (self.file, self.line, self.found, self.expected, self.column, self.keys, self.missing,
                            self.record)


@dataclass(frozen=True)
class Found:
    """What reading a JSON file found, besides its rows.

    Attributes
    ----------
    format : "json" (one JSON value) or "jsonl" (a JSON value per line).
    fields : the keys read, for records; None for a dict-of-dicts.
    scores_from_order : whether some run scores were made from a list's
        order (n, n − 1, ..., 1).
    reordered : how many lists with scores are not in their scores' order
        (trec_eval's: score descending, ties by docid descending).
    empty : how many queries had no document (an empty list or object):
        a query without a row has no place in the model, so they are not in
        the result.
    """

    format: JsonFormat
    fields: Fields | None
    scores_from_order: bool
    reordered: int
    empty: int


def json_format(data: bytes) -> JsonFormat | None:
    """"json" or "jsonl" for a file whose first character (after blanks) is ``{`` or ``[``, else None.

    JSON Lines when the first line that is not blank is a whole JSON value
    and more follows; else one JSON value (a file of one line is both). Only
    the first line is parsed, and only when more follows.

    Examples
    --------
    >>> json_format(b'{"q1": {"d1": 1}}'), json_format(b'{"qid": 1, "relevant": [2]}\\n{"qid": 2, "relevant": [3]}\\n')
    ('json', 'jsonl')
    >>> json_format(b'{\\n "q1": {"d1": 1}\\n}\\n'), json_format(b"1 0 d1 1\\n")
    ('json', None)
    """
    text = data.removeprefix(codecs.BOM_UTF8)
    first = _NOT_BLANK_BYTE.search(text)
    if first is None or text[first.start()] not in b"{[":
        return None
    end = text.find(b"\n", first.start())
    if end < 0 or _NOT_BLANK_BYTE.search(text, end) is None:
        return "json"
    try:
        json.loads(text[first.start():end].decode("utf-8"), parse_int=str)  # (an integer of any length)
    except (ValueError, RecursionError):
        return "json"
    return "jsonl"


def guess_fields(record: Mapping[str, Any], kind: Kind, name: str = "file", line: int = 1) -> Fields:
    """The keys of a record, guessed from its keys (:data:`QID_KEYS`, :data:`DOCS_KEYS` and the others).

    Raises :class:`FieldsError` when no key names the query id or the documents.

    Examples
    --------
    >>> guess_fields({"query_id": "q1", "retrieved_ids": ["a", "b"], "scores": [2, 1]}, "run")
    Fields(qid='query_id', docs='retrieved_ids', grade=None, score='scores', doc_id=None)
    >>> guess_fields({"query-id": "1", "corpus-id": "d1", "score": 1}, "qrels")  # MTEB's BEIR qrels
    Fields(qid='query-id', docs='corpus-id', grade='score', score=None, doc_id=None)
    >>> guess_fields({"question": "why?", "answer": "because"}, "qrels", "gold.jsonl", 3)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    components.formats.json_formats.FieldsError: gold.jsonl, line 3: found an object with the keys 'question', ...
    """
    qid = _first_key(record, QID_KEYS)
    docs = _first_key(record, [k for k in (*DOCS_KEYS[kind], *ONE_DOC_KEYS) if k != qid])
    if qid is None or docs is None:
        missing = tuple(role for role, key in (("qid", qid), ("docs", docs)) if key is None)
        raise _fields_error(name, line, record, missing, kind)
    documents = record[docs]
    value: str | None = None
    doc_id = None
    if isinstance(documents, list) and documents and isinstance(documents[0], dict):
        doc_id = _item_id_key(documents[0], name, line, Fields(qid, docs), kind)
        value = _first_key(documents[0], [k for k in ITEM_VALUE_KEYS[kind] if k != doc_id])
    elif not isinstance(documents, dict):
        beir = ("score",) if kind == "qrels" and docs in tabular.BEIR_DOCIDS else ()
        value = _first_key(record, [k for k in (*VALUE_KEYS[kind], *beir) if k not in (qid, docs)])
    return Fields(qid, docs, grade=value if kind == "qrels" else None, score=value if kind == "run" else None,
                  doc_id=doc_id)


@overload
def _read(source: decode.Source, kind: Literal["qrels"], name: str | None = None, *,
         fields: Fields | None = None) -> tuple[model.Qrels, Found]: ...
@overload
def _read(source: decode.Source, kind: Literal["run"], name: str | None = None, *,
         fields: Fields | None = None) -> tuple[model.Run, Found]: ...
def _read(source: decode.Source, kind: Kind, name: str | None = None, *,
         fields: Fields | None = None) -> tuple[model.Qrels | model.Run, Found]:
    """Read a JSON or JSON Lines qrels or run file (see the module's docstring); and what the reading found: for
    :func:`components.formats.readers.read` (the one public way to read a file), which calls it for a file that
    :func:`json_format` finds JSON.

    ``fields`` applies to records (a dict-of-dicts has no keys to map; given
    ``fields``, a single object is read as a record). Each row's ``line`` is
    its line in the JSON file.

    Examples
    --------
    >>> run, found = _read(b'{"q1": {"a": 0.5, "b": 0.5, "c": 0.9}}', "run")
    >>> [d.decode() for d in run.docids], run.line.tolist(), found.fields
    (['c', 'b', 'a'], [1, 1, 1], None)
    >>> run, found = _read(b'{"query_id": "q 1", "retrieved_ids": ["doc 2", "doc 1"]}', "run")
    >>> run.qids, [d.decode() for d in run.docids], found.scores_from_order, found.fields.docs
    (('q 1',), ['doc 2', 'doc 1'], True, 'retrieved_ids')
    """
    _check_kind(kind)
    data, name = decode.read_source(source, name, kind)
    values = _members(decode.text(data, name), name)
    try:
        found, rows = _Writer(name, kind, _DECODER, len(data)).convert(values, fields)
    except _NumberAsText:  # read again, keeping such numbers as written, to refuse them in the file's terms
        found, rows = _Writer(name, kind, _AS_WRITTEN, len(data)).convert(values, fields)
    del values  # the text, read
    key = found.fields.value(kind) if found.fields else None
    try:
        return rows.model(name, None if key is None else f"field {key!r}", _about, found.format), found
    except model.TrecFormatError as err:  # a document twice for a query, in one record: on one line
        same = f"(first on line {err.line})"
        if not err.found.endswith(same):
            raise
        raise type(err)(err.file, err.line, err.found.removesuffix(same) + "(earlier in the same record)",
                        err.expected, err.column) from None


# ----------------------------------------------------------------------------
# Inside: JSON values, with their lines
# ----------------------------------------------------------------------------

class _RepeatedKey(Exception):
    """A key twice in one JSON object (raised inside the decoder, worded by its caller)."""

    def __init__(self, key: str):
        super().__init__(key)
        self.key = key


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object's members as a dict; _RepeatedKey if a key repeats (json.loads would keep the last)."""
    members = dict(pairs)
    if len(members) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _RepeatedKey(key)
            seen.add(key)
    return members


class _NumberAsText(Exception):
    """A JSON number that json reads as another value than the one written (``1e400`` as inf, ``Infinity``, ``NaN``)
    or cannot read (an integer of more than 4,300 digits: ``sys.get_int_max_str_digits``)."""


class _Written(str):
    """Such a number, kept as written (by :data:`_AS_WRITTEN`), to be refused quoting it."""


def _whole(text: str) -> int | _Written:
    try:
        return int(text)
    except ValueError:  # more than 4,300 digits
        return _Written(text)


def _real(text: str) -> float | _Written:
    value = float(text)
    return value if math.isfinite(value) else _Written(text)


_DECODER = json.JSONDecoder(object_pairs_hook=_unique)
_AS_WRITTEN = json.JSONDecoder(object_pairs_hook=_unique, parse_int=_whole, parse_float=_real, parse_constant=_Written)
_NOT_FINITE = frozenset(map(repr, (math.inf, -math.inf, math.nan)))
_WHOLE = re.compile(r"-?[0-9]+").fullmatch

Member = tuple[int, "str | None", Any]  # (line, key, value): an object's member, or (line, None, value) otherwise


@dataclass(frozen=True)
class _Values:
    """A file's top-level values: JSON Lines' lines, or the members of one JSON object or array, decoded one at a
    time as :meth:`members` goes (so that only one is held at once)."""

    format: JsonFormat
    shape: Literal["lines", "object", "array"]
    text: str
    start: int  # where the first value (JSON Lines) or the object or array starts in text
    line: int  # ... on this line
    name: str

    def members(self, decoder: json.JSONDecoder) -> Iterator[Member]:
        """The values from the start, anew at each call."""
        if self.shape == "lines":
            return _lines(self.text, self.name, self.start, self.line, decoder)
        return _top_level(self.text, self.start, self.name, decoder)


def _members(text: str, name: str) -> _Values:
    """The file's top-level values (:func:`json_format` decides which: the same test on the same text)."""
    first = _NOT_BLANK.search(text)
    if first is None:
        raise model.TrecFormatError(name, max(text.count("\n"), 1), "an empty file (end of file)", _JSON)
    start = first.start()
    line = text.count("\n", 0, start) + 1
    if text[start] not in "{[":
        raise model.TrecFormatError(name, line, f"{_show(_line_at(text, start))} (not JSON)", _JSON)
    end = text.find("\n", start)
    if end >= 0 and _NOT_BLANK.search(text, end) is not None:
        try:
            json.loads(text[start:end], parse_int=str)  # (an integer of any length)
        except (ValueError, RecursionError):
            pass  # not a whole value on its line: one JSON value over several lines
        else:
            return _Values("jsonl", "lines", text, start, line, name)
    return _Values("json", "object" if text[start] == "{" else "array", text, start, line, name)


def _lines(text: str, name: str, start: int, number: int, decoder: json.JSONDecoder) -> Iterator[Member]:
    """(line, None, value) of each line of JSON Lines that is not blank, from the one at text[start]."""
    while start <= len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        blank = _NOT_BLANK.search(text, start, end)
        if blank is not None:
            value, at = _raw_decode(text, blank.start(), name, number, lambda _: number, decoder)
            rest = _NOT_BLANK.search(text, at, end)
            if rest is not None:
                raise model.TrecFormatError(name, number, f"more after the JSON value: {_show(text[rest.start():end])}",
                                           "one JSON value per line (JSON Lines)")
            yield number, None, value
        start, number = end + 1, number + 1


def _top_level(text: str, start: int, name: str, decoder: json.JSONDecoder) -> Iterator[Member]:
    """(line, key, value) of each member of the object at text[start], or (line, None, value) of each element of
    the array there, with the line where it starts; nothing but blanks may follow the object or array."""
    lines = _LineCounter(text)
    close = "}" if text[start] == "{" else "]"
    first_line: dict[str, int] = {}
    at = _skip(text, start + 1)
    if text.startswith(close, at):
        at += 1
    else:
        while True:
            line, key = lines.at(at), None
            if close == "}":
                key, at = _key(text, at, name, lines)
                if key in first_line:
                    raise model.TrecFormatError(name, line, f"the query {_show(key)} again (first on line "
                                                           f"{first_line[key]})", "each query once in the object")
                first_line[key] = line
            value, at = _raw_decode(text, at, name, line, lines.at, decoder)
            yield line, key, value
            at = _skip(text, at)
            if text.startswith(close, at):
                at += 1
                break
            if not text.startswith(",", at):
                raise _syntax(name, text, at, lines, f"',' or '{close}'")
            at = _skip(text, at + 1)
    rest = _NOT_BLANK.search(text, at)
    if rest is not None:
        raise _syntax(name, text, rest.start(), lines,
                      "the end of the file after the JSON value (or one JSON value per line: JSON Lines)")


class _LineCounter:
    """The 1-based line of a position in a text; positions asked in increasing order are counted once."""

    def __init__(self, text: str):
        self.text, self.pos, self.line = text, 0, 1

    def at(self, pos: int) -> int:
        if pos < self.pos:
            return self.text.count("\n", 0, pos) + 1
        self.line += self.text.count("\n", self.pos, pos)
        self.pos = pos
        return self.line


def _skip(text: str, at: int) -> int:
    """Where the JSON whitespace from text[at] ends."""
    found = _NOT_BLANK.search(text, at)
    return len(text) if found is None else found.start()


def _key(text: str, at: int, name: str, lines: _LineCounter) -> tuple[str, int]:
    """A member's key at text[at] and where its value starts (after the colon)."""
    if not text.startswith('"', at):
        raise _syntax(name, text, at, lines, "a key in double quotes")
    key, at = _raw_decode(text, at, name, lines.at(at), lines.at, _DECODER)
    at = _skip(text, at)
    if not text.startswith(":", at):
        raise _syntax(name, text, at, lines, "':' after the key")
    return key, _skip(text, at + 1)


def _raw_decode(text: str, at: int, name: str, line: int, line_at: Callable[[int], int],
                decoder: json.JSONDecoder) -> tuple[Any, int]:
    """The JSON value at text[at] and where it ends; TrecFormatError for bad JSON, a repeated key or deep nesting,
    _NumberAsText for an integer too long for :data:`_DECODER` (``line`` is where the value starts, ``line_at`` the
    line of a position)."""
    try:
        return decoder.raw_decode(text, at)
    except json.JSONDecodeError as err:
        at_end = err.pos >= len(text)
        shown = "the end of the file" if at_end else f"{_show(text[err.pos:err.pos + 20])} at character {err.colno}"
        raise model.TrecFormatError(name, line_at(err.pos), shown, f"valid JSON ({err.msg.lower()})") from None
    except _RepeatedKey as err:
        raise model.TrecFormatError(name, line, f"the key {_show(err.key)} twice in one object",
                                   "each key once in an object (a document once per query)") from None
    except RecursionError:
        raise model.TrecFormatError(name, line, "JSON nested too deeply to read",
                                   "records of a few levels: query id, documents, their grades or scores") from None
    except ValueError:  # an integer of more than 4,300 digits (sys.get_int_max_str_digits)
        raise _NumberAsText from None


def _syntax(name: str, text: str, at: int, lines: _LineCounter, expected: str) -> model.TrecFormatError:
    shown = _show(text[at:at + 20]) if at < len(text) else "the end of the file"
    return model.TrecFormatError(name, lines.at(at), shown, expected + " (valid JSON)")


def _line_at(text: str, pos: int) -> str:
    """The line of text holding position pos."""
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    return text[start:end if end >= 0 else len(text)]


# ----------------------------------------------------------------------------
# Inside: JSON values to rows
# ----------------------------------------------------------------------------

class _NotQueries(Exception):
    """A top-level object with a member whose value is neither an object nor a list: one record, not queries."""


class _Writer:
    """The rows of a file (:class:`~components.formats.columns.Collector`: packed a block at a time, so that few are
    Python strings at once, next to one top-level value's tree), with each row's line in the file; and what the
    reading found."""

    def __init__(self, name: str, kind: Kind, decoder: json.JSONDecoder, n_bytes: int):
        self.name, self.kind, self.decoder, self.n_bytes = name, kind, decoder, n_bytes
        self.rows = columns.Collector("grade" if kind == "qrels" else "score", name, n_bytes, _about)
        self.seen: dict[str, int] = {}  # every query -> its first line
        self.ordered: dict[str, int] = {}  # run queries whose list gave the scores -> their line
        self.from_order, self.reordered, self.empty = False, 0, 0

    def convert(self, values: _Values, fields: Fields | None,
                queries: bool = True) -> tuple[Found, columns.Collected]:
        """The rows of every value: a dict-of-dicts' queries, or records (a single object is one record).

        An object (without ``fields``) is read as queries, a member at a time;
        at a member that is neither an object nor a list, it is read again as
        one record (by a new writer; and so is one whose query reading failed,
        if such a member follows, so that the error is the record's).
        """
        if values.shape != "object":
            return self._rows(values, self._records(values.members(self.decoder), fields))
        if fields is None and queries:
            try:
                self._queries(values.members(self.decoder))
                return self._rows(values, None)
            except (_NotQueries, model.TrecFormatError) as err:
                if isinstance(err, model.TrecFormatError) and all(
                        isinstance(value, (dict, list)) for _, _, value in values.members(self.decoder)):
                    raise
            return _Writer(self.name, self.kind, self.decoder, self.n_bytes).convert(values, fields, queries=False)
        members = list(values.members(self.decoder))
        return self._rows(values, self._one_record(members, values.line, fields))

    def _one_record(self, members: list[Member], line: int, fields: Fields | None) -> Fields | None:
        """An object that is not a dict of queries, read as one record; when its keys cannot be guessed, the error
        also says what an object of queries holds."""
        try:
            return self._records([(line, None, {key: value for _, key, value in members})], fields)
        except FieldsError as err:
            if fields is not None:  # given keys: an object of queries was not meant
                raise
            key, value = next((key, value) for _, key, value in members if not isinstance(value, (dict, list)))
            raise FieldsError(err.file, err.line, err.found,
                              f"{err.expected}; or, for an object of queries, each query's documents as an object "
                              f"(document id -> value) or a list of ids, not a JSON {_json_type(value)} as in "
                              f"{_show(str(key))}", err.column, err.keys, err.missing, err.record) from None

    def _rows(self, values: _Values, fields: Fields | None) -> tuple[Found, columns.Collected]:
        if not len(self.rows) and not self.empty:
            raise model.TrecFormatError(self.name, values.line, "an empty JSON object or array", "at least one query")
        if not len(self.rows):
            what = "judgment" if self.kind == "qrels" else "result"
            raise model.TrecFormatError(self.name, values.line,
                                       f"no {what} ({self.empty} {plural(self.empty, 'query|queries')} with none)",
                                       f"at least one query with a {what}")
        return Found(values.format, fields, self.from_order, self.reordered, self.empty), self.rows.collected()

    # --- the two shapes

    def _queries(self, members: Iterable[Member]) -> None:
        """A dict-of-dicts (or of lists): each member is a query id and its documents; _NotQueries at a member that
        is neither."""
        for line, qid, documents in members:
            if not isinstance(documents, (dict, list)):
                raise _NotQueries
            qid = self._id(qid, "query id", line, None)
            if isinstance(documents, dict):
                ids = list(documents)
                self._add(qid, ids, self._values(list(documents.values()), line, None, qid, ids), line, None)
            else:
                self._add(qid, documents, None, line, None)

    def _records(self, members: Iterable[Member], fields: Fields | None) -> Fields | None:
        """Records: the keys are guessed from the first (unless given); None when there is none and none given."""
        for line, _, record in members:
            if not isinstance(record, dict):
                raise self._error(line, f"a JSON {_json_type(record)}", "a JSON object for each record")
            fields = self._record(record, line, fields or guess_fields(record, self.kind, self.name, line))
        return fields

    def _record(self, record: dict, line: int, fields: Fields) -> Fields:
        """Add one record's rows; the fields, with the objects' id key once guessed."""
        qid = self._id(self._field(record, fields.qid, line, "the query id"), "query id", line, fields.qid)
        documents = self._field(record, fields.docs, line, "the documents")
        key = fields.value(self.kind)
        values = None
        if isinstance(documents, dict):
            ids, values, key = list(documents), list(documents.values()), fields.docs
        elif isinstance(documents, list) and any(isinstance(d, dict) for d in documents):
            fields, ids, values = self._items(documents, fields, key, line)
        elif isinstance(documents, list):
            ids, values = documents, self._companion(record, key, len(documents), line)
        else:
            ids = [documents]
            values = None if key is None else [self._field(record, key, line, "the value")]
        if values is not None:
            values = self._values(values, line, key, qid, ids)
        self._add(qid, ids, values, line, fields.docs, ranked=isinstance(documents, list))
        return fields

    def _items(self, documents: list, fields: Fields, key: str | None,
               line: int) -> tuple[Fields, list, list | None]:
        """The fields (with the objects' id key, guessed from the first if not given), the ids and the values (None:
        no key for them) of a list of objects."""
        for position, item in enumerate(documents, 1):
            if not isinstance(item, dict):
                raise self._error(line, f"a JSON {_json_type(item)} as item {position} of {fields.docs!r}, among "
                                        "objects", "a list of ids, or a list of objects", fields.docs)
        if fields.doc_id is None:
            fields = replace(fields, doc_id=_item_id_key(documents[0], self.name, line, fields, self.kind))
        ids, values = [], []
        for position, item in enumerate(documents, 1):
            where = f"object {position} of {fields.docs!r}"
            ids.append(self._field(item, fields.doc_id, line, "the document id", where))
            if key is not None:
                values.append(self._field(item, key, line, "the value", where))
        return fields, ids, values if key is not None else None

    def _companion(self, record: dict, key: str | None, n: int, line: int) -> list | None:
        """The list of values beside a list of n ids (None: no key for them)."""
        if key is None:
            return None
        values = self._field(record, key, line, "the values")
        if not isinstance(values, list) or len(values) != n:
            found = f"a list of {len(values)}" if isinstance(values, list) else f"a JSON {_json_type(values)}"
            what = "grades" if self.kind == "qrels" else "scores"
            raise self._error(line, f"{found} in {key!r} beside {n} document id{'s' * (n != 1)}",
                              f"a list of as many {what}, one per id", key)
        return values

    # --- one query's rows

    def _add(self, qid: str, documents: Any, values: list[str] | None, line: int, key: str | None,
             ranked: bool = False) -> None:
        """The rows of one query's documents. ``values`` None: grade 1 each (qrels), or the list's order is the
        ranking (a run); ``ranked``: the documents came as a list (whose order may differ from its scores')."""
        if not isinstance(documents, list):
            raise self._error(line, f"a JSON {_json_type(documents)} for query {_show(qid)}",
                              "a list of document ids, or an object of document id -> value", key)
        ids = self._ids(documents, line, key)
        if not ids:
            self.empty += 1
            return
        if values is None:
            values = self._ranked(qid, ids, line) if self.kind == "run" else ["1"] * len(ids)
        elif self.kind == "run":
            self._check_not_ranked_before(qid, line)
            self.reordered += ranked and len(ids) > 1 and _out_of_order(ids, values)
        self.seen.setdefault(qid, line)
        self.rows.add(qid, ids, values, line)

    def _ranked(self, qid: str, ids: list[str], line: int) -> list[str]:
        """Scores n, n − 1, ..., 1 for a list of n ids in rank order: trec_eval's order is then the list's."""
        if len(ids) > MAX_ORDERED:
            raise self._error(line, f"a list of {len(ids):,} ids without scores",
                              f"at most {MAX_ORDERED:,} ids, or scores beside them")
        self._check_not_ranked_before(qid, line)
        if qid in self.seen:
            raise self._error(line, f"query {_show(qid)} again, in a list without scores (first on line "
                                    f"{self.seen[qid]})", "one list per query when the list's order is its ranking")
        self.ordered[qid] = line
        self.from_order = True
        return [str(n) for n in range(len(ids), 0, -1)]

    def _check_not_ranked_before(self, qid: str, line: int) -> None:
        if qid in self.ordered:
            raise self._error(line, f"query {_show(qid)} again (first on line {self.ordered[qid]}, in a list "
                                    "without scores)", "one list per query when the list's order is its ranking")

    # --- one field

    def _field(self, record: dict, key: str | None, line: int, role: str, where: str = "a record") -> Any:
        if key in record:
            return record[key]
        raise self._error(line, f"{where} without the key {key!r} ({role}); its keys: {_keys(record)}",
                          f"{role} in {key!r}, as in the first record", key)

    def _ids(self, documents: list, line: int, key: str | None) -> list[str]:
        """Each document id as text: a list of clean strings (the usual case) is checked at once;
        any other, one id at a time (:meth:`_id`, which words the error)."""
        try:
            joined = "\x01".join(documents)  # an empty id shows as "\x01\x01", or one at an end
        except TypeError:  # not all strings
            joined = ""
        if joined and "\x01\x01" not in joined and joined[0] != "\x01" and joined[-1] != "\x01" and \
                _BAD_ID(joined) is None and (joined.isascii() or _encodes(joined)):
            return documents
        return [self._id(d, "document id", line, key) for d in documents]

    def _id(self, value: Any, what: str, line: int, key: str | None) -> str:
        """An id as text (a whole number as its decimal digits); else TrecFormatError."""
        if isinstance(value, int) and not isinstance(value, bool) or isinstance(value, _Written) and _WHOLE(value):
            return str(value)
        if isinstance(value, float) and not math.isfinite(value):
            raise _NumberAsText
        if not isinstance(value, str) or isinstance(value, _Written):
            raise self._error(line, f"a {what} that is a JSON {_json_type(value)}: {_show_json(value)}",
                              f"a {what} as a string or a whole number", key)
        if not value:
            raise self._error(line, "an empty " + what, f"a {what} that is not empty", key)
        if _BAD_ID(value) is not None:
            raise self._error(line, f"{what} {_show(value)} holding a NUL character", f"a {what} without NUL characters",
                              key)
        if not (value.isascii() or _encodes(value)):
            raise self._error(line, f"{what} {_show(value)} holding a lone surrogate (\\ud800 to \\udfff)",
                              f"a {what} of valid Unicode text", key)
        return value

    def _values(self, values: list, line: int, key: str | None, qid: str, ids: list) -> list[str]:
        """Grades or scores as text, as a TREC file would write them: whole numbers (and a run's floats) at once, else one value at
        a time (:meth:`_value`, which words the error)."""
        types = set(map(type, values))
        if types <= {int} or (self.kind == "run" and types <= {int, float}):
            texts = list(map(repr, values))  # an int's repr is its digits; a float's, the shortest that reads back
            if float in types and not _NOT_FINITE.isdisjoint(texts):
                raise _NumberAsText
            return texts
        return [self._value(v, line, key, qid, d) for d, v in zip(ids, values)]

    def _value(self, value: Any, line: int, key: str | None, qid: str, doc: Any) -> str:
        """A grade or score as text, as a TREC file would write it (its value is checked once parsed); else
        TrecFormatError."""
        if isinstance(value, _Written):
            return str(value)
        if isinstance(value, float):
            if not math.isfinite(value):
                raise _NumberAsText
            return str(int(value)) if self.kind == "qrels" and value.is_integer() else repr(value)
        if isinstance(value, int) and not isinstance(value, bool):
            return str(value)
        what = "grade" if self.kind == "qrels" else "score"
        raise self._error(line, f"{what} {_show_json(value)} (a JSON {_json_type(value)}) for document "
                                f"{_show(str(doc))} of query {_show(qid)}", f"a {what} as a JSON number", key)

    def _error(self, line: int, found: str, expected: str, key: str | None = None) -> model.TrecFormatError:
        return model.TrecFormatError(self.name, line, found, expected, None if key is None else f"field {key!r}")


def _about(qid: str, docid: bytes, column: int) -> str:
    """What a message about a row adds: its query and document, but the one it shows (column 0 the qid, 1 the
    docid, 2 the value)."""
    query, document = f"query {_show(qid)}", f"document {_show(docid.decode())}"
    return f" ({document})" if column == 0 else f" ({query})" if column == 1 else f" ({query}, {document})"


def _out_of_order(ids: list[str], values: list[str]) -> bool:
    """Whether trec_eval's order (score as a 32-bit float descending, then docid descending in bytes) differs from
    the list's. Values refused once parsed count as out of order.

    Examples
    --------
    >>> _out_of_order(["a", "b"], ["2", "1"]), _out_of_order(["a", "b"], ["1", "1"]), _out_of_order(["b", "a"], ["1", "1.0"])
    (False, True, False)
    """
    try:
        with np.errstate(over="ignore", invalid="ignore"):
            scores = np.array([float(v) for v in values]).astype(np.float32).tolist()
    except (OverflowError, ValueError):
        return True
    keys = list(zip(scores, (d.encode("utf-8") for d in ids)))
    return not all(a > b for a, b in zip(keys, keys[1:]))


# ----------------------------------------------------------------------------
# Inside: small helpers
# ----------------------------------------------------------------------------

def _check_kind(kind: str) -> None:
    if kind not in DOCS_KEYS:
        raise ValueError(f"kind must be 'qrels' or 'run', got {kind!r}")


def _encodes(text: str) -> bool:
    """Whether text encodes as UTF-8 (it holds no lone surrogate)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _first_key(record: Mapping[str, Any], keys) -> str | None:
    return next((k for k in keys if k in record), None)


def _item_id_key(item: Any, name: str, line: int, fields: Fields, kind: Kind) -> str:
    """The key of the document id in an object of a record's list of documents (the record read with ``fields``);
    FieldsError, carrying ``fields``, if none is known."""
    key = _first_key(item, ITEM_ID_KEYS) if isinstance(item, dict) else None
    if key is None:
        raise _fields_error(name, line, item if isinstance(item, dict) else {}, ("doc_id",), kind, fields)
    return key


def _fields_error(name: str, line: int, record: Mapping[str, Any], missing: tuple[str, ...], kind: Kind,
                  known_fields: Fields | None = None) -> FieldsError:
    """``record``: the object whose keys are shown; ``known_fields``: the record's keys already known, when that
    object is the first of its list of documents."""
    known = {"qid": QID_KEYS, "docs": (*DOCS_KEYS[kind], *ONE_DOC_KEYS), "doc_id": ITEM_ID_KEYS}
    where = f"the first object of {known_fields.docs!r}" if known_fields else "an object"
    wanted = "; ".join(f"{_ROLES[role]} (a key such as {', '.join(known[role][:6])})" for role in missing)
    return FieldsError(name, line, f"{where} with the keys {_keys(record)}",
                       f"keys for {wanted}: say which keys to read", keys=tuple(record), missing=missing,
                       record=known_fields)


def _keys(record: Mapping[str, Any]) -> str:
    keys = [_show(k) for k in list(record)[:_SHOWN_KEYS]]
    return (", ".join(keys) + (", ..." if len(record) > _SHOWN_KEYS else "")) or "none"


def _json_type(value: Any) -> str:
    return {dict: "object", list: "array", str: "string", bool: "true/false", type(None): "null"}.get(
        type(value), "number")


def _show(text: str) -> str:
    """A string, quoted for a message (shortened; controls escaped)."""
    return repr(text if len(text) <= _SHOWN_CHARS else text[:_SHOWN_CHARS] + "…")


def _show_json(value: Any) -> str:
    if isinstance(value, _Written):
        return str(value)
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (ValueError, RecursionError):
        text = type(value).__name__
    return text if len(text) <= _SHOWN_CHARS else text[:_SHOWN_CHARS] + "…"
