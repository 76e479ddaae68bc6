"""A (query, docid) pair listed twice is refused: found by sorting the pairs' 64-bit keys, with distinct pairs whose
keys collide by chance told apart by their bytes, and a real repeat never let through."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from components.engine import keys, model


def run(docids: list[bytes]) -> model.Run:
    n = len(docids)
    return model.run_of("r.txt", ("q1",), np.zeros(n, dtype=np.int64), np.array(docids, dtype="S8"),
                        np.arange(n, 0, -1, dtype=np.float64), np.arange(1, n + 1))


def with_keys(monkeypatch, given_keys: list[int]) -> None:
    monkeypatch.setattr(keys, "pair_keys", lambda qidx, docids: np.array(given_keys, dtype=np.uint64))


def test_distinct_pairs_whose_keys_collide_are_compared_exactly(monkeypatch):
    with_keys(monkeypatch, [1, 1, 7])
    assert run([b"a", b"b", b"c"]).docids.size == 3


def test_a_repeat_among_colliding_keys_is_refused(monkeypatch):
    with_keys(monkeypatch, [1, 1, 1])
    with pytest.raises(model.TrecFormatError, match="document 'a' listed again for query 'q1' .first on line 1."):
        run([b"a", b"b", b"a"])


@given(st.lists(st.sampled_from([b"a", b"b", b"c", b"d", b"e", b"f"]), min_size=1, max_size=12))
def test_a_run_is_refused_exactly_when_a_document_repeats(docids):
    if len(set(docids)) < len(docids):
        with pytest.raises(model.TrecFormatError, match="listed again"):
            run(docids)
    else:
        assert sorted(run(docids).docids.tolist()) == sorted(docids)


@given(st.lists(st.tuples(st.integers(0, 2), st.sampled_from([b"a", b"b", b"c", b"d"])), min_size=1, max_size=14),
       st.booleans())
def test_the_repeat_named_is_the_first_in_the_file_whatever_the_rows_order(rows, even):
    """Several queries, their rows interleaved or not, of equal numbers (sorted query by query) or not."""
    if even:  # every query the same rows, so the same number of them: the per-query sort
        rows = [(q, d) for q in range(3) for _, d in rows]
    n = len(rows)
    qids = tuple(f"q{q}" for q in sorted({q for q, _ in rows}))
    qidx = np.array([sorted({q for q, _ in rows}).index(q) for q, _ in rows], dtype=np.int64)
    first_seen, repeats = {}, []
    for line, pair in enumerate(rows, 1):
        if pair in first_seen:
            repeats.append((line, pair))
        first_seen.setdefault(pair, line)
    make = lambda: model.run_of("r.txt", qids, qidx.copy(), np.array([d for _, d in rows], dtype="S8"),  # noqa: E731
                                np.linspace(1, 0, n), np.arange(1, n + 1))
    if not repeats:
        assert make().docids.size == n
        return
    line, (q, d) = repeats[0]
    with pytest.raises(model.TrecFormatError) as refused:
        make()
    assert refused.value.line == line
    assert f"document '{d.decode()}' listed again for query 'q{q}' (first on line {first_seen[(q, d)]})" in str(
        refused.value)
