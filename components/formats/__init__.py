"""Reading qrels and runs into the data model (:mod:`components.engine.model`), whatever their format.

One front door, ``readers.py`` (``read``, ``read_pair``, ``understood``,
``detect``): product code reads files through it alone. Each format is parsed
straight to the model's columns by a reader the front door calls (the table
and JSON readers are private; the TREC reader's ``trec.read_with`` is public
only for the benchmarks and tests that choose the fast or precise reader):
TREC (``trec.py``, which chooses ``trec_precise.py`` or
``trec_fast.py``; ``trec_layout.py``), CSV/TSV (``tabular.py``), JSON and
JSONL (``json_formats.py``); bytes in (``decode.py``), ids and numbers for
every format (``columns.py``); chunk ids (``chunks.py``).

May import: numpy, pyarrow, components.engine. Never: Streamlit,
components.ui, components.serving, lessons.
"""
