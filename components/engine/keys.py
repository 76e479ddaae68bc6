"""64-bit keys for byte-string ids: numbering distinct ids, and keys for (query, docid) pairs.

Ids are ``S`` arrays (UTF-8 bytes, NUL-padded). A key is exact for ids of
up to 8 bytes and a hash of their 8-byte words beyond; whoever compares keys
checks a match against the bytes, so a collision costs time, never a wrong
answer. The readers number ids with :func:`factorize`, the data model joins
a run with its qrels and finds repeated pairs with :func:`pair_keys`, and the
diagnosis matches ids the same way.

No Streamlit import here.
"""
from __future__ import annotations

import numpy as np

KEY_MULTIPLIER = np.uint64(0x9E3779B97F4A7C15)  # mixes 64-bit words into one key (wrapping around 2**64)


def factorize(texts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct byte strings in order of first appearance, and each row's index into them.

    Each string is reduced to a 64-bit key (exact for ids up to 8 bytes, a
    hash of its 8-byte words beyond), and the integer keys are numbered. The
    result is checked against the bytes; on a hash collision the strings
    themselves are numbered instead.

    Examples
    --------
    >>> vocab, codes = factorize(np.array([b"b", b"a", b"b", b"a-long-document-id"]))
    >>> vocab.tolist(), codes.tolist()
    ([b'b', b'a', b'a-long-document-id'], [0, 1, 0, 2])
    """
    first, codes = _number(id_keys(texts))
    if texts.dtype.itemsize > 8 and not np.array_equal(texts[first][codes], texts):
        first, codes = _number(texts)
    return texts[first], codes


def id_keys(texts: np.ndarray) -> np.ndarray:
    """A 64-bit key per byte string: its bytes when they fit in 8 (exact), else a hash of its 8-byte words.

    The words are combined last first (the sum of word j times the
    multiplier to the power j), so the NUL words that pad a string to its
    array's width add nothing: equal strings get equal keys in arrays of any
    widths, and no array is widened to compare keys with another.

    Examples
    --------
    >>> bool(id_keys(np.array([b"a-long-document-id"], dtype="S24"))[0]
    ...      == id_keys(np.array([b"a-long-document-id"], dtype="S512"))[0])
    True
    """
    words = _words(texts)
    key = words[:, -1]
    for j in range(words.shape[1] - 2, -1, -1):  # wraps around modulo 2**64 on purpose
        key = key * KEY_MULTIPLIER + words[:, j]
    return key


def pair_keys(qidx: np.ndarray, docids: np.ndarray) -> np.ndarray:
    """A 64-bit key per (query index, docid) row: equal pairs get equal keys, distinct pairs rarely do."""
    keys = id_keys(docids) * KEY_MULTIPLIER
    keys += np.ascontiguousarray(qidx, dtype=np.int64).view(np.uint64)  # indices are >= 0: the same as uint64
    return keys


def _number(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Number equal keys 0, 1, 2, ... in order of first appearance.

    Returns the row where each number first appears, and each row's number.
    Runs of equal adjacent keys (a run file's query ids) are numbered once.
    """
    run_start = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    run_keys = keys[run_start]
    order = np.argsort(run_keys)
    sorted_keys = run_keys[order]
    new = np.flatnonzero(np.r_[True, sorted_keys[1:] != sorted_keys[:-1]])  # where each distinct key starts
    group = np.empty(order.size, dtype=np.int64)
    group[order] = np.repeat(np.arange(new.size), np.diff(np.r_[new, order.size]))
    first_run = np.minimum.reduceat(order, new)  # earliest run of each distinct key
    by_appearance = np.argsort(first_run)
    renumber = np.empty_like(by_appearance)
    renumber[by_appearance] = np.arange(by_appearance.size)
    codes = np.repeat(renumber[group], np.diff(np.r_[run_start, keys.size]))
    return run_start[first_run[by_appearance]], codes


def _words(texts: np.ndarray) -> np.ndarray:
    """Byte strings as rows of 64-bit words (NUL-padded to a multiple of 8 bytes; a view when they are)."""
    width = texts.dtype.itemsize
    n_words = -(-width // 8)
    data = np.ascontiguousarray(texts).view(np.uint8).reshape(texts.size, width)
    if width != 8 * n_words:
        data = np.concatenate([data, np.zeros((texts.size, 8 * n_words - width), dtype=np.uint8)], axis=1)
    return data.view(np.uint64)



def query_codes(texts: np.ndarray) -> tuple[tuple[str, ...], np.ndarray]:
    """Distinct query ids (as str) in order of first appearance, and each row's index into them."""
    vocab, codes = factorize(texts)
    return tuple(q.decode() for q in vocab.tolist()), codes
