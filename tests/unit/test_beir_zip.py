"""A BEIR dataset's zip gives its qrels of one split: found at any depth, read alone, refused clearly otherwise."""
from __future__ import annotations

import io
import zipfile

import pytest

from components.formats.beir_zip import BeirZipError, is_zip, qrels_in_zip

QRELS = b"query-id\tcorpus-id\tscore\nq1\td1\t1\n"


def zipped(files: dict[str, bytes | str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
        for name, body in files.items():
            z.writestr(name, body)
    return buffer.getvalue()


@pytest.mark.parametrize("name", ["qrels/test.tsv", "scifact/qrels/test.tsv", "datasets/scifact/qrels/test.tsv"])
def test_the_splits_qrels_is_found_at_any_depth(name):
    data = zipped({"scifact/corpus.jsonl": "{}\n" * 100, name: QRELS, "scifact/qrels/dev.tsv": b"other"})
    assert is_zip(data)
    assert qrels_in_zip(data, "scifact.zip") == (name, QRELS)
    assert qrels_in_zip(data, "scifact.zip", "dev") == ("scifact/qrels/dev.tsv", b"other")


def test_a_zip_without_the_split_says_which_it_has():
    data = zipped({"nq/qrels/dev.tsv": QRELS, "nq/qrels/train.tsv": QRELS})
    with pytest.raises(BeirZipError, match=r"^nq\.zip: no qrels/test\.tsv in this zip \(its qrels: dev, train\)$"):
        qrels_in_zip(data, "nq.zip")
    with pytest.raises(BeirZipError, match=r"its qrels: none"):
        qrels_in_zip(zipped({"corpus.jsonl": "{}"}), "x.zip")


def test_two_candidates_are_named_and_macos_copies_are_ignored():
    assert qrels_in_zip(zipped({"a/qrels/test.tsv": QRELS, "__MACOSX/a/qrels/test.tsv": b"junk"}), "a.zip")[1] == QRELS
    with pytest.raises(BeirZipError, match="more than one qrels/test.tsv in this zip: a/qrels/test.tsv, b/qrels/test.tsv"):
        qrels_in_zip(zipped({"b/qrels/test.tsv": QRELS, "a/qrels/test.tsv": QRELS}), "ab.zip")


def test_not_a_zip_and_an_unknown_split_are_refused():
    assert not is_zip(QRELS)
    with pytest.raises(BeirZipError, match="^q.tsv: not a zip file"):
        qrels_in_zip(QRELS, "q.tsv")
    with pytest.raises(ValueError, match="split must be one of"):
        qrels_in_zip(zipped({"qrels/test.tsv": QRELS}), "x.zip", "validation")


def test_a_member_over_the_limit_is_not_inflated():
    big = zipped({"qrels/test.tsv": b"q1\td1\t1\n" * 100_000})  # 800 KB unpacked, a few KB packed
    assert len(big) < 20_000
    with pytest.raises(BeirZipError, match=r"qrels/test\.tsv is 800,000 bytes unpacked, over the limit of 1,000"):
        qrels_in_zip(big, "big.zip", max_bytes=1000)
    assert len(qrels_in_zip(big, "big.zip", max_bytes=800_000)[1]) == 800_000


def test_a_qrels_zip_reads_as_its_tsv_and_says_which_file_it_read():
    """The front door (readers.read, so the app's uploads and rankwise eval) takes a BEIR dataset's zip as the
    judgments: the same Qrels as its qrels/test.tsv, the member named; a run is never looked for in a zip."""
    from pathlib import Path

    from components.engine import model
    from components.formats import readers

    tsv = (Path(__file__).resolve().parents[2] / "assets" / "beir_sample" / "qrels" / "test.tsv").read_bytes()
    data = zipped({"sample/corpus.jsonl": "{}\n", "sample/qrels/test.tsv": tsv})
    plain, zipped_read = readers.read(tsv, "qrels", "test.tsv"), readers.read(data, "qrels", "sample.zip")
    assert zipped_read.understood.member == "sample/qrels/test.tsv" and plain.understood.member is None
    assert zipped_read.understood.format == "tsv"
    for field in ("qids", "qidx", "docids", "grade", "line"):
        assert list(getattr(zipped_read.parsed, field)) == list(getattr(plain.parsed, field))
    assert readers.understood(data, "qrels", "sample.zip").member == "sample/qrels/test.tsv"
    broken = zipped({"sample/qrels/test.tsv": b"query-id\tcorpus-id\tscore\nq1\td1\tlots\n"})
    with pytest.raises(model.TrecFormatError, match=r"^sample\.zip: sample/qrels/test\.tsv, line 2"):
        readers.read(broken, "qrels", "sample.zip")
    with pytest.raises(model.TrecFormatError, match=r"^sample\.zip: no qrels/test\.tsv in this zip"):
        readers.read(zipped({"sample/corpus.jsonl": "{}"}), "qrels", "sample.zip")
    with pytest.raises(model.TrecFormatError):  # a zip as a run is a file that is not text
        readers.read(data, "run", "sample.zip")
