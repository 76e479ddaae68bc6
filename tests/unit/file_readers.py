"""Shortcuts over the file readers that only the tests use: a qrels or run file in any format, a pair of them, and a
pair of TREC or CSV/TSV files joined.

The product reads a file through :func:`components.formats.readers.read` (the
parsed file and what was understood of it) and joins a pair with
:func:`components.engine.model.judge`; these return the parsed files alone.
"""
from __future__ import annotations

from components.engine import model
from components.formats import decode, readers, trec
from components.formats.json_formats import Fields


def read_qrels(source: decode.Source, name: str | None = None, *, fields: Fields | None = None,
               chunks: str | None = None) -> model.Qrels:
    """Read a qrels file in any format (:func:`components.formats.readers.read`).

    Examples
    --------
    >>> read_qrels(b"query-id\\tcorpus-id\\tscore\\nq1\\td1\\t2\\n").grade.tolist()
    [2]
    """
    parsed = readers.read(source, "qrels", name, fields=fields, chunks=chunks).parsed
    assert isinstance(parsed, model.Qrels)
    return parsed


def read_run(source: decode.Source, name: str | None = None, *, fields: Fields | None = None,
             chunks: str | None = None) -> model.Run:
    """Read a run file in any format (:func:`components.formats.readers.read`), in trec_eval's order.

    Examples
    --------
    >>> [d.decode() for d in read_run(b'{"q1": {"a": 0.5, "b": 0.9}}').docids]
    ['b', 'a']
    """
    parsed = readers.read(source, "run", name, fields=fields, chunks=chunks).parsed
    assert isinstance(parsed, model.Run)
    return parsed


def read_pair(qrels: decode.Source, run: decode.Source, gain: str | None = None, qrels_name: str | None = None,
              run_name: str | None = None, *, qrels_fields: Fields | None = None, run_fields: Fields | None = None,
              chunks: str | None = None) -> tuple[model.Qrels, model.Run]:
    """:func:`components.formats.readers.read_pair` giving the parsed files: the qrels (checked to fit ``gain`` when
    it is given, before the run is read), then the run; ``chunks`` applies to both.

    Examples
    --------
    >>> judgments, results = read_pair(b'{"q1": {"a": 1}}', b"q1 Q0 a 1 0.5 r\\n")
    >>> judgments.grade.tolist(), results.score.tolist()
    ([1], [0.5])
    """
    judgments = read_qrels(qrels, qrels_name, fields=qrels_fields, chunks=chunks)
    if gain is not None:
        model.check_gain_fits(judgments, gain)
    return judgments, read_run(run, run_name, fields=run_fields, chunks=chunks)


def load_trec(qrels: decode.Source, run: decode.Source, complete: bool = False, gain: str | None = None,
              qrels_name: str | None = None, run_name: str | None = None, *, reader: trec.Reader = "auto"
              ) -> model.JudgedRun:
    """Read two TREC files (the qrels checked to fit ``gain`` when it is given) with the TREC reader chosen
    (:func:`components.formats.trec.read_with`), and judge the run (:func:`components.engine.model.judge`,
    ``complete`` as trec_eval's -c).

    >>> load_trec("1 0 a 1\\n", "1 Q0 a 1 0.5 r\\n").queries.grade.tolist()
    [1]
    """
    judgments = trec.read_with(reader, qrels, "qrels", qrels_name)
    assert isinstance(judgments, model.Qrels)
    if gain is not None:
        model.check_gain_fits(judgments, gain)
    results = trec.read_with(reader, run, "run", run_name)
    assert isinstance(results, model.Run)
    return model.judge(judgments, results, complete)


def load_table(qrels: decode.Source, run: decode.Source, complete: bool = False, gain: str | None = None,
               qrels_name: str | None = None, run_name: str | None = None) -> model.JudgedRun:
    """Read both files (TREC, CSV or TSV, each on its own: :func:`read_qrels` and :func:`read_run`) and join
    them: :func:`load_trec` for tables.

    When ``gain`` is given, the grades are also checked to fit it
    (:func:`components.engine.model.check_gain_fits`).

    Examples
    --------
    >>> judged = load_table(b"qid,docid,grade\\n1,a,1\\n", b"1 Q0 a 1 0.5 r\\n1 Q0 b 2 0.9 r\\n")
    >>> judged.ranking(0)
    [('b', 0.9, 0), ('a', 0.5, 1)]
    """
    judgments = read_qrels(qrels, qrels_name)
    if gain is not None:
        model.check_gain_fits(judgments, gain)
    return model.judge(judgments, read_run(run, run_name), complete)
